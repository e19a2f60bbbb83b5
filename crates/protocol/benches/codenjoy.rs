//! Speed of the Codenjoy wire format on the default 30x30 map with five
//! snakes: the goal is one engine tick plus all five boards in 5 us.
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

/// The state with the most snake cells in the first 300 ticks of a game
/// (longer snakes mean more cells to patch per seat), and the actions of
/// its next tick.
fn mid_game() -> (SnakeBattle, Vec<Action>) {
    let mut g = SnakeBattle::new(Settings::default(), Map::default_map(), 5, 42).unwrap();
    let mut rng = Rng::new(42);
    let cells = |g: &SnakeBattle| g.snakes().iter().map(|s| s.len()).sum::<usize>();
    let mut best = g.clone();
    for _ in 0..300 {
        let a = sensible_actions(&g, &mut rng);
        g.step(&a);
        if cells(&g) > cells(&best) && g.snakes().iter().all(|s| s.alive) {
            best = g.clone();
        }
    }
    let a = sensible_actions(&best, &mut rng);
    (best, a)
}

#[divan::bench]
fn tick_and_five_boards(bencher: Bencher) {
    let (g, actions) = mid_game();
    bencher.with_inputs(|| g.clone()).bench_local_values(|mut g| {
        g.step(&actions);
        render_boards(&g)
    });
}

#[divan::bench]
fn tick_only(bencher: Bencher) {
    let (g, actions) = mid_game();
    bencher.with_inputs(|| g.clone()).bench_local_values(|mut g| g.step(&actions));
}

#[divan::bench]
fn five_boards(bencher: Bencher) {
    let (g, _) = mid_game();
    bencher.bench_local(|| render_boards(black_box(&g)));
}

#[divan::bench]
fn five_boards_one_by_one(bencher: Bencher) {
    let (g, _) = mid_game();
    bencher.bench_local(|| (0..5).map(|seat| render_board(black_box(&g), Some(seat))).collect::<Vec<_>>());
}

#[divan::bench]
fn parse_board(bencher: Bencher) {
    let (g, _) = mid_game();
    let m = message(&render_board(&g, Some(0)));
    bencher.bench_local(|| Board::parse(black_box(&m)));
}

#[divan::bench(args = ["UP", "act,stop", "ACT(2,3),LEFT", "message('hello, world'),down"])]
fn parse_answer(bencher: Bencher, text: &str) {
    bencher.bench_local(|| parse_command(black_box(text)));
}
