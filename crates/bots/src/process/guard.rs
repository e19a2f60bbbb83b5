//! The owner of a bot's processes: kills the whole group (and, with a
//! dedicated uid, every process of that uid) when dropped, including while
//! a panic unwinds, like rust-analyzer's `JodChild`.
//!
//! Dropping a guard never blocks: it sends SIGKILL to every process at
//! once and hands the rest (reaping the main process, removing the folder,
//! which may hold a great many files, and ending the uid's lease) to the
//! `snakepit-reaper` thread, so that an async worker that drops a bot is
//! not held up. Only [`GroupGuard::finish_now`] (behind
//! `ProcessBot::kill`) waits for all of it on the calling thread.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, ExitStatus};
use std::sync::{Arc, Condvar, Mutex, OnceLock, PoisonError, mpsc};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{Id, WaitPidFlag, WaitStatus, waitid};
use nix::unistd::Pid;

use super::batch::poll;
use super::cgroup::BotCgroup;
use super::sandbox::{BotFolder, UidLease, kill_all_of_uid};

/// How long a reap waits for the killed child before it hands the wait to
/// a thread of its own. SIGKILL ends a process within
/// milliseconds unless it is stuck in the kernel.
const REAP_WAIT_MAX: Duration = Duration::from_secs(2);

/// How the main process ended, read without reaping it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ended {
    Exited(i32),
    Signaled(i32),
}

/// What the runner holds of a PID namespace's init (see `tree`).
#[derive(Debug)]
pub(crate) struct InitOf {
    status: OwnedFd,
    /// The bot's wait status, once read.
    bot: std::sync::OnceLock<i32>,
    /// Closed to let the init exit, once the bot has ended.
    release: Option<OwnedFd>,
}

impl InitOf {
    pub(crate) fn new(status: OwnedFd, release: OwnedFd) -> InitOf {
        InitOf { status, bot: std::sync::OnceLock::new(), release: Some(release) }
    }

    /// Lets the init exit once the bot has ended (it waits for this).
    pub(crate) fn let_go(&mut self) {
        self.release.take();
    }

    /// How the bot ended, as the init told it.
    pub(crate) fn bot_exit_status(&self) -> Option<ExitStatus> {
        self.bot_status().map(ExitStatus::from_raw)
    }

    /// The bot's wait status, once the init has reaped it and every other
    /// process of the namespace.
    fn bot_status(&self) -> Option<i32> {
        if let Some(&status) = self.bot.get() {
            return Some(status);
        }
        let status = super::tree::bot_status(&self.status)?;
        Some(*self.bot.get_or_init(|| status))
    }
}

fn ended_of(status: i32) -> Ended {
    if libc::WIFSIGNALED(status) {
        Ended::Signaled(libc::WTERMSIG(status))
    } else {
        Ended::Exited(libc::WEXITSTATUS(status))
    }
}

/// Kills the bot's processes on drop, and has them reaped and the folder
/// removed (by the reaper thread).
#[derive(Debug)]
pub(crate) struct GroupGuard {
    child: Option<Child>,
    /// The main process: the bot, or the init of its PID namespace.
    child_pid: Pid,
    /// The bot's process group, led by the bot (see `tree`).
    pgid: Pid,
    /// When `child` is the init of the bot's PID namespace, which is not
    /// in the group and ends just after the group's last process: the pipe
    /// on which it tells how the bot ended, and what it told.
    init: Option<InitOf>,
    uid: Option<UidLease>,
    folder: Option<BotFolder>,
    status: Option<ExitStatus>,
    /// SIGKILL went to the group and the uid.
    signalled: bool,
    /// Set on the reaper thread's copy: its drop reaps and removes in
    /// place instead of handing itself on again.
    in_place: bool,
    /// Told when everything is reaped and removed.
    done: Option<Reaping>,
    /// Handles on the bot's own namespaces (see
    /// [`hold_namespaces`](Self::hold_namespaces)), let go when the guard
    /// is finished, before the folder goes.
    namespaces: Vec<OwnedFd>,
    /// The bot's control group, removed once its processes are reaped.
    cgroup: Option<BotCgroup>,
}

/// The end of a bot left to the reaper thread: lets the caller wait until
/// the main process is reaped and the folder is removed.
#[derive(Clone, Debug, Default)]
pub struct Reaping(Arc<(Mutex<bool>, Condvar)>);

impl Reaping {
    /// Waits until the bot's end is complete, at most until `until`;
    /// returns whether it is.
    pub fn wait_until(&self, until: Instant) -> bool {
        let (done, changed) = &*self.0;
        let mut done = done.lock().unwrap_or_else(PoisonError::into_inner);
        while !*done {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            done = changed
                .wait_timeout(done, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        true
    }

    /// Whether the bot's end is complete.
    pub fn is_done(&self) -> bool {
        *self.0.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn set(&self) {
        let (done, changed) = &*self.0;
        *done.lock().unwrap_or_else(PoisonError::into_inner) = true;
        changed.notify_all();
    }
}

impl GroupGuard {
    pub(crate) fn new(
        child: Child,
        leader: Option<(Pid, InitOf)>,
        uid: Option<UidLease>,
        folder: BotFolder,
        cgroup: Option<BotCgroup>,
    ) -> GroupGuard {
        // The child (or, in a PID namespace, the bot: `leader`) called
        // setpgid(0, 0), so the group's id is its pid.
        let child_pid = Pid::from_raw(child.id() as i32);
        GroupGuard {
            child: Some(child),
            child_pid,
            pgid: leader.as_ref().map_or(child_pid, |(pid, _)| *pid),
            init: leader.map(|(_, init)| init),
            uid,
            folder: Some(folder),
            status: None,
            signalled: false,
            in_place: false,
            done: None,
            namespaces: Vec::new(),
            cgroup,
        }
    }

    /// Keeps the bot's namespaces of the `kinds` given (names under
    /// `/proc/PID/ns`) alive until the guard is finished. The kernel tears
    /// a namespace down when its last process exits: a mount namespace's
    /// unmounts and a network namespace's cleanup take hundreds of µs of
    /// both CPUs, which would fall on the turns played right after a kill.
    /// Held, they go when the caller lets the bot's remains go. A kind
    /// that cannot be opened is simply not held.
    pub(crate) fn hold_namespaces(&mut self, kinds: &[&str]) {
        let pid = self.pid();
        for kind in kinds {
            // The unreaped child keeps its pid ours; a File opens with
            // O_CLOEXEC, so no later bot inherits the handle.
            if let Ok(file) = std::fs::File::open(format!("/proc/{pid}/ns/{kind}")) {
                self.namespaces.push(OwnedFd::from(file));
            }
        }
    }

    pub(crate) fn pid(&self) -> u32 {
        self.pgid.as_raw() as u32
    }

    pub(crate) fn folder(&self) -> Option<&std::path::Path> {
        self.folder.as_ref().map(BotFolder::path)
    }

    pub(crate) fn uid(&self) -> Option<u32> {
        self.uid.as_ref().map(|u| u.uid)
    }

    pub(crate) fn cgroup(&self) -> Option<&BotCgroup> {
        self.cgroup.as_ref()
    }

    pub(crate) fn cgroup_mut(&mut self) -> Option<&mut BotCgroup> {
        self.cgroup.as_mut()
    }

    /// Sends `signal` to the whole group, while the main process has not
    /// been reaped (so the group id cannot belong to anyone else yet) and,
    /// for an init, while the bot has not been reaped either (the init
    /// ends moments after).
    pub(crate) fn signal_group(&self, signal: Signal) {
        if self.group_is_ours() {
            // ESRCH (the group is gone) shows up on the pipes instead.
            let _ = killpg(self.pgid, signal);
        }
    }

    fn group_is_ours(&self) -> bool {
        self.child.is_some()
            && match &self.init {
                Some(init) => init.bot_status().is_none() && self.peek_main_end().is_none(),
                None => true,
            }
    }

    /// How the bot ended, if it has: under a PID namespace, as the init
    /// tells it once every process of the bot is gone (or as the init
    /// itself ended, if it was killed before it could tell). The main
    /// process stays a zombie (WNOWAIT), which keeps its pid and group id
    /// reserved until the group is killed.
    pub(crate) fn peek_end(&self) -> Option<Ended> {
        if let Some(bot) = self.init.as_ref().and_then(InitOf::bot_status) {
            return Some(ended_of(bot));
        }
        self.peek_main_end()
    }

    fn peek_main_end(&self) -> Option<Ended> {
        self.child.as_ref()?;
        match waitid(
            Id::Pid(self.child_pid),
            WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT,
        ) {
            Ok(WaitStatus::Exited(_, code)) => Some(Ended::Exited(code)),
            Ok(WaitStatus::Signaled(_, signal, _)) => Some(Ended::Signaled(signal as i32)),
            _ => None,
        }
    }

    /// Sends SIGKILL to every process of the bot, once, while the main one
    /// is not reaped.
    pub(crate) fn signal_kill(&mut self) {
        if self.signalled || self.child.is_none() {
            return;
        }
        self.signalled = true;
        // The group first, while the unreaped leader keeps its id ours.
        if self.group_is_ours() {
            let _ = killpg(self.pgid, Signal::SIGKILL);
        }
        if let Some(uid) = &self.uid {
            kill_all_of_uid(uid.uid);
        }
    }

    /// Sends SIGKILL to every process of the bot now and returns what
    /// tells when the reaper thread, to which the drop hands the rest (the
    /// reaping, the folder's removal, the end of the uid's lease), is done:
    /// a process takes hundreds of µs to be torn down, which the caller
    /// need not wait for.
    pub(crate) fn reap_later(&mut self) -> Reaping {
        self.signal_kill();
        self.done.get_or_insert_with(Reaping::default).clone()
    }

    /// Kills every process of the bot, reaps the main one, removes the
    /// folder and ends the uid's lease, all on the calling thread; returns
    /// how the main process ended, when known. Idempotent.
    pub(crate) fn finish_now(&mut self) -> Option<ExitStatus> {
        let status = self.kill();
        // The namespaces go first: the folder is a mount point in the
        // bot's mount namespace, which its removal would otherwise detach.
        self.namespaces.clear();
        if let Some(cgroup) = self.cgroup.take() {
            cgroup.remove();
        }
        // TempDir removes the folder (as the runner, so whatever modes the
        // bot set); an error leaves a folder behind and nothing worse.
        self.folder.take();
        self.uid.take();
        if let Some(done) = self.done.take() {
            done.set();
        }
        status
    }

    /// Kills every process of the bot and reaps the main one. Idempotent.
    pub(crate) fn kill(&mut self) -> Option<ExitStatus> {
        self.signal_kill();
        // An init waits for this before it exits.
        if let Some(init) = &mut self.init {
            init.let_go();
        }
        let Some(mut child) = self.child.take() else {
            return self.status;
        };
        let until = Instant::now() + REAP_WAIT_MAX;
        // The exit is awaited on a pidfd, which wakes at the exit itself,
        // or else in short sleeps. Opened only when needed, while the
        // unreaped child keeps its pid ours.
        let mut exited: Option<Option<OwnedFd>> = None;
        let mut pause = Duration::from_micros(50);
        loop {
            match child.try_wait() {
                Ok(Some(status)) => {
                    // Under a PID namespace, how the bot itself ended.
                    let bot = self.init.as_ref().and_then(InitOf::bot_exit_status);
                    self.status = Some(bot.unwrap_or(status));
                    return self.status;
                }
                Ok(None) if Instant::now() < until => {
                    match exited.get_or_insert_with(|| pidfd_open(child.id())) {
                        Some(fd) => {
                            let mut fds = [libc::pollfd {
                                fd: fd.as_raw_fd(),
                                events: libc::POLLIN,
                                revents: 0,
                            }];
                            let _ = poll(&mut fds, until.saturating_duration_since(Instant::now()));
                        }
                        None => {
                            std::thread::sleep(pause);
                            pause = (pause * 2).min(Duration::from_millis(10));
                        }
                    }
                }
                _ => {
                    // Stuck in the kernel: reap it in the background, and
                    // keep its uid leased until then.
                    let uid = self.uid.take();
                    std::thread::spawn(move || {
                        let _ = child.wait();
                        drop(uid);
                    });
                    return None;
                }
            }
        }
    }
}

/// A pidfd of process `pid`, readable once it has exited; `None` where the
/// kernel has none (before 5.3).
#[allow(unsafe_code)]
fn pidfd_open(pid: u32) -> Option<OwnedFd> {
    // SAFETY: pidfd_open takes two integers and returns a new descriptor
    // (close-on-exec), owned by nobody else, or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
    let fd = libc::c_int::try_from(fd).ok().filter(|&fd| fd >= 0)?;
    // SAFETY: see above: `fd` is open and ours.
    Some(unsafe { OwnedFd::from_raw_fd(fd) })
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if self.in_place {
            self.finish_now();
            return;
        }
        // Every process gets SIGKILL before the drop returns, so none
        // outlives the bot; what may take long (reaping a process stuck in
        // the kernel, removing a folder of many files) is left behind.
        self.signal_kill();
        let nothing_left =
            self.child.is_none() && self.folder.is_none() && self.uid.is_none() && self.namespaces.is_empty() && self.cgroup.is_none();
        if nothing_left {
            if let Some(done) = self.done.take() {
                done.set();
            }
            return;
        }
        let rest = GroupGuard {
            child: self.child.take(),
            child_pid: self.child_pid,
            pgid: self.pgid,
            init: self.init.take(),
            uid: self.uid.take(),
            folder: self.folder.take(),
            status: self.status,
            signalled: self.signalled,
            in_place: true,
            done: self.done.take(),
            namespaces: std::mem::take(&mut self.namespaces),
            cgroup: self.cgroup.take(),
        };
        // Without a reaper thread (or if it is gone), `rest` is dropped,
        // and so finished, here in place.
        if let Some(reaper) = reaper() {
            let _ = reaper.send(rest);
        }
    }
}

/// The reaper thread's queue, started at the first use; `None` if the
/// thread cannot be started (the guard is then dropped in place).
fn reaper() -> Option<&'static mpsc::Sender<GroupGuard>> {
    static REAPER: OnceLock<Option<mpsc::Sender<GroupGuard>>> = OnceLock::new();
    REAPER
        .get_or_init(|| {
            let (tx, rx) = mpsc::channel::<GroupGuard>();
            std::thread::Builder::new()
                .name("snakepit-reaper".into())
                .spawn(move || rx.into_iter().for_each(drop))
                .ok()
                .map(|_| tx)
        })
        .as_ref()
}
