//! Bot folders, and a runner's other working folders ([`work_folder`]),
//! left behind by a runner that was killed (`kill -9` of `snakepit play`,
//! a crashed server): found and removed by the next runner that uses the
//! same folder root.
//!
//! A runner's folders are dropped with their [`ProcessBot`]s, which a
//! killed runner never does. So every runner marks its folders with a tag
//! of its own and holds an exclusive `flock` on `snakepit-runner-TAG.lock`
//! in the root for as long as it lives; the kernel lets go of the lock when
//! the process ends, however it ends. Before its first bot, a runner looks
//! for lock files nobody holds: their folders belong to nobody, and go.
//! A lock, unlike a pid, means the same thing in every pid namespace that
//! shares the folder.
//!
//! The root is usually `/tmp`, where anyone may plant a name: only lock
//! files that are regular files of this runner's own user count, opened
//! without following links or blocking (a FIFO named like a lock would hang
//! an open); only real folders go, never what a link points to; and a lock
//! file stays until all its folders went.
//!
//! [`ProcessBot`]: super::ProcessBot

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use nix::fcntl::{Flock, FlockArg};

/// Prefix of the folder a bot runs in; the runner's tag and `-` follow.
pub(super) const BOT_FOLDER_PREFIX: &str = "snakepit-bot-";
/// Prefix of the folder a bot's quota is mounted on.
pub(super) const QUOTA_FOLDER_PREFIX: &str = "snakepit-quota-";
/// Prefix of a runner's other working folders ([`work_folder`]).
const WORK_FOLDER_PREFIX: &str = "snakepit-work-";
const LOCK_PREFIX: &str = "snakepit-runner-";
const LOCK_SUFFIX: &str = ".lock";
/// The lock file's name before it is locked: sweepers do not look at it.
const NEW_LOCK_PREFIX: &str = "snakepit-newrunner-";

/// This runner's tag and held lock, per folder root.
static MARKS: Mutex<BTreeMap<PathBuf, Mark>> = Mutex::new(BTreeMap::new());

struct Mark {
    tag: String,
    /// Held until the process ends: the lock goes with the last fd.
    _lock: Flock<File>,
}

/// This runner's tag in `root` (the part after a folder prefix), made on
/// first use, when the folders of dead runners in `root` are removed too.
pub(super) fn runner_tag(root: &Path) -> io::Result<String> {
    let mut marks = MARKS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(mark) = marks.get(root) {
        return Ok(mark.tag.clone());
    }
    let removed = sweep(root);
    if removed > 0 {
        tracing::info!(root = %root.display(), removed, "removed the bot folders of runners that ended without cleaning up");
    }
    // Made under another name and locked before it is renamed, so that no
    // sweeper ever sees it unlocked.
    let new = tempfile::Builder::new().prefix(NEW_LOCK_PREFIX).suffix(LOCK_SUFFIX).rand_bytes(10).tempfile_in(root)?;
    let tag = new
        .path()
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_prefix(NEW_LOCK_PREFIX))
        .and_then(|n| n.strip_suffix(LOCK_SUFFIX))
        .ok_or_else(|| io::Error::other("a lock file's name"))?
        .to_string();
    let (file, path) = new.keep().map_err(|e| e.error)?;
    let lock = Flock::lock(file, FlockArg::LockExclusiveNonblock).map_err(|(_, e)| io::Error::from(e))?;
    fs::rename(&path, root.join(format!("{LOCK_PREFIX}{tag}{LOCK_SUFFIX}")))?;
    marks.insert(root.to_path_buf(), Mark { tag: tag.clone(), _lock: lock });
    Ok(tag)
}

/// A folder for a runner's own files (programs' sources before they are
/// copied into bot folders, a game's files) in `root`, or the temporary
/// folder: private (0700, an unpredictable name), removed when dropped,
/// and tagged like the runner's bot folders, so that if the runner is
/// killed first the next runner on that root removes it.
pub fn work_folder(root: Option<&Path>) -> io::Result<tempfile::TempDir> {
    let root = root.map_or_else(std::env::temp_dir, Path::to_path_buf);
    let tag = runner_tag(&root)?;
    tempfile::Builder::new()
        .prefix(&format!("{WORK_FOLDER_PREFIX}{tag}-"))
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700))
        .tempdir_in(&root)
}

/// A lock file not yet renamed this long ago belongs to a runner that died
/// between making and renaming it (which takes microseconds).
const NEW_LOCK_STALE: Duration = Duration::from_secs(600);

/// Removes the folders and lock file of every runner in `root` whose lock
/// nobody holds; returns how many folders went. Errors only skip: another
/// user's files, a folder that went meanwhile.
fn sweep(root: &Path) -> usize {
    let Ok(entries) = fs::read_dir(root) else { return 0 };
    let names: Vec<String> = entries.flatten().filter_map(|e| e.file_name().into_string().ok()).collect();
    let euid = nix::unistd::geteuid().as_raw();
    let mut removed = 0;
    for name in &names {
        let lock_path = root.join(name);
        if name.starts_with(NEW_LOCK_PREFIX) && name.ends_with(LOCK_SUFFIX) {
            if let Some(lock) = lock_nobody_holds(&lock_path, euid)
                && lock.metadata().and_then(|m| m.modified()).is_ok_and(|t| {
                    SystemTime::now().duration_since(t).is_ok_and(|age| age > NEW_LOCK_STALE)
                })
            {
                let _ = fs::remove_file(&lock_path);
            }
            continue;
        }
        let Some(tag) = name.strip_prefix(LOCK_PREFIX).and_then(|n| n.strip_suffix(LOCK_SUFFIX)) else { continue };
        // None: held (that runner lives), or not a lock file of ours.
        let Some(held) = lock_nobody_holds(&lock_path, euid) else { continue };
        let of_tag = |n: &&String| {
            [BOT_FOLDER_PREFIX, QUOTA_FOLDER_PREFIX, WORK_FOLDER_PREFIX]
                .iter()
                .any(|p| n.strip_prefix(p).and_then(|rest| rest.strip_prefix(tag)).is_some_and(|r| r.starts_with('-')))
        };
        let mut all_gone = true;
        for folder in names.iter().filter(of_tag) {
            let path = root.join(folder);
            // A real folder, not a link planted under its name (owned by
            // the bot's own uid, where the sandbox gives it one).
            let folder = fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_dir());
            if folder && fs::remove_dir_all(&path).is_ok() {
                removed += 1;
            } else {
                all_gone = false;
            }
        }
        // Kept while any folder stays, so that a later runner tries again.
        if all_gone {
            let _ = fs::remove_file(&lock_path);
        }
        drop(held);
    }
    removed
}

/// The lock at `path`, locked here, if it is a regular file of `euid`'s
/// (opened without following a link and without blocking) that no runner
/// holds.
fn lock_nobody_holds(path: &Path, euid: u32) -> Option<Flock<File>> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    let meta = file.metadata().ok()?;
    if !meta.file_type().is_file() || meta.uid() != euid {
        return None;
    }
    Flock::lock(file, FlockArg::LockExclusiveNonblock).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_of_unlocked_runners_go_and_those_of_live_ones_stay() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        // A runner that died: its lock file is there, nobody holds it.
        fs::write(r.join("snakepit-runner-dead1.lock"), "").unwrap();
        for f in ["snakepit-bot-dead1-aaa", "snakepit-quota-dead1-bbb", "snakepit-work-dead1-hhh"] {
            fs::create_dir_all(r.join(f).join("inner")).unwrap();
            fs::write(r.join(f).join("inner/file"), "x").unwrap();
        }
        // A runner that lives: its lock is held.
        let live = File::create(r.join("snakepit-runner-live2.lock")).unwrap();
        let _held = Flock::lock(live, FlockArg::LockExclusiveNonblock).unwrap();
        fs::create_dir(r.join("snakepit-bot-live2-ccc")).unwrap();
        // A tag that starts like another's, and folders of nobody known.
        fs::create_dir(r.join("snakepit-bot-dead10-ddd")).unwrap();
        fs::create_dir(r.join("snakepit-bot-xyz")).unwrap();
        // Planted names: a FIFO (whose open would block) and a link to a
        // lock, with a folder that must stay; a link named like a dead
        // runner's folder, to a folder that must stay.
        nix::unistd::mkfifo(&r.join("snakepit-runner-fifo3.lock"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        fs::create_dir(r.join("snakepit-bot-fifo3-eee")).unwrap();
        fs::write(r.join("elsewhere.lock"), "").unwrap();
        std::os::unix::fs::symlink(r.join("elsewhere.lock"), r.join("snakepit-runner-link4.lock")).unwrap();
        fs::create_dir(r.join("snakepit-bot-link4-fff")).unwrap();
        fs::create_dir(r.join("precious")).unwrap();
        std::os::unix::fs::symlink(r.join("precious"), r.join("snakepit-bot-dead1-ggg")).unwrap();

        let tag = runner_tag(r).unwrap();
        assert_eq!(runner_tag(r).unwrap(), tag, "one tag per root");
        let mut left: Vec<String> = fs::read_dir(r).unwrap().flatten().map(|e| e.file_name().into_string().unwrap()).collect();
        left.sort();
        let own = format!("snakepit-runner-{tag}.lock");
        // The dead runner's lock stays for its link, which is not removed.
        let mut want = vec![
            "elsewhere.lock",
            "precious",
            "snakepit-bot-dead1-ggg",
            "snakepit-bot-dead10-ddd",
            "snakepit-bot-fifo3-eee",
            "snakepit-bot-link4-fff",
            "snakepit-bot-live2-ccc",
            "snakepit-bot-xyz",
            "snakepit-runner-dead1.lock",
            "snakepit-runner-fifo3.lock",
            "snakepit-runner-link4.lock",
            "snakepit-runner-live2.lock",
            &own,
        ];
        want.sort();
        assert_eq!(left, want);
        // This runner's own lock is held.
        let again = File::open(r.join(&own)).unwrap();
        assert!(Flock::lock(again, FlockArg::LockExclusiveNonblock).is_err());
    }
}
