//! The seat-order property, shared by the games' simulation tests.
//!
//! Players move at the same time, so the seat numbers must not matter:
//! stepping a state whose seats were relabelled, with the actions relabelled
//! the same way, must give the relabelled result of stepping the original,
//! and nothing else may differ (scores, bodies, items, the random stream).
//! [`step_checked`] checks that on every tick of a simulated game, with a
//! fresh random relabelling each time. The one tick it cannot judge is one
//! in which a random cell was drawn for a seat (a respawn, a new piece):
//! which of two waiting seats gets which cell is up to the draw. The next
//! tick is judged again, from the original game.

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

/// Steps `game` with `actions` and checks the property against a random
/// relabelling drawn from `rng`, unless `drawn_for_a_seat` says the tick
/// drew a cell for a seat. Returns the tick's events, or what differed.
pub fn step_checked<G: Game + PartialEq + Debug>(
    game: &mut G,
    actions: &[G::Action],
    rng: &mut Rng,
    drawn_for_a_seat: impl Fn(&[G::Event]) -> bool,
) -> Result<Vec<G::Event>, String> {
    let from = permutation(game.seats(), rng);
    let mut relabelled = game.relabel_seats(&from);
    let relabelled_actions: Vec<G::Action> = from.iter().map(|&j| actions.get(j).cloned().unwrap_or_default()).collect();
    let before = game.clone();
    relabelled.step(&relabelled_actions);
    let events = game.step(actions);
    if drawn_for_a_seat(&events) {
        return Ok(events);
    }
    let want = game.relabel_seats(&from);
    if relabelled != want {
        return Err(format!(
            "seat i played as seat from[i], from = {from:?}, actions {actions:?}\nevents {events:?}\n{}\nstate before the tick:\n{before:#?}",
            first_difference(&format!("{want:#?}"), &format!("{relabelled:#?}"))
        ));
    }
    Ok(events)
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
