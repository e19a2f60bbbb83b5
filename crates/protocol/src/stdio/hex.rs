//! Codenjoy Hex over stdin/stdout: the WebSocket's message and command,
//! one per line.
//!
//! # Server to bot, every tick
//!
//! Exactly the text frame the Codenjoy WebSocket sends the player
//! ([`crate::hex`]), `board=` and the board's glyphs (the receiver's pieces
//! `☺`, every other seat's in its own glyph), followed by `\n`. The prefix
//! stays for the reason given in [`super::snakebattle`]: the bot's board
//! reading is the arena's. Every seat a player holds is asked every tick,
//! also while it has no pieces.
//!
//! # Bot to server
//!
//! One line: a Hex command, `ACT(x,y),DIR` (a clone of the piece at
//! `[x,y]`, `x` from the left and `y` from the top) or `ACT(x,y,1),DIR` (a
//! jump), read by [`crate::hex::read_command`] against the position the
//! bot was shown, exactly as the arena reads a WebSocket answer: a command
//! that selects a cell that is not the bot's piece, or an `ACT` without a
//! direction, is no move. An empty line is no move too (the Java client's
//! empty answer). A line in which the grammar finds no command at all is
//! rejected ([`AnswerProblem::NotAMove`]), and so is anything that is not
//! one line of UTF-8 of at most [`ANSWER_BYTES_MAX`](super::ANSWER_BYTES_MAX)
//! bytes.

use super::answer::{AnswerError, AnswerProblem, one_line};
use super::{StdioGame, Wire, json};
use crate::hex::{Note, Reading, message, parse_command, read_command, read_tokens, render_board, render_boards};
use snakepit_engine::hex::{Action, Hex};
use snakepit_engine::Dir;

/// What a rejected text answer was expected to be.
const EXPECTED: &str = "a Hex command ACT(x,y),DIR or ACT(x,y,1),DIR, or an empty line";

/// The board side assumed when an answer is read without the game: every
/// 32-bit coordinate from 0 up is on it.
const UNKNOWN_SIDE: usize = 1 << 31;

/// The seat's input line, or `None` if no player holds the seat.
pub fn input(game: &Hex, seat: usize) -> Option<String> {
    game.players().get(seat).filter(|p| p.present)?;
    Some(line(&render_board(game, Some(seat))))
}

/// Every seat's input line, in seat order, the boards rendered together.
pub fn inputs(game: &Hex) -> Vec<Option<String>> {
    render_boards(game).iter().zip(game.players()).map(|(board, p)| p.present.then(|| line(board))).collect()
}

fn line(board: &str) -> String {
    let mut m = message(board);
    m.push('\n');
    m
}

/// The text of an answer line, trimmed; an error for one that is not a line.
fn text(line: &[u8]) -> Result<&str, AnswerError> {
    Ok(one_line(line)?.trim_matches(|c: char| c.is_ascii_whitespace() || c == '\x0b'))
}

fn accept(line: &[u8], reading: Reading) -> Result<Action, AnswerError> {
    match reading.note {
        Some(Note::NothingRecognised) => Err(AnswerError::new(line, AnswerProblem::NotAMove { expected: EXPECTED })),
        _ => Ok(reading.action),
    }
}

/// Reads `seat`'s answer line against the position of `game` (see the
/// module docs).
pub fn parse_answer(game: &Hex, seat: usize, line: &[u8]) -> Result<Action, AnswerError> {
    let text = text(line)?;
    accept(line, read_command(game, seat, text))
}

/// Reads an answer line without the position: a selected cell is taken to
/// be the bot's piece; the engine ignores a move of one that is not.
pub fn parse_answer_blind(line: &[u8]) -> Result<Action, AnswerError> {
    let text = text(line)?;
    if text.is_empty() {
        return Ok(Action::Skip);
    }
    let tokens = parse_command(text);
    if tokens.is_empty() {
        return Err(AnswerError::new(line, AnswerProblem::NotAMove { expected: EXPECTED }));
    }
    accept(line, read_tokens(&tokens, UNKNOWN_SIDE, |_| true))
}

impl StdioGame for Hex {
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
        json::hex(self, seat).map(|s| json::line(&s))
    }

    /// Without the position ([`parse_answer_blind`]).
    fn parse_text_answer(line: &[u8]) -> Result<Action, AnswerError> {
        parse_answer_blind(line)
    }

    fn parse_json_answer(line: &[u8]) -> Result<Action, AnswerError> {
        json::parse_hex_answer(line)
    }

    fn parse_answer_in(&self, seat: usize, wire: Wire, line: &[u8]) -> Result<Action, AnswerError> {
        match wire {
            Wire::Text => parse_answer(self, seat, line),
            Wire::Json => json::parse_hex_answer(line),
        }
    }

    /// A Hex move names a piece; a bare direction is no move.
    fn action_for(_: Dir) -> Action {
        Action::Skip
    }

    /// No move.
    fn forfeit() -> Action {
        Action::Skip
    }

    fn is_finished(&self) -> bool {
        false
    }
}
