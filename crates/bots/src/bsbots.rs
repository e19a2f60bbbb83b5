//! Built-in Battlesnake bots.
//!
//! A built-in snake decides from a [`View`]: the board as cells, the
//! snakes' heads and lengths, and which cells are blocked next turn. The
//! view is filled either from the engine's state ([`BattlesnakeBot::choose_in`],
//! what games and tournaments use: no request is built, no JSON written
//! or read, no allocation after the first turn) or from the request an
//! HTTP snake gets ([`BattlesnakeBot::choose`], in the API's coordinates,
//! `y` up). Both fills give the same view, so a snake makes the same move
//! either way; the tests play whole games checking that, which also checks
//! the request conversion.
//!
//! - `random`: the "safe-random" policy of the benchmarks: a uniformly
//!   random move that neither leaves the board nor enters a body cell other
//!   than a tail that moves away.
//! - `greedy`: among the safe moves, those that do not risk a head-to-head
//!   with a snake at least as long and leave room to live in; of those, the
//!   one nearest to food, keeping out of hazards unless it must.

use snakepit_engine::battlesnake::{Battlesnake, SNAKES_MAX};
use snakepit_engine::{Dir, Pos, Rng};
use snakepit_protocol::battlesnake::{Coord, InfoResponse, MoveResponse, SnakeRequest};

/// A Battlesnake played in-process.
pub trait BattlesnakeBot: Send {
    /// The answer to `GET /`.
    fn info(&self) -> InfoResponse;
    /// The answer to `POST /move`.
    fn choose(&mut self, request: &SnakeRequest) -> MoveResponse;
    /// The move of seat `seat`, a live snake, read from the game itself:
    /// the same move [`choose`](Self::choose) makes for that seat's request.
    fn choose_in(&mut self, game: &Battlesnake, seat: usize) -> Dir;
    /// [`choose_in`](Self::choose_in) from a view of the game read this
    /// turn ([`View::read`]), which every built-in snake of a game can
    /// share: the board is read once a turn instead of once a snake.
    fn choose_on(&mut self, view: &mut View, seat: usize) -> Dir;
}

/// Names accepted by [`by_name`].
pub const NAMES: &[&str] = &["random", "greedy"];

/// A built-in Battlesnake by name; its play is a function of `seed` and
/// the states it is shown.
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn BattlesnakeBot>> {
    match name {
        "random" => Some(Box::new(SafeRandom::new(seed))),
        "greedy" => Some(Box::new(Greedy::new(seed))),
        _ => None,
    }
}

/// The API's word for a move.
fn word(d: Dir) -> &'static str {
    match d {
        Dir::Up => "up",
        Dir::Right => "right",
        Dir::Down => "down",
        Dir::Left => "left",
    }
}

/// One snake as a bot sees it.
#[derive(Clone, Copy, Debug)]
struct Other {
    seat: usize,
    head: Pos,
    length: u32,
    health: i32,
}

/// The board as a bot sees it, in the engine's coordinates (`y` down; a
/// request's cells are turned over into them): which cells are blocked
/// next turn, hazards, food, and the live snakes. Its buffers are kept
/// from turn to turn, and so are the searches' (`dist`, `mark`, `queue`).
///
/// [`View::read`] reads a game for every seat at once; a bot then looks
/// at it as its own seat.
///
/// A board of at most 128 cells (the standard 11x11 is 121) is held as
/// bit sets in `u128`s, and its searches spread a whole frontier at once
/// with shifts ([`Bits`]); a larger one as one flag per cell, searched
/// cell by cell. Both give the same counts and distances (a test plays
/// whole games both ways).
pub struct View {
    w: i32,
    h: i32,
    wrap: bool,
    /// The bit-set form, when the board fits in one.
    bits: Option<Bits>,
    /// With the bit-set form, the cell each move of [`Dir::ALL`] leads to
    /// from each cell ([`NOWHERE`] off the board), made once per board.
    next_cell: Vec<[u8; 4]>,
    /// Never the bit-set form (the tests compare both).
    cells_only: bool,
    /// Cells holding a body segment that is still there after every snake
    /// moves: everything but tails that are not stacked.
    blocked: Vec<bool>,
    hazard: Vec<bool>,
    food: Vec<bool>,
    blocked_bits: u128,
    hazard_bits: u128,
    food_bits: u128,
    food_count: usize,
    /// The live snakes, in seat order.
    snakes: Vec<Other>,
    me: usize,
    my_head: Pos,
    my_length: u32,
    my_health: i32,
    /// This turn's searches on a bit-set board, which every seat looking
    /// at the view shares (the free cells are the same for all of them):
    /// the search from the food, layer `k` holding the free cells `k`
    /// steps from the nearest food, with every cell it reached, and the
    /// floods of [`View::room_bits`].
    food_layers: Vec<u128>,
    food_reached: u128,
    floods: Vec<Flood>,
    /// Search scratch: a cell was visited by the search whose stamp it holds.
    mark: Vec<u32>,
    stamp: u32,
    dist: Vec<u32>,
    queue: Vec<Pos>,
    body: Vec<Pos>,
}

impl Default for View {
    fn default() -> View {
        View {
            w: 0,
            h: 0,
            wrap: false,
            bits: None,
            next_cell: Vec::new(),
            cells_only: false,
            blocked: Vec::new(),
            hazard: Vec::new(),
            food: Vec::new(),
            blocked_bits: 0,
            hazard_bits: 0,
            food_bits: 0,
            food_count: 0,
            snakes: Vec::new(),
            me: 0,
            my_head: Pos::new(0, 0),
            my_length: 0,
            my_health: 0,
            food_layers: Vec::new(),
            food_reached: 0,
            floods: Vec::new(),
            mark: Vec::new(),
            stamp: 0,
            dist: Vec::new(),
            queue: Vec::new(),
            body: Vec::new(),
        }
    }
}

impl View {
    /// An empty view, to [`read`](Self::read) games into.
    pub fn new() -> View {
        View::default()
    }

    /// Reads `game`'s board and live snakes, for any seat to look at.
    ///
    /// The engine keeps the occupied, food and hazard cells as bit sets in
    /// the view's own cell order, so they are read as words: what is
    /// blocked is every live segment but the tails that move away, found
    /// as the snakes' tails that are alone on their cells (not stacked by
    /// eating, no other segment there), the same cells as a request's
    /// snakes block one by one.
    pub fn read(&mut self, game: &Battlesnake) {
        self.reset(game.width(), game.height(), game.settings().ruleset().wraps());
        // Tails of live snakes that are not stacked: free next turn unless
        // another segment shares their cell.
        let mut tails = [usize::MAX; SNAKES_MAX];
        let mut n = 0;
        for (s, snake) in game.snakes().iter().enumerate() {
            if !snake.is_alive() {
                continue;
            }
            self.snakes.push(Other { seat: s, head: game.head(s), length: snake.len, health: snake.health });
            let tail = game.segment(s, snake.len - 1);
            let stacked = snake.len >= 2 && game.segment(s, snake.len - 2) == tail;
            if let (false, Some(i)) = (stacked, self.index(tail)) {
                tails[n] = i;
                n += 1;
            }
        }
        let tails = &tails[..n];
        let free_tail = |i: usize| {
            let here = tails.iter().filter(|&&t| t == i).count() as u32;
            let w = self.w as usize;
            game.segments_at(Pos::new((i % w) as i32, (i / w) as i32)) == here
        };
        if self.bits.is_some() {
            let word = |words: &[u64]| u128::from(words[0]) | words.get(1).map_or(0, |&w| u128::from(w) << 64);
            let mut blocked = word(game.occupied_words());
            for &i in tails {
                if free_tail(i) {
                    blocked &= !(1u128 << i);
                }
            }
            self.blocked_bits = blocked;
            self.food_bits = word(game.food_words());
            self.hazard_bits = word(game.hazard_words());
            self.food_count = self.food_bits.count_ones() as usize;
            return;
        }
        let each = |words: &[u64], cells: &mut [bool]| {
            let mut count = 0;
            for (k, &w) in words.iter().enumerate() {
                let mut w = w;
                while w != 0 {
                    cells[k * 64 + w.trailing_zeros() as usize] = true;
                    w &= w - 1;
                    count += 1;
                }
            }
            count
        };
        each(game.occupied_words(), &mut self.blocked);
        self.food_count = each(game.food_words(), &mut self.food);
        each(game.hazard_words(), &mut self.hazard);
        for &i in tails {
            if free_tail(i) {
                self.blocked[i] = false;
            }
        }
    }

    /// Looks at the view read from a game as the snake of `seat`, a live
    /// one.
    fn look_as(&mut self, seat: usize) {
        let me = self.snakes.iter().find(|s| s.seat == seat).copied();
        debug_assert!(me.is_some(), "seat {seat} is a live snake");
        let me = me.unwrap_or(Other { seat, head: Pos::new(-1, -1), length: 0, health: 0 });
        (self.me, self.my_head, self.my_length, self.my_health) = (seat, me.head, me.length, me.health);
    }

    /// Empties the view for a board of `w` by `h`.
    fn reset(&mut self, w: i32, h: i32, wrap: bool) {
        let cells = (w.max(0) * h.max(0)) as usize;
        if (self.w, self.h, self.wrap) != (w, h, wrap) || (self.bits.is_none() && self.blocked.len() != cells) {
            (self.w, self.h, self.wrap) = (w, h, wrap);
            self.bits = if self.cells_only { None } else { Bits::new(w, h, wrap) };
            self.next_cell.clear();
            if let Some(bits) = &self.bits {
                let cells = (bits.w * bits.h) as usize;
                let next = |i: usize, d: Dir| bits.step(i, d).map_or(NOWHERE, |c| c as u8);
                self.next_cell.extend((0..cells).map(|i| Dir::ALL.map(|d| next(i, d))));
            }
        }
        (self.blocked_bits, self.hazard_bits, self.food_bits) = (0, 0, 0);
        self.food_count = 0;
        self.snakes.clear();
        self.food_layers.clear();
        self.food_reached = 0;
        self.floods.clear();
        if self.bits.is_some() {
            return;
        }
        for v in [&mut self.blocked, &mut self.hazard, &mut self.food] {
            v.clear();
            v.resize(cells, false);
        }
        if self.mark.len() != cells {
            self.mark = vec![0; cells];
            self.dist = vec![0; cells];
            self.stamp = 0;
        }
    }

    fn is_blocked(&self, i: usize) -> bool {
        if self.bits.is_some() { self.blocked_bits >> i & 1 == 1 } else { self.blocked[i] }
    }

    fn is_food(&self, i: usize) -> bool {
        if self.bits.is_some() { self.food_bits >> i & 1 == 1 } else { self.food[i] }
    }

    fn is_hazard(&self, i: usize) -> bool {
        if self.bits.is_some() { self.hazard_bits >> i & 1 == 1 } else { self.hazard[i] }
    }

    fn block(&mut self, i: usize) {
        if self.bits.is_some() {
            self.blocked_bits |= 1 << i;
        } else {
            self.blocked[i] = true;
        }
    }

    fn add_hazard(&mut self, p: Pos) {
        let Some(i) = self.index(p) else { return };
        if self.bits.is_some() {
            self.hazard_bits |= 1 << i;
        } else {
            self.hazard[i] = true;
        }
    }

    /// Blocks the cells of one live snake (in `self.body`, head first).
    fn add_body(&mut self) {
        let n = self.body.len();
        let stacked = n >= 2 && self.body[n - 1] == self.body[n - 2];
        for k in 0..n {
            if k + 1 == n && !stacked {
                continue;
            }
            if let Some(i) = self.index(self.body[k]) {
                self.block(i);
            }
        }
    }

    fn add_food(&mut self, p: Pos) {
        if let Some(i) = self.index(p)
            && !self.is_food(i)
        {
            if self.bits.is_some() {
                self.food_bits |= 1 << i;
            } else {
                self.food[i] = true;
            }
            self.food_count += 1;
        }
    }

    /// The view of the snake a request is for.
    fn fill_from_request(&mut self, req: &SnakeRequest) {
        let (w, h) = (req.board.width, req.board.height);
        self.reset(w, h, req.game.ruleset.name.contains("wrapped"));
        let pos = |c: Coord| Pos::new(c.x, h - 1 - c.y);
        // Seats are told apart by their ids, as the request does.
        let mut me = usize::MAX;
        for (k, s) in req.board.snakes.iter().enumerate() {
            self.body.clear();
            self.body.extend(s.body.iter().map(|&c| pos(c)));
            self.add_body();
            self.snakes.push(Other { seat: k, head: pos(s.head), length: s.length, health: s.health });
            if s.id == req.you.id {
                me = k;
            }
        }
        for &c in &req.board.food {
            self.add_food(pos(c));
        }
        for &c in &req.board.hazards {
            self.add_hazard(pos(c));
        }
        (self.me, self.my_head, self.my_length, self.my_health) = (me, pos(req.you.head), req.you.length, req.you.health);
    }

    fn index(&self, p: Pos) -> Option<usize> {
        (p.x >= 0 && p.y >= 0 && p.x < self.w && p.y < self.h).then(|| (p.y * self.w + p.x) as usize)
    }

    /// The cell a move leads to, if it is on the board.
    fn step(&self, p: Pos, d: Dir) -> Option<Pos> {
        let mut n = p.step(d);
        if self.wrap {
            n = Pos::new(n.x.rem_euclid(self.w), n.y.rem_euclid(self.h));
        }
        self.index(n).map(|_| n)
    }

    /// The cell at index `i`.
    fn pos_of(&self, i: usize) -> Pos {
        let w = self.w as usize;
        Pos::new((i % w) as i32, (i / w) as i32)
    }

    /// The safe moves from my head in [`Dir::ALL`] order: (move, index of
    /// the cell).
    #[inline(always)]
    fn safe(&self) -> ([(Dir, usize); 4], usize) {
        let mut out = [(Dir::Up, 0); 4];
        let mut n = 0;
        if let (Some(_), Some(head)) = (&self.bits, self.index(self.my_head)) {
            // Without a branch per move (which moves are safe is as good
            // as random to a branch predictor) and without a store at an
            // index found at run time (which the next load waits for): the
            // safe moves as a mask, and the moves in the order the mask
            // gives them, safe ones first.
            let cells = self.next_cell[head];
            let mut mask = 0;
            for (k, &i) in cells.iter().enumerate() {
                let open = (i != NOWHERE) & (self.blocked_bits >> (i & 127) & 1 == 0);
                mask |= usize::from(open) << k;
            }
            let [a, b, c, d] = SAFE_FIRST[mask].map(usize::from);
            let out = [(Dir::ALL[a], usize::from(cells[a])), (Dir::ALL[b], usize::from(cells[b])), (Dir::ALL[c], usize::from(cells[c])), (Dir::ALL[d], usize::from(cells[d]))];
            return (out, SAFE_FIRST_COUNT[mask]);
        }
        for d in Dir::ALL {
            if let Some(i) = self.step(self.my_head, d).and_then(|c| self.index(c))
                && !self.is_blocked(i)
            {
                out[n] = (d, i);
                n += 1;
            }
        }
        (out, n)
    }

    /// A fresh stamp for a search: every cell is unvisited.
    fn new_search(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.stamp = 1;
        }
        self.queue.clear();
        self.stamp
    }

    /// Cells reachable from `from` through free cells, counted up to `cap`,
    /// searched cell by cell.
    fn room(&mut self, from: Pos, cap: usize) -> usize {
        let stamp = self.new_search();
        if let Some(i) = self.index(from) {
            self.mark[i] = stamp;
        }
        self.queue.push(from);
        let (mut next, mut count) = (0, 0);
        while next < self.queue.len() {
            let c = self.queue[next];
            next += 1;
            count += 1;
            if count >= cap {
                break;
            }
            for d in Dir::ALL {
                if let Some(n) = self.step(c, d) {
                    let i = (n.y * self.w + n.x) as usize;
                    if self.mark[i] != stamp && !self.blocked[i] {
                        self.mark[i] = stamp;
                        self.queue.push(n);
                    }
                }
            }
        }
        count
    }

    /// [`View::room`] on a bit-set board: the cells reachable from cell
    /// `from`, counted up to `cap`, which is the size of its component of
    /// free cells or `cap`, whichever is smaller. A search that meets a
    /// flood of this turn is in that flood's component: when the flood is
    /// the whole component, its size is the answer; when it has `cap` cells
    /// or more, `cap` is; otherwise the search goes on from both. Every
    /// search is kept as a flood, so the moves of a snake, and the snakes,
    /// that share a component search it about once a turn instead of once
    /// a move.
    fn room_bits(&mut self, bits: Bits, from: usize, cap: usize) -> usize {
        // The build targets the x86-64 baseline, where `count_ones` is a
        // dozen instructions; the searches count a set at every step, so
        // on a CPU with `popcnt` (nearly all) they take the instruction.
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has `popcnt`, checked just above.
            #[allow(unsafe_code)]
            return unsafe { self.room_bits_popcnt(bits, from, cap) };
        }
        self.room_bits_in(bits, from, cap)
    }

    /// [`View::room_bits`] compiled with the `popcnt` instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn room_bits_popcnt(&mut self, bits: Bits, from: usize, cap: usize) -> usize {
        self.room_bits_in(bits, from, cap)
    }

    /// [`View::room_bits`] itself, inlined into each of its builds.
    #[inline(always)]
    fn room_bits_in(&mut self, bits: Bits, from: usize, cap: usize) -> usize {
        let free = !self.blocked_bits;
        let mut seen = 1u128 << from;
        let mut frontier = seen;
        loop {
            for f in &self.floods {
                if f.seen & seen != 0 {
                    let size = f.seen.count_ones() as usize;
                    if f.whole {
                        return size.min(cap);
                    }
                    if size >= cap {
                        return cap;
                    }
                    seen |= f.seen;
                    frontier = seen;
                }
            }
            let count = seen.count_ones() as usize;
            if count >= cap {
                self.floods.push(Flood { seen, whole: false });
                return cap;
            }
            let next = bits.spread(frontier) & free & !seen;
            if next == 0 {
                self.floods.push(Flood { seen, whole: true });
                return count;
            }
            seen |= next;
            frontier = next;
        }
    }

    /// [`View::food_distance`] on a bit-set board, from cell `i` (a free
    /// one): one search spreading from the food, shared by every move and
    /// every seat of the turn (a path is as long both ways), taken as far
    /// as the cells asked about need.
    #[inline(always)]
    fn food_distance_bits(&mut self, bits: Bits, i: usize) -> Option<usize> {
        if self.food_count == 0 {
            return None;
        }
        let free = !self.blocked_bits;
        if self.food_layers.is_empty() {
            let first = self.food_bits & free;
            self.food_layers.push(first);
            self.food_reached = first;
        }
        // One shift by `i`, then a test per layer.
        let cell = 1u128 << i;
        if self.food_reached & cell != 0 {
            return self.food_layers.iter().position(|layer| layer & cell != 0);
        }
        loop {
            let last = *self.food_layers.last().expect("the first layer is there");
            if last == 0 {
                return None;
            }
            let next = bits.spread(last) & free & !self.food_reached;
            self.food_reached |= next;
            self.food_layers.push(next);
            if next & cell != 0 {
                return Some(self.food_layers.len() - 1);
            }
        }
    }

    /// Steps from `from` to the nearest food through free cells.
    fn food_distance(&mut self, from: Pos) -> Option<usize> {
        if self.food_count == 0 {
            return None;
        }
        let start = self.index(from)?;
        let stamp = self.new_search();
        self.mark[start] = stamp;
        self.dist[start] = 0;
        self.queue.push(from);
        let mut next = 0;
        while next < self.queue.len() {
            let c = self.queue[next];
            next += 1;
            let at = (c.y * self.w + c.x) as usize;
            let d = self.dist[at];
            if self.food[at] {
                return Some(d as usize);
            }
            for dir in Dir::ALL {
                if let Some(n) = self.step(c, dir) {
                    let i = (n.y * self.w + n.x) as usize;
                    if !self.blocked[i] && self.mark[i] != stamp {
                        self.mark[i] = stamp;
                        self.dist[i] = d + 1;
                        self.queue.push(n);
                    }
                }
            }
        }
        None
    }
}

/// A board of at most 128 cells as bit sets (bit `y * w + x`), and the
/// step of a whole set of cells to their neighbours.
#[derive(Clone, Copy, Debug)]
struct Bits {
    w: u32,
    h: u32,
    wrap: bool,
    board: u128,
    col_first: u128,
    col_last: u128,
    row_first: u128,
    /// The board is the standard 11x11 one without wrapping, whose
    /// spread shifts by constants (see [`Bits::spread`]).
    standard: bool,
}

impl Bits {
    /// The masks of a board, if it fits.
    fn new(w: i32, h: i32, wrap: bool) -> Option<Bits> {
        let (w, h) = (u32::try_from(w).ok()?, u32::try_from(h).ok()?);
        if w == 0 || h == 0 || w * h > 128 {
            return None;
        }
        let board = if w * h == 128 { u128::MAX } else { (1u128 << (w * h)) - 1 };
        let (mut col_first, mut col_last) = (0u128, 0u128);
        for y in 0..h {
            col_first |= 1 << (y * w);
            col_last |= 1 << (y * w + w - 1);
        }
        let row_first = (1u128 << w) - 1;
        let standard = (w, h, wrap) == (11, 11, false);
        Some(Bits { w, h, wrap, board, col_first, col_last, row_first, standard })
    }

    /// The cells next to any cell of `s`, on the board.
    #[inline(always)]
    fn spread(&self, s: u128) -> u128 {
        // A 128-bit shift by a width read at run time is several
        // instructions and a branch, by a constant two: the searches
        // spread a set at every step, mostly on the standard board.
        if self.standard {
            let n = ((s & !self.col_last) << 1) | ((s & !self.col_first) >> 1) | (s >> 11) | (s << 11);
            return n & self.board;
        }
        let (w, h) = (self.w, self.h);
        let mut n = ((s & !self.col_last) << 1) | ((s & !self.col_first) >> 1) | (s >> w);
        if h > 1 {
            n |= s << w;
        }
        if self.wrap {
            n |= ((s & self.col_last) >> (w - 1)) | ((s & self.col_first) << (w - 1));
            n |= (s >> (w * (h - 1))) | ((s & self.row_first) << (w * (h - 1)));
        }
        n & self.board
    }

    /// The cell a move leads to from cell `i`, if it is on the board (as
    /// [`View::step`], without dividing by the width).
    fn step(&self, i: usize, d: Dir) -> Option<usize> {
        let (w, cells) = (self.w as usize, (self.w * self.h) as usize);
        let column = |edge: u128| edge >> i & 1 == 1;
        match d {
            Dir::Up if i >= w => Some(i - w),
            Dir::Down if i + w < cells => Some(i + w),
            Dir::Left if !column(self.col_first) => Some(i - 1),
            Dir::Right if !column(self.col_last) => Some(i + 1),
            _ if !self.wrap => None,
            Dir::Up => Some(i + cells - w),
            Dir::Down => Some(i + w - cells),
            Dir::Left => Some(i + w - 1),
            Dir::Right => Some(i + 1 - w),
        }
    }
}

/// No cell, in [`View`]'s `next_cell` (a bit-set board has at most 128).
const NOWHERE: u8 = u8::MAX;

/// For each mask of safe moves (bit `k` for move `k` of [`Dir::ALL`]),
/// the moves' indices with the safe ones first, each part in
/// [`Dir::ALL`] order; and how many are safe.
const SAFE_FIRST: [[u8; 4]; 16] = {
    let mut table = [[0u8; 4]; 16];
    let mut mask = 0;
    while mask < 16 {
        let mut n = 0;
        let mut pass = 0;
        while pass < 2 {
            let mut k = 0;
            while k < 4 {
                if (mask >> k & 1 == 1) == (pass == 0) {
                    table[mask][n] = k as u8;
                    n += 1;
                }
                k += 1;
            }
            pass += 1;
        }
        mask += 1;
    }
    table
};
const SAFE_FIRST_COUNT: [usize; 16] = {
    let mut counts = [0; 16];
    let mut mask = 0;
    while mask < 16 {
        counts[mask] = (mask as u32).count_ones() as usize;
        mask += 1;
    }
    counts
};

/// A search of [`View::room_bits`]: connected free cells, and whether they
/// are their whole component.
#[derive(Clone, Copy, Debug)]
struct Flood {
    seen: u128,
    whole: bool,
}

/// A policy that decides from a [`View`].
trait Policy {
    fn decide(&mut self, view: &mut View) -> Dir;
}

/// A policy with its view, answering both ways.
struct Bot<P> {
    policy: P,
    view: View,
    info: fn() -> InfoResponse,
}

impl<P: Policy + Send> BattlesnakeBot for Bot<P> {
    fn info(&self) -> InfoResponse {
        (self.info)()
    }

    fn choose(&mut self, request: &SnakeRequest) -> MoveResponse {
        self.view.fill_from_request(request);
        MoveResponse { mv: word(self.policy.decide(&mut self.view)).to_string(), shout: None }
    }

    fn choose_in(&mut self, game: &Battlesnake, seat: usize) -> Dir {
        self.view.read(game);
        self.view.look_as(seat);
        self.policy.decide(&mut self.view)
    }

    fn choose_on(&mut self, view: &mut View, seat: usize) -> Dir {
        view.look_as(seat);
        self.policy.decide(view)
    }
}

/// `random`: a uniformly random safe move.
pub struct SafeRandom {
    rng: Rng,
}

impl SafeRandom {
    /// A bot whose choices follow from `seed`.
    #[allow(clippy::new_ret_no_self, reason = "the policy comes with its view")]
    pub fn new(seed: u64) -> impl BattlesnakeBot {
        Bot { policy: SafeRandom { rng: Rng::new(seed) }, view: View::default(), info: SafeRandom::info }
    }

    fn info() -> InfoResponse {
        InfoResponse {
            apiversion: Some("1".into()),
            author: Some("snakepit".into()),
            color: Some("#9b9b9b".into()),
            head: Some("default".into()),
            tail: Some("default".into()),
            version: Some("random".into()),
        }
    }
}

impl Policy for SafeRandom {
    fn decide(&mut self, view: &mut View) -> Dir {
        let (safe, n) = view.safe();
        if n == 0 {
            return Dir::Up;
        }
        safe[self.rng.index(n)].0
    }
}

/// `greedy`: safe, careful, and hungry.
pub struct Greedy {
    rng: Rng,
}

impl Greedy {
    /// A bot whose ties are broken by `seed`.
    #[allow(clippy::new_ret_no_self, reason = "the policy comes with its view")]
    pub fn new(seed: u64) -> impl BattlesnakeBot {
        Bot { policy: Greedy { rng: Rng::new(seed) }, view: View::default(), info: Greedy::info }
    }

    fn info() -> InfoResponse {
        InfoResponse {
            apiversion: Some("1".into()),
            author: Some("snakepit".into()),
            color: Some("#e8a33d".into()),
            head: Some("smart-caterpillar".into()),
            tail: Some("round-bum".into()),
            version: Some("greedy".into()),
        }
    }
}

impl Policy for Greedy {
    fn decide(&mut self, view: &mut View) -> Dir {
        let (safe, n) = view.safe();
        if n == 0 {
            return Dir::Up;
        }
        let mut top = [Dir::Up; 4];
        let m = match view.bits {
            Some(bits) => Greedy::best_on_bits(view, bits, &safe[..n], &mut top),
            None => Greedy::best_by_scores(view, &safe[..n], &mut top),
        };
        top[self.rng.index(m)]
    }
}

impl Greedy {
    /// Whether a move's score grows with its food distance faster: a
    /// hungry snake (low health, or a rival about as long) chases food.
    fn hungry(view: &View) -> bool {
        view.my_health < 40 || view.snakes.iter().any(|s| s.seat != view.me && s.length + 1 >= view.my_length)
    }

    /// The rule itself: every safe move scored, the best ones into `top`
    /// in [`Dir::ALL`] order; how many. On a board of cells this is how the
    /// moves are chosen, and the tests hold the bit-set boards' shortcut
    /// ([`Greedy::best_on_bits`]) to it. A move loses 10,000 when a rival
    /// head at least as long as mine can reach its cell next turn, 5,000
    /// when its cell has less room than my length and one, 200 when it is
    /// a hazard without food, and per step to the nearest food 10 when
    /// hungry, else 2.
    fn best_by_scores(view: &mut View, safe: &[(Dir, usize)], top: &mut [Dir; 4]) -> usize {
        let (me, my_length) = (view.me, view.my_length);
        let rival = move |s: &&Other| s.seat != me && s.length >= my_length;
        let need = my_length as usize + 1;
        let hungry = Greedy::hungry(view);
        let mut scored = [(0i64, Dir::Up); 4];
        for (k, &(dir, i)) in safe.iter().enumerate() {
            let c = view.pos_of(i);
            let contested = view.snakes.iter().filter(rival).any(|s| Dir::ALL.into_iter().any(|d| view.step(s.head, d) == Some(c)));
            let (room, food) = match view.bits {
                Some(bits) => (view.room_bits(bits, i, need), view.food_distance_bits(bits, i)),
                None => (view.room(c, need), view.food_distance(c)),
            };
            let mut score = 0i64;
            score -= 10_000 * i64::from(contested);
            score -= 5_000 * i64::from(room < need);
            score -= 200 * i64::from(view.is_hazard(i) && !view.is_food(i));
            if let Some(d) = food {
                score -= if hungry { 10 } else { 2 } * d as i64;
            }
            scored[k] = (score, dir);
        }
        let best = scored[..safe.len()].iter().map(|s| s.0).max().unwrap_or(0);
        let mut m = 0;
        for &(score, dir) in &scored[..safe.len()] {
            if score == best {
                top[m] = dir;
                m += 1;
            }
        }
        m
    }

    /// [`Greedy::best_by_scores`] on a bit-set board, term by term: a
    /// board has at most 128 cells, so the food and hazard terms together
    /// cost at most 200 + 10 * 127 = 1,470, less than the room term
    /// (5,000), which is less than the contest term (10,000) minus all
    /// the others. The best moves are therefore the uncontested ones if
    /// there are any, of those the roomy ones if there are any, and of
    /// those the best by hazard and food; each term is only computed for
    /// the moves still in the running, and none once one move is left.
    fn best_on_bits(view: &mut View, bits: Bits, safe: &[(Dir, usize)], top: &mut [Dir; 4]) -> usize {
        let (me, my_length) = (view.me, view.my_length);
        // A snake is on the board while it is in the game; should a rival's
        // head not be, the cell-by-cell rule decides.
        let mut heads = 0u128;
        for s in view.snakes.iter().filter(|s| s.seat != me && s.length >= my_length) {
            let Some(i) = view.index(s.head) else { return Greedy::best_by_scores(view, safe, top) };
            heads |= 1 << i;
        }
        let contested = bits.spread(heads);
        let mut left = [(Dir::Up, 0usize); 4];
        let mut n = 0;
        let uncontested = safe.iter().any(|&(_, i)| contested >> i & 1 == 0);
        for &(d, i) in safe {
            if !uncontested || contested >> i & 1 == 0 {
                left[n] = (d, i);
                n += 1;
            }
        }
        if n > 1 {
            let need = my_length as usize + 1;
            let mut roomy = [false; 4];
            for k in 0..n {
                roomy[k] = view.room_bits(bits, left[k].1, need) >= need;
            }
            if roomy[..n].contains(&true) {
                let mut kept = 0;
                for k in 0..n {
                    if roomy[k] {
                        left[kept] = left[k];
                        kept += 1;
                    }
                }
                n = kept;
            }
        }
        if n == 1 {
            top[0] = left[0].0;
            return 1;
        }
        let per_step = if Greedy::hungry(view) { 10 } else { 2 };
        let mut scored = [(0i64, Dir::Up); 4];
        for k in 0..n {
            let (dir, i) = left[k];
            let mut score = -200 * i64::from(view.is_hazard(i) && !view.is_food(i));
            if let Some(d) = view.food_distance_bits(bits, i) {
                score -= per_step * d as i64;
            }
            scored[k] = (score, dir);
        }
        let best = scored[..n].iter().map(|s| s.0).max().unwrap_or(0);
        let mut m = 0;
        for &(score, dir) in &scored[..n] {
            if score == best {
                top[m] = dir;
                m += 1;
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use snakepit_engine::Game;
    use snakepit_engine::battlesnake::{Ruleset, Settings};
    use snakepit_protocol::battlesnake::{GameMeta, parse_move, requests};

    fn meta(n: usize) -> GameMeta {
        GameMeta::new("t", 500, &(0..n).map(|i| format!("s{i}")).collect::<Vec<_>>())
    }

    fn word_to_dir(word: &str) -> Dir {
        parse_move(format!(r#"{{"move":"{word}"}}"#).as_bytes()).unwrap().dir
    }

    fn settings(ruleset: Ruleset, (w, h): (&str, &str)) -> Settings {
        Settings::from_pairs([("name", ruleset.name()), ("width", w), ("height", h)]).unwrap()
    }

    #[test]
    fn the_request_gives_the_engines_safe_moves() {
        // Read from the API's y-up JSON, the safe set must be exactly the
        // engine's, in the same order: this checks the coordinate flip and
        // the request's snakes, on plain and wrapped boards.
        let mut view = View::default();
        for ruleset in [Ruleset::Standard, Ruleset::Wrapped, Ruleset::Royale] {
            for seed in 0..30 {
                let mut game = Battlesnake::new(settings(ruleset, ("9", "7")), 4, seed).unwrap();
                let mut rng = Rng::new(seed);
                while !game.is_over() {
                    let reqs = requests(&game, &meta(4));
                    let mut actions = Vec::new();
                    for (seat, req) in reqs.iter().enumerate() {
                        if game.snakes()[seat].is_alive() {
                            view.fill_from_request(req);
                            let (safe, n) = view.safe();
                            let from_request: Vec<Dir> = safe[..n].iter().map(|s| s.0).collect();
                            let from_engine: Vec<Dir> = game.safe_moves(seat).iter().collect();
                            assert_eq!(from_request, from_engine, "{ruleset} seed {seed} turn {} seat {seat}", game.turn());
                        }
                        let safe = game.safe_moves(seat);
                        actions.push(if safe.is_empty() { None } else { safe.nth(rng.index(safe.len())) });
                    }
                    game.step(&actions);
                }
            }
        }
    }

    #[test]
    fn the_engines_state_and_the_request_give_the_same_moves() {
        // Three copies of each bot with one seed: one reads every request,
        // one the game, one a view of the game shared by the four; their
        // moves, and so their random streams, must agree at every turn of
        // whole games on every ruleset, on boards of bit sets (9x7) and of
        // cells (19x19).
        for ruleset in Ruleset::ALL {
            for seed in 0..25 {
                let size = if seed % 5 == 4 { ("19", "19") } else { ("9", "7") };
                let mut game = Battlesnake::new(settings(ruleset, size), 4, seed).unwrap();
                let name = |seat: usize| ["greedy", "random"][seat % 2];
                let mut by_request: Vec<_> = (0..4).map(|s| by_name(name(s), seed + s as u64).unwrap()).collect();
                let mut by_state: Vec<_> = (0..4).map(|s| by_name(name(s), seed + s as u64).unwrap()).collect();
                let mut by_view: Vec<_> = (0..4).map(|s| by_name(name(s), seed + s as u64).unwrap()).collect();
                let mut view = View::new();
                while !game.is_over() && game.turn() < 500 {
                    let reqs = requests(&game, &meta(4));
                    view.read(&game);
                    let mut actions = Vec::new();
                    for seat in 0..4 {
                        if !game.snakes()[seat].is_alive() {
                            actions.push(None);
                            continue;
                        }
                        let a = word_to_dir(&by_request[seat].choose(&reqs[seat]).mv);
                        let b = by_state[seat].choose_in(&game, seat);
                        let c = by_view[seat].choose_on(&mut view, seat);
                        assert_eq!(a, b, "{ruleset} seed {seed} turn {} seat {seat} ({})", game.turn(), name(seat));
                        assert_eq!(b, c, "{ruleset} seed {seed} turn {} seat {seat} ({})", game.turn(), name(seat));
                        actions.push(Some(b));
                    }
                    game.step(&actions);
                }
            }
        }
    }

    #[test]
    fn bit_sets_and_cells_give_the_same_moves() {
        // Each bot three times with one seed: one searching cell by cell
        // and scoring every move (the rule), one on bit sets with a view of
        // its own, one on bit sets with a view shared by all the seats (so
        // that the searches one seat leaves are used by the next), on
        // boards with and without wrapping, with hazards and without food,
        // with 4 snakes and with 8; the bit-set copy plays.
        for ruleset in Ruleset::ALL {
            for (w, h) in [("11", "11"), ("9", "7"), ("16", "8"), ("7", "3")] {
                for seed in 0..16 {
                    let settings = Settings::from_pairs([("name", ruleset.name()), ("width", w), ("height", h)]).unwrap();
                    let seats = if seed % 4 == 3 { 8 } else { 4 };
                    let Ok(mut game) = Battlesnake::new(settings, seats, seed) else { continue };
                    let make = |seat: usize, cells_only: bool| {
                        let rng = Rng::new(seed * 10 + seat as u64);
                        let view = View { cells_only, ..View::default() };
                        let bot: Box<dyn BattlesnakeBot> = if seat.is_multiple_of(2) {
                            Box::new(Bot { policy: Greedy { rng }, view, info: Greedy::info })
                        } else {
                            Box::new(Bot { policy: SafeRandom { rng }, view, info: SafeRandom::info })
                        };
                        bot
                    };
                    let mut bits: Vec<_> = (0..seats).map(|s| make(s, false)).collect();
                    let mut cells: Vec<_> = (0..seats).map(|s| make(s, true)).collect();
                    let mut shared: Vec<_> = (0..seats).map(|s| make(s, false)).collect();
                    let mut view = View::new();
                    while !game.is_over() && game.turn() < 400 {
                        let mut actions = Vec::new();
                        view.read(&game);
                        for seat in 0..seats {
                            if !game.snakes()[seat].is_alive() {
                                actions.push(None);
                                continue;
                            }
                            let (a, b) = (bits[seat].choose_in(&game, seat), cells[seat].choose_in(&game, seat));
                            let c = shared[seat].choose_on(&mut view, seat);
                            let at = format!("{ruleset} {w}x{h} seed {seed} turn {} seat {seat}", game.turn());
                            assert_eq!(a, b, "{at}");
                            assert_eq!(c, b, "{at}, shared view");
                            actions.push(Some(a));
                        }
                        game.step(&actions);
                    }
                }
            }
        }
    }

    /// Plays seat 0 `a` against seat 1 `b` on 11x11; returns the winner.
    fn duel(a: &str, b: &str, seed: u64) -> Option<usize> {
        let mut game = Battlesnake::new(Settings::default(), 2, seed).unwrap();
        let mut bots = [by_name(a, seed).unwrap(), by_name(b, seed + 1).unwrap()];
        while !game.is_over() && game.turn() < 3000 {
            let actions: Vec<_> = bots.iter_mut().enumerate().map(|(seat, bot)| Some(bot.choose_in(&game, seat))).collect();
            game.step(&actions);
        }
        game.winner()
    }

    #[test]
    fn greedy_beats_random() {
        let games = 40;
        let wins = (0..games).filter(|&seed| duel("greedy", "random", seed) == Some(0)).count();
        let losses = (0..games).filter(|&seed| duel("greedy", "random", seed) == Some(1)).count();
        assert!(wins >= games as usize * 3 / 4, "greedy won {wins} and lost {losses} of {games}");
    }

    #[test]
    fn names_build_bots() {
        for name in NAMES {
            assert!(by_name(name, 1).is_some(), "{name}");
        }
        assert!(by_name("nobody", 1).is_none());
    }
}
