//! Programs uploaded in the browser, run in the sandbox as a seat's bot.
//!
//! A player of a stdin/stdout arena saves a program on their page
//! (`POST /api/code`, authenticated with their secret code); it is stored
//! in the store and started at once, and again at every start of the server.
//! C and Java are compiled in the sandbox before they are saved: a program
//! that does not compile is refused (422) with the compiler's last lines,
//! and the program that plays stays.
//!
//! A C or Java program is built once, in the sandbox (at save, or by its
//! runner when it starts from the store), and its runner starts what that
//! build made for every game instead of compiling again.
//!
//! The program is never run by the room. Each saved program gets a runner
//! task that attaches to the player's room like a bot connection
//! ([`ConnKind::Code`]): the room hands it the tick's input in the game's
//! own text format ([`Outgoing::Ask`]) and, as the stdin/stdout arenas
//! wait for their bots, holds its next tick until the answer is in; the runner
//! starts a [`ProcessBot`] when needed (a fresh one for every game, and
//! after every fault), asks it within the arena's deadline
//! ([`MatchSettings::for_game`]: 5 s for CodeCarrots, 1 s otherwise, the
//! first move 10 s longer), reads the answer with the game's parser and
//! sends the move back ([`RoomInput::CodeAnswer`]). A fault (timeout,
//! crash, bad answer: [`SeatFault`], with the exact bytes) becomes the
//! arena's forfeit. The process's stderr, and every fault, go to the
//! player's own page ([`RoomInput::Stderr`]), never to spectators.
//!
//! Saving new code replaces the runner: the old process is killed. In
//! CodeCarrots the snake dies and respawns with the new program (the
//! arena's rule for new code); in a duel or Multisnake game the new program
//! takes over the snake at the next tick, from the position as it stands
//! (both formats give the whole state every tick).

use crate::app::{AppError, AppState, check_name};
use crate::build_queue::{Lane, Refusal, Turn};
use crate::arenas::{self, AnswerParser};
use crate::room::{CONN_QUEUE_LEN, ConnKind, Outgoing, PlayerRef, RoomInput};
use snakepit_store::{CodeRow, Player};
use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::Deserialize;
use snakepit_bots::process::{BotCommand, ProcessBot, StderrLines};
use snakepit_bots::source::{LANGUAGES, SourceProgram};
use snakepit_bots::stdio_match::{MatchSettings, SeatFault};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// The starter program of a game in a language: the random safe movers of
/// `starters/`.
pub fn starter(game: &str, lang: &str) -> Option<&'static str> {
    Some(match (game, lang) {
        ("carrots", "python") => include_str!("../../../starters/carrots/python/bot.py"),
        ("carrots", "javascript") => include_str!("../../../starters/carrots/js/bot.js"),
        ("duel", "python") => include_str!("../../../starters/duel/python/bot.py"),
        ("duel", "javascript") => include_str!("../../../starters/duel/js/bot.js"),
        ("multisnake", "python") => include_str!("../../../starters/multisnake/python/bot.py"),
        ("multisnake", "javascript") => include_str!("../../../starters/multisnake/js/bot.js"),
        ("carrots", "c") => include_str!("../../../starters/carrots/c/bot.c"),
        ("duel", "c") => include_str!("../../../starters/duel/c/bot.c"),
        ("multisnake", "c") => include_str!("../../../starters/multisnake/c/bot.c"),
        ("carrots", "java") => include_str!("../../../starters/carrots/java/Bot.java"),
        ("multisnake", "java") => include_str!("../../../starters/multisnake/java/Bot.java"),
        // A KingOfBots player knows KingOfBots' own sample bot, which runs
        // unmodified (see `snakepit_bots::source`).
        ("duel", "java") => {
            include_str!("../../../starters/duel/java-harness/seed/com/ilvxgee/botrunningsystem/utils/Bot.java")
        }
        _ => return None,
    })
}

/// The folder under which sources are written before each start copies
/// them into the bot's own folder.
fn work_root(st: &AppState) -> PathBuf {
    st.cfg.code.work_dir.clone().unwrap_or_else(|| std::env::temp_dir().join("snakepit-code"))
}

/// The files of a saved program, removed when its runner ends.
struct SourceFile {
    folder: PathBuf,
}

impl SourceFile {
    fn write(root: &Path, program: &SourceProgram) -> std::io::Result<SourceFile> {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        // Only the server reads contestants' code; each start copies it
        // into the bot's own folder. The folder is tagged as this server's,
        // so that the next one removes it if this one is killed.
        std::fs::DirBuilder::new().recursive(true).mode(0o700).create(root)?;
        std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o700))?;
        let folder = snakepit_bots::process::work_folder(Some(root))?.keep();
        let source = SourceFile { folder };
        program.write(&source.folder)?;
        Ok(source)
    }
}

impl Drop for SourceFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

/// Why a saved program did not start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartError {
    /// The player's room runs on another node of the cluster, at this URL:
    /// the program starts there (`POST /api/code/start` on that node).
    Elsewhere(String),
    /// A build of the player's program is running already; the program
    /// takes its seat when it is built.
    Building,
    /// Anything else, in words.
    Failed(String),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Elsewhere(url) => write!(f, "the player's room runs on {url}"),
            StartError::Building => f.write_str("a build of this program is running already; it starts once built"),
            StartError::Failed(why) => f.write_str(why),
        }
    }
}

impl From<String> for StartError {
    fn from(why: String) -> StartError {
        StartError::Failed(why)
    }
}

/// Starts (or restarts) a player's saved program in their room. Returns
/// the room and seat, or `None` for a C or Java program, which is built
/// first (once: every later game starts that build) and takes its seat
/// when built: the room plays on meanwhile.
pub async fn start(st: &Arc<AppState>, player: PlayerRef, row: &CodeRow) -> Result<Option<(String, usize)>, StartError> {
    start_built(st, player, row, None).await
}

/// Each player's latest start of their program: a start that another
/// overtook (a newer save, a move) neither builds nor takes the seat.
static STARTS: std::sync::Mutex<BTreeMap<String, u64>> = std::sync::Mutex::new(BTreeMap::new());

fn starts() -> std::sync::MutexGuard<'static, BTreeMap<String, u64>> {
    STARTS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Makes every start of the player's program that is still under way
/// stale, so that none takes a seat (the player was removed).
pub(crate) fn forget_starts(player_id: &str) {
    starts().remove(player_id);
}

/// Whether `start` is still the player's latest start.
fn is_latest(player_id: &str, start: u64) -> bool {
    starts().get(player_id) == Some(&start)
}

/// Held from the last look at [`STARTS`] until a runner has its seat, so
/// that a start another overtook never takes the seat after it.
static SEATING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// [`start`], with the program's files already written and built (by the
/// check at save) when `built` is given.
async fn start_built(
    st: &Arc<AppState>,
    player: PlayerRef,
    row: &CodeRow,
    built: Option<SourceFile>,
) -> Result<Option<(String, usize)>, StartError> {
    let parser = arenas::text_parser(&player.game)
        .ok_or_else(|| format!("{} does not run uploaded programs: carrots, duel and multisnake do", player.game))?;
    let program = SourceProgram::new(&player.game, &row.lang, &row.source)?;
    crate::sandbox_policy::check(&st.cfg)?;
    // In a cluster a program runs on the node that runs its room.
    match st.rooms.route_player(&player.id).await.map_err(|e| format!("finding the player's room: {e}"))? {
        crate::rooms::Route::Local => {}
        crate::rooms::Route::Remote(url) => return Err(StartError::Elsewhere(url)),
        crate::rooms::Route::Unavailable(why) => return Err(why.into()),
    }
    // Joined before this start counts, so that a refused one does not
    // make the running build's start stale. A start never replaces a save
    // that waits for its turn.
    let waiting = match (&built, &program.build_check_line) {
        (None, Some(_)) => Some(st.builds.enter_start(&player.id, Lane::Build).map_err(|_| StartError::Building)?),
        _ => None,
    };
    let this_start = {
        let mut starts = starts();
        let n = starts.entry(player.id.clone()).or_default();
        *n += 1;
        *n
    };
    let label = format!("{} ({})", row.name, row.lang);
    let source = match built {
        Some(source) => source,
        None => {
            let source = SourceFile::write(&work_root(st), &program).map_err(|e| format!("cannot write the program: {e}"))?;
            if program.build_check_line.is_some() {
                // Built before it takes its seat, so that the room does not
                // wait for the build's first move.
                let st = st.clone();
                tokio::spawn(async move {
                    let latest = || is_latest(&player.id, this_start);
                    // A save that came meanwhile builds instead of this start.
                    let Some(waiting) = waiting else { return };
                    let Ok(turn) = waiting.turn().await else { return };
                    let limits = build_limits(&st, &player.game);
                    // A failed build keeps nothing: the run line then builds
                    // at each start, and the compiler's messages reach the
                    // owner's pane.
                    // A removed player's build is stopped; nothing starts.
                    if unless_removed(&turn, build_in_sandbox(&st, &limits, &program, &source.folder, &latest)).await.is_none() {
                        return;
                    }
                    drop(turn);
                    let _seating = SEATING.lock().await;
                    if !latest() {
                        return;
                    }
                    let id = player.id.clone();
                    if let Err(e) = run_program(&st, player, program, parser, label, source).await {
                        tracing::warn!(player = %id, "a saved program did not start: {e}");
                    }
                });
                return Ok(None);
            }
            source
        }
    };
    let _seating = SEATING.lock().await;
    if !is_latest(&player.id, this_start) {
        return Err(StartError::Failed("a newer start of this program took its place".to_string()));
    }
    Ok(Some(run_program(st, player, program, parser, label, source).await?))
}

/// Seats a program's runner in the player's room and runs it.
async fn run_program(
    st: &Arc<AppState>,
    player: PlayerRef,
    program: SourceProgram,
    parser: AnswerParser,
    label: String,
    source: SourceFile,
) -> Result<(String, usize), String> {
    // A build takes a while: the player may have been removed meanwhile,
    // on any node.
    if st.store.player(&player.id).await.map_err(|e| format!("reading the player: {e}"))?.is_none() {
        return Err("the player was removed".to_string());
    }
    let conn_id = st.conn_id();
    let cmd = program.command(&source.folder);
    let (tx, rx) = mpsc::channel(CONN_QUEUE_LEN);
    let (room, seat) = st.rooms.attach(player.clone(), ConnKind::Code, conn_id, tx).await?;
    let runner = Runner {
        room: room.tx.clone(),
        player_id: player.id,
        conn_id,
        cmd,
        settings: st.cfg.program_settings(&player.game),
        parser,
        label,
        kept_build: program.built.map(|name| source.folder.join(name)),
    };
    tokio::spawn(runner.run(rx, source));
    Ok((room.name, seat))
}

/// Starts every saved program (at server start); a program that cannot
/// start is logged and skipped.
pub async fn start_saved(st: &Arc<AppState>) {
    start_saved_where(st, None).await;
}

/// Starts the saved programs of the players seated in `rooms`: in a
/// cluster, a room that comes to this node (its node died or handed it
/// over) brings its players' programs along.
pub async fn start_saved_in(st: &Arc<AppState>, rooms: &[String]) {
    start_saved_where(st, Some(rooms)).await;
}

async fn start_saved_where(st: &Arc<AppState>, rooms: Option<&[String]>) {
    let rows = match st.store.all_code().await {
        Ok(r) => r,
        Err(e) => {
            tracing::error!("reading saved programs: {e:?}");
            return;
        }
    };
    for row in rows {
        let Ok(Some(p)) = st.store.player(&row.player_id).await else { continue };
        if let Some(rooms) = rooms {
            match st.store.seat(&p.id).await {
                Ok(Some(room)) if rooms.contains(&room) => {}
                _ => continue,
            }
        }
        if let Err(e) = start(st, PlayerRef::from(p), &row).await {
            tracing::warn!(player = %row.player_id, "saved program not started: {e}");
        }
    }
}

struct Runner {
    room: mpsc::Sender<RoomInput>,
    player_id: String,
    conn_id: u64,
    cmd: BotCommand,
    settings: MatchSettings,
    parser: AnswerParser,
    label: String,
    /// Where the program's kept build is, for a compiled language.
    kept_build: Option<PathBuf>,
}

impl Runner {
    async fn run(self, mut rx: mpsc::Receiver<Outgoing>, _source: SourceFile) {
        let mut bot: Option<ProcessBot> = None;
        let mut game_no = None;
        self.stderr(vec![format!("-- {} saved; it starts at its next move", self.label)]).await;
        while let Some(out) = rx.recv().await {
            match out {
                Outgoing::Ask(ask) => {
                    let mut lines = Vec::new();
                    if game_no != Some(ask.game_no) || bot.as_ref().is_some_and(ProcessBot::is_gone) {
                        if let Some(mut old) = bot.take() {
                            push_stderr(&mut lines, old.take_stderr());
                        }
                        game_no = Some(ask.game_no);
                    }
                    let mut request = ask.input.clone();
                    let mut deadline = self.settings.move_deadline;
                    if bot.is_none() {
                        match ProcessBot::spawn(&self.cmd, &self.settings.limits) {
                            Ok(b) => {
                                let kept = self.kept_build.as_ref().is_some_and(|p| p.exists());
                                let how = if kept { ", from its build" } else { "" };
                                lines.push(format!("-- {} started (pid {}){how}", self.label, b.pid()));
                                bot = Some(b);
                                deadline = self.settings.first_move_deadline;
                                if let Some(pre) = &ask.preamble {
                                    request = format!("{pre}{request}");
                                }
                            }
                            Err(e) => {
                                let fault = SeatFault::Spawn(e.to_string());
                                lines.push(fault_line(&ask, &fault));
                                self.stderr(lines).await;
                                self.answer(Some(crate::games::Command::Forfeit), String::new(), format!("forfeit: {fault}")).await;
                                continue;
                            }
                        }
                    }
                    let Some(b) = bot.as_mut() else { continue };
                    // While an answer is awaited the room sends nothing but
                    // a close (new code, a kick, shutdown), which must not
                    // wait for the deadline.
                    let asked = tokio::select! {
                        asked = b.ask(&request, deadline) => asked,
                        _ = rx.recv() => break,
                    };
                    push_stderr(&mut lines, b.take_stderr());
                    let (command, text, note) = match asked {
                        Ok(reply) => match (self.parser)(reply.line.as_bytes()) {
                            Ok(command) => {
                                let note = format!("ok after {} ms", reply.elapsed.as_millis());
                                (command, reply.line, note)
                            }
                            Err(error) => {
                                let fault = SeatFault::Answer { error, elapsed: reply.elapsed };
                                lines.push(fault_line(&ask, &fault));
                                bot = None;
                                (Some(crate::games::Command::Forfeit), reply.line, format!("forfeit: {fault}"))
                            }
                        },
                        Err(e) => {
                            let fault = SeatFault::Bot(e);
                            lines.push(fault_line(&ask, &fault));
                            bot = None;
                            (Some(crate::games::Command::Forfeit), String::new(), format!("forfeit: {fault}"))
                        }
                    };
                    self.stderr(lines).await;
                    self.answer(command, text, note).await;
                }
                Outgoing::Idle => {
                    if let Some(mut b) = bot.take() {
                        let mut lines = Vec::new();
                        push_stderr(&mut lines, b.take_stderr());
                        lines.push(format!(
                            "-- {} ended: its snake has no move to make (it died, or the game is over); it starts again at the snake's next move",
                            self.label
                        ));
                        self.stderr(lines).await;
                    }
                }
                Outgoing::Close(_, why) => {
                    self.stderr(vec![format!("-- {} stopped: {why}", self.label)]).await;
                    break;
                }
                Outgoing::Text(_) | Outgoing::Board(..) => {}
            }
        }
        // Dropping the bot kills its process group and removes its folder;
        // dropping the source removes the saved copy.
    }

    async fn stderr(&self, lines: Vec<String>) {
        if !lines.is_empty() {
            let _ = self.room.send(RoomInput::Stderr { player_id: self.player_id.clone(), lines }).await;
        }
    }

    async fn answer(&self, command: Option<crate::games::Command>, text: String, note: String) {
        let input = RoomInput::CodeAnswer { player_id: self.player_id.clone(), conn_id: self.conn_id, command, text, note };
        let _ = self.room.send(input).await;
    }
}

/// A fault as the program's owner reads it among its stderr lines: the
/// tick, what happened, and the usual cause when it is a usual mistake.
/// In a room whose games end the tick counts from the start of its game,
/// as in the game's replay, so the game is named too: the room's own count
/// (the page's log) runs on across games.
fn fault_line(ask: &crate::games::ProcessAsk, fault: &SeatFault) -> String {
    let when = match ask.game_no {
        0 => format!("tick {}", ask.tick),
        game => format!("game {game}, tick {}", ask.tick),
    };
    match fault.hint() {
        Some(hint) => format!("fault: {when}: {fault}; {hint}"),
        None => format!("fault: {when}: {fault}"),
    }
}

fn push_stderr(lines: &mut Vec<String>, got: StderrLines) {
    lines.extend(got.lines);
    if got.dropped_lines > 0 {
        lines.push(format!("-- {} stderr lines dropped (too many in one move)", got.dropped_lines));
    }
}

/// The player with this id and secret code; 401 otherwise.
pub(crate) async fn player(st: &Arc<AppState>, user: &str, code: &str) -> Result<Player, AppError> {
    let unauthorized = || AppError::Client(StatusCode::UNAUTHORIZED, "wrong player id or code".to_string());
    if user.len() > 64 || code.len() > 64 {
        return Err(unauthorized());
    }
    st.store.authenticate(user, code).await?.ok_or_else(unauthorized)
}

/// The sandbox's limits for compiling or checking a program of `game`:
/// the game's, with the organiser's bounds on a build's CPU seconds and
/// memory (`code.build_cpu_seconds_max`, `code.build_memory_mib_max`).
fn build_limits(st: &AppState, game: &str) -> snakepit_bots::process::SandboxLimits {
    let mut limits = st.cfg.program_settings(game).limits;
    limits.cpu_seconds_max = Some(st.cfg.code.build_cpu_seconds_max);
    limits.address_space_bytes_max = Some(st.cfg.code.build_memory_mib_max << 20);
    limits
}

/// How long one build or check may take (`code.build_seconds_max`).
fn build_deadline(st: &AppState) -> Duration {
    Duration::from_secs(st.cfg.code.build_seconds_max)
}

/// The player's turn at a compiler (`Lane::Build`) or checker, or the
/// refusal as the player reads it: 503 with `Retry-After` when the queue
/// is full, 409 when a newer save of theirs took this one's place.
async fn queue_turn(st: &Arc<AppState>, player_id: &str, lane: Lane) -> Result<Turn, AppError> {
    // The request is answered before `limits.http_idle_ms` would cut it,
    // with the build's own time left.
    let idle_s = st.cfg.limits.http_idle_ms / 1000;
    let wait = Duration::from_secs(idle_s.saturating_sub(st.cfg.code.build_seconds_max + 10).max(10));
    let Ok(turn) = tokio::time::timeout(wait, st.builds.turn(player_id, lane)).await else {
        let after_s = st.builds.retry_after_s(lane);
        let why = format!(
            "not saved: it waited {} s for its turn, the longest a save waits here, behind other players' programs; save again in about {after_s} s",
            wait.as_secs()
        );
        return Err(AppError::Retry(StatusCode::SERVICE_UNAVAILABLE, why, after_s));
    };
    turn.map_err(|refusal| match refusal {
        Refusal::Full { retry_after_s, .. } | Refusal::Busy { retry_after_s } => {
            AppError::Retry(StatusCode::SERVICE_UNAVAILABLE, format!("not saved: {refusal}"), retry_after_s)
        }
        Refusal::Replaced => AppError::Client(StatusCode::CONFLICT, format!("not saved: {refusal}")),
        Refusal::Removed => removed(),
    })
}

/// The answer to a save whose player the organiser removed meanwhile.
fn removed() -> AppError {
    AppError::Client(StatusCode::GONE, format!("not saved: {}", Refusal::Removed))
}

/// `work`, done in `turn`, or `None` when the organiser removes the player
/// first: `work` is then dropped, which kills the build it runs.
async fn unless_removed<T>(turn: &Turn, work: impl std::future::Future<Output = T>) -> Option<T> {
    tokio::select! {
        done = work => Some(done),
        () = turn.removed() => None,
    }
}

/// Compiler lines quoted in a refusal, the last ones.
const BUILD_ERROR_LINES_MAX: usize = 40;

/// Compiles a C or Java program in the sandbox before it is saved, so that
/// a program that does not compile is refused with the compiler's words
/// and the one that plays stays. Returns the program's files with the
/// build beside them, which the new runner starts from; other languages
/// pass with nothing built.
async fn build_check(st: &Arc<AppState>, player_id: &str, game: &str, program: &SourceProgram) -> Result<Option<SourceFile>, AppError> {
    if program.build_check_line.is_none() && program.syntax_check_line.is_some() {
        return syntax_check(st, player_id, game, program).await.map(|()| None);
    }
    if program.build_check_line.is_none() {
        return Ok(None);
    }
    let failed = |what: String| AppError::Server(anyhow::anyhow!("compiling a saved program: {what}"));
    let turn = queue_turn(st, player_id, Lane::Build).await?;
    let source = SourceFile::write(&work_root(st), program).map_err(|e| failed(e.to_string()))?;
    let limits = build_limits(st, game);
    let build = unless_removed(&turn, build_in_sandbox(st, &limits, program, &source.folder, || true)).await.ok_or_else(removed)?;
    drop(turn);
    let build = build.map_err(failed)?;
    let (asked, stderr) = (build.status, build.stderr);
    let quoted = || {
        let skip = stderr.lines.len().saturating_sub(BUILD_ERROR_LINES_MAX);
        stderr.lines[skip..].join("\n")
    };
    let refused = |why: String| {
        AppError::Client(StatusCode::UNPROCESSABLE_ENTITY, format!("not saved: {why}; the program that plays is unchanged\n{}", quoted()))
    };
    match asked {
        Ok(reply) if reply.line.trim() == "0" => Ok(Some(source)),
        Ok(reply) => Err(refused(format!("it does not compile (exit status {})", reply.line.trim()))),
        Err(fault) => Err(refused(format!("compiling failed: {fault}"))),
    }
}

/// Checks in the sandbox that a Python or JavaScript program parses before
/// it is saved: one that does not is refused with the interpreter's words,
/// and the one that plays stays.
async fn syntax_check(st: &Arc<AppState>, player_id: &str, game: &str, program: &SourceProgram) -> Result<(), AppError> {
    let failed = |what: String| AppError::Server(anyhow::anyhow!("checking a saved program: {what}"));
    let turn = queue_turn(st, player_id, Lane::Check).await?;
    let source = SourceFile::write(&work_root(st), program).map_err(|e| failed(e.to_string()))?;
    let limits = build_limits(st, game);
    let check = unless_removed(&turn, async {
        // The process-wide bound, shared with every server in it.
        let _place = snakepit_bots::source::CHECKS_AT_ONCE.acquire().await.map_err(|e| failed(e.to_string()))?;
        program.check_syntax(&source.folder, &limits, build_deadline(st)).await.map_err(|e| failed(e.to_string()))
    })
    .await
    .ok_or_else(removed)??;
    drop(turn);
    let Some(check) = check else { return Ok(()) };
    let quoted = || {
        let skip = check.stderr.lines.len().saturating_sub(BUILD_ERROR_LINES_MAX);
        check.stderr.lines[skip..].join("\n")
    };
    let refused = |why: String| {
        AppError::Client(StatusCode::UNPROCESSABLE_ENTITY, format!("not saved: {why}; the program that plays is unchanged\n{}", quoted()))
    };
    match &check.status {
        Ok(reply) if reply.line.trim() == "0" => Ok(()),
        Ok(reply) => Err(refused(format!("it does not parse (exit status {})", reply.line.trim()))),
        // The checker only reads the program: a checker that fails is the
        // server's trouble, not the program's. Its fault is named, so that
        // a checker that keeps failing can be reported as it is.
        Err(fault) => {
            tracing::warn!("a syntax check failed: {fault}");
            Err(AppError::Client(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("not saved: the program could not be checked just now (the checker: {fault}); try again\n{}", quoted()),
            ))
        }
    }
}

/// Builds a program in the sandbox from the files in `folder` and keeps
/// what the build made there ([`SourceProgram::build`]), within a place of
/// [`snakepit_bots::source::BUILDS_AT_ONCE`] (which queued games share),
/// while the caller holds the player's turn; skipped when `wanted` says,
/// once a place is free, that the build is no longer needed.
async fn build_in_sandbox(
    st: &AppState,
    limits: &snakepit_bots::process::SandboxLimits,
    program: &SourceProgram,
    folder: &Path,
    wanted: impl Fn() -> bool,
) -> Result<snakepit_bots::source::Build, String> {
    let _place = snakepit_bots::source::BUILDS_AT_ONCE.acquire().await.map_err(|e| e.to_string())?;
    if !wanted() {
        return Err("no longer needed".to_string());
    }
    let build = program.build(folder, limits, build_deadline(st)).await.map_err(|e| e.to_string())?;
    let build = build.ok_or_else(|| "nothing to build".to_string())?;
    if let (true, Err(e)) = (build.compiled(), &build.kept) {
        tracing::warn!("a build is not kept, the program builds at each start: {e}");
    }
    Ok(build)
}

/// `GET /api/code?user=ID&code=CODE`: the player's saved program (or the
/// starter of their game), and the languages.
pub async fn get_code(State(st): State<Arc<AppState>>, Query(q): Query<BTreeMap<String, String>>) -> Result<impl IntoResponse, AppError> {
    let empty = String::new();
    let p = player(&st, q.get("user").unwrap_or(&empty), q.get("code").unwrap_or(&empty)).await?;
    let saved = st.store.code(&p.id).await?;
    let langs: Vec<_> = LANGUAGES.iter().map(|l| serde_json::json!({ "key": l.key, "label": l.label })).collect();
    let starters: BTreeMap<&str, &str> = LANGUAGES.iter().filter_map(|l| Some((l.key, starter(&p.game, l.key)?))).collect();
    Ok(Json(serde_json::json!({
        "game": p.game,
        "runs_code": arenas::text_parser(&p.game).is_some(),
        "saved": saved.map(|c| serde_json::json!({ "lang": c.lang, "name": c.name, "source": c.source })),
        "langs": langs,
        "starters": starters,
        "source_bytes_max": st.cfg.code.source_bytes_max,
        "programs_refused": crate::sandbox_policy::check(&st.cfg).err(),
        "build": st.builds.standing(&p.id),
    })))
}

/// The body of `POST /api/code`.
#[derive(Deserialize)]
pub struct Upload {
    /// Player id.
    pub user: String,
    /// Secret code.
    pub code: String,
    /// Language key.
    pub lang: String,
    /// A name for this version.
    pub name: String,
    /// The program.
    pub source: String,
}

/// `POST /api/code`: saves the player's program and (re)starts it. In a
/// cluster, a player whose room runs on another node is redirected there
/// (307 keeps the method and body).
pub async fn post_code(
    State(st): State<Arc<AppState>>,
    uri: axum::http::Uri,
    crate::app::JsonBody(u): crate::app::JsonBody<Upload>,
) -> Result<impl IntoResponse, AppError> {
    let p = player(&st, &u.user, &u.code).await?;
    crate::app::follow(st.rooms.route_player(&p.id).await?, &uri)?;
    let bad = |m: String| AppError::Client(StatusCode::BAD_REQUEST, m);
    if arenas::text_parser(&p.game).is_none() {
        return Err(bad(format!("{} players connect a bot; uploaded programs play carrots, duel and multisnake", p.game)));
    }
    let name = check_name(&u.name)?;
    let max = st.cfg.code.source_bytes_max;
    if u.source.trim().is_empty() || u.source.len() > max || u.source.contains('\0') {
        return Err(bad(format!("a program is 1 to {max} bytes of text")));
    }
    // The language known, and a Java program with a class to run.
    let program = SourceProgram::new(&p.game, &u.lang, &u.source).map_err(bad)?;
    crate::sandbox_policy::check(&st.cfg).map_err(|why| AppError::Client(StatusCode::FORBIDDEN, format!("not saved: {why}")))?;
    // Waits for the player's turn at a compiler: one build at a time per
    // player, players in turn (`build_queue`).
    let built = build_check(&st, &p.id, &p.game, &program).await?;
    // A player the organiser removed while their program was built: the
    // build is dropped, not saved for a player who is gone.
    if st.store.player(&p.id).await?.is_none() {
        return Err(AppError::Client(StatusCode::GONE, format!("not saved: {}", Refusal::Removed)));
    }
    let row = CodeRow { player_id: p.id.clone(), lang: u.lang, name, source: u.source };
    st.store.save_code(&row).await?;
    let (room, seat) = start_built(&st, PlayerRef::from(p), &row, built)
        .await
        .and_then(|started| started.ok_or_else(|| StartError::Failed("it is being built".to_string())))
        .map_err(|e| AppError::Client(StatusCode::CONFLICT, format!("saved, but not started: {e}")))?;
    Ok(Json(serde_json::json!({ "saved": true, "room": room, "seat": seat })))
}

/// The body of `POST /api/code/start`.
#[derive(Deserialize)]
pub struct Credentials {
    /// Player id.
    pub user: String,
    /// Secret code.
    pub code: String,
}

/// `POST /api/code/start`: starts the player's saved program again in
/// their room, as saving it again would. 200 with the room and seat, 202
/// when a C or Java program is built first (it takes its seat when
/// built), 404 without a saved program, 409 when it cannot start. In a
/// cluster the request goes to the node that runs the player's room: the
/// node that moved a player to a room of another node asks this of it.
pub async fn post_start(
    State(st): State<Arc<AppState>>,
    uri: axum::http::Uri,
    crate::app::JsonBody(c): crate::app::JsonBody<Credentials>,
) -> Result<axum::response::Response, AppError> {
    let p = player(&st, &c.user, &c.code).await?;
    if arenas::text_parser(&p.game).is_none() {
        let why = format!("{} players connect a bot; uploaded programs play carrots, duel and multisnake", p.game);
        return Err(AppError::Client(StatusCode::BAD_REQUEST, why));
    }
    crate::app::follow(st.rooms.route_player(&p.id).await?, &uri)?;
    let Some(row) = st.store.code(&p.id).await? else {
        return Err(AppError::Client(StatusCode::NOT_FOUND, "no saved program".into()));
    };
    let id = p.id.clone();
    match start(&st, PlayerRef::from(p), &row).await {
        Ok(Some((room, seat))) => Ok(Json(serde_json::json!({ "room": room, "seat": seat })).into_response()),
        Ok(None) => Ok((StatusCode::ACCEPTED, Json(serde_json::json!({ "building": true })) ).into_response()),
        Err(e @ StartError::Building) => {
            let after_s = st.builds.standing(&id).map_or(1, |s| s.expected_s.max(1));
            Err(AppError::Retry(StatusCode::TOO_MANY_REQUESTS, format!("not started again: {e}"), after_s))
        }
        Err(e) => Err(AppError::Client(StatusCode::CONFLICT, format!("not started: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queued_games_run_every_language_a_program_is_saved_in() {
        let keys: Vec<&str> = LANGUAGES.iter().map(|l| l.key).collect();
        assert_eq!(keys, snakepit_store::spec::QUEUED_LANGS);
    }

    #[test]
    fn every_starter_is_accepted_in_its_language() {
        for game in ["carrots", "duel", "multisnake"] {
            for lang in LANGUAGES {
                let source = starter(game, lang.key).unwrap_or_else(|| panic!("a {} starter for {game}", lang.key));
                SourceProgram::new(game, lang.key, source).unwrap_or_else(|e| panic!("{game} {}: {e}", lang.key));
            }
        }
    }
}
