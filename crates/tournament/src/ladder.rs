//! The ladder: which waiting bots play each other next, and how a game
//! moves their ratings.
//!
//! Uploaded bots wait in a pool between games. Two of them are paired when
//! their ratings are close enough, and "close enough" widens the longer
//! they wait, so that a bot far from everyone still gets games (KingOfBots
//! pairs two players when their ratings differ by at most 10 points per
//! second that the shorter waiter has waited; we keep that shape with a
//! base width and a growth per second, both settings). The pairing is a
//! pure function of the pool, so it is tested as data and is the same on
//! every node.

use crate::standings::{PairOutcome, Rating};
use skillratings::Outcomes;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin};

/// The rating of a bot that has not played yet.
pub fn first_rating() -> Rating {
    WengLinRating::new().into()
}

/// The ratings of `a` and `b` after a game between them (`outcome` is
/// `a`'s), by Weng-Lin with its default settings, as the tournament's
/// standings use.
pub fn rate(a: Rating, b: Rating, outcome: PairOutcome) -> (Rating, Rating) {
    let w = |r: Rating| WengLinRating {
        rating: r.rating,
        uncertainty: r.uncertainty,
    };
    let outcome = match outcome {
        PairOutcome::Win => Outcomes::WIN,
        PairOutcome::Draw => Outcomes::DRAW,
        PairOutcome::Loss => Outcomes::LOSS,
    };
    let (a, b) = weng_lin(&w(a), &w(b), &outcome, &WengLinConfig::new());
    (a.into(), b.into())
}

/// A bot waiting for a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting {
    /// The player whose program it is.
    pub player_id: String,
    /// Its rating now.
    pub rating: f64,
    /// Seconds it has waited since its last game ended.
    pub waited_s: f64,
}

/// How wide the acceptable rating gap is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    /// The gap accepted at once.
    pub base: f64,
    /// How much the gap widens per second of waiting.
    pub per_second: f64,
}

impl Window {
    /// The gap accepted after `waited_s` seconds.
    pub fn width(&self, waited_s: f64) -> f64 {
        self.base + self.per_second * waited_s.max(0.0)
    }
}

/// Pairs the pool: the longest waiter first takes the closest-rated bot
/// within the window of the shorter wait of the two; ties go to the
/// longer waiter, then to the smaller player id. Returns pairs of indices
/// into `pool`, the longer waiter first; each bot appears at most once.
pub fn pair(pool: &[Waiting], window: Window) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..pool.len()).collect();
    order.sort_by(|&a, &b| {
        pool[b]
            .waited_s
            .total_cmp(&pool[a].waited_s)
            .then_with(|| pool[a].player_id.cmp(&pool[b].player_id))
    });
    let mut taken = vec![false; pool.len()];
    let mut pairs = Vec::new();
    for (pos, &a) in order.iter().enumerate() {
        if taken[a] {
            continue;
        }
        let mut best: Option<(f64, usize)> = None;
        // Later in `order` means a shorter (or equal) wait, so the window
        // of the pair is that candidate's.
        for &b in &order[pos + 1..] {
            if taken[b] || pool[b].player_id == pool[a].player_id {
                continue;
            }
            let gap = (pool[a].rating - pool[b].rating).abs();
            if gap <= window.width(pool[b].waited_s) && best.is_none_or(|(g, _)| gap < g) {
                best = Some((gap, b));
            }
        }
        if let Some((_, b)) = best {
            taken[a] = true;
            taken[b] = true;
            pairs.push((a, b));
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(rows: &[(&str, f64, f64)]) -> Vec<Waiting> {
        rows.iter()
            .map(|&(id, rating, waited_s)| Waiting {
                player_id: id.into(),
                rating,
                waited_s,
            })
            .collect()
    }

    fn names(pool: &[Waiting], pairs: &[(usize, usize)]) -> Vec<String> {
        pairs
            .iter()
            .map(|&(a, b)| format!("{}-{}", pool[a].player_id, pool[b].player_id))
            .collect()
    }

    const W: Window = Window {
        base: 20.0,
        per_second: 10.0,
    };

    #[test]
    fn close_ratings_pair_at_once() {
        let p = pool(&[("a", 1500.0, 0.0), ("b", 1510.0, 0.0), ("c", 1900.0, 0.0)]);
        assert_eq!(names(&p, &pair(&p, W)), ["a-b"]);
    }

    #[test]
    fn the_window_widens_with_the_shorter_wait() {
        // 100 apart: needs (100 - 20) / 10 = 8 s from both.
        let p = pool(&[("a", 1500.0, 30.0), ("b", 1600.0, 7.0)]);
        assert!(pair(&p, W).is_empty());
        let p = pool(&[("a", 1500.0, 30.0), ("b", 1600.0, 8.0)]);
        assert_eq!(names(&p, &pair(&p, W)), ["a-b"]);
    }

    #[test]
    fn the_longest_waiter_chooses_the_closest() {
        let p = pool(&[
            ("a", 1500.0, 1.0),
            ("b", 1540.0, 9.0),
            ("c", 1550.0, 2.0),
            ("d", 1700.0, 0.0),
        ]);
        // b (longest) takes c (10 apart, within 20 + 20); a and d are
        // 200 apart with d fresh: no pair.
        assert_eq!(names(&p, &pair(&p, W)), ["b-c"]);
    }

    #[test]
    fn everyone_pairs_once_and_ties_are_stable() {
        let p = pool(&[
            ("d", 1500.0, 5.0),
            ("c", 1500.0, 5.0),
            ("b", 1500.0, 5.0),
            ("a", 1500.0, 5.0),
            ("e", 1500.0, 1.0),
        ]);
        let pairs = pair(&p, W);
        assert_eq!(names(&p, &pairs), ["a-b", "c-d"]);
        assert_eq!(pair(&p, W), pairs, "the same pool pairs the same way");
    }

    #[test]
    fn a_win_moves_ratings_apart_and_narrows_them() {
        let (a, b) = rate(first_rating(), first_rating(), PairOutcome::Win);
        assert!(a.rating > first_rating().rating && b.rating < first_rating().rating);
        assert!(a.uncertainty < first_rating().uncertainty);
        let (c, d) = rate(a, b, PairOutcome::Draw);
        assert!(
            c.rating < a.rating && d.rating > b.rating,
            "a draw pulls the two together"
        );
    }

    #[test]
    fn a_bot_never_plays_itself() {
        let p = pool(&[("a", 1500.0, 5.0), ("a", 1500.0, 5.0)]);
        assert!(pair(&p, W).is_empty());
    }
}
