//! The CodeCarrots wire format (`stdio-arenas.md` §1), byte for byte.
//!
//! # Server to bot, every tick
//!
//! The board, and nothing else: exactly `height` lines of `width` bytes,
//! each line followed by `\n` (so `height * (width + 1)` bytes; 9 720 on
//! the default 120x80 board). No header, no tick number, no snake id: bots
//! know the size in advance, as upstream's template has it substituted in.
//! Row 0 is the top; `x` grows to the right and `y` downwards.
//!
//! | byte | meaning |
//! |---|---|
//! | `.` (0x2E) | empty, safe to move to |
//! | `o` (0x6F) | apple |
//! | `#` (0x23) | a snake cell: any snake's, the receiver's own body included (dead bodies too, under upstream's timing `bodies_stay=true`) |
//! | `H` (0x48) | the receiver's own head; exactly one per board |
//!
//! A snake cell covers an apple under it (with `bodies_stay`, an apple
//! can lie under a dead head). A board is only sent to a seat whose snake is alive
//! ([`board`] returns `None` otherwise): upstream sends nothing to a dead
//! snake, and restarts the process when the snake respawns.
//!
//! ```text
//! .###.....
//! .o....#..
//! ......#..
//! ..o.###..
//! ....#...o
//! ....#H...
//! ```
//!
//! # Bot to server
//!
//! One line: `left`, `right`, `up` or `down`. As upstream reads it
//! (`.strip().lower()`), whitespace around the word is ignored (Unicode
//! whitespace, as Python's `str.strip`) and so is its case: `  Left\r\n`
//! is `left`. Anything else is invalid and kills the snake, which the runner
//! reports as [`Action::Forfeit`]: another word, an empty line, more than
//! one line, bytes that are not UTF-8 ([`parse_answer`]).

use super::answer::{AnswerError, AnswerProblem, one_line};
use snakepit_engine::carrots::{Action, Carrots};
use snakepit_engine::{Dir, Pos};
use std::fmt;

/// The accepted answers, for messages.
const EXPECTED: &str = "left, right, up or down (any case, whitespace around ignored)";

/// The boards of every seat for this tick, by seat; `None` for seats
/// without a live snake. The board is drawn once and only the `H` differs.
pub fn boards(game: &Carrots) -> Vec<Option<String>> {
    let base = base_board(game);
    game.snakes()
        .iter()
        .map(|s| {
            let head = s.head().filter(|_| s.is_alive())?;
            Some(with_head(&base, game.width(), head))
        })
        .collect()
}

/// One seat's board for this tick, or `None` if its snake is not alive.
pub fn board(game: &Carrots, seat: usize) -> Option<String> {
    let s = game.snakes().get(seat)?;
    let head = s.head().filter(|_| s.is_alive())?;
    Some(with_head(&base_board(game), game.width(), head))
}

/// The board without `H`: what spectators and upstream's `board` key hold.
pub fn base_board(game: &Carrots) -> String {
    let (w, h) = (game.width(), game.height());
    let mut out = String::with_capacity(h * (w + 1));
    for y in 0..h {
        for x in 0..w {
            let p = Pos::new(x as i32, y as i32);
            out.push(if game.is_snake(p) {
                '#'
            } else if game.is_apple(p) {
                'o'
            } else {
                '.'
            });
        }
        out.push('\n');
    }
    out
}

fn with_head(base: &str, width: usize, head: Pos) -> String {
    let mut bytes = base.as_bytes().to_vec();
    bytes[head.y as usize * (width + 1) + head.x as usize] = b'H';
    String::from_utf8(bytes).expect("the board is ASCII")
}

/// Reads one answer line: the move, or exactly what is wrong with it.
pub fn parse_answer(line: &[u8]) -> Result<Action, AnswerError> {
    let text = one_line(line)?.trim();
    if text.is_empty() {
        return Err(AnswerError::new(line, AnswerProblem::Empty));
    }
    let word = |w: &str| text.eq_ignore_ascii_case(w);
    let dir = if word("left") {
        Dir::Left
    } else if word("right") {
        Dir::Right
    } else if word("up") {
        Dir::Up
    } else if word("down") {
        Dir::Down
    } else {
        return Err(AnswerError::new(line, AnswerProblem::NotAMove { expected: EXPECTED }));
    };
    Ok(Action::Move(dir))
}

/// The answer word of a move, as bots write it.
pub fn answer(d: Dir) -> &'static str {
    match d {
        Dir::Up => "up",
        Dir::Right => "right",
        Dir::Down => "down",
        Dir::Left => "left",
    }
}

/// One cell of a board as a bot reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// `.`
    Empty,
    /// `o`
    Apple,
    /// `#`
    Snake,
    /// `H`
    Head,
}

/// A board read back, as a bot sees it; used by built-in bots and tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Width.
    pub width: usize,
    /// Height.
    pub height: usize,
    /// Cells, row by row from the top.
    pub cells: Vec<Cell>,
    /// The receiver's head.
    pub head: Pos,
}

/// Largest board [`Board::parse`] reads, in bytes: a 1000x1000 board.
pub const BOARD_BYTES_MAX: usize = 1000 * 1001;

impl Board {
    /// Parses a board: lines of equal length, each ended by `\n` (the last
    /// one may lack it), made of `.`, `o`, `#` and exactly one `H`.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let err = |line, column, problem| Err(BoardError { line, column, problem });
        if text.len() > BOARD_BYTES_MAX {
            return err(1, 1, BoardProblem::TooBig { bytes: text.len() });
        }
        let body = text.strip_suffix('\n').unwrap_or(text);
        if body.is_empty() {
            return err(1, 1, BoardProblem::Empty);
        }
        let width = body.split('\n').next().map_or(0, str::len);
        let mut cells = Vec::with_capacity(body.len());
        let mut head = None;
        let mut height = 0;
        for (y, line) in body.split('\n').enumerate() {
            height += 1;
            if line.len() != width {
                return err(y + 1, 1, BoardProblem::Ragged { width: line.chars().count(), expected: width });
            }
            for (x, c) in line.chars().enumerate() {
                cells.push(match c {
                    '.' => Cell::Empty,
                    'o' => Cell::Apple,
                    '#' => Cell::Snake,
                    'H' if head.is_none() => {
                        head = Some(Pos::new(x as i32, y as i32));
                        Cell::Head
                    }
                    'H' => return err(y + 1, x + 1, BoardProblem::TwoHeads),
                    glyph => return err(y + 1, x + 1, BoardProblem::UnknownGlyph { glyph }),
                });
            }
        }
        if width == 0 {
            return err(1, 1, BoardProblem::Empty);
        }
        let Some(head) = head else { return err(1, 1, BoardProblem::NoHead) };
        Ok(Board { width, height, cells, head })
    }

    /// The cell at `p`; outside the board reads as a snake, as upstream's
    /// `Board.__getitem__` returns `#` there.
    pub fn get(&self, p: Pos) -> Cell {
        let inside = p.x >= 0 && p.y >= 0 && (p.x as usize) < self.width && (p.y as usize) < self.height;
        if inside { self.cells[p.y as usize * self.width + p.x as usize] } else { Cell::Snake }
    }
}

/// A defect in a board text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub problem: BoardProblem,
}

/// The kinds of board defects.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BoardProblem {
    /// No cells.
    Empty,
    /// More than [`BOARD_BYTES_MAX`] bytes.
    TooBig {
        /// The text's length.
        bytes: usize,
    },
    /// A line whose length differs from the first one's.
    Ragged {
        /// Characters on this line.
        width: usize,
        /// Characters on the first line.
        expected: usize,
    },
    /// Not one of `.`, `o`, `#`, `H`.
    UnknownGlyph {
        /// The character.
        glyph: char,
    },
    /// No `H`.
    NoHead,
    /// A second `H`.
    TwoHeads,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {} column {}: ", self.line, self.column)?;
        match &self.problem {
            BoardProblem::Empty => f.write_str("the board is empty"),
            BoardProblem::TooBig { bytes } => write!(f, "{bytes} bytes; a board has at most {BOARD_BYTES_MAX}"),
            BoardProblem::Ragged { width, expected } => write!(f, "{width} characters, but the first line has {expected}"),
            BoardProblem::UnknownGlyph { glyph } => write!(f, "{glyph:?} is not a board glyph (use . o # H)"),
            BoardProblem::NoHead => f.write_str("no 'H': the board has no head"),
            BoardProblem::TwoHeads => f.write_str("a second 'H'"),
        }
    }
}

impl std::error::Error for BoardError {}
