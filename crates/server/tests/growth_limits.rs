//! What one visitor can make the server keep, over real sockets: sign-ups
//! per address are limited (`limits.registrations_per_ip_per_hour`), and so
//! are the rooms opened for arriving players (`limits.rooms_per_game_max`),
//! each of which would otherwise play on with built-in bots for ever.

mod common;

use common::*;
use std::time::Duration;

async fn sign_up(addr: std::net::SocketAddr, name: &str, game: &str) -> (u16, serde_json::Value) {
    let body = serde_json::json!({ "name": name, "game": game }).to_string();
    let (status, body) = http(addr, "POST", "/api/register", Some(&body), None).await;
    let v = serde_json::from_str(&body).unwrap_or(serde_json::Value::String(body));
    (status, v)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_signs_up_a_few_players_an_hour() {
    let mut cfg = config(temp_db("signups"), 100);
    cfg.limits.registrations_per_ip_per_hour = 3;
    cfg.admin_token = "tok".into();
    let server = start(cfg).await;
    for i in 0..3 {
        let (status, v) = sign_up(server.addr, &format!("p{i}"), "snakebattle").await;
        assert_eq!(status, 201, "{v}");
    }
    let (status, v) = sign_up(server.addr, "p3", "snakebattle").await;
    assert_eq!(status, 429, "{v}");
    assert!(v.to_string().contains("at most 3 an hour"), "{v}");
    // The admin is not held to it.
    let body = serde_json::json!({ "name": "by-admin" }).to_string();
    let (status, body) = http(server.addr, "POST", "/api/admin/players", Some(&body), Some("tok")).await;
    assert_eq!(status, 201, "{body}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arrivals_open_rooms_up_to_the_limit_and_are_then_told_so() {
    let mut cfg = config(temp_db("roomcap"), 100);
    cfg.limits.rooms_per_game_max = 1;
    let server = start(cfg).await;
    let addr = server.addr;
    // The configured duel room has two seats, held by built-in bots until
    // players take them.
    let mut pages = Vec::new();
    for name in ["first", "second", "third"] {
        let (status, v) = sign_up(addr, name, "duel").await;
        assert_eq!(status, 201, "{v}");
        let url = format!("ws://{addr}/ws/player?user={}&code={}", v["id"].as_str().unwrap(), v["code"].as_str().unwrap());
        pages.push(tokio_tungstenite::connect_async(url).await.unwrap().0);
    }
    let third = pages.last_mut().unwrap();
    let mut said = String::new();
    while let Some(text) = next_text(third, Duration::from_secs(10)).await {
        said += &text;
        if said.contains("room is full") {
            break;
        }
    }
    assert!(said.contains("every duel room is full (1 rooms"), "{said}");
    let (_, rooms) = http(addr, "GET", "/api/rooms", None, None).await;
    let rooms: serde_json::Value = serde_json::from_str(&rooms).unwrap();
    let duels = rooms.as_array().unwrap().iter().filter(|r| r["game"] == "duel").count();
    assert_eq!(duels, 1, "{rooms}");
    server.shutdown().await;
}
