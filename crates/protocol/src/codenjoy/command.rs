//! The command grammar: what a bot's answer text means.
//!
//! This follows upstream's `PlayerCommand` exactly, including its quirks,
//! because real clients were written against it: the answer is scanned
//! left to right for the regular expression
//! `left|right|up|down|act(\((-?\d*,?)+\))?|message(\('(.*)'\))?`
//! (ASCII case-insensitive), and every match is a command, in order.
//! Whatever lies between matches is ignored, so separators do not matter
//! (`LEFT,ACT`, `LEFT ACT` and `left;act` are the same) and a word that
//! contains a command word counts as that command (`UPPER` is `UP`).

use snakepit_engine::Dir;
use snakepit_engine::snakebattle::{Action, CommandRule, Token};
use std::borrow::Cow;

/// Only this many characters at the start of an answer are read; the rest
/// is ignored, so a hostile answer costs bounded work.
pub const COMMAND_CHARS_MAX: usize = 1000;

/// At most this many commands are taken from one answer; later ones are
/// ignored. No rule profile gives meaning to more than two.
pub const COMMAND_TOKENS_MAX: usize = 16;

/// The commands of an answer, in order.
///
/// - `UP`, `DOWN`, `LEFT`, `RIGHT` in any case are directions.
/// - `ACT` is [`Token::Act`]. `ACT(args)` with `args` made of digits, `-`
///   and `,` is also an `ACT`: the arguments are split at commas, trailing
///   empty ones dropped, and each must be an `i32` or that one command is
///   ignored, as upstream's `Integer.parseInt` throws. Exactly one argument
///   equal to zero (`ACT(0)`, also `ACT(-0)`, `ACT(00)`, `ACT(0,)`) is
///   [`Token::ActZero`]; `ACT()` is a plain `ACT`. Spaces after or before a
///   comma are removed first, so `ACT(2, 3)` is `ACT(2,3)`.
/// - `message('...')` is a chat message, which SnakeBattle ignores. The
///   quoted text runs to the *last* `')` on its line (upstream's regex is
///   greedy), and command words inside it do not count.
/// - Anything else, such as CodeBattle's `stop`, is ignored; `""` is no
///   command at all.
///
/// Never panics; reads at most [`COMMAND_CHARS_MAX`] characters and returns
/// at most [`COMMAND_TOKENS_MAX`] tokens.
pub fn parse_command(text: &str) -> Vec<Token> {
    parse_command_counted(text).0
}

/// [`parse_command`], and how many commands were matched in all: messages
/// and malformed `ACT(...)`s, which yield no token, count too. Zero means
/// the answer holds no command word at all, which the stdin/stdout arena
/// rejects as not an answer (an empty one is "keep going").
pub fn parse_command_counted(text: &str) -> (Vec<Token>, usize) {
    let text = match text.char_indices().nth(COMMAND_CHARS_MAX) {
        Some((cut, _)) => &text[..cut],
        None => text,
    };
    // Upstream leaves an answer that starts with a message alone (it only
    // escapes its line breaks, which lets the message span lines).
    let message_first = text.starts_with("message('");
    let text = if message_first { Cow::Borrowed(text) } else { join_commas(text) };
    let mut tokens = Vec::new();
    let mut matched = 0;
    let mut at = 0;
    while at < text.len() && tokens.len() < COMMAND_TOKENS_MAX {
        match command_at(&text, at, message_first) {
            Some((len, token)) => {
                tokens.extend(token);
                matched += 1;
                at += len;
            }
            // Command words are ASCII, so stepping a byte at a time can
            // never match inside a multi-byte character.
            None => at += 1,
        }
    }
    (tokens, matched)
}

/// What an answer makes a snake do under a rule profile.
pub fn parse_action(text: &str, rule: CommandRule) -> Action {
    Action::from_tokens(&parse_command(text), rule)
}

/// Upstream's `replaceAll(", +", ",")` then `replaceAll(" +,", ",")`: every
/// run of spaces touching a comma goes.
fn join_commas(text: &str) -> Cow<'_, str> {
    if !text.contains(", ") && !text.contains(" ,") {
        return Cow::Borrowed(text);
    }
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b' ' {
            let end = i + b[i..].iter().take_while(|&&c| c == b' ').count();
            let touches_comma = (i > 0 && b[i - 1] == b',') || b.get(end) == Some(&b',');
            if !touches_comma {
                out.push_str(&text[i..end]);
            }
            i = end;
        } else {
            let end = i + b[i..].iter().take_while(|&&c| c != b' ').count();
            out.push_str(&text[i..end]);
            i = end;
        }
    }
    Cow::Owned(out)
}

/// The command matched at byte `at`, as its length in bytes and the token
/// it yields (`None` for messages and malformed `ACT(...)`), trying the
/// regex alternatives in upstream's order.
fn command_at(text: &str, at: usize, message_first: bool) -> Option<(usize, Option<Token>)> {
    let rest = &text.as_bytes()[at..];
    let word = |w: &str| rest.len() >= w.len() && rest[..w.len()].eq_ignore_ascii_case(w.as_bytes());
    for (w, d) in [("left", Dir::Left), ("right", Dir::Right), ("up", Dir::Up), ("down", Dir::Down)] {
        if word(w) {
            return Some((w.len(), Some(Token::Dir(d))));
        }
    }
    if word("act") {
        if rest.get(3) == Some(&b'(') {
            let args = rest[4..].iter().take_while(|c| c.is_ascii_digit() || **c == b'-' || **c == b',').count();
            if rest.get(4 + args) == Some(&b')') {
                return Some((4 + args + 1, act_with(&text[at + 4..at + 4 + args])));
            }
        }
        return Some((3, Some(Token::Act)));
    }
    if word("message") {
        return Some((message_len(&text[at..], message_first), None));
    }
    None
}

/// `ACT(args)`: the arguments as upstream's `split("[\\(,\\)]")` and
/// `Integer.parseInt` read them.
fn act_with(args: &str) -> Option<Token> {
    let args = args.trim_end_matches(',');
    if args.is_empty() {
        return Some(Token::Act);
    }
    let mut count = 0;
    let mut all_zero = true;
    for arg in args.split(',') {
        let value: i32 = arg.parse().ok()?;
        count += 1;
        all_zero &= value == 0;
    }
    Some(if count == 1 && all_zero { Token::ActZero } else { Token::Act })
}

/// Length of a `message` match at the start of `text`: with its quoted
/// text up to the last `')` before the end of the line, or the bare word.
fn message_len(text: &str, message_first: bool) -> usize {
    const OPEN: &str = "('";
    let bare = "message".len();
    if !text[bare..].starts_with(OPEN) {
        return bare;
    }
    let body = bare + OPEN.len();
    // Java's `.` stops at line terminators; upstream turned `\n` and `\r`
    // into ordinary characters when the answer starts with a message.
    let line_end = text[body..]
        .find(|c: char| matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}') || (!message_first && matches!(c, '\n' | '\r')))
        .map_or(text.len(), |k| body + k);
    match text[body..line_end].rfind("')") {
        Some(k) => body + k + 2,
        None => bare,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_commas_matches_upstream_replacements() {
        assert_eq!(join_commas("a , ,  b"), "a,,b");
        assert_eq!(join_commas("ACT(1,2,   3,4, 5)"), "ACT(1,2,3,4,5)");
        assert_eq!(join_commas("left  right"), "left  right");
        assert_eq!(join_commas(" , "), ",");
    }

    #[test]
    fn message_extent() {
        assert_eq!(message_len("message", false), 7);
        assert_eq!(message_len("message(')", false), 7);
        assert_eq!(message_len("message('')", false), 11);
        assert_eq!(message_len("message('a'),left,message('b')", false), 30);
        assert_eq!(message_len("message('a\n'),left", false), 7);
        assert_eq!(message_len("message('a\n'),left", true), 13);
    }
}
