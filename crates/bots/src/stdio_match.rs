//! A match runner for process bots: one sandboxed [`ProcessBot`] per seat,
//! playing any [`StdioGame`] (the stdin/stdout arenas CodeCarrots,
//! KingOfBots and Multisnake, and SnakeBattle, Hex and Battlesnake).
//!
//! Each tick ([`StdioMatch::tick`]):
//!
//! 1. Every seat's input is rendered in the seat's [`Wire`]. A seat without
//!    input (its snake is dead, or not yet respawned) has its process
//!    killed, if it still has one.
//! 2. A seat with input and no running process gets a fresh one in a fresh
//!    folder (a restart, for a CodeCarrots snake that respawned); its first
//!    request carries the game's preamble (the Multisnake header) and has
//!    the longer first-move deadline, since start-up counts against it.
//! 3. All seats are asked at once, each with its own deadline, and every
//!    answer is parsed. Text inputs are rendered once for all seats
//!    ([`StdioGame::text_inputs`]: every Multisnake seat reads the same
//!    map). A spawn error, a fault of the process (timeout,
//!    crash, EOF, several lines...) or an answer that is not a move becomes
//!    the game's forfeit action ([`StdioGame::forfeit`]), reported with the
//!    exact bytes and the reason ([`SeatFault`]), and the process is killed.
//!    What a forfeit means is the arena's rule, applied by the engine:
//!    CodeCarrots kills the snake (its program restarts when it respawns),
//!    Multisnake kills the snake for good, a duel is lost; SnakeBattle,
//!    Hex and Battlesnake play no command (the program restarts at the
//!    next tick, with the first-move deadline, since the seat is still
//!    asked). Answers are read against the game as the bot was shown it
//!    ([`StdioGame::parse_answer_in`]: SnakeBattle's rule profile, Hex's
//!    pieces).
//! 4. Each asked seat's stderr since the last tick is collected, bounded by
//!    the sandbox limits (`stderr_lines_max` lines of
//!    `stderr_line_bytes_max` bytes), for the replay's owner-only log.
//! 5. The game steps. When it has finished, every process is killed.
//!
//! **Invariant:** the actions of a tick depend only on the game and on what
//! each bot answered, never on timing between bots or the order in which
//! answers arrive, so a match is deterministic given the seed and the bots'
//! behaviour; a replay of its actions re-simulates exactly.
//!
//! **Invariant:** no bot outlives the match. Processes are killed at the
//! start of the first tick in which the game no longer asks them (their
//! snake died in the previous one; knowing it needs the input that tick
//! renders anyway), at their first fault, in the tick the game ends, and
//! when the [`StdioMatch`] or [`StdioSeats`] is dropped. When a snake dies
//! during the game, every process of its bot gets SIGKILL within the tick,
//! and the rest of it (its folder, its namespaces, the reaping) is kept
//! ([`ProcessBot::kill_keeping_remains`]) until the match stops, or until
//! more dead bots are kept than the match has seats, when the oldest goes
//! to a background thread. The kernel's teardown of a bot's namespaces
//! costs both CPUs hundreds of µs, which would otherwise fall on the
//! turns right after a death, while the other bots are on the clock.
//! [`StdioSeats::stop`] and the drop let every bot go and wait until its
//! folder is removed.
//!
//! Processes are spawned from within [`StdioMatch::tick`], so the future
//! must be polled on a thread that lives as long as the match (a
//! `block_on` thread or a runtime worker; see [`ProcessBot::spawn`]).
//! On a current-thread runtime the answers are awaited in a blocking
//! poll(2) on that thread ([`ProcessBot::ask_all`]), bounded by the
//! deadlines: the turn cannot go on before they are all in, and one poll
//! over every pipe is the cheapest wait, but the runtime's other tasks wait
//! as long. On a multi-threaded runtime each bot is asked as a future
//! ([`ProcessBot::ask`]).
//! Only CodeCarrots stops its bots with SIGSTOP between moves
//! ([`MatchSettings::for_game`]), as upstream does.

use std::collections::VecDeque;
use std::fmt;
use std::time::{Duration, Instant};

use futures_util::future::join_all;
use snakepit_protocol::stdio::{AnswerError, StdioGame, Wire};

use crate::process::{Ask, BotCommand, BotFault, KilledBot, ProcessBot, Reaping, Reply, SandboxLimits, StderrLines};

/// How long [`StdioSeats::stop`] waits for the background ends of the bots
/// killed during the match (a process stuck in the kernel is reaped later
/// still, by a thread of its own).
const REAPING_WAIT_MAX: Duration = Duration::from_secs(3);

/// One seat of a match: who plays it and how.
#[derive(Clone, Debug)]
pub struct Seat {
    /// A label for people and replays (`python3 bot.py`, a name).
    pub label: String,
    /// The program to run.
    pub command: BotCommand,
    /// The format it speaks.
    pub wire: Wire,
}

impl Seat {
    /// A seat speaking the game's own text format, labelled `label`.
    pub fn text(label: impl Into<String>, command: BotCommand) -> Seat {
        Seat { label: label.into(), command, wire: Wire::Text }
    }
}

/// Deadlines and sandbox of a match.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// Wall-clock time for one answer, from the write of the request.
    pub move_deadline: Duration,
    /// The same for the first request of each process, which also pays for
    /// its start-up (a JVM takes about half a second).
    pub first_move_deadline: Duration,
    /// Limits of every bot; `stop_between_moves` decides SIGSTOP.
    pub limits: SandboxLimits,
}

impl MatchSettings {
    /// The arena's settings: 5 s per move with SIGSTOP between moves for
    /// `carrots` (upstream's timer and signals), 1 s per move without
    /// stopping for every other game; a first move 10 s longer.
    pub fn for_game(game: &str) -> MatchSettings {
        let carrots = game == "carrots";
        let move_deadline = Duration::from_secs(if carrots { 5 } else { 1 });
        MatchSettings {
            move_deadline,
            first_move_deadline: move_deadline + Duration::from_secs(10),
            limits: SandboxLimits { stop_between_moves: carrots, ..SandboxLimits::default() },
        }
    }

    /// The same settings with another time per move; the first move keeps
    /// its start-up allowance on top.
    pub fn with_move_deadline(self, move_deadline: Duration) -> MatchSettings {
        let startup = self.first_move_deadline.saturating_sub(self.move_deadline);
        MatchSettings { move_deadline, first_move_deadline: move_deadline + startup, ..self }
    }
}

/// Why a seat forfeited a tick.
#[derive(Debug)]
#[non_exhaustive]
pub enum SeatFault {
    /// The program could not be started; holds the error's text.
    Spawn(String),
    /// The process did not produce an answer line: timeout, crash, EOF,
    /// too long, several lines. Holds the exact bytes received.
    Bot(BotFault),
    /// The answer line is not a move of the game. Holds the exact bytes.
    Answer {
        /// What is wrong with the answer, with its bytes.
        error: AnswerError,
        /// From the request to the answer.
        elapsed: Duration,
    },
}

impl SeatFault {
    /// What most often causes this fault, when it is one of the usual
    /// mistakes (see [`BotFault::hint`]), or a program that cannot be
    /// executed.
    pub fn hint(&self) -> Option<&'static str> {
        match self {
            SeatFault::Bot(fault) => fault.hint(),
            SeatFault::Spawn(why) if why.contains("(os error 13)") => {
                Some("is the program executable (chmod +x), or does it need its interpreter (python3 bot.py)?")
            }
            _ => None,
        }
    }
}

impl fmt::Display for SeatFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatFault::Spawn(e) => write!(f, "could not start: {e}"),
            SeatFault::Bot(e) => write!(f, "{e}"),
            SeatFault::Answer { error, elapsed } => write!(f, "{error} (after {} ms)", elapsed.as_millis()),
        }
    }
}

/// What one seat did in one tick.
#[derive(Debug)]
pub enum SeatOutcome {
    /// The seat was not asked: its snake is dead or waiting, or the game is
    /// over.
    Idle,
    /// The seat answered with a move.
    Answered {
        /// The answer line, without its `\n`.
        line: String,
        /// From the request to the answer.
        elapsed: Duration,
    },
    /// The seat forfeited.
    Failed(SeatFault),
}

/// One seat's part of a tick report.
#[derive(Debug)]
pub struct SeatTick {
    /// What the seat did.
    pub outcome: SeatOutcome,
    /// Whether a new process was started for this tick (the first tick, or a
    /// restart after a respawn).
    pub started: bool,
    /// Whether the seat's process was killed in this tick (its snake died,
    /// it failed, or the game ended).
    pub killed: bool,
    /// The stderr lines the process wrote since the last tick; shown to the
    /// bot's owner only.
    pub stderr: StderrLines,
}

/// Everything about one tick, for the replay, the logs and the viewer.
#[derive(Debug)]
pub struct TickReport<G: StdioGame> {
    /// The game's tick count after this tick.
    pub tick: u64,
    /// The actions played, by seat, as the replay records them.
    pub actions: Vec<G::Action>,
    /// What happened in the tick.
    pub events: Vec<G::Event>,
    /// Each seat's answer, fault and stderr.
    pub seats: Vec<SeatTick>,
}

impl<G: StdioGame> TickReport<G> {
    /// The seats that forfeited this tick, with their faults.
    pub fn faults(&self) -> impl Iterator<Item = (usize, &SeatFault)> {
        self.seats.iter().enumerate().filter_map(|(i, s)| match &s.outcome {
            SeatOutcome::Failed(f) => Some((i, f)),
            _ => None,
        })
    }
}

/// Per-seat runner state.
struct SeatState {
    seat: Seat,
    bot: Option<ProcessBot>,
}

/// The process side of a match, without the game: the bots of the seats
/// that are process bots, asked for one tick's actions at a time. For a
/// caller that owns the game itself (the CLI's play loop, where other seats
/// may be built-in bots); [`StdioMatch`] wraps it with the game.
pub struct StdioSeats {
    /// By seat; `None` for a seat some other player plays.
    seats: Vec<Option<SeatState>>,
    settings: MatchSettings,
    /// The bots killed during the match.
    dead: DeadBots,
}

/// The bots a match killed: the latest kept whole, the others being torn
/// down by the reaper thread.
#[derive(Debug, Default)]
struct DeadBots {
    /// Oldest first; at most `kept_max`.
    kept: VecDeque<KilledBot>,
    kept_max: usize,
    /// The ends of the bots let go, not yet waited for.
    reaping: Vec<Reaping>,
}

impl DeadBots {
    /// Kills every process of `bot` now; its teardown waits (see the
    /// [module documentation](self)).
    fn bury(&mut self, bot: ProcessBot) {
        self.kept.push_back(bot.kill_keeping_remains());
        while self.kept.len() > self.kept_max {
            let Some(oldest) = self.kept.pop_front() else { break };
            self.reaping.retain(|r| !r.is_done());
            self.reaping.push(oldest.release());
        }
    }

    /// Lets every dead bot go and waits until all are torn down, at most
    /// [`REAPING_WAIT_MAX`].
    fn release_all(&mut self) {
        self.reaping.extend(self.kept.drain(..).map(KilledBot::release));
        let until = Instant::now() + REAPING_WAIT_MAX;
        for reaping in self.reaping.drain(..) {
            reaping.wait_until(until);
        }
    }
}

impl Drop for StdioSeats {
    fn drop(&mut self) {
        self.stop();
    }
}

impl StdioSeats {
    /// Process bots for the seats given; `None` seats are left to the
    /// caller (their action is the default one and they are never asked).
    pub fn new(seats: Vec<Option<Seat>>, settings: MatchSettings) -> StdioSeats {
        let seats: Vec<_> = seats.into_iter().map(|s| s.map(|seat| SeatState { seat, bot: None })).collect();
        // As many dead bots are kept as the match has seats: a game that
        // ends tears none down during play; an endless CodeCarrots game,
        // whose programs restart, lets the oldest go.
        let dead = DeadBots { kept_max: seats.len(), ..DeadBots::default() };
        StdioSeats { seats, settings, dead }
    }

    /// Number of seats, process or not.
    pub fn len(&self) -> usize {
        self.seats.len()
    }

    /// Whether there are no seats.
    pub fn is_empty(&self) -> bool {
        self.seats.is_empty()
    }

    /// The labels of the process seats, `None` for the others.
    pub fn labels(&self) -> Vec<Option<String>> {
        self.seats.iter().map(|s| s.as_ref().map(|s| s.seat.label.clone())).collect()
    }

    /// Steps 1 to 4 of the tick (see the [module documentation](self)):
    /// the actions of every seat for the next tick of `game`, default for
    /// seats without a process, and each seat's report.
    pub async fn decide<G: StdioGame>(&mut self, game: &G) -> (Vec<G::Action>, Vec<SeatTick>) {
        self.decide_inner(game, None).await
    }

    /// [`decide`](Self::decide), with the text input of every seat taken
    /// from `text_inputs` (by seat; `None` where the seat is not asked)
    /// instead of [`StdioGame::text_inputs`]: for a caller that renders the
    /// arena's message with what the game does not hold (Battlesnake's
    /// snake names, latencies and shouts). JSON seats read the game's line.
    pub async fn decide_with<G: StdioGame>(
        &mut self,
        game: &G,
        text_inputs: Vec<Option<String>>,
    ) -> (Vec<G::Action>, Vec<SeatTick>) {
        self.decide_inner(game, Some(text_inputs)).await
    }

    async fn decide_inner<G: StdioGame>(
        &mut self,
        game: &G,
        mut text_inputs: Option<Vec<Option<String>>>,
    ) -> (Vec<G::Action>, Vec<SeatTick>) {
        let n = self.seats.len();
        let mut reports: Vec<SeatTick> = (0..n)
            .map(|_| SeatTick { outcome: SeatOutcome::Idle, started: false, killed: false, stderr: StderrLines::default() })
            .collect();
        let mut actions = vec![G::Action::default(); n];

        // Render and start what is needed; each request is the input, plus
        // the preamble for a fresh process.
        let mut requests: Vec<Option<(String, Duration)>> = Vec::with_capacity(n);
        let finished = game.is_finished();
        // Text inputs are rendered for all seats at once, when the first
        // text seat needs them: in Multisnake every seat reads the same map.
        for (i, (st, report)) in self.seats.iter_mut().zip(&mut reports).enumerate() {
            let Some(st) = st else {
                requests.push(None);
                continue;
            };
            let input = match st.seat.wire {
                _ if finished => None,
                Wire::Text => text_inputs.get_or_insert_with(|| game.text_inputs()).get_mut(i).and_then(Option::take),
                Wire::Json => st.seat.wire.input(game, i),
            };
            let Some(input) = input else {
                if let Some(mut bot) = st.bot.take() {
                    report.stderr = bot.take_stderr();
                    report.killed = true;
                    self.dead.bury(bot);
                }
                requests.push(None);
                continue;
            };
            if let Some(gone) = st.bot.take_if(|bot| bot.is_gone()) {
                self.dead.bury(gone);
            }
            let mut request = input;
            let mut deadline = self.settings.move_deadline;
            if st.bot.is_none() {
                match ProcessBot::spawn(&st.seat.command, &self.settings.limits) {
                    Ok(bot) => {
                        st.bot = Some(bot);
                        report.started = true;
                        deadline = self.settings.first_move_deadline;
                        if let Some(mut pre) = st.seat.wire.preamble(game, i) {
                            pre.push_str(&request);
                            request = pre;
                        }
                    }
                    Err(e) => {
                        report.outcome = SeatOutcome::Failed(SeatFault::Spawn(e.to_string()));
                        actions[i] = G::forfeit();
                        requests.push(None);
                        continue;
                    }
                }
            }
            requests.push(Some((request, deadline)));
        }

        // Ask every seat at once: a slow bot delays the tick, never the
        // other bots' deadlines.
        let mut asks: Vec<Ask<'_>> = self
            .seats
            .iter_mut()
            .zip(&requests)
            .filter_map(|(st, req)| {
                let (request, deadline) = req.as_ref()?;
                let bot = st.as_mut()?.bot.as_mut()?;
                Some(Ask { bot, request, deadline: *deadline })
            })
            .collect();
        let mut answers = wait_for_answers(&mut asks).await.into_iter();
        drop(asks);

        for (i, st) in self.seats.iter_mut().enumerate() {
            if requests[i].is_none() {
                continue;
            }
            let Some(st) = st else { continue };
            let Some(bot) = st.bot.as_mut() else { continue };
            let report = &mut reports[i];
            let answer = answers.next().expect("one answer per request");
            let outcome = match answer {
                Ok(reply) => match st.seat.wire.parse_answer_in(game, i, reply.line.as_bytes()) {
                    Ok(action) => {
                        actions[i] = action;
                        SeatOutcome::Answered { line: reply.line, elapsed: reply.elapsed }
                    }
                    Err(error) => {
                        actions[i] = G::forfeit();
                        SeatOutcome::Failed(SeatFault::Answer { error, elapsed: reply.elapsed })
                    }
                },
                Err(fault) => {
                    actions[i] = G::forfeit();
                    SeatOutcome::Failed(SeatFault::Bot(fault))
                }
            };
            report.stderr = bot.take_stderr();
            if matches!(outcome, SeatOutcome::Failed(_)) {
                // A bad answer leaves the process running; the rule ends
                // it (and a restart, where the arena has one, starts fresh).
                if let Some(bot) = st.bot.take() {
                    self.dead.bury(bot);
                }
                report.killed = true;
            }
            report.outcome = outcome;
        }
        (actions, reports)
    }

    /// Step 5, after the caller stepped `game`: once it has finished, kills
    /// every process, adding their last stderr lines to `reports`.
    pub fn after_step<G: StdioGame>(&mut self, game: &G, reports: &mut [SeatTick]) {
        if !game.is_finished() {
            return;
        }
        for (st, report) in self.seats.iter_mut().zip(reports) {
            if let Some(mut bot) = st.as_mut().and_then(|st| st.bot.take()) {
                append_stderr(&mut report.stderr, bot.take_stderr());
                report.killed = true;
                self.dead.bury(bot);
            }
        }
    }

    /// Kills every process; a later [`decide`](Self::decide) starts new
    /// ones where needed.
    pub fn stop(&mut self) {
        for st in self.seats.iter_mut().flatten() {
            if let Some(bot) = st.bot.take() {
                self.dead.bury(bot);
            }
        }
        // Every bot, those killed during the game too: their folders are
        // removed before the match counts as stopped.
        self.dead.release_all();
    }
}

/// A game played by process bots. See the [module documentation](self).
pub struct StdioMatch<G: StdioGame> {
    game: G,
    seats: StdioSeats,
    labels: Vec<String>,
}

impl<G: StdioGame> StdioMatch<G> {
    /// A match of `game` (before or during play) with one seat per player,
    /// in seat order. No process starts before the first tick.
    ///
    /// # Panics
    /// If the number of seats differs from the game's.
    pub fn new(game: G, seats: Vec<Seat>, settings: MatchSettings) -> StdioMatch<G> {
        assert_eq!(seats.len(), game.seats(), "one seat per player of the game");
        let labels = seats.iter().map(|s| s.label.clone()).collect();
        StdioMatch { game, seats: StdioSeats::new(seats.into_iter().map(Some).collect(), settings), labels }
    }

    /// The game as it stands.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The seats' labels, in seat order (for the replay header).
    pub fn labels(&self) -> Vec<String> {
        self.labels.clone()
    }

    /// Whether the game has ended.
    pub fn is_finished(&self) -> bool {
        self.game.is_finished()
    }

    /// Plays one tick (see the [module documentation](self)). After the
    /// game has finished it kills what is left and changes nothing.
    pub async fn tick(&mut self) -> TickReport<G> {
        let (actions, mut seats) = self.seats.decide(&self.game).await;
        let events = self.game.step(&actions);
        self.seats.after_step(&self.game, &mut seats);
        TickReport { tick: self.game.tick(), actions, events, seats }
    }

    /// Plays until the game finishes or `ticks_max` more ticks have been
    /// played, calling `each` with the game after every tick and the tick's
    /// report. Kills every process before returning.
    pub async fn run(&mut self, ticks_max: u64, mut each: impl FnMut(&G, &TickReport<G>)) {
        for _ in 0..ticks_max {
            if self.game.is_finished() {
                break;
            }
            let report = self.tick().await;
            each(&self.game, &report);
        }
        self.stop();
    }

    /// Kills every process (the game is left as it is).
    pub fn stop(&mut self) {
        self.seats.stop();
    }

    /// Ends the match and returns the game.
    pub fn into_game(mut self) -> G {
        self.stop();
        self.game
    }
}

/// Asks every bot of `asks` at once. On a current-thread runtime (`play`,
/// a room on a thread of its own) with [`ProcessBot::ask_all`], which
/// blocks the thread until the answers are in: the turn waits for them
/// anyway, and one poll over every pipe costs less than the runtime's
/// reactor with a timer per move. On a multi-threaded runtime each bot is
/// asked as a future instead, so no worker is held up (and no worker is
/// handed off, which could end the thread whose exit kills the bots it
/// started).
async fn wait_for_answers(asks: &mut [Ask<'_>]) -> Vec<Result<Reply, BotFault>> {
    let multi_thread = tokio::runtime::Handle::try_current()
        .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
    if multi_thread {
        join_all(asks.iter_mut().map(|a| a.bot.ask(a.request, a.deadline))).await
    } else {
        ProcessBot::ask_all(asks)
    }
}

/// Appends `more` to `into`, keeping the counters.
fn append_stderr(into: &mut StderrLines, more: StderrLines) {
    into.lines.extend(more.lines);
    into.dropped_lines += more.dropped_lines;
    into.truncated_lines += more.truncated_lines;
}
