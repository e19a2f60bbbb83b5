//! What a CodeCarrots snake is told to do in one tick.
//!
//! A bot answers `left`, `right`, `up` or `down`; the protocol crate reads
//! that line. Anything else, no answer in time, a crashed process or new code
//! kills the snake: the runner reports all of those as [`Action::Forfeit`],
//! so the rules see one action and replays record it.

use crate::game::ParseActionError;
use crate::geom::Dir;

/// One seat's action in one tick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Action {
    /// No answer at all: the snake keeps its direction. Process bots never
    /// produce this (a missing answer is a forfeit); built-in bots and tests
    /// may.
    #[default]
    Keep,
    /// Move one cell this way.
    Move(Dir),
    /// The bot failed (invalid answer, timeout, crash) or its owner submitted
    /// new code: the snake dies this tick without moving.
    Forfeit,
}

impl Action {
    /// Compact replay form: `-` keep, `U` `R` `D` `L` a move, `F` forfeit.
    pub fn to_text(self) -> String {
        match self {
            Action::Keep => "-".to_string(),
            Action::Move(d) => d.letter().to_string(),
            Action::Forfeit => "F".to_string(),
        }
    }

    /// Inverse of [`Action::to_text`].
    pub fn from_text(text: &str) -> Result<Action, ParseActionError> {
        match text {
            "-" => Ok(Action::Keep),
            "F" => Ok(Action::Forfeit),
            _ => {
                let mut cs = text.chars();
                match (cs.next().and_then(Dir::from_letter), cs.next()) {
                    (Some(d), None) => Ok(Action::Move(d)),
                    _ => Err(ParseActionError { text: text.to_string(), reason: "expected -, F, U, R, D or L" }),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trip() {
        for t in ["-", "F", "U", "R", "D", "L"] {
            assert_eq!(Action::from_text(t).map(Action::to_text), Ok(t.to_string()));
        }
        for bad in ["", "UU", "X", "u", "F-"] {
            assert!(Action::from_text(bad).is_err(), "{bad}");
        }
    }
}
