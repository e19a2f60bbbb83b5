//! Every glyph of the SnakeBattle board, named as upstream's `Element` enum
//! names it (`codenjoy.md` §1.2).
//!
//! These are the only characters [`render_board`](super::render_board) and
//! [`render_boards`](super::render_boards) ever emit. The CodeBattle
//! description's `—` (U+2014) and `|` for the enemy body are a typo in its
//! README, and `%` and `@` are pre-2019 pill glyphs; none of them appears here,
//! because strict clients (the CodeBattle Python client) crash on characters
//! they do not know.

/// Empty cell.
pub const NONE: char = ' ';
/// Wall; a head that enters it dies.
pub const WALL: char = '☼';
/// Start floor, where snakes appear; a head that enters it dies.
pub const START_FLOOR: char = '#';
/// Upstream's "never seen" element. Never rendered; parsers accept it.
pub const OTHER: char = '?';
/// Apple: +1 length.
pub const APPLE: char = '○';
/// Stone: -3 length without fury.
pub const STONE: char = '●';
/// Flying pill (codenjoy profile only).
pub const FLYING_PILL: char = '©';
/// Fury pill.
pub const FURY_PILL: char = '®';
/// Gold: points only.
pub const GOLD: char = '$';

/// My head, moving down.
pub const HEAD_DOWN: char = '▼';
/// My head, moving left.
pub const HEAD_LEFT: char = '◄';
/// My head, moving right.
pub const HEAD_RIGHT: char = '►';
/// My head, moving up.
pub const HEAD_UP: char = '▲';
/// My head, dead (shown for exactly one board).
pub const HEAD_DEAD: char = '☻';
/// My head, furious.
pub const HEAD_EVIL: char = '♥';
/// My head, flying.
pub const HEAD_FLY: char = '♠';
/// My head, sleeping before the round starts.
pub const HEAD_SLEEP: char = '&';
/// My tail; the body continues upwards from it.
pub const TAIL_END_DOWN: char = '╙';
/// My tail; the body continues to its right.
pub const TAIL_END_LEFT: char = '╘';
/// My tail; the body continues downwards from it.
pub const TAIL_END_UP: char = '╓';
/// My tail; the body continues to its left.
pub const TAIL_END_RIGHT: char = '╕';
/// My tail while my snake sleeps.
pub const TAIL_INACTIVE: char = '~';
/// My body, joining left and right.
pub const BODY_HORIZONTAL: char = '═';
/// My body, joining up and down.
pub const BODY_VERTICAL: char = '║';
/// My body, joining left and down.
pub const BODY_LEFT_DOWN: char = '╗';
/// My body, joining left and up.
pub const BODY_LEFT_UP: char = '╝';
/// My body, joining right and down.
pub const BODY_RIGHT_DOWN: char = '╔';
/// My body, joining right and up.
pub const BODY_RIGHT_UP: char = '╚';

/// An enemy head, moving down (U+02C5, not the letter `v`).
pub const ENEMY_HEAD_DOWN: char = '˅';
/// An enemy head, moving left.
pub const ENEMY_HEAD_LEFT: char = '<';
/// An enemy head, moving right.
pub const ENEMY_HEAD_RIGHT: char = '>';
/// An enemy head, moving up (U+02C4, not `^`).
pub const ENEMY_HEAD_UP: char = '˄';
/// An enemy head, dead.
pub const ENEMY_HEAD_DEAD: char = '☺';
/// An enemy head, furious.
pub const ENEMY_HEAD_EVIL: char = '♣';
/// An enemy head, flying.
pub const ENEMY_HEAD_FLY: char = '♦';
/// An enemy head, sleeping.
pub const ENEMY_HEAD_SLEEP: char = 'ø';
/// An enemy tail; the body continues upwards from it.
pub const ENEMY_TAIL_END_DOWN: char = '¤';
/// An enemy tail; the body continues to its right.
pub const ENEMY_TAIL_END_LEFT: char = '×';
/// An enemy tail; the body continues downwards from it.
pub const ENEMY_TAIL_END_UP: char = 'æ';
/// An enemy tail; the body continues to its left.
pub const ENEMY_TAIL_END_RIGHT: char = 'ö';
/// An enemy tail while that snake sleeps.
pub const ENEMY_TAIL_INACTIVE: char = '*';
/// Enemy body, joining left and right (U+2500, not `—` U+2014).
pub const ENEMY_BODY_HORIZONTAL: char = '─';
/// Enemy body, joining up and down (U+2502, not `|`).
pub const ENEMY_BODY_VERTICAL: char = '│';
/// Enemy body, joining left and down.
pub const ENEMY_BODY_LEFT_DOWN: char = '┐';
/// Enemy body, joining left and up.
pub const ENEMY_BODY_LEFT_UP: char = '┘';
/// Enemy body, joining right and down.
pub const ENEMY_BODY_RIGHT_DOWN: char = '┌';
/// Enemy body, joining right and up.
pub const ENEMY_BODY_RIGHT_UP: char = '└';

/// Characters that must never appear in a board we send: the CodeBattle
/// description's typos and the legacy pill glyphs.
pub const FORBIDDEN: [char; 4] = ['%', '@', '—', '|'];
