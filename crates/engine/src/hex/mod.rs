//! Codenjoy Hex: territory capture by clone and jump moves.
//!
//! Everyone plays on one square field (15x15 with a wall border by
//! default). A player joins with one piece on a random free cell. Each tick
//! every player may move one of their pieces one cell in one of the four
//! directions (a *clone*: the piece stays and a new one appears) or two
//! cells (a *jump*: the piece moves, over anything). A new piece converts
//! every enemy piece in its 8-neighbourhood. There are no rounds: when a
//! player has no pieces left or the board is full, everyone starts again
//! with one fresh piece and keeps their score.
//!
//! # Using it (for the server)
//!
//! - Create: [`Hex::new_room`]`(settings, map, seed)` for a room:
//!   `players_per_field` free seats (11 by default), no pieces. Settings
//!   come from [`Settings::from_pairs`] (or `Settings::default()`), the map
//!   from [`Map::parse`] (or [`Map::default_map`]). [`Hex::new`]`(settings,
//!   map, seats, seed)` instead starts `seats` players at once, each with
//!   its first piece (local games, tests, replays).
//! - Players: [`Hex::join`] seats a new player (lowest free seat, score 0)
//!   and returns the seat, or `None` when all seats are taken;
//!   [`Hex::leave`] frees a seat. [`Hex::set_present`] is the lower-level
//!   switch SnakeBattle rooms use (it keeps the seat's score). Nothing
//!   moves until the next [`Game::step`]: a leaver's pieces go at its
//!   start, a joiner's piece appears at its end. Seat numbers never change;
//!   seat order is join order, and it decides the glyph others see (see
//!   `snakepit_protocol::hex`). On a field made by `new(.., 0, ..)`,
//!   `join` adds seats up to `players_per_field`.
//! - Tick: [`Game::step`]`(&actions)` with one [`Action`] per seat
//!   (missing ones skip), returning [`Event`]s. Commands are read from the
//!   wire by `snakepit_protocol::hex::read_command`, which also explains
//!   ignored commands for the player's page.
//! - Read: [`Game::scores`] (by seat), [`Hex::players`] (presence, piece
//!   count, score), [`Hex::cells`] / [`Hex::cell`] / [`Hex::pieces_of`]
//!   for drawing, [`Game::checksum`] for replays.
//!
//! # The tick
//!
//! A tick is the named list of stages in [`STAGES`]:
//!
//! 1. `leave`: the pieces of freed seats leave the field.
//! 2. `restart`: if a player who is on the field has no pieces, or no cell
//!    is empty, everyone's pieces are cleared (and, in the `seed` profile,
//!    the walls formed by collisions); the moves of this tick are dropped,
//!    since they were chosen for the old position. Upstream checks this
//!    before its moves too, so the position that ended a game is shown for
//!    one board.
//! 3. `moves`: each seat's move is checked against the position at the
//!    start of the tick: its own piece, a target on the board, not a wall,
//!    not a piece. Everything else is an [`Event::Ignored`].
//! 4. `collisions`: new pieces sharing a target make a wall there and are
//!    gone (a jumped piece is lost); with `annihilation` (the `codenjoy`
//!    profile) new pieces next to each other are neutralised; the rest land
//!    (a clone adds a piece, a jump moves one).
//! 5. `captures`: each new piece that landed and is not neutralised takes
//!    every enemy piece around it that was not itself new; a piece that
//!    new pieces of two or more players reach stays with its owner.
//! 6. `scores`: per seat, losses then gains, each floored at zero.
//! 7. `placement`: present seats without pieces (joined, or restarted) get
//!    one piece on a random free cell, drawn in order of their scores,
//!    lowest first, not of their seat numbers.
//!
//! # Rule sentences and where they are tested
//!
//! Each sentence of Codenjoy's Hex description and of `codenjoy.md` §3 that states a rule of
//! the field has a test of the same name in `tests/hex_rules.rs`, as do the
//! decisions taken where both are silent. The wire format (glyphs, join
//! order, `ACT(x,y),DIR`, y from the top) is tested in the protocol crate's
//! `tests/hex_*.rs`.
//!
//! | rule sentence | test |
//! |---|---|
//! | description: each move, pick any of your pieces | `any_own_piece_may_move` |
//! | description: to a neighbouring cell, the piece clones | `one_cell_clones` |
//! | description: over one cell, the piece moves | `two_cells_jumps` |
//! | description: one of four directions, one or two cells | `four_directions` |
//! | description: `ACT(2,3),LEFT` clones the piece at `[2,3]` left, `[0,0]` top-left | `seed_example_clone_left` |
//! | description: `ACT(1,1,1),UP` moves the piece at `[1,1]` up | `seed_example_jump_up` |
//! | description: enemy pieces right next to your piece become yours | `new_piece_captures_neighbours`, `capture_includes_diagonals` |
//! | description: not if that enemy piece moved in the same tick | `new_piece_placed_this_tick_is_not_captured` |
//! | description: all players move at the same time | `moves_are_simultaneous` |
//! | description: both to the same cell, a wall forms there | `same_target_forms_a_wall` |
//! | description: no move, you skip the turn | `no_move_skips` |
//! | description: each captured piece +30, each lost piece -10 | `capture_scores_30_loss_costs_10` |
//! | §3: `LOSE_PENALTY` is -100 upstream (profile `codenjoy`) | `codenjoy_profile_loses_100` |
//! | §3: the map is 15x15 with a wall border, empty inside | `default_map_is_15_with_a_border` |
//! | §3: everyone on one field, no rounds | `everyone_on_one_field` |
//! | §3: the score is floored at 0 | `score_floor_is_zero` |
//! | §3: selecting a cell that is not yours: no move | `moving_a_piece_not_yours_is_ignored` |
//! | §3: the target must be inside the board | `target_off_board_is_ignored` |
//! | §3: the target must not be a wall | `target_wall_is_ignored` |
//! | §3: the target must not be occupied | `target_occupied_is_ignored` |
//! | §3: one move per tick | `one_move_per_tick` |
//! | §3: cells other players' new pieces took this tick count as free | `cell_taken_this_tick_counts_as_free` |
//! | §3: a player without pieces restarts everyone, scores kept | `player_without_pieces_restarts_everyone` |
//! | §3: a full board restarts everyone | `full_board_restarts_everyone` |
//! | §3: two new pieces on one cell: a wall, both removed | `same_target_forms_a_wall` |
//! | §3: a jumped piece in such a wall counts as lost | `jumped_piece_in_a_wall_is_lost` |
//! | §3 (profile `codenjoy`): new pieces adjacent to each other capture nothing | `codenjoy_adjacent_new_pieces_capture_nothing` |
//! | §3: each new piece converts all enemy pieces in its 8-neighbourhood | `capture_converts_the_whole_neighbourhood` |
//! | §3: a clone earns WIN(1); a jump gains nothing | `clone_scores_30`, `jump_scores_nothing` |
//! | issue: a player joins with one piece at a random free cell | `join_places_one_piece` |
//! | issue: a player who leaves takes their pieces away | `leaving_removes_pieces` |
//! | decision: a jump passes over walls and pieces | `jump_passes_over_walls_and_pieces` |
//! | decision: the piece a clone came from is not new and can be captured | `clone_source_can_be_captured` |
//! | decision: three new pieces on one cell make one wall | `three_pieces_on_one_cell` |
//! | decision (`codenjoy`): pieces that became a wall still neutralise their neighbours | `codenjoy_wall_pieces_still_neutralise_neighbours` |
//! | decision: a piece new pieces of two players reach stays with its owner, whoever holds the lower seat | `contested_piece_stays_with_its_owner`, `contested_piece_stays_whatever_the_seats` |
//! | decision: new pieces after a restart are drawn in order of score, lowest first, whoever holds the lower seat | `full_board_restarts_everyone`, `restart_places_by_score_whatever_the_seats` |
//! | decision: captured pieces capture nothing in turn | `captured_pieces_capture_nothing` |
//! | decision: losses are floored before gains are added | `losses_are_floored_before_gains` |
//! | decision: a restart clears formed walls; `codenjoy` keeps them | `restart_clears_formed_walls`, `codenjoy_restart_keeps_walls` |
//! | decision: no room for a new piece: wait for the full-board restart | `no_room_waits_for_the_restart` |
//! | decision: a field where nothing changed for `still_restart_ticks` (30) restarts; `codenjoy` never | `still_field_restarts_everyone`, `codenjoy_still_field_stays` |
//! | decision: an empty field is not still: the count starts with a player | `still_count_waits_for_a_player` |
//!
//! `tests/hex_sim.rs` plays seeded random games with players joining and
//! leaving, checking [`Hex::check_invariants`], the events and determinism
//! after every tick.

mod action;
mod map;
mod settings;
mod state;

pub use action::Action;
pub use map::{DEFAULT_MAP, MAP_SIZE_MAX, MAP_SIZE_MIN, Map, MapError, MapProblem};
pub use settings::{PLAYERS_MAX, Profile, Settings, SettingsError};
pub use state::{
    Cell, Event, Hex, Ignored, NewGameError, Player, Restart, STAGES, ScoreReason, SeatIdx, Stage, TickScratch,
};

#[cfg(doc)]
use crate::game::Game;
