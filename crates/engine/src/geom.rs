//! Board coordinates and directions shared by every game.
//!
//! `[0, 0]` is the top-left cell; `x` grows to the right and `y` grows
//! downward, as the Codenjoy board string and every stdin/stdout arena print
//! their rows top first.

use std::fmt;

/// A cell on a board. Signed so that a step off the edge is representable and
/// can be checked instead of wrapping silently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// Column, 0 at the left.
    pub x: i32,
    /// Row, 0 at the top.
    pub y: i32,
}

impl Pos {
    /// Builds a position.
    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    /// The neighbouring cell in direction `d` (may be off the board).
    pub fn step(self, d: Dir) -> Pos {
        let (dx, dy) = d.delta();
        Pos::new(self.x + dx, self.y + dy)
    }

    /// The direction from `self` to an orthogonally adjacent `other`.
    pub fn dir_to(self, other: Pos) -> Option<Dir> {
        Dir::ALL.into_iter().find(|&d| self.step(d) == other)
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{},{}]", self.x, self.y)
    }
}

/// One of the four moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dir {
    /// Towards row 0.
    Up,
    /// Towards higher columns.
    Right,
    /// Towards higher rows.
    Down,
    /// Towards column 0.
    Left,
}

impl Dir {
    /// All four, in the fixed order every deterministic loop uses.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Right, Dir::Down, Dir::Left];

    /// `(dx, dy)` of one step.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::Up => (0, -1),
            Dir::Right => (1, 0),
            Dir::Down => (0, 1),
            Dir::Left => (-1, 0),
        }
    }

    /// The 180-degree turn.
    pub const fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Right => Dir::Left,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
        }
    }

    /// A stable small number, used by checksums and compact encodings.
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The upper-case letter used in replays: `U`, `R`, `D`, `L`.
    pub const fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Right => 'R',
            Dir::Down => 'D',
            Dir::Left => 'L',
        }
    }

    /// Inverse of [`Dir::letter`].
    pub fn from_letter(c: char) -> Option<Dir> {
        match c {
            'U' => Some(Dir::Up),
            'R' => Some(Dir::Right),
            'D' => Some(Dir::Down),
            'L' => Some(Dir::Left),
            _ => None,
        }
    }
}
