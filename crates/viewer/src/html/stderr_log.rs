//! The seats' stderr log that `play --replay FILE` writes next to the
//! replay as `FILE.stderr.jsonl` (one line per seat and tick with stderr
//! output or a fault; see `play/stdio.rs`):
//!
//! ```text
//! {"dropped":0,"fault":null,"seat":1,"stderr":["tick 3"],"t":3}
//! ```
//!
//! Reading is strict like the replay's: a line that is not such an object
//! is an error naming the file and line. Unknown keys are ignored, so the
//! log can grow. An entry for a tick the replay does not have is never
//! shown: `play` logs a tick just before it records it, so the log of a
//! game cut short can hold one tick more than its replay.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A defect of a stderr log: the file, the line and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LogError(pub String);

/// What one seat wrote, or how it failed, in one tick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    /// The seat.
    pub seat: usize,
    /// Its stderr lines of the tick, as kept.
    pub stderr: Vec<String>,
    /// Lines written beyond what was kept.
    pub dropped: u64,
    /// Why its answer did not count, if it did not.
    pub fault: Option<String>,
}

/// A whole stderr log, by tick.
#[derive(Clone, Debug, Default)]
pub struct StderrLog {
    by_tick: BTreeMap<u64, Vec<LogEntry>>,
}

impl StderrLog {
    /// The log's path for a replay: the replay's name plus `.stderr.jsonl`.
    pub fn path_for(replay: &Path) -> PathBuf {
        let mut name = replay.as_os_str().to_owned();
        name.push(".stderr.jsonl");
        PathBuf::from(name)
    }

    /// Reads the log's text; `seats` is the replay's seat count. `path` only
    /// names the file in errors.
    pub fn parse(text: &str, seats: usize, path: &Path) -> Result<StderrLog, LogError> {
        let mut log = StderrLog::default();
        for (i, line) in text.lines().enumerate() {
            let bad = |why: &str| LogError(format!("{}: line {}: {why}", path.display(), i + 1));
            if line.trim().is_empty() {
                continue;
            }
            let value: Value = serde_json::from_str(line).map_err(|e| bad(&format!("not valid JSON: {e}")))?;
            let o = value.as_object().ok_or_else(|| bad("not a JSON object"))?;
            let t = o.get("t").and_then(Value::as_u64).ok_or_else(|| bad("\"t\" must be a tick number"))?;
            let seat = o.get("seat").and_then(Value::as_u64).ok_or_else(|| bad("\"seat\" must be a seat number"))?;
            let seat = usize::try_from(seat).ok().filter(|&s| s < seats);
            let seat = seat.ok_or_else(|| bad(&format!("\"seat\" must be below {seats}, the replay's seat count")))?;
            let stderr = match o.get("stderr") {
                None | Some(Value::Null) => Vec::new(),
                Some(Value::Array(lines)) => lines
                    .iter()
                    .map(|l| l.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| bad("\"stderr\" must be a list of strings"))?,
                Some(_) => return Err(bad("\"stderr\" must be a list of strings")),
            };
            let dropped = match o.get("dropped") {
                None | Some(Value::Null) => 0,
                Some(v) => v.as_u64().ok_or_else(|| bad("\"dropped\" must be a count"))?,
            };
            let fault = match o.get("fault") {
                None | Some(Value::Null) => None,
                Some(Value::String(f)) => Some(f.clone()),
                Some(_) => return Err(bad("\"fault\" must be a string or null")),
            };
            log.by_tick.entry(t).or_default().push(LogEntry { seat, stderr, dropped, fault });
        }
        for entries in log.by_tick.values_mut() {
            entries.sort_by_key(|e| e.seat);
        }
        Ok(log)
    }

    /// The entries of tick `t`, by seat; empty when nothing was logged.
    pub fn at(&self, t: u64) -> &[LogEntry] {
        self.by_tick.get(&t).map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_play_writes() {
        let text = concat!(
            "{\"dropped\":0,\"fault\":null,\"seat\":1,\"stderr\":[\"tick 1\"],\"t\":1}\n",
            "{\"dropped\":2,\"fault\":\"answer \\\"nope\\\"\",\"seat\":0,\"stderr\":[],\"t\":1}\n",
        );
        let log = StderrLog::parse(text, 2, Path::new("r.jsonl.stderr.jsonl")).unwrap();
        let at = log.at(1);
        assert_eq!(at.len(), 2);
        assert_eq!(at[0], LogEntry { seat: 0, stderr: vec![], dropped: 2, fault: Some("answer \"nope\"".into()) });
        assert_eq!(at[1].stderr, vec!["tick 1".to_string()]);
        assert!(log.at(2).is_empty());
    }

    #[test]
    fn defects_name_file_and_line() {
        let path = Path::new("x.stderr.jsonl");
        for (text, needle) in [
            ("{\"t\":1,\"seat\":0}\n{\"t\":2", "line 2: not valid JSON"),
            ("{\"t\":1,\"seat\":5}", "line 1: \"seat\" must be below 2"),
            ("[1]", "line 1: not a JSON object"),
            ("{\"t\":1,\"seat\":0,\"stderr\":[1]}", "line 1: \"stderr\" must be a list of strings"),
            ("{\"seat\":0}", "line 1: \"t\" must be a tick number"),
        ] {
            let err = StderrLog::parse(text, 2, path).unwrap_err();
            assert!(err.0.starts_with("x.stderr.jsonl: "), "{err}");
            assert!(err.0.contains(needle), "{needle:?} not in {err}");
        }
    }
}
