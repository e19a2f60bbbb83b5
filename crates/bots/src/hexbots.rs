//! Built-in Hex bots.
//!
//! **API Boundary:** a Hex bot gets the same `board=...` text a WebSocket
//! bot gets and answers with the text a real client would send
//! (`ACT(x,y),DIR`, `ACT(x,y,1),DIR`, or `""` to skip); it never looks at
//! engine state. It reads the board with [`Board`], so every game with
//! built-in bots exercises the renderer, the board parser and the command
//! reader end to end. A bot keeps no memory between boards but its random
//! stream.
//!
//! - `random`: a uniformly random legal move (its own piece, a target on
//!   the board that is empty).
//! - `greedy`: the move worth most by [`Greedy`]'s count: pieces gained
//!   (captures, plus one for a clone) against exposure (how many of its
//!   pieces around the target one enemy reply could take back).

use snakepit_engine::hex::Action;
use snakepit_engine::{Dir, Pos, Rng};
use snakepit_protocol::hex::{Board, Element, command_text};

/// A bot that plays Hex through the wire format.
pub trait HexBot: Send {
    /// Answers one board. `message` is the full `board=...` text a
    /// WebSocket bot receives; the answer is the command a real client
    /// would send, `""` for no move.
    fn answer(&mut self, message: &str) -> String;
}

/// Names accepted by [`by_name`].
pub const NAMES: &[&str] = &["random", "greedy"];

/// A built-in Hex bot by name; its play is a function of `seed` and the
/// boards it is shown.
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn HexBot>> {
    match name {
        "random" => Some(Box::new(Random::new(seed))),
        "greedy" => Some(Box::new(Greedy::new(seed))),
        _ => None,
    }
}

/// The 8-neighbourhood.
const AROUND: [(i32, i32); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

fn offset(p: Pos, dx: i32, dy: i32) -> Pos {
    Pos::new(p.x + dx, p.y + dy)
}

/// Every move the server would make for me on this board: one of my
/// pieces, one or two cells in a direction, onto an empty cell. Clones
/// first, in board order, so that ties resolve the same way every time.
fn legal_moves(board: &Board) -> Vec<Action> {
    let mine = board.mine();
    let mut moves = Vec::with_capacity(mine.len() * 8);
    for jump in [false, true] {
        for &from in &mine {
            for dir in Dir::ALL {
                let a = Action::Move { from, dir, jump };
                if a.target().is_some_and(|t| board.get(t) == Element::None) {
                    moves.push(a);
                }
            }
        }
    }
    moves
}

/// Moves uniformly at random among the legal moves; with none, skips.
pub struct Random {
    rng: Rng,
}

impl Random {
    /// A random bot whose choices follow from `seed`.
    pub fn new(seed: u64) -> Random {
        Random { rng: Rng::new(seed) }
    }
}

impl HexBot for Random {
    fn answer(&mut self, message: &str) -> String {
        let Ok(board) = Board::parse(message) else { return String::new() };
        let moves = legal_moves(&board);
        if moves.is_empty() {
            return String::new();
        }
        command_text(&moves[self.rng.index(moves.len())])
    }
}

/// Takes the legal move with the best value, where
///
/// `value = 3 * (captures + 1 if a clone) - exposure`
///
/// 3 to 1 being the Hex description's +30 per piece gained against -10 per
/// piece lost. `captures` counts the enemy pieces around the target. `exposure`
/// is the largest number of my pieces (after the move) around one cell near the
/// target that an enemy piece can reach next tick, cloning or jumping: what one
/// enemy reply could take back. Among equal values a clone beats a jump;
/// remaining ties go to a seeded random pick.
///
/// It does not foresee enemy moves of the same tick: two new pieces next to
/// each other capture nothing, and two on one cell make a wall.
pub struct Greedy {
    rng: Rng,
}

impl Greedy {
    /// A greedy bot; `seed` only breaks ties.
    pub fn new(seed: u64) -> Greedy {
        Greedy { rng: Rng::new(seed) }
    }
}

/// A board and one candidate move, for the greedy bot's count.
struct Field<'a> {
    board: &'a Board,
}

impl Field<'_> {
    fn is_enemy(&self, p: Pos) -> bool {
        matches!(self.board.get(p), Element::Hero(_))
    }

    /// The value of a legal move.
    fn value(&self, a: &Action) -> i64 {
        let Action::Move { from, jump, .. } = *a else { return 0 };
        let to = a.target().expect("a move has a target");
        let near_target = |p: Pos| (p.x - to.x).abs() <= 1 && (p.y - to.y).abs() <= 1;
        let captures = AROUND.iter().filter(|&&(dx, dy)| self.is_enemy(offset(to, dx, dy))).count() as i64;
        // The board after the move: the target and the captured pieces are
        // mine, and the cell a jump leaves is empty.
        let mine_after = |p: Pos| {
            !(jump && p == from) && (p == to || self.board.get(p) == Element::MyHero || (near_target(p) && self.is_enemy(p)))
        };
        let enemy_after = |p: Pos| !near_target(p) && self.is_enemy(p);
        let empty_after = |p: Pos| p != to && (self.board.get(p) == Element::None || (jump && p == from));
        // Only cells within two of the target can touch what changed.
        let mut exposure = 0;
        for dy in -2..=2 {
            for dx in -2..=2 {
                let r = offset(to, dx, dy);
                if !empty_after(r) {
                    continue;
                }
                let reachable = Dir::ALL.into_iter().any(|d| {
                    let (ux, uy) = d.delta();
                    enemy_after(offset(r, ux, uy)) || enemy_after(offset(r, 2 * ux, 2 * uy))
                });
                if reachable {
                    let around = AROUND.iter().filter(|&&(ex, ey)| mine_after(offset(r, ex, ey))).count();
                    exposure = exposure.max(around as i64);
                }
            }
        }
        3 * (captures + i64::from(!jump)) - exposure
    }
}

impl HexBot for Greedy {
    fn answer(&mut self, message: &str) -> String {
        let Ok(board) = Board::parse(message) else { return String::new() };
        let moves = legal_moves(&board);
        if moves.is_empty() {
            return String::new();
        }
        let field = Field { board: &board };
        // Clones come first in `moves`, and a jump only replaces the best
        // when strictly better, so clones win ties.
        let mut best: Vec<&Action> = Vec::new();
        let mut best_value = i64::MIN;
        let mut best_is_clone = false;
        for a in &moves {
            let v = field.value(a);
            let clone = matches!(a, Action::Move { jump: false, .. });
            if v > best_value || (v == best_value && clone && !best_is_clone) {
                best.clear();
                best_value = v;
                best_is_clone = clone;
            }
            if v == best_value && clone == best_is_clone {
                best.push(a);
            }
        }
        command_text(best[self.rng.index(best.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_build_bots() {
        for name in NAMES {
            assert!(by_name(name, 1).is_some(), "{name}");
        }
        assert!(by_name("nobody", 1).is_none());
    }
}
