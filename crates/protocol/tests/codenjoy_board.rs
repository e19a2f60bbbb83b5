//! Reading boards back: elements, positions and snakes traced from their
//! glyphs, on boards written by hand and on boards the renderer made.

use snakepit_engine::snakebattle::{Action, Map, Settings, SnakeBattle};
use snakepit_engine::{Dir, Game, Pos, Rng};
use snakepit_protocol::codenjoy::{Board, BoardError, Element, render_board};

/// The CodeBattle description's sample board with its glyphs corrected (`─`
/// for `—`, the legacy `@` and `%` gone).
const SAMPLE: &str = "\
☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
☼☼            ☼
☼☼     $      ☼
☼☼            ☼
☼#           ▲☼
☼☼           ║☼
☼☼   ○       ║☼
☼#           ║☼
☼☼         ╘═╝☼
☼☼            ☼
☼☼   ×─>      ☼
☼☼            ☼
☼☼       ●    ☼
☼☼            ☼
☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
";

fn pos(x: i32, y: i32) -> Pos {
    Pos::new(x, y)
}

#[test]
fn sample_board_reads_as_drawn() {
    let board = Board::parse(SAMPLE).unwrap();
    assert_eq!(board.size(), 15);
    assert_eq!(board.get(pos(0, 0)), Element::Wall);
    assert_eq!(board.get(pos(1, 4)), Element::StartFloor);
    assert_eq!(board.get(pos(7, 2)), Element::Gold);
    assert_eq!(board.get(pos(5, 6)), Element::Apple);
    assert_eq!(board.get(pos(9, 12)), Element::Stone);
    assert_eq!(board.get(pos(-1, 3)), Element::Wall, "off the board reads as wall");
    assert_eq!(board.my_head(), Some(pos(13, 4)));
    assert_eq!(board.find(Element::StartFloor).collect::<Vec<_>>(), [pos(1, 4), pos(1, 7)]);
    assert_eq!(board.to_string(), SAMPLE);
}

#[test]
fn sample_board_snakes_are_traced() {
    let board = Board::parse(SAMPLE).unwrap();
    let snakes = board.snakes();
    assert_eq!(snakes.len(), 2);
    let me = &snakes[0];
    assert!(me.mine && me.is_moving() && !me.is_furious());
    assert_eq!(me.dir(), Some(Dir::Up));
    assert_eq!(me.cells, [pos(13, 4), pos(13, 5), pos(13, 6), pos(13, 7), pos(13, 8), pos(12, 8), pos(11, 8)]);
    let enemy = &snakes[1];
    assert!(!enemy.mine);
    assert_eq!(enemy.dir(), Some(Dir::Right));
    assert_eq!(enemy.cells, [pos(7, 10), pos(6, 10), pos(5, 10)]);
    assert_eq!(enemy.tail_pos(), pos(5, 10));
}

#[test]
fn states_and_directions_without_a_directional_head() {
    // A furious head tells no direction; the neck does. A sleeping snake's
    // tail says nothing about where its body is.
    let board = Board::parse(
        "\
☼☼☼☼☼☼☼
☼ ♥═╕ ☼
☼     ☼
☼ *ø  ☼
☼     ☼
☼ ☺─ö ☼
☼☼☼☼☼☼☼
",
    )
    .unwrap();
    let snakes = board.snakes();
    assert_eq!(snakes.len(), 3);
    assert!(snakes[0].is_furious() && snakes[0].is_moving());
    assert_eq!(snakes[0].dir(), Some(Dir::Left));
    assert_eq!(snakes[0].len(), 3);
    assert!(!snakes[1].is_moving() && !snakes[1].is_dead());
    assert_eq!(snakes[1].cells, [pos(3, 3), pos(2, 3)]);
    assert!(snakes[2].is_dead() && !snakes[2].is_moving());
    assert_eq!(snakes[2].len(), 3);
}

#[test]
fn tracing_stops_where_a_body_is_hidden() {
    // The enemy's body goes under my snake at [3,2]; only what is visible
    // is traced, and my snake is not mistaken for its continuation.
    let board = Board::parse(
        "\
☼☼☼☼☼☼☼
☼  ˅  ☼
☼ ╘═► ☼
☼     ☼
☼     ☼
☼     ☼
☼☼☼☼☼☼☼
",
    )
    .unwrap();
    let snakes = board.snakes();
    let enemy = snakes.iter().find(|s| !s.mine).unwrap();
    assert_eq!(enemy.cells, [pos(3, 1)]);
    assert_eq!(enemy.dir(), Some(Dir::Down));
    let me = snakes.iter().find(|s| s.mine).unwrap();
    assert_eq!(me.cells, [pos(4, 2), pos(3, 2), pos(2, 2)]);
}

#[test]
fn bad_boards_are_errors() {
    assert_eq!(Board::parse("board="), Err(BoardError::Empty));
    assert_eq!(Board::parse("board=☼☼☼"), Err(BoardError::NotSquare { cells: 3 }));
    // The CodeBattle description's typo and the legacy pill glyphs are not ours.
    for bad in ['—', '|', '%', '@'] {
        let text = format!("☼☼☼{bad}");
        assert_eq!(Board::parse(&text), Err(BoardError::UnknownGlyph { glyph: bad, index: 3 }));
    }
}

#[test]
fn every_traced_snake_of_a_played_game_is_consistent() {
    // Over real games, each seat sees exactly one snake of its own while
    // it is on the field, traced no longer than the engine's snake.
    let mut g = SnakeBattle::new(Settings::default(), Map::default_map(), 5, 3).unwrap();
    let mut rng = Rng::new(3);
    for _ in 0..300 {
        for seat in 0..5 {
            let board = Board::parse(&render_board(&g, Some(seat))).unwrap();
            let mine: Vec<_> = board.snakes().into_iter().filter(|s| s.mine).collect();
            let snake = &g.snakes()[seat];
            assert!(mine.len() <= 1);
            if let Some(view) = mine.first() {
                assert!(view.len() <= snake.len());
                assert_eq!(Some(view.head_pos()), snake.head());
            }
        }
        let actions: Vec<Action> = (0..5).map(|_| Action::go(Dir::ALL[rng.index(4)])).collect();
        g.step(&actions);
    }
}
