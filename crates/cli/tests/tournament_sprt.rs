//! `snakepit tournament --sprt` through the built binary: greedy against
//! random is accepted as better well before the game limit, a bot against
//! itself is not, games come in pairs on one seed with the seats swapped
//! (a baseline in the other seats), a run cut short resumes to the same
//! files, and bad tests are refused.

mod common;

use common::{TempDir, batched_files, results, stderr, stdout, tournament};
use snakepit_tournament::GameResult;

/// The number N in "H1 accepted after N games", or `None`.
fn accepted(out: &str, hypothesis: &str) -> Option<u64> {
    let tail = out.split(&format!("{hypothesis} accepted after ")).nth(1)?;
    tail.split_whitespace().next()?.parse().ok()
}

/// Games in pairs: one seed per pair, the two bots' seats swapped, the
/// other seats the baseline's (bot 2).
fn check_pairs(results: &[GameResult], seats: usize) {
    assert!(results.len().is_multiple_of(2), "whole pairs only: {}", results.len());
    for (i, pair) in results.chunks(2).enumerate() {
        assert_eq!((pair[0].game, pair[1].game), (2 * i as u64, 2 * i as u64 + 1));
        assert_eq!(pair[0].seed, pair[1].seed, "pair {i} shares its seed");
        let mut first = vec![2; seats];
        (first[0], first[1]) = (0, 1);
        let mut second = first.clone();
        second.swap(0, 1);
        assert_eq!((&pair[0].seats, &pair[1].seats), (&first, &second), "pair {i}");
    }
    assert_ne!(results[0].seed, results[2].seed, "pairs differ");
}

#[test]
fn greedy_is_accepted_as_better_than_random_early() {
    let dir = TempDir::new("sprt_greedy_random");
    let t = dir.join("t");
    let args = ["--game", "duel", "--bot", "new=builtin:greedy", "--bot", "old=builtin:random", "--sprt", "0,10", "--games", "4000"];
    let out = tournament(&args, &t);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let games = accepted(&text, "H1").unwrap_or_else(|| panic!("no H1 verdict:\n{text}"));
    assert!(games < 4000, "{text}");
    assert!(text.contains("LLR ") && text.contains("(bounds -2.94, 2.94)"), "{text}");
    assert!(text.contains("Elo +") && text.contains("95%"), "{text}");
    let all = results(&t);
    assert_eq!(all.len() as u64, games, "the files stop at the verdict");
    check_pairs(&all, 2);
    let files = batched_files(&t.join("games"));
    let replays = files.keys().filter(|f| f.ends_with(".jsonl")).count() as u64;
    let last = format!("{:06}", games - 1);
    assert!(files.keys().all(|f| f[..6] <= last[..]), "no file of a game after the verdict");
    assert_eq!(replays, games, "a replay per counted game, none after the verdict");
    let pages = std::fs::read_dir(t.join("games")).unwrap().filter(|e| e.as_ref().unwrap().file_name().to_str().unwrap().ends_with(".html"));
    assert!(pages.count() > 0, "the report's games have their pages");
    assert!(!t.join("results.pending.jsonl").exists());

    // Cut back to 40 games, as a crash would leave it: --resume plays on
    // to the same verdict and the same files.
    let whole = std::fs::read_to_string(t.join("results.jsonl")).unwrap();
    let cut: String = whole.lines().take(40).map(|l| format!("{l}\n")).collect();
    std::fs::write(t.join("results.jsonl"), cut).unwrap();
    let mut again = args.to_vec();
    again.push("--resume");
    let out = tournament(&again, &t);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(accepted(&stdout(&out), "H1"), Some(games), "{}", stdout(&out));
    assert!(std::fs::read_to_string(t.join("results.jsonl")).unwrap() == whole, "resumed results differ");
    assert!(batched_files(&t.join("games")) == files, "resumed replays differ");
}

#[test]
fn a_bot_against_itself_is_not_accepted_as_better() {
    let dir = TempDir::new("sprt_self");
    let t = dir.join("t");
    let out = tournament(
        &["--game", "duel", "--bot", "new=builtin:greedy", "--bot", "old=builtin:greedy", "--sprt", "0,10", "--games", "600", "--jobs", "2"],
        &t,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(accepted(&text, "H1").is_none(), "{text}");
    assert!(accepted(&text, "H0").is_some() || text.contains("no verdict after 600 games"), "{text}");
    check_pairs(&results(&t), 2);
}

#[test]
fn other_seats_go_to_the_baseline() {
    let dir = TempDir::new("sprt_fill");
    let t = dir.join("t");
    let out = tournament(
        &[
            "--game", "battlesnake", "--seats", "4", "--bot", "new=builtin:greedy", "--bot", "old=builtin:random", "--fill",
            "builtin:greedy", "--sprt", "0,10", "--games", "2000",
        ],
        &t,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(accepted(&stdout(&out), "H1").is_some(), "{}", stdout(&out));
    check_pairs(&results(&t), 4);
}

#[test]
fn bad_tests_are_refused() {
    let dir = TempDir::new("sprt_bad");
    let t = dir.join("t");
    let two = ["--game", "duel", "--bot", "a=builtin:greedy", "--bot", "b=builtin:random"];
    for (extra, says) in [
        (&["--sprt", "10,0"][..], "must be below"),
        (&["--sprt", "0"][..], "ELO0,ELO1"),
        (&["--sprt", "0,5", "--alpha", "0"][..], "--alpha and --beta"),
        (&["--sprt", "0,5", "--bot", "c=builtin:random"][..], "two bots"),
        (&["--fill", "builtin:greedy"][..], "--fill goes with --sprt"),
        (&["--sprt", "0,5", "--fill", "builtin:greedy"][..], "these games have 2"),
        (&["--sprt", "0,5", "--seats", "4"][..], "--fill SPEC"),
    ] {
        let mut args = two.to_vec();
        args.extend(extra);
        let out = tournament(&args, &t);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{extra:?}: {}", stderr(&out));
    }
}
