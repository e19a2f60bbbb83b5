//! Battlesnake over stdin/stdout: the official API's `/move` request and
//! answer, one per line.
//!
//! # Server to bot, every turn
//!
//! The body of the `POST /move` request an HTTP snake would receive
//! ([`crate::battlesnake`]: the API's shape and field order, `y` pointing
//! up), which holds no line break, followed by `\n`. Only snakes still in
//! the game are asked, as only they get `/move`; there is no `/start` or
//! `/end` line. [`StdioGame::text_input`] fills the request's metadata
//! with [`meta`] (snake ids `snake-N`, names `seat N`, the default
//! looks, latency 0, no shout); `snakepit play` renders the request with its own metadata
//! instead (the seats' names, each snake's last latency and shout), as it
//! does for HTTP snakes.
//!
//! # Bot to server
//!
//! One line: the `/move` answer, `{"move":"up"}` with an optional
//! `"shout"`, read as leniently as from an HTTP snake
//! ([`crate::battlesnake::parse_move`]). A line that is not a move is
//! rejected with its bytes; as for an HTTP snake that answers badly, the
//! snake then has no move and the rules repeat its last one.

use super::answer::{AnswerError, AnswerProblem, one_line};
use super::{StdioGame, json};
use crate::battlesnake::{GameMeta, InfoResponse, parse_move, requests};
use snakepit_engine::battlesnake::{Action, Battlesnake};
use snakepit_engine::{Dir, Game};

/// The `game.timeout` the default metadata announces, in milliseconds: the
/// stdin/stdout deadline of every game but CodeCarrots.
pub const TIMEOUT_MS: u64 = 1000;

/// The metadata of a game whose seats have no names: ids `snake-N`, names
/// `seat N`, the board's default looks.
pub fn meta(game: &Battlesnake) -> GameMeta {
    let names: Vec<String> = (0..game.seats()).map(|i| format!("seat {i}")).collect();
    let mut meta = GameMeta::new("snakepit", TIMEOUT_MS, &names);
    for snake in &mut meta.snakes {
        snake.customizations = InfoResponse::default().customizations();
    }
    meta
}

/// Every seat's input line with `meta`, in seat order: the `/move` body for
/// each snake still in the game, `None` for the others and once the game is
/// over.
pub fn inputs_with(game: &Battlesnake, meta: &GameMeta) -> Vec<Option<String>> {
    if game.is_over() {
        return vec![None; game.seats()];
    }
    requests(game, meta)
        .iter()
        .zip(game.snakes())
        .map(|(r, s)| {
            s.is_alive().then(|| {
                let mut line = r.to_json();
                line.push('\n');
                line
            })
        })
        .collect()
}

/// Reads one answer line (see the module docs).
pub fn parse_answer(line: &[u8]) -> Result<Action, AnswerError> {
    let text = one_line(line)?;
    parse_move(text.as_bytes())
        .map(|a| Some(a.dir))
        .map_err(|e| AnswerError::new(line, AnswerProblem::Json { message: e.to_string() }))
}

impl StdioGame for Battlesnake {
    fn text_preamble(&self, _: usize) -> Option<String> {
        None
    }

    fn text_input(&self, seat: usize) -> Option<String> {
        self.text_inputs().into_iter().nth(seat).flatten()
    }

    fn text_inputs(&self) -> Vec<Option<String>> {
        inputs_with(self, &meta(self))
    }

    fn json_input(&self, seat: usize) -> Option<String> {
        json::battlesnake(self, seat).map(|s| json::line(&s))
    }

    fn parse_text_answer(line: &[u8]) -> Result<Action, AnswerError> {
        parse_answer(line)
    }

    fn action_for(dir: Dir) -> Action {
        Some(dir)
    }

    /// No move: the rules repeat the snake's last move.
    fn forfeit() -> Action {
        None
    }

    fn is_finished(&self) -> bool {
        self.is_over()
    }
}
