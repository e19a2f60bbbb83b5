//! What a bot must not reach on the host, tried as an attacker would, one
//! test per attack: the host's command lines in `/proc`, its UNIX sockets,
//! SysV IPC, its files outside the runtimes, a grandchild outliving a
//! runner killed with SIGKILL, and the kernel's user namespaces, keyrings,
//! netlink and vsock sockets.
//!
//! Each test runs the attack with every layer and checks that it failed,
//! then checks that the host is as before (no process of the bot, no IPC
//! object, no file, no connection). Where a single switched-off layer lets
//! the attack through, a control run shows it does, so the test can fail.
//! A layer this machine lacks makes a test print "skipped".

use std::fs;
use std::io::{BufRead, BufReader, ErrorKind};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use snakepit_bots::process::{BotCommand, Layer, LayerSet, ProcessBot, SandboxLimits, SandboxReport};

const MIB: u64 = 1024 * 1024;
const ANSWER: Duration = Duration::from_secs(10);
/// Generous: a loaded 2-core machine tears namespaces down slowly.
const GONE_WAIT_MAX: Duration = Duration::from_secs(20);

fn limits_with(layers: LayerSet) -> SandboxLimits {
    SandboxLimits {
        cpu_seconds_max: Some(10),
        address_space_bytes_max: Some(256 * MIB),
        processes_max: Some(16),
        open_files_max: Some(32),
        layers,
        ..SandboxLimits::default()
    }
}

/// The probe of `fixtures/hostile/sys_probe.c`, compiled once per process.
///
/// The runners of the killed-runner test are processes of their own that
/// compile it too, while this one copies it into bot folders: each compiles
/// beside it and renames into place, since a linker's output is not
/// executable until it is complete (a copy taken meanwhile fails to exec
/// with EACCES).
fn probe() -> BotCommand {
    BotCommand::executable(probe_path())
}

/// The probe's answer to `request` run outside the sandbox as uid 65534:
/// what the machine itself allows an unprivileged user. The probe is run
/// from a copy in a folder that user can reach (the build's folders may
/// be the runner's alone), as the bots' folders are.
fn unsandboxed(request: &str) -> String {
    use std::io::Write;
    let dir = tempfile::Builder::new().prefix("snakepit-probe-").tempdir().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let probe = dir.path().join("sys_probe");
    fs::copy(probe_path(), &probe).unwrap();
    fs::set_permissions(&probe, fs::Permissions::from_mode(0o755)).unwrap();
    let mut child = Command::new(&probe).uid(65534).gid(65534).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(format!("{request}\n").as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn probe_path() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile/sys_probe.c");
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("isolation-fixtures");
        fs::create_dir_all(&dir).unwrap();
        let out = dir.join("sys_probe");
        let building = dir.join(format!("sys_probe.{}.building", std::process::id()));
        let ok = Command::new("cc").args(["-O2", "-o"]).arg(&building).arg(src).status();
        assert!(ok.expect("cc must be installed").success());
        fs::rename(&building, &out).unwrap();
        out
    })
}

/// Whether all `layers` are active here; prints why a test is skipped.
fn available(test: &str, layers: LayerSet) -> bool {
    let missing: LayerSet = layers.iter().filter(|l| !SandboxReport::cached().active().contains(*l)).collect();
    if missing != LayerSet::NONE {
        eprintln!("{test}: skipped, layers not available here: {missing}");
    }
    missing == LayerSet::NONE
}

fn wait_until(wait_max: Duration, mut done: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + wait_max;
    loop {
        if done() {
            return true;
        }
        if Instant::now() > until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn pids() -> Vec<u32> {
    fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect()
}

/// The pids of the processes of `uid`.
fn uid_alive(uid: u32) -> Vec<u32> {
    pids().into_iter().filter(|p| fs::metadata(format!("/proc/{p}")).is_ok_and(|m| m.uid() == uid)).collect()
}

/// The pids of the processes whose group is `pgid`.
fn group_alive(pgid: u32) -> Vec<u32> {
    pids()
        .into_iter()
        .filter(|p| {
            fs::read_to_string(format!("/proc/{p}/stat"))
                .ok()
                .and_then(|s| s[s.rfind(')')? + 2..].split(' ').nth(2)?.parse::<u32>().ok())
                == Some(pgid)
        })
        .collect()
}

/// What a bot leaves that the host could still see.
struct Remains {
    pid: u32,
    uid: Option<u32>,
    folder: PathBuf,
    cgroups: Vec<PathBuf>,
}

impl Remains {
    fn of(bot: &ProcessBot) -> Remains {
        Remains { pid: bot.pid(), uid: bot.uid(), folder: bot.folder().to_path_buf(), cgroups: bot.cgroup_paths() }
    }

    /// Waits until nothing of the bot is left: no process of its group
    /// or uid, no folder.
    fn assert_none(&self) {
        assert!(wait_until(GONE_WAIT_MAX, || group_alive(self.pid).is_empty()), "group {} left", self.pid);
        if let Some(uid) = self.uid {
            assert!(wait_until(GONE_WAIT_MAX, || uid_alive(uid).is_empty()), "uid {uid}: {:?}", uid_alive(uid));
        }
        assert!(wait_until(GONE_WAIT_MAX, || !self.folder.exists()), "{} left", self.folder.display());
        for group in &self.cgroups {
            assert!(wait_until(GONE_WAIT_MAX, || !group.exists()), "cgroup {} left", group.display());
        }
    }
}

/// Sends `request` and returns the answer line.
async fn ask(bot: &mut ProcessBot, request: &str) -> String {
    bot.ask(&format!("{request}\n"), ANSWER).await.unwrap_or_else(|f| panic!("{request}: {f}")).line
}

/// Ends `bot` the way a match does and checks nothing is left.
fn end(bot: ProcessBot) {
    let remains = Remains::of(&bot);
    drop(bot);
    remains.assert_none();
}

/// The keys of the host's SysV shared memory segments.
fn host_shm_keys() -> Vec<u64> {
    host_ipc_keys("shm")
}

/// The keys of the host's SysV objects of `kind`: `shm`, `sem` or `msg`.
fn host_ipc_keys(kind: &str) -> Vec<u64> {
    fs::read_to_string(format!("/proc/sysvipc/{kind}"))
        .unwrap_or_default()
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next()?.parse::<u64>().ok())
        .collect()
}

/// Attack 1: an uploaded program read every host process's command line
/// (an admin token among them) from /proc. In its own PID namespace it
/// sees its own process alone: the init is hidden (`hidepid`), and keeps
/// no copy of the runner's command line anyway.
#[tokio::test]
async fn attack_host_command_lines_are_not_visible() {
    let layers = LayerSet::ALL;
    if !available("host command lines", layers) {
        return;
    }
    let secret = format!("snakepit-secret-token-{}", std::process::id());
    // A group of its own, so that the end kills the `sleep` too, which
    // dash forks rather than execs.
    let mut host = Command::new("/bin/sh").args(["-c", "sleep 300", &secret]).process_group(0).spawn().unwrap();
    let runner_name = std::env::args().next().unwrap();
    let runner_name = Path::new(&runner_name).file_name().unwrap().to_string_lossy().into_owned();

    let mut bot = ProcessBot::spawn(&probe(), &limits_with(layers)).unwrap();
    assert_eq!(ask(&mut bot, &format!("cmdline {secret}")).await, "absent 1");
    assert_eq!(ask(&mut bot, &format!("cmdline {runner_name}")).await, "absent 1");
    end(bot);

    // Control: without the PID namespace and the minimal root, the same
    // bot finds the host's command line.
    let open = LayerSet::ALL.without(Layer::PidNamespace).without(Layer::MinimalRoot);
    let mut bot = ProcessBot::spawn(&probe(), &limits_with(open)).unwrap();
    assert!(ask(&mut bot, &format!("cmdline {secret}")).await.starts_with("found "));
    end(bot);

    nix::sys::signal::killpg(nix::unistd::Pid::from_raw(host.id() as i32), nix::sys::signal::Signal::SIGKILL).unwrap();
    host.wait().unwrap();
}

/// Namespaces are made ahead of the starts that use them (on the stock
/// thread) or by the start itself when none is ready: either way each bot
/// has its own, shared with no other bot and not the runner's. Six bots at
/// once take more than the stock holds.
#[tokio::test]
async fn each_bot_has_namespaces_of_its_own() {
    let layers = LayerSet::ALL;
    if !available("namespaces of its own", layers) {
        return;
    }
    let ns = |pid: &str, kind: &str| fs::metadata(format!("/proc/{pid}/ns/{kind}")).unwrap().ino();
    let host_name = BotCommand::shell("while read -r x; do uname -n; done");
    let mut bots = Vec::new();
    for _ in 0..6 {
        let mut bot = ProcessBot::spawn(&host_name, &limits_with(layers)).unwrap();
        assert_eq!(ask(&mut bot, "name").await, "snakepit-bot");
        bots.push(bot);
    }
    for kind in ["net", "ipc", "uts", "mnt", "pid"] {
        let mut seen: Vec<u64> = bots.iter().map(|b| ns(&b.pid().to_string(), kind)).collect();
        seen.push(ns("self", kind));
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), bots.len() + 1, "a {kind} namespace is shared");
    }
    bots.into_iter().for_each(end);
}

/// Attack 2: bots connected to world-writable UNIX sockets of the host,
/// even in folders they could not list (a local database's, say). In the
/// minimal root no such path exists; no connection reaches the listener.
#[tokio::test]
async fn attack_host_unix_sockets_are_out_of_reach() {
    let layers = LayerSet::ALL;
    if !available("host unix sockets", layers) {
        return;
    }
    let dir = tempfile::Builder::new().prefix("snakepit-sock-").tempdir().unwrap();
    // Searchable but not listable, as the attack found them.
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o711)).unwrap();
    let path = dir.path().join("db.sock");
    let listener = UnixListener::bind(&path).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o777)).unwrap();
    listener.set_nonblocking(true).unwrap();

    let mut bot = ProcessBot::spawn(&probe(), &limits_with(layers)).unwrap();
    let reply = ask(&mut bot, &format!("unix {}", path.display())).await;
    assert_eq!(reply, "denied 2", "the socket's path does not exist for the bot");
    end(bot);
    assert_eq!(listener.accept().map(|_| ()).unwrap_err().kind(), ErrorKind::WouldBlock, "no connection came");

    // Control: without the minimal root, the bot (even as its own uid,
    // under landlock) connects.
    let mut bot = ProcessBot::spawn(&probe(), &limits_with(LayerSet::ALL.without(Layer::MinimalRoot))).unwrap();
    assert_eq!(ask(&mut bot, &format!("unix {}", path.display())).await, "connected");
    end(bot);
    assert!(listener.accept().is_ok());
}

/// Attack 3: a bot made SysV shared memory segments that outlived its
/// game, past its limits, and that later bots could read. In its own IPC
/// namespace they are invisible to the host and gone with the bot; where
/// it has no IPC namespace, seccomp refuses SysV IPC.
#[tokio::test]
async fn attack_sysv_ipc_stays_in_the_bots_namespace() {
    let layers = LayerSet::ALL;
    if !available("sysv ipc", layers) {
        return;
    }
    let key = 0x5eed_0000 + (u64::from(std::process::id()) & 0xfff) * 16;
    let ours = |keys: Vec<u64>| keys.into_iter().filter(|k| (key..key + 16).contains(k)).count();
    assert_eq!(ours(host_shm_keys()), 0);

    let mut bot = ProcessBot::spawn(&probe(), &limits_with(layers)).unwrap();
    assert_eq!(ask(&mut bot, &format!("shm {key:x} 5 8")).await, "made 5");
    assert_eq!(ask(&mut bot, &format!("sem {key:x}")).await, "made");
    assert_eq!(ask(&mut bot, &format!("msg {key:x}")).await, "made");
    for kind in ["shm", "sem", "msg"] {
        assert_eq!(ours(host_ipc_keys(kind)), 0, "the host sees none of the bot's {kind} objects");
    }
    // Another bot, meanwhile, finds nothing to read or write.
    let mut other = ProcessBot::spawn(&probe(), &limits_with(layers)).unwrap();
    assert_eq!(ask(&mut other, &format!("shmfind {key:x}")).await, "denied 2");
    assert_eq!(ask(&mut bot, &format!("shmfind {key:x}")).await, "found");
    end(other);
    end(bot);
    for kind in ["shm", "sem", "msg"] {
        assert_eq!(ours(host_ipc_keys(kind)), 0, "{kind}");
    }

    let without_ns = LayerSet::ALL.without(Layer::IpcNamespace);
    let mut bot = ProcessBot::spawn(&probe(), &limits_with(without_ns)).unwrap();
    assert_eq!(ask(&mut bot, &format!("shm {key:x} 1 1")).await, "denied 1");
    end(bot);
    assert_eq!(ours(host_shm_keys()), 0);

    // Control: without both, the segment is the host's, and stays.
    let open = without_ns.without(Layer::Seccomp);
    let mut bot = ProcessBot::spawn(&probe(), &limits_with(open)).unwrap();
    assert_eq!(ask(&mut bot, &format!("shm {key:x} 1 1")).await, "made 1");
    end(bot);
    assert_eq!(ours(host_shm_keys()), 1, "the control's segment outlives its bot");
    remove_shm(key);
    assert_eq!(ours(host_shm_keys()), 0);
}

#[allow(unsafe_code)]
fn remove_shm(key: u64) {
    // SAFETY: shmget and shmctl take integers and a null buffer.
    unsafe {
        let id = libc::shmget(key as libc::key_t, 0, 0);
        assert!(id >= 0);
        libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut());
    }
}

/// Attack 4: /etc, /opt and the rest of the host were readable: a config
/// file with an admin token, a server's SQLite database. In the minimal
/// root only the runtimes, the bot's folder, /tmp, /proc, four devices
/// and a generated /etc exist.
#[tokio::test]
async fn attack_the_host_tree_is_not_there() {
    let layers = LayerSet::ALL;
    if !available("host tree", layers) {
        return;
    }
    // Readable by anyone, in a system path that landlock allows reading.
    let secret = PathBuf::from(format!("/etc/snakepit-test-secret-{}.toml", std::process::id()));
    fs::write(&secret, "admin_token = \"T0P-SECRET\"\n").unwrap();
    fs::set_permissions(&secret, fs::Permissions::from_mode(0o644)).unwrap();
    let _remove = RemoveOnDrop(secret.clone());

    let mut bot = ProcessBot::spawn(&probe(), &limits_with(layers)).unwrap();
    assert_eq!(ask(&mut bot, &format!("read {}", secret.display())).await, "denied 2");
    let root = ask(&mut bot, "ls /").await;
    let mut want: Vec<&str> = vec!["dev", "etc", "proc", "tmp", "usr"];
    for link in ["bin", "lib", "lib32", "lib64", "libx32", "sbin", "sys"] {
        if fs::symlink_metadata(Path::new("/").join(link)).is_ok() {
            want.push(link);
        }
    }
    want.sort_unstable();
    assert_eq!(root, want.join(" "));
    let etc = ask(&mut bot, "ls /etc").await;
    for name in etc.split(' ') {
        assert!(
            ["passwd", "group", "hosts", "ld.so.cache", "alternatives"].contains(&name) || name.starts_with("java-"),
            "/etc holds {name}: {etc}"
        );
    }
    assert_eq!(ask(&mut bot, "ls /opt").await, "denied 2");
    assert_eq!(ask(&mut bot, "ls /dev").await, "fd null random shm stderr stdin stdout urandom zero");
    assert!(ask(&mut bot, "read /etc/passwd").await.starts_with("read root:x:0:0:"));
    end(bot);
    assert_eq!(fs::read_to_string(&secret).unwrap(), "admin_token = \"T0P-SECRET\"\n");

    // Control: landlock alone lets the bot read /etc.
    let mut bot = ProcessBot::spawn(&probe(), &limits_with(LayerSet::ALL.without(Layer::MinimalRoot))).unwrap();
    assert_eq!(ask(&mut bot, &format!("read {}", secret.display())).await, "read admin_token = \"T0P-SECRET\"");
    end(bot);
}

struct RemoveOnDrop(PathBuf);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
    }
}

/// Attack 6: bots could make user namespaces (and so be root of new mount
/// and network namespaces), and use the kernel's keyrings, netlink and
/// vsock sockets. Seccomp refuses all of them.
#[tokio::test]
async fn attack_user_namespaces_keyrings_netlink_and_vsock_are_refused() {
    let layers = LayerSet::ALL;
    if !available("kernel interfaces", layers) {
        return;
    }
    let mut bot = ProcessBot::spawn(&probe(), &limits_with(layers)).unwrap();
    for request in ["userns", "clone_userns", "keyring", "socket 16", "socket 40"] {
        assert_eq!(ask(&mut bot, request).await, "denied 1", "{request}");
    }
    // Threads still start (the C library falls back from clone3).
    end(bot);
    // It reads the request before it answers: an answer written before
    // the ask would be output nobody asked for.
    let threads = BotCommand::new("python3").args(["-c", "import sys, threading; sys.stdin.readline(); t = threading.Thread(target=print, args=('thread',)); t.start(); t.join()"]);
    let mut bot = ProcessBot::spawn(&threads, &limits_with(layers)).unwrap();
    assert_eq!(ask(&mut bot, "go").await, "thread");
    end(bot);

    // Control: without seccomp, netlink sockets and keyrings work, and
    // vsock sockets and user namespaces too where the machine gives them
    // to any user.
    let mut bot = ProcessBot::spawn(&probe(), &limits_with(LayerSet::ALL.without(Layer::Seccomp))).unwrap();
    assert_eq!(ask(&mut bot, "socket 16").await, "made");
    assert_eq!(ask(&mut bot, "keyring").await, "made");
    for request in ["socket 40", "userns"] {
        let here = unsandboxed(request);
        if here == "made" {
            assert_eq!(ask(&mut bot, request).await, "made", "{request}");
        } else {
            eprintln!("{request}: no control, this machine refuses it to any user ({here})");
        }
    }
    end(bot);
}

/// The runner of [`attack_a_runner_killed_with_sigkill_leaves_no_process`],
/// run as a child process of that test (it does nothing otherwise):
/// starts a bot that leaves an orphaned grandchild and ignores the end of
/// its input, says so, and waits to be killed.
#[tokio::test]
async fn killed_runner() {
    let Ok(root) = std::env::var("SNAKEPIT_KILLED_RUNNER_ROOT") else { return };
    let layers = if std::env::var("SNAKEPIT_KILLED_RUNNER_OPEN").is_ok() {
        LayerSet::ALL.without(Layer::PidNamespace)
    } else {
        LayerSet::ALL
    };
    let limits = SandboxLimits { folder_root: Some(PathBuf::from(root)), ..limits_with(layers) };
    let mut bot = ProcessBot::spawn(&probe(), &limits).unwrap();
    assert_eq!(ask(&mut bot, "orphan").await, "left");
    // The bot outlives its input, which closes with the runner.
    assert_eq!(ask(&mut bot, "linger").await, "lingering");
    let groups: Vec<String> = bot.cgroup_paths().iter().map(|p| p.display().to_string()).collect();
    println!("READY {} {} {}", bot.pid(), bot.uid().unwrap_or(0), groups.join(","));
    tokio::time::sleep(Duration::from_secs(300)).await;
}

/// Starts [`killed_runner`] with its bot in `root`, kills it with SIGKILL
/// once the bot's grandchild is orphaned, and returns the bot's group, uid
/// and control groups.
fn run_and_kill_a_runner(root: &Path, open: bool) -> (u32, u32, Vec<PathBuf>) {
    let mut runner = Command::new(std::env::current_exe().unwrap());
    runner
        .args(["--exact", "killed_runner", "--nocapture", "--test-threads=1"])
        .env("SNAKEPIT_KILLED_RUNNER_ROOT", root)
        .stdout(Stdio::piped());
    if open {
        runner.env("SNAKEPIT_KILLED_RUNNER_OPEN", "1");
    }
    let mut runner = runner.spawn().unwrap();
    let mut lines = BufReader::new(runner.stdout.take().unwrap()).lines();
    let ready = lines.find_map(|l| Some(l.ok()?.split_once("READY ")?.1.to_string())).expect("the runner started its bot");
    let mut words = ready.split(' ');
    let mut number = || words.next().unwrap().parse::<u32>().unwrap();
    let (pgid, uid) = (number(), number());
    let groups = ready.splitn(3, ' ').nth(2).unwrap_or("").split(',').filter(|g| !g.is_empty()).map(PathBuf::from).collect();
    runner.kill().unwrap();
    runner.wait().unwrap();
    (pgid, uid, groups)
}

/// Attack 5: a bot's grandchild outlived a runner killed with SIGKILL.
/// The runner's death kills the init (parent-death signal), whose
/// end kills every process of the namespace; the next runner on the same
/// folder root removes the dead runner's folders.
#[test]
fn attack_a_runner_killed_with_sigkill_leaves_no_process() {
    if !available("killed runner", LayerSet::ALL) {
        return;
    }
    let root = tempfile::Builder::new().prefix("snakepit-killed-").tempdir().unwrap();
    fs::set_permissions(root.path(), fs::Permissions::from_mode(0o711)).unwrap();
    let (pgid, uid, groups) = run_and_kill_a_runner(root.path(), false);
    assert!(uid != 0);
    assert!(!groups.is_empty(), "the bot had control groups");
    assert!(wait_until(GONE_WAIT_MAX, || uid_alive(uid).is_empty() && group_alive(pgid).is_empty()), "left: {:?}", uid_alive(uid));
    let left = |prefix: &str| fs::read_dir(root.path()).unwrap().flatten().filter(|e| e.file_name().to_string_lossy().starts_with(prefix)).count();
    assert_eq!(left("snakepit-bot-"), 1, "the killed runner's folder is still there");
    let mounts = fs::read_to_string("/proc/self/mountinfo").unwrap();
    assert!(!mounts.contains(root.path().to_str().unwrap()), "no mount of the bot reached the host");

    // The next runner on that root cleans up first.
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let limits = SandboxLimits { folder_root: Some(root.path().to_path_buf()), ..limits_with(LayerSet::ALL) };
        let bot = ProcessBot::spawn(&probe(), &limits).unwrap();
        assert_eq!(left("snakepit-bot-"), 1, "only the new bot's folder");
        // And the killed runner's control groups, once their processes
        // are gone.
        for group in &groups {
            assert!(wait_until(GONE_WAIT_MAX, || !group.exists()), "the killed runner's {} is left", group.display());
        }
        end(bot);
    });
    assert_eq!(left("snakepit-bot-") + left("snakepit-quota-"), 0);

    // Control: without the PID namespace, the orphan outlives the runner
    // (it is then killed here).
    let (_, uid, _) = run_and_kill_a_runner(root.path(), true);
    std::thread::sleep(Duration::from_millis(500));
    let orphans = uid_alive(uid);
    assert!(!orphans.is_empty(), "the orphan outlives its runner without a PID namespace");
    for pid in orphans {
        let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid as i32), nix::sys::signal::Signal::SIGKILL);
    }
    assert!(wait_until(GONE_WAIT_MAX, || uid_alive(uid).is_empty()));
}

/// Attack 8: memory past every per-process limit, by many processes each
/// under its own: four children of 48 MiB (an address space of 256 MiB
/// each) and SysV segments. The group counts them together, and the
/// kernel kills in the group past its 128 MiB.
#[tokio::test]
async fn attack_memory_of_all_processes_together_is_bounded() {
    let layers = LayerSet::ALL;
    if !available("memory together", layers) {
        return;
    }
    let limits = |layers| SandboxLimits { memory_bytes_max: 128 * MIB, ..limits_with(layers) };
    let mut bot = ProcessBot::spawn(&probe(), &limits(layers)).unwrap();
    let groups = bot.cgroup_paths();
    assert!(!groups.is_empty() && groups.iter().all(|g| g.exists()), "{groups:?}");
    let reply = ask(&mut bot, "hog 4 48").await;
    let touched: u32 = reply.split(' ').nth(1).unwrap().parse().unwrap();
    assert!(touched < 4, "{reply}");
    end(bot);

    // SysV segments touched by the bot itself (4 of 64 MiB, each under
    // its address space): the kernel kills it, and the fault names the
    // limit.
    let key = 0x5eed_8000 + (u64::from(std::process::id()) & 0xfff) * 16;
    let mut bot = ProcessBot::spawn(&probe(), &limits(layers)).unwrap();
    let fault = bot.ask(&format!("shm {key:x} 4 64\n"), ANSWER).await.unwrap_err();
    assert_eq!(fault.reason, snakepit_bots::process::FaultReason::OutOfMemory { memory_bytes_max: 128 * MIB }, "{fault}");
    assert!(fault.to_string().contains("memory limit of 128 MiB"), "{fault}");
    end(bot);

    // Files in the bot's own tmpfs (its folder, its /tmp and /dev/shm are
    // memory): 192 MiB in a folder allowed 512 is past the group's 128.
    let roomy = |layers| SandboxLimits { folder_bytes_max: 512 * MIB, file_size_bytes_max: Some(512 * MIB), ..limits(layers) };
    for path in ["big", "/dev/shm/big"] {
        let mut bot = ProcessBot::spawn(&probe(), &roomy(layers)).unwrap();
        match bot.ask(&format!("fill {path} 192\n"), ANSWER).await {
            Err(fault) => assert_eq!(fault.reason, snakepit_bots::process::FaultReason::OutOfMemory { memory_bytes_max: 128 * MIB }, "{path}: {fault}"),
            // The kernel may refuse the write (ENOMEM) instead of killing
            // the bot.
            Ok(reply) => assert_eq!(reply.line, "denied 12", "{path}"),
        }
        end(bot);
    }

    // Control: without the group, each process stays under its own limit,
    // and the files fit.
    let mut bot = ProcessBot::spawn(&probe(), &roomy(layers.without(Layer::Cgroup))).unwrap();
    assert!(bot.cgroup_paths().is_empty());
    assert_eq!(ask(&mut bot, "hog 4 48").await, "touched 4 died 0");
    assert_eq!(ask(&mut bot, "fill big 192").await, "filled");
    end(bot);
}

/// Attack 9: processes past the limit where no uid of its own makes
/// `RLIMIT_NPROC` hold (the kernel does not apply it to root): the
/// group's `pids.max` holds whatever the uid.
#[tokio::test]
async fn attack_processes_are_bounded_by_the_group() {
    let layers = LayerSet::ALL.without(Layer::DedicatedUid);
    if !available("processes together", layers) {
        return;
    }
    let mut bot = ProcessBot::spawn(&probe(), &limits_with(layers)).unwrap();
    let reply = ask(&mut bot, "spawn 40").await;
    let forked: u32 = reply.strip_prefix("forked ").unwrap().parse().unwrap();
    // The probe and its 16 - 1 children, less the init where there is one.
    assert!(forked < 16, "{reply}");
    end(bot);

    // Control: without the group, a root bot forks them all.
    let mut bot = ProcessBot::spawn(&probe(), &limits_with(layers.without(Layer::Cgroup))).unwrap();
    assert_eq!(ask(&mut bot, "spawn 40").await, "forked 40");
    end(bot);
}

/// Attack 10: CPU time past the limit by many processes, each under its
/// own `RLIMIT_CPU` (1 s): three children of 0.6 s. The group's time is
/// counted together; the next move is refused, and the bot ended.
#[tokio::test]
async fn attack_cpu_time_of_all_processes_together_is_bounded() {
    let layers = LayerSet::ALL;
    if !available("cpu together", layers) {
        return;
    }
    let limits = |layers| SandboxLimits { cpu_seconds_max: Some(1), ..limits_with(layers) };
    // Generous: 1.8 s of CPU on a loaded machine.
    let burn_deadline = Duration::from_secs(120);
    let mut bot = ProcessBot::spawn(&probe(), &limits(layers)).unwrap();
    assert_eq!(bot.ask("burn 3 600\n", burn_deadline).await.unwrap().line, "burned");
    let fault = bot.ask("spawn 0\n", ANSWER).await.unwrap_err();
    assert_eq!(fault.reason, snakepit_bots::process::FaultReason::CpuTime { cpu_seconds_max: 1 }, "{fault}");
    end(bot);

    // Control: without the group, each process keeps under its own limit.
    let mut bot = ProcessBot::spawn(&probe(), &limits(layers.without(Layer::Cgroup))).unwrap();
    assert_eq!(bot.ask("burn 3 600\n", burn_deadline).await.unwrap().line, "burned");
    assert_eq!(ask(&mut bot, "spawn 0").await, "forked 0");
    end(bot);
}

/// The attacks a bot's sandbox contained before the isolation above, kept
/// so: UDP and packet sockets and DNS reach nothing. A UDP datagram to a
/// host port never arrives (no IP socket, and no network but the bot's own
/// empty one); a control run without both layers shows the host's socket
/// would receive it.
#[tokio::test]
async fn attack_udp_packet_sockets_and_dns_reach_nothing() {
    let layers = LayerSet::ALL;
    if !available("udp, packet and dns", layers) {
        return;
    }
    let host = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    host.set_nonblocking(true).unwrap();
    let port = host.local_addr().unwrap().port();
    let mut bot = ProcessBot::spawn(&probe(), &limits_with(layers)).unwrap();
    assert!(ask(&mut bot, &format!("udp {port}")).await.starts_with("denied "));
    assert_eq!(ask(&mut bot, "packet").await, "denied 1");
    assert!(ask(&mut bot, "dns localhost.localdomain").await.starts_with("failed "));
    assert!(ask(&mut bot, "dns snakepit.invalid").await.starts_with("failed "));
    end(bot);
    let mut got = [0u8; 64];
    assert_eq!(host.recv(&mut got).map_err(|e| e.kind()), Err(ErrorKind::WouldBlock), "a datagram reached the host");

    // Control: without seccomp and the network namespace it arrives.
    let open = LayerSet::ALL.without(Layer::Seccomp).without(Layer::NetworkNamespace);
    let mut bot = ProcessBot::spawn(&probe(), &limits_with(open)).unwrap();
    assert_eq!(ask(&mut bot, &format!("udp {port}")).await, "sent");
    end(bot);
    host.set_nonblocking(false).unwrap();
    host.set_read_timeout(Some(GONE_WAIT_MAX)).unwrap();
    let n = host.recv(&mut got).expect("the control's datagram");
    assert_eq!(&got[..n], b"snakepit-udp");
}

/// Contained before, kept so: a bot can neither trace nor kill a host
/// process or another bot. It does not even see them (its own PID
/// namespace), runs as a uid of its own, and seccomp refuses `ptrace`;
/// both witnesses live on.
#[tokio::test]
async fn attack_ptrace_and_kill_of_other_processes_fail() {
    let layers = LayerSet::ALL;
    if !available("ptrace and kill", layers) {
        return;
    }
    let mut host = Command::new("sleep").arg("600").spawn().unwrap();
    let mut witness = ProcessBot::spawn(&probe(), &limits_with(layers)).unwrap();
    let mut bot = ProcessBot::spawn(&probe(), &limits_with(layers)).unwrap();
    for target in [host.id(), witness.pid(), std::process::id()] {
        assert!(ask(&mut bot, &format!("ptrace {target}")).await.starts_with("denied "), "ptrace {target}");
        assert!(ask(&mut bot, &format!("kill {target}")).await.starts_with("denied "), "kill {target}");
    }
    // Nothing at all for it to signal (ESRCH): its namespace holds only
    // itself and its init, which a signal to every process spares.
    assert_eq!(ask(&mut bot, "kill -1").await, "denied 3");
    assert_eq!(host.try_wait().unwrap(), None, "the host's process was killed");
    assert_eq!(ask(&mut witness, "spawn 0").await, "forked 0", "the other bot was killed");
    host.kill().unwrap();
    host.wait().unwrap();
    end(witness);
    let remains = Remains::of(&bot);
    drop(bot);
    remains.assert_none();
}

/// Contained before, kept so: a bot cannot mount anything (no capability
/// in its uid), and nothing it tried shows in the host's mounts.
#[tokio::test]
async fn attack_mount_fails_and_leaves_the_host_mounts_alone() {
    let layers = LayerSet::ALL;
    if !available("mount", layers) {
        return;
    }
    let host_mounts = || fs::read_to_string("/proc/1/mountinfo").unwrap() + &fs::read_to_string("/proc/self/mountinfo").unwrap();
    let mut bot = ProcessBot::spawn(&probe(), &limits_with(layers)).unwrap();
    for target in [".", "/tmp", "/proc"] {
        assert_eq!(ask(&mut bot, &format!("mount {target}")).await, "denied 1", "{target}");
    }
    end(bot);
    assert!(!host_mounts().contains("snakepit-probe"), "a bot's mount reached the host");
}

/// Contained before, kept so: a bot cannot raise its limits past the
/// hard limits it was given.
#[tokio::test]
async fn attack_raising_rlimits_fails() {
    let layers = LayerSet::ALL;
    if !available("rlimits", layers) {
        return;
    }
    let mut bot = ProcessBot::spawn(&probe(), &limits_with(layers)).unwrap();
    assert_eq!(ask(&mut bot, "rlimit").await, "denied 1");
    end(bot);
}

/// Contained before, kept so: a bot that ignores SIGTERM and every other
/// polite signal, with a child that does too, and stops answering, times
/// out, and its end leaves no process, folder or group behind.
#[tokio::test]
async fn attack_a_bot_that_ignores_sigterm_still_ends_whole() {
    let layers = LayerSet::ALL;
    if !available("ignoring SIGTERM", layers) {
        return;
    }
    let mut bot = ProcessBot::spawn(&probe(), &limits_with(layers)).unwrap();
    assert_eq!(ask(&mut bot, "stubborn").await, "stubborn");
    let fault = bot.ask("up\n", Duration::from_millis(200)).await.unwrap_err();
    assert!(matches!(fault.reason, snakepit_bots::process::FaultReason::Timeout { .. }), "{fault}");
    end(bot);
}
