//! How a game looks in a terminal: the spectator's board, a status line and
//! one line per event.
//!
//! `play --watch` and `replay` draw any game through [`TerminalView`], so a
//! new game only has to say how its state reads as text.

use snakepit_protocol::codenjoy::render_board;
use snakepit_engine::Game;
use snakepit_engine::snakebattle::{Phase, SnakeBattle};
use snakepit_protocol::replay::ReplayGame;
use std::fmt::Write;

/// A game that can be shown as text.
pub trait TerminalView: ReplayGame {
    /// The board as a spectator sees it, one string per row, top first.
    fn board_rows(&self) -> Vec<String>;
    /// One line: tick, round or phase, and per seat its label, length, score
    /// and whether it is alive.
    fn status_line(&self, players: &[String]) -> String;
    /// One event, on one line.
    fn event_line(event: &Self::Event) -> String {
        format!("{event:?}")
    }
}

impl TerminalView for SnakeBattle {
    fn board_rows(&self) -> Vec<String> {
        let board: Vec<char> = render_board(self, None).chars().collect();
        board.chunks(self.size().max(1)).map(|row| row.iter().collect()).collect()
    }

    fn status_line(&self, players: &[String]) -> String {
        let mut line = format!("tick {}", self.tick());
        match self.phase() {
            Phase::Countdown { left } => write!(line, " | countdown {left}"),
            Phase::Running { tick } => write!(line, " | round {} tick {tick}", self.round()),
        }
        .expect("writing to a String cannot fail");
        for (seat, snake) in self.snakes().iter().enumerate() {
            let name = players.get(seat).map_or("?", String::as_str);
            // A snake waiting for the next round is alive but cannot move.
            let state = match (snake.alive, snake.active) {
                (false, _) => "dead",
                (true, false) => "asleep",
                (true, true) => "alive",
            };
            let len = if snake.alive { snake.len() } else { 0 };
            write!(line, " | #{seat} {name} len {len} score {} {state}", snake.score)
                .expect("writing to a String cannot fail");
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use snakepit_engine::snakebattle::{Map, Settings};

    #[test]
    fn rows_are_square_and_status_names_every_seat() {
        let game = SnakeBattle::new(Settings::default(), Map::default_map(), 2, 1).unwrap();
        let rows = game.board_rows();
        assert_eq!(rows.len(), game.size());
        assert!(rows.iter().all(|r| r.chars().count() == game.size()));
        let status = game.status_line(&["a".into(), "b".into()]);
        assert!(status.starts_with("tick 0 | countdown 5 | #0 a len 2 score 0 asleep | #1 b "), "{status}");
    }
}
