//! A SnakeBattle newcomer plays within seconds, over real sockets: when
//! every room's next round is further away than `limits.arrival_wait_ms`,
//! the newcomer gets a room of their own whose first round starts after
//! its countdown, and their snake wakes there; rooms say how long a
//! newcomer waits (`starts_in_ms`).

mod common;

use common::*;
use futures_util::StreamExt;
use std::net::SocketAddr;
use std::time::Duration;

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

async fn rooms(addr: SocketAddr) -> Vec<serde_json::Value> {
    let (status, body) = http(addr, "GET", "/api/rooms", None, None).await;
    assert_eq!(status, 200, "{body}");
    json(&body).as_array().cloned().unwrap()
}

/// Waits until the configured SnakeBattle room's next round is more than
/// `ms` away (its first countdown is over).
async fn round_far_away(addr: SocketAddr, ms: u64) {
    let end = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let room = rooms(addr).await.into_iter().find(|r| r["name"] == "snakebattle").expect("the room");
        if room["starts_in_ms"].as_u64().unwrap() > ms {
            return;
        }
        assert!(tokio::time::Instant::now() < end, "the first round never started: {room}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The room whose seats name `who`.
async fn room_of(addr: SocketAddr, who: &str) -> String {
    let end = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(r) = rooms(addr).await.into_iter().find(|r| r["seats"].as_array().unwrap().iter().any(|s| s["name"] == who)) {
            return r["name"].as_str().unwrap().to_string();
        }
        assert!(tokio::time::Instant::now() < end, "{who} sits nowhere");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newcomer_whom_every_round_keeps_waiting_gets_a_room_that_starts_now() {
    // Rounds of 300 ticks of 100 ms: 30 s, three times the wait allowed.
    let mut cfg = config(temp_db("arrivals"), 100);
    cfg.rooms.retain(|r| r.game == "snakebattle");
    cfg.limits.arrival_wait_ms = 10_000;
    let server = start(cfg).await;
    let addr = server.addr;
    round_far_away(addr, 10_000).await;

    let (id, code, _) = register(addr, "hurried").await;
    let mut bot = connect_bot(addr, &id, &code).await;
    let room = room_of(addr, "hurried").await;
    assert_ne!(room, "snakebattle", "not where the round has most of its 30 s to go");
    let summary = rooms(addr).await.into_iter().find(|r| r["name"] == room.as_str()).unwrap();
    assert!(summary["starts_in_ms"].as_u64().unwrap() <= 10_000, "{summary}");

    // The snake wakes: a spectator of the new room sees it awake.
    let mut spectator = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/room/{room}")).await.unwrap().0;
    let end = tokio::time::Instant::now() + Duration::from_secs(60);
    let mut awake = false;
    while !awake && tokio::time::Instant::now() < end {
        let _ = next_text(&mut bot, Duration::from_millis(10)).await;
        send(&mut bot, "RIGHT").await;
        let Ok(Some(Ok(msg))) = tokio::time::timeout(Duration::from_secs(5), spectator.next()).await else { continue };
        let Ok(text) = msg.into_text() else { continue };
        let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        awake = v["data"]["snakes"].as_array().is_some_and(|s| s.iter().any(|s| s["name"] == "hurried" && s["sleeping"] == false && s["alive"] == true));
    }
    assert!(awake, "the newcomer's snake plays in its new room");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_an_arrival_wait_a_newcomer_sits_in_the_room_there_is() {
    let mut cfg = config(temp_db("noarrivals"), 100);
    cfg.rooms.retain(|r| r.game == "snakebattle");
    cfg.limits.arrival_wait_ms = 0;
    let server = start(cfg).await;
    let addr = server.addr;
    round_far_away(addr, 10_000).await;
    let (id, code, _) = register(addr, "patient").await;
    let _bot = connect_bot(addr, &id, &code).await;
    assert_eq!(room_of(addr, "patient").await, "snakebattle");
    server.shutdown().await;
}
