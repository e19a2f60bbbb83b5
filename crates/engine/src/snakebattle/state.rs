//! The SnakeBattle state and the stages of its tick.

use super::action::{Action, StoneDrop};
use super::map::{Item, Map, Terrain};
use super::settings::Settings;
use crate::checksum::Checksum;
use crate::game::{Game, ParseActionError};
use crate::geom::{Dir, Pos};
use crate::rng::Rng;
use std::collections::VecDeque;

/// Index of a seat (player) in a game.
pub type SnakeIdx = usize;

/// One seat's snake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snake {
    /// Cells, head first. Empty while the snake is not on the field.
    pub body: VecDeque<Pos>,
    /// The direction of the last move (right after a spawn).
    pub dir: Dir,
    /// Dead snakes keep their body for exactly one board, then respawn.
    pub alive: bool,
    /// `false` while sleeping (before a round starts).
    pub active: bool,
    /// Remaining fury ticks.
    pub fury: u32,
    /// Remaining flying ticks.
    pub flying: u32,
    /// Stones eaten and not yet dropped.
    pub stones: u32,
    /// Length to lose at the start of the next move (head-on survivors).
    pub shrink: u32,
    /// Accumulated score, never below zero.
    pub score: i64,
    /// Whether a player holds this seat.
    pub present: bool,
    /// The cell the tail left this tick, where an apple regrows it.
    vacated: Option<Pos>,
    /// Whether the snake appeared in this tick's respawn stage: the answer
    /// its player sent this tick was to the board that showed it dead.
    respawned: bool,
}

impl Snake {
    fn absent() -> Snake {
        Snake {
            body: VecDeque::new(),
            dir: Dir::Right,
            alive: false,
            active: false,
            fury: 0,
            flying: 0,
            stones: 0,
            shrink: 0,
            score: 0,
            present: false,
            vacated: None,
            respawned: false,
        }
    }

    /// Length in cells.
    pub fn len(&self) -> usize {
        self.body.len()
    }

    /// Whether the snake has no cells on the field.
    pub fn is_empty(&self) -> bool {
        self.body.is_empty()
    }

    /// The head cell.
    pub fn head(&self) -> Option<Pos> {
        self.body.front().copied()
    }

    /// Alive and moving (not sleeping).
    pub fn is_playing(&self) -> bool {
        self.alive && self.active
    }

    /// Length once the length owed from a head-on ([`Snake::shrink`]) is
    /// taken. The cells stay on the field until the next move (movement step 2
    /// of the CodeBattle description), but its example 2 counts the survivor as
    /// "11-7=4" long from the fight on, so whatever judges a snake by its
    /// length later in the tick uses this: the second fight, a stone, a kill's
    /// pay, the round's end and its win.
    pub fn len_after_owed(&self) -> usize {
        self.len().saturating_sub(self.shrink as usize)
    }
}

/// The round clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Snakes sleep; the round starts when `left` reaches zero.
    Countdown {
        /// Ticks until the start.
        left: u32,
    },
    /// Snakes move; `tick` ticks of this round have been played.
    Running {
        /// Ticks since the round started.
        tick: u32,
    },
}

/// Why a snake died.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Death {
    /// Its head hit a wall.
    Wall,
    /// Its head entered a start floor.
    StartFloor,
    /// Its head left the board.
    OffBoard,
    /// A stone made it shorter than 2.
    Stone,
    /// It lost a head-on collision with this snake.
    HeadOn(SnakeIdx),
    /// It ran into this snake's body without fury.
    Crash(SnakeIdx),
    /// The length owed from a head-on collision left it shorter than 2.
    Shrink,
    /// `ACT(0)`.
    Suicide,
}

/// What a score change was for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreReason {
    /// An apple.
    Apple,
    /// A gold coin.
    Gold,
    /// A stone eaten.
    Stone,
    /// Killing this snake (10 x its length).
    Kill(SnakeIdx),
    /// Biting a piece off this snake (10 x the piece).
    Bite(SnakeIdx),
    /// Winning the round.
    Win,
    /// The death penalty.
    Death,
}

/// Why a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundEnd {
    /// A snake reached the round's maximum length.
    MaxLength,
    /// The round's ticks ran out; the longest snakes win.
    Timeout,
    /// At most one snake is left alive.
    LastAlive,
}

/// Everything a tick can report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A snake appeared on a start floor.
    Spawned {
        /// Seat.
        snake: SnakeIdx,
        /// Its head.
        at: Pos,
    },
    /// Countdown before a round: `left` ticks to go.
    Countdown {
        /// Ticks to go.
        left: u32,
    },
    /// Snakes woke up.
    RoundStarted {
        /// 1-based round number.
        round: u32,
    },
    /// The round is over.
    RoundEnded {
        /// Round number.
        round: u32,
        /// Why.
        reason: RoundEnd,
        /// Who won (may be empty).
        winners: Vec<SnakeIdx>,
    },
    /// A stone was left at a tail.
    StoneDropped {
        /// Seat.
        snake: SnakeIdx,
        /// Where.
        at: Pos,
    },
    /// A snake ran into its own body and lost the part behind the bite.
    SelfBite {
        /// Seat.
        snake: SnakeIdx,
        /// Cells lost.
        cut: usize,
    },
    /// A furious snake bit a piece off another.
    Bite {
        /// Who bit.
        attacker: SnakeIdx,
        /// Who was bitten.
        victim: SnakeIdx,
        /// Cells the victim lost, the bitten cell included.
        cut: usize,
    },
    /// Two snakes met head to head (or head to neck). When both heads
    /// entered the other's (the same cell), there is one event each way.
    HeadOn {
        /// The snake whose head moved into the other.
        attacker: SnakeIdx,
        /// The other.
        target: SnakeIdx,
    },
    /// A snake ate an item.
    Ate {
        /// Seat.
        snake: SnakeIdx,
        /// What.
        item: Item,
        /// Where.
        at: Pos,
    },
    /// A snake died.
    Died {
        /// Seat.
        snake: SnakeIdx,
        /// Why.
        cause: Death,
    },
    /// A new item appeared.
    ItemSpawned {
        /// What.
        item: Item,
        /// Where.
        at: Pos,
    },
    /// A score changed.
    Scored {
        /// Seat.
        snake: SnakeIdx,
        /// Why.
        reason: ScoreReason,
        /// Points as the rules state them (the score itself is floored at 0).
        points: i64,
    },
}

/// A stage of the tick: one named step of the rules, run in order.
pub type Stage = crate::game::Stage<SnakeBattle, Action, Event>;

/// The stages of a running tick, in the CodeBattle description's order of
/// processing.
pub const STAGES: &[Stage] = &[
    Stage { name: "commands", run: SnakeBattle::stage_commands },
    Stage { name: "move", run: SnakeBattle::stage_move },
    Stage { name: "fight", run: SnakeBattle::stage_fight },
    Stage { name: "eat", run: SnakeBattle::stage_eat },
    Stage { name: "fight_after_eating", run: SnakeBattle::stage_fight },
    Stage { name: "spawn_items", run: SnakeBattle::stage_spawn_items },
    Stage { name: "drop_after_move", run: SnakeBattle::stage_drop_after_move },
    Stage { name: "round_end", run: SnakeBattle::stage_round_end },
];

/// How a snake died in a fight, most telling first: the one named when
/// several apply.
const DEATH_SLEEPER: u8 = 0;
const DEATH_HEAD_ON: u8 = 1;
const DEATH_CRASH: u8 = 2;

/// Tries at a random cell before a spawn scans the whole board.
const SPAWN_TRIES: u32 = 64;

/// A game of SnakeBattle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnakeBattle {
    settings: Settings,
    map: Map,
    items: Vec<Option<Item>>,
    item_counts: [u32; 5],
    snakes: Vec<Snake>,
    phase: Phase,
    round: u32,
    tick: u64,
    reset_pending: bool,
    round_players: u32,
    /// Whether `spawn_items` runs; only rule tests turn it off.
    spawning: bool,
    /// What was eaten in this tick, and where; `spawn_items` replaces it.
    eaten: Vec<(Pos, Item)>,
    rng: Rng,
}

pub use crate::game::NewGameError;

impl SnakeBattle {
    /// A new game with `seats` players, all present, spawned on start floors.
    pub fn new(settings: Settings, mut map: Map, seats: usize, seed: u64) -> Result<SnakeBattle, NewGameError> {
        // The game's map holds what the game starts with: the cells drawn
        // `%` become fury pills or stay empty, once and for all.
        for p in std::mem::take(&mut map.percent_cells) {
            if settings.map_percent_is_fury
                && let Some(i) = map.index(p)
            {
                map.items[i] = Some(Item::FuryPill);
            }
        }
        let floors = map.start_floors().len();
        if seats == 0 || seats > floors {
            return Err(NewGameError(format!("{seats} players, but the map has {floors} start floors")));
        }
        let mut item_counts = [0; 5];
        for it in map.items.iter().flatten() {
            item_counts[it.index()] += 1;
        }
        let phase = if settings.rounds && settings.countdown_ticks > 0 {
            Phase::Countdown { left: settings.countdown_ticks }
        } else {
            Phase::Running { tick: 0 }
        };
        let mut game = SnakeBattle {
            items: map.items.clone(),
            item_counts,
            settings,
            map,
            snakes: (0..seats).map(|_| Snake { present: true, ..Snake::absent() }).collect(),
            phase,
            round: 0,
            tick: 0,
            reset_pending: false,
            round_players: 0,
            spawning: true,
            eaten: Vec::new(),
            rng: Rng::new(seed),
        };
        let mut events = Vec::new();
        game.stage_respawn(&mut events);
        if matches!(game.phase, Phase::Running { .. }) {
            game.start_round(&mut events);
        }
        Ok(game)
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The map (terrain; its items are the starting ones).
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// Board size.
    pub fn size(&self) -> usize {
        self.map.size
    }

    /// Current items, row by row from the top.
    pub fn items(&self) -> &[Option<Item>] {
        &self.items
    }

    /// Number of items of a kind on the board.
    pub fn item_count(&self, item: Item) -> u32 {
        self.item_counts[item.index()]
    }

    /// The snakes, by seat.
    pub fn snakes(&self) -> &[Snake] {
        &self.snakes
    }

    /// The round clock.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Rounds started so far.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Seats a player (or frees the seat). A new player's snake appears at
    /// the next tick; a leaving player's snake disappears then.
    pub fn set_present(&mut self, seat: SnakeIdx, present: bool) {
        if let Some(s) = self.snakes.get_mut(seat) {
            s.present = present;
            if !present {
                s.alive = false;
            }
        }
    }

    /// Places items and snakes by hand; for rule tests that start from a
    /// drawn position. Snakes not listed stay off the field.
    pub fn set_position(&mut self, items: Vec<Option<Item>>, snakes: Vec<Snake>) {
        assert_eq!(items.len(), self.items.len());
        self.item_counts = [0; 5];
        for it in items.iter().flatten() {
            self.item_counts[it.index()] += 1;
        }
        self.items = items;
        self.snakes = snakes;
        self.reset_pending = false;
        // As in `start_round`: only snakes that play count, since a drawn
        // sleeper is one that respawned after the round began.
        self.round_players = self.snakes.iter().filter(|s| s.present && s.is_playing()).count() as u32;
    }

    /// A snake for [`SnakeBattle::set_position`]: alive, active, present.
    pub fn make_snake(body: Vec<Pos>, dir: Dir) -> Snake {
        Snake { body: body.into(), dir, alive: true, active: true, present: true, ..Snake::absent() }
    }

    /// Sets the round clock; for tests.
    pub fn set_phase(&mut self, phase: Phase) {
        self.phase = phase;
    }

    /// Mutable access to a snake; for tests that set fury, stones or scores.
    pub fn snake_mut(&mut self, seat: SnakeIdx) -> &mut Snake {
        &mut self.snakes[seat]
    }

    /// Turns the random item spawner off or on (it is on in every real
    /// game). Rule tests turn it off so that a drawn position changes only by
    /// the rule under test, which is what upstream's own tests get from a
    /// mocked dice.
    pub fn set_item_spawning(&mut self, on: bool) {
        self.spawning = on;
    }

    fn item_at(&self, p: Pos) -> Option<Item> {
        self.map.index(p).and_then(|i| self.items[i])
    }

    fn put_item(&mut self, p: Pos, item: Item) {
        let i = self.map.index(p).expect("items go on the board");
        debug_assert!(self.items[i].is_none());
        self.items[i] = Some(item);
        self.item_counts[item.index()] += 1;
    }

    fn take_item(&mut self, p: Pos) -> Option<Item> {
        let i = self.map.index(p)?;
        let item = self.items[i].take()?;
        self.item_counts[item.index()] -= 1;
        Some(item)
    }

    fn occupied(&self, p: Pos) -> bool {
        self.snakes.iter().any(|s| s.body.contains(&p))
    }

    fn score(&mut self, seat: SnakeIdx, reason: ScoreReason, points: i64, ev: &mut Vec<Event>) {
        if points == 0 {
            return;
        }
        let s = &mut self.snakes[seat];
        s.score = (s.score + points).max(0);
        ev.push(Event::Scored { snake: seat, reason, points });
    }

    fn kill(&mut self, seat: SnakeIdx, cause: Death, ev: &mut Vec<Event>) {
        self.snakes[seat].alive = false;
        ev.push(Event::Died { snake: seat, cause });
        let penalty = self.settings.points.die_penalty;
        self.score(seat, ScoreReason::Death, -penalty, ev);
    }

    /// Whether a stone may be left at `p` by `seat`: plain floor, no item,
    /// no other snake on it, and not in front of a start floor.
    fn free_for_stone(&self, p: Pos, seat: SnakeIdx) -> bool {
        self.map.terrain_at(p) == Terrain::Empty
            && self.item_at(p).is_none()
            && !self.snakes.iter().enumerate().any(|(j, s)| j != seat && s.alive && s.body.contains(&p))
            && self.stone_may_lie_at(p)
    }

    /// Upstream's `isFreeForStone` (codenjoy.md §1.5, step 1): no stone on
    /// the cell right of a start floor. A snake appears there facing right,
    /// so such a stone would kill (or shorten) it on its first move, which
    /// it could not avoid. Upstream checks this for a dropped stone and for
    /// a spawned one alike.
    fn stone_may_lie_at(&self, p: Pos) -> bool {
        self.map.terrain_at(p.step(Dir::Left)) != Terrain::StartFloor
    }

    fn drop_stone(&mut self, seat: SnakeIdx, ev: &mut Vec<Event>) {
        let s = &self.snakes[seat];
        if !s.alive || s.stones == 0 {
            return;
        }
        let Some(&tail) = s.body.back() else { return };
        if self.free_for_stone(tail, seat) {
            self.snakes[seat].stones -= 1;
            self.put_item(tail, Item::Stone);
            ev.push(Event::StoneDropped { snake: seat, at: tail });
        }
    }

    /// Clears dead bodies and puts every present seat without a live snake
    /// on a random free start floor; after a round end, everyone.
    ///
    /// The seats draw in order of their scores, lowest first, never of their
    /// numbers, so that relabelling the seats relabels the outcome. A new
    /// snake keeps nothing of its seat but the score, so seats with equal
    /// scores are alike but for the floor they draw, and which of them draws
    /// first (seat order) cannot matter.
    fn stage_respawn(&mut self, ev: &mut Vec<Event>) {
        if std::mem::take(&mut self.reset_pending) {
            for s in &mut self.snakes {
                s.alive = false;
            }
        }
        for s in &mut self.snakes {
            s.respawned = false;
            if !s.alive && !s.body.is_empty() {
                s.body.clear();
            }
        }
        // Found only when someone needs them: most ticks nobody respawns,
        // and scanning the map every tick was the largest cost of a tick.
        let mut floors: Option<Vec<Pos>> = None;
        let mut waiting: Vec<SnakeIdx> = (0..self.snakes.len()).filter(|&s| self.snakes[s].present && !self.snakes[s].alive).collect();
        waiting.sort_by_key(|&s| self.snakes[s].score);
        for seat in waiting {
            let floors = floors.get_or_insert_with(|| self.map.start_floors());
            // The tail starts one cell left of the floor, usually inside the
            // wall, as upstream places it.
            let free: Vec<Pos> = floors
                .iter()
                .copied()
                .filter(|&f| !self.occupied(f) && !self.occupied(f.step(Dir::Left)))
                .collect();
            if free.is_empty() {
                continue;
            }
            let at = free[self.rng.index(free.len())];
            let score = self.snakes[seat].score;
            self.snakes[seat] = Snake {
                body: VecDeque::from([at, at.step(Dir::Left)]),
                alive: true,
                active: !self.settings.rounds,
                present: true,
                score,
                respawned: true,
                ..Snake::absent()
            };
            ev.push(Event::Spawned { snake: seat, at });
        }
    }

    fn start_round(&mut self, ev: &mut Vec<Event>) {
        self.round += 1;
        self.phase = Phase::Running { tick: 0 };
        let mut players = 0;
        for s in &mut self.snakes {
            if s.alive {
                s.active = true;
                players += 1;
            }
        }
        self.round_players = players;
        ev.push(Event::RoundStarted { round: self.round });
    }

    fn stage_commands(&mut self, actions: &[Action], ev: &mut Vec<Event>) {
        for seat in 0..self.snakes.len() {
            // A snake that appeared in this tick's respawn stage was dead on
            // the last board, so its player's answer was meant for the dead
            // snake. Upstream replays the commands onto the dead hero (no
            // effect) before it respawns (codenjoy.md §1.5, steps 1-2), and
            // the new hero faces right; steering it with that answer could
            // kill it at once, and `ACT(0)` would kill it for sure.
            if self.snakes[seat].respawned {
                continue;
            }
            let a = actions.get(seat).copied().unwrap_or_default();
            if a.suicide && self.snakes[seat].alive {
                self.kill(seat, Death::Suicide, ev);
                continue;
            }
            let s = &mut self.snakes[seat];
            if !s.is_playing() {
                continue;
            }
            if let Some(d) = a.dir.filter(|&d| d != s.dir.opposite()) {
                s.dir = d;
            }
            if a.drop == Some(StoneDrop::BeforeMove) {
                self.drop_stone(seat, ev);
            }
        }
    }

    fn stage_move(&mut self, _: &[Action], ev: &mut Vec<Event>) {
        for seat in 0..self.snakes.len() {
            let s = &mut self.snakes[seat];
            s.vacated = None;
            if !s.is_playing() {
                continue;
            }
            if s.shrink > 0 {
                let owed = std::mem::take(&mut s.shrink) as usize;
                if s.len() < owed + 2 {
                    self.kill(seat, Death::Shrink, ev);
                    continue;
                }
                let s = &mut self.snakes[seat];
                s.body.truncate(s.len() - owed);
            }
            let s = &mut self.snakes[seat];
            s.fury = s.fury.saturating_sub(1);
            s.flying = s.flying.saturating_sub(1);
            let head = s.body[0].step(s.dir);
            s.body.push_front(head);
            s.vacated = s.body.pop_back();
            let bitten = if s.flying == 0 { s.body.iter().skip(1).position(|&c| c == head) } else { None };
            if let Some(k) = bitten {
                let cut = s.len() - (k + 1);
                s.body.truncate(k + 1);
                ev.push(Event::SelfBite { snake: seat, cut });
            }
        }
    }

    /// Rules 1-4.2 of the CodeBattle description's "order of processing
    /// fights", for all snakes at once.
    ///
    /// The CodeBattle description walks the snakes one by one, but they move
    /// at the same time, so every meeting, crash and bite of a stage is judged
    /// on the snakes as they stood when the stage began: their cells, their
    /// fury and their length after what they already owe
    /// ([`Snake::len_after_owed`]). Nothing found earlier in the stage changes
    /// what is found later, so relabelling the seats relabels the outcome and
    /// changes nothing else. A snake that wins several head-ons owes all the
    /// lengths it beat, and dies (`Death::Shrink`) if what is left is shorter
    /// than 2; so does a snake whose bitten body no longer covers what it owes.
    ///
    /// Kills and bites are paid at the end of the stage, and only to snakes
    /// still alive then: upstream collects them during `snakesFight` and
    /// pays its EAT events to live attackers only (codenjoy.md §1.5). So a
    /// snake that is run into and then dies itself in the same fight, or
    /// bites and is then killed, gets nothing for it. A kill is paid once to
    /// each snake that won it, however many ways it won it (a head-on into
    /// the victim's neck while the victim runs into its body is one kill).
    fn stage_fight(&mut self, _: &[Action], ev: &mut Vec<Event>) {
        let n = self.snakes.len();
        let fighting: Vec<bool> = self.snakes.iter().map(|s| s.is_playing() && s.flying == 0).collect();
        let len: Vec<usize> = self.snakes.iter().map(Snake::len_after_owed).collect();
        let fury: Vec<bool> = self.snakes.iter().map(|s| s.fury > 0).collect();
        // Per snake: the ways it dies (rank, opponent), what it owes from
        // head-ons it won, and who is paid for killing it.
        let mut deaths: Vec<Vec<(u8, SnakeIdx)>> = vec![Vec::new(); n];
        let mut debt = vec![0usize; n];
        let mut killers: Vec<Vec<SnakeIdx>> = vec![Vec::new(); n];
        let mut meetings: Vec<(SnakeIdx, SnakeIdx)> = Vec::new();
        // (victim, bitten index, biter)
        let mut bites: Vec<(SnakeIdx, usize, SnakeIdx)> = Vec::new();
        for a in (0..n).filter(|&a| fighting[a]) {
            let head = self.snakes[a].body[0];
            // A sleeping snake takes no part in the round, so it can neither
            // lose a fight nor be bitten; it is an obstacle, like a wall.
            // Without this a long snake entering a sleeper's start floor
            // would win a head-on against it (sleepers are 2 long) and be
            // paid for a kill the sleeper could not avoid.
            let sleepers: Vec<SnakeIdx> = (0..n)
                .filter(|&j| j != a && self.snakes[j].alive && !self.snakes[j].active && self.snakes[j].body.contains(&head))
                .collect();
            if !sleepers.is_empty() {
                deaths[a].extend(sleepers.into_iter().map(|b| (DEATH_SLEEPER, b)));
                continue;
            }
            let at: Vec<(SnakeIdx, usize)> = (0..n)
                .filter(|&j| j != a && fighting[j])
                .filter_map(|j| self.snakes[j].body.iter().position(|&c| c == head).map(|k| (j, k)))
                .collect();
            if at.iter().any(|&(_, k)| k <= 1) {
                for &(b, _) in at.iter().filter(|&&(_, k)| k <= 1) {
                    ev.push(Event::HeadOn { attacker: a, target: b });
                    meetings.push((a.min(b), a.max(b)));
                }
            } else {
                for (b, k) in at {
                    if fury[a] {
                        bites.push((b, k, a));
                    } else {
                        deaths[a].push((DEATH_CRASH, b));
                        killers[a].push(b);
                    }
                }
            }
        }
        // Two heads on one cell, or each in the other's neck, meet once.
        meetings.sort_unstable();
        meetings.dedup();
        for (a, b) in meetings {
            let (la, lb) = (len[a], len[b]);
            let (a_loses, b_loses) = match (fury[a], fury[b]) {
                (true, false) => (false, true),
                (false, true) => (true, false),
                _ => (la < lb + 2, lb < la + 2),
            };
            let same_fury = fury[a] == fury[b];
            for (loser, winner, loses, wins, loser_len) in [(a, b, a_loses, !b_loses, la), (b, a, b_loses, !a_loses, lb)] {
                if loses {
                    deaths[loser].push((DEATH_HEAD_ON, winner));
                    if wins {
                        killers[loser].push(winner);
                        if same_fury {
                            debt[winner] += loser_len;
                        }
                    }
                }
            }
        }
        // Bites of one victim: it loses everything behind the bite nearest
        // its head; each biter is paid for the piece between its bite and
        // the next one towards the tail, its own bitten cell excepted (the
        // CodeBattle description's example 4).
        bites.sort_unstable();
        let mut pay: Vec<(SnakeIdx, ScoreReason, i64)> = Vec::new();
        let per = self.settings.points.eat_per_cell;
        for (i, &(victim, k, biter)) in bites.iter().enumerate() {
            let end = match bites.get(i + 1) {
                Some(&(v, next, _)) if v == victim => next,
                _ => self.snakes[victim].len(),
            };
            let cut = end - k;
            ev.push(Event::Bite { attacker: biter, victim, cut });
            pay.push((biter, ScoreReason::Bite(victim), per * (cut as i64 - 1)));
        }
        for (i, &(victim, k, _)) in bites.iter().enumerate() {
            if i > 0 && bites[i - 1].0 == victim {
                continue;
            }
            let s = &mut self.snakes[victim];
            // The bitten cell is the last one the victim's tail left, so an
            // apple the victim eats in this tick regrows its tail there,
            // under the biter's head, and the second fight bites it off
            // again (upstream's `reduceFrom`). Regrowing on the cell vacated
            // by the move instead would tear the body in two.
            s.vacated = Some(s.body[k]);
            s.body.truncate(k);
        }
        for seat in 0..n {
            let first = deaths[seat].iter().copied().min_by(|x, y| x.0.cmp(&y.0).then_with(|| self.by_place(x.1, y.1)));
            if let Some((rank, by)) = first {
                let cause = match rank {
                    DEATH_HEAD_ON => Death::HeadOn(by),
                    _ => Death::Crash(by),
                };
                self.kill(seat, cause, ev);
            } else if fighting[seat] {
                let s = &mut self.snakes[seat];
                s.shrink += debt[seat] as u32;
                if s.len() < s.shrink as usize + 2 {
                    self.kill(seat, Death::Shrink, ev);
                }
            }
        }
        for victim in 0..n {
            let mut by = std::mem::take(&mut killers[victim]);
            by.sort_unstable();
            by.dedup();
            for k in by {
                pay.push((k, ScoreReason::Kill(victim), per * len[victim] as i64));
            }
        }
        for (seat, reason, pts) in pay {
            if self.snakes[seat].alive {
                self.score(seat, reason, pts, ev);
            }
        }
    }

    /// Orders two snakes by where they lie, not by their seats, for the one
    /// choice a fight makes between snakes that did the same thing: which
    /// of several killers a death names. Two live bodies never lie on
    /// exactly the same cells, so the seats decide only in theory.
    fn by_place(&self, a: SnakeIdx, b: SnakeIdx) -> std::cmp::Ordering {
        self.snakes[a].body.cmp(&self.snakes[b].body).then(a.cmp(&b))
    }

    /// CodeBattle description, "the order of processing eating". Every snake
    /// eats what lay under its head when the stage began: two heads on one item
    /// (flying snakes, which do not fight, can share a cell) both eat it, so
    /// that neither seat is served first.
    fn stage_eat(&mut self, _: &[Action], ev: &mut Vec<Event>) {
        let pts = self.settings.points;
        let mut meals: Vec<(SnakeIdx, Item, Pos)> = Vec::new();
        for seat in 0..self.snakes.len() {
            let s = &self.snakes[seat];
            if !s.is_playing() {
                continue;
            }
            let head = s.body[0];
            match self.map.index(head).map(|i| self.map.terrain[i]) {
                None => {
                    self.kill(seat, Death::OffBoard, ev);
                    continue;
                }
                Some(Terrain::Wall) => {
                    self.kill(seat, Death::Wall, ev);
                    continue;
                }
                Some(Terrain::StartFloor) => {
                    self.kill(seat, Death::StartFloor, ev);
                    continue;
                }
                Some(Terrain::Empty) => {}
            }
            let Some(item) = self.item_at(head) else { continue };
            if item == Item::Stone && s.flying > 0 {
                continue;
            }
            meals.push((seat, item, head));
        }
        for &(_, _, at) in &meals {
            if let Some(item) = self.take_item(at) {
                self.eaten.push((at, item));
            }
        }
        for (seat, item, head) in meals {
            ev.push(Event::Ate { snake: seat, item, at: head });
            match item {
                Item::Apple => {
                    let s = &mut self.snakes[seat];
                    let tail = s.vacated.or(s.body.back().copied()).expect("a live snake has a tail");
                    s.body.push_back(tail);
                    self.score(seat, ScoreReason::Apple, pts.apple, ev);
                }
                Item::Stone => {
                    self.snakes[seat].stones += 1;
                    let s = &mut self.snakes[seat];
                    if s.fury == 0 {
                        // Judged by the length left after what a head-on
                        // of this tick already cost (the cells themselves
                        // go at the next move).
                        let shrink = self.settings.stone_shrink as usize;
                        if s.len_after_owed() < shrink + 2 {
                            self.kill(seat, Death::Stone, ev);
                        } else {
                            s.body.truncate(s.len() - shrink);
                        }
                    }
                    // The CodeBattle description calls stones a penalty yet
                    // lists them at +15; a stone that kills pays nothing, as
                    // upstream pays its STONE event only to a snake still
                    // alive, so that suicide by stone is not a way to score.
                    if self.snakes[seat].alive {
                        self.score(seat, ScoreReason::Stone, pts.stone, ev);
                    }
                }
                Item::Gold => self.score(seat, ScoreReason::Gold, pts.gold, ev),
                Item::FuryPill => self.snakes[seat].fury += self.settings.fury_ticks,
                Item::FlyingPill => self.snakes[seat].flying += self.settings.flying_ticks,
            }
        }
    }

    /// CodeBattle's step 6, "new objects are recreated in place of those
    /// eaten", with `replace_eaten`: every object eaten in this tick comes
    /// back at once as one of its kind on a random free cell (in the order
    /// of the cells they were eaten on, so that no seat's meal is drawn
    /// first). Then, with `dice` (the `codenjoy` profile), upstream's dice.
    fn stage_spawn_items(&mut self, _: &[Action], ev: &mut Vec<Event>) {
        let mut eaten = std::mem::take(&mut self.eaten);
        if !self.spawning {
            return;
        }
        if self.settings.replace_eaten {
            eaten.sort_unstable();
            for (_, item) in eaten {
                let stone = item == Item::Stone;
                let Some(at) = self.random_cell(|g, p| !stone || g.stone_may_lie_at(p)) else { continue };
                self.put_item(at, item);
                ev.push(Event::ItemSpawned { item, at });
            }
        }
        if self.settings.dice {
            self.spawn_by_dice(ev);
        }
    }

    /// Upstream's spawner: one random free cell and one roll of 50 per tick,
    /// so at most one new object appears per tick.
    fn spawn_by_dice(&mut self, ev: &mut Vec<Event>) {
        let Some(at) = self.random_cell(|_, _| true) else { return };
        let players = self.snakes.iter().filter(|s| s.present).count() as u32;
        let max = players / 2 + 1;
        let roll = self.rng.below(50);
        let count = |it: Item| self.item_counts[it.index()];
        // Upstream's `setStone` refuses a cell right of a start floor
        // (`isFreeForStone`) and places nothing; its apple check runs after
        // it regardless. So a stone due on such a cell gives way to an
        // apple (on the same cell, this tick's one) if one is due too, and
        // otherwise nothing appears this tick. The cell and the roll are
        // drawn as before, so the random sequence does not change.
        let stone_may_lie = self.stone_may_lie_at(at);
        let item = if roll == 42 && count(Item::FuryPill) < max {
            Item::FuryPill
        } else if roll == 32 && self.settings.flying_pills && count(Item::FlyingPill) < max {
            Item::FlyingPill
        } else if roll == 21 && count(Item::Gold) < 2 * max {
            Item::Gold
        } else if stone_may_lie
            && ((roll == 11 && (count(Item::Stone) as usize) < self.map.size / 2) || count(Item::Stone) == 0)
        {
            Item::Stone
        } else if (roll < 10 && count(Item::Apple) < 10 * max) || count(Item::Apple) < 2 * max {
            Item::Apple
        } else {
            return;
        };
        self.put_item(at, item);
        ev.push(Event::ItemSpawned { item, at });
    }

    fn is_free_cell(&self, i: usize) -> bool {
        self.map.terrain[i] == Terrain::Empty && self.items[i].is_none() && !self.occupied(self.map.pos(i))
    }

    /// A random free cell that `fits`.
    fn random_cell(&mut self, fits: impl Fn(&Self, Pos) -> bool) -> Option<Pos> {
        let cells = self.items.len();
        let ok = |g: &Self, i: usize| g.is_free_cell(i) && fits(g, g.map.pos(i));
        for _ in 0..SPAWN_TRIES {
            let i = self.rng.index(cells);
            if ok(self, i) {
                return Some(self.map.pos(i));
            }
        }
        let free: Vec<usize> = (0..cells).filter(|&i| ok(self, i)).collect();
        if free.is_empty() {
            return None;
        }
        Some(self.map.pos(free[self.rng.index(free.len())]))
    }

    fn stage_drop_after_move(&mut self, actions: &[Action], ev: &mut Vec<Event>) {
        for seat in 0..self.snakes.len() {
            let a = actions.get(seat).copied().unwrap_or_default();
            let s = &self.snakes[seat];
            if a.drop == Some(StoneDrop::AfterMove) && s.is_playing() && !s.respawned {
                self.drop_stone(seat, ev);
            }
        }
    }

    /// CodeBattle description: the round ends at length 40, after 300 ticks,
    /// when one snake is left alive, or when all snakes on the field die; on
    /// length or time only the longest win.
    ///
    /// Lengths here are [`Snake::len_after_owed`]: a head-on survivor's cut is
    /// due at its next move, but the CodeBattle description's example 2 gives
    /// it its final length 11-7=4 at once, and the round may end before that
    /// move.
    fn stage_round_end(&mut self, _: &[Action], ev: &mut Vec<Event>) {
        let Phase::Running { tick } = self.phase else { return };
        if !self.settings.rounds {
            return;
        }
        let alive: Vec<SnakeIdx> = (0..self.snakes.len()).filter(|&i| self.snakes[i].is_playing()).collect();
        let len = |i: SnakeIdx| self.snakes[i].len_after_owed();
        let longest = || {
            let max = alive.iter().map(|&i| len(i)).max().unwrap_or(0);
            alive.iter().copied().filter(|&i| len(i) == max).collect::<Vec<_>>()
        };
        let cap = self.settings.round_end_length as usize;
        // "One left" needs a round that began with two or more, or a lone
        // snake's round would end at once; "none left" ends any round, also
        // one its only snake started, which would otherwise wait for the
        // timeout with nobody on the field (upstream, too, restarts when
        // nobody is left, with no winner: codenjoy.md §1.6).
        let (reason, winners) = if cap > 0 && alive.iter().any(|&i| len(i) >= cap) {
            (RoundEnd::MaxLength, longest())
        } else if tick >= self.settings.round_ticks {
            (RoundEnd::Timeout, longest())
        } else if alive.is_empty() || (self.round_players >= 2 && alive.len() == 1) {
            (RoundEnd::LastAlive, alive.clone())
        } else {
            return;
        };
        if tick >= self.settings.min_ticks_for_win {
            let p = self.settings.points;
            let pay: Vec<(SnakeIdx, i64)> = winners
                .iter()
                .map(|&w| (w, p.win_per_length * len(w) as i64 + p.win_per_tick * i64::from(tick) + p.win_flat))
                .collect();
            for (w, pts) in pay {
                self.score(w, ScoreReason::Win, pts, ev);
            }
        }
        ev.push(Event::RoundEnded { round: self.round, reason, winners });
        self.phase = Phase::Countdown { left: self.settings.countdown_ticks };
        self.reset_pending = true;
    }

    /// Checks the invariants every state must satisfy; the property tests
    /// call this after every tick.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut counts = [0u32; 5];
        for (i, (it, t)) in self.items.iter().zip(&self.map.terrain).enumerate() {
            let Some(it) = it else { continue };
            counts[it.index()] += 1;
            if *t != Terrain::Empty {
                return Err(format!("{it:?} on {t:?} at {}", self.map.pos(i)));
            }
        }
        if counts != self.item_counts {
            return Err(format!("item counts {:?} but the board holds {counts:?}", self.item_counts));
        }
        // How many cells of live, non-flying snakes lie on each cell. A grid
        // keeps this linear: `step` runs it after every tick of a debug
        // build, and the simulation tests play hundreds of thousands.
        let mut cover = vec![0u8; self.items.len()];
        for (i, s) in self.snakes.iter().enumerate() {
            if s.score < 0 {
                return Err(format!("snake {i} has score {}", s.score));
            }
            if !s.alive {
                continue;
            }
            if s.len() < 2 {
                return Err(format!("live snake {i} has length {}", s.len()));
            }
            for w in s.body.iter().zip(s.body.iter().skip(1)) {
                if w.0.dir_to(*w.1).is_none() {
                    return Err(format!("snake {i} is not contiguous between {} and {}", w.0, w.1));
                }
            }
            for c in &s.body {
                let Some(cell) = self.map.index(*c) else {
                    return Err(format!("snake {i} is off the board at {c}"));
                };
                if s.flying == 0 {
                    cover[cell] = cover[cell].saturating_add(1);
                }
            }
            // A head may rest on its start floor until the first move, never
            // on a wall.
            if self.map.terrain_at(s.body[0]) == Terrain::Wall {
                return Err(format!("live snake {i} has its head in a wall at {}", s.body[0]));
            }
        }
        // A flying snake passes over bodies, its own included, and the
        // overlap outlasts the flight until the tails move on; so with
        // flying pills only heads are checked: after the fights no
        // non-flying head rests on another non-flying cell.
        let heads_only = self.settings.flying_pills;
        let shared = |c: Pos| self.map.index(c).is_some_and(|cell| cover[cell] > 1);
        for s in self.snakes.iter().filter(|s| s.alive && s.flying == 0) {
            let checked = if heads_only { 1 } else { s.len() };
            if let Some(&c) = s.body.iter().take(checked).find(|&&c| shared(c)) {
                let others: Vec<SnakeIdx> = (0..self.snakes.len())
                    .filter(|&j| self.snakes[j].alive && self.snakes[j].flying == 0 && self.snakes[j].body.contains(&c))
                    .collect();
                return Err(format!("{c} is covered more than once, by snakes {others:?}"));
            }
        }
        Ok(())
    }
}

impl Game for SnakeBattle {
    type Action = Action;
    type Event = Event;

    fn name(&self) -> &'static str {
        "snakebattle"
    }

    fn seats(&self) -> usize {
        self.snakes.len()
    }

    fn step(&mut self, actions: &[Action]) -> Vec<Event> {
        let mut ev = Vec::new();
        self.tick += 1;
        self.stage_respawn(&mut ev);
        match self.phase {
            Phase::Countdown { left } => {
                if left > 1 {
                    self.phase = Phase::Countdown { left: left - 1 };
                    ev.push(Event::Countdown { left: left - 1 });
                } else {
                    self.start_round(&mut ev);
                }
            }
            Phase::Running { tick } => {
                self.phase = Phase::Running { tick: tick + 1 };
                for stage in STAGES {
                    (stage.run)(self, actions, &mut ev);
                }
            }
        }
        debug_assert_eq!(self.check_invariants(), Ok(()));
        ev
    }

    fn tick(&self) -> u64 {
        self.tick
    }

    fn checksum(&self) -> u64 {
        let mut h = Checksum::default();
        h.u64(self.tick);
        match self.phase {
            Phase::Countdown { left } => h.u64(u64::from(left)),
            Phase::Running { tick } => h.u64((1 << 32) | u64::from(tick)),
        }
        h.u64(u64::from(self.round));
        h.u64(u64::from(self.reset_pending));
        h.u64(u64::from(self.round_players));
        // Mixed in only when off, so that real games keep the checksums they
        // had before the switch existed.
        if !self.spawning {
            h.u64(0x5350_4157_4e4f_4646);
        }
        h.bytes(&self.rng.position().to_le_bytes());
        for it in &self.items {
            h.bytes(&[it.map_or(0, |i| i.index() as u8 + 1)]);
        }
        for s in &self.snakes {
            h.bytes(&[s.dir.index(), u8::from(s.alive), u8::from(s.active), u8::from(s.present)]);
            for v in [s.fury, s.flying, s.stones, s.shrink] {
                h.u64(u64::from(v));
            }
            h.i64(s.score);
            h.u64(s.body.len() as u64);
            for c in &s.body {
                h.i64(i64::from(c.x));
                h.i64(i64::from(c.y));
            }
        }
        h.finish()
    }

    fn scores(&self) -> Vec<i64> {
        self.snakes.iter().map(|s| s.score).collect()
    }

    fn relabel_event(event: &Event, from: &[usize]) -> Event {
        let to = crate::game::relabel_inverse(from);
        match event {
            &Event::Spawned { snake, at } => Event::Spawned { snake: to[snake], at },
            &Event::Countdown { left } => Event::Countdown { left },
            &Event::RoundStarted { round } => Event::RoundStarted { round },
            Event::RoundEnded { round, reason, winners } => {
                let mut winners: Vec<SnakeIdx> = winners.iter().map(|&w| to[w]).collect();
                winners.sort_unstable();
                Event::RoundEnded { round: *round, reason: *reason, winners }
            }
            &Event::StoneDropped { snake, at } => Event::StoneDropped { snake: to[snake], at },
            &Event::SelfBite { snake, cut } => Event::SelfBite { snake: to[snake], cut },
            &Event::Bite { attacker, victim, cut } => Event::Bite { attacker: to[attacker], victim: to[victim], cut },
            &Event::HeadOn { attacker, target } => Event::HeadOn { attacker: to[attacker], target: to[target] },
            &Event::Ate { snake, item, at } => Event::Ate { snake: to[snake], item, at },
            &Event::Died { snake, cause } => {
                let cause = match cause {
                    Death::HeadOn(by) => Death::HeadOn(to[by]),
                    Death::Crash(by) => Death::Crash(to[by]),
                    other => other,
                };
                Event::Died { snake: to[snake], cause }
            }
            &Event::ItemSpawned { item, at } => Event::ItemSpawned { item, at },
            &Event::Scored { snake, reason, points } => {
                let reason = match reason {
                    ScoreReason::Kill(s) => ScoreReason::Kill(to[s]),
                    ScoreReason::Bite(s) => ScoreReason::Bite(to[s]),
                    other => other,
                };
                Event::Scored { snake: to[snake], reason, points }
            }
        }
    }

    fn relabel_seats(&self, from: &[usize]) -> SnakeBattle {
        let mut g = self.clone();
        g.snakes = from.iter().map(|&j| self.snakes[j].clone()).collect();
        g
    }

    fn action_to_text(action: &Action) -> String {
        action.to_text()
    }

    fn action_from_text(text: &str) -> Result<Action, ParseActionError> {
        Action::from_text(text)
    }
}
