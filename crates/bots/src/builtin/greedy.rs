//! `greedy`: heads for the nearest food it can reach before any enemy.
//!
//! Each board it:
//! 1. marks what it must not enter: walls, start floors, snakes (its own
//!    tail excepted, since the tail moves away, and dead snakes excepted,
//!    since they are cleared before the next move), and stones unless it is
//!    furious (it knows by its `♥` head);
//! 2. marks as dangerous the cells next to the head of every enemy that
//!    would win a head-on collision: a furious one while it is not, or one
//!    it does not outlength by 2 when their fury is equal;
//! 3. searches breadth-first from its head, avoiding both, for the nearest
//!    apple, gold, pill (or stone, when furious) that it reaches strictly
//!    before every enemy head, or failing that the nearest one at all;
//! 4. takes the first step of that path only if it leads into enough room
//!    to hold its body; otherwise, or with no target, the move into the
//!    most room, preferring safe cells and going straight;
//! 5. adds `ACT` after the move (`LEFT,ACT`) when it carries a stone and an
//!    enemy head is right behind or beside its tail.

use super::{SnakeBot, command};
use snakepit_engine::{Dir, Pos, Rng};
use snakepit_protocol::codenjoy::{Board, Element, SnakeView};
use std::collections::VecDeque;

/// The greedy bot. It remembers the last board to count the stones it eats
/// (the board does not show them).
pub struct Greedy {
    rng: Rng,
    stones: u32,
    last: Option<Board>,
}

impl Greedy {
    /// A greedy bot; `seed` only breaks ties between equally good turns.
    pub fn new(seed: u64) -> Greedy {
        Greedy { rng: Rng::new(seed), stones: 0, last: None }
    }
}

impl SnakeBot for Greedy {
    fn answer(&mut self, message: &str) -> String {
        let Ok(board) = Board::parse(message) else { return String::new() };
        let snakes = board.snakes();
        let Some(me) = snakes.iter().find(|s| s.mine && s.is_moving()) else {
            // Dead or asleep: the next life starts without stones.
            self.stones = 0;
            self.last = None;
            return String::new();
        };
        if self.last.as_ref().is_some_and(|last| last.get(me.head_pos()) == Element::Stone) {
            self.stones += 1;
        }
        let field = Field::new(&board, &snakes, me);
        let turns_first = self.rng.below(2) == 0;
        let mut answer = match field.choose(turns_first) {
            Some(d) => command(d).to_string(),
            None => String::new(),
        };
        if !answer.is_empty() && self.stones > 0 && field.chased(&snakes) {
            self.stones -= 1;
            answer.push_str(",ACT");
        }
        self.last = Some(board);
        answer
    }
}

/// "Not reached" in a distance map.
const FAR: u32 = u32::MAX;

/// One board seen from my head.
struct Field<'a> {
    board: &'a Board,
    me: &'a SnakeView,
    /// Cells my head must not enter.
    blocked: Vec<bool>,
    /// Free cells an enemy head that beats mine may enter next tick.
    danger: Vec<bool>,
    /// Steps from the nearest moving enemy head.
    enemy_dist: Vec<u32>,
}

impl<'a> Field<'a> {
    fn new(board: &'a Board, snakes: &[SnakeView], me: &'a SnakeView) -> Field<'a> {
        let cells = board.cells();
        let furious = me.is_furious();
        let mut blocked: Vec<bool> =
            cells.iter().map(|&e| e.is_barrier() || e.is_snake() || (e == Element::Stone && !furious)).collect();
        let mut free = |p: Pos| {
            if let Some(i) = board.index(p) {
                blocked[i] = false;
            }
        };
        for s in snakes.iter().filter(|s| s.is_dead()) {
            // Its head stays blocked: it may lie on a live snake's cell.
            s.cells.iter().skip(1).for_each(|&p| free(p));
        }
        if me.len() > 2 {
            free(me.tail_pos());
        }
        let mut danger = vec![false; cells.len()];
        let mut enemy_heads = Vec::new();
        for e in snakes.iter().filter(|s| !s.mine && s.is_moving()) {
            let Some(head) = board.index(e.head_pos()) else { continue };
            enemy_heads.push(head);
            if threatens(me, e) {
                for d in Dir::ALL {
                    if let Some(i) = board.index(e.head_pos().step(d)) {
                        danger[i] = true;
                    }
                }
            }
        }
        let mut field = Field { board, me, blocked, danger, enemy_dist: Vec::new() };
        field.enemy_dist = field.distances(&enemy_heads);
        field
    }

    /// The move to make, if any move is possible at all.
    fn choose(&self, turns_first: bool) -> Option<Dir> {
        let straight = self.me.dir();
        let back = straight.map(Dir::opposite);
        // Straight first, then the turns in an order the seed picks; the
        // search below keeps this order among equally near targets.
        let mut order: Vec<Dir> = straight.into_iter().collect();
        let turns = Dir::ALL.into_iter().filter(|&d| Some(d) != straight && Some(d) != back);
        let turns: Vec<Dir> = if turns_first { turns.collect() } else { turns.rev().collect() };
        order.extend(turns);
        let moves: Vec<(Dir, usize)> = order
            .into_iter()
            .filter_map(|d| self.board.index(self.me.head_pos().step(d)).map(|i| (d, i)))
            .filter(|&(_, i)| !self.blocked[i])
            .collect();
        let need = self.me.len() + 2;
        let food = self.toward_food(&moves).filter(|&(_, i)| !self.danger[i] && self.room(i, need) >= need);
        if let Some((d, _)) = food {
            return Some(d);
        }
        // No good path: the most room, safe cells first; `max_by_key` keeps
        // the last maximum, so iterate in reverse preference.
        moves.iter().rev().max_by_key(|&&(_, i)| (!self.danger[i], self.room(i, 4 * need))).map(|&(d, _)| d)
    }

    /// The first step towards the nearest food reached before any enemy
    /// (else the nearest food), avoiding dangerous cells.
    fn toward_food(&self, moves: &[(Dir, usize)]) -> Option<(Dir, usize)> {
        let n = self.board.cells().len();
        let mut first: Vec<Option<(Dir, usize)>> = vec![None; n];
        let mut dist = vec![FAR; n];
        let mut queue = VecDeque::new();
        for &(d, i) in moves.iter().filter(|&&(_, i)| !self.danger[i]) {
            first[i] = Some((d, i));
            dist[i] = 1;
            queue.push_back(i);
        }
        let mut fallback = None;
        while let Some(i) = queue.pop_front() {
            if self.is_food(self.board.cells()[i]) {
                if dist[i] < self.enemy_dist[i] {
                    return first[i];
                }
                fallback = fallback.or(first[i]);
            }
            for j in self.neighbours(i) {
                if dist[j] == FAR && !self.blocked[j] && !self.danger[j] {
                    dist[j] = dist[i] + 1;
                    first[j] = first[i];
                    queue.push_back(j);
                }
            }
        }
        fallback
    }

    fn is_food(&self, e: Element) -> bool {
        match e {
            Element::Apple | Element::Gold | Element::FuryPill | Element::FlyingPill => true,
            Element::Stone => self.me.is_furious(),
            _ => false,
        }
    }

    /// Free cells reachable from cell `from`, counted up to `cap`.
    fn room(&self, from: usize, cap: usize) -> usize {
        let mut seen = vec![false; self.board.cells().len()];
        if let Some(head) = self.board.index(self.me.head_pos()) {
            seen[head] = true;
        }
        seen[from] = true;
        let mut queue = VecDeque::from([from]);
        let mut count = 0;
        while let Some(i) = queue.pop_front() {
            count += 1;
            if count >= cap {
                break;
            }
            for j in self.neighbours(i) {
                if !seen[j] && !self.blocked[j] {
                    seen[j] = true;
                    queue.push_back(j);
                }
            }
        }
        count
    }

    /// Breadth-first distances from `starts` through unblocked cells.
    fn distances(&self, starts: &[usize]) -> Vec<u32> {
        let mut dist = vec![FAR; self.board.cells().len()];
        let mut queue = VecDeque::new();
        for &s in starts {
            dist[s] = 0;
            queue.push_back(s);
        }
        while let Some(i) = queue.pop_front() {
            for j in self.neighbours(i) {
                if dist[j] == FAR && !self.blocked[j] {
                    dist[j] = dist[i] + 1;
                    queue.push_back(j);
                }
            }
        }
        dist
    }

    /// The up to four cells next to cell `i`, by index arithmetic: this is
    /// the inner loop of every search.
    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> {
        let n = self.board.size();
        let (x, y) = (i % n, i / n);
        [(y > 0).then(|| i - n), (x + 1 < n).then(|| i + 1), (y + 1 < n).then(|| i + n), (x > 0).then(|| i - 1)]
            .into_iter()
            .flatten()
    }

    /// Whether a moving enemy head is next to my tail, outside my body.
    fn chased(&self, snakes: &[SnakeView]) -> bool {
        let tail = self.me.tail_pos();
        snakes.iter().filter(|s| !s.mine && s.is_moving() && !s.is_flying()).any(|e| {
            let h = e.head_pos();
            (h.x - tail.x).abs() + (h.y - tail.y).abs() == 1 && !self.me.cells.contains(&h)
        })
    }
}

/// Whether `enemy` would survive a head-on collision with me and I would
/// not: fury beats no fury; with equal fury a snake survives only by being
/// at least 2 longer. Flying snakes do not collide.
fn threatens(me: &SnakeView, enemy: &SnakeView) -> bool {
    if me.is_flying() || enemy.is_flying() {
        return false;
    }
    match (me.is_furious(), enemy.is_furious()) {
        (true, false) => false,
        (false, true) => true,
        _ => me.len() < enemy.len() + 2,
    }
}
