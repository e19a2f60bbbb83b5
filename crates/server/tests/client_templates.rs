//! The client templates, end to end: a player downloads each language's
//! archive through the HTTP API, it unpacks with a standard unzip, builds
//! with the language's own tools, and plays on a real server using the URL
//! filled into the archive (no arguments), reconnecting after an admin
//! kicks it.
//!
//! The tools come from `scripts/install-test-deps.sh` (websocket-client for
//! Python, `ws` in `clients/javascript/node_modules`, mono-mcs); `javac`,
//! `node` and `cargo` are expected on the machine. A missing tool fails the
//! test with a message that names that script, rather than skipping, so that
//! a template cannot rot unnoticed.
//!
//! The Rust template is built in `SNAKEPIT_CLIENT_TARGET_DIR`, by default
//! `target/clients-rust` in the workspace. It has to be a directory of its
//! own: `cargo test` keeps its own target directory locked while tests run.

mod common;

use common::*;
use futures_util::StreamExt;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::process::Command;
use tokio_tungstenite::tungstenite::Message;

/// Tick period of the test rooms.
const TICK_MS: u64 = 20;
/// Boards each template answers before it exits. Enough to outlast the
/// kick in the middle of the run (and the reconnect delay that follows).
const TICKS: u32 = 100;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// A temporary directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
        let dir = std::env::temp_dir().join(format!("snakepit-templates-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A child process that is killed whenever the guard goes away: a failed
/// assertion or a timeout must not leave a bot playing against nothing.
struct Running {
    child: tokio::process::Child,
    what: String,
}

impl Running {
    fn spawn(cmd: &mut Command, what: &str) -> Running {
        let child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {what}: {e}; run scripts/install-test-deps.sh"));
        Running { child, what: what.to_string() }
    }

    /// Waits for the exit and returns (status, stdout, stderr).
    async fn finish(mut self, within: Duration) -> (ExitStatus, String, String) {
        let mut out = self.child.stdout.take().unwrap();
        let mut err = self.child.stderr.take().unwrap();
        let (mut o, mut e) = (Vec::new(), Vec::new());
        let all = async {
            // Both pipes are drained together so that neither fills up and
            // stalls the child.
            let (a, b) = tokio::join!(out.read_to_end(&mut o), err.read_to_end(&mut e));
            a.unwrap();
            b.unwrap();
            self.child.wait().await.unwrap()
        };
        let finished = tokio::time::timeout(within, all).await;
        let Ok(status) = finished else {
            let (o, e) = (String::from_utf8_lossy(&o), String::from_utf8_lossy(&e));
            panic!("{} did not finish within {within:?}; it printed:\n{o}\n{e}", self.what);
        };
        (status, String::from_utf8_lossy(&o).into_owned(), String::from_utf8_lossy(&e).into_owned())
    }

    /// Stops the child and returns what it printed so far.
    async fn stop(mut self) -> String {
        let _ = self.child.start_kill();
        let mut out = self.child.stdout.take().unwrap();
        let mut o = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), out.read_to_end(&mut o)).await;
        let _ = tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await;
        String::from_utf8_lossy(&o).into_owned()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        // kill_on_drop covers the child too; this makes the intent explicit
        // and works even if the child was already taken apart.
        let _ = self.child.start_kill();
    }
}

/// Runs a command to completion and fails the test if it fails.
async fn run_ok(dir: &Path, program: &str, args: &[&str], envs: &[(&str, &str)], within: Duration) -> String {
    let what = format!("{program} {}", args.join(" "));
    let mut cmd = Command::new(program);
    cmd.args(args).current_dir(dir).envs(envs.iter().copied());
    let (status, out, err) = Running::spawn(&mut cmd, &what).finish(within).await;
    assert!(status.success(), "{what} failed ({status}):\n{out}\n{err}");
    out
}

/// GET returning the raw body bytes (the common helper reads text).
async fn get_bytes(addr: SocketAddr, path: &str) -> (u16, String, Vec<u8>) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let split = buf.windows(4).position(|w| w == b"\r\n\r\n").expect("a header block");
    let head = String::from_utf8_lossy(&buf[..split]).to_string();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    assert!(!head.to_ascii_lowercase().contains("transfer-encoding: chunked"), "expected a sized body:\n{head}");
    (status, head, buf[split + 4..].to_vec())
}

/// Downloads a template and unpacks it with Python's zipfile; returns the
/// unpacked folder.
async fn download(addr: SocketAddr, lang: &str, id: &str, code: &str, into: &Path) -> PathBuf {
    let (status, head, body) = get_bytes(addr, &format!("/api/templates/{lang}?user={id}&code={code}")).await;
    assert_eq!(status, 200, "{head}\n{}", String::from_utf8_lossy(&body));
    let lower = head.to_ascii_lowercase();
    assert!(lower.contains("content-type: application/zip"), "{head}");
    assert!(head.contains(&format!("attachment; filename=\"snakepit-{lang}.zip\"")), "{head}");
    let zip = into.join(format!("snakepit-{lang}.zip"));
    std::fs::write(&zip, &body).unwrap();
    let zip = zip.to_str().unwrap();
    run_ok(into, "python3", &["-m", "zipfile", "-t", zip], &[], Duration::from_secs(30)).await;
    run_ok(into, "python3", &["-m", "zipfile", "-e", zip, "."], &[], Duration::from_secs(30)).await;
    into.join(format!("snakepit-{lang}"))
}

fn files_with(dir: &Path, ext: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(ext))
        .collect();
    v.sort();
    v
}

/// The seat of `name` in any room, as JSON.
async fn seat(addr: SocketAddr, name: &str) -> Option<serde_json::Value> {
    let (status, body) = http(addr, "GET", "/api/rooms", None, None).await;
    assert_eq!(status, 200, "{body}");
    let rooms: serde_json::Value = serde_json::from_str(&body).unwrap();
    rooms.as_array()?.iter().flat_map(|r| r["seats"].as_array().cloned().unwrap_or_default()).find(|s| s["name"] == name)
}

/// Waits until the seat of `name` is (or is not) held by a connected bot.
async fn wait_connected(addr: SocketAddr, name: &str, connected: bool, within: Duration) {
    let deadline = tokio::time::Instant::now() + within;
    while seat(addr, name).await.is_some_and(|s| s["connected"] == true) != connected {
        assert!(tokio::time::Instant::now() < deadline, "{name}: connected never became {connected}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Commands that build an unpacked template: (program, arguments, time limit).
type Build = fn(&Path) -> Vec<(String, Vec<String>, Duration)>;
/// The command that runs an unpacked template: (program, arguments).
type Run = fn(&Path) -> (String, Vec<String>);

/// Downloads, builds and runs one template, and checks it played.
async fn plays(lang: &str, build: Build, run: Run) {
    let started = std::time::Instant::now();
    let tmp = TempDir::new(lang);
    let server = start(config(temp_db(&format!("tpl-{lang}")), TICK_MS)).await;
    let addr = server.addr;
    let name = format!("{lang}-template");
    let (id, code, url) = register(addr, &name).await;

    let dir = download(addr, lang, &id, &code, &tmp.0).await;
    let mut has_url = false;
    for entry in walk(&dir) {
        let text = std::fs::read_to_string(&entry).unwrap();
        assert!(!text.contains("SNAKEPIT_PLAYER_URL"), "{} keeps the placeholder", entry.display());
        has_url |= text.contains(&url);
    }
    assert!(has_url, "no file of the {lang} template has the player's URL {url}");

    for (program, args, within) in build(&dir) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run_ok(&dir, &program, &args, &[], within).await;
    }
    let built = started.elapsed();

    let (program, args) = run(&dir);
    let node_path = repo_root().join("clients/javascript/node_modules");
    let ticks = TICKS.to_string();
    let mut cmd = Command::new(&program);
    cmd.args(&args)
        .current_dir(&dir)
        .env("SNAKEPIT_TICKS", &ticks)
        // The JavaScript template's `ws`, installed once in the repository
        // rather than in every unpacked copy.
        .env("NODE_PATH", &node_path);
    let bot = Running::spawn(&mut cmd, &format!("the {lang} template"));

    // The seat shows the bot connected while it plays; an admin kick drops
    // the connection, and the bot comes back by itself.
    wait_connected(addr, &name, true, Duration::from_secs(60)).await;
    let (status, body) = http(addr, "POST", &format!("/api/admin/players/{id}/kick"), None, Some(TOKEN)).await;
    assert_eq!(status, 200, "{body}");
    wait_connected(addr, &name, false, Duration::from_secs(60)).await;
    wait_connected(addr, &name, true, Duration::from_secs(60)).await;

    // 100 ticks of play take seconds; a runtime that starts slowly on a
    // loaded machine (mono, the JVM) gets two minutes.
    let (status, out, err) = bot.finish(Duration::from_secs(120)).await;
    assert!(status.success(), "the {lang} template exited with {status}:\n{out}\n{err}");
    let boards = out.lines().filter(|l| l.starts_with("board ")).count();
    assert_eq!(boards, TICKS as usize, "the {lang} template answered {boards} boards:\n{out}\n{err}");
    assert!(out.contains(&format!("done: answered {TICKS} boards")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("board ") && !l.contains("head none")), "it never saw its head:\n{out}");
    assert!(out.contains("disconnected"), "{out}");
    assert!(out.lines().filter(|l| l.trim() == "connected").count() >= 2, "it did not reconnect:\n{out}");
    server.shutdown().await;
    eprintln!("{lang}: built in {built:?}, done in {:?}", started.elapsed());
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() { files.extend(walk(&p)) } else { files.push(p) }
    }
    files
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

fn no_build(_: &Path) -> Vec<(String, Vec<String>, Duration)> {
    Vec::new()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_template_plays() {
    plays("python", no_build, |_| ("python3".into(), s(&["main.py"]))).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn javascript_template_plays() {
    assert!(
        repo_root().join("clients/javascript/node_modules/ws").is_dir(),
        "clients/javascript/node_modules/ws is missing; run scripts/install-test-deps.sh"
    );
    plays("javascript", no_build, |_| ("node".into(), s(&["main.js"]))).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn java_template_plays() {
    plays(
        "java",
        |dir| {
            let mut args = s(&["-encoding", "UTF-8", "-d", "out"]);
            args.extend(files_with(dir, ".java"));
            vec![("javac".into(), args, Duration::from_secs(120))]
        },
        |_| ("java".into(), s(&["-cp", "out", "Main"])),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn csharp_template_plays() {
    plays(
        "csharp",
        |dir| {
            let mut args = s(&["-out:client.exe"]);
            args.extend(files_with(dir, ".cs"));
            vec![("mcs".into(), args, Duration::from_secs(120))]
        },
        |_| ("mono".into(), s(&["client.exe"])),
    )
    .await;
}

fn rust_target_dir() -> PathBuf {
    std::env::var_os("SNAKEPIT_CLIENT_TARGET_DIR").map_or_else(|| repo_root().join("target/clients-rust"), PathBuf::from)
}

/// The first build downloads and compiles tokio and tungstenite (about a
/// minute on two cores); later runs reuse the target directory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rust_template_plays() {
    plays(
        "rust",
        |_| {
            let target = rust_target_dir().to_string_lossy().into_owned();
            let args = s(&["build", "--locked", "--quiet", "--target-dir", &target]);
            // The cargo that runs this test, rather than whichever is first
            // on PATH.
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            vec![(cargo, args, Duration::from_secs(900))]
        },
        |_| (rust_target_dir().join("debug/snakepit-client").to_string_lossy().into_owned(), Vec::new()),
    )
    .await;
}

#[tokio::test]
async fn templates_need_the_players_code() {
    let server = start(config(temp_db("tpl-auth"), 1000)).await;
    let addr = server.addr;
    let (id, code, _) = register(addr, "owner").await;
    let wrong = if code == "1" { "2" } else { "1" };
    for path in [
        format!("/api/templates/python?user={id}&code={wrong}"),
        format!("/api/templates/python?user={id}"),
        "/api/templates/python".to_string(),
        format!("/api/templates/python?user=nobody&code={code}"),
    ] {
        let (status, _, _) = get_bytes(addr, &path).await;
        assert_eq!(status, 401, "{path}");
    }
    let (status, _, body) = get_bytes(addr, &format!("/api/templates/cobol?user={id}&code={code}")).await;
    assert_eq!(status, 404);
    assert!(String::from_utf8_lossy(&body).contains("python"), "the error lists the languages");
    // The clients play SnakeBattle: a Hex player gets no snake bot.
    let body = serde_json::json!({ "name": "hexer", "game": "hex" }).to_string();
    let (status, body) = http(addr, "POST", "/api/register", Some(&body), None).await;
    assert_eq!(status, 201, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    let (hex_id, hex_code) = (v["id"].as_str().unwrap(), v["code"].as_str().unwrap());
    let (status, _, body) = get_bytes(addr, &format!("/api/templates/python?user={hex_id}&code={hex_code}")).await;
    assert_eq!(status, 404);
    assert!(String::from_utf8_lossy(&body).contains("hexer plays hex"), "{}", String::from_utf8_lossy(&body));
    server.shutdown().await;
}

/// A client written the way CodeBattle's Python client is (the URL turned
/// into the socket address by plain string replacement), answering every
/// board until it is stopped.
const TINY_CLIENT: &str = r#"
import sys, websocket
url = sys.argv[1].replace("http", "ws").replace("board/player/", "ws?user=").replace("?code=", "&code=")
ws = websocket.create_connection(url)
moves = ["UP", "RIGHT", "DOWN", "LEFT"]
n = 0
while True:
    msg = ws.recv()
    if msg.startswith("board="):
        n += 1
        ws.send(moves[(n // 3) % 4])
        print("answered", n, flush=True)
"#;

/// A full round with a CodeBattle-style client seated: the room goes from
/// countdown to running and back to countdown while the client answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_codebattle_style_client_plays_a_full_round() {
    let started = std::time::Instant::now();
    let tmp = TempDir::new("tiny");
    let server = start(config(temp_db("tpl-round"), TICK_MS)).await;
    let addr = server.addr;
    let (_, _, url) = register(addr, "tiny").await;
    let script = tmp.0.join("tiny.py");
    std::fs::write(&script, TINY_CLIENT).unwrap();
    let mut cmd = Command::new("python3");
    cmd.arg(&script).arg(&url);
    let bot = Running::spawn(&mut cmd, "the tiny Python client");

    let (mut spectator, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/room/snakebattle")).await.unwrap();
    // countdown, then running, then countdown again.
    let mut stage = 0;
    let mut connected_when_done = false;
    let mut round_ticks = 0;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while stage < 3 {
        let msg = tokio::time::timeout_at(deadline, spectator.next())
            .await
            .unwrap_or_else(|_| panic!("no full round within 60 s (stage {stage})"));
        let Some(Ok(Message::Text(text))) = msg else { panic!("the spectator socket ended: {msg:?}") };
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        if v["type"] != "frame" {
            continue;
        }
        let phase = v["data"]["phase"].as_str().unwrap_or_default();
        if stage == 2 && phase == "running" {
            round_ticks = v["data"]["phase_ticks"].as_u64().unwrap_or(0);
        }
        stage = match (stage, phase) {
            (0, "countdown") => 1,
            (1, "running") => 2,
            (2, "countdown") => 3,
            (s, _) => s,
        };
        if stage == 3 {
            connected_when_done = seat(addr, "tiny").await.is_some_and(|s| s["connected"] == true);
        }
    }
    let out = bot.stop().await;
    let answered = out.lines().filter(|l| l.starts_with("answered")).count();
    assert!(connected_when_done, "the client was not connected when the round ended:\n{out}");
    // A round lasts until one snake is left (at least 40 ticks are needed
    // for a win) or 300 ticks; the client answers nearly every board.
    assert!(answered >= 30, "only {answered} boards answered:\n{out}");
    server.shutdown().await;
    eprintln!("a round of about {round_ticks} ticks; {answered} boards answered; {:?}", started.elapsed());
}
