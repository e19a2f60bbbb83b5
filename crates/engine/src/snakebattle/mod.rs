//! Codenjoy SnakeBattle: five snakes on one field, apples,
//! stones, gold, fury pills, rounds.
//!
//! # The tick
//!
//! A running tick is the named list of stages in [`STAGES`], in the CodeBattle
//! description's order of processing: `commands` (new directions, `ACT(0)`, a
//! stone dropped before the move), `move`, `fight`, `eat`,
//! `fight_after_eating`, `spawn_items`, `drop_after_move`, `round_end`. Before
//! the stages, dead snakes respawn on a random free start floor, drawn in order
//! of their scores, lowest first, not of their seats (a snake that appears so
//! ignores this tick's answer, which was sent to the board that showed it
//! dead); during the countdown only that and the countdown happen. Each fight
//! stage judges all snakes at once, on the position it starts from, and pays
//! its kills and bites at its end, to the snakes alive then. A length a snake
//! owes from a head-on is taken from its cells at its next move (the CodeBattle
//! description's movement step 2), but every later check of the same tick (a
//! second head-on, a stone, a bite, the round's end) already counts it.
//!
//! # Rule sentences of the CodeBattle description and where they are tested
//!
//! Each sentence of CodeBattle's SnakeBattle description that states a rule has a test of the same name
//! in `tests/snakebattle_rules.rs`, as do the decisions taken where the
//! description is silent and the `codenjoy` profile's differences:
//!
//! | rule sentence | test |
//! |---|---|
//! | no command: keep the previous direction; the first is right | `default_direction_is_right`, `no_command_keeps_direction` |
//! | a 180-degree turn is ignored | `reversal_is_ignored` |
//! | a wall kills | `wall_kills` |
//! | a start floor kills (upstream `isBarrier`) | `start_floor_kills` |
//! | running into another snake kills | `crash_into_body_kills` |
//! | a stone shortens by 3; below 2 the snake dies | `stone_shrinks_by_three`, `stone_kills_short_snake` |
//! | an apple lengthens by 1 | `apple_grows` |
//! | fury lasts 15 moves, bites bodies, eats stones freely | `fury_lasts_fifteen_ticks`, `fury_bites_body`, `fury_eats_stone_freely` |
//! | gold only gives points | `gold_scores` |
//! | biting one's own tail shortens, nothing else | `self_bite_cuts_tail` |
//! | head-on: the shorter dies, the longer loses its length | `head_on_shorter_dies`, `head_on_equal_lengths_both_die` |
//! | movement step 2: a length owed is taken before the next move | `head_on_survivor_shrinks_on_next_move` |
//! | example 2: the survivor's length is 11-7=4 at once, for the round's end and its win | `head_on_survivor_wins_with_length_after_cut`, `timeout_longest_counts_length_after_cut`, `max_length_counts_length_after_cut` |
//! | decision: every length lost in a tick counts at once, in every later fight, stone and round-end check | `two_head_ons_in_one_fight`, `head_on_then_stone`, `head_on_then_fury_bite`, `head_on_then_second_fight` |
//! | decision: the snakes of a fight act at once, whatever their seats | `head_on_into_neck_while_crashed_into`, `head_on_into_neck_whatever_the_seats` |
//! | fury always wins a collision | `head_on_fury_wins` |
//! | both furious: normal rules | `head_on_both_fury` |
//! | the neck counts as the head | `neck_counts_as_head` |
//! | steps 4-5: eat, then fight again (a regrown tail is hit) | `growing_tail_is_hit_in_second_fight`, `apple_after_a_bite_regrows_under_the_biter` |
//! | `ACT` first: stone at the tail before the move | `act_before_move_drops_at_old_tail` |
//! | `ACT` after: stone at the tail after the move | `act_after_move_drops_at_new_tail` |
//! | `ACT(0)` kills | `act_zero_kills` |
//! | `ACT,ACT`, `LEFT,UP`, three commands: a skipped turn | `double_commands_skip_turn` |
//! | step 6: each object eaten is replaced in that tick by one of its kind, and no other object appears (no dice: the field keeps the objects its map starts with) | `eaten_objects_respawn`, `codebattle_objects_appear_only_for_those_eaten` |
//! | decision: a map's `%`, the legacy fury-pill glyph CodeBattle's sample board shows, is a fury pill (the default map has one, so a game on it keeps one); `@` is empty | `map_percent_is_a_fury_pill` |
//! | `codenjoy`: `%` and `@` are empty, as upstream's level reader makes them (`map_percent_is_fury=false`) | `codenjoy_map_percent_is_empty` |
//! | `codenjoy`: only upstream's dice places objects, at most one a tick (`dice=true`, also a setting of `codebattle`) | `codenjoy_eaten_objects_wait_for_the_dice`, `codebattle_dice_is_a_setting` |
//! | a dead snake waits on a start floor for the next round | `dead_snake_waits_for_next_round` |
//! | decision: snakes respawning in one tick draw their start floors in order of score, lowest first, whatever their seats | `respawns_draw_by_score_whatever_the_seats` |
//! | the round ends at length 40 / after 300 ticks / one left | `round_ends_at_max_length`, `round_ends_on_timeout`, `round_ends_with_last_alive` |
//! | the round ends when all snakes on the field die, also a lone one | `round_ends_when_its_only_snake_dies` |
//! | win = 10 x length + ticks; on timeout only the longest win | `win_score`, `timeout_only_longest_win` |
//! | scores: apple 1, gold 10, stone 15, kill 10 x length | `score_table` |
//! | scores never go below zero | `score_floor_is_zero` |
//! | examples 1-5 of the fight rules | `fight_example_1` ... `fight_example_5` |
//! | decision: entering the cell one's own tail leaves is no bite | `move_into_own_vacated_tail_is_not_a_bite` |
//! | decision: a sleeping snake is an obstacle, not a fighter | `sleeping_snake_is_an_obstacle` |
//! | upstream (codenjoy.md §1.5): kills and bites are paid only to snakes alive after the fight | `kill_not_paid_to_snake_dead_in_same_fight`, `bite_not_paid_to_snake_dead_in_same_fight` |
//! | upstream `isFreeForStone`: no stone right of a start floor, dropped or spawned | `no_stone_dropped_right_of_start_floor`, `no_stone_spawns_right_of_start_floor` |
//! | `codenjoy`: fury 10, stone +5 | `codenjoy_fury_lasts_ten_ticks`, `codenjoy_stone_scores_five` |
//! | `codenjoy`: a flying snake passes over bodies and stones | `codenjoy_flying_passes_over_bodies`, `codenjoy_flying_passes_over_stones` |
//! | `codenjoy`: the last direction wins; `ACT` drops before the move | `codenjoy_last_direction_wins`, `codenjoy_act_drops_before_move` |
//! | `codenjoy`: no rounds | `codenjoy_no_rounds` |
//! | `codenjoy` (upstream §1.5, every profile): the answer to a dead snake's board does not steer the respawned one | `codenjoy_respawned_snake_ignores_last_answer` |
//!
//! `tests/snakebattle_sim.rs` plays seeded random games under both
//! profiles, checking [`SnakeBattle::check_invariants`], the events and
//! determinism after every tick.

mod action;
mod map;
mod settings;
mod state;

pub use action::{Action, StoneDrop, Token};
pub use map::{DEFAULT_MAP, Item, Map, MapError, MapProblem, Terrain};
pub use settings::{CommandRule, POINTS_ABS_MAX, Points, Profile, Settings, SettingsError};
pub use state::{Death, Event, NewGameError, Phase, RoundEnd, STAGES, ScoreReason, Snake, SnakeBattle, SnakeIdx, Stage};
