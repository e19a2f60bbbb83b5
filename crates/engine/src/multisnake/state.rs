//! The Multisnake state and the stages of its turn.

use super::Action;
use super::map::{Grid, Map, Tile, arrow, head_letter};
use super::settings::Settings;
use crate::checksum::Checksum;
use crate::game::{Game, ParseActionError};
use crate::geom::{Dir, Pos};
use crate::rng::Rng;
use std::collections::VecDeque;

/// Index of a seat: seat 0 is the SOI statement's player M = 1, head `A`.
pub type SnakeIdx = usize;

/// One seat's snake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snake {
    /// Tiles, head first. A dead snake keeps its body on the map for good.
    pub body: VecDeque<Pos>,
    /// The direction of the last move; [`Action::Keep`] goes on this way. At
    /// the start, the way from the neck to the head, or up for a snake of
    /// length 1.
    pub dir: Dir,
    /// Still playing.
    pub alive: bool,
    /// The turn it died in.
    pub died: Option<u32>,
}

impl Snake {
    /// Length in tiles.
    pub fn len(&self) -> usize {
        self.body.len()
    }

    /// Never true: a snake has at least its head.
    pub fn is_empty(&self) -> bool {
        self.body.is_empty()
    }

    /// The head tile.
    pub fn head(&self) -> Pos {
        self.body[0]
    }
}

/// What stopped a snake from moving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blocker {
    /// A wall.
    Wall,
    /// A tile of this snake (live or dead, itself included) that is not left
    /// this turn.
    Snake(SnakeIdx),
    /// It turned back into its neck, which only a snake of length 1 may do.
    Reverse,
}

/// Why a snake died.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Death {
    /// Its target tile was occupied: it did not move.
    Blocked(Blocker),
    /// It entered the same tile as these snakes in the same turn.
    HeadOn(Vec<SnakeIdx>),
    /// A minus sign shrank it to length zero; its head stays, as `@`.
    Starved,
    /// The bot failed (invalid line, timeout, crash).
    Forfeit,
}

/// Why a snake grew.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Growth {
    /// The turn number is a multiple of T.
    Turn,
    /// It entered a plus sign.
    Plus,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// One snake is left.
    LastAlive,
    /// The last snakes died in the same turn: a tie between them.
    AllDied,
    /// The turn limit came; the longest snakes alive share the win.
    TurnLimit,
}

/// Everything a turn can report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A snake entered a sign tile and consumed it.
    Ate {
        /// Seat.
        snake: SnakeIdx,
        /// [`Tile::Plus`] or [`Tile::Minus`].
        sign: Tile,
        /// Where.
        at: Pos,
    },
    /// The tail stayed.
    Grew {
        /// Seat.
        snake: SnakeIdx,
        /// Why.
        by: Growth,
        /// Length after the turn.
        len: usize,
    },
    /// The tail moved by two tiles.
    Shrank {
        /// Seat.
        snake: SnakeIdx,
        /// Length after the turn.
        len: usize,
    },
    /// A snake died.
    Died {
        /// Seat.
        snake: SnakeIdx,
        /// Why.
        cause: Death,
    },
    /// The game is over.
    Ended {
        /// The seats sharing the win.
        winners: Vec<SnakeIdx>,
        /// Why.
        reason: EndReason,
    },
}

/// A stage of the turn: one named step of the rules, run in order.
pub type Stage = crate::game::Stage<Multisnake, Action, Event>;

/// The stages of a turn.
pub const STAGES: &[Stage] = &[
    Stage { name: "forfeit", run: Multisnake::stage_forfeit },
    Stage { name: "plan", run: Multisnake::stage_plan },
    Stage { name: "resolve", run: Multisnake::stage_resolve },
    Stage { name: "move", run: Multisnake::stage_move },
    Stage { name: "end", run: Multisnake::stage_end },
];

/// What a live snake is about to do this turn; scratch for the stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Plan {
    dir: Dir,
    target: Pos,
    /// The tail stays (a growth turn or a plus sign).
    grow: bool,
    /// The tail moves by two (a minus sign off a growth turn).
    shrink: bool,
    /// `None` while the move stands.
    blocked: Option<Blocker>,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    /// The seats sharing the win.
    pub winners: Vec<SnakeIdx>,
    /// Why.
    pub reason: EndReason,
}

/// A game of Multisnake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Multisnake {
    settings: Settings,
    map: Map,
    tiles: Vec<Tile>,
    /// How many snake tiles lie on each tile; only dead heads that met share.
    occ: Vec<u8>,
    snakes: Vec<Snake>,
    turn: u32,
    end: Option<End>,
    plans: Vec<Option<Plan>>,
    rng: Rng,
}

impl Multisnake {
    /// A new game on a starting map. The seed is kept for the game's own
    /// random stream, which the rules of Multisnake never draw from: the
    /// game is fully decided by the map and the moves.
    pub fn new(settings: Settings, map: Map, seed: u64) -> Multisnake {
        let grid = map.grid;
        let mut occ = vec![0u8; grid.cells()];
        let snakes: Vec<Snake> = map
            .snakes
            .iter()
            .map(|body| {
                for &c in body {
                    occ[grid.index(c)] += 1;
                }
                let dir = body.get(1).and_then(|&neck| grid.dir_between(neck, body[0])).unwrap_or(Dir::Up);
                Snake { body: body.iter().copied().collect(), dir, alive: true, died: None }
            })
            .collect();
        Multisnake {
            tiles: map.tiles.clone(),
            occ,
            plans: vec![None; snakes.len()],
            snakes,
            settings,
            map,
            turn: 0,
            end: None,
            rng: Rng::new(seed),
        }
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The starting map.
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// The board's size.
    pub fn grid(&self) -> Grid {
        self.map.grid
    }

    /// The current tiles (signs disappear as they are consumed), row by row.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The snakes, by seat.
    pub fn snakes(&self) -> &[Snake] {
        &self.snakes
    }

    /// Turns played.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// How the game ended, once it has.
    pub fn outcome(&self) -> Option<&End> {
        self.end.as_ref()
    }

    /// Whether the game is over; later steps change nothing.
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// The position in the map glyphs, one string per row: exactly the rows
    /// a bot reads each turn. Live heads are letters, dead heads `@`, body
    /// tiles the arrow of the way the snake left them.
    pub fn rows(&self) -> Vec<String> {
        let grid = self.grid();
        let mut cells: Vec<char> = self.tiles.iter().map(|t| t.glyph()).collect();
        for (seat, s) in self.snakes.iter().enumerate() {
            for (k, &p) in s.body.iter().enumerate().skip(1) {
                cells[grid.index(p)] = grid.dir_between(p, s.body[k - 1]).map_or('?', arrow);
            }
            cells[grid.index(s.head())] = if s.alive { head_letter(seat) } else { '@' };
        }
        cells.chunks(grid.width).map(|row| row.iter().collect()).collect()
    }

    /// Each seat's place: 1 plus the number of seats that did strictly
    /// better. A snake alive does better than a dead one, a later death
    /// better than an earlier one; snakes dying in the same turn share a
    /// place. After the turn limit, the longer of two live snakes does
    /// better.
    pub fn places(&self) -> Vec<usize> {
        let keys = self.rank_keys();
        keys.iter().map(|k| 1 + keys.iter().filter(|o| *o > k).count()).collect()
    }

    fn rank_keys(&self) -> Vec<(u32, usize)> {
        let by_length = matches!(self.end, Some(End { reason: EndReason::TurnLimit, .. }));
        self.snakes
            .iter()
            .map(|s| match s.died {
                Some(turn) => (turn, 0),
                None => (u32::MAX, if by_length { s.len() } else { 0 }),
            })
            .collect()
    }

    /// Sets the turn counter; for rule tests about growth turns.
    pub fn set_turn(&mut self, turn: u32) {
        self.turn = turn;
    }

    /// Sets a snake's direction; for rule tests with snakes of length 1.
    pub fn set_dir(&mut self, seat: SnakeIdx, dir: Dir) {
        self.snakes[seat].dir = dir;
    }

    /// Makes a snake dead since `turn`; for rule tests that draw dead snakes.
    pub fn set_dead(&mut self, seat: SnakeIdx, turn: u32) {
        self.snakes[seat].alive = false;
        self.snakes[seat].died = Some(turn);
    }

    fn kill(&mut self, seat: SnakeIdx, cause: Death, ev: &mut Vec<Event>) {
        self.snakes[seat].alive = false;
        self.snakes[seat].died = Some(self.turn);
        ev.push(Event::Died { snake: seat, cause });
    }

    fn stage_forfeit(&mut self, actions: &[Action], ev: &mut Vec<Event>) {
        for seat in 0..self.snakes.len() {
            if self.snakes[seat].alive && actions.get(seat) == Some(&Action::Forfeit) {
                self.kill(seat, Death::Forfeit, ev);
            }
        }
    }

    /// Where every live snake means to go and what the tile there does to
    /// its tail. A snake of length 2 or more that turns back into its neck
    /// is blocked at once, and so is one facing a wall.
    fn stage_plan(&mut self, actions: &[Action], _: &mut Vec<Event>) {
        let grid = self.grid();
        let growth_turn = self.turn.is_multiple_of(self.settings.grow_every);
        for seat in 0..self.snakes.len() {
            let s = &self.snakes[seat];
            if !s.alive {
                self.plans[seat] = None;
                continue;
            }
            let dir = match actions.get(seat) {
                Some(Action::Move(d)) => *d,
                _ => s.dir,
            };
            let target = grid.step(s.head(), dir);
            let tile = self.tiles[grid.index(target)];
            let blocked = if s.body.get(1) == Some(&target) {
                Some(Blocker::Reverse)
            } else if tile == Tile::Wall {
                Some(Blocker::Wall)
            } else {
                None
            };
            // At most one growth per turn: on a growth turn a plus adds
            // nothing and a minus only cancels the growth.
            let grow = growth_turn || tile == Tile::Plus;
            let shrink = tile == Tile::Minus && !growth_turn;
            self.plans[seat] = Some(Plan { dir, target, grow: grow && tile != Tile::Minus, shrink, blocked });
        }
    }

    /// The tiles a moving snake's tail leaves this turn.
    fn vacated(&self, seat: SnakeIdx) -> [Option<Pos>; 2] {
        let (s, plan) = (&self.snakes[seat], self.plans[seat]);
        match plan {
            Some(p) if p.blocked.is_none() && !p.grow => {
                let last = s.body.back().copied();
                let second = if p.shrink && s.len() >= 2 { s.body.get(s.len() - 2).copied() } else { None };
                [last, second]
            }
            _ => [None, None],
        }
    }

    /// Blocked moves and tails that stay depend on each other (a blocked
    /// snake's tail does not leave, which may block the snake behind it), so
    /// they are settled together: starting from every move standing, block
    /// each snake whose target holds a tile that is not left this turn, and
    /// repeat until nothing changes. Snakes that chase each other's tails in
    /// a ring therefore all move.
    ///
    /// Each round of this settles every snake against the plans as they
    /// stood when the round began, so the order of the seats does not
    /// matter. A snake blocked by a tile that two snakes hold (the heads of
    /// two that met there) names the one whose tiles come first, from the
    /// head on, then the one whose last move comes first in up, right,
    /// down, left (two heads of length 1 that met lie on the same tile, but
    /// came from different sides), never the lower seat.
    fn stage_resolve(&mut self, _: &[Action], _: &mut Vec<Event>) {
        let grid = self.grid();
        loop {
            let left: Vec<Pos> = (0..self.snakes.len()).flat_map(|s| self.vacated(s)).flatten().collect();
            let mut blocks: Vec<(SnakeIdx, SnakeIdx)> = Vec::new();
            for seat in 0..self.snakes.len() {
                let Some(plan) = self.plans[seat] else { continue };
                if plan.blocked.is_some() {
                    continue;
                }
                let t = plan.target;
                let leaving = left.iter().filter(|&&c| c == t).count();
                if usize::from(self.occ[grid.index(t)]) > leaving {
                    let owner = (0..self.snakes.len())
                        .filter(|&o| self.snakes[o].body.contains(&t) && !self.vacated(o).contains(&Some(t)))
                        .min_by_key(|&o| (&self.snakes[o].body, self.snakes[o].dir, o))
                        .expect("an occupied tile that is not left has an owner");
                    blocks.push((seat, owner));
                }
            }
            if blocks.is_empty() {
                break;
            }
            for (seat, owner) in blocks {
                if let Some(plan) = &mut self.plans[seat] {
                    plan.blocked = Some(Blocker::Snake(owner));
                }
            }
        }
    }

    /// Moves stand: heads advance, signs are consumed, tails follow (not
    /// at all when growing, by two when shrinking). Then the blocked die
    /// where they are, heads that met die where they met, and snakes shrunk
    /// to nothing die with their head on the map.
    fn stage_move(&mut self, _: &[Action], ev: &mut Vec<Event>) {
        let grid = self.grid();
        let growth_turn = self.turn.is_multiple_of(self.settings.grow_every);
        let moving: Vec<SnakeIdx> =
            (0..self.snakes.len()).filter(|&s| self.plans[s].is_some_and(|p| p.blocked.is_none())).collect();
        let mut starved = Vec::new();
        for &seat in &moving {
            let plan = self.plans[seat].expect("a moving snake has a plan");
            let t = grid.index(plan.target);
            let sign = self.tiles[t];
            if matches!(sign, Tile::Plus | Tile::Minus) {
                ev.push(Event::Ate { snake: seat, sign, at: plan.target });
            }
            let s = &mut self.snakes[seat];
            s.dir = plan.dir;
            s.body.push_front(plan.target);
            self.occ[t] += 1;
            let drop = if plan.grow {
                0
            } else if plan.shrink {
                2
            } else {
                1
            };
            for _ in 0..drop {
                let tail = self.snakes[seat].body.pop_back().expect("a snake has a tail");
                self.occ[grid.index(tail)] -= 1;
            }
            let s = &mut self.snakes[seat];
            if s.body.is_empty() {
                s.body.push_front(plan.target);
                self.occ[t] += 1;
                starved.push(seat);
            } else if plan.grow {
                let by = if growth_turn { Growth::Turn } else { Growth::Plus };
                ev.push(Event::Grew { snake: seat, by, len: s.len() });
            } else if plan.shrink {
                ev.push(Event::Shrank { snake: seat, len: s.len() });
            }
        }
        // Signs go once every snake that entered one has had its effect:
        // snakes meeting on a sign all consumed it.
        for &seat in &moving {
            let t = grid.index(self.plans[seat].expect("planned").target);
            if matches!(self.tiles[t], Tile::Plus | Tile::Minus) {
                self.tiles[t] = Tile::Empty;
            }
        }
        for seat in 0..self.snakes.len() {
            let Some(plan) = self.plans[seat] else { continue };
            if let Some(by) = plan.blocked {
                self.kill(seat, Death::Blocked(by), ev);
                continue;
            }
            let others: Vec<SnakeIdx> = moving
                .iter()
                .copied()
                .filter(|&o| o != seat && self.plans[o].is_some_and(|p| p.target == plan.target))
                .collect();
            if !others.is_empty() {
                self.kill(seat, Death::HeadOn(others), ev);
            } else if starved.contains(&seat) {
                self.kill(seat, Death::Starved, ev);
            }
        }
    }

    /// The last snake alive wins; if the last ones die together they tie;
    /// at the turn limit the longest snakes alive share the win.
    fn stage_end(&mut self, _: &[Action], ev: &mut Vec<Event>) {
        let alive: Vec<SnakeIdx> = (0..self.snakes.len()).filter(|&s| self.snakes[s].alive).collect();
        let (winners, reason) = match alive.as_slice() {
            [] => {
                let now = Some(self.turn);
                ((0..self.snakes.len()).filter(|&s| self.snakes[s].died == now).collect(), EndReason::AllDied)
            }
            [one] => (vec![*one], EndReason::LastAlive),
            _ if self.turn >= self.settings.turns_max => {
                let longest = alive.iter().map(|&s| self.snakes[s].len()).max().unwrap_or(0);
                (alive.into_iter().filter(|&s| self.snakes[s].len() == longest).collect(), EndReason::TurnLimit)
            }
            _ => return,
        };
        ev.push(Event::Ended { winners: winners.clone(), reason });
        self.end = Some(End { winners, reason });
    }

    /// Checks the invariants every state must satisfy; the property tests
    /// call this after every turn.
    pub fn check_invariants(&self) -> Result<(), String> {
        let grid = self.grid();
        let mut occ = vec![0u8; grid.cells()];
        for (seat, s) in self.snakes.iter().enumerate() {
            if s.body.is_empty() {
                return Err(format!("snake {seat} has no tiles"));
            }
            if s.alive != s.died.is_none() || s.died.is_some_and(|t| t > self.turn) {
                return Err(format!("snake {seat}: alive {} but died {:?}", s.alive, s.died));
            }
            for (k, &c) in s.body.iter().enumerate() {
                if !grid.contains(c) {
                    return Err(format!("snake {seat} is off the board at {c}"));
                }
                if k > 0 && grid.dir_between(c, s.body[k - 1]).is_none() {
                    return Err(format!("snake {seat} is not contiguous at {c}"));
                }
                if self.tiles[grid.index(c)] != Tile::Empty {
                    return Err(format!("snake {seat} lies on {:?} at {c}", self.tiles[grid.index(c)]));
                }
                occ[grid.index(c)] += 1;
            }
            if s.alive && s.len() >= 2 && grid.dir_between(s.body[1], s.body[0]) != Some(s.dir) {
                return Err(format!("live snake {seat}'s direction is not from its neck to its head"));
            }
        }
        if occ != self.occ {
            return Err("the occupancy grid disagrees with the bodies".to_string());
        }
        // Tiles are held by one snake, except where dead heads met.
        for (seat, s) in self.snakes.iter().enumerate() {
            for (k, &c) in s.body.iter().enumerate() {
                let shared = self.occ[grid.index(c)] > 1;
                let heads_here = self.snakes.iter().filter(|o| !o.alive && o.head() == c).count();
                if shared && (s.alive || k > 0 || usize::from(self.occ[grid.index(c)]) != heads_here) {
                    return Err(format!("snake {seat} shares {c} other than as a dead head"));
                }
            }
        }
        let alive = self.snakes.iter().filter(|s| s.alive).count();
        match &self.end {
            None if alive < 2 => Err(format!("{alive} snakes alive and the game goes on")),
            None if self.turn >= self.settings.turns_max && self.turn > 0 => {
                Err("the turn limit passed and the game goes on".to_string())
            }
            Some(End { winners, .. }) if winners.is_empty() => Err("a game over without winners".to_string()),
            _ => Ok(()),
        }
    }
}

impl Game for Multisnake {
    type Action = Action;
    type Event = Event;

    fn name(&self) -> &'static str {
        "multisnake"
    }

    fn seats(&self) -> usize {
        self.snakes.len()
    }

    /// Plays one turn; after the end of the game, does nothing.
    fn step(&mut self, actions: &[Action]) -> Vec<Event> {
        let mut ev = Vec::new();
        if self.end.is_some() {
            return ev;
        }
        self.turn += 1;
        for stage in STAGES {
            (stage.run)(self, actions, &mut ev);
        }
        debug_assert_eq!(self.check_invariants(), Ok(()));
        ev
    }

    fn tick(&self) -> u64 {
        u64::from(self.turn)
    }

    fn checksum(&self) -> u64 {
        let mut h = Checksum::default();
        h.u64(u64::from(self.turn));
        h.bytes(&self.rng.position().to_le_bytes());
        match &self.end {
            None => h.u64(0),
            Some(end) => {
                h.u64(1 + end.reason as u64);
                for &w in &end.winners {
                    h.u64(w as u64);
                }
            }
        }
        h.bytes(&self.tiles.iter().map(|&t| t as u8).collect::<Vec<u8>>());
        for s in &self.snakes {
            h.bytes(&[s.dir.index(), u8::from(s.alive)]);
            h.u64(s.died.map_or(0, |t| u64::from(t) + 1));
            h.u64(s.body.len() as u64);
            for c in &s.body {
                h.i64(i64::from(c.x));
                h.i64(i64::from(c.y));
            }
        }
        h.finish()
    }

    /// The number of seats each seat did strictly better than (see
    /// [`Multisnake::places`]): it only grows, and the winner of an
    /// N-player game with no ties ends with N - 1.
    fn scores(&self) -> Vec<i64> {
        let keys = self.rank_keys();
        keys.iter().map(|k| keys.iter().filter(|o| *o < k).count() as i64).collect()
    }

    fn relabel_event(event: &Event, from: &[usize]) -> Event {
        let to = crate::game::relabel_inverse(from);
        let set = |seats: &[SnakeIdx]| {
            let mut v: Vec<SnakeIdx> = seats.iter().map(|&s| to[s]).collect();
            v.sort_unstable();
            v
        };
        match event {
            &Event::Ate { snake, sign, at } => Event::Ate { snake: to[snake], sign, at },
            &Event::Grew { snake, by, len } => Event::Grew { snake: to[snake], by, len },
            &Event::Shrank { snake, len } => Event::Shrank { snake: to[snake], len },
            Event::Died { snake, cause } => {
                let cause = match cause {
                    Death::Blocked(Blocker::Snake(s)) => Death::Blocked(Blocker::Snake(to[*s])),
                    Death::HeadOn(others) => Death::HeadOn(set(others)),
                    other => other.clone(),
                };
                Event::Died { snake: to[*snake], cause }
            }
            Event::Ended { winners, reason } => Event::Ended { winners: set(winners), reason: *reason },
        }
    }

    fn relabel_seats(&self, from: &[usize]) -> Multisnake {
        let to = crate::game::relabel_inverse(from);
        let mut g = self.clone();
        g.snakes = from.iter().map(|&j| self.snakes[j].clone()).collect();
        g.plans = from
            .iter()
            .map(|&j| {
                self.plans[j].map(|p| match p.blocked {
                    Some(Blocker::Snake(b)) => Plan { blocked: Some(Blocker::Snake(to[b])), ..p },
                    _ => p,
                })
            })
            .collect();
        if let Some(end) = &mut g.end {
            for w in &mut end.winners {
                *w = to[*w];
            }
            end.winners.sort_unstable();
        }
        g
    }

    fn action_to_text(action: &Action) -> String {
        action.to_text()
    }

    fn action_from_text(text: &str) -> Result<Action, ParseActionError> {
        Action::from_text(text)
    }
}
