//! Reading the files a user names on the command line.
//!
//! Every problem with such a file is the user's to fix, so all of them are
//! [`BadInput`] (exit code 2) and name the file; text that is not UTF-8 also
//! names the line, like every other defect.

use crate::exit::BadInput;
use std::path::Path;

/// The whole file as text.
pub fn read_text(path: &Path) -> Result<String, BadInput> {
    let bytes = std::fs::read(path).map_err(|e| BadInput(format!("{}: {e}", path.display())))?;
    text_of(path, bytes)
}

/// A replay file (or a stderr log) as text: the file, or the member of
/// that name in a tournament's batch next to it (see `batch`).
pub fn read_replay_text(path: &Path) -> Result<String, BadInput> {
    let bytes = crate::batch::read_file(path)?;
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let example = path.with_file_name("NNNNNN.jsonl");
        return Err(BadInput(format!("{}: a batch of replays: name one of its games as {}", path.display(), example.display())));
    }
    text_of(path, bytes)
}

fn text_of(path: &Path, bytes: Vec<u8>) -> Result<String, BadInput> {
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        BadInput(format!("{}: line {line}: not UTF-8 text", path.display()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_utf8_names_the_line() {
        let path = std::env::temp_dir().join(format!("snakepit-input-{}.txt", std::process::id()));
        std::fs::write(&path, b"ok\nalso ok\nbad \xff here\n").unwrap();
        let err = read_text(&path).unwrap_err();
        std::fs::remove_file(&path).unwrap();
        assert!(err.0.ends_with(": line 3: not UTF-8 text"), "{err}");
    }

    #[test]
    fn missing_file_names_it() {
        let err = read_text(Path::new("/nonexistent/snakepit.map")).unwrap_err();
        assert!(err.0.starts_with("/nonexistent/snakepit.map: "), "{err}");
    }
}
