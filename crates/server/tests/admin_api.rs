//! The admin API, and the API's answers to bad requests, over a real
//! socket: values out of range and names that do not exist are refused
//! with 400 and words that say what is allowed, never quietly changed into
//! something else; a removed player stays out; the games offered and a
//! closed registration hold; bad bodies get JSON errors.

mod common;

use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn out_of_range_ticks_and_unknown_games_are_refused() {
    let server = start(config(temp_db("adminapi"), 50)).await;
    let addr = server.addr;
    let post = |path: &'static str, body: &'static str| async move { http(addr, "POST", path, Some(body), Some(TOKEN)).await };

    for ms in [0, 5, 60001] {
        let body = format!(r#"{{"tick_ms":{ms}}}"#);
        let (status, text) = http(addr, "POST", "/api/admin/rooms/snakebattle/tick", Some(&body), Some(TOKEN)).await;
        assert_eq!(status, 400, "{ms}: {text}");
        assert!(text.contains("ticks are 10 to 60000 ms"), "{text}");
    }
    let (status, text) = post("/api/admin/rooms/snakebattle/tick", r#"{"tick_ms":10}"#).await;
    assert_eq!((status, text.contains("\"tick_ms\":10")), (200, true), "{text}");

    let (status, text) = post("/api/admin/rooms", r#"{"name":"fast","game":"duel","tick_ms":0}"#).await;
    assert_eq!(status, 400, "{text}");
    let (status, rooms) = http(addr, "GET", "/api/rooms", None, None).await;
    assert_eq!(status, 200);
    assert!(!rooms.contains("\"fast\""), "no room was made: {rooms}");

    let (status, text) = post("/api/admin/reset-scores?game=chess", "").await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("unknown game \\\"chess\\\""), "{text}");
    let (status, text) = http(addr, "GET", "/api/leaderboard?game=chess", None, None).await;
    assert_eq!(status, 400, "{text}");
    let (status, text) = http(addr, "GET", "/api/ratings?game=chess", None, None).await;
    assert_eq!(status, 400, "{text}");
    let (status, _) = post("/api/admin/reset-scores?game=duel", "").await;
    assert_eq!(status, 200);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_configuration_out_of_range_does_not_start() {
    let mut cfg = config(temp_db("admincfg"), 50);
    cfg.duel.tick_ms = Some(1);
    let err = snakepit_server::Server::start(cfg).await.err().expect("a 1 ms tick is refused");
    assert!(format!("{err:#}").contains("[duel] tick_ms: a tick of 1 ms"), "{err:#}");
}

/// A removed player is gone for good: their bot is closed with the reason,
/// cannot come back with the old URL, and leaves the leaderboard.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_removed_player_cannot_come_back() {
    let server = start(config(temp_db("adminremove"), 30)).await;
    let addr = server.addr;
    let (id, code, _) = register(addr, "cheater").await;
    let mut bot = connect_bot(addr, &id, &code).await;
    assert!(next_text(&mut bot, FRAME_WAIT).await.is_some(), "a board");
    let path = format!("/api/admin/players/{id}");

    let (status, _) = http(addr, "DELETE", &path, None, None).await;
    assert_eq!(status, 401, "the admin token is needed");
    let (status, text) = http(addr, "DELETE", &path, None, Some(TOKEN)).await;
    assert_eq!(status, 200, "{text}");
    assert!(text.contains("\"room\":\"snakebattle\""), "{text}");
    let reason = close_reason(&mut bot, FRAME_WAIT).await;
    assert_eq!(reason.as_deref(), Some("removed by the organiser"));

    let url = format!("ws://{addr}/codenjoy-contest/ws?user={id}&code={code}");
    assert!(tokio_tungstenite::connect_async(url).await.is_err(), "the old URL is refused");
    let (status, players) = http(addr, "GET", "/api/admin/players", None, Some(TOKEN)).await;
    assert_eq!(status, 200);
    assert!(!players.contains("cheater"), "{players}");
    assert!(leaderboard(addr).await.iter().all(|(name, _)| name != "cheater"));
    let (status, text) = http(addr, "DELETE", &path, None, Some(TOKEN)).await;
    assert_eq!(status, 404, "{text}");
    server.shutdown().await;
}

/// An organiser offers fewer games, or closes registration: the lobby's
/// API says so, sign-ups follow it, and the organiser still adds players.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_offered_and_closed_registration() {
    let mut cfg = config(temp_db("admingames"), 50);
    cfg.games = vec!["duel".into(), "hex".into()];
    let server = start(cfg).await;
    let addr = server.addr;
    let (status, text) = http(addr, "GET", "/api/server", None, None).await;
    assert_eq!((status, text.as_str()), (200, r#"{"games":["duel","hex"],"registration":"open"}"#));
    let sign_up = |body: &'static str| async move { http(addr, "POST", "/api/register", Some(body), None).await };
    let (status, text) = sign_up(r#"{"name":"sb","game":"snakebattle"}"#).await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("does not offer snakebattle; it offers duel, hex"), "{text}");
    let (status, text) = sign_up(r#"{"name":"sb","game":"SnakeBattle"}"#).await;
    assert_eq!(status, 400, "in any case, a game not offered: {text}");
    let (status, text) = sign_up(r#"{"name":"capital","game":"Hex"}"#).await;
    assert_eq!(status, 201, "{text}");
    assert!(text.contains("\"game\":\"hex\""), "{text}");
    let (status, text) = sign_up(r#"{"name":"sb","game":"nogame"}"#).await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains(r#"no game \"nogame\" here: this server hosts duel, hex"#), "{text}");
    let (status, text) = sign_up(r#"{"name":"first"}"#).await;
    assert_eq!(status, 201, "{text}");
    assert!(text.contains("\"game\":\"duel\""), "without a game, the contest's first: {text}");
    let (status, text) = http(addr, "POST", "/api/admin/players", Some(r#"{"name":"added"}"#), Some(TOKEN)).await;
    assert_eq!(status, 201, "{text}");
    assert!(text.contains("\"game\":\"duel\""), "the organiser's too: {text}");
    let (_, rooms) = http(addr, "GET", "/api/rooms", None, None).await;
    let names: Vec<String> = serde_json::from_str::<serde_json::Value>(&rooms).unwrap().as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap().to_string()).collect();
    assert_eq!(names, ["duel", "hex"], "the default rooms are the offered games'");
    server.shutdown().await;

    let mut cfg = config(temp_db("adminclosed"), 50);
    cfg.registration = "closed".into();
    let server = start(cfg).await;
    let addr = server.addr;
    let (status, text) = http(addr, "POST", "/api/register", Some(r#"{"name":"walkin"}"#), None).await;
    assert_eq!(status, 403, "{text}");
    assert!(text.contains("registration is closed"), "{text}");
    let (status, text) = http(addr, "POST", "/api/admin/players", Some(r#"{"name":"invited"}"#), Some(TOKEN)).await;
    assert_eq!(status, 201, "the organiser adds players: {text}");
    let (status, text) = http(addr, "GET", "/api/admin/players", None, Some("not-the-token")).await;
    assert_eq!(status, 401);
    assert!(text.contains("wrong admin token"), "{text}");
    server.shutdown().await;
}

/// A body that is not the JSON asked for is answered like any other
/// client error: `{"error": ...}` saying what is wrong.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_bodies_are_answered_in_json() {
    let server = start(config(temp_db("adminbodies"), 50)).await;
    let addr = server.addr;
    for (path, body, token) in [
        ("/api/register", "{not json", None),
        ("/api/register", r#"{"game":"duel"}"#, None),
        ("/api/admin/rooms/snakebattle/tick", r#"{"tick_ms":"fast"}"#, Some(TOKEN)),
        ("/api/player/room", "[]", None),
    ] {
        let (status, text) = http(addr, "POST", path, Some(body), token).await;
        assert!((400..500).contains(&status), "{path} {body}: {status} {text}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{path} {body}: not JSON: {text}"));
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{path} {body}: {text}");
    }
    // What the framework refuses on its own is JSON too under /api/: a
    // path or query that does not parse, an unknown address, a method.
    for (method, path, status) in [
        ("GET", "/api/replays/notanumber/file", 400),
        ("GET", "/api/replays?limit=many", 400),
        ("GET", "/api/nothing/here", 404),
        ("DELETE", "/api/rooms", 405),
    ] {
        let (got, text) = http(addr, method, path, None, None).await;
        assert_eq!(got, status, "{method} {path}: {text}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{method} {path}: not JSON: {text}"));
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{method} {path}: {text}");
    }
    // A page address with nothing at it is a page that says so.
    let (status, page) = http(addr, "GET", "/no/such/page", None, None).await;
    assert_eq!(status, 404);
    assert!(page.contains("Nothing here") && page.contains("href=\"/\""), "{page}");
    // The token is checked before the body: without it, a bad body is 401.
    let (status, text) = http(addr, "POST", "/api/admin/rooms/snakebattle/tick", Some("{not json"), None).await;
    assert_eq!(status, 401, "{text}");
    let (status, text) = http(addr, "POST", "/api/admin/rooms", Some("[]"), Some("wrong")).await;
    assert_eq!(status, 401, "{text}");
    // The scheme's name in any case.
    let (status, text) = raw_authorized(addr, &format!("bearer {TOKEN}")).await;
    assert_eq!(status, 200, "{text}");
    server.shutdown().await;
}

/// `GET /api/admin/players` with this `Authorization` header.
async fn raw_authorized(addr: std::net::SocketAddr, authorization: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!("GET /api/admin/players HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAuthorization: {authorization}\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out).to_string();
    (text.split(' ').nth(1).unwrap().parse().unwrap(), text)
}

/// The room a player sits in, from `/api/rooms`.
async fn room_of(addr: std::net::SocketAddr, name: &str) -> Option<String> {
    let (_, rooms) = http(addr, "GET", "/api/rooms", None, None).await;
    let rooms: serde_json::Value = serde_json::from_str(&rooms).unwrap();
    rooms.as_array().unwrap().iter().find_map(|r| {
        r["seats"].as_array().unwrap().iter().any(|s| s["name"] == name).then(|| r["name"].as_str().unwrap().to_string())
    })
}

/// Waits up to 60 s (far more than it takes, for a loaded machine) for the
/// player to sit in a room, and says which.
async fn seated_in(addr: std::net::SocketAddr, name: &str) -> String {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        if let Some(room) = room_of(addr, name).await {
            return room;
        }
        assert!(std::time::Instant::now() < until, "{name} never sat down");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// An organiser closes a room: its players are sent away with the reason,
/// sit in another room of their game when they come back, and the room
/// stays gone after a restart; a room of the configuration comes back, as
/// the answer says.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_room_sends_its_players_elsewhere_and_stays_gone() {
    let db = temp_db("admindelete");
    let server = start(config(db.clone(), 30)).await;
    let addr = server.addr;
    let (status, text) = http(addr, "POST", "/api/admin/rooms", Some(r#"{"name":"den","game":"snakebattle"}"#), Some(TOKEN)).await;
    assert_eq!(status, 201, "{text}");
    let (id, code, _) = register(addr, "mover").await;
    let body = serde_json::json!({ "user": id, "code": code, "room": "den" }).to_string();
    let (status, text) = http(addr, "POST", "/api/player/room", Some(&body), None).await;
    assert_eq!(status, 200, "{text}");
    let mut bot = connect_bot(addr, &id, &code).await;
    assert_eq!(seated_in(addr, "mover").await, "den");

    let (status, _) = http(addr, "DELETE", "/api/admin/rooms/den", None, None).await;
    assert_eq!(status, 401, "the admin token is needed");
    let (status, text) = http(addr, "DELETE", "/api/admin/rooms/den", None, Some(TOKEN)).await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), serde_json::json!({ "deleted": "den", "returns_at_restart": false, "programs": {} }));
    let reason = close_reason(&mut bot, FRAME_WAIT).await.unwrap_or_default();
    assert!(reason.contains("organiser closed this room"), "{reason:?}");
    let (_, rooms) = http(addr, "GET", "/api/rooms", None, None).await;
    assert!(!rooms.contains("\"den\""), "{rooms}");
    let mut bot = connect_bot(addr, &id, &code).await;
    assert!(next_text(&mut bot, FRAME_WAIT).await.is_some(), "a board in the new room");
    assert_eq!(seated_in(addr, "mover").await, "snakebattle");

    let (status, text) = http(addr, "DELETE", "/api/admin/rooms/den", None, Some(TOKEN)).await;
    assert_eq!(status, 404, "{text}");
    let (status, text) = http(addr, "DELETE", "/api/admin/rooms/hex", None, Some(TOKEN)).await;
    assert_eq!(status, 200, "{text}");
    assert!(text.contains("\"returns_at_restart\":true"), "a room of the configuration: {text}");
    drop(bot);
    server.shutdown().await;

    let server = start(config(db, 30)).await;
    let (_, rooms) = http(server.addr, "GET", "/api/rooms", None, None).await;
    assert!(!rooms.contains("\"den\"") && rooms.contains("\"hex\""), "{rooms}");
    server.shutdown().await;
}

/// A room the organiser makes (for a final, say) is not where newcomers
/// sit while a room of the configuration has a seat, even when its name
/// comes first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn newcomers_sit_in_the_public_rooms_before_the_organisers() {
    let server = start(config(temp_db("adminfirst"), 30)).await;
    let addr = server.addr;
    let (status, text) = http(addr, "POST", "/api/admin/rooms", Some(r#"{"name":"aaa-final","game":"snakebattle"}"#), Some(TOKEN)).await;
    assert_eq!(status, 201, "{text}");
    let (id, code, _) = register(addr, "newcomer").await;
    let bot = connect_bot(addr, &id, &code).await;
    assert_eq!(seated_in(addr, "newcomer").await, "snakebattle");
    drop(bot);
    server.shutdown().await;
}

/// The organiser seats two contestants in one room for a final: each sits
/// there when their bot connects, after a restart of the server too. A
/// room of another game, a room or a player that does not exist are
/// refused with the reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_organiser_seats_players_in_a_room_of_their_game() {
    let db = temp_db("adminseat");
    let server = start(config(db.clone(), 30)).await;
    let addr = server.addr;
    let mut players = Vec::new();
    for room in [r#"{"name":"zfinal","game":"snakebattle"}"#, r#"{"name":"duels","game":"duel"}"#] {
        let (status, text) = http(addr, "POST", "/api/admin/rooms", Some(room), Some(TOKEN)).await;
        assert_eq!(status, 201, "{text}");
    }
    let mut bots = Vec::new();
    for name in ["north", "south"] {
        let (id, code, _) = register(addr, name).await;
        players.push((name, id.clone(), code.clone()));
        let path = format!("/api/admin/players/{id}/room");
        let (status, _) = http(addr, "POST", &path, Some(r#"{"room":"zfinal"}"#), None).await;
        assert_eq!(status, 401, "the admin token is needed");
        let (status, text) = http(addr, "POST", &path, Some(r#"{"room":"zfinal"}"#), Some(TOKEN)).await;
        assert_eq!(status, 200, "{text}");
        assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap()["room"], "zfinal");
        bots.push(connect_bot(addr, &id, &code).await);
        assert_eq!(seated_in(addr, name).await, "zfinal");

        let (status, text) = http(addr, "POST", &path, Some(r#"{"room":"duels"}"#), Some(TOKEN)).await;
        assert_eq!(status, 400, "a room of another game: {text}");
        let (status, text) = http(addr, "POST", &path, Some(r#"{"room":"nowhere"}"#), Some(TOKEN)).await;
        assert_eq!(status, 404, "{text}");
    }
    let (status, text) = http(addr, "POST", "/api/admin/players/nobody/room", Some(r#"{"room":"zfinal"}"#), Some(TOKEN)).await;
    assert_eq!(status, 404, "{text}");
    assert!(text.contains("no player"), "{text}");
    drop(bots);
    server.shutdown().await;

    // The seating is kept: after a restart they sit in the final again,
    // not in the first room of their game with a seat (by name, the
    // public `snakebattle` comes first).
    let server = start(config(db, 30)).await;
    let addr = server.addr;
    let mut bots = Vec::new();
    for (name, id, code) in &players {
        bots.push(connect_bot(addr, id, code).await);
        assert_eq!(seated_in(addr, name).await, "zfinal", "{name} after a restart");
    }
    drop(bots);
    server.shutdown().await;
}
