//! The stdin/stdout wire formats of process bots, for every game: the
//! process arenas CodeCarrots snakes ([`carrots`]), KingOfBots Snake
//! ([`duel`]) and SOI Multisnake ([`multisnake`]), each exactly as its
//! original server speaks it; the WebSocket and HTTP arenas Codenjoy
//! SnakeBattle ([`snakebattle`]), Codenjoy Hex ([`hex`]) and Battlesnake
//! ([`battlesnake`]), each as its arena's message and command carried one
//! per line; and a JSON-lines protocol ([`json`]) in which any bot can play
//! any of them.
//!
//! Each module documents its bytes in full. In short:
//!
//! | game | before the first tick | every tick, to the bot | the bot's answer line |
//! |---|---|---|---|
//! | `carrots` | nothing | H lines of W bytes: `.` `o` `#` `H` | `left` `right` `up` `down`, any case, whitespace ignored |
//! | `duel` | nothing | `<map>#<r>#<c>#(<steps>)#<r>#<c>#(<steps>)` and `\n` | `0` `1` `2` `3` |
//! | `multisnake` | `W H N M T` and `\n` | H lines of W bytes: `A`-`H` `@` `#` `^` `>` `v` `<` `.` `+` `-` | `^` `>` `v` `<` |
//! | `snakebattle` | nothing | `board=` and the 900 glyphs of the WebSocket frame, and `\n` | a Codenjoy command: `UP`, `ACT,LEFT`, ... |
//! | `hex` | nothing | `board=` and the glyphs of the WebSocket frame, and `\n` | `ACT(x,y),DIR`, `ACT(x,y,1),DIR` |
//! | `battlesnake` | nothing | the `/move` request body (one line of JSON) and `\n` | `{"move":"up"}`, optionally with `"shout"` |
//! | any, as JSON | nothing | one JSON object and `\n` | `{"move":"up"}`; SnakeBattle adds `"act"`, Hex `"from"` and `"jump"` |
//!
//! A bot is only asked when it has a move to make; the functions that
//! render a tick return `None` otherwise (a dead snake, a finished game).
//! SnakeBattle and Hex ask every seat a player holds every tick, as their
//! WebSocket sends every player a board every tick.
//!
//! # Answers
//!
//! Every answer parser takes the bytes of one line as the runner read them
//! (with or without the `\n`), reads at most [`ANSWER_BYTES_MAX`] of them,
//! never panics, and returns the move or an [`AnswerError`] holding the
//! answer's first bytes exactly and what is wrong with them. The runner
//! turns a rejected answer, a timeout or a crash into the game's forfeit
//! action ([`StdioGame::forfeit`]); what that means is the game's rule
//! (CodeCarrots: the snake dies and respawns; KingOfBots: that side loses;
//! Multisnake: the snake dies; SnakeBattle: no command, the snake keeps its
//! direction; Hex: no move; Battlesnake: no move, the rules repeat the
//! snake's last one, as for an HTTP snake that timed out).
//!
//! # One interface for the runner
//!
//! [`StdioGame`] gathers, per game, what a process runner needs: the
//! preamble, the tick's input and the answer parser, in the game's own
//! format or in JSON ([`Wire`]).

mod answer;
pub mod battlesnake;
pub mod carrots;
pub mod duel;
pub mod hex;
pub mod json;
pub mod multisnake;
pub mod snakebattle;

pub use answer::{ANSWER_BYTES_MAX, AnswerError, AnswerProblem, SHOWN_BYTES_MAX, one_line, trimmed_line};

use snakepit_engine::Game;
use snakepit_engine::carrots::{self as c, Carrots};
use snakepit_engine::duel::{self as d, Duel};
use snakepit_engine::multisnake::{self as m, Multisnake};

/// Which format a process bot speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wire {
    /// The game's own format, as its original server speaks it.
    Text,
    /// The JSON-lines protocol of [`json`].
    Json,
}

impl Wire {
    /// What the bot reads once, before its first input.
    pub fn preamble<G: StdioGame>(self, game: &G, seat: usize) -> Option<String> {
        match self {
            Wire::Text => game.text_preamble(seat),
            Wire::Json => None,
        }
    }

    /// What the bot reads this tick, or `None` when it is not asked.
    pub fn input<G: StdioGame>(self, game: &G, seat: usize) -> Option<String> {
        match self {
            Wire::Text => game.text_input(seat),
            Wire::Json => game.json_input(seat),
        }
    }

    /// What every seat reads this tick, in seat order; the same as
    /// [`input`](Self::input) for each seat, but a game whose seats all
    /// read the same bytes renders them once ([`StdioGame::text_inputs`]).
    pub fn inputs<G: StdioGame>(self, game: &G) -> Vec<Option<String>> {
        match self {
            Wire::Text => game.text_inputs(),
            Wire::Json => (0..game.seats()).map(|seat| game.json_input(seat)).collect(),
        }
    }

    /// Reads the bot's answer line without the game at hand (see
    /// [`StdioGame::parse_text_answer`]).
    pub fn parse_answer<G: StdioGame>(self, line: &[u8]) -> Result<G::Action, AnswerError> {
        match self {
            Wire::Text => G::parse_text_answer(line),
            Wire::Json => G::parse_json_answer(line),
        }
    }

    /// Reads `seat`'s answer line to the input `game` rendered: what a
    /// runner calls ([`StdioGame::parse_answer_in`]).
    pub fn parse_answer_in<G: StdioGame>(self, game: &G, seat: usize, line: &[u8]) -> Result<G::Action, AnswerError> {
        game.parse_answer_in(seat, self, line)
    }
}

/// A game that process bots play over stdin and stdout.
pub trait StdioGame: Game {
    /// The game's own preamble for a seat (Multisnake's header), if any.
    fn text_preamble(&self, seat: usize) -> Option<String>;
    /// The seat's input in the game's own format for this tick, or `None`
    /// when the seat is not asked.
    fn text_input(&self, seat: usize) -> Option<String>;
    /// Every seat's [`text_input`](Self::text_input), in seat order. A
    /// game whose seats all read the same bytes (Multisnake: the header
    /// tells each bot which letter is its own) renders them once.
    fn text_inputs(&self) -> Vec<Option<String>> {
        (0..self.seats()).map(|seat| self.text_input(seat)).collect()
    }
    /// The seat's input as a JSON line, or `None` when it is not asked.
    fn json_input(&self, seat: usize) -> Option<String>;
    /// Reads an answer in the game's own format, without the game at hand.
    /// Where the meaning of a command depends on the game (SnakeBattle's
    /// rule profile, Hex's pieces), this is its reading under the default
    /// rules and without the position; runners use
    /// [`parse_answer_in`](Self::parse_answer_in).
    fn parse_text_answer(line: &[u8]) -> Result<Self::Action, AnswerError>;
    /// Reads an answer in the JSON protocol: by default `{"move":"up"}`
    /// through [`json::parse_answer`] and [`action_for`](Self::action_for).
    fn parse_json_answer(line: &[u8]) -> Result<Self::Action, AnswerError> {
        json::parse_answer(line).map(Self::action_for)
    }
    /// Reads `seat`'s answer in `wire` to the input this game (as it stands,
    /// before the step) rendered. By default the same as
    /// [`Wire::parse_answer`]; a game whose commands are read against its
    /// rules or position overrides it.
    fn parse_answer_in(&self, seat: usize, wire: Wire, line: &[u8]) -> Result<Self::Action, AnswerError> {
        let _ = seat;
        wire.parse_answer::<Self>(line)
    }
    /// The action of a move (Hex, whose moves name a piece: no move).
    fn action_for(dir: snakepit_engine::Dir) -> Self::Action;
    /// The action of a bot that failed: a rejected answer, no answer in
    /// time, a crash.
    fn forfeit() -> Self::Action;
    /// Whether the game has ended by its own rules (CodeCarrots,
    /// SnakeBattle and Hex never do: they play rounds or restarts for as
    /// long as their room or `play --ticks` lasts).
    fn is_finished(&self) -> bool;
}

impl StdioGame for Carrots {
    fn text_preamble(&self, _: usize) -> Option<String> {
        None
    }

    fn text_input(&self, seat: usize) -> Option<String> {
        carrots::board(self, seat)
    }

    fn json_input(&self, seat: usize) -> Option<String> {
        json::carrots(self, seat).map(|s| json::line(&s))
    }

    fn parse_text_answer(line: &[u8]) -> Result<c::Action, AnswerError> {
        carrots::parse_answer(line)
    }

    fn action_for(dir: snakepit_engine::Dir) -> c::Action {
        c::Action::Move(dir)
    }

    fn forfeit() -> c::Action {
        c::Action::Forfeit
    }

    fn is_finished(&self) -> bool {
        false
    }
}

impl StdioGame for Duel {
    fn text_preamble(&self, _: usize) -> Option<String> {
        None
    }

    fn text_input(&self, seat: usize) -> Option<String> {
        duel::input_line(self, seat)
    }

    fn json_input(&self, seat: usize) -> Option<String> {
        json::duel(self, seat).map(|s| json::line(&s))
    }

    fn parse_text_answer(line: &[u8]) -> Result<d::Action, AnswerError> {
        duel::parse_answer(line)
    }

    fn action_for(dir: snakepit_engine::Dir) -> d::Action {
        d::Action::Move(dir)
    }

    fn forfeit() -> d::Action {
        d::Action::Forfeit
    }

    fn is_finished(&self) -> bool {
        self.is_over()
    }
}

impl StdioGame for Multisnake {
    fn text_preamble(&self, seat: usize) -> Option<String> {
        (seat < self.snakes().len()).then(|| multisnake::header(self, seat))
    }

    fn text_input(&self, seat: usize) -> Option<String> {
        multisnake::map_for(self, seat)
    }

    fn text_inputs(&self) -> Vec<Option<String>> {
        if self.is_over() {
            return vec![None; self.snakes().len()];
        }
        let map = multisnake::map(self);
        self.snakes().iter().map(|s| s.alive.then(|| map.clone())).collect()
    }

    fn json_input(&self, seat: usize) -> Option<String> {
        json::multisnake(self, seat).map(|s| json::line(&s))
    }

    fn parse_text_answer(line: &[u8]) -> Result<m::Action, AnswerError> {
        multisnake::parse_answer(line)
    }

    fn action_for(dir: snakepit_engine::Dir) -> m::Action {
        m::Action::Move(dir)
    }

    fn forfeit() -> m::Action {
        m::Action::Forfeit
    }

    fn is_finished(&self) -> bool {
        self.is_over()
    }
}
