//! What a snake is told to do in one tick.
//!
//! The wire parser (in the protocol crate) turns an answer such as
//! `ACT,LEFT` into [`Token`]s; [`Action::from_tokens`] then applies the rule
//! profile's reading of combinations. Keeping that reading here, not in the
//! parser, makes it a rule setting that replays record.

use super::settings::CommandRule;
use crate::game::ParseActionError;
use crate::geom::Dir;

/// One recognised command word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token {
    /// `UP`, `DOWN`, `LEFT` or `RIGHT`.
    Dir(Dir),
    /// `ACT`, or `ACT(...)` with arguments other than a single `0`.
    Act,
    /// `ACT(0)`: the snake dies at once.
    ActZero,
}

/// When a stone is dropped relative to the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoneDrop {
    /// Before the move, at the current tail (`ACT,DIR` or `ACT`).
    BeforeMove,
    /// After the move, at the new tail (`DIR,ACT` under CodeBattle's rule).
    AfterMove,
}

/// The effective order for one snake in one tick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Action {
    /// A new direction; `None` keeps the current one.
    pub dir: Option<Dir>,
    /// Whether and when to drop a stone.
    pub drop: Option<StoneDrop>,
    /// `ACT(0)`: die now.
    pub suicide: bool,
}

impl Action {
    /// Only a direction.
    pub fn go(d: Dir) -> Action {
        Action { dir: Some(d), ..Action::default() }
    }

    /// Reads a command sequence under a rule profile.
    ///
    /// CodeBattle's rule: one direction, `ACT`, `ACT,DIR` (drop, then move) or
    /// `DIR,ACT` (move, then drop). `DIR,DIR`, `ACT,ACT` and anything with more
    /// than two commands is a skipped turn. Upstream profile: every command
    /// counts, the last direction wins, and any `ACT` drops before the move.
    /// In both, an `ACT(0)` anywhere kills the snake, because upstream
    /// executes every command and the CodeBattle description names no
    /// exception.
    pub fn from_tokens(tokens: &[Token], rule: CommandRule) -> Action {
        if tokens.contains(&Token::ActZero) {
            return Action { suicide: true, ..Action::default() };
        }
        match rule {
            CommandRule::Seed => match tokens {
                [] => Action::default(),
                [Token::Dir(d)] => Action::go(*d),
                [Token::Act] => Action { drop: Some(StoneDrop::BeforeMove), ..Action::default() },
                [Token::Act, Token::Dir(d)] => Action { dir: Some(*d), drop: Some(StoneDrop::BeforeMove), suicide: false },
                [Token::Dir(d), Token::Act] => Action { dir: Some(*d), drop: Some(StoneDrop::AfterMove), suicide: false },
                _ => Action::default(),
            },
            CommandRule::LastWins => Action {
                dir: tokens.iter().rev().find_map(|t| match t {
                    Token::Dir(d) => Some(*d),
                    _ => None,
                }),
                drop: tokens.contains(&Token::Act).then_some(StoneDrop::BeforeMove),
                suicide: false,
            },
        }
    }

    /// Compact replay form: `-` for nothing; otherwise `A` (drop before), a
    /// direction letter, `A` (drop after); `X` for `ACT(0)`.
    pub fn to_text(&self) -> String {
        if self.suicide {
            return "X".to_string();
        }
        let mut s = String::new();
        if self.drop == Some(StoneDrop::BeforeMove) {
            s.push('A');
        }
        if let Some(d) = self.dir {
            s.push(d.letter());
        }
        if self.drop == Some(StoneDrop::AfterMove) {
            s.push('A');
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }

    /// Inverse of [`Action::to_text`].
    pub fn from_text(text: &str) -> Result<Action, ParseActionError> {
        let err = |reason| ParseActionError { text: text.to_string(), reason };
        match text {
            "-" => return Ok(Action::default()),
            "X" => return Ok(Action { suicide: true, ..Action::default() }),
            "A" => return Ok(Action { drop: Some(StoneDrop::BeforeMove), ..Action::default() }),
            _ => {}
        }
        let chars: Vec<char> = text.chars().collect();
        let (drop, letter) = match chars.as_slice() {
            [c] => (None, *c),
            ['A', c] => (Some(StoneDrop::BeforeMove), *c),
            [c, 'A'] => (Some(StoneDrop::AfterMove), *c),
            _ => return Err(err("expected -, X, A, or U/R/D/L with an optional A before or after")),
        };
        let dir = Dir::from_letter(letter).ok_or_else(|| err("unknown direction letter"))?;
        Ok(Action { dir: Some(dir), drop, suicide: false })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Token::*;

    #[test]
    fn seed_combinations() {
        let r = CommandRule::Seed;
        assert_eq!(Action::from_tokens(&[Dir(crate::Dir::Up)], r), Action::go(crate::Dir::Up));
        assert_eq!(Action::from_tokens(&[Act, Dir(crate::Dir::Left)], r).drop, Some(StoneDrop::BeforeMove));
        assert_eq!(Action::from_tokens(&[Dir(crate::Dir::Left), Act], r).drop, Some(StoneDrop::AfterMove));
        assert_eq!(Action::from_tokens(&[Dir(crate::Dir::Left), Dir(crate::Dir::Up)], r), Action::default());
        assert_eq!(Action::from_tokens(&[Act, Act], r), Action::default());
        assert_eq!(Action::from_tokens(&[Act, Dir(crate::Dir::Up), Act], r), Action::default());
        assert!(Action::from_tokens(&[Dir(crate::Dir::Up), ActZero], r).suicide);
    }

    #[test]
    fn upstream_combinations() {
        let r = CommandRule::LastWins;
        let a = Action::from_tokens(&[Dir(crate::Dir::Left), Act, Dir(crate::Dir::Up)], r);
        assert_eq!(a, Action { dir: Some(crate::Dir::Up), drop: Some(StoneDrop::BeforeMove), suicide: false });
    }

    #[test]
    fn text_round_trip() {
        for t in ["-", "X", "A", "U", "AL", "RA", "D"] {
            assert_eq!(Action::from_text(t).unwrap().to_text(), t);
        }
        for bad in ["", "Q", "AAL", "UU", "LAX"] {
            assert!(Action::from_text(bad).is_err(), "{bad}");
        }
    }
}
