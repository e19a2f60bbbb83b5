//! Programs built once per process: a C or Java program (a worker's queued
//! game's saved program, a source-file bot of `play` or `tournament`) is
//! compiled in the sandbox the first time the process meets it, and every
//! later game of the same program starts from that build instead of
//! compiling again at each start. A ladder or a tournament plays each
//! program many times, and a Java build takes seconds while a duel
//! between fast bots takes less.
//!
//! A program is the same when its game, language and source are. The
//! worker keeps the latest [`BUILDS_KEPT_MAX`] programs, each in a folder
//! of its own under one working folder tagged as this runner's (removed
//! with the worker, or by the next runner if it is killed). A game holds
//! its programs' folders until it ends, so a folder that leaves the cache
//! meanwhile stays until then.

use snakepit_bots::source::SourceProgram;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Programs whose folders (sources and build) a worker keeps.
pub const BUILDS_KEPT_MAX: usize = 64;

/// The longest a build may take.
const BUILD_DEADLINE: Duration = Duration::from_secs(60);

/// The folder of one program: its source files and, when it compiled, its
/// build. Removed when the last game using it lets go.
#[derive(Debug)]
pub struct ProgramFolder {
    path: PathBuf,
}

impl ProgramFolder {
    /// Where the files are.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for ProgramFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// The programs a process has written and built, latest used last.
pub struct Builds {
    root: Option<tempfile::TempDir>,
    /// (game, language, source) and the folder, least recently used first.
    kept: Vec<((String, String, String), Arc<ProgramFolder>)>,
    made: u64,
}

/// The programs of this process's source-file bots (every game of a
/// tournament, on any of its threads).
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
    /// program in the log ("the saved program of ID", a file). The lock is held during a build, so the
    /// worker's games build one program at a time.
    pub async fn folder(
        this: &tokio::sync::Mutex<Builds>,
        game: &str,
        lang: &str,
        source: &str,
        who: &str,
    ) -> Result<Arc<ProgramFolder>, String> {
        let program = SourceProgram::new(game, lang, source)?;
        let mut builds = this.lock().await;
        let key = (game.to_string(), lang.to_string(), source.to_string());
        if let Some(at) = builds.kept.iter().position(|(k, _)| *k == key) {
            let entry = builds.kept.remove(at);
            let folder = entry.1.clone();
            builds.kept.push(entry);
            return Ok(folder);
        }
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
        std::fs::create_dir(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let folder = Arc::new(ProgramFolder { path });
        program.write(folder.path()).map_err(|e| format!("{}: {e}", folder.path().display()))?;
        let limits = snakepit_bots::stdio_match::MatchSettings::for_game(game).limits;
        match program.build(folder.path(), &limits, BUILD_DEADLINE).await {
            Ok(None) => {}
            Ok(Some(build)) if build.compiled() && build.kept.is_ok() => {
                tracing::info!(lang, "built {who} once; its games start from that build");
            }
            // The run line compiles at each start then, and the compiler's
            // messages go to the game's stderr log, as for any program.
            Ok(Some(build)) => {
                let why = match (&build.status, &build.kept) {
                    (Ok(reply), Ok(())) => format!("exit status {}", reply.line.trim()),
                    (Ok(_), Err(e)) => format!("not kept: {e}"),
                    (Err(fault), _) => fault.to_string(),
                };
                tracing::warn!(lang, "{who} did not build ({why}); it builds again at each start");
            }
            Err(e) => tracing::warn!(lang, "building {who}: {e}"),
        }
        builds.kept.push((key, folder.clone()));
        if builds.kept.len() > BUILDS_KEPT_MAX {
            builds.kept.remove(0);
        }
        Ok(folder)
    }
}
