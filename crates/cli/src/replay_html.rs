//! `snakepit replay FILE --html OUT`: a replay as one self-contained web
//! page that plays, pauses and scrubs the game tick by tick, offline
//! (built by `snakepit_viewer::html`).
//!
//! A replay that `replay` rejects is rejected here with the same one-line
//! error and exit code. The `FILE.stderr.jsonl` that `play --replay` writes
//! next to a replay, when there is one, gives each seat's stderr and faults.
//! When `replay --from-tick` can fork the game, the page shows the command
//! that forks it at the tick on screen, with FILE as given here.

use crate::exit::BadInput;
use crate::input;
use crate::play::GameKind;
use anyhow::Context;
use snakepit_protocol::replay::Header;
use snakepit_viewer::html::{self, ForkOffer, PageError, StderrLog};
use std::path::Path;

/// Writes the page for the replay at `replay` (a file, or a game of a
/// tournament's batch: see `batch`) to `out`.
pub fn write(replay: &Path, out: &Path) -> anyhow::Result<()> {
    let text = input::read_replay_text(replay)?;
    let log_path = StderrLog::path_for(replay);
    let log_text = if crate::batch::exists(&log_path) { Some(input::read_replay_text(&log_path)?) } else { None };
    write_text(replay, &text, log_text.as_deref(), out)
}

/// Writes the page for a replay's text, read from `replay`, with its
/// stderr log's text if there is one.
pub fn write_text(replay: &Path, text: &str, log_text: Option<&str>, out: &Path) -> anyhow::Result<()> {
    let log_path = StderrLog::path_for(replay);
    let file = replay.display().to_string();
    // A header that does not parse fails in `page_for` with its own error.
    let forkable = Header::parse(text).is_ok_and(|h| GameKind::from_name(&h.game).is_some());
    let fork = forkable.then_some(ForkOffer::Command { file: &file });
    let page = match html::page_for(text, log_text.map(|t| (t, log_path.as_path())), fork) {
        Ok(page) => page,
        Err(PageError::Replay(e)) => return Err(e).with_context(|| file.clone()),
        Err(PageError::Diverged(e)) => return Err(e).with_context(|| file.clone()),
        Err(PageError::Log(e)) => return Err(BadInput(e.0).into()),
        // `page_for` has no budget; the arm keeps the match whole.
        Err(e @ PageError::OverBudget { .. }) => return Err(BadInput(e.to_string()).into()),
    };
    std::fs::write(out, page).map_err(|e| BadInput(format!("{}: cannot write the page: {e}", out.display())))?;
    Ok(())
}
