//! Seeded simulation of CodeCarrots: random bots play many games on small
//! boards, players come and go, and every tick is checked against the
//! engine's invariants and against its own events. Replays and mid-game
//! clones must re-simulate the same checksums. Property tests cover the
//! settings and the action text.
//!
//! A failure names its seed and tick; `SIM_SEED=<seed>` runs just that game
//! (the variable is read here, in the test, never by the engine).

mod seats;

use proptest::prelude::*;
use snakepit_engine::carrots::{Action, Carrots, Event, Life, Settings};
use snakepit_engine::{Dir, Game, Rng};

/// Games and their length; the pair keeps this file near a few seconds in
/// a debug build.
const SEEDS: u64 = 80;
const TICKS: usize = 800;
const SEATS: usize = 8;
const FORK_AT: usize = 600;

/// CodeCarrots' timing (bodies leave at once, respawn in the next tick),
/// upstream's (bodies stay, respawn two ticks later), and the two mixed.
fn settings(seed: u64) -> Settings {
    let (w, h) = if seed.is_multiple_of(2) { ("16", "12") } else { ("24", "9") };
    let respawn = if seed.is_multiple_of(3) { "1" } else { "2" };
    let stay = if seed % 4 < 2 { "false" } else { "true" };
    let pairs = [("width", w), ("height", h), ("apples_max", "12"), ("respawn_ticks", respawn), ("bodies_stay", stay)];
    Settings::from_pairs(pairs).expect("valid settings")
}

/// Random answers: nine in ten a move that is safe right now (or any move
/// if there is none), else any move, no answer, or (rarely) a forfeit.
fn random_actions(game: &Carrots, rng: &mut Rng) -> Vec<Action> {
    game.snakes()
        .iter()
        .map(|s| {
            let Some(head) = s.head().filter(|_| s.is_alive()) else { return Action::Keep };
            match rng.below(100) {
                0 => Action::Forfeit,
                1..=4 => Action::Keep,
                5..=9 => Action::Move(Dir::ALL[rng.index(4)]),
                _ => {
                    let safe: Vec<Dir> = Dir::ALL
                        .into_iter()
                        .filter(|&d| {
                            let p = head.step(d);
                            game.index(p).is_some() && (!game.is_snake(p) || s.body.back() == Some(&p))
                        })
                        .collect();
                    let d = if safe.is_empty() { Dir::ALL[rng.index(4)] } else { safe[rng.index(safe.len())] };
                    Action::Move(d)
                }
            }
        })
        .collect()
}

struct Before {
    scores: Vec<i64>,
    lives: Vec<Life>,
    lens: Vec<usize>,
    apples: u32,
}

fn check_tick(before: &Before, game: &Carrots, events: &[Event]) -> Result<(), String> {
    if !cfg!(debug_assertions) {
        game.check_invariants()?;
    }
    let mut scores = before.scores.clone();
    let mut apples = i64::from(before.apples);
    for e in events {
        match e {
            Event::Scored { snake, best } => {
                if i64::from(*best) <= scores[*snake] {
                    return Err(format!("{e:?} does not raise the score {}", scores[*snake]));
                }
                scores[*snake] = i64::from(*best);
            }
            Event::AppleSpawned { .. } => apples += 1,
            Event::Ate { .. } => apples -= 1,
            _ => {}
        }
    }
    if scores != game.scores() {
        return Err(format!("scores {:?}, the events give {scores:?}", game.scores()));
    }
    if apples != i64::from(game.apple_count()) {
        return Err(format!("{} apples, the events give {apples}", game.apple_count()));
    }
    for (seat, s) in game.snakes().iter().enumerate() {
        let count = |f: &dyn Fn(&Event) -> bool| events.iter().filter(|e| f(e)).count();
        let died = count(&|e| matches!(e, Event::Died { snake, .. } if *snake == seat));
        let spawned = count(&|e| matches!(e, Event::Spawned { snake, .. } if *snake == seat));
        let removed = count(&|e| matches!(e, Event::Removed { snake } if *snake == seat));
        let was = before.lives[seat];
        let dead_now = matches!(s.life, Life::Dead { tick } if tick == game.tick());
        if died > 1 || spawned > 1 || removed > 1 {
            return Err(format!("seat {seat}: {died} deaths, {spawned} spawns, {removed} removals"));
        }
        if (died == 1) != dead_now && !(died == 1 && spawned == 1) {
            return Err(format!("seat {seat}: {died} Died events but life {:?}", s.life));
        }
        if was == Life::Alive && !s.is_alive() && died == 0 {
            return Err(format!("seat {seat} stopped living without a Died event"));
        }
        if was != Life::Alive && s.is_alive() && spawned == 0 {
            return Err(format!("seat {seat} came to life without a Spawned event"));
        }
        let had_body = matches!(was, Life::Dead { .. }) && before.lens[seat] > 0;
        if had_body && (!matches!(s.life, Life::Dead { .. }) || s.is_empty()) && removed == 0 {
            return Err(format!("seat {seat}'s body left without a Removed event"));
        }
        if removed == 1 && !matches!(was, Life::Dead { .. }) && died == 0 {
            return Err(format!("seat {seat}'s body was removed, but it was {was:?} and did not die"));
        }
        // CodeCarrots' description: the body leaves in the tick of the death.
        // Upstream's timing: not before the respawn, at least a tick later.
        if died == 1 && (removed == 1) == game.settings().bodies_stay {
            return Err(format!(
                "seat {seat} died with bodies_stay={}, {removed} removals",
                game.settings().bodies_stay
            ));
        }
        if removed == 1 && !s.is_alive() && !s.is_empty() {
            return Err(format!("seat {seat}'s body was removed but lies on the board"));
        }
        if spawned == 1 && s.len() != 1 {
            return Err(format!("seat {seat} spawned at length {}", s.len()));
        }
    }
    Ok(())
}

#[derive(Clone)]
struct Input {
    presence: Option<(usize, bool)>,
    actions: Vec<Action>,
}

fn apply(game: &mut Carrots, input: &Input) -> Vec<Event> {
    if let Some((seat, present)) = input.presence {
        game.set_present(seat, present);
    }
    game.step(&input.actions)
}

fn play(seed: u64) -> Result<(Vec<Input>, Vec<u64>), String> {
    let mut game = Carrots::new(settings(seed), SEATS, seed).map_err(|e| e.to_string())?;
    game.check_invariants().map_err(|e| format!("after new: {e}"))?;
    let mut rng = Rng::new(seed ^ 0x5eed);
    let (mut inputs, mut sums, mut fork) = (Vec::new(), Vec::new(), None);
    let mut longest = 0;
    for tick in 0..TICKS {
        if tick == FORK_AT {
            fork = Some(game.clone());
        }
        let presence = (rng.below(60) == 0).then(|| {
            let seat = rng.index(SEATS);
            (seat, game.snakes()[seat].life == Life::Absent)
        });
        if let Some((seat, present)) = presence {
            game.set_present(seat, present);
        }
        let actions = random_actions(&game, &mut rng);
        let before = Before {
            scores: game.scores(),
            lives: game.snakes().iter().map(|s| s.life).collect(),
            lens: game.snakes().iter().map(|s| s.len()).collect(),
            apples: game.apple_count(),
        };
        let events = game.step(&actions);
        check_tick(&before, &game, &events).map_err(|e| format!("tick {}: {e}\nevents: {events:?}", tick + 1))?;
        longest = longest.max(game.snakes().iter().map(|s| s.len()).max().unwrap_or(0));
        inputs.push(Input { presence, actions });
        sums.push(game.checksum());
    }
    if longest < 4 {
        return Err(format!("no snake grew past {longest}; the simulation does not reach growth"));
    }
    let mut fork = fork.ok_or("no fork")?;
    for (tick, input) in inputs.iter().enumerate().skip(FORK_AT) {
        apply(&mut fork, input);
        if fork.checksum() != sums[tick] {
            return Err(format!("tick {}: the clone taken at tick {FORK_AT} diverged", tick + 1));
        }
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
    for seed in seeds {
        let (inputs, sums) = std::panic::catch_unwind(|| play(seed))
            .unwrap_or_else(|_| Err("the engine panicked (message above)".to_string()))
            .unwrap_or_else(|e| panic!("seed {seed} (SIM_SEED={seed}): {e}"));
        if seed.is_multiple_of(10) {
            let mut game = Carrots::new(settings(seed), SEATS, seed).expect("same setup");
            for (tick, input) in inputs.iter().enumerate() {
                apply(&mut game, input);
                assert_eq!(game.checksum(), sums[tick], "seed {seed}: the replay diverged at tick {}", tick + 1);
            }
        }
    }
}

/// `check_invariants` must itself reject broken states.
#[test]
fn invariants_reject_broken_states() {
    let p = snakepit_engine::Pos::new;
    let check = |bodies: Vec<Vec<snakepit_engine::Pos>>, apples: &[snakepit_engine::Pos]| {
        let s = Settings::from_pairs([("width", "8"), ("height", "8")]).expect("valid");
        let mut game = Carrots::new(s, 1, 1).expect("one seat");
        let snakes = bodies.into_iter().map(|b| Carrots::make_snake(b, Dir::Right)).collect();
        game.set_position(apples, snakes);
        game.check_invariants()
    };
    assert_eq!(check(vec![vec![p(2, 2), p(1, 2)], vec![p(5, 5)]], &[p(0, 0)]), Ok(()));
    assert!(check(vec![vec![p(2, 2), p(1, 2)], vec![p(1, 2), p(1, 3)]], &[]).is_err(), "shared cell");
    assert!(check(vec![vec![p(2, 2), p(0, 2)]], &[]).is_err(), "not contiguous");
    assert!(check(vec![vec![p(2, 2)]], &[p(2, 2)]).is_err(), "on an apple");
    assert!(check(vec![vec![]], &[]).is_err(), "alive without a body");

    // Dead snakes: a body lies on the board only with `bodies_stay`, and
    // no snake is still dead once its respawn is due.
    let dead = |stay: &str, died: u64, now: u64, body: Vec<snakepit_engine::Pos>| {
        let s = Settings::from_pairs([("width", "8"), ("height", "8"), ("respawn_ticks", "2"), ("bodies_stay", stay)])
            .expect("valid");
        let mut game = Carrots::new(s, 1, 1).expect("one seat");
        let mut snake = Carrots::make_snake(body, Dir::Right);
        snake.life = Life::Dead { tick: died };
        game.set_position(&[], vec![snake]);
        game.set_tick(now);
        game.check_invariants()
    };
    assert_eq!(dead("true", 5, 6, vec![p(2, 2), p(1, 2)]), Ok(()));
    assert_eq!(dead("false", 5, 6, vec![]), Ok(()));
    assert!(dead("false", 5, 6, vec![p(2, 2), p(1, 2)]).is_err(), "a body left on the board");
    assert!(dead("true", 5, 7, vec![p(2, 2), p(1, 2)]).is_err(), "dead past the respawn");
    assert!(dead("false", 5, 7, vec![]).is_err(), "dead past the respawn");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Relabelling the seats relabels the outcome and changes nothing else
    /// (`tests/seats/mod.rs`), on every tick of a random game in which
    /// players now and then leave or come back.
    #[test]
    fn seat_order_does_not_matter(seed in any::<u64>()) {
        let mut game = Carrots::new(settings(seed), SEATS, seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut rng = Rng::new(seed ^ 0x5ea7);
        for tick in 1..=200 {
            if rng.below(20) == 0 {
                let seat = rng.index(SEATS);
                game.set_present(seat, game.snakes()[seat].life == Life::Absent);
            }
            let actions = random_actions(&game, &mut rng);
            let drawn = |ev: &[Event]| ev.iter().filter_map(|e| match e { Event::Spawned { snake, at } => Some((*snake, *at)), _ => None }).collect();
            seats::step_checked(&mut game, &actions, &mut rng, drawn)
                .map_err(|e| TestCaseError::fail(format!("seed {seed}, tick {tick}: {e}")))?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn settings_round_trip(w in 2u32..=1000, h in 2u32..=1000, apples: u32, respawn in 1u32..100, stay: bool) {
        let (w, h, apples, respawn) = (w.to_string(), h.to_string(), apples.to_string(), respawn.to_string());
        let stay = if stay { "true" } else { "false" };
        let pairs = [
            ("width", w.as_str()),
            ("height", h.as_str()),
            ("apples_max", &apples),
            ("respawn_ticks", &respawn),
            ("bodies_stay", stay),
        ];
        let s = Settings::from_pairs(pairs).expect("valid");
        prop_assert_eq!(s.bodies_stay, stay == "true");
        let text = s.to_pairs();
        prop_assert_eq!(Settings::from_pairs(text.iter().map(|(k, v)| (*k, v.as_str()))), Ok(s));
    }

    #[test]
    fn settings_never_panic_on_junk(pairs in proptest::collection::vec(("[a-z_]{0,14}", "\\PC{0,8}"), 0..5)) {
        let _ = Settings::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    }

    #[test]
    fn action_text_is_canonical(text in "[-FURDLX]{0,2}|\\PC{0,4}") {
        if let Ok(a) = Action::from_text(&text) {
            prop_assert_eq!(a.to_text(), text);
        }
    }

    /// Any board size and any seat count that fits plays on with its
    /// invariants, even when the board fills up.
    #[test]
    fn any_board_plays(w in 2u32..12, h in 2u32..12, seats in 1usize..10, seed: u64, stay: bool) {
        let (ws, hs) = (w.to_string(), h.to_string());
        let stay = if stay { "true" } else { "false" };
        let pairs = [("width", ws.as_str()), ("height", hs.as_str()), ("apples_max", "50"), ("bodies_stay", stay)];
        let s = Settings::from_pairs(pairs).expect("valid");
        let seats = seats.min((w * h) as usize);
        let mut game = Carrots::new(s, seats, seed).expect("seats fit");
        let mut rng = Rng::new(seed);
        for _ in 0..80 {
            let actions = random_actions(&game, &mut rng);
            game.step(&actions);
            prop_assert_eq!(game.check_invariants(), Ok(()));
        }
    }
}
