//! Seeded simulation of Multisnake: random bots play many games to their
//! end on generated and committed maps, and every turn is checked against
//! the engine's invariants and its own events. Replays and clones must
//! re-simulate the same checksums. Property tests cover the map parser, the
//! generator's symmetry, settings and the action text.
//!
//! A failure names its seed and turn; `SIM_SEED=<seed>` runs just that game
//! (the variable is read here, in the test, never by the engine).

mod seats;

use proptest::prelude::*;
use snakepit_engine::multisnake::{
    Action, EndReason, Event, MAPS, Map, MapSpec, Multisnake, Settings, Tile, builtin_map, generate,
};
use snakepit_engine::{Dir, Game, Rng};

const SEEDS: u64 = 120;

/// The map and settings of a seed: a committed map every fourth game, a
/// generated one otherwise, with T and the turn limit varied.
fn setup(seed: u64) -> (Settings, Map) {
    let mut rng = Rng::new(seed);
    let grow = (1 + rng.below(25)).to_string();
    // Every fifth game is cut short, so that turn limits occur too.
    let turns = if seed % 5 == 1 { 25 } else { 100 + rng.below(400) }.to_string();
    let settings = Settings::from_pairs([("grow_every", grow.as_str()), ("turns_max", &turns)]).expect("valid");
    let map = if seed.is_multiple_of(4) {
        let m = &MAPS[(seed / 4) as usize % MAPS.len()];
        builtin_map(m.name).expect("committed maps parse")
    } else {
        let players = [2, 4, 8][rng.index(3)];
        let side = 8 + rng.index(20);
        let height = if players == 2 { 6 + rng.index(20) } else { side };
        let spec = MapSpec {
            width: side,
            height,
            players,
            walls_percent: rng.below(20) as u32,
            plus: rng.below(6) as u32,
            minus: rng.below(4) as u32,
            snake_len: 1 + rng.below(4) as u32,
        };
        match generate(&spec, seed) {
            Ok(map) => map,
            Err(_) => generate(&MapSpec { walls_percent: 0, snake_len: 1, ..spec }, seed).expect("an open map fits"),
        }
    };
    (settings, map)
}

/// Most moves go to a tile that is free now (not a wall, no snake, not the
/// neck); a few go anywhere, answer nothing or forfeit.
fn random_actions(game: &Multisnake, rng: &mut Rng) -> Vec<Action> {
    let grid = game.grid();
    let mut taken = vec![false; grid.cells()];
    for s in game.snakes() {
        for &c in &s.body {
            taken[grid.index(c)] = true;
        }
    }
    game.snakes()
        .iter()
        .map(|s| {
            if !s.alive {
                return Action::Keep;
            }
            match rng.below(200) {
                0 => Action::Forfeit,
                1..=8 => Action::Keep,
                9..=14 => Action::Move(Dir::ALL[rng.index(4)]),
                _ => {
                    let ok: Vec<Dir> = Dir::ALL
                        .into_iter()
                        .filter(|&d| {
                            let t = grid.step(s.head(), d);
                            !taken[grid.index(t)] && game.tiles()[grid.index(t)] != Tile::Wall
                        })
                        .collect();
                    if ok.is_empty() { Action::Move(Dir::ALL[rng.index(4)]) } else { Action::Move(ok[rng.index(ok.len())]) }
                }
            }
        })
        .collect()
}

fn check_turn(before: &Multisnake, after: &Multisnake, events: &[Event]) -> Result<(), String> {
    if !cfg!(debug_assertions) {
        after.check_invariants()?;
    }
    let (was, now) = (before.scores(), after.scores());
    if was.iter().zip(&now).any(|(a, b)| b < a) {
        return Err(format!("scores fell from {was:?} to {now:?}"));
    }
    for (seat, (b, a)) in before.snakes().iter().zip(after.snakes()).enumerate() {
        let died = events.iter().filter(|e| matches!(e, Event::Died { snake, .. } if *snake == seat)).count();
        if (b.alive && !a.alive) != (died == 1) || died > 1 {
            return Err(format!("seat {seat}: alive {} -> {} with {died} Died events", b.alive, a.alive));
        }
        if !b.alive && a.body != b.body {
            return Err(format!("dead seat {seat} moved"));
        }
        let len_change = a.len() as i64 - b.len() as i64;
        let grew = events.iter().any(|e| matches!(e, Event::Grew { snake, .. } if *snake == seat));
        let shrank = events.iter().any(|e| matches!(e, Event::Shrank { snake, .. } if *snake == seat));
        let expected = match (grew, shrank) {
            (true, _) => 1,
            (_, true) => -1,
            _ => 0,
        };
        // A snake starved to nothing keeps its head: from 1 to 1.
        if b.alive && len_change != expected && !(b.len() == 1 && a.len() == 1 && !a.alive) {
            return Err(format!("seat {seat}: length {} -> {} but grew={grew} shrank={shrank}", b.len(), a.len()));
        }
    }
    let signs = |g: &Multisnake| g.tiles().iter().filter(|t| matches!(t, Tile::Plus | Tile::Minus)).count();
    let eaten: std::collections::BTreeSet<_> =
        events.iter().filter_map(|e| if let Event::Ate { at, .. } = e { Some(*at) } else { None }).collect();
    if signs(before) - signs(after) != eaten.len() {
        return Err(format!("{} signs went, {} tiles eaten", signs(before) - signs(after), eaten.len()));
    }
    let ended = events.iter().filter(|e| matches!(e, Event::Ended { .. })).count();
    if ended != usize::from(after.is_over()) {
        return Err(format!("{ended} Ended events, over: {}", after.is_over()));
    }
    Ok(())
}

/// A played game: every turn's actions, the checksum after every turn, and
/// how it ended.
struct Played {
    inputs: Vec<Vec<Action>>,
    sums: Vec<u64>,
    reason: EndReason,
}

fn play(seed: u64) -> Result<Played, String> {
    let (settings, map) = setup(seed);
    let mut game = Multisnake::new(settings, map.clone(), seed);
    game.check_invariants().map_err(|e| format!("after new: {e}"))?;
    if game.rows() != map.to_rows() {
        return Err("the first position is not drawn as the map".to_string());
    }
    let mut rng = Rng::new(seed ^ 0x3a7);
    let (mut inputs, mut sums) = (Vec::new(), Vec::new());
    while !game.is_over() {
        let actions = random_actions(&game, &mut rng);
        let before = game.clone();
        let events = game.step(&actions);
        check_turn(&before, &game, &events).map_err(|e| format!("turn {}: {e}\nevents: {events:?}", game.turn()))?;
        inputs.push(actions);
        sums.push(game.checksum());
    }
    let end = game.outcome().cloned().ok_or("over without an outcome")?;
    let places = game.places();
    for &w in &end.winners {
        if places[w] != 1 {
            return Err(format!("winner {w} has place {}", places[w]));
        }
    }
    let sum = game.checksum();
    game.step(&vec![Action::Forfeit; game.seats()]);
    if game.checksum() != sum {
        return Err("a step after the end changed the game".to_string());
    }
    Ok(Played { inputs, sums, reason: end.reason })
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
        let Played { inputs, sums, reason } = std::panic::catch_unwind(|| play(seed))
            .unwrap_or_else(|_| Err("the engine panicked (message above)".to_string()))
            .unwrap_or_else(|e| panic!("seed {seed} (SIM_SEED={seed}): {e}"));
        reasons[reason as usize] += 1;
        // The map's text rebuilds the same game, and a clone taken half
        // way has the same future.
        let (settings, map) = setup(seed);
        let map = Map::parse(&map.to_rows().join("\n")).expect("a map's rows parse");
        let mut game = Multisnake::new(settings, map, seed);
        let half = inputs.len() / 2;
        let mut fork = None;
        for (turn, actions) in inputs.iter().enumerate() {
            if turn == half {
                fork = Some(game.clone());
            }
            game.step(actions);
            assert_eq!(game.checksum(), sums[turn], "seed {seed}: replay diverged at turn {}", turn + 1);
        }
        let mut fork = fork.expect("a game has a turn");
        for (turn, actions) in inputs.iter().enumerate().skip(half) {
            fork.step(actions);
            assert_eq!(fork.checksum(), sums[turn], "seed {seed}: clone diverged at turn {}", turn + 1);
        }
    }
    if std::env::var("SIM_SEED").is_err() {
        assert!(reasons.iter().all(|&n| n > 0), "ends by last alive, all died, turn limit: {reasons:?}");
    }
}

/// `check_invariants` must itself reject broken states.
#[test]
fn invariants_reject_broken_states() {
    let map = Map::parse("#######\n#.>A..#\n#.....#\n#..B..#\n#######\n").expect("parses");
    let game = Multisnake::new(Settings::default(), map, 1);
    assert_eq!(game.check_invariants(), Ok(()));
    let mut dead_but_playing = game.clone();
    dead_but_playing.set_dead(0, 0);
    dead_but_playing.set_dead(1, 0);
    assert!(dead_but_playing.check_invariants().is_err(), "everyone dead and no end");
    let mut turned = game.clone();
    turned.set_dir(0, Dir::Up);
    assert!(turned.check_invariants().is_err(), "a direction that is not neck to head");
}

/// Map text: mostly map glyphs and line breaks, with some strangers.
fn map_text() -> impl Strategy<Value = String> {
    let glyph = prop_oneof![
        10 => Just('.'),
        3 => Just('#'),
        1 => Just('+'),
        1 => Just('-'),
        2 => Just('A'),
        2 => Just('B'),
        1 => Just('C'),
        1 => Just('D'),
        2 => Just('^'),
        2 => Just('>'),
        2 => Just('v'),
        2 => Just('<'),
        1 => Just('@'),
        1 => Just('\r'),
        1 => any::<char>(),
    ];
    (4..9usize, 4..9usize, 0..2usize).prop_flat_map(move |(w, h, slack)| {
        proptest::collection::vec(proptest::collection::vec(glyph.clone(), w..w + slack + 1), h..h + 1)
            .prop_map(|rows| rows.into_iter().map(|r| r.into_iter().collect::<String>() + "\n").collect::<String>())
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Relabelling the seats relabels the outcome and changes nothing else
    /// (`tests/seats/mod.rs`), on every turn of a random game.
    #[test]
    fn seat_order_does_not_matter(seed in any::<u64>()) {
        let (settings, map) = setup(seed);
        let mut game = Multisnake::new(settings, map, seed);
        let mut rng = Rng::new(seed ^ 0x5ea7);
        while !game.is_over() {
            let actions = random_actions(&game, &mut rng);
            seats::step_checked(&mut game, &actions, &mut rng, seats::no_draws)
                .map_err(|e| TestCaseError::fail(format!("seed {seed}, turn {}: {e}", game.turn())))?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn map_parse_never_panics(text in map_text()) {
        if let Ok(map) = Map::parse(&text) {
            prop_assert!([2, 4, 8].contains(&map.players()));
            let again = Map::parse(&map.to_rows().join("\n")).expect("to_rows parses");
            prop_assert_eq!(again, map.clone());
            let game = Multisnake::new(Settings::default(), map, 0);
            prop_assert_eq!(game.check_invariants(), Ok(()));
        }
    }

    #[test]
    fn map_parse_never_panics_on_any_text(text in "\\PC{0,200}") {
        let _ = Map::parse(&text);
    }

    #[test]
    fn settings_never_panic_on_junk(pairs in proptest::collection::vec(("[a-z_]{0,12}", "\\PC{0,8}"), 0..4)) {
        let _ = Settings::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    }

    #[test]
    fn settings_round_trip(t in 1u32..=25, turns in 1u32..) {
        let (t, turns) = (t.to_string(), turns.to_string());
        let s = Settings::from_pairs([("grow_every", t.as_str()), ("turns_max", &turns)]).expect("valid");
        let text = s.to_pairs();
        prop_assert_eq!(Settings::from_pairs(text.iter().map(|(k, v)| (*k, v.as_str()))), Ok(s));
    }

    #[test]
    fn action_text_is_canonical(text in "[-FURDL^]{0,2}|\\PC{0,4}") {
        if let Ok(a) = Action::from_text(&text) {
            prop_assert_eq!(a.to_text(), text);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Any spec generates a symmetric, connected, parseable map, or says it
    /// found no room; the same seed gives the same map.
    #[test]
    fn generator_is_symmetric_and_deterministic(
        players in prop_oneof![Just(2usize), Just(4), Just(8)],
        side in 5usize..40,
        height in 5usize..40,
        walls in 0u32..40,
        plus in 0u32..8,
        minus in 0u32..8,
        len in 1u32..6,
        seed: u64,
    ) {
        let height = if players == 2 { height } else { side };
        let spec = MapSpec { width: side, height, players, walls_percent: walls, plus, minus, snake_len: len };
        let Ok(map) = generate(&spec, seed) else { return Ok(()) };
        prop_assert_eq!(generate(&spec, seed), Ok(map.clone()));
        prop_assert_eq!(Map::parse(&map.to_rows().join("\n")), Ok(map.clone()));
        prop_assert_eq!(map.players(), players);
        // Every snake has snake 0's shape, turned or mirrored.
        for body in &map.snakes {
            prop_assert_eq!(body.len(), len as usize);
        }
        // 180 degrees is in every group: the tiles and the snakes' set of
        // cells are invariant under it.
        let grid = map.grid;
        let rot = |p: snakepit_engine::Pos| snakepit_engine::Pos::new(grid.width as i32 - 1 - p.x, grid.height as i32 - 1 - p.y);
        for i in 0..grid.cells() {
            prop_assert_eq!(map.tiles[i], map.tiles[grid.index(rot(grid.pos(i)))]);
        }
        let mut cells: Vec<_> = map.snakes.iter().flatten().copied().collect();
        let mut turned: Vec<_> = cells.iter().map(|&p| rot(p)).collect();
        cells.sort();
        turned.sort();
        prop_assert_eq!(cells, turned);
        let game = Multisnake::new(Settings::default(), map, seed);
        prop_assert_eq!(game.check_invariants(), Ok(()));
    }
}
