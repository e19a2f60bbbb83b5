//! Duel games per minute of `snakepit tournament` between two C starter
//! bots (`starters/duel/c/bot.c`, sandboxed processes), through the built
//! binary, the way a user runs it. The goal is at least 10,000
//! games a minute on 2 cores.
//!
//! Run: `cargo bench -p snakepit --bench tournament` (needs `cc`).
//! `SNAKEPIT_BENCH_GAMES` (default 1000), `SNAKEPIT_BENCH_JOBS` (default
//! 2) and `SNAKEPIT_BENCH_RUNS` (default 3) change the run. Each run
//! checks that every game was counted once and that wins, draws and
//! losses add up, then prints its figure.
//!
//! `SNAKEPIT_BENCH_BUILTIN=1` measures instead games per second of a
//! battlesnake tournament between four built-in snakes (two greedy, two
//! random) with every replay written: no process, so the figure is the
//! game runner's own (rules, the built-ins' interface, replays, results).
//! Each run checks that every game is in the results once, with four
//! places, and has its replay in its batch (`games/batch-*.jsonl.gz`) with
//! a line per tick the result counts, and that the first, middle and last
//! games' replays re-simulate with every tick's checksum matching
//! (`snakepit replay --verify`). A machine-independent figure comes with
//! it: CPU time (user and system, all threads) per game. With `--jobs 1`
//! one thread plays and the main thread packs and writes (see
//! `tournament.rs`), so the run takes two cores.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn starter() -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../starters/duel/c/bot.c");
    // A folder of its own: the bot's folder is copied into its sandbox at
    // every start, so it must hold the bot alone, not the bench's output
    // or the other files of the target folder.
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-duel-c-starter");
    if folder.is_file() {
        // The bot itself, where an older bench put it.
        std::fs::remove_file(&folder).expect("the old bot removed");
    }
    std::fs::create_dir_all(&folder).expect("the bot's folder");
    let bin = folder.join("bot");
    let ok = Command::new("cc").args(["-O2", "-o"]).arg(&bin).arg(src).status();
    assert!(ok.expect("cc must be installed").success(), "cc failed");
    bin
}

fn main() {
    // `cargo bench` passes `--bench`; this harness has no filters.
    let games = setting("SNAKEPIT_BENCH_GAMES", 1000);
    let jobs = setting("SNAKEPIT_BENCH_JOBS", 2);
    let runs = setting("SNAKEPIT_BENCH_RUNS", 3);
    if setting("SNAKEPIT_BENCH_BUILTIN", 0) == 1 {
        builtin(games, jobs, runs);
        return;
    }
    let bot = starter().display().to_string();
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("bench-tournament-{}", std::process::id()));
    println!("tournament: duel, two C starter bots, {games} games, --jobs {jobs}");
    for run in 1..=runs {
        let _ = std::fs::remove_dir_all(&out);
        let started = Instant::now();
        let status = Command::new(env!("CARGO_BIN_EXE_snakepit"))
            .args(["tournament", "--game", "duel", "--bot", &format!("a={bot}"), "--bot", &format!("b={bot}")])
            .args(["--games", &games.to_string(), "--jobs", &jobs.to_string(), "--seed", &run.to_string(), "--out"])
            .arg(&out)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .expect("the binary runs");
        let seconds = started.elapsed().as_secs_f64();
        assert!(status.success(), "the tournament failed");
        check(&out, games);
        println!(
            "run {run}: {games} games in {seconds:.2} s: {:.0} games/minute ({:.1} games/s)",
            games as f64 * 60.0 / seconds,
            games as f64 / seconds
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// Every game once, and per bot wins + draws + losses = games.
fn check(out: &Path, games: u64) {
    let text = std::fs::read_to_string(out.join("results.jsonl")).expect("results.jsonl");
    let mut seen = vec![false; games as usize];
    let mut wdl = [[0u64; 3]; 2];
    for line in text.lines() {
        let r: serde_json::Value = serde_json::from_str(line).expect("a result line");
        let game = r["game"].as_u64().expect("game") as usize;
        assert!(!seen[game], "game {game} counted twice");
        seen[game] = true;
        let seats: Vec<usize> = r["seats"].as_array().expect("seats").iter().map(|v| v.as_u64().unwrap() as usize).collect();
        let places: Vec<u64> = r["places"].as_array().expect("places").iter().map(|v| v.as_u64().unwrap()).collect();
        for (seat, &bot) in seats.iter().enumerate() {
            let outcome = match (places[seat], places[1 - seat]) {
                (a, b) if a < b => 0,
                (a, b) if a == b => 1,
                _ => 2,
            };
            wdl[bot][outcome] += 1;
        }
    }
    assert!(seen.iter().all(|&s| s), "a game is missing");
    for bot in wdl {
        assert_eq!(bot.iter().sum::<u64>(), games);
    }
}

/// Four built-in battlesnakes, every replay written.
fn builtin(games: u64, jobs: u64, runs: u64) {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("bench-tournament-builtin-{}", std::process::id()));
    println!("tournament: battlesnake, four built-in snakes, {games} games, --jobs {jobs}");
    for run in 1..=runs {
        let _ = std::fs::remove_dir_all(&out);
        let cpu_before = children_cpu_seconds();
        let started = Instant::now();
        let status = Command::new(env!("CARGO_BIN_EXE_snakepit"))
            .args(["tournament", "--game", "battlesnake"])
            .args(["--bot", "g1=builtin:greedy", "--bot", "r1=builtin:random", "--bot", "g2=builtin:greedy", "--bot", "r2=builtin:random"])
            .args(["--games", &games.to_string(), "--jobs", &jobs.to_string(), "--seed", &run.to_string(), "--out"])
            .arg(&out)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .expect("the binary runs");
        let seconds = started.elapsed().as_secs_f64();
        let cpu = children_cpu_seconds() - cpu_before;
        assert!(status.success(), "the tournament failed");
        let lines = replay_lines(&out.join("games"));
        let text = std::fs::read_to_string(out.join("results.jsonl")).expect("results.jsonl");
        let mut seen = vec![false; games as usize];
        for line in text.lines() {
            let r: serde_json::Value = serde_json::from_str(line).expect("a result line");
            let game = r["game"].as_u64().expect("game") as usize;
            assert!(!seen[game], "game {game} counted twice");
            seen[game] = true;
            assert_eq!(r["places"].as_array().map(Vec::len), Some(4), "four places: {line}");
            let ticks = r["ticks"].as_u64().expect("ticks");
            assert_eq!(lines.get(&(game as u64)), Some(&(ticks + 1)), "game {game}: its replay has a header and {ticks} ticks");
        }
        assert!(seen.iter().all(|&s| s), "a game is missing");
        assert_eq!(lines.len() as u64, games, "a replay per game, no other");
        for game in [0, games / 2, games - 1] {
            let replay = out.join("games").join(format!("{game:06}.jsonl"));
            let verified = Command::new(env!("CARGO_BIN_EXE_snakepit")).arg("replay").arg("--verify").arg(&replay).output().expect("the binary runs");
            let said = String::from_utf8_lossy(&verified.stdout);
            let ticks = lines[&game] - 1;
            assert!(verified.status.success() && said.trim() == format!("ok: {ticks} ticks verified"), "game {game}: {said}");
        }
        println!(
            "run {run}: {games} games in {seconds:.2} s: {:.0} games/s; CPU {:.0} µs a game",
            games as f64 / seconds,
            cpu * 1e6 / games as f64
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// User and system time of the waited-for children so far, in seconds.
fn children_cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    // The fields after the command's closing bracket, from the state on
    // (see proc(5)): cutime and cstime are the 14th and 15th of them.
    let after = &stat[stat.rfind(')').expect("a command in brackets") + 2..];
    let fields: Vec<&str> = after.split(' ').collect();
    let ticks = |i: usize| fields[i].parse::<f64>().expect("a clock tick count");
    // cutime and cstime, in clock ticks of 1/100 s (USER_HZ on Linux).
    (ticks(13) + ticks(14)) / 100.0
}

/// Lines of each game's replay in the batches of `games`, by game.
fn replay_lines(games: &Path) -> std::collections::BTreeMap<u64, u64> {
    use std::io::Read;
    let mut lines = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(games).expect("the games folder") {
        let path = entry.expect("an entry").path();
        if !path.to_string_lossy().ends_with(".jsonl.gz") || path.to_string_lossy().ends_with("pending.jsonl.gz") {
            continue;
        }
        let bytes = std::fs::read(&path).expect("a batch");
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            let mut member = flate2::bufread::GzDecoder::new(rest);
            let mut text = String::new();
            member.read_to_string(&mut text).expect("a whole member");
            let name = String::from_utf8(member.header().expect("a header").filename().expect("a name").to_vec()).expect("a name");
            if let Some(game) = name.strip_suffix(".jsonl").and_then(|g| g.parse::<u64>().ok()) {
                assert!(text.starts_with("{\"snakepit_replay\""), "{name}: a replay");
                assert!(lines.insert(game, text.lines().count() as u64).is_none(), "{name} twice");
            }
            rest = member.into_inner();
        }
    }
    lines
}
