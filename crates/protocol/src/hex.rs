//! The Codenjoy Hex wire format.
