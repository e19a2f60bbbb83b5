//! Codenjoy Hex at `play`: built-in bots answering `board=` strings, and
//! process bots ([`ProcessSeats`]) reading the same `board=` message on
//! stdin (or the JSON line with `json:`) and answering `ACT(x,y),DIR`, in
//! one game of a fixed number of seats, all present from the start (a
//! room's joins and leaves are not played here). Hex never ends by its own
//! rules (a player without pieces restarts everyone, scores kept), so a
//! game lasts `--ticks`. A process bot that fails makes no move that tick.

use super::process::ProcessSeats;
use super::{GameFlags, GameKind, RunOptions, Table, refuse_flag};
use crate::bot_spec::{BotSpec, bot_seed};
use crate::exit::BadInput;
use crate::input;
use snakepit_bots::hexbots::{self, HexBot};
use snakepit_engine::hex::{Action, Hex, Map, Settings};
use snakepit_protocol::hex::{message, read_command, render_boards};
use std::fmt::Write;

/// The game and its table, from the command line: `--profile` (`seed` or
/// `codenjoy`), `--set`, `--map FILE` drawn in the game's glyphs.
pub(super) fn setup(flags: &GameFlags, bots: &[BotSpec], seed: u64) -> anyhow::Result<(Hex, HexTable)> {
    let kind = GameKind::Hex;
    refuse_flag(flags.ruleset.is_some(), "--ruleset", kind, "battlesnake")?;
    refuse_flag(flags.width.is_some() || flags.height.is_some(), "--width/--height", kind, "battlesnake and carrots")?;
    let profile = flags.profile.as_deref().map(|p| ("profile", p));
    let pairs = profile.into_iter().chain(flags.set.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let settings = Settings::from_pairs(pairs).map_err(|e| super::invalid_settings(e, &Settings::default().to_pairs()))?;
    let map = match &flags.map {
        // A defective map is the user's input: exit code 2, with the file.
        Some(path) => Map::parse(&input::read_text(path)?).map_err(|e| BadInput(format!("{}: {e}", path.display())))?,
        None => Map::default_map(),
    };
    let game = Hex::new(settings, map, bots.len(), seed).map_err(|e| BadInput(format!("cannot start the game: {e}")))?;
    Ok((game, table(flags, bots, seed)?))
}

/// The players of a game with this seed.
pub(super) fn table(flags: &GameFlags, specs: &[BotSpec], seed: u64) -> anyhow::Result<HexTable> {
    let bots = specs
        .iter()
        .enumerate()
        .map(|(seat, spec)| match spec {
            BotSpec::Builtin(name) => hexbots::by_name(name, bot_seed(seed, seat)).map(Some).ok_or_else(|| {
                BadInput(format!("hex has no built-in bot {name:?} (built-in bots: {})", hexbots::NAMES.join(", ")))
            }),
            BotSpec::Http(url) => Err(BadInput(format!("{url}: HTTP snakes play battlesnake, not hex"))),
            BotSpec::Process { .. } => Ok(None),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(HexTable { process: ProcessSeats::for_flags(flags, specs)?, bots })
}

/// The players of a Hex game.
pub(super) struct HexTable {
    /// By seat; `None` for a process seat.
    bots: Vec<Option<Box<dyn HexBot>>>,
    process: ProcessSeats,
}

impl Table<Hex> for HexTable {
    fn take_fault_lines(&mut self) -> Vec<String> {
        self.process.take_fault_lines()
    }

    fn echo(&mut self, options: &RunOptions) {
        self.process.echo(options);
    }

    async fn follow(&mut self, game: &Hex) {
        // The bots' random streams move as they did in the recorded game.
        for (bot, board) in self.bots.iter_mut().zip(render_boards(game)) {
            if let Some(bot) = bot {
                bot.answer(&message(&board));
            }
        }
    }

    async fn actions(&mut self, game: &Hex, out: &mut Vec<Action>) -> anyhow::Result<()> {
        out.extend(self.process.decide(game).await);
        for (seat, (bot, board)) in self.bots.iter_mut().zip(render_boards(game)).enumerate() {
            if let Some(bot) = bot {
                // Read as the room reads a WebSocket answer.
                let answer = bot.answer(&message(&board));
                out[seat] = read_command(game, seat, &answer).action;
            }
        }
        Ok(())
    }

    async fn observe(&mut self, game: &Hex, _events: &[snakepit_engine::hex::Event]) {
        self.process.observe(game);
    }

    async fn end(&mut self, _game: &Hex) {
        self.process.stop();
    }

    fn forfeits(&self, _game: &Hex) -> Vec<u32> {
        self.process.faults().to_vec()
    }

    fn take_log(&mut self) -> String {
        self.process.take_log()
    }

    fn busy_start(&self) -> bool {
        self.process.busy_start()
    }

    fn summary(&self, game: &Hex, players: &[String]) -> String {
        let width = players.iter().map(|p| p.chars().count()).max().unwrap_or(0).max(3);
        let mut table = format!("{:>4}  {:<width$}  {:>6}  {:>6}  {:>8}\n", "seat", "bot", "score", "pieces", "forfeits");
        for (seat, p) in game.players().iter().enumerate() {
            let _ = writeln!(
                table,
                "{seat:>4}  {:<width$}  {:>6}  {:>6}  {:>8}",
                players[seat],
                p.score,
                p.pieces,
                self.process.faults()[seat]
            );
        }
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use snakepit_engine::Game;

    /// Plays built-in bots against each other for `ticks` and returns the
    /// scores.
    fn scores(names: &[&str], seed: u64, ticks: u64) -> Vec<i64> {
        let mut game = Hex::new(Settings::default(), Map::default_map(), names.len(), seed).unwrap();
        let mut bots: Vec<Box<dyn HexBot>> =
            names.iter().enumerate().map(|(seat, n)| hexbots::by_name(n, bot_seed(seed, seat)).unwrap()).collect();
        while game.tick() < ticks {
            let actions: Vec<Action> = bots
                .iter_mut()
                .zip(render_boards(&game))
                .enumerate()
                .map(|(seat, (bot, board))| read_command(&game, seat, &bot.answer(&message(&board))).action)
                .collect();
            game.step(&actions);
        }
        game.scores()
    }

    #[test]
    fn builtin_bots_score() {
        let s = scores(&["greedy", "random"], 3, 100);
        assert!(s.iter().any(|&x| x > 0), "{s:?}");
    }
}
