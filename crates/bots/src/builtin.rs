//! Built-in SnakeBattle bots.
//!
//! **API Boundary:** a built-in bot gets the same `board=...` text a
//! WebSocket bot gets and answers with the text a real client would send;
//! it never looks at engine state. It reads the board with
//! [`Board`], so every game with
//! built-in bots also exercises the renderer, the board parser and the
//! command parser end to end.
//!
//! - `random`: a uniformly random safe move.
//! - `greedy`: the nearest food it can reach before any enemy, with some
//!   caution about heads and dead ends, and a stone for a chaser.

mod greedy;
mod random;

pub use greedy::Greedy;
pub use random::Random;

use snakepit_engine::Dir;
use snakepit_protocol::codenjoy::{Board, SnakeView};

/// A bot that plays SnakeBattle through the wire format.
pub trait SnakeBot: Send {
    /// Answers one board. `message` is the full `board=...` text a
    /// WebSocket bot receives; the answer is the command text a real client
    /// would send (`"LEFT"`, `"UP,ACT"`, or `""` for "keep going").
    fn answer(&mut self, message: &str) -> String;
}

/// Names accepted by [`by_name`].
pub const NAMES: &[&str] = &["random", "greedy"];

/// A built-in bot by name; its play is a function of `seed` and the boards
/// it is shown.
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn SnakeBot>> {
    match name {
        "random" => Some(Box::new(Random::new(seed))),
        "greedy" => Some(Box::new(Greedy::new(seed))),
        _ => None,
    }
}

/// The command word of a direction.
fn command(d: Dir) -> &'static str {
    match d {
        Dir::Up => "UP",
        Dir::Right => "RIGHT",
        Dir::Down => "DOWN",
        Dir::Left => "LEFT",
    }
}

/// My snake, if it is on the board and will move next tick; dead, sleeping
/// and hidden snakes have nothing to decide.
fn my_moving_snake(board: &Board) -> Option<SnakeView> {
    board.snakes().into_iter().find(|s| s.mine && s.is_moving())
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
