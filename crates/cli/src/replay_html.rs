//! `snakepit replay FILE --html OUT`: a replay as one self-contained web
//! page that plays, pauses and scrubs the game tick by tick, offline.

use std::path::Path;

/// Writes the page for the replay at `replay` to `out`.
pub fn write(replay: &Path, out: &Path) -> anyhow::Result<()> {
    anyhow::bail!("cannot write {}: HTML replays of {} are not available yet", out.display(), replay.display())
}
