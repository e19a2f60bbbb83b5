//! The process transport with real child processes: normal bots in C and
//! Python, and one test per hostile bot of issue 7 (fork bomb, 10 GB
//! allocation, endless loop, 1 GB stdout flood, silence, a TCP connection
//! to loopback, reading another bot's folder, writing outside its own).
//!
//! Each hostile test shows four things: the bot is contained (the limit or
//! layer stopped it), the fault is reported precisely (reason and bytes),
//! the runner and a witness bot beside it go on working, and no process of
//! the bot is left. The C fixtures are compiled once per run with `cc`.
//!
//! A layer the machine does not allow (see `SandboxReport`) makes the tests
//! that need it print "skipped" instead of failing; the report is printed
//! by `sandbox_report_names_every_layer`.

use std::fs;
use std::io::ErrorKind;
use std::net::TcpListener;
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use snakepit_bots::process::{
    Ask, BotCommand, FaultReason, Layer, LayerSet, ProcessBot, SandboxLimits, SandboxReport,
    SpawnError,
};

const MIB: u64 = 1024 * 1024;
const ANSWER: Duration = Duration::from_secs(5);

/// Small limits, so that hostile bots hit them fast.
fn limits() -> SandboxLimits {
    SandboxLimits {
        cpu_seconds_max: Some(5),
        address_space_bytes_max: Some(256 * MIB),
        processes_max: Some(16),
        file_size_bytes_max: Some(MIB),
        open_files_max: Some(32),
        ..SandboxLimits::default()
    }
}

fn limits_with(layers: LayerSet) -> SandboxLimits {
    SandboxLimits { layers, ..limits() }
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hostile")
        .join(name)
}

/// Compiles every C fixture once per run, in parallel, and returns the
/// folder of the binaries (under cargo's target tmp folder, so nothing is
/// left in /tmp).
fn binaries() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("process-fixtures");
        fs::create_dir_all(&dir).unwrap();
        let sources: Vec<PathBuf> = fs::read_dir(fixture(""))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "c"))
            .collect();
        let compilers: Vec<_> = sources
            .iter()
            .map(|src| {
                let out = dir.join(src.file_stem().unwrap());
                let child = std::process::Command::new("cc")
                    .args(["-O2", "-o"])
                    .arg(&out)
                    .arg(src)
                    .spawn();
                (src, child.expect("cc must be installed"))
            })
            .collect();
        for (src, mut child) in compilers {
            assert!(
                child.wait().unwrap().success(),
                "cc failed on {}",
                src.display()
            );
        }
        dir
    })
}

fn c_bot(name: &str) -> BotCommand {
    BotCommand::executable(binaries().join(name))
}

/// Whether all `layers` are active here; prints why a test is skipped.
fn available(test: &str, layers: LayerSet) -> bool {
    let missing = layers
        .iter()
        .filter(|l| !SandboxReport::cached().active().contains(*l))
        .collect::<LayerSet>();
    if missing != LayerSet::NONE {
        eprintln!("{test}: skipped, layers not available here: {missing}");
    }
    missing == LayerSet::NONE
}


/// Whether `reply` of `fs_probe` is a refusal: EACCES, or, in a minimal
/// root, ENOENT (the path does not exist for the bot).
fn refused(reply: &str, layers: LayerSet) -> bool {
    reply.starts_with("denied 13 ") || (layers.contains(Layer::MinimalRoot) && reply.starts_with("denied 2 "))
}

/// Fields of /proc/PID/stat after the command name.
struct Stat {
    state: char,
    pgid: i32,
    cpu_ticks: u64,
}

fn stat(pid: u32) -> Option<Stat> {
    let text = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &text[text.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    Some(Stat {
        state: f[0].chars().next()?,
        pgid: f[2].parse().ok()?,
        cpu_ticks: f[11].parse::<u64>().ok()? + f[12].parse::<u64>().ok()?,
    })
}

fn all_pids() -> Vec<u32> {
    fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect()
}

/// Living (not zombie) processes of a process group.
fn group_alive(pgid: u32) -> Vec<u32> {
    all_pids()
        .into_iter()
        .filter(|&p| {
            stat(p).is_some_and(|s| s.pgid == pgid as i32 && !matches!(s.state, 'Z' | 'X'))
        })
        .collect()
}

/// Living (not zombie) processes owned by `uid`.
fn uid_alive(uid: u32) -> Vec<u32> {
    all_pids()
        .into_iter()
        .filter(|&p| {
            fs::metadata(format!("/proc/{p}")).is_ok_and(|m| m.uid() == uid)
                && stat(p).is_some_and(|s| !matches!(s.state, 'Z' | 'X'))
        })
        .collect()
}

fn wait_until(wait_max: Duration, mut done: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + wait_max;
    while Instant::now() < until {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    done()
}

/// Drops `bot` as a match does and checks that nothing of it is left.
fn end(bot: ProcessBot) {
    let remains = Remains::of(&bot);
    drop(bot);
    remains.assert_none();
}

/// What a dropped bot must leave: no living process of its group or uid,
/// and, once the background reaper is done, no unreaped main process and
/// no folder.
struct Remains {
    pid: u32,
    uid: Option<u32>,
    folder: PathBuf,
}

impl Remains {
    fn of(bot: &ProcessBot) -> Remains {
        Remains {
            pid: bot.pid(),
            uid: bot.uid(),
            folder: bot.folder().to_path_buf(),
        }
    }

    fn assert_none(&self) {
        assert!(
            wait_until(Duration::from_secs(30), || !Path::new(&format!(
                "/proc/{}",
                self.pid
            ))
            .exists()),
            "main process {} not reaped",
            self.pid
        );
        assert!(
            wait_until(Duration::from_secs(30), || group_alive(self.pid).is_empty()),
            "group left"
        );
        if let Some(uid) = self.uid {
            assert!(
                wait_until(Duration::from_secs(30), || uid_alive(uid).is_empty()),
                "uid {uid} left"
            );
        }
        assert!(
            wait_until(Duration::from_secs(30), || !self.folder.exists()),
            "folder {} left",
            self.folder.display()
        );
    }
}

/// A normal bot that runs beside a hostile one and must not notice it.
struct Witness(ProcessBot, u32);

impl Witness {
    fn spawn() -> Witness {
        Witness(ProcessBot::spawn(&c_bot("echo"), &limits()).unwrap(), 0)
    }

    async fn check(&mut self) {
        self.1 += 1;
        let request = format!("ping {}\n", self.1);
        let reply = self.0.ask(&request, ANSWER).await.unwrap();
        assert_eq!(reply.line, request.trim_end());
    }
}

/// The runner can still start processes: the machine is fine.
fn runner_is_fine() {
    assert!(
        std::process::Command::new("true")
            .status()
            .unwrap()
            .success()
    );
}

#[test]
fn sandbox_report_names_every_layer() {
    let report = SandboxReport::detect();
    print!("{report}");
    let text = report.to_string();
    for layer in Layer::ALL {
        assert!(text.contains(layer.name()), "{text}");
    }
    assert_eq!(report.active(), SandboxReport::cached().active());
}

/// A layer whose kernel feature works here must be reported active: a
/// bug in a layer's start would otherwise only show as "OFF" in the
/// report, and the tests that need the layer would skip. Checked with
/// util-linux's `unshare` where it is installed, for the namespaces.
#[test]
fn namespaces_the_kernel_allows_are_active() {
    if !nix::unistd::Uid::effective().is_root() {
        eprintln!("namespaces: skipped, the runner is not root");
        return;
    }
    let report = SandboxReport::cached();
    for (layer, args) in [
        (Layer::PidNamespace, &["--pid", "--fork", "true"][..]),
        (Layer::IpcNamespace, &["--ipc", "--uts", "true"][..]),
        (Layer::NetworkNamespace, &["--net", "true"][..]),
    ] {
        let allowed = std::process::Command::new("unshare").args(args).status();
        if !allowed.is_ok_and(|s| s.success()) {
            eprintln!("{layer}: skipped, `unshare {}` fails here", args.join(" "));
            continue;
        }
        assert!(report.active().contains(layer), "{layer} works here but is reported off:\n{report}");
    }
}

#[tokio::test]
async fn c_bot_answers_many_requests() {
    let mut bot = ProcessBot::spawn(&c_bot("echo"), &limits()).unwrap();
    assert_eq!(
        bot.layers(),
        LayerSet::ALL.intersect(SandboxReport::cached().active())
    );
    for id in 0..2000 {
        let reply = bot
            .ask(
                &format!("ask {id} 3\nabc\nde\n{}\n", "f".repeat(id % 50)),
                ANSWER,
            )
            .await
            .unwrap();
        assert_eq!(reply.line, format!("ok {id} {}", 5 + id % 50));
    }
    // A request larger than the pipe buffer (64 KiB) is written while the
    // bot reads it.
    let big: String = (0..2000).map(|_| format!("{}\n", "x".repeat(99))).collect();
    let reply = bot
        .ask(&format!("ask 9 2000\n{big}"), ANSWER)
        .await
        .unwrap();
    assert_eq!(reply.line, "ok 9 198000");
    let remains = Remains::of(&bot);
    assert!(bot.kill().is_some());
    remains.assert_none();
}

#[tokio::test]
async fn python_bot_answers_many_requests_and_reads_its_files() {
    let data = tempfile::tempdir().unwrap();
    fs::write(data.path().join("data.txt"), "hello from the upload\n").unwrap();
    let line = format!("python3 {}", fixture("echo.py").display());
    let cmd = BotCommand::from_command_line(&line, &limits().system_paths_read_only)
        .unwrap()
        .file(data.path().join("data.txt"));
    let mut bot = ProcessBot::spawn(&cmd, &limits()).unwrap();
    // Start-up counts against the first move, so it gets a longer deadline.
    let reply = bot
        .ask("ask 0 1\nxy\n", Duration::from_secs(10))
        .await
        .unwrap();
    assert_eq!(reply.line, "ok 0 2");
    for id in 1..300 {
        let reply = bot
            .ask(&format!("ask {id} 2\n{}\nz\n", "y".repeat(id)), ANSWER)
            .await
            .unwrap();
        assert_eq!(reply.line, format!("ok {id} {}", id + 1));
    }
    assert_eq!(
        bot.ask("cat data.txt\n", ANSWER).await.unwrap().line,
        "hello from the upload"
    );
    let who = bot.ask("whoami\n", ANSWER).await.unwrap().line;
    let folder = bot.folder().to_str().unwrap();
    let uid = bot.uid().unwrap_or(0);
    // HOME and the working directory are the bot's folder; the environment
    // is PATH, HOME, TMPDIR, LANG and PYTHONUNBUFFERED only.
    assert_eq!(who, format!("{folder}|{folder}|{uid}|5"));
    assert!(bot.take_stderr().lines.is_empty());
}

/// A JVM starts and answers inside the full sandbox, with 512 MiB of
/// address space and the JVM options of `BotCommand::JVM_ARGS_FOR_SANDBOX`.
#[tokio::test]
async fn java_bot_runs_in_the_sandbox() {
    let classes = Path::new(env!("CARGO_TARGET_TMPDIR")).join("process-java");
    fs::create_dir_all(&classes).unwrap();
    let javac = std::process::Command::new("javac")
        .arg("-d")
        .arg(&classes)
        .arg(fixture("Echo.java"))
        .status();
    if !javac.is_ok_and(|s| s.success()) {
        eprintln!("java bot: skipped, no javac here");
        return;
    }
    let cmd = BotCommand::new("java")
        .args(BotCommand::JVM_ARGS_FOR_SANDBOX)
        .args(["-cp", ".", "Echo"])
        .file(classes.join("Echo.class"));
    let limits = SandboxLimits {
        address_space_bytes_max: Some(512 * MIB),
        processes_max: Some(64),
        ..limits()
    };
    let mut bot = ProcessBot::spawn(&cmd, &limits).unwrap();
    assert_eq!(
        bot.ask("up\n", Duration::from_secs(20)).await.unwrap().line,
        "java up"
    );
    for i in 0..100 {
        assert_eq!(
            bot.ask(&format!("{i}\n"), ANSWER).await.unwrap().line,
            format!("java {i}")
        );
    }
    let remains = Remains::of(&bot);
    drop(bot);
    remains.assert_none();
}

/// A Python bot that never flushes is heard: the sandbox runs Python with
/// unbuffered output, as CodeCarrots' server did for its example bot.
#[tokio::test]
async fn python_bots_need_not_flush() {
    let cmd = BotCommand::new("python3").arg("no_flush.py").file(fixture("no_flush.py"));
    let mut bot = ProcessBot::spawn(&cmd, &limits()).unwrap();
    for i in 0..3 {
        assert_eq!(bot.ask(&format!("{i}\n"), ANSWER).await.unwrap().line, format!("got {i}"));
    }
}

/// The KingOfBots harness starts every move afresh, as upstream compiles
/// the bot anew for each: static fields do not carry over, and what the
/// bot prints to `System.out` goes to stderr instead of being read as its
/// answer.
#[tokio::test]
async fn kingofbots_harness_starts_each_move_afresh() {
    let classes = Path::new(env!("CARGO_TARGET_TMPDIR")).join("process-harness");
    fs::create_dir_all(&classes).unwrap();
    let harness = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../starters/duel/java-harness/Harness.java");
    let javac = std::process::Command::new("javac")
        .arg("-d")
        .arg(&classes)
        .arg(harness)
        .arg(fixture("StaticBot.java"))
        .status();
    if !javac.is_ok_and(|s| s.success()) {
        eprintln!("harness: skipped, no javac here");
        return;
    }
    let cmd = BotCommand::new("java")
        .args(BotCommand::JVM_ARGS_FOR_SANDBOX)
        .args(["-cp", ".", "Harness", "StaticBot"])
        .file(&classes);
    let limits = SandboxLimits {
        address_space_bytes_max: Some(512 * MIB),
        processes_max: Some(64),
        ..limits()
    };
    let mut bot = ProcessBot::spawn(&cmd, &limits).unwrap();
    let mut debug = Vec::new();
    for round in 0..3 {
        let wait = if round == 0 { Duration::from_secs(20) } else { ANSWER };
        assert_eq!(bot.ask("#input#\n", wait).await.unwrap().line, "1", "round {round}");
        debug.extend(bot.take_stderr().lines);
    }
    assert_eq!(debug, vec!["debug: call 1"; 3]);
}

#[tokio::test]
async fn bot_is_stopped_between_moves() {
    for stop in [true, false] {
        let mut bot = ProcessBot::spawn(
            &c_bot("echo"),
            &SandboxLimits {
                stop_between_moves: stop,
                ..limits()
            },
        )
        .unwrap();
        let pid = bot.pid();
        if stop {
            // Stopped from spawn to the first move.
            assert!(wait_until(Duration::from_secs(30), || stat(pid)
                .unwrap()
                .state
                == 'T'));
        }
        // The bot forks a child that spins forever.
        assert_eq!(bot.ask("spin\n", ANSWER).await.unwrap().line, "ok");
        let members = group_alive(pid);
        assert_eq!(members.len(), 2, "{members:?}");
        let all_stopped = || members.iter().all(|&p| stat(p).unwrap().state == 'T');
        // Waiting long for what must happen; a second for what must not.
        assert_eq!(wait_until(Duration::from_secs(if stop { 30 } else { 1 }), all_stopped), stop);
        let cpu = || {
            members
                .iter()
                .map(|&p| stat(p).unwrap().cpu_ticks)
                .sum::<u64>()
        };
        let before = cpu();
        if stop {
            std::thread::sleep(Duration::from_millis(300));
            let spent = cpu() - before;
            assert!(spent <= 2, "a stopped group used {spent} ticks");
        } else {
            // However busy the machine, a running spinner gets CPU time.
            assert!(wait_until(Duration::from_secs(30), || cpu() - before >= 5), "the spinner should run");
        }
        // Resumed for the next move, and stopped again after it.
        assert_eq!(bot.ask("again\n", ANSWER).await.unwrap().line, "again");
        let remains = Remains::of(&bot);
        drop(bot);
        remains.assert_none();
    }
}

#[tokio::test]
async fn stderr_is_captured_per_move_and_bounded() {
    let limits = SandboxLimits {
        stderr_lines_max: 100,
        stderr_line_bytes_max: 64,
        ..limits()
    };
    let mut bot = ProcessBot::spawn(&c_bot("echo"), &limits).unwrap();
    assert_eq!(bot.ask("stderr 3 10\n", ANSWER).await.unwrap().line, "ok");
    let taken = bot.take_stderr();
    assert_eq!(taken.lines, vec!["e".repeat(10); 3]);
    assert_eq!((taken.dropped_lines, taken.truncated_lines), (0, 0));
    // 5000 lines of 1000 bytes: the bot is never blocked (the background
    // reader drains the pipe), and the runner keeps the last 100, cut.
    assert_eq!(
        bot.ask("stderr 5000 1000\n", ANSWER).await.unwrap().line,
        "ok"
    );
    let taken = bot.take_stderr();
    assert_eq!(taken.lines, vec!["e".repeat(64); 100]);
    assert_eq!((taken.dropped_lines, taken.truncated_lines), (4900, 100));
    assert_eq!(bot.take_stderr(), Default::default());
    end(bot);
}

#[tokio::test]
async fn faults_carry_the_reason_and_the_exact_bytes() {
    let mut bot = ProcessBot::spawn(&c_bot("echo"), &limits()).unwrap();
    let fault = bot.ask("exit 7\n", ANSWER).await.unwrap_err();
    assert_eq!(fault.reason, FaultReason::Eof { exit_code: Some(7) });
    // A bot that failed answers nothing more.
    assert_eq!(
        bot.ask("ping\n", ANSWER).await.unwrap_err().reason,
        FaultReason::Gone
    );

    let cases: [(&str, FaultReason, &[u8]); 3] = [
        (
            "read x; printf half",
            FaultReason::Eof { exit_code: Some(0) },
            b"half",
        ),
        (r"read x; printf '\377\n'", FaultReason::NotUtf8, b"\xff\n"),
        (
            "read x; printf 'up'; kill -SEGV $$",
            FaultReason::Crash {
                signal: libc::SIGSEGV,
            },
            b"up",
        ),
    ];
    for (script, reason, bytes) in cases {
        let mut bot = ProcessBot::spawn(&BotCommand::shell(script), &limits()).unwrap();
        let fault = bot.ask("go\n", ANSWER).await.unwrap_err();
        assert_eq!(
            (&fault.reason, fault.received.as_bytes()),
            (&reason, bytes),
            "{script}"
        );
        let remains = Remains::of(&bot);
        drop(bot);
        remains.assert_none();
    }
    // The limit counts the line without its newline.
    let small = SandboxLimits {
        answer_bytes_max: 8,
        ..limits()
    };
    let mut bot = ProcessBot::spawn(
        &BotCommand::shell("read x; echo 12345678; read x; echo 123456789"),
        &small,
    )
    .unwrap();
    assert_eq!(bot.ask("go\n", ANSWER).await.unwrap().line, "12345678");
    let fault = bot.ask("go\n", ANSWER).await.unwrap_err();
    assert_eq!(
        (fault.reason, fault.received.as_bytes()),
        (
            FaultReason::TooLong {
                answer_bytes_max: 8
            },
            &b"123456789"[..]
        )
    );
}

/// What one bot of an `ask_all` batch must give: its answer line, or the
/// fault's reason and exact bytes.
type Expected = Result<&'static str, (FaultReason, Vec<u8>)>;

/// Spinning while the answers come never outlives a deadline: with a spin
/// time far longer than the deadline, a silent bot still times out at its
/// deadline, and a quick one beside it answers.
#[tokio::test]
async fn ask_all_spin_keeps_the_deadlines() {
    let spinning = SandboxLimits {
        answer_spin_max_us: 10_000_000,
        ..limits()
    };
    let deadline = Duration::from_millis(300);
    let mut quick = ProcessBot::spawn(&c_bot("echo"), &spinning).unwrap();
    let mut silent = ProcessBot::spawn(&c_bot("silent"), &spinning).unwrap();
    let mut asks = vec![
        Ask {
            bot: &mut quick,
            request: "ping 1\n",
            deadline,
        },
        Ask {
            bot: &mut silent,
            request: "go\n",
            deadline,
        },
    ];
    let results = ProcessBot::ask_all(&mut asks);
    assert_eq!(results[0].as_ref().unwrap().line, "ping 1");
    let fault = results[1].as_ref().unwrap_err();
    assert_eq!(fault.reason, FaultReason::Timeout { deadline });
    // Never before the deadline; how long after it depends on the machine.
    assert!(fault.elapsed >= deadline, "{fault}");
    drop(asks);
    assert_eq!(quick.ask("ping 2\n", ANSWER).await.unwrap().line, "ping 2");
}

/// `ask_all` asks many bots at once from one thread and gives, for each,
/// what `ask` gives for the same exchange: the answers of good bots, every
/// kind of fault with its exact bytes, a stderr flood drained while the
/// others are waited for, and output between two moves seen at the next.
/// A bot that times out holds up nobody else's answer.
#[tokio::test]
async fn ask_all_reports_each_bot_as_ask_does() {
    let mut witness = Witness::spawn();
    let plain = limits();
    let small = SandboxLimits {
        answer_bytes_max: 8,
        ..limits()
    };
    let stderr_limits = SandboxLimits {
        stderr_lines_max: 100,
        stderr_line_bytes_max: 64,
        ..limits()
    };
    let silent_deadline = Duration::from_secs(2);
    let shell = |script: &str| BotCommand::shell(script);
    let cases: Vec<(BotCommand, &SandboxLimits, &str, Duration, Expected)> = vec![
        (c_bot("echo"), &plain, "ping 1\n", ANSWER, Ok("ping 1")),
        (
            c_bot("echo"),
            &stderr_limits,
            "stderr 5000 1000\n",
            ANSWER,
            Ok("ok"),
        ),
        (
            c_bot("echo"),
            &plain,
            "exit 7\n",
            ANSWER,
            Err((FaultReason::Eof { exit_code: Some(7) }, vec![])),
        ),
        (
            shell("read x; printf half"),
            &plain,
            "go\n",
            ANSWER,
            Err((FaultReason::Eof { exit_code: Some(0) }, b"half".to_vec())),
        ),
        (
            shell(r"read x; printf '\377\n'"),
            &plain,
            "go\n",
            ANSWER,
            Err((FaultReason::NotUtf8, b"\xff\n".to_vec())),
        ),
        (
            shell("read x; printf 'up'; kill -SEGV $$"),
            &plain,
            "go\n",
            ANSWER,
            Err((
                FaultReason::Crash {
                    signal: libc::SIGSEGV,
                },
                b"up".to_vec(),
            )),
        ),
        (
            shell("read x; echo 123456789"),
            &small,
            "go\n",
            ANSWER,
            Err((
                FaultReason::TooLong {
                    answer_bytes_max: 8,
                },
                b"123456789".to_vec(),
            )),
        ),
        (
            c_bot("flood").arg("bytes"),
            &plain,
            "go\n",
            ANSWER,
            Err((
                FaultReason::TooLong {
                    answer_bytes_max: 4096,
                },
                vec![b'x'; 4097],
            )),
        ),
        (
            c_bot("silent"),
            &plain,
            "go\n",
            silent_deadline,
            Err((
                FaultReason::Timeout {
                    deadline: silent_deadline,
                },
                vec![],
            )),
        ),
    ];
    let mut bots: Vec<ProcessBot> = cases
        .iter()
        .map(|(cmd, limits, ..)| ProcessBot::spawn(cmd, limits).unwrap())
        .collect();
    let remains: Vec<Remains> = bots.iter().map(Remains::of).collect();
    let mut asks: Vec<Ask<'_>> = bots
        .iter_mut()
        .zip(&cases)
        .map(|(bot, (_, _, request, deadline, _))| Ask {
            bot,
            request,
            deadline: *deadline,
        })
        .collect();
    let results = ProcessBot::ask_all(&mut asks);
    drop(asks);
    for (result, (cmd, _, request, _, expected)) in results.iter().zip(&cases) {
        let got = match result {
            Ok(reply) => Ok(reply.line.as_str()),
            Err(fault) => Err((fault.reason.clone(), fault.received.as_bytes().to_vec())),
        };
        assert_eq!(&got, expected, "{cmd:?} asked {request:?}");
    }
    let timeout = results.last().unwrap().as_ref().unwrap_err();
    assert!(timeout.elapsed >= silent_deadline, "{timeout}");
    let taken = bots[1].take_stderr();
    assert_eq!(taken.lines, vec!["e".repeat(64); 100]);
    assert_eq!((taken.dropped_lines, taken.truncated_lines), (4900, 100));
    witness.check().await;

    // The second round: the good bots answer again, every failed one is
    // gone, and output written after an answer is seen at the next move.
    let mut flooder = ProcessBot::spawn(&c_bot("flood").arg("lines"), &limits()).unwrap();
    let first = ProcessBot::ask_all(&mut [Ask {
        bot: &mut flooder,
        request: "go\n",
        deadline: ANSWER,
    }]);
    let mut asks: Vec<Ask<'_>> = bots
        .iter_mut()
        .chain([&mut flooder])
        .map(|bot| Ask {
            bot,
            request: "ping 2\n",
            deadline: ANSWER,
        })
        .collect();
    let results = ProcessBot::ask_all(&mut asks);
    drop(asks);
    assert_eq!(results[0].as_ref().unwrap().line, "ping 2");
    assert_eq!(results[1].as_ref().unwrap().line, "ping 2");
    for failed in &results[2..cases.len()] {
        assert_eq!(failed.as_ref().unwrap_err().reason, FaultReason::Gone);
    }
    let flooded = match &first[0] {
        Ok(reply) => {
            assert_eq!(reply.line, "up");
            results[cases.len()].as_ref().unwrap_err()
        }
        Err(fault) => fault,
    };
    assert_eq!(flooded.reason, FaultReason::Unsolicited);
    assert!(
        flooded.received.as_bytes().starts_with(b"up\n"),
        "{flooded}"
    );
    let flooder_remains = Remains::of(&flooder);
    drop((bots, flooder));
    for r in remains.iter().chain([&flooder_remains]) {
        r.assert_none();
    }
    witness.check().await;
}

/// A bot stopped between moves is resumed for its move by `ask_all` and
/// stopped again after it, with everything it forked.
#[tokio::test]
async fn ask_all_resumes_and_stops_bots_stopped_between_moves() {
    let stopped = SandboxLimits {
        stop_between_moves: true,
        ..limits()
    };
    let mut bots: Vec<ProcessBot> = (0..2)
        .map(|_| ProcessBot::spawn(&c_bot("echo"), &stopped).unwrap())
        .collect();
    let ask_each = |bots: &mut Vec<ProcessBot>, request: &'static str| {
        let mut asks: Vec<Ask<'_>> = bots
            .iter_mut()
            .map(|bot| Ask {
                bot,
                request,
                deadline: ANSWER,
            })
            .collect();
        ProcessBot::ask_all(&mut asks)
            .into_iter()
            .map(|r| r.unwrap().line)
            .collect::<Vec<_>>()
    };
    assert_eq!(ask_each(&mut bots, "spin\n"), ["ok", "ok"]);
    for bot in &bots {
        // The bot and the child that spins forever.
        let members = group_alive(bot.pid());
        assert_eq!(members.len(), 2, "{members:?}");
        assert!(wait_until(Duration::from_secs(30), || members
            .iter()
            .all(|&p| stat(p).unwrap().state == 'T')));
    }
    assert_eq!(ask_each(&mut bots, "again\n"), ["again", "again"]);
    let remains: Vec<Remains> = bots.iter().map(Remains::of).collect();
    drop(bots);
    for r in &remains {
        r.assert_none();
    }
}

/// Bots started from several threads at once all start: a child forked by
/// one thread briefly holds another bot's freshly copied executable open,
/// and exec must wait for it rather than fail with "text file busy".
#[test]
fn parallel_spawns_all_start() {
    let threads: Vec<_> = (0..4)
        .map(|t| {
            std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap();
                let _entered = rt.enter();
                for i in 0..8 {
                    let mut bot = ProcessBot::spawn(&c_bot("echo"), &limits())
                        .unwrap_or_else(|e| panic!("thread {t} bot {i}: {e}"));
                    let request = format!("hello {t} {i}\n");
                    let reply = rt.block_on(bot.ask(&request, ANSWER)).unwrap();
                    assert_eq!(reply.line, request.trim_end());
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
}

/// A uid that a process of the machine holds (another runner's bot, say)
/// is never leased: the bot gets the next free one of its range, a range
/// with none free refuses the start, and the uid is leased again once its
/// process is gone.
#[tokio::test]
async fn a_uid_held_by_a_process_of_the_machine_is_not_leased() {
    if !available("uid held elsewhere", LayerSet::ALL) {
        return;
    }
    // A range of this test's own, away from the default one.
    let first = 1_700_000_000 + std::process::id() % 100_000 * 4;
    let mut holder = std::process::Command::new("sleep").arg("60").uid(first).gid(first).spawn().unwrap();
    let two = SandboxLimits { uid_first: first, uid_count: 2, ..limits() };
    let one = SandboxLimits { uid_first: first, uid_count: 1, ..limits() };
    let mut bot = ProcessBot::spawn(&c_bot("echo"), &two).unwrap();
    assert_eq!(bot.uid(), Some(first + 1));
    assert_eq!(bot.ask("up\n", ANSWER).await.unwrap().line, "up");
    let refused = ProcessBot::spawn(&c_bot("echo"), &one).unwrap_err();
    assert!(matches!(refused, SpawnError::NoFreeUid), "{refused}");
    holder.kill().unwrap();
    holder.wait().unwrap();
    let again = ProcessBot::spawn(&c_bot("echo"), &one).unwrap();
    assert_eq!(again.uid(), Some(first));
    bot.kill();
    again.kill();
}

#[tokio::test]
async fn spawn_errors_name_the_program_or_the_layer() {
    let missing =
        ProcessBot::spawn(&BotCommand::new("no-such-program-here"), &limits()).unwrap_err();
    assert!(matches!(missing, SpawnError::Exec { .. }), "{missing}");
    // The errno of the failed exec reaches the runner, also when the bot
    // execs by itself under a PID namespace.
    match &missing {
        SpawnError::Exec { source, .. } => assert_eq!(source.raw_os_error(), Some(libc::ENOENT), "{missing}"),
        other => panic!("{other}"),
    }
    assert!(
        missing.to_string().contains("no-such-program-here"),
        "{missing}"
    );
    // More open files than the kernel allows (fs.nr_open): setrlimit
    // fails in the child, and the error names the layer.
    let too_many = SandboxLimits {
        open_files_max: Some(1 << 40),
        ..limits()
    };
    let failed = ProcessBot::spawn(&c_bot("echo"), &too_many).unwrap_err();
    assert!(
        matches!(
            failed,
            SpawnError::Sandbox {
                layer: Layer::Rlimits,
                ..
            }
        ),
        "{failed}"
    );
}

#[tokio::test]
async fn drop_kill_and_panic_leave_no_process_behind() {
    // Drop, with a child process in the group.
    let mut bot = ProcessBot::spawn(&c_bot("echo"), &limits()).unwrap();
    assert_eq!(bot.ask("spin\n", ANSWER).await.unwrap().line, "ok");
    let remains = Remains::of(&bot);
    assert!(remains.folder.is_dir());
    drop(bot);
    remains.assert_none();

    // A panic in the task that owns the bot.
    let (tx, rx) = std::sync::mpsc::channel();
    let owner = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let mut bot = ProcessBot::spawn(&c_bot("echo"), &limits()).unwrap();
            bot.ask("spin\n", ANSWER).await.unwrap();
            tx.send(Remains::of(&bot)).unwrap();
            panic!("the arena crashed");
        })
    });
    assert!(owner.join().is_err());
    rx.recv().unwrap().assert_none();
}

/// The bot's own namespaces of `kinds` that this process holds a handle
/// on, as `/proc` names them (`mnt:[4026532301]`).
fn held_namespaces(kinds: &[&str]) -> Vec<String> {
    let mut held: Vec<String> = fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|e| fs::read_link(e.ok()?.path()).ok())
        .map(|target| target.to_string_lossy().into_owned())
        .filter(|t| kinds.iter().any(|k| t.starts_with(&format!("{k}:["))))
        .collect();
    held.sort();
    held
}

/// A bot killed as a match kills one whose snake died: every process dies
/// at once, but its folder and its own mount and network namespaces stay
/// until the match lets them go, so that their teardown does not fall on
/// the next turns; then nothing is left.
#[tokio::test]
async fn a_killed_bots_remains_stay_until_released() {
    let layers: LayerSet = [Layer::FolderQuota, Layer::NetworkNamespace].into_iter().collect();
    if !available("a_killed_bots_remains_stay_until_released", layers) {
        return;
    }
    let kinds = ["mnt", "net"];
    let mut bot = ProcessBot::spawn(&c_bot("echo"), &limits()).unwrap();
    assert_eq!(bot.ask("spin\n", ANSWER).await.unwrap().line, "ok");
    let remains = Remains::of(&bot);
    let mut own: Vec<String> = kinds
        .iter()
        .map(|k| {
            let ns = fs::read_link(format!("/proc/{}/ns/{k}", bot.pid())).unwrap();
            assert_ne!(ns, fs::read_link(format!("/proc/self/ns/{k}")).unwrap(), "a {k} namespace of its own");
            ns.to_string_lossy().into_owned()
        })
        .collect();
    own.sort();

    let killed = bot.kill_keeping_remains();
    assert!(
        wait_until(Duration::from_secs(30), || group_alive(remains.pid).is_empty()),
        "every process is killed at once"
    );
    if let Some(uid) = remains.uid {
        assert!(wait_until(Duration::from_secs(30), || uid_alive(uid).is_empty()));
    }
    // Long enough for the reaper thread to have removed it, had it been
    // handed the bot.
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(killed.folder(), remains.folder);
    assert!(remains.folder.is_dir(), "the folder stays");
    let held = held_namespaces(&kinds);
    assert!(own.iter().all(|ns| held.contains(ns)), "{own:?} held in {held:?}");

    let reaping = killed.release();
    assert!(reaping.wait_until(Instant::now() + Duration::from_secs(30)));
    remains.assert_none();
    let held = held_namespaces(&kinds);
    assert!(own.iter().all(|ns| !held.contains(ns)), "{own:?} let go, yet {held:?}");
    runner_is_fine();
}

#[tokio::test]
async fn hostile_fork_bomb_is_contained() {
    if !available(
        "fork bomb",
        LayerSet::NONE
            .with(Layer::Rlimits)
            .with(Layer::DedicatedUid),
    ) {
        return;
    }
    let mut witness = Witness::spawn();
    witness.check().await;
    let mut bomb = ProcessBot::spawn(&c_bot("fork_bomb"), &limits()).unwrap();
    let reply = bomb.ask("go\n", ANSWER).await.unwrap();
    // RLIMIT_NPROC for its own uid: 16 processes in all.
    assert!(reply.line.starts_with("contained after"), "{}", reply.line);
    let uid = bomb.uid().unwrap();
    let count = uid_alive(uid).len();
    assert!((2..=16).contains(&count), "{count} processes");
    // Stopped between moves, the bomb's processes use no CPU; the witness
    // plays on.
    witness.check().await;
    let remains = Remains::of(&bomb);
    drop(bomb);
    remains.assert_none();
    witness.check().await;
    runner_is_fine();
}

#[tokio::test]
async fn hostile_10_gb_allocation_is_refused() {
    if !available("10 GB allocation", LayerSet::NONE.with(Layer::Rlimits)) {
        return;
    }
    let mut witness = Witness::spawn();
    let mut bot = ProcessBot::spawn(&c_bot("alloc_10g"), &limits()).unwrap();
    let fault = bot.ask("go\n", ANSWER).await.unwrap_err();
    assert_eq!(fault.reason, FaultReason::Eof { exit_code: Some(3) });
    assert_eq!(bot.take_stderr().lines, ["malloc of 10 GiB failed"]);
    witness.check().await;
    let remains = Remains::of(&bot);
    drop(bot);
    remains.assert_none();
    runner_is_fine();
}

#[tokio::test]
async fn hostile_endless_loop_hits_the_cpu_limit() {
    if !available("endless loop", LayerSet::NONE.with(Layer::Rlimits)) {
        return;
    }
    let mut witness = Witness::spawn();
    let mut bot = ProcessBot::spawn(
        &c_bot("cpu_loop"),
        &SandboxLimits {
            cpu_seconds_max: Some(1),
            ..limits()
        },
    )
    .unwrap();
    let fault = bot.ask("go\n", Duration::from_secs(20)).await.unwrap_err();
    // SIGXCPU after one second of CPU, long before the deadline.
    assert_eq!(
        fault.reason,
        FaultReason::Crash {
            signal: libc::SIGXCPU
        }
    );
    witness.check().await;
    let remains = Remains::of(&bot);
    drop(bot);
    remains.assert_none();
}

#[tokio::test]
async fn hostile_stdout_flood_is_cut_at_the_answer_limit() {
    let mut witness = Witness::spawn();
    // One endless line: read up to the limit plus one byte, then killed.
    let mut bot = ProcessBot::spawn(&c_bot("flood").arg("bytes"), &limits()).unwrap();
    let fault = bot.ask("go\n", ANSWER).await.unwrap_err();
    assert_eq!(
        fault.reason,
        FaultReason::TooLong {
            answer_bytes_max: 4096
        }
    );
    assert_eq!(fault.received.as_bytes(), vec![b'x'; 4097]);
    assert!(fault.to_string().contains("(4097 bytes)"), "{fault}");
    let remains = Remains::of(&bot);
    drop(bot);
    remains.assert_none();

    // Many valid lines: the second line is output nobody asked for, seen
    // in the same move or at the start of the next.
    let mut bot = ProcessBot::spawn(&c_bot("flood").arg("lines"), &limits()).unwrap();
    let fault = match bot.ask("go\n", ANSWER).await {
        Ok(reply) => {
            assert_eq!(reply.line, "up");
            bot.ask("go\n", ANSWER).await.unwrap_err()
        }
        Err(fault) => fault,
    };
    assert_eq!(fault.reason, FaultReason::Unsolicited);
    assert!(fault.received.as_bytes().starts_with(b"up\n"), "{fault}");
    let remains = Remains::of(&bot);
    drop(bot);
    remains.assert_none();
    witness.check().await;
}

#[tokio::test]
async fn hostile_silent_bot_times_out() {
    let mut witness = Witness::spawn();
    let mut bot = ProcessBot::spawn(&c_bot("silent"), &limits()).unwrap();
    let deadline = Duration::from_millis(300);
    let fault = bot.ask("go\n", deadline).await.unwrap_err();
    assert_eq!(fault.reason, FaultReason::Timeout { deadline });
    // Never before the deadline; how long after it depends on the machine.
    assert!(fault.elapsed >= deadline, "{fault}");
    assert!(fault.received.is_empty());
    // Killed at once, not at drop.
    assert!(wait_until(Duration::from_secs(30), || group_alive(
        bot.pid()
    )
    .is_empty()));
    assert_eq!(
        bot.ask("go\n", deadline).await.unwrap_err().reason,
        FaultReason::Gone
    );
    witness.check().await;

    // The caller gives up on a move (drops the future): the bot is
    // abandoned, and killed at the next call.
    let mut bot = ProcessBot::spawn(&c_bot("silent"), &limits()).unwrap();
    let cancelled = tokio::time::timeout(Duration::from_millis(100), bot.ask("go\n", ANSWER)).await;
    assert!(cancelled.is_err());
    assert_eq!(
        bot.ask("go\n", ANSWER).await.unwrap_err().reason,
        FaultReason::Gone
    );
    assert!(group_alive(bot.pid()).is_empty());
    witness.check().await;
}

/// Each network layer alone refuses the connection; the listener on
/// loopback never sees one. Without any layer the same probe connects,
/// which shows the probe works.
#[tokio::test]
async fn hostile_loopback_connection_is_refused() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let mut witness = Witness::spawn();
    let variants = [
        LayerSet::ALL,
        LayerSet::NONE.with(Layer::NetworkNamespace),
        LayerSet::NONE.with(Layer::Seccomp),
        LayerSet::NONE.with(Layer::Landlock),
    ];
    for layers in variants {
        if !available(&format!("loopback connection with {layers}"), layers) {
            continue;
        }
        let mut bot = ProcessBot::spawn(&c_bot("net_probe"), &limits_with(layers)).unwrap();
        let reply = bot.ask(&format!("connect {port}\n"), ANSWER).await.unwrap();
        assert!(
            reply.line.starts_with("blocked"),
            "{layers}: {}",
            reply.line
        );
        eprintln!("loopback connection with {layers}: {}", reply.line);
        end(bot);
    }
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(
        listener.accept().unwrap_err().kind(),
        ErrorKind::WouldBlock,
        "a bot connected"
    );
    witness.check().await;

    let control = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = control.local_addr().unwrap().port();
    let mut bot = ProcessBot::spawn(&c_bot("net_probe"), &limits_with(LayerSet::NONE)).unwrap();
    assert_eq!(
        bot.ask(&format!("connect {port}\n"), ANSWER)
            .await
            .unwrap()
            .line,
        "connected"
    );
    assert!(control.accept().is_ok());
    end(bot);
}

/// Landlock alone and the dedicated uid alone each keep a bot out of
/// another bot's folder; without either, the same probe reads it.
#[tokio::test]
async fn hostile_read_of_another_bots_folder_fails() {
    let secret = tempfile::tempdir().unwrap();
    fs::write(secret.path().join("secret.txt"), "the other bot's code\n").unwrap();
    let mut victim = ProcessBot::spawn(
        &c_bot("echo").file(secret.path().join("secret.txt")),
        &limits(),
    )
    .unwrap();
    let target = victim.folder().join("secret.txt");
    let variants = [
        LayerSet::ALL,
        LayerSet::NONE.with(Layer::Landlock),
        LayerSet::NONE.with(Layer::DedicatedUid),
    ];
    for layers in variants {
        if !available(&format!("read another folder with {layers}"), layers) {
            continue;
        }
        let mut bot = ProcessBot::spawn(&c_bot("fs_probe"), &limits_with(layers)).unwrap();
        let read = bot
            .ask(&format!("read {}\n", target.display()), ANSWER)
            .await
            .unwrap()
            .line;
        let list = bot
            .ask(&format!("list {}\n", victim.folder().display()), ANSWER)
            .await
            .unwrap()
            .line;
        let layers = bot.layers();
        assert!(refused(&read, layers), "{layers}: {read}");
        assert!(refused(&list, layers), "{layers}: {list}");
        // Its own folder and the system paths stay readable.
        assert!(
            bot.ask("list .\n", ANSWER)
                .await
                .unwrap()
                .line
                .starts_with("listed")
        );
        assert!(
            bot.ask("read /etc/passwd\n", ANSWER)
                .await
                .unwrap()
                .line
                .starts_with("read root:")
        );
        end(bot);
    }
    let mut bot = ProcessBot::spawn(&c_bot("fs_probe"), &limits_with(LayerSet::NONE)).unwrap();
    let read = bot
        .ask(&format!("read {}\n", target.display()), ANSWER)
        .await
        .unwrap()
        .line;
    assert_eq!(read, "read the other bot's code");
    assert_eq!(victim.ask("ping\n", ANSWER).await.unwrap().line, "ping");
    end(bot);
    end(victim);
}

/// Landlock keeps writes in the bot's folder; the dedicated uid alone only
/// keeps the bot out of other bots' folders (it can still write to /tmp,
/// which is world-writable).
#[tokio::test]
async fn hostile_write_outside_its_folder_fails() {
    let mut victim = ProcessBot::spawn(&c_bot("echo"), &limits()).unwrap();
    let variants = [
        LayerSet::ALL,
        LayerSet::NONE.with(Layer::Landlock),
        LayerSet::NONE.with(Layer::DedicatedUid),
    ];
    for (i, layers) in variants.into_iter().enumerate() {
        if !available(&format!("write outside with {layers}"), layers) {
            continue;
        }
        let mut bot = ProcessBot::spawn(&c_bot("fs_probe"), &limits_with(layers)).unwrap();
        let planted = victim.folder().join(format!("planted-{i}"));
        let reply = bot
            .ask(&format!("write {}\n", planted.display()), ANSWER)
            .await
            .unwrap()
            .line;
        assert!(refused(&reply, bot.layers()), "{layers}: {reply}");
        assert!(!planted.exists());
        // A minimal root has a /tmp of the bot's own, which it may write.
        if layers.contains(Layer::Landlock) && !bot.layers().contains(Layer::MinimalRoot) {
            let escape =
                std::env::temp_dir().join(format!("snakepit-escape-{}-{i}", std::process::id()));
            let reply = bot
                .ask(&format!("write {}\n", escape.display()), ANSWER)
                .await
                .unwrap()
                .line;
            assert!(refused(&reply, bot.layers()), "{layers}: {reply}");
            assert!(!escape.exists());
        }
        assert_eq!(
            bot.ask("write mine.txt\n", ANSWER).await.unwrap().line,
            "wrote"
        );
        assert_eq!(
            bot.ask("read mine.txt\n", ANSWER).await.unwrap().line,
            "read escaped"
        );
        // Under the folder quota the bot's writes stay in its own mount
        // namespace; otherwise they are in the folder the runner made.
        assert_eq!(
            fs::read_to_string(bot.folder().join("mine.txt")).is_ok(),
            !bot.layers().contains(Layer::FolderQuota),
            "{layers}"
        );
        end(bot);
    }
    assert_eq!(victim.ask("ping\n", ANSWER).await.unwrap().line, "ping");
    end(victim);
}

/// A bot that fills its folder with empty files, and then with bytes, is
/// stopped by its folder quota (`RLIMIT_FSIZE` bounds each file, not how
/// many there are); nothing it wrote reaches the runner's disk, it plays
/// on, and the next bot has its whole quota.
#[tokio::test]
async fn hostile_disk_filler_is_bounded_by_the_folder_quota() {
    if !available("disk filler", LayerSet::NONE.with(Layer::FolderQuota)) {
        return;
    }
    let limits = SandboxLimits {
        folder_files_max: 200,
        folder_bytes_max: 4 * MIB,
        ..limits()
    };
    // Files of 1 MiB, the most `limits()` allows in one file.
    let filler = BotCommand::shell(
        "read x; n=0; while [ $n -lt 100000 ] && true >f$n 2>/dev/null; do n=$((n+1)); done; echo files $n; \
         read x; rm -f f*; m=0; while [ $m -lt 1000 ] && head -c 1048576 /dev/zero >b$m 2>/dev/null; do m=$((m+1)); done; \
         echo mib $m; read x; echo alive",
    );
    let mut bot = ProcessBot::spawn(&filler, &limits).unwrap();
    let long = Duration::from_secs(60);
    let files = bot.ask("go\n", long).await.unwrap().line;
    let files: u64 = files.strip_prefix("files ").unwrap().parse().unwrap();
    assert!((190..=200).contains(&files), "{files} files made");
    let mib = bot.ask("go\n", long).await.unwrap().line;
    // The fourth MiB does not fit whole (the quota counts the folders too).
    assert!(mib == "mib 3" || mib == "mib 4", "{mib}");
    assert_eq!(bot.ask("go\n", ANSWER).await.unwrap().line, "alive");
    let seen: Vec<_> = fs::read_dir(bot.folder()).unwrap().collect();
    assert!(seen.is_empty(), "the runner sees {} of the bot's files", seen.len());
    end(bot);

    let next = BotCommand::shell("read x; head -c 1048576 /dev/zero >b && ls | wc -l");
    let mut next = ProcessBot::spawn(&next, &limits).unwrap();
    assert_eq!(next.ask("go\n", long).await.unwrap().line, "1");
}

/// A child that calls setsid() would leave the group (and escape SIGSTOP
/// and the group kill). Seccomp refuses the call; without seccomp, the
/// dedicated uid's kill still ends the escaped child.
#[tokio::test]
async fn hostile_group_escape_is_refused_or_still_killed() {
    let variants = [
        (LayerSet::ALL, "setsid denied 1"),
        (
            LayerSet::NONE
                .with(Layer::Rlimits)
                .with(Layer::DedicatedUid),
            "setsid ok",
        ),
    ];
    let credentials = runner_credentials();
    for (layers, expected) in variants {
        if !available(&format!("group escape with {layers}"), layers) {
            continue;
        }
        let mut bot = ProcessBot::spawn(&c_bot("escape"), &limits_with(layers)).unwrap();
        assert_eq!(bot.ask("go\n", ANSWER).await.unwrap().line, expected);
        let uid = bot.uid().unwrap();
        assert_eq!(uid_alive(uid).len(), 2);
        let remains = Remains::of(&bot);
        drop(bot);
        remains.assert_none();

        // The same, ended in the background, as a match does when a snake
        // dies: killed at once (the escaped process by the uid-wide kill),
        // reaped and removed a moment later.
        let mut bot = ProcessBot::spawn(&c_bot("escape"), &limits_with(layers)).unwrap();
        assert_eq!(bot.ask("go\n", ANSWER).await.unwrap().line, expected);
        let uid = bot.uid().unwrap();
        assert_eq!(uid_alive(uid).len(), 2);
        let remains = Remains::of(&bot);
        let reaping = bot.kill_in_background();
        assert!(
            wait_until(Duration::from_secs(30), || uid_alive(uid).is_empty()),
            "uid {uid} left"
        );
        assert!(reaping.wait_until(Instant::now() + Duration::from_secs(30)));
        assert!(reaping.is_done());
        remains.assert_none();
        assert_eq!(runner_credentials(), credentials);
        runner_is_fine();
    }
}

/// The runner thread's uids (real, effective, saved) and whether the
/// process is dumpable: the uid-wide kill, made from the runner's own
/// thread when it is root, must leave both as they were.
fn runner_credentials() -> ((u32, u32, u32), bool) {
    let ids = nix::unistd::getresuid().unwrap();
    (
        (
            ids.real.as_raw(),
            ids.effective.as_raw(),
            ids.saved.as_raw(),
        ),
        nix::sys::prctl::get_dumpable().unwrap(),
    )
}

