//! The games a room can host, behind one trait.
//!
//! A room does not know the rules of its game: it feeds the players'
//! command texts to [`RoomGame::step`], sends each seat the board text the
//! game renders for it, and shows spectators the game's [`GameView`]. Adding
//! a Codenjoy-style game to the server is one implementation of this trait.

use snakepit_engine::{Dir, Game};
use snakepit_engine::hex::{self, Hex};
use snakepit_engine::snakebattle::{Action, Death, Event, ScoreReason, Settings, SnakeBattle, StoneDrop};
use snakepit_protocol::codenjoy;
use snakepit_protocol::spectator::{self, SnakeView};

/// A built-in bot: the board message in, the answer out.
pub type BuiltinBot = Box<dyn FnMut(&str) -> String + Send>;

/// What a seat asks its snake to do in a tick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Text from a WebSocket bot or the player's page, read by the game.
    Text(String),
    /// A move already read by the runner of the seat's uploaded program.
    Move(Dir),
    /// The seat's program failed (or was replaced): the arena's forfeit.
    Forfeit,
}

impl Command {
    /// The command as text, for games that only read text.
    pub fn text(&self) -> Option<&str> {
        match self {
            Command::Text(t) => Some(t),
            Command::Move(d) => Some(dir_command(*d)),
            Command::Forfeit => None,
        }
    }
}

/// What the runner of an uploaded program sends it in one tick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessAsk {
    /// Which game of the room this is; a new game starts a new process.
    pub game_no: u32,
    /// The tick the answer is for, counted in that game from 1.
    pub tick: u64,
    /// Read once by a fresh process, before its first input.
    pub preamble: Option<String>,
    /// The tick's input in the game's own format.
    pub input: String,
}

/// Part of a sentence about a tick; seats are named by the room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotePart {
    /// Literal text.
    Text(String),
    /// The name of whoever holds this seat.
    Seat(usize),
}

/// What a tick did, as the room needs it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TickReport {
    /// Seats that died.
    pub deaths: Vec<usize>,
    /// Seats credited with a kill (once per kill).
    pub kills: Vec<usize>,
    /// Seats that won a round.
    pub wins: Vec<usize>,
    /// Notable events, as sentences.
    pub notes: Vec<Vec<NotePart>>,
    /// Private notes for one seat's page (a move the rules refused).
    pub seat_notes: Vec<(usize, String)>,
    /// A game that ended in this tick, to be kept as a replay.
    pub finished: Option<crate::record::FinishedGame>,
}

/// What spectators see of the game; the room adds names and colours.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameView {
    /// Board side (the larger of width and height).
    pub size: usize,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Background glyphs, `width * height` characters, top row first.
    pub cells: String,
    /// `countdown`, `running`, `over` (a finished game before the next) or
    /// `waiting` (no game starts before more seats are taken).
    pub phase: &'static str,
    /// Ticks left in the countdown, or played in the round.
    pub phase_ticks: u32,
    /// The most ticks a round or game runs (0: no limit shown), so that a
    /// page can say how long the one in play may still take.
    pub phase_ticks_max: u32,
    /// Snakes, for snake games.
    pub snakes: Vec<SnakeView>,
    /// Pieces as `[x, y, seat]`, for territory games.
    pub pieces: Vec<[i32; 3]>,
    /// How the last game ended, with seats to be named by the room.
    pub result: Option<Vec<NotePart>>,
}

/// What a room needs from its game.
pub trait RoomGame: Send + 'static {
    /// The game's name in URLs, the database and frames.
    fn name(&self) -> &'static str;
    /// Number of seats.
    fn seats(&self) -> usize;
    /// Ticks played.
    fn tick(&self) -> u64;
    /// Rounds started (0 for games without rounds).
    fn round(&self) -> u32;
    /// Ticks recorded of the game in progress, for games whose games end
    /// and are kept as replays ([`TickReport::finished`]); `None` for
    /// endless games and between games.
    fn recorded_ticks(&self) -> Option<u64> {
        None
    }
    /// Seats or unseats a player; the game decides when the piece appears.
    fn set_present(&mut self, seat: usize, present: bool);
    /// A seat's score in this game.
    fn score(&self, seat: usize) -> i64;
    /// Whether a player's total on the leaderboard never goes below zero,
    /// as Codenjoy keeps its scores. Elsewhere the total is the sum of the
    /// points of the games played, negative ones too.
    fn score_floored(&self) -> bool {
        false
    }
    /// Whether the score is a record rather than points (CodeCarrots: the
    /// longest length reached, which a snake's fresh start resets): the
    /// leaderboard then keeps each player's best, not a sum.
    fn score_is_record(&self) -> bool {
        false
    }
    /// Whether no game is being played now (a series between two games).
    /// A player who has gone then leaves their seat to a built-in bot after
    /// a short grace instead of the room's `release_after_ms`, so that the
    /// next game is not played, and lost, in their absence.
    fn between_games(&self) -> bool {
        false
    }
    /// The last finished game's result, for games that end.
    fn last_result(&self) -> Option<&[NotePart]> {
        None
    }
    /// Plays one tick with each seat's command (`None`: no command).
    fn step(&mut self, commands: &[Option<Command>]) -> TickReport;
    /// Each seat's board, without the `board=` prefix.
    fn boards(&self) -> Vec<String>;
    /// What the server makes of a seat's command, for the player's page.
    fn describe_command(&self, seat: usize, text: &str) -> String;
    /// The built-in bots' names.
    fn builtin_names(&self) -> &'static [&'static str];
    /// A built-in bot by name.
    fn builtin(&self, name: &str, seed: u64) -> Option<BuiltinBot>;
    /// The spectators' view.
    fn view(&self) -> GameView;
    /// Whether a player with no connection leaves the field until they come
    /// back (after [`crate::room::ABSENT_STEP_OUT_MS`]). SnakeBattle keeps
    /// the snake going, as Codenjoy does; in Hex an unmoved piece is
    /// captured at once and its owner's empty hand restarts everyone, so
    /// absent players step out.
    fn absent_players_leave(&self) -> bool {
        false
    }
    /// The message a bot reads for a seat's board (Codenjoy's `board=`
    /// prefix by default).
    fn bot_message(&self, board: &str) -> String {
        codenjoy::message(board)
    }
    /// Whether the seat has a move to make this tick; a seat that has none
    /// (a dead snake, a finished game) is sent no board.
    fn asks(&self, _seat: usize) -> bool {
        true
    }
    /// The seat's input for an uploaded program, in the game's own format;
    /// `None` when the game runs no programs or the seat is not asked.
    fn process_ask(&self, _seat: usize) -> Option<ProcessAsk> {
        None
    }
    /// Whether new code makes the seat forfeit at once (CodeCarrots: the
    /// snake dies and respawns with the new program).
    fn forfeit_on_new_code(&self) -> bool {
        false
    }
    /// Whether a person who sits down during a game plays only from the
    /// next one (a bot plays on for them until then), as in the duel and
    /// Multisnake, where taking over a snake mid-game means dying before
    /// touching a key.
    fn joins_between_games(&self) -> bool {
        false
    }
    /// Between two games of a room whose games end, starts the next one at
    /// the next tick instead of after the pause that shows the last one
    /// (the room's other rules, such as the seats a game needs, still
    /// hold); whether it will. The room asks when every person seated has
    /// pressed a key: no one waits for a pause that nobody wants.
    fn start_next_game_now(&mut self) -> bool {
        false
    }
    /// Ticks until a seat taken now plays: the start of the next round or
    /// game where a newcomer waits for one, at most (a round that ends
    /// early starts the next sooner); 0 where a newcomer plays at once.
    fn ticks_to_next_start(&self) -> u64 {
        0
    }
    /// How long a due tick waits for a person to move: a player at their
    /// page with no bot or program connected, asked for a move and without
    /// one yet. Zero (the default) ticks on time, as Codenjoy does; the
    /// duel waits, as KingOfBots' rounds wait for both moves.
    fn person_wait(&self) -> std::time::Duration {
        std::time::Duration::ZERO
    }
}

/// Codenjoy SnakeBattle in a room. With rounds (the `codebattle`
/// profile) each round is a game of its own, kept as a replay: when a
/// round ends, the next one starts on a fresh board from the map with a
/// seed of its own, the seats as they are, and the scores carried over.
pub struct SnakeBattleRoom {
    game: SnakeBattle,
    /// How the last round ended, shown while the next one counts down (and
    /// on until another ends), as the duel shows its last game.
    last_round: Option<Vec<NotePart>>,
    /// The room's seed, from which each round's comes.
    seed: u64,
    /// The round being played and recorded; `None` without rounds.
    recorder: Option<crate::record::Recorder<SnakeBattle>>,
    /// Which seats are taken.
    present: Vec<bool>,
    /// Each seat's points of the rounds before this one.
    carried: Vec<i64>,
    /// Ticks and rounds of the games before this one.
    ticks_before: u64,
    rounds_before: u32,
    /// Games played before this one (the rounds' seeds' index).
    games_before: u64,
    /// The round ended in the last tick: the next tick starts a new game.
    round_over: bool,
}

impl SnakeBattleRoom {
    /// Wraps a game made from `seed` that has played no tick.
    pub fn new(game: SnakeBattle, seed: u64) -> SnakeBattleRoom {
        let seats = game.seats();
        let recorder = game.settings().rounds.then(|| crate::record::Recorder::new(&game, seed));
        SnakeBattleRoom {
            game,
            last_round: None,
            seed,
            recorder,
            present: vec![true; seats],
            carried: vec![0; seats],
            ticks_before: 0,
            rounds_before: 0,
            games_before: 0,
            round_over: false,
        }
    }

    fn settings(&self) -> &Settings {
        self.game.settings()
    }

    /// The next round's game: the same settings and map, every seat as it
    /// is now, the points so far carried.
    fn next_round(&mut self) {
        let seats = self.game.seats();
        for (i, c) in self.carried.iter_mut().enumerate() {
            *c += self.game.snakes()[i].score;
        }
        self.ticks_before += self.game.tick();
        self.rounds_before += self.game.round();
        self.games_before += 1;
        let seed = crate::record::nth_seed(self.seed, self.games_before);
        let next = SnakeBattle::new(self.settings().clone(), self.game.map().clone(), seats, seed);
        // The same settings and map made the first game, so they make this one.
        let Ok(next) = next else { return };
        self.game = next;
        let mut recorder = crate::record::Recorder::new(&self.game, seed);
        for seat in 0..seats {
            if !self.present[seat] {
                self.game.set_present(seat, false);
                recorder.presence(seat, false);
            }
        }
        self.recorder = Some(recorder);
    }
}

impl RoomGame for SnakeBattleRoom {
    fn last_result(&self) -> Option<&[NotePart]> {
        self.last_round.as_deref()
    }

    fn score_floored(&self) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        "snakebattle"
    }

    fn seats(&self) -> usize {
        self.game.seats()
    }

    fn tick(&self) -> u64 {
        self.ticks_before + self.game.tick()
    }

    fn round(&self) -> u32 {
        self.rounds_before + self.game.round()
    }

    fn recorded_ticks(&self) -> Option<u64> {
        self.recorder.as_ref().map(crate::record::Recorder::ticks)
    }

    fn set_present(&mut self, seat: usize, present: bool) {
        self.game.set_present(seat, present);
        if let Some(p) = self.present.get_mut(seat) {
            *p = present;
        }
        if let Some(r) = &mut self.recorder {
            r.presence(seat, present);
        }
    }

    fn score(&self, seat: usize) -> i64 {
        self.carried[seat] + self.game.snakes()[seat].score
    }

    fn ticks_to_next_start(&self) -> u64 {
        let settings = self.settings();
        if !settings.rounds {
            return 0;
        }
        match self.game.phase() {
            snakepit_engine::snakebattle::Phase::Countdown { left } => u64::from(left),
            snakepit_engine::snakebattle::Phase::Running { tick } => {
                u64::from(settings.round_ticks.saturating_sub(tick)) + u64::from(settings.countdown_ticks) + 1
            }
        }
    }

    fn step(&mut self, commands: &[Option<Command>]) -> TickReport {
        if std::mem::take(&mut self.round_over) {
            self.next_round();
        }
        let rule = self.settings().commands;
        let actions: Vec<Action> = commands
            .iter()
            .map(|c| c.as_ref().and_then(Command::text).map(|t| codenjoy::parse_action(t, rule)).unwrap_or_default())
            .collect();
        let events = self.game.step(&actions);
        if let Some(r) = &mut self.recorder {
            r.record(&self.game, &actions);
        }
        let mut report = TickReport::default();
        for e in &events {
            match e {
                Event::Died { snake, cause } => {
                    report.deaths.push(*snake);
                    let why = |t: &str| NotePart::Text(t.to_string());
                    let mut note = vec![NotePart::Seat(*snake)];
                    match cause {
                        Death::Wall => note.push(why(" hit a wall")),
                        Death::StartFloor => note.push(why(" ran onto a start floor")),
                        Death::OffBoard => note.push(why(" left the board")),
                        Death::Stone => note.push(why(" ate a stone too many")),
                        Death::HeadOn(b) => note.extend([why(" lost a head-on against "), NotePart::Seat(*b)]),
                        Death::Crash(b) => note.extend([why(" crashed into "), NotePart::Seat(*b)]),
                        Death::Shrink => note.push(why(" shrank below 2")),
                        Death::Suicide => note.push(why(" sent ACT(0)")),
                    }
                    report.notes.push(note);
                }
                Event::Scored { snake, reason: ScoreReason::Kill(_), .. } => report.kills.push(*snake),
                Event::Scored { snake, reason: ScoreReason::Win, .. } => report.wins.push(*snake),
                Event::Bite { attacker, victim, cut } => report.notes.push(vec![
                    NotePart::Seat(*attacker),
                    NotePart::Text(format!(" bit {cut} cells off ")),
                    NotePart::Seat(*victim),
                ]),
                Event::RoundStarted { .. } => {
                    let round = self.rounds_before + self.game.round();
                    report.notes.push(vec![NotePart::Text(format!("round {round} started"))]);
                }
                Event::RoundEnded { winners, .. } => {
                    let round = self.rounds_before + self.game.round();
                    if let Some(r) = self.recorder.take() {
                        let scores = self.game.snakes().iter().map(|s| s.score).collect();
                        report.finished = r.finish(scores, winners);
                        self.round_over = true;
                    }
                    let note = if winners.is_empty() {
                        vec![NotePart::Text(format!("round {round} ended without a winner"))]
                    } else {
                        let mut note = vec![NotePart::Text(format!("round {round} won by "))];
                        for (k, w) in winners.iter().enumerate() {
                            if k > 0 {
                                note.push(NotePart::Text(", ".to_string()));
                            }
                            note.push(NotePart::Seat(*w));
                        }
                        note
                    };
                    self.last_round = Some(note.clone());
                    report.notes.push(note);
                }
                _ => {}
            }
        }
        report
    }

    fn boards(&self) -> Vec<String> {
        codenjoy::render_boards(&self.game)
    }

    fn describe_command(&self, seat: usize, text: &str) -> String {
        let tokens = codenjoy::parse_command(text);
        let action = Action::from_tokens(&tokens, self.settings().commands);
        if text.trim().is_empty() {
            return "empty answer: the snake keeps going".to_string();
        }
        if tokens.is_empty() {
            return "no command recognised: the snake keeps going".to_string();
        }
        if action == Action::default() {
            return "this combination skips the turn".to_string();
        }
        let mut parts = Vec::new();
        if action.drop == Some(StoneDrop::BeforeMove) {
            parts.push("ACT");
        }
        if let Some(d) = action.dir {
            parts.push(dir_command(d));
        }
        if action.drop == Some(StoneDrop::AfterMove) {
            parts.push("then ACT");
        }
        if action.suicide {
            parts.push("ACT(0)");
        }
        // A valid answer the game cannot act on says so: the player sees
        // why their snake did nothing.
        let snake = self.game.snakes().get(seat);
        let why_nothing = match snake {
            Some(s) if s.alive && !s.active => " (asleep until the next round: no effect)",
            Some(s) if !s.alive => " (dead until the next round: no effect)",
            Some(s) if s.stones == 0 && action.drop.is_some() => " (no stone to drop)",
            _ => "",
        };
        format!("ok: {}{why_nothing}", parts.join(", "))
    }

    fn builtin_names(&self) -> &'static [&'static str] {
        snakepit_bots::builtin::NAMES
    }

    fn builtin(&self, name: &str, seed: u64) -> Option<BuiltinBot> {
        let mut bot = snakepit_bots::builtin::by_name(name, seed)?;
        Some(Box::new(move |msg: &str| bot.answer(msg)))
    }

    fn view(&self) -> GameView {
        let (phase, phase_ticks) = spectator::phase_view(self.game.phase());
        let size = self.game.size();
        GameView {
            size,
            width: size,
            height: size,
            cells: spectator::snakebattle_cells(&self.game),
            phase,
            phase_ticks,
            phase_ticks_max: self.game.settings().round_ticks,
            snakes: self
                .game
                .snakes()
                .iter()
                .enumerate()
                .filter(|(_, s)| s.present && !s.body.is_empty())
                .map(|(i, s)| SnakeView {
                    seat: i,
                    name: String::new(),
                    bot: false,
                    color: String::new(),
                    alive: s.alive,
                    sleeping: !s.active,
                    fury: s.fury,
                    flying: s.flying,
                    stones: s.stones,
                    score: self.carried[i] + s.score,
                    body: s.body.iter().map(|p| [p.x, p.y]).collect(),
                    dir: dir_word(s.dir),
                })
                .collect(),
            pieces: Vec::new(),
            result: self.last_round.clone(),
        }
    }
}

fn dir_command(d: Dir) -> &'static str {
    match d {
        snakepit_engine::Dir::Up => "UP",
        snakepit_engine::Dir::Right => "RIGHT",
        snakepit_engine::Dir::Down => "DOWN",
        snakepit_engine::Dir::Left => "LEFT",
    }
}

fn dir_word(d: snakepit_engine::Dir) -> &'static str {
    match d {
        snakepit_engine::Dir::Up => "up",
        snakepit_engine::Dir::Right => "right",
        snakepit_engine::Dir::Down => "down",
        snakepit_engine::Dir::Left => "left",
    }
}

/// Codenjoy Hex in a room: everyone on one field. Each field, until it
/// restarts, is a game of its own, kept as a replay: after a restart the
/// next field starts from the map with a seed of its own, the seats as
/// they are, and the scores carried over.
pub struct HexRoom {
    game: Hex,
    seed: u64,
    recorder: Option<crate::record::Recorder<Hex>>,
    present: Vec<bool>,
    carried: Vec<i64>,
    ticks_before: u64,
    games_before: u64,
    /// The field restarted in the last tick: the next tick starts a new game.
    field_over: bool,
}

impl HexRoom {
    /// A room's field of `players_per_field` seats from `seed`, every seat
    /// free until the room seats someone.
    pub fn new(settings: hex::Settings, map: hex::Map, seed: u64) -> Result<HexRoom, snakepit_engine::game::NewGameError> {
        let seats = settings.players_per_field as usize;
        let mut game = Hex::new(settings, map, seats, seed)?;
        let mut recorder = crate::record::Recorder::new(&game, seed);
        for seat in 0..seats {
            game.set_present(seat, false);
            recorder.presence(seat, false);
        }
        Ok(HexRoom {
            game,
            seed,
            recorder: Some(recorder),
            present: vec![false; seats],
            carried: vec![0; seats],
            ticks_before: 0,
            games_before: 0,
            field_over: false,
        })
    }

    /// The next field's game: the same settings and map, every seat as it
    /// is now, the points so far carried.
    fn next_field(&mut self) {
        let seats = self.game.seats();
        for (i, c) in self.carried.iter_mut().enumerate() {
            *c += self.game.players()[i].score;
        }
        self.ticks_before += self.game.tick();
        self.games_before += 1;
        let seed = crate::record::nth_seed(self.seed, self.games_before);
        // The same settings and map made the first field, so they make this one.
        let Ok(next) = Hex::new(self.game.settings().clone(), self.game.map().clone(), seats, seed) else { return };
        self.game = next;
        let mut recorder = crate::record::Recorder::new(&self.game, seed);
        for seat in 0..seats {
            if !self.present[seat] {
                self.game.set_present(seat, false);
                recorder.presence(seat, false);
            }
        }
        self.recorder = Some(recorder);
    }
}

impl RoomGame for HexRoom {
    fn score_floored(&self) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        "hex"
    }

    fn seats(&self) -> usize {
        self.game.seats()
    }

    fn tick(&self) -> u64 {
        self.ticks_before + self.game.tick()
    }

    fn round(&self) -> u32 {
        0
    }

    fn recorded_ticks(&self) -> Option<u64> {
        self.recorder.as_ref().map(crate::record::Recorder::ticks)
    }

    fn set_present(&mut self, seat: usize, present: bool) {
        self.game.set_present(seat, present);
        if let Some(p) = self.present.get_mut(seat) {
            *p = present;
        }
        if let Some(r) = &mut self.recorder {
            r.presence(seat, present);
        }
    }

    fn score(&self, seat: usize) -> i64 {
        self.carried[seat] + self.game.players()[seat].score
    }

    fn step(&mut self, commands: &[Option<Command>]) -> TickReport {
        if std::mem::take(&mut self.field_over) {
            self.next_field();
        }
        let actions: Vec<hex::Action> = commands
            .iter()
            .enumerate()
            .map(|(seat, c)| c.as_ref().and_then(Command::text).map(|t| snakepit_protocol::hex::read_command(&self.game, seat, t).action).unwrap_or_default())
            .collect();
        let events = self.game.step(&actions);
        if let Some(r) = &mut self.recorder {
            r.record(&self.game, &actions);
        }
        let mut report = TickReport::default();
        if events.iter().any(|e| matches!(e, hex::Event::Restarted { .. }))
            && let Some(r) = self.recorder.take()
        {
            let scores = self.game.players().iter().map(|p| p.score).collect();
            report.finished = r.finish(scores, &[]);
            self.field_over = true;
        }
        for e in &events {
            match e {
                hex::Event::Ignored { seat, why, .. } => {
                    report.seat_notes.push((*seat, format!("refused: {}", snakepit_protocol::hex::ignored_text(*why))));
                }
                hex::Event::Captured { seat, .. } => report.kills.push(*seat),
                hex::Event::Restarted { reason } => {
                    let note = match reason {
                        hex::Restart::NoPieces(seats) => {
                            let mut note = Vec::new();
                            for (k, s) in seats.iter().enumerate() {
                                if k > 0 {
                                    note.push(NotePart::Text(" and ".into()));
                                }
                                note.push(NotePart::Seat(*s));
                            }
                            let verb = if seats.len() == 1 { "has" } else { "have" };
                            note.push(NotePart::Text(format!(" {verb} no pieces left: everyone starts again")));
                            note
                        }
                        hex::Restart::BoardFull => vec![NotePart::Text("the board is full: everyone starts again".into())],
                        hex::Restart::Still => {
                            let ticks = self.game.settings().still_restart_ticks;
                            vec![NotePart::Text(format!("nothing moved for {ticks} ticks: everyone starts again"))]
                        }
                    };
                    report.notes.push(note);
                }
                hex::Event::WallFormed { seats, .. } => {
                    let mut note = Vec::new();
                    for (k, s) in seats.iter().enumerate() {
                        if k > 0 {
                            note.push(NotePart::Text(" and ".into()));
                        }
                        note.push(NotePart::Seat(*s));
                    }
                    note.push(NotePart::Text(" moved to the same cell: a wall".into()));
                    report.notes.push(note);
                }
                _ => {}
            }
        }
        report
    }

    fn boards(&self) -> Vec<String> {
        snakepit_protocol::hex::render_boards(&self.game)
    }

    fn describe_command(&self, seat: usize, text: &str) -> String {
        snakepit_protocol::hex::read_command(&self.game, seat, text).describe()
    }

    fn builtin_names(&self) -> &'static [&'static str] {
        snakepit_bots::hexbots::NAMES
    }

    fn builtin(&self, name: &str, seed: u64) -> Option<BuiltinBot> {
        let mut bot = snakepit_bots::hexbots::by_name(name, seed)?;
        Some(Box::new(move |msg: &str| bot.answer(msg)))
    }

    fn view(&self) -> GameView {
        let size = self.game.size();
        // The background as replays have it too; the pieces apart.
        let cells = snakepit_viewer::html::HtmlView::live_cells(&self.game);
        let mut pieces = Vec::new();
        for (i, c) in self.game.cells().iter().enumerate() {
            if let hex::Cell::Piece(seat) = c {
                pieces.push([(i % size) as i32, (i / size) as i32, *seat as i32]);
            }
        }
        GameView { size, width: size, height: size, cells, phase: "running", phase_ticks: 0, phase_ticks_max: 0, snakes: Vec::new(), pieces, result: None }
    }

    fn absent_players_leave(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Between two rounds the room shows how the last one ended, as a duel
    /// shows its last game.
    #[test]
    fn a_snakebattle_room_shows_its_last_round() {
        let settings = Settings::from_pairs([("countdown_ticks", "2"), ("round_ticks", "8")]).unwrap();
        let game = SnakeBattle::new(settings, snakepit_engine::snakebattle::Map::default_map(), 2, 5).unwrap();
        let mut room = SnakeBattleRoom::new(game, 5);
        room.set_present(0, true);
        room.set_present(1, true);
        assert!(room.view().result.is_none() && room.last_result().is_none());
        let mut ended = None;
        for _ in 0..100 {
            let r = room.step(&[None, None]);
            if let Some(note) = r.notes.iter().find(|n| matches!(n.first(), Some(NotePart::Text(t)) if t.starts_with("round 1 ") && t != "round 1 started")) {
                ended = Some(note.clone());
                break;
            }
        }
        let ended = ended.expect("the first round ends within 100 ticks");
        assert_eq!(room.last_result(), Some(ended.as_slice()));
        assert_eq!(room.view().result, Some(ended));
    }

    /// A valid answer the game cannot act on is noted with why: a snake
    /// asleep before its round, an ACT without a stone.
    #[test]
    fn answers_that_do_nothing_say_why() {
        let settings = Settings::from_pairs([("countdown_ticks", "2")]).unwrap();
        let game = SnakeBattle::new(settings, snakepit_engine::snakebattle::Map::default_map(), 2, 5).unwrap();
        let mut room = SnakeBattleRoom::new(game, 5);
        room.set_present(0, true);
        room.set_present(1, true);
        assert_eq!(room.describe_command(0, "UP"), "ok: UP (asleep until the next round: no effect)");
        while !room.game.snakes()[0].active {
            room.step(&[None, None]);
        }
        assert_eq!(room.describe_command(0, "UP"), "ok: UP");
        assert_eq!(room.describe_command(0, "ACT,UP"), "ok: ACT, UP (no stone to drop)");
    }
}
