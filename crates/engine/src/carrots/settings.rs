//! CodeCarrots settings, as `key=value` pairs.
//!
//! The defaults are upstream's board (120x80), at most
//! [`Settings::apples_max`] apples (upstream has no cap, an accident of its
//! code), and the respawn of CodeCarrots' description: a dead snake is
//! removed from the board at once and re-spawns in the next time step.
//! Upstream's code keeps the dead body on the board as an obstacle and brings
//! the snake back two ticks later: `bodies_stay=true respawn_ticks=2` plays
//! that way.
//! Settings travel as `key=value` pairs (command line, config files, replay
//! headers), validated once by [`Settings::from_pairs`].

pub use crate::settings::SettingsError;
use crate::settings::{parse_flag, parse_num};

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
    /// reappears at length 1 at the end of tick `t + respawn_ticks`
    /// (CodeCarrots' description: 1, the next time step; upstream's code: 2).
    pub respawn_ticks: u32,
    /// Whether a dead snake's body stays on the board, an obstacle shown as
    /// `#`, until the end of the tick of its respawn (upstream's code).
    /// Otherwise (CodeCarrots' description) the body leaves the board at the
    /// end of the tick of the death, and its cells are free from the next tick
    /// on.
    pub bodies_stay: bool,
}

/// Largest board side; a board is sent whole every tick, so this bounds the
/// message (1000 x 1001 bytes).
pub const SIDE_MAX: u32 = 1000;

impl Default for Settings {
    fn default() -> Self {
        Settings { width: 120, height: 80, apples_max: 200, respawn_ticks: 1, bodies_stay: false }
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
                "bodies_stay" => s.bodies_stay = parse_flag(key, value)?,
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

    /// Every setting as `key=value`, in a fixed order (a new key goes at the
    /// end); the inverse of [`Settings::from_pairs`].
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        vec![
            ("width", self.width.to_string()),
            ("height", self.height.to_string()),
            ("apples_max", self.apples_max.to_string()),
            ("respawn_ticks", self.respawn_ticks.to_string()),
            ("bodies_stay", self.bodies_stay.to_string()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default is CodeCarrots' timing; upstream's is two pairs away, and
    /// the new key comes last, after the keys older replays recorded.
    #[test]
    fn seed_timing_by_default_upstream_by_settings() {
        let s = Settings::default();
        assert_eq!((s.respawn_ticks, s.bodies_stay), (1, false));
        let up = Settings::from_pairs([("bodies_stay", "true"), ("respawn_ticks", "2")]).unwrap();
        assert_eq!((up.respawn_ticks, up.bodies_stay), (2, true));
        let keys: Vec<&str> = up.to_pairs().into_iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["width", "height", "apples_max", "respawn_ticks", "bodies_stay"]);
        let back = Settings::from_pairs(up.to_pairs().iter().map(|(k, v)| (*k, v.as_str()))).unwrap();
        assert_eq!(back, up);
        for bad in [("bodies_stay", "yes"), ("bodies_stay", ""), ("respawn_ticks", "0")] {
            assert!(Settings::from_pairs([bad]).is_err(), "{bad:?}");
        }
    }
}
