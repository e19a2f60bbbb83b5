//! `play` as a contestant meets it, through the built binary with real
//! bot processes: one regression test per problem a review found.
//!
//! Before: a bot of several files could not find its other files (only the
//! named ones were copied into its folder), a crash said only "exited with
//! code 1", a program that did not compile was built again at every tick,
//! `--watch` wiped the faults it had just printed, an unknown `--set` key
//! named no valid one, a Rust source failed at the first tick with
//! "Permission denied", a silent timeout gave no hint, one tick was "1
//! ticks", and the rooms' built-in bot `safe` was refused.

mod common;

use common::{TempDir, play_and_verify, snakepit, stderr, stdout};

/// A Python duel bot that needs a module and a data file next to it.
fn bot_of_three_files(dir: &TempDir) -> String {
    std::fs::create_dir_all(dir.join("mine")).unwrap();
    dir.write("mine/helper.py", "def move():\n    return '1'\n");
    dir.write("mine/weights.json", "{\"w\": 1}\n");
    let bot = dir.write(
        "mine/bot.py",
        "import json, sys, helper\nw = json.load(open('weights.json'))\nfor line in sys.stdin:\n    print(helper.move(), flush=True)\n",
    );
    format!("python3 {}", bot.display())
}

#[test]
fn a_bot_of_several_files_finds_them_next_to_it() {
    let dir = TempDir::new("a_bot_of_several_files");
    let bot = bot_of_three_files(&dir);
    let (out, err, _) = play_and_verify(&dir, &["--game", "duel", "--seed", "1", "--bot", &bot, "--bot", "builtin:random"]);
    assert!(out.starts_with("duel: "), "{out}");
    assert!(!err.contains("forfeits"), "the module and the data file were copied with the script: {err}");
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn a_bot_in_a_big_folder_gets_its_named_files_and_one_warning() {
    let dir = TempDir::new("a_bot_in_a_big_folder");
    std::fs::create_dir_all(dir.join("big")).unwrap();
    for i in 0..300 {
        dir.write(&format!("big/file{i}.txt"), "x");
    }
    let bot = dir.write("big/bot.py", "import sys\nfor line in sys.stdin:\n    print(1, flush=True)\n");
    let line = format!("python3 {}", bot.display());
    let (_, err, _) = play_and_verify(&dir, &["--game", "duel", "--seed", "1", "--bot", &line, "--bot", "builtin:random"]);
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning: ")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(warnings[0].contains("more than 256 files and folders") && warnings[0].contains("a folder of their own"), "{err}");
    assert!(!err.contains("forfeits"), "the named file still plays: {err}");
}

#[test]
fn the_same_program_with_other_arguments_finds_its_files_in_every_seat() {
    // One entrant's bot against itself with other settings: one program,
    // so its folder is copied for both seats.
    let dir = TempDir::new("the_same_program_twice");
    let bot = bot_of_three_files(&dir);
    let (a, b) = (format!("{bot} --fast"), format!("{bot} --slow"));
    let (_, err, _) = play_and_verify(&dir, &["--game", "duel", "--seed", "1", "--bot", &a, "--bot", &b]);
    assert!(!err.contains("warning"), "{err}");
    assert!(!err.contains("forfeits"), "both seats found the module: {err}");
}

#[test]
fn bots_that_share_a_folder_do_not_get_each_others_files() {
    // Two entrants in one folder: neither reads the other's program.
    let dir = TempDir::new("bots_share_a_folder");
    let spy = "import os, sys\nfor line in sys.stdin:\n    print('sees ' + ' '.join(sorted(os.listdir('.'))), file=sys.stderr, flush=True)\n    print(1, flush=True)\n";
    std::fs::create_dir_all(dir.join("subs")).unwrap();
    let a = dir.write("subs/a.py", spy);
    let b = dir.write("subs/b.py", spy);
    let (a, b) = (format!("python3 {}", a.display()), format!("python3 {}", b.display()));
    let out = snakepit(["play", "--game", "duel", "--seed", "1", "--ticks", "3", "--bot-stderr", "--bot", &a, "--bot", &b]);
    let err = stderr(&out);
    assert!(err.contains("sees a.py") && err.contains("sees b.py"), "{err}");
    assert!(!err.contains("a.py b.py"), "one bot saw the other's program: {err}");
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning: ")).collect();
    assert_eq!(warnings.len(), 2, "{err}");
    assert!(warnings.iter().all(|w| w.contains("holds another bot's program too")), "{err}");
}

#[test]
fn a_crash_quotes_the_bots_last_stderr_line() {
    let dir = TempDir::new("a_crash_quotes_stderr");
    let bot = dir.write(
        "crash.py",
        "import sys\nfor line in sys.stdin:\n    print('thinking', file=sys.stderr)\n    raise RuntimeError('boom: \\x1b[31mred')\n",
    );
    let line = format!("python3 {}", bot.display());
    let (_, err, _) = play_and_verify(&dir, &["--game", "duel", "--seed", "1", "--bot", &line, "--bot", "builtin:random"]);
    let fault = err.lines().find(|l| l.contains("forfeits")).unwrap_or_else(|| panic!("{err}"));
    assert!(fault.contains("exited with code 1"), "{fault}");
    assert!(fault.contains("its last stderr line: RuntimeError: boom: \\u{1b}[31mred"), "escaped: {fault}");
    assert!(fault.contains("--bot-stderr"), "{fault}");
    // With --bot-stderr on, the lines are printed and not pointed to.
    let out = snakepit(["play", "--game", "duel", "--seed", "1", "--bot-stderr", "--bot", &line, "--bot", "builtin:random"]);
    let err = stderr(&out);
    let fault = err.lines().find(|l| l.contains("forfeits")).unwrap_or_else(|| panic!("{err}"));
    assert!(fault.contains("its last stderr line: RuntimeError") && !fault.contains("--bot-stderr"), "{fault}");
    assert!(err.contains("[seat 0] thinking"), "{err}");
}

#[test]
fn a_program_that_does_not_compile_stops_before_the_game() {
    let dir = TempDir::new("does_not_compile");
    let c = dir.write("broken.c", "int main(){ return oops; }\n");
    let out = snakepit(["play", "--game", "multisnake", "--bot", c.to_str().unwrap(), "--bot", "builtin:random"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("does not compile") && err.contains("oops") && err.contains("undeclared"), "{err}");
    assert_eq!(stdout(&out), "", "no game was played");
    let java = dir.write("Bot.java", "public class Bot { public static void main(String[] a) { int x = ; } }\n");
    let out = snakepit(["play", "--game", "duel", "--bot", java.to_str().unwrap(), "--bot", "builtin:random"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("Bot.java:1: error: illegal start of expression"), "{err}");
    assert!(!err.contains("forfeits"), "{err}");
    assert_eq!(err.matches("illegal start of expression").count(), 1, "built once: {err}");
}

#[test]
fn watch_keeps_the_faults_under_the_board() {
    let out = snakepit([
        "play", "--game", "multisnake", "--seed", "1", "--watch", "--watch-ms", "0", "--bot", "sh -c 'read h; echo nope; sleep 5'", "--bot",
        "builtin:random",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let last_frame = text.rsplit("\x1b[H\x1b[2J").next().unwrap();
    assert!(last_frame.contains("tick 1: seat 0 (sh -c 'read h; echo nope; sleep 5') forfeits: answer \"nope\""), "{last_frame}");
}

#[test]
fn an_unknown_setting_lists_the_games_keys() {
    for (game, key) in [
        ("snakebattle", "fury_ticks"),
        ("hex", "points_win"),
        ("duel", "rounds_max"),
        ("multisnake", "turns_max"),
        ("carrots", "respawn_ticks"),
    ] {
        let out = snakepit(["play", "--game", game, "--set", "nosuchkey=1", "--bot", "builtin:random", "--bot", "builtin:random"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{game}: {err}");
        assert!(err.contains("unknown setting \"nosuchkey\" (settings: ") && err.contains(key), "{game}: {err}");
    }
}

#[test]
fn a_rust_source_is_refused_with_how_to_build_it() {
    let dir = TempDir::new("a_rust_source");
    let rs = dir.write("bot.rs", "fn main() {}\n");
    let out = snakepit(["play", "--game", "duel", "--bot", rs.to_str().unwrap(), "--bot", "builtin:random"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("rustc -O -o") && err.contains("cargo build --release"), "{err}");
    assert_eq!(stdout(&out), "", "no game was played");
    // Another file that cannot be executed fails at its start (in a
    // tournament it loses its own games), with a hint.
    let sh = dir.write("bot.sh", "echo 1\n");
    let out = snakepit(["play", "--game", "duel", "--bot", sh.to_str().unwrap(), "--bot", "builtin:random"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("Permission denied (os error 13); is the program executable (chmod +x)"), "{}", stderr(&out));
}

#[test]
fn a_silent_timeout_asks_about_flushing_and_one_tick_is_singular() {
    let out = snakepit(["play", "--game", "duel", "--seed", "1", "--ticks", "1", "--bot", "sh -c 'read x; sleep 30'", "--bot", "builtin:random"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("received 0 bytes: \"\"; did you flush stdout after the answer?"), "{err}");
    assert!(stdout(&out).starts_with("duel: 1 tick, seed 1\n"), "{}", stdout(&out));
}

#[test]
fn an_answer_without_its_end_of_line_says_so() {
    // Java's print and C's printf("%d") without \n: the answer waits for a
    // newline that never comes, whether the bot then waits or exits.
    for (bot, reason) in [("sh -c 'read x; printf 0; sleep 30'", "no answer within"), ("sh -c 'read x; printf 0'", "output ended")] {
        let out = snakepit(["play", "--game", "duel", "--seed", "1", "--ticks", "1", "--bot", bot, "--bot", "builtin:random"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains(reason), "{err}");
        assert!(
            err.contains("received 1 byte: \"0\"; the answer has no end of line: write it with a newline (\\n) and flush"),
            "{err}"
        );
    }
}

#[test]
fn an_executable_script_without_its_interpreter_line_runs_with_its_interpreter() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("an_executable_script_without_shebang");
    let bot = dir.write("bot.py", "import sys\nfor line in sys.stdin:\n    print(1, flush=True)\n");
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
    let bot = bot.display().to_string();
    let (_, err, _) = play_and_verify(&dir, &["--game", "duel", "--seed", "1", "--ticks", "5", "--bot", &bot, "--bot", "builtin:random"]);
    assert!(!err.contains("forfeits"), "run by python3, not /bin/sh: {err}");
}

#[test]
fn the_rooms_builtin_bots_play_in_their_games() {
    let dir = TempDir::new("the_rooms_builtin_bots");
    for game in ["duel", "carrots", "multisnake"] {
        let (out, _, replay) =
            play_and_verify(&dir, &["--game", game, "--seed", "2", "--ticks", "100", "--bot", "builtin:safe", "--bot", "builtin:greedy"]);
        assert!(out.starts_with(&format!("{game}: ")), "{out}");
        assert!(replay.contains("builtin:safe"), "{replay}");
    }
    // A game without it still refuses it, naming its own.
    let out = snakepit(["play", "--game", "snakebattle", "--bot", "builtin:safe", "--bot", "builtin:random"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("snakebattle has no built-in bot \"safe\""), "{}", stderr(&out));
    // And a tournament takes it.
    let results = dir.join("t");
    let out = snakepit([
        "tournament", "--game", "duel", "--games", "2", "--jobs", "1", "--bot", "a=builtin:safe", "--bot", "b=builtin:greedy", "--out",
        results.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
}
