//! Exit codes, chosen from the kind of error in one place.
//!
//! 0 is success, 2 means the input was wrong (a usage error, a defective map
//! or replay file, invalid settings), and 1 is any other failure, including a
//! well-formed replay that does not re-simulate. Scripts rely on telling
//! "you gave me something broken" from "the thing you gave me failed".

use snakepit_engine::snakebattle::{MapError, NewGameError, SettingsError};
use snakepit_protocol::replay::{ReplayError, SetupError};
use std::fmt;

/// Something the user gave us is wrong.
pub const BAD_INPUT: u8 = 2;
/// Anything else went wrong.
pub const FAILURE: u8 = 1;

/// An input problem that has no typed error of its own (an unreadable file,
/// an unknown game name).
#[derive(Debug)]
pub struct BadInput(pub String);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// Whether the error is only that stdout was closed early, as by
/// `snakepit replay FILE | head`; that is the reader's choice, not a failure.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain()
        .any(|cause| cause.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe))
}

/// The exit code for an error, from the kinds found anywhere in its chain.
pub fn code(err: &anyhow::Error) -> u8 {
    let bad_input = err.chain().any(|cause| {
        cause.is::<BadInput>()
            || cause.is::<ReplayError>()
            || cause.is::<SetupError>()
            || cause.is::<MapError>()
            || cause.is::<snakepit_engine::duel::MapError>()
            || cause.is::<snakepit_engine::multisnake::MapError>()
            || cause.is::<snakepit_engine::hex::MapError>()
            || cause.is::<SettingsError>()
            || cause.is::<NewGameError>()
    });
    if bad_input { BAD_INPUT } else { FAILURE }
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn input_errors_exit_2_through_context() {
        let e = Err::<(), _>(SettingsError::UnknownKey("x".into())).context("invalid settings").unwrap_err();
        assert_eq!(code(&e), BAD_INPUT);
        let e = anyhow::Error::new(BadInput("a.txt: no such file".into())).context("outer");
        assert_eq!(code(&e), BAD_INPUT);
        assert_eq!(code(&anyhow::anyhow!("disk full")), FAILURE);
        for map in ["", "#"] {
            let duel = snakepit_engine::duel::DuelMap::parse(map).unwrap_err();
            assert_eq!(code(&anyhow::Error::new(duel).context("map.txt")), BAD_INPUT);
            let multi = snakepit_engine::multisnake::Map::parse(map).unwrap_err();
            assert_eq!(code(&anyhow::Error::new(multi).context("map.txt")), BAD_INPUT);
            let hex = snakepit_engine::hex::Map::parse(map).unwrap_err();
            assert_eq!(code(&anyhow::Error::new(hex).context("map.txt")), BAD_INPUT);
        }
    }
}
