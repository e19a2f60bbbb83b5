//! Hex replays: a game recorded through the generic replay writer reads
//! back and re-simulates with the same checksums; its header holds Hex's
//! settings and map.

use snakepit_engine::hex::{Action, Event, Hex, Map, Settings};
use snakepit_engine::{Dir, Game, Rng};
use snakepit_protocol::replay::{Replay, ReplayError, ReplayGame, ReplayProblem, ReplayWriter, SetupError, tick_line};

fn record(seed: u64, ticks: usize) -> (String, u64) {
    let settings = Settings::from_pairs([("profile", "codenjoy"), ("players_per_field", "4")]).unwrap();
    let map = Map::parse("☼☼☼☼☼☼☼☼\n☼      ☼\n☼ ☼    ☼\n☼      ☼\n☼    ☼ ☼\n☼      ☼\n☼      ☼\n☼☼☼☼☼☼☼☼\n").unwrap();
    let mut game = Hex::new(settings, map, 3, seed).unwrap();
    let players: Vec<String> = (0..3).map(|i| format!("builtin:random-{i}")).collect();
    let mut w = ReplayWriter::new(Vec::new(), &game, seed, &players).unwrap();
    let mut rng = Rng::new(seed);
    for _ in 0..ticks {
        let actions: Vec<Action> = (0..game.seats())
            .map(|seat| {
                let mine = game.pieces_of(seat);
                if mine.is_empty() || rng.below(8) == 0 {
                    return Action::Skip;
                }
                Action::Move { from: mine[rng.index(mine.len())], dir: Dir::ALL[rng.index(4)], jump: rng.below(3) == 0 }
            })
            .collect();
        game.step(&actions);
        w.record(&game, &actions).unwrap();
    }
    (String::from_utf8(w.finish().unwrap()).unwrap(), game.checksum())
}

#[test]
fn recorded_game_resimulates() {
    for seed in 0..20 {
        let (text, last) = record(seed, 150);
        let replay = Replay::<Hex>::parse(&text).unwrap();
        assert_eq!(replay.header.game, "hex");
        assert_eq!(replay.ticks.len(), 150);
        let end = replay.resimulate(|_, _, _| {}).unwrap();
        assert_eq!(end.checksum(), last, "seed {seed}");
    }
}

#[test]
fn header_holds_settings_and_map() {
    let (text, _) = record(1, 2);
    let first = text.lines().next().unwrap();
    assert!(first.starts_with(r#"{"snakepit_replay":1,"game":"hex","engine":"5","seed":1,"seats":3,"#), "{first}");
    assert!(
        first.contains(r#""settings":{"profile":"codenjoy","points_win":"30","points_lose":"100","restart_clears_walls":"false","still_restart_ticks":"0","players_per_field":"4","annihilation":"true"}"#),
        "{first}"
    );
    assert!(first.contains(r#""map":["☼☼☼☼☼☼☼☼","☼      ☼","☼ ☼    ☼","#), "{first}");
    let second = text.lines().nth(1).unwrap();
    assert!(second.starts_with(r#"{"t":1,"m":["#), "{second}");
}

#[test]
fn a_tampered_move_is_caught() {
    let (text, _) = record(3, 40);
    let replay = Replay::<Hex>::parse(&text).unwrap();
    // The first tick in which a piece cloned: without its moves the
    // re-simulation must name exactly that tick.
    let mut first_clone = None;
    replay
        .resimulate(|_, record, events| {
            if first_clone.is_none() && events.iter().any(|e| matches!(e, Event::Cloned { .. })) {
                first_clone = Some(record.tick);
            }
        })
        .unwrap();
    let t = first_clone.expect("someone clones in 40 ticks");
    let mut lines = vec![replay.header.to_line()];
    for r in &replay.ticks {
        let moves = if r.tick == t { vec![Action::Skip; 3] } else { r.moves.clone() };
        lines.push(tick_line::<Hex>(r.tick, 3, &moves, r.checksum));
    }
    let tampered = Replay::<Hex>::parse(&(lines.join("\n") + "\n")).unwrap();
    assert_eq!(tampered.resimulate(|_, _, _| {}).unwrap_err().tick, t);
    // A move that is not an action is reported with its line and seat.
    let bad = text.replacen(r#""m":[""#, r#""m":["Q"#, 1);
    let err = Replay::<Hex>::parse(&bad).unwrap_err();
    assert!(matches!(err, ReplayError { line: 2, problem: ReplayProblem::BadMove { index: 0, .. } }), "{err}");
}

#[test]
fn bad_setups_are_reported() {
    let pairs = |p: &[(&str, &str)]| p.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
    let rows = |r: &[&str]| r.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let map = rows(&["☼☼☼", "☼ ☼", "☼☼☼"]);
    assert!(Hex::from_setup(&pairs(&[]), &map, 1, 1).is_ok());
    assert!(matches!(Hex::from_setup(&pairs(&[("points", "1")]), &map, 1, 1), Err(SetupError::Settings(_))));
    assert_eq!(
        Hex::from_setup(&pairs(&[]), &rows(&["☼☼☼", "☼#☼", "☼☼☼"]), 1, 1).unwrap_err(),
        SetupError::Map { row: 2, message: "column 2: '#' is not a Hex map glyph (use ☼ for a wall, space for empty)".into() }
    );
    assert!(matches!(Hex::from_setup(&pairs(&[("players_per_field", "2")]), &map, 3, 1), Err(SetupError::Game(_))));
}
