//! The seat-order property, shared by the games' simulation tests.
//!
//! Players move at the same time, so the seat numbers must not matter:
//! stepping a state whose seats were relabelled, with the actions relabelled
//! the same way, must give the relabelled result of stepping the original,
//! and nothing else may differ (scores, bodies, items, the random stream).
//! [`step_checked`] checks that on every tick of a simulated game, with a
//! fresh random relabelling each time.
//!
//! The engines draw random cells for seats (a respawn, a new piece) in an
//! order given by what the seats are (their scores), never by their
//! numbers. What no rule can do is tell apart two seats that are alike in
//! everything but their numbers: which of them gets which of the drawn
//! cells is up to the draw. So the one leeway is this, and only for the
//! seats the tick drew a cell for: the relabelled result may be the
//! expected one with some of those seats swapped among themselves, when the
//! whole state (their cells, scores and all, the random stream too) then
//! matches exactly. Seats that differ in anything besides the drawn cell
//! cannot pass that way, so a draw taken in seat order fails the property.

// Each test file uses only some of these helpers.
#![allow(dead_code)]

use snakepit_engine::{Game, Rng};
use std::fmt::Debug;

/// A uniformly random permutation of `0..n`.
pub fn permutation(n: usize, rng: &mut Rng) -> Vec<usize> {
    let mut p: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        p.swap(i, rng.index(i + 1));
    }
    p
}

/// For games whose ticks never draw a cell for a seat.
pub fn no_draws<E>(_: &[E]) -> Vec<(usize, ())> {
    Vec::new()
}

/// Steps `game` with `actions` and checks the property against a random
/// relabelling drawn from `rng`. `drawn_for` lists, from a tick's events,
/// the seats the tick drew a random cell for, each with its cell. Returns
/// the tick's events, or what differed.
pub fn step_checked<G: Game + PartialEq + Debug, D: PartialEq>(
    game: &mut G,
    actions: &[G::Action],
    rng: &mut Rng,
    drawn_for: impl Fn(&[G::Event]) -> Vec<(usize, D)>,
) -> Result<Vec<G::Event>, String> {
    let from = permutation(game.seats(), rng);
    let to = snakepit_engine::game::relabel_inverse(&from);
    let mut relabelled = game.relabel_seats(&from);
    let relabelled_actions: Vec<G::Action> = from.iter().map(|&j| actions.get(j).cloned().unwrap_or_default()).collect();
    let before = game.clone();
    let relabelled_events = relabelled.step(&relabelled_actions);
    let events = game.step(actions);
    let want = game.relabel_seats(&from);
    if relabelled == want {
        return Ok(events);
    }
    // The drawn cells, both sides numbering the seats as the relabelled
    // game does: the seat that drew a cell in one run is matched with the
    // seat that drew the same cell in the other.
    let expected: Vec<(usize, D)> = drawn_for(&events).into_iter().map(|(s, d)| (to[s], d)).collect();
    let got = drawn_for(&relabelled_events);
    if let Some(swap) = draws_swapped(&expected, &got, want.seats())
        && want.relabel_seats(&swap) == relabelled
    {
        return Ok(events);
    }
    Err(format!(
        "seat i played as seat from[i], from = {from:?}, actions {actions:?}\nevents {events:?}\n{}\nstate before the tick:\n{before:#?}",
        first_difference(&format!("{want:#?}"), &format!("{relabelled:#?}"))
    ))
}

/// The relabelling (seat `i` of the result is seat `from[i]`) that moves
/// each drawn cell of `expected` to the seat that drew it in `got`, when
/// both runs drew the same cells for the same seats, only shared out
/// differently; `None` otherwise.
fn draws_swapped<D: PartialEq>(expected: &[(usize, D)], got: &[(usize, D)], seats: usize) -> Option<Vec<usize>> {
    if expected.len() != got.len() {
        return None;
    }
    let mut from: Vec<usize> = (0..seats).collect();
    let mut moved = vec![false; seats];
    for (seat, cell) in got {
        let (other, _) = expected.iter().find(|(_, c)| c == cell)?;
        if moved[*seat] || *other >= seats || *seat >= seats {
            return None;
        }
        moved[*seat] = true;
        from[*seat] = *other;
    }
    // Only drawn seats may trade, and only with each other.
    let mut sorted = from.clone();
    sorted.sort_unstable();
    (sorted.iter().enumerate().all(|(i, &j)| i == j) && expected.iter().all(|(s, _)| moved[*s])).then_some(from)
}

/// The first lines where two pretty-printed states differ, with context.
fn first_difference(want: &str, got: &str) -> String {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    let at = w.iter().zip(&g).position(|(a, b)| a != b).unwrap_or(w.len().min(g.len()));
    let from = at.saturating_sub(12);
    format!(
        "relabelled result, expected:\n{}\nrelabelled result, got:\n{}",
        w[from..(at + 4).min(w.len())].join("\n"),
        g[from..(at + 4).min(g.len())].join("\n")
    )
}
