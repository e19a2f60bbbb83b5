//! `snakepit queue` and `snakepit worker` on a shared PostgreSQL store,
//! through the real binary: several workers play each queued game exactly
//! once, and the games of a worker killed mid-game go to another worker.
//!
//! Needs the server of `SNAKEPIT_TEST_PG` (an admin URL; `scripts/test.sh`
//! starts one); without it the tests say so and pass, unless
//! `SNAKEPIT_REQUIRE_PG=1`.

mod common;

use common::pg::Db;
use common::{TempDir, stderr, stdout};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn snakepit(args: &[&str]) -> std::process::Output {
    common::snakepit(args)
}

fn spawn_worker(db: &str, name: &str, jobs: usize, lease_ms: u64, until_empty: bool) -> Child {
    spawn_worker_with(db, name, jobs, lease_ms, until_empty, &[])
}

fn spawn_worker_with(db: &str, name: &str, jobs: usize, lease_ms: u64, until_empty: bool, extra: &[&str]) -> Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_snakepit"));
    cmd.args([
        "worker",
        "--db",
        db,
        "--name",
        name,
        "--jobs",
        &jobs.to_string(),
        "--lease-ms",
        &lease_ms.to_string(),
    ]);
    if until_empty {
        cmd.arg("--until-empty");
    }
    cmd.args(extra);
    cmd.stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the worker starts")
}

fn finish(child: Child, deadline: Duration) -> std::process::Output {
    let start = Instant::now();
    let mut child = child;
    while child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < deadline,
            "a worker ran longer than {deadline:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// "N games in" from a worker's last line.
fn games_played(out: &std::process::Output) -> u64 {
    let text = stdout(out);
    let line = text
        .lines()
        .last()
        .unwrap_or_else(|| panic!("no output; stderr: {}", stderr(out)));
    let n = line
        .split(": ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("odd line {line:?}"));
    n.parse().unwrap_or_else(|_| panic!("odd line {line:?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_workers_play_each_queued_game_once() {
    let Some(db) = Db::create("worker_once").await else {
        return;
    };
    let out = snakepit(&[
        "queue",
        "--db",
        &db.url,
        "add",
        "--game",
        "duel",
        "--bot",
        "builtin:greedy",
        "--bot",
        "builtin:random",
        "--games",
        "2000",
        "--seed",
        "7",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "queued 2000 games");

    let a = spawn_worker(&db.url, "a", 2, 30_000, true);
    let b = spawn_worker(&db.url, "b", 2, 30_000, true);
    let (a, b) = (
        finish(a, Duration::from_secs(300)),
        finish(b, Duration::from_secs(300)),
    );
    assert!(
        a.status.success() && b.status.success(),
        "{}\n{}",
        stderr(&a),
        stderr(&b)
    );
    let (na, nb) = (games_played(&a), games_played(&b));
    assert_eq!(na + nb, 2000, "a played {na}, b played {nb}");
    assert!(na > 0 && nb > 0, "both workers took part: a {na}, b {nb}");

    let status = stdout(&snakepit(&["queue", "--db", &db.url, "status"]));
    assert_eq!(status.trim(), r#"{"done":2000,"queued":0,"running":0}"#);
    // Exactly once: one claim per game, one replay per game, every result
    // a real game's.
    let [games, max_attempts, replays, errors] = db
        .ints(
            "SELECT (SELECT count(*) FROM matches), (SELECT max(attempts) FROM matches), (SELECT count(*) FROM replays),
                    (SELECT count(*) FROM matches WHERE result LIKE '%error%')",
        )
        .await[..]
    else {
        unreachable!()
    };
    assert_eq!((games, max_attempts, replays, errors), (2000, 1, 2000, 0));
    db.drop().await;
}

/// A Python bot that takes its time, so that a worker can be caught in
/// the middle of a game.
const SLOW_BOT: &str = r#"
import sys, time
for line in sys.stdin:
    time.sleep(0.02)
    print(0 if len(line) % 2 else 2, flush=True)
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_worker_s_games_go_to_another() {
    let Some(db) = Db::create("worker_killed").await else {
        return;
    };
    let dir = TempDir::new("worker-killed");
    let bot = dir.write("slow.py", SLOW_BOT);
    let bot_spec = format!("python3 {}", bot.display());
    let out = snakepit(&[
        "queue",
        "--db",
        &db.url,
        "add",
        "--game",
        "duel",
        "--bot",
        &bot_spec,
        "--bot",
        "builtin:random",
        "--games",
        "12",
        "--ticks",
        "30",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));

    // The victim holds two games at once; once the store shows it holding
    // one, it dies without a word.
    let mut victim = spawn_worker(&db.url, "victim", 2, 1_500, false);
    let start = Instant::now();
    loop {
        let [held] = db
            .ints("SELECT count(*) FROM matches WHERE state = 'running' AND worker LIKE 'victim/%'")
            .await[..]
        else {
            unreachable!()
        };
        if held > 0 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the victim never claimed a game"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    victim.kill().unwrap();
    victim.wait().unwrap();
    let [orphans] = db
        .ints("SELECT count(*) FROM matches WHERE state = 'running' AND worker LIKE 'victim/%'")
        .await[..]
    else {
        unreachable!()
    };
    assert!(orphans > 0);

    let heir = finish(
        spawn_worker(&db.url, "heir", 2, 1_500, true),
        Duration::from_secs(300),
    );
    assert!(heir.status.success(), "{}", stderr(&heir));
    let [done, by_heir, retried, victim_done] = db
        .ints(
            "SELECT (SELECT count(*) FROM matches WHERE state = 'done'),
                    (SELECT count(*) FROM matches WHERE worker LIKE 'heir/%'),
                    (SELECT count(*) FROM matches WHERE attempts >= 2 AND worker LIKE 'heir/%'),
                    (SELECT count(*) FROM matches WHERE worker LIKE 'victim/%')",
        )
        .await[..]
    else {
        unreachable!()
    };
    assert_eq!(done, 12, "every game finished");
    assert_eq!(
        retried, orphans,
        "each game the victim held went to the heir"
    );
    assert_eq!(by_heir + victim_done, 12);
    db.drop().await;
}

/// A seat `code:PLAYER_ID` plays the program the player saved (here the
/// Python and C duel starters): the worker reads it from the store, runs it in the
/// sandbox, and files the replay under the player.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_saved_program_plays_a_queued_game() {
    use snakepit_store::{CodeRow, NewMatch, Store};
    let Some(db) = Db::create("worker_code").await else {
        return;
    };
    let store = Store::open(&db.url).await.unwrap();
    let ann = store.add_player("ann", "duel").await.unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let source = std::fs::read_to_string(root.join("starters/duel/python/bot.py")).unwrap();
    store
        .save_code(&CodeRow {
            player_id: ann.id.clone(),
            lang: "python".into(),
            name: "v1".into(),
            source,
        })
        .await
        .unwrap();
    // A C program is compiled in the sandbox when its game starts.
    let cat = store.add_player("cat", "duel").await.unwrap();
    let c_source = std::fs::read_to_string(root.join("starters/duel/c/bot.c")).unwrap();
    let c_code = CodeRow { player_id: cat.id.clone(), lang: "c".into(), name: "v1".into(), source: c_source };
    store.save_code(&c_code).await.unwrap();
    let spec = |bot: &str| {
        serde_json::json!({"game": "duel", "bots": [bot, "builtin:random"], "players": [ann.id, ""], "origin": "ladder"})
            .to_string()
    };
    let ids = store
        .enqueue_matches(&[
            NewMatch {
                game: "duel".into(),
                spec: spec(&format!("code:{}", ann.id)),
                seed: 3,
            },
            NewMatch {
                game: "duel".into(),
                spec: spec("code:nobody"),
                seed: 4,
            },
            NewMatch {
                game: "duel".into(),
                spec: serde_json::json!({"game": "duel", "bots": [format!("code:{}", cat.id), "builtin:random"]}).to_string(),
                seed: 5,
            },
        ])
        .await
        .unwrap();
    let out = finish(
        spawn_worker(&db.url, "w", 1, 30_000, true),
        Duration::from_secs(120),
    );
    assert!(out.status.success(), "{}", stderr(&out));

    let played: serde_json::Value =
        serde_json::from_str(&store.match_result(ids[0]).await.unwrap().unwrap()).unwrap();
    assert!(played.get("error").is_none(), "{played}");
    assert!(played["ticks"].as_u64().unwrap() > 0);
    let refused: serde_json::Value =
        serde_json::from_str(&store.match_result(ids[1]).await.unwrap().unwrap()).unwrap();
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("no saved program"),
        "{refused}"
    );
    let compiled: serde_json::Value =
        serde_json::from_str(&store.match_result(ids[2]).await.unwrap().unwrap()).unwrap();
    assert!(compiled.get("error").is_none(), "the C program plays: {compiled}");
    assert!(compiled["ticks"].as_u64().unwrap() > 1, "{compiled}");
    let games = store.replays_of(&ann.id, None, 10).await.unwrap();
    assert_eq!(games.len(), 1, "one replay, filed under the player");
    assert_eq!(
        (games[0].origin.as_str(), games[0].players[0].as_str()),
        ("ladder", ann.id.as_str())
    );
    // Lists of kept games name the seats: the player's name for their
    // program, not the program's queue id.
    let result: serde_json::Value = serde_json::from_str(&games[0].result).unwrap();
    assert_eq!(result["labels"], serde_json::json!(["ann", "builtin:random"]), "{result}");
    drop(store);
    db.drop().await;
}

/// A queued Battlesnake game whose HTTP snake cannot be reached is played
/// without it (as a tournament plays it), not failed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queued_game_is_played_when_an_http_snake_cannot_join() {
    use snakepit_store::{NewMatch, Store};
    let Some(db) = Db::create("worker_unjoined").await else {
        return;
    };
    let store = Store::open(&db.url).await.unwrap();
    // Bound and dropped: very likely closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let spec = serde_json::json!({"game": "battlesnake", "bots": ["builtin:greedy", format!("http://127.0.0.1:{port}")]});
    let ids = store
        .enqueue_matches(&[NewMatch { game: "battlesnake".into(), spec: spec.to_string(), seed: 7 }])
        .await
        .unwrap();
    let out = finish(spawn_worker(&db.url, "w", 1, 30_000, true), Duration::from_secs(300));
    assert!(out.status.success(), "{}", stderr(&out));
    let result: serde_json::Value =
        serde_json::from_str(&store.match_result(ids[0]).await.unwrap().unwrap()).unwrap();
    assert!(result.get("error").is_none(), "{result}");
    assert!(result["ticks"].as_u64().unwrap() > 0, "{result}");
    assert_eq!(result["places"], serde_json::json!([1, 2]), "the snake that is there wins: {result}");
    drop(store);
    db.drop().await;
}

/// `worker --ladder duel` pairs the saved programs of duel players, queues
/// their games, plays them and rates the results: ratings move, and the
/// rated games add up to the finished ladder games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ladder_pairs_plays_and_rates_saved_programs() {
    use snakepit_store::{CodeRow, Store};
    let Some(db) = Db::create("worker_ladder").await else {
        return;
    };
    let store = Store::open(&db.url).await.unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let python = std::fs::read_to_string(root.join("starters/duel/python/bot.py")).unwrap();
    let js = std::fs::read_to_string(root.join("starters/duel/js/bot.js")).unwrap();
    // KingOfBots' own sample bot, as a KingOfBots player saves it.
    let kob = std::fs::read_to_string(
        root.join("starters/duel/java-harness/seed/com/ilvxgee/botrunningsystem/utils/Bot.java"),
    )
    .unwrap();
    let mut ids = Vec::new();
    for (name, lang, source) in [
        ("py1", "python", &python),
        ("py2", "python", &python),
        ("js1", "javascript", &js),
        ("kob", "java", &kob),
    ] {
        let p = store.add_player(name, "duel").await.unwrap();
        let code = CodeRow {
            player_id: p.id.clone(),
            lang: lang.into(),
            name: "v1".into(),
            source: source.clone(),
        };
        store.save_code(&code).await.unwrap();
        ids.push(p.id);
    }
    // Neither a program-less duel player nor a carrots player is paired.
    let idle = store.add_player("idle", "duel").await.unwrap();
    let other = store.add_player("other", "carrots").await.unwrap();
    store
        .save_code(&CodeRow {
            player_id: other.id.clone(),
            lang: "python".into(),
            name: "c".into(),
            source: python.clone(),
        })
        .await
        .unwrap();

    let mut cmd = Command::new(env!("CARGO_BIN_EXE_snakepit"));
    cmd.args([
        "worker", "--db", &db.url, "--name", "lw", "--jobs", "2", "--ladder", "duel",
    ]);
    // The builds' log lines, and warnings.
    cmd.env("RUST_LOG", "warn,snakepit::builds=info");
    let mut worker = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let rated_games = loop {
        let ratings = store.ratings("duel").await.unwrap();
        let games: i64 = ratings.iter().map(|r| r.games).sum();
        // Every language played, the Java bot included.
        let java_played = ratings.iter().any(|r| r.player_id == ids[3] && r.games >= 2);
        if games >= 8 && java_played {
            break games;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "only {games} rated seats after 2 minutes"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    worker.kill().unwrap();
    worker.wait().unwrap();
    let mut log = String::new();
    std::io::Read::read_to_string(&mut worker.stderr.take().unwrap(), &mut log).unwrap();
    // The Java program was compiled once for its games (at least two).
    assert_eq!(
        log.matches(&format!("built the saved program of {} once", ids[3])).count(),
        1,
        "{log}"
    );

    let ratings = store.ratings("duel").await.unwrap();
    let rated: Vec<&str> = ratings.iter().map(|r| r.player_id.as_str()).collect();
    assert!(
        rated.iter().all(|p| ids.iter().any(|i| i == p)),
        "only players with programs are rated: {rated:?}"
    );
    assert!(!rated.contains(&idle.id.as_str()) && !rated.contains(&other.id.as_str()));
    assert!(
        ratings.iter().any(|r| (r.rating - 25.0).abs() > 1e-9),
        "ratings moved"
    );
    assert!(
        ratings.iter().all(|r| r.uncertainty < 25.0 / 3.0),
        "every rated player's uncertainty shrank"
    );
    let [done, errors] =
        db.ints("SELECT (SELECT count(*) FROM matches WHERE state = 'done'), (SELECT count(*) FROM matches WHERE result LIKE '%error%')").await[..]
    else {
        unreachable!()
    };
    assert_eq!(errors, 0);
    assert!(
        rated_games % 2 == 0 && rated_games <= 2 * done,
        "{rated_games} rated seats, {done} games done"
    );
    for id in &ids {
        assert!(
            !store.replays_of(id, None, 1).await.unwrap().is_empty() || !rated.contains(&id.as_str())
        );
    }
    // The Java bot played its games: compiled in the sandbox and answered,
    // with no fault in any of its kept games.
    let kob_games = store.replays_of(&ids[3], None, 100).await.unwrap();
    assert!(!kob_games.is_empty());
    for game in &kob_games {
        let seat = game.players.iter().position(|p| *p == ids[3]).expect("the Java bot's seat");
        let log = store.replay_stderr_log(game.id).await.unwrap().unwrap_or_default();
        for line in log.lines() {
            let entry: serde_json::Value = serde_json::from_str(line).unwrap();
            assert!(
                entry["seat"] != seat || entry["fault"].is_null(),
                "game {}: the Java bot failed: {line}",
                game.id
            );
        }
    }
    drop(store);
    db.drop().await;
}

/// A queued fork continues a kept game: with the same bots it is the same
/// game again, byte for byte; with another bot in a seat it is the same
/// game up to the fork's tick only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queued_fork_continues_a_kept_game() {
    use snakepit_store::{NewMatch, Store};
    let Some(db) = Db::create("worker_fork").await else {
        return;
    };
    let store = Store::open(&db.url).await.unwrap();
    let spec = |bots: [&str; 2], fork: Option<i64>| {
        let mut v = serde_json::json!({"game": "duel", "bots": bots});
        if let Some(id) = fork {
            v["fork"] = serde_json::json!({"replay_id": id, "from_tick": 6});
        }
        NewMatch {
            game: "duel".into(),
            spec: v.to_string(),
            seed: 11,
        }
    };
    let first = store
        .enqueue_matches(&[spec(["builtin:greedy", "builtin:greedy"], None)])
        .await
        .unwrap()[0];
    let out = finish(
        spawn_worker(&db.url, "w", 1, 30_000, true),
        Duration::from_secs(120),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let original = replay_of(&db, first).await;
    let (_, body) = store.replay(original).await.unwrap().unwrap();
    let ticks: Vec<&str> = body.lines().collect();
    assert!(
        ticks.len() > 8,
        "the original game is long enough to fork: {} lines",
        ticks.len()
    );

    let same = store
        .enqueue_matches(&[spec(["builtin:greedy", "builtin:greedy"], Some(original))])
        .await
        .unwrap()[0];
    let other = store
        .enqueue_matches(&[spec(["builtin:greedy", "builtin:random"], Some(original))])
        .await
        .unwrap()[0];
    let missing = store
        .enqueue_matches(&[spec(
            ["builtin:greedy", "builtin:random"],
            Some(original + 1000),
        )])
        .await
        .unwrap()[0];
    let out = finish(
        spawn_worker(&db.url, "w2", 1, 30_000, true),
        Duration::from_secs(120),
    );
    assert!(out.status.success(), "{}", stderr(&out));

    let (info, again) = store
        .replay(replay_of(&db, same).await)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(info.origin, "fork");
    assert_eq!(again, body, "the same bots from tick 6 give the same game");
    let (_, forked) = store
        .replay(replay_of(&db, other).await)
        .await
        .unwrap()
        .unwrap();
    let forked: Vec<&str> = forked.lines().collect();
    // Line 0 is the header (it names the players), then one line per tick.
    assert_eq!(
        forked[1..6],
        ticks[1..6],
        "ticks 1 to 5 are the recorded ones"
    );
    assert_ne!(forked, ticks, "another bot from tick 6 makes another game");
    let refused: serde_json::Value =
        serde_json::from_str(&store.match_result(missing).await.unwrap().unwrap()).unwrap();
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("no kept replay"),
        "{refused}"
    );

    // Forks nobody owns are bounded: with one kept, the latest stays.
    let more: Vec<i64> = store
        .enqueue_matches(&[
            spec(["builtin:random", "builtin:greedy"], Some(original)),
            spec(["builtin:random", "builtin:random"], Some(original)),
        ])
        .await
        .unwrap();
    let out = finish(
        spawn_worker_with(&db.url, "w3", 1, 30_000, true, &["--unowned-forks-kept", "1"]),
        Duration::from_secs(120),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let latest = replay_of(&db, more[1]).await.max(replay_of(&db, more[0]).await);
    let forks = db.ints("SELECT id FROM replays WHERE origin = 'fork' ORDER BY id").await;
    assert_eq!(forks, [latest], "only the latest fork is kept");
    assert!(store.replay(original).await.unwrap().is_some(), "the forked game stays");
    drop(store);
    db.drop().await;
}

/// The replay a finished queued game was filed under.
async fn replay_of(db: &Db, id: i64) -> i64 {
    let [replay] = db
        .ints(&format!("SELECT replay_id FROM matches WHERE id = {id}"))
        .await[..]
    else {
        unreachable!()
    };
    replay
}
