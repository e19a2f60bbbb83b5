//! The Codenjoy SnakeBattle wire format: the per-player board message and
//! the command grammar, as upstream Codenjoy speaks them (`codenjoy.md` §1.2,
//! §1.3, §2).
//!
//! # The board message
//!
//! Each tick the server sends every bot one WebSocket text frame:
//!
//! ```text
//! board=<size * size glyphs>
//! ```
//!
//! The six ASCII bytes `board=` are followed by exactly `size * size`
//! characters in UTF-8, one per cell, with no line breaks and nothing after
//! them (see [`message`]). Clients recover `size` as the square root of the
//! character count; every glyph is in the Basic Multilingual Plane, so
//! counting UTF-16 units (JavaScript) or code points (Python) gives the same
//! number. The default map is 30x30: 900 characters, between 900 and 2700
//! bytes.
//!
//! Cells go row by row, **top row first**, left to right: the first
//! character is `[0,0]`, the top-left corner, and `x` grows to the right,
//! `y` downwards (the engine's [`Pos`](snakepit_engine::Pos) convention).
//!
//! The board is **per player**: the receiver's own snake is drawn in the
//! "my" glyphs, every other snake in the enemy glyphs. A spectator's board
//! ([`render_board`] with `None`) draws every snake as an enemy.
//!
//! ## Glyphs
//!
//! Exactly upstream's set; the constants are in [`glyphs`], the parsed form
//! is [`Element`]. Nothing else is ever sent: not the CodeBattle
//! description's `—` (U+2014) or `|`, which are typos for U+2500 and U+2502,
//! and not the legacy `%` and `@`.
//!
//! | Element | Glyph | Code point | UTF-8 |
//! |---|---|---|---|
//! | `NONE` (empty) | ` ` | U+0020 | `20` |
//! | `WALL` | `☼` | U+263C | `E2 98 BC` |
//! | `START_FLOOR` | `#` | U+0023 | `23` |
//! | `OTHER` (never sent) | `?` | U+003F | `3F` |
//! | `APPLE` | `○` | U+25CB | `E2 97 8B` |
//! | `STONE` | `●` | U+25CF | `E2 97 8F` |
//! | `FLYING_PILL` | `©` | U+00A9 | `C2 A9` |
//! | `FURY_PILL` | `®` | U+00AE | `C2 AE` |
//! | `GOLD` | `$` | U+0024 | `24` |
//!
//! | Part | Mine | Code point | Enemy | Code point |
//! |---|---|---|---|---|
//! | head moving down | `▼` | U+25BC | `˅` | U+02C5 |
//! | head moving left | `◄` | U+25C4 | `<` | U+003C |
//! | head moving right | `►` | U+25BA | `>` | U+003E |
//! | head moving up | `▲` | U+25B2 | `˄` | U+02C4 |
//! | head, dead | `☻` | U+263B | `☺` | U+263A |
//! | head, furious (`EVIL`) | `♥` | U+2665 | `♣` | U+2663 |
//! | head, flying | `♠` | U+2660 | `♦` | U+2666 |
//! | head, sleeping | `&` | U+0026 | `ø` | U+00F8 |
//! | tail, body above it (`TAIL_END_DOWN`) | `╙` | U+2559 | `¤` | U+00A4 |
//! | tail, body on its right (`TAIL_END_LEFT`) | `╘` | U+2558 | `×` | U+00D7 |
//! | tail, body below it (`TAIL_END_UP`) | `╓` | U+2553 | `æ` | U+00E6 |
//! | tail, body on its left (`TAIL_END_RIGHT`) | `╕` | U+2555 | `ö` | U+00F6 |
//! | tail, sleeping snake (`TAIL_INACTIVE`) | `~` | U+007E | `*` | U+002A |
//! | body, left-right | `═` | U+2550 | `─` | U+2500 |
//! | body, up-down | `║` | U+2551 | `│` | U+2502 |
//! | body, joins left and down | `╗` | U+2557 | `┐` | U+2510 |
//! | body, joins left and up | `╝` | U+255D | `┘` | U+2518 |
//! | body, joins right and down | `╔` | U+2554 | `┌` | U+250C |
//! | body, joins right and up | `╚` | U+255A | `└` | U+2514 |
//!
//! A tail end is named after where it points, away from the body: in the
//! CodeBattle description's sample board `╘═╝` is a tail with the body going
//! right, and `×─>` an enemy lying left to right with its head on the right.
//!
//! ## Which glyph a cell shows
//!
//! One glyph per cell; where several things share a cell the first one
//! drawn in this order wins (upstream's `SnakeBoard.reader()`):
//!
//! 1. heads of dead snakes;
//! 2. whole bodies of flying snakes;
//! 3. whole bodies of the other snakes;
//! 4. walls, items and start floors (the engine never puts two of these on
//!    one cell).
//!
//! Within groups 1-3 shorter snakes are drawn first, so they lie on top;
//! equal lengths go by seat. Each snake is drawn from its head to its tail,
//! so its head wins over its own body. A snake part off the board is not
//! drawn. Dead snakes are drawn whole for the one board on which they are
//! dead, and a freshly spawned snake's tail lies in the wall left of its
//! start floor, drawn over the wall.
//!
//! A head shows, in this order of precedence: dead, sleeping, flying,
//! furious, else its direction of travel. A tail shows `TAIL_INACTIVE` while
//! its snake sleeps. A body cell's glyph joins the sides of its two
//! neighbouring segments.
//!
//! # Commands
//!
//! A bot answers each board with one text frame; [`parse_command`] gives the
//! grammar and [`parse_action`] its meaning under a rule profile. Examples:
//! `UP`, `down`, `ACT`, `ACT,LEFT` and `LEFT,ACT` (a stone before or after
//! the move in the `codebattle` profile), `ACT(0)` (suicide), `ACT(2,3),LEFT`,
//! and `""` (keep going).
//!
//! # Reading boards
//!
//! [`Board`] parses a board (with or without `board=`) into [`Element`]s
//! and traces snakes from their glyphs. The built-in bots use it and
//! nothing else, so they see exactly what a remote bot sees.

mod board;
mod command;
pub mod glyphs;
mod render;

pub use board::{Board, BoardError, Element, SnakeView};
pub use command::{COMMAND_CHARS_MAX, COMMAND_TOKENS_MAX, parse_action, parse_command, parse_command_counted};
pub use render::{render_board, render_boards};

/// The WebSocket text frame that carries a board: `"board="` + `board`.
pub fn message(board: &str) -> String {
    let mut m = String::with_capacity("board=".len() + board.len());
    m.push_str("board=");
    m.push_str(board);
    m
}
