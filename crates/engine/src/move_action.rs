//! What a snake of a stdin/stdout arena (CodeCarrots, KingOfBots,
//! Multisnake) is told to do in one tick: keep going, move one way, or
//! forfeit. The three games share this one action; each game's `Action`
//! says what a forfeit means there.

use crate::game::ParseActionError;
use crate::geom::Dir;

/// One seat's action in one tick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MoveAction {
    /// No answer at all: the snake keeps its direction. Process bots never
    /// produce this (a failed process forfeits); built-in bots, people and
    /// tests may.
    #[default]
    Keep,
    /// Move one cell this way.
    Move(Dir),
    /// The bot failed (an invalid answer, no answer in time, a crash) or,
    /// in CodeCarrots, its owner saved new code: the arena's rule for a
    /// failed bot applies (see each game's `Action`).
    Forfeit,
}

impl MoveAction {
    /// Compact replay form: `-` keep, `U` `R` `D` `L` a move, `F` forfeit.
    pub fn to_text(self) -> String {
        match self {
            MoveAction::Keep => "-".to_string(),
            MoveAction::Move(d) => d.letter().to_string(),
            MoveAction::Forfeit => "F".to_string(),
        }
    }

    /// Inverse of [`MoveAction::to_text`].
    pub fn from_text(text: &str) -> Result<MoveAction, ParseActionError> {
        match text {
            "-" => Ok(MoveAction::Keep),
            "F" => Ok(MoveAction::Forfeit),
            _ => {
                let mut cs = text.chars();
                match (cs.next().and_then(Dir::from_letter), cs.next()) {
                    (Some(d), None) => Ok(MoveAction::Move(d)),
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
            assert_eq!(MoveAction::from_text(t).map(MoveAction::to_text), Ok(t.to_string()));
        }
        for bad in ["", "0", "UU", "f", "u", "X", "F-"] {
            assert!(MoveAction::from_text(bad).is_err(), "{bad}");
        }
    }
}
