//! In the duel a person who sits down during a game plays from the next
//! one, over real sockets: the seat's built-in bot plays the game out (the
//! room neither waits for the person nor hands them a snake mid-game), and
//! the next game is theirs.

mod common;

use common::*;
use futures_util::StreamExt;
use std::time::Duration;

/// The next frame a spectator gets.
async fn frame(spectator: &mut Ws) -> serde_json::Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), spectator.next()).await.expect("a frame").unwrap().unwrap();
        let v: serde_json::Value = serde_json::from_str(&msg.into_text().unwrap()).unwrap();
        if v["type"] == "frame" {
            return v["data"].clone();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_who_sits_down_mid_game_plays_from_the_next_one() {
    let mut cfg = config(temp_db("joinnext"), 30);
    cfg.rooms.retain(|r| r.game == "duel");
    cfg.duel.tick_ms = Some(30);
    cfg.duel.pause_ticks = Some(10);
    let server = start(cfg).await;
    let addr = server.addr;
    let mut spectator = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/room/duel")).await.unwrap().0;
    // Early in a game.
    loop {
        let f = frame(&mut spectator).await;
        if f["phase"] == "running" && (2..=4).contains(&f["phase_ticks"].as_u64().unwrap()) {
            break;
        }
    }
    let body = serde_json::json!({ "name": "latecomer", "game": "duel" }).to_string();
    let (status, body) = http(addr, "POST", "/api/register", Some(&body), None).await;
    assert_eq!(status, 201, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    let (id, code) = (v["id"].as_str().unwrap(), v["code"].as_str().unwrap());
    let mut page = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/player?user={id}&code={code}")).await.unwrap().0;
    let mine = |f: &serde_json::Value| f["snakes"].as_array().unwrap().iter().find(|s| s["name"] == "latecomer").cloned();

    // Until that game is over, a bot plays the seat; then the person does.
    let (mut stood_in, mut over, mut played) = (0, false, false);
    let end = tokio::time::Instant::now() + Duration::from_secs(120);
    while !played && tokio::time::Instant::now() < end {
        // The person presses keys all along; the page's socket is drained.
        futures_util::SinkExt::send(&mut page, tokio_tungstenite::tungstenite::Message::Text("up".into())).await.ok();
        while let Ok(Some(_)) = tokio::time::timeout(Duration::from_millis(1), page.next()).await {}
        let f = frame(&mut spectator).await;
        let Some(me) = mine(&f) else { continue };
        match (f["phase"].as_str().unwrap(), over) {
            ("running", false) => {
                assert_eq!(me["bot"], true, "mid-game the seat is the bot's: {f}");
                stood_in += 1;
            }
            ("running", true) => played = me["bot"] == false,
            _ => over = true,
        }
    }
    assert!(stood_in > 0, "the person sat down during a game");
    assert!(played, "the person plays the next game");
    server.shutdown().await;
}
