//! The owner of a bot's processes: kills the whole group (and, with a
//! dedicated uid, every process of that uid), reaps the child and removes
//! the folder when dropped, including while a panic unwinds, like
//! rust-analyzer's `JodChild`.

use std::process::{Child, ExitStatus};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{Id, WaitPidFlag, WaitStatus, waitid};
use nix::unistd::Pid;
use tempfile::TempDir;

use super::sandbox::{UidLease, kill_all_of_uid};

/// How long a drop waits for the killed child to be reaped before it hands
/// the wait to a background thread. SIGKILL ends a process within
/// milliseconds unless it is stuck in the kernel.
const REAP_WAIT_MAX: Duration = Duration::from_secs(2);

/// How the main process ended, read without reaping it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ended {
    Exited(i32),
    Signaled(i32),
}

/// Kills and reaps the bot's processes and removes its folder on drop.
#[derive(Debug)]
pub(crate) struct GroupGuard {
    child: Option<Child>,
    pgid: Pid,
    uid: Option<UidLease>,
    folder: Option<TempDir>,
    status: Option<ExitStatus>,
}

impl GroupGuard {
    pub(crate) fn new(child: Child, uid: Option<UidLease>, folder: TempDir) -> GroupGuard {
        // The child called setpgid(0, 0), so its group id is its pid.
        let pgid = Pid::from_raw(child.id() as i32);
        GroupGuard {
            child: Some(child),
            pgid,
            uid,
            folder: Some(folder),
            status: None,
        }
    }

    pub(crate) fn pid(&self) -> u32 {
        self.pgid.as_raw() as u32
    }

    pub(crate) fn folder(&self) -> Option<&std::path::Path> {
        self.folder.as_ref().map(TempDir::path)
    }

    pub(crate) fn uid(&self) -> Option<u32> {
        self.uid.as_ref().map(|u| u.uid)
    }

    /// Sends `signal` to the whole group, while the main process has not
    /// been reaped (so the group id cannot belong to anyone else yet).
    pub(crate) fn signal_group(&self, signal: Signal) {
        if self.child.is_some() {
            // ESRCH (the group is gone) shows up on the pipes instead.
            let _ = killpg(self.pgid, signal);
        }
    }

    /// How the main process ended, if it has; it stays a zombie (WNOWAIT),
    /// which keeps its pid and group id reserved until the group is killed.
    pub(crate) fn peek_end(&self) -> Option<Ended> {
        self.child.as_ref()?;
        match waitid(
            Id::Pid(self.pgid),
            WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT,
        ) {
            Ok(WaitStatus::Exited(_, code)) => Some(Ended::Exited(code)),
            Ok(WaitStatus::Signaled(_, signal, _)) => Some(Ended::Signaled(signal as i32)),
            _ => None,
        }
    }

    /// Kills every process of the bot and reaps the main one. Idempotent.
    pub(crate) fn kill(&mut self) -> Option<ExitStatus> {
        let Some(mut child) = self.child.take() else {
            return self.status;
        };
        // The group first, while the unreaped leader keeps its id ours.
        let _ = killpg(self.pgid, Signal::SIGKILL);
        if let Some(uid) = &self.uid {
            kill_all_of_uid(uid.uid);
        }
        let until = Instant::now() + REAP_WAIT_MAX;
        let mut pause = Duration::from_micros(50);
        loop {
            match child.try_wait() {
                Ok(Some(status)) => {
                    self.status = Some(status);
                    return self.status;
                }
                Ok(None) if Instant::now() < until => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(10));
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

impl Drop for GroupGuard {
    fn drop(&mut self) {
        self.kill();
        // TempDir removes the folder (as the runner, so whatever modes the
        // bot set); an error leaves a folder behind and nothing worse.
        self.folder.take();
        self.uid.take();
    }
}
