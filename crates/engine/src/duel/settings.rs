//! KingOfBots settings, as `key=value` pairs.
//!
//! The defaults are upstream's (KingOfBots' `Game.java`): a
//! 13x14 map with 20 inner walls, growth on steps 1-10 and then every third
//! step, at most 1000 rounds, and upstream's rating changes (+5 for a win,
//! -2 for a loss) as the scores.

pub use crate::settings::SettingsError;
use crate::settings::{parse_int, parse_num};

/// Validated KingOfBots settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Rows of a generated map (upstream: 13). A drawn map has its own.
    pub rows: u32,
    /// Columns of a generated map (upstream: 14).
    pub cols: u32,
    /// Inner walls of a generated map, placed in point-symmetric pairs
    /// (upstream: 20).
    pub inner_walls: u32,
    /// The snake grows on each of the first `grow_steps` steps...
    pub grow_steps: u32,
    /// ...and after them on every `grow_every`-th step: with 10 and 3, on
    /// steps 13, 16, 19, ... (upstream's `step % 3 == 1`).
    pub grow_every: u32,
    /// After this many rounds with both snakes alive the game is a draw.
    pub rounds_max: u32,
    /// Score of the winner (upstream's rating change: +5).
    pub points_win: i64,
    /// Score of the loser (upstream: -2).
    pub points_loss: i64,
    /// Score of each side in a draw (upstream: 0).
    pub points_draw: i64,
}

/// Largest map side; keeps a generated or drawn map, and the bot input that
/// spells it out, small.
pub const SIDE_MAX: u32 = 100;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            rows: 13,
            cols: 14,
            inner_walls: 20,
            grow_steps: 10,
            grow_every: 3,
            rounds_max: 1000,
            points_win: 5,
            points_loss: -2,
            points_draw: 0,
        }
    }
}

impl Settings {
    /// Builds settings from the defaults and `key=value` overrides. Unknown
    /// keys and bad values are errors, never silently ignored.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Settings, SettingsError> {
        let mut s = Settings::default();
        for (key, value) in pairs {
            let num = || parse_num::<u32>(key, value);
            let int = || parse_int(key, value);
            match key {
                "rows" => s.rows = num()?,
                "cols" => s.cols = num()?,
                "inner_walls" => s.inner_walls = num()?,
                "grow_steps" => s.grow_steps = num()?,
                "grow_every" => s.grow_every = num()?,
                "rounds_max" => s.rounds_max = num()?,
                "points_win" => s.points_win = int()?,
                "points_loss" => s.points_loss = int()?,
                "points_draw" => s.points_draw = int()?,
                _ => return Err(SettingsError::UnknownKey(key.to_string())),
            }
        }
        for (key, v) in [("rows", s.rows), ("cols", s.cols)] {
            if !(4..=SIDE_MAX).contains(&v) {
                return Err(SettingsError::bad(key, &v.to_string(), "4 to 100"));
            }
        }
        // Two start cells stay free inside the border.
        let inside = (s.rows - 2) * (s.cols - 2);
        if s.inner_walls > inside - 2 {
            return Err(SettingsError::bad("inner_walls", &s.inner_walls.to_string(), "at most the inner cells but two"));
        }
        if s.grow_every == 0 {
            return Err(SettingsError::bad("grow_every", "0", "at least 1"));
        }
        if s.rounds_max == 0 {
            return Err(SettingsError::bad("rounds_max", "0", "at least 1"));
        }
        Ok(s)
    }

    /// Every setting as `key=value`, in a fixed order; the inverse of
    /// [`Settings::from_pairs`].
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        vec![
            ("rows", self.rows.to_string()),
            ("cols", self.cols.to_string()),
            ("inner_walls", self.inner_walls.to_string()),
            ("grow_steps", self.grow_steps.to_string()),
            ("grow_every", self.grow_every.to_string()),
            ("rounds_max", self.rounds_max.to_string()),
            ("points_win", self.points_win.to_string()),
            ("points_loss", self.points_loss.to_string()),
            ("points_draw", self.points_draw.to_string()),
        ]
    }

    /// Whether the snake grows on step `step` (1-based): upstream's
    /// `check_tail_increasing`.
    pub fn grows(&self, step: u32) -> bool {
        step <= self.grow_steps || (step - self.grow_steps).is_multiple_of(self.grow_every)
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_schedule_is_upstreams() {
        // Upstream: `step <= 10 || step % 3 == 1`.
        let s = Settings::default();
        for step in 1..=1000 {
            assert_eq!(s.grows(step), step <= 10 || step % 3 == 1, "step {step}");
        }
    }
}
