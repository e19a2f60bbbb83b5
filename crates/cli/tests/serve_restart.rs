//! `snakepit serve` as a user runs it: a real process on a loopback port.
//! Players, codes and scores must survive the process being killed with
//! SIGKILL, on SQLite and on PostgreSQL, and a graceful stop must close bot
//! sockets with a reason. With `--ladder`, saved programs play each other
//! in the server and the leaderboard shows their ratings and replays.
//!
//! The PostgreSQL test needs the server of `SNAKEPIT_TEST_PG` (an admin
//! URL; `scripts/test.sh` starts one); without it the test says so and
//! passes, unless `SNAKEPIT_REQUIRE_PG=1`.

mod common;

use common::http;
use common::pg::Db;

use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

type Server = common::Served;

fn serve(db: &Path) -> Server {
    serve_on(db.to_str().unwrap())
}

fn serve_on(db: &str) -> Server {
    serve_with(db, &[])
}

fn serve_with(db: &str, extra: &[&str]) -> Server {
    Server::start("t", ["--tick-ms", "20", "--lease-ms", "1000", "--db", db].iter().chain(extra))
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("snakepit-serve-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn score_of(addr: SocketAddr, name: &str) -> i64 {
    let (_, body) = http(addr, "GET", "/api/leaderboard?game=snakebattle", "");
    // The body may be chunked; find the row by its name.
    let start = body.find('[').unwrap();
    let end = body.rfind(']').unwrap();
    let rows: serde_json::Value = serde_json::from_str(&body[start..=end]).unwrap();
    rows.as_array().unwrap().iter().find(|r| r["name"] == name).map_or(0, |r| r["score"].as_i64().unwrap())
}

/// Plays with the greedy built-in logic over the real socket until the
/// player has a positive stored score.
async fn play_until_scored(addr: SocketAddr, id: &str, code: &str, name: &str) -> i64 {
    let url = format!("ws://{addr}/codenjoy-contest/ws?user={id}&code={code}");
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let mut bot = safe_mover();
    // A snake that joins sleeps until the next round, and a loaded machine
    // ticks slowly: minutes, to be sure, for what takes seconds.
    let deadline = Instant::now() + Duration::from_secs(300);
    let mut boards = 0;
    while Instant::now() < deadline {
        let Some(Ok(Message::Text(t))) = ws.next().await else { panic!("socket closed") };
        ws.send(Message::Text(bot(&t).into())).await.unwrap();
        boards += 1;
        if boards % 50 == 0 {
            let s = score_of(addr, name);
            if s > 0 {
                return s;
            }
        }
    }
    panic!("no score after 300 s");
}

/// A tiny safe mover, enough to eat apples now and then; the real built-in
/// bots are tested in their crate.
fn safe_mover() -> impl FnMut(&str) -> String {
    let mut turn = 0usize;
    move |msg: &str| {
        let board: Vec<char> = msg.trim_start_matches("board=").chars().collect();
        let n = (board.len() as f64).sqrt() as usize;
        let head = board.iter().position(|c| "▲►▼◄♥".contains(*c));
        turn += 1;
        let Some(h) = head else { return "RIGHT".into() };
        let (x, y) = (h % n, h / n);
        let dirs = [("UP", 0i32, -1i32), ("RIGHT", 1, 0), ("DOWN", 0, 1), ("LEFT", -1, 0)];
        for k in 0..4 {
            let (name, dx, dy) = dirs[(k + turn / 7) % 4];
            let (nx, ny) = (x as i32 + dx, y as i32 + dy);
            if nx < 0 || ny < 0 || nx >= n as i32 || ny >= n as i32 {
                continue;
            }
            let c = board[ny as usize * n + nx as usize];
            if c == ' ' || c == '○' || c == '$' {
                return name.into();
            }
        }
        "UP".into()
    }
}

#[test]
fn scores_players_and_codes_survive_sigkill() {
    let dir = temp_dir("kill");
    let db = dir.join("db.sqlite");
    survives_sigkill(db.to_str().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn scores_players_and_codes_survive_sigkill_on_postgres() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let Some(db) = rt.block_on(Db::create("serve_restart")) else { return };
    survives_sigkill(&db.url);
    rt.block_on(db.drop());
}

/// Registers a player, plays until they score, kills the server with
/// SIGKILL, and checks that a new server on the same store has the score
/// and the player's code.
fn survives_sigkill(db: &str) {
    let server = serve_on(db);
    let (status, body) = http(server.addr, "POST", "/api/register", r#"{"name":"survivor"}"#);
    assert_eq!(status, 201, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    let (id, code) = (v["id"].as_str().unwrap().to_string(), v["code"].as_str().unwrap().to_string());
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(play_until_scored(server.addr, &id, &code, "survivor"));
    // Scores are written in batches: wait until the store itself holds a
    // score for the player, however long a loaded machine takes. What it
    // holds then must survive the kill.
    let before = rt.block_on(async {
        let store = snakepit_store::Store::open(db).await.expect("the test opens the server's store");
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let rows = store.leaderboard("snakebattle").await.expect("the leaderboard is read");
            let stored = rows.iter().find(|r| r.name == "survivor").map_or(0, |r| r.score);
            if stored > 0 {
                break stored;
            }
            assert!(Instant::now() < deadline, "no score stored within 60 s");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    });
    let pid = server.child.id();
    let status = Command::new("kill").args(["-KILL", &pid.to_string()]).status().unwrap();
    assert!(status.success());
    drop(server);

    let again = serve_on(db);
    let after = score_of(again.addr, "survivor");
    assert!(after >= before, "score {before} before SIGKILL, {after} after restart");
    assert!(after > 0);
    // The same id and code still open the bot socket.
    rt.block_on(async {
        let url = format!("ws://{}/codenjoy-contest/ws?user={id}&code={code}", again.addr);
        // On PostgreSQL the room is free only once the killed node's lease
        // lapses; until then the new node answers 503.
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut ws = loop {
            match tokio_tungstenite::connect_async(&url).await {
                Ok((ws, _)) => break ws,
                Err(e) if Instant::now() < deadline => {
                    eprintln!("not yet: {e}");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => panic!("the code no longer works: {e}"),
            }
        };
        let Some(Ok(Message::Text(t))) = ws.next().await else { panic!("no board after restart") };
        assert!(t.starts_with("board="));
    });
}

#[test]
fn sigterm_closes_bots_with_a_reason() {
    let dir = temp_dir("term");
    let server = serve(&dir.join("db.sqlite"));
    let (_, body) = http(server.addr, "POST", "/api/register", r#"{"name":"leaver"}"#);
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    let url = format!("ws://{}/codenjoy-contest/ws?user={}&code={}", server.addr, v["id"].as_str().unwrap(), v["code"].as_str().unwrap());
    let rt = tokio::runtime::Runtime::new().unwrap();
    let reason = rt.block_on(async {
        let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        let _ = ws.next().await;
        let status = Command::new("kill").args(["-TERM", &server.child.id().to_string()]).status().unwrap();
        assert!(status.success());
        loop {
            match tokio::time::timeout(Duration::from_secs(60), ws.next()).await {
                Ok(Some(Ok(Message::Close(Some(f))))) => break f.reason.to_string(),
                Ok(Some(Ok(_))) => continue,
                other => panic!("no close frame: {other:?}"),
            }
        }
    });
    assert!(reason.contains("shutting down"), "{reason}");
    let mut server = server;
    let code = server.child.wait().unwrap();
    assert!(code.success(), "graceful exit, got {code:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `serve --ladder duel`: two duel players save programs on their pages;
/// the server pairs them, plays their games in the sandbox, rates them,
/// lists the ratings with their latest games, and shows each game's replay
/// page.
#[test]
fn the_ladder_in_the_server_rates_saved_programs_and_shows_their_games() {
    let dir = temp_dir("ladder");
    let db = dir.join("db.sqlite");
    let server = serve_with(db.to_str().unwrap(), &["--ladder", "duel", "--ladder-jobs", "2"]);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let source = std::fs::read_to_string(root.join("starters/duel/python/bot.py")).unwrap();
    for name in ["lad-a", "lad-b"] {
        let (status, body) = http(server.addr, "POST", "/api/register", &format!(r#"{{"name":"{name}","game":"duel"}}"#));
        assert_eq!(status, 201, "{body}");
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        let upload = serde_json::json!({
            "user": v["id"], "code": v["code"], "lang": "python", "name": "starter", "source": source,
        });
        let (status, body) = http(server.addr, "POST", "/api/code", &upload.to_string());
        assert_eq!(status, 200, "{body}");
    }
    let start = Instant::now();
    let rows = loop {
        let (status, body) = http(server.addr, "GET", "/api/ratings?game=duel", "");
        assert_eq!(status, 200, "{body}");
        let rows: Vec<serde_json::Value> = serde_json::from_str(&body).unwrap();
        if rows.len() == 2 && rows.iter().all(|r| r["games"].as_i64().unwrap() >= 2) {
            break rows;
        }
        assert!(start.elapsed() < Duration::from_secs(90), "no rated ladder games after 90 s: {body}");
        std::thread::sleep(Duration::from_millis(300));
    };
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"lad-a") && names.contains(&"lad-b"), "{names:?}");
    assert!(rows[0]["rating"].as_f64().unwrap() >= rows[1]["rating"].as_f64().unwrap(), "best first");
    let game = &rows[0]["recent"][0];
    assert_eq!(game["origin"], "ladder");
    let id = game["replay"].as_i64().unwrap();
    let (status, page) = http(server.addr, "GET", &format!("/replays/{id}"), "");
    assert_eq!(status, 200);
    assert!(page.contains("<!doctype html>") || page.contains("<!DOCTYPE html>"), "a page");
    assert!(page.contains("\"game\":\"duel\""), "the page holds the game");
    assert_eq!(http(server.addr, "GET", "/replays/999999", "").0, 404);
    let (_, board) = http(server.addr, "GET", "/leaderboard?game=duel", "");
    assert!(board.contains("id=\"ladder\""), "the leaderboard page has the ladder's table");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The "fork from here" of a kept room game, end to end, for the duel and
/// Multisnake rooms: the room's game of built-in bots is kept, a fork of
/// it from tick 4 with another bot is asked for over HTTP, the server's
/// own queue worker plays it (the other seats get the game's stand-in
/// built-in), and the new game repeats the kept one exactly up to tick 3.
#[test]
fn a_fork_of_a_kept_room_game_is_played_by_the_server() {
    let dir = temp_dir("roomfork");
    let server = serve(&dir.join("db.sqlite"));
    for game in ["duel", "multisnake"] {
        fork_a_kept_game(&server, game);
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

fn fork_a_kept_game(server: &Server, game: &str) {
    let start = Instant::now();
    let kept = loop {
        let (status, body) = http(server.addr, "GET", &format!("/api/replays?origin={game}&limit=50"), "");
        assert_eq!(status, 200, "{body}");
        let games: Vec<serde_json::Value> = serde_json::from_str(&body).unwrap();
        if let Some(g) = games.into_iter().find(|g| g["result"]["ticks"].as_u64().unwrap() >= 6) {
            break g;
        }
        assert!(start.elapsed() < Duration::from_secs(90), "no {game} game of 6 ticks kept after 90 s");
        std::thread::sleep(Duration::from_millis(200));
    };
    let id = kept["id"].as_i64().unwrap();
    let ask = r#"{"from_tick":4,"seat":0,"bot":"builtin:random"}"#;
    let (status, body) = http(server.addr, "POST", &format!("/api/replays/{id}/fork"), ask);
    assert_eq!(status, 200, "{body}");
    let status_url = serde_json::from_str::<serde_json::Value>(&body).unwrap()["status"].as_str().unwrap().to_string();
    let forked = loop {
        let (_, body) = http(server.addr, "GET", &status_url, "");
        let s: serde_json::Value = serde_json::from_str(&body).unwrap();
        match s["state"].as_str().unwrap() {
            "done" => break s["replay"].as_i64().unwrap(),
            "failed" => panic!("the {game} fork failed: {s}"),
            _ => {}
        }
        assert!(start.elapsed() < Duration::from_secs(150), "the {game} fork was not played: {s}");
        std::thread::sleep(Duration::from_millis(200));
    };
    let file = |id: i64| {
        let (status, body) = http(server.addr, "GET", &format!("/api/replays/{id}/file"), "");
        assert_eq!(status, 200);
        body.lines().map(str::to_string).collect::<Vec<_>>()
    };
    let (old, new) = (file(id), file(forked));
    assert_eq!(old[1..4], new[1..4], "ticks 1 to 3 are played again exactly");
    let header: serde_json::Value = serde_json::from_str(&new[0]).unwrap();
    assert_eq!(header["players"][0], "builtin:random");
    let old_header: serde_json::Value = serde_json::from_str(&old[0]).unwrap();
    assert_eq!((&header["seed"], &header["map"]), (&old_header["seed"], &old_header["map"]), "the same game");
}

/// The processes below `pid` (its children, theirs, and so on), living.
fn descendants(pid: u32) -> Vec<u32> {
    let parent_of = |p: u32| -> Option<(u32, bool)> {
        let stat = std::fs::read_to_string(format!("/proc/{p}/stat")).ok()?;
        let mut rest = stat[stat.rfind(')')? + 2..].split(' ');
        let zombie = rest.next()? == "Z";
        Some((rest.next()?.parse().ok()?, zombie))
    };
    let all: Vec<(u32, u32)> = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse().ok())
        .filter_map(|p| parent_of(p).filter(|(_, zombie)| !zombie).map(|(pp, _)| (p, pp)))
        .collect();
    let mut found = vec![pid];
    loop {
        let more: Vec<u32> = all.iter().filter(|(p, pp)| !found.contains(p) && found.contains(pp)).map(|(p, _)| *p).collect();
        if more.is_empty() {
            found.retain(|p| *p != pid);
            return found;
        }
        found.extend(more);
    }
}

/// A server killed with SIGKILL while a player's saved program plays takes
/// every process of that program with it, even a program that outlives
/// its input and leaves a child: the program's init dies with the server
/// (parent-death signal), and the whole PID namespace with it.
#[test]
fn a_server_killed_with_sigkill_leaves_no_process_of_its_programs() {
    let dir = temp_dir("kill-programs");
    let db = dir.join("snakepit.db");
    let mut server = serve(&db);
    let body = serde_json::json!({ "name": "coder", "game": "carrots" }).to_string();
    let (status, text) = http(server.addr, "POST", "/api/register", &body);
    assert_eq!(status, 201, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text[text.find('{').unwrap()..]).unwrap();
    // The starter, but it leaves a child that outlives it, and it stays
    // after its input ends and ignores the SIGHUP of an orphaned group:
    // only the death of its runner can end it.
    let starter = include_str!("../../../starters/carrots/python/bot.py");
    assert!(starter.contains("break  # no more boards"));
    let stubborn = "import os, signal, time\nsignal.signal(signal.SIGHUP, signal.SIG_IGN)\nif os.fork() == 0:\n    os.close(0)\n    time.sleep(3600)\n    os._exit(0)\n";
    let source = format!("{stubborn}{}", starter.replace("break  # no more boards", "time.sleep(3600)"));
    let save = serde_json::json!({ "user": v["id"], "code": v["code"], "lang": "python", "name": "starter", "source": source }).to_string();
    let (status, text) = http(server.addr, "POST", "/api/code", &save);
    assert_eq!(status, 200, "{text}");
    // The program runs: a Python process below the server.
    let python = |pids: &[u32]| {
        pids.iter().any(|p| String::from_utf8_lossy(&std::fs::read(format!("/proc/{p}/cmdline")).unwrap_or_default()).contains("python3"))
    };
    let serve_pid = server.child.id();
    let until = Instant::now() + Duration::from_secs(60);
    while !python(&descendants(serve_pid)) {
        assert!(Instant::now() < until, "the saved program did not start: {:?}", descendants(serve_pid));
        std::thread::sleep(Duration::from_millis(20));
    }
    let running = descendants(serve_pid);
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let alive = |p: &u32| std::fs::read_to_string(format!("/proc/{p}/stat")).is_ok_and(|s| !s[s.rfind(')').unwrap() + 2..].starts_with('Z'));
    let gone_by = Instant::now() + Duration::from_secs(30);
    while running.iter().any(alive) {
        assert!(Instant::now() < gone_by, "left after the server's SIGKILL: {:?} of {running:?}", running.iter().filter(|p| alive(p)).collect::<Vec<_>>());
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
