//! What the rule tests of every game share: the check that a game's rule
//! table and its test file name each other, and the small pieces of the
//! ASCII-board notations (indentation, seat letters).
//!
//! Each `*_rules.rs` test file includes this module and uses what its
//! notation needs.
#![allow(dead_code)]

use std::collections::BTreeSet;

/// The test names in the rule table of a game module's doc comment
/// (`src/GAME/mod.rs`): the table whose last column is headed `test`,
/// where each row's last cell names its tests in back quotes.
pub fn table_tests(module_src: &str) -> BTreeSet<String> {
    module_src
        .lines()
        .skip_while(|l| !(l.starts_with("//! |") && l.trim_end().ends_with("| test |")))
        .skip(2)
        .take_while(|l| l.starts_with("//! | "))
        .filter_map(|l| l.trim_end().trim_end_matches(" |").rsplit(" | ").next())
        .flat_map(|cell| cell.split('`').skip(1).step_by(2).map(str::to_string).collect::<Vec<_>>())
        .collect()
}

/// The `#[test]` functions of a test file's source, but the table check.
pub fn test_fns(file_src: &str) -> BTreeSet<String> {
    file_src
        .split("#[test]\nfn ")
        .skip(1)
        .filter_map(|rest| rest.split('(').next())
        .filter(|&name| name != "rule_table_matches_tests")
        .map(str::to_string)
        .collect()
}

/// Asserts that `table` (of `module`) and `tests` name the same tests, and
/// that at least `min` tests were found (so that a changed file layout
/// cannot make the check vacuous).
pub fn assert_table_matches(module: &str, table: &BTreeSet<String>, tests: &BTreeSet<String>, min: usize) {
    assert!(tests.len() >= min, "found only {} tests; has the layout of this file changed?", tests.len());
    assert_eq!(table, tests, "the rule table of {module} and these tests disagree");
}

/// The seat of a snake letter, `A` for seat 0, among `seats` seats.
pub fn seat_of(letter: char, seats: usize) -> Option<usize> {
    let i = (letter as usize).wrapping_sub('A' as usize);
    (letter.is_ascii_uppercase() && i < seats).then_some(i)
}

/// The letter of a seat: `A` for seat 0.
pub fn letter_of(seat: usize) -> char {
    (b'A' + seat as u8) as char
}

/// Whether a case line sets a seat's state (`A: ...`).
pub fn is_seat_line(line: &str, seats: usize) -> bool {
    let mut cs = line.chars();
    matches!((cs.next(), cs.next()), (Some(c), Some(':')) if seat_of(c, seats).is_some())
}

/// Removes the indentation common to all non-blank lines, and blank lines
/// at both ends, so that cases can be indented with the code.
pub fn dedent(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches(' ').len())
        .min()
        .unwrap_or(0);
    let mut out: Vec<&str> = lines.iter().map(|l| if l.len() >= indent { &l[indent..] } else { "" }).collect();
    while out.first().is_some_and(|l| l.trim().is_empty()) {
        out.remove(0);
    }
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
    }
    out
}
