//! The SQLite backend: one file, one connection, WAL mode.
//!
//! `synchronous=NORMAL` in WAL mode means a committed transaction survives
//! a killed process (only a power cut may lose the last ones). Calls run on
//! tokio's blocking pool, one at a time on the one connection; SQLite
//! serialises writers anyway, and a single node has nobody to share with.
//! The migration version is kept in `PRAGMA user_version`, as the server's
//! earlier databases already do, so they open unchanged.
//!
//! The file holds every player's secret code, so only its owner may read
//! it: it is created 0600 before SQLite opens it (SQLite gives its `-wal`,
//! `-shm` and `-journal` files the database's mode), and an existing
//! database or companion file that others could read is tightened to 0600
//! at open, with a log line.

use crate::{
    ClaimedMatch, CodeRow, MatchStatus, Migrations, NewMatch, NewReplay, NodeRow, Page, RoomView, Player, QueueCounts, RatingRow, ReplayInfo, RoomRow, ScoreDelta, ScoreRow, ScoresWritten, SeatReservation,
    StoreError, players_from_json, players_to_json, u64_from_db, u64_to_db, unsigned,
};
use rusqlite::{Connection, ErrorCode, OptionalExtension, params};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Migrations, in order. The first two are those of databases written
/// before this crate existed.
pub(crate) const MIGRATIONS: Migrations = &[
    ("001_init", include_str!("../migrations/sqlite/001_init.sql")),
    ("002_player_game", include_str!("../migrations/sqlite/002_player_game.sql")),
    ("003_code", include_str!("../migrations/sqlite/003_code.sql")),
    ("004_coordination", include_str!("../migrations/sqlite/004_coordination.sql")),
    ("005_seats", include_str!("../migrations/sqlite/005_seats.sql")),
    ("006_replay_stderr", include_str!("../migrations/sqlite/006_replay_stderr.sql")),
    ("007_room_views", include_str!("../migrations/sqlite/007_room_views.sql")),
    ("008_unowned_replays", include_str!("../migrations/sqlite/008_unowned_replays.sql")),
    ("009_arrival_rooms", include_str!("../migrations/sqlite/009_arrival_rooms.sql")),
    ("010_score_epochs", include_str!("../migrations/sqlite/010_score_epochs.sql")),
    ("011_replay_players_by_replay", include_str!("../migrations/sqlite/011_replay_players_by_replay.sql")),
    ("012_seat_reservations", include_str!("../migrations/sqlite/012_seat_reservations.sql")),
];

/// The files SQLite keeps beside a database, by suffix.
const COMPANION_SUFFIXES: [&str; 3] = ["-wal", "-shm", "-journal"];

/// Makes the database at `path` readable by its owner only: a new one is
/// created empty with mode 0600 (SQLite then gives its companion files the
/// same mode), and an existing one, or a companion file, that group or
/// others may use is set to 0600. A special name (`:memory:`, a `file:`
/// URI) is left to SQLite.
fn owner_only(path: &Path) -> Result<(), StoreError> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let name = path.to_string_lossy();
    if name.is_empty() || name == ":memory:" || name.starts_with("file:") {
        return Ok(());
    }
    let cannot = |p: &Path, e: std::io::Error| StoreError::File(format!("cannot create {}: {e}", p.display()));
    match std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path) {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(cannot(path, e)),
    }
    let companions = COMPANION_SUFFIXES.iter().map(|suffix| {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        std::path::PathBuf::from(p)
    });
    for file in std::iter::once(path.to_path_buf()).chain(companions) {
        let Ok(meta) = std::fs::metadata(&file) else { continue };
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o077 == 0 || !meta.is_file() {
            continue;
        }
        // The owner's own bits stay as they were (a read-only database
        // stays read-only); group and others lose theirs.
        let tight = mode & 0o700;
        // A file of another user cannot be changed: it opens as before
        // (refusing would not hide what it holds), and the log says so.
        match std::fs::set_permissions(&file, std::fs::Permissions::from_mode(tight)) {
            Ok(()) => tracing::warn!("{} was mode {mode:03o}, readable by other users: set to {tight:03o}", file.display()),
            Err(e) => tracing::error!("{} is mode {mode:03o}, readable by other users, and cannot be set to {tight:03o}: {e}", file.display()),
        }
    }
    Ok(())
}

/// The database clock in unix milliseconds, as SQL.
const NOW_MS: &str = "CAST(unixepoch('subsec') * 1000 AS INTEGER)";

#[derive(Clone)]
pub(crate) struct Sqlite {
    conn: Arc<Mutex<Connection>>,
}

fn is_constraint(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _) if f.code == ErrorCode::ConstraintViolation)
}

impl Sqlite {
    pub(crate) async fn open(path: &Path) -> Result<Sqlite, StoreError> {
        let path = path.to_path_buf();
        blocking(move || {
            owner_only(&path)?;
            Sqlite::init(Connection::open(path)?)
        })
        .await
    }

    pub(crate) async fn memory() -> Result<Sqlite, StoreError> {
        blocking(|| Sqlite::init(Connection::open_in_memory()?)).await
    }

    fn init(mut conn: Connection) -> Result<Sqlite, StoreError> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let version: usize = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        for (i, (_, sql)) in MIGRATIONS.iter().enumerate().skip(version) {
            // The version moves in the migration's own transaction, so a
            // crash never leaves a migration half-applied.
            let tx = conn.transaction()?;
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", i + 1)?;
            tx.commit()?;
        }
        Ok(Sqlite { conn: Arc::new(Mutex::new(conn)) })
    }

    /// Runs `f` with the connection on the blocking pool.
    async fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let conn = self.conn.clone();
        blocking(move || {
            // A panic while holding the lock cannot leave SQLite
            // inconsistent (transactions roll back), so a poisoned lock is
            // still usable.
            let mut conn = conn.lock().unwrap_or_else(|e| e.into_inner());
            f(&mut conn)
        })
        .await
    }

    pub(crate) async fn schema_version(&self) -> Result<usize, StoreError> {
        self.call(|c| Ok(c.query_row("PRAGMA user_version", [], |r| r.get(0))?)).await
    }

    pub(crate) async fn add_player(&self, player: Player) -> Result<Player, StoreError> {
        self.call(move |c| {
            // Names differing only in letter case are one name (SQLite's
            // lower() folds ASCII letters only).
            let res = c.execute(
                &format!(
                    "INSERT INTO players (id, name, code, created_at, game) SELECT ?1, ?2, ?3, {NOW_MS} / 1000, ?4
                     WHERE NOT EXISTS (SELECT 1 FROM players WHERE lower(name) = lower(?2))"
                ),
                params![player.id, player.name, player.code, player.game],
            );
            match res {
                Ok(0) => Err(StoreError::NameTaken(player.name)),
                Ok(_) => Ok(player),
                Err(e) if is_constraint(&e) => Err(StoreError::NameTaken(player.name)),
                Err(e) => Err(e.into()),
            }
        })
        .await
    }

    pub(crate) async fn player(&self, id: &str) -> Result<Option<Player>, StoreError> {
        let id = id.to_string();
        self.call(move |c| {
            Ok(c.query_row("SELECT id, name, code, game FROM players WHERE id = ?1", [id], |r| {
                Ok(Player { id: r.get(0)?, name: r.get(1)?, code: r.get(2)?, game: r.get(3)? })
            })
            .optional()?)
        })
        .await
    }

    pub(crate) async fn players(&self) -> Result<Vec<Player>, StoreError> {
        self.call(|c| {
            let mut st = c.prepare("SELECT id, name, code, game FROM players ORDER BY name")?;
            let rows = st.query_map([], |r| Ok(Player { id: r.get(0)?, name: r.get(1)?, code: r.get(2)?, game: r.get(3)? }))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub(crate) async fn remove_player(&self, id: &str) -> Result<(), StoreError> {
        let id = id.to_string();
        self.call(move |c| {
            if c.execute("DELETE FROM players WHERE id = ?1", [&id])? == 0 {
                return Err(StoreError::NoPlayer(id));
            }
            Ok(())
        })
        .await
    }

    pub(crate) async fn score_epoch(&self, game: &str) -> Result<i64, StoreError> {
        let game = game.to_string();
        self.call(move |c| Ok(epoch_of(c, &game)?)).await
    }

    pub(crate) async fn add_scores(
        &self,
        game: &str,
        deltas: &[ScoreDelta],
        epoch: Option<i64>,
    ) -> Result<ScoresWritten, StoreError> {
        let (game, deltas) = (game.to_string(), deltas.to_vec());
        self.call(move |c| {
            // One writer at a time: a reset commits wholly before or after.
            let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            if let Some(expected) = epoch {
                let now = epoch_of(&tx, &game)?;
                if now != expected {
                    return Ok(ScoresWritten::Reset { epoch: now });
                }
            }
            {
                // A row is created first and then updated, so that a
                // negative delta is applied to the stored total and any
                // floor applies there (an upsert would floor the delta).
                let mut create = tx.prepare_cached("INSERT OR IGNORE INTO scores (player_id, game) VALUES (?1, ?2)")?;
                let mut update = tx.prepare_cached(
                    "UPDATE scores SET score = max(score + ?3, ?7), deaths = deaths + ?4, kills = kills + ?5, wins = wins + ?6
                     WHERE player_id = ?1 AND game = ?2",
                )?;
                for d in &deltas {
                    match create.execute(params![d.player_id, game]) {
                        Ok(_) => {}
                        Err(e) if is_constraint(&e) => continue,
                        Err(e) => return Err(e.into()),
                    }
                    update.execute(params![d.player_id, game, d.score, d.deaths, d.kills, d.wins, d.total_min()])?;
                }
            }
            tx.commit()?;
            Ok(ScoresWritten::Applied)
        })
        .await
    }

    pub(crate) async fn leaderboard(&self, game: &str) -> Result<Vec<ScoreRow>, StoreError> {
        let game = game.to_string();
        self.call(move |c| {
            let mut st = c.prepare(
                "SELECT p.id, p.name, s.score, s.deaths, s.kills, s.wins FROM scores s JOIN players p ON p.id = s.player_id
                 WHERE s.game = ?1 ORDER BY s.score DESC, p.name",
            )?;
            let rows = st.query_map([game], |r| {
                Ok(ScoreRow {
                    player_id: r.get(0)?,
                    name: r.get(1)?,
                    score: r.get(2)?,
                    deaths: r.get(3)?,
                    kills: r.get(4)?,
                    wins: r.get(5)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub(crate) async fn reset_scores(&self, game: Option<&str>) -> Result<usize, StoreError> {
        let game = game.map(str::to_string);
        self.call(move |c| {
            let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let n = match &game {
                Some(g) => tx.execute("DELETE FROM scores WHERE game = ?1", [g])?,
                None => tx.execute("DELETE FROM scores", [])?,
            };
            tx.execute(
                "INSERT INTO score_epochs (game, epoch) VALUES (?1, 1) ON CONFLICT (game) DO UPDATE SET epoch = epoch + 1",
                [game.as_deref().unwrap_or("*")],
            )?;
            tx.commit()?;
            Ok(n)
        })
        .await
    }

    pub(crate) async fn save_code(&self, code: &CodeRow) -> Result<(), StoreError> {
        let code = code.clone();
        self.call(move |c| {
            let res = c.execute(
                &format!(
                    "INSERT INTO code (player_id, lang, name, source, updated_at) VALUES (?1, ?2, ?3, ?4, {NOW_MS} / 1000)
                     ON CONFLICT(player_id) DO UPDATE SET lang = excluded.lang, name = excluded.name,
                       source = excluded.source, updated_at = excluded.updated_at"
                ),
                params![code.player_id, code.lang, code.name, code.source],
            );
            match res {
                Ok(_) => Ok(()),
                Err(e) if is_constraint(&e) => Err(StoreError::NoPlayer(code.player_id)),
                Err(e) => Err(e.into()),
            }
        })
        .await
    }

    pub(crate) async fn code(&self, player_id: &str) -> Result<Option<CodeRow>, StoreError> {
        let player_id = player_id.to_string();
        self.call(move |c| {
            Ok(c.query_row("SELECT player_id, lang, name, source FROM code WHERE player_id = ?1", [player_id], code_row)
                .optional()?)
        })
        .await
    }

    pub(crate) async fn all_code(&self) -> Result<Vec<CodeRow>, StoreError> {
        self.call(|c| {
            let mut st = c.prepare("SELECT player_id, lang, name, source FROM code ORDER BY updated_at, player_id")?;
            let rows = st.query_map([], code_row)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub(crate) async fn save_room(&self, room: &RoomRow) -> Result<(), StoreError> {
        let room = room.clone();
        self.call(move |c| {
            c.execute(
                "INSERT INTO rooms (name, game, tick_ms, paused, seed, for_arrivals) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT(name) DO UPDATE SET game = excluded.game, tick_ms = excluded.tick_ms,
                   paused = excluded.paused, seed = excluded.seed, for_arrivals = excluded.for_arrivals",
                params![
                    room.name,
                    room.game,
                    u64_to_db(room.tick_ms),
                    room.paused,
                    u64_to_db(room.seed),
                    i64::from(room.for_arrivals)
                ],
            )?;
            Ok(())
        })
        .await
    }

    pub(crate) async fn remove_room(&self, name: &str) -> Result<bool, StoreError> {
        let name = name.to_string();
        self.call(move |c| {
            let tx = c.transaction()?;
            tx.execute("DELETE FROM seats WHERE room = ?1", [&name])?;
            tx.execute("DELETE FROM room_views WHERE name = ?1", [&name])?;
            let removed = tx.execute("DELETE FROM rooms WHERE name = ?1", [&name])?;
            tx.commit()?;
            Ok(removed > 0)
        })
        .await
    }

    pub(crate) async fn set_seat(&self, player_id: &str, room: &str) -> Result<(), StoreError> {
        let (player_id, room) = (player_id.to_string(), room.to_string());
        self.call(move |c| {
            let res = c.execute(
                "INSERT INTO seats (player_id, room) VALUES (?1, ?2) ON CONFLICT(player_id) DO UPDATE SET room = excluded.room, reserved_until_ms = NULL",
                params![player_id, room],
            );
            match res {
                Ok(_) => Ok(()),
                Err(e) if is_constraint(&e) => Err(StoreError::NoPlayer(player_id)),
                Err(e) => Err(e.into()),
            }
        })
        .await
    }

    pub(crate) async fn reserve_seat(&self, player_id: &str, room: &str, until_unix_ms: i64) -> Result<bool, StoreError> {
        let (player_id, room) = (player_id.to_string(), room.to_string());
        self.call(move |c| {
            let n = c.execute("UPDATE seats SET reserved_until_ms = ?1 WHERE player_id = ?2 AND room = ?3", params![until_unix_ms, player_id, room])?;
            Ok(n > 0)
        })
        .await
    }

    pub(crate) async fn seat_reservations(&self, now_unix_ms: i64) -> Result<Vec<SeatReservation>, StoreError> {
        self.call(move |c| {
            let mut st = c.prepare("SELECT player_id, room, reserved_until_ms FROM seats WHERE reserved_until_ms > ?1 ORDER BY player_id")?;
            let rows = st.query_map([now_unix_ms], |r| Ok(SeatReservation { player_id: r.get(0)?, room: r.get(1)?, until_unix_ms: r.get(2)? }))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub(crate) async fn seat(&self, player_id: &str) -> Result<Option<String>, StoreError> {
        let player_id = player_id.to_string();
        self.call(move |c| Ok(c.query_row("SELECT room FROM seats WHERE player_id = ?1", [player_id], |r| r.get(0)).optional()?))
            .await
    }

    pub(crate) async fn rooms(&self) -> Result<Vec<RoomRow>, StoreError> {
        self.call(|c| {
            let mut st = c.prepare("SELECT name, game, tick_ms, paused, seed, for_arrivals FROM rooms ORDER BY name")?;
            let rows = st.query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, bool>(3)?,
                    r.get::<_, i64>(4)?,
                    r.get::<_, i64>(5)?,
                ))
            })?;
            let mut out = Vec::new();
            for row in rows {
                let (name, game, tick_ms, paused, seed, for_arrivals) = row?;
                out.push(RoomRow {
                    name,
                    game,
                    tick_ms: unsigned(tick_ms, "tick_ms")?,
                    paused,
                    seed: u64_from_db(seed),
                    for_arrivals: for_arrivals != 0,
                });
            }
            Ok(out)
        })
        .await
    }

    pub(crate) async fn save_replay(&self, replay: &NewReplay) -> Result<i64, StoreError> {
        let replay = replay.clone();
        self.call(move |c| {
            let tx = c.transaction()?;
            let id: i64 = tx.query_row(
                &format!(
                    "INSERT INTO replays (game, origin, players, result, body, stderr_log, unowned, created_ms)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, {NOW_MS}) RETURNING id"
                ),
                params![
                    replay.game,
                    replay.origin,
                    players_to_json(&replay.players),
                    replay.result,
                    replay.body,
                    replay.stderr_log,
                    replay.is_unowned()
                ],
                |r| r.get(0),
            )?;
            {
                let mut link = tx.prepare("INSERT OR IGNORE INTO replay_players (replay_id, player_id) VALUES (?1, ?2)")?;
                for p in replay.players.iter().filter(|p| !p.is_empty()) {
                    link.execute(params![id, p])?;
                }
            }
            tx.commit()?;
            Ok(id)
        })
        .await
    }

    pub(crate) async fn prune_unowned_replays(&self, origin: &str, keep: u32) -> Result<u64, StoreError> {
        let origin = origin.to_string();
        self.call(move |c| {
            let deleted = c.execute(
                "DELETE FROM replays WHERE id IN
                 (SELECT id FROM replays WHERE origin = ?1 AND unowned = 1 ORDER BY id DESC LIMIT -1 OFFSET ?2)",
                params![origin, keep],
            )?;
            Ok(deleted as u64)
        })
        .await
    }

    pub(crate) async fn prune_player_replays(&self, player_id: &str, keep: u32) -> Result<u64, StoreError> {
        let player_id = player_id.to_string();
        self.call(move |c| {
            // A game goes when, for each of its players, at least `keep`
            // newer games of that player exist.
            let deleted = c.execute(
                "DELETE FROM replays WHERE id IN
                 (SELECT mine.replay_id FROM
                   (SELECT replay_id FROM replay_players WHERE player_id = ?1 ORDER BY replay_id DESC LIMIT -1 OFFSET ?2) mine
                  WHERE NOT EXISTS (SELECT 1 FROM replay_players o WHERE o.replay_id = mine.replay_id AND o.player_id <> ?1
                    AND NOT EXISTS (SELECT 1 FROM replay_players n WHERE n.player_id = o.player_id AND n.replay_id > mine.replay_id
                      ORDER BY n.replay_id LIMIT 1 OFFSET ?2 - 1)))",
                params![player_id, keep],
            )?;
            Ok(deleted as u64)
        })
        .await
    }

    pub(crate) async fn has_replay(&self, id: i64) -> Result<bool, StoreError> {
        self.call(move |c| Ok(c.query_row("SELECT 1 FROM replays WHERE id = ?1", [id], |_| Ok(())).optional()?.is_some()))
            .await
    }

    pub(crate) async fn replay(&self, id: i64) -> Result<Option<(ReplayInfo, String)>, StoreError> {
        self.call(move |c| {
            let row = c
                .query_row(
                    "SELECT id, game, origin, players, result, created_ms, body FROM replays WHERE id = ?1",
                    [id],
                    |r| Ok((info_row(r)?, r.get::<_, String>(6)?)),
                )
                .optional()?;
            row.map(|(info, body)| Ok((info.finish()?, body))).transpose()
        })
        .await
    }

    pub(crate) async fn replays_of(&self, player_id: &str, origin: Option<&str>, page: Page) -> Result<Vec<ReplayInfo>, StoreError> {
        let (player_id, origin) = (player_id.to_string(), origin.map(str::to_string));
        self.call(move |c| {
            let mut st = c.prepare(
                "SELECT r.id, r.game, r.origin, r.players, r.result, r.created_ms FROM replay_players l
                 JOIN replays r ON r.id = l.replay_id WHERE l.player_id = ?1 AND (?3 IS NULL OR r.origin = ?3)
                 AND (?4 IS NULL OR r.id < ?4) ORDER BY r.id DESC LIMIT ?2",
            )?;
            let rows = st.query_map(params![player_id, page.limit, origin, page.before], info_row)?;
            rows.map(|r| r?.finish()).collect()
        })
        .await
    }

    pub(crate) async fn recent_replays(&self, page: Page) -> Result<Vec<ReplayInfo>, StoreError> {
        self.call(move |c| {
            let mut st = c.prepare(
                "SELECT id, game, origin, players, result, created_ms FROM replays WHERE (?2 IS NULL OR id < ?2) ORDER BY id DESC LIMIT ?1",
            )?;
            let rows = st.query_map(params![page.limit, page.before], info_row)?;
            rows.map(|r| r?.finish()).collect()
        })
        .await
    }

    pub(crate) async fn replays_from(&self, origin: &str, page: Page) -> Result<Vec<ReplayInfo>, StoreError> {
        let origin = origin.to_string();
        self.call(move |c| {
            let mut st = c.prepare(
                "SELECT id, game, origin, players, result, created_ms FROM replays WHERE origin = ?1 AND (?3 IS NULL OR id < ?3)
                 ORDER BY id DESC LIMIT ?2",
            )?;
            let rows = st.query_map(params![origin, page.limit, page.before], info_row)?;
            rows.map(|r| r?.finish()).collect()
        })
        .await
    }

    pub(crate) async fn ratings(&self, game: &str) -> Result<Vec<RatingRow>, StoreError> {
        let game = game.to_string();
        self.call(move |c| {
            let mut st = c.prepare(
                "SELECT player_id, rating, uncertainty, games FROM ratings WHERE game = ?1 ORDER BY rating DESC, player_id",
            )?;
            let rows = st.query_map([game], |r| {
                Ok(RatingRow { player_id: r.get(0)?, rating: r.get(1)?, uncertainty: r.get(2)?, games: r.get(3)? })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub(crate) async fn set_ratings(&self, game: &str, rows: &[RatingRow]) -> Result<(), StoreError> {
        let (game, rows) = (game.to_string(), rows.to_vec());
        self.call(move |c| {
            let tx = c.transaction()?;
            {
                let mut up = tx.prepare(
                    "INSERT INTO ratings (player_id, game, rating, uncertainty, games) VALUES (?1, ?2, ?3, ?4, ?5)
                     ON CONFLICT(player_id, game) DO UPDATE SET rating = excluded.rating,
                       uncertainty = excluded.uncertainty, games = excluded.games",
                )?;
                for r in &rows {
                    match up.execute(params![r.player_id, game, r.rating, r.uncertainty, r.games]) {
                        Ok(_) => {}
                        Err(e) if is_constraint(&e) => continue,
                        Err(e) => return Err(e.into()),
                    }
                }
            }
            tx.commit()?;
            Ok(())
        })
        .await
    }

    pub(crate) async fn enqueue_matches(&self, matches: &[NewMatch]) -> Result<Vec<i64>, StoreError> {
        let matches = matches.to_vec();
        self.call(move |c| {
            let tx = c.transaction()?;
            let mut ids = Vec::with_capacity(matches.len());
            {
                let mut ins = tx.prepare("INSERT INTO matches (game, spec, seed) VALUES (?1, ?2, ?3) RETURNING id")?;
                for m in &matches {
                    ids.push(ins.query_row(params![m.game, m.spec, u64_to_db(m.seed)], |r| r.get(0))?);
                }
            }
            tx.commit()?;
            Ok(ids)
        })
        .await
    }

    pub(crate) async fn claim_match(&self, worker: &str, lease_ms: u64) -> Result<Option<ClaimedMatch>, StoreError> {
        let worker = worker.to_string();
        let lease_ms = u64_to_db(lease_ms);
        self.call(move |c| {
            // One connection serialises claims, so the select and the update
            // cannot interleave with another claim.
            let row = c
                .query_row(
                    &format!(
                        "UPDATE matches SET state = 'running', worker = ?1, attempts = attempts + 1,
                           lease_until_ms = {NOW_MS} + ?2
                         WHERE id = (SELECT id FROM matches
                                     WHERE state = 'queued' OR (state = 'running' AND lease_until_ms < {NOW_MS})
                                     ORDER BY id LIMIT 1)
                         RETURNING id, game, spec, seed, attempts"
                    ),
                    params![worker, lease_ms],
                    |r| {
                        Ok(ClaimedMatch {
                            id: r.get(0)?,
                            game: r.get(1)?,
                            spec: r.get(2)?,
                            seed: u64_from_db(r.get(3)?),
                            attempts: r.get(4)?,
                        })
                    },
                )
                .optional()?;
            Ok(row)
        })
        .await
    }

    pub(crate) async fn renew_match(&self, id: i64, worker: &str, lease_ms: u64) -> Result<bool, StoreError> {
        let worker = worker.to_string();
        let lease_ms = u64_to_db(lease_ms);
        self.call(move |c| {
            let n = c.execute(
                &format!(
                    "UPDATE matches SET lease_until_ms = {NOW_MS} + ?3
                     WHERE id = ?1 AND worker = ?2 AND state = 'running' AND lease_until_ms >= {NOW_MS}"
                ),
                params![id, worker, lease_ms],
            )?;
            Ok(n == 1)
        })
        .await
    }

    pub(crate) async fn finish_match(
        &self,
        id: i64,
        worker: &str,
        result: &str,
        replay_id: Option<i64>,
    ) -> Result<bool, StoreError> {
        let (worker, result) = (worker.to_string(), result.to_string());
        self.call(move |c| {
            let n = c.execute(
                &format!(
                    "UPDATE matches SET state = 'done', result = ?3, replay_id = ?4
                     WHERE id = ?1 AND worker = ?2 AND state = 'running' AND lease_until_ms >= {NOW_MS}"
                ),
                params![id, worker, result, replay_id],
            )?;
            Ok(n == 1)
        })
        .await
    }

    pub(crate) async fn replay_stderr_log(&self, id: i64) -> Result<Option<String>, StoreError> {
        self.call(move |c| Ok(c.query_row("SELECT stderr_log FROM replays WHERE id = ?1", [id], |r| r.get(0)).optional()?))
            .await
    }

    pub(crate) async fn match_status(&self, id: i64) -> Result<Option<MatchStatus>, StoreError> {
        self.call(move |c| {
            Ok(c.query_row("SELECT state, result, replay_id FROM matches WHERE id = ?1", [id], |r| {
                Ok(MatchStatus { state: r.get(0)?, result: r.get(1)?, replay_id: r.get(2)? })
            })
            .optional()?)
        })
        .await
    }

    pub(crate) async fn match_result(&self, id: i64) -> Result<Option<String>, StoreError> {
        self.call(move |c| {
            Ok(c.query_row("SELECT result FROM matches WHERE id = ?1 AND state = 'done'", [id], |r| r.get(0)).optional()?)
        })
        .await
    }

    pub(crate) async fn queue_counts(&self) -> Result<QueueCounts, StoreError> {
        self.call(|c| {
            let mut st = c.prepare("SELECT state, count(*) FROM matches GROUP BY state")?;
            let rows = st.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
            let mut counts = QueueCounts::default();
            for row in rows {
                let (state, n) = row?;
                match state.as_str() {
                    "queued" => counts.queued = n,
                    "running" => counts.running = n,
                    "done" => counts.done = n,
                    other => return Err(StoreError::Corrupt(format!("match state {other:?}"))),
                }
            }
            Ok(counts)
        })
        .await
    }

    pub(crate) async fn acquire_lease(&self, resource: &str, node: &str, ttl_ms: u64) -> Result<bool, StoreError> {
        let (resource, node) = (resource.to_string(), node.to_string());
        let ttl_ms = u64_to_db(ttl_ms);
        self.call(move |c| {
            let holder: Option<String> = c
                .query_row(
                    &format!(
                        "INSERT INTO leases (resource, node, until_ms) VALUES (?1, ?2, {NOW_MS} + ?3)
                         ON CONFLICT(resource) DO UPDATE SET node = excluded.node, until_ms = excluded.until_ms
                           WHERE leases.node = excluded.node OR leases.until_ms < {NOW_MS}
                         RETURNING node"
                    ),
                    params![resource, node, ttl_ms],
                    |r| r.get(0),
                )
                .optional()?;
            Ok(holder.as_deref() == Some(node.as_str()))
        })
        .await
    }

    pub(crate) async fn release_lease(&self, resource: &str, node: &str) -> Result<(), StoreError> {
        let (resource, node) = (resource.to_string(), node.to_string());
        self.call(move |c| {
            c.execute("DELETE FROM leases WHERE resource = ?1 AND node = ?2", params![resource, node])?;
            Ok(())
        })
        .await
    }

    pub(crate) async fn lease_holder(&self, resource: &str) -> Result<Option<String>, StoreError> {
        let resource = resource.to_string();
        self.call(move |c| {
            Ok(c.query_row(
                &format!("SELECT node FROM leases WHERE resource = ?1 AND until_ms >= {NOW_MS}"),
                [resource],
                |r| r.get(0),
            )
            .optional()?)
        })
        .await
    }
}

fn code_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<CodeRow> {
    Ok(CodeRow { player_id: r.get(0)?, lang: r.get(1)?, name: r.get(2)?, source: r.get(3)? })
}

impl Sqlite {
    pub(crate) async fn announce_node(&self, node: &str, url: &str, ttl_ms: u64) -> Result<(), StoreError> {
        let (node, url, ttl_ms) = (node.to_string(), url.to_string(), u64_to_db(ttl_ms));
        self.call(move |c| {
            c.execute(
                &format!(
                    "INSERT INTO nodes (id, url, until_ms) VALUES (?1, ?2, {NOW_MS} + ?3)
                     ON CONFLICT(id) DO UPDATE SET url = excluded.url, until_ms = excluded.until_ms"
                ),
                params![node, url, ttl_ms],
            )?;
            Ok(())
        })
        .await
    }

    pub(crate) async fn set_room_views(&self, node: &str, views: &[(String, String)], ttl_ms: u64) -> Result<(), StoreError> {
        let (node, views, ttl_ms) = (node.to_string(), views.to_vec(), u64_to_db(ttl_ms));
        self.call(move |c| {
            let tx = c.transaction()?;
            {
                let mut st = tx.prepare(&format!(
                    "INSERT INTO room_views (name, node, summary, until_ms) VALUES (?1, ?2, ?3, {NOW_MS} + ?4)
                     ON CONFLICT(name) DO UPDATE SET node = excluded.node, summary = excluded.summary, until_ms = excluded.until_ms"
                ))?;
                for (name, summary) in &views {
                    st.execute(params![name, node, summary, ttl_ms])?;
                }
            }
            tx.commit()?;
            Ok(())
        })
        .await
    }

    pub(crate) async fn room_views(&self) -> Result<Vec<RoomView>, StoreError> {
        self.call(|c| {
            let mut st = c.prepare(&format!("SELECT name, node, summary FROM room_views WHERE until_ms >= {NOW_MS} ORDER BY name"))?;
            let rows = st.query_map([], |r| Ok(RoomView { name: r.get(0)?, node: r.get(1)?, summary: r.get(2)? }))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub(crate) async fn live_nodes(&self) -> Result<Vec<NodeRow>, StoreError> {
        self.call(|c| {
            let mut st = c.prepare(&format!("SELECT id, url FROM nodes WHERE until_ms >= {NOW_MS} ORDER BY id"))?;
            let rows = st.query_map([], |r| Ok(NodeRow { id: r.get(0)?, url: r.get(1)? }))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }
}

/// A replay row before its players' JSON is read.
struct InfoRow {
    id: i64,
    game: String,
    origin: String,
    players: String,
    result: String,
    created_ms: i64,
}

impl InfoRow {
    fn finish(self) -> Result<ReplayInfo, StoreError> {
        Ok(ReplayInfo {
            id: self.id,
            game: self.game,
            origin: self.origin,
            players: players_from_json(&self.players)?,
            result: self.result,
            created_ms: self.created_ms,
        })
    }
}

fn info_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<InfoRow> {
    Ok(InfoRow {
        id: r.get(0)?,
        game: r.get(1)?,
        origin: r.get(2)?,
        players: r.get(3)?,
        result: r.get(4)?,
        created_ms: r.get(5)?,
    })
}

/// Runs a blocking closure on tokio's blocking pool.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T, StoreError> + Send + 'static) -> Result<T, StoreError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| StoreError::Interrupted(e.to_string()))?
}

/// The reset count of `game`: its own resets and those of every game.
fn epoch_of(c: &rusqlite::Connection, game: &str) -> rusqlite::Result<i64> {
    c.query_row("SELECT COALESCE(SUM(epoch), 0) FROM score_epochs WHERE game IN (?1, '*')", [game], |r| r.get(0))
}
