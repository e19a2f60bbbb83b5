//! `snakepit play`: one game between bots, as fast as they answer.
//!
//! [`play_game`] plays one game between bot specs and returns its result
//! ([`GameOutcome`]: scores, places, ticks, the replay's text, the stderr
//! log, the printed table) without printing anything unless asked; `play`,
//! `tournament` and `replay --from-tick` ([`fork_game`]) all go through it.
//! The loop is the same for every game and lives here ([`drive`]): ask every
//! seat for its action, step the engine, record the replay, draw the board
//! with `--watch`, stop at `--ticks` or when the game ends by its own rules.
//! What differs between games sits behind [`Table`]: how the bots are
//! reached and what they are shown, how seats are placed, and the result
//! table. Adding a game is a [`GameKind`] variant, one arm in [`play_game`]
//! and [`fork_game`], and a module here that builds the game and its
//! `Table`.
//!
//! Built-in bots are function calls and there is no clock, so a game of
//! built-ins runs as fast as the rules and the bots compute. HTTP snakes are
//! asked concurrently on a single-threaded tokio runtime, each within the
//! game's timeout; process bots belong to the thread whose runtime started
//! them.

mod battlesnake;
mod hex;
mod process;
mod snakebattle;
mod stdio;

pub(crate) use process::{register_run_bots, register_run_output};

use crate::bot_spec::BotSpec;
use crate::exit::BadInput;
use snakepit_viewer::text::TerminalView;
use anyhow::Context;
use snakepit_bots::process::SandboxReport;
use snakepit_engine::battlesnake::{Action, Battlesnake, Event as BattlesnakeEvent};
use snakepit_engine::carrots::Carrots;
use snakepit_engine::duel::Duel;
use snakepit_engine::hex::Hex;
use snakepit_engine::multisnake::Multisnake;
use snakepit_engine::snakebattle::SnakeBattle;
use snakepit_protocol::replay::{Divergence, Replay, ReplayLog, ReplayText, TickRecord};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The flags that make a game, apart from its players and seed; `play`,
/// `tournament` and `replay --from-tick` share them.
#[derive(Clone, Debug, clap::Args)]
pub struct GameFlags {
    /// The game to play
    #[arg(long, value_enum, default_value_t = GameKind::Snakebattle)]
    pub game: GameKind,
    /// Ticks to play at most, countdowns included; a game stops earlier
    /// when it is over [default: 1000; duel and multisnake: none, they end
    /// by their own rules (rounds_max, turns_max)]
    #[arg(long)]
    pub ticks: Option<u64>,
    /// The map, drawn in the game's glyphs [default: the built-in map]
    /// (snakebattle, hex, duel, multisnake); a duel map also in KingOfBots'
    /// 0/1 form (13 rows of 14, or the 182 characters of the input token's
    /// first field)
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// Rule profile whose defaults --set overrides: codebattle or codenjoy
    /// [default: codebattle] (snakebattle); seed or codenjoy [default:
    /// seed] (hex)
    #[arg(long)]
    pub profile: Option<String>,
    /// Ruleset: standard, solo, royale, wrapped, constrictor or
    /// wrapped_constrictor [default: standard] (battlesnake)
    #[arg(long)]
    pub ruleset: Option<String>,
    /// Board width [default: 11] (battlesnake; carrots: 120)
    #[arg(long)]
    pub width: Option<u32>,
    /// Board height [default: 11] (battlesnake; carrots: 80)
    #[arg(long)]
    pub height: Option<u32>,
    /// Time a bot has for each answer, in milliseconds; a program's first
    /// move gets 10 s more to start [default: battlesnake 500 (game.timeout,
    /// an HTTP snake's round trip included), carrots 5000, the other games
    /// 1000]
    #[arg(long, value_name = "MS")]
    pub timeout_ms: Option<u64>,
    /// Override one setting (repeatable), e.g. --set fury_ticks=10 or
    /// --set minimumFood=3
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = parse_key_value)]
    pub set: Vec<(String, String)>,
}

impl GameFlags {
    /// The tick at which a game still running stops: `--ticks`, or the
    /// game's own default.
    pub fn ticks_max(&self) -> u64 {
        self.ticks.unwrap_or(self.game.ticks_default())
    }

    /// The time per move `--timeout-ms` sets, if given; 0 is refused.
    pub fn move_deadline(&self) -> Result<Option<Duration>, BadInput> {
        match self.timeout_ms {
            Some(0) => Err(BadInput("--timeout-ms must be at least 1".to_string())),
            ms => Ok(ms.map(Duration::from_millis)),
        }
    }

    /// The defaults of every flag, for `game`.
    pub fn of(game: GameKind) -> GameFlags {
        GameFlags {
            game,
            ticks: None,
            map: None,
            profile: None,
            ruleset: None,
            width: None,
            height: None,
            timeout_ms: None,
            set: Vec::new(),
        }
    }
}

/// Flags of `snakepit play`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game and its rules.
    #[command(flatten)]
    pub game: GameFlags,
    /// A player, once per seat: builtin:NAME (built-in bots: random,
    /// greedy, and safe in carrots, duel and multisnake), for battlesnake
    /// the URL of a snake (http://HOST:PORT/PATH), and in every game a
    /// command line run in the sandbox ("python3 bot.py", ./a.out) reading
    /// the game's own message on stdin (the board= frame, the /move body,
    /// the arena's text) and answering its command; prefix json: for the
    /// JSON-lines protocol. The bot runs in a folder of its own holding a
    /// copy of the folder of the first file its command line names (bot.py
    /// with its modules and data) when that folder has at most 256 files
    /// and 16 MiB, else of the named files only. A source file alone runs
    /// as a program saved on the server would: a .c or .java file is
    /// compiled first (one that does not compile stops play), a .py or .js
    /// file without the executable bit runs under python3 or node
    #[arg(long = "bot", value_name = "SPEC", required = true)]
    pub bots: Vec<BotSpec>,
    /// Seed of the game and of the built-in bots [default: a random one,
    /// printed at the end]
    #[arg(long)]
    pub seed: Option<u64>,
    /// Draw the board in the terminal after every tick
    #[arg(long)]
    pub watch: bool,
    /// Pause after each drawn tick, in milliseconds (with --watch)
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub watch_ms: u64,
    /// Print what process bots write on stderr, prefixed by their seat
    #[arg(long)]
    pub bot_stderr: bool,
    /// Write the replay (JSON lines) to this file; with process bots, what
    /// they wrote on stderr goes to FILE.stderr.jsonl
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,
}

/// The games `play` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GameKind {
    /// Codenjoy SnakeBattle: five snakes, apples, stones, fury.
    Snakebattle,
    /// Battlesnake: the official rulesets and HTTP snakes.
    Battlesnake,
    /// Codenjoy Hex: territory capture by clone and jump moves.
    Hex,
    /// CodeCarrots snakes: one endless board, process bots reading it on
    /// stdin.
    Carrots,
    /// KingOfBots Snake: a two-player duel on a 13x14 map with walls.
    Duel,
    /// SOI Multisnake: 2, 4 or 8 snakes on a wrapping map.
    Multisnake,
}

impl GameKind {
    /// Ticks a game plays at most when `--ticks` is not given. The duel
    /// and Multisnake end by their own caps (`rounds_max`, `turns_max`),
    /// whose result (the longest snakes share the win) a shorter cut would
    /// replace with a tie of every survivor; the other games go on for
    /// ever, or may.
    pub fn ticks_default(self) -> u64 {
        match self {
            GameKind::Duel | GameKind::Multisnake => u64::MAX,
            _ => 1000,
        }
    }

    /// The name in replays and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Snakebattle => "snakebattle",
            GameKind::Battlesnake => "battlesnake",
            GameKind::Hex => "hex",
            GameKind::Carrots => "carrots",
            GameKind::Duel => "duel",
            GameKind::Multisnake => "multisnake",
        }
    }

    /// The game of a replay header's `game` name.
    pub fn from_name(name: &str) -> Option<GameKind> {
        use clap::ValueEnum;
        GameKind::value_variants().iter().copied().find(|k| k.name() == name)
    }
}

pub(crate) fn parse_key_value(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
        _ => Err(format!("{s:?} is not KEY=VALUE")),
    }
}

/// Plays the game and prints the result.
pub fn run(args: Args) -> anyhow::Result<()> {
    let seed = args.seed.unwrap_or_else(random_seed);
    if args.bots.iter().any(|b| matches!(b, BotSpec::Process { .. })) {
        // Say once which sandbox layers hold on this machine.
        eprint!("{}", SandboxReport::cached());
    }
    let options = RunOptions {
        watch_ms: args.watch.then_some(args.watch_ms),
        echo_faults: true,
        echo_bot_stderr: args.bot_stderr,
        labels: None,
        stop_on_interrupt: true,
        stop: None,
        forfeit_unjoined: false,
        no_summary: false,
    };
    catch_interrupts();
    // Refuse an unwritable replay path before the game, not after it.
    let files = match &args.replay {
        Some(path) => Some(ReplayFiles::create(path)?),
        None => None,
    };
    let outcome = match block_on(play_game(&args.game, &args.bots, seed, &options)) {
        Ok(outcome) => outcome,
        Err(e) => {
            // No game, no replay: do not leave an empty file behind.
            if let Some(files) = files {
                files.discard();
            }
            return Err(e);
        }
    };
    if let Some(files) = files {
        files.write(&outcome)?;
    }
    print_outcome(&outcome, args.replay.as_deref())?;
    if outcome.interrupted {
        eprintln!("interrupted after {}: the replay holds the ticks played", ticks_text(outcome.ticks));
        // The shell's code for a program ended by SIGINT.
        std::process::exit(130);
    }
    Ok(())
}

/// Set by the first SIGINT or SIGTERM during `play`.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn note_interrupt(_: libc::c_int) {
    // Only an atomic store: safe in a signal handler.
    INTERRUPTED.store(true, Ordering::Relaxed);
}

/// Makes the first SIGINT or SIGTERM end the game after the tick in
/// flight, so that its replay and result are kept; a second one ends the
/// program at once (the handler resets itself).
#[allow(unsafe_code)]
fn catch_interrupts() {
    use nix::sys::signal::{SaFlags, SigAction, SigHandler, SigSet, Signal, sigaction};
    let action = SigAction::new(SigHandler::Handler(note_interrupt), SaFlags::SA_RESETHAND | SaFlags::SA_RESTART, SigSet::empty());
    for signal in [Signal::SIGINT, Signal::SIGTERM] {
        // SAFETY: the handler only stores to an atomic.
        let _ = unsafe { sigaction(signal, &action) };
    }
}

/// Runs `future` on a runtime of its own on this thread, which then owns
/// the bot processes (see `snakepit_bots::process`).
pub(crate) fn block_on<T>(future: impl Future<Output = anyhow::Result<T>>) -> anyhow::Result<T> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(future)
}

/// Prints what `play` prints after a game.
pub(crate) fn print_outcome(outcome: &GameOutcome, replay: Option<&Path>) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}: {}, seed {}", outcome.game.name(), ticks_text(outcome.ticks), outcome.seed)?;
    if let Some(path) = replay {
        writeln!(out, "replay: {}", path.display())?;
    }
    write!(out, "{}", outcome.summary)?;
    Ok(())
}

/// `1 tick`, `2 ticks`.
pub(crate) fn ticks_text(ticks: u64) -> String {
    if ticks == 1 { "1 tick".to_string() } else { format!("{ticks} ticks") }
}

/// The replay file and its stderr log, created before the game so that a
/// path that cannot be written fails at once.
pub(crate) struct ReplayFiles {
    replay: (PathBuf, File),
    log: PathBuf,
}

impl ReplayFiles {
    /// Creates (truncates) `path`.
    pub(crate) fn create(path: &Path) -> anyhow::Result<ReplayFiles> {
        let file = File::create(path).map_err(|e| BadInput(format!("{}: cannot create the replay: {e}", path.display())))?;
        let log = stderr_log_path(path);
        process::register_run_output(path);
        process::register_run_output(&log);
        Ok(ReplayFiles { replay: (path.to_path_buf(), file), log })
    }

    /// Removes the (still empty) replay file.
    pub(crate) fn discard(self) {
        let (path, file) = self.replay;
        drop(file);
        let _ = std::fs::remove_file(path);
    }

    /// Writes the replay, and the stderr log next to it when there is one
    /// (an old log of another game is removed, so the two always match).
    pub(crate) fn write(self, outcome: &GameOutcome) -> anyhow::Result<()> {
        let (path, mut file) = self.replay;
        file.write_all(&outcome.replay.bytes())
            .and_then(|()| file.flush())
            .with_context(|| format!("{}: cannot write the replay", path.display()))?;
        if outcome.stderr_log.is_empty() {
            let _ = std::fs::remove_file(&self.log);
        } else {
            std::fs::write(&self.log, &outcome.stderr_log)
                .map_err(|e| BadInput(format!("{}: cannot write the stderr log: {e}", self.log.display())))?;
        }
        Ok(())
    }
}

/// `FILE.stderr.jsonl` for the replay `FILE`.
pub(crate) fn stderr_log_path(replay: &Path) -> PathBuf {
    let mut name = replay.as_os_str().to_owned();
    name.push(".stderr.jsonl");
    PathBuf::from(name)
}

/// A seed for a game nobody asked to reproduce. The CLI may use entropy;
/// the seed is printed and recorded, so the game can still be replayed.
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    std::collections::hash_map::RandomState::new().build_hasher().finish()
}

/// What a caller of [`play_game`] wants besides the result.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Draw the board on stdout after every tick, pausing this many
    /// milliseconds.
    pub watch_ms: Option<u64>,
    /// Print every forfeit on stderr as it happens.
    pub echo_faults: bool,
    /// Print what process bots write on stderr as it comes.
    pub echo_bot_stderr: bool,
    /// The players' names in the replay and the result, by seat
    /// [default: the bot specs as given].
    pub labels: Option<Vec<String>>,
    /// End the game after the tick in flight once SIGINT or SIGTERM came
    /// (`play` only; see `catch_interrupts`).
    pub stop_on_interrupt: bool,
    /// End the game after the tick in flight once this is set (a
    /// tournament that stops: its games block in their bots' answers, so
    /// dropping them would wait for the game's end).
    pub stop: Option<std::sync::Arc<AtomicBool>>,
    /// A snake that cannot join (an HTTP snake whose `GET /` fails) gives
    /// no move for the whole game, a fault in the stderr log, instead of
    /// stopping the game before it starts (`tournament`: one entrant's
    /// fault must not cost the others their games; `play` stops, so that
    /// whoever runs it hears of an unreachable snake before a game).
    pub forfeit_unjoined: bool,
    /// Leave [`GameOutcome::summary`] empty: a tournament prints its
    /// standings, not a table per game.
    pub no_summary: bool,
}

/// One finished (or cut) game, as [`play_game`] returns it.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// The game.
    pub game: GameKind,
    /// Its seed.
    pub seed: u64,
    /// Ticks played.
    pub ticks: u64,
    /// Each seat's score, by seat.
    pub scores: Vec<i64>,
    /// Each seat's place: 1 plus the number of seats that did strictly
    /// better, so seats that did equally well share a place.
    pub places: Vec<usize>,
    /// Ticks in which each seat forfeited (process bots) or gave no usable
    /// move (HTTP snakes).
    pub forfeits: Vec<u32>,
    /// The replay file's text, written when asked for.
    pub replay: ReplayOut,
    /// Cut short by SIGINT or SIGTERM.
    pub interrupted: bool,
    /// What process bots wrote on stderr, and their faults, as JSON lines
    /// (see `play/stdio.rs`); empty when there is none.
    pub stderr_log: String,
    /// The result table `play` prints, after its first line.
    pub summary: String,
    /// A process bot could not start because its program file was busy, a
    /// race between threads of this process starting bots at once (see
    /// `play/stdio.rs`): the game says nothing about the bots and is to be
    /// played again.
    pub busy_start: bool,
}

/// A game's replay as [`ReplayLog`] keeps it: its text is written when
/// asked for, so that a tournament's playing thread leaves that work to
/// the thread that packs its games.
#[derive(Clone)]
pub struct ReplayOut(std::sync::Arc<dyn ReplayText>);

impl ReplayOut {
    /// Appends the replay file's text to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        self.0.write_text(out);
    }

    /// The replay file's text.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_to(&mut out);
        out
    }

    /// The replay file's text, as a string.
    pub fn text(&self) -> String {
        String::from_utf8(self.bytes()).expect("a replay is JSON text")
    }
}

impl std::fmt::Debug for ReplayOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ReplayOut(..)")
    }
}

/// Plays one game between `bots` (one per seat) and returns its result,
/// printing nothing unless `options` ask for it. `play` and `tournament`
/// both go through here.
pub async fn play_game(flags: &GameFlags, bots: &[BotSpec], seed: u64, options: &RunOptions) -> anyhow::Result<GameOutcome> {
    let labels: Vec<String> = options.labels.clone().unwrap_or_else(|| bots.iter().map(ToString::to_string).collect());
    macro_rules! start {
        () => {
            Start { seed, labels, recorded: None, engine: String::new() }
        };
    }
    match flags.game {
        GameKind::Snakebattle => {
            let (game, table) = snakebattle::setup(flags, bots, seed)?;
            drive(flags.game, game, table, start!(), flags.ticks_max(), options).await
        }
        GameKind::Battlesnake => {
            let (game, table) = battlesnake::setup(flags, bots, seed)?;
            drive(flags.game, game, table, start!(), flags.ticks_max(), options).await
        }
        GameKind::Hex => {
            let (game, table) = hex::setup(flags, bots, seed)?;
            drive(flags.game, game, table, start!(), flags.ticks_max(), options).await
        }
        GameKind::Carrots => {
            let (game, table) = stdio::setup_carrots(flags, bots, seed)?;
            drive(flags.game, game, table, start!(), flags.ticks_max(), options).await
        }
        GameKind::Duel => {
            let (game, table) = stdio::setup_duel(flags, bots, seed)?;
            drive(flags.game, game, table, start!(), flags.ticks_max(), options).await
        }
        GameKind::Multisnake => {
            let (game, table) = stdio::setup_multisnake(flags, bots, seed)?;
            drive(flags.game, game, table, start!(), flags.ticks_max(), options).await
        }
    }
}

/// Builds the players of a game between `bots` without starting any, so
/// that a `--bot` the game cannot seat (a program that is not there, an
/// HTTP snake outside battlesnake, an unknown built-in) is refused before
/// a tournament plays its first game rather than at the first game it is in.
pub fn check_bots(flags: &GameFlags, bots: &[BotSpec]) -> anyhow::Result<()> {
    let seed = 0;
    match flags.game {
        GameKind::Snakebattle => snakebattle::setup(flags, bots, seed).map(drop),
        GameKind::Battlesnake => battlesnake::setup(flags, bots, seed).map(drop),
        GameKind::Hex => hex::setup(flags, bots, seed).map(drop),
        GameKind::Carrots => stdio::setup_carrots(flags, bots, seed).map(drop),
        GameKind::Duel => stdio::setup_duel(flags, bots, seed).map(drop),
        GameKind::Multisnake => stdio::setup_multisnake(flags, bots, seed).map(drop),
    }
}

/// A recorded game to continue: its ticks before `from_tick` are played
/// again exactly, then every seat is played by `bots`.
pub struct Fork<'a> {
    /// The replay file's text.
    pub text: &'a str,
    /// The first tick the bots play (1 plays the whole game anew).
    pub from_tick: u64,
    /// One player per seat.
    pub bots: &'a [BotSpec],
    /// Ticks to play at most, in all [default: as many as the recording
    /// when it was cut short, else 1000].
    pub ticks: Option<u64>,
    /// Flags for the players (the HTTP timeout).
    pub flags: &'a GameFlags,
}

/// Continues a recorded game (see [`Fork`]).
pub async fn fork_game(kind: GameKind, fork: &Fork<'_>, options: &RunOptions) -> anyhow::Result<GameOutcome> {
    match kind {
        GameKind::Snakebattle => {
            let (replay, start, ticks) = fork_start::<SnakeBattle>(fork)?;
            let table = snakebattle::table(fork.flags, fork.bots, start.seed)?;
            drive(kind, replay.start.clone(), table, start, ticks, options).await
        }
        GameKind::Battlesnake => {
            let (replay, start, ticks) = fork_start::<Battlesnake>(fork)?;
            let table = battlesnake::table(fork.flags, fork.bots, start.seed)?;
            drive(kind, replay.start.clone(), table, start, ticks, options).await
        }
        GameKind::Hex => {
            let (replay, start, ticks) = fork_start::<Hex>(fork)?;
            let table = hex::table(fork.flags, fork.bots, start.seed)?;
            drive(kind, replay.start.clone(), table, start, ticks, options).await
        }
        GameKind::Carrots => {
            let (replay, start, ticks) = fork_start::<Carrots>(fork)?;
            let table = stdio::StdioTable::new(fork.flags, fork.bots, start.seed)?;
            drive(kind, replay.start.clone(), table, start, ticks, options).await
        }
        GameKind::Duel => {
            let (replay, start, ticks) = fork_start::<Duel>(fork)?;
            let table = stdio::StdioTable::new(fork.flags, fork.bots, start.seed)?;
            drive(kind, replay.start.clone(), table, start, ticks, options).await
        }
        GameKind::Multisnake => {
            let (replay, start, ticks) = fork_start::<Multisnake>(fork)?;
            let table = stdio::StdioTable::new(fork.flags, fork.bots, start.seed)?;
            drive(kind, replay.start.clone(), table, start, ticks, options).await
        }
    }
}

/// The parsed replay, how the fork starts, and its tick limit.
fn fork_start<G: Playable>(fork: &Fork<'_>) -> anyhow::Result<(Replay<G>, Start<G>, u64)> {
    let replay = Replay::<G>::parse(fork.text)?;
    let recorded = replay.ticks.len() as u64;
    if fork.from_tick == 0 || fork.from_tick > recorded + 1 {
        return Err(BadInput(format!("--from-tick must be between 1 and {} (the replay has {})", recorded + 1, ticks_text(recorded))).into());
    }
    if fork.bots.len() != replay.header.seats {
        return Err(BadInput(format!("the replay has {} seats, not {}", replay.header.seats, fork.bots.len())).into());
    }
    let ticks = fork.ticks.unwrap_or_else(|| {
        // A recording that stopped before its game was over was cut by
        // --ticks; the fork stops at the same tick, so that the same bots
        // give the same file. Otherwise it plays until the end.
        let end = replay.resimulate(|_, _, _| {}).ok();
        let cut = end.is_some_and(|g| !g.is_over());
        if cut { recorded } else { fork.flags.ticks_max().max(recorded) }
    });
    if ticks < fork.from_tick - 1 {
        return Err(BadInput(format!("--ticks {ticks} ends before --from-tick {}", fork.from_tick)).into());
    }
    let start = Start {
        seed: replay.header.seed,
        labels: fork.bots.iter().map(ToString::to_string).collect(),
        recorded: Some(replay.ticks[..(fork.from_tick - 1) as usize].to_vec()),
        engine: replay.header.engine.clone(),
    };
    // A replay of a stretch of an endless game begins at its position's
    // tick; the limit counts the replay's own ticks.
    let first = replay.start.tick();
    Ok((replay, start, first + ticks))
}

/// How a game starts: its seed and players' labels, and for a fork the
/// recorded ticks to play again first, with the rules version that
/// recorded them (whose checksums they carry).
struct Start<G: Playable> {
    seed: u64,
    labels: Vec<String>,
    recorded: Option<Vec<TickRecord<G::Action>>>,
    engine: String,
}

/// A game `play` can run: shown in the terminal, and knowing when it is
/// over by its own rules.
pub(crate) trait Playable: TerminalView {
    /// Whether the game has ended; later ticks change nothing.
    fn is_over(&self) -> bool;

    /// [`Game::step`] into `events` (emptied first), for a loop that keeps
    /// one vector for all its ticks.
    fn step_into_vec(&mut self, actions: &[Self::Action], events: &mut Vec<Self::Event>) {
        *events = self.step(actions);
    }
}

impl Playable for SnakeBattle {
    fn is_over(&self) -> bool {
        false
    }
}

impl Playable for Battlesnake {
    fn is_over(&self) -> bool {
        Battlesnake::is_over(self)
    }

    fn step_into_vec(&mut self, actions: &[Action], events: &mut Vec<BattlesnakeEvent>) {
        events.clear();
        self.step_into(actions, events);
    }
}

impl Playable for Hex {
    fn is_over(&self) -> bool {
        false
    }
}

impl Playable for Carrots {
    fn is_over(&self) -> bool {
        false
    }
}

impl Playable for Duel {
    fn is_over(&self) -> bool {
        Duel::is_over(self)
    }
}

impl Playable for Multisnake {
    fn is_over(&self) -> bool {
        Multisnake::is_over(self)
    }
}

/// One game's players and bookkeeping around the engine: everything the
/// loop in [`drive`] does not know about a game.
pub(crate) trait Table<G: Playable> {
    /// Takes the caller's wishes about printing.
    fn echo(&mut self, _options: &RunOptions) {}
    /// Before the first tick: greet the bots.
    async fn start(&mut self, _game: &G) -> anyhow::Result<()> {
        Ok(())
    }
    /// Before a recorded tick of a fork: the built-in bots see the state
    /// and answer as they did in the recorded game (the answer is not
    /// used), so that their own state (a random stream, a memory) is the
    /// same at the first tick they play.
    async fn follow(&mut self, _game: &G) {}
    /// The actions of every seat for the next tick, into `out` (empty).
    async fn actions(&mut self, game: &G, out: &mut Vec<G::Action>) -> anyhow::Result<()>;
    /// After every tick, with its events (also after a recorded tick).
    async fn observe(&mut self, _game: &G, _events: &[G::Event]) {}
    /// After the last tick: say goodbye to the bots.
    async fn end(&mut self, _game: &G) {}
    /// Each seat's place (see [`GameOutcome::places`]).
    fn places(&self, game: &G) -> Vec<usize> {
        places_by(&game.scores())
    }
    /// Each seat's forfeits (see [`GameOutcome::forfeits`]).
    fn forfeits(&self, game: &G) -> Vec<u32> {
        vec![0; game.seats()]
    }
    /// The stderr log (see [`GameOutcome::stderr_log`]).
    fn take_log(&mut self) -> String {
        String::new()
    }
    /// See [`GameOutcome::busy_start`].
    fn busy_start(&self) -> bool {
        false
    }
    /// The fault lines printed since the last call, for `--watch` to draw
    /// under the board (see `ProcessSeats::take_fault_lines`).
    fn take_fault_lines(&mut self) -> Vec<String> {
        Vec::new()
    }
    /// The result, after the first line, as printed.
    fn summary(&self, game: &G, players: &[String]) -> String;
}

/// Places from keys where more is better: 1 plus the number of seats with
/// a strictly greater key.
pub(crate) fn places_by<K: PartialOrd>(keys: &[K]) -> Vec<usize> {
    keys.iter().map(|k| 1 + keys.iter().filter(|o| *o > k).count()).collect()
}

/// The loop every game shares.
async fn drive<G: Playable + 'static, T: Table<G>>(
    kind: GameKind,
    mut game: G,
    mut table: T,
    start: Start<G>,
    ticks_max: u64,
    options: &RunOptions,
) -> anyhow::Result<GameOutcome>
where
    G::Action: Send + Sync,
{
    table.echo(options);
    let mut replay = ReplayLog::new(&game, start.seed, &start.labels);
    for record in start.recorded.iter().flatten() {
        table.follow(&game).await;
        for &(seat, present) in &record.presence {
            game.set_seat_present(seat, present);
        }
        let events = game.step(&record.moves);
        table.observe(&game, &events).await;
        let computed = game.checksum_as_of(&start.engine);
        if computed != record.checksum {
            let engine = start.engine.clone();
            return Err(Divergence { tick: record.tick, recorded: record.checksum, computed, engine })
                .context("the replay does not re-simulate");
        }
        replay.record_with(&game, &record.presence, &record.moves);
    }
    table.start(&game).await?;
    let mut actions = Vec::with_capacity(game.seats());
    let mut events = Vec::new();
    // The latest faults, drawn under the board with --watch: the frame
    // starts by clearing the screen, which would wipe them from stderr.
    let mut shown_faults: Vec<String> = Vec::new();
    let interrupted = || {
        (options.stop_on_interrupt && INTERRUPTED.load(Ordering::Relaxed))
            || options.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
    };
    while game.tick() < ticks_max && !game.is_over() && !interrupted() {
        actions.clear();
        table.actions(&game, &mut actions).await?;
        game.step_into_vec(&actions, &mut events);
        table.observe(&game, &events).await;
        replay.record(&game, &actions);
        if let Some(pause_ms) = options.watch_ms {
            shown_faults.extend(table.take_fault_lines());
            let extra = shown_faults.len().saturating_sub(WATCH_FAULT_LINES_MAX);
            shown_faults.drain(..extra);
            draw(&game, &start.labels, &shown_faults)?;
            tokio::time::sleep(Duration::from_millis(pause_ms)).await;
        }
    }
    table.end(&game).await;
    Ok(GameOutcome {
        game: kind,
        seed: start.seed,
        ticks: game.tick(),
        scores: game.scores(),
        places: table.places(&game),
        forfeits: table.forfeits(&game),
        replay: ReplayOut(std::sync::Arc::new(replay)),
        interrupted: interrupted(),
        stderr_log: table.take_log(),
        summary: if options.no_summary { String::new() } else { table.summary(&game, &start.labels) },
        busy_start: table.busy_start(),
    })
}

/// The error of a `--set` the game refuses. An unknown key lists the
/// game's keys (those of its default settings), since a typo or another
/// game's key is the usual cause and the list is the fix.
pub(crate) fn invalid_settings(e: snakepit_engine::settings::SettingsError, keys: &[(&'static str, String)]) -> anyhow::Error {
    use snakepit_engine::settings::SettingsError;
    match &e {
        SettingsError::UnknownKey(_) => {
            let names: Vec<&str> = keys.iter().map(|(k, _)| *k).collect();
            BadInput(format!("invalid settings: {e} (settings: {})", names.join(", "))).into()
        }
        _ => BadInput(format!("invalid settings: {e}")).into(),
    }
}

/// Refuses a flag that belongs to another game, rather than ignoring it.
fn refuse_flag(given: bool, flag: &str, game: GameKind, owner: &str) -> anyhow::Result<()> {
    if given {
        return Err(BadInput(format!("{flag} is a {owner} option, not a {} one", game.name())).into());
    }
    Ok(())
}

/// Fault lines `--watch` keeps under the board, the latest last.
const WATCH_FAULT_LINES_MAX: usize = 5;

/// Draws one `--watch` frame: the board, the status line, and the latest
/// faults.
fn draw<G: TerminalView>(game: &G, players: &[String], faults: &[String]) -> anyhow::Result<()> {
    // One write per frame, starting with "home + clear", so the terminal
    // never shows half a board.
    let mut frame = String::from("\x1b[H\x1b[2J");
    for row in game.board_rows() {
        frame.push_str(&row);
        frame.push('\n');
    }
    frame.push_str(&game.status_line(players));
    frame.push('\n');
    for fault in faults {
        frame.push_str(fault);
        frame.push('\n');
    }
    let mut out = std::io::stdout().lock();
    out.write_all(frame.as_bytes())?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_share_ties() {
        assert_eq!(places_by(&[3, 5, 3, 1]), vec![2, 1, 2, 4]);
        assert_eq!(places_by(&[0, 0]), vec![1, 1]);
    }

    #[test]
    fn game_names_round_trip() {
        use clap::ValueEnum;
        for kind in GameKind::value_variants() {
            assert_eq!(GameKind::from_name(kind.name()), Some(*kind));
        }
        assert_eq!(GameKind::from_name("chess"), None);
    }

    #[test]
    fn the_help_states_the_bot_folder_limits() {
        let help = <Args as clap::Args>::augment_args(clap::Command::new("play")).render_long_help().to_string();
        let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
        let (files, mib) = (process::BOT_FOLDER_ENTRIES_MAX, process::BOT_FOLDER_BYTES_MAX / (1024 * 1024));
        assert!(help.contains(&format!("at most {files} files and {mib} MiB")), "{help}");
    }

    #[test]
    fn key_value_pairs() {
        assert_eq!(parse_key_value("a=b=c"), Ok(("a".into(), "b=c".into())));
        assert_eq!(parse_key_value("a="), Ok(("a".into(), String::new())));
        assert!(parse_key_value("=b").is_err());
        assert!(parse_key_value("ab").is_err());
    }
}
