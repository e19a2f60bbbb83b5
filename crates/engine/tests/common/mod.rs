//! The one `check` helper of the SnakeBattle rule tests, and its notation.
//!
//! A case is a drawn position, the moves of one or more ticks, and the
//! expected result as text (an `expect![[...]]`, so `UPDATE_EXPECT=1`
//! rewrites it; every expectation must still be read against the CodeBattle
//! description).
//!
//! # Input
//!
//! ```text
//! game: tick=12 profile=codenjoy rounds=false
//! ☼☼☼☼☼☼☼
//! ☼..●..☼
//! ☼aaA.○☼
//! ☼bbbB.☼
//! ☼☼☼☼☼☼☼
//! A: fury=5 stones=2 score=10
//! B: sleeping
//! C: score=7
//! > A=R B=RA
//! > A=[LEFT,UP]
//! show
//! > x3
//! ```
//!
//! * `game:` (optional, first) holds the helper's keys `tick=N` (ticks of
//!   the round already played, default 0), `seed=N` (default 1) and the flag
//!   `spawning` (random items appear; off by default so that a position
//!   changes only by the rule under test). Every other `key=value` is a
//!   setting, read by `Settings::from_pairs` (profile `codebattle` unless
//!   `profile=` says otherwise).
//! * The board: terrain `☼` wall, `#` start floor, `.` or space empty;
//!   items `○` apple, `●` stone, `$` gold, `®` fury pill, `©` flying pill;
//!   snakes as letters, the upper-case `A`..`O` the head of seat 0..14, the
//!   lower-case letter its body. The body is found by walking from the head
//!   to the only unvisited adjacent cell of the same letter; if there are two
//!   the walk panics, unless it is the first step and `dir=` names the way
//!   the head faces (the neck is behind it). Terrain under a snake is empty.
//!   The board may be any rectangle: the map is padded with walls on the
//!   right and at the bottom to the square the engine wants. A board without
//!   `#` gets one in the padding (out of sight, walled in), because a map
//!   needs a start floor.
//! * Snake lines `A: ...` set `dir=U|R|D|L` (default: from the neck to the
//!   head), `fury=N`, `flying=N`, `stones=N`, `shrink=N` (length owed from a
//!   head-on), `score=N` and the flag `sleeping`. A seat named here but not
//!   drawn is present but off the field: it spawns at the next tick. Seats
//!   below the highest one used that appear nowhere are empty seats.
//! * `>` runs one tick. `A=...` gives seat A the engine's compact action
//!   text: `U` `R` `D` `L`, `AL` (ACT, then LEFT: drop before the move), `LA`
//!   (LEFT, then ACT: drop after it), `A` (ACT alone), `X` (`ACT(0)`), `-`
//!   (nothing, the default for seats not named). `A=[ACT,LEFT]` instead gives
//!   the raw command words, read by `Action::from_tokens` under the game's
//!   command rule. A token `xN` runs the tick N times; a lone `-` stands
//!   for a tick in which nobody says anything.
//! * `show` prints the position at that point.
//!
//! # Output
//!
//! Each tick prints `tick N: <moves>`, where N counts the ticks of the round
//! (`tick of countdown N` between rounds), then one line per event,
//! indented. A bracketed move is shown with the action it was read as. Then,
//! for every `show` and at the end, the position: the round clock, the
//! board in the input notation (empty cells as `.`), and one line per seat:
//! `A: <state> len=N dir=D fury=N flying=N stones=N shrink=N score=N`,
//! where `<state>` is `dead`, `sleeping`, `waiting` (present, off the field)
//! or `empty` (no player), absent for a playing snake; zero counters are left
//! out. Dead snakes are drawn: their bodies stay on the field for one board.
//! Where several things share a cell, dead snakes are drawn first, then live
//! bodies, then live heads, each over the item below; whatever is covered
//! this way, or lies outside the drawn rectangle, is listed on a `hidden:`
//! line.

use expect_test::Expect;
use snakepit_engine::snakebattle::{
    Action, Death, Event, Item, Map, Phase, RoundEnd, ScoreReason, Settings, Snake, SnakeBattle, Terrain, Token,
};
use snakepit_engine::{Dir, Game, Pos};
use std::fmt::Write;

use crate::notation::{dedent, letter_of};

/// Seats the notation's letters name: `A` to `O`.
const SEATS: usize = 15;

fn seat_of(letter: char) -> Option<usize> {
    crate::notation::seat_of(letter, SEATS)
}

fn is_snake_line(line: &str) -> bool {
    crate::notation::is_seat_line(line, SEATS)
}

/// Runs a case written in the notation above and compares its report.
pub fn check(input: &str, expect: Expect) {
    let case = Case::parse(input);
    expect.assert_eq(&case.run());
}

/// One step of a case's script.
enum Step {
    /// A tick, repeated `times` times.
    Tick { moves: Vec<(usize, String)>, times: u32 },
    /// Print the position.
    Show,
}

/// Per-seat attributes from the snake lines.
#[derive(Default)]
struct Attrs {
    dir: Option<Dir>,
    fury: u32,
    flying: u32,
    stones: u32,
    shrink: u32,
    score: i64,
    sleeping: bool,
}

struct Case {
    settings: Settings,
    tick: u32,
    seed: u64,
    spawning: bool,
    /// The drawn board, one `Vec<char>` per row.
    rows: Vec<Vec<char>>,
    attrs: Vec<Option<Attrs>>,
    script: Vec<Step>,
}





impl Case {
    fn parse(input: &str) -> Case {
        let mut lines = dedent(input).into_iter().peekable();
        let mut pairs: Vec<(String, String)> = Vec::new();
        let (mut tick, mut seed, mut spawning) = (0, 1, false);
        if let Some(game) = lines.peek().and_then(|l| l.strip_prefix("game:")) {
            for word in game.split_whitespace() {
                match word.split_once('=') {
                    Some(("tick", v)) => tick = v.parse().expect("game: tick=N"),
                    Some(("seed", v)) => seed = v.parse().expect("game: seed=N"),
                    Some((k, v)) => pairs.push((k.to_string(), v.to_string())),
                    None if word == "spawning" => spawning = true,
                    None => panic!("game: unknown flag {word:?}"),
                }
            }
            lines.next();
        }
        let settings = Settings::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .unwrap_or_else(|e| panic!("game: {e}"));

        let mut rows = Vec::new();
        while let Some(line) = lines.peek() {
            if line.trim().is_empty() || line.starts_with('>') || *line == "show" || is_snake_line(line) {
                break;
            }
            rows.push(line.chars().collect::<Vec<char>>());
            lines.next();
        }
        assert!(!rows.is_empty(), "the case has no board");
        for (y, row) in rows.iter().enumerate() {
            assert_eq!(row.len(), rows[0].len(), "board row {y} is {} wide, row 0 is {}", row.len(), rows[0].len());
        }

        let mut attrs: Vec<Option<Attrs>> = Vec::new();
        let mut script = Vec::new();
        for line in lines {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if line == "show" {
                script.push(Step::Show);
            } else if let Some(moves) = line.strip_prefix('>') {
                script.push(Case::parse_tick(moves));
            } else if is_snake_line(line) {
                let seat = seat_of(line.chars().next().unwrap_or_default()).unwrap_or_default();
                if attrs.len() <= seat {
                    attrs.resize_with(seat + 1, || None);
                }
                assert!(attrs[seat].is_none(), "two lines for snake {}", letter_of(seat));
                attrs[seat] = Some(Case::parse_attrs(&line[2..]));
            } else {
                panic!("cannot read line {line:?}: expected `A: ...`, `> ...` or `show`");
            }
        }
        Case { settings, tick, seed, spawning, rows, attrs, script }
    }

    fn parse_tick(text: &str) -> Step {
        let mut moves = Vec::new();
        let mut times = 1;
        for word in text.split_whitespace() {
            if word == "-" {
                continue;
            }
            if let Some(n) = word.strip_prefix('x') {
                times = n.parse().unwrap_or_else(|_| panic!("bad repeat {word:?}"));
                continue;
            }
            let (who, what) = word.split_once('=').unwrap_or_else(|| panic!("bad move {word:?}: expected A=R"));
            let seat = match who.chars().collect::<Vec<_>>().as_slice() {
                [c] => seat_of(*c),
                _ => None,
            }
            .unwrap_or_else(|| panic!("bad seat {who:?} in {word:?}"));
            moves.push((seat, what.to_string()));
        }
        Step::Tick { moves, times }
    }

    fn parse_attrs(text: &str) -> Attrs {
        let mut a = Attrs::default();
        for word in text.split_whitespace() {
            let num = |v: &str| -> u32 { v.parse().unwrap_or_else(|_| panic!("bad number in {word:?}")) };
            match word.split_once('=') {
                Some(("dir", v)) => {
                    let c = v.chars().next().unwrap_or_default();
                    a.dir = Some(Dir::from_letter(c).unwrap_or_else(|| panic!("bad direction in {word:?}")));
                }
                Some(("fury", v)) => a.fury = num(v),
                Some(("flying", v)) => a.flying = num(v),
                Some(("stones", v)) => a.stones = num(v),
                Some(("shrink", v)) => a.shrink = num(v),
                Some(("score", v)) => a.score = v.parse().unwrap_or_else(|_| panic!("bad number in {word:?}")),
                None if word == "sleeping" => a.sleeping = true,
                _ => panic!("unknown snake attribute {word:?}"),
            }
        }
        a
    }

    fn width(&self) -> usize {
        self.rows.iter().map(Vec::len).max().unwrap_or(0)
    }

    fn cell(&self, p: Pos) -> char {
        self.rows.get(p.y as usize).and_then(|r| r.get(p.x as usize)).copied().unwrap_or('☼')
    }

    /// The map: the drawn terrain, padded with walls to a square.
    fn map(&self) -> Map {
        let has_floor = self.rows.iter().flatten().any(|&c| c == '#');
        let side = self.width().max(self.rows.len() + usize::from(!has_floor)).max(5);
        let mut text = String::new();
        for y in 0..side {
            for x in 0..side {
                let c = self.cell(Pos::new(x as i32, y as i32));
                let t = match c {
                    '☼' | '#' => c,
                    '.' | ' ' | '○' | '●' | '$' | '®' | '©' => ' ',
                    c if c.is_ascii_alphabetic() && seat_of(c.to_ascii_uppercase()).is_some() => ' ',
                    other => panic!("unknown board glyph {other:?}"),
                };
                let hidden_floor = !has_floor && x == side - 1 && y == side - 1;
                text.push(if hidden_floor { '#' } else { t });
            }
            text.push('\n');
        }
        Map::parse(&text).unwrap_or_else(|e| panic!("the padded board is not a map: {e}"))
    }

    fn items(&self, map: &Map) -> Vec<Option<Item>> {
        let mut items = vec![None; map.size * map.size];
        for (y, row) in self.rows.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                items[y * map.size + x] = match c {
                    '○' => Some(Item::Apple),
                    '●' => Some(Item::Stone),
                    '$' => Some(Item::Gold),
                    '®' => Some(Item::FuryPill),
                    '©' => Some(Item::FlyingPill),
                    _ => None,
                };
            }
        }
        items
    }

    /// The body of the snake whose head is drawn as `head`, head first.
    fn body(&self, head: char, dir: Option<Dir>) -> Vec<Pos> {
        let lower = head.to_ascii_lowercase();
        let cells = |c: char| -> Vec<Pos> {
            let mut v = Vec::new();
            for (y, row) in self.rows.iter().enumerate() {
                for (x, &g) in row.iter().enumerate() {
                    if g == c {
                        v.push(Pos::new(x as i32, y as i32));
                    }
                }
            }
            v
        };
        let heads = cells(head);
        let start = match heads.as_slice() {
            [] => return Vec::new(),
            [h] => *h,
            _ => panic!("snake {head} has {} heads", heads.len()),
        };
        let mut body = vec![start];
        loop {
            let at = *body.last().unwrap_or(&start);
            let next: Vec<Pos> =
                Dir::ALL.iter().map(|&d| at.step(d)).filter(|p| self.cell(*p) == lower && !body.contains(p)).collect();
            let chosen = match next.as_slice() {
                [] => break,
                [p] => *p,
                _ => match dir {
                    Some(d) if body.len() == 1 && next.contains(&at.step(d.opposite())) => at.step(d.opposite()),
                    _ => panic!(
                        "snake {head} is ambiguous at {at}: its body could go on to any of {next:?}; \
                         redraw it so that each body cell touches only the next one{}",
                        if body.len() == 1 { ", or give its dir=" } else { "" }
                    ),
                },
            };
            body.push(chosen);
        }
        let stray: Vec<Pos> = cells(lower).into_iter().filter(|p| !body.contains(p)).collect();
        assert!(stray.is_empty(), "cells {stray:?} of snake {head} are not joined to its body");
        assert!(body.len() >= 2, "snake {head} has one cell; snakes are at least 2 long");
        if let Some(d) = dir {
            assert_eq!(body[1].step(d), body[0], "snake {head}: dir={} does not point from its neck to its head", d.letter());
        }
        body
    }

    fn build(&self) -> SnakeBattle {
        let map = self.map();
        let items = self.items(&map);
        let drawn_seats = self
            .rows
            .iter()
            .flatten()
            .filter_map(|c| seat_of(c.to_ascii_uppercase()).filter(|_| c.is_ascii_alphabetic()))
            .max()
            .map_or(0, |s| s + 1);
        let seats = drawn_seats.max(self.attrs.len());
        assert!(seats > 0, "the case has no snakes");
        // One seat is enough to create the game; `set_position` then seats
        // everyone the case draws.
        let mut game = SnakeBattle::new(self.settings.clone(), map, 1, self.seed).expect("the game is created");
        // Playing the countdown out gives round 1 rather than round 0.
        while matches!(game.phase(), Phase::Countdown { .. }) {
            game.step(&[]);
        }
        let mut snakes = Vec::new();
        for seat in 0..seats {
            let none = Attrs::default();
            let attrs = self.attrs.get(seat).and_then(Option::as_ref);
            let a = attrs.unwrap_or(&none);
            let body = self.body(letter_of(seat), a.dir);
            let dir = body.get(1).and_then(|neck| neck.dir_to(body[0])).unwrap_or(Dir::Right);
            let drawn = !body.is_empty();
            let mut s = SnakeBattle::make_snake(body, dir);
            s.fury = a.fury;
            s.flying = a.flying;
            s.stones = a.stones;
            s.shrink = a.shrink;
            s.score = a.score;
            s.active = !a.sleeping;
            s.alive = drawn;
            s.present = drawn || attrs.is_some();
            snakes.push(s);
        }
        game.set_position(items, snakes);
        game.set_phase(Phase::Running { tick: self.tick });
        game.set_item_spawning(self.spawning);
        game
    }

    fn run(&self) -> String {
        let mut game = self.build();
        let mut out = String::new();
        for step in &self.script {
            match step {
                Step::Show => {
                    out.push_str(&self.position(&game));
                    out.push('\n');
                }
                Step::Tick { moves, times } => {
                    for _ in 0..*times {
                        let mut actions = vec![Action::default(); game.seats()];
                        let mut shown = Vec::new();
                        for (seat, text) in moves {
                            let action = read_move(text, game.settings());
                            *actions.get_mut(*seat).expect("a move for a seat the case does not have") = action;
                            let read_as =
                                if text.starts_with('[') { format!("→{}", action.to_text()) } else { String::new() };
                            shown.push(format!("{}={text}{read_as}", letter_of(*seat)));
                        }
                        let shown = if shown.is_empty() { "-".to_string() } else { shown.join(" ") };
                        // Labelled before the step: a tick that ends the
                        // round leaves the clock in the countdown.
                        let label = match game.phase() {
                            Phase::Running { tick } => (tick + 1).to_string(),
                            Phase::Countdown { left } => format!("of countdown {left}"),
                        };
                        let events = game.step(&actions);
                        writeln!(out, "tick {label}: {shown}").ok();
                        for e in &events {
                            writeln!(out, "  {}", event_text(e)).ok();
                        }
                        if let Err(e) = game.check_invariants() {
                            panic!("invariant broken: {e}\n{out}");
                        }
                    }
                }
            }
        }
        out.push_str(&self.position(&game));
        out
    }

    /// The round clock, the board and the snakes.
    fn position(&self, game: &SnakeBattle) -> String {
        let (w, h) = (self.width(), self.rows.len());
        let map = game.map();
        let mut grid: Vec<Vec<char>> = (0..h)
            .map(|y| {
                (0..w)
                    .map(|x| match map.terrain_at(Pos::new(x as i32, y as i32)) {
                        Terrain::Wall => '☼',
                        Terrain::StartFloor => '#',
                        Terrain::Empty => '.',
                    })
                    .collect()
            })
            .collect();
        // What each cell shows, as (glyph, description); drawing over an
        // entry moves it to the hidden list.
        let mut shown: Vec<Vec<Option<String>>> = vec![vec![None; w]; h];
        let mut hidden: Vec<String> = Vec::new();
        let mut draw = |p: Pos, glyph: char, what: String, grid: &mut Vec<Vec<char>>| {
            let inside = p.x >= 0 && p.y >= 0 && (p.x as usize) < w && (p.y as usize) < h;
            if !inside {
                hidden.push(format!("{what} at {p}"));
                return;
            }
            let (x, y) = (p.x as usize, p.y as usize);
            if let Some(old) = shown[y][x].replace(what) {
                hidden.push(format!("{old} at {p}"));
            }
            grid[y][x] = glyph;
        };
        let items = game.items();
        for (i, it) in items.iter().enumerate() {
            if let Some(it) = it {
                draw(map.pos(i), item_glyph(*it), item_name(*it).to_string(), &mut grid);
            }
        }
        let snakes = game.snakes();
        let order = |pred: &dyn Fn(&Snake) -> bool| (0..snakes.len()).filter(|&i| pred(&snakes[i])).collect::<Vec<_>>();
        let layers = [
            order(&|s| !s.alive),
            order(&|s| s.alive && s.flying > 0),
            order(&|s| s.alive && s.flying == 0),
        ];
        for (layer, seats) in layers.iter().enumerate() {
            for &seat in seats {
                let s = &snakes[seat];
                let letter = letter_of(seat);
                // Live heads go on top of everything, below.
                let skip_head = layer > 0;
                for (k, &c) in s.body.iter().enumerate().rev() {
                    if k == 0 && skip_head {
                        continue;
                    }
                    let glyph = if k == 0 { letter } else { letter.to_ascii_lowercase() };
                    draw(c, glyph, glyph.to_string(), &mut grid);
                }
            }
        }
        for seats in &layers[1..] {
            for &seat in seats {
                if let Some(head) = snakes[seat].head() {
                    draw(head, letter_of(seat), letter_of(seat).to_string(), &mut grid);
                }
            }
        }

        let mut out = match game.phase() {
            Phase::Running { tick } => format!("round {} tick {tick}\n", game.round()),
            Phase::Countdown { left } => format!("countdown {left} after round {}\n", game.round()),
        };
        for row in &grid {
            out.extend(row.iter());
            out.push('\n');
        }
        for (seat, s) in snakes.iter().enumerate() {
            out.push_str(&snake_line(seat, s));
            out.push('\n');
        }
        if !hidden.is_empty() {
            writeln!(out, "hidden: {}", hidden.join(", ")).ok();
        }
        out
    }
}

fn snake_line(seat: usize, s: &Snake) -> String {
    let mut words = vec![format!("{}:", letter_of(seat))];
    let state = if !s.present {
        Some("empty")
    } else if s.body.is_empty() {
        Some("waiting")
    } else if !s.alive {
        Some("dead")
    } else if !s.active {
        Some("sleeping")
    } else {
        None
    };
    words.extend(state.map(str::to_string));
    if !s.body.is_empty() {
        words.push(format!("len={}", s.len()));
        words.push(format!("dir={}", s.dir.letter()));
    }
    for (name, v) in [("fury", s.fury), ("flying", s.flying), ("stones", s.stones), ("shrink", s.shrink)] {
        if v > 0 {
            words.push(format!("{name}={v}"));
        }
    }
    words.push(format!("score={}", s.score));
    words.join(" ")
}

/// A move as the case writes it: compact action text, or raw command words
/// in brackets.
fn read_move(text: &str, settings: &Settings) -> Action {
    let Some(words) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) else {
        return Action::from_text(text).unwrap_or_else(|e| panic!("{e}"));
    };
    let tokens: Vec<Token> = words
        .split(',')
        .map(|w| match w {
            "UP" => Token::Dir(Dir::Up),
            "RIGHT" => Token::Dir(Dir::Right),
            "DOWN" => Token::Dir(Dir::Down),
            "LEFT" => Token::Dir(Dir::Left),
            "ACT" => Token::Act,
            "ACT(0)" => Token::ActZero,
            other => panic!("unknown command word {other:?}"),
        })
        .collect();
    Action::from_tokens(&tokens, settings.commands)
}

fn item_glyph(item: Item) -> char {
    match item {
        Item::Apple => '○',
        Item::Stone => '●',
        Item::Gold => '$',
        Item::FuryPill => '®',
        Item::FlyingPill => '©',
    }
}

fn item_name(item: Item) -> &'static str {
    match item {
        Item::Apple => "apple",
        Item::Stone => "stone",
        Item::Gold => "gold",
        Item::FuryPill => "fury pill",
        Item::FlyingPill => "flying pill",
    }
}

/// The stable one-line form of an event, with seats as letters.
fn event_text(e: &Event) -> String {
    let l = letter_of;
    match e {
        Event::Spawned { snake, at } => format!("{} spawned at {at}", l(*snake)),
        Event::Countdown { left } => format!("countdown {left}"),
        Event::RoundStarted { round } => format!("round {round} started"),
        Event::RoundEnded { round, reason, winners } => {
            let reason = match reason {
                RoundEnd::MaxLength => "max length",
                RoundEnd::Timeout => "timeout",
                RoundEnd::LastAlive => "last alive",
            };
            let winners: Vec<String> = winners.iter().map(|&w| l(w).to_string()).collect();
            let winners = if winners.is_empty() { "none".to_string() } else { winners.join(" ") };
            format!("round {round} ended ({reason}), winners: {winners}")
        }
        Event::StoneDropped { snake, at } => format!("{} dropped a stone at {at}", l(*snake)),
        Event::SelfBite { snake, cut } => format!("{} bit itself, losing {cut}", l(*snake)),
        Event::Bite { attacker, victim, cut } => format!("{} bit {}, who loses {cut}", l(*attacker), l(*victim)),
        Event::HeadOn { attacker, target } => format!("{} head-on {}", l(*attacker), l(*target)),
        Event::Ate { snake, item, at } => format!("{} ate {} at {at}", l(*snake), item_name(*item)),
        Event::Died { snake, cause } => {
            let cause = match cause {
                Death::Wall => "wall".to_string(),
                Death::StartFloor => "start floor".to_string(),
                Death::OffBoard => "off the board".to_string(),
                Death::Stone => "stone".to_string(),
                Death::HeadOn(b) => format!("head-on with {}", l(*b)),
                Death::Crash(b) => format!("crashed into {}", l(*b)),
                Death::Shrink => "shrink".to_string(),
                Death::Suicide => "ACT(0)".to_string(),
            };
            format!("{} died: {cause}", l(*snake))
        }
        Event::ItemSpawned { item, at } => format!("{} appeared at {at}", item_name(*item)),
        Event::Scored { snake, reason, points } => {
            let why = match reason {
                ScoreReason::Apple => "apple".to_string(),
                ScoreReason::Gold => "gold".to_string(),
                ScoreReason::Stone => "stone".to_string(),
                ScoreReason::Kill(b) => format!("kill {}", l(*b)),
                ScoreReason::Bite(b) => format!("bite {}", l(*b)),
                ScoreReason::Win => "win".to_string(),
                ScoreReason::Death => "death".to_string(),
            };
            format!("{} {points:+} ({why})", l(*snake))
        }
    }
}
