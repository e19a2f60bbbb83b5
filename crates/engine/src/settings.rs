//! What every game's settings share: the error type and the value parsers.
//!
//! Each game validates its own `key=value` pairs (command line, config
//! files, replay headers) into a typed `Settings`; this module keeps the
//! wording of errors and the reading of numbers and flags the same across
//! games.

use std::fmt;
use std::str::FromStr;

/// A setting that could not be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SettingsError {
    /// No setting has this name.
    UnknownKey(String),
    /// The value does not fit the setting.
    BadValue {
        /// Setting name.
        key: String,
        /// The value given.
        value: String,
        /// What was expected.
        expected: &'static str,
    },
}

impl SettingsError {
    /// A value that does not fit `key`.
    pub fn bad(key: &str, value: &str, expected: &'static str) -> SettingsError {
        SettingsError::BadValue { key: key.to_string(), value: value.to_string(), expected }
    }
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::UnknownKey(k) => write!(f, "unknown setting {k:?}"),
            SettingsError::BadValue { key, value, expected } => write!(f, "setting {key}={value:?}: expected {expected}"),
        }
    }
}

impl std::error::Error for SettingsError {}

/// A non-negative integer of any unsigned type.
pub fn parse_num<T: FromStr>(key: &str, value: &str) -> Result<T, SettingsError> {
    value.parse().map_err(|_| SettingsError::bad(key, value, "a non-negative integer"))
}

/// A signed integer.
pub fn parse_int(key: &str, value: &str) -> Result<i64, SettingsError> {
    value.parse().map_err(|_| SettingsError::bad(key, value, "an integer"))
}

/// `true`/`on`/`1` or `false`/`off`/`0`.
pub fn parse_flag(key: &str, value: &str) -> Result<bool, SettingsError> {
    match value {
        "true" | "on" | "1" => Ok(true),
        "false" | "off" | "0" => Ok(false),
        _ => Err(SettingsError::bad(key, value, "true or false")),
    }
}
