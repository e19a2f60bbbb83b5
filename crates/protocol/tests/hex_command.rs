//! The Hex command grammar: the Hex description's and the spec's examples, every
//! reason an answer is ignored and its note for the player's page, and
//! fuzzing with arbitrary text, with answers built from grammar pieces and
//! with huge answers.

use expect_test::expect;
use proptest::prelude::*;
use snakepit_engine::hex::{Action, Cell, Hex, Map, Player, Settings};
use snakepit_engine::{Dir, Pos};
use snakepit_protocol::hex::{
    BadAct, COMMAND_CHARS_MAX, COMMAND_TOKENS_MAX, Note, Reading, Token, command_text, parse_command, read_command,
};

/// A 7x7 field: seat 0 has pieces at [2,3] and [1,1], seat 1 one at [4,4].
fn game() -> Hex {
    let map = Map::parse("☼☼☼☼☼☼☼\n☼     ☼\n☼     ☼\n☼     ☼\n☼     ☼\n☼     ☼\n☼☼☼☼☼☼☼\n").unwrap();
    let mut g = Hex::new(Settings::default(), map, 0, 1).unwrap();
    let mut cells = g.cells().to_vec();
    cells[7 + 1] = Cell::Piece(0);
    cells[3 * 7 + 2] = Cell::Piece(0);
    cells[4 * 7 + 4] = Cell::Piece(1);
    let p = Player { present: true, placed: true, ..Player::default() };
    g.set_position(cells, vec![p.clone(), p]);
    g
}

fn read(text: &str) -> Reading {
    read_command(&game(), 0, text)
}

fn sel(x: i32, y: i32, jump: bool) -> Token {
    Token::Select { at: Pos::new(x, y), jump }
}

#[test]
fn seed_examples() {
    // `ACT(2,3),LEFT`: the piece at [2,3], y from the top, clones left.
    assert_eq!(parse_command("ACT(2,3),LEFT"), [sel(2, 3, false), Token::Dir(Dir::Left)]);
    assert_eq!(read("ACT(2,3),LEFT"), Reading { action: Action::clone_to(Pos::new(2, 3), Dir::Left), note: None });
    // `ACT(1,1,1),UP`: the piece at [1,1] jumps up.
    assert_eq!(parse_command("ACT(1,1,1),UP"), [sel(1, 1, true), Token::Dir(Dir::Up)]);
    assert_eq!(read("ACT(1,1,1),UP"), Reading { action: Action::jump_to(Pos::new(1, 1), Dir::Up), note: None });
}

#[test]
fn spec_grammar() {
    let clone = Action::clone_to(Pos::new(2, 3), Dir::Left);
    // Case-insensitive, spaces next to commas ignored, `ACT(x,y,0)` a clone.
    for text in ["act(2,3),left", "Act(2, 3) , LeFt", "ACT(2,3,0),LEFT", "ACT(2,3,),LEFT", "ACT(2,3) LEFT"] {
        assert_eq!(read(text).action, clone, "{text:?}");
    }
    // The direction must follow: `LEFT,ACT(..)` does nothing.
    assert_eq!(read("LEFT,ACT(2,3)"), Reading { action: Action::Skip, note: Some(Note::NoDirection(Pos::new(2, 3))) });
    // The last direction given to a selection wins; a later selection with
    // its own direction replaces the move; one without a direction does not.
    assert_eq!(read("ACT(2,3),LEFT,UP").action, Action::clone_to(Pos::new(2, 3), Dir::Up));
    assert_eq!(read("ACT(2,3),LEFT,ACT(1,1),DOWN").action, Action::clone_to(Pos::new(1, 1), Dir::Down));
    let r = read("ACT(2,3),LEFT,ACT(1,1)");
    assert_eq!((r.action, r.note), (clone, Some(Note::NoDirection(Pos::new(1, 1)))));
    // Selecting a cell that is not yours clears the selection, so a
    // direction after it does nothing; a move made before it stands.
    assert_eq!(read("ACT(4,4),LEFT").action, Action::Skip);
    assert_eq!(read("ACT(2,3),ACT(4,4),LEFT").action, Action::Skip);
    assert_eq!(read("ACT(2,3),LEFT,ACT(4,4),UP").action, clone);
    // Chat messages and the words around commands are ignored, as upstream.
    assert_eq!(read("message('ACT(1,1),UP'),ACT(2,3),LEFT").action, clone);
    assert_eq!(read("ACT(2,3),LEFTWARDS").action, clone);
    assert_eq!(read("stop,ACT(2,3);left").action, clone);
}

#[test]
fn notes_for_the_players_page() {
    let cases = [
        "",
        "   ",
        "hello",
        "ACT,LEFT",
        "ACT(),LEFT",
        "ACT(2),LEFT",
        "ACT(1,2,3,4),LEFT",
        "ACT(2,3,2),LEFT",
        "ACT(2,,3),LEFT",
        "ACT(99999999999,3),LEFT",
        "ACT(7,3),LEFT",
        "ACT(-1,3),LEFT",
        "ACT(4,4),LEFT",
        "ACT(3,3),LEFT",
        "ACT(2,3)",
        "LEFT",
        "LEFT,ACT(2,3)",
        "ACT(2,3),LEFT",
        "ACT(1,1,1),down",
    ];
    let out: String = cases.iter().map(|t| format!("{t:?} → {}\n", read(t).describe())).collect();
    expect![[r#"
        "" → no move; empty answer: no move this tick
        "   " → no move; empty answer: no move this tick
        "hello" → no move; no command recognised: no move this tick (send ACT(x,y),DIR or ACT(x,y,1),DIR)
        "ACT,LEFT" → no move; ACT needs the piece's coordinates, as in ACT(2,3),LEFT: ignored
        "ACT(),LEFT" → no move; ACT needs the piece's coordinates, as in ACT(2,3),LEFT: ignored
        "ACT(2),LEFT" → no move; ACT takes 2 or 3 numbers, not 1: ignored
        "ACT(1,2,3,4),LEFT" → no move; ACT takes 2 or 3 numbers, not 4: ignored
        "ACT(2,3,2),LEFT" → no move; the third number of ACT must be 1 (jump) or 0 (clone), not 2: ignored
        "ACT(2,,3),LEFT" → no move; ACT has an argument that is not a number: ignored
        "ACT(99999999999,3),LEFT" → no move; ACT has an argument that is not a number: ignored
        "ACT(7,3),LEFT" → no move; ACT(7,3) is off the board: ignored
        "ACT(-1,3),LEFT" → no move; ACT(-1,3) is off the board: ignored
        "ACT(4,4),LEFT" → no move; ACT(4,4) is not your piece (x from the left, y from the top): selection cleared
        "ACT(3,3),LEFT" → no move; ACT(3,3) is not your piece (x from the left, y from the top): selection cleared
        "ACT(2,3)" → no move; ACT(2,3) must be followed by a direction, as in ACT(2,3),LEFT: no move from it
        "LEFT" → no move; LEFT with no piece selected does nothing (put ACT(x,y) first)
        "LEFT,ACT(2,3)" → no move; ACT(2,3) must be followed by a direction, as in ACT(2,3),LEFT: no move from it
        "ACT(2,3),LEFT" → clone [2,3] LEFT
        "ACT(1,1,1),down" → jump [1,1] DOWN
    "#]]
    .assert_eq(&out);
}

#[test]
fn command_text_reads_back() {
    for a in [
        Action::clone_to(Pos::new(2, 3), Dir::Left),
        Action::jump_to(Pos::new(1, 1), Dir::Down),
        Action::clone_to(Pos::new(4, 4), Dir::Up),
    ] {
        let text = command_text(&a);
        let seat = usize::from(a == Action::clone_to(Pos::new(4, 4), Dir::Up));
        assert_eq!(read_command(&game(), seat, &text), Reading { action: a, note: None }, "{text}");
    }
    assert_eq!(command_text(&Action::jump_to(Pos::new(1, 12), Dir::Right)), "ACT(1,12,1),RIGHT");
    assert_eq!(command_text(&Action::Skip), "");
    assert_eq!(read_command(&game(), 0, "").action, Action::Skip);
}

#[test]
fn engine_reasons_in_words() {
    use snakepit_engine::hex::Ignored;
    let all = [Ignored::NotYourPiece, Ignored::OffBoard, Ignored::Wall, Ignored::Occupied, Ignored::Restart];
    let texts: std::collections::BTreeSet<&str> = all.into_iter().map(snakepit_protocol::hex::ignored_text).collect();
    assert_eq!(texts.len(), all.len(), "each reason has its own words");
}

#[test]
fn malformed_acts() {
    let cases: &[(&str, Token)] = &[
        ("ACT", Token::BadAct(BadAct::NoCoordinates)),
        ("ACT()", Token::BadAct(BadAct::NoCoordinates)),
        ("ACT(,)", Token::BadAct(BadAct::NoCoordinates)),
        ("ACT(5)", Token::BadAct(BadAct::ArgumentCount(1))),
        ("ACT(1,2,1,1)", Token::BadAct(BadAct::ArgumentCount(4))),
        ("ACT(1,,2)", Token::BadAct(BadAct::NotANumber)),
        ("ACT(-,2)", Token::BadAct(BadAct::NotANumber)),
        ("ACT(1-2,3)", Token::BadAct(BadAct::NotANumber)),
        ("ACT(2147483648,1)", Token::BadAct(BadAct::NotANumber)),
        ("ACT(1,2,-1)", Token::BadAct(BadAct::JumpFlag(-1))),
        ("ACT(x,y)", Token::BadAct(BadAct::NoCoordinates)),
        ("ACT(1, 2)", sel(1, 2, false)),
        ("ACT(-2147483648,2147483647,1)", sel(i32::MIN, i32::MAX, true)),
    ];
    for (text, token) in cases {
        assert_eq!(parse_command(text), [*token], "{text:?}");
    }
    // A malformed ACT clears the selection like a cell that is not yours.
    let r = read("ACT(2,3),ACT(5),LEFT");
    assert_eq!(r.action, Action::Skip);
}

#[test]
fn limits() {
    let many = "ACT(2,3),".repeat(100);
    assert_eq!(parse_command(&many).len(), COMMAND_TOKENS_MAX);
    let late = " ".repeat(COMMAND_CHARS_MAX) + "ACT(2,3),LEFT";
    assert_eq!(parse_command(&late), []);
    // A huge answer is read by its first characters only: what comes after
    // them does not count. (How long it takes is the machine's business.)
    let huge = "ACT(2,3),".to_string() + &"x".repeat(50_000_000) + ",LEFT";
    assert_eq!(read(&huge).action, Action::Skip);
    assert_eq!(read(&" ".repeat(50_000_000)).note, Some(Note::Empty));
}

/// Pieces answers are made of, so that fuzzing reaches the grammar's
/// corners far more often than random text does.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("ACT".to_string()),
        (-2..9i32, -2..9i32).prop_map(|(x, y)| format!("ACT({x},{y})")),
        (-2..9i32, -2..9i32, -1..3i32).prop_map(|(x, y, j)| format!("act({x},{y},{j})")),
        "[0-9,-]{0,8}".prop_map(|a| format!("ACT({a})")),
        Just("LEFT".to_string()),
        Just("right".to_string()),
        Just("Up".to_string()),
        Just("dOwN".to_string()),
        Just("message('".to_string()),
        Just("')".to_string()),
        Just(",".to_string()),
        Just(" , ".to_string()),
        Just(" ".to_string()),
        "\\PC{0,4}",
    ]
}

proptest! {
    // 3000 arbitrary texts and 3000 texts built from grammar pieces: never
    // a panic, never more than the limits, and any move names a piece of
    // the reader (the only thing the engine will ever be asked to move).
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_is_safe(text in "\\PC{0,200}") {
        let tokens = parse_command(&text);
        prop_assert!(tokens.len() <= COMMAND_TOKENS_MAX);
        let g = game();
        let r = read_command(&g, 0, &text);
        if let Action::Move { from, .. } = r.action {
            prop_assert_eq!(g.cell(from), Cell::Piece(0));
        }
    }

    #[test]
    fn grammar_pieces_are_safe(pieces in proptest::collection::vec(piece(), 0..12)) {
        let text = pieces.concat();
        let g = game();
        let r = read_command(&g, 0, &text);
        match r.action {
            Action::Move { from, .. } => prop_assert_eq!(g.cell(from), Cell::Piece(0)),
            Action::Skip => prop_assert!(r.note.is_some() || parse_command(&text).is_empty() || text.trim().is_empty()),
        }
        // The note always has words for the page.
        if let Some(n) = r.note {
            prop_assert!(!n.to_string().is_empty());
        }
    }

    #[test]
    fn command_text_round_trips(x in 1..6i32, y in 1..6i32, d in 0..4usize, jump in any::<bool>()) {
        let a = Action::Move { from: Pos::new(x, y), dir: Dir::ALL[d], jump };
        let toks = parse_command(&command_text(&a));
        prop_assert_eq!(toks, vec![sel(x, y, jump), Token::Dir(Dir::ALL[d])]);
    }
}
