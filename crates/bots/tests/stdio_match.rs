//! The stdio arenas end to end: the starter bots of `starters/` (compiled
//! here where they need it) play real games through the match runner,
//! inside the sandbox, and every game's replay re-simulates.
//!
//! Compiled starters go to one folder under `CARGO_TARGET_TMPDIR`, built
//! once per test run and shared by the tests. Deadlines are longer than
//! the arenas' so that a loaded machine does not turn into forfeits; the
//! tests assert that no starter ever forfeits, which checks that each reads
//! its format exactly.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use snakepit_bots::process::BotCommand;
use snakepit_bots::stdio_match::{MatchSettings, Seat, SeatFault, StdioMatch};
use snakepit_engine::carrots::{self, Carrots};
use snakepit_engine::duel::{self, Duel};
use snakepit_engine::multisnake::{self, Multisnake};
use snakepit_protocol::replay::{Replay, ReplayGame, ReplayWriter};
use snakepit_protocol::stdio::StdioGame;

fn starters() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../starters")
}

/// Compiles every starter that needs it (C, Rust, Java, and the duel's Java
/// harness with KingOfBots' sample bot), all at once, the first time it is
/// called.
fn built() -> &'static Path {
    static OUT: OnceLock<PathBuf> = OnceLock::new();
    OUT.get_or_init(|| {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("stdio-starters");
        let src = starters();
        let mut jobs: Vec<(String, Command)> = Vec::new();
        for game in ["carrots", "duel", "multisnake"] {
            let dir = out.join(game);
            std::fs::create_dir_all(dir.join("java")).unwrap();
            let mut cc = Command::new("cc");
            cc.args(["-O2", "-o"]).arg(dir.join("c-bot")).arg(src.join(game).join("c/bot.c"));
            let mut rustc = Command::new("rustc");
            // As starters/README.md says: the default edition.
            rustc.args(["-O", "-o"]).arg(dir.join("rust-bot")).arg(src.join(game).join("rust/bot.rs"));
            let mut javac = Command::new("javac");
            javac.arg("-d").arg(dir.join("java")).arg(src.join(game).join("java/Bot.java"));
            jobs.extend([(format!("{game} c"), cc), (format!("{game} rust"), rustc), (format!("{game} java"), javac)]);
        }
        let harness = src.join("duel/java-harness");
        let mut javac = Command::new("javac");
        javac
            .arg("-d")
            .arg(out.join("duel/harness"))
            .arg(harness.join("Harness.java"))
            .arg(harness.join("seed/com/ilvxgee/botrunningsystem/utils/Bot.java"));
        jobs.push(("duel harness".to_string(), javac));
        let running: Vec<_> = jobs
            .into_iter()
            .map(|(what, mut cmd)| (what, cmd.spawn().expect("cc, rustc and javac must be installed")))
            .collect();
        for (what, mut child) in running {
            assert!(child.wait().unwrap().success(), "building {what} failed");
        }
        out
    })
}

/// The starter of `lang` for `game`, with `args` after the program.
fn starter(game: &str, lang: &str, args: &[&str]) -> Seat {
    let src = starters().join(game);
    let out = built().join(game);
    let cmd = match lang {
        "python" => BotCommand::new("python3").arg("bot.py").file(src.join("python/bot.py")),
        "js" => BotCommand::new("node").arg("bot.js").file(src.join("js/bot.js")),
        "java" => BotCommand::new("java")
            .args(BotCommand::JVM_ARGS_FOR_SANDBOX)
            .args(["-cp", ".", "Bot"])
            .file(out.join("java")),
        "c" => BotCommand::executable(out.join("c-bot")),
        "rust" => BotCommand::executable(out.join("rust-bot")),
        "harness" => BotCommand::new("java")
            .args(BotCommand::JVM_ARGS_FOR_SANDBOX)
            .args(["-cp", ".", "Harness"])
            .file(out.join("harness")),
        _ => unreachable!("no starter in {lang}"),
    };
    Seat::text(format!("{game}/{lang}"), cmd.args(args))
}

/// The arena's settings with deadlines a loaded test machine keeps: the
/// tests assert that no starter forfeits, which a deadline missed for want
/// of CPU must not break.
fn settings(game: &str) -> MatchSettings {
    MatchSettings {
        move_deadline: Duration::from_secs(30),
        first_move_deadline: Duration::from_secs(30),
        ..MatchSettings::for_game(game)
    }
}

/// What a played match left behind.
struct Played<G> {
    end: G,
    /// Every forfeit, as `tick seat: fault`.
    faults: Vec<String>,
    /// Per seat: processes started.
    starts: Vec<u32>,
    /// Per seat: every stderr line.
    stderr: Vec<Vec<String>>,
    ticks: u64,
}

/// Plays `m` for at most `ticks_max` ticks, writing the replay as it goes,
/// and checks that the replay parses and re-simulates to the same end.
async fn play_and_verify<G: ReplayGame + StdioGame>(mut m: StdioMatch<G>, seed: u64, ticks_max: u64) -> Played<G> {
    let seats = m.game().seats();
    let mut writer = ReplayWriter::new(Vec::new(), m.game(), seed, &m.labels()).unwrap();
    let mut played = Played {
        end: m.game().clone(),
        faults: Vec::new(),
        starts: vec![0; seats],
        stderr: vec![Vec::new(); seats],
        ticks: 0,
    };
    m.run(ticks_max, |game, report| {
        writer.record(game, &report.actions).unwrap();
        played.ticks = report.tick;
        for (seat, fault) in report.faults() {
            played.faults.push(format!("tick {} seat {seat}: {fault}", report.tick));
        }
        for (seat, s) in report.seats.iter().enumerate() {
            played.starts[seat] += u32::from(s.started);
            played.stderr[seat].extend(s.stderr.lines.iter().cloned());
        }
    })
    .await;
    played.end = m.into_game();
    let text = String::from_utf8(writer.finish().unwrap()).unwrap();
    let replay = Replay::<G>::parse(&text).unwrap();
    assert_eq!(replay.ticks.len() as u64, played.ticks);
    let end = replay.resimulate(|_, _, _| {}).unwrap();
    assert_eq!(end.checksum(), played.end.checksum(), "the replay ends where the game did");
    played
}

/// The "must show": eight starters in all five languages play a
/// Multisnake game to its end inside the sandbox; the replay verifies.
#[tokio::test]
async fn multisnake_eight_starters_of_five_languages_play_to_the_end() {
    let map = multisnake::builtin_map("octo-48x48").unwrap();
    // A turn limit keeps the test bounded even if the random movers
    // survive long; reaching it is one of the game's ends.
    let rules = multisnake::Settings { turns_max: 600, ..multisnake::Settings::default() };
    let game = Multisnake::new(rules, map, 4);
    let langs = ["python", "js", "java", "c", "rust", "c", "rust", "python"];
    let seats = langs.iter().map(|l| starter("multisnake", l, &[])).collect();
    let played = play_and_verify(StdioMatch::new(game, seats, settings("multisnake")), 4, 10_000).await;
    assert!(played.end.is_over(), "the game ran to its end ({} turns)", played.ticks);
    assert_eq!(played.faults, Vec::<String>::new(), "starters answer in the exact format");
    assert_eq!(played.starts, vec![1; 8], "one process per seat");
    played.end.check_invariants().unwrap();
}

/// On a multi-threaded runtime the runner asks the bots as futures
/// instead of blocking a worker in poll(2); the game is the same: four C
/// starters play a Multisnake game to its end, and the replay verifies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn multisnake_on_a_multi_threaded_runtime() {
    let game = Multisnake::new(multisnake::Settings::default(), multisnake::builtin_map("quad-32x32").unwrap(), 6);
    let seats = (0..4).map(|_| starter("multisnake", "c", &[])).collect();
    let played = play_and_verify(StdioMatch::new(game, seats, settings("multisnake")), 6, 10_000).await;
    assert!(played.end.is_over(), "the game ran to its end ({} turns)", played.ticks);
    assert_eq!(played.faults, Vec::<String>::new());
    assert_eq!(played.starts, vec![1; 4]);
}

/// Snakes that die during the game have their bots killed in that tick,
/// but torn down only when the match stops, so that the kernel's work does
/// not fall on the turns of the others: the four bot folders stay for the
/// whole game, and once the match is over none is left under the folder
/// root.
#[tokio::test]
async fn multisnake_dead_snakes_are_torn_down_when_the_match_stops() {
    let (root, settings) = settings_in_a_folder_root("multisnake");
    let game = Multisnake::new(multisnake::Settings::default(), multisnake::builtin_map("quad-32x32").unwrap(), 9);
    let seats = (0..4).map(|_| starter("multisnake", "c", &[])).collect();
    let mut m = StdioMatch::new(game, seats, settings);
    let mut killed_mid_game = 0;
    let mut folders = None;
    while !m.is_finished() {
        let report = m.tick().await;
        assert_eq!(report.faults().count(), 0);
        if !m.is_finished() {
            killed_mid_game += report.seats.iter().filter(|s| s.killed).count();
        }
        // Each bot has its folder (and, with the folder quota, the mount
        // point of its tmpfs beside it), all made in the first tick.
        let now = bot_folders(root.path()).len();
        let first = *folders.get_or_insert(now);
        assert!(first >= 4, "{first}");
        assert_eq!(now, first, "tick {}: every folder stays during the game", report.tick);
    }
    assert!(killed_mid_game > 0, "a snake died before the end");
    drop(m);
    assert_folders_go(root.path()).await;
}

/// An endless CodeCarrots game restarts a crashing program at every life:
/// the match keeps as many dead bots as it has seats and lets the oldest
/// go, so their number stays bounded.
#[tokio::test]
async fn carrots_keeps_at_most_as_many_dead_bots_as_seats() {
    let (root, settings) = settings_in_a_folder_root("carrots");
    let rules = carrots::Settings { width: 24, height: 16, ..carrots::Settings::default() };
    let game = Carrots::new(rules, 4, 5).unwrap();
    let crasher = BotCommand::shell("head -n 16 >/dev/null; exit 3");
    let mut seats: Vec<Seat> = (0..3).map(|_| starter("carrots", "c", &["24", "16"])).collect();
    seats.push(Seat::text("crasher", crasher));
    let mut m = StdioMatch::new(game, seats, settings);
    let mut crashes = 0;
    // Each bot has one folder; the mount point of its quota's tmpfs beside
    // it is there only when its root was not made ahead, so it is not
    // counted.
    let bots = |root: &std::path::Path| bot_folders(root).iter().filter(|n| n.starts_with("snakepit-bot-")).count();
    for _ in 0..60 {
        let report = m.tick().await;
        crashes += report.faults().count();
        // Four living bots and four kept. The folders of the bots let go
        // are removed by the reaper thread, which a busy machine may hold
        // up for a while: wait for it, but the bound must be reached.
        let reached = eventually(|| bots(root.path()) <= 8).await;
        let now = bots(root.path());
        assert!(reached, "tick {}: {now} bots' folders after {FOLDERS_WAIT:?}", report.tick);
    }
    assert!(crashes > 8, "more dead bots than seats: {crashes}");
    drop(m);
    assert_folders_go(root.path()).await;
}

/// How long a test waits for the reaper thread to remove what it was given:
/// far longer than it takes on any machine, however loaded.
const FOLDERS_WAIT: Duration = Duration::from_secs(60);

/// Whether `cond` holds within [`FOLDERS_WAIT`], polling it.
async fn eventually(mut cond: impl FnMut() -> bool) -> bool {
    let until = std::time::Instant::now() + FOLDERS_WAIT;
    loop {
        if cond() {
            return true;
        }
        if std::time::Instant::now() >= until {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Once a match is dropped, every bot folder under `root` goes: the match
/// waits for some of the teardown, and the reaper thread, however slow on a
/// busy machine, does the rest.
async fn assert_folders_go(root: &Path) {
    let gone = eventually(|| bot_folders(root).is_empty()).await;
    let left = bot_folders(root);
    assert!(gone, "left after {FOLDERS_WAIT:?}: {left:?}");
}

/// The settings of `game`, with the bots' folders made in a fresh folder
/// root of the test's own.
fn settings_in_a_folder_root(game: &str) -> (tempfile::TempDir, MatchSettings) {
    let root = tempfile::tempdir().unwrap();
    // Bots with their own uids must be able to pass through the root.
    std::fs::set_permissions(root.path(), std::fs::Permissions::from_mode(0o711)).unwrap();
    let mut settings = settings(game);
    settings.limits.folder_root = Some(root.path().to_path_buf());
    (root, settings)
}

/// What is under a folder root but the runner's lock file, which marks its
/// folders for the next runner should this one be killed.
fn bot_folders(root: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !(n.starts_with("snakepit-runner-") && n.ends_with(".lock")))
        .collect()
}

/// The Python starter against KingOfBots' own Java sample bot, run unmodified
/// through the `Supplier<Integer>` harness in one JVM.
#[tokio::test]
async fn duel_python_starter_against_the_seeds_java_bot() {
    let game = Duel::new(duel::Settings::default(), 9);
    let seats = vec![starter("duel", "python", &[]), starter("duel", "harness", &[])];
    let played = play_and_verify(StdioMatch::new(game, seats, settings("duel")), 9, 1_000).await;
    assert!(played.end.is_over(), "a duel always ends ({} rounds)", played.ticks);
    assert_eq!(played.faults, Vec::<String>::new(), "both read the exact token");
    assert_eq!(played.starts, vec![1, 1]);
}

/// CodeCarrots with three starters and a bot that reads its first board
/// and exits: each crash is reported with its exit code, kills the snake,
/// and its program is started again when the snake respawns; the
/// starters play on.
#[tokio::test]
async fn carrots_crashing_bot_restarts_and_others_play_on() {
    let rules = carrots::Settings { width: 24, height: 16, ..carrots::Settings::default() };
    let game = Carrots::new(rules, 4, 21).unwrap();
    let size = ["24", "16"];
    let crasher = BotCommand::shell("head -n 16 >/dev/null; echo boom >&2; exit 3");
    let seats = vec![
        starter("carrots", "python", &size),
        starter("carrots", "c", &size),
        starter("carrots", "rust", &size),
        Seat::text("crasher", crasher),
    ];
    let settings = settings("carrots");
    assert!(settings.limits.stop_between_moves, "CodeCarrots stops its bots between moves");
    let m = StdioMatch::new(game, seats, settings);
    let played = play_and_verify(m, 21, 40).await;
    assert_eq!(played.ticks, 40);
    let (crashes, others): (Vec<&String>, Vec<&String>) = played.faults.iter().partition(|f| f.contains("seat 3:"));
    assert_eq!(others, Vec::<&String>::new(), "the starters never forfeit");
    assert!(crashes.len() >= 5, "the crasher fails at every life: {crashes:?}");
    for c in &crashes {
        assert!(c.contains("exited with code 3"), "{c}");
    }
    assert!(played.starts[3] >= 5, "restarted after each respawn: {:?}", played.starts);
    assert!(played.stderr[3].iter().all(|l| l == "boom") && played.stderr[3].len() >= 5, "{:?}", played.stderr[3]);
}

/// A bad answer is a forfeit reported with the exact bytes, and the rule
/// of the arena applies: in Multisnake the snake dies and its program is
/// terminated, and the others play on.
#[tokio::test]
async fn multisnake_bad_answer_is_reported_exactly() {
    let game = Multisnake::new(multisnake::Settings::default(), multisnake::builtin_map("duo-40x20").unwrap(), 1);
    let liar = BotCommand::shell("head -n 21 >/dev/null; printf 'north\\n'; sleep 5");
    let seats = vec![starter("multisnake", "c", &[]), Seat::text("liar", liar)];
    let mut m = StdioMatch::new(game, seats, settings("multisnake"));
    let report = m.tick().await;
    let faults: Vec<_> = report.faults().collect();
    assert_eq!(faults.len(), 1);
    let (seat, fault) = faults[0];
    assert_eq!(seat, 1);
    assert!(matches!(fault, SeatFault::Answer { error, .. } if error.bytes == b"north"), "{fault}");
    assert!(fault.to_string().contains("\"north\""), "{fault}");
    assert!(report.seats[1].killed);
    assert!(m.game().is_over(), "the other snake is the last alive");
}
