//! SnakeBattle settings: two named rule profiles and their overrides.
//!
//! `codebattle` follows CodeBattle's SnakeBattle description and is the
//! default; `codenjoy` follows upstream Codenjoy. Every rule on which the two
//! differ is a field here, so an organiser can mix them. Settings travel as
//! `key=value` pairs (command line, config files, replay headers), validated
//! once by [`Settings::from_pairs`].

pub use crate::settings::SettingsError;
use crate::settings::{parse_flag, parse_int, parse_num};

/// The largest points value (either sign) of any scoring setting.
pub const POINTS_ABS_MAX: u64 = 1_000_000;

/// The two rule profiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// The CodeBattle description: fury 15, stone +15, rounds,
    /// win = 10 x length + ticks.
    Codebattle,
    /// Upstream Codenjoy: fury 10, stone +5, win 50, flying pill, no rounds.
    Codenjoy,
}

impl Profile {
    /// The profile's name in settings.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Codebattle => "codebattle",
            Profile::Codenjoy => "codenjoy",
        }
    }

    /// Parses a profile name.
    pub fn parse(s: &str) -> Option<Profile> {
        match s {
            "codebattle" => Some(Profile::Codebattle),
            "codenjoy" => Some(Profile::Codenjoy),
            _ => None,
        }
    }
}

/// How an answer with several commands is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommandRule {
    /// The CodeBattle description: `ACT,DIR` drops the stone before the move,
    /// `DIR,ACT` after it; two directions, two ACTs or more than two commands
    /// skip the turn.
    Seed,
    /// Upstream: every command runs in order, the last direction wins and
    /// `ACT` drops the stone at once, before the move.
    LastWins,
}

/// Points per scoring event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Points {
    /// Per apple eaten.
    pub apple: i64,
    /// Per gold coin.
    pub gold: i64,
    /// Per stone eaten (the CodeBattle description lists it as +15).
    pub stone: i64,
    /// Per unit of length of a snake killed or of a body piece bitten off.
    pub eat_per_cell: i64,
    /// Round win: this many points per unit of the winner's length...
    pub win_per_length: i64,
    /// ...plus this many per tick the round lasted...
    pub win_per_tick: i64,
    /// ...plus this flat amount.
    pub win_flat: i64,
    /// Subtracted on every death (scores never go below zero).
    pub die_penalty: i64,
}

/// Validated SnakeBattle settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The profile the defaults came from.
    pub profile: Profile,
    /// Ticks a fury pill lasts, counting the tick it is eaten.
    pub fury_ticks: u32,
    /// Ticks a flying pill lasts.
    pub flying_ticks: u32,
    /// Whether flying pills exist at all.
    pub flying_pills: bool,
    /// Length lost by eating a stone without fury.
    pub stone_shrink: u32,
    /// How multi-command answers are read.
    pub commands: CommandRule,
    /// Scoring.
    pub points: Points,
    /// Rounds: countdown with sleeping snakes, round end, winners.
    pub rounds: bool,
    /// Ticks of countdown before a round starts.
    pub countdown_ticks: u32,
    /// Ticks after which a round ends and the longest snakes win.
    pub round_ticks: u32,
    /// A round ends when a snake reaches this length (0 = never).
    pub round_end_length: u32,
    /// A win is only paid when the round has lasted this many ticks.
    pub min_ticks_for_win: u32,
    /// Snakes per field (seats of one room).
    pub players_per_field: u32,
    /// Whether every object eaten in a tick is replaced in that tick by one
    /// of its kind on a free cell (step 6 of CodeBattle's order of
    /// processing).
    pub replace_eaten: bool,
    /// Whether upstream's dice adds objects: one random free cell and one
    /// roll of 50 a tick, so at most one new object a tick, of a kind the
    /// roll and the counts on the field choose. Without it (the
    /// `codebattle` profile) only `replace_eaten` brings objects, and the
    /// field keeps the objects its map starts with (stones dropped by
    /// snakes aside).
    pub dice: bool,
    /// Whether a map's legacy `%` places a fury pill, as CodeBattle's own
    /// sample board draws one (the default map has one). Otherwise `%` is
    /// an empty cell, as upstream's level reader makes it.
    pub map_percent_is_fury: bool,
}

impl Settings {
    /// The defaults of a profile.
    pub fn profile(profile: Profile) -> Settings {
        match profile {
            Profile::Codebattle => Settings {
                profile,
                fury_ticks: 15,
                flying_ticks: 10,
                flying_pills: false,
                stone_shrink: 3,
                commands: CommandRule::Seed,
                points: Points {
                    apple: 1,
                    gold: 10,
                    stone: 15,
                    eat_per_cell: 10,
                    win_per_length: 10,
                    win_per_tick: 1,
                    win_flat: 0,
                    die_penalty: 0,
                },
                rounds: true,
                countdown_ticks: 5,
                round_ticks: 300,
                round_end_length: 40,
                min_ticks_for_win: 0,
                players_per_field: 5,
                replace_eaten: true,
                dice: false,
                map_percent_is_fury: true,
            },
            Profile::Codenjoy => Settings {
                profile,
                fury_ticks: 10,
                flying_ticks: 10,
                flying_pills: true,
                stone_shrink: 3,
                commands: CommandRule::LastWins,
                points: Points {
                    apple: 1,
                    gold: 10,
                    stone: 5,
                    eat_per_cell: 10,
                    win_per_length: 0,
                    win_per_tick: 0,
                    win_flat: 50,
                    die_penalty: 0,
                },
                rounds: false,
                countdown_ticks: 5,
                round_ticks: 300,
                round_end_length: 0,
                min_ticks_for_win: 40,
                players_per_field: 15,
                replace_eaten: false,
                dice: true,
                map_percent_is_fury: false,
            },
        }
    }

    /// Builds settings from a profile name (default `codebattle`) and
    /// overrides, as `key=value` pairs. Unknown keys and bad values are
    /// errors, never silently ignored.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Settings, SettingsError> {
        let pairs: Vec<(&str, &str)> = pairs.into_iter().collect();
        let profile = match pairs.iter().rev().find(|(k, _)| *k == "profile") {
            Some((_, v)) => Profile::parse(v).ok_or_else(|| SettingsError::bad("profile", v, "codebattle or codenjoy"))?,
            None => Profile::Codebattle,
        };
        let mut s = Settings::profile(profile);
        for (key, value) in pairs {
            s.set(key, value)?;
        }
        if s.players_per_field == 0 {
            return Err(SettingsError::bad("players_per_field", "0", "at least 1"));
        }
        Ok(s)
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), SettingsError> {
        let (num, flag) = (parse_num, parse_flag);
        // Points are bounded so that no score sum or product of them (with
        // lengths and ticks) can overflow.
        fn int(key: &str, value: &str) -> Result<i64, SettingsError> {
            parse_int(key, value).and_then(|v: i64| {
                if v.unsigned_abs() <= POINTS_ABS_MAX {
                    Ok(v)
                } else {
                    Err(SettingsError::bad(key, value, "an integer from -1000000 to 1000000"))
                }
            })
        }
        let p = &mut self.points;
        match key {
            "profile" => {}
            "fury_ticks" => self.fury_ticks = num(key, value)?,
            "flying_ticks" => self.flying_ticks = num(key, value)?,
            "flying_pills" => self.flying_pills = flag(key, value)?,
            "stone_shrink" => self.stone_shrink = num(key, value)?,
            "commands" => {
                self.commands = match value {
                    "seed" => CommandRule::Seed,
                    "last_wins" => CommandRule::LastWins,
                    _ => return Err(SettingsError::bad(key, value, "seed or last_wins")),
                }
            }
            "points_apple" => p.apple = int(key, value)?,
            "points_gold" => p.gold = int(key, value)?,
            "points_stone" => p.stone = int(key, value)?,
            "points_eat_per_cell" => p.eat_per_cell = int(key, value)?,
            "points_win_per_length" => p.win_per_length = int(key, value)?,
            "points_win_per_tick" => p.win_per_tick = int(key, value)?,
            "points_win_flat" => p.win_flat = int(key, value)?,
            "points_die_penalty" => p.die_penalty = int(key, value)?,
            "rounds" => self.rounds = flag(key, value)?,
            "countdown_ticks" => self.countdown_ticks = num(key, value)?,
            "round_ticks" => {
                // A round of no ticks would end (and be won) at once, every tick.
                self.round_ticks = num(key, value)?;
                if self.round_ticks == 0 {
                    return Err(SettingsError::bad(key, value, "at least 1"));
                }
            }
            "round_end_length" => self.round_end_length = num(key, value)?,
            "min_ticks_for_win" => self.min_ticks_for_win = num(key, value)?,
            "players_per_field" => {
                self.players_per_field = num(key, value)?;
                if self.players_per_field == 0 {
                    return Err(SettingsError::bad(key, value, "at least 1"));
                }
            }
            "replace_eaten" => self.replace_eaten = flag(key, value)?,
            "dice" => self.dice = flag(key, value)?,
            "map_percent_is_fury" => self.map_percent_is_fury = flag(key, value)?,
            _ => return Err(SettingsError::UnknownKey(key.to_string())),
        }
        Ok(())
    }

    /// Every setting as `key=value`, in a fixed order; the inverse of
    /// [`Settings::from_pairs`].
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let p = &self.points;
        vec![
            ("profile", self.profile.name().to_string()),
            ("fury_ticks", self.fury_ticks.to_string()),
            ("flying_ticks", self.flying_ticks.to_string()),
            ("flying_pills", self.flying_pills.to_string()),
            ("stone_shrink", self.stone_shrink.to_string()),
            (
                "commands",
                match self.commands {
                    CommandRule::Seed => "seed",
                    CommandRule::LastWins => "last_wins",
                }
                .to_string(),
            ),
            ("points_apple", p.apple.to_string()),
            ("points_gold", p.gold.to_string()),
            ("points_stone", p.stone.to_string()),
            ("points_eat_per_cell", p.eat_per_cell.to_string()),
            ("points_win_per_length", p.win_per_length.to_string()),
            ("points_win_per_tick", p.win_per_tick.to_string()),
            ("points_win_flat", p.win_flat.to_string()),
            ("points_die_penalty", p.die_penalty.to_string()),
            ("rounds", self.rounds.to_string()),
            ("countdown_ticks", self.countdown_ticks.to_string()),
            ("round_ticks", self.round_ticks.to_string()),
            ("round_end_length", self.round_end_length.to_string()),
            ("min_ticks_for_win", self.min_ticks_for_win.to_string()),
            ("players_per_field", self.players_per_field.to_string()),
            ("replace_eaten", self.replace_eaten.to_string()),
            ("dice", self.dice.to_string()),
            ("map_percent_is_fury", self.map_percent_is_fury.to_string()),
        ]
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings::profile(Profile::Codebattle)
    }
}
