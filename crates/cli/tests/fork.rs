//! `snakepit replay FILE --from-tick N --bot SEAT=SPEC` through the built
//! binary: forking with the same bots gives the recorded game again, byte
//! for byte, in every game; another bot changes nothing before tick N and
//! the game after it; players that cannot play are named.

mod common;

use common::{TempDir, c_starter, snakepit, stderr, stdout};
use std::path::Path;

/// Plays `args` into `replay`.
fn play(replay: &Path, args: &[&str]) {
    let mut all: Vec<&std::ffi::OsStr> = vec!["play".as_ref()];
    all.extend(args.iter().map(std::ffi::OsStr::new));
    all.extend(["--replay".as_ref(), replay.as_os_str()]);
    let out = snakepit(&all);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// Forks `from` at `tick` with `extra` flags into `to`; returns stdout.
fn fork(from: &Path, tick: u64, extra: &[&str], to: &Path) -> String {
    let tick = tick.to_string();
    let mut all: Vec<&std::ffi::OsStr> = vec!["replay".as_ref(), from.as_os_str(), "--from-tick".as_ref(), tick.as_ref()];
    all.extend(extra.iter().map(std::ffi::OsStr::new));
    all.extend(["--replay".as_ref(), to.as_os_str()]);
    let out = snakepit(&all);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path).unwrap().lines().map(str::to_string).collect()
}

/// Every game, with built-in bots in every seat.
const GAMES: [(&str, &[&str], u64); 5] = [
    (
        "snakebattle",
        &["--seed", "3", "--ticks", "300", "--bot", "builtin:greedy", "--bot", "builtin:random", "--bot", "builtin:greedy", "--bot", "builtin:random", "--bot", "builtin:random"],
        30,
    ),
    ("duel", &["--game", "duel", "--seed", "4", "--bot", "builtin:greedy", "--bot", "builtin:random"], 6),
    ("battlesnake", &["--game", "battlesnake", "--seed", "5", "--bot", "builtin:greedy", "--bot", "builtin:random", "--bot", "builtin:greedy"], 5),
    ("multisnake", &["--game", "multisnake", "--seed", "6", "--bot", "builtin:random", "--bot", "builtin:random", "--bot", "builtin:random", "--bot", "builtin:random"], 15),
    ("carrots", &["--game", "carrots", "--width", "30", "--height", "20", "--ticks", "150", "--seed", "7", "--bot", "builtin:random", "--bot", "builtin:random"], 60),
];

#[test]
fn forking_with_the_same_bots_reproduces_every_game() {
    let dir = TempDir::new("forking_with_the_same_bots");
    for (game, args, tick) in GAMES {
        let original = dir.join(&format!("{game}.jsonl"));
        play(&original, args);
        let recorded = lines(&original);
        assert!(recorded.len() as u64 > tick + 1, "{game}: the game is longer than the fork point");
        // The recorded players, and the same players named again.
        let same = dir.join(&format!("{game}-same.jsonl"));
        let out = fork(&original, tick, &[], &same);
        assert!(out.starts_with(&format!("{game}: ")), "{out}");
        assert!(lines(&same) == recorded, "{game}: the fork differs from the recording");
        let bots: Vec<&str> = args.windows(2).filter(|w| w[0] == "--bot").map(|w| w[1]).collect();
        let named = dir.join(&format!("{game}-named.jsonl"));
        fork(&original, tick, &["--bot", &format!("1={}", bots[1]), "--bot", &format!("0={}", bots[0])], &named);
        assert!(lines(&named) == recorded, "{game}: the fork with the players named differs");
        // Forking at the very start plays the game anew.
        let anew = dir.join(&format!("{game}-anew.jsonl"));
        fork(&original, 1, &[], &anew);
        assert!(lines(&anew) == recorded, "{game}: a fork at tick 1 differs");
    }
}

#[test]
fn another_bot_changes_the_game_only_from_the_fork_on() {
    let dir = TempDir::new("another_bot_changes_the_game");
    for (game, args, tick) in GAMES.iter().take(3) {
        let original = dir.join(&format!("{game}.jsonl"));
        play(&original, args);
        let forked = dir.join(&format!("{game}-forked.jsonl"));
        // Seat 1 is builtin:random in every game above; greedy plays it now.
        fork(&original, *tick, &["--bot", "1=builtin:greedy"], &forked);
        let (a, b) = (lines(&original), lines(&forked));
        assert!(b[0].contains("\"builtin:greedy\",\"builtin:greedy\""), "{game}: the header names the new player: {}", b[0]);
        // Line t + 1 holds tick t: ticks before the fork are identical,
        // moves and checksums.
        let n = *tick as usize;
        assert!(a[1..n] == b[1..n], "{game}: a tick before {tick} differs");
        assert!(a[n..] != b[n..], "{game}: the new bot changed nothing");
        let verify = snakepit(["replay".as_ref(), forked.as_os_str(), "--verify".as_ref()]);
        assert!(verify.status.success(), "{game}: {}", stderr(&verify));
    }
}

#[test]
fn a_process_bot_takes_over_a_seat() {
    let dir = TempDir::new("a_process_bot_takes_over");
    let original = dir.join("duel.jsonl");
    play(&original, &["--game", "duel", "--seed", "8", "--bot", "builtin:random", "--bot", "builtin:greedy"]);
    let bot = c_starter("duel", false).display().to_string();
    let forked = dir.join("forked.jsonl");
    let out = fork(&original, 4, &["--bot", &format!("0={bot}")], &forked);
    assert!(out.starts_with("duel: "), "{out}");
    assert!(lines(&original)[1..4] == lines(&forked)[1..4], "the recorded ticks changed");
    let verify = snakepit(["replay".as_ref(), forked.as_os_str(), "--verify".as_ref()]);
    assert!(verify.status.success(), "{}", stderr(&verify));
}

#[test]
fn players_that_cannot_play_are_named() {
    let dir = TempDir::new("players_that_cannot_play");
    let original = dir.join("duel.jsonl");
    play(&original, &["--game", "duel", "--seed", "9", "--bot", "builtin:random", "--bot", "builtin:greedy"]);
    // A recording whose seat 1 was a program that is not here any more.
    let text = std::fs::read_to_string(&original).unwrap().replacen("\"builtin:greedy\"", "\"./gone/bot --fast\"", 1);
    let moved = dir.write("moved.jsonl", text);
    let run = |file: &Path, extra: &[&str]| {
        let mut all: Vec<&std::ffi::OsStr> = vec!["replay".as_ref(), file.as_os_str()];
        all.extend(extra.iter().map(std::ffi::OsStr::new));
        snakepit(&all)
    };
    let out = run(&moved, &["--from-tick", "3"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("seat 1: the recorded player \"./gone/bot --fast\" cannot play here"), "{err}");
    assert!(err.contains("--bot 1=SPEC"), "{err}");
    // Naming the seat's player is enough.
    let out = run(&moved, &["--from-tick", "3", "--bot", "1=builtin:greedy"]);
    assert!(out.status.success(), "{}", stderr(&out));
    // A game kept by a server names its seats by player: a person, and a
    // built-in bot as the server names them.
    for (player, hint) in [("ann", ""), ("greedy-2", " (a built-in bot of a server? --bot 1=builtin:greedy)")] {
        let text = std::fs::read_to_string(&original).unwrap().replacen("\"builtin:greedy\"", &format!("\"{player}\""), 1);
        let kept = dir.write("kept.jsonl", text);
        let out = run(&kept, &["--from-tick", "3"]);
        assert_eq!(out.status.code(), Some(2));
        let err = stderr(&out);
        let expected = format!(
            "seat 1: the recorded player \"{player}\" cannot play here: it is no program here (the game was kept by a server, \
             which names seats by their players){hint}; name one with --bot 1=SPEC"
        );
        assert!(err.contains(&expected), "{err}");
    }

    for (extra, needle) in [
        (&["--from-tick", "0"][..], "--from-tick must be between 1 and"),
        (&["--from-tick", "100000"][..], "--from-tick must be between 1 and"),
        (&["--from-tick", "2", "--bot", "5=builtin:random"][..], "the replay has seats 0 to 1"),
        (&["--from-tick", "2", "--bot", "0=builtin:random", "--bot", "0=builtin:greedy"][..], "names seat 0 twice"),
        (&["--from-tick", "2", "--bot", "0=http://127.0.0.1:9/"][..], "HTTP snakes play battlesnake"),
    ] {
        let out = run(&original, extra);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(needle), "{extra:?}: {}", stderr(&out));
    }
}

/// A Battlesnake replay of rules version 4 (whose checksum was another
/// function) verifies, and forks: its recorded ticks are checked with
/// their own version's checksum, the fork's are written with today's, and
/// the same bots play the same game again.
#[test]
fn a_battlesnake_replay_of_version_4_verifies_and_forks() {
    let dir = TempDir::new("battlesnake_version_4");
    let old = Path::new(env!("CARGO_MANIFEST_DIR")).join("../protocol/tests/data/battlesnake-royale-engine-4.jsonl");
    let out = snakepit(["replay".as_ref(), "--verify".as_ref(), old.as_os_str()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "ok: 102 ticks verified");
    let forked = dir.join("forked.jsonl");
    fork(&old, 50, &[], &forked);
    let (before, after) = (lines(&old), lines(&forked));
    assert!(after[0].contains(&format!("\"engine\":\"{}\"", snakepit_engine::ENGINE_VERSION)), "{}", after[0]);
    assert_eq!(after.len(), before.len(), "the same game, as long");
    for (a, b) in before[1..].iter().zip(&after[1..]) {
        // The same moves; the checksums are today's.
        assert_eq!(a.split(",\"c\"").next(), b.split(",\"c\"").next());
    }
    assert_ne!(before[1], after[1], "today's checksum differs from version 4's");
    let out = snakepit(["replay".as_ref(), "--verify".as_ref(), forked.as_os_str()]);
    assert!(out.status.success() && stdout(&out).trim() == "ok: 102 ticks verified", "{}", stderr(&out));
}
