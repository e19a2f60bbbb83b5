//! `play` and `replay` end to end, through the built binary: determinism,
//! verification, and a tampered replay caught at the right tick.

mod common;

use common::{TempDir, record, snakepit, stderr, stdout};
use snakepit_engine::snakebattle::{Phase, SnakeBattle};
use snakepit_protocol::replay::Replay;

#[test]
fn same_seed_same_bytes() {
    let dir = TempDir::new("same_seed_same_bytes");
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    let out_a = record(&a);
    let out_b = record(&b);
    let (bytes_a, bytes_b) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert!(bytes_a == bytes_b, "the two replays differ");
    assert_eq!(bytes_a.iter().filter(|&&c| c == b'\n').count(), 401, "header + 400 ticks");
    // The scores table names the files, so compare it without that line.
    let table = |s: String| s.lines().filter(|l| !l.starts_with("replay: ")).collect::<Vec<_>>().join("\n");
    assert_eq!(table(stdout(&out_a)), table(stdout(&out_b)));
}

#[test]
fn scores_table_lists_every_seat() {
    let dir = TempDir::new("scores_table_lists_every_seat");
    let out = record(&dir.join("r.jsonl"));
    let text = stdout(&out);
    assert!(text.starts_with("snakebattle: 400 ticks, seed 1\n"), "{text}");
    let is_header = |l: &&str| l.trim_start().starts_with("seat ");
    let header = text.lines().find(is_header).expect("table header");
    for column in ["seat", "bot", "score", "length", "deaths", "kills"] {
        assert!(header.contains(column), "{header}");
    }
    let rows: Vec<&str> = text.lines().skip_while(|l| !is_header(l)).skip(1).collect();
    assert_eq!(rows.len(), 5, "{text}");
    assert!(rows[0].trim_start().starts_with("0  builtin:greedy"), "{text}");
}

#[test]
fn verify_passes_on_a_fresh_replay() {
    let dir = TempDir::new("verify_passes_on_a_fresh_replay");
    let path = dir.join("r.jsonl");
    record(&path);
    let out = snakepit(["replay".as_ref(), path.as_os_str(), "--verify".as_ref()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "ok: 400 ticks verified\n");
}

/// A CodeCarrots game recorded by engine 1, when dead bodies stayed on
/// the board until the respawn (now `bodies_stay=true`, no longer the
/// default), still verifies; the same file claiming another engine does
/// not, at the first tick where a body would have gone.
#[test]
fn a_carrots_game_of_engine_1_still_verifies() {
    let dir = TempDir::new("carrots_engine_1");
    let old = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/carrots-engine-1.jsonl");
    let out = snakepit(["replay", old, "--verify"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "ok: 30 ticks verified\n");
    let text = std::fs::read_to_string(old).unwrap().replacen("\"engine\":\"1\"", "\"engine\":\"0\"", 1);
    let other = dir.write("other.jsonl", text);
    let out = snakepit(["replay".as_ref(), other.as_os_str(), "--verify".as_ref()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("made by engine \"0\""), "{}", stderr(&out));
}

#[test]
fn a_changed_move_fails_at_its_tick() {
    let dir = TempDir::new("a_changed_move_fails_at_its_tick");
    let path = dir.join("r.jsonl");
    record(&path);
    let text = std::fs::read_to_string(&path).unwrap();

    // ACT(0) kills a snake that is playing, so the state after that tick
    // must differ. Find a tick well into the game that starts with the round
    // running and some seat alive and moving.
    let replay = Replay::<SnakeBattle>::parse(&text).unwrap();
    let mut target = None;
    replay
        .resimulate(|game, record, _| {
            let running = matches!(game.phase(), Phase::Running { .. });
            if target.is_none() && record.tick >= 100 && running {
                target = game.snakes().iter().position(|s| s.is_playing()).map(|seat| (record.tick + 1, seat));
            }
        })
        .unwrap();
    let (tick, seat) = target.expect("some snake plays after tick 100");
    assert!(matches!(replay.ticks.get(tick as usize - 1), Some(r) if !r.moves[seat].suicide));

    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut record: serde_json::Value = serde_json::from_str(&lines[tick as usize]).unwrap();
    record["m"][seat] = "X".into();
    lines[tick as usize] = serde_json::to_string(&record).unwrap();
    let tampered = dir.write("tampered.jsonl", lines.join("\n") + "\n");

    let out = snakepit(["replay".as_ref(), tampered.as_os_str(), "--verify".as_ref()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(&format!("tick {tick} (line {})", tick + 1)), "tick {tick} not named: {err}");
}

#[test]
fn replay_prints_boards_and_events() {
    let dir = TempDir::new("replay_prints_boards_and_events");
    let path = dir.join("r.jsonl");
    record(&path);
    let out = snakepit(["replay".as_ref(), path.as_os_str()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("snakebattle seed 1 engine "), "{}", &text[..200]);
    assert!(text.contains("\n== tick 1: moves "));
    assert!(text.contains("\n== tick 400: moves "));
    assert!(text.contains("\nround 1 starts\n"), "the events read as sentences");
    // 30 rows of 30 cells after every tick header.
    let after = text.split("\n== tick 7: moves ").nth(1).unwrap();
    let rows: Vec<&str> = after.lines().skip(1).take(30).collect();
    assert!(rows.iter().all(|r| r.chars().count() == 30), "{rows:#?}");
}

#[test]
fn watch_draws_every_tick() {
    let out = snakepit([
        "play", "--seed", "3", "--ticks", "8", "--bot", "builtin:random", "--bot", "builtin:greedy", "--watch",
        "--watch-ms", "0",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.matches("\x1b[H\x1b[2J").count(), 8);
    assert!(text.contains("\ntick 8 | "), "{text}");
    assert!(text.contains(" | #0 builtin:random len ") && text.contains(" | #1 builtin:greedy len "), "{text}");
}

#[test]
fn settings_and_profile_reach_the_replay() {
    let dir = TempDir::new("settings_and_profile_reach_the_replay");
    let path = dir.join("r.jsonl");
    let out = snakepit([
        "play".as_ref(),
        "--seed".as_ref(),
        "5".as_ref(),
        "--ticks".as_ref(),
        "30".as_ref(),
        "--bot".as_ref(),
        "builtin:random".as_ref(),
        "--profile".as_ref(),
        "codenjoy".as_ref(),
        "--set".as_ref(),
        "fury_ticks=4".as_ref(),
        "--replay".as_ref(),
        path.as_os_str(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let header: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&path).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!(header["settings"]["profile"], "codenjoy");
    assert_eq!(header["settings"]["fury_ticks"], "4");
    assert_eq!(header["seats"], 1);
    let verify = snakepit(["replay".as_ref(), path.as_os_str(), "--verify".as_ref()]);
    assert_eq!(stdout(&verify), "ok: 30 ticks verified\n");
}

/// Ctrl-C (or SIGTERM) ends `play` after the tick in flight: the result is
/// printed and the replay holds the ticks played, and verifies.
#[test]
fn an_interrupted_game_keeps_its_replay() {
    let dir = TempDir::new("interrupted");
    let replay = dir.join("cut.jsonl");
    for signal in ["INT", "TERM"] {
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_snakepit"))
            .args(["play", "--seed", "4", "--ticks", "100000000", "--set", "rounds=false", "--bot", "builtin:greedy", "--bot", "builtin:random", "--replay"])
            .arg(&replay)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(700));
        let sent = std::process::Command::new("kill").args([format!("-{signal}"), child.id().to_string()]).status().unwrap();
        assert!(sent.success());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(130), "SIG{signal}: {}", stderr(&out));
        assert!(stderr(&out).contains("interrupted after"), "{}", stderr(&out));
        assert!(stdout(&out).starts_with("snakebattle: "), "the result is printed: {}", stdout(&out));
        let verified = snakepit(["replay".as_ref(), replay.as_os_str(), "--verify".as_ref()]);
        assert!(verified.status.success(), "SIG{signal}: {}", stderr(&verified));
        assert!(stdout(&verified).starts_with("ok: "), "{}", stdout(&verified));
    }
}
