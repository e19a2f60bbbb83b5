//! HTTP bots (the Battlesnake API).
