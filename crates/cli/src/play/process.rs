//! Process bots at `play`, in any game: the seats whose `--bot` is a
//! command line, run in the sandbox through [`StdioSeats`], with what
//! `play` does around them.
//!
//! A process bot is any `--bot` that is not `builtin:` or a URL: a command
//! line such as `python3 bot.py` or `./a.out`, whose files are copied into
//! the bot's own folder ([`BotCommand::from_command_line`]), with the whole
//! folder of the first when it is small ([`BOT_FOLDER_ENTRIES_MAX`],
//! [`BOT_FOLDER_BYTES_MAX`]), so that a bot of several files finds its
//! modules and data; a bigger folder gets one warning line. It speaks the
//! game's own text format, or the JSON-lines protocol with a `json:` prefix
//! (`snakepit_protocol::stdio`). The process side is [`StdioSeats`]: the
//! arena's deadlines ([`MatchSettings::for_game`]: 5 s per move and SIGSTOP
//! between moves for carrots, 1 s elsewhere, the first move 10 s longer)
//! and the arena's rule for a bot that fails (the game's forfeit action).
//! Every fault is printed on stderr with the exact bytes and the reason,
//! and with `--bot-stderr` so is what the bots write on stderr (the user
//! running `play` owns every bot).
//!
//! With `--replay FILE`, what the bots wrote on stderr and every fault go
//! to `FILE.stderr.jsonl` too, one line per seat and tick that has any:
//! `{"dropped":0,"fault":"...","seat":1,"stderr":["..."],"t":3}` (keys
//! sorted; `fault` is null when the seat answered). The replay itself holds
//! only what re-simulation needs (and is public; the stderr log is for the
//! bots' owners).
//!
//! A `--bot` that is just a source file (`Bot.java`, `bot.c`, or a `.py` or
//! `.js` file that is not executable) runs as the server runs a program
//! saved in the browser ([`SourceProgram`]): compiled in the sandbox at
//! start, and a KingOfBots `Supplier<Integer>` class in a duel under its
//! harness, so `play --game duel --bot Bot.java` plays the very file a
//! KingOfBots contestant uploads.
//!
//! Every game's table holds one [`ProcessSeats`] next to its own players
//! (built-in bots, HTTP snakes) and calls it from the same `Table` hooks:
//! [`decide`](ProcessSeats::decide) in `actions`, [`observe`](ProcessSeats::observe)
//! after the step, [`stop`](ProcessSeats::stop) at the end.

use super::{GameFlags, GameKind, RunOptions};
use crate::bot_spec::BotSpec;
use crate::exit::BadInput;
use snakepit_bots::process::BotCommand;
use snakepit_bots::source::SourceProgram;
use snakepit_bots::stdio_match::{MatchSettings, Seat, SeatFault, SeatOutcome, SeatTick, StdioSeats};
use snakepit_protocol::stdio::{StdioGame, Wire};
use std::fmt::Write;
use std::path::Path;
use std::time::Duration;

/// The process bots of one game, and their faults and stderr.
pub(super) struct ProcessSeats {
    /// The seats, when any is a process bot; when none is, nothing is
    /// asked, and nothing of a sandbox is made (a tournament of built-in
    /// snakes sets up a table a game).
    seats: Option<StdioSeats>,
    /// Number of seats, process or not.
    count: usize,
    /// The seats' labels, when any is a process bot.
    labels: Vec<String>,
    /// The seat reports of the tick being played, kept for `observe`.
    last: Vec<SeatTick>,
    faults: Vec<u32>,
    echo_faults: bool,
    echo_bot_stderr: bool,
    /// Whether fault lines are kept for [`take_fault_lines`](Self::take_fault_lines)
    /// (`--watch`, which draws them under the board).
    keep_fault_lines: bool,
    /// The fault lines since the last `take_fault_lines`.
    fault_lines: Vec<String>,
    /// The owners' log: stderr and faults, one JSON line per seat and tick.
    log: String,
    /// Whether a bot could not start because its program file was busy
    /// (see [`is_busy_start`]).
    busy_start: bool,
    /// The folders of source-file bots, copied at every start.
    _sources: Vec<SourceBot>,
    /// The copies of bots' own folders taken at set-up, copied at every
    /// start.
    _snapshots: Vec<tempfile::TempDir>,
}

/// A `--bot` that names a source file, written (with what it needs, such
/// as the KingOfBots harness) into a folder of its own and, for C and Java,
/// compiled there once for every game of this process (see `builds`).
struct SourceBot {
    /// Only this user reads it (0700, an unpredictable name); held for
    /// the whole game.
    _folder: std::sync::Arc<crate::builds::ProgramFolder>,
    /// Runs the program from the folder.
    command: BotCommand,
}

/// Entries (files, folders, links) of the folder of a process bot's first
/// file at most for the folder to be copied whole (see
/// [`BotCommand::copy_folder_of_first_file`]): a bot's own folder, not a
/// project's or a home directory.
pub(crate) const BOT_FOLDER_ENTRIES_MAX: usize = 256;

/// Bytes of files of that folder at most: weights and tables, well within
/// the 64 MiB the sandbox gives a bot's folder, and copied again at every
/// start of the bot.
pub(crate) const BOT_FOLDER_BYTES_MAX: u64 = 16 * 1024 * 1024;

/// The command lines of every process bot of this run: `play`'s, or all of
/// a tournament's entrants (registered at its set-up), so that a folder
/// holding more than one of their programs is never copied whole into any
/// of their folders: each would read the others' code.
static RUN_BOTS: std::sync::Mutex<std::collections::BTreeSet<String>> = std::sync::Mutex::new(std::collections::BTreeSet::new());

/// What this run writes (a tournament's `--out`, `play`'s replay and its
/// stderr log), by real path: never copied into a bot's folder, where a bot
/// run from its own folder would otherwise find the run's growing results
/// at every start.
static RUN_OUTPUTS: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Registers `path` (a file or folder this run writes, made or not yet) as
/// one of [`RUN_OUTPUTS`].
pub(crate) fn register_run_output(path: &Path) {
    let real = path.canonicalize().ok().or_else(|| {
        // Not made yet: its folder's real path and its name.
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        Some(parent.canonicalize().ok()?.join(path.file_name()?))
    });
    if let Some(real) = real.or_else(|| std::path::absolute(path).ok()) {
        let mut outputs = RUN_OUTPUTS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if !outputs.contains(&real) {
            outputs.push(real);
        }
    }
}

/// Registers the process bots of `bots` as this run's (see [`RUN_BOTS`]).
pub(crate) fn register_run_bots(bots: &[BotSpec]) {
    let mut run = RUN_BOTS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    for spec in bots {
        if let BotSpec::Process { line, .. } = spec {
            run.insert(line.clone());
        }
    }
}

/// Whether another program of this run has its first file in the folder
/// of `command`'s first file. The same program in several seats (with
/// other arguments, say) is one entrant's, and its folder is not shared.
fn folder_is_shared(command: &BotCommand, system_paths: &[std::path::PathBuf]) -> bool {
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let (Some(file), Some(folder)) = (command.first_file(), command.first_file_folder()) else { return false };
    let (file, folder) = (canonical(file), canonical(&folder));
    let run = RUN_BOTS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    run.iter().filter_map(|other| BotCommand::from_command_line(other, system_paths).ok()).any(|other| {
        other.first_file().map(canonical).is_some_and(|f| f != file)
            && other.first_file_folder().is_some_and(|f| canonical(&f) == folder)
    })
}

/// Prints `line` on stderr unless this process printed it already: a
/// tournament sets up every game with the same bots.
fn warn_once(line: String) {
    static PRINTED: std::sync::Mutex<std::collections::BTreeSet<String>> = std::sync::Mutex::new(std::collections::BTreeSet::new());
    let mut printed = PRINTED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if !printed.contains(&line) {
        eprintln!("{line}");
        printed.insert(line);
    }
}

/// Refuses a source file of a language `play` does not build, given as
/// the program (`--bot bot.rs`), before the game and with how to build it:
/// it would fail at the first tick with only "Permission denied". Other
/// files that cannot be executed are an entrant's fault like a crash (a
/// tournament plays on without it), with a hint in the fault (see
/// [`fault_text`]).
fn refuse_unrunnable(line: &str, program: &str) -> anyhow::Result<()> {
    let path = Path::new(program);
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    // The program built next to its source, as the hint builds it.
    let out = program.strip_suffix(&format!(".{ext}")).unwrap_or("bot");
    let run = if out.contains('/') { out.to_string() } else { format!("./{out}") };
    let build = match ext {
        "rs" => Some(format!("rustc -O -o {out} {program} (or cargo build --release for a Cargo project)")),
        "go" => Some(format!("go build -o {out} {program}")),
        "cpp" | "cc" | "cxx" => Some(format!("g++ -O2 -o {out} {program}")),
        _ => None,
    };
    if let Some(build) = build
        && path.is_file()
    {
        return Err(BadInput(format!(
            "--bot {line:?}: {program} is a source file, which play does not build (it builds .c and .java files); \
             build it first: {build}, then --bot {run}"
        ))
        .into());
    }
    Ok(())
}

/// Whether the file at `path` starts with `#!`.
fn starts_with_shebang(path: &Path) -> bool {
    use std::io::Read;
    let mut first = [0u8; 2];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut first)).is_ok() && &first == b"#!"
}

/// Source files read at most, as the server's uploads are bounded too.
const SOURCE_BYTES_MAX: u64 = 1024 * 1024;

impl SourceBot {
    /// The source bot `line` names, if it is one word naming a source file
    /// (`.java`, `.c`, or a `.py` or `.js` that is not an executable with a
    /// `#!` line, which runs itself).
    fn from_line(game: &str, line: &str) -> anyhow::Result<Option<SourceBot>> {
        use std::os::unix::fs::PermissionsExt;
        let word = line.trim();
        let path = Path::new(word);
        let ext = match path.extension().and_then(|e| e.to_str()) {
            _ if word.contains(char::is_whitespace) => return Ok(None),
            Some(ext @ ("java" | "c" | "py" | "js")) => ext,
            _ => return Ok(None),
        };
        let bad = |why: String| BadInput(format!("--bot {line:?}: {why}"));
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            // A script that is not there is the other branch's to report.
            Err(_) if matches!(ext, "py" | "js") => return Ok(None),
            Err(e) => return Err(bad(format!("{e} (paths are relative to the folder snakepit runs in)")).into()),
        };
        let lang = match ext {
            "java" => "java",
            "c" => "c",
            // An executable script runs itself by its `#!` line; without
            // one, the kernel would hand it to /bin/sh.
            _ if meta.permissions().mode() & 0o111 != 0 && starts_with_shebang(path) => return Ok(None),
            "py" => "python",
            _ => "javascript",
        };
        if !meta.is_file() || meta.len() > SOURCE_BYTES_MAX {
            return Err(bad(format!("a source file of at most {SOURCE_BYTES_MAX} bytes")).into());
        }
        let source = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
        let program = SourceProgram::new(game, lang, &source).map_err(bad)?;
        // In a folder tagged as this runner's (removed by the next run if
        // this one is killed), built once if it is C or Java.
        let folder = crate::builds::Builds::shared_folder_blocking(game, lang, &source, &path.display().to_string()).map_err(bad)?;
        // A program that does not compile would fail at every start, and
        // in the games that ask every seat every tick, build again at
        // each: stop before the game, with the compiler's words.
        if let Some(why) = folder.compile_error() {
            return Err(BadInput(format!("--bot {why}")).into());
        }
        let command = program.command(folder.path());
        Ok(Some(SourceBot { _folder: folder, command }))
    }
}

impl ProcessSeats {
    /// A process seat for every [`BotSpec::Process`] of `bots`, with the
    /// arena's settings for `kind`; the other seats are the caller's.
    pub(super) fn new(kind: GameKind, bots: &[BotSpec]) -> anyhow::Result<ProcessSeats> {
        ProcessSeats::with_settings(kind, bots, || MatchSettings::for_game(kind.name()))
    }

    /// [`new`](Self::new), or [`with_move_deadline`](Self::with_move_deadline)
    /// when `--timeout-ms` was given.
    pub(super) fn for_flags(flags: &GameFlags, bots: &[BotSpec]) -> anyhow::Result<ProcessSeats> {
        match flags.move_deadline()? {
            Some(deadline) => ProcessSeats::with_move_deadline(flags.game, bots, deadline),
            None => ProcessSeats::new(flags.game, bots),
        }
    }

    /// [`new`](Self::new), with the time per move a game sets itself
    /// (Battlesnake tells its snakes `game.timeout`, and holds process bots
    /// to it as well); the first move keeps its start-up allowance.
    pub(super) fn with_move_deadline(kind: GameKind, bots: &[BotSpec], move_deadline: Duration) -> anyhow::Result<ProcessSeats> {
        ProcessSeats::with_settings(kind, bots, || MatchSettings::for_game(kind.name()).with_move_deadline(move_deadline))
    }

    fn with_settings(kind: GameKind, bots: &[BotSpec], settings: impl FnOnce() -> MatchSettings) -> anyhow::Result<ProcessSeats> {
        if !bots.iter().any(|b| matches!(b, BotSpec::Process { .. })) {
            return Ok(ProcessSeats::from_parts(None, bots.len(), Vec::new(), Vec::new(), Vec::new()));
        }
        let settings = settings();
        register_run_bots(bots);
        let mut snapshots = Vec::new();
        let mut seats = Vec::with_capacity(bots.len());
        let mut sources = Vec::new();
        for spec in bots {
            let seat = match spec {
                BotSpec::Process { line, json } if let Some(source) = SourceBot::from_line(kind.name(), line)? => {
                    let wire = if *json { Wire::Json } else { Wire::Text };
                    let command = source.command.clone();
                    sources.push(source);
                    Some(Seat { label: spec.to_string(), command, wire })
                }
                BotSpec::Process { line, json } => {
                    // A program named by a path that is not there would fail
                    // at every tick of the games that ask every seat every
                    // tick (SnakeBattle, Hex): refuse it before the game.
                    let program = line.split_whitespace().next().unwrap_or("");
                    if program.contains('/') && !Path::new(program).exists() {
                        return Err(BadInput(format!(
                            "--bot {line:?}: {program} does not exist (paths are relative to the folder snakepit runs in)"
                        ))
                        .into());
                    }
                    // So would a script that is not there, and a program
                    // the sandbox's PATH does not have (a typo, or
                    // `json:builtin:random`).
                    // Words as the command line is split (a quoted shell
                    // line is one word, and not a script's name).
                    let words = BotCommand::words(line).unwrap_or_default();
                    for word in words.iter().skip(1) {
                        if looks_like_script(word) && !Path::new(word).exists() {
                            return Err(BadInput(format!(
                                "--bot {line:?}: {word} does not exist (paths are relative to the folder snakepit runs in)"
                            ))
                            .into());
                        }
                    }
                    if let Some(program) = words.first() {
                        refuse_unrunnable(line, program)?;
                    }
                    let mut command = BotCommand::from_command_line(line, &settings.limits.system_paths_read_only)
                        .map_err(|e| BadInput(format!("--bot {line:?}: {e}")))?;
                    let paths = &settings.limits.system_paths_read_only;
                    let copied = match command.first_file_folder() {
                        Some(folder) if folder_is_shared(&command, paths) => {
                            Err(format!("{} holds another bot's program too", folder.display()))
                        }
                        Some(_) => {
                            let snapshot = tempfile::Builder::new()
                                .prefix("snakepit-bot-folder-")
                                .tempdir()
                                .map_err(|e| anyhow::anyhow!("a folder for the copy of --bot {line:?}'s folder: {e}"))?;
                            let left_out = RUN_OUTPUTS.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
                            let copied =
                                command.copy_folder_of_first_file(BOT_FOLDER_ENTRIES_MAX, BOT_FOLDER_BYTES_MAX, snapshot.path(), &left_out);
                            snapshots.push(snapshot);
                            copied.map(drop)
                        }
                        None => Ok(()),
                    };
                    if let Err(why) = copied {
                        warn_once(format!(
                            "warning: --bot {line:?}: only the files named on the command line are copied into the bot's folder, \
                             not the folder of the first ({why}); a bot made of several files runs when they are in a folder of \
                             their own of at most {BOT_FOLDER_ENTRIES_MAX} files and {} MiB",
                            BOT_FOLDER_BYTES_MAX / (1024 * 1024)
                        ));
                    }
                    if !command.program_is_found() {
                        let name = command.program_display();
                        // `127.0.0.1:8000` was meant as a snake's address.
                        if name.contains(':') && !name.contains('/') && kind.name() == "battlesnake" {
                            return Err(BadInput(format!(
                                "--bot {line:?}: no program {name}; a Battlesnake's address is an URL: --bot http://{name}"
                            ))
                            .into());
                        }
                        return Err(BadInput(format!(
                            "--bot {line:?}: no program {name} in {} (the PATH bots run with; give a path like ./{name} for a program here)",
                            BotCommand::SANDBOX_PATH_DIRS
                        ))
                        .into());
                    }
                    let wire = if *json { Wire::Json } else { Wire::Text };
                    Some(Seat { label: spec.to_string(), command, wire })
                }
                BotSpec::Builtin(_) | BotSpec::Http(_) => None,
            };
            seats.push(seat);
        }
        let labels = bots.iter().map(ToString::to_string).collect();
        Ok(ProcessSeats::from_parts(Some(StdioSeats::new(seats, settings)), bots.len(), labels, sources, snapshots))
    }

    fn from_parts(
        seats: Option<StdioSeats>,
        count: usize,
        labels: Vec<String>,
        sources: Vec<SourceBot>,
        snapshots: Vec<tempfile::TempDir>,
    ) -> ProcessSeats {
        ProcessSeats {
            seats,
            count,
            labels,
            last: Vec::new(),
            faults: vec![0; count],
            echo_faults: false,
            echo_bot_stderr: false,
            keep_fault_lines: false,
            fault_lines: Vec::new(),
            log: String::new(),
            busy_start: false,
            _sources: sources,
            _snapshots: snapshots,
        }
    }

    /// Whether any seat is a process bot.
    pub(super) fn any(&self) -> bool {
        self.seats.is_some()
    }

    /// Takes the caller's wishes about printing.
    pub(super) fn echo(&mut self, options: &RunOptions) {
        self.echo_faults = options.echo_faults;
        self.echo_bot_stderr = options.echo_bot_stderr;
        self.keep_fault_lines = options.watch_ms.is_some();
    }

    /// The fault lines printed since the last call (kept only with
    /// `--watch`, whose next frame clears the screen they were printed on).
    pub(super) fn take_fault_lines(&mut self) -> Vec<String> {
        std::mem::take(&mut self.fault_lines)
    }

    /// The actions of the next tick of `game`, by seat: the process seats'
    /// answers or forfeits, the default action elsewhere.
    pub(super) async fn decide<G: StdioGame>(&mut self, game: &G) -> Vec<G::Action> {
        let Some(seats) = &mut self.seats else {
            return vec![G::Action::default(); self.count];
        };
        let (actions, reports) = seats.decide(game).await;
        self.last = reports;
        actions
    }

    /// [`decide`](Self::decide) with the text inputs the caller rendered
    /// (see [`StdioSeats::decide_with`]).
    pub(super) async fn decide_with<G: StdioGame>(&mut self, game: &G, text_inputs: Vec<Option<String>>) -> Vec<G::Action> {
        let Some(seats) = &mut self.seats else {
            return vec![G::Action::default(); self.count];
        };
        let (actions, reports) = seats.decide_with(game, text_inputs).await;
        self.last = reports;
        actions
    }

    /// What each seat did in the tick being played (empty before the first
    /// [`decide`](Self::decide) of a tick and for a game without process
    /// seats).
    pub(super) fn last(&self) -> &[SeatTick] {
        &self.last
    }

    /// After the step: kills what the end of the game ends, then counts,
    /// logs and prints the tick's faults and stderr.
    pub(super) fn observe<G: StdioGame>(&mut self, game: &G) {
        let (Some(seats), false) = (&mut self.seats, self.last.is_empty()) else {
            // A recorded tick of a fork, or no process seat: nobody was asked.
            return;
        };
        seats.after_step(game, &mut self.last);
        self.report(game.tick());
        self.last.clear();
    }

    /// Kills every process.
    pub(super) fn stop(&mut self) {
        if let Some(seats) = &mut self.seats {
            seats.stop();
        }
    }

    /// Each seat's forfeits so far.
    pub(super) fn faults(&self) -> &[u32] {
        &self.faults
    }

    /// Counts, logs and prints (as the options say) the fault of a seat
    /// that is not a process (an HTTP snake), so that every seat's faults
    /// are in one log, with the tick they belong to.
    pub(super) fn note_fault(&mut self, tick: u64, seat: usize, label: &str, fault: &str) {
        let text = format!("tick {tick}: seat {seat} ({label}) gave no usable move: {fault}");
        if self.echo_faults {
            eprintln!("{text}");
        }
        if self.keep_fault_lines {
            self.fault_lines.push(text);
        }
        let line = serde_json::json!({ "t": tick, "seat": seat, "stderr": [], "dropped": 0, "fault": fault });
        let _ = writeln!(self.log, "{line}");
    }

    /// The stderr log (see the module docs).
    pub(super) fn take_log(&mut self) -> String {
        std::mem::take(&mut self.log)
    }

    /// See `GameOutcome::busy_start`.
    pub(super) fn busy_start(&self) -> bool {
        self.busy_start
    }

    /// Counts and logs this tick's faults and stderr; prints them as the
    /// options say.
    fn report(&mut self, tick: u64) {
        for (seat, r) in self.last.iter().enumerate() {
            let fault = match &r.outcome {
                SeatOutcome::Failed(fault) => Some(fault_text(fault, &r.stderr.lines)),
                _ => None,
            };
            self.busy_start |= is_busy_start(&r.outcome);
            if let Some(fault) = &fault {
                self.faults[seat] += 1;
                let text = format!("tick {tick}: seat {seat} ({}) forfeits: {fault}", self.labels[seat]);
                if self.echo_faults {
                    // The stderr line quoted is the last of several, and
                    // the reader may not know they can see them all.
                    let more = if !self.echo_bot_stderr && !r.stderr.lines.is_empty() { " (--bot-stderr shows all it wrote)" } else { "" };
                    eprintln!("{text}{more}");
                }
                if self.keep_fault_lines {
                    self.fault_lines.push(text);
                }
            }
            if fault.is_some() || !r.stderr.lines.is_empty() || r.stderr.dropped_lines > 0 {
                let line = serde_json::json!({
                    "t": tick,
                    "seat": seat,
                    "stderr": r.stderr.lines,
                    "dropped": r.stderr.dropped_lines,
                    "fault": fault,
                });
                let _ = writeln!(self.log, "{line}");
            }
            if self.echo_bot_stderr {
                for line in &r.stderr.lines {
                    eprintln!("[seat {seat}] {line}");
                }
                if r.stderr.dropped_lines > 0 {
                    eprintln!("[seat {seat}] ({} stderr lines dropped)", r.stderr.dropped_lines);
                }
            }
        }
    }
}

/// Characters of a bot's last stderr line quoted in a fault, at most: the
/// line is there to name the error (a Python exception's last line, a
/// panic's message), and the log holds it whole.
const FAULT_STDERR_CHARS_MAX: usize = 160;

/// A seat's fault as `play` prints and logs it: the runner's reason, with
/// what helps its owner find the cause. A bot that ended or crashed usually
/// said why on stderr just before (a traceback's last line), so that line
/// is quoted, escaped and cut; a timeout with no byte at all is most often
/// an answer left in the bot's output buffer.
pub(super) fn fault_text(fault: &SeatFault, stderr: &[String]) -> String {
    let mut text = fault.to_string();
    if let Some(hint) = fault.hint() {
        let _ = write!(text, "; {hint}");
    }
    if let Some(last) = stderr.iter().rev().find(|l| !l.trim().is_empty()) {
        let last = last.trim_end();
        // Control characters only are escaped: a terminal escape must not
        // reach the screen, and quotes in an error message read better as
        // they are.
        let mut quoted = String::new();
        for c in last.chars().take(FAULT_STDERR_CHARS_MAX) {
            if c.is_control() { quoted.extend(c.escape_debug()) } else { quoted.push(c) }
        }
        if last.chars().count() > FAULT_STDERR_CHARS_MAX {
            quoted.push_str("...");
        }
        let _ = write!(text, "; its last stderr line: {quoted}");
    }
    text
}

/// Whether a seat failed because its program could not be run for being
/// open for writing ("text file busy", errno 26 on Linux). Every bot's
/// program is copied into its own folder before it runs; when several
/// threads of this process start bots at once (`tournament`), a child
/// forked by one thread inherits another thread's copy in progress and
/// holds it open until it execs or exits, and the run fails. Nothing the
/// bot did caused it, so such a game is played again.
fn is_busy_start(outcome: &SeatOutcome) -> bool {
    matches!(outcome, SeatOutcome::Failed(SeatFault::Spawn(why)) if why.contains("(os error 26)"))
}

/// Whether a word of a bot's command line names a script or a program's
/// file by its ending (`bot.py`, `Bot.jar`), so that its absence is a
/// mistake rather than an argument.
fn looks_like_script(word: &str) -> bool {
    const ENDINGS: &[&str] = &[".py", ".js", ".mjs", ".cjs", ".rb", ".pl", ".lua", ".sh", ".jar", ".php", ".ts"];
    !word.starts_with('-')
        && !word.contains(char::is_whitespace)
        && ENDINGS.iter().any(|e| word.len() > e.len() && word.ends_with(e))
}
