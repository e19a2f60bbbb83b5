//! The SOI Multisnake wire format: the header and maps byte for byte, the
//! SOI statement's example map read back with its snakes traced across the edges,
//! the answer grammar, and fuzzing of every parser (case counts in each
//! `proptest!` block).

use expect_test::expect;
use proptest::prelude::*;
use snakepit_engine::multisnake::{Action, MAPS, Map, Multisnake, Settings, builtin_map};
use snakepit_engine::{Dir, Game, Pos, Rng};
use snakepit_protocol::stdio::multisnake::{
    Header, HeaderError, MapProblem, View, header, map, map_for, parse_answer, parse_header, write_map,
};
use snakepit_protocol::stdio::{AnswerProblem, StdioGame, Wire};

/// The SOI statement's example map.
const SEED_MAP: &str = "\
##########.^.....^##########
#....>>>>>>^.....^<...>>>v.#
#.......-..........-.....v.#
>>>>>>>>>>>>>>>B...+.....>>>
#...................v......#
#...+..A<.########..v..+...#
##......^<<<.....>>>@.....##
###....-...^.....^..-....###
";

fn p(x: i32, y: i32) -> Pos {
    Pos::new(x, y)
}

#[test]
fn seed_map_reads_back_with_snakes_across_the_edges() {
    let view = View::parse(SEED_MAP, 28, 8).unwrap();
    assert_eq!(view.head(1), Some(p(7, 5)));
    assert_eq!(view.head(2), Some(p(15, 3)));
    assert_eq!(view.head(3), None, "C and D died head on: one '@'");
    assert_eq!(view.cells.iter().filter(|&&c| c == b'@').count(), 1);
    // A's tail is at the top; its body leaves the map at the bottom of
    // column 11 and comes back at the top.
    let a = view.snake(1).unwrap();
    assert_eq!(
        a,
        [p(7, 5), p(8, 5), p(8, 6), p(9, 6), p(10, 6), p(11, 6), p(11, 7), p(11, 0), p(11, 1), p(10, 1), p(9, 1)]
            .into_iter()
            .chain([p(8, 1), p(7, 1), p(6, 1), p(5, 1)])
            .collect::<Vec<_>>()
    );
    // B crosses the left and right edges on row 3.
    let b = view.snake(2).unwrap();
    assert_eq!(b.len(), 24);
    assert_eq!(b[15..=18], [p(0, 3), p(27, 3), p(26, 3), p(25, 3)]);
    assert_eq!(b.last(), Some(&p(22, 1)));
    assert_eq!(view.get(p(-1, 3)), b'>', "reads wrap");
}

#[test]
fn header_and_map_are_rendered_byte_for_byte() {
    let text = "\
#######
#.>A..#
#..-..#
#..B..#
#.+...#
#######
";
    let settings = Settings::from_pairs([("grow_every", "4")]).unwrap();
    let mut game = Multisnake::new(settings, Map::parse(text).unwrap(), 1);
    assert_eq!(header(&game, 0), "7 6 2 1 4\n");
    assert_eq!(header(&game, 1), "7 6 2 2 4\n");
    assert_eq!(map(&game), text, "the first map is the map file");
    game.step(&[Action::Move(Dir::Right), Action::Move(Dir::Up)]);
    expect![[r#"
        #######
        #..>A.#
        #..@..#
        #.....#
        #.+...#
        #######
    "#]]
    .assert_eq(&map(&game));
    assert_eq!(map_for(&game, 1), None, "B shrank to nothing on the minus and gets no more maps");
    assert!(game.is_over());
    assert_eq!(map_for(&game, 0), None, "the game is over: nobody is asked");
}

#[test]
fn committed_maps_render_as_their_files() {
    for m in MAPS {
        let game = Multisnake::new(Settings::default(), builtin_map(m.name).unwrap(), 0);
        assert_eq!(map(&game), m.text, "{}", m.name);
        let grid = game.grid();
        assert_eq!(
            header(&game, 0),
            format!("{} {} {} 1 10\n", grid.width, grid.height, game.seats()),
            "{}",
            m.name
        );
    }
}

#[test]
fn headers() {
    assert_eq!(parse_header("28 8 4 1 5\n"), Ok(Header { width: 28, height: 8, players: 4, me: 1, grow_every: 5 }));
    assert_eq!(parse_header("150\n150 8\t8 25").map(|h| h.me), Ok(8), "any whitespace between the integers");
    let err = |t: &str| parse_header(t).unwrap_err();
    assert_eq!(err("28 8 3 1 5"), HeaderError::OutOfRange { name: "N", value: 3 });
    assert_eq!(err("4 8 2 1 5"), HeaderError::OutOfRange { name: "W", value: 4 });
    assert_eq!(err("28 151 2 1 5"), HeaderError::OutOfRange { name: "H", value: 151 });
    assert_eq!(err("28 8 4 5 5"), HeaderError::OutOfRange { name: "M", value: 5 });
    assert_eq!(err("28 8 4 0 5"), HeaderError::OutOfRange { name: "M", value: 0 });
    assert_eq!(err("28 8 4 1 26"), HeaderError::OutOfRange { name: "T", value: 26 });
    assert_eq!(err("28 8 4 1"), HeaderError::Count(4));
    assert_eq!(err("+28 8 4 1 5"), HeaderError::NotANumber { name: "W", text: "+28".to_string() });
    assert_eq!(err("28 8 4 1 5x"), HeaderError::NotANumber { name: "T", text: "5x".to_string() });
    assert_eq!(
        err("28 8 3 1 5").to_string(),
        "N = 3 is out of range (5 <= W,H <= 150, N in 2 4 8, 1 <= M <= N, 1 <= T <= 25)"
    );
}

#[test]
fn map_defects_are_located() {
    let problem = |t: &str, w, h| View::parse(t, w, h).unwrap_err();
    let e = problem(".....\n.....\n.....\n.....\n", 5, 5);
    assert_eq!((e.line, e.problem), (5, MapProblem::Lines { expected: 5 }));
    let e = problem(".....\n.....\n.....\n.....\n.....\n.....\n", 5, 5);
    assert_eq!((e.line, e.problem), (6, MapProblem::Lines { expected: 5 }));
    let e = problem(".....\n....\n.....\n.....\n.....\n", 5, 5);
    assert_eq!((e.line, e.problem), (2, MapProblem::Width { got: 4, expected: 5 }));
    let e = problem(".....\n.....\n..I..\n.....\n.....\n", 5, 5);
    assert_eq!((e.line, e.column, e.problem.clone()), (3, 3, MapProblem::Glyph { byte: b'I' }));
    assert_eq!(e.to_string(), "line 3 column 3: byte 'I' is not a map glyph (A-H @ # ^ > v < . + -)");
    assert_eq!(problem(".....\n", 4, 5).problem, MapProblem::BadSize);
}

#[test]
fn answers() {
    for (line, d) in [(&b"^\n"[..], Dir::Up), (b">", Dir::Right), (b"v\r\n", Dir::Down), (b" < \n", Dir::Left)] {
        assert_eq!(parse_answer(line), Ok(Action::Move(d)));
    }
    for line in [&b"V\n"[..], b"^^\n", b"up\n", b"0\n", b"\xe2\x86\x91\n", b"^ >\n"] {
        let e = parse_answer(line).unwrap_err();
        assert_eq!(e.problem, AnswerProblem::NotAMove { expected: "one of ^ > v <" }, "{e}");
    }
    assert_eq!(parse_answer(b"^\n>\n").unwrap_err().problem, AnswerProblem::SeveralLines);
    assert_eq!(parse_answer(b"\n").unwrap_err().problem, AnswerProblem::Empty);
    assert_eq!(parse_answer(b"x\n").unwrap_err().to_string(), r#"answer "x\n": not a move; expected one of ^ > v <"#);
}

#[test]
fn wire_preamble_and_who_is_asked() {
    let mut game = Multisnake::new(Settings::default(), builtin_map("quad-32x32").unwrap(), 0);
    assert_eq!(Wire::Text.preamble(&game, 2).as_deref(), Some("32 32 4 3 10\n"));
    assert_eq!(Wire::Json.preamble(&game, 2), None);
    assert_eq!(Wire::Text.preamble(&game, 4), None, "no such seat");
    game.step(&[Action::Forfeit, Action::Keep, Action::Keep, Action::Keep]);
    assert_eq!(Wire::Text.input(&game, 0), None, "a dead snake's program is terminated");
    assert_eq!(Wire::Json.input(&game, 0), None);
    assert!(Wire::Text.input(&game, 1).is_some());
    assert_eq!(Wire::Text.parse_answer::<Multisnake>(b"<\n"), Ok(Action::Move(Dir::Left)));
    assert_eq!(<Multisnake as StdioGame>::forfeit(), Action::Forfeit);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn answer_parser_fuzz(line in proptest::collection::vec(any::<u8>(), 0..12)) {
        if let Ok(Action::Move(d)) = parse_answer(&line) {
            let text = std::str::from_utf8(&line).unwrap().trim();
            prop_assert_eq!(text.chars().next(), Some(snakepit_protocol::stdio::multisnake::answer(d)));
        }
    }

    #[test]
    fn header_parser_fuzz(text in "[0-9 \\t\\n+-]{0,30}|\\PC{0,30}") {
        if let Ok(h) = parse_header(&text) {
            prop_assert!((1..=h.players).contains(&h.me));
        }
    }

    #[test]
    fn map_parser_fuzz(text in "[.#A-H@^>v<+\\-\\n]{0,60}", w in 0usize..9, h in 0usize..9) {
        if let Ok(view) = View::parse(&text, w, h) {
            prop_assert_eq!(view.cells.len(), w * h);
            for me in 0..10 {
                if let Some(body) = view.snake(me) {
                    prop_assert!(body.len() <= w * h);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    /// Every map the server sends reads back, and every live snake traces
    /// back to the engine's body.
    #[test]
    fn rendered_maps_read_back(seed: u64, which in 0usize..3) {
        let mut game = Multisnake::new(Settings::default(), builtin_map(MAPS[which].name).unwrap(), seed);
        let mut rng = Rng::new(seed);
        let grid = game.grid();
        for _ in 0..60 {
            let view = View::parse(&map(&game), grid.width, grid.height).unwrap();
            for (seat, s) in game.snakes().iter().enumerate() {
                if s.alive {
                    prop_assert_eq!(view.snake(seat + 1), Some(s.body.iter().copied().collect::<Vec<_>>()));
                } else {
                    prop_assert_eq!(view.get(s.head()), b'@');
                }
            }
            let actions: Vec<Action> = (0..game.seats()).map(|_| Action::Move(Dir::ALL[rng.index(4)])).collect();
            game.step(&actions);
            if game.is_over() {
                break;
            }
        }
    }

    /// The map writer gives the bytes of the engine's rows, into a reused
    /// buffer too, and the inputs rendered once for all seats are each
    /// seat's own, through long games (snakes that prefer free tiles, so
    /// they grow, wrap and die in every way) and after the end.
    #[test]
    fn shared_maps_are_the_engine_rows_for_every_seat(seed: u64, which in 0usize..3) {
        let mut game = Multisnake::new(Settings::default(), builtin_map(MAPS[which].name).unwrap(), seed);
        let mut rng = Rng::new(seed);
        let grid = game.grid();
        let mut reused = String::from("left over from an earlier turn");
        for _ in 0..400 {
            let rows: String = game.rows().iter().map(|r| format!("{r}\n")).collect();
            prop_assert_eq!(&map(&game), &rows);
            write_map(&game, &mut reused);
            prop_assert_eq!(&reused, &rows);
            let each: Vec<Option<String>> = (0..game.seats()).map(|seat| game.text_input(seat)).collect();
            prop_assert_eq!(game.text_inputs(), each.clone());
            prop_assert_eq!(Wire::Text.inputs(&game), each);
            let json: Vec<Option<String>> = (0..game.seats()).map(|seat| Wire::Json.input(&game, seat)).collect();
            prop_assert_eq!(Wire::Json.inputs(&game), json);
            if game.is_over() {
                break;
            }
            let view = View::parse(&rows, grid.width, grid.height).unwrap();
            let actions: Vec<Action> = game
                .snakes()
                .iter()
                .map(|s| {
                    let free: Vec<Dir> =
                        Dir::ALL.into_iter().filter(|&d| matches!(view.get(grid.step(s.head(), d)), b'.' | b'+' | b'-')).collect();
                    match rng.index(20) {
                        0 => Action::Forfeit,
                        1 => Action::Move(Dir::ALL[rng.index(4)]),
                        _ if free.is_empty() => Action::Keep,
                        _ => Action::Move(free[rng.index(free.len())]),
                    }
                })
                .collect();
            game.step(&actions);
        }
    }
}
