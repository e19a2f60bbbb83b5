//! Every wire format snakepit speaks, and nothing else.
//!
//! Only this crate (and those above it) know about text encodings and JSON;
//! the engine's types are plain data. Each arena's format lives in its own
//! module, documented there byte for byte:
//!
//! - [`codenjoy`]: the per-player `board=` string and the command grammar of
//!   Codenjoy SnakeBattle.
//! - [`replay`]: the replay file, JSON lines.
//! - [`spectator`]: JSON messages to browsers.

pub mod codenjoy;
pub mod replay;
pub mod spectator;
