//! Process bots in SnakeBattle, Hex and Battlesnake: one JSON state line
//! and one text input line per game byte for byte, the answer readers of
//! both formats, state lines read back, and fuzzing of every new answer
//! parser (case counts in each `proptest!` block).

use expect_test::expect;
use proptest::prelude::*;
use snakepit_engine::battlesnake::{self as bs, Battlesnake, Position, SnakeSetup};
use snakepit_engine::hex::{self as hx, Hex};
use snakepit_engine::snakebattle::{self as sb, SnakeBattle, StoneDrop};
use snakepit_engine::{Dir, Game, Pos, Rng};
use snakepit_protocol::stdio::json::{
    self, hex_answer_line, line, parse_hex_answer, parse_snakebattle_answer, parse_state, snakebattle_answer_line,
};
use snakepit_protocol::stdio::{self, AnswerProblem, StdioGame, Wire};

/// A 7x7 SnakeBattle field with two start floors and one of each item,
/// rounds off so that the snakes move at once.
fn small_snakebattle() -> SnakeBattle {
    let map = "☼☼☼☼☼☼☼\n☼ #  ○☼\n☼  ●  ☼\n☼ #  $☼\n☼ ®  ©☼\n☼     ☼\n☼☼☼☼☼☼☼\n";
    let settings = sb::Settings::from_pairs([("rounds", "false")]).unwrap();
    SnakeBattle::new(settings, sb::Map::parse(map).unwrap(), 2, 1).unwrap()
}

fn small_hex() -> Hex {
    let map = hx::Map::parse("☼☼☼☼☼☼\n☼    ☼\n☼    ☼\n☼    ☼\n☼    ☼\n☼☼☼☼☼☼\n").unwrap();
    Hex::new(hx::Settings::default(), map, 2, 1).unwrap()
}

/// A 5x5 standard game with a hazard under a food and one more hazard.
fn small_battlesnake() -> Battlesnake {
    let settings = bs::Settings::from_pairs([("width", "5"), ("height", "5")]).unwrap();
    let snake = |body: &[(i32, i32)], health| SnakeSetup {
        body: body.iter().map(|&(x, y)| Pos::new(x, y)).collect(),
        health,
        last_move: None,
    };
    let position = Position {
        turn: 3,
        snakes: vec![snake(&[(1, 1), (1, 2), (1, 3)], 90), snake(&[(3, 3), (3, 2), (3, 2)], 100)],
        food: vec![Pos::new(4, 0), Pos::new(2, 4)],
        hazards: vec![Pos::new(4, 0), Pos::new(0, 4)],
    };
    Battlesnake::from_position(settings, 1, &position).unwrap()
}

#[test]
fn snakebattle_state_line() {
    let mut game = small_snakebattle();
    game.step(&[sb::Action::go(Dir::Right), sb::Action::go(Dir::Down)]);
    expect![[r########"
        {"game":"snakebattle","tick":1,"you":1,"width":7,"height":7,"wrap":false,"cells":["#######","#._..o#","#..x..#","#._..$#","#!...^#","#.....#","#######"],"snakes":[{"seat":0,"alive":true,"body":[[3,1],[2,1]],"dir":"right","score":0,"fury":0,"fly":0,"stones":0},{"seat":1,"alive":true,"body":[[2,4],[2,3]],"dir":"down","score":0,"fury":15,"fly":0,"stones":0}],"rules":{"commands":"seed","countdown_ticks":5,"dice":false,"flying_pills":false,"flying_ticks":10,"fury_ticks":15,"map_percent_is_fury":true,"min_ticks_for_win":0,"players_per_field":5,"points_apple":1,"points_die_penalty":0,"points_eat_per_cell":10,"points_gold":10,"points_stone":15,"points_win_flat":0,"points_win_per_length":10,"points_win_per_tick":1,"profile":"codebattle","replace_eaten":true,"round_end_length":40,"round_ticks":300,"rounds":false,"stone_shrink":3}}
    "########]]
    .assert_eq(&game.json_input(1).unwrap());
}

#[test]
fn hex_state_line() {
    let mut game = small_hex();
    let first = game.pieces_of(0)[0];
    game.step(&[hx::Action::clone_to(first, Dir::Right), hx::Action::Skip]);
    expect![[r#######"
        {"game":"hex","tick":1,"you":0,"width":6,"height":6,"wrap":false,"cells":["######","#....#","#.00.#","#..0.#","#....#","######"],"snakes":[],"players":[{"seat":0,"present":true,"score":60,"pieces":[[2,2],[3,2],[3,3]]},{"seat":1,"present":true,"score":0,"pieces":[]}],"rules":{"annihilation":false,"players_per_field":11,"points_lose":10,"points_win":30,"profile":"seed","restart_clears_walls":true,"still_restart_ticks":30}}
    "#######]]
    .assert_eq(&game.json_input(0).unwrap());
}

#[test]
fn battlesnake_state_line() {
    let game = small_battlesnake();
    expect![[r#"
        {"game":"battlesnake","tick":3,"you":0,"width":5,"height":5,"wrap":false,"cells":["....*",".....",".....",".....","~.o.."],"snakes":[{"seat":0,"alive":true,"body":[[1,1],[1,2],[1,3]],"dir":"up","score":3,"health":90},{"seat":1,"alive":true,"body":[[3,3],[3,2],[3,2]],"dir":"down","score":3,"health":100}],"rules":{"foodSpawnChance":15,"hazardDamagePerTurn":14,"height":5,"map":"standard","minimumFood":1,"name":"standard","shrinkEveryNTurns":25,"width":5}}
    "#]]
    .assert_eq(&game.json_input(0).unwrap());
}

#[test]
fn text_input_lines() {
    let game = small_snakebattle();
    expect![[r#"
        board=☼☼☼☼☼☼☼☼╘►  ○☼☼  ●  ☼☼×>  $☼☼ ®  ©☼☼     ☼☼☼☼☼☼☼☼
    "#]]
    .assert_eq(&game.text_input(0).unwrap());
    let game = small_hex();
    expect![[r#"
        board=☼☼☼☼☼☼☼    ☼☼ ☻  ☼☼  ☺ ☼☼    ☼☼☼☼☼☼☼
    "#]]
    .assert_eq(&game.text_input(1).unwrap());
    let game = small_battlesnake();
    expect![[r##"
        {"game":{"id":"snakepit","ruleset":{"name":"standard","version":"snakepit/5","settings":{"foodSpawnChance":15,"minimumFood":1,"hazardDamagePerTurn":14,"hazardMap":"","hazardMapAuthor":"","royale":{"shrinkEveryNTurns":25},"squad":{"allowBodyCollisions":false,"sharedElimination":false,"sharedHealth":false,"sharedLength":false}}},"map":"standard","timeout":1000,"source":"custom"},"turn":3,"board":{"height":5,"width":5,"snakes":[{"id":"snake-0","name":"seat 0","latency":"0","health":90,"body":[{"x":1,"y":3},{"x":1,"y":2},{"x":1,"y":1}],"head":{"x":1,"y":3},"length":3,"shout":"","squad":"","customizations":{"color":"#888888","head":"default","tail":"default"}},{"id":"snake-1","name":"seat 1","latency":"0","health":100,"body":[{"x":3,"y":1},{"x":3,"y":2},{"x":3,"y":2}],"head":{"x":3,"y":1},"length":3,"shout":"","squad":"","customizations":{"color":"#888888","head":"default","tail":"default"}}],"food":[{"x":4,"y":4},{"x":2,"y":0}],"hazards":[{"x":4,"y":4},{"x":0,"y":0}]},"you":{"id":"snake-1","name":"seat 1","latency":"0","health":100,"body":[{"x":3,"y":1},{"x":3,"y":2},{"x":3,"y":2}],"head":{"x":3,"y":1},"length":3,"shout":"","squad":"","customizations":{"color":"#888888","head":"default","tail":"default"}}}
    "##]]
    .assert_eq(&game.text_input(1).unwrap());
    assert_eq!(Wire::Text.inputs(&game), (0..2).map(|s| game.text_input(s)).collect::<Vec<_>>());
}

/// The message of a rejected JSON answer.
fn message<A: std::fmt::Debug>(r: Result<A, stdio::AnswerError>) -> String {
    match r.unwrap_err().problem {
        AnswerProblem::Json { message } => message,
        other => panic!("{other:?}"),
    }
}

#[test]
fn snakebattle_json_answers() {
    let go = |d| sb::Action::go(d);
    let drop = |d| sb::Action { dir: d, drop: Some(StoneDrop::BeforeMove), suicide: false };
    assert_eq!(parse_snakebattle_answer(b"{\"move\":\"up\"}\n"), Ok(go(Dir::Up)));
    assert_eq!(parse_snakebattle_answer(b"{\"move\":\"LEFT\",\"act\":true}"), Ok(drop(Some(Dir::Left))));
    assert_eq!(parse_snakebattle_answer(b" {\"act\":true,\"why\":[1]}\r\n"), Ok(drop(None)));
    assert_eq!(parse_snakebattle_answer(b"{\"move\":\"down\",\"act\":false}\n"), Ok(go(Dir::Down)));
    assert_eq!(message(parse_snakebattle_answer(b"{}\n")), "neither \"move\" nor \"act\":true; expected {\"move\":\"up\"} and/or \"act\":true");
    assert_eq!(message(parse_snakebattle_answer(b"{\"act\":1}\n")), "\"act\" is 1; expected true or false");
    assert_eq!(message(parse_snakebattle_answer(b"{\"move\":\"north\"}\n")), "\"move\" is \"north\"; expected \"up\", \"right\", \"down\" or \"left\"");
    assert_eq!(message(parse_snakebattle_answer(b"UP\n")), "not a JSON object {\"move\": ..., \"act\": true}");
    let e = parse_snakebattle_answer(b"{\"move\":\"up\",\"move\":\"up\"}").unwrap_err();
    assert_eq!(e.to_string(), r#"answer "{\"move\":\"up\",\"move\":\"up\"}": not {"move": ..., "act": true}: duplicate field `move` at line 1 column 19"#);
    assert_eq!(Wire::Json.parse_answer::<SnakeBattle>(b"{\"act\":true}"), Ok(drop(None)));
}

#[test]
fn hex_json_answers() {
    let p = Pos::new(2, 3);
    assert_eq!(parse_hex_answer(b"{\"from\":[2,3],\"move\":\"left\"}\n"), Ok(hx::Action::clone_to(p, Dir::Left)));
    assert_eq!(parse_hex_answer(b"{\"jump\":true,\"move\":\"Up\",\"from\":[2,3],\"x\":0}"), Ok(hx::Action::jump_to(p, Dir::Up)));
    assert_eq!(parse_hex_answer(b"{\"from\":[2,3],\"move\":\"up\",\"jump\":false}"), Ok(hx::Action::clone_to(p, Dir::Up)));
    assert_eq!(message(parse_hex_answer(b"{\"move\":\"up\"}")), "not {\"from\": [x, y], \"move\": ..., \"jump\": false}: missing field `from` at line 1 column 13");
    assert_eq!(message(parse_hex_answer(b"{\"from\":[2],\"move\":\"up\"}")), "\"from\" is [2]; expected [x, y], two integers");
    assert_eq!(message(parse_hex_answer(b"{\"from\":[2,3.5],\"move\":\"up\"}")), "\"from\" is [2,3.5]; expected [x, y], two integers");
    assert_eq!(message(parse_hex_answer(b"{\"from\":[2,4294967296],\"move\":\"up\"}")), "\"from\" is [2,4294967296]; expected [x, y], two integers");
    assert_eq!(message(parse_hex_answer(b"{\"from\":[2,3],\"move\":\"up\",\"jump\":1}")), "\"jump\" is 1; expected true or false");
    assert_eq!(message(parse_hex_answer(b"[2,3]")), "not a JSON object {\"from\": [x, y], \"move\": ..., \"jump\": false}");
    assert_eq!(Wire::Json.parse_answer::<Hex>(b"{\"from\":[2,3],\"move\":\"left\"}"), Ok(hx::Action::clone_to(p, Dir::Left)));
    // The Hex state says whose pieces are where; the default move answer of
    // the other games names no piece.
    assert!(Wire::Json.parse_answer::<Hex>(b"{\"move\":\"up\"}").is_err());
    // A turn without a move, as the text protocol's empty line.
    assert_eq!(parse_hex_answer(b"{\"skip\":true}\n"), Ok(hx::Action::Skip));
    assert_eq!(hex_answer_line(&hx::Action::Skip).as_deref(), Some("{\"skip\":true}\n"));
    assert!(parse_hex_answer(b"{\"skip\":false}").is_err());
    assert!(parse_hex_answer(b"{}").is_err());
}

#[test]
fn snakebattle_text_answers() {
    let mut game = small_snakebattle();
    let read = |g: &SnakeBattle, line: &[u8]| g.parse_answer_in(0, Wire::Text, line);
    assert_eq!(read(&game, b"UP\n"), Ok(sb::Action::go(Dir::Up)));
    assert_eq!(read(&game, b"act,left\r\n").unwrap().drop, Some(StoneDrop::BeforeMove));
    assert_eq!(read(&game, b"RIGHT,ACT\n").unwrap().drop, Some(StoneDrop::AfterMove));
    assert!(read(&game, b"ACT(0)\n").unwrap().suicide);
    assert_eq!(read(&game, b"\n"), Ok(sb::Action::default()), "the empty answer keeps going");
    assert_eq!(read(&game, b"message('hi')\n"), Ok(sb::Action::default()));
    // CodeBattle's "no command", which the socket ignores.
    assert_eq!(read(&game, b"STOP\n"), Ok(sb::Action::default()));
    assert_eq!(read(&game, b"stop, stop\n"), Ok(sb::Action::default()));
    assert!(read(&game, b"stop north\n").is_err());
    // The profile's rule reads two directions.
    assert_eq!(read(&game, b"LEFT,UP\n"), Ok(sb::Action::default()));
    let upstream = sb::Settings::from_pairs([("profile", "codenjoy")]).unwrap();
    game = SnakeBattle::new(upstream, game.map().clone(), 2, 1).unwrap();
    assert_eq!(read(&game, b"LEFT,UP\n"), Ok(sb::Action::go(Dir::Up)));
    let e = read(&game, b"north\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        r#"answer "north\n": not a move; expected a Codenjoy command (UP, DOWN, LEFT, RIGHT, ACT, ACT,LEFT, LEFT,ACT, ACT(0)) or an empty line"#
    );
    assert_eq!(read(&game, b"UP\nUP\n").unwrap_err().problem, AnswerProblem::SeveralLines);
    assert_eq!(Wire::Text.parse_answer::<SnakeBattle>(b"LEFT,UP"), Ok(sb::Action::default()), "codebattle without a game");
    assert_eq!(<SnakeBattle as StdioGame>::forfeit(), sb::Action::default());
}

#[test]
fn hex_text_answers() {
    let game = small_hex();
    let mine = game.pieces_of(1)[0];
    let theirs = game.pieces_of(0)[0];
    let read = |line: String| game.parse_answer_in(1, Wire::Text, line.as_bytes());
    assert_eq!(read(format!("ACT({},{}),LEFT\n", mine.x, mine.y)), Ok(hx::Action::clone_to(mine, Dir::Left)));
    assert_eq!(read(format!("act({}, {},1), down\n", mine.x, mine.y)), Ok(hx::Action::jump_to(mine, Dir::Down)));
    assert_eq!(read(format!("ACT({},{}),LEFT\n", theirs.x, theirs.y)), Ok(hx::Action::Skip), "not its piece: no move");
    assert_eq!(read("\n".to_string()), Ok(hx::Action::Skip));
    let e = read("C2,3L\n".to_string()).unwrap_err();
    assert_eq!(e.to_string(), r#"answer "C2,3L\n": not a move; expected a Hex command ACT(x,y),DIR or ACT(x,y,1),DIR, or an empty line"#);
    // Without the game, a selection is taken as the bot's piece.
    let blind = format!("ACT({},{}),LEFT", theirs.x, theirs.y);
    assert_eq!(Wire::Text.parse_answer::<Hex>(blind.as_bytes()), Ok(hx::Action::clone_to(theirs, Dir::Left)));
    assert_eq!(<Hex as StdioGame>::forfeit(), hx::Action::Skip);
}

#[test]
fn battlesnake_text_answers() {
    let read = |line: &[u8]| Wire::Text.parse_answer::<Battlesnake>(line);
    assert_eq!(read(b"{\"move\":\"up\"}\n"), Ok(Some(Dir::Up)));
    assert_eq!(read(b" {\"move\":\" Left \",\"shout\":\"hi\"} \n"), Ok(Some(Dir::Left)));
    assert_eq!(message(read(b"{\"shout\":\"hi\"}\n")), "no \"move\" string in the answer");
    assert_eq!(message(read(b"up\n")), "not a JSON object: expected value at line 1 column 1");
    assert_eq!(read(b"{\"move\":\"up\"}\n{}\n").unwrap_err().problem, AnswerProblem::SeveralLines);
    assert_eq!(Wire::Json.parse_answer::<Battlesnake>(b"{\"move\":\"down\"}"), Ok(Some(Dir::Down)));
    assert_eq!(<Battlesnake as StdioGame>::forfeit(), None);
}

#[test]
fn who_is_asked() {
    let mut game = small_battlesnake();
    // Seat 0 turns into its own body and is out; only seat 1 is asked.
    game.step(&[Some(Dir::Down), Some(Dir::Up)]);
    assert!(!game.snakes()[0].is_alive());
    assert_eq!(game.json_input(0), None);
    assert_eq!(game.text_input(0), None);
    assert!(game.is_finished(), "one snake left: the standard game is over");
    assert_eq!(game.json_input(1), None, "nobody is asked once the game is over");
    let mut game = small_snakebattle();
    game.set_present(1, false);
    assert_eq!(game.text_input(1), None);
    assert_eq!(game.json_input(1), None);
    assert!(game.text_input(0).is_some());
}

#[test]
fn hex_states_name_you() {
    let game = small_hex();
    let state = json::hex(&game, 1).unwrap();
    assert_eq!(parse_state(&line(&state)), Ok(state.clone()));
    let mut s = state.clone();
    s.you = 5;
    assert_eq!(parse_state(&line(&s)).unwrap_err().to_string(), "state: no player has seat 5 (you)");
    let mut s = state;
    s.players.as_mut().unwrap()[0].pieces.push([6, 0]);
    assert_eq!(parse_state(&line(&s)).unwrap_err().to_string(), "state: player 0 has a piece off the board at [6,0]");
    assert_eq!(json::hex_seat_glyph(0), '0');
    assert_eq!(json::hex_seat_glyph(10), 'a');
    assert_eq!(json::hex_seat_glyph(61), 'Z');
    assert_eq!(json::hex_seat_glyph(62), '+');
}

/// A few ticks of each game with random actions, every state line sent on
/// the way.
fn played_lines(seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut s = SnakeBattle::new(sb::Settings::default(), sb::Map::default_map(), 3, seed).unwrap();
    let mut h = Hex::new(hx::Settings::default(), hx::Map::default_map(), 3, seed).unwrap();
    let ruleset = ["standard", "royale", "wrapped"][(seed % 3) as usize];
    let settings = bs::Settings::from_pairs([("name", ruleset), ("width", "7"), ("height", "7")]).unwrap();
    let mut b = Battlesnake::new(settings, 3, seed).unwrap();
    for _ in 0..20 {
        for seat in 0..3 {
            out.extend(s.json_input(seat));
            out.extend(h.json_input(seat));
            out.extend(b.json_input(seat));
        }
        let dirs: Vec<Dir> = (0..3).map(|_| Dir::ALL[rng.index(4)]).collect();
        let act = rng.index(4) == 0;
        s.step(&dirs.iter().map(|&d| sb::Action { dir: Some(d), drop: act.then_some(StoneDrop::BeforeMove), suicide: false }).collect::<Vec<_>>());
        let hex_moves: Vec<hx::Action> = (0..3)
            .map(|seat| {
                let pieces = h.pieces_of(seat);
                if pieces.is_empty() {
                    return hx::Action::Skip;
                }
                hx::Action::Move { from: pieces[rng.index(pieces.len())], dir: Dir::ALL[rng.index(4)], jump: rng.index(3) == 0 }
            })
            .collect();
        h.step(&hex_moves);
        b.step(&dirs.iter().map(|&d| Some(d)).collect::<Vec<_>>());
    }
    out
}

fn dir_strategy() -> impl Strategy<Value = Dir> {
    prop_oneof![Just(Dir::Up), Just(Dir::Right), Just(Dir::Down), Just(Dir::Left)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// No answer reader panics on any bytes, in any game, in any format.
    #[test]
    fn answer_parsers_fuzz(line in proptest::collection::vec(any::<u8>(), 0..60)) {
        let sb_game = small_snakebattle();
        let hex_game = small_hex();
        for wire in [Wire::Text, Wire::Json] {
            let _ = sb_game.parse_answer_in(0, wire, &line);
            let _ = hex_game.parse_answer_in(1, wire, &line);
            let _ = wire.parse_answer::<SnakeBattle>(&line);
            let _ = wire.parse_answer::<Hex>(&line);
            let _ = wire.parse_answer::<Battlesnake>(&line);
        }
    }

    /// Text answers from the command grammar's pieces never panic, and a
    /// line holding a command word is never rejected.
    #[test]
    fn text_answers_structured(
        words in proptest::collection::vec("(UP|down|Left|right|ACT|act\\([0-9,-]{0,6}\\)|message\\('x'\\)|,| |x|☺)", 0..6),
    ) {
        let text = words.concat();
        let sb_game = small_snakebattle();
        let hex_game = small_hex();
        let has_word = ["up", "down", "left", "right", "act", "message"].iter().any(|w| text.to_ascii_lowercase().contains(w));
        let blank = text.trim().is_empty();
        let sb = sb_game.parse_answer_in(0, Wire::Text, text.as_bytes());
        prop_assert_eq!(sb.is_ok(), has_word || blank, "{}", text);
        let hex = hex_game.parse_answer_in(0, Wire::Text, text.as_bytes());
        let hex_word = ["up", "down", "left", "right", "act"].iter().any(|w| text.to_ascii_lowercase().contains(w));
        // Hex reads an answer that is only a message as no command.
        if (hex_word || blank) && !text.contains("message") {
            prop_assert!(hex.is_ok(), "{}", text);
        }
    }

    /// JSON answers built from pieces, near misses included: accepted
    /// exactly when they are well formed.
    #[test]
    fn snakebattle_json_structured(
        mv in "(|\"move\":\"up\",|\"move\":\"Down\",|\"move\":\"north\",|\"move\":0,|\"move\":null,)",
        act in "(|\"act\":true,|\"act\":false,|\"act\":1,|\"act\":\"yes\",)",
        extra in "(|\"x\":[1],)",
        pad in "[ \\t\\r]{0,2}",
    ) {
        let body = format!("{mv}{act}{extra}");
        let text = format!("{pad}{{{}}}{pad}\n", body.trim_end_matches(','));
        let good_move = mv.contains("up") || mv.contains("Down");
        let bad = mv.contains("north") || mv.contains(":0") || act.contains(":1") || act.contains("yes");
        let valid = !bad && (good_move || act.contains("true"));
        prop_assert_eq!(parse_snakebattle_answer(text.as_bytes()).is_ok(), valid, "{}", text);
    }

    #[test]
    fn hex_json_structured(
        from in "(|\"from\":\\[1,2\\],|\"from\":\\[-3,0\\],|\"from\":\\[1\\],|\"from\":\\[1,2,3\\],|\"from\":\"1,2\",|\"from\":\\[1,9999999999\\],)",
        mv in "(|\"move\":\"up\",|\"move\":\"LEFT\",|\"move\":\"jump\",)",
        jump in "(|\"jump\":true,|\"jump\":false,|\"jump\":0,)",
        pad in "[ \\t\\r]{0,2}",
    ) {
        let body = format!("{from}{mv}{jump}");
        let text = format!("{pad}{{{}}}{pad}\n", body.trim_end_matches(','));
        let good_from = from.contains("[1,2]") || from.contains("[-3,0]");
        let good_move = mv.contains("up") || mv.contains("LEFT");
        let valid = good_from && good_move && !jump.contains(":0");
        prop_assert_eq!(parse_hex_answer(text.as_bytes()).is_ok(), valid, "{}", text);
    }

    /// Every action a JSON answer can carry reads back from its line.
    #[test]
    fn answer_lines_round_trip(d in dir_strategy(), act in any::<bool>(), x in any::<i32>(), y in any::<i32>(), jump in any::<bool>()) {
        let sb_action = sb::Action { dir: Some(d), drop: act.then_some(StoneDrop::BeforeMove), suicide: false };
        let sb_line = snakebattle_answer_line(&sb_action).unwrap();
        prop_assert_eq!(parse_snakebattle_answer(sb_line.as_bytes()), Ok(sb_action));
        let act_only = sb::Action { dir: None, drop: Some(StoneDrop::BeforeMove), suicide: false };
        prop_assert_eq!(parse_snakebattle_answer(snakebattle_answer_line(&act_only).unwrap().as_bytes()), Ok(act_only));
        let hex_action = hx::Action::Move { from: Pos::new(x, y), dir: d, jump };
        let hex_line = hex_answer_line(&hex_action).unwrap();
        prop_assert_eq!(parse_hex_answer(hex_line.as_bytes()), Ok(hex_action));
        prop_assert_eq!(Wire::Json.parse_answer::<Battlesnake>(json::answer_line(d).as_bytes()), Ok(Some(d)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 30, ..ProptestConfig::default() })]

    /// Every state line sent reads back to the same state and writes back
    /// to the same bytes.
    #[test]
    fn state_lines_round_trip(seed: u64) {
        for sent in played_lines(seed) {
            prop_assert!(sent.ends_with('\n') && !sent[..sent.len() - 1].contains('\n'));
            let state = parse_state(&sent).expect("a sent state parses");
            prop_assert_eq!(line(&state), sent);
        }
    }
}
