//! The three stdin/stdout arenas in rooms: CodeCarrots snakes (`carrots`),
//! KingOfBots Snake (`duel`) and SOI Multisnake (`multisnake`).
//!
//! Each is a [`RoomGame`], so rooms seat players, built-in bots, WebSocket
//! bots and people at the keyboard in them exactly as in SnakeBattle. What
//! differs:
//!
//! - A WebSocket bot reads the game's JSON line (`stdio::json`, without the
//!   `board=` prefix) and answers `{"move":"up"}`; a bare `up`, `RIGHT`...
//!   is taken too, which is what the player's page sends for WASD and the
//!   arrow keys. A refused answer is noted on the player's page and the
//!   snake keeps its direction, as in the other rooms: the arena's stricter
//!   rule (a bad answer forfeits) is for uploaded programs, whose runner
//!   reads the game's own text format ([`text_parser`]).
//! - A seat with no move to make (a dead snake, a finished game) is sent
//!   nothing, and an uploaded program is ended then.
//! - `duel` and `multisnake` games end (both are a [`SeriesRoom`] of a
//!   [`SeriesGame`]). The result is shown and counted
//!   (wins, and the game's points into the room score), and after a pause
//!   of `pause_ticks` ticks a new game starts with a new seed (and, for
//!   Multisnake with no map file, a newly generated map). `carrots` never
//!   ends: dead snakes respawn.
//! - A duel round waits for a person at their page (no bot, no program) to
//!   move, up to 5 s, as KingOfBots' rounds wait for both moves; then the
//!   snake keeps its direction. Multisnake, like the Codenjoy games, ticks
//!   on time.
//! - A `duel` or `multisnake` game starts only once two seats are taken
//!   (by players or built-in bots): a room with fewer waits, and keeps no
//!   games. Otherwise a lone snake would win game after game against empty
//!   seats, and every few seconds a game of nobody would be kept.

use crate::games::{BuiltinBot, Command, GameView, NotePart, ProcessAsk, RoomGame, TickReport};
use crate::record::Recorder;
use snakepit_engine::carrots::{self as c, Carrots, Life};
use snakepit_engine::duel::{self as d, Duel, Outcome};
use snakepit_engine::multisnake::{self as m, Multisnake};
use snakepit_engine::move_action::MoveAction;
use snakepit_engine::{Dir, Game, Pos, Rng};
use snakepit_protocol::spectator::SnakeView;
use snakepit_protocol::replay::ReplayGame;
use snakepit_protocol::stdio::{self, AnswerError, StdioGame, json};
use snakepit_viewer::html::HtmlView;

/// Built-in bots of the arenas.
pub const NAMES: &[&str] = &["greedy", "safe"];

/// Reads an uploaded program's answer line in the game's own format.
pub type AnswerParser = fn(&[u8]) -> Result<Option<Command>, AnswerError>;

/// The answer reader for uploaded programs of a game, if it runs them.
pub fn text_parser(game: &str) -> Option<AnswerParser> {
    fn cmd(dir: Option<Dir>, forfeit: bool) -> Option<Command> {
        if forfeit { Some(Command::Forfeit) } else { dir.map(Command::Move) }
    }
    match game {
        "carrots" => Some(|l| {
            stdio::carrots::parse_answer(l).map(|a| match a {
                c::Action::Move(d) => cmd(Some(d), false),
                c::Action::Forfeit => cmd(None, true),
                c::Action::Keep => None,
            })
        }),
        "duel" => Some(|l| {
            stdio::duel::parse_answer(l).map(|a| match a {
                d::Action::Move(d) => cmd(Some(d), false),
                d::Action::Forfeit => cmd(None, true),
                d::Action::Keep => None,
            })
        }),
        "multisnake" => Some(|l| {
            stdio::multisnake::parse_answer(l).map(|a| match a {
                m::Action::Move(d) => cmd(Some(d), false),
                m::Action::Forfeit => cmd(None, true),
                m::Action::Keep => None,
            })
        }),
        _ => None,
    }
}

/// Reads a WebSocket bot's answer or a key from the page: the JSON answer,
/// or a bare direction word in any case.
pub fn read_move(text: &str) -> Result<Dir, String> {
    let t = text.trim();
    if t.starts_with('{') {
        return json::parse_answer(t.as_bytes()).map_err(|e| e.to_string());
    }
    Dir::ALL
        .into_iter()
        .find(|&d| t.eq_ignore_ascii_case(json::dir_word(d)))
        .ok_or_else(|| format!("{:?} is not a move: send {{\"move\":\"up\"}} (or right, down, left)", cut(t, 60)))
}

fn cut(t: &str, chars: usize) -> String {
    t.chars().take(chars).collect()
}

fn describe(text: &str) -> String {
    match read_move(text) {
        Ok(d) => format!("ok: {}", json::dir_word(d)),
        Err(e) => format!("refused: {e}; the snake keeps its direction"),
    }
}

/// The engine action of a seat's command.
fn action<A: Default>(c: &Option<Command>, mv: fn(Dir) -> A, forfeit: A) -> A {
    match c {
        None => A::default(),
        Some(Command::Text(t)) => read_move(t).map(mv).unwrap_or_default(),
        Some(Command::Move(d)) => mv(*d),
        Some(Command::Forfeit) => forfeit,
    }
}

fn json_board<G: StdioGame>(game: &G, seat: usize) -> String {
    game.json_input(seat).map(|s| s.trim_end().to_string()).unwrap_or_default()
}

fn process_ask<G: StdioGame>(game: &G, seat: usize, game_no: u32) -> Option<ProcessAsk> {
    let input = game.text_input(seat)?;
    Some(ProcessAsk { game_no, tick: game.tick() + 1, preamble: game.text_preamble(seat), input })
}

fn text(t: impl Into<String>) -> NotePart {
    NotePart::Text(t.into())
}

fn snake_view(seat: usize, alive: bool, score: i64, body: impl Iterator<Item = Pos>, dir: Dir) -> SnakeView {
    SnakeView {
        seat,
        name: String::new(),
        bot: false,
        color: String::new(),
        alive,
        sleeping: false,
        fury: 0,
        flying: 0,
        stones: 0,
        score,
        body: body.map(|p| [p.x, p.y]).collect(),
        dir: json::dir_word(dir),
    }
}

fn builtin_bot(name: &str, seed: u64) -> Option<BuiltinBot> {
    let greedy = match name {
        "greedy" => true,
        "safe" => false,
        _ => return None,
    };
    let mut rng = Rng::new(seed);
    Some(Box::new(move |msg: &str| {
        let dir = json::parse_state(msg).ok().and_then(|s| choose(&s, &mut rng, greedy));
        dir.map(|d| json::answer_line(d).trim_end().to_string()).unwrap_or_default()
    }))
}

/// Cells a built-in bot counts ahead before it calls a move safe.
const SAFE_AREA_CELLS: usize = 48;

/// A built-in bot's move: among the moves that lead to the most room (up
/// to [`SAFE_AREA_CELLS`]), the one nearest to food (`greedy`) or mostly
/// straight on.
fn choose(s: &json::State, rng: &mut Rng, greedy: bool) -> Option<Dir> {
    let (w, h) = (s.width as i32, s.height as i32);
    if w <= 0 || h <= 0 || s.cells.len() != s.height {
        return None;
    }
    let me = s.snakes.iter().find(|x| x.seat == s.you && x.alive)?;
    let head = *me.body.first()?;
    let idx = |x: i32, y: i32| (y * w + x) as usize;
    let mut blocked = vec![false; (w * h) as usize];
    let mut food = vec![false; (w * h) as usize];
    for (y, row) in s.cells.iter().enumerate() {
        for (x, ch) in row.bytes().enumerate().take(s.width) {
            blocked[idx(x as i32, y as i32)] = ch == b'#';
            food[idx(x as i32, y as i32)] = ch == b'o';
        }
    }
    for snake in &s.snakes {
        for p in &snake.body {
            if (0..w).contains(&p[0]) && (0..h).contains(&p[1]) {
                blocked[idx(p[0], p[1])] = true;
            }
        }
    }
    let step = |p: [i32; 2], d: Dir| -> Option<[i32; 2]> {
        let (dx, dy) = d.delta();
        let (x, y) = (p[0] + dx, p[1] + dy);
        if s.wrap { Some([x.rem_euclid(w), y.rem_euclid(h)]) } else { ((0..w).contains(&x) && (0..h).contains(&y)).then_some([x, y]) }
    };
    // Breadth-first from a cell: how much room (capped), and the distance
    // to the nearest food.
    let explore = |from: [i32; 2]| -> (usize, usize) {
        let mut seen = blocked.clone();
        seen[idx(from[0], from[1])] = true;
        let mut queue = std::collections::VecDeque::from([(from, 0usize)]);
        let (mut room, mut nearest) = (0, usize::MAX);
        while let Some((p, dist)) = queue.pop_front() {
            room += 1;
            if food[idx(p[0], p[1])] {
                nearest = nearest.min(dist);
            }
            if room >= SAFE_AREA_CELLS && (!greedy || nearest != usize::MAX) {
                break;
            }
            for d in Dir::ALL {
                if let Some(n) = step(p, d)
                    && !seen[idx(n[0], n[1])]
                {
                    seen[idx(n[0], n[1])] = true;
                    queue.push_back((n, dist + 1));
                }
            }
        }
        (room.min(SAFE_AREA_CELLS), nearest)
    };
    let options: Vec<(Dir, usize, usize)> = Dir::ALL
        .into_iter()
        .filter_map(|d| {
            let n = step(head, d)?;
            (!blocked[idx(n[0], n[1])]).then(|| {
                let (room, nearest) = explore(n);
                (d, room, nearest)
            })
        })
        .collect();
    let best_room = options.iter().map(|o| o.1).max()?;
    let mut best: Vec<(Dir, usize, usize)> = options.into_iter().filter(|o| o.1 == best_room).collect();
    if greedy {
        let nearest = best.iter().map(|o| o.2).min().unwrap_or(usize::MAX);
        best.retain(|o| o.2 == nearest);
    } else if let Some(straight) = best.iter().find(|o| json::dir_word(o.0) == me.dir)
        && rng.below(4) != 0
    {
        return Some(straight.0);
    }
    Some(best[rng.index(best.len())].0)
}

/// CodeCarrots snakes in a room: one endless board.
pub struct CarrotsRoom {
    game: Carrots,
    seed: u64,
    /// The stretch being recorded.
    recorder: Recorder<Carrots>,
    /// Stretches recorded before this one.
    stretches_before: u64,
}

/// A CodeCarrots game never ends: it is kept as replays of this many ticks
/// each, every one starting from the position the last one ended in.
pub const CARROTS_STRETCH_TICKS: u64 = 1000;

impl CarrotsRoom {
    /// Wraps a game made from `seed` that has played no tick.
    pub fn new(game: Carrots, seed: u64) -> CarrotsRoom {
        CarrotsRoom { recorder: Recorder::new(&game, seed), game, seed, stretches_before: 0 }
    }

    /// Ends the stretch: the game goes on rebuilt from its position with a
    /// seed of its own (by the function that reads a replay's start, so
    /// that the next replay and the room go on identically).
    fn next_stretch(&mut self) -> Option<crate::record::FinishedGame> {
        let position = self.game.position()?;
        self.stretches_before += 1;
        let seed = crate::record::nth_seed(self.seed, self.stretches_before);
        let seats = self.game.seats();
        // The position is the game's own, so it always rebuilds.
        let next = Carrots::from_position(&self.game.settings_pairs(), &[], seats, seed, &position).ok()?;
        let scores: Vec<i64> = self.game.snakes().iter().map(|s| i64::from(s.best)).collect();
        self.game = next;
        let done = std::mem::replace(&mut self.recorder, Recorder::new(&self.game, seed));
        done.finish(scores, &[])
    }
}

impl RoomGame for CarrotsRoom {
    fn name(&self) -> &'static str {
        "carrots"
    }

    fn seats(&self) -> usize {
        self.game.seats()
    }

    fn tick(&self) -> u64 {
        self.game.tick()
    }

    fn round(&self) -> u32 {
        0
    }

    fn recorded_ticks(&self) -> Option<u64> {
        Some(self.recorder.ticks())
    }

    fn set_present(&mut self, seat: usize, present: bool) {
        self.game.set_present(seat, present);
        self.recorder.presence(seat, present);
    }

    fn score(&self, seat: usize) -> i64 {
        self.game.snakes().get(seat).map_or(0, |s| i64::from(s.best))
    }

    fn score_is_record(&self) -> bool {
        true
    }

    fn step(&mut self, commands: &[Option<Command>]) -> TickReport {
        let actions: Vec<c::Action> = commands.iter().map(|x| action(x, c::Action::Move, c::Action::Forfeit)).collect();
        let mut report = TickReport::default();
        let events = self.game.step(&actions);
        self.recorder.record(&self.game, &actions);
        if self.recorder.ticks() >= CARROTS_STRETCH_TICKS {
            report.finished = self.next_stretch();
        }
        for e in events {
            if let c::Event::Died { snake, cause } = e {
                report.deaths.push(snake);
                let mut note = vec![NotePart::Seat(snake)];
                match cause {
                    c::Death::OffBoard => note.push(text(" left the board")),
                    c::Death::HeadOn(others) => {
                        note.push(text(" met "));
                        for (k, o) in others.iter().enumerate() {
                            if k > 0 {
                                note.push(text(" and "));
                            }
                            note.push(NotePart::Seat(*o));
                        }
                        note.push(text(" head-on"));
                    }
                    c::Death::Crash(o) if o == snake => note.push(text(" ran into itself")),
                    c::Death::Crash(o) => {
                        report.kills.push(o);
                        note.extend([text(" crashed into "), NotePart::Seat(o)]);
                    }
                    c::Death::Forfeit => note.push(text(" forfeited (its program failed or was replaced)")),
                }
                report.notes.push(note);
            }
        }
        report
    }

    fn boards(&self) -> Vec<String> {
        (0..self.game.seats()).map(|i| json_board(&self.game, i)).collect()
    }

    fn describe_command(&self, _seat: usize, text: &str) -> String {
        describe(text)
    }

    fn builtin_names(&self) -> &'static [&'static str] {
        NAMES
    }

    fn builtin(&self, name: &str, seed: u64) -> Option<BuiltinBot> {
        builtin_bot(name, seed)
    }

    fn view(&self) -> GameView {
        let (w, h) = (self.game.width(), self.game.height());
        let cells = self.game.live_cells();
        let snakes = self
            .game
            .snakes()
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.body.is_empty() && matches!(s.life, Life::Alive | Life::Dead { .. }))
            .map(|(i, s)| snake_view(i, s.is_alive(), i64::from(s.best), s.body.iter().copied(), s.dir))
            .collect();
        GameView {
            size: w.max(h),
            width: w,
            height: h,
            cells,
            phase: "running",
            phase_ticks: self.game.tick() as u32,
            phase_ticks_max: 0,
            snakes,
            pieces: Vec::new(),
            result: None,
        }
    }

    fn bot_message(&self, board: &str) -> String {
        board.to_string()
    }

    fn asks(&self, seat: usize) -> bool {
        self.game.snakes().get(seat).is_some_and(|s| s.is_alive())
    }

    fn process_ask(&self, seat: usize) -> Option<ProcessAsk> {
        process_ask(&self.game, seat, 0)
    }

    fn forfeit_on_new_code(&self) -> bool {
        true
    }
}

/// A room's run of games that end: the game number, the pause between
/// games, and the points each seat has collected.
struct Series {
    /// The current game, from 1.
    game_no: u32,
    pause_ticks: u32,
    /// Ticks left before the next game, while a finished one is shown.
    pause_left: u32,
    ticks: u64,
    points: Vec<i64>,
    result: Option<Vec<NotePart>>,
    seed: u64,
}

impl Series {
    fn new(seats: usize, seed: u64, pause_ticks: u32) -> Series {
        Series { game_no: 1, pause_ticks, pause_left: 0, ticks: 0, points: vec![0; seats], result: None, seed }
    }

    /// Counts a pause tick of a finished game; true when the next game
    /// should start (with the new [`Series::seed`]).
    fn wait(&mut self) -> bool {
        self.pause_left = self.pause_left.saturating_sub(1);
        if self.pause_left > 0 {
            return false;
        }
        self.game_no += 1;
        // A fresh seed per game (splitmix64's step), kept positive for SQLite.
        self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        self.seed = (z ^ (z >> 31)) >> 1;
        true
    }

    /// Records the end of a game: points, wins and the result line.
    fn finish(&mut self, scores: &[i64], winners: &[usize], why: &str, report: &mut TickReport) {
        for (p, s) in self.points.iter_mut().zip(scores) {
            *p += s;
        }
        report.wins.extend_from_slice(winners);
        let mut line = vec![text(format!("game {} ", self.game_no))];
        match winners {
            [] => line.push(text("ended in a draw")),
            [w] => line.extend([text("won by "), NotePart::Seat(*w)]),
            many => {
                line.push(text("shared by "));
                for (k, w) in many.iter().enumerate() {
                    if k > 0 {
                        line.push(text(", "));
                    }
                    line.push(NotePart::Seat(*w));
                }
            }
        }
        line.push(text(format!(" ({why})")));
        report.notes.push(line.clone());
        self.result = Some(line);
        self.pause_left = self.pause_ticks.max(1);
    }

    fn started_note(&self) -> Vec<NotePart> {
        vec![text(format!("game {} started", self.game_no))]
    }
}

/// A game that rooms play one after another (KingOfBots Snake, SOI
/// Multisnake): what a [`SeriesRoom`] needs beyond the engine and the wire
/// formats.
pub trait SeriesGame: StdioGame<Action = MoveAction> + ReplayGame + HtmlView + Send + 'static {
    /// What each new game is made from.
    type Setup: Send + 'static;
    /// The room's game name.
    const ROOM_NAME: &'static str;
    /// The game after `last`, from `seed`.
    fn next(setup: &Self::Setup, seed: u64, last: &Self) -> Self;
    /// Whether the game has ended.
    fn over(&self) -> bool;
    /// Whether the seat has a move to make in a running game.
    fn plays(&self, seat: usize) -> bool;
    /// Turns the tick's events into the report's deaths, kills and notes;
    /// the winners and why, when the game ended in this tick.
    fn report(&self, events: Vec<Self::Event>, report: &mut TickReport) -> Option<(Vec<usize>, String)>;
    /// Width and height of the board (its glyphs are the viewer's
    /// [`HtmlView::live_cells`], which replays draw too).
    fn dimensions(&self) -> (usize, usize);
    /// The snakes, with the room's points per seat.
    fn snake_views(&self, points: &[i64]) -> Vec<SnakeView>;
    /// The running game's clock as shown (the round, the turn).
    fn clock(&self) -> u32;
    /// The most the clock reaches before the game ends anyway.
    fn clock_max(&self) -> u32;
    /// See [`RoomGame::person_wait`].
    const PERSON_WAIT: std::time::Duration = std::time::Duration::ZERO;
}

/// A room of a [`SeriesGame`]: one game after another, each kept as a
/// replay when it ends.
pub struct SeriesRoom<G: SeriesGame> {
    setup: G::Setup,
    game: G,
    series: Series,
    recorder: Option<Recorder<G>>,
    /// Which seats are taken (see [`RoomGame::set_present`]).
    present: Vec<bool>,
    /// Whether the room said it waits for players since it last played.
    said_waiting: bool,
}

/// Seats that must be taken before a game of a [`SeriesRoom`] starts (all
/// of them in a smaller room).
const SEATS_TAKEN_TO_START: usize = 2;

/// KingOfBots Snake in a room: two seats, one game after another.
pub type DuelRoom = SeriesRoom<Duel>;

/// SOI Multisnake in a room: 2, 4 or 8 seats, one game after another.
pub type MultisnakeRoom = SeriesRoom<Multisnake>;

impl<G: SeriesGame> SeriesRoom<G> {
    fn with(setup: G::Setup, game: G, seed: u64, pause_ticks: u32) -> SeriesRoom<G> {
        SeriesRoom {
            recorder: Some(Recorder::new(&game, seed)),
            series: Series::new(game.seats(), seed, pause_ticks),
            present: vec![false; game.seats()],
            said_waiting: false,
            game,
            setup,
        }
    }

    /// Whether enough seats are taken for a game to start.
    fn can_start(&self) -> bool {
        self.present.iter().filter(|&&p| p).count() >= SEATS_TAKEN_TO_START.min(self.present.len())
    }

    /// Whether a game waits for players: the last one is over and its pause
    /// has run out (it is shown as over until then, whoever left), or this
    /// one has not played its first turn, and too few seats are taken.
    fn waiting(&self) -> bool {
        let unstarted = self.recorder.as_ref().is_some_and(|r| r.ticks() == 0);
        let paused_out = self.game.over() && self.series.pause_left <= 1;
        (paused_out || unstarted) && !self.can_start()
    }
}

impl DuelRoom {
    /// The first game from `seed`; `pause_ticks` between games.
    pub fn new(settings: d::Settings, seed: u64, pause_ticks: u32) -> DuelRoom {
        let game = Duel::new(settings.clone(), seed);
        SeriesRoom::with(settings, game, seed, pause_ticks)
    }
}

impl MultisnakeRoom {
    /// The first game from `seed`; `pause_ticks` between games.
    pub fn new(settings: m::Settings, maps: MapSource, seed: u64, pause_ticks: u32) -> Result<MultisnakeRoom, m::GenerateError> {
        let game = Multisnake::new(settings.clone(), maps.map(seed)?, seed);
        Ok(SeriesRoom::with((settings, maps), game, seed, pause_ticks))
    }
}

impl<G: SeriesGame> RoomGame for SeriesRoom<G> {
    fn name(&self) -> &'static str {
        G::ROOM_NAME
    }

    fn seats(&self) -> usize {
        self.series.points.len()
    }

    fn tick(&self) -> u64 {
        self.series.ticks
    }

    fn round(&self) -> u32 {
        self.series.game_no
    }

    fn recorded_ticks(&self) -> Option<u64> {
        self.recorder.as_ref().map(Recorder::ticks)
    }

    fn set_present(&mut self, seat: usize, present: bool) {
        if let Some(p) = self.present.get_mut(seat) {
            *p = present;
        }
    }

    fn between_games(&self) -> bool {
        self.game.over() || self.waiting()
    }

    fn last_result(&self) -> Option<&[NotePart]> {
        self.series.result.as_deref()
    }

    fn score(&self, seat: usize) -> i64 {
        self.series.points.get(seat).copied().unwrap_or(0)
    }

    fn step(&mut self, commands: &[Option<Command>]) -> TickReport {
        let mut report = TickReport::default();
        self.series.ticks += 1;
        if self.waiting() {
            if !std::mem::replace(&mut self.said_waiting, true) {
                let needed = SEATS_TAKEN_TO_START.min(self.present.len());
                report.notes.push(vec![text(format!("the next game starts once {needed} seats are taken"))]);
            }
            return report;
        }
        self.said_waiting = false;
        if self.game.over() {
            if self.series.wait() {
                self.game = G::next(&self.setup, self.series.seed, &self.game);
                self.recorder = Some(Recorder::new(&self.game, self.series.seed));
                report.notes.push(self.series.started_note());
            }
            return report;
        }
        let actions: Vec<MoveAction> = commands.iter().map(|x| action(x, MoveAction::Move, MoveAction::Forfeit)).collect();
        let events = self.game.step(&actions);
        if let Some(r) = &mut self.recorder {
            r.record(&self.game, &actions);
        }
        if let Some((winners, why)) = self.game.report(events, &mut report) {
            self.series.finish(&self.game.scores(), &winners, &why, &mut report);
            report.finished = self.recorder.take().and_then(|r| r.finish(self.game.scores(), &winners));
        }
        report
    }

    fn boards(&self) -> Vec<String> {
        (0..self.seats()).map(|i| json_board(&self.game, i)).collect()
    }

    fn describe_command(&self, _seat: usize, text: &str) -> String {
        describe(text)
    }

    fn builtin_names(&self) -> &'static [&'static str] {
        NAMES
    }

    fn builtin(&self, name: &str, seed: u64) -> Option<BuiltinBot> {
        builtin_bot(name, seed)
    }

    fn view(&self) -> GameView {
        let (width, height) = self.game.dimensions();
        let cells = self.game.live_cells();
        let over = self.game.over();
        let waiting = self.waiting();
        GameView {
            size: width.max(height),
            width,
            height,
            cells,
            phase: if waiting {
                "waiting"
            } else if over {
                "over"
            } else {
                "running"
            },
            phase_ticks: if waiting {
                0
            } else if over {
                self.series.pause_left
            } else {
                self.game.clock()
            },
            phase_ticks_max: if over { 0 } else { self.game.clock_max() },
            snakes: self.game.snake_views(&self.series.points),
            pieces: Vec::new(),
            result: self.series.result.clone(),
        }
    }

    fn bot_message(&self, board: &str) -> String {
        board.to_string()
    }

    fn asks(&self, seat: usize) -> bool {
        !self.game.over() && self.game.plays(seat)
    }

    fn process_ask(&self, seat: usize) -> Option<ProcessAsk> {
        process_ask(&self.game, seat, self.series.game_no)
    }

    fn person_wait(&self) -> std::time::Duration {
        G::PERSON_WAIT
    }

    fn joins_between_games(&self) -> bool {
        true
    }

    fn start_next_game_now(&mut self) -> bool {
        if !self.game.over() || self.waiting() {
            return false;
        }
        // The next step counts the last pause tick and starts the game.
        self.series.pause_left = self.series.pause_left.min(1);
        true
    }

    fn ticks_to_next_start(&self) -> u64 {
        if self.waiting() {
            0
        } else if self.game.over() {
            u64::from(self.series.pause_left)
        } else {
            u64::from(self.game.clock_max().saturating_sub(self.game.clock())) + u64::from(self.series.pause_ticks)
        }
    }
}

impl SeriesGame for Duel {
    type Setup = d::Settings;
    const ROOM_NAME: &'static str = "duel";
    /// KingOfBots gives each round 5 s for both moves, people's too.
    const PERSON_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

    fn next(settings: &d::Settings, seed: u64, _last: &Duel) -> Duel {
        Duel::new(settings.clone(), seed)
    }

    fn over(&self) -> bool {
        self.is_over()
    }

    fn plays(&self, _seat: usize) -> bool {
        true
    }

    fn report(&self, events: Vec<d::Event>, report: &mut TickReport) -> Option<(Vec<usize>, String)> {
        let mut end = None;
        for e in events {
            match e {
                d::Event::Died { snake, cause } => {
                    report.deaths.push(snake);
                    let why = match cause {
                        d::Death::Outside => " left the map",
                        d::Death::Wall => " hit a wall",
                        d::Death::OwnBody => " ran into itself",
                        d::Death::Opponent => " ran into its opponent",
                        d::Death::HeadOn => " met its opponent head-on",
                        d::Death::Forfeit => " forfeited",
                    };
                    report.notes.push(vec![NotePart::Seat(snake), text(why)]);
                }
                d::Event::Ended { outcome, reason } => {
                    let winners: Vec<usize> = match outcome {
                        Outcome::Won(w) => vec![w],
                        Outcome::Draw => Vec::new(),
                    };
                    let why = match reason {
                        d::EndReason::Death => format!("round {}", self.round()),
                        d::EndReason::Forfeit => "a forfeit".to_string(),
                        d::EndReason::RoundLimit => format!("the {}-round limit", self.settings().rounds_max),
                    };
                    end = Some((winners, why));
                }
                d::Event::Grew { .. } => {}
            }
        }
        end
    }

    fn dimensions(&self) -> (usize, usize) {
        (self.map().cols(), self.map().rows())
    }

    fn snake_views(&self, points: &[i64]) -> Vec<SnakeView> {
        let snakes = self.snakes().iter().enumerate();
        snakes.map(|(i, s)| snake_view(i, s.alive, points[i], s.body.iter().copied(), s.dir)).collect()
    }

    fn clock(&self) -> u32 {
        self.round() as u32
    }

    fn clock_max(&self) -> u32 {
        self.settings().rounds_max
    }
}

/// Where a Multisnake room's maps come from.
#[derive(Clone, Debug)]
pub enum MapSource {
    /// The same map every game.
    Fixed(m::Map),
    /// A new symmetric map every game.
    Generated(m::MapSpec),
}

impl MapSource {
    fn map(&self, seed: u64) -> Result<m::Map, m::GenerateError> {
        match self {
            MapSource::Fixed(map) => Ok(map.clone()),
            MapSource::Generated(spec) => m::generate(spec, seed),
        }
    }

    /// Seats of the maps.
    pub fn players(&self) -> usize {
        match self {
            MapSource::Fixed(map) => map.players(),
            MapSource::Generated(spec) => spec.players,
        }
    }
}

impl SeriesGame for Multisnake {
    type Setup = (m::Settings, MapSource);
    const ROOM_NAME: &'static str = "multisnake";

    /// A generated map that cannot be made keeps the last one.
    fn next((settings, maps): &(m::Settings, MapSource), seed: u64, last: &Multisnake) -> Multisnake {
        let map = maps.map(seed).unwrap_or_else(|_| last.map().clone());
        Multisnake::new(settings.clone(), map, seed)
    }

    fn over(&self) -> bool {
        self.is_over()
    }

    fn plays(&self, seat: usize) -> bool {
        self.snakes().get(seat).is_some_and(|s| s.alive)
    }

    fn report(&self, events: Vec<m::Event>, report: &mut TickReport) -> Option<(Vec<usize>, String)> {
        let mut end = None;
        for e in events {
            match e {
                m::Event::Died { snake, cause } => {
                    report.deaths.push(snake);
                    let mut note = vec![NotePart::Seat(snake)];
                    match cause {
                        m::Death::Blocked(m::Blocker::Wall) => note.push(text(" hit a wall")),
                        m::Death::Blocked(m::Blocker::Reverse) => note.push(text(" turned back into its neck")),
                        m::Death::Blocked(m::Blocker::Snake(o)) if o == snake => note.push(text(" ran into itself")),
                        m::Death::Blocked(m::Blocker::Snake(o)) => {
                            report.kills.push(o);
                            note.extend([text(" ran into "), NotePart::Seat(o)]);
                        }
                        m::Death::HeadOn(others) => {
                            note.push(text(" met "));
                            for (k, o) in others.iter().enumerate() {
                                if k > 0 {
                                    note.push(text(" and "));
                                }
                                note.push(NotePart::Seat(*o));
                            }
                            note.push(text(" head-on"));
                        }
                        m::Death::Starved => note.push(text(" shrank to nothing")),
                        m::Death::Forfeit => note.push(text(" forfeited")),
                    }
                    report.notes.push(note);
                }
                m::Event::Ended { winners, reason } => {
                    let why = match reason {
                        m::EndReason::LastAlive => "last snake alive",
                        m::EndReason::AllDied => "the last snakes died together",
                        m::EndReason::TurnLimit => "turn limit: longest snake",
                    };
                    end = Some((winners, why.to_string()));
                }
                _ => {}
            }
        }
        end
    }

    fn dimensions(&self) -> (usize, usize) {
        (self.grid().width, self.grid().height)
    }

    fn snake_views(&self, points: &[i64]) -> Vec<SnakeView> {
        let snakes = self.snakes().iter().enumerate();
        snakes.map(|(i, s)| snake_view(i, s.alive, points[i], s.body.iter().copied(), s.dir)).collect()
    }

    fn clock(&self) -> u32 {
        self.turn()
    }

    fn clock_max(&self) -> u32 {
        self.settings().turns_max
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_read_as_json_or_words() {
        assert_eq!(read_move("{\"move\":\"left\"}"), Ok(Dir::Left));
        assert_eq!(read_move(" UP "), Ok(Dir::Up));
        assert!(read_move("{\"mov\":1}").is_err());
        assert!(read_move("ACT").unwrap_err().contains("not a move"));
    }

    #[test]
    fn a_pause_between_games_ends_when_asked_and_only_then() {
        let mut room = DuelRoom::new(d::Settings::default(), 11, 1_000_000);
        room.set_present(0, true);
        room.set_present(1, true);
        assert!(!room.start_next_game_now(), "a game that has not ended goes on");
        let mut bots = [builtin_bot("greedy", 1).unwrap(), builtin_bot("safe", 2).unwrap()];
        for _ in 0..5000 {
            if room.view().phase == "over" {
                break;
            }
            let boards = room.boards();
            let cmds: Vec<Option<Command>> = (0..2).map(|i| room.asks(i).then(|| Command::Text(bots[i](&boards[i])))).collect();
            room.step(&cmds);
        }
        assert_eq!(room.view().phase, "over", "the first game ended");
        // Without asking, the pause runs on.
        for _ in 0..100 {
            room.step(&[None, None]);
        }
        assert_eq!((room.round(), room.view().phase), (1, "over"));
        assert!(room.start_next_game_now());
        room.step(&[None, None]);
        assert_eq!((room.round(), room.view().phase), (2, "running"), "the next game starts at the next tick");
        assert!(!room.start_next_game_now(), "a running game is never cut short");

        // A room with too few seats taken keeps waiting for players.
        let mut alone = DuelRoom::new(d::Settings::default(), 11, 1_000_000);
        alone.set_present(0, true);
        alone.step(&[None, None]);
        assert_eq!(alone.view().phase, "waiting");
        assert!(!alone.start_next_game_now());
    }

    #[test]
    fn a_duel_of_builtin_bots_ends_and_the_next_game_starts() {
        let mut room = DuelRoom::new(d::Settings::default(), 11, 3);
        room.set_present(0, true);
        room.set_present(1, true);
        let mut bots = [builtin_bot("greedy", 1).unwrap(), builtin_bot("safe", 2).unwrap()];
        let mut wins = 0;
        for _ in 0..5000 {
            let boards = room.boards();
            let cmds: Vec<Option<Command>> = (0..2).map(|i| room.asks(i).then(|| Command::Text(bots[i](&boards[i])))).collect();
            let r = room.step(&cmds);
            wins += r.wins.len();
            if room.round() == 3 {
                break;
            }
        }
        assert_eq!(room.round(), 3, "two games ended and a third began");
        assert!(room.view().result.is_some());
        assert!(wins <= 2);
        assert!(wins == 0 || room.score(0) + room.score(1) > 0, "a win scores points");
    }

    #[test]
    fn builtin_bots_keep_a_multisnake_game_going_and_it_ends() {
        let spec = m::MapSpec { players: 4, width: 20, height: 20, ..m::MapSpec::default() };
        let mut room = MultisnakeRoom::new(m::Settings::default(), MapSource::Generated(spec), 5, 2).unwrap();
        (0..4).for_each(|i| room.set_present(i, true));
        let mut bots: Vec<BuiltinBot> = (0..4).map(|i| builtin_bot(NAMES[i % 2], i as u64).unwrap()).collect();
        let mut first_death = None;
        for t in 0..20_000u64 {
            let boards = room.boards();
            let cmds: Vec<Option<Command>> = (0..4).map(|i| room.asks(i).then(|| Command::Text(bots[i](&boards[i])))).collect();
            let r = room.step(&cmds);
            if first_death.is_none() && !r.deaths.is_empty() {
                first_death = Some(t);
            }
            if room.round() == 2 {
                break;
            }
        }
        assert_eq!(room.round(), 2, "the first game ended");
        assert!(first_death.unwrap() > 5, "safe bots do not die at once");
        assert_eq!(room.view().cells.chars().count(), 400);
    }

    /// Steps `room` `n` times with the built-in bots of `bots` on the seats
    /// that have one; returns the games kept and the notes, as text.
    fn run<G: SeriesGame>(room: &mut SeriesRoom<G>, bots: &mut [Option<BuiltinBot>], n: usize) -> (usize, Vec<String>) {
        let (mut kept, mut notes) = (0, Vec::new());
        for _ in 0..n {
            let boards = room.boards();
            let cmds: Vec<Option<Command>> = (0..bots.len())
                .map(|i| bots[i].as_mut().filter(|_| room.asks(i)).map(|b| Command::Text(b(&boards[i]))))
                .collect();
            let r = room.step(&cmds);
            kept += usize::from(r.finished.is_some());
            notes.extend(r.notes.iter().map(|n| n.iter().map(|p| format!("{p:?}")).collect::<String>()));
        }
        (kept, notes)
    }

    #[test]
    fn a_duel_waits_for_both_seats_and_keeps_no_game_of_one() {
        let mut room = DuelRoom::new(d::Settings::default(), 11, 3);
        let mut bots = [builtin_bot("greedy", 1), None];
        room.set_present(0, true);
        let (kept, notes) = run(&mut room, &mut bots, 200);
        assert_eq!(kept, 0, "no game against an empty seat");
        assert_eq!(room.recorded_ticks(), Some(0), "the first game has not begun");
        assert_eq!(room.view().phase, "waiting");
        assert!(room.between_games());
        assert_eq!(notes.iter().filter(|n| n.contains("starts once 2 seats are taken")).count(), 1, "{notes:?}");

        room.set_present(1, true);
        bots[1] = builtin_bot("safe", 2);
        run(&mut room, &mut bots, 1);
        assert_eq!(room.recorded_ticks(), Some(1), "the game began");
        assert_eq!(room.view().phase, "running");
        let mut kept = 0;
        while room.round() == 1 && kept == 0 {
            kept += run(&mut room, &mut bots, 1).0;
        }
        assert_eq!(kept, 1, "the game of two is kept");

        // One leaves during the pause: the game is shown as over through the
        // pause, then the next game waits for a second player.
        room.set_present(1, false);
        bots[1] = None;
        assert_eq!(room.view().phase, "over", "the finished game is shown as over");
        let (kept, notes) = run(&mut room, &mut bots, 100);
        assert_eq!((kept, room.round()), (0, 1), "no second game yet");
        assert_eq!(room.view().phase, "waiting");
        assert!(room.view().result.is_some(), "the last result is still shown");
        assert_eq!(notes.iter().filter(|n| n.contains("starts once")).count(), 1, "{notes:?}");
        room.set_present(1, true);
        bots[1] = builtin_bot("safe", 3);
        run(&mut room, &mut bots, 5);
        assert_eq!(room.round(), 2, "the next game started after the pause");
    }

    #[test]
    fn a_multisnake_game_starts_with_two_of_its_four_seats() {
        let spec = m::MapSpec { players: 4, width: 20, height: 20, ..m::MapSpec::default() };
        let mut room = MultisnakeRoom::new(m::Settings::default(), MapSource::Generated(spec), 5, 2).unwrap();
        let mut bots: Vec<Option<BuiltinBot>> = vec![builtin_bot("safe", 1), None, None, None];
        room.set_present(0, true);
        run(&mut room, &mut bots, 20);
        assert_eq!((room.recorded_ticks(), room.view().phase), (Some(0), "waiting"));
        room.set_present(2, true);
        bots[2] = builtin_bot("greedy", 2);
        run(&mut room, &mut bots, 3);
        assert_eq!((room.recorded_ticks(), room.view().phase), (Some(3), "running"));
    }

    #[test]
    fn carrots_snakes_forfeit_and_respawn() {
        let mut room = CarrotsRoom::new(Carrots::new(c::Settings::default(), 2, 3).unwrap(), 3);
        room.step(&[None, None]);
        assert!(room.asks(0));
        let r = room.step(&[Some(Command::Forfeit), None]);
        assert_eq!(r.deaths, vec![0]);
        assert!(!room.asks(0));
        assert!(room.process_ask(0).is_none());
        for _ in 0..5 {
            room.step(&[None, None]);
        }
        assert!(room.asks(0), "the snake respawned");
        let ask = room.process_ask(0).unwrap();
        assert_eq!(ask.input.lines().count(), 80);
        assert_eq!(room.view().cells.len(), 120 * 80);
    }
}
