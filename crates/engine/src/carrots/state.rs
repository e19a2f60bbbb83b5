//! The CodeCarrots state and the stages of its tick.

use super::Action;
use super::settings::Settings;
use crate::checksum::Checksum;
use crate::game::{Game, ParseActionError};
use crate::geom::{Dir, Pos};
use crate::rng::Rng;
use std::collections::VecDeque;

/// Index of a seat (player) in a game.
pub type SnakeIdx = usize;

/// Where a seat's snake is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Life {
    /// On the board and moving.
    Alive,
    /// Died in tick `tick`. The body leaves the board at the end of that
    /// tick, or with [`Settings::bodies_stay`] lies on the board as an
    /// obstacle until the respawn.
    Dead {
        /// The tick of the death.
        tick: u64,
    },
    /// A player holds the seat but has no snake yet: it appears at the end
    /// of the next tick (or of the first tick with a free cell).
    Waiting,
    /// Nobody holds the seat.
    Absent,
}

/// One seat's snake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snake {
    /// Cells, head first. Empty while waiting or absent, and once a dead
    /// body has left the board; a dead body may be empty from the start too
    /// (a length-1 snake that left the board).
    pub body: VecDeque<Pos>,
    /// The direction of the last move; [`Action::Keep`] goes on this way.
    /// A new snake faces right, as upstream's do.
    pub dir: Dir,
    /// Alive, dead, waiting or absent.
    pub life: Life,
    /// An apple was eaten in the last tick: the next move keeps the tail
    /// (upstream's `ate_apple`; growth comes one tick after eating).
    pub grow: bool,
    /// The score: the longest length this seat's snake ever reached, kept
    /// across deaths.
    pub best: u32,
}

impl Snake {
    fn absent() -> Snake {
        Snake { body: VecDeque::new(), dir: Dir::Right, life: Life::Absent, grow: false, best: 0 }
    }

    /// Length in cells.
    pub fn len(&self) -> usize {
        self.body.len()
    }

    /// Whether the snake has no cells on the board.
    pub fn is_empty(&self) -> bool {
        self.body.is_empty()
    }

    /// The head cell.
    pub fn head(&self) -> Option<Pos> {
        self.body.front().copied()
    }

    /// On the board and moving.
    pub fn is_alive(&self) -> bool {
        self.life == Life::Alive
    }
}

/// Why a snake died.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Death {
    /// Its head left the board.
    OffBoard,
    /// Its head entered the same cell as these other heads in the same tick.
    HeadOn(Vec<SnakeIdx>),
    /// Its head entered a cell of this snake (itself included; dead bodies
    /// count).
    Crash(SnakeIdx),
    /// The bot failed (invalid answer, timeout, crash, new code).
    Forfeit,
}

/// Everything a tick can report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A snake appeared at length 1.
    Spawned {
        /// Seat.
        snake: SnakeIdx,
        /// Its only cell.
        at: Pos,
    },
    /// The move after eating kept the tail.
    Grew {
        /// Seat.
        snake: SnakeIdx,
        /// Length after the move.
        len: usize,
    },
    /// A head entered an apple; the snake grows on its next move.
    Ate {
        /// Seat.
        snake: SnakeIdx,
        /// Where.
        at: Pos,
    },
    /// A snake died. Its body blocks the other heads of this tick and leaves
    /// the board at the end of it ([`Event::Removed`]), or with
    /// [`Settings::bodies_stay`] at the respawn.
    Died {
        /// Seat.
        snake: SnakeIdx,
        /// Why.
        cause: Death,
    },
    /// A dead body was taken off the board: at the end of the tick of the
    /// death, or with [`Settings::bodies_stay`] just before the respawn.
    /// Every death has one, even of a body with no cell left.
    Removed {
        /// Seat.
        snake: SnakeIdx,
    },
    /// A new apple.
    AppleSpawned {
        /// Where.
        at: Pos,
    },
    /// A snake reached a length longer than any before: its new score.
    Scored {
        /// Seat.
        snake: SnakeIdx,
        /// The new score.
        best: u32,
    },
}

/// A stage of the tick: one named step of the rules, run in order.
pub type Stage = crate::game::Stage<Carrots, Action, Event>;

/// The stages of a tick, in upstream's order (`move_snake` for every snake,
/// then `check_collisions`, then the leaderboard), with the respawn and the
/// apple moved to the end so that what appears is never entered blindly.
pub const STAGES: &[Stage] = &[
    Stage { name: "forfeit", run: Carrots::stage_forfeit },
    Stage { name: "move", run: Carrots::stage_move },
    Stage { name: "score", run: Carrots::stage_score },
    Stage { name: "collide", run: Carrots::stage_collide },
    Stage { name: "respawn", run: Carrots::stage_respawn },
    Stage { name: "spawn_apple", run: Carrots::stage_spawn_apple },
];

/// Random cells tried per spawn, as upstream's `random_empty_field`.
const SPAWN_TRIES: u32 = 100;

/// A game of CodeCarrots snakes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Carrots {
    settings: Settings,
    width: i32,
    height: i32,
    /// How many snake cells (live or dead) lie on each board cell. Only dead
    /// heads share cells, with each other or with a body they crashed into.
    occ: Vec<u16>,
    apples: Vec<bool>,
    apple_count: u32,
    snakes: Vec<Snake>,
    tick: u64,
    /// Seats whose snake moved in the current tick; scratch for the stages.
    moved: Vec<bool>,
    /// Whether apples spawn; only rule tests turn it off.
    spawning: bool,
    rng: Rng,
}

pub use crate::game::NewGameError;

impl Carrots {
    /// A new game with `seats` players, all present, each on a random free
    /// cell at length 1. The board starts without apples, as upstream's.
    pub fn new(settings: Settings, seats: usize, seed: u64) -> Result<Carrots, NewGameError> {
        let cells = settings.width as usize * settings.height as usize;
        if seats == 0 || seats > cells {
            return Err(NewGameError(format!("{seats} players on a board of {cells} cells")));
        }
        let mut game = Carrots {
            width: settings.width as i32,
            height: settings.height as i32,
            occ: vec![0; cells],
            apples: vec![false; cells],
            apple_count: 0,
            snakes: (0..seats).map(|_| Snake { life: Life::Waiting, ..Snake::absent() }).collect(),
            tick: 0,
            moved: vec![false; seats],
            spawning: true,
            rng: Rng::new(seed),
            settings,
        };
        let mut events = Vec::new();
        game.spawn_waiting(&mut events);
        Ok(game)
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Board width.
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Board height.
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// The snakes, by seat.
    pub fn snakes(&self) -> &[Snake] {
        &self.snakes
    }

    /// Cell index of a position, or `None` off the board.
    pub fn index(&self, p: Pos) -> Option<usize> {
        (p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height).then(|| (p.y * self.width + p.x) as usize)
    }

    /// Position of a cell index.
    pub fn pos(&self, i: usize) -> Pos {
        Pos::new(i as i32 % self.width, i as i32 / self.width)
    }

    /// Whether an apple lies at `p` (it may be hidden under a dead head).
    pub fn is_apple(&self, p: Pos) -> bool {
        self.index(p).is_some_and(|i| self.apples[i])
    }

    /// Whether a snake cell, live or dead, lies at `p`.
    pub fn is_snake(&self, p: Pos) -> bool {
        self.index(p).is_some_and(|i| self.occ[i] > 0)
    }

    /// Apples on the board, row by row from the top.
    pub fn apples(&self) -> Vec<Pos> {
        (0..self.apples.len()).filter(|&i| self.apples[i]).map(|i| self.pos(i)).collect()
    }

    /// Number of apples on the board.
    pub fn apple_count(&self) -> u32 {
        self.apple_count
    }

    /// Seats a player (or frees the seat). A new player's snake appears at
    /// the end of the next tick. A leaving player's snake, alive or dead,
    /// leaves the board at once; the seat keeps its score.
    pub fn set_present(&mut self, seat: SnakeIdx, present: bool) {
        let Some(s) = self.snakes.get(seat) else { return };
        match (present, s.life) {
            (true, Life::Absent) => self.snakes[seat].life = Life::Waiting,
            (false, Life::Absent) | (true, _) => {}
            (false, _) => {
                self.clear_body(seat);
                let s = &mut self.snakes[seat];
                s.life = Life::Absent;
                s.grow = false;
            }
        }
    }

    /// Places apples and snakes by hand; for rule tests that start from a
    /// drawn position.
    pub fn set_position(&mut self, apples: &[Pos], snakes: Vec<Snake>) {
        self.apples.iter_mut().for_each(|a| *a = false);
        self.apple_count = 0;
        for &p in apples {
            let i = self.index(p).expect("apples go on the board");
            if !self.apples[i] {
                self.apples[i] = true;
                self.apple_count += 1;
            }
        }
        self.occ.iter_mut().for_each(|c| *c = 0);
        self.moved = vec![false; snakes.len()];
        self.snakes = snakes;
        for seat in 0..self.snakes.len() {
            for k in 0..self.snakes[seat].body.len() {
                let p = self.snakes[seat].body[k];
                let i = self.index(p).expect("snakes go on the board");
                self.occ[i] += 1;
            }
        }
    }

    /// A live snake for [`Carrots::set_position`], its score its length.
    pub fn make_snake(body: Vec<Pos>, dir: Dir) -> Snake {
        let best = body.len() as u32;
        Snake { body: body.into(), dir, life: Life::Alive, grow: false, best }
    }

    /// Mutable access to a snake; for tests that set scores or deaths.
    pub fn snake_mut(&mut self, seat: SnakeIdx) -> &mut Snake {
        &mut self.snakes[seat]
    }

    /// Sets the tick counter; for tests that draw snakes which died earlier.
    pub fn set_tick(&mut self, tick: u64) {
        self.tick = tick;
    }

    /// Turns the apple spawner off or on (it is on in every real game).
    /// Rule tests turn it off so that a drawn position changes only by the
    /// rule under test.
    pub fn set_apple_spawning(&mut self, on: bool) {
        self.spawning = on;
    }

    fn occ_add(&mut self, p: Pos, delta: i32) {
        if let Some(i) = self.index(p) {
            self.occ[i] = (i32::from(self.occ[i]) + delta) as u16;
        }
    }

    fn clear_body(&mut self, seat: SnakeIdx) {
        let body = std::mem::take(&mut self.snakes[seat].body);
        for p in body {
            self.occ_add(p, -1);
        }
    }

    fn is_free(&self, i: usize) -> bool {
        self.occ[i] == 0 && !self.apples[i]
    }

    /// Upstream's `random_empty_field`: a cell with no snake and no apple,
    /// tried at random a bounded number of times.
    fn random_free_cell(&mut self) -> Option<usize> {
        let cells = self.occ.len();
        for _ in 0..SPAWN_TRIES {
            let i = self.rng.index(cells);
            if self.is_free(i) {
                return Some(i);
            }
        }
        None
    }

    fn kill(&mut self, seat: SnakeIdx, cause: Death, ev: &mut Vec<Event>) {
        self.snakes[seat].life = Life::Dead { tick: self.tick };
        self.snakes[seat].grow = false;
        ev.push(Event::Died { snake: seat, cause });
    }

    fn stage_forfeit(&mut self, actions: &[Action], ev: &mut Vec<Event>) {
        for seat in 0..self.snakes.len() {
            if actions.get(seat) == Some(&Action::Forfeit) && self.snakes[seat].is_alive() {
                self.kill(seat, Death::Forfeit, ev);
            }
        }
    }

    /// Every live snake adds a head in its direction and drops its tail,
    /// unless it ate in the last tick. Tails go first for everyone, so a head
    /// may enter a cell a tail leaves in the same tick.
    fn stage_move(&mut self, actions: &[Action], ev: &mut Vec<Event>) {
        for seat in 0..self.snakes.len() {
            self.moved[seat] = false;
            if !self.snakes[seat].is_alive() {
                continue;
            }
            let s = &mut self.snakes[seat];
            if let Some(Action::Move(d)) = actions.get(seat) {
                s.dir = *d;
            }
            let head = s.body[0].step(s.dir);
            s.body.push_front(head);
            let grew = std::mem::take(&mut s.grow);
            if grew {
                ev.push(Event::Grew { snake: seat, len: s.len() });
            } else if let Some(tail) = s.body.pop_back() {
                self.occ_add(tail, -1);
            }
            self.moved[seat] = true;
        }
    }

    /// Upstream's leaderboard counts every snake's length after its move,
    /// before collisions are looked at.
    fn stage_score(&mut self, _: &[Action], ev: &mut Vec<Event>) {
        for seat in 0..self.snakes.len() {
            let s = &mut self.snakes[seat];
            if self.moved[seat] && s.len() as u32 > s.best {
                s.best = s.len() as u32;
                ev.push(Event::Scored { snake: seat, best: s.best });
            }
        }
    }

    /// Upstream's `check_collisions`: heads that meet all die, then a head on
    /// any snake cell dies, then a head on an apple eats it.
    fn stage_collide(&mut self, _: &[Action], ev: &mut Vec<Event>) {
        let heads: Vec<(SnakeIdx, Pos)> =
            (0..self.snakes.len()).filter(|&s| self.moved[s]).map(|s| (s, self.snakes[s].body[0])).collect();
        // Whose first body cell is a new head, not yet counted in `occ`.
        let mut new_head = self.moved.clone();
        for &(seat, head) in &heads {
            let Some(i) = self.index(head) else {
                // The head is dropped so that a dead body is always on the
                // board; the tail it left is free for others, as upstream.
                self.snakes[seat].body.pop_front();
                new_head[seat] = false;
                self.kill(seat, Death::OffBoard, ev);
                continue;
            };
            let others: Vec<SnakeIdx> = heads.iter().filter(|&&(o, h)| o != seat && h == head).map(|&(o, _)| o).collect();
            if !others.is_empty() {
                self.kill(seat, Death::HeadOn(others), ev);
            } else if self.occ[i] > 0 {
                // Dead heads may share a cell: the one named is the snake
                // whose cells come first from the head on (then by its
                // direction), never the lower seat.
                let owner = (0..self.snakes.len())
                    .filter(|&o| {
                        let body = &self.snakes[o].body;
                        let skip = usize::from(new_head[o]);
                        body.iter().skip(skip).any(|&c| c == head)
                    })
                    .min_by_key(|&o| (&self.snakes[o].body, self.snakes[o].dir, o))
                    .expect("an occupied cell has an owner");
                self.kill(seat, Death::Crash(owner), ev);
            } else if self.apples[i] {
                self.apples[i] = false;
                self.apple_count -= 1;
                self.snakes[seat].grow = true;
                ev.push(Event::Ate { snake: seat, at: head });
            }
        }
        for &(seat, head) in &heads {
            if self.snakes[seat].head() == Some(head) {
                self.occ_add(head, 1);
            }
        }
    }

    /// Dead bodies leave the board: those of this tick's deaths (CodeCarrots'
    /// description), or with [`Settings::bodies_stay`] those whose respawn is
    /// due. Seats whose respawn is due wait for a cell, and every present seat
    /// without a snake gets one on a random free cell, the cells just left
    /// included (drawn in order of score: [`Carrots::spawn_waiting`]).
    fn stage_respawn(&mut self, _: &[Action], ev: &mut Vec<Event>) {
        let (after, stay) = (u64::from(self.settings.respawn_ticks), self.settings.bodies_stay);
        for seat in 0..self.snakes.len() {
            let Life::Dead { tick } = self.snakes[seat].life else { continue };
            let due = self.tick >= tick + after;
            // Without `bodies_stay` a body is removed in the tick of the
            // death; a body drawn by a test as dead earlier goes now too.
            let remove = if stay { due } else { tick == self.tick || !self.snakes[seat].is_empty() };
            if remove {
                self.clear_body(seat);
                ev.push(Event::Removed { snake: seat });
            }
            if due {
                self.snakes[seat].life = Life::Waiting;
            }
        }
        self.spawn_waiting(ev);
    }

    /// Every waiting seat gets a random free cell. The seats draw in order
    /// of their scores, lowest first, never of their numbers, so that
    /// relabelling the seats relabels the outcome: a new snake keeps
    /// nothing of its seat but the score, so seats with equal scores are
    /// alike but for the cell they draw, and which of them draws first
    /// (seat order) cannot matter.
    fn spawn_waiting(&mut self, ev: &mut Vec<Event>) {
        let mut waiting: Vec<SnakeIdx> = (0..self.snakes.len()).filter(|&s| self.snakes[s].life == Life::Waiting).collect();
        waiting.sort_by_key(|&s| self.snakes[s].best);
        for seat in waiting {
            // Unlike an apple, a snake must not be lost to bad luck: after
            // the random tries, any free cell will do.
            let cell = self.random_free_cell().or_else(|| {
                let free: Vec<usize> = (0..self.occ.len()).filter(|&i| self.is_free(i)).collect();
                (!free.is_empty()).then(|| free[self.rng.index(free.len())])
            });
            let Some(i) = cell else { continue };
            let at = self.pos(i);
            self.occ[i] += 1;
            let s = &mut self.snakes[seat];
            s.body = VecDeque::from([at]);
            s.dir = Dir::Right;
            s.life = Life::Alive;
            s.grow = false;
            ev.push(Event::Spawned { snake: seat, at });
            if s.best < 1 {
                s.best = 1;
                ev.push(Event::Scored { snake: seat, best: 1 });
            }
        }
    }

    /// One spawn attempt per tick while below the cap.
    fn stage_spawn_apple(&mut self, _: &[Action], ev: &mut Vec<Event>) {
        if !self.spawning || self.apple_count >= self.settings.apples_max {
            return;
        }
        if let Some(i) = self.random_free_cell() {
            self.apples[i] = true;
            self.apple_count += 1;
            ev.push(Event::AppleSpawned { at: self.pos(i) });
        }
    }

    /// Checks the invariants every state must satisfy; the property tests
    /// call this after every tick.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut occ = vec![0u16; self.occ.len()];
        for (seat, s) in self.snakes.iter().enumerate() {
            match s.life {
                Life::Waiting | Life::Absent if !s.body.is_empty() => {
                    return Err(format!("snake {seat} is {:?} but has a body", s.life));
                }
                Life::Alive if s.body.is_empty() => return Err(format!("live snake {seat} has no body")),
                Life::Dead { tick } if tick > self.tick => return Err(format!("snake {seat} died in the future")),
                Life::Dead { tick } if tick + u64::from(self.settings.respawn_ticks) <= self.tick => {
                    return Err(format!("snake {seat}, dead since tick {tick}, is still dead at tick {}", self.tick));
                }
                Life::Dead { tick } if !self.settings.bodies_stay && !s.body.is_empty() => {
                    return Err(format!("snake {seat}, dead since tick {tick}, still has a body on the board"));
                }
                _ => {}
            }
            if s.grow && !s.is_alive() {
                return Err(format!("snake {seat} is {:?} and about to grow", s.life));
            }
            if s.is_alive() && (s.len() as u32) > s.best {
                return Err(format!("snake {seat} is {} long but its best is {}", s.len(), s.best));
            }
            for (a, b) in s.body.iter().zip(s.body.iter().skip(1)) {
                if a.dir_to(*b).is_none() {
                    return Err(format!("snake {seat} is not contiguous between {a} and {b}"));
                }
            }
            for &c in &s.body {
                let Some(i) = self.index(c) else { return Err(format!("snake {seat} is off the board at {c}")) };
                occ[i] += 1;
            }
        }
        if occ != self.occ {
            return Err("the occupancy grid disagrees with the bodies".to_string());
        }
        if self.apples.iter().filter(|&&a| a).count() as u32 != self.apple_count {
            return Err(format!("apple count {} disagrees with the board", self.apple_count));
        }
        // Only dead heads share cells: a head that dies on a snake cell
        // stays there. Every other snake cell, and every live head, is alone
        // on its cell; no live snake lies on an apple.
        let mut dead_heads = vec![0u16; self.occ.len()];
        for s in self.snakes.iter().filter(|s| matches!(s.life, Life::Dead { .. })) {
            if let Some(i) = s.head().and_then(|h| self.index(h)) {
                dead_heads[i] += 1;
            }
        }
        for (i, (&occ, &heads)) in self.occ.iter().zip(&dead_heads).enumerate() {
            if occ > heads + 1 {
                return Err(format!("{} snake cells at {} besides dead heads", occ - heads, self.pos(i)));
            }
        }
        for (seat, s) in self.snakes.iter().enumerate().filter(|(_, s)| s.is_alive()) {
            let i = s.head().and_then(|h| self.index(h)).unwrap_or_default();
            if self.occ[i] != 1 {
                return Err(format!("live snake {seat}'s head shares {}", self.pos(i)));
            }
            if let Some(c) = s.body.iter().find(|&&c| self.is_apple(c)) {
                return Err(format!("live snake {seat} lies on an apple at {c}"));
            }
        }
        Ok(())
    }
}

impl Game for Carrots {
    type Action = Action;
    type Event = Event;

    fn name(&self) -> &'static str {
        "carrots"
    }

    fn seats(&self) -> usize {
        self.snakes.len()
    }

    fn step(&mut self, actions: &[Action]) -> Vec<Event> {
        let mut ev = Vec::new();
        self.tick += 1;
        for stage in STAGES {
            (stage.run)(self, actions, &mut ev);
        }
        debug_assert_eq!(self.check_invariants(), Ok(()));
        ev
    }

    fn tick(&self) -> u64 {
        self.tick
    }

    fn checksum(&self) -> u64 {
        let mut h = Checksum::default();
        h.u64(self.tick);
        h.u64(u64::from(self.spawning));
        h.bytes(&self.rng.position().to_le_bytes());
        h.u64(u64::from(self.apple_count));
        for (i, &a) in self.apples.iter().enumerate() {
            if a {
                h.u64(i as u64);
            }
        }
        for s in &self.snakes {
            let (life, since) = match s.life {
                Life::Alive => (0, 0),
                Life::Dead { tick } => (1, tick),
                Life::Waiting => (2, 0),
                Life::Absent => (3, 0),
            };
            h.bytes(&[life, s.dir.index(), u8::from(s.grow)]);
            h.u64(since);
            h.u64(u64::from(s.best));
            h.u64(s.body.len() as u64);
            for c in &s.body {
                h.i64(i64::from(c.x));
                h.i64(i64::from(c.y));
            }
        }
        h.finish()
    }

    fn scores(&self) -> Vec<i64> {
        self.snakes.iter().map(|s| i64::from(s.best)).collect()
    }

    fn relabel_event(event: &Event, from: &[usize]) -> Event {
        let to = crate::game::relabel_inverse(from);
        match event {
            &Event::Spawned { snake, at } => Event::Spawned { snake: to[snake], at },
            &Event::Grew { snake, len } => Event::Grew { snake: to[snake], len },
            &Event::Ate { snake, at } => Event::Ate { snake: to[snake], at },
            Event::Died { snake, cause } => {
                let cause = match cause {
                    Death::HeadOn(others) => {
                        let mut others: Vec<SnakeIdx> = others.iter().map(|&o| to[o]).collect();
                        others.sort_unstable();
                        Death::HeadOn(others)
                    }
                    &Death::Crash(by) => Death::Crash(to[by]),
                    other => other.clone(),
                };
                Event::Died { snake: to[*snake], cause }
            }
            &Event::Removed { snake } => Event::Removed { snake: to[snake] },
            &Event::AppleSpawned { at } => Event::AppleSpawned { at },
            &Event::Scored { snake, best } => Event::Scored { snake: to[snake], best },
        }
    }

    fn relabel_seats(&self, from: &[usize]) -> Carrots {
        let mut g = self.clone();
        g.snakes = from.iter().map(|&j| self.snakes[j].clone()).collect();
        g.moved = from.iter().map(|&j| self.moved[j]).collect();
        g
    }

    fn action_to_text(action: &Action) -> String {
        action.to_text()
    }

    fn action_from_text(text: &str) -> Result<Action, ParseActionError> {
        Action::from_text(text)
    }
}
