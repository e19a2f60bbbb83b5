//! What a player tells the game in one tick: one move of one piece, or
//! nothing.
//!
//! The wire command (`ACT(x,y),LEFT`) is read by the protocol crate, which
//! also checks that the selected cell holds one of the player's pieces. The
//! engine checks again, because an action may come from anywhere (a replay,
//! a test, a buggy caller): a move that does not fit the position is ignored
//! and reported as an event, never an error.

use crate::game::ParseActionError;
use crate::geom::{Dir, Pos};

/// One seat's action in one tick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Action {
    /// No move: the seat skips the tick.
    #[default]
    Skip,
    /// Move the piece at `from` in direction `dir`: one cell (a clone, the
    /// piece stays and a new one appears) or, with `jump`, two cells (the
    /// piece itself moves).
    Move {
        /// The piece, in board coordinates (`[0,0]` top-left).
        from: Pos,
        /// Where to.
        dir: Dir,
        /// Two cells instead of one.
        jump: bool,
    },
}

impl Action {
    /// A clone of the piece at `from` one cell towards `dir`.
    pub fn clone_to(from: Pos, dir: Dir) -> Action {
        Action::Move { from, dir, jump: false }
    }

    /// A jump of the piece at `from` two cells towards `dir`.
    pub fn jump_to(from: Pos, dir: Dir) -> Action {
        Action::Move { from, dir, jump: true }
    }

    /// The move that takes a piece from `from` to `to`, if `to` is one
    /// (clone) or two (jump) cells away in a straight orthogonal line. This
    /// is what a click on a piece and then on a target means.
    pub fn between(from: Pos, to: Pos) -> Option<Action> {
        let (dx, dy) = (i64::from(to.x) - i64::from(from.x), i64::from(to.y) - i64::from(from.y));
        let dist = dx.abs() + dy.abs();
        if dx != 0 && dy != 0 || !(1..=2).contains(&dist) {
            return None;
        }
        let dir = Dir::ALL.into_iter().find(|d| {
            let (ux, uy) = d.delta();
            i64::from(ux) * dist == dx && i64::from(uy) * dist == dy
        })?;
        Some(Action::Move { from, dir, jump: dist == 2 })
    }

    /// The cell the move targets, if it is a move.
    pub fn target(&self) -> Option<Pos> {
        match *self {
            Action::Skip => None,
            Action::Move { from, dir, jump } => {
                let (dx, dy) = dir.delta();
                let k = if jump { 2 } else { 1 };
                Some(Pos::new(from.x.saturating_add(dx * k), from.y.saturating_add(dy * k)))
            }
        }
    }

    /// Compact replay form: `-` for a skip, `C<x>,<y><D>` for a clone and
    /// `J<x>,<y><D>` for a jump, `D` being `U`, `R`, `D` or `L`: `C2,3L`.
    pub fn to_text(&self) -> String {
        match *self {
            Action::Skip => "-".to_string(),
            Action::Move { from, dir, jump } => {
                format!("{}{},{}{}", if jump { 'J' } else { 'C' }, from.x, from.y, dir.letter())
            }
        }
    }

    /// Inverse of [`Action::to_text`]; exactly one spelling per action.
    pub fn from_text(text: &str) -> Result<Action, ParseActionError> {
        let err = |reason| ParseActionError { text: text.to_string(), reason };
        if text == "-" {
            return Ok(Action::Skip);
        }
        let expected = "expected -, or C or J, then x,y, then U, R, D or L (C2,3L)";
        let mut chars = text.chars();
        let jump = match chars.next() {
            Some('C') => false,
            Some('J') => true,
            _ => return Err(err(expected)),
        };
        let dir = chars.next_back().and_then(Dir::from_letter).ok_or_else(|| err(expected))?;
        let (x, y) = chars.as_str().split_once(',').ok_or_else(|| err(expected))?;
        // `i32::from_str` accepts a leading `+` and leading zeros, which
        // would give one action several spellings.
        let num = |s: &str| -> Option<i32> {
            let digits = s.strip_prefix('-').unwrap_or(s);
            let canonical = !digits.is_empty()
                && digits.bytes().all(|b| b.is_ascii_digit())
                && (digits == "0" || !digits.starts_with('0'))
                && s != "-0";
            canonical.then(|| s.parse().ok()).flatten()
        };
        let (Some(x), Some(y)) = (num(x), num(y)) else {
            return Err(err("coordinates must be integers written without + or leading zeros"));
        };
        Ok(Action::Move { from: Pos::new(x, y), dir, jump })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trip() {
        for t in ["-", "C2,3L", "J1,1U", "C0,0D", "J-1,14R", "C2147483647,-2147483648U"] {
            assert_eq!(Action::from_text(t).unwrap().to_text(), t);
        }
        for bad in ["", "C", "C2,3", "C2;3L", "X2,3L", "C+2,3L", "C02,3L", "C-0,3L", "C2,3Q", "c2,3L", "C2,3,L", "C,3L"] {
            assert!(Action::from_text(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn between_clicks() {
        let p = Pos::new(5, 5);
        assert_eq!(Action::between(p, Pos::new(4, 5)), Some(Action::clone_to(p, Dir::Left)));
        assert_eq!(Action::between(p, Pos::new(5, 7)), Some(Action::jump_to(p, Dir::Down)));
        assert_eq!(Action::between(p, Pos::new(5, 3)), Some(Action::jump_to(p, Dir::Up)));
        for to in [p, Pos::new(6, 6), Pos::new(8, 5), Pos::new(6, 7)] {
            assert_eq!(Action::between(p, to), None, "{to}");
        }
        for a in [Action::clone_to(p, Dir::Right), Action::jump_to(p, Dir::Up)] {
            assert_eq!(Action::between(p, a.target().unwrap()), Some(a));
        }
    }
}
