//! Battlesnake rulesets (standard, solo, royale, wrapped, constrictor).
