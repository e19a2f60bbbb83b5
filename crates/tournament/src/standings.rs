//! What the results of a tournament add up to, computed in game order.
//!
//! **Multi-player games.** A game's result is a place per seat (1 plus the
//! number of seats that did strictly better). For the win, draw and loss
//! counts and the win matrix, a game of more than two seats counts as
//! every pair of seats taken by different bots: the better place wins the
//! pair, an equal place draws it. So in a five-snake game the bot that
//! placed first wins four pairs; two seats of the same bot are never a
//! pair. For a two-seat game this is simply the game's result. Each bot's
//! wins + draws + losses is therefore the number of pairs it was in
//! (`pairs`), which equals its number of games when games have two seats.
//!
//! **Ratings.** Weng-Lin (the `skillratings` crate's implementation of the
//! Bayesian rating of Weng and Lin, 2011), starting at 25 with an
//! uncertainty of 25/3, updated after every game in game order, so they do
//! not depend on the order in which games finished. Every bot of a game
//! takes part once, ranked by its best seat's place (a free-for-all
//! between teams of one). The interval shown is rating ± 2 uncertainty.
//!
//! **Faults.** A result names the first fault of each seat that had one
//! (a move that did not count, a snake that could not join); the
//! standings count the games in which each bot had one and keep the first
//! [`FAULTS_KEPT`] in game order for the report. A fault changes no
//! count or rating by itself: the game's rules already made the seat pay
//! for it, and its place says how much.

use serde::{Deserialize, Serialize};
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

/// One finished game, as the results file holds it (one JSON object per
/// line, keys in this order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    /// The game's index in the tournament.
    pub game: u64,
    /// The game's seed.
    pub seed: u64,
    /// The bot (index into the tournament's bots) in each seat.
    pub seats: Vec<usize>,
    /// Each seat's place: 1 plus the number of seats that did strictly
    /// better.
    pub places: Vec<usize>,
    /// Each seat's score.
    pub scores: Vec<i64>,
    /// Ticks played.
    pub ticks: u64,
    /// Ticks in which each seat forfeited or gave no usable move.
    #[serde(default)]
    pub forfeits: Vec<u32>,
    /// The first fault of each seat that had one, by seat; absent from the
    /// line when no seat had one, so results of games without faults read
    /// as before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<SeatFault>,
}

/// The first fault of one seat in one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatFault {
    /// The seat.
    pub seat: usize,
    /// The tick it belongs to (1 for a snake that could not join).
    pub tick: u64,
    /// What went wrong, as the game's stderr log says it.
    pub reason: String,
}

/// Games the standings keep per ordered pair of bots (the first in game
/// order), for the report's links from the win matrix.
pub const CELL_GAMES_KEPT: usize = 10;

/// Games the standings keep for the report's list of games, the first in
/// game order; `results.jsonl` has them all.
pub const GAMES_KEPT: usize = 50;

/// A game as the report lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameNote {
    /// The game's index.
    pub game: u64,
    /// The bot in each seat.
    pub seats: Vec<usize>,
    /// Each seat's place.
    pub places: Vec<usize>,
    /// Ticks played.
    pub ticks: u64,
}

/// Most points of the rating history kept, whatever the number of games.
pub const HISTORY_KEPT: usize = 512;

/// Faults the standings keep for the report, the first in game order; the
/// results file has every game's.
pub const FAULTS_KEPT: usize = 100;

/// A fault kept for the report: the game, the bot, and the fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultNote {
    /// The game's index.
    pub game: u64,
    /// The bot in the seat.
    pub bot: usize,
    /// The seat's first fault of that game.
    pub fault: SeatFault,
}

/// The result of one pair of seats, from the first bot's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairOutcome {
    /// The first bot placed better.
    Win,
    /// Both placed equally.
    Draw,
    /// The second bot placed better.
    Loss,
}

impl PairOutcome {
    /// The first bot's points: 2 for a win, 1 for a draw, 0 for a loss.
    pub fn points_first(self) -> u64 {
        match self {
            PairOutcome::Win => 2,
            PairOutcome::Draw => 1,
            PairOutcome::Loss => 0,
        }
    }
}

impl GameResult {
    /// Every pair of seats taken by different bots, in seat order, as
    /// `(first bot, second bot, outcome)`.
    pub fn pairs(&self) -> Vec<(usize, usize, PairOutcome)> {
        let mut out = Vec::new();
        for i in 0..self.seats.len() {
            for j in i + 1..self.seats.len() {
                if self.seats[i] == self.seats[j] {
                    continue;
                }
                let (pi, pj) = (self.places.get(i).copied().unwrap_or(usize::MAX), self.places.get(j).copied().unwrap_or(usize::MAX));
                let outcome = match pi.cmp(&pj) {
                    std::cmp::Ordering::Less => PairOutcome::Win,
                    std::cmp::Ordering::Equal => PairOutcome::Draw,
                    std::cmp::Ordering::Greater => PairOutcome::Loss,
                };
                out.push((self.seats[i], self.seats[j], outcome));
            }
        }
        out
    }
}

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Pairs won.
    pub wins: u64,
    /// Pairs drawn.
    pub draws: u64,
    /// Pairs lost.
    pub losses: u64,
}

impl Record {
    /// Pairs in all.
    pub fn pairs(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points per pair, a draw counting half: `None` with no pairs.
    pub fn win_rate(&self) -> Option<f64> {
        let n = self.pairs();
        (n > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / n as f64)
    }

    fn add(&mut self, outcome: PairOutcome) {
        match outcome {
            PairOutcome::Win => self.wins += 1,
            PairOutcome::Draw => self.draws += 1,
            PairOutcome::Loss => self.losses += 1,
        }
    }
}

/// A rating and its uncertainty.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The estimate (Weng-Lin's mu).
    pub rating: f64,
    /// Its standard deviation (sigma).
    pub uncertainty: f64,
}

impl Rating {
    /// `rating - 2 uncertainty`.
    pub fn low(&self) -> f64 {
        self.rating - 2.0 * self.uncertainty
    }

    /// `rating + 2 uncertainty`.
    pub fn high(&self) -> f64 {
        self.rating + 2.0 * self.uncertainty
    }
}

impl From<WengLinRating> for Rating {
    fn from(r: WengLinRating) -> Rating {
        Rating { rating: r.rating, uncertainty: r.uncertainty }
    }
}

/// One bot's line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct BotStanding {
    /// Games played.
    pub games: u64,
    /// Wins, draws and losses over pairs of seats.
    pub record: Record,
    /// Sum of the scores of its seats.
    pub score_sum: i64,
    /// Seats played (a bot may take several seats of one game).
    pub seats: u64,
    /// The current rating.
    pub rating: Rating,
    /// Games in which one of its seats had a fault.
    pub fault_games: u64,
    /// The first of its faults, in game order.
    pub first_fault: Option<FaultNote>,
}

impl BotStanding {
    /// Mean score per seat.
    pub fn mean_score(&self) -> f64 {
        if self.seats == 0 { 0.0 } else { self.score_sum as f64 / self.seats as f64 }
    }
}

/// Standings of a tournament, built by adding results in game order.
#[derive(Clone, Debug)]
pub struct Standings {
    names: Vec<String>,
    bots: Vec<BotStanding>,
    /// `matrix[a][b]`: `a`'s record against `b`.
    matrix: Vec<Vec<Record>>,
    ratings: Vec<WengLinRating>,
    /// Every bot's rating after every `stride`-th game added, in order,
    /// with the number of games added: at most [`HISTORY_KEPT`] entries,
    /// so that the standings of a million games take no more memory
    /// than those of a thousand.
    history: Vec<(u64, Vec<Rating>)>,
    stride: u64,
    games: u64,
    /// `cell_games[a][b]`: the first [`CELL_GAMES_KEPT`] games in which
    /// `a` and `b` held a pair of seats.
    cell_games: Vec<Vec<Vec<u64>>>,
    /// The first [`GAMES_KEPT`] games.
    first_games: Vec<GameNote>,
    /// The first [`FAULTS_KEPT`] faults, in game order.
    faults: Vec<FaultNote>,
    /// Faults in all.
    faults_total: u64,
    config: WengLinConfig,
}

impl Standings {
    /// Standings of bots named `names`, before any game.
    pub fn new(names: &[String]) -> Standings {
        let n = names.len();
        let start = WengLinRating::new();
        Standings {
            names: names.to_vec(),
            bots: vec![
                BotStanding {
                    games: 0,
                    record: Record::default(),
                    score_sum: 0,
                    seats: 0,
                    rating: start.into(),
                    fault_games: 0,
                    first_fault: None,
                };
                n
            ],
            matrix: vec![vec![Record::default(); n]; n],
            ratings: vec![start; n],
            history: Vec::new(),
            stride: 1,
            games: 0,
            cell_games: vec![vec![Vec::new(); n]; n],
            first_games: Vec::new(),
            faults: Vec::new(),
            faults_total: 0,
            config: WengLinConfig::new(),
        }
    }

    /// Adds one game; call in game order. Seats naming no known bot are
    /// ignored.
    pub fn add(&mut self, result: &GameResult) {
        let n = self.names.len();
        let mut present: Vec<Option<usize>> = vec![None; n];
        for (seat, &bot) in result.seats.iter().enumerate() {
            if bot >= n {
                continue;
            }
            let place = result.places.get(seat).copied().unwrap_or(usize::MAX);
            present[bot] = Some(present[bot].map_or(place, |p: usize| p.min(place)));
            let b = &mut self.bots[bot];
            b.seats += 1;
            b.score_sum += result.scores.get(seat).copied().unwrap_or(0);
        }
        for (bot, p) in present.iter().enumerate() {
            if p.is_some() {
                self.bots[bot].games += 1;
            }
        }
        let mut faulted = vec![false; n];
        for fault in &result.faults {
            let Some(&bot) = result.seats.get(fault.seat).filter(|&&b| b < n) else { continue };
            let note = FaultNote { game: result.game, bot, fault: fault.clone() };
            if !faulted[bot] {
                faulted[bot] = true;
                self.bots[bot].fault_games += 1;
                self.bots[bot].first_fault.get_or_insert_with(|| note.clone());
            }
            self.faults_total += 1;
            if self.faults.len() < FAULTS_KEPT {
                self.faults.push(note);
            }
        }
        for (a, b, outcome) in result.pairs() {
            if a >= n || b >= n {
                continue;
            }
            self.bots[a].record.add(outcome);
            self.matrix[a][b].add(outcome);
            let mirrored = match outcome {
                PairOutcome::Win => PairOutcome::Loss,
                PairOutcome::Draw => PairOutcome::Draw,
                PairOutcome::Loss => PairOutcome::Win,
            };
            self.bots[b].record.add(mirrored);
            self.matrix[b][a].add(mirrored);
            for (x, y) in [(a, b), (b, a)] {
                let kept = &mut self.cell_games[x][y];
                if kept.len() < CELL_GAMES_KEPT && kept.last() != Some(&result.game) {
                    kept.push(result.game);
                }
            }
        }
        if self.first_games.len() < GAMES_KEPT {
            self.first_games.push(GameNote {
                game: result.game,
                seats: result.seats.clone(),
                places: result.places.clone(),
                ticks: result.ticks,
            });
        }
        let playing: Vec<(usize, usize)> = present.iter().enumerate().filter_map(|(bot, p)| p.map(|p| (bot, p))).collect();
        if playing.len() >= 2 {
            let teams: Vec<[WengLinRating; 1]> = playing.iter().map(|&(bot, _)| [self.ratings[bot]]).collect();
            let input: Vec<(&[WengLinRating], MultiTeamOutcome)> =
                teams.iter().zip(&playing).map(|(team, &(_, place))| (&team[..], MultiTeamOutcome::new(place))).collect();
            let updated = weng_lin_multi_team(&input, &self.config);
            for (&(bot, _), team) in playing.iter().zip(updated) {
                if let Some(r) = team.first() {
                    self.ratings[bot] = *r;
                    self.bots[bot].rating = (*r).into();
                }
            }
        }
        self.games += 1;
        if self.games.is_multiple_of(self.stride) {
            self.history.push((self.games, self.bots.iter().map(|b| b.rating).collect()));
            if self.history.len() > HISTORY_KEPT {
                // Every other entry goes, and later games are sampled half
                // as often: which games are kept depends on their count only.
                self.stride *= 2;
                let stride = self.stride;
                self.history.retain(|(g, _)| g.is_multiple_of(stride));
            }
        }
    }

    /// The bots' names.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Each bot's line, by bot index.
    pub fn bots(&self) -> &[BotStanding] {
        &self.bots
    }

    /// `a`'s record against `b`.
    pub fn against(&self, a: usize, b: usize) -> Record {
        self.matrix[a][b]
    }

    /// Every bot's rating after some of the games added, evenly spaced
    /// (at most [`HISTORY_KEPT`]), each with the number of games added
    /// then; the last game's are [`Standings::bots`]'.
    pub fn history(&self) -> &[(u64, Vec<Rating>)] {
        &self.history
    }

    /// The first [`CELL_GAMES_KEPT`] games in which `a` and `b` held a
    /// pair of seats, in game order.
    pub fn cell_games(&self, a: usize, b: usize) -> &[u64] {
        &self.cell_games[a][b]
    }

    /// The first [`GAMES_KEPT`] games, in game order.
    pub fn first_games(&self) -> &[GameNote] {
        &self.first_games
    }

    /// The first [`FAULTS_KEPT`] faults, in game order.
    pub fn faults(&self) -> &[FaultNote] {
        &self.faults
    }

    /// Faults in all, kept or not.
    pub fn faults_total(&self) -> u64 {
        self.faults_total
    }

    /// Games added.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Bot indices, best first: by rating, then win rate, then index.
    pub fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| {
            let (x, y) = (&self.bots[a], &self.bots[b]);
            y.rating
                .rating
                .total_cmp(&x.rating.rating)
                .then(y.record.win_rate().unwrap_or(0.0).total_cmp(&x.record.win_rate().unwrap_or(0.0)))
                .then(a.cmp(&b))
        });
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(game: u64, seats: &[usize], places: &[usize], scores: &[i64]) -> GameResult {
        GameResult { game, seed: game, seats: seats.to_vec(), places: places.to_vec(), scores: scores.to_vec(), ticks: 10, forfeits: vec![0; seats.len()], faults: Vec::new() }
    }

    #[test]
    fn duel_results_add_up() {
        let mut s = Standings::new(&["a".into(), "b".into()]);
        s.add(&game(0, &[0, 1], &[1, 2], &[5, -2]));
        s.add(&game(1, &[1, 0], &[1, 1], &[1, 1]));
        s.add(&game(2, &[1, 0], &[1, 2], &[5, -2]));
        s.add(&game(3, &[0, 1], &[1, 2], &[5, -2]));
        let a = &s.bots()[0];
        assert_eq!((a.games, a.record), (4, Record { wins: 2, draws: 1, losses: 1 }));
        assert_eq!(a.record.pairs(), a.games);
        assert_eq!(s.against(1, 0), Record { wins: 1, draws: 1, losses: 2 });
        assert_eq!(a.mean_score(), 9.0 / 4.0);
        assert!(a.rating.rating > s.bots()[1].rating.rating);
        assert!(a.rating.uncertainty < 25.0 / 3.0);
        assert_eq!(s.history().len(), 4);
        assert_eq!(s.ranking(), vec![0, 1]);
    }

    #[test]
    fn rating_history_stays_small_and_evenly_spaced() {
        let mut s = Standings::new(&["a".into(), "b".into()]);
        for g in 0..5000 {
            s.add(&game(g, &[0, 1], &[1, 2], &[1, 0]));
        }
        let h = s.history();
        assert!(h.len() <= HISTORY_KEPT && h.len() > HISTORY_KEPT / 2, "{}", h.len());
        let step = h[0].0;
        assert!(h.iter().enumerate().all(|(i, (g, _))| *g == step * (i as u64 + 1)), "evenly spaced");
        assert_eq!(s.games(), 5000);
    }

    #[test]
    fn placements_become_pairs() {
        // Five seats, bot 0 in three of them: its own seats never pair.
        let r = game(0, &[0, 1, 0, 1, 0], &[1, 2, 3, 3, 5], &[0; 5]);
        let pairs = r.pairs();
        assert_eq!(pairs.len(), 6);
        assert_eq!(pairs[0], (0, 1, PairOutcome::Win));
        assert!(pairs.contains(&(0, 1, PairOutcome::Draw)), "{pairs:?}");
        let mut s = Standings::new(&["a".into(), "b".into()]);
        s.add(&r);
        assert_eq!(s.bots()[0].record, Record { wins: 2, draws: 1, losses: 3 });
        assert_eq!(s.bots()[1].record, Record { wins: 3, draws: 1, losses: 2 });
        assert_eq!(s.bots()[0].games, 1);
        // Ranked by its best seat, bot 0 won the rating update.
        assert!(s.bots()[0].rating.rating > s.bots()[1].rating.rating);
    }

    #[test]
    fn ratings_separate_a_better_bot() {
        let mut s = Standings::new(&["strong".into(), "weak".into()]);
        for g in 0..200 {
            let places = if g % 10 == 0 { [2, 1] } else { [1, 2] };
            s.add(&game(g, &[0, 1], &places, &[0, 0]));
        }
        let (a, b) = (s.bots()[0].rating, s.bots()[1].rating);
        assert!(a.low() > b.high(), "{a:?} {b:?}");
    }

    #[test]
    fn results_lines_round_trip() {
        let r = game(3, &[0, 1], &[1, 2], &[5, -2]);
        let line = serde_json::to_string(&r).unwrap();
        assert_eq!(line, r#"{"game":3,"seed":3,"seats":[0,1],"places":[1,2],"scores":[5,-2],"ticks":10,"forfeits":[0,0]}"#);
        assert_eq!(serde_json::from_str::<GameResult>(&line).unwrap(), r);
        assert!(serde_json::from_str::<GameResult>(r#"{"game":1}"#).is_err());
    }

    #[test]
    fn faults_are_in_the_line_only_when_there_are_some() {
        let mut r = game(4, &[1, 0], &[2, 1], &[0, 3]);
        r.faults.push(SeatFault { seat: 0, tick: 1, reason: "could not join: HTTP status 500".into() });
        let line = serde_json::to_string(&r).unwrap();
        assert!(line.ends_with(r#""faults":[{"seat":0,"tick":1,"reason":"could not join: HTTP status 500"}]}"#), "{line}");
        assert_eq!(serde_json::from_str::<GameResult>(&line).unwrap(), r);
    }

    #[test]
    fn faults_are_counted_per_bot_and_game() {
        let mut s = Standings::new(&["a".into(), "b".into()]);
        let clean = game(0, &[0, 1], &[1, 2], &[1, 0]);
        let mut twice = game(1, &[1, 1, 0], &[2, 3, 1], &[0, 0, 1]);
        twice.faults = vec![
            SeatFault { seat: 0, tick: 2, reason: "timeout".into() },
            SeatFault { seat: 1, tick: 5, reason: "bad move".into() },
        ];
        let mut again = game(2, &[0, 1], &[1, 2], &[1, 0]);
        again.faults = vec![SeatFault { seat: 1, tick: 1, reason: "crashed".into() }];
        for r in [&clean, &twice, &again] {
            s.add(r);
        }
        let b = &s.bots()[1];
        assert_eq!(b.fault_games, 2, "two seats of one game count once");
        assert_eq!(b.first_fault.as_ref().map(|f| (f.game, f.fault.reason.as_str())), Some((1, "timeout")));
        assert_eq!((s.bots()[0].fault_games, s.bots()[0].first_fault.as_ref()), (0, None));
        assert_eq!(s.faults().len(), 3);
        assert_eq!(s.faults_total(), 3);
        // A fault changes no count: the places already say it.
        assert_eq!(b.record, Record { wins: 0, draws: 0, losses: 4 });
    }
}
