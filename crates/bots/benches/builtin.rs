//! What the built-in battlesnakes cost, apart from everything a tournament
//! adds around them: `cargo bench -p snakepit-bots --bench builtin`.
//!
//! `games` plays whole games on the standard 11x11 board between the four
//! snakes of the tournament benchmark (greedy, random, greedy, random),
//! from `Battlesnake::new` to game over, a new seed per game, the way a
//! tournament drives them: the board read once a turn into a shared
//! [`View`], each live snake deciding on it. Divan's `item/s` is games per
//! second. `games_and_checksums` adds the checksum a replay records after
//! every turn. Together with the engine's `whole_game` (safe-random moves,
//! no view) they say how much of a tournament's game is the rules, the
//! snakes and the checksum.
//!
//! Before measuring, the benchmark plays games of its own and fails unless
//! every one ended, with a winner or none, after a plausible number of
//! turns, and unless greedy won more of them than random: the figure is of
//! real games.

use snakepit_bots::bsbots::{self, BattlesnakeBot, View};
use snakepit_engine::Game;
use snakepit_engine::battlesnake::{Action, Battlesnake, Event, Settings};

const SEATS: [&str; 4] = ["greedy", "random", "greedy", "random"];
/// No game of these snakes comes near it; it only guards the loop.
const TURNS_MAX: u64 = 10_000;

// The benchmark, not a library, prints what it checked.
#[allow(clippy::print_stderr)]
fn main() {
    let (mut turns, mut greedy, mut random) = (0, 0, 0);
    let games = 200;
    for seed in 0..games {
        let (game, checksums) = play(seed, true);
        assert!(game.is_over(), "seed {seed}: the game ended");
        assert_eq!(checksums, game.turn(), "seed {seed}: a checksum per turn");
        turns += game.turn();
        match game.winner() {
            Some(0 | 2) => greedy += 1,
            Some(_) => random += 1,
            None => {}
        }
    }
    let mean = turns as f64 / games as f64;
    assert!((20.0..2000.0).contains(&mean), "{mean} turns a game");
    assert!(greedy > random, "greedy won {greedy}, random {random}");
    eprintln!("checked {games} games: {mean:.1} turns a game, greedy won {greedy}, random {random}");
    divan::main();
}

/// One game; returns its end and the number of checksums taken.
fn play(seed: u64, checksums: bool) -> (Battlesnake, u64) {
    let mut game = Battlesnake::new(Settings::default(), SEATS.len(), seed).expect("4 snakes fit on 11x11");
    let mut bots: Vec<Box<dyn BattlesnakeBot>> =
        SEATS.iter().enumerate().map(|(seat, name)| bsbots::by_name(name, seed * 8 + seat as u64).expect("a built-in snake")).collect();
    let mut view = View::new();
    let mut actions: Vec<Action> = vec![None; SEATS.len()];
    let mut events: Vec<Event> = Vec::with_capacity(32);
    let mut taken = 0;
    let mut sum = 0u64;
    while !game.is_over() && game.turn() < TURNS_MAX {
        view.read(&game);
        for (seat, bot) in bots.iter_mut().enumerate() {
            actions[seat] = game.snakes()[seat].is_alive().then(|| bot.choose_on(&mut view, seat));
        }
        events.clear();
        game.step_into(&actions, &mut events);
        if checksums {
            sum ^= game.checksum();
            taken += 1;
        }
    }
    std::hint::black_box(sum);
    (game, taken)
}

/// Whole games of the four built-in snakes, a new seed each.
#[divan::bench(sample_count = 100, sample_size = 20)]
fn games(bencher: divan::Bencher) {
    let mut seed = 1_000_000u64;
    bencher.counter(divan::counter::ItemsCount::new(1usize)).bench_local(|| {
        seed += 1;
        play(seed, false).0.turn()
    });
}

/// [`games`] with a checksum after every turn, as a replay records.
#[divan::bench(sample_count = 100, sample_size = 20)]
fn games_and_checksums(bencher: divan::Bencher) {
    let mut seed = 1_000_000u64;
    bencher.counter(divan::counter::ItemsCount::new(1usize)).bench_local(|| {
        seed += 1;
        play(seed, true).0.turn()
    });
}
