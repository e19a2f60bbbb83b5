//! SnakeBattle at `play`: built-in bots answering `board=` strings, and
//! process bots ([`ProcessSeats`]) reading the same `board=` message on
//! stdin (or the JSON line with `json:`) and answering a Codenjoy command,
//! in one game. A process bot that fails gives no command that tick: its
//! snake keeps its direction, as a WebSocket bot that does not answer.

use super::process::ProcessSeats;
use super::{GameFlags, GameKind, RunOptions, Table, refuse_flag};
use crate::bot_spec::{BotSpec, bot_seed};
use crate::exit::BadInput;
use crate::input;
use anyhow::Context;
use snakepit_bots::builtin::{self, SnakeBot};
use snakepit_engine::Game;
use snakepit_engine::snakebattle::{Action, Death, Event, Map, Settings, SnakeBattle};
use snakepit_protocol::codenjoy::{message, parse_action, render_boards};
use std::path::Path;

/// The game and its table, from the command line.
pub(super) fn setup(flags: &GameFlags, bots: &[BotSpec], seed: u64) -> anyhow::Result<(SnakeBattle, SnakebattleTable)> {
    let game_kind = GameKind::Snakebattle;
    refuse_flag(flags.ruleset.is_some(), "--ruleset", game_kind, "battlesnake")?;
    refuse_flag(flags.width.is_some() || flags.height.is_some(), "--width/--height", game_kind, "battlesnake and carrots")?;
    let profile = flags.profile.as_deref().map(|p| ("profile", p));
    let pairs = profile.into_iter().chain(flags.set.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let settings = Settings::from_pairs(pairs).map_err(|e| super::invalid_settings(e, &Settings::default().to_pairs()))?;
    let map = match &flags.map {
        Some(path) => load_map(path)?,
        None => Map::default_map(),
    };
    // A field holds players_per_field snakes (the CodeBattle description's
    // five), as the server's rooms do.
    if bots.len() > settings.players_per_field as usize {
        return Err(BadInput(format!(
            "{} bots, but a snakebattle field holds {} (players_per_field; --set players_per_field=N for more)",
            bots.len(),
            settings.players_per_field
        ))
        .into());
    }
    let game = SnakeBattle::new(settings, map, bots.len(), seed).context("cannot start the game")?;
    Ok((game, table(flags, bots, seed)?))
}

/// The players of a game with this seed.
pub(super) fn table(flags: &GameFlags, specs: &[BotSpec], seed: u64) -> anyhow::Result<SnakebattleTable> {
    let bots = specs
        .iter()
        .enumerate()
        .map(|(seat, spec)| match spec {
            BotSpec::Builtin(name) => builtin::by_name(name, bot_seed(seed, seat)).map(Some).ok_or_else(|| {
                BadInput(format!("snakebattle has no built-in bot {name:?} (built-in bots: {})", builtin::NAMES.join(", ")))
            }),
            BotSpec::Http(url) => Err(BadInput(format!("{url}: HTTP snakes play battlesnake, not snakebattle"))),
            BotSpec::Process { .. } => Ok(None),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(SnakebattleTable {
        tally: vec![SeatTally::default(); bots.len()],
        process: ProcessSeats::for_flags(flags, specs)?,
        bots,
    })
}

/// Reads a map file; defects come back as `FILE: line N: problem`.
fn load_map(path: &Path) -> anyhow::Result<Map> {
    let text = input::read_text(path)?;
    Map::parse(&text).with_context(|| path.display().to_string())
}

/// The bots of a SnakeBattle game and the counts the engine does not keep.
pub(super) struct SnakebattleTable {
    /// By seat; `None` for a process seat.
    bots: Vec<Option<Box<dyn SnakeBot>>>,
    process: ProcessSeats,
    tally: Vec<SeatTally>,
}

impl Table<SnakeBattle> for SnakebattleTable {
    fn take_fault_lines(&mut self) -> Vec<String> {
        self.process.take_fault_lines()
    }

    fn echo(&mut self, options: &RunOptions) {
        self.process.echo(options);
    }

    async fn follow(&mut self, game: &SnakeBattle) {
        // The bots read the same boards and keep whatever they keep.
        for (bot, board) in self.bots.iter_mut().zip(render_boards(game)) {
            if let Some(bot) = bot {
                bot.answer(&message(&board));
            }
        }
    }

    async fn actions(&mut self, game: &SnakeBattle, out: &mut Vec<Action>) -> anyhow::Result<()> {
        out.extend(self.process.decide(game).await);
        let rule = game.settings().commands;
        for (seat, (bot, board)) in self.bots.iter_mut().zip(render_boards(game)).enumerate() {
            if let Some(bot) = bot {
                let answer = bot.answer(&message(&board));
                tracing::trace!(tick = game.tick() + 1, seat, answer, "bot answered");
                out[seat] = parse_action(&answer, rule);
            }
        }
        Ok(())
    }

    async fn observe(&mut self, game: &SnakeBattle, events: &[Event]) {
        count(&mut self.tally, events);
        self.process.observe(game);
    }

    async fn end(&mut self, _game: &SnakeBattle) {
        self.process.stop();
    }

    fn forfeits(&self, _game: &SnakeBattle) -> Vec<u32> {
        self.process.faults().to_vec()
    }

    fn take_log(&mut self) -> String {
        self.process.take_log()
    }

    fn busy_start(&self) -> bool {
        self.process.busy_start()
    }

    fn summary(&self, game: &SnakeBattle, players: &[String]) -> String {
        let forfeits = self.process.any().then(|| self.process.faults());
        score_table(game, players, &self.tally, forfeits)
    }
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

/// The result table; with process seats, a last column counts each seat's
/// forfeits.
fn score_table(game: &SnakeBattle, players: &[String], tally: &[SeatTally], forfeits: Option<&[u32]>) -> String {
    let width = players.iter().map(|p| p.chars().count()).max().unwrap_or(0).max(3);
    let mut table = format!("{:>4}  {:<width$}  {:>6}  {:>6}  {:>6}  {:>5}", "seat", "bot", "score", "length", "deaths", "kills");
    if forfeits.is_some() {
        table.push_str("  forfeits");
    }
    table.push('\n');
    for (seat, snake) in game.snakes().iter().enumerate() {
        let length = if snake.alive { snake.len() } else { 0 };
        let t = &tally[seat];
        table.push_str(&format!(
            "{seat:>4}  {:<width$}  {:>6}  {length:>6}  {:>6}  {:>5}",
            players[seat], snake.score, t.deaths, t.kills
        ));
        if let Some(f) = forfeits {
            table.push_str(&format!("  {:>8}", f[seat]));
        }
        table.push('\n');
    }
    table
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
}
