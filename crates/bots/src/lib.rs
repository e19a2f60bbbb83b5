//! Bots: the built-in players and the transports that reach outside ones.
//!
//! Built-in bots see exactly what a remote bot sees (the board string) and
//! answer with the same text, so they exercise the wire format too.

pub mod bsbots;
pub mod builtin;
pub mod hexbots;
pub mod http;
pub mod process;
pub mod source;
pub mod stdio_match;
