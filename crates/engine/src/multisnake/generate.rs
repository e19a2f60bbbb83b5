//! A generator of symmetric Multisnake maps.
//!
//! The SOI statement promises tournament maps that are "symmetric (the same
//! for all players)". Here every player's snake, and every wall and sign, is the
//! image of one fundamental pattern under a symmetry group of the board, so
//! each player sees the same map from its own seat:
//!
//! | players | symmetry | board |
//! |---|---|---|
//! | 2 | rotation by 180 degrees | any W x H |
//! | 4 | rotations by 90 degrees | square |
//! | 8 | rotations by 90 degrees and the four mirrors (the square's whole group) | square |
//!
//! No grid rotation has order 8, so eight players use the mirrors too. Every
//! one of these maps is also a symmetry of the wrapping board, so the
//! edges are fair as well.
//!
//! The same [`MapSpec`] and seed always give the same map: the generator
//! draws from its own [`Rng`] seeded with the seed. The result is checked to
//! keep all free tiles connected; an unlucky draw is redrawn.

use super::map::{Grid, Map, SIDE_MAX, SIDE_MIN, Tile};
use crate::geom::{Dir, Pos};
use crate::rng::Rng;
use std::fmt;

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapSpec {
    /// Width, 5 to 150.
    pub width: usize,
    /// Height, 5 to 150; equal to the width for 4 and 8 players.
    pub height: usize,
    /// 2, 4 or 8.
    pub players: usize,
    /// About this share of the tiles, in percent (at most 50), are walls,
    /// laid as short straight pieces.
    pub walls_percent: u32,
    /// Plus signs per player (a sign on a symmetry axis serves several).
    pub plus: u32,
    /// Minus signs per player.
    pub minus: u32,
    /// Length of every snake at the start, 1 to 20, laid straight behind a
    /// free tile it faces.
    pub snake_len: u32,
}

impl Default for MapSpec {
    fn default() -> Self {
        MapSpec { width: 40, height: 40, players: 4, walls_percent: 8, plus: 6, minus: 3, snake_len: 3 }
    }
}

impl MapSpec {
    /// Builds a spec from the defaults and `key=value` overrides (`width`,
    /// `height`, `players`, `walls_percent`, `plus`, `minus`, `snake_len`),
    /// then checks it.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<MapSpec, GenerateError> {
        let mut s = MapSpec::default();
        for (key, value) in pairs {
            let n: u32 = value
                .parse()
                .map_err(|_| GenerateError::BadValue { key: key.to_string(), value: value.to_string() })?;
            match key {
                "width" => s.width = n as usize,
                "height" => s.height = n as usize,
                "players" => s.players = n as usize,
                "walls_percent" => s.walls_percent = n,
                "plus" => s.plus = n,
                "minus" => s.minus = n,
                "snake_len" => s.snake_len = n,
                _ => return Err(GenerateError::UnknownKey(key.to_string())),
            }
        }
        s.check()?;
        Ok(s)
    }

    /// Every field as `key=value`, in a fixed order.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        vec![
            ("width", self.width.to_string()),
            ("height", self.height.to_string()),
            ("players", self.players.to_string()),
            ("walls_percent", self.walls_percent.to_string()),
            ("plus", self.plus.to_string()),
            ("minus", self.minus.to_string()),
            ("snake_len", self.snake_len.to_string()),
        ]
    }

    fn check(&self) -> Result<(), GenerateError> {
        let bad = |what: &'static str| Err(GenerateError::Spec(what));
        if !(SIDE_MIN..=SIDE_MAX).contains(&self.width) || !(SIDE_MIN..=SIDE_MAX).contains(&self.height) {
            return bad("width and height must be 5 to 150");
        }
        if ![2, 4, 8].contains(&self.players) {
            return bad("players must be 2, 4 or 8");
        }
        if self.players > 2 && self.width != self.height {
            return bad("4 and 8 players need a square map (width = height)");
        }
        if self.walls_percent > 50 {
            return bad("walls_percent must be at most 50");
        }
        if !(1..=20).contains(&self.snake_len) {
            return bad("snake_len must be 1 to 20");
        }
        Ok(())
    }
}

/// One symmetry of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sym {
    Id,
    Rot90,
    Rot180,
    Rot270,
    FlipX,
    FlipY,
    Transpose,
    AntiTranspose,
}

impl Sym {
    /// The image of `p`. The quarter turns and diagonal mirrors are only
    /// used on square boards.
    fn apply(self, p: Pos, grid: Grid) -> Pos {
        let (w, h) = (grid.width as i32 - 1, grid.height as i32 - 1);
        let (x, y) = (p.x, p.y);
        let (x, y) = match self {
            Sym::Id => (x, y),
            Sym::Rot90 => (w - y, x),
            Sym::Rot180 => (w - x, h - y),
            Sym::Rot270 => (y, h - x),
            Sym::FlipX => (w - x, y),
            Sym::FlipY => (x, h - y),
            Sym::Transpose => (y, x),
            Sym::AntiTranspose => (w - y, h - x),
        };
        Pos::new(x, y)
    }

    /// The group for a number of players; element `i` maps seat 0's
    /// snake onto seat `i`'s.
    fn group(players: usize) -> &'static [Sym] {
        match players {
            2 => &[Sym::Id, Sym::Rot180],
            4 => &[Sym::Id, Sym::Rot90, Sym::Rot180, Sym::Rot270],
            _ => &[Sym::Id, Sym::Rot90, Sym::Rot180, Sym::Rot270, Sym::FlipX, Sym::FlipY, Sym::Transpose, Sym::AntiTranspose],
        }
    }
}

/// Whole draws before giving up, and tries at placing the snakes per draw.
const DRAWS: u32 = 100;
const SNAKE_TRIES: u32 = 200;

/// Generates a map; the same spec and seed always give the same map.
pub fn generate(spec: &MapSpec, seed: u64) -> Result<Map, GenerateError> {
    spec.check()?;
    let mut rng = Rng::new(seed);
    (0..DRAWS).find_map(|_| draw(spec, &mut rng)).ok_or(GenerateError::NoRoom)
}

/// The distinct images of a tile.
fn orbit(p: Pos, group: &[Sym], grid: Grid) -> Vec<Pos> {
    let mut cells: Vec<Pos> = group.iter().map(|g| g.apply(p, grid)).collect();
    cells.sort();
    cells.dedup();
    cells
}

fn draw(spec: &MapSpec, rng: &mut Rng) -> Option<Map> {
    let grid = Grid { width: spec.width, height: spec.height };
    let group = Sym::group(spec.players);
    let random_cell = |rng: &mut Rng| grid.pos(rng.index(grid.cells()));
    let mut tiles = vec![Tile::Empty; grid.cells()];
    // Snake tiles take nothing else; the tile each head faces takes no wall.
    let mut snake_tile = vec![false; grid.cells()];
    let mut keep_free = vec![false; grid.cells()];

    let body = (0..SNAKE_TRIES).find_map(|_| {
        let head = random_cell(rng);
        let facing = Dir::ALL[rng.index(4)];
        let mut body = vec![head];
        for _ in 1..spec.snake_len {
            body.push(grid.step(body[body.len() - 1], facing.opposite()));
        }
        let mut all: Vec<Pos> = group.iter().flat_map(|g| body.iter().map(|&c| g.apply(c, grid))).collect();
        let fronts: Vec<Pos> = group.iter().map(|g| g.apply(grid.step(head, facing), grid)).collect();
        all.sort();
        let n = all.len();
        all.dedup();
        let fits = all.len() == n && fronts.iter().all(|f| all.binary_search(f).is_err());
        fits.then(|| {
            for &c in &all {
                snake_tile[grid.index(c)] = true;
            }
            for &f in &fronts {
                keep_free[grid.index(f)] = true;
            }
            body
        })
    })?;

    let target = grid.cells() * spec.walls_percent as usize / 100;
    let mut walls = 0;
    for _ in 0..50 * grid.cells() {
        if walls >= target {
            break;
        }
        let start = random_cell(rng);
        let d = Dir::ALL[rng.index(4)];
        let len = 1 + rng.index(4);
        let mut at = start;
        for _ in 0..len {
            let cells = orbit(at, group, grid);
            let i = |c: &Pos| grid.index(*c);
            if cells.iter().any(|c| snake_tile[i(c)] || keep_free[i(c)] || tiles[i(c)] != Tile::Empty) {
                break;
            }
            for c in &cells {
                tiles[i(c)] = Tile::Wall;
            }
            walls += cells.len();
            at = grid.step(at, d);
        }
    }

    for (sign, count) in [(Tile::Plus, spec.plus), (Tile::Minus, spec.minus)] {
        let mut placed = 0;
        for _ in 0..50 * grid.cells() {
            if placed >= count {
                break;
            }
            let cells = orbit(random_cell(rng), group, grid);
            if cells.iter().all(|c| !snake_tile[grid.index(*c)] && tiles[grid.index(*c)] == Tile::Empty) {
                for c in &cells {
                    tiles[grid.index(*c)] = sign;
                }
                placed += 1;
            }
        }
    }

    // Every free tile must be reachable from every other, so no snake
    // starts walled in.
    let open = tiles.iter().filter(|&&t| t != Tile::Wall).count();
    let start = grid.index(body[0]);
    let mut seen = vec![false; grid.cells()];
    seen[start] = true;
    let mut todo = vec![start];
    let mut reached = 1;
    while let Some(i) = todo.pop() {
        for d in Dir::ALL {
            let j = grid.index(grid.step(grid.pos(i), d));
            if !seen[j] && tiles[j] != Tile::Wall {
                seen[j] = true;
                reached += 1;
                todo.push(j);
            }
        }
    }
    if reached != open {
        return None;
    }
    let snakes = group.iter().map(|g| body.iter().map(|&c| g.apply(c, grid)).collect()).collect();
    Some(Map { grid, tiles, snakes })
}

/// A map that could not be generated.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GenerateError {
    /// No such spec field.
    UnknownKey(String),
    /// A field that is not a non-negative integer.
    BadValue {
        /// Field.
        key: String,
        /// The value given.
        value: String,
    },
    /// The spec breaks a constraint; the text says which.
    Spec(&'static str),
    /// No draw fitted the snakes, walls and signs with every free tile
    /// connected; fewer walls or a larger board will do.
    NoRoom,
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::UnknownKey(k) => write!(f, "unknown map generator setting {k:?}"),
            GenerateError::BadValue { key, value } => {
                write!(f, "map generator setting {key}={value:?}: expected a non-negative integer")
            }
            GenerateError::Spec(what) => write!(f, "map generator: {what}"),
            GenerateError::NoRoom => {
                write!(f, "map generator: no draw fitted; use fewer walls, shorter snakes or a larger map")
            }
        }
    }
}

impl std::error::Error for GenerateError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_symmetries_of_the_wrapping_board() {
        // Each one maps neighbours to neighbours, edges included.
        let grid = Grid { width: 7, height: 7 };
        for &g in Sym::group(8) {
            for i in 0..grid.cells() {
                let p = grid.pos(i);
                for d in Dir::ALL {
                    let (a, b) = (g.apply(p, grid), g.apply(grid.step(p, d), grid));
                    assert!(grid.dir_between(a, b).is_some(), "{g:?} breaks {p}-{d:?}");
                }
            }
        }
        let rect = Grid { width: 9, height: 5 };
        for i in 0..rect.cells() {
            let p = rect.pos(i);
            assert!(rect.contains(Sym::Rot180.apply(p, rect)));
        }
    }
}
