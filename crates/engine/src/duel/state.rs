//! The KingOfBots state and the stages of its round.

use super::Action;
use super::map::DuelMap;
use super::settings::Settings;
use crate::checksum::Checksum;
use crate::game::{Game, ParseActionError};
use crate::geom::{Dir, Pos};
use crate::rng::Rng;
use std::collections::VecDeque;

/// Index of a side: 0 is A (starting bottom left), 1 is B (top right).
pub type SnakeIdx = usize;

/// One side's snake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snake {
    /// Cells, head first. After a death the head may lie on a wall, on the
    /// other snake or outside the map.
    pub body: VecDeque<Pos>,
    /// The start cell, where the steps are replayed from.
    pub start: Pos,
    /// The direction of the last move; [`Action::Keep`] goes on this way.
    /// A starts facing up and B facing down.
    pub dir: Dir,
    /// Every move so far, in order: the bot input spells the body out as
    /// the start and these steps.
    pub steps: Vec<Dir>,
    /// Still in the game.
    pub alive: bool,
}

impl Snake {
    /// Length in cells.
    pub fn len(&self) -> usize {
        self.body.len()
    }

    /// Never true: a snake has at least its head.
    pub fn is_empty(&self) -> bool {
        self.body.is_empty()
    }

    /// The head cell.
    pub fn head(&self) -> Pos {
        self.body[0]
    }
}

/// Why a snake died.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Death {
    /// Its head left the map.
    Outside,
    /// Its head entered a wall.
    Wall,
    /// Its head entered its own body.
    OwnBody,
    /// Its head entered the other snake's body.
    Opponent,
    /// Both heads entered the same cell.
    HeadOn,
    /// The bot failed (invalid answer, timeout, crash).
    Forfeit,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This side won.
    Won(SnakeIdx),
    /// Nobody won.
    Draw,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// A snake died (both, for a draw).
    Death,
    /// A bot failed (both, for a draw).
    Forfeit,
    /// The last round was played with both snakes alive.
    RoundLimit,
}

/// Everything a round can report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A snake grew on this step (its tail stayed).
    Grew {
        /// Side.
        snake: SnakeIdx,
        /// Length after the step.
        len: usize,
    },
    /// A snake died.
    Died {
        /// Side.
        snake: SnakeIdx,
        /// Why.
        cause: Death,
    },
    /// The game is over.
    Ended {
        /// Who won.
        outcome: Outcome,
        /// Why it ended.
        reason: EndReason,
    },
}

/// A stage of the round: one named step of the rules, run in order.
pub type Stage = crate::game::Stage<Duel, Action, Event>;

/// The stages of a round, in upstream's order (`nextStep`, then `judge`).
pub const STAGES: &[Stage] = &[
    Stage { name: "forfeit", run: Duel::stage_forfeit },
    Stage { name: "move", run: Duel::stage_move },
    Stage { name: "judge", run: Duel::stage_judge },
    Stage { name: "round_limit", run: Duel::stage_round_limit },
];

/// A game of KingOfBots Snake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duel {
    settings: Settings,
    map: DuelMap,
    snakes: Vec<Snake>,
    round: u64,
    end: Option<(Outcome, EndReason)>,
    rng: Rng,
}

/// The body that a start and a list of steps give under a growth rule:
/// upstream's `Player.getCells`, head first. The protocol crate rebuilds
/// bodies from the bot input with it, as KingOfBots' sample bot does.
pub fn body_from_steps(settings: &Settings, start: Pos, steps: &[Dir]) -> VecDeque<Pos> {
    let mut body = VecDeque::from([start]);
    for (k, &d) in steps.iter().enumerate() {
        body.push_front(body[0].step(d));
        if !settings.grows(k as u32 + 1) {
            body.pop_back();
        }
    }
    body
}

impl Duel {
    /// A new game on a map generated from `seed` with the settings' size
    /// and number of walls.
    ///
    /// The map has its own generator, seeded with the same seed, so that
    /// the game's own stream is where [`Duel::with_map`] starts it: a replay
    /// that stores the map rebuilds a game with the same checksums.
    pub fn new(settings: Settings, seed: u64) -> Duel {
        let map = DuelMap::generate(
            settings.rows as usize,
            settings.cols as usize,
            settings.inner_walls as usize,
            &mut Rng::new(seed),
        );
        Duel::start(settings, map, Rng::new(seed))
    }

    /// A new game on a given map (a drawn one, or the one a replay stored).
    /// The settings' map size and wall count are not used.
    pub fn with_map(settings: Settings, map: DuelMap, seed: u64) -> Duel {
        Duel::start(settings, map, Rng::new(seed))
    }

    fn start(settings: Settings, map: DuelMap, rng: Rng) -> Duel {
        let snakes = map
            .starts()
            .into_iter()
            .zip([Dir::Up, Dir::Down])
            .map(|(start, dir)| Snake { body: VecDeque::from([start]), start, dir, steps: Vec::new(), alive: true })
            .collect();
        Duel { settings, map, snakes, round: 0, end: None, rng }
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The map.
    pub fn map(&self) -> &DuelMap {
        &self.map
    }

    /// The two snakes, A then B.
    pub fn snakes(&self) -> &[Snake] {
        &self.snakes
    }

    /// Rounds played.
    pub fn round(&self) -> u64 {
        self.round
    }

    /// How the game ended, once it has.
    pub fn outcome(&self) -> Option<(Outcome, EndReason)> {
        self.end
    }

    /// Whether the game is over; later steps change nothing.
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    fn finish(&mut self, outcome: Outcome, reason: EndReason, ev: &mut Vec<Event>) {
        self.end = Some((outcome, reason));
        ev.push(Event::Ended { outcome, reason });
    }

    /// Upstream ends the game as soon as a move is missing, before anybody
    /// moves: the failing side loses, or it is a draw if both failed.
    fn stage_forfeit(&mut self, actions: &[Action], ev: &mut Vec<Event>) {
        let failed: Vec<SnakeIdx> = (0..2).filter(|&s| actions.get(s) == Some(&Action::Forfeit)).collect();
        for &s in &failed {
            self.snakes[s].alive = false;
            ev.push(Event::Died { snake: s, cause: Death::Forfeit });
        }
        match failed.as_slice() {
            [] => {}
            [s] => self.finish(Outcome::Won(1 - s), EndReason::Forfeit, ev),
            _ => self.finish(Outcome::Draw, EndReason::Forfeit, ev),
        }
    }

    /// Both snakes step at once: a new head in their direction, and the tail
    /// drops unless this step is a growth step.
    fn stage_move(&mut self, actions: &[Action], ev: &mut Vec<Event>) {
        if self.end.is_some() {
            return;
        }
        let grows = self.settings.grows(self.round as u32);
        for seat in 0..2 {
            let s = &mut self.snakes[seat];
            if let Some(Action::Move(d)) = actions.get(seat) {
                s.dir = *d;
            }
            s.steps.push(s.dir);
            s.body.push_front(s.body[0].step(s.dir));
            if grows {
                ev.push(Event::Grew { snake: seat, len: s.len() });
            } else {
                s.body.pop_back();
            }
        }
    }

    /// Upstream's `judge`, on the bodies after the step, except that heads
    /// meeting in one cell both die (the rule of KingOfBots' description;
    /// upstream lets them pass).
    fn stage_judge(&mut self, _: &[Action], ev: &mut Vec<Event>) {
        if self.end.is_some() {
            return;
        }
        let causes: Vec<Option<Death>> = (0..2)
            .map(|seat| {
                let (me, other) = (&self.snakes[seat], &self.snakes[1 - seat]);
                let head = me.head();
                if !self.map.contains(head) {
                    Some(Death::Outside)
                } else if self.map.is_wall(head) {
                    Some(Death::Wall)
                } else if me.body.iter().skip(1).any(|&c| c == head) {
                    Some(Death::OwnBody)
                } else if other.head() == head {
                    Some(Death::HeadOn)
                } else if other.body.iter().skip(1).any(|&c| c == head) {
                    Some(Death::Opponent)
                } else {
                    None
                }
            })
            .collect();
        for (seat, cause) in causes.iter().enumerate() {
            if let Some(cause) = *cause {
                self.snakes[seat].alive = false;
                ev.push(Event::Died { snake: seat, cause });
            }
        }
        match (causes[0].is_some(), causes[1].is_some()) {
            (false, false) => {}
            (true, true) => self.finish(Outcome::Draw, EndReason::Death, ev),
            (true, false) => self.finish(Outcome::Won(1), EndReason::Death, ev),
            (false, true) => self.finish(Outcome::Won(0), EndReason::Death, ev),
        }
    }

    fn stage_round_limit(&mut self, _: &[Action], ev: &mut Vec<Event>) {
        if self.end.is_none() && self.round >= u64::from(self.settings.rounds_max) {
            self.finish(Outcome::Draw, EndReason::RoundLimit, ev);
        }
    }

    /// Checks the invariants every state must satisfy; the property tests
    /// call this after every round.
    pub fn check_invariants(&self) -> Result<(), String> {
        let moves = self.snakes[0].steps.len();
        for (seat, s) in self.snakes.iter().enumerate() {
            if s.steps.len() != moves {
                return Err(format!("the snakes have made {moves} and {} moves", s.steps.len()));
            }
            // A forfeit ends a round before the move.
            let forfeited = matches!(self.end, Some((_, EndReason::Forfeit)));
            if moves as u64 != self.round && !(forfeited && moves as u64 + 1 == self.round) {
                return Err(format!("{moves} moves in {} rounds", self.round));
            }
            if body_from_steps(&self.settings, s.start, &s.steps) != s.body {
                return Err(format!("snake {seat}'s body is not what its steps give"));
            }
            if s.alive {
                for &c in &s.body {
                    if !self.map.contains(c) || self.map.is_wall(c) {
                        return Err(format!("live snake {seat} lies outside or on a wall at {c}"));
                    }
                    if self.snakes[1 - seat].alive && self.snakes[1 - seat].body.contains(&c) {
                        return Err(format!("live snakes share {c}"));
                    }
                }
                let mut cells: Vec<Pos> = s.body.iter().copied().collect();
                cells.sort();
                cells.dedup();
                if cells.len() != s.len() {
                    return Err(format!("live snake {seat} covers a cell twice"));
                }
            }
        }
        let alive = [self.snakes[0].alive, self.snakes[1].alive];
        match self.end {
            None if alive != [true, true] => Err("a snake is dead but the game goes on".to_string()),
            Some((Outcome::Won(w), _)) if !alive[w] || alive[1 - w] => Err(format!("side {w} won, alive: {alive:?}")),
            Some((Outcome::Draw, EndReason::RoundLimit)) if alive != [true, true] => {
                Err("a draw on the round limit with a dead snake".to_string())
            }
            Some((Outcome::Draw, EndReason::Death | EndReason::Forfeit)) if alive != [false, false] => {
                Err("a draw by death with a live snake".to_string())
            }
            _ if self.round > u64::from(self.settings.rounds_max) => Err(format!("round {}", self.round)),
            _ => Ok(()),
        }
    }
}

impl Game for Duel {
    type Action = Action;
    type Event = Event;

    fn name(&self) -> &'static str {
        "duel"
    }

    fn seats(&self) -> usize {
        2
    }

    /// Plays one round; after the end of the game, does nothing.
    fn step(&mut self, actions: &[Action]) -> Vec<Event> {
        let mut ev = Vec::new();
        if self.end.is_some() {
            return ev;
        }
        self.round += 1;
        for stage in STAGES {
            (stage.run)(self, actions, &mut ev);
        }
        debug_assert_eq!(self.check_invariants(), Ok(()));
        ev
    }

    fn tick(&self) -> u64 {
        self.round
    }

    fn checksum(&self) -> u64 {
        let mut h = Checksum::default();
        h.u64(self.round);
        h.bytes(&self.rng.position().to_le_bytes());
        let end = match self.end {
            None => 0,
            Some((Outcome::Won(w), r)) => 1 + w as u64 + 4 * r as u64,
            Some((Outcome::Draw, r)) => 3 + 4 * r as u64,
        };
        h.u64(end);
        for w in self.map.walls() {
            h.bytes(&[u8::from(*w)]);
        }
        for s in &self.snakes {
            h.i64(i64::from(s.start.x));
            h.i64(i64::from(s.start.y));
            h.bytes(&[s.dir.index(), u8::from(s.alive)]);
            h.u64(s.steps.len() as u64);
            h.bytes(&s.steps.iter().map(|d| d.index()).collect::<Vec<u8>>());
        }
        h.finish()
    }

    fn scores(&self) -> Vec<i64> {
        let p = &self.settings;
        match self.end {
            None => vec![0, 0],
            Some((Outcome::Draw, _)) => vec![p.points_draw, p.points_draw],
            Some((Outcome::Won(0), _)) => vec![p.points_win, p.points_loss],
            Some((Outcome::Won(_), _)) => vec![p.points_loss, p.points_win],
        }
    }

    fn relabel_event(event: &Event, from: &[usize]) -> Event {
        let to = crate::game::relabel_inverse(from);
        match *event {
            Event::Grew { snake, len } => Event::Grew { snake: to[snake], len },
            Event::Died { snake, cause } => Event::Died { snake: to[snake], cause },
            Event::Ended { outcome, reason } => {
                let outcome = match outcome {
                    Outcome::Won(s) => Outcome::Won(to[s]),
                    Outcome::Draw => Outcome::Draw,
                };
                Event::Ended { outcome, reason }
            }
        }
    }

    fn relabel_seats(&self, from: &[usize]) -> Duel {
        let to = crate::game::relabel_inverse(from);
        let mut g = self.clone();
        g.snakes = from.iter().map(|&j| self.snakes[j].clone()).collect();
        if from[0] == 1 {
            g.map = self.map.with_starts_swapped();
        }
        if let Some((Outcome::Won(w), reason)) = self.end {
            g.end = Some((Outcome::Won(to[w]), reason));
        }
        g
    }

    fn action_to_text(action: &Action) -> String {
        action.to_text()
    }

    fn action_from_text(text: &str) -> Result<Action, ParseActionError> {
        Action::from_text(text)
    }
}
