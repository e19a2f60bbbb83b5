//! SnakeBattle maps, drawn in the game's own glyphs.
//!
//! A map is a square of text lines: `☼` wall, `#` start floor, ` ` empty,
//! `○` apple, `●` stone, `$` gold, `®` fury pill, `©` flying pill. The legacy
//! `%` (fury pill) and `@` (flying pill) of old Codenjoy maps, the default
//! map's among them, are empty cells to upstream's level reader, while
//! CodeBattle's own sample board shows `%` where a fury pill lies. So the
//! map keeps the cells drawn `%` apart ([`Map::percent_cells`]), and the
//! game's settings say what they hold (`map_percent_is_fury`): a fury pill
//! in the `codebattle` profile, nothing in `codenjoy`. `@` is always empty.
//! Organisers draw their own maps in any editor; a defect is reported
//! with its line and column.

use crate::geom::Pos;
use std::fmt;

/// The static layer of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terrain {
    /// Free to move over.
    Empty,
    /// Kills a head that enters it.
    Wall,
    /// Where snakes appear; kills a head that enters it.
    StartFloor,
}

/// An object lying on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Item {
    /// +1 length.
    Apple,
    /// -3 length without fury; can be dropped again with `ACT`.
    Stone,
    /// Points only.
    Gold,
    /// Fury: bite bodies, eat stones freely.
    FuryPill,
    /// Flying (codenjoy profile): pass over snakes and stones.
    FlyingPill,
}

impl Item {
    /// Every item, in the order counts are kept.
    pub const ALL: [Item; 5] = [Item::Apple, Item::Stone, Item::Gold, Item::FuryPill, Item::FlyingPill];

    /// Index into per-item arrays.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// The map a game starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// Width and height (maps are square: clients take the square root of
    /// the board string's length).
    pub size: usize,
    /// Terrain, row by row from the top.
    pub terrain: Vec<Terrain>,
    /// Items at the start, row by row from the top.
    pub items: Vec<Option<Item>>,
    /// Cells drawn with the legacy `%`, row by row from the top: empty in
    /// `terrain` and `items`; a game places a fury pill on each, or leaves
    /// them empty, as its settings say, and keeps no such cell in its own
    /// copy of the map.
    pub percent_cells: Vec<Pos>,
}

/// The default 30x30 level, with its 15 start floors.
pub const DEFAULT_MAP: &str = include_str!("default_map.txt");

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
        if !(5..=200).contains(&size) {
            return Err(MapError { line: 1, problem: MapProblem::BadSize(size) });
        }
        let mut terrain = Vec::with_capacity(size * size);
        let mut items = Vec::with_capacity(size * size);
        let mut percent_cells = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let width = line.chars().count();
            if width != size {
                return Err(MapError { line: i + 1, problem: MapProblem::NotSquare { width, height: size } });
            }
            for (col, c) in line.chars().enumerate() {
                let (t, item) = match c {
                    ' ' | '@' => (Terrain::Empty, None),
                    '%' => {
                        percent_cells.push(Pos::new(col as i32, i as i32));
                        (Terrain::Empty, None)
                    }
                    '☼' => (Terrain::Wall, None),
                    // A snake appears with its tail one cell left of its
                    // start floor, so that cell must be on the board.
                    '#' if col == 0 => {
                        return Err(MapError { line: i + 1, problem: MapProblem::StartFloorAtEdge });
                    }
                    '#' => (Terrain::StartFloor, None),
                    '○' => (Terrain::Empty, Some(Item::Apple)),
                    '●' => (Terrain::Empty, Some(Item::Stone)),
                    '$' => (Terrain::Empty, Some(Item::Gold)),
                    '®' => (Terrain::Empty, Some(Item::FuryPill)),
                    '©' => (Terrain::Empty, Some(Item::FlyingPill)),
                    other => {
                        return Err(MapError { line: i + 1, problem: MapProblem::UnknownGlyph { glyph: other, column: col + 1 } });
                    }
                };
                terrain.push(t);
                items.push(item);
            }
        }
        if !terrain.contains(&Terrain::StartFloor) {
            return Err(MapError { line: 1, problem: MapProblem::NoStartFloor });
        }
        // A snake appearing on a start floor moves right first; a stone
        // there would hit it before it could turn. The game never drops or
        // spawns one there either (`stone_may_lie_at`).
        for i in 0..terrain.len() {
            let (row, col) = (i / size, i % size);
            if terrain[i] == Terrain::StartFloor && col + 1 < size && items[i + 1] == Some(Item::Stone) {
                return Err(MapError { line: row + 1, problem: MapProblem::StoneRightOfStartFloor { column: col + 2 } });
            }
        }
        Ok(Map { size, terrain, items, percent_cells })
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

    /// Terrain at a position; off the board reads as a wall.
    pub fn terrain_at(&self, p: Pos) -> Terrain {
        self.index(p).map_or(Terrain::Wall, |i| self.terrain[i])
    }

    /// Start floors, row by row from the top.
    pub fn start_floors(&self) -> Vec<Pos> {
        (0..self.terrain.len()).filter(|&i| self.terrain[i] == Terrain::StartFloor).map(|i| self.pos(i)).collect()
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
    /// Fewer than 5 or more than 200 lines.
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
    /// Snakes would have nowhere to appear.
    NoStartFloor,
    /// A start floor in the first column, where the tail of a snake
    /// appearing on it would be off the board.
    StartFloorAtEdge,
    /// A stone right of a start floor, where a snake appearing there moves
    /// first.
    StoneRightOfStartFloor {
        /// 1-based column of the stone.
        column: usize,
    },
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: ", self.line)?;
        match &self.problem {
            MapProblem::Empty => write!(f, "the map is empty"),
            MapProblem::BadSize(n) => write!(f, "the map has {n} lines; 5 to 200 are allowed"),
            MapProblem::NotSquare { width, height } => {
                write!(f, "{width} characters, but the map has {height} lines and must be square")
            }
            MapProblem::UnknownGlyph { glyph, column } => {
                write!(f, "column {column}: {glyph:?} is not a map glyph (use ☼ # space ○ ● $ ® ©)")
            }
            MapProblem::NoStartFloor => write!(f, "the map has no start floor '#'"),
            MapProblem::StartFloorAtEdge => {
                write!(f, "column 1: a start floor '#' needs a cell to its left, where the new snake's tail goes")
            }
            MapProblem::StoneRightOfStartFloor { column } => write!(
                f,
                "column {column}: a stone '●' right of a start floor '#' would hit the snake that appears there on its first move"
            ),
        }
    }
}

impl std::error::Error for MapError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each defect is named with its line and column.
    #[test]
    fn defects_are_named_where_they_are() {
        let check = |rows: [&str; 5], expect: &str| {
            let text = rows.join("\n");
            let got = Map::parse(&text).map(|_| ()).map_err(|e| e.to_string());
            assert_eq!(got, if expect.is_empty() { Ok(()) } else { Err(expect.to_string()) }, "{text}");
        };
        check(["☼☼☼☼☼", "☼#  ☼", "☼ ● ☼", "☼   ☼", "☼☼☼☼☼"], "");
        check(
            ["☼☼☼☼☼", "☼#  ☼", "☼#● ☼", "☼   ☼", "☼☼☼☼☼"],
            "line 3: column 3: a stone '●' right of a start floor '#' would hit the snake that appears there on its first move",
        );
        check(["☼☼☼☼☼", "#   ☼", "☼   ☼", "☼   ☼", "☼☼☼☼☼"], "line 2: column 1: a start floor '#' needs a cell to its left, where the new snake's tail goes");
        check(["☼☼☼☼☼", "☼ x ☼", "☼#  ☼", "☼   ☼", "☼☼☼☼☼"], "line 2: column 3: 'x' is not a map glyph (use ☼ # space ○ ● $ ® ©)");
        check(["☼☼☼☼☼", "☼   ☼", "☼   ☼", "☼   ☼", "☼☼☼☼☼"], "line 1: the map has no start floor '#'");
    }
}
