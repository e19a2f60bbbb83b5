//! `random`: picks uniformly among the moves that do not kill it at once.

use super::{SnakeBot, command, my_moving_snake};
use snakepit_engine::{Dir, Rng};
use snakepit_protocol::codenjoy::{Board, Element};

/// Shortest snake a stone does not kill (a stone takes 3 and 2 must remain).
const STONE_SAFE_LENGTH: usize = 5;

/// Moves uniformly at random among the safe neighbours of its head: not a
/// wall, start floor or snake cell, not a stone it is too short to survive,
/// and not the reversal the server would ignore anyway. With no safe move it
/// sends nothing and keeps going.
pub struct Random {
    rng: Rng,
}

impl Random {
    /// A random bot whose choices follow from `seed`.
    pub fn new(seed: u64) -> Random {
        Random { rng: Rng::new(seed) }
    }
}

impl SnakeBot for Random {
    fn answer(&mut self, message: &str) -> String {
        let Ok(board) = Board::parse(message) else { return String::new() };
        let Some(me) = my_moving_snake(&board) else { return String::new() };
        let back = me.dir().map(Dir::opposite);
        let safe: Vec<Dir> = Dir::ALL
            .into_iter()
            .filter(|&d| Some(d) != back)
            .filter(|&d| {
                let e = board.get(me.head_pos().step(d));
                let deadly_stone = e == Element::Stone && me.len() < STONE_SAFE_LENGTH;
                !(e.is_barrier() || e.is_snake() || deadly_stone)
            })
            .collect();
        if safe.is_empty() {
            return String::new();
        }
        command(safe[self.rng.index(safe.len())]).to_string()
    }
}
