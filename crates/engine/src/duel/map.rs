//! KingOfBots maps: upstream's generator, and maps drawn as text.
//!
//! A generated map is upstream's `Game.draw()`: a full border of walls, then
//! `inner_walls / 2` point-symmetric pairs `(r, c)` and
//! `(rows-1-r, cols-1-c)`, each found in up to 1000 random tries that skip
//! walls and the two start cells, redrawn (up to 1000 times) until the two
//! starts connect. Upstream keeps the last draw when none connects; we fall
//! back to the border alone, which always connects, so that no game starts
//! unwinnable.
//!
//! A drawn map is text: `#` wall, `.` grass, `A` and `B` the two starts (on
//! grass), one line per row, every row equally long. Rule tests use drawn
//! maps, and a replay stores the map it was played on in this form.

use crate::geom::{Dir, Pos};
use crate::rng::Rng;
use std::fmt;

/// Tries per wall pair and draws per map, as upstream.
const TRIES: u32 = 1000;

/// The map of one game: walls and the two start cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuelMap {
    rows: usize,
    cols: usize,
    walls: Vec<bool>,
    starts: [Pos; 2],
}

impl DuelMap {
    /// Upstream's map generator, drawing from `rng`. Starts are
    /// (row `rows-2`, col 1) for A and (row 1, col `cols-2`) for B.
    pub fn generate(rows: usize, cols: usize, inner_walls: usize, rng: &mut Rng) -> DuelMap {
        assert!(rows >= 4 && cols >= 4, "a map needs an inside");
        let starts = [Pos::new(1, rows as i32 - 2), Pos::new(cols as i32 - 2, 1)];
        let mut map = DuelMap { rows, cols, walls: vec![false; rows * cols], starts };
        for _ in 0..TRIES {
            map.draw(inner_walls, rng);
            if map.connected() {
                return map;
            }
        }
        map.draw(0, rng);
        map
    }

    fn draw(&mut self, inner_walls: usize, rng: &mut Rng) {
        let (rows, cols) = (self.rows, self.cols);
        for r in 0..rows {
            for c in 0..cols {
                self.walls[r * cols + c] = r == 0 || c == 0 || r == rows - 1 || c == cols - 1;
            }
        }
        let [a, b] = self.starts;
        for _ in 0..inner_walls / 2 {
            for _ in 0..TRIES {
                let r = rng.index(rows);
                let c = rng.index(cols);
                let (mr, mc) = (rows - 1 - r, cols - 1 - c);
                if self.walls[r * cols + c] || self.walls[mr * cols + mc] {
                    continue;
                }
                let p = Pos::new(c as i32, r as i32);
                if p == a || p == b {
                    continue;
                }
                self.walls[r * cols + c] = true;
                self.walls[mr * cols + mc] = true;
                break;
            }
        }
    }

    /// Whether start B can be reached from start A over grass.
    pub fn connected(&self) -> bool {
        let [a, b] = self.starts;
        let mut seen = vec![false; self.walls.len()];
        let mut todo = vec![a];
        seen[self.index(a).unwrap_or_default()] = true;
        while let Some(p) = todo.pop() {
            if p == b {
                return true;
            }
            for d in Dir::ALL {
                let q = p.step(d);
                if let Some(i) = self.index(q)
                    && !self.walls[i]
                    && !seen[i]
                {
                    seen[i] = true;
                    todo.push(q);
                }
            }
        }
        false
    }

    /// Parses a drawn map (see the module documentation). Trailing empty
    /// lines are ignored; `\r\n` is accepted.
    pub fn parse(text: &str) -> Result<DuelMap, MapError> {
        let err = |line: usize, problem| Err(MapError { line, problem });
        let lines: Vec<&str> = text.lines().map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
        let end = lines.iter().rposition(|l| !l.is_empty()).map_or(0, |i| i + 1);
        let lines = &lines[..end];
        let rows = lines.len();
        if !(4..=super::settings::SIDE_MAX as usize).contains(&rows) {
            return err(1, MapProblem::BadSize { rows, cols: lines.first().map_or(0, |l| l.chars().count()) });
        }
        let cols = lines[0].chars().count();
        if !(4..=super::settings::SIDE_MAX as usize).contains(&cols) {
            return err(1, MapProblem::BadSize { rows, cols });
        }
        let mut walls = Vec::with_capacity(rows * cols);
        let mut starts: [Option<Pos>; 2] = [None, None];
        for (r, line) in lines.iter().enumerate() {
            let width = line.chars().count();
            if width != cols {
                return err(r + 1, MapProblem::Ragged { width, cols });
            }
            for (c, ch) in line.chars().enumerate() {
                let seat = match ch {
                    '#' | '.' => None,
                    'A' => Some(0),
                    'B' => Some(1),
                    glyph => return err(r + 1, MapProblem::UnknownGlyph { glyph, column: c + 1 }),
                };
                if let Some(seat) = seat {
                    if starts[seat].is_some() {
                        return err(r + 1, MapProblem::TwoStarts { glyph: ch });
                    }
                    starts[seat] = Some(Pos::new(c as i32, r as i32));
                }
                walls.push(ch == '#');
            }
        }
        match starts {
            [Some(a), Some(b)] => Ok(DuelMap { rows, cols, walls, starts: [a, b] }),
            [None, _] => err(1, MapProblem::NoStart { glyph: 'A' }),
            [_, None] => err(1, MapProblem::NoStart { glyph: 'B' }),
        }
    }

    /// The map as text, one string per row, in the form [`DuelMap::parse`]
    /// reads.
    pub fn to_rows(&self) -> Vec<String> {
        (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| {
                        let p = Pos::new(c as i32, r as i32);
                        match self.starts.iter().position(|&s| s == p) {
                            Some(0) => 'A',
                            Some(_) => 'B',
                            None if self.walls[r * self.cols + c] => '#',
                            None => '.',
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The start cells of A (seat 0) and B (seat 1).
    pub fn starts(&self) -> [Pos; 2] {
        self.starts
    }

    /// Cell index of a position, or `None` outside the map.
    pub fn index(&self, p: Pos) -> Option<usize> {
        let (rows, cols) = (self.rows as i32, self.cols as i32);
        (p.x >= 0 && p.y >= 0 && p.x < cols && p.y < rows).then(|| (p.y * cols + p.x) as usize)
    }

    /// Whether `p` is on the map.
    pub fn contains(&self, p: Pos) -> bool {
        self.index(p).is_some()
    }

    /// Whether `p` is a wall (outside the map is not a wall: it is outside).
    pub fn is_wall(&self, p: Pos) -> bool {
        self.index(p).is_some_and(|i| self.walls[i])
    }

    /// The walls, row by row from the top.
    pub fn walls(&self) -> &[bool] {
        &self.walls
    }
}

/// A defect in a drawn map.
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
    /// Fewer than 4 or more than 100 rows or columns.
    BadSize {
        /// Rows found.
        rows: usize,
        /// Columns of the first row.
        cols: usize,
    },
    /// A row whose length differs from the first row's.
    Ragged {
        /// Characters on this row.
        width: usize,
        /// Characters on the first row.
        cols: usize,
    },
    /// A character that is not a map glyph.
    UnknownGlyph {
        /// The character.
        glyph: char,
        /// 1-based column.
        column: usize,
    },
    /// `A` or `B` drawn twice.
    TwoStarts {
        /// The letter.
        glyph: char,
    },
    /// `A` or `B` missing.
    NoStart {
        /// The letter.
        glyph: char,
    },
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: ", self.line)?;
        match &self.problem {
            MapProblem::BadSize { rows, cols } => {
                write!(f, "the map is {rows} rows by {cols} columns; 4 to 100 of each are allowed")
            }
            MapProblem::Ragged { width, cols } => write!(f, "{width} characters, but the first row has {cols}"),
            MapProblem::UnknownGlyph { glyph, column } => {
                write!(f, "column {column}: {glyph:?} is not a map glyph (use # . A B)")
            }
            MapProblem::TwoStarts { glyph } => write!(f, "a second start {glyph:?}"),
            MapProblem::NoStart { glyph } => write!(f, "the map has no start {glyph:?}"),
        }
    }
}

impl std::error::Error for MapError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_maps_are_upstreams_shape() {
        for seed in 0..50 {
            let map = DuelMap::generate(13, 14, 20, &mut Rng::new(seed));
            assert_eq!(map.starts(), [Pos::new(1, 11), Pos::new(12, 1)]);
            assert!(map.connected(), "seed {seed}");
            let walls = map.walls().iter().filter(|&&w| w).count();
            // 50 border cells and 20 inner ones, unless a pair found no
            // room in its 1000 tries (never on a 13x14 map).
            assert_eq!(walls, 70, "seed {seed}");
            for r in 0..13 {
                for c in 0..14 {
                    assert_eq!(map.walls()[r * 14 + c], map.walls()[(12 - r) * 14 + (13 - c)], "seed {seed}");
                }
            }
            assert_eq!(DuelMap::parse(&map.to_rows().join("\n")), Ok(map));
        }
    }
}
