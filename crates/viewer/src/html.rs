//! A replay as one self-contained web page that plays, pauses and scrubs
//! the game tick by tick, offline.
//!
//! The replay is re-simulated first, so the page shows the game its
//! checksums verify. The page carries everything: the viewer's CSS and
//! JavaScript inline (from `assets/replay/`) and the game as one JSON
//! document ([`doc::document`]), with each seat's stderr and faults when a
//! stderr log ([`stderr_log`]) comes with the replay. Its
//! Content-Security-Policy forbids every network request, and data reaches
//! the page as text only.

pub mod doc;
pub mod page;
pub mod stderr_log;

pub use doc::HtmlView;
pub use stderr_log::{LogError, StderrLog};

use snakepit_engine::battlesnake::Battlesnake;
use snakepit_engine::carrots::Carrots;
use snakepit_engine::duel::Duel;
use snakepit_engine::multisnake::Multisnake;
use snakepit_engine::snakebattle::SnakeBattle;
use snakepit_protocol::replay::{Divergence, Header, Replay, ReplayError, ReplayGame, ReplayProblem};
use std::path::Path;

/// Why a page cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// The replay is defective (or of a game this viewer does not know).
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// Re-simulating the replay gives another game than it recorded.
    #[error(transparent)]
    Diverged(#[from] Divergence),
    /// The stderr log is defective.
    #[error(transparent)]
    Log(#[from] LogError),
}

/// The viewer's document for a replay's text, with the text of its stderr
/// log if there is one (`log_name` names the log in errors).
pub fn document_for(text: &str, log: Option<(&str, &Path)>) -> Result<serde_json::Value, PageError> {
    let header = Header::parse(text)?;
    match header.game.as_str() {
        SnakeBattle::NAME => document::<SnakeBattle>(text, log),
        Battlesnake::NAME => document::<Battlesnake>(text, log),
        Carrots::NAME => document::<Carrots>(text, log),
        Duel::NAME => document::<Duel>(text, log),
        Multisnake::NAME => document::<Multisnake>(text, log),
        other => Err(ReplayError { line: 1, problem: ReplayProblem::UnknownGame(other.to_string()) }.into()),
    }
}

/// The whole page for a replay's text (see [`document_for`]).
pub fn page_for(text: &str, log: Option<(&str, &Path)>) -> Result<String, PageError> {
    Ok(page::page(&document_for(text, log)?))
}

fn document<G: HtmlView>(text: &str, log: Option<(&str, &Path)>) -> Result<serde_json::Value, PageError> {
    let replay = Replay::<G>::parse(text)?;
    let log = log.map(|(log_text, path)| StderrLog::parse(log_text, replay.header.seats, path)).transpose()?;
    Ok(doc::document(&replay, log.as_ref())?)
}
