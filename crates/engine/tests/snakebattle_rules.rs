//! One test per rule sentence of CodeBattle's SnakeBattle description
//! (SnakeBattle), plus its five worked fight examples and the differences of
//! the `codenjoy` profile.
//!
//! The test names are the ones in the table of `src/snakebattle/mod.rs`.
//! Every case goes through `common::check`; its notation is documented in
//! `tests/common/mod.rs`. The expectations were checked by hand against the
//! CodeBattle description: when `UPDATE_EXPECT=1` changes one, read the new
//! text against the rule before keeping it.
//!
//! Fights use `rounds=false` where a round end would only add a winner's
//! bonus to the picture; the round tests show that part.

mod notation;

mod common;

use common::check;
use expect_test::expect;
use std::fmt::Write;

/// The table of rule sentences in `src/snakebattle/mod.rs` and the tests
/// of this file name each other exactly.
#[test]
fn rule_table_matches_tests() {
    let mut table = notation::table_tests(include_str!("../src/snakebattle/mod.rs"));
    // The table writes the examples as a range.
    table.extend((2..=4).map(|i| format!("fight_example_{i}")));
    let tests = notation::test_fns(include_str!("snakebattle_rules.rs"));
    notation::assert_table_matches("src/snakebattle/mod.rs", &table, &tests, 48);
}

// ---------------------------------------------------------------------------
// Movement

#[test]
fn default_direction_is_right() {
    // A snake the engine spawns faces right and, with no command, goes right.
    // Rounds are off so that it moves in the tick it appears.
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼
        ☼#...☼
        ☼☼☼☼☼☼
        A:
        > -
        "#,
        expect![[r#"
            tick 1: -
              A spawned at [1,1]
            round 1 tick 1
            ☼☼☼☼☼☼
            ☼aA..☼
            ☼☼☼☼☼☼
            A: len=2 dir=R score=0
        "#]],
    );
}

#[test]
fn no_command_keeps_direction() {
    check(
        r#"
        ☼☼☼☼☼☼
        ☼..a.☼
        ☼..A.☼
        ☼....☼
        ☼....☼
        ☼☼☼☼☼☼
        > A=-
        >
        "#,
        expect![[r#"
            tick 1: A=-
            tick 2: -
            round 1 tick 2
            ☼☼☼☼☼☼
            ☼....☼
            ☼....☼
            ☼..a.☼
            ☼..A.☼
            ☼☼☼☼☼☼
            A: len=2 dir=D score=0
        "#]],
    );
}

#[test]
fn reversal_is_ignored() {
    // Facing right, LEFT is ignored; facing down, UP is ignored.
    check(
        r#"
        ☼☼☼☼☼☼☼☼
        ☼aA....☼
        ☼....b.☼
        ☼....B.☼
        ☼......☼
        ☼☼☼☼☼☼☼☼
        > A=L B=U
        "#,
        expect![[r#"
            tick 1: A=L B=U
            round 1 tick 1
            ☼☼☼☼☼☼☼☼
            ☼.aA...☼
            ☼......☼
            ☼....b.☼
            ☼....B.☼
            ☼☼☼☼☼☼☼☼
            A: len=2 dir=R score=0
            B: len=2 dir=D score=0
        "#]],
    );
}

#[test]
fn move_into_own_vacated_tail_is_not_a_bite() {
    // The head enters the cell the tail leaves in the same move.
    check(
        r#"
        ☼☼☼☼☼
        ☼Aa.☼
        ☼aa.☼
        ☼...☼
        ☼☼☼☼☼
        A: dir=U
        > A=R
        "#,
        expect![[r#"
            tick 1: A=R
            round 1 tick 1
            ☼☼☼☼☼
            ☼aA.☼
            ☼aa.☼
            ☼...☼
            ☼☼☼☼☼
            A: len=4 dir=R score=0
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Deaths by terrain

#[test]
fn wall_kills() {
    check(
        r#"
        ☼☼☼☼☼
        ☼.aA☼
        ☼...☼
        ☼☼☼☼☼
        > A=R
        "#,
        expect![[r#"
            tick 1: A=R
              A died: wall
              round 1 ended (last alive), winners: none
            countdown 5 after round 1
            ☼☼☼☼☼
            ☼..aA
            ☼...☼
            ☼☼☼☼☼
            A: dead len=2 dir=R score=0
        "#]],
    );
}

#[test]
fn start_floor_kills() {
    check(
        r#"
        ☼☼☼☼☼☼
        ☼aA#.☼
        ☼....☼
        ☼☼☼☼☼☼
        > A=R
        "#,
        expect![[r#"
            tick 1: A=R
              A died: start floor
              round 1 ended (last alive), winners: none
            countdown 5 after round 1
            ☼☼☼☼☼☼
            ☼.aA.☼
            ☼....☼
            ☼☼☼☼☼☼
            A: dead len=2 dir=R score=0
        "#]],
    );
}

#[test]
fn crash_into_body_kills() {
    // A enters B's fourth cell without fury: A dies, and B is paid for A's
    // length (the description's example 5 pays the owner of the body).
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼
        ☼..b..☼
        ☼aAb..☼
        ☼..b..☼
        ☼..B..☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        > A=R
        "#,
        expect![[r#"
            tick 1: A=R
              A died: crashed into B
              B +20 (kill A)
            round 1 tick 1
            ☼☼☼☼☼☼☼
            ☼.....☼
            ☼.ab..☼
            ☼..b..☼
            ☼..b..☼
            ☼..B..☼
            ☼☼☼☼☼☼☼
            A: dead len=2 dir=R score=0
            B: len=4 dir=D score=20
            hidden: A at [3,2]
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Items

#[test]
fn stone_shrinks_by_three() {
    check(
        r#"
        ☼☼☼☼☼☼☼☼☼
        ☼aaaaaA●☼
        ☼.......☼
        ☼☼☼☼☼☼☼☼☼
        > A=R
        "#,
        expect![[r#"
            tick 1: A=R
              A ate stone at [7,1]
              A +15 (stone)
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼
            ☼....aaA☼
            ☼.......☼
            ☼☼☼☼☼☼☼☼☼
            A: len=3 dir=R stones=1 score=15
        "#]],
    );
}

#[test]
fn stone_kills_short_snake() {
    // Length 4 - 3 = 1 is below 2: A dies (and a fatal stone pays nothing).
    // Length 5 - 3 = 2 survives.
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼
        ☼aaaA●.☼
        ☼bbbbB●☼
        ☼☼☼☼☼☼☼☼
        > A=R B=R
        "#,
        expect![[r#"
            tick 1: A=R B=R
              A ate stone at [5,1]
              A died: stone
              B ate stone at [6,2]
              B +15 (stone)
            round 1 tick 1
            ☼☼☼☼☼☼☼☼
            ☼.aaaA.☼
            ☼....bB☼
            ☼☼☼☼☼☼☼☼
            A: dead len=4 dir=R stones=1 score=0
            B: len=2 dir=R stones=1 score=15
        "#]],
    );
}

#[test]
fn apple_grows() {
    // The growth is immediate: the tail stays on the cell it would have left.
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼aA○..☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        > A=R
        show
        > A=R
        "#,
        expect![[r#"
            tick 1: A=R
              A ate apple at [3,1]
              A +1 (apple)
            round 1 tick 1
            ☼☼☼☼☼☼☼
            ☼aaA..☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: len=3 dir=R score=1

            tick 2: A=R
            round 1 tick 2
            ☼☼☼☼☼☼☼
            ☼.aaA.☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: len=3 dir=R score=1
        "#]],
    );
}

#[test]
fn gold_scores() {
    check(
        r#"
        ☼☼☼☼☼☼
        ☼aA$.☼
        ☼....☼
        ☼☼☼☼☼☼
        > A=R
        "#,
        expect![[r#"
            tick 1: A=R
              A ate gold at [3,1]
              A +10 (gold)
            round 1 tick 1
            ☼☼☼☼☼☼
            ☼.aA.☼
            ☼....☼
            ☼☼☼☼☼☼
            A: len=2 dir=R score=10
        "#]],
    );
}

#[test]
fn eaten_objects_respawn() {
    // Step 6 of the order of processing: in one tick A eats an apple, B
    // gold, C a fury pill and D a stone (with fury, so it keeps its
    // length). Each comes back in that tick as one of its kind on a free
    // cell, and nothing else appears: the `codebattle` profile rolls no
    // dice, so the field keeps the objects it had.
    check(
        r#"
        game: spawning seed=3 rounds=false
        ☼☼☼☼☼☼☼☼☼
        ☼aA○....☼
        ☼bB$....☼
        ☼cC®....☼
        ☼dD●....☼
        ☼.......☼
        ☼.......☼
        ☼☼☼☼☼☼☼☼☼
        D: fury=5
        > A=R B=R C=R D=R
        "#,
        expect![[r#"
            tick 1: A=R B=R C=R D=R
              A ate apple at [3,1]
              A +1 (apple)
              B ate gold at [3,2]
              B +10 (gold)
              C ate fury pill at [3,3]
              D ate stone at [3,4]
              D +15 (stone)
              apple appeared at [3,5]
              gold appeared at [7,1]
              fury pill appeared at [5,2]
              stone appeared at [6,3]
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼
            ☼aaA...$☼
            ☼.bB.®..☼
            ☼.cC..●.☼
            ☼.dD....☼
            ☼..○....☼
            ☼.......☼
            ☼☼☼☼☼☼☼☼☼
            A: len=3 dir=R score=1
            B: len=2 dir=R score=10
            C: len=2 dir=R fury=15 score=0
            D: len=2 dir=R fury=4 stones=1 score=15
        "#]],
    );
}

#[test]
fn codebattle_objects_appear_only_for_those_eaten() {
    // No dice in the `codebattle` profile: a field that starts without
    // stones or apples gets none however long nobody eats (upstream's dice
    // would add a stone at once, as none is left, and apples after it).
    check(
        r#"
        game: spawning seed=3 rounds=false
        ☼☼☼☼☼☼☼☼
        ☼aA....☼
        ☼......☼
        ☼.....$☼
        ☼☼☼☼☼☼☼☼
        > A=D
        > A=R
        > A=R
        > A=U
        "#,
        expect![[r#"
            tick 1: A=D
            tick 2: A=R
            tick 3: A=R
            tick 4: A=U
            round 1 tick 4
            ☼☼☼☼☼☼☼☼
            ☼...A..☼
            ☼...a..☼
            ☼.....$☼
            ☼☼☼☼☼☼☼☼
            A: len=2 dir=U score=0
        "#]],
    );
}

#[test]
fn codebattle_dice_is_a_setting() {
    // `dice=true` brings upstream's dice back on top of the replacements:
    // the same field as above gets a stone in the first tick.
    check(
        r#"
        game: spawning seed=3 rounds=false dice=true
        ☼☼☼☼☼☼☼☼
        ☼aA....☼
        ☼......☼
        ☼.....$☼
        ☼☼☼☼☼☼☼☼
        > A=D
        "#,
        expect![[r#"
            tick 1: A=D
              stone appeared at [4,2]
            round 1 tick 1
            ☼☼☼☼☼☼☼☼
            ☼.a....☼
            ☼.A.●..☼
            ☼.....$☼
            ☼☼☼☼☼☼☼☼
            A: len=2 dir=D score=0
        "#]],
    );
}

#[test]
fn codenjoy_eaten_objects_wait_for_the_dice() {
    // The same meals under upstream's spawner (`replace_eaten=false
    // dice=true`, as in the `codenjoy` profile): only its dice places
    // objects, at most one a tick, here a stone (none is left on the board).
    check(
        r#"
        game: spawning seed=3 rounds=false replace_eaten=false dice=true
        ☼☼☼☼☼☼☼☼☼
        ☼aA○....☼
        ☼bB$....☼
        ☼cC®....☼
        ☼dD●....☼
        ☼.......☼
        ☼.......☼
        ☼☼☼☼☼☼☼☼☼
        D: fury=5
        > A=R B=R C=R D=R
        "#,
        expect![[r#"
            tick 1: A=R B=R C=R D=R
              A ate apple at [3,1]
              A +1 (apple)
              B ate gold at [3,2]
              B +10 (gold)
              C ate fury pill at [3,3]
              D ate stone at [3,4]
              D +15 (stone)
              stone appeared at [3,5]
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼
            ☼aaA....☼
            ☼.bB....☼
            ☼.cC....☼
            ☼.dD....☼
            ☼..●....☼
            ☼.......☼
            ☼☼☼☼☼☼☼☼☼
            A: len=3 dir=R score=1
            B: len=2 dir=R score=10
            C: len=2 dir=R fury=15 score=0
            D: len=2 dir=R fury=4 stones=1 score=15
        "#]],
    );
}

/// The start of a game on a map drawn in the map glyphs: what each cell
/// holds before the first tick (`.` empty; the snake that appears on the
/// start floor is left out), under settings given as `key=value` words.
fn map_start(settings: &str, map: &str) -> String {
    use snakepit_engine::snakebattle::{Item, Map, Settings, SnakeBattle, Terrain};
    let pairs = settings.split_whitespace().map(|w| w.split_once('=').expect("key=value"));
    let settings = Settings::from_pairs(pairs).expect("valid settings");
    let map = Map::parse(&notation::dedent(map).join("\n")).expect("the map parses");
    let game = SnakeBattle::new(settings, map, 1, 1).expect("the game starts");
    let map = game.map();
    let mut out = String::new();
    for (i, (t, item)) in map.terrain.iter().zip(game.items()).enumerate() {
        out.push(match (t, item) {
            (Terrain::Wall, _) => '☼',
            (Terrain::StartFloor, _) => '#',
            (Terrain::Empty, None) => '.',
            (Terrain::Empty, Some(Item::Apple)) => '○',
            (Terrain::Empty, Some(Item::Stone)) => '●',
            (Terrain::Empty, Some(Item::Gold)) => '$',
            (Terrain::Empty, Some(Item::FuryPill)) => '®',
            (Terrain::Empty, Some(Item::FlyingPill)) => '©',
        });
        if (i + 1) % map.size == 0 {
            out.push('\n');
        }
    }
    writeln!(out, "fury pills: {}", game.item_count(Item::FuryPill)).ok();
    out
}

/// The map used by the two tests of the legacy pill glyphs: `%` (fury
/// pill) and `@` (flying pill) as old Codenjoy maps draw them, next to a
/// `®` and a `©` in today's glyphs.
const LEGACY_PILLS_MAP: &str = "
    ☼☼☼☼☼☼
    ☼#  %☼
    ☼ @  ☼
    ☼ ®© ☼
    ☼○   ☼
    ☼☼☼☼☼☼
";

#[test]
fn map_percent_is_a_fury_pill() {
    // CodeBattle's sample board draws a fury pill as `%`, and the default
    // map has one: in the `codebattle` profile it is a fury pill (which,
    // eaten, comes back as one like every object). `@` stays empty: the
    // CodeBattle game has no flying pill. A drawn `©` is one all the same.
    expect![[r#"
        ☼☼☼☼☼☼
        ☼#..®☼
        ☼....☼
        ☼.®©.☼
        ☼○...☼
        ☼☼☼☼☼☼
        fury pills: 2
    "#]]
    .assert_eq(&map_start("profile=codebattle", LEGACY_PILLS_MAP));
    let default = map_start("profile=codebattle", snakepit_engine::snakebattle::DEFAULT_MAP);
    assert!(default.ends_with("fury pills: 1\n"), "{default}");
}

#[test]
fn codenjoy_map_percent_is_empty() {
    // Upstream's level reader knows neither `%` nor `@`: both are empty
    // cells, and pills come from the dice. `map_percent_is_fury` is the
    // setting behind the difference.
    expect![[r#"
        ☼☼☼☼☼☼
        ☼#...☼
        ☼....☼
        ☼.®©.☼
        ☼○...☼
        ☼☼☼☼☼☼
        fury pills: 1
    "#]]
    .assert_eq(&map_start("profile=codenjoy", LEGACY_PILLS_MAP));
    let default = map_start("profile=codenjoy", snakepit_engine::snakebattle::DEFAULT_MAP);
    assert!(default.ends_with("fury pills: 0\n"), "{default}");
    let mixed = map_start("profile=codenjoy map_percent_is_fury=true", LEGACY_PILLS_MAP);
    assert!(mixed.ends_with("fury pills: 2\n"), "{mixed}");
}

#[test]
fn no_stone_spawns_right_of_start_floor() {
    // A circles in its pocket; the only free cell is right of the start
    // floor. No stone is on the board, so one is due, but a snake appearing
    // on that floor would run into it: the apple that is due as well takes
    // the cell instead (upstream's spawner refuses the stone there).
    check(
        r#"
        game: spawning rounds=false dice=true
        ☼☼☼☼☼☼☼
        ☼#.☼aA☼
        ☼☼☼☼aa☼
        ☼☼☼☼☼☼☼
        A: dir=U
        > A=L
        "#,
        expect![[r#"
            tick 1: A=L
              apple appeared at [2,1]
            round 1 tick 1
            ☼☼☼☼☼☼☼
            ☼#○☼Aa☼
            ☼☼☼☼aa☼
            ☼☼☼☼☼☼☼
            A: len=4 dir=L score=0
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Fury

#[test]
fn fury_lasts_fifteen_ticks() {
    // A eats the pill in tick 1. B and C run alongside at A's speed. In tick
    // 15 A still has fury and bites B; in tick 16 it has none and dies on C.
    check(
        r#"
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼..aA®................☼
        ☼bbbbB................☼
        ☼.ccC.................☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        > A=R
        > x13
        show
        > A=D
        > -
        "#,
        expect![[r#"
            tick 1: A=R
              A ate fury pill at [5,1]
            tick 2: -
            tick 3: -
            tick 4: -
            tick 5: -
            tick 6: -
            tick 7: -
            tick 8: -
            tick 9: -
            tick 10: -
            tick 11: -
            tick 12: -
            tick 13: -
            tick 14: -
            round 1 tick 14
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼................aA...☼
            ☼..............bbbbB..☼
            ☼...............ccC...☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: len=2 dir=R fury=2 score=0
            B: len=5 dir=R score=0
            C: len=3 dir=R score=0

            tick 15: A=D
              A bit B, who loses 3
              A +20 (bite B)
            tick 16: -
              A died: crashed into C
              C +20 (kill A)
            round 1 tick 16
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼.....................☼
            ☼.................a.bB☼
            ☼.................ccC.☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: dead len=2 dir=D score=20
            B: len=2 dir=R score=0
            C: len=3 dir=R score=20
            hidden: A at [18,3]
        "#]],
    );
}

#[test]
fn fury_bites_body() {
    // A bites B's fourth cell: B keeps the three cells before it.
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼
        ☼..b..☼
        ☼..b..☼
        ☼..b..☼
        ☼aAb..☼
        ☼..b..☼
        ☼..B..☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        A: fury=5
        > A=R
        "#,
        expect![[r#"
            tick 1: A=R
              A bit B, who loses 3
              A +20 (bite B)
            round 1 tick 1
            ☼☼☼☼☼☼☼
            ☼.....☼
            ☼.....☼
            ☼.....☼
            ☼.aA..☼
            ☼..b..☼
            ☼..b..☼
            ☼..B..☼
            ☼☼☼☼☼☼☼
            A: len=2 dir=R fury=4 score=20
            B: len=3 dir=D score=0
        "#]],
    );
}

#[test]
fn fury_eats_stone_freely() {
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼aaA●.☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        A: fury=3
        > A=R
        "#,
        expect![[r#"
            tick 1: A=R
              A ate stone at [4,1]
              A +15 (stone)
            round 1 tick 1
            ☼☼☼☼☼☼☼
            ☼.aaA.☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: len=3 dir=R fury=2 stones=1 score=15
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Self-bite

#[test]
fn self_bite_cuts_tail() {
    // A, 13 long, turns up into its eighth cell: the tail loses that cell and
    // everything behind it (5 cells) and A lives on with 8.
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼aaaaa☼
        ☼a.A.a☼
        ☼a.aaa☼
        ☼a....☼
        ☼☼☼☼☼☼☼
        A: dir=U
        > A=U
        "#,
        expect![[r#"
            tick 1: A=U
              A bit itself, losing 5
            round 1 tick 1
            ☼☼☼☼☼☼☼
            ☼..Aaa☼
            ☼..a.a☼
            ☼..aaa☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: len=8 dir=U score=0
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Fights

#[test]
fn head_on_shorter_dies() {
    // 5 against 7: A dies; B is paid 10 x 5 and owes 5 cells, taken at its
    // next move (see `head_on_survivor_shrinks_on_next_move`).
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼aaaaA.Bbbbbbb☼
        ☼.............☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        > A=R B=L
        "#,
        expect![[r#"
            tick 1: A=R B=L
              A head-on B
              B head-on A
              A died: head-on with B
              B +50 (kill A)
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼.aaaaBbbbbbb.☼
            ☼.............☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: dead len=5 dir=R score=0
            B: len=7 dir=L shrink=5 score=50
            hidden: A at [6,1]
        "#]],
    );
}

#[test]
fn head_on_equal_lengths_both_die() {
    // 3 - 3 < 2 for both.
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼☼
        ☼aaA.Bbb☼
        ☼.......☼
        ☼☼☼☼☼☼☼☼☼
        > A=R B=L
        "#,
        expect![[r#"
            tick 1: A=R B=L
              A head-on B
              B head-on A
              A died: head-on with B
              B died: head-on with A
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼
            ☼.aaBbb.☼
            ☼.......☼
            ☼☼☼☼☼☼☼☼☼
            A: dead len=3 dir=R score=0
            B: dead len=3 dir=L score=0
            hidden: A at [4,1]
        "#]],
    );
}

#[test]
fn head_on_survivor_shrinks_on_next_move() {
    // CodeBattle description, movement step 2: the length owed is taken
    // before the move, and a snake that would fall below 2 dies.
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼☼☼
        ☼bbbbbbB.☼
        ☼.cccC...☼
        ☼........☼
        ☼☼☼☼☼☼☼☼☼☼
        B: shrink=5
        C: shrink=3
        > B=R C=R
        "#,
        expect![[r#"
            tick 1: B=R C=R
              C died: shrink
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼☼
            ☼......bB☼
            ☼.cccC...☼
            ☼........☼
            ☼☼☼☼☼☼☼☼☼☼
            A: empty score=0
            B: len=2 dir=R score=0
            C: dead len=4 dir=R score=0
        "#]],
    );
}

#[test]
fn two_head_ons_in_one_fight() {
    // A (10) meets B (5) head to head while C (4) enters A's neck. The
    // meetings happen at once and A owes both: 10 - 5 = 5, then 5 - 4 < 2,
    // so A dies too. Nobody is left, and nobody wins the round.
    check(
        r#"
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼.........c......☼
        ☼.........c......☼
        ☼.........c......☼
        ☼.........C......☼
        ☼aaaaaaaaaA.Bbbbb☼
        ☼................☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        > A=R B=L C=D
        "#,
        expect![[r#"
            tick 1: A=R B=L C=D
              A head-on B
              B head-on A
              C head-on A
              A died: shrink
              B died: head-on with A
              C died: head-on with A
              round 1 ended (last alive), winners: none
            countdown 5 after round 1
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼................☼
            ☼.........c......☼
            ☼.........c......☼
            ☼.........c......☼
            ☼.aaaaaaaaCBbbbb.☼
            ☼................☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: dead len=10 dir=R shrink=9 score=0
            B: dead len=5 dir=L score=0
            C: dead len=4 dir=D score=0
            hidden: A at [11,5], a at [10,5]
        "#]],
    );
}

#[test]
fn head_on_then_stone() {
    // B (11) beats A (7) head to head on a stone: B is 11 - 7 = 4 long from
    // the fight on, and the stone's 3 leaves it below 2, so B dies too.
    check(
        r#"
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼aaaaaaA●Bbbbbbbbbbb☼
        ☼...................☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        > A=R B=L
        "#,
        expect![[r#"
            tick 1: A=R B=L
              A head-on B
              B head-on A
              A died: head-on with B
              B +70 (kill A)
              B ate stone at [8,1]
              B died: stone
              round 1 ended (last alive), winners: none
            countdown 5 after round 1
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼.aaaaaaBbbbbbbbbbb.☼
            ☼...................☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: dead len=7 dir=R score=0
            B: dead len=11 dir=L stones=1 shrink=7 score=70
            hidden: A at [8,1]
        "#]],
    );
}

#[test]
fn head_on_then_fury_bite() {
    // A (10) beats B (6) head to head and owes 6; in the same fight the
    // furious C bites A's fifth cell, so A keeps 4 cells, fewer than 6 + 2:
    // A dies of what it owes. C is paid for the 5 cells behind
    // its bite; A's kill of B is not paid, A being dead.
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼......c..........☼
        ☼......C..........☼
        ☼aaaaaaaaaA.Bbbbbb☼
        ☼.................☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        C: fury=5
        > A=R B=L C=D
        "#,
        expect![[r#"
            tick 1: A=R B=L C=D
              A head-on B
              B head-on A
              C bit A, who loses 6
              A died: shrink
              B died: head-on with A
              C +50 (bite A)
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼.................☼
            ☼......c..........☼
            ☼......CaaaBbbbbb.☼
            ☼.................☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: dead len=4 dir=R shrink=6 score=0
            B: dead len=6 dir=L score=0
            C: len=2 dir=D fury=4 score=50
            hidden: A at [11,3]
        "#]],
    );
}

#[test]
fn head_on_then_second_fight() {
    // A (10) and B (5) meet on the cell C's tail leaves, and C eats an apple,
    // so its tail grows back there. First fight: B dies, A owes 5. Second
    // fight: A's head is on C's tail, A dies, and C is paid for A as 10 - 5
    // = 5 long, not 10; A's kill of B was paid at the end of the first.
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼.....C○.....☼
        ☼.....c......☼
        ☼aaaaAcBbbbb.☼
        ☼a...........☼
        ☼a...........☼
        ☼a...........☼
        ☼a...........☼
        ☼a...........☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        > A=R B=L C=R
        "#,
        expect![[r#"
            tick 1: A=R B=L C=R
              A head-on B
              B head-on A
              B died: head-on with A
              A +50 (kill B)
              C ate apple at [7,1]
              C +1 (apple)
              A died: crashed into C
              C +50 (kill A)
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼.....cC.....☼
            ☼.....c......☼
            ☼aaaaacbbbb..☼
            ☼a...........☼
            ☼a...........☼
            ☼a...........☼
            ☼a...........☼
            ☼............☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: dead len=10 dir=R shrink=5 score=50
            B: dead len=5 dir=L score=0
            C: len=4 dir=R score=51
            hidden: A at [6,3], B at [6,3]
        "#]],
    );
}

#[test]
fn head_on_into_neck_while_crashed_into() {
    // A (7) enters B's neck, a head-on, while B (4) enters A's body, a
    // crash. Both happen: B dies, A owes B's 4 cells and is paid for B once.
    // `head_on_into_neck_whatever_the_seats` swaps the seats.
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼☼☼☼
        ☼....bbb..☼
        ☼...AB....☼
        ☼...aaaaaa☼
        ☼.........☼
        ☼☼☼☼☼☼☼☼☼☼☼
        > A=R B=D
        "#,
        expect![[r#"
            tick 1: A=R B=D
              A head-on B
              B died: head-on with A
              A +40 (kill B)
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼☼☼
            ☼....bb...☼
            ☼...aA....☼
            ☼...aaaaa.☼
            ☼.........☼
            ☼☼☼☼☼☼☼☼☼☼☼
            A: len=7 dir=R shrink=4 score=40
            B: dead len=4 dir=D score=0
            hidden: B at [5,3], b at [5,2]
        "#]],
    );
}

#[test]
fn head_on_into_neck_whatever_the_seats() {
    // `head_on_into_neck_while_crashed_into` with A and B swapped: the same
    // outcome, relabelled. (Judging one snake after the other, the lower
    // seat first, gave the survivor a debt of 4 in one order and none in
    // the other.)
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼☼☼☼
        ☼....aaa..☼
        ☼...BA....☼
        ☼...bbbbbb☼
        ☼.........☼
        ☼☼☼☼☼☼☼☼☼☼☼
        > A=D B=R
        "#,
        expect![[r#"
            tick 1: A=D B=R
              B head-on A
              A died: head-on with B
              B +40 (kill A)
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼☼☼
            ☼....aa...☼
            ☼...bB....☼
            ☼...bbbbb.☼
            ☼.........☼
            ☼☼☼☼☼☼☼☼☼☼☼
            A: dead len=4 dir=D score=0
            B: len=7 dir=R shrink=4 score=40
            hidden: A at [5,3], a at [5,2]
        "#]],
    );
}

#[test]
fn head_on_fury_wins() {
    // The furious 3 beats the calm 7 and is not shortened.
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼aaA.Bbbbbbb☼
        ☼...........☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼
        A: fury=4
        > A=R B=L
        "#,
        expect![[r#"
            tick 1: A=R B=L
              A head-on B
              B head-on A
              B died: head-on with A
              A +70 (kill B)
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼.aaAbbbbbb.☼
            ☼...........☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: len=3 dir=R fury=3 score=70
            B: dead len=7 dir=L score=0
            hidden: B at [4,1]
        "#]],
    );
}

#[test]
fn head_on_both_fury() {
    // Both furious: the normal rule, as in `head_on_shorter_dies`.
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼aaaaA.Bbbbbbb☼
        ☼.............☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        A: fury=4
        B: fury=9
        > A=R B=L
        "#,
        expect![[r#"
            tick 1: A=R B=L
              A head-on B
              B head-on A
              A died: head-on with B
              B +50 (kill A)
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼.aaaaBbbbbbb.☼
            ☼.............☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: dead len=5 dir=R fury=3 score=0
            B: len=7 dir=L fury=8 shrink=5 score=50
            hidden: A at [6,1]
        "#]],
    );
}

#[test]
fn neck_counts_as_head() {
    // A (5) enters the cell behind B's head: a head-on, which the longer A
    // wins, not a crash into B's body, which would kill A.
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼
        ☼......☼
        ☼......☼
        ☼.bbB..☼
        ☼...A..☼
        ☼...a..☼
        ☼...a..☼
        ☼...a..☼
        ☼...a..☼
        ☼☼☼☼☼☼☼☼
        > A=U B=R
        "#,
        expect![[r#"
            tick 1: A=U B=R
              A head-on B
              B died: head-on with A
              A +30 (kill B)
            round 1 tick 1
            ☼☼☼☼☼☼☼☼
            ☼......☼
            ☼......☼
            ☼..bAB.☼
            ☼...a..☼
            ☼...a..☼
            ☼...a..☼
            ☼...a..☼
            ☼......☼
            ☼☼☼☼☼☼☼☼
            A: len=5 dir=U shrink=3 score=30
            B: dead len=3 dir=R score=0
            hidden: b at [4,3]
        "#]],
    );
}

#[test]
fn growing_tail_is_hit_in_second_fight() {
    // CodeBattle description, steps 4-5: B eats an apple, so its tail stays on
    // the cell A has just entered; the fight after eating finds A on B's body.
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼
        ☼.....☼
        ☼.bB○.☼
        ☼.A...☼
        ☼.a...☼
        ☼☼☼☼☼☼☼
        > A=U B=R
        "#,
        expect![[r#"
            tick 1: A=U B=R
              B ate apple at [4,2]
              B +1 (apple)
              A died: crashed into B
              B +20 (kill A)
            round 1 tick 1
            ☼☼☼☼☼☼☼
            ☼.....☼
            ☼.bbB.☼
            ☼.a...☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: dead len=2 dir=U score=0
            B: len=3 dir=R score=21
            hidden: A at [2,2]
        "#]],
    );
}

#[test]
fn apple_after_a_bite_regrows_under_the_biter() {
    // A bites B, and B eats an apple in the same tick. B's tail regrows on
    // the cell it last lost, under A's head, and the second fight bites that
    // cell off again (worth nothing: the bitten cell itself is not paid).
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼☼☼
        ☼........☼
        ☼........☼
        ☼bbbbbB○.☼
        ☼...A....☼
        ☼...a....☼
        ☼☼☼☼☼☼☼☼☼☼
        A: fury=5
        > A=U B=R
        "#,
        expect![[r#"
            tick 1: A=U B=R
              A bit B, who loses 3
              A +20 (bite B)
              B ate apple at [7,3]
              B +1 (apple)
              A bit B, who loses 1
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼☼
            ☼........☼
            ☼........☼
            ☼...AbbB.☼
            ☼...a....☼
            ☼........☼
            ☼☼☼☼☼☼☼☼☼☼
            A: len=2 dir=U fury=4 score=20
            B: len=3 dir=R score=1
        "#]],
    );
}

#[test]
fn sleeping_snake_is_an_obstacle() {
    // A snake waiting for the next round cannot lose a fight: the long A
    // dies on B's head, the furious C dies on D's tail, and B and D are
    // untouched and unpaid.
    check(
        r#"
        ☼☼☼☼☼☼☼☼☼☼
        ☼aaaaaABb☼
        ☼........☼
        ☼cCdD....☼
        ☼........☼
        ☼☼☼☼☼☼☼☼☼☼
        B: sleeping dir=L
        C: fury=5
        D: sleeping
        > A=R C=R
        "#,
        expect![[r#"
            tick 1: A=R C=R
              A died: crashed into B
              C died: crashed into D
              round 1 ended (last alive), winners: none
            countdown 5 after round 1
            ☼☼☼☼☼☼☼☼☼☼
            ☼.aaaaaBb☼
            ☼........☼
            ☼.cdD....☼
            ☼........☼
            ☼☼☼☼☼☼☼☼☼☼
            A: dead len=6 dir=R score=0
            B: sleeping len=2 dir=L score=0
            C: dead len=2 dir=R fury=4 score=0
            D: sleeping len=2 dir=R score=0
            hidden: C at [3,3], A at [7,1]
        "#]],
    );
}

#[test]
fn kill_not_paid_to_snake_dead_in_same_fight() {
    // A runs into B's tail, and B runs into C's body in the same fight: B
    // is not paid for A, as kills are paid at the end of the fight and only
    // to snakes alive then. C is paid for B.
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼☼☼☼
        ☼.cccccC..☼
        ☼....B....☼
        ☼.aaAb....☼
        ☼....b....☼
        ☼.........☼
        ☼☼☼☼☼☼☼☼☼☼☼
        > A=R B=U C=R
        "#,
        expect![[r#"
            tick 1: A=R B=U C=R
              A died: crashed into B
              B died: crashed into C
              C +30 (kill B)
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼☼☼
            ☼..cccccC.☼
            ☼....b....☼
            ☼..aab....☼
            ☼.........☼
            ☼.........☼
            ☼☼☼☼☼☼☼☼☼☼☼
            A: dead len=3 dir=R score=0
            B: dead len=3 dir=U score=0
            C: len=6 dir=R score=30
            hidden: A at [5,3], B at [5,1]
        "#]],
    );
}

#[test]
fn bite_not_paid_to_snake_dead_in_same_fight() {
    // The furious A bites 2 cells off B (worth 10), then the furious, longer
    // C meets A's neck head-on and A dies: A's bite is not paid, C's kill is.
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼☼☼☼
        ☼...a.....☼
        ☼...ACccc.☼
        ☼.bbbbB...☼
        ☼.........☼
        ☼☼☼☼☼☼☼☼☼☼☼
        A: fury=5
        C: fury=5
        > A=D B=R C=L
        "#,
        expect![[r#"
            tick 1: A=D B=R C=L
              C head-on A
              A bit B, who loses 2
              A died: head-on with C
              C +20 (kill A)
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼☼☼
            ☼.........☼
            ☼...Cccc..☼
            ☼...AbbB..☼
            ☼.........☼
            ☼☼☼☼☼☼☼☼☼☼☼
            A: dead len=2 dir=D fury=4 score=0
            B: len=3 dir=R score=0
            C: len=4 dir=L fury=4 shrink=2 score=20
            hidden: a at [4,2]
        "#]],
    );
}

// ---------------------------------------------------------------------------
// The five worked examples of the CodeBattle description's fight rules.
// Snake 1 is A (7 long), snake 2 is B (11 long).

#[test]
fn fight_example_1() {
    // Furious A bites the cell right behind B's head: a head-on, which fury
    // wins. B dies; A is paid for B's 11 cells and keeps its length.
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼............☼
        ☼............☼
        ☼bbbbbbbbbbB.☼
        ☼..........A.☼
        ☼..........a.☼
        ☼..........a.☼
        ☼..........a.☼
        ☼..........a.☼
        ☼..........a.☼
        ☼..........a.☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        A: fury=5
        > A=U B=R
        "#,
        expect![[r#"
            tick 1: A=U B=R
              A head-on B
              B died: head-on with A
              A +110 (kill B)
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼............☼
            ☼............☼
            ☼.bbbbbbbbbAB☼
            ☼..........a.☼
            ☼..........a.☼
            ☼..........a.☼
            ☼..........a.☼
            ☼..........a.☼
            ☼..........a.☼
            ☼............☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: len=7 dir=U fury=4 score=110
            B: dead len=11 dir=R score=0
            hidden: b at [11,3]
        "#]],
    );
}

#[test]
fn fight_example_2() {
    // Both calm, A bites behind B's head: a head-on. A dies (7 - 11 < 2);
    // B is paid for A's 7 cells and ends 11 - 7 = 4 long after its next move.
    // A respawns at the start floor in tick 2 (rounds are off).
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼#...........☼
        ☼............☼
        ☼bbbbbbbbbbB.☼
        ☼..........A.☼
        ☼..........a.☼
        ☼..........a.☼
        ☼..........a.☼
        ☼..........a.☼
        ☼..........a.☼
        ☼..........a.☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        > A=U B=R
        show
        > B=D
        "#,
        expect![[r#"
            tick 1: A=U B=R
              A head-on B
              A died: head-on with B
              B +70 (kill A)
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼#...........☼
            ☼............☼
            ☼.bbbbbbbbbbB☼
            ☼..........a.☼
            ☼..........a.☼
            ☼..........a.☼
            ☼..........a.☼
            ☼..........a.☼
            ☼..........a.☼
            ☼............☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: dead len=7 dir=U score=0
            B: len=11 dir=R shrink=7 score=70
            hidden: A at [11,3]

            tick 2: B=D
              A spawned at [1,1]
            round 1 tick 2
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼aA..........☼
            ☼............☼
            ☼.........bbb☼
            ☼...........B☼
            ☼............☼
            ☼............☼
            ☼............☼
            ☼............☼
            ☼............☼
            ☼............☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: len=2 dir=R score=0
            B: len=4 dir=D score=70
        "#]],
    );
}

#[test]
fn fight_example_3() {
    // As example 2 with both furious: the same outcome.
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼#...........☼
        ☼............☼
        ☼bbbbbbbbbbB.☼
        ☼..........A.☼
        ☼..........a.☼
        ☼..........a.☼
        ☼..........a.☼
        ☼..........a.☼
        ☼..........a.☼
        ☼..........a.☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        A: fury=5
        B: fury=5
        > A=U B=R
        show
        > B=D
        "#,
        expect![[r#"
            tick 1: A=U B=R
              A head-on B
              A died: head-on with B
              B +70 (kill A)
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼#...........☼
            ☼............☼
            ☼.bbbbbbbbbbB☼
            ☼..........a.☼
            ☼..........a.☼
            ☼..........a.☼
            ☼..........a.☼
            ☼..........a.☼
            ☼..........a.☼
            ☼............☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: dead len=7 dir=U fury=4 score=0
            B: len=11 dir=R fury=4 shrink=7 score=70
            hidden: A at [11,3]

            tick 2: B=D
              A spawned at [1,1]
            round 1 tick 2
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼aA..........☼
            ☼............☼
            ☼.........bbb☼
            ☼...........B☼
            ☼............☼
            ☼............☼
            ☼............☼
            ☼............☼
            ☼............☼
            ☼............☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: len=2 dir=R score=0
            B: len=4 dir=D fury=3 score=70
        "#]],
    );
}

#[test]
fn fight_example_4() {
    // Furious A bites B's third cell from the head: B keeps 2 cells and A
    // is paid for 8, as the CodeBattle description counts them.
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼............☼
        ☼............☼
        ☼bbbbbbbbbbB.☼
        ☼.........A..☼
        ☼.........a..☼
        ☼.........a..☼
        ☼.........a..☼
        ☼.........a..☼
        ☼.........a..☼
        ☼.........a..☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        A: fury=5
        > A=U B=R
        "#,
        expect![[r#"
            tick 1: A=U B=R
              A bit B, who loses 9
              A +80 (bite B)
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼............☼
            ☼............☼
            ☼.........AbB☼
            ☼.........a..☼
            ☼.........a..☼
            ☼.........a..☼
            ☼.........a..☼
            ☼.........a..☼
            ☼.........a..☼
            ☼............☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: len=7 dir=U fury=4 score=80
            B: len=2 dir=R score=0
        "#]],
    );
}

#[test]
fn fight_example_5() {
    // Both calm, A bites B's third cell: A dies; B keeps its 11 cells and is
    // paid for A's 7.
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼............☼
        ☼............☼
        ☼bbbbbbbbbbB.☼
        ☼.........A..☼
        ☼.........a..☼
        ☼.........a..☼
        ☼.........a..☼
        ☼.........a..☼
        ☼.........a..☼
        ☼.........a..☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        > A=U B=R
        "#,
        expect![[r#"
            tick 1: A=U B=R
              A died: crashed into B
              B +70 (kill A)
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼............☼
            ☼............☼
            ☼.bbbbbbbbbbB☼
            ☼.........a..☼
            ☼.........a..☼
            ☼.........a..☼
            ☼.........a..☼
            ☼.........a..☼
            ☼.........a..☼
            ☼............☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: dead len=7 dir=U score=0
            B: len=11 dir=R score=70
            hidden: A at [10,3]
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Commands

#[test]
fn act_before_move_drops_at_old_tail() {
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼aaA..☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        A: stones=2
        > A=AR
        "#,
        expect![[r#"
            tick 1: A=AR
              A dropped a stone at [1,1]
            round 1 tick 1
            ☼☼☼☼☼☼☼
            ☼●aaA.☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: len=3 dir=R stones=1 score=0
        "#]],
    );
}

#[test]
fn act_after_move_drops_at_new_tail() {
    // The stone goes under the tail's new cell and shows once the tail
    // moves on.
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼aaA..☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        A: stones=2
        > A=RA
        show
        > A=R
        "#,
        expect![[r#"
            tick 1: A=RA
              A dropped a stone at [2,1]
            round 1 tick 1
            ☼☼☼☼☼☼☼
            ☼.aaA.☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: len=3 dir=R stones=1 score=0
            hidden: stone at [2,1]

            tick 2: A=R
            round 1 tick 2
            ☼☼☼☼☼☼☼
            ☼.●aaA☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: len=3 dir=R stones=1 score=0
        "#]],
    );
}

#[test]
fn no_stone_dropped_right_of_start_floor() {
    // A's tail is right of a start floor: the stone stays with A, since a
    // snake appearing there would run into it. B drops its stone one row
    // down, where the cell to the left is plain floor.
    check(
        r#"
        ☼☼☼☼☼☼☼☼
        ☼#aaA..☼
        ☼.bbB..☼
        ☼......☼
        ☼☼☼☼☼☼☼☼
        A: stones=1
        B: stones=1
        > A=AR B=AR
        "#,
        expect![[r#"
            tick 1: A=AR B=AR
              B dropped a stone at [2,2]
            round 1 tick 1
            ☼☼☼☼☼☼☼☼
            ☼#.aaA.☼
            ☼.●bbB.☼
            ☼......☼
            ☼☼☼☼☼☼☼☼
            A: len=3 dir=R stones=1 score=0
            B: len=3 dir=R score=0
        "#]],
    );
}

#[test]
fn act_zero_kills() {
    // With or without a direction; both dead, the round ends with no winner.
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼aA...☼
        ☼bB...☼
        ☼☼☼☼☼☼☼
        > A=X B=[RIGHT,ACT(0)]
        "#,
        expect![[r#"
            tick 1: A=X B=[RIGHT,ACT(0)]→X
              A died: ACT(0)
              B died: ACT(0)
              round 1 ended (last alive), winners: none
            countdown 5 after round 1
            ☼☼☼☼☼☼☼
            ☼aA...☼
            ☼bB...☼
            ☼☼☼☼☼☼☼
            A: dead len=2 dir=R score=0
            B: dead len=2 dir=R score=0
        "#]],
    );
}

#[test]
fn double_commands_skip_turn() {
    // Two directions, two ACTs, or three commands: the turn is skipped, so
    // each snake goes on right and drops nothing.
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼aA...☼
        ☼bB...☼
        ☼cC...☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        A: stones=1
        B: stones=1
        C: stones=1
        > A=[UP,DOWN] B=[ACT,ACT] C=[ACT,DOWN,ACT]
        "#,
        expect![[r#"
            tick 1: A=[UP,DOWN]→- B=[ACT,ACT]→- C=[ACT,DOWN,ACT]→-
            round 1 tick 1
            ☼☼☼☼☼☼☼
            ☼.aA..☼
            ☼.bB..☼
            ☼.cC..☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: len=2 dir=R stones=1 score=0
            B: len=2 dir=R stones=1 score=0
            C: len=2 dir=R stones=1 score=0
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Rounds

#[test]
fn dead_snake_waits_for_next_round() {
    // A dies in tick 1 and its body stays for that board; in tick 2 it
    // appears asleep on the start floor, and stays there whatever it is told.
    check(
        r#"
        ☼#☼☼☼☼☼☼
        ☼..A...☼
        ☼..a...☼
        ☼bB....☼
        ☼cC....☼
        ☼☼☼☼☼☼☼☼
        > A=U
        show
        >
        > A=D
        "#,
        expect![[r#"
            tick 1: A=U
              A died: wall
            round 1 tick 1
            ☼#☼A☼☼☼☼
            ☼..a...☼
            ☼......☼
            ☼.bB...☼
            ☼.cC...☼
            ☼☼☼☼☼☼☼☼
            A: dead len=2 dir=U score=0
            B: len=2 dir=R score=0
            C: len=2 dir=R score=0

            tick 2: -
              A spawned at [1,0]
            tick 3: A=D
            round 1 tick 3
            aA☼☼☼☼☼☼
            ☼......☼
            ☼......☼
            ☼...bB.☼
            ☼...cC.☼
            ☼☼☼☼☼☼☼☼
            A: sleeping len=2 dir=R score=0
            B: len=2 dir=R score=0
            C: len=2 dir=R score=0
        "#]],
    );
}

#[test]
fn respawns_draw_by_score_whatever_the_seats() {
    // A (50 points) and B (10) run into the wall in tick 1 and respawn in
    // tick 2 on random free start floors, drawn in order of score, lowest
    // first: with the seats swapped, the same snake (the one with 10
    // points, B in the first case, A in the second) gets the same floor.
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼☼
        ☼#..A...☼
        ☼☼..a...☼
        ☼#......☼
        ☼☼......☼
        ☼#...b..☼
        ☼☼...B..☼
        ☼☼☼☼☼☼☼☼☼
        A: score=50
        B: score=10
        > A=U B=D
        >
        "#,
        expect![[r#"
            tick 1: A=U B=D
              A died: wall
              B died: wall
            tick 2: -
              B spawned at [1,1]
              A spawned at [1,5]
            round 1 tick 2
            ☼☼☼☼☼☼☼☼☼
            ☼bB.....☼
            ☼☼......☼
            ☼#......☼
            ☼☼......☼
            ☼aA.....☼
            ☼☼......☼
            ☼☼☼☼☼☼☼☼☼
            A: len=2 dir=R score=50
            B: len=2 dir=R score=10
        "#]],
    );
    check(
        r#"
        game: rounds=false
        ☼☼☼☼☼☼☼☼☼
        ☼#..B...☼
        ☼☼..b...☼
        ☼#......☼
        ☼☼......☼
        ☼#...a..☼
        ☼☼...A..☼
        ☼☼☼☼☼☼☼☼☼
        A: score=10
        B: score=50
        > B=U A=D
        >
        "#,
        expect![[r#"
            tick 1: B=U A=D
              A died: wall
              B died: wall
            tick 2: -
              A spawned at [1,1]
              B spawned at [1,5]
            round 1 tick 2
            ☼☼☼☼☼☼☼☼☼
            ☼aA.....☼
            ☼☼......☼
            ☼#......☼
            ☼☼......☼
            ☼bB.....☼
            ☼☼......☼
            ☼☼☼☼☼☼☼☼☼
            A: len=2 dir=R score=10
            B: len=2 dir=R score=50
        "#]],
    );
}

#[test]
fn round_ends_at_max_length() {
    // A reaches 40 cells: the round ends at once and A, the longest, wins
    // 10 x 40 + 11 ticks.
    check(
        r#"
        game: tick=10
        ☼☼☼☼☼☼☼☼☼☼☼☼
        ☼aaaaaaaaaa☼
        ☼.........a☼
        ☼aaaaaaaaaa☼
        ☼a.........☼
        ☼aaaaaaaaaa☼
        ☼.........a☼
        ☼...○Aaaaaa☼
        ☼☼☼☼☼☼☼☼☼☼☼☼
        > A=L
        "#,
        expect![[r#"
            tick 11: A=L
              A ate apple at [4,7]
              A +1 (apple)
              A +411 (win)
              round 1 ended (max length), winners: A
            countdown 5 after round 1
            ☼☼☼☼☼☼☼☼☼☼☼☼
            ☼aaaaaaaaaa☼
            ☼.........a☼
            ☼aaaaaaaaaa☼
            ☼a.........☼
            ☼aaaaaaaaaa☼
            ☼.........a☼
            ☼...Aaaaaaa☼
            ☼☼☼☼☼☼☼☼☼☼☼☼
            A: len=40 dir=L score=412
        "#]],
    );
}

#[test]
fn round_ends_on_timeout() {
    // Tick 300 is the last; the longer B wins 10 x 4 + 300.
    check(
        r#"
        game: tick=299
        ☼☼☼☼☼☼☼☼
        ☼aA....☼
        ☼bbbB..☼
        ☼☼☼☼☼☼☼☼
        > A=R B=R
        "#,
        expect![[r#"
            tick 300: A=R B=R
              B +340 (win)
              round 1 ended (timeout), winners: B
            countdown 5 after round 1
            ☼☼☼☼☼☼☼☼
            ☼.aA...☼
            ☼.bbbB.☼
            ☼☼☼☼☼☼☼☼
            A: len=2 dir=R score=0
            B: len=4 dir=R score=340
        "#]],
    );
}

#[test]
fn round_ends_with_last_alive() {
    // A hits the wall; B, alone, wins 10 x 3 + 42 ticks.
    check(
        r#"
        game: tick=41
        ☼☼☼☼☼☼☼☼
        ☼....aA☼
        ☼bbB...☼
        ☼☼☼☼☼☼☼☼
        > A=R B=R
        "#,
        expect![[r#"
            tick 42: A=R B=R
              A died: wall
              B +72 (win)
              round 1 ended (last alive), winners: B
            countdown 5 after round 1
            ☼☼☼☼☼☼☼☼
            ☼.....aA
            ☼.bbB..☼
            ☼☼☼☼☼☼☼☼
            A: dead len=2 dir=R score=0
            B: len=3 dir=R score=72
        "#]],
    );
}

#[test]
fn win_score() {
    // The CodeBattle description's own figures: alone after 100 ticks with
    // length 8 pays 10 x 8 + 1 x 100.
    check(
        r#"
        game: tick=99
        ☼☼☼☼☼☼☼☼☼☼☼☼
        ☼.........A☼
        ☼.........a☼
        ☼bbbbbbbB..☼
        ☼..........☼
        ☼☼☼☼☼☼☼☼☼☼☼☼
        > A=U B=R
        "#,
        expect![[r#"
            tick 100: A=U B=R
              A died: wall
              B +180 (win)
              round 1 ended (last alive), winners: B
            countdown 5 after round 1
            ☼☼☼☼☼☼☼☼☼☼A☼
            ☼.........a☼
            ☼..........☼
            ☼.bbbbbbbB.☼
            ☼..........☼
            ☼☼☼☼☼☼☼☼☼☼☼☼
            A: dead len=2 dir=U score=0
            B: len=8 dir=R score=180
        "#]],
    );
}

#[test]
fn timeout_only_longest_win() {
    // B and C share the maximum length; A, shorter, gets nothing.
    check(
        r#"
        game: tick=299
        ☼☼☼☼☼☼☼☼
        ☼aaA...☼
        ☼bbbB..☼
        ☼cccC..☼
        ☼☼☼☼☼☼☼☼
        > A=R B=R C=R
        "#,
        expect![[r#"
            tick 300: A=R B=R C=R
              B +340 (win)
              C +340 (win)
              round 1 ended (timeout), winners: B C
            countdown 5 after round 1
            ☼☼☼☼☼☼☼☼
            ☼.aaA..☼
            ☼.bbbB.☼
            ☼.cccC.☼
            ☼☼☼☼☼☼☼☼
            A: len=3 dir=R score=0
            B: len=4 dir=R score=340
            C: len=4 dir=R score=340
        "#]],
    );
}

#[test]
fn round_ends_when_its_only_snake_dies() {
    // A round A began alone ends when A dies, with no winner, and the next
    // countdown starts (without this it would wait for the timeout with
    // nobody on the field).
    check(
        r#"
        game: tick=10
        ☼☼☼☼☼☼☼☼
        ☼#...aA☼
        ☼......☼
        ☼☼☼☼☼☼☼☼
        > A=R
        > -
        "#,
        expect![[r#"
            tick 11: A=R
              A died: wall
              round 1 ended (last alive), winners: none
            tick of countdown 5: -
              A spawned at [1,1]
              countdown 4
            countdown 4 after round 1
            ☼☼☼☼☼☼☼☼
            aA.....☼
            ☼......☼
            ☼☼☼☼☼☼☼☼
            A: sleeping len=2 dir=R score=0
        "#]],
    );
}

#[test]
fn head_on_survivor_wins_with_length_after_cut() {
    // The CodeBattle description's example 2 ends the round: B (11) beats
    // A (7) head-on and is left alone. Its length is 11 - 7 = 4 although the
    // cut is only due at its next move, so it wins 10 x 4 + 50 ticks, not
    // 10 x 11 + 50.
    check(
        r#"
        game: tick=49
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼bbbbbbbbbbB.Aaaaaaa☼
        ☼...................☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        > A=L B=R
        "#,
        expect![[r#"
            tick 50: A=L B=R
              A head-on B
              B head-on A
              A died: head-on with B
              B +70 (kill A)
              B +90 (win)
              round 1 ended (last alive), winners: B
            countdown 5 after round 1
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼.bbbbbbbbbbBaaaaaa.☼
            ☼...................☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: dead len=7 dir=L score=0
            B: len=11 dir=R shrink=7 score=160
            hidden: A at [12,1]
        "#]],
    );
}

#[test]
fn timeout_longest_counts_length_after_cut() {
    // At the timeout B has 11 cells on the field but owes 7 from its
    // head-on with A: 4 long, it loses to C's 7.
    check(
        r#"
        game: tick=299
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼bbbbbbbbbbB.Aaaaaaa☼
        ☼...................☼
        ☼ccccccC............☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        > A=L B=R C=R
        "#,
        expect![[r#"
            tick 300: A=L B=R C=R
              A head-on B
              B head-on A
              A died: head-on with B
              B +70 (kill A)
              C +370 (win)
              round 1 ended (timeout), winners: C
            countdown 5 after round 1
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼.bbbbbbbbbbBaaaaaa.☼
            ☼...................☼
            ☼.ccccccC...........☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: dead len=7 dir=L score=0
            B: len=11 dir=R shrink=7 score=70
            C: len=7 dir=R score=370
            hidden: A at [12,1]
        "#]],
    );
}

#[test]
fn max_length_counts_length_after_cut() {
    // With the round's maximum length at 10, B (12) beats A (3) head-on:
    // 12 cells on the field, but 12 - 3 = 9 long, so the round goes on.
    check(
        r#"
        game: tick=10 round_end_length=10
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼bbbbbbbbbbbB.Aaa☼
        ☼................☼
        ☼cC..............☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        > A=L B=R C=R
        "#,
        expect![[r#"
            tick 11: A=L B=R C=R
              A head-on B
              B head-on A
              A died: head-on with B
              B +30 (kill A)
            round 1 tick 11
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼.bbbbbbbbbbbBaa.☼
            ☼................☼
            ☼.cC.............☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: dead len=3 dir=L score=0
            B: len=12 dir=R shrink=3 score=30
            C: len=2 dir=R score=0
            hidden: A at [13,1]
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Scores

#[test]
fn score_table() {
    // Apple +1, gold +10, stone +15 (C has fury so the stone is harmless),
    // and a kill pays 10 x the victim's length (D, 3 long, crashes into E).
    check(
        r#"
        ☼☼☼☼☼☼☼☼
        ☼aA○...☼
        ☼bB$...☼
        ☼cC●e..☼
        ☼...e..☼
        ☼ddDe..☼
        ☼...E..☼
        ☼......☼
        ☼☼☼☼☼☼☼☼
        C: fury=2
        > A=R B=R C=R D=R E=D
        "#,
        expect![[r#"
            tick 1: A=R B=R C=R D=R E=D
              D died: crashed into E
              E +30 (kill D)
              A ate apple at [3,1]
              A +1 (apple)
              B ate gold at [3,2]
              B +10 (gold)
              C ate stone at [3,3]
              C +15 (stone)
            round 1 tick 1
            ☼☼☼☼☼☼☼☼
            ☼aaA...☼
            ☼.bB...☼
            ☼.cC...☼
            ☼...e..☼
            ☼.dde..☼
            ☼...e..☼
            ☼...E..☼
            ☼☼☼☼☼☼☼☼
            A: len=3 dir=R score=1
            B: len=2 dir=R score=10
            C: len=2 dir=R fury=1 stones=1 score=15
            D: dead len=3 dir=R score=0
            E: len=4 dir=D score=30
            hidden: D at [4,5]
        "#]],
    );
}

#[test]
fn score_floor_is_zero() {
    // With a death penalty of 50, a score of 20 falls to 0, not -30.
    check(
        r#"
        game: points_die_penalty=50 rounds=false
        ☼☼☼☼☼☼
        ☼.aA☼☼
        ☼.bB☼☼
        ☼☼☼☼☼☼
        A: score=20
        B: score=100
        > A=R B=R
        "#,
        expect![[r#"
            tick 1: A=R B=R
              A died: wall
              A -50 (death)
              B died: wall
              B -50 (death)
            round 1 tick 1
            ☼☼☼☼☼☼
            ☼..aA☼
            ☼..bB☼
            ☼☼☼☼☼☼
            A: dead len=2 dir=R score=0
            B: dead len=2 dir=R score=50
        "#]],
    );
}

// ---------------------------------------------------------------------------
// The codenjoy profile

#[test]
fn codenjoy_fury_lasts_ten_ticks() {
    // As `fury_lasts_fifteen_ticks`: A still bites in tick 10 and dies on C
    // in tick 11.
    check(
        r#"
        game: profile=codenjoy
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼..aA®...........☼
        ☼bbbbB...........☼
        ☼.ccC............☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        > A=R
        > x8
        show
        > A=D
        > -
        "#,
        expect![[r#"
            tick 1: A=R
              A ate fury pill at [5,1]
            tick 2: -
            tick 3: -
            tick 4: -
            tick 5: -
            tick 6: -
            tick 7: -
            tick 8: -
            tick 9: -
            round 1 tick 9
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼...........aA...☼
            ☼.........bbbbB..☼
            ☼..........ccC...☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: len=2 dir=R fury=2 score=0
            B: len=5 dir=R score=0
            C: len=3 dir=R score=0

            tick 10: A=D
              A bit B, who loses 3
              A +20 (bite B)
            tick 11: -
              A died: crashed into C
              C +20 (kill A)
            round 1 tick 11
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼................☼
            ☼............a.bB☼
            ☼............ccC.☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: dead len=2 dir=D score=20
            B: len=2 dir=R score=0
            C: len=3 dir=R score=20
            hidden: A at [13,3]
        "#]],
    );
}

#[test]
fn codenjoy_stone_scores_five() {
    check(
        r#"
        game: profile=codenjoy
        ☼☼☼☼☼☼☼☼☼
        ☼aaaaaA●☼
        ☼.......☼
        ☼☼☼☼☼☼☼☼☼
        > A=R
        "#,
        expect![[r#"
            tick 1: A=R
              A ate stone at [7,1]
              A +5 (stone)
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼
            ☼....aaA☼
            ☼.......☼
            ☼☼☼☼☼☼☼☼☼
            A: len=3 dir=R stones=1 score=5
        "#]],
    );
}

#[test]
fn codenjoy_flying_passes_over_bodies() {
    // Flying A (2 ticks left) crosses B's body in tick 1; in tick 2 its
    // flight is over and it dies on C's body.
    check(
        r#"
        game: profile=codenjoy
        ☼☼☼☼☼☼☼
        ☼..bc.☼
        ☼..bc.☼
        ☼aAbc.☼
        ☼..bc.☼
        ☼..BC.☼
        ☼.....☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        A: flying=2
        > A=R B=D C=D
        show
        > A=R B=D C=D
        "#,
        expect![[r#"
            tick 1: A=R B=D C=D
            round 1 tick 1
            ☼☼☼☼☼☼☼
            ☼.....☼
            ☼..bc.☼
            ☼.aAc.☼
            ☼..bc.☼
            ☼..bc.☼
            ☼..BC.☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: len=2 dir=R flying=1 score=0
            B: len=5 dir=D score=0
            C: len=5 dir=D score=0
            hidden: b at [3,3]

            tick 2: A=R B=D C=D
              A died: crashed into C
              C +20 (kill A)
            round 1 tick 2
            ☼☼☼☼☼☼☼
            ☼.....☼
            ☼.....☼
            ☼..bc.☼
            ☼..bc.☼
            ☼..bc.☼
            ☼..bc.☼
            ☼..BC.☼
            ☼☼☼☼☼☼☼
            A: dead len=2 dir=R score=0
            B: len=5 dir=D score=0
            C: len=5 dir=D score=20
            hidden: a at [3,3], A at [4,3]
        "#]],
    );
}

#[test]
fn codenjoy_flying_passes_over_stones() {
    // The stone stays under the flying head and is neither eaten nor paid;
    // an apple is eaten as usual.
    check(
        r#"
        game: profile=codenjoy
        ☼☼☼☼☼☼☼☼☼☼
        ☼aA●..○..☼
        ☼........☼
        ☼☼☼☼☼☼☼☼☼☼
        A: flying=5
        > A=R
        show
        > x3
        "#,
        expect![[r#"
            tick 1: A=R
            round 1 tick 1
            ☼☼☼☼☼☼☼☼☼☼
            ☼.aA..○..☼
            ☼........☼
            ☼☼☼☼☼☼☼☼☼☼
            A: len=2 dir=R flying=4 score=0
            hidden: stone at [3,1]

            tick 2: -
            tick 3: -
            tick 4: -
              A ate apple at [6,1]
              A +1 (apple)
            round 1 tick 4
            ☼☼☼☼☼☼☼☼☼☼
            ☼..●aaA..☼
            ☼........☼
            ☼☼☼☼☼☼☼☼☼☼
            A: len=3 dir=R flying=1 score=1
        "#]],
    );
}

#[test]
fn codenjoy_last_direction_wins() {
    // Every command counts and the last direction wins; a last direction
    // that reverses the snake is ignored like any reversal.
    check(
        r#"
        game: profile=codenjoy
        ☼☼☼☼☼☼☼
        ☼.....☼
        ☼aA...☼
        ☼.....☼
        ☼bB...☼
        ☼.....☼
        ☼..C..☼
        ☼..c..☼
        ☼☼☼☼☼☼☼
        > A=[LEFT,UP] B=[UP,RIGHT,DOWN] C=[UP,DOWN]
        "#,
        expect![[r#"
            tick 1: A=[LEFT,UP]→U B=[UP,RIGHT,DOWN]→D C=[UP,DOWN]→D
            round 1 tick 1
            ☼☼☼☼☼☼☼
            ☼.A...☼
            ☼.a...☼
            ☼.....☼
            ☼.b...☼
            ☼.BC..☼
            ☼..c..☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: len=2 dir=U score=0
            B: len=2 dir=D score=0
            C: len=2 dir=U score=0
        "#]],
    );
}

#[test]
fn codenjoy_act_drops_before_move() {
    // `RIGHT,ACT` drops at the old tail, before the move, like `ACT,RIGHT`.
    check(
        r#"
        game: profile=codenjoy
        ☼☼☼☼☼☼☼
        ☼aaA..☼
        ☼bbB..☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        A: stones=1
        B: stones=1
        > A=[RIGHT,ACT] B=[ACT,RIGHT]
        "#,
        expect![[r#"
            tick 1: A=[RIGHT,ACT]→AR B=[ACT,RIGHT]→AR
              A dropped a stone at [1,1]
              B dropped a stone at [1,2]
            round 1 tick 1
            ☼☼☼☼☼☼☼
            ☼●aaA.☼
            ☼●bbB.☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: len=3 dir=R score=0
            B: len=3 dir=R score=0
        "#]],
    );
}

#[test]
fn codenjoy_no_rounds() {
    // No round ends, not even at tick 300 with one snake left; a dead snake
    // comes back awake at once and moves in the tick it appears.
    check(
        r#"
        game: profile=codenjoy tick=299
        ☼☼☼☼☼☼☼☼
        ☼....aA☼
        ☼bbB...☼
        ☼#.....☼
        ☼☼☼☼☼☼☼☼
        > A=R B=R
        > B=R
        "#,
        expect![[r#"
            tick 300: A=R B=R
              A died: wall
            tick 301: B=R
              A spawned at [1,3]
            round 1 tick 301
            ☼☼☼☼☼☼☼☼
            ☼......☼
            ☼..bbB.☼
            ☼aA....☼
            ☼☼☼☼☼☼☼☼
            A: len=2 dir=R score=0
            B: len=3 dir=R score=0
        "#]],
    );
}

#[test]
fn codenjoy_respawned_snake_ignores_last_answer() {
    // A and B hit the wall; their players answer the board that shows them
    // dead, A with UP (into the wall above the start floor) and B with
    // ACT(0). Those answers were for the dead snakes: the new ones appear
    // facing right and go right.
    check(
        r#"
        game: profile=codenjoy
        ☼☼☼☼☼☼☼☼
        ☼#.....☼
        ☼......☼
        ☼#...aA☼
        ☼....bB☼
        ☼☼☼☼☼☼☼☼
        > A=R B=R
        > A=U B=X
        "#,
        expect![[r#"
            tick 1: A=R B=R
              A died: wall
              B died: wall
            tick 2: A=U B=X
              A spawned at [1,1]
              B spawned at [1,3]
            round 1 tick 2
            ☼☼☼☼☼☼☼☼
            ☼aA....☼
            ☼......☼
            ☼bB....☼
            ☼......☼
            ☼☼☼☼☼☼☼☼
            A: len=2 dir=R score=0
            B: len=2 dir=R score=0
        "#]],
    );
}
