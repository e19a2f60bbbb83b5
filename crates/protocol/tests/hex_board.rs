//! The Hex board message: the example of Codenjoy's Hex description, the
//! glyph of every seat by join order, the per-player view, the fast renderer
//! against the plain one, the board parser the bots use, and the browser's
//! field view.

use expect_test::expect;
use proptest::prelude::*;
use snakepit_engine::hex::{Action, Cell, Hex, Map, Player, Settings};
use snakepit_engine::{Dir, Game, Pos, Rng};
use snakepit_protocol::hex::{Board, BoardError, Element, FieldView, HERO_GLYPHS, message, render_board, render_boards};

/// A game drawn as rows: `☼` wall, space or `.` empty, `A`..`O` a piece of
/// seat 0..14. Every seat up to the highest letter is present.
fn drawn(rows: &[&str]) -> Hex {
    let size = rows.len();
    let map_text: String = rows
        .iter()
        .map(|r| r.chars().map(|c| if c == '☼' { '☼' } else { ' ' }).collect::<String>() + "\n")
        .collect();
    let map = Map::parse(&map_text).unwrap();
    let mut seats = 0;
    let cells: Vec<Cell> = rows
        .iter()
        .flat_map(|r| r.chars())
        .map(|c| match c {
            '☼' => Cell::Wall,
            ' ' | '.' => Cell::Empty,
            c => {
                let seat = (c as u8 - b'A') as usize;
                seats = seats.max(seat + 1);
                Cell::Piece(seat)
            }
        })
        .collect();
    assert_eq!(cells.len(), size * size);
    let mut game = Hex::new(Settings::default(), map, 0, 1).unwrap();
    let players = (0..seats).map(|_| Player { present: true, placed: true, ..Player::default() }).collect();
    game.set_position(cells, players);
    game
}

#[test]
fn seed_example_board() {
    // The Hex description's 7x7 picture: my pieces at [2,1], [3,1], [2,2] and
    // one enemy piece at [3,4] ("the hero `☻` is at [3, 4]"). The enemy is seat
    // 0, the first to join, so it shows as HERO1 `☻`; the viewer is seat 1.
    let game = drawn(&["☼☼☼☼☼☼☼", "☼ BB  ☼", "☼ B   ☼", "☼     ☼", "☼  A  ☼", "☼     ☼", "☼☼☼☼☼☼☼"]);
    let board = render_board(&game, Some(1));
    assert_eq!(board.chars().count(), 7 * 7, "the length is the area of the field");
    let picture = ["☼☼☼☼☼☼☼", "☼ ☺☺  ☼", "☼ ☺   ☼", "☼     ☼", "☼  ☻  ☼", "☼     ☼", "☼☼☼☼☼☼☼"];
    assert_eq!(board, picture.concat());
    assert_eq!(message(&board), format!("board={}", picture.concat()));
    let read = Board::parse(&message(&board)).unwrap();
    assert_eq!(read.size(), 7);
    assert_eq!(read.mine(), vec![Pos::new(2, 1), Pos::new(3, 1), Pos::new(2, 2)]);
    assert_eq!(read.enemies(), vec![Pos::new(3, 4)]);
    assert_eq!(read.get(Pos::new(3, 4)), Element::Hero(1));

    // The Hex description's one-line string puts `☻` one cell to the right
    // of its picture (x = 4), a typo in the description; it is still a valid
    // board.
    let seed_line = "board=☼☼☼☼☼☼☼☼ ☺☺  ☼☼ ☺   ☼☼     ☼☼   ☻ ☼☼     ☼☼☼☼☼☼☼☼";
    let read = Board::parse(seed_line).unwrap();
    assert_eq!(read.size(), 7);
    assert_eq!(read.enemies(), vec![Pos::new(4, 4)]);
    assert_eq!(read.mine(), vec![Pos::new(2, 1), Pos::new(3, 1), Pos::new(2, 2)]);
}

#[test]
fn glyphs_follow_join_order() {
    // Thirteen seats, one piece each along the top row. Seat 0's view: its
    // own piece is `☺`, the others HERO2..HERO11 by seat, and the 12th and
    // 13th players share HERO11 `♀`. A spectator sees seat 0 as HERO1.
    let game = drawn(&[
        "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼",
        "☼ABCDEFGHIJKLM☼",
        "☼             ☼",
        "☼             ☼",
        "☼             ☼",
        "☼             ☼",
        "☼             ☼",
        "☼             ☼",
        "☼             ☼",
        "☼             ☼",
        "☼             ☼",
        "☼             ☼",
        "☼             ☼",
        "☼             ☼",
        "☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼",
    ]);
    let row = |board: &str| board.chars().skip(15 + 1).take(13).collect::<String>();
    expect!["☺♥♦♣♠•◘○◙♂♀♀♀"].assert_eq(&row(&render_board(&game, Some(0))));
    expect!["☻♥♦♣♠•◘○◙♂☺♀♀"].assert_eq(&row(&render_board(&game, Some(10))));
    expect!["☻♥♦♣♠•◘○◙♂♀☺♀"].assert_eq(&row(&render_board(&game, Some(11))));
    expect!["☻♥♦♣♠•◘○◙♂♀♀♀"].assert_eq(&row(&render_board(&game, None)));
    assert_eq!(HERO_GLYPHS.iter().collect::<String>(), "☻♥♦♣♠•◘○◙♂♀");
}

#[test]
fn a_freed_seat_and_its_glyph_go_to_the_next_player() {
    // Upstream gives a new player the first HERO element no present player
    // holds; a seat freed by a leaver is reused lowest first, which is the
    // same thing.
    let mut game = Hex::new(Settings::default(), Map::default_map(), 0, 5).unwrap();
    assert_eq!([game.join(), game.join(), game.join()], [Some(0), Some(1), Some(2)]);
    game.step(&[]);
    game.leave(1);
    game.step(&[]);
    assert_eq!(game.join(), Some(1));
    game.step(&[]);
    let spectator = render_board(&game, None);
    assert_eq!(spectator.matches('♥').count(), 1, "the new seat 1 is ♥ again");
    assert_eq!(render_board(&game, Some(1)).matches('☺').count(), 1);
}

#[test]
fn a_room_starts_with_free_seats() {
    let mut game = Hex::new_room(Settings::default(), Map::default_map(), 8);
    assert_eq!(game.seats(), 11);
    assert!(game.players().iter().all(|p| !p.present && p.pieces == 0));
    assert_eq!(render_board(&game, None), render_board(&Hex::new(Settings::default(), Map::default_map(), 0, 8).unwrap(), None));
    assert_eq!([game.join(), game.join()], [Some(0), Some(1)]);
    game.step(&[]);
    assert_eq!(game.seats(), 11);
    assert_eq!(game.players().iter().map(|p| p.pieces).collect::<Vec<_>>(), [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    for _ in 2..11 {
        assert!(game.join().is_some());
    }
    assert_eq!(game.join(), None);
}

#[test]
fn full_field_refuses_a_join() {
    let settings = Settings::from_pairs([("players_per_field", "2")]).unwrap();
    let mut game = Hex::new(settings, Map::default_map(), 0, 5).unwrap();
    assert_eq!([game.join(), game.join(), game.join()], [Some(0), Some(1), None]);
    game.leave(0);
    assert_eq!(game.join(), Some(0));
}

#[test]
fn field_view_json() {
    let mut game = drawn(&["☼☼☼☼☼", "☼A B☼", "☼   ☼", "☼  A☼", "☼☼☼☼☼"]);
    game.step(&[Action::clone_to(Pos::new(1, 1), Dir::Down)]);
    let json = serde_json::to_string(&FieldView::from(&game)).unwrap();
    expect![[r#"{"size":5,"cells":"☼☼☼☼☼☼   ☼☼   ☼☼   ☼☼☼☼☼☼","pieces":[[[1,1],[1,2],[3,3]],[[3,1]]],"scores":[30,0],"present":[true,true]}"#]]
        .assert_eq(&json);
}

#[test]
fn board_parse_errors() {
    assert_eq!(Board::parse("board="), Err(BoardError::Empty));
    assert_eq!(Board::parse("board=☼☼☼"), Err(BoardError::NotSquare(3)));
    assert_eq!(Board::parse("☼☼☼#"), Err(BoardError::UnknownGlyph { glyph: '#', index: 3 }));
    // A huge text stops at the limit instead of reading it all.
    let huge = " ".repeat(10_000_000);
    assert_eq!(Board::parse(&huge), Err(BoardError::TooLarge));
    assert_eq!(Board::parse("☼").map(|b| b.size()), Ok(1));
    let b = Board::parse("☼ ☺♀").unwrap();
    assert_eq!(b.get(Pos::new(-1, 0)), Element::Wall, "off the board reads as a wall");
    assert_eq!(b.get(Pos::new(1, 1)), Element::Hero(11));
    expect![[r#"
        ☼ 
        ☺♀
    "#]]
    .assert_eq(&b.to_rows());
}

/// A game after `ticks` random ticks, with seats joining and leaving.
fn random_game(seed: u64, ticks: usize) -> Hex {
    let settings = Settings::from_pairs([("players_per_field", "13")]).unwrap();
    let mut game = Hex::new(settings, Map::default_map(), 3, seed).unwrap();
    let mut rng = Rng::new(seed);
    for _ in 0..ticks {
        match rng.below(10) {
            0 => {
                game.join();
            }
            1 => game.leave(rng.index(game.seats())),
            _ => {}
        }
        let actions: Vec<Action> = (0..game.seats())
            .map(|seat| {
                let mine = game.pieces_of(seat);
                if mine.is_empty() {
                    return Action::Skip;
                }
                Action::Move { from: mine[rng.index(mine.len())], dir: Dir::ALL[rng.index(4)], jump: rng.below(4) == 0 }
            })
            .collect();
        game.step(&actions);
    }
    game
}

proptest! {
    // 300 games of up to 120 ticks: the two renderers agree, every board
    // has size * size glyphs of the Hex set, and parses back to the same
    // pieces the engine holds.
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn boards_agree_and_parse_back(seed in any::<u64>(), ticks in 0usize..120) {
        let game = random_game(seed, ticks);
        let all = render_boards(&game);
        prop_assert_eq!(all.len(), game.seats());
        for (seat, board) in all.iter().enumerate() {
            prop_assert_eq!(board, &render_board(&game, Some(seat)));
            prop_assert_eq!(board.chars().count(), 15 * 15);
            let read = Board::parse(&message(board)).unwrap();
            prop_assert_eq!(read.mine(), game.pieces_of(seat));
            for (i, e) in read.cells().iter().enumerate() {
                let want = match game.cells()[i] {
                    Cell::Empty => Element::None,
                    Cell::Wall => Element::Wall,
                    Cell::Piece(s) if s == seat => Element::MyHero,
                    Cell::Piece(s) => Element::of_seat(s),
                };
                prop_assert_eq!(*e, want);
            }
        }
    }

    #[test]
    fn board_parse_never_panics(text in "\\PC{0,64}") {
        if let Ok(b) = Board::parse(&text) {
            prop_assert_eq!(b.size() * b.size(), b.cells().len());
        }
    }
}
