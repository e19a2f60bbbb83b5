//! The set of rooms, and which room each player sits in.
//!
//! Rooms are tasks; this registry only holds their handles. A player who
//! connects goes back to the room they already sit in, or else to the first
//! room of the game with a free seat (empty or held by a built-in bot), or
//! else to a new room, as Codenjoy fills fields of five.

use crate::config::Config;
use crate::metrics::Histogram;
use crate::room::{self, AttachError, ConnKind, Outgoing, PlayerRef, RoomConfig, RoomHandle, RoomInput};
use crate::store::{RoomRow, Store};
use anyhow::Context;
use crate::arenas::{self, CarrotsRoom, DuelRoom, MapSource, MultisnakeRoom};
use crate::games::{HexRoom, SnakeBattleRoom};
use snakepit_engine::hex::{self, Hex};
use snakepit_engine::snakebattle::{Map, Settings, SnakeBattle};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, oneshot};

/// Longest accepted room name.
pub const ROOM_NAME_MAX_CHARS: usize = 40;

/// Games the server hosts.
pub const GAMES: &[&str] = &["snakebattle", "hex", "carrots", "duel", "multisnake"];

/// What is needed to start rooms of one game.
enum Setup {
    SnakeBattle { settings: Settings, map: Map },
    Hex { settings: hex::Settings, map: hex::Map },
    Carrots { settings: snakepit_engine::carrots::Settings, seats: usize },
    Duel { settings: snakepit_engine::duel::Settings, pause_ticks: u32 },
    Multisnake { settings: snakepit_engine::multisnake::Settings, maps: MapSource, pause_ticks: u32 },
}

/// One game's room defaults.
struct GameSetup {
    setup: Setup,
    fill_bots: Vec<String>,
    tick_ms: u64,
}

/// All rooms.
pub struct Rooms {
    inner: Mutex<Inner>,
    /// Serialises room creation, so that two connections arriving together
    /// neither pick the same new name nor open two half-empty rooms.
    creating: Mutex<()>,
    store: Store,
    games: BTreeMap<&'static str, GameSetup>,
    seat_release_ms: u64,
    pages_per_player: usize,
    /// Tick-to-last-board latency of every room.
    pub latency: Arc<Histogram>,
}

struct Inner {
    rooms: BTreeMap<String, RoomHandle>,
    player_room: BTreeMap<String, String>,
}

fn read_map<M, E: std::error::Error + Send + Sync + 'static>(
    path: Option<&std::path::Path>,
    parse: impl Fn(&str) -> Result<M, E>,
    default: impl Fn() -> M,
) -> anyhow::Result<M> {
    match path {
        Some(p) => {
            let text = std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
            parse(&text).with_context(|| format!("{}", p.display()))
        }
        None => Ok(default()),
    }
}

impl Rooms {
    /// Builds the registry and starts the rooms of the database and of the
    /// configuration.
    pub fn start(cfg: &Config, store: Store) -> anyhow::Result<Rooms> {
        let sb = &cfg.snakebattle;
        let mut pairs: Vec<(&str, &str)> = vec![("profile", sb.profile.as_str())];
        pairs.extend(sb.settings.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        let settings = Settings::from_pairs(pairs).context("snakebattle settings")?;
        let map = read_map(sb.map.as_deref(), Map::parse, Map::default_map)?;
        for b in &sb.fill_bots {
            anyhow::ensure!(snakepit_bots::builtin::NAMES.contains(&b.as_str()), "unknown built-in bot {b:?}");
        }
        let mut games = BTreeMap::new();
        games.insert(
            "snakebattle",
            GameSetup { setup: Setup::SnakeBattle { settings, map }, fill_bots: sb.fill_bots.clone(), tick_ms: sb.tick_ms },
        );
        let hx = &cfg.hex;
        let mut pairs: Vec<(&str, &str)> = vec![("profile", hx.profile.as_str())];
        pairs.extend(hx.settings.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        let hex_settings = hex::Settings::from_pairs(pairs).context("hex settings")?;
        let hex_map = read_map(hx.map.as_deref(), hex::Map::parse, hex::Map::default_map)?;
        for b in &hx.fill_bots {
            anyhow::ensure!(snakepit_bots::hexbots::NAMES.contains(&b.as_str()), "unknown built-in Hex bot {b:?}");
        }
        games.insert(
            "hex",
            GameSetup { setup: Setup::Hex { settings: hex_settings, map: hex_map }, fill_bots: hx.fill_bots.clone(), tick_ms: hx.tick_ms },
        );
        for game in ["carrots", "duel", "multisnake"] {
            let a = cfg.arena(game);
            for b in &a.fill_bots {
                anyhow::ensure!(arenas::NAMES.contains(&b.as_str()), "unknown built-in {game} bot {b:?} (there are {})", arenas::NAMES.join(", "));
            }
            let pairs = a.settings.iter().map(|(k, v)| (k.as_str(), v.as_str()));
            let setup = match game {
                "carrots" => {
                    let settings = snakepit_engine::carrots::Settings::from_pairs(pairs).context("carrots settings")?;
                    anyhow::ensure!((1..=64).contains(&a.seats), "carrots seats: 1 to 64");
                    Setup::Carrots { settings, seats: a.seats }
                }
                "duel" => Setup::Duel {
                    settings: snakepit_engine::duel::Settings::from_pairs(pairs).context("duel settings")?,
                    pause_ticks: a.pause_ticks,
                },
                _ => {
                    use snakepit_engine::multisnake as m;
                    let settings = m::Settings::from_pairs(pairs).context("multisnake settings")?;
                    let maps = match &a.map {
                        Some(name) => match m::builtin_map(name) {
                            Some(map) => MapSource::Fixed(map),
                            None => {
                                let text = std::fs::read_to_string(name).with_context(|| format!("reading the multisnake map {name}"))?;
                                MapSource::Fixed(m::Map::parse(&text).with_context(|| name.clone())?)
                            }
                        },
                        None => {
                            let spec = m::MapSpec::from_pairs(a.map_spec.iter().map(|(k, v)| (k.as_str(), v.as_str())))
                                .context("multisnake map_spec")?;
                            // Fails here, at start, rather than in a room.
                            m::generate(&spec, 1).context("multisnake map_spec")?;
                            MapSource::Generated(spec)
                        }
                    };
                    Setup::Multisnake { settings, maps, pause_ticks: a.pause_ticks }
                }
            };
            games.insert(game, GameSetup { setup, fill_bots: a.fill_bots.clone(), tick_ms: a.tick_ms });
        }
        let rooms = Rooms {
            inner: Mutex::new(Inner { rooms: BTreeMap::new(), player_room: BTreeMap::new() }),
            creating: Mutex::new(()),
            store: store.clone(),
            games,
            seat_release_ms: cfg.limits.seat_release_ms,
            pages_per_player: cfg.limits.pages_per_player,
            latency: Arc::new(Histogram::default()),
        };
        for row in store.rooms()? {
            rooms.launch(row)?;
        }
        for spec in &cfg.rooms {
            if rooms.get(&spec.name).is_none() {
                rooms.create(&spec.name, &spec.game, spec.tick_ms)?;
            }
        }
        Ok(rooms)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn launch(&self, row: RoomRow) -> anyhow::Result<RoomHandle> {
        let g = self.games.get(row.game.as_str()).with_context(|| format!("room {}: unknown game {:?}", row.name, row.game))?;
        let cfg = RoomConfig {
            name: row.name.clone(),
            tick_ms: row.tick_ms,
            paused: row.paused,
            seed: row.seed,
            fill_bots: g.fill_bots.clone(),
            release_after_ms: self.seat_release_ms,
            latency: self.latency.clone(),
            pages_per_player: self.pages_per_player,
        };
        let handle = match &g.setup {
            Setup::SnakeBattle { settings, map } => {
                let seats = settings.players_per_field as usize;
                let game = SnakeBattle::new(settings.clone(), map.clone(), seats, row.seed)?;
                room::spawn(SnakeBattleRoom::new(game), cfg, self.store.clone())
            }
            Setup::Hex { settings, map } => {
                room::spawn(HexRoom::new(Hex::new_room(settings.clone(), map.clone(), row.seed)), cfg, self.store.clone())
            }
            Setup::Carrots { settings, seats } => {
                let game = snakepit_engine::carrots::Carrots::new(settings.clone(), *seats, row.seed)?;
                room::spawn(CarrotsRoom::new(game), cfg, self.store.clone())
            }
            Setup::Duel { settings, pause_ticks } => {
                room::spawn(DuelRoom::new(settings.clone(), row.seed, *pause_ticks), cfg, self.store.clone())
            }
            Setup::Multisnake { settings, maps, pause_ticks } => {
                let game = MultisnakeRoom::new(settings.clone(), maps.clone(), row.seed, *pause_ticks)?;
                room::spawn(game, cfg, self.store.clone())
            }
        };
        self.lock().rooms.insert(row.name, handle.clone());
        Ok(handle)
    }

    /// Creates, persists and starts a room of a game.
    pub fn create(&self, name: &str, game: &str, tick_ms: Option<u64>) -> anyhow::Result<RoomHandle> {
        let _creating = self.creating.lock().unwrap_or_else(|e| e.into_inner());
        self.create_locked(name, game, tick_ms)
    }

    fn create_locked(&self, name: &str, game: &str, tick_ms: Option<u64>) -> anyhow::Result<RoomHandle> {
        anyhow::ensure!(valid_room_name(name), "room names are 1 to {ROOM_NAME_MAX_CHARS} of a-z, 0-9, - and _");
        anyhow::ensure!(self.get(name).is_none(), "room {name:?} exists");
        let (game, setup) = self.games.get_key_value(game).with_context(|| format!("unknown game {game:?}"))?;
        let mut seed = [0u8; 8];
        getrandom::fill(&mut seed).context("random seed")?;
        let row = RoomRow {
            name: name.to_string(),
            game: game.to_string(),
            tick_ms: tick_ms.unwrap_or(setup.tick_ms).clamp(room::MIN_TICK_MS, room::MAX_TICK_MS),
            paused: false,
            seed: u64::from_le_bytes(seed) >> 1,
        };
        self.store.save_room(&row)?;
        self.launch(row)
    }

    /// Whether the server hosts this game.
    pub fn hosts(&self, game: &str) -> bool {
        self.games.contains_key(game)
    }

    /// A room by name.
    pub fn get(&self, name: &str) -> Option<RoomHandle> {
        self.lock().rooms.get(name).cloned()
    }

    /// Every room, by name.
    pub fn list(&self) -> Vec<RoomHandle> {
        self.lock().rooms.values().cloned().collect()
    }

    /// The room a player sits in.
    pub fn room_of(&self, player_id: &str) -> Option<RoomHandle> {
        let inner = self.lock();
        inner.player_room.get(player_id).and_then(|r| inner.rooms.get(r)).cloned()
    }

    /// Persists a room's pause flag and tick period.
    pub fn persist(&self, handle: &RoomHandle, paused: bool, tick_ms: u64) -> anyhow::Result<()> {
        let mut rows = self.store.rooms()?;
        if let Some(row) = rows.iter_mut().find(|r| r.name == handle.name) {
            row.paused = paused;
            row.tick_ms = tick_ms;
            self.store.save_room(row)?;
        }
        Ok(())
    }

    /// Forgets where a player sits (after a kick).
    pub fn forget(&self, player_id: &str) {
        self.lock().player_room.remove(player_id);
    }

    /// Seats the player (if needed) and attaches a connection.
    pub async fn attach(
        &self,
        player: PlayerRef,
        kind: ConnKind,
        conn_id: u64,
        tx: mpsc::Sender<Outgoing>,
    ) -> Result<(RoomHandle, usize), String> {
        // Several connections may race for the last seat of a room; the losers
        // try again, and a new room is opened when none has a seat.
        for _ in 0..32 {
            let find = || {
                let inner = self.lock();
                let current = inner.player_room.get(&player.id).and_then(|r| inner.rooms.get(r)).cloned();
                current.or_else(|| {
                    inner.rooms.values().find(|h| h.game == player.game && h.summary.borrow().free_seats > 0).cloned()
                })
            };
            let handle = match find() {
                Some(h) => h,
                None => {
                    let _creating = self.creating.lock().unwrap_or_else(|e| e.into_inner());
                    match find() {
                        Some(h) => h,
                        None => {
                            let n = self.lock().rooms.len() + 1;
                            let name = (n..).map(|i| format!("{}-{i}", player.game)).find(|c| self.get(c).is_none()).expect("some name is free");
                            self.create_locked(&name, &player.game, None).map_err(|e| format!("cannot open a room: {e:#}"))?
                        }
                    }
                }
            };
            let (reply_tx, reply_rx) = oneshot::channel();
            let input = RoomInput::Attach { player: player.clone(), kind, conn_id, tx: tx.clone(), reply: reply_tx };
            if handle.tx.send(input).await.is_err() {
                return Err("the room has stopped".to_string());
            }
            match reply_rx.await {
                Ok(Ok(seat)) => {
                    self.lock().player_room.insert(player.id.clone(), handle.name.clone());
                    return Ok((handle, seat));
                }
                Ok(Err(AttachError::Full)) => {
                    self.lock().player_room.remove(&player.id);
                }
                Ok(Err(AttachError::Refused(why))) => return Err(why),
                Err(_) => return Err("the room has stopped".to_string()),
            }
        }
        Err("no room could take the player".to_string())
    }
}

/// Room names appear in URLs.
pub fn valid_room_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= ROOM_NAME_MAX_CHARS
        && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}
