//! The bot's stderr: read without blocking into a bounded ring of lines.
//!
//! A background task drains the pipe whenever it is readable, so a bot that
//! writes much to stderr never blocks on a full pipe in the middle of a
//! move. After each answer the runner also drains what is already in the
//! pipe, so the lines a bot wrote before answering are attributed to that
//! move. Both read under the ring's lock, which keeps the bytes in order.

use std::collections::VecDeque;
use std::io;
use std::os::fd::AsFd;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::net::unix::pipe;

/// The stderr lines collected since the last
/// [`take_stderr`](super::ProcessBot::take_stderr).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StderrLines {
    /// Complete lines, oldest first, without their `\n`; invalid UTF-8 is
    /// replaced by U+FFFD. Once the stream has ended, an unterminated last
    /// line is included too.
    pub lines: Vec<String>,
    /// Lines dropped because more than `stderr_lines_max` were waiting.
    pub dropped_lines: u64,
    /// Lines (of those kept) cut to `stderr_line_bytes_max` bytes.
    pub truncated_lines: u64,
}

/// The bounded ring and the partial line being assembled.
#[derive(Debug)]
struct Ring {
    /// Each line with whether it was cut.
    lines: VecDeque<(String, bool)>,
    partial: Vec<u8>,
    partial_truncated: bool,
    lines_max: usize,
    line_bytes_max: usize,
    dropped_lines: u64,
    ended: bool,
}

impl Ring {
    fn push_bytes(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let (piece, rest, complete) = match bytes.iter().position(|&b| b == b'\n') {
                Some(i) => (&bytes[..i], &bytes[i + 1..], true),
                None => (bytes, &[][..], false),
            };
            let room = self.line_bytes_max.saturating_sub(self.partial.len());
            if piece.len() > room {
                self.partial_truncated = true;
            }
            self.partial
                .extend_from_slice(&piece[..piece.len().min(room)]);
            if complete {
                self.finish_line();
            }
            bytes = rest;
        }
    }

    fn finish_line(&mut self) {
        let line = String::from_utf8_lossy(&self.partial).into_owned();
        self.partial.clear();
        self.lines
            .push_back((line, std::mem::take(&mut self.partial_truncated)));
        if self.lines.len() > self.lines_max {
            self.lines.pop_front();
            self.dropped_lines += 1;
        }
    }

    fn end(&mut self) {
        if !self.ended {
            self.ended = true;
            if !self.partial.is_empty() || self.partial_truncated {
                self.finish_line();
            }
        }
    }
}

/// The stderr pipe and its ring, shared by the background task and the bot.
#[derive(Debug)]
pub(crate) struct Stderr {
    pipe: pipe::Receiver,
    ring: Mutex<Ring>,
}

/// Whether the pipe can still deliver bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Drain {
    Open,
    Ended,
}

impl Stderr {
    pub(crate) fn new(
        pipe: pipe::Receiver,
        lines_max: usize,
        line_bytes_max: usize,
    ) -> Arc<Stderr> {
        Arc::new(Stderr {
            pipe,
            ring: Mutex::new(Ring {
                lines: VecDeque::new(),
                partial: Vec::new(),
                partial_truncated: false,
                lines_max: lines_max.max(1),
                line_bytes_max,
                dropped_lines: 0,
                ended: false,
            }),
        })
    }

    /// Locks the ring; a panic elsewhere while holding it leaves plain
    /// data, so a poisoned lock is still usable.
    fn ring(&self) -> MutexGuard<'_, Ring> {
        self.ring.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The background task: drains the pipe each time it becomes readable,
    /// until the last writer closes it.
    pub(crate) async fn pump(self: Arc<Stderr>) {
        loop {
            if self.pipe.readable().await.is_err() {
                self.ring().end();
                return;
            }
            // `try_read` (not a raw read) so that tokio clears the
            // readiness it cached when the pipe runs dry.
            if self.drain_with(|buf| self.pipe.try_read(buf)) == Drain::Ended {
                return;
            }
        }
    }

    /// The pipe, for a caller that waits on it with poll(2) itself.
    pub(crate) fn fd(&self) -> std::os::fd::BorrowedFd<'_> {
        self.pipe.as_fd()
    }

    /// Whether the stream has ended (every writer closed it); an ended
    /// pipe stays readable, so a poller must leave it out.
    pub(crate) fn is_ended(&self) -> bool {
        self.ring().ended
    }

    /// Reads what is already in the pipe, now, without waiting. This uses
    /// the raw non-blocking fd, because tokio's cached readiness may not
    /// yet know about bytes the bot wrote a moment ago.
    pub(crate) fn drain_now(&self) {
        self.drain_with(|buf| nix::unistd::read(self.pipe.as_fd(), buf).map_err(io::Error::from));
    }

    fn drain_with(&self, mut read: impl FnMut(&mut [u8]) -> io::Result<usize>) -> Drain {
        let mut ring = self.ring();
        if ring.ended {
            return Drain::Ended;
        }
        let mut chunk = [0u8; 8192];
        loop {
            match read(&mut chunk) {
                Ok(0) => {
                    ring.end();
                    return Drain::Ended;
                }
                Ok(n) => ring.push_bytes(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Drain::Open,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => {
                    ring.end();
                    return Drain::Ended;
                }
            }
        }
    }

    /// Takes the lines collected so far and resets the counters.
    pub(crate) fn take(&self) -> StderrLines {
        let mut ring = self.ring();
        let lines: Vec<(String, bool)> = ring.lines.drain(..).collect();
        StderrLines {
            truncated_lines: lines.iter().filter(|(_, cut)| *cut).count() as u64,
            lines: lines.into_iter().map(|(line, _)| line).collect(),
            dropped_lines: std::mem::take(&mut ring.dropped_lines),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring(lines_max: usize, line_bytes_max: usize) -> Ring {
        Ring {
            lines: VecDeque::new(),
            partial: Vec::new(),
            partial_truncated: false,
            lines_max,
            line_bytes_max,
            dropped_lines: 0,
            ended: false,
        }
    }

    fn texts(r: &Ring) -> Vec<&str> {
        r.lines.iter().map(|(l, _)| l.as_str()).collect()
    }

    #[test]
    fn lines_are_split_cut_and_bounded() {
        let mut r = ring(2, 4);
        r.push_bytes(b"ab");
        r.push_bytes(b"c\nlonger line\n");
        r.push_bytes(b"x\ny");
        assert_eq!(texts(&r), ["long", "x"]);
        assert_eq!(r.dropped_lines, 1);
        assert!(r.lines[0].1 && !r.lines[1].1);
        r.end();
        assert_eq!(texts(&r), ["x", "y"]);
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        let mut r = ring(10, 100);
        r.push_bytes(b"a\xffb\n");
        assert_eq!(texts(&r), ["a\u{fffd}b"]);
    }
}
