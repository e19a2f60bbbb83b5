//! The built-in Hex bots, played through the real wire path: the engine
//! state is rendered with `render_boards`, wrapped with `message`, answered
//! as text and read back with `read_command`.

use snakepit_bots::hexbots::{HexBot, NAMES, by_name};
use snakepit_engine::hex::{Event, Hex, Ignored, Map, Settings};
use snakepit_engine::Game;
use snakepit_protocol::hex::{message, read_command, render_board, render_boards};

/// Plays `ticks` ticks on the default map and returns the final scores by
/// seat. Checks on the way that every answer reads back without a note and
/// that the engine never ignores a built-in bot's move, except when the
/// whole field restarts.
fn play(names: &[&str], seed: u64, ticks: u32) -> Vec<i64> {
    let mut game = Hex::new(Settings::default(), Map::default_map(), names.len(), seed).unwrap();
    let mut bots: Vec<Box<dyn HexBot>> =
        names.iter().enumerate().map(|(i, n)| by_name(n, seed * 31 + i as u64).unwrap()).collect();
    for tick in 0..ticks {
        let boards = render_boards(&game);
        let actions: Vec<_> = bots
            .iter_mut()
            .zip(&boards)
            .enumerate()
            .map(|(seat, (bot, board))| {
                let answer = bot.answer(&message(board));
                let reading = read_command(&game, seat, &answer);
                if !answer.is_empty() {
                    assert_eq!(reading.note, None, "seed {seed} tick {tick} seat {seat}: {answer:?}");
                }
                reading.action
            })
            .collect();
        for e in game.step(&actions) {
            if let Event::Ignored { seat, why, .. } = e {
                assert_eq!(why, Ignored::Restart, "seed {seed} tick {tick}: seat {seat}'s move was {why:?}");
            }
        }
    }
    game.scores()
}

#[test]
fn greedy_beats_random() {
    // 24 games of 300 ticks, 2 greedy and 2 random bots on one field,
    // seats rotated so that each kind plays from every seat. The rules
    // favour no seat (a contested piece stays with its owner, placements
    // draw by score), but the bots' own random streams follow their seats,
    // and the result must hold whichever seats a kind holds. The games run
    // on all cores.
    let kinds = ["greedy", "random", "greedy", "random"];
    let lineups: Vec<Vec<&str>> = (0..24).map(|game| (0..4).map(|seat| kinds[(seat + game) % 4]).collect()).collect();
    let results: Vec<Vec<i64>> = std::thread::scope(|scope| {
        let games: Vec<_> = lineups
            .iter()
            .enumerate()
            .map(|(game, names)| scope.spawn(move || play(names, game as u64, 300)))
            .collect();
        games.into_iter().map(|g| g.join().unwrap()).collect()
    });
    let (mut greedy, mut random, mut wins) = (0, 0, 0);
    for (names, scores) in lineups.iter().zip(&results) {
        let best_greedy = names.iter().zip(scores).filter(|(n, _)| **n == "greedy").map(|(_, s)| *s).max();
        let best_random = names.iter().zip(scores).filter(|(n, _)| **n == "random").map(|(_, s)| *s).max();
        wins += usize::from(best_greedy > best_random);
        for (name, score) in names.iter().zip(scores) {
            if *name == "greedy" { greedy += score } else { random += score }
        }
    }
    assert!(greedy > 2 * random, "greedy {greedy}, random {random} in total");
    assert!(wins >= 20, "the best greedy bot beat the best random one in only {wins} of 24 games");
}

#[test]
fn bots_are_deterministic() {
    for name in NAMES {
        let names = [*name; 3];
        assert_eq!(play(&names, 9, 80), play(&names, 9, 80), "{name}");
    }
}

/// A 7x7 board drawn as rows (`A`..: seats), rendered for seat 0.
fn board(rows: &[&str]) -> String {
    let map_text: String = rows.iter().map(|r| r.replace(|c: char| c != '☼', " ") + "\n").collect();
    let mut game = Hex::new(Settings::default(), Map::parse(&map_text).unwrap(), 0, 1).unwrap();
    let mut cells = game.cells().to_vec();
    let mut seats = 0;
    for (i, c) in rows.iter().flat_map(|r| r.chars()).enumerate() {
        if c.is_ascii_uppercase() {
            let seat = (c as u8 - b'A') as usize;
            seats = seats.max(seat + 1);
            cells[i] = snakepit_engine::hex::Cell::Piece(seat);
        }
    }
    let players =
        (0..seats).map(|_| snakepit_engine::hex::Player { present: true, placed: true, ..Default::default() }).collect();
    game.set_position(cells, players);
    message(&render_board(&game, Some(0)))
}

#[test]
fn nothing_to_do_means_an_empty_answer() {
    // No pieces of mine; and a piece with every target taken.
    let none = board(&["☼☼☼☼☼☼☼", "☼     ☼", "☼  B  ☼", "☼     ☼", "☼     ☼", "☼     ☼", "☼☼☼☼☼☼☼"]);
    let stuck = board(&["☼☼☼☼☼☼☼", "☼AB   ☼", "☼B    ☼", "☼     ☼", "☼     ☼", "☼     ☼", "☼☼☼☼☼☼☼"]);
    for name in NAMES {
        let mut bot = by_name(name, 3).unwrap();
        assert_eq!(bot.answer(&none), "", "{name}");
        assert_eq!(bot.answer("garbage"), "", "{name}");
        assert_eq!(bot.answer(""), "", "{name}");
        // [1,1] can still jump to [3,1] or [1,3].
        let a = bot.answer(&stuck);
        assert!(a == "ACT(1,1,1),RIGHT" || a == "ACT(1,1,1),DOWN", "{name}: {a}");
    }
}

#[test]
fn random_spreads_over_legal_moves() {
    let open = board(&["☼☼☼☼☼☼☼", "☼     ☼", "☼     ☼", "☼  A  ☼", "☼     ☼", "☼     ☼", "☼☼☼☼☼☼☼"]);
    let mut seen = std::collections::BTreeSet::new();
    let mut bot = by_name("random", 5).unwrap();
    for _ in 0..300 {
        seen.insert(bot.answer(&open));
    }
    assert_eq!(seen.len(), 8, "{seen:?}");
    assert!(seen.contains("ACT(3,3),UP") && seen.contains("ACT(3,3,1),LEFT"), "{seen:?}");
}

#[test]
fn greedy_takes_the_biggest_capture() {
    // Cloning right onto [3,2] takes B's three pieces around it.
    let b = board(&["☼☼☼☼☼☼☼", "☼   B ☼", "☼A  B ☼", "☼   B ☼", "☼     ☼", "☼    B☼", "☼☼☼☼☼☼☼"]);
    assert_eq!(by_name("greedy", 0).unwrap().answer(&b), "ACT(1,2,1),RIGHT");
    let b = board(&["☼☼☼☼☼☼☼", "☼   B ☼", "☼ A B ☼", "☼   B ☼", "☼     ☼", "☼    B☼", "☼☼☼☼☼☼☼"]);
    assert_eq!(by_name("greedy", 0).unwrap().answer(&b), "ACT(2,2),RIGHT");
}

#[test]
fn greedy_prefers_a_clone_to_an_equal_jump() {
    // Alone on the board, every clone is worth a piece and every jump
    // nothing; with nothing else to tell them apart it always clones.
    let open = board(&["☼☼☼☼☼☼☼", "☼     ☼", "☼     ☼", "☼  A  ☼", "☼     ☼", "☼     ☼", "☼☼☼☼☼☼☼"]);
    for seed in 0..20 {
        let a = by_name("greedy", seed).unwrap().answer(&open);
        assert!(!a.contains(",1)"), "seed {seed}: {a}");
    }
}

#[test]
fn greedy_keeps_out_of_reach() {
    // B at [5,1] can reach [3,1], [4,1], [5,2] and [5,3] next tick. A
    // clone to [2,1] would sit next to [3,1], where B could take it back;
    // a clone down to [1,2] is out of reach.
    let b = board(&["☼☼☼☼☼☼☼", "☼A   B☼", "☼     ☼", "☼     ☼", "☼     ☼", "☼     ☼", "☼☼☼☼☼☼☼"]);
    for seed in 0..10 {
        let a = by_name("greedy", seed).unwrap().answer(&b);
        assert_eq!(a, "ACT(1,1),DOWN", "seed {seed}");
    }
}
