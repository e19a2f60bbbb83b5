//! The bot's process tree under [`Layer::PidNamespace`](super::Layer::PidNamespace):
//! two processes where there was one, both started from the runner's
//! `spawn`, none running any code but ours before the bot's `exec`.
//!
//! ```text
//! runner ── init (the runner's child, pid 1 of the bot's PID namespace)
//!             └── bot (pid 2, execs the bot's program)
//! ```
//!
//! - The **init** is the runner's `Child`: the thread that spawns it
//!   makes the PID namespace for its children just before (`unshare`)
//!   and goes back to its own right after (`setns`), so the fork itself
//!   makes the namespace's first process. It starts the bot, reaps every
//!   orphan of the namespace, and when the bot ends, kills and reaps every
//!   process left in the namespace, tells the runner, and exits once the
//!   runner lets it go; a reaped init means that nothing of the bot is
//!   left. It dies with the runner
//!   (parent-death signal), which ends the namespace the same way when the
//!   runner is killed with SIGKILL. It is root, non-dumpable and hidden
//!   from the bot's `/proc` (`hidepid`), and wipes its copy of the
//!   runner's command line and environment.
//! - **How the bot ended** goes to the runner on a pipe ([`Tree::take_status_reader`]):
//!   no signal that a namespace's init sends itself can end it, so the
//!   init's own end cannot always repeat the bot's.
//! - The **bot** leads the process group that the runner signals
//!   (SIGSTOP, SIGCONT, SIGKILL), so that the init, which must live on to
//!   reap, and which would wake at every stop, is not in it. The bot goes
//!   on with the rest of the sandbox and execs the program itself.
//!
//! **One copy of memory for both.** A fork copies the page tables of the
//! runner's whole address space, and each exit of such a copy tears them
//! down again: hundreds of microseconds each, on the start's path and on
//! the kill's. So only the init is a fork (the runner's `spawn`); the bot
//! shares its memory until the `exec` (`CLONE_VM | CLONE_VFORK`: the init
//! sleeps until then, so the two never run at once), on a stack of its
//! own that the runner maps before the spawn, above a guard page. The
//! bot's code never returns into the runner's `spawn`: a failure is
//! written to the report pipe as a layer's code and the errno, then the
//! bot exits; the runner reads it when the spawn returns (see
//! `sandbox::launch`).
//!
//! The bot starts with glibc's `clone`, not its `fork`, whose handlers
//! take locks that another thread of the runner may have held at the
//! runner's fork. The init blocks every signal: the runner's own
//! handlers, which it inherits, must never run there.

use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::sync::OnceLock;

use nix::errno::Errno;
use nix::fcntl::OFlag;
use nix::sched::CloneFlags;

use super::fault::SpawnError;

/// The pipe on which the init tells the runner how the bot ended, the one
/// whose end lets the init go, and the bot's stack.
pub(crate) struct Tree {
    /// The runner's end, taken before the spawn.
    status_read: Option<OwnedFd>,
    status_write: OwnedFd,
    release_read: OwnedFd,
    /// The runner's end, taken before the spawn.
    release_write: Option<OwnedFd>,
    /// Where the runner's command line and environment lie in its memory
    /// (and so in the init's copy of it).
    runner_strings: Option<[(usize, usize); 2]>,
    stack: Stack,
    runner_pidfd: Option<RawFd>,
}

impl Tree {
    pub(crate) fn build() -> Result<Tree, SpawnError> {
        let (status_read, status_write) = nix::unistd::pipe2(OFlag::O_CLOEXEC | OFlag::O_NONBLOCK)
            .map_err(|e| SpawnError::Setup(format!("pid namespace: {e}")))?;
        let (release_read, release_write) = nix::unistd::pipe2(OFlag::O_CLOEXEC)
            .map_err(|e| SpawnError::Setup(format!("pid namespace: {e}")))?;
        Ok(Tree {
            status_read: Some(status_read),
            status_write,
            release_read,
            release_write: Some(release_write),
            runner_strings: *runner_strings(),
            stack: Stack::map()?,
            runner_pidfd: runner_pidfd(),
        })
    }

    /// The runner's end of the pipe that brings the bot's wait status,
    /// written once, when the bot has ended (see [`bot_status`]).
    pub(crate) fn take_status_reader(&mut self) -> Option<OwnedFd> {
        self.status_read.take()
    }

    /// The runner's end of the pipe whose closing lets the init end, once
    /// the bot has (see [`init`]).
    pub(crate) fn take_release_writer(&mut self) -> Option<OwnedFd> {
        self.release_write.take()
    }

    /// In the init, first: dies with the runner, and stops if the runner
    /// is gone already (then the signal would never come). `getppid`
    /// cannot tell, since the runner is outside the namespace: it reads 0
    /// either way. So the runner's own pidfd ([`runner_pidfd`]) tells,
    /// readable once the runner has exited; without one (a kernel before
    /// 5.3), `report`, a write end whose read ends are the runner's and
    /// this process's copy, `runner_end`, closed here: a write end without
    /// readers means that the runner is gone (unless a child that another
    /// thread of the runner forked at this moment still holds a copy).
    #[allow(unsafe_code)]
    pub(crate) fn init_prelude(&self, report: RawFd, runner_end: RawFd) -> Result<(), i32> {
        // SAFETY: prctl, close and poll take integers and a live local
        // array; `runner_end` is this process's copy of a descriptor of
        // the runner, which nothing here uses.
        unsafe {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                return Err(Errno::last_raw());
            }
            libc::prctl(libc::PR_SET_DUMPABLE, 0 as libc::c_ulong);
            libc::close(runner_end);
            let mut fds = match self.runner_pidfd {
                Some(pidfd) => [libc::pollfd { fd: pidfd, events: libc::POLLIN, revents: 0 }],
                None => [libc::pollfd { fd: report, events: libc::POLLOUT, revents: 0 }],
            };
            let gone = match self.runner_pidfd {
                Some(_) => libc::POLLIN,
                None => libc::POLLERR,
            };
            if libc::poll(fds.as_mut_ptr(), 1, 0) == 1 && fds[0].revents & gone != 0 {
                return Err(libc::ESRCH);
            }
        }
        Ok(())
    }

    /// In the init, once the bot's tree is mounted: starts the bot, which
    /// runs `entry(arg)` on its own stack and must `exec` or `_exit`, and
    /// becomes the init once it has, which never returns. Returns only the
    /// errno of a failed start.
    ///
    /// # Safety
    ///
    /// `entry` must end with `exec` or `_exit`, never return; while it
    /// runs, the init sleeps (`CLONE_VFORK`), so it may use `arg` freely.
    #[allow(unsafe_code)]
    pub(crate) unsafe fn start_bot(&self, entry: extern "C" fn(*mut libc::c_void) -> libc::c_int, arg: *mut libc::c_void) -> i32 {
        // SAFETY: the stack is a live mapping of this process's memory
        // that nothing else uses; the init does not run until the bot has
        // exec'd or exited.
        let bot = unsafe { libc::clone(entry, self.stack.top(), libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD, arg) };
        if bot == -1 {
            return Errno::last_raw();
        }
        init(bot, self.status_write.as_raw_fd(), self.release_read.as_raw_fd(), self.runner_strings)
    }
}

/// Makes the next child of the calling thread the first process of a new
/// PID namespace, until the returned value is dropped. Only the thread's
/// children are concerned: the runner and its other threads stay where
/// they are.
pub(crate) fn new_pid_namespace_for_children() -> Result<ForChildren, i32> {
    static HOME: OnceLock<Option<OwnedFd>> = OnceLock::new();
    // The runner's own PID namespace (every thread's is the same).
    let home = HOME
        .get_or_init(|| {
            nix::fcntl::open("/proc/self/ns/pid", OFlag::O_RDONLY | OFlag::O_CLOEXEC, nix::sys::stat::Mode::empty()).ok()
        })
        .as_ref()
        .ok_or(libc::ENOENT)?;
    nix::sched::unshare(CloneFlags::CLONE_NEWPID).map_err(|e| e as i32)?;
    Ok(ForChildren(home))
}

/// See [`new_pid_namespace_for_children`].
pub(crate) struct ForChildren(&'static OwnedFd);

impl Drop for ForChildren {
    fn drop(&mut self) {
        // Back to the runner's own: a namespace whose init has ended takes
        // no new process, and a later spawn makes its own.
        if let Err(e) = nix::sched::setns(self.0, CloneFlags::CLONE_NEWPID) {
            tracing::error!("the runner's thread cannot leave a bot's PID namespace: {e}");
        }
    }
}

/// A pidfd of the runner itself, opened once (close-on-exec), or `None`
/// where the kernel has none.
#[allow(unsafe_code)]
fn runner_pidfd() -> Option<RawFd> {
    static PIDFD: OnceLock<Option<OwnedFd>> = OnceLock::new();
    PIDFD
        .get_or_init(|| {
            // SAFETY: pidfd_open takes two integers and returns a new
            // descriptor (close-on-exec) that nothing else owns, or -1.
            let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, libc::getpid(), 0) };
            let fd = libc::c_int::try_from(fd).ok().filter(|&fd| fd >= 0)?;
            // SAFETY: see above.
            Some(unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fd) })
        })
        .as_ref()
        .map(AsRawFd::as_raw_fd)
}

/// The wait status of the bot, which the init wrote before it exited, if
/// it did (the init may have been killed first).
pub(crate) fn bot_status(reader: &OwnedFd) -> Option<i32> {
    let mut bytes = [0u8; 4];
    match nix::unistd::read(reader, &mut bytes) {
        Ok(4) => Some(i32::from_ne_bytes(bytes)),
        _ => None,
    }
}

/// The bot's stack, above a guard page: an overflow faults instead of
/// writing over other memory.
struct Stack {
    base: *mut libc::c_void,
}

// SAFETY: the mapping is owned by this value alone; the runner only maps
// and unmaps it, and only the bot runs on it, in the init's copy.
#[allow(unsafe_code)]
unsafe impl Send for Stack {}
// SAFETY: as above; a shared `Stack` only hands out its address.
#[allow(unsafe_code)]
unsafe impl Sync for Stack {}

/// The stack's size. The code on it is short and shallow: landlock's
/// rules, the limits, seccomp and `execvp`, whose own needs are a few KiB
/// (the search of PATH puts one file name on the stack).
const STACK_BYTES: usize = 256 * 1024;
const GUARD_BYTES: usize = 4096;

impl Stack {
    #[allow(unsafe_code)]
    fn map() -> Result<Stack, SpawnError> {
        // SAFETY: a new anonymous mapping, then the protection of its own
        // lowest page changed; nothing else refers to it yet.
        unsafe {
            let base = libc::mmap(std::ptr::null_mut(), GUARD_BYTES + STACK_BYTES, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_STACK, -1, 0);
            if base == libc::MAP_FAILED {
                return Err(SpawnError::Setup(format!("pid namespace: stack: {}", Errno::last())));
            }
            let stack = Stack { base };
            if libc::mprotect(base, GUARD_BYTES, libc::PROT_NONE) != 0 {
                return Err(SpawnError::Setup(format!("pid namespace: stack: {}", Errno::last())));
            }
            Ok(stack)
        }
    }

    /// The highest address, where the stack starts (stacks grow down on
    /// every architecture this runs on), 16-byte aligned.
    fn top(&self) -> *mut libc::c_void {
        self.base.wrapping_byte_add(GUARD_BYTES + STACK_BYTES)
    }
}

impl Drop for Stack {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        // SAFETY: the runner's own mapping, which no thread of the runner
        // runs on (the init has its own copy of it).
        unsafe { libc::munmap(self.base, GUARD_BYTES + STACK_BYTES) };
    }
}

/// Closes every descriptor but `keep` (two, in any order), the standard
/// streams included, so that the runner sees the bot's pipes close when
/// the bot's processes are gone, and its spawn see exec's success when
/// the bot execs.
#[allow(unsafe_code)]
fn close_all_but(keep: [libc::c_int; 2]) {
    let (low, high) = (keep[0].min(keep[1]), keep[0].max(keep[1]));
    // SAFETY: close_range takes integers; nothing of this process uses
    // the descriptors closed afterwards.
    unsafe {
        let close = |from: libc::c_int, to: libc::c_int| {
            if from <= to {
                libc::syscall(libc::SYS_close_range, from as u32, to as u32, 0u32);
            }
        };
        close(0, low - 1);
        close(low + 1, high - 1);
        libc::syscall(libc::SYS_close_range, (high + 1) as u32, u32::MAX, 0u32);
    }
}

#[allow(unsafe_code)]
fn block_all_signals() {
    // SAFETY: sigfillset and sigprocmask write and read a live local set.
    unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::sigprocmask(libc::SIG_SETMASK, &all, std::ptr::null_mut());
    }
}

/// The init: reaps every process of the namespace until the bot ends and
/// tells the runner how. Then it ends every other process of the
/// namespace, as its own exit would, but waits to exit until the runner
/// lets it go (see [`Tree::take_release_writer`]): its exit tears down its
/// copy of the runner's memory and the bot's namespaces, hundreds of µs of
/// CPU that a match spends between games rather than in the turn after a
/// bot's death. It exits the same way as the bot where it can (an exit
/// code; a signal's number plus 128, since no signal it sends itself can
/// end a namespace's init).
#[allow(unsafe_code)]
fn init(bot: libc::pid_t, status_write: libc::c_int, release: libc::c_int, runner_strings: Option<[(usize, usize); 2]>) -> ! {
    block_all_signals();
    close_all_but([status_write, release]);
    // SAFETY: the writes below stay inside the command line and
    // environment areas of this process's own copy of the runner's
    // memory, whose bounds the kernel gave (`/proc/self/stat`); the rest
    // are raw system calls on integers and live locals, then _exit.
    unsafe {
        libc::prctl(libc::PR_SET_NAME, c"snakepit-init".as_ptr() as libc::c_ulong);
        for (start, end) in runner_strings.into_iter().flatten() {
            if start < end {
                std::ptr::write_bytes(start as *mut u8, 0, end - start);
            }
        }
        let mut bot_status = None;
        while bot_status.is_none() {
            let mut status = 0;
            let pid = libc::waitpid(-1, &mut status, libc::__WALL);
            if pid == bot {
                bot_status = Some(status);
            } else if pid < 0 && Errno::last_raw() != libc::EINTR {
                libc::_exit(1);
            }
        }
        let status = bot_status.unwrap_or(0);
        // Every other process of the namespace (pid 1 is spared), then
        // each of them reaped.
        libc::kill(-1, libc::SIGKILL);
        loop {
            let mut ignored = 0;
            if libc::waitpid(-1, &mut ignored, libc::__WALL) < 0 && Errno::last_raw() != libc::EINTR {
                break;
            }
        }
        // After the reaping: the runner takes the status for the end of
        // every process of the bot.
        let bytes = status.to_ne_bytes();
        libc::write(status_write, bytes.as_ptr().cast(), 4);
        let mut byte = 0u8;
        while libc::read(release, (&raw mut byte).cast(), 1) < 0 && Errno::last_raw() == libc::EINTR {}
        libc::_exit(if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { 128 + libc::WTERMSIG(status) });
    }
}

/// The bounds of the runner's command line and environment strings
/// (fields 48 to 51 of `/proc/self/stat`), read once.
fn runner_strings() -> &'static Option<[(usize, usize); 2]> {
    static BOUNDS: OnceLock<Option<[(usize, usize); 2]>> = OnceLock::new();
    BOUNDS.get_or_init(|| {
        let text = std::fs::read_to_string("/proc/self/stat").ok()?;
        // Fields after the command name, which may hold spaces: the
        // third of them is field 3 of the whole line.
        let rest = &text[text.rfind(')')? + 2..];
        let fields: Vec<usize> = rest.split_whitespace().skip(45).take(4).map(|f| f.parse().ok()).collect::<Option<_>>()?;
        match fields[..] {
            [arg_start, arg_end, env_start, env_end] => Some([(arg_start, arg_end), (env_start, env_end)]),
            _ => None,
        }
    })
}
