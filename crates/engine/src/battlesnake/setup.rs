//! The opening board of the standard map: where snakes start and where the
//! first food lies.
//!
//! The official placement is written in the API's coordinates, with `y`
//! pointing up, and some of it is not symmetric under a vertical flip (the
//! parity of "even" cells, the middle of an even side). So these functions
//! work in that space, on [`Up`] points, and the caller flips the result
//! into the engine's `y`-down cells. Every random choice comes from the
//! game's own generator, in a fixed order, so a seed fixes the opening.

use super::state::NewGameError;
use crate::geom::Pos;
use crate::rng::Rng;

/// Every snake starts as this many segments stacked on one cell.
pub const START_LENGTH: u32 = 3;
/// The official limit of snakes in one game.
pub const SNAKES_MAX: usize = 16;

/// The side of the official small board; smaller square boards get random
/// placement.
const SMALL_SIDE: i32 = 7;
/// The side of the official medium board; the distributed placement for
/// more than eight snakes needs at least this.
const MEDIUM_SIDE: i32 = 11;

/// A point in the API's coordinates: `x` to the right, `y` up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Up {
    pub(super) x: i32,
    pub(super) y: i32,
}

impl Up {
    const fn new(x: i32, y: i32) -> Up {
        Up { x, y }
    }

    /// The engine cell of this point on a board `height` cells high.
    pub(super) fn to_pos(self, height: i32) -> Pos {
        Pos::new(self.x, height - 1 - self.y)
    }
}

/// The board being set up, in API space.
pub(super) struct Opening {
    pub(super) width: i32,
    pub(super) height: i32,
    /// One head per snake, in seat order; each snake is stacked there.
    pub(super) heads: Vec<Up>,
    pub(super) food: Vec<Up>,
}

impl Opening {
    /// Places `snakes` snakes and, if `with_food`, the opening food, as the
    /// official standard map does.
    pub(super) fn standard(width: i32, height: i32, snakes: usize, with_food: bool, rng: &mut Rng) -> Result<Opening, NewGameError> {
        if snakes == 0 {
            return Err(NewGameError::NoSnakes);
        }
        if snakes > SNAKES_MAX {
            return Err(NewGameError::TooManySnakes { snakes, max: SNAKES_MAX });
        }
        let mut o = Opening { width, height, heads: Vec::with_capacity(snakes), food: Vec::new() };
        o.place_snakes(snakes, rng)?;
        if with_food {
            o.place_food(rng)?;
        }
        Ok(o)
    }

    fn center(&self) -> Up {
        Up::new((self.width - 1) / 2, (self.height - 1) / 2)
    }

    fn place_snakes(&mut self, n: usize, rng: &mut Rng) -> Result<(), NewGameError> {
        let side = self.width;
        if self.width == self.height {
            if n > 8 && side < SMALL_SIDE {
                return Err(NewGameError::TooManySnakes { snakes: n, max: 8 });
            }
            if n <= 8 && side >= SMALL_SIDE {
                self.place_fixed(n, rng);
                return Ok(());
            }
            if side >= MEDIUM_SIDE {
                self.place_distributed(n, rng);
                return Ok(());
            }
        }
        self.place_randomly(n, rng)
    }

    /// Up to eight snakes on a square board of side 7 or more: the four
    /// corners one cell in from the edge and the four middles of the sides,
    /// each group shuffled, and a coin for which group comes first.
    fn place_fixed(&mut self, n: usize, rng: &mut Rng) {
        let (mn, md, mx) = (1, (self.width - 1) / 2, self.width - 2);
        let mut corners = [Up::new(mn, mn), Up::new(mn, mx), Up::new(mx, mn), Up::new(mx, mx)];
        let mut cardinals = [Up::new(mn, md), Up::new(md, mn), Up::new(md, mx), Up::new(mx, md)];
        shuffle(&mut corners, rng);
        shuffle(&mut cardinals, rng);
        let order: [Up; 8] = if rng.below(2) == 0 {
            [corners[0], corners[1], corners[2], corners[3], cardinals[0], cardinals[1], cardinals[2], cardinals[3]]
        } else {
            [cardinals[0], cardinals[1], cardinals[2], cardinals[3], corners[0], corners[1], corners[2], corners[3]]
        };
        self.heads.extend_from_slice(&order[..n]);
    }

    /// Up to sixteen snakes on a square board of side 11 or more: four
    /// points per quadrant, mirrored, with the snakes dealt to the quadrants
    /// in turn from a random one.
    fn place_distributed(&mut self, n: usize, rng: &mut Rng) {
        let (w, h) = (self.width, self.height);
        let (quad_w, quad_h) = (w / 2, h / 2);
        let (dx, dy) = (quad_w / 3, quad_h / 3);
        let first = [Up::new(dx, dy), Up::new(quad_w - dx, dy), Up::new(dx, quad_h - dy), Up::new(quad_w - dx, quad_h - dy)];
        let mut quads: [Vec<Up>; 4] = [
            first.to_vec(),
            first.iter().map(|p| Up::new(w - p.x - 1, p.y)).collect(),
            first.iter().map(|p| Up::new(p.x, h - p.y - 1)).collect(),
            first.iter().map(|p| Up::new(w - p.x - 1, h - p.y - 1)).collect(),
        ];
        let mut quad = rng.index(4);
        for _ in 0..n {
            let bucket = &mut quads[quad];
            let p = bucket.swap_remove(rng.index(bucket.len()));
            self.heads.push(p);
            quad = (quad + 1) % 4;
        }
    }

    /// Any other board: a random free cell with even `x + y`, never the
    /// center, for each snake in turn.
    fn place_randomly(&mut self, n: usize, rng: &mut Rng) -> Result<(), NewGameError> {
        let center = self.center();
        for _ in 0..n {
            let free: Vec<Up> = self
                .cells()
                .filter(|p| (p.x + p.y) % 2 == 0 && *p != center && !self.heads.contains(p))
                .collect();
            if free.is_empty() {
                return Err(NewGameError::NoRoomForSnake);
            }
            self.heads.push(free[rng.index(free.len())]);
        }
        Ok(())
    }

    /// Cells column by column, as the official scan visits them (the order
    /// decides which cell a random index picks).
    fn cells(&self) -> impl Iterator<Item = Up> + use<> {
        let (w, h) = (self.width, self.height);
        (0..w).flat_map(move |x| (0..h).map(move |y| Up::new(x, y)))
    }

    fn place_food(&mut self, rng: &mut Rng) -> Result<(), NewGameError> {
        if self.width == self.height && self.width >= SMALL_SIDE {
            self.place_food_fixed(rng)
        } else {
            self.place_food_randomly(self.heads.len(), rng);
            Ok(())
        }
    }

    /// One food two moves from each snake, on a diagonal, away from the
    /// center and never in a corner (skipped with more than four snakes on
    /// a board smaller than 11x11), then one in the center.
    fn place_food_fixed(&mut self, rng: &mut Rng) -> Result<(), NewGameError> {
        let c = self.center();
        let small = self.width * self.height < MEDIUM_SIDE * MEDIUM_SIDE;
        if self.heads.len() <= 4 || !small {
            for i in 0..self.heads.len() {
                let h = self.heads[i];
                let options: Vec<Up> = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
                    .into_iter()
                    .map(|(dx, dy)| Up::new(h.x + dx, h.y + dy))
                    .filter(|p| {
                        let away = (p.x < h.x && h.x < c.x)
                            || (c.x < h.x && h.x < p.x)
                            || (p.y < h.y && h.y < c.y)
                            || (c.y < h.y && h.y < p.y);
                        let corner = (p.x == 0 || p.x == self.width - 1) && (p.y == 0 || p.y == self.height - 1);
                        *p != c && !self.food.contains(p) && away && !corner
                    })
                    .collect();
                if options.is_empty() {
                    return Err(NewGameError::NoRoomForFood);
                }
                self.food.push(options[rng.index(options.len())]);
            }
        }
        if self.food.contains(&c) || self.heads.contains(&c) {
            return Err(NewGameError::NoRoomForFood);
        }
        self.food.push(c);
        Ok(())
    }

    /// `n` food on random free cells that no head can reach next turn.
    fn place_food_randomly(&mut self, n: usize, rng: &mut Rng) {
        for _ in 0..n {
            let near_head = |p: &Up| self.heads.iter().any(|h| (h.x - p.x).abs() + (h.y - p.y).abs() <= 1);
            let free: Vec<Up> = self.cells().filter(|p| !near_head(p) && !self.food.contains(p)).collect();
            if free.is_empty() {
                return;
            }
            self.food.push(free[rng.index(free.len())]);
        }
    }
}

/// Fisher-Yates from the back, as Go's `rand.Shuffle` walks.
fn shuffle<T>(items: &mut [T], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        let j = rng.index(i + 1);
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opening(side: i32, snakes: usize, seed: u64) -> Opening {
        Opening::standard(side, side, snakes, true, &mut Rng::new(seed)).unwrap()
    }

    #[test]
    fn fixed_positions_on_official_boards() {
        for (side, spots) in [(7, [1, 3, 5]), (11, [1, 5, 9]), (19, [1, 9, 17])] {
            for seed in 0..20 {
                let o = opening(side, 8, seed);
                let mut heads: Vec<(i32, i32)> = o.heads.iter().map(|p| (p.x, p.y)).collect();
                heads.sort_unstable();
                let mut expected: Vec<(i32, i32)> =
                    spots.iter().flat_map(|&x| spots.iter().map(move |&y| (x, y))).filter(|&(x, y)| (x, y) != (spots[1], spots[1])).collect();
                expected.sort_unstable();
                assert_eq!(heads, expected, "side {side} seed {seed}");
            }
        }
    }

    #[test]
    fn food_near_each_snake_and_in_the_center() {
        for side in [7, 11, 19] {
            for seed in 0..50 {
                let o = opening(side, 4, seed);
                assert_eq!(o.food.len(), 5);
                assert_eq!(o.food[4], o.center());
                for (h, f) in o.heads.iter().zip(&o.food) {
                    assert_eq!(((h.x - f.x).abs(), (h.y - f.y).abs()), (1, 1), "side {side} seed {seed}");
                }
            }
        }
        // More than four snakes on a small board: only the center.
        assert_eq!(opening(7, 5, 1).food, vec![Up::new(3, 3)]);
        assert_eq!(opening(11, 8, 1).food.len(), 9);
    }

    #[test]
    fn many_snakes_are_distributed() {
        let o = opening(11, 16, 3);
        let mut heads: Vec<(i32, i32)> = o.heads.iter().map(|p| (p.x, p.y)).collect();
        heads.sort_unstable();
        heads.dedup();
        assert_eq!(heads.len(), 16);
        assert!(Opening::standard(5, 5, 9, true, &mut Rng::new(1)).is_err());
        assert!(Opening::standard(11, 11, 17, true, &mut Rng::new(1)).is_err());
    }

    #[test]
    fn odd_boards_place_randomly_on_even_cells() {
        let o = Opening::standard(9, 5, 3, true, &mut Rng::new(4)).unwrap();
        assert!(o.heads.iter().all(|p| (p.x + p.y) % 2 == 0 && *p != Up::new(4, 2)));
        assert_eq!(o.food.len(), 3);
    }
}
