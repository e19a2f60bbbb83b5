//! The SnakeBattle board: every glyph the server sends, and helpers to ask
//! the board questions.
//!
//! Coordinates: x grows to the right, y grows downwards, and (0, 0) is the
//! top-left corner, i.e. the first character of the board string.

// The helpers are here for you to use; the simple solver uses only a few.
#![allow(dead_code)]

/// Every glyph of the board, in the order of Codenjoy's Element enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Element {
    // Field objects.
    None,
    Wall,
    StartFloor,
    Other,
    Apple,
    Stone,
    FlyingPill,
    FuryPill,
    Gold,

    // My snake.
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

    // Enemy snakes.
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
}

use Element::*;

/// Each element with its glyph.
pub const GLYPHS: [(Element, char); 47] = [
    (None, ' '),
    (Wall, '☼'),
    (StartFloor, '#'),
    (Other, '?'),
    (Apple, '○'),
    (Stone, '●'),
    (FlyingPill, '©'),
    (FuryPill, '®'),
    (Gold, '$'),
    (HeadDown, '▼'),
    (HeadLeft, '◄'),
    (HeadRight, '►'),
    (HeadUp, '▲'),
    (HeadDead, '☻'),
    (HeadEvil, '♥'),
    (HeadFly, '♠'),
    (HeadSleep, '&'),
    (TailEndDown, '╙'),
    (TailEndLeft, '╘'),
    (TailEndUp, '╓'),
    (TailEndRight, '╕'),
    (TailInactive, '~'),
    (BodyHorizontal, '═'),
    (BodyVertical, '║'),
    (BodyLeftDown, '╗'),
    (BodyLeftUp, '╝'),
    (BodyRightDown, '╔'),
    (BodyRightUp, '╚'),
    (EnemyHeadDown, '˅'),
    (EnemyHeadLeft, '<'),
    (EnemyHeadRight, '>'),
    (EnemyHeadUp, '˄'),
    (EnemyHeadDead, '☺'),
    (EnemyHeadEvil, '♣'),
    (EnemyHeadFly, '♦'),
    (EnemyHeadSleep, 'ø'),
    (EnemyTailEndDown, '¤'),
    (EnemyTailEndLeft, '×'),
    (EnemyTailEndUp, 'æ'),
    (EnemyTailEndRight, 'ö'),
    (EnemyTailInactive, '*'),
    (EnemyBodyHorizontal, '─'),
    (EnemyBodyVertical, '│'),
    (EnemyBodyLeftDown, '┐'),
    (EnemyBodyLeftUp, '┘'),
    (EnemyBodyRightDown, '┌'),
    (EnemyBodyRightUp, '└'),
];

impl Element {
    /// The element for a glyph; `Other` for one this client does not know,
    /// so that a newer server cannot crash an older client.
    pub fn of(glyph: char) -> Element {
        GLYPHS
            .iter()
            .find(|(_, g)| *g == glyph)
            .map_or(Other, |(e, _)| *e)
    }

    /// The glyph the server uses for this element.
    pub fn glyph(self) -> char {
        GLYPHS
            .iter()
            .find(|(e, _)| *e == self)
            .map_or('?', |(_, g)| *g)
    }

    pub fn is_my_head(self) -> bool {
        matches!(
            self,
            HeadDown | HeadLeft | HeadRight | HeadUp | HeadDead | HeadEvil | HeadFly | HeadSleep
        )
    }

    /// Every cell of my snake but the head.
    pub fn is_my_body(self) -> bool {
        matches!(
            self,
            TailEndDown
                | TailEndLeft
                | TailEndUp
                | TailEndRight
                | TailInactive
                | BodyHorizontal
                | BodyVertical
                | BodyLeftDown
                | BodyLeftUp
                | BodyRightDown
                | BodyRightUp
        )
    }

    pub fn is_enemy_head(self) -> bool {
        matches!(
            self,
            EnemyHeadDown
                | EnemyHeadLeft
                | EnemyHeadRight
                | EnemyHeadUp
                | EnemyHeadDead
                | EnemyHeadEvil
                | EnemyHeadFly
                | EnemyHeadSleep
        )
    }

    pub fn is_enemy_body(self) -> bool {
        matches!(
            self,
            EnemyTailEndDown
                | EnemyTailEndLeft
                | EnemyTailEndUp
                | EnemyTailEndRight
                | EnemyTailInactive
                | EnemyBodyHorizontal
                | EnemyBodyVertical
                | EnemyBodyLeftDown
                | EnemyBodyLeftUp
                | EnemyBodyRightDown
                | EnemyBodyRightUp
        )
    }

    /// Whether moving the head here kills or hurts: walls, start floors, any
    /// snake, and the unknown `Other`.
    pub fn is_barrier(self) -> bool {
        matches!(self, Wall | StartFloor | Other)
            || self.is_my_head()
            || self.is_my_body()
            || self.is_enemy_head()
            || self.is_enemy_body()
    }
}

/// A cell as (x, y).
pub type Point = (i32, i32);

/// One board as the server sent it.
pub struct Board {
    /// Cells per side.
    pub size: i32,
    cells: Vec<Element>,
}

impl Board {
    /// Parses a board, with or without its `board=` prefix.
    pub fn parse(text: &str) -> Result<Board, String> {
        let text = text.strip_prefix("board=").unwrap_or(text);
        let cells: Vec<Element> = text.chars().map(Element::of).collect();
        let size = (cells.len() as f64).sqrt().round() as i32;
        if (size * size) as usize != cells.len() {
            return Err(format!(
                "a board has a square number of cells, not {}",
                cells.len()
            ));
        }
        Ok(Board { size, cells })
    }

    /// The element at (x, y); `Wall` outside the board.
    pub fn get_at(&self, (x, y): Point) -> Element {
        if x < 0 || y < 0 || x >= self.size || y >= self.size {
            return Wall;
        }
        self.cells[(y * self.size + x) as usize]
    }

    /// Every cell whose element passes `test`, in reading order.
    pub fn find_where(&self, test: impl Fn(Element) -> bool) -> Vec<Point> {
        (0..self.cells.len() as i32)
            .filter(|&i| test(self.cells[i as usize]))
            .map(|i| (i % self.size, i / self.size))
            .collect()
    }

    /// Every cell holding one of the elements, in reading order.
    pub fn find_all(&self, elements: &[Element]) -> Vec<Point> {
        self.find_where(|e| elements.contains(&e))
    }

    /// My head, or `None` when it is not on the board.
    pub fn my_head(&self) -> Option<Point> {
        self.find_where(Element::is_my_head).first().copied()
    }

    /// Every cell of my snake except the head.
    pub fn my_body(&self) -> Vec<Point> {
        self.find_where(Element::is_my_body)
    }

    pub fn my_length(&self) -> usize {
        self.my_body().len() + usize::from(self.my_head().is_some())
    }

    pub fn is_alive(&self) -> bool {
        self.my_head().is_some_and(|h| self.get_at(h) != HeadDead)
    }

    pub fn is_sleeping(&self) -> bool {
        self.my_head().is_some_and(|h| self.get_at(h) == HeadSleep)
    }

    pub fn enemy_heads(&self) -> Vec<Point> {
        self.find_where(Element::is_enemy_head)
    }

    pub fn enemy_body(&self) -> Vec<Point> {
        self.find_where(Element::is_enemy_body)
    }

    pub fn apples(&self) -> Vec<Point> {
        self.find_all(&[Apple])
    }

    pub fn gold(&self) -> Vec<Point> {
        self.find_all(&[Gold])
    }

    pub fn stones(&self) -> Vec<Point> {
        self.find_all(&[Stone])
    }

    pub fn walls(&self) -> Vec<Point> {
        self.find_all(&[Wall])
    }

    pub fn start_floors(&self) -> Vec<Point> {
        self.find_all(&[StartFloor])
    }

    pub fn fury_pills(&self) -> Vec<Point> {
        self.find_all(&[FuryPill])
    }

    pub fn flying_pills(&self) -> Vec<Point> {
        self.find_all(&[FlyingPill])
    }

    /// Whether moving the head onto `p` kills or hurts: walls, start floors,
    /// anything off the board, and any snake.
    pub fn is_barrier(&self, p: Point) -> bool {
        self.get_at(p).is_barrier()
    }
}

impl std::fmt::Display for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for row in self.cells.chunks(self.size as usize) {
            let line: String = row.iter().map(|e| e.glyph()).collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}
