//! The PostgreSQL backend: the store that several nodes and workers share.
//!
//! A small fixed pool of connections, each behind its own async lock, taken
//! in turn: statements on one connection run one after another, so a
//! transaction never interleaves with another task's statements. The
//! migration version lives in `snakepit_schema`; nodes that start together
//! take an advisory lock so that exactly one of them migrates.

use crate::{
    ClaimedMatch, CodeRow, MatchStatus, Migrations, NewMatch, NewReplay, NodeRow, Page, RoomView, Player, QueueCounts, RatingRow, ReplayInfo, RoomRow, ScoreDelta, ScoreRow, ScoresWritten, SeatReservation,
    StoreError, players_from_json, players_to_json, u64_from_db, u64_to_db, unsigned,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::{Mutex, MutexGuard};
use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, NoTls, Row};

/// Migrations, in order, name for name those of SQLite.
pub(crate) const MIGRATIONS: Migrations = &[
    ("001_init", include_str!("../migrations/postgres/001_init.sql")),
    ("002_player_game", include_str!("../migrations/postgres/002_player_game.sql")),
    ("003_code", include_str!("../migrations/postgres/003_code.sql")),
    ("004_coordination", include_str!("../migrations/postgres/004_coordination.sql")),
    ("005_seats", include_str!("../migrations/postgres/005_seats.sql")),
    ("006_replay_stderr", include_str!("../migrations/postgres/006_replay_stderr.sql")),
    ("007_room_views", include_str!("../migrations/postgres/007_room_views.sql")),
    ("008_unowned_replays", include_str!("../migrations/postgres/008_unowned_replays.sql")),
    ("009_arrival_rooms", include_str!("../migrations/postgres/009_arrival_rooms.sql")),
    ("010_score_epochs", include_str!("../migrations/postgres/010_score_epochs.sql")),
    ("011_replay_players_by_replay", include_str!("../migrations/postgres/011_replay_players_by_replay.sql")),
    ("012_seat_reservations", include_str!("../migrations/postgres/012_seat_reservations.sql")),
];

/// Connections per node: enough for a room flush, a page and a worker to
/// overlap, few enough that many nodes stay under the server's limit.
const POOL_SIZE: usize = 4;

/// Key of the advisory lock held while migrating (any constant unique to
/// snakepit).
const MIGRATION_LOCK_KEY: i64 = 0x736e_616b_6570;

/// The database clock in unix milliseconds, as SQL.
const NOW_MS: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

#[derive(Clone)]
pub(crate) struct Postgres {
    pool: Arc<Pool>,
}

struct Pool {
    clients: Vec<Mutex<Client>>,
    next: AtomicUsize,
}

impl Postgres {
    pub(crate) async fn connect(url: &str) -> Result<Postgres, StoreError> {
        let mut clients = Vec::with_capacity(POOL_SIZE);
        for _ in 0..POOL_SIZE {
            let (client, connection) = tokio_postgres::connect(url, NoTls).await?;
            // The connection object does the socket I/O; it ends when the
            // client is dropped or the server goes away (then every call
            // returns an error, which callers log and retry).
            tokio::spawn(async move {
                if let Err(e) = connection.await {
                    tracing::warn!("PostgreSQL connection closed: {e}");
                }
            });
            clients.push(Mutex::new(client));
        }
        let db = Postgres { pool: Arc::new(Pool { clients, next: AtomicUsize::new(0) }) };
        db.migrate().await?;
        Ok(db)
    }

    async fn client(&self) -> MutexGuard<'_, Client> {
        let i = self.pool.next.fetch_add(1, Ordering::Relaxed) % self.pool.clients.len();
        self.pool.clients[i].lock().await
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        let mut c = self.client().await;
        c.execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK_KEY]).await?;
        let result = async {
            c.batch_execute("CREATE TABLE IF NOT EXISTS snakepit_schema (version BIGINT NOT NULL)").await?;
            let tx = c.transaction().await?;
            let version: i64 = match tx.query_opt("SELECT version FROM snakepit_schema", &[]).await? {
                Some(row) => row.get(0),
                None => {
                    tx.execute("INSERT INTO snakepit_schema (version) VALUES (0)", &[]).await?;
                    0
                }
            };
            tx.commit().await?;
            let done = usize::try_from(version).map_err(|_| StoreError::Corrupt(format!("schema version {version}")))?;
            for (i, (_, sql)) in MIGRATIONS.iter().enumerate().skip(done) {
                let tx = c.transaction().await?;
                tx.batch_execute(sql).await?;
                tx.execute("UPDATE snakepit_schema SET version = $1", &[&((i + 1) as i64)]).await?;
                tx.commit().await?;
            }
            Ok::<_, StoreError>(())
        }
        .await;
        c.execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK_KEY]).await?;
        result
    }

    pub(crate) async fn schema_version(&self) -> Result<usize, StoreError> {
        let row = self.client().await.query_one("SELECT version FROM snakepit_schema", &[]).await?;
        let v: i64 = row.get(0);
        Ok(unsigned(v, "schema version")? as usize)
    }

    pub(crate) async fn add_player(&self, player: Player) -> Result<Player, StoreError> {
        // Names differing only in letter case are one name.
        let res = self
            .client()
            .await
            .execute(
                &format!(
                    "INSERT INTO players (id, name, code, created_at, game) SELECT $1::text, $2::text, $3::text, {NOW_MS} / 1000, $4::text
                     WHERE NOT EXISTS (SELECT 1 FROM players WHERE lower(name) = lower($2::text))"
                ),
                &[&player.id, &player.name, &player.code, &player.game],
            )
            .await;
        match res {
            Ok(0) => Err(StoreError::NameTaken(player.name)),
            Ok(_) => Ok(player),
            Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => Err(StoreError::NameTaken(player.name)),
            Err(e) => Err(e.into()),
        }
    }

    pub(crate) async fn player(&self, id: &str) -> Result<Option<Player>, StoreError> {
        let row = self.client().await.query_opt("SELECT id, name, code, game FROM players WHERE id = $1", &[&id]).await?;
        Ok(row.map(|r| player_row(&r)))
    }

    pub(crate) async fn players(&self) -> Result<Vec<Player>, StoreError> {
        let rows = self.client().await.query("SELECT id, name, code, game FROM players ORDER BY name", &[]).await?;
        Ok(rows.iter().map(player_row).collect())
    }

    pub(crate) async fn remove_player(&self, id: &str) -> Result<(), StoreError> {
        if self.client().await.execute("DELETE FROM players WHERE id = $1", &[&id]).await? == 0 {
            return Err(StoreError::NoPlayer(id.to_string()));
        }
        Ok(())
    }

    pub(crate) async fn score_epoch(&self, game: &str) -> Result<i64, StoreError> {
        let row = self
            .client()
            .await
            .query_one("SELECT COALESCE(SUM(epoch), 0)::BIGINT FROM score_epochs WHERE game IN ($1, '*')", &[&game])
            .await?;
        Ok(row.get(0))
    }

    pub(crate) async fn add_scores(
        &self,
        game: &str,
        deltas: &[ScoreDelta],
        epoch: Option<i64>,
    ) -> Result<ScoresWritten, StoreError> {
        let mut c = self.client().await;
        let tx = c.transaction().await?;
        if let Some(expected) = epoch {
            // The epoch rows exist and are share-locked for the
            // transaction, so a reset (which updates them) commits wholly
            // before this check or after these deltas.
            tx.execute("INSERT INTO score_epochs (game, epoch) VALUES ($1, 0), ('*', 0) ON CONFLICT DO NOTHING", &[&game])
                .await?;
            let row = tx
                .query_one(
                    "SELECT COALESCE(SUM(epoch), 0)::BIGINT FROM (SELECT epoch FROM score_epochs WHERE game IN ($1, '*') FOR SHARE) e",
                    &[&game],
                )
                .await?;
            let now: i64 = row.get(0);
            if now != expected {
                return Ok(ScoresWritten::Reset { epoch: now });
            }
        }
        // The row is created only for a player that still exists (a failed
        // insert would abort the whole batch), then updated so that any
        // floor applies to the total, not the delta.
        let create = tx
            .prepare(
                "INSERT INTO scores (player_id, game) SELECT $1, $2 WHERE EXISTS (SELECT 1 FROM players WHERE id = $1)
                 ON CONFLICT DO NOTHING",
            )
            .await?;
        let update = tx
            .prepare(
                "UPDATE scores SET score = GREATEST(score + $3, $7), deaths = deaths + $4, kills = kills + $5, wins = wins + $6
                 WHERE player_id = $1 AND game = $2",
            )
            .await?;
        for d in deltas {
            tx.execute(&create, &[&d.player_id, &game]).await?;
            tx.execute(&update, &[&d.player_id, &game, &d.score, &d.deaths, &d.kills, &d.wins, &d.total_min()]).await?;
        }
        tx.commit().await?;
        Ok(ScoresWritten::Applied)
    }

    pub(crate) async fn leaderboard(&self, game: &str) -> Result<Vec<ScoreRow>, StoreError> {
        let rows = self
            .client()
            .await
            .query(
                "SELECT p.id, p.name, s.score, s.deaths, s.kills, s.wins FROM scores s JOIN players p ON p.id = s.player_id
                 WHERE s.game = $1 ORDER BY s.score DESC, p.name",
                &[&game],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| ScoreRow {
                player_id: r.get(0),
                name: r.get(1),
                score: r.get(2),
                deaths: r.get(3),
                kills: r.get(4),
                wins: r.get(5),
            })
            .collect())
    }

    pub(crate) async fn reset_scores(&self, game: Option<&str>) -> Result<usize, StoreError> {
        let mut c = self.client().await;
        let tx = c.transaction().await?;
        let n = match game {
            Some(g) => tx.execute("DELETE FROM scores WHERE game = $1", &[&g]).await?,
            None => tx.execute("DELETE FROM scores", &[]).await?,
        };
        tx.execute(
            "INSERT INTO score_epochs (game, epoch) VALUES ($1, 1) ON CONFLICT (game) DO UPDATE SET epoch = score_epochs.epoch + 1",
            &[&game.unwrap_or("*")],
        )
        .await?;
        tx.commit().await?;
        Ok(n as usize)
    }

    pub(crate) async fn save_code(&self, code: &CodeRow) -> Result<(), StoreError> {
        let res = self
            .client()
            .await
            .execute(
                &format!(
                    "INSERT INTO code (player_id, lang, name, source, updated_at) VALUES ($1, $2, $3, $4, {NOW_MS} / 1000)
                     ON CONFLICT (player_id) DO UPDATE SET lang = excluded.lang, name = excluded.name,
                       source = excluded.source, updated_at = excluded.updated_at"
                ),
                &[&code.player_id, &code.lang, &code.name, &code.source],
            )
            .await;
        match res {
            Ok(_) => Ok(()),
            Err(e) if e.code() == Some(&SqlState::FOREIGN_KEY_VIOLATION) => Err(StoreError::NoPlayer(code.player_id.clone())),
            Err(e) => Err(e.into()),
        }
    }

    pub(crate) async fn code(&self, player_id: &str) -> Result<Option<CodeRow>, StoreError> {
        let row = self
            .client()
            .await
            .query_opt("SELECT player_id, lang, name, source FROM code WHERE player_id = $1", &[&player_id])
            .await?;
        Ok(row.map(|r| code_row(&r)))
    }

    pub(crate) async fn all_code(&self) -> Result<Vec<CodeRow>, StoreError> {
        let rows = self
            .client()
            .await
            .query("SELECT player_id, lang, name, source FROM code ORDER BY updated_at, player_id", &[])
            .await?;
        Ok(rows.iter().map(code_row).collect())
    }

    pub(crate) async fn save_room(&self, room: &RoomRow) -> Result<(), StoreError> {
        self.client()
            .await
            .execute(
                "INSERT INTO rooms (name, game, tick_ms, paused, seed, for_arrivals) VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (name) DO UPDATE SET game = excluded.game, tick_ms = excluded.tick_ms,
                   paused = excluded.paused, seed = excluded.seed, for_arrivals = excluded.for_arrivals",
                &[
                    &room.name,
                    &room.game,
                    &u64_to_db(room.tick_ms),
                    &room.paused,
                    &u64_to_db(room.seed),
                    &i32::from(room.for_arrivals),
                ],
            )
            .await?;
        Ok(())
    }

    pub(crate) async fn remove_room(&self, name: &str) -> Result<bool, StoreError> {
        let mut c = self.client().await;
        let tx = c.transaction().await?;
        tx.execute("DELETE FROM seats WHERE room = $1", &[&name]).await?;
        tx.execute("DELETE FROM room_views WHERE name = $1", &[&name]).await?;
        let removed = tx.execute("DELETE FROM rooms WHERE name = $1", &[&name]).await?;
        tx.commit().await?;
        Ok(removed > 0)
    }

    pub(crate) async fn set_seat(&self, player_id: &str, room: &str) -> Result<(), StoreError> {
        let res = self
            .client()
            .await
            .execute(
                "INSERT INTO seats (player_id, room) VALUES ($1, $2) ON CONFLICT (player_id) DO UPDATE SET room = excluded.room, reserved_until_ms = NULL",
                &[&player_id, &room],
            )
            .await;
        match res {
            Ok(_) => Ok(()),
            Err(e) if e.code() == Some(&SqlState::FOREIGN_KEY_VIOLATION) => Err(StoreError::NoPlayer(player_id.to_string())),
            Err(e) => Err(e.into()),
        }
    }

    pub(crate) async fn reserve_seat(&self, player_id: &str, room: &str, until_unix_ms: i64) -> Result<bool, StoreError> {
        let n = self
            .client()
            .await
            .execute("UPDATE seats SET reserved_until_ms = $1 WHERE player_id = $2 AND room = $3", &[&until_unix_ms, &player_id, &room])
            .await?;
        Ok(n > 0)
    }

    pub(crate) async fn seat_reservations(&self, now_unix_ms: i64) -> Result<Vec<SeatReservation>, StoreError> {
        let rows = self
            .client()
            .await
            .query("SELECT player_id, room, reserved_until_ms FROM seats WHERE reserved_until_ms > $1 ORDER BY player_id", &[&now_unix_ms])
            .await?;
        Ok(rows.iter().map(|r| SeatReservation { player_id: r.get(0), room: r.get(1), until_unix_ms: r.get(2) }).collect())
    }

    pub(crate) async fn seat(&self, player_id: &str) -> Result<Option<String>, StoreError> {
        let row = self.client().await.query_opt("SELECT room FROM seats WHERE player_id = $1", &[&player_id]).await?;
        Ok(row.map(|r| r.get(0)))
    }

    pub(crate) async fn rooms(&self) -> Result<Vec<RoomRow>, StoreError> {
        let rows = self
            .client()
            .await
            .query("SELECT name, game, tick_ms, paused, seed, for_arrivals FROM rooms ORDER BY name", &[])
            .await?;
        rows.iter()
            .map(|r| {
                Ok(RoomRow {
                    name: r.get(0),
                    game: r.get(1),
                    tick_ms: unsigned(r.get(2), "tick_ms")?,
                    paused: r.get(3),
                    seed: u64_from_db(r.get(4)),
                    for_arrivals: r.get::<_, i32>(5) != 0,
                })
            })
            .collect()
    }

    pub(crate) async fn save_replay(&self, replay: &NewReplay) -> Result<i64, StoreError> {
        let mut c = self.client().await;
        let tx = c.transaction().await?;
        let row = tx
            .query_one(
                &format!(
                    "INSERT INTO replays (game, origin, players, result, body, stderr_log, unowned, created_ms)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, {NOW_MS}) RETURNING id"
                ),
                &[
                    &replay.game,
                    &replay.origin,
                    &players_to_json(&replay.players),
                    &replay.result,
                    &replay.body,
                    &replay.stderr_log,
                    &i32::from(replay.is_unowned()),
                ],
            )
            .await?;
        let id: i64 = row.get(0);
        for p in replay.players.iter().filter(|p| !p.is_empty()) {
            tx.execute(
                "INSERT INTO replay_players (replay_id, player_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                &[&id, p],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(id)
    }

    pub(crate) async fn prune_unowned_replays(&self, origin: &str, keep: u32) -> Result<u64, StoreError> {
        let deleted = self
            .client()
            .await
            .execute(
                "DELETE FROM replays WHERE id IN
                 (SELECT id FROM replays WHERE origin = $1 AND unowned = 1 ORDER BY id DESC OFFSET $2)",
                &[&origin, &i64::from(keep)],
            )
            .await?;
        Ok(deleted)
    }

    pub(crate) async fn prune_player_replays(&self, player_id: &str, keep: u32) -> Result<u64, StoreError> {
        // As in SQLite: a game goes when, for each of its players, at least
        // `keep` newer games of that player exist.
        let deleted = self
            .client()
            .await
            .execute(
                "DELETE FROM replays WHERE id IN
                 (SELECT mine.replay_id FROM
                   (SELECT replay_id FROM replay_players WHERE player_id = $1 ORDER BY replay_id DESC OFFSET $2) mine
                  WHERE NOT EXISTS (SELECT 1 FROM replay_players o WHERE o.replay_id = mine.replay_id AND o.player_id <> $1
                    AND NOT EXISTS (SELECT 1 FROM replay_players n WHERE n.player_id = o.player_id AND n.replay_id > mine.replay_id
                      ORDER BY n.replay_id LIMIT 1 OFFSET $2 - 1)))",
                &[&player_id, &i64::from(keep)],
            )
            .await?;
        Ok(deleted)
    }

    pub(crate) async fn has_replay(&self, id: i64) -> Result<bool, StoreError> {
        Ok(self.client().await.query_opt("SELECT 1 FROM replays WHERE id = $1", &[&id]).await?.is_some())
    }

    pub(crate) async fn replay(&self, id: i64) -> Result<Option<(ReplayInfo, String)>, StoreError> {
        let row = self
            .client()
            .await
            .query_opt("SELECT id, game, origin, players, result, created_ms, body FROM replays WHERE id = $1", &[&id])
            .await?;
        row.map(|r| Ok((info_row(&r)?, r.get(6)))).transpose()
    }

    pub(crate) async fn replays_of(&self, player_id: &str, origin: Option<&str>, page: Page) -> Result<Vec<ReplayInfo>, StoreError> {
        let rows = self
            .client()
            .await
            .query(
                "SELECT r.id, r.game, r.origin, r.players, r.result, r.created_ms FROM replay_players l
                 JOIN replays r ON r.id = l.replay_id WHERE l.player_id = $1 AND ($3::text IS NULL OR r.origin = $3)
                 AND ($4::bigint IS NULL OR r.id < $4) ORDER BY r.id DESC LIMIT $2",
                &[&player_id, &i64::from(page.limit), &origin, &page.before],
            )
            .await?;
        rows.iter().map(info_row).collect()
    }

    pub(crate) async fn recent_replays(&self, page: Page) -> Result<Vec<ReplayInfo>, StoreError> {
        let rows = self
            .client()
            .await
            .query(
                "SELECT id, game, origin, players, result, created_ms FROM replays WHERE ($2::bigint IS NULL OR id < $2)
                 ORDER BY id DESC LIMIT $1",
                &[&i64::from(page.limit), &page.before],
            )
            .await?;
        rows.iter().map(info_row).collect()
    }

    pub(crate) async fn replays_from(&self, origin: &str, page: Page) -> Result<Vec<ReplayInfo>, StoreError> {
        let rows = self
            .client()
            .await
            .query(
                "SELECT id, game, origin, players, result, created_ms FROM replays WHERE origin = $1 AND ($3::bigint IS NULL OR id < $3)
                 ORDER BY id DESC LIMIT $2",
                &[&origin, &i64::from(page.limit), &page.before],
            )
            .await?;
        rows.iter().map(info_row).collect()
    }

    pub(crate) async fn ratings(&self, game: &str) -> Result<Vec<RatingRow>, StoreError> {
        let rows = self
            .client()
            .await
            .query(
                "SELECT player_id, rating, uncertainty, games FROM ratings WHERE game = $1 ORDER BY rating DESC, player_id",
                &[&game],
            )
            .await?;
        Ok(rows.iter().map(|r| RatingRow { player_id: r.get(0), rating: r.get(1), uncertainty: r.get(2), games: r.get(3) }).collect())
    }

    pub(crate) async fn set_ratings(&self, game: &str, rows: &[RatingRow]) -> Result<(), StoreError> {
        let mut c = self.client().await;
        let tx = c.transaction().await?;
        let up = tx
            .prepare(
                "INSERT INTO ratings (player_id, game, rating, uncertainty, games)
                 SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM players WHERE id = $1)
                 ON CONFLICT (player_id, game) DO UPDATE SET rating = excluded.rating,
                   uncertainty = excluded.uncertainty, games = excluded.games",
            )
            .await?;
        for r in rows {
            tx.execute(&up, &[&r.player_id, &game, &r.rating, &r.uncertainty, &r.games]).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    pub(crate) async fn enqueue_matches(&self, matches: &[NewMatch]) -> Result<Vec<i64>, StoreError> {
        let mut c = self.client().await;
        let tx = c.transaction().await?;
        let ins = tx.prepare("INSERT INTO matches (game, spec, seed) VALUES ($1, $2, $3) RETURNING id").await?;
        let mut ids = Vec::with_capacity(matches.len());
        for m in matches {
            ids.push(tx.query_one(&ins, &[&m.game, &m.spec, &u64_to_db(m.seed)]).await?.get(0));
        }
        tx.commit().await?;
        Ok(ids)
    }

    pub(crate) async fn claim_match(&self, worker: &str, lease_ms: u64) -> Result<Option<ClaimedMatch>, StoreError> {
        // SKIP LOCKED: concurrent workers each take a different row instead
        // of queueing on the first one.
        let row = self
            .client()
            .await
            .query_opt(
                &format!(
                    "UPDATE matches SET state = 'running', worker = $1, attempts = attempts + 1,
                       lease_until_ms = {NOW_MS} + $2
                     WHERE id = (SELECT id FROM matches
                                 WHERE state = 'queued' OR (state = 'running' AND lease_until_ms < {NOW_MS})
                                 ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
                     RETURNING id, game, spec, seed, attempts"
                ),
                &[&worker, &u64_to_db(lease_ms)],
            )
            .await?;
        Ok(row.map(|r| ClaimedMatch { id: r.get(0), game: r.get(1), spec: r.get(2), seed: u64_from_db(r.get(3)), attempts: r.get(4) }))
    }

    pub(crate) async fn renew_match(&self, id: i64, worker: &str, lease_ms: u64) -> Result<bool, StoreError> {
        let n = self
            .client()
            .await
            .execute(
                &format!(
                    "UPDATE matches SET lease_until_ms = {NOW_MS} + $3
                     WHERE id = $1 AND worker = $2 AND state = 'running' AND lease_until_ms >= {NOW_MS}"
                ),
                &[&id, &worker, &u64_to_db(lease_ms)],
            )
            .await?;
        Ok(n == 1)
    }

    pub(crate) async fn finish_match(
        &self,
        id: i64,
        worker: &str,
        result: &str,
        replay_id: Option<i64>,
    ) -> Result<bool, StoreError> {
        let n = self
            .client()
            .await
            .execute(
                &format!(
                    "UPDATE matches SET state = 'done', result = $3, replay_id = $4
                     WHERE id = $1 AND worker = $2 AND state = 'running' AND lease_until_ms >= {NOW_MS}"
                ),
                &[&id, &worker, &result, &replay_id],
            )
            .await?;
        Ok(n == 1)
    }

    pub(crate) async fn replay_stderr_log(&self, id: i64) -> Result<Option<String>, StoreError> {
        let row = self.client().await.query_opt("SELECT stderr_log FROM replays WHERE id = $1", &[&id]).await?;
        Ok(row.map(|r| r.get(0)))
    }

    pub(crate) async fn match_status(&self, id: i64) -> Result<Option<MatchStatus>, StoreError> {
        let row = self.client().await.query_opt("SELECT state, result, replay_id FROM matches WHERE id = $1", &[&id]).await?;
        Ok(row.map(|r| MatchStatus { state: r.get(0), result: r.get(1), replay_id: r.get(2) }))
    }

    pub(crate) async fn match_result(&self, id: i64) -> Result<Option<String>, StoreError> {
        let row = self.client().await.query_opt("SELECT result FROM matches WHERE id = $1 AND state = 'done'", &[&id]).await?;
        Ok(row.map(|r| r.get(0)))
    }

    pub(crate) async fn queue_counts(&self) -> Result<QueueCounts, StoreError> {
        let rows = self.client().await.query("SELECT state, count(*) FROM matches GROUP BY state", &[]).await?;
        let mut counts = QueueCounts::default();
        for r in &rows {
            let (state, n): (String, i64) = (r.get(0), r.get(1));
            match state.as_str() {
                "queued" => counts.queued = n,
                "running" => counts.running = n,
                "done" => counts.done = n,
                other => return Err(StoreError::Corrupt(format!("match state {other:?}"))),
            }
        }
        Ok(counts)
    }

    pub(crate) async fn acquire_lease(&self, resource: &str, node: &str, ttl_ms: u64) -> Result<bool, StoreError> {
        let row = self
            .client()
            .await
            .query_opt(
                &format!(
                    "INSERT INTO leases (resource, node, until_ms) VALUES ($1, $2, {NOW_MS} + $3)
                     ON CONFLICT (resource) DO UPDATE SET node = excluded.node, until_ms = excluded.until_ms
                       WHERE leases.node = excluded.node OR leases.until_ms < {NOW_MS}
                     RETURNING node"
                ),
                &[&resource, &node, &u64_to_db(ttl_ms)],
            )
            .await?;
        Ok(row.is_some_and(|r| r.get::<_, String>(0) == node))
    }

    pub(crate) async fn release_lease(&self, resource: &str, node: &str) -> Result<(), StoreError> {
        self.client().await.execute("DELETE FROM leases WHERE resource = $1 AND node = $2", &[&resource, &node]).await?;
        Ok(())
    }

    pub(crate) async fn lease_holder(&self, resource: &str) -> Result<Option<String>, StoreError> {
        let row = self
            .client()
            .await
            .query_opt(&format!("SELECT node FROM leases WHERE resource = $1 AND until_ms >= {NOW_MS}"), &[&resource])
            .await?;
        Ok(row.map(|r| r.get(0)))
    }
}

impl Postgres {
    pub(crate) async fn announce_node(&self, node: &str, url: &str, ttl_ms: u64) -> Result<(), StoreError> {
        self.client()
            .await
            .execute(
                &format!(
                    "INSERT INTO nodes (id, url, until_ms) VALUES ($1, $2, {NOW_MS} + $3)
                     ON CONFLICT (id) DO UPDATE SET url = excluded.url, until_ms = excluded.until_ms"
                ),
                &[&node, &url, &u64_to_db(ttl_ms)],
            )
            .await?;
        Ok(())
    }

    pub(crate) async fn set_room_views(&self, node: &str, views: &[(String, String)], ttl_ms: u64) -> Result<(), StoreError> {
        let mut c = self.client().await;
        let tx = c.transaction().await?;
        let sql = format!(
            "INSERT INTO room_views (name, node, summary, until_ms) VALUES ($1, $2, $3, {NOW_MS} + $4)
             ON CONFLICT (name) DO UPDATE SET node = excluded.node, summary = excluded.summary, until_ms = excluded.until_ms"
        );
        for (name, summary) in views {
            tx.execute(&sql, &[name, &node, summary, &u64_to_db(ttl_ms)]).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    pub(crate) async fn room_views(&self) -> Result<Vec<RoomView>, StoreError> {
        let rows = self
            .client()
            .await
            .query(&format!("SELECT name, node, summary FROM room_views WHERE until_ms >= {NOW_MS} ORDER BY name"), &[])
            .await?;
        Ok(rows.iter().map(|r| RoomView { name: r.get(0), node: r.get(1), summary: r.get(2) }).collect())
    }

    pub(crate) async fn live_nodes(&self) -> Result<Vec<NodeRow>, StoreError> {
        let rows = self
            .client()
            .await
            .query(&format!("SELECT id, url FROM nodes WHERE until_ms >= {NOW_MS} ORDER BY id"), &[])
            .await?;
        Ok(rows.iter().map(|r| NodeRow { id: r.get(0), url: r.get(1) }).collect())
    }
}

fn player_row(r: &Row) -> Player {
    Player { id: r.get(0), name: r.get(1), code: r.get(2), game: r.get(3) }
}

fn code_row(r: &Row) -> CodeRow {
    CodeRow { player_id: r.get(0), lang: r.get(1), name: r.get(2), source: r.get(3) }
}

fn info_row(r: &Row) -> Result<ReplayInfo, StoreError> {
    Ok(ReplayInfo {
        id: r.get(0),
        game: r.get(1),
        origin: r.get(2),
        players: players_from_json(r.get(3))?,
        result: r.get(4),
        created_ms: r.get(5),
    })
}
