//! The built-in bots, played through the real wire path: the engine state
//! is rendered with `render_boards`, wrapped with `message`, answered as
//! text and read back with `parse_action`.

use snakepit_bots::builtin::{NAMES, SnakeBot, by_name};
use snakepit_engine::snakebattle::{Map, Phase, Settings, SnakeBattle};
use snakepit_engine::{Dir, Game, Pos};
use snakepit_protocol::codenjoy::{message, parse_action, parse_command, render_board, render_boards};

/// Plays until `running_ticks` ticks of running rounds have passed and
/// returns the final scores by seat.
fn play(names: &[&str], seed: u64, running_ticks: u32) -> Vec<i64> {
    let settings = Settings::default();
    let rule = settings.commands;
    let mut game = SnakeBattle::new(settings, Map::default_map(), names.len(), seed).unwrap();
    let mut bots: Vec<Box<dyn SnakeBot>> =
        names.iter().enumerate().map(|(i, n)| by_name(n, seed * 31 + i as u64).unwrap()).collect();
    let mut ran = 0;
    while ran < running_ticks {
        if matches!(game.phase(), Phase::Running { .. }) {
            ran += 1;
        }
        let boards = render_boards(&game);
        let actions: Vec<_> = bots
            .iter_mut()
            .zip(&boards)
            .map(|(bot, board)| {
                let answer = bot.answer(&message(board));
                assert!(answer.len() < 20 && !parse_command(&answer).is_empty() || answer.is_empty(), "{answer:?}");
                parse_action(&answer, rule)
            })
            .collect();
        game.step(&actions);
    }
    game.scores()
}

#[test]
fn greedy_beats_random() {
    // 20 games of 300 running ticks, 2 greedy and 3 random bots, seats
    // rotated so that neither kind keeps the same seats. The games are
    // independent, so they run on all cores.
    let kinds = ["greedy", "random", "random", "greedy", "random"];
    let lineups: Vec<Vec<&str>> = (0..20).map(|game| (0..5).map(|seat| kinds[(seat + game) % 5]).collect()).collect();
    let results: Vec<Vec<i64>> = std::thread::scope(|scope| {
        let games: Vec<_> = lineups
            .iter()
            .enumerate()
            .map(|(game, names)| scope.spawn(move || play(names, game as u64, 300)))
            .collect();
        games.into_iter().map(|g| g.join().unwrap()).collect()
    });
    let (mut greedy, mut random) = (0, 0);
    for (names, scores) in lineups.iter().zip(results) {
        for (name, score) in names.iter().zip(scores) {
            if *name == "greedy" { greedy += score } else { random += score }
        }
    }
    // Per seat: 2 greedy seats against 3 random ones.
    let (greedy, random) = (greedy as f64 / 2.0, random as f64 / 3.0);
    assert!(greedy > 2.0 * random, "greedy {greedy} per seat, random {random} per seat");
}

#[test]
fn bots_are_deterministic() {
    for name in NAMES {
        let names = [*name; 4];
        assert_eq!(play(&names, 9, 60), play(&names, 9, 60), "{name}");
    }
}

/// A 7x7 board with one snake, rendered for its owner.
fn lone_snake(body: &[(i32, i32)], dir: Dir, setup: impl FnOnce(&mut snakepit_engine::snakebattle::Snake)) -> String {
    let map = Map::parse("☼☼☼☼☼☼☼\n☼     ☼\n☼     ☼\n☼     ☼\n☼     ☼\n☼#    ☼\n☼☼☼☼☼☼☼\n").unwrap();
    let items = map.items.clone();
    let mut g = SnakeBattle::new(Settings::default(), map, 1, 0).unwrap();
    let mut s = SnakeBattle::make_snake(body.iter().map(|&(x, y)| Pos::new(x, y)).collect(), dir);
    setup(&mut s);
    g.set_position(items, vec![s]);
    message(&render_board(&g, Some(0)))
}

#[test]
fn nothing_to_decide_means_an_empty_answer() {
    let dead = lone_snake(&[(3, 3), (2, 3)], Dir::Right, |s| s.alive = false);
    let asleep = lone_snake(&[(3, 3), (2, 3)], Dir::Right, |s| s.active = false);
    let absent = lone_snake(&[], Dir::Right, |s| s.present = false);
    for name in NAMES {
        let mut bot = by_name(name, 3).unwrap();
        for board in [&dead, &asleep, &absent] {
            assert_eq!(bot.answer(board), "", "{name} on {board}");
        }
        assert_eq!(bot.answer("garbage"), "", "{name}");
        assert_eq!(bot.answer(""), "", "{name}");
    }
}

#[test]
fn bots_avoid_walls_and_their_body() {
    // Heading up into the top-left corner: only RIGHT is safe.
    let cornered = lone_snake(&[(1, 1), (1, 2), (1, 3)], Dir::Up, |_| {});
    for name in NAMES {
        for seed in 0..20 {
            assert_eq!(by_name(name, seed).unwrap().answer(&cornered), "RIGHT", "{name} seed {seed}");
        }
    }
}

#[test]
fn random_spreads_over_safe_moves() {
    let open = lone_snake(&[(3, 3), (2, 3)], Dir::Right, |_| {});
    let mut seen = std::collections::BTreeSet::new();
    let mut bot = by_name("random", 5).unwrap();
    for _ in 0..100 {
        seen.insert(bot.answer(&open));
    }
    let want: std::collections::BTreeSet<String> = ["UP", "RIGHT", "DOWN"].map(String::from).into();
    assert_eq!(seen, want);
}

fn greedy() -> Box<dyn SnakeBot> {
    by_name("greedy", 0).unwrap()
}

/// Joins board rows into the message a bot receives.
fn board(rows: &[&str]) -> String {
    message(&rows.concat())
}

#[test]
fn greedy_eats_stones_only_when_furious() {
    let calm = board(&["☼☼☼☼☼☼☼", "☼     ☼", "☼     ☼", "☼╘═►● ☼", "☼     ☼", "☼     ☼", "☼☼☼☼☼☼☼"]);
    let answer = greedy().answer(&calm);
    assert!(answer == "UP" || answer == "DOWN", "{answer}");
    let furious = board(&["☼☼☼☼☼☼☼", "☼     ☼", "☼     ☼", "☼╘═♥● ☼", "☼     ☼", "☼     ☼", "☼☼☼☼☼☼☼"]);
    assert_eq!(greedy().answer(&furious), "RIGHT");
}

/// A 10x10 walled board whose third row is `row`.
fn row_board(row: &str) -> String {
    let mut rows = vec!["☼☼☼☼☼☼☼☼☼☼"; 10];
    for r in &mut rows[1..9] {
        *r = "☼        ☼";
    }
    rows[2] = row;
    board(&rows)
}

#[test]
fn greedy_keeps_away_from_heads_that_would_win() {
    // The apple in front of me is next to an enemy head as long as mine: a
    // head-on there would kill me, so it turns away.
    let answer = greedy().answer(&row_board("☼  ╘═►○<─ö"));
    assert!(answer == "UP" || answer == "DOWN", "{answer}");
    // Two longer than the enemy, I would survive a head-on: take the apple.
    assert_eq!(greedy().answer(&row_board("☼╘═══►○<─ö")), "RIGHT");
    // A furious enemy wins whatever the lengths.
    let answer = greedy().answer(&row_board("☼╘═══►○♣─ö"));
    assert!(answer == "UP" || answer == "DOWN", "{answer}");
}

#[test]
fn greedy_drops_a_stone_on_a_chaser() {
    // First, furious, it eats the stone in front of it...
    let before = board(&[
        "☼☼☼☼☼☼☼☼☼",
        "☼       ☼",
        "☼╘════♥●☼",
        "☼       ☼",
        "☼       ☼",
        "☼       ☼",
        "☼       ☼",
        "☼       ☼",
        "☼☼☼☼☼☼☼☼☼",
    ]);
    let after = board(&[
        "☼☼☼☼☼☼☼☼☼",
        "☼       ☼",
        "☼ ×─>╘═►☼",
        "☼       ☼",
        "☼       ☼",
        "☼       ☼",
        "☼       ☼",
        "☼       ☼",
        "☼☼☼☼☼☼☼☼☼",
    ]);
    let mut bot = greedy();
    assert_eq!(bot.answer(&before), "RIGHT");
    // ...then an enemy head sits right behind its tail: move, then drop.
    let answer = bot.answer(&after);
    assert!(answer == "UP,ACT" || answer == "DOWN,ACT", "{answer}");
    // The stone is spent; and a bot that never ate one has none to drop.
    assert!(!bot.answer(&after).ends_with("ACT"));
    assert!(!greedy().answer(&after).ends_with("ACT"));
}
