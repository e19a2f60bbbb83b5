//! Recording a room's game as it is played, so that a finished game is
//! kept as a replay (the same file `snakepit play --replay` writes) and
//! its players' programs' stderr as the replay's stderr log.
//!
//! The game records its own moves ([`Recorder`]): only it knows the
//! engine actions its seats' commands became. The room knows who held each
//! seat, so it names the seats in the header when the game is over
//! ([`FinishedGame::replay_text`]) and keeps the stderr of the seats'
//! programs by tick ([`StderrRecord`]).

use snakepit_protocol::replay::{Header, ReplayGame, tick_line_with};

/// A game's replay is no longer kept past this many bytes of moves (a
/// room's games end long before; this only bounds a game that would not).
pub const REPLAY_BYTES_MAX: usize = 8 << 20;

/// A game's stderr log keeps at most this many bytes; lines beyond are
/// counted as dropped.
pub const STDERR_LOG_BYTES_MAX: usize = 256 << 10;

/// The moves of one game so far.
pub struct Recorder<G> {
    header: Header,
    lines: String,
    ticks: u64,
    overflowed: bool,
    /// Seats taken or left since the last tick, written with the next one.
    presence: Vec<(usize, bool)>,
    _game: std::marker::PhantomData<G>,
}

impl<G: ReplayGame> Recorder<G> {
    /// Starts recording `game`, which has played no tick yet or was just
    /// rebuilt from its position with `seed` (a stretch of an endless game).
    pub fn new(game: &G, seed: u64) -> Recorder<G> {
        let labels: Vec<String> = (0..game.seats()).map(|s| format!("seat {}", s + 1)).collect();
        Recorder {
            header: Header::of_game_now(game, seed, &labels),
            lines: String::new(),
            ticks: 0,
            overflowed: false,
            presence: Vec::new(),
            _game: std::marker::PhantomData,
        }
    }

    /// Notes that a seat was taken or left before the next tick, as the
    /// game was told ([`ReplayGame::set_seat_present`]).
    pub fn presence(&mut self, seat: usize, present: bool) {
        self.presence.push((seat, present));
    }

    /// Records one tick: the actions given to [`Game::step`] and the state
    /// after it.
    pub fn record(&mut self, after: &G, actions: &[G::Action]) {
        self.ticks += 1;
        let presence = std::mem::take(&mut self.presence);
        if self.overflowed {
            return;
        }
        self.lines.push_str(&tick_line_with::<G>(self.ticks, self.header.seats, &presence, actions, after.checksum()));
        self.lines.push('\n');
        if self.lines.len() > REPLAY_BYTES_MAX {
            self.overflowed = true;
            self.lines = String::new();
        }
    }

    /// Ticks recorded.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// The finished game, or `None` when it grew past
    /// [`REPLAY_BYTES_MAX`].
    pub fn finish(self, scores: Vec<i64>, winners: &[usize]) -> Option<FinishedGame> {
        if self.overflowed {
            return None;
        }
        let places = places(&scores, winners);
        Some(FinishedGame { header: self.header, ticks_text: self.lines, ticks: self.ticks, scores, places })
    }
}

/// The seed of a room's `n`-th game after the first (a SnakeBattle round,
/// a Hex field, a stretch of CodeCarrots), from the room's seed: a new
/// stream for each, so that each replay stands on its own.
pub fn nth_seed(room_seed: u64, n: u64) -> u64 {
    // SplitMix64's finaliser: neighbouring `n` give unrelated seeds.
    let mut z = room_seed.wrapping_add(n.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Places from the final scores: the winners share first place, and the
/// others follow by score (equal scores share a place).
pub fn places(scores: &[i64], winners: &[usize]) -> Vec<usize> {
    (0..scores.len())
        .map(|s| {
            if winners.contains(&s) {
                return 1;
            }
            let above = (0..scores.len()).filter(|&o| !winners.contains(&o) && scores[o] > scores[s]).count();
            1 + winners.len() + above
        })
        .collect()
}

/// A game that has ended, as the room keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame {
    header: Header,
    ticks_text: String,
    /// Ticks played.
    pub ticks: u64,
    /// Each seat's final score.
    pub scores: Vec<i64>,
    /// Each seat's place, 1 being best.
    pub places: Vec<usize>,
}

impl FinishedGame {
    /// The replay file, with `labels` naming the seats.
    pub fn replay_text(&self, labels: Vec<String>) -> String {
        let mut header = self.header.clone();
        header.players = labels;
        let mut out = header.to_line();
        out.push('\n');
        out.push_str(&self.ticks_text);
        out
    }
}

/// The seats' stderr of one game, by tick, in the stderr log's format
/// (see `snakepit_viewer::html::stderr_log`).
#[derive(Debug, Default)]
pub struct StderrRecord {
    /// `(tick, seat, lines, dropped)`, in arrival order.
    entries: Vec<(u64, usize, Vec<String>, u64)>,
    bytes: usize,
}

impl StderrRecord {
    /// Keeps lines a seat's program wrote while choosing its move for
    /// `tick`.
    pub fn add(&mut self, tick: u64, seat: usize, lines: &[String]) {
        let i = match self.entries.last() {
            Some((t, s, _, _)) if *t == tick && *s == seat => self.entries.len() - 1,
            _ => {
                self.entries.push((tick, seat, Vec::new(), 0));
                self.entries.len() - 1
            }
        };
        let entry = &mut self.entries[i];
        for line in lines {
            if self.bytes + line.len() > STDERR_LOG_BYTES_MAX {
                entry.3 += 1;
            } else {
                self.bytes += line.len();
                entry.2.push(line.clone());
            }
        }
    }

    /// The log as JSON lines, and a fresh record for the next game.
    pub fn take(&mut self) -> String {
        let mut out = String::new();
        for (t, seat, lines, dropped) in std::mem::take(&mut self.entries) {
            let line = serde_json::json!({ "dropped": dropped, "fault": null, "seat": seat, "stderr": lines, "t": t });
            out.push_str(&line.to_string());
            out.push('\n');
        }
        self.bytes = 0;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winners_come_first_and_the_rest_by_score() {
        assert_eq!(places(&[1, 0], &[0]), vec![1, 2]);
        assert_eq!(places(&[0, 0], &[]), vec![1, 1]);
        assert_eq!(places(&[5, 9, 7, 7], &[0]), vec![1, 2, 3, 3]);
        assert_eq!(places(&[3, 3, 1], &[0, 1]), vec![1, 1, 3]);
    }

    #[test]
    fn stderr_of_one_tick_and_seat_is_one_entry_and_the_log_is_bounded() {
        let mut r = StderrRecord::default();
        r.add(3, 1, &["a".into()]);
        r.add(3, 1, &["b".into()]);
        r.add(3, 0, &["c".into()]);
        let log = r.take();
        let lines: Vec<serde_json::Value> = log.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["stderr"], serde_json::json!(["a", "b"]));
        assert_eq!((lines[1]["seat"].as_u64(), lines[1]["t"].as_u64()), (Some(0), Some(3)));
        assert_eq!(r.take(), "", "taking starts a new log");
        let big = "x".repeat(STDERR_LOG_BYTES_MAX / 2 + 1);
        r.add(1, 0, &[big.clone(), big.clone(), "y".into()]);
        let v: serde_json::Value = serde_json::from_str(r.take().trim()).unwrap();
        assert_eq!((v["stderr"].as_array().unwrap().len(), v["dropped"].as_u64()), (2, Some(1)));
    }
}
