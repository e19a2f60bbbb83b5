//! [`Layer::Cgroup`](super::Layer::Cgroup): every bot in a control group of
//! its own, which counts its memory (shared memory and its folder's tmpfs
//! included), its processes and its CPU time, all its processes together.
//!
//! Rlimits bound each process alone: a bot that forks sixteen processes of
//! 2 GiB each, or fills SysV segments, or writes its tmpfs full, is past
//! any single limit. The kernel charges all of that to the bot's group and
//! kills in it (the OOM killer) when the group is over its memory limit;
//! `pids.max` refuses the fork past the process limit.
//!
//! Both kinds of hierarchy are used as the machine has them: the unified
//! one (v2) where `memory` and `pids` are enabled at its root, else the v1
//! hierarchies `memory`, `pids` and (for the CPU time) `cpuacct`. Groups
//! live in a `snakepit` folder of each hierarchy, named after the runner's
//! pid, so that the next runner removes those of a runner that was killed.
//!
//! The runner makes the group and opens the files that move a process into
//! it; the child writes `0` to them (itself) as its first act, so everything
//! it forks is in the group from the start. The group is removed once its
//! last process is reaped.
//!
//! In v1 that file is `tasks`, which moves one thread: the child has only
//! one, so it moves the whole process, as `cgroup.procs` would. But a write
//! to `cgroup.procs` takes the kernel's lock against every fork of the
//! machine for writing, which waits for an RCU grace period whenever no
//! such write came in the last few milliseconds: 15 ms on this kind of
//! machine, at the first start after any pause. Moving the calling thread
//! alone needs no such lock (40 µs). v2 has no `tasks` file for a domain
//! group and keeps `cgroup.procs`.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The folder of snakepit's groups in each hierarchy.
const BASE: &str = "snakepit";

/// The hierarchies a bot's group is made in.
#[derive(Debug)]
enum Hierarchy {
    /// The unified hierarchy's mount point.
    V2(PathBuf),
    /// The v1 `memory` and `pids` mount points, and `cpuacct` where it is.
    V1 { memory: PathBuf, pids: PathBuf, cpuacct: Option<PathBuf> },
}

/// The hierarchy found at first use, or why there is none.
fn hierarchy() -> &'static Result<Hierarchy, String> {
    static FOUND: OnceLock<Result<Hierarchy, String>> = OnceLock::new();
    FOUND.get_or_init(|| {
        let found = find_hierarchy()?;
        for base in bases(&found) {
            fs::create_dir_all(&base).map_err(|e| format!("cannot make {}: {e}", base.display()))?;
            if let Hierarchy::V2(root) = &found {
                // Groups below the root get the controllers only if the
                // root hands them down (the root has no processes rule).
                // The CPU time (`cpu.stat`) is counted in every group
                // without the `cpu` controller, which a machine may lack.
                for file in [root.join("cgroup.subtree_control"), base.join("cgroup.subtree_control")] {
                    fs::write(&file, "+memory +pids").map_err(|e| format!("cannot enable controllers in {}: {e}", file.display()))?;
                }
            }
            sweep(&base);
        }
        Ok(found)
    })
}

fn find_hierarchy() -> Result<Hierarchy, String> {
    let mounts = fs::read_to_string("/proc/self/mounts").map_err(|e| format!("cannot read /proc/self/mounts: {e}"))?;
    let mut v2 = None;
    let mut v1 = std::collections::BTreeMap::new();
    for line in mounts.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        let [_, path, kind, options, ..] = fields[..] else { continue };
        match kind {
            "cgroup2" if v2.is_none() => v2 = Some(PathBuf::from(path)),
            "cgroup" => {
                for controller in ["memory", "pids", "cpuacct"] {
                    if options.split(',').any(|o| o == controller) {
                        v1.entry(controller).or_insert_with(|| PathBuf::from(path));
                    }
                }
            }
            _ => {}
        }
    }
    if let Some(root) = v2 {
        let controllers = fs::read_to_string(root.join("cgroup.controllers")).unwrap_or_default();
        let has = |c: &str| controllers.split_whitespace().any(|x| x == c);
        if has("memory") && has("pids") {
            return Ok(Hierarchy::V2(root));
        }
    }
    match (v1.remove("memory"), v1.remove("pids")) {
        (Some(memory), Some(pids)) => Ok(Hierarchy::V1 { memory, pids, cpuacct: v1.remove("cpuacct") }),
        _ => Err("no cgroup hierarchy with the memory and pids controllers is mounted".into()),
    }
}

fn bases(h: &Hierarchy) -> Vec<PathBuf> {
    match h {
        Hierarchy::V2(root) => vec![root.join(BASE)],
        Hierarchy::V1 { memory, pids, cpuacct } => {
            let mut all = vec![memory.join(BASE), pids.join(BASE)];
            all.extend(cpuacct.iter().map(|c| c.join(BASE)));
            all
        }
    }
}

/// Whether bots can get groups here, or why not.
pub(crate) fn availability() -> Result<&'static str, String> {
    match hierarchy() {
        Ok(Hierarchy::V2(_)) => Ok("cgroup v2"),
        Ok(Hierarchy::V1 { cpuacct: Some(_), .. }) => Ok("cgroup v1 (memory, pids, cpuacct)"),
        Ok(Hierarchy::V1 { cpuacct: None, .. }) => Ok("cgroup v1 (memory, pids)"),
        Err(why) => Err(why.clone()),
    }
}

/// One bot's group, in every hierarchy used.
#[derive(Debug)]
pub(crate) struct BotCgroup {
    dirs: Vec<PathBuf>,
    /// The files the child joins the group by writing `0` (v1 `tasks`, v2
    /// `cgroup.procs`).
    procs: Vec<OwnedFd>,
    /// Where the CPU time is read, and whether it is v2's `cpu.stat`
    /// (µs) rather than v1's `cpuacct.usage` (ns).
    cpu: Option<(File, bool)>,
    /// Where the OOM kills are counted (v1 `memory.oom_control`, v2
    /// `memory.events`).
    oom: PathBuf,
}

/// Limits of a bot's group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CgroupLimits {
    pub(crate) memory_bytes_max: u64,
    pub(crate) processes_max: Option<u64>,
}

impl BotCgroup {
    /// Makes the bot's group with `limits`, ready to be joined in the
    /// child.
    pub(crate) fn create(limits: CgroupLimits) -> io::Result<BotCgroup> {
        let h = hierarchy().as_ref().map_err(|why| io::Error::other(why.clone()))?;
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = format!("{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
        let mut group = BotCgroup { dirs: Vec::new(), procs: Vec::new(), cpu: None, oom: PathBuf::new() };
        let make = |group: &mut BotCgroup, base: PathBuf| -> io::Result<PathBuf> {
            let dir = base.join(BASE).join(&name);
            fs::create_dir(&dir)?;
            group.dirs.push(dir.clone());
            Ok(dir)
        };
        let memory = limits.memory_bytes_max.to_string();
        let pids = limits.processes_max.map_or_else(|| "max".to_string(), |p| p.to_string());
        match h {
            Hierarchy::V2(root) => {
                let dir = make(&mut group, root.clone())?;
                fs::write(dir.join("memory.max"), &memory)?;
                // No swap: the memory limit is all the bot has.
                let _ = fs::write(dir.join("memory.swap.max"), "0");
                fs::write(dir.join("pids.max"), &pids)?;
                group.cpu = File::open(dir.join("cpu.stat")).ok().map(|f| (f, true));
                group.oom = dir.join("memory.events");
            }
            Hierarchy::V1 { memory: m, pids: p, cpuacct } => {
                let dir = make(&mut group, m.clone())?;
                fs::write(dir.join("memory.limit_in_bytes"), &memory)?;
                // Where swap is accounted, memory and swap together: the
                // same, so no swap.
                let _ = fs::write(dir.join("memory.memsw.limit_in_bytes"), &memory);
                group.oom = dir.join("memory.oom_control");
                let dir = make(&mut group, p.clone())?;
                fs::write(dir.join("pids.max"), &pids)?;
                if let Some(c) = cpuacct {
                    let dir = make(&mut group, c.clone())?;
                    group.cpu = File::open(dir.join("cpuacct.usage")).ok().map(|f| (f, false));
                }
            }
        }
        for dir in &group.dirs {
            let join = if matches!(h, Hierarchy::V2(_)) { "cgroup.procs" } else { "tasks" };
            let file = OpenOptions::new().write(true).open(dir.join(join))?;
            group.procs.push(file.into());
        }
        Ok(group)
    }

    /// The group's folders, one per hierarchy.
    pub(crate) fn paths(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// The files to join the group by, for the child; the
    /// group keeps none open once the child has them.
    pub(crate) fn take_join_fds(&mut self) -> Vec<OwnedFd> {
        std::mem::take(&mut self.procs)
    }

    /// The CPU time of all the bot's processes so far, where counted.
    pub(crate) fn cpu_time(&mut self) -> Option<Duration> {
        let (file, v2) = self.cpu.as_mut()?;
        let mut text = String::new();
        file.seek(SeekFrom::Start(0)).ok()?;
        file.read_to_string(&mut text).ok()?;
        if *v2 {
            let usec = text.lines().find_map(|l| l.strip_prefix("usage_usec "))?.trim().parse().ok()?;
            Some(Duration::from_micros(usec))
        } else {
            Some(Duration::from_nanos(text.trim().parse().ok()?))
        }
    }

    /// Whether the kernel killed a process of the group for being over
    /// its memory limit.
    pub(crate) fn oom_killed(&self) -> bool {
        fs::read_to_string(&self.oom)
            .ok()
            .and_then(|t| t.lines().find_map(|l| l.strip_prefix("oom_kill ")).and_then(|n| n.trim().parse::<u64>().ok()))
            .is_some_and(|n| n > 0)
    }

    /// Kills whatever is still in the group and removes it: on the stock
    /// thread (see [`stock`](super::stock)), which tries for two seconds,
    /// or here if there is none; what cannot be removed is left to the
    /// next runner's sweep.
    pub(crate) fn remove(self) {
        remove_groups(self.into_dirs(), Duration::from_secs(2));
    }

    /// The group's folders, taken out: the group no longer removes them.
    pub(crate) fn into_dirs(mut self) -> Vec<PathBuf> {
        self.procs.clear();
        self.cpu = None;
        std::mem::take(&mut self.dirs)
    }
}

impl Drop for BotCgroup {
    fn drop(&mut self) {
        let dirs = std::mem::take(&mut self.dirs);
        if !dirs.is_empty() {
            remove_groups(dirs, Duration::from_millis(200));
        }
    }
}

/// Hands a group's folders to the stock thread to remove, or removes them
/// here, trying for `wait_max` each, when there is none.
fn remove_groups(dirs: Vec<PathBuf>, wait_max: Duration) {
    if let Err(dirs) = super::stock::remove_cgroup_dirs_later(dirs) {
        for dir in dirs {
            remove_group(&dir, wait_max);
        }
    }
}

/// Kills every process in the group at `dir` and removes it, trying
/// until `wait_max` (a killed process leaves its group only once reaped).
pub(crate) fn remove_group(dir: &Path, wait_max: Duration) -> bool {
    let until = Instant::now() + wait_max;
    loop {
        match try_remove_group(dir) {
            Ok(()) => return true,
            Err(_) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => {
                tracing::warn!(group = %dir.display(), "a bot's cgroup stays until the next start: {e}");
                return false;
            }
        }
    }
}

/// One try of [`remove_group`]: kills every process in the group and
/// removes it, which fails while a killed process is not reaped yet.
pub(crate) fn try_remove_group(dir: &Path) -> io::Result<()> {
    if let Ok(pids) = fs::read_to_string(dir.join("cgroup.procs")) {
        for pid in pids.lines().filter_map(|p| p.trim().parse::<i32>().ok()) {
            let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::Signal::SIGKILL);
        }
    }
    match fs::remove_dir(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        done => done,
    }
}

/// In the child, first of all: moves this process (and so all it will
/// fork) into the group of the join files `fds`. Only
/// `write(2)`; returns its errno.
#[allow(unsafe_code)]
pub(crate) fn join_in_child(fds: &[OwnedFd]) -> Result<(), i32> {
    for fd in fds {
        // SAFETY: write reads one byte of a static string.
        if unsafe { libc::write(fd.as_raw_fd(), c"0".as_ptr().cast(), 1) } != 1 {
            return Err(nix::errno::Errno::last_raw());
        }
    }
    Ok(())
}

/// Removes the groups of runners that ended without removing them (a
/// runner killed with SIGKILL), in every hierarchy: done at a runner's
/// first group and then by the stock thread each time it makes one, so
/// that a server that runs for weeks does not keep the groups of every
/// `play` killed meanwhile.
pub(crate) fn sweep_gone_runners() {
    if let Ok(found) = hierarchy() {
        for base in bases(found) {
            sweep(&base);
        }
    }
}

/// Removes the groups of runners that are gone (named `PID-N` with no
/// process PID left).
fn sweep(base: &Path) {
    let Ok(entries) = fs::read_dir(base) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.split_once('-')).and_then(|(p, _)| p.parse::<u32>().ok()) else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            remove_group(&entry.path(), Duration::from_millis(500));
        }
    }
}
