//! Tournaments between bots, as pure data: who plays whom in which game
//! ([`schedule`]), what the results add up to ([`standings`]: wins, draws
//! and losses, the win matrix, Weng-Lin ratings with their uncertainty,
//! mean scores, the bots' faults) and how they read ([`report`]: a text table and a
//! self-contained HTML page), and the ladder's matchmaking and rating
//! steps ([`ladder`]).
//!
//! Nothing here runs a game, reads a clock or touches a file: the CLI's
//! `tournament` command plays the games and feeds their results in, in
//! game order, so that the same results always give the same standings,
//! whatever order the games finished in.
//!
//! **Invariant:** every game of a tournament has an index, and its seed
//! and seating are functions of the tournament's seed, its settings and
//! (for Swiss and knockout) the results of the earlier rounds only.

pub mod ladder;
pub mod report;
pub mod schedule;
pub mod sprt;
pub mod standings;

pub use schedule::{Fixture, Format, Schedule, ScheduleError};
pub use standings::{FaultNote, GameNote, GameResult, SeatFault, Standings};

/// The seed of game `index` of a tournament seeded with `seed`: a
/// SplitMix64 step, so neighbouring games get unrelated seeds.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed.wrapping_add(index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_seeds_differ_and_repeat() {
        let seeds: Vec<u64> = (0..1000).map(|i| game_seed(7, i)).collect();
        let mut unique = seeds.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), 1000);
        assert_eq!(seeds, (0..1000).map(|i| game_seed(7, i)).collect::<Vec<_>>());
        assert_ne!(game_seed(7, 0), game_seed(8, 0));
    }
}
