//! `play` for the stdin/stdout arenas through the built binary: process
//! bots from `starters/` in the sandbox next to built-in movers, faults
//! reported with the exact bytes, and replays that verify.

mod common;

use common::{TempDir, play_and_verify, snakepit, stderr};

const STARTERS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../starters");

fn starter(path: &str) -> String {
    let interpreter = if path.ends_with(".py") { "python3" } else { "node" };
    format!("{interpreter} {STARTERS}/{path}")
}


#[test]
fn multisnake_starters_and_builtins_play_to_the_end() {
    let dir = TempDir::new("multisnake_starters_and_builtins");
    let (py, js) = (starter("multisnake/python/bot.py"), starter("multisnake/js/bot.js"));
    let (out, err, _) = play_and_verify(
        &dir,
        &["--game", "multisnake", "--seed", "5", "--ticks", "3000", "--bot", &py, "--bot", &js, "--bot", "builtin:random", "--bot", "builtin:random"],
    );
    assert!(out.starts_with("multisnake: "), "{out}");
    assert!(out.contains(" wins: ") || out.contains(" share the win: ") || out.contains("nobody wins: "), "{out}");
    assert!(!err.contains("forfeits"), "{err}");
}

#[test]
fn a_bad_answer_is_reported_with_its_bytes() {
    let dir = TempDir::new("a_bad_answer_is_reported");
    let (out, err, _) = play_and_verify(
        &dir,
        &["--game", "multisnake", "--seed", "1", "--bot", "sh -c 'read h; echo nope; sleep 5'", "--bot", "builtin:random"],
    );
    assert!(err.contains("tick 1: seat 0 (sh -c 'read h; echo nope; sleep 5') forfeits: answer \"nope\""), "{err}");
    assert!(out.contains("seat 1 (builtin:random) wins: the last snake alive in turn 1"), "{out}");
    let log = std::fs::read_to_string(dir.join("r.jsonl.stderr.jsonl")).unwrap();
    let first = log.lines().next().unwrap();
    assert!(first.contains("\"seat\":0") && first.contains("\"t\":1"), "{log}");
    assert!(first.contains("answer \\\"nope\\\""), "{log}");
}

#[test]
fn duel_and_carrots_play_and_replay() {
    let dir = TempDir::new("duel_and_carrots");
    let py = starter("duel/python/bot.py");
    let (out, err, _) = play_and_verify(&dir, &["--game", "duel", "--seed", "2", "--bot", &py, "--bot", "builtin:random"]);
    assert!(out.starts_with("duel: "), "{out}");
    assert!(!err.contains("note: this duel's map"), "{err}");
    // A map of another size plays, with a note for bots that assume 13x14.
    let map = dir.write("small.txt", "########\n#A.....#\n#......#\n#.....B#\n########\n");
    let args = ["--game", "duel", "--map", map.to_str().unwrap(), "--bot", &py, "--bot", "builtin:random"];
    let (_, err, _) = play_and_verify(&dir, &args);
    assert!(err.contains("note: this duel's map is 5x8; the KingOfBots input does not give the map's size"), "{err}");
    let py = format!("{} 20 10", starter("carrots/python/bot.py"));
    let (out, err, _) = play_and_verify(
        &dir,
        &["--game", "carrots", "--width", "20", "--height", "10", "--ticks", "30", "--bot", &py, "--bot", "builtin:random"],
    );
    assert!(out.starts_with("carrots: 30 ticks"), "{out}");
    assert!(!err.contains("forfeits"), "{err}");
    assert!(
        err.contains("note: this board is 20x10; CodeCarrots sends no size, so bots written for it read 80 rows of 120 (the starters"),
        "{err}"
    );
    let note = err.lines().find(|l| l.starts_with("note: this board")).unwrap();
    assert!(!note.contains("  ") && note.ends_with("get the size)"), "one line of words: {note}");
}

/// Without `--ticks`, a Multisnake game runs to its own end: this one
/// (two greedy snakes, seed 4) is decided in turn 1083, past the 1000
/// ticks other games stop at, and not cut into a tie of both survivors.
#[test]
fn multisnake_plays_to_its_own_end_without_ticks() {
    let dir = TempDir::new("multisnake_own_end");
    let (out, _, _) = play_and_verify(&dir, &["--game", "multisnake", "--seed", "4", "--bot", "builtin:greedy", "--bot", "builtin:greedy"]);
    let turn: u64 = out
        .split("the last snake alive in turn ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no last snake alive: {out}"));
    assert!(turn > 1000, "{out}");
    // `--ticks` still cuts it.
    let (out, _, _) = play_and_verify(&dir, &["--game", "multisnake", "--seed", "4", "--ticks", "900", "--bot", "builtin:greedy", "--bot", "builtin:greedy"]);
    assert!(out.contains("900 ticks") || out.contains("900 turns"), "{out}");
}

/// `--timeout-ms` sets the time per move in every game: a bot that takes
/// 1.2 s a move forfeits at the default 1 s of a duel, and plays at 3 s.
#[test]
fn timeout_ms_sets_the_time_per_move_of_stdio_games() {
    let dir = TempDir::new("stdio_timeout_ms");
    let slow = "sh -c 'while read line; do sleep 1.2; echo 1; done'";
    let args = ["--game", "duel", "--seed", "3", "--ticks", "2", "--bot", slow, "--bot", "builtin:random"];
    let (_, err, _) = play_and_verify(&dir, &args);
    assert!(err.contains("seat 0") && err.contains("forfeits"), "{err}");
    let mut patient = args.to_vec();
    patient.extend(["--timeout-ms", "3000"]);
    let (_, err, _) = play_and_verify(&dir, &patient);
    assert!(!err.contains("forfeits"), "{err}");
    let out = snakepit(["play", "--game", "duel", "--timeout-ms", "0", "--bot", "builtin:random", "--bot", "builtin:random"]);
    assert!(!out.status.success() && stderr(&out).contains("--timeout-ms must be at least 1"), "{}", stderr(&out));
}


#[test]
fn a_source_file_plays_as_it_would_be_uploaded() {
    let dir = TempDir::new("source_file_bots");
    // KingOfBots' own sample bot, the very file a contestant uploads.
    let kob = format!("{STARTERS}/duel/java-harness/seed/com/ilvxgee/botrunningsystem/utils/Bot.java");
    let (out, err, _) = play_and_verify(&dir, &["--game", "duel", "--seed", "4", "--bot", &kob, "--bot", "builtin:random"]);
    assert!(out.starts_with("duel: "), "{out}");
    assert!(!err.contains("forfeits"), "compiled in the sandbox and answered every round: {err}");
    // C, compiled in the sandbox, in a Multisnake game.
    let c = format!("{STARTERS}/multisnake/c/bot.c");
    let (_, err, _) = play_and_verify(&dir, &["--game", "multisnake", "--ticks", "50", "--bot", &c, "--bot", "builtin:random"]);
    assert!(!err.contains("forfeits"), "{err}");
    // Nothing to run is refused before the game, with the reason.
    let none = dir.write("Nothing.java", "interface Nothing {}\n");
    let out = snakepit(["play", "--game", "duel", "--bot", none.to_str().unwrap(), "--bot", "builtin:random"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("a Java program needs a class with `public static void main"), "{}", stderr(&out));
    // A compile error stops play before the game, with the compiler's
    // words: built at every start, it would only fail again.
    let broken = dir.write("Broken.java", "public class Broken { public static void main(String[] a) { int x = \"no\"; } }\n");
    let out = snakepit(["play", "--game", "duel", "--bot", broken.to_str().unwrap(), "--bot", "builtin:random"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("Broken.java:1: error"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("forfeits"), "{}", stderr(&out));
}
