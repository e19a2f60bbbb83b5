//! The process transport never holds the async runtime: a bot flooding
//! stderr, or a bot whose folder holds many files when it is dropped,
//! leaves the other tasks of the same current-thread runtime running.
//!
//! Each test runs its runtime on a thread of its own and waits for it with
//! a generous bound, so a runtime that is held forever fails the test
//! instead of hanging it (the bot then dies with the test process, through
//! its parent-death signal).

use std::future::Future;
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use snakepit_bots::process::{BotCommand, Layer, LayerSet, ProcessBot, SandboxLimits};

/// How long a whole test may take before its runtime counts as held.
const TEST_WAIT_MAX: Duration = Duration::from_secs(120);

/// Runs `test` on a current-thread runtime on a thread of its own and
/// returns its result, or fails if the runtime does not finish in time.
fn on_own_runtime<T: Send + 'static, F: Future<Output = T> + 'static>(
    test: impl FnOnce() -> F + Send + 'static,
) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let _ = tx.send(rt.block_on(test()));
    });
    match rx.recv_timeout(TEST_WAIT_MAX) {
        Ok(result) => result,
        Err(_) => panic!("the runtime was held for {TEST_WAIT_MAX:?}"),
    }
}

/// The worst lateness of `count` sleeps of 10 ms in a row.
async fn worst_timer_lateness(count: u32) -> Duration {
    let mut worst = Duration::ZERO;
    for _ in 0..count {
        let started = Instant::now();
        tokio::time::sleep(Duration::from_millis(10)).await;
        worst = worst.max(started.elapsed().saturating_sub(Duration::from_millis(10)));
    }
    worst
}

/// A bot that is not stopped between moves and, after its first answer,
/// writes `y` lines to stderr without end.
fn spawn_flooder() -> ProcessBot {
    let limits = SandboxLimits {
        stop_between_moves: false,
        ..SandboxLimits::default()
    };
    ProcessBot::spawn(
        &BotCommand::shell("read x; echo ready; exec yes y >&2"),
        &limits,
    )
    .unwrap()
}

#[test]
fn timers_fire_while_a_bot_floods_stderr() {
    let (late, taken) = on_own_runtime(|| async {
        let mut bot = spawn_flooder();
        assert_eq!(
            bot.ask("go\n", Duration::from_secs(30)).await.unwrap().line,
            "ready"
        );
        // Each sleep lets the stderr task run, which reads the flood.
        let late = worst_timer_lateness(50).await;
        (late, bot.take_stderr())
    });
    // A runtime starved by the flood would never get here: the test fails
    // after TEST_WAIT_MAX. How late the timers were depends on the machine;
    // `cargo bench -p snakepit-bots --bench process` measures it.
    eprintln!("worst lateness of a 10 ms timer: {late:?}");
    let lines_max = SandboxLimits::default().stderr_lines_max;
    assert_eq!(taken.lines.len(), lines_max);
    assert!(taken.lines.iter().all(|l| l == "y"));
    assert!(
        taken.dropped_lines > 0,
        "the flood went on past the kept lines"
    );
    assert_eq!(taken.truncated_lines, 0);
}

/// `take_stderr` reads what is in the pipe, not the flood that follows.
#[test]
fn take_stderr_returns_while_a_bot_floods_stderr() {
    let takes = on_own_runtime(|| async {
        let mut bot = spawn_flooder();
        assert_eq!(
            bot.ask("go\n", Duration::from_secs(30)).await.unwrap().line,
            "ready"
        );
        let mut takes = Vec::new();
        for _ in 0..5 {
            takes.push(bot.take_stderr());
        }
        takes
    });
    assert_eq!(takes.len(), 5);
    assert!(takes.iter().all(|t| t.lines.iter().all(|l| l == "y")));
}

/// The default limits without the folder quota: these tests need the
/// bot's files in the folder the runner removes (under the quota they are
/// in the bot's own tmpfs, 4096 at most, and gone with its last process).
fn limits_without_quota() -> SandboxLimits {
    SandboxLimits {
        layers: LayerSet::ALL.without(Layer::FolderQuota),
        ..SandboxLimits::default()
    }
}

fn entries(folder: &Path) -> usize {
    std::fs::read_dir(folder).map_or(0, Iterator::count)
}

#[test]
fn dropping_a_bot_with_many_files_does_not_hold_the_runtime() {
    const FILES: usize = 40_000;
    let (folder, drop_took, late) = on_own_runtime(|| async {
        let cmd = BotCommand::shell(format!("read x; seq {FILES} | xargs touch; echo made"));
        let mut bot = ProcessBot::spawn(&cmd, &limits_without_quota()).unwrap();
        assert_eq!(
            bot.ask("go\n", Duration::from_secs(60)).await.unwrap().line,
            "made"
        );
        let folder = bot.folder().to_path_buf();
        assert_eq!(entries(&folder), FILES);
        let ticker = tokio::spawn(worst_timer_lateness(20));
        // The ticker starts its first sleep before the drop.
        tokio::task::yield_now().await;
        let started = Instant::now();
        drop(bot);
        let drop_took = started.elapsed();
        (folder, drop_took, ticker.await.unwrap())
    });
    // How long the drop took depends on the machine (the bench
    // `drop_of_a_bot_with_many_files` measures it); that the folder is
    // removed at all, by the reaper thread, does not.
    eprintln!("drop took {drop_took:?}, worst timer lateness {late:?}");
    let until = Instant::now() + Duration::from_secs(60);
    while folder.exists() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!folder.exists(), "the folder {} is left", folder.display());
}

/// `kill` still does everything before it returns.
#[test]
fn kill_removes_the_folder_before_returning() {
    let folder = on_own_runtime(|| async {
        let cmd = BotCommand::shell("read x; seq 1000 | xargs touch; echo made");
        let mut bot = ProcessBot::spawn(&cmd, &limits_without_quota()).unwrap();
        assert_eq!(
            bot.ask("go\n", Duration::from_secs(60)).await.unwrap().line,
            "made"
        );
        let folder = bot.folder().to_path_buf();
        assert!(bot.kill().is_some());
        folder
    });
    assert!(!folder.exists());
}
