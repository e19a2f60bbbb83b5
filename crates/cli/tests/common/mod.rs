//! Helpers shared by the tests that run the real `snakepit` binary.

#![allow(dead_code, reason = "each test binary uses a different subset")]

pub mod pg;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the built binary with `args`.
pub fn snakepit<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    Command::new(env!("CARGO_BIN_EXE_snakepit"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Stdout as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

/// Stderr as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

/// A directory of its own for one test, removed when dropped. Tests run in
/// parallel threads and several test binaries at once, so the name holds
/// both the process id and the test's name.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A fresh, empty directory.
    pub fn new(test: &str) -> TempDir {
        let path = std::env::temp_dir().join(format!("snakepit-cli-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("temp dir");
        TempDir(path)
    }

    /// A path inside the directory.
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Writes a file and returns its path.
    pub fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.join(name);
        std::fs::write(&path, contents).expect("write temp file");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The five-bot game most tests record.
pub const FIVE_BOTS: [&str; 10] = [
    "--bot",
    "builtin:greedy",
    "--bot",
    "builtin:random",
    "--bot",
    "builtin:greedy",
    "--bot",
    "builtin:random",
    "--bot",
    "builtin:random",
];

/// Plays the standard test game (seed 1, 400 ticks) into `replay`.
pub fn record(replay: &Path) -> Output {
    let mut args = vec![
        "play".to_string(),
        "--seed".into(),
        "1".into(),
        "--ticks".into(),
        "400".into(),
    ];
    args.extend(FIVE_BOTS.iter().map(|s| s.to_string()));
    args.push("--replay".into());
    args.push(replay.display().to_string());
    let out = snakepit(&args);
    assert!(out.status.success(), "play failed: {}", stderr(&out));
    out
}

/// Asserts a bad-input failure: exit code 2 and exactly one line on stderr
/// that starts with `error: `, names the file, and contains `needle`.
pub fn assert_bad_input(out: &Output, file: &Path, needle: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "exit code; stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line expected: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(
        err.contains(&file.display().to_string()),
        "file not named: {err}"
    );
    assert!(err.contains(needle), "{needle:?} not in: {err}");
}

/// The C starter bot of `game` (`starters/GAME/c/bot.c`), compiled once per
/// test binary. With `fixed_seed` its random stream starts from the same
/// seed in every process, so the bot plays the same game twice; the
/// starter itself seeds from the clock.
pub fn c_starter(game: &str, fixed_seed: bool) -> PathBuf {
    use std::collections::BTreeMap;
    use std::sync::{Mutex, OnceLock};
    static BUILT: OnceLock<Mutex<BTreeMap<(String, bool), PathBuf>>> = OnceLock::new();
    let mut built = BUILT
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(path) = built.get(&(game.to_string(), fixed_seed)) {
        return path.clone();
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../starters")
        .join(game)
        .join("c/bot.c");
    let mut text = std::fs::read_to_string(&src).expect("the C starter exists");
    if fixed_seed {
        let seeded = text
            .lines()
            .find(|l| l.trim_start().starts_with("srand("))
            .expect("the starter seeds its RNG")
            .to_string();
        text = text.replace(&seeded, "    srand(1);");
    }
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("c-starters-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let name = format!("{game}-{}", if fixed_seed { "fixed" } else { "random" });
    let c_file = dir.join(format!("{name}.c"));
    std::fs::write(&c_file, text).expect("write the source");
    let bin = dir.join(name);
    let ok = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&bin)
        .arg(&c_file)
        .status()
        .expect("cc must be installed");
    assert!(ok.success(), "cc failed on {}", c_file.display());
    built.insert((game.to_string(), fixed_seed), bin.clone());
    bin
}

/// Plays `args` (after `play`) with a replay in `dir`, checks that the
/// replay verifies, and returns the play's stdout, stderr and the replay's
/// text.
pub fn play_and_verify(dir: &TempDir, args: &[&str]) -> (String, String, String) {
    let replay = dir.join("r.jsonl");
    let mut all: Vec<&std::ffi::OsStr> = vec!["play".as_ref()];
    all.extend(args.iter().map(std::ffi::OsStr::new));
    all.extend(["--replay".as_ref(), replay.as_os_str()]);
    let out = snakepit(&all);
    assert!(out.status.success(), "{}", stderr(&out));
    let verified = snakepit(["replay".as_ref(), replay.as_os_str(), "--verify".as_ref()]);
    assert!(verified.status.success(), "{}", stderr(&verified));
    assert!(stdout(&verified).starts_with("ok: "), "{}", stdout(&verified));
    (stdout(&out), stderr(&out), std::fs::read_to_string(&replay).unwrap())
}

/// The files in a tournament's batches of replays (`games/batch-*.jsonl.gz`,
/// one gzip member per file, named in its header), by name, checking that
/// every batch reads to its end and holds its own games only.
pub fn batched_files(games: &Path) -> std::collections::BTreeMap<String, String> {
    use std::io::Read;
    let mut files = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(games).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let Some(first) = name.strip_prefix("batch-").and_then(|n| n.strip_suffix(".jsonl.gz")) else { continue };
        let first: u64 = first.parse().unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            let mut member = flate2::bufread::GzDecoder::new(rest);
            let mut text = String::new();
            member.read_to_string(&mut text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let file = String::from_utf8(member.header().unwrap().filename().unwrap().to_vec()).unwrap();
            let game: u64 = file[..6].parse().unwrap();
            assert!((first..first + 1000).contains(&game), "{file} in {name}");
            assert!(files.insert(file.clone(), text).is_none(), "{file} twice");
            rest = member.into_inner();
        }
    }
    files
}

/// The games of a tournament's `results.jsonl` in `dir`.
pub fn results(dir: &Path) -> Vec<snakepit_tournament::GameResult> {
    let text = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// Runs `snakepit tournament ARGS --out OUT`.
pub fn tournament(args: &[&str], out: &Path) -> Output {
    let mut all: Vec<&std::ffi::OsStr> = vec!["tournament".as_ref()];
    all.extend(args.iter().map(std::ffi::OsStr::new));
    all.extend(["--out".as_ref(), out.as_os_str()]);
    snakepit(&all)
}

/// One HTTP/1.1 request to `addr` on a connection of its own; the status
/// and the body.
pub fn http(addr: std::net::SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(s, "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let status = out.split(' ').nth(1).unwrap().parse().unwrap();
    (status, out.split_once("\r\n\r\n").unwrap().1.to_string())
}

/// A `snakepit serve` child process, killed when dropped.
pub struct Served {
    pub child: std::process::Child,
    /// Where it listens.
    pub addr: std::net::SocketAddr,
    /// Everything it wrote to stderr (its log) so far.
    pub log: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    /// `snakepit serve` on a free loopback port, with the admin token
    /// `token` from the environment, and `args` after; returns once it
    /// listens. Its log (`RUST_LOG=info`) is kept in [`Served::log`], and
    /// its stdout read on, so that it never blocks on a full pipe.
    pub fn start<I, S>(token: &str, args: I) -> Served
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        use std::io::{BufRead, BufReader};
        use std::process::Stdio;
        let mut child = Command::new(env!("CARGO_BIN_EXE_snakepit"))
            .args(["serve", "--bind", "127.0.0.1", "--port", "0"])
            .args(args)
            .env("SNAKEPIT_ADMIN_TOKEN", token)
            .env("RUST_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("snakepit serve starts");
        let log = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let sink = log.clone();
        std::thread::spawn(move || {
            let mut line = String::new();
            while stderr.read_line(&mut line).is_ok_and(|n| n > 0) {
                sink.lock().unwrap().push_str(&line);
                line.clear();
            }
        });
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let addr = loop {
            let Some(Ok(line)) = lines.next() else { panic!("serve ended before listening:\n{}", log.lock().unwrap()) };
            if let Some(a) = line.strip_prefix("snakepit listening on http://") {
                break a.parse().unwrap();
            }
        };
        std::thread::spawn(move || for _ in lines {});
        Served { child, addr, log }
    }

    /// What it logged so far.
    pub fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    /// Waits (60 s at most) until its log holds `words`.
    pub fn wait_for_log(&self, words: &str) -> String {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            let log = self.log();
            if log.contains(words) {
                return log;
            }
            assert!(std::time::Instant::now() < deadline, "no {words:?} in the log:\n{log}");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}
