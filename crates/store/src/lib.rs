//! Everything snakepit keeps across restarts and shares between nodes:
//! players and their codes, cumulative scores, rooms and who sits in which,
//! finished games' replays, ratings, the queue of games waiting for a
//! worker, and leases that give one node at a time a room.
//!
//! One API, two backends, chosen by the address given to [`Store::open`]:
//! a file path is an embedded SQLite database (the default; one node), a
//! `postgres://` URL is a PostgreSQL server that any number of nodes and
//! workers share. Both apply the same numbered migrations, each written in
//! its dialect (`migrations/{sqlite,postgres}/NNN_name.sql`, kept in step by
//! a test), and the same test suite runs against both.
//!
//! Coordination rests on the database alone, so that no node has to talk
//! to another:
//! - a queued game is claimed by one worker at a time
//!   ([`Store::claim_match`]; `FOR UPDATE SKIP LOCKED` on PostgreSQL), held
//!   under a lease that the worker's result must arrive within, and handed
//!   to another worker when that lease lapses; a result from a worker that
//!   lost its claim is refused ([`Store::finish_match`]), so every game
//!   counts exactly once;
//! - a lease ([`Store::acquire_lease`]) names the node that owns a resource
//!   until a deadline, renewed by its owner and taken over once it lapses;
//! - each player's room ([`Store::set_seat`]) tells any node where to send
//!   that player's bot and pages.
//!
//! Deadlines use the database's clock, never a node's, so nodes with skewed
//! clocks still agree on who holds what.

pub mod cluster;
pub mod spec;
mod postgres;
mod sqlite;

use std::path::Path;

/// The dialects, in the order of [`Store::dialect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// An embedded SQLite file.
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

/// A storage failure.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// SQLite refused an operation.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL refused an operation or could not be reached.
    #[error("database: {0}")]
    Postgres(#[from] tokio_postgres::Error),
    /// A name that is already taken.
    #[error("the name {0:?} is taken")]
    NameTaken(String),
    /// No such player.
    #[error("no player {0:?}")]
    NoPlayer(String),
    /// A blocking database call could not finish (the runtime is shutting
    /// down).
    #[error("database call interrupted: {0}")]
    Interrupted(String),
    /// The database holds something this version cannot read.
    #[error("database content: {0}")]
    Corrupt(String),
    /// The database file could not be created.
    #[error("database file: {0}")]
    File(String),
}

/// A registered player.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Player {
    /// Public id, 20 chars of `[a-z0-9]`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// The game the player registered for.
    pub game: String,
    /// Secret code (digits). Never sent to anyone but its owner.
    #[serde(skip)]
    pub code: String,
}

/// One leaderboard row.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ScoreRow {
    /// Player id.
    pub player_id: String,
    /// Player name.
    pub name: String,
    /// Cumulative score.
    pub score: i64,
    /// Deaths.
    pub deaths: i64,
    /// Kills.
    pub kills: i64,
    /// Wins.
    pub wins: i64,
}

/// One page of a list of kept games, newest first: at most `limit`, with
/// ids below `before` when it is given (the last id of the page before).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Page {
    /// Games at most.
    pub limit: u32,
    /// Only games with a smaller id.
    pub before: Option<i64>,
}

impl From<u32> for Page {
    /// The first page of `limit` games.
    fn from(limit: u32) -> Page {
        Page { limit, before: None }
    }
}

/// A change to one player's totals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScoreDelta {
    /// Player id.
    pub player_id: String,
    /// Points, added to the stored total.
    pub score: i64,
    /// Deaths.
    pub deaths: i64,
    /// Kills.
    pub kills: i64,
    /// Wins.
    pub wins: i64,
    /// In a game whose score is a record (CodeCarrots: the longest length
    /// ever reached), the record the player has reached: the stored score
    /// becomes at least this. 0 for none.
    pub record: i64,
    /// Whether the stored total is floored at zero once this delta is
    /// added, as Codenjoy's scores are (SnakeBattle, Hex). Elsewhere the
    /// total is the plain sum of the deltas, so that it is the sum of the
    /// games' points and can go below zero.
    pub floored: bool,
}

impl ScoreDelta {
    /// The least the stored total may be after this delta.
    pub(crate) fn total_min(&self) -> i64 {
        if self.record != 0 {
            self.record
        } else if self.floored {
            0
        } else {
            i64::MIN
        }
    }
}

/// A player's uploaded program.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CodeRow {
    /// Whose.
    pub player_id: String,
    /// Language key (`python`, `javascript`, `c`).
    pub lang: String,
    /// The name the player gave it.
    pub name: String,
    /// The source text.
    pub source: String,
}

/// A seat the organiser keeps for a player in the room they were seated in
/// ([`Store::reserve_seat`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatReservation {
    /// The player the seat waits for.
    pub player_id: String,
    /// The room the organiser seated them in.
    pub room: String,
    /// Until when, in Unix time (ms).
    pub until_unix_ms: i64,
}

/// A persisted room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomRow {
    /// Unique name.
    pub name: String,
    /// Game.
    pub game: String,
    /// Tick period.
    pub tick_ms: u64,
    /// Paused by an admin.
    pub paused: bool,
    /// Seed of its current game.
    pub seed: u64,
    /// Opened by the server for arriving players (closed again when no
    /// player has sat in it for a while), not by the configuration or an
    /// admin.
    pub for_arrivals: bool,
}

/// A finished game to keep.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewReplay {
    /// Game name.
    pub game: String,
    /// Where it was played: a room's name, `ladder`, a tournament.
    pub origin: String,
    /// The players' ids by seat, `""` for a seat without a registered
    /// player (a built-in bot).
    pub players: Vec<String>,
    /// The game's summary as JSON (scores, places).
    pub result: String,
    /// The replay file, JSON lines.
    pub body: String,
    /// The seats' stderr log, JSON lines (`""` when nothing was written).
    pub stderr_log: String,
}

impl NewReplay {
    /// Whether no registered player took part (every seat a built-in).
    pub fn is_unowned(&self) -> bool {
        self.players.iter().all(String::is_empty)
    }
}

/// A kept replay without its body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayInfo {
    /// Id.
    pub id: i64,
    /// Game name.
    pub game: String,
    /// Where it was played.
    pub origin: String,
    /// Players by seat (`""` for built-ins).
    pub players: Vec<String>,
    /// Summary, JSON.
    pub result: String,
    /// When it was stored, database clock, unix milliseconds.
    pub created_ms: i64,
}

/// A player's rating in one game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// Player id.
    pub player_id: String,
    /// Rating.
    pub rating: f64,
    /// Its uncertainty (one standard deviation).
    pub uncertainty: f64,
    /// Rated games played.
    pub games: i64,
}

/// A game waiting for a worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMatch {
    /// Game name.
    pub game: String,
    /// Who plays and how, JSON (the worker's business).
    pub spec: String,
    /// The game's seed.
    pub seed: u64,
}

/// A game a worker has claimed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimedMatch {
    /// Queue id.
    pub id: i64,
    /// Game name.
    pub game: String,
    /// Who plays, JSON.
    pub spec: String,
    /// Seed.
    pub seed: u64,
    /// How many times it has been claimed, this time included.
    pub attempts: i64,
}

/// A queued game as its submitter sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchStatus {
    /// `queued`, `running` or `done`.
    pub state: String,
    /// The worker's result, JSON, once done.
    pub result: Option<String>,
    /// The kept replay, once done (none when the game failed).
    pub replay_id: Option<i64>,
}

/// How many queued games are in each state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueCounts {
    /// Waiting for a worker.
    pub queued: i64,
    /// Claimed, result pending.
    pub running: i64,
    /// Finished.
    pub done: i64,
}

/// The storage handle; cheap to clone, shared by every task of a node.
#[derive(Clone)]
pub struct Store {
    backend: Backend,
}

#[derive(Clone)]
enum Backend {
    Sqlite(sqlite::Sqlite),
    Postgres(postgres::Postgres),
}

/// Calls the same method on whichever backend is in use.
macro_rules! dispatch {
    ($self:ident . $method:ident ( $($arg:expr),* )) => {
        match &$self.backend {
            Backend::Sqlite(db) => db.$method($($arg),*).await,
            Backend::Postgres(db) => db.$method($($arg),*).await,
        }
    };
}

impl Store {
    /// Opens the store at `address`: a `postgres://` or `postgresql://` URL,
    /// or the path of a SQLite file (created if missing). Applies pending
    /// migrations either way.
    pub async fn open(address: &str) -> Result<Store, StoreError> {
        let backend = if is_postgres_url(address) {
            Backend::Postgres(postgres::Postgres::connect(address).await?)
        } else {
            Backend::Sqlite(sqlite::Sqlite::open(Path::new(address)).await?)
        };
        Ok(Store { backend })
    }

    /// A private in-memory SQLite database, for tests and one-off games.
    pub async fn memory() -> Result<Store, StoreError> {
        Ok(Store { backend: Backend::Sqlite(sqlite::Sqlite::memory().await?) })
    }

    /// Which backend this is.
    pub fn dialect(&self) -> Dialect {
        match self.backend {
            Backend::Sqlite(_) => Dialect::Sqlite,
            Backend::Postgres(_) => Dialect::Postgres,
        }
    }

    /// The number of migrations applied (the schema's version).
    pub async fn schema_version(&self) -> Result<usize, StoreError> {
        dispatch!(self.schema_version())
    }

    /// Registers a player for a game with a fresh id and code.
    pub async fn add_player(&self, name: &str, game: &str) -> Result<Player, StoreError> {
        let player = Player { id: random_id(), name: name.to_string(), game: game.to_string(), code: random_code() };
        dispatch!(self.add_player(player))
    }

    /// A player by id.
    pub async fn player(&self, id: &str) -> Result<Option<Player>, StoreError> {
        dispatch!(self.player(id))
    }

    /// The player whose id and code both match, if any. The comparison of
    /// codes does not stop at the first differing byte.
    pub async fn authenticate(&self, id: &str, code: &str) -> Result<Option<Player>, StoreError> {
        Ok(self.player(id).await?.filter(|p| constant_time_eq(p.code.as_bytes(), code.as_bytes())))
    }

    /// Every player, by name.
    pub async fn players(&self) -> Result<Vec<Player>, StoreError> {
        dispatch!(self.players())
    }

    /// Removes a player with their scores and ratings.
    pub async fn remove_player(&self, id: &str) -> Result<(), StoreError> {
        dispatch!(self.remove_player(id))
    }

    /// Adds a batch of deltas in one transaction. A delta for a player
    /// removed meanwhile is dropped. A total goes below zero only by deltas
    /// that are not [`ScoreDelta::floored`].
    pub async fn add_scores(&self, game: &str, deltas: &[ScoreDelta]) -> Result<(), StoreError> {
        if deltas.is_empty() {
            return Ok(());
        }
        dispatch!(self.add_scores(game, deltas, None)).map(drop)
    }

    /// How many resets the scores of `game` have seen (a reset of every
    /// game counts for each): what [`add_scores_at`](Self::add_scores_at)
    /// compares with.
    pub async fn score_epoch(&self, game: &str) -> Result<i64, StoreError> {
        dispatch!(self.score_epoch(game))
    }

    /// [`add_scores`](Self::add_scores), but only if the scores of `game`
    /// have not been reset since [`score_epoch`](Self::score_epoch) gave
    /// `epoch`; otherwise nothing is written. A room keeps points pending
    /// for a while, so a reset (from an admin on any node) must not be
    /// undone by points earned before it.
    pub async fn add_scores_at(&self, game: &str, deltas: &[ScoreDelta], epoch: i64) -> Result<ScoresWritten, StoreError> {
        dispatch!(self.add_scores(game, deltas, Some(epoch)))
    }

    /// The leaderboard of a game, best first, over every node's scores.
    pub async fn leaderboard(&self, game: &str) -> Result<Vec<ScoreRow>, StoreError> {
        dispatch!(self.leaderboard(game))
    }

    /// Sets every score of a game (or of all games) to zero; returns the
    /// number of rows cleared.
    pub async fn reset_scores(&self, game: Option<&str>) -> Result<usize, StoreError> {
        dispatch!(self.reset_scores(game))
    }

    /// Saves a player's program, replacing the previous one.
    pub async fn save_code(&self, code: &CodeRow) -> Result<(), StoreError> {
        dispatch!(self.save_code(code))
    }

    /// A player's program, if they saved one.
    pub async fn code(&self, player_id: &str) -> Result<Option<CodeRow>, StoreError> {
        dispatch!(self.code(player_id))
    }

    /// Every saved program, oldest first.
    pub async fn all_code(&self) -> Result<Vec<CodeRow>, StoreError> {
        dispatch!(self.all_code())
    }

    /// Creates or updates a room.
    pub async fn save_room(&self, room: &RoomRow) -> Result<(), StoreError> {
        dispatch!(self.save_room(room))
    }

    /// Every room, by name.
    pub async fn rooms(&self) -> Result<Vec<RoomRow>, StoreError> {
        dispatch!(self.rooms())
    }

    /// Deletes a room, with the players' seats in it and its lobby view;
    /// `false` when there was no such room. Its scores and kept games stay.
    pub async fn remove_room(&self, name: &str) -> Result<bool, StoreError> {
        dispatch!(self.remove_room(name))
    }

    /// Records the room a player sits in (replacing the previous one, and
    /// any reservation), so that every node can find it, and the node
    /// itself after a restart.
    pub async fn set_seat(&self, player_id: &str, room: &str) -> Result<(), StoreError> {
        dispatch!(self.set_seat(player_id, room))
    }

    /// Keeps the player's seat in `room` for them until `until_unix_ms`,
    /// over restarts, until they are seated elsewhere
    /// ([`set_seat`](Self::set_seat) ends it); `false` when the player's
    /// recorded room is not `room`.
    pub async fn reserve_seat(&self, player_id: &str, room: &str, until_unix_ms: i64) -> Result<bool, StoreError> {
        dispatch!(self.reserve_seat(player_id, room, until_unix_ms))
    }

    /// The reservations that last past `now_unix_ms`, by player.
    pub async fn seat_reservations(&self, now_unix_ms: i64) -> Result<Vec<SeatReservation>, StoreError> {
        dispatch!(self.seat_reservations(now_unix_ms))
    }

    /// The room a player last sat in, if any.
    pub async fn seat(&self, player_id: &str) -> Result<Option<String>, StoreError> {
        dispatch!(self.seat(player_id))
    }

    /// Keeps a finished game; returns its id.
    pub async fn save_replay(&self, replay: &NewReplay) -> Result<i64, StoreError> {
        dispatch!(self.save_replay(replay))
    }

    /// Deletes the games of `origin` in which no registered player took
    /// part ([`NewReplay::is_unowned`]) except the newest `keep`; returns
    /// how many went. A room calls it as it keeps such a game, so that
    /// built-in bots playing each other all day do not fill the disk.
    pub async fn prune_unowned_replays(&self, origin: &str, keep: u32) -> Result<u64, StoreError> {
        dispatch!(self.prune_unowned_replays(origin, keep))
    }

    /// Deletes the games of `player_id` older than their newest `keep`,
    /// except a game that is still among the newest `keep` of another
    /// registered player in it; returns how many went. A room or worker
    /// calls it for each player of a game it keeps, so that a program that
    /// loses in its first move all day does not fill the disk, while
    /// every player still finds their latest games. `keep` 0 keeps
    /// everything.
    pub async fn prune_player_replays(&self, player_id: &str, keep: u32) -> Result<u64, StoreError> {
        if keep == 0 {
            return Ok(0);
        }
        dispatch!(self.prune_player_replays(player_id, keep))
    }

    /// [`prune_player_replays`](Self::prune_player_replays) for every
    /// registered player of a game's seats (`""` is no player); `keep` 0
    /// keeps everything.
    pub async fn prune_players_replays(&self, players: &[String], keep: u32) -> Result<u64, StoreError> {
        let mut deleted = 0;
        let mut seen = std::collections::BTreeSet::new();
        for p in players.iter().filter(|p| !p.is_empty()) {
            if seen.insert(p) {
                deleted += self.prune_player_replays(p, keep).await?;
            }
        }
        Ok(deleted)
    }

    /// Whether a replay is kept (it may have been pruned).
    pub async fn has_replay(&self, id: i64) -> Result<bool, StoreError> {
        dispatch!(self.has_replay(id))
    }

    /// A kept replay's summary and body.
    pub async fn replay(&self, id: i64) -> Result<Option<(ReplayInfo, String)>, StoreError> {
        dispatch!(self.replay(id))
    }

    /// A kept replay's stderr log (`""` when none was kept).
    pub async fn replay_stderr_log(&self, id: i64) -> Result<Option<String>, StoreError> {
        dispatch!(self.replay_stderr_log(id))
    }

    /// A player's latest games (only those from `origin` when given),
    /// newest first, at most `limit`.
    pub async fn replays_of(&self, player_id: &str, origin: Option<&str>, limit: u32) -> Result<Vec<ReplayInfo>, StoreError> {
        self.replays_of_page(player_id, origin, Page::from(limit)).await
    }

    /// [`replays_of`](Self::replays_of), one [`Page`].
    pub async fn replays_of_page(&self, player_id: &str, origin: Option<&str>, page: Page) -> Result<Vec<ReplayInfo>, StoreError> {
        dispatch!(self.replays_of(player_id, origin, page))
    }

    /// The latest games kept, newest first, at most `limit`.
    pub async fn recent_replays(&self, limit: u32) -> Result<Vec<ReplayInfo>, StoreError> {
        self.recent_replays_page(Page::from(limit)).await
    }

    /// [`recent_replays`](Self::recent_replays), one [`Page`].
    pub async fn recent_replays_page(&self, page: Page) -> Result<Vec<ReplayInfo>, StoreError> {
        dispatch!(self.recent_replays(page))
    }

    /// The latest games kept from one origin (a room's name, `ladder`,
    /// `fork`), newest first, at most `limit`.
    pub async fn replays_from(&self, origin: &str, limit: u32) -> Result<Vec<ReplayInfo>, StoreError> {
        self.replays_from_page(origin, Page::from(limit)).await
    }

    /// [`replays_from`](Self::replays_from), one [`Page`].
    pub async fn replays_from_page(&self, origin: &str, page: Page) -> Result<Vec<ReplayInfo>, StoreError> {
        dispatch!(self.replays_from(origin, page))
    }

    /// The ratings of a game, best first.
    pub async fn ratings(&self, game: &str) -> Result<Vec<RatingRow>, StoreError> {
        dispatch!(self.ratings(game))
    }

    /// Writes new ratings in one transaction (rows of removed players are
    /// dropped).
    pub async fn set_ratings(&self, game: &str, rows: &[RatingRow]) -> Result<(), StoreError> {
        if rows.is_empty() {
            return Ok(());
        }
        dispatch!(self.set_ratings(game, rows))
    }

    /// Queues games for workers; returns their ids in order.
    pub async fn enqueue_matches(&self, matches: &[NewMatch]) -> Result<Vec<i64>, StoreError> {
        if matches.is_empty() {
            return Ok(Vec::new());
        }
        dispatch!(self.enqueue_matches(matches))
    }

    /// Claims the oldest game that is queued or whose worker's lease has
    /// lapsed, for `lease_ms` milliseconds. Concurrent callers never get the
    /// same game while its lease runs.
    pub async fn claim_match(&self, worker: &str, lease_ms: u64) -> Result<Option<ClaimedMatch>, StoreError> {
        dispatch!(self.claim_match(worker, lease_ms))
    }

    /// Extends a claim; false when the worker no longer holds the game.
    pub async fn renew_match(&self, id: i64, worker: &str, lease_ms: u64) -> Result<bool, StoreError> {
        dispatch!(self.renew_match(id, worker, lease_ms))
    }

    /// Records a claimed game's result; false (and nothing written) when the
    /// worker no longer holds it, so a game that was handed to another
    /// worker counts once.
    pub async fn finish_match(
        &self,
        id: i64,
        worker: &str,
        result: &str,
        replay_id: Option<i64>,
    ) -> Result<bool, StoreError> {
        dispatch!(self.finish_match(id, worker, result, replay_id))
    }

    /// The result of a finished game.
    pub async fn match_result(&self, id: i64) -> Result<Option<String>, StoreError> {
        dispatch!(self.match_result(id))
    }

    /// Where a queued game is: its state, and once done its result and
    /// replay.
    pub async fn match_status(&self, id: i64) -> Result<Option<MatchStatus>, StoreError> {
        dispatch!(self.match_status(id))
    }

    /// How many games are queued, running and done.
    pub async fn queue_counts(&self) -> Result<QueueCounts, StoreError> {
        dispatch!(self.queue_counts())
    }

    /// Takes or renews `resource` for `node` until `ttl_ms` from now, if it
    /// is free, lapsed, or already `node`'s. True when `node` holds it.
    pub async fn acquire_lease(&self, resource: &str, node: &str, ttl_ms: u64) -> Result<bool, StoreError> {
        dispatch!(self.acquire_lease(resource, node, ttl_ms))
    }

    /// Gives `resource` up if `node` holds it.
    pub async fn release_lease(&self, resource: &str, node: &str) -> Result<(), StoreError> {
        dispatch!(self.release_lease(resource, node))
    }

    /// The node holding `resource` now, if its lease runs.
    pub async fn lease_holder(&self, resource: &str) -> Result<Option<String>, StoreError> {
        dispatch!(self.lease_holder(resource))
    }

    /// Says that `node` serves at `url` for the next `ttl_ms` milliseconds
    /// (repeated as a heartbeat).
    pub async fn announce_node(&self, node: &str, url: &str, ttl_ms: u64) -> Result<(), StoreError> {
        dispatch!(self.announce_node(node, url, ttl_ms))
    }

    /// Writes how `node`'s rooms look (`(name, summary JSON)`), valid for
    /// `ttl_ms` milliseconds.
    pub async fn set_room_views(&self, node: &str, views: &[(String, String)], ttl_ms: u64) -> Result<(), StoreError> {
        if views.is_empty() {
            return Ok(());
        }
        dispatch!(self.set_room_views(node, views, ttl_ms))
    }

    /// The rooms' views that have not lapsed, by name.
    pub async fn room_views(&self) -> Result<Vec<RoomView>, StoreError> {
        dispatch!(self.room_views())
    }

    /// The nodes whose announcement has not lapsed, by name.
    pub async fn live_nodes(&self) -> Result<Vec<NodeRow>, StoreError> {
        dispatch!(self.live_nodes())
    }
}

/// A room as the node running it last described it for the lobby.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomView {
    /// The room's name.
    pub name: String,
    /// The node that runs it.
    pub node: String,
    /// Its lobby summary, JSON.
    pub summary: String,
}

/// A node that announced itself and has not lapsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeRow {
    /// The node's name.
    pub id: String,
    /// Where other nodes reach it (`http://host:port`).
    pub url: String,
}

/// What [`Store::add_scores_at`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoresWritten {
    /// The deltas were added.
    Applied,
    /// The game's scores were reset since; nothing was written. `epoch` is
    /// the count now.
    Reset {
        /// The game's reset count now.
        epoch: i64,
    },
}

/// Finished games each registered player keeps by default (their latest;
/// see [`Store::prune_player_replays`]): enough for a contestant to look
/// back over a long evening, few enough that a program failing every game
/// cannot fill the disk.
pub const GAMES_KEPT_PER_PLAYER_DEFAULT: u32 = 1000;

/// Whether an address names a PostgreSQL server.
pub fn is_postgres_url(address: &str) -> bool {
    address.starts_with("postgres://") || address.starts_with("postgresql://")
}

/// The migrations of one dialect: file name and SQL, in order.
pub type Migrations = &'static [(&'static str, &'static str)];

/// Converts a stored integer that must not be negative.
fn unsigned(v: i64, what: &str) -> Result<u64, StoreError> {
    u64::try_from(v).map_err(|_| StoreError::Corrupt(format!("{what} is {v}")))
}

/// Seeds and durations are stored as signed 64-bit integers, the only
/// width both databases have; the bits are kept.
fn u64_to_db(v: u64) -> i64 {
    v as i64
}

fn u64_from_db(v: i64) -> u64 {
    v as u64
}

fn players_to_json(players: &[String]) -> String {
    serde_json::to_string(players).expect("a list of strings serialises")
}

fn players_from_json(text: &str) -> Result<Vec<String>, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("replay players {text:?}: {e}")))
}

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).expect("the OS random source works");
    b
}

/// 20 characters of `[a-z0-9]`, as Codenjoy ids are.
pub fn random_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    random_bytes::<20>().iter().map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char).collect()
}

/// A decimal code of 18 or 19 digits, as Codenjoy codes are (the absolute
/// value of a random long); no leading zero so it reads as a number.
pub fn random_code() -> String {
    let v = u64::from_le_bytes(random_bytes::<8>()) & (i64::MAX as u64);
    let v = v.max(100_000_000_000_000_000);
    v.to_string()
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dialects' migration lists must match name for name, so that a
    /// schema version means the same tables in both.
    #[test]
    fn migrations_are_in_step() {
        let names = |m: Migrations| m.iter().map(|(n, _)| *n).collect::<Vec<_>>();
        assert_eq!(names(sqlite::MIGRATIONS), names(postgres::MIGRATIONS));
    }

    #[test]
    fn urls() {
        assert!(is_postgres_url("postgres://u@127.0.0.1:5432/db"));
        assert!(is_postgres_url("postgresql://localhost/db"));
        assert!(!is_postgres_url("snakepit.sqlite"));
        assert!(!is_postgres_url("/var/lib/postgres.sqlite"));
    }

    #[test]
    fn seeds_keep_their_bits() {
        for s in [0, 1, u64::MAX, i64::MAX as u64 + 1] {
            assert_eq!(u64_from_db(u64_to_db(s)), s);
        }
    }
}
