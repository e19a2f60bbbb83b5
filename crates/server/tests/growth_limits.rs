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
    // Each page is seated before the next connects: a page is seated once
    // its socket is open, so pages opened at once may sit in any order.
    let mut pages = Vec::new();
    let mut said = String::new();
    for name in ["first", "second", "third"] {
        let (status, v) = sign_up(addr, name, "duel").await;
        assert_eq!(status, 201, "{v}");
        let url = format!("ws://{addr}/ws/player?user={}&code={}", v["id"].as_str().unwrap(), v["code"].as_str().unwrap());
        let mut page = tokio_tungstenite::connect_async(url).await.unwrap().0;
        // Seated (its view), or told why not; every page says one or the
        // other at once, so this waits for nothing else.
        let deadline = tokio::time::Instant::now() + FRAME_WAIT;
        said.clear();
        while let Some(text) = next_text(&mut page, FRAME_WAIT).await {
            said += &text;
            if said.contains("room is full") || said.contains("\"type\":\"player\"") {
                break;
            }
            assert!(tokio::time::Instant::now() < deadline, "{name} was neither seated nor refused: {said}");
        }
        pages.push(page);
    }
    assert!(said.contains("every duel room is full (1 rooms"), "{said}");
    let (_, rooms) = http(addr, "GET", "/api/rooms", None, None).await;
    let rooms: serde_json::Value = serde_json::from_str(&rooms).unwrap();
    let duels = rooms.as_array().unwrap().iter().filter(|r| r["game"] == "duel").count();
    assert_eq!(duels, 1, "{rooms}");
    server.shutdown().await;
}

/// The names seated in each duel room, by room name, from the lobby.
async fn duel_rooms(addr: std::net::SocketAddr) -> std::collections::BTreeMap<String, Vec<String>> {
    let (_, rooms) = http(addr, "GET", "/api/rooms", None, None).await;
    let rooms: serde_json::Value = serde_json::from_str(&rooms).unwrap();
    rooms
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["game"] == "duel")
        .map(|r| {
            let players = r["seats"].as_array().unwrap().iter().filter(|s| s["bot"] == false).map(|s| s["name"].as_str().unwrap_or("").to_string());
            (r["name"].as_str().unwrap().to_string(), players.filter(|n| !n.is_empty()).collect())
        })
        .collect()
}

/// Waits until `check` holds for the duel rooms, at most `within`.
async fn until_rooms(
    addr: std::net::SocketAddr,
    within: Duration,
    check: impl Fn(&std::collections::BTreeMap<String, Vec<String>>) -> bool,
) -> std::collections::BTreeMap<String, Vec<String>> {
    let deadline = std::time::Instant::now() + within;
    loop {
        let rooms = duel_rooms(addr).await;
        if check(&rooms) || std::time::Instant::now() > deadline {
            return rooms;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_opened_for_arrivals_close_when_no_player_has_sat_in_them_for_long() {
    let db = temp_db("idlerooms");
    let mut cfg = config(db.clone(), 100);
    cfg.limits.seat_release_ms = 200;
    cfg.limits.idle_room_close_ms = 1500;
    let server = start(cfg.clone()).await;
    let addr = server.addr;
    let mut pages = Vec::new();
    let mut urls = Vec::new();
    for name in ["first", "second", "third"] {
        let (status, v) = sign_up(addr, name, "duel").await;
        assert_eq!(status, 201, "{v}");
        let query = format!("user={}&code={}", v["id"].as_str().unwrap(), v["code"].as_str().unwrap());
        pages.push(tokio_tungstenite::connect_async(format!("ws://{addr}/ws/player?{query}")).await.unwrap().0);
        urls.push(query);
    }
    // The configured room seats two; someone who finds it full opens a
    // room (each page's seating runs on its own, so under load not always
    // the third to connect).
    let rooms = until_rooms(addr, Duration::from_secs(60), |r| r.len() == 2 && r.values().map(Vec::len).sum::<usize>() == 3).await;
    let (opened, alone) = rooms
        .iter()
        .find(|(n, p)| *n != "duel" && !p.is_empty())
        .map(|(n, p)| (n.clone(), p[0].clone()))
        .unwrap_or_else(|| panic!("no room opened for the three: {rooms:?}"));
    // While someone sits there, the room stays, however long.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert!(duel_rooms(addr).await.contains_key(&opened));

    // Everyone leaves: the seats go to bots, and the room opened for the
    // third player closes after the idle time; the configured one stays.
    pages.clear();
    let rooms = until_rooms(addr, Duration::from_secs(60), |r| !r.contains_key(&opened)).await;
    assert!(!rooms.contains_key(&opened), "{rooms:?}");
    // The game that player left still counts for them when it ends, so
    // their points are read once the room is gone: nothing changes them
    // after that, neither the closing nor a restart.
    let alone_points = score_of(addr, &alone).await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(duel_rooms(addr).await.keys().collect::<Vec<_>>(), ["duel"]);
    assert_eq!(score_of(addr, &alone).await, alone_points, "the player's points stay");
    server.shutdown().await;

    // Deleted from the store: a restart does not bring it back, and the
    // player who sat there, back, is seated again (in a room opened anew).
    let server = start(cfg).await;
    let addr = server.addr;
    assert_eq!(duel_rooms(addr).await.keys().collect::<Vec<_>>(), ["duel"]);
    assert_eq!(score_of(addr, &alone).await, alone_points, "the player's points stay after a restart");
    let mut pages: Vec<_> = Vec::new();
    for query in &urls {
        pages.push(tokio_tungstenite::connect_async(format!("ws://{addr}/ws/player?{query}")).await.unwrap().0);
    }
    let rooms = until_rooms(addr, Duration::from_secs(60), |r| r.values().flatten().any(|p| *p == alone)).await;
    assert!(rooms.values().flatten().any(|p| *p == alone), "{rooms:?}");
    drop(pages);
    server.shutdown().await;
}

/// A player's points in the duel leaderboard (0 when not listed).
async fn score_of(addr: std::net::SocketAddr, name: &str) -> i64 {
    let (_, board) = http(addr, "GET", "/api/leaderboard?game=duel", None, None).await;
    let board: serde_json::Value = serde_json::from_str(&board).unwrap_or_default();
    board.as_array().into_iter().flatten().find(|r| r["name"] == name).and_then(|r| r["score"].as_i64()).unwrap_or(0)
}
