//! Seeded simulation of Hex: random players move, join and leave in many
//! games, and every tick is checked against the engine's invariants, against
//! its own events, and against what the moves given should have done. A
//! re-run from the recorded moves and a mid-game clone must give the same
//! checksums. Property tests cover the text forms and the map parser.
//!
//! A failure names its seed and tick; `SIM_SEED=<seed>` runs just that game
//! (the variable is read here, in the test, never by the engine).

mod seats;

use proptest::prelude::*;
use snakepit_engine::hex::{Action, Cell, Event, Hex, Ignored, Map, Restart, ScoreReason, Settings};
use snakepit_engine::{Dir, Game, Pos, Rng};

/// Games and their length: 3 to 5 s in a debug build on two idle cores.
const SEEDS: u64 = 120;
const TICKS: usize = 400;
/// Where each game is cloned and the clone played on beside it.
const FORK_AT: usize = 300;

/// A 9x9 field with inner walls, crowded enough for walls, restarts and
/// full boards to happen often.
const SMALL_MAP: &str = "\
☼☼☼☼☼☼☼☼☼
☼       ☼
☼  ☼    ☼
☼       ☼
☼    ☼☼ ☼
☼       ☼
☼ ☼     ☼
☼       ☼
☼☼☼☼☼☼☼☼☼
";

/// Settings and map of a seed's game: maps and profiles alternate, and the
/// field size varies.
fn setup(seed: u64) -> (Settings, Map, usize) {
    let profile = if seed % 3 == 2 { "codenjoy" } else { "seed" };
    // One player alone fills the board: that is where full-board restarts
    // come from.
    let players = if seed.is_multiple_of(5) { 1 } else { 2 + (seed % 10) as usize };
    let per_field = players.to_string();
    // Still fields are rare among random movers: a short count in a
    // quarter of the games makes the rule fire.
    let still = (1 + seed % 3).to_string();
    let mut pairs = vec![("profile", profile), ("players_per_field", per_field.as_str())];
    if seed % 4 == 1 {
        pairs.push(("still_restart_ticks", still.as_str()));
    }
    let settings = Settings::from_pairs(pairs).expect("valid settings");
    let map = if seed.is_multiple_of(2) && players > 1 {
        Map::default_map()
    } else {
        Map::parse(SMALL_MAP).expect("the small map parses")
    };
    (settings, map, players)
}

/// What a tick's driver does besides moving: seats change hands.
#[derive(Clone, Copy, Debug)]
enum Presence {
    Join,
    Leave(usize),
}

/// Random moves for every seat, as bots could send them: often a move that
/// can be made; as often a move of one of their own pieces in any
/// direction, clone or jump (many of them blocked); sometimes nothing, a
/// cell that is not theirs, or one off the board.
fn random_actions(game: &Hex, rng: &mut Rng) -> Vec<Action> {
    let n = game.size() as i32;
    (0..game.seats())
        .map(|seat| {
            let dir = Dir::ALL[rng.index(4)];
            let jump = rng.below(3) == 0;
            let from = match rng.below(20) {
                0..=1 => return Action::Skip,
                2 => Pos::new(rng.below(n as u64) as i32, rng.below(n as u64) as i32),
                3 => Pos::new(rng.below(n as u64 + 6) as i32 - 3, -1 - rng.below(3) as i32),
                4..=11 => {
                    // A move that can be made, as a sensible bot would pick.
                    let valid: Vec<Action> = game
                        .pieces_of(seat)
                        .into_iter()
                        .flat_map(|from| {
                            Dir::ALL.into_iter().flat_map(move |dir| [false, true].map(|jump| Action::Move { from, dir, jump }))
                        })
                        .filter(|a| a.target().is_some_and(|t| game.cell(t) == Cell::Empty))
                        .collect();
                    return if valid.is_empty() { Action::Skip } else { valid[rng.index(valid.len())] };
                }
                _ => {
                    let mine = game.pieces_of(seat);
                    if mine.is_empty() {
                        return Action::Skip;
                    }
                    mine[rng.index(mine.len())]
                }
            };
            Action::Move { from, dir, jump }
        })
        .collect()
}

/// Occasionally a player leaves or a new one joins.
fn random_presence(game: &Hex, rng: &mut Rng) -> Option<Presence> {
    match rng.below(100) {
        0 => Some(Presence::Join),
        1 => {
            let present: Vec<usize> = (0..game.seats()).filter(|&s| game.players()[s].present).collect();
            // The last player stays, so that a lone player gets to fill the
            // board.
            (present.len() > 1).then(|| Presence::Leave(present[rng.index(present.len())]))
        }
        _ => None,
    }
}

fn apply(game: &mut Hex, p: Option<Presence>) {
    match p {
        Some(Presence::Join) => {
            game.join();
        }
        Some(Presence::Leave(seat)) => game.leave(seat),
        None => {}
    }
}

/// What a move should do on the position before the tick, once the pieces
/// of seats that left are gone, if no restart intervenes: `Ok(target)` or
/// the reason it is ignored.
fn expected(before: &Hex, seat: usize, action: Action) -> Option<Result<usize, Ignored>> {
    let Action::Move { from, .. } = action else { return None };
    if before.cell(from) != Cell::Piece(seat) {
        return Some(Err(Ignored::NotYourPiece));
    }
    let to = action.target().expect("a move has a target");
    Some(match before.map().index(to) {
        None => Err(Ignored::OffBoard),
        Some(i) => match before.cells()[i] {
            Cell::Empty => Ok(i),
            Cell::Wall => Err(Ignored::Wall),
            // The pieces of a seat that left go before the moves are read.
            Cell::Piece(s) if !before.players()[s].placed => Ok(i),
            Cell::Piece(_) => Err(Ignored::Occupied),
        },
    })
}

/// Checks one tick's events against the states before and after it and the
/// actions given. `before` is the state after the presence change.
fn check_tick(before: &Hex, after: &Hex, actions: &[Action], events: &[Event]) -> Result<(), String> {
    after.check_invariants()?;
    let seats = after.seats();
    let restarted = events.iter().any(|e| matches!(e, Event::Restarted { .. }));
    // The still count follows the cells, and so does its restart.
    let someone = after.players().iter().any(|p| p.present);
    let still_want = if restarted || before.cells() != after.cells() || !someone { 0 } else { before.still_ticks() + 1 };
    if after.still_ticks() != still_want {
        return Err(format!("still for {} ticks, expected {still_want}", after.still_ticks()));
    }
    // Piece counts replayed from the events.
    let mut count: Vec<i64> = before.players().iter().map(|p| i64::from(p.pieces)).collect();
    count.resize(seats, 0);
    let (mut gained, mut lost) = (vec![0u32; seats], vec![0u32; seats]);
    let mut score: Vec<i64> = before.players().iter().map(|p| p.score).collect();
    score.resize(seats, 0);
    let (w, l) = (after.settings().points_win, after.settings().points_lose);
    for e in events {
        match *e {
            Event::Left { seat, pieces } => count[seat] -= i64::from(pieces),
            Event::Restarted { ref reason } => {
                // Every seat without pieces is named, none other.
                if let Restart::NoPieces(seats) = reason {
                    let players = before.players();
                    let qualify: Vec<usize> =
                        (0..players.len()).filter(|&s| players[s].present && players[s].placed && players[s].pieces == 0).collect();
                    if *seats != qualify {
                        return Err(format!("restart names seats {seats:?}, but {qualify:?} had no pieces"));
                    }
                }
                let limit = before.settings().still_restart_ticks;
                if *reason == Restart::Still && (limit == 0 || before.still_ticks() < limit) {
                    return Err(format!("a still restart after {} still ticks (limit {limit})", before.still_ticks()));
                }
                count.iter_mut().for_each(|c| *c = 0);
            }
            Event::Cloned { seat, to, .. } => {
                count[seat] += 1;
                gained[seat] += 1;
                if after.cell(to) != Cell::Piece(seat) {
                    return Err(format!("seat {seat} cloned to {to}, which now holds {:?}", after.cell(to)));
                }
            }
            Event::Jumped { seat, from, to } => {
                if after.cell(to) != Cell::Piece(seat) {
                    return Err(format!("seat {seat} jumped to {to}, which now holds {:?}", after.cell(to)));
                }
                if after.cell(from) == Cell::Piece(seat) {
                    // A jump leaves its cell empty: moves into it were
                    // blocked, captures only turn pieces, and a placement is
                    // another seat's.
                    return Err(format!("seat {seat} jumped from {from}, which still holds its piece"));
                }
            }
            Event::JumpLost { seat, .. } => {
                count[seat] -= 1;
                lost[seat] += 1;
            }
            Event::WallFormed { at, ref seats } => {
                if after.cell(at) != Cell::Wall || seats.len() < 2 {
                    return Err(format!("wall at {at} by {seats:?}, but the cell is {:?}", after.cell(at)));
                }
            }
            Event::Captured { seat, victim, at } => {
                count[seat] += 1;
                count[victim] -= 1;
                gained[seat] += 1;
                lost[victim] += 1;
                if seat == victim || after.cell(at) != Cell::Piece(seat) {
                    return Err(format!("seat {seat} captured {at} from {victim}, now {:?}", after.cell(at)));
                }
            }
            Event::Scored { seat, reason, pieces, points } => {
                let (want, per) = match reason {
                    ScoreReason::Gained => (gained[seat], w),
                    ScoreReason::Lost => (lost[seat], -l),
                };
                if pieces != want || points != per * i64::from(pieces) {
                    return Err(format!("seat {seat} scored {points} for {pieces} {reason:?}, expected {want}"));
                }
                score[seat] = (score[seat] + points).max(0);
            }
            Event::Placed { seat, at } => {
                count[seat] += 1;
                if after.cell(at) != Cell::Piece(seat) {
                    return Err(format!("seat {seat} placed at {at}, which holds {:?}", after.cell(at)));
                }
            }
            Event::Ignored { .. } | Event::Neutralised { .. } | Event::NoRoom { .. } => {}
        }
    }
    for seat in 0..seats {
        let p = &after.players()[seat];
        if count[seat] != i64::from(p.pieces) {
            return Err(format!("seat {seat}: the events add up to {} pieces, it has {}", count[seat], p.pieces));
        }
        if score[seat] != p.score {
            return Err(format!("seat {seat}: the events add up to score {}, it has {}", score[seat], p.score));
        }
        let moved_gained = gained[seat] > 0 || lost[seat] > 0;
        let scored = events.iter().any(|e| matches!(e, Event::Scored { seat: s, .. } if *s == seat));
        if moved_gained != scored {
            return Err(format!("seat {seat}: gained {} lost {} but scored: {scored}", gained[seat], lost[seat]));
        }
    }
    // Every move did what the position before the tick says it should.
    for (seat, &action) in actions.iter().enumerate().take(before.seats()) {
        if !before.players()[seat].present {
            continue;
        }
        let Some(want) = expected(before, seat, action) else { continue };
        let ignored = events.iter().find_map(|e| match e {
            Event::Ignored { seat: s, why, action: a } if *s == seat => Some((*why, *a)),
            _ => None,
        });
        let made = events.iter().any(|e| match e {
            Event::Cloned { seat: s, .. } | Event::Jumped { seat: s, .. } => *s == seat,
            Event::WallFormed { seats, .. } => seats.contains(&seat),
            _ => false,
        });
        let ok = match (restarted, want) {
            (true, _) => ignored == Some((Ignored::Restart, action)) && !made,
            (false, Ok(_)) => ignored.is_none() && made,
            (false, Err(why)) => ignored == Some((why, action)) && !made,
        };
        if !ok {
            return Err(format!("seat {seat}: {action:?} should be {want:?} (restart: {restarted}), got {ignored:?}"));
        }
    }
    Ok(())
}

/// One tick's input: a presence change, then the moves.
type Script = Vec<(Option<Presence>, Vec<Action>)>;

/// Plays one seed's game; returns the checksums after every tick, the
/// moves and presence changes, and counts of interesting events.
fn play(seed: u64) -> (Vec<u64>, Script, [u32; 6]) {
    let (settings, map, players) = setup(seed);
    let mut game = Hex::new(settings, map, players / 2, seed).expect("the game starts");
    let mut rng = Rng::new(seed ^ 0x9e37_79b9);
    let mut sums = Vec::with_capacity(TICKS);
    let mut script = Vec::with_capacity(TICKS);
    let mut seen = [0u32; 6];
    let mut fork: Option<Hex> = None;
    for tick in 1..=TICKS {
        // The first ticks fill the field.
        let presence = if tick <= players { Some(Presence::Join) } else { random_presence(&game, &mut rng) };
        apply(&mut game, presence);
        let actions = random_actions(&game, &mut rng);
        let before = game.clone();
        let events = game.step(&actions);
        if let Err(e) = check_tick(&before, &game, &actions, &events) {
            panic!("seed {seed} (SIM_SEED={seed}) tick {tick}: {e}\nevents: {events:#?}");
        }
        for e in &events {
            match e {
                Event::Captured { .. } => seen[0] += 1,
                Event::WallFormed { .. } => seen[1] += 1,
                Event::Restarted { reason: Restart::BoardFull } => seen[2] += 1,
                Event::Restarted { reason: Restart::Still } => seen[5] += 1,
                Event::Restarted { reason: Restart::NoPieces(_) } => seen[3] += 1,
                Event::Neutralised { .. } => seen[4] += 1,
                _ => {}
            }
        }
        if let Some(f) = &mut fork {
            apply(f, presence);
            f.step(&actions);
            assert_eq!(f.checksum(), game.checksum(), "seed {seed} tick {tick}: the fork diverged");
        }
        if tick == FORK_AT {
            fork = Some(game.clone());
        }
        sums.push(game.checksum());
        script.push((presence, actions));
    }
    (sums, script, seen)
}

// The test, not the engine, reads the environment.
#[allow(clippy::disallowed_methods)]
fn seeds() -> Vec<u64> {
    match std::env::var("SIM_SEED") {
        Ok(s) => vec![s.parse().expect("SIM_SEED is a number")],
        Err(_) => (0..SEEDS).collect(),
    }
}

// The test, not the engine, prints how often each rule was reached.
#[allow(clippy::disallowed_macros)]
#[test]
fn seeded_games_keep_invariants_and_replay() {
    let seeds = seeds();
    // Two halves on two threads: the games are independent.
    let halves: Vec<Vec<u64>> = vec![seeds.iter().copied().step_by(2).collect(), seeds.iter().copied().skip(1).step_by(2).collect()];
    let totals: Vec<[u32; 6]> = std::thread::scope(|scope| {
        let handles: Vec<_> = halves
            .iter()
            .map(|half| {
                scope.spawn(move || {
                    let mut total = [0u32; 6];
                    for &seed in half {
                        let (sums, script, seen) = play(seed);
                        // Re-run from the setup and the recorded moves, sent
                        // through their replay text.
                        let (settings, map, players) = setup(seed);
                        let mut again = Hex::new(settings, map, players / 2, seed).expect("the game starts");
                        for (tick, (presence, actions)) in script.iter().enumerate() {
                            apply(&mut again, *presence);
                            let text: Vec<String> = actions.iter().map(Hex::action_to_text).collect();
                            let back: Vec<Action> =
                                text.iter().map(|t| Hex::action_from_text(t).expect("round trip")).collect();
                            assert_eq!(&back, actions);
                            again.step(&back);
                            assert_eq!(again.checksum(), sums[tick], "seed {seed} tick {}: re-run diverged", tick + 1);
                        }
                        for (t, s) in total.iter_mut().zip(seen) {
                            *t += s;
                        }
                    }
                    total
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a simulation thread panicked")).collect()
    });
    let seen: Vec<u32> = (0..6).map(|i| totals.iter().map(|t| t[i]).sum()).collect();
    if seeds.len() > 1 {
        // The games must actually reach the interesting rules.
        let names = ["captures", "walls", "full-board restarts", "no-piece restarts", "neutralised pieces", "still restarts"];
        for (name, n) in names.iter().zip(&seen) {
            assert!(*n >= 20, "only {n} {name} in all games: {seen:?}");
            eprintln!("{n} {name}");
        }
    }
}

#[test]
fn checksums_depend_on_the_seed() {
    let (a, _, _) = play(4);
    let (b, _, _) = play(6);
    assert_ne!(a.last(), b.last());
}

fn any_action() -> impl Strategy<Value = Action> {
    prop_oneof![
        Just(Action::Skip),
        (any::<i32>(), any::<i32>(), 0..4usize, any::<bool>())
            .prop_map(|(x, y, d, jump)| Action::Move { from: Pos::new(x, y), dir: Dir::ALL[d], jump }),
    ]
}

/// Moves around the small map, a cell beyond its edges included, so that
/// many of them name real pieces.
fn small_action() -> impl Strategy<Value = Action> {
    prop_oneof![
        1 => Just(Action::Skip),
        9 => (-1..10i32, -1..10i32, 0..4usize, any::<bool>())
            .prop_map(|(x, y, d, jump)| Action::Move { from: Pos::new(x, y), dir: Dir::ALL[d], jump }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Relabelling the seats relabels the outcome and changes nothing else
    /// (`tests/seats/mod.rs`), on every tick of a random game (both
    /// profiles, 1 to 11 players) in which players now and then join or
    /// leave.
    #[test]
    fn seat_order_does_not_matter(seed in any::<u64>()) {
        let (settings, map, players) = setup(seed);
        let mut game = Hex::new(settings, map, players, seed).expect("the game starts");
        let mut rng = Rng::new(seed ^ 0x5ea7_0bde);
        for tick in 1..=150 {
            if let Some(p) = random_presence(&game, &mut rng) {
                apply(&mut game, Some(p));
            }
            let actions = random_actions(&game, &mut rng);
            let drawn = |ev: &[Event]| ev.iter().filter_map(|e| match e { Event::Placed { seat, at } => Some((*seat, *at)), _ => None }).collect();
            seats::step_checked(&mut game, &actions, &mut rng, drawn)
                .map_err(|e| TestCaseError::fail(format!("seed {seed}, tick {tick}: {e}")))?;
        }
    }
}

proptest! {
    // 2000 cases each: the text forms are small and cheap to check.
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn action_text_round_trips(a in any_action()) {
        prop_assert_eq!(Action::from_text(&a.to_text()), Ok(a));
    }

    #[test]
    fn action_from_text_never_panics(text in "\\PC{0,12}") {
        if let Ok(a) = Action::from_text(&text) {
            // Exactly one spelling per action.
            prop_assert_eq!(a.to_text(), text);
        }
    }

    #[test]
    fn map_text_round_trips(size in 3usize..12, walls in proptest::collection::vec(any::<bool>(), 144)) {
        let mut text = String::new();
        for y in 0..size {
            for x in 0..size {
                // Cell [1,1] is always free, so that the map is valid.
                let wall = walls[y * 12 + x] && (x, y) != (1, 1);
                text.push(if wall { '☼' } else { ' ' });
            }
            text.push('\n');
        }
        let map = Map::parse(&text).expect("a valid map");
        prop_assert_eq!(map.size, size);
        prop_assert_eq!(map.to_text(), text);
    }

    #[test]
    fn map_parse_never_panics(text in "[☼ #\\n.a-z]{0,80}") {
        let _ = Map::parse(&text);
    }
}

proptest! {
    // 200 short games from arbitrary move lists: every tick keeps the
    // invariants whatever the moves are, off-board coordinates included.
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_moves_keep_invariants(
        seed in any::<u64>(),
        ticks in proptest::collection::vec(proptest::collection::vec(small_action(), 0..6), 1..30),
    ) {
        let map = Map::parse(SMALL_MAP).expect("the small map parses");
        let mut game = Hex::new(Settings::default(), map, 4, seed).expect("four seats fit");
        for actions in &ticks {
            let before = game.clone();
            let events = game.step(actions);
            prop_assert_eq!(check_tick(&before, &game, actions, &events), Ok(()));
        }
    }
}
