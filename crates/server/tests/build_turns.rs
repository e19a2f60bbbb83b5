//! Players take turns at the compilers: one build at a time per player, a
//! newer save replaces the player's waiting one, players who saved less
//! recently go first, and a save the queue cannot take is told why and
//! when to retry. A file of its own: it holds the process's compiler
//! places for its whole run.
//!
//! A build is held by a C file that includes itself twice at each of 60
//! levels: 2^60 inclusions, work no machine finishes, so the compiler runs
//! until the build's deadline or its memory bound ends it. The test checks
//! that it was still running when it was done with it.

mod common;

use common::*;
use serde_json::Value;
use snakepit_server::Server;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Compiles until the build's deadline or memory bound ends it.
const HELD: &str = "#if __INCLUDE_LEVEL__ < 60\n#include __FILE__\n#include __FILE__\n#endif\n\
                    #if __INCLUDE_LEVEL__ == 0\nint main(void) { return 0; }\n#endif\n";

/// A POST; returns (status, head, body).
async fn post(addr: SocketAddr, path: &str, body: &str) -> (u16, String, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8_lossy(&buf).to_string();
    let status = text.split(' ').nth(1).unwrap().parse().unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    (status, head.to_ascii_lowercase(), body.to_string())
}

struct Player {
    id: String,
    code: String,
}

async fn sign_up(addr: SocketAddr, name: &str) -> Player {
    let body = serde_json::json!({ "name": name, "game": "duel" }).to_string();
    let (status, text) = http(addr, "POST", "/api/register", Some(&body), None).await;
    assert_eq!(status, 201, "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    Player { id: v["id"].as_str().unwrap().into(), code: v["code"].as_str().unwrap().into() }
}

/// Saves a C program in the background; the answer is (status, head, body).
fn save(addr: SocketAddr, p: &Player, name: &str, source: &str) -> tokio::task::JoinHandle<(u16, String, String)> {
    let body = serde_json::json!({ "user": p.id, "code": p.code, "lang": "c", "name": name, "source": source }).to_string();
    tokio::spawn(async move { post(addr, "/api/code", &body).await })
}

/// The player's build as their page reads it (`null` when none).
async fn standing(addr: SocketAddr, p: &Player) -> Value {
    let (status, text) = http(addr, "GET", &format!("/api/code?user={}&code={}", p.id, p.code), None, None).await;
    assert_eq!(status, 200, "{text}");
    serde_json::from_str::<Value>(&text).unwrap()["build"].clone()
}

/// Waits (generously) until the player's build stands as `want` says.
async fn until(addr: SocketAddr, p: &Player, what: &str, want: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let got = standing(addr, p).await;
        if want(&got) {
            return got;
        }
        assert!(tokio::time::Instant::now() < deadline, "{what}: the build stands as {got}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A duel starter, which compiles at once.
const GOOD: &str = include_str!("../../../starters/duel/c/bot.c");

/// A server with one compiler, which a held build holds for 10 s, at most
/// `waiting_max` saves waiting, and three players: alice, bob and carol.
async fn one_compiler(tag: &str, waiting_max: usize) -> (Server, Player, Player, Player) {
    let mut cfg = config(temp_db(tag), 100);
    cfg.duel.tick_ms = Some(100);
    cfg.code.builds_at_once = 1;
    cfg.code.builds_waiting_max = waiting_max;
    cfg.code.build_seconds_max = 10;
    let server = start(cfg).await;
    let addr = server.addr;
    let (a, b, c) = (sign_up(addr, "alice").await, sign_up(addr, "bob").await, sign_up(addr, "carol").await);
    (server, a, b, c)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_take_turns_at_the_compiler_and_a_refused_save_says_when_to_retry() {
    let (server, a, b, c) = one_compiler("turns", 2).await;
    let addr = server.addr;

    // Alice's first save takes the compiler and holds it.
    let a1 = save(addr, &a, "held", HELD);
    until(addr, &a, "alice's first build runs", |s| s["state"] == "running").await;
    // Her second waits (one build at a time per player), and her third
    // replaces it: the second is told so.
    let a2 = save(addr, &a, "second", GOOD);
    until(addr, &a, "alice's second save waits", |s| s["state"] == "waiting").await;
    let a3 = save(addr, &a, "third", GOOD);
    let (status, _, text) = a2.await.unwrap();
    assert_eq!(status, 409, "{text}");
    assert!(text.contains("you saved a newer program while this one waited"), "{text}");

    // Bob saves after her: he is next, since she had the last turn.
    let b1 = save(addr, &b, "bob's held", HELD);
    let bob = until(addr, &b, "bob's save waits", |s| s["state"] == "waiting").await;
    assert_eq!((bob["position"].as_u64(), bob["waiting"].as_u64()), (Some(1), Some(2)), "{bob}");
    let alice = standing(addr, &a).await;
    assert_eq!((alice["state"].as_str(), alice["position"].as_u64()), (Some("waiting"), Some(2)), "{alice}");
    assert_eq!(alice["lane"], "compile");

    // The queue is full: Carol is told why and when to come back.
    let (status, head, text) = save(addr, &c, "carol's", GOOD).await.unwrap();
    assert_eq!(status, 503, "{text}");
    assert!(text.contains("2 programs are waiting for their turn") && text.contains("save again in about"), "{text}");
    let retry: u64 = head
        .lines()
        .find_map(|l| l.strip_prefix("retry-after: "))
        .unwrap_or_else(|| panic!("no Retry-After in {head}"))
        .trim()
        .parse()
        .unwrap();
    assert!(retry >= 1 && text.contains(&format!("about {retry} s")), "{retry} {text}");
    // Nothing above let a build end: Alice's first still holds the
    // compiler (it ends only at the build deadline).
    assert!(!a1.is_finished(), "the held build ended before the test was done with it");

    // Alice's first ends at its deadline; Bob builds next while Alice's
    // third still waits.
    let (status, _, text) = a1.await.unwrap();
    assert_eq!(status, 422, "{text}");
    until(addr, &b, "bob builds after alice's first", |s| s["state"] == "running").await;
    let alice = standing(addr, &a).await;
    assert_eq!((alice["state"].as_str(), alice["position"].as_u64()), (Some("waiting"), Some(1)), "{alice}");
    let (status, _, text) = b1.await.unwrap();
    assert_eq!(status, 422, "{text}");
    // Then Alice's newest program is built and plays.
    let (status, _, text) = a3.await.unwrap();
    assert_eq!(status, 200, "{text}");
    assert!(standing(addr, &a).await.is_null());
    server.shutdown().await;
}

/// A player the organiser removes while their save waits is refused at
/// once (410, with the reason), and the compiler goes to the next player.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_removed_players_waiting_save_is_refused() {
    let (server, a, b, c) = one_compiler("turns_removed", 32).await;
    let addr = server.addr;

    let a1 = save(addr, &a, "held", HELD);
    until(addr, &a, "alice's build runs", |s| s["state"] == "running").await;
    let b1 = save(addr, &b, "bob's", GOOD);
    until(addr, &b, "bob's save waits", |s| s["state"] == "waiting").await;
    let c1 = save(addr, &c, "carol's", GOOD);
    let carol = until(addr, &c, "carol's save waits", |s| s["state"] == "waiting").await;
    assert_eq!(carol["position"].as_u64(), Some(2), "{carol}");

    let (status, text) = http(addr, "DELETE", &format!("/api/admin/players/{}", b.id), None, Some(TOKEN)).await;
    assert_eq!(status, 200, "{text}");
    let (status, _, text) = b1.await.unwrap();
    assert_eq!(status, 410, "{text}");
    assert!(text.contains("the organiser removed you"), "{text}");
    // Carol moved up; Alice's build still holds the compiler.
    let carol = standing(addr, &c).await;
    assert_eq!((carol["state"].as_str(), carol["position"].as_u64(), carol["waiting"].as_u64()), (Some("waiting"), Some(1), Some(1)), "{carol}");
    assert!(!a1.is_finished(), "the held build ended before the test was done with it");
    let (status, _, text) = a1.await.unwrap();
    assert_eq!(status, 422, "{text}");
    let (status, _, text) = c1.await.unwrap();
    assert_eq!(status, 200, "{text}");
    server.shutdown().await;
}

/// A player the organiser removes while their build runs: the compiler is
/// killed at once, the save refused as the removed player's (410) instead
/// of answered when the build ends at a bound (422), and the compiler goes
/// to the next player.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_removed_players_running_build_is_stopped() {
    let mut cfg = config(temp_db("turns_running_removed"), 100);
    cfg.duel.tick_ms = Some(100);
    cfg.code.builds_at_once = 1;
    // Time bounds no run of the test reaches; the memory bound ends the
    // held build after some seconds.
    cfg.code.build_seconds_max = 3600;
    cfg.code.build_cpu_seconds_max = 3600;
    let server = start(cfg).await;
    let addr = server.addr;
    let (a, b) = (sign_up(addr, "alice").await, sign_up(addr, "bob").await);

    let a1 = save(addr, &a, "held", HELD);
    until(addr, &a, "alice's build runs", |s| s["state"] == "running").await;
    let b1 = save(addr, &b, "bob's", GOOD);
    until(addr, &b, "bob's save waits", |s| s["state"] == "waiting").await;
    assert!(!a1.is_finished(), "the held build ended before the test was done with it");

    let (status, text) = http(addr, "DELETE", &format!("/api/admin/players/{}", a.id), None, Some(TOKEN)).await;
    assert_eq!(status, 200, "{text}");
    let stopped = tokio::time::timeout(Duration::from_secs(120), a1).await;
    let (status, _, text) = stopped.expect("the removed player's build was not stopped").unwrap();
    assert_eq!(status, 410, "{text}");
    assert!(text.contains("the organiser removed you"), "{text}");
    let (status, _, text) = tokio::time::timeout(Duration::from_secs(120), b1).await.expect("bob never got the compiler").unwrap();
    assert_eq!(status, 200, "{text}");
    server.shutdown().await;
}

/// Saves `source` as a fresh player of a server with these build bounds;
/// returns the answer's status and body.
async fn save_bounded(tag: &str, cpu_s: u64, memory_mib: u64, source: &str) -> (u16, String) {
    let mut cfg = config(temp_db(tag), 100);
    cfg.duel.tick_ms = Some(100);
    // Far more than either bound takes to stop the build.
    cfg.code.build_seconds_max = 600;
    cfg.code.build_cpu_seconds_max = cpu_s;
    cfg.code.build_memory_mib_max = memory_mib;
    let server = start(cfg).await;
    let p = sign_up(server.addr, tag).await;
    let (status, _, text) = save(server.addr, &p, "bounded", source).await.unwrap();
    server.shutdown().await;
    (status, text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_build_is_stopped_at_its_cpu_seconds_and_its_memory() {
    let (status, text) = save_bounded("cpu", 2, 2048, HELD).await;
    assert_eq!(status, 422, "{text}");
    assert!(text.contains("CPU time limit exceeded"), "{text}");
    let (status, text) = save_bounded("memory", 600, 320, HELD).await;
    assert_eq!(status, 422, "{text}");
    assert!(text.contains("virtual memory exhausted"), "{text}");
}
