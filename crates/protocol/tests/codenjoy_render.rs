//! Board rendering: positions drawn by hand (the CodeBattle description's
//! sample board first) and compared with literal expected boards, plus property
//! tests that the fast per-seat renderer equals the plain one on engine-made
//! and on arbitrary positions.

use expect_test::{Expect, expect};
use proptest::prelude::*;
use snakepit_engine::snakebattle::{Action, Item, Map, Settings, Snake, SnakeBattle, StoneDrop};
use snakepit_engine::{Dir, Game, Pos, Rng};
use snakepit_protocol::codenjoy::{Board, Element, glyphs, message, render_board, render_boards};

/// The CodeBattle description's sample board with the snakes taken out:
/// its `%` and `@` are legacy pill glyphs that maps read as empty cells.
const SAMPLE_MAP: &str = "\
☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
☼☼            ☼
☼☼     $      ☼
☼☼           @☼
☼#            ☼
☼☼            ☼
☼☼   ○        ☼
☼#            ☼
☼☼            ☼
☼☼      %     ☼
☼☼            ☼
☼☼            ☼
☼☼       ●    ☼
☼☼            ☼
☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
";

/// A small walled field for shapes and overlaps.
const SMALL_MAP: &str = "\
☼☼☼☼☼☼☼☼
☼      ☼
☼      ☼
☼      ☼
☼      ☼
☼      ☼
☼#     ☼
☼☼☼☼☼☼☼☼
";

fn snake(cells: &[(i32, i32)], dir: Dir) -> Snake {
    SnakeBattle::make_snake(cells.iter().map(|&(x, y)| Pos::new(x, y)).collect(), dir)
}

fn game(map: &str, snakes: Vec<Snake>) -> SnakeBattle {
    let map = Map::parse(map).unwrap();
    let items = map.items.clone();
    let mut g = SnakeBattle::new(Settings::default(), map, 1, 0).unwrap();
    g.set_position(items, snakes);
    g
}

/// The board as rows, for reading; also checks the invariants every board
/// must keep and that the fast renderer agrees.
fn rows(g: &SnakeBattle, seat: Option<usize>) -> String {
    let board = render_board(g, seat);
    assert_board_ok(g, &board);
    if let Some(seat) = seat {
        assert_eq!(render_boards(g)[seat], board, "render_boards differs for seat {seat}");
    }
    let chars: Vec<char> = board.chars().collect();
    chars.chunks(g.size()).map(|row| row.iter().collect::<String>() + "\n").collect()
}

fn assert_board_ok(g: &SnakeBattle, board: &str) {
    assert_eq!(board.chars().count(), g.size() * g.size(), "board length");
    for c in board.chars() {
        assert!(!glyphs::FORBIDDEN.contains(&c), "forbidden glyph {c:?} in\n{board}");
        assert!(Element::from_glyph(c).is_some_and(|e| e != Element::Other), "unknown glyph {c:?}");
    }
}

fn check(g: &SnakeBattle, seat: Option<usize>, expected: Expect) {
    expected.assert_eq(&rows(g, seat));
}

/// The CodeBattle description's sample: my snake coiled on the right, an enemy
/// in the middle.
fn sample() -> SnakeBattle {
    game(
        SAMPLE_MAP,
        vec![
            snake(&[(13, 4), (13, 5), (13, 6), (13, 7), (13, 8), (12, 8), (11, 8)], Dir::Up),
            snake(&[(7, 10), (6, 10), (5, 10)], Dir::Right),
        ],
    )
}

#[test]
fn seed_sample_as_its_owner_sees_it() {
    // The CodeBattle description's sample board, but with `─` for its `—`
    // and without the legacy `@` and `%`.
    check(
        &sample(),
        Some(0),
        expect![[r#"
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
        "#]],
    );
}

#[test]
fn seed_sample_as_the_enemy_sees_it() {
    check(
        &sample(),
        Some(1),
        expect![[r#"
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼☼            ☼
            ☼☼     $      ☼
            ☼☼            ☼
            ☼#           ˄☼
            ☼☼           │☼
            ☼☼   ○       │☼
            ☼#           │☼
            ☼☼         ×─┘☼
            ☼☼            ☼
            ☼☼   ╘═►      ☼
            ☼☼            ☼
            ☼☼       ●    ☼
            ☼☼            ☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        "#]],
    );
}

#[test]
fn seed_sample_as_a_spectator_sees_it() {
    check(
        &sample(),
        None,
        expect![[r#"
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼☼            ☼
            ☼☼     $      ☼
            ☼☼            ☼
            ☼#           ˄☼
            ☼☼           │☼
            ☼☼   ○       │☼
            ☼#           │☼
            ☼☼         ×─┘☼
            ☼☼            ☼
            ☼☼   ×─>      ☼
            ☼☼            ☼
            ☼☼       ●    ☼
            ☼☼            ☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        "#]],
    );
}

#[test]
fn message_prefixes_the_board() {
    let board = render_board(&sample(), Some(0));
    let m = message(&board);
    assert_eq!(m.strip_prefix("board="), Some(board.as_str()));
    assert!(!m.contains('\n'));
    assert_eq!(m.chars().count(), "board=".len() + 15 * 15);
}

/// Every body turn, both straights and a tail pointing down.
fn coil() -> SnakeBattle {
    game(
        SMALL_MAP,
        vec![snake(
            &[(2, 1), (3, 1), (4, 1), (4, 2), (3, 2), (2, 2), (2, 3), (3, 3), (4, 3), (4, 4), (4, 5)],
            Dir::Left,
        )],
    )
}

#[test]
fn body_turns_mine() {
    check(
        &coil(),
        Some(0),
        expect![[r#"
            ☼☼☼☼☼☼☼☼
            ☼ ◄═╗  ☼
            ☼ ╔═╝  ☼
            ☼ ╚═╗  ☼
            ☼   ║  ☼
            ☼   ╙  ☼
            ☼#     ☼
            ☼☼☼☼☼☼☼☼
        "#]],
    );
}

#[test]
fn body_turns_enemy() {
    check(
        &coil(),
        None,
        expect![[r#"
            ☼☼☼☼☼☼☼☼
            ☼ <─┐  ☼
            ☼ ┌─┘  ☼
            ☼ └─┐  ☼
            ☼   │  ☼
            ☼   ¤  ☼
            ☼#     ☼
            ☼☼☼☼☼☼☼☼
        "#]],
    );
}

/// Four two-cell snakes, one per tail direction, and one per head direction.
fn tails() -> SnakeBattle {
    game(
        SMALL_MAP,
        vec![
            snake(&[(2, 1), (1, 1)], Dir::Right),
            snake(&[(4, 1), (5, 1)], Dir::Left),
            snake(&[(2, 4), (2, 3)], Dir::Down),
            snake(&[(5, 3), (5, 4)], Dir::Up),
        ],
    )
}

#[test]
fn tails_and_heads_per_viewer() {
    check(
        &tails(),
        Some(0),
        expect![[r#"
            ☼☼☼☼☼☼☼☼
            ☼╘► <ö ☼
            ☼      ☼
            ☼ æ  ˄ ☼
            ☼ ˅  ¤ ☼
            ☼      ☼
            ☼#     ☼
            ☼☼☼☼☼☼☼☼
        "#]],
    );
    check(
        &tails(),
        Some(1),
        expect![[r#"
            ☼☼☼☼☼☼☼☼
            ☼×> ◄╕ ☼
            ☼      ☼
            ☼ æ  ˄ ☼
            ☼ ˅  ¤ ☼
            ☼      ☼
            ☼#     ☼
            ☼☼☼☼☼☼☼☼
        "#]],
    );
    check(
        &tails(),
        Some(2),
        expect![[r#"
            ☼☼☼☼☼☼☼☼
            ☼×> <ö ☼
            ☼      ☼
            ☼ ╓  ˄ ☼
            ☼ ▼  ¤ ☼
            ☼      ☼
            ☼#     ☼
            ☼☼☼☼☼☼☼☼
        "#]],
    );
    check(
        &tails(),
        Some(3),
        expect![[r#"
            ☼☼☼☼☼☼☼☼
            ☼×> <ö ☼
            ☼      ☼
            ☼ æ  ▲ ☼
            ☼ ˅  ╙ ☼
            ☼      ☼
            ☼#     ☼
            ☼☼☼☼☼☼☼☼
        "#]],
    );
}

/// One snake per head state, in rows: dead, asleep, flying, furious, and
/// fury together with flying (flying wins), dead while asleep (dead wins).
fn head_states() -> SnakeBattle {
    let mut snakes = Vec::new();
    for y in 1..=6 {
        snakes.push(snake(&[(3, y), (2, y), (1, y)], Dir::Right));
    }
    snakes[0].alive = false;
    snakes[1].active = false;
    snakes[2].flying = 3;
    snakes[3].fury = 3;
    snakes[4].fury = 3;
    snakes[4].flying = 3;
    snakes[5].alive = false;
    snakes[5].active = false;
    let mut map: Vec<String> = SMALL_MAP.lines().map(String::from).collect();
    map[6] = "☼      ☼".to_string();
    map[5] = "☼     #☼".to_string();
    game(&(map.join("\n") + "\n"), snakes)
}

#[test]
fn head_states_mine() {
    let g = head_states();
    let mine: String =
        (0..6).map(|seat| rows(&g, Some(seat)).lines().nth(seat + 1).unwrap().to_string() + "\n").collect();
    expect![[r#"
        ☼╘═☻   ☼
        ☼~═&   ☼
        ☼╘═♠   ☼
        ☼╘═♥   ☼
        ☼╘═♠  #☼
        ☼~═☻   ☼
    "#]]
    .assert_eq(&mine);
}

#[test]
fn head_states_enemy() {
    check(
        &head_states(),
        None,
        expect![[r#"
            ☼☼☼☼☼☼☼☼
            ☼×─☺   ☼
            ☼*─ø   ☼
            ☼×─♦   ☼
            ☼×─♣   ☼
            ☼×─♦  #☼
            ☼*─☺   ☼
            ☼☼☼☼☼☼☼☼
        "#]],
    );
}

#[test]
fn shorter_snake_lies_on_top() {
    // A vertical snake of 4 crosses a horizontal one at [3,3].
    let long = snake(&[(3, 1), (3, 2), (3, 3), (3, 4), (3, 5)], Dir::Up);
    let short = snake(&[(4, 3), (3, 3), (2, 3)], Dir::Right);
    check(
        &game(SMALL_MAP, vec![long.clone(), short.clone()]),
        Some(0),
        expect![[r#"
            ☼☼☼☼☼☼☼☼
            ☼  ▲   ☼
            ☼  ║   ☼
            ☼ ×─>  ☼
            ☼  ║   ☼
            ☼  ╙   ☼
            ☼#     ☼
            ☼☼☼☼☼☼☼☼
        "#]],
    );
    // Seat order does not matter, length does.
    check(
        &game(SMALL_MAP, vec![short, long]),
        Some(0),
        expect![[r#"
            ☼☼☼☼☼☼☼☼
            ☼  ˄   ☼
            ☼  │   ☼
            ☼ ╘═►  ☼
            ☼  │   ☼
            ☼  ¤   ☼
            ☼#     ☼
            ☼☼☼☼☼☼☼☼
        "#]],
    );
}

#[test]
fn equal_lengths_go_by_seat() {
    let a = snake(&[(3, 1), (3, 2), (3, 3)], Dir::Up);
    let b = snake(&[(4, 3), (3, 3), (2, 3)], Dir::Right);
    check(
        &game(SMALL_MAP, vec![a.clone(), b.clone()]),
        None,
        expect![[r#"
            ☼☼☼☼☼☼☼☼
            ☼  ˄   ☼
            ☼  │   ☼
            ☼ ×¤>  ☼
            ☼      ☼
            ☼      ☼
            ☼#     ☼
            ☼☼☼☼☼☼☼☼
        "#]],
    );
    check(
        &game(SMALL_MAP, vec![b, a]),
        None,
        expect![[r#"
            ☼☼☼☼☼☼☼☼
            ☼  ˄   ☼
            ☼  │   ☼
            ☼ ×─>  ☼
            ☼      ☼
            ☼      ☼
            ☼#     ☼
            ☼☼☼☼☼☼☼☼
        "#]],
    );
}

#[test]
fn dead_head_lies_on_top_of_everything() {
    // A long dead snake whose head is on a short live snake's body, and a
    // flying snake passing over the same cell.
    let mut dead = snake(&[(3, 3), (3, 4), (3, 5), (4, 5), (5, 5)], Dir::Up);
    dead.alive = false;
    let live = snake(&[(4, 3), (3, 3), (2, 3)], Dir::Right);
    let mut flyer = snake(&[(3, 1), (3, 2), (3, 3), (3, 4)], Dir::Up);
    flyer.flying = 5;
    check(
        &game(SMALL_MAP, vec![live, dead, flyer]),
        Some(1),
        expect![[r#"
            ☼☼☼☼☼☼☼☼
            ☼  ♦   ☼
            ☼  │   ☼
            ☼ ×☻>  ☼
            ☼  ¤   ☼
            ☼  ╚═╕ ☼
            ☼#     ☼
            ☼☼☼☼☼☼☼☼
        "#]],
    );
}

#[test]
fn flying_snake_lies_over_shorter_ones_and_its_head_over_itself() {
    // A flying snake of 7 loops over its own body (its head is on its
    // segment 3) and over a short snake.
    let mut flyer = snake(&[(3, 2), (3, 3), (4, 3), (4, 2), (3, 2), (2, 2), (1, 2)], Dir::Up);
    flyer.flying = 2;
    let short = snake(&[(4, 4), (4, 3)], Dir::Down);
    check(
        &game(SMALL_MAP, vec![flyer, short]),
        Some(0),
        expect![[r#"
            ☼☼☼☼☼☼☼☼
            ☼      ☼
            ☼╘═♠╗  ☼
            ☼  ╚╝  ☼
            ☼   ˅  ☼
            ☼      ☼
            ☼#     ☼
            ☼☼☼☼☼☼☼☼
        "#]],
    );
}

#[test]
fn spawned_snake_sleeps_with_its_tail_in_the_wall() {
    // As the engine spawns: head on the start floor, tail in the wall.
    let g = SnakeBattle::new(Settings::default(), Map::parse(SMALL_MAP).unwrap(), 1, 0).unwrap();
    check(
        &g,
        Some(0),
        expect![[r#"
            ☼☼☼☼☼☼☼☼
            ☼      ☼
            ☼      ☼
            ☼      ☼
            ☼      ☼
            ☼      ☼
            ~&     ☼
            ☼☼☼☼☼☼☼☼
        "#]],
    );
    check(
        &g,
        None,
        expect![[r#"
            ☼☼☼☼☼☼☼☼
            ☼      ☼
            ☼      ☼
            ☼      ☼
            ☼      ☼
            ☼      ☼
            *ø     ☼
            ☼☼☼☼☼☼☼☼
        "#]],
    );
}

#[test]
fn parts_off_the_board_are_not_drawn() {
    // A snake that died running off a wall-less edge.
    let mut gone = snake(&[(-1, 1), (0, 1), (1, 1)], Dir::Left);
    gone.alive = false;
    let map = ["       "; 6].join("\n") + "\n      #\n";
    check(
        &game(&map, vec![gone]),
        Some(0),
        expect![[r#"
                   
            ═╕     
                   
                   
                   
                   
                  #
        "#]],
    );
}

#[test]
fn items_use_upstream_glyphs() {
    let mut g = game(SMALL_MAP, vec![]);
    let mut items = g.items().to_vec();
    for (i, it) in [Item::Apple, Item::Stone, Item::Gold, Item::FuryPill, Item::FlyingPill].into_iter().enumerate() {
        items[8 + 1 + i] = Some(it);
    }
    g.set_position(items, vec![]);
    check(
        &g,
        None,
        expect![[r#"
            ☼☼☼☼☼☼☼☼
            ☼○●$®© ☼
            ☼      ☼
            ☼      ☼
            ☼      ☼
            ☼      ☼
            ☼#     ☼
            ☼☼☼☼☼☼☼☼
        "#]],
    );
    assert!(render_boards(&g).is_empty(), "no seats, no boards");
}

#[test]
fn rendered_boards_parse_back() {
    let g = sample();
    let board = Board::parse(&message(&render_board(&g, Some(0)))).unwrap();
    assert_eq!(board.size(), 15);
    assert_eq!(board.to_string(), rows(&g, Some(0)));
    assert_eq!(board.my_head(), Some(Pos::new(13, 4)));
}

// ---------------------------------------------------------------------------
// Property tests.

/// Random actions, stones and suicides included, so that every head state
/// and every kind of death shows up.
fn random_action(rng: &mut Rng) -> Action {
    let dir = Some(Dir::ALL[rng.index(4)]);
    match rng.below(40) {
        0 => Action { suicide: true, ..Action::default() },
        1..=3 => Action { dir, drop: Some(StoneDrop::BeforeMove), suicide: false },
        4..=6 => Action { dir, drop: Some(StoneDrop::AfterMove), suicide: false },
        7..=20 => Action::default(),
        _ => Action { dir, ..Action::default() },
    }
}

/// Plays a game and checks, after every tick, that every seat's fast board
/// equals its plain board.
fn play_and_compare(profile: &str, seats: usize, ticks: u32, seed: u64) {
    let settings = Settings::from_pairs([("profile", profile)]).unwrap();
    let mut g = SnakeBattle::new(settings, Map::default_map(), seats, seed).unwrap();
    let mut rng = Rng::new(seed ^ 0x5eed);
    for tick in 0..ticks {
        let boards = render_boards(&g);
        assert_eq!(boards.len(), seats);
        for (seat, board) in boards.iter().enumerate() {
            assert_eq!(*board, render_board(&g, Some(seat)), "seed {seed}, tick {tick}, seat {seat}");
        }
        assert_board_ok(&g, &render_board(&g, None));
        let actions: Vec<Action> = (0..seats).map(|_| random_action(&mut rng)).collect();
        g.step(&actions);
    }
}

proptest! {
    // 16 games of up to 400 ticks (about 3 000 ticks in all), every seat
    // compared after every tick; kept small because debug builds are slow.
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn fast_boards_equal_plain_boards_in_played_games(
        seed in any::<u64>(),
        seats in 1usize..=15,
        ticks in 1u32..400,
        codenjoy in any::<bool>(),
    ) {
        play_and_compare(if codenjoy { "codenjoy" } else { "codebattle" }, seats, ticks, seed);
    }
}

/// A random walk of `len` cells from a random cell, allowed to cross itself,
/// other snakes and the edge of the board.
fn arbitrary_snake(rng: &mut Rng, size: i32) -> Snake {
    let len = 1 + rng.index(12);
    let mut at = Pos::new(rng.below(size as u64 + 2) as i32 - 1, rng.below(size as u64 + 2) as i32 - 1);
    let mut cells = vec![at];
    for _ in 1..len {
        at = at.step(Dir::ALL[rng.index(4)]);
        cells.push(at);
    }
    let mut s = snake(&[], Dir::ALL[rng.index(4)]);
    s.body = cells.into();
    s.alive = rng.below(4) != 0;
    s.active = rng.below(4) != 0;
    s.flying = if rng.below(4) == 0 { 3 } else { 0 };
    s.fury = if rng.below(4) == 0 { 3 } else { 0 };
    s
}

proptest! {
    // Arbitrary overlapping positions stress the drawing order far more than
    // real games do.
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn fast_boards_equal_plain_boards_on_arbitrary_positions(seed in any::<u64>(), count in 0usize..10) {
        let mut rng = Rng::new(seed);
        let mut g = game(SMALL_MAP, vec![]);
        let snakes: Vec<Snake> = (0..count).map(|_| arbitrary_snake(&mut rng, 8)).collect();
        let items = g.items().to_vec();
        g.set_position(items, snakes);
        let boards = render_boards(&g);
        prop_assert_eq!(boards.len(), count);
        for (seat, board) in boards.iter().enumerate() {
            prop_assert_eq!(board, &render_board(&g, Some(seat)));
            assert_board_ok(&g, board);
        }
        assert_board_ok(&g, &render_board(&g, None));
    }
}

/// The default map draws its fury pill in the legacy glyph `%`; a
/// `codebattle` game holds a fury pill there, and every board sends it as
/// `®`, never as `%`.
#[test]
fn default_map_fury_pill_is_sent_as_its_glyph() {
    let g = SnakeBattle::new(Settings::default(), Map::default_map(), 2, 1).unwrap();
    let (row, col) = snakepit_engine::snakebattle::DEFAULT_MAP
        .lines()
        .enumerate()
        .find_map(|(y, line)| line.chars().position(|c| c == '%').map(|x| (y, x)))
        .expect("the default map draws a `%`");
    for seat in [None, Some(0), Some(1)] {
        let board = rows(&g, seat);
        let line: Vec<char> = board.lines().nth(row).unwrap().chars().collect();
        assert_eq!(line[col], glyphs::FURY_PILL, "seat {seat:?}:\n{board}");
        assert!(!board.contains('%'), "{board}");
    }
}
