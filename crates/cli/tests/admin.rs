//! `snakepit admin` against a database file and against a running server.

mod common;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn snakepit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_snakepit")).args(args).env("SNAKEPIT_ADMIN_TOKEN", "tok").output().unwrap()
}

fn temp_db(tag: &str) -> (PathBuf, String) {
    let d = std::env::temp_dir().join(format!("snakepit-admin-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let db = d.join("db.sqlite");
    let s = db.to_str().unwrap().to_string();
    (d, s)
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "failed: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).to_string()
}

#[test]
fn players_against_the_database() {
    let (dir, db) = temp_db("local");
    let out = stdout(&snakepit(&["admin", "add-player", "ann", "--db", &db]));
    let id = out.lines().find_map(|l| l.strip_prefix("id: ")).unwrap().to_string();
    let code = out.lines().find_map(|l| l.strip_prefix("code: ")).unwrap().to_string();
    assert_eq!(id.len(), 20);
    assert!(code.bytes().all(|b| b.is_ascii_digit()));
    let list = stdout(&snakepit(&["admin", "players", "--db", &db]));
    assert!(list.contains(&format!("{id}\tann\tsnakebattle\t/codenjoy-contest/board/player/{id}?code={code}")), "{list}");
    // A taken name is a clear error.
    let dup = snakepit(&["admin", "add-player", "ann", "--db", &db]);
    assert!(!dup.status.success());
    assert!(String::from_utf8_lossy(&dup.stderr).contains("taken"));
    // Live-room commands say they need a server.
    let pause = snakepit(&["admin", "pause", "snakebattle", "--db", &db]);
    assert!(!pause.status.success());
    assert!(String::from_utf8_lossy(&pause.stderr).contains("--server"));
    assert!(stdout(&snakepit(&["admin", "reset-scores", "--db", &db])).contains("cleared"));
    // A database that is not there is not made empty to list nothing, and
    // a bad game is bad input (exit 2).
    let missing = dir.join("typo.sqlite");
    let out = snakepit(&["admin", "players", "--db", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no database at"), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!missing.exists());
    let out = snakepit(&["admin", "add-player", "bob", "--game", "chess", "--db", &db]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown game \"chess\""));
    let out = snakepit(&["admin", "reset-scores", "--game", "chess", "--db", &db]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown game \"chess\""));
    // A removed player is gone; removing them again is bad input.
    assert_eq!(stdout(&snakepit(&["admin", "remove", &id, "--db", &db])).trim(), format!("removed {id}"));
    assert!(!stdout(&snakepit(&["admin", "players", "--db", &db])).contains(&id));
    let again = snakepit(&["admin", "remove", &id, "--db", &db]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("no player"), "{}", String::from_utf8_lossy(&again.stderr));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn pause_and_resume_a_running_server() {
    let (dir, db) = temp_db("remote");
    let server = common::Served::start("tok", ["--db", &db, "--tick-ms", "50"]);
    let url = format!("http://{}", server.addr);
    let paused = stdout(&snakepit(&["admin", "pause", "snakebattle", "--server", &url]));
    assert!(paused.contains("\"paused\":true"), "{paused}");
    let rooms = stdout(&snakepit(&["admin", "rooms", "--server", &url]));
    assert!(rooms.contains("\"paused\":true"), "{rooms}");
    let resumed = stdout(&snakepit(&["admin", "resume", "snakebattle", "--server", &url]));
    assert!(resumed.contains("\"paused\":false"), "{resumed}");
    let made = stdout(&snakepit(&["admin", "create-room", "final", "--game", "duel", "--tick-ms", "250", "--server", &url]));
    assert!(made.contains("\"room\":\"final\""), "{made}");
    let ticked = stdout(&snakepit(&["admin", "tick", "final", "400", "--server", &url]));
    assert!(ticked.contains("\"tick_ms\":400"), "{ticked}");
    let rooms = stdout(&snakepit(&["admin", "rooms", "--server", &url]));
    assert!(rooms.contains("\"name\":\"final\""), "{rooms}");
    let closed = stdout(&snakepit(&["admin", "close-room", "final", "--server", &url]));
    assert!(closed.contains("\"deleted\":\"final\"") && closed.contains("\"returns_at_restart\":false"), "{closed}");
    let rooms = stdout(&snakepit(&["admin", "rooms", "--server", &url]));
    assert!(!rooms.contains("\"name\":\"final\""), "{rooms}");
    let made = stdout(&snakepit(&["admin", "create-room", "final", "--game", "duel", "--server", &url]));
    assert!(made.contains("\"room\":\"final\""), "{made}");
    let fast = snakepit(&["admin", "tick", "final", "1", "--server", &url]);
    assert!(!fast.status.success());
    assert!(String::from_utf8_lossy(&fast.stderr).contains("ticks are 10 to 60000 ms"), "{}", String::from_utf8_lossy(&fast.stderr));
    let offline = snakepit(&["admin", "create-room", "x", "--db", &db]);
    assert!(String::from_utf8_lossy(&offline.stderr).contains("--server"));
    let added = stdout(&snakepit(&["admin", "add-player", "bob", "--server", &url]));
    assert!(added.contains("/codenjoy-contest/board/player/"), "{added}");
    let bob: serde_json::Value = serde_json::from_str(added.trim()).unwrap();
    let bob = bob["id"].as_str().unwrap();
    let seated = stdout(&snakepit(&["admin", "seat", bob, "snakebattle", "--server", &url]));
    assert!(seated.contains("\"room\":\"snakebattle\""), "{seated}");
    let elsewhere = snakepit(&["admin", "seat", bob, "final", "--server", &url]);
    assert!(String::from_utf8_lossy(&elsewhere.stderr).contains("400"), "a duel room: {}", String::from_utf8_lossy(&elsewhere.stderr));
    let removed = stdout(&snakepit(&["admin", "remove", bob, "--server", &url]));
    assert!(removed.contains(&format!("\"removed\":\"{bob}\"")), "{removed}");
    let listed = stdout(&snakepit(&["admin", "players", "--server", &url]));
    assert!(!listed.contains(bob), "{listed}");
    // The token from a file: a wrong one is refused by the server, the
    // right one works, and the file's first line is the token.
    let token_file = dir.join("token");
    std::fs::write(&token_file, "nope\n").unwrap();
    let from_file = |file: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_snakepit"))
            .args(["admin", "pause", "snakebattle", "--server", &url, "--token-file", file.to_str().unwrap()])
            .env_remove("SNAKEPIT_ADMIN_TOKEN")
            .output()
            .unwrap()
    };
    let wrong = from_file(&token_file);
    assert!(!wrong.status.success());
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("401"), "{}", String::from_utf8_lossy(&wrong.stderr));
    std::fs::write(&token_file, "tok\n").unwrap();
    assert!(stdout(&from_file(&token_file)).contains("\"paused\":true"));
    // Neither the file nor the environment: the message says where the
    // token goes, and the server is not asked.
    let none = Command::new(env!("CARGO_BIN_EXE_snakepit"))
        .args(["admin", "resume", "snakebattle", "--server", &url])
        .env_remove("SNAKEPIT_ADMIN_TOKEN")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&none.stderr);
    assert_eq!(none.status.code(), Some(2), "{said}");
    assert!(said.contains("SNAKEPIT_ADMIN_TOKEN") && said.contains("--token-file"), "{said}");
    let rooms = stdout(&snakepit(&["admin", "rooms", "--server", &url]));
    assert!(rooms.contains("\"paused\":true"), "not resumed without a token: {rooms}");
    drop(server);
    let _ = std::fs::remove_dir_all(dir);
}

/// The admin token never goes on a command line: there is no argument for
/// it (a command line is readable by every user of the machine in /proc),
/// no help text shows one, and a server started with a chosen token does
/// not print it.
#[test]
fn the_admin_token_is_never_an_argument() {
    let (dir, db) = temp_db("token-arg");
    let given = Command::new(env!("CARGO_BIN_EXE_snakepit"))
        .args(["admin", "pause", "snakebattle", "--server", "http://127.0.0.1:9", "--token", "T0P-SECRET"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&given.stderr);
    assert_eq!(given.status.code(), Some(2), "refused as a usage error: {said}");
    assert!(said.contains("--token-file"), "points to the file option: {said}");
    for args in [&["--help"][..], &["admin", "--help"], &["admin", "pause", "--help"], &["serve", "--help"]] {
        let help = stdout(&snakepit(args));
        assert!(!help.contains("--token ") && !help.contains("--token <"), "{args:?} shows a token argument:\n{help}");
        if args[0] == "admin" {
            assert!(help.contains("--token-file"), "{args:?}:\n{help}");
        }
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_snakepit"))
        .args(["serve", "--bind", "127.0.0.1", "--port", "0", "--db", &db])
        .env("SNAKEPIT_ADMIN_TOKEN", "T0P-SECRET")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut printed = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let done = line.starts_with("admin token");
        printed.push(line);
        if done {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let printed = printed.join("\n");
    assert!(printed.contains("admin token: the one set in SNAKEPIT_ADMIN_TOKEN"), "{printed}");
    assert!(!printed.contains("T0P-SECRET"), "{printed}");
    let _ = std::fs::remove_dir_all(dir);
}
