//! Seeded simulation of KingOfBots duels: random bots play many games to
//! their end on generated maps, and every round is checked against the
//! engine's invariants and its own events. Replays and clones must
//! re-simulate the same checksums. Property tests cover settings, maps and
//! the action text.
//!
//! A failure names its seed and round; `SIM_SEED=<seed>` runs just that
//! game (the variable is read here, in the test, never by the engine).

mod seats;

use proptest::prelude::*;
use snakepit_engine::duel::{Action, Duel, DuelMap, EndReason, Event, Outcome, Settings};
use snakepit_engine::{Dir, Game, Rng};

const SEEDS: u64 = 400;

/// A careful bot picks a safe move (no wall, no body) when there is one;
/// rarely it forfeits, answers nothing, or moves at random.
fn random_actions(game: &Duel, rng: &mut Rng, careful: [bool; 2]) -> [Action; 2] {
    let map = game.map();
    let snakes = game.snakes();
    std::array::from_fn(|seat| {
        let head = snakes[seat].head();
        let roll = rng.below(1000);
        if roll == 0 {
            return Action::Forfeit;
        }
        if roll < 20 {
            return Action::Keep;
        }
        if roll < 60 && !careful[seat] {
            return Action::Move(Dir::ALL[rng.index(4)]);
        }
        let safe: Vec<Dir> = Dir::ALL
            .into_iter()
            .filter(|&d| {
                let p = head.step(d);
                map.contains(p) && !map.is_wall(p) && snakes.iter().all(|s| !s.body.contains(&p))
            })
            .collect();
        if safe.is_empty() { Action::Move(Dir::ALL[rng.index(4)]) } else { Action::Move(safe[rng.index(safe.len())]) }
    })
}

fn play(seed: u64) -> Result<(Vec<[Action; 2]>, Vec<u64>), String> {
    let settings = match seed % 4 {
        3 => Settings::from_pairs([("rounds_max", "25")]).expect("valid"),
        2 => Settings::from_pairs([("rows", "20"), ("cols", "24"), ("inner_walls", "60")]).expect("valid"),
        _ => Settings::default(),
    };
    let mut game = Duel::new(settings.clone(), seed);
    game.check_invariants().map_err(|e| format!("after new: {e}"))?;
    let mut rng = Rng::new(seed ^ 0xd0e1);
    let careful = [!seed.is_multiple_of(3), !seed.is_multiple_of(5)];
    let (mut inputs, mut sums) = (Vec::new(), Vec::new());
    let mut ended = 0;
    while !game.is_over() {
        let actions = random_actions(&game, &mut rng, careful);
        let events = game.step(&actions);
        let round = game.round();
        if !cfg!(debug_assertions) {
            game.check_invariants().map_err(|e| format!("round {round}: {e}"))?;
        }
        for e in &events {
            match e {
                Event::Ended { outcome, reason } => {
                    ended += 1;
                    if game.outcome() != Some((*outcome, *reason)) {
                        return Err(format!("round {round}: {e:?} but the outcome is {:?}", game.outcome()));
                    }
                }
                Event::Died { snake, .. } if game.snakes()[*snake].alive => {
                    return Err(format!("round {round}: {e:?} but the snake is alive"));
                }
                _ => {}
            }
        }
        let scores = game.scores();
        match game.outcome() {
            None if scores != [0, 0] => return Err(format!("round {round}: scores {scores:?} mid-game")),
            Some((Outcome::Won(w), _)) if scores[w] != settings.points_win => {
                return Err(format!("round {round}: the winner scores {}", scores[w]));
            }
            Some((_, EndReason::RoundLimit)) if round != u64::from(settings.rounds_max) => {
                return Err(format!("round limit at round {round}"));
            }
            _ => {}
        }
        if round > u64::from(settings.rounds_max) {
            return Err(format!("round {round} is past the limit"));
        }
        inputs.push(actions);
        sums.push(game.checksum());
    }
    if ended != 1 {
        return Err(format!("{ended} Ended events"));
    }
    // After the end nothing changes.
    let sum = game.checksum();
    if !game.step(&[Action::Move(Dir::Up), Action::Forfeit]).is_empty() || game.checksum() != sum {
        return Err("a step after the end changed the game".to_string());
    }
    Ok((inputs, sums))
}

#[allow(clippy::disallowed_methods)]
#[test]
fn simulate() {
    let seeds: Vec<u64> = match std::env::var("SIM_SEED") {
        Ok(s) => vec![s.parse().expect("SIM_SEED is a number")],
        Err(_) => (0..SEEDS).collect(),
    };
    let mut reasons = [0; 3];
    for seed in seeds {
        let (inputs, sums) = std::panic::catch_unwind(|| play(seed))
            .unwrap_or_else(|_| Err("the engine panicked (message above)".to_string()))
            .unwrap_or_else(|e| panic!("seed {seed} (SIM_SEED={seed}): {e}"));
        // A fresh game with the same seed, and a clone taken half way,
        // replay the same checksums.
        let settings = match seed % 4 {
            3 => Settings::from_pairs([("rounds_max", "25")]).expect("valid"),
            2 => Settings::from_pairs([("rows", "20"), ("cols", "24"), ("inner_walls", "60")]).expect("valid"),
            _ => Settings::default(),
        };
        let mut game = Duel::new(settings.clone(), seed);
        let half = inputs.len() / 2;
        let mut fork = None;
        for (round, actions) in inputs.iter().enumerate() {
            if round == half {
                fork = Some(game.clone());
            }
            game.step(actions);
            assert_eq!(game.checksum(), sums[round], "seed {seed}: replay diverged at round {}", round + 1);
        }
        let mut fork = fork.expect("a game has at least one round");
        for (round, actions) in inputs.iter().enumerate().skip(half) {
            fork.step(actions);
            assert_eq!(fork.checksum(), sums[round], "seed {seed}: clone diverged at round {}", round + 1);
        }
        // The map a replay stores rebuilds the same game.
        let map = DuelMap::parse(&game.map().to_rows().join("\n")).expect("a map's rows parse");
        let mut again = Duel::with_map(settings, map, seed);
        for actions in &inputs {
            again.step(actions);
        }
        assert_eq!(again.checksum(), game.checksum(), "seed {seed}: the stored map plays differently");
        if let Some((_, reason)) = game.outcome() {
            reasons[reason as usize] += 1;
        }
    }
    // Every way of ending occurs (unless a single seed was asked for).
    if std::env::var("SIM_SEED").is_err() {
        assert!(reasons.iter().all(|&n| n > 0), "ends by death, forfeit, round limit: {reasons:?}");
    }
}

/// `check_invariants` must itself reject broken states: a body that its
/// steps do not give.
#[test]
fn invariants_reject_broken_states() {
    let mut game = Duel::new(Settings::default(), 1);
    game.step(&[Action::Move(Dir::Right), Action::Move(Dir::Left)]);
    assert_eq!(game.check_invariants(), Ok(()));
    let map = DuelMap::parse("######\n#A.B.#\n#....#\n######\n").expect("parses");
    let mut game = Duel::with_map(Settings::default(), map, 1);
    game.step(&[Action::Move(Dir::Right), Action::Move(Dir::Left)]);
    assert_eq!(game.outcome(), Some((Outcome::Draw, EndReason::Death)), "heads met at [2,1]");
    assert_eq!(game.check_invariants(), Ok(()));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Relabelling the two seats swaps the outcome and changes nothing else
    /// (`tests/seats/mod.rs`), on every round of a random game.
    #[test]
    fn seat_order_does_not_matter(seed in any::<u64>()) {
        let settings = if seed % 2 == 0 { Settings::default() } else {
            Settings::from_pairs([("rows", "8"), ("cols", "9"), ("inner_walls", "6")]).expect("valid")
        };
        let mut game = Duel::new(settings, seed);
        let mut rng = Rng::new(seed ^ 0x5ea7);
        let careful = [seed % 3 != 0, seed % 5 != 0];
        while !game.is_over() {
            let actions = random_actions(&game, &mut rng, careful);
            seats::step_checked(&mut game, &actions, &mut rng, seats::no_draws)
                .map_err(|e| TestCaseError::fail(format!("seed {seed}, round {}: {e}", game.round())))?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn settings_never_panic_on_junk(pairs in proptest::collection::vec(("[a-z_]{0,14}", "\\PC{0,8}"), 0..5)) {
        let _ = Settings::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    }

    #[test]
    fn settings_round_trip(rows in 4u32..=100, cols in 4u32..=100, walls in 0u32..20, every in 1u32..5, win: i64) {
        // At most the inner cells but two may be walls (the two starts).
        let walls = walls.min((rows - 2) * (cols - 2) - 2);
        let (r, c, w, e, p) = (rows.to_string(), cols.to_string(), walls.to_string(), every.to_string(), win.to_string());
        let s = Settings::from_pairs([("rows", r.as_str()), ("cols", &c), ("inner_walls", &w), ("grow_every", &e), ("points_win", &p)])
            .expect("valid");
        let text = s.to_pairs();
        prop_assert_eq!(Settings::from_pairs(text.iter().map(|(k, v)| (*k, v.as_str()))), Ok(s));
    }

    #[test]
    fn action_text_is_canonical(text in "[-FURDL0]{0,2}|\\PC{0,4}") {
        if let Ok(a) = Action::from_text(&text) {
            prop_assert_eq!(a.to_text(), text);
        }
    }

    #[test]
    fn map_parse_never_panics(text in "([#.AB\\n]|\\PC){0,200}") {
        if let Ok(map) = DuelMap::parse(&text) {
            prop_assert_eq!(DuelMap::parse(&map.to_rows().join("\n")), Ok(map));
        }
    }

    /// Drawn maps of any shape play to the end with their invariants.
    #[test]
    fn drawn_maps_play(rows in 4usize..9, cols in 4usize..9, walls in proptest::collection::vec(any::<bool>(), 81), seed: u64) {
        let mut text = String::new();
        for r in 0..rows {
            for c in 0..cols {
                text.push(match (r, c) {
                    (1, 1) => 'A',
                    (2, 2) => 'B',
                    _ if walls[r * 9 + c] && (r + c).is_multiple_of(3) => '#',
                    _ => '.',
                });
            }
            text.push('\n');
        }
        let map = DuelMap::parse(&text).expect("drawn map parses");
        let mut game = Duel::with_map(Settings::default(), map, seed);
        let mut rng = Rng::new(seed);
        for _ in 0..200 {
            let actions = random_actions(&game, &mut rng, [false, false]);
            game.step(&actions);
            prop_assert_eq!(game.check_invariants(), Ok(()));
        }
    }
}
