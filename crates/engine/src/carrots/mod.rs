//! CodeCarrots snakes (seed 002): one endless shared board.
