//! A room: one task that owns one game and everything seated at it.
//!
//! Connections never touch the game. They send [`RoomInput`]s over a
//! bounded channel; the room applies them between ticks, steps the game on
//! its own clock, and hands each connection its next message through that
//! connection's own bounded channel. Spectators read the latest frame from
//! a `watch` channel, so a slow spectator skips frames instead of holding
//! the room back.
//!
//! Turn-taking for bots follows Codenjoy: a bot is sent a board, then the
//! room waits for exactly one answer. Further messages before the next board
//! are dropped; a bot that has not answered is not sent the next board; an
//! answer that arrives late is applied at the next tick; no answer means the
//! snake keeps going.
//!
//! A player's uploaded program holds the seat through its runner
//! ([`ConnKind::Code`], see [`crate::code`]), with the same turn-taking:
//! the runner is sent the tick's input in the game's own format
//! ([`Outgoing::Ask`]) instead of the board, or [`Outgoing::Idle`] when
//! the seat has no move to make, and its answers arrive already read
//! ([`RoomInput::CodeAnswer`]). Unlike a bot's, a program's answer is
//! waited for, as the stdin/stdout arenas wait for theirs: a due tick is
//! held until every program asked has answered (its runner answers with
//! the move or the fault within the arena's deadline), and the next tick
//! comes a whole period after it. The program's stderr and faults are kept
//! per seat (the last [`STDERR_LINES_MAX`] lines) and sent to the player's
//! own pages only, never in a spectator frame.
//!
//! Scores leave the room as per-player deltas: once a second on a single
//! node, after every tick in a cluster, before the tick's frame is
//! published (a killed node then loses at most the tick in flight, which
//! nobody has seen). A room that another node takes over gets
//! [`RoomInput::Moved`]: it writes its deltas, closes every connection with
//! [`MOVED_REASON`] (close code [`MOVED_CLOSE_CODE`], so clients reconnect,
//! through any node) and ends. Deltas are written only if the game's scores
//! have not been reset since the room read their reset count
//! ([`Store::add_scores_at`]): a room of any node whose write is refused
//! drops its pending points and counts from the reset on.

use crate::games::{BuiltinBot, Command, NotePart, ProcessAsk, RoomGame, TickReport};
use crate::metrics::{Histogram, TickProbe};
use crate::record::{FinishedGame, StderrRecord};
use snakepit_store::{ScoreDelta, ScoresWritten, Store};
use snakepit_protocol::spectator::{self, AnswerLog, Frame, PlayerView, StderrMsg};
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::MissedTickBehavior;

/// Inputs a room accepts before it applies back-pressure.
pub const ROOM_QUEUE_LEN: usize = 1024;
/// Inputs a room handles between two ticks before a due tick takes
/// precedence over the next input. Far above what honest seats send in a
/// tick (one answer each, plus pages and notes), so it only matters when
/// clients flood the room's queue.
pub const INPUTS_PER_TICK_MAX: usize = 256;
/// Messages waiting for one connection; boards are never queued behind an
/// unanswered one, so this only absorbs page updates and close frames.
pub const CONN_QUEUE_LEN: usize = 8;
/// Answers kept per seat for the player's page.
pub const LOG_LEN: usize = 20;
/// Characters of an answer kept in the log.
const LOG_TEXT_CHARS: usize = 200;
/// Shortest tick period a room accepts.
pub const MIN_TICK_MS: u64 = 10;
/// Longest tick period a room accepts.
pub const MAX_TICK_MS: u64 = 60_000;
/// Lines of a player's program's stderr (and faults) kept for their page.
pub const STDERR_LINES_MAX: usize = 1000;
/// How often score deltas are written to the database on a single node
/// (in a cluster they are written every tick).
const SCORE_FLUSH_MS: u64 = 1000;
/// Close code sent when the room moves to another node: the client should
/// reconnect (WebSocket code 1012, service restart).
pub const MOVED_CLOSE_CODE: u16 = 1012;
/// The reason sent with [`MOVED_CLOSE_CODE`].
pub const MOVED_REASON: &str = "the room moved to another node: reconnect";

/// A message to one connection.
#[derive(Clone, Debug)]
pub enum Outgoing {
    /// A text frame.
    Text(Arc<str>),
    /// A board, timed from the start of its tick until it is written.
    Board(Arc<str>, Arc<TickProbe>),
    /// Close with a code and a reason.
    Close(u16, String),
    /// To an uploaded program's runner: this tick's input.
    Ask(Arc<ProcessAsk>),
    /// To an uploaded program's runner: no move to make this tick (its
    /// snake is dead or the game is over), so the process ends.
    Idle,
}

/// Which kind of socket a connection is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnKind {
    /// A bot on the Codenjoy WebSocket: boards out, commands in.
    Bot,
    /// The player's own web page: JSON out, keyboard commands in.
    Page,
    /// The runner of the player's uploaded program: it holds the seat like
    /// a bot, gets [`Outgoing::Ask`]s and answers with
    /// [`RoomInput::CodeAnswer`].
    Code,
}

/// A registered player, as rooms know them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRef {
    /// Player id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// The game the player registered for.
    pub game: String,
}

impl From<snakepit_store::Player> for PlayerRef {
    fn from(p: snakepit_store::Player) -> PlayerRef {
        PlayerRef { id: p.id, name: p.name, game: p.game }
    }
}

impl PlayerRef {
    /// A stored player as rooms know them, the stored one kept.
    pub fn of(p: &snakepit_store::Player) -> PlayerRef {
        PlayerRef { id: p.id.clone(), name: p.name.clone(), game: p.game.clone() }
    }
}

/// What connections and admins ask of a room.
#[derive(Debug)]
pub enum RoomInput {
    /// Seats the player if needed and attaches a connection.
    Attach {
        /// Who.
        player: PlayerRef,
        /// Bot or page.
        kind: ConnKind,
        /// Unique connection id.
        conn_id: u64,
        /// Where the room sends this connection's messages.
        tx: mpsc::Sender<Outgoing>,
        /// The seat, or why the room cannot take the player.
        reply: oneshot::Sender<Result<usize, AttachError>>,
    },
    /// A connection went away.
    Detach {
        /// Player id.
        player_id: String,
        /// Connection id.
        conn_id: u64,
    },
    /// A bot's answer (subject to turn-taking).
    Answer {
        /// Player id.
        player_id: String,
        /// Connection id.
        conn_id: u64,
        /// The text as received.
        text: String,
    },
    /// An uploaded program's answer (subject to turn-taking), already read.
    CodeAnswer {
        /// Player id.
        player_id: String,
        /// Connection id of the runner.
        conn_id: u64,
        /// The move, a forfeit, or nothing.
        command: Option<Command>,
        /// The answer line as received (cut for the log).
        text: String,
        /// What the server made of it.
        note: String,
    },
    /// Lines for the player's stderr pane (their program's stderr, faults).
    Stderr {
        /// Player id.
        player_id: String,
        /// The lines, oldest first.
        lines: Vec<String>,
    },
    /// A command typed on the player's page (no turn-taking).
    Key {
        /// Player id.
        player_id: String,
        /// Command text.
        text: String,
    },
    /// A problem with a connection, shown on the player's page.
    Note {
        /// Player id.
        player_id: String,
        /// What happened.
        note: String,
    },
    /// Pause or resume the clock.
    Pause(bool),
    /// Change the tick period.
    SetTick(u64),
    /// Remove a player from the room.
    Kick {
        /// Player id.
        player_id: String,
        /// The close code and reason their connections get.
        close: (u16, String),
        /// Whether the player was here.
        reply: oneshot::Sender<bool>,
    },
    /// Scores were reset in the database; forget undelivered deltas.
    ResetScores,
    /// Stop after writing pending scores.
    Shutdown(oneshot::Sender<()>),
    /// Another node runs the room now: write pending scores, close every
    /// connection with [`MOVED_REASON`] and stop.
    Moved,
    /// The room is closed for good: write pending scores, close every
    /// connection with this reason (close code 1001, going away) and stop.
    Close(String),
}

/// Why a room did not take a connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttachError {
    /// Every seat is held by a player; another room may have one.
    Full,
    /// The player is seated here but this connection breaks a limit.
    Refused(String),
}

/// One line of the lobby's room list.
#[derive(Clone, Debug, Default, serde::Serialize, PartialEq)]
pub struct RoomSummary {
    /// Room name.
    pub name: String,
    /// Game.
    pub game: String,
    /// Tick period.
    pub tick_ms: u64,
    /// Paused by an admin.
    pub paused: bool,
    /// Ticks played.
    pub tick: u64,
    /// Current round.
    pub round: u32,
    /// Who sits where.
    pub seats: Vec<SeatSummary>,
    /// Seats a player could take (empty or held by a built-in bot).
    pub free_seats: usize,
    /// Milliseconds, at most, until a player seated now plays: the next
    /// round or game where newcomers wait for one (0 where they play at once).
    pub starts_in_ms: u64,
}

/// One seat in the lobby's view.
#[derive(Clone, Debug, Default, serde::Serialize, PartialEq, Eq)]
pub struct SeatSummary {
    /// Name of whoever holds it (empty if nobody).
    pub name: String,
    /// Held by a built-in bot.
    pub bot: bool,
    /// A player's bot is connected.
    pub connected: bool,
    /// Score in this room's game.
    pub score: i64,
}

/// Between two games of a series, a seat whose player has had no
/// connection for this long goes back to a bot (a page being reloaded
/// comes back well within it).
pub const ABSENT_BETWEEN_GAMES_RELEASE_MS: u64 = 5_000;

/// In a game whose absent players leave the field (Hex), a player with no
/// connection for this long steps out. A bot that reconnects or a page
/// that is reloaded within it keeps its pieces, as on Codenjoy, where a
/// player's pieces stay while its client restarts.
pub const ABSENT_STEP_OUT_MS: u64 = 5_000;

/// How a room is set up.
#[derive(Clone, Debug)]
pub struct RoomConfig {
    /// Unique name.
    pub name: String,
    /// Tick period.
    pub tick_ms: u64,
    /// Start paused.
    pub paused: bool,
    /// Seed of the game (also seeds the built-in bots).
    pub seed: u64,
    /// Built-in bots holding seats that no player holds (by name, cycled).
    pub fill_bots: Vec<String>,
    /// A seat whose player has had no connection for this long goes back to
    /// a bot.
    pub release_after_ms: u64,
    /// Finished games of built-in bots only that the room keeps.
    pub bot_games_kept: u32,
    /// Finished games each registered player keeps (0: all).
    pub games_kept_per_player: u32,
    /// Where tick-to-last-board latencies go.
    pub latency: Arc<Histogram>,
    /// Browser pages one player may have open at once.
    pub pages_per_player: usize,
    /// Write score deltas after every tick rather than once a second (in a
    /// cluster, so that a killed node loses at most the tick in flight).
    pub flush_every_tick: bool,
    /// The longest a due tick waits for uploaded programs: their first
    /// move deadline (the runner answers by then, with a fault if need be)
    /// and [`PROGRAM_ANSWER_SLACK`] for the answer to arrive.
    pub program_wait_max: Duration,
}

/// See [`RoomConfig::program_wait_max`].
pub const PROGRAM_ANSWER_SLACK: Duration = Duration::from_secs(1);

/// The cheap, cloneable face of a running room.
#[derive(Clone)]
pub struct RoomHandle {
    /// Room name.
    pub name: String,
    /// Game name.
    pub game: String,
    /// Input channel.
    pub tx: mpsc::Sender<RoomInput>,
    /// Latest spectator frame (JSON).
    pub frames: watch::Receiver<Arc<str>>,
    /// Latest summary.
    pub summary: watch::Receiver<RoomSummary>,
}

impl RoomHandle {
    /// Closes every connection of the player with `close` (code, reason)
    /// and gives their seat back, once the room has done so; false when
    /// they held no seat here or the room has stopped.
    pub async fn kick(&self, player_id: &str, close: (u16, String)) -> bool {
        let (reply, done) = oneshot::channel();
        let input = RoomInput::Kick { player_id: player_id.to_string(), close, reply };
        self.tx.send(input).await.is_ok() && done.await.unwrap_or(false)
    }
}

enum Holder {
    Empty,
    Builtin { name: String, bot: BuiltinBot },
    Player(PlayerRef),
}

struct BotConn {
    id: u64,
    tx: mpsc::Sender<Outgoing>,
    /// Sent a board and waiting for its answer.
    awaiting: bool,
    /// The runner of an uploaded program rather than a socket.
    code: bool,
}

struct Seat {
    holder: Holder,
    /// Engine score already credited to the holder.
    baseline: i64,
    /// Engine score when the holder sat down (or the scores were reset):
    /// the room shows each holder's points since then, so that a player
    /// never shows the points of the bot whose seat they took.
    seated_from: i64,
    pending: Option<Command>,
    log: VecDeque<AnswerLog>,
    /// The player's program's stderr and faults, newest last.
    stderr: VecDeque<String>,
    bot: Option<BotConn>,
    pages: Vec<(u64, mpsc::Sender<Outgoing>)>,
    last_connected: Instant,
    /// The built-in bot that plays on for a person who sat down during a
    /// game that newcomers join only at its end (the duel, Multisnake):
    /// the person plays from the next game.
    stand_in: Option<(String, BuiltinBot)>,
    /// A person who pressed a key between two games: ready for the next,
    /// which starts at once when everyone seated is (see
    /// [`Room::start_when_ready`]).
    ready: bool,
}

impl Seat {
    fn note(&mut self, tick: u64, text: &str, note: String) {
        if self.log.len() == LOG_LEN {
            self.log.pop_front();
        }
        self.log.push_back(AnswerLog { tick, text: text.chars().take(LOG_TEXT_CHARS).collect(), note });
    }

    fn player_id(&self) -> Option<&str> {
        match &self.holder {
            Holder::Player(p) => Some(&p.id),
            _ => None,
        }
    }

    fn close_all(&mut self, code: u16, reason: &str) {
        if let Some(b) = self.bot.take() {
            let _ = b.tx.try_send(Outgoing::Close(code, reason.to_string()));
        }
        for (_, tx) in self.pages.drain(..) {
            let _ = tx.try_send(Outgoing::Close(code, reason.to_string()));
        }
    }
}

/// Seat colours, by seat index.
pub const COLORS: [&str; 15] = [
    "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#46f0f0", "#f032e6", "#bcf60c", "#fabebe",
    "#008080", "#e6beff", "#9a6324", "#fffac8", "#800000",
];

struct Room<G> {
    cfg: RoomConfig,
    game: G,
    seats: Vec<Seat>,
    boards: Vec<String>,
    store: Store,
    deltas: Vec<ScoreDelta>,
    last_flush: Instant,
    /// The game's reset count as read from the store, which `deltas` are
    /// written against; `None` until read.
    score_epoch: Option<i64>,
    frames: watch::Sender<Arc<str>>,
    summary: watch::Sender<RoomSummary>,
    events: Vec<String>,
    /// The seats' programs' stderr in the game in progress.
    stderr_log: StderrRecord,
    /// The last game's result, and its sentence with the seats named as
    /// they were when it ended.
    result_text: Option<(Vec<NotePart>, String)>,
}

/// Starts a room task for a game.
pub fn spawn<G: RoomGame>(mut game: G, cfg: RoomConfig, store: Store) -> RoomHandle {
    let seats_n = game.seats();
    let (tx, rx) = mpsc::channel(ROOM_QUEUE_LEN);
    let (frames_tx, frames_rx) = watch::channel(Arc::<str>::from("{}"));
    let (summary_tx, summary_rx) = watch::channel(RoomSummary::default());
    let mut seats = Vec::with_capacity(seats_n);
    for i in 0..seats_n {
        let holder = builtin_holder(&game, &cfg, cfg.seed, i);
        game.set_present(i, !matches!(holder, Holder::Empty));
        seats.push(Seat {
            holder,
            baseline: 0,
            seated_from: 0,
            pending: None,
            log: VecDeque::new(),
            stderr: VecDeque::new(),
            bot: None,
            pages: Vec::new(),
            last_connected: Instant::now(),
            stand_in: None,
            ready: false,
        });
    }
    let handle = RoomHandle {
        name: cfg.name.clone(),
        game: game.name().to_string(),
        tx,
        frames: frames_rx,
        summary: summary_rx,
    };
    let mut room = Room {
        boards: game.boards(),
        game,
        seats,
        store,
        deltas: Vec::new(),
        last_flush: Instant::now(),
        score_epoch: None,
        frames: frames_tx,
        summary: summary_tx,
        events: Vec::new(),
        stderr_log: StderrRecord::default(),
        result_text: None,
        cfg,
    };
    room.publish(true);
    tokio::spawn(room.run(rx));
    handle
}

/// The built-in bot that holds a seat no player holds, if the room fills
/// seats with bots.
fn builtin_holder<G: RoomGame>(game: &G, cfg: &RoomConfig, seed: u64, seat: usize) -> Holder {
    let Some(name) = cfg.fill_bots.get(seat) else { return Holder::Empty };
    match game.builtin(name, seed.wrapping_mul(31).wrapping_add(seat as u64)) {
        Some(bot) => Holder::Builtin { name: format!("{name}-{}", seat + 1), bot },
        None => Holder::Empty,
    }
}

impl<G: RoomGame> Room<G> {
    async fn run(mut self, mut rx: mpsc::Receiver<RoomInput>) {
        // Before the first point: a reset after this refuses what came
        // before it.
        self.score_epoch = self.store.score_epoch(self.game.name()).await.ok();
        let mut interval = new_interval(self.cfg.tick_ms);
        let mut inputs_since_tick = 0usize;
        // Set while a due tick waits for uploaded programs to answer, as
        // the stdin/stdout arenas wait for their bots (see
        // `programs_thinking`); the tick comes with the last answer, or
        // once the wait reaches `program_wait_max`.
        let mut due_since: Option<Instant> = None;
        let program_wait_max = self.cfg.program_wait_max;
        loop {
            // Inputs come first so that an answer that arrived in time is
            // applied this tick; but once a tick's share is used up the
            // clock comes first, so a flood of inputs delays a due tick by
            // at most one input. Inputs are still read (not left queued)
            // while the tick is not due: Shutdown and Moved stay prompt, and
            // a late answer is applied at the next tick as before.
            let running = !self.cfg.paused;
            let input = if inputs_since_tick >= INPUTS_PER_TICK_MAX {
                tokio::select! {
                    biased;
                    _ = interval.tick(), if running => None,
                    input = rx.recv() => Some(input),
                }
            } else {
                tokio::select! {
                    biased;
                    input = rx.recv() => Some(input),
                    _ = interval.tick(), if running => None,
                }
            };
            let Some(input) = input else {
                // A program is waited for up to its deadline, a person up
                // to the game's own wait.
                let wait_max = if self.programs_thinking() { program_wait_max } else { self.game.person_wait() };
                if self.thinking() && due_since.is_none_or(|t| t.elapsed() < wait_max) {
                    due_since.get_or_insert_with(Instant::now);
                    continue;
                }
                due_since = None;
                inputs_since_tick = 0;
                self.tick_and_publish().await;
                continue;
            };
            inputs_since_tick = inputs_since_tick.saturating_add(1);
            match input {
                Some(RoomInput::Shutdown(done)) => {
                    self.flush_scores(true).await;
                    for s in &mut self.seats {
                        s.close_all(1001, "the server is shutting down");
                    }
                    let _ = done.send(());
                    return;
                }
                Some(RoomInput::Moved) => {
                    self.flush_scores(true).await;
                    for s in &mut self.seats {
                        s.close_all(MOVED_CLOSE_CODE, MOVED_REASON);
                    }
                    return;
                }
                Some(RoomInput::Close(reason)) => {
                    self.flush_scores(true).await;
                    for s in &mut self.seats {
                        s.close_all(1001, &reason);
                    }
                    return;
                }
                Some(RoomInput::SetTick(ms)) => {
                    self.cfg.tick_ms = ms.clamp(MIN_TICK_MS, MAX_TICK_MS);
                    interval = new_interval(self.cfg.tick_ms);
                    self.publish(false);
                }
                Some(input) => {
                    self.handle(input);
                    if due_since.is_some() && !self.thinking() {
                        // The last program or person answered: the waiting
                        // tick now, and the next one a whole period later.
                        due_since = None;
                        inputs_since_tick = 0;
                        self.tick_and_publish().await;
                        interval.reset();
                    }
                }
                None => {
                    self.flush_scores(true).await;
                    return;
                }
            }
        }
    }

    /// Plays a tick, then writes its scores and publishes its frame, in
    /// that order: in a cluster a score anyone has seen is in the store,
    /// even if this node dies right after.
    async fn tick_and_publish(&mut self) {
        self.tick();
        self.flush_scores(self.cfg.flush_every_tick).await;
        self.publish(false);
    }

    /// Whether an uploaded program of this room has been asked for a move
    /// and has not answered yet. Its runner always answers, with the move
    /// or with the fault, within the arena's deadline; a runner that has
    /// ended is not waited for.
    fn programs_thinking(&self) -> bool {
        self.seats.iter().any(|s| s.bot.as_ref().is_some_and(|b| b.code && b.awaiting && !b.tx.is_closed()))
    }

    /// Whether a person is asked for a move and has not made one, in a game
    /// that waits for people ([`RoomGame::person_wait`]): a player at their
    /// page, with no bot or program connected.
    fn people_thinking(&self) -> bool {
        !self.game.person_wait().is_zero()
            && self.seats.iter().enumerate().any(|(i, s)| {
                matches!(s.holder, Holder::Player(_))
                    && s.bot.is_none()
                    && s.stand_in.is_none()
                    && !s.pages.is_empty()
                    && s.pending.is_none()
                    && self.game.asks(i)
            })
    }

    /// Whether a due tick waits for someone: a program or a person.
    fn thinking(&self) -> bool {
        self.programs_thinking() || self.people_thinking()
    }

    fn seat_of(&self, player_id: &str) -> Option<usize> {
        self.seats.iter().position(|s| s.player_id() == Some(player_id))
    }

    fn handle(&mut self, input: RoomInput) {
        let tick = self.game.tick();
        match input {
            RoomInput::Attach { player, kind, conn_id, tx, reply } => {
                let seat = match self.seat_of(&player.id) {
                    Some(s) => s,
                    None => match self.take_seat(player, kind == ConnKind::Page) {
                        Some(s) => s,
                        None => {
                            let _ = reply.send(Err(AttachError::Full));
                            return;
                        }
                    },
                };
                let s = &mut self.seats[seat];
                if kind == ConnKind::Page && s.pages.len() >= self.cfg.pages_per_player {
                    let _ = reply.send(Err(AttachError::Refused(format!(
                        "at most {} pages per player are open at once",
                        self.cfg.pages_per_player
                    ))));
                    return;
                }
                s.last_connected = Instant::now();
                if s.bot.is_none() && s.pages.is_empty() && self.game.absent_players_leave() {
                    self.game.set_present(seat, true);
                }
                match kind {
                    ConnKind::Bot | ConnKind::Code => {
                        let code = kind == ConnKind::Code;
                        if let Some(old) = s.bot.replace(BotConn { id: conn_id, tx, awaiting: false, code }) {
                            let _ = old.tx.try_send(Outgoing::Close(4001, "replaced by a newer connection".into()));
                        }
                        if code {
                            s.note(tick, "", "program started".to_string());
                            if self.game.forfeit_on_new_code() {
                                s.pending = Some(Command::Forfeit);
                            }
                        } else {
                            s.note(tick, "", "bot connected".to_string());
                        }
                    }
                    ConnKind::Page => {
                        // The stderr pane first, so that the page never
                        // misses lines that arrive after it.
                        let dump = StderrMsg { reset: true, lines: s.stderr.iter().cloned().collect() };
                        let _ = tx.try_send(Outgoing::Text(Arc::from(spectator::envelope("stderr", &dump))));
                        s.pages.push((conn_id, tx));
                        // A page opened while the room is paused still
                        // shows the player's seat and board at once.
                        send_view(s, seat, &self.cfg.name, &self.boards[seat]);
                    }
                }
                let _ = reply.send(Ok(seat));
                self.publish(false);
            }
            RoomInput::Detach { player_id, conn_id } => {
                if let Some(seat) = self.seat_of(&player_id) {
                    let s = &mut self.seats[seat];
                    if s.bot.as_ref().is_some_and(|b| b.id == conn_id) {
                        s.bot = None;
                        s.note(tick, "", "bot disconnected".to_string());
                    }
                    s.pages.retain(|(id, _)| *id != conn_id);
                    // A game whose absent players leave lets them go only
                    // after `ABSENT_STEP_OUT_MS` (see the tick).
                    s.last_connected = Instant::now();
                    self.publish(false);
                }
            }
            RoomInput::Answer { player_id, conn_id, text } => {
                let Some(seat) = self.seat_of(&player_id) else { return };
                let s = &mut self.seats[seat];
                match &mut s.bot {
                    Some(b) if b.id == conn_id && b.code => {}
                    Some(b) if b.id == conn_id && b.awaiting => {
                        b.awaiting = false;
                        let note = self.game.describe_command(seat, &text);
                        s.note(tick, &text, note);
                        s.pending = Some(Command::Text(text));
                    }
                    Some(b) if b.id == conn_id => {
                        s.note(tick, &text, "dropped: one answer per board".to_string());
                    }
                    _ => {}
                }
            }
            RoomInput::Key { player_id, text } => {
                let Some(seat) = self.seat_of(&player_id) else { return };
                let note = format!("from the page: {}", self.game.describe_command(seat, &text));
                let s = &mut self.seats[seat];
                s.note(tick, &text, note);
                s.pending = Some(Command::Text(text));
                self.start_when_ready(seat);
            }
            RoomInput::CodeAnswer { player_id, conn_id, command, text, note } => {
                let Some(seat) = self.seat_of(&player_id) else { return };
                let s = &mut self.seats[seat];
                if let Some(b) = &mut s.bot
                    && b.id == conn_id
                    && b.code
                    && b.awaiting
                {
                    b.awaiting = false;
                    s.note(tick, &text, note);
                    s.pending = command;
                }
            }
            RoomInput::Stderr { player_id, lines } => {
                let Some(seat) = self.seat_of(&player_id) else { return };
                // Written while the program chose its move for the next tick.
                if let Some(ticks) = self.game.recorded_ticks() {
                    self.stderr_log.add(ticks + 1, seat, &lines);
                }
                let s = &mut self.seats[seat];
                for line in &lines {
                    if s.stderr.len() == STDERR_LINES_MAX {
                        s.stderr.pop_front();
                    }
                    s.stderr.push_back(line.clone());
                }
                let msg: Arc<str> = Arc::from(spectator::envelope("stderr", &StderrMsg { reset: false, lines }));
                for (_, tx) in &s.pages {
                    let _ = tx.try_send(Outgoing::Text(msg.clone()));
                }
            }
            RoomInput::Note { player_id, note } => {
                if let Some(seat) = self.seat_of(&player_id) {
                    self.seats[seat].note(tick, "", note);
                }
            }
            RoomInput::Pause(p) => {
                self.cfg.paused = p;
                self.publish(true);
            }
            RoomInput::Kick { player_id, close: (code, reason), reply } => {
                let found = self.seat_of(&player_id);
                if let Some(seat) = found {
                    self.seats[seat].close_all(code, &reason);
                    self.release_seat(seat);
                    self.publish(false);
                }
                let _ = reply.send(found.is_some());
            }
            RoomInput::ResetScores => {
                // Sent after the store's reset: the count is read afresh.
                self.score_epoch = None;
                self.scores_were_reset();
            }
            RoomInput::SetTick(_) | RoomInput::Shutdown(_) | RoomInput::Moved | RoomInput::Close(_) => {
                unreachable!("handled in run")
            }
        }
    }

    /// A key from the page of the person in `seat`: between two games of a
    /// room that seats newcomers only there (the duel, Multisnake), the
    /// person is ready, and the next game starts at the next tick once
    /// every person seated at a page is. Bots, programs and people who
    /// are not at their page never hold a game back.
    fn start_when_ready(&mut self, seat: usize) {
        if !self.game.joins_between_games() || !self.game.between_games() {
            return;
        }
        self.seats[seat].ready = true;
        let waits_for = |s: &Seat| matches!(s.holder, Holder::Player(_)) && s.bot.is_none() && !s.pages.is_empty() && !s.ready;
        if self.seats.iter().any(waits_for) {
            let tick = self.game.tick();
            self.seats[seat].note(tick, "", "ready: the next game starts when everyone seated has pressed a key".to_string());
            return;
        }
        if self.game.start_next_game_now() {
            let tick = self.game.tick();
            self.seats[seat].note(tick, "", "everyone is ready: the next game starts now".to_string());
        }
    }

    /// Gives the player a seat that is empty or held by a built-in bot; the
    /// snake starts afresh at the next tick.
    /// A person (`person`: from their page) who sits down in the middle
    /// of a game that newcomers join only between games takes over at the
    /// next one: the seat's bot plays on until then.
    fn take_seat(&mut self, player: PlayerRef, person: bool) -> Option<usize> {
        let seat = self
            .seats
            .iter()
            .position(|s| matches!(s.holder, Holder::Empty))
            .or_else(|| self.seats.iter().position(|s| matches!(s.holder, Holder::Builtin { .. })))?;
        let s = &mut self.seats[seat];
        let old = std::mem::replace(&mut s.holder, Holder::Player(player));
        s.ready = false;
        // A game that has not played its first turn is one to join.
        if person
            && self.game.joins_between_games()
            && !self.game.between_games()
            && self.game.recorded_ticks().is_some_and(|t| t > 0)
            && let Holder::Builtin { name, bot } = old
        {
            s.stand_in = Some((name, bot));
            s.pending = None;
            s.log.clear();
            s.stderr.clear();
            s.seated_from = self.game.score(seat);
            s.baseline = s.seated_from;
            return Some(seat);
        }
        s.pending = None;
        s.log.clear();
        s.stderr.clear();
        self.game.set_present(seat, false);
        self.game.set_present(seat, true);
        // After the snake's fresh start, which in some games resets its
        // score: the player is credited from there.
        let s = &mut self.seats[seat];
        // A record (the longest length) counts whole from the start.
        s.baseline = if self.game.score_is_record() { 0 } else { self.game.score(seat) };
        s.seated_from = s.baseline;
        Some(seat)
    }

    fn release_seat(&mut self, seat: usize) {
        let holder = builtin_holder(&self.game, &self.cfg, self.cfg.seed ^ self.game.tick(), seat);
        let s = &mut self.seats[seat];
        s.holder = holder;
        s.pending = None;
        s.log.clear();
        s.stderr.clear();
        s.bot = None;
        s.pages.clear();
        s.stand_in = None;
        s.ready = false;
        let present = !matches!(s.holder, Holder::Empty);
        self.game.set_present(seat, false);
        self.game.set_present(seat, present);
        self.seats[seat].seated_from = if self.game.score_is_record() { 0 } else { self.game.score(seat) };
    }

    fn tick(&mut self) {
        let started = Instant::now();
        let mut commands = vec![None; self.seats.len()];
        if self.game.between_games() {
            // The people who waited for the next game play it, counted
            // from there.
            for (i, s) in self.seats.iter_mut().enumerate() {
                if s.stand_in.take().is_some() {
                    s.seated_from = self.game.score(i);
                    s.baseline = s.seated_from;
                }
            }
        } else {
            // A key pressed before this game says nothing about the next.
            for s in &mut self.seats {
                s.ready = false;
            }
        }
        for (i, s) in self.seats.iter_mut().enumerate() {
            if let Some((_, bot)) = &mut s.stand_in {
                s.pending = None;
                commands[i] = self.game.asks(i).then(|| Command::Text(bot(&self.game.bot_message(&self.boards[i]))));
                continue;
            }
            commands[i] = match &mut s.holder {
                Holder::Builtin { bot, .. } => {
                    self.game.asks(i).then(|| Command::Text(bot(&self.game.bot_message(&self.boards[i]))))
                }
                Holder::Player(_) => s.pending.take(),
                Holder::Empty => None,
            };
        }
        let mut report = self.game.step(&commands);
        self.account(&report);
        if let Some(finished) = report.finished.take() {
            self.keep(finished);
        } else if self.game.recorded_ticks().is_none() {
            // Between games (or a game too long to keep): nothing to log.
            self.stderr_log.take();
        }
        // A result names the seats' holders when the game ends: a person
        // who sits down afterwards did not play it.
        if let Some(parts) = self.game.last_result()
            && self.result_text.as_ref().is_none_or(|(known, _)| known.as_slice() != parts)
        {
            let parts = parts.to_vec();
            let text = self.sentence(&parts);
            self.result_text = Some((parts, text));
        }
        let tick = self.game.tick();
        for (seat, note) in &report.seat_notes {
            if let Some(s) = self.seats.get_mut(*seat)
                && matches!(s.holder, Holder::Player(_))
            {
                s.note(tick, "", note.clone());
            }
        }
        self.boards = self.game.boards();
        let probe = TickProbe::new(started, self.cfg.latency.clone());
        let release_after = if self.game.between_games() {
            Duration::from_millis(self.cfg.release_after_ms.min(ABSENT_BETWEEN_GAMES_RELEASE_MS))
        } else {
            Duration::from_millis(self.cfg.release_after_ms)
        };
        let step_out_after = Duration::from_millis(ABSENT_STEP_OUT_MS);
        let mut released = Vec::new();
        for (i, s) in self.seats.iter_mut().enumerate() {
            if let Some(b) = &mut s.bot
                && !b.awaiting
            {
                // A seat with no move to make gets nothing (a program is
                // told to end); otherwise one board, then wait for its answer.
                let (out, asks) = if b.code {
                    match self.game.process_ask(i) {
                        Some(a) => (Some(Outgoing::Ask(Arc::new(a))), true),
                        None => (Some(Outgoing::Idle), false),
                    }
                } else if self.game.asks(i) {
                    let msg: Arc<str> = Arc::from(self.game.bot_message(&self.boards[i]));
                    (Some(Outgoing::Board(msg, probe.clone())), true)
                } else {
                    (None, false)
                };
                if let Some(out) = out {
                    match b.tx.try_send(out) {
                        Ok(()) => b.awaiting = asks,
                        Err(mpsc::error::TrySendError::Closed(_)) => s.bot = None,
                        Err(mpsc::error::TrySendError::Full(_)) => {}
                    }
                }
            }
            send_view(s, i, &self.cfg.name, &self.boards[i]);
            let absent_for = (matches!(s.holder, Holder::Player(_)) && s.bot.is_none() && s.pages.is_empty()).then(|| s.last_connected.elapsed());
            if absent_for.is_some_and(|t| t > step_out_after) && self.game.absent_players_leave() {
                self.game.set_present(i, false);
            }
            if absent_for.is_some_and(|t| t > release_after) {
                released.push(i);
            }
        }
        for i in released {
            self.release_seat(i);
        }
        self.events = report.notes.iter().map(|n| self.sentence(n)).collect();
    }

    /// Stores a finished game as a replay, named after the seats' holders
    /// now, with its stderr log. The write runs on its own task: the tick
    /// does not wait for the database. A game of built-in bots only then
    /// prunes the room's older such games to `bot_games_kept`; a game with
    /// players prunes each one's older games to `games_kept_per_player`.
    fn keep(&mut self, finished: FinishedGame) {
        // A seat a stand-in played to the end is the bot's.
        let labels: Vec<String> = (0..self.seats.len())
            .map(|i| self.seats[i].stand_in.as_ref().map_or_else(|| self.name_of(i), |(name, _)| name.clone()))
            .collect();
        let players = self
            .seats
            .iter()
            .map(|s| if s.stand_in.is_some() { "" } else { s.player_id().unwrap_or("") }.to_string())
            .collect();
        let result = snakepit_store::spec::MatchResult {
            scores: finished.scores.clone(),
            places: finished.places.clone(),
            ticks: finished.ticks,
            error: None,
            labels: labels.clone(),
        };
        let replay = snakepit_store::NewReplay {
            game: self.game.name().to_string(),
            origin: self.cfg.name.clone(),
            players,
            result: serde_json::to_string(&result).expect("a result serialises"),
            body: finished.replay_text(labels),
            stderr_log: self.stderr_log.take(),
        };
        let (store, room, keep) = (self.store.clone(), self.cfg.name.clone(), self.cfg.bot_games_kept);
        let per_player = self.cfg.games_kept_per_player;
        tokio::spawn(async move {
            if let Err(e) = store.save_replay(&replay).await {
                tracing::error!(room = %room, "keeping a finished game failed: {e}");
            } else if replay.is_unowned() {
                if let Err(e) = store.prune_unowned_replays(&room, keep).await {
                    tracing::error!(room = %room, "pruning old games of built-in bots failed: {e}");
                }
            } else if let Err(e) = store.prune_players_replays(&replay.players, per_player).await {
                tracing::error!(room = %room, "pruning players' old games failed: {e}");
            }
        });
    }

    /// Turns score changes and the tick's report into per-player deltas.
    fn account(&mut self, report: &TickReport) {
        let record = self.game.score_is_record();
        for (i, s) in self.seats.iter_mut().enumerate() {
            let Holder::Player(p) = &s.holder else { continue };
            let now = self.game.score(i);
            // What a stand-in does is not the person's.
            if s.stand_in.is_some() {
                s.baseline = now;
                continue;
            }
            let count = |seats: &[usize]| seats.iter().filter(|&&x| x == i).count() as i64;
            let d = ScoreDelta {
                player_id: p.id.clone(),
                score: if record { 0 } else { now - s.baseline },
                deaths: count(&report.deaths),
                kills: count(&report.kills),
                wins: count(&report.wins),
                // A new record of this seating; the store keeps the best.
                record: if record && now > s.baseline { now } else { 0 },
                floored: self.game.score_floored(),
            };
            s.baseline = if record { s.baseline.max(now) } else { now };
            if d.score == 0 && d.deaths == 0 && d.kills == 0 && d.wins == 0 && d.record == 0 {
                continue;
            }
            match self.deltas.iter_mut().find(|x| x.player_id == d.player_id) {
                Some(x) => {
                    x.score += d.score;
                    x.deaths += d.deaths;
                    x.kills += d.kills;
                    x.wins += d.wins;
                    x.record = x.record.max(d.record);
                }
                None => self.deltas.push(d),
            }
        }
    }

    /// Forgets pending points and counts from the seats' scores now, after
    /// the game's scores were reset in the store.
    fn scores_were_reset(&mut self) {
        self.deltas.clear();
        let record = self.game.score_is_record();
        for (i, s) in self.seats.iter_mut().enumerate() {
            // A record is written again at the next tick.
            s.baseline = if record { 0 } else { self.game.score(i) };
            s.seated_from = s.baseline;
        }
    }

    async fn flush_scores(&mut self, now: bool) {
        if self.deltas.is_empty() || (!now && self.last_flush.elapsed() < Duration::from_millis(SCORE_FLUSH_MS)) {
            return;
        }
        self.last_flush = Instant::now();
        let game = self.game.name();
        let epoch = match self.score_epoch {
            Some(epoch) => epoch,
            None => match self.store.score_epoch(game).await {
                Ok(epoch) => *self.score_epoch.insert(epoch),
                Err(e) => {
                    tracing::error!(room = %self.cfg.name, "reading the scores' reset count failed, will retry: {e}");
                    return;
                }
            },
        };
        let deltas = std::mem::take(&mut self.deltas);
        match self.store.add_scores_at(game, &deltas, epoch).await {
            Ok(ScoresWritten::Applied) => {}
            Ok(ScoresWritten::Reset { epoch }) => {
                tracing::info!(room = %self.cfg.name, "the scores were reset: pending points dropped");
                self.score_epoch = Some(epoch);
                self.scores_were_reset();
            }
            Err(e) => {
                tracing::error!(room = %self.cfg.name, "writing scores failed, will retry: {e}");
                self.deltas.extend(deltas);
            }
        }
    }

    fn name_of(&self, seat: usize) -> String {
        match &self.seats[seat].holder {
            Holder::Empty => format!("seat {}", seat + 1),
            Holder::Builtin { name, .. } => name.clone(),
            Holder::Player(p) => p.name.clone(),
        }
    }

    fn sentence(&self, note: &[NotePart]) -> String {
        note.iter()
            .map(|p| match p {
                NotePart::Text(t) => t.clone(),
                NotePart::Seat(i) => self.name_of(*i),
            })
            .collect()
    }

    fn publish(&mut self, always: bool) {
        let summary = RoomSummary {
            name: self.cfg.name.clone(),
            game: self.game.name().to_string(),
            tick_ms: self.cfg.tick_ms,
            paused: self.cfg.paused,
            tick: self.game.tick(),
            round: self.game.round(),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| SeatSummary {
                    name: if matches!(s.holder, Holder::Empty) { String::new() } else { self.name_of(i) },
                    bot: matches!(s.holder, Holder::Builtin { .. }),
                    connected: s.bot.is_some(),
                    score: self.game.score(i) - s.seated_from,
                })
                .collect(),
            free_seats: self.seats.iter().filter(|s| !matches!(s.holder, Holder::Player(_))).count(),
            starts_in_ms: self.game.ticks_to_next_start().saturating_mul(self.cfg.tick_ms),
        };
        self.summary.send_replace(summary);
        if !always && self.frames.receiver_count() == 0 {
            return;
        }
        let mut view = self.game.view();
        let result = view.result.take().map(|r| match &self.result_text {
            Some((known, text)) if *known == r => text.clone(),
            _ => self.sentence(&r),
        });
        for snake in &mut view.snakes {
            snake.name = self.name_of(snake.seat);
            let seat = &self.seats[snake.seat];
            snake.bot = matches!(seat.holder, Holder::Builtin { .. }) || seat.stand_in.is_some();
            snake.score -= self.seats[snake.seat].seated_from;
            snake.color = COLORS[snake.seat % COLORS.len()].to_string();
        }
        let frame = Frame {
            room: self.cfg.name.clone(),
            game: self.game.name().to_string(),
            tick: self.game.tick(),
            round: self.game.round(),
            phase: view.phase,
            phase_ticks: view.phase_ticks,
            phase_ticks_max: view.phase_ticks_max,
            paused: self.cfg.paused,
            tick_ms: self.cfg.tick_ms,
            size: view.size,
            width: view.width,
            height: view.height,
            cells: view.cells,
            snakes: view.snakes,
            pieces: view.pieces,
            players: (0..self.seats.len())
                .filter(|&i| !matches!(self.seats[i].holder, Holder::Empty))
                .map(|i| spectator::PlayerInfo {
                    seat: i,
                    name: self.name_of(i),
                    bot: matches!(self.seats[i].holder, Holder::Builtin { .. }),
                    color: COLORS[i % COLORS.len()].to_string(),
                    score: self.game.score(i) - self.seats[i].seated_from,
                })
                .collect(),
            events: self.events.clone(),
            result,
            starts_in_ms: self.game.ticks_to_next_start().saturating_mul(self.cfg.tick_ms),
        };
        self.frames.send_replace(Arc::from(spectator::envelope("frame", &frame)));
    }
}

/// Sends a seat's private view to its open pages.
fn send_view(s: &mut Seat, seat: usize, room: &str, board: &str) {
    let Holder::Player(p) = &s.holder else { return };
    if s.pages.is_empty() {
        return;
    }
    let view = PlayerView {
        name: p.name.clone(),
        room: room.to_string(),
        game: p.game.clone(),
        seat,
        board: board.to_string(),
        log: s.log.iter().cloned().collect(),
        bot_connected: s.bot.is_some(),
        program_playing: s.bot.as_ref().is_some_and(|b| b.code),
    };
    let msg: Arc<str> = Arc::from(spectator::envelope("player", &view));
    s.pages.retain(|(_, tx)| !matches!(tx.try_send(Outgoing::Text(msg.clone())), Err(mpsc::error::TrySendError::Closed(_))));
}


fn new_interval(ms: u64) -> tokio::time::Interval {
    let period = Duration::from_millis(ms.clamp(MIN_TICK_MS, MAX_TICK_MS));
    let mut i = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    // A room that falls behind (a busy machine) skips ticks rather than
    // bursting to catch up, as Codenjoy's fixed-rate timer effectively does.
    i.set_missed_tick_behavior(MissedTickBehavior::Delay);
    i
}
