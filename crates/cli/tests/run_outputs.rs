//! What a run writes never reaches a bot's folder: a contestant who runs
//! `snakepit tournament` or `play --replay` from their bot's own folder
//! gets the folder copied into the sandbox (a bot of several files finds
//! its modules), but not the run's results, replays and logs, which would
//! grow with every game and be copied again at every start.

mod common;

use common::*;
use std::process::{Command, Output};

/// A bot of two files that refuses to play, with exit code 3, when it
/// finds `marker` (something the run writes) in its folder, and plays
/// "up" from its helper module otherwise.
fn bot_folder(dir: &TempDir, marker: &str) {
    dir.write("helper.py", "MOVE = 0\n");
    dir.write(
        "bot.py",
        format!(
            "import os, sys\nimport helper\nif os.path.exists({marker:?}):\n    sys.stderr.write('the run wrote into my folder\\n')\n    sys.exit(3)\nfor line in sys.stdin:\n    print(helper.MOVE, flush=True)\n"
        ),
    );
}

/// Runs the binary in `dir`.
fn snakepit_in(dir: &TempDir, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_snakepit")).args(args).current_dir(dir.join("")).output().expect("the binary runs")
}

#[test]
fn a_tournament_run_from_the_bots_folder_keeps_its_results_out_of_it() {
    let dir = TempDir::new("tournament_from_bot_folder");
    // The default --out, `tournament`, inside the bot's folder.
    bot_folder(&dir, "tournament");
    let out = snakepit_in(&dir, &["tournament", "--game", "duel", "--bot", "mine=python3 bot.py", "--bot", "r=builtin:random", "--games", "4", "--jobs", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let results = std::fs::read_to_string(dir.join("tournament/results.jsonl")).expect("the results are written");
    assert_eq!(results.lines().count(), 4, "{results}");
    // Every game after the first finds games and results in --out: none of
    // it may be in the bot's folder, and the helper module must be.
    assert!(!results.contains("\"faults\":[{"), "{results}");
    assert!(!stdout(&out).contains("faults"), "{}", stdout(&out));
}

#[test]
fn a_replay_written_in_the_bots_folder_stays_out_of_it() {
    let dir = TempDir::new("replay_in_bot_folder");
    bot_folder(&dir, "game.jsonl");
    for run in 0..2 {
        // The second run starts with the first's replay (and its stderr
        // log) in the folder.
        let out = snakepit_in(&dir, &["play", "--game", "duel", "--seed", "3", "--bot", "python3 bot.py", "--bot", "builtin:random", "--replay", "game.jsonl"]);
        assert!(out.status.success(), "run {run}: {}", stderr(&out));
        assert!(!stderr(&out).contains("exited with code 3"), "run {run}: {}", stderr(&out));
        assert!(!stderr(&out).contains("helper"), "run {run}: the bot's module is copied: {}", stderr(&out));
    }
    assert!(dir.join("game.jsonl").is_file());
}
