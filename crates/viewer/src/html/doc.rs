//! The viewer's data: one JSON document holding a whole re-simulated game,
//! tick by tick, compact enough to embed in a page.
//!
//! # Format, version 2
//!
//! ```text
//! {"viewer":1,
//!  "header":{"game":"multisnake","engine":"5","seed":"5","seats":2,
//!            "players":["builtin:random","python3 bot.py"],
//!            "settings":[["turns_max","2000"],...],"map":["#..#",...]},
//!  "width":40,"height":20,"stderr_log":true,
//!  "start":{"b":"<width*height glyphs>","o":"<width*height seat marks>",
//!           "c":"<width*height background glyphs>",
//!           "sn":[{"s":0,"a":true,"b":[3,4,3,5]},...],
//!           "s":"turn 0 | A ...","sc":[0,0],"al":[true,true]},
//!  "ticks":[{"t":1,"m":["^","<"],"b":[41,"A^",...],"o":[41,"AA",...],
//!            "c":[12,"."],"sn":[...],
//!            "s":[0,"turn 1"],"sc":[1,0],
//!            "ev":["..."],"log":[{"seat":1,"stderr":["tick 1"],"dropped":0,"fault":null}]},
//!           ...],
//!  "fork":{"mode":"command","file":"game.jsonl"}}
//! ```
//!
//! `start` is the game before its first tick; `ticks[i]` the state after
//! tick `i + 1`. `b` is the board as [`TerminalView::board_rows`] draws it,
//! row after row without separators; `o` says on each cell which seat's
//! snake lies there (`A` for seat 0, `B` for seat 1... up to `Z`, `.` for
//! none), because several games draw every snake in the same glyphs. In a
//! tick, `b` and `o` hold only what changed since the tick before, as pairs
//! of a cell index and the characters from that cell on: the viewer applies
//! them in order. `c` is the board's background as the live pages' frames
//! have it (`cells` in `snakepit_protocol::spectator::Frame`: no snakes, no
//! pieces), changed the same way as `b` and absent from a tick when
//! unchanged; `sn` the snakes (in Hex the pieces) by seat, head first, as
//! flat `[x, y, ...]` lists with whether the seat plays (`a`), is asleep
//! (`z`) and its fury (`f`) and flying (`l`) ticks left, absent from a tick
//! when unchanged. With them the page draws a replay with the renderer of
//! the live pages; `b` and `o` are the text view. `m` is each seat's move as the replay records it (the
//! game's compact text). `s` is the status line: in a tick, either the
//! whole line or, when it has as many ` | ` parts as the tick before, only
//! the changed parts as pairs of a part index and its new text. `sc` (the
//! scores) and `al` (whether each seat still plays) are absent from a tick
//! when unchanged. `ev` holds the events (absent when none) and `log` what
//! each seat wrote on stderr in that tick and its fault (absent when the
//! stderr log has nothing for the tick). `stderr_log` says whether a log was
//! found at all, so that the viewer can tell "nothing written" from "not
//! recorded".
//!
//! `fork`, absent when the page offers none, is how the page offers to
//! continue the game from the shown tick `t` with another bot in one seat
//! ([`ForkOffer`]): the fork plays ticks `1..=t` as recorded and the bot
//! from tick `t + 1` on. Either `{"mode":"command","file":F}`: the page
//! shows `snakepit replay 'F' --from-tick N --bot SEAT=SPEC` to copy; or
//! `{"mode":"server","endpoint":E,"bots":["builtin:greedy",...]}`: the page
//! posts `{"from_tick":N,"seat":S,"bot":B}` to `E` and follows the fork's
//! status until its replay is there.
//!
//! Everything is derived by re-simulating the replay, so the viewer always
//! shows the game the checksums verify.

use super::ForkOffer;
use super::stderr_log::StderrLog;
use crate::text::TerminalView;
use serde_json::{Value, json};
use snakepit_engine::Pos;
use snakepit_engine::battlesnake::Battlesnake;
use snakepit_engine::carrots::Carrots;
use snakepit_engine::duel::Duel;
use snakepit_engine::hex::Hex;
use snakepit_engine::multisnake::Multisnake;
use snakepit_engine::snakebattle::SnakeBattle;
use snakepit_protocol::replay::{Divergence, Replay};

/// The version in the document's `viewer` key.
pub const DOC_VERSION: u64 = 2;

/// Up to this many unchanged cells between two changed ones are sent again
/// rather than starting a new pair, which costs about as much.
const DIFF_GAP_CELLS_MAX: usize = 4;

/// The seat marks in `o`: one letter per seat, so at most 26 seats are
/// told apart (more are drawn without a seat colour).
const SEAT_MARKS: &[u8; 26] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// A game the viewer can show: its terminal view plus where each seat's
/// snake lies, which the terminal glyphs do not always say.
pub trait HtmlView: TerminalView {
    /// Each seat's snake cells, head first (in a game of pieces, such as
    /// Hex, its pieces), and whether the seat still plays. A cell may lie
    /// off the board; it is then ignored.
    fn seat_bodies(&self) -> Vec<SeatBody>;

    /// The seat marks take the first snake listed for a cell when `true`,
    /// the last one when `false`, matching how the game's board draws
    /// overlapping snakes.
    const FIRST_DRAWN_WINS: bool = false;

    /// The board without snakes or pieces, in the glyphs of the live
    /// pages' frames (`cells` in `snakepit_protocol::spectator::Frame`),
    /// `width * height` of them, top row first: the shared board renderer
    /// draws a replay from it as it draws a live room.
    fn live_cells(&self) -> String;

    /// How seat `seat`'s snake looks beyond its cells.
    fn snake_look(&self, _seat: usize) -> SnakeLook {
        SnakeLook::default()
    }
}

/// What the board renderer shows of a snake beyond its cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SnakeLook {
    /// Waiting for its round to start.
    pub sleeping: bool,
    /// Fury ticks left.
    pub fury: u32,
    /// Flying ticks left.
    pub flying: u32,
}

/// One seat's snake, as [`HtmlView::seat_bodies`] gives it.
pub struct SeatBody {
    /// The seat.
    pub seat: usize,
    /// Still playing.
    pub alive: bool,
    /// Cells, head first.
    pub cells: Vec<Pos>,
}

impl HtmlView for SnakeBattle {
    /// The board draws dead heads first, then flying snakes, then the
    /// others, shortest first, and the first drawn wins.
    const FIRST_DRAWN_WINS: bool = true;

    fn live_cells(&self) -> String {
        snakepit_protocol::spectator::snakebattle_cells(self)
    }

    fn snake_look(&self, seat: usize) -> SnakeLook {
        let Some(s) = self.snakes().get(seat) else { return SnakeLook::default() };
        SnakeLook { sleeping: s.alive && !s.active, fury: s.fury, flying: s.flying }
    }

    fn seat_bodies(&self) -> Vec<SeatBody> {
        let snakes = self.snakes();
        let mut by_length: Vec<usize> = (0..snakes.len()).collect();
        by_length.sort_by_key(|&i| snakes[i].len());
        let mut out = Vec::new();
        for &i in &by_length {
            if let Some(head) = snakes[i].head().filter(|_| !snakes[i].alive) {
                out.push(SeatBody { seat: i, alive: false, cells: vec![head] });
            }
        }
        for flying in [true, false] {
            for &i in by_length.iter().filter(|&&i| (snakes[i].flying > 0) == flying) {
                let s = &snakes[i];
                out.push(SeatBody { seat: i, alive: s.alive, cells: s.body.iter().copied().collect() });
            }
        }
        out
    }
}

/// Battlesnake: `.` empty, `o` food, `~` hazard (food in a hazard shows
/// as food).
impl HtmlView for Battlesnake {
    fn live_cells(&self) -> String {
        let (w, h) = (self.width().max(0) as usize, self.height().max(0) as usize);
        let mut cells = vec!['.'; w * h];
        let mut put = |p: Pos, c: char| {
            if p.x >= 0 && p.y >= 0 && (p.x as usize) < w && (p.y as usize) < h {
                cells[p.y as usize * w + p.x as usize] = c;
            }
        };
        self.hazards().for_each(|p| put(p, '~'));
        self.food().for_each(|p| put(p, 'o'));
        cells.into_iter().collect()
    }

    fn seat_bodies(&self) -> Vec<SeatBody> {
        (0..self.snakes().len())
            .filter(|&seat| self.snakes()[seat].is_alive())
            .map(|seat| SeatBody { seat, alive: true, cells: self.body(seat).collect() })
            .collect()
    }
}

impl HtmlView for Carrots {
    fn live_cells(&self) -> String {
        let (w, h) = (self.width(), self.height());
        (0..h).flat_map(|y| (0..w).map(move |x| Pos::new(x as i32, y as i32))).map(|p| if self.is_apple(p) { 'o' } else { '.' }).collect()
    }

    /// Dead snakes are listed too: their bodies stay on the board until
    /// the respawn, and the viewer dims them in their seat's colour.
    fn seat_bodies(&self) -> Vec<SeatBody> {
        let snakes = self.snakes().iter().enumerate();
        snakes
            .map(|(seat, s)| SeatBody { seat, alive: s.is_alive(), cells: s.body.iter().copied().collect() })
            .collect()
    }
}

impl HtmlView for Duel {
    fn live_cells(&self) -> String {
        self.map().walls().iter().map(|&wall| if wall { '#' } else { '.' }).collect()
    }

    fn seat_bodies(&self) -> Vec<SeatBody> {
        let snakes = self.snakes().iter().enumerate();
        snakes.map(|(seat, s)| SeatBody { seat, alive: s.alive, cells: s.body.iter().copied().collect() }).collect()
    }
}

impl HtmlView for Multisnake {
    fn live_cells(&self) -> String {
        use snakepit_engine::multisnake::Tile;
        let glyph = |t: &Tile| match t {
            Tile::Wall => '#',
            Tile::Plus => '+',
            Tile::Minus => '-',
            Tile::Empty => '.',
        };
        self.tiles().iter().map(glyph).collect()
    }

    fn seat_bodies(&self) -> Vec<SeatBody> {
        let snakes = self.snakes().iter().enumerate();
        snakes.map(|(seat, s)| SeatBody { seat, alive: s.alive, cells: s.body.iter().copied().collect() }).collect()
    }
}

/// Hex: each seat's pieces are its cells, in the board's order; a seat
/// plays while a player holds it (a seat without pieces gets a fresh one
/// at the next restart).
impl HtmlView for Hex {
    fn live_cells(&self) -> String {
        use snakepit_engine::hex::Cell;
        self.cells().iter().map(|c| if *c == Cell::Wall { '☼' } else { ' ' }).collect()
    }

    fn seat_bodies(&self) -> Vec<SeatBody> {
        let players = self.players().iter().enumerate();
        players.map(|(seat, p)| SeatBody { seat, alive: p.present, cells: self.pieces_of(seat) }).collect()
    }
}

/// One state as the viewer draws it: cells as characters, `width * height`
/// of them.
struct Frame {
    board: Vec<char>,
    owners: Vec<char>,
    /// The background in the live pages' glyphs ([`HtmlView::live_cells`]).
    cells: Vec<char>,
    /// The snakes (or pieces) by seat, as `sn` holds them.
    snakes: Value,
}

impl Frame {
    fn of<G: HtmlView>(game: &G, width: usize, height: usize) -> Frame {
        let mut board = vec![' '; width * height];
        for (y, row) in game.board_rows().iter().take(height).enumerate() {
            for (x, c) in row.chars().take(width).enumerate() {
                board[y * width + x] = c;
            }
        }
        let mut owners = vec!['.'; width * height];
        let mut bodies = game.seat_bodies();
        if !G::FIRST_DRAWN_WINS {
            bodies.reverse();
        }
        let mut marked = vec![false; width * height];
        for body in &bodies {
            let Some(&mark) = SEAT_MARKS.get(body.seat) else { continue };
            // Within one snake the head wins over its own body in every
            // game, so each snake is walked head first.
            for p in &body.cells {
                let inside = p.x >= 0 && p.y >= 0 && (p.x as usize) < width && (p.y as usize) < height;
                if !inside {
                    continue;
                }
                let i = p.y as usize * width + p.x as usize;
                if !marked[i] {
                    marked[i] = true;
                    owners[i] = char::from(mark);
                }
            }
        }
        let mut cells: Vec<char> = game.live_cells().chars().take(width * height).collect();
        cells.resize(width * height, ' ');
        Frame { board, owners, cells, snakes: snakes_of(game) }
    }
}

/// Each seat's snake once, by seat: `{"s": seat, "a": alive, "b": [x0,
/// y0, x1, y1, ...]}` head first, plus `"z": true` when asleep and `"f"` /
/// `"l"` the fury and flying ticks left when not 0. A game that lists a
/// seat twice (SnakeBattle lists a dead snake's head apart) keeps its
/// longest entry.
fn snakes_of<G: HtmlView>(game: &G) -> Value {
    let mut by_seat: std::collections::BTreeMap<usize, SeatBody> = std::collections::BTreeMap::new();
    for body in game.seat_bodies() {
        match by_seat.get(&body.seat) {
            Some(old) if old.cells.len() >= body.cells.len() => {}
            _ => {
                by_seat.insert(body.seat, body);
            }
        }
    }
    let snakes = by_seat.into_values().map(|body| {
        let mut snake = serde_json::Map::new();
        snake.insert("s".into(), json!(body.seat));
        snake.insert("a".into(), json!(body.alive));
        snake.insert("b".into(), json!(body.cells.iter().flat_map(|p| [p.x, p.y]).collect::<Vec<i32>>()));
        let look = game.snake_look(body.seat);
        if look.sleeping {
            snake.insert("z".into(), json!(true));
        }
        if look.fury > 0 {
            snake.insert("f".into(), json!(look.fury));
        }
        if look.flying > 0 {
            snake.insert("l".into(), json!(look.flying));
        }
        Value::Object(snake)
    });
    Value::Array(snakes.collect())
}

/// The changes from `old` to `new` as `[index, "chars", index, "chars",
/// ...]`; both have the same length.
fn diff(old: &[char], new: &[char]) -> Value {
    let mut out = Vec::new();
    let mut i = 0;
    while i < new.len() {
        if old[i] == new[i] {
            i += 1;
            continue;
        }
        let start = i;
        let mut end = i + 1;
        // Extend the run over short stretches of equal cells.
        let mut j = end;
        while j < new.len() && j - end < DIFF_GAP_CELLS_MAX {
            if old[j] != new[j] {
                end = j + 1;
            }
            j += 1;
        }
        out.push(json!(start));
        out.push(Value::String(new[start..end].iter().collect()));
        i = end;
    }
    Value::Array(out)
}

/// The separator of the parts of a status line.
const STATUS_SEPARATOR: &str = " | ";

/// The status line `new` after `old`: the whole line, or only its changed
/// parts as `[index, "part", ...]` when it has as many parts as `old`.
fn status_diff(old: &str, new: &str) -> Value {
    let (old, parts): (Vec<&str>, Vec<&str>) =
        (old.split(STATUS_SEPARATOR).collect(), new.split(STATUS_SEPARATOR).collect());
    if old.len() != parts.len() {
        return Value::String(new.to_string());
    }
    let mut out = Vec::new();
    for (i, (a, b)) in old.iter().zip(&parts).enumerate() {
        if a != b {
            out.push(json!(i));
            out.push(json!(b));
        }
    }
    Value::Array(out)
}

/// Builds the viewer's document for a parsed replay, re-simulating every
/// tick; `log` is the seats' stderr log when one was recorded, `fork` the
/// fork the page offers. Fails like [`Replay::resimulate`] at the first
/// tick whose checksum differs.
pub fn document<G: HtmlView>(
    replay: &Replay<G>,
    log: Option<&StderrLog>,
    fork: Option<&ForkOffer<'_>>,
) -> Result<Value, Divergence> {
    let h = &replay.header;
    let rows = replay.start.board_rows();
    let height = rows.len();
    let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    let seats = h.seats;

    let first = Frame::of(&replay.start, width, height);
    let start = json!({
        "b": first.board.iter().collect::<String>(),
        "o": first.owners.iter().collect::<String>(),
        "c": first.cells.iter().collect::<String>(),
        "sn": first.snakes.clone(),
        "s": replay.start.status_line(&h.players),
        "sc": replay.start.scores(),
        "al": alive(&replay.start, seats),
    });

    let mut ticks = Vec::with_capacity(replay.ticks.len());
    let mut prev = first;
    let mut prev_status = start["s"].as_str().unwrap_or_default().to_string();
    let mut prev_scores = start["sc"].clone();
    let mut prev_alive = start["al"].clone();
    replay.resimulate(|game, record, events| {
        let frame = Frame::of(game, width, height);
        let mut tick = serde_json::Map::new();
        tick.insert("t".into(), json!(record.tick));
        tick.insert("m".into(), json!(record.moves.iter().map(G::action_to_text).collect::<Vec<_>>()));
        tick.insert("b".into(), diff(&prev.board, &frame.board));
        tick.insert("o".into(), diff(&prev.owners, &frame.owners));
        if frame.cells != prev.cells {
            tick.insert("c".into(), diff(&prev.cells, &frame.cells));
        }
        if frame.snakes != prev.snakes {
            tick.insert("sn".into(), frame.snakes.clone());
        }
        let status = game.status_line(&h.players);
        tick.insert("s".into(), status_diff(&prev_status, &status));
        prev_status = status;
        let scores = json!(game.scores());
        if scores != prev_scores {
            tick.insert("sc".into(), scores.clone());
            prev_scores = scores;
        }
        let alive = alive(game, seats);
        if alive != prev_alive {
            tick.insert("al".into(), alive.clone());
            prev_alive = alive;
        }
        if !events.is_empty() {
            tick.insert("ev".into(), json!(events.iter().map(G::event_line).collect::<Vec<_>>()));
        }
        if let Some(entries) = log.map(|l| l.at(record.tick)).filter(|e| !e.is_empty()) {
            let entries: Vec<Value> = entries
                .iter()
                .map(|e| json!({"seat": e.seat, "stderr": e.stderr, "dropped": e.dropped, "fault": e.fault}))
                .collect();
            tick.insert("log".into(), Value::Array(entries));
        }
        ticks.push(Value::Object(tick));
        prev = frame;
    })?;

    let settings: Vec<[&str; 2]> = h.settings.iter().map(|(k, v)| [k.as_str(), v.as_str()]).collect();
    let mut doc = json!({
        "viewer": DOC_VERSION,
        "header": {
            "game": h.game,
            "engine": h.engine,
            // A string: a JavaScript number holds 53 bits, and seeds use 63.
            "seed": h.seed.to_string(),
            "seats": h.seats,
            "players": h.players,
            "settings": settings,
            "map": h.map,
        },
        "width": width,
        "height": height,
        "stderr_log": log.is_some(),
        "start": start,
        "ticks": ticks,
    });
    if let (Some(offer), Some(map)) = (fork, doc.as_object_mut()) {
        map.insert("fork".into(), fork_value(offer));
    }
    Ok(doc)
}

/// The document's `fork` value for an offer.
fn fork_value(offer: &ForkOffer<'_>) -> Value {
    match offer {
        ForkOffer::Command { file } => json!({"mode": "command", "file": file}),
        ForkOffer::Server { endpoint, bots } => json!({"mode": "server", "endpoint": endpoint, "bots": bots}),
    }
}

/// Whether each seat still plays, from the seat bodies.
fn alive<G: HtmlView>(game: &G, seats: usize) -> Value {
    let mut alive = vec![false; seats];
    for body in game.seat_bodies() {
        if let Some(a) = alive.get_mut(body.seat) {
            *a |= body.alive;
        }
    }
    json!(alive)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    /// Applies a diff the way the viewer does.
    fn apply(old: &str, d: &Value) -> String {
        let mut cells = chars(old);
        for pair in d.as_array().unwrap().chunks(2) {
            let at = pair[0].as_u64().unwrap() as usize;
            for (k, c) in pair[1].as_str().unwrap().chars().enumerate() {
                cells[at + k] = c;
            }
        }
        cells.into_iter().collect()
    }

    #[test]
    fn diffs_rebuild_the_new_state_and_merge_close_runs() {
        let old = "..........AB..........";
        for new in
            ["..........AB..........", "A.........AB..........", "..........BA.........x", "x..x......ab.......xyz"]
        {
            let d = diff(&chars(old), &chars(new));
            assert_eq!(apply(old, &d), new, "{d}");
        }
        // Two changes three cells apart are one run; ten apart are two.
        assert_eq!(diff(&chars("a...b....."), &chars("x...y.....")), json!([0, "x...y"]));
        assert_eq!(diff(&chars("a.........b"), &chars("x.........y")), json!([0, "x", 10, "y"]));
        assert_eq!(diff(&chars("ab"), &chars("ab")), json!([]));
    }

    #[test]
    fn status_lines_send_their_changed_parts() {
        let old = "turn 4 | A x len 3 alive | B y len 5 alive";
        assert_eq!(
            status_diff(old, "turn 5 | A x len 3 alive | B y len 6 alive"),
            json!([0, "turn 5", 2, "B y len 6 alive"])
        );
        assert_eq!(status_diff(old, old), json!([]));
        let over = "turn 5 | A x len 3 alive | B y len 6 dead | winners [0]";
        assert_eq!(status_diff(old, over), json!(over));
    }

    #[test]
    fn snakebattle_marks_are_the_seats_the_board_draws() {
        use snakepit_engine::snakebattle::{Action, Map, Settings};
        use snakepit_engine::{Dir, Game, Rng};
        use snakepit_protocol::codenjoy::render_board;
        let mut game = SnakeBattle::new(Settings::default(), Map::default_map(), 5, 3).unwrap();
        let size = game.size();
        let mut rng = Rng::new(11);
        let dirs = [Dir::Up, Dir::Right, Dir::Down, Dir::Left];
        let mut drawn_dead = 0;
        for _ in 0..300 {
            let actions: Vec<Action> =
                (0..5).map(|_| Action { dir: Some(dirs[rng.index(4)]), ..Action::default() }).collect();
            game.step(&actions);
            let frame = Frame::of(&game, size, size);
            let spectator: Vec<char> = render_board(&game, None).chars().collect();
            // A seat's own board draws its snake in other glyphs: the cells
            // where it differs from the spectator's are the seat's, as drawn.
            let mut owned = vec![false; size * size];
            for (seat, &mark) in SEAT_MARKS.iter().enumerate().take(5) {
                let own = render_board(&game, Some(seat));
                for (i, (mine, theirs)) in own.chars().zip(&spectator).enumerate() {
                    if mine != *theirs {
                        assert_eq!(frame.owners[i], char::from(mark), "tick {} cell {i}", game.tick());
                        owned[i] = true;
                    }
                }
            }
            for (i, (&mark, owned)) in frame.owners.iter().zip(&owned).enumerate() {
                if !owned {
                    assert_eq!(mark, '.', "tick {} cell {i}: {:?}", game.tick(), spectator[i]);
                }
            }
            drawn_dead += spectator.iter().filter(|&&c| c == '☺').count();
        }
        assert!(drawn_dead > 0, "the game shows dead heads at some tick");
    }

    #[test]
    fn seat_marks_follow_the_drawing_order() {
        use snakepit_engine::multisnake::{self, Multisnake};
        let map = multisnake::builtin_map("duo-40x20").unwrap();
        let game = Multisnake::new(multisnake::Settings::default(), map, 1);
        let frame = Frame::of(&game, 40, 20);
        let board: String = frame.board.iter().collect();
        let a = board.find('A').unwrap();
        let b = board.find('B').unwrap();
        assert_eq!(frame.owners[a], 'A');
        assert_eq!(frame.owners[b], 'B');
        // Every snake cell of the board is marked, and nothing else.
        for (i, c) in frame.board.iter().enumerate() {
            let snake = matches!(c, 'A'..='H' | '^' | '>' | 'v' | '<' | '@');
            assert_eq!(snake, frame.owners[i] != '.', "cell {i}: {c:?} marked {:?}", frame.owners[i]);
        }
    }
}
