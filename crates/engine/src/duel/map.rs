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
//!
//! [`DuelMap::parse`] also reads a map in KingOfBots' own glyphs, `0` grass
//! and `1` wall, at KingOfBots' size: 13 rows of 14, or one line of 182
//! characters, the first field of the bot's input token (the text before
//! its first `#`). Such a map has no letters for the starts: they are where
//! KingOfBots puts them, A at (row 11, col 1) and B at (row 1, col 12), and
//! must be grass. A text whose first character is `0` or `1` is read this
//! way.

use crate::geom::{Dir, Pos};
use crate::rng::Rng;
use std::fmt;

/// Tries per wall pair and draws per map, as upstream.
const TRIES: u32 = 1000;

/// The size of a map in `0`/`1`: KingOfBots' 13 rows of 14.
const BITS_ROWS: usize = 13;
const BITS_COLS: usize = 14;

/// Upstream's start cells on a map of this size: A at (row `rows-2`, col 1),
/// B at (row 1, col `cols-2`).
fn default_starts(rows: usize, cols: usize) -> [Pos; 2] {
    [Pos::new(1, rows as i32 - 2), Pos::new(cols as i32 - 2, 1)]
}

/// The map of one game: walls and the two start cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuelMap {
    rows: usize,
    cols: usize,
    walls: Vec<bool>,
    starts: [Pos; 2],
}

impl DuelMap {
    /// The same map with A's and B's starts swapped, for
    /// [`crate::Game::relabel_seats`].
    pub(crate) fn with_starts_swapped(&self) -> DuelMap {
        DuelMap { starts: [self.starts[1], self.starts[0]], ..self.clone() }
    }

    /// Upstream's map generator, drawing from `rng`. Starts are
    /// (row `rows-2`, col 1) for A and (row 1, col `cols-2`) for B.
    pub fn generate(rows: usize, cols: usize, inner_walls: usize, rng: &mut Rng) -> DuelMap {
        assert!(rows >= 4 && cols >= 4, "a map needs an inside");
        let starts = default_starts(rows, cols);
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

    /// Parses a drawn map, or a map in KingOfBots' `0`/`1` (see the module
    /// documentation). Trailing empty lines are ignored; `\r\n` is
    /// accepted.
    pub fn parse(text: &str) -> Result<DuelMap, MapError> {
        let err = |line: usize, problem| Err(MapError { line, problem });
        let lines: Vec<&str> = text.lines().map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
        let end = lines.iter().rposition(|l| !l.is_empty()).map_or(0, |i| i + 1);
        let lines = &lines[..end];
        if lines.first().is_some_and(|l| l.starts_with(['0', '1'])) {
            return DuelMap::parse_bits(lines);
        }
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

    /// A map in `0`/`1`: 13 lines of 14, or the 182 characters on one line.
    fn parse_bits(lines: &[&str]) -> Result<DuelMap, MapError> {
        let err = |line: usize, problem| Err(MapError { line, problem });
        let (rows, cols) = (BITS_ROWS, BITS_COLS);
        // Each row: its 1-based line, the column of its first character on
        // that line, and its characters.
        let grid: Vec<(usize, usize, Vec<char>)> = if let [one] = lines {
            let chars: Vec<char> = one.chars().collect();
            if chars.len() != rows * cols {
                let token = one.split_once('#').is_some_and(|(field, _)| field.chars().count() == rows * cols);
                return err(1, MapProblem::BitsLength { len: chars.len(), token });
            }
            chars.chunks(cols).enumerate().map(|(r, row)| (1, r * cols + 1, row.to_vec())).collect()
        } else {
            let width = lines[0].chars().count();
            if lines.len() != rows || width != cols {
                return err(1, MapProblem::BitsSize { rows: lines.len(), cols: width });
            }
            lines.iter().enumerate().map(|(r, l)| (r + 1, 1, l.chars().collect())).collect()
        };
        let mut walls = Vec::with_capacity(rows * cols);
        for (line, first, row) in &grid {
            if row.len() != cols {
                return err(*line, MapProblem::Ragged { width: row.len(), cols });
            }
            for (c, &ch) in row.iter().enumerate() {
                match ch {
                    '0' | '1' => walls.push(ch == '1'),
                    glyph => return err(*line, MapProblem::BitsGlyph { glyph, column: first + c }),
                }
            }
        }
        let starts = default_starts(rows, cols);
        for (glyph, p) in ['A', 'B'].into_iter().zip(starts) {
            let (row, col) = (p.y as usize, p.x as usize);
            if walls[row * cols + col] {
                let line = if lines.len() == 1 { 1 } else { row + 1 };
                return err(line, MapProblem::WallOnStart { glyph, row, col });
            }
        }
        Ok(DuelMap { rows, cols, walls, starts })
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
    /// A map in `0`/`1` on one line that is not 182 characters long.
    BitsLength {
        /// Characters on the line.
        len: usize,
        /// The line is a whole bot input token: 182 characters, then `#`.
        token: bool,
    },
    /// A map in `0`/`1` on several lines that is not 13 rows of 14.
    BitsSize {
        /// Lines found.
        rows: usize,
        /// Characters on the first line.
        cols: usize,
    },
    /// A character other than `0` and `1` in a map in `0`/`1`.
    BitsGlyph {
        /// The character.
        glyph: char,
        /// 1-based column on its line.
        column: usize,
    },
    /// A wall (`1`) on a start cell of a map in `0`/`1`.
    WallOnStart {
        /// The start's letter.
        glyph: char,
        /// Its row, counted from 0 as in KingOfBots' description.
        row: usize,
        /// Its column, counted from 0.
        col: usize,
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
                write!(f, "column {column}: {glyph:?} is not a map glyph (use # . A B, or only 0 and 1)")
            }
            MapProblem::TwoStarts { glyph } => write!(f, "a second start {glyph:?}"),
            MapProblem::NoStart { glyph } => write!(f, "the map has no start {glyph:?}"),
            MapProblem::BitsLength { len, token } => {
                write!(f, "a map in 0 and 1 on one line has 182 characters (13 rows of 14), not {len}")?;
                if *token {
                    write!(
                        f,
                        "; this is a whole bot input token: give only its first field, the text before the first '#'"
                    )?;
                }
                Ok(())
            }
            MapProblem::BitsSize { rows, cols } => write!(
                f,
                "a map in 0 and 1 is 13 rows of 14 characters (or one line of 182), not {rows} rows with {cols} on the first"
            ),
            MapProblem::BitsGlyph { glyph, column } => {
                write!(f, "column {column}: {glyph:?} is neither 0 (grass) nor 1 (wall)")
            }
            MapProblem::WallOnStart { glyph, row, col } => write!(
                f,
                "start {glyph} is at row {row}, col {col} (counted from 0, as in KingOfBots' description), and that cell is a wall: it must be 0"
            ),
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

    /// The map field of upstream's sample input (`backendcloud/input.txt`,
    /// the golden token of `protocol/tests/stdio_duel.rs`).
    const GOLDEN_FIELD: &str = "11111111111111110000011001011000000000000110000000010101100011000010011010000000000110000000000001100000000001011001000011000110101000000001100000000000011010011000001111111111111111";

    /// KingOfBots' 0/1 as 13 rows of 14.
    fn bits_rows(field: &str) -> Vec<String> {
        field.as_bytes().chunks(14).map(|r| String::from_utf8(r.to_vec()).unwrap()).collect()
    }

    /// A map's walls in KingOfBots' 0/1, as the token's first field.
    fn token_field(map: &DuelMap) -> String {
        map.walls().iter().map(|&w| if w { '1' } else { '0' }).collect()
    }

    #[test]
    fn seed_glyphs_read_as_the_token_field_or_as_rows() {
        // The same map drawn in # . A B, starts where KingOfBots puts them.
        let mut drawn: Vec<Vec<char>> = bits_rows(GOLDEN_FIELD)
            .iter()
            .map(|r| r.chars().map(|c| if c == '1' { '#' } else { '.' }).collect())
            .collect();
        drawn[11][1] = 'A';
        drawn[1][12] = 'B';
        let drawn: Vec<String> = drawn.into_iter().map(|r| r.into_iter().collect()).collect();
        let expected = DuelMap::parse(&drawn.join("\n")).unwrap();

        let one_line = DuelMap::parse(GOLDEN_FIELD).unwrap();
        assert_eq!(one_line, expected);
        assert_eq!((one_line.rows(), one_line.cols()), (13, 14));
        assert_eq!(one_line.starts(), [Pos::new(1, 11), Pos::new(12, 1)]);
        assert_eq!(one_line.walls().iter().filter(|&&w| w).count(), 70);
        assert_eq!(one_line.to_rows(), drawn, "written back in # . A B");
        assert_eq!(DuelMap::parse(&format!("{GOLDEN_FIELD}\n")), Ok(expected.clone()));
        assert_eq!(DuelMap::parse(&format!("{GOLDEN_FIELD}\r\n\n")), Ok(expected.clone()));

        let rows = bits_rows(GOLDEN_FIELD);
        assert_eq!(DuelMap::parse(&rows.join("\n")), Ok(expected.clone()));
        assert_eq!(DuelMap::parse(&(rows.join("\r\n") + "\r\n")), Ok(expected));
    }

    /// A generated map, written as the 182-character field of the bot's
    /// input token (or as 13 rows of it), parses back to the same map.
    #[test]
    fn generated_maps_round_trip_through_the_token_field() {
        for seed in 0..100 {
            let map = DuelMap::generate(13, 14, 20 + (seed as usize % 3) * 20, &mut Rng::new(seed));
            let field = token_field(&map);
            assert_eq!(field.len(), 182);
            assert_eq!(DuelMap::parse(&field).as_ref(), Ok(&map), "seed {seed}: {field}");
            assert_eq!(DuelMap::parse(&bits_rows(&field).join("\n")).as_ref(), Ok(&map), "seed {seed}");
            let back = DuelMap::parse(&map.to_rows().join("\n")).unwrap();
            assert_eq!(token_field(&back), field, "seed {seed}");
        }
        // Any walls at all, as long as the starts are grass.
        let mut rng = Rng::new(3);
        for _ in 0..200 {
            let mut bits: Vec<u8> = (0..182).map(|_| if rng.below(2) == 0 { b'0' } else { b'1' }).collect();
            bits[11 * 14 + 1] = b'0';
            bits[14 + 12] = b'0';
            let field = String::from_utf8(bits).unwrap();
            let map = DuelMap::parse(&field).unwrap();
            assert_eq!(token_field(&map), field);
            assert_eq!(DuelMap::parse(&map.to_rows().join("\n")), Ok(map));
        }
    }

    #[test]
    fn seed_glyphs_refuse_what_is_not_the_seeds_form() {
        let field = GOLDEN_FIELD.to_string();
        let rows = bits_rows(&field);
        let with_row = |r: usize, row: &str| {
            let mut rows = rows.clone();
            rows[r] = row.to_string();
            rows.join("\n")
        };
        let set = |i: usize, c: char| {
            let mut f: Vec<char> = field.chars().collect();
            f[i] = c;
            f.into_iter().collect::<String>()
        };
        let token = format!("{field}#11#1#(000000000101111211)#1#12#(222223333333322111)");
        for (text, message) in [
            (
                field[..181].to_string(),
                "line 1: a map in 0 and 1 on one line has 182 characters (13 rows of 14), not 181",
            ),
            (format!("{field}0"), "line 1: a map in 0 and 1 on one line has 182 characters (13 rows of 14), not 183"),
            (
                token,
                "line 1: a map in 0 and 1 on one line has 182 characters (13 rows of 14), not 234; this is a whole bot \
                 input token: give only its first field, the text before the first '#'",
            ),
            (
                rows[..12].join("\n"),
                "line 1: a map in 0 and 1 is 13 rows of 14 characters (or one line of 182), not 12 rows with 14 on the first",
            ),
            (
                format!("{}\n{}", rows.join("\n"), rows[0]),
                "line 1: a map in 0 and 1 is 13 rows of 14 characters (or one line of 182), not 14 rows with 14 on the first",
            ),
            (
                rows.iter().map(|r| format!("{r}1")).collect::<Vec<_>>().join("\n"),
                "line 1: a map in 0 and 1 is 13 rows of 14 characters (or one line of 182), not 13 rows with 15 on the first",
            ),
            (with_row(4, "1000000000000"), "line 5: 13 characters, but the first row has 14"),
            (with_row(4, "10000000A00001"), "line 5: column 9: 'A' is neither 0 (grass) nor 1 (wall)"),
            (with_row(12, "1111111111111 "), "line 13: column 14: ' ' is neither 0 (grass) nor 1 (wall)"),
            (set(100, '#'), "line 1: column 101: '#' is neither 0 (grass) nor 1 (wall)"),
            (set(181, '2'), "line 1: column 182: '2' is neither 0 (grass) nor 1 (wall)"),
            (
                set(11 * 14 + 1, '1'),
                "line 1: start A is at row 11, col 1 (counted from 0, as in KingOfBots' description), and that cell is a wall: it must be 0",
            ),
            (
                set(14 + 12, '1'),
                "line 1: start B is at row 1, col 12 (counted from 0, as in KingOfBots' description), and that cell is a wall: it must be 0",
            ),
            (
                with_row(11, "11000000000001"),
                "line 12: start A is at row 11, col 1 (counted from 0, as in KingOfBots' description), and that cell is a wall: it must be 0",
            ),
            (
                with_row(1, "10000000000011"),
                "line 2: start B is at row 1, col 12 (counted from 0, as in KingOfBots' description), and that cell is a wall: it must be 0",
            ),
            (
                "#####\n#A.0#\n#..B#\n#####".to_string(),
                "line 2: column 4: '0' is not a map glyph (use # . A B, or only 0 and 1)",
            ),
        ] {
            let got = DuelMap::parse(&text).map(|_| ()).map_err(|e| e.to_string());
            assert_eq!(got, Err(message.to_string()), "{text:?}");
        }
    }
}
