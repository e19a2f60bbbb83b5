//! Replays of the three stdin/stdout arenas: how CodeCarrots, KingOfBots
//! and Multisnake games record their setup in a [`replay`](crate::replay)
//! header and rebuild it.
//!
//! | game | `settings` | `map` |
//! |---|---|---|
//! | `carrots` | the game's `key=value` settings | empty: the board starts empty and the snakes' first cells follow from the seed |
//! | `duel` | the game's settings | the map rows in [`DuelMap::parse`]'s glyphs (`#` wall, `.` grass, `A` and `B` the starts), generated or drawn |
//! | `multisnake` | the game's settings | the starting map in the seed's glyphs ([`Map::parse`]) |
//!
//! A duel stores its map even when the seed generated it, so that a replay
//! does not depend on the generator staying the same; [`Duel::with_map`]
//! starts the game's random stream where [`Duel::new`] does, so the
//! checksums agree either way.
//!
//! **Not recorded yet:** CodeCarrots seats joining and leaving in the
//! middle of a game ([`Carrots::set_present`]). A replay rebuilds a game in
//! which every seat is present from the start and stays, which is what the
//! process match runner plays; a replay of a server room where players came
//! and went would not verify. Recording presence needs a per-tick field in
//! the replay format.

use crate::replay::{ReplayGame, SetupError};
use snakepit_engine::carrots::{self, Carrots};
use snakepit_engine::duel::{self, Duel, DuelMap};
use snakepit_engine::multisnake::{self, Map, Multisnake};

/// Settings pairs as the replay header holds them.
fn pairs(p: Vec<(&'static str, String)>) -> Vec<(String, String)> {
    p.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// The header's settings as the engines' `from_pairs` read them.
fn borrowed(settings: &[(String, String)]) -> impl Iterator<Item = (&str, &str)> {
    settings.iter().map(|(k, v)| (k.as_str(), v.as_str()))
}

/// A map error's line becomes a row of the header's `map`.
fn map_error(line: usize, full: String) -> SetupError {
    // The engines' messages start with "line N: "; in a replay the line is
    // the header's, so only the row number is kept.
    let message = full.strip_prefix(&format!("line {line}: ")).unwrap_or(&full).to_string();
    SetupError::Map { row: line, message }
}

impl ReplayGame for Carrots {
    const NAME: &'static str = "carrots";

    fn settings_pairs(&self) -> Vec<(String, String)> {
        pairs(self.settings().to_pairs())
    }

    /// Empty: the board starts without apples, and the snakes' first cells
    /// come from the seed.
    fn map_rows(&self) -> Vec<String> {
        Vec::new()
    }

    fn from_setup(settings: &[(String, String)], map: &[String], seats: usize, seed: u64) -> Result<Self, SetupError> {
        if !map.is_empty() {
            return Err(SetupError::Map {
                row: 1,
                message: "a carrots replay has no map; \"map\" must be empty".to_string(),
            });
        }
        let settings =
            carrots::Settings::from_pairs(borrowed(settings)).map_err(|e| SetupError::Settings(e.to_string()))?;
        Carrots::new(settings, seats, seed).map_err(|e| SetupError::Game(e.to_string()))
    }
}

impl ReplayGame for Duel {
    const NAME: &'static str = "duel";

    fn settings_pairs(&self) -> Vec<(String, String)> {
        pairs(self.settings().to_pairs())
    }

    fn map_rows(&self) -> Vec<String> {
        self.map().to_rows()
    }

    fn from_setup(settings: &[(String, String)], map: &[String], seats: usize, seed: u64) -> Result<Self, SetupError> {
        if seats != 2 {
            return Err(SetupError::Game(format!("a duel has 2 seats, not {seats}")));
        }
        let settings =
            duel::Settings::from_pairs(borrowed(settings)).map_err(|e| SetupError::Settings(e.to_string()))?;
        let map = DuelMap::parse(&map.join("\n")).map_err(|e| map_error(e.line, e.to_string()))?;
        Ok(Duel::with_map(settings, map, seed))
    }
}

impl ReplayGame for Multisnake {
    const NAME: &'static str = "multisnake";

    fn settings_pairs(&self) -> Vec<(String, String)> {
        pairs(self.settings().to_pairs())
    }

    fn map_rows(&self) -> Vec<String> {
        self.map().to_rows()
    }

    fn from_setup(settings: &[(String, String)], map: &[String], seats: usize, seed: u64) -> Result<Self, SetupError> {
        let settings =
            multisnake::Settings::from_pairs(borrowed(settings)).map_err(|e| SetupError::Settings(e.to_string()))?;
        let map = Map::parse(&map.join("\n")).map_err(|e| map_error(e.line, e.to_string()))?;
        if map.players() != seats {
            return Err(SetupError::Game(format!("the map has {} snakes but \"seats\" is {seats}", map.players())));
        }
        Ok(Multisnake::new(settings, map, seed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{Replay, ReplayWriter};
    use crate::stdio::StdioGame;

    /// Records `ticks` ticks of `game` with `moves(tick, seat)` and checks
    /// that the replay parses and re-simulates.
    fn round_trip<G: ReplayGame + StdioGame>(mut game: G, seed: u64, ticks: u64, moves: impl Fn(u64, usize) -> G::Action) {
        let players: Vec<String> = (0..game.seats()).map(|i| format!("p{i}")).collect();
        let mut w = ReplayWriter::new(Vec::new(), &game, seed, &players).unwrap();
        for t in 0..ticks {
            // A finished game no longer counts ticks; nor does its replay.
            if game.is_finished() {
                break;
            }
            let actions: Vec<G::Action> = (0..game.seats()).map(|s| moves(t, s)).collect();
            game.step(&actions);
            w.record(&game, &actions).unwrap();
        }
        let text = String::from_utf8(w.finish().unwrap()).unwrap();
        let replay = Replay::<G>::parse(&text).unwrap();
        assert!(!replay.ticks.is_empty());
        let end = replay.resimulate(|_, _, _| {}).unwrap();
        assert_eq!(end.checksum(), game.checksum());
    }

    fn dir(t: u64, s: usize) -> snakepit_engine::Dir {
        snakepit_engine::Dir::ALL[((t / 3) as usize + s) % 4]
    }

    #[test]
    fn carrots_replays_verify() {
        let game = Carrots::new(carrots::Settings::default(), 3, 7).unwrap();
        round_trip(game, 7, 60, |t, s| if t == 5 && s == 1 { carrots::Action::Forfeit } else { carrots::Action::Move(dir(t, s)) });
    }

    #[test]
    fn duel_replays_verify() {
        round_trip(Duel::new(duel::Settings::default(), 11), 11, 40, |t, s| duel::Action::Move(dir(t, s)));
    }

    #[test]
    fn multisnake_replays_verify() {
        let map = multisnake::builtin_map("quad-32x32").unwrap();
        let game = Multisnake::new(multisnake::Settings::default(), map, 3);
        round_trip(game, 3, 80, |t, s| multisnake::Action::Move(dir(t, s)));
    }

    #[test]
    fn a_multisnake_map_must_match_the_seats() {
        let game = Multisnake::new(multisnake::Settings::default(), multisnake::builtin_map("duo-40x20").unwrap(), 1);
        let e = Multisnake::from_setup(&game.settings_pairs(), &game.map_rows(), 4, 1).unwrap_err();
        assert!(matches!(e, SetupError::Game(_)), "{e}");
    }
}
