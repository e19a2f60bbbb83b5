//! Saving a program while the compilers are busy: a Python or JavaScript
//! program is checked in a lane of its own, so that other players' slow C
//! or Java builds (each may take a minute) never hold it up. A file of its
//! own: it takes every compiler place of the process for its whole run.

mod common;

use common::*;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_python_save_does_not_wait_for_busy_compilers() {
    let mut cfg = config(temp_db("lanes"), 100);
    cfg.duel.tick_ms = Some(100);
    let server = start(cfg).await;
    let addr = server.addr;
    // Every compiler place is taken, as by two players' endless builds.
    let hogs = snakepit_bots::source::BUILDS_AT_ONCE.acquire_many(2).await.unwrap();
    let body = serde_json::json!({ "name": "patient", "game": "duel" }).to_string();
    let (status, text) = http(addr, "POST", "/api/register", Some(&body), None).await;
    assert_eq!(status, 201, "{text}");
    let me: serde_json::Value = serde_json::from_str(&text).unwrap();
    let bot = include_str!("../../../starters/duel/python/bot.py");
    let save = serde_json::json!({ "user": me["id"], "code": me["code"], "lang": "python", "name": "starter", "source": bot }).to_string();
    // The compiler places stay taken until the save returns: a save that
    // waited for one would never return (or be refused for want of one).
    let saved = tokio::time::timeout(Duration::from_secs(120), http(addr, "POST", "/api/code", Some(&save), None)).await;
    let (status, text) = saved.expect("the save waited for the compilers");
    assert_eq!(status, 200, "{text}");
    drop(hogs);
    server.shutdown().await;
}
