//! The Battlesnake HTTP API's JSON.
