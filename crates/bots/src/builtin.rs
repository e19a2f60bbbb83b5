//! Built-in SnakeBattle bots.
