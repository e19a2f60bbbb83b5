//! Bot folders left behind by a runner that was killed (`kill -9` of
//! `snakepit play`, a crashed server): found and removed by the next runner
//! that uses the same folder root.
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
//! [`ProcessBot`]: super::ProcessBot

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use nix::fcntl::{Flock, FlockArg};

/// Prefix of the folder a bot runs in; the runner's tag and `-` follow.
pub(super) const BOT_FOLDER_PREFIX: &str = "snakepit-bot-";
/// Prefix of the folder a bot's quota is mounted on.
pub(super) const QUOTA_FOLDER_PREFIX: &str = "snakepit-quota-";
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

/// Removes the folders and lock file of every runner in `root` whose lock
/// nobody holds; returns how many folders went. Errors only skip: another
/// user's files, a folder that went meanwhile.
fn sweep(root: &Path) -> usize {
    let Ok(entries) = fs::read_dir(root) else { return 0 };
    let names: Vec<String> = entries.flatten().filter_map(|e| e.file_name().into_string().ok()).collect();
    let mut removed = 0;
    for name in &names {
        let Some(tag) = name.strip_prefix(LOCK_PREFIX).and_then(|n| n.strip_suffix(LOCK_SUFFIX)) else { continue };
        let lock_path = root.join(name);
        let Ok(file) = File::open(&lock_path) else { continue };
        // Held: that runner lives.
        let Ok(held) = Flock::lock(file, FlockArg::LockExclusiveNonblock) else { continue };
        let mine = |n: &&String| {
            [BOT_FOLDER_PREFIX, QUOTA_FOLDER_PREFIX]
                .iter()
                .any(|p| n.strip_prefix(p).and_then(|rest| rest.strip_prefix(tag)).is_some_and(|r| r.starts_with('-')))
        };
        for folder in names.iter().filter(mine) {
            if fs::remove_dir_all(root.join(folder)).is_ok() {
                removed += 1;
            }
        }
        let _ = fs::remove_file(&lock_path);
        drop(held);
    }
    removed
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
        for f in ["snakepit-bot-dead1-aaa", "snakepit-quota-dead1-bbb"] {
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

        let tag = runner_tag(r).unwrap();
        assert_eq!(runner_tag(r).unwrap(), tag, "one tag per root");
        let mut left: Vec<String> = fs::read_dir(r).unwrap().flatten().map(|e| e.file_name().into_string().unwrap()).collect();
        left.sort();
        let own = format!("snakepit-runner-{tag}.lock");
        let mut want = vec!["snakepit-bot-dead10-ddd", "snakepit-bot-live2-ccc", "snakepit-bot-xyz", "snakepit-runner-live2.lock", &own];
        want.sort();
        assert_eq!(left, want);
        // This runner's own lock is held.
        let again = File::open(r.join(&own)).unwrap();
        assert!(Flock::lock(again, FlockArg::LockExclusiveNonblock).is_err());
    }
}
