//! Speed of the Codenjoy wire format on the default 30x30 map with five
//! snakes, over the states of a real game: the five boards of a tick, a
//! board read back, answers parsed.
//!
//! Run with `cargo bench -p snakepit-protocol --bench codenjoy`.

use divan::{Bencher, black_box};
use snakepit_engine::snakebattle::{Action, Map, Settings, SnakeBattle, Terrain};
use snakepit_engine::{Dir, Game, Rng};
use snakepit_protocol::codenjoy::{Board, message, parse_command, render_board, render_boards};

fn main() {
    divan::main();
}

/// Moves that avoid walls, start floors and bodies when they can, so that
/// the snakes live and grow as in a real game.
fn sensible_actions(g: &SnakeBattle, rng: &mut Rng) -> Vec<Action> {
    g.snakes()
        .iter()
        .map(|s| {
            let Some(head) = s.head() else { return Action::default() };
            let start = rng.index(4);
            let free = (0..4).map(|k| Dir::ALL[(start + k) % 4]).find(|&d| {
                let p = head.step(d);
                d != s.dir.opposite()
                    && g.map().terrain_at(p) == Terrain::Empty
                    && !g.snakes().iter().any(|o| o.body.contains(&p))
            });
            free.map_or_else(Action::default, Action::go)
        })
        .collect()
}

/// States of a real game, ticks 1 to 300, with every snake alive in each
/// (more snakes on the board mean more cells to patch per seat). The
/// benches step through them in turn, so that a figure is an average over
/// a game, not one state measured again and again.
fn game_states() -> &'static [SnakeBattle] {
    static STATES: std::sync::OnceLock<Vec<SnakeBattle>> = std::sync::OnceLock::new();
    STATES.get_or_init(|| {
        let mut g = SnakeBattle::new(Settings::default(), Map::default_map(), 5, 42).unwrap();
        let mut rng = Rng::new(42);
        let mut states = Vec::new();
        for _ in 0..300 {
            let a = sensible_actions(&g, &mut rng);
            g.step(&a);
            if g.snakes().iter().all(|s| s.alive) {
                states.push(g.clone());
            }
        }
        // Too few states would measure a handful again and again.
        assert!(states.len() >= 100, "only {} states with five live snakes", states.len());
        states
    })
}

/// The next of [`game_states`], round and round.
fn next_state(cursor: &mut usize) -> &'static SnakeBattle {
    let states = game_states();
    *cursor += 1;
    &states[*cursor % states.len()]
}

// The tick with its five boards is measured over a whole game by
// `cargo bench -p snakepit-engine --bench tick` (`step_and_render`).

#[divan::bench]
fn five_boards(bencher: Bencher) {
    let mut cursor = 0;
    bencher.with_inputs(|| next_state(&mut cursor)).bench_local_values(|g| render_boards(black_box(g)));
}

#[divan::bench]
fn five_boards_one_by_one(bencher: Bencher) {
    let mut cursor = 0;
    bencher
        .with_inputs(|| next_state(&mut cursor))
        .bench_local_values(|g| (0..5).map(|seat| render_board(black_box(g), Some(seat))).collect::<Vec<_>>());
}

#[divan::bench]
fn parse_board(bencher: Bencher) {
    let messages: Vec<String> = game_states().iter().map(|g| message(&render_board(g, Some(0)))).collect();
    let mut cursor = 0;
    bencher
        .with_inputs(|| {
            cursor += 1;
            &messages[cursor % messages.len()]
        })
        .bench_local_values(|m| Board::parse(black_box(m)));
}

#[divan::bench(args = ["UP", "act,stop", "ACT(2,3),LEFT", "message('hello, world'),down"])]
fn parse_answer(bencher: Bencher, text: &str) {
    bencher.bench_local(|| parse_command(black_box(text)));
}
