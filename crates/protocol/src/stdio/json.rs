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
//! * `game`: `carrots`, `duel`, `multisnake`, `snakebattle`, `hex` or
//!   `battlesnake`.
//! * `tick`: ticks (rounds, turns) played so far; the first line says 0.
//! * `you`: the receiver's seat, 0-based; its snake is `snakes[i]` with
//!   `seat == you` (in Hex, its player is `players[i]` with `seat == you`).
//! * `width`, `height`: the board's size. Positions are `[x, y]`, `x` the
//!   column from the left, `y` the row from the top, in every game
//!   (Battlesnake too, whose own API counts `y` from the bottom).
//! * `wrap`: whether leaving one edge enters the opposite one (Multisnake,
//!   the wrapped Battlesnake rulesets); otherwise leaving the board kills.
//! * `cells`: `height` strings of `width` characters, the board without the
//!   snakes: `.` free, `#` wall, `o` food (a CodeCarrots or SnakeBattle
//!   apple, a Multisnake `+`, a Battlesnake food: the snake grows), `-` a
//!   Multisnake minus sign (it shrinks). SnakeBattle adds `_` a start floor
//!   (it kills a head that enters it), `x` a stone, `$` gold, `!` a fury
//!   pill, `^` a flying pill. Battlesnake adds `~` a hazard and `*` a food
//!   on a hazard. Hex cells hold the pieces: `0`-`9` a piece of seat 0 to
//!   9, `a`-`z` of seat 10 to 35, `A`-`Z` of seat 36 to 61, `+` of a later
//!   seat ([`hex_seat_glyph`]); `#` is a wall of the map or one two pieces
//!   formed by meeting.
//! * `snakes`: every snake on the board, by seat: dead ones too where their
//!   bodies stay as obstacles (Battlesnake lists only the snakes still in
//!   the game, as its API does; Hex has none). `body` is head first. `dir`
//!   is the way it last moved (`up`, `right`, `down`, `left`), which it
//!   keeps if the bot does not answer. `alive` says it moves (in SnakeBattle
//!   it is false while the snake sleeps before a round, too). `score` is the
//!   game's score for the seat. Optional keys, present only in their game:
//!   `health` (Battlesnake, 0 to 100), `fury` and `fly` (SnakeBattle: ticks
//!   of fury and flying left, 0 when none) and `stones` (SnakeBattle: stones
//!   eaten and not yet dropped).
//! * `players` (Hex only): every seat, `{"seat":0,"present":true,
//!   "score":60,"pieces":[[2,2],[3,2]]}`, its pieces row by row from the
//!   top.
//! * `rules`: the game's settings, each a number or a boolean where it is
//!   one: in CodeCarrots `apples_max`, `bodies_stay`, `height`,
//!   `respawn_ticks`, `width`;
//!   in the duel `cols`, `grow_every`, `grow_steps`, `inner_walls`,
//!   `points_*`, `rounds_max`, `rows`; in Multisnake `grow_every` (the
//!   SOI statement's T) and `turns_max`; in the other games every setting
//!   `play --set` takes. Keys are sorted.
//!
//! One line of each of the other games (wrapped here, `rules` cut short):
//!
//! ```text
//! {"game":"snakebattle","tick":1,"you":1,"width":7,"height":7,"wrap":false,
//!  "cells":["#######","#._..o#","#..x..#","#._..$#","#o...^#","#.....#","#######"],
//!  "snakes":[{"seat":0,"alive":true,"body":[[3,1],[2,1]],"dir":"right","score":0,"fury":0,"fly":0,"stones":0},
//!            {"seat":1,"alive":true,"body":[[2,4],[2,3]],"dir":"down","score":0,"fury":15,"fly":0,"stones":0}],
//!  "rules":{"commands":"seed","countdown_ticks":5,...,"rounds":false,"stone_shrink":3}}
//! {"game":"hex","tick":1,"you":0,"width":6,"height":6,"wrap":false,
//!  "cells":["######","#....#","#.00.#","#..0.#","#....#","######"],"snakes":[],
//!  "players":[{"seat":0,"present":true,"score":60,"pieces":[[2,2],[3,2],[3,3]]},
//!             {"seat":1,"present":true,"score":0,"pieces":[]}],
//!  "rules":{"players_per_field":11,"points_lose":10,"points_win":30,"profile":"seed","restart_clears_walls":true}}
//! {"game":"battlesnake","tick":3,"you":0,"width":5,"height":5,"wrap":false,
//!  "cells":["....*",".....",".....",".....","~.o.."],
//!  "snakes":[{"seat":0,"alive":true,"body":[[1,1],[1,2],[1,3]],"dir":"up","score":3,"health":90},
//!            {"seat":1,"alive":true,"body":[[3,3],[3,2],[3,2]],"dir":"down","score":3,"health":100}],
//!  "rules":{"foodSpawnChance":15,"hazardDamagePerTurn":14,"height":5,"map":"standard",...,"width":5}}
//! ```
//!
//! A line is only sent when the seat has a move to make: its snake is alive
//! and the game is not over. SnakeBattle and Hex, which never end, send
//! every seat a player holds a line every tick, as their WebSocket does.
//!
//! # Bot to server
//!
//! One line, a JSON object with a `move` key: `{"move":"up"}` (or `right`,
//! `down`, `left`, in any case). Other keys are ignored, so a bot may add
//! its own (for its logs). Anything else is rejected with the exact bytes
//! and the reason ([`parse_answer`]), and counts as the game's invalid
//! answer. Two games read more:
//!
//! * SnakeBattle ([`parse_snakebattle_answer`]): `{"move":"up","act":true}`
//!   drops a stone at the tail before the move (the command `ACT,UP`);
//!   `{"act":true}` alone drops one and keeps the direction (`ACT`);
//!   `"act"` is optional.
//! * Hex ([`parse_hex_answer`]): `{"from":[x,y],"move":"up","jump":false}`
//!   moves the piece at `[x,y]` (`y` from the top, as everywhere here) one
//!   cell, a clone, or two with `"jump":true`, a jump; `"jump"` is optional.
//!   A piece that is not the bot's, or a target that is not free, is the
//!   engine's to ignore at the tick, as for the text command.
//!   `{"skip":true}` makes no move this tick (the text protocol's empty
//!   line).

use super::answer::{AnswerError, AnswerProblem, trimmed_line};
use serde::{Deserialize, Serialize};
use snakepit_engine::carrots::{Carrots, Life};
use snakepit_engine::duel::Duel;
use snakepit_engine::battlesnake::Battlesnake;
use snakepit_engine::hex::{self as hx, Cell as HexCell, Hex};
use snakepit_engine::multisnake::{Multisnake, Tile};
use snakepit_engine::snakebattle::{self as sb, Item, SnakeBattle, StoneDrop, Terrain};
use snakepit_engine::{Dir, Game, Pos};
use std::collections::BTreeMap;
use std::fmt;

/// The state a bot receives each tick.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// `carrots`, `duel`, `multisnake`, `snakebattle`, `hex` or `battlesnake`.
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
    /// Hex only: every seat, with its pieces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<Vec<PlayerState>>,
    /// The game's settings.
    pub rules: BTreeMap<String, serde_json::Value>,
}

/// One snake in a [`State`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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
    /// Battlesnake only: health, 0 to 100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub health: Option<i32>,
    /// SnakeBattle only: fury ticks left (0 when not furious).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fury: Option<u32>,
    /// SnakeBattle only: flying ticks left (0 when not flying).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fly: Option<u32>,
    /// SnakeBattle only: stones eaten and not yet dropped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stones: Option<u32>,
}

/// One Hex seat in a [`State`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerState {
    /// Seat.
    pub seat: usize,
    /// Whether a player holds the seat.
    pub present: bool,
    /// The seat's score.
    pub score: i64,
    /// The cells of its pieces, as `[x, y]`, row by row from the top.
    pub pieces: Vec<[i32; 2]>,
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
            let value = match (v.parse::<i64>(), v.as_str()) {
                (Ok(n), _) => serde_json::Value::from(n),
                (Err(_), "true") => serde_json::Value::from(true),
                (Err(_), "false") => serde_json::Value::from(false),
                (Err(_), _) => serde_json::Value::from(v),
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
            ..SnakeState::default()
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
        players: None,
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
            ..SnakeState::default()
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
        players: None,
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
            ..SnakeState::default()
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
        players: None,
        rules: rules(game.settings().to_pairs()),
    })
}

/// The `cells` glyph of a SnakeBattle cell.
fn snakebattle_glyph(terrain: Terrain, item: Option<Item>) -> char {
    match (terrain, item) {
        (Terrain::Wall, _) => '#',
        (Terrain::StartFloor, _) => '_',
        (Terrain::Empty, None) => '.',
        (Terrain::Empty, Some(Item::Apple)) => 'o',
        (Terrain::Empty, Some(Item::Stone)) => 'x',
        (Terrain::Empty, Some(Item::Gold)) => '$',
        (Terrain::Empty, Some(Item::FuryPill)) => '!',
        (Terrain::Empty, Some(Item::FlyingPill)) => '^',
    }
}

/// A SnakeBattle seat's state, or `None` if no player holds the seat.
/// Every present seat is asked every tick, as the WebSocket sends every
/// player a board every tick: while its snake sleeps, is dead or waits for
/// the next round too.
pub fn snakebattle(game: &SnakeBattle, seat: usize) -> Option<State> {
    if !game.snakes().get(seat)?.present {
        return None;
    }
    let size = game.size();
    let map = game.map();
    let cells = map
        .terrain
        .chunks(size)
        .zip(game.items().chunks(size))
        .map(|(terrain, items)| terrain.iter().zip(items).map(|(&t, &it)| snakebattle_glyph(t, it)).collect())
        .collect();
    let snakes = game
        .snakes()
        .iter()
        .enumerate()
        .filter(|(_, s)| s.present)
        .map(|(i, s)| SnakeState {
            seat: i,
            alive: s.is_playing(),
            body: body(s.body.iter().copied()),
            dir: dir_word(s.dir).to_string(),
            score: s.score,
            fury: Some(s.fury),
            fly: Some(s.flying),
            stones: Some(s.stones),
            ..SnakeState::default()
        })
        .collect();
    Some(State {
        game: "snakebattle".to_string(),
        tick: game.tick(),
        you: seat,
        width: size,
        height: size,
        wrap: false,
        cells,
        snakes,
        players: None,
        rules: rules(game.settings().to_pairs()),
    })
}

/// A Battlesnake seat's state, or `None` if its snake is out or the game
/// is over (the API sends `/move` only to snakes still in the game).
pub fn battlesnake(game: &Battlesnake, seat: usize) -> Option<State> {
    if game.is_over() || !game.snakes().get(seat)?.is_alive() {
        return None;
    }
    let (w, h) = (game.width(), game.height());
    let cells = (0..h)
        .map(|y| {
            (0..w)
                .map(|x| {
                    let p = Pos::new(x, y);
                    match (game.is_food(p), game.is_hazard(p)) {
                        (true, true) => '*',
                        (true, false) => 'o',
                        (false, true) => '~',
                        (false, false) => '.',
                    }
                })
                .collect()
        })
        .collect();
    let scores = game.scores();
    let snakes = game
        .snakes()
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_alive())
        .map(|(i, s)| SnakeState {
            seat: i,
            alive: true,
            body: body(game.body(i)),
            dir: dir_word(s.last_move).to_string(),
            score: scores[i],
            health: Some(s.health),
            ..SnakeState::default()
        })
        .collect();
    Some(State {
        game: "battlesnake".to_string(),
        tick: game.tick(),
        you: seat,
        width: w as usize,
        height: h as usize,
        wrap: game.settings().ruleset().wraps(),
        cells,
        snakes,
        players: None,
        rules: rules(game.settings().to_pairs()),
    })
}

/// Seats with a glyph of their own in Hex `cells`: `0`-`9`, `a`-`z`,
/// `A`-`Z`.
pub const HEX_SEAT_GLYPHS: usize = 62;

/// The `cells` glyph of a Hex piece of `seat`: `0`-`9` for seats 0 to 9,
/// `a`-`z` for 10 to 35, `A`-`Z` for 36 to 61, and `+` for any later seat
/// (whose pieces are listed in `players`).
pub fn hex_seat_glyph(seat: usize) -> char {
    const GLYPHS: &[u8; HEX_SEAT_GLYPHS] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    GLYPHS.get(seat).map_or('+', |&b| char::from(b))
}

/// A Hex seat's state, or `None` if no player holds the seat. Every
/// present seat is asked every tick, as the WebSocket sends every player a
/// board every tick (also while it has no pieces, waiting for a restart).
pub fn hex(game: &Hex, seat: usize) -> Option<State> {
    if !game.players().get(seat)?.present {
        return None;
    }
    let size = game.size();
    let mut pieces: Vec<Vec<[i32; 2]>> = vec![Vec::new(); game.players().len()];
    let cells = game
        .cells()
        .chunks(size)
        .enumerate()
        .map(|(y, row)| {
            row.iter()
                .enumerate()
                .map(|(x, &c)| match c {
                    HexCell::Empty => '.',
                    HexCell::Wall => '#',
                    HexCell::Piece(s) => {
                        if let Some(p) = pieces.get_mut(s) {
                            p.push([x as i32, y as i32]);
                        }
                        hex_seat_glyph(s)
                    }
                })
                .collect()
        })
        .collect();
    let players = game
        .players()
        .iter()
        .zip(pieces)
        .enumerate()
        .map(|(i, (p, pieces))| PlayerState { seat: i, present: p.present, score: p.score, pieces })
        .collect();
    Some(State {
        game: "hex".to_string(),
        tick: game.tick(),
        you: seat,
        width: size,
        height: size,
        wrap: false,
        cells,
        snakes: Vec::new(),
        players: Some(players),
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

/// The direction of a `"move"` value, or what is wrong with it.
fn move_value(value: &serde_json::Value) -> Result<Dir, String> {
    let word = value.as_str().unwrap_or("");
    [Dir::Up, Dir::Right, Dir::Down, Dir::Left]
        .into_iter()
        .find(|&d| word.eq_ignore_ascii_case(dir_word(d)))
        .ok_or_else(|| format!("\"move\" is {value}; expected \"up\", \"right\", \"down\" or \"left\""))
}

/// The text of a JSON object answer, or the error for one that is not an
/// object at all.
fn object_text<'a>(line: &'a [u8], shape: &str) -> Result<&'a str, AnswerError> {
    let text = trimmed_line(line)?;
    // serde would also read a struct from an array; only an object is an
    // answer.
    if !text.starts_with('{') {
        return Err(AnswerError::new(line, AnswerProblem::Json { message: format!("not a JSON object {shape}") }));
    }
    Ok(text)
}

#[derive(Deserialize)]
struct SnakeBattleAnswer {
    #[serde(rename = "move", default)]
    mv: Option<serde_json::Value>,
    #[serde(default)]
    act: Option<serde_json::Value>,
}

/// Reads one SnakeBattle JSON answer: `{"move":"up"}`, `{"move":"up",
/// "act":true}` (a stone dropped at the tail before the move, as `ACT,UP`)
/// or `{"act":true}` (a stone dropped, the direction kept, as `ACT`). A
/// `null` value counts as absent; `"act":false` is the same as no `act`.
/// An answer with neither a move nor `"act":true` is rejected.
///
/// Both rule profiles read these three answers alike (their commands differ
/// only for answers with several directions or several `ACT`s), so the
/// reading needs no profile.
pub fn parse_snakebattle_answer(line: &[u8]) -> Result<sb::Action, AnswerError> {
    const SHAPE: &str = "{\"move\": ..., \"act\": true}";
    let text = object_text(line, SHAPE)?;
    let json = |message: String| AnswerError::new(line, AnswerProblem::Json { message });
    let answer: SnakeBattleAnswer = serde_json::from_str(text).map_err(|e| json(format!("not {SHAPE}: {e}")))?;
    let dir = answer.mv.as_ref().map(move_value).transpose().map_err(json)?;
    let act = match &answer.act {
        None => false,
        Some(serde_json::Value::Bool(b)) => *b,
        Some(other) => return Err(json(format!("\"act\" is {other}; expected true or false"))),
    };
    if dir.is_none() && !act {
        return Err(json("neither \"move\" nor \"act\":true; expected {\"move\":\"up\"} and/or \"act\":true".to_string()));
    }
    Ok(sb::Action { dir, drop: act.then_some(StoneDrop::BeforeMove), suicide: false })
}

/// The line a SnakeBattle bot writes for `action`, if it can be written in
/// JSON (a stone dropped after the move and `ACT(0)` cannot).
pub fn snakebattle_answer_line(action: &sb::Action) -> Option<String> {
    match (action.dir, action.drop, action.suicide) {
        (_, _, true) | (_, Some(StoneDrop::AfterMove), _) | (None, None, _) => None,
        (Some(d), None, _) => Some(answer_line(d)),
        (Some(d), Some(_), _) => Some(format!("{{\"move\":\"{}\",\"act\":true}}\n", dir_word(d))),
        (None, Some(_), _) => Some("{\"act\":true}\n".to_string()),
    }
}

#[derive(Deserialize)]
struct HexAnswer {
    from: serde_json::Value,
    #[serde(rename = "move")]
    mv: serde_json::Value,
    #[serde(default)]
    jump: Option<serde_json::Value>,
}

/// Reads one Hex JSON answer: `{"from":[x,y],"move":"up"}` clones the piece
/// at `[x,y]` (`x` from the left, `y` from the top) one cell up,
/// `{"from":[x,y],"move":"up","jump":true}` jumps it two cells. Whether the
/// piece is the bot's and the target free is the engine's to say at the
/// tick, as for the text command.
pub fn parse_hex_answer(line: &[u8]) -> Result<hx::Action, AnswerError> {
    const SHAPE: &str = "{\"from\": [x, y], \"move\": ..., \"jump\": false}";
    let text = object_text(line, SHAPE)?;
    let json = |message: String| AnswerError::new(line, AnswerProblem::Json { message });
    if let Ok(serde_json::Value::Object(o)) = serde_json::from_str::<serde_json::Value>(text)
        && o.len() == 1
        && o.get("skip") == Some(&serde_json::Value::Bool(true))
    {
        return Ok(hx::Action::Skip);
    }
    let answer: HexAnswer = serde_json::from_str(text).map_err(|e| json(format!("not {SHAPE}: {e}")))?;
    let coordinate = |v: &serde_json::Value| v.as_i64().and_then(|n| i32::try_from(n).ok());
    let from = match answer.from.as_array().map(Vec::as_slice) {
        Some([x, y]) => coordinate(x).zip(coordinate(y)),
        _ => None,
    };
    let Some((x, y)) = from else {
        return Err(json(format!("\"from\" is {}; expected [x, y], two integers", answer.from)));
    };
    let dir = move_value(&answer.mv).map_err(json)?;
    let jump = match &answer.jump {
        None => false,
        Some(serde_json::Value::Bool(b)) => *b,
        Some(other) => return Err(json(format!("\"jump\" is {other}; expected true or false"))),
    };
    Ok(hx::Action::Move { from: Pos::new(x, y), dir, jump })
}

/// The line a Hex bot writes for `action` (`Option` for the callers that
/// expect one; every action has its line now).
pub fn hex_answer_line(action: &hx::Action) -> Option<String> {
    match *action {
        hx::Action::Skip => Some("{\"skip\":true}\n".to_string()),
        hx::Action::Move { from, dir, jump } => Some(format!(
            "{{\"from\":[{},{}],\"move\":\"{}\",\"jump\":{jump}}}\n",
            from.x,
            from.y,
            dir_word(dir)
        )),
    }
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
    let off = |c: &&[i32; 2]| c[0] < 0 || c[1] < 0 || c[0] as usize >= state.width || c[1] as usize >= state.height;
    for s in &state.snakes {
        if let Some(c) = s.body.iter().find(off) {
            return Err(StateError(format!("snake {} has a cell off the board at [{},{}]", s.seat, c[0], c[1])));
        }
    }
    for p in state.players.iter().flatten() {
        if let Some(c) = p.pieces.iter().find(off) {
            return Err(StateError(format!("player {} has a piece off the board at [{},{}]", p.seat, c[0], c[1])));
        }
    }
    if state.game == "hex" {
        if !state.players.iter().flatten().any(|p| p.seat == state.you) {
            return Err(StateError(format!("no player has seat {} (you)", state.you)));
        }
    } else if !state.snakes.iter().any(|s| s.seat == state.you) {
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
