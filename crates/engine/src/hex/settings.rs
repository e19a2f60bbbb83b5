//! Hex settings: two named profiles and their overrides.
//!
//! `seed` follows Codenjoy's Hex description and is the default (a lost piece costs 10);
//! `codenjoy` follows upstream Codenjoy since 2021 (a lost piece costs 100,
//! walls formed in a game stay after everyone restarts, a field where
//! nothing moves stays as it is, and new pieces next to each other capture
//! nothing). Every rule on
//! which they differ is a field, so an organiser can mix them. Settings
//! travel as `key=value` pairs (command line, config files, replay headers)
//! and are validated once, by [`Settings::from_pairs`].

pub use crate::settings::SettingsError;
use crate::settings::{parse_flag, parse_num};

/// The two rule profiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// Codenjoy's Hex description: +30 per piece gained, -10 per piece lost, a
    /// restart clears the walls formed during the game, a field where nothing
    /// changed for 30 ticks restarts, and a new piece captures every enemy
    /// piece around it that was not placed in the same tick.
    Seed,
    /// Upstream Codenjoy: -100 per piece lost, formed walls stay, a still
    /// field stays still, new pieces next to each other annihilate.
    Codenjoy,
}

impl Profile {
    /// The profile's name in settings.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Seed => "seed",
            Profile::Codenjoy => "codenjoy",
        }
    }

    /// Parses a profile name.
    pub fn parse(s: &str) -> Option<Profile> {
        match s {
            "seed" => Some(Profile::Seed),
            "codenjoy" => Some(Profile::Codenjoy),
            _ => None,
        }
    }
}

/// Most seats a field may have. Far more than a 15x15 board holds in a
/// sensible game; the bound only keeps seat numbers small.
pub const PLAYERS_MAX: u32 = 100;

/// Validated Hex settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The profile the defaults came from.
    pub profile: Profile,
    /// Points per piece gained: a clone, or an enemy piece captured.
    pub points_win: i64,
    /// Points taken per piece lost: captured by an enemy, or a jumped piece
    /// that ended in a wall. Scores never go below zero.
    pub points_lose: i64,
    /// Whether a restart turns the walls formed by collisions back into
    /// empty cells (the map's own walls always stay).
    pub restart_clears_walls: bool,
    /// Everyone restarts once no cell of the field has changed for this
    /// many ticks while a player holds a seat; 0 never. Without it a field
    /// can freeze for good: an empty cell that only walls and the pieces of
    /// a player who stopped moving border is never taken, so the board is
    /// never full.
    pub still_restart_ticks: u32,
    /// Seats of one field: [`crate::hex::Hex::join`] refuses a player beyond
    /// this. 11 keeps every board unambiguous: a viewer sees the other ten
    /// players in ten distinct glyphs (from the 12th player on, upstream
    /// draws them all as `♀`).
    pub players_per_field: u32,
    /// Upstream's annihilation: a new piece next to another new piece
    /// captures nothing at all. Without it (the description's sentence) a new piece
    /// captures every enemy piece around it except the pieces placed in the
    /// same tick.
    pub annihilation: bool,
}

impl Settings {
    /// The defaults of a profile.
    pub fn profile(profile: Profile) -> Settings {
        match profile {
            Profile::Seed => Settings {
                profile,
                points_win: 30,
                points_lose: 10,
                restart_clears_walls: true,
                still_restart_ticks: 30,
                players_per_field: 11,
                annihilation: false,
            },
            Profile::Codenjoy => Settings {
                profile,
                points_win: 30,
                points_lose: 100,
                restart_clears_walls: false,
                still_restart_ticks: 0,
                players_per_field: 11,
                annihilation: true,
            },
        }
    }

    /// Builds settings from a profile name (default `seed`) and overrides,
    /// as `key=value` pairs. Unknown keys and bad values are errors, never
    /// silently ignored.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Settings, SettingsError> {
        let pairs: Vec<(&str, &str)> = pairs.into_iter().collect();
        let profile = match pairs.iter().rev().find(|(k, _)| *k == "profile") {
            Some((_, v)) => Profile::parse(v).ok_or_else(|| SettingsError::bad("profile", v, "seed or codenjoy"))?,
            None => Profile::Seed,
        };
        let mut s = Settings::profile(profile);
        for (key, value) in pairs {
            s.set(key, value)?;
        }
        if !(1..=PLAYERS_MAX).contains(&s.players_per_field) {
            let v = s.players_per_field.to_string();
            return Err(SettingsError::bad("players_per_field", &v, "1 to 100"));
        }
        Ok(s)
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), SettingsError> {
        fn int(key: &str, value: &str) -> Result<i64, SettingsError> {
            // Bounded so that `points * pieces` cannot overflow on any board.
            value
                .parse()
                .ok()
                .filter(|v: &i64| v.unsigned_abs() <= 1_000_000)
                .ok_or_else(|| SettingsError::bad(key, value, "an integer from -1000000 to 1000000"))
        }
        match key {
            "profile" => {}
            "points_win" => self.points_win = int(key, value)?,
            "points_lose" => self.points_lose = int(key, value)?,
            "restart_clears_walls" => self.restart_clears_walls = parse_flag(key, value)?,
            "still_restart_ticks" => self.still_restart_ticks = parse_num(key, value)?,
            "players_per_field" => self.players_per_field = parse_num(key, value)?,
            "annihilation" => self.annihilation = parse_flag(key, value)?,
            _ => return Err(SettingsError::UnknownKey(key.to_string())),
        }
        Ok(())
    }

    /// Every setting as `key=value`, in a fixed order; the inverse of
    /// [`Settings::from_pairs`].
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        vec![
            ("profile", self.profile.name().to_string()),
            ("points_win", self.points_win.to_string()),
            ("points_lose", self.points_lose.to_string()),
            ("restart_clears_walls", self.restart_clears_walls.to_string()),
            ("still_restart_ticks", self.still_restart_ticks.to_string()),
            ("players_per_field", self.players_per_field.to_string()),
            ("annihilation", self.annihilation.to_string()),
        ]
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings::profile(Profile::Seed)
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_round_trip() {
        for p in [Profile::Seed, Profile::Codenjoy] {
            let s = Settings::profile(p);
            let pairs = s.to_pairs();
            let back = Settings::from_pairs(pairs.iter().map(|(k, v)| (*k, v.as_str()))).unwrap();
            assert_eq!(back, s);
        }
    }

    #[test]
    fn profiles_and_overrides() {
        assert_eq!(Settings::default().points_lose, 10);
        let up = Settings::from_pairs([("profile", "codenjoy")]).unwrap();
        assert_eq!((up.points_lose, up.restart_clears_walls), (100, false));
        let mixed = Settings::from_pairs([("points_lose", "100"), ("players_per_field", "3")]).unwrap();
        assert_eq!((mixed.profile, mixed.points_lose, mixed.players_per_field), (Profile::Seed, 100, 3));
        for bad in [
            vec![("profile", "hex")],
            vec![("points_win", "x")],
            vec![("points_win", "99999999999")],
            vec![("players_per_field", "0")],
            vec![("players_per_field", "101")],
            vec![("restart_clears_walls", "maybe")],
            vec![("still_restart_ticks", "-1")],
            vec![("colour", "red")],
        ] {
            assert!(Settings::from_pairs(bad.clone()).is_err(), "{bad:?}");
        }
    }
}
