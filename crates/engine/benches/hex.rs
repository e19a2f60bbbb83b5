//! What one Hex tick with 10 players costs:
//! `cargo bench -p snakepit-engine --bench hex`.
//!
//! Ten players share the default 15x15 field, each moving one of its
//! pieces every tick to a random empty cell one or two cells away (a clone
//! three times in four): the busy case. Over the recorded 3000 ticks there
//! are about 100 pieces on the field, five captures and a quarter of a new
//! wall per tick, and a restart every 26 ticks. The moves come from engine
//! state, which no real bot sees; the policy is not what is measured.
//!
//! A whole game is played once before the benchmarks run, keeping the state
//! before every tick and that tick's moves. Each measured iteration takes a
//! copy of one stored state (copying is not timed) and steps it; iterations
//! cycle through the game, so the figure is an average over quiet ticks,
//! big captures and restarts as they occur.
//!
//! `step_and_render` adds the ten per-player board strings the server
//! sends every tick, and `read_and_step` the reading of ten answers.

use snakepit_engine::hex::{Action, Cell, Hex, Map, Settings};
use snakepit_engine::{Dir, Game, Rng};
use snakepit_protocol::hex::{command_text, read_command, render_boards};
use std::sync::OnceLock;

fn main() {
    divan::main();
}

const SEATS: usize = 10;
const TICKS: usize = 3000;

/// The states before each recorded tick, that tick's moves, and the same
/// moves as the text a bot would send.
struct Recording {
    before: Vec<Hex>,
    moves: Vec<Vec<Action>>,
    answers: Vec<Vec<String>>,
}

fn recording() -> &'static Recording {
    static RECORDING: OnceLock<Recording> = OnceLock::new();
    RECORDING.get_or_init(|| {
        let mut game = Hex::new(Settings::default(), Map::default_map(), SEATS, 1).expect("10 seats fit");
        let mut policy = Rng::new(2);
        let mut rec = Recording { before: Vec::new(), moves: Vec::new(), answers: Vec::new() };
        for _ in 0..TICKS {
            let moves: Vec<Action> = (0..SEATS).map(|seat| random_move(&game, seat, &mut policy)).collect();
            rec.before.push(game.clone());
            rec.answers.push(moves.iter().map(command_text).collect());
            rec.moves.push(moves.clone());
            game.step(&moves);
        }
        rec
    })
}

fn random_move(game: &Hex, seat: usize, rng: &mut Rng) -> Action {
    let mine = game.pieces_of(seat);
    for _ in 0..16 {
        let Some(&from) = mine.get(rng.index(mine.len().max(1))) else { return Action::Skip };
        let a = Action::Move { from, dir: Dir::ALL[rng.index(4)], jump: rng.below(4) == 0 };
        if a.target().is_some_and(|t| game.cell(t) == Cell::Empty) {
            return a;
        }
    }
    Action::Skip
}

/// Hands out the recorded ticks in order, round and round.
fn next_tick(cursor: &mut usize) -> (Hex, &'static [Action], &'static [String]) {
    let rec = recording();
    let k = *cursor % rec.before.len();
    *cursor += 1;
    (rec.before[k].clone(), &rec.moves[k], &rec.answers[k])
}

/// The rules alone.
#[divan::bench(sample_count = 2000, sample_size = 8)]
fn step(bencher: divan::Bencher) {
    let mut cursor = 0;
    bencher.with_inputs(|| next_tick(&mut cursor)).bench_local_values(|(mut game, moves, _)| {
        let events = game.step(moves);
        // Returned, so that freeing them is not timed either.
        (game, events)
    });
}

/// The rules plus the ten board strings sent to the players.
#[divan::bench(sample_count = 2000, sample_size = 8)]
fn step_and_render(bencher: divan::Bencher) {
    let mut cursor = 0;
    bencher.with_inputs(|| next_tick(&mut cursor)).bench_local_values(|(mut game, moves, _)| {
        let events = game.step(moves);
        let boards = render_boards(&game);
        (game, events, boards)
    });
}

/// Reading the ten answers as the server does, then the rules.
#[divan::bench(sample_count = 2000, sample_size = 8)]
fn read_and_step(bencher: divan::Bencher) {
    let mut cursor = 0;
    bencher.with_inputs(|| next_tick(&mut cursor)).bench_local_values(|(mut game, _, answers)| {
        let actions: Vec<Action> =
            answers.iter().enumerate().map(|(seat, text)| read_command(&game, seat, text).action).collect();
        let events = game.step(&actions);
        (game, events)
    });
}

/// The ten board strings alone.
#[divan::bench(sample_count = 2000, sample_size = 8)]
fn render_only(bencher: divan::Bencher) {
    let mut cursor = 0;
    bencher.with_inputs(|| next_tick(&mut cursor).0).bench_local_refs(|game| render_boards(game));
}
