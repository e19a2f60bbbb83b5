//! Asking several bots at once from one thread, waiting in poll(2) instead
//! of an async runtime: [`ProcessBot::ask_all`].
//!
//! A game turn asks every seat and cannot go on before all have answered,
//! so nothing else has to run in the meantime; one poll over every pipe of
//! the turn then costs fewer system calls and wake-ups than a reactor with
//! a timer per move (see `benches/process.rs`). Each exchange keeps the
//! exact behaviour of [`ProcessBot::ask`]: the same checks for output
//! nobody asked for, the same deadline (from the start of the call), the
//! same faults with the same bytes, SIGCONT and SIGSTOP around the move
//! where the bot is stopped between moves, and the bot killed at its first
//! fault. The stderr pipes of the bots being asked are drained whenever
//! they are readable, so a bot that writes much to stderr is never blocked
//! on a full pipe while the runner waits.
//!
//! For the first `answer_spin_max_us` (see
//! [`SandboxLimits`](super::SandboxLimits)) the runner looks at the pipes
//! without sleeping, yielding the CPU between looks: C bots answer a
//! Multisnake map within tens of µs, and a sleep in poll(2) followed by a
//! wake-up per answer costs about as much on a small VM.

use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::time::{Duration, Instant};

use nix::sys::signal::Signal;

use super::{
    BotFault, EXIT_POLL_INTERVAL, Failure, FaultReason, ProcessBot, READ_CHUNK_BYTES, Reply,
    UNSOLICITED_BYTES_MAX, exit_wait_until, io_failure, read_now, write_now,
};

/// One request of [`ProcessBot::ask_all`].
#[derive(Debug)]
pub struct Ask<'a> {
    /// The bot asked.
    pub bot: &'a mut ProcessBot,
    /// The request, written as given (end it with `\n`).
    pub request: &'a str,
    /// Wall-clock time for the answer, from the start of the call.
    pub deadline: Duration,
}

/// Where one exchange stands.
enum Phase {
    /// Writing the request; this many bytes are written.
    Write(usize),
    /// Waiting for the answer line.
    Read,
    /// The output ended; waiting until then for the exit status.
    ExitWait(Instant),
    /// Decided.
    Done(Result<Reply, BotFault>),
}

/// Which pipe of a bot a poll entry watches.
#[derive(Clone, Copy)]
enum Pipe {
    Stdin,
    Stdout,
    Stderr,
}

impl ProcessBot {
    /// Asks every bot of `asks` its request and waits for all answers,
    /// blocking the calling thread (at most until the latest deadline, plus
    /// the short wait for the exit status of a bot whose output ended).
    /// Returns one result per ask, in order; each is what
    /// [`ask`](Self::ask) would return for the same exchange.
    ///
    /// It needs no runtime, but it does block: call it where nothing else
    /// has to run until the answers are in (a game loop on its own thread,
    /// a `block_on`).
    pub fn ask_all(asks: &mut [Ask<'_>]) -> Vec<Result<Reply, BotFault>> {
        let started = Instant::now();
        let mut phases: Vec<Phase> = asks.iter_mut().map(|a| a.bot.begin(started)).collect();
        precheck(asks, &mut phases, started);
        // Every request is written before anyone waits, so the bots think
        // in parallel; a bot stopped between moves wakes once, to a request
        // already in its pipe.
        for (ask, phase) in asks.iter_mut().zip(&mut phases) {
            if let Phase::Write(_) = phase {
                *phase = ask.bot.write_more(ask.request, 0, started, ask.deadline);
                let writing = matches!(phase, Phase::Write(_) | Phase::Read);
                if writing && ask.bot.stop_between_moves {
                    ask.bot.guard.signal_group(Signal::SIGCONT);
                }
            }
        }
        // Quick answers are awaited without sleeping, for the smallest spin
        // time of the bots asked (see `SandboxLimits::answer_spin_max_us`).
        let spin_max = asks
            .iter()
            .map(|a| a.bot.answer_spin_max)
            .min()
            .unwrap_or_default();
        let spin_until = Instant::now() + spin_max;
        let mut fds: Vec<libc::pollfd> = Vec::with_capacity(asks.len() * 2);
        let mut owners: Vec<(usize, Pipe)> = Vec::with_capacity(asks.len() * 2);
        loop {
            let now = Instant::now();
            let mut wake: Option<Instant> = None;
            fds.clear();
            owners.clear();
            for (i, (ask, phase)) in asks.iter_mut().zip(&mut phases).enumerate() {
                let bot = &mut *ask.bot;
                let until = started + ask.deadline;
                let watch = match *phase {
                    Phase::Done(_) => continue,
                    Phase::Write(_) | Phase::Read if now >= until => {
                        bot.in_flight = false;
                        bot.end();
                        let fault = bot.fault(
                            FaultReason::Timeout {
                                deadline: ask.deadline,
                            },
                            started,
                        );
                        *phase = Phase::Done(Err(fault));
                        continue;
                    }
                    Phase::Write(_) => {
                        wake = earliest(wake, until);
                        Some((bot.stdin.as_fd(), Pipe::Stdin, libc::POLLOUT))
                    }
                    Phase::Read => {
                        wake = earliest(wake, until);
                        Some((bot.stdout.as_fd(), Pipe::Stdout, libc::POLLIN))
                    }
                    Phase::ExitWait(exit_until) => {
                        let reason = match bot.exit_reason() {
                            Some(reason) => Some(reason),
                            None if now >= exit_until => Some(FaultReason::Eof { exit_code: None }),
                            None => None,
                        };
                        if let Some(reason) = reason {
                            bot.end();
                            *phase = Phase::Done(Err(bot.fault(reason, started)));
                            continue;
                        }
                        wake = earliest(wake, exit_until.min(now + EXIT_POLL_INTERVAL));
                        None
                    }
                };
                if let Some((fd, pipe, events)) = watch {
                    fds.push(pollfd(fd, events));
                    owners.push((i, pipe));
                }
                if !bot.stderr.is_ended() {
                    fds.push(pollfd(bot.stderr.fd(), libc::POLLIN));
                    owners.push((i, Pipe::Stderr));
                }
            }
            let Some(wake) = wake else { break };
            // An interrupted poll is a poll that found nothing: the loop
            // looks at the clock and polls again.
            if now < spin_until {
                // A look without waiting; when nothing is ready, the CPU
                // goes to whoever is runnable (on a small machine, often
                // the very bots being waited for) and the loop looks again.
                // Sleeping in poll instead costs a wake-up per answer.
                if let Ok(0) = poll(&mut fds, Duration::ZERO) {
                    let _ = nix::sched::sched_yield();
                    continue;
                }
            } else {
                let _ = poll(&mut fds, wake.saturating_duration_since(now));
            }
            // Each bot's stdout comes before its stderr in `fds`, so the
            // stderr entry of a bot whose answer just arrived tells whether
            // anything written before the answer is still in the pipe.
            for (fd, &(i, pipe)) in fds.iter().zip(&owners) {
                let (ask, phase) = (&mut asks[i], &mut phases[i]);
                if let (Pipe::Stderr, Phase::Done(Ok(_))) = (pipe, &*phase) {
                    ask.bot.stderr_drained = true;
                }
                if fd.revents == 0 {
                    continue;
                }
                match (pipe, &*phase) {
                    (Pipe::Stderr, _) => ask.bot.stderr.drain_now(),
                    (Pipe::Stdin, &Phase::Write(done)) => {
                        *phase = ask.bot.write_more(ask.request, done, started, ask.deadline);
                    }
                    (Pipe::Stdout, Phase::Read) => {
                        *phase = ask.bot.read_more(started, ask.deadline);
                    }
                    _ => {}
                }
            }
        }
        phases
            .into_iter()
            .map(|phase| match phase {
                Phase::Done(result) => result,
                // The loop ends only when every exchange is decided.
                _ => unreachable!("an undecided exchange after the poll loop"),
            })
            .collect()
    }

    /// Starts an exchange as [`ask`](Self::ask) does.
    fn begin(&mut self, started: Instant) -> Phase {
        if self.in_flight {
            self.end();
        }
        if self.gone {
            return Phase::Done(Err(self.fault(FaultReason::Gone, started)));
        }
        if let Some(fault) = self.cpu_time_used_up(started) {
            return Phase::Done(Err(fault));
        }
        self.buf.clear();
        self.in_flight = true;
        self.stderr_drained = false;
        Phase::Write(0)
    }

    /// Writes what the pipe takes of the rest of the request.
    fn write_more(
        &mut self,
        request: &str,
        done: usize,
        started: Instant,
        deadline: Duration,
    ) -> Phase {
        let rest = &request.as_bytes()[done..];
        let written = match write_now(&self.stdin, rest) {
            Ok(n) => n,
            Err(e)
                if e.kind() == io::ErrorKind::WouldBlock
                    || e.kind() == io::ErrorKind::Interrupted =>
            {
                0
            }
            Err(e) => return self.failed(io_failure(e), started, deadline),
        };
        if written < rest.len() {
            Phase::Write(done + written)
        } else {
            Phase::Read
        }
    }

    /// Reads what stdout holds, until the answer line is complete or the
    /// pipe is empty.
    fn read_more(&mut self, started: Instant, deadline: Duration) -> Phase {
        let mut chunk = [0u8; READ_CHUNK_BYTES];
        loop {
            let want = self.read_room().min(chunk.len());
            let n = match read_now(&self.stdout, &mut chunk[..want]) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Phase::Read,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return self.failed(io_failure(e), started, deadline),
            };
            match self.absorb(&chunk[..n]) {
                None => {}
                Some(Ok(line_len)) => return Phase::Done(self.answered(line_len, started)),
                Some(Err(failure)) => return self.failed(failure, started, deadline),
            }
        }
    }

    /// The end of a successful exchange: the bot is stopped again where it
    /// is stopped between moves, and the line must be UTF-8.
    fn answered(&mut self, line_len: usize, started: Instant) -> Result<Reply, BotFault> {
        self.in_flight = false;
        if self.stop_between_moves {
            self.guard.signal_group(Signal::SIGSTOP);
        }
        match std::str::from_utf8(&self.buf[..line_len]) {
            Ok(line) => Ok(Reply {
                line: line.to_string(),
                elapsed: started.elapsed(),
            }),
            Err(_) => {
                self.end();
                Err(self.fault(FaultReason::NotUtf8, started))
            }
        }
    }

    /// A failed exchange: decided at once, or, when the output ended,
    /// after the wait for the exit status.
    fn failed(&mut self, failure: Failure, started: Instant, deadline: Duration) -> Phase {
        self.in_flight = false;
        if let Failure::Eof = failure {
            return Phase::ExitWait(exit_wait_until(started, deadline));
        }
        let reason = self.reason(failure);
        self.end();
        Phase::Done(Err(self.fault(reason, started)))
    }
}

/// Looks, with one poll, for output written since the last answer, which
/// is a fault, as in [`ProcessBot::ask`].
fn precheck(asks: &mut [Ask<'_>], phases: &mut [Phase], started: Instant) {
    let waiting: Vec<usize> = (0..asks.len())
        .filter(|&i| matches!(phases[i], Phase::Write(_)))
        .collect();
    let mut fds: Vec<libc::pollfd> = waiting
        .iter()
        .map(|&i| pollfd(asks[i].bot.stdout.as_fd(), libc::POLLIN))
        .collect();
    if fds.is_empty() {
        return;
    }
    // If the poll itself fails, every pipe is read to be sure.
    let polled = poll(&mut fds, Duration::ZERO);
    if let Ok(0) = polled {
        return;
    }
    for (fd, &i) in fds.iter().zip(&waiting) {
        if polled.is_ok() && fd.revents == 0 {
            continue;
        }
        let (bot, deadline) = (&mut *asks[i].bot, asks[i].deadline);
        let mut early = [0u8; UNSOLICITED_BYTES_MAX];
        phases[i] = match read_now(&bot.stdout, &mut early) {
            Ok(0) => bot.failed(Failure::Eof, started, deadline),
            Ok(n) => {
                bot.buf.extend_from_slice(&early[..n]);
                bot.failed(Failure::Unsolicited, started, deadline)
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
            Err(e) => bot.failed(Failure::Io(e), started, deadline),
        };
    }
}

/// The earlier of a wake-up time and `at`.
fn earliest(wake: Option<Instant>, at: Instant) -> Option<Instant> {
    Some(wake.map_or(at, |w| w.min(at)))
}

fn pollfd(fd: BorrowedFd<'_>, events: libc::c_short) -> libc::pollfd {
    libc::pollfd {
        fd: fd.as_raw_fd(),
        events,
        revents: 0,
    }
}

/// Waits up to `timeout` (to the nanosecond, unlike poll's milliseconds)
/// for any of `fds`; returns how many have events.
#[allow(unsafe_code)]
pub(super) fn poll(fds: &mut [libc::pollfd], timeout: Duration) -> io::Result<usize> {
    let timeout = libc::timespec {
        tv_sec: libc::time_t::try_from(timeout.as_secs()).unwrap_or(libc::time_t::MAX),
        tv_nsec: libc::c_long::from(timeout.subsec_nanos() as i32),
    };
    // Never more than the slice holds (and a turn has a handful of fds).
    let len = libc::nfds_t::try_from(fds.len()).unwrap_or(0);
    // SAFETY: `fds` is an exclusively borrowed slice of `len` pollfd
    // structures, valid for the whole call, which only writes their
    // `revents`; the timespec is a live local; a null signal mask keeps
    // the thread's mask as it is.
    let ready = unsafe { libc::ppoll(fds.as_mut_ptr(), len, &timeout, std::ptr::null()) };
    usize::try_from(ready).map_err(|_| io::Error::last_os_error())
}
