//! The CodeCarrots wire format: boards byte for byte, the example board of
//! CodeCarrots' description read back, the answer grammar of upstream's
//! `.strip().lower()`, and fuzzing of both parsers (case counts in each
//! `proptest!` block).

use expect_test::expect;
use proptest::prelude::*;
use snakepit_engine::carrots::{Action, Carrots, Life, Settings};
use snakepit_engine::{Dir, Game, Pos, Rng};
use snakepit_protocol::stdio::carrots::{Board, BoardProblem, Cell, base_board, board, boards, parse_answer};
use snakepit_protocol::stdio::{AnswerProblem, StdioGame, Wire};

/// The example board of CodeCarrots' description, as a bot receives it.
const SEED_BOARD: &str = "\
.###.....
.o....#..
......#..
..o.###..
....#...o
....#H...
";

fn p(x: i32, y: i32) -> Pos {
    Pos::new(x, y)
}

/// A 9x6 game holding the example position of CodeCarrots' description:
/// the receiver's snake (seat 0) ends in `H` at (5,5), two others and three
/// apples.
fn seed_game() -> Carrots {
    let s = Settings::from_pairs([("width", "9"), ("height", "6")]).unwrap();
    let mut game = Carrots::new(s, 1, 1).unwrap();
    let me = Carrots::make_snake(vec![p(5, 5), p(4, 5), p(4, 4), p(4, 3), p(5, 3), p(6, 3), p(6, 2), p(6, 1)], Dir::Right);
    let other = Carrots::make_snake(vec![p(1, 0), p(2, 0), p(3, 0)], Dir::Left);
    game.set_position(&[p(1, 1), p(2, 3), p(8, 4)], vec![me, other]);
    game
}

#[test]
fn seed_board_is_rendered_byte_for_byte() {
    let game = seed_game();
    let text = board(&game, 0).unwrap();
    assert_eq!(text, SEED_BOARD);
    assert_eq!(text.len(), 6 * (9 + 1), "H lines of W bytes and a newline each");
    // The other snake's board has its own head; nobody else's is marked.
    expect![[r#"
        .H##.....
        .o....#..
        ......#..
        ..o.###..
        ....#...o
        ....##...
    "#]]
    .assert_eq(&board(&game, 1).unwrap());
    assert_eq!(boards(&game), vec![board(&game, 0), board(&game, 1)]);
    assert_eq!(base_board(&game), SEED_BOARD.replace('H', "#"));
}

#[test]
fn default_board_is_120_by_80() {
    let game = Carrots::new(Settings::default(), 3, 7).unwrap();
    let text = board(&game, 2).unwrap();
    assert_eq!(text.len(), 80 * 121);
    assert!(text.split_terminator('\n').all(|l| l.len() == 120));
    assert_eq!(text.matches('H').count(), 1);
    assert_eq!(text.matches('#').count(), 2, "the two other snakes, one cell each");
}

#[test]
fn dead_snakes_get_no_board_and_leave_it() {
    let mut game = seed_game();
    game.step(&[Action::Forfeit, Action::Move(Dir::Down)]);
    assert!(matches!(game.snakes()[0].life, Life::Dead { .. }));
    assert_eq!(board(&game, 0), None, "upstream sends nothing to a dead snake");
    assert_eq!(game.text_input(0), None);
    // Seat 0's body left the board with its death (CodeCarrots' timing);
    // seat 1 ate the apple at (1,1), and a new apple appeared.
    let other = board(&game, 1).unwrap();
    expect![[r#"
        .##.o....
        .H.......
        .........
        ..o......
        ........o
        .........
    "#]]
    .assert_eq(&other);
    assert_eq!(board(&game, 5), None, "no such seat");
}

#[test]
fn seed_board_reads_back() {
    let b = Board::parse(SEED_BOARD).unwrap();
    assert_eq!((b.width, b.height, b.head), (9, 6, p(5, 5)));
    assert_eq!(b.get(p(1, 1)), Cell::Apple);
    assert_eq!(b.get(p(1, 0)), Cell::Snake);
    assert_eq!(b.get(p(0, 0)), Cell::Empty);
    assert_eq!(b.get(p(-1, 0)), Cell::Snake, "outside reads as '#', as upstream");
    assert_eq!(b.get(p(9, 0)), Cell::Snake);
    assert_eq!(Board::parse(SEED_BOARD.trim_end()), Ok(b), "the last newline is optional");
}

#[test]
fn board_defects_are_located() {
    let problem = |t: &str| Board::parse(t).map(|_| ()).unwrap_err();
    assert_eq!(problem("").problem, BoardProblem::Empty);
    assert_eq!(problem("\n").problem, BoardProblem::Empty);
    let e = problem("..H\n...\n..\n");
    assert_eq!((e.line, e.problem), (3, BoardProblem::Ragged { width: 2, expected: 3 }));
    let e = problem("..H\n.x.\n");
    assert_eq!((e.line, e.column, e.problem), (2, 2, BoardProblem::UnknownGlyph { glyph: 'x' }));
    assert_eq!(problem("...\n...\n").problem, BoardProblem::NoHead);
    let e = problem("H..\n..H\n");
    assert_eq!((e.line, e.column, e.problem.clone()), (2, 3, BoardProblem::TwoHeads));
    let crlf = problem("H..\r\n...\r\n");
    assert_eq!((crlf.line, crlf.column, crlf.problem), (1, 4, BoardProblem::UnknownGlyph { glyph: '\r' }));
    assert_eq!(e.to_string(), "line 2 column 3: a second 'H'");
}

#[test]
fn answers_as_upstream_reads_them() {
    let ok: &[(&[u8], Dir)] = &[
        (b"left\n", Dir::Left),
        (b"right", Dir::Right),
        (b"UP\n", Dir::Up),
        (b"Down\r\n", Dir::Down),
        (b"  left \t\n", Dir::Left),
        (b"\xc2\xa0left\n", Dir::Left), // U+00A0 is whitespace to Python's strip
        (b"lEfT", Dir::Left),
    ];
    for (line, d) in ok {
        assert_eq!(parse_answer(line), Ok(Action::Move(*d)), "{:?}", line.escape_ascii().to_string());
    }
    let bad: &[(&[u8], AnswerProblem)] = &[
        (b"\n", AnswerProblem::Empty),
        (b"", AnswerProblem::Empty),
        (b"   \n", AnswerProblem::Empty),
        (b"left\nright\n", AnswerProblem::SeveralLines),
        (b"\nleft\n", AnswerProblem::SeveralLines),
        (b"lef\xfft\n", AnswerProblem::NotUtf8 { valid_up_to: 3 }),
        (b"l e f t\n", AnswerProblem::NotAMove { expected: EXPECTED }),
        (b"leftt\n", AnswerProblem::NotAMove { expected: EXPECTED }),
        (b"0\n", AnswerProblem::NotAMove { expected: EXPECTED }),
        (b"L\n", AnswerProblem::NotAMove { expected: EXPECTED }),
        (b"\"left\"\n", AnswerProblem::NotAMove { expected: EXPECTED }),
    ];
    for (line, problem) in bad {
        let e = parse_answer(line).unwrap_err();
        assert_eq!(&e.problem, problem, "{:?}", line.escape_ascii().to_string());
        assert_eq!(e.bytes, *line, "the error holds the exact bytes");
    }
    assert_eq!(
        parse_answer(b"forward\n").unwrap_err().to_string(),
        r#"answer "forward\n": not a move; expected left, right, up or down (any case, whitespace around ignored)"#
    );
}

const EXPECTED: &str = "left, right, up or down (any case, whitespace around ignored)";

#[test]
fn wire_text_and_json_agree_on_who_is_asked() {
    let mut game = Carrots::new(Settings::from_pairs([("width", "10"), ("height", "6")]).unwrap(), 3, 2).unwrap();
    game.set_present(2, false);
    for wire in [Wire::Text, Wire::Json] {
        assert_eq!(wire.preamble(&game, 0), None);
        assert!(wire.input(&game, 0).is_some());
        assert!(wire.input(&game, 2).is_none(), "an absent seat is not asked");
    }
    assert_eq!(Wire::Text.parse_answer::<Carrots>(b"Up\n"), Ok(Action::Move(Dir::Up)));
    assert_eq!(Wire::Json.parse_answer::<Carrots>(b"{\"move\":\"up\"}\n"), Ok(Action::Move(Dir::Up)));
    assert_eq!(<Carrots as StdioGame>::forfeit(), Action::Forfeit);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    /// Any bytes: never a panic, and a move only for the four words.
    #[test]
    fn answer_parser_fuzz(line in proptest::collection::vec(any::<u8>(), 0..64)) {
        if let Ok(Action::Move(d)) = parse_answer(&line) {
            let text = String::from_utf8(line.clone()).unwrap();
            let word = text.trim().to_ascii_lowercase();
            prop_assert_eq!(word.as_str(), snakepit_protocol::stdio::carrots::answer(d));
        }
    }

    /// Near misses built from the words themselves.
    #[test]
    fn answer_parser_near_misses(word in "(left|right|up|down|LEFT|Up)", pre in "[ \\t\\r\\n]{0,2}", post in "[ \\t\\r\\nx]{0,3}") {
        let line = format!("{pre}{word}{post}");
        let result = parse_answer(line.as_bytes());
        let body = line.strip_suffix('\n').unwrap_or(&line);
        let expect_ok = !body.contains('\n') && !post.contains('x');
        prop_assert_eq!(result.is_ok(), expect_ok, "{:?}", line);
    }

    #[test]
    fn board_parser_fuzz(text in "[.o#H\\nx]{0,80}") {
        if let Ok(b) = Board::parse(&text) {
            prop_assert_eq!(b.cells.len(), b.width * b.height);
            prop_assert_eq!(b.get(b.head), Cell::Head);
        }
    }

    #[test]
    fn board_parser_fuzz_any_text(text in "\\PC{0,120}") {
        let _ = Board::parse(&text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// What the renderer sends is what the parser reads, on played boards.
    #[test]
    fn rendered_boards_read_back(seed: u64) {
        let s = Settings::from_pairs([("width", "12"), ("height", "7"), ("apples_max", "6")]).unwrap();
        let mut game = Carrots::new(s, 4, seed).unwrap();
        let mut rng = Rng::new(seed);
        for _ in 0..30 {
            let actions: Vec<Action> = (0..4).map(|_| Action::Move(Dir::ALL[rng.index(4)])).collect();
            game.step(&actions);
            for (seat, text) in boards(&game).into_iter().enumerate() {
                let Some(text) = text else { continue };
                let b = Board::parse(&text).expect("a rendered board parses");
                prop_assert_eq!(Some(b.head), game.snakes()[seat].head());
                for y in 0..7 {
                    for x in 0..12 {
                        let q = p(x, y);
                        let want = if q == b.head { Cell::Head } else if game.is_snake(q) { Cell::Snake }
                            else if game.is_apple(q) { Cell::Apple } else { Cell::Empty };
                        prop_assert_eq!(b.get(q), want);
                    }
                }
            }
        }
    }
}
