//! One test per rule sentence of the SOI Multisnake statement (SOI Multisnake), the two rules
//! of the final statement, and the decisions taken where both are silent.
//!
//! The test names are the ones in the table of `src/multisnake/mod.rs`.
//! Every case goes through [`check`]; its notation is documented on the
//! `check` module at the end of this file. Boards are in the SOI
//! statement's own glyphs, in and out: what a case prints after a turn is
//! exactly what the bots read. The expectations were checked by hand against
//! the SOI statement: when `UPDATE_EXPECT=1` changes one, read the new text
//! against the rule before keeping it.

mod notation;

use check::check;
use expect_test::expect;
use snakepit_engine::Pos;
use snakepit_engine::multisnake::{MAPS, Map, MapProblem, MapSpec};

/// The table of rule sentences in `src/multisnake/mod.rs` and the tests of
/// this file name each other exactly.
#[test]
fn rule_table_matches_tests() {
    let table = notation::table_tests(include_str!("../src/multisnake/mod.rs"));
    let tests = notation::test_fns(include_str!("multisnake_rules.rs"));
    notation::assert_table_matches("src/multisnake/mod.rs", &table, &tests, 28);
}

// ---------------------------------------------------------------------------
// The map

#[test]
fn map_size_and_players_are_checked() {
    // 5 <= W, H <= 150 and N in {2, 4, 8}.
    let row = |w: usize, fill: &str| fill.repeat(w);
    let map = |w: usize, h: usize, first: &str| {
        let mut rows = vec![format!("{first}{}", row(w - first.len(), "."))];
        rows.extend((1..h).map(|_| row(w, ".")));
        rows.join("\n")
    };
    assert!(Map::parse(&map(5, 5, "AB")).is_ok());
    assert!(Map::parse(&map(150, 150, "ABCD")).is_ok());
    assert!(Map::parse(&map(8, 5, "ABCDEFGH")).is_ok());
    let problem = |t: &str| Map::parse(t).map(|_| ()).unwrap_err().problem;
    assert_eq!(problem(&map(4, 5, "AB")), MapProblem::BadSize { width: 4, height: 5 });
    assert_eq!(problem(&map(5, 4, "AB")), MapProblem::BadSize { width: 5, height: 4 });
    assert_eq!(problem(&map(151, 5, "AB")), MapProblem::BadSize { width: 151, height: 5 });
    assert_eq!(problem(&map(5, 151, "AB")), MapProblem::BadSize { width: 5, height: 151 });
    assert_eq!(problem(&map(5, 5, "A")), MapProblem::Players(1));
    assert_eq!(problem(&map(5, 5, "ABC")), MapProblem::Players(3));
    assert_eq!(problem(&map(6, 5, "ABCDEF")), MapProblem::Players(6));
}

#[test]
fn tournament_maps_are_symmetric() {
    // Every committed map maps onto itself under its players' symmetry,
    // snake i being snake 0's image, and is what the generator makes.
    for m in MAPS {
        let map = Map::parse(m.text).unwrap_or_else(|e| panic!("{}: {e}", m.name));
        let (w, h) = (map.grid.width as i32 - 1, map.grid.height as i32 - 1);
        let syms: Vec<fn(Pos, i32, i32) -> Pos> = match map.players() {
            2 => vec![|p, _, _| p, |p, w, h| Pos::new(w - p.x, h - p.y)],
            4 => vec![
                |p, _, _| p,
                |p, w, _| Pos::new(w - p.y, p.x),
                |p, w, h| Pos::new(w - p.x, h - p.y),
                |p, _, h| Pos::new(p.y, h - p.x),
            ],
            _ => vec![
                |p, _, _| p,
                |p, w, _| Pos::new(w - p.y, p.x),
                |p, w, h| Pos::new(w - p.x, h - p.y),
                |p, _, h| Pos::new(p.y, h - p.x),
                |p, w, _| Pos::new(w - p.x, p.y),
                |p, _, h| Pos::new(p.x, h - p.y),
                |p, _, _| Pos::new(p.y, p.x),
                |p, w, h| Pos::new(w - p.y, h - p.x),
            ],
        };
        for (seat, g) in syms.iter().enumerate() {
            let image: Vec<Pos> = map.snakes[0].iter().map(|&p| g(p, w, h)).collect();
            assert_eq!(image, map.snakes[seat], "{}: snake {seat}", m.name);
            for i in 0..map.grid.cells() {
                let p = map.grid.pos(i);
                assert_eq!(map.tiles[i], map.tiles[map.grid.index(g(p, w, h))], "{}: tile {p}", m.name);
            }
        }
        let spec = MapSpec::from_pairs(m.spec.iter().copied()).expect("the spec is valid");
        let again = snakepit_engine::multisnake::generate(&spec, m.seed).expect("the spec generates");
        assert_eq!(again.to_rows().join("\n") + "\n", m.text, "{} is not what its spec and seed make", m.name);
    }
}

// ---------------------------------------------------------------------------
// Moving

#[test]
fn leaving_the_map_wraps_around() {
    // A leaves on the left and enters on the right; B leaves at the bottom
    // and enters at the top.
    check(
        r#"
        .....
        .....
        A<...
        .....
        ..B..
        > A=< B=v
        "#,
        expect![[r#"
            turn 1: A=< B=v
            after turn 1
            ..B..
            .....
            <...A
            .....
            .....
            A: len=2 dir=< score=0
            B: len=1 dir=v score=0
            result: playing
        "#]],
    );
}

#[test]
fn moves_are_simultaneous() {
    check(
        r#"
        #######
        #.....#
        #.>A..#
        #..B..#
        #..^..#
        #######
        > A=> B=<
        "#,
        expect![[r#"
            turn 1: A=> B=<
            after turn 1
            #######
            #.....#
            #..>A.#
            #.B<..#
            #.....#
            #######
            A: len=2 dir=> score=0
            B: len=2 dir=< score=0
            result: playing
        "#]],
    );
}

#[test]
fn head_and_tail_advance_one_tile() {
    check(
        r#"
        #######
        #>>A..#
        #.....#
        #.....#
        #....B#
        #######
        > A=v B=^
        "#,
        expect![[r#"
            turn 1: A=v B=^
            after turn 1
            #######
            #.>v..#
            #..A..#
            #....B#
            #.....#
            #######
            A: len=3 dir=v score=0
            B: len=1 dir=^ score=0
            result: playing
        "#]],
    );
}

#[test]
fn no_answer_keeps_direction() {
    // With no answer a snake goes on the way it went; a snake of length 1
    // has no way yet and goes up.
    check(
        r#"
        #######
        #.....#
        #.>A..#
        #.....#
        #...B.#
        #######
        > A=- B=-
        "#,
        expect![[r#"
            turn 1: A=- B=-
            after turn 1
            #######
            #.....#
            #..>A.#
            #...B.#
            #.....#
            #######
            A: len=2 dir=> score=0
            B: len=1 dir=^ score=0
            result: playing
        "#]],
    );
}

#[test]
fn reversing_only_at_length_one() {
    // A (length 1) turns back; B (length 2) turns back into its neck, which
    // is occupied: it does not move and dies.
    check(
        r#"
        #######
        #.....#
        #..A..#
        #.....#
        #.>B..#
        #######
        A: dir=>
        > A=< B=<
        "#,
        expect![[r#"
            turn 1: A=< B=<
              B died: blocked by its own neck
              game over: A wins (last alive)
            after turn 1
            #######
            #.....#
            #.A...#
            #.....#
            #.>@..#
            #######
            A: len=1 dir=< score=1
            B: dead (turn 1) len=2 dir=> score=0
            result: A wins (last alive)
            places: A=1 B=2
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Collisions

#[test]
fn blocked_snake_dies_without_moving() {
    // A's target is the middle of B's body, which stays: A dies where it
    // is, and B, the last one alive, wins.
    check(
        r#"
        #######
        #.....#
        #>>B..#
        #.A...#
        #.^...#
        #######
        > A=^ B=>
        "#,
        expect![[r#"
            turn 1: A=^ B=>
              A died: blocked by B
              game over: B wins (last alive)
            after turn 1
            #######
            #.....#
            #.>>B.#
            #.@...#
            #.^...#
            #######
            A: dead (turn 1) len=2 dir=^ score=0
            B: len=3 dir=> score=1
            result: B wins (last alive)
            places: A=2 B=1
        "#]],
    );
}

#[test]
fn heads_meeting_die_after_moving() {
    // A and B enter the same tile: both move, both die, and the tile shows
    // one dead head.
    check(
        r#"
        #######
        #.....#
        #>A.B<#
        #.....#
        #.....#
        #######
        > A=> B=<
        "#,
        expect![[r#"
            turn 1: A=> B=<
              A died: head-on with B
              B died: head-on with A
              game over: A B tie (all died)
            after turn 1
            #######
            #.....#
            #.>@<.#
            #.....#
            #.....#
            #######
            A: dead (turn 1) len=2 dir=> score=0
            B: dead (turn 1) len=2 dir=< score=0
            result: A B tie (all died)
            places: A=1 B=1
        "#]],
    );
}

#[test]
fn blocked_by_two_dead_heads_names_one_by_place() {
    // B and C meet and die on one tile; A runs into it next turn (D only
    // keeps the game going). Two
    // snakes hold the tile, and A's death names the one whose tiles come
    // first (B, whose body lies left), not the lower seat:
    // `blocked_by_two_dead_heads_whatever_the_seats` swaps B and C.
    check(
        r#"
        #######
        #.....#
        #>B.C<#
        #.....#
        #..A..#
        #D.^..#
        #######
        > A=^ B=> C=< D=^
        > A=^ D=^
        "#,
        expect![[r#"
            turn 1: A=^ B=> C=< D=^
              B died: head-on with C
              C died: head-on with B
            turn 2: A=^ D=^
              A died: blocked by B
              game over: D wins (last alive)
            after turn 2
            #######
            #.....#
            #.>@<.#
            #D.@..#
            #..^..#
            #.....#
            #######
            A: dead (turn 2) len=2 dir=^ score=2
            B: dead (turn 1) len=2 dir=> score=0
            C: dead (turn 1) len=2 dir=< score=0
            D: len=1 dir=^ score=3
            result: D wins (last alive)
            places: A=2 B=3 C=3 D=1
        "#]],
    );
}

#[test]
fn blocked_by_two_dead_heads_whatever_the_seats() {
    // `blocked_by_two_dead_heads_names_one_by_place` with B and C swapped:
    // the same outcome, relabelled.
    check(
        r#"
        #######
        #.....#
        #>C.B<#
        #.....#
        #..A..#
        #D.^..#
        #######
        > A=^ B=< C=> D=^
        > A=^ D=^
        "#,
        expect![[r#"
            turn 1: A=^ B=< C=> D=^
              B died: head-on with C
              C died: head-on with B
            turn 2: A=^ D=^
              A died: blocked by C
              game over: D wins (last alive)
            after turn 2
            #######
            #.....#
            #.>@<.#
            #D.@..#
            #..^..#
            #.....#
            #######
            A: dead (turn 2) len=2 dir=^ score=2
            B: dead (turn 1) len=2 dir=< score=0
            C: dead (turn 1) len=2 dir=> score=0
            D: len=1 dir=^ score=3
            result: D wins (last alive)
            places: A=2 B=3 C=3 D=1
        "#]],
    );
}

#[test]
fn blocked_by_two_dead_heads_of_length_one() {
    // B and C, one tile long, meet and lie on the same tile, so only their
    // last moves tell them apart: A's death names the one that moved right
    // (up, right, down, left), B here and C in the second case, where
    // their seats are swapped.
    check(
        r#"
        #######
        #.....#
        #.B.C.#
        #.....#
        #..A..#
        #D.^..#
        #######
        > A=^ B=> C=< D=^
        > A=^ D=^
        "#,
        expect![[r#"
            turn 1: A=^ B=> C=< D=^
              B died: head-on with C
              C died: head-on with B
            turn 2: A=^ D=^
              A died: blocked by B
              game over: D wins (last alive)
            after turn 2
            #######
            #.....#
            #..@..#
            #D.@..#
            #..^..#
            #.....#
            #######
            A: dead (turn 2) len=2 dir=^ score=2
            B: dead (turn 1) len=1 dir=> score=0
            C: dead (turn 1) len=1 dir=< score=0
            D: len=1 dir=^ score=3
            result: D wins (last alive)
            places: A=2 B=3 C=3 D=1
        "#]],
    );
    check(
        r#"
        #######
        #.....#
        #.C.B.#
        #.....#
        #..A..#
        #D.^..#
        #######
        > A=^ B=< C=> D=^
        > A=^ D=^
        "#,
        expect![[r#"
            turn 1: A=^ B=< C=> D=^
              B died: head-on with C
              C died: head-on with B
            turn 2: A=^ D=^
              A died: blocked by C
              game over: D wins (last alive)
            after turn 2
            #######
            #.....#
            #..@..#
            #D.@..#
            #..^..#
            #.....#
            #######
            A: dead (turn 2) len=2 dir=^ score=2
            B: dead (turn 1) len=1 dir=< score=0
            C: dead (turn 1) len=1 dir=> score=0
            D: len=1 dir=^ score=3
            result: D wins (last alive)
            places: A=2 B=3 C=3 D=1
        "#]],
    );
}

#[test]
fn dead_snakes_stay_as_obstacles() {
    // C died earlier; its body and its '@' head block A.
    check(
        r#"
        #######
        #.....#
        #.>AC.#
        #...^.#
        #B....#
        #..D..#
        #######
        C: dead
        > A=> B=^ D=^
        "#,
        expect![[r#"
            turn 1: A=> B=^ D=^
              A died: blocked by C
            after turn 1
            #######
            #.....#
            #.>@@.#
            #B..^.#
            #..D..#
            #.....#
            #######
            A: dead (turn 1) len=2 dir=> score=1
            B: len=1 dir=^ score=2
            C: dead (turn 0) len=2 dir=^ score=0
            D: len=1 dir=^ score=2
            result: playing
        "#]],
    );
}

#[test]
fn entering_a_tile_a_tail_leaves() {
    // A's target is B's tail, which leaves in the same turn.
    check(
        r#"
        #######
        #.....#
        #.A>>B#
        #.^...#
        #.....#
        #######
        > A=> B=v
        "#,
        expect![[r#"
            turn 1: A=> B=v
            after turn 1
            #######
            #.....#
            #.>A>v#
            #....B#
            #.....#
            #######
            A: len=2 dir=> score=0
            B: len=3 dir=v score=0
            result: playing
        "#]],
    );
}

#[test]
fn chasing_its_own_tail() {
    // A square of four: the head enters the tile its own tail leaves.
    check(
        r#"
        #######
        #.>v..#
        #.^A..#
        #.....#
        #...B.#
        #######
        > A=< B=^
        "#,
        expect![[r#"
            turn 1: A=< B=^
            after turn 1
            #######
            #.>v..#
            #.A<..#
            #...B.#
            #.....#
            #######
            A: len=4 dir=< score=0
            B: len=1 dir=^ score=0
            result: playing
        "#]],
    );
}

#[test]
fn ring_of_snakes_all_move() {
    // Four snakes each enter the tile the next one's tail leaves; the
    // blocks are settled together, so all four move.
    check(
        r#"
        #######
        #>Av..#
        #D#B..#
        #^C<..#
        #######
        > A=> B=v C=< D=^
        "#,
        expect![[r#"
            turn 1: A=> B=v C=< D=^
            after turn 1
            #######
            #D>A..#
            #^#v..#
            #C<B..#
            #######
            A: len=2 dir=> score=0
            B: len=2 dir=v score=0
            C: len=2 dir=< score=0
            D: len=2 dir=^ score=0
            result: playing
        "#]],
    );
}

#[test]
fn blocked_tail_blocks_the_follower() {
    // A runs into the wall and does not move, so its tail stays; B, which
    // meant to enter that tail, is blocked too, and so is C behind B. All
    // three die in the same turn and share second place.
    check(
        r#"
        ########
        #>>A#..#
        #B.....#
        #^.....#
        #C.....#
        #..D...#
        ########
        > A=> B=^ C=^ D=^
        "#,
        expect![[r#"
            turn 1: A=> B=^ C=^ D=^
              A died: blocked by a wall
              B died: blocked by A
              C died: blocked by B
              game over: D wins (last alive)
            after turn 1
            ########
            #>>@#..#
            #@.....#
            #^.....#
            #@.D...#
            #......#
            ########
            A: dead (turn 1) len=3 dir=> score=0
            B: dead (turn 1) len=2 dir=^ score=0
            C: dead (turn 1) len=1 dir=^ score=0
            D: len=1 dir=^ score=3
            result: D wins (last alive)
            places: A=2 B=2 C=2 D=1
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Signs and growth

#[test]
fn plus_grows() {
    check(
        r#"
        #######
        #.....#
        #>A+..#
        #.....#
        #...B.#
        #######
        > A=> B=^
        "#,
        expect![[r#"
            turn 1: A=> B=^
              A ate + at [3,2]
              A grew by + to 3
            after turn 1
            #######
            #.....#
            #>>A..#
            #...B.#
            #.....#
            #######
            A: len=3 dir=> score=0
            B: len=1 dir=^ score=0
            result: playing
        "#]],
    );
}

#[test]
fn minus_shrinks() {
    check(
        r#"
        #######
        #.....#
        #>>A-.#
        #.....#
        #...B.#
        #######
        > A=> B=^
        "#,
        expect![[r#"
            turn 1: A=> B=^
              A ate - at [4,2]
              A shrank to 2
            after turn 1
            #######
            #.....#
            #..>A.#
            #...B.#
            #.....#
            #######
            A: len=2 dir=> score=0
            B: len=1 dir=^ score=0
            result: playing
        "#]],
    );
}

#[test]
fn shrinking_to_zero_kills() {
    // At length 1 a minus leaves nothing: the snake dies, its head '@' on
    // the tile it entered.
    check(
        r#"
        #######
        #.....#
        #.A-..#
        #.....#
        #...B.#
        #######
        > A=> B=^
        "#,
        expect![[r#"
            turn 1: A=> B=^
              A ate - at [3,2]
              A died: shrank to nothing
              game over: B wins (last alive)
            after turn 1
            #######
            #.....#
            #..@..#
            #...B.#
            #.....#
            #######
            A: dead (turn 1) len=1 dir=> score=0
            B: len=1 dir=^ score=1
            result: B wins (last alive)
            places: A=2 B=1
        "#]],
    );
}

#[test]
fn everyone_grows_every_t_turns() {
    // T = 3: the tails stay on turn 3, counting turns from 1.
    check(
        r#"
        game: grow_every=3
        ########
        #......#
        #>A....#
        #......#
        #>B....#
        ########
        > A=> B=> x3
        "#,
        expect![[r#"
            turn 1: A=> B=>
            turn 2: A=> B=>
            turn 3: A=> B=>
              A grew by the turn to 3
              B grew by the turn to 3
            after turn 3
            ########
            #......#
            #..>>A.#
            #......#
            #..>>B.#
            ########
            A: len=3 dir=> score=0
            B: len=3 dir=> score=0
            result: playing
        "#]],
    );
}

#[test]
fn plus_on_a_growth_turn_is_ignored() {
    // Turn 2 with T = 2: A takes the plus but grows by one, like B.
    check(
        r#"
        game: grow_every=2 turn=1
        #######
        #.....#
        #>A+..#
        #.....#
        #>B...#
        #######
        > A=> B=>
        "#,
        expect![[r#"
            turn 2: A=> B=>
              A ate + at [3,2]
              A grew by the turn to 3
              B grew by the turn to 3
            after turn 2
            #######
            #.....#
            #>>A..#
            #.....#
            #>>B..#
            #######
            A: len=3 dir=> score=0
            B: len=3 dir=> score=0
            result: playing
        "#]],
    );
}

#[test]
fn minus_on_a_growth_turn_cancels_growth() {
    // Turn 2 with T = 2: B grows, A takes a minus and keeps its length.
    check(
        r#"
        game: grow_every=2 turn=1
        #######
        #.....#
        #>A-..#
        #.....#
        #>B...#
        #######
        > A=> B=>
        "#,
        expect![[r#"
            turn 2: A=> B=>
              A ate - at [3,2]
              B grew by the turn to 3
            after turn 2
            #######
            #.....#
            #.>A..#
            #.....#
            #>>B..#
            #######
            A: len=2 dir=> score=0
            B: len=3 dir=> score=0
            result: playing
        "#]],
    );
}

#[test]
fn growing_tail_blocks() {
    // On a growth turn B's tail stays, so A, entering it, is blocked.
    check(
        r#"
        game: grow_every=1
        #######
        #.....#
        #.A>>B#
        #.^...#
        #.....#
        #######
        > A=> B=v
        "#,
        expect![[r#"
            turn 1: A=> B=v
              B grew by the turn to 4
              A died: blocked by B
              game over: B wins (last alive)
            after turn 1
            #######
            #.....#
            #.@>>v#
            #.^..B#
            #.....#
            #######
            A: dead (turn 1) len=2 dir=^ score=0
            B: len=4 dir=v score=1
            result: B wins (last alive)
            places: A=2 B=1
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Ending

#[test]
fn invalid_answer_kills() {
    // The runner reports an invalid line (or a timeout or crash) as a
    // forfeit: the snake dies where it is and stays on the map.
    check(
        r#"
        #######
        #.....#
        #.>A..#
        #.B...#
        #...CD#
        #######
        > A=F B=> C=^ D=^
        "#,
        expect![[r#"
            turn 1: A=F B=> C=^ D=^
              A died: forfeit
            after turn 1
            #######
            #.....#
            #.>@..#
            #..BCD#
            #.....#
            #######
            A: dead (turn 1) len=2 dir=> score=0
            B: len=1 dir=> score=1
            C: len=1 dir=^ score=1
            D: len=1 dir=^ score=1
            result: playing
        "#]],
    );
}

#[test]
fn last_alive_wins() {
    check(
        r#"
        #######
        #.....#
        #.A#..#
        #.....#
        #...B.#
        #######
        A: dir=>
        > A=> B=^
        "#,
        expect![[r#"
            turn 1: A=> B=^
              A died: blocked by a wall
              game over: B wins (last alive)
            after turn 1
            #######
            #.....#
            #.@#..#
            #...B.#
            #.....#
            #######
            A: dead (turn 1) len=1 dir=> score=0
            B: len=1 dir=^ score=1
            result: B wins (last alive)
            places: A=2 B=1
        "#]],
    );
}

#[test]
fn all_dying_together_tie() {
    // The last two snakes die in the same turn, each into a wall.
    check(
        r#"
        #######
        #.....#
        #.A#..#
        #.....#
        #..#B.#
        #######
        A: dir=>
        B: dir=<
        > A=> B=<
        "#,
        expect![[r#"
            turn 1: A=> B=<
              A died: blocked by a wall
              B died: blocked by a wall
              game over: A B tie (all died)
            after turn 1
            #######
            #.....#
            #.@#..#
            #.....#
            #..#@.#
            #######
            A: dead (turn 1) len=1 dir=> score=0
            B: dead (turn 1) len=1 dir=< score=0
            result: A B tie (all died)
            places: A=1 B=1
        "#]],
    );
}

#[test]
fn deaths_in_one_turn_share_a_place() {
    // A and B die in turn 1, D in turn 2: C wins, D is second, A and B
    // share third place.
    check(
        r#"
        ########
        #.A#...#
        #......#
        #.B#...#
        #.....##
        #C...D.#
        ########
        A: dir=>
        B: dir=>
        C: dir=>
        D: dir=>
        > A=> B=> C=^ D=^
        > C=^ D=>
        "#,
        expect![[r#"
            turn 1: A=> B=> C=^ D=^
              A died: blocked by a wall
              B died: blocked by a wall
            turn 2: C=^ D=>
              D died: blocked by a wall
              game over: C wins (last alive)
            after turn 2
            ########
            #.@#...#
            #......#
            #C@#...#
            #....@##
            #......#
            ########
            A: dead (turn 1) len=1 dir=> score=0
            B: dead (turn 1) len=1 dir=> score=0
            C: len=1 dir=^ score=3
            D: dead (turn 2) len=1 dir=^ score=2
            result: C wins (last alive)
            places: A=3 B=3 C=1 D=2
        "#]],
    );
}

#[test]
fn turn_limit_longest_win() {
    // After turns_max turns the longest snakes alive share the win.
    check(
        r#"
        game: turns_max=2
        ########
        #......#
        #>>A...#
        #......#
        #>B....#
        #......#
        #.....C#
        #..D...#
        ########
        > x2
        "#,
        expect![[r#"
            turn 1: -
            turn 2: -
              game over: A wins (turn limit)
            after turn 2
            ########
            #......#
            #..>>A.#
            #......#
            #..>B.C#
            #..D...#
            #......#
            #......#
            ########
            A: len=3 dir=> score=3
            B: len=2 dir=> score=2
            C: len=1 dir=^ score=0
            D: len=1 dir=^ score=0
            result: A wins (turn limit)
            places: A=1 B=2 C=3 D=3
        "#]],
    );
}

// ---------------------------------------------------------------------------

/// The one `check` helper of the Multisnake rule tests, and its notation.
///
/// # Input
///
/// ```text
/// game: grow_every=3 turn=5
/// #######
/// #.>A..#
/// #..@..#
/// #B....#
/// #######
/// B: dir=^
/// C: dead
/// > A=v B=<
/// > A=> x3
/// show
/// ```
///
/// * `game:` (optional, first) holds settings for `Settings::from_pairs`
///   (`grow_every` is T) and `turn=N`, the turns already played (default
///   0, so the first turn is turn 1).
/// * The board is a map in the SOI statement's glyphs, read by `Map::parse`: it
///   wraps, so cases wall themselves in where wrapping is not the point.
///   Heads are letters; a dead snake is drawn with its letter too and
///   marked `dead` on its line.
/// * Snake lines `A: ...` set `dir=^|>|v|<` (for snakes of length 1,
///   which have no neck to tell) and `dead`.
/// * `>` plays one turn: `A=` takes `^` `>` `v` `<` (a move), `-` (no
///   answer) or `F` (forfeit); snakes not named send nothing. `xN` plays it
///   N times.
/// * `show` prints the position at that point.
///
/// # Output
///
/// Each turn prints `turn N:` and its moves, then one line per event,
/// indented. Then the position: the map exactly as bots read it, one line
/// per seat (`score` is the engine's score: how many seats it did better
/// than), the result and, once the game is over, every seat's place.
mod check {
    use expect_test::Expect;
    use snakepit_engine::multisnake::{
        Action, Blocker, Death, EndReason, Event, Growth, Map, Multisnake, Settings, arrow, from_arrow, head_letter,
    };
    use snakepit_engine::{Dir, Game};
    use std::fmt::Write;

    /// Runs a case written in the notation above and compares its report.
    pub fn check(input: &str, expect: Expect) {
        let lines = dedent(input);
        let mut lines = lines.iter().map(String::as_str).peekable();
        let (mut pairs, mut turn) = (Vec::new(), 0);
        if let Some(game) = lines.peek().and_then(|l| l.strip_prefix("game:")) {
            for word in game.split_whitespace() {
                match word.split_once('=') {
                    Some(("turn", v)) => turn = v.parse().expect("turn=N"),
                    Some((k, v)) => pairs.push((k, v)),
                    None => panic!("game: unknown flag {word:?}"),
                }
            }
            lines.next();
        }
        let settings = Settings::from_pairs(pairs).unwrap_or_else(|e| panic!("game: {e}"));
        let mut board = String::new();
        while let Some(line) = lines.peek().filter(|l| !l.starts_with('>') && **l != "show" && !is_snake_line(l)) {
            board.push_str(line);
            board.push('\n');
            lines.next();
        }
        let map = Map::parse(&board).unwrap_or_else(|e| panic!("map: {e}"));
        let mut game = Multisnake::new(settings, map, 1);
        game.set_turn(turn);
        let mut out = String::new();
        for line in lines {
            if line == "show" {
                out.push_str(&position(&game));
                out.push('\n');
            } else if is_snake_line(line) {
                let seat = line.as_bytes()[0] as usize - b'A' as usize;
                for word in line[2..].split_whitespace() {
                    match word.split_once('=') {
                        Some(("dir", v)) => game.set_dir(seat, read_dir(v)),
                        None if word == "dead" => game.set_dead(seat, turn),
                        _ => panic!("unknown snake attribute {word:?}"),
                    }
                }
            } else if let Some(rest) = line.strip_prefix('>') {
                let mut times = 1;
                let mut actions = vec![Action::Keep; game.seats()];
                let mut shown = Vec::new();
                for word in rest.split_whitespace() {
                    if let Some(n) = word.strip_prefix('x') {
                        times = n.parse().expect("xN");
                        continue;
                    }
                    let (who, what) = word.split_once('=').expect("A=...");
                    let seat = who.as_bytes()[0] as usize - b'A' as usize;
                    actions[seat] = match what {
                        "-" => Action::Keep,
                        "F" => Action::Forfeit,
                        _ => Action::Move(read_dir(what)),
                    };
                    shown.push(word.to_string());
                }
                let shown = if shown.is_empty() { "-".to_string() } else { shown.join(" ") };
                for _ in 0..times {
                    let events = game.step(&actions);
                    writeln!(out, "turn {}: {shown}", game.turn()).ok();
                    for e in &events {
                        writeln!(out, "  {}", event_text(e)).ok();
                    }
                    if let Err(e) = game.check_invariants() {
                        panic!("invariant broken: {e}\n{out}");
                    }
                }
            } else if !line.trim().is_empty() {
                panic!("cannot read line {line:?}");
            }
        }
        out.push_str(&position(&game));
        expect.assert_eq(&out);
    }

    fn is_snake_line(line: &str) -> bool {
        let b = line.as_bytes();
        b.len() >= 2 && (b'A'..=b'H').contains(&b[0]) && b[1] == b':'
    }

    fn read_dir(text: &str) -> Dir {
        let mut cs = text.chars();
        match (cs.next().and_then(from_arrow), cs.next()) {
            (Some(d), None) => d,
            _ => panic!("bad direction {text:?}: use ^ > v <"),
        }
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

    fn names(seats: &[usize]) -> String {
        seats.iter().map(|&s| head_letter(s).to_string()).collect::<Vec<_>>().join(" ")
    }

    fn result_text(game: &Multisnake) -> String {
        game.outcome().map_or("playing".to_string(), |end| end_text(&end.winners, end.reason))
    }

    fn end_text(winners: &[usize], reason: EndReason) -> String {
        let (verb, why) = match reason {
            EndReason::LastAlive => ("wins", "last alive"),
            EndReason::AllDied => ("tie", "all died"),
            EndReason::TurnLimit if winners.len() > 1 => ("share the win", "turn limit"),
            EndReason::TurnLimit => ("wins", "turn limit"),
        };
        format!("{} {verb} ({why})", names(winners))
    }

    fn event_text(e: &Event) -> String {
        let l = head_letter;
        match e {
            Event::Ate { snake, sign, at } => format!("{} ate {} at {at}", l(*snake), sign.glyph()),
            Event::Grew { snake, by: Growth::Turn, len } => format!("{} grew by the turn to {len}", l(*snake)),
            Event::Grew { snake, by: Growth::Plus, len } => format!("{} grew by + to {len}", l(*snake)),
            Event::Shrank { snake, len } => format!("{} shrank to {len}", l(*snake)),
            Event::Died { snake, cause } => {
                let cause = match cause {
                    Death::Blocked(Blocker::Wall) => "blocked by a wall".to_string(),
                    Death::Blocked(Blocker::Reverse) => "blocked by its own neck".to_string(),
                    Death::Blocked(Blocker::Snake(o)) if o == snake => "blocked by itself".to_string(),
                    Death::Blocked(Blocker::Snake(o)) => format!("blocked by {}", l(*o)),
                    Death::HeadOn(others) => format!("head-on with {}", names(others)),
                    Death::Starved => "shrank to nothing".to_string(),
                    Death::Forfeit => "forfeit".to_string(),
                };
                format!("{} died: {cause}", l(*snake))
            }
            Event::Ended { winners, reason } => format!("game over: {}", end_text(winners, *reason)),
        }
    }

    fn position(game: &Multisnake) -> String {
        let mut out = format!("after turn {}\n", game.turn());
        for row in game.rows() {
            out.push_str(&row);
            out.push('\n');
        }
        let scores = game.scores();
        for (seat, s) in game.snakes().iter().enumerate() {
            let state = match s.died {
                Some(t) => format!(" dead (turn {t})"),
                None => String::new(),
            };
            writeln!(out, "{}:{state} len={} dir={} score={}", head_letter(seat), s.len(), arrow(s.dir), scores[seat])
                .ok();
        }
        writeln!(out, "result: {}", result_text(game)).ok();
        if game.is_over() {
            let places: Vec<String> =
                game.places().iter().enumerate().map(|(s, p)| format!("{}={p}", head_letter(s))).collect();
            writeln!(out, "places: {}", places.join(" ")).ok();
        }
        out
    }
}
