//! The ladder: saved programs of one game play each other continuously.
//!
//! One scheduler per game runs at a time, on whichever worker holds the
//! lease `ladder:GAME` in the store (`worker --ladder GAME`; any worker can
//! take over when it lapses). Every step it:
//! 1. takes the players of the game who saved a program, with their
//!    ratings (a new player starts at Weng-Lin's default);
//! 2. pairs those not in a game by rating closeness, with a window that
//!    widens while they wait (`snakepit_tournament::ladder::pair`), and
//!    queues each pair's game (`code:A` against `code:B`) for the workers;
//! 3. reads the results of its games that finished, moves both ratings
//!    (`snakepit_tournament::ladder::rate`), writes them, and puts the two
//!    players back in the pool.
//!
//! The scheduler is the only writer of the game's ratings, so two results
//! never race on one player. What it has queued it keeps in memory: after a
//! takeover, games queued by the previous scheduler still get played (and
//! their replays kept) but not rated, and their players may be queued
//! again meanwhile.

use snakepit_store::{NewMatch, RatingRow, Store};
use snakepit_tournament::ladder::{Waiting, Window, first_rating, pair, rate};
use snakepit_tournament::standings::{PairOutcome, Rating};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// How often the scheduler looks at the pool and the results.
pub const STEP_MS: u64 = 1000;

/// The rating gap accepted at once, in Weng-Lin points (a new bot is
/// 25 ± 8.3).
const WINDOW_BASE: f64 = 2.0;

/// How much the gap widens per second of waiting.
const WINDOW_PER_SECOND: f64 = 0.5;


/// The ladder of one game, as one scheduler sees it.
pub struct Ladder {
    store: Store,
    game: String,
    node: String,
    /// Games this scheduler queued and has not rated yet: id and players.
    open: BTreeMap<i64, (String, String)>,
    /// When each player came back to the pool.
    since: BTreeMap<String, Instant>,
    /// Seeds of queued games, one after another.
    next_seed: u64,
}

impl Ladder {
    /// The ladder of `game`, scheduled from the node `node`.
    pub fn new(store: Store, game: &str, node: &str) -> Ladder {
        let next_seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_secs());
        Ladder {
            store,
            game: game.to_string(),
            node: node.to_string(),
            open: BTreeMap::new(),
            since: BTreeMap::new(),
            next_seed,
        }
    }

    /// Runs steps until the task is dropped.
    pub async fn run(mut self) {
        loop {
            if let Err(e) = self.step().await {
                eprintln!("ladder {}: {e}", self.game);
            }
            tokio::time::sleep(Duration::from_millis(STEP_MS)).await;
        }
    }

    /// One step: rate what finished, then pair and queue the waiting.
    /// Returns the number of games queued.
    pub async fn step(&mut self) -> anyhow::Result<usize> {
        let lease = format!("ladder:{}", self.game);
        if !self
            .store
            .acquire_lease(&lease, &self.node, STEP_MS * 3)
            .await?
        {
            // Another scheduler runs this ladder; what this one queued is
            // forgotten (see the module documentation).
            self.open.clear();
            return Ok(0);
        }
        let mut ratings: BTreeMap<String, RatingRow> = self
            .store
            .ratings(&self.game)
            .await?
            .into_iter()
            .map(|r| (r.player_id.clone(), r))
            .collect();
        self.rate_finished(&mut ratings).await?;

        let busy: Vec<&String> = self.open.values().flat_map(|(a, b)| [a, b]).collect();
        let players = self.store.players().await?;
        let mut pool = Vec::new();
        for code in self.store.all_code().await? {
            let of_game = players
                .iter()
                .any(|p| p.id == code.player_id && p.game == self.game);
            if !of_game
                || !snakepit_store::spec::QUEUED_LANGS.contains(&code.lang.as_str())
                || busy.contains(&&code.player_id)
            {
                continue;
            }
            let since = *self
                .since
                .entry(code.player_id.clone())
                .or_insert_with(Instant::now);
            let rating = ratings
                .get(&code.player_id)
                .map_or(first_rating().rating, |r| r.rating);
            pool.push(Waiting {
                player_id: code.player_id,
                rating,
                waited_s: since.elapsed().as_secs_f64(),
            });
        }
        let pairs = pair(
            &pool,
            Window {
                base: WINDOW_BASE,
                per_second: WINDOW_PER_SECOND,
            },
        );
        let mut queued = Vec::new();
        for &(a, b) in &pairs {
            let (a, b) = (pool[a].player_id.clone(), pool[b].player_id.clone());
            let spec = serde_json::json!({
                "game": self.game,
                "bots": [format!("code:{a}"), format!("code:{b}")],
                "players": [a, b],
                "origin": "ladder",
            });
            self.next_seed = self.next_seed.wrapping_add(1);
            queued.push((
                NewMatch {
                    game: self.game.clone(),
                    spec: spec.to_string(),
                    seed: self.next_seed,
                },
                a,
                b,
            ));
        }
        let ids = self
            .store
            .enqueue_matches(&queued.iter().map(|(m, _, _)| m.clone()).collect::<Vec<_>>())
            .await?;
        for (id, (_, a, b)) in ids.into_iter().zip(queued) {
            self.since.remove(&a);
            self.since.remove(&b);
            self.open.insert(id, (a, b));
        }
        Ok(pairs.len())
    }

    /// Rates the games of `open` that have a result, and returns their
    /// players to the pool.
    async fn rate_finished(
        &mut self,
        ratings: &mut BTreeMap<String, RatingRow>,
    ) -> anyhow::Result<()> {
        let mut changed = Vec::new();
        let ids: Vec<i64> = self.open.keys().copied().collect();
        for id in ids {
            let Some(result) = self.store.match_result(id).await? else {
                continue;
            };
            let (a, b) = self.open.remove(&id).expect("the id was open");
            self.since.insert(a.clone(), Instant::now());
            self.since.insert(b.clone(), Instant::now());
            let result: serde_json::Value = serde_json::from_str(&result)?;
            // A game that could not be played (a program gone, say) rates
            // nobody.
            let Some(places) = result["places"]
                .as_array()
                .filter(|p| p.len() == 2 && result.get("error").is_none())
            else {
                continue;
            };
            let (pa, pb) = (
                places[0].as_u64().unwrap_or(0),
                places[1].as_u64().unwrap_or(0),
            );
            let outcome = match pa.cmp(&pb) {
                std::cmp::Ordering::Less => PairOutcome::Win,
                std::cmp::Ordering::Equal => PairOutcome::Draw,
                std::cmp::Ordering::Greater => PairOutcome::Loss,
            };
            let get = |p: &str| {
                ratings.get(p).map_or((first_rating(), 0), |r| {
                    (
                        Rating {
                            rating: r.rating,
                            uncertainty: r.uncertainty,
                        },
                        r.games,
                    )
                })
            };
            let ((ra, ga), (rb, gb)) = (get(&a), get(&b));
            let (na, nb) = rate(ra, rb, outcome);
            for (p, r, g) in [(a, na, ga), (b, nb, gb)] {
                let row = RatingRow {
                    player_id: p.clone(),
                    rating: r.rating,
                    uncertainty: r.uncertainty,
                    games: g + 1,
                };
                ratings.insert(p, row.clone());
                changed.push(row);
            }
        }
        self.store.set_ratings(&self.game, &changed).await?;
        Ok(())
    }
}
