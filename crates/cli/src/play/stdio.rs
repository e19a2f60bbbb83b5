//! The stdin/stdout arenas at `play`: CodeCarrots (`carrots`), KingOfBots
//! (`duel`) and SOI Multisnake (`multisnake`), with process bots in the
//! sandbox ([`ProcessSeats`]: deadlines, faults, stderr log) and built-in
//! random movers.
//!
//! `builtin:random` is a seeded random mover that avoids the cells that
//! kill at once, computed from the engine's state (it is a stand-in for a
//! player, not a protocol test; the starters under `starters/` are those).
//! For the duel, `builtin:greedy` takes, of those moves, the one with the
//! most cells reachable behind it (a flood fill), keeping away from the
//! other head when it can; its random stream breaks ties. The server's
//! rooms of these games fill seats with `greedy` and `safe`; `play` has
//! those too (`greedy` outside the duel, and `safe`), the rooms' own
//! functions reading the JSON line of the seat.

use super::process::ProcessSeats;
use super::{GameFlags, GameKind, RunOptions, Table, invalid_settings, places_by, refuse_flag};
use crate::bot_spec::{BotSpec, bot_seed};
use crate::exit::BadInput;
use crate::input;
use anyhow::Context;
use snakepit_engine::carrots::{self, Carrots};
use snakepit_engine::duel::{self, Duel, DuelMap};
use snakepit_engine::multisnake::{self, Map, Multisnake, Tile};
use snakepit_engine::{Dir, Pos, Rng};
use snakepit_protocol::stdio::{StdioGame, Wire};
use std::fmt::Write;

/// The settings of `--set` (and `--width`/`--height` for carrots).
fn pairs(flags: &GameFlags) -> impl Iterator<Item = (&str, &str)> {
    flags.set.iter().map(|(k, v)| (k.as_str(), v.as_str()))
}

/// CodeCarrots from the command line: `--width`/`--height` or `--set`.
pub(super) fn setup_carrots(args: &GameFlags, bots: &[BotSpec], seed: u64) -> anyhow::Result<(Carrots, StdioTable)> {
    let kind = GameKind::Carrots;
    refuse_flag(args.profile.is_some(), "--profile", kind, "snakebattle")?;
    refuse_flag(args.ruleset.is_some(), "--ruleset", kind, "battlesnake")?;
    refuse_flag(args.map.is_some(), "--map", kind, "snakebattle, hex, duel and multisnake")?;
    let (w, h) = (args.width.map(|w| w.to_string()), args.height.map(|h| h.to_string()));
    let size = w.iter().map(|w| ("width", w.as_str())).chain(h.iter().map(|h| ("height", h.as_str())));
    let settings = carrots::Settings::from_pairs(size.chain(pairs(args))).map_err(|e| invalid_settings(e, &carrots::Settings::default().to_pairs()))?;
    let (width, height) = (settings.width, settings.height);
    let game = Carrots::new(settings, bots.len(), seed).map_err(|e| BadInput(format!("cannot start the game: {e}")))?;
    let defaults = carrots::Settings::default();
    if (width, height) != (defaults.width, defaults.height) && text_bots(bots) {
        // The board comes with no size: a bot written for CodeCarrots
        // waits for rows that never come, and times out.
        eprintln!(
            "note: this board is {width}x{height}; CodeCarrots sends no size, so bots written for it read \
             {} rows of {} (the starters take the size as arguments: `bot.py {width} {height}`; JSON bots, \
             `json:...`, get the size)",
            defaults.height, defaults.width
        );
    }
    let table = StdioTable::new(args, bots, seed)?;
    Ok((game, table))
}

/// Whether a seat is a program that reads the arena's own text format.
fn text_bots(bots: &[BotSpec]) -> bool {
    bots.iter().any(|b| matches!(b, BotSpec::Process { json: false, .. }))
}

/// A duel from the command line: a drawn `--map` or one generated from
/// the seed.
pub(super) fn setup_duel(args: &GameFlags, bots: &[BotSpec], seed: u64) -> anyhow::Result<(Duel, StdioTable)> {
    let kind = GameKind::Duel;
    refuse_flag(args.profile.is_some(), "--profile", kind, "snakebattle")?;
    refuse_flag(args.ruleset.is_some(), "--ruleset", kind, "battlesnake")?;
    refuse_flag(args.width.is_some() || args.height.is_some(), "--width/--height", kind, "battlesnake and carrots")?;
    if bots.len() != 2 {
        return Err(BadInput(format!("a duel has 2 players, not {}", bots.len())).into());
    }
    let settings = duel::Settings::from_pairs(pairs(args)).map_err(|e| invalid_settings(e, &duel::Settings::default().to_pairs()))?;
    let game = match &args.map {
        Some(path) => {
            let map = DuelMap::parse(&input::read_text(path)?).with_context(|| path.display().to_string())?;
            Duel::with_map(settings, map, seed)
        }
        None => Duel::new(settings, seed),
    };
    let (rows, cols) = (game.map().rows(), game.map().cols());
    if (rows, cols) != (13, 14) && text_bots(bots) {
        // The token gives no size: a bot written for KingOfBots would cut
        // the map into rows of 14 and play a board that is not there.
        eprintln!(
            "note: this duel's map is {rows}x{cols}; the KingOfBots input does not give the map's size, \
             so bots written for KingOfBots read it as 13x14 (JSON bots, `json:...`, get the size)"
        );
    }
    Ok((game, StdioTable::new(args, bots, seed)?))
}

/// Multisnake from the command line: `--map FILE`, or the tournament map
/// for 2, 4 or 8 players.
pub(super) fn setup_multisnake(args: &GameFlags, bots: &[BotSpec], seed: u64) -> anyhow::Result<(Multisnake, StdioTable)> {
    let kind = GameKind::Multisnake;
    refuse_flag(args.profile.is_some(), "--profile", kind, "snakebattle")?;
    refuse_flag(args.ruleset.is_some(), "--ruleset", kind, "battlesnake")?;
    refuse_flag(args.width.is_some() || args.height.is_some(), "--width/--height", kind, "battlesnake and carrots")?;
    let settings = multisnake::Settings::from_pairs(pairs(args)).map_err(|e| invalid_settings(e, &multisnake::Settings::default().to_pairs()))?;
    let seats = bots.len();
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
    Ok((Multisnake::new(settings, map, seed), StdioTable::new(args, bots, seed)?))
}

/// A built-in player of a stdio game, with its own random stream.
enum Builtin {
    /// Any move that does not kill at once.
    Random(Rng),
    /// The move with the most room behind it (duel only).
    Greedy(Rng),
    /// A built-in bot of the server's rooms (`safe`, and `greedy` outside
    /// the duel), the very function the rooms call, reading the seat's
    /// JSON line and answering `{"move":...}`.
    Room(snakepit_server::games::BuiltinBot),
}

/// The built-in bots of these games: those of its server rooms
/// (`snakepit_server::arenas::NAMES`), and `random`, which `play` had
/// before. The duel's `greedy` is `play`'s own flood fill, as it was.
fn builtin_names() -> Vec<&'static str> {
    let mut names = vec!["random"];
    names.extend(snakepit_server::arenas::NAMES);
    names
}

/// The rooms' built-in bot `name`, seeded with `seed`. Every arena room
/// makes its bots with the same function, so any room gives them; a
/// one-seat CodeCarrots room is the cheapest to make.
fn room_bot(name: &str, seed: u64) -> Option<snakepit_server::games::BuiltinBot> {
    use snakepit_server::games::RoomGame;
    let game = Carrots::new(carrots::Settings::default(), 1, 0).ok()?;
    snakepit_server::arenas::CarrotsRoom::new(game, seed).builtin(name, seed)
}

impl Builtin {
    /// The bot's action, or `None` when its snake is not playing. Called
    /// once per tick whether or not the answer is used, so that the random
    /// stream is where it would be.
    fn choose<G: StdioPlay>(&mut self, game: &G, seat: usize) -> Option<G::Action> {
        let dir = match self {
            Builtin::Random(rng) => {
                let safe = game.safe_dirs(seat);
                if safe.is_empty() { None } else { Some(safe[rng.index(safe.len())]) }
            }
            Builtin::Greedy(rng) => game.greedy_dir(seat, rng),
            Builtin::Room(bot) => {
                // Asked only when the seat is (as in a room); an answer
                // that is not a move leaves the game's default action.
                let input = Wire::Json.input(game, seat)?;
                let answer = bot(&input);
                return Wire::Json.parse_answer_in(game, seat, answer.as_bytes()).ok();
            }
        };
        match dir {
            Some(d) => Some(G::action_for(d)),
            None if !game.is_finished() => Some(G::action_for(Dir::Up)),
            None => None,
        }
    }
}

/// The players of a stdio game: process bots, and built-in movers with
/// their own random streams.
pub(super) struct StdioTable {
    process: ProcessSeats,
    builtins: Vec<Option<Builtin>>,
}

impl StdioTable {
    /// The players of a game of `kind` with this seed.
    pub(super) fn new(flags: &GameFlags, bots: &[BotSpec], seed: u64) -> anyhow::Result<StdioTable> {
        let kind = flags.game;
        let names = builtin_names().join(", ");
        let mut builtins = Vec::new();
        for (seat, spec) in bots.iter().enumerate() {
            builtins.push(match spec {
                BotSpec::Builtin(name) => {
                    let rng = Rng::new(bot_seed(seed, seat));
                    let unknown = || BadInput(format!("{} has no built-in bot {name:?} (built-in bots: {names})", kind.name()));
                    Some(match name.as_str() {
                        "random" => Builtin::Random(rng),
                        "greedy" if kind == GameKind::Duel => Builtin::Greedy(rng),
                        other => Builtin::Room(room_bot(other, bot_seed(seed, seat)).ok_or_else(unknown)?),
                    })
                }
                BotSpec::Http(url) => return Err(BadInput(format!("{url}: HTTP snakes play battlesnake, not {}", kind.name())).into()),
                BotSpec::Process { .. } => None,
            });
        }
        Ok(StdioTable { process: ProcessSeats::for_flags(flags, bots)?, builtins })
    }
}

/// What a stdio game offers the CLI beyond the protocol: the moves that
/// do not kill at once (for the built-in random mover), and its result.
pub(crate) trait StdioPlay: StdioGame + snakepit_viewer::text::TerminalView {
    /// The directions from `seat`'s head to a cell that is free now;
    /// empty when the seat is not playing.
    fn safe_dirs(&self, seat: usize) -> Vec<Dir>;
    /// The built-in greedy bot's move, or `None` when the game has no
    /// such bot or the seat is not playing.
    fn greedy_dir(&self, _seat: usize, _rng: &mut Rng) -> Option<Dir> {
        None
    }
    /// Each seat's place (see `GameOutcome::places`).
    fn places(&self) -> Vec<usize> {
        places_by(&self.scores())
    }
    /// One line per seat after the scores: alive or dead, place, winner.
    fn standing(&self, seat: usize) -> String;
    /// The game's result in one sentence, naming seats by their bots.
    fn result(&self, players: &[String]) -> String;
}

impl<G: StdioPlay + super::Playable> Table<G> for StdioTable {
    fn take_fault_lines(&mut self) -> Vec<String> {
        self.process.take_fault_lines()
    }

    fn echo(&mut self, options: &RunOptions) {
        self.process.echo(options);
    }

    async fn follow(&mut self, game: &G) {
        for (seat, bot) in self.builtins.iter_mut().enumerate() {
            if let Some(bot) = bot {
                bot.choose(game, seat);
            }
        }
    }

    async fn actions(&mut self, game: &G, out: &mut Vec<G::Action>) -> anyhow::Result<()> {
        out.extend(self.process.decide(game).await);
        for (seat, bot) in self.builtins.iter_mut().enumerate() {
            if let Some(action) = bot.as_mut().and_then(|b| b.choose(game, seat)) {
                out[seat] = action;
            }
        }
        Ok(())
    }

    async fn observe(&mut self, game: &G, _events: &[G::Event]) {
        self.process.observe(game);
    }

    async fn end(&mut self, _game: &G) {
        self.process.stop();
    }

    fn places(&self, game: &G) -> Vec<usize> {
        game.places()
    }

    fn forfeits(&self, _game: &G) -> Vec<u32> {
        self.process.faults().to_vec()
    }

    fn take_log(&mut self) -> String {
        self.process.take_log()
    }

    fn busy_start(&self) -> bool {
        self.process.busy_start()
    }

    fn summary(&self, game: &G, players: &[String]) -> String {
        let width = players.iter().map(|p| p.chars().count()).max().unwrap_or(0).max(3);
        let mut table = format!("{}\n{:>4}  {:<width$}  {:>6}  {:>8}  state\n", game.result(players), "seat", "bot", "score", "forfeits");
        for (seat, score) in game.scores().iter().enumerate() {
            let _ = writeln!(
                table,
                "{seat:>4}  {:<width$}  {score:>6}  {:>8}  {}",
                players[seat],
                self.process.faults()[seat],
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

    fn result(&self, _players: &[String]) -> String {
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

    /// Of the moves that do not kill at once, those that do not step next
    /// to the other head (where a head-on, a draw at best, could happen)
    /// if there are any, then those with the most cells reachable behind
    /// them; the random stream breaks ties.
    fn greedy_dir(&self, seat: usize, rng: &mut Rng) -> Option<Dir> {
        let safe = self.safe_dirs(seat);
        if safe.is_empty() {
            return None;
        }
        let map = self.map();
        let mut blocked: Vec<bool> = map.walls().to_vec();
        for s in self.snakes() {
            for &p in &s.body {
                if let Some(i) = map.index(p) {
                    blocked[i] = true;
                }
            }
        }
        let me = self.snakes()[seat].head();
        let other = self.snakes()[1 - seat].head();
        let near_other = |p: Pos| Dir::ALL.into_iter().any(|d| other.step(d) == p);
        let scored: Vec<(Dir, (bool, usize))> =
            safe.iter().map(|&d| (d, (!near_other(me.step(d)), duel_room(map, &blocked, me.step(d))))).collect();
        let best = scored.iter().map(|(_, k)| *k).max()?;
        let top: Vec<Dir> = scored.into_iter().filter(|(_, k)| *k == best).map(|(d, _)| d).collect();
        Some(top[rng.index(top.len())])
    }

    fn places(&self) -> Vec<usize> {
        match self.outcome() {
            Some((duel::Outcome::Won(w), _)) => (0..2).map(|s| if s == w { 1 } else { 2 }).collect(),
            _ => vec![1, 1],
        }
    }

    fn standing(&self, seat: usize) -> String {
        let s = &self.snakes()[seat];
        format!("{}, length {}", if s.alive { "alive" } else { "dead" }, s.len())
    }

    fn result(&self, players: &[String]) -> String {
        use duel::{EndReason, Outcome};
        let name = |seat: usize| format!("seat {seat} ({})", players.get(seat).map_or("?", String::as_str));
        let round = self.round();
        match self.outcome() {
            Some((Outcome::Won(w), EndReason::Forfeit)) => {
                format!("{} wins in round {round}: the other bot failed", name(w))
            }
            Some((Outcome::Won(w), _)) => format!("{} wins in round {round}: the other snake died", name(w)),
            Some((Outcome::Draw, EndReason::Death)) => format!("a draw: both snakes died in round {round}"),
            Some((Outcome::Draw, EndReason::Forfeit)) => format!("a draw: both bots failed in round {round}"),
            Some((Outcome::Draw, EndReason::RoundLimit)) => format!("a draw: both snakes lasted {round} rounds"),
            None => format!("not over after {round} rounds"),
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

    fn places(&self) -> Vec<usize> {
        Multisnake::places(self)
    }

    fn standing(&self, seat: usize) -> String {
        let s = &self.snakes()[seat];
        let place = Multisnake::places(self)[seat];
        match s.died {
            Some(turn) => format!("place {place}, died in turn {turn}"),
            None => format!("place {place}, alive, length {}", s.len()),
        }
    }

    fn result(&self, players: &[String]) -> String {
        use snakepit_engine::multisnake::EndReason;
        let Some(end) = self.outcome() else {
            return format!("not over after {} turns", self.turn());
        };
        let names: Vec<String> = end
            .winners
            .iter()
            .map(|&seat| format!("seat {seat} ({})", players.get(seat).map_or("?", String::as_str)))
            .collect();
        let turn = self.turn();
        let why = match end.reason {
            EndReason::LastAlive => format!("the last snake alive in turn {turn}"),
            EndReason::AllDied => format!("every snake died in turn {turn}"),
            EndReason::TurnLimit => format!("the turn limit, {turn}"),
        };
        match names.as_slice() {
            [] => format!("nobody wins: {why}"),
            [one] => format!("{one} wins: {why}"),
            many => format!("{} share the win: {why}", many.join(" and ")),
        }
    }
}

/// The number of free cells reachable from `from` (itself included),
/// walking over cells that are not `blocked`.
fn duel_room(map: &DuelMap, blocked: &[bool], from: Pos) -> usize {
    let Some(start) = map.index(from) else { return 0 };
    let mut seen = blocked.to_vec();
    seen[start] = true;
    let mut stack = vec![from];
    let mut count = 0;
    while let Some(p) = stack.pop() {
        count += 1;
        for d in Dir::ALL {
            let q = p.step(d);
            if let Some(i) = map.index(q)
                && !seen[i]
            {
                seen[i] = true;
                stack.push(q);
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use snakepit_engine::Game;

    /// Plays whole duels of `a` (seat 0) against `b` and counts seat 0's
    /// wins, draws and losses.
    fn duels(a: &str, b: &str, games: u64) -> [u32; 3] {
        let mut tally = [0; 3];
        for seed in 0..games {
            let mut game = Duel::new(duel::Settings::default(), seed);
            let mut bots = [a, b].map(|name| {
                let rng = Rng::new(bot_seed(seed, usize::from(name == b)));
                if name == "greedy" { Builtin::Greedy(rng) } else { Builtin::Random(rng) }
            });
            while !game.is_over() {
                let actions: Vec<duel::Action> =
                    (0..2).map(|seat| bots[seat].choose(&game, seat).unwrap_or_default()).collect();
                game.step(&actions);
            }
            match game.outcome() {
                Some((duel::Outcome::Won(0), _)) => tally[0] += 1,
                Some((duel::Outcome::Draw, _)) => tally[1] += 1,
                _ => tally[2] += 1,
            }
        }
        tally
    }

    #[test]
    fn greedy_beats_random_at_duel() {
        let [wins, draws, losses] = duels("greedy", "random", 200);
        assert_eq!(wins + draws + losses, 200);
        assert!(wins > 3 * losses, "greedy won {wins}, drew {draws}, lost {losses}");
    }

    #[test]
    fn duel_places_follow_the_outcome() {
        let mut game = Duel::new(duel::Settings::default(), 1);
        assert_eq!(StdioPlay::places(&game), vec![1, 1]);
        game.step(&[duel::Action::Forfeit, duel::Action::default()]);
        assert_eq!(StdioPlay::places(&game), vec![2, 1]);
    }
}
