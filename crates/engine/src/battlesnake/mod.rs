//! Battlesnake: the official rulesets standard, solo, royale, wrapped,
//! constrictor and wrapped_constrictor on the standard map.
//!
//! # The turn
//!
//! A ruleset is data: a game-over stage and a named, ordered list of
//! stages ([`Ruleset::stages`]), with the official stage names. Modes swap
//! or add stages; none forks the engine.
//!
//! | ruleset | stages after the game-over stage |
//! |---|---|
//! | standard, solo | `movement.standard`, `starvation.standard`, `hazard_damage.standard`, `feed_snakes.standard`, `elimination.standard`, `spawn_food.standard` |
//! | royale | standard with `spawn_hazards.shrink_map` before `spawn_food.standard` |
//! | wrapped | standard with `movement.wrap_boundaries` for `movement.standard` |
//! | constrictor | standard with `spawn_food.no_food`, `modify_snakes.always_grow` for `spawn_food.standard` |
//! | wrapped_constrictor | constrictor with `movement.wrap_boundaries` |
//!
//! The game-over stage is `game_over.standard` (over at one snake or
//! fewer), or `game_over.solo_snake` (over at none) for solo and for any
//! game of one snake, as the official CLI builds it. It runs first in every
//! turn and stops a finished game's turn there. `spawn_food.standard` is
//! the official standard map's per-turn update, folded into the pipeline as
//! its last stage (the official engine runs it after the pipeline); it does
//! what the map does.
//!
//! # Where these rules come from and where they are tested
//!
//! From the official rules (BattlesnakeOfficial/rules: `standard.go`,
//! `royale.go`, `wrapped.go`, `constrictor.go`, `solo.go`, `board.go`,
//! `maps/standard.go`) and the documentation at docs.battlesnake.com. Each
//! rule has a test of the same name in `tests/battlesnake_rules.rs`:
//!
//! | rule | test |
//! |---|---|
//! | every live snake moves one cell; its tail follows | `moves_one_cell` |
//! | no usable move: the snake repeats its last move | `no_move_repeats_last_move` |
//! | no usable move on the first turn: up | `first_turn_default_is_up` |
//! | health drops by 1 each turn | `health_drops_each_turn` |
//! | health 0: eliminated (`out-of-health`) | `out_of_health_is_eliminated` |
//! | food: health back to 100, one segment longer at the tail | `food_restores_health_and_grows` |
//! | feeding comes before elimination: food at health 1 saves | `food_saves_a_starving_snake` |
//! | a hazard costs `hazardDamagePerTurn` (14) | `hazard_costs_damage` |
//! | health used up in a hazard: eliminated (`hazard`) | `hazard_eliminates` |
//! | food in a hazard cancels the damage | `food_in_hazard_cancels_damage` |
//! | head off the board: eliminated (`wall-collision`) | `out_of_bounds_is_eliminated` |
//! | head in its own body (`snake-self-collision`) | `self_collision_is_eliminated` |
//! | head in another body (`snake-collision`) | `body_collision_is_eliminated` |
//! | head to head: the shorter is eliminated (`head-collision`) | `head_to_head_shorter_is_eliminated` |
//! | head to head, equal length: both | `head_to_head_equal_both_eliminated` |
//! | decision: of equally long snakes, the credit for an elimination goes by where they lie, not by seat (the official engine takes the lower seat) | `three_heads_credit_by_place_not_seat`, `three_heads_credit_whatever_the_seats` |
//! | several heads on one food all eat, then meet | `two_heads_share_a_food` |
//! | a tail moves away in the same turn: following it is safe | `following_a_tail_is_safe` |
//! | a tail stacked by eating stays: hitting it is a collision | `tail_after_eating_is_solid` |
//! | collisions are decided together, then applied | `collisions_are_simultaneous` |
//! | snakes out of health or bounds leave before collisions | `eliminated_first_are_no_obstacle` |
//! | food is topped up to `minimumFood` | `minimum_food_is_restored` |
//! | `foodSpawnChance` percent: one more food | `food_spawn_chance` |
//! | new food never lands next to a head | `food_never_spawns_next_to_a_head` |
//! | standard: over when one snake is left; it wins | `standard_ends_with_one_snake_left` |
//! | solo: over when no snake is left | `solo_ends_when_no_snake_is_left` |
//! | one snake in a standard game plays as solo | `one_snake_standard_plays_solo` |
//! | a finished game does not change | `finished_game_stands_still` |
//! | royale: an edge moves in every `shrinkEveryNTurns` turns | `royale_shrinks_every_n_turns` |
//! | royale: a new hazard does not hurt in the turn it appears | `royale_new_hazard_spares_its_first_turn` |
//! | wrapped: leaving an edge enters at the opposite one | `wrapped_crosses_the_edge` |
//! | wrapped: the default move is read across the edge | `wrapped_default_move_across_the_edge` |
//! | constrictor: every snake grows every turn at full health | `constrictor_always_grows` |
//! | constrictor: there is no food | `constrictor_has_no_food` |
//! | wrapped_constrictor: both | `wrapped_constrictor_grows_across_the_edge` |
//! | start: 7x7, corners and side middles, food two moves away and in the center | `opening_7x7` |
//! | start: 11x11 | `opening_11x11` |
//! | start: 19x19 | `opening_19x19` |
//! | start: more than 4 snakes on 7x7, center food only | `opening_7x7_crowded` |
//! | the same seed gives the same opening | `same_seed_same_opening` |
//!
//! `tests/battlesnake_sim.rs` plays thousands of seeded games of every
//! ruleset and checks [`Battlesnake::check_invariants`], the events and
//! determinism after every turn.
//!
//! # Where this engine differs from the official one, on purpose
//!
//! - Coordinates are the engine's: `y` grows downward and `Up` is toward
//!   row 0. The protocol crate flips them into the API's `y`-up form; the
//!   start positions are computed in the API's form, so they are the
//!   official ones.
//! - Every random choice comes from the game's own generator, so a seed
//!   fixes the whole game, the seats' start positions included.
//! - `foodSpawnChance` is exactly that percent (the official Go code draws
//!   one percent less than it says).
//! - Bad settings are errors rather than silently replaced by defaults.
//! - Only the standard map exists; royale hazards come from the ruleset's
//!   stage as in the official `royale` ruleset.

mod bits;
mod settings;
mod setup;
mod state;

pub use settings::{BOARD_SIDE_MAX, BOARD_SIDE_MIN, MAP_STANDARD, RawSettings, Ruleset, Settings, SettingsError};
pub use setup::{SNAKES_MAX, START_LENGTH};
pub use state::{
    Action, Battlesnake, CONSTRICTOR_STAGES, Cause, Elimination, Event, GAME_OVER_SOLO, GAME_OVER_STANDARD,
    GameOverStage, HEALTH_MAX, NewGameError, Position, ROYALE_STAGES, STANDARD_STAGES, SafeMoves, Snake, SnakeIdx,
    SnakeSetup, Stage, WRAPPED_CONSTRICTOR_STAGES, WRAPPED_STAGES,
};
