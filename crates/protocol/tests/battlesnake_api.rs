//! The Battlesnake API's JSON: the request body's exact shape with `y`
//! pointing up, the lenient reading of answers (fuzzed), and Battlesnake
//! replays written, read and re-simulated.

use expect_test::expect;
use proptest::prelude::*;
use snakepit_engine::battlesnake::{Battlesnake, Position, Settings, SnakeSetup};
use snakepit_engine::{Dir, Game, Pos};
use snakepit_protocol::battlesnake::{
    Coord, GameMeta, MoveAnswer, MoveError, parse_info, parse_move, requests,
};
use snakepit_protocol::replay::{Replay, ReplayWriter};

/// A 4x3 royale position: A (seat 0) at the top left heading right, B in
/// the bottom row, food and a hazard column.
fn small_game() -> Battlesnake {
    let settings = Settings::from_pairs([("name", "royale"), ("width", "4"), ("height", "3")]).unwrap();
    let position = Position {
        turn: 7,
        snakes: vec![
            SnakeSetup { body: vec![Pos::new(1, 0), Pos::new(0, 0), Pos::new(0, 1)], health: 90, last_move: None },
            SnakeSetup { body: vec![Pos::new(2, 2), Pos::new(1, 2)], health: 55, last_move: None },
        ],
        food: vec![Pos::new(2, 0)],
        hazards: vec![Pos::new(3, 0), Pos::new(3, 1), Pos::new(3, 2)],
    };
    Battlesnake::from_position(settings, 1, &position).unwrap()
}

fn meta() -> GameMeta {
    let mut meta = GameMeta::new("g-1", 500, &["alpha".into(), "beta".into()]);
    meta.snakes[1].latency_ms = 42;
    meta.snakes[1].shout = "hi".into();
    meta.snakes[0].customizations.color = "#ff0000".into();
    meta
}

#[test]
fn request_body_has_the_api_shape() {
    let game = small_game();
    let body = requests(&game, &meta()).remove(0).to_json();
    let pretty = serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(&body).unwrap()).unwrap();
    // serde_json's Value sorts keys; the wire order is checked below.
    expect![[r##"
        {
          "board": {
            "food": [
              {
                "x": 2,
                "y": 2
              }
            ],
            "hazards": [
              {
                "x": 3,
                "y": 2
              },
              {
                "x": 3,
                "y": 1
              },
              {
                "x": 3,
                "y": 0
              }
            ],
            "height": 3,
            "snakes": [
              {
                "body": [
                  {
                    "x": 1,
                    "y": 2
                  },
                  {
                    "x": 0,
                    "y": 2
                  },
                  {
                    "x": 0,
                    "y": 1
                  }
                ],
                "customizations": {
                  "color": "#ff0000",
                  "head": "",
                  "tail": ""
                },
                "head": {
                  "x": 1,
                  "y": 2
                },
                "health": 90,
                "id": "snake-0",
                "latency": "0",
                "length": 3,
                "name": "alpha",
                "shout": "",
                "squad": ""
              },
              {
                "body": [
                  {
                    "x": 2,
                    "y": 0
                  },
                  {
                    "x": 1,
                    "y": 0
                  }
                ],
                "customizations": {
                  "color": "",
                  "head": "",
                  "tail": ""
                },
                "head": {
                  "x": 2,
                  "y": 0
                },
                "health": 55,
                "id": "snake-1",
                "latency": "42",
                "length": 2,
                "name": "beta",
                "shout": "hi",
                "squad": ""
              }
            ],
            "width": 4
          },
          "game": {
            "id": "g-1",
            "map": "standard",
            "ruleset": {
              "name": "royale",
              "settings": {
                "foodSpawnChance": 15,
                "hazardDamagePerTurn": 14,
                "hazardMap": "",
                "hazardMapAuthor": "",
                "minimumFood": 1,
                "royale": {
                  "shrinkEveryNTurns": 25
                },
                "squad": {
                  "allowBodyCollisions": false,
                  "sharedElimination": false,
                  "sharedHealth": false,
                  "sharedLength": false
                }
              },
              "version": "snakepit/5"
            },
            "source": "custom",
            "timeout": 500
          },
          "turn": 7,
          "you": {
            "body": [
              {
                "x": 1,
                "y": 2
              },
              {
                "x": 0,
                "y": 2
              },
              {
                "x": 0,
                "y": 1
              }
            ],
            "customizations": {
              "color": "#ff0000",
              "head": "",
              "tail": ""
            },
            "head": {
              "x": 1,
              "y": 2
            },
            "health": 90,
            "id": "snake-0",
            "latency": "0",
            "length": 3,
            "name": "alpha",
            "shout": "",
            "squad": ""
          }
        }"##]]
    .assert_eq(&pretty);
    // On the wire the keys come in the official engine's order.
    assert!(body.starts_with(r#"{"game":{"id":"g-1","ruleset":{"name":"royale","version":"snakepit/5","settings":{"foodSpawnChance":15,"minimumFood":1,"hazardDamagePerTurn":14,"#), "{body}");
    assert!(body.contains(r#""turn":7,"board":{"height":3,"width":4,"snakes":[{"id":"snake-0","name":"alpha","latency":"0","health":90,"body":[{"x":1,"y":2}"#), "{body}");
}

#[test]
fn up_in_the_api_is_up_in_the_engine() {
    // A moves "up": in the engine toward row 0, in the API toward higher y.
    let mut game = small_game();
    let before = requests(&game, &meta()).remove(0).you.head;
    let mut game2 = game.clone();
    game2.step(&[Some(Dir::Down), Some(Dir::Right)]);
    let after = requests(&game2, &meta()).remove(0).you.head;
    assert_eq!((after.x, after.y), (before.x, before.y - 1));
    // And a bot's "up" from the bottom row in the API is a legal move.
    game.step(&[Some(Dir::Right), Some(Dir::Up)]);
    let b = requests(&game, &meta()).remove(1).you.head;
    assert_eq!(b, Coord { x: 2, y: 1 });
}

#[test]
fn eliminated_snakes_leave_the_board_but_keep_you() {
    let mut game = small_game();
    // B leaves the board downward.
    game.step(&[Some(Dir::Right), Some(Dir::Down)]);
    let reqs = requests(&game, &meta());
    assert_eq!(reqs[0].board.snakes.len(), 1);
    assert_eq!(reqs[0].board.snakes[0].id, "snake-0");
    assert_eq!(reqs[1].you.id, "snake-1");
    assert_eq!(reqs[1].you.head, Coord { x: 2, y: -1 }, "the head that left the board is below it");
}

#[test]
fn answers_are_read_leniently() {
    let ok = |dir, shout: Option<&str>| Ok(MoveAnswer { dir, shout: shout.map(str::to_string) });
    let cases: &[(&str, Result<MoveAnswer, MoveError>)] = &[
        (r#"{"move":"up"}"#, ok(Dir::Up, None)),
        (r#"{"move":"DOWN","shout":"hey"}"#, ok(Dir::Down, Some("hey"))),
        (r#"{"move":" Left\n","extra":[1,2],"shout":7}"#, ok(Dir::Left, None)),
        ("  {\"shout\":\"x\", \"move\":\"rIgHt\"}  ", ok(Dir::Right, Some("x"))),
        (r#"{"move":"sideways"}"#, Err(MoveError::BadMove("sideways".into()))),
        (r#"{"move":3}"#, Err(MoveError::NoMove)),
        (r#"{"mv":"up"}"#, Err(MoveError::NoMove)),
        // Go decodes field names in any case, preferring the exact one.
        (r#"{"Move":"up","Shout":"go"}"#, ok(Dir::Up, Some("go"))),
        (r#"{"MOVE":"left"}"#, ok(Dir::Left, None)),
        (r#"{"Move":"up","move":"down"}"#, ok(Dir::Down, None)),
        (r#""up""#, Err(MoveError::BadJson("a JSON string".into()))),
        ("[]", Err(MoveError::BadJson("a JSON array".into()))),
    ];
    for (body, want) in cases {
        assert_eq!(&parse_move(body.as_bytes()), want, "{body}");
    }
    for body in ["", "up", "{\"move\":\"up\"", "<html>500</html>"] {
        assert!(matches!(parse_move(body.as_bytes()), Err(MoveError::BadJson(_))), "{body:?}");
    }
    let long = format!(r#"{{"move":"up","shout":"{}"}}"#, "é".repeat(300));
    assert_eq!(parse_move(long.as_bytes()).unwrap().shout.unwrap().chars().count(), 256);
}

#[test]
fn info_is_read_leniently() {
    let info = parse_info(br##"{"apiversion":"1","author":"me","color":"#123456","head":7,"x":null}"##).unwrap();
    assert_eq!(info.author.as_deref(), Some("me"));
    assert_eq!(info.head, None);
    let looks = info.customizations();
    assert_eq!((looks.color.as_str(), looks.head.as_str()), ("#123456", "default"));
    assert_eq!(parse_info(br##"{"Color":"#654321","Head":"beluga"}"##).unwrap().customizations().color, "#654321");
    assert!(parse_info(b"not json").is_err());
    assert_eq!(parse_info(b"{}").unwrap().customizations().color, "#888888");
}

proptest! {
    #[test]
    fn any_body_is_an_answer_or_an_error(body in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = parse_move(&body);
        let _ = parse_info(&body);
    }

    #[test]
    fn any_case_of_a_move_is_accepted(mask in 0u32..32, i in 0usize..4, pad in "( |\\\\t|\\\\n){0,3}") {
        let word = ["up", "down", "left", "right"][i];
        let cased: String = word.chars().enumerate()
            .map(|(k, c)| if mask >> k & 1 == 1 { c.to_ascii_uppercase() } else { c })
            .collect();
        let body = format!(r#"{{"move":"{pad}{cased}{pad}","x":{{}}}}"#);
        let want = [Dir::Up, Dir::Down, Dir::Left, Dir::Right][i];
        prop_assert_eq!(parse_move(body.as_bytes()).map(|a| a.dir), Ok(want));
    }

    #[test]
    fn other_moves_are_rejected(word in "[a-z]{0,8}") {
        prop_assume!(!["up", "down", "left", "right"].contains(&word.as_str()));
        let body = format!(r#"{{"move":"{word}"}}"#);
        prop_assert!(matches!(parse_move(body.as_bytes()), Err(MoveError::BadMove(_))));
    }
}

#[test]
fn replays_round_trip_and_resimulate() {
    let settings = Settings::from_pairs([("name", "wrapped"), ("width", "7"), ("height", "7")]).unwrap();
    let mut game = Battlesnake::new(settings, 3, 9).unwrap();
    let players: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
    let mut writer = ReplayWriter::new(Vec::new(), &game, 9, &players).unwrap();
    let mut turn = 0u64;
    while !game.is_over() && turn < 300 {
        turn += 1;
        // Some seats give no answer: the replay keeps "-" and the rules
        // decide.
        let actions: Vec<_> = (0..3)
            .map(|seat| {
                let safe = game.safe_moves(seat);
                if (turn + seat as u64).is_multiple_of(7) { None } else { safe.nth(0) }
            })
            .collect();
        game.step(&actions);
        writer.record(&game, &actions).unwrap();
    }
    let text = String::from_utf8(writer.finish().unwrap()).unwrap();
    let header = text.lines().next().unwrap();
    assert!(header.contains(r#""game":"battlesnake""#) && header.contains(r#""map":[]"#), "{header}");
    assert!(header.contains(r#""settings":{"name":"wrapped","width":"7","height":"7","map":"standard","#), "{header}");
    assert!(text.lines().nth(7).unwrap().contains(r#""-""#), "turn 7 has a missing answer");
    let replay = Replay::<Battlesnake>::parse(&text).unwrap();
    let end = replay.resimulate(|_, _, _| {}).unwrap();
    assert_eq!(end.checksum(), game.checksum());
    assert_eq!(replay.ticks.len() as u64, turn);

    let tampered = text.replacen(r#""m":["-""#, r#""m":["L""#, 1);
    if tampered != text {
        let replay = Replay::<Battlesnake>::parse(&tampered).unwrap();
        assert!(replay.resimulate(|_, _, _| {}).is_err());
    }
}

#[test]
fn replays_with_a_map_or_bad_settings_are_refused() {
    let game = Battlesnake::new(Settings::default(), 2, 1).unwrap();
    let players = vec!["a".to_string(), "b".to_string()];
    let text = String::from_utf8(ReplayWriter::new(Vec::new(), &game, 1, &players).unwrap().finish().unwrap()).unwrap();
    let with_map = text.replace(r#""map":[]"#, r#""map":["..."]"#);
    let err = Replay::<Battlesnake>::parse(&with_map).unwrap_err();
    assert!(err.to_string().contains("must be empty"), "{err}");
    let bad = text.replace(r#""minimumFood":"1""#, r#""minimumFood":"lots""#);
    let err = Replay::<Battlesnake>::parse(&bad).unwrap_err();
    assert!(err.to_string().contains("minimumFood"), "{err}");
}
