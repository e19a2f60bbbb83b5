//! The command grammar: the spec's and upstream's examples exactly, and
//! fuzzing with arbitrary text and with answers built from grammar pieces.

use proptest::prelude::*;
use snakepit_engine::Dir;
use snakepit_engine::snakebattle::{Action, CommandRule, StoneDrop, Token};
use snakepit_protocol::codenjoy::{COMMAND_CHARS_MAX, COMMAND_TOKENS_MAX, parse_action, parse_command};

use Token::{Act, ActZero};
const UP: Token = Token::Dir(Dir::Up);
const DOWN: Token = Token::Dir(Dir::Down);
const LEFT: Token = Token::Dir(Dir::Left);
const RIGHT: Token = Token::Dir(Dir::Right);

#[test]
fn spec_examples() {
    let cases: &[(&str, &[Token])] = &[
        ("UP", &[UP]),
        ("ACT", &[Act]),
        ("ACT,LEFT", &[Act, LEFT]),
        ("LEFT,ACT", &[LEFT, Act]),
        ("ACT(0)", &[ActZero]),
        ("ACT(2,3),LEFT", &[Act, LEFT]),
        ("ACT(1,1,1),UP", &[Act, UP]),
        ("act,stop", &[Act]),
        ("down", &[DOWN]),
        ("", &[]),
    ];
    for (text, tokens) in cases {
        assert_eq!(parse_command(text), *tokens, "{text:?}");
    }
}

#[test]
fn spec_examples_as_actions() {
    let seed = CommandRule::Seed;
    let up = CommandRule::LastWins;
    let stone = |drop, dir| Action { dir, drop: Some(drop), suicide: false };
    let suicide = Action { suicide: true, ..Action::default() };
    let cases = [
        ("UP", Action::go(Dir::Up), Action::go(Dir::Up)),
        ("ACT", stone(StoneDrop::BeforeMove, None), stone(StoneDrop::BeforeMove, None)),
        ("ACT,LEFT", stone(StoneDrop::BeforeMove, Some(Dir::Left)), stone(StoneDrop::BeforeMove, Some(Dir::Left))),
        // CodeBattle drops after the move; upstream drops at once either way.
        ("LEFT,ACT", stone(StoneDrop::AfterMove, Some(Dir::Left)), stone(StoneDrop::BeforeMove, Some(Dir::Left))),
        ("ACT(0)", suicide, suicide),
        ("ACT(2,3),LEFT", stone(StoneDrop::BeforeMove, Some(Dir::Left)), stone(StoneDrop::BeforeMove, Some(Dir::Left))),
        ("ACT(1,1,1),UP", stone(StoneDrop::BeforeMove, Some(Dir::Up)), stone(StoneDrop::BeforeMove, Some(Dir::Up))),
        ("act,stop", stone(StoneDrop::BeforeMove, None), stone(StoneDrop::BeforeMove, None)),
        ("down", Action::go(Dir::Down), Action::go(Dir::Down)),
        ("", Action::default(), Action::default()),
        // Two directions: a skipped turn in CodeBattle, the last one upstream.
        ("LEFT,UP", Action::default(), Action::go(Dir::Up)),
    ];
    for (text, in_seed, upstream) in cases {
        assert_eq!(parse_action(text, seed), in_seed, "{text:?} (seed)");
        assert_eq!(parse_action(text, up), upstream, "{text:?} (upstream)");
    }
}

#[test]
fn upstream_player_command_cases() {
    // The cases of upstream's `PlayerCommandTest`, plus its quirks.
    let cases: &[(&str, &[Token])] = &[
        ("left", &[LEFT]),
        ("RIGHT", &[RIGHT]),
        ("Up", &[UP]),
        ("dOwn", &[DOWN]),
        ("act, left", &[Act, LEFT]),
        ("right,act", &[RIGHT, Act]),
        ("act()", &[Act]),
        ("right,left,up,up, down  ,act,down", &[RIGHT, LEFT, UP, UP, DOWN, Act, DOWN]),
        ("act(2, -5),act", &[Act, Act]),
        ("act(2, 5),down,act(1),up,act(1,2,   3,4, 5),act", &[Act, DOWN, Act, UP, Act, Act]),
        ("message", &[]),
        ("message('hello world')", &[]),
        ("message('go left, then up')", &[]),
        ("message('('hello')('world')')", &[]),
        ("message('hel\nlo w\nor\rld'),up", &[UP]),
        // Greedy: the first message runs to the last `')` on its line.
        ("message('a'),left,message('b')", &[]),
        ("left,message('a'),up", &[LEFT, UP]),
        ("message('a\n'),left", &[LEFT]),
        // Separators do not matter and command words inside words count.
        ("LEFT ACT", &[LEFT, Act]),
        ("left;act", &[LEFT, Act]),
        ("UPPER", &[UP]),
        ("stop", &[]),
        ("STOP,act", &[Act]),
        // ACT arguments.
        ("ACT(0,)", &[ActZero]),
        ("ACT(-0)", &[ActZero]),
        ("ACT(00)", &[ActZero]),
        ("ACT(0,0)", &[Act]),
        ("ACT(0 )", &[Act]),
        ("ACT(-1)", &[Act]),
        ("ACT(,)", &[Act]),
        ("ACT(,0),UP", &[UP]),
        ("ACT(1,,2),UP", &[UP]),
        ("ACT(-),UP", &[UP]),
        ("ACT(1-2),UP", &[UP]),
        ("ACT(99999999999),UP", &[UP]),
        ("ACT(2147483647)", &[Act]),
        ("ACT(x)", &[Act]),
        ("ACT(", &[Act]),
        ("actact", &[Act, Act]),
        ("лево,LEFT", &[LEFT]),
    ];
    for (text, tokens) in cases {
        assert_eq!(parse_command(text), *tokens, "{text:?}");
    }
}

#[test]
fn limits() {
    let many = "left,".repeat(100);
    assert_eq!(parse_command(&many).len(), COMMAND_TOKENS_MAX);
    // Only the first COMMAND_CHARS_MAX characters are read.
    let late = " ".repeat(COMMAND_CHARS_MAX) + "up";
    assert_eq!(parse_command(&late), []);
    let just_in = " ".repeat(COMMAND_CHARS_MAX - 2) + "up";
    assert_eq!(parse_command(&just_in), [UP]);
    let wide = "é".repeat(COMMAND_CHARS_MAX - 2) + "up";
    assert_eq!(parse_command(&wide), [UP]);
    let huge = "x".repeat(10_000_000) + "up";
    assert_eq!(parse_command(&huge), []);
}

/// Flips the case of the ASCII letters picked by `mask`.
fn flip_case(text: &str, mask: &[bool]) -> String {
    text.chars()
        .enumerate()
        .map(|(i, c)| {
            if mask.get(i % mask.len().max(1)).copied().unwrap_or(false) {
                if c.is_ascii_lowercase() { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() }
            } else {
                c
            }
        })
        .collect()
}

/// One piece of an answer and the token it must yield.
#[derive(Clone, Debug)]
enum Piece {
    Word(&'static str, Option<Token>),
    ActWith(Vec<i32>, &'static str),
    Message(String),
}

impl Piece {
    fn text(&self) -> String {
        match self {
            Piece::Word(w, _) => (*w).to_string(),
            Piece::ActWith(args, sep) => {
                let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
                format!("ACT({})", args.join(sep))
            }
            Piece::Message(m) => format!("message('{m}')"),
        }
    }
}

fn piece() -> impl Strategy<Value = Piece> {
    prop_oneof![
        Just(Piece::Word("up", Some(UP))),
        Just(Piece::Word("DOWN", Some(DOWN))),
        Just(Piece::Word("Left", Some(LEFT))),
        Just(Piece::Word("right", Some(RIGHT))),
        Just(Piece::Word("act", Some(Act))),
        // Words that hold no command word, as bots send them.
        Just(Piece::Word("stop", None)),
        Just(Piece::Word("wait", None)),
        Just(Piece::Word("42", None)),
        Just(Piece::Word("", None)),
        Just(Piece::Word("hello world", None)),
        (prop::collection::vec(prop_oneof![Just(0), -3i32..3, any::<i32>()], 0..4), prop_oneof![Just(","), Just(", ")])
            .prop_map(|(args, sep)| Piece::ActWith(args, sep)),
        // Message text with command words but no `')` and no line break.
        "[a-z ,()'!]{0,12}".prop_filter("no closing quote", |m| !m.contains("')")).prop_map(Piece::Message),
    ]
}

/// What the pieces must parse to: a message swallows everything up to the
/// last message after it, because its quoted text is greedy.
fn expected(pieces: &[Piece]) -> Vec<Token> {
    let last_message = pieces.iter().rposition(|p| matches!(p, Piece::Message(_)));
    let mut out = Vec::new();
    let mut i = 0;
    while i < pieces.len() {
        match &pieces[i] {
            Piece::Word(_, t) => out.extend(*t),
            Piece::ActWith(args, _) => out.push(if args.as_slice() == [0] { ActZero } else { Act }),
            Piece::Message(_) => i = last_message.unwrap_or(i),
        }
        i += 1;
    }
    out.truncate(COMMAND_TOKENS_MAX);
    out
}

fn separator() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just(","), Just(", "), Just(" ,"), Just("  ,  "), Just(" "), Just(";")]
}

proptest! {
    // Generating cases costs far more than parsing them in a debug build, so
    // these counts keep each test near a second; the plain loop in
    // `random_answers_never_panic` adds volume.
    #![proptest_config(ProptestConfig::with_cases(5_000))]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        let tokens = parse_command(&text);
        prop_assert!(tokens.len() <= COMMAND_TOKENS_MAX);
        let _ = parse_action(&text, CommandRule::Seed);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes);
        prop_assert!(parse_command(&text).len() <= COMMAND_TOKENS_MAX);
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    #[test]
    fn grammar_pieces_parse_to_their_tokens(
        pieces in prop::collection::vec(piece(), 0..8),
        seps in prop::collection::vec(separator(), 8),
        mask in prop::collection::vec(any::<bool>(), 1..8),
    ) {
        let mut text = String::new();
        for (i, p) in pieces.iter().enumerate() {
            if i > 0 {
                text.push_str(seps[i]);
            }
            text.push_str(&p.text());
        }
        let want = expected(&pieces);
        prop_assert_eq!(parse_command(&text), want.clone(), "{:?}", text);
        // Case does not matter, except that upstream only leaves an answer
        // alone when it starts with exactly `message('`, which a case flip
        // changes; messages are kept out of this half.
        if !pieces.iter().any(|p| matches!(p, Piece::Message(_))) {
            prop_assert_eq!(parse_command(&flip_case(&text, &mask)), want.clone(), "{:?}", text);
            prop_assert_eq!(parse_command(&text.to_uppercase()), want.clone());
            prop_assert_eq!(parse_command(&text.to_lowercase()), want);
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    #[test]
    fn unknown_words_are_ignored(
        pieces in prop::collection::vec(piece(), 0..6),
        junk in prop::collection::vec(prop_oneof![Just("stop"), Just("noop"), Just("x"), Just("9"), Just("#"), Just("☼")], 0..6),
    ) {
        let plain: Vec<String> = pieces.iter().map(Piece::text).collect();
        let mut noisy = plain.clone();
        for (k, j) in junk.iter().enumerate() {
            let at = (k * 7) % (noisy.len() + 1);
            noisy.insert(at, (*j).to_string());
        }
        // Junk inside a message's quoted text is part of the message, so
        // answers with messages are compared only when the junk stays out.
        let has_message = pieces.iter().any(|p| matches!(p, Piece::Message(_)));
        if !has_message {
            prop_assert_eq!(parse_command(&noisy.join(",")), parse_command(&plain.join(",")));
        }
    }
}

/// Volume fuzzing without proptest's overhead: 20 000 answers of random
/// bytes, drawn mostly from the characters the grammar cares about.
#[test]
fn random_answers_never_panic() {
    const ALPHABET: &[u8] = b"leftrighupdownacmsgLEFTRIGHUPDOWNACMSG(),'- 0123456789\n\r";
    let mut rng = snakepit_engine::Rng::new(7);
    let mut bytes = Vec::new();
    for _ in 0..20_000 {
        bytes.clear();
        for _ in 0..rng.index(40) {
            bytes.push(if rng.below(8) == 0 { rng.below(256) as u8 } else { ALPHABET[rng.index(ALPHABET.len())] });
        }
        let text = String::from_utf8_lossy(&bytes);
        assert!(parse_command(&text).len() <= COMMAND_TOKENS_MAX, "{text:?}");
    }
}
