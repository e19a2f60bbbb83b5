//! The Battlesnake state and the stages of a turn.
//!
//! The state is laid out for speed: every snake's body is a ring buffer in
//! one shared array of compact cells, a count per cell says how many live
//! segments lie there, and food, hazards and occupied cells are bit sets. A
//! turn therefore touches a few cells per snake and allocates nothing (see
//! [`Battlesnake::step_into`]); the game owns everything it needs once it
//! is created.

use super::bits::Bits;
use super::settings::{Ruleset, Settings};
use super::setup::{Opening, SNAKES_MAX, START_LENGTH};
use crate::checksum::{Checksum, WordSum};
use crate::game::{Game, ParseActionError};
use crate::geom::{Dir, Pos};
use crate::rng::Rng;
use std::fmt;

/// Index of a seat (player) in a game.
pub type SnakeIdx = usize;

/// What a snake is told to do in one turn: a move, or nothing, in which
/// case the rules repeat its last move (up on the first turn). A missing,
/// late or unreadable answer is `None`, so replays record the fact and the
/// rules, not the transport, decide what it means.
pub type Action = Option<Dir>;

/// Health of a snake that has just eaten (and of every new snake).
pub const HEALTH_MAX: i32 = 100;

/// Why a snake was eliminated, with the official cause names in
/// [`Cause::official_name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// Its health reached zero.
    OutOfHealth,
    /// Hazard damage took its last health.
    Hazard,
    /// Its head left the board.
    OutOfBounds,
    /// Its head hit its own body.
    SelfCollision,
    /// Its head hit this snake's body.
    Collision(SnakeIdx),
    /// It met this snake head to head and was not longer.
    HeadToHead(SnakeIdx),
}

impl Cause {
    /// The official `EliminatedCause` string.
    pub fn official_name(self) -> &'static str {
        match self {
            Cause::OutOfHealth => "out-of-health",
            Cause::Hazard => "hazard",
            Cause::OutOfBounds => "wall-collision",
            Cause::SelfCollision => "snake-self-collision",
            Cause::Collision(_) => "snake-collision",
            Cause::HeadToHead(_) => "head-collision",
        }
    }

    /// The snake the elimination is credited to, if any.
    pub fn by(self) -> Option<SnakeIdx> {
        match self {
            Cause::Collision(by) | Cause::HeadToHead(by) => Some(by),
            _ => None,
        }
    }

    fn code(self) -> u64 {
        match self {
            Cause::OutOfHealth => 1,
            Cause::Hazard => 2,
            Cause::OutOfBounds => 3,
            Cause::SelfCollision => 4,
            Cause::Collision(by) => 5 | (by as u64) << 8,
            Cause::HeadToHead(by) => 6 | (by as u64) << 8,
        }
    }
}

/// When and why a snake left the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Elimination {
    /// Why.
    pub cause: Cause,
    /// The turn during which it happened.
    pub turn: u64,
}

/// Everything a turn can report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The snake gave no usable move; the rules moved it this way (its last
    /// move, or up on the first turn).
    DefaultMove {
        /// Seat.
        snake: SnakeIdx,
        /// The move applied.
        dir: Dir,
    },
    /// A snake ate the food under its head: it grows and its health is full.
    Ate {
        /// Seat.
        snake: SnakeIdx,
        /// Where.
        at: Pos,
    },
    /// A snake was eliminated.
    Eliminated {
        /// Seat.
        snake: SnakeIdx,
        /// Why.
        cause: Cause,
    },
    /// New food appeared.
    FoodSpawned {
        /// Where.
        at: Pos,
    },
    /// Royale: hazards moved one row or column in from this edge.
    ZoneShrank {
        /// The edge (in the engine's orientation, `Up` being row 0).
        side: Dir,
    },
    /// The game is over: at most one snake is left (none in solo games).
    GameOver {
        /// The last snake standing, if there is exactly one and the game
        /// has more than one seat.
        winner: Option<SnakeIdx>,
    },
}

/// One seat's snake. Its cells are read through [`Battlesnake::body`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snake {
    /// Health, 1 to 100 while alive.
    pub health: i32,
    /// Length in segments; segments may share a cell at the tail right
    /// after eating and at the start.
    pub len: u32,
    /// The move made last turn (up before the first), which is also the
    /// default move for the next turn.
    pub last_move: Dir,
    /// Set once the snake is out; its body stays as it was at that moment.
    pub eliminated: Option<Elimination>,
    /// Ring index of the head.
    start: u32,
}

impl Snake {
    /// Still in the game.
    pub fn is_alive(&self) -> bool {
        self.eliminated.is_none()
    }
}

/// A stage of a turn, named as the official rules name it (for example
/// `movement.standard`).
pub type Stage = crate::game::Stage<Battlesnake, Action, Event>;

/// The stage that runs first in every turn and stops it when the game is
/// already over.
pub struct GameOverStage {
    /// The official stage name.
    pub name: &'static str,
    /// Whether the game is over.
    pub over: fn(&Battlesnake) -> bool,
}

/// `game_over.standard`: over when at most one snake is left.
pub const GAME_OVER_STANDARD: GameOverStage = GameOverStage { name: "game_over.standard", over: |g| g.alive <= 1 };
/// `game_over.solo_snake`: over when no snake is left.
pub const GAME_OVER_SOLO: GameOverStage = GameOverStage { name: "game_over.solo_snake", over: |g| g.alive == 0 };

const MOVEMENT_STANDARD: Stage = Stage { name: "movement.standard", run: Battlesnake::stage_move_standard };
const MOVEMENT_WRAP: Stage = Stage { name: "movement.wrap_boundaries", run: Battlesnake::stage_move_wrapped };
const STARVATION: Stage = Stage { name: "starvation.standard", run: Battlesnake::stage_starve };
const HAZARD_DAMAGE: Stage = Stage { name: "hazard_damage.standard", run: Battlesnake::stage_hazard_damage };
const FEED_SNAKES: Stage = Stage { name: "feed_snakes.standard", run: Battlesnake::stage_feed };
const ELIMINATION: Stage = Stage { name: "elimination.standard", run: Battlesnake::stage_eliminate };
const SPAWN_FOOD: Stage = Stage { name: "spawn_food.standard", run: Battlesnake::stage_spawn_food };
const NO_FOOD: Stage = Stage { name: "spawn_food.no_food", run: Battlesnake::stage_no_food };
const SHRINK_MAP: Stage = Stage { name: "spawn_hazards.shrink_map", run: Battlesnake::stage_shrink };
const ALWAYS_GROW: Stage = Stage { name: "modify_snakes.always_grow", run: Battlesnake::stage_always_grow };

/// Standard and solo, after the game-over stage.
pub const STANDARD_STAGES: &[Stage] = &[MOVEMENT_STANDARD, STARVATION, HAZARD_DAMAGE, FEED_SNAKES, ELIMINATION, SPAWN_FOOD];
/// Royale, after the game-over stage.
pub const ROYALE_STAGES: &[Stage] =
    &[MOVEMENT_STANDARD, STARVATION, HAZARD_DAMAGE, FEED_SNAKES, ELIMINATION, SHRINK_MAP, SPAWN_FOOD];
/// Wrapped, after the game-over stage.
pub const WRAPPED_STAGES: &[Stage] = &[MOVEMENT_WRAP, STARVATION, HAZARD_DAMAGE, FEED_SNAKES, ELIMINATION, SPAWN_FOOD];
/// Constrictor, after the game-over stage.
pub const CONSTRICTOR_STAGES: &[Stage] =
    &[MOVEMENT_STANDARD, STARVATION, HAZARD_DAMAGE, FEED_SNAKES, ELIMINATION, NO_FOOD, ALWAYS_GROW];
/// Wrapped constrictor, after the game-over stage.
pub const WRAPPED_CONSTRICTOR_STAGES: &[Stage] =
    &[MOVEMENT_WRAP, STARVATION, HAZARD_DAMAGE, FEED_SNAKES, ELIMINATION, NO_FOOD, ALWAYS_GROW];

impl Ruleset {
    /// The stages of a turn after the game-over stage, in order.
    pub fn stages(self) -> &'static [Stage] {
        match self {
            Ruleset::Standard | Ruleset::Solo => STANDARD_STAGES,
            Ruleset::Royale => ROYALE_STAGES,
            Ruleset::Wrapped => WRAPPED_STAGES,
            Ruleset::Constrictor => CONSTRICTOR_STAGES,
            Ruleset::WrappedConstrictor => WRAPPED_CONSTRICTOR_STAGES,
        }
    }

    /// The game-over stage for a game with `seats` snakes. As in the
    /// official CLI, a game of one snake is a solo game whatever its
    /// ruleset: it would otherwise be over before it starts.
    pub fn game_over(self, seats: usize) -> &'static GameOverStage {
        if self == Ruleset::Solo || seats < 2 { &GAME_OVER_SOLO } else { &GAME_OVER_STANDARD }
    }
}

/// A cell in compact form; a head may be one step off the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Pt {
    x: i8,
    y: i8,
}

impl Pt {
    fn pos(self) -> Pos {
        Pos::new(i32::from(self.x), i32::from(self.y))
    }

    fn of(p: Pos) -> Pt {
        // Callers check positions against the board, whose side fits an i8.
        Pt { x: p.x as i8, y: p.y as i8 }
    }

    /// The cell as the checksum packs it: `x`'s byte, then `y`'s.
    #[inline]
    fn bits(self) -> u64 {
        u64::from(u16::from(self.x as u8) | u16::from(self.y as u8) << 8)
    }
}

/// The royale safe zone, inclusive, in engine cells; empty once a bound
/// crosses the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Zone {
    x0: i32,
    x1: i32,
    y0: i32,
    y1: i32,
}

/// A game that cannot be created as asked.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NewGameError {
    /// A game needs at least one snake.
    NoSnakes,
    /// More snakes than the board's start positions allow.
    TooManySnakes {
        /// Snakes asked for.
        snakes: usize,
        /// The most this board takes.
        max: usize,
    },
    /// No free start cell is left for a snake.
    NoRoomForSnake,
    /// The opening food has no valid cell.
    NoRoomForFood,
    /// A drawn position breaks a rule of the game.
    BadPosition(String),
}

impl fmt::Display for NewGameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NewGameError::NoSnakes => write!(f, "a battlesnake game needs at least one snake"),
            NewGameError::TooManySnakes { snakes, max } => {
                write!(f, "{snakes} snakes, but this board takes at most {max}")
            }
            NewGameError::NoRoomForSnake => write!(f, "not enough room on the board for every snake"),
            NewGameError::NoRoomForFood => write!(f, "not enough room on the board for the opening food"),
            NewGameError::BadPosition(m) => write!(f, "bad position: {m}"),
        }
    }
}

impl std::error::Error for NewGameError {}

/// A position drawn by hand, for rule tests and puzzles.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Position {
    /// Turns already played.
    pub turn: u64,
    /// One snake per seat.
    pub snakes: Vec<SnakeSetup>,
    /// Food cells.
    pub food: Vec<Pos>,
    /// Hazard cells. In royale, the safe zone is the smallest rectangle
    /// holding every cell that is not a hazard.
    pub hazards: Vec<Pos>,
}

/// One snake of a [`Position`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnakeSetup {
    /// Cells, head first; consecutive cells are neighbours or the same cell.
    pub body: Vec<Pos>,
    /// Health, 0 to 100.
    pub health: i32,
    /// The last move; when `None`, read from the neck as the official rules
    /// do (up for a snake whose cells are all stacked).
    pub last_move: Option<Dir>,
}

/// A set of moves, one bit per [`Dir::index`]. Small enough to travel in
/// a register, which matters in the hot loop of the benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SafeMoves {
    mask: u8,
}

impl SafeMoves {
    /// Number of moves in the set.
    pub fn len(self) -> usize {
        self.mask.count_ones() as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.mask == 0
    }

    /// Whether `d` is in the set.
    pub fn contains(self, d: Dir) -> bool {
        self.mask >> d.index() & 1 != 0
    }

    /// The `n`-th move of the set in [`Dir::ALL`] order.
    pub fn nth(self, n: usize) -> Option<Dir> {
        self.iter().nth(n)
    }

    /// The moves in [`Dir::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Dir> {
        Dir::ALL.into_iter().filter(move |&d| self.contains(d))
    }
}

/// A game of Battlesnake under one of the official rulesets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Battlesnake {
    settings: Settings,
    width: i32,
    height: i32,
    turn: u64,
    snakes: Vec<Snake>,
    alive: u32,
    /// Every snake's ring of cells: seat `i` owns `ring[i << shift ..][..cap]`.
    ring: Vec<Pt>,
    ring_shift: u32,
    /// Live segments per cell (stacked segments count once each).
    occ: Vec<u8>,
    /// Cells whose `occ` is positive.
    occ_bits: Bits,
    food: Bits,
    food_count: u32,
    hazards: Bits,
    hazard_count: u32,
    zone: Zone,
    rng: Rng,
    /// Free cells while food is placed; kept to avoid an allocation.
    scratch: Bits,
}

impl Battlesnake {
    /// A new game on the standard map: `seats` snakes at the official start
    /// positions with the official opening food, every random choice drawn
    /// from `seed`, so the same seed always gives the same opening board.
    pub fn new(settings: Settings, seats: usize, seed: u64) -> Result<Battlesnake, NewGameError> {
        let mut rng = Rng::new(seed);
        let (w, h) = (settings.width() as i32, settings.height() as i32);
        let opening = Opening::standard(w, h, seats, settings.ruleset().has_food(), &mut rng)?;
        let mut game = Battlesnake::empty(settings, seats, 0, rng);
        for (seat, head) in opening.heads.iter().enumerate() {
            let p = Pt::of(head.to_pos(h));
            for _ in 0..START_LENGTH {
                game.push_tail(seat, p);
            }
        }
        for f in &opening.food {
            game.add_food(game.index(Pt::of(f.to_pos(h))));
        }
        Ok(game)
    }

    /// A game from a drawn position, checked against the rules' invariants.
    pub fn from_position(settings: Settings, seed: u64, position: &Position) -> Result<Battlesnake, NewGameError> {
        let bad = |m: String| Err(NewGameError::BadPosition(m));
        let seats = position.snakes.len();
        if seats == 0 {
            return Err(NewGameError::NoSnakes);
        }
        if seats > SNAKES_MAX {
            return Err(NewGameError::TooManySnakes { snakes: seats, max: SNAKES_MAX });
        }
        let longest = position.snakes.iter().map(|s| s.body.len()).max().unwrap_or(0);
        let mut game = Battlesnake::empty(settings, seats, longest, Rng::new(seed));
        game.turn = position.turn;
        let (w, h) = (game.width, game.height);
        let on_board = |p: Pos| p.x >= 0 && p.y >= 0 && p.x < w && p.y < h;
        for (seat, s) in position.snakes.iter().enumerate() {
            if s.body.is_empty() {
                return bad(format!("snake {seat} has no cells"));
            }
            if !(0..=HEALTH_MAX).contains(&s.health) {
                return bad(format!("snake {seat} has health {}", s.health));
            }
            for (k, &p) in s.body.iter().enumerate() {
                if !on_board(p) {
                    return bad(format!("snake {seat} is off the board at {p}"));
                }
                if k > 0 && p != s.body[k - 1] && game.step_between(s.body[k - 1], p).is_none() {
                    return bad(format!("snake {seat} is broken between {} and {p}", s.body[k - 1]));
                }
            }
            for &p in &s.body {
                game.push_tail(seat, Pt::of(p));
            }
            let last_move = s.last_move.unwrap_or_else(|| game.neck_move(&s.body));
            game.snakes[seat].health = s.health;
            game.snakes[seat].last_move = last_move;
        }
        for &f in &position.food {
            if !on_board(f) {
                return bad(format!("food off the board at {f}"));
            }
            let i = game.index(Pt::of(f));
            if game.occ[i] > 0 {
                return bad(format!("food under a snake at {f}"));
            }
            if !game.food.contains(i) {
                game.add_food(i);
            }
        }
        let mut zone = Zone { x0: game.width, x1: -1, y0: game.height, y1: -1 };
        for &p in &position.hazards {
            if !on_board(p) {
                return bad(format!("hazard off the board at {p}"));
            }
            let i = game.index(Pt::of(p));
            if !game.hazards.contains(i) {
                game.hazards.insert(i);
                game.hazard_count += 1;
            }
        }
        for i in 0..game.occ.len() {
            if !game.hazards.contains(i) {
                let p = game.pt(i);
                let (x, y) = (i32::from(p.x), i32::from(p.y));
                zone = Zone { x0: zone.x0.min(x), x1: zone.x1.max(x), y0: zone.y0.min(y), y1: zone.y1.max(y) };
            }
        }
        game.zone = zone;
        game.check_invariants().map_err(NewGameError::BadPosition)?;
        Ok(game)
    }

    /// A board without snakes or food, with room for bodies `longest` long.
    fn empty(settings: Settings, seats: usize, longest: usize, rng: Rng) -> Battlesnake {
        let (w, h) = (settings.width() as i32, settings.height() as i32);
        let cells = (w * h) as usize;
        // A live snake's cells are distinct except for at most three
        // stacked at the tail, and a turn adds at most two segments before
        // collisions are resolved, so this never wraps onto itself.
        let cap = (cells.max(longest) + 8).next_power_of_two();
        let snake = Snake { health: HEALTH_MAX, len: 0, last_move: Dir::Up, eliminated: None, start: 0 };
        Battlesnake {
            settings,
            width: w,
            height: h,
            turn: 0,
            snakes: vec![snake; seats],
            alive: seats as u32,
            ring: vec![Pt::default(); seats * cap],
            ring_shift: cap.trailing_zeros(),
            occ: vec![0; cells],
            occ_bits: Bits::new(cells),
            food: Bits::new(cells),
            food_count: 0,
            hazards: Bits::new(cells),
            hazard_count: 0,
            zone: Zone { x0: 0, x1: w - 1, y0: 0, y1: h - 1 },
            rng,
            scratch: Bits::new(cells),
        }
    }

    /// The settings.
    #[inline]
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Board width in cells.
    #[inline]
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Board height in cells.
    #[inline]
    pub fn height(&self) -> i32 {
        self.height
    }

    /// Turns played so far (the API's `turn`).
    #[inline]
    pub fn turn(&self) -> u64 {
        self.turn
    }

    /// The snakes, by seat.
    #[inline]
    pub fn snakes(&self) -> &[Snake] {
        &self.snakes
    }

    /// Snakes still in the game.
    pub fn alive_count(&self) -> usize {
        self.alive as usize
    }

    /// A snake's cells, head first (the head of a snake that left the board
    /// is off it).
    pub fn body(&self, seat: SnakeIdx) -> impl ExactSizeIterator<Item = Pos> + '_ {
        (0..self.snakes[seat].len).map(move |k| self.seg(seat, k).pos())
    }

    /// A snake's head.
    #[inline]
    pub fn head(&self, seat: SnakeIdx) -> Pos {
        self.seg(seat, 0).pos()
    }

    /// Segment `k` of a snake, 0 being its head; `k` must be below its
    /// length.
    #[inline]
    pub fn segment(&self, seat: SnakeIdx, k: u32) -> Pos {
        debug_assert!(k < self.snakes[seat].len, "snake {seat} has no segment {k}");
        self.seg(seat, k).pos()
    }

    /// Live segments on a cell of the board (stacked ones count once each).
    #[inline]
    pub fn segments_at(&self, p: Pos) -> u32 {
        if self.on_board_pos(p) { u32::from(self.occ[self.index(Pt::of(p))]) } else { 0 }
    }

    /// The cells holding a live segment as a bit set: bit `i % 64` of word
    /// `i / 64` is cell `i = y * width + x`, and bits past the last cell
    /// are clear. With [`Battlesnake::food_words`] and
    /// [`Battlesnake::hazard_words`], what a bot reads of the board in a few
    /// words instead of cell by cell.
    #[inline]
    pub fn occupied_words(&self) -> &[u64] {
        self.occ_bits.words()
    }

    /// The food cells as a bit set, as [`Battlesnake::occupied_words`].
    #[inline]
    pub fn food_words(&self) -> &[u64] {
        self.food.words()
    }

    /// The hazard cells as a bit set, as [`Battlesnake::occupied_words`].
    #[inline]
    pub fn hazard_words(&self) -> &[u64] {
        self.hazards.words()
    }

    /// Food cells, row by row from the top.
    pub fn food(&self) -> impl Iterator<Item = Pos> + '_ {
        self.food.iter().map(|i| self.pt(i).pos())
    }

    /// Number of food on the board.
    pub fn food_count(&self) -> usize {
        self.food_count as usize
    }

    /// Hazard cells, row by row from the top.
    pub fn hazards(&self) -> impl Iterator<Item = Pos> + '_ {
        self.hazards.iter().map(|i| self.pt(i).pos())
    }

    /// Whether `p` holds food.
    pub fn is_food(&self, p: Pos) -> bool {
        self.on_board_pos(p) && self.food.contains(self.index(Pt::of(p)))
    }

    /// Whether `p` is a hazard.
    pub fn is_hazard(&self, p: Pos) -> bool {
        self.on_board_pos(p) && self.hazards.contains(self.index(Pt::of(p)))
    }

    /// Whether the game is over: at most one snake left, or none in a solo
    /// game. Stepping a finished game only counts the turn.
    pub fn is_over(&self) -> bool {
        (self.game_over_stage().over)(self)
    }

    /// The last snake standing of a finished game of two or more snakes.
    pub fn winner(&self) -> Option<SnakeIdx> {
        if self.snakes.len() < 2 || self.alive != 1 {
            return None;
        }
        self.snakes.iter().position(Snake::is_alive)
    }

    /// The game-over stage this game runs first in every turn.
    pub fn game_over_stage(&self) -> &'static GameOverStage {
        self.settings.ruleset().game_over(self.snakes.len())
    }

    /// The moves of `seat` that neither leave the board (on a wrapped board
    /// none does) nor enter a cell holding a body segment other than a tail
    /// that will move away. This is the "safe-random" policy's choice set,
    /// used by benchmarks and simulations; bots compute their own.
    pub fn safe_moves(&self, seat: SnakeIdx) -> SafeMoves {
        let mut mask = 0u8;
        if !self.snakes[seat].is_alive() {
            return SafeMoves { mask };
        }
        let head = self.seg(seat, 0);
        // The neck is next to the head every turn and is never a tail (a
        // snake is at least three long), so it is ruled out without
        // looking for tails, the slow part.
        let neck = (self.snakes[seat].len > 2).then(|| self.seg(seat, 1));
        let wrap = self.settings.ruleset().wraps();
        for d in Dir::ALL {
            let mut p = step(head, d);
            if wrap {
                p = self.wrap(p);
            } else if !self.on_board(p) {
                continue;
            }
            if Some(p) == neck {
                continue;
            }
            let safe = match self.occ[self.index(p)] {
                0 => true,
                // One segment: safe only if it is a tail that is not stacked.
                1 => self.is_moving_tail(p),
                _ => false,
            };
            mask |= u8::from(safe) << d.index();
        }
        SafeMoves { mask }
    }

    fn is_moving_tail(&self, p: Pt) -> bool {
        (0..self.snakes.len()).any(|j| {
            let s = &self.snakes[j];
            s.is_alive() && self.seg(j, s.len - 1) == p
        })
    }

    /// Plays one turn, appending its events to `events`; [`Game::step`]
    /// without the allocation of a new vector, for runners that keep one.
    pub fn step_into(&mut self, actions: &[Action], events: &mut Vec<Event>) {
        self.turn += 1;
        let game_over = self.game_over_stage();
        if (game_over.over)(self) {
            return;
        }
        for stage in self.settings.ruleset().stages() {
            (stage.run)(self, actions, events);
        }
        if (game_over.over)(self) {
            events.push(Event::GameOver { winner: self.winner() });
        }
        debug_assert_eq!(self.check_invariants(), Ok(()));
    }

    // ------------------------------------------------------------------
    // Cells and bodies

    #[inline]
    fn seg(&self, seat: SnakeIdx, k: u32) -> Pt {
        let mask = (1u32 << self.ring_shift) - 1;
        self.ring[(seat << self.ring_shift) | ((self.snakes[seat].start.wrapping_add(k) & mask) as usize)]
    }

    #[inline]
    fn on_board(&self, p: Pt) -> bool {
        p.x >= 0 && p.y >= 0 && i32::from(p.x) < self.width && i32::from(p.y) < self.height
    }

    #[inline]
    fn on_board_pos(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height
    }

    #[inline]
    fn index(&self, p: Pt) -> usize {
        p.y as usize * self.width as usize + p.x as usize
    }

    fn pt(&self, i: usize) -> Pt {
        let w = self.width as usize;
        Pt { x: (i % w) as i8, y: (i / w) as i8 }
    }

    #[inline]
    fn wrap(&self, p: Pt) -> Pt {
        let wrap1 = |v: i8, n: i32| -> i8 {
            if v < 0 {
                (n - 1) as i8
            } else if i32::from(v) >= n {
                0
            } else {
                v
            }
        };
        Pt { x: wrap1(p.x, self.width), y: wrap1(p.y, self.height) }
    }

    /// The move that leads from `a` to its neighbour `b`, on this board
    /// (across an edge when it wraps).
    fn step_between(&self, a: Pos, b: Pos) -> Option<Dir> {
        let wrap = self.settings.ruleset().wraps();
        Dir::ALL.into_iter().find(|&d| {
            let p = step(Pt::of(a), d);
            let p = if wrap { self.wrap(p) } else { p };
            p.pos() == b
        })
    }

    /// The official default move read from a body: the way from the neck
    /// to the head, or up.
    fn neck_move(&self, body: &[Pos]) -> Dir {
        match body {
            [head, neck, ..] => self.step_between(*neck, *head).unwrap_or(Dir::Up),
            _ => Dir::Up,
        }
    }

    #[inline]
    fn occ_add(&mut self, p: Pt) {
        let i = self.index(p);
        if self.occ[i] == 0 {
            self.occ_bits.insert(i);
        }
        self.occ[i] += 1;
    }

    #[inline]
    fn occ_sub(&mut self, p: Pt) {
        let i = self.index(p);
        self.occ[i] -= 1;
        if self.occ[i] == 0 {
            self.occ_bits.remove(i);
        }
    }

    /// Appends a segment at the tail end.
    fn push_tail(&mut self, seat: SnakeIdx, p: Pt) {
        let mask = (1u32 << self.ring_shift) - 1;
        let s = self.snakes[seat];
        debug_assert!(s.len < mask, "snake {seat} outgrew its ring");
        let slot = (seat << self.ring_shift) | ((s.start.wrapping_add(s.len) & mask) as usize);
        self.ring[slot] = p;
        self.snakes[seat].len += 1;
        if self.on_board(p) {
            self.occ_add(p);
        }
    }

    /// Grows a snake by one segment on its tail's cell.
    fn grow(&mut self, seat: SnakeIdx) {
        let tail = self.seg(seat, self.snakes[seat].len - 1);
        self.push_tail(seat, tail);
    }

    fn add_food(&mut self, i: usize) {
        self.food.insert(i);
        self.food_count += 1;
    }

    fn eliminate(&mut self, seat: SnakeIdx, cause: Cause, ev: &mut Vec<Event>) {
        self.snakes[seat].eliminated = Some(Elimination { cause, turn: self.turn });
        self.alive -= 1;
        for k in 0..self.snakes[seat].len {
            let p = self.seg(seat, k);
            if self.on_board(p) {
                self.occ_sub(p);
            }
        }
        ev.push(Event::Eliminated { snake: seat, cause });
    }

    /// Whether `p` is one of the segments of `seat` after its head.
    fn body_contains(&self, seat: SnakeIdx, p: Pt) -> bool {
        (1..self.snakes[seat].len).any(|k| self.seg(seat, k) == p)
    }

    /// Seats by length, longest first: the official order for crediting a
    /// collision. The official engine breaks ties by seat, so that of two
    /// equally long snakes meeting a third head to head the lower seat was
    /// named as its eliminator; here ties go by where the snakes lie (their
    /// cells from the head on), so that relabelling the seats changes no
    /// outcome. Two live snakes never lie on the very same cells.
    fn by_length(&self) -> ([u8; SNAKES_MAX], usize) {
        let n = self.snakes.len();
        let mut order = [0u8; SNAKES_MAX];
        for (i, slot) in order.iter_mut().enumerate().take(n) {
            *slot = i as u8;
        }
        let cells = |i: usize| (0..self.snakes[i].len).map(move |k| self.seg(i, k)).map(|p| (p.x, p.y));
        order[..n].sort_by(|&a, &b| {
            let (a, b) = (usize::from(a), usize::from(b));
            self.snakes[b].len.cmp(&self.snakes[a].len).then_with(|| cells(a).cmp(cells(b))).then(a.cmp(&b))
        });
        (order, n)
    }

    // ------------------------------------------------------------------
    // Stages

    fn stage_move_standard(&mut self, actions: &[Action], ev: &mut Vec<Event>) {
        self.move_snakes(actions, ev, false);
    }

    fn stage_move_wrapped(&mut self, actions: &[Action], ev: &mut Vec<Event>) {
        self.move_snakes(actions, ev, true);
    }

    /// Every live snake moves one cell: the new head goes in front, the
    /// tail comes off. A snake without a usable move repeats its last one.
    fn move_snakes(&mut self, actions: &[Action], ev: &mut Vec<Event>, wrap: bool) {
        let mask = (1u32 << self.ring_shift) - 1;
        for seat in 0..self.snakes.len() {
            let s = self.snakes[seat];
            if !s.is_alive() {
                continue;
            }
            let dir = match actions.get(seat).copied().flatten() {
                Some(d) => d,
                None => {
                    ev.push(Event::DefaultMove { snake: seat, dir: s.last_move });
                    s.last_move
                }
            };
            let tail = self.seg(seat, s.len - 1);
            self.occ_sub(tail);
            let mut head = step(self.seg(seat, 0), dir);
            if wrap {
                head = self.wrap(head);
            }
            let start = s.start.wrapping_sub(1) & mask;
            self.ring[(seat << self.ring_shift) | start as usize] = head;
            let snake = &mut self.snakes[seat];
            snake.start = start;
            snake.last_move = dir;
            if self.on_board(head) {
                self.occ_add(head);
            }
        }
    }

    fn stage_starve(&mut self, _: &[Action], _: &mut Vec<Event>) {
        for s in &mut self.snakes {
            if s.is_alive() {
                s.health -= 1;
            }
        }
    }

    /// A head in a hazard loses `hazardDamagePerTurn` health, unless food
    /// lies there too; a snake left without health is out at once.
    fn stage_hazard_damage(&mut self, _: &[Action], ev: &mut Vec<Event>) {
        if self.hazard_count == 0 {
            return;
        }
        let damage = self.settings.hazard_damage_per_turn();
        for seat in 0..self.snakes.len() {
            if !self.snakes[seat].is_alive() {
                continue;
            }
            let head = self.seg(seat, 0);
            if !self.on_board(head) {
                continue;
            }
            let i = self.index(head);
            if !self.hazards.contains(i) || self.food.contains(i) {
                continue;
            }
            let s = &mut self.snakes[seat];
            s.health = (s.health - damage).clamp(0, HEALTH_MAX);
            if s.health <= 0 {
                self.eliminate(seat, Cause::Hazard, ev);
            }
        }
    }

    /// Every live head on food eats it (several heads may share one food):
    /// full health and one more segment, on the tail's cell.
    fn stage_feed(&mut self, _: &[Action], ev: &mut Vec<Event>) {
        if self.food_count == 0 {
            return;
        }
        let mut eaten = [0usize; SNAKES_MAX];
        let mut n = 0;
        for seat in 0..self.snakes.len() {
            if !self.snakes[seat].is_alive() {
                continue;
            }
            let head = self.seg(seat, 0);
            if !self.on_board(head) {
                continue;
            }
            let i = self.index(head);
            if self.food.contains(i) {
                self.grow(seat);
                self.snakes[seat].health = HEALTH_MAX;
                ev.push(Event::Ate { snake: seat, at: head.pos() });
                eaten[n] = i;
                n += 1;
            }
        }
        for &i in &eaten[..n] {
            if self.food.contains(i) {
                self.food.remove(i);
                self.food_count -= 1;
            }
        }
    }

    /// The official order: first every snake out of health or off the
    /// board, at once; then collisions among the rest, all decided before
    /// any is applied, so two snakes can eliminate each other. For each
    /// snake, a self collision comes before a body collision, which comes
    /// before a head-to-head (lost when not longer).
    fn stage_eliminate(&mut self, _: &[Action], ev: &mut Vec<Event>) {
        let n = self.snakes.len();
        for seat in 0..n {
            let s = &self.snakes[seat];
            if !s.is_alive() {
                continue;
            }
            if s.health <= 0 {
                self.eliminate(seat, Cause::OutOfHealth, ev);
            } else if !self.on_board(self.seg(seat, 0)) {
                self.eliminate(seat, Cause::OutOfBounds, ev);
            }
        }
        // The fast path of nearly every turn: every live head is alone on
        // its cell (a live head is on the board by now).
        let alone = |seat: usize| !self.snakes[seat].is_alive() || self.occ[self.index(self.seg(seat, 0))] == 1;
        if (0..n).all(alone) {
            return;
        }
        let mut pending = [(0usize, Cause::OutOfHealth); SNAKES_MAX];
        let mut count = 0;
        for seat in 0..n {
            if !self.snakes[seat].is_alive() {
                continue;
            }
            let head = self.seg(seat, 0);
            let on_cell = u32::from(self.occ[self.index(head)]);
            // The fast path of nearly every turn: the head is alone.
            if on_cell == 1 {
                continue;
            }
            let heads_here = (0..n).filter(|&j| self.snakes[j].is_alive() && self.seg(j, 0) == head).count() as u32;
            let cause = if on_cell > heads_here {
                if self.body_contains(seat, head) {
                    Some(Cause::SelfCollision)
                } else {
                    let (order, len) = self.by_length();
                    order[..len]
                        .iter()
                        .map(|&j| usize::from(j))
                        .find(|&j| j != seat && self.snakes[j].is_alive() && self.body_contains(j, head))
                        .map(Cause::Collision)
                }
            } else {
                let (order, len) = self.by_length();
                let mine = self.snakes[seat].len;
                order[..len]
                    .iter()
                    .map(|&j| usize::from(j))
                    .find(|&j| {
                        j != seat && self.snakes[j].is_alive() && self.seg(j, 0) == head && mine <= self.snakes[j].len
                    })
                    .map(Cause::HeadToHead)
            };
            if let Some(cause) = cause {
                pending[count] = (seat, cause);
                count += 1;
            }
        }
        for &(seat, cause) in &pending[..count] {
            self.eliminate(seat, cause, ev);
        }
    }

    /// The standard map's food: top up to `minimumFood`, otherwise one more
    /// with `foodSpawnChance` percent. The official documentation says "a
    /// percent chance"; its Go code draws `100 - Intn(100) < chance`, which
    /// is one percent less, and this follows the documentation.
    fn stage_spawn_food(&mut self, _: &[Action], ev: &mut Vec<Event>) {
        let min = self.settings.minimum_food();
        let chance = u64::from(self.settings.food_spawn_chance_pct());
        let n = if self.food_count < min {
            min - self.food_count
        } else if chance > 0 && self.rng.below(100) < chance {
            1
        } else {
            0
        };
        if n > 0 {
            self.place_food(n, ev);
        }
    }

    /// Puts `n` food on random cells that hold no food, no live snake and
    /// are not next to a live head (as many as there is room for).
    fn place_food(&mut self, n: u32, ev: &mut Vec<Event>) {
        let cells = self.occ.len();
        let last_bits = cells % 64;
        {
            let food = self.food.words();
            let occ = self.occ_bits.words();
            let free = self.scratch.words_mut();
            let words = free.len();
            for k in 0..words {
                free[k] = !(food[k] | occ[k]);
            }
            if last_bits != 0 {
                free[words - 1] &= (1u64 << last_bits) - 1;
            }
        }
        for seat in 0..self.snakes.len() {
            if !self.snakes[seat].is_alive() {
                continue;
            }
            // Not wrapped, as in the official code: on a wrapped board a
            // cell across the edge from a head may still get food.
            let head = self.seg(seat, 0);
            for d in Dir::ALL {
                let p = step(head, d);
                if self.on_board(p) {
                    let i = self.index(p);
                    self.scratch.remove(i);
                }
            }
        }
        let mut free = self.scratch.len();
        for _ in 0..n {
            if free == 0 {
                return;
            }
            let pick = self.rng.below(u64::from(free)) as u32;
            let Some(i) = self.scratch.nth(pick) else { return };
            self.scratch.remove(i);
            free -= 1;
            self.add_food(i);
            ev.push(Event::FoodSpawned { at: self.pt(i).pos() });
        }
    }

    fn stage_no_food(&mut self, _: &[Action], _: &mut Vec<Event>) {
        self.food.clear();
        self.food_count = 0;
    }

    /// Constrictor: full health, and one more segment unless the tail is
    /// already stacked (as after eating).
    fn stage_always_grow(&mut self, _: &[Action], _: &mut Vec<Event>) {
        for seat in 0..self.snakes.len() {
            let s = self.snakes[seat];
            if !s.is_alive() {
                continue;
            }
            self.snakes[seat].health = HEALTH_MAX;
            if s.len >= 2 && self.seg(seat, s.len - 1) != self.seg(seat, s.len - 2) {
                self.grow(seat);
            }
        }
    }

    /// Royale: every `shrinkEveryNTurns` turns one edge, chosen at random,
    /// moves in by a row or column and everything outside the safe zone is
    /// a hazard.
    fn stage_shrink(&mut self, _: &[Action], ev: &mut Vec<Event>) {
        let every = u64::from(self.settings.shrink_every_n_turns());
        if !self.turn.is_multiple_of(every) {
            return;
        }
        // The official draw, 0..4 = left, right, bottom, top edge.
        let side = match self.rng.below(4) {
            0 => {
                self.zone.x0 += 1;
                Dir::Left
            }
            1 => {
                self.zone.x1 -= 1;
                Dir::Right
            }
            2 => {
                self.zone.y1 -= 1;
                Dir::Down
            }
            _ => {
                self.zone.y0 += 1;
                Dir::Up
            }
        };
        self.hazards.clear();
        let z = self.zone;
        for i in 0..self.occ.len() {
            let p = self.pt(i);
            let (x, y) = (i32::from(p.x), i32::from(p.y));
            if x < z.x0 || x > z.x1 || y < z.y0 || y > z.y1 {
                self.hazards.insert(i);
            }
        }
        self.hazard_count = self.hazards.len();
        ev.push(Event::ZoneShrank { side });
    }

    // ------------------------------------------------------------------
    // Checksums

    /// The checksum of rules versions 1 to 4: FNV-1a over the state's
    /// bytes, kept so that their replays still verify.
    fn checksum_fnv(&self) -> u64 {
        let mut h = Checksum::default();
        h.u64(self.turn);
        h.bytes(&self.rng.position().to_le_bytes());
        h.u64(u64::from(self.alive));
        for v in [self.zone.x0, self.zone.x1, self.zone.y0, self.zone.y1] {
            h.i64(i64::from(v));
        }
        for (seat, s) in self.snakes.iter().enumerate() {
            h.i64(i64::from(s.health));
            h.u64(u64::from(s.len));
            h.bytes(&[s.last_move.index()]);
            match s.eliminated {
                None => h.u64(0),
                Some(e) => {
                    h.u64(e.cause.code());
                    h.u64(e.turn);
                }
            }
            for k in 0..s.len {
                let p = self.seg(seat, k);
                h.bytes(&[p.x as u8, p.y as u8]);
            }
        }
        for w in self.food.words().iter().chain(self.hazards.words()) {
            h.u64(*w);
        }
        h.finish()
    }

    // ------------------------------------------------------------------
    // Checks

    /// Checks the invariants every state between turns satisfies; debug
    /// builds check them after every turn and the simulation tests call
    /// this directly.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut occ = vec![0u32; self.occ.len()];
        let alive = self.snakes.iter().filter(|s| s.is_alive()).count() as u32;
        if alive != self.alive {
            return Err(format!("{} snakes alive, {alive} counted", self.alive));
        }
        let cap = 1u32 << self.ring_shift;
        for (seat, s) in self.snakes.iter().enumerate() {
            if s.len == 0 || s.len + 4 > cap {
                return Err(format!("snake {seat} has length {} (ring of {cap})", s.len));
            }
            if !s.is_alive() {
                continue;
            }
            if !(1..=HEALTH_MAX).contains(&s.health) && self.turn > 0 {
                return Err(format!("live snake {seat} has health {}", s.health));
            }
            let body: Vec<Pos> = self.body(seat).collect();
            for (k, &p) in body.iter().enumerate() {
                if !self.on_board_pos(p) {
                    return Err(format!("live snake {seat} is off the board at {p}"));
                }
                occ[self.index(Pt::of(p))] += 1;
                if k > 0 && p != body[k - 1] && self.step_between(body[k - 1], p).is_none() {
                    return Err(format!("snake {seat} is broken between {} and {p}", body[k - 1]));
                }
            }
            if body[1..].contains(&body[0]) && body.iter().any(|&p| p != body[0]) {
                return Err(format!("live snake {seat} has its head in its body at {}", body[0]));
            }
        }
        for (i, (&want, &have)) in occ.iter().zip(&self.occ).enumerate() {
            if want != u32::from(have) || self.occ_bits.contains(i) != (have > 0) {
                return Err(format!("cell {} holds {want} segments, counted {have}", self.pt(i).pos()));
            }
        }
        for seat in 0..self.snakes.len() {
            if !self.snakes[seat].is_alive() {
                continue;
            }
            // After a turn a live head shares its cell with no other snake.
            let head = self.seg(seat, 0);
            let own = (0..self.snakes[seat].len).filter(|&k| self.seg(seat, k) == head).count() as u32;
            if occ[self.index(head)] != own {
                return Err(format!("live head of snake {seat} at {} is not alone", head.pos()));
            }
        }
        if self.food.len() != self.food_count || self.hazards.len() != self.hazard_count {
            return Err("food or hazard count is stale".to_string());
        }
        if let Some(i) = self.food.iter().find(|&i| occ[i] > 0) {
            return Err(format!("food under a live snake at {}", self.pt(i).pos()));
        }
        if !self.settings.ruleset().has_food() && self.food_count > 0 {
            return Err("food in a constrictor game".to_string());
        }
        Ok(())
    }
}

#[inline]
fn step(p: Pt, d: Dir) -> Pt {
    let (dx, dy) = d.delta();
    Pt { x: p.x + dx as i8, y: p.y + dy as i8 }
}

impl Game for Battlesnake {
    type Action = Action;
    type Event = Event;

    fn name(&self) -> &'static str {
        "battlesnake"
    }

    fn seats(&self) -> usize {
        self.snakes.len()
    }

    fn step(&mut self, actions: &[Action]) -> Vec<Event> {
        let mut events = Vec::new();
        self.step_into(actions, &mut events);
        events
    }

    fn tick(&self) -> u64 {
        self.turn
    }

    /// Rules version 5 on: the state packed into words ([`WordSum`]): the
    /// turn, the random stream's position, the live count, the royale
    /// zone; per seat its health and length, last move and elimination,
    /// and its cells four to a word; the food and hazard sets as they are
    /// held, a bit per cell.
    fn checksum(&self) -> u64 {
        let mut h = WordSum::default();
        h.word(self.turn);
        let rng = self.rng.position();
        h.word(rng as u64);
        h.word((rng >> 64) as u64);
        h.word(u64::from(self.alive));
        h.word(u64::from(self.zone.x0 as u32) | u64::from(self.zone.x1 as u32) << 32);
        h.word(u64::from(self.zone.y0 as u32) | u64::from(self.zone.y1 as u32) << 32);
        let mask = (1u32 << self.ring_shift) - 1;
        for (seat, s) in self.snakes.iter().enumerate() {
            h.word(u64::from(s.health as u32) | u64::from(s.len) << 32);
            match s.eliminated {
                None => h.word(u64::from(s.last_move.index())),
                Some(e) => {
                    h.word(u64::from(s.last_move.index()) | e.cause.code() << 8);
                    h.word(e.turn);
                }
            }
            let ring = &self.ring[seat << self.ring_shift..][..=mask as usize];
            let (start, len) = (s.start as usize, s.len as usize);
            if start + len <= ring.len() {
                // The body in one piece (all but the few turns in which it
                // wraps around its ring): four cells a word, without
                // masking every index.
                let mut chunks = ring[start..start + len].chunks_exact(4);
                for c in &mut chunks {
                    h.word(c[0].bits() | c[1].bits() << 16 | c[2].bits() << 32 | c[3].bits() << 48);
                }
                let rest = chunks.remainder();
                if !rest.is_empty() {
                    h.word(rest.iter().enumerate().fold(0, |w, (k, p)| w | p.bits() << (16 * k)));
                }
                continue;
            }
            let mut packed = 0u64;
            for k in 0..s.len {
                let p = ring[(s.start.wrapping_add(k) & mask) as usize];
                packed |= p.bits() << (16 * (k & 3));
                if k & 3 == 3 {
                    h.word(packed);
                    packed = 0;
                }
            }
            if s.len & 3 != 0 {
                h.word(packed);
            }
        }
        for &w in self.food.words().iter().chain(self.hazards.words()) {
            h.word(w);
        }
        h.finish()
    }

    fn checksum_as_of(&self, engine: &str) -> u64 {
        match engine {
            "1" | "2" | "3" | "4" => self.checksum_fnv(),
            _ => self.checksum(),
        }
    }

    /// Turns survived: the turn of the last completed move, so the winner
    /// ranks above the snakes eliminated in the final turn.
    fn scores(&self) -> Vec<i64> {
        self.snakes
            .iter()
            .map(|s| match s.eliminated {
                Some(e) => e.turn as i64 - 1,
                None => self.turn as i64,
            })
            .collect()
    }

    fn relabel_event(event: &Event, from: &[usize]) -> Event {
        let to = crate::game::relabel_inverse(from);
        match *event {
            Event::DefaultMove { snake, dir } => Event::DefaultMove { snake: to[snake], dir },
            Event::Ate { snake, at } => Event::Ate { snake: to[snake], at },
            Event::Eliminated { snake, cause } => {
                let cause = match cause {
                    Cause::Collision(by) => Cause::Collision(to[by]),
                    Cause::HeadToHead(by) => Cause::HeadToHead(to[by]),
                    other => other,
                };
                Event::Eliminated { snake: to[snake], cause }
            }
            Event::FoodSpawned { at } => Event::FoodSpawned { at },
            Event::ZoneShrank { side } => Event::ZoneShrank { side },
            Event::GameOver { winner } => Event::GameOver { winner: winner.map(|w| to[w]) },
        }
    }

    fn relabel_seats(&self, from: &[usize]) -> Battlesnake {
        let to = crate::game::relabel_inverse(from);
        let mut g = self.clone();
        let cap = 1usize << self.ring_shift;
        for (i, &j) in from.iter().enumerate() {
            let mut s = self.snakes[j];
            if let Some(e) = &mut s.eliminated {
                e.cause = match e.cause {
                    Cause::Collision(by) => Cause::Collision(to[by]),
                    Cause::HeadToHead(by) => Cause::HeadToHead(to[by]),
                    c => c,
                };
            }
            g.snakes[i] = s;
            g.ring[i * cap..(i + 1) * cap].copy_from_slice(&self.ring[j * cap..(j + 1) * cap]);
        }
        g
    }

    fn action_to_text(action: &Action) -> String {
        match action {
            Some(d) => d.letter().to_string(),
            None => "-".to_string(),
        }
    }

    fn push_action_text(action: &Action, out: &mut String) {
        out.push(action.map_or('-', Dir::letter));
    }

    fn action_from_text(text: &str) -> Result<Action, ParseActionError> {
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some('-'), None) => Ok(None),
            (Some(c), None) => Dir::from_letter(c)
                .map(Some)
                .ok_or(ParseActionError { text: text.to_string(), reason: "expected U, R, D, L or -" }),
            _ => Err(ParseActionError { text: text.to_string(), reason: "expected U, R, D, L or -" }),
        }
    }
}
