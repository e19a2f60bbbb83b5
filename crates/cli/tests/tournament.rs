//! `snakepit tournament` through the built binary: a 1,000-game duel between
//! two C starter bots whose numbers add up, identical files for the same
//! seed whatever `--jobs` is, ratings that separate greedy from random,
//! multi-player placements turned into pairs, and Ctrl-C then `--resume`
//! giving the same files as an uninterrupted run.

mod common;

use common::{TempDir, batched_files, c_starter, results, snakepit, stderr, stdout, tournament};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One row of the standings table: name, games, wins, draws, losses,
/// rating, twice the uncertainty, mean score.
#[derive(Debug)]
struct Row {
    name: String,
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    rating: f64,
    two_sigma: f64,
}

/// The standings rows printed on stdout.
fn rows(out: &str) -> Vec<Row> {
    out.lines()
        .skip_while(|l| !l.trim_start().starts_with("rank"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(w.len(), 11, "{l}");
            assert_eq!(w[8], "±", "{l}");
            Row {
                name: w[1].to_string(),
                games: w[2].parse().unwrap(),
                wins: w[3].parse().unwrap(),
                draws: w[4].parse().unwrap(),
                losses: w[5].parse().unwrap(),
                rating: w[7].parse().unwrap(),
                two_sigma: w[9].parse().unwrap(),
            }
        })
        .collect()
}

#[test]
fn a_thousand_duels_between_c_starters_add_up() {
    let dir = TempDir::new("a_thousand_duels");
    let bot = c_starter("duel", false).display().to_string();
    let (a, b) = (format!("a={bot}"), format!("b={bot}"));
    let out = tournament(&["--game", "duel", "--bot", &a, "--bot", &b, "--games", "1000", "--jobs", "2", "--seed", "3"], &dir.join("t"));
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);

    // Every game is in the results once, in order, with its replay.
    let results = results(&dir.join("t"));
    let files = batched_files(&dir.join("t/games"));
    assert_eq!(results.iter().map(|r| r.game).collect::<Vec<_>>(), (0..1000).collect::<Vec<_>>());
    for r in &results {
        assert_eq!(r.seats.len(), 2);
        assert!(r.places.iter().all(|&p| p == 1 || p == 2), "{r:?}");
        assert!(files[&format!("{:06}.jsonl", r.game)].starts_with("{\"snakepit_replay\""));
    }
    // Every bot started: games in parallel do not get in each other's way
    // (a forfeit for a missed deadline on a loaded machine is the bot's).
    for r in results.iter().filter(|r| r.forfeits != [0, 0]) {
        let log = &files[&format!("{:06}.jsonl.stderr.jsonl", r.game)];
        assert!(!log.contains("could not start"), "game {}: {log}", r.game);
    }
    // Each bot plays both sides equally often.
    assert_eq!(results.iter().filter(|r| r.seats == [0, 1]).count(), 500);

    let rows = rows(&text);
    assert_eq!(rows.len(), 2, "{text}");
    for row in &rows {
        assert_eq!(row.games, 1000, "{text}");
        assert_eq!(row.wins + row.draws + row.losses, row.games, "{text}");
        // The table agrees with the results file.
        let me = if row.name == "a" { 0 } else { 1 };
        let wins = results.iter().filter(|r| r.places[r.seats.iter().position(|&s| s == me).unwrap()] == 1 && r.places != [1, 1]).count();
        let draws = results.iter().filter(|r| r.places == [1, 1]).count();
        assert_eq!((row.wins, row.draws), (wins as u64, draws as u64), "{text}");
    }
    let (x, y) = (&rows[0], &rows[1]);
    assert_eq!((x.wins, x.draws, x.losses), (y.losses, y.draws, y.wins), "{text}");
    assert!(text.contains("win rate, row against column"), "{text}");
    let report = std::fs::read_to_string(dir.join("t/report.html")).unwrap();
    assert!(report.contains("<svg id=\"ratings\"") && report.contains("id=\"matrix\""));
}

#[test]
fn the_same_seed_gives_the_same_files_whatever_the_jobs() {
    let dir = TempDir::new("the_same_seed_gives_the_same_files");
    let bot = format!("c={}", c_starter("duel", true).display());
    let run = |name: &str, jobs: &str, seed: &str| {
        let args = ["--game", "duel", "--bot", &bot, "--bot", "g=builtin:greedy", "--bot", "r=builtin:random", "--games", "90", "--jobs", jobs, "--seed", seed];
        let out = tournament(&args, &dir.join(name));
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let one = run("one", "1", "7");
    let three = run("three", "3", "7");
    let other = run("other", "2", "8");
    let file = |name: &str, f: &str| std::fs::read(dir.join(name).join(f)).unwrap();
    assert!(file("one", "results.jsonl") == file("three", "results.jsonl"), "results differ with --jobs");
    assert!(file("one", "report.html") == file("three", "report.html"), "reports differ with --jobs");
    assert!(file("one", "games/batch-000000.jsonl.gz") == file("three", "games/batch-000000.jsonl.gz"));
    // A game of a batch is read by its own path, as if it were a file.
    let game = dir.join("one/games/000042.jsonl");
    let verified = snakepit(["replay".as_ref(), game.as_os_str(), "--verify".as_ref()]);
    assert!(verified.status.success() && stdout(&verified).starts_with("ok: "), "{}{}", stdout(&verified), stderr(&verified));
    let page = dir.join("page42.html");
    let made = snakepit(["replay".as_ref(), game.as_os_str(), "--html".as_ref(), page.as_os_str()]);
    assert!(made.status.success(), "{}", stderr(&made));
    let missing = snakepit(["replay".as_ref(), dir.join("one/games/000090.jsonl").as_os_str(), "--verify".as_ref()]);
    assert_eq!(missing.status.code(), Some(2), "{}", stderr(&missing));
    assert!(file("one", "results.jsonl") != file("other", "results.jsonl"), "another seed, other games");
    let table = |s: &str| s.lines().filter(|l| !l.starts_with("results: ") && !l.starts_with("report: ")).collect::<Vec<_>>().join("\n");
    assert_eq!(table(&one), table(&three));
    assert_eq!(results(&dir.join("one")).len(), 90);
    assert_ne!(table(&one), table(&other));
}

#[test]
fn battlesnake_replays_keep_their_bytes() {
    // The playing thread keeps a game's moves and checksums and the main
    // thread writes its replay: the bytes are those of the file kept here,
    // recorded when the playing thread wrote the text itself.
    let dir = TempDir::new("battlesnake_replays_keep_their_bytes");
    let bots = ["--bot", "g1=builtin:greedy", "--bot", "r1=builtin:random", "--bot", "g2=builtin:greedy", "--bot", "r2=builtin:random"];
    let args: Vec<&str> = ["--game", "battlesnake", "--games", "3", "--seed", "5", "--jobs", "1"].into_iter().chain(bots).collect();
    let out = tournament(&args, &dir.join("t"));
    assert!(out.status.success(), "{}", stderr(&out));
    let replays = batched_files(&dir.join("t/games"));
    assert_eq!(replays.len(), 3);
    assert!(replays["000001.jsonl"] == include_str!("data/battlesnake-tournament-seed-5-game-1.jsonl"), "{}", replays["000001.jsonl"]);
}

#[test]
fn greedy_beats_random_with_separate_rating_intervals() {
    let dir = TempDir::new("greedy_beats_random");
    let out = tournament(&["--game", "duel", "--bot", "greedy=builtin:greedy", "--bot", "random=builtin:random", "--games", "300"], &dir.join("t"));
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let rows = rows(&text);
    let (greedy, random) = (&rows[0], &rows[1]);
    assert_eq!((greedy.name.as_str(), random.name.as_str()), ("greedy", "random"), "{text}");
    assert!(greedy.wins > 2 * greedy.losses, "{text}");
    // rating ± 2 sigma: the intervals do not overlap.
    assert!(greedy.rating - greedy.two_sigma > random.rating + random.two_sigma, "{text}");
}

#[test]
fn five_seat_games_count_pairs_of_seats() {
    let dir = TempDir::new("five_seat_games");
    let out = tournament(
        &["--game", "snakebattle", "--ticks", "150", "--bot", "g=builtin:greedy", "--bot", "r=builtin:random", "--games", "6"],
        &dir.join("t"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let results = results(&dir.join("t"));
    assert_eq!(results.len(), 6);
    // Two bots in five seats take turns: 3 + 2 seats, so 6 pairs a game.
    let pairs: usize = results
        .iter()
        .map(|r| {
            assert_eq!(r.seats.len(), 5);
            let zeros = r.seats.iter().filter(|&&s| s == 0).count();
            zeros * (5 - zeros)
        })
        .sum();
    assert_eq!(pairs, 36);
    let rows = rows(&stdout(&out));
    for row in &rows {
        assert_eq!(row.games, 6);
        assert_eq!(row.wins + row.draws + row.losses, 36, "{}", stdout(&out));
    }
    assert_eq!(rows[0].wins, rows[1].losses);
}

#[test]
fn interrupted_then_resumed_gives_the_same_files() {
    let dir = TempDir::new("interrupted_then_resumed");
    // A name of its own, to look for leftover processes.
    let program = dir.join("ctrlc-duel-bot");
    std::fs::copy(c_starter("duel", true), &program).unwrap();
    let bot = format!("c={}", program.display());
    // Both runs must play the same games: a move timeout on a loaded
    // machine would change one, so the bots get far more time than they
    // need.
    let args = |out: &Path| -> Vec<String> {
        ["tournament", "--game", "duel", "--bot", &bot, "--bot", "g=builtin:greedy", "--games", "400", "--jobs", "2", "--seed", "11", "--timeout-ms", "30000", "--out"]
            .iter()
            .map(ToString::to_string)
            .chain([out.display().to_string()])
            .collect()
    };
    let whole = snakepit(args(&dir.join("whole")));
    assert!(whole.status.success(), "{}", stderr(&whole));

    let cut = dir.join("cut");
    let child = Command::new(env!("CARGO_BIN_EXE_snakepit"))
        .args(args(&cut))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupt once some games are in, not all.
    let started = Instant::now();
    while std::fs::read_to_string(cut.join("results.jsonl")).map_or(0, |t| t.lines().count()) < 20 {
        assert!(started.elapsed() < Duration::from_secs(60), "no results after a minute");
        std::thread::sleep(Duration::from_millis(10));
    }
    let killed = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("interrupted after") && err.contains("--resume"), "{err}");
    // The games that were running were stopped with their bots.
    let left = Command::new("pgrep").args(["-x", "ctrlc-duel-bot"]).output().unwrap();
    assert!(left.stdout.is_empty(), "bots left running: {}", String::from_utf8_lossy(&left.stdout));
    let partial = results(&cut).len();
    assert!((20..400).contains(&partial), "{partial} games before the interrupt");

    let mut again = args(&cut);
    again.push("--resume".into());
    let resumed = snakepit(&again);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let file = |d: &Path, f: &str| std::fs::read(d.join(f)).unwrap();
    assert!(file(&cut, "results.jsonl") == file(&dir.join("whole"), "results.jsonl"), "resumed results differ");
    assert!(file(&cut, "report.html") == file(&dir.join("whole"), "report.html"));
}

#[test]
fn results_are_kept_unless_resumed_with_the_same_settings() {
    let dir = TempDir::new("results_are_kept");
    let t = dir.join("t");
    let base = ["--game", "duel", "--bot", "g=builtin:greedy", "--bot", "r=builtin:random", "--games", "10"];
    assert!(tournament(&base, &t).status.success());
    let again = tournament(&base, &t);
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("--resume"), "{}", stderr(&again));
    let mut other: Vec<&str> = base.to_vec();
    other.extend(["--seed", "2", "--resume"]);
    let out = tournament(&other, &t);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("the same game, bots, games"), "{}", stderr(&out));
    let mut same: Vec<&str> = base.to_vec();
    same.push("--resume");
    let out = tournament(&same, &t);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("10 of 10 games"), "{}", stdout(&out));
}

#[test]
fn bad_tournaments_are_refused() {
    let dir = TempDir::new("bad_tournaments");
    let out = tournament(&["--game", "duel", "--bot", "a=builtin:random"], &dir.join("t"));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("at least 2 bots"), "{}", stderr(&out));
    let out = tournament(&["--game", "duel", "--bot", "a=builtin:random", "--bot", "a=builtin:greedy"], &dir.join("t"));
    assert_eq!(out.status.code(), Some(2));
    let out = tournament(
        &["--game", "snakebattle", "--format", "swiss", "--bot", "a=builtin:random", "--bot", "b=builtin:greedy"],
        &dir.join("t"),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("pairs two bots per game"), "{}", stderr(&out));
    let out = tournament(&["--game", "duel", "--bot", "a=builtin:random", "--bot", "b=http://127.0.0.1:9/"], &dir.join("t"));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("HTTP snakes play battlesnake"), "{}", stderr(&out));
}

/// Ctrl-C stops a tournament whose running games wait on slow programs
/// within a move, not at the end of those games.
#[test]
fn an_interrupt_stops_running_games_of_slow_programs_promptly() {
    let dir = TempDir::new("interrupt_slow");
    let slow = "s=sh -c 'while read l; do sleep 0.2; echo; done'";
    let child = Command::new(env!("CARGO_BIN_EXE_snakepit"))
        .args(["tournament", "--game", "snakebattle", "--bot", slow, "--bot", "g=builtin:greedy", "--games", "2", "--jobs", "1", "--ticks", "1000", "--out"])
        .arg(dir.join("t"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A game takes 200 s at this pace; stop it a few moves in.
    std::thread::sleep(Duration::from_secs(2));
    let sent = Instant::now();
    let killed = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let took = sent.elapsed();
    // Waiting for the games to end would take 200 s at least, whatever the
    // machine; stopping them takes a moment, however loaded it is.
    assert!(took < Duration::from_secs(120), "the tournament took {took:?} to stop");
    assert!(stderr(&out).contains("interrupted after 0 of 2 games"), "{}", stderr(&out));
}

/// A source-file bot is compiled once for the whole tournament (in the
/// sandbox), and every game, on every job, starts from that build.
#[test]
fn a_source_file_is_compiled_once_for_every_game() {
    let dir = TempDir::new("source_once");
    let c = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../starters/duel/c/bot.c");
    let out = Command::new(env!("CARGO_BIN_EXE_snakepit"))
        .args(["tournament", "--game", "duel", "--bot"])
        .arg(format!("c={}", c.display()))
        .args(["--bot", "g=builtin:greedy", "--games", "6", "--jobs", "2", "--seed", "3", "--out"])
        .arg(dir.join("t"))
        .env("RUST_LOG", "warn,snakepit::builds=info")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.matches("once; its games start from that build").count(), 1, "{err}");
    let games = results(&dir.join("t"));
    assert_eq!(games.len(), 6);
    assert!(games.iter().all(|g| g.faults.is_empty()), "the C bot answered every game");
}

#[test]
fn swiss_and_knockout_rounds_resume_mid_round_to_the_same_files() {
    let dir = TempDir::new("swiss_and_knockout_resume");
    let bots = ["--bot", "a=builtin:greedy", "--bot", "b=builtin:random", "--bot", "c=builtin:greedy", "--bot", "d=builtin:random", "--bot", "e=builtin:greedy"];
    for (format, games, total, round) in [("swiss", "23", 23, 2), ("knockout", "3", 4 * 3, 3)] {
        let mut args = vec!["--game", "duel", "--format", format, "--games", games, "--jobs", "2", "--seed", "5"];
        args.extend(bots);
        let t = dir.join(format);
        let out = tournament(&args, &t);
        assert!(out.status.success(), "{format}: {}", stderr(&out));
        let all = results(&t);
        assert_eq!(all.iter().map(|r| r.game).collect::<Vec<_>>(), (0..total).collect::<Vec<_>>(), "{format}");
        if format == "swiss" {
            // Two games a round, no bot twice in one.
            for pair in all.chunks(2).filter(|p| p.len() == 2) {
                let mut seated: Vec<usize> = pair.iter().flat_map(|r| r.seats.clone()).collect();
                seated.sort();
                seated.dedup();
                assert_eq!(seated.len(), 4, "{format}: {pair:?}");
            }
        } else {
            // Four matches of three games (one in the first round, where
            // three seeds have a bye, two semi-finals, the final), each
            // between one pair.
            for m in all.chunks(3) {
                let mut bots: Vec<usize> = m[0].seats.clone();
                bots.sort();
                assert!(m.iter().all(|r| r.seats.iter().all(|b| bots.contains(b))), "{format}: a match is one pair: {m:?}");
            }
        }
        // Cut in the middle of a round, as a crash would: --resume plays
        // the rest of it and the rounds after to the same files.
        let whole = std::fs::read_to_string(t.join("results.jsonl")).unwrap();
        let replays = batched_files(&t.join("games"));
        let cut: String = whole.lines().take(round * 2 + 1).map(|l| format!("{l}\n")).collect();
        std::fs::write(t.join("results.jsonl"), cut).unwrap();
        args.push("--resume");
        let out = tournament(&args, &t);
        assert!(out.status.success(), "{format}: {}", stderr(&out));
        assert!(std::fs::read_to_string(t.join("results.jsonl")).unwrap() == whole, "{format}: resumed results differ");
        assert!(batched_files(&t.join("games")) == replays, "{format}: resumed replays differ");
    }
}
