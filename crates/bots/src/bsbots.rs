//! Built-in Battlesnake bots.
//!
//! **API Boundary:** a built-in Battlesnake gets the same
//! [`SnakeRequest`] an HTTP snake gets (in the API's coordinates, `y` up)
//! and answers a [`MoveResponse`]; it never looks at engine state. So every
//! game with built-in snakes also exercises the request conversion.
//!
//! - `random`: the "safe-random" policy of the benchmarks: a uniformly
//!   random move that neither leaves the board nor enters a body cell other
//!   than a tail that moves away.
//! - `greedy`: among the safe moves, those that do not risk a head-to-head
//!   with a snake at least as long and leave room to live in; of those, the
//!   one nearest to food, keeping out of hazards unless it must.

use snakepit_engine::Rng;
use snakepit_protocol::battlesnake::{Coord, InfoResponse, MoveResponse, SnakeRequest};
use std::collections::VecDeque;

/// A Battlesnake played in-process.
pub trait BattlesnakeBot: Send {
    /// The answer to `GET /`.
    fn info(&self) -> InfoResponse;
    /// The answer to `POST /move`.
    fn choose(&mut self, request: &SnakeRequest) -> MoveResponse;
}

/// Names accepted by [`by_name`].
pub const NAMES: &[&str] = &["random", "greedy"];

/// A built-in Battlesnake by name; its play is a function of `seed` and
/// the requests it is shown.
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn BattlesnakeBot>> {
    match name {
        "random" => Some(Box::new(SafeRandom::new(seed))),
        "greedy" => Some(Box::new(Greedy::new(seed))),
        _ => None,
    }
}

/// The four moves with their wire words, in a fixed order.
const MOVES: [(&str, i32, i32); 4] = [("up", 0, 1), ("right", 1, 0), ("down", 0, -1), ("left", -1, 0)];

/// The board as a bot sees it: which cells are blocked next turn.
struct View {
    w: i32,
    h: i32,
    wrap: bool,
    /// Cells holding a body segment that is still there after every snake
    /// moves: everything but tails that are not stacked.
    blocked: Vec<bool>,
    hazard: Vec<bool>,
    food: Vec<Coord>,
}

impl View {
    fn of(req: &SnakeRequest) -> View {
        let (w, h) = (req.board.width, req.board.height);
        let cells = (w.max(0) * h.max(0)) as usize;
        let mut v = View {
            w,
            h,
            wrap: req.game.ruleset.name.contains("wrapped"),
            blocked: vec![false; cells],
            hazard: vec![false; cells],
            food: req.board.food.clone(),
        };
        for s in &req.board.snakes {
            let n = s.body.len();
            let stacked = n >= 2 && s.body[n - 1] == s.body[n - 2];
            for (k, c) in s.body.iter().enumerate() {
                if k + 1 == n && !stacked {
                    continue;
                }
                if let Some(i) = v.index(*c) {
                    v.blocked[i] = true;
                }
            }
        }
        for c in &req.board.hazards {
            if let Some(i) = v.index(*c) {
                v.hazard[i] = true;
            }
        }
        v
    }

    fn index(&self, c: Coord) -> Option<usize> {
        (c.x >= 0 && c.y >= 0 && c.x < self.w && c.y < self.h).then(|| (c.y * self.w + c.x) as usize)
    }

    /// The cell a move leads to, if it is on the board.
    fn step(&self, c: Coord, dx: i32, dy: i32) -> Option<Coord> {
        let (mut x, mut y) = (c.x + dx, c.y + dy);
        if self.wrap {
            x = x.rem_euclid(self.w);
            y = y.rem_euclid(self.h);
        }
        self.index(Coord { x, y }).map(|_| Coord { x, y })
    }

    /// The safe moves from `head`: (word, cell).
    fn safe(&self, head: Coord) -> Vec<(&'static str, Coord)> {
        MOVES
            .iter()
            .filter_map(|&(word, dx, dy)| self.step(head, dx, dy).map(|c| (word, c)))
            .filter(|(_, c)| self.index(*c).is_some_and(|i| !self.blocked[i]))
            .collect()
    }

    /// Cells reachable from `from` through free cells, up to `cap`.
    fn room(&self, from: Coord, cap: usize) -> usize {
        let mut seen = self.blocked.clone();
        let mut queue = VecDeque::from([from]);
        if let Some(i) = self.index(from) {
            seen[i] = true;
        }
        let mut count = 0;
        while let Some(c) = queue.pop_front() {
            count += 1;
            if count >= cap {
                break;
            }
            for &(_, dx, dy) in &MOVES {
                if let Some(n) = self.step(c, dx, dy) {
                    let i = (n.y * self.w + n.x) as usize;
                    if !seen[i] {
                        seen[i] = true;
                        queue.push_back(n);
                    }
                }
            }
        }
        count
    }

    /// Steps from `from` to the nearest food through free cells.
    fn food_distance(&self, from: Coord) -> Option<usize> {
        if self.food.is_empty() {
            return None;
        }
        let mut dist = vec![usize::MAX; self.blocked.len()];
        let start = self.index(from)?;
        dist[start] = 0;
        let mut queue = VecDeque::from([from]);
        while let Some(c) = queue.pop_front() {
            let d = dist[(c.y * self.w + c.x) as usize];
            if self.food.contains(&c) {
                return Some(d);
            }
            for &(_, dx, dy) in &MOVES {
                if let Some(n) = self.step(c, dx, dy) {
                    let i = (n.y * self.w + n.x) as usize;
                    if !self.blocked[i] && dist[i] == usize::MAX {
                        dist[i] = d + 1;
                        queue.push_back(n);
                    }
                }
            }
        }
        None
    }
}

fn answer(word: &str) -> MoveResponse {
    MoveResponse { mv: word.to_string(), shout: None }
}

/// `random`: a uniformly random safe move.
pub struct SafeRandom {
    rng: Rng,
}

impl SafeRandom {
    /// A bot whose choices follow from `seed`.
    pub fn new(seed: u64) -> SafeRandom {
        SafeRandom { rng: Rng::new(seed) }
    }
}

impl BattlesnakeBot for SafeRandom {
    fn info(&self) -> InfoResponse {
        InfoResponse {
            apiversion: Some("1".into()),
            author: Some("snakepit".into()),
            color: Some("#9b9b9b".into()),
            head: Some("default".into()),
            tail: Some("default".into()),
            version: Some("random".into()),
        }
    }

    fn choose(&mut self, req: &SnakeRequest) -> MoveResponse {
        let safe = View::of(req).safe(req.you.head);
        if safe.is_empty() {
            return answer("up");
        }
        answer(safe[self.rng.index(safe.len())].0)
    }
}

/// `greedy`: safe, careful, and hungry.
pub struct Greedy {
    rng: Rng,
}

impl Greedy {
    /// A bot whose ties are broken by `seed`.
    pub fn new(seed: u64) -> Greedy {
        Greedy { rng: Rng::new(seed) }
    }
}

impl BattlesnakeBot for Greedy {
    fn info(&self) -> InfoResponse {
        InfoResponse {
            apiversion: Some("1".into()),
            author: Some("snakepit".into()),
            color: Some("#e8a33d".into()),
            head: Some("smart-caterpillar".into()),
            tail: Some("round-bum".into()),
            version: Some("greedy".into()),
        }
    }

    fn choose(&mut self, req: &SnakeRequest) -> MoveResponse {
        let view = View::of(req);
        let me = &req.you;
        let safe = view.safe(me.head);
        if safe.is_empty() {
            return answer("up");
        }
        // Cells a rival head at least as long as mine can reach next turn.
        let mut contested = vec![false; view.blocked.len()];
        for s in req.board.snakes.iter().filter(|s| s.id != me.id && s.length >= me.length) {
            for &(_, dx, dy) in &MOVES {
                if let Some(i) = view.step(s.head, dx, dy).and_then(|c| view.index(c)) {
                    contested[i] = true;
                }
            }
        }
        let need = me.length as usize + 1;
        let hungry = me.health < 40 || req.board.snakes.iter().any(|s| s.id != me.id && s.length + 1 >= me.length);
        let scored: Vec<(i64, &str)> = safe
            .iter()
            .map(|&(word, c)| {
                let i = view.index(c).unwrap_or(0);
                let room = view.room(c, need);
                let mut score = 0i64;
                score -= 10_000 * i64::from(contested[i]);
                score -= 5_000 * i64::from(room < need);
                score -= 200 * i64::from(view.hazard[i] && !view.food.contains(&c));
                if let Some(d) = view.food_distance(c) {
                    score -= if hungry { 10 } else { 2 } * d as i64;
                }
                (score, word)
            })
            .collect();
        let best = scored.iter().map(|s| s.0).max().unwrap_or(0);
        let top: Vec<&str> = scored.iter().filter(|s| s.0 == best).map(|s| s.1).collect();
        answer(top[self.rng.index(top.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use snakepit_engine::battlesnake::{Battlesnake, Ruleset, Settings};
    use snakepit_engine::{Dir, Game};
    use snakepit_protocol::battlesnake::{GameMeta, parse_move, requests};

    fn meta(n: usize) -> GameMeta {
        GameMeta::new("t", 500, &(0..n).map(|i| format!("s{i}")).collect::<Vec<_>>())
    }

    fn word_to_dir(word: &str) -> Dir {
        parse_move(format!(r#"{{"move":"{word}"}}"#).as_bytes()).unwrap().dir
    }

    #[test]
    fn the_request_gives_the_engines_safe_moves() {
        // Read from the API's y-up JSON, the safe set must be exactly the
        // engine's: this checks the coordinate flip and the request's
        // snakes, on plain and wrapped boards.
        for ruleset in [Ruleset::Standard, Ruleset::Wrapped, Ruleset::Royale] {
            for seed in 0..30 {
                let settings = Settings::from_pairs([("name", ruleset.name()), ("width", "9"), ("height", "7")]).unwrap();
                let mut game = Battlesnake::new(settings, 4, seed).unwrap();
                let mut rng = Rng::new(seed);
                while !game.is_over() {
                    let reqs = requests(&game, &meta(4));
                    let mut actions = Vec::new();
                    for (seat, req) in reqs.iter().enumerate() {
                        let mut from_request: Vec<Dir> = View::of(req).safe(req.you.head).iter().map(|(w, _)| word_to_dir(w)).collect();
                        let mut from_engine: Vec<Dir> = game.safe_moves(seat).iter().collect();
                        from_request.sort();
                        from_engine.sort();
                        if game.snakes()[seat].is_alive() {
                            assert_eq!(from_request, from_engine, "{ruleset} seed {seed} turn {} seat {seat}", game.turn());
                        }
                        let safe = game.safe_moves(seat);
                        actions.push(if safe.is_empty() { None } else { safe.nth(rng.index(safe.len())) });
                    }
                    game.step(&actions);
                }
            }
        }
    }

    /// Plays seat 0 `a` against seat 1 `b` on 11x11; returns the winner.
    fn duel(a: &str, b: &str, seed: u64) -> Option<usize> {
        let mut game = Battlesnake::new(Settings::default(), 2, seed).unwrap();
        let mut bots = [by_name(a, seed).unwrap(), by_name(b, seed + 1).unwrap()];
        while !game.is_over() && game.turn() < 3000 {
            let reqs = requests(&game, &meta(2));
            let actions: Vec<_> = bots.iter_mut().zip(&reqs).map(|(bot, r)| Some(word_to_dir(&bot.choose(r).mv))).collect();
            game.step(&actions);
        }
        game.winner()
    }

    #[test]
    fn greedy_beats_random() {
        let games = 40;
        let wins = (0..games).filter(|&seed| duel("greedy", "random", seed) == Some(0)).count();
        let losses = (0..games).filter(|&seed| duel("greedy", "random", seed) == Some(1)).count();
        assert!(wins >= games as usize * 3 / 4, "greedy won {wins} and lost {losses} of {games}");
    }

    #[test]
    fn names_build_bots() {
        for name in NAMES {
            assert!(by_name(name, 1).is_some(), "{name}");
        }
        assert!(by_name("nobody", 1).is_none());
    }
}
