//! Reading a SnakeBattle board back: the [`Element`] of every glyph and a
//! [`Board`] parser that also traces snakes from their glyphs.
//!
//! The built-in bots decide from this parse alone, exactly as a remote bot
//! decides from the text it receives; client templates can reuse it.

use super::glyphs as g;
use snakepit_engine::{Dir, Pos};
use std::fmt;

/// One glyph of the board, in upstream's enum order (field objects, my
/// snake, enemy snakes), which clients index by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Element {
    /// ` ` ([`NONE`](super::glyphs::NONE)). Empty cell.
    None,
    /// `☼` ([`WALL`](super::glyphs::WALL)). Wall; a head that enters it dies.
    Wall,
    /// `#` ([`START_FLOOR`](super::glyphs::START_FLOOR)). Start floor, where snakes appear; a head that enters it dies.
    StartFloor,
    /// `?` ([`OTHER`](super::glyphs::OTHER)). Upstream's "never seen" element. Never rendered; parsers accept it.
    Other,
    /// `○` ([`APPLE`](super::glyphs::APPLE)). Apple: +1 length.
    Apple,
    /// `●` ([`STONE`](super::glyphs::STONE)). Stone: -3 length without fury.
    Stone,
    /// `©` ([`FLYING_PILL`](super::glyphs::FLYING_PILL)). Flying pill (codenjoy profile only).
    FlyingPill,
    /// `®` ([`FURY_PILL`](super::glyphs::FURY_PILL)). Fury pill.
    FuryPill,
    /// `$` ([`GOLD`](super::glyphs::GOLD)). Gold: points only.
    Gold,
    /// `▼` ([`HEAD_DOWN`](super::glyphs::HEAD_DOWN)). My head, moving down.
    HeadDown,
    /// `◄` ([`HEAD_LEFT`](super::glyphs::HEAD_LEFT)). My head, moving left.
    HeadLeft,
    /// `►` ([`HEAD_RIGHT`](super::glyphs::HEAD_RIGHT)). My head, moving right.
    HeadRight,
    /// `▲` ([`HEAD_UP`](super::glyphs::HEAD_UP)). My head, moving up.
    HeadUp,
    /// `☻` ([`HEAD_DEAD`](super::glyphs::HEAD_DEAD)). My head, dead (shown for exactly one board).
    HeadDead,
    /// `♥` ([`HEAD_EVIL`](super::glyphs::HEAD_EVIL)). My head, furious.
    HeadEvil,
    /// `♠` ([`HEAD_FLY`](super::glyphs::HEAD_FLY)). My head, flying.
    HeadFly,
    /// `&` ([`HEAD_SLEEP`](super::glyphs::HEAD_SLEEP)). My head, sleeping before the round starts.
    HeadSleep,
    /// `╙` ([`TAIL_END_DOWN`](super::glyphs::TAIL_END_DOWN)). My tail; the body continues upwards from it.
    TailEndDown,
    /// `╘` ([`TAIL_END_LEFT`](super::glyphs::TAIL_END_LEFT)). My tail; the body continues to its right.
    TailEndLeft,
    /// `╓` ([`TAIL_END_UP`](super::glyphs::TAIL_END_UP)). My tail; the body continues downwards from it.
    TailEndUp,
    /// `╕` ([`TAIL_END_RIGHT`](super::glyphs::TAIL_END_RIGHT)). My tail; the body continues to its left.
    TailEndRight,
    /// `~` ([`TAIL_INACTIVE`](super::glyphs::TAIL_INACTIVE)). My tail while my snake sleeps.
    TailInactive,
    /// `═` ([`BODY_HORIZONTAL`](super::glyphs::BODY_HORIZONTAL)). My body, joining left and right.
    BodyHorizontal,
    /// `║` ([`BODY_VERTICAL`](super::glyphs::BODY_VERTICAL)). My body, joining up and down.
    BodyVertical,
    /// `╗` ([`BODY_LEFT_DOWN`](super::glyphs::BODY_LEFT_DOWN)). My body, joining left and down.
    BodyLeftDown,
    /// `╝` ([`BODY_LEFT_UP`](super::glyphs::BODY_LEFT_UP)). My body, joining left and up.
    BodyLeftUp,
    /// `╔` ([`BODY_RIGHT_DOWN`](super::glyphs::BODY_RIGHT_DOWN)). My body, joining right and down.
    BodyRightDown,
    /// `╚` ([`BODY_RIGHT_UP`](super::glyphs::BODY_RIGHT_UP)). My body, joining right and up.
    BodyRightUp,
    /// `˅` ([`ENEMY_HEAD_DOWN`](super::glyphs::ENEMY_HEAD_DOWN)). An enemy head, moving down (U+02C5, not the letter `v`).
    EnemyHeadDown,
    /// `<` ([`ENEMY_HEAD_LEFT`](super::glyphs::ENEMY_HEAD_LEFT)). An enemy head, moving left.
    EnemyHeadLeft,
    /// `>` ([`ENEMY_HEAD_RIGHT`](super::glyphs::ENEMY_HEAD_RIGHT)). An enemy head, moving right.
    EnemyHeadRight,
    /// `˄` ([`ENEMY_HEAD_UP`](super::glyphs::ENEMY_HEAD_UP)). An enemy head, moving up (U+02C4, not `^`).
    EnemyHeadUp,
    /// `☺` ([`ENEMY_HEAD_DEAD`](super::glyphs::ENEMY_HEAD_DEAD)). An enemy head, dead.
    EnemyHeadDead,
    /// `♣` ([`ENEMY_HEAD_EVIL`](super::glyphs::ENEMY_HEAD_EVIL)). An enemy head, furious.
    EnemyHeadEvil,
    /// `♦` ([`ENEMY_HEAD_FLY`](super::glyphs::ENEMY_HEAD_FLY)). An enemy head, flying.
    EnemyHeadFly,
    /// `ø` ([`ENEMY_HEAD_SLEEP`](super::glyphs::ENEMY_HEAD_SLEEP)). An enemy head, sleeping.
    EnemyHeadSleep,
    /// `¤` ([`ENEMY_TAIL_END_DOWN`](super::glyphs::ENEMY_TAIL_END_DOWN)). An enemy tail; the body continues upwards from it.
    EnemyTailEndDown,
    /// `×` ([`ENEMY_TAIL_END_LEFT`](super::glyphs::ENEMY_TAIL_END_LEFT)). An enemy tail; the body continues to its right.
    EnemyTailEndLeft,
    /// `æ` ([`ENEMY_TAIL_END_UP`](super::glyphs::ENEMY_TAIL_END_UP)). An enemy tail; the body continues downwards from it.
    EnemyTailEndUp,
    /// `ö` ([`ENEMY_TAIL_END_RIGHT`](super::glyphs::ENEMY_TAIL_END_RIGHT)). An enemy tail; the body continues to its left.
    EnemyTailEndRight,
    /// `*` ([`ENEMY_TAIL_INACTIVE`](super::glyphs::ENEMY_TAIL_INACTIVE)). An enemy tail while that snake sleeps.
    EnemyTailInactive,
    /// `─` ([`ENEMY_BODY_HORIZONTAL`](super::glyphs::ENEMY_BODY_HORIZONTAL)). Enemy body, joining left and right (U+2500, not `—` U+2014).
    EnemyBodyHorizontal,
    /// `│` ([`ENEMY_BODY_VERTICAL`](super::glyphs::ENEMY_BODY_VERTICAL)). Enemy body, joining up and down (U+2502, not `|`).
    EnemyBodyVertical,
    /// `┐` ([`ENEMY_BODY_LEFT_DOWN`](super::glyphs::ENEMY_BODY_LEFT_DOWN)). Enemy body, joining left and down.
    EnemyBodyLeftDown,
    /// `┘` ([`ENEMY_BODY_LEFT_UP`](super::glyphs::ENEMY_BODY_LEFT_UP)). Enemy body, joining left and up.
    EnemyBodyLeftUp,
    /// `┌` ([`ENEMY_BODY_RIGHT_DOWN`](super::glyphs::ENEMY_BODY_RIGHT_DOWN)). Enemy body, joining right and down.
    EnemyBodyRightDown,
    /// `└` ([`ENEMY_BODY_RIGHT_UP`](super::glyphs::ENEMY_BODY_RIGHT_UP)). Enemy body, joining right and up.
    EnemyBodyRightUp,
}

/// How many snake-part elements each side (mine, enemy) has; the enemy form
/// of a part is its "my" form plus this.
const PARTS: u8 = 19;

impl Element {
    /// Every element, in enum order.
    pub const ALL: [Element; 47] = {
        use Element::*;
        [
            None,
            Wall,
            StartFloor,
            Other,
            Apple,
            Stone,
            FlyingPill,
            FuryPill,
            Gold,
            HeadDown,
            HeadLeft,
            HeadRight,
            HeadUp,
            HeadDead,
            HeadEvil,
            HeadFly,
            HeadSleep,
            TailEndDown,
            TailEndLeft,
            TailEndUp,
            TailEndRight,
            TailInactive,
            BodyHorizontal,
            BodyVertical,
            BodyLeftDown,
            BodyLeftUp,
            BodyRightDown,
            BodyRightUp,
            EnemyHeadDown,
            EnemyHeadLeft,
            EnemyHeadRight,
            EnemyHeadUp,
            EnemyHeadDead,
            EnemyHeadEvil,
            EnemyHeadFly,
            EnemyHeadSleep,
            EnemyTailEndDown,
            EnemyTailEndLeft,
            EnemyTailEndUp,
            EnemyTailEndRight,
            EnemyTailInactive,
            EnemyBodyHorizontal,
            EnemyBodyVertical,
            EnemyBodyLeftDown,
            EnemyBodyLeftUp,
            EnemyBodyRightDown,
            EnemyBodyRightUp,
        ]
    };

    /// The glyph of this element.
    pub const fn glyph(self) -> char {
        use Element::*;
        match self {
            None => g::NONE,
            Wall => g::WALL,
            StartFloor => g::START_FLOOR,
            Other => g::OTHER,
            Apple => g::APPLE,
            Stone => g::STONE,
            FlyingPill => g::FLYING_PILL,
            FuryPill => g::FURY_PILL,
            Gold => g::GOLD,
            HeadDown => g::HEAD_DOWN,
            HeadLeft => g::HEAD_LEFT,
            HeadRight => g::HEAD_RIGHT,
            HeadUp => g::HEAD_UP,
            HeadDead => g::HEAD_DEAD,
            HeadEvil => g::HEAD_EVIL,
            HeadFly => g::HEAD_FLY,
            HeadSleep => g::HEAD_SLEEP,
            TailEndDown => g::TAIL_END_DOWN,
            TailEndLeft => g::TAIL_END_LEFT,
            TailEndUp => g::TAIL_END_UP,
            TailEndRight => g::TAIL_END_RIGHT,
            TailInactive => g::TAIL_INACTIVE,
            BodyHorizontal => g::BODY_HORIZONTAL,
            BodyVertical => g::BODY_VERTICAL,
            BodyLeftDown => g::BODY_LEFT_DOWN,
            BodyLeftUp => g::BODY_LEFT_UP,
            BodyRightDown => g::BODY_RIGHT_DOWN,
            BodyRightUp => g::BODY_RIGHT_UP,
            EnemyHeadDown => g::ENEMY_HEAD_DOWN,
            EnemyHeadLeft => g::ENEMY_HEAD_LEFT,
            EnemyHeadRight => g::ENEMY_HEAD_RIGHT,
            EnemyHeadUp => g::ENEMY_HEAD_UP,
            EnemyHeadDead => g::ENEMY_HEAD_DEAD,
            EnemyHeadEvil => g::ENEMY_HEAD_EVIL,
            EnemyHeadFly => g::ENEMY_HEAD_FLY,
            EnemyHeadSleep => g::ENEMY_HEAD_SLEEP,
            EnemyTailEndDown => g::ENEMY_TAIL_END_DOWN,
            EnemyTailEndLeft => g::ENEMY_TAIL_END_LEFT,
            EnemyTailEndUp => g::ENEMY_TAIL_END_UP,
            EnemyTailEndRight => g::ENEMY_TAIL_END_RIGHT,
            EnemyTailInactive => g::ENEMY_TAIL_INACTIVE,
            EnemyBodyHorizontal => g::ENEMY_BODY_HORIZONTAL,
            EnemyBodyVertical => g::ENEMY_BODY_VERTICAL,
            EnemyBodyLeftDown => g::ENEMY_BODY_LEFT_DOWN,
            EnemyBodyLeftUp => g::ENEMY_BODY_LEFT_UP,
            EnemyBodyRightDown => g::ENEMY_BODY_RIGHT_DOWN,
            EnemyBodyRightUp => g::ENEMY_BODY_RIGHT_UP,
        }
    }

    /// The element a glyph stands for, if it is one of ours.
    pub const fn from_glyph(c: char) -> Option<Element> {
        use Element::*;
        // A match compiles to a jump table; bots parse every cell of every
        // board with this. The unit test holds it equal to `glyph`.
        Some(match c {
            g::NONE => None,
            g::WALL => Wall,
            g::START_FLOOR => StartFloor,
            g::OTHER => Other,
            g::APPLE => Apple,
            g::STONE => Stone,
            g::FLYING_PILL => FlyingPill,
            g::FURY_PILL => FuryPill,
            g::GOLD => Gold,
            g::HEAD_DOWN => HeadDown,
            g::HEAD_LEFT => HeadLeft,
            g::HEAD_RIGHT => HeadRight,
            g::HEAD_UP => HeadUp,
            g::HEAD_DEAD => HeadDead,
            g::HEAD_EVIL => HeadEvil,
            g::HEAD_FLY => HeadFly,
            g::HEAD_SLEEP => HeadSleep,
            g::TAIL_END_DOWN => TailEndDown,
            g::TAIL_END_LEFT => TailEndLeft,
            g::TAIL_END_UP => TailEndUp,
            g::TAIL_END_RIGHT => TailEndRight,
            g::TAIL_INACTIVE => TailInactive,
            g::BODY_HORIZONTAL => BodyHorizontal,
            g::BODY_VERTICAL => BodyVertical,
            g::BODY_LEFT_DOWN => BodyLeftDown,
            g::BODY_LEFT_UP => BodyLeftUp,
            g::BODY_RIGHT_DOWN => BodyRightDown,
            g::BODY_RIGHT_UP => BodyRightUp,
            g::ENEMY_HEAD_DOWN => EnemyHeadDown,
            g::ENEMY_HEAD_LEFT => EnemyHeadLeft,
            g::ENEMY_HEAD_RIGHT => EnemyHeadRight,
            g::ENEMY_HEAD_UP => EnemyHeadUp,
            g::ENEMY_HEAD_DEAD => EnemyHeadDead,
            g::ENEMY_HEAD_EVIL => EnemyHeadEvil,
            g::ENEMY_HEAD_FLY => EnemyHeadFly,
            g::ENEMY_HEAD_SLEEP => EnemyHeadSleep,
            g::ENEMY_TAIL_END_DOWN => EnemyTailEndDown,
            g::ENEMY_TAIL_END_LEFT => EnemyTailEndLeft,
            g::ENEMY_TAIL_END_UP => EnemyTailEndUp,
            g::ENEMY_TAIL_END_RIGHT => EnemyTailEndRight,
            g::ENEMY_TAIL_INACTIVE => EnemyTailInactive,
            g::ENEMY_BODY_HORIZONTAL => EnemyBodyHorizontal,
            g::ENEMY_BODY_VERTICAL => EnemyBodyVertical,
            g::ENEMY_BODY_LEFT_DOWN => EnemyBodyLeftDown,
            g::ENEMY_BODY_LEFT_UP => EnemyBodyLeftUp,
            g::ENEMY_BODY_RIGHT_DOWN => EnemyBodyRightDown,
            g::ENEMY_BODY_RIGHT_UP => EnemyBodyRightUp,
            _ => return Option::None,
        })
    }

    /// Part of the viewer's own snake.
    pub const fn is_mine(self) -> bool {
        let i = self as u8;
        i >= Element::HeadDown as u8 && i < Element::HeadDown as u8 + PARTS
    }

    /// Part of another snake.
    pub const fn is_enemy(self) -> bool {
        self as u8 >= Element::EnemyHeadDown as u8
    }

    /// Part of any snake.
    pub const fn is_snake(self) -> bool {
        self as u8 >= Element::HeadDown as u8
    }

    /// A head, mine or an enemy's, in any state.
    pub const fn is_head(self) -> bool {
        self.is_snake() && self.part_index() < Element::TailEndDown as u8 - Element::HeadDown as u8
    }

    /// A tail, mine or an enemy's.
    pub const fn is_tail(self) -> bool {
        let k = self.part_index();
        self.is_snake()
            && k >= Element::TailEndDown as u8 - Element::HeadDown as u8
            && k <= Element::TailInactive as u8 - Element::HeadDown as u8
    }

    /// A body cell between head and tail, mine or an enemy's.
    pub const fn is_body(self) -> bool {
        self.is_snake() && self.part_index() >= Element::BodyHorizontal as u8 - Element::HeadDown as u8
    }

    /// Index of a snake part among the 19 parts of one side.
    const fn part_index(self) -> u8 {
        let i = self as u8;
        if i >= Element::EnemyHeadDown as u8 {
            i - Element::EnemyHeadDown as u8
        } else {
            i.wrapping_sub(Element::HeadDown as u8)
        }
    }

    /// The enemy form of one of my snake's parts; other elements unchanged.
    pub const fn to_enemy(self) -> Element {
        if self.is_mine() { Element::ALL[(self as u8 + PARTS) as usize] } else { self }
    }

    /// The "my" form of an enemy snake part; other elements unchanged.
    pub const fn to_mine(self) -> Element {
        if self.is_enemy() { Element::ALL[(self as u8 - PARTS) as usize] } else { self }
    }

    /// The direction a head glyph says its snake moves in (only the four
    /// directional heads say it).
    pub const fn head_dir(self) -> Option<Dir> {
        use Element::*;
        match self.to_mine() {
            HeadDown => Some(Dir::Down),
            HeadLeft => Some(Dir::Left),
            HeadRight => Some(Dir::Right),
            HeadUp => Some(Dir::Up),
            _ => Option::None,
        }
    }

    /// The sides on which this glyph joins the rest of its snake: two for a
    /// body cell, the body side for a tail end and for a directional head,
    /// none where the glyph does not say (other heads, inactive tails).
    pub const fn joins(self) -> &'static [Dir] {
        use Element::*;
        match self.to_mine() {
            HeadDown => &[Dir::Up],
            HeadLeft => &[Dir::Right],
            HeadRight => &[Dir::Left],
            HeadUp => &[Dir::Down],
            TailEndDown => &[Dir::Up],
            TailEndLeft => &[Dir::Right],
            TailEndUp => &[Dir::Down],
            TailEndRight => &[Dir::Left],
            BodyHorizontal => &[Dir::Left, Dir::Right],
            BodyVertical => &[Dir::Up, Dir::Down],
            BodyLeftDown => &[Dir::Left, Dir::Down],
            BodyLeftUp => &[Dir::Left, Dir::Up],
            BodyRightDown => &[Dir::Right, Dir::Down],
            BodyRightUp => &[Dir::Right, Dir::Up],
            _ => &[],
        }
    }

    /// Whether a head enters this cell at its peril whatever its state:
    /// walls and start floors (both kill) and the never-seen `OTHER`.
    pub const fn is_barrier(self) -> bool {
        matches!(self, Element::Wall | Element::StartFloor | Element::Other)
    }
}

/// A board that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardError {
    /// No cells at all.
    #[error("the board is empty")]
    Empty,
    /// The number of cells is not a square.
    #[error("{cells} cells is not a square board")]
    NotSquare {
        /// Cells counted (line breaks excluded).
        cells: usize,
    },
    /// A character that no element uses.
    #[error("{glyph:?} at cell {index} is not a SnakeBattle glyph")]
    UnknownGlyph {
        /// The character.
        glyph: char,
        /// 0-based cell index (row by row from the top).
        index: usize,
    },
}

/// A parsed board: `size * size` elements, row by row from the top, `[0,0]`
/// at the top left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    size: usize,
    cells: Vec<Element>,
}

impl Board {
    /// Parses a board string, with or without the `board=` prefix. Line
    /// breaks are skipped, so a board printed as rows reads back too.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let text = text.strip_prefix("board=").unwrap_or(text);
        let mut cells = Vec::with_capacity(text.len());
        for c in text.chars().filter(|&c| c != '\n' && c != '\r') {
            let e = Element::from_glyph(c).ok_or(BoardError::UnknownGlyph { glyph: c, index: cells.len() })?;
            cells.push(e);
        }
        if cells.is_empty() {
            return Err(BoardError::Empty);
        }
        let size = cells.len().isqrt();
        if size * size != cells.len() {
            return Err(BoardError::NotSquare { cells: cells.len() });
        }
        Ok(Board { size, cells })
    }

    /// Width and height.
    pub fn size(&self) -> usize {
        self.size
    }

    /// All cells, row by row from the top.
    pub fn cells(&self) -> &[Element] {
        &self.cells
    }

    /// Cell index of a position, or `None` off the board.
    pub fn index(&self, p: Pos) -> Option<usize> {
        let n = self.size as i64;
        let (x, y) = (i64::from(p.x), i64::from(p.y));
        (x >= 0 && y >= 0 && x < n && y < n).then(|| (y * n + x) as usize)
    }

    /// Position of a cell index.
    pub fn pos(&self, i: usize) -> Pos {
        Pos::new((i % self.size) as i32, (i / self.size) as i32)
    }

    /// The element at a position; off the board reads as a wall, which is
    /// what it is to a snake.
    pub fn get(&self, p: Pos) -> Element {
        self.index(p).map_or(Element::Wall, |i| self.cells[i])
    }

    /// Positions of every cell holding `e`, row by row from the top.
    pub fn find(&self, e: Element) -> impl Iterator<Item = Pos> + '_ {
        self.cells.iter().enumerate().filter(move |(_, c)| **c == e).map(|(i, _)| self.pos(i))
    }

    /// My head, in whatever state, if it is visible.
    pub fn my_head(&self) -> Option<Pos> {
        self.cells.iter().position(|e| e.is_mine() && e.is_head()).map(|i| self.pos(i))
    }

    /// Every snake whose head is visible, traced from head to tail along
    /// its glyphs, in board order of the heads.
    pub fn snakes(&self) -> Vec<SnakeView> {
        (0..self.cells.len()).filter(|&i| self.cells[i].is_head()).map(|i| self.trace(self.pos(i))).collect()
    }

    /// Follows a snake from its head. A body glyph names the two sides it
    /// joins, so from the side we came in by, the other side leads on; the
    /// walk stops at a tail, or where the next glyph does not join back
    /// (a cell hidden under another snake).
    fn trace(&self, head: Pos) -> SnakeView {
        let head_el = self.get(head);
        let mine = head_el.is_mine();
        // A neighbour continues the snake if it is a non-head part of the
        // same side that joins back towards `from` (inactive tails say
        // nothing, so they are taken on trust).
        let continues = |p: Pos, towards: Dir| {
            let e = self.get(p);
            e.is_snake()
                && !e.is_head()
                && e.is_mine() == mine
                && (e.joins().contains(&towards.opposite()) || e.to_mine() == Element::TailInactive)
        };
        let mut cells = vec![head];
        let first = match head_el.joins() {
            [d] => continues(head.step(*d), *d).then_some(*d),
            _ => Dir::ALL.into_iter().find(|&d| continues(head.step(d), d)),
        };
        let Some(mut d) = first else { return SnakeView { mine, head: head_el, cells } };
        let mut at = head.step(d);
        let limit = self.cells.len();
        loop {
            cells.push(at);
            let e = self.get(at);
            if e.is_tail() || cells.len() >= limit {
                break;
            }
            let Some(&out) = e.joins().iter().find(|&&j| j != d.opposite()) else { break };
            if !continues(at.step(out), out) {
                break;
            }
            d = out;
            at = at.step(out);
        }
        SnakeView { mine, head: head_el, cells }
    }
}

impl fmt::Display for Board {
    /// The board as `size` lines, top row first, each ending in `\n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.cells.chunks(self.size) {
            for e in row {
                fmt::Write::write_char(f, e.glyph())?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

/// A snake as far as the board shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnakeView {
    /// Whether it is the viewer's own snake.
    pub mine: bool,
    /// The head glyph, which tells its state.
    pub head: Element,
    /// Visible cells from head to tail; shorter than the snake when part of
    /// it is hidden under another.
    pub cells: Vec<Pos>,
}

impl SnakeView {
    /// Visible length.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Never true: a view has at least its head.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The head cell.
    pub fn head_pos(&self) -> Pos {
        self.cells[0]
    }

    /// The tail cell (the head, for a snake traced no further).
    pub fn tail_pos(&self) -> Pos {
        self.cells[self.cells.len() - 1]
    }

    /// Alive and awake: it will move next tick.
    pub fn is_moving(&self) -> bool {
        !matches!(self.head.to_mine(), Element::HeadDead | Element::HeadSleep)
    }

    /// Shown dead (its body goes away before the next move).
    pub fn is_dead(&self) -> bool {
        self.head.to_mine() == Element::HeadDead
    }

    /// Under a fury pill.
    pub fn is_furious(&self) -> bool {
        self.head.to_mine() == Element::HeadEvil
    }

    /// Under a flying pill.
    pub fn is_flying(&self) -> bool {
        self.head.to_mine() == Element::HeadFly
    }

    /// The direction of its last move: from the head glyph, or else from
    /// where the neck is.
    pub fn dir(&self) -> Option<Dir> {
        self.head.head_dir().or_else(|| self.cells.get(1).and_then(|neck| neck.dir_to(self.cells[0])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_table_is_consistent() {
        for (i, e) in Element::ALL.into_iter().enumerate() {
            assert_eq!(e as usize, i);
            assert_eq!(Element::from_glyph(e.glyph()), Some(e), "{e:?}");
            assert_eq!(e.to_enemy().to_mine(), if e.is_enemy() { e.to_mine() } else { e });
            let kinds = [e.is_head(), e.is_tail(), e.is_body()].iter().filter(|&&b| b).count();
            assert_eq!(kinds, usize::from(e.is_snake()), "{e:?}");
            assert_eq!(e.is_snake(), e.is_mine() || e.is_enemy());
        }
        let glyphs: std::collections::BTreeSet<char> = Element::ALL.iter().map(|e| e.glyph()).collect();
        assert_eq!(glyphs.len(), Element::ALL.len(), "two elements share a glyph");
        assert_eq!(Element::HeadDown.to_enemy(), Element::EnemyHeadDown);
        assert_eq!(Element::EnemyBodyRightUp.to_mine(), Element::BodyRightUp);
    }

    #[test]
    fn parse_rejects_bad_boards() {
        assert_eq!(Board::parse(""), Err(BoardError::Empty));
        assert_eq!(Board::parse("board="), Err(BoardError::Empty));
        assert_eq!(Board::parse("   "), Err(BoardError::NotSquare { cells: 3 }));
        assert_eq!(Board::parse("  | "), Err(BoardError::UnknownGlyph { glyph: '|', index: 2 }));
        assert_eq!(Board::parse("board=☼☼☼ ").map(|b| b.size()), Ok(2));
    }
}
