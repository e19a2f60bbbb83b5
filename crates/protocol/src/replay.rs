//! The replay file: everything needed to play a game again, as JSON lines.
//!
//! A game is a function of `(game, settings, map, seed, moves)`, so a replay
//! stores exactly that, plus the engine version that recorded it, the
//! players' labels, and a checksum of the state after every tick so that a
//! re-simulation can name the first tick that differs. It stores nothing
//! else that can be derived (no boards, no events, no scores).
//!
//! # Format, version 1
//!
//! UTF-8 text, one JSON object per line, every line ending in `\n`.
//!
//! Line 1 is the header, with its keys in this order:
//!
//! ```text
//! {"snakepit_replay":1,"game":"snakebattle","engine":"5","seed":7,"seats":2,
//!  "players":["builtin:greedy","builtin:random"],
//!  "settings":{"profile":"codebattle","fury_ticks":"15",...},
//!  "map":["☼☼☼☼☼","☼#  ☼",...]}
//! ```
//!
//! (shown wrapped; in the file it is one line). `snakepit_replay` is the
//! format version; `engine` is the rules version
//! ([`snakepit_engine::ENGINE_VERSION`]) that recorded the game; `players`
//! has one label per seat; `settings` holds every setting as a string, in
//! the game's own fixed order; `map` is the starting map, one string per row,
//! in the game's map glyphs.
//!
//! Line `t + 1` holds tick `t` (ticks count from 1, with no gaps):
//!
//! ```text
//! {"t":1,"m":["R","AL"],"c":"9f0c2a6d11e3b870"}
//! ```
//!
//! `m` has one action per seat, in the game's compact text form
//! ([`Game::action_to_text`]); `c` is [`Game::checksum`] of the state after
//! the tick, as 16 lower-case hex digits.
//!
//! **Invariant:** writing is byte-deterministic. The same game with the same
//! moves gives the same bytes: keys are written in a fixed order and there are
//! no timestamps, so replays can be compared with `cmp`.
//!
//! Two optional keys record games that a room plays rather than a match
//! (see [`ReplayGame::position`] and [`ReplayGame::set_seat_present`]):
//! `"start"` in the header, after `map`, holds the game's position when the
//! replay begins in the middle of an endless game (the game is rebuilt from
//! settings, seed and that position, as the room rebuilt it); `"p"` in a
//! tick line, between `m` and `c`, lists `[seat, present]` changes applied
//! in that order before the tick (a player who sat down or left). Files
//! without them read as before.
//!
//! Reading is strict: an unknown key, a missing key, a tick out of order or a
//! move that does not parse is an error naming its line, never a guess.

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use snakepit_engine::snakebattle::{Item, Map, Settings, SnakeBattle, Terrain};
use snakepit_engine::{ENGINE_VERSION, Game, ParseActionError};
use std::fmt;
use std::io::{self, Write};
use std::marker::PhantomData;

/// The format version this module reads and writes.
pub const FORMAT_VERSION: u64 = 1;

/// A game whose setup a replay can record and rebuild.
///
/// [`Game`] covers the ticks; this adds the part before the first tick, which
/// differs from game to game (each has its own settings and maps).
pub trait ReplayGame: Game + Sized {
    /// The name in the header's `game` key.
    const NAME: &'static str;

    /// Every setting as `(key, value)`, in a fixed order.
    fn settings_pairs(&self) -> Vec<(String, String)>;

    /// The starting map, one string per row.
    fn map_rows(&self) -> Vec<String>;

    /// Builds the game as it was before its first tick.
    fn from_setup(settings: &[(String, String)], map: &[String], seats: usize, seed: u64) -> Result<Self, SetupError>;

    /// Whether seats of this game are taken and left between ticks (a
    /// room's SnakeBattle, Hex and CodeCarrots), so that tick lines may
    /// carry `"p"`.
    const SEATS_COME_AND_GO: bool = false;

    /// Seats or unseats a player between two ticks, as a room does.
    fn set_seat_present(&mut self, _seat: usize, _present: bool) {}

    /// The state now as a replay's `"start"`, for games that never end
    /// (CodeCarrots): a replay of a stretch of such a game begins here.
    /// `None` for games whose replays start before their first tick.
    fn position(&self) -> Option<serde_json::Value> {
        None
    }

    /// Builds the game from settings, seed and a `position` read from a
    /// header's `"start"`. A room that keeps a stretch of an endless game
    /// rebuilds its running game with this very function, so that the
    /// replay and the room go on identically.
    fn from_position(
        _settings: &[(String, String)],
        _map: &[String],
        _seats: usize,
        _seed: u64,
        _position: &serde_json::Value,
    ) -> Result<Self, SetupError> {
        Err(SetupError::Game(format!("a {} replay cannot begin from a position", Self::NAME)))
    }
}

/// A header whose settings, map or seat count do not make a game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SetupError {
    /// The settings were rejected; the text says why.
    Settings(String),
    /// A map row is defective.
    Map {
        /// 1-based row of the map.
        row: usize,
        /// What is wrong with it.
        message: String,
    },
    /// Settings and map are fine, but the game cannot start with them.
    Game(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Settings(m) => write!(f, "\"settings\": {m}"),
            SetupError::Map { row, message } => write!(f, "\"map\" row {row}: {message}"),
            SetupError::Game(m) => write!(f, "the game cannot start: {m}"),
        }
    }
}

impl std::error::Error for SetupError {}

impl ReplayGame for SnakeBattle {
    const NAME: &'static str = "snakebattle";

    fn settings_pairs(&self) -> Vec<(String, String)> {
        self.settings().to_pairs().into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    }

    fn map_rows(&self) -> Vec<String> {
        let map = self.map();
        (0..map.size)
            .map(|y| {
                (0..map.size)
                    .map(|x| {
                        let i = y * map.size + x;
                        match (map.terrain[i], map.items[i]) {
                            (Terrain::Wall, _) => '☼',
                            (Terrain::StartFloor, _) => '#',
                            (Terrain::Empty, None) => ' ',
                            (Terrain::Empty, Some(Item::Apple)) => '○',
                            (Terrain::Empty, Some(Item::Stone)) => '●',
                            (Terrain::Empty, Some(Item::Gold)) => '$',
                            (Terrain::Empty, Some(Item::FuryPill)) => '®',
                            (Terrain::Empty, Some(Item::FlyingPill)) => '©',
                        }
                    })
                    .collect()
            })
            .collect()
    }

    fn from_setup(settings: &[(String, String)], map: &[String], seats: usize, seed: u64) -> Result<Self, SetupError> {
        let settings = Settings::from_pairs(settings.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .map_err(|e| SetupError::Settings(e.to_string()))?;
        let map = Map::parse(&map.join("\n")).map_err(|e| {
            // The map's own message starts with "line N: "; in a replay the
            // line is the header's, so the map line becomes a row.
            let full = e.to_string();
            let message = full.strip_prefix(&format!("line {}: ", e.line)).unwrap_or(&full).to_string();
            SetupError::Map { row: e.line, message }
        })?;
        SnakeBattle::new(settings, map, seats, seed).map_err(|e| SetupError::Game(e.to_string()))
    }

    const SEATS_COME_AND_GO: bool = true;

    fn set_seat_present(&mut self, seat: usize, present: bool) {
        self.set_present(seat, present);
    }
}

/// The first line of a replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The game's name, [`ReplayGame::NAME`].
    pub game: String,
    /// The engine version that recorded the game.
    pub engine: String,
    /// The game's seed.
    pub seed: u64,
    /// Number of seats.
    pub seats: usize,
    /// One label per seat, for people; the rules never read them.
    pub players: Vec<String>,
    /// Every setting, in the game's order.
    pub settings: Vec<(String, String)>,
    /// The starting map, row by row.
    pub map: Vec<String>,
    /// The position the replay begins from, for a stretch of an endless
    /// game ([`ReplayGame::position`]); `None` from the game's start.
    pub start: Option<serde_json::Value>,
}

impl Header {
    /// The header of a game that has not played a tick yet.
    pub fn of_game<G: ReplayGame>(game: &G, seed: u64, players: &[String]) -> Header {
        Header {
            game: G::NAME.to_string(),
            engine: ENGINE_VERSION.to_string(),
            seed,
            seats: game.seats(),
            players: players.to_vec(),
            settings: game.settings_pairs(),
            map: game.map_rows(),
            start: None,
        }
    }

    /// The header of a replay that begins where `game` is now: a game
    /// rebuilt with [`ReplayGame::from_position`] from `seed` and not
    /// stepped since. Before the first tick, the same as [`Header::of_game`].
    pub fn of_game_now<G: ReplayGame>(game: &G, seed: u64, players: &[String]) -> Header {
        let mut header = Header::of_game(game, seed, players);
        if game.tick() > 0 {
            header.start = game.position();
        }
        header
    }

    /// The header line, without its `\n`.
    pub fn to_line(&self) -> String {
        let out = HeaderOut {
            snakepit_replay: FORMAT_VERSION,
            game: &self.game,
            engine: &self.engine,
            seed: self.seed,
            seats: self.seats,
            players: &self.players,
            settings: PairsOut(&self.settings),
            map: &self.map,
            start: self.start.as_ref(),
        };
        serde_json::to_string(&out).expect("a header always serializes")
    }

    /// Reads the header from the first line of a replay file's text. This is
    /// enough to learn which game to re-simulate.
    pub fn parse(text: &str) -> Result<Header, ReplayError> {
        let first = text.split('\n').next().unwrap_or("");
        let first = first.strip_suffix('\r').unwrap_or(first);
        if first.is_empty() {
            let problem = if text.is_empty() { ReplayProblem::Empty } else { ReplayProblem::BlankLine };
            return Err(ReplayError { line: 1, problem });
        }
        Header::parse_line(first).map_err(|problem| ReplayError { line: 1, problem })
    }

    fn parse_line(line: &str) -> Result<Header, ReplayProblem> {
        // A generic value first, so that another format version is reported
        // as such rather than as an unknown key. The header itself is then
        // read from the text again, because the generic value sorts the
        // settings and merges repeated keys.
        let value: serde_json::Value = serde_json::from_str(line).map_err(json_problem)?;
        let version = value.as_object().and_then(|o| o.get("snakepit_replay")).ok_or(ReplayProblem::NotAReplay)?;
        if version.as_u64() != Some(FORMAT_VERSION) {
            return Err(ReplayProblem::Version(version.to_string()));
        }
        let h: HeaderIn = serde_json::from_str(line).map_err(json_problem)?;
        if h.players.len() != h.seats {
            return Err(ReplayProblem::Players { players: h.players.len(), seats: h.seats });
        }
        let mut settings = h.settings.0;
        // Rules that became settings in a later engine: an older replay
        // spells out the rule it was played by, so that it plays again the
        // same as far as the other changes allow.
        let old_rules: &[(&str, &str, &str, &str)] = &[
            // Engine 1 kept dead bodies until the respawn.
            ("1", "carrots", "bodies_stay", "true"),
            // Engines 1 and 2 had upstream's annihilation in every Hex
            // profile, and SnakeBattle's objects came from the dice alone.
            ("1", "hex", "annihilation", "true"),
            ("2", "hex", "annihilation", "true"),
            ("1", "snakebattle", "replace_eaten", "false"),
            ("2", "snakebattle", "replace_eaten", "false"),
            // Engines 1 to 3 rolled upstream's dice in every SnakeBattle
            // profile.
            ("1", "snakebattle", "dice", "true"),
            ("2", "snakebattle", "dice", "true"),
            ("3", "snakebattle", "dice", "true"),
        ];
        for &(engine, game, key, value) in old_rules {
            if h.engine == engine && h.game == game && !settings.iter().any(|(k, _)| k == key) {
                settings.push((key.to_string(), value.to_string()));
            }
        }
        Ok(Header {
            game: h.game,
            engine: h.engine,
            seed: h.seed,
            seats: h.seats,
            players: h.players,
            settings,
            map: h.map,
            start: h.start,
        })
    }
}

/// One recorded tick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TickRecord<A> {
    /// The game's tick count after this tick; the first tick is 1, and tick
    /// `t` is on line `t + 1` of the file.
    pub tick: u64,
    /// One action per seat.
    pub moves: Vec<A>,
    /// [`Game::checksum`] after the tick.
    pub checksum: u64,
    /// Seats taken (`true`) or left before the tick, in order.
    pub presence: Vec<(usize, bool)>,
}

/// The line of one tick, without its `\n`. `actions` shorter than the number
/// of seats is padded with the default action, as [`Game::step`] reads it.
pub fn tick_line<G: Game>(tick: u64, seats: usize, actions: &[G::Action], checksum: u64) -> String {
    tick_line_with::<G>(tick, seats, &[], actions, checksum)
}

/// [`tick_line`] with the seats taken or left before the tick.
pub fn tick_line_with<G: Game>(tick: u64, seats: usize, presence: &[(usize, bool)], actions: &[G::Action], checksum: u64) -> String {
    let default = G::Action::default();
    let m: Vec<String> = (0..seats).map(|i| G::action_to_text(actions.get(i).unwrap_or(&default))).collect();
    let out = TickOut { t: tick, m: &m, p: presence, c: format!("{checksum:016x}") };
    serde_json::to_string(&out).expect("a tick always serializes")
}

/// [`tick_line_with`] and its newline, appended to `line`: the same bytes,
/// formatted by hand (a tournament writes a line per tick of every game, and
/// `fmt` with a string per move cost more than the game's rules).
fn push_tick_line<G: Game>(
    line: &mut Vec<u8>,
    text: &mut String,
    tick: u64,
    seats: usize,
    presence: &[(usize, bool)],
    actions: &[G::Action],
    checksum: u64,
) {
    let default = G::Action::default();
    line.extend_from_slice(b"{\"t\":");
    push_decimal(line, tick);
    line.extend_from_slice(b",\"m\":[");
    for i in 0..seats {
        if i > 0 {
            line.push(b',');
        }
        text.clear();
        G::push_action_text(actions.get(i).unwrap_or(&default), text);
        push_json_string(line, text);
    }
    line.push(b']');
    if !presence.is_empty() {
        line.extend_from_slice(b",\"p\":");
        serde_json::to_writer(&mut *line, presence).expect("writing to memory does not fail");
    }
    line.extend_from_slice(b",\"c\":\"");
    for k in (0..16).rev() {
        line.push(b"0123456789abcdef"[(checksum >> (4 * k) & 15) as usize]);
    }
    line.extend_from_slice(b"\"}\n");
}

/// `v` in decimal, as `serde_json` writes it.
fn push_decimal(out: &mut Vec<u8>, mut v: u64) {
    let mut digits = [0u8; 20];
    let mut n = digits.len();
    loop {
        n -= 1;
        digits[n] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[n..]);
}

/// `s` as a JSON string, as `serde_json` writes it: a string without a
/// quote, a backslash or a control character goes as it is.
fn push_json_string(out: &mut Vec<u8>, s: &str) {
    if s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        serde_json::to_writer(&mut *out, s).expect("writing to memory does not fail");
    } else {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    }
}

/// A whole replay, read and checked line by line.
#[derive(Clone, Debug)]
pub struct Replay<G: ReplayGame> {
    /// The header.
    pub header: Header,
    /// The game before its first tick, built from the header.
    pub start: G,
    /// Every tick, in order.
    pub ticks: Vec<TickRecord<G::Action>>,
}

impl<G: ReplayGame> Replay<G> {
    /// Reads a replay file's text. Every defect is reported with its line.
    pub fn parse(text: &str) -> Result<Replay<G>, ReplayError> {
        let header = Header::parse(text)?;
        if header.game != G::NAME {
            let problem = ReplayProblem::WrongGame { expected: G::NAME, found: header.game };
            return Err(ReplayError { line: 1, problem });
        }
        let start = match &header.start {
            None => G::from_setup(&header.settings, &header.map, header.seats, header.seed),
            Some(position) => G::from_position(&header.settings, &header.map, header.seats, header.seed, position),
        }
        .map_err(|e| ReplayError { line: 1, problem: ReplayProblem::Setup(e) })?;

        let mut lines: Vec<&str> = text.split('\n').collect();
        // The final `\n` leaves one empty piece behind it; that is the normal
        // end of the file, not a blank line.
        if lines.last() == Some(&"") {
            lines.pop();
        }
        let mut ticks = Vec::with_capacity(lines.len().saturating_sub(1));
        for (i, line) in lines.iter().enumerate().skip(1) {
            let line_no = i + 1;
            let line = line.strip_suffix('\r').unwrap_or(line);
            let record = parse_tick::<G>(line, ticks.len() as u64 + 1, header.seats, G::SEATS_COME_AND_GO)
                .map_err(|problem| ReplayError { line: line_no, problem })?;
            ticks.push(record);
        }
        Ok(Replay { header, start, ticks })
    }

    /// Plays the recorded moves from the start, calling `each` after every
    /// tick with the new state, the record and the tick's events, and stops
    /// at the first tick whose checksum differs from the recorded one (after
    /// calling `each` for it, so that a viewer shows the diverging tick).
    /// Returns the final state.
    pub fn resimulate(
        &self,
        mut each: impl FnMut(&G, &TickRecord<G::Action>, &[G::Event]),
    ) -> Result<G, Divergence> {
        let mut game = self.start.clone();
        for record in &self.ticks {
            for &(seat, present) in &record.presence {
                game.set_seat_present(seat, present);
            }
            let events = game.step(&record.moves);
            each(&game, record, &events);
            let computed = game.checksum_as_of(&self.header.engine);
            if computed != record.checksum {
                return Err(Divergence {
                    tick: record.tick,
                    recorded: record.checksum,
                    computed,
                    engine: self.header.engine.clone(),
                });
            }
        }
        Ok(game)
    }
}

fn parse_tick<G: Game>(line: &str, expected_tick: u64, seats: usize, come_and_go: bool) -> Result<TickRecord<G::Action>, ReplayProblem> {
    if line.is_empty() {
        return Err(ReplayProblem::BlankLine);
    }
    let t: TickIn = serde_json::from_str(line).map_err(json_problem)?;
    if t.t != expected_tick {
        return Err(ReplayProblem::TickOrder { expected: expected_tick, found: t.t });
    }
    if t.m.len() != seats {
        return Err(ReplayProblem::MoveCount { moves: t.m.len(), seats });
    }
    let moves = t
        .m
        .iter()
        .enumerate()
        .map(|(index, text)| G::action_from_text(text).map_err(|error| ReplayProblem::BadMove { index, error }))
        .collect::<Result<Vec<_>, _>>()?;
    let checksum = parse_checksum(&t.c).ok_or(ReplayProblem::BadChecksum(t.c))?;
    if !t.p.is_empty() && !come_and_go {
        return Err(ReplayProblem::Shape("\"p\": seats of this game do not come and go".to_string()));
    }
    if let Some(&(seat, _)) = t.p.iter().find(|(seat, _)| *seat >= seats) {
        return Err(ReplayProblem::Shape(format!("\"p\": seat {seat} does not exist (the game has {seats} seats)")));
    }
    Ok(TickRecord { tick: t.t, moves, checksum, presence: t.p })
}

fn parse_checksum(s: &str) -> Option<u64> {
    // from_str_radix alone would accept "+", upper case and short strings;
    // the format has exactly one spelling per value.
    let well_formed = s.len() == 16 && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    well_formed.then(|| u64::from_str_radix(s, 16).ok()).flatten()
}

fn json_problem(e: serde_json::Error) -> ReplayProblem {
    // Each line is parsed on its own, so serde's "at line 1" says nothing;
    // the column still helps.
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let message = match full.strip_suffix(&suffix) {
        Some(m) => format!("{m} (column {})", e.column()),
        None => full,
    };
    match e.classify() {
        serde_json::error::Category::Data => ReplayProblem::Shape(message),
        _ => ReplayProblem::Syntax(message),
    }
}

/// A replay file defect, with its 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// 1-based line of the defect.
    pub line: usize,
    /// What is wrong with it.
    pub problem: ReplayProblem,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}

impl std::error::Error for ReplayError {}

/// The kinds of replay file defects.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReplayProblem {
    /// The file has no bytes.
    Empty,
    /// An empty line before the end of the file.
    BlankLine,
    /// The line is not JSON (for example, it was cut short).
    Syntax(String),
    /// The line is JSON, but a key is missing, unknown or of the wrong type.
    Shape(String),
    /// The first line is not a replay header.
    NotAReplay,
    /// A format version this code does not read; holds the value as written.
    Version(String),
    /// The header names a game nobody here knows.
    UnknownGame(String),
    /// The header names another game than the one asked for.
    WrongGame {
        /// The game asked for.
        expected: &'static str,
        /// The game in the file.
        found: String,
    },
    /// `players` and `seats` disagree.
    Players {
        /// Labels in `players`.
        players: usize,
        /// The `seats` value.
        seats: usize,
    },
    /// The settings, map and seats do not make a game.
    Setup(SetupError),
    /// A tick line out of sequence.
    TickOrder {
        /// The tick this line should hold.
        expected: u64,
        /// The tick it holds.
        found: u64,
    },
    /// A tick with the wrong number of moves.
    MoveCount {
        /// Moves on the line.
        moves: usize,
        /// Seats of the game.
        seats: usize,
    },
    /// A move that is not an action of the game.
    BadMove {
        /// Its 0-based index in `m`, which is also its seat.
        index: usize,
        /// Why it does not parse.
        error: ParseActionError,
    },
    /// A checksum that is not 16 lower-case hex digits.
    BadChecksum(String),
}

impl fmt::Display for ReplayProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayProblem::Empty => write!(f, "the file is empty"),
            ReplayProblem::BlankLine => write!(f, "empty line"),
            ReplayProblem::Syntax(m) => write!(f, "not valid JSON: {m}"),
            ReplayProblem::Shape(m) => write!(f, "{m}"),
            ReplayProblem::NotAReplay => {
                write!(f, "not a snakepit replay (the first line must be an object with \"snakepit_replay\")")
            }
            ReplayProblem::Version(v) => {
                write!(f, "replay format version {v} is not supported (this snakepit reads version {FORMAT_VERSION})")
            }
            ReplayProblem::UnknownGame(g) => write!(f, "unknown game {g:?}"),
            ReplayProblem::WrongGame { expected, found } => {
                write!(f, "the replay is of game {found:?}, expected {expected:?}")
            }
            ReplayProblem::Players { players, seats } => {
                write!(f, "\"players\" has {players} names but \"seats\" is {seats}")
            }
            ReplayProblem::Setup(e) => write!(f, "{e}"),
            ReplayProblem::TickOrder { expected, found } => write!(f, "\"t\" is {found}, expected {expected}"),
            ReplayProblem::MoveCount { moves, seats } => {
                write!(f, "\"m\" has {moves} moves but the game has {seats} seats")
            }
            ReplayProblem::BadMove { index, error } => write!(f, "\"m\"[{index}]: {error}"),
            ReplayProblem::BadChecksum(c) => write!(f, "\"c\" must be 16 lower-case hex digits, not {c:?}"),
        }
    }
}

/// A re-simulation that does not match its recording.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The first tick whose checksum differs.
    pub tick: u64,
    /// The checksum in the file.
    pub recorded: u64,
    /// The checksum of the re-simulated state.
    pub computed: u64,
    /// The engine version that recorded the replay.
    pub engine: String,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tick {} (line {}): the state's checksum is {:016x}, the replay recorded {:016x}",
            self.tick,
            self.tick + 1,
            self.computed,
            self.recorded
        )?;
        if self.engine != ENGINE_VERSION {
            write!(f, " (the replay was made by engine {:?}, this is engine {ENGINE_VERSION:?})", self.engine)?;
        }
        Ok(())
    }
}

impl std::error::Error for Divergence {}

/// Writes a replay as the game is played, one line per tick, so that a game
/// cut short still leaves a readable replay of what was played.
pub struct ReplayWriter<G, W: Write> {
    out: W,
    /// The line being written and a move's text, kept from tick to tick.
    line: Vec<u8>,
    text: String,
    seats: usize,
    tick: u64,
    /// The game's tick when the replay began (not 0 for a replay from a
    /// position).
    first_tick: u64,
    game: PhantomData<fn(&G)>,
}

impl<G: ReplayGame, W: Write> ReplayWriter<G, W> {
    /// Writes the header of `game`, which has not played a tick yet or was
    /// just rebuilt from a position (see [`Header::of_game_now`]).
    pub fn new(mut out: W, game: &G, seed: u64, players: &[String]) -> io::Result<Self> {
        assert!(game.tick() == 0 || game.position().is_some(), "a replay starts before the first tick or at a position");
        assert_eq!(players.len(), game.seats(), "one player label per seat");
        let header = Header::of_game_now(game, seed, players);
        writeln!(out, "{}", header.to_line())?;
        Ok(ReplayWriter {
            out,
            line: Vec::new(),
            text: String::new(),
            seats: game.seats(),
            tick: 0,
            first_tick: game.tick(),
            game: PhantomData,
        })
    }

    /// Records a tick: `game` is the state after it, `actions` what it was
    /// given.
    pub fn record(&mut self, game: &G, actions: &[G::Action]) -> io::Result<()> {
        self.record_with(game, &[], actions)
    }

    /// [`ReplayWriter::record`] of a tick before which seats were taken or
    /// left.
    pub fn record_with(&mut self, game: &G, presence: &[(usize, bool)], actions: &[G::Action]) -> io::Result<()> {
        self.tick += 1;
        assert_eq!(game.tick(), self.first_tick + self.tick, "every tick is recorded, in order");
        assert!(actions.len() <= self.seats, "more actions than seats");
        self.line.clear();
        push_tick_line::<G>(&mut self.line, &mut self.text, self.tick, self.seats, presence, actions, game.checksum());
        self.out.write_all(&self.line)
    }

    /// Flushes and returns the output.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// A replay kept as what it records, its header and each tick's actions
/// and checksum, and written out as text later ([`ReplayText`]): the same
/// bytes as [`ReplayWriter`] writes for the same calls. A tournament's
/// playing thread keeps its games this way, a few bytes a tick, and
/// leaves the text to the thread that packs them.
pub struct ReplayLog<G: Game> {
    header: Header,
    seats: usize,
    /// See [`ReplayWriter`]'s `first_tick`.
    first_tick: u64,
    /// Every tick's actions, `seats` a tick, padded with the default.
    actions: Vec<G::Action>,
    checksums: Vec<u64>,
    /// The seats taken or left before a tick, by the tick's index here.
    presence: Vec<(usize, Vec<(usize, bool)>)>,
}

/// Ticks a [`ReplayLog`] has room for before it grows (the longest
/// Battlesnake games of built-in snakes on 11x11 are about this long).
const LOG_TICKS: usize = 256;

impl<G: ReplayGame> ReplayLog<G> {
    /// The log of `game`, which has not played a tick yet or was just
    /// rebuilt from a position (as [`ReplayWriter::new`]).
    pub fn new(game: &G, seed: u64, players: &[String]) -> Self {
        assert!(game.tick() == 0 || game.position().is_some(), "a replay starts before the first tick or at a position");
        assert_eq!(players.len(), game.seats(), "one player label per seat");
        ReplayLog {
            header: Header::of_game_now(game, seed, players),
            seats: game.seats(),
            first_tick: game.tick(),
            actions: Vec::with_capacity(LOG_TICKS * game.seats()),
            checksums: Vec::with_capacity(LOG_TICKS),
            presence: Vec::new(),
        }
    }

    /// Records a tick: `game` is the state after it, `actions` what it was
    /// given.
    #[inline]
    pub fn record(&mut self, game: &G, actions: &[G::Action]) {
        let tick = self.checksums.len() as u64 + 1;
        assert_eq!(game.tick(), self.first_tick + tick, "every tick is recorded, in order");
        assert!(actions.len() <= self.seats, "more actions than seats");
        self.actions.extend_from_slice(actions);
        if actions.len() < self.seats {
            self.actions.resize(self.actions.len() + self.seats - actions.len(), G::Action::default());
        }
        self.checksums.push(game.checksum());
    }

    /// [`ReplayLog::record`] of a tick before which seats were taken or
    /// left.
    pub fn record_with(&mut self, game: &G, presence: &[(usize, bool)], actions: &[G::Action]) {
        if !presence.is_empty() {
            self.presence.push((self.checksums.len(), presence.to_vec()));
        }
        self.record(game, actions);
    }

    /// Ticks recorded.
    pub fn ticks(&self) -> u64 {
        self.checksums.len() as u64
    }
}

/// A replay's text, written when it is asked for: a [`ReplayLog`] of any
/// game, behind one type.
pub trait ReplayText: Send + Sync {
    /// Appends the replay file's text to `out`.
    fn write_text(&self, out: &mut Vec<u8>);
}

impl<G: ReplayGame> ReplayText for ReplayLog<G>
where
    G::Action: Send + Sync,
{
    fn write_text(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.header.to_line().as_bytes());
        out.push(b'\n');
        let mut text = String::new();
        let mut presence = self.presence.iter().peekable();
        for (k, &checksum) in self.checksums.iter().enumerate() {
            let actions = &self.actions[k * self.seats..][..self.seats];
            let before = match presence.peek() {
                Some((at, p)) if *at == k => {
                    presence.next();
                    p.as_slice()
                }
                _ => &[],
            };
            push_tick_line::<G>(out, &mut text, k as u64 + 1, self.seats, before, actions, checksum);
        }
    }
}

#[derive(Serialize)]
struct HeaderOut<'a> {
    snakepit_replay: u64,
    game: &'a str,
    engine: &'a str,
    seed: u64,
    seats: usize,
    players: &'a [String],
    settings: PairsOut<'a>,
    map: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<&'a serde_json::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HeaderIn {
    #[allow(dead_code, reason = "checked before this struct is read")]
    snakepit_replay: u64,
    game: String,
    engine: String,
    seed: u64,
    seats: usize,
    players: Vec<String>,
    settings: PairsIn,
    map: Vec<String>,
    #[serde(default)]
    start: Option<serde_json::Value>,
}

#[derive(Serialize)]
struct TickOut<'a> {
    t: u64,
    m: &'a [String],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    p: &'a [(usize, bool)],
    c: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TickIn {
    t: u64,
    m: Vec<String>,
    #[serde(default)]
    p: Vec<(usize, bool)>,
    c: String,
}

/// Pairs written as a JSON object in their own order; a derived map would
/// sort them, and `serde_json`'s object type does too.
struct PairsOut<'a>(&'a [(String, String)]);

impl Serialize for PairsOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// A JSON object of strings read in file order, rejecting repeated keys
/// (which JSON allows but which would make the settings ambiguous).
struct PairsIn(Vec<(String, String)>);

impl<'de> Deserialize<'de> for PairsIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct PairsVisitor;
        impl<'de> Visitor<'de> for PairsVisitor {
            type Value = PairsIn;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of string values")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<PairsIn, M::Error> {
                let mut pairs: Vec<(String, String)> = Vec::new();
                while let Some((k, v)) = m.next_entry::<String, String>()? {
                    if pairs.iter().any(|(seen, _)| *seen == k) {
                        return Err(de::Error::custom(format_args!("setting {k:?} appears twice")));
                    }
                    pairs.push((k, v));
                }
                Ok(PairsIn(pairs))
            }
        }
        d.deserialize_map(PairsVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_spelling_is_unique() {
        assert_eq!(parse_checksum("00000000000000ff"), Some(255));
        for bad in ["ff", "00000000000000FF", "+000000000000000", "000000000000000g", "0000000000000000f"] {
            assert_eq!(parse_checksum(bad), None, "{bad}");
        }
    }

    #[test]
    fn tick_lines_written_by_hand_are_the_same_bytes() {
        use snakepit_engine::Dir;
        use snakepit_engine::battlesnake::Battlesnake;
        let written = |tick, seats, presence, given: &[_], checksum| {
            let (mut line, mut text) = (Vec::new(), String::new());
            push_tick_line::<Battlesnake>(&mut line, &mut text, tick, seats, presence, given, checksum);
            String::from_utf8(line).unwrap()
        };
        let dirs = [None, Some(Dir::Up), Some(Dir::Left), Some(Dir::Right)];
        let ticks = [(1, &[][..], 0), (42, &[(1, true), (0, false)][..], u64::MAX), (7, &[][..], 0xab), (u64::MAX, &[][..], 1 << 63)];
        for (tick, presence, checksum) in ticks {
            // Fewer actions than seats: the rest are the default.
            for given in [&dirs[..], &dirs[..2], &[]] {
                let line = tick_line_with::<Battlesnake>(tick, 4, presence, given, checksum) + "\n";
                assert_eq!(written(tick, 4, presence, given, checksum), line);
            }
        }
        for v in [0, 9, 10, 99, 100, 12_345, u64::MAX] {
            let mut out = Vec::new();
            push_decimal(&mut out, v);
            assert_eq!(out, v.to_string().as_bytes());
        }
        // Texts that need escaping go through serde_json.
        for text in ["U", "", "a\"b", "back\\slash", "tab\t", "\u{1}", "\u{7f}", "☼○", "AL"] {
            let mut out = Vec::new();
            push_json_string(&mut out, text);
            assert_eq!(String::from_utf8(out).unwrap(), serde_json::to_string(text).unwrap(), "{text:?}");
        }
        // A game with longer action texts.
        let action = snakepit_engine::snakebattle::Action { dir: Some(Dir::Up), drop: None, suicide: true };
        let (mut line, mut text) = (Vec::new(), String::new());
        push_tick_line::<SnakeBattle>(&mut line, &mut text, 3, 2, &[], &[action], 5);
        assert_eq!(String::from_utf8(line).unwrap(), tick_line_with::<SnakeBattle>(3, 2, &[], &[action], 5) + "\n");
    }

    #[test]
    fn a_log_writes_the_writers_bytes() {
        use snakepit_engine::battlesnake::{Battlesnake, Settings};
        use snakepit_engine::{Dir, Rng};
        let players: Vec<String> = ["a", "b\"q", "c", "☼"].map(String::from).to_vec();
        for seed in 0..12 {
            let mut game = Battlesnake::new(Settings::default(), 4, seed).unwrap();
            let mut writer = ReplayWriter::new(Vec::new(), &game, seed, &players).unwrap();
            let mut log = ReplayLog::new(&game, seed, &players);
            let mut rng = Rng::new(seed);
            while !game.is_over() && game.tick() < 300 {
                let mut actions: Vec<_> = (0..4).map(|_| [None, Some(Dir::Up), Some(Dir::Left), Some(Dir::Right)][rng.index(4)]).collect();
                // Fewer actions than seats: the rest are the default.
                actions.truncate(4 - rng.index(3));
                game.step(&actions);
                // Seats taken or left before some ticks.
                let presence: &[(usize, bool)] = if game.tick() % 7 == 3 { &[(1, false), (3, true)] } else { &[] };
                writer.record_with(&game, presence, &actions).unwrap();
                log.record_with(&game, presence, &actions);
            }
            assert_eq!(log.ticks(), game.tick());
            let mut text = Vec::new();
            log.write_text(&mut text);
            assert_eq!(String::from_utf8(text).unwrap(), String::from_utf8(writer.finish().unwrap()).unwrap(), "seed {seed}");
        }
    }

    #[test]
    fn json_problems_drop_the_useless_line() {
        let e = serde_json::from_str::<TickIn>("{\"t\":1,").unwrap_err();
        let p = json_problem(e);
        assert!(matches!(&p, ReplayProblem::Syntax(m) if !m.contains("line 1")), "{p:?}");
    }
}
