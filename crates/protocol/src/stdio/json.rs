//! The JSON-lines protocol: one schema for every stdin/stdout game, so that
//! any bot can play any of them.
//!
//! # Server to bot, every tick
//!
//! One line: a JSON object ([`State`]) followed by `\n`, with the whole
//! state from the receiving bot's point of view. Keys come in this order,
//! with no spaces:
//!
//! ```text
//! {"game":"multisnake","tick":3,"you":0,"width":5,"height":5,"wrap":true,
//!  "cells":[".....","..#..",".....","..o..","....-"],
//!  "snakes":[{"seat":0,"alive":true,"body":[[1,1],[0,1]],"dir":"right","score":0},
//!            {"seat":1,"alive":false,"body":[[3,3]],"dir":"up","score":0}],
//!  "rules":{"grow_every":10,"turns_max":2000}}
//! ```
//!
//! (shown wrapped; on the wire it is one line).
//!
//! * `game`: `carrots`, `duel` or `multisnake`.
//! * `tick`: ticks (rounds, turns) played so far; the first line says 0.
//! * `you`: the receiver's seat, 0-based; its snake is `snakes[i]` with
//!   `seat == you`.
//! * `width`, `height`: the board's size. Positions are `[x, y]`, `x` the
//!   column from the left, `y` the row from the top.
//! * `wrap`: whether leaving one edge enters the opposite one (Multisnake);
//!   otherwise leaving the board kills.
//! * `cells`: `height` strings of `width` characters, the board without the
//!   snakes: `.` free, `#` wall, `o` food (a CodeCarrots apple or a
//!   Multisnake `+`: the snake grows), `-` a Multisnake minus sign (it
//!   shrinks).
//! * `snakes`: every snake on the board, by seat: dead ones too where their
//!   bodies stay as obstacles. `body` is head first. `dir` is the way it
//!   last moved (`up`, `right`, `down`, `left`), which it keeps if the bot
//!   does not answer. `score` is the game's score for the seat.
//! * `rules`: the game's settings, each a number where it is one: in
//!   CodeCarrots `apples_max`, `height`, `respawn_ticks`, `width`; in the
//!   duel `cols`, `grow_every`, `grow_steps`, `inner_walls`, `points_*`,
//!   `rounds_max`, `rows`; in Multisnake `grow_every` (the seed's T) and
//!   `turns_max`. Keys are sorted.
//!
//! A line is only sent when the seat has a move to make: its snake is alive
//! and the game is not over.
//!
//! # Bot to server
//!
//! One line, a JSON object with a `move` key: `{"move":"up"}` (or `right`,
//! `down`, `left`, in any case). Other keys are ignored, so a bot may add
//! its own (for its logs). Anything else is rejected with the exact bytes
//! and the reason ([`parse_answer`]), and counts as the game's invalid
//! answer.

use super::answer::{AnswerError, AnswerProblem, trimmed_line};
use serde::{Deserialize, Serialize};
use snakepit_engine::carrots::{Carrots, Life};
use snakepit_engine::duel::Duel;
use snakepit_engine::multisnake::{Multisnake, Tile};
use snakepit_engine::{Dir, Game, Pos};
use std::collections::BTreeMap;
use std::fmt;

/// The state a bot receives each tick.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// `carrots`, `duel` or `multisnake`.
    pub game: String,
    /// Ticks played so far.
    pub tick: u64,
    /// The receiver's seat.
    pub you: usize,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Whether the edges wrap.
    pub wrap: bool,
    /// The board without snakes, one string per row from the top.
    pub cells: Vec<String>,
    /// The snakes on the board, by seat.
    pub snakes: Vec<SnakeState>,
    /// The game's settings.
    pub rules: BTreeMap<String, serde_json::Value>,
}

/// One snake in a [`State`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SnakeState {
    /// Seat.
    pub seat: usize,
    /// Still moving; a dead snake's body is an obstacle.
    pub alive: bool,
    /// Cells, head first, as `[x, y]`.
    pub body: Vec<[i32; 2]>,
    /// The way it last moved.
    pub dir: String,
    /// The seat's score.
    pub score: i64,
}

/// The word of a direction, in the JSON protocol.
pub fn dir_word(d: Dir) -> &'static str {
    match d {
        Dir::Up => "up",
        Dir::Right => "right",
        Dir::Down => "down",
        Dir::Left => "left",
    }
}

fn rules(pairs: Vec<(&'static str, String)>) -> BTreeMap<String, serde_json::Value> {
    pairs
        .into_iter()
        .map(|(k, v)| {
            let value = match v.parse::<i64>() {
                Ok(n) => serde_json::Value::from(n),
                Err(_) => serde_json::Value::from(v),
            };
            (k.to_string(), value)
        })
        .collect()
}

fn body(cells: impl IntoIterator<Item = Pos>) -> Vec<[i32; 2]> {
    cells.into_iter().map(|p| [p.x, p.y]).collect()
}

/// A CodeCarrots seat's state, or `None` if its snake is not alive.
pub fn carrots(game: &Carrots, seat: usize) -> Option<State> {
    if !game.snakes().get(seat)?.is_alive() {
        return None;
    }
    let (w, h) = (game.width(), game.height());
    let cells = (0..h)
        .map(|y| (0..w).map(|x| if game.is_apple(Pos::new(x as i32, y as i32)) { 'o' } else { '.' }).collect())
        .collect();
    let scores = game.scores();
    let snakes = game
        .snakes()
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s.life, Life::Alive | Life::Dead { .. }) && !s.body.is_empty())
        .map(|(i, s)| SnakeState {
            seat: i,
            alive: s.is_alive(),
            body: body(s.body.iter().copied()),
            dir: dir_word(s.dir).to_string(),
            score: scores[i],
        })
        .collect();
    Some(State {
        game: "carrots".to_string(),
        tick: game.tick(),
        you: seat,
        width: w,
        height: h,
        wrap: false,
        cells,
        snakes,
        rules: rules(game.settings().to_pairs()),
    })
}

/// A duel side's state, or `None` once the game is over.
pub fn duel(game: &Duel, seat: usize) -> Option<State> {
    if game.is_over() || seat > 1 {
        return None;
    }
    let map = game.map();
    let cells = map.walls().chunks(map.cols()).map(|row| row.iter().map(|&w| if w { '#' } else { '.' }).collect()).collect();
    let scores = game.scores();
    let snakes = game
        .snakes()
        .iter()
        .enumerate()
        .map(|(i, s)| SnakeState {
            seat: i,
            alive: s.alive,
            body: body(s.body.iter().copied()),
            dir: dir_word(s.dir).to_string(),
            score: scores[i],
        })
        .collect();
    Some(State {
        game: "duel".to_string(),
        tick: game.round(),
        you: seat,
        width: map.cols(),
        height: map.rows(),
        wrap: false,
        cells,
        snakes,
        rules: rules(game.settings().to_pairs()),
    })
}

/// A Multisnake seat's state, or `None` if its snake is dead or the game
/// is over.
pub fn multisnake(game: &Multisnake, seat: usize) -> Option<State> {
    if game.is_over() || !game.snakes().get(seat)?.alive {
        return None;
    }
    let grid = game.grid();
    let cells = game
        .tiles()
        .chunks(grid.width)
        .map(|row| {
            row.iter()
                .map(|t| match t {
                    Tile::Empty => '.',
                    Tile::Wall => '#',
                    Tile::Plus => 'o',
                    Tile::Minus => '-',
                })
                .collect()
        })
        .collect();
    let scores = game.scores();
    let snakes = game
        .snakes()
        .iter()
        .enumerate()
        .map(|(i, s)| SnakeState {
            seat: i,
            alive: s.alive,
            body: body(s.body.iter().copied()),
            dir: dir_word(s.dir).to_string(),
            score: scores[i],
        })
        .collect();
    Some(State {
        game: "multisnake".to_string(),
        tick: game.tick(),
        you: seat,
        width: grid.width,
        height: grid.height,
        wrap: true,
        cells,
        snakes,
        rules: rules(game.settings().to_pairs()),
    })
}

/// The line a bot reads: the state as compact JSON, then `\n`.
pub fn line(state: &State) -> String {
    let mut s = serde_json::to_string(state).expect("a state always serialises");
    s.push('\n');
    s
}

/// The line a bot writes for a move: `{"move":"up"}` and `\n`.
pub fn answer_line(d: Dir) -> String {
    format!("{{\"move\":\"{}\"}}\n", dir_word(d))
}

#[derive(Deserialize)]
struct Answer {
    #[serde(rename = "move")]
    mv: serde_json::Value,
}

/// Reads one JSON answer line: the direction, or exactly what is wrong.
pub fn parse_answer(line: &[u8]) -> Result<Dir, AnswerError> {
    let text = trimmed_line(line)?;
    let json = |message: String| AnswerError::new(line, AnswerProblem::Json { message });
    // serde would also read a struct from an array (`["up"]`); only an
    // object is an answer.
    if !text.starts_with('{') {
        return Err(json("not a JSON object {\"move\": ...}".to_string()));
    }
    let answer: Answer = serde_json::from_str(text).map_err(|e| json(format!("not {{\"move\": ...}}: {e}")))?;
    let word = answer.mv.as_str().unwrap_or("");
    let dir = [Dir::Up, Dir::Right, Dir::Down, Dir::Left].into_iter().find(|&d| word.eq_ignore_ascii_case(dir_word(d)));
    dir.ok_or_else(|| json(format!("\"move\" is {}; expected \"up\", \"right\", \"down\" or \"left\"", answer.mv)))
}

/// Largest state line [`parse_state`] reads, in bytes.
pub const STATE_BYTES_MAX: usize = 16 << 20;

/// Reads a state line back, as a bot does, and checks that it is
/// consistent: `height` rows of `width` cells, every body cell on the
/// board, `you` among the snakes.
pub fn parse_state(text: &str) -> Result<State, StateError> {
    if text.len() > STATE_BYTES_MAX {
        return Err(StateError(format!("{} bytes; at most {STATE_BYTES_MAX} are read", text.len())));
    }
    let state: State = serde_json::from_str(text.trim_end()).map_err(|e| StateError(e.to_string()))?;
    if state.cells.len() != state.height {
        return Err(StateError(format!("{} rows of cells; height is {}", state.cells.len(), state.height)));
    }
    if let Some((y, row)) = state.cells.iter().enumerate().find(|(_, r)| r.chars().count() != state.width) {
        return Err(StateError(format!("row {y} has {} cells; width is {}", row.chars().count(), state.width)));
    }
    for s in &state.snakes {
        if let Some(c) = s.body.iter().find(|c| c[0] < 0 || c[1] < 0 || c[0] as usize >= state.width || c[1] as usize >= state.height) {
            return Err(StateError(format!("snake {} has a cell off the board at [{},{}]", s.seat, c[0], c[1])));
        }
    }
    if !state.snakes.iter().any(|s| s.seat == state.you) {
        return Err(StateError(format!("no snake has seat {} (you)", state.you)));
    }
    Ok(state)
}

/// A state line that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateError(pub String);

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "state: {}", self.0)
    }
}

impl std::error::Error for StateError {}
