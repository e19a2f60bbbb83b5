//! What browsers receive: spectator frames and player-page updates.
//!
//! Every message on a browser WebSocket is one JSON object
//! `{"type": "...", "data": {...}}`:
//!
//! - `frame` ([`Frame`]): the room after a tick, sent to spectators and to
//!   player pages. `cells` is the board's background, `size * size`
//!   characters in the map glyphs (`☼` wall, `#` start floor, `○` apple,
//!   `●` stone, `$` gold, `®` fury pill, `©` flying pill, space empty), top
//!   row first; snakes are listed separately so that the page can colour
//!   them. The stdin/stdout arenas (`carrots`, `duel`, `multisnake`) have
//!   `width * height` cells instead, in their own glyphs (`.` free, `#`
//!   wall, `o` apple, `+` and `-` signs), and a `result` line once a game
//!   has ended. A frame never contains a player's code, nor the stderr of
//!   a player's program.
//! - `player` ([`PlayerView`]): private to a player's own page: their
//!   board string exactly as their bot receives it, and their recent answers
//!   with what the server made of them.
//! - `stderr` ([`StderrMsg`]): private to a player's own page: what their
//!   uploaded program wrote to stderr, and its faults.
//! - `error` ([`ErrorMsg`]): why the server is about to close the socket.

use serde::Serialize;
use snakepit_engine::snakebattle::{Item, Phase, SnakeBattle, Terrain};

/// The `{type, data}` envelope.
#[derive(Serialize)]
pub struct Envelope<'a, T: Serialize> {
    /// Message kind.
    #[serde(rename = "type")]
    pub kind: &'a str,
    /// Payload.
    pub data: T,
}

/// Serialises a message in its envelope.
pub fn envelope<T: Serialize>(kind: &str, data: &T) -> String {
    serde_json::to_string(&Envelope { kind, data }).expect("spectator messages serialise")
}

/// One snake as spectators see it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SnakeView {
    /// Seat index.
    pub seat: usize,
    /// Player or bot name.
    pub name: String,
    /// Whether a built-in bot holds the seat.
    pub bot: bool,
    /// CSS colour.
    pub color: String,
    /// Alive (a dead snake is shown for one frame).
    pub alive: bool,
    /// Waiting for the round to start.
    pub sleeping: bool,
    /// Fury ticks left.
    pub fury: u32,
    /// Flying ticks left.
    pub flying: u32,
    /// Stones carried.
    pub stones: u32,
    /// Score in this room's game.
    pub score: i64,
    /// Cells, head first, as `[x, y]`.
    pub body: Vec<[i32; 2]>,
    /// Direction of the head: `up`, `right`, `down` or `left`.
    pub dir: &'static str,
}

/// One seated player or bot.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PlayerInfo {
    /// Seat index.
    pub seat: usize,
    /// Name.
    pub name: String,
    /// A built-in bot.
    pub bot: bool,
    /// CSS colour.
    pub color: String,
    /// Score in this room's game.
    pub score: i64,
}

/// A room after a tick.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Frame {
    /// Room name.
    pub room: String,
    /// Game name.
    pub game: String,
    /// Ticks since the room's game began.
    pub tick: u64,
    /// Round number (0 before the first).
    pub round: u32,
    /// `countdown` or `running`; the duel and Multisnake rooms also say
    /// `over` (a finished game is shown before the next) and `waiting` (the
    /// next game starts once more seats are taken).
    pub phase: &'static str,
    /// Ticks left in the countdown, or ticks played in the round.
    pub phase_ticks: u32,
    /// The most ticks a round or game runs (0: no limit to show).
    pub phase_ticks_max: u32,
    /// Whether an admin paused the room.
    pub paused: bool,
    /// Tick period.
    pub tick_ms: u64,
    /// Board side (the larger of `width` and `height`).
    pub size: usize,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Background glyphs, `width * height` characters.
    pub cells: String,
    /// Snakes by seat (absent seats are left out); empty in games
    /// without snakes.
    pub snakes: Vec<SnakeView>,
    /// Pieces as `[x, y, seat]`, in territory games (Hex); empty otherwise.
    pub pieces: Vec<[i32; 3]>,
    /// Everyone seated, by seat: name, colour, score.
    pub players: Vec<PlayerInfo>,
    /// Notable events of the tick, as short sentences.
    pub events: Vec<String>,
    /// How the last game of the room ended (arenas with games that end).
    pub result: Option<String>,
    /// Milliseconds, at most, until a player seated now plays (the next
    /// round or game where newcomers wait for one; 0 where they play at once).
    pub starts_in_ms: u64,
}

/// The background of a SnakeBattle board: terrain and items.
pub fn snakebattle_cells(game: &SnakeBattle) -> String {
    let map = game.map();
    let mut s = String::with_capacity(map.size * map.size * 2);
    for (t, it) in map.terrain.iter().zip(game.items()) {
        s.push(match (t, it) {
            (Terrain::Wall, _) => '☼',
            (Terrain::StartFloor, _) => '#',
            (_, Some(Item::Apple)) => '○',
            (_, Some(Item::Stone)) => '●',
            (_, Some(Item::Gold)) => '$',
            (_, Some(Item::FuryPill)) => '®',
            (_, Some(Item::FlyingPill)) => '©',
            (Terrain::Empty, None) => ' ',
        });
    }
    s
}

/// Phase name and its tick count.
pub fn phase_view(phase: Phase) -> (&'static str, u32) {
    match phase {
        Phase::Countdown { left } => ("countdown", left),
        Phase::Running { tick } => ("running", tick),
    }
}

/// A player's recent answer.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct AnswerLog {
    /// Tick at which it arrived.
    pub tick: u64,
    /// The text (cut to 200 characters).
    pub text: String,
    /// What the server did with it.
    pub note: String,
}

/// Private view for a player's own page.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PlayerView {
    /// Player name.
    pub name: String,
    /// Room.
    pub room: String,
    /// The game the player registered for (the rooms they may move to).
    pub game: String,
    /// Seat in the room.
    pub seat: usize,
    /// The board exactly as the player's bot receives it (without `board=`).
    pub board: String,
    /// Recent answers, newest last.
    pub log: Vec<AnswerLog>,
    /// Whether a bot is connected for this player (a WebSocket bot or the
    /// player's saved program).
    pub bot_connected: bool,
    /// Whether what plays the seat is the player's saved program.
    pub program_playing: bool,
}

/// Lines of a player's program's stderr and faults, for their page only.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct StderrMsg {
    /// The page should forget what it showed before (sent on connect).
    pub reset: bool,
    /// New lines, oldest first.
    pub lines: Vec<String>,
}

/// Sent before the server closes a browser socket.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ErrorMsg {
    /// Human-readable reason.
    pub message: String,
}
