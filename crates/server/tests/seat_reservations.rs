//! The organiser's seating is a reservation: the seat waits for the player
//! (`limits.reservation_wait_ms`), others who arrive meanwhile sit in
//! another room of the game and cannot move into it, and the player sits
//! there when they connect. Real sockets, a real server.

mod common;

use common::*;
use serde_json::Value;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

async fn rooms(addr: SocketAddr) -> Vec<Value> {
    let (status, text) = http(addr, "GET", "/api/rooms", None, None).await;
    assert_eq!(status, 200, "{text}");
    serde_json::from_str::<Value>(&text).unwrap().as_array().unwrap().clone()
}

/// Waits (60 s at most, far more than it takes) for the player to sit in a
/// room, and says which.
async fn seated_in(addr: SocketAddr, name: &str) -> String {
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let found = rooms(addr).await.iter().find_map(|r| {
            r["seats"].as_array().unwrap().iter().any(|s| s["name"] == name).then(|| r["name"].as_str().unwrap().to_string())
        });
        if let Some(room) = found {
            return room;
        }
        assert!(Instant::now() < until, "{name} never sat down");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The number of free seats of `room`.
async fn free_seats(addr: SocketAddr, room: &str) -> u64 {
    rooms(addr).await.iter().find(|r| r["name"] == room).unwrap()["free_seats"].as_u64().unwrap()
}

/// The organiser seats the finalist, who is not connected yet, in `room`;
/// returns the finalist's id and code.
async fn seat_the_finalist(addr: SocketAddr, room: &str) -> (String, String) {
    let (finalist, code, _) = register(addr, "finalist").await;
    let path = format!("/api/admin/players/{finalist}/room");
    let (status, text) = http(addr, "POST", &path, Some(&serde_json::json!({ "room": room }).to_string()), Some(TOKEN)).await;
    assert_eq!(status, 200, "{text}");
    let answer: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(answer["room"], room);
    assert_eq!(answer["reserved_ms"], 600_000, "{answer}");
    (finalist, code)
}

/// Others fill every seat of `room` but the one kept for the finalist; the
/// next one sits elsewhere and cannot move in by name; the finalist then
/// connects and sits where the organiser seated them.
async fn the_kept_seat_waits(addr: SocketAddr, room: &str, finalist: &str, code: &str) {
    let seats = free_seats(addr, room).await;
    assert!(seats >= 2, "{seats}");
    let mut bots = Vec::new();
    for k in 1..seats {
        let name = format!("early{k}");
        let (id, code, _) = register(addr, &name).await;
        bots.push(connect_bot(addr, &id, &code).await);
        assert_eq!(seated_in(addr, &name).await, room, "{name}");
    }
    // The last free seat is the finalist's.
    let (late, late_code, _) = register(addr, "late").await;
    bots.push(connect_bot(addr, &late, &late_code).await);
    let elsewhere = seated_in(addr, "late").await;
    assert_ne!(elsewhere, room);
    let body = serde_json::json!({ "user": late, "code": late_code, "room": room }).to_string();
    let (status, text) = http(addr, "POST", "/api/player/room", Some(&body), None).await;
    assert_eq!(status, 409, "{text}");

    bots.push(connect_bot(addr, finalist, code).await);
    assert_eq!(seated_in(addr, "finalist").await, room);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_the_organiser_gave_waits_for_its_player() {
    let server = start(config(temp_db("reserve"), 30)).await;
    let (finalist, code) = seat_the_finalist(server.addr, "snakebattle").await;
    the_kept_seat_waits(server.addr, "snakebattle", &finalist, &code).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kept_seat_outlasts_a_restart() {
    let cfg = config(temp_db("reserve_restart"), 30);
    let server = start(cfg.clone()).await;
    let (finalist, code) = seat_the_finalist(server.addr, "snakebattle").await;
    server.shutdown().await;
    let server = start(cfg).await;
    the_kept_seat_waits(server.addr, "snakebattle", &finalist, &code).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_no_reservation_the_seat_goes_to_whoever_comes_first() {
    let mut cfg = config(temp_db("noreserve"), 30);
    cfg.limits.reservation_wait_ms = 0;
    let server = start(cfg).await;
    let addr = server.addr;
    let room = "snakebattle";
    let seats = free_seats(addr, room).await;
    let (finalist, _, _) = register(addr, "finalist").await;
    let path = format!("/api/admin/players/{finalist}/room");
    let (status, text) = http(addr, "POST", &path, Some(r#"{"room":"snakebattle"}"#), Some(TOKEN)).await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap()["reserved_ms"], 0);
    let mut bots = Vec::new();
    for k in 0..seats {
        let name = format!("early{k}");
        let (id, code, _) = register(addr, &name).await;
        bots.push(connect_bot(addr, &id, &code).await);
        assert_eq!(seated_in(addr, &name).await, room, "{name}");
    }
    drop(bots);
    server.shutdown().await;
}
