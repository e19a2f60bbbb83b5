//! Saved programs built once: what a C or Java build made in a real
//! sandboxed bot's folder is kept beside the source, later starts run it
//! without compiling, and a build folder that holds anything but regular
//! files and folders (a link, a FIFO, a huge file) keeps nothing.

use std::fs;
use std::path::Path;
use std::time::Duration;

use snakepit_bots::process::{ProcessBot, SandboxLimits};

use snakepit_bots::source::SourceProgram;

const BUILD_WAIT: Duration = Duration::from_secs(120);
const ANSWER: Duration = Duration::from_secs(30);

fn limits() -> SandboxLimits {
    SandboxLimits { stop_between_moves: false, ..SandboxLimits::default() }
}

/// Builds `program` from `dir` in the sandbox, keeping the build in `dir`,
/// and returns what the build answered (its exit status).
async fn build_and_keep(program: &SourceProgram, dir: &Path) -> String {
    let build = program.build(dir, &limits(), BUILD_WAIT).await.unwrap().expect("a compiled language");
    assert!(build.compiled(), "{:?}", build.stderr.lines);
    build.kept.clone().unwrap();
    build.status.map(|r| r.line.trim().to_string()).unwrap_or_else(|f| panic!("{f}"))
}

/// Starts the program from `dir` and asks it one line.
async fn run_once(program: &SourceProgram, dir: &Path) -> Result<String, String> {
    let mut bot = ProcessBot::spawn(&program.command(dir), &limits()).map_err(|e| e.to_string())?;
    bot.ask("4\n", ANSWER).await.map(|r| r.line.trim().to_string()).map_err(|f| f.to_string())
}

const C_ECHO: &str = "#include <stdio.h>\nint main(void) { char l[64]; while (fgets(l, sizeof l, stdin)) { printf(\"got %s\", l); fflush(stdout); } return 0; }\n";
const JAVA_ECHO: &str = "import java.util.Scanner;\npublic class Echo { public static void main(String[] a) { Scanner s = new Scanner(System.in); while (s.hasNextLine()) { System.out.println(\"got \" + s.nextLine()); System.out.flush(); } } }\n";

#[tokio::test]
async fn a_kept_build_runs_without_compiling_again() {
    for (lang, source, file) in [("c", C_ECHO, "bot.c"), ("java", JAVA_ECHO, "Echo.java")] {
        let program = SourceProgram::new("multisnake", lang, source).unwrap();
        let dir = tempfile::tempdir().unwrap();
        program.write(dir.path()).unwrap();
        assert_eq!(build_and_keep(&program, dir.path()).await, "0", "{lang} builds");
        assert_eq!(run_once(&program, dir.path()).await.as_deref(), Ok("got 4"), "{lang}");
        // The source no longer compiles, and the kept build still runs: no
        // start after the first compiles.
        fs::write(dir.path().join(file), "this is not a program").unwrap();
        assert_eq!(run_once(&program, dir.path()).await.as_deref(), Ok("got 4"), "{lang} runs its kept build");
        // Without the kept build, the same folder compiles at the start and fails.
        let built = dir.path().join(program.built.unwrap());
        let _ = fs::remove_dir_all(&built).or_else(|_| fs::remove_file(&built));
        assert!(run_once(&program, dir.path()).await.is_err(), "{lang} compiles again without it");
    }
}

#[test]
fn only_regular_files_and_folders_are_kept() {
    let c = SourceProgram::new("duel", "c", C_ECHO).unwrap();
    let java = SourceProgram::new("multisnake", "java", JAVA_ECHO).unwrap();
    let check = |program: &SourceProgram, make: &dyn Fn(&Path)| {
        let bot = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        make(bot.path());
        let kept = program.keep_built(bot.path(), dir.path());
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        (kept.map_err(|e| e.to_string()), left)
    };
    // A link to a file the program may not read.
    let (kept, left) = check(&c, &|b| std::os::unix::fs::symlink("/etc/passwd", b.join("bot")).unwrap());
    assert!(kept.is_err() && left.is_empty(), "{kept:?} {left:?}");
    // A FIFO: refused at once rather than waited on.
    let (kept, left) = check(&c, &|b| nix::unistd::mkfifo(&b.join("bot"), nix::sys::stat::Mode::S_IRWXU).unwrap());
    assert!(kept.unwrap_err().contains("not a regular file") && left.is_empty());
    // A file larger than any build (sparse, so cheap to make).
    let (kept, left) = check(&c, &|b| fs::File::create(b.join("bot")).unwrap().set_len(1 << 30).unwrap());
    assert!(kept.unwrap_err().contains("too large") && left.is_empty());
    // A link deep in a folder: the folder is not kept in part.
    let (kept, left) = check(&java, &|b| {
        fs::create_dir_all(b.join("classes/pkg")).unwrap();
        fs::write(b.join("classes/Echo.class"), "x").unwrap();
        std::os::unix::fs::symlink("/etc", b.join("classes/pkg/etc")).unwrap();
    });
    assert!(kept.is_err() && left.is_empty(), "{kept:?} {left:?}");
    // Nothing there to keep: an error, and nothing kept.
    let (kept, left) = check(&c, &|_| {});
    assert!(kept.is_err() && left.is_empty(), "{kept:?} {left:?}");
    // A plain build is kept, executable.
    let (kept, left) = check(&java, &|b| {
        fs::create_dir_all(b.join("classes/pkg")).unwrap();
        fs::write(b.join("classes/pkg/Echo.class"), "x").unwrap();
    });
    assert!(kept.is_ok() && left == ["classes"], "{kept:?} {left:?}");
}

/// A check's answer is an answer to the runner's request, however late the
/// runner asks: a runner kept off the CPU between the start and the ask
/// (a busy machine) used to find the exit status already written, output
/// nobody asked for, and the save was refused as "could not be checked".
#[tokio::test]
async fn a_check_answers_the_request_however_late_it_comes() {
    let program = SourceProgram::new("carrots", "python", "print('up')\n").unwrap();
    let dir = tempfile::tempdir().unwrap();
    program.write(dir.path()).unwrap();
    let line = program.syntax_check_line.as_deref().unwrap();
    let mut bot = ProcessBot::spawn(&snakepit_bots::process::BotCommand::shell(line).file(dir.path()), &limits()).unwrap();
    // Asked only once the checker could have finished had it not waited
    // for the request: when its compiled file shows, or after a while.
    let compiled = bot.live_folder().join("__pycache__");
    let until = std::time::Instant::now() + Duration::from_secs(5);
    while !compiled.exists() && std::time::Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let answer = bot.ask("\n", ANSWER).await.map(|r| r.line.trim().to_string()).map_err(|f| f.to_string());
    assert_eq!(answer.as_deref(), Ok("0"), "{:?}", bot.take_stderr().lines);
}
