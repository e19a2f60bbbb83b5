//! Battlesnakes written in Python (standard library `http.server`, in
//! `crates/bots/tests/fixtures/battlesnake_http.py`) play through the real
//! `snakepit play` binary: a full game, keep-alive, `GET /`, `/start` and
//! `/end`; and snakes that time out, answer 500 or answer "sideways" repeat
//! their last move while the game goes on.

mod common;

use common::{TempDir, snakepit, stderr, stdout};
use snakepit_engine::battlesnake::{Battlesnake, Event};
use snakepit_protocol::replay::Replay;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../bots/tests/fixtures/battlesnake_http.py");

/// The Python snake server, killed when dropped.
struct PythonSnakes {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl PythonSnakes {
    fn start(dir: &TempDir) -> PythonSnakes {
        let log = dir.join("requests.jsonl");
        let mut child = Command::new("python3")
            .arg(FIXTURE)
            .arg("--log")
            .arg(&log)
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 runs (these tests need a Python 3 interpreter on PATH)");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped stdout")).read_line(&mut line).expect("the server prints its port");
        let port = line.trim().strip_prefix("PORT ").and_then(|p| p.parse().ok()).unwrap_or_else(|| panic!("bad first line {line:?}"));
        PythonSnakes { child, port, log }
    }

    fn url(&self, snake: &str) -> String {
        format!("http://127.0.0.1:{}/{snake}", self.port)
    }

    /// The requests the server saw, as (path, method, turn, client port).
    fn requests(&self) -> Vec<(String, String, Option<u64>, u64)> {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        text.lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).expect("log lines are JSON");
                (
                    v["path"].as_str().unwrap_or("").to_string(),
                    v["method"].as_str().unwrap_or("").to_string(),
                    v["turn"].as_u64(),
                    v["port"].as_u64().unwrap_or(0),
                )
            })
            .collect()
    }
}

impl Drop for PythonSnakes {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The result table's row for a seat, split on runs of two or more spaces.
fn row(out: &str, seat: usize) -> Vec<String> {
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{seat}  ")))
        .unwrap_or_else(|| panic!("no row for seat {seat} in:\n{out}"));
    line.split("  ").map(str::trim).filter(|c| !c.is_empty()).map(str::to_string).collect()
}

fn play(args: &[&str], replay: &Path) -> String {
    let mut all: Vec<String> = vec!["play".into(), "--game".into(), "battlesnake".into()];
    all.extend(args.iter().map(|s| s.to_string()));
    all.push("--replay".into());
    all.push(replay.display().to_string());
    let out = snakepit(&all);
    assert!(out.status.success(), "play failed: {}", stderr(&out));
    // What is logged to a file has no terminal colour codes.
    assert!(!stderr(&out).contains('\x1b'), "colour codes in a log: {:?}", stderr(&out));
    stdout(&out)
}

fn verify(replay: &Path) {
    let out = snakepit(["replay".as_ref(), replay.as_os_str(), "--verify".as_ref()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("ok: "), "{}", stdout(&out));
}

#[test]
fn a_python_snake_plays_a_full_game() {
    let dir = TempDir::new("a_python_snake_plays_a_full_game");
    let snakes = PythonSnakes::start(&dir);
    let replay = dir.join("r.jsonl");
    let url = snakes.url("safe");
    let out = play(&["--bot", &url, "--bot", "builtin:random", "--bot", "builtin:greedy", "--seed", "3", "--ticks", "5000"], &replay);

    assert!(out.starts_with("battlesnake: "), "{out}");
    assert!(!out.contains("unfinished"), "the game ran to its end:\n{out}");
    let python = row(&out, 0);
    assert_eq!(python[1], url);
    assert_eq!(python.last().map(String::as_str), Some("0"), "no faults: every request was in the API's shape\n{out}");
    assert_eq!(python[5], "0", "the Python snake always answered a move\n{out}");
    verify(&replay);

    let reqs = snakes.requests();
    let of = |method: &str, path: &str| reqs.iter().filter(|r| r.1 == method && r.0 == path).count();
    assert_eq!(of("GET", "/safe"), 1, "{reqs:?}");
    assert_eq!(of("POST", "/safe/start"), 1, "{reqs:?}");
    assert_eq!(of("POST", "/safe/end"), 1, "{reqs:?}");
    let moves: Vec<u64> = reqs.iter().filter(|r| r.0 == "/safe/move").filter_map(|r| r.2).collect();
    assert!(moves.len() >= 3, "{reqs:?}");
    assert_eq!(moves, (0..moves.len() as u64).collect::<Vec<_>>(), "one /move per turn, in order");
    let ports: std::collections::BTreeSet<u64> = reqs.iter().map(|r| r.3).collect();
    assert_eq!(ports.len(), 1, "keep-alive: every request of the game on one connection ({ports:?})");
}

#[test]
fn misbehaving_snakes_repeat_their_last_move_and_the_game_goes_on() {
    let dir = TempDir::new("misbehaving_snakes_repeat_their_last_move");
    let snakes = PythonSnakes::start(&dir);
    let replay = dir.join("r.jsonl");
    let bots = ["slow", "error500", "sideways", "safe"].map(|s| snakes.url(s));
    let out = play(
        &[
            "--bot", &bots[0], "--bot", &bots[1], "--bot", &bots[2], "--bot", &bots[3], "--seed", "5", "--ticks", "5000", "--width", "19", "--height", "19",
        ],
        &replay,
    );
    assert!(!out.contains("unfinished"), "{out}");
    // Each of the first three failed exactly once, in its own way.
    for (seat, fault) in [(0, "timeout 1"), (1, "status 1"), (2, "move 1")] {
        let r = row(&out, seat);
        assert_eq!(r.last().map(String::as_str), Some(fault), "seat {seat}:\n{out}");
        assert_eq!(r[5], "1", "seat {seat} had one turn without a move:\n{out}");
    }
    assert_eq!(row(&out, 3).last().map(String::as_str), Some("0"), "{out}");
    let slow = row(&out, 0);
    let max_latency: u64 = slow[6].split('/').nth(1).and_then(|m| m.parse().ok()).unwrap_or(0);
    assert_eq!(max_latency, 500, "a timeout counts as the whole (default) timeout: {out}");

    // The replay records no move for them on turn 2, and the rules made
    // each repeat its turn-1 move; all three lived on.
    let text = std::fs::read_to_string(&replay).unwrap();
    let replay_data = Replay::<Battlesnake>::parse(&text).unwrap();
    assert_eq!(replay_data.ticks[1].moves[..3], [None, None, None]);
    let first_moves = replay_data.ticks[0].moves.clone();
    let mut checked = false;
    let end = replay_data
        .resimulate(|game, record, events| {
            if record.tick == 2 {
                for (seat, first) in first_moves.iter().enumerate().take(3) {
                    let repeated = events.iter().any(|e| matches!(e, Event::DefaultMove { snake, dir } if *snake == seat && Some(*dir) == *first));
                    assert!(repeated, "seat {seat} repeats its last move: {events:?}");
                    assert!(game.snakes()[seat].is_alive(), "seat {seat} is still in after its default move");
                }
                checked = true;
            }
        })
        .unwrap();
    assert!(checked && end.is_over(), "the game went on to its end");
    assert!(end.turn() > 20, "a 19x19 game lasts (it ended at turn {})", end.turn());
    for seat in 0..3 {
        let out_on = end.snakes()[seat].eliminated.map_or(u64::MAX, |e| e.turn);
        assert!(out_on > 10, "seat {seat} played on well after its bad answer (out on turn {out_on})");
    }
    verify(&replay);
    // Their faults are in the replay's stderr log, as process bots' are,
    // at the tick they belong to, with the reason.
    let log = std::fs::read_to_string(dir.join("r.jsonl.stderr.jsonl")).unwrap();
    let faults: Vec<serde_json::Value> = log.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    for (seat, says) in [(0, "timed out after 500 ms"), (1, "HTTP status 500"), (2, "bad move")] {
        let found = faults.iter().any(|f| f["t"] == 2 && f["seat"] == seat && f["fault"].as_str().unwrap().contains(says));
        assert!(found, "seat {seat}: {log}");
    }

    // The failed snakes were asked again on the next turns.
    let reqs = snakes.requests();
    for s in ["slow", "error500", "sideways"] {
        let path = format!("/{s}/move");
        assert!(reqs.iter().any(|r| r.0 == path && r.2 == Some(2)), "{s} was asked for turn 2: {reqs:?}");
    }
}

#[test]
fn a_snake_that_cannot_be_reached_stops_the_game_before_it_starts() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("http://127.0.0.1:{port}");
    let out = snakepit(["play", "--game", "battlesnake", "--bot", &url, "--bot", "builtin:random", "--timeout-ms", "200"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("seat 0") && err.contains("cannot join") && err.contains("cannot connect"), "{err}");
}
