//! A `snakepit play` killed with SIGKILL takes every process of its bots
//! with it, but cannot remove its bots' folders, nor the folder a
//! source-file bot is written to; the next runner on the same folder root
//! does (see the bots crate's `process::leftovers`). Real binary, real
//! sandboxed processes.

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

/// A process's parent and whether it is a zombie, from `/proc/PID/stat`.
fn parent_of(pid: u32) -> Option<(u32, bool)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let mut rest = stat[stat.rfind(')')? + 2..].split(' ');
    let state = rest.next()?;
    Some((rest.next()?.parse().ok()?, state == "Z"))
}

fn living_pids() -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse().ok())
        .filter(|&p| parent_of(p).is_some_and(|(_, zombie)| !zombie))
        .collect()
}

/// The living processes whose command line holds one of `marks`, and all
/// their descendants.
fn trees_of(marks: &[&str]) -> Vec<u32> {
    let all = living_pids();
    let mut found: Vec<u32> = all
        .iter()
        .copied()
        .filter(|p| {
            let line = std::fs::read(format!("/proc/{p}/cmdline")).unwrap_or_default();
            let line = String::from_utf8_lossy(&line);
            marks.iter().any(|m| line.contains(m))
        })
        .collect();
    loop {
        let more: Vec<u32> = all.iter().copied().filter(|p| !found.contains(p) && parent_of(*p).is_some_and(|(pp, _)| found.contains(&pp))).collect();
        if more.is_empty() {
            return found;
        }
        found.extend(more);
    }
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
        .args(["play", "--game", "multisnake", "--bot", "sh -c 'sleep 60; : killed-play-mark'", "--bot"])
        .arg(&source)
        .env("TMPDIR", &root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(30);
    // Both bots started (a process being started holds the runner's lock
    // until it runs its program), and the source file's folder.
    let both = |names: Vec<String>| {
        names.iter().filter(|n| n.starts_with("snakepit-bot-")).count() == 2 && names.iter().any(|n| n.starts_with("snakepit-work-"))
    };
    while !both(bot_folders(&root)) {
        assert!(Instant::now() < until, "no bot and work folders within 30 s: {:?}", bot_folders(&root));
        std::thread::sleep(Duration::from_millis(20));
    }
    // Both bots run: the shell and its `sleep`, and Python.
    let marks = ["killed-play-mark", "thinker.py"];
    while trees_of(&marks).len() < 3 {
        assert!(Instant::now() < until + Duration::from_secs(30), "the bots' processes did not show: {:?}", trees_of(&marks));
        std::thread::sleep(Duration::from_millis(20));
    }
    let running = trees_of(&marks);
    killed.kill().unwrap();
    killed.wait().unwrap();
    // Every process of the bots dies with their runner.
    let gone_by = Instant::now() + Duration::from_secs(30);
    while running.iter().any(|p| living_pids().contains(p)) {
        assert!(Instant::now() < gone_by, "left after the runner's SIGKILL: {:?} of {running:?}", trees_of(&marks));
        std::thread::sleep(Duration::from_millis(20));
    }
    let left = bot_folders(&root);
    assert!(!left.is_empty(), "a killed runner leaves its folders");
    assert!(left.iter().any(|n| n.starts_with("snakepit-work-")), "and its source folder: {left:?}");

    // The next run also builds a C source file: what it wrote goes when it
    // ends.
    let c = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../starters/multisnake/c/bot.c");
    let ok = Command::new(env!("CARGO_BIN_EXE_snakepit"))
        .args(["play", "--game", "multisnake", "--bot", "sh -c 'read h; while read l; do echo v; done'", "--bot"])
        .arg(&c)
        .args(["--ticks", "3"])
        .env("TMPDIR", &root)
        .output()
        .unwrap();
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    // The killed runner's folders went, and the new one removed its own,
    // its C program's build included.
    assert_eq!(bot_folders(&root), Vec::<String>::new(), "before: {left:?}");
}
