//! `snakepit replay`: print a replay file tick by tick, or verify it.
//!
//! Both re-simulate the recorded moves from the header's setup and compare
//! every tick's checksum, so a printed replay is always the game that was
//! recorded; `--verify` prints only the verdict.
//!
//! `--from-tick N` forks the game: ticks before N are played again from the
//! recorded moves (checksums checked), then bots play every seat from tick
//! N on: the seats named with `--bot SEAT=SPEC` by their new player, the
//! others by the player the header records, which must be a spec `play`
//! takes (`builtin:...`, a command line, a URL). Built-in bots are shown
//! every recorded tick and answer it (the answer is not used), so their
//! random streams and memories are what they were at tick N, and a fork
//! with the same bots plays the recorded game again exactly. Process bots
//! and HTTP snakes start at tick N: the arenas' inputs carry the whole
//! state, so a bot without memory plays as it would have.

use crate::bot_spec::BotSpec;
use crate::exit::BadInput;
use crate::input;
use crate::play::{self, Fork, GameFlags, GameKind, ReplayFiles, RunOptions};
use snakepit_viewer::text::TerminalView;
use anyhow::Context;
use snakepit_engine::battlesnake::Battlesnake;
use snakepit_engine::carrots::Carrots;
use snakepit_engine::duel::Duel;
use snakepit_engine::hex::Hex;
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
    #[arg(long, value_name = "OUT.html", conflicts_with_all = ["verify", "from_tick"])]
    pub html: Option<PathBuf>,
    /// Fork the game: play the recorded moves before tick N again, then
    /// let bots play from tick N on (see --bot)
    #[arg(long, value_name = "N", conflicts_with = "verify")]
    pub from_tick: Option<u64>,
    /// With --from-tick: who plays seat SEAT from tick N (repeatable),
    /// SPEC being anything `play --bot` takes; the other seats are played
    /// by the players the replay records
    #[arg(long = "bot", value_name = "SEAT=SPEC", requires = "from_tick", value_parser = parse_seat_spec)]
    pub bots: Vec<(usize, BotSpec)>,
    /// With --from-tick: ticks to play at most, in all [default: the
    /// recording's length when it was cut short, else 1000 or the
    /// recording's length if longer; duel and multisnake: until the game
    /// ends]
    #[arg(long, value_name = "N", requires = "from_tick")]
    pub ticks: Option<u64>,
    /// With --from-tick: write the forked game's replay to this file
    #[arg(long, value_name = "FILE", requires = "from_tick")]
    pub replay: Option<PathBuf>,
}

/// `SEAT=SPEC`, with the spec parsed as `play --bot` parses it.
fn parse_seat_spec(s: &str) -> Result<(usize, BotSpec), String> {
    let (seat, spec) = s.split_once('=').ok_or_else(|| format!("{s:?} is not SEAT=SPEC"))?;
    let seat = seat.trim().parse::<usize>().map_err(|_| format!("{seat:?} is not a seat number (0, 1, ...)"))?;
    Ok((seat, spec.parse()?))
}

/// Prints or verifies the replay.
pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(out) = &args.html {
        return crate::replay_html::write(&args.file, out);
    }
    if let Some(from_tick) = args.from_tick {
        return fork(&args, from_tick);
    }
    let text = input::read_replay_text(&args.file)?;
    let file = || args.file.display().to_string();
    let header = Header::parse(&text).with_context(file)?;
    match header.game.as_str() {
        SnakeBattle::NAME => replay::<SnakeBattle>(&args.file, &text, args.verify),
        Battlesnake::NAME => replay::<Battlesnake>(&args.file, &text, args.verify),
        Hex::NAME => replay::<Hex>(&args.file, &text, args.verify),
        Carrots::NAME => replay::<Carrots>(&args.file, &text, args.verify),
        Duel::NAME => replay::<Duel>(&args.file, &text, args.verify),
        Multisnake::NAME => replay::<Multisnake>(&args.file, &text, args.verify),
        other => {
            let problem = ReplayProblem::UnknownGame(other.to_string());
            Err(ReplayError { line: 1, problem }).with_context(file)
        }
    }
}

/// `--from-tick`: continues the recorded game with bots.
fn fork(args: &Args, from_tick: u64) -> anyhow::Result<()> {
    let text = input::read_replay_text(&args.file)?;
    let file = || args.file.display().to_string();
    let header = Header::parse(&text).with_context(file)?;
    let Some(kind) = GameKind::from_name(&header.game) else {
        let problem = ReplayProblem::UnknownGame(header.game.clone());
        return Err(ReplayError { line: 1, problem }).with_context(file);
    };
    let mut bots: Vec<Option<BotSpec>> = vec![None; header.seats];
    for (seat, spec) in &args.bots {
        let slot = bots
            .get_mut(*seat)
            .ok_or_else(|| BadInput(format!("--bot {seat}=...: the replay has seats 0 to {}", header.seats.saturating_sub(1))))?;
        if slot.replace(spec.clone()).is_some() {
            return Err(BadInput(format!("--bot names seat {seat} twice")).into());
        }
    }
    let bots = bots
        .into_iter()
        .enumerate()
        .map(|(seat, given)| match given {
            Some(spec) => Ok(spec),
            None => recorded_player(&header.players[seat], seat),
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    if bots.iter().any(|b| matches!(b, BotSpec::Process { .. })) {
        eprint!("{}", snakepit_bots::process::SandboxReport::cached());
    }
    let files = match &args.replay {
        Some(path) => Some(ReplayFiles::create(path)?),
        None => None,
    };
    let flags = GameFlags::of(kind);
    let spec = Fork { text: &text, from_tick, bots: &bots, ticks: args.ticks, flags: &flags };
    let options = RunOptions { echo_faults: true, ..RunOptions::default() };
    let outcome = match play::block_on(play::fork_game(kind, &spec, &options)).with_context(file) {
        Ok(outcome) => outcome,
        Err(e) => {
            if let Some(files) = files {
                files.discard();
            }
            return Err(e);
        }
    };
    if let Some(files) = files {
        files.write(&outcome)?;
    }
    play::print_outcome(&outcome, args.replay.as_deref())
}

/// The player a replay records for `seat`, if it can play here.
fn recorded_player(label: &str, seat: usize) -> anyhow::Result<BotSpec> {
    let cannot = |why: String| {
        BadInput(format!("seat {seat}: the recorded player {label:?} cannot play here: {why}; name one with --bot {seat}=SPEC"))
    };
    let spec: BotSpec = label.parse().map_err(cannot)?;
    if let BotSpec::Process { line, .. } = &spec {
        // A program given by a path must still be where it was; a name must
        // be in the sandbox's PATH. A game kept by a server names its seats
        // by player, which is neither.
        let program = line.split_whitespace().next().unwrap_or("");
        if program.contains('/') && !Path::new(program).exists() {
            return Err(cannot(format!("{program} does not exist (paths are relative to the folder snakepit runs in)")).into());
        }
        let found = snakepit_bots::process::BotCommand::from_command_line(line, &[]).is_ok_and(|c| c.program_is_found());
        if !program.contains('/') && !found {
            // The server names its built-in bots `greedy-1`, `safe-2`, ...
            let builtin = label
                .rsplit_once('-')
                .filter(|(name, n)| !name.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                .map(|(name, _)| format!(" (a built-in bot of a server? --bot {seat}=builtin:{name})"))
                .unwrap_or_default();
            return Err(cannot(format!(
                "it is no program here (the game was kept by a server, which names seats by their players){builtin}"
            ))
            .into());
        }
    }
    Ok(spec)
}

fn replay<G: TerminalView>(path: &Path, text: &str, verify: bool) -> anyhow::Result<()> {
    let file = || path.display().to_string();
    let replay = Replay::<G>::parse(text).with_context(file)?;
    let mut out = std::io::stdout().lock();
    if verify {
        replay.resimulate(|_, _, _| {}).with_context(file)?;
        writeln!(out, "ok: {} verified", crate::play::ticks_text(replay.ticks.len() as u64))?;
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
