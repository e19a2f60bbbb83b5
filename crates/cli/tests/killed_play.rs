//! A `snakepit play` killed with SIGKILL cannot remove its bots' folders,
//! nor the folder a source-file bot is written to; the next runner on the
//! same folder root does (see the bots crate's `process::leftovers`). Real
//! binary, real sandboxed processes.

mod common;

use common::TempDir;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The bot, quota and work folders under `root`.
fn bot_folders(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root)
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| ["snakepit-bot-", "snakepit-quota-", "snakepit-work-"].iter().any(|p| n.starts_with(p)))
        .collect();
    names.sort();
    names
}

#[test]
fn the_next_run_removes_the_folders_of_a_killed_one() {
    let dir = TempDir::new("killed_play");
    let root = dir.join("tmp");
    std::fs::create_dir(&root).unwrap();
    // Bots with their own uids pass through the root to their folders.
    std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o711)).unwrap();
    // A bot that thinks for a minute holds the first move open; the other
    // is a Python source file, written to a work folder before it starts.
    let source = dir.join("thinker.py");
    std::fs::write(&source, "import time\ntime.sleep(60)\n").unwrap();
    let mut killed = Command::new(env!("CARGO_BIN_EXE_snakepit"))
        .args(["play", "--game", "multisnake", "--bot", "sh -c 'sleep 60'", "--bot"])
        .arg(&source)
        .env("TMPDIR", &root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(30);
    let both = |names: Vec<String>| ["snakepit-bot-", "snakepit-work-"].iter().all(|p| names.iter().any(|n| n.starts_with(p)));
    while !both(bot_folders(&root)) {
        assert!(Instant::now() < until, "no bot and work folders within 30 s: {:?}", bot_folders(&root));
        std::thread::sleep(Duration::from_millis(20));
    }
    killed.kill().unwrap();
    killed.wait().unwrap();
    let left = bot_folders(&root);
    assert!(!left.is_empty(), "a killed runner leaves its folders");
    assert!(left.iter().any(|n| n.starts_with("snakepit-work-")), "and its source folder: {left:?}");

    let ok = Command::new(env!("CARGO_BIN_EXE_snakepit"))
        .args(["play", "--game", "multisnake", "--bot", "sh -c 'read h; while read l; do echo v; done'", "--bot", "builtin:random"])
        .args(["--ticks", "3"])
        .env("TMPDIR", &root)
        .output()
        .unwrap();
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    // The killed runner's folders went, and the new one removed its own.
    assert_eq!(bot_folders(&root), Vec::<String>::new(), "before: {left:?}");
}
