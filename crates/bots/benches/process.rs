//! Round-trip latency of the process transport with a trivial C echo bot,
//! with and without SIGSTOP/SIGCONT around each move, alone and as a
//! 4-bot turn (the goal is a whole 4-bot game turn in at most
//! 35 µs with C starter bots), plus the cost of starting a sandboxed bot.
//!
//! `turn_of_4_bots` asks through the async [`ProcessBot::ask`] joined on a
//! tokio runtime; `turn_of_4_bots_ask_all` through the blocking
//! [`ProcessBot::ask_all`], which the stdio match runner uses.
//!
//! Run: `cargo bench -p snakepit-bots --bench process`. It needs `cc`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use divan::Bencher;
use snakepit_bots::process::{Ask, BotCommand, ProcessBot, SandboxLimits, SandboxReport};
use tokio::runtime::Runtime;

const DEADLINE: Duration = Duration::from_secs(5);

fn main() {
    print!("{}", SandboxReport::cached());
    divan::main();
}

/// The echo bot of the tests, compiled once.
fn echo_bot() -> BotCommand {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    let bin = BIN.get_or_init(|| {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile/echo.c");
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-echo");
        let ok = std::process::Command::new("cc")
            .args(["-O2", "-o"])
            .arg(&out)
            .arg(src)
            .status();
        assert!(ok.expect("cc must be installed").success());
        out
    });
    BotCommand::executable(bin)
}

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn spawn(rt: &Runtime, stop: bool) -> ProcessBot {
    let _entered = rt.enter();
    let limits = SandboxLimits {
        stop_between_moves: stop,
        ..SandboxLimits::default()
    };
    ProcessBot::spawn(&echo_bot(), &limits).unwrap()
}

/// One request and its answer line.
#[divan::bench(args = [true, false], sample_count = 1000)]
fn ask_round_trip(bencher: Bencher, stop_between_moves: bool) {
    let rt = runtime();
    let mut bot = spawn(&rt, stop_between_moves);
    rt.block_on(bot.ask("warm up\n", DEADLINE)).unwrap();
    bencher.bench_local(|| rt.block_on(bot.ask("up\n", DEADLINE)).unwrap());
}

/// Four bots asked at once, as an arena turn does.
#[divan::bench(args = [true, false], sample_count = 1000)]
fn turn_of_4_bots(bencher: Bencher, stop_between_moves: bool) {
    let rt = runtime();
    let mut bots: Vec<ProcessBot> = (0..4).map(|_| spawn(&rt, stop_between_moves)).collect();
    let [a, b, c, d] = &mut bots[..] else {
        unreachable!()
    };
    bencher.bench_local(|| {
        rt.block_on(async {
            let (ra, rb, rc, rd) = tokio::join!(
                a.ask("up\n", DEADLINE),
                b.ask("up\n", DEADLINE),
                c.ask("up\n", DEADLINE),
                d.ask("up\n", DEADLINE)
            );
            (ra.unwrap(), rb.unwrap(), rc.unwrap(), rd.unwrap())
        })
    });
}

/// Four bots asked at once with [`ProcessBot::ask_all`]: one thread
/// waiting in poll(2), as the stdio match runner does.
#[divan::bench(args = [true, false], sample_count = 1000)]
fn turn_of_4_bots_ask_all(bencher: Bencher, stop_between_moves: bool) {
    let rt = runtime();
    let mut bots: Vec<ProcessBot> = (0..4).map(|_| spawn(&rt, stop_between_moves)).collect();
    bencher.bench_local(|| {
        let mut asks: Vec<Ask<'_>> = bots
            .iter_mut()
            .map(|bot| Ask {
                bot,
                request: "up\n",
                deadline: DEADLINE,
            })
            .collect();
        for answer in ProcessBot::ask_all(&mut asks) {
            answer.unwrap();
        }
    });
}

/// Start a fully sandboxed bot, get its first answer, kill it.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn spawn_ask_kill(bencher: Bencher) {
    let rt = runtime();
    bencher.bench_local(|| {
        let mut bot = spawn(&rt, true);
        rt.block_on(bot.ask("up\n", DEADLINE)).unwrap();
        bot.kill()
    });
}

/// The start alone: a fully sandboxed bot started and asked once. Each
/// bot is killed (and reaped, its folder removed) before the next sample,
/// outside the time measured.
#[divan::bench(sample_count = 20, sample_size = 1)]
fn spawn_ask(bencher: Bencher) {
    let rt = runtime();
    let previous: std::cell::RefCell<Option<ProcessBot>> = std::cell::RefCell::new(None);
    bencher
        .with_inputs(|| {
            if let Some(bot) = previous.borrow_mut().take() {
                bot.kill();
            }
        })
        .bench_local_values(|()| {
            let mut bot = spawn(&rt, true);
            rt.block_on(bot.ask("up\n", DEADLINE)).unwrap();
            *previous.borrow_mut() = Some(bot);
        });
}

/// Files a bot leaves in its folder for `drop_of_a_bot_with_many_files`.
const DROPPED_FILES: usize = 40_000;

/// Dropping a bot whose folder holds many files: the drop only sends the
/// kill and hands the removal to the reaper thread, so it takes about as
/// long as dropping any bot. (Removing the files in place takes about
/// 0.6 s on a small VM and would hold the async task that drops it.)
#[divan::bench(sample_count = 5, sample_size = 1)]
fn drop_of_a_bot_with_many_files(bencher: Bencher) {
    let rt = runtime();
    let limits = SandboxLimits {
        // The files must be in the folder the runner removes, not in the
        // quota's tmpfs (which holds at most 4096 entries).
        layers: snakepit_bots::process::LayerSet::ALL.without(snakepit_bots::process::Layer::FolderQuota),
        ..SandboxLimits::default()
    };
    let cmd = BotCommand::shell(format!("read x; seq {DROPPED_FILES} | xargs touch; echo made"));
    bencher
        .with_inputs(|| {
            let _entered = rt.enter();
            let mut bot = ProcessBot::spawn(&cmd, &limits).unwrap();
            assert_eq!(rt.block_on(bot.ask("go\n", Duration::from_secs(60))).unwrap().line, "made");
            // The bench measures nothing if the files are not there.
            let made = std::fs::read_dir(bot.folder()).map_or(0, Iterator::count);
            assert_eq!(made, DROPPED_FILES, "files in the bot's folder");
            bot
        })
        .bench_local_values(|bot| {
            let _entered = rt.enter();
            drop(bot);
        });
}
