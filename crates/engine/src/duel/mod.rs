//! KingOfBots Snake: two snakes on a 13x14 map with walls, no
//! food, growth on a schedule; the first to die loses.
//!
//! Rows and columns follow upstream: a [`Pos`](crate::Pos) has `x` the
//! column and `y` the row, row 0 at the top. A is seat 0 and starts at
//! (row 11, col 1), bottom left; B is seat 1 and starts at (row 1, col 12),
//! top right. The map comes from upstream's generator ([`DuelMap::generate`],
//! seeded by the game's seed) or is drawn ([`DuelMap::parse`]).
//!
//! # The round
//!
//! The named stages of [`STAGES`], in order:
//!
//! 1. `forfeit`: a bot that failed loses at once, before anybody moves (a
//!    draw if both failed), as upstream ends the game on a missing move.
//! 2. `move`: both snakes add a head in their direction; the tail drops
//!    unless the step grows the snake (steps 1-10, then 13, 16, 19, ...).
//! 3. `judge`: on the bodies after the step, a head outside the map, on a
//!    wall, on its own body, on the other's body or on the other's head
//!    dies. One death: the other side wins; two: a draw.
//! 4. `round_limit`: after [`Settings::rounds_max`] rounds with both alive,
//!    a draw.
//!
//! Once the game is over, [`Game::step`](crate::Game::step) does nothing.
//!
//! # Rule sentences of KingOfBots' description and where they are tested
//!
//! Each sentence of KingOfBots' description that states a rule has a test of the same name
//! in `tests/duel_rules.rs`, as do the decisions taken where the description is
//! silent or upstream's code differs from it:
//!
//! | rule sentence | test |
//! |---|---|
//! | two players, each round both decide at the same time | `moves_are_simultaneous` |
//! | a snake is a sequence of adjacent cells, the first is the head; a move inserts a head and drops the tail | `snake_moves_head_first` |
//! | the player only controls the direction of the head (east, south, west, north) | `four_directions` |
//! | starts bottom left and top right, length 1 | `starts_bottom_left_and_top_right_at_length_one` |
//! | no food; the length grows by 1 every round in the first 10 rounds | `grows_every_step_for_ten_steps` |
//! | from round 11 on, it grows by 1 every 3 rounds | `then_grows_every_third_step` |
//! | the map is a 13x14 grid of grass and obstacles | `map_is_13_by_14_with_symmetric_walls` |
//! | a head outside the grid dies | `head_outside_dies` |
//! | a head on an obstacle dies | `head_on_wall_dies` |
//! | a head on its own body dies | `head_on_own_body_dies` |
//! | a head on the opponent's body dies | `head_on_opponent_body_dies` |
//! | an illegal operation dies | `invalid_move_loses` |
//! | the game ends when either snake dies | `game_ends_at_first_death` |
//! | snakes dying at the same time draw | `simultaneous_deaths_draw` |
//! | otherwise the first to die loses and the other wins | `first_to_die_loses` |
//! | the bot's answer: 0, 1, 2, 3 are up, right, down, left | `direction_numbers` |
//! | decision (upstream lets it pass): heads in the same cell both die, a draw | `head_on_same_cell_draws` |
//! | decision: heads that swap cells both die | `head_swap_draws` |
//! | decision: a head may enter the cell a tail leaves in the same step | `entering_a_vacated_tail_cell_is_allowed` |
//! | decision: on a growth step the tail stays, and blocks | `growing_tail_blocks` |
//! | decision: 1000 rounds without a death are a draw | `round_limit_draws` |
//! | decision: both bots failing in one round is a draw | `both_forfeit_draw` |
//! | decision: no decision keeps the direction (A up, B down at first) | `no_decision_keeps_direction` |
//! | upstream: the walls are redrawn until the starts connect | `generated_map_connects_the_starts` |
//!
//! `tests/duel_sim.rs` plays seeded random games, checking
//! [`Duel::check_invariants`] and determinism after every round.

mod map;
mod settings;
mod state;

/// What a KingOfBots snake is told to do in one round.
///
/// A bot answers a direction number, `0` up, `1` right, `2` down, `3` left
/// (the protocol crate reads it); a person presses W, D, S or A. A bot that
/// answers anything else, too late or not at all, or crashes, loses the
/// game: the runner reports all of those as [`Action::Forfeit`], so the
/// rules see one action and replays record it.
pub use crate::move_action::MoveAction as Action;

/// KingOfBots' direction number as an action: `0` up, `1` right, `2` down,
/// `3` left.
pub fn action_from_number(n: u8) -> Option<Action> {
    crate::geom::Dir::ALL.get(usize::from(n)).map(|&d| Action::Move(d))
}

pub use map::{DuelMap, MapError, MapProblem};
pub use settings::{SIDE_MAX, Settings, SettingsError};
pub use state::{Death, Duel, EndReason, Event, Outcome, STAGES, Snake, SnakeIdx, Stage, body_from_steps};

#[cfg(test)]
mod number_tests {
    use super::*;
    use crate::geom::Dir;

    #[test]
    fn numbers_are_the_seeds() {
        assert_eq!(action_from_number(0), Some(Action::Move(Dir::Up)));
        assert_eq!(action_from_number(1), Some(Action::Move(Dir::Right)));
        assert_eq!(action_from_number(2), Some(Action::Move(Dir::Down)));
        assert_eq!(action_from_number(3), Some(Action::Move(Dir::Left)));
        assert_eq!(action_from_number(4), None);
    }
}
