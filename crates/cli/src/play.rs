//! `snakepit play`: one game between bots, as fast as they answer.
//!
//! The loop is the same for every game and lives here ([`play`]): ask every
//! seat for its action, step the engine, record the replay, draw the board
//! with `--watch`, stop at `--ticks` or when the game ends by its own rules,
//! print the result. What differs between games sits behind [`Table`]: how
//! the bots are reached and what they are shown, when the game is over, and
//! the result table. Adding a game is a [`GameKind`] variant, one arm in
//! [`run`], and a module here that builds the game and its `Table`.
//!
//! Built-in bots are function calls and there is no clock, so a game of
//! built-ins runs as fast as the rules and the bots compute. HTTP snakes are
//! asked concurrently on a single-threaded tokio runtime, each within the
//! game's timeout.

mod battlesnake;
mod snakebattle;
mod stdio;

use crate::bot_spec::BotSpec;
use crate::exit::BadInput;
use crate::view::TerminalView;
use anyhow::Context;
use snakepit_protocol::replay::ReplayWriter;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Flags of `snakepit play`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game to play
    #[arg(long, value_enum, default_value_t = GameKind::Snakebattle)]
    pub game: GameKind,
    /// A player, once per seat: builtin:NAME (built-in bots: random,
    /// greedy), for battlesnake the URL of a snake (http://HOST:PORT/PATH),
    /// and for carrots, duel and multisnake a command line run in the
    /// sandbox ("python3 bot.py", ./a.out; prefix json: for the JSON-lines
    /// protocol)
    #[arg(long = "bot", value_name = "SPEC", required = true)]
    pub bots: Vec<BotSpec>,
    /// Seed of the game and of the built-in bots [default: a random one,
    /// printed at the end]
    #[arg(long)]
    pub seed: Option<u64>,
    /// Ticks to play at most, countdowns included; a battlesnake game stops
    /// earlier when it is over
    #[arg(long, default_value_t = 1000)]
    pub ticks: u64,
    /// The map, drawn in the game's glyphs [default: the built-in map]
    /// (snakebattle, duel, multisnake)
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// Rule profile whose defaults --set overrides: codebattle or codenjoy
    /// [default: codebattle] (snakebattle)
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
    /// Time an HTTP snake has for each answer, round trip included, in
    /// milliseconds (battlesnake's game.timeout)
    #[arg(long, value_name = "MS", default_value_t = snakepit_bots::http::MOVE_TIMEOUT_MS_DEFAULT)]
    pub timeout_ms: u64,
    /// Override one setting (repeatable), e.g. --set fury_ticks=10 or
    /// --set minimumFood=3
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = parse_key_value)]
    pub set: Vec<(String, String)>,
    /// Draw the board in the terminal after every tick
    #[arg(long)]
    pub watch: bool,
    /// Pause after each drawn tick, in milliseconds (with --watch)
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub watch_ms: u64,
    /// Print what process bots write on stderr, prefixed by their seat
    /// (carrots, duel, multisnake)
    #[arg(long)]
    pub bot_stderr: bool,
    /// Write the replay (JSON lines) to this file
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
    /// CodeCarrots snakes: one endless board, process bots reading it on
    /// stdin.
    Carrots,
    /// KingOfBots Snake: a two-player duel on a 13x14 map with walls.
    Duel,
    /// SOI Multisnake: 2, 4 or 8 snakes on a wrapping map.
    Multisnake,
}

impl GameKind {
    fn name(self) -> &'static str {
        match self {
            GameKind::Snakebattle => "snakebattle",
            GameKind::Battlesnake => "battlesnake",
            GameKind::Carrots => "carrots",
            GameKind::Duel => "duel",
            GameKind::Multisnake => "multisnake",
        }
    }
}

fn parse_key_value(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
        _ => Err(format!("{s:?} is not KEY=VALUE")),
    }
}

/// Plays the game and prints the result.
pub fn run(args: Args) -> anyhow::Result<()> {
    let seed = args.seed.unwrap_or_else(random_seed);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        match args.game {
            GameKind::Snakebattle => {
                let (game, table) = snakebattle::setup(&args, seed)?;
                play(game, table, &args, seed).await
            }
            GameKind::Battlesnake => {
                let (game, table) = battlesnake::setup(&args, seed)?;
                play(game, table, &args, seed).await
            }
            GameKind::Carrots => {
                let (game, table) = stdio::setup_carrots(&args, seed)?;
                play(game, table, &args, seed).await
            }
            GameKind::Duel => {
                let (game, table) = stdio::setup_duel(&args, seed)?;
                play(game, table, &args, seed).await
            }
            GameKind::Multisnake => {
                let (game, table) = stdio::setup_multisnake(&args, seed)?;
                play(game, table, &args, seed).await
            }
        }
    })
}

/// A seed for a game nobody asked to reproduce. The CLI may use entropy;
/// the seed is printed and recorded, so the game can still be replayed.
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    std::collections::hash_map::RandomState::new().build_hasher().finish()
}

/// One game's players and bookkeeping around the engine: everything the
/// loop in [`play`] does not know about a game.
pub(crate) trait Table<G: TerminalView> {
    /// Before the first tick: greet the bots.
    async fn start(&mut self, _game: &G) -> anyhow::Result<()> {
        Ok(())
    }
    /// The actions of every seat for the next tick, into `out` (empty).
    async fn actions(&mut self, game: &G, out: &mut Vec<G::Action>) -> anyhow::Result<()>;
    /// After every tick, with its events.
    fn observe(&mut self, _game: &G, _events: &[G::Event]) {}
    /// Whether the game has ended by its own rules.
    fn is_over(&self, _game: &G) -> bool {
        false
    }
    /// After the last tick: say goodbye to the bots.
    async fn end(&mut self, _game: &G) {}
    /// The result, after the first line, as printed.
    fn summary(&self, game: &G, players: &[String]) -> String;
}

/// The loop every game shares.
async fn play<G: TerminalView, T: Table<G>>(mut game: G, mut table: T, args: &Args, seed: u64) -> anyhow::Result<()> {
    let players: Vec<String> = args.bots.iter().map(ToString::to_string).collect();
    let mut replay = match &args.replay {
        Some(path) => Some(create_replay(path, &game, seed, &players)?),
        None => None,
    };
    table.start(&game).await?;
    let mut actions = Vec::with_capacity(game.seats());
    while game.tick() < args.ticks && !table.is_over(&game) {
        actions.clear();
        table.actions(&game, &mut actions).await?;
        let events = game.step(&actions);
        table.observe(&game, &events);
        if let Some(writer) = &mut replay {
            writer.record(&game, &actions).context("cannot write the replay")?;
        }
        if args.watch {
            draw(&game, &players)?;
            tokio::time::sleep(Duration::from_millis(args.watch_ms)).await;
        }
    }
    table.end(&game).await;
    if let Some(writer) = replay {
        writer.finish().context("cannot write the replay")?;
    }

    let mut out = std::io::stdout().lock();
    writeln!(out, "{}: {} ticks, seed {seed}", args.game.name(), game.tick())?;
    if let Some(path) = &args.replay {
        writeln!(out, "replay: {}", path.display())?;
    }
    write!(out, "{}", table.summary(&game, &players))?;
    Ok(())
}

/// Refuses a flag that belongs to another game, rather than ignoring it.
fn refuse_flag(given: bool, flag: &str, game: GameKind, owner: &str) -> anyhow::Result<()> {
    if given {
        return Err(BadInput(format!("{flag} is a {owner} option, not a {} one", game.name())).into());
    }
    Ok(())
}

fn create_replay<G: TerminalView>(
    path: &Path,
    game: &G,
    seed: u64,
    players: &[String],
) -> anyhow::Result<ReplayWriter<G, BufWriter<File>>> {
    let file = File::create(path).map_err(|e| BadInput(format!("{}: cannot create the replay: {e}", path.display())))?;
    ReplayWriter::new(BufWriter::new(file), game, seed, players).context("cannot write the replay")
}

fn draw<G: TerminalView>(game: &G, players: &[String]) -> anyhow::Result<()> {
    // One write per frame, starting with "home + clear", so the terminal
    // never shows half a board.
    let mut frame = String::from("\x1b[H\x1b[2J");
    for row in game.board_rows() {
        frame.push_str(&row);
        frame.push('\n');
    }
    frame.push_str(&game.status_line(players));
    frame.push('\n');
    let mut out = std::io::stdout().lock();
    out.write_all(frame.as_bytes())?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_value_pairs() {
        assert_eq!(parse_key_value("a=b=c"), Ok(("a".into(), "b=c".into())));
        assert_eq!(parse_key_value("a="), Ok(("a".into(), String::new())));
        assert!(parse_key_value("=b").is_err());
        assert!(parse_key_value("ab").is_err());
    }
}
