//! The outcomes of a move: a [`Reply`], or a [`BotFault`] that says exactly
//! what the bot sent and why it does not count; and [`SpawnError`].

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::time::Duration;

use super::limits::Layer;

/// A bot's answer to one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The answer line without its `\n` (a `\r` before it is kept: the
    /// arena's parser decides what to trim).
    pub line: String,
    /// From the start of [`ask`](super::ProcessBot::ask) to the answer.
    pub elapsed: Duration,
}

/// The exact bytes a bot sent during a faulty move. They are kept whole
/// (at most the answer limit plus one byte, or a few KiB of unsolicited
/// output); only `Display` shortens them.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Received(pub(crate) Vec<u8>);

impl Received {
    /// How many bytes are shown by `Display` before it cuts.
    pub const DISPLAY_BYTES_MAX: usize = 80;

    /// The bytes as received.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// How many bytes were received.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether nothing was received.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many bytes were received, in words: `1 byte`, `4 bytes`.
    pub fn count_text(&self) -> String {
        match self.0.len() {
            1 => "1 byte".to_string(),
            n => format!("{n} bytes"),
        }
    }
}

impl fmt::Display for Received {
    /// Escaped like a byte string literal and cut after
    /// [`DISPLAY_BYTES_MAX`](Self::DISPLAY_BYTES_MAX) bytes, so that a
    /// hostile answer cannot flood a log or inject terminal escapes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = &self.0[..self.0.len().min(Self::DISPLAY_BYTES_MAX)];
        write!(f, "\"{}\"", shown.escape_ascii())?;
        if shown.len() < self.0.len() {
            write!(f, "... ({} bytes)", self.0.len())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Received {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a move did not produce an answer. Every fault ends the bot: its
/// process group is killed at once, so a late answer can never be taken
/// for a later move's.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FaultReason {
    /// No complete answer line before the deadline.
    Timeout {
        /// The deadline the caller gave.
        deadline: Duration,
    },
    /// The bot closed its stdout (or its stdin) before a complete line,
    /// usually because it exited.
    Eof {
        /// The exit code, or `None` when the process was still alive
        /// (it closed stdout and went on; it was killed).
        exit_code: Option<i32>,
    },
    /// The bot was killed by a signal: SIGSEGV, SIGABRT, SIGXCPU (soft CPU
    /// limit), SIGKILL (hard CPU limit), SIGSYS (seccomp) and so on.
    Crash {
        /// The signal number.
        signal: i32,
    },
    /// The kernel killed a process of the bot because all its processes
    /// together were over their memory limit ([`Layer::Cgroup`]).
    OutOfMemory {
        /// The limit, in bytes.
        memory_bytes_max: u64,
    },
    /// All the bot's processes together used up their CPU time
    /// ([`Layer::Cgroup`]).
    CpuTime {
        /// The limit, in seconds.
        cpu_seconds_max: u64,
    },
    /// The answer line was longer than the limit.
    TooLong {
        /// The limit, in bytes without the newline.
        answer_bytes_max: usize,
    },
    /// The answer line is not UTF-8.
    NotUtf8,
    /// Output nobody asked for: more than one line in a move, or bytes
    /// written between moves.
    Unsolicited,
    /// The pipes failed in a way not covered above.
    Io {
        /// The kind of the I/O error.
        kind: io::ErrorKind,
        /// The error's text.
        message: String,
    },
    /// The bot already had a fault or was killed; it answers nothing more.
    Gone,
}

impl fmt::Display for FaultReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FaultReason::Timeout { deadline } => {
                write!(f, "no answer within {} ms", deadline.as_millis())
            }
            FaultReason::Eof {
                exit_code: Some(code),
            } => write!(f, "output ended; exited with code {code}"),
            FaultReason::Eof { exit_code: None } => {
                f.write_str("output ended; the process was still running")
            }
            FaultReason::Crash { signal } => write!(f, "killed by signal {}", signal_name(*signal)),
            FaultReason::OutOfMemory { memory_bytes_max } => write!(
                f,
                "killed: its processes together went over their memory limit of {} MiB",
                memory_bytes_max / (1024 * 1024)
            ),
            FaultReason::CpuTime { cpu_seconds_max } => write!(
                f,
                "killed: its processes together used up their {cpu_seconds_max} s of CPU time"
            ),
            FaultReason::TooLong { answer_bytes_max } => {
                write!(f, "answer longer than {answer_bytes_max} bytes")
            }
            FaultReason::NotUtf8 => f.write_str("answer is not UTF-8"),
            FaultReason::Unsolicited => {
                f.write_str("output nobody asked for (several lines, or between moves)")
            }
            FaultReason::Io { message, .. } => write!(f, "pipe error: {message}"),
            FaultReason::Gone => f.write_str("the bot had already failed or been killed"),
        }
    }
}

/// A move that failed: the reason and the exact bytes received.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason} after {} ms; received {}: {received}", .elapsed.as_millis(), .received.count_text())]
pub struct BotFault {
    /// Why the move failed.
    pub reason: FaultReason,
    /// What the bot wrote on stdout during the move.
    pub received: Received,
    /// From the start of the move to the fault.
    pub elapsed: Duration,
}

impl BotFault {
    /// What most often causes this fault, for its owner, when it is one
    /// of the usual mistakes: an answer left in the output buffer, or an
    /// answer written without its end of line.
    pub fn hint(&self) -> Option<&'static str> {
        let unfinished = matches!(self.reason, FaultReason::Timeout { .. } | FaultReason::Eof { .. });
        match self.received.as_bytes() {
            [] if matches!(self.reason, FaultReason::Timeout { .. }) => Some("did you flush stdout after the answer?"),
            bytes if unfinished && !bytes.contains(&b'\n') => {
                Some("the answer has no end of line: write it with a newline (\\n) and flush")
            }
            _ => None,
        }
    }
}

/// A signal's name (`SIGXCPU`), or its number when unknown.
pub fn signal_name(signal: i32) -> String {
    match nix::sys::signal::Signal::try_from(signal) {
        Ok(s) => s.as_str().to_string(),
        Err(_) => format!("signal {signal}"),
    }
}

/// Why a bot could not be started.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SpawnError {
    /// [`ProcessBot::spawn`](super::ProcessBot::spawn) runs outside a tokio
    /// runtime; the pipes need one.
    #[error("process bots need a tokio runtime")]
    NoRuntime,
    /// A layer in `layers_required` is not available on this machine.
    #[error("sandbox layer {layer} is required but not available: {reason}")]
    LayerUnavailable {
        /// The layer.
        layer: Layer,
        /// What detection found.
        reason: String,
    },
    /// Every uid of the bots' range is in use.
    #[error("no free uid left in the bots' range")]
    NoFreeUid,
    /// The bot's folder could not be made, filled or handed to its uid.
    #[error("cannot prepare the bot folder ({}): {source}", .path.display())]
    Folder {
        /// The file or folder involved.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// A sandbox layer failed in the child before the program started.
    #[error("sandbox layer {layer} failed in the child: {source}")]
    Sandbox {
        /// The layer that failed.
        layer: Layer,
        /// The child's error.
        source: io::Error,
    },
    /// The program could not be started (not found, not executable, ...).
    #[error("cannot start {program:?}: {source}")]
    Exec {
        /// The program as given.
        program: String,
        /// The error from `execvp` or from the setup before it.
        source: io::Error,
    },
    /// Building the sandbox in the runner failed (seccomp filter, landlock
    /// ruleset, pipes).
    #[error("cannot build the sandbox: {0}")]
    Setup(String),
}
