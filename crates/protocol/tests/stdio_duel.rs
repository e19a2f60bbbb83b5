//! The KingOfBots wire format: upstream's golden bot input (KingOfBots'
//! `backendcloud/input.txt`, a recorded game) rendered byte for byte from
//! our engine, read back as KingOfBots' sample bot reads it, the answer
//! grammar, and fuzzing of both parsers (case counts in each `proptest!`
//! block).

use proptest::prelude::*;
use snakepit_engine::duel::{Action, Duel, DuelMap, Settings};
use snakepit_engine::{Dir, Game, Pos, Rng};
use snakepit_protocol::stdio::duel::{InputProblem, input, input_line, parse_answer, parse_input};
use snakepit_protocol::stdio::{AnswerProblem, StdioGame, Wire};

/// Upstream's golden input: the map, A (the receiver) at row 11 col 1 with
/// 18 steps, B at row 1 col 12 with 18 steps.
const GOLDEN: &str = "11111111111111110000011001011000000000000110000000010101100011000010011010000000000110000000000001100000000001011001000011000110101000000001100000000000011010011000001111111111111111#11#1#(000000000101111211)#1#12#(222223333333322111)";

fn steps(text: &str) -> Vec<Dir> {
    text.bytes().map(|b| Dir::ALL[usize::from(b - b'0')]).collect()
}

/// The golden game: the map of the token, and both snakes' 18 steps.
fn golden_game() -> Duel {
    let walls = &GOLDEN[..182];
    let mut rows: Vec<Vec<char>> =
        walls.as_bytes().chunks(14).map(|r| r.iter().map(|&b| if b == b'1' { '#' } else { '.' }).collect()).collect();
    rows[11][1] = 'A';
    rows[1][12] = 'B';
    let text: String = rows.iter().map(|r| r.iter().collect::<String>() + "\n").collect();
    let map = DuelMap::parse(&text).expect("the golden map parses");
    let mut game = Duel::with_map(Settings::default(), map, 0);
    for (a, b) in steps("000000000101111211").into_iter().zip(steps("222223333333322111")) {
        game.step(&[Action::Move(a), Action::Move(b)]);
    }
    game
}

#[test]
fn golden_input_is_rendered_byte_for_byte() {
    let game = golden_game();
    assert!(!game.is_over(), "{:?}", game.outcome());
    assert_eq!(input(&game, 0).as_deref(), Some(GOLDEN));
    assert_eq!(input_line(&game, 0), Some(format!("{GOLDEN}\n")));
    // B's input puts B first.
    let b = input(&game, 1).unwrap();
    assert!(b.ends_with("#1#12#(222223333333322111)#11#1#(000000000101111211)"), "{b}");
    assert_eq!(&b[..182], &GOLDEN[..182]);
}

#[test]
fn module_doc_shows_the_golden_input() {
    // The example in the module's documentation is the golden input, so
    // its map has all 13 x 14 cells.
    let doc = include_str!("../src/stdio/duel.rs");
    let example = doc.lines().find_map(|l| l.strip_prefix("//! 1111")).map(|rest| format!("1111{rest}"));
    assert_eq!(example.as_deref(), Some(GOLDEN));
}

#[test]
fn golden_input_reads_back_as_the_sample_bot_reads_it() {
    let game = golden_game();
    let parsed = parse_input(GOLDEN, 13, 14, &Settings::default()).unwrap();
    assert_eq!(parsed.walls.iter().filter(|&&w| w).count(), 70, "50 border and 20 inner walls");
    assert_eq!(parsed.me.start, Pos::new(1, 11));
    assert_eq!(parsed.you.start, Pos::new(12, 1));
    assert_eq!(parsed.me.body, game.snakes()[0].body.iter().copied().collect::<Vec<_>>());
    assert_eq!(parsed.you.body, game.snakes()[1].body.iter().copied().collect::<Vec<_>>());
    assert_eq!(parsed.me.body.len(), 13, "18 steps: 10 growing, then 13 and 16");
    // KingOfBots' sample bot: the first of up, right, down, left that leads
    // to a cell with no wall and no snake. Upstream's bot prints 1 here.
    let blocked = |p: Pos| {
        p.x < 0 || p.y < 0 || p.x >= 14 || p.y >= 13 || parsed.walls[(p.y * 14 + p.x) as usize]
            || parsed.me.body.contains(&p) || parsed.you.body.contains(&p)
    };
    let choice = (0..4).find(|&i| !blocked(parsed.me.body[0].step(Dir::ALL[i]))).unwrap_or(0);
    assert_eq!(choice, 1);
    assert_eq!(parse_answer(format!("{choice}\n").as_bytes()), Ok(Action::Move(Dir::Right)));
}

#[test]
fn first_round_input_has_empty_steps() {
    let game = Duel::new(Settings::default(), 5);
    let a = input(&game, 0).unwrap();
    assert!(a.ends_with("#11#1#()#1#12#()"), "{a}");
    assert_eq!(a.len(), 182 + "#11#1#()#1#12#()".len());
    let parsed = parse_input(&a, 13, 14, &Settings::default()).unwrap();
    assert_eq!(parsed.me.body, vec![Pos::new(1, 11)]);
}

#[test]
fn no_input_after_the_end() {
    let mut game = Duel::new(Settings::default(), 5);
    game.step(&[Action::Forfeit, Action::Keep]);
    assert_eq!(input(&game, 0), None);
    assert_eq!(Wire::Text.input(&game, 1), None);
    assert_eq!(Wire::Json.input(&game, 1), None);
    assert!(game.is_finished());
}

#[test]
fn answers() {
    for (line, d) in [(&b"0\n"[..], Dir::Up), (b"1", Dir::Right), (b" 2 \r\n", Dir::Down), (b"3\n", Dir::Left)] {
        assert_eq!(parse_answer(line), Ok(Action::Move(d)));
    }
    let expected = "one digit, 0 (up) to 3 (left)";
    for line in [&b"4\n"[..], b"01\n", b"+1\n", b"-0\n", b"1.0\n", b"up\n", b"\xd9\xa1\n", b"1 2\n"] {
        let e = parse_answer(line).unwrap_err();
        assert!(
            matches!(e.problem, AnswerProblem::NotAMove { expected: x } if x == expected),
            "{:?}: {e}",
            line.escape_ascii().to_string()
        );
        assert_eq!(e.bytes, line);
    }
    assert_eq!(parse_answer(b"\n").unwrap_err().problem, AnswerProblem::Empty);
    assert_eq!(parse_answer(b"1\n2\n").unwrap_err().problem, AnswerProblem::SeveralLines);
    assert_eq!(parse_answer(b"7\n").unwrap_err().to_string(), r#"answer "7\n": not a move; expected one digit, 0 (up) to 3 (left)"#);
    assert_eq!(Wire::Text.parse_answer::<Duel>(b"3"), Ok(Action::Move(Dir::Left)));
    assert_eq!(<Duel as StdioGame>::forfeit(), Action::Forfeit);
}

#[test]
fn input_defects_are_named() {
    let s = Settings::default();
    let problem = |t: &str| parse_input(t, 13, 14, &s).unwrap_err();
    assert_eq!(problem("").problem, InputProblem::Parts(1));
    assert_eq!(problem(&GOLDEN[1..]).problem, InputProblem::MapLength { got: 181, expected: 182 });
    let e = problem(&GOLDEN.replacen('0', "2", 1));
    assert_eq!((e.part, e.problem), (1, InputProblem::MapByte { at: 16, byte: b'2' }));
    let e = problem(&GOLDEN.replace("#11#1#", "#13#1#"));
    assert_eq!((e.part, e.problem), (2, InputProblem::Number { text: "13".to_string(), limit: 13 }));
    let e = problem(&GOLDEN.replace("#11#1#", "#+1#1#"));
    assert_eq!(e.part, 2);
    let e = problem(&GOLDEN.replace("(000000000101111211)", "000000000101111211"));
    assert_eq!((e.part, e.problem), (4, InputProblem::Parentheses));
    let e = problem(&GOLDEN.replace("(000000000101111211)", "(000000000101111214)"));
    assert_eq!((e.part, e.problem), (4, InputProblem::StepByte { at: 17, byte: b'4' }));
    let e = problem(&GOLDEN.replace("(000000000101111211)", "(00000000010111121)"));
    assert_eq!(e.problem, InputProblem::StepCounts { me: 17, you: 18 });
    assert_eq!(e.to_string(), "part 7: 17 steps against 18; both move every round");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn answer_parser_fuzz(line in proptest::collection::vec(any::<u8>(), 0..16)) {
        if let Ok(Action::Move(d)) = parse_answer(&line) {
            let text = std::str::from_utf8(&line).unwrap().trim();
            prop_assert_eq!(text, d.index().to_string());
        }
    }

    #[test]
    fn input_parser_fuzz(text in "[01#()0-9]{0,240}") {
        let _ = parse_input(&text, 13, 14, &Settings::default());
    }

    /// The golden token with one byte changed, cut or doubled.
    #[test]
    fn input_parser_mutations(at in 0usize..235, byte in any::<u8>(), op in 0u8..3) {
        let mut bytes = GOLDEN.as_bytes().to_vec();
        let at = at.min(bytes.len() - 1);
        match op {
            0 => bytes[at] = byte,
            1 => { bytes.remove(at); }
            _ => bytes.insert(at, byte),
        }
        if let Ok(text) = String::from_utf8(bytes) {
            let _ = parse_input(&text, 13, 14, &Settings::default());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// On any played game, each side's input reads back to the engine's
    /// bodies, with that side first.
    #[test]
    fn rendered_inputs_read_back(seed: u64) {
        let mut game = Duel::new(Settings::default(), seed);
        let mut rng = Rng::new(seed);
        while !game.is_over() {
            for seat in 0..2 {
                let text = input(&game, seat).unwrap();
                let parsed = parse_input(&text, 13, 14, game.settings()).unwrap();
                let body = |s: usize| game.snakes()[s].body.iter().copied().collect::<Vec<_>>();
                prop_assert_eq!(&parsed.me.body, &body(seat));
                prop_assert_eq!(&parsed.you.body, &body(1 - seat));
            }
            let moves = [Action::Move(Dir::ALL[rng.index(4)]), Action::Move(Dir::ALL[rng.index(4)])];
            game.step(&moves);
        }
    }
}
