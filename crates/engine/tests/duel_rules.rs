//! One test per rule sentence of KingOfBots' description (KingOfBots Snake), plus the
//! decisions taken where the description is silent or upstream's code differs.
//!
//! The test names are the ones in the table of `src/duel/mod.rs`. Every
//! case goes through [`check`]; its notation is documented on the `check`
//! module at the end of this file. The expectations were checked by hand
//! against KingOfBots' description: when `UPDATE_EXPECT=1` changes one,
//! read the new text against the rule before keeping it.

mod notation;

use check::check;
use expect_test::expect;
use snakepit_engine::Rng;
use snakepit_engine::duel::DuelMap;

/// The table of rule sentences in `src/duel/mod.rs` and the tests of this
/// file name each other exactly.
#[test]
fn rule_table_matches_tests() {
    let table = notation::table_tests(include_str!("../src/duel/mod.rs"));
    let tests = notation::test_fns(include_str!("duel_rules.rs"));
    notation::assert_table_matches("src/duel/mod.rs", &table, &tests, 20);
}

// ---------------------------------------------------------------------------
// The map and the start

#[test]
fn map_is_13_by_14_with_symmetric_walls() {
    // A full border and 20 inner walls in pairs (r,c) and (12-r,13-c).
    check(
        r#"
        game: generated seed=1
        "#,
        expect![[r#"
            after round 0
            ##############
            #..##.......B#
            #............#
            #........#...#
            #.....#......#
            ####......#..#
            #..#.#..#.#..#
            #..#......####
            #......#.....#
            #...#........#
            #............#
            #A.......##..#
            ##############
            A: len=1 dir=U steps=
            B: len=1 dir=D steps=
            result: playing
        "#]],
    );
}

#[test]
fn generated_map_connects_the_starts() {
    // Upstream redraws until a path joins the starts; a dense map shows
    // it: both starts lie in one open region.
    check(
        r#"
        game: generated seed=2 inner_walls=60
        "#,
        expect![[r#"
            after round 0
            ##############
            ###.###.....B#
            #..#..#..#.###
            ####.....##.##
            #.##.....##.##
            #.#####....#.#
            ##..##..##..##
            #.#....#####.#
            ##.##.....##.#
            ##.##.....####
            ###.#..#..#..#
            #A.....###.###
            ##############
            A: len=1 dir=U steps=
            B: len=1 dir=D steps=
            result: playing
        "#]],
    );
    for seed in 0..100 {
        let map = DuelMap::generate(13, 14, 60, &mut Rng::new(seed));
        assert!(map.connected(), "seed {seed}");
    }
}

#[test]
fn starts_bottom_left_and_top_right_at_length_one() {
    // A at (row 11, col 1), B at (row 1, col 12), one cell each.
    check(
        r#"
        game: generated seed=3
        "#,
        expect![[r#"
            after round 0
            ##############
            ##..........B#
            ##.#......#..#
            #..#....#....#
            ##..........##
            #.#.......#..#
            #............#
            #..#.......#.#
            ##..........##
            #....#....#..#
            #..#......#.##
            #A..........##
            ##############
            A: len=1 dir=U steps=
            B: len=1 dir=D steps=
            result: playing
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Moving and growing

#[test]
fn moves_are_simultaneous() {
    check(
        r#"
        ######
        #B...#
        #....#
        #...A#
        ######
        > A=L B=R
        "#,
        expect![[r#"
            round 1: A=L B=R
              A grew to 2
              B grew to 2
            after round 1
            ######
            #bB..#
            #....#
            #..Aa#
            ######
            A: len=2 dir=L steps=L
            B: len=2 dir=R steps=R
            result: playing
        "#]],
    );
}

#[test]
fn four_directions() {
    check(
        r#"
        #########
        #......B#
        #.......#
        #...A...#
        #.......#
        #.......#
        #########
        >> A=ULLDDR B=LLDDRU
        "#,
        expect![[r#"
            round 1: A=U B=L
              A grew to 2
              B grew to 2
            round 2: A=L B=L
              A grew to 3
              B grew to 3
            round 3: A=L B=D
              A grew to 4
              B grew to 4
            round 4: A=D B=D
              A grew to 5
              B grew to 5
            round 5: A=D B=R
              A grew to 6
              B grew to 6
            round 6: A=R B=U
              A grew to 7
              B grew to 7
            after round 6
            #########
            #....bbb#
            #.aaabB.#
            #.a.abb.#
            #.aA....#
            #.......#
            #########
            A: len=7 dir=R steps=ULLDDR
            B: len=7 dir=U steps=LLDDRU
            result: playing
        "#]],
    );
}

#[test]
fn direction_numbers() {
    // The bot's numbers: 0 up, 1 right, 2 down, 3 left.
    check(
        r#"
        ########
        #B.....#
        #......#
        #......#
        #..A...#
        #......#
        ########
        > A=0 B=1
        > A=1 B=2
        > A=2 B=3
        > A=3 B=2
        "#,
        expect![[r#"
            round 1: A=0→U B=1→R
              A grew to 2
              B grew to 2
            round 2: A=1→R B=2→D
              A grew to 3
              B grew to 3
            round 3: A=2→D B=3→L
              A grew to 4
              B grew to 4
            round 4: A=3→L B=2→D
              A grew to 5
              B grew to 5
              A died: own body
              game over: B wins (death)
            after round 4
            ########
            #bb....#
            #bb....#
            #B.aa..#
            #..Aa..#
            #......#
            ########
            A: dead len=5 dir=L steps=URDL
            B: len=5 dir=D steps=RDLD
            result: B wins (death)
            hidden: a at [3,4]
        "#]],
    );
}

#[test]
fn snake_moves_head_first() {
    // Round 11 is not a growth step: the head advances one cell and the
    // last cell of the sequence is dropped.
    check(
        r#"
        ##############
        #............#
        #A...........#
        #............#
        #B...........#
        #............#
        ##############
        >> A=RRRRRRRRRR B=RRRRRRRRRR
        show
        > A=R B=R
        "#,
        expect![[r#"
            round 1: A=R B=R
              A grew to 2
              B grew to 2
            round 2: A=R B=R
              A grew to 3
              B grew to 3
            round 3: A=R B=R
              A grew to 4
              B grew to 4
            round 4: A=R B=R
              A grew to 5
              B grew to 5
            round 5: A=R B=R
              A grew to 6
              B grew to 6
            round 6: A=R B=R
              A grew to 7
              B grew to 7
            round 7: A=R B=R
              A grew to 8
              B grew to 8
            round 8: A=R B=R
              A grew to 9
              B grew to 9
            round 9: A=R B=R
              A grew to 10
              B grew to 10
            round 10: A=R B=R
              A grew to 11
              B grew to 11
            after round 10
            ##############
            #............#
            #aaaaaaaaaaA.#
            #............#
            #bbbbbbbbbbB.#
            #............#
            ##############
            A: len=11 dir=R steps=RRRRRRRRRR
            B: len=11 dir=R steps=RRRRRRRRRR
            result: playing

            round 11: A=R B=R
            after round 11
            ##############
            #............#
            #.aaaaaaaaaaA#
            #............#
            #.bbbbbbbbbbB#
            #............#
            ##############
            A: len=11 dir=R steps=RRRRRRRRRRR
            B: len=11 dir=R steps=RRRRRRRRRRR
            result: playing
        "#]],
    );
}

#[test]
fn grows_every_step_for_ten_steps() {
    // Lengths 2, 3, ..., 11 after steps 1 to 10; step 11 does not grow.
    check(
        r#"
        ###############
        #.............#
        #A............#
        #.............#
        #............B#
        #.............#
        ###############
        >> A=RRRRRRRRRRR B=LLLLLLLLLLL
        "#,
        expect![[r#"
            round 1: A=R B=L
              A grew to 2
              B grew to 2
            round 2: A=R B=L
              A grew to 3
              B grew to 3
            round 3: A=R B=L
              A grew to 4
              B grew to 4
            round 4: A=R B=L
              A grew to 5
              B grew to 5
            round 5: A=R B=L
              A grew to 6
              B grew to 6
            round 6: A=R B=L
              A grew to 7
              B grew to 7
            round 7: A=R B=L
              A grew to 8
              B grew to 8
            round 8: A=R B=L
              A grew to 9
              B grew to 9
            round 9: A=R B=L
              A grew to 10
              B grew to 10
            round 10: A=R B=L
              A grew to 11
              B grew to 11
            round 11: A=R B=L
            after round 11
            ###############
            #.............#
            #.aaaaaaaaaaA.#
            #.............#
            #.Bbbbbbbbbbb.#
            #.............#
            ###############
            A: len=11 dir=R steps=RRRRRRRRRRR
            B: len=11 dir=L steps=LLLLLLLLLLL
            result: playing
        "#]],
    );
}

#[test]
fn then_grows_every_third_step() {
    // After step 10, growth comes on steps 13, 16, 19, ...: lengths 11,
    // 11, 12, 12, 12, 13 after steps 11 to 16.
    check(
        r#"
        ####################
        #..................#
        #A.................#
        #..................#
        #.................B#
        #..................#
        ####################
        >> A=RRRRRRRRRR B=LLLLLLLLLL
        >> A=RRRRRR B=LLLLLL
        "#,
        expect![[r#"
            round 1: A=R B=L
              A grew to 2
              B grew to 2
            round 2: A=R B=L
              A grew to 3
              B grew to 3
            round 3: A=R B=L
              A grew to 4
              B grew to 4
            round 4: A=R B=L
              A grew to 5
              B grew to 5
            round 5: A=R B=L
              A grew to 6
              B grew to 6
            round 6: A=R B=L
              A grew to 7
              B grew to 7
            round 7: A=R B=L
              A grew to 8
              B grew to 8
            round 8: A=R B=L
              A grew to 9
              B grew to 9
            round 9: A=R B=L
              A grew to 10
              B grew to 10
            round 10: A=R B=L
              A grew to 11
              B grew to 11
            round 11: A=R B=L
            round 12: A=R B=L
            round 13: A=R B=L
              A grew to 12
              B grew to 12
            round 14: A=R B=L
            round 15: A=R B=L
            round 16: A=R B=L
              A grew to 13
              B grew to 13
            after round 16
            ####################
            #..................#
            #....aaaaaaaaaaaaA.#
            #..................#
            #.Bbbbbbbbbbbbb....#
            #..................#
            ####################
            A: len=13 dir=R steps=RRRRRRRRRRRRRRRR
            B: len=13 dir=L steps=LLLLLLLLLLLLLLLL
            result: playing
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Deaths and results

#[test]
fn head_outside_dies() {
    // A drawn map without a border: a head that leaves the grid dies.
    check(
        r#"
        ......
        A.....
        ......
        .....B
        > A=L B=D
        "#,
        expect![[r#"
            round 1: A=L B=D
              A grew to 2
              B grew to 2
              A died: outside
              B died: outside
              game over: draw (death)
            after round 1
            ......
            a.....
            ......
            .....b
            A: dead len=2 dir=L steps=L
            B: dead len=2 dir=D steps=D
            result: draw (death)
            hidden: A at [-1,1], B at [5,4]
        "#]],
    );
}

#[test]
fn head_on_wall_dies() {
    check(
        r#"
        ######
        #B...#
        #.#..#
        #A...#
        ######
        > A=R B=R
        > A=U B=R
        "#,
        expect![[r#"
            round 1: A=R B=R
              A grew to 2
              B grew to 2
            round 2: A=U B=R
              A grew to 3
              B grew to 3
              A died: wall
              game over: B wins (death)
            after round 2
            ######
            #bbB.#
            #.A..#
            #aa..#
            ######
            A: dead len=3 dir=U steps=RU
            B: len=3 dir=R steps=RR
            result: B wins (death)
        "#]],
    );
}

#[test]
fn head_on_own_body_dies() {
    // Right, down, left, up: the head comes back to the start cell, which
    // the growing body still holds.
    check(
        r#"
        #######
        #....B#
        #.....#
        #.A...#
        #.....#
        #######
        >> A=RDLU B=LLLL
        "#,
        expect![[r#"
            round 1: A=R B=L
              A grew to 2
              B grew to 2
            round 2: A=D B=L
              A grew to 3
              B grew to 3
            round 3: A=L B=L
              A grew to 4
              B grew to 4
            round 4: A=U B=L
              A grew to 5
              B grew to 5
              A died: own body
              game over: B wins (death)
            after round 4
            #######
            #Bbbbb#
            #.....#
            #.Aa..#
            #.aa..#
            #######
            A: dead len=5 dir=U steps=RDLU
            B: len=5 dir=L steps=LLLL
            result: B wins (death)
            hidden: a at [2,3]
        "#]],
    );
}

#[test]
fn head_on_opponent_body_dies() {
    check(
        r#"
        #######
        #.....#
        #..B..#
        #.....#
        #...A.#
        #######
        >> A=UU B=RR
        "#,
        expect![[r#"
            round 1: A=U B=R
              A grew to 2
              B grew to 2
            round 2: A=U B=R
              A grew to 3
              B grew to 3
              A died: opponent
              game over: B wins (death)
            after round 2
            #######
            #.....#
            #..bbB#
            #...a.#
            #...a.#
            #######
            A: dead len=3 dir=U steps=UU
            B: len=3 dir=R steps=RR
            result: B wins (death)
            hidden: A at [4,2]
        "#]],
    );
}

#[test]
fn invalid_move_loses() {
    // The runner reports a bad answer, a timeout or a crash as a forfeit:
    // that side loses at once and nobody moves.
    check(
        r#"
        ######
        #B...#
        #....#
        #A...#
        ######
        > A=F B=R
        "#,
        expect![[r#"
            round 1: A=F B=R
              A died: forfeit
              game over: B wins (forfeit)
            after round 1
            ######
            #B...#
            #....#
            #A...#
            ######
            A: dead len=1 dir=U steps=
            B: len=1 dir=D steps=
            result: B wins (forfeit)
        "#]],
    );
}

#[test]
fn both_forfeit_draw() {
    check(
        r#"
        ######
        #B...#
        #....#
        #A...#
        ######
        > A=F B=F
        "#,
        expect![[r#"
            round 1: A=F B=F
              A died: forfeit
              B died: forfeit
              game over: draw (forfeit)
            after round 1
            ######
            #B...#
            #....#
            #A...#
            ######
            A: dead len=1 dir=U steps=
            B: dead len=1 dir=D steps=
            result: draw (forfeit)
        "#]],
    );
}

#[test]
fn game_ends_at_first_death() {
    // After the end, rounds change nothing.
    check(
        r#"
        ######
        #B...#
        #....#
        #A...#
        ######
        > A=L B=R
        > A=U B=R
        "#,
        expect![[r#"
            round 1: A=L B=R
              A grew to 2
              B grew to 2
              A died: wall
              game over: B wins (death)
            round 1: A=U B=R
            after round 1
            ######
            #bB..#
            #....#
            Aa...#
            ######
            A: dead len=2 dir=L steps=L
            B: len=2 dir=R steps=R
            result: B wins (death)
        "#]],
    );
}

#[test]
fn first_to_die_loses() {
    check(
        r#"
        #######
        #B....#
        #.....#
        #.....#
        #A....#
        #######
        >> A=UUU B=RRR
        "#,
        expect![[r#"
            round 1: A=U B=R
              A grew to 2
              B grew to 2
            round 2: A=U B=R
              A grew to 3
              B grew to 3
            round 3: A=U B=R
              A grew to 4
              B grew to 4
              A died: opponent
              game over: B wins (death)
            after round 3
            #######
            #bbbB.#
            #a....#
            #a....#
            #a....#
            #######
            A: dead len=4 dir=U steps=UUU
            B: len=4 dir=R steps=RRR
            result: B wins (death)
            hidden: A at [1,1]
        "#]],
    );
}

#[test]
fn simultaneous_deaths_draw() {
    check(
        r#"
        ######
        #B...#
        #....#
        #A...#
        ######
        > A=D B=U
        "#,
        expect![[r#"
            round 1: A=D B=U
              A grew to 2
              B grew to 2
              A died: wall
              B died: wall
              game over: draw (death)
            after round 1
            #B####
            #b...#
            #....#
            #a...#
            #A####
            A: dead len=2 dir=D steps=D
            B: dead len=2 dir=U steps=U
            result: draw (death)
        "#]],
    );
}

#[test]
fn head_on_same_cell_draws() {
    // Upstream's code lets two heads share a cell; the rule of KingOfBots'
    // description (a head on the opponent's snake dies) kills both.
    check(
        r#"
        #######
        #.....#
        #A...B#
        #.....#
        #######
        >> A=RR B=LL
        "#,
        expect![[r#"
            round 1: A=R B=L
              A grew to 2
              B grew to 2
            round 2: A=R B=L
              A grew to 3
              B grew to 3
              A died: head-on
              B died: head-on
              game over: draw (death)
            after round 2
            #######
            #.....#
            #aaBbb#
            #.....#
            #######
            A: dead len=3 dir=R steps=RR
            B: dead len=3 dir=L steps=LL
            result: draw (death)
            hidden: A at [3,2]
        "#]],
    );
}

#[test]
fn head_swap_draws() {
    // Each head enters the cell the other's head left, which is now the
    // other's neck.
    check(
        r#"
        ######
        #....#
        #.AB.#
        #....#
        ######
        > A=R B=L
        "#,
        expect![[r#"
            round 1: A=R B=L
              A grew to 2
              B grew to 2
              A died: opponent
              B died: opponent
              game over: draw (death)
            after round 1
            ######
            #....#
            #.Bb.#
            #....#
            ######
            A: dead len=2 dir=R steps=R
            B: dead len=2 dir=L steps=L
            result: draw (death)
            hidden: A at [3,2], a at [2,2]
        "#]],
    );
}

#[test]
fn entering_a_vacated_tail_cell_is_allowed() {
    // With growth only on the first two steps, step 3 drops B's tail and A
    // enters that cell in the same step.
    check(
        r#"
        game: grow_steps=2 grow_every=1000
        ##########
        #........#
        #..AB....#
        #........#
        ##########
        >> A=DRU B=RRR
        "#,
        expect![[r#"
            round 1: A=D B=R
              A grew to 2
              B grew to 2
            round 2: A=R B=R
              A grew to 3
              B grew to 3
            round 3: A=U B=R
            after round 3
            ##########
            #........#
            #...AbbB.#
            #..aa....#
            ##########
            A: len=3 dir=U steps=DRU
            B: len=3 dir=R steps=RRR
            result: playing
        "#]],
    );
}

#[test]
fn growing_tail_blocks() {
    // The same moves with the usual growth: B's tail stays on step 3, and A
    // dies entering it.
    check(
        r#"
        ##########
        #........#
        #..AB....#
        #........#
        ##########
        >> A=DRU B=RRR
        "#,
        expect![[r#"
            round 1: A=D B=R
              A grew to 2
              B grew to 2
            round 2: A=R B=R
              A grew to 3
              B grew to 3
            round 3: A=U B=R
              A grew to 4
              B grew to 4
              A died: opponent
              game over: B wins (death)
            after round 3
            ##########
            #........#
            #..abbbB.#
            #..aa....#
            ##########
            A: dead len=4 dir=U steps=DRU
            B: len=4 dir=R steps=RRR
            result: B wins (death)
            hidden: A at [4,2]
        "#]],
    );
}

#[test]
fn round_limit_draws() {
    check(
        r#"
        game: rounds_max=3
        ########
        #B.....#
        #......#
        #A.....#
        ########
        >> A=RRRR B=RRRR
        "#,
        expect![[r#"
            round 1: A=R B=R
              A grew to 2
              B grew to 2
            round 2: A=R B=R
              A grew to 3
              B grew to 3
            round 3: A=R B=R
              A grew to 4
              B grew to 4
              game over: draw (round limit)
            round 3: A=R B=R
            after round 3
            ########
            #bbbB..#
            #......#
            #aaaA..#
            ########
            A: len=4 dir=R steps=RRR
            B: len=4 dir=R steps=RRR
            result: draw (round limit)
        "#]],
    );
}

#[test]
fn no_decision_keeps_direction() {
    // A starts facing up and B facing down; no decision goes on that way.
    check(
        r#"
        #######
        #...B.#
        #.....#
        #.....#
        #.A...#
        #######
        > A=- B=-
        > A=R B=L
        > A=- B=-
        "#,
        expect![[r#"
            round 1: A=- B=-
              A grew to 2
              B grew to 2
            round 2: A=R B=L
              A grew to 3
              B grew to 3
            round 3: A=- B=-
              A grew to 4
              B grew to 4
            after round 3
            #######
            #...b.#
            #.Bbb.#
            #.aaA.#
            #.a...#
            #######
            A: len=4 dir=R steps=URR
            B: len=4 dir=L steps=DLL
            result: playing
        "#]],
    );
}

// ---------------------------------------------------------------------------

/// The one `check` helper of the KingOfBots rule tests, and its notation.
///
/// # Input
///
/// ```text
/// game: rounds_max=5
/// ######
/// #B...#
/// #....#
/// #A...#
/// ######
/// > A=U B=D
/// > A=0 B=2 x3
/// >> A=UUR B=DDL
/// show
/// ```
///
/// * `game:` (optional, first) holds settings for `Settings::from_pairs`,
///   `seed=N` (default 1) and the flag `generated`: then the map is
///   upstream's generator's, from the seed, and no board is drawn.
/// * The board: `#` wall, `.` grass, `A` and `B` the starts.
/// * `>` plays one round: `A=` and `B=` take the compact action (`U` `R`
///   `D` `L` a move, `-` none, `F` forfeit) or the bot's number `0`-`3`;
///   `xN` plays it N times. `>>` plays as many rounds as its strings have
///   letters, one letter per round.
/// * `show` prints the position at that point.
///
/// # Output
///
/// Each round prints `round N:` and its moves (a number with the action it
/// means), then one line per event, indented. Then the position: the map,
/// the snakes as letters (head upper-case), one line per side with its
/// steps, and the result. Cells drawn over, or outside the map, are listed
/// on a `hidden:` line.
mod check {
    use expect_test::Expect;
    use snakepit_engine::duel::{Action, Death, Duel, DuelMap, EndReason, Event, Outcome, Settings, action_from_number};
    use snakepit_engine::{Game, Pos};
    use std::fmt::Write;

    /// Runs a case written in the notation above and compares its report.
    pub fn check(input: &str, expect: Expect) {
        let lines: Vec<String> = dedent(input);
        let mut lines = lines.iter().map(String::as_str).peekable();
        let (mut pairs, mut seed, mut generated) = (Vec::new(), 1, false);
        if let Some(game) = lines.peek().and_then(|l| l.strip_prefix("game:")) {
            for word in game.split_whitespace() {
                match word.split_once('=') {
                    Some(("seed", v)) => seed = v.parse().expect("seed=N"),
                    Some((k, v)) => pairs.push((k, v)),
                    None if word == "generated" => generated = true,
                    None => panic!("game: unknown flag {word:?}"),
                }
            }
            lines.next();
        }
        let settings = Settings::from_pairs(pairs).unwrap_or_else(|e| panic!("game: {e}"));
        let mut board = String::new();
        while let Some(line) = lines.peek().filter(|l| !l.starts_with('>') && **l != "show") {
            board.push_str(line);
            board.push('\n');
            lines.next();
        }
        let mut game = if generated {
            Duel::new(settings, seed)
        } else {
            let map = DuelMap::parse(&board).unwrap_or_else(|e| panic!("map: {e}"));
            Duel::with_map(settings, map, seed)
        };
        let mut out = String::new();
        for line in lines {
            if line == "show" {
                out.push_str(&position(&game));
                out.push('\n');
            } else if let Some(rest) = line.strip_prefix(">>") {
                let words: Vec<(&str, &str)> =
                    rest.split_whitespace().map(|w| w.split_once('=').expect("A=...")).collect();
                let rounds = words.first().map_or(0, |w| w.1.len());
                for r in 0..rounds {
                    let moves: Vec<(&str, String)> = words.iter().map(|(who, s)| (*who, s[r..=r].to_string())).collect();
                    play(&mut game, &moves, &mut out);
                }
            } else if let Some(rest) = line.strip_prefix('>') {
                let mut times = 1;
                let mut moves = Vec::new();
                for word in rest.split_whitespace() {
                    match word.strip_prefix('x') {
                        Some(n) => times = n.parse().expect("xN"),
                        None => {
                            let (who, what) = word.split_once('=').expect("A=...");
                            moves.push((who, what.to_string()));
                        }
                    }
                }
                for _ in 0..times {
                    play(&mut game, &moves, &mut out);
                }
            } else if !line.trim().is_empty() {
                panic!("cannot read line {line:?}");
            }
        }
        out.push_str(&position(&game));
        expect.assert_eq(&out);
    }

    fn dedent(text: &str) -> Vec<String> {
        let lines: Vec<&str> = text.lines().collect();
        let indent =
            lines.iter().filter(|l| !l.trim().is_empty()).map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
        let out: Vec<String> = lines.iter().map(|l| l.get(indent..).unwrap_or("").to_string()).collect();
        let start = out.iter().position(|l| !l.trim().is_empty()).unwrap_or(out.len());
        let end = out.iter().rposition(|l| !l.trim().is_empty()).map_or(start, |i| i + 1);
        out[start..end].to_vec()
    }

    fn play(game: &mut Duel, moves: &[(&str, String)], out: &mut String) {
        let mut actions = [Action::Keep; 2];
        let mut shown = Vec::new();
        for (who, what) in moves {
            let seat = match *who {
                "A" => 0,
                "B" => 1,
                _ => panic!("no side {who:?}"),
            };
            let action = match what.parse::<u8>() {
                Ok(n) => action_from_number(n).unwrap_or_else(|| panic!("no direction number {n}")),
                Err(_) => Action::from_text(what).unwrap_or_else(|e| panic!("{e}")),
            };
            actions[seat] = action;
            let read = if what.parse::<u8>().is_ok() { format!("→{}", action.to_text()) } else { String::new() };
            shown.push(format!("{who}={what}{read}"));
        }
        let events = game.step(&actions);
        writeln!(out, "round {}: {}", game.round(), shown.join(" ")).ok();
        for e in &events {
            writeln!(out, "  {}", event_text(e)).ok();
        }
        if let Err(e) = game.check_invariants() {
            panic!("invariant broken: {e}\n{out}");
        }
    }

    fn letter(seat: usize) -> char {
        ['A', 'B'][seat]
    }

    fn result_text(end: Option<(Outcome, EndReason)>) -> String {
        let Some((outcome, reason)) = end else { return "playing".to_string() };
        let who = match outcome {
            Outcome::Won(s) => format!("{} wins", letter(s)),
            Outcome::Draw => "draw".to_string(),
        };
        let why = match reason {
            EndReason::Death => "death",
            EndReason::Forfeit => "forfeit",
            EndReason::RoundLimit => "round limit",
        };
        format!("{who} ({why})")
    }

    fn event_text(e: &Event) -> String {
        match e {
            Event::Grew { snake, len } => format!("{} grew to {len}", letter(*snake)),
            Event::Died { snake, cause } => {
                let cause = match cause {
                    Death::Outside => "outside",
                    Death::Wall => "wall",
                    Death::OwnBody => "own body",
                    Death::Opponent => "opponent",
                    Death::HeadOn => "head-on",
                    Death::Forfeit => "forfeit",
                };
                format!("{} died: {cause}", letter(*snake))
            }
            Event::Ended { outcome, reason } => format!("game over: {}", result_text(Some((*outcome, *reason)))),
        }
    }

    fn position(game: &Duel) -> String {
        let map = game.map();
        let mut grid: Vec<Vec<char>> = (0..map.rows())
            .map(|r| (0..map.cols()).map(|c| if map.is_wall(Pos::new(c as i32, r as i32)) { '#' } else { '.' }).collect())
            .collect();
        let mut what: Vec<Vec<Option<String>>> = vec![vec![None; map.cols()]; map.rows()];
        let mut hidden = Vec::new();
        for (seat, s) in game.snakes().iter().enumerate() {
            for (k, &c) in s.body.iter().enumerate().rev() {
                let g = if k == 0 { letter(seat) } else { letter(seat).to_ascii_lowercase() };
                if !map.contains(c) {
                    hidden.push(format!("{g} at {c}"));
                    continue;
                }
                let (x, y) = (c.x as usize, c.y as usize);
                if let Some(old) = what[y][x].replace(g.to_string()) {
                    hidden.push(format!("{old} at {c}"));
                }
                grid[y][x] = g;
            }
        }
        let mut out = format!("after round {}\n", game.round());
        for row in grid {
            out.extend(row);
            out.push('\n');
        }
        for (seat, s) in game.snakes().iter().enumerate() {
            let steps: String = s.steps.iter().map(|d| d.letter()).collect();
            let dead = if s.alive { "" } else { " dead" };
            writeln!(out, "{}:{dead} len={} dir={} steps={steps}", letter(seat), s.len(), s.dir.letter()).ok();
        }
        writeln!(out, "result: {}", result_text(game.outcome())).ok();
        if !hidden.is_empty() {
            writeln!(out, "hidden: {}", hidden.join(", ")).ok();
        }
        out
    }
}
