//! Hex maps, drawn in the game's own glyphs.
//!
//! A map is a square of text lines: `☼` wall, ` ` (space) empty. That is
//! all: there are no start cells, because Codenjoy's Hex description and
//! upstream put every new piece on a random free cell, and a third glyph would
//! be one more thing a board could show that clients do not know. Organisers
//! draw maps in any editor; a defect is reported with its line and column.

use crate::geom::Pos;
use std::fmt;

/// The default level: 15x15, a wall border, empty inside (upstream's
/// `LEVEL_MAP`).
pub const DEFAULT_MAP: &str = include_str!("default_map.txt");

/// Smallest side a map may have: a 3x3 map with a border is one cell.
pub const MAP_SIZE_MIN: usize = 3;
/// Largest side a map may have; board strings stay under 120 kB.
pub const MAP_SIZE_MAX: usize = 200;

/// The walls a game starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// Width and height (maps are square: clients take the square root of
    /// the board string's length).
    pub size: usize,
    /// `true` for a wall, row by row from the top.
    pub walls: Vec<bool>,
}

impl Map {
    /// The default map.
    pub fn default_map() -> Map {
        Map::parse(DEFAULT_MAP).expect("the built-in map parses")
    }

    /// Parses a map. Trailing empty lines are ignored; `\r\n` is accepted.
    pub fn parse(text: &str) -> Result<Map, MapError> {
        let lines: Vec<&str> = text.lines().map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
        let mut end = lines.len();
        while end > 0 && lines[end - 1].is_empty() {
            end -= 1;
        }
        let lines = &lines[..end];
        if lines.is_empty() {
            return Err(MapError { line: 1, problem: MapProblem::Empty });
        }
        let size = lines.len();
        if !(MAP_SIZE_MIN..=MAP_SIZE_MAX).contains(&size) {
            return Err(MapError { line: 1, problem: MapProblem::BadSize(size) });
        }
        let mut walls = Vec::with_capacity(size * size);
        for (i, line) in lines.iter().enumerate() {
            let width = line.chars().count();
            if width != size {
                return Err(MapError { line: i + 1, problem: MapProblem::NotSquare { width, height: size } });
            }
            for (col, c) in line.chars().enumerate() {
                walls.push(match c {
                    '☼' => true,
                    ' ' => false,
                    other => {
                        return Err(MapError {
                            line: i + 1,
                            problem: MapProblem::UnknownGlyph { glyph: other, column: col + 1 },
                        });
                    }
                });
            }
        }
        if walls.iter().all(|&w| w) {
            return Err(MapError { line: 1, problem: MapProblem::NoFreeCell });
        }
        Ok(Map { size, walls })
    }

    /// The map as text, one line per row, each ending in `\n`; the inverse
    /// of [`Map::parse`].
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity(self.walls.len() * 3 + self.size);
        for row in self.walls.chunks(self.size) {
            s.extend(row.iter().map(|&w| if w { '☼' } else { ' ' }));
            s.push('\n');
        }
        s
    }

    /// Cell index of a position, or `None` off the board.
    pub fn index(&self, p: Pos) -> Option<usize> {
        let n = self.size as i32;
        (p.x >= 0 && p.y >= 0 && p.x < n && p.y < n).then(|| (p.y * n + p.x) as usize)
    }

    /// Position of a cell index.
    pub fn pos(&self, i: usize) -> Pos {
        Pos::new((i % self.size) as i32, (i / self.size) as i32)
    }
}

/// A defect in a map file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapError {
    /// 1-based line of the defect.
    pub line: usize,
    /// What is wrong.
    pub problem: MapProblem,
}

/// The kinds of map defects.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MapProblem {
    /// No lines at all.
    Empty,
    /// Fewer than 3 or more than 200 lines.
    BadSize(usize),
    /// A line whose length differs from the number of lines.
    NotSquare {
        /// Characters on this line.
        width: usize,
        /// Number of lines.
        height: usize,
    },
    /// A character that is not a map glyph.
    UnknownGlyph {
        /// The character.
        glyph: char,
        /// 1-based column.
        column: usize,
    },
    /// Nowhere to put a piece.
    NoFreeCell,
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: ", self.line)?;
        match &self.problem {
            MapProblem::Empty => write!(f, "the map is empty"),
            MapProblem::BadSize(n) => {
                write!(f, "the map has {n} lines; {MAP_SIZE_MIN} to {MAP_SIZE_MAX} are allowed")
            }
            MapProblem::NotSquare { width, height } => {
                write!(f, "{width} characters, but the map has {height} lines and must be square")
            }
            MapProblem::UnknownGlyph { glyph, column } => {
                write!(f, "column {column}: {glyph:?} is not a Hex map glyph (use ☼ for a wall, space for empty)")
            }
            MapProblem::NoFreeCell => write!(f, "the map is all walls"),
        }
    }
}

impl std::error::Error for MapError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_map_is_15_with_a_border() {
        let m = Map::default_map();
        assert_eq!(m.size, 15);
        for i in 0..m.walls.len() {
            let p = m.pos(i);
            let border = p.x == 0 || p.y == 0 || p.x == 14 || p.y == 14;
            assert_eq!(m.walls[i], border, "{p}");
        }
        assert_eq!(m.to_text(), DEFAULT_MAP);
    }

    #[test]
    fn defects_name_their_line() {
        let e = |t: &str| Map::parse(t).unwrap_err();
        assert_eq!(e("").problem, MapProblem::Empty);
        assert_eq!(e("☼☼\n☼ \n").problem, MapProblem::BadSize(2));
        assert_eq!(e("☼☼☼\n☼ \n☼☼☼\n"), MapError { line: 2, problem: MapProblem::NotSquare { width: 2, height: 3 } });
        let bad = e("☼☼☼\n☼#☼\n☼☼☼\n");
        assert_eq!(bad.problem, MapProblem::UnknownGlyph { glyph: '#', column: 2 });
        assert_eq!(bad.to_string(), "line 2: column 2: '#' is not a Hex map glyph (use ☼ for a wall, space for empty)");
        assert_eq!(e("☼☼☼\n☼☼☼\n☼☼☼\n").problem, MapProblem::NoFreeCell);
        assert!(Map::parse("☼☼☼\r\n☼ ☼\r\n☼☼☼\r\n\n\n").is_ok());
    }
}
