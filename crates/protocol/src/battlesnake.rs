//! The Battlesnake HTTP API's JSON, and Battlesnake replays.
//!
//! A Battlesnake is a web server. The arena calls it at four endpoints,
//! relative to the snake's URL:
//!
//! - `GET /` when it joins: [`InfoResponse`],
//!   `{"apiversion":"1","author":"..","color":"#888888","head":"default","tail":"default","version":".."}`
//!   (every field optional);
//! - `POST /start`, `POST /move` and `POST /end` with a [`SnakeRequest`]
//!   body; only `/move` is answered, with `{"move":"up","shout":"..."}`.
//!
//! The request body, exactly in the API's shape (the official engine's
//! field order):
//!
//! ```text
//! {"game":{"id":"..","ruleset":{"name":"standard","version":"snakepit/5",
//!    "settings":{"foodSpawnChance":15,"minimumFood":1,"hazardDamagePerTurn":14,
//!      "hazardMap":"","hazardMapAuthor":"","royale":{"shrinkEveryNTurns":25},
//!      "squad":{"allowBodyCollisions":false,"sharedElimination":false,
//!               "sharedHealth":false,"sharedLength":false}}},
//!   "map":"standard","timeout":500,"source":"custom"},
//!  "turn":0,
//!  "board":{"height":11,"width":11,"snakes":[<snake>...],"food":[{"x":5,"y":5}],"hazards":[]},
//!  "you":<snake>}
//! ```
//!
//! where a snake is `{"id","name","latency":"0","health","body":[{x,y}..],
//! "head":{x,y},"length","shout","squad":"","customizations":{"color","head","tail"}}`.
//! `board.snakes` holds the snakes still in the game; `you` is always the
//! receiving snake (in `/end`, possibly eliminated). `latency` is the
//! snake's previous response time in milliseconds, as a string (the
//! timeout when it did not answer in time).
//!
//! **Coordinates:** the API's `y` points up, `(0,0)` being the bottom-left
//! cell; the engine's `y` points down. [`Coord::from_pos`] and
//! [`Coord::to_pos`] convert, so that a snake moving `up` in the engine
//! (toward row 0) moves `up` in the API (toward higher `y`).
//!
//! **Answers** ([`parse_move`]) are read leniently, as the official engine
//! does and a little more: any JSON object with a string `move` that is
//! `up`, `down`, `left` or `right` in any case, surrounded by any
//! whitespace; other fields are ignored. Field names match in any case
//! when no exact one is there (`{"Move":"up"}`), as Go's JSON decoding in
//! the official engine reads them: a Go snake whose struct has no JSON
//! tags answers so. Anything else is a [`MoveError`],
//! which the arena turns into "no move": the rules then repeat the snake's
//! last move.
//!
//! Replays of Battlesnake games use the common replay file
//! ([`crate::replay`]): the settings hold the ruleset, the board size and
//! the map's name, the `map` rows are empty, and a move is `U`, `R`, `D`,
//! `L`, or `-` for no move.

use crate::replay::{ReplayGame, SetupError};
use serde::{Deserialize, Serialize};
use snakepit_engine::battlesnake::{Battlesnake, MAP_STANDARD, Settings, SnakeIdx};
use snakepit_engine::{Dir, ENGINE_VERSION, Pos};
use std::fmt;

/// The official limit on a shout; longer ones are cut.
pub const SHOUT_CHARS_MAX: usize = 256;

/// The body of `POST /start`, `/move` and `/end`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnakeRequest {
    /// The game.
    pub game: GameInfo,
    /// Turns played so far.
    pub turn: u64,
    /// The board.
    pub board: Board,
    /// The receiving snake.
    pub you: SnakeJson,
}

/// `game`: what stays the same for a whole game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameInfo {
    /// A unique id for the game.
    pub id: String,
    /// The rules.
    pub ruleset: RulesetInfo,
    /// The map's name.
    pub map: String,
    /// Milliseconds a snake has for each answer, round trip included.
    pub timeout: u64,
    /// Where the game comes from (`league`, `custom`...).
    pub source: String,
}

/// `game.ruleset`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesetInfo {
    /// `standard`, `solo`, `royale`, `wrapped`, `constrictor` or
    /// `wrapped_constrictor`.
    pub name: String,
    /// The rules' version.
    pub version: String,
    /// The settings the API exposes.
    pub settings: RulesetSettings,
}

/// `game.ruleset.settings`, with the official names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RulesetSettings {
    /// Percent chance of a new food each turn.
    pub food_spawn_chance: u32,
    /// Food kept on the board.
    pub minimum_food: u32,
    /// Health lost per turn in a hazard.
    pub hazard_damage_per_turn: i32,
    /// Deprecated upstream; always empty.
    pub hazard_map: String,
    /// Deprecated upstream; always empty.
    pub hazard_map_author: String,
    /// Royale's settings.
    pub royale: RoyaleSettings,
    /// Squad's settings; squads do not exist here, the defaults are sent
    /// for compatibility, as upstream does.
    pub squad: SquadSettings,
}

/// `game.ruleset.settings.royale`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoyaleSettings {
    /// Turns between two shrinks of the safe zone.
    pub shrink_every_n_turns: u32,
}

/// `game.ruleset.settings.squad` (always false).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SquadSettings {
    /// Unused.
    pub allow_body_collisions: bool,
    /// Unused.
    pub shared_elimination: bool,
    /// Unused.
    pub shared_health: bool,
    /// Unused.
    pub shared_length: bool,
}

/// `board`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// Rows.
    pub height: i32,
    /// Columns.
    pub width: i32,
    /// Snakes still in the game.
    pub snakes: Vec<SnakeJson>,
    /// Food cells.
    pub food: Vec<Coord>,
    /// Hazard cells.
    pub hazards: Vec<Coord>,
}

/// One snake.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnakeJson {
    /// Unique within the game.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Milliseconds of the previous answer, as a string.
    pub latency: String,
    /// 0 to 100.
    pub health: i32,
    /// Cells, head first.
    pub body: Vec<Coord>,
    /// The first cell of `body`.
    pub head: Coord,
    /// Cells in `body`.
    pub length: u32,
    /// What the snake shouted last turn.
    pub shout: String,
    /// Always empty.
    pub squad: String,
    /// Looks.
    pub customizations: Customizations,
}

/// How a snake looks, from its `GET /` answer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Customizations {
    /// `#rrggbb`.
    pub color: String,
    /// Head style.
    pub head: String,
    /// Tail style.
    pub tail: String,
}

/// A cell in the API's coordinates: `y` up, `(0,0)` bottom left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coord {
    /// Column from the left.
    pub x: i32,
    /// Row from the bottom.
    pub y: i32,
}

impl Coord {
    /// The API cell of an engine position on a board `height` rows high.
    pub fn from_pos(p: Pos, height: i32) -> Coord {
        Coord { x: p.x, y: height - 1 - p.y }
    }

    /// The engine position of this API cell.
    pub fn to_pos(self, height: i32) -> Pos {
        Pos::new(self.x, height - 1 - self.y)
    }
}

/// The wire word of a move.
pub fn move_word(d: Dir) -> &'static str {
    match d {
        Dir::Up => "up",
        Dir::Down => "down",
        Dir::Left => "left",
        Dir::Right => "right",
    }
}

/// What the arena knows about a game beyond its rules: the id, the
/// timeout and, per seat, the snake's name, looks, last latency and shout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameMeta {
    /// `game.id`.
    pub id: String,
    /// `game.timeout`, in milliseconds.
    pub timeout_ms: u64,
    /// `game.source`.
    pub source: String,
    /// One entry per seat.
    pub snakes: Vec<SnakeMeta>,
}

/// What the arena knows about one snake beyond its body and health.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SnakeMeta {
    /// `id`, unique within the game.
    pub id: String,
    /// `name`.
    pub name: String,
    /// `customizations`.
    pub customizations: Customizations,
    /// The previous answer's round trip, in milliseconds.
    pub latency_ms: u64,
    /// The previous answer's shout.
    pub shout: String,
}

impl GameMeta {
    /// Metadata with ids `snake-0`, `snake-1`... and the given names.
    pub fn new(id: &str, timeout_ms: u64, names: &[String]) -> GameMeta {
        GameMeta {
            id: id.to_string(),
            timeout_ms,
            // One of the sources the API documents (tournament, league,
            // arena, challenge, custom): a game set up by hand.
            source: "custom".to_string(),
            snakes: names
                .iter()
                .enumerate()
                .map(|(i, name)| SnakeMeta { id: format!("snake-{i}"), name: name.clone(), ..SnakeMeta::default() })
                .collect(),
        }
    }
}

/// `game` for a game.
pub fn game_info(game: &Battlesnake, meta: &GameMeta) -> GameInfo {
    let s = game.settings();
    GameInfo {
        id: meta.id.clone(),
        ruleset: RulesetInfo {
            name: s.ruleset().name().to_string(),
            version: format!("snakepit/{ENGINE_VERSION}"),
            settings: RulesetSettings {
                food_spawn_chance: s.food_spawn_chance_pct(),
                minimum_food: s.minimum_food(),
                hazard_damage_per_turn: s.hazard_damage_per_turn(),
                hazard_map: String::new(),
                hazard_map_author: String::new(),
                royale: RoyaleSettings { shrink_every_n_turns: s.shrink_every_n_turns() },
                squad: SquadSettings::default(),
            },
        },
        map: MAP_STANDARD.to_string(),
        timeout: meta.timeout_ms,
        source: meta.source.clone(),
    }
}

/// One snake as the API shows it.
pub fn snake_json(game: &Battlesnake, meta: &GameMeta, seat: SnakeIdx) -> SnakeJson {
    let h = game.height();
    let s = &game.snakes()[seat];
    let m = &meta.snakes[seat];
    let body: Vec<Coord> = game.body(seat).map(|p| Coord::from_pos(p, h)).collect();
    SnakeJson {
        id: m.id.clone(),
        name: m.name.clone(),
        latency: m.latency_ms.to_string(),
        health: s.health,
        head: body[0],
        length: s.len,
        body,
        shout: m.shout.clone(),
        squad: String::new(),
        customizations: m.customizations.clone(),
    }
}

/// `board` for a game: the live snakes in seat order.
pub fn board(game: &Battlesnake, meta: &GameMeta) -> Board {
    let h = game.height();
    Board {
        height: h,
        width: game.width(),
        snakes: (0..game.snakes().len())
            .filter(|&i| game.snakes()[i].is_alive())
            .map(|i| snake_json(game, meta, i))
            .collect(),
        food: game.food().map(|p| Coord::from_pos(p, h)).collect(),
        hazards: game.hazards().map(|p| Coord::from_pos(p, h)).collect(),
    }
}

/// The request bodies of one turn, one per seat (the board is built once).
pub fn requests(game: &Battlesnake, meta: &GameMeta) -> Vec<SnakeRequest> {
    let info = game_info(game, meta);
    let board = board(game, meta);
    (0..game.snakes().len())
        .map(|seat| SnakeRequest {
            game: info.clone(),
            turn: game.turn(),
            board: board.clone(),
            you: snake_json(game, meta, seat),
        })
        .collect()
}

impl SnakeRequest {
    /// The request as JSON, as it goes on the wire.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a request always serialises")
    }
}

/// An answer to `/move` that the arena can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAnswer {
    /// The move.
    pub dir: Dir,
    /// What the snake shouted, cut to [`SHOUT_CHARS_MAX`] characters.
    pub shout: Option<String>,
}

/// An answer to `/move` that the arena cannot use; the snake then makes
/// its default move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MoveError {
    /// The body is not a JSON object.
    #[error("not a JSON object: {0}")]
    BadJson(String),
    /// The object has no string `move`.
    #[error("no \"move\" string in the answer")]
    NoMove,
    /// `move` is not one of the four moves.
    #[error("\"move\" is {0:?}, not up, down, left or right")]
    BadMove(String),
}

/// Reads a `/move` answer, leniently (see the module docs).
pub fn parse_move(body: &[u8]) -> Result<MoveAnswer, MoveError> {
    let value: serde_json::Value = serde_json::from_slice(body).map_err(|e| MoveError::BadJson(e.to_string()))?;
    let obj = value.as_object().ok_or_else(|| MoveError::BadJson(format!("a JSON {}", kind(&value))))?;
    let word = field(obj, "move").and_then(serde_json::Value::as_str).ok_or(MoveError::NoMove)?;
    let dir = match word.trim().to_ascii_lowercase().as_str() {
        "up" => Dir::Up,
        "down" => Dir::Down,
        "left" => Dir::Left,
        "right" => Dir::Right,
        _ => return Err(MoveError::BadMove(word.chars().take(64).collect())),
    };
    let shout = field(obj, "shout").and_then(serde_json::Value::as_str).map(|s| s.chars().take(SHOUT_CHARS_MAX).collect());
    Ok(MoveAnswer { dir, shout })
}

/// The field `name` of an answer: the exact key if there is one, else a
/// key equal to it in any ASCII case (Go's `encoding/json` rule).
fn field<'a>(obj: &'a serde_json::Map<String, serde_json::Value>, name: &str) -> Option<&'a serde_json::Value> {
    obj.get(name).or_else(|| obj.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v))
}

fn kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "boolean",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}

/// A `/move` answer, for snakes written in Rust.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveResponse {
    /// `up`, `down`, `left` or `right`.
    #[serde(rename = "move")]
    pub mv: String,
    /// Optional message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shout: Option<String>,
}

/// The answer to `GET /`: who the snake is and how it looks. Every field
/// is optional, and fields of the wrong type count as absent.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct InfoResponse {
    /// API version, `"1"`.
    pub apiversion: Option<String>,
    /// Author's name.
    pub author: Option<String>,
    /// `#rrggbb`.
    pub color: Option<String>,
    /// Head style.
    pub head: Option<String>,
    /// Tail style.
    pub tail: Option<String>,
    /// The snake's own version.
    pub version: Option<String>,
}

impl InfoResponse {
    /// The looks, with the board's defaults for what is missing.
    pub fn customizations(&self) -> Customizations {
        Customizations {
            color: self.color.clone().unwrap_or_else(|| "#888888".to_string()),
            head: self.head.clone().unwrap_or_else(|| "default".to_string()),
            tail: self.tail.clone().unwrap_or_else(|| "default".to_string()),
        }
    }
}

/// Reads a `GET /` answer; only a body that is not a JSON object is an
/// error.
pub fn parse_info(body: &[u8]) -> Result<InfoResponse, MoveError> {
    let value: serde_json::Value = serde_json::from_slice(body).map_err(|e| MoveError::BadJson(e.to_string()))?;
    let obj = value.as_object().ok_or_else(|| MoveError::BadJson(format!("a JSON {}", kind(&value))))?;
    let field = |k: &str| field(obj, k).and_then(serde_json::Value::as_str).map(|s| s.chars().take(SHOUT_CHARS_MAX).collect());
    Ok(InfoResponse {
        apiversion: field("apiversion"),
        author: field("author"),
        color: field("color"),
        head: field("head"),
        tail: field("tail"),
        version: field("version"),
    })
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

impl ReplayGame for Battlesnake {
    const NAME: &'static str = "battlesnake";

    fn settings_pairs(&self) -> Vec<(String, String)> {
        self.settings().to_pairs().into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    }

    /// Empty: the standard map is named by the `map` setting and the
    /// opening follows from the seed.
    fn map_rows(&self) -> Vec<String> {
        Vec::new()
    }

    fn from_setup(settings: &[(String, String)], map: &[String], seats: usize, seed: u64) -> Result<Self, SetupError> {
        if !map.is_empty() {
            return Err(SetupError::Map {
                row: 1,
                message: "a battlesnake replay names its map in the settings; \"map\" must be empty".to_string(),
            });
        }
        let settings = Settings::from_pairs(settings.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .map_err(|e| SetupError::Settings(e.to_string()))?;
        Battlesnake::new(settings, seats, seed).map_err(|e| SetupError::Game(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coords_flip() {
        let p = Pos::new(2, 0);
        assert_eq!(Coord::from_pos(p, 11), Coord { x: 2, y: 10 });
        assert_eq!(Coord::from_pos(p, 11).to_pos(11), p);
        // Up in the engine is up in the API.
        let up = Coord::from_pos(Pos::new(2, 5).step(Dir::Up), 11);
        assert_eq!(up.y, Coord::from_pos(Pos::new(2, 5), 11).y + 1);
    }
}
