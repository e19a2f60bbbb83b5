//! Who plays whom: the fixtures of a tournament, round by round.
//!
//! A round is a batch of games that may be played at once; the next round
//! is a function of the results of the earlier ones (Swiss pairs by the
//! standings, a knockout advances the winners), so the games of a round can
//! run in parallel while the tournament stays deterministic.
//!
//! - **Round robin** (`--games N` games in all, one round): the groups of
//!   bots that can sit at one game (every pair for a two-seat game, every
//!   set of `seats` bots for a larger one, or all bots when there are no
//!   more bots than seats, the seats then filled in turn) take turns; each
//!   time a group comes back its seating is rotated by one, so every bot
//!   plays every seat equally often.
//! - **Swiss** (two seats, `--games N` in all): rounds of `bots / 2` games;
//!   the bots are ranked by points (a win 2, a draw 1) then by their order
//!   on the command line, and each in turn meets the next-ranked bot it has
//!   met least; with an odd count the last-ranked bot sits the round out.
//! - **Knockout** (two seats, `--games N` per match): a seeded bracket (the
//!   first bot given meets the last; the first two can only meet in the
//!   final), byes up to the next power of two; a match is won on points,
//!   then on total score, then by the better seed.
//! - **SPRT** (`--games N` at most, one round, see [`crate::sprt`]): bot 0
//!   (the new version) and bot 1 (the old one) in pairs of games that share
//!   a seed: seats 0 and 1 in the first game, swapped in the second; the
//!   other seats, if any, go to bot 2 (the baseline).

use crate::standings::GameResult;
use std::fmt;
use std::str::FromStr;

/// How the bots are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every group of bots in turn, for a fixed number of games.
    RoundRobin,
    /// Rounds paired by the standings.
    Swiss,
    /// A single-elimination bracket.
    Knockout,
    /// Pairs of games between two bots on one seed, seats swapped.
    Sprt,
}

impl Format {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Swiss => "swiss",
            Format::Knockout => "knockout",
            Format::Sprt => "sprt",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Format, String> {
        [Format::RoundRobin, Format::Swiss, Format::Knockout]
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| format!("{s:?} is not a format (round-robin, swiss, knockout)"))
    }
}

/// One game to play: its index and which bot sits in each seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixture {
    /// The game's index in the tournament, from 0.
    pub game: u64,
    /// The bot (index into the tournament's bots) in each seat.
    pub seats: Vec<usize>,
}

/// A tournament that cannot be scheduled as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ScheduleError {
    /// Fewer than two bots.
    #[error("a tournament needs at least 2 bots, not {0}")]
    TooFewBots(usize),
    /// Fewer than two seats per game.
    #[error("a game needs at least 2 seats, not {0}")]
    TooFewSeats(usize),
    /// Swiss and knockout pair two bots per game.
    #[error("{format} pairs two bots per game; this game has {seats} seats (use round-robin)")]
    PairsOnly {
        /// The format asked for.
        format: Format,
        /// Seats per game.
        seats: usize,
    },
    /// No games at all.
    #[error("--games must be at least 1")]
    NoGames,
    /// An SPRT is between two bots, plus a baseline for the other seats.
    #[error("an SPRT plays two bots (and a baseline in games of more than 2 seats); got {bots} bots for {seats} seats")]
    SprtSeats {
        /// Bots given, the baseline included.
        bots: usize,
        /// Seats per game.
        seats: usize,
    },
}

/// The plan of a tournament. See the [module documentation](self).
#[derive(Clone, Debug)]
pub struct Schedule {
    format: Format,
    bots: usize,
    seats: usize,
    games: u64,
}

impl Schedule {
    /// A tournament of `bots` bots in games of `seats` seats; `games` is
    /// the number of games in all, or per match for a knockout.
    pub fn new(format: Format, bots: usize, seats: usize, games: u64) -> Result<Schedule, ScheduleError> {
        if bots < 2 {
            return Err(ScheduleError::TooFewBots(bots));
        }
        if seats < 2 {
            return Err(ScheduleError::TooFewSeats(seats));
        }
        if format == Format::Sprt && !(bots == 2 && seats == 2 || bots == 3 && seats > 2) {
            return Err(ScheduleError::SprtSeats { bots, seats });
        }
        if matches!(format, Format::Swiss | Format::Knockout) && seats != 2 {
            return Err(ScheduleError::PairsOnly { format, seats });
        }
        if games == 0 {
            return Err(ScheduleError::NoGames);
        }
        Ok(Schedule { format, bots, seats, games })
    }

    /// The number of games the whole tournament plays.
    pub fn total_games(&self) -> u64 {
        match self.format {
            Format::RoundRobin | Format::Swiss => self.games,
            // Whole pairs only.
            Format::Sprt => self.games.div_ceil(2) * 2,
            // Every match but the final eliminates exactly one bot.
            Format::Knockout => (self.bots as u64 - 1) * self.games,
        }
    }

    /// The next round, given the results of every game of the rounds
    /// before it (in any order); `None` when the tournament is over.
    pub fn next_round(&self, done: &[GameResult]) -> Option<Vec<Fixture>> {
        let mut done: Vec<&GameResult> = done.iter().collect();
        done.sort_by_key(|r| r.game);
        let mut tally = self.tally();
        for r in done {
            self.add(&mut tally, r.clone());
        }
        self.next_round_of(&tally)
    }

    /// A [`Tally`] of no game yet.
    pub fn tally(&self) -> Tally {
        let slots = if self.format == Format::Knockout {
            bracket(self.bots.next_power_of_two()).into_iter().map(|seed| (seed < self.bots).then_some(seed)).collect()
        } else {
            Vec::new()
        };
        Tally {
            settled: 0,
            points: vec![0; self.bots],
            played: vec![0; self.bots],
            met: vec![vec![0; self.bots]; self.bots],
            slots,
            round: Vec::new(),
        }
    }

    /// Adds the next game's result, in game order, to `tally`; a round
    /// that is whole is summed up and its results dropped.
    pub fn add(&self, tally: &mut Tally, r: GameResult) {
        debug_assert_eq!(r.game, tally.settled + tally.round.len() as u64, "results come in game order");
        tally.round.push(r);
        let len = match self.format {
            Format::RoundRobin | Format::Sprt => 1,
            Format::Swiss => ((self.bots / 2) as u64).min(self.total_games().saturating_sub(tally.settled)),
            Format::Knockout => self.knockout_matches(&tally.slots).len() as u64 * self.games,
        };
        if (tally.round.len() as u64) < len {
            return;
        }
        let round = std::mem::take(&mut tally.round);
        tally.settled += round.len() as u64;
        match self.format {
            Format::Knockout => {
                let mut m = 0;
                let slots = std::mem::take(&mut tally.slots);
                for pair in slots.chunks(2) {
                    tally.slots.push(match (pair[0], pair.get(1).copied().flatten()) {
                        (Some(a), Some(b)) => {
                            let games: Vec<&GameResult> = round[m..m + self.games as usize].iter().collect();
                            m += self.games as usize;
                            Some(match_winner(a, b, &games))
                        }
                        (a, b) => a.or(b),
                    });
                }
            }
            Format::RoundRobin | Format::Sprt | Format::Swiss => {
                for r in &round {
                    for (a, b, outcome) in r.pairs() {
                        tally.points[a] += outcome.points_first();
                        tally.points[b] += 2 - outcome.points_first();
                        tally.met[a][b] += 1;
                        tally.met[b][a] += 1;
                    }
                    for &b in &r.seats {
                        tally.played[b] += 1;
                    }
                }
            }
        }
    }

    /// The next round after the rounds `tally` summed up; `None` when the
    /// tournament is over. (A round under way is not summed up yet: this
    /// is that round again.)
    pub fn next_round_of(&self, tally: &Tally) -> Option<Vec<Fixture>> {
        if tally.settled >= self.total_games() {
            return None;
        }
        let round = match self.format {
            Format::RoundRobin | Format::Sprt => (tally.settled..self.total_games()).map(|g| self.fixture(g)).collect(),
            Format::Swiss => self.swiss(tally),
            Format::Knockout => self.knockout(tally),
        };
        Some(round)
    }

    /// Whether the whole tournament is one round whose fixtures depend on
    /// no result, so that [`Schedule::fixture`] gives any game's.
    pub fn is_one_round(&self) -> bool {
        matches!(self.format, Format::RoundRobin | Format::Sprt)
    }

    /// Game `game`'s fixture in a tournament of one round (see
    /// [`Schedule::is_one_round`]); for the others, the round robin's.
    pub fn fixture(&self, game: u64) -> Fixture {
        match self.format {
            Format::Sprt => {
                let mut seats = vec![2; self.seats];
                (seats[0], seats[1]) = if game.is_multiple_of(2) { (0, 1) } else { (1, 0) };
                Fixture { game, seats }
            }
            _ => self.round_robin(game),
        }
    }

    /// Which game's seed game `game` plays: its own, or in an SPRT its
    /// pair's (see [`crate::game_seed`]).
    pub fn seed_index(&self, game: u64) -> u64 {
        if self.format == Format::Sprt { game / 2 } else { game }
    }

    fn round_robin(&self, game: u64) -> Fixture {
        let (b, s) = (self.bots as u64, self.seats);
        let groups = if b >= s as u64 { binomial(b, s as u64) } else { 1 };
        let (group, turn) = (game % groups, game / groups);
        let members: Vec<usize> = if b >= s as u64 { nth_combination(self.bots, s, group) } else { (0..self.bots).collect() };
        let filled: Vec<usize> = (0..s).map(|j| members[j % members.len()]).collect();
        let shift = (turn % s as u64) as usize;
        let seats = (0..s).map(|j| filled[(j + shift) % s]).collect();
        Fixture { game, seats }
    }

    fn swiss(&self, tally: &Tally) -> Vec<Fixture> {
        let per_round = (self.bots / 2) as u64;
        let round = tally.settled / per_round;
        let (points, met, played) = (&tally.points, &tally.met, &tally.played);
        let mut ranked: Vec<usize> = (0..self.bots).collect();
        ranked.sort_by_key(|&b| (std::cmp::Reverse(points[b]), b));
        if ranked.len() % 2 == 1 {
            // The lowest-ranked of the bots that sat out least often (each
            // plays at most one game a round, so that is who played most).
            let most = ranked.iter().map(|&b| played[b]).max().unwrap_or(0);
            let pos = ranked.iter().rposition(|&b| played[b] == most).unwrap_or(ranked.len() - 1);
            ranked.remove(pos);
        }
        let mut fixtures = Vec::new();
        let mut game = tally.settled;
        while let Some(a) = (!ranked.is_empty()).then(|| ranked.remove(0)) {
            let (pos, _) = ranked
                .iter()
                .enumerate()
                .min_by_key(|&(pos, &b)| (met[a][b], pos))
                .expect("an even number of bots is left");
            let b = ranked.remove(pos);
            if game < self.games {
                let seats = if round.is_multiple_of(2) { vec![a, b] } else { vec![b, a] };
                fixtures.push(Fixture { game, seats });
                game += 1;
            }
        }
        fixtures
    }

    /// The matches between two bots of a knockout round's slots.
    fn knockout_matches(&self, slots: &[Option<usize>]) -> Vec<(usize, usize)> {
        slots.chunks(2).filter_map(|p| p[0].zip(p.get(1).copied().flatten())).collect()
    }

    fn knockout(&self, tally: &Tally) -> Vec<Fixture> {
        let mut fixtures = Vec::new();
        for (a, b) in self.knockout_matches(&tally.slots) {
            for g in 0..self.games {
                let seats = if g.is_multiple_of(2) { vec![a, b] } else { vec![b, a] };
                fixtures.push(Fixture { game: tally.settled + fixtures.len() as u64, seats });
            }
        }
        fixtures
    }
}

/// What pairing a round needs of the rounds before it (Swiss: points,
/// games and meetings by bot; knockout: who is still in), summed up game
/// by game: it grows with the bots, and with the games of the round under
/// way only, never with the games of the tournament.
#[derive(Clone, Debug)]
pub struct Tally {
    /// Games of the rounds summed up.
    settled: u64,
    points: Vec<u64>,
    played: Vec<u64>,
    met: Vec<Vec<u32>>,
    /// Knockout: the bracket of the round under way (`None`: a bye).
    slots: Vec<Option<usize>>,
    /// The games of the round under way so far, in order.
    round: Vec<GameResult>,
}

impl Tally {
    /// Games of the rounds summed up: the first game of the round under
    /// way.
    pub fn settled(&self) -> u64 {
        self.settled
    }

    /// A game of the round under way, if it is in.
    pub fn in_round(&self, game: u64) -> Option<&GameResult> {
        let i = usize::try_from(game.checked_sub(self.settled)?).ok()?;
        self.round.get(i)
    }
}

/// The winner of a knockout match between seeds `a` and `b` (`a` the
/// better seed): points, then total score, then the better seed.
fn match_winner(a: usize, b: usize, games: &[&GameResult]) -> usize {
    let (mut points, mut score) = ((0u64, 0u64), (0i64, 0i64));
    for r in games {
        for (x, y, outcome) in r.pairs() {
            let (pa, pb) = if x == a { (outcome.points_first(), 2 - outcome.points_first()) } else { (2 - outcome.points_first(), outcome.points_first()) };
            debug_assert!((x == a && y == b) || (x == b && y == a));
            points.0 += pa;
            points.1 += pb;
        }
        for (seat, &bot) in r.seats.iter().enumerate() {
            let s = r.scores.get(seat).copied().unwrap_or(0);
            if bot == a {
                score.0 += s;
            } else if bot == b {
                score.1 += s;
            }
        }
    }
    if (points.1, score.1) > (points.0, score.0) { b } else { a }
}

/// Seeds in bracket order for `size` (a power of two) slots: neighbours
/// meet in the first round, and seeds 0 and 1 only in the final.
fn bracket(size: usize) -> Vec<usize> {
    let mut order = vec![0];
    while order.len() < size {
        let n = order.len() * 2;
        order = order.iter().flat_map(|&x| [x, n - 1 - x]).collect();
    }
    order
}

/// `n` choose `k`, saturating.
fn binomial(n: u64, k: u64) -> u64 {
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        c = c * u128::from(n - i) / u128::from(i + 1);
        if c > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    c as u64
}

/// The `index`-th `k`-subset of `0..n` in lexicographic order.
fn nth_combination(n: usize, k: usize, mut index: u64) -> Vec<usize> {
    let mut out = Vec::with_capacity(k);
    let mut next = 0;
    while out.len() < k {
        let left = (k - out.len() - 1) as u64;
        // Subsets that start with `next` at this position.
        let with = binomial((n - next - 1) as u64, left);
        if index < with {
            out.push(next);
        } else {
            index -= with;
        }
        next += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::GameResult;

    fn result(f: &Fixture, places: &[usize]) -> GameResult {
        GameResult { game: f.game, seed: 0, seats: f.seats.clone(), places: places.to_vec(), scores: vec![0; places.len()], ticks: 1, forfeits: Vec::new(), faults: Vec::new() }
    }

    /// Plays a whole tournament game by game through a [`Tally`], the
    /// bot with the larger index winning every game.
    fn play_out(s: &Schedule) -> Vec<Fixture> {
        let mut tally = s.tally();
        let mut played = Vec::new();
        while let Some(round) = s.next_round_of(&tally) {
            assert!(!round.is_empty());
            for f in round {
                let places = if f.seats[0] > f.seats[1] { [1, 2] } else { [2, 1] };
                s.add(&mut tally, result(&f, &places));
                played.push(f);
            }
        }
        played
    }

    #[test]
    fn swiss_rounds_pair_bots_that_met_least() {
        // Four bots, three rounds: meeting least, every pair meets once.
        let s = Schedule::new(Format::Swiss, 4, 2, 6).unwrap();
        let mut pairs: Vec<(usize, usize)> = play_out(&s).iter().map(|f| (f.seats[0].min(f.seats[1]), f.seats[0].max(f.seats[1]))).collect();
        pairs.sort();
        assert_eq!(pairs, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]);
        // The winners of the first round (1 over 0, 3 over 2) meet in the
        // second, the two leaders.
        let games = play_out(&s);
        let mut second: Vec<usize> = games[2].seats.clone();
        second.sort();
        assert_eq!(second, [1, 3], "{games:?}");
    }

    #[test]
    fn knockout_winners_advance() {
        // Seeds 0 v 3 and 1 v 2; the larger index wins: 3 and 2 meet in
        // the final.
        let s = Schedule::new(Format::Knockout, 4, 2, 2).unwrap();
        let games = play_out(&s);
        assert_eq!(games.len(), 6);
        let finals: Vec<Vec<usize>> = games[4..].iter().map(|f| f.seats.clone()).collect();
        assert_eq!(finals, [vec![3, 2], vec![2, 3]]);
    }

    #[test]
    fn round_robin_pairs_everyone_on_both_sides() {
        let s = Schedule::new(Format::RoundRobin, 3, 2, 12).unwrap();
        let round = s.next_round(&[]).unwrap();
        assert_eq!(round.len(), 12);
        let mut count = std::collections::BTreeMap::new();
        for f in &round {
            *count.entry(f.seats.clone()).or_insert(0) += 1;
        }
        // 3 pairs, each twice on each side.
        assert_eq!(count.len(), 6, "{count:?}");
        assert!(count.values().all(|&c| c == 2), "{count:?}");
        let done: Vec<GameResult> = round.iter().map(|f| result(f, &[1, 2])).collect();
        assert_eq!(s.next_round(&done), None);
    }

    #[test]
    fn round_robin_fills_big_tables_in_turn() {
        let s = Schedule::new(Format::RoundRobin, 2, 5, 4).unwrap();
        let round = s.next_round(&[]).unwrap();
        assert_eq!(round[0].seats, vec![0, 1, 0, 1, 0]);
        assert_eq!(round[1].seats, vec![1, 0, 1, 0, 0]);
        let s = Schedule::new(Format::RoundRobin, 5, 4, 10).unwrap();
        let round = s.next_round(&[]).unwrap();
        assert_eq!(round[0].seats, vec![0, 1, 2, 3]);
        assert_eq!(round[4].seats, vec![1, 2, 3, 4]);
        assert_eq!(round[5].seats, vec![1, 2, 3, 0]);
    }

    #[test]
    fn combinations_unrank_in_order() {
        let all: Vec<Vec<usize>> = (0..binomial(5, 3)).map(|i| nth_combination(5, 3, i)).collect();
        assert_eq!(all.len(), 10);
        assert_eq!(all[0], vec![0, 1, 2]);
        assert_eq!(all[9], vec![2, 3, 4]);
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, all);
    }

    #[test]
    fn swiss_pairs_leaders_together() {
        let s = Schedule::new(Format::Swiss, 4, 2, 6).unwrap();
        let r1 = s.next_round(&[]).unwrap();
        assert_eq!(r1.iter().map(|f| f.seats.clone()).collect::<Vec<_>>(), vec![vec![0, 1], vec![2, 3]]);
        // 1 and 3 win: they meet next, as do 0 and 2.
        let done: Vec<GameResult> = r1.iter().map(|f| result(f, &[2, 1])).collect();
        let r2 = s.next_round(&done).unwrap();
        assert_eq!(r2.iter().map(|f| f.seats.clone()).collect::<Vec<_>>(), vec![vec![3, 1], vec![2, 0]]);
        assert_eq!(r2[0].game, 2);
        let mut all = done.clone();
        all.extend(r2.iter().map(|f| result(f, &[1, 2])));
        let r3 = s.next_round(&all).unwrap();
        assert_eq!(r3.len(), 2);
        all.extend(r3.iter().map(|f| result(f, &[1, 1])));
        assert_eq!(s.next_round(&all), None);
    }

    #[test]
    fn swiss_rotates_the_bye() {
        let s = Schedule::new(Format::Swiss, 5, 2, 10).unwrap();
        let mut done = Vec::new();
        while let Some(round) = s.next_round(&done) {
            // The first seat always wins: the same bots stay on top.
            done.extend(round.iter().map(|f| result(f, &[1, 2])));
        }
        assert_eq!(done.len(), 10);
        for bot in 0..5 {
            let games = done.iter().filter(|r| r.seats.contains(&bot)).count();
            assert_eq!(games, 4, "bot {bot} sat out once in five rounds");
        }
    }

    #[test]
    fn knockout_plays_a_bracket_with_byes() {
        assert_eq!(bracket(8), vec![0, 7, 3, 4, 1, 6, 2, 5]);
        let s = Schedule::new(Format::Knockout, 3, 2, 2).unwrap();
        assert_eq!(s.total_games(), 4);
        // Seed 0 has a bye; 1 meets 2 over two games.
        let r1 = s.next_round(&[]).unwrap();
        assert_eq!(r1.iter().map(|f| f.seats.clone()).collect::<Vec<_>>(), vec![vec![1, 2], vec![2, 1]]);
        // Bot 2 wins both.
        let done: Vec<GameResult> = r1.iter().map(|f| result(f, if f.seats[0] == 2 { &[1, 2] } else { &[2, 1] })).collect();
        let r2 = s.next_round(&done).unwrap();
        assert_eq!(r2.iter().map(|f| (f.game, f.seats.clone())).collect::<Vec<_>>(), vec![(2, vec![0, 2]), (3, vec![2, 0])]);
        let mut all = done;
        all.extend(r2.iter().map(|f| result(f, &[1, 1])));
        assert_eq!(s.next_round(&all), None);
    }

    #[test]
    fn sprt_plays_pairs_with_seats_swapped_on_one_seed() {
        let s = Schedule::new(Format::Sprt, 3, 4, 5).unwrap();
        assert_eq!(s.total_games(), 6);
        let round = s.next_round(&[]).unwrap();
        assert_eq!(round.iter().map(|f| f.seats.clone()).collect::<Vec<_>>()[..2], [vec![0, 1, 2, 2], vec![1, 0, 2, 2]]);
        assert_eq!(round.iter().map(|f| s.seed_index(f.game)).collect::<Vec<_>>(), [0, 0, 1, 1, 2, 2]);
        assert!(s.is_one_round());
        assert_eq!(Schedule::new(Format::Sprt, 2, 2, 4).unwrap().fixture(3).seats, [1, 0]);
        assert!(Schedule::new(Format::Sprt, 2, 4, 4).is_err(), "other seats need a baseline");
        assert!(Schedule::new(Format::Sprt, 3, 2, 4).is_err(), "a baseline needs a seat");
        assert!("sprt".parse::<Format>().is_err(), "only --sprt makes one");
    }

    #[test]
    fn bad_schedules_are_refused() {
        assert_eq!(Schedule::new(Format::RoundRobin, 1, 2, 5).unwrap_err(), ScheduleError::TooFewBots(1));
        assert!(matches!(Schedule::new(Format::Swiss, 4, 5, 5), Err(ScheduleError::PairsOnly { .. })));
        assert_eq!(Schedule::new(Format::RoundRobin, 2, 2, 0).unwrap_err(), ScheduleError::NoGames);
        assert_eq!("swiss".parse(), Ok(Format::Swiss));
        assert!("league".parse::<Format>().is_err());
    }
}
