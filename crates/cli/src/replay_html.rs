//! `snakepit replay FILE --html OUT`: a replay as one self-contained web
//! page that plays, pauses and scrubs the game tick by tick, offline
//! (built by `snakepit_viewer::html`).
//!
//! A replay that `replay` rejects is rejected here with the same one-line
//! error and exit code. The `FILE.stderr.jsonl` that `play --replay` writes
//! next to a replay, when there is one, gives each seat's stderr and faults.

use crate::exit::BadInput;
use crate::input;
use anyhow::Context;
use snakepit_viewer::html::{self, PageError, StderrLog};
use std::path::Path;

/// Writes the page for the replay at `replay` to `out`.
pub fn write(replay: &Path, out: &Path) -> anyhow::Result<()> {
    let text = input::read_text(replay)?;
    let log_path = StderrLog::path_for(replay);
    let log_text = if log_path.exists() { Some(input::read_text(&log_path)?) } else { None };
    let file = || replay.display().to_string();
    let page = match html::page_for(&text, log_text.as_deref().map(|t| (t, log_path.as_path()))) {
        Ok(page) => page,
        Err(PageError::Replay(e)) => return Err(e).with_context(file),
        Err(PageError::Diverged(e)) => return Err(e).with_context(file),
        Err(PageError::Log(e)) => return Err(BadInput(e.0).into()),
    };
    std::fs::write(out, page).map_err(|e| BadInput(format!("{}: cannot write the page: {e}", out.display())))?;
    Ok(())
}
