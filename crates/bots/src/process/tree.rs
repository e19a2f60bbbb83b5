//! The bot's process tree under [`Layer::PidNamespace`](super::Layer::PidNamespace):
//! three processes where there was one, all started from the runner's
//! child before `exec`, none running any code but ours.
//!
//! ```text
//! runner ── keeper (the runner's child, host PID namespace)
//!             └── init (pid 1 of the bot's PID namespace)
//!                   └── bot (pid 2, execs the bot's program)
//! ```
//!
//! - The **keeper** is the runner's `Child`. It waits for the init, learns
//!   from it how the bot ended and ends the same way (the same exit code,
//!   or the same signal raised on itself), so faults name the bot's own
//!   exit. It dies with the runner (parent-death signal). Since it reaps
//!   the init, whose end waits for every process of the namespace, a
//!   reaped keeper means that nothing of the bot is left.
//! - The **init** starts the bot, reaps every orphan of the namespace, and
//!   exits as soon as the bot does; the kernel then kills every process
//!   left in the namespace. It dies with the keeper (parent-death signal),
//!   so the same happens when the runner is killed with SIGKILL. It is
//!   root, non-dumpable and hidden from the bot's `/proc` (`hidepid`), and
//!   wipes its copy of the runner's command line and environment.
//! - The **bot** leads the process group that the runner signals
//!   (SIGSTOP, SIGCONT, SIGKILL), so that neither the keeper, which must
//!   live on to reap the init, nor the init, which would wake at every
//!   stop, is in it. The bot goes on with the rest of the sandbox and
//!   execs the program itself.
//!
//! **One copy of memory for three processes.** A fork copies the page
//! tables of the runner's whole address space, and each exit of such a
//! copy tears them down again: hundreds of microseconds each, on the
//! start's path and on the kill's. So only the keeper is a fork (the
//! runner's `spawn`); the init shares the keeper's memory (`CLONE_VM`),
//! and the bot shares it too until its `exec` (`CLONE_VM | CLONE_VFORK`:
//! the init sleeps until then, so the two never run at once). Each runs
//! on a stack of its own, mapped by the runner before the spawn, with a
//! guard page below it. What this asks of the code they run:
//! - The init's and the bot's code never returns into the runner's
//!   `spawn`: a failure is written to the report pipe as a layer's code
//!   and the errno, then the process exits; the runner reads it when the
//!   spawn returns (see `sandbox::launch`).
//! - The keeper and the init run at the same time in one memory: neither
//!   writes anything the other reads. They share `errno`'s location (no
//!   thread pointer of their own), and the keeper's system calls do not
//!   fail in practice, so at worst an error message would carry another
//!   errno, never a wrong decision.
//!
//! The starts are raw `clone` calls, not glibc's `fork`, whose handlers
//! take locks that another thread of the runner may have held at the
//! first fork. Both keeper and init block every signal: the runner's own
//! handlers, which they inherit, must never run there.

use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::OnceLock;

use nix::errno::Errno;
use nix::fcntl::OFlag;

use super::fault::SpawnError;

/// The pipe on which the init tells the keeper the bot's wait status, and
/// the one on which the keeper tells the runner the init's pid.
pub(crate) struct Tree {
    status_read: OwnedFd,
    status_write: OwnedFd,
    /// The runner's end, read after the spawn.
    init_pid_read: Option<OwnedFd>,
    init_pid_write: OwnedFd,
    /// Where the runner's command line and environment lie in its memory
    /// (and so in the init's copy of it).
    runner_strings: Option<[(usize, usize); 2]>,
    /// The init's and the bot's stacks.
    stacks: Stacks,
}

impl Tree {
    pub(crate) fn build() -> Result<Tree, SpawnError> {
        let (status_read, status_write) = nix::unistd::pipe2(OFlag::O_CLOEXEC)
            .map_err(|e| SpawnError::Setup(format!("pid namespace: {e}")))?;
        let (init_pid_read, init_pid_write) = nix::unistd::pipe2(OFlag::O_CLOEXEC)
            .map_err(|e| SpawnError::Setup(format!("pid namespace: {e}")))?;
        Ok(Tree {
            status_read,
            status_write,
            init_pid_read: Some(init_pid_read),
            init_pid_write,
            runner_strings: *runner_strings(),
            stacks: Stacks::map()?,
        })
    }

    /// The runner's end of the pipe that brings the init's pid; taken
    /// before the spawn, since the pipe's other end goes with the command.
    pub(crate) fn take_init_pid_reader(&mut self) -> Option<OwnedFd> {
        self.init_pid_read.take()
    }

    /// In the runner's child, after `unshare(CLONE_NEWPID)`: starts the
    /// init, which runs `entry(arg)` on its own stack in this process's
    /// memory, and becomes the keeper, which never returns. Returns only
    /// the errno of a failed start.
    ///
    /// # Safety
    ///
    /// `entry` must never return into code of the runner's child (it ends
    /// with `_exit` or becomes the init), and `arg` must stay valid and
    /// unwritten by the keeper, which runs `keeper` only.
    #[allow(unsafe_code)]
    pub(crate) unsafe fn start_init(&self, entry: extern "C" fn(*mut libc::c_void) -> libc::c_int, arg: *mut libc::c_void) -> i32 {
        // SAFETY: the stack is a live mapping of this process's memory,
        // unused by anyone else; see the function's own contract for the
        // rest.
        let init = unsafe { libc::clone(entry, self.stacks.top(0), libc::CLONE_VM | libc::SIGCHLD, arg) };
        if init == -1 {
            return Errno::last_raw();
        }
        let bytes = init.to_ne_bytes();
        // SAFETY: write reads four bytes of a live local.
        unsafe { libc::write(self.init_pid_write.as_raw_fd(), bytes.as_ptr().cast(), 4) };
        keeper(init, self.status_read.as_raw_fd())
    }

    /// In the init, first: dies with the keeper, and stops if the keeper
    /// is gone already (then the signal would never come).
    #[allow(unsafe_code)]
    pub(crate) fn init_prelude(&self) -> Result<(), i32> {
        // SAFETY: prctl and poll take integers and a live local array.
        unsafe {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                return Err(Errno::last_raw());
            }
            libc::prctl(libc::PR_SET_DUMPABLE, 0 as libc::c_ulong);
            // The keeper holds the status pipe's only read end but the
            // runner's (which is closed with the runner): a write end that
            // has no reader left means the keeper died before the prctl.
            let mut fds = [libc::pollfd { fd: self.status_write.as_raw_fd(), events: libc::POLLOUT, revents: 0 }];
            if libc::poll(fds.as_mut_ptr(), 1, 0) == 1 && fds[0].revents & libc::POLLERR != 0 {
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
        // SAFETY: as in `start_init`; the init does not run until the bot
        // has exec'd or exited.
        let bot = unsafe { libc::clone(entry, self.stacks.top(1), libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD, arg) };
        if bot == -1 {
            return Errno::last_raw();
        }
        init(bot, self.status_write.as_raw_fd(), self.runner_strings)
    }
}

/// Two stacks in one mapping, each above a guard page: an overflow faults
/// instead of writing over the other's.
struct Stacks {
    base: *mut libc::c_void,
}

// SAFETY: the mapping is owned by this value alone; the runner only maps
// and unmaps it, and only the child's processes run on it.
#[allow(unsafe_code)]
unsafe impl Send for Stacks {}
// SAFETY: as above; a shared `Stacks` only hands out addresses.
#[allow(unsafe_code)]
unsafe impl Sync for Stacks {}

/// Each stack's size. The code on them is short and shallow: the mounts,
/// the limits, landlock's rules, seccomp and `execvp`, whose own needs are
/// a few KiB (the search of PATH puts one file name on the stack).
const STACK_BYTES: usize = 256 * 1024;
const GUARD_BYTES: usize = 4096;

impl Stacks {
    #[allow(unsafe_code)]
    fn map() -> Result<Stacks, SpawnError> {
        let len = 2 * (GUARD_BYTES + STACK_BYTES);
        // SAFETY: a new anonymous mapping, then the protection of two of
        // its own pages changed; nothing else refers to it yet.
        unsafe {
            let base = libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_STACK, -1, 0);
            if base == libc::MAP_FAILED {
                return Err(SpawnError::Setup(format!("pid namespace: stacks: {}", Errno::last())));
            }
            let stacks = Stacks { base };
            for i in 0..2 {
                if libc::mprotect(stacks.guard(i), GUARD_BYTES, libc::PROT_NONE) != 0 {
                    return Err(SpawnError::Setup(format!("pid namespace: stacks: {}", Errno::last())));
                }
            }
            Ok(stacks)
        }
    }

    fn guard(&self, i: usize) -> *mut libc::c_void {
        self.base.wrapping_byte_add(i * (GUARD_BYTES + STACK_BYTES))
    }

    /// The highest address of stack `i`, where it starts (stacks grow
    /// down on every architecture this runs on), 16-byte aligned.
    fn top(&self, i: usize) -> *mut libc::c_void {
        self.guard(i).wrapping_byte_add(GUARD_BYTES + STACK_BYTES)
    }
}

impl Drop for Stacks {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        // SAFETY: the runner's own mapping, which no thread of the runner
        // runs on (the child's processes have their own copy of it).
        unsafe { libc::munmap(self.base, 2 * (GUARD_BYTES + STACK_BYTES)) };
    }
}

/// Closes every descriptor but `keep`, the standard streams included, so
/// that the runner sees the bot's pipes close when the bot's processes
/// are gone, and its spawn see exec's success when the bot execs.
#[allow(unsafe_code)]
fn close_all_but(keep: libc::c_int) {
    // SAFETY: close and close_range take integers; nothing of this process
    // uses the descriptors closed afterwards.
    unsafe {
        for fd in 0..keep.min(3) {
            libc::close(fd);
        }
        if keep > 0 {
            libc::syscall(libc::SYS_close_range, 0u32, (keep - 1) as u32, 0u32);
        }
        libc::syscall(libc::SYS_close_range, (keep + 1) as u32, u32::MAX, 0u32);
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

/// The keeper: waits for the init and ends as the bot ended.
#[allow(unsafe_code)]
fn keeper(init: libc::pid_t, status_read: libc::c_int) -> ! {
    block_all_signals();
    close_all_but(status_read);
    // SAFETY: only raw system calls on integers and live locals, then
    // _exit; this copy of the runner never returns into its code.
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0 as libc::c_ulong);
        let mut bytes = [0u8; 4];
        let mut got = 0usize;
        while got < 4 {
            let n = libc::read(status_read, bytes[got..].as_mut_ptr().cast(), 4 - got);
            if n > 0 {
                got += n as usize;
            } else if n == 0 || Errno::last_raw() != libc::EINTR {
                break;
            }
        }
        let mut init_status = 0;
        while libc::waitpid(init, &mut init_status, 0) < 0 && Errno::last_raw() == libc::EINTR {}
        let status = if got == 4 { i32::from_ne_bytes(bytes) } else { init_status };
        if libc::WIFSIGNALED(status) {
            let signal = libc::WTERMSIG(status);
            // The runner's handler for it, inherited, must not run; no
            // core of this copy of the runner may be written (it is not
            // dumpable, and its core limit is zero).
            let limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
            libc::setrlimit(libc::RLIMIT_CORE, &limit);
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = libc::SIG_DFL;
            libc::sigaction(signal, &action, std::ptr::null_mut());
            let mut one: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut one);
            libc::sigaddset(&mut one, signal);
            libc::sigprocmask(libc::SIG_UNBLOCK, &one, std::ptr::null_mut());
            libc::kill(libc::syscall(libc::SYS_getpid) as libc::pid_t, signal);
            libc::_exit(128 + signal);
        }
        libc::_exit(if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { 1 })
    }
}

/// The init: reaps every process of the namespace until the bot ends,
/// tells the keeper how, and exits, which ends the namespace.
#[allow(unsafe_code)]
fn init(bot: libc::pid_t, status_write: libc::c_int, runner_strings: Option<[(usize, usize); 2]>) -> ! {
    block_all_signals();
    close_all_but(status_write);
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
        loop {
            let mut status = 0;
            let pid = libc::waitpid(-1, &mut status, libc::__WALL);
            if pid == bot {
                let bytes = status.to_ne_bytes();
                libc::write(status_write, bytes.as_ptr().cast(), 4);
                libc::_exit(0);
            }
            if pid < 0 && Errno::last_raw() != libc::EINTR {
                libc::_exit(1);
            }
        }
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
