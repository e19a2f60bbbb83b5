//! What a KingOfBots snake is told to do in one round.
//!
//! A bot answers a direction number, `0` up, `1` right, `2` down, `3` left
//! (the protocol crate reads it); a person presses W, D, S or A. A bot that
//! answers anything else, too late or not at all, or crashes, loses the
//! game: the runner reports all of those as [`Action::Forfeit`], so the
//! rules see one action and replays record it.

use crate::game::ParseActionError;
use crate::geom::Dir;

/// One side's action in one round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Action {
    /// No decision: the snake keeps its direction (a person who pressed
    /// nothing; bots that fail forfeit instead).
    #[default]
    Keep,
    /// Move one cell this way.
    Move(Dir),
    /// The bot failed: its side loses before anybody moves.
    Forfeit,
}

impl Action {
    /// The seed's direction number: `0` up, `1` right, `2` down, `3` left.
    pub fn from_number(n: u8) -> Option<Action> {
        Dir::ALL.get(usize::from(n)).map(|&d| Action::Move(d))
    }

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
    fn numbers_are_the_seeds() {
        assert_eq!(Action::from_number(0), Some(Action::Move(Dir::Up)));
        assert_eq!(Action::from_number(1), Some(Action::Move(Dir::Right)));
        assert_eq!(Action::from_number(2), Some(Action::Move(Dir::Down)));
        assert_eq!(Action::from_number(3), Some(Action::Move(Dir::Left)));
        assert_eq!(Action::from_number(4), None);
    }

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
