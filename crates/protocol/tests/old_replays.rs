//! Replays recorded by rules version 2 under today's rules: the rules that
//! became settings are read as they were (Hex's `annihilation=true`,
//! SnakeBattle's `replace_eaten=false`), so a game that met no other change
//! re-simulates tick for tick; a game that did names its first differing
//! tick and the version that recorded it, instead of passing or failing
//! without a word.
//!
//! `data/*.jsonl` were recorded with `snakepit play` of rules version 2:
//! three built-in bots (greedy, random, greedy), 150 ticks; Hex with seeds
//! 2 (`hex-engine-2.jsonl`) and 3 (`hex-engine-2-same.jsonl`), SnakeBattle
//! with seed 7.

use snakepit_engine::ENGINE_VERSION;
use snakepit_engine::hex::Hex;
use snakepit_engine::snakebattle::SnakeBattle;
use snakepit_protocol::replay::{Divergence, Replay, ReplayGame};

/// Re-simulates a version 2 replay, counting the ticks whose recorded
/// checksum matched, and returns the first difference, if any.
fn resimulate<G: ReplayGame>(text: &str) -> (usize, Option<Divergence>) {
    let replay = Replay::<G>::parse(text).expect("a version 2 replay still reads");
    assert_eq!(replay.header.engine, "2");
    let mut matched = 0;
    let end = replay.resimulate(|game, record, _| {
        if game.checksum() == record.checksum {
            matched += 1;
        }
    });
    (matched, end.err())
}

#[test]
fn hex_replay_of_version_2_names_its_first_differing_tick() {
    // In tick 40 new pieces of two players reach one piece at once: version
    // 2 gave it to the lower seat, today it stays with its owner.
    let (matched, err) = resimulate::<Hex>(include_str!("data/hex-engine-2.jsonl"));
    let err = err.expect("the rules changed under this game");
    assert_eq!((err.tick, matched), (40, 39), "every tick before the first difference matches");
    assert_eq!(
        err.to_string(),
        format!(
            "tick 40 (line 41): the state's checksum is {:016x}, the replay recorded {:016x} (the replay was made by engine \"2\", this is engine \"{ENGINE_VERSION}\")",
            err.computed, err.recorded
        )
    );
}

#[test]
fn hex_replay_of_version_2_without_contested_pieces_still_verifies() {
    // Its new pieces land next to each other (tick 20 is the first time),
    // which the seed profile now lets capture: read as `annihilation=true`,
    // the game plays again the same.
    let (matched, err) = resimulate::<Hex>(include_str!("data/hex-engine-2-same.jsonl"));
    assert_eq!((matched, err), (150, None));
}

#[test]
fn snakebattle_replay_of_version_2_still_verifies() {
    // Read as `replace_eaten=false`; none of its fights was one whose
    // outcome depended on the seats.
    let (matched, err) = resimulate::<SnakeBattle>(include_str!("data/snakebattle-engine-2.jsonl"));
    assert_eq!((matched, err), (150, None));
}
