//! What a Battlesnake turn and a whole Battlesnake game cost:
//! `cargo bench -p snakepit-engine --bench battlesnake`.
//!
//! Both use the "safe-random" policy of the Battlesnake anchors: each snake
//! picks uniformly among the moves that neither leave the board nor enter a
//! body cell other than a tail ([`Battlesnake::safe_moves`]). The board is
//! the standard 11x11 with four snakes and the official settings.
//!
//! `step` measures the rules alone. Games are played once before the
//! benchmark, keeping the state before every turn and that turn's moves;
//! each measured iteration steps a copy of one stored state (the copy is not
//! timed, and the events go into a vector made beforehand, as a runner that
//! reuses one would). Iterations cycle through every recorded turn, so the
//! figure is an average over openings, eating, collisions and endings as
//! they occur. The goal is at most 0.27 µs.
//!
//! `whole_game` plays complete games from `Battlesnake::new` to game over,
//! policy included, a new seed per game, on one thread. Divan's `item/s` is
//! games per second; the goal is at least 30,000.

use snakepit_engine::battlesnake::{Action, Battlesnake, Event, Settings};
use snakepit_engine::{Game, Rng};
use std::sync::OnceLock;

// The benchmark, not the engine, prints what it recorded.
#[allow(clippy::disallowed_macros)]
fn main() {
    let rec = recording();
    eprintln!(
        "recorded {} turns of {} games ({:.1} turns a game)",
        rec.before.len(),
        rec.games,
        rec.before.len() as f64 / rec.games as f64
    );
    divan::main();
}

const SNAKES: usize = 4;
/// Turns kept for the step benchmark.
const TURNS: usize = 20_000;

/// The states before each recorded turn, and that turn's moves.
struct Recording {
    before: Vec<Battlesnake>,
    moves: Vec<Vec<Action>>,
    games: usize,
}

fn recording() -> &'static Recording {
    static RECORDING: OnceLock<Recording> = OnceLock::new();
    RECORDING.get_or_init(|| {
        let mut rec = Recording { before: Vec::new(), moves: Vec::new(), games: 0 };
        let mut policy = Rng::new(2);
        let mut seed = 0;
        while rec.before.len() < TURNS {
            seed += 1;
            rec.games += 1;
            let mut game = Battlesnake::new(Settings::default(), SNAKES, seed).expect("4 snakes fit on 11x11");
            let mut moves = Vec::new();
            while !game.is_over() {
                safe_random(&game, &mut policy, &mut moves);
                rec.before.push(game.clone());
                rec.moves.push(moves.clone());
                game.step(&moves);
            }
        }
        rec
    })
}

/// The safe-random policy: a uniform safe move, or none when there is none
/// (the snake then repeats its last move and is eliminated).
fn safe_random(game: &Battlesnake, rng: &mut Rng, out: &mut Vec<Action>) {
    out.clear();
    for seat in 0..game.seats() {
        let safe = game.safe_moves(seat);
        out.push(if safe.is_empty() { None } else { safe.nth(rng.index(safe.len())) });
    }
}

/// The rules alone: one turn of a recorded game.
#[divan::bench(sample_count = 4000, sample_size = 8)]
fn step(bencher: divan::Bencher) {
    let rec = recording();
    let mut cursor = 0;
    bencher
        .with_inputs(|| {
            let k = cursor % rec.before.len();
            cursor += 1;
            (rec.before[k].clone(), &rec.moves[k], Vec::<Event>::with_capacity(32))
        })
        .bench_local_values(|(mut game, moves, mut events)| {
            game.step_into(moves, &mut events);
            // Returned, so that dropping them is not timed.
            (game, events)
        });
}

/// Whole games with the safe-random policy, a new seed each.
#[divan::bench(sample_count = 200, sample_size = 20)]
fn whole_game(bencher: divan::Bencher) {
    let mut seed = 1_000_000u64;
    let mut moves = Vec::with_capacity(SNAKES);
    let mut events = Vec::with_capacity(32);
    bencher.counter(divan::counter::ItemsCount::new(1usize)).bench_local(|| {
        seed += 1;
        let mut game = Battlesnake::new(Settings::default(), SNAKES, seed).expect("4 snakes fit on 11x11");
        let mut policy = Rng::new(seed);
        while !game.is_over() {
            safe_random(&game, &mut policy, &mut moves);
            events.clear();
            game.step_into(&moves, &mut events);
        }
        game.turn()
    });
}
