//! Finished room games are kept as replays, over real sockets: a duel
//! between a player's uploaded program and a built-in bot ends, its replay
//! re-simulates exactly to the result the room announced, its stderr log
//! shows only on its owner's copy of the page, and a fork of it is queued
//! with the bots the page offers.

mod common;

use common::*;
use snakepit_engine::Game;
use snakepit_engine::duel::Duel;
use snakepit_protocol::replay::Replay;
use std::net::SocketAddr;
use std::time::Duration;

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// A duel program: prints a marker on stderr every tick and moves at
/// random, as the KingOfBots format asks (one token in, 0-3 out).
const MARKED_DUEL_BOT: &str = r#"import random, sys
n = 0
for line in sys.stdin:
    n += 1
    print(f"kept-marker {n}", file=sys.stderr, flush=True)
    print(random.randrange(4), flush=True)
"#;

/// Registers a duel player who saves `MARKED_DUEL_BOT`; returns (id, code).
async fn coder(addr: SocketAddr, name: &str) -> (String, String) {
    let body = serde_json::json!({ "name": name, "game": "duel" }).to_string();
    let (status, body) = http(addr, "POST", "/api/register", Some(&body), None).await;
    assert_eq!(status, 201, "{body}");
    let v = json(&body);
    let (id, code) = (v["id"].as_str().unwrap().to_string(), v["code"].as_str().unwrap().to_string());
    let body = serde_json::json!({ "user": id, "code": code, "lang": "python", "name": "marked", "source": MARKED_DUEL_BOT });
    let (status, body) = http(addr, "POST", "/api/code", Some(&body.to_string()), None).await;
    assert_eq!(status, 200, "{body}");
    (id, code)
}

/// Waits for a kept game listed at `query` (`player=ID`, `origin=ROOM`).
async fn first_kept(addr: SocketAddr, query: &str, secs: u64) -> serde_json::Value {
    let end = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let (status, body) = http(addr, "GET", &format!("/api/replays?{query}"), None, None).await;
        assert_eq!(status, 200, "{body}");
        if let Some(first) = json(&body).as_array().and_then(|a| a.last().cloned()) {
            return first;
        }
        assert!(tokio::time::Instant::now() < end, "no game kept for {query} within {secs} s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn duel_config(tag: &str) -> snakepit_server::config::Config {
    let mut cfg = config(temp_db(tag), 30);
    cfg.duel.tick_ms = Some(30);
    cfg.duel.pause_ticks = Some(2);
    cfg
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_duel_is_kept_replays_exactly_and_its_stderr_is_its_owners() {
    let server = start(duel_config("keptduel")).await;
    let addr = server.addr;
    let (id, code) = coder(addr, "marked coder").await;
    // The first games may end before the program has started (it then
    // forfeits): take the first kept game in which it wrote something.
    let end = tokio::time::Instant::now() + Duration::from_secs(60);
    let (kept, mine) = 'found: loop {
        assert!(tokio::time::Instant::now() < end, "no kept game shows the program's stderr within 60 s");
        let (_, body) = http(addr, "GET", &format!("/api/replays?player={id}&limit=50"), None, None).await;
        for kept in json(&body).as_array().unwrap() {
            let (status, page) = http(addr, "GET", &format!("/replays/{}?player={id}&code={code}", kept["id"]), None, None).await;
            assert_eq!(status, 200);
            if page.contains("kept-marker") {
                break 'found (kept.clone(), page);
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let replay_id = kept["id"].as_i64().unwrap();
    assert_eq!((kept["game"].as_str(), kept["origin"].as_str()), (Some("duel"), Some("duel")));
    let seat = kept["players"].as_array().unwrap().iter().position(|p| p == id.as_str()).expect("the player's seat");

    // The file re-simulates, ends where the room said, with its places.
    let (status, text) = http(addr, "GET", &format!("/api/replays/{replay_id}/file"), None, None).await;
    assert_eq!(status, 200);
    let replay = Replay::<Duel>::parse(&text).expect("a valid replay");
    assert_eq!(replay.header.players[seat], "marked coder");
    let end = replay.resimulate(|_, _, _| {}).expect("the checksums hold");
    assert!(end.is_over(), "the kept game is a finished one");
    let places: Vec<u64> = kept["result"]["places"].as_array().unwrap().iter().map(|p| p.as_u64().unwrap()).collect();
    let scores = end.scores();
    assert_eq!(kept["result"]["ticks"].as_u64(), Some(replay.ticks.len() as u64));
    match scores[0].cmp(&scores[1]) {
        std::cmp::Ordering::Greater => assert_eq!(places, [1, 2]),
        std::cmp::Ordering::Less => assert_eq!(places, [2, 1]),
        std::cmp::Ordering::Equal => assert_eq!(places, [1, 1]),
    }

    // The stderr log shows on the owner's copy of the page only.
    assert!(mine.contains("kept-marker"));
    let (status, public) = http(addr, "GET", &format!("/replays/{replay_id}"), None, None).await;
    assert_eq!(status, 200);
    assert!(!public.contains("kept-marker"), "nobody else does");
    // The public page is made once and served again as it was; the
    // owner's copy is never taken from (or put into) that cache.
    let (status, again) = http(addr, "GET", &format!("/replays/{replay_id}"), None, None).await;
    assert_eq!((status, again == public), (200, true));
    let (status, mine_again) = http(addr, "GET", &format!("/replays/{replay_id}?player={id}&code={code}"), None, None).await;
    assert_eq!(status, 200);
    assert!(mine_again.contains("kept-marker"), "the owner still sees their stderr");
    let (status, _) = http(addr, "GET", &format!("/replays/{replay_id}?player={id}&code=wrong"), None, None).await;
    assert_eq!(status, 403);
    let (status, _) = http(addr, "GET", "/replays/999999", None, None).await;
    assert_eq!(status, 404);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fork_is_queued_with_an_offered_bot_and_reports_its_state() {
    let mut cfg = duel_config("forkq");
    cfg.limits.forks_per_ip_per_hour = 2;
    let db = cfg.db.clone();
    let server = start(cfg).await;
    let addr = server.addr;
    let (id, code) = coder(addr, "forker").await;
    let kept = first_kept(addr, &format!("player={id}"), 60).await;
    let replay_id = kept["id"].as_i64().unwrap();
    let ticks = kept["result"]["ticks"].as_u64().unwrap();
    let seat = kept["players"].as_array().unwrap().iter().position(|p| p == id.as_str()).unwrap();
    let other = 1 - seat;
    let fork = |query: String, body: serde_json::Value| async move {
        let (status, body) = http(addr, "POST", &format!("/api/replays/{replay_id}/fork{query}"), Some(&body.to_string()), None).await;
        (status, json(&body))
    };
    let me = format!("?player={id}&code={code}");
    let ask = |seat: usize, tick: u64, bot: &str| serde_json::json!({ "from_tick": tick, "seat": seat, "bot": bot });
    for (query, body, why) in [
        (String::new(), ask(2, 1, "builtin:greedy"), "does not exist"),
        (String::new(), ask(0, 0, "builtin:greedy"), "from_tick"),
        (String::new(), ask(0, ticks + 2, "builtin:greedy"), "from_tick"),
        (String::new(), ask(0, 1, "python3 evil.py"), "not offered"),
        (String::new(), ask(other, 1, &format!("code:{id}")), "not offered"),
    ] {
        let (status, answer) = fork(query, body).await;
        assert_eq!(status, 400, "{answer}");
        assert!(answer["error"].as_str().unwrap().contains(why), "{answer}");
    }
    let (status, _) = fork(format!("?player={id}&code=bad"), ask(0, 1, "builtin:greedy")).await;
    assert_eq!(status, 403);

    // The owner puts their own program in the other seat from tick 2.
    let (status, answer) = fork(me, ask(other, 2, &format!("code:{id}"))).await;
    assert_eq!(status, 200, "{answer}");
    let m = answer["match"].as_i64().unwrap();
    assert_eq!(answer["status"], format!("/api/matches/{m}"));
    let state = |m: i64| async move {
        let (status, body) = http(addr, "GET", &format!("/api/matches/{m}"), None, None).await;
        assert_eq!(status, 200, "{body}");
        json(&body)
    };
    assert_eq!(state(m).await["state"], "queued");

    // A worker (here the test, on the same store) finds the fork as asked.
    let store = snakepit_store::Store::open(db.to_str().unwrap()).await.unwrap();
    let claimed = store.claim_match("test-worker", 60_000).await.unwrap().expect("the fork is queued");
    assert_eq!(claimed.id, m);
    let spec: snakepit_store::spec::MatchSpec = serde_json::from_str(&claimed.spec).unwrap();
    assert_eq!(spec.fork, Some(snakepit_store::spec::ForkOf { replay_id, from_tick: 2 }));
    assert_eq!(spec.bots[other], format!("code:{id}"));
    assert_eq!(spec.bots[seat], format!("code:{id}"), "the player's own seat keeps their program");
    assert_eq!((spec.game.as_str(), spec.origin.as_deref()), ("duel", Some("fork")));
    assert_eq!(state(m).await["state"], "running");
    let failed = r#"{"scores":[],"places":[],"ticks":0,"error":"no such bot"}"#;
    assert!(store.finish_match(m, "test-worker", failed, None).await.unwrap());
    let s = state(m).await;
    assert_eq!((s["state"].as_str(), s["error"].as_str()), (Some("failed"), Some("no such bot")));

    // A spectator may fork with a built-in bot; the built-in seat of the
    // original is played by the same kind of built-in bot (the room names
    // it NAME-SEAT, as safe-2).
    let (status, answer) = fork(String::new(), ask(seat, 1, "builtin:random")).await;
    assert_eq!(status, 200, "{answer}");
    let m2 = answer["match"].as_i64().unwrap();
    let claimed = store.claim_match("test-worker", 60_000).await.unwrap().unwrap();
    let spec: snakepit_store::spec::MatchSpec = serde_json::from_str(&claimed.spec).unwrap();
    assert_eq!(spec.bots[seat], "builtin:random");
    let label = kept["result"]["labels"][other].as_str().unwrap().to_string();
    let kind = label.rsplit_once('-').map_or(label.as_str(), |(kind, _)| kind);
    assert!(["greedy", "safe"].contains(&kind), "a room's built-in bot: {label}");
    assert_eq!(spec.bots[other], format!("builtin:{kind}"), "the same kind as {label}");
    let done = r#"{"scores":[1,0],"places":[1,2],"ticks":9}"#;
    assert!(store.finish_match(m2, "test-worker", done, Some(replay_id)).await.unwrap());
    let s = state(m2).await;
    assert_eq!((s["state"].as_str(), s["replay"].as_i64()), (Some("done"), Some(replay_id)));
    let (status, _) = http(addr, "GET", "/api/matches/999999", None, None).await;
    assert_eq!(status, 404);
    // Two forks an hour from this address here: the third waits.
    let (status, answer) = fork(String::new(), ask(seat, 1, "builtin:random")).await;
    assert_eq!(status, 429, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("at most 2 forks an hour"), "{answer}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_of_built_in_bots_keep_their_latest_games_too() {
    let mut cfg = duel_config("keptbots");
    cfg.duel.tick_ms = Some(10);
    cfg.limits.bot_games_kept_per_room = 2;
    let server = start(cfg).await;
    let addr = server.addr;
    let kept = first_kept(addr, "origin=duel", 60).await;
    assert_eq!(kept["players"], serde_json::json!(["", ""]));
    let (status, page) = http(addr, "GET", &format!("/replays/{}", kept["id"]), None, None).await;
    assert_eq!(status, 200);
    assert!(page.contains("connect-src 'self'"), "the page may post a fork to its own server");
    let (status, body) = http(addr, "GET", "/api/replays?limit=1", None, None).await;
    assert_eq!(status, 200, "{body}");
    let latest = json(&body);
    assert_eq!(latest.as_array().unwrap().len(), 1);
    assert!(latest[0]["id"].as_i64().unwrap() >= kept["id"].as_i64().unwrap(), "the newest first");
    // Games of built-in bots only are pruned to the room's latest two as
    // new ones are kept.
    let first = kept["id"].as_i64().unwrap();
    let end = tokio::time::Instant::now() + Duration::from_secs(90);
    let ids = loop {
        let (status, body) = http(addr, "GET", "/api/replays?origin=duel&limit=50", None, None).await;
        assert_eq!(status, 200, "{body}");
        let ids: Vec<i64> = json(&body).as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect();
        if ids.first().is_some_and(|&newest| newest >= first + 3) && ids.len() <= 2 {
            break ids;
        }
        assert!(tokio::time::Instant::now() < end, "still kept after 90 s: {ids:?} (first {first})");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(ids.len(), 2, "{ids:?}");
    // The next page starts below the last id of the one before.
    let (status, body) = http(addr, "GET", &format!("/api/replays?origin=duel&limit=1&before={}", ids[0]), None, None).await;
    assert_eq!(status, 200, "{body}");
    let next: Vec<i64> = json(&body).as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect();
    assert!(next.iter().all(|&id| id < ids[0]) && next.len() <= 1, "{next:?} after {ids:?}");
    let (status, _) = http(addr, "GET", &format!("/replays/{first}"), None, None).await;
    assert_eq!(status, 404, "the first game is gone");
    server.shutdown().await;
}

/// A program that fails every game fills no disk: its player keeps their
/// latest `games_kept_per_player` games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_games_are_pruned_to_their_latest() {
    // The default test tick: every game here restarts the program, and a
    // faster room would take the CPU from the other tests of this file.
    let mut cfg = duel_config("keptplayer");
    cfg.limits.games_kept_per_player = 2;
    let server = start(cfg).await;
    let addr = server.addr;
    // A program that fails its first move: every game ends at once, and
    // each is kept, as a program failing all evening would make them.
    let body = serde_json::json!({ "name": "failing", "game": "duel" }).to_string();
    let (status, body) = http(addr, "POST", "/api/register", Some(&body), None).await;
    assert_eq!(status, 201, "{body}");
    let v = json(&body);
    let (id, code) = (v["id"].as_str().unwrap().to_string(), v["code"].as_str().unwrap().to_string());
    let source = "import sys\nfor line in sys.stdin:\n    print('nope', flush=True)\n";
    let body = serde_json::json!({ "user": id, "code": code, "lang": "python", "name": "failing", "source": source });
    let (status, body) = http(addr, "POST", "/api/code", Some(&body.to_string()), None).await;
    assert_eq!(status, 200, "{body}");
    let first = first_kept(addr, &format!("player={id}"), 60).await["id"].as_i64().unwrap();
    // New games come and the player's list stays at the latest two.
    let end = tokio::time::Instant::now() + Duration::from_secs(90);
    let ids = loop {
        let (status, body) = http(addr, "GET", &format!("/api/replays?player={id}&limit=50"), None, None).await;
        assert_eq!(status, 200, "{body}");
        let ids: Vec<i64> = json(&body).as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect();
        if ids.first().is_some_and(|&newest| newest >= first + 4) && ids.len() <= 2 {
            break ids;
        }
        assert!(tokio::time::Instant::now() < end, "the player's games are not pruned: {ids:?} (first {first})");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(!ids.contains(&first), "the oldest went: {ids:?}");
    let (status, _) = http(addr, "GET", &format!("/api/replays/{first}/file"), None, None).await;
    assert_eq!(status, 404);
    server.shutdown().await;
}

/// A form post, as the replays page sends it; returns (status, body).
async fn post_form(addr: SocketAddr, path: &str, fields: &[(&str, &str)]) -> (u16, String) {
    post_form_from("127.0.0.1:0", addr, path, fields).await
}

/// `fields` as a form's body (`application/x-www-form-urlencoded`).
fn form_body(fields: &[(&str, &str)]) -> String {
    let enc = |s: &str| -> String {
        s.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => char::from(b).to_string(),
                _ => format!("%{b:02X}"),
            })
            .collect()
    };
    fields.iter().map(|(k, v)| format!("{k}={}", enc(v))).collect::<Vec<_>>().join("&")
}

/// [`post_form`] from a socket bound to `from` (any 127.0.0.0/8 address is
/// this machine's).
async fn post_form_from(from: &str, addr: SocketAddr, path: &str, fields: &[(&str, &str)]) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = form_body(fields);
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(from.parse().unwrap()).unwrap();
    let mut s = socket.connect(addr).await.unwrap();
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text.split(' ').nth(1).unwrap().parse().unwrap();
    (status, text.split_once("\r\n\r\n").unwrap().1.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replay_file_from_disk_opens_in_the_viewer_and_a_bad_one_says_why() {
    let server = start(duel_config("openfile")).await;
    let addr = server.addr;
    let kept = first_kept(addr, "origin=duel", 60).await;
    let (_, text) = http(addr, "GET", &format!("/api/replays/{}/file", kept["id"]), None, None).await;
    let (status, page) = post_form(addr, "/replays/open", &[("name", "my duel.jsonl"), ("replay", &text), ("log", "")]).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("\"game\":\"duel\""), "the page holds the game");
    assert!(page.contains("my duel.jsonl"), "the fork command names the file");
    assert!(!page.contains("connect-src"), "a file's page makes no request");
    // One changed checksum: the viewer names the tick that differs.
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let c = lines[2].rfind("\"c\":\"").unwrap() + 5;
    let flipped = if &lines[2][c..c + 1] == "0" { "1" } else { "0" };
    lines[2].replace_range(c..c + 1, flipped);
    let (status, why) = post_form(addr, "/replays/open", &[("replay", &lines.join("\n"))]).await;
    assert_eq!(status, 400);
    assert!(why.contains("cannot be shown") && why.contains("tick 2"), "{why}");
    let (status, why) = post_form(addr, "/replays/open", &[("replay", "not a replay")]).await;
    assert_eq!(status, 400);
    assert!(why.contains("line 1"), "{why}");
    // Files made to keep the server busy are refused before any tick: many
    // seats, or a large board for many ticks. Checksums are not even read.
    let carrots = |seats: usize, side: u32, ticks: u64| {
        let players: Vec<String> = (0..seats).map(|i| format!("\"p{i}\"")).collect();
        let mut text = format!(
            "{{\"snakepit_replay\":1,\"game\":\"carrots\",\"engine\":\"1\",\"seed\":1,\"seats\":{seats},\"players\":[{}],\
             \"settings\":{{\"width\":\"{side}\",\"height\":\"{side}\"}},\"map\":[]}}\n",
            players.join(",")
        );
        let moves = vec!["\"U\""; seats].join(",");
        for t in 1..=ticks {
            text += &format!("{{\"t\":{t},\"m\":[{moves}],\"c\":\"0000000000000000\"}}\n");
        }
        text
    };
    let (status, why) = post_form(addr, "/replays/open", &[("replay", &carrots(65, 100, 1))]).await;
    assert_eq!(status, 400, "{why}");
    assert!(why.contains("65 seats") && why.contains("snakepit replay"), "{why}");
    let (status, why) = post_form(addr, "/replays/open", &[("replay", &carrots(2, 1000, 200))]).await;
    assert_eq!(status, 400, "{why}");
    assert!(why.contains("200 ticks on a board of 1000000 cells"), "{why}");
    // Within the budget the same kind of file is re-simulated (and this
    // one's made-up checksum differs at its first tick).
    let (status, why) = post_form(addr, "/replays/open", &[("replay", &carrots(2, 100, 3))]).await;
    assert_eq!(status, 400, "{why}");
    assert!(why.contains("tick 1"), "{why}");
    // An upload that never finishes holds its address's one place: the same
    // address is told to send one file at a time, while another address is
    // served.
    let slow_upload = |from: &'static str| async move {
        use tokio::io::AsyncWriteExt;
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(from.parse().unwrap()).unwrap();
        let mut s = socket.connect(addr).await.unwrap();
        let head = format!(
            "POST /replays/open HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000000\r\n\r\nreplay="
        );
        s.write_all(head.as_bytes()).await.unwrap();
        s
    };
    let open_from = |from: &'static str| async move { post_form_from(from, addr, "/replays/open", &[("replay", &carrots(2, 100, 3))]).await };
    let waited_for = |want: u16, from: &'static str| async move {
        let end = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            let (status, why) = open_from(from).await;
            if status == want {
                return why;
            }
            assert!(tokio::time::Instant::now() < end, "from {from}: {status} {why}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    // A slow upload that holds its address's place, shown by a second file
    // from the address being refused (429). The second file may be handled
    // first, and take the place itself, turning the slow one away: then the
    // slow one goes and another tries.
    let holding = |from: &'static str| async move {
        let end = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            let slow = slow_upload(from).await;
            tokio::time::sleep(Duration::from_millis(50)).await;
            let (status, why) = open_from(from).await;
            if status == 429 {
                assert!(why.contains("one file at a time"), "{why}");
                return slow;
            }
            assert!(tokio::time::Instant::now() < end, "from {from}: {status} {why}");
        }
    };
    let slow = holding("127.0.0.1:0").await;
    let why = waited_for(400, "127.0.0.2:0").await;
    assert!(why.contains("tick 1"), "another address is served: {why}");
    // Uploads from three more addresses that never finish take every place
    // for receiving files: a sixth address is told to come back before it
    // sends anything, and is served once they go.
    let mut more = Vec::new();
    for from in ["127.0.0.3:0", "127.0.0.4:0", "127.0.0.5:0"] {
        more.push(holding(from).await);
    }
    let why = waited_for(503, "127.0.0.6:0").await;
    assert!(why.contains("try again"), "{why}");
    drop((slow, more));
    waited_for(400, "127.0.0.6:0").await;
    waited_for(400, "127.0.0.1:0").await;
    server.shutdown().await;
}

/// The page of a file opened from disk holds its address's place until the
/// page has been sent: a visitor who never reads the answer (a page of
/// megabytes) cannot pile up pages in the server's memory by sending file
/// after file. Another address is served meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unread_page_holds_its_address_place_until_it_is_sent() {
    use tokio::io::AsyncReadExt;
    let server = start(duel_config("openunread")).await;
    let addr = server.addr;
    let kept = first_kept(addr, "origin=duel", 60).await;
    let (_, text) = http(addr, "GET", &format!("/api/replays/{}/file", kept["id"]), None, None).await;
    // About 10 MB of stderr over the game's ticks: far more than the
    // socket buffers between the server and a reader that does not read.
    let mut unread = open_unread(addr, "127.0.0.7:0", &text).await;

    let small = [("name", "small.jsonl"), ("replay", text.as_str()), ("log", "")];
    let (code, why) = post_form_from("127.0.0.7:0", addr, "/replays/open", &small).await;
    assert_eq!(code, 429, "the unread page holds the address's place: {why}");
    assert!(why.contains("its page sent"), "{why}");
    let (code, _) = post_form_from("127.0.0.8:0", addr, "/replays/open", &small).await;
    assert_eq!(code, 200, "another address is served");

    // Read to the end: the place is free again.
    let mut page = Vec::new();
    unread.read_to_end(&mut page).await.unwrap();
    assert!(page.len() > 10 << 20, "the whole page came: {} bytes", page.len());
    let end = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (code, why) = post_form_from("127.0.0.7:0", addr, "/replays/open", &small).await;
        if code == 200 {
            break;
        }
        assert!(code == 429 && tokio::time::Instant::now() < end, "{code} {why}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.shutdown().await;
}

/// Posts `replay` to `/replays/open` from `from` with about 10 MB of
/// stderr over its ticks (far more than the socket buffers between the
/// server and a reader that does not read), through a socket with a small
/// receive buffer, and reads only the status line: the page is made and
/// being sent.
async fn open_unread(addr: SocketAddr, from: &str, replay: &str) -> tokio::net::TcpStream {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let ticks = replay.lines().count().saturating_sub(1).max(1);
    let per_tick = (10 << 20) / (ticks * 800) + 1;
    let line = "e".repeat(800);
    let log: String = (1..=ticks)
        .map(|t| serde_json::json!({ "t": t, "seat": 0, "stderr": vec![line.as_str(); per_tick], "dropped": 0 }).to_string() + "\n")
        .collect();
    let body = form_body(&[("name", "big.jsonl"), ("replay", replay), ("log", &log)]);
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(from.parse().unwrap()).unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut s = socket.connect(addr).await.unwrap();
    let head = format!(
        "POST /replays/open HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    s.write_all(body.as_bytes()).await.unwrap();
    let mut status = [0u8; 12];
    tokio::time::timeout(Duration::from_secs(60), s.read_exact(&mut status)).await.expect("the page comes").unwrap();
    assert_eq!(&status, b"HTTP/1.1 200");
    s
}

/// A page nobody takes is given up after `limits.send_timeout_ms`: its
/// connection closes, and its address may open a file again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unread_page_is_given_up_after_the_send_timeout() {
    let mut cfg = duel_config("opengiveup");
    cfg.limits.send_timeout_ms = 1500;
    let server = start(cfg).await;
    let addr = server.addr;
    let kept = first_kept(addr, "origin=duel", 60).await;
    let (_, text) = http(addr, "GET", &format!("/api/replays/{}/file", kept["id"]), None, None).await;
    let _unread = open_unread(addr, "127.0.0.9:0", &text).await;
    let small = [("name", "small.jsonl"), ("replay", text.as_str()), ("log", "")];
    let (code, why) = post_form_from("127.0.0.9:0", addr, "/replays/open", &small).await;
    assert_eq!(code, 429, "held while it is sent: {why}");
    let end = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let (code, why) = post_form_from("127.0.0.9:0", addr, "/replays/open", &small).await;
        if code == 200 {
            break;
        }
        assert!(code == 429 && tokio::time::Instant::now() < end, "{code} {why}");
    }
    server.shutdown().await;
}
