//! SOI Multisnake: 2, 4 or 8 snakes on a wrapping map with walls
//! and `+`/`-` signs; everyone grows every T turns; the last snake alive
//! wins.
//!
//! Maps are text in the SOI statement's glyphs ([`Map::parse`]), the same
//! glyphs a bot reads every turn ([`Multisnake::rows`]); [`generate`] makes
//! symmetric ones from a seed, and [`MAPS`] are the tournament maps
//! committed under `crates/engine/maps/multisnake/`.
//!
//! # The turn
//!
//! Turns count from 1. The named stages of [`STAGES`], in order:
//!
//! 1. `forfeit`: a snake whose bot failed dies where it is.
//! 2. `plan`: every live snake picks its target tile (its direction, kept
//!    when there is no answer), wrapping at the edges. Turning back into the
//!    neck is blocked unless the snake has length 1, and so is a wall. The
//!    tile decides the tail: on a turn `t` with `t mod T = 0` the tail stays
//!    (a `+` adds nothing more, a `-` cancels the growth); otherwise a `+`
//!    keeps the tail and a `-` moves it by two tiles.
//! 3. `resolve`: a target tile held by a snake (live or dead) is free only
//!    if that snake's tail leaves it this turn, which it does not when its
//!    owner grows or is itself blocked. Starting from every move standing,
//!    snakes are blocked until nothing changes.
//! 4. `move`: standing moves are made and signs consumed. Blocked snakes die
//!    without moving; snakes that entered the same tile die there, after
//!    moving; a snake shrunk to length zero dies with its head on the tile
//!    it entered. Dead snakes stay on the map for good, their head drawn
//!    `@`.
//! 5. `end`: one snake left wins; if the last snakes die together they tie;
//!    at [`Settings::turns_max`] the longest snakes alive share the win.
//!
//! Once the game is over, [`Game::step`](crate::Game::step) does nothing.
//!
//! # Rule sentences of the SOI statement and where they are tested
//!
//! Each sentence of the SOI Multisnake statement that states a rule has a test of the same name
//! in `tests/multisnake_rules.rs`, as do the two rules of the final
//! statement (old.soi.ch/node/319) and the choices of `docs/rules.md`:
//!
//! | rule sentence | test |
//! |---|---|
//! | a rectangular map of W x H (5 to 150) and 2, 4 or 8 players | `map_size_and_players_are_checked` |
//! | the map is repetitive: players who leave it enter it on the opposite side | `leaving_the_map_wraps_around` |
//! | in each turn, all players move simultaneously | `moves_are_simultaneous` |
//! | snakes move by advancing their head and tail by one tile per turn | `head_and_tail_advance_one_tile` |
//! | a snake that attempts to enter an occupied tile does not move and dies | `blocked_snake_dies_without_moving` |
//! | snakes that attempt to enter the same tile die after performing the move | `heads_meeting_die_after_moving` |
//! | dead snakes stay on the map | `dead_snakes_stay_as_obstacles` |
//! | decision: a move into a tile two dead heads share is blocked by the snake whose tiles come first, whatever the seats | `blocked_by_two_dead_heads_names_one_by_place`, `blocked_by_two_dead_heads_whatever_the_seats`, `blocked_by_two_dead_heads_of_length_one` |
//! | a snake may enter a tile left by the tail of another snake in the same turn | `entering_a_tile_a_tail_leaves` |
//! | final statement: ... or by its own tail | `chasing_its_own_tail` |
//! | a `+` is consumed and the snake grows: the tail does not move | `plus_grows` |
//! | a `-` is consumed and the snake shrinks: the tail moves by two tiles | `minus_shrinks` |
//! | a snake that shrinks to length zero dies | `shrinking_to_zero_kills` |
//! | all snakes grow by one every T turns | `everyone_grows_every_t_turns` |
//! | at most one growth per turn: a consumed `+` is ignored on those turns | `plus_on_a_growth_turn_is_ignored` |
//! | ... and a snake that consumes a `-` does not grow on those turns | `minus_on_a_growth_turn_cancels_growth` |
//! | the last player whose snake is still alive wins | `last_alive_wins` |
//! | if all snakes that are left die in the same turn, the game is a tie | `all_dying_together_tie` |
//! | a program that outputs an invalid line is terminated | `invalid_answer_kills` |
//! | final statement: snakes turn to the opposite direction iff their length is one | `reversing_only_at_length_one` |
//! | maps used in the tournament are symmetric | `tournament_maps_are_symmetric` |
//! | decision: a blocked snake's tail stays, and blocks the snake behind it | `blocked_tail_blocks_the_follower` |
//! | decision: snakes chasing each other's tails in a ring all move | `ring_of_snakes_all_move` |
//! | decision: a tail that stays for growth blocks | `growing_tail_blocks` |
//! | decision: snakes dying in the same turn share a place | `deaths_in_one_turn_share_a_place` |
//! | decision: at the turn limit the longest snakes alive share the win | `turn_limit_longest_win` |
//! | decision: no answer keeps the direction | `no_answer_keeps_direction` |
//!
//! `tests/multisnake_sim.rs` plays seeded random games on generated and
//! committed maps, checking [`Multisnake::check_invariants`] and determinism
//! after every turn, and the generator's symmetry.

mod generate;
mod map;
mod settings;
mod state;

/// What a Multisnake snake is told to do in one turn.
///
/// A bot answers one line holding `^`, `>`, `v` or `<` (the protocol crate
/// reads it). The SOI statement terminates a program that outputs an
/// invalid line; its snake then dies where it is and stays on the map like any
/// dead snake. The runner reports an invalid line, a timeout and a crash alike
/// as [`Action::Forfeit`], so the rules see one action and replays record it.
pub use crate::move_action::MoveAction as Action;
pub use generate::{GenerateError, MapSpec, generate};
pub use map::{Grid, Map, MapError, MapProblem, SIDE_MAX, SIDE_MIN, Tile, arrow, from_arrow, head_letter};
pub use settings::{Settings, SettingsError};
pub use state::{
    Blocker, Death, End, EndReason, Event, Growth, Multisnake, STAGES, Snake, SnakeIdx, Stage,
};

/// A committed tournament map, and how it was generated.
#[derive(Clone, Copy, Debug)]
pub struct BuiltinMap {
    /// The file's name without `.txt`.
    pub name: &'static str,
    /// The map text.
    pub text: &'static str,
    /// The generator spec, as `key=value` pairs for [`MapSpec::from_pairs`].
    pub spec: &'static [(&'static str, &'static str)],
    /// The generator seed.
    pub seed: u64,
}

/// The tournament maps under `crates/engine/maps/multisnake/`, one per
/// number of players. Each is exactly what [`generate`] makes from its spec
/// and seed (a test checks this), so they can be made again or varied.
pub const MAPS: &[BuiltinMap] = &[
    BuiltinMap {
        name: "duo-40x20",
        text: include_str!("../../maps/multisnake/duo-40x20.txt"),
        spec: &[("players", "2"), ("width", "40"), ("height", "20"), ("walls_percent", "8"), ("plus", "6"), ("minus", "3")],
        seed: 1,
    },
    BuiltinMap {
        name: "quad-32x32",
        text: include_str!("../../maps/multisnake/quad-32x32.txt"),
        spec: &[("players", "4"), ("width", "32"), ("height", "32"), ("walls_percent", "8"), ("plus", "5"), ("minus", "3")],
        seed: 2,
    },
    BuiltinMap {
        name: "octo-48x48",
        text: include_str!("../../maps/multisnake/octo-48x48.txt"),
        spec: &[("players", "8"), ("width", "48"), ("height", "48"), ("walls_percent", "10"), ("plus", "4"), ("minus", "2")],
        seed: 3,
    },
];

/// A committed map by name.
pub fn builtin_map(name: &str) -> Option<Map> {
    MAPS.iter().find(|m| m.name == name).and_then(|m| Map::parse(m.text).ok())
}
