//! `snakepit replay FILE --html OUT`: a replay as one self-contained web
//! page that plays, pauses and scrubs the game tick by tick, offline.
//!
//! The replay is re-simulated first, so the page shows the game its
//! checksums verify, and a replay that `replay` rejects is rejected here
//! with the same one-line error. The page carries everything: the viewer's
//! CSS and JavaScript inline and the game as one JSON document
//! ([`doc::document`]), with each seat's stderr and faults when the
//! `FILE.stderr.jsonl` that `play --replay` writes lies next to the replay.
//! Its Content-Security-Policy forbids every network request.
//!
//! The viewer's files live in `assets/replay/` and the document is built
//! from a parsed replay, so a server can show its own finished games with
//! the same viewer ([`page::page`]).

pub(crate) mod doc;
pub(crate) mod page;
pub(crate) mod stderr_log;

use crate::exit::BadInput;
use crate::input;
use anyhow::Context;
use doc::HtmlView;
use snakepit_engine::battlesnake::Battlesnake;
use snakepit_engine::carrots::Carrots;
use snakepit_engine::duel::Duel;
use snakepit_engine::multisnake::Multisnake;
use snakepit_engine::snakebattle::SnakeBattle;
use snakepit_protocol::replay::{Header, Replay, ReplayError, ReplayGame, ReplayProblem};
use std::path::Path;
use stderr_log::StderrLog;

/// Writes the page for the replay at `replay` to `out`.
pub fn write(replay: &Path, out: &Path) -> anyhow::Result<()> {
    let text = input::read_text(replay)?;
    let file = || replay.display().to_string();
    let header = Header::parse(&text).with_context(file)?;
    let doc = match header.game.as_str() {
        SnakeBattle::NAME => document::<SnakeBattle>(replay, &text),
        Battlesnake::NAME => document::<Battlesnake>(replay, &text),
        Carrots::NAME => document::<Carrots>(replay, &text),
        Duel::NAME => document::<Duel>(replay, &text),
        Multisnake::NAME => document::<Multisnake>(replay, &text),
        other => {
            let problem = ReplayProblem::UnknownGame(other.to_string());
            Err(ReplayError { line: 1, problem }).with_context(file)
        }
    }?;
    let html = page::page(&doc);
    std::fs::write(out, html).map_err(|e| BadInput(format!("{}: cannot write the page: {e}", out.display())))?;
    Ok(())
}

/// Parses and re-simulates the replay into the viewer's document, with the
/// stderr log next to it when there is one.
fn document<G: HtmlView>(path: &Path, text: &str) -> anyhow::Result<serde_json::Value> {
    let file = || path.display().to_string();
    let replay = Replay::<G>::parse(text).with_context(file)?;
    let log_path = StderrLog::path_for(path);
    let log = if log_path.exists() {
        let log_text = input::read_text(&log_path)?;
        Some(StderrLog::parse(&log_text, replay.header.seats, &log_path)?)
    } else {
        None
    };
    doc::document(&replay, log.as_ref()).with_context(file)
}
