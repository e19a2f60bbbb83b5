//! Every wire format snakepit speaks, and nothing else.
//!
//! Only this crate (and those above it) know about text encodings and JSON;
//! the engine's types are plain data. Each arena's format lives in its own
//! module, documented there byte for byte:
//!
//! - [`codenjoy`]: the per-player `board=` string and the command grammar of
//!   Codenjoy SnakeBattle.
//! - [`hex`]: the Codenjoy Hex board string and `ACT(x,y),DIR` commands.
//! - [`battlesnake`]: the Battlesnake HTTP API's JSON.
//! - [`stdio`]: the stdin/stdout formats of CodeCarrots, KingOfBots and SOI,
//!   and a JSON-lines protocol for any game.
//! - [`stdio_replay`]: how CodeCarrots, KingOfBots and Multisnake games
//!   write their settings and map into a replay header and are rebuilt
//!   from it.
//! - [`replay`]: the replay file, JSON lines.
//! - [`spectator`]: JSON messages to browsers.

pub mod battlesnake;
pub mod codenjoy;
pub mod hex;
pub mod stdio;
pub mod stdio_replay;
pub mod replay;
pub mod spectator;
