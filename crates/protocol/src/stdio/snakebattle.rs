//! Codenjoy SnakeBattle over stdin/stdout: the WebSocket's message and
//! command, one per line.
//!
//! # Server to bot, every tick
//!
//! Exactly the text frame the Codenjoy WebSocket sends the player
//! ([`crate::codenjoy`]), `board=` and the board's glyphs, followed by
//! `\n`:
//!
//! ```text
//! board=☼☼☼☼…☼☼☼
//! ```
//!
//! The `board=` prefix stays because the socket sends it: every Codenjoy
//! client strips it itself, so a bot's board reading is unchanged and only
//! its I/O loop (a line from stdin instead of a frame) differs. The board
//! holds no line break (every glyph is a single character, `\n` is none of
//! them), so the frame is exactly one line. Every seat a player holds is
//! asked every tick, as the socket sends every player a board every tick:
//! during the countdown, and while its snake is dead, too.
//!
//! # Bot to server
//!
//! One line: a Codenjoy command, read by [`crate::codenjoy::parse_command`]
//! under the game's rule profile (`UP`, `down`, `ACT`, `ACT,LEFT`,
//! `LEFT,ACT`, `ACT(0)`, `message('...')`...). An empty line (only
//! whitespace) is the socket's empty answer: no command, the snake keeps
//! its direction, and so is `STOP` (CodeBattle's clients send it; the
//! socket ignores it). A line in which the grammar finds no command at all is
//! rejected ([`AnswerProblem::NotAMove`]), and so is anything that is not
//! one line of UTF-8 of at most [`ANSWER_BYTES_MAX`](super::ANSWER_BYTES_MAX)
//! bytes.

use super::answer::{AnswerError, AnswerProblem, one_line};
use super::{StdioGame, Wire, json};
use crate::codenjoy::{message, parse_command_counted, render_board, render_boards};
use snakepit_engine::snakebattle::{Action, CommandRule, SnakeBattle};
use snakepit_engine::Dir;

/// What a rejected text answer was expected to be.
const EXPECTED: &str = "a Codenjoy command (UP, DOWN, LEFT, RIGHT, ACT, ACT,LEFT, LEFT,ACT, ACT(0)) or an empty line";

/// The seat's input line, or `None` if no player holds the seat.
pub fn input(game: &SnakeBattle, seat: usize) -> Option<String> {
    game.snakes().get(seat).filter(|s| s.present)?;
    Some(line(&render_board(game, Some(seat))))
}

/// Every seat's input line, in seat order; the boards are rendered together
/// ([`render_boards`]).
pub fn inputs(game: &SnakeBattle) -> Vec<Option<String>> {
    render_boards(game).iter().zip(game.snakes()).map(|(board, s)| s.present.then(|| line(board))).collect()
}

fn line(board: &str) -> String {
    let mut m = message(board);
    m.push('\n');
    m
}

/// Reads one answer line under a command rule (see the module docs).
pub fn parse_answer(line: &[u8], rule: CommandRule) -> Result<Action, AnswerError> {
    let text = one_line(line)?.trim_matches(|c: char| c.is_ascii_whitespace() || c == '\x0b');
    if text.is_empty() {
        return Ok(Action::default());
    }
    let (tokens, matched) = parse_command_counted(text);
    if matched == 0 {
        // CodeBattle's clients say `STOP` for "no command", which the
        // socket ignores: here too, rather than a forfeit.
        let mut words = text.split([',', ' ']).filter(|w| !w.is_empty()).peekable();
        let only_stop = words.peek().is_some() && words.all(|w| w.eq_ignore_ascii_case("stop"));
        if only_stop {
            return Ok(Action::default());
        }
        return Err(AnswerError::new(line, AnswerProblem::NotAMove { expected: EXPECTED }));
    }
    Ok(Action::from_tokens(&tokens, rule))
}

impl StdioGame for SnakeBattle {
    fn text_preamble(&self, _: usize) -> Option<String> {
        None
    }

    fn text_input(&self, seat: usize) -> Option<String> {
        input(self, seat)
    }

    fn text_inputs(&self) -> Vec<Option<String>> {
        inputs(self)
    }

    fn json_input(&self, seat: usize) -> Option<String> {
        json::snakebattle(self, seat).map(|s| json::line(&s))
    }

    /// Under the `codebattle` profile's rule ([`CommandRule::Seed`]).
    fn parse_text_answer(line: &[u8]) -> Result<Action, AnswerError> {
        parse_answer(line, CommandRule::Seed)
    }

    fn parse_json_answer(line: &[u8]) -> Result<Action, AnswerError> {
        json::parse_snakebattle_answer(line)
    }

    fn parse_answer_in(&self, _seat: usize, wire: Wire, line: &[u8]) -> Result<Action, AnswerError> {
        match wire {
            Wire::Text => parse_answer(line, self.settings().commands),
            Wire::Json => json::parse_snakebattle_answer(line),
        }
    }

    fn action_for(dir: Dir) -> Action {
        Action::go(dir)
    }

    /// No command: the snake keeps its direction.
    fn forfeit() -> Action {
        Action::default()
    }

    fn is_finished(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use snakepit_engine::Game;

    #[test]
    fn every_present_seat_reads_its_own_frame() {
        let game = SnakeBattle::new(Default::default(), snakepit_engine::snakebattle::Map::default_map(), 3, 1).unwrap();
        let all = inputs(&game);
        assert_eq!(all.len(), game.seats());
        for (seat, one) in all.iter().enumerate() {
            assert_eq!(one.as_deref(), input(&game, seat).as_deref());
            let one = one.as_deref().unwrap();
            assert!(one.starts_with("board=") && one.ends_with('\n') && one.matches('\n').count() == 1);
            assert_eq!(one.chars().count(), "board=".len() + 900 + 1);
        }
    }
}
