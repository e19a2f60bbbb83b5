//! What a Multisnake snake is told to do in one turn.
//!
//! A bot answers one line holding `^`, `>`, `v` or `<` (the protocol crate
//! reads it). The seed terminates a program that outputs an invalid line;
//! its snake then dies where it is and stays on the map like any dead
//! snake. The runner reports an invalid line, a timeout and a crash alike as
//! [`Action::Forfeit`], so the rules see one action and replays record it.

use crate::game::ParseActionError;
use crate::geom::Dir;

/// One seat's action in one turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Action {
    /// No answer: the snake keeps its direction (built-in bots and tests;
    /// process bots that fail forfeit instead).
    #[default]
    Keep,
    /// Move one cell this way.
    Move(Dir),
    /// The bot failed: its snake dies this turn without moving.
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
        for bad in ["", "0", "UU", "f"] {
            assert!(Action::from_text(bad).is_err(), "{bad}");
        }
    }
}
