//! `snakepit play`: one game between bots, as fast as they answer.
//!
//! The loop is the Codenjoy one: every tick each seat's bot gets its own
//! `board=` message and answers with a command, the answers are read under
//! the game's command rule, and the engine steps once. Built-in bots are
//! plain function calls and there is no clock, so the game runs as fast as
//! the rules and the bots compute.

use crate::bot_spec::BotSpec;
use crate::exit::BadInput;
use crate::input;
use snakepit_protocol::codenjoy::{message, parse_action, render_boards};
use crate::view::TerminalView;
use anyhow::Context;
use snakepit_engine::Game;
use snakepit_engine::snakebattle::{Action, Death, Event, Map, Settings, SnakeBattle};
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
    /// A player, once per seat: builtin:NAME (built-in bots: random, greedy)
    #[arg(long = "bot", value_name = "SPEC", required = true)]
    pub bots: Vec<BotSpec>,
    /// Seed of the game and of the built-in bots [default: a random one,
    /// printed at the end]
    #[arg(long)]
    pub seed: Option<u64>,
    /// Ticks to play, countdowns included
    #[arg(long, default_value_t = 1000)]
    pub ticks: u64,
    /// The map, drawn in the game's glyphs [default: the built-in map]
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// Rule profile whose defaults --set overrides: codebattle or codenjoy
    /// [default: codebattle]
    #[arg(long)]
    pub profile: Option<String>,
    /// Override one setting (repeatable), e.g. --set fury_ticks=10
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = parse_key_value)]
    pub set: Vec<(String, String)>,
    /// Draw the board in the terminal after every tick
    #[arg(long)]
    pub watch: bool,
    /// Pause after each drawn tick, in milliseconds (with --watch)
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub watch_ms: u64,
    /// Write the replay (JSON lines) to this file
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,
}

/// The games `play` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GameKind {
    /// Codenjoy SnakeBattle: five snakes, apples, stones, fury.
    Snakebattle,
}

fn parse_key_value(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
        _ => Err(format!("{s:?} is not KEY=VALUE")),
    }
}

/// Plays the game and prints the scores.
pub fn run(args: Args) -> anyhow::Result<()> {
    let seed = args.seed.unwrap_or_else(random_seed);
    match args.game {
        GameKind::Snakebattle => play_snakebattle(&args, seed),
    }
}

/// A seed for a game nobody asked to reproduce. The CLI may use entropy;
/// the seed is printed and recorded, so the game can still be replayed.
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    std::collections::hash_map::RandomState::new().build_hasher().finish()
}

fn play_snakebattle(args: &Args, seed: u64) -> anyhow::Result<()> {
    let settings = snakebattle_settings(args)?;
    let map = match &args.map {
        Some(path) => load_map(path)?,
        None => Map::default_map(),
    };
    let seats = args.bots.len();
    let mut game = SnakeBattle::new(settings, map, seats, seed).context("cannot start the game")?;
    let players: Vec<String> = args.bots.iter().map(ToString::to_string).collect();
    let mut bots: Vec<_> = args.bots.iter().enumerate().map(|(seat, spec)| spec.connect(seed, seat)).collect();
    let mut replay = match &args.replay {
        Some(path) => Some(create_replay(path, &game, seed, &players)?),
        None => None,
    };
    let rule = game.settings().commands;
    let mut tally = vec![SeatTally::default(); seats];
    let mut actions: Vec<Action> = Vec::with_capacity(seats);

    for _ in 0..args.ticks {
        actions.clear();
        for (seat, (bot, board)) in bots.iter_mut().zip(render_boards(&game)).enumerate() {
            let answer = bot.answer(&message(&board));
            tracing::trace!(tick = game.tick() + 1, seat, answer, "bot answered");
            actions.push(parse_action(&answer, rule));
        }
        let events = game.step(&actions);
        count(&mut tally, &events);
        if let Some(writer) = &mut replay {
            writer.record(&game, &actions).context("cannot write the replay")?;
        }
        if args.watch {
            draw(&game, &players)?;
            std::thread::sleep(Duration::from_millis(args.watch_ms));
        }
    }
    if let Some(writer) = replay {
        writer.finish().context("cannot write the replay")?;
    }

    let mut out = std::io::stdout().lock();
    writeln!(out, "snakebattle: {} ticks, seed {seed}", game.tick())?;
    if let Some(path) = &args.replay {
        writeln!(out, "replay: {}", path.display())?;
    }
    write!(out, "{}", score_table(&game, &players, &tally))?;
    Ok(())
}

fn snakebattle_settings(args: &Args) -> anyhow::Result<Settings> {
    let profile = args.profile.as_deref().map(|p| ("profile", p));
    let pairs = profile.into_iter().chain(args.set.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    Settings::from_pairs(pairs).context("invalid settings")
}

/// Reads a map file; defects come back as `FILE: line N: problem`.
pub fn load_map(path: &Path) -> anyhow::Result<Map> {
    let text = input::read_text(path)?;
    Map::parse(&text).with_context(|| path.display().to_string())
}

fn create_replay(
    path: &Path,
    game: &SnakeBattle,
    seed: u64,
    players: &[String],
) -> anyhow::Result<ReplayWriter<SnakeBattle, BufWriter<File>>> {
    let file = File::create(path).map_err(|e| BadInput(format!("{}: cannot create the replay: {e}", path.display())))?;
    ReplayWriter::new(BufWriter::new(file), game, seed, players).context("cannot write the replay")
}

/// Per-seat counts the engine does not keep.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct SeatTally {
    deaths: u32,
    kills: u32,
}

fn count(tally: &mut [SeatTally], events: &[Event]) {
    for event in events {
        if let Event::Died { snake, cause } = event {
            tally[*snake].deaths += 1;
            // The rules pay the kill to the snake named in the cause, so the
            // table credits it the same way.
            if let Death::HeadOn(killer) | Death::Crash(killer) = cause {
                tally[*killer].kills += 1;
            }
        }
    }
}

fn score_table(game: &SnakeBattle, players: &[String], tally: &[SeatTally]) -> String {
    let width = players.iter().map(|p| p.chars().count()).max().unwrap_or(0).max(3);
    let mut table = format!("{:>4}  {:<width$}  {:>6}  {:>6}  {:>6}  {:>5}\n", "seat", "bot", "score", "length", "deaths", "kills");
    for (seat, snake) in game.snakes().iter().enumerate() {
        let length = if snake.alive { snake.len() } else { 0 };
        let t = &tally[seat];
        table.push_str(&format!(
            "{seat:>4}  {:<width$}  {:>6}  {length:>6}  {:>6}  {:>5}\n",
            players[seat], snake.score, t.deaths, t.kills
        ));
    }
    table
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
    use snakepit_engine::snakebattle::SnakeIdx;

    #[test]
    fn kills_go_to_the_snake_in_the_cause() {
        let died = |snake: SnakeIdx, cause| Event::Died { snake, cause };
        let mut tally = vec![SeatTally::default(); 3];
        count(&mut tally, &[died(0, Death::Crash(2)), died(1, Death::HeadOn(2)), died(2, Death::Wall)]);
        assert_eq!(tally[2], SeatTally { deaths: 1, kills: 2 });
        assert_eq!(tally[0], SeatTally { deaths: 1, kills: 0 });
    }

    #[test]
    fn key_value_pairs() {
        assert_eq!(parse_key_value("a=b=c"), Ok(("a".into(), "b=c".into())));
        assert_eq!(parse_key_value("a="), Ok(("a".into(), String::new())));
        assert!(parse_key_value("=b").is_err());
        assert!(parse_key_value("ab").is_err());
    }
}
