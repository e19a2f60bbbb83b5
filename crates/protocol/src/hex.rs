//! The Codenjoy Hex wire format: the per-player board message, the command
//! grammar, the browser's view of the field, and the replay setup
//! (`codenjoy.md` §2, §3).
//!
//! # The board message
//!
//! Each tick the server sends every bot one WebSocket text frame,
//! [`message`]`(board)`:
//!
//! ```text
//! board=<size * size glyphs>
//! ```
//!
//! The six ASCII bytes `board=` are followed by exactly `size * size`
//! characters in UTF-8, one per cell, no line breaks, nothing after them.
//! Cells go row by row, **top row first**, left to right: the first
//! character is `[0,0]`, the top-left corner; `x` grows to the right and
//! `y` downwards. The default 15x15 board is 225 characters. Codenjoy's
//! Hex description's 7x7 example, one row per line:
//!
//! ```text
//! ☼☼☼☼☼☼☼
//! ☼ ☺☺  ☼
//! ☼ ☺   ☼
//! ☼     ☼
//! ☼  ☻  ☼
//! ☼     ☼
//! ☼☼☼☼☼☼☼
//! ```
//!
//! ## Glyphs
//!
//! Exactly upstream's `Element` set ([`Element`]); every glyph is in the
//! Basic Multilingual Plane, so UTF-16 units and code points count alike.
//!
//! | Element | Glyph | Code point | Meaning |
//! |---|---|---|---|
//! | `NONE` | ` ` | U+0020 | empty cell |
//! | `WALL` | `☼` | U+263C | wall of the map, or formed by two pieces meeting |
//! | `MY_HERO` | `☺` | U+263A | a piece of the player who receives the board |
//! | `HERO1` | `☻` | U+263B | a piece of seat 0 (the first to join) |
//! | `HERO2` | `♥` | U+2665 | seat 1 |
//! | `HERO3` | `♦` | U+2666 | seat 2 |
//! | `HERO4` | `♣` | U+2663 | seat 3 |
//! | `HERO5` | `♠` | U+2660 | seat 4 |
//! | `HERO6` | `•` | U+2022 | seat 5 |
//! | `HERO7` | `◘` | U+25D8 | seat 6 |
//! | `HERO8` | `○` | U+25CB | seat 7 |
//! | `HERO9` | `◙` | U+25D9 | seat 8 |
//! | `HERO10` | `♂` | U+2642 | seat 9 |
//! | `HERO11` | `♀` | U+2640 | seat 10, and every later seat |
//!
//! The board is **per player**: the receiver's own pieces are `☺`; every
//! other player's pieces carry that player's glyph, which depends only on
//! the seat, that is on join order (upstream gives each player the first
//! `HERO` element no present player holds, which is the same thing because
//! a free seat is reused lowest first). The 12th and later players all share
//! `♀`. A spectator's board ([`render_board`] with `None`) has no `☺`.
//!
//! # Commands
//!
//! A bot answers each board with one text frame. [`parse_command`] gives
//! the grammar, [`read_command`] its meaning for one seat of a game:
//!
//! - `ACT(x,y),DIR` clones the piece at `[x,y]` one cell towards `DIR`
//!   (`UP`, `DOWN`, `LEFT`, `RIGHT`); `ACT(x,y,1),DIR` jumps it two cells.
//!   `y` is counted **from the top**, like the board (Hex description:
//!   `ACT(2,3),LEFT`, `ACT(1,1,1),UP`). `ACT(x,y,0)` is a clone too.
//! - Words are found as upstream's `PlayerCommand` finds them: the answer
//!   is scanned for `left|right|up|down|act(...)|message('...')`, ASCII
//!   case-insensitive; anything between matches is ignored, spaces next to
//!   commas are dropped first (`ACT(2, 3), left` is `ACT(2,3),LEFT`).
//! - Commands run in order. `ACT(x,y)` selects the player's piece at
//!   `[x,y]`; a cell off the board or not theirs clears the selection. A
//!   direction moves the selected piece; with nothing selected it does
//!   nothing, so `LEFT,ACT(2,3)` does nothing. One move per tick: the last
//!   direction given to a selection wins, and a later selection with its
//!   own direction replaces the move (`ACT(1,1),LEFT,ACT(2,2),UP` moves
//!   `[2,2]`).
//! - Malformed `ACT`s are ignored and clear the selection: `ACT` without
//!   coordinates, one coordinate, more than three arguments, a third
//!   argument other than 0 or 1, a number that does not fit 32 bits.
//! - `""` (the Java client's answer when it has nothing to do) is no move.
//!
//! [`read_command`] returns the [`Action`] and, for the player's page, a
//! [`Note`] on what was ignored and why. It never panics and reads at most
//! [`COMMAND_CHARS_MAX`] characters and [`COMMAND_TOKENS_MAX`] commands.
//! Whether the target is free is the engine's to say, at the tick
//! (`Event::Ignored`, in words by [`ignored_text`]).
//!
//! # Browsers
//!
//! [`FieldView`] is the field as JSON for the room page: the static cells,
//! and the pieces of every seat, so that the page can colour them by seat
//! and let a person click a piece and then a target one or two cells away;
//! [`Action::between`] and [`command_text`] turn the two clicks into the
//! command a bot would send.
//!
//! # Replays
//!
//! [`Hex`] implements [`ReplayGame`] (`"game":"hex"`): settings as
//! `key=value`, the map in its glyphs, actions in the engine's compact text
//! (`C2,3L`, `J1,1U`, `-`). A replay is rebuilt with
//! [`Hex::new`](snakepit_engine::hex::Hex::new): a fixed number of seats,
//! all present from the start. Joins and leaves are not in the format yet,
//! so a room's game (`Hex::new_room` and `join`) cannot be replayed.

use crate::replay::{ReplayGame, SetupError};
use serde::Serialize;
use snakepit_engine::hex::{Action, Cell, Hex, Ignored, Map, SeatIdx, Settings};
use snakepit_engine::{Dir, Pos};
use std::borrow::Cow;
use std::fmt;

pub use crate::codenjoy::message;

/// One cell of a Hex board as a client sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Element {
    /// `NONE`, an empty cell: ` `.
    None,
    /// `WALL`: `☼`.
    Wall,
    /// `MY_HERO`, a piece of the receiver: `☺`.
    MyHero,
    /// `HERO1` to `HERO11`: another player's piece; the number is 1 to 11.
    Hero(u8),
}

/// The glyphs of `HERO1` to `HERO11`, in order.
pub const HERO_GLYPHS: [char; 11] = ['☻', '♥', '♦', '♣', '♠', '•', '◘', '○', '◙', '♂', '♀'];

impl Element {
    /// The element of another player's pieces: `HERO1` for seat 0, up to
    /// `HERO11` for seat 10 and every later seat.
    pub fn of_seat(seat: SeatIdx) -> Element {
        Element::Hero(seat.min(HERO_GLYPHS.len() - 1) as u8 + 1)
    }

    /// The glyph sent on the wire.
    pub fn glyph(self) -> char {
        match self {
            Element::None => ' ',
            Element::Wall => '☼',
            Element::MyHero => '☺',
            Element::Hero(k) => HERO_GLYPHS[usize::from(k.clamp(1, 11)) - 1],
        }
    }

    /// The element of a glyph, if it is one.
    pub fn from_glyph(c: char) -> Option<Element> {
        match c {
            ' ' => Some(Element::None),
            '☼' => Some(Element::Wall),
            '☺' => Some(Element::MyHero),
            _ => HERO_GLYPHS.iter().position(|&g| g == c).map(|k| Element::Hero(k as u8 + 1)),
        }
    }

    /// Any player's piece, the receiver's included.
    pub fn is_piece(self) -> bool {
        matches!(self, Element::MyHero | Element::Hero(_))
    }
}

/// The board one seat sees: its own pieces `☺`, others in their seat's
/// glyph. `None` renders a spectator's board, with no `☺`. Exactly
/// `size * size` characters, top row first, no prefix, no line breaks.
pub fn render_board(game: &Hex, viewer: Option<SeatIdx>) -> String {
    let mut out = String::with_capacity(game.cells().len() * 3);
    out.extend(game.cells().iter().map(|&c| match c {
        Cell::Piece(s) if Some(s) == viewer => '☺',
        other => cell_glyph(other),
    }));
    out
}

/// Every seat's board, indexed by seat; equal to `render_board(game,
/// Some(seat))` for each seat.
///
/// The spectator's board is encoded once; each seat's board is a copy of
/// it with that seat's cells patched to `☺`. Every piece glyph, `☺`
/// included, is three bytes of UTF-8, so a patch never moves the rest of
/// the text.
pub fn render_boards(game: &Hex) -> Vec<String> {
    let cells = game.cells();
    let mut background = String::with_capacity(cells.len() * 3);
    // Byte offsets of the pieces of each seat.
    let mut own: Vec<Vec<usize>> = vec![Vec::new(); game.players().len()];
    for &c in cells {
        if let Cell::Piece(s) = c
            && let Some(v) = own.get_mut(s)
        {
            v.push(background.len());
        }
        background.push(cell_glyph(c));
    }
    own.iter()
        .map(|offsets| {
            let mut board = background.clone();
            for &at in offsets {
                board.replace_range(at..at + MY_GLYPH_LEN, "☺");
            }
            board
        })
        .collect()
}

/// Bytes of `☺`, which are as many as of every other piece glyph.
const MY_GLYPH_LEN: usize = '☺'.len_utf8();

const _: () = {
    let mut i = 0;
    while i < HERO_GLYPHS.len() {
        assert!(HERO_GLYPHS[i].len_utf8() == MY_GLYPH_LEN, "piece glyphs must all be as long as ☺");
        i += 1;
    }
};

fn cell_glyph(c: Cell) -> char {
    match c {
        Cell::Empty => ' ',
        Cell::Wall => '☼',
        Cell::Piece(s) => Element::of_seat(s).glyph(),
    }
}

/// A board as a client reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    size: usize,
    cells: Vec<Element>,
}

/// Largest board [`Board::parse`] reads, in characters (a 200x200 map).
pub const BOARD_CHARS_MAX: usize = 200 * 200;

/// A text that is not a Hex board.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BoardError {
    /// No cells.
    Empty,
    /// The number of characters is not a square.
    NotSquare(usize),
    /// More than [`BOARD_CHARS_MAX`] characters.
    TooLarge,
    /// A character that is not a Hex glyph.
    UnknownGlyph {
        /// The character.
        glyph: char,
        /// Its 0-based index among the cells.
        index: usize,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Empty => write!(f, "the board is empty"),
            BoardError::NotSquare(n) => write!(f, "{n} cells is not a square board"),
            BoardError::TooLarge => write!(f, "more than {BOARD_CHARS_MAX} cells"),
            BoardError::UnknownGlyph { glyph, index } => write!(f, "cell {index}: {glyph:?} is not a Hex glyph"),
        }
    }
}

impl std::error::Error for BoardError {}

impl Board {
    /// Reads a board, with or without its `board=` prefix.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let text = text.strip_prefix("board=").unwrap_or(text);
        let mut cells = Vec::with_capacity(text.len().min(BOARD_CHARS_MAX));
        for (index, glyph) in text.chars().enumerate() {
            if index == BOARD_CHARS_MAX {
                return Err(BoardError::TooLarge);
            }
            cells.push(Element::from_glyph(glyph).ok_or(BoardError::UnknownGlyph { glyph, index })?);
        }
        if cells.is_empty() {
            return Err(BoardError::Empty);
        }
        let size = cells.len().isqrt();
        if size * size != cells.len() {
            return Err(BoardError::NotSquare(cells.len()));
        }
        Ok(Board { size, cells })
    }

    /// Board side.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Every cell, row by row from the top.
    pub fn cells(&self) -> &[Element] {
        &self.cells
    }

    /// The cell at `p`; off the board reads as a wall.
    pub fn get(&self, p: Pos) -> Element {
        self.index(p).map_or(Element::Wall, |i| self.cells[i])
    }

    /// Cell index of `p`, or `None` off the board.
    pub fn index(&self, p: Pos) -> Option<usize> {
        let n = self.size as i64;
        let (x, y) = (i64::from(p.x), i64::from(p.y));
        (x >= 0 && y >= 0 && x < n && y < n).then(|| (y * n + x) as usize)
    }

    /// Position of a cell index.
    pub fn pos(&self, i: usize) -> Pos {
        Pos::new((i % self.size) as i32, (i / self.size) as i32)
    }

    /// The receiver's pieces, row by row from the top.
    pub fn mine(&self) -> Vec<Pos> {
        self.positions(|e| e == Element::MyHero)
    }

    /// Every other player's pieces, row by row from the top.
    pub fn enemies(&self) -> Vec<Pos> {
        self.positions(|e| matches!(e, Element::Hero(_)))
    }

    fn positions(&self, f: impl Fn(Element) -> bool) -> Vec<Pos> {
        (0..self.cells.len()).filter(|&i| f(self.cells[i])).map(|i| self.pos(i)).collect()
    }

    /// The board as text, one row per line, for people and tests.
    pub fn to_rows(&self) -> String {
        let mut s = String::new();
        for row in self.cells.chunks(self.size) {
            s.extend(row.iter().map(|e| e.glyph()));
            s.push('\n');
        }
        s
    }
}

/// Only this many characters at the start of an answer are read; the rest
/// is ignored, so a hostile answer costs bounded work.
pub const COMMAND_CHARS_MAX: usize = 1000;

/// At most this many commands are taken from one answer.
pub const COMMAND_TOKENS_MAX: usize = 16;

/// One recognised command of an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token {
    /// `UP`, `DOWN`, `LEFT` or `RIGHT`.
    Dir(Dir),
    /// `ACT(x,y)`, `ACT(x,y,0)` (`jump: false`) or `ACT(x,y,1)`.
    Select {
        /// The cell, `y` from the top.
        at: Pos,
        /// Two cells instead of one.
        jump: bool,
    },
    /// An `ACT` that selects nothing.
    BadAct(BadAct),
}

/// What is wrong with an `ACT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadAct {
    /// `ACT` or `ACT()`.
    NoCoordinates,
    /// One argument, or more than three.
    ArgumentCount(usize),
    /// An argument that is empty (`ACT(1,,2)`), not a number (`ACT(-)`) or
    /// does not fit 32 bits.
    NotANumber,
    /// A third argument other than 0 (clone) or 1 (jump).
    JumpFlag(i32),
}

/// The commands of an answer, in order. Never panics; reads at most
/// [`COMMAND_CHARS_MAX`] characters and returns at most
/// [`COMMAND_TOKENS_MAX`] tokens.
pub fn parse_command(text: &str) -> Vec<Token> {
    let text = match text.char_indices().nth(COMMAND_CHARS_MAX) {
        Some((cut, _)) => &text[..cut],
        None => text,
    };
    let text = join_commas(text);
    let b = text.as_bytes();
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < b.len() && tokens.len() < COMMAND_TOKENS_MAX {
        let rest = &b[at..];
        let word = |w: &str| rest.len() >= w.len() && rest[..w.len()].eq_ignore_ascii_case(w.as_bytes());
        if let Some((w, d)) =
            [("left", Dir::Left), ("right", Dir::Right), ("up", Dir::Up), ("down", Dir::Down)].into_iter().find(|(w, _)| word(w))
        {
            tokens.push(Token::Dir(d));
            at += w.len();
        } else if word("act") {
            let args = match rest.get(3) {
                Some(b'(') => {
                    let n = rest[4..].iter().take_while(|c| c.is_ascii_digit() || **c == b'-' || **c == b',').count();
                    (rest.get(4 + n) == Some(&b')')).then_some(n)
                }
                _ => None,
            };
            match args {
                Some(n) => {
                    tokens.push(act(&text[at + 4..at + 4 + n]));
                    at += 4 + n + 1;
                }
                None => {
                    tokens.push(Token::BadAct(BadAct::NoCoordinates));
                    at += 3;
                }
            }
        } else if word("message") {
            at += message_len(&text[at..]);
        } else {
            // Command words are ASCII, so stepping a byte at a time never
            // matches inside a multi-byte character.
            at += 1;
        }
    }
    tokens
}

/// Upstream's `replaceAll(", +", ",")` and `replaceAll(" +,", ",")`.
fn join_commas(text: &str) -> Cow<'_, str> {
    if !text.contains(", ") && !text.contains(" ,") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut spaces = 0;
    for c in text.chars() {
        if c == ' ' {
            spaces += 1;
            continue;
        }
        if spaces > 0 && c != ',' && !out.ends_with(',') {
            out.extend(std::iter::repeat_n(' ', spaces));
        }
        spaces = 0;
        out.push(c);
    }
    if !out.ends_with(',') {
        out.extend(std::iter::repeat_n(' ', spaces));
    }
    Cow::Owned(out)
}

/// `ACT(args)`: the arguments split at commas, trailing empty ones dropped
/// (as Java's `split` does).
fn act(args: &str) -> Token {
    let args = args.trim_end_matches(',');
    if args.is_empty() {
        return Token::BadAct(BadAct::NoCoordinates);
    }
    let count = args.split(',').count();
    if !(2..=3).contains(&count) {
        return Token::BadAct(BadAct::ArgumentCount(count));
    }
    let mut v = [0i32; 3];
    for (slot, arg) in v.iter_mut().zip(args.split(',')) {
        match arg.parse() {
            Ok(n) => *slot = n,
            Err(_) => return Token::BadAct(BadAct::NotANumber),
        }
    }
    let jump = match (count, v[2]) {
        (2, _) | (3, 0) => false,
        (3, 1) => true,
        (_, flag) => return Token::BadAct(BadAct::JumpFlag(flag)),
    };
    Token::Select { at: Pos::new(v[0], v[1]), jump }
}

/// Length of a `message` at the start of `text`: with its quoted text up
/// to the last `')` on the line (upstream's greedy regex), or the bare word.
fn message_len(text: &str) -> usize {
    let bare = "message".len();
    let Some(body) = text[bare..].strip_prefix("('") else { return bare };
    let line = body.find(['\n', '\r']).map_or(body, |k| &body[..k]);
    match line.rfind("')") {
        Some(k) => bare + 2 + k + 2,
        None => bare,
    }
}

/// What an answer means for one seat, and what in it was ignored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The move, or [`Action::Skip`].
    pub action: Action,
    /// What in the answer was ignored, or why there is no move; `None` for
    /// a clean move. When several things were, the last selection problem
    /// wins (a direction without a selection is only reported when nothing
    /// else explains it).
    pub note: Option<Note>,
}

/// Why (part of) an answer was ignored, for the player's page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note {
    /// The answer was empty: no move this tick.
    Empty,
    /// The answer holds no command word at all.
    NothingRecognised,
    /// An `ACT(...)` that selects nothing.
    Malformed(BadAct),
    /// `ACT(x,y)` selected a cell off the board.
    OffBoard(Pos),
    /// `ACT(x,y)` selected a cell without one of the player's pieces.
    NotYourPiece(Pos),
    /// `ACT(x,y)` was not followed by a direction.
    NoDirection(Pos),
    /// A direction came with no piece selected.
    NoSelection(Dir),
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Note::Empty => write!(f, "empty answer: no move this tick"),
            Note::NothingRecognised => {
                write!(f, "no command recognised: no move this tick (send ACT(x,y),DIR or ACT(x,y,1),DIR)")
            }
            Note::Malformed(BadAct::NoCoordinates) => {
                write!(f, "ACT needs the piece's coordinates, as in ACT(2,3),LEFT: ignored")
            }
            Note::Malformed(BadAct::ArgumentCount(n)) => {
                write!(f, "ACT takes 2 or 3 numbers, not {n}: ignored")
            }
            Note::Malformed(BadAct::NotANumber) => write!(f, "ACT has an argument that is not a number: ignored"),
            Note::Malformed(BadAct::JumpFlag(v)) => {
                write!(f, "the third number of ACT must be 1 (jump) or 0 (clone), not {v}: ignored")
            }
            Note::OffBoard(p) => write!(f, "ACT({},{}) is off the board: ignored", p.x, p.y),
            Note::NotYourPiece(p) => write!(
                f,
                "ACT({},{}) is not your piece (x from the left, y from the top): selection cleared",
                p.x, p.y
            ),
            Note::NoDirection(p) => write!(
                f,
                "ACT({},{}) must be followed by a direction, as in ACT({},{}),LEFT: no move from it",
                p.x, p.y, p.x, p.y
            ),
            Note::NoSelection(d) => {
                write!(f, "{} with no piece selected does nothing (put ACT(x,y) first)", dir_word(d))
            }
        }
    }
}

impl Reading {
    /// One line for the player's page: the move, then what was ignored.
    pub fn describe(&self) -> String {
        let head = match self.action {
            Action::Skip => "no move".to_string(),
            Action::Move { from, dir, jump } => {
                format!("{} [{},{}] {}", if jump { "jump" } else { "clone" }, from.x, from.y, dir_word(dir))
            }
        };
        match self.note {
            Some(n) => format!("{head}; {n}"),
            None => head,
        }
    }
}

/// Reads tokens for a board of side `size`, where `mine` says which cells
/// hold the reader's pieces.
pub fn read_tokens(tokens: &[Token], size: usize, mine: impl Fn(Pos) -> bool) -> Reading {
    let n = size as i64;
    let on_board = |p: Pos| (0..n).contains(&i64::from(p.x)) && (0..n).contains(&i64::from(p.y));
    let mut selection: Option<(Pos, bool)> = None;
    let mut directed = false;
    let mut action = Action::Skip;
    let mut note = None;
    for &t in tokens {
        match t {
            Token::Select { at, jump } => {
                selection = None;
                if !on_board(at) {
                    note = Some(Note::OffBoard(at));
                } else if !mine(at) {
                    note = Some(Note::NotYourPiece(at));
                } else {
                    selection = Some((at, jump));
                    directed = false;
                }
            }
            Token::BadAct(b) => {
                selection = None;
                note = Some(Note::Malformed(b));
            }
            Token::Dir(dir) => match selection {
                Some((from, jump)) => {
                    action = Action::Move { from, dir, jump };
                    directed = true;
                }
                // A direction is unselected because of what came before
                // it, which is the more useful thing to tell.
                None => {
                    note.get_or_insert(Note::NoSelection(dir));
                }
            },
        }
    }
    if let Some((at, _)) = selection.filter(|_| !directed) {
        note = Some(Note::NoDirection(at));
    }
    Reading { action, note }
}

/// What `text` means for `seat` in `game`, read against the position the
/// next [`Game::step`](snakepit_engine::Game::step) starts from.
pub fn read_command(game: &Hex, seat: SeatIdx, text: &str) -> Reading {
    let tokens = parse_command(text);
    if tokens.is_empty() {
        // Only the part the parser reads counts, so that a huge answer of
        // spaces costs no more than a short one.
        let read = text.char_indices().nth(COMMAND_CHARS_MAX).map_or(text, |(cut, _)| &text[..cut]);
        let note = if read.trim().is_empty() { Note::Empty } else { Note::NothingRecognised };
        return Reading { action: Action::Skip, note: Some(note) };
    }
    read_tokens(&tokens, game.size(), |p| game.cell(p) == Cell::Piece(seat))
}

/// Why the engine ignored a move (its `Event::Ignored`), in words for the
/// player's page: what [`read_command`] cannot know before the tick.
pub fn ignored_text(why: Ignored) -> &'static str {
    match why {
        Ignored::NotYourPiece => "the selected cell does not hold one of your pieces: no move",
        Ignored::OffBoard => "the target is off the board: no move",
        Ignored::Wall => "the target is a wall: no move",
        Ignored::Occupied => "the target holds a piece: no move",
        Ignored::Restart => "everyone restarted this tick: the move was for the old position",
    }
}

/// The command a client sends for an action: `ACT(x,y),DIR`,
/// `ACT(x,y,1),DIR`, or `""` for a skip.
pub fn command_text(action: &Action) -> String {
    match *action {
        Action::Skip => String::new(),
        Action::Move { from, dir, jump } => {
            format!("ACT({},{}{}),{}", from.x, from.y, if jump { ",1" } else { "" }, dir_word(dir))
        }
    }
}

fn dir_word(d: Dir) -> &'static str {
    match d {
        Dir::Up => "UP",
        Dir::Right => "RIGHT",
        Dir::Down => "DOWN",
        Dir::Left => "LEFT",
    }
}

/// The field as the room page draws it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct FieldView {
    /// Board side.
    pub size: usize,
    /// `size * size` characters, top row first: `☼` for a wall (the map's
    /// or a formed one), a space for everything else.
    pub cells: String,
    /// By seat: the cells of its pieces as `[x, y]`, row by row.
    pub pieces: Vec<Vec<[i32; 2]>>,
    /// By seat: the score.
    pub scores: Vec<i64>,
    /// By seat: whether a player holds it.
    pub present: Vec<bool>,
}

impl From<&Hex> for FieldView {
    fn from(game: &Hex) -> FieldView {
        let n = game.size();
        let mut pieces = vec![Vec::new(); game.players().len()];
        for (i, c) in game.cells().iter().enumerate() {
            if let Cell::Piece(s) = *c {
                pieces[s].push([(i % n) as i32, (i / n) as i32]);
            }
        }
        FieldView {
            size: n,
            cells: game.cells().iter().map(|&c| if c == Cell::Wall { '☼' } else { ' ' }).collect(),
            pieces,
            scores: game.players().iter().map(|p| p.score).collect(),
            present: game.players().iter().map(|p| p.present).collect(),
        }
    }
}

impl ReplayGame for Hex {
    const NAME: &'static str = "hex";

    fn settings_pairs(&self) -> Vec<(String, String)> {
        self.settings().to_pairs().into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    }

    fn map_rows(&self) -> Vec<String> {
        self.map().to_text().lines().map(str::to_string).collect()
    }

    fn from_setup(settings: &[(String, String)], map: &[String], seats: usize, seed: u64) -> Result<Self, SetupError> {
        // A replay lists every setting of its day; one that lists the
        // others but not `still_restart_ticks` was played before that rule
        // existed, so without it.
        let has = |key: &str| settings.iter().any(|(k, _)| k == key);
        let before_still = has("restart_clears_walls") && !has("still_restart_ticks");
        let pairs = settings.iter().map(|(k, v)| (k.as_str(), v.as_str()));
        let settings = Settings::from_pairs(pairs.chain(before_still.then_some(("still_restart_ticks", "0"))))
            .map_err(|e| SetupError::Settings(e.to_string()))?;
        let map = Map::parse(&map.join("\n")).map_err(|e| {
            // The map's message starts with "line N: "; in a replay the
            // line is the header's, so the map's line becomes a row.
            let full = e.to_string();
            let message = full.strip_prefix(&format!("line {}: ", e.line)).unwrap_or(&full).to_string();
            SetupError::Map { row: e.line, message }
        })?;
        Hex::new(settings, map, seats, seed).map_err(|e| SetupError::Game(e.to_string()))
    }

    const SEATS_COME_AND_GO: bool = true;

    fn set_seat_present(&mut self, seat: usize, present: bool) {
        self.set_present(seat, present);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_from_before_the_still_rule_play_without_it() {
        let map = Map::default_map().to_text().lines().map(str::to_string).collect::<Vec<_>>();
        let pairs = |list: &[(&str, &str)]| list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
        let old = pairs(&[("profile", "seed"), ("points_win", "30"), ("points_lose", "10"), ("restart_clears_walls", "true"), ("players_per_field", "11")]);
        let game = <Hex as ReplayGame>::from_setup(&old, &map, 2, 1).unwrap();
        assert_eq!(game.settings().still_restart_ticks, 0);
        // A header that names only what it changes gets today's defaults.
        let short = pairs(&[("profile", "seed")]);
        assert_eq!(<Hex as ReplayGame>::from_setup(&short, &map, 2, 1).unwrap().settings().still_restart_ticks, 30);
        let now = <Hex as ReplayGame>::from_setup(&Hex::new(Settings::default(), Map::default_map(), 2, 1).unwrap().settings_pairs(), &map, 2, 1);
        assert_eq!(now.unwrap().settings().still_restart_ticks, 30);
    }

    #[test]
    fn join_commas_matches_upstream_replacements() {
        assert_eq!(join_commas("a , ,  b"), "a,,b");
        assert_eq!(join_commas("ACT(1, 2 ,   3)"), "ACT(1,2,3)");
        assert_eq!(join_commas("left  right"), "left  right");
        assert_eq!(join_commas(" , "), ",");
        assert_eq!(join_commas("a, b  "), "a,b  ");
    }

    #[test]
    fn message_extent() {
        assert_eq!(message_len("message"), 7);
        assert_eq!(message_len("message(')"), 7);
        assert_eq!(message_len("message('')"), 11);
        assert_eq!(message_len("message('a'),left,message('b')"), 30);
        assert_eq!(message_len("message('a\n'),left"), 7);
    }

    #[test]
    fn every_glyph_reads_back() {
        for e in [Element::None, Element::Wall, Element::MyHero].into_iter().chain((1..=11).map(Element::Hero)) {
            assert_eq!(Element::from_glyph(e.glyph()), Some(e));
        }
        assert_eq!(Element::of_seat(0), Element::Hero(1));
        assert_eq!(Element::of_seat(10), Element::Hero(11));
        assert_eq!(Element::of_seat(11), Element::Hero(11));
        assert_eq!(Element::of_seat(usize::MAX), Element::Hero(11));
    }
}
