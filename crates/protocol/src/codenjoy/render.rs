//! Drawing a SnakeBattle state as per-player board strings.
//!
//! Two implementations of one rule set live here on purpose.
//! [`render_board`] is the plain one: it walks upstream's drawing order and
//! lets the first object drawn on a cell win, as `SnakeBoard.reader()` does.
//! [`render_boards`] is the fast one the server calls every tick: it paints
//! the same order backwards (the last write wins), encodes one shared
//! background with every snake in enemy glyphs, and then builds each seat's
//! string by copying byte ranges of it and patching only that seat's own
//! cells. A property test holds the two equal.

use super::board::Element;
use snakepit_engine::Pos;
use snakepit_engine::snakebattle::{Item, Snake, SnakeBattle, SnakeIdx, Terrain};
use std::sync::OnceLock;

/// Renders the board one seat sees: its own snake in "my" glyphs, every
/// other snake in enemy glyphs. `None` renders a spectator's board, with
/// every snake in enemy glyphs. Exactly `size * size` characters, top row
/// first, no prefix and no line breaks.
pub fn render_board(game: &SnakeBattle, seat: Option<SnakeIdx>) -> String {
    let map = game.map();
    let snakes = game.snakes();
    // First drawn wins, in upstream's order: dead heads, then flying
    // snakes, then the others, each group shortest first (a stable sort, so
    // seat order breaks ties), each snake from its head to its tail.
    let mut shown: Vec<Option<(Element, SnakeIdx)>> = vec![None; map.size * map.size];
    let mut draw = |p: Pos, part: Element, owner: SnakeIdx| {
        if let Some(i) = map.index(p) {
            shown[i].get_or_insert((part, owner));
        }
    };
    let mut by_length: Vec<SnakeIdx> = (0..snakes.len()).collect();
    by_length.sort_by_key(|&i| snakes[i].len());
    for &i in &by_length {
        if let Some(head) = snakes[i].head().filter(|_| !snakes[i].alive) {
            draw(head, Element::EnemyHeadDead, i);
        }
    }
    for flying in [true, false] {
        for &i in by_length.iter().filter(|&&i| (snakes[i].flying > 0) == flying) {
            for (k, &p) in snakes[i].body.iter().enumerate() {
                draw(p, part(&snakes[i], k), i);
            }
        }
    }
    let items = game.items();
    shown
        .iter()
        .enumerate()
        .map(|(i, s)| match *s {
            Some((part, owner)) if Some(owner) == seat => part.to_mine().glyph(),
            Some((part, _)) => part.glyph(),
            None => field(map.terrain[i], items[i]).glyph(),
        })
        .collect()
}

/// Renders every seat's board at once, indexed by seat; equal to
/// `render_board(game, Some(seat))` for each seat, but the work shared by
/// all seats is done once.
pub fn render_boards(game: &SnakeBattle) -> Vec<String> {
    let scene = Scene::paint(game);
    let background = Background::encode(&scene.cells);
    let mut own = Vec::new();
    let snakes = game.snakes();
    (0..snakes.len()).map(|seat| background.for_seat(&scene, &snakes[seat], seat, &mut own)).collect()
}

/// What every cell shows before the viewer is known: the element (snake
/// parts in their enemy form) and, for a snake part, its seat.
struct Scene {
    size: usize,
    cells: Vec<Element>,
    /// The seat of the snake part on a cell; meaningless on other cells.
    owner: Vec<u32>,
}

impl Scene {
    fn paint(game: &SnakeBattle) -> Scene {
        let map = game.map();
        let cells = map.terrain.iter().zip(game.items()).map(|(&t, &it)| field(t, it)).collect();
        let mut scene = Scene { size: map.size, cells, owner: vec![0; map.size * map.size] };
        let snakes = game.snakes();
        // Upstream's order reversed, so that the last write wins: the
        // longest snakes first (later seats first among equals), non-flying
        // before flying, each from tail to head; dead heads last of all.
        let mut order: Vec<SnakeIdx> = (0..snakes.len()).filter(|&i| !snakes[i].is_empty()).collect();
        order.sort_by(|&a, &b| snakes[b].len().cmp(&snakes[a].len()).then(b.cmp(&a)));
        for flying in [false, true] {
            for &i in order.iter().filter(|&&i| (snakes[i].flying > 0) == flying) {
                let s = &snakes[i];
                for k in (0..s.len()).rev() {
                    scene.put(map.index(s.body[k]), part(s, k), i);
                }
            }
        }
        for &i in order.iter().filter(|&&i| !snakes[i].alive) {
            scene.put(map.index(snakes[i].body[0]), Element::EnemyHeadDead, i);
        }
        scene
    }

    fn put(&mut self, cell: Option<usize>, part: Element, owner: SnakeIdx) {
        if let Some(i) = cell {
            self.cells[i] = part;
            self.owner[i] = owner as u32;
        }
    }
}

/// The spectator's board as text, with the byte offset of every cell so
/// that a seat's board can be spliced together from it.
struct Background {
    text: String,
    /// `offsets[i]..offsets[i + 1]` is cell `i`; one entry more than cells.
    offsets: Vec<u32>,
}

/// Longest run of equal glyphs copied in one piece.
const RUN_MAX: usize = 32;

impl Background {
    /// Copies whole runs of equal glyphs at a time: a row is mostly long
    /// runs of floor and wall, so this is a couple of hundred copies for a
    /// 30x30 board instead of one per cell, and, every piece being a `&str`
    /// already, the text needs no UTF-8 validation. Each loop is kept free
    /// of calls but the one copy per run, which keeps it in registers.
    fn encode(cells: &[Element]) -> Background {
        let mut at = 0;
        let mut offsets = Vec::with_capacity(cells.len() + 1);
        offsets.extend(cells.iter().map(|&e| {
            let start = at;
            at += u32::from(WIDTH[e as usize]);
            start
        }));
        offsets.push(at);
        let runs = glyph_runs();
        let mut text = String::with_capacity(at as usize);
        let mut rest = cells;
        while let Some(&e) = rest.first() {
            let run = rest.iter().take(RUN_MAX).take_while(|&&c| c == e).count();
            text.push_str(&runs[e as usize][..run * usize::from(WIDTH[e as usize])]);
            rest = &rest[run..];
        }
        Background { text, offsets }
    }

    /// One seat's board: the background with that seat's visible cells
    /// turned into "my" glyphs. `own` is scratch space reused across seats.
    fn for_seat(&self, scene: &Scene, snake: &Snake, seat: SnakeIdx, own: &mut Vec<usize>) -> String {
        own.clear();
        let size = scene.size as i32;
        own.extend(snake.body.iter().filter_map(|p| {
            let inside = p.x >= 0 && p.y >= 0 && p.x < size && p.y < size;
            let i = inside.then(|| (p.y * size + p.x) as usize)?;
            (scene.owner[i] == seat as u32 && scene.cells[i].is_snake()).then_some(i)
        }));
        if own.is_empty() {
            return self.text.clone();
        }
        own.sort_unstable();
        // A flying snake may cross itself; each cell is patched once.
        own.dedup();
        let mut out = String::with_capacity(self.text.len() + own.len() * 2);
        let mut copied = 0;
        for &i in own.iter() {
            let (start, end) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
            out.push_str(&self.text[copied..start]);
            out.push(scene.cells[i].to_mine().glyph());
            copied = end;
        }
        out.push_str(&self.text[copied..]);
        out
    }
}

/// UTF-8 width of every element's glyph, by element.
const WIDTH: [u8; Element::ALL.len()] = {
    let mut w = [0; Element::ALL.len()];
    let mut i = 0;
    while i < w.len() {
        w[i] = Element::ALL[i].glyph().len_utf8() as u8;
        i += 1;
    }
    w
};

/// For every element, its glyph repeated [`RUN_MAX`] times.
fn glyph_runs() -> &'static [String] {
    static RUNS: OnceLock<Vec<String>> = OnceLock::new();
    RUNS.get_or_init(|| Element::ALL.iter().map(|e| e.glyph().to_string().repeat(RUN_MAX)).collect())
}

/// What a cell without a snake shows. The engine keeps items off walls and
/// start floors, so the two layers never compete for a cell.
fn field(terrain: Terrain, item: Option<Item>) -> Element {
    match (terrain, item) {
        (Terrain::Wall, _) => Element::Wall,
        (Terrain::StartFloor, _) => Element::StartFloor,
        (Terrain::Empty, None) => Element::None,
        (Terrain::Empty, Some(Item::Apple)) => Element::Apple,
        (Terrain::Empty, Some(Item::Stone)) => Element::Stone,
        (Terrain::Empty, Some(Item::Gold)) => Element::Gold,
        (Terrain::Empty, Some(Item::FuryPill)) => Element::FuryPill,
        (Terrain::Empty, Some(Item::FlyingPill)) => Element::FlyingPill,
    }
}

/// The enemy-form element of segment `k` (0 = head) of a snake.
fn part(s: &Snake, k: usize) -> Element {
    let body = &s.body;
    if k == 0 {
        head(s)
    } else if k + 1 == body.len() {
        if s.active { tail(body[k - 1], body[k]) } else { Element::EnemyTailInactive }
    } else {
        turn(body[k + 1], body[k], body[k - 1])
    }
}

/// Upstream's precedence of head states: dead, asleep, flying, furious,
/// and only then the direction.
fn head(s: &Snake) -> Element {
    use snakepit_engine::Dir;
    if !s.alive {
        Element::EnemyHeadDead
    } else if !s.active {
        Element::EnemyHeadSleep
    } else if s.flying > 0 {
        Element::EnemyHeadFly
    } else if s.fury > 0 {
        Element::EnemyHeadEvil
    } else {
        match s.dir {
            Dir::Up => Element::EnemyHeadUp,
            Dir::Right => Element::EnemyHeadRight,
            Dir::Down => Element::EnemyHeadDown,
            Dir::Left => Element::EnemyHeadLeft,
        }
    }
}

/// A tail end is named after where it points, away from its body:
/// `TAIL_END_LEFT` has the body on its right. The comparisons are upstream's
/// (`Hero.getTailDirection`), so degenerate bodies (a segment repeated, or
/// not adjacent) get the same glyph as there.
fn tail(body: Pos, tail: Pos) -> Element {
    if body.x == tail.x {
        if body.y > tail.y { Element::EnemyTailEndUp } else { Element::EnemyTailEndDown }
    } else if body.x < tail.x {
        Element::EnemyTailEndRight
    } else {
        Element::EnemyTailEndLeft
    }
}

/// A body glyph joins the sides towards its two neighbours: `prev` on the
/// tail side, `next` on the head side.
fn turn(prev: Pos, at: Pos, next: Pos) -> Element {
    if prev.x == next.x {
        return Element::EnemyBodyVertical;
    }
    if prev.y == next.y {
        return Element::EnemyBodyHorizontal;
    }
    let (beside, above_or_below) = if prev.y == at.y { (prev, next) } else { (next, prev) };
    match (beside.x < at.x, above_or_below.y < at.y) {
        (true, true) => Element::EnemyBodyLeftUp,
        (true, false) => Element::EnemyBodyLeftDown,
        (false, true) => Element::EnemyBodyRightUp,
        (false, false) => Element::EnemyBodyRightDown,
    }
}
