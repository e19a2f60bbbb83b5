//! Every room keeps its games as replays, over real sockets: a server whose
//! SnakeBattle, Hex and CodeCarrots rooms tick fast keeps SnakeBattle
//! rounds, Hex fields and CodeCarrots stretches (each later stretch
//! starting from the position the one before ended in), with players
//! sitting down in the middle; each re-simulates exactly, as `snakepit
//! replay FILE --verify` checks it, to the scores the room reported.

mod common;

use common::*;
use snakepit_engine::carrots::Carrots;
use snakepit_engine::hex::Hex;
use snakepit_engine::snakebattle::SnakeBattle;
use snakepit_protocol::replay::{Replay, ReplayGame};
use std::net::SocketAddr;
use std::time::Duration;

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The kept games listed at `query`, once there are at least `n`.
async fn kept(addr: SocketAddr, query: &str, n: usize, secs: u64) -> Vec<serde_json::Value> {
    let end = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let (status, body) = http(addr, "GET", &format!("/api/replays?limit=50&{query}"), None, None).await;
        assert_eq!(status, 200, "{body}");
        let list = json(&body).as_array().cloned().unwrap_or_default();
        if list.len() >= n {
            return list;
        }
        assert!(tokio::time::Instant::now() < end, "{} of {n} games kept for {query} within {secs} s", list.len());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Downloads a kept game and re-simulates it; returns its text and each
/// seat's score at its end.
async fn verified<G: ReplayGame>(addr: SocketAddr, game: &serde_json::Value, score: impl Fn(&G, usize) -> i64) -> (String, Vec<i64>) {
    let (status, text) = http(addr, "GET", &format!("/api/replays/{}/file", game["id"]), None, None).await;
    assert_eq!(status, 200, "{text}");
    let replay = Replay::<G>::parse(&text).unwrap_or_else(|e| panic!("kept game {} does not parse: {e}", game["id"]));
    let end = replay.resimulate(|_, _, _| {}).unwrap_or_else(|e| panic!("kept game {} of {} does not replay: {e}", game["id"], game["game"]));
    assert_eq!(replay.ticks.len() as u64, game["result"]["ticks"].as_u64().unwrap());
    let scores = (0..end.seats()).map(|s| score(&end, s)).collect();
    (text, scores)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn snakebattle_rounds_hex_fields_and_carrots_stretches_are_kept_and_replay() {
    let mut cfg = config(temp_db("everyroom"), 10);
    cfg.rooms.retain(|r| ["snakebattle", "hex", "carrots"].contains(&r.game.as_str()));
    cfg.snakebattle.settings.insert("round_ticks".into(), "60".into());
    cfg.carrots.tick_ms = Some(10);
    cfg.carrots.seats = Some(3);
    cfg.carrots.fill_bots = Some(vec!["greedy".into(), "safe".into()]);
    let server = start(cfg).await;
    let addr = server.addr;

    // Players sit down while the games run: a SnakeBattle bot that turns
    // now and then, and a CodeCarrots bot that only goes on.
    let (sb_id, sb_code, _) = register(addr, "rounder").await;
    let mut sb = connect_bot(addr, &sb_id, &sb_code).await;
    let body = serde_json::json!({ "name": "stretcher", "game": "carrots" }).to_string();
    let (status, body) = http(addr, "POST", "/api/register", Some(&body), None).await;
    assert_eq!(status, 201, "{body}");
    let v = json(&body);
    let (c_id, c_code) = (v["id"].as_str().unwrap().to_string(), v["code"].as_str().unwrap().to_string());
    let mut carrots = tokio_tungstenite::connect_async(format!("ws://{addr}/codenjoy-contest/ws?user={c_id}&code={c_code}"))
        .await
        .expect("the carrots bot connects")
        .0;
    let players = tokio::spawn(async move {
        let moves = ["UP", "RIGHT", "DOWN", "LEFT"];
        for i in 0..4000usize {
            if next_text(&mut sb, FRAME_WAIT).await.is_none() {
                break;
            }
            send(&mut sb, moves[(i / 7) % 4]).await;
            if i % 3 == 0 {
                let _ = next_text(&mut carrots, Duration::from_millis(50)).await;
            }
        }
    });

    let rounds = kept(addr, "origin=snakebattle", 2, 120).await;
    for round in &rounds {
        let (text, scores) = verified::<SnakeBattle>(addr, round, |g, s| g.snakes()[s].score).await;
        let reported: Vec<i64> = round["result"]["scores"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
        assert_eq!(scores, reported, "a round's replay ends with the scores the room reported: {text:.300}");
    }
    let mine = kept(addr, &format!("player={sb_id}"), 1, 120).await;
    assert!(mine.iter().all(|g| g["game"] == "snakebattle"), "{mine:?}");
    let (text, _) = verified::<SnakeBattle>(addr, &mine[0], |g, s| g.snakes()[s].score).await;
    assert!(text.lines().next().unwrap().contains("rounder"), "the player's seat is named");

    for field in kept(addr, "origin=hex", 1, 120).await {
        verified::<Hex>(addr, &field, |g, s| g.players()[s].score).await;
    }

    let stretches = kept(addr, "origin=carrots", 2, 180).await;
    let mut from_position = 0;
    for stretch in &stretches {
        let (text, scores) = verified::<Carrots>(addr, stretch, |g, s| i64::from(g.snakes()[s].best)).await;
        let reported: Vec<i64> = stretch["result"]["scores"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
        assert_eq!(scores, reported);
        from_position += usize::from(text.lines().next().unwrap().contains("\"start\":{"));
    }
    assert!(from_position >= 1, "a later stretch starts from a position");
    assert!(stretches.iter().any(|s| s["players"].as_array().unwrap().iter().any(|p| p == c_id.as_str())), "the carrots player's stretches are theirs");
    players.abort();
    server.shutdown().await;
}
