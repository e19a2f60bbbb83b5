//! What a `--bot` argument names, parsed in this one place.
//!
//! Today only built-in bots exist. Processes and URLs arrive with later
//! issues as new variants of [`BotSpec`]; everything that turns a spec into a
//! player goes through [`BotSpec::connect`], so they will plug in there.

use snakepit_bots::builtin::{self, SnakeBot};
use std::fmt;
use std::str::FromStr;

/// A player as named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotSpec {
    /// `builtin:NAME`: one of the bots compiled into snakepit.
    Builtin(String),
}

impl FromStr for BotSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<BotSpec, String> {
        let known = builtin::NAMES.join(", ");
        match s.split_once(':') {
            Some(("builtin", name)) if builtin::NAMES.contains(&name) => Ok(BotSpec::Builtin(name.to_string())),
            Some(("builtin", name)) => Err(format!("there is no built-in bot {name:?} (built-in bots: {known})")),
            _ => Err(format!(
                "{s:?} is not builtin:NAME; process and URL bots arrive with a later version (built-in bots: {known})"
            )),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Builtin(name) => write!(f, "builtin:{name}"),
        }
    }
}

impl BotSpec {
    /// A player for `seat` of a game seeded with `game_seed`.
    pub fn connect(&self, game_seed: u64, seat: usize) -> Box<dyn SnakeBot> {
        match self {
            BotSpec::Builtin(name) => builtin::by_name(name, bot_seed(game_seed, seat))
                .expect("names are checked when the spec is parsed"),
        }
    }
}

/// The seed of the built-in bot in `seat`: a function of the game's seed so
/// that a game replays exactly, and different per seat so that two copies of
/// the same random bot do not mirror each other.
pub fn bot_seed(game_seed: u64, seat: usize) -> u64 {
    // SplitMix64's finaliser: consecutive inputs give unrelated outputs.
    let mut z = game_seed ^ (seat as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_builtins_and_refuses_the_rest() {
        assert_eq!("builtin:greedy".parse(), Ok(BotSpec::Builtin("greedy".into())));
        assert_eq!(BotSpec::Builtin("random".into()).to_string(), "builtin:random");
        let unknown = "builtin:clever".parse::<BotSpec>().unwrap_err();
        assert!(unknown.contains("no built-in bot \"clever\""), "{unknown}");
        for later in ["./bot.py", "cmd:python bot.py", "ws://localhost:8080/bot"] {
            let err = later.parse::<BotSpec>().unwrap_err();
            assert!(err.contains("arrive with a later version"), "{err}");
        }
    }

    #[test]
    fn seats_get_distinct_stable_seeds() {
        let seeds: Vec<u64> = (0..5).map(|seat| bot_seed(1, seat)).collect();
        let mut unique = seeds.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), 5);
        assert_eq!(seeds, (0..5).map(|seat| bot_seed(1, seat)).collect::<Vec<_>>());
        assert_ne!(bot_seed(1, 0), bot_seed(2, 0));
    }
}
