//! One test per rule sentence of the CodeCarrots description (CodeCarrots snakes), plus the
//! decisions taken where the description is silent.
//!
//! The test names are the ones in the table of `src/carrots/mod.rs`. Every
//! case goes through [`check`]; its notation is documented on the `check`
//! module at the end of this file. The expectations were checked by hand
//! against CodeCarrots' description: when `UPDATE_EXPECT=1` changes one,
//! read the new text against the rule before keeping it.

mod notation;

use check::check;
use expect_test::expect;

/// The table of rule sentences in `src/carrots/mod.rs` and the tests of
/// this file name each other exactly.
#[test]
fn rule_table_matches_tests() {
    let table = notation::table_tests(include_str!("../src/carrots/mod.rs"));
    let tests = notation::test_fns(include_str!("carrots_rules.rs"));
    notation::assert_table_matches("src/carrots/mod.rs", &table, &tests, 24);
}

// ---------------------------------------------------------------------------
// Movement

#[test]
fn snakes_move_simultaneously() {
    // Both snakes move in the same tick, on the same board.
    check(
        r#"
        .......
        .aA....
        ....B..
        ....b..
        > A=R B=U
        "#,
        expect![[r#"
            tick 1: A=R B=U
            after tick 1
            .......
            ..aAB..
            ....b..
            .......
            A: len=2 dir=R best=2
            B: len=2 dir=U best=2
        "#]],
    );
}

#[test]
fn moves_in_four_directions() {
    check(
        r#"
        .....
        .....
        ..A..
        .....
        .....
        > A=U
        > A=L
        > A=D
        > A=R
        "#,
        expect![[r#"
            tick 1: A=U
            tick 2: A=L
            tick 3: A=D
            tick 4: A=R
            after tick 4
            .....
            .....
            ..A..
            .....
            .....
            A: len=1 dir=R best=1
        "#]],
    );
}

#[test]
fn no_answer_keeps_direction() {
    // A keeps going up. B has no snake yet: it appears at the end of the
    // first tick facing right, and with no answer goes right.
    check(
        r#"
        game: seed=1
        .....
        .....
        ..A..
        ..a..
        .....
        B: waiting
        > A=-
        show
        > A=- B=-
        "#,
        expect![[r#"
            tick 1: A=-
              B spawned at [2,0]
              B best length 1
            after tick 1
            ..B..
            ..A..
            ..a..
            .....
            .....
            A: len=2 dir=U best=2
            B: len=1 dir=R best=1

            tick 2: A=- B=-
            after tick 2
            ..AB.
            ..a..
            .....
            .....
            .....
            A: len=2 dir=U best=2
            B: len=1 dir=R best=1
        "#]],
    );
}

#[test]
fn empty_field_is_safe() {
    // Boxed in by B, A's only safe move is onto the empty field.
    check(
        r#"
        ......
        .bbb..
        .bAB..
        .b....
        .bb...
        A: dir=U
        > A=D B=R
        "#,
        expect![[r#"
            tick 1: A=D B=R
            after tick 1
            ......
            .bbb..
            .b.bB.
            .bA...
            .b....
            A: len=1 dir=D best=1
            B: len=8 dir=R best=8
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Deaths

#[test]
fn leaving_the_board_kills() {
    // The head that left is dropped; the snake is dead, and its body leaves
    // the board at the end of the tick.
    check(
        r#"
        ....
        .aaA
        ....
        > A=R
        "#,
        expect![[r#"
            tick 1: A=R
              A died: off the board
              A's body removed
            after tick 1
            ....
            ....
            ....
            A: dead since tick 1 len=0 best=3
        "#]],
    );
}

#[test]
fn head_on_another_snake_kills() {
    // B moves on, but the cell A enters is still B's body.
    check(
        r#"
        ...B..
        .aAb..
        ...b..
        ......
        > A=R B=R
        "#,
        expect![[r#"
            tick 1: A=R B=R
              A died: crashed into B
              A's body removed
            after tick 1
            ...bB.
            ...b..
            ......
            ......
            A: dead since tick 1 len=0 best=2
            B: len=3 dir=R best=3
        "#]],
    );
}

#[test]
fn head_on_itself_kills() {
    check(
        r#"
        ...a.
        ..Aa.
        ..aa.
        .....
        A: dir=U
        > A=R
        "#,
        expect![[r#"
            tick 1: A=R
              A died: crashed into itself
              A's body removed
            after tick 1
            .....
            .....
            .....
            .....
            A: dead since tick 1 len=0 best=5
        "#]],
    );
}

#[test]
fn invalid_move_kills() {
    // The runner reports an invalid or unrecognized answer as a forfeit:
    // the snake dies where it is, without moving, so its tail stays in
    // this tick and B's head dies on it.
    check(
        r#"
        .....
        .aA..
        .B...
        .b...
        > A=F B=U
        "#,
        expect![[r#"
            tick 1: A=F B=U
              A died: forfeit
              B died: crashed into A
              A's body removed
              B's body removed
            after tick 1
            .....
            .....
            .....
            .....
            A: dead since tick 1 len=0 best=2
            B: dead since tick 1 len=0 best=2
        "#]],
    );
}

#[test]
fn new_code_kills() {
    // New code is a forfeit too; the snake comes back, with the new
    // program, like after any death.
    check(
        r#"
        game: seed=5
        .....
        .aA..
        .....
        > A=F
        >
        "#,
        expect![[r#"
            tick 1: A=F
              A died: forfeit
              A's body removed
            tick 2: -
              A spawned at [0,2]
            after tick 2
            .....
            .....
            A....
            A: len=1 dir=R best=2
        "#]],
    );
}

#[test]
fn timeout_kills() {
    // A bot that thinks too long forfeits; the others play on.
    check(
        r#"
        .....
        .aA..
        .bB..
        .....
        > A=F B=R
        "#,
        expect![[r#"
            tick 1: A=F B=R
              A died: forfeit
              A's body removed
            after tick 1
            .....
            .....
            ..bB.
            .....
            A: dead since tick 1 len=0 best=2
            B: len=2 dir=R best=2
        "#]],
    );
}

#[test]
fn heads_that_meet_all_die() {
    // Three heads enter the same cell: all three die there.
    check(
        r#"
        .....
        .aA..
        ...Bb
        ..C..
        ..c..
        > A=D B=L C=U
        "#,
        expect![[r#"
            tick 1: A=D B=L C=U
              A died: head-on with B C
              B died: head-on with A C
              C died: head-on with A B
              A's body removed
              B's body removed
              C's body removed
            after tick 1
            .....
            .....
            .....
            .....
            .....
            A: dead since tick 1 len=0 best=2
            B: dead since tick 1 len=0 best=2
            C: dead since tick 1 len=0 best=2
        "#]],
    );
}

#[test]
fn dead_body_leaves_the_board_at_once() {
    // B crashes into A's body and dies; from the board after that tick
    // both bodies are gone, and nothing is drawn in their place.
    check(
        r#"
        ......
        .aaA..
        ..B...
        ..b...
        .bb...
        > A=R B=U
        "#,
        expect![[r#"
            tick 1: A=R B=U
              B died: crashed into A
              B's body removed
            after tick 1
            ......
            ..aaA.
            ......
            ......
            ......
            A: len=3 dir=R best=3
            B: dead since tick 1 len=0 best=4
        "#]],
    );
}

#[test]
fn dying_snake_blocks_in_its_last_tick() {
    // A leaves the board in tick 1; in that same tick B's head enters A's
    // body, which is still there, and B dies too. The bodies leave at the
    // end of the tick.
    check(
        r#"
        .aaA
        ..B.
        ..b.
        > A=U B=U
        "#,
        expect![[r#"
            tick 1: A=U B=U
              A died: off the board
              B died: crashed into A
              A's body removed
              B's body removed
            after tick 1
            ....
            ....
            ....
            A: dead since tick 1 len=0 best=3
            B: dead since tick 1 len=0 best=2
        "#]],
    );
}

#[test]
fn dead_snakes_cells_are_free_next_tick() {
    // A forfeits in tick 1. Its cell is the only free one after the tick
    // (B coils on itself, its head entering the cell its tail leaves): the
    // apple of tick 1 appears there, and in tick 2 B's head enters it and
    // eats the apple. A itself comes back at the end of tick 2, on the one
    // cell then free, which B's tail left.
    check(
        r#"
        game: spawning apples_max=1
        Bbb
        bAb
        bbb
        B: dir=L
        > A=F B=D
        show
        > B=R
        "#,
        expect![[r#"
            tick 1: A=F B=D
              A died: forfeit
              A's body removed
              apple appeared at [1,1]
            after tick 1
            bbb
            Bob
            bbb
            A: dead since tick 1 len=0 best=1
            B: len=8 dir=D best=8

            tick 2: B=R
              B ate the apple at [1,1]
              A spawned at [0,2]
            after tick 2
            bbb
            bBb
            Abb
            A: len=1 dir=R best=1
            B: len=8 dir=R best=8 grow
        "#]],
    );
}

#[test]
fn upstream_dead_body_stays_until_respawn() {
    // Upstream's timing as settings: A dies in tick 1 and its body stays as
    // a snake cell in the boards of ticks 1 and 2, so that B dies on it in
    // tick 2. A's body leaves as A reappears at the end of tick 3; B's stays
    // until tick 4, and A's first move after its death is in tick 4.
    check(
        r#"
        game: seed=9 bodies_stay=true respawn_ticks=2
        .aaA..
        ......
        ..B...
        ..b...
        > A=U B=U
        show
        > B=U
        show
        >
        show
        > A=U
        "#,
        expect![[r#"
            tick 1: A=U B=U
              A died: off the board
            after tick 1
            ..aA..
            ..B...
            ..b...
            ......
            A: dead since tick 1 len=2 best=3
            B: len=2 dir=U best=2

            tick 2: B=U
              B died: crashed into A
            after tick 2
            ..BA..
            ..b...
            ......
            ......
            A: dead since tick 1 len=2 best=3
            B: dead since tick 2 len=2 best=2
            hidden: a at [2,0]

            tick 3: -
              A's body removed
              A spawned at [0,3]
            after tick 3
            ..B...
            ..b...
            ......
            A.....
            A: len=1 dir=R best=3
            B: dead since tick 2 len=2 best=2

            tick 4: A=U
              B's body removed
              B spawned at [2,1]
            after tick 4
            ......
            ..B...
            A.....
            ......
            A: len=1 dir=U best=3
            B: len=1 dir=R best=2
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Tails

#[test]
fn entering_a_vacated_tail_cell_is_allowed() {
    check(
        r#"
        ......
        .aAbbB
        ......
        > A=R B=D
        "#,
        expect![[r#"
            tick 1: A=R B=D
            after tick 1
            ......
            ..aAbb
            .....B
            A: len=2 dir=R best=2
            B: len=3 dir=D best=3
        "#]],
    );
}

#[test]
fn length_two_snake_can_reverse() {
    // The neck is the tail, which leaves as the head enters it.
    check(
        r#"
        .....
        .aA..
        .....
        > A=L
        "#,
        expect![[r#"
            tick 1: A=L
            after tick 1
            .....
            .Aa..
            .....
            A: len=2 dir=L best=2
        "#]],
    );
}

#[test]
fn growing_tail_blocks() {
    // B ate in the last tick, so its tail stays this tick.
    check(
        r#"
        ......
        .aAbbB
        ......
        B: grow
        > A=R B=D
        "#,
        expect![[r#"
            tick 1: A=R B=D
              B grew to 4
              B best length 4
              A died: crashed into B
              A's body removed
            after tick 1
            ......
            ...bbb
            .....B
            A: dead since tick 1 len=0 best=2
            B: len=4 dir=D best=4
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Apples and score

#[test]
fn apple_grows_snake_next_tick() {
    // Eaten in tick 1, the apple makes the snake longer in tick 2.
    check(
        r#"
        ......
        .aAo..
        ......
        > A=R
        show
        > A=R
        "#,
        expect![[r#"
            tick 1: A=R
              A ate the apple at [3,1]
            after tick 1
            ......
            ..aA..
            ......
            A: len=2 dir=R best=2 grow

            tick 2: A=R
              A grew to 3
              A best length 3
            after tick 2
            ......
            ..aaA.
            ......
            A: len=3 dir=R best=3
        "#]],
    );
}

#[test]
fn dying_head_does_not_eat() {
    // Heads that meet on an apple die there; the apple stays under them.
    check(
        r#"
        .......
        .aAoBb.
        .......
        > A=R B=L
        "#,
        expect![[r#"
            tick 1: A=R B=L
              A died: head-on with B
              B died: head-on with A
              A's body removed
              B's body removed
            after tick 1
            .......
            ...o...
            .......
            A: dead since tick 1 len=0 best=2
            B: dead since tick 1 len=0 best=2
        "#]],
    );
}

#[test]
fn score_is_longest_length() {
    // The score rises with the length and never falls with it.
    check(
        r#"
        .......
        .aAoo..
        .......
        A: best=2
        > A=R
        > A=R
        > A=R
        "#,
        expect![[r#"
            tick 1: A=R
              A ate the apple at [3,1]
            tick 2: A=R
              A grew to 3
              A best length 3
              A ate the apple at [4,1]
            tick 3: A=R
              A grew to 4
              A best length 4
            after tick 3
            .......
            ..aaaA.
            .......
            A: len=4 dir=R best=4
        "#]],
    );
}

#[test]
fn score_survives_death() {
    check(
        r#"
        game: seed=4
        .....
        .aA..
        .....
        A: best=7
        > A=F
        >
        "#,
        expect![[r#"
            tick 1: A=F
              A died: forfeit
              A's body removed
            tick 2: -
              A spawned at [1,0]
            after tick 2
            .A...
            .....
            .....
            A: len=1 dir=R best=7
        "#]],
    );
}

#[test]
fn dead_snake_respawns_at_length_one() {
    // Dead in tick 1 (it left the board) and gone from the board after
    // tick 1; back at length 1 on a random free cell at the end of tick 2,
    // the next time step, and moving in tick 3.
    check(
        r#"
        game: seed=9
        .aaA..
        ......
        ......
        > A=U
        show
        >
        show
        > A=U
        "#,
        expect![[r#"
            tick 1: A=U
              A died: off the board
              A's body removed
            after tick 1
            ......
            ......
            ......
            A: dead since tick 1 len=0 best=3

            tick 2: -
              A spawned at [2,2]
            after tick 2
            ......
            ......
            ..A...
            A: len=1 dir=R best=3

            tick 3: A=U
            after tick 3
            ......
            ..A...
            ......
            A: len=1 dir=U best=3
        "#]],
    );
}

#[test]
fn respawns_draw_by_score_whatever_the_seats() {
    // A 3-long and a 2-long snake leave the board in tick 1 and come back
    // in tick 2. The seats draw their cells in order of score, lowest
    // first: with the seats swapped, the same snake (the 2-long one, B in
    // the first case, A in the second) gets the same cell.
    check(
        r#"
        game: seed=9
        .aaA..
        ......
        ......
        .bB...
        > A=U B=D
        >
        "#,
        expect![[r#"
            tick 1: A=U B=D
              A died: off the board
              B died: off the board
              A's body removed
              B's body removed
            tick 2: -
              B spawned at [0,3]
              A spawned at [2,1]
            after tick 2
            ......
            ..A...
            ......
            B.....
            A: len=1 dir=R best=3
            B: len=1 dir=R best=2
        "#]],
    );
    check(
        r#"
        game: seed=9
        .bbB..
        ......
        ......
        .aA...
        > B=U A=D
        >
        "#,
        expect![[r#"
            tick 1: B=U A=D
              A died: off the board
              B died: off the board
              A's body removed
              B's body removed
            tick 2: -
              A spawned at [0,3]
              B spawned at [2,1]
            after tick 2
            ......
            ..B...
            ......
            A.....
            A: len=1 dir=R best=2
            B: len=1 dir=R best=3
        "#]],
    );
}

#[test]
fn apples_spawn_one_per_tick_up_to_cap() {
    // No apples at the start; one per tick while fewer than apples_max.
    check(
        r#"
        game: seed=1 spawning apples_max=2
        .....
        .....
        .....
        A: absent
        > x3
        "#,
        expect![[r#"
            tick 1: -
              apple appeared at [1,0]
            tick 2: -
              apple appeared at [3,1]
            tick 3: -
            after tick 3
            .o...
            ...o.
            .....
            A: absent best=0
        "#]],
    );
}

#[test]
fn player_joins_and_leaves() {
    // A leaving player's snake leaves the board at once; a joining one
    // appears at the end of the next tick. The seat keeps its score.
    check(
        r#"
        game: seed=6
        .....
        .aA..
        .....
        B: waiting
        leave A
        join B
        > B=-
        show
        join A
        >
        "#,
        expect![[r#"
            left: A
            joined: B
            tick 1: B=-
              B spawned at [2,1]
              B best length 1
            after tick 1
            .....
            ..B..
            .....
            A: absent best=2
            B: len=1 dir=R best=1

            joined: A
            tick 2: -
              A spawned at [4,0]
            after tick 2
            ....A
            ...B.
            .....
            A: len=1 dir=R best=2
            B: len=1 dir=R best=1
        "#]],
    );
}

// ---------------------------------------------------------------------------

/// The one `check` helper of the CodeCarrots rule tests, and its notation.
///
/// A case is a drawn position, a script of ticks, and the expected report
/// as text (an `expect![[...]]`, so `UPDATE_EXPECT=1` rewrites it; every
/// expectation must still be read against CodeCarrots' description).
///
/// # Input
///
/// ```text
/// game: seed=3 tick=10 spawning apples_max=5
/// .....
/// .aAo.
/// ..B..
/// A: dir=R best=5 grow
/// B: dead=1
/// C: waiting
/// leave A
/// join C
/// > A=U B=R
/// > A=F
/// show
/// > x3
/// ```
///
/// * `game:` (optional, first) holds the helper's keys `seed=N` (default
///   1), `tick=N` (ticks already played, default 0) and the flag `spawning`
///   (apples appear; off by default so that a position changes only by the
///   rule under test). Every other `key=value` is a setting for
///   `Settings::from_pairs`; the board's size comes from the drawing.
/// * The board: `.` empty, `o` apple, snakes as letters: the upper-case
///   `A`..`Z` the head of seat 0..25, the lower-case letter its body, found
///   by walking from the head to the only unvisited adjacent cell of the
///   same letter (`dir=` settles the first step when there are two).
/// * Snake lines `A: ...` set `dir=U|R|D|L` (default: from the neck to the
///   head, or right), `best=N` (default: the length), `grow` (ate in the
///   last tick), `dead=N` (died N ticks before the case starts), `waiting`
///   (present, no snake yet) or `absent`. Seats below the highest one used
///   that appear nowhere are absent.
/// * `leave A` and `join A` call `set_present` between ticks.
/// * `>` runs one tick: `A=U` gives seat A the engine's compact action
///   (`U` `R` `D` `L` a move, `-` none, `F` forfeit); seats not named send
///   nothing. `xN` runs the tick N times.
/// * `show` prints the position at that point.
///
/// # Output
///
/// Each tick prints `tick N:` and its moves, then one line per event,
/// indented. Then, for every `show` and at the end, the position: the board
/// in the input notation, dead bodies drawn first and live snakes over them,
/// and one line per seat. Whatever is drawn over, an apple under a dead head
/// or a dead head under a body, is listed on a `hidden:` line.
mod check {
    use expect_test::Expect;
    use snakepit_engine::carrots::{Action, Carrots, Death, Event, Life, Settings};
    use snakepit_engine::{Dir, Game, Pos};
    use std::fmt::Write;

    /// Runs a case written in the notation above and compares its report.
    pub fn check(input: &str, expect: Expect) {
        let case = Case::parse(input);
        expect.assert_eq(&case.run());
    }

    enum Step {
        Tick { moves: Vec<(usize, Action)>, times: u32 },
        Presence { seat: usize, present: bool },
        Show,
    }

    #[derive(Default)]
    struct Attrs {
        dir: Option<Dir>,
        best: Option<u32>,
        grow: bool,
        dead: Option<u64>,
        waiting: bool,
        absent: bool,
    }

    struct Case {
        pairs: Vec<(String, String)>,
        seed: u64,
        tick: u64,
        spawning: bool,
        rows: Vec<Vec<char>>,
        attrs: Vec<Option<Attrs>>,
        script: Vec<Step>,
    }

    use crate::notation::{dedent, letter_of as letter};

    /// Seats the notation's letters name: `A` to `Z`.
    const SEATS: usize = 26;

    fn seat_of(c: char) -> Option<usize> {
        crate::notation::seat_of(c, SEATS)
    }


    fn is_snake_line(line: &str) -> bool {
        crate::notation::is_seat_line(line, SEATS)
    }

    fn one_seat(word: &str) -> usize {
        let mut cs = word.chars();
        match (cs.next().and_then(seat_of), cs.next()) {
            (Some(s), None) => s,
            _ => panic!("bad seat {word:?}"),
        }
    }

    impl Case {
        fn parse(input: &str) -> Case {
            let mut lines = dedent(input).into_iter().peekable();
            let (mut pairs, mut seed, mut tick, mut spawning) = (Vec::new(), 1, 0, false);
            if let Some(game) = lines.peek().and_then(|l| l.strip_prefix("game:")) {
                for word in game.split_whitespace() {
                    match word.split_once('=') {
                        Some(("seed", v)) => seed = v.parse().expect("game: seed=N"),
                        Some(("tick", v)) => tick = v.parse().expect("game: tick=N"),
                        Some((k, v)) => pairs.push((k.to_string(), v.to_string())),
                        None if word == "spawning" => spawning = true,
                        None => panic!("game: unknown flag {word:?}"),
                    }
                }
                lines.next();
            }
            let mut rows = Vec::new();
            while let Some(line) = lines.peek() {
                let first = line.split_whitespace().next().unwrap_or("");
                if line.trim().is_empty()
                    || line.starts_with('>')
                    || ["show", "join", "leave"].contains(&first)
                    || is_snake_line(line)
                {
                    break;
                }
                rows.push(line.chars().collect::<Vec<char>>());
                lines.next();
            }
            assert!(!rows.is_empty(), "the case has no board");
            for (y, row) in rows.iter().enumerate() {
                assert_eq!(row.len(), rows[0].len(), "board row {y} has another width than row 0");
            }
            let mut attrs: Vec<Option<Attrs>> = Vec::new();
            let mut script = Vec::new();
            for line in lines {
                let line = line.trim();
                let words: Vec<&str> = line.split_whitespace().collect();
                match words.as_slice() {
                    [] => {}
                    ["show"] => script.push(Step::Show),
                    ["join", who] => script.push(Step::Presence { seat: one_seat(who), present: true }),
                    ["leave", who] => script.push(Step::Presence { seat: one_seat(who), present: false }),
                    _ if line.starts_with('>') => script.push(Case::parse_tick(&line[1..])),
                    _ if is_snake_line(line) => {
                        let seat = seat_of(line.chars().next().unwrap_or('?')).unwrap_or(0);
                        if attrs.len() <= seat {
                            attrs.resize_with(seat + 1, || None);
                        }
                        attrs[seat] = Some(Case::parse_attrs(&line[2..]));
                    }
                    _ => panic!("cannot read line {line:?}"),
                }
            }
            Case { pairs, seed, tick, spawning, rows, attrs, script }
        }

        fn parse_tick(text: &str) -> Step {
            let mut moves = Vec::new();
            let mut times = 1;
            for word in text.split_whitespace() {
                if let Some(n) = word.strip_prefix('x') {
                    times = n.parse().unwrap_or_else(|_| panic!("bad repeat {word:?}"));
                    continue;
                }
                let (who, what) = word.split_once('=').unwrap_or_else(|| panic!("bad move {word:?}"));
                let action = Action::from_text(what).unwrap_or_else(|e| panic!("{e}"));
                moves.push((one_seat(who), action));
            }
            Step::Tick { moves, times }
        }

        fn parse_attrs(text: &str) -> Attrs {
            let mut a = Attrs::default();
            for word in text.split_whitespace() {
                match word.split_once('=') {
                    Some(("dir", v)) => a.dir = v.chars().next().and_then(Dir::from_letter),
                    Some(("best", v)) => a.best = Some(v.parse().expect("best=N")),
                    Some(("dead", v)) => a.dead = Some(v.parse().expect("dead=N")),
                    None if word == "grow" => a.grow = true,
                    None if word == "waiting" => a.waiting = true,
                    None if word == "absent" => a.absent = true,
                    _ => panic!("unknown snake attribute {word:?}"),
                }
            }
            a
        }

        fn cell(&self, p: Pos) -> char {
            self.rows.get(p.y as usize).and_then(|r| r.get(p.x as usize)).copied().unwrap_or('.')
        }

        fn body(&self, head: char, dir: Option<Dir>) -> Vec<Pos> {
            let lower = head.to_ascii_lowercase();
            let find = |c: char| -> Vec<Pos> {
                let mut v = Vec::new();
                for (y, row) in self.rows.iter().enumerate() {
                    for (x, &g) in row.iter().enumerate() {
                        if g == c {
                            v.push(Pos::new(x as i32, y as i32));
                        }
                    }
                }
                v
            };
            let start = match find(head).as_slice() {
                [] => return Vec::new(),
                [h] => *h,
                _ => panic!("snake {head} has several heads"),
            };
            let mut body = vec![start];
            loop {
                let at = body[body.len() - 1];
                let next: Vec<Pos> = Dir::ALL
                    .iter()
                    .map(|&d| at.step(d))
                    .filter(|p| p.x >= 0 && p.y >= 0 && self.cell(*p) == lower && !body.contains(p))
                    .collect();
                let chosen = match (next.as_slice(), dir) {
                    ([], _) => break,
                    ([p], _) => *p,
                    (_, Some(d)) if body.len() == 1 && next.contains(&at.step(d.opposite())) => at.step(d.opposite()),
                    _ => panic!("snake {head} is ambiguous at {at}"),
                };
                body.push(chosen);
            }
            let stray = find(lower).into_iter().filter(|p| !body.contains(p)).count();
            assert_eq!(stray, 0, "cells of snake {head} are not joined to its body");
            body
        }

        fn build(&self) -> Carrots {
            let mut pairs: Vec<(String, String)> = vec![
                ("width".to_string(), self.rows[0].len().to_string()),
                ("height".to_string(), self.rows.len().to_string()),
            ];
            pairs.extend(self.pairs.iter().cloned());
            let settings = Settings::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
                .unwrap_or_else(|e| panic!("game: {e}"));
            let drawn = self.rows.iter().flatten().filter_map(|&c| seat_of(c)).max().map_or(0, |s| s + 1);
            let seats = drawn.max(self.attrs.len());
            let mut game = Carrots::new(settings, 1, self.seed).expect("the game is created");
            let none = Attrs::default();
            let mut snakes = Vec::new();
            for seat in 0..seats {
                let attrs = self.attrs.get(seat).and_then(Option::as_ref);
                let a = attrs.unwrap_or(&none);
                let body = self.body(letter(seat), a.dir);
                let dir = a.dir.or_else(|| body.get(1).and_then(|n| n.dir_to(body[0]))).unwrap_or(Dir::Right);
                let mut s = Carrots::make_snake(body, dir);
                s.best = a.best.unwrap_or(s.best);
                s.grow = a.grow;
                s.life = if let Some(ago) = a.dead {
                    Life::Dead { tick: self.tick.max(ago) - ago }
                } else if a.waiting || (attrs.is_some() && s.body.is_empty() && !a.absent) {
                    Life::Waiting
                } else if a.absent || s.body.is_empty() {
                    Life::Absent
                } else {
                    Life::Alive
                };
                snakes.push(s);
            }
            let apples: Vec<Pos> = (0..self.rows.len() * self.rows[0].len())
                .map(|i| Pos::new((i % self.rows[0].len()) as i32, (i / self.rows[0].len()) as i32))
                .filter(|&p| self.cell(p) == 'o')
                .collect();
            game.set_position(&apples, snakes);
            let ago = self.attrs.iter().flatten().filter_map(|a| a.dead).max().unwrap_or(0);
            game.set_tick(self.tick.max(ago));
            game.set_apple_spawning(self.spawning);
            game
        }

        fn run(&self) -> String {
            let mut game = self.build();
            let mut out = String::new();
            for step in &self.script {
                match step {
                    Step::Show => {
                        out.push_str(&position(&game));
                        out.push('\n');
                    }
                    Step::Presence { seat, present } => {
                        game.set_present(*seat, *present);
                        let what = if *present { "joined" } else { "left" };
                        writeln!(out, "{what}: {}", letter(*seat)).ok();
                    }
                    Step::Tick { moves, times } => {
                        for _ in 0..*times {
                            let mut actions = vec![Action::Keep; game.seats()];
                            let mut shown = Vec::new();
                            for &(seat, action) in moves {
                                actions[seat] = action;
                                shown.push(format!("{}={}", letter(seat), action.to_text()));
                            }
                            let shown = if shown.is_empty() { "-".to_string() } else { shown.join(" ") };
                            let events = game.step(&actions);
                            writeln!(out, "tick {}: {shown}", game.tick()).ok();
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

    fn position(game: &Carrots) -> String {
        let (w, h) = (game.width(), game.height());
        let mut grid = vec![vec!['.'; w]; h];
        let mut what: Vec<Vec<Option<String>>> = vec![vec![None; w]; h];
        let mut hidden = Vec::new();
        let mut draw = |p: Pos, glyph: char, name: String, grid: &mut Vec<Vec<char>>| {
            let (x, y) = (p.x as usize, p.y as usize);
            if let Some(old) = what[y][x].replace(name) {
                hidden.push(format!("{old} at {p}"));
            }
            grid[y][x] = glyph;
        };
        for p in game.apples() {
            draw(p, 'o', "apple".to_string(), &mut grid);
        }
        let snakes = game.snakes();
        let dead = (0..snakes.len()).filter(|&s| matches!(snakes[s].life, Life::Dead { .. }));
        let alive = (0..snakes.len()).filter(|&s| snakes[s].is_alive());
        for seat in dead.chain(alive) {
            for (k, &c) in snakes[seat].body.iter().enumerate().rev() {
                let g = if k == 0 { letter(seat) } else { letter(seat).to_ascii_lowercase() };
                draw(c, g, g.to_string(), &mut grid);
            }
        }
        let mut out = format!("after tick {}\n", game.tick());
        for row in grid {
            out.extend(row);
            out.push('\n');
        }
        for (seat, s) in snakes.iter().enumerate() {
            let state = match s.life {
                Life::Alive => String::new(),
                Life::Dead { tick } => format!(" dead since tick {tick}"),
                Life::Waiting => " waiting".to_string(),
                Life::Absent => " absent".to_string(),
            };
            let body = if s.is_alive() || matches!(s.life, Life::Dead { .. }) {
                let dir = if s.is_alive() { format!(" dir={}", s.dir.letter()) } else { String::new() };
                format!(" len={}{dir}", s.len())
            } else {
                String::new()
            };
            let grow = if s.grow { " grow" } else { "" };
            writeln!(out, "{}:{state}{body} best={}{grow}", letter(seat), s.best).ok();
        }
        if !hidden.is_empty() {
            writeln!(out, "hidden: {}", hidden.join(", ")).ok();
        }
        out
    }

    fn event_text(e: &Event) -> String {
        let l = letter;
        match e {
            Event::Spawned { snake, at } => format!("{} spawned at {at}", l(*snake)),
            Event::Grew { snake, len } => format!("{} grew to {len}", l(*snake)),
            Event::Ate { snake, at } => format!("{} ate the apple at {at}", l(*snake)),
            Event::Died { snake, cause } => {
                let cause = match cause {
                    Death::OffBoard => "off the board".to_string(),
                    Death::HeadOn(others) => {
                        let names: Vec<String> = others.iter().map(|&o| l(o).to_string()).collect();
                        format!("head-on with {}", names.join(" "))
                    }
                    Death::Crash(o) if o == snake => "crashed into itself".to_string(),
                    Death::Crash(o) => format!("crashed into {}", l(*o)),
                    Death::Forfeit => "forfeit".to_string(),
                };
                format!("{} died: {cause}", l(*snake))
            }
            Event::Removed { snake } => format!("{}'s body removed", l(*snake)),
            Event::AppleSpawned { at } => format!("apple appeared at {at}"),
            Event::Scored { snake, best } => format!("{} best length {best}", l(*snake)),
        }
    }
}
