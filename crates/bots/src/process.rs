//! Bots as sandboxed child processes, talking lines over stdin and stdout.
//!
//! This is the transport under the stdio arenas (issue 7), independent of
//! any game: the caller writes a request (the arena's bytes, for example a
//! board of several lines) and gets back one answer line, or a
//! [`BotFault`] that names the reason and carries the exact bytes received.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! use snakepit_bots::process::{BotCommand, ProcessBot, SandboxLimits, SandboxReport};
//!
//! print!("{}", SandboxReport::cached()); // once, at start-up
//! let cmd = BotCommand::new("python3").arg("bot.py").file("uploads/alice/bot.py");
//! let mut bot = ProcessBot::spawn(&cmd, &SandboxLimits::default())?;
//! let reply = bot.ask("5 3\n.....\n..H..\n.....\n", Duration::from_secs(5)).await?;
//! let stderr = bot.take_stderr(); // record with the tick
//! # let _ = (reply, stderr);
//! # Ok(()) }
//! ```
//!
//! [`ProcessBot::ask_all`] does the same for several bots at once, waiting
//! for all of them in one poll(2) on the calling thread; a game turn, which
//! needs every answer before it goes on, uses it.
//!
//! **Invariant:** no bot process outlives its [`ProcessBot`]. Dropping it
//! (also during a panic) sends SIGKILL to the whole process group, and to
//! every process of the bot's uid, before the drop returns; if the runner
//! itself dies, the kernel sends the bot SIGKILL (`PR_SET_PDEATHSIG`).
//!
//! **Invariant:** dropping a bot never blocks: the reaping of the main
//! process, the removal of the folder (which the bot may have filled with
//! many files) and the end of its uid's lease go to a background thread, a
//! moment later. [`ProcessBot::kill_in_background`] does the same and
//! returns a [`Reaping`] to wait for that end; [`ProcessBot::kill`] does it
//! all on the calling thread and returns the exit status.
//!
//! **Invariant:** the runner never waits for a bot without a deadline, and
//! never buffers more than the limits: one answer line of at most
//! `answer_bytes_max` bytes, and `stderr_lines_max` stderr lines of at most
//! `stderr_line_bytes_max` bytes.
//!
//! **Invariant:** every fault ends the bot (its group is killed at once),
//! so an answer that arrives late, or a second line, can never be read as
//! the answer to a later request.
//!
//! Between moves the whole group is stopped with SIGSTOP (as CodeCarrots
//! does), so a bot cannot think in the background; start-up therefore
//! counts against the first move, whose deadline the caller makes longer.
//!
//! The sandbox has six independent [`Layer`]s, each applied where
//! [`SandboxReport`] found that the machine allows it: rlimits, a dedicated
//! uid when the runner is root, a network namespace, a folder quota (an
//! overlay on a tmpfs of the bot's own) when the runner is root, a seccomp
//! filter and landlock. Each bot runs in a fresh folder of its own, with an
//! environment of `PATH`, `HOME`, `TMPDIR`, `LANG` and `PYTHONUNBUFFERED`
//! only.
//!
//! [`ProcessBot::spawn`] is synchronous but must run inside a tokio runtime,
//! on a thread that lives as long as the bot (any runtime worker does; not
//! a `spawn_blocking` thread): Linux sends the parent-death signal when the
//! spawning *thread* exits.

mod batch;
mod cgroup;
mod command;
mod fault;
mod guard;
mod leftovers;
mod limits;
mod root;
mod sandbox;
mod stderr;
mod stock;
mod tree;

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use nix::sys::signal::Signal;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::unix::pipe;
use tokio::task::JoinHandle;

pub use batch::Ask;
pub use command::BotCommand;
pub use fault::{BotFault, FaultReason, Received, Reply, SpawnError, signal_name};
pub use limits::{Layer, LayerSet, SandboxLimits};
pub use sandbox::{LayerStatus, SandboxReport};
pub use stderr::StderrLines;

pub use guard::Reaping;
pub use leftovers::work_folder;
use guard::{Ended, GroupGuard};
use stderr::Stderr;

/// How long to wait, after stdout closed, for the process to exit so that
/// the fault can name its exit code or signal.
const EXIT_WAIT_MAX: Duration = Duration::from_millis(200);

/// How often the exit is checked during that wait.
const EXIT_POLL_INTERVAL: Duration = Duration::from_millis(1);

/// Unsolicited bytes kept for the fault report, at most.
const UNSOLICITED_BYTES_MAX: usize = 4096;

/// The most one read of an answer takes.
const READ_CHUNK_BYTES: usize = 4096;

/// A running bot program. See the [module documentation](self).
#[derive(Debug)]
pub struct ProcessBot {
    guard: GroupGuard,
    stdin: pipe::Sender,
    stdout: pipe::Receiver,
    stderr: Arc<Stderr>,
    stderr_task: JoinHandle<()>,
    /// The answer being read; kept between moves to reuse its memory.
    buf: Vec<u8>,
    answer_bytes_max: usize,
    stop_between_moves: bool,
    /// `SandboxLimits::answer_spin_max_us`.
    answer_spin_max: Duration,
    layers: LayerSet,
    gone: bool,
    /// Set while an ask runs: still set at the next ask means the caller
    /// dropped the previous one midway, and the bot's state is unknown.
    in_flight: bool,
    /// Set by [`ask_all`](Self::ask_all) when it saw the stderr pipe empty
    /// (or drained it) after the answer arrived, so the next
    /// [`take_stderr`](Self::take_stderr) has nothing to read first.
    stderr_drained: bool,
    /// Under [`Layer::Cgroup`]: the memory limit, named by the fault of a
    /// bot the kernel killed for it.
    memory_bytes_max: Option<u64>,
    /// Under [`Layer::Cgroup`]: the CPU time of all the bot's processes
    /// together, checked at a move's start once it may have been used up.
    cpu_budget: Option<CpuBudget>,
}

/// When the CPU time of a bot's group is read: all its processes together
/// cannot use more than the machine's CPUs times the time since its start,
/// so the group's counter (a file read) is read only once that product
/// reaches what the bot had left at the last reading.
#[derive(Debug)]
struct CpuBudget {
    seconds_max: u64,
    cpus: u32,
    /// Before this, the budget cannot be used up.
    next_check: Instant,
}

/// How one exchange failed, before the exit status is known.
enum Failure {
    Eof,
    TooLong,
    Unsolicited,
    Io(io::Error),
}

impl ProcessBot {
    /// Starts `spec` in a fresh folder, inside the sandbox of `limits`.
    /// With `stop_between_moves`, the bot is stopped at once and first runs
    /// during the first [`ask`](Self::ask).
    pub fn spawn(spec: &BotCommand, limits: &SandboxLimits) -> Result<ProcessBot, SpawnError> {
        if tokio::runtime::Handle::try_current().is_err() {
            return Err(SpawnError::NoRuntime);
        }
        let mut launched = sandbox::launch(spec, limits, SandboxReport::cached())?;
        let pipes = (
            launched.child.stdin.take(),
            launched.child.stdout.take(),
            launched.child.stderr.take(),
        );
        // From here on the guard kills the child if anything fails.
        let mut guard = GroupGuard::new(launched.child, launched.leader, launched.uid, launched.folder, launched.cgroup);
        let has = |layer| launched.layers.contains(layer);
        let held: Vec<&str> = [
            (has(Layer::FolderQuota) || has(Layer::MinimalRoot), "mnt"),
            (has(Layer::NetworkNamespace), "net"),
            (has(Layer::IpcNamespace), "ipc"),
            (has(Layer::IpcNamespace), "uts"),
        ]
        .into_iter()
        .filter(|&(held, _)| held)
            .map(|(_, kind)| kind)
            .collect();
        guard.hold_namespaces(&held);
        if limits.stop_between_moves {
            guard.signal_group(Signal::SIGSTOP);
        }
        let (Some(stdin), Some(stdout), Some(stderr)) = pipes else {
            return Err(SpawnError::Setup("the child's pipes are missing".into()));
        };
        let setup = |e: io::Error| SpawnError::Setup(format!("pipes: {e}"));
        let stdin = pipe::Sender::from_owned_fd(OwnedFd::from(stdin)).map_err(setup)?;
        let stdout = pipe::Receiver::from_owned_fd(OwnedFd::from(stdout)).map_err(setup)?;
        let stderr = pipe::Receiver::from_owned_fd(OwnedFd::from(stderr)).map_err(setup)?;
        let stderr = Stderr::new(
            stderr,
            limits.stderr_lines_max,
            limits.stderr_line_bytes_max,
        );
        let stderr_task = tokio::spawn(Arc::clone(&stderr).pump());
        Ok(ProcessBot {
            guard,
            stdin,
            stdout,
            stderr,
            stderr_task,
            buf: Vec::with_capacity(256),
            answer_bytes_max: limits.answer_bytes_max,
            stop_between_moves: limits.stop_between_moves,
            answer_spin_max: Duration::from_micros(limits.answer_spin_max_us),
            layers: launched.layers,
            gone: false,
            in_flight: false,
            stderr_drained: false,
            memory_bytes_max: has(Layer::Cgroup).then_some(limits.memory_bytes_max),
            cpu_budget: match (has(Layer::Cgroup), limits.cpu_seconds_max) {
                (true, Some(seconds_max)) => {
                    let cpus = runner_cpus();
                    let next_check = Instant::now() + Duration::from_secs(seconds_max) / cpus;
                    Some(CpuBudget { seconds_max, cpus, next_check })
                }
                _ => None,
            },
        })
    }

    /// Sends `request` (written as given: end it with `\n`) and reads one
    /// answer line, all within `deadline`. The group is resumed with
    /// SIGCONT first and stopped with SIGSTOP after the answer when
    /// `stop_between_moves` is set. On any fault the bot is killed, and
    /// every later call returns [`FaultReason::Gone`]. Dropping the
    /// returned future before it finishes abandons the bot in the same way:
    /// the next call kills it and returns `Gone`.
    pub async fn ask(&mut self, request: &str, deadline: Duration) -> Result<Reply, BotFault> {
        let started = Instant::now();
        if self.in_flight {
            // An answer may still be on its way; it must never be taken
            // for this request's.
            self.end();
        }
        if self.gone {
            return Err(self.fault(FaultReason::Gone, started));
        }
        if let Some(fault) = self.cpu_time_used_up(started) {
            return Err(fault);
        }
        self.buf.clear();
        self.in_flight = true;
        self.stderr_drained = false;
        let exchanged = tokio::time::timeout(deadline, self.exchange(request.as_bytes())).await;
        self.in_flight = false;
        let line_len = match exchanged {
            Ok(Ok(len)) => len,
            Ok(Err(failure)) => return Err(self.fail(failure, started, deadline).await),
            Err(_elapsed) => {
                self.end();
                return Err(self.fault(FaultReason::Timeout { deadline }, started));
            }
        };
        if self.stop_between_moves {
            self.guard.signal_group(Signal::SIGSTOP);
        }
        // Stderr is not drained here but in `take_stderr`, which saves a
        // system call per move; with the bot stopped, what it wrote before
        // answering is still attributed to this move.
        match std::str::from_utf8(&self.buf[..line_len]) {
            Ok(line) => Ok(Reply {
                line: line.to_string(),
                elapsed: started.elapsed(),
            }),
            Err(_) => {
                self.end();
                Err(self.fault(FaultReason::NotUtf8, started))
            }
        }
    }

    /// One request and its answer line, without the deadline; leaves the
    /// bytes received in `self.buf` and returns the line's length.
    async fn exchange(&mut self, request: &[u8]) -> Result<usize, Failure> {
        // Anything already waiting was written after the last answer.
        let mut early = [0u8; UNSOLICITED_BYTES_MAX];
        match read_now(&self.stdout, &mut early) {
            Ok(0) => return Err(Failure::Eof),
            Ok(n) => {
                self.buf.extend_from_slice(&early[..n]);
                return Err(Failure::Unsolicited);
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(Failure::Io(e)),
        }
        // Write what the pipe takes while the bot is still stopped, then
        // resume it: the bot wakes once, to a request already there.
        let written = match write_now(&self.stdin, request) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => 0,
            Err(e) => return Err(io_failure(e)),
        };
        if self.stop_between_moves {
            self.guard.signal_group(Signal::SIGCONT);
        }
        if written < request.len() {
            self.stdin
                .write_all(&request[written..])
                .await
                .map_err(io_failure)?;
        }
        let mut chunk = [0u8; READ_CHUNK_BYTES];
        loop {
            let want = self.read_room().min(chunk.len());
            let n = self
                .stdout
                .read(&mut chunk[..want])
                .await
                .map_err(io_failure)?;
            if let Some(done) = self.absorb(&chunk[..n]) {
                return done;
            }
        }
    }

    /// How many more bytes a read may take: up to one byte past the limit,
    /// so a line of exactly the limit still has room for its newline.
    fn read_room(&self) -> usize {
        (self.answer_bytes_max + 1).saturating_sub(self.buf.len())
    }

    /// Adds the bytes of one read (empty at the end of the stream) to the
    /// answer; `Some` once the exchange is decided: the line's length, or
    /// the failure.
    fn absorb(&mut self, read: &[u8]) -> Option<Result<usize, Failure>> {
        if read.is_empty() {
            return Some(Err(Failure::Eof));
        }
        let start = self.buf.len();
        self.buf.extend_from_slice(read);
        if let Some(i) = read.iter().position(|&b| b == b'\n') {
            if i + 1 < read.len() {
                return Some(Err(Failure::Unsolicited));
            }
            return Some(Ok(start + i));
        }
        if self.read_room() == 0 {
            return Some(Err(Failure::TooLong));
        }
        None
    }

    /// Turns a failure into a fault, with the exit status when the process
    /// ended, and ends the bot. Waits for the exit at most
    /// `EXIT_WAIT_MAX`, and never past the move's deadline.
    async fn fail(&mut self, failure: Failure, started: Instant, deadline: Duration) -> BotFault {
        let reason = match failure {
            Failure::Eof => {
                // The process usually exits right after closing stdout; a
                // stopped or lingering one is killed after a short wait.
                let until = exit_wait_until(started, deadline);
                loop {
                    match self.exit_reason() {
                        Some(reason) => break reason,
                        None if Instant::now() < until => {
                            tokio::time::sleep(EXIT_POLL_INTERVAL).await
                        }
                        None => break FaultReason::Eof { exit_code: None },
                    }
                }
            }
            other => self.reason(other),
        };
        self.end();
        self.fault(reason, started)
    }

    /// The reason of a failure, as far as known without waiting: an end of
    /// the stream that is not yet explained by an exit is `Eof` without a
    /// code.
    fn reason(&self, failure: Failure) -> FaultReason {
        match failure {
            Failure::TooLong => FaultReason::TooLong {
                answer_bytes_max: self.answer_bytes_max,
            },
            Failure::Unsolicited => FaultReason::Unsolicited,
            Failure::Io(e) => FaultReason::Io {
                kind: e.kind(),
                message: e.to_string(),
            },
            Failure::Eof => FaultReason::Eof { exit_code: None },
        }
    }

    /// How the main process ended, as a fault reason, if it has.
    fn exit_reason(&self) -> Option<FaultReason> {
        let end = self.guard.peek_end()?;
        if let (Ended::Signaled(libc::SIGKILL), Some(memory_bytes_max)) = (end, self.memory_bytes_max)
            && self.guard.cgroup().is_some_and(|c| c.oom_killed())
        {
            return Some(FaultReason::OutOfMemory { memory_bytes_max });
        }
        match end {
            Ended::Exited(code) => Some(FaultReason::Eof {
                exit_code: Some(code),
            }),
            Ended::Signaled(signal) => Some(FaultReason::Crash { signal }),
        }
    }

    /// Under [`Layer::Cgroup`], the folders of the bot's control group
    /// (one per hierarchy), removed once its processes are gone.
    pub fn cgroup_paths(&self) -> Vec<PathBuf> {
        self.guard.cgroup().map(|c| c.paths().to_vec()).unwrap_or_default()
    }

    /// The fault of a bot whose processes used up their CPU time together
    /// (which ends it), when they have; reads the group's counter only
    /// when the time since the start allows it.
    pub(crate) fn cpu_time_used_up(&mut self, started: Instant) -> Option<BotFault> {
        let budget = self.cpu_budget.as_mut()?;
        if started < budget.next_check {
            return None;
        }
        let limit = Duration::from_secs(budget.seconds_max);
        let used = self.guard.cgroup_mut()?.cpu_time()?;
        if used < limit {
            let budget = self.cpu_budget.as_mut()?;
            budget.next_check = started + (limit - used) / budget.cpus;
            return None;
        }
        let cpu_seconds_max = budget.seconds_max;
        self.end();
        Some(self.fault(FaultReason::CpuTime { cpu_seconds_max }, started))
    }

    fn fault(&self, reason: FaultReason, started: Instant) -> BotFault {
        BotFault {
            reason,
            received: Received(self.buf.clone()),
            elapsed: started.elapsed(),
        }
    }

    /// Kills the processes (keeping the folder and stderr until drop).
    fn end(&mut self) {
        self.gone = true;
        self.guard.kill();
        // The writers are gone now, so this reads the rest, a Python
        // traceback for instance, up to the end of the stream.
        self.stderr.drain_now();
    }

    /// The stderr lines written since the last call, for recording with
    /// the current tick. Also works after a fault, until the bot is dropped.
    /// After [`ask_all`](Self::ask_all), which watches stderr up to the
    /// answer, these are the lines written until the answer; a line written
    /// after it comes with the next call.
    pub fn take_stderr(&mut self) -> StderrLines {
        if !std::mem::take(&mut self.stderr_drained) {
            self.stderr.drain_now();
        }
        self.stderr.take()
    }

    /// The process id of the bot's main process (in the runner's PID
    /// namespace), which is also its process group id.
    pub fn pid(&self) -> u32 {
        self.guard.pid()
    }

    /// The bot's own folder (its working directory and `HOME`), as the
    /// runner sees it: what the runner put there. Under
    /// [`Layer::FolderQuota`] what the bot writes there stays in the bot's
    /// own mount namespace and is not seen here.
    pub fn folder(&self) -> &Path {
        self.guard.folder().unwrap_or(Path::new(""))
    }

    /// The bot's folder with what the bot wrote there, as the bot sees it
    /// (through `/proc/PID/root`, which enters the bot's own mount
    /// namespace): valid only while the bot's first process lives, and
    /// readable by a runner that may read that process's `/proc` entries
    /// (the same uid, or root).
    pub fn live_folder(&self) -> PathBuf {
        let folder = self.folder();
        Path::new("/proc").join(self.pid().to_string()).join("root").join(folder.strip_prefix("/").unwrap_or(folder))
    }

    /// The dedicated uid the bot runs as, if it has one.
    pub fn uid(&self) -> Option<u32> {
        self.guard.uid()
    }

    /// The sandbox layers applied to this bot.
    pub fn layers(&self) -> LayerSet {
        self.layers
    }

    /// Whether the bot had a fault or was killed.
    pub fn is_gone(&self) -> bool {
        self.gone
    }

    /// Kills every process of the bot at once and leaves the reaping of
    /// the main process, the removal of its folder and the end of its
    /// uid's lease to a background thread, as dropping it does, so that
    /// the caller (a game turn in which a snake died) does not wait for the
    /// kernel to tear the processes down. Every process of the bot has
    /// been sent SIGKILL when this returns; the folder goes a moment later,
    /// which the returned [`Reaping`] can wait for.
    pub fn kill_in_background(mut self) -> Reaping {
        self.gone = true;
        self.guard.reap_later()
    }

    /// Kills every process of the bot at once and keeps the rest of it
    /// (the folder, the namespaces, the uid's lease, the unreaped main
    /// process) until the returned [`KilledBot`] is let go: for a match,
    /// which tears its dead bots down between games instead of in the
    /// turns after their deaths (see `GroupGuard::hold_namespaces`).
    pub fn kill_keeping_remains(mut self) -> KilledBot {
        self.gone = true;
        self.guard.signal_kill();
        KilledBot(self)
    }

    /// Kills every process of the bot, reaps it and removes its folder,
    /// all before returning (a folder of many files takes a while: an
    /// async caller that need not wait drops the bot instead); returns how
    /// the main process ended, when known.
    pub fn kill(mut self) -> Option<std::process::ExitStatus> {
        self.gone = true;
        self.guard.finish_now()
    }
}

/// A bot whose processes were all sent SIGKILL, kept with its remains by
/// [`ProcessBot::kill_keeping_remains`]. Dropping it hands the remains to
/// the reaper thread, as dropping a [`ProcessBot`] does.
#[derive(Debug)]
pub struct KilledBot(ProcessBot);

impl KilledBot {
    /// Lets the remains go: the reaper thread reaps the main process, lets
    /// the namespaces go, removes the folder and ends the uid's lease; the
    /// returned [`Reaping`] tells when that is done.
    pub fn release(mut self) -> Reaping {
        self.0.guard.reap_later()
    }

    /// The bot's folder, which stays until the remains are released.
    pub fn folder(&self) -> &Path {
        self.0.folder()
    }
}

impl Drop for ProcessBot {
    fn drop(&mut self) {
        self.stderr_task.abort();
        // `guard` is dropped after this: it kills every process at once
        // and leaves the reaping and the folder to the reaper thread.
    }
}

/// The CPUs the runner may use, read once: the answer takes a few files
/// of `/proc` and the cgroup hierarchy, which a start need not read again.
fn runner_cpus() -> u32 {
    static CPUS: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *CPUS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u32))
}

/// One non-blocking read on the raw fd, bypassing tokio's cached readiness
/// (which may not know yet about bytes written a moment ago).
fn read_now(pipe: &pipe::Receiver, buf: &mut [u8]) -> io::Result<usize> {
    nix::unistd::read(pipe.as_fd(), buf).map_err(io::Error::from)
}

/// One non-blocking write on the raw fd.
fn write_now(pipe: &pipe::Sender, buf: &[u8]) -> io::Result<usize> {
    if buf.is_empty() {
        return Ok(0);
    }
    nix::unistd::write(pipe.as_fd(), buf).map_err(io::Error::from)
}

/// Until when to wait for the exit of a bot whose output ended, so that
/// the fault can name its exit code or signal: `EXIT_WAIT_MAX` at most,
/// and never past the move's deadline.
fn exit_wait_until(started: Instant, deadline: Duration) -> Instant {
    (Instant::now() + EXIT_WAIT_MAX).min(started + deadline)
}

/// A closed stdin (EPIPE) means the bot is gone, like a closed stdout.
fn io_failure(e: io::Error) -> Failure {
    match e.kind() {
        io::ErrorKind::BrokenPipe | io::ErrorKind::UnexpectedEof => Failure::Eof,
        _ => Failure::Io(e),
    }
}
