//! Battlesnake settings: the ruleset and the official game parameters.
//!
//! Settings travel as `key=value` pairs under the official parameter names
//! (`foodSpawnChance`, `minimumFood`, `hazardDamagePerTurn`,
//! `shrinkEveryNTurns`), plus `name` (the ruleset), `width`, `height` and
//! `map`. [`RawSettings`] holds the pairs as given; [`Settings`] is the
//! validated form the engine runs on, and the only way to get one is through
//! [`Settings::defaults`] or [`RawSettings::validate`]. Unlike the official
//! engine, which silently falls back to a default for a value it cannot read,
//! an unknown key or a bad value is an error here: a typo in a tournament's
//! settings should stop the tournament, not change its rules.

use std::fmt;

/// Narrowest and widest board the engine accepts, in cells. The official
/// boards go up to 25x25; 64 keeps every coordinate (and one step off the
/// board) in an `i8`.
pub const BOARD_SIDE_MIN: u32 = 1;
/// See [`BOARD_SIDE_MIN`].
pub const BOARD_SIDE_MAX: u32 = 64;

/// The six official rulesets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ruleset {
    /// The original game: food, health, collisions; last snake standing.
    Standard,
    /// Standard for one snake: the game ends when no snake is left.
    Solo,
    /// Standard plus hazards creeping in from a random edge every
    /// `shrinkEveryNTurns` turns.
    Royale,
    /// Standard on a torus: leaving one edge enters at the opposite one.
    Wrapped,
    /// No food; every snake grows every turn and keeps full health.
    Constrictor,
    /// Constrictor on a torus.
    WrappedConstrictor,
}

impl Ruleset {
    /// Every ruleset, in a fixed order.
    pub const ALL: [Ruleset; 6] = [
        Ruleset::Standard,
        Ruleset::Solo,
        Ruleset::Royale,
        Ruleset::Wrapped,
        Ruleset::Constrictor,
        Ruleset::WrappedConstrictor,
    ];

    /// The official name, as in `game.ruleset.name`.
    pub fn name(self) -> &'static str {
        match self {
            Ruleset::Standard => "standard",
            Ruleset::Solo => "solo",
            Ruleset::Royale => "royale",
            Ruleset::Wrapped => "wrapped",
            Ruleset::Constrictor => "constrictor",
            Ruleset::WrappedConstrictor => "wrapped_constrictor",
        }
    }

    /// Parses an official name.
    pub fn parse(name: &str) -> Option<Ruleset> {
        Ruleset::ALL.into_iter().find(|r| r.name() == name)
    }

    /// Whether the board wraps around at its edges.
    pub fn wraps(self) -> bool {
        matches!(self, Ruleset::Wrapped | Ruleset::WrappedConstrictor)
    }

    /// Whether food exists at all. The official constrictor pipeline removes
    /// the standard map's opening food in its first run, so a constrictor
    /// game never shows any.
    pub fn has_food(self) -> bool {
        !matches!(self, Ruleset::Constrictor | Ruleset::WrappedConstrictor)
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Validated Battlesnake settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    ruleset: Ruleset,
    width: u32,
    height: u32,
    food_spawn_chance_pct: u32,
    minimum_food: u32,
    hazard_damage_per_turn: i32,
    shrink_every_n_turns: u32,
}

impl Settings {
    /// The official defaults for a ruleset: 11x11, `foodSpawnChance` 15,
    /// `minimumFood` 1, `hazardDamagePerTurn` 14, `shrinkEveryNTurns` 25
    /// (the values the official CLI sends).
    pub fn defaults(ruleset: Ruleset) -> Settings {
        Settings {
            ruleset,
            width: 11,
            height: 11,
            food_spawn_chance_pct: 15,
            minimum_food: 1,
            hazard_damage_per_turn: 14,
            shrink_every_n_turns: 25,
        }
    }

    /// Validated settings from `key=value` pairs over the defaults of the
    /// ruleset named by `name` (standard when absent).
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Settings, SettingsError> {
        let mut raw = RawSettings::default();
        for (k, v) in pairs {
            raw.set(k, v);
        }
        raw.validate()
    }

    /// The ruleset.
    pub fn ruleset(&self) -> Ruleset {
        self.ruleset
    }

    /// Board width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Board height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// `foodSpawnChance`: the percent chance of one more food in a turn
    /// that ends with at least `minimumFood` on the board.
    pub fn food_spawn_chance_pct(&self) -> u32 {
        self.food_spawn_chance_pct
    }

    /// `minimumFood`: food is topped up to this count after every turn.
    pub fn minimum_food(&self) -> u32 {
        self.minimum_food
    }

    /// `hazardDamagePerTurn`: health lost by a head that ends its move in a
    /// hazard without food (negative values heal).
    pub fn hazard_damage_per_turn(&self) -> i32 {
        self.hazard_damage_per_turn
    }

    /// `shrinkEveryNTurns`: royale adds hazards every this many turns.
    pub fn shrink_every_n_turns(&self) -> u32 {
        self.shrink_every_n_turns
    }

    /// Every setting as `key=value`, in a fixed order; the inverse of
    /// [`Settings::from_pairs`].
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        vec![
            (KEY_NAME, self.ruleset.name().to_string()),
            (KEY_WIDTH, self.width.to_string()),
            (KEY_HEIGHT, self.height.to_string()),
            (KEY_MAP, MAP_STANDARD.to_string()),
            (KEY_FOOD_SPAWN_CHANCE, self.food_spawn_chance_pct.to_string()),
            (KEY_MINIMUM_FOOD, self.minimum_food.to_string()),
            (KEY_HAZARD_DAMAGE, self.hazard_damage_per_turn.to_string()),
            (KEY_SHRINK_EVERY, self.shrink_every_n_turns.to_string()),
        ]
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings::defaults(Ruleset::Standard)
    }
}

const KEY_NAME: &str = "name";
const KEY_WIDTH: &str = "width";
const KEY_HEIGHT: &str = "height";
const KEY_MAP: &str = "map";
const KEY_FOOD_SPAWN_CHANCE: &str = "foodSpawnChance";
const KEY_MINIMUM_FOOD: &str = "minimumFood";
const KEY_HAZARD_DAMAGE: &str = "hazardDamagePerTurn";
const KEY_SHRINK_EVERY: &str = "shrinkEveryNTurns";

/// The only map: standard start positions and food spawning. Other official
/// maps (arcade_maze, hz_*) are not implemented.
pub const MAP_STANDARD: &str = "standard";

/// Settings as given, before validation: `key=value` pairs in order, where a
/// later pair overrides an earlier one with the same key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawSettings {
    pairs: Vec<(String, String)>,
}

impl RawSettings {
    /// Adds a pair.
    pub fn set(&mut self, key: &str, value: &str) {
        self.pairs.push((key.to_string(), value.to_string()));
    }

    /// The pairs as given.
    pub fn pairs(&self) -> &[(String, String)] {
        &self.pairs
    }

    /// Checks every pair and builds the settings: the ruleset's defaults,
    /// then each pair in order.
    pub fn validate(&self) -> Result<Settings, SettingsError> {
        let ruleset = match self.pairs.iter().rev().find(|(k, _)| k == KEY_NAME) {
            Some((_, v)) => Ruleset::parse(v).ok_or_else(|| {
                SettingsError::bad(KEY_NAME, v, "standard, solo, royale, wrapped, constrictor or wrapped_constrictor")
            })?,
            None => Ruleset::Standard,
        };
        let mut s = Settings::defaults(ruleset);
        for (key, value) in &self.pairs {
            let (key, value) = (key.as_str(), value.as_str());
            match key {
                KEY_NAME => {}
                KEY_MAP if value == MAP_STANDARD => {}
                KEY_MAP => return Err(SettingsError::bad(key, value, "standard (the only map implemented)")),
                KEY_WIDTH => s.width = int_in(key, value, BOARD_SIDE_MIN..=BOARD_SIDE_MAX)?,
                KEY_HEIGHT => s.height = int_in(key, value, BOARD_SIDE_MIN..=BOARD_SIDE_MAX)?,
                KEY_FOOD_SPAWN_CHANCE => s.food_spawn_chance_pct = int_in(key, value, 0..=100)?,
                KEY_MINIMUM_FOOD => s.minimum_food = int_in(key, value, 0..=BOARD_SIDE_MAX * BOARD_SIDE_MAX)?,
                KEY_HAZARD_DAMAGE => s.hazard_damage_per_turn = int_in(key, value, -100..=100)?,
                KEY_SHRINK_EVERY => s.shrink_every_n_turns = int_in(key, value, 1..=1_000_000)?,
                _ => return Err(SettingsError::UnknownKey(key.to_string())),
            }
        }
        Ok(s)
    }
}

impl From<&Settings> for RawSettings {
    fn from(s: &Settings) -> RawSettings {
        RawSettings { pairs: s.to_pairs().into_iter().map(|(k, v)| (k.to_string(), v)).collect() }
    }
}

impl TryFrom<RawSettings> for Settings {
    type Error = SettingsError;

    fn try_from(raw: RawSettings) -> Result<Settings, SettingsError> {
        raw.validate()
    }
}

fn int_in<T>(key: &str, value: &str, range: std::ops::RangeInclusive<T>) -> Result<T, SettingsError>
where
    T: std::str::FromStr + PartialOrd + fmt::Display,
{
    match value.parse::<T>() {
        Ok(v) if range.contains(&v) => Ok(v),
        _ => Err(SettingsError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            expected: format!("an integer from {} to {}", range.start(), range.end()),
        }),
    }
}

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
        expected: String,
    },
}

impl SettingsError {
    fn bad(key: &str, value: &str, expected: &str) -> SettingsError {
        SettingsError::BadValue { key: key.to_string(), value: value.to_string(), expected: expected.to_string() }
    }
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::UnknownKey(k) => write!(
                f,
                "unknown battlesnake setting {k:?} (settings: name, width, height, map, foodSpawnChance, \
                 minimumFood, hazardDamagePerTurn, shrinkEveryNTurns)"
            ),
            SettingsError::BadValue { key, value, expected } => {
                write!(f, "setting {key}={value:?}: expected {expected}")
            }
        }
    }
}

impl std::error::Error for SettingsError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_official_ones() {
        let s = Settings::default();
        assert_eq!(
            s.to_pairs(),
            vec![
                ("name", "standard".to_string()),
                ("width", "11".into()),
                ("height", "11".into()),
                ("map", "standard".into()),
                ("foodSpawnChance", "15".into()),
                ("minimumFood", "1".into()),
                ("hazardDamagePerTurn", "14".into()),
                ("shrinkEveryNTurns", "25".into()),
            ]
        );
    }

    #[test]
    fn pairs_round_trip_and_later_pairs_win() {
        let s = Settings::from_pairs([("name", "royale"), ("width", "7"), ("width", "19"), ("minimumFood", "3")]).unwrap();
        assert_eq!((s.ruleset(), s.width(), s.height(), s.minimum_food()), (Ruleset::Royale, 19, 11, 3));
        let pairs = s.to_pairs();
        let again = Settings::from_pairs(pairs.iter().map(|(k, v)| (*k, v.as_str()))).unwrap();
        assert_eq!(s, again);
        assert_eq!(Settings::try_from(RawSettings::from(&s)), Ok(s));
    }

    #[test]
    fn bad_settings_are_errors() {
        assert_eq!(Settings::from_pairs([("food", "1")]), Err(SettingsError::UnknownKey("food".into())));
        for (k, v) in [
            ("name", "squad"),
            ("width", "0"),
            ("height", "65"),
            ("foodSpawnChance", "101"),
            ("minimumFood", "-1"),
            ("shrinkEveryNTurns", "0"),
            ("hazardDamagePerTurn", "x"),
            ("map", "arcade_maze"),
        ] {
            let err = Settings::from_pairs([(k, v)]).unwrap_err();
            assert!(matches!(&err, SettingsError::BadValue { key, .. } if key == k), "{k}={v}: {err}");
        }
    }

    #[test]
    fn names_round_trip() {
        for r in Ruleset::ALL {
            assert_eq!(Ruleset::parse(r.name()), Some(r));
        }
        assert!(Ruleset::WrappedConstrictor.wraps() && !Ruleset::WrappedConstrictor.has_food());
        assert!(!Ruleset::Royale.wraps() && Ruleset::Royale.has_food());
    }
}
