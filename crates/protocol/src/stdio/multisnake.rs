//! The SOI Multisnake wire format (`stdio-arenas.md` §3), byte
//! for byte.
//!
//! # Server to bot
//!
//! Once, before the first map, one line of five decimal integers separated
//! by single spaces ([`header`]):
//!
//! ```text
//! W H N M T\n
//! ```
//!
//! W and H the map's width and height (5 to 150), N the number of players
//! (2, 4 or 8), M the receiver's number (1 to N; its head is the letter
//! `64 + M`, so `A` for M = 1), T the growth period (1 to 25: every snake
//! grows on turns that are multiples of T, counting from 1).
//!
//! Then, at the beginning of every turn, the map: exactly H lines of W
//! bytes, each followed by `\n` ([`map`]). Row 0 is the top. The map wraps
//! at its edges.
//!
//! | byte | meaning |
//! |---|---|
//! | `A`..`H` | a live snake's head, player 1..8 |
//! | `@` | a dead snake's head |
//! | `#` | a wall |
//! | `^` `>` `v` `<` | a body tile: the way the snake moved when its head was on it (arrows lead from the tail to the head) |
//! | `.` | free |
//! | `+` `-` | a sign: grow or shrink by one on entering |
//!
//! Dead snakes stay on the map. Nothing else is ever sent; in particular
//! there is no "game over" message: the map stops coming when the
//! receiver's snake dies or the game ends ([`map_for`] returns `None`), and
//! the process is then terminated.
//!
//! The SOI statement's example, a 28x8 map with four snakes, two of which met
//! head on (`@`):
//!
//! ```text
//! ##########.^.....^##########
//! #....>>>>>>^.....^<...>>>v.#
//! #.......-..........-.....v.#
//! >>>>>>>>>>>>>>>B...+.....>>>
//! #...................v......#
//! #...+..A<.########..v..+...#
//! ##......^<<<.....>>>@.....##
//! ###....-...^.....^..-....###
//! ```
//!
//! # Bot to server
//!
//! One line holding one of `^`, `>`, `v`, `<` ([`parse_answer`]); ASCII
//! whitespace around it is ignored, so `v\r\n` is `v`. Anything else
//! terminates the program and its snake dies: the runner reports it as
//! [`Action::Forfeit`].

use super::answer::{AnswerError, AnswerProblem, trimmed_line};
use snakepit_engine::multisnake::{Action, Grid, Multisnake, arrow, from_arrow, head_letter};
use snakepit_engine::{Dir, Pos};
use std::fmt;

/// The header line a seat reads once, with its `\n`.
pub fn header(game: &Multisnake, seat: usize) -> String {
    let grid = game.grid();
    let (n, t) = (game.snakes().len(), game.settings().grow_every);
    format!("{} {} {n} {} {t}\n", grid.width, grid.height, seat + 1)
}

/// The map of this turn: H lines, each followed by `\n`. The same for
/// every seat.
pub fn map(game: &Multisnake) -> String {
    let mut out = String::new();
    write_map(game, &mut out);
    out
}

/// Writes the map of this turn into `out`, replacing what it held and
/// reusing its memory: the bytes of [`map`], which are those of the
/// engine's [`Multisnake::rows`], each row followed by `\n`.
///
/// This runs once per turn for every match, so it writes bytes in place
/// (tiles first, then each snake over them in seat order, as `rows` does)
/// instead of building a string per row.
pub fn write_map(game: &Multisnake, out: &mut String) {
    let grid = game.grid();
    let line = grid.width + 1;
    let mut bytes = std::mem::take(out).into_bytes();
    bytes.clear();
    bytes.reserve(grid.height * line);
    for row in game.tiles().chunks(grid.width) {
        // Every tile glyph is ASCII, so the cast keeps it whole.
        bytes.extend(row.iter().map(|t| t.glyph() as u8));
        bytes.push(b'\n');
    }
    // Row y starts at y * (W + 1): each earlier row has its `\n`.
    let at = |p: Pos| p.y as usize * line + p.x as usize;
    for (seat, s) in game.snakes().iter().enumerate() {
        for (k, &p) in s.body.iter().enumerate().skip(1) {
            bytes[at(p)] = dir_between(grid, p, s.body[k - 1]).map_or(b'?', |d| ascii(arrow(d)));
        }
        bytes[at(s.head())] = if s.alive { ascii(head_letter(seat)) } else { b'@' };
    }
    // Every byte written above is ASCII, so this never takes the lossy path.
    *out = String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
}

/// A map glyph as its byte; every glyph of the format is ASCII.
fn ascii(c: char) -> u8 {
    u8::try_from(c).unwrap_or(b'?')
}

/// The way from a body tile to the next one towards the head, across an
/// edge if need be: what [`Grid::dir_between`] answers, from the
/// difference of the two positions instead of four wrapped steps (which
/// took most of the map's time with long snakes).
fn dir_between(grid: Grid, a: Pos, b: Pos) -> Option<Dir> {
    let (w, h) = (grid.width as i32, grid.height as i32);
    if w < 3 || h < 3 {
        // One step and its opposite can reach the same tile there; the
        // engine's order of directions decides.
        return grid.dir_between(a, b);
    }
    match (b.x - a.x, b.y - a.y) {
        (0, dy) if dy == -1 || dy == h - 1 => Some(Dir::Up),
        (dx, 0) if dx == 1 || dx == 1 - w => Some(Dir::Right),
        (0, dy) if dy == 1 || dy == 1 - h => Some(Dir::Down),
        (dx, 0) if dx == -1 || dx == w - 1 => Some(Dir::Left),
        _ => None,
    }
}

/// The map for one seat, or `None` when it is not asked: its snake is
/// dead or the game is over.
pub fn map_for(game: &Multisnake, seat: usize) -> Option<String> {
    let alive = game.snakes().get(seat).is_some_and(|s| s.alive);
    (alive && !game.is_over()).then(|| map(game))
}

/// Reads one answer line: the move, or exactly what is wrong with it.
pub fn parse_answer(line: &[u8]) -> Result<Action, AnswerError> {
    let text = trimmed_line(line)?;
    let mut cs = text.chars();
    match (cs.next().and_then(from_arrow), cs.next()) {
        (Some(d), None) => Ok(Action::Move(d)),
        _ => Err(AnswerError::new(line, AnswerProblem::NotAMove { expected: "one of ^ > v <" })),
    }
}

/// The answer character of a move.
pub fn answer(d: Dir) -> char {
    arrow(d)
}

/// The five integers of the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// W.
    pub width: usize,
    /// H.
    pub height: usize,
    /// N.
    pub players: usize,
    /// M, 1-based.
    pub me: usize,
    /// T.
    pub grow_every: u32,
}

/// Parses the header: five integers separated by ASCII whitespace (any
/// amount; the SOI statement only says "read five integers"), within its
/// constraints.
pub fn parse_header(text: &str) -> Result<Header, HeaderError> {
    if text.len() > 100 {
        return Err(HeaderError::TooLong(text.len()));
    }
    let words: Vec<&str> = text.split_ascii_whitespace().collect();
    if words.len() != 5 {
        return Err(HeaderError::Count(words.len()));
    }
    let mut v = [0usize; 5];
    let names = ["W", "H", "N", "M", "T"];
    for (i, w) in words.iter().enumerate() {
        let ok = w.len() <= 4 && w.bytes().all(|b| b.is_ascii_digit());
        v[i] = w.parse().ok().filter(|_| ok).ok_or_else(|| HeaderError::NotANumber { name: names[i], text: w.to_string() })?;
    }
    let [width, height, players, me, t] = v;
    let check = |name: &'static str, value: usize, ok: bool| {
        if ok { Ok(()) } else { Err(HeaderError::OutOfRange { name, value }) }
    };
    check("W", width, (5..=150).contains(&width))?;
    check("H", height, (5..=150).contains(&height))?;
    check("N", players, [2, 4, 8].contains(&players))?;
    check("M", me, (1..=players).contains(&me))?;
    check("T", t, (1..=25).contains(&t))?;
    Ok(Header { width, height, players, me, grow_every: t as u32 })
}

/// A header that does not follow the SOI statement's constraints.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HeaderError {
    /// Longer than any valid header.
    TooLong(usize),
    /// Not five words.
    Count(usize),
    /// A word that is not a decimal number.
    NotANumber {
        /// Which value.
        name: &'static str,
        /// The word.
        text: String,
    },
    /// A value outside the SOI statement's constraints.
    OutOfRange {
        /// Which value.
        name: &'static str,
        /// The value.
        value: usize,
    },
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderError::TooLong(n) => write!(f, "header of {n} bytes; expected five short integers"),
            HeaderError::Count(n) => write!(f, "{n} values in the header; expected W H N M T"),
            HeaderError::NotANumber { name, text } => write!(f, "{name} is {text:?}, not a number"),
            HeaderError::OutOfRange { name, value } => write!(
                f,
                "{name} = {value} is out of range (5 <= W,H <= 150, N in 2 4 8, 1 <= M <= N, 1 <= T <= 25)"
            ),
        }
    }
}

impl std::error::Error for HeaderError {}

/// A map read back, as a bot sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// Width and height.
    pub grid: Grid,
    /// The bytes, row by row from the top.
    pub cells: Vec<u8>,
}

impl View {
    /// Parses the H lines of one turn, each ended by `\n` (the last may lack
    /// it), of the size the header gave; every byte must be a map glyph.
    pub fn parse(text: &str, width: usize, height: usize) -> Result<View, MapError> {
        let err = |line, column, problem| Err(MapError { line, column, problem });
        if !(5..=150).contains(&width) || !(5..=150).contains(&height) {
            return err(1, 1, MapProblem::BadSize);
        }
        let body = text.strip_suffix('\n').unwrap_or(text);
        let mut cells = Vec::with_capacity(width * height);
        let mut lines = 0;
        for (y, line) in body.split('\n').enumerate() {
            if y >= height {
                return err(y + 1, 1, MapProblem::Lines { expected: height });
            }
            lines += 1;
            if line.len() != width {
                return err(y + 1, 1, MapProblem::Width { got: line.len(), expected: width });
            }
            for (x, b) in line.bytes().enumerate() {
                if !matches!(b, b'A'..=b'H' | b'@' | b'#' | b'^' | b'>' | b'v' | b'<' | b'.' | b'+' | b'-') {
                    return err(y + 1, x + 1, MapProblem::Glyph { byte: b });
                }
                cells.push(b);
            }
        }
        if lines != height {
            return err(lines + 1, 1, MapProblem::Lines { expected: height });
        }
        Ok(View { grid: Grid { width, height }, cells })
    }

    /// The byte at `p`, wrapping.
    pub fn get(&self, p: Pos) -> u8 {
        self.cells[self.grid.index(self.grid.wrap(p))]
    }

    /// The head of player `me` (1-based), if it is alive.
    pub fn head(&self, me: usize) -> Option<Pos> {
        if !(1..=8).contains(&me) {
            return None;
        }
        let letter = b'@' + me as u8;
        self.cells.iter().position(|&c| c == letter).map(|i| self.grid.pos(i))
    }

    /// A live snake's tiles, head first, traced backwards through the
    /// arrows that point into each tile. `None` if the head is not on the
    /// map or two arrows point into one tile (which a real map never has).
    pub fn snake(&self, me: usize) -> Option<Vec<Pos>> {
        let mut body = vec![self.head(me)?];
        loop {
            let at = body[body.len() - 1];
            let into: Vec<Pos> = Dir::ALL
                .into_iter()
                .map(|d| self.grid.step(at, d))
                .filter(|&q| from_arrow(char::from(self.get(q))).is_some_and(|a| self.grid.step(q, a) == at))
                .collect();
            match into.as_slice() {
                [] => return Some(body),
                [q] if !body.contains(q) && body.len() < self.cells.len() => body.push(*q),
                _ => return None,
            }
        }
    }
}

/// A defect in a map text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub problem: MapProblem,
}

/// The kinds of map defects.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MapProblem {
    /// The size asked for is outside 5 to 150.
    BadSize,
    /// Not H lines.
    Lines {
        /// H.
        expected: usize,
    },
    /// A line that is not W bytes.
    Width {
        /// Its length in bytes.
        got: usize,
        /// W.
        expected: usize,
    },
    /// A byte that is not a map glyph.
    Glyph {
        /// The byte.
        byte: u8,
    },
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {} column {}: ", self.line, self.column)?;
        match &self.problem {
            MapProblem::BadSize => f.write_str("width and height must be 5 to 150"),
            MapProblem::Lines { expected } => write!(f, "the map must have {expected} lines"),
            MapProblem::Width { got, expected } => write!(f, "{got} bytes; every line has {expected}"),
            MapProblem::Glyph { byte } => {
                write!(f, "byte {:?} is not a map glyph (A-H @ # ^ > v < . + -)", char::from(*byte))
            }
        }
    }
}

impl std::error::Error for MapError {}
