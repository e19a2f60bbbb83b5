//! The bot's stderr: read without blocking into a bounded ring of lines.
//!
//! A background task drains the pipe whenever it is readable, so a bot that
//! writes much to stderr never blocks on a full pipe in the middle of a
//! move. After each answer the runner also drains what is already in the
//! pipe, so the lines a bot wrote before answering are attributed to that
//! move. Both read under the ring's lock, which keeps the bytes in order.
//!
//! A bot may write to stderr without end, faster than the runner reads:
//! the task reads at most [`PUMP_WAKE_BYTES_MAX`] per wake-up and then
//! yields, so it never holds a runtime worker, and a drain on demand reads
//! at most [`DRAIN_NOW_BYTES_MAX`]. Lines that cannot be kept are only
//! counted, never turned into strings.

use std::collections::VecDeque;
use std::io;
use std::os::fd::AsFd;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::net::unix::pipe;

/// Bytes the background task reads per wake-up at most, before it yields
/// to the runtime (a bot flooding stderr would otherwise hold the worker).
pub(crate) const PUMP_WAKE_BYTES_MAX: usize = 64 * 1024;

/// Bytes a drain on demand reads at most: the most an unprivileged bot's
/// pipe can hold (Linux's default `pipe-max-size`), so it reads what was
/// there at the call, and never chases a bot that writes on.
pub(crate) const DRAIN_NOW_BYTES_MAX: usize = 1024 * 1024;

/// Bytes of one read from the pipe.
const READ_CHUNK_BYTES: usize = 16 * 1024;

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
    /// Adds the bytes of one read. Of the complete lines in `bytes`, only
    /// the last `lines_max` can survive in the ring, so the others are
    /// counted as dropped without being copied.
    fn push_bytes(&mut self, bytes: &[u8]) {
        let Some(first) = bytes.iter().position(|&b| b == b'\n') else {
            self.extend_partial(bytes);
            return;
        };
        self.extend_partial(&bytes[..first]);
        self.finish_line();
        let rest = &bytes[first + 1..];
        let (complete, tail) = match rest.iter().rposition(|&b| b == b'\n') {
            Some(last) => rest.split_at(last + 1),
            None => (&[][..], rest),
        };
        let lines = complete.iter().filter(|&&b| b == b'\n').count();
        let kept = lines.min(self.lines_max);
        let skipped = lines - kept;
        // The kept lines start after the newline that ends the last
        // skipped one.
        let start = if skipped == 0 {
            0
        } else {
            complete
                .iter()
                .enumerate()
                .rev()
                .filter(|&(_, &b)| b == b'\n')
                .nth(kept)
                .map_or(0, |(i, _)| i + 1)
        };
        self.dropped_lines += skipped as u64;
        if kept > 0 {
            // Without the final newline, `split` yields exactly the lines.
            for line in complete[start..complete.len() - 1].split(|&b| b == b'\n') {
                self.extend_partial(line);
                self.finish_line();
            }
        }
        self.extend_partial(tail);
    }

    /// Adds bytes without a newline to the line being assembled, cut at
    /// `line_bytes_max`.
    fn extend_partial(&mut self, piece: &[u8]) {
        let room = self.line_bytes_max.saturating_sub(self.partial.len());
        if piece.len() > room {
            self.partial_truncated = true;
        }
        self.partial
            .extend_from_slice(&piece[..piece.len().min(room)]);
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

/// Where a drain stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Drain {
    /// The pipe is empty for now.
    Open,
    /// The bytes allowed were read; more may be waiting.
    Full,
    /// The stream has ended.
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
            match self.drain_with(PUMP_WAKE_BYTES_MAX, |buf| self.pipe.try_read(buf)) {
                Drain::Ended => return,
                // The pipe is still readable: let the other tasks (and the
                // timers) of this worker run before reading on.
                Drain::Full => tokio::task::yield_now().await,
                Drain::Open => {}
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

    /// Reads what is already in the pipe, now, without waiting (at most
    /// [`DRAIN_NOW_BYTES_MAX`]; the background task reads on). This uses
    /// the raw non-blocking fd, because tokio's cached readiness may not
    /// yet know about bytes the bot wrote a moment ago.
    pub(crate) fn drain_now(&self) {
        self.drain_with(DRAIN_NOW_BYTES_MAX, |buf| {
            nix::unistd::read(self.pipe.as_fd(), buf).map_err(io::Error::from)
        });
    }

    /// Reads until the pipe is empty or ends, or `bytes_max` bytes are read.
    fn drain_with(
        &self,
        bytes_max: usize,
        mut read: impl FnMut(&mut [u8]) -> io::Result<usize>,
    ) -> Drain {
        let mut ring = self.ring();
        if ring.ended {
            return Drain::Ended;
        }
        let mut chunk = [0u8; READ_CHUNK_BYTES];
        let mut left = bytes_max;
        loop {
            if left == 0 {
                return Drain::Full;
            }
            let want = left.min(chunk.len());
            match read(&mut chunk[..want]) {
                Ok(0) => {
                    ring.end();
                    return Drain::Ended;
                }
                Ok(n) => {
                    ring.push_bytes(&chunk[..n]);
                    left = left.saturating_sub(n);
                }
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

    /// The ring as the plain rule states it: byte by byte, every line
    /// built and then dropped from the front.
    fn reference(
        bytes: &[u8],
        lines_max: usize,
        line_bytes_max: usize,
    ) -> (Vec<(String, bool)>, u64) {
        let (mut lines, mut dropped) = (VecDeque::new(), 0);
        let (mut partial, mut cut) = (Vec::new(), false);
        for &b in bytes {
            if b == b'\n' {
                lines.push_back((String::from_utf8_lossy(&partial).into_owned(), cut));
                (partial, cut) = (Vec::new(), false);
                if lines.len() > lines_max {
                    lines.pop_front();
                    dropped += 1;
                }
            } else if partial.len() < line_bytes_max {
                partial.push(b);
            } else {
                cut = true;
            }
        }
        (lines.into(), dropped)
    }

    proptest::proptest! {
        #[test]
        fn skipping_lines_matches_the_plain_rule(
            bytes in proptest::collection::vec(proptest::sample::select(b"ab\n\xff".to_vec()), 0..400),
            cuts in proptest::collection::vec(0usize..400, 0..6),
            lines_max in 1usize..6,
            line_bytes_max in 0usize..5,
        ) {
            let mut r = ring(lines_max, line_bytes_max);
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(bytes.len())).collect();
            cuts.push(0);
            cuts.push(bytes.len());
            cuts.sort_unstable();
            for w in cuts.windows(2) {
                r.push_bytes(&bytes[w[0]..w[1]]);
            }
            let (lines, dropped) = reference(&bytes, lines_max, line_bytes_max);
            proptest::prop_assert_eq!(r.lines.iter().cloned().collect::<Vec<_>>(), lines);
            proptest::prop_assert_eq!(r.dropped_lines, dropped);
        }
    }

    #[test]
    fn a_flood_keeps_only_the_last_lines() {
        let mut r = ring(3, 8);
        let flood: Vec<u8> = (0..100_000u32)
            .flat_map(|i| format!("{i}\n").into_bytes())
            .collect();
        for piece in flood.chunks(READ_CHUNK_BYTES) {
            r.push_bytes(piece);
        }
        assert_eq!(texts(&r), ["99997", "99998", "99999"]);
        assert_eq!(r.dropped_lines, 99_997);
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        let mut r = ring(10, 100);
        r.push_bytes(b"a\xffb\n");
        assert_eq!(texts(&r), ["a\u{fffd}b"]);
    }
}
