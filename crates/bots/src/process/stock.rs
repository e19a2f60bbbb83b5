//! What a bot's start needs and can have made before it: namespaces and
//! cgroups, kept ready by the `snakepit-stock` thread, which also removes
//! the cgroups of ended bots after the end instead of during it.
//!
//! A new network namespace costs the kernel about half a millisecond
//! (its loopback device, its sysctl tables, every protocol's per-namespace
//! state), an IPC and UTS pair some tens of µs more, and a group in the
//! three v1 hierarchies a few hundred µs to make and to remove: made by the
//! start itself, that was the largest part of it. The thread makes a
//! namespace with `unshare` on itself, takes a handle on it from
//! `/proc/thread-self/ns` and goes back to the runner's own with `setns`;
//! the child of a start enters it with `setns`, which takes a µs or two.
//!
//! Each namespace and group made here goes to exactly one bot: a start
//! takes it off the shelf, the child enters or joins it before anything of
//! the bot runs, and the runner's handles on a namespace are closed once
//! the child has exec'd, so that it lives exactly as long as the bot's
//! processes (and the handles the runner keeps on the bot's namespaces;
//! see `GroupGuard`). Nothing ever runs in one before: the thread only
//! enters a namespace to take a handle on it and neither opens a socket
//! nor makes an IPC object there, and no process joins a group but the
//! bot's. When the shelf is empty (the first starts of a runner, many
//! starts at once) or the thread cannot make them (a runner that is not
//! root), the start makes its own, as it always did.
//!
//! Groups on the shelf and groups still to remove when the runner exits
//! are removed at its exit; those of a runner killed are removed by the
//! sweep of any runner still running or started later: the thread sweeps
//! before it makes each group.

use std::os::fd::OwnedFd;
use std::path::PathBuf;
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use nix::fcntl::OFlag;
use nix::sched::CloneFlags;
use nix::sys::stat::Mode;

use super::cgroup::{BotCgroup, CgroupLimits};
use super::root::RootPlan;

/// How many of each kind are kept ready: the bots of one game of four,
/// started one after the other.
const STOCK_SIZE: usize = 4;

/// How long the thread tries to remove an ended bot's group (a killed
/// process leaves it only once reaped).
const REMOVE_WAIT_MAX: Duration = Duration::from_secs(2);

/// A bot's IPC namespace and its UTS namespace, whose host name is set.
pub(crate) struct IpcUts {
    pub(crate) ipc: OwnedFd,
    pub(crate) uts: OwnedFd,
}

#[derive(Default)]
struct Shelf {
    net: Vec<OwnedFd>,
    ipc_uts: Vec<IpcUts>,
    /// Groups made with the limits of the last start that asked.
    cgroups: Vec<BotCgroup>,
    /// Which kinds have been asked for: only those are made.
    net_wanted: bool,
    ipc_uts_wanted: bool,
    cgroup_limits: Option<CgroupLimits>,
    /// Set when the thread failed to make a kind: it stops trying, and the
    /// starts make their own.
    net_failed: bool,
    ipc_uts_failed: bool,
    cgroup_failed: bool,
    /// Folders of ended bots' groups, with when to give up on each.
    doomed: Vec<(PathBuf, Instant)>,
    /// Mount namespaces holding the common part of a minimal root, made
    /// for the plan of the last start that asked (with its key).
    roots: Vec<OwnedFd>,
    root_plan: Option<(Vec<u8>, RootPlan)>,
    root_failed: bool,
}

enum Work {
    Net,
    IpcUts,
    Cgroup(CgroupLimits),
    Root(Vec<u8>, RootPlan),
    Remove,
}

impl Shelf {
    fn work(&self) -> Option<Work> {
        if self.net_wanted && !self.net_failed && self.net.len() < STOCK_SIZE {
            Some(Work::Net)
        } else if let Some((key, plan)) = self.root_plan.as_ref().filter(|_| !self.root_failed && self.roots.len() < STOCK_SIZE) {
            Some(Work::Root(key.clone(), plan.clone()))
        } else if let Some(limits) = self.cgroup_limits.filter(|_| !self.cgroup_failed && self.cgroups.len() < STOCK_SIZE) {
            Some(Work::Cgroup(limits))
        } else if self.ipc_uts_wanted && !self.ipc_uts_failed && self.ipc_uts.len() < STOCK_SIZE {
            Some(Work::IpcUts)
        } else if !self.doomed.is_empty() {
            Some(Work::Remove)
        } else {
            None
        }
    }
}

struct Stock {
    shelf: Mutex<Shelf>,
    wake: Condvar,
}

impl Stock {
    fn shelf(&self) -> MutexGuard<'_, Shelf> {
        self.shelf.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The shelf for a start, which never waits for it: the thread, which
    /// gets the smallest share of a CPU that others want, may have been
    /// preempted while holding it.
    fn shelf_now(&self) -> Option<MutexGuard<'_, Shelf>> {
        match self.shelf.try_lock() {
            Ok(shelf) => Some(shelf),
            Err(std::sync::TryLockError::Poisoned(e)) => Some(e.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => None,
        }
    }
}

/// The stock, with its thread started at the first call; `None` if the
/// thread cannot be started.
fn stock() -> Option<&'static Stock> {
    static STOCK: OnceLock<Option<&'static Stock>> = OnceLock::new();
    *STOCK.get_or_init(|| {
        let stock: &'static Stock = Box::leak(Box::new(Stock { shelf: Mutex::default(), wake: Condvar::new() }));
        let started = std::thread::Builder::new()
            .name("snakepit-stock".into())
            .spawn(move || fill(stock))
            .is_ok();
        if started {
            register_exit_cleanup();
        }
        started.then_some(stock)
    })
}

/// A network namespace of the bot's own, made ahead, or `None` (the child
/// then makes one). Asks the thread for more.
pub(crate) fn take_net() -> Option<OwnedFd> {
    take(|shelf| {
        shelf.net_wanted = true;
        shelf.net.pop()
    })
}

/// An IPC and UTS namespace pair of the bot's own, made ahead, or `None`.
pub(crate) fn take_ipc_uts() -> Option<IpcUts> {
    take(|shelf| {
        shelf.ipc_uts_wanted = true;
        shelf.ipc_uts.pop()
    })
}

/// A group with `limits`, made ahead, or `None` (the start then makes
/// one). Groups made with other limits are removed.
pub(crate) fn take_cgroup(limits: CgroupLimits) -> Option<BotCgroup> {
    take(|shelf| {
        if shelf.cgroup_limits != Some(limits) {
            shelf.cgroup_limits = Some(limits);
            let stale: Vec<BotCgroup> = std::mem::take(&mut shelf.cgroups);
            let until = Instant::now() + REMOVE_WAIT_MAX;
            for group in stale {
                shelf.doomed.extend(group.into_dirs().into_iter().map(|dir| (dir, until)));
            }
        }
        shelf.cgroups.pop()
    })
}

/// A mount namespace, made private, whose tree holds the common part of
/// `plan`'s root (see `RootPlan::make_ahead`), or `None` (the child then
/// makes the whole root). Namespaces made for another plan are let go.
pub(crate) fn take_root(plan: &RootPlan) -> Option<OwnedFd> {
    take(|shelf| {
        let key = plan.common_key();
        if shelf.root_plan.as_ref().is_none_or(|(k, _)| *k != key) {
            shelf.root_plan = Some((key, plan.clone()));
            shelf.roots.clear();
        }
        shelf.roots.pop()
    })
}

/// What `pick` takes off the shelf (telling it what is wanted), if the
/// shelf is free at once; the thread is woken to make more.
fn take<T>(pick: impl FnOnce(&mut Shelf) -> Option<T>) -> Option<T> {
    let stock = stock()?;
    let mut shelf = stock.shelf_now()?;
    let taken = pick(&mut shelf);
    stock.wake.notify_one();
    taken
}

/// Hands an ended bot's group folders to the thread, which removes them;
/// gives them back when there is no thread (or its shelf is busy).
pub(crate) fn remove_cgroup_dirs_later(dirs: Vec<PathBuf>) -> Result<(), Vec<PathBuf>> {
    let Some(mut shelf) = stock().and_then(Stock::shelf_now) else { return Err(dirs) };
    let until = Instant::now() + REMOVE_WAIT_MAX;
    shelf.doomed.extend(dirs.into_iter().map(|dir| (dir, until)));
    drop(shelf);
    let Some(stock) = stock() else { return Ok(()) };
    stock.wake.notify_one();
    Ok(())
}

/// The thread: makes what is missing, one at a time, then removes ended
/// groups, and sleeps while there is nothing to do.
fn fill(stock: &'static Stock) {
    low_priority();
    // The thread's own namespaces, which it goes back to after each new one.
    let home = |kind: &str| nix::fcntl::open(format!("/proc/thread-self/ns/{kind}").as_str(), OFlag::O_RDONLY | OFlag::O_CLOEXEC, Mode::empty()).ok();
    let (home_net, home_ipc, home_uts, home_mnt) = (home("net"), home("ipc"), home("uts"), home("mnt"));
    loop {
        let work = {
            let mut shelf = stock.shelf();
            loop {
                match shelf.work() {
                    Some(work) => break work,
                    None => shelf = stock.wake.wait(shelf).unwrap_or_else(|e| e.into_inner()),
                }
            }
        };
        match work {
            Work::Net => {
                let made = home_net.as_ref().and_then(|home| make(CloneFlags::CLONE_NEWNET, "net", home));
                let mut shelf = stock.shelf();
                match made {
                    Some(fd) => shelf.net.push(fd),
                    None => shelf.net_failed = true,
                }
            }
            Work::IpcUts => {
                let made = match (&home_ipc, &home_uts) {
                    (Some(home_ipc), Some(home_uts)) => make_ipc_uts(home_ipc, home_uts),
                    _ => None,
                };
                let mut shelf = stock.shelf();
                match made {
                    Some(pair) => shelf.ipc_uts.push(pair),
                    None => shelf.ipc_uts_failed = true,
                }
            }
            Work::Cgroup(limits) => {
                super::cgroup::sweep_gone_runners();
                let made = BotCgroup::create(limits);
                let mut shelf = stock.shelf();
                match made {
                    // Limits changed meanwhile: this one goes too.
                    Ok(group) if shelf.cgroup_limits != Some(limits) => {
                        let until = Instant::now() + REMOVE_WAIT_MAX;
                        shelf.doomed.extend(group.into_dirs().into_iter().map(|dir| (dir, until)));
                    }
                    Ok(group) => shelf.cgroups.push(group),
                    Err(_) => shelf.cgroup_failed = true,
                }
            }
            Work::Root(key, plan) => {
                let made = match &home_mnt {
                    Some(home) => make_root(&plan, home),
                    None => Err(false),
                };
                let mut shelf = stock.shelf();
                match made {
                    // The plan changed meanwhile: this one goes.
                    Ok(_) if shelf.root_plan.as_ref().is_none_or(|(k, _)| *k != key) => {}
                    Ok(ns) => shelf.roots.push(ns),
                    Err(false) => shelf.root_failed = true,
                    Err(true) => {
                        // Stuck in the namespace made (`/proc` covered):
                        // nothing more is made on this thread.
                        shelf.root_failed = true;
                        shelf.net_failed = true;
                        shelf.ipc_uts_failed = true;
                        shelf.cgroup_failed = true;
                    }
                }
            }
            Work::Remove => {
                let doomed = std::mem::take(&mut stock.shelf().doomed);
                let mut left = Vec::new();
                for (dir, until) in doomed {
                    match super::cgroup::try_remove_group(&dir) {
                        Ok(()) => {}
                        Err(_) if Instant::now() < until => left.push((dir, until)),
                        Err(e) => tracing::warn!(group = %dir.display(), "a bot's cgroup stays until the next start: {e}"),
                    }
                }
                if !left.is_empty() {
                    let mut shelf = stock.shelf();
                    shelf.doomed.extend(left);
                    // A process not reaped yet: try again in a moment,
                    // or sooner if a start wakes the thread.
                    let _ = stock.wake.wait_timeout(shelf, Duration::from_millis(5));
                }
            }
        }
    }
}

/// Puts this thread in the `SCHED_BATCH` class at nice 19: it takes a
/// CPU from a normal thread only in the smallest share the scheduler
/// gives (a weight of 15 against 1024), so that making stock hardly delays
/// a start, a turn or anything else of the machine, yet it still runs
/// beside other background work (`SCHED_IDLE` would not run at all while
/// any nice 19 process is busy). When it cannot keep up, starts find the
/// shelf empty and make their own.
#[allow(unsafe_code)]
fn low_priority() {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: sched_setscheduler reads a live local; pid 0 is the calling
    // thread, and setpriority with PRIO_PROCESS and the thread's id
    // changes this thread alone.
    unsafe {
        libc::sched_setscheduler(0, libc::SCHED_BATCH, &param);
        libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 19);
    }
}

/// Makes a namespace of `flags` on this thread, takes a handle on it and
/// goes back to `home`. `None` if any step fails; if the way back fails,
/// the thread stays where it is, which only this thread sees, and makes
/// nothing more of this kind.
fn make(flags: CloneFlags, kind: &str, home: &OwnedFd) -> Option<OwnedFd> {
    nix::sched::unshare(flags).ok()?;
    let made = nix::fcntl::open(format!("/proc/thread-self/ns/{kind}").as_str(), OFlag::O_RDONLY | OFlag::O_CLOEXEC, Mode::empty()).ok();
    nix::sched::setns(home, flags).ok()?;
    made
}

/// Makes a mount namespace on this thread, made private, with the common
/// part of `plan`'s root, takes a handle on it and goes back to `home`.
/// `Err(true)` if the way back failed.
fn make_root(plan: &RootPlan, home: &OwnedFd) -> Result<OwnedFd, bool> {
    nix::sched::unshare(CloneFlags::CLONE_NEWNS).map_err(|_| false)?;
    // Before the root's tmpfs covers `/proc` in this namespace.
    let made = nix::fcntl::open("/proc/thread-self/ns/mnt", OFlag::O_RDONLY | OFlag::O_CLOEXEC, Mode::empty()).ok();
    let built = made.is_some() && super::sandbox::make_mounts_private().is_ok() && plan.make_ahead().is_ok();
    nix::sched::setns(home, CloneFlags::CLONE_NEWNS).map_err(|_| true)?;
    made.filter(|_| built).ok_or(false)
}

fn make_ipc_uts(home_ipc: &OwnedFd, home_uts: &OwnedFd) -> Option<IpcUts> {
    let ipc = make(CloneFlags::CLONE_NEWIPC, "ipc", home_ipc)?;
    nix::sched::unshare(CloneFlags::CLONE_NEWUTS).ok()?;
    let named = super::sandbox::set_hostname().is_ok();
    let uts = nix::fcntl::open("/proc/thread-self/ns/uts", OFlag::O_RDONLY | OFlag::O_CLOEXEC, Mode::empty()).ok();
    nix::sched::setns(home_uts, CloneFlags::CLONE_NEWUTS).ok()?;
    Some(IpcUts { ipc, uts: uts.filter(|_| named)? })
}

/// Removes, at the runner's exit, the groups on the shelf and those still
/// to remove, so that a runner that ends leaves none behind.
#[allow(unsafe_code)]
fn register_exit_cleanup() {
    extern "C" fn at_exit() {
        let Some(stock) = stock() else { return };
        let (stocked, doomed) = {
            let mut shelf = stock.shelf();
            // Nothing is made after this.
            shelf.cgroup_failed = true;
            (std::mem::take(&mut shelf.cgroups), std::mem::take(&mut shelf.doomed))
        };
        let dirs = stocked.into_iter().flat_map(BotCgroup::into_dirs).chain(doomed.into_iter().map(|(dir, _)| dir));
        for dir in dirs {
            super::cgroup::remove_group(&dir, Duration::from_millis(200));
        }
    }
    // SAFETY: atexit registers a function without arguments, run once by
    // `exit`; it only locks the shelf, which no thread holds for long.
    unsafe { libc::atexit(at_exit) };
}
