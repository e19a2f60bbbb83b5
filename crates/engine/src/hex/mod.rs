//! Codenjoy Hex (seed 001): territory capture by clone and jump moves.
