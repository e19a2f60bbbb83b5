//! CodeCarrots settings, as `key=value` pairs.
//!
//! The defaults are upstream's board (120x80) and the decisions of
//! `specs/README.md`: at most [`Settings::apples_max`] apples (upstream has no
//! cap, an accident of its code) and a respawn two ticks after a death.
//! Settings travel as `key=value` pairs (command line, config files, replay
//! headers), validated once by [`Settings::from_pairs`].

pub use crate::settings::SettingsError;
use crate::settings::parse_num;

/// Validated CodeCarrots settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Board width in cells (upstream: 120).
    pub width: u32,
    /// Board height in cells (upstream: 80).
    pub height: u32,
    /// No apple spawns while this many lie on the board; 0 means no apples.
    pub apples_max: u32,
    /// Ticks from a death to the respawn: a snake that dies in tick `t`
    /// lies on the board until tick `t + respawn_ticks`, at the end of which
    /// it reappears at length 1.
    pub respawn_ticks: u32,
}

/// Largest board side; a board is sent whole every tick, so this bounds the
/// message (1000 x 1001 bytes).
pub const SIDE_MAX: u32 = 1000;

impl Default for Settings {
    fn default() -> Self {
        Settings { width: 120, height: 80, apples_max: 200, respawn_ticks: 2 }
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
                "width" => s.width = num()?,
                "height" => s.height = num()?,
                "apples_max" => s.apples_max = num()?,
                "respawn_ticks" => s.respawn_ticks = num()?,
                _ => return Err(SettingsError::UnknownKey(key.to_string())),
            }
        }
        for (key, v) in [("width", s.width), ("height", s.height)] {
            if !(2..=SIDE_MAX).contains(&v) {
                return Err(SettingsError::bad(key, &v.to_string(), "2 to 1000"));
            }
        }
        if s.respawn_ticks == 0 {
            return Err(SettingsError::bad("respawn_ticks", "0", "at least 1"));
        }
        Ok(s)
    }

    /// Every setting as `key=value`, in a fixed order; the inverse of
    /// [`Settings::from_pairs`].
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        vec![
            ("width", self.width.to_string()),
            ("height", self.height.to_string()),
            ("apples_max", self.apples_max.to_string()),
            ("respawn_ticks", self.respawn_ticks.to_string()),
        ]
    }
}
