//! Namespaces made ahead of the starts that use them.
//!
//! A new network namespace costs the kernel about half a millisecond
//! (its loopback device, its sysctl tables, every protocol's per-namespace
//! state), and an IPC and UTS pair some tens of µs more: made by the child
//! between `fork` and `exec`, that was the largest single part of a bot's
//! start. The `snakepit-stock` thread makes them before they are needed
//! (`unshare` on itself, a handle from `/proc/thread-self/ns`, and back to
//! the runner's own with `setns`) and keeps a few; the child of a start
//! enters one with `setns`, which takes a µs or two.
//!
//! Each namespace made here goes to exactly one bot: a start takes it off
//! the shelf, the child enters it before anything of the bot runs, and the
//! runner's handle is closed once the child has exec'd, so that the
//! namespace lives exactly as long as the bot's processes (and the handles
//! the runner keeps on the bot's namespaces; see `GroupGuard`). Nothing ever
//! runs in one before: the thread only enters it to take a handle, and
//! neither opens a socket nor makes an IPC object there. When the shelf is
//! empty (the first starts of a runner, many starts at once) or the thread
//! cannot make them (a runner that is not root), the child makes its own,
//! as it always did.

use std::os::fd::OwnedFd;
use std::sync::{Condvar, Mutex, OnceLock};

use nix::fcntl::OFlag;
use nix::sched::CloneFlags;
use nix::sys::stat::Mode;

/// How many namespaces of each kind are kept ready: the bots of one game
/// of four, started one after the other.
const STOCK_SIZE: usize = 4;

/// A bot's IPC namespace and its UTS namespace, whose host name is set.
pub(crate) struct IpcUts {
    pub(crate) ipc: OwnedFd,
    pub(crate) uts: OwnedFd,
}

#[derive(Default)]
struct Shelf {
    net: Vec<OwnedFd>,
    ipc_uts: Vec<IpcUts>,
    /// Which kinds have been asked for: only those are made.
    net_wanted: bool,
    ipc_uts_wanted: bool,
    /// Set when the thread failed to make a kind: it stops trying, and the
    /// children make their own.
    net_failed: bool,
    ipc_uts_failed: bool,
}

impl Shelf {
    fn work(&self) -> Option<Kind> {
        if self.net_wanted && !self.net_failed && self.net.len() < STOCK_SIZE {
            Some(Kind::Net)
        } else if self.ipc_uts_wanted && !self.ipc_uts_failed && self.ipc_uts.len() < STOCK_SIZE {
            Some(Kind::IpcUts)
        } else {
            None
        }
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Net,
    IpcUts,
}

struct Stock {
    shelf: Mutex<Shelf>,
    wake: Condvar,
}

/// The stock, with its thread started at the first call; `None` if the
/// thread cannot be started.
fn stock() -> Option<&'static Stock> {
    static STOCK: OnceLock<Option<&'static Stock>> = OnceLock::new();
    *STOCK.get_or_init(|| {
        let stock: &'static Stock = Box::leak(Box::new(Stock { shelf: Mutex::default(), wake: Condvar::new() }));
        std::thread::Builder::new()
            .name("snakepit-stock".into())
            .spawn(move || fill(stock))
            .ok()
            .map(|_| stock)
    })
}

/// A network namespace of the bot's own, made ahead, or `None` (the child
/// then makes one). Asks the thread for more.
pub(crate) fn take_net() -> Option<OwnedFd> {
    let stock = stock()?;
    let mut shelf = stock.shelf.lock().unwrap_or_else(|e| e.into_inner());
    shelf.net_wanted = true;
    let taken = shelf.net.pop();
    stock.wake.notify_one();
    taken
}

/// An IPC and UTS namespace pair of the bot's own, made ahead, or `None`.
pub(crate) fn take_ipc_uts() -> Option<IpcUts> {
    let stock = stock()?;
    let mut shelf = stock.shelf.lock().unwrap_or_else(|e| e.into_inner());
    shelf.ipc_uts_wanted = true;
    let taken = shelf.ipc_uts.pop();
    stock.wake.notify_one();
    taken
}

/// The thread: makes what is missing, one at a time, and sleeps while the
/// shelf is full.
fn fill(stock: &'static Stock) {
    // The thread's own namespaces, which it goes back to after each new one.
    let home = |kind: &str| nix::fcntl::open(format!("/proc/thread-self/ns/{kind}").as_str(), OFlag::O_RDONLY | OFlag::O_CLOEXEC, Mode::empty()).ok();
    let (home_net, home_ipc, home_uts) = (home("net"), home("ipc"), home("uts"));
    loop {
        let kind = {
            let mut shelf = stock.shelf.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                match shelf.work() {
                    Some(kind) => break kind,
                    None => shelf = stock.wake.wait(shelf).unwrap_or_else(|e| e.into_inner()),
                }
            }
        };
        match kind {
            Kind::Net => {
                let made = home_net.as_ref().and_then(|home| make(CloneFlags::CLONE_NEWNET, "net", home));
                let mut shelf = stock.shelf.lock().unwrap_or_else(|e| e.into_inner());
                match made {
                    Some(fd) => shelf.net.push(fd),
                    None => shelf.net_failed = true,
                }
            }
            Kind::IpcUts => {
                let made = match (&home_ipc, &home_uts) {
                    (Some(home_ipc), Some(home_uts)) => make_ipc_uts(home_ipc, home_uts),
                    _ => None,
                };
                let mut shelf = stock.shelf.lock().unwrap_or_else(|e| e.into_inner());
                match made {
                    Some(pair) => shelf.ipc_uts.push(pair),
                    None => shelf.ipc_uts_failed = true,
                }
            }
        }
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

fn make_ipc_uts(home_ipc: &OwnedFd, home_uts: &OwnedFd) -> Option<IpcUts> {
    let ipc = make(CloneFlags::CLONE_NEWIPC, "ipc", home_ipc)?;
    nix::sched::unshare(CloneFlags::CLONE_NEWUTS).ok()?;
    let named = super::sandbox::set_hostname().is_ok();
    let uts = nix::fcntl::open("/proc/thread-self/ns/uts", OFlag::O_RDONLY | OFlag::O_CLOEXEC, Mode::empty()).ok();
    nix::sched::setns(home_uts, CloneFlags::CLONE_NEWUTS).ok()?;
    Some(IpcUts { ipc, uts: uts.filter(|_| named)? })
}
