//! How a game looks in a terminal: the spectator's board, a status line and
//! one line per event.
//!
//! `play --watch` and `replay` draw any game through [`TerminalView`], so a
//! new game only has to say how its state reads as text.

use snakepit_engine::Game;
use snakepit_engine::battlesnake::{self, Battlesnake};
use snakepit_engine::carrots::{self, Carrots};
use snakepit_engine::duel::{self, Duel};
use snakepit_engine::hex::{self as hex_engine, Hex};
use snakepit_engine::multisnake::Multisnake;
use snakepit_engine::snakebattle::{Phase, SnakeBattle};
use snakepit_protocol::codenjoy::render_board;
use snakepit_protocol::hex;
use snakepit_protocol::stdio;
use snakepit_protocol::replay::ReplayGame;
use std::fmt::Write;

/// A game that can be shown as text.
pub trait TerminalView: ReplayGame {
    /// The board as a spectator sees it, one string per row, top first.
    fn board_rows(&self) -> Vec<String>;
    /// One line: tick, round or phase, and per seat its label, length, score
    /// and whether it is alive.
    fn status_line(&self, players: &[String]) -> String;
    /// One event as a short sentence naming seats by their letters, as the
    /// status line does. No default: a Debug fallback is how the viewer once
    /// showed raw enum names, so each game has to say how its events read.
    fn event_line(event: &Self::Event) -> String;
}

impl TerminalView for SnakeBattle {
    fn board_rows(&self) -> Vec<String> {
        let board: Vec<char> = render_board(self, None).chars().collect();
        board.chunks(self.size().max(1)).map(|row| row.iter().collect()).collect()
    }

    fn status_line(&self, players: &[String]) -> String {
        let mut line = format!("tick {}", self.tick());
        match self.phase() {
            Phase::Countdown { left } => write!(line, " | countdown {left}"),
            Phase::Running { tick } => write!(line, " | round {} tick {tick}", self.round()),
        }
        .expect("writing to a String cannot fail");
        for (seat, snake) in self.snakes().iter().enumerate() {
            let name = players.get(seat).map_or("?", String::as_str);
            // A snake waiting for the next round is alive but cannot move.
            let state = match (snake.alive, snake.active) {
                (false, _) => "dead",
                (true, false) => "asleep",
                (true, true) => "alive",
            };
            let len = if snake.alive { snake.len() } else { 0 };
            write!(line, " | #{seat} {name} len {len} score {} {state}", snake.score)
                .expect("writing to a String cannot fail");
        }
        line
    }

    fn event_line(event: &snakepit_engine::snakebattle::Event) -> String {
        snakebattle_event_line(event)
    }
}

/// SnakeBattle's events as sentences; seats as `#0`, as its status line.
fn snakebattle_event_line(event: &snakepit_engine::snakebattle::Event) -> String {
    use snakepit_engine::snakebattle::{Death, Event, Item, RoundEnd, ScoreReason};
    let item = |i: &Item| match i {
        Item::Apple => "an apple",
        Item::Stone => "a stone",
        Item::Gold => "gold",
        Item::FuryPill => "a fury pill",
        Item::FlyingPill => "a flying pill",
    };
    match event {
        Event::Spawned { snake, at } => format!("#{snake} appears at {at}"),
        Event::Countdown { left } => format!("the round starts in {left}"),
        Event::RoundStarted { round } => format!("round {round} starts"),
        Event::RoundEnded { round, reason, winners } => {
            let why = match reason {
                RoundEnd::MaxLength => "a snake reached the winning length",
                RoundEnd::Timeout => "time is up",
                RoundEnd::LastAlive => "at most one snake is left",
            };
            let who: Vec<String> = winners.iter().map(|w| format!("#{w}")).collect();
            let won = if who.is_empty() { "nobody wins".to_string() } else { format!("{} won", who.join(", ")) };
            format!("round {round} is over ({why}): {won}")
        }
        Event::StoneDropped { snake, at } => format!("#{snake} drops a stone at {at}"),
        Event::SelfBite { snake, cut } => format!("#{snake} bites itself and loses {cut} cells"),
        Event::Bite { attacker, victim, cut } => format!("#{attacker} bites {cut} cells off #{victim}"),
        Event::HeadOn { attacker, target } => format!("#{attacker} runs head-on into #{target}"),
        Event::Ate { snake, item: it, at } => format!("#{snake} eats {} at {at}", item(it)),
        Event::Died { snake, cause } => {
            let why = match cause {
                Death::Wall => "hit a wall".to_string(),
                Death::StartFloor => "entered a start floor".to_string(),
                Death::OffBoard => "left the board".to_string(),
                Death::Stone => "a stone made it too short".to_string(),
                Death::HeadOn(by) => format!("lost a head-on with #{by}"),
                Death::Crash(into) => format!("ran into #{into}"),
                Death::Shrink => "shrank below 2".to_string(),
                Death::Suicide => "ACT(0)".to_string(),
            };
            format!("#{snake} dies: {why}")
        }
        Event::ItemSpawned { item: it, at } => format!("{} appears at {at}", item(it)),
        Event::Scored { snake, reason, points } => {
            let why = match reason {
                ScoreReason::Apple => "apple".to_string(),
                ScoreReason::Gold => "gold".to_string(),
                ScoreReason::Stone => "stone".to_string(),
                ScoreReason::Kill(of) => format!("killed #{of}"),
                ScoreReason::Bite(of) => format!("bit #{of}"),
                ScoreReason::Win => "won the round".to_string(),
                ScoreReason::Death => "died".to_string(),
            };
            format!("#{snake} {points:+} points ({why})")
        }
    }
}

/// Battlesnake in the engine's orientation (the API's top row first): `.`
/// empty, `*` food, `~` hazard, `+` food in a hazard, each snake still in
/// the game as a letter, `A` the head of seat 0 and `a` its body.
impl TerminalView for Battlesnake {
    fn board_rows(&self) -> Vec<String> {
        let (w, h) = (self.width() as usize, self.height() as usize);
        let mut grid = vec![vec!['.'; w]; h];
        for p in self.hazards() {
            grid[p.y as usize][p.x as usize] = '~';
        }
        for p in self.food() {
            let c = &mut grid[p.y as usize][p.x as usize];
            *c = if *c == '~' { '+' } else { '*' };
        }
        for (seat, s) in self.snakes().iter().enumerate() {
            if !s.is_alive() {
                continue;
            }
            let letter = seat_letter(seat);
            let body: Vec<_> = self.body(seat).collect();
            // Tail first, so that the head is drawn last, on top.
            for (k, p) in body.iter().enumerate().rev() {
                grid[p.y as usize][p.x as usize] = if k == 0 { letter } else { letter.to_ascii_lowercase() };
            }
        }
        grid.into_iter().map(|row| row.into_iter().collect()).collect()
    }

    fn status_line(&self, players: &[String]) -> String {
        let mut line = format!("turn {} | {}", self.turn(), self.settings().ruleset());
        for (seat, s) in self.snakes().iter().enumerate() {
            let name = players.get(seat).map_or("?", String::as_str);
            let state = match s.eliminated {
                None => "alive".to_string(),
                Some(e) => format!("out ({})", e.cause.official_name()),
            };
            write!(line, " | {} {name} len {} hp {} {state}", seat_letter(seat), s.len, s.health)
                .expect("writing to a String cannot fail");
        }
        line
    }

    fn event_line(event: &battlesnake::Event) -> String {
        use battlesnake::Event;
        match event {
            Event::DefaultMove { snake, dir } => format!("{} gave no move and repeats {dir:?}", seat_letter(*snake)),
            Event::Ate { snake, at } => format!("{} ate at {at}", seat_letter(*snake)),
            Event::Eliminated { snake, cause } => match cause.by() {
                Some(by) => format!("{} is out: {} with {}", seat_letter(*snake), cause.official_name(), seat_letter(by)),
                None => format!("{} is out: {}", seat_letter(*snake), cause.official_name()),
            },
            Event::FoodSpawned { at } => format!("food at {at}"),
            Event::ZoneShrank { side } => format!("hazards move in from the {side:?} edge"),
            Event::GameOver { winner: Some(w) } => format!("game over: {} wins", seat_letter(*w)),
            Event::GameOver { winner: None } => "game over".to_string(),
        }
    }
}

/// CodeCarrots: `.` empty, `o` apple, each snake as its seat letter (`A`
/// the head of seat 0, `a` its body), dead bodies `x` until they leave.
impl TerminalView for Carrots {
    fn board_rows(&self) -> Vec<String> {
        let mut grid: Vec<Vec<char>> =
            stdio::carrots::base_board(self).lines().map(|l| l.chars().map(|c| if c == '#' { 'x' } else { c }).collect()).collect();
        for (seat, s) in self.snakes().iter().enumerate() {
            if !s.is_alive() {
                continue;
            }
            let letter = seat_letter(seat);
            for (k, p) in s.body.iter().enumerate().rev() {
                grid[p.y as usize][p.x as usize] = if k == 0 { letter } else { letter.to_ascii_lowercase() };
            }
        }
        grid.into_iter().map(|row| row.into_iter().collect()).collect()
    }

    fn status_line(&self, players: &[String]) -> String {
        let mut line = format!("tick {}", self.tick());
        for (seat, s) in self.snakes().iter().enumerate() {
            let name = players.get(seat).map_or("?", String::as_str);
            // A seat without a snake is not dead: it waits for a free cell
            // or for a player.
            let state = match s.life {
                carrots::Life::Alive => "alive",
                carrots::Life::Dead { .. } => "dead",
                carrots::Life::Waiting => "waiting",
                carrots::Life::Absent => "absent",
            };
            write!(line, " | {} {name} len {} best {} {state}", seat_letter(seat), s.len(), s.best)
                .expect("writing to a String cannot fail");
        }
        line
    }

    fn event_line(event: &carrots::Event) -> String {
        use carrots::{Death, Event};
        let s = |seat: &usize| seat_letter(*seat);
        match event {
            // The same event starts a seat's first snake and every later
            // one, so the sentence does not say which.
            Event::Spawned { snake, at } => format!("{} appears at {at}", s(snake)),
            Event::Grew { snake, len } => format!("{} grows to {len}", s(snake)),
            Event::Ate { snake, at } => format!("{} eats an apple at {at}", s(snake)),
            Event::Died { snake, cause } => {
                let why = match cause {
                    Death::OffBoard => "left the board".to_string(),
                    Death::HeadOn(with) => format!("head-on with {}", seat_list(with)),
                    Death::Crash(into) if into == snake => "ran into itself".to_string(),
                    Death::Crash(into) => format!("ran into {}", s(into)),
                    // Saving new code kills the snake too, which is no
                    // failure of the bot.
                    Death::Forfeit => "its bot failed or was replaced".to_string(),
                };
                format!("{} dies: {why}", s(snake))
            }
            Event::Removed { snake } => format!("{}'s body leaves the board", s(snake)),
            Event::AppleSpawned { at } => format!("an apple appears at {at}"),
            Event::Scored { snake, best } => format!("{}'s best length is now {best}", s(snake)),
        }
    }
}

/// KingOfBots: `#` wall, `.` grass, `A`/`B` the heads, `a`/`b` the bodies.
impl TerminalView for Duel {
    fn board_rows(&self) -> Vec<String> {
        let map = self.map();
        let mut grid: Vec<Vec<char>> = map.walls().chunks(map.cols()).map(|r| r.iter().map(|&w| if w { '#' } else { '.' }).collect()).collect();
        for (seat, s) in self.snakes().iter().enumerate() {
            let letter = seat_letter(seat);
            for (k, p) in s.body.iter().enumerate().rev() {
                if map.contains(*p) {
                    grid[p.y as usize][p.x as usize] = if k == 0 { letter } else { letter.to_ascii_lowercase() };
                }
            }
        }
        grid.into_iter().map(|row| row.into_iter().collect()).collect()
    }

    fn status_line(&self, players: &[String]) -> String {
        let mut line = format!("round {}", self.round());
        for (seat, s) in self.snakes().iter().enumerate() {
            let name = players.get(seat).map_or("?", String::as_str);
            let state = if s.alive { "alive" } else { "dead" };
            write!(line, " | {} {name} len {} {state}", seat_letter(seat), s.len()).expect("writing to a String cannot fail");
        }
        if let Some((outcome, why)) = self.outcome() {
            write!(line, " | {}", duel_result(outcome, why, self.round())).expect("writing to a String cannot fail");
        }
        line
    }

    fn event_line(event: &duel::Event) -> String {
        use duel::{Death, EndReason, Event, Outcome};
        // `^ 1` rather than `1 -`: the other side of a duel, and no
        // underflow on a seat the engine never gives.
        let other = |seat: &usize| seat_letter(*seat ^ 1);
        let s = |seat: &usize| seat_letter(*seat);
        match event {
            Event::Grew { snake, len } => format!("{} grows to {len}", s(snake)),
            Event::Died { snake, cause } => {
                let why = match cause {
                    Death::Outside => "left the map".to_string(),
                    Death::Wall => "hit a wall".to_string(),
                    Death::OwnBody => "ran into itself".to_string(),
                    Death::Opponent => format!("ran into {}'s body", other(snake)),
                    Death::HeadOn => format!("head-on with {}", other(snake)),
                    Death::Forfeit => "its bot failed".to_string(),
                };
                format!("{} dies: {why}", s(snake))
            }
            Event::Ended { outcome, reason } => {
                let why = match (outcome, reason) {
                    (Outcome::Won(w), EndReason::Death) => format!("{} died", other(w)),
                    (Outcome::Draw, EndReason::Death) => "both snakes died".to_string(),
                    (Outcome::Won(w), EndReason::Forfeit) => format!("{}'s bot failed", other(w)),
                    (Outcome::Draw, EndReason::Forfeit) => "both bots failed".to_string(),
                    (_, EndReason::RoundLimit) => "the round limit".to_string(),
                };
                match outcome {
                    Outcome::Won(w) => format!("game over ({why}): {} wins", s(w)),
                    Outcome::Draw => format!("game over ({why}): a draw"),
                }
            }
        }
    }
}

/// A finished duel's result for the status line, which unlike the events
/// knows how many rounds were played.
fn duel_result(outcome: duel::Outcome, reason: duel::EndReason, round: u64) -> String {
    use duel::{EndReason, Outcome};
    match (outcome, reason) {
        (Outcome::Won(w), EndReason::Death | EndReason::RoundLimit) => {
            format!("{} wins after {}", seat_letter(w), rounds_text(round))
        }
        (Outcome::Draw, EndReason::Death) => format!("both snakes died in round {round}: a draw"),
        (Outcome::Won(w), EndReason::Forfeit) => {
            format!("{}'s bot failed in round {round}: {} wins", seat_letter(w ^ 1), seat_letter(w))
        }
        (Outcome::Draw, EndReason::Forfeit) => format!("both bots failed in round {round}: a draw"),
        (Outcome::Draw, EndReason::RoundLimit) => format!("both snakes lasted {}: a draw", rounds_text(round)),
    }
}

/// "1 round", "2 rounds".
fn rounds_text(n: u64) -> String {
    if n == 1 { "1 round".to_string() } else { format!("{n} rounds") }
}

/// Seats as letters: "B", "B, C".
fn seat_list(seats: &[usize]) -> String {
    seats.iter().map(|&seat| seat_letter(seat).to_string()).collect::<Vec<_>>().join(", ")
}

/// Multisnake: exactly the map the bots read (the SOI Multisnake statement's glyphs).
impl TerminalView for Multisnake {
    fn board_rows(&self) -> Vec<String> {
        self.rows()
    }

    fn status_line(&self, players: &[String]) -> String {
        let mut line = format!("turn {}", self.turn());
        for (seat, s) in self.snakes().iter().enumerate() {
            let name = players.get(seat).map_or("?", String::as_str);
            let state = if s.alive { "alive" } else { "dead" };
            write!(line, " | {} {name} len {} {state}", seat_letter(seat), s.len()).expect("writing to a String cannot fail");
        }
        if let Some(end) = self.outcome() {
            let winners: Vec<String> = end.winners.iter().map(|&w| seat_letter(w).to_string()).collect();
            let result = match winners.as_slice() {
                [] => "nobody wins".to_string(),
                [one] => format!("{one} wins"),
                many => format!("{} share the win", many.join(", ")),
            };
            write!(line, " | {result}").expect("writing to a String cannot fail");
        }
        line
    }

    fn event_line(event: &snakepit_engine::multisnake::Event) -> String {
        use snakepit_engine::multisnake::{Blocker, Death, EndReason, Event, Growth, Tile};
        let s = |seat: &usize| seat_letter(*seat);
        let seats = |all: &[usize]| all.iter().map(|w| s(w).to_string()).collect::<Vec<_>>().join(", ");
        match event {
            Event::Ate { snake, sign, at } => {
                let sign = if *sign == Tile::Plus { "+" } else { "-" };
                format!("{} takes the {sign} at {at}", s(snake))
            }
            Event::Grew { snake, by, len } => {
                let why = match by {
                    Growth::Turn => "the turn's growth",
                    Growth::Plus => "a +",
                };
                format!("{} grows to {len} ({why})", s(snake))
            }
            Event::Shrank { snake, len } => format!("{} shrinks to {len}", s(snake)),
            Event::Died { snake, cause } => {
                let why = match cause {
                    Death::Blocked(Blocker::Wall) => "blocked by a wall".to_string(),
                    Death::Blocked(Blocker::Snake(by)) => format!("blocked by {}", s(by)),
                    Death::Blocked(Blocker::Reverse) => "turned back into its neck".to_string(),
                    Death::HeadOn(with) => format!("head-on with {}", seats(with)),
                    Death::Starved => "a - left it no length".to_string(),
                    Death::Forfeit => "its bot failed".to_string(),
                };
                format!("{} dies: {why}", s(snake))
            }
            Event::Ended { winners, reason } => {
                let why = match reason {
                    EndReason::LastAlive => "one snake is left",
                    EndReason::AllDied => "every snake died",
                    EndReason::TurnLimit => "the turn limit",
                };
                if winners.is_empty() {
                    format!("game over ({why}): nobody wins")
                } else {
                    format!("game over ({why}): {} won", seats(winners))
                }
            }
        }
    }
}

/// Hex: the spectator's board the bots' protocol draws (`☼` wall, each
/// seat's pieces in its glyph: `☻` seat 0, `♥` seat 1...).
impl TerminalView for Hex {
    fn board_rows(&self) -> Vec<String> {
        let board: Vec<char> = hex::render_board(self, None).chars().collect();
        board.chunks(self.size().max(1)).map(|row| row.iter().collect()).collect()
    }

    fn status_line(&self, players: &[String]) -> String {
        let mut line = format!("tick {}", self.tick());
        for (seat, p) in self.players().iter().enumerate() {
            let name = players.get(seat).map_or("?", String::as_str);
            let glyph = hex::Element::of_seat(seat).glyph();
            let state = if p.present { "" } else { " left" };
            write!(line, " | {} {glyph} {name} pieces {} score {}{state}", seat_letter(seat), p.pieces, p.score)
                .expect("writing to a String cannot fail");
        }
        line
    }

    fn event_line(event: &hex_engine::Event) -> String {
        use hex_engine::{Event, Restart, ScoreReason};
        let s = |seat: &usize| seat_letter(*seat);
        match event {
            Event::Left { seat, pieces } => format!("{} left, taking {}", s(seat), pieces_text(*pieces)),
            Event::Restarted { reason: Restart::NoPieces(seats) } => {
                let who: Vec<String> = seats.iter().map(|seat| s(seat).to_string()).collect();
                let verb = if seats.len() == 1 { "has" } else { "have" };
                format!("{} {verb} no pieces left: everyone starts again", who.join(", "))
            }
            Event::Restarted { reason: Restart::BoardFull } => "the board is full: everyone starts again".to_string(),
            Event::Restarted { reason: Restart::Still } => "nothing moved for a while: everyone starts again".to_string(),
            Event::Ignored { seat, action, why } => {
                format!("{} {}: {}", s(seat), hex::command_text(action), hex::ignored_text(*why))
            }
            Event::Cloned { seat, from, to } => format!("{} clones {from} to {to}", s(seat)),
            Event::Jumped { seat, from, to } => format!("{} jumps from {from} to {to}", s(seat)),
            Event::WallFormed { at, seats } => {
                let who: Vec<String> = seats.iter().map(|seat| s(seat).to_string()).collect();
                format!("{} meet at {at}: a wall", who.join(", "))
            }
            Event::JumpLost { seat, from, at } => format!("{} jumped from {from} into the wall at {at}", s(seat)),
            Event::Neutralised { seat, at } => format!("{} at {at} is next to another new piece: no capture", s(seat)),
            Event::Captured { seat, victim, at } => format!("{} takes {}'s piece at {at}", s(seat), s(victim)),
            Event::Scored { seat, reason, pieces, points } => {
                let what = match reason {
                    ScoreReason::Gained => "gained",
                    ScoreReason::Lost => "lost",
                };
                format!("{} {what} {}: {points:+} points", s(seat), pieces_text(*pieces))
            }
            Event::Placed { seat, at } => format!("{} gets a piece at {at}", s(seat)),
            Event::NoRoom { seat } => format!("{} finds no free cell: waiting for the restart", s(seat)),
        }
    }
}

/// "1 piece", "2 pieces".
fn pieces_text(n: u32) -> String {
    if n == 1 { "1 piece".to_string() } else { format!("{n} pieces") }
}

/// `A` for seat 0, `B` for seat 1...
fn seat_letter(seat: usize) -> char {
    char::from(b'A' + (seat % 26) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use snakepit_engine::battlesnake::Settings as BsSettings;
    use snakepit_engine::snakebattle::{Map, Settings};

    #[test]
    fn rows_are_square_and_status_names_every_seat() {
        let game = SnakeBattle::new(Settings::default(), Map::default_map(), 2, 1).unwrap();
        let rows = game.board_rows();
        assert_eq!(rows.len(), game.size());
        assert!(rows.iter().all(|r| r.chars().count() == game.size()));
        let status = game.status_line(&["a".into(), "b".into()]);
        assert!(status.starts_with("tick 0 | countdown 5 | #0 a len 2 score 0 asleep | #1 b "), "{status}");
    }

    #[test]
    fn snakebattle_and_multisnake_events_read_as_sentences() {
        use snakepit_engine::Pos;
        use snakepit_engine::snakebattle::{Action, Event, Item, ScoreReason};
        let ate = Event::Ate { snake: 0, item: Item::Apple, at: Pos::new(3, 4) };
        assert_eq!(SnakeBattle::event_line(&ate), "#0 eats an apple at [3,4]");
        let scored = Event::Scored { snake: 1, reason: ScoreReason::Kill(0), points: 10 };
        assert_eq!(SnakeBattle::event_line(&scored), "#1 +10 points (killed #0)");
        // No event of a played game reads as Rust's debug text.
        let mut game = SnakeBattle::new(Settings::default(), Map::default_map(), 5, 3).unwrap();
        let mut seen = 0;
        for _ in 0..400 {
            for e in game.step(&[Action::default(); 5]) {
                let line = SnakeBattle::event_line(&e);
                let debug_like = line.contains('{') || line.starts_with(|c: char| c.is_ascii_uppercase());
                assert!(!debug_like, "{line}");
                seen += 1;
            }
        }
        assert!(seen > 50, "{seen} events");
        use snakepit_engine::multisnake as ms;
        let mut game = ms::Multisnake::new(ms::Settings::default(), ms::builtin_map("quad-32x32").unwrap(), 2);
        while !game.is_over() && game.turn() < 300 {
            for e in game.step(&[ms::Action::default(); 4]) {
                let line = ms::Multisnake::event_line(&e);
                let debug_like = line.contains('{') || line.starts_with(|c: char| c.is_ascii_lowercase() && c != 'g');
                assert!(!debug_like, "{line}");
            }
        }
    }

    #[test]
    fn a_duel_won_at_the_round_limit_still_reads() {
        // The engine calls every game at the limit a draw; the sentence is
        // there in case a setting ever lets the longer snake win.
        use snakepit_engine::duel::{EndReason, Outcome};
        assert_eq!(duel_result(Outcome::Won(1), EndReason::RoundLimit, 500), "B wins after 500 rounds");
    }

    #[test]
    fn battlesnake_rows_and_status() {
        let game = Battlesnake::new(BsSettings::default(), 2, 1).unwrap();
        let rows = game.board_rows();
        assert_eq!(rows.len(), 11);
        assert!(rows.iter().all(|r| r.chars().count() == 11));
        let drawn: String = rows.concat();
        assert_eq!(drawn.matches('A').count() + drawn.matches('B').count(), 2, "{drawn}");
        assert_eq!(drawn.matches('*').count(), game.food_count());
        let status = game.status_line(&["x".into(), "y".into()]);
        assert_eq!(status, "turn 0 | standard | A x len 3 hp 100 alive | B y len 3 hp 100 alive");
    }

    #[test]
    fn hex_rows_show_each_seat_in_its_glyph() {
        use snakepit_engine::hex::{Map, Settings};
        let mut game = Hex::new(Settings::default(), Map::default_map(), 2, 5).unwrap();
        let rows = game.board_rows();
        assert_eq!(rows.len(), 15);
        assert!(rows.iter().all(|r| r.chars().count() == 15));
        for seat in 0..2 {
            let [p] = game.pieces_of(seat)[..] else { panic!("one piece each at the start") };
            let glyph = hex::Element::of_seat(seat).glyph();
            assert_eq!(rows[p.y as usize].chars().nth(p.x as usize), Some(glyph));
            assert_eq!(rows.concat().matches(glyph).count(), 1);
        }
        assert_eq!(game.status_line(&["x".into(), "y".into()]), "tick 0 | A ☻ x pieces 1 score 0 | B ♥ y pieces 1 score 0");
        game.leave(1);
        let events = game.step(&[]);
        assert_eq!(game.status_line(&["x".into(), "y".into()]), "tick 1 | A ☻ x pieces 1 score 0 | B ♥ y pieces 0 score 0 left");
        assert_eq!(Hex::event_line(&events[0]), "B left, taking 1 piece");
    }
}
