//! The bot's minimal root ([`Layer::MinimalRoot`](super::Layer::MinimalRoot)):
//! a tree planned in the runner and built in the child, then made the
//! bot's `/` with `pivot_root`.
//!
//! The tree lives in a tmpfs of the bot's own (mounted over `/proc` in the
//! bot's mount namespace, see [`AHEAD_SCRATCH`]), so that
//! what the bot writes anywhere (its folder's overlay, `/tmp`, `/dev/shm`)
//! counts against one size limit and goes with the mount namespace. It
//! holds, under `root/`: read-only binds of the runtimes
//! (`SandboxLimits::root_read_only`), the four devices of
//! `devices_read_write` bound at their paths, `/dev/fd` and the standard
//! streams as links into `/proc`, a private `/tmp` and `/dev/shm`, a
//! `/proc` of the bot's own PID namespace (`hidepid=2`: the root-owned
//! init is not even listed), a generated `/etc/passwd`, `/etc/group` and
//! `/etc/hosts`, and the bot's folder at the path it has for the runner,
//! so that paths in messages and `ProcessBot::live_folder` stay true.
//!
//! Every path and file's bytes are made here, before the fork: the child
//! only walks the list of [`Step`]s with raw system calls (see
//! `sandbox::ChildSetup::apply` for why).
//!
//! Most steps are the same for every bot of the same limits (the runtimes'
//! binds, the devices, `/tmp`, `/etc/hosts`): the stock thread makes them
//! ahead, in a mount namespace made for one bot, on a tmpfs it mounts over
//! that namespace's `/proc` ([`AHEAD_SCRATCH`]); the child enters that
//! namespace and makes only the bot's own steps (its folder, its `/proc`,
//! the files naming its uid) before `pivot_root`. Without one ready, the
//! child makes the whole tree itself, in a mount namespace it makes.

use std::collections::BTreeSet;
use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use nix::errno::Errno;

use super::fault::SpawnError;
use super::limits::SandboxLimits;

/// The bot's host name, in its own UTS namespace.
pub(crate) const HOSTNAME: &str = "snakepit-bot";

/// One thing to make in the new root; paths are absolute, under the root
/// folder as the child sees it before `pivot_root`.
#[derive(Clone)]
enum Step {
    Dir { path: CString, mode: u32 },
    /// A read-only bind of a host path (a folder or a file) onto a mount
    /// point made for it.
    BindReadOnly { from: CString, to: CString, dir: bool },
    /// A device node bound onto an empty file: read-write, no exec.
    BindDevice { from: CString, to: CString },
    Symlink { target: CString, at: CString },
    File { path: CString, bytes: Vec<u8> },
    /// `/proc` of the PID namespace of the process that mounts it.
    Proc { at: CString },
    /// The bot's folder: an overlay whose writable layer is in the tmpfs,
    /// or a read-write bind of the runner's folder without a quota.
    Overlay { at: CString, options: CString },
    BindFolder { from: CString, to: CString },
}

/// Everything the child needs to build the root and enter it.
#[derive(Clone)]
pub(crate) struct RootPlan {
    /// Where the tmpfs is mounted ([`AHEAD_SCRATCH`] for a bot's root).
    scratch: CString,
    tmpfs_options: CString,
    /// `scratch/root`, which becomes `/`.
    root: CString,
    /// The overlay's writable layer and work folder (outside `root`, so
    /// unreachable after the pivot), and the uid that owns the first.
    upper: Option<(CString, CString, Option<u32>)>,
    /// Each step, and whether it is the bot's own (its folder, its
    /// `/proc`, the files naming its uid) rather than the same for every
    /// bot of these limits, which a root made ahead holds already.
    steps: Vec<(Step, bool)>,
    /// Whether the root is made ahead, in the mount namespace the child
    /// enters (see [`prepare_ahead`](Self::prepare_ahead)).
    made_ahead: bool,
    /// The bot's folder inside the root, its working directory.
    folder: CString,
    /// Paths inside the root (after the pivot) that landlock must allow,
    /// with their rights: new inodes that no rule made in the runner names.
    pub(crate) landlock_paths: Vec<(CString, LandlockRights)>,
}

/// Which rights a landlock rule of the new root grants.
#[derive(Clone, Copy)]
pub(crate) enum LandlockRights {
    /// Listing folders only: for `/`, whose every entry is meant to be
    /// seen (each has a rule of its own for what is inside).
    ListOnly,
    ReadOnly,
    ReadWrite,
}

fn c(path: &Path) -> Result<CString, SpawnError> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| SpawnError::Setup(format!("minimal root: a NUL in {}", path.display())))
}

/// `root` joined with the absolute `path`.
fn under(root: &Path, path: &Path) -> PathBuf {
    root.join(path.strip_prefix("/").unwrap_or(path))
}

impl RootPlan {
    /// Plans the root for a bot whose folder is `folder` (a host path),
    /// with the tmpfs on `scratch`. `quota` makes the folder an overlay
    /// (as `Layer::FolderQuota` does outside a minimal root); `proc` mounts
    /// a `/proc`, which only the init of a PID namespace may do usefully.
    pub(crate) fn build(
        limits: &SandboxLimits,
        folder: &Path,
        scratch: &Path,
        uid: Option<u32>,
        quota: bool,
        proc: bool,
    ) -> Result<RootPlan, SpawnError> {
        let root = scratch.join("root");
        let mut steps: Vec<(Step, bool)> = Vec::new();
        let mut made: BTreeSet<PathBuf> = BTreeSet::new();
        made.insert(PathBuf::from("/"));
        let dir = |steps: &mut Vec<(Step, bool)>, made: &mut BTreeSet<PathBuf>, path: &Path, mode: u32, per_bot: bool| -> Result<(), SpawnError> {
            // Every missing parent first, as plain folders.
            let mut at = PathBuf::from("/");
            for part in path.components().filter(|p| matches!(p, Component::Normal(_))) {
                at.push(part);
                if made.insert(at.clone()) {
                    let mode = if at == path { mode } else { 0o755 };
                    steps.push((Step::Dir { path: c(&under(&root, &at))?, mode }, per_bot));
                }
            }
            Ok(())
        };
        for from in &limits.root_read_only {
            let Ok(meta) = std::fs::symlink_metadata(from) else { continue };
            if !from.is_absolute() {
                continue;
            }
            if let Some(parent) = from.parent() {
                dir(&mut steps, &mut made, parent, 0o755, false)?;
            }
            let to = under(&root, from);
            if meta.file_type().is_symlink() {
                let target = std::fs::read_link(from).map_err(|e| SpawnError::Setup(format!("minimal root: {}: {e}", from.display())))?;
                made.insert(from.clone());
                steps.push((Step::Symlink { target: c(&target)?, at: c(&to)? }, false));
            } else if meta.is_dir() || meta.is_file() {
                made.insert(from.clone());
                steps.push((Step::BindReadOnly { from: c(from)?, to: c(&to)?, dir: meta.is_dir() }, false));
            }
        }
        dir(&mut steps, &mut made, Path::new("/dev/shm"), 0o1777, false)?;
        for device in &limits.devices_read_write {
            if device.parent() == Some(Path::new("/dev")) && device.exists() {
                steps.push((Step::BindDevice { from: c(device)?, to: c(&under(&root, device))? }, false));
            }
        }
        for (name, target) in [("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")] {
            steps.push((Step::Symlink { target: c(Path::new(target))?, at: c(&root.join("dev").join(name))? }, false));
        }
        dir(&mut steps, &mut made, Path::new("/tmp"), 0o1777, false)?;
        dir(&mut steps, &mut made, Path::new("/etc"), 0o755, false)?;
        let (user_line, group_line) = match uid {
            Some(uid) if uid != 0 => (
                format!("bot:x:{uid}:{uid}:bot:{}:/bin/sh\n", folder.display()),
                format!("bot:x:{uid}:\n"),
            ),
            _ => (String::new(), String::new()),
        };
        let files = [
            ("passwd", format!("root:x:0:0:root:/:/bin/sh\n{user_line}nobody:x:65534:65534:nobody:/:/bin/sh\n"), true),
            ("group", format!("root:x:0:\n{group_line}nogroup:x:65534:\n"), true),
            ("hosts", format!("127.0.0.1 localhost {HOSTNAME}\n::1 localhost\n"), false),
        ];
        for (name, text, per_bot) in files {
            let path = Path::new("/etc").join(name);
            if made.insert(path.clone()) {
                steps.push((Step::File { path: c(&under(&root, &path))?, bytes: text.into_bytes() }, per_bot));
            }
        }
        if proc {
            dir(&mut steps, &mut made, Path::new("/proc"), 0o555, false)?;
            steps.push((Step::Proc { at: c(&root.join("proc"))? }, true));
        }
        // The folder last, once nothing else can be planned over it.
        if limits.root_read_only.iter().any(|p| folder.starts_with(p)) || folder.starts_with("/proc") || folder.starts_with("/dev") || folder.starts_with("/etc") {
            return Err(SpawnError::Setup(format!(
                "minimal root: the bot's folder {} lies under a path the root binds (set folder_root elsewhere)",
                folder.display()
            )));
        }
        dir(&mut steps, &mut made, folder, 0o700, true)?;
        let text = |p: &Path| -> Result<String, SpawnError> {
            match p.to_str() {
                // The overlay's options are split at commas and its lower
                // layers at colons.
                Some(t) if !t.contains([',', ':', '\\']) => Ok(t.to_string()),
                _ => Err(SpawnError::Setup(format!(
                    "folder quota: the path {} must be UTF-8 without ',', ':' or '\\' (set folder_root elsewhere)",
                    p.display()
                ))),
            }
        };
        let at = c(&under(&root, folder))?;
        let upper = if quota {
            let (lower, scratch_text) = (text(folder)?, text(scratch)?);
            let options = CString::new(format!(
                "lowerdir={lower},upperdir={scratch_text}/upper,workdir={scratch_text}/work"
            ))
            .map_err(|e| SpawnError::Setup(format!("folder quota: {e}")))?;
            steps.push((Step::Overlay { at, options }, true));
            Some((c(&scratch.join("upper"))?, c(&scratch.join("work"))?, uid))
        } else {
            steps.push((Step::BindFolder { from: c(folder)?, to: at }, true));
            None
        };
        // The tmpfs's root, `root/`, the overlay's two folders and the one
        // it makes in its work folder, and every folder, file, link and
        // mount point planned take an inode each; the rest is the bot's.
        let planned = steps.iter().filter(|(s, _)| !matches!(s, Step::Proc { .. } | Step::Overlay { .. } | Step::BindFolder { .. })).count() as u64;
        let inodes = limits.folder_files_max.saturating_add(5 + planned);
        let mut landlock_paths = vec![
            (c(Path::new("/"))?, LandlockRights::ListOnly),
            (c(folder)?, LandlockRights::ReadWrite),
            (c(Path::new("/tmp"))?, LandlockRights::ReadWrite),
            (c(Path::new("/dev/shm"))?, LandlockRights::ReadWrite),
            (c(Path::new("/etc"))?, LandlockRights::ReadOnly),
        ];
        if proc {
            landlock_paths.push((c(Path::new("/proc"))?, LandlockRights::ReadOnly));
        }
        Ok(RootPlan {
            tmpfs_options: CString::new(format!("size={},nr_inodes={inodes},mode=0755", limits.folder_bytes_max))
                .map_err(|e| SpawnError::Setup(format!("minimal root: {e}")))?,
            scratch: c(scratch)?,
            root: c(&root)?,
            upper,
            steps,
            made_ahead: false,
            folder: c(folder)?,
            landlock_paths,
        })
    }

    /// The names at the top of the root, sorted, as `echo /*` prints them
    /// in the C locale (for the detection's check).
    pub(crate) fn top_names(limits: &SandboxLimits, folder: &Path, proc: bool) -> Vec<String> {
        let mut names: BTreeSet<String> = ["dev", "etc", "tmp"].into_iter().map(String::from).collect();
        if proc {
            names.insert("proc".into());
        }
        let first = |p: &Path| p.components().find_map(|c| match c {
            Component::Normal(n) => Some(n.to_string_lossy().into_owned()),
            _ => None,
        });
        for p in limits.root_read_only.iter().filter(|p| std::fs::symlink_metadata(p).is_ok()) {
            names.extend(first(p));
        }
        names.extend(first(folder));
        names.into_iter().map(|n| format!("/{n}")).collect()
    }

    /// Runs in the child, as root, in its own mount namespace (made
    /// private): mounts the tmpfs, builds the tree and makes it the root,
    /// with the bot's folder as the working directory; in a namespace made
    /// ahead, whose tree holds every step but the bot's own already, only
    /// these and the root's change. Only raw system calls on what
    /// [`build`](Self::build) made; returns the errno of the first that
    /// fails.
    pub(crate) fn enter(&self) -> Result<(), i32> {
        if !self.made_ahead {
            self.make_common()?;
        }
        self.finish()
    }

    /// The part of the tree that is the same for every bot of these
    /// limits: the tmpfs with the root, the overlay's folders and every
    /// step that is not the bot's own.
    #[allow(unsafe_code)]
    fn make_common(&self) -> Result<(), i32> {
        let none = std::ptr::null::<libc::c_char>();
        // SAFETY: mount and mkdir take integers and pointers to
        // NUL-terminated strings that live in `self` for the whole call;
        // they change only this mount namespace and the new tmpfs.
        unsafe {
            check(libc::mount(c"snakepit-bot".as_ptr(), self.scratch.as_ptr(), c"tmpfs".as_ptr(), QUIET, self.tmpfs_options.as_ptr().cast()))?;
            check(libc::mkdir(self.root.as_ptr(), 0o755))?;
            // pivot_root needs the new root to be a mount point.
            check(libc::mount(self.root.as_ptr(), self.root.as_ptr(), none, libc::MS_BIND, none.cast()))?;
            if let Some((upper, work, _)) = &self.upper {
                check(libc::mkdir(upper.as_ptr(), 0o700))?;
                check(libc::mkdir(work.as_ptr(), 0o700))?;
            }
        }
        self.steps.iter().filter(|(_, per_bot)| !per_bot).try_for_each(|(step, _)| step.make())
    }

    /// The bot's own steps, then the new root entered.
    #[allow(unsafe_code)]
    fn finish(&self) -> Result<(), i32> {
        // SAFETY: chown, chdir, pivot_root and umount2 take integers and
        // live NUL-terminated strings; they change only the new tmpfs,
        // this process's root and working directory, and detach the old
        // root from this mount namespace.
        unsafe {
            if let Some((upper, _, Some(uid))) = &self.upper {
                check(libc::chown(upper.as_ptr(), *uid, *uid))?;
            }
        }
        self.steps.iter().filter(|(_, per_bot)| *per_bot).try_for_each(|(step, _)| step.make())?;
        unsafe {
            // The old root is stacked on the new one and then detached:
            // no path leads back to the host's tree.
            check(libc::chdir(self.root.as_ptr()))?;
            check(libc::syscall(libc::SYS_pivot_root, c".".as_ptr(), c".".as_ptr()) as libc::c_int)?;
            check(libc::umount2(c".".as_ptr(), libc::MNT_DETACH))?;
            check(libc::chdir(c"/".as_ptr()))?;
            check(libc::chdir(self.folder.as_ptr()))?;
        }
        Ok(())
    }

    /// Marks this plan as entered in a namespace made ahead for its
    /// [`common_key`](Self::common_key); the plan must have been built on
    /// [`AHEAD_SCRATCH`].
    pub(crate) fn set_made_ahead(&mut self) {
        self.made_ahead = true;
    }

    /// What the common part of this plan makes, as bytes: two plans with
    /// the same key make the same common tree.
    pub(crate) fn common_key(&self) -> Vec<u8> {
        let mut key = Vec::new();
        let mut put = |bytes: &[u8]| {
            key.extend_from_slice(bytes);
            key.push(0);
        };
        put(self.tmpfs_options.as_bytes());
        put(self.root.as_bytes());
        put(if self.upper.is_some() { b"upper" } else { b"" });
        for (step, _) in self.steps.iter().filter(|(_, per_bot)| !per_bot) {
            match step {
                Step::Dir { path, mode } => {
                    put(path.as_bytes());
                    put(&mode.to_ne_bytes());
                }
                Step::BindReadOnly { from, to, .. } | Step::BindDevice { from, to } | Step::BindFolder { from, to } => {
                    put(from.as_bytes());
                    put(to.as_bytes());
                }
                Step::Symlink { target, at } => {
                    put(target.as_bytes());
                    put(at.as_bytes());
                }
                Step::File { path, bytes } => {
                    put(path.as_bytes());
                    put(bytes);
                }
                Step::Proc { at } => put(at.as_bytes()),
                Step::Overlay { at, options } => {
                    put(at.as_bytes());
                    put(options.as_bytes());
                }
            }
        }
        key
    }

    /// On the stock thread, already in a new mount namespace of its own
    /// (made private): makes the common part of the tree.
    pub(crate) fn make_ahead(&self) -> Result<(), i32> {
        self.make_common()
    }
}

/// Where the root's tmpfs is mounted, in the mount namespace made for one
/// bot (by its child, or ahead by the stock thread): over `/proc`, which
/// exists everywhere and which nothing of a start uses before the bot's
/// own `/proc` is mounted in the new root (the host's stays as it is in
/// every other namespace). No folder of the host is made for it.
pub(crate) const AHEAD_SCRATCH: &str = "/proc";

const QUIET: libc::c_ulong = libc::MS_NOSUID | libc::MS_NODEV;

fn check(ret: libc::c_int) -> Result<(), i32> {
    if ret == 0 { Ok(()) } else { Err(Errno::last_raw()) }
}

impl Step {
    /// Makes this step; only raw system calls.
    #[allow(unsafe_code)]
    fn make(&self) -> Result<(), i32> {
        let none = std::ptr::null::<libc::c_char>();
        // SAFETY: every call below takes integers and pointers to
        // NUL-terminated strings or byte buffers that live in `self` for
        // the whole call; they change only this mount namespace and the
        // new tmpfs.
        unsafe {
            match self {
                Step::Dir { path, mode } => {
                    check(libc::mkdir(path.as_ptr(), *mode))?;
                    // mkdir applies the umask.
                    check(libc::chmod(path.as_ptr(), *mode))?;
                }
                Step::BindReadOnly { from, to, dir } => {
                    if *dir {
                        check(libc::mkdir(to.as_ptr(), 0o755))?;
                    } else {
                        make_empty_file(to)?;
                    }
                    check(libc::mount(from.as_ptr(), to.as_ptr(), none, libc::MS_BIND, none.cast()))?;
                    check(libc::mount(none, to.as_ptr(), none, libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | QUIET, none.cast()))?;
                }
                Step::BindDevice { from, to } => {
                    make_empty_file(to)?;
                    check(libc::mount(from.as_ptr(), to.as_ptr(), none, libc::MS_BIND, none.cast()))?;
                    check(libc::mount(none, to.as_ptr(), none, libc::MS_REMOUNT | libc::MS_BIND | libc::MS_NOSUID | libc::MS_NOEXEC, none.cast()))?;
                }
                Step::Symlink { target, at } => check(libc::symlink(target.as_ptr(), at.as_ptr()))?,
                Step::File { path, bytes } => {
                    let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_CLOEXEC, 0o644);
                    if fd < 0 {
                        return Err(Errno::last_raw());
                    }
                    let written = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
                    let errno = Errno::last_raw();
                    libc::close(fd);
                    if written != bytes.len() as isize {
                        return Err(errno);
                    }
                }
                Step::Proc { at } => check(libc::mount(c"proc".as_ptr(), at.as_ptr(), c"proc".as_ptr(), QUIET | libc::MS_NOEXEC, c"hidepid=2".as_ptr().cast()))?,
                Step::Overlay { at, options } => check(libc::mount(c"snakepit-bot".as_ptr(), at.as_ptr(), c"overlay".as_ptr(), QUIET, options.as_ptr().cast()))?,
                Step::BindFolder { from, to } => check(libc::mount(from.as_ptr(), to.as_ptr(), none, libc::MS_BIND, none.cast()))?,
            }
        }
        Ok(())
    }
}

/// Makes an empty file at `path`, as a mount point for a file.
#[allow(unsafe_code)]
fn make_empty_file(path: &CString) -> Result<(), i32> {
    // SAFETY: open and close take a live NUL-terminated string and integers.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_CLOEXEC, 0o644);
        if fd < 0 {
            return Err(Errno::last_raw());
        }
        libc::close(fd);
    }
    Ok(())
}
