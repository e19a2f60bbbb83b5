//! Multisnake maps in the SOI statement's own glyphs, and the wrapping grid.
//!
//! A map is H lines of W characters, exactly the text a bot reads each turn:
//!
//! | glyph | meaning |
//! |---|---|
//! | `.` | free tile |
//! | `#` | wall |
//! | `+` | plus sign: the snake that enters it grows by one |
//! | `-` | minus sign: the snake that enters it shrinks by one |
//! | `A`..`H` | the head of seat 0..7 |
//! | `^` `>` `v` `<` | a body tile: the way the snake moved when its head was here, so arrows lead from the tail to the head |
//! | `@` | a dead snake's head (in positions; a starting map has none) |
//!
//! The map wraps: leaving one side enters the opposite one, for moves and for
//! the arrows of bodies alike. A starting map holds 2, 4 or 8 snakes,
//! lettered from `A` without gaps; each snake is traced from its head
//! backwards through the arrows that point into it. Organisers draw maps in
//! any editor; a defect is reported with its line and column.

use crate::geom::{Dir, Pos};
use std::fmt;

/// Smallest and largest map side (the SOI statement's constraint
/// `5 <= W,H <= 150`).
pub const SIDE_MIN: usize = 5;
/// See [`SIDE_MIN`].
pub const SIDE_MAX: usize = 150;

/// The static layer of a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tile {
    /// Nothing.
    Empty,
    /// An impenetrable tile.
    Wall,
    /// `+`: grow by one on entering (consumed).
    Plus,
    /// `-`: shrink by one on entering (consumed).
    Minus,
}

impl Tile {
    /// The map glyph.
    pub const fn glyph(self) -> char {
        match self {
            Tile::Empty => '.',
            Tile::Wall => '#',
            Tile::Plus => '+',
            Tile::Minus => '-',
        }
    }
}

/// The body glyph of a tile the snake left in direction `d`.
pub const fn arrow(d: Dir) -> char {
    match d {
        Dir::Up => '^',
        Dir::Right => '>',
        Dir::Down => 'v',
        Dir::Left => '<',
    }
}

/// Inverse of [`arrow`].
pub const fn from_arrow(c: char) -> Option<Dir> {
    match c {
        '^' => Some(Dir::Up),
        '>' => Some(Dir::Right),
        'v' => Some(Dir::Down),
        '<' => Some(Dir::Left),
        _ => None,
    }
}

/// The head letter of a seat: `A` for seat 0 (the SOI statement's
/// `64 + M` with M 1-based).
pub fn head_letter(seat: usize) -> char {
    char::from(b'A' + seat as u8)
}

/// A W x H board whose edges wrap around.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Width.
    pub width: usize,
    /// Height.
    pub height: usize,
}

impl Grid {
    /// Number of tiles.
    pub fn cells(self) -> usize {
        self.width * self.height
    }

    /// The position brought onto the board by wrapping.
    pub fn wrap(self, p: Pos) -> Pos {
        Pos::new(p.x.rem_euclid(self.width as i32), p.y.rem_euclid(self.height as i32))
    }

    /// The neighbour in direction `d`, across an edge if need be.
    pub fn step(self, p: Pos, d: Dir) -> Pos {
        self.wrap(p.step(d))
    }

    /// Tile index of a position on the board.
    pub fn index(self, p: Pos) -> usize {
        debug_assert!(self.contains(p), "{p} is off a {}x{} board", self.width, self.height);
        p.y as usize * self.width + p.x as usize
    }

    /// Position of a tile index.
    pub fn pos(self, i: usize) -> Pos {
        Pos::new((i % self.width) as i32, (i / self.width) as i32)
    }

    /// Whether `p` lies on the board (unwrapped).
    pub fn contains(self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && (p.x as usize) < self.width && (p.y as usize) < self.height
    }

    /// The direction that leads from `a` to its neighbour `b`, across an
    /// edge if need be.
    pub fn dir_between(self, a: Pos, b: Pos) -> Option<Dir> {
        Dir::ALL.into_iter().find(|&d| self.step(a, d) == b)
    }
}

/// A starting map: tiles and the snakes on them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// Width and height.
    pub grid: Grid,
    /// Tiles, row by row from the top; `Empty` under snakes.
    pub tiles: Vec<Tile>,
    /// Each seat's snake, head first.
    pub snakes: Vec<Vec<Pos>>,
}

impl Map {
    /// Parses a map in the SOI statement's glyphs (see the module
    /// documentation). Trailing empty lines are ignored; `\r\n` is accepted.
    pub fn parse(text: &str) -> Result<Map, MapError> {
        let err = |line: usize, column: usize, problem| Err(MapError { line, column, problem });
        let lines: Vec<&str> = text.lines().map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
        let end = lines.iter().rposition(|l| !l.is_empty()).map_or(0, |i| i + 1);
        let lines = &lines[..end];
        let height = lines.len();
        let width = lines.first().map_or(0, |l| l.chars().count());
        if !(SIDE_MIN..=SIDE_MAX).contains(&height) || !(SIDE_MIN..=SIDE_MAX).contains(&width) {
            return err(1, 1, MapProblem::BadSize { width, height });
        }
        let grid = Grid { width, height };
        let mut tiles = Vec::with_capacity(grid.cells());
        let mut arrows: Vec<Option<Dir>> = Vec::with_capacity(grid.cells());
        let mut heads: [Option<Pos>; 8] = [None; 8];
        for (y, line) in lines.iter().enumerate() {
            let w = line.chars().count();
            if w != width {
                return err(y + 1, 1, MapProblem::Ragged { width: w, expected: width });
            }
            for (x, c) in line.chars().enumerate() {
                let p = Pos::new(x as i32, y as i32);
                let (tile, arrow) = match c {
                    '.' => (Tile::Empty, None),
                    '#' => (Tile::Wall, None),
                    '+' => (Tile::Plus, None),
                    '-' => (Tile::Minus, None),
                    'A'..='H' => {
                        let seat = c as usize - 'A' as usize;
                        if heads[seat].is_some() {
                            return err(y + 1, x + 1, MapProblem::TwoHeads { letter: c });
                        }
                        heads[seat] = Some(p);
                        (Tile::Empty, None)
                    }
                    '@' => return err(y + 1, x + 1, MapProblem::DeadHead),
                    c => match from_arrow(c) {
                        Some(d) => (Tile::Empty, Some(d)),
                        None => return err(y + 1, x + 1, MapProblem::UnknownGlyph { glyph: c }),
                    },
                };
                tiles.push(tile);
                arrows.push(arrow);
            }
        }
        let players = heads.iter().take_while(|h| h.is_some()).count();
        if let Some(gap) = heads.iter().skip(players).position(Option::is_some) {
            let letter = head_letter(players + gap);
            return err(1, 1, MapProblem::LetterGap { letter, missing: head_letter(players) });
        }
        if ![2, 4, 8].contains(&players) {
            return err(1, 1, MapProblem::Players(players));
        }
        let mut owned = vec![false; grid.cells()];
        let mut snakes = Vec::with_capacity(players);
        for head in heads.iter().take(players).flatten() {
            let mut body = vec![*head];
            owned[grid.index(*head)] = true;
            loop {
                let at = body[body.len() - 1];
                let into: Vec<Pos> = Dir::ALL
                    .into_iter()
                    .map(|d| grid.step(at, d))
                    .filter(|&q| arrows[grid.index(q)].is_some_and(|a| grid.step(q, a) == at))
                    .collect();
                match into.as_slice() {
                    [] => break,
                    [q] if !owned[grid.index(*q)] => {
                        owned[grid.index(*q)] = true;
                        body.push(*q);
                    }
                    _ => {
                        let (line, column) = (at.y as usize + 1, at.x as usize + 1);
                        return err(line, column, MapProblem::Ambiguous { arrows: into.len() });
                    }
                }
            }
            snakes.push(body);
        }
        if let Some(i) = (0..grid.cells()).find(|&i| arrows[i].is_some() && !owned[i]) {
            let p = grid.pos(i);
            return err(p.y as usize + 1, p.x as usize + 1, MapProblem::Stray);
        }
        Ok(Map { grid, tiles, snakes })
    }

    /// The map as text, one string per row, in the form [`Map::parse`]
    /// reads.
    pub fn to_rows(&self) -> Vec<String> {
        let mut cells: Vec<char> = self.tiles.iter().map(|t| t.glyph()).collect();
        for (seat, body) in self.snakes.iter().enumerate() {
            for (k, &p) in body.iter().enumerate() {
                cells[self.grid.index(p)] = match k {
                    0 => head_letter(seat),
                    _ => self.grid.dir_between(p, body[k - 1]).map_or('?', arrow),
                };
            }
        }
        cells.chunks(self.grid.width).map(|row| row.iter().collect()).collect()
    }

    /// Number of players (2, 4 or 8).
    pub fn players(&self) -> usize {
        self.snakes.len()
    }
}

/// A defect in a map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapError {
    /// 1-based line of the defect.
    pub line: usize,
    /// 1-based column of the defect.
    pub column: usize,
    /// What is wrong.
    pub problem: MapProblem,
}

/// The kinds of map defects.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MapProblem {
    /// Width or height outside 5 to 150.
    BadSize {
        /// Characters on the first line.
        width: usize,
        /// Number of lines.
        height: usize,
    },
    /// A line whose length differs from the first line's.
    Ragged {
        /// Characters on this line.
        width: usize,
        /// Characters on the first line.
        expected: usize,
    },
    /// A character that is not a map glyph.
    UnknownGlyph {
        /// The character.
        glyph: char,
    },
    /// `@`: a starting map has no dead snakes.
    DeadHead,
    /// A head letter drawn twice.
    TwoHeads {
        /// The letter.
        letter: char,
    },
    /// A head letter used while an earlier one is missing.
    LetterGap {
        /// The letter found.
        letter: char,
        /// The first letter missing.
        missing: char,
    },
    /// Not 2, 4 or 8 snakes.
    Players(usize),
    /// Several arrows point into this tile of a snake, so its body cannot
    /// be traced.
    Ambiguous {
        /// How many.
        arrows: usize,
    },
    /// An arrow that belongs to no snake.
    Stray,
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {} column {}: ", self.line, self.column)?;
        match &self.problem {
            MapProblem::BadSize { width, height } => {
                write!(f, "the map is {width}x{height}; width and height must be 5 to 150")
            }
            MapProblem::Ragged { width, expected } => write!(f, "{width} characters, but the first line has {expected}"),
            MapProblem::UnknownGlyph { glyph } => {
                write!(f, "{glyph:?} is not a map glyph (use . # + - A-H ^ > v <)")
            }
            MapProblem::DeadHead => write!(f, "'@' (a dead head) cannot be in a starting map"),
            MapProblem::TwoHeads { letter } => write!(f, "a second head {letter:?}"),
            MapProblem::LetterGap { letter, missing } => write!(f, "head {letter:?} is drawn but {missing:?} is not"),
            MapProblem::Players(n) => write!(f, "{n} snakes; a map holds 2, 4 or 8"),
            MapProblem::Ambiguous { arrows } => {
                write!(f, "{arrows} arrows point into this snake tile; its body cannot be traced")
            }
            MapProblem::Stray => write!(f, "this arrow belongs to no snake (follow it: it must lead to a head)"),
        }
    }
}

impl std::error::Error for MapError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_round_trip() {
        for d in Dir::ALL {
            assert_eq!(from_arrow(arrow(d)), Some(d));
        }
    }

    #[test]
    fn wrapped_snake_is_traced() {
        // B's body crosses the left edge: its tail is on the right.
        let text = "\
.....
>A..>
.....
...>B
.....
";
        let map = Map::parse(text).unwrap();
        let p = Pos::new;
        assert_eq!(map.snakes, [vec![p(1, 1), p(0, 1), p(4, 1)], vec![p(4, 3), p(3, 3)]]);
        assert_eq!(map.to_rows().join("\n") + "\n", text);
    }

    #[test]
    fn defects_are_located() {
        let e = |t: &str| Map::parse(t).unwrap_err();
        assert_eq!(e(".....\n.A.B.\n.....\n....\n.....\n").problem, MapProblem::Ragged { width: 4, expected: 5 });
        assert_eq!(e(".....\n.A.B.\n..x..\n.....\n.....\n").problem, MapProblem::UnknownGlyph { glyph: 'x' });
        assert_eq!(e(".....\n.A.B.\n..x..\n.....\n.....\n").line, 3);
        assert_eq!(e(".....\n.A.C.\n.....\n.....\n.....\n").problem, MapProblem::LetterGap { letter: 'C', missing: 'B' });
        assert_eq!(e(".....\n.A.B.\n.C...\n.....\n.....\n").problem, MapProblem::Players(3));
        assert_eq!(e(".....\n.A.B.\n...>.\n.....\n.....\n").problem, MapProblem::Stray);
        assert_eq!(e(".....\n>A<B.\n.....\n.....\n.....\n").problem, MapProblem::Ambiguous { arrows: 2 });
        assert_eq!(e(".....\n.A.B@\n.....\n.....\n.....\n").column, 5);
    }
}
