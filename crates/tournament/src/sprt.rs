//! "Is the new version better?": a sequential probability ratio test
//! (SPRT) between two bots, the way chess engine testers run one.
//!
//! **Model.** Games come in pairs on one seed with the two bots' seats
//! swapped, so that a seed that favours a seat favours both bots once. A
//! game scores 1 for the new bot when it places better than the old one, ½
//! when they place equally, 0 when it places worse (other seats, taken by
//! a baseline, do not count). A pair scores 0, ¼, ½, ¾ or 1 (the mean of
//! its two games), and the counts of those five outcomes are the
//! *pentanomial* results. Pairs are independent where single games of a
//! pair are not (they share a seed), which is why the test counts pairs.
//!
//! **Test.** H0: the new bot is ELO0 better, H1: it is ELO1 better, both
//! in logistic Elo (a score of `s` per game is `-400 log10(1/s - 1)` Elo).
//! The statistic is the generalized log-likelihood ratio of the two
//! hypotheses: for each, the distribution over the five outcomes that is
//! most likely given the counts among those whose mean is the
//! hypothesis's score (Van den Bergh, "Comments on Normalized Elo" and
//! "support_MLE_multinomial", proposition 1.1), solved here by bisection
//! on its one parameter. Counts of zero are taken as 0.001 first, as the
//! reference implementations do. The test stops at the first pair after
//! which the LLR is at least `ln((1 - beta) / alpha)` (H1 accepted) or at
//! most `ln(beta / (1 - alpha))` (H0 accepted).

use crate::standings::GameResult;
use std::fmt;

/// A test that cannot be run as asked.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SprtError {
    /// ELO0 must be below ELO1.
    #[error("ELO0 ({elo0}) must be below ELO1 ({elo1})")]
    Order {
        /// The null hypothesis's Elo.
        elo0: f64,
        /// The alternative's Elo.
        elo1: f64,
    },
    /// Elo beyond what a score can express in floating point.
    #[error("Elo must be between -2000 and 2000, not {0}")]
    Range(f64),
    /// An error rate outside (0, 1), or two that add up to 1 or more.
    #[error("--alpha and --beta must be between 0 and 1 and add up to less than 1 (got {alpha} and {beta})")]
    Rates {
        /// False positive rate.
        alpha: f64,
        /// False negative rate.
        beta: f64,
    },
}

/// The hypotheses and error rates of a test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of the null hypothesis ("not better than this").
    pub elo0: f64,
    /// Elo of the alternative ("at least this much better").
    pub elo1: f64,
    /// Chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What a test concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The new bot is not ELO0 better (or worse).
    H0,
    /// The new bot is at least ELO1 better.
    H1,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::H0 => "H0",
            Verdict::H1 => "H1",
        })
    }
}

impl Sprt {
    /// A test of ELO0 against ELO1 with error rates `alpha` and `beta`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        for elo in [elo0, elo1] {
            if !(-2000.0..=2000.0).contains(&elo) {
                return Err(SprtError::Range(elo));
            }
        }
        if elo0 >= elo1 {
            return Err(SprtError::Order { elo0, elo1 });
        }
        let open = |x: f64| x > 0.0 && x < 1.0;
        if !open(alpha) || !open(beta) || alpha + beta >= 1.0 {
            return Err(SprtError::Rates { alpha, beta });
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// The lower and upper bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of H1 against H0 given these pair counts.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let counts = pairs.counts.map(|c| if c == 0 { 1e-3 } else { c as f64 });
        let total: f64 = counts.iter().sum();
        let p = counts.map(|c| c / total);
        let q0 = most_likely_with_mean(&p, score_of_elo(self.elo0));
        let q1 = most_likely_with_mean(&p, score_of_elo(self.elo1));
        total * (0..5).map(|i| p[i] * (q1[i].ln() - q0[i].ln())).sum::<f64>()
    }

    /// The verdict an LLR reaches, if any.
    pub fn verdict(&self, llr: f64) -> Option<Verdict> {
        let (low, high) = self.bounds();
        if llr >= high {
            Some(Verdict::H1)
        } else if llr <= low {
            Some(Verdict::H0)
        } else {
            None
        }
    }
}

/// The score of each of the five pair outcomes.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The expected score per game of a bot `elo` Elo better (logistic).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo of a score per game: infinite at 0 and 1.
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Of the distributions over [`PAIR_SCORES`] with mean `s`, the most
/// likely one given the observed frequencies `p` (all positive). It is
/// `p_i / (1 + theta (a_i - s))` for the `theta` at which that has mean
/// `s`, that is the root of `sum p_i (a_i - s) / (1 + theta (a_i - s))`:
/// the sum falls from +inf to -inf as theta crosses the interval where
/// every denominator is positive, so bisection finds it.
fn most_likely_with_mean(p: &[f64; 5], s: f64) -> [f64; 5] {
    let d = PAIR_SCORES.map(|a| a - s);
    let f = |theta: f64| (0..5).map(|i| p[i] * d[i] / (1.0 + theta * d[i])).sum::<f64>();
    let (mut low, mut high) = (-1.0 / d[4], -1.0 / d[0]);
    // Enough halvings to reach the doubles' resolution across the interval.
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if mid <= low || mid >= high {
            break;
        }
        if f(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    let theta = 0.5 * (low + high);
    std::array::from_fn(|i| p[i] / (1.0 + theta * d[i]))
}

/// Counts of pairs by the new bot's score in them, and of its single
/// games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs scoring 0, ¼, ½, ¾ and 1: index = the new bot's points in
    /// the pair, a game won 2, drawn 1.
    pub counts: [u64; 5],
    /// Games the new bot won, drew and lost against the old one.
    pub games: [u64; 3],
}

/// One game from the new bot's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameScore {
    /// The new bot placed better.
    Win,
    /// Equal places.
    Draw,
    /// The old bot placed better.
    Loss,
}

impl GameScore {
    /// Bot 0's result against bot 1 in a game, by their best seats'
    /// places; `None` if either has no seat.
    pub fn of(result: &GameResult) -> Option<GameScore> {
        let best = |bot: usize| result.seats.iter().zip(&result.places).filter(|(b, _)| **b == bot).map(|(_, &p)| p).min();
        Some(match best(0)?.cmp(&best(1)?) {
            std::cmp::Ordering::Less => GameScore::Win,
            std::cmp::Ordering::Equal => GameScore::Draw,
            std::cmp::Ordering::Greater => GameScore::Loss,
        })
    }

    fn points(self) -> usize {
        match self {
            GameScore::Win => 2,
            GameScore::Draw => 1,
            GameScore::Loss => 0,
        }
    }
}

/// An Elo estimate with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The most likely Elo difference.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Adding 0 turns a negative zero into a plain one.
        write!(f, "{:+.1} (95%: {:+.1} to {:+.1})", self.elo + 0.0, self.low + 0.0, self.high + 0.0)
    }
}

impl Pentanomial {
    /// Adds a pair of games.
    pub fn add(&mut self, first: GameScore, second: GameScore) {
        self.counts[first.points() + second.points()] += 1;
        for g in [first, second] {
            self.games[2 - g.points()] += 1;
        }
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The Elo difference the pairs suggest: the mean score per game, and
    /// its interval from the spread of the pairs' scores (normal
    /// approximation, 1.96 standard errors); `None` before any pair.
    pub fn elo(&self) -> Option<EloEstimate> {
        let n = self.pairs();
        if n == 0 {
            return None;
        }
        let n = n as f64;
        let mean = (0..5).map(|i| self.counts[i] as f64 * PAIR_SCORES[i]).sum::<f64>() / n;
        let var = (0..5).map(|i| self.counts[i] as f64 * (PAIR_SCORES[i] - mean).powi(2)).sum::<f64>() / n;
        let half = 1.959_964 * (var / n).sqrt();
        Some(EloEstimate { elo: elo_of_score(mean), low: elo_of_score(mean - half), high: elo_of_score(mean + half) })
    }
}

/// A test under way: fed the games in game order, pair by pair, until it
/// reaches its verdict.
#[derive(Clone, Debug)]
pub struct SprtRun {
    /// The test.
    pub test: Sprt,
    /// The pairs counted so far.
    pub pairs: Pentanomial,
    /// The LLR after the last pair counted.
    pub llr: f64,
    /// The verdict, with the number of games that reached it.
    pub verdict: Option<(Verdict, u64)>,
    /// The first game of a pair whose second has not come yet.
    first: Option<GameScore>,
    games: u64,
}

impl SprtRun {
    /// A test before any game.
    pub fn new(test: Sprt) -> SprtRun {
        SprtRun { test, pairs: Pentanomial::default(), llr: 0.0, verdict: None, first: None, games: 0 }
    }

    /// Adds the next game in game order (games 0 and 1 are the first
    /// pair); games after the verdict change nothing. Returns the verdict
    /// when this game reached it.
    pub fn add(&mut self, result: &GameResult) -> Option<Verdict> {
        if self.verdict.is_some() {
            return None;
        }
        self.games += 1;
        // A game without both bots (not one of this test's) scores a draw.
        let score = GameScore::of(result).unwrap_or(GameScore::Draw);
        let Some(first) = self.first.take() else {
            self.first = Some(score);
            return None;
        };
        self.pairs.add(first, score);
        self.llr = self.test.llr(&self.pairs);
        let verdict = self.test.verdict(self.llr)?;
        self.verdict = Some((verdict, self.games));
        Some(verdict)
    }

    /// Games counted, the verdict's included.
    pub fn games(&self) -> u64 {
        self.games
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// LLRs from fishtest's `server/fishtest/stats/LLRcalc.py`
    /// (`LLR_logistic(elo0, elo1, results)`, commit b8eecff2 of
    /// official-stockfish/fishtest, run with SciPy's brentq) on the same
    /// pentanomial counts, ordered LL, LD, DD+WL, WD, WW.
    #[test]
    fn llr_matches_fishtest_on_the_same_counts() {
        let cases: [(f64, f64, [u64; 5], f64); 6] = [
            (0.0, 10.0, [10, 20, 40, 25, 12], 0.274_098_471_297_756_83),
            (0.0, 5.0, [1200, 5400, 9800, 5600, 1300], 2.066_411_533_982_214),
            (-5.0, 0.0, [30, 60, 100, 55, 28], -0.114_834_982_328_365_57),
            (0.0, 10.0, [0, 0, 3, 10, 40], 1.503_503_576_184_214_4),
            (0.0, 10.0, [40, 10, 3, 0, 0], -1.547_406_027_004_938),
            (0.0, 2.0, [0, 0, 0, 0, 0], 0.0),
        ];
        for (elo0, elo1, counts, want) in cases {
            let got = Sprt::new(elo0, elo1, 0.05, 0.05).unwrap().llr(&Pentanomial { counts, games: [0; 3] });
            assert!((got - want).abs() < 1e-6, "{elo0},{elo1} {counts:?}: {got} is not {want}");
        }
    }

    #[test]
    fn a_run_counts_pairs_in_order_and_stops_at_its_verdict() {
        let game = |g: u64, seats: [usize; 3], places: [usize; 3]| GameResult {
            game: g,
            seed: g / 2,
            seats: seats.to_vec(),
            places: places.to_vec(),
            scores: vec![0; 3],
            ticks: 1,
            forfeits: vec![0; 3],
            faults: Vec::new(),
        };
        let mut run = SprtRun::new(Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap());
        let mut verdict = None;
        for g in 0..1000u64 {
            // The new bot wins seated first and draws seated second, behind
            // the baseline.
            let r = if g.is_multiple_of(2) { game(g, [0, 1, 2], [1, 3, 2]) } else { game(g, [1, 0, 2], [2, 2, 1]) };
            if let Some(v) = run.add(&r) {
                verdict = Some((v, g));
            }
        }
        let (v, last) = verdict.expect("a verdict");
        assert_eq!(v, Verdict::H1);
        assert_eq!(run.verdict, Some((Verdict::H1, last + 1)));
        assert_eq!(last % 2, 1, "verdicts come at the end of a pair");
        assert_eq!(run.pairs.counts, [0, 0, 0, run.pairs.pairs(), 0]);
        assert_eq!(run.games(), last + 1);
        assert!(run.llr >= run.test.bounds().1);
    }

    #[test]
    fn bounds_and_verdicts() {
        let t = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let (low, high) = t.bounds();
        assert!((low + 2.944_438_979).abs() < 1e-6 && (high - 2.944_438_979).abs() < 1e-6);
        assert_eq!(t.verdict(3.0), Some(Verdict::H1));
        assert_eq!(t.verdict(-3.0), Some(Verdict::H0));
        assert_eq!(t.verdict(0.0), None);
        assert!(Sprt::new(10.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, 0.6, 0.5).is_err());
        assert!(Sprt::new(f64::NAN, 10.0, 0.05, 0.05).is_err());
    }

    #[test]
    fn pairs_count_by_points_and_elo_has_an_interval() {
        let mut p = Pentanomial::default();
        p.add(GameScore::Win, GameScore::Win);
        p.add(GameScore::Win, GameScore::Loss);
        p.add(GameScore::Draw, GameScore::Win);
        p.add(GameScore::Loss, GameScore::Draw);
        assert_eq!(p.counts, [0, 1, 1, 1, 1]);
        assert_eq!(p.games, [4, 2, 2]);
        let e = p.elo().unwrap();
        // Mean score 5/8.
        assert!((e.elo - elo_of_score(0.625)).abs() < 1e-9 && e.low < e.elo && e.elo < e.high, "{e:?}");
        assert!(Pentanomial::default().elo().is_none());
        assert!((elo_of_score(score_of_elo(37.0)) - 37.0).abs() < 1e-9);
    }
}
