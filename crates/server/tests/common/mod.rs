//! Test support: a real server on a loopback port, a minimal HTTP client,
//! and WebSocket helpers.
#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use snakepit_server::config::Config;
use snakepit_server::Server;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// How long a test waits for a message the server must send (a board, a
/// frame, a close): far longer than a tick on any machine, however loaded.
/// A message that never comes fails the test; how soon it comes is not
/// asserted. Waits for a message that must *not* come stay short.
pub const FRAME_WAIT: Duration = Duration::from_secs(30);

pub const TOKEN: &str = "test-admin-token";

/// A unique temporary database path.
pub fn temp_db(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("snakepit-test-{}-{tag}-{}", std::process::id(), rand_suffix()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("db.sqlite")
}

fn rand_suffix() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
}

/// A config for tests: loopback, port 0, fast ticks, small limits.
pub fn config(db: PathBuf, tick_ms: u64) -> Config {
    let mut cfg = Config { bind: "127.0.0.1".into(), port: 0, db, admin_token: TOKEN.into(), ..Config::default() };
    cfg.snakebattle.tick_ms = tick_ms;
    cfg.hex.tick_ms = tick_ms;
    // Ticks this fast make every SnakeBattle round short: the tests that
    // seat newcomers in rooms of their own ask for it (`arrival_wait_ms`).
    cfg.limits.arrival_wait_ms = 0;
    cfg
}

pub async fn start(cfg: Config) -> Server {
    Server::start(cfg).await.expect("server starts")
}

/// One HTTP/1.1 request; returns (status, body).
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>, token: Option<&str>) -> (u16, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = body.unwrap_or("");
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8_lossy(&buf).to_string();
    let status: u16 = text.split(' ').nth(1).unwrap().parse().unwrap();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap();
    let body = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") { dechunk(rest) } else { rest.to_string() };
    (status, body)
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((len, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(len.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

/// Registers a player; returns (id, code, url).
pub async fn register(addr: SocketAddr, name: &str) -> (String, String, String) {
    let (status, body) = http(addr, "POST", "/api/register", Some(&serde_json::json!({ "name": name }).to_string()), None).await;
    assert_eq!(status, 201, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    (v["id"].as_str().unwrap().into(), v["code"].as_str().unwrap().into(), v["url"].as_str().unwrap().into())
}

pub async fn connect_bot(addr: SocketAddr, id: &str, code: &str) -> Ws {
    let url = format!("ws://{addr}/codenjoy-contest/ws?user={id}&code={code}&gameName=snakebattle");
    tokio_tungstenite::connect_async(url).await.expect("websocket connects").0
}

/// The next text message, within a deadline.
pub async fn next_text(ws: &mut Ws, within: Duration) -> Option<String> {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => return Some(t.to_string()),
            Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) | Err(_) => return None,
            Ok(Some(Ok(_))) => {}
        }
    }
}

/// Waits for the close frame and returns its reason.
pub async fn close_reason(ws: &mut Ws, within: Duration) -> Option<String> {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, ws.next()).await {
            Ok(Some(Ok(Message::Close(Some(f))))) => return Some(f.reason.to_string()),
            Ok(Some(Ok(Message::Close(None)))) => return Some(String::new()),
            Ok(Some(Ok(_))) => {}
            Ok(Some(Err(_))) | Ok(None) | Err(_) => return None,
        }
    }
}

pub async fn send(ws: &mut Ws, text: &str) {
    let _ = ws.send(Message::Text(text.to_string().into())).await;
}

/// The leaderboard as (name, score) pairs.
pub async fn leaderboard(addr: SocketAddr) -> Vec<(String, i64)> {
    let (status, body) = http(addr, "GET", "/api/leaderboard?game=snakebattle", None, None).await;
    assert_eq!(status, 200);
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    v.as_array().unwrap().iter().map(|r| (r["name"].as_str().unwrap().to_string(), r["score"].as_i64().unwrap())).collect()
}
