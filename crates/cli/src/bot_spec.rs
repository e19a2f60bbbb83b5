//! What a `--bot` argument names, parsed in this one place.
//!
//! A spec says how to reach a player, not which game it plays: each game's
//! table in `play` turns the specs into its own players and refuses the
//! ones it cannot seat (an HTTP snake in a SnakeBattle room, say). Anything
//! that is neither `builtin:NAME` nor a URL nor another `scheme:` is a
//! command line for a process bot; every game runs it in the sandbox.

use snakepit_bots::http::SnakeUrl;
use snakepit_bots::{bsbots, builtin, hexbots};
use std::fmt;
use std::str::FromStr;

/// A player as named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotSpec {
    /// `builtin:NAME`: one of the bots compiled into snakepit.
    Builtin(String),
    /// `http://host:port/path`: a Battlesnake web server.
    Http(String),
    /// A command line to run as a sandboxed process bot (`python3 bot.py`,
    /// `./a.out`), speaking the game's own format, or with the `json:`
    /// prefix the JSON-lines protocol.
    Process {
        /// The command line, without the prefix.
        line: String,
        /// Whether the bot speaks the JSON-lines protocol.
        json: bool,
    },
}

/// Every built-in name of any game, for the parser's message.
fn builtin_names() -> Vec<&'static str> {
    let rooms = snakepit_server::arenas::NAMES;
    let mut names: Vec<&'static str> = builtin::NAMES.iter().chain(bsbots::NAMES).chain(hexbots::NAMES).chain(rooms).copied().collect();
    names.sort_unstable();
    names.dedup();
    names
}

impl FromStr for BotSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<BotSpec, String> {
        let names = builtin_names();
        let known = names.join(", ");
        if s.starts_with("http://") || s.starts_with("https://") {
            return SnakeUrl::parse(s).map(|_| BotSpec::Http(s.to_string())).map_err(|e| e.to_string());
        }
        let later = || {
            format!("{s:?} is not builtin:NAME, an http:// URL or a command line; other transports arrive with a later version (built-in bots: {known})")
        };
        if s.contains("://") {
            return Err(later());
        }
        match s.split_once(':') {
            Some(("builtin", name)) if names.contains(&name) => Ok(BotSpec::Builtin(name.to_string())),
            Some(("builtin", name)) => Err(format!("there is no built-in bot {name:?} (built-in bots: {known})")),
            Some(("json", line)) if !line.trim().is_empty() => Ok(BotSpec::Process { line: line.to_string(), json: true }),
            // A word and a colon before any space or slash reads as a
            // scheme nobody knows, not as a program name.
            Some((scheme, _)) if !scheme.is_empty() && scheme.bytes().all(|b| b.is_ascii_alphanumeric()) => Err(later()),
            _ if s.trim().is_empty() => Err("an empty command line".to_string()),
            _ => Ok(BotSpec::Process { line: s.to_string(), json: false }),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Builtin(name) => write!(f, "builtin:{name}"),
            BotSpec::Http(url) => f.write_str(url),
            BotSpec::Process { line, json: false } => f.write_str(line),
            BotSpec::Process { line, json: true } => write!(f, "json:{line}"),
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
    fn parses_builtins_and_urls_and_refuses_the_rest() {
        assert_eq!("builtin:greedy".parse(), Ok(BotSpec::Builtin("greedy".into())));
        assert_eq!(BotSpec::Builtin("random".into()).to_string(), "builtin:random");
        let unknown = "builtin:clever".parse::<BotSpec>().unwrap_err();
        assert!(unknown.contains("no built-in bot \"clever\""), "{unknown}");
        for later in ["cmd:python bot.py", "ws://localhost:8080/bot"] {
            let err = later.parse::<BotSpec>().unwrap_err();
            assert!(err.contains("arrive with a later version"), "{err}");
        }
        let process = |line: &str, json| Ok(BotSpec::Process { line: line.into(), json });
        assert_eq!("./bot.py".parse(), process("./bot.py", false));
        assert_eq!("python3 starters/multisnake/python/bot.py".parse(), process("python3 starters/multisnake/python/bot.py", false));
        assert_eq!("json:node bot.js".parse(), process("node bot.js", true));
        assert_eq!("json:node bot.js".parse::<BotSpec>().unwrap().to_string(), "json:node bot.js");
        assert!(" ".parse::<BotSpec>().is_err());
        let url = "http://127.0.0.1:8000/snake";
        assert_eq!(url.parse(), Ok(BotSpec::Http(url.into())));
        assert_eq!(BotSpec::Http(url.into()).to_string(), url);
        let tls = "https://example.com".parse::<BotSpec>().unwrap_err();
        assert!(tls.contains("https is not supported"), "{tls}");
        assert!("http://host:port".parse::<BotSpec>().is_err());
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
