//! The replay file through the public API: what is written, that it reads
//! back into the same game, and that every defect names its line.

use expect_test::expect;
use proptest::prelude::*;
use snakepit_engine::snakebattle::{Action, Map, Settings, SnakeBattle};
use snakepit_engine::{Dir, Game};
use snakepit_protocol::replay::{Header, Replay, ReplayError, ReplayProblem, ReplayWriter, SetupError};

const SMALL_MAP: &str = "\
☼☼☼☼☼☼☼
☼#   $☼
☼  ○  ☼
☼#    ☼
☼  ●  ☼
☼#    ☼
☼☼☼☼☼☼☼
";

fn small_game(seats: usize, seed: u64) -> SnakeBattle {
    let settings = Settings::from_pairs([("countdown_ticks", "1")]).unwrap();
    SnakeBattle::new(settings, Map::parse(SMALL_MAP).unwrap(), seats, seed).unwrap()
}

fn players(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("p{i}")).collect()
}

/// Plays `moves` (one row per tick) and returns the replay text and the
/// final state.
fn record(mut game: SnakeBattle, seed: u64, moves: &[Vec<Action>]) -> (String, SnakeBattle) {
    let mut w = ReplayWriter::new(Vec::new(), &game, seed, &players(game.seats())).unwrap();
    for tick in moves {
        game.step(tick);
        w.record(&game, tick).unwrap();
    }
    (String::from_utf8(w.finish().unwrap()).unwrap(), game)
}

fn go(d: Dir) -> Action {
    Action::go(d)
}

#[test]
fn header_is_fixed_byte_for_byte() {
    let (text, _) = record(small_game(2, 9), 9, &[]);
    expect![[r#"
        {"snakepit_replay":1,"game":"snakebattle","engine":"5","seed":9,"seats":2,"players":["p0","p1"],"settings":{"profile":"codebattle","fury_ticks":"15","flying_ticks":"10","flying_pills":"false","stone_shrink":"3","commands":"seed","points_apple":"1","points_gold":"10","points_stone":"15","points_eat_per_cell":"10","points_win_per_length":"10","points_win_per_tick":"1","points_win_flat":"0","points_die_penalty":"0","rounds":"true","countdown_ticks":"1","round_ticks":"300","round_end_length":"40","min_ticks_for_win":"0","players_per_field":"5","replace_eaten":"true","dice":"false","map_percent_is_fury":"true"},"map":["☼☼☼☼☼☼☼","☼#   $☼","☼  ○  ☼","☼#    ☼","☼  ●  ☼","☼#    ☼","☼☼☼☼☼☼☼"]}
    "#]]
    .assert_eq(&text);
}

#[test]
fn ticks_are_one_line_each() {
    let stone_after = Action { drop: Some(snakepit_engine::snakebattle::StoneDrop::AfterMove), ..go(Dir::Down) };
    let moves = vec![vec![], vec![go(Dir::Right), Action::default()], vec![stone_after, Action::default()]];
    let (text, game) = record(small_game(2, 9), 9, &moves);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    // Missing actions are written as the default action.
    assert!(lines[1].starts_with(r#"{"t":1,"m":["-","-"],"c":""#), "{}", lines[1]);
    assert!(lines[2].starts_with(r#"{"t":2,"m":["R","-"],"c":""#), "{}", lines[2]);
    assert!(lines[3].starts_with(r#"{"t":3,"m":["DA","-"],"c":""#), "{}", lines[3]);
    assert!(lines[3].ends_with(&format!("\"c\":\"{:016x}\"}}", game.checksum())), "{}", lines[3]);
    assert!(text.ends_with("\n"));
}

#[test]
fn reads_back_the_same_game() {
    let moves: Vec<Vec<Action>> = (0..40).map(|t| vec![go(Dir::ALL[t % 4]), go(Dir::ALL[(t / 3) % 4])]).collect();
    let (text, last) = record(small_game(2, 4), 4, &moves);
    let replay = Replay::<SnakeBattle>::parse(&text).unwrap();
    assert_eq!(replay.header.seed, 4);
    assert_eq!(replay.header.players, players(2));
    assert_eq!(replay.start, small_game(2, 4));
    assert_eq!(replay.ticks.len(), 40);
    assert_eq!(replay.ticks[5].moves, moves[5]);
    let mut seen = 0;
    let end = replay.resimulate(|game, record, _| {
        seen += 1;
        assert_eq!(game.tick(), record.tick);
    });
    assert_eq!(end.unwrap(), last);
    assert_eq!(seen, 40);
    // Writing the parsed replay again gives the same bytes.
    let (again, _) = record(replay.start.clone(), 4, &moves);
    assert_eq!(again, text);
}

#[test]
fn a_changed_move_diverges_at_its_tick() {
    let moves: Vec<Vec<Action>> = (0..10).map(|_| vec![go(Dir::Down), go(Dir::Up)]).collect();
    let (text, _) = record(small_game(2, 1), 1, &moves);
    let mut replay = Replay::<SnakeBattle>::parse(&text).unwrap();
    // Tick 1 is the countdown; from tick 2 the snakes move.
    replay.ticks[3].moves[0] = Action { suicide: true, ..Action::default() };
    let err = replay.resimulate(|_, _, _| {}).unwrap_err();
    assert_eq!(err.tick, 4);
    assert!(err.to_string().starts_with("tick 4 (line 5): the state's checksum is "), "{err}");
    assert!(!err.to_string().contains("engine"), "same engine version, no remark: {err}");

    replay.header.engine = "0".into();
    let err = replay.resimulate(|_, _, _| {}).unwrap_err();
    assert!(err.to_string().ends_with("(the replay was made by engine \"0\", this is engine \"5\")"), "{err}");
}

fn problem(text: &str) -> ReplayError {
    Replay::<SnakeBattle>::parse(text).unwrap_err()
}

#[test]
fn defects_name_their_line() {
    let moves: Vec<Vec<Action>> = (0..4).map(|_| vec![go(Dir::Down), go(Dir::Up)]).collect();
    let (text, _) = record(small_game(2, 1), 1, &moves);
    let lines: Vec<&str> = text.lines().collect();
    let with = |n: usize, new: &str| {
        let mut l: Vec<&str> = lines.clone();
        l[n - 1] = new;
        l.join("\n") + "\n"
    };
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "line 1: the file is empty"),
        ("\n".into(), "line 1: empty line"),
        (with(3, ""), "line 3: empty line"),
        (text[..text.len() - 10].to_string(), "line 5: not valid JSON: EOF while parsing a string (column"),
        (with(1, "[1,2]"), "line 1: not a snakepit replay"),
        (with(1, "{\"snakepit_replay\":\"one\"}"), "line 1: replay format version \"one\" is not supported"),
        (with(1, &lines[0].replace("\"seed\":1", "\"seed\":-1")), "line 1: invalid value: integer `-1`, expected u64"),
        (with(1, &lines[0].replace("\"snakebattle\"", "\"chess\"")), "line 1: the replay is of game \"chess\", expected \"snakebattle\""),
        (with(1, &lines[0].replace("[\"p0\",\"p1\"]", "[\"p0\"]")), "line 1: \"players\" has 1 names but \"seats\" is 2"),
        (with(1, &lines[0].replace("\"seats\":2,\"players\":[\"p0\",\"p1\"]", "\"seats\":4,\"players\":[\"a\",\"b\",\"c\",\"d\"]")), "line 1: the game cannot start: 4 players, but the map has 3 start floors"),
        (with(1, &lines[0].replace("\"profile\":\"codebattle\"", "\"profile\":\"codebattle\",\"fury_ticks\":\"2\"")), "line 1: setting \"fury_ticks\" appears twice"),
        (with(1, &lines[0].replace("\"stone_shrink\"", "\"stone_shrunk\"")), "line 1: \"settings\": unknown setting \"stone_shrunk\""),
        (with(1, &lines[0].replace("☼#   $☼", "☼#  ?$☼")), "line 1: \"map\" row 2: column 5: '?' is not a map glyph"),
        (with(2, lines[2]), "line 2: \"t\" is 2, expected 1"),
        (with(3, &lines[2].replace("[\"D\",\"U\"]", "[\"D\"]")), "line 3: \"m\" has 1 moves but the game has 2 seats"),
        (with(3, &lines[2].replace("[\"D\",\"U\"]", "[\"D\",\"UU\"]")), "line 3: \"m\"[1]: bad action \"UU\""),
        (with(3, &lines[2].replace("\"c\":\"", "\"c\":\"0x")), "line 3: \"c\" must be 16 lower-case hex digits"),
        (with(4, &lines[3].replace("\"t\":", "\"tick\":")), "line 4: unknown field `tick`"),
        (with(4, &lines[3].replace("\"m\":[\"D\",\"U\"],", "")), "line 4: missing field `m`"),
    ];
    for (text, want) in cases {
        let got = problem(&text).to_string();
        assert!(got.starts_with(want), "want {want:?}\n got {got:?}");
        assert!(!got.contains('\n'), "{got:?}");
    }
}

#[test]
fn setup_errors_are_typed() {
    let (text, _) = record(small_game(1, 1), 1, &[]);
    let bad = text.replace("☼#   $☼", "☼#   $");
    let err = problem(&bad);
    assert_eq!(err.line, 1);
    assert!(matches!(err.problem, ReplayProblem::Setup(SetupError::Map { row: 2, .. })), "{err:?}");
}

#[test]
fn header_alone_names_the_game() {
    let (text, _) = record(small_game(1, 1), 1, &[vec![]]);
    let header = Header::parse(&text).unwrap();
    assert_eq!(header.game, "snakebattle");
    assert_eq!(header.seats, 1);
    assert_eq!(header.to_line(), text.lines().next().unwrap());
    // Only the first line is read.
    assert!(Header::parse(&(text.lines().next().unwrap().to_string() + "\ngarbage")).is_ok());
}

#[test]
fn crlf_line_ends_are_read() {
    let (text, _) = record(small_game(1, 1), 1, &[vec![go(Dir::Up)], vec![]]);
    let crlf = text.replace('\n', "\r\n");
    let replay = Replay::<SnakeBattle>::parse(&crlf).unwrap();
    assert_eq!(replay.ticks.len(), 2);
    assert!(replay.resimulate(|_, _, _| {}).is_ok());
}

fn any_action() -> impl Strategy<Value = Action> {
    prop_oneof![
        Just(Action::default()),
        Just(Action { suicide: true, ..Action::default() }),
        (0..4usize, 0..3usize).prop_map(|(d, drop)| {
            use snakepit_engine::snakebattle::StoneDrop::*;
            Action { dir: Some(Dir::ALL[d]), drop: [None, Some(BeforeMove), Some(AfterMove)][drop], suicide: false }
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any game, recorded and read back, re-simulates to the same state.
    #[test]
    fn any_game_round_trips(seed in any::<u64>(), seats in 1..=3usize, moves in prop::collection::vec(prop::collection::vec(any_action(), 3), 0..60)) {
        let moves: Vec<Vec<Action>> = moves.into_iter().map(|mut m| { m.truncate(seats); m }).collect();
        let (text, last) = record(small_game(seats, seed), seed, &moves);
        let replay = Replay::<SnakeBattle>::parse(&text).unwrap();
        prop_assert_eq!(replay.resimulate(|_, _, _| {}).unwrap(), last);
    }
}
