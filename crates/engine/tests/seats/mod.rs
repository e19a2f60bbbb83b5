//! The seat-order property, shared by the games' simulation tests.
//!
//! Players move at the same time, so the seat numbers must not matter:
//! stepping a state whose seats were relabelled, with the actions relabelled
//! the same way, must give the relabelled result of stepping the original,
//! and nothing else may differ (scores, bodies, items, the random stream).
//! The tick's events are the relabelled events too ([`Game::relabel_event`]):
//! every seat named in them follows, and a list of seats that stands for
//! a set is in ascending order. They are compared as a multiset, because
//! the order of a tick's events follows its stages and, within a stage,
//! may follow the seats; a reader takes a tick's events together (a line
//! each in a log, notes on a board), so their order carries no meaning.
//! [`step_checked`] checks all that on every tick of a simulated game, with
//! a fresh random relabelling each time.
//!
//! The engines draw random cells for seats (a respawn, a new piece) in an
//! order given by what the seats are (their scores), never by their
//! numbers. What no rule can do is tell apart two seats that are alike in
//! everything but their numbers: which of them gets which of the drawn
//! cells (or, when cells run out, which of them gets the last one) is up
//! to the draw. So the one leeway is this, and only for the seats the tick
//! drew a cell for: the relabelled result may be the expected one with
//! those seats trading their cells (or a cell for waiting), when the whole
//! state (their bodies, scores and all, the random stream too) then matches
//! exactly, and the events name the seats as traded. Seats that differ in
//! anything besides the drawn cell cannot pass that way, so a draw taken in
//! seat order fails the property.

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
) -> Result<Vec<G::Event>, String>
where
    G::Event: PartialEq,
{
    let from = permutation(game.seats(), rng);
    let to = snakepit_engine::game::relabel_inverse(&from);
    let mut relabelled = game.relabel_seats(&from);
    let relabelled_actions: Vec<G::Action> = from.iter().map(|&j| actions.get(j).cloned().unwrap_or_default()).collect();
    let before = game.clone();
    let relabelled_events = relabelled.step(&relabelled_actions);
    let events = game.step(actions);
    let want = game.relabel_seats(&from);
    let failure = |from: &[usize], state: String| {
        format!(
            "seat i played as seat from[i], from = {from:?}, actions {actions:?}\nevents {events:?}\n{state}\nstate before the tick:\n{before:#?}"
        )
    };
    if relabelled == want {
        return events_match::<G>(&events, &relabelled_events, &[&from])
            .map(|()| events.clone())
            .map_err(|e| failure(&from, e));
    }
    // The drawn cells, both sides numbering the seats as the relabelled
    // game does: the seat that drew a cell in one run is matched with the
    // seat that drew the same cell in the other.
    let expected: Vec<(usize, D)> = drawn_for(&events).into_iter().map(|(s, d)| (to[s], d)).collect();
    let got = drawn_for(&relabelled_events);
    if let Some(swap) = draws_swapped(&expected, &got, want.seats())
        && want.relabel_seats(&swap) == relabelled
    {
        // An event of a traded seat follows the trade when it comes from
        // the drawn cell (the spawn, what the new snake ran into) and the
        // plain relabelling when it comes from the seat's answer (a move
        // refused by the restart): either may name it. Seats that did not
        // trade are named by the plain relabelling in both.
        let traded: Vec<usize> = swap.iter().map(|&k| from[k]).collect();
        return events_match::<G>(&events, &relabelled_events, &[&from, &traded])
            .map(|()| events.clone())
            .map_err(|e| failure(&from, e));
    }
    Err(failure(&from, first_difference(&format!("{want:#?}"), &format!("{relabelled:#?}"))))
}

/// Whether the relabelled game's events `got` are the original's `events`
/// relabelled, as a multiset: each event of `events` relabelled by one of
/// `froms` must match its own event of `got`; otherwise what differs.
fn events_match<G: Game>(events: &[G::Event], got: &[G::Event], froms: &[&[usize]]) -> Result<(), String>
where
    G::Event: PartialEq,
{
    let forms: Vec<Vec<G::Event>> = events.iter().map(|e| froms.iter().map(|f| G::relabel_event(e, f)).collect()).collect();
    // A matching of `events` to `got` (Kuhn's augmenting paths): with two
    // forms per event a greedy pick could take the event another needs.
    let fits = |i: usize, j: usize| forms[i].iter().any(|f| *f == got[j]);
    fn augment(i: usize, fits: &dyn Fn(usize, usize) -> bool, seen: &mut [bool], owner: &mut [Option<usize>]) -> bool {
        for j in 0..owner.len() {
            if !seen[j] && fits(i, j) {
                seen[j] = true;
                if owner[j].is_none_or(|k| augment(k, fits, seen, owner)) {
                    owner[j] = Some(i);
                    return true;
                }
            }
        }
        false
    }
    let mut owner: Vec<Option<usize>> = vec![None; got.len()];
    let missing: Vec<&G::Event> =
        (0..events.len()).filter(|&i| !augment(i, &fits, &mut vec![false; got.len()], &mut owner)).map(|i| &forms[i][0]).collect();
    let extra: Vec<&G::Event> = (0..got.len()).filter(|&j| owner[j].is_none()).map(|j| &got[j]).collect();
    if missing.is_empty() && extra.is_empty() {
        return Ok(());
    }
    let want: Vec<&G::Event> = forms.iter().map(|f| &f[0]).collect();
    Err(format!(
        "the states match, the events do not:\nrelabelled events, expected:\n{want:?}\nrelabelled events, got:\n{got:?}\nexpected only: {missing:?}\ngot only: {extra:?}"
    ))
}

/// The relabelling (seat `i` of the result is seat `from[i]`) that moves
/// each drawn cell of `expected` to the seat that drew it in `got`; `None`
/// when the two runs did not draw the same cells. A seat that drew a cell
/// in one run and none in the other (no cell was left for it) trades with
/// one that did the reverse; every other seat keeps its number.
fn draws_swapped<D: PartialEq>(expected: &[(usize, D)], got: &[(usize, D)], seats: usize) -> Option<Vec<usize>> {
    let mut from: Vec<Option<usize>> = vec![None; seats];
    let mut taken = vec![false; seats];
    for (seat, cell) in got {
        let &(other, _) = expected.iter().find(|(_, c)| c == cell)?;
        if *seat >= seats || other >= seats || from[*seat].is_some() || taken[other] {
            return None;
        }
        from[*seat] = Some(other);
        taken[other] = true;
    }
    if got.len() != expected.len() {
        return None;
    }
    // The seats left: a seat that drew only in `expected` takes the place
    // of one that drew only in `got`, pairing them in seat order; those
    // that drew in neither keep their numbers.
    let sources: Vec<usize> = (0..seats).filter(|&s| from[s].is_none() && taken[s]).collect();
    let targets: Vec<usize> = (0..seats).filter(|&s| !taken[s] && from[s].is_some()).collect();
    if sources.len() != targets.len() {
        return None;
    }
    for (&source, &target) in sources.iter().zip(&targets) {
        from[source] = Some(target);
    }
    for (s, f) in from.iter_mut().enumerate() {
        f.get_or_insert(s);
    }
    from.into_iter().collect()
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

/// The property's own checks, on a toy game whose seats wait for one of a
/// few cells: drawing in order of score passes, also when alike seats
/// trade cells or the last cell; drawing in seat order fails.
mod toy {
    use super::{no_draws, step_checked};
    use snakepit_engine::game::ParseActionError;
    use snakepit_engine::{Game, Rng};

    #[derive(Clone, Debug, PartialEq)]
    struct Toy {
        /// Per seat: its score and the cell it holds.
        seats: Vec<(i64, Option<u8>)>,
        cells: u8,
        by_score: bool,
        rng: Rng,
    }

    impl Game for Toy {
        type Action = ();
        type Event = (usize, u8);
        fn name(&self) -> &'static str {
            "toy"
        }
        fn seats(&self) -> usize {
            self.seats.len()
        }
        fn step(&mut self, _: &[()]) -> Vec<(usize, u8)> {
            let mut waiting: Vec<usize> = (0..self.seats.len()).filter(|&s| self.seats[s].1.is_none()).collect();
            if self.by_score {
                waiting.sort_by_key(|&s| self.seats[s].0);
            }
            let mut ev = Vec::new();
            for seat in waiting {
                let free: Vec<u8> = (0..self.cells).filter(|c| !self.seats.iter().any(|s| s.1 == Some(*c))).collect();
                if free.is_empty() {
                    break;
                }
                let cell = free[self.rng.index(free.len())];
                self.seats[seat].1 = Some(cell);
                ev.push((seat, cell));
            }
            ev
        }
        fn tick(&self) -> u64 {
            0
        }
        fn checksum(&self) -> u64 {
            0
        }
        fn scores(&self) -> Vec<i64> {
            self.seats.iter().map(|s| s.0).collect()
        }
        fn relabel_seats(&self, from: &[usize]) -> Toy {
            Toy { seats: from.iter().map(|&j| self.seats[j]).collect(), ..self.clone() }
        }
        fn relabel_event(&(seat, cell): &(usize, u8), from: &[usize]) -> (usize, u8) {
            (snakepit_engine::game::relabel_inverse(from)[seat], cell)
        }
        fn action_to_text(_: &()) -> String {
            String::new()
        }
        fn action_from_text(_: &str) -> Result<(), ParseActionError> {
            Ok(())
        }
    }

    /// Whether a tick passes under 64 random relabellings, for seats with
    /// these scores waiting for `cells` cells.
    fn passes(scores: &[i64], cells: u8, by_score: bool) -> bool {
        (0..64).all(|seed| {
            let seats = scores.iter().map(|&s| (s, None)).collect();
            let mut toy = Toy { seats, cells, by_score, rng: Rng::new(seed) };
            let mut rng = Rng::new(seed ^ 0x70);
            let drawn = |ev: &[(usize, u8)]| ev.to_vec();
            step_checked(&mut toy, &[], &mut rng, drawn).is_ok()
        })
    }

    #[test]
    fn draws_by_score_pass() {
        assert!(passes(&[3, 1, 2], 5, true), "different scores");
        assert!(passes(&[1, 1, 1], 5, true), "alike seats trade cells");
        assert!(passes(&[1, 1, 0], 2, true), "alike seats trade the last cell");
    }

    #[test]
    fn draws_by_seat_fail() {
        assert!(!passes(&[3, 1, 2], 5, false), "different scores");
        assert!(!passes(&[1, 0], 1, false), "the last cell goes to the lower seat");
    }

    #[test]
    fn without_the_draws_alike_seats_may_not_trade() {
        // Told of no draw, the property allows no trade at all.
        let seats = vec![(1, None), (1, None)];
        let failed = (0..64).any(|seed| {
            let mut toy = Toy { seats: seats.clone(), cells: 5, by_score: true, rng: Rng::new(seed) };
            step_checked(&mut toy, &[], &mut Rng::new(seed ^ 0x70), no_draws).is_err()
        });
        assert!(failed);
    }
}
