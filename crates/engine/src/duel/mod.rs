//! KingOfBots Snake (seed 003): a 13x14 duel with walls.
