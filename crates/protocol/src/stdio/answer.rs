//! Reading one answer line, and saying precisely what is wrong with it.
//!
//! Every answer parser of [`stdio`](super) takes the bytes of one line as
//! the runner read them (with or without its `\n`) and first goes through
//! [`one_line`]: bounded length, no second line, valid UTF-8. What the line
//! must then hold differs per format. A rejected answer is an
//! [`AnswerError`] carrying the answer's first bytes exactly, so that the
//! bot's owner sees what their program printed.

use std::fmt;

/// Longest answer line read, in bytes, `\n` included. Every valid answer
/// is far shorter (the longest is a JSON object with a few extra keys);
/// anything longer is rejected without being looked at.
pub const ANSWER_BYTES_MAX: usize = 4096;

/// How many bytes of a rejected answer an [`AnswerError`] keeps.
pub const SHOWN_BYTES_MAX: usize = 200;

/// An answer that is not a move, with the bytes that were sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerError {
    /// The answer's first bytes, at most [`SHOWN_BYTES_MAX`], exactly as
    /// sent.
    pub bytes: Vec<u8>,
    /// The answer's whole length in bytes.
    pub len: usize,
    /// What is wrong with it.
    pub problem: AnswerProblem,
}

/// What is wrong with an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnswerProblem {
    /// Nothing but whitespace.
    Empty,
    /// Longer than [`ANSWER_BYTES_MAX`].
    TooLong,
    /// A line break before the end: the bot wrote more than one line.
    SeveralLines,
    /// Not UTF-8; the first `valid_up_to` bytes are.
    NotUtf8 {
        /// Length of the valid prefix.
        valid_up_to: usize,
    },
    /// A well-formed line that is none of the accepted answers.
    NotAMove {
        /// The accepted answers, for the message.
        expected: &'static str,
    },
    /// A JSON answer that is not an object with a valid `"move"`.
    Json {
        /// What the JSON reader or the schema check said.
        message: String,
    },
}

impl AnswerError {
    /// An error about `bytes`.
    pub fn new(bytes: &[u8], problem: AnswerProblem) -> AnswerError {
        AnswerError { bytes: bytes[..bytes.len().min(SHOWN_BYTES_MAX)].to_vec(), len: bytes.len(), problem }
    }
}

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "answer \"{}\"", self.bytes.escape_ascii())?;
        if self.len > self.bytes.len() {
            write!(f, "... ({} bytes)", self.len)?;
        }
        f.write_str(": ")?;
        match &self.problem {
            AnswerProblem::Empty => f.write_str("empty line"),
            AnswerProblem::TooLong => write!(f, "longer than {ANSWER_BYTES_MAX} bytes"),
            AnswerProblem::SeveralLines => f.write_str("more than one line"),
            AnswerProblem::NotUtf8 { valid_up_to } => write!(f, "not UTF-8 after byte {valid_up_to}"),
            AnswerProblem::NotAMove { expected } => write!(f, "not a move; expected {expected}"),
            AnswerProblem::Json { message } => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for AnswerError {}

/// The text of one answer line: at most [`ANSWER_BYTES_MAX`] bytes, one
/// optional `\n` at the end and no other, valid UTF-8. The `\n` is removed;
/// a `\r` before it stays, for the format's own trimming to deal with.
pub fn one_line(bytes: &[u8]) -> Result<&str, AnswerError> {
    if bytes.len() > ANSWER_BYTES_MAX {
        return Err(AnswerError::new(bytes, AnswerProblem::TooLong));
    }
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    if body.contains(&b'\n') {
        return Err(AnswerError::new(bytes, AnswerProblem::SeveralLines));
    }
    std::str::from_utf8(body)
        .map_err(|e| AnswerError::new(bytes, AnswerProblem::NotUtf8 { valid_up_to: e.valid_up_to() }))
}

/// [`one_line`], then trimmed of ASCII whitespace (space, tab, `\r`, form
/// feed, vertical tab), and not empty.
pub fn trimmed_line(bytes: &[u8]) -> Result<&str, AnswerError> {
    let text = one_line(bytes)?.trim_matches(|c: char| c.is_ascii_whitespace() || c == '\x0b');
    if text.is_empty() {
        return Err(AnswerError::new(bytes, AnswerProblem::Empty));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_show_the_bytes() {
        let e = trimmed_line(b"up\nup\n").unwrap_err();
        assert_eq!(e.to_string(), r#"answer "up\nup\n": more than one line"#);
        let e = trimmed_line(b"\xff\n").unwrap_err();
        assert_eq!(e.to_string(), r#"answer "\xff\n": not UTF-8 after byte 0"#);
        let long = vec![b'x'; ANSWER_BYTES_MAX + 1];
        let e = trimmed_line(&long).unwrap_err();
        assert_eq!(e.bytes.len(), SHOWN_BYTES_MAX);
        assert!(e.to_string().ends_with("... (4097 bytes): longer than 4096 bytes"), "{e}");
        assert_eq!(trimmed_line(b" \t\r\n").unwrap_err().problem, AnswerProblem::Empty);
        assert_eq!(trimmed_line(b"  left \r\n"), Ok("left"));
    }
}
