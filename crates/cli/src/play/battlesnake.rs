//! Battlesnake at `play`: built-in snakes, HTTP snakes over the official
//! API, and process bots ([`ProcessSeats`]), in one game.
//!
//! Every turn each live snake gets its own `/move` request body; HTTP
//! snakes are asked all at once, each within `--timeout-ms` round trip
//! included. A built-in snake decides in-process from the game's state,
//! making the move it would make for its request (see
//! `snakepit_bots::bsbots`), with no request built for it. A
//! process bot reads the same body as one line on stdin (or the JSON line
//! with `json:`) and answers `{"move":"up"}` on stdout, within the
//! `game.timeout` its request states (`--timeout-ms`; the first move gets
//! 10 s more, for the process to start). Its names,
//! latencies and shouts in the requests are the table's, as for the other
//! snakes; it gets no `/start` or `/end`. The process bots are asked
//! before the HTTP snakes (a process runner on this thread's runtime waits
//! for its answers in one blocking poll), each snake within its own
//! deadline. A snake that does not answer in
//! time, answers an error, or answers something that is not a move, gets
//! no move for that turn: the rules repeat its last move, and the replay
//! records "-" so that the rules, not this loop, decide again when it is
//! re-simulated.
//!
//! A snake that cannot be reached before the game (`GET /` fails) stops
//! it at `play`; in a tournament (`RunOptions::forfeit_unjoined`) the game
//! is played without it instead: the fault goes to the stderr log at the
//! first tick, and the snake is never asked, so it gives no move in any
//! turn and the rules move it on until it is out.

use super::process::ProcessSeats;
use super::{GameFlags, GameKind, RunOptions, Table, places_by, refuse_flag};
use crate::bot_spec::{BotSpec, bot_seed};
use crate::exit::BadInput;
use futures_util::future::join_all;
use snakepit_bots::bsbots::{self, BattlesnakeBot};
use snakepit_bots::http::{FaultKind, HttpSnake};
use snakepit_bots::stdio_match::SeatOutcome;
use snakepit_engine::Game;
use snakepit_engine::battlesnake::{Action, Battlesnake, RawSettings};
use snakepit_protocol::battlesnake::{GameMeta, parse_move, requests};
use snakepit_protocol::stdio;
use std::cell::RefCell;
use std::fmt::Write;
use std::time::Duration;

/// The game and its table, from the command line.
pub(super) fn setup(flags: &GameFlags, bots: &[BotSpec], seed: u64) -> anyhow::Result<(Battlesnake, BattlesnakeTable)> {
    let kind = GameKind::Battlesnake;
    refuse_flag(flags.profile.is_some(), "--profile", kind, "snakebattle")?;
    refuse_flag(flags.map.is_some(), "--map", kind, "snakebattle, hex, duel and multisnake")?;
    let mut raw = RawSettings::default();
    if let Some(r) = &flags.ruleset {
        raw.set("name", r);
    }
    if let Some(w) = flags.width {
        raw.set("width", &w.to_string());
    }
    if let Some(h) = flags.height {
        raw.set("height", &h.to_string());
    }
    for (k, v) in &flags.set {
        raw.set(k, v);
    }
    let settings = raw.validate().map_err(|e| BadInput(format!("invalid settings: {e}")))?;
    let game = Battlesnake::new(settings, bots.len(), seed).map_err(|e| BadInput(format!("cannot start the game: {e}")))?;
    Ok((game, table(flags, bots, seed)?))
}

/// The snakes of a game with this seed.
pub(super) fn table(flags: &GameFlags, bots: &[BotSpec], seed: u64) -> anyhow::Result<BattlesnakeTable> {
    let timeout_ms = flags.move_deadline()?.map_or(snakepit_bots::http::MOVE_TIMEOUT_MS_DEFAULT, |d| d.as_millis() as u64);
    let seats = bots
        .iter()
        .enumerate()
        .map(|(seat, spec)| match spec {
            BotSpec::Builtin(name) => bsbots::by_name(name, bot_seed(seed, seat)).map(Seat::Builtin).ok_or_else(|| {
                BadInput(format!("battlesnake has no built-in snake {name:?} (built-in snakes: {})", bsbots::NAMES.join(", ")))
            }),
            BotSpec::Http(url) => HttpSnake::new(url).map(|h| Seat::Http(Box::new(h))).map_err(|e| BadInput(e.to_string())),
            BotSpec::Process { .. } => Ok(Seat::Process),
        })
        .collect::<Result<Vec<_>, _>>()?;
    // What the API tells the HTTP snakes and process bots about the
    // snakes, with what they are told of the built-in ones. A game of
    // built-in snakes alone tells no one and has none: nothing reads it
    // when no seat is asked (a tournament sets up a table a game).
    let builtin_only = seats.iter().all(|s| matches!(s, Seat::Builtin(_)));
    let meta = if builtin_only {
        GameMeta { id: String::new(), timeout_ms, source: String::new(), snakes: Vec::new() }
    } else {
        let names: Vec<String> = bots.iter().map(ToString::to_string).collect();
        let mut meta = GameMeta::new(&format!("snakepit-{seed:016x}"), timeout_ms, &names);
        for (seat, s) in seats.iter().enumerate() {
            if let Seat::Builtin(bot) = s {
                meta.snakes[seat].customizations = bot.info().customizations();
            }
        }
        meta
    };
    Ok(BattlesnakeTable {
        no_move: vec![0; seats.len()],
        forfeit_unjoined: false,
        unjoined: vec![false; seats.len()],
        process: ProcessSeats::with_move_deadline(GameKind::Battlesnake, bots, Duration::from_millis(timeout_ms))?,
        seats,
        view: SPARE_VIEWS.with_borrow_mut(Vec::pop).unwrap_or_default(),
        meta,
        builtin_only,
        timeout: Duration::from_millis(timeout_ms),
    })
}

thread_local! {
    /// Views of this thread's finished games, for its next ones: a view
    /// makes its table of moves once per board and grows its buffers once,
    /// where a tournament's worker plays game after game on one board.
    static SPARE_VIEWS: RefCell<Vec<bsbots::View>> = const { RefCell::new(Vec::new()) };
}

/// Views [`SPARE_VIEWS`] keeps at most: a thread plays one game at a time.
const SPARE_VIEWS_MAX: usize = 2;

impl Drop for BattlesnakeTable {
    fn drop(&mut self) {
        let view = std::mem::take(&mut self.view);
        SPARE_VIEWS.with_borrow_mut(|spare| {
            if spare.len() < SPARE_VIEWS_MAX {
                spare.push(view);
            }
        });
    }
}

/// Who plays a seat.
enum Seat {
    /// A built-in snake, answering in-process.
    Builtin(Box<dyn BattlesnakeBot>),
    /// A snake behind a URL.
    Http(Box<HttpSnake>),
    /// A process bot, asked through the table's [`ProcessSeats`].
    Process,
}

/// The snakes of a Battlesnake game and what the API tells them about one
/// another.
pub(super) struct BattlesnakeTable {
    seats: Vec<Seat>,
    /// The game as the built-in snakes see it, read once a turn.
    view: bsbots::View,
    process: ProcessSeats,
    meta: GameMeta,
    /// Every seat is a built-in snake.
    builtin_only: bool,
    timeout: Duration,
    /// Turns in which a seat gave no usable move.
    no_move: Vec<u32>,
    /// See `RunOptions::forfeit_unjoined`.
    forfeit_unjoined: bool,
    /// Seats whose snake could not join: never asked in this game.
    unjoined: Vec<bool>,
}

impl BattlesnakeTable {
    /// Sends `/start` or `/end` to every HTTP snake at once; failures are
    /// logged and do not stop anything.
    async fn notify(&mut self, game: &Battlesnake, endpoint: &'static str) {
        if !self.seats.iter().any(|s| matches!(s, Seat::Http(_))) {
            // No request to build: a game of built-in snakes and processes.
            return;
        }
        let bodies: Vec<String> = requests(game, &self.meta).iter().map(|r| r.to_json()).collect();
        let timeout = self.timeout;
        let unjoined = &self.unjoined;
        let calls = self.seats.iter_mut().enumerate().filter_map(|(seat, s)| match s {
            Seat::Http(_) if unjoined[seat] => None,
            Seat::Http(h) => {
                let body = &bodies[seat];
                Some(async move {
                    let r = if endpoint == "start" { h.start(body, timeout).await } else { h.end(body, timeout).await };
                    (seat, h.url().to_string(), r)
                })
            }
            Seat::Builtin(_) | Seat::Process => None,
        });
        for (seat, url, r) in join_all(calls).await {
            if let Err(e) = r {
                tracing::warn!(seat, %url, endpoint, error = %e, "snake request failed");
            }
        }
    }

    /// Asks the process seats for this turn's moves, each reading its
    /// request body with the table's metadata as one line (in the text
    /// format), into `out`; keeps their latencies and shouts for the next
    /// requests, as for HTTP snakes.
    async fn ask_processes(&mut self, game: &Battlesnake, out: &mut [Action]) {
        let asked = stdio::battlesnake::inputs_with(game, &self.meta);
        let actions = self.process.decide_with(game, asked).await;
        for (seat, report) in self.process.last().iter().enumerate() {
            let meta = &mut self.meta.snakes[seat];
            match &report.outcome {
                SeatOutcome::Idle => continue,
                SeatOutcome::Answered { line, elapsed } => {
                    meta.latency_ms = elapsed.as_millis() as u64;
                    meta.shout = parse_move(line.as_bytes()).ok().and_then(|a| a.shout).unwrap_or_default();
                }
                SeatOutcome::Failed(_) => {
                    // As the API says of a snake that did not answer in time.
                    meta.latency_ms = self.meta.timeout_ms;
                    meta.shout.clear();
                }
            }
            out[seat] = actions[seat];
        }
    }
}

impl Table<Battlesnake> for BattlesnakeTable {
    fn take_fault_lines(&mut self) -> Vec<String> {
        self.process.take_fault_lines()
    }

    fn echo(&mut self, options: &RunOptions) {
        self.process.echo(options);
        self.forfeit_unjoined = options.forfeit_unjoined;
    }

    /// `GET /` for every HTTP snake (a snake that cannot be reached at all
    /// stops the game before it starts, or with `forfeit_unjoined` sits it
    /// out), then `/start`.
    async fn start(&mut self, game: &Battlesnake) -> anyhow::Result<()> {
        let timeout = self.timeout;
        let calls = self.seats.iter_mut().enumerate().filter_map(|(seat, s)| match s {
            Seat::Http(h) => Some(async move { (seat, h.url().to_string(), h.info(timeout).await) }),
            Seat::Builtin(_) | Seat::Process => None,
        });
        for (seat, url, r) in join_all(calls).await {
            match r {
                Ok(info) => self.meta.snakes[seat].customizations = info.customizations(),
                Err(e) if self.forfeit_unjoined => {
                    self.unjoined[seat] = true;
                    // As the API says of a snake that did not answer in time.
                    self.meta.snakes[seat].latency_ms = self.meta.timeout_ms;
                    let label = self.meta.snakes[seat].name.clone();
                    let fault = format!("could not join: {e}; it gives no move in this game");
                    self.process.note_fault(game.turn() + 1, seat, &label, &fault);
                }
                Err(e) => return Err(anyhow::anyhow!("seat {seat} ({url}): cannot join: {e}")),
            }
        }
        self.notify(game, "start").await;
        Ok(())
    }

    async fn follow(&mut self, game: &Battlesnake) {
        self.view.read(game);
        for (seat, s) in self.seats.iter_mut().enumerate() {
            if let Seat::Builtin(bot) = s
                && game.snakes()[seat].is_alive()
            {
                // Built-in snakes never shout: only their state moves on.
                bot.choose_on(&mut self.view, seat);
            }
        }
    }

    async fn actions(&mut self, game: &Battlesnake, out: &mut Vec<Action>) -> anyhow::Result<()> {
        out.resize(self.seats.len(), None);
        if self.builtin_only {
            // Nobody to ask and nothing to wait for: every live snake
            // moves (a tournament of built-in snakes plays every turn of
            // every game here).
            self.view.read(game);
            for (seat, s) in self.seats.iter_mut().enumerate() {
                if let Seat::Builtin(bot) = s
                    && game.snakes()[seat].is_alive()
                {
                    out[seat] = Some(bot.choose_on(&mut self.view, seat));
                }
            }
            return Ok(());
        }
        if self.process.any() {
            self.ask_processes(game, out).await;
        }
        // Requests only for HTTP snakes: built-in snakes read the game.
        let asks_http = self.seats.iter().enumerate().any(|(seat, s)| matches!(s, Seat::Http(_)) && !self.unjoined[seat]);
        let reqs = if asks_http { requests(game, &self.meta) } else { Vec::new() };
        if self.seats.iter().any(|s| matches!(s, Seat::Builtin(_))) {
            self.view.read(game);
        }
        let timeout = self.timeout;
        let mut calls = Vec::new();
        for (seat, s) in self.seats.iter_mut().enumerate() {
            if !game.snakes()[seat].is_alive() {
                continue;
            }
            match s {
                Seat::Builtin(bot) => out[seat] = Some(bot.choose_on(&mut self.view, seat)),
                Seat::Http(_) if self.unjoined[seat] => {}
                Seat::Http(h) => {
                    let body = reqs[seat].to_json();
                    calls.push(async move { (seat, h.request_move(&body, timeout).await) });
                }
                Seat::Process => {}
            }
        }
        // Built-in snakes alone: nothing to wait for.
        let answers = if calls.is_empty() { Vec::new() } else { join_all(calls).await };
        for (seat, outcome) in answers {
            self.meta.snakes[seat].latency_ms = outcome.latency.as_millis() as u64;
            match outcome.result {
                Ok(a) => {
                    out[seat] = Some(a.dir);
                    self.meta.snakes[seat].shout = a.shout.unwrap_or_default();
                }
                Err(e) => {
                    let label = self.meta.snakes[seat].name.clone();
                    let fault = format!("{e}; the rules repeat its last move");
                    self.process.note_fault(game.turn() + 1, seat, &label, &fault);
                    self.meta.snakes[seat].shout.clear();
                }
            }
        }
        for ((action, snake), no_move) in out.iter().zip(game.snakes()).zip(&mut self.no_move) {
            if snake.is_alive() && action.is_none() {
                *no_move += 1;
            }
        }
        Ok(())
    }

    /// The winner first; then a snake still in the game, then one
    /// eliminated later, does better.
    fn places(&self, game: &Battlesnake) -> Vec<usize> {
        let keys: Vec<(u8, u64)> = game
            .snakes()
            .iter()
            .enumerate()
            .map(|(seat, s)| match s.eliminated {
                _ if game.winner() == Some(seat) => (2, 0),
                None => (1, 0),
                Some(e) => (0, e.turn),
            })
            .collect();
        places_by(&keys)
    }

    fn forfeits(&self, _game: &Battlesnake) -> Vec<u32> {
        self.no_move.clone()
    }

    async fn observe(&mut self, game: &Battlesnake, _events: &[snakepit_engine::battlesnake::Event]) {
        self.process.observe(game);
    }

    async fn end(&mut self, game: &Battlesnake) {
        self.process.stop();
        self.notify(game, "end").await;
    }

    fn take_log(&mut self) -> String {
        self.process.take_log()
    }

    fn busy_start(&self) -> bool {
        self.process.busy_start()
    }

    fn summary(&self, game: &Battlesnake, players: &[String]) -> String {
        let mut out = String::new();
        let result = if !game.is_over() {
            format!("unfinished after {} turns", game.turn())
        } else if let Some(w) = game.winner() {
            format!("winner: seat {w} ({})", players[w])
        } else if game.seats() == 1 {
            format!("solo: survived {} turns", game.scores()[0])
        } else {
            "draw: no snake left".to_string()
        };
        writeln!(out, "{} on {}x{}, {result}", game.settings().ruleset(), game.width(), game.height()).ok();
        let width = players.iter().map(|p| p.chars().count()).max().unwrap_or(0).max(3);
        writeln!(
            out,
            "{:>4}  {:<width$}  {:<32}  {:>6}  {:>6}  {:>7}  {:>13}  faults",
            "seat", "bot", "result", "length", "health", "no-move", "latency ms"
        )
        .ok();
        let scores = game.scores();
        for (seat, s) in game.snakes().iter().enumerate() {
            let result = match s.eliminated {
                None if game.winner() == Some(seat) => "winner".to_string(),
                None => format!("alive, {} turns", scores[seat]),
                Some(e) => match e.cause.by() {
                    Some(by) => format!("out turn {}: {} by {by}", e.turn, e.cause.official_name()),
                    None => format!("out turn {}: {}", e.turn, e.cause.official_name()),
                },
            };
            let (latency, faults) = match &self.seats[seat] {
                Seat::Builtin(_) => ("-".to_string(), "-".to_string()),
                Seat::Process => ("-".to_string(), format!("{} forfeits", self.process.faults()[seat])),
                Seat::Http(h) => {
                    let st = h.stats();
                    let faults: Vec<String> = FaultKind::ALL
                        .iter()
                        .filter(|&&k| st.faults_of(k) > 0)
                        .map(|&k| format!("{} {}", k.name(), st.faults_of(k)))
                        .collect();
                    let faults = if faults.is_empty() { "0".to_string() } else { faults.join(", ") };
                    (
                        format!("{:.1}/{}", st.latency_ms_mean(), st.latency_ms_max),
                        if self.unjoined[seat] { format!("could not join ({faults})") } else { faults },
                    )
                }
            };
            writeln!(
                out,
                "{seat:>4}  {:<width$}  {result:<32}  {:>6}  {:>6}  {:>7}  {latency:>13}  {faults}",
                players[seat], s.len, s.health, self.no_move[seat]
            )
            .ok();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use snakepit_engine::Dir;
    use snakepit_engine::battlesnake::{Event, Settings};

    /// The move the rules chose for a seat that gave none.
    fn defaulted(events: &[Event], seat: usize) -> Option<Dir> {
        events.iter().find_map(|e| match e {
            Event::DefaultMove { snake, dir } if *snake == seat => Some(*dir),
            _ => None,
        })
    }

    #[test]
    fn builtin_snakes_play_whole_games_through_the_api() {
        for seed in 0..20 {
            let mut game = Battlesnake::new(Settings::default(), 4, seed).unwrap();
            let mut bots: Vec<Box<dyn BattlesnakeBot>> =
                (0..4).map(|i| bsbots::by_name(["random", "greedy"][i % 2], bot_seed(seed, i)).unwrap()).collect();
            let meta = GameMeta::new("t", 500, &["a".into(), "b".into(), "c".into(), "d".into()]);
            while !game.is_over() && game.turn() < 2000 {
                let reqs = requests(&game, &meta);
                let actions: Vec<Action> = bots
                    .iter_mut()
                    .enumerate()
                    .map(|(i, b)| parse_move(&serde_json::to_vec(&b.choose(&reqs[i])).unwrap()).ok().map(|a| a.dir))
                    .collect();
                let events = game.step(&actions);
                for seat in 0..4 {
                    assert_eq!(defaulted(&events, seat), None, "seed {seed}: built-in answers are always moves");
                }
            }
            assert!(game.is_over(), "seed {seed}");
        }
    }
}
