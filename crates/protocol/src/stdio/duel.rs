//! The KingOfBots wire format (`stdio-arenas.md` §2), byte for byte.
//!
//! # Server to bot, every round
//!
//! One token, no spaces, upstream's `Game.getInput`:
//!
//! ```text
//! <map>#<my row>#<my col>#(<my steps>)#<their row>#<their col>#(<their steps>)
//! ```
//!
//! * `<map>`: `rows * cols` bytes (182 on the 13x14 map), row by row from
//!   the top, `1` for a wall and `0` for grass. Walls only: the snakes are
//!   not drawn.
//! * `<row>`, `<col>`: the snake's start cell, 0-based, in decimal
//!   (A starts at `11#1`, B at `1#12`).
//! * `<steps>`: every move the snake has made, oldest first, one digit each:
//!   `0` up, `1` right, `2` down, `3` left; `()` before the first move.
//! * The receiver's own snake always comes first.
//!
//! Bodies are not sent: a bot rebuilds them by replaying the steps from the
//! start with the growth rule (steps 1-10 and then every third), as the
//! sample bot of KingOfBots' description does; [`parse_input`] does the same.
//!
//! A process bot reads the token followed by `\n` on stdin each round
//! ([`input_line`]); KingOfBots' Java sample bot reads it from `input.txt`
//! through a harness (the runner's business, not this module's).
//!
//! ```text
//! 11111111111111110000011001011000000000000110000000010101100011000010011010000000000110000000000001100000000001011001000011000110101000000001100000000000011010011000001111111111111111#11#1#(000000000101111211)#1#12#(222223333333322111)
//! ```
//!
//! # Bot to server
//!
//! One line holding one digit, `0` to `3` (up, right, down, left), with
//! ASCII whitespace around it ignored ([`parse_answer`]). Anything else, or
//! no answer in time, loses the game: the runner reports it as
//! [`Action::Forfeit`].

use super::answer::{AnswerError, AnswerProblem, trimmed_line};
use snakepit_engine::duel::{Action, Duel, Settings, action_from_number, body_from_steps};
use snakepit_engine::{Dir, Pos};
use std::fmt;

/// One side's input token for this round, or `None` once the game is over.
pub fn input(game: &Duel, seat: usize) -> Option<String> {
    if game.is_over() || seat > 1 {
        return None;
    }
    let map = game.map();
    let mut out = String::with_capacity(map.walls().len() + 32 + 2 * game.snakes()[0].steps.len());
    out.extend(map.walls().iter().map(|&w| if w { '1' } else { '0' }));
    for s in [&game.snakes()[seat], &game.snakes()[1 - seat]] {
        out.push('#');
        out.push_str(&s.start.y.to_string());
        out.push('#');
        out.push_str(&s.start.x.to_string());
        out.push_str("#(");
        out.extend(s.steps.iter().map(|d| char::from(b'0' + d.index())));
        out.push(')');
    }
    Some(out)
}

/// [`input`] followed by `\n`: what a process bot reads on stdin.
pub fn input_line(game: &Duel, seat: usize) -> Option<String> {
    input(game, seat).map(|mut s| {
        s.push('\n');
        s
    })
}

/// Reads one answer line: the move, or exactly what is wrong with it.
pub fn parse_answer(line: &[u8]) -> Result<Action, AnswerError> {
    let text = trimmed_line(line)?;
    let bad = || AnswerError::new(line, AnswerProblem::NotAMove { expected: "one digit, 0 (up) to 3 (left)" });
    match text.as_bytes() {
        [d @ b'0'..=b'3'] => action_from_number(d - b'0').ok_or_else(bad),
        _ => Err(bad()),
    }
}

/// The answer digit of a move.
pub fn answer(d: Dir) -> char {
    char::from(b'0' + d.index())
}

/// One snake as a bot reconstructs it from its input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnakeInput {
    /// The start cell (`x` the column, `y` the row).
    pub start: Pos,
    /// Its moves, oldest first.
    pub steps: Vec<Dir>,
    /// Its body, head first, rebuilt from the start and the steps.
    pub body: Vec<Pos>,
}

/// A parsed input token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// Rows of the map.
    pub rows: usize,
    /// Columns of the map.
    pub cols: usize,
    /// Walls, row by row from the top.
    pub walls: Vec<bool>,
    /// The receiver's snake.
    pub me: SnakeInput,
    /// The other snake.
    pub you: SnakeInput,
}

/// Largest input [`parse_input`] reads, in bytes.
pub const INPUT_BYTES_MAX: usize = 1 << 20;

/// Parses an input token (a trailing `\n` is allowed) on a map of `rows` x
/// `cols`, rebuilding the bodies with the growth rule of `settings`.
pub fn parse_input(text: &str, rows: usize, cols: usize, settings: &Settings) -> Result<Input, InputError> {
    let err = |part, problem| Err(InputError { part, problem });
    if text.len() > INPUT_BYTES_MAX {
        return err(0, InputProblem::TooBig { bytes: text.len() });
    }
    let text = text.strip_suffix('\n').unwrap_or(text);
    let parts: Vec<&str> = text.split('#').collect();
    if parts.len() != 7 {
        return err(0, InputProblem::Parts(parts.len()));
    }
    if parts[0].len() != rows * cols {
        return err(1, InputProblem::MapLength { got: parts[0].len(), expected: rows * cols });
    }
    let mut walls = Vec::with_capacity(rows * cols);
    for (i, c) in parts[0].bytes().enumerate() {
        match c {
            b'0' => walls.push(false),
            b'1' => walls.push(true),
            _ => return err(1, InputProblem::MapByte { at: i, byte: c }),
        }
    }
    let number = |part: usize, limit: usize| -> Result<i32, InputError> {
        let s = parts[part];
        let ok = !s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit());
        match s.parse::<usize>() {
            Ok(n) if ok && n < limit => Ok(n as i32),
            _ => Err(InputError { part: part + 1, problem: InputProblem::Number { text: s.to_string(), limit } }),
        }
    };
    let steps = |part: usize| -> Result<Vec<Dir>, InputError> {
        let s = parts[part];
        let inner = s.strip_prefix('(').and_then(|s| s.strip_suffix(')'));
        let bad = |problem| Err(InputError { part: part + 1, problem });
        let Some(inner) = inner else { return bad(InputProblem::Parentheses) };
        inner
            .bytes()
            .enumerate()
            .map(|(i, b)| match b {
                b'0'..=b'3' => Ok(Dir::ALL[usize::from(b - b'0')]),
                _ => Err(InputError { part: part + 1, problem: InputProblem::StepByte { at: i, byte: b } }),
            })
            .collect()
    };
    let snake = |first: usize| -> Result<SnakeInput, InputError> {
        let start = Pos::new(number(first + 1, cols)?, number(first, rows)?);
        let steps = steps(first + 2)?;
        let body = body_from_steps(settings, start, &steps).into_iter().collect();
        Ok(SnakeInput { start, steps, body })
    };
    let (me, you) = (snake(1)?, snake(4)?);
    if me.steps.len() != you.steps.len() {
        return err(7, InputProblem::StepCounts { me: me.steps.len(), you: you.steps.len() });
    }
    Ok(Input { rows, cols, walls, me, you })
}

/// A defect in an input token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The 1-based `#`-separated part it is in (0 for the whole token).
    pub part: usize,
    /// What is wrong.
    pub problem: InputProblem,
}

/// The kinds of input defects.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputProblem {
    /// More than [`INPUT_BYTES_MAX`] bytes.
    TooBig {
        /// The token's length.
        bytes: usize,
    },
    /// Not 7 parts separated by `#`.
    Parts(usize),
    /// The map part has the wrong length.
    MapLength {
        /// Its length.
        got: usize,
        /// `rows * cols`.
        expected: usize,
    },
    /// A map byte other than `0` and `1`.
    MapByte {
        /// 0-based offset in the map part.
        at: usize,
        /// The byte.
        byte: u8,
    },
    /// A row or column that is not a decimal number below the map's size.
    Number {
        /// The part's text.
        text: String,
        /// The exclusive upper bound.
        limit: usize,
    },
    /// A steps part not in parentheses.
    Parentheses,
    /// A step other than `0`-`3`.
    StepByte {
        /// 0-based offset inside the parentheses.
        at: usize,
        /// The byte.
        byte: u8,
    },
    /// The two snakes have made different numbers of moves.
    StepCounts {
        /// Mine.
        me: usize,
        /// The other's.
        you: usize,
    },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.part > 0 {
            write!(f, "part {}: ", self.part)?;
        }
        match &self.problem {
            InputProblem::TooBig { bytes } => write!(f, "{bytes} bytes; at most {INPUT_BYTES_MAX} are read"),
            InputProblem::Parts(n) => write!(f, "{n} parts separated by '#'; expected 7"),
            InputProblem::MapLength { got, expected } => write!(f, "the map has {got} cells; expected {expected}"),
            InputProblem::MapByte { at, byte } => write!(f, "map byte {at} is {:?}; expected 0 or 1", char::from(*byte)),
            InputProblem::Number { text, limit } => write!(f, "{text:?} is not a number below {limit}"),
            InputProblem::Parentheses => f.write_str("the steps are not in parentheses"),
            InputProblem::StepByte { at, byte } => write!(f, "step {at} is {:?}; expected 0 to 3", char::from(*byte)),
            InputProblem::StepCounts { me, you } => write!(f, "{me} steps against {you}; both move every round"),
        }
    }
}

impl std::error::Error for InputError {}
