//! How snakepit shows a game to people: as text ([`text`]: the board rows,
//! a status line and the events, for `play --watch` and `replay`), and as a
//! web page that plays a replay tick by tick ([`html`]: `replay --html`,
//! and the server's pages of finished games).
//!
//! Both draw any game through [`text::TerminalView`], so a new game only
//! has to say how its state reads as text; the page adds colours per seat
//! ([`html::HtmlView`]).

pub mod html;
pub mod text;
