//! CodeCarrots and KingOfBots events, and the duel's result, as the viewer
//! tells them: one table row per event variant (the event in, the sentence
//! out), the duel's status line at each way a game can end, and played
//! games whose every line must read as English rather than Rust's debug
//! text.
//!
//! The `*_kind` functions match without a catch-all so that a new engine
//! variant stops this file compiling until the table has a row for it.

use snakepit_engine::carrots::{self, Carrots};
use snakepit_engine::duel::{self, Duel, DuelMap};
use snakepit_engine::{Dir, Game, Pos, Rng};
use snakepit_viewer::text::TerminalView;
use std::collections::BTreeSet;

fn carrots_kind(event: &carrots::Event) -> &'static str {
    use carrots::{Death, Event};
    match event {
        Event::Spawned { .. } => "Spawned",
        Event::Grew { .. } => "Grew",
        Event::Ate { .. } => "Ate",
        Event::Died { cause: Death::OffBoard, .. } => "Died(OffBoard)",
        Event::Died { cause: Death::HeadOn(_), .. } => "Died(HeadOn)",
        Event::Died { cause: Death::Crash(_), .. } => "Died(Crash)",
        Event::Died { cause: Death::Forfeit, .. } => "Died(Forfeit)",
        Event::Removed { .. } => "Removed",
        Event::AppleSpawned { .. } => "AppleSpawned",
        Event::Scored { .. } => "Scored",
    }
}

fn duel_kind(event: &duel::Event) -> &'static str {
    use duel::{Death, EndReason, Event, Outcome};
    match event {
        Event::Grew { .. } => "Grew",
        Event::Died { cause: Death::Outside, .. } => "Died(Outside)",
        Event::Died { cause: Death::Wall, .. } => "Died(Wall)",
        Event::Died { cause: Death::OwnBody, .. } => "Died(OwnBody)",
        Event::Died { cause: Death::Opponent, .. } => "Died(Opponent)",
        Event::Died { cause: Death::HeadOn, .. } => "Died(HeadOn)",
        Event::Died { cause: Death::Forfeit, .. } => "Died(Forfeit)",
        Event::Ended { outcome: Outcome::Won(_), reason: EndReason::Death } => "Ended(Won, Death)",
        Event::Ended { outcome: Outcome::Draw, reason: EndReason::Death } => "Ended(Draw, Death)",
        Event::Ended { outcome: Outcome::Won(_), reason: EndReason::Forfeit } => "Ended(Won, Forfeit)",
        Event::Ended { outcome: Outcome::Draw, reason: EndReason::Forfeit } => "Ended(Draw, Forfeit)",
        Event::Ended { outcome: Outcome::Won(_), reason: EndReason::RoundLimit } => "Ended(Won, RoundLimit)",
        Event::Ended { outcome: Outcome::Draw, reason: EndReason::RoundLimit } => "Ended(Draw, RoundLimit)",
    }
}

/// Every kind the `*_kind` function can name, spelled out once more so that
/// a kind added there without a table row fails the test.
const CARROTS_KINDS: &[&str] = &[
    "Spawned",
    "Grew",
    "Ate",
    "Died(OffBoard)",
    "Died(HeadOn)",
    "Died(Crash)",
    "Died(Forfeit)",
    "Removed",
    "AppleSpawned",
    "Scored",
];

const DUEL_KINDS: &[&str] = &[
    "Grew",
    "Died(Outside)",
    "Died(Wall)",
    "Died(OwnBody)",
    "Died(Opponent)",
    "Died(HeadOn)",
    "Died(Forfeit)",
    "Ended(Won, Death)",
    "Ended(Draw, Death)",
    "Ended(Won, Forfeit)",
    "Ended(Draw, Forfeit)",
    "Ended(Won, RoundLimit)",
    "Ended(Draw, RoundLimit)",
];

/// Rust's debug text shows itself in braces and in enum names such as
/// `Died` or `OffBoard`; a sentence names seats by a lone capital letter.
fn reads_as_debug(line: &str) -> bool {
    let chars: Vec<char> = line.chars().collect();
    line.contains('{') || chars.windows(2).any(|w| w[0].is_ascii_uppercase() && w[1].is_ascii_lowercase())
}

fn covers_every_kind(kinds: &[&str], seen: impl IntoIterator<Item = &'static str>) {
    let seen: BTreeSet<&str> = seen.into_iter().collect();
    let all: BTreeSet<&str> = kinds.iter().copied().collect();
    assert_eq!(seen, all, "one row per variant");
}

#[test]
fn every_carrots_event_reads_as_a_sentence() {
    use carrots::{Death, Event};
    let died = |snake, cause| Event::Died { snake, cause };
    let table = [
        (Event::Spawned { snake: 0, at: Pos::new(3, 4) }, "A appears at [3,4]"),
        (Event::Grew { snake: 1, len: 7 }, "B grows to 7"),
        (Event::Ate { snake: 0, at: Pos::new(5, 6) }, "A eats an apple at [5,6]"),
        (died(2, Death::OffBoard), "C dies: left the board"),
        (died(1, Death::HeadOn(vec![2])), "B dies: head-on with C"),
        (died(1, Death::HeadOn(vec![0, 2])), "B dies: head-on with A, C"),
        (died(1, Death::Crash(1)), "B dies: ran into itself"),
        (died(1, Death::Crash(0)), "B dies: ran into A"),
        (died(0, Death::Forfeit), "A dies: its bot failed or was replaced"),
        (Event::Removed { snake: 1 }, "B's body leaves the board"),
        (Event::AppleSpawned { at: Pos::new(0, 9) }, "an apple appears at [0,9]"),
        (Event::Scored { snake: 0, best: 7 }, "A's best length is now 7"),
    ];
    for (event, sentence) in &table {
        assert_eq!(Carrots::event_line(event), *sentence, "{event:?}");
    }
    covers_every_kind(CARROTS_KINDS, table.iter().map(|(e, _)| carrots_kind(e)));
}

#[test]
fn every_duel_event_reads_as_a_sentence() {
    use duel::{Death, EndReason, Event, Outcome};
    let died = |snake, cause| Event::Died { snake, cause };
    let ended = |outcome, reason| Event::Ended { outcome, reason };
    let table = [
        (Event::Grew { snake: 0, len: 5 }, "A grows to 5"),
        (died(1, Death::Outside), "B dies: left the map"),
        (died(0, Death::Wall), "A dies: hit a wall"),
        (died(1, Death::OwnBody), "B dies: ran into itself"),
        (died(1, Death::Opponent), "B dies: ran into A's body"),
        (died(0, Death::HeadOn), "A dies: head-on with B"),
        (died(0, Death::Forfeit), "A dies: its bot failed"),
        (ended(Outcome::Won(0), EndReason::Death), "game over (B died): A wins"),
        (ended(Outcome::Draw, EndReason::Death), "game over (both snakes died): a draw"),
        (ended(Outcome::Won(1), EndReason::Forfeit), "game over (A's bot failed): B wins"),
        (ended(Outcome::Draw, EndReason::Forfeit), "game over (both bots failed): a draw"),
        (ended(Outcome::Won(0), EndReason::RoundLimit), "game over (the round limit): A wins"),
        (ended(Outcome::Draw, EndReason::RoundLimit), "game over (the round limit): a draw"),
    ];
    for (event, sentence) in &table {
        assert_eq!(Duel::event_line(event), *sentence, "{event:?}");
    }
    covers_every_kind(DUEL_KINDS, table.iter().map(|(e, _)| duel_kind(e)));
}

/// A 6x6 duel map without inner walls: A starts at [1,4] facing up, B at
/// [4,1] facing down.
const OPEN_MAP: &str = "######\n#...B#\n#....#\n#....#\n#A...#\n######\n";

/// Plays `rounds` on [`OPEN_MAP`] and returns the last status line.
fn duel_status(rounds_max: u32, rounds: &[[duel::Action; 2]]) -> String {
    let settings = duel::Settings { rounds_max, ..duel::Settings::default() };
    let mut game = Duel::with_map(settings, DuelMap::parse(OPEN_MAP).unwrap(), 1);
    for actions in rounds {
        assert!(!game.is_over(), "the game ended before its last scripted round");
        game.step(actions);
    }
    assert!(game.is_over(), "the script ends the game");
    game.status_line(&["ann".into(), "bob".into()])
}

#[test]
fn a_finished_duel_tells_its_result_in_the_status_line() {
    use duel::Action::{Forfeit, Keep, Move};
    use snakepit_engine::Dir::{Left, Right};
    let table: [(u32, &[[duel::Action; 2]], &str); 6] = [
        (50, &[[Move(Left), Keep]], "round 1 | A ann len 2 dead | B bob len 2 alive | B wins after 1 round"),
        (50, &[[Keep, Keep], [Keep, Move(Right)]], "round 2 | A ann len 3 alive | B bob len 3 dead | A wins after 2 rounds"),
        (50, &[[Move(Left), Move(Right)]], "round 1 | A ann len 2 dead | B bob len 2 dead | both snakes died in round 1: a draw"),
        (50, &[[Keep, Forfeit]], "round 1 | A ann len 1 alive | B bob len 1 dead | B's bot failed in round 1: A wins"),
        (50, &[[Forfeit, Forfeit]], "round 1 | A ann len 1 dead | B bob len 1 dead | both bots failed in round 1: a draw"),
        (
            2,
            &[[Move(Right), Move(Left)], [Keep, Keep]],
            "round 2 | A ann len 3 alive | B bob len 3 alive | both snakes lasted 2 rounds: a draw",
        ),
    ];
    for (rounds_max, script, status) in table {
        assert_eq!(duel_status(rounds_max, script), status, "{script:?}");
    }
}

fn random_action(rng: &mut Rng) -> carrots::Action {
    // Mostly moves, now and then a forfeit, so that every death is seen.
    match rng.index(20) {
        0 => carrots::Action::Forfeit,
        1..=3 => carrots::Action::Keep,
        _ => carrots::Action::Move(Dir::ALL[rng.index(4)]),
    }
}

#[test]
fn played_carrots_games_print_no_debug_text() {
    let mut kinds = BTreeSet::new();
    for seed in 0..20 {
        let settings = carrots::Settings { width: 8, height: 6, apples_max: 6, respawn_ticks: 2, bodies_stay: true };
        let mut game = Carrots::new(settings, 4, seed).unwrap();
        let mut rng = Rng::new(seed + 1000);
        for _ in 0..200 {
            let actions: Vec<_> = (0..4).map(|_| random_action(&mut rng)).collect();
            for event in game.step(&actions) {
                let line = Carrots::event_line(&event);
                assert!(!reads_as_debug(&line), "seed {seed}: {line}");
                kinds.insert(carrots_kind(&event));
            }
            let status = game.status_line(&["a".into(), "b".into(), "c".into(), "d".into()]);
            assert!(!reads_as_debug(&status), "seed {seed}: {status}");
        }
    }
    // A small crowded board shows every kind of event within these games.
    covers_every_kind(CARROTS_KINDS, kinds);
}

#[test]
fn played_duels_print_no_debug_text() {
    let mut kinds = BTreeSet::new();
    for seed in 0..200 {
        let mut game = Duel::new(duel::Settings::default(), seed);
        let mut rng = Rng::new(seed + 1000);
        while !game.is_over() {
            let actions = [random_action(&mut rng), random_action(&mut rng)];
            for event in game.step(&actions) {
                let line = Duel::event_line(&event);
                assert!(!reads_as_debug(&line), "seed {seed}: {line}");
                kinds.insert(duel_kind(&event));
            }
        }
        let status = game.status_line(&["a".into(), "b".into()]);
        assert!(!reads_as_debug(&status), "seed {seed}: {status}");
    }
    // Random snakes die young, mostly on walls (a border keeps them on the
    // map), so the table above, not these games, covers every variant.
    for kind in ["Grew", "Died(Wall)", "Ended(Won, Death)", "Ended(Won, Forfeit)"] {
        assert!(kinds.contains(kind), "{kind} in {kinds:?}");
    }
}

#[test]
fn played_multisnake_games_print_no_debug_text() {
    use snakepit_engine::multisnake::{self, Action, Multisnake};
    let map = multisnake::builtin_map("quad-32x32").expect("a built-in map");
    let mut ended = 0;
    for seed in 0..50 {
        let mut game = Multisnake::new(multisnake::Settings::default(), map.clone(), seed);
        let mut rng = Rng::new(seed + 7);
        while !game.is_over() {
            let actions: Vec<Action> = (0..4).map(|_| Action::Move(Dir::ALL[rng.index(4)])).collect();
            for event in game.step(&actions) {
                let line = Multisnake::event_line(&event);
                assert!(!reads_as_debug(&line), "seed {seed}: {line}");
            }
        }
        let status = game.status_line(&["a".into(), "b".into(), "c".into(), "d".into()]);
        // Seats as letters, not a list of indices.
        assert!(!reads_as_debug(&status) && !status.contains('['), "seed {seed}: {status}");
        assert!(status.contains(" wins") || status.contains("share the win") || status.contains("nobody wins"), "{status}");
        ended += 1;
    }
    assert_eq!(ended, 50);
}
