//! The Hex state and the stages of its tick.

use super::action::Action;
use super::map::Map;
use super::settings::Settings;
use crate::checksum::Checksum;
use crate::game::{Game, ParseActionError};
use crate::geom::Pos;
use crate::rng::Rng;

/// Index of a seat (player) in a game. Seats are numbered in join order and
/// never renumbered; a seat left by one player is reused by the next.
pub type SeatIdx = usize;

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Nothing: a piece may move here.
    Empty,
    /// A wall of the map, or one formed by two pieces meeting.
    Wall,
    /// A piece of this seat.
    Piece(SeatIdx),
}

/// One seat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Player {
    /// Whether a player holds this seat.
    pub present: bool,
    /// Whether the player's pieces are on the field: set when the first
    /// piece is placed, cleared by a restart or by leaving. A present seat
    /// that is not placed gets a piece at the end of the next tick.
    pub placed: bool,
    /// Pieces on the field (kept equal to the board by the engine).
    pub pieces: u32,
    /// Accumulated score, never below zero.
    pub score: i64,
}

/// Why everyone starts again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Restart {
    /// These seats (all that qualify, in ascending order, so that none is
    /// named for its number) had no pieces left.
    NoPieces(Vec<SeatIdx>),
    /// No empty cell was left.
    BoardFull,
    /// No cell changed for `still_restart_ticks` ticks.
    Still,
}

/// Why a move was ignored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ignored {
    /// The selected cell does not hold one of the seat's pieces.
    NotYourPiece,
    /// The target is off the board.
    OffBoard,
    /// The target is a wall.
    Wall,
    /// The target held a piece when the tick began.
    Occupied,
    /// Everyone restarted this tick; moves chosen for the old position are
    /// dropped.
    Restart,
}

/// What a score change was for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreReason {
    /// Pieces gained: clones and captures.
    Gained,
    /// Pieces lost: captured by enemies, or jumped into a new wall.
    Lost,
}

/// Everything a tick can report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A player's pieces were taken off the field because the player left
    /// (or the seat changed hands).
    Left {
        /// Seat.
        seat: SeatIdx,
        /// Pieces removed.
        pieces: u32,
    },
    /// Everyone's pieces were cleared; each present player gets a fresh
    /// piece at the end of this tick ([`Event::Placed`]).
    Restarted {
        /// Why.
        reason: Restart,
    },
    /// A move that could not be made; the seat skips the tick.
    Ignored {
        /// Seat.
        seat: SeatIdx,
        /// The move as given.
        action: Action,
        /// Why.
        why: Ignored,
    },
    /// A piece cloned itself into a neighbouring cell.
    Cloned {
        /// Seat.
        seat: SeatIdx,
        /// The piece that stays.
        from: Pos,
        /// The new piece.
        to: Pos,
    },
    /// A piece jumped two cells.
    Jumped {
        /// Seat.
        seat: SeatIdx,
        /// Where it was.
        from: Pos,
        /// Where it is.
        to: Pos,
    },
    /// Two or more new pieces went to one cell: it became a wall and the
    /// pieces are gone.
    WallFormed {
        /// The cell.
        at: Pos,
        /// The seats that moved there, in seat order.
        seats: Vec<SeatIdx>,
    },
    /// A jumped piece ended in a new wall: its owner loses it.
    JumpLost {
        /// Seat.
        seat: SeatIdx,
        /// The cell it jumped from.
        from: Pos,
        /// The wall it ended in.
        at: Pos,
    },
    /// A new piece next to another new piece of this tick captures nothing.
    Neutralised {
        /// Seat.
        seat: SeatIdx,
        /// The new piece.
        at: Pos,
    },
    /// An enemy piece next to a new piece changed sides.
    Captured {
        /// The capturer.
        seat: SeatIdx,
        /// The previous owner.
        victim: SeatIdx,
        /// The piece.
        at: Pos,
    },
    /// A score changed.
    Scored {
        /// Seat.
        seat: SeatIdx,
        /// Why.
        reason: ScoreReason,
        /// How many pieces.
        pieces: u32,
        /// Points as the rules state them (the score itself is floored at
        /// zero).
        points: i64,
    },
    /// A present player got a fresh piece (after joining or a restart).
    Placed {
        /// Seat.
        seat: SeatIdx,
        /// The piece.
        at: Pos,
    },
    /// A present player could not be placed: no empty cell. The full board
    /// restarts everyone at the next tick.
    NoRoom {
        /// Seat.
        seat: SeatIdx,
    },
}

/// What the stages of one tick share besides the state; made fresh for
/// every tick.
#[derive(Default)]
pub struct TickScratch {
    /// Everyone restarted this tick; moves are dropped.
    restarted: bool,
    /// The valid moves of this tick, in seat order.
    moves: Vec<NewPiece>,
    /// Cells (indices) of the new pieces that survived collisions.
    new_cells: Vec<usize>,
    /// Pieces gained and lost this tick, by seat.
    gained: Vec<u32>,
    lost: Vec<u32>,
}

/// A valid move of this tick.
#[derive(Clone, Copy, Debug)]
struct NewPiece {
    seat: SeatIdx,
    from: usize,
    to: usize,
    jump: bool,
    /// Two or more new pieces target this cell.
    collided: bool,
    /// Another new piece targets a cell next to this one.
    neutral: bool,
}

/// A stage of the tick: one named step of the rules, run in order.
pub struct Stage {
    /// Name, as listed in the rules' documentation.
    pub name: &'static str,
    /// The step.
    pub run: fn(&mut Hex, &[Action], &mut TickScratch, &mut Vec<Event>),
}

/// The stages of a tick, in order.
pub const STAGES: &[Stage] = &[
    Stage { name: "leave", run: Hex::stage_leave },
    Stage { name: "restart", run: Hex::stage_restart },
    Stage { name: "moves", run: Hex::stage_moves },
    Stage { name: "collisions", run: Hex::stage_collisions },
    Stage { name: "captures", run: Hex::stage_captures },
    Stage { name: "scores", run: Hex::stage_scores },
    Stage { name: "placement", run: Hex::stage_placement },
];

/// Tries at a random cell before a placement scans the whole board.
const PLACE_TRIES: u32 = 64;

/// A game of Hex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hex {
    settings: Settings,
    map: Map,
    cells: Vec<Cell>,
    players: Vec<Player>,
    tick: u64,
    rng: Rng,
    /// Ticks in a row, up to the last one, after which every cell was as
    /// before it while someone held a seat.
    still_ticks: u32,
}

pub use crate::game::NewGameError;

impl Hex {
    /// A new game with `seats` players, all present, each with one piece at
    /// a random free cell. With `seats` 0 the field starts
    /// empty and [`Hex::join`] adds seats as players come; a room that wants
    /// a fixed number of seats uses [`Hex::new_room`].
    pub fn new(settings: Settings, map: Map, seats: usize, seed: u64) -> Result<Hex, NewGameError> {
        if seats > settings.players_per_field as usize {
            return Err(NewGameError(format!(
                "{seats} players, but players_per_field is {}",
                settings.players_per_field
            )));
        }
        let cells = map.walls.iter().map(|&w| if w { Cell::Wall } else { Cell::Empty }).collect();
        let mut game = Hex {
            settings,
            map,
            cells,
            players: (0..seats).map(|_| Player { present: true, ..Player::default() }).collect(),
            tick: 0,
            rng: Rng::new(seed),
            still_ticks: 0,
        };
        game.stage_placement(&[], &mut TickScratch::default(), &mut Vec::new());
        Ok(game)
    }

    /// A room's field: `players_per_field` seats, all free, no pieces.
    /// Players take seats with [`Hex::join`]; the number of seats never
    /// changes, so per-seat tables and replays keep their size.
    pub fn new_room(settings: Settings, map: Map, seed: u64) -> Hex {
        let seats = settings.players_per_field as usize;
        let mut game = Hex::new(settings, map, 0, seed).expect("an empty field always starts");
        game.players = vec![Player::default(); seats];
        game
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The map the game started from (formed walls are in [`Hex::cells`]).
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// Board side.
    pub fn size(&self) -> usize {
        self.map.size
    }

    /// Every cell, row by row from the top.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The cell at `p`; off the board reads as a wall.
    pub fn cell(&self, p: Pos) -> Cell {
        self.map.index(p).map_or(Cell::Wall, |i| self.cells[i])
    }

    /// Ticks in a row, up to the last one, in which no cell changed.
    pub fn still_ticks(&self) -> u32 {
        self.still_ticks
    }

    /// The seats, in join order.
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// The cells of a seat's pieces, row by row from the top.
    pub fn pieces_of(&self, seat: SeatIdx) -> Vec<Pos> {
        let mine = Cell::Piece(seat);
        (0..self.cells.len()).filter(|&i| self.cells[i] == mine).map(|i| self.map.pos(i)).collect()
    }

    /// Seats a player or frees the seat; nothing else changes until the
    /// next tick. Freeing a seat takes its pieces off the field at the next
    /// tick; seating a player gives it one fresh piece at the end of the next
    /// tick (freeing and re-seating before a tick is a fresh start). The
    /// seat's score is kept either way: a room that hands a seat to a new
    /// player accounts scores as per-player deltas, or uses [`Hex::join`].
    /// A seat that does not exist is ignored.
    pub fn set_present(&mut self, seat: SeatIdx, present: bool) {
        if let Some(p) = self.players.get_mut(seat) {
            if !present {
                p.placed = false;
            }
            p.present = present;
        }
    }

    /// Seats a new player: the lowest free seat, or a new one while the
    /// field has fewer than `players_per_field` seats. The player starts
    /// with score 0 and gets a piece at the end of the next tick. `None`
    /// when the field is full.
    pub fn join(&mut self) -> Option<SeatIdx> {
        let seat = match self.players.iter().position(|p| !p.present) {
            Some(seat) => seat,
            None if self.players.len() < self.settings.players_per_field as usize => {
                self.players.push(Player::default());
                self.players.len() - 1
            }
            None => return None,
        };
        // A freed seat keeps its pieces until the next tick; the new player
        // must not inherit them.
        self.set_present(seat, false);
        self.set_present(seat, true);
        self.players[seat].score = 0;
        Some(seat)
    }

    /// Frees a seat: `set_present(seat, false)`.
    pub fn leave(&mut self, seat: SeatIdx) {
        self.set_present(seat, false);
    }

    /// Replaces the position; for rule tests that start from a drawn board.
    /// `cells` must have `size * size` entries; the map's walls are forced
    /// back to walls. Piece counts are recomputed from the cells, and a seat
    /// with pieces counts as placed.
    pub fn set_position(&mut self, cells: Vec<Cell>, players: Vec<Player>) {
        assert_eq!(cells.len(), self.cells.len(), "one cell per map cell");
        self.cells = cells;
        for (i, &wall) in self.map.walls.iter().enumerate() {
            if wall {
                self.cells[i] = Cell::Wall;
            }
        }
        self.players = players;
        self.still_ticks = 0;
        for p in &mut self.players {
            p.pieces = 0;
        }
        for c in &self.cells {
            if let Cell::Piece(s) = *c {
                assert!(s < self.players.len(), "a piece of seat {s}, but there are {} seats", self.players.len());
                self.players[s].pieces += 1;
            }
        }
        for p in &mut self.players {
            p.placed = p.present && (p.placed || p.pieces > 0);
        }
    }

    /// Takes the pieces of freed seats off the field (a seat that was freed
    /// and seated again before this tick starts afresh the same way).
    fn stage_leave(&mut self, _: &[Action], _: &mut TickScratch, ev: &mut Vec<Event>) {
        for seat in 0..self.players.len() {
            let p = &self.players[seat];
            if p.placed || p.pieces == 0 {
                continue;
            }
            let pieces = p.pieces;
            self.clear_pieces(|s| s == seat);
            ev.push(Event::Left { seat, pieces });
        }
    }

    /// Upstream's tick step 2, checked before any move of this tick (as
    /// upstream does): a player without pieces, or a full board, restarts
    /// everyone. So does a field that stood still for
    /// `still_restart_ticks`, a rule of ours (see [`Settings`]).
    fn stage_restart(&mut self, _: &[Action], t: &mut TickScratch, ev: &mut Vec<Event>) {
        let no_pieces: Vec<SeatIdx> =
            (0..self.players.len()).filter(|&s| self.players[s].present && self.players[s].placed && self.players[s].pieces == 0).collect();
        let anyone = self.players.iter().any(|p| p.present);
        let still_max = self.settings.still_restart_ticks;
        let reason = if !no_pieces.is_empty() {
            Restart::NoPieces(no_pieces)
        } else if anyone && !self.cells.contains(&Cell::Empty) {
            Restart::BoardFull
        } else if anyone && still_max > 0 && self.still_ticks >= still_max {
            Restart::Still
        } else {
            return;
        };
        ev.push(Event::Restarted { reason });
        self.clear_pieces(|_| true);
        if self.settings.restart_clears_walls {
            for (c, &wall) in self.cells.iter_mut().zip(&self.map.walls) {
                if !wall {
                    *c = Cell::Empty;
                }
            }
        }
        for p in &mut self.players {
            p.placed = false;
        }
        t.restarted = true;
    }

    /// Checks every seat's move against the position at the start of the
    /// tick, so that moves are simultaneous: a cell that another player's
    /// new piece takes this tick still counts as free (the two then meet),
    /// and a cell a jump leaves this tick still counts as taken.
    fn stage_moves(&mut self, actions: &[Action], t: &mut TickScratch, ev: &mut Vec<Event>) {
        for (seat, &action) in actions.iter().enumerate().take(self.players.len()) {
            let Action::Move { from, jump, .. } = action else { continue };
            if !self.players[seat].present {
                continue;
            }
            let why = if t.restarted {
                Some(Ignored::Restart)
            } else if self.cell(from) != Cell::Piece(seat) {
                Some(Ignored::NotYourPiece)
            } else {
                match action.target().and_then(|to| self.map.index(to)).map(|i| (i, self.cells[i])) {
                    None => Some(Ignored::OffBoard),
                    Some((_, Cell::Wall)) => Some(Ignored::Wall),
                    Some((_, Cell::Piece(_))) => Some(Ignored::Occupied),
                    Some((to, Cell::Empty)) => {
                        let from = self.map.index(from).expect("a piece is on the board");
                        t.moves.push(NewPiece { seat, from, to, jump, collided: false, neutral: false });
                        None
                    }
                }
            };
            if let Some(why) = why {
                ev.push(Event::Ignored { seat, action, why });
            }
        }
    }

    /// Two new pieces on one cell make a wall and are gone; with
    /// `annihilation`, new pieces next to each other are neutralised; the
    /// others are put on the board.
    ///
    /// Every new piece of the tick counts for neutralising, those that end
    /// in a wall too, as upstream compares all of them pairwise.
    fn stage_collisions(&mut self, _: &[Action], t: &mut TickScratch, ev: &mut Vec<Event>) {
        let n = self.map.size;
        let moves = &mut t.moves;
        for i in 0..moves.len() {
            for j in i + 1..moves.len() {
                let (a, b) = (moves[i].to, moves[j].to);
                if a == b {
                    moves[i].collided = true;
                    moves[j].collided = true;
                } else if (a % n).abs_diff(b % n) <= 1 && (a / n).abs_diff(b / n) <= 1 {
                    moves[i].neutral = true;
                    moves[j].neutral = true;
                }
            }
        }
        t.gained = vec![0; self.players.len()];
        t.lost = vec![0; self.players.len()];
        for i in 0..moves.len() {
            let m = moves[i];
            if !m.collided {
                continue;
            }
            if self.cells[m.to] == Cell::Wall {
                // This cell's wall was formed at an earlier member of the
                // group; its pieces were handled there.
                continue;
            }
            self.cells[m.to] = Cell::Wall;
            let group: Vec<NewPiece> = moves[i..].iter().copied().filter(|o| o.to == m.to).collect();
            let at = self.map.pos(m.to);
            ev.push(Event::WallFormed { at, seats: group.iter().map(|g| g.seat).collect() });
            for g in group.iter().filter(|g| g.jump) {
                self.cells[g.from] = Cell::Empty;
                self.players[g.seat].pieces -= 1;
                t.lost[g.seat] += 1;
                ev.push(Event::JumpLost { seat: g.seat, from: self.map.pos(g.from), at });
            }
        }
        for m in moves.iter().filter(|m| !m.collided) {
            let (from, to) = (self.map.pos(m.from), self.map.pos(m.to));
            self.cells[m.to] = Cell::Piece(m.seat);
            if m.jump {
                self.cells[m.from] = Cell::Empty;
                ev.push(Event::Jumped { seat: m.seat, from, to });
            } else {
                self.players[m.seat].pieces += 1;
                t.gained[m.seat] += 1;
                ev.push(Event::Cloned { seat: m.seat, from, to });
            }
            t.new_cells.push(m.to);
        }
        for m in moves.iter().filter(|m| !m.collided && m.neutral && self.settings.annihilation) {
            ev.push(Event::Neutralised { seat: m.seat, at: self.map.pos(m.to) });
        }
    }

    /// Each new piece that is not in a wall (nor, with `annihilation`,
    /// neutralised) converts every enemy piece in its 8-neighbourhood that
    /// was not itself placed in this tick. Captured pieces capture nothing
    /// in turn. A piece that new pieces of two or more players reach in the
    /// same tick stays with its owner: the moves are simultaneous, so
    /// neither player got there first.
    fn stage_captures(&mut self, _: &[Action], t: &mut TickScratch, ev: &mut Vec<Event>) {
        let n = self.map.size as i32;
        let annihilation = self.settings.annihilation;
        // (cell, capturer) for every enemy piece a new piece reaches.
        let mut reach: Vec<(usize, SeatIdx)> = Vec::new();
        let captures = |m: &&NewPiece| !m.collided && (!annihilation || !m.neutral);
        for m in t.moves.iter().filter(captures) {
            let at = self.map.pos(m.to);
            for (dx, dy) in NEIGHBOURS {
                let (x, y) = (at.x + dx, at.y + dy);
                if x < 0 || y < 0 || x >= n || y >= n {
                    continue;
                }
                let i = (y * n + x) as usize;
                let Cell::Piece(victim) = self.cells[i] else { continue };
                if victim != m.seat && !t.new_cells.contains(&i) {
                    reach.push((i, m.seat));
                }
            }
        }
        reach.sort_unstable();
        reach.dedup();
        for (k, &(i, seat)) in reach.iter().enumerate() {
            let contested = |o: Option<&(usize, SeatIdx)>| o.is_some_and(|&(j, _)| j == i);
            if contested(k.checked_sub(1).and_then(|p| reach.get(p))) || contested(reach.get(k + 1)) {
                continue;
            }
            let Cell::Piece(victim) = self.cells[i] else { continue };
            self.cells[i] = Cell::Piece(seat);
            self.players[victim].pieces -= 1;
            self.players[seat].pieces += 1;
            t.lost[victim] += 1;
            t.gained[seat] += 1;
            ev.push(Event::Captured { seat, victim, at: self.map.pos(i) });
        }
    }

    /// Losses first, then gains, each floored at zero, as upstream fires
    /// its LOSE event before its WIN event.
    fn stage_scores(&mut self, _: &[Action], t: &mut TickScratch, ev: &mut Vec<Event>) {
        for seat in 0..t.gained.len() {
            for (reason, pieces) in [(ScoreReason::Lost, t.lost[seat]), (ScoreReason::Gained, t.gained[seat])] {
                if pieces == 0 {
                    continue;
                }
                let per = match reason {
                    ScoreReason::Lost => -self.settings.points_lose,
                    ScoreReason::Gained => self.settings.points_win,
                };
                let points = per * i64::from(pieces);
                let p = &mut self.players[seat];
                p.score = (p.score + points).max(0);
                ev.push(Event::Scored { seat, reason, pieces, points });
            }
        }
    }

    /// Every present seat without pieces on the field gets one piece at a
    /// random free cell. This comes last, so the new piece is first seen on
    /// the board sent after the tick, and no move of this tick, made without
    /// knowing it, can take it.
    ///
    /// The seats draw in order of their scores, lowest first, never of their
    /// numbers, so that relabelling the seats relabels the outcome. A placed
    /// seat keeps nothing but its score, so seats with equal scores are
    /// alike but for the cell they draw, and which of them draws first
    /// (seat order) cannot matter.
    fn stage_placement(&mut self, _: &[Action], _: &mut TickScratch, ev: &mut Vec<Event>) {
        let mut waiting: Vec<SeatIdx> =
            (0..self.players.len()).filter(|&s| self.players[s].present && !self.players[s].placed).collect();
        waiting.sort_by_key(|&s| self.players[s].score);
        for seat in waiting {
            match self.random_free_cell() {
                Some(i) => {
                    self.cells[i] = Cell::Piece(seat);
                    let p = &mut self.players[seat];
                    p.placed = true;
                    p.pieces = 1;
                    ev.push(Event::Placed { seat, at: self.map.pos(i) });
                }
                None => ev.push(Event::NoRoom { seat }),
            }
        }
    }

    fn clear_pieces(&mut self, whose: impl Fn(SeatIdx) -> bool) {
        for c in &mut self.cells {
            if let Cell::Piece(s) = *c
                && whose(s)
            {
                *c = Cell::Empty;
                self.players[s].pieces -= 1;
            }
        }
    }

    /// Upstream's `freeRandom`: random cells first, then, on a crowded
    /// board, a uniform pick among the free ones.
    fn random_free_cell(&mut self) -> Option<usize> {
        let cells = self.cells.len();
        for _ in 0..PLACE_TRIES {
            let i = self.rng.index(cells);
            if self.cells[i] == Cell::Empty {
                return Some(i);
            }
        }
        let free: Vec<usize> = (0..cells).filter(|&i| self.cells[i] == Cell::Empty).collect();
        (!free.is_empty()).then(|| free[self.rng.index(free.len())])
    }

    /// Checks the invariants every state must satisfy after a tick; the
    /// property tests call this after every tick, and `step` asserts it in
    /// debug builds. (Between [`Hex::set_present`] and the next tick a
    /// freed seat may still hold pieces.)
    pub fn check_invariants(&self) -> Result<(), String> {
        let n = self.map.size;
        if self.cells.len() != n * n {
            return Err(format!("{} cells on a {n}x{n} board", self.cells.len()));
        }
        let mut counts = vec![0u32; self.players.len()];
        for (i, c) in self.cells.iter().enumerate() {
            match *c {
                Cell::Piece(s) if s >= counts.len() => {
                    return Err(format!("a piece of seat {s} at {}, but there are {} seats", self.map.pos(i), counts.len()));
                }
                Cell::Piece(s) => counts[s] += 1,
                _ => {}
            }
            if self.map.walls[i] && *c != Cell::Wall {
                return Err(format!("the map's wall at {} holds {c:?}", self.map.pos(i)));
            }
        }
        let full = !self.cells.contains(&Cell::Empty);
        for (s, p) in self.players.iter().enumerate() {
            if p.pieces != counts[s] {
                return Err(format!("seat {s} counts {} pieces, the board holds {}", p.pieces, counts[s]));
            }
            if p.score < 0 {
                return Err(format!("seat {s} has score {}", p.score));
            }
            if !p.present && (p.placed || p.pieces > 0) {
                return Err(format!("absent seat {s} is still on the field with {} pieces", p.pieces));
            }
            if p.present && !p.placed && !full {
                return Err(format!("present seat {s} was not placed, though the board has room"));
            }
            if !p.placed && p.pieces > 0 {
                return Err(format!("seat {s} is not placed but holds {} pieces", p.pieces));
            }
        }
        Ok(())
    }
}

/// The 8-neighbourhood, in a fixed order: row above, same row, row below.
const NEIGHBOURS: [(i32, i32); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

impl Game for Hex {
    type Action = Action;
    type Event = Event;

    fn name(&self) -> &'static str {
        "hex"
    }

    fn seats(&self) -> usize {
        self.players.len()
    }

    fn step(&mut self, actions: &[Action]) -> Vec<Event> {
        let mut ev = Vec::new();
        let mut scratch = TickScratch::default();
        self.tick += 1;
        for stage in STAGES {
            (stage.run)(self, actions, &mut scratch, &mut ev);
        }
        // Each change of a cell has its event (the simulation tests hold
        // the events to the cells), so the events tell a still tick.
        let changed = ev.iter().any(|e| {
            matches!(
                e,
                Event::Left { .. }
                    | Event::Restarted { .. }
                    | Event::Cloned { .. }
                    | Event::Jumped { .. }
                    | Event::WallFormed { .. }
                    | Event::JumpLost { .. }
                    | Event::Captured { .. }
                    | Event::Placed { .. }
            )
        });
        // An empty field is not a still game: the first player to sit
        // down must not find it about to restart.
        let anyone = self.players.iter().any(|p| p.present);
        self.still_ticks = if changed || !anyone { 0 } else { self.still_ticks.saturating_add(1) };
        debug_assert_eq!(self.check_invariants(), Ok(()));
        ev
    }

    fn tick(&self) -> u64 {
        self.tick
    }

    fn checksum(&self) -> u64 {
        let mut h = Checksum::default();
        h.u64(self.tick);
        h.bytes(&self.rng.position().to_le_bytes());
        // `still_ticks` is left out: it follows from the cells of earlier
        // ticks, which their checksums cover, and leaving it out keeps the
        // checksums of replays recorded before it existed.
        for c in &self.cells {
            h.u64(match *c {
                Cell::Empty => 0,
                Cell::Wall => 1,
                Cell::Piece(s) => 2 + s as u64,
            });
        }
        h.u64(self.players.len() as u64);
        for p in &self.players {
            h.bytes(&[u8::from(p.present), u8::from(p.placed)]);
            h.u64(u64::from(p.pieces));
            h.i64(p.score);
        }
        h.finish()
    }

    fn scores(&self) -> Vec<i64> {
        self.players.iter().map(|p| p.score).collect()
    }

    fn relabel_event(event: &Event, from: &[usize]) -> Event {
        let to = crate::game::relabel_inverse(from);
        let set = |seats: &[SeatIdx]| {
            let mut v: Vec<SeatIdx> = seats.iter().map(|&s| to[s]).collect();
            v.sort_unstable();
            v
        };
        match event {
            &Event::Left { seat, pieces } => Event::Left { seat: to[seat], pieces },
            Event::Restarted { reason } => {
                let reason = match reason {
                    Restart::NoPieces(seats) => Restart::NoPieces(set(seats)),
                    other => other.clone(),
                };
                Event::Restarted { reason }
            }
            &Event::Ignored { seat, action, why } => Event::Ignored { seat: to[seat], action, why },
            &Event::Cloned { seat, from, to: at } => Event::Cloned { seat: to[seat], from, to: at },
            &Event::Jumped { seat, from, to: at } => Event::Jumped { seat: to[seat], from, to: at },
            Event::WallFormed { at, seats } => Event::WallFormed { at: *at, seats: set(seats) },
            &Event::JumpLost { seat, from, at } => Event::JumpLost { seat: to[seat], from, at },
            &Event::Neutralised { seat, at } => Event::Neutralised { seat: to[seat], at },
            &Event::Captured { seat, victim, at } => Event::Captured { seat: to[seat], victim: to[victim], at },
            &Event::Scored { seat, reason, pieces, points } => Event::Scored { seat: to[seat], reason, pieces, points },
            &Event::Placed { seat, at } => Event::Placed { seat: to[seat], at },
            &Event::NoRoom { seat } => Event::NoRoom { seat: to[seat] },
        }
    }

    fn relabel_seats(&self, from: &[usize]) -> Hex {
        let to = crate::game::relabel_inverse(from);
        let mut g = self.clone();
        g.players = from.iter().map(|&j| self.players[j].clone()).collect();
        for c in &mut g.cells {
            if let Cell::Piece(s) = c {
                *s = to[*s];
            }
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
