//! Persistence: players, codes, cumulative scores and rooms.
//!
//! Everything that must survive a restart goes through [`Store`]; nothing
//! else in the server touches SQL, so another backend can replace this
//! module without the rest noticing. SQLite runs in WAL mode with
//! `synchronous=NORMAL`: a committed transaction survives a killed process,
//! and score writes are batched into one transaction per tick.

use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Schema migrations, applied in order at start-up; the index of the last
/// applied one is kept in `PRAGMA user_version`.
const MIGRATIONS: &[&str] = &[
    include_str!("../migrations/001_init.sql"),
    include_str!("../migrations/002_player_game.sql"),
    include_str!("../migrations/003_code.sql"),
];

/// A storage failure. Callers log it; a lost score write is retried with the
/// next batch because deltas accumulate in the room until written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The database refused an operation.
    #[error("database: {0}")]
    Sql(#[from] rusqlite::Error),
    /// A name that is already taken.
    #[error("the name {0:?} is taken")]
    NameTaken(String),
    /// No such player.
    #[error("no player {0:?}")]
    NoPlayer(String),
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
    /// Round wins.
    pub wins: i64,
}

/// A change to one player's totals, accumulated by a room over a tick.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScoreDelta {
    /// Player id.
    pub player_id: String,
    /// Points (the stored total is floored at zero).
    pub score: i64,
    /// Deaths.
    pub deaths: i64,
    /// Kills.
    pub kills: i64,
    /// Wins.
    pub wins: i64,
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
}

/// The database handle; cheap to clone. Calls block, so async code runs
/// them on the blocking pool.
#[derive(Clone)]
pub struct Store {
    conn: Arc<Mutex<Connection>>,
}

impl Store {
    /// Opens (or creates) the database file and applies migrations.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let conn = Connection::open(path)?;
        Store::init(conn)
    }

    /// A private in-memory database, for tests and `play`.
    pub fn memory() -> Result<Store, StoreError> {
        Store::init(Connection::open_in_memory()?)
    }

    fn init(conn: Connection) -> Result<Store, StoreError> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let version: usize = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version) {
            conn.execute_batch(sql)?;
            conn.pragma_update(None, "user_version", i + 1)?;
        }
        Ok(Store { conn: Arc::new(Mutex::new(conn)) })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave SQLite inconsistent
        // (transactions roll back), so a poisoned lock is still usable.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers a player for a game with a fresh id and code.
    pub fn add_player(&self, name: &str, game: &str) -> Result<Player, StoreError> {
        let player = Player { id: random_id(), name: name.to_string(), game: game.to_string(), code: random_code() };
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let res = self.conn().execute(
            "INSERT INTO players (id, name, code, created_at, game) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![player.id, player.name, player.code, now as i64, player.game],
        );
        match res {
            Ok(_) => Ok(player),
            Err(rusqlite::Error::SqliteFailure(e, _)) if e.code == rusqlite::ErrorCode::ConstraintViolation => {
                Err(StoreError::NameTaken(name.to_string()))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// A player by id.
    pub fn player(&self, id: &str) -> Result<Option<Player>, StoreError> {
        Ok(self
            .conn()
            .query_row("SELECT id, name, code, game FROM players WHERE id = ?1", [id], |r| {
                Ok(Player { id: r.get(0)?, name: r.get(1)?, code: r.get(2)?, game: r.get(3)? })
            })
            .optional()?)
    }

    /// The player whose id and code both match, if any. The comparison of
    /// codes does not stop at the first differing byte.
    pub fn authenticate(&self, id: &str, code: &str) -> Result<Option<Player>, StoreError> {
        Ok(self.player(id)?.filter(|p| constant_time_eq(p.code.as_bytes(), code.as_bytes())))
    }

    /// Every player, by name.
    pub fn players(&self) -> Result<Vec<Player>, StoreError> {
        let conn = self.conn();
        let mut st = conn.prepare("SELECT id, name, code, game FROM players ORDER BY name")?;
        let rows = st.query_map([], |r| Ok(Player { id: r.get(0)?, name: r.get(1)?, code: r.get(2)?, game: r.get(3)? }))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Removes a player and their scores.
    pub fn remove_player(&self, id: &str) -> Result<(), StoreError> {
        let n = self.conn().execute("DELETE FROM players WHERE id = ?1", [id])?;
        if n == 0 {
            return Err(StoreError::NoPlayer(id.to_string()));
        }
        Ok(())
    }

    /// Adds a batch of deltas in one transaction.
    pub fn add_scores(&self, game: &str, deltas: &[ScoreDelta]) -> Result<(), StoreError> {
        if deltas.is_empty() {
            return Ok(());
        }
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        {
            // A row is created first and then updated, so that a negative
            // delta is applied to the stored total and floored there (an
            // upsert would floor the delta itself).
            let mut create = tx.prepare_cached("INSERT OR IGNORE INTO scores (player_id, game) VALUES (?1, ?2)")?;
            let mut update = tx.prepare_cached(
                "UPDATE scores SET score = max(0, score + ?3), deaths = deaths + ?4, kills = kills + ?5, wins = wins + ?6
                 WHERE player_id = ?1 AND game = ?2",
            )?;
            for d in deltas {
                // A delta for a player removed meanwhile is dropped, not an error.
                match create.execute(params![d.player_id, game]) {
                    Ok(_) => {}
                    Err(rusqlite::Error::SqliteFailure(e, _)) if e.code == rusqlite::ErrorCode::ConstraintViolation => continue,
                    Err(e) => return Err(e.into()),
                }
                update.execute(params![d.player_id, game, d.score, d.deaths, d.kills, d.wins])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// The leaderboard of a game, best first.
    pub fn leaderboard(&self, game: &str) -> Result<Vec<ScoreRow>, StoreError> {
        let conn = self.conn();
        let mut st = conn.prepare(
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
    }

    /// Sets every score of a game (or of all games) to zero.
    pub fn reset_scores(&self, game: Option<&str>) -> Result<usize, StoreError> {
        let conn = self.conn();
        Ok(match game {
            Some(g) => conn.execute("DELETE FROM scores WHERE game = ?1", [g])?,
            None => conn.execute("DELETE FROM scores", [])?,
        })
    }

    /// Saves a player's program, replacing the previous one.
    pub fn save_code(&self, code: &CodeRow) -> Result<(), StoreError> {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        self.conn().execute(
            "INSERT INTO code (player_id, lang, name, source, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT(player_id) DO UPDATE SET lang = excluded.lang, name = excluded.name,
               source = excluded.source, updated_at = excluded.updated_at",
            params![code.player_id, code.lang, code.name, code.source, now as i64],
        )?;
        Ok(())
    }

    /// A player's program, if they saved one.
    pub fn code(&self, player_id: &str) -> Result<Option<CodeRow>, StoreError> {
        Ok(self
            .conn()
            .query_row("SELECT player_id, lang, name, source FROM code WHERE player_id = ?1", [player_id], |r| {
                Ok(CodeRow { player_id: r.get(0)?, lang: r.get(1)?, name: r.get(2)?, source: r.get(3)? })
            })
            .optional()?)
    }

    /// Every saved program, oldest first.
    pub fn all_code(&self) -> Result<Vec<CodeRow>, StoreError> {
        let conn = self.conn();
        let mut st = conn.prepare("SELECT player_id, lang, name, source FROM code ORDER BY updated_at, player_id")?;
        let rows = st.query_map([], |r| Ok(CodeRow { player_id: r.get(0)?, lang: r.get(1)?, name: r.get(2)?, source: r.get(3)? }))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Creates or updates a room.
    pub fn save_room(&self, room: &RoomRow) -> Result<(), StoreError> {
        self.conn().execute(
            "INSERT INTO rooms (name, game, tick_ms, paused, seed) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT(name) DO UPDATE SET game = excluded.game, tick_ms = excluded.tick_ms,
               paused = excluded.paused, seed = excluded.seed",
            params![room.name, room.game, room.tick_ms as i64, room.paused, room.seed as i64],
        )?;
        Ok(())
    }

    /// Every room, by name.
    pub fn rooms(&self) -> Result<Vec<RoomRow>, StoreError> {
        let conn = self.conn();
        let mut st = conn.prepare("SELECT name, game, tick_ms, paused, seed FROM rooms ORDER BY name")?;
        let rows = st.query_map([], |r| {
            Ok(RoomRow {
                name: r.get(0)?,
                game: r.get(1)?,
                tick_ms: r.get::<_, i64>(2)? as u64,
                paused: r.get(3)?,
                seed: r.get::<_, i64>(4)? as u64,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
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

    #[test]
    fn players_scores_rooms() {
        let s = Store::memory().unwrap();
        let a = s.add_player("ann", "snakebattle").unwrap();
        assert_eq!(a.id.len(), 20);
        assert!(a.id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()));
        assert!(a.code.bytes().all(|b| b.is_ascii_digit()));
        assert!(matches!(s.add_player("ann", "hex"), Err(StoreError::NameTaken(_))));
        assert_eq!(s.authenticate(&a.id, &a.code).unwrap(), Some(a.clone()));
        assert_eq!(s.authenticate(&a.id, "1").unwrap(), None);
        let d = |score| ScoreDelta { player_id: a.id.clone(), score, deaths: 1, ..ScoreDelta::default() };
        s.add_scores("snakebattle", &[d(10), d(-3)]).unwrap();
        assert_eq!(s.leaderboard("snakebattle").unwrap()[0].score, 7);
        s.add_scores("snakebattle", &[d(-100)]).unwrap();
        assert_eq!(s.leaderboard("snakebattle").unwrap()[0].score, 0);
        assert_eq!(s.leaderboard("snakebattle").unwrap()[0].deaths, 3);
        let room = RoomRow { name: "r1".into(), game: "snakebattle".into(), tick_ms: 100, paused: true, seed: 5 };
        s.save_room(&room).unwrap();
        assert_eq!(s.rooms().unwrap(), vec![room]);
        s.reset_scores(None).unwrap();
        assert!(s.leaderboard("snakebattle").unwrap().is_empty());
        let code = CodeRow { player_id: a.id.clone(), lang: "python".into(), name: "v1".into(), source: "print('up')".into() };
        s.save_code(&code).unwrap();
        s.save_code(&CodeRow { name: "v2".into(), ..code.clone() }).unwrap();
        assert_eq!(s.code(&a.id).unwrap().unwrap().name, "v2");
        assert_eq!(s.all_code().unwrap().len(), 1);
        s.remove_player(&a.id).unwrap();
        assert!(s.all_code().unwrap().is_empty(), "a removed player's code goes too");
    }
}
