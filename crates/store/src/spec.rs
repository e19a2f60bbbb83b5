//! What a queued game holds: the JSON the submitter writes into the queue
//! (a [`MatchSpec`]) and the JSON the worker writes back (a
//! [`MatchResult`]).
//!
//! The store keeps both as text; these types are the one definition that
//! the worker, the ladder's scheduler and the server's "fork" button
//! share.

use serde::{Deserialize, Serialize};

/// The prefix of a seat played by a player's saved program
/// (`code:PLAYER_ID`): the worker reads the program from the store when the
/// game starts and runs it in the sandbox.
pub const CODE_PREFIX: &str = "code:";

/// The languages of saved programs that queued games (ladder games, forks)
/// run: all of them (`snakepit_bots::source::LANGUAGES`, which the store
/// does not depend on; the server checks that the two agree). C and Java
/// are compiled in the sandbox when the game starts, within the first
/// move's longer deadline.
pub const QUEUED_LANGS: &[&str] = &["python", "javascript", "c", "java"];

/// One queued game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchSpec {
    /// The game's name (`duel`, `multisnake`, ...).
    pub game: String,
    /// One bot spec per seat, as `play --bot` takes them, or `code:ID`.
    pub bots: Vec<String>,
    /// Settings, as `--set` takes them.
    #[serde(default)]
    pub set: Vec<(String, String)>,
    /// Ticks to play at most.
    #[serde(default)]
    pub ticks: Option<u64>,
    /// Registered players by seat (`""` for others), for the replay's
    /// index.
    #[serde(default)]
    pub players: Vec<String>,
    /// Where the game comes from (`queue`, `ladder`, `fork`, a tournament).
    #[serde(default)]
    pub origin: Option<String>,
    /// The players' names by seat, for the replay (set by the worker for
    /// `code:` seats; the bot specs when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<String>>,
    /// A fork: the game continues a kept replay from one of its ticks
    /// (see `replay --from-tick`), `bots` playing from there on.
    #[serde(default)]
    pub fork: Option<ForkOf>,
}

/// Which kept game a queued fork continues, and from which tick.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForkOf {
    /// The replay's id in the store.
    pub replay_id: i64,
    /// The first tick the bots play.
    pub from_tick: u64,
}

/// What a worker writes back for a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchResult {
    /// Each seat's score.
    pub scores: Vec<i64>,
    /// Each seat's place (1 is best; equals share).
    pub places: Vec<usize>,
    /// Ticks played.
    pub ticks: u64,
    /// Why the game could not be played, if it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The seats' names when the game was played (players' names, built-in
    /// bots' labels), so that lists of games can name the winner without
    /// reading the replay; empty in results written before it existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
}
