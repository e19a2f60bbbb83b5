//! The JSON-lines protocol: the state lines of all three games byte for
//! byte, the answer grammar, states read back, and fuzzing of both parsers
//! (case counts in each `proptest!` block).

use expect_test::expect;
use proptest::prelude::*;
use snakepit_engine::carrots::{self, Carrots};
use snakepit_engine::duel::{self, Duel, DuelMap};
use snakepit_engine::multisnake::{self, Map, Multisnake};
use snakepit_engine::{Dir, Game, Pos, Rng};
use snakepit_protocol::stdio::json::{State, answer_line, line, parse_answer, parse_state};
use snakepit_protocol::stdio::{AnswerProblem, StdioGame, Wire, json};

fn small_multisnake() -> Multisnake {
    let map = Map::parse("#####\n#>A.#\n#.#+#\n#B.-#\n#####\n").unwrap();
    Multisnake::new(multisnake::Settings::default(), map, 1)
}

#[test]
fn multisnake_state_line() {
    let mut game = small_multisnake();
    game.step(&[multisnake::Action::Move(Dir::Right), multisnake::Action::Move(Dir::Right)]);
    expect![[r#######"
        {"game":"multisnake","tick":1,"you":1,"width":5,"height":5,"wrap":true,"cells":["#####","#...#","#.#o#","#..-#","#####"],"snakes":[{"seat":0,"alive":true,"body":[[3,1],[2,1]],"dir":"right","score":0},{"seat":1,"alive":true,"body":[[2,3]],"dir":"right","score":0}],"rules":{"grow_every":10,"turns_max":2000}}
    "#######]]
    .assert_eq(&game.json_input(1).unwrap());
}

#[test]
fn carrots_state_line() {
    let s = carrots::Settings::from_pairs([("width", "4"), ("height", "3")]).unwrap();
    let mut game = Carrots::new(s, 2, 1).unwrap();
    let a = Carrots::make_snake(vec![Pos::new(1, 1), Pos::new(0, 1)], Dir::Right);
    let b = Carrots::make_snake(vec![Pos::new(3, 0)], Dir::Right);
    game.set_position(&[Pos::new(2, 2)], vec![a, b]);
    game.set_apple_spawning(false);
    game.step(&[carrots::Action::Move(Dir::Right), carrots::Action::Move(Dir::Right)]);
    // B left the board: it is dead, with its one cell dropped, and not
    // listed; A is asked.
    expect![[r#######"
        {"game":"carrots","tick":1,"you":0,"width":4,"height":3,"wrap":false,"cells":["....","....","..o."],"snakes":[{"seat":0,"alive":true,"body":[[2,1],[1,1]],"dir":"right","score":2}],"rules":{"apples_max":200,"bodies_stay":false,"height":3,"respawn_ticks":1,"width":4}}
    "#######]]
    .assert_eq(&game.json_input(0).unwrap());
    assert_eq!(game.json_input(1), None, "a dead snake is not asked");
}

#[test]
fn duel_state_line() {
    let map = DuelMap::parse("######\n#B...#\n#.#..#\n#A...#\n######\n").unwrap();
    let mut game = Duel::with_map(duel::Settings::default(), map, 1);
    game.step(&[duel::Action::Move(Dir::Right), duel::Action::Move(Dir::Right)]);
    expect![[r#######"
        {"game":"duel","tick":1,"you":0,"width":6,"height":5,"wrap":false,"cells":["######","#....#","#.#..#","#....#","######"],"snakes":[{"seat":0,"alive":true,"body":[[2,3],[1,3]],"dir":"right","score":0},{"seat":1,"alive":true,"body":[[2,1],[1,1]],"dir":"right","score":0}],"rules":{"cols":14,"grow_every":3,"grow_steps":10,"inner_walls":20,"points_draw":0,"points_loss":-2,"points_win":5,"rounds_max":1000,"rows":13}}
    "#######]]
    .assert_eq(&game.json_input(0).unwrap());
}

#[test]
fn answers() {
    let ok: &[(&[u8], Dir)] = &[
        (b"{\"move\":\"up\"}\n", Dir::Up),
        (b"{\"move\": \"RIGHT\"}", Dir::Right),
        (b"  {\"move\":\"down\",\"why\":\"food\"}\r\n", Dir::Down),
        (b"{\"why\":[1,{\"x\":2}],\"move\":\"Left\"}\n", Dir::Left),
    ];
    for (line, d) in ok {
        assert_eq!(parse_answer(line), Ok(*d), "{}", line.escape_ascii());
    }
    for d in Dir::ALL {
        assert_eq!(parse_answer(answer_line(d).as_bytes()), Ok(d));
    }
    let message = |line: &[u8]| match parse_answer(line).unwrap_err().problem {
        AnswerProblem::Json { message } => message,
        other => panic!("{other:?}"),
    };
    assert_eq!(message(b"up\n"), "not a JSON object {\"move\": ...}");
    assert_eq!(message(b"{}\n"), "not {\"move\": ...}: missing field `move` at line 1 column 2");
    assert_eq!(message(b"[\"up\"]\n"), "not a JSON object {\"move\": ...}");
    assert_eq!(message(b"{\"move\":\"up\"\n"), "not {\"move\": ...}: EOF while parsing an object at line 1 column 12");
    assert_eq!(
        message(b"{\"move\":\"up\",\"move\":\"down\"}\n"),
        "not {\"move\": ...}: duplicate field `move` at line 1 column 19"
    );
    assert_eq!(message(b"{\"move\":\"north\"}\n"), "\"move\" is \"north\"; expected \"up\", \"right\", \"down\" or \"left\"");
    assert_eq!(message(b"{\"move\":0}\n"), "\"move\" is 0; expected \"up\", \"right\", \"down\" or \"left\"");
    assert_eq!(message(b"{\"move\":\"up\"} x\n"), "not {\"move\": ...}: trailing characters at line 1 column 15");
    assert_eq!(parse_answer(b"{\"move\":\"up\"}\n{}\n").unwrap_err().problem, AnswerProblem::SeveralLines);
    let e = parse_answer(b"{\"move\":\"up\"").unwrap_err();
    assert_eq!(e.to_string(), r#"answer "{\"move\":\"up\"": not {"move": ...}: EOF while parsing an object at line 1 column 12"#);
    // Every game reads JSON answers the same way.
    let up = b"{\"move\":\"up\"}\n";
    assert_eq!(Wire::Json.parse_answer::<Carrots>(up), Ok(carrots::Action::Move(Dir::Up)));
    assert_eq!(Wire::Json.parse_answer::<Duel>(up), Ok(duel::Action::Move(Dir::Up)));
    assert_eq!(Wire::Json.parse_answer::<Multisnake>(up), Ok(multisnake::Action::Move(Dir::Up)));
}

#[test]
fn state_defects_are_named() {
    let mut game = small_multisnake();
    game.step(&[]);
    let good = json::multisnake(&game, 0).unwrap();
    let text = |s: &State| line(s);
    let err = |s: &State| parse_state(&text(s)).unwrap_err().to_string();
    assert_eq!(parse_state(&text(&good)), Ok(good.clone()));
    let mut s = good.clone();
    s.cells.pop();
    assert_eq!(err(&s), "state: 4 rows of cells; height is 5");
    let mut s = good.clone();
    s.cells[2].push('.');
    assert_eq!(err(&s), "state: row 2 has 6 cells; width is 5");
    let mut s = good.clone();
    s.snakes[1].body.push([5, 0]);
    assert_eq!(err(&s), "state: snake 1 has a cell off the board at [5,0]");
    let mut s = good.clone();
    s.you = 7;
    assert_eq!(err(&s), "state: no snake has seat 7 (you)");
    assert!(parse_state("{\"game\":1}").unwrap_err().to_string().starts_with("state: invalid type"));
}

/// Plays a few ticks of each game with random moves, returning every state
/// line sent on the way.
fn played_lines(seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut moves = |n: usize| -> Vec<Dir> { (0..n).map(|_| Dir::ALL[rng.index(4)]).collect() };
    let s = carrots::Settings::from_pairs([("width", "9"), ("height", "7")]).unwrap();
    let mut c = Carrots::new(s, 3, seed).unwrap();
    let mut d = Duel::new(duel::Settings::default(), seed);
    let map = multisnake::builtin_map("duo-40x20").unwrap();
    let mut m = Multisnake::new(multisnake::Settings::default(), map, seed);
    for _ in 0..20 {
        for seat in 0..3 {
            out.extend(c.json_input(seat));
        }
        for seat in 0..2 {
            out.extend(d.json_input(seat));
            out.extend(m.json_input(seat));
        }
        c.step(&moves(3).into_iter().map(carrots::Action::Move).collect::<Vec<_>>());
        d.step(&moves(2).into_iter().map(duel::Action::Move).collect::<Vec<_>>());
        m.step(&moves(2).into_iter().map(multisnake::Action::Move).collect::<Vec<_>>());
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn answer_parser_fuzz(line in proptest::collection::vec(any::<u8>(), 0..40)) {
        let _ = parse_answer(&line);
    }

    /// Answers built from JSON pieces, including near misses.
    #[test]
    fn answer_parser_structured(
        key in "(move|Move|mov|)",
        value in "(\"up\"|\"Down\"|\"lefT\"|\"right \"|0|null|\\[\"up\"\\]|\\{\\})",
        extra in "(|,\"x\":1|,\"move\":\"up\"|,)",
        pad in "[ \\t\\r]{0,2}",
    ) {
        let text = format!("{pad}{{\"{key}\":{value}{extra}}}{pad}\n");
        let result = parse_answer(text.as_bytes());
        // Exactly one "move" key, with a direction, in valid JSON.
        let moves = usize::from(key == "move") + usize::from(extra.contains("move"));
        let good_value = ["\"up\"", "\"Down\"", "\"lefT\""].contains(&value.as_str());
        let valid = extra != "," && moves == 1 && (key != "move" || good_value);
        prop_assert_eq!(result.is_ok(), valid, "{}", text);
    }

    #[test]
    fn state_parser_fuzz(text in "\\PC{0,200}") {
        let _ = parse_state(&text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// Every state line sent reads back to the same state, and writes back
    /// to the same bytes.
    #[test]
    fn state_lines_round_trip(seed: u64) {
        for sent in played_lines(seed) {
            prop_assert!(sent.ends_with('\n') && !sent[..sent.len() - 1].contains('\n'));
            let state = parse_state(&sent).expect("a sent state parses");
            prop_assert_eq!(line(&state), sent);
        }
    }

    /// A sent state line with one byte changed never panics the reader.
    #[test]
    fn state_parser_mutations(seed: u64, at: usize, byte: u8) {
        let lines = played_lines(seed % 4);
        let mut bytes = lines[at % lines.len()].as_bytes().to_vec();
        let i = at % bytes.len();
        bytes[i] = byte;
        if let Ok(text) = String::from_utf8(bytes) {
            let _ = parse_state(&text);
        }
    }
}
