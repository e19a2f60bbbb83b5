//! What one SnakeBattle tick costs: `cargo bench -p snakepit-engine --bench tick`.
//!
//! Five snakes play on the default map with a "random-safe" policy: each
//! live snake picks at random among the moves that do not hit a wall, a
//! start floor, a stone or a snake. The moves come from engine state, which
//! no real bot sees, but they keep snakes alive and long, which is the
//! expensive case for the rules.
//!
//! The policy is not what is measured, so a whole game is played once before
//! the benchmarks run, keeping the state before every tick and the moves of
//! that tick. Each measured iteration takes a copy of one stored state
//! (copying is not timed) and steps it; iterations cycle through the game,
//! so the figure is an average over countdowns, fights, eating and round
//! ends as they occur. Only ticks of a running round are kept: a countdown
//! tick does almost nothing and would flatter the average.
//!
//! `step_and_render` adds the five per-player board strings that the server
//! sends every tick. The goal for it is at most 5 µs per tick.

use snakepit_engine::snakebattle::{Action, Item, Map, Phase, Settings, SnakeBattle, Terrain};
use snakepit_engine::{Dir, Game, Rng};
use snakepit_protocol::codenjoy::render_boards;
use std::sync::OnceLock;

fn main() {
    divan::main();
}

const SEATS: usize = 5;
const TICKS: usize = 3000;

/// The states before each recorded tick, and that tick's moves.
struct Recording {
    before: Vec<SnakeBattle>,
    moves: Vec<Vec<Action>>,
}

fn recording() -> &'static Recording {
    static RECORDING: OnceLock<Recording> = OnceLock::new();
    RECORDING.get_or_init(|| {
        let mut game = SnakeBattle::new(Settings::default(), Map::default_map(), SEATS, 1).expect("5 seats fit");
        let mut policy = Rng::new(2);
        let mut rec = Recording { before: Vec::new(), moves: Vec::new() };
        for _ in 0..TICKS {
            let moves = safe_moves(&game, &mut policy);
            if matches!(game.phase(), Phase::Running { .. }) {
                rec.before.push(game.clone());
                rec.moves.push(moves.clone());
            }
            game.step(&moves);
        }
        assert!(rec.before.len() > TICKS / 2, "most ticks should be running");
        rec
    })
}

fn safe_moves(game: &SnakeBattle, rng: &mut Rng) -> Vec<Action> {
    let map = game.map();
    let blocked = |p| {
        map.terrain_at(p) != Terrain::Empty
            || map.index(p).and_then(|i| game.items()[i]) == Some(Item::Stone)
            || game.snakes().iter().any(|s| s.alive && s.body.contains(&p))
    };
    game.snakes()
        .iter()
        .map(|s| {
            let Some(head) = s.head().filter(|_| s.is_playing()) else { return Action::default() };
            let safe: Vec<Dir> =
                Dir::ALL.into_iter().filter(|&d| d != s.dir.opposite() && !blocked(head.step(d))).collect();
            if safe.is_empty() { Action::default() } else { Action::go(safe[rng.index(safe.len())]) }
        })
        .collect()
}

/// Hands out the recorded ticks in order, round and round.
fn next_tick(cursor: &mut usize) -> (SnakeBattle, &'static [Action]) {
    let rec = recording();
    let k = *cursor % rec.before.len();
    *cursor += 1;
    (rec.before[k].clone(), &rec.moves[k])
}

/// The rules alone.
#[divan::bench(sample_count = 2000, sample_size = 8)]
fn step(bencher: divan::Bencher) {
    let mut cursor = 0;
    bencher.with_inputs(|| next_tick(&mut cursor)).bench_local_values(|(mut game, moves)| {
        let events = game.step(moves);
        // Returned, so that freeing them is not timed either.
        (game, events)
    });
}

/// The rules plus the five board strings sent to the players.
#[divan::bench(sample_count = 2000, sample_size = 8)]
fn step_and_render(bencher: divan::Bencher) {
    let mut cursor = 0;
    bencher.with_inputs(|| next_tick(&mut cursor)).bench_local_values(|(mut game, moves)| {
        let events = game.step(moves);
        let boards = render_boards(&game);
        (game, events, boards)
    });
}

/// The five board strings alone, for telling the two costs apart.
#[divan::bench(sample_count = 2000, sample_size = 8)]
fn render_only(bencher: divan::Bencher) {
    let mut cursor = 0;
    bencher.with_inputs(|| next_tick(&mut cursor).0).bench_local_refs(|game| render_boards(game));
}
