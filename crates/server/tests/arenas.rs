//! The stdin/stdout arenas in the server, over real sockets: spectators see
//! the three games, a Python bot plays duels over the JSON-lines protocol,
//! refused answers reach the player's page, and uploaded programs run in
//! the sandbox with their stderr on their owner's page only.

mod common;

use common::*;
use std::net::SocketAddr;
use std::process::Command;
use std::time::Duration;

fn arena_config(tag: &str, tick_ms: u64) -> snakepit_server::config::Config {
    let mut cfg = config(temp_db(tag), tick_ms);
    for a in [&mut cfg.carrots, &mut cfg.duel, &mut cfg.multisnake] {
        a.tick_ms = Some(tick_ms);
        a.pause_ticks = Some(3);
    }
    cfg
}

async fn register_for(addr: SocketAddr, name: &str, game: &str) -> (String, String, String) {
    let body = serde_json::json!({ "name": name, "game": game }).to_string();
    let (status, body) = http(addr, "POST", "/api/register", Some(&body), None).await;
    assert_eq!(status, 201, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    (v["id"].as_str().unwrap().into(), v["code"].as_str().unwrap().into(), v["url"].as_str().unwrap().into())
}

async fn page(addr: SocketAddr, id: &str, code: &str) -> Ws {
    tokio_tungstenite::connect_async(format!("ws://{addr}/ws/player?user={id}&code={code}")).await.unwrap().0
}

async fn spectator(addr: SocketAddr, room: &str) -> Ws {
    tokio_tungstenite::connect_async(format!("ws://{addr}/ws/room/{room}")).await.unwrap().0
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_see_live_games_of_all_three_arenas() {
    let server = start(arena_config("arenaview", 30)).await;
    for (room, w, h) in [("carrots", 120, 80), ("duel", 14, 13), ("multisnake", 32, 32)] {
        let mut ws = spectator(server.addr, room).await;
        let mut moved = false;
        let mut first_heads = None;
        for _ in 0..40 {
            let f = json(&next_text(&mut ws, FRAME_WAIT).await.expect("frames"));
            let d = &f["data"];
            assert_eq!(d["game"], room);
            assert_eq!((d["width"].as_u64().unwrap(), d["height"].as_u64().unwrap()), (w, h), "{room}");
            assert_eq!(d["cells"].as_str().unwrap().chars().count() as u64, w * h, "{room}");
            let heads: Vec<_> = d["snakes"].as_array().unwrap().iter().map(|s| s["body"][0].clone()).collect();
            if !heads.is_empty() {
                match &first_heads {
                    None => first_heads = Some(heads),
                    Some(h0) => moved |= *h0 != heads,
                }
            }
            if moved {
                break;
            }
        }
        assert!(moved, "the built-in bots of {room} move");
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_python_bot_plays_duels_over_the_json_protocol() {
    let server = start(arena_config("duelpy", 40)).await;
    let addr = server.addr;
    let (id, _, url) = register_for(addr, "pyduel", "duel").await;
    let out = tokio::task::spawn_blocking(move || {
        Command::new("python3")
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/duel_json_client.py"))
            .arg(&url)
            .arg("3000")
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "stdout: {stdout}\nstderr: {}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("moves played as sent"), "{stdout}");
    // The game that ended is counted for the player: a win, or a death.
    let mut row = None;
    for _ in 0..600 {
        let (_, body) = http(addr, "GET", "/api/leaderboard?game=duel", None, None).await;
        row = json(&body).as_array().unwrap().iter().find(|r| r["player_id"] == id.as_str()).cloned();
        if row.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let row = row.expect("the player is on the duel leaderboard");
    assert!(row["wins"].as_i64().unwrap() + row["deaths"].as_i64().unwrap() >= 1, "{row}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_answers_are_shown_on_the_players_page() {
    let server = start(arena_config("duelbad", 40)).await;
    let addr = server.addr;
    let (id, code, _) = register_for(addr, "badduel", "duel").await;
    let mut bot = connect_bot(addr, &id, &code).await;
    let mut page = page(addr, &id, &code).await;
    let board = next_text(&mut bot, FRAME_WAIT).await.expect("a board");
    let state = json(&board);
    assert_eq!(state["game"], "duel", "the board is the game's JSON line, without board=");
    send(&mut bot, "jump!").await;
    let mut seen = String::new();
    for _ in 0..100 {
        let Some(m) = next_text(&mut page, FRAME_WAIT).await else { break };
        if m.contains("\"type\":\"player\"") && m.contains("refused") {
            seen = m;
            break;
        }
    }
    assert!(seen.contains("jump!") && seen.contains("not a move"), "{seen}");
    server.shutdown().await;
}

/// A CodeCarrots program that writes a marker (with markup in it) to stderr
/// every tick and moves safely, as the starter does.
const MARKER_BOT: &str = r#"import random, sys
W, H = 120, 80
MOVES = [("up", 0, -1), ("right", 1, 0), ("down", 0, 1), ("left", -1, 0)]
n = 0
while True:
    rows = [sys.stdin.readline().rstrip("\n") for _ in range(H)]
    if not rows[-1]:
        break
    n += 1
    print(f"tick {n}: <b>stderr-marker</b>", file=sys.stderr, flush=True)
    y = next(i for i, r in enumerate(rows) if "H" in r)
    x = rows[y].index("H")
    safe = [m for m, dx, dy in MOVES if 0 <= x + dx < W and 0 <= y + dy < H and rows[y + dy][x + dx] in ".o"]
    print(random.choice(safe) if safe else "up", flush=True)
"#;

/// Reads messages until one satisfies `want`, within `secs`.
async fn wait_for(ws: &mut Ws, secs: u64, want: impl Fn(&str) -> bool) -> Option<String> {
    let end = tokio::time::Instant::now() + Duration::from_secs(secs);
    while tokio::time::Instant::now() < end {
        let m = next_text(ws, end - tokio::time::Instant::now()).await?;
        if want(&m) {
            return Some(m);
        }
    }
    None
}

async fn upload(addr: SocketAddr, id: &str, code: &str, name: &str, source: &str) -> (u16, String) {
    let body = serde_json::json!({ "user": id, "code": code, "lang": "python", "name": name, "source": source }).to_string();
    http(addr, "POST", "/api/code", Some(&body), None).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploaded_code_runs_in_the_sandbox_and_only_its_owner_sees_its_stderr() {
    let cfg = arena_config("code", 50);
    let server = start(cfg.clone()).await;
    let addr = server.addr;
    let (id, code, _) = register_for(addr, "coder", "carrots").await;
    let mut page = page(addr, &id, &code).await;
    let mut watcher = spectator(addr, "carrots").await;
    // Someone else's code is refused.
    let (status, _) = upload(addr, &id, "1", "x", MARKER_BOT).await;
    assert_eq!(status, 401);
    let (status, body) = upload(addr, &id, &code, "marker bot", MARKER_BOT).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(json(&body)["room"], "carrots");
    let line = wait_for(&mut page, 30, |m| m.contains("\"type\":\"stderr\"") && m.contains("stderr-marker")).await;
    assert!(line.is_some(), "the program's stderr reaches its owner's page");
    let moved = wait_for(&mut page, 10, |m| m.contains("\"type\":\"player\"") && m.contains("ok after")).await;
    assert!(moved.is_some(), "its answers are played");
    for _ in 0..30 {
        let f = next_text(&mut watcher, FRAME_WAIT).await.expect("frames");
        assert!(!f.contains("stderr-marker"), "spectators never see a program's stderr");
    }
    // A bad answer is a fault with its exact bytes, and the snake forfeits.
    let bad = "import sys\nwhile sys.stdin.readline():\n    [sys.stdin.readline() for _ in range(79)]\n    print('jump', flush=True)\n";
    let (status, body) = upload(addr, &id, &code, "jumper", bad).await;
    assert_eq!(status, 200, "{body}");
    let fault = wait_for(&mut page, 30, |m| m.contains("\"type\":\"stderr\"") && m.contains("fault: ")).await.expect("a fault");
    assert!(fault.contains("jump") && fault.contains("fault: tick "), "the fault names its tick: {fault}");
    // The code is stored: after a restart it runs again.
    let (status, body) = upload(addr, &id, &code, "marker bot", MARKER_BOT).await;
    assert_eq!(status, 200, "{body}");
    server.shutdown().await;
    let server = start(cfg).await;
    let addr = server.addr;
    let (status, body) = http(addr, "GET", &format!("/api/code?user={id}&code={code}"), None, None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(json(&body)["saved"]["name"], "marker bot");
    let mut page = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/player?user={id}&code={code}")).await.unwrap().0;
    let line = wait_for(&mut page, 30, |m| m.contains("\"type\":\"stderr\"") && m.contains("stderr-marker")).await;
    assert!(line.is_some(), "the saved program runs after a restart");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_starters_of_every_language_play_once_uploaded() {
    let mut cfg = arena_config("starters", 50);
    // A player who arrives during a Multisnake game plays from the next
    // one; built-in bots can last the default 2000 turns (100 s here).
    cfg.multisnake.settings = Some([("turns_max".to_string(), "200".to_string())].into());
    let server = start(cfg).await;
    let addr = server.addr;
    // The Java starter of a duel is KingOfBots' own sample bot, run
    // unmodified under the harness.
    let each = [
        ("duel", "python"),
        ("duel", "javascript"),
        ("duel", "c"),
        ("duel", "java"),
        ("multisnake", "c"),
        ("multisnake", "java"),
        ("carrots", "javascript"),
    ];
    for (game, lang) in each {
        let (id, code, _) = register_for(addr, &format!("{game}-{lang}"), game).await;
        let (status, body) = http(addr, "GET", &format!("/api/code?user={id}&code={code}"), None, None).await;
        assert_eq!(status, 200, "{body}");
        let info = json(&body);
        assert!(info["saved"].is_null());
        let source = info["starters"][lang].as_str().unwrap_or_else(|| panic!("a {lang} starter for {game}")).to_string();
        let mut page = page(addr, &id, &code).await;
        let body = serde_json::json!({ "user": id, "code": code, "lang": lang, "name": "starter", "source": source }).to_string();
        let (status, body) = http(addr, "POST", "/api/code", Some(&body), None).await;
        assert_eq!(status, 200, "{body}");
        // C and Java are compiled once, at save: the program starts from
        // that build.
        let compiled = matches!(lang, "c" | "java");
        let (played, from_build) = (std::cell::Cell::new(false), std::cell::Cell::new(!compiled));
        wait_for(&mut page, 40, |m| {
            played.set(played.get() || (m.contains("\"type\":\"player\"") && m.contains("ok after")));
            from_build.set(from_build.get() || (m.contains("\"type\":\"stderr\"") && m.contains("started (pid") && m.contains("from its build")));
            played.get() && from_build.get()
        })
        .await;
        assert!(played.get(), "the {lang} starter plays {game}");
        assert!(from_build.get(), "the {lang} starter of {game} starts from its build");
    }
    server.shutdown().await;
}

/// A saved C program started from the store (after a restart) is built
/// before it takes its seat, once: its games start from that build.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_saved_c_program_is_built_once_when_the_server_starts() {
    let cfg = arena_config("cbuild", 50);
    let server = start(cfg.clone()).await;
    let addr = server.addr;
    let (id, code, _) = register_for(addr, "c player", "duel").await;
    let source = info_starter(addr, &id, &code, "c").await;
    let body = serde_json::json!({ "user": id, "code": code, "lang": "c", "name": "starter", "source": source }).to_string();
    let (status, body) = http(addr, "POST", "/api/code", Some(&body), None).await;
    assert_eq!(status, 200, "{body}");
    server.shutdown().await;
    let server = start(cfg).await;
    let addr = server.addr;
    let mut page = page(addr, &id, &code).await;
    // Two games' starts (a duel restarts its programs every game), both
    // from the build.
    let starts = std::cell::Cell::new(0);
    let seen = wait_for(&mut page, 60, |m| {
        if m.contains("\"type\":\"stderr\"") {
            starts.set(starts.get() + m.matches("started (pid").count());
            assert_eq!(m.matches("started (pid").count(), m.matches("from its build").count(), "{m}");
        }
        starts.get() >= 2
    })
    .await;
    assert!(seen.is_some(), "two starts from the build");
    server.shutdown().await;
}

/// A C program whose compiling takes seconds (the loop unrolled 5000 times),
/// so that two saves of it overlap.
const SLOW_TO_COMPILE_C: &str = "#include <stdio.h>\nint main(void) {\n    volatile int x = 0;\n#pragma GCC unroll 5000\n    for (int i = 0; i < 5000; i++) x += i;\n    for (;;) { char line[64]; if (!fgets(line, sizeof line, stdin)) return 0; puts(\"0\"); fflush(stdout); }\n}\n";

/// One player's saves are compiled one at a time: a save sent while another
/// of theirs is compiling waits for it (never beside it), so that nobody can
/// take every compiler place with saves; another player's save goes on
/// meanwhile. The order of turns is `build_turns.rs`'s.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_compiles_one_save_at_a_time() {
    let server = start(arena_config("savebuilds", 50)).await;
    let addr = server.addr;
    let (id, code, _) = register_for(addr, "busy coder", "duel").await;
    let (other_id, other_code, _) = register_for(addr, "other coder", "duel").await;
    let save = |id: &str, code: &str, source: &str| {
        let body = serde_json::json!({ "user": id, "code": code, "lang": "c", "name": "slow", "source": source }).to_string();
        async move { http(addr, "POST", "/api/code", Some(&body), None).await }
    };
    let first = save(&id, &code, SLOW_TO_COMPILE_C);
    let second = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        save(&id, &code, SLOW_TO_COMPILE_C).await
    };
    let starter = info_starter(addr, &other_id, &other_code, "c").await;
    let other = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        save(&other_id, &other_code, &starter).await
    };
    let ((s1, b1), (s2, b2), (s3, b3)) = tokio::join!(first, second, other);
    assert_eq!((s1, s2), (200, 200), "{b1}\n{b2}");
    assert_eq!(s3, 200, "another player's save is compiled meanwhile: {b3}");
    // Once answered, the player saves again.
    let (s4, b4) = save(&id, &code, &starter).await;
    assert_eq!(s4, 200, "{b4}");
    // Starting a saved C program builds it first, under the same bound: a
    // second start while that build runs is refused (a start never queues
    // behind a build), and a save waits its turn.
    let (s5, b5) = save(&id, &code, SLOW_TO_COMPILE_C).await;
    assert_eq!(s5, 200, "{b5}");
    let credentials = serde_json::json!({ "user": id, "code": code }).to_string();
    let (s6, b6) = http(addr, "POST", "/api/code/start", Some(&credentials), None).await;
    assert_eq!(s6, 202, "{b6}");
    let (s7, b7) = http(addr, "POST", "/api/code/start", Some(&credentials), None).await;
    assert_eq!(s7, 429, "{b7}");
    assert!(b7.contains("running already"), "{b7}");
    let (s8, b8) = save(&id, &code, &starter).await;
    assert_eq!(s8, 200, "{b8}");
    server.shutdown().await;
}

/// The starter the player page offers for `lang`.
async fn info_starter(addr: SocketAddr, id: &str, code: &str, lang: &str) -> String {
    let (_, body) = http(addr, "GET", &format!("/api/code?user={id}&code={code}"), None, None).await;
    json(&body)["starters"][lang].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn programs_that_do_not_compile_are_refused_with_the_compilers_words() {
    let server = start(arena_config("javac", 50)).await;
    let addr = server.addr;
    let (id, code, _) = register_for(addr, "javanese", "duel").await;
    let post = |lang: &str, source: &str| {
        let body = serde_json::json!({ "user": id, "code": code, "lang": lang, "name": "j", "source": source }).to_string();
        async move { http(addr, "POST", "/api/code", Some(&body), None).await }
    };
    // Nothing to run: refused before it is saved, with what is missing.
    let (status, body) = post("java", "interface Nothing {}").await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("Supplier<Integer>") && body.contains("main"), "{body}");
    let (status, body) = post("fortran", "program bot").await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("java"), "{body}");
    let (_, body) = http(addr, "GET", &format!("/api/code?user={id}&code={code}"), None, None).await;
    assert!(json(&body)["saved"].is_null(), "nothing was saved: {body}");
    // A KingOfBots bot with a type error is compiled in the sandbox at
    // save and refused with javac's words; the program that plays stays.
    let (status, body) = post("java", &info_starter(addr, &id, &code, "java").await).await;
    assert_eq!(status, 200, "KingOfBots' sample bot compiles: {body}");
    let broken = "public class Bot implements java.util.function.Supplier<Integer> {\n  public Integer get() { return \"up\"; }\n}\n";
    let (status, body) = post("java", broken).await;
    assert_eq!(status, 422, "{body}");
    let message = json(&body)["error"].as_str().unwrap().to_string();
    assert!(message.starts_with("not saved: it does not compile"), "{message}");
    assert!(message.contains("Bot.java:2: error: incompatible types"), "{message}");
    let (_, body) = http(addr, "GET", &format!("/api/code?user={id}&code={code}"), None, None).await;
    assert!(json(&body)["saved"]["source"].as_str().unwrap().contains("nextMove"), "the sample stays saved: {body}");
    // C too.
    let (status, body) = post("c", "int main(void) { return undefined_thing; }\n").await;
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("undefined_thing"), "{body}");
    // Python and JavaScript are not compiled, but a program that does not
    // parse is refused with the interpreter's words all the same.
    let (status, body) = post("python", "def next_move(:\n    return 0\n").await;
    assert_eq!(status, 422, "{body}");
    let message = json(&body)["error"].as_str().unwrap().to_string();
    assert!(message.starts_with("not saved: it does not parse"), "{message}");
    assert!(message.contains("SyntaxError") && message.contains("bot.py"), "{message}");
    let (status, body) = post("javascript", "function nextMove( {\n  return 0;\n}\n").await;
    assert_eq!(status, 422, "{body}");
    let message = json(&body)["error"].as_str().unwrap().to_string();
    assert!(message.contains("SyntaxError") && message.contains("\nbot.js:2"), "{message}");
    assert!(!message.contains("/bot.js"), "the file is named as its owner knows it: {message}");
    let (_, body) = http(addr, "GET", &format!("/api/code?user={id}&code={code}"), None, None).await;
    assert!(json(&body)["saved"]["source"].as_str().unwrap().contains("nextMove"), "the Java sample stays saved: {body}");
    // Their starters parse, and are saved.
    for lang in ["python", "javascript"] {
        let (status, body) = post(lang, &info_starter(addr, &id, &code, lang).await).await;
        assert_eq!(status, 200, "{lang}: {body}");
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_take_the_two_seats_of_one_duel() {
    let server = start(arena_config("duelpeople", 50)).await;
    let addr = server.addr;
    let mut seats = Vec::new();
    for name in ["left hand", "right hand"] {
        let (id, code, _) = register_for(addr, name, "duel").await;
        let mut p = page(addr, &id, &code).await;
        let view = wait_for(&mut p, 10, |m| m.contains("\"type\":\"player\"")).await.expect("the player's view");
        let v = json(&view);
        seats.push((v["data"]["room"].as_str().unwrap().to_string(), v["data"]["seat"].as_u64().unwrap(), p));
    }
    assert_eq!(seats[0].0, seats[1].0, "one room");
    assert_ne!(seats[0].1, seats[1].1, "two seats");
    // Nobody else plays: both snakes are named after the people.
    let mut watcher = spectator(addr, &seats[0].0).await;
    let f = wait_for(&mut watcher, 10, |m| m.contains("left hand") && m.contains("right hand")).await;
    assert!(f.is_some(), "the duel is between the two people");
    server.shutdown().await;
}

async fn move_to(addr: SocketAddr, id: &str, code: &str, room: Option<&str>) -> (u16, serde_json::Value) {
    let body = serde_json::json!({ "user": id, "code": code, "room": room }).to_string();
    let (status, body) = http(addr, "POST", "/api/player/room", Some(&body), None).await;
    (status, serde_json::from_str(&body).unwrap_or(serde_json::Value::String(body)))
}

/// The room and seat of a player's view, read from their (new) page.
async fn seated(addr: SocketAddr, id: &str, code: &str) -> (String, u64, bool, Ws) {
    let mut p = page(addr, id, code).await;
    let view = wait_for(&mut p, 10, |m| m.contains("\"type\":\"player\"")).await.expect("the player's view");
    let v = json(&view);
    let d = &v["data"];
    (d["room"].as_str().unwrap().to_string(), d["seat"].as_u64().unwrap(), d["bot_connected"] == true, p)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_meet_in_a_room_of_their_choosing() {
    let server = start(arena_config("duelmove", 50)).await;
    let addr = server.addr;
    let mut people = Vec::new();
    for name in ["ann", "bob", "cid"] {
        let (id, code, _) = register_for(addr, name, "duel").await;
        let (room, _, _, p) = seated(addr, &id, &code).await;
        people.push((id, code, room, p));
    }
    // Arrival order: ann and bob share the first duel, cid plays a bot.
    assert_eq!(people[0].2, people[1].2);
    assert_ne!(people[2].2, people[0].2);
    // cid's saved program follows them.
    let starter = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../starters/duel/python/bot.py")).unwrap();
    let (status, body) = upload(addr, &people[2].0, &people[2].1, "starter", &starter).await;
    assert_eq!(status, 200, "{body}");

    // ann opens a new room; her page is told why it closes, and where to.
    let (status, moved) = move_to(addr, &people[0].0, &people[0].1, None).await;
    assert_eq!(status, 200, "{moved}");
    let new_room = moved["room"].as_str().unwrap().to_string();
    assert!(new_room != people[0].2 && new_room != people[2].2, "{moved}");
    let why = close_reason(&mut people[0].3, FRAME_WAIT).await.expect("ann's page is closed");
    assert_eq!(why, format!("you moved to room {new_room}; reconnect"));
    let (room, ann_seat, _, _ann) = seated(addr, &people[0].0, &people[0].1).await;
    assert_eq!(room, new_room);
    // While nobody joins her there, asking again gives the same room.
    let (status, again) = move_to(addr, &people[0].0, &people[0].1, None).await;
    assert_eq!((status, again["room"].as_str()), (200, Some(new_room.as_str())), "{again}");

    // The wrong code, a room that is not there, another game's room.
    let (status, _) = move_to(addr, &people[2].0, "nope", Some(&new_room)).await;
    assert_eq!(status, 401);
    let (status, why) = move_to(addr, &people[2].0, &people[2].1, Some("no-such-room")).await;
    assert_eq!((status, why["error"].as_str().unwrap_or_default().contains("no room")), (404, true), "{why}");
    let (status, why) = move_to(addr, &people[2].0, &people[2].1, Some("carrots")).await;
    assert_eq!((status, why["error"].as_str().unwrap_or_default().contains("plays carrots")), (400, true), "{why}");

    // cid follows ann, with their program, and the two play each other.
    let (status, moved) = move_to(addr, &people[2].0, &people[2].1, Some(&new_room)).await;
    assert_eq!(status, 200, "{moved}");
    assert_eq!((moved["room"].as_str(), moved["program"].as_str()), (Some(new_room.as_str()), Some("started")), "{moved}");
    let (room, cid_seat, _, mut cid) = seated(addr, &people[2].0, &people[2].1).await;
    assert_eq!(room, new_room);
    assert_ne!(cid_seat, ann_seat);
    let connected = wait_for(&mut cid, 20, |m| m.contains("\"type\":\"player\"") && m.contains("\"bot_connected\":true")).await;
    assert!(connected.is_some(), "cid's program plays in the new room");
    let mut watcher = spectator(addr, &new_room).await;
    let f = wait_for(&mut watcher, 10, |m| m.contains("\"ann\"") && m.contains("\"cid\"")).await;
    assert!(f.is_some(), "the new room's duel is between ann and cid");

    // Choosing the room one is in changes nothing: the program is not
    // restarted.
    let (status, same) = move_to(addr, &people[2].0, &people[2].1, Some(&new_room)).await;
    assert_eq!((status, same["room"].as_str(), &same["program"]), (200, Some(new_room.as_str()), &serde_json::Value::Null), "{same}");

    // Now full: bob cannot join them, and is told so.
    let (status, why) = move_to(addr, &people[1].0, &people[1].1, Some(&new_room)).await;
    assert_eq!((status, why["error"].as_str().unwrap_or_default().contains("no free seat")), (409, true), "{why}");

    // A saved program is started again on request, in the player's room;
    // without one, or with the wrong code, nothing starts.
    let start_program = |id: &str, code: &str| {
        let body = serde_json::json!({ "user": id, "code": code }).to_string();
        async move { http(addr, "POST", "/api/code/start", Some(&body), None).await }
    };
    let (status, body) = start_program(&people[2].0, &people[2].1).await;
    assert_eq!((status, json(&body)["room"].as_str()), (200, Some(new_room.as_str())), "{body}");
    let (status, body) = start_program(&people[1].0, &people[1].1).await;
    assert_eq!((status, json(&body)["error"].as_str()), (404, Some("no saved program")), "{body}");
    let (status, _) = start_program(&people[2].0, "nope").await;
    assert_eq!(status, 401);
    server.shutdown().await;
}

/// A finished duel's result names who played it, even once others hold
/// the seats while it is shown; and people who have gone leave their seats
/// to bots between games instead of losing game after game in their
/// absence.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_name_who_played_and_absent_people_leave_between_games() {
    let mut cfg = arena_config("duelresult", 50);
    // Five seconds between games: the result stays up while people sit down.
    cfg.duel.pause_ticks = Some(100);
    let server = start(cfg).await;
    let addr = server.addr;
    let mut watcher = spectator(addr, "duel").await;
    let won = |m: &str| json(m)["data"]["result"].as_str().is_some_and(|r| r.contains(" won by "));
    let frame = wait_for(&mut watcher, 60, won).await.expect("a game won by a bot");
    let result = json(&frame)["data"]["result"].as_str().unwrap().to_string();
    let mut pages = Vec::new();
    for name in ["ann", "bob"] {
        let (id, code, _) = register_for(addr, name, "duel").await;
        let (room, _, _, p) = seated(addr, &id, &code).await;
        assert_eq!(room, "duel");
        pages.push(p);
    }
    let f = wait_for(&mut watcher, 5, |m| m.contains("\"ann\"") && m.contains("\"bob\"")).await.expect("ann and bob hold the seats");
    let shown = json(&f)["data"]["result"].as_str().map(str::to_string);
    assert_eq!(shown.as_deref(), Some(result.as_str()), "the result still names the bot that won it");

    // Both go; within a game and a pause their seats are the bots' again.
    drop(pages);
    let back = wait_for(&mut watcher, 40, |m| {
        let v = json(m);
        let names: Vec<&str> = v["data"]["snakes"].as_array().map_or(Vec::new(), |a| a.iter().filter_map(|s| s["name"].as_str()).collect());
        names.len() == 2 && !names.contains(&"ann") && !names.contains(&"bob")
    })
    .await;
    assert!(back.is_some(), "the absent people's seats went back to bots");
    server.shutdown().await;
}

/// New rooms are bounded: a player who opened a room nobody else sits in
/// gets that one back, at most `EMPTY_OPENED_ROOMS_MAX` rooms opened by
/// players stand empty per game, and CodeCarrots has no private boards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_cannot_fill_the_server_with_empty_rooms() {
    let server = start(arena_config("duelrooms", 50)).await;
    let addr = server.addr;
    let max = snakepit_server::rooms::EMPTY_OPENED_ROOMS_MAX;
    let mut opened = Vec::new();
    for i in 0..max {
        let (id, code, _) = register_for(addr, &format!("opener {i}"), "duel").await;
        let (status, moved) = move_to(addr, &id, &code, None).await;
        assert_eq!(status, 200, "{moved}");
        let room = moved["room"].as_str().unwrap().to_string();
        assert!(!opened.contains(&room), "{room} twice");
        // Asked again while nobody else is there: the same room.
        let (_, again) = move_to(addr, &id, &code, None).await;
        assert_eq!(again["room"].as_str(), Some(room.as_str()));
        opened.push(room);
    }
    let (id, code, _) = register_for(addr, "one too many", "duel").await;
    let (status, why) = move_to(addr, &id, &code, None).await;
    assert_eq!(status, 409, "{why}");
    assert!(why["error"].as_str().unwrap_or_default().contains(&format!("{max} rooms opened by players stand empty")), "{why}");
    // They may still join one of those.
    let (status, moved) = move_to(addr, &id, &code, Some(&opened[0])).await;
    assert_eq!((status, moved["room"].as_str()), (200, Some(opened[0].as_str())), "{moved}");

    let (id, code, _) = register_for(addr, "carrot", "carrots").await;
    let (status, why) = move_to(addr, &id, &code, None).await;
    assert_eq!(status, 409, "{why}");
    assert!(why["error"].as_str().unwrap_or_default().contains("one board"), "{why}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_that_hangs_holds_the_tick_only_until_its_deadline() {
    const MOVE_TIMEOUT_MS: u64 = 3000;
    let mut cfg = arena_config("hang", 50);
    cfg.duel.move_timeout_ms = Some(MOVE_TIMEOUT_MS);
    let server = start(cfg).await;
    let addr = server.addr;
    let (id, code, _) = register_for(addr, "sleeper", "duel").await;
    let mut page = page(addr, &id, &code).await;
    let room = json(&wait_for(&mut page, 60, |m| m.contains("\"type\":\"player\"")).await.expect("a seat"))["data"]["room"]
        .as_str()
        .unwrap()
        .to_string();
    // One answer, then silence.
    let hang = "import sys, time\nsys.stdin.readline()\nprint(1, flush=True)\nsys.stdin.readline()\nprint('thinking', file=sys.stderr, flush=True)\ntime.sleep(600)\n";
    let (status, body) = upload(addr, &id, &code, "sleeper", hang).await;
    assert_eq!(status, 200, "{body}");
    // The room waits for the program, as the arena waits for its bots:
    // while it thinks (past its first answer), no tick comes, up to its
    // deadline; then the fault is its forfeit (with what it wrote to stderr
    // meanwhile) and the room goes on.
    let fault = wait_for(&mut page, 120, |m| m.contains("\"type\":\"stderr\"") && m.contains("fault: ")).await.expect("a fault");
    assert!(fault.contains(&format!("no answer within {MOVE_TIMEOUT_MS} ms")), "{fault}");
    assert!(fault.contains("thinking"), "the stderr of the move comes with its fault: {fault}");
    assert!(fault.contains("fault: game ") && fault.contains(", tick "), "the fault names the game and its tick in it: {fault}");
    // Measured in the room's own ticks, from the page's log, where each
    // entry carries the tick it reached the room at: the answer comes in
    // at tick T, the tick after it applies the answer and asks again, and
    // the forfeit comes in while that tick is held, at T + 1. Neither a
    // slow reader nor a busy machine changes these numbers; a room that did
    // not wait would tick some sixty times in between (3 s at 50 ms).
    let answer_and_forfeit = |m: &str| {
        let v = json(m);
        let log = v["data"]["log"].as_array().filter(|_| v["type"] == "player")?;
        let forfeit = log.iter().rposition(|e| e["note"].as_str().is_some_and(|n| n.starts_with("forfeit:")))?;
        let answer = log[..forfeit].iter().rev().find(|e| e["text"] == "1" && e["note"].as_str().is_some_and(|n| n.starts_with("ok")))?;
        Some((answer["tick"].as_u64()?, log[forfeit]["tick"].as_u64()?))
    };
    let view = wait_for(&mut page, 120, |m| answer_and_forfeit(m).is_some()).await.expect("the answer and the forfeit in the page's log");
    let (answered_at, forfeited_at) = answer_and_forfeit(&view).unwrap();
    assert!(
        forfeited_at <= answered_at + 2,
        "answered at tick {answered_at}, forfeit at tick {forfeited_at}: the room did not wait for its program"
    );
    // After the fault the room goes on.
    let mut watcher = spectator(addr, &room).await;
    let frame_tick = |m: &str| json(m)["data"]["tick"].as_u64();
    let first = frame_tick(&next_text(&mut watcher, FRAME_WAIT).await.expect("a frame")).expect("a tick");
    let until = tokio::time::Instant::now() + Duration::from_secs(60);
    let last = loop {
        let t = frame_tick(&next_text(&mut watcher, FRAME_WAIT).await.expect("a frame")).expect("a tick");
        if t >= first + 3 {
            break t;
        }
        assert!(tokio::time::Instant::now() < until, "the room did not go on after the fault: tick {t}");
    };
    eprintln!("answered at tick {answered_at}, forfeit at tick {forfeited_at}, then the room went on from {first} to {last}");
    server.shutdown().await;
}

/// `[duel] move_timeout_ms` gives uploaded programs more time per move
/// (KingOfBots waits seconds for a move): a program that takes 1.5 s a
/// move, a fault at the default 1 s, plays on at 10 s (far more than it
/// needs, for a loaded machine).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_organiser_gives_programs_more_time_per_move() {
    let mut cfg = arena_config("slowmoves", 50);
    cfg.duel.move_timeout_ms = Some(10_000);
    assert_eq!(cfg.program_settings("duel").move_deadline, Duration::from_millis(10_000));
    let server = start(cfg).await;
    let addr = server.addr;
    let (id, code, _) = register_for(addr, "ponderer", "duel").await;
    let mut page = page(addr, &id, &code).await;
    wait_for(&mut page, 10, |m| m.contains("\"type\":\"player\"")).await.expect("a seat");
    let slow = "import sys, time\nn = 0\nwhile sys.stdin.readline():\n    if n:\n        time.sleep(1.5)\n    n += 1\n    print(1, flush=True)\n    print('answered', n, file=sys.stderr, flush=True)\n";
    let (status, body) = upload(addr, &id, &code, "ponderer", slow).await;
    assert_eq!(status, 200, "{body}");
    let third = wait_for(&mut page, 60, |m| (m.contains("\"type\":\"stderr\"") && m.contains("fault: ")) || m.contains("answered 3")).await;
    let third = third.expect("the program's third answer");
    assert!(third.contains("answered 3"), "a slow program at 10 s per move: {third}");
    server.shutdown().await;
}

/// A CodeCarrots bot that goes for the nearest apple on a 16x10 board.
const GREEDY_CARROTS_BOT: &str = r#"import sys
from collections import deque
W, H = 16, 10
MOVES = [("up", 0, -1), ("right", 1, 0), ("down", 0, 1), ("left", -1, 0)]
while True:
    rows = [sys.stdin.readline().rstrip("\n") for _ in range(H)]
    if not rows[-1]:
        break
    y = next(i for i, r in enumerate(rows) if "H" in r)
    x = rows[y].index("H")
    free = lambda a, b: 0 <= a < W and 0 <= b < H and rows[b][a] in ".o"
    best, seen, queue = None, {(x, y)}, deque()
    for m, dx, dy in MOVES:
        if free(x + dx, y + dy):
            seen.add((x + dx, y + dy))
            queue.append((x + dx, y + dy, m))
    while queue:
        a, b, m = queue.popleft()
        if rows[b][a] == "o":
            best = m
            break
        for _, dx, dy in MOVES:
            n = (a + dx, b + dy)
            if n not in seen and free(*n):
                seen.add(n)
                queue.append((n[0], n[1], m))
    if best is None:
        safe = [m for m, dx, dy in MOVES if free(x + dx, y + dy)]
        best = safe[0] if safe else "up"
    print(best, flush=True)
"#;

/// The player's score on the carrots leaderboard and the one their seat
/// shows in the lobby (the longest length of this seating).
async fn carrots_scores(addr: SocketAddr, id: &str, name: &str) -> (i64, i64) {
    let (_, body) = http(addr, "GET", "/api/leaderboard?game=carrots", None, None).await;
    let board = json(&body).as_array().unwrap().iter().find(|r| r["player_id"] == id).map_or(0, |r| r["score"].as_i64().unwrap());
    let (_, rooms) = http(addr, "GET", "/api/rooms", None, None).await;
    let shown = json(&rooms)
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["seats"].as_array().unwrap().clone())
        .find(|s| s["name"] == name)
        .map_or(0, |s| s["score"].as_i64().unwrap());
    (board, shown)
}

/// CodeCarrots scores the longest length ever reached: the leaderboard
/// keeps a player's best across deaths and restarts (it does not add up
/// each session's), and the room shows the length itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_carrots_leaderboard_keeps_the_longest_length_ever() {
    let mut cfg = arena_config("carrotsbest", 30);
    cfg.carrots.settings =
        Some([("width", "16"), ("height", "10"), ("apples_max", "20")].map(|(k, v)| (k.to_string(), v.to_string())).into());
    cfg.carrots.seats = Some(3);
    let server = start(cfg.clone()).await;
    let addr = server.addr;
    let (id, code, _) = register_for(addr, "grower", "carrots").await;
    let (status, body) = upload(addr, &id, &code, "greedy", GREEDY_CARROTS_BOT).await;
    assert_eq!(status, 200, "{body}");
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let grown = loop {
        let (board, shown) = carrots_scores(addr, &id, "grower").await;
        if board >= 6 && board == shown {
            break board;
        }
        assert!(std::time::Instant::now() < deadline, "the snake did not grow: board {board}, shown {shown}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    server.shutdown().await;

    // After a restart the snake starts at length 1 again, and grows slowly
    // (one apple at a time, slower ticks): once it has grown, and the
    // points had time to be written, the board keeps the record of the
    // first session rather than adding the second's to it. The room keeps
    // its stored tick over a restart, so the slower tick is an admin's.
    cfg.carrots.settings.as_mut().unwrap().insert("apples_max".into(), "1".into());
    let server = start(cfg).await;
    let addr = server.addr;
    let (status, body) = http(addr, "POST", "/api/admin/rooms/carrots/tick", Some(r#"{"tick_ms":200}"#), Some(TOKEN)).await;
    assert_eq!(status, 200, "{body}");
    // The snake may have grown between the look above and the shutdown,
    // which writes its points: the record is what the board says now,
    // while the new snake is far shorter.
    let (first, _) = carrots_scores(addr, &id, "grower").await;
    assert!(first >= grown, "the record {grown} survives the restart: {first}");
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (board, shown) = carrots_scores(addr, &id, "grower").await;
        assert_eq!(board, first, "the record {first} changed while the snake is {shown} long");
        if shown >= 2 {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the snake did not grow after the restart");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (board, shown) = carrots_scores(addr, &id, "grower").await;
    assert!(shown < first, "the snake grew too fast for this check: {shown} >= {first}");
    assert_eq!(board, first, "the best length is {first}, the snake is {shown} long now");
    server.shutdown().await;
}

/// A duel player's leaderboard total is the sum of the points of their
/// games, as the room shows it, below zero too: only Codenjoy's games floor
/// their totals at zero.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duel_total_is_the_sum_of_its_games_even_below_zero() {
    let server = start(arena_config("duelsum", 50)).await;
    let addr = server.addr;
    let mut watcher = spectator(addr, "duel").await;
    let (id, code, _) = register_for(addr, "stiff", "duel").await;
    // A bot that never answers: its snake runs into a wall, game after game
    // (a person at their page would be waited for, round by round).
    let _bot = connect_bot(addr, &id, &code).await;
    let mut shown = std::collections::BTreeSet::new();
    let points_of = |m: &str| -> Option<i64> {
        let v = json(m);
        v["data"]["snakes"].as_array()?.iter().find(|s| s["name"] == "stiff")?["score"].as_i64()
    };
    let end = tokio::time::Instant::now() + Duration::from_secs(60);
    while tokio::time::Instant::now() < end && shown.first().is_none_or(|&p| p > -4) {
        let Some(m) = next_text(&mut watcher, FRAME_WAIT).await else { break };
        shown.extend(points_of(&m));
    }
    assert!(shown.first().is_some_and(|&p| p <= -4), "two lost games: {shown:?}");
    // The room writes its points within a second or so.
    let mut total = None;
    for _ in 0..600 {
        let (status, body) = http(addr, "GET", "/api/leaderboard?game=duel", None, None).await;
        assert_eq!(status, 200);
        let rows = json(&body);
        total = rows.as_array().unwrap().iter().find(|r| r["name"] == "stiff").and_then(|r| r["score"].as_i64());
        if total.is_some_and(|t| t <= -4) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let total = total.expect("stiff is on the duel leaderboard");
    assert!(total <= -4, "the total went below zero with the room's points: {total}, shown {shown:?}");
    server.shutdown().await;
}

/// A saved program whose room the organiser closes starts again in another
/// room of its game, as after a move: the answer says where.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_in_a_closed_room_starts_again_elsewhere() {
    let server = start(arena_config("closeroom", 50)).await;
    let addr = server.addr;
    let (status, body) = http(addr, "POST", "/api/admin/rooms", Some(r#"{"name":"den","game":"duel"}"#), Some(TOKEN)).await;
    assert_eq!(status, 201, "{body}");
    let (id, code, _) = register_for(addr, "closer", "duel").await;
    let (status, body) = move_to(addr, &id, &code, Some("den")).await;
    assert_eq!((status, &body["room"]), (200, &serde_json::json!("den")), "{body}");
    let bot = include_str!("../../../starters/duel/python/bot.py");
    let body = serde_json::json!({ "user": id, "code": code, "lang": "python", "name": "starter", "source": bot }).to_string();
    let (status, body) = http(addr, "POST", "/api/code", Some(&body), None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(json(&body)["room"], "den");

    let (status, body) = http(addr, "DELETE", "/api/admin/rooms/den", None, Some(TOKEN)).await;
    assert_eq!(status, 200, "{body}");
    let started = json(&body)["programs"]["closer"].as_str().unwrap_or_default().to_string();
    assert_eq!(started, "started", "{body}");
    // It plays there: the room lists its seat as connected.
    let end = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (_, rooms) = http(addr, "GET", "/api/rooms", None, None).await;
        let rooms = json(&rooms);
        let duel = rooms.as_array().unwrap().iter().find(|r| r["name"] == "duel").unwrap().clone();
        if duel["seats"].as_array().unwrap().iter().any(|s| s["name"] == "closer" && s["connected"] == true) {
            break;
        }
        assert!(tokio::time::Instant::now() < end, "the program never sat in the duel room: {duel}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server.shutdown().await;
}

/// A duel round waits for a person at their page to move, as KingOfBots'
/// rounds wait for both moves: without a key the room holds its tick (up
/// to 5 s), and a key plays it at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duel_round_waits_for_the_person_at_the_keyboard() {
    let server = start(arena_config("duelperson", 50)).await;
    let addr = server.addr;
    let (id, code, _) = register_for(addr, "thinker", "duel").await;
    let (room, seat, _, mut page) = seated(addr, &id, &code).await;
    let mut watcher = spectator(addr, &room).await;
    // A game under way with the person's snake alive: it is asked.
    let playing = |m: &str| {
        let d = &json(m)["data"];
        d["phase"] == "running" && d["snakes"].as_array().is_some_and(|a| a.iter().any(|s| s["seat"] == seat && s["alive"] == true))
    };
    // A second and a half without a key: at a 50 ms tick that would be 30
    // ticks; the room holds at the round that waits for the person. (The
    // one round it may play can end the game, whose pause then runs on
    // time: then the next game is watched.)
    let mut held = None;
    for _ in 0..5 {
        let frame = wait_for(&mut watcher, 30, playing).await.expect("a game with the person in it");
        let t0 = json(&frame)["data"]["tick"].as_u64().unwrap();
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let (mut last, mut still_playing) = (t0, true);
        let drained_by = tokio::time::Instant::now() + Duration::from_millis(300);
        while let Some(m) = next_text(&mut watcher, drained_by.saturating_duration_since(tokio::time::Instant::now())).await {
            last = last.max(json(&m)["data"]["tick"].as_u64().unwrap_or(0));
            still_playing &= playing(&m);
        }
        if still_playing {
            held = Some((t0, last));
            break;
        }
    }
    let (t0, last) = held.expect("a game that went on with the person in it");
    assert!(last <= t0 + 1, "the room went on from tick {t0} to {last} without the person");
    // A key plays the round at once.
    send(&mut page, "up").await;
    let moved = wait_for(&mut watcher, 2, |m| json(m)["data"]["tick"].as_u64().unwrap_or(0) > last).await;
    let after_key = json(&moved.expect("the key played the held round"))["data"]["tick"].as_u64().unwrap();
    // Without a key the next round waits 5 s at most, then the snake keeps
    // its direction.
    let went_on = wait_for(&mut watcher, 8, |m| json(m)["data"]["tick"].as_u64().unwrap_or(0) > after_key).await;
    assert!(went_on.is_some(), "the room waited past 5 s for the person");
    server.shutdown().await;
}
