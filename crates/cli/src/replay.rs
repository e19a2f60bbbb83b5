//! `snakepit replay`: print a replay file tick by tick, or verify it.
//!
//! Both re-simulate the recorded moves from the header's setup and compare
//! every tick's checksum, so a printed replay is always the game that was
//! recorded; `--verify` prints only the verdict.

use crate::input;
use crate::view::TerminalView;
use anyhow::Context;
use snakepit_engine::battlesnake::Battlesnake;
use snakepit_engine::carrots::Carrots;
use snakepit_engine::duel::Duel;
use snakepit_engine::multisnake::Multisnake;
use snakepit_engine::snakebattle::SnakeBattle;
use snakepit_protocol::replay::{Header, Replay, ReplayError, ReplayGame, ReplayProblem};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Flags of `snakepit replay`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The replay file, as written by `play --replay`
    pub file: PathBuf,
    /// Only re-simulate and check every tick's checksum; print "ok: N ticks
    /// verified" or name the first tick that differs
    #[arg(long)]
    pub verify: bool,
    /// Write a self-contained HTML page that plays the replay in a browser
    /// (offline: no server, no network), then exit
    #[arg(long, value_name = "OUT.html", conflicts_with = "verify")]
    pub html: Option<PathBuf>,
}

/// Prints or verifies the replay.
pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(out) = &args.html {
        return crate::replay_html::write(&args.file, out);
    }
    let text = input::read_text(&args.file)?;
    let file = || args.file.display().to_string();
    let header = Header::parse(&text).with_context(file)?;
    match header.game.as_str() {
        SnakeBattle::NAME => replay::<SnakeBattle>(&args.file, &text, args.verify),
        Battlesnake::NAME => replay::<Battlesnake>(&args.file, &text, args.verify),
        Carrots::NAME => replay::<Carrots>(&args.file, &text, args.verify),
        Duel::NAME => replay::<Duel>(&args.file, &text, args.verify),
        Multisnake::NAME => replay::<Multisnake>(&args.file, &text, args.verify),
        other => {
            let problem = ReplayProblem::UnknownGame(other.to_string());
            Err(ReplayError { line: 1, problem }).with_context(file)
        }
    }
}

fn replay<G: TerminalView>(path: &Path, text: &str, verify: bool) -> anyhow::Result<()> {
    let file = || path.display().to_string();
    let replay = Replay::<G>::parse(text).with_context(file)?;
    let mut out = std::io::stdout().lock();
    if verify {
        replay.resimulate(|_, _, _| {}).with_context(file)?;
        writeln!(out, "ok: {} ticks verified", replay.ticks.len())?;
        return Ok(());
    }

    let h = &replay.header;
    writeln!(out, "{} seed {} engine {}: {}", h.game, h.seed, h.engine, h.players.join(", "))?;
    print_state(&mut out, &replay.start, &h.players)?;
    // The callback cannot fail, so the first write error is kept for later.
    let mut written = Ok(());
    let result = replay.resimulate(|game, record, events| {
        if written.is_ok() {
            written = print_tick::<G>(&mut out, game, &h.players, &record.moves, events);
        }
    });
    written?;
    result.with_context(file)?;
    Ok(())
}

fn print_tick<G: TerminalView>(
    out: &mut impl Write,
    game: &G,
    players: &[String],
    moves: &[G::Action],
    events: &[G::Event],
) -> std::io::Result<()> {
    let moves: Vec<String> = moves.iter().map(G::action_to_text).collect();
    writeln!(out)?;
    writeln!(out, "== tick {}: moves {}", game.tick(), moves.join(" "))?;
    print_state(out, game, players)?;
    for event in events {
        writeln!(out, "{}", G::event_line(event))?;
    }
    Ok(())
}

fn print_state<G: TerminalView>(out: &mut impl Write, game: &G, players: &[String]) -> std::io::Result<()> {
    for row in game.board_rows() {
        writeln!(out, "{row}")?;
    }
    writeln!(out, "{}", game.status_line(players))
}
