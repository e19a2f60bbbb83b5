//! The Codenjoy SnakeBattle wire format.
