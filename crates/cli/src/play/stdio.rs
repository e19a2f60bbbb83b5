//! The stdin/stdout arenas at `play`: CodeCarrots (`carrots`), KingOfBots
//! (`duel`) and SOI Multisnake (`multisnake`), with process bots in the
//! sandbox and built-in random movers.
//!
//! A process bot is any `--bot` that is not `builtin:` or a URL: a command
//! line such as `python3 starters/multisnake/python/bot.py` or `./a.out`,
//! whose files are copied into the bot's own folder
//! ([`BotCommand::from_command_line`]). It speaks the game's own format, or
//! the JSON-lines protocol with a `json:` prefix. The process side is
//! [`StdioSeats`]: the arena's deadlines, SIGSTOP only for carrots, and
//! the arena's rule for a bot that fails (the forfeit action). Every fault
//! is printed on stderr with the exact bytes and the reason, and with
//! `--bot-stderr` so is what the bots write on stderr (the user running
//! `play` owns every bot).
//!
//! With `--replay FILE`, what the bots wrote on stderr and every fault go
//! to `FILE.stderr.jsonl` too, one line per seat and tick that has any:
//! `{"dropped":0,"fault":"...","seat":1,"stderr":["..."],"t":3}` (keys
//! sorted; `fault` is null when the seat answered). The
//! replay itself holds only what re-simulation needs (and is public; the
//! stderr log is for the bots' owners).
//!
//! `builtin:random` is a seeded random mover that avoids the cells that
//! kill at once, computed from the engine's state (it is a stand-in for a
//! player, not a protocol test; the starters under `starters/` are those).

use super::{Args, GameKind, Table, refuse_flag};
use crate::bot_spec::{BotSpec, bot_seed};
use crate::exit::BadInput;
use crate::input;
use anyhow::Context;
use snakepit_bots::process::{BotCommand, SandboxReport};
use snakepit_bots::stdio_match::{MatchSettings, Seat, SeatOutcome, SeatTick, StdioSeats};
use snakepit_engine::carrots::{self, Carrots};
use snakepit_engine::duel::{self, Duel, DuelMap};
use snakepit_engine::multisnake::{self, Map, Multisnake, Tile};
use snakepit_engine::{Dir, Pos, Rng};
use snakepit_protocol::stdio::{StdioGame, Wire};
use std::fmt::Write;

/// The settings of `--set` (and `--width`/`--height` for carrots).
fn pairs(args: &Args) -> impl Iterator<Item = (&str, &str)> {
    args.set.iter().map(|(k, v)| (k.as_str(), v.as_str()))
}

/// CodeCarrots from the command line: `--width`/`--height` or `--set`.
pub(super) fn setup_carrots(args: &Args, seed: u64) -> anyhow::Result<(Carrots, StdioTable)> {
    let kind = GameKind::Carrots;
    refuse_flag(args.profile.is_some(), "--profile", kind, "snakebattle")?;
    refuse_flag(args.ruleset.is_some(), "--ruleset", kind, "battlesnake")?;
    refuse_flag(args.map.is_some(), "--map", kind, "duel and multisnake")?;
    let (w, h) = (args.width.map(|w| w.to_string()), args.height.map(|h| h.to_string()));
    let size = w.iter().map(|w| ("width", w.as_str())).chain(h.iter().map(|h| ("height", h.as_str())));
    let settings = carrots::Settings::from_pairs(size.chain(pairs(args))).map_err(|e| BadInput(format!("invalid settings: {e}")))?;
    let game = Carrots::new(settings, args.bots.len(), seed).map_err(|e| BadInput(format!("cannot start the game: {e}")))?;
    let table = StdioTable::new(kind, args, seed)?;
    Ok((game, table))
}

/// A duel from the command line: a drawn `--map` or one generated from
/// the seed.
pub(super) fn setup_duel(args: &Args, seed: u64) -> anyhow::Result<(Duel, StdioTable)> {
    let kind = GameKind::Duel;
    refuse_flag(args.profile.is_some(), "--profile", kind, "snakebattle")?;
    refuse_flag(args.ruleset.is_some(), "--ruleset", kind, "battlesnake")?;
    refuse_flag(args.width.is_some() || args.height.is_some(), "--width/--height", kind, "battlesnake and carrots")?;
    if args.bots.len() != 2 {
        return Err(BadInput(format!("a duel has 2 players, not {}", args.bots.len())).into());
    }
    let settings = duel::Settings::from_pairs(pairs(args)).map_err(|e| BadInput(format!("invalid settings: {e}")))?;
    let game = match &args.map {
        Some(path) => {
            let map = DuelMap::parse(&input::read_text(path)?).with_context(|| path.display().to_string())?;
            Duel::with_map(settings, map, seed)
        }
        None => Duel::new(settings, seed),
    };
    Ok((game, StdioTable::new(kind, args, seed)?))
}

/// Multisnake from the command line: `--map FILE`, or the tournament map
/// for 2, 4 or 8 players.
pub(super) fn setup_multisnake(args: &Args, seed: u64) -> anyhow::Result<(Multisnake, StdioTable)> {
    let kind = GameKind::Multisnake;
    refuse_flag(args.profile.is_some(), "--profile", kind, "snakebattle")?;
    refuse_flag(args.ruleset.is_some(), "--ruleset", kind, "battlesnake")?;
    refuse_flag(args.width.is_some() || args.height.is_some(), "--width/--height", kind, "battlesnake and carrots")?;
    let settings = multisnake::Settings::from_pairs(pairs(args)).map_err(|e| BadInput(format!("invalid settings: {e}")))?;
    let seats = args.bots.len();
    let map = match &args.map {
        Some(path) => Map::parse(&input::read_text(path)?).with_context(|| path.display().to_string())?,
        None => {
            let name = match seats {
                2 => "duo-40x20",
                4 => "quad-32x32",
                8 => "octo-48x48",
                n => return Err(BadInput(format!("multisnake has 2, 4 or 8 players, not {n}")).into()),
            };
            multisnake::builtin_map(name).expect("the built-in maps parse")
        }
    };
    if map.players() != seats {
        return Err(BadInput(format!("cannot start the game: {seats} players, but the map has {} snakes", map.players())).into());
    }
    Ok((Multisnake::new(settings, map, seed), StdioTable::new(kind, args, seed)?))
}

/// The players of a stdio game: process bots, and built-in random movers
/// with their own random streams.
pub(super) struct StdioTable {
    seats: StdioSeats,
    builtins: Vec<Option<Rng>>,
    labels: Vec<String>,
    /// The seat reports of the tick being played, kept for `observe`.
    last: Vec<SeatTick>,
    faults: Vec<u32>,
    bot_stderr: bool,
    /// The owners' log next to the replay, if one is written.
    log: Option<std::io::BufWriter<std::fs::File>>,
}

impl StdioTable {
    fn new(kind: GameKind, args: &Args, seed: u64) -> anyhow::Result<StdioTable> {
        let settings = MatchSettings::for_game(kind.name());
        let mut seats = Vec::new();
        let mut builtins = Vec::new();
        for (seat, spec) in args.bots.iter().enumerate() {
            match spec {
                BotSpec::Builtin(name) if name == "random" => {
                    seats.push(None);
                    builtins.push(Some(Rng::new(bot_seed(seed, seat))));
                }
                BotSpec::Builtin(name) => {
                    return Err(BadInput(format!("{} has no built-in bot {name:?} (built-in bots: random)", kind.name())).into());
                }
                BotSpec::Http(url) => return Err(BadInput(format!("{url}: HTTP snakes play battlesnake, not {}", kind.name())).into()),
                BotSpec::Process { line, json } => {
                    let command = BotCommand::from_command_line(line, &settings.limits.system_paths_read_only)
                        .map_err(|e| BadInput(format!("--bot {line:?}: {e}")))?;
                    let wire = if *json { Wire::Json } else { Wire::Text };
                    seats.push(Some(Seat { label: spec.to_string(), command, wire }));
                    builtins.push(None);
                }
            }
        }
        if seats.iter().any(Option::is_some) {
            // Say once which sandbox layers hold on this machine.
            eprint!("{}", SandboxReport::cached());
        }
        let log = match &args.replay {
            Some(path) if seats.iter().any(Option::is_some) => {
                let mut name = path.clone().into_os_string();
                name.push(".stderr.jsonl");
                let file = std::fs::File::create(&name)
                    .map_err(|e| BadInput(format!("{}: cannot create the stderr log: {e}", name.to_string_lossy())))?;
                Some(std::io::BufWriter::new(file))
            }
            _ => None,
        };
        Ok(StdioTable {
            log,
            seats: StdioSeats::new(seats, settings),
            builtins,
            labels: args.bots.iter().map(ToString::to_string).collect(),
            last: Vec::new(),
            faults: vec![0; args.bots.len()],
            bot_stderr: args.bot_stderr,
        })
    }

    /// Prints this tick's faults, and the bots' stderr with `--bot-stderr`;
    /// logs both next to the replay.
    fn report(&mut self, tick: u64) -> std::io::Result<()> {
        for (seat, r) in self.last.iter().enumerate() {
            let fault = match &r.outcome {
                SeatOutcome::Failed(fault) => Some(fault.to_string()),
                _ => None,
            };
            if let Some(fault) = &fault {
                self.faults[seat] += 1;
                eprintln!("tick {tick}: seat {seat} ({}) forfeits: {fault}", self.labels[seat]);
            }
            if let Some(log) = &mut self.log
                && (fault.is_some() || !r.stderr.lines.is_empty() || r.stderr.dropped_lines > 0)
            {
                let line = serde_json::json!({
                    "t": tick,
                    "seat": seat,
                    "stderr": r.stderr.lines,
                    "dropped": r.stderr.dropped_lines,
                    "fault": fault,
                });
                std::io::Write::write_all(log, format!("{line}\n").as_bytes())?;
            }
            if self.bot_stderr {
                for line in &r.stderr.lines {
                    eprintln!("[seat {seat}] {line}");
                }
                if r.stderr.dropped_lines > 0 {
                    eprintln!("[seat {seat}] ({} stderr lines dropped)", r.stderr.dropped_lines);
                }
            }
        }
        Ok(())
    }
}

/// What a stdio game offers the CLI beyond the protocol: the moves that
/// do not kill at once (for the built-in random mover), and its result.
pub(crate) trait StdioPlay: StdioGame + crate::view::TerminalView {
    /// The directions from `seat`'s head to a cell that is free now;
    /// empty when the seat is not playing.
    fn safe_dirs(&self, seat: usize) -> Vec<Dir>;
    /// One line per seat after the scores: alive or dead, place, winner.
    fn standing(&self, seat: usize) -> String;
    /// The game's result in one line.
    fn result(&self) -> String;
}

impl<G: StdioPlay> Table<G> for StdioTable {
    async fn actions(&mut self, game: &G, out: &mut Vec<G::Action>) -> anyhow::Result<()> {
        let (actions, reports) = self.seats.decide(game).await;
        out.extend(actions);
        for (seat, rng) in self.builtins.iter_mut().enumerate() {
            let Some(rng) = rng else { continue };
            let safe = game.safe_dirs(seat);
            if !safe.is_empty() {
                out[seat] = G::action_for(safe[rng.index(safe.len())]);
            } else if !game.is_finished() {
                out[seat] = G::action_for(Dir::Up);
            }
        }
        self.last = reports;
        Ok(())
    }

    fn observe(&mut self, game: &G, _events: &[G::Event]) {
        self.seats.after_step(game, &mut self.last);
        if let Err(e) = self.report(game.tick()) {
            // Losing the owners' log must not stop the game; say it once.
            if self.log.take().is_some() {
                eprintln!("cannot write the stderr log: {e}");
            }
        }
    }

    fn is_over(&self, game: &G) -> bool {
        game.is_finished()
    }

    async fn end(&mut self, _game: &G) {
        self.seats.stop();
        if let Some(mut log) = self.log.take()
            && let Err(e) = std::io::Write::flush(&mut log)
        {
            eprintln!("cannot write the stderr log: {e}");
        }
    }

    fn summary(&self, game: &G, players: &[String]) -> String {
        let width = players.iter().map(|p| p.chars().count()).max().unwrap_or(0).max(3);
        let mut table = format!("{}\n{:>4}  {:<width$}  {:>6}  {:>8}  state\n", game.result(), "seat", "bot", "score", "forfeits");
        for (seat, score) in game.scores().iter().enumerate() {
            let _ = writeln!(
                table,
                "{seat:>4}  {:<width$}  {score:>6}  {:>8}  {}",
                players[seat],
                self.faults[seat],
                game.standing(seat)
            );
        }
        table
    }
}

impl StdioPlay for Carrots {
    fn safe_dirs(&self, seat: usize) -> Vec<Dir> {
        let Some(head) = self.snakes().get(seat).filter(|s| s.is_alive()).and_then(|s| s.head()) else {
            return Vec::new();
        };
        Dir::ALL.into_iter().filter(|&d| self.index(head.step(d)).is_some() && !self.is_snake(head.step(d))).collect()
    }

    fn standing(&self, seat: usize) -> String {
        let s = &self.snakes()[seat];
        match s.life {
            carrots::Life::Alive => format!("alive, length {}", s.len()),
            carrots::Life::Dead { tick } => format!("dead since tick {tick}"),
            carrots::Life::Waiting => "waiting to respawn".to_string(),
            carrots::Life::Absent => "absent".to_string(),
        }
    }

    fn result(&self) -> String {
        "carrots never ends; the score is the longest length reached".to_string()
    }
}

impl StdioPlay for Duel {
    fn safe_dirs(&self, seat: usize) -> Vec<Dir> {
        let Some(me) = self.snakes().get(seat).filter(|s| s.alive && !self.is_over()) else {
            return Vec::new();
        };
        let occupied = |p: Pos| self.snakes().iter().any(|s| s.body.contains(&p));
        let head = me.head();
        Dir::ALL
            .into_iter()
            .filter(|&d| {
                let p = head.step(d);
                self.map().contains(p) && !self.map().is_wall(p) && !occupied(p)
            })
            .collect()
    }

    fn standing(&self, seat: usize) -> String {
        let s = &self.snakes()[seat];
        format!("{}, length {}", if s.alive { "alive" } else { "dead" }, s.len())
    }

    fn result(&self) -> String {
        match self.outcome() {
            Some((duel::Outcome::Won(seat), why)) => format!("seat {seat} wins ({why:?})"),
            Some((duel::Outcome::Draw, why)) => format!("draw ({why:?})"),
            None => format!("not over after {} rounds", self.round()),
        }
    }
}

impl StdioPlay for Multisnake {
    fn safe_dirs(&self, seat: usize) -> Vec<Dir> {
        let Some(me) = self.snakes().get(seat).filter(|s| s.alive && !self.is_over()) else {
            return Vec::new();
        };
        let grid = self.grid();
        let occupied = |p: Pos| self.snakes().iter().any(|s| s.body.contains(&p));
        Dir::ALL
            .into_iter()
            .filter(|&d| {
                let p = grid.step(me.head(), d);
                self.tiles()[grid.index(p)] != Tile::Wall && !occupied(p)
            })
            .collect()
    }

    fn standing(&self, seat: usize) -> String {
        let s = &self.snakes()[seat];
        let place = self.places()[seat];
        match s.died {
            Some(turn) => format!("place {place}, died in turn {turn}"),
            None => format!("place {place}, alive, length {}", s.len()),
        }
    }

    fn result(&self) -> String {
        match self.outcome() {
            Some(end) => format!("winners {:?} ({:?})", end.winners, end.reason),
            None => format!("not over after {} turns", self.turn()),
        }
    }
}
