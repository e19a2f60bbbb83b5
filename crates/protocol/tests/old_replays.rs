//! Replays recorded by older rules versions under today's rules: the rules
//! that became settings are read as they were (Hex's `annihilation=true`
//! before version 3, SnakeBattle's `replace_eaten=false` before version 3
//! and `dice=true` before version 4), so a game that met no other change
//! re-simulates tick for tick; a game that did names its first differing
//! tick and the version that recorded it, instead of passing or failing
//! without a word.
//!
//! `data/*-engine-N.jsonl` were recorded with `snakepit play` of rules
//! version N: three built-in bots (greedy, random, greedy), 150 ticks; Hex
//! with seeds 2 (`hex-engine-2.jsonl`, `hex-engine-3.jsonl`) and 3
//! (`hex-engine-2-same.jsonl`), SnakeBattle with seed 7. The Battlesnake
//! ones: royale on 11x11, greedy, random, greedy, random, seed 5, 150
//! ticks at most (the game ends at turn 102); wrapped_constrictor on 7x7,
//! greedy against random, seed 9 (over at turn 17).
//!
//! Version 5 changed only Battlesnake's checksum, so a replay of version 4
//! verifies with the checksum of its own version
//! (`Game::checksum_as_of`). `battlesnake-standard-engine-5.jsonl` is of
//! today's version (standard on 11x11, greedy, random, greedy, greedy,
//! seed 11, over at turn 109) and pins its checksum.

use snakepit_engine::battlesnake::Battlesnake;
use snakepit_engine::hex::Hex;
use snakepit_engine::{ENGINE_VERSION, Game};
use snakepit_engine::snakebattle::SnakeBattle;
use snakepit_protocol::replay::{Divergence, Replay, ReplayGame};

/// Re-simulates an old replay, counting the ticks whose recorded
/// checksum matched, and returns the first difference, if any.
fn resimulate<G: ReplayGame>(text: &str) -> (usize, Option<Divergence>) {
    let replay = Replay::<G>::parse(text).expect("an old replay still reads");
    let mut matched = 0;
    let end = replay.resimulate(|game, record, _| {
        if game.checksum_as_of(&replay.header.engine) == record.checksum {
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
fn hex_replay_of_version_2_without_contested_pieces_plays_on_to_the_draw_order() {
    // Its new pieces land next to each other (tick 20 is the first time),
    // which the `seed` profile now lets capture: read as `annihilation=true`,
    // the game plays again the same, until the restart of tick 99, where
    // version 4 places the new pieces in order of score, not of seat.
    let (matched, err) = resimulate::<Hex>(include_str!("data/hex-engine-2-same.jsonl"));
    let err = err.expect("the placement order changed under this game");
    assert_eq!((err.tick, matched), (99, 98), "every tick before the first difference matches");
}

#[test]
fn snakebattle_replay_of_version_2_still_verifies() {
    // Read as `replace_eaten=false`; none of its fights was one whose
    // outcome depended on the seats.
    let (matched, err) = resimulate::<SnakeBattle>(include_str!("data/snakebattle-engine-2.jsonl"));
    assert_eq!((matched, err), (150, None));
}


#[test]
fn hex_replay_of_version_3_names_the_restart_that_places_by_score() {
    // Tick 17 restarts the field (B has no pieces left). Version 3 placed
    // the new pieces in seat order (A, B, C); today the seats draw in order
    // of score (B 250, C 470, A 750), so the cells go to other seats.
    let text = include_str!("data/hex-engine-3.jsonl");
    let (matched, err) = resimulate::<Hex>(text);
    let err = err.expect("the placement order changed under this game");
    assert_eq!((err.tick, matched), (17, 16), "every tick before the first difference matches");
    assert_eq!(
        err.to_string(),
        format!(
            "tick 17 (line 18): the state's checksum is {:016x}, the replay recorded {:016x} (the replay was made by engine \"3\", this is engine \"{ENGINE_VERSION}\")",
            err.computed, err.recorded
        )
    );
}

#[test]
fn snakebattle_replay_of_version_3_still_verifies_with_the_dice() {
    // The codebattle profile of version 3 rolled upstream's dice on top of
    // the replacements; read as `dice=true`, the game plays again the same
    // (no two of its seats respawned in one tick with different scores).
    let text = include_str!("data/snakebattle-engine-3.jsonl");
    assert!(!text.lines().next().unwrap_or("").contains("\"dice\""), "recorded before the setting existed");
    let (matched, err) = resimulate::<SnakeBattle>(text);
    assert_eq!((matched, err), (150, None));
}

#[test]
fn battlesnake_replays_of_version_4_verify_with_their_own_checksum() {
    for (text, ticks) in [
        (include_str!("data/battlesnake-royale-engine-4.jsonl"), 102),
        (include_str!("data/battlesnake-wrapped-constrictor-engine-4.jsonl"), 17),
    ] {
        assert!(text.starts_with(r#"{"snakepit_replay":1,"game":"battlesnake","engine":"4","#));
        let (matched, err) = resimulate::<Battlesnake>(text);
        assert_eq!((matched, err), (ticks, None));
        // Today's checksum is another function: the file cannot pass by
        // checking nothing.
        let replay = Replay::<Battlesnake>::parse(text).unwrap();
        let mut game = replay.start.clone();
        game.step(&replay.ticks[0].moves);
        assert_ne!(game.checksum(), replay.ticks[0].checksum);
        assert_eq!(game.checksum_as_of("4"), replay.ticks[0].checksum);
    }
}

#[test]
fn battlesnake_replay_of_version_5_pins_todays_checksum() {
    // Recorded before the checksum read a snake's cells four at a time:
    // the same words, so the same value at every tick, bodies of 3 to 17
    // cells, in one piece of their ring and wrapped around its end.
    let text = include_str!("data/battlesnake-standard-engine-5.jsonl");
    assert!(text.starts_with(r#"{"snakepit_replay":1,"game":"battlesnake","engine":"5","#));
    let (matched, err) = resimulate::<Battlesnake>(text);
    assert_eq!((matched, err), (109, None));
}
