//! The sandbox: everything built in the runner before `fork`, the few
//! async-signal-safe calls made in the child between `fork` and `exec`, and
//! the detection that reports which layers this machine allows.
//!
//! The child of a multi-threaded runner may not allocate or take locks
//! (another thread may have held the allocator's lock at the moment of the
//! fork). So the landlock ruleset, the seccomp program and the list of
//! rlimits are all made in the runner, and the child only makes system
//! calls with them.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{CStr, CString, OsString};
use std::fmt;
use std::fs;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, CompatLevel, Compatible, PathBeneath, Ruleset,
    RulesetAttr, RulesetCreated, RulesetCreatedAttr, RulesetStatus, Scope, path_beneath_rules,
};
use nix::errno::Errno;
use nix::fcntl::OFlag;
use nix::sched::CloneFlags;
use nix::sys::signal::{SigSet, SigmaskHow, Signal, pthread_sigmask};
use nix::unistd::{Gid, Pid, Uid};
use rlimit::Resource;
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};
use tempfile::TempDir;

use super::cgroup::{BotCgroup, CgroupLimits};
use super::command::{BotCommand, fill_folder};
use super::fault::SpawnError;
use super::limits::{Layer, LayerSet, SandboxLimits};
use super::root::{LandlockRights, RootPlan};
use super::stock::IpcUts;
use super::guard::InitOf;
use super::tree::Tree;

/// The landlock ABI whose access rights we ask for. The crate drops what
/// an older kernel does not know (best effort); pinning the ABI keeps the
/// rules the same on every newer kernel.
const LANDLOCK_ABI: ABI = ABI::V6;

/// The environment's `PATH` inside the sandbox.
pub(crate) const SANDBOX_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// A started child with what it owns: its folder and its uid.
pub(crate) struct Launched {
    pub(crate) child: Child,
    pub(crate) folder: BotFolder,
    pub(crate) uid: Option<UidLease>,
    pub(crate) layers: LayerSet,
    /// Under [`Layer::Cgroup`], the bot's group.
    pub(crate) cgroup: Option<BotCgroup>,
    /// Under [`Layer::PidNamespace`], the bot's pid (host namespace), which
    /// leads its process group, and what the runner holds of the init.
    pub(crate) leader: Option<(Pid, InitOf)>,
}

/// Makes the folder, builds the sandbox and starts `spec` with the layers
/// of `limits.layers` that are in `available`.
pub(crate) fn launch(
    spec: &BotCommand,
    limits: &SandboxLimits,
    report: &SandboxReport,
) -> Result<Launched, SpawnError> {
    for layer in limits.layers_required.iter() {
        if let Some(reason) = report.unavailable_reason(layer) {
            return Err(SpawnError::LayerUnavailable {
                layer,
                reason: reason.to_string(),
            });
        }
    }
    let layers = limits
        .layers
        .union(limits.layers_required)
        .intersect(report.active());
    let uid = if layers.contains(Layer::DedicatedUid) {
        Some(UidLease::take(limits.uid_first, limits.uid_count)?)
    } else {
        None
    };
    let root = limits
        .folder_root
        .clone()
        .unwrap_or_else(std::env::temp_dir);
    // Tagged with this runner, so that the next runner can remove them if
    // this one is killed before it does (see `leftovers`).
    let tag = super::leftovers::runner_tag(&root).map_err(|source| SpawnError::Folder {
        path: root.clone(),
        source,
    })?;
    let folder = tempfile::Builder::new()
        .prefix(&format!("{}{tag}-", super::leftovers::BOT_FOLDER_PREFIX))
        // Only the bot's uid may enter (tempfile's default follows the
        // umask, which usually lets everyone read).
        .permissions(fs::Permissions::from_mode(0o700))
        .tempdir_in(&root)
        .map_err(|source| SpawnError::Folder {
            path: root.clone(),
            source,
        })?;
    fill_folder(folder.path(), &spec.files, uid.as_ref().map(|u| u.uid))?;
    // The minimal root's tmpfs is mounted over `/proc` in the bot's own
    // mount namespace (see `root::AHEAD_SCRATCH`), which a namespace made
    // ahead by the stock thread may hold with the common part of the tree
    // already.
    let minimal_root = if layers.contains(Layer::MinimalRoot) {
        let owner = uid.as_ref().map(|u| u.uid).filter(|_| layers.contains(Layer::DedicatedUid));
        let mut plan = RootPlan::build(
            limits,
            folder.path(),
            Path::new(super::root::AHEAD_SCRATCH),
            owner,
            layers.contains(Layer::FolderQuota),
            layers.contains(Layer::PidNamespace),
        )?;
        let ns = super::stock::take_root(&plan);
        if ns.is_some() {
            plan.set_made_ahead();
        }
        Some((plan, ns))
    } else {
        None
    };
    // The quota's tmpfs alone is mounted on an empty folder beside the
    // bot's (an overlay's writable layer may not lie inside the layer
    // below it).
    let scratch = if minimal_root.is_none() && layers.contains(Layer::FolderQuota) {
        Some(
            tempfile::Builder::new()
                .prefix(&format!("{}{tag}-", super::leftovers::QUOTA_FOLDER_PREFIX))
                .permissions(fs::Permissions::from_mode(0o700))
                .tempdir_in(&root)
                .map_err(|source| SpawnError::Folder {
                    path: root.clone(),
                    source,
                })?,
        )
    } else {
        None
    };

    let (report_read, report_write) = nix::unistd::pipe2(OFlag::O_CLOEXEC | OFlag::O_NONBLOCK)
        .map_err(|e| SpawnError::Setup(e.to_string()))?;
    let mut setup = ChildSetup::build(
        limits,
        layers,
        folder.path(),
        scratch.as_ref().map(TempDir::path),
        uid.as_ref().map(|u| u.uid),
        minimal_root,
        report_write,
    )?;
    setup.report_runner_end = report_read.as_raw_fd();
    let bot_status = setup.tree.as_mut().and_then(Tree::take_status_reader);
    let release = setup.tree.as_mut().and_then(Tree::take_release_writer);
    let mut cgroup = if layers.contains(Layer::Cgroup) {
        let limits = CgroupLimits { memory_bytes_max: limits.memory_bytes_max, processes_max: limits.processes_max };
        match super::stock::take_cgroup(limits) {
            Some(group) => Some(group),
            None => Some(BotCgroup::create(limits).map_err(|e| SpawnError::Setup(format!("cgroup: {e}")))?),
        }
    } else {
        None
    };
    setup.cgroup_join = cgroup.as_mut().map(BotCgroup::take_join_fds).unwrap_or_default();

    // The environment as `Command` would hold it: sorted, a later value
    // of a name replacing an earlier one.
    let mut env: BTreeMap<OsString, OsString> = BTreeMap::new();
    for (key, value) in [
        ("PATH", SANDBOX_PATH.as_ref()),
        ("HOME", folder.path().as_os_str()),
        ("TMPDIR", folder.path().as_os_str()),
        ("LANG", "C.UTF-8".as_ref()),
        // Python buffers stdout in a pipe, so a bot that writes its answer
        // without flushing (as CodeCarrots' own example does, which its
        // server ran unbuffered) would never be heard.
        ("PYTHONUNBUFFERED", "1".as_ref()),
    ] {
        env.insert(key.into(), value.to_owned());
    }
    env.extend(spec.env.iter().cloned());
    if setup.tree.is_some() {
        setup.exec = Some(ExecPlan::build(&spec.program, &spec.args, &env)?);
    }
    let mut cmd = Command::new(&spec.program);
    cmd.args(&spec.args)
        .current_dir(folder.path())
        .env_clear()
        .envs(&env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group, so SIGSTOP, SIGCONT and SIGKILL reach the
        // bot and every process it starts, and never the runner.
        .process_group(0);
    install_pre_exec(&mut cmd, setup);
    let spawned = spawn_when_not_busy(&mut cmd, &report_read, bot_status.as_ref());
    // Dropping the command drops the closure and with it the runner's
    // copy of the report pipe's write end, so no read below can wait.
    drop(cmd);
    match spawned {
        Ok((child, leader)) => Ok(Launched {
            leader: leader.zip(bot_status.zip(release)).map(|(pid, (status, release))| (pid, InitOf::new(status, release))),
            child,
            folder: BotFolder {
                home: folder,
                _scratch: scratch,
            },
            uid,
            layers,
            cgroup,
        }),
        Err((source, code)) => match code.and_then(Layer::from_code) {
            Some(layer) => Err(SpawnError::Sandbox { layer, source }),
            None => Err(SpawnError::Exec {
                program: spec.program_display(),
                source,
            }),
        },
    }
}

/// What the child wrote to the report pipe: the failing layer's code (or
/// [`EXEC_FAILED`]) and, when it could, the errno.
fn read_report(report: &OwnedFd) -> Option<(u8, Option<i32>)> {
    let mut record = [0u8; 5];
    match nix::unistd::read(report, &mut record) {
        Ok(5) => Some((record[0], Some(i32::from_ne_bytes([record[1], record[2], record[3], record[4]])))),
        Ok(n) if n > 0 => Some((record[0], None)),
        _ => None,
    }
}

/// One spawn and what follows it: under a PID namespace (`bot_status`
/// given), the namespace made for the child, the bot's pid, and a failure
/// that the bot wrote to the report pipe (its `spawn` returns success).
fn spawn_once(cmd: &mut Command, report: &OwnedFd, bot_status: Option<&OwnedFd>) -> Result<(Child, Option<Pid>), (io::Error, Option<u8>)> {
    let for_children = match bot_status.map(|_| super::tree::new_pid_namespace_for_children()) {
        Some(Err(errno)) => return Err((io::Error::from_raw_os_error(errno), Some(Layer::PidNamespace.code()))),
        Some(Ok(made)) => Some(made),
        None => None,
    };
    let spawned = cmd.spawn();
    drop(for_children);
    let mut child = match spawned {
        Ok(child) => child,
        Err(source) => return Err((source, read_report(report).map(|(code, _)| code))),
    };
    let Some(status) = bot_status else {
        return Ok((child, None));
    };
    // `spawn` returned once every copy of its close-on-exec pipe was
    // closed: the bot's, by its exec or its exit, after any failure was
    // written here.
    if let Some((code, errno)) = read_report(report) {
        let _ = child.kill();
        let _ = child.wait();
        // The failed bot's status, which a next try must not read.
        let _ = super::tree::bot_status(status);
        let source = errno.map_or_else(|| io::Error::other("the sandbox failed"), io::Error::from_raw_os_error);
        return Err((source, (code != EXEC_FAILED).then_some(code)));
    }
    let init = Pid::from_raw(child.id() as i32);
    Ok((child, Some(bot_of_init(init))))
}

/// The init's only child, the bot, which has exec'd when the spawn
/// returns (`/proc/PID/task/PID/children`). If it is gone already, the
/// init, whose group then holds nothing of the bot's.
fn bot_of_init(init: Pid) -> Pid {
    fs::read_to_string(format!("/proc/{init}/task/{init}/children"))
        .ok()
        .and_then(|c| c.split_whitespace().next()?.parse().ok())
        .map_or(init, Pid::from_raw)
}

/// Starts `cmd`, trying again for a while when exec finds the program
/// busy (ETXTBSY). The executable was just copied into the bot's folder,
/// and a child that another thread forked meanwhile holds the copy's
/// descriptor (open for writing, close-on-exec) until it execs itself,
/// which can take milliseconds of sandbox set-up: bots started in parallel
/// (several matches, a server) meet this now and then.
fn spawn_when_not_busy(cmd: &mut Command, report: &OwnedFd, bot_status: Option<&OwnedFd>) -> Result<(Child, Option<Pid>), (io::Error, Option<u8>)> {
    let until = Instant::now() + EXEC_BUSY_WAIT_MAX;
    let mut pause = Duration::from_millis(1);
    loop {
        match spawn_once(cmd, report, bot_status) {
            Err((e, None)) if e.raw_os_error() == Some(libc::ETXTBSY) && Instant::now() < until => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(20));
            }
            spawned => return spawned,
        }
    }
}

/// How long a spawn keeps trying while exec finds the program busy. Under
/// a PID namespace the init, which never execs, holds the copy's
/// descriptor until it closes its own, after the bot's root is built:
/// milliseconds, far more on a loaded machine.
const EXEC_BUSY_WAIT_MAX: Duration = Duration::from_secs(5);

/// A bot's folder, with the empty folder that its quota's tmpfs is
/// mounted on in the bot's mount namespace; both are removed on drop (in
/// the runner's namespace they hold only what the runner put there).
#[derive(Debug)]
pub(crate) struct BotFolder {
    home: TempDir,
    _scratch: Option<TempDir>,
}

impl BotFolder {
    /// The bot's folder, its working directory.
    pub(crate) fn path(&self) -> &Path {
        self.home.path()
    }
}

/// The mounts of [`Layer::FolderQuota`], with every path and option made
/// into a C string before the fork.
struct QuotaMounts {
    /// The empty folder the tmpfs is mounted on.
    scratch: CString,
    tmpfs_options: CString,
    /// The overlay's writable layer and work folder, in the tmpfs.
    upper: CString,
    work: CString,
    /// The bot's folder: the overlay's lower layer and its mount point.
    folder: CString,
    overlay_options: CString,
    /// The bot's uid, which owns the writable layer.
    owner: Option<u32>,
}

impl QuotaMounts {
    fn build(
        limits: &SandboxLimits,
        folder: &Path,
        scratch: &Path,
        owner: Option<u32>,
    ) -> Result<QuotaMounts, SpawnError> {
        let text = |path: &Path| -> Result<String, SpawnError> {
            match path.to_str() {
                // The overlay's options are split at commas and its lower
                // layers at colons.
                Some(t) if !t.contains([',', ':', '\\']) => Ok(t.to_string()),
                _ => Err(SpawnError::Setup(format!(
                    "folder quota: the path {} must be UTF-8 without ',', ':' or '\\' (set folder_root elsewhere)",
                    path.display()
                ))),
            }
        };
        let (folder, scratch) = (text(folder)?, text(scratch)?);
        let c = |s: String| CString::new(s).map_err(|e| SpawnError::Setup(format!("folder quota: {e}")));
        // The tmpfs's own root, the writable layer, the work folder and
        // the work folder the overlay makes inside it take four inodes.
        let inodes = limits.folder_files_max.saturating_add(4);
        Ok(QuotaMounts {
            tmpfs_options: c(format!(
                "size={},nr_inodes={inodes},mode=0700",
                limits.folder_bytes_max
            ))?,
            upper: c(format!("{scratch}/upper"))?,
            work: c(format!("{scratch}/work"))?,
            overlay_options: c(format!(
                "lowerdir={folder},upperdir={scratch}/upper,workdir={scratch}/work"
            ))?,
            folder: c(folder)?,
            scratch: c(scratch)?,
            owner,
        })
    }

    /// Runs in the child, as root, before the uid changes, in a mount
    /// namespace of its own: the tmpfs, the overlay over the bot's folder,
    /// and the working directory moved onto the overlay (it was entered
    /// before the mount, so it still is the folder below). Only raw
    /// system calls on the strings made before the fork; returns the
    /// errno of the first that fails.
    #[allow(unsafe_code)]
    fn mount(&self) -> Result<(), i32> {
        let check = |ret: libc::c_int| {
            if ret == 0 {
                Ok(())
            } else {
                Err(Errno::last_raw())
            }
        };
        let flags = libc::MS_NOSUID | libc::MS_NODEV;
        // SAFETY: mount, mkdir, chown and chdir take integers and
        // pointers to NUL-terminated strings that live in `self` for the
        // whole call; they change only this process's mount namespace, the
        // new tmpfs and the working directory.
        unsafe {
            check(libc::mount(
                c"snakepit-bot".as_ptr(),
                self.scratch.as_ptr(),
                c"tmpfs".as_ptr(),
                flags,
                self.tmpfs_options.as_ptr().cast(),
            ))?;
            check(libc::mkdir(self.upper.as_ptr(), 0o700))?;
            check(libc::mkdir(self.work.as_ptr(), 0o700))?;
            if let Some(uid) = self.owner {
                check(libc::chown(self.upper.as_ptr(), uid, uid))?;
            }
            check(libc::mount(
                c"snakepit-bot".as_ptr(),
                self.folder.as_ptr(),
                c"overlay".as_ptr(),
                flags,
                self.overlay_options.as_ptr().cast(),
            ))?;
            check(libc::chdir(self.folder.as_ptr()))?;
        }
        Ok(())
    }
}

/// The access rights of the bot's folder: all that the ruleset handles,
/// which is what both [`LANDLOCK_ABI`] and the kernel know (the ruleset
/// is made best effort).
#[allow(unsafe_code)]
fn folder_access() -> landlock::BitFlags<AccessFs> {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_long = 1;
    // SAFETY: with a null attribute and the version flag, the call only
    // returns the kernel's landlock ABI version.
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    let kernel = ABI::from(i32::try_from(version).unwrap_or(0));
    AccessFs::from_all(kernel) & AccessFs::from_all(LANDLOCK_ABI)
}

/// What the child applies between `fork` and `exec`, all prepared in the
/// runner.
struct ChildSetup {
    /// Under [`Layer::Cgroup`], the files that move the child into the group.
    cgroup_join: Vec<OwnedFd>,
    rlimits: Vec<(Resource, u64)>,
    unshare_net: Option<CloneFlags>,
    /// A network namespace made ahead (see [`stock`](super::stock)), which
    /// the child enters instead of making one.
    net_ns: Option<OwnedFd>,
    ipc: bool,
    /// The same for the IPC and UTS namespaces.
    ipc_uts_ns: Option<IpcUts>,
    /// Under [`Layer::PidNamespace`]: the init and bot split.
    tree: Option<Tree>,
    /// A mount namespace of the bot's own, for the quota or the root.
    mount_ns: bool,
    /// The mount namespace made ahead that holds the common part of the
    /// bot's root (see [`stock`](super::stock)), which the child enters
    /// instead of making one.
    root_ns: Option<OwnedFd>,
    quota: Option<QuotaMounts>,
    root: Option<RootPlan>,
    uid: Option<u32>,
    /// Taken by the process that restricts itself (the bot under a PID
    /// namespace sees the setup through a shared reference).
    landlock: Mutex<Option<RulesetCreated>>,
    /// Rules the bot adds to the landlock ruleset itself, for what only
    /// exists in its mount namespace (the folder's overlay, the minimal
    /// root's own folders): a second descriptor of the ruleset, and each
    /// path with its access rights.
    landlock_in_child: Option<(OwnedFd, Vec<(CString, u64)>)>,
    seccomp: Vec<BpfProgram>,
    runner_pid: Pid,
    /// The write end of a close-on-exec pipe: on failure the child writes
    /// the failing layer's code and the errno (`spawn` only passes on the
    /// errno, and nothing at all for a failure in the init or the bot
    /// under a PID namespace).
    report: OwnedFd,
    /// The runner's end of the report pipe, which the init closes to tell
    /// whether the runner is still there (see `Tree::init_prelude`).
    report_runner_end: RawFd,
    /// Under [`Layer::PidNamespace`], what the bot execs by itself.
    exec: Option<ExecPlan>,
}

impl ChildSetup {
    fn build(
        limits: &SandboxLimits,
        layers: LayerSet,
        folder: &Path,
        scratch: Option<&Path>,
        uid: Option<u32>,
        root: Option<(RootPlan, Option<OwnedFd>)>,
        report: OwnedFd,
    ) -> Result<ChildSetup, SpawnError> {
        let mut rlimits = Vec::new();
        if layers.contains(Layer::Rlimits) {
            let wanted = [
                (Resource::CPU, limits.cpu_seconds_max),
                (Resource::AS, limits.address_space_bytes_max),
                (Resource::NPROC, limits.processes_max),
                (Resource::FSIZE, limits.file_size_bytes_max),
                (Resource::NOFILE, limits.open_files_max),
                (Resource::CORE, Some(0)),
            ];
            // `is_supported` is checked here because the crate's error for
            // an unsupported resource allocates, which the child must not.
            rlimits = wanted
                .into_iter()
                .filter_map(|(r, v)| Some((r, v?)))
                .filter(|(r, _)| r.is_supported())
                .collect();
        }
        let unshare_net = layers.contains(Layer::NetworkNamespace).then(|| {
            if Uid::effective().is_root() {
                CloneFlags::CLONE_NEWNET
            } else {
                // Without root, a new user namespace grants the right to
                // make the network namespace; no uid map is needed, since
                // the bot needs no identity inside it.
                CloneFlags::CLONE_NEWUSER | CloneFlags::CLONE_NEWNET
            }
        });
        let owner = uid.filter(|_| layers.contains(Layer::DedicatedUid));
        let landlock = if layers.contains(Layer::Landlock) {
            Some(
                landlock_ruleset(limits, folder)
                    .map_err(|e| SpawnError::Setup(format!("landlock: {e}")))?,
            )
        } else {
            None
        };
        let c = |p: &Path| CString::new(p.as_os_str().as_encoded_bytes()).map_err(|e| SpawnError::Setup(format!("landlock: {e}")));
        let with_quota = layers.contains(Layer::FolderQuota);
        let mut in_child_rules: Vec<(CString, u64)> = Vec::new();
        let (plan, root_ns) = match root {
            Some((plan, ns)) => (Some(plan), ns),
            None => (None, None),
        };
        let (quota, root) = match (plan, scratch) {
            (Some(plan), _) => {
                let read = (AccessFs::from_read(LANDLOCK_ABI) & folder_access()).bits();
                in_child_rules.extend(plan.landlock_paths.iter().map(|(p, rights)| {
                    let bits = match rights {
                        LandlockRights::ListOnly => (folder_access() & AccessFs::ReadDir).bits(),
                        LandlockRights::ReadOnly => read,
                        LandlockRights::ReadWrite => folder_access().bits(),
                    };
                    (p.clone(), bits)
                }));
                (None, Some(plan))
            }
            (None, Some(scratch)) if with_quota => {
                // The rule made in the runner names the folder below the
                // overlay, and landlock does not look at a mount point,
                // only at what is above it.
                in_child_rules.push((c(folder)?, folder_access().bits()));
                (Some(QuotaMounts::build(limits, folder, scratch, owner)?), None)
            }
            _ => (None, None),
        };
        let landlock_in_child = match &landlock {
            Some(ruleset) if !in_child_rules.is_empty() => {
                let fd: Option<OwnedFd> = ruleset
                    .try_clone()
                    .map_err(|e| SpawnError::Setup(format!("landlock: {e}")))?
                    .into();
                let fd = fd.ok_or_else(|| SpawnError::Setup("landlock: the ruleset has no descriptor".into()))?;
                Some((fd, in_child_rules))
            }
            _ => None,
        };
        let seccomp = if layers.contains(Layer::Seccomp) {
            seccomp_programs_cached(layers.contains(Layer::IpcNamespace))
                .map_err(|e| SpawnError::Setup(format!("seccomp: {e}")))?
        } else {
            Vec::new()
        };
        let tree = if layers.contains(Layer::PidNamespace) { Some(Tree::build()?) } else { None };
        // Made ahead by a root runner only: a child without root could not
        // enter them (it makes its own inside a user namespace).
        let is_root = Uid::effective().is_root();
        let ipc = layers.contains(Layer::IpcNamespace);
        Ok(ChildSetup {
            cgroup_join: Vec::new(),
            rlimits,
            net_ns: unshare_net.filter(|_| is_root).and_then(|_| super::stock::take_net()),
            unshare_net,
            ipc,
            ipc_uts_ns: if ipc && is_root { super::stock::take_ipc_uts() } else { None },
            tree,
            mount_ns: quota.is_some() || root.is_some(),
            root_ns,
            quota,
            root,
            uid: owner,
            landlock: Mutex::new(landlock),
            landlock_in_child,
            seccomp,
            runner_pid: Pid::this(),
            report,
            report_runner_end: -1,
            exec: None,
        })
    }

    /// Runs in the child after `fork`, before `exec`. Each call below is a
    /// thin wrapper over one system call that POSIX or Linux lists as
    /// async-signal-safe (or that, like `unshare` or `landlock_restrict_self`,
    /// only changes the calling thread's kernel state), made with data
    /// prepared before the fork. Nothing allocates: errors carry the errno
    /// alone (`io::Error::from_raw_os_error` does not allocate).
    ///
    /// Under [`Layer::PidNamespace`] the child is the init of the bot's
    /// PID namespace (see [`tree`](super::tree)): it enters the other
    /// namespaces and mounts the bot's tree, then starts the bot
    /// ([`bot_main`]), which applies the rest and execs; the init never
    /// returns. Without it, the child does all three parts and returns,
    /// to exec.
    #[allow(unsafe_code)]
    fn apply(&mut self) -> io::Result<()> {
        if let Some(tree) = &self.tree
            && let Err(errno) = tree.init_prelude(self.report.as_raw_fd(), self.report_runner_end)
        {
            return self.fail(Layer::PidNamespace, errno);
        }
        self.enter_namespaces()?;
        self.mount()?;
        if let Some(tree) = &self.tree {
            let setup: *const ChildSetup = &*self;
            // SAFETY: `bot_main` ends with `exec` or `_exit`.
            let errno = unsafe { tree.start_bot(bot_main, setup.cast_mut().cast()) };
            return self.fail(Layer::PidNamespace, errno);
        }
        self.restrict()
    }

    /// The first part: the cgroup and the namespaces.
    fn enter_namespaces(&self) -> io::Result<()> {
        // write(2), before any fork, so the whole tree is in the group.
        if let Err(errno) = super::cgroup::join_in_child(&self.cgroup_join) {
            return self.fail(Layer::Cgroup, errno);
        }
        // close_range(2), only setting a flag.
        mark_inherited_fds_cloexec();
        // unshare(2), or setns(2) into namespaces made ahead, one layer at
        // a time so that a failure names it.
        if let Some(flags) = self.unshare_net {
            let entered = match &self.net_ns {
                Some(ns) => nix::sched::setns(ns, CloneFlags::CLONE_NEWNET),
                None => nix::sched::unshare(flags),
            };
            if let Err(errno) = entered {
                return self.fail(Layer::NetworkNamespace, errno as i32);
            }
        }
        if self.ipc {
            let entered = match &self.ipc_uts_ns {
                Some(ns) => nix::sched::setns(&ns.ipc, CloneFlags::CLONE_NEWIPC)
                    .and_then(|()| nix::sched::setns(&ns.uts, CloneFlags::CLONE_NEWUTS)),
                None => nix::sched::unshare(CloneFlags::CLONE_NEWIPC | CloneFlags::CLONE_NEWUTS),
            };
            if let Err(errno) = entered {
                return self.fail(Layer::IpcNamespace, errno as i32);
            }
        }
        if self.mount_ns {
            let layer = if self.root.is_some() { Layer::MinimalRoot } else { Layer::FolderQuota };
            if let Some(ns) = &self.root_ns {
                // setns(2): made private, with the root's common part, by
                // the stock thread.
                if let Err(errno) = nix::sched::setns(ns, CloneFlags::CLONE_NEWNS) {
                    return self.fail(layer, errno as i32);
                }
            } else {
                if let Err(errno) = nix::sched::unshare(CloneFlags::CLONE_NEWNS) {
                    return self.fail(layer, errno as i32);
                }
                // mount(2): nothing mounted here may show in the runner's
                // namespace.
                if let Err(errno) = make_mounts_private() {
                    return self.fail(layer, errno);
                }
            }
        }
        Ok(())
    }

    /// The second part: the bot's tree, in the init under a PID namespace
    /// (whose `/proc` the root mounts: only a process of the namespace can).
    fn mount(&self) -> io::Result<()> {
        if let Some(quota) = &self.quota
            && let Err(errno) = quota.mount()
        {
            return self.fail(Layer::FolderQuota, errno);
        }
        if let Some(root) = &self.root
            && let Err(errno) = root.enter()
        {
            return self.fail(Layer::MinimalRoot, errno);
        }
        // sethostname(2).
        if self.ipc
            && let Err(errno) = set_hostname()
        {
            return self.fail(Layer::IpcNamespace, errno);
        }
        Ok(())
    }

    /// The last part, in the bot itself: landlock, the limits, the uid and
    /// seccomp.
    fn restrict(&self) -> io::Result<()> {
        // Before the rlimits, while the runner's descriptors still count
        // against no lower RLIMIT_NOFILE: each rule opens its path.
        if let Some((ruleset, rules)) = &self.landlock_in_child {
            for (path, access) in rules {
                if let Err(errno) = add_landlock_rule(ruleset, path, *access) {
                    return self.fail(Layer::Landlock, errno);
                }
            }
        }
        for &(resource, value) in &self.rlimits {
            // Soft and hard limits are equal, except the CPU limit, whose
            // soft limit sends SIGXCPU and whose hard limit a second later
            // sends SIGKILL, for a bot that ignores SIGXCPU.
            let hard = if resource == Resource::CPU {
                value.saturating_add(1)
            } else {
                value
            };
            // setrlimit(2); the crate allocates only for an unsupported
            // resource, and those were filtered out in the runner.
            if let Err(e) = rlimit::setrlimit(resource, value, hard) {
                return self.fail(Layer::Rlimits, e.raw_os_error().unwrap_or(libc::EINVAL));
            }
        }
        if let Some(uid) = self.uid {
            let (uid, gid) = (Uid::from_raw(uid), Gid::from_raw(uid));
            // setgroups(2), setresgid(2), setresuid(2), as `std` itself
            // does for `CommandExt::uid`. The groups go first, while still
            // root; leaving root clears every capability.
            let changed = nix::unistd::setgroups(&[])
                .and_then(|()| nix::unistd::setresgid(gid, gid, gid))
                .and_then(|()| nix::unistd::setresuid(uid, uid, uid));
            if let Err(errno) = changed {
                return self.fail(Layer::DedicatedUid, errno as i32);
            }
        }
        // prctl(2) and getppid(2). Set after the uid change, which clears
        // it. If the runner is gone already, the signal would never come:
        // stop here. In a PID namespace the init's end kills the bot.
        if self.tree.is_none()
            && (nix::sys::prctl::set_pdeathsig(Signal::SIGKILL).is_err()
                || nix::unistd::getppid() != self.runner_pid)
        {
            return Err(io::Error::from_raw_os_error(libc::ESRCH));
        }
        // A futex, never contended: the runner never locks it, and only
        // one process of the child runs here.
        let ruleset = self.landlock.lock().ok().and_then(|mut r| r.take());
        if let Some(ruleset) = ruleset {
            // prctl(PR_SET_NO_NEW_PRIVS), landlock_restrict_self(2) and
            // close(2) of the ruleset; the crate's error types hold only
            // the errno.
            match ruleset.restrict_self() {
                Ok(status) if status.ruleset != RulesetStatus::NotEnforced => {}
                Ok(_) => return self.fail(Layer::Landlock, libc::EOPNOTSUPP),
                Err(_) => return self.fail(Layer::Landlock, Errno::last_raw()),
            }
        }
        // prctl(PR_SET_NO_NEW_PRIVS) and seccomp(2). Last, so the calls
        // above are not filtered.
        for program in &self.seccomp {
            if seccompiler::apply_filter(program).is_err() {
                return self.fail(Layer::Seccomp, Errno::last_raw());
            }
        }
        Ok(())
    }

    /// Writes the failing layer's code and the errno to the report pipe,
    /// and returns the errno as the error `spawn` passes on.
    fn fail(&self, layer: Layer, errno: i32) -> io::Result<()> {
        self.report_failure(layer.code(), errno);
        Err(io::Error::from_raw_os_error(errno))
    }

    fn report_failure(&self, code: u8, errno: i32) {
        let e = errno.to_ne_bytes();
        // write(2). Best effort: under a PID namespace the runner then
        // learns only that the bot ended before its first answer.
        let _ = nix::unistd::write(&self.report, &[code, e[0], e[1], e[2], e[3]]);
    }
}

/// The bot (see [`tree`](super::tree)), on its own stack in the init's
/// memory while the init sleeps: leads a process group, applies the rest
/// of the sandbox and execs the program. Never returns.
#[allow(unsafe_code)]
extern "C" fn bot_main(setup: *mut libc::c_void) -> libc::c_int {
    // SAFETY: the `ChildSetup` that `apply` passed, in this process's
    // memory, which it shares with the init; the init sleeps until this
    // process has exec'd or exited.
    let setup = unsafe { &*setup.cast::<ChildSetup>() };
    // SAFETY: setpgid takes integers.
    if unsafe { libc::setpgid(0, 0) } != 0 {
        let _ = setup.fail(Layer::PidNamespace, Errno::last_raw());
    } else if setup.restrict().is_ok()
        && let Some(exec) = &setup.exec
    {
        let errno = exec.run();
        setup.report_failure(EXEC_FAILED, errno);
    }
    exit_now()
}

/// The code in the report pipe of a failed `exec` under a PID namespace,
/// where the bot execs by itself (no layer's code is this high).
const EXEC_FAILED: u8 = u8::MAX;

/// `_exit(127)`, as a failed exec ends: no handler or destructor of the
/// runner's may run in this copy.
fn exit_now() -> ! {
    // SAFETY: _exit takes an integer and ends the process at once.
    #[allow(unsafe_code)]
    unsafe {
        libc::_exit(127)
    }
}

/// What the bot execs when it execs by itself (under a PID namespace),
/// made in the runner as `std` makes it for `Command`: the program, its
/// arguments and its whole environment, with `PATH` searched as `execvp`
/// searches it.
struct ExecPlan {
    program: CString,
    _strings: Vec<CString>,
    /// NULL-terminated, pointing into `_strings`.
    argv: Vec<*const libc::c_char>,
    envp: Vec<*const libc::c_char>,
}

// SAFETY: the pointers point into the `CString`s the value owns, whose
// heap buffers do not move, and nothing writes through them.
#[allow(unsafe_code)]
unsafe impl Send for ExecPlan {}
#[allow(unsafe_code)]
unsafe impl Sync for ExecPlan {}

impl ExecPlan {
    fn build(program: &std::ffi::OsStr, args: &[OsString], env: &BTreeMap<OsString, OsString>) -> Result<ExecPlan, SpawnError> {
        let c = |bytes: Vec<u8>| CString::new(bytes).map_err(|e| SpawnError::Setup(format!("exec: {e}")));
        let program = c(program.as_encoded_bytes().to_vec())?;
        let mut strings = vec![program.clone()];
        for arg in args {
            strings.push(c(arg.as_encoded_bytes().to_vec())?);
        }
        let argc = strings.len();
        for (key, value) in env {
            strings.push(c([key.as_encoded_bytes(), b"=", value.as_encoded_bytes()].concat())?);
        }
        let pointers = |list: &[CString]| list.iter().map(|s| s.as_ptr()).chain([std::ptr::null()]).collect();
        Ok(ExecPlan {
            argv: pointers(&strings[..argc]),
            envp: pointers(&strings[argc..]),
            program,
            _strings: strings,
        })
    }

    /// `execvp(3)` with this environment, as `std` does after the fork.
    /// Returns only on failure, with the errno.
    #[allow(unsafe_code)]
    fn run(&self) -> i32 {
        unsafe extern "C" {
            static mut environ: *const *const libc::c_char;
        }
        // SAFETY: `environ` is this process's own (its memory is shared
        // only with the sleeping init, which reads no environment), set to
        // a NULL-terminated array of live strings;
        // execvp reads it to search PATH and passes it on.
        unsafe {
            environ = self.envp.as_ptr();
            libc::execvp(self.program.as_ptr(), self.argv.as_ptr());
        }
        Errno::last_raw()
    }
}

/// mount(2): makes every mount of this (new) mount namespace private.
#[allow(unsafe_code)]
pub(crate) fn make_mounts_private() -> Result<(), i32> {
    let none = std::ptr::null::<libc::c_char>();
    // SAFETY: mount takes a live NUL-terminated string, nulls and flags.
    match unsafe { libc::mount(none, c"/".as_ptr(), none, libc::MS_REC | libc::MS_PRIVATE, none.cast()) } {
        0 => Ok(()),
        _ => Err(Errno::last_raw()),
    }
}

/// sethostname(2), in the bot's own UTS namespace.
#[allow(unsafe_code)]
pub(crate) fn set_hostname() -> Result<(), i32> {
    let name = super::root::HOSTNAME;
    // SAFETY: sethostname reads `name.len()` bytes of a live string.
    match unsafe { libc::sethostname(name.as_ptr().cast(), name.len()) } {
        0 => Ok(()),
        _ => Err(Errno::last_raw()),
    }
}

/// Adds a landlock rule for `path` (opened here) with `access` to the
/// ruleset behind `ruleset`. Only raw system calls; returns the errno.
#[allow(unsafe_code)]
fn add_landlock_rule(ruleset: &OwnedFd, path: &CStr, access: u64) -> Result<(), i32> {
    // The kernel's `struct landlock_path_beneath_attr`.
    #[repr(C, packed)]
    struct PathBeneath {
        allowed_access: u64,
        parent_fd: i32,
    }
    const LANDLOCK_RULE_PATH_BENEATH: libc::c_long = 1;
    // SAFETY: open and close take a live NUL-terminated string and
    // integers; landlock_add_rule reads the attribute, a live local of the
    // kernel's layout, and adds a rule to the ruleset.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC);
        if fd < 0 {
            return Err(Errno::last_raw());
        }
        let attr = PathBeneath {
            allowed_access: access,
            parent_fd: fd,
        };
        let added = libc::syscall(
            libc::SYS_landlock_add_rule,
            ruleset.as_raw_fd(),
            LANDLOCK_RULE_PATH_BENEATH,
            &raw const attr,
            0,
        );
        let errno = Errno::last_raw();
        libc::close(fd);
        if added != 0 {
            return Err(errno);
        }
    }
    Ok(())
}

/// Registers `setup` to run in the child between `fork` and `exec`.
#[allow(unsafe_code)]
fn install_pre_exec(cmd: &mut Command, mut setup: ChildSetup) {
    // SAFETY: `pre_exec` is unsafe because the closure runs in a forked
    // copy of a multi-threaded process, where only async-signal-safe calls
    // are allowed. `ChildSetup::apply` makes only such calls (see its
    // comment) on data prepared before the fork, and never allocates.
    unsafe {
        cmd.pre_exec(move || setup.apply());
    }
}

/// Marks every descriptor above stderr close-on-exec, so that no file,
/// socket or pipe of the runner that lacks the flag (a library may open
/// one without it) reaches the bot.
#[allow(unsafe_code)]
fn mark_inherited_fds_cloexec() {
    // SAFETY: close_range(2) is a plain system call with integer
    // arguments; with CLOSE_RANGE_CLOEXEC it only sets a flag, so it cannot
    // close a descriptor the runner or `spawn` still uses. A kernel older
    // than 5.11 returns ENOSYS, which is ignored (the runner opens its own
    // files close-on-exec anyway).
    unsafe {
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        );
    }
}

/// Kills every process of `uid` (the bot's dedicated uid), including any
/// that left the process group, in one atomic `kill(-1, SIGKILL)` made
/// with that uid: from the calling thread when the runner is root, else
/// from a short-lived child.
pub(crate) fn kill_all_of_uid(uid: u32) {
    if !kill_all_of_uid_here(uid) {
        kill_all_of_uid_in_child(uid);
    }
}

/// The kill of [`kill_all_of_uid`] from the calling thread, which takes the
/// uid for the moment of the kill and then takes root back; `false` when
/// the runner is not root (real, effective and saved uid 0), which leaves
/// it to the child.
///
/// Linux keeps credentials per thread, and the raw setresuid (unlike
/// glibc's wrapper, which changes every thread) changes only this one, so
/// the runner's other threads keep running as root. This costs a few
/// system calls (20 to 40 µs on a small VM, mostly kill(-1) looking at
/// every process) where a child of the runner cost a process creation
/// (300 to 500 µs there) at every end of a bot. The saved uid
/// stays 0, so taking root back is always allowed; the effective
/// capabilities are cleared as long as the euid is not 0, which is checked
/// before the kill, since a runner that keeps them (`SECBIT_NO_SETUID_FIXUP`)
/// would kill every process of the machine.
#[allow(unsafe_code)]
fn kill_all_of_uid_here(uid: u32) -> bool {
    match nix::unistd::getresuid() {
        Ok(ids) if ids.real.is_root() && ids.effective.is_root() && ids.saved.is_root() => {}
        _ => return false,
    }
    // No signal handler of the runner runs with the bot's uid.
    let mut kept = SigSet::empty();
    let _ = pthread_sigmask(
        SigmaskHow::SIG_SETMASK,
        Some(&SigSet::all()),
        Some(&mut kept),
    );
    // SAFETY: prctl(PR_GET_DUMPABLE) only reads a flag.
    let dumpable = unsafe { libc::prctl(libc::PR_GET_DUMPABLE) };
    // SAFETY: raw setresuid and kill take integers and change nothing but
    // this thread's credentials and the target processes.
    let took = unsafe { libc::syscall(libc::SYS_setresuid, uid, uid, 0) } == 0;
    let mut refused = false;
    if took {
        if cap_kill_effective() == Some(false) {
            // SAFETY: as above. kill(-1) reaches every process this uid
            // may signal, except the runner's own threads.
            unsafe { libc::kill(-1, libc::SIGKILL) };
        } else {
            refused = true;
        }
        // SAFETY: as above.
        if unsafe { libc::syscall(libc::SYS_setresuid, 0, 0, 0) } != 0 {
            // Cannot happen with a saved uid of 0; a runner thread stuck
            // with a bot's uid must not go on.
            std::process::abort();
        }
        // A change of euid marks the process as not dumpable: put the
        // runner's flag back.
        // SAFETY: prctl(PR_SET_DUMPABLE) only sets that flag, to its value
        // from before.
        if dumpable >= 0 && unsafe { libc::prctl(libc::PR_GET_DUMPABLE) } != dumpable {
            unsafe { libc::prctl(libc::PR_SET_DUMPABLE, dumpable as libc::c_ulong) };
        }
    }
    let _ = pthread_sigmask(SigmaskHow::SIG_SETMASK, Some(&kept), None);
    if refused {
        tracing::error!(
            uid,
            "the runner keeps CAP_KILL under a bot's uid: the bot's processes outside its group are not killed"
        );
    }
    took
}

/// Whether the calling thread has CAP_KILL in its effective set; `None`
/// when it cannot be read.
#[allow(unsafe_code)]
fn cap_kill_effective() -> Option<bool> {
    #[repr(C)]
    struct Header {
        version: u32,
        pid: i32,
    }
    #[repr(C)]
    #[derive(Clone, Copy, Default)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    const LINUX_CAPABILITY_VERSION_3: u32 = 0x2008_0522;
    const CAP_KILL: u32 = 5;
    let mut header = Header {
        version: LINUX_CAPABILITY_VERSION_3,
        pid: 0,
    };
    let mut data = [Data::default(); 2];
    // SAFETY: capget with version 3 writes two `Data` structures (the
    // kernel's layout, three u32 each) for the calling thread (pid 0).
    let read = unsafe { libc::syscall(libc::SYS_capget, &raw mut header, data.as_mut_ptr()) };
    (read == 0).then_some(data[0].effective & (1 << CAP_KILL) != 0)
}

/// The kill of [`kill_all_of_uid`] from a child that takes the uid.
#[allow(unsafe_code)]
fn kill_all_of_uid_in_child(uid: u32) {
    // SAFETY: after the fork the child makes only raw system calls
    // (setresuid, kill, _exit), which are async-signal-safe; it never
    // returns into Rust code. The raw setresuid avoids glibc's wrapper,
    // which signals the other threads of the process (the child has none).
    match unsafe { nix::unistd::fork() } {
        Ok(nix::unistd::ForkResult::Child) => unsafe {
            if libc::syscall(libc::SYS_setresuid, uid, uid, uid) == 0 {
                // kill(-1) reaches every process this uid may signal,
                // except the caller itself.
                libc::kill(-1, libc::SIGKILL);
            }
            libc::_exit(0);
        },
        Ok(nix::unistd::ForkResult::Parent { child }) => {
            while let Err(Errno::EINTR) = nix::sys::wait::waitpid(child, None) {}
        }
        Err(_) => {}
    }
}

fn landlock_ruleset(
    limits: &SandboxLimits,
    folder: &Path,
) -> Result<RulesetCreated, landlock::RulesetError> {
    Ok(Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(LANDLOCK_ABI))?
        .handle_access(AccessNet::from_all(LANDLOCK_ABI))?
        .scope(Scope::from_all(LANDLOCK_ABI))?
        .create()?
        .add_rules(held_path_rules(
            &limits.system_paths_read_only,
            AccessFs::from_read(LANDLOCK_ABI),
        ))?
        .add_rules(held_path_rules(
            &limits.devices_read_write,
            AccessFs::from_file(LANDLOCK_ABI) & !AccessFs::Execute,
        ))?
        .add_rules(path_beneath_rules(
            [folder],
            AccessFs::from_all(LANDLOCK_ABI),
        ))?
        // No rule for the network: every TCP bind and connect is refused.
        .no_new_privs(true))
}

/// An `O_PATH` descriptor of a system path or device, held by the runner
/// for every bot's rules (see [`held_path_rules`]), with the identity of
/// the file it was opened on.
struct HeldPath {
    fd: std::sync::Arc<OwnedFd>,
    is_file: bool,
    dev: u64,
    ino: u64,
}

impl HeldPath {
    fn open(path: &Path) -> io::Result<HeldPath> {
        use std::os::unix::fs::MetadataExt;
        let file = fs::File::options().read(true).custom_flags(libc::O_PATH).open(path)?;
        let meta = file.metadata()?;
        Ok(HeldPath { fd: std::sync::Arc::new(file.into()), is_file: !meta.is_dir(), dev: meta.dev(), ino: meta.ino() })
    }
}

static HELD_PATHS: Mutex<BTreeMap<PathBuf, HeldPath>> = Mutex::new(BTreeMap::new());

/// Landlock rules for `paths` that exist, as `path_beneath_rules` makes
/// them (a file gets only the rights a file can have), on descriptors
/// opened once per runner: a start then pays one `stat` per path, where
/// opening, checking and closing each took several system calls, about
/// 10 µs a path on the start's path. A path that now names another file
/// (a runtime reinstalled) is opened again.
fn held_path_rules(paths: &[PathBuf], access: BitFlags<AccessFs>) -> Vec<Result<PathBeneath<std::sync::Arc<OwnedFd>>, landlock::RulesetError>> {
    use std::os::unix::fs::MetadataExt;
    let mut held = HELD_PATHS.lock().unwrap_or_else(|e| e.into_inner());
    let mut rules = Vec::with_capacity(paths.len());
    for path in paths {
        // A rule is for the file the path names now, as when it is opened.
        let Ok(now) = fs::metadata(path) else {
            held.remove(path);
            continue;
        };
        let current = held.get(path).filter(|h| h.dev == now.dev() && h.ino == now.ino());
        let (fd, is_file) = match current {
            Some(entry) => (entry.fd.clone(), entry.is_file),
            None => {
                let Ok(entry) = HeldPath::open(path) else {
                    held.remove(path);
                    continue;
                };
                let rule = (entry.fd.clone(), entry.is_file);
                held.insert(path.clone(), entry);
                rule
            }
        };
        let rights = if is_file { access & AccessFs::from_file(LANDLOCK_ABI) } else { access };
        rules.push(Ok(PathBeneath::new(fd, rights)));
    }
    rules
}

/// [`seccomp_programs`], compiled once per runner for each of its two
/// forms.
fn seccomp_programs_cached(ipc_private: bool) -> Result<Vec<BpfProgram>, String> {
    static PROGRAMS: [OnceLock<Result<Vec<BpfProgram>, String>>; 2] = [OnceLock::new(), OnceLock::new()];
    PROGRAMS[usize::from(ipc_private)]
        .get_or_init(|| seccomp_programs(ipc_private).map_err(|e| e.to_string()))
        .clone()
}

/// The seccomp programs: the first lets everything through except the
/// calls listed in [`Layer::Seccomp`], which fail with EPERM; the second
/// makes `clone3` fail with ENOSYS, since its flags lie in memory, which
/// a filter cannot read: the C library then falls back to `clone`, whose
/// flags the first program checks. SysV IPC is refused too when the bot
/// has no IPC namespace of its own (`ipc_private` false), where its
/// objects would outlive it and reach other bots.
fn seccomp_programs(ipc_private: bool) -> Result<Vec<BpfProgram>, seccompiler::BackendError> {
    let arch = TargetArch::try_from(std::env::consts::ARCH)?;
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    let first_arg_is = |value: u64| -> Result<SeccompRule, seccompiler::BackendError> {
        let cond = SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, value)?;
        SeccompRule::new(vec![cond])
    };
    let socket_rules = [libc::AF_INET, libc::AF_INET6, libc::AF_PACKET, libc::AF_NETLINK, libc::AF_VSOCK]
        .into_iter()
        .map(|domain| first_arg_is(domain as u64))
        .collect::<Result<Vec<_>, _>>()?;
    rules.insert(libc::SYS_socket, socket_rules);
    // A user namespace would make the bot root of namespaces of its own,
    // with all the kernel's code for mounts and networks to attack.
    let new_user = CloneFlags::CLONE_NEWUSER.bits() as u64;
    for call in [libc::SYS_clone, libc::SYS_unshare] {
        let cond = SeccompCondition::new(0, SeccompCmpArgLen::Qword, SeccompCmpOp::MaskedEq(new_user), new_user)?;
        rules.insert(call, vec![SeccompRule::new(vec![cond])?]);
    }
    let mut refused = vec![
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_setsid,
        libc::SYS_setpgid,
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        // The kernel's keyrings are not namespaced.
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
    ];
    if !ipc_private {
        refused.extend([
            libc::SYS_shmget,
            libc::SYS_shmat,
            libc::SYS_shmctl,
            libc::SYS_msgget,
            libc::SYS_msgsnd,
            libc::SYS_msgrcv,
            libc::SYS_msgctl,
            libc::SYS_semget,
            libc::SYS_semop,
            libc::SYS_semtimedop,
            libc::SYS_semctl,
            libc::SYS_mq_open,
        ]);
    }
    for call in refused {
        // An empty rule list matches the call whatever its arguments.
        rules.insert(call, Vec::new());
    }
    let main = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )?;
    let clone3 = SeccompFilter::new(
        BTreeMap::from([(libc::SYS_clone3, Vec::new())]),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOSYS as u32),
        arch,
    )?;
    Ok(vec![main.try_into()?, clone3.try_into()?])
}

/// A uid of the bots' range, leased to one bot until dropped.
#[derive(Debug)]
pub(crate) struct UidLease {
    pub(crate) uid: u32,
}

/// The uids leased by this runner.
static LEASED_UIDS: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());
/// Where the next search for a free uid starts.
static NEXT_UID_INDEX: AtomicU32 = AtomicU32::new(0);

impl UidLease {
    /// Leases a uid of `first..first + count` that this runner has not
    /// leased and that no process on the machine uses (another runner's
    /// bot, say). Sharing a uid would share the `RLIMIT_NPROC` budget and
    /// let the per-uid kill reach the other bot.
    fn take(first: u32, count: u32) -> Result<UidLease, SpawnError> {
        let count = count.min(u32::MAX - first);
        if count == 0 {
            return Err(SpawnError::NoFreeUid);
        }
        let mut leased = LEASED_UIDS.lock().unwrap_or_else(|e| e.into_inner());
        // Start each runner at a different place, so two runners rarely
        // race for the same uid.
        let start = NEXT_UID_INDEX
            .fetch_add(1, Ordering::Relaxed)
            .wrapping_add(std::process::id().wrapping_mul(7919));
        for i in 0..count {
            let index = start.wrapping_add(i) % count;
            let uid = first + index;
            if !leased.contains(&uid) && !uid_has_processes(uid) {
                leased.insert(uid);
                return Ok(UidLease { uid });
            }
        }
        Err(SpawnError::NoFreeUid)
    }
}

impl Drop for UidLease {
    fn drop(&mut self) {
        LEASED_UIDS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.uid);
    }
}

/// Whether a process (a thread, a zombie) of real uid `uid` exists now,
/// in this PID namespace or one below it. `getpriority(PRIO_USER)` looks
/// at every thread in the kernel and fails with ESRCH when none has the
/// uid (at once when the kernel holds no state for the uid at all): a
/// few µs, where reading the owner of every `/proc/PID` took a few
/// hundred. Any other answer, an error included, counts as busy.
#[allow(unsafe_code)]
fn uid_has_processes(uid: u32) -> bool {
    // SAFETY: getpriority takes two integers; errno is this thread's.
    unsafe {
        *libc::__errno_location() = 0;
        let nice = libc::getpriority(libc::PRIO_USER, uid);
        !(nice == -1 && *libc::__errno_location() == libc::ESRCH)
    }
}

/// Whether one layer is active on this machine, and what it does or why not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayerStatus {
    /// The layer worked in a real child process.
    Active(String),
    /// The layer cannot be used here; the text says why.
    Unavailable(String),
}

/// Which sandbox layers this machine allows, found by applying each in a
/// real child process. Print it at start-up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SandboxReport {
    /// One entry per layer, in [`Layer::ALL`] order.
    pub layers: Vec<(Layer, LayerStatus)>,
}

impl SandboxReport {
    /// Tries each layer alone in a child (`/bin/sh`, with the default
    /// limits) and, where it can, checks the effect: the child of the
    /// network test sees only `lo`, the child of the landlock test cannot
    /// create a file beside its folder, the child of the uid test is not
    /// root. Takes a few milliseconds per layer.
    pub fn detect() -> SandboxReport {
        SandboxReport {
            layers: Layer::ALL
                .into_iter()
                .map(|l| (l, detect_layer(l)))
                .collect(),
        }
    }

    /// The detection made once per runner, used by
    /// [`ProcessBot::spawn`](super::ProcessBot::spawn).
    pub fn cached() -> &'static SandboxReport {
        static REPORT: OnceLock<SandboxReport> = OnceLock::new();
        REPORT.get_or_init(SandboxReport::detect)
    }

    /// The active layers.
    pub fn active(&self) -> LayerSet {
        self.layers
            .iter()
            .filter(|(_, s)| matches!(s, LayerStatus::Active(_)))
            .map(|(l, _)| *l)
            .collect()
    }

    /// Why `layer` is unavailable, or `None` when it is active.
    pub fn unavailable_reason(&self, layer: Layer) -> Option<&str> {
        self.layers
            .iter()
            .find(|(l, _)| *l == layer)
            .map_or(Some("not detected"), |(_, s)| match s {
                LayerStatus::Active(_) => None,
                LayerStatus::Unavailable(why) => Some(why.as_str()),
            })
    }
}

impl fmt::Display for SandboxReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "bot sandbox layers on this machine:")?;
        for (layer, status) in &self.layers {
            match status {
                LayerStatus::Active(what) => writeln!(f, "  {:<18} active: {what}", layer.name())?,
                LayerStatus::Unavailable(why) => writeln!(f, "  {:<18} OFF: {why}", layer.name())?,
            }
        }
        if Uid::effective().is_root() && !self.active().contains(Layer::DedicatedUid) {
            writeln!(
                f,
                "  WARNING: the runner is root and bots would run as root too"
            )?;
        }
        Ok(())
    }
}

fn detect_layer(layer: Layer) -> LayerStatus {
    let is_root = Uid::effective().is_root();
    let root_check: String;
    let (check, active) = match layer {
        Layer::Cgroup => {
            if !is_root {
                return LayerStatus::Unavailable("the runner is not root; memory and processes are bounded per process only".into());
            }
            match super::cgroup::availability() {
                Ok(kind) => {
                    root_check = format!("while read -r l; do case $l in *snakepit/{}-*) exit 0;; esac; done </proc/self/cgroup; exit 1", std::process::id());
                    (root_check.as_str(), format!("{kind}: memory (shared memory and folder included), processes and CPU time of all the bot's processes together"))
                }
                Err(why) => return LayerStatus::Unavailable(why),
            }
        }
        Layer::Rlimits => (
            "exit 0",
            "CPU seconds, address space, processes, file size, open files, no core".to_string(),
        ),
        Layer::DedicatedUid => {
            if !is_root {
                return LayerStatus::Unavailable(
                    "the runner is not root; bots share its uid, so RLIMIT_NPROC counts the runner's processes too"
                        .into(),
                );
            }
            (
                r#"test "$(id -u)" != 0"#,
                "each bot runs as its own uid and gid, without supplementary groups".into(),
            )
        }
        Layer::NetworkNamespace => (
            // Two header lines and `lo`: no interface of the host.
            "n=0; while read -r l; do n=$((n+1)); done </proc/self/net/dev; test $n -eq 3",
            if is_root {
                "unshare(CLONE_NEWNET)".into()
            } else {
                "unshare(CLONE_NEWUSER | CLONE_NEWNET)".into()
            },
        ),
        Layer::FolderQuota => {
            if !is_root {
                return LayerStatus::Unavailable(
                    "the runner is not root; a bot can fill the disk with files (RLIMIT_FSIZE bounds each file only)"
                        .into(),
                );
            }
            let limits = SandboxLimits::default();
            (
                r#"test "$(stat -f -c %T .)" = overlayfs"#,
                format!(
                    "the folder is an overlay on a tmpfs of its own, {} MiB and {} files at most",
                    limits.folder_bytes_max / (1024 * 1024),
                    limits.folder_files_max
                ),
            )
        }
        Layer::PidNamespace => (
            // The init is pid 1, the bot the next.
            "test $$ -eq 2",
            "each bot in a PID namespace of its own, whose init ends the whole tree with the bot".into(),
        ),
        Layer::IpcNamespace => (
            "test \"$(uname -n)\" = snakepit-bot",
            "each bot with SysV and POSIX IPC and a host name of its own".into(),
        ),
        Layer::MinimalRoot => {
            if !is_root {
                return LayerStatus::Unavailable("the runner is not root; bots see the host's files, as landlock allows".into());
            }
            let limits = SandboxLimits::default();
            let root = limits.folder_root.clone().unwrap_or_else(std::env::temp_dir);
            let names = RootPlan::top_names(&limits, &root.join("x"), false).join(" ");
            root_check = format!("test \"$(echo /*)\" = '{names}' && test -c /dev/null && test -s /etc/passwd");
            (
                root_check.as_str(),
                "a root of its own: runtimes read-only, its folder, private /tmp, own /proc, 4 devices, generated /etc".into(),
            )
        }
        Layer::Seccomp => (
            "exit 0",
            "no AF_INET/AF_INET6/AF_PACKET/AF_NETLINK/AF_VSOCK sockets, user namespaces, keyrings, io_uring, setsid/setpgid, ptrace (and SysV IPC without an IPC namespace)".into(),
        ),
        Layer::Landlock => {
            let Some(features) = landlock_features() else {
                return LayerStatus::Unavailable(
                    "the kernel has no landlock (or it is disabled)".into(),
                );
            };
            (
                "! (: >../snakepit-landlock-probe) 2>/dev/null",
                format!("{features}; folder read-write, system paths read-only"),
            )
        }
    };
    let limits = SandboxLimits {
        layers: LayerSet::NONE.with(layer),
        stop_between_moves: false,
        ..SandboxLimits::default()
    };
    let only_this = SandboxReport {
        layers: vec![(layer, LayerStatus::Active(String::new()))],
    };
    let mut result = launch(&BotCommand::shell(check), &limits, &only_this);
    if let Ok(launched) = &mut result
        && let Some((_, init)) = &mut launched.leader
    {
        init.let_go();
    }
    let status = match result {
        Err(e) => LayerStatus::Unavailable(e.to_string()),
        Ok(mut launched) => match wait_bounded(&mut launched.child, Duration::from_secs(5)).map(|init_status| {
            // The init of a PID namespace waits to be let go (done first,
            // above) and tells how the bot ended.
            launched.leader.as_ref().and_then(|(_, init)| init.bot_exit_status()).unwrap_or(init_status)
        }) {
            Some(s) if s.success() => LayerStatus::Active(active),
            Some(s) => LayerStatus::Unavailable(match s.signal() {
                Some(sig) => format!(
                    "the test child was killed by {}",
                    super::fault::signal_name(sig)
                ),
                None => format!("the test child showed no effect (exit code {:?})", s.code()),
            }),
            None => LayerStatus::Unavailable("the test child did not finish".into()),
        },
    };
    if layer == Layer::Landlock {
        // Only there if landlock failed to stop the probe.
        let root = SandboxLimits::default()
            .folder_root
            .unwrap_or_else(std::env::temp_dir);
        let _ = fs::remove_file(root.join("snakepit-landlock-probe"));
    }
    status
}

/// Waits for `child` at most `wait_max`; kills it if it is still running.
fn wait_bounded(child: &mut Child, wait_max: Duration) -> Option<std::process::ExitStatus> {
    let until = Instant::now() + wait_max;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(1)),
            _ => {
                let _ = nix::sys::signal::killpg(Pid::from_raw(child.id() as i32), Signal::SIGKILL);
                let _ = child.wait();
                return None;
            }
        }
    }
}

/// Names what this kernel's landlock supports, by asking the crate for
/// each feature as a hard requirement; `None` without landlock.
fn landlock_features() -> Option<String> {
    let hard = || Ruleset::default().set_compatibility(CompatLevel::HardRequirement);
    let fs_ok = |abi| {
        hard()
            .handle_access(AccessFs::from_all(abi))
            .and_then(|r| r.create())
            .is_ok()
    };
    if !fs_ok(ABI::V1) {
        return None;
    }
    let abi_fs = [ABI::V5, ABI::V3, ABI::V2]
        .into_iter()
        .find(|&abi| fs_ok(abi));
    let net = hard()
        .handle_access(AccessNet::from_all(ABI::V4))
        .and_then(|r| r.create())
        .is_ok();
    let scopes = hard()
        .scope(Scope::from_all(ABI::V6))
        .and_then(|r| r.create())
        .is_ok();
    let fs = match abi_fs {
        Some(ABI::V5) => "files (ABI 5: refer, truncate, device ioctl)",
        Some(ABI::V3) => "files (ABI 3: refer, truncate)",
        Some(ABI::V2) => "files (ABI 2: refer)",
        _ => "files (ABI 1)",
    };
    let mut text = fs.to_string();
    if net {
        text.push_str(", no TCP bind/connect");
    }
    if scopes {
        text.push_str(", signals and abstract sockets scoped");
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    /// The file each held descriptor of `path` is open on.
    fn held_inode(path: &Path) -> Option<u64> {
        let held = HELD_PATHS.lock().unwrap();
        let entry = held.get(path)?;
        Some(fs::File::from(entry.fd.try_clone().unwrap()).metadata().unwrap().ino())
    }

    #[test]
    fn held_paths_follow_what_the_path_names_now() {
        let access = AccessFs::from_read(LANDLOCK_ABI);
        let top = tempfile::tempdir().unwrap();
        let runtime = top.path().join("runtime");
        let file = top.path().join("file");
        fs::create_dir(&runtime).unwrap();
        fs::write(&file, "x").unwrap();
        let missing = top.path().join("missing");
        let paths = [runtime.clone(), file.clone(), missing.clone()];

        assert_eq!(held_path_rules(&paths, access).len(), 2, "one rule a path that exists");
        let first = held_inode(&runtime).unwrap();
        assert_eq!(first, fs::metadata(&runtime).unwrap().ino());
        held_path_rules(&paths, access);
        assert_eq!(held_inode(&runtime), Some(first), "kept while the path names the same folder");

        // Reinstalled: another folder now has the name.
        let new = top.path().join("new");
        fs::create_dir(&new).unwrap();
        fs::remove_dir(&runtime).unwrap();
        fs::rename(&new, &runtime).unwrap();
        assert_eq!(held_path_rules(&paths, access).len(), 2);
        let second = held_inode(&runtime).unwrap();
        assert_ne!(second, first);
        assert_eq!(second, fs::metadata(&runtime).unwrap().ino());

        // Gone: no rule and nothing held.
        fs::remove_dir(&runtime).unwrap();
        assert_eq!(held_path_rules(&paths, access).len(), 1);
        assert_eq!(held_inode(&runtime), None);
        assert_eq!(held_inode(&missing), None);
    }
}
