//! The pure, deterministic rules of every snakepit game.
//!
//! A game is fully defined by `(game, settings, map, seed, moves)`: given the
//! same inputs, [`Game::step`] produces the same states, events and checksums
//! on every machine. To keep that true this crate has no I/O, no clock, no
//! global random number generator, no threads and no hash-map iteration; its
//! `clippy.toml` bans the types and functions that would break it.
//!
//! Bot misbehaviour never surfaces as an error here: a missing or nonsensical
//! command is a legal input (it means "keep going"), and every consequence of
//! a move is reported as an event.

pub mod battlesnake;
pub mod carrots;
pub mod checksum;
pub mod duel;
pub mod game;
pub mod geom;
pub mod hex;
pub mod move_action;
pub mod multisnake;
pub mod rng;
pub mod settings;
pub mod snakebattle;

pub use game::{Game, ParseActionError};
pub use geom::{Dir, Pos};
pub use rng::Rng;

/// Version of the rules. Replays record it; a replay made by another version
/// may not re-simulate identically, so verification names the mismatch.
pub const ENGINE_VERSION: &str = "3";
