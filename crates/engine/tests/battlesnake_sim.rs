//! Seeded simulation of Battlesnake: thousands of games over every ruleset,
//! board size and snake count, with every turn checked against the engine's
//! invariants and against the rules as seen from outside (each snake moved
//! one cell the way it was told, or repeated its last move; health and
//! length changed by exactly what its events say; eliminations, food and
//! game over match their events). Every game is then replayed from its seed
//! and moves, and forked in the middle, and must give the same checksums.
//!
//! A failure names its seed; `SIM_SEED=<seed>` runs just that game (the
//! variable is read here, in the test, never by the engine).

mod seats;

use proptest::prelude::*;
use snakepit_engine::battlesnake::{Action, Battlesnake, Event, HEALTH_MAX, Position, Ruleset, Settings, SnakeSetup};
use snakepit_engine::{Dir, Game, Pos, Rng};

/// Games per ruleset; with the board sizes below this keeps the file to a
/// few seconds in a debug build.
const SEEDS: u64 = 150;
/// A cap that no game reaches with these policies; it only guards the loop.
const TURNS_MAX: usize = 5_000;

/// How a seed's game is set up: board size, snakes and settings vary with
/// the seed so that every combination is met many times.
fn setup(ruleset: Ruleset, seed: u64) -> (Settings, usize) {
    let (w, h, max_snakes) = match seed % 5 {
        0 => (7, 7, 8),
        1 => (11, 11, 8),
        2 => (19, 19, 16),
        3 => (9, 5, 4),
        _ => (11, 11, 16),
    };
    let snakes = if ruleset == Ruleset::Solo { 1 } else { 1 + (seed as usize * 7) % max_snakes };
    let w = w.to_string();
    let h = h.to_string();
    let min_food = (seed % 4).to_string();
    let chance = ((seed * 13) % 60).to_string();
    let damage = (seed % 30).to_string();
    let shrink = (1 + seed % 10).to_string();
    let pairs = [
        ("name", ruleset.name()),
        ("width", w.as_str()),
        ("height", h.as_str()),
        ("minimumFood", min_food.as_str()),
        ("foodSpawnChance", chance.as_str()),
        ("hazardDamagePerTurn", damage.as_str()),
        ("shrinkEveryNTurns", shrink.as_str()),
    ];
    (Settings::from_pairs(pairs).expect("valid settings"), snakes)
}

/// Mostly safe-random, sometimes any direction, sometimes no answer.
fn actions(game: &Battlesnake, rng: &mut Rng) -> Vec<Action> {
    (0..game.seats())
        .map(|seat| {
            let roll = rng.below(100);
            let safe = game.safe_moves(seat);
            if roll < 5 {
                None
            } else if roll < 10 || safe.is_empty() {
                Some(Dir::ALL[rng.index(4)])
            } else {
                safe.nth(rng.index(safe.len()))
            }
        })
        .collect()
}

/// What the checks need of the state before a turn.
struct Before {
    heads: Vec<Pos>,
    health: Vec<i32>,
    len: Vec<u32>,
    alive: Vec<bool>,
    last: Vec<Dir>,
    bodies: Vec<Vec<Pos>>,
    over: bool,
}

impl Before {
    fn of(game: &Battlesnake) -> Before {
        let snakes = game.snakes();
        Before {
            heads: (0..snakes.len()).map(|i| game.head(i)).collect(),
            health: snakes.iter().map(|s| s.health).collect(),
            len: snakes.iter().map(|s| s.len).collect(),
            alive: snakes.iter().map(|s| s.is_alive()).collect(),
            last: snakes.iter().map(|s| s.last_move).collect(),
            bodies: (0..snakes.len()).map(|i| game.body(i).collect()).collect(),
            over: game.is_over(),
        }
    }
}

/// The cell a move leads to on this board.
fn moved(game: &Battlesnake, from: Pos, d: Dir) -> Pos {
    let p = from.step(d);
    if game.settings().ruleset().wraps() {
        Pos::new(p.x.rem_euclid(game.width()), p.y.rem_euclid(game.height()))
    } else {
        p
    }
}

/// Checks one turn's events against the states before and after it.
fn check_turn(before: &Before, game: &Battlesnake, hazards_before: &[Pos], actions: &[Action], events: &[Event]) -> Result<(), String> {
    game.check_invariants()?;
    let settings = game.settings();
    let ruleset = settings.ruleset();
    if before.over {
        if events.is_empty() && before.heads.iter().enumerate().all(|(i, &h)| game.head(i) == h) {
            return Ok(());
        }
        return Err("a finished game changed".into());
    }
    let ate = |seat| events.iter().any(|e| matches!(e, Event::Ate { snake, .. } if *snake == seat));
    for (seat, s) in game.snakes().iter().enumerate() {
        if !before.alive[seat] {
            if s.is_alive() {
                return Err(format!("snake {seat} came back"));
            }
            continue;
        }
        // The move: as told, or the last one, with an event saying so.
        let defaulted = events.iter().any(|e| matches!(e, Event::DefaultMove { snake, dir } if *snake == seat && *dir == before.last[seat]));
        let dir = match actions[seat] {
            Some(d) => d,
            None if defaulted => before.last[seat],
            None => return Err(format!("snake {seat} gave no move and no DefaultMove event says what it did")),
        };
        if game.head(seat) != moved(game, before.heads[seat], dir) || s.last_move != dir {
            return Err(format!("snake {seat} did not move {dir:?} from {}", before.heads[seat]));
        }
        let eliminated = events.iter().find_map(|e| match e {
            Event::Eliminated { snake, cause } if *snake == seat => Some(*cause),
            _ => None,
        });
        match (eliminated, s.eliminated) {
            (None, None) => {}
            (Some(c), Some(e)) if e.cause == c && e.turn == game.turn() => continue,
            (event, state) => return Err(format!("snake {seat}: elimination event {event:?}, state {state:?}")),
        }
        // Health and length, for snakes still in.
        let in_hazard = hazards_before.contains(&game.head(seat));
        let health = if ate(seat) || !ruleset.has_food() {
            HEALTH_MAX
        } else if in_hazard {
            (before.health[seat] - 1 - settings.hazard_damage_per_turn()).clamp(0, HEALTH_MAX)
        } else {
            before.health[seat] - 1
        };
        if s.health != health {
            return Err(format!("snake {seat} has health {}, expected {health}", s.health));
        }
        // Food grows a snake by one. A constrictor grows every turn, unless
        // its tail is still stacked after the move (the start position).
        let body = &before.bodies[seat];
        let n = body.len();
        let growth = if ruleset.has_food() {
            u32::from(ate(seat))
        } else {
            u32::from(!(n >= 3 && body[n - 2] == body[n - 3]))
        };
        if s.len != before.len[seat] + growth {
            return Err(format!("snake {seat} has length {}, expected {}", s.len, before.len[seat] + growth));
        }
    }
    if !ruleset.has_food() && game.food_count() > 0 {
        return Err("food in a constrictor game".into());
    }
    let over_events: Vec<&Event> = events.iter().filter(|e| matches!(e, Event::GameOver { .. })).collect();
    match (game.is_over(), over_events.as_slice()) {
        (false, []) => {}
        (true, [Event::GameOver { winner }]) if *winner == game.winner() => {}
        (over, evs) => return Err(format!("over {over} but game-over events {evs:?}")),
    }
    if let Some(w) = game.winner() {
        let scores = game.scores();
        if scores.iter().enumerate().any(|(i, &s)| i != w && s >= scores[w]) {
            return Err(format!("the winner {w} does not have the best score: {scores:?}"));
        }
    }
    Ok(())
}

/// Plays one game, checking every turn; returns its moves and checksums.
fn play(ruleset: Ruleset, seed: u64) -> Result<(Vec<Vec<Action>>, Vec<u64>), String> {
    let (settings, snakes) = setup(ruleset, seed);
    let mut game = Battlesnake::new(settings, snakes, seed).map_err(|e| format!("cannot start: {e}"))?;
    game.check_invariants()?;
    let mut rng = Rng::new(seed ^ 0xb5);
    let (mut moves, mut sums) = (Vec::new(), Vec::new());
    let mut over_for = 0;
    for _ in 0..TURNS_MAX {
        let acts = actions(&game, &mut rng);
        let before = Before::of(&game);
        let hazards: Vec<Pos> = game.hazards().collect();
        let events = game.step(&acts);
        check_turn(&before, &game, &hazards, &acts, &events).map_err(|e| format!("turn {}: {e}", game.turn()))?;
        moves.push(acts);
        sums.push(game.checksum());
        // Two turns past the end show that a finished game stands still.
        if game.is_over() {
            over_for += 1;
            if over_for > 2 {
                return Ok((moves, sums));
            }
        }
    }
    Err(format!("no end after {TURNS_MAX} turns"))
}

/// Re-plays recorded moves and compares checksums, from the start and from
/// a clone made halfway.
fn replays_identically(ruleset: Ruleset, seed: u64, moves: &[Vec<Action>], sums: &[u64]) -> Result<(), String> {
    let (settings, snakes) = setup(ruleset, seed);
    let mut game = Battlesnake::new(settings, snakes, seed).map_err(|e| e.to_string())?;
    let mut fork = None;
    for (t, (m, &sum)) in moves.iter().zip(sums).enumerate() {
        if t == moves.len() / 2 {
            fork = Some((t, game.clone()));
        }
        game.step(m);
        if game.checksum() != sum {
            return Err(format!("replay differs at turn {}", t + 1));
        }
    }
    let (start, mut fork) = fork.ok_or("no fork")?;
    for (t, (m, &sum)) in moves.iter().zip(sums).enumerate().skip(start) {
        fork.step(m);
        if fork.checksum() != sum {
            return Err(format!("fork differs at turn {}", t + 1));
        }
    }
    Ok(())
}

// The ban on reading the environment is for the engine; a test choosing
// which seed to rerun is outside it.
#[allow(clippy::disallowed_methods)]
fn seeds() -> Vec<u64> {
    match std::env::var("SIM_SEED") {
        Ok(s) => vec![s.parse().expect("SIM_SEED is a number")],
        Err(_) => (0..SEEDS).collect(),
    }
}

fn simulate(ruleset: Ruleset) {
    let mut turns = 0;
    for seed in seeds() {
        let run = play(ruleset, seed).and_then(|(moves, sums)| {
            replays_identically(ruleset, seed, &moves, &sums)?;
            Ok(moves.len())
        });
        match run {
            Ok(n) => turns += n,
            Err(e) => panic!("{ruleset} seed {seed} (SIM_SEED={seed}): {e}"),
        }
    }
    assert!(turns > 0);
}

/// The checksum of a state after one change to one of its parts: every
/// part a replay must re-create is in it, in both checksum functions
/// (today's and the one of rules versions 1 to 4).
#[test]
fn every_part_of_the_state_is_in_the_checksum() {
    let settings = Settings::from_pairs([("name", "royale"), ("width", "7"), ("height", "7")]).unwrap();
    let snake = |body: &[(i32, i32)], health: i32| SnakeSetup {
        body: body.iter().map(|&(x, y)| Pos::new(x, y)).collect(),
        health,
        last_move: None,
    };
    let base = Position {
        turn: 5,
        snakes: vec![snake(&[(1, 1), (1, 2), (1, 3), (1, 4), (1, 5)], 50), snake(&[(5, 5), (5, 4), (5, 3)], 80)],
        food: vec![Pos::new(3, 3)],
        hazards: vec![Pos::new(0, 0)],
    };
    let sums = |p: &Position, seed: u64| {
        let g = Battlesnake::from_position(settings, seed, p).unwrap();
        (g.checksum(), g.checksum_as_of("4"))
    };
    let start = sums(&base, 1);
    assert_eq!(start, sums(&base.clone(), 1), "the same state, the same checksums");
    assert_ne!(start.0, start.1, "two functions");
    let mut changed: Vec<(&str, Position)> = Vec::new();
    let mut with = |what, f: &dyn Fn(&mut Position)| {
        let mut p = base.clone();
        f(&mut p);
        changed.push((what, p));
    };
    with("turn", &|p| p.turn = 6);
    with("health", &|p| p.snakes[1].health = 79);
    with("a body cell", &|p| p.snakes[0].body[4] = Pos::new(2, 4));
    with("the length", &|p| p.snakes[0].body.truncate(4));
    with("a stacked tail", &|p| p.snakes[0].body[4] = Pos::new(1, 4));
    with("the last move", &|p| p.snakes[1].last_move = Some(Dir::Left));
    with("food", &|p| p.food.push(Pos::new(3, 0)));
    with("a hazard", &|p| p.hazards.push(Pos::new(6, 6)));
    with("the seats' order", &|p| p.snakes.swap(0, 1));
    for (what, p) in &changed {
        let (new, old) = sums(p, 1);
        assert_ne!(new, start.0, "{what}: today's checksum");
        assert_ne!(old, start.1, "{what}: the checksum of version 4");
    }
}

#[test]
fn standard_games() {
    simulate(Ruleset::Standard);
}

#[test]
fn solo_games() {
    simulate(Ruleset::Solo);
}

#[test]
fn royale_games() {
    simulate(Ruleset::Royale);
}

#[test]
fn wrapped_games() {
    simulate(Ruleset::Wrapped);
}

#[test]
fn constrictor_games() {
    simulate(Ruleset::Constrictor);
}

#[test]
fn wrapped_constrictor_games() {
    simulate(Ruleset::WrappedConstrictor);
}

#[test]
fn every_elimination_cause_occurs() {
    // The policies must reach every rule, or the checks above prove little.
    let mut seen = std::collections::BTreeSet::new();
    for ruleset in [Ruleset::Standard, Ruleset::Royale] {
        for seed in 0..60 {
            let (settings, snakes) = setup(ruleset, seed);
            let mut game = Battlesnake::new(settings, snakes, seed).unwrap();
            let mut rng = Rng::new(seed);
            while !game.is_over() {
                let acts = actions(&game, &mut rng);
                for e in game.step(&acts) {
                    if let Event::Eliminated { cause, .. } = e {
                        seen.insert(cause.official_name());
                    }
                }
            }
        }
    }
    let all = ["out-of-health", "hazard", "wall-collision", "snake-self-collision", "snake-collision", "head-collision"];
    assert_eq!(seen, all.into_iter().collect(), "not every cause happened");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Relabelling the seats relabels the outcome and changes nothing else
    /// (`tests/seats/mod.rs`), on every turn of a random game of each
    /// ruleset. (`setup` multiplies the seed, so it stays small.)
    #[test]
    fn seat_order_does_not_matter(seed in 0..1u64 << 40) {
        for ruleset in [Ruleset::Standard, Ruleset::Royale, Ruleset::Wrapped, Ruleset::Constrictor, Ruleset::WrappedConstrictor] {
            let (settings, snakes) = setup(ruleset, seed);
            let mut game = Battlesnake::new(settings, snakes, seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let mut rng = Rng::new(seed ^ 0x5ea7);
            for _ in 0..300 {
                if game.is_over() {
                    break;
                }
                let acts = actions(&game, &mut rng);
                seats::step_checked(&mut game, &acts, &mut rng, seats::no_draws)
                    .map_err(|e| TestCaseError::fail(format!("{ruleset:?}, seed {seed}, turn {}: {e}", game.turn())))?;
            }
        }
    }
}

proptest! {
    #[test]
    fn action_text_round_trips(d in proptest::option::of(0usize..4)) {
        let a: Action = d.map(|i| Dir::ALL[i]);
        let text = <Battlesnake as Game>::action_to_text(&a);
        prop_assert_eq!(<Battlesnake as Game>::action_from_text(&text), Ok(a));
    }

    #[test]
    fn action_text_rejects_junk(s in "\\PC{0,4}") {
        if !matches!(s.as_str(), "U" | "R" | "D" | "L" | "-") {
            prop_assert!(<Battlesnake as Game>::action_from_text(&s).is_err());
        }
    }

    #[test]
    fn settings_round_trip(w in 1u32..=64, h in 1u32..=64, food in 0u32..50, chance in 0u32..=100, dmg in -100i32..=100, every in 1u32..100, r in 0usize..6) {
        let (w, h, food, chance, dmg, every) = (w.to_string(), h.to_string(), food.to_string(), chance.to_string(), dmg.to_string(), every.to_string());
        let s = Settings::from_pairs([
            ("name", Ruleset::ALL[r].name()), ("width", &w), ("height", &h), ("minimumFood", &food),
            ("foodSpawnChance", &chance), ("hazardDamagePerTurn", &dmg), ("shrinkEveryNTurns", &every),
        ]).unwrap();
        let pairs = s.to_pairs();
        prop_assert_eq!(Settings::from_pairs(pairs.iter().map(|(k, v)| (*k, v.as_str()))), Ok(s));
    }
}
