//! Multisnake settings, as `key=value` pairs.
//!
//! `grow_every` is the SOI statement's T (1 to 25). The statement sets no
//! turn limit; ours is a setting, after which the longest snakes alive share
//! the win (`docs/rules.md`). The map is not a setting: it is a file or a
//! generated map, recorded whole in replays.

pub use crate::settings::SettingsError;
use crate::settings::parse_num;

/// Validated Multisnake settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The SOI statement's T: every snake grows by one on turns `t` with
    /// `t mod T = 0`, counting turns from 1.
    pub grow_every: u32,
    /// After this many turns with two or more snakes alive, the longest of
    /// them share the win.
    pub turns_max: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { grow_every: 10, turns_max: 2000 }
    }
}

impl Settings {
    /// Builds settings from the defaults and `key=value` overrides. Unknown
    /// keys and bad values are errors, never silently ignored.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Settings, SettingsError> {
        let mut s = Settings::default();
        for (key, value) in pairs {
            let num = || parse_num::<u32>(key, value);
            match key {
                "grow_every" => s.grow_every = num()?,
                "turns_max" => s.turns_max = num()?,
                _ => return Err(SettingsError::UnknownKey(key.to_string())),
            }
        }
        if !(1..=25).contains(&s.grow_every) {
            return Err(SettingsError::bad("grow_every", &s.grow_every.to_string(), "1 to 25 (the SOI statement's T)"));
        }
        if s.turns_max == 0 {
            return Err(SettingsError::bad("turns_max", "0", "at least 1"));
        }
        Ok(s)
    }

    /// Every setting as `key=value`, in a fixed order; the inverse of
    /// [`Settings::from_pairs`].
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        vec![("grow_every", self.grow_every.to_string()), ("turns_max", self.turns_max.to_string())]
    }
}
