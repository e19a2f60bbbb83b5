//! One test per Battlesnake rule, from the official rules' documented
//! behaviour; the names are the ones in the table of
//! `src/battlesnake/mod.rs`.
//!
//! Every case goes through [`check`] (or [`check_opening`] for start
//! positions); the notation is documented at the helper, at the end of this
//! file. The expectations were read against the official rules: when
//! `UPDATE_EXPECT=1` changes one, read the new text against the rule before
//! keeping it.

mod notation;

use expect_test::{Expect, expect};
use snakepit_engine::battlesnake::{Action, Battlesnake, Cause, Event, Position, Settings, SnakeSetup};
use snakepit_engine::{Dir, Game, Pos};
use std::fmt::Write;

use notation::letter_of;

/// Seats the notation's letters name: `A` to `P`.
const SEATS: usize = 16;

fn seat_of(letter: char) -> Option<usize> {
    notation::seat_of(letter, SEATS)
}

fn is_snake_line(line: &str) -> bool {
    notation::is_seat_line(line, SEATS)
}

/// The table of rules in `src/battlesnake/mod.rs` and the tests of this
/// file name each other exactly.
#[test]
fn rule_table_matches_tests() {
    let table = notation::table_tests(include_str!("../src/battlesnake/mod.rs"));
    let tests = notation::test_fns(include_str!("battlesnake_rules.rs"));
    notation::assert_table_matches("src/battlesnake/mod.rs", &table, &tests, 33);
}

// ---------------------------------------------------------------------------
// Movement and the default move

#[test]
fn moves_one_cell() {
    check(
        r#"
        .....
        .aA..
        .....
        ..B..
        ..b..
        > A=R B=L
        "#,
        expect![[r#"
            turn 1: A=R B=L
            turn 1
            .....
            ..aA.
            .....
            .Bb..
            .....
            A: len=2 health=99 last=R
            B: len=2 health=99 last=L
        "#]],
    );
}

#[test]
fn no_move_repeats_last_move() {
    // Official `getDefaultMove`: the way from the neck to the head.
    check(
        r#"
        .....
        ..A..
        ..a..
        ..a..
        .....
        > A=-
        > A=L
        > A=-
        "#,
        expect![[r#"
            turn 1: A=-
              A gave no move: U
            turn 2: A=L
            turn 3: A=-
              A gave no move: L
            turn 3
            Aaa..
            .....
            .....
            .....
            .....
            A: len=3 health=97 last=L
        "#]],
    );
}

#[test]
fn first_turn_default_is_up() {
    // All three segments start on one cell, so there is no neck to read.
    check(
        r#"
        ...
        ...
        .A.
        A: len=3
        > A=-
        "#,
        expect![[r#"
            turn 1: A=-
              A gave no move: U
            turn 1
            ...
            .A.
            .a.
            A: len=3 health=99 last=U
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Health and food

#[test]
fn health_drops_each_turn() {
    check(
        r#"
        aA....
        A: health=50
        > A=R x3
        "#,
        expect![[r#"
            turn 1: A=R
            turn 2: A=R
            turn 3: A=R
            turn 3
            ...aA.
            A: len=2 health=47 last=R
        "#]],
    );
}

#[test]
fn out_of_health_is_eliminated() {
    check(
        r#"
        aA....
        bB....
        A: health=1
        > A=R B=R
        "#,
        expect![[r#"
            turn 1: A=R B=R
              A out: out-of-health
              game over, winner B
            turn 1
            ......
            .bB...
            A: out on turn 1 (out-of-health) len=2 health=0 head=[2,0]
            B: len=2 health=99 last=R
        "#]],
    );
}

#[test]
fn food_restores_health_and_grows() {
    // The new segment stacks on the tail, which therefore stays put for one
    // turn.
    check(
        r#"
        aaA*..
        A: health=40
        > A=R
        show
        > A=R
        "#,
        expect![[r#"
            turn 1: A=R
              A ate at [3,0]
            turn 1
            .aaA..
            A: len=4 health=100 last=R
            turn 2: A=R
            turn 2
            .aaaA.
            A: len=4 health=99 last=R
        "#]],
    );
}

#[test]
fn food_saves_a_starving_snake() {
    // Starvation takes the last health point, feeding restores it, and only
    // then does elimination look at health.
    check(
        r#"
        aA*...
        A: health=1
        > A=R
        "#,
        expect![[r#"
            turn 1: A=R
              A ate at [2,0]
            turn 1
            .aA...
            A: len=3 health=100 last=R
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Hazards

#[test]
fn hazard_costs_damage() {
    // 1 for the turn and 14 for the hazard.
    check(
        r#"
        aA~~..
        A: health=80
        > A=R
        > A=R
        "#,
        expect![[r#"
            turn 1: A=R
            turn 2: A=R
            turn 2
            ..aA..
            A: len=2 health=50 last=R head in hazard
        "#]],
    );
}

#[test]
fn hazard_eliminates() {
    check(
        r#"
        aA~...
        bB....
        A: health=15
        > A=R B=R
        "#,
        expect![[r#"
            turn 1: A=R B=R
              A out: hazard
              game over, winner B
            turn 1
            ..~...
            .bB...
            A: out on turn 1 (hazard) len=2 health=0 head=[2,0]
            B: len=2 health=99 last=R
        "#]],
    );
}

#[test]
fn food_in_hazard_cancels_damage() {
    check(
        r#"
        aA+...
        A: health=10
        > A=R
        "#,
        expect![[r#"
            turn 1: A=R
              A ate at [2,0]
            turn 1
            .aA...
            A: len=3 health=100 last=R head in hazard
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Eliminations

#[test]
fn out_of_bounds_is_eliminated() {
    check(
        r#"
        ..aA
        bB..
        > A=R B=R
        "#,
        expect![[r#"
            turn 1: A=R B=R
              A out: wall-collision
              game over, winner B
            turn 1
            ....
            .bB.
            A: out on turn 1 (wall-collision) len=2 health=99 head=[4,0]
            B: len=2 health=99 last=R
        "#]],
    );
}

#[test]
fn self_collision_is_eliminated() {
    check(
        r#"
        .....
        .aaa.
        .aA..
        bB...
        A: dir=R
        > A=U B=R
        "#,
        expect![[r#"
            turn 1: A=U B=R
              A out: snake-self-collision
              game over, winner B
            turn 1
            .....
            .....
            .....
            .bB..
            A: out on turn 1 (snake-self-collision) len=5 health=99 head=[2,1]
            B: len=2 health=99 last=R
        "#]],
    );
}

#[test]
fn body_collision_is_eliminated() {
    check(
        r#"
        .a...
        .A...
        bbbB.
        .....
        > A=D B=R
        "#,
        expect![[r#"
            turn 1: A=D B=R
              A out: snake-collision with B
              game over, winner B
            turn 1
            .....
            .....
            .bbbB
            .....
            A: out on turn 1 (snake-collision with B) len=2 health=99 head=[1,2]
            B: len=4 health=99 last=R
        "#]],
    );
}

#[test]
fn head_to_head_shorter_is_eliminated() {
    check(
        r#"
        aaA.Bb
        > A=R B=L
        "#,
        expect![[r#"
            turn 1: A=R B=L
              B out: head-collision with A
              game over, winner A
            turn 1
            .aaA..
            A: len=3 health=99 last=R
            B: out on turn 1 (head-collision with A) len=2 health=99 head=[3,0]
        "#]],
    );
}

#[test]
fn head_to_head_equal_both_eliminated() {
    check(
        r#"
        aA.Bb
        c....
        C....
        > A=R B=L C=D
        "#,
        expect![[r#"
            turn 1: A=R B=L C=D
              C out: wall-collision
              A out: head-collision with B
              B out: head-collision with A
              game over, no winner
            turn 1
            .....
            .....
            .....
            A: out on turn 1 (head-collision with B) len=2 health=99 head=[2,0]
            B: out on turn 1 (head-collision with A) len=2 health=99 head=[2,0]
            C: out on turn 1 (wall-collision) len=2 health=99 head=[0,3]
        "#]],
    );
}

#[test]
fn three_heads_credit_by_place_not_seat() {
    // A (2) meets B and C (3 each) on one cell: all are out, and A is
    // credited to the longer snakes' first by where they lie (C, whose neck
    // comes first from the top), not to the lower seat.
    // `three_heads_credit_whatever_the_seats` swaps B and C.
    check(
        r#"
        ..cc...
        ...C...
        .aA.Bbb
        > A=R B=L C=D
        "#,
        expect![[r#"
            turn 1: A=R B=L C=D
              A out: head-collision with C
              B out: head-collision with C
              C out: head-collision with B
              game over, no winner
            turn 1
            .......
            .......
            .......
            A: out on turn 1 (head-collision with C) len=2 health=99 head=[3,2]
            B: out on turn 1 (head-collision with C) len=3 health=99 head=[3,2]
            C: out on turn 1 (head-collision with B) len=3 health=99 head=[3,2]
        "#]],
    );
}

#[test]
fn three_heads_credit_whatever_the_seats() {
    // `three_heads_credit_by_place_not_seat` with B and C swapped: the same
    // outcome, relabelled.
    check(
        r#"
        ..bb...
        ...B...
        .aA.Ccc
        > A=R B=D C=L
        "#,
        expect![[r#"
            turn 1: A=R B=D C=L
              A out: head-collision with B
              B out: head-collision with C
              C out: head-collision with B
              game over, no winner
            turn 1
            .......
            .......
            .......
            A: out on turn 1 (head-collision with B) len=2 health=99 head=[3,2]
            B: out on turn 1 (head-collision with C) len=3 health=99 head=[3,2]
            C: out on turn 1 (head-collision with B) len=3 health=99 head=[3,2]
        "#]],
    );
}

#[test]
fn two_heads_share_a_food() {
    // Both eat (and grow) before elimination compares their lengths.
    check(
        r#"
        aaA*Bbb
        .......
        cC.....
        B: health=20
        > A=R B=L C=R
        "#,
        expect![[r#"
            turn 1: A=R B=L C=R
              A ate at [3,0]
              B ate at [3,0]
              A out: head-collision with B
              B out: head-collision with A
              game over, winner C
            turn 1
            .......
            .......
            .cC....
            A: out on turn 1 (head-collision with B) len=4 health=100 head=[3,0]
            B: out on turn 1 (head-collision with A) len=4 health=100 head=[3,0]
            C: len=2 health=99 last=R
        "#]],
    );
}

#[test]
fn following_a_tail_is_safe() {
    // A moves into the cell that B's tail leaves in the same turn.
    check(
        r#"
        aAbbB.
        > A=R B=R
        "#,
        expect![[r#"
            turn 1: A=R B=R
            turn 1
            .aAbbB
            A: len=2 health=99 last=R
            B: len=3 health=99 last=R
        "#]],
    );
}

#[test]
fn tail_after_eating_is_solid() {
    // B ate last turn, so its tail is stacked and one segment stays where
    // it is.
    check(
        r#"
        aAbbB.
        B: len=4
        > A=R B=R
        "#,
        expect![[r#"
            turn 1: A=R B=R
              A out: snake-collision with B
              game over, winner B
            turn 1
            ..bbbB
            A: out on turn 1 (snake-collision with B) len=2 health=99 head=[2,0]
            B: len=4 health=99 last=R
        "#]],
    );
}

#[test]
fn collisions_are_simultaneous() {
    // A runs into B's body while B loses head to head with C: both are out,
    // although B's body is gone by the time the eliminations are applied.
    check(
        r#"
        .......
        ..a....
        ..A....
        .bbB.Cc
        C: len=4
        > A=D B=R C=L
        "#,
        expect![[r#"
            turn 1: A=D B=R C=L
              A out: snake-collision with B
              B out: head-collision with C
              game over, winner C
            turn 1
            .......
            .......
            .......
            ....Ccc
            A: out on turn 1 (snake-collision with B) len=2 health=99 head=[2,3]
            B: out on turn 1 (head-collision with C) len=3 health=99 head=[4,3]
            C: len=4 health=99 last=L
        "#]],
    );
}

#[test]
fn eliminated_first_are_no_obstacle() {
    // B starves in this turn, so A does not collide with its body.
    check(
        r#"
        .a....
        .A....
        bbbbB.
        ......
        cC....
        B: health=1
        > A=D B=R C=R
        "#,
        expect![[r#"
            turn 1: A=D B=R C=R
              B out: out-of-health
            turn 1
            ......
            .a....
            .A....
            ......
            .cC...
            A: len=2 health=99 last=D
            B: out on turn 1 (out-of-health) len=5 health=0 head=[5,2]
            C: len=2 health=99 last=R
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Food spawning

#[test]
fn minimum_food_is_restored() {
    check(
        r#"
        game: minimumFood=2 seed=3
        aA*....
        .......
        .......
        > A=R
        "#,
        expect![[r#"
            turn 1: A=R
              A ate at [2,0]
              food at [0,2]
              food at [4,0]
            turn 1
            .aA.*..
            .......
            *......
            A: len=3 health=100 last=R
        "#]],
    );
}

#[test]
fn food_spawn_chance() {
    // At 100 % one more food comes every turn, on top of the minimum.
    check(
        r#"
        game: minimumFood=1 foodSpawnChance=100 seed=5
        *......
        .......
        ....aA.
        > A=U x2
        "#,
        expect![[r#"
            turn 1: A=U
              food at [1,2]
            turn 2: A=U
              food at [5,2]
            turn 2
            *....A.
            .....a.
            .*...*.
            A: len=2 health=98 last=U
        "#]],
    );
}

#[test]
fn food_never_spawns_next_to_a_head() {
    // After the move three cells are free and two of them touch the head,
    // so the food can only go to the third, whatever the seed.
    check(
        r#"
        game: minimumFood=1
        a..
        aA.
        > A=U
        "#,
        expect![[r#"
            turn 1: A=U
              food at [2,1]
            turn 1
            .A.
            aa*
            A: len=3 health=99 last=U
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Game over

#[test]
fn standard_ends_with_one_snake_left() {
    check(
        r#"
        aA...
        .....
        Bb...
        > A=R B=L
        "#,
        expect![[r#"
            turn 1: A=R B=L
              B out: wall-collision
              game over, winner A
            turn 1
            .aA..
            .....
            .....
            A: len=2 health=99 last=R
            B: out on turn 1 (wall-collision) len=2 health=99 head=[-1,2]
        "#]],
    );
}

#[test]
fn solo_ends_when_no_snake_is_left() {
    check(
        r#"
        game: name=solo
        ..aA
        Bb..
        > A=U B=U
        > B=D
        > B=L
        "#,
        expect![[r#"
            turn 1: A=U B=U
              A out: wall-collision
            turn 2: B=D
            turn 3: B=L
              B out: wall-collision
              game over, no winner
            turn 3
            ....
            ....
            A: out on turn 1 (wall-collision) len=2 health=99 head=[3,-1]
            B: out on turn 3 (wall-collision) len=2 health=97 head=[-1,1]
        "#]],
    );
}

#[test]
fn one_snake_standard_plays_solo() {
    check(
        r#"
        aA.
        ...
        > A=R
        > A=R
        "#,
        expect![[r#"
            turn 1: A=R
            turn 2: A=R
              A out: wall-collision
              game over, no winner
            turn 2
            ...
            ...
            A: out on turn 2 (wall-collision) len=2 health=98 head=[3,0]
        "#]],
    );
}

#[test]
fn finished_game_stands_still() {
    // The game-over stage stops the turn: nobody moves, starves or eats.
    check(
        r#"
        game: minimumFood=3
        aA..
        Bb..
        > A=R B=L
        > A=R x2
        "#,
        expect![[r#"
            turn 1: A=R B=L
              B out: wall-collision
              food at [0,1]
              food at [0,0]
              food at [3,1]
              game over, winner A
            turn 2: A=R
            turn 3: A=R
            turn 3
            *aA.
            *..*
            A: len=2 health=99 last=R
            B: out on turn 1 (wall-collision) len=2 health=99 head=[-1,1]
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Royale

#[test]
fn royale_shrinks_every_n_turns() {
    check(
        r#"
        game: name=royale shrinkEveryNTurns=2 seed=4
        .....
        .....
        ..A..
        .....
        .....
        A: len=3 health=60
        > A=U
        > A=R
        > A=D
        > A=L
        show
        > A=U
        > A=R
        > A=D
        > A=L
        "#,
        expect![[r#"
            turn 1: A=U
            turn 2: A=R
              hazards move in from the bottom edge
            turn 3: A=D
            turn 4: A=L
              hazards move in from the left edge
            turn 4
            ~....
            ~..a.
            ~.Aa.
            ~....
            ~~~~~
            A: len=3 health=56 last=L
            turn 5: A=U
            turn 6: A=R
              hazards move in from the top edge
            turn 7: A=D
            turn 8: A=L
              hazards move in from the top edge
            turn 8
            ~~~~~
            ~~~a~
            ~.Aa.
            ~....
            ~~~~~
            A: len=3 health=52 last=L
        "#]],
    );
}

#[test]
fn royale_new_hazard_spares_its_first_turn() {
    // The zone reaches A's head at the end of turn 2, but damage is only
    // taken by a head that moves (or stays) in a hazard in a later turn.
    check(
        r#"
        game: name=royale shrinkEveryNTurns=2 seed=4
        .......
        .......
        .......
        .......
        aA.....
        A: health=50
        > A=R x2
        show
        > A=R
        "#,
        expect![[r#"
            turn 1: A=R
            turn 2: A=R
              hazards move in from the bottom edge
            turn 2
            .......
            .......
            .......
            .......
            ~~aA~~~
            A: len=2 health=48 last=R head in hazard
            turn 3: A=R
            turn 3
            .......
            .......
            .......
            .......
            ~~~aA~~
            A: len=2 health=33 last=R head in hazard
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Wrapped

#[test]
fn wrapped_crosses_the_edge() {
    check(
        r#"
        game: name=wrapped
        ...aA
        ...B.
        ...b.
        > A=R B=U x2
        "#,
        expect![[r#"
            turn 1: A=R B=U
            turn 2: A=R B=U
            turn 2
            aA.b.
            .....
            ...B.
            A: len=2 health=98 last=R
            B: len=2 health=98 last=U
        "#]],
    );
}

#[test]
fn wrapped_default_move_across_the_edge() {
    // The neck is on the far side of the board; the default move continues
    // the same way.
    check(
        r#"
        game: name=wrapped
        A...a
        .....
        > A=-
        "#,
        expect![[r#"
            turn 1: A=-
              A gave no move: R
            turn 1
            aA...
            .....
            A: len=2 health=99 last=R
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Constrictor

#[test]
fn constrictor_always_grows() {
    check(
        r#"
        game: name=constrictor
        .....
        .....
        ..A..
        A: len=3
        > A=U x2
        > A=R
        "#,
        expect![[r#"
            turn 1: A=U
            turn 2: A=U
            turn 3: A=R
            turn 3
            ..aA.
            ..a..
            ..a..
            A: len=5 health=100 last=R
        "#]],
    );
}

#[test]
fn constrictor_has_no_food() {
    // Even with food settings, nothing spawns (a drawn position may not
    // hold food at all).
    check(
        r#"
        game: name=constrictor minimumFood=3 foodSpawnChance=100
        aA...
        > A=R x2
        "#,
        expect![[r#"
            turn 1: A=R
            turn 2: A=R
            turn 2
            .aaA.
            A: len=4 health=100 last=R
        "#]],
    );
}

#[test]
fn wrapped_constrictor_grows_across_the_edge() {
    check(
        r#"
        game: name=wrapped_constrictor
        ..aA
        ....
        > A=R x2
        "#,
        expect![[r#"
            turn 1: A=R
            turn 2: A=R
            turn 2
            aA.a
            ....
            A: len=4 health=100 last=R
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Openings

#[test]
fn opening_7x7() {
    check_opening(
        7,
        4,
        1,
        expect![[r#"
            turn 0
            .......
            .D...B.
            *.....*
            ...*...
            .......
            .C...A.
            ..*.*..
            A: len=3 health=100 last=U
            B: len=3 health=100 last=U
            C: len=3 health=100 last=U
            D: len=3 health=100 last=U
        "#]],
    );
}

#[test]
fn opening_11x11() {
    check_opening(
        11,
        4,
        1,
        expect![[r#"
            turn 0
            ...........
            .D.......B.
            *.........*
            ...........
            ...........
            .....*.....
            ...........
            ...........
            ...........
            .C.......A.
            ..*.....*..
            A: len=3 health=100 last=U
            B: len=3 health=100 last=U
            C: len=3 health=100 last=U
            D: len=3 health=100 last=U
        "#]],
    );
}

#[test]
fn opening_19x19() {
    check_opening(
        19,
        8,
        2,
        expect![[r#"
            turn 0
            ..*.....*.......*..
            .G.......A.......H.
            ...................
            ...................
            ...................
            ...................
            ...................
            ...................
            ..................*
            .C.......*.......D.
            *..................
            ...................
            ...................
            ...................
            ...................
            ...................
            ...................
            .E.......B.......F.
            ..*.....*.......*..
            A: len=3 health=100 last=U
            B: len=3 health=100 last=U
            C: len=3 health=100 last=U
            D: len=3 health=100 last=U
            E: len=3 health=100 last=U
            F: len=3 health=100 last=U
            G: len=3 health=100 last=U
            H: len=3 health=100 last=U
        "#]],
    );
}

#[test]
fn opening_7x7_crowded() {
    check_opening(
        7,
        6,
        1,
        expect![[r#"
            turn 0
            .......
            .D.E.B.
            .......
            ...*...
            .......
            .C.F.A.
            .......
            A: len=3 health=100 last=U
            B: len=3 health=100 last=U
            C: len=3 health=100 last=U
            D: len=3 health=100 last=U
            E: len=3 health=100 last=U
            F: len=3 health=100 last=U
        "#]],
    );
}

#[test]
fn same_seed_same_opening() {
    for seed in 0..50 {
        let a = Battlesnake::new(Settings::default(), 4, seed).unwrap();
        let b = Battlesnake::new(Settings::default(), 4, seed).unwrap();
        assert_eq!(a, b, "seed {seed}");
        assert_eq!(a.checksum(), b.checksum());
    }
    let openings: std::collections::BTreeSet<u64> =
        (0..50).map(|seed| Battlesnake::new(Settings::default(), 4, seed).unwrap().checksum()).collect();
    assert!(openings.len() > 30, "seeds should give different openings, got {}", openings.len());
}

// ---------------------------------------------------------------------------
// The helper

/// Runs a case and compares its report.
///
/// # Input
///
/// ```text
/// game: name=royale turn=24 seed=3 minimumFood=1
/// ..*..
/// .aA~~
/// bbB..
/// A: health=50 dir=R len=4
/// > A=U B=-
/// > A=R x3
/// show
/// ```
///
/// * `game:` (optional, first) holds `turn=N` (turns already played,
///   default 0), `seed=N` (default 1), and settings as `key=value` under
///   their official names. Unlike a real game, `minimumFood` and
///   `foodSpawnChance` default to 0 so that a position changes only by the
///   rule under test; the board's size is the drawing's.
/// * The board, top row first in the engine's orientation (`Up` is toward
///   the top): `.` empty, `*` food, `~` hazard, `+` food in a hazard;
///   snakes as letters, upper case `A`..`P` the head of seat 0..15 and the
///   lower case letter its body. The body is found by walking from the head
///   to the only unvisited neighbour with the same letter (across the edges
///   on wrapped boards); where there are two, the walk panics unless it is
///   the first step and `dir=` says where the neck is. A cell under a snake
///   is neither food nor hazard.
/// * Snake lines `A: ...` set `health=N` (default 100), `dir=U|R|D|L` (the
///   last move; default: read from the neck, up for a lone head) and
///   `len=N` (segments stacked on the tail cell up to this length: a lone
///   head with `len=3` is a snake at its start position).
/// * `>` plays a turn: `A=U|R|D|L` or `A=-` (no answer); seats not named
///   give no answer. `xN` plays it N times. `show` prints the position.
///
/// # Output
///
/// Each turn prints `turn N: <moves>` and one indented line per event; then
/// the position at every `show` and at the end: `turn N`, the board in the
/// input notation with live snakes only, and one line per seat.
fn check(input: &str, expect: Expect) {
    expect.assert_eq(&Case::parse(input).run());
}

/// The opening of a new `side`x`side` standard game of `snakes` snakes.
fn check_opening(side: u32, snakes: usize, seed: u64, expect: Expect) {
    let side = side.to_string();
    let settings = Settings::from_pairs([("width", side.as_str()), ("height", side.as_str())]).unwrap();
    let game = Battlesnake::new(settings, snakes, seed).expect("the opening is placed");
    expect.assert_eq(&position(&game));
}

enum Step {
    Turn { moves: Vec<(usize, Action)>, times: u32 },
    Show,
}

#[derive(Default)]
struct Attrs {
    health: Option<i32>,
    dir: Option<Dir>,
    len: Option<usize>,
}

struct Case {
    settings: Settings,
    turn: u64,
    seed: u64,
    rows: Vec<Vec<char>>,
    attrs: Vec<Option<Attrs>>,
    script: Vec<Step>,
}



fn dedent(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let indent = lines.iter().map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
    lines.into_iter().map(|l| &l[indent..]).collect()
}


impl Case {
    fn parse(input: &str) -> Case {
        let mut lines = dedent(input).into_iter().peekable();
        let mut pairs: Vec<(String, String)> = vec![("minimumFood".into(), "0".into()), ("foodSpawnChance".into(), "0".into())];
        let (mut turn, mut seed) = (0, 1);
        if let Some(game) = lines.peek().and_then(|l| l.strip_prefix("game:")) {
            for word in game.split_whitespace() {
                match word.split_once('=') {
                    Some(("turn", v)) => turn = v.parse().expect("game: turn=N"),
                    Some(("seed", v)) => seed = v.parse().expect("game: seed=N"),
                    Some((k, v)) => pairs.push((k.to_string(), v.to_string())),
                    None => panic!("game: {word:?} is not key=value"),
                }
            }
            lines.next();
        }
        let mut rows: Vec<Vec<char>> = Vec::new();
        while let Some(line) = lines.peek() {
            if line.starts_with('>') || *line == "show" || is_snake_line(line) {
                break;
            }
            rows.push(line.chars().collect());
            lines.next();
        }
        assert!(!rows.is_empty(), "the case has no board");
        assert!(rows.iter().all(|r| r.len() == rows[0].len()), "board rows differ in width");
        pairs.push(("width".into(), rows[0].len().to_string()));
        pairs.push(("height".into(), rows.len().to_string()));
        let settings = Settings::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .unwrap_or_else(|e| panic!("game: {e}"));

        let mut attrs: Vec<Option<Attrs>> = Vec::new();
        let mut script = Vec::new();
        for line in lines {
            if line == "show" {
                script.push(Step::Show);
            } else if let Some(moves) = line.strip_prefix('>') {
                script.push(Case::parse_turn(moves));
            } else if is_snake_line(line) {
                let seat = seat_of(line.chars().next().unwrap_or_default()).unwrap_or_default();
                if attrs.len() <= seat {
                    attrs.resize_with(seat + 1, || None);
                }
                attrs[seat] = Some(Case::parse_attrs(&line[2..]));
            } else {
                panic!("cannot read line {line:?}");
            }
        }
        Case { settings, turn, seed, rows, attrs, script }
    }

    fn parse_turn(text: &str) -> Step {
        let mut moves = Vec::new();
        let mut times = 1;
        for word in text.split_whitespace() {
            if let Some(n) = word.strip_prefix('x') {
                times = n.parse().unwrap_or_else(|_| panic!("bad repeat {word:?}"));
                continue;
            }
            let (who, what) = word.split_once('=').unwrap_or_else(|| panic!("bad move {word:?}: expected A=R"));
            let seat = seat_of(who.chars().next().unwrap_or_default()).unwrap_or_else(|| panic!("bad seat in {word:?}"));
            let action = <Battlesnake as Game>::action_from_text(what).unwrap_or_else(|e| panic!("{e}"));
            moves.push((seat, action));
        }
        Step::Turn { moves, times }
    }

    fn parse_attrs(text: &str) -> Attrs {
        let mut a = Attrs::default();
        for word in text.split_whitespace() {
            match word.split_once('=') {
                Some(("health", v)) => a.health = Some(v.parse().expect("health=N")),
                Some(("len", v)) => a.len = Some(v.parse().expect("len=N")),
                Some(("dir", v)) => {
                    a.dir = Some(v.chars().next().and_then(Dir::from_letter).unwrap_or_else(|| panic!("bad {word:?}")))
                }
                _ => panic!("unknown snake attribute {word:?}"),
            }
        }
        a
    }

    fn cell(&self, p: Pos) -> char {
        self.rows.get(p.y as usize).and_then(|r| r.get(p.x as usize)).copied().unwrap_or(' ')
    }

    fn cells(&self, glyph: impl Fn(char) -> bool) -> Vec<Pos> {
        let mut out = Vec::new();
        for (y, row) in self.rows.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                if glyph(c) {
                    out.push(Pos::new(x as i32, y as i32));
                }
            }
        }
        out
    }

    /// The neighbours of `p`, across the edges on a wrapped board.
    fn neighbours(&self, p: Pos) -> Vec<Pos> {
        let (w, h) = (self.rows[0].len() as i32, self.rows.len() as i32);
        let wrap = self.settings.ruleset().wraps();
        Dir::ALL
            .iter()
            .map(|&d| p.step(d))
            .map(|q| if wrap { Pos::new(q.x.rem_euclid(w), q.y.rem_euclid(h)) } else { q })
            .collect()
    }

    fn body(&self, seat: usize, dir: Option<Dir>) -> Vec<Pos> {
        let head = letter_of(seat);
        let lower = head.to_ascii_lowercase();
        let heads = self.cells(|c| c == head);
        let [start] = heads.as_slice() else { panic!("snake {head} has {} heads", heads.len()) };
        let mut body = vec![*start];
        loop {
            let at = *body.last().unwrap_or(start);
            let next: Vec<Pos> =
                self.neighbours(at).into_iter().filter(|p| self.cell(*p) == lower && !body.contains(p)).collect();
            let chosen = match next.as_slice() {
                [] => break,
                [p] => *p,
                _ => {
                    let neck = dir.map(|d| self.neighbours(at)[Dir::ALL.iter().position(|&x| x == d.opposite()).unwrap_or(0)]);
                    match neck {
                        Some(n) if body.len() == 1 && next.contains(&n) => n,
                        _ => panic!("snake {head} is ambiguous at {at}; redraw it or give dir="),
                    }
                }
            };
            body.push(chosen);
        }
        let stray = self.cells(|c| c == lower).into_iter().filter(|p| !body.contains(p)).count();
        assert_eq!(stray, 0, "cells of snake {head} are not joined to its body");
        body
    }

    fn build(&self) -> Battlesnake {
        let seats = self
            .rows
            .iter()
            .flatten()
            .filter_map(|&c| seat_of(c.to_ascii_uppercase()).filter(|_| c.is_ascii_alphabetic()))
            .max()
            .map_or(0, |s| s + 1)
            .max(self.attrs.len());
        let mut position = Position { turn: self.turn, ..Position::default() };
        for seat in 0..seats {
            let a = self.attrs.get(seat).and_then(Option::as_ref);
            let mut body = self.body(seat, a.and_then(|a| a.dir));
            if let Some(len) = a.and_then(|a| a.len) {
                let tail = *body.last().unwrap_or(&Pos::new(0, 0));
                assert!(len >= body.len(), "len={len} is shorter than the drawing");
                body.resize(len, tail);
            }
            let health = a.and_then(|a| a.health).unwrap_or(100);
            position.snakes.push(SnakeSetup { body, health, last_move: a.and_then(|a| a.dir) });
        }
        position.food = self.cells(|c| c == '*' || c == '+');
        position.hazards = self.cells(|c| c == '~' || c == '+');
        if let Some(p) = self.cells(|c| !(c == '.' || c == '*' || c == '~' || c == '+' || c.is_ascii_alphabetic())).first() {
            panic!("unknown glyph {:?} at {p}", self.cell(*p));
        }
        Battlesnake::from_position(self.settings, self.seed, &position).unwrap_or_else(|e| panic!("{e}"))
    }

    fn run(&self) -> String {
        let mut game = self.build();
        let mut out = String::new();
        for step in &self.script {
            match step {
                Step::Show => out.push_str(&position(&game)),
                Step::Turn { moves, times } => {
                    for _ in 0..*times {
                        let mut actions: Vec<Action> = vec![None; game.seats()];
                        for &(seat, a) in moves {
                            actions[seat] = a;
                        }
                        let shown: Vec<String> = moves
                            .iter()
                            .map(|(seat, a)| format!("{}={}", letter_of(*seat), <Battlesnake as Game>::action_to_text(a)))
                            .collect();
                        let events = game.step(&actions);
                        writeln!(out, "turn {}: {}", game.turn(), if shown.is_empty() { "-".into() } else { shown.join(" ") }).ok();
                        for e in &events {
                            writeln!(out, "  {}", event_text(e)).ok();
                        }
                        if let Err(e) = game.check_invariants() {
                            panic!("invariant broken: {e}\n{out}");
                        }
                    }
                }
            }
        }
        out.push_str(&position(&game));
        out
    }
}

/// The turn, the board with live snakes, and one line per seat.
fn position(game: &Battlesnake) -> String {
    let (w, h) = (game.width() as usize, game.height() as usize);
    let mut grid = vec![vec!['.'; w]; h];
    for p in game.hazards() {
        grid[p.y as usize][p.x as usize] = '~';
    }
    for p in game.food() {
        let c = &mut grid[p.y as usize][p.x as usize];
        *c = if *c == '~' { '+' } else { '*' };
    }
    for (seat, s) in game.snakes().iter().enumerate() {
        if !s.is_alive() {
            continue;
        }
        for (k, p) in game.body(seat).enumerate().collect::<Vec<_>>().into_iter().rev() {
            let letter = letter_of(seat);
            grid[p.y as usize][p.x as usize] = if k == 0 { letter } else { letter.to_ascii_lowercase() };
        }
    }
    let mut out = format!("turn {}\n", game.turn());
    for row in grid {
        out.extend(row);
        out.push('\n');
    }
    for (seat, s) in game.snakes().iter().enumerate() {
        let mut line = format!("{}: ", letter_of(seat));
        match s.eliminated {
            None => {
                write!(line, "len={} health={} last={}", s.len, s.health, s.last_move.letter()).ok();
                if game.is_hazard(game.head(seat)) {
                    line.push_str(" head in hazard");
                }
            }
            Some(e) => {
                write!(line, "out on turn {} ({}) len={} health={} head={}", e.turn, cause_text(e.cause), s.len, s.health, game.head(seat))
                    .ok();
            }
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn cause_text(c: Cause) -> String {
    match c.by() {
        Some(by) => format!("{} with {}", c.official_name(), letter_of(by)),
        None => c.official_name().to_string(),
    }
}

fn event_text(e: &Event) -> String {
    let l = letter_of;
    match e {
        Event::DefaultMove { snake, dir } => format!("{} gave no move: {}", l(*snake), dir.letter()),
        Event::Ate { snake, at } => format!("{} ate at {at}", l(*snake)),
        Event::Eliminated { snake, cause } => format!("{} out: {}", l(*snake), cause_text(*cause)),
        Event::FoodSpawned { at } => format!("food at {at}"),
        Event::ZoneShrank { side } => {
            let edge = match side {
                Dir::Up => "top",
                Dir::Right => "right",
                Dir::Down => "bottom",
                Dir::Left => "left",
            };
            format!("hazards move in from the {edge} edge")
        }
        Event::GameOver { winner: Some(w) } => format!("game over, winner {}", l(*w)),
        Event::GameOver { winner: None } => "game over, no winner".to_string(),
    }
}
