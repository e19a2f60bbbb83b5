//! `snakepit serve` as an organiser runs it for strangers: the files it
//! writes are for its own user only, and with public sign-up it runs no
//! uploaded program unless every sandbox layer holds (or the
//! configuration says otherwise).

mod common;

use common::http;
use std::net::SocketAddr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

type Server = common::Served;

fn serve(dir: &Path, config: Option<&str>) -> Server {
    serve_with(dir, config, &[])
}

fn serve_with(dir: &Path, config: Option<&str>, extra: &[&str]) -> Server {
    let mut args: Vec<std::ffi::OsString> = ["--tick-ms", "50", "--db"].iter().map(Into::into).collect();
    args.push(dir.join("db.sqlite").into());
    if let Some(text) = config {
        let file = dir.join("snakepit.toml");
        std::fs::write(&file, text).unwrap();
        args.push("--config".into());
        args.push(file.into());
    }
    args.extend(extra.iter().map(Into::into));
    Server::start("t", args)
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("snakepit-public-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Signs up a player for `game`; their id and code.
fn register(addr: SocketAddr, name: &str, game: &str) -> (String, String) {
    let (status, body) = http(addr, "POST", "/api/register", &format!(r#"{{"name":"{name}","game":"{game}"}}"#));
    assert_eq!(status, 201, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    (v["id"].as_str().unwrap().to_string(), v["code"].as_str().unwrap().to_string())
}

/// Every file in `dir` with its permission bits.
fn modes(dir: &Path) -> Vec<(String, u32)> {
    let mut all: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.metadata().unwrap().permissions().mode() & 0o777))
        .collect();
    all.sort();
    all
}

/// The database, its -wal and -shm are 0600 from the start, whatever the
/// umask; a database left readable by others is set to 0600 at the next
/// start, and the log says so.
#[test]
fn the_server_s_files_are_its_user_s_only() {
    let dir = temp_dir("modes");
    let server = serve(&dir, None);
    // A sign-up is a write: the -wal and -shm exist by then.
    register(server.addr, "ann", "duel");
    let files = modes(&dir);
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["db.sqlite", "db.sqlite-shm", "db.sqlite-wal"], "{files:?}");
    for (name, mode) in &files {
        assert_eq!(*mode, 0o600, "{name} is {mode:o}");
    }
    drop(server);

    for name in ["db.sqlite", "db.sqlite-wal", "db.sqlite-shm"] {
        let file = dir.join(name);
        if file.exists() {
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
    }
    let server = serve(&dir, None);
    let log = server.wait_for_log("db.sqlite was mode 644, readable by other users: set to 600");
    register(server.addr, "bob", "duel");
    for (name, mode) in modes(&dir) {
        assert_eq!(mode, 0o600, "{name} is {mode:o} after a start:\n{log}");
    }
    // The players written before are still there.
    let (status, body) = http(server.addr, "POST", "/api/register", r#"{"name":"ann","game":"duel"}"#);
    assert_eq!(status, 409, "ann was kept: {body}");
    drop(server);
    // A configuration file that holds the admin token and that others may
    // read is named in the log (it is the organiser's file: left as is).
    let server = serve(&dir, Some("admin_token = \"in-the-file\"\n"));
    let config = dir.join("snakepit.toml");
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o644)).unwrap();
    drop(server);
    let server = serve(&dir, Some("admin_token = \"in-the-file\"\n"));
    server.wait_for_log("snakepit.toml holds the admin token and is mode 644, readable by other users");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The duel room's tick, from the lobby's list.
fn duel_tick(addr: SocketAddr) -> u64 {
    let (status, body) = http(addr, "GET", "/api/rooms", "");
    assert_eq!(status, 200, "{body}");
    let rooms: Vec<serde_json::Value> = serde_json::from_str(&body).unwrap();
    let duel = rooms.iter().find(|r| r["name"] == "duel").unwrap_or_else(|| panic!("no duel room: {body}"));
    duel["tick"].as_u64().unwrap()
}

/// A layer switched off in the configuration counts as missing (the way
/// to try this on a machine that has every layer). With public sign-up
/// the server then says so at start, refuses saves with the reason (before
/// anything runs), shows the reason on the player's page data, starts no
/// saved program and pairs none in its queue; built-in bots play on. With
/// `allow_missing_layers = true` the same save is accepted.
#[test]
fn a_public_server_missing_a_layer_runs_no_uploaded_program() {
    let dir = temp_dir("policy");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let source = std::fs::read_to_string(root.join("starters/duel/python/bot.py")).unwrap();
    let upload = |id: &str, code: &str| {
        serde_json::json!({ "user": id, "code": code, "lang": "python", "name": "starter", "source": source }).to_string()
    };
    let allowed = "[sandbox]\nallow_missing_layers = true\nlayers_off = [\"ipc namespace\"]\n";
    let server = serve(&dir, Some(allowed));
    let log = server.wait_for_log("bot sandbox layers on this machine:");
    assert!(log.contains("ipc namespace"), "the start report lists the layers:\n{log}");
    server.wait_for_log("uploaded programs of anyone who signs up run without the sandbox layers ipc namespace");
    let (id, code) = register(server.addr, "ann", "duel");
    let (status, body) = http(server.addr, "GET", &format!("/api/code?user={id}&code={code}"), "");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"programs_refused\":null"), "{body}");
    let (status, body) = http(server.addr, "POST", "/api/code", &upload(&id, &code));
    assert_eq!(status, 200, "accepted when the organiser allows it: {body}");
    drop(server);

    let refused = "[sandbox]\nlayers_off = [\"ipc namespace\"]\n";
    let server = serve_with(&dir, Some(refused), &["--ladder", "duel"]);
    let log = server.wait_for_log("uploaded programs will not run:");
    for words in ["sign-up is open to anyone", "lacks ipc namespace", "switched off in [sandbox] layers_off", "allow_missing_layers = true"] {
        assert!(log.contains(words), "{words:?} not in the log:\n{log}");
    }
    // The program saved before is not started, nor paired in a ladder.
    server.wait_for_log("saved program not started: this server runs no uploaded programs");
    server.wait_for_log("no ladder runs here: its games are between uploaded programs");
    let (status, body) = http(server.addr, "GET", &format!("/api/code?user={id}&code={code}"), "");
    assert_eq!(status, 200, "{body}");
    let info: serde_json::Value = serde_json::from_str(&body).unwrap();
    let why = info["programs_refused"].as_str().unwrap_or_else(|| panic!("the page is told why: {body}"));
    assert!(why.starts_with("this server runs no uploaded programs") && why.contains("ipc namespace"), "{why}");
    assert_eq!(info["saved"]["name"], "starter", "the saved program is kept: {body}");
    let (status, body) = http(server.addr, "POST", "/api/code", &upload(&id, &code));
    assert_eq!(status, 403, "{body}");
    let error: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(error["error"].as_str().unwrap(), format!("not saved: {why}"));
    let (status, body) = http(server.addr, "POST", "/api/code/start", &serde_json::json!({ "user": id, "code": code }).to_string());
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("this server runs no uploaded programs"), "{body}");
    // A new player is refused just the same; the built-in bots play on.
    let (bob, bob_code) = register(server.addr, "bob", "duel");
    assert_eq!(http(server.addr, "POST", "/api/code", &upload(&bob, &bob_code)).0, 403);
    let before = duel_tick(server.addr);
    let deadline = Instant::now() + Duration::from_secs(60);
    while duel_tick(server.addr) <= before + 3 {
        assert!(Instant::now() < deadline, "the duel room stopped at tick {before}");
        std::thread::sleep(Duration::from_millis(50));
    }
    // A fork with the saved program in a seat is played by no one: the
    // server's queue fails it with the reason, before building anything.
    let kept = loop {
        let (status, body) = http(server.addr, "GET", "/api/replays?origin=duel&limit=50", "");
        assert_eq!(status, 200, "{body}");
        let games: Vec<serde_json::Value> = serde_json::from_str(&body).unwrap();
        if let Some(g) = games.into_iter().find(|g| g["result"]["ticks"].as_u64().unwrap() >= 6) {
            break g["id"].as_i64().unwrap();
        }
        assert!(Instant::now() < deadline + Duration::from_secs(90), "no duel game of 6 ticks kept");
        std::thread::sleep(Duration::from_millis(200));
    };
    let ask = format!(r#"{{"from_tick":4,"seat":0,"bot":"code:{id}"}}"#);
    let (status, body) = http(server.addr, "POST", &format!("/api/replays/{kept}/fork?player={id}&code={code}"), &ask);
    assert_eq!(status, 200, "{body}");
    let status_url = serde_json::from_str::<serde_json::Value>(&body).unwrap()["status"].as_str().unwrap().to_string();
    let failed = loop {
        let (_, body) = http(server.addr, "GET", &status_url, "");
        let s: serde_json::Value = serde_json::from_str(&body).unwrap();
        match s["state"].as_str().unwrap() {
            "failed" => break s,
            "done" => panic!("the fork with a saved program was played: {s}"),
            _ => {}
        }
        assert!(Instant::now() < deadline + Duration::from_secs(180), "the fork was not taken: {s}");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(failed.to_string().contains("does not run: this server runs no uploaded programs"), "{failed}");
    drop(server);

    // The organiser's own players (closed registration) may upload.
    let server = serve(&dir, Some(&format!("registration = \"closed\"\n{refused}")));
    let (status, body) = http(server.addr, "POST", "/api/code", &upload(&bob, &bob_code));
    assert_eq!(status, 200, "{body}");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
