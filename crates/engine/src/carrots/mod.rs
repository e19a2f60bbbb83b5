//! CodeCarrots snakes: one endless shared board, apples, and the
//! longest length ever reached as the score.
//!
//! Players come and go ([`Carrots::set_present`]); the board never resets.
//! Every live snake moves every tick; a bot that answers badly, too late or
//! not at all, or whose owner submits new code, forfeits and its snake dies
//! ([`Action::Forfeit`]). The rules follow CodeCarrots' description,
//! upstream's `judge.py` where it is silent, and the choices of
//! `docs/rules.md`. Where upstream's code departs from the description
//! (the timing of a respawn), the description is the default and
//! upstream's way a setting.
//!
//! # The tick
//!
//! The named stages of [`STAGES`], in order:
//!
//! 1. `forfeit`: snakes whose bot failed die where they are.
//! 2. `move`: every live snake adds a head in its direction and drops its
//!    tail, except in the tick after it ate (growth comes one tick after
//!    eating). All tails go first, so a head may enter the cell a tail
//!    leaves in the same tick, even its own.
//! 3. `score`: a snake longer than ever before raises its score.
//! 4. `collide`: a head off the board dies (the head is dropped from the
//!    body); heads in the same cell all die; a head on any snake cell dies,
//!    whether that snake is alive, died earlier in this tick (in `forfeit`,
//!    or in `collide` itself) or, with [`Settings::bodies_stay`], lies dead
//!    awaiting its respawn; a head on an apple eats it.
//! 5. `respawn`: the bodies of the snakes that died in this tick leave the
//!    board (with [`Settings::bodies_stay`]: the bodies of the snakes that
//!    died [`Settings::respawn_ticks`] ticks ago), and their cells are free:
//!    apples may appear there and heads may enter them. A seat whose snake
//!    died [`Settings::respawn_ticks`] ticks ago, and every other present
//!    seat without a snake, gets one of length 1 on a random free cell (no
//!    snake, no apple), facing right; several such seats draw in order of
//!    their scores, lowest first, not of their seat numbers.
//! 6. `spawn_apple`: while fewer than [`Settings::apples_max`] apples lie on
//!    the board, one attempt (up to 100 random cells) to place one.
//!
//! CodeCarrots' description: "when a snake dies it is removed from the board,
//! its length is reset to 1 and it re-spawns on a random field in the next time
//! step". With the defaults (`respawn_ticks=1`, `bodies_stay=false`), a snake
//! that dies in tick `t` is gone from the board sent after tick `t`, and
//! reappears at length 1 at the end of tick `t + 1`: its bot's first answer
//! after the death is played in tick `t + 2`.
//!
//! Upstream's code does otherwise: the process is killed at `t + 1`, the
//! dead body stays as `#` until the new snake is placed at `t + 2`, and the
//! first move is at `t + 3`. The settings `bodies_stay=true
//! respawn_ticks=2` play that way: the body lies on the board in the boards
//! of ticks `t` and `t + 1`, and leaves as the snake reappears at the end of
//! tick `t + 2`.
//!
//! # Rule sentences of CodeCarrots' description and where they are tested
//!
//! Each sentence of the CodeCarrots description that states a rule has a test of the same name
//! in `tests/carrots_rules.rs`, as do the decisions taken where the description
//! is silent:
//!
//! | rule sentence | test |
//! |---|---|
//! | all snakes occupy the same single board and move simultaneously in synchronized steps | `snakes_move_simultaneously` |
//! | a snake dies if its head attempts to leave the board boundaries | `leaving_the_board_kills` |
//! | ... or to move to a field occupied by a snake (including itself) | `head_on_another_snake_kills`, `head_on_itself_kills` |
//! | a snake dies if its program performs an illegal or unrecognized move | `invalid_move_kills` |
//! | a snake dies when a new version of its code is submitted | `new_code_kills` |
//! | a snake dies when it thinks too long | `timeout_kills` |
//! | the score is the snake's maximum achieved length | `score_is_longest_length` |
//! | when a snake dies it is removed from the board | `dead_body_leaves_the_board_at_once` |
//! | its length is reset to 1 and it re-spawns on a random field in the next time step | `dead_snake_respawns_at_length_one` |
//! | decision: snakes respawning in one tick draw their cells in order of score, lowest first, whatever their seats | `respawns_draw_by_score_whatever_the_seats` |
//! | the snake's score is preserved when it dies | `score_survives_death` |
//! | `.`: empty field, safe to move there | `empty_field_is_safe` |
//! | `o`: apple, eat those to grow your snake | `apple_grows_snake_next_tick` |
//! | `#`: part of a snake, yours or an opponent's | `head_on_another_snake_kills`, `head_on_itself_kills` |
//! | valid moves are `left`, `right`, `up`, `down` | `moves_in_four_directions` |
//! | decision: heads that meet in one cell all die | `heads_that_meet_all_die` |
//! | decision: a snake that dies blocks the other heads of its last tick | `dying_snake_blocks_in_its_last_tick` |
//! | decision: a dead snake's cells are free from the next tick: heads may enter them, apples and snakes may appear there | `dead_snakes_cells_are_free_next_tick` |
//! | setting: upstream's timing, `bodies_stay=true respawn_ticks=2`: the dead body stays as `#` until the respawn two ticks later | `upstream_dead_body_stays_until_respawn` |
//! | decision: a head may enter a cell a tail leaves in the same tick | `entering_a_vacated_tail_cell_is_allowed`, `length_two_snake_can_reverse` |
//! | decision: in the tick after eating the tail stays, and blocks | `growing_tail_blocks` |
//! | decision: a head that dies on an apple does not eat it | `dying_head_does_not_eat` |
//! | decision: no answer keeps the direction; a new snake faces right | `no_answer_keeps_direction` |
//! | decision: no apples at the start, one spawn attempt per tick, a cap | `apples_spawn_one_per_tick_up_to_cap` |
//! | decision: players join and leave at any time | `player_joins_and_leaves` |
//!
//! `tests/carrots_sim.rs` plays seeded random games, checking
//! [`Carrots::check_invariants`], the events and determinism after every
//! tick.

mod settings;
mod state;

/// What a CodeCarrots snake is told to do in one tick.
///
/// A bot answers `left`, `right`, `up` or `down`; the protocol crate reads
/// that line. Anything else, no answer in time, a crashed process or new
/// code kills the snake: the runner reports all of those as
/// [`Action::Forfeit`], so the rules see one action and replays record it.
pub use crate::move_action::MoveAction as Action;
pub use settings::{SIDE_MAX, Settings, SettingsError};
pub use state::{Carrots, Death, Event, Life, NewGameError, STAGES, Snake, SnakeIdx, Stage};
