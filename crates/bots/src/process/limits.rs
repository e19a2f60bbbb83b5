//! What a bot process may use: resource limits, sandbox layers, answer and
//! stderr bounds.
//!
//! Everything here is plain data with a `Default` suited to a server. The
//! arena picks the per-move deadline itself (it is an argument of
//! [`ProcessBot::ask`](super::ProcessBot::ask)), because the first move of a
//! bot usually needs a longer one for start-up.

use std::fmt;
use std::path::PathBuf;

/// One independent layer of the sandbox. Each can be asked for or not in
/// [`SandboxLimits::layers`], and each is applied only where
/// [`SandboxReport::detect`](super::SandboxReport::detect) found that the
/// kernel allows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Layer {
    /// `setrlimit`: CPU seconds, address space, processes, file size, open
    /// files, and no core files.
    Rlimits,
    /// When the runner is root: every bot runs as its own unprivileged uid
    /// and gid, which makes `RLIMIT_NPROC` effective, keeps bots out of each
    /// other's folders, and lets the runner kill every process of the bot
    /// even if it left the process group.
    DedicatedUid,
    /// `unshare(CLONE_NEWNET)`: the bot lives in an empty network namespace
    /// (not even loopback is up), so it can reach no host, not even
    /// 127.0.0.1, and no abstract Unix socket of another bot.
    NetworkNamespace,
    /// A seccomp filter that refuses `AF_INET`, `AF_INET6` and `AF_PACKET`
    /// sockets, io_uring (which could open sockets past the filter),
    /// `setsid`/`setpgid` (leaving the process group would escape SIGSTOP
    /// and the group kill), `ptrace` and `process_vm_readv`/`writev`.
    Seccomp,
    /// Landlock: read-write in the bot's own folder, read and execute in
    /// the system paths, nothing anywhere else; no TCP bind or connect
    /// (ABI 4+), no signals and no abstract Unix sockets beyond the bot's
    /// own processes (ABI 6+).
    Landlock,
    /// When the runner is root: the bot's folder is an overlay whose
    /// writable layer is a tmpfs of [`SandboxLimits::folder_bytes_max`]
    /// bytes and [`SandboxLimits::folder_files_max`] files, mounted in a
    /// mount namespace of the bot's own. What the bot writes never reaches
    /// the runner's disk, it cannot fill the disk or its inodes (which
    /// `RLIMIT_FSIZE`, a limit per file, does not prevent), and it is gone
    /// with the bot's last process.
    FolderQuota,
    /// `unshare(CLONE_NEWPID)` with an init of ours: the bot and all it
    /// starts live in a PID namespace of their own, where they see no host
    /// process. The init (pid 1) starts the bot, reaps what it leaves and
    /// ends with it, and the kernel then kills every process left in the
    /// namespace, so no grandchild outlives the bot; the init itself dies
    /// with the runner (parent-death signal), which does the same.
    PidNamespace,
    /// `unshare(CLONE_NEWIPC | CLONE_NEWUTS)`: SysV shared memory,
    /// semaphores and message queues and POSIX message queues of the bot's
    /// own, gone with it; a host name of its own.
    IpcNamespace,
    /// When the runner is root: the bot's root is a minimal tree of its
    /// own (`pivot_root`), made of read-only binds of the runtimes
    /// ([`SandboxLimits::root_read_only`]), its folder, a private `/tmp`,
    /// a `/proc` of its own PID namespace, four devices and a generated
    /// `/etc`. Nothing else of the host's files exists for it: no other
    /// UNIX socket, configuration, database or home.
    MinimalRoot,
    /// When the runner is root: each bot in a control group of its own
    /// (cgroup v2 where the machine has it, else v1 `memory`, `pids` and
    /// `cpuacct`), which bounds the memory of all its processes together
    /// ([`SandboxLimits::memory_bytes_max`]: shared memory and its folder's
    /// tmpfs included) and their number, and counts their CPU time
    /// against [`SandboxLimits::cpu_seconds_max`] together.
    Cgroup,
}

impl Layer {
    /// Every layer, in the order they are applied in the child.
    pub const ALL: [Layer; 10] = [
        // Joined first, so that everything the child forks is counted.
        Layer::Cgroup,
        Layer::Rlimits,
        Layer::NetworkNamespace,
        Layer::IpcNamespace,
        // The init is forked right after the PID namespace is made; it
        // mounts the bot's tree, whose /proc is of that namespace.
        Layer::PidNamespace,
        // Mounting needs root: before the uid changes.
        Layer::FolderQuota,
        Layer::MinimalRoot,
        Layer::DedicatedUid,
        Layer::Landlock,
        Layer::Seccomp,
    ];

    /// A short stable name, used in reports and error messages.
    pub fn name(self) -> &'static str {
        match self {
            Layer::Rlimits => "rlimits",
            Layer::DedicatedUid => "dedicated uid",
            Layer::NetworkNamespace => "network namespace",
            Layer::Seccomp => "seccomp",
            Layer::Landlock => "landlock",
            Layer::FolderQuota => "folder quota",
            Layer::PidNamespace => "pid namespace",
            Layer::IpcNamespace => "ipc namespace",
            Layer::MinimalRoot => "minimal root",
            Layer::Cgroup => "cgroup",
        }
    }

    /// The layer's byte in the report pipe and its bit in a [`LayerSet`].
    fn code_raw(self) -> u8 {
        match self {
            Layer::Rlimits => 0,
            Layer::DedicatedUid => 1,
            Layer::NetworkNamespace => 2,
            Layer::Seccomp => 3,
            Layer::Landlock => 4,
            Layer::FolderQuota => 5,
            Layer::PidNamespace => 6,
            Layer::IpcNamespace => 7,
            Layer::MinimalRoot => 8,
            Layer::Cgroup => 9,
        }
    }

    fn bit(self) -> u16 {
        1 << self.code_raw()
    }

    /// The inverse of the byte the child writes when a layer fails.
    pub(crate) fn from_code(code: u8) -> Option<Layer> {
        Layer::ALL.into_iter().find(|l| l.code_raw() == code)
    }

    /// The byte the child writes to the report pipe when this layer fails.
    pub(crate) fn code(self) -> u8 {
        self.code_raw()
    }
}

impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of [`Layer`]s.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct LayerSet(u16);

impl LayerSet {
    /// No layer.
    pub const NONE: LayerSet = LayerSet(0);
    /// Every layer.
    pub const ALL: LayerSet = LayerSet((1 << Layer::ALL.len()) - 1);

    /// This set with `layer` added.
    #[must_use]
    pub fn with(self, layer: Layer) -> LayerSet {
        LayerSet(self.0 | layer.bit())
    }

    /// This set with `layer` removed.
    #[must_use]
    pub fn without(self, layer: Layer) -> LayerSet {
        LayerSet(self.0 & !layer.bit())
    }

    /// Whether `layer` is in the set.
    pub fn contains(self, layer: Layer) -> bool {
        self.0 & layer.bit() != 0
    }

    /// The layers in either set.
    #[must_use]
    pub fn union(self, other: LayerSet) -> LayerSet {
        LayerSet(self.0 | other.0)
    }

    /// The layers in both sets.
    #[must_use]
    pub fn intersect(self, other: LayerSet) -> LayerSet {
        LayerSet(self.0 & other.0)
    }

    /// The layers of the set, in [`Layer::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Layer> {
        Layer::ALL.into_iter().filter(move |l| self.contains(*l))
    }
}

impl FromIterator<Layer> for LayerSet {
    fn from_iter<I: IntoIterator<Item = Layer>>(iter: I) -> Self {
        iter.into_iter().fold(LayerSet::NONE, LayerSet::with)
    }
}

impl fmt::Debug for LayerSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl fmt::Display for LayerSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("none");
        }
        for (i, layer) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(layer.name())?;
        }
        Ok(())
    }
}

/// Limits and sandbox settings for one bot process.
///
/// `None` in an rlimit field means "leave the runner's limit". The rlimits
/// hold for the whole life of the process, not per move: a CPU limit of
/// 60 s ends a bot that has thought for 60 s in total.
#[derive(Clone, Debug)]
pub struct SandboxLimits {
    /// `RLIMIT_CPU`, seconds of CPU time for the whole process life. The
    /// soft limit sends SIGXCPU, the hard limit (one second later) SIGKILL.
    pub cpu_seconds_max: Option<u64>,
    /// `RLIMIT_AS`, bytes of address space. A JVM needs far more than its
    /// heap here (it reserves code cache and class space up front).
    pub address_space_bytes_max: Option<u64>,
    /// Under [`Layer::Cgroup`], bytes of memory of all the bot's processes
    /// together, as the kernel charges them: what they touch, their SysV
    /// and POSIX shared memory, and the files of their folder's tmpfs
    /// ([`folder_bytes_max`](Self::folder_bytes_max) counts here too). No
    /// swap. Past it the kernel kills a process of the bot (a fault that
    /// names the memory limit).
    pub memory_bytes_max: u64,
    /// `RLIMIT_NPROC`, processes and threads of the bot's uid. It only
    /// holds when the bot has a [`Layer::DedicatedUid`] (the kernel counts
    /// per real uid and does not apply it to root). Under
    /// [`Layer::Cgroup`] it is also the group's `pids.max`, which holds
    /// whatever the uid.
    pub processes_max: Option<u64>,
    /// `RLIMIT_FSIZE`, bytes in any one file the bot writes.
    pub file_size_bytes_max: Option<u64>,
    /// Under [`Layer::FolderQuota`], the bytes the bot may write in its
    /// folder, all files together (held in memory, as a tmpfs, and only as
    /// much as is written).
    pub folder_bytes_max: u64,
    /// Under [`Layer::FolderQuota`], the files and folders the bot may
    /// create in its folder.
    pub folder_files_max: u64,
    /// `RLIMIT_NOFILE`, open file descriptors.
    pub open_files_max: Option<u64>,
    /// The layers wanted; each is applied where the machine allows it.
    pub layers: LayerSet,
    /// The layers without which [`ProcessBot::spawn`](super::ProcessBot::spawn)
    /// refuses to start a bot (they are applied even if not in `layers`).
    pub layers_required: LayerSet,
    /// Paths the bot may read and execute under landlock (the interpreters
    /// and their libraries). Missing paths are skipped.
    pub system_paths_read_only: Vec<PathBuf>,
    /// What [`Layer::MinimalRoot`] binds read-only into the bot's root,
    /// each at its own path (a symbolic link is recreated as one): the
    /// runtimes and their libraries, and of `/etc` and `/sys` only what a
    /// runtime needs. Missing paths are skipped. The defaults, and why:
    /// `/usr`, `/bin`, `/sbin`, `/lib*` (interpreters, compilers' outputs'
    /// libraries, the JDK under `/usr/lib/jvm`, node); `/etc/ld.so.cache`
    /// (the loader's list of libraries); `/etc/alternatives` (Debian's
    /// links, through which `/usr/bin/java` reaches the JDK);
    /// `/etc/java-17-openjdk`, `/etc/java-21-openjdk` (the JDK's own
    /// `conf/` links there); `/sys/devices/system/cpu` (the CPU count that
    /// glibc, the JVM and node read).
    pub root_read_only: Vec<PathBuf>,
    /// Device files the bot may read and write under landlock.
    pub devices_read_write: Vec<PathBuf>,
    /// The first uid (and gid) of the range given to bots under
    /// [`Layer::DedicatedUid`]. Choose a range no real user or other
    /// program uses.
    pub uid_first: u32,
    /// How many uids the range holds.
    pub uid_count: u32,
    /// Where the bots' folders are made; `None` is the system temp folder.
    /// With dedicated uids it must be searchable (`x`) by everyone, since
    /// each bot reaches its folder as its own uid.
    pub folder_root: Option<PathBuf>,
    /// The longest answer line, in bytes without the newline. Longer is a
    /// [`FaultReason::TooLong`](super::FaultReason::TooLong).
    pub answer_bytes_max: usize,
    /// How many stderr lines are kept between two
    /// [`take_stderr`](super::ProcessBot::take_stderr) calls; older ones are
    /// dropped and counted.
    pub stderr_lines_max: usize,
    /// The longest stderr line kept, in bytes; the rest is cut and counted.
    pub stderr_line_bytes_max: usize,
    /// Stop the whole process group with SIGSTOP between moves (and from
    /// spawn to the first move), so a bot cannot think in the background.
    pub stop_between_moves: bool,
    /// How long [`ask_all`](super::ProcessBot::ask_all) checks the answer
    /// pipes without sleeping, in µs from the write of the requests, before
    /// it blocks in poll(2); it yields the CPU between two checks. A bot
    /// that answers within it saves the runner a sleep and a wake-up (a
    /// 4-bot Multisnake turn of C bots: 10% to 15% less time on 2 vCPUs);
    /// a slower one costs the runner at most this much CPU per call. 0
    /// never spins. Deadlines and faults are the same either way.
    pub answer_spin_max_us: u64,
}

impl SandboxLimits {
    /// The default limits with only `layers` asked for.
    pub fn with_layers(layers: LayerSet) -> SandboxLimits {
        SandboxLimits {
            layers,
            ..SandboxLimits::default()
        }
    }
}

impl Default for SandboxLimits {
    fn default() -> Self {
        const MIB: u64 = 1024 * 1024;
        SandboxLimits {
            cpu_seconds_max: Some(600),
            address_space_bytes_max: Some(2048 * MIB),
            memory_bytes_max: 1024 * MIB,
            processes_max: Some(64),
            file_size_bytes_max: Some(16 * MIB),
            folder_bytes_max: 64 * MIB,
            folder_files_max: 4096,
            open_files_max: Some(64),
            layers: LayerSet::ALL,
            layers_required: LayerSet::NONE,
            system_paths_read_only: [
                "/usr",
                "/bin",
                "/sbin",
                "/lib",
                "/lib32",
                "/lib64",
                "/libx32",
                "/etc",
                "/opt",
                // Runtimes read /proc/self (the JVM its mounts and cgroup,
                // glibc the CPU count) and /sys for the CPU and cgroup
                // limits; other processes' private files stay behind
                // ptrace checks, which landlock and the uid both tighten.
                "/proc",
                "/sys/devices/system/cpu",
                "/sys/fs/cgroup",
            ]
            .into_iter()
            .map(PathBuf::from)
            .collect(),
            root_read_only: [
                "/usr",
                "/bin",
                "/sbin",
                "/lib",
                "/lib32",
                "/lib64",
                "/libx32",
                "/etc/ld.so.cache",
                "/etc/alternatives",
                "/etc/java-17-openjdk",
                "/etc/java-21-openjdk",
                "/sys/devices/system/cpu",
            ]
            .into_iter()
            .map(PathBuf::from)
            .collect(),
            devices_read_write: ["/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"]
                .into_iter()
                .map(PathBuf::from)
                .collect(),
            uid_first: 1_600_000_000,
            uid_count: 65_536,
            folder_root: None,
            answer_bytes_max: 4096,
            stderr_lines_max: 1000,
            stderr_line_bytes_max: 1024,
            stop_between_moves: true,
            answer_spin_max_us: 50,
        }
    }
}
