//! Programs built once per process: a C or Java program (a worker's queued
//! game's saved program, a source-file bot of `play` or `tournament`) is
//! compiled in the sandbox the first time the process meets it, and every
//! later game of the same program starts from that build instead of
//! compiling again at each start. A ladder or a tournament plays each
//! program many times, and a Java build takes seconds while a duel
//! between fast bots takes less.
//!
//! A program is the same when its game, language and source are. The
//! process keeps the latest [`BUILDS_KEPT_MAX`] programs, each in a folder
//! of its own under one working folder tagged as this runner's (removed
//! when the process ends, or by the next runner if it is killed). A game holds
//! its programs' folders until it ends, so a folder that leaves the cache
//! meanwhile stays until then.

use snakepit_bots::source::SourceProgram;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Programs whose folders (sources and build) a process keeps.
pub const BUILDS_KEPT_MAX: usize = 64;

/// The longest a build may take.
const BUILD_DEADLINE: Duration = Duration::from_secs(60);

/// The folder of one program: its source files and, when it compiled, its
/// build. Removed when the last game using it lets go.
#[derive(Debug)]
pub struct ProgramFolder {
    path: PathBuf,
    /// Why the program does not compile, with the compiler's messages;
    /// `None` when it compiled or is not compiled.
    compile_error: Option<String>,
}

impl ProgramFolder {
    /// Where the files are.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Why the program does not compile (the compiler's exit status and
    /// its last [`COMPILER_LINES_SHOWN_MAX`] lines), if it does not. A
    /// worker still plays it (each start fails, with the compiler's words
    /// in the game's stderr log, as the server's rooms do); `play` and
    /// `tournament` stop before the game instead, since whoever runs them
    /// is the one who can fix it.
    pub fn compile_error(&self) -> Option<&str> {
        self.compile_error.as_deref()
    }
}

/// Lines of the compiler's messages a [`ProgramFolder::compile_error`]
/// keeps, the last ones: a compiler that fails on every line of a file
/// would otherwise fill the terminal, and the first errors are repeated
/// at the end by javac's count and gcc's context.
pub const COMPILER_LINES_SHOWN_MAX: usize = 40;

impl Drop for ProgramFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// The programs a process has written and built, latest used last.
pub struct Builds {
    root: Option<tempfile::TempDir>,
    /// (game, language, source) and its folder once made, least recently
    /// used first. The cell is filled outside the lock, so that a build
    /// holds up only the games of its own program.
    kept: Vec<((String, String, String), Arc<Cell>)>,
    made: u64,
}

/// One program's folder, made by the first game that needs it.
struct Cell {
    path: PathBuf,
    folder: tokio::sync::OnceCell<Arc<ProgramFolder>>,
    /// Tries so far: each writes a folder of its own, since a game may
    /// still use the folder of a try that was not kept.
    tries: std::sync::atomic::AtomicU64,
}


/// A folder that could not be kept: the program builds at each start.
struct Uncached(Arc<ProgramFolder>);

/// The programs of this process: a worker's queued games, the source-file
/// bots of every game of a tournament, on any of its threads.
pub static SHARED: tokio::sync::Mutex<Builds> = tokio::sync::Mutex::const_new(Builds::new());

/// Removes the folders of [`SHARED`]; programs built later start afresh.
pub fn forget_shared() {
    if let Ok(mut builds) = SHARED.try_lock() {
        *builds = Builds::new();
    }
}

impl Builds {
    /// No program yet.
    pub const fn new() -> Builds {
        Builds { root: None, kept: Vec::new(), made: 0 }
    }

    /// [`folder`](Self::folder) in [`SHARED`], for code that cannot wait
    /// asynchronously (a game's set-up): the build runs on a thread of its
    /// own, with a runtime of its own, while the caller's thread waits.
    pub fn shared_folder_blocking(game: &str, lang: &str, source: &str, who: &str) -> Result<Arc<ProgramFolder>, String> {
        std::thread::scope(|scope| {
            scope
                .spawn(|| {
                    let runtime = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .map_err(|e| format!("a runtime for the build: {e}"))?;
                    runtime.block_on(Builds::folder(&SHARED, game, lang, source, who))
                })
                .join()
                .map_err(|_| "the build's thread panicked".to_string())?
        })
    }

    /// The folder of `source` (written in `lang` for `game`), written and,
    /// for a compiled language, built on first use. `who` names the
    /// program in the log ("the saved program of ID", a file). Games of
    /// the same program wait for its build; other programs' games do not,
    /// and builds take places of `BUILDS_AT_ONCE` (shared with the server
    /// in `serve`). A build that failed for a
    /// reason of the moment (no sandbox, a timeout) is not kept: the next
    /// game tries again, and this one builds at its start.
    pub async fn folder(
        this: &tokio::sync::Mutex<Builds>,
        game: &str,
        lang: &str,
        source: &str,
        who: &str,
    ) -> Result<Arc<ProgramFolder>, String> {
        let program = SourceProgram::new(game, lang, source)?;
        let cell = {
            let mut builds = this.lock().await;
            let key = (game.to_string(), lang.to_string(), source.to_string());
            match builds.kept.iter().position(|(k, _)| *k == key) {
                Some(at) => {
                    let entry = builds.kept.remove(at);
                    let cell = entry.1.clone();
                    builds.kept.push(entry);
                    cell
                }
                None => {
                    let root = match &builds.root {
                        Some(root) => root.path().to_path_buf(),
                        None => {
                            let root = snakepit_bots::process::work_folder(None)
                                .map_err(|e| format!("a folder for programs: {e}"))?;
                            let path = root.path().to_path_buf();
                            builds.root = Some(root);
                            path
                        }
                    };
                    builds.made += 1;
                    let path = root.join(format!("program{}", builds.made));
                    let cell = Arc::new(Cell { path, folder: tokio::sync::OnceCell::new(), tries: std::sync::atomic::AtomicU64::new(0) });
                    builds.kept.push((key, cell.clone()));
                    if builds.kept.len() > BUILDS_KEPT_MAX {
                        builds.kept.remove(0);
                    }
                    cell
                }
            }
        };
        let made = cell
            .folder
            .get_or_try_init(|| {
                let n = cell.tries.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let path = PathBuf::from(format!("{}-{n}", cell.path.display()));
                async move { make(&path, &program, game, lang, who).await }
            })
            .await;
        match made {
            Ok(folder) => Ok(folder.clone()),
            Err(Ok(Uncached(folder))) => Ok(folder),
            Err(Err(e)) => Err(e),
        }
    }
}

/// Writes and builds a program in `path`. A build that failed for a reason
/// of the moment gives its folder back uncached.
async fn make(
    path: &Path,
    program: &SourceProgram,
    game: &str,
    lang: &str,
    who: &str,
) -> Result<Arc<ProgramFolder>, Result<Uncached, String>> {
    std::fs::create_dir(path).map_err(|e| Err(format!("{}: {e}", path.display())))?;
    let mut folder = ProgramFolder { path: path.to_path_buf(), compile_error: None };
    program.write(folder.path()).map_err(|e| Err(format!("{}: {e}", folder.path().display())))?;
    if program.build_check_line.is_none() {
        return Ok(Arc::new(folder));
    }
    let _turn = snakepit_bots::source::BUILDS_AT_ONCE.acquire().await.map_err(|e| Err(e.to_string()))?;
    let limits = snakepit_bots::stdio_match::MatchSettings::for_game(game).limits;
    match program.build(folder.path(), &limits, BUILD_DEADLINE).await {
        Ok(None) => Ok(Arc::new(folder)),
        Ok(Some(build)) if build.compiled() && build.kept.is_ok() => {
            tracing::info!(lang, "built {who} once; its games start from that build");
            Ok(Arc::new(folder))
        }
        // The compiler said no: every start would say the same. The folder
        // is kept with the compiler's words, for the caller to decide
        // (see `ProgramFolder::compile_error`).
        Ok(Some(build)) if build.status.is_ok() && !build.compiled() => {
            let status = build.status.as_ref().map(|r| r.line.trim().to_string()).unwrap_or_default();
            let lines = &build.stderr.lines;
            let shown = &lines[lines.len().saturating_sub(COMPILER_LINES_SHOWN_MAX)..];
            let mut why = format!("{who} does not compile (the compiler's exit status {status})");
            if shown.len() < lines.len() || build.stderr.dropped_lines > 0 {
                why.push_str(&format!("; its last {} lines of messages:", shown.len()));
            } else if !shown.is_empty() {
                why.push(':');
            }
            for line in shown {
                why.push_str("\n  ");
                // Control characters of the compiler's output are escaped:
                // the source's own bytes are quoted in it.
                for c in line.chars() {
                    if c.is_control() { why.extend(c.escape_debug()) } else { why.push(c) }
                }
            }
            tracing::debug!(lang, "{why}");
            folder.compile_error = Some(why);
            Ok(Arc::new(folder))
        }
        Ok(Some(build)) => {
            let why = match (&build.status, &build.kept) {
                (Err(fault), _) => fault.to_string(),
                (Ok(_), Err(e)) => format!("its build was not kept: {e}"),
                (Ok(_), Ok(())) => "no reason given".to_string(),
            };
            tracing::warn!(lang, "{who} did not build now ({why}); this game builds it at its start");
            Err(Ok(Uncached(Arc::new(folder))))
        }
        Err(e) => {
            tracing::warn!(lang, "building {who}: {e}; this game builds it at its start");
            Err(Ok(Uncached(Arc::new(folder))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PY: &str = "import sys\nfor line in sys.stdin:\n    print('up', flush=True)\n";

    #[tokio::test]
    async fn a_program_is_written_once_and_the_oldest_goes_when_no_game_holds_it() {
        let builds = tokio::sync::Mutex::new(Builds::new());
        let first = Builds::folder(&builds, "carrots", "python", PY, "first").await.unwrap();
        let again = Builds::folder(&builds, "carrots", "python", PY, "first").await.unwrap();
        assert!(Arc::ptr_eq(&first, &again), "one folder per program");
        assert!(first.path().join("bot.py").is_file());
        // Another game or language is another program.
        let other = Builds::folder(&builds, "multisnake", "python", PY, "other").await.unwrap();
        assert!(!Arc::ptr_eq(&first, &other));
        drop((again, other));
        // BUILDS_KEPT_MAX newer programs push the first one out; the game
        // that holds it keeps its folder until it lets go.
        for i in 0..BUILDS_KEPT_MAX {
            let source = format!("{PY}# version {i}\n");
            Builds::folder(&builds, "carrots", "python", &source, "newer").await.unwrap();
        }
        let path = first.path().to_path_buf();
        assert!(path.is_dir(), "held by a game");
        drop(first);
        assert!(!path.exists(), "gone once no game holds it");
        let back = Builds::folder(&builds, "carrots", "python", PY, "first").await.unwrap();
        assert_ne!(back.path(), path, "written again");
        // Dropping the cache removes every folder it made.
        let root = back.path().parent().unwrap().to_path_buf();
        drop(back);
        drop(builds);
        assert!(!root.exists());
    }
}
