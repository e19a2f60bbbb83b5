//! `play --game battlesnake` with built-in snakes, through the built
//! binary: every ruleset plays to its end, the same seed gives the same
//! bytes, replays print and verify, `--watch` draws, and bad input exits
//! with code 2 and one line.

mod common;

use common::{TempDir, snakepit, stderr, stdout};

fn play(extra: &[&str]) -> std::process::Output {
    let mut args = vec!["play", "--game", "battlesnake", "--bot", "builtin:greedy", "--bot", "builtin:random", "--bot", "builtin:greedy", "--bot", "builtin:random"];
    args.extend_from_slice(extra);
    snakepit(args)
}

#[test]
fn every_ruleset_plays_to_its_end_and_verifies() {
    let dir = TempDir::new("every_ruleset_plays_to_its_end");
    for ruleset in ["standard", "solo", "royale", "wrapped", "constrictor", "wrapped_constrictor"] {
        let path = dir.join(&format!("{ruleset}.jsonl"));
        let out = play(&["--ruleset", ruleset, "--seed", "11", "--ticks", "100000", "--replay", path.to_str().unwrap()]);
        assert!(out.status.success(), "{ruleset}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(text.starts_with("battlesnake: "), "{text}");
        assert!(text.contains(&format!("\n{ruleset} on 11x11, ")), "{text}");
        assert!(!text.contains("unfinished"), "{ruleset} ended by its rules:\n{text}");
        let verify = snakepit(["replay".as_ref(), path.as_os_str(), "--verify".as_ref()]);
        assert!(verify.status.success(), "{ruleset}: {}", stderr(&verify));
    }
}

#[test]
fn same_seed_same_bytes_and_board_sizes() {
    let dir = TempDir::new("battlesnake_same_seed_same_bytes");
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    for path in [&a, &b] {
        let out = play(&["--seed", "42", "--width", "19", "--height", "19", "--set", "minimumFood=4", "--replay", path.to_str().unwrap()]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let header: serde_json::Value = serde_json::from_str(std::fs::read_to_string(&a).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!(header["game"], "battlesnake");
    assert_eq!(header["settings"]["width"], "19");
    assert_eq!(header["settings"]["minimumFood"], "4");
    assert_eq!(header["seats"], 4);
}

#[test]
fn replay_prints_boards_in_y_down_rows() {
    let dir = TempDir::new("battlesnake_replay_prints");
    let path = dir.join("r.jsonl");
    let out = play(&["--seed", "1", "--width", "7", "--height", "7", "--replay", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = snakepit(["replay".as_ref(), path.as_os_str()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("battlesnake seed 1 engine "), "{text}");
    let after = text.split("\n== tick 1: moves ").nth(1).expect("tick 1 is printed");
    let rows: Vec<&str> = after.lines().skip(1).take(7).collect();
    assert!(rows.iter().all(|r| r.chars().count() == 7), "{rows:#?}");
    assert!(after.lines().nth(8).unwrap().starts_with("turn 1 | standard | A builtin:greedy len "), "{after}");
}

#[test]
fn watch_draws_every_turn() {
    let out = play(&["--seed", "3", "--ticks", "6", "--watch", "--watch-ms", "0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.matches("\x1b[H\x1b[2J").count(), 6);
    assert!(text.contains("\nturn 6 | standard | A builtin:greedy "), "{text}");
    assert!(text.contains("unfinished after 6 turns"), "{text}");
}

#[test]
fn a_single_snake_plays_solo() {
    let out = snakepit(["play", "--game", "battlesnake", "--bot", "builtin:greedy", "--seed", "2", "--width", "7", "--height", "7"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("standard on 7x7, solo: survived "), "{}", stdout(&out));
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (&["--ruleset", "squad"], "name=\"squad\""),
        (&["--set", "minimumFood=lots"], "minimumFood"),
        (&["--set", "fury_ticks=3"], "unknown battlesnake setting"),
        (&["--width", "0"], "width"),
        (&["--profile", "codenjoy"], "--profile is a snakebattle option"),
        (&["--timeout-ms", "0"], "--timeout-ms"),
    ];
    for (extra, needle) in cases {
        let out = play(extra);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: ") && err.contains(needle), "{extra:?}: {needle:?} not in {err}");
    }
    let many: Vec<String> = (0..17).flat_map(|_| ["--bot".to_string(), "builtin:random".to_string()]).collect();
    let mut args = vec!["play".to_string(), "--game".into(), "battlesnake".into()];
    args.extend(many);
    let out = snakepit(&args);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("17 snakes"), "{}", stderr(&out));
    // An HTTP snake cannot sit at a SnakeBattle table, nor a battlesnake
    // flag be used there.
    let out = snakepit(["play", "--bot", "http://127.0.0.1:9/x"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("HTTP snakes play battlesnake"), "{}", stderr(&out));
    let out = snakepit(["play", "--bot", "builtin:random", "--ruleset", "royale"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}
