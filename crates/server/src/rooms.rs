//! The set of rooms, and which room each player sits in.
//!
//! Rooms are tasks; this registry only holds their handles. A player who
//! connects goes back to the room they already sit in, or else to the first
//! room of the game with a free seat (empty or held by a built-in bot), or
//! else to a new room, as Codenjoy fills fields of five.
//!
//! With a PostgreSQL store several nodes share the rooms ([`Cluster`]):
//! this registry then holds only the rooms this node runs, starts and stops
//! them as the cluster's steps decide ([`RoomHost`]), and records each
//! player's room in the store so that any node can tell where a player
//! belongs ([`Rooms::route_player`]). With SQLite every room is this node's.
//!
//! # Moving a player
//!
//! A player moves to another room of their game, or to a new one
//! ([`Rooms::move_player`], `POST /api/player/room`): the new room is recorded
//! first (in the store too, in a cluster), then the old room closes the
//! player's connections with code 1012 and "you moved to room NAME;
//! reconnect", so that they reconnect into it; a saved program is started
//! again there. When the new room runs on another node of a cluster, the node
//! that took the move asks that node to start it (`peer::post_json`, `POST
//! /api/code/start` with the player's own id and code; the other request one
//! node makes of another is an organiser's action; everything else goes
//! through the store). The organiser seats a player the same way (`POST
//! /api/admin/players/ID/room`). Moves are serialised (and rooms close, when
//! idle or when the organiser closes them, `Rooms::close_locked`, under the
//! same lock, after looking again; a closed room's saved programs start again
//! in another room); a connection that was being seated in the old room while
//! the player moved (the per-player move count changed) is sent away the same
//! way. A player asking for a new room gets back one they opened that nobody
//! else sits in, at most `EMPTY_OPENED_ROOMS_MAX` rooms opened by players
//! stand empty per game, and CodeCarrots (one board for everyone) opens none.
//!
//! # Rooms opened for arrivals
//!
//! Rooms opened for arriving players carry `for_arrivals` (migration 009).
//! The node that runs one closes it once no player has sat in it for
//! `limits.idle_room_close_ms`: the row goes first (with its seats and lobby
//! view), so no node starts it again, then the room writes its scores and
//! closes its sockets with code 1001.
//!
//! # Several nodes
//!
//! Every node runs `snakepit_store::cluster::Cluster::step` a few times per
//! lease, with `Rooms` as its `RoomHost`: a node runs the rooms whose leases
//! it holds, takes its fair share of the free ones, and stops a room whose
//! lease it lost (its connections close with code 1012, "the room moved to
//! another node: reconnect"). A request for a room is routed ([`Route`]:
//! here, elsewhere, unavailable): pages answer 307 to the owner's advertised
//! URL, WebSockets (bot, page, spectator) are proxied to the owner, marked
//! with `x-snakepit-forwarded` so that they are never forwarded twice, and
//! 503 says that no node runs the room yet. An organiser's action on a room
//! of another node (kick, remove, seat, pause, tick, close) is sent on by
//! `app::forward_admin` with the same method, path, token and body, and the
//! owner's answer comes back as it is. Which room a player sits in is kept in
//! the store (`seats`, migration 005), so any node can route them; a single
//! node reads it too, so that after a restart players sit where the organiser
//! seated them or they moved.

use crate::config::Config;
use crate::metrics::Histogram;
use crate::room::{self, AttachError, ConnKind, MOVED_CLOSE_CODE, Outgoing, PROGRAM_ANSWER_SLACK, PlayerRef, RoomConfig, RoomHandle, RoomInput};
use snakepit_bots::stdio_match::MatchSettings;
use anyhow::Context;
use snakepit_store::cluster::{Cluster, RoomHost};
use snakepit_store::{RoomRow, Store, StoreError};
use crate::arenas::{CarrotsRoom, DuelRoom, MapSource, MultisnakeRoom};
use crate::games::{HexRoom, SnakeBattleRoom};
use snakepit_engine::hex;
use snakepit_engine::snakebattle::{Map, Settings, SnakeBattle};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
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
    /// Deadlines of the game's uploaded programs.
    programs: MatchSettings,
}

/// All rooms.
pub struct Rooms {
    inner: Mutex<Inner>,
    /// Serialises room creation, so that two connections arriving together
    /// neither pick the same new name nor open two half-empty rooms.
    creating: tokio::sync::Mutex<()>,
    /// Serialises moves between rooms, and idle rooms' closing with them
    /// (taken before `creating`).
    moving: tokio::sync::Mutex<()>,
    store: Store,
    /// Set when several nodes share the store.
    cluster: Option<Cluster>,
    games: BTreeMap<&'static str, GameSetup>,
    seat_release_ms: u64,
    bot_games_kept_per_room: u32,
    games_kept_per_player: u32,
    /// Rooms of one game at most, counting those made by the configuration.
    rooms_per_game_max: usize,
    /// See `limits.arrival_wait_ms`; 0 opens no room for that.
    arrival_wait_ms: u64,
    /// See `limits.idle_room_close_ms`; 0 never closes a room.
    idle_room_close_ms: u64,
    /// See `limits.reservation_wait_ms`; 0 reserves nothing.
    reservation_wait_ms: u64,
    pages_per_player: usize,
    /// The rooms of the configuration (the default rooms and `[[rooms]]`):
    /// a newcomer sits in one of them, or in one opened for arrivals,
    /// before any room the organiser or a player made for some players.
    configured: BTreeSet<String>,
    /// Tick-to-last-board latency of every room.
    pub latency: Arc<Histogram>,
}

struct Inner {
    rooms: BTreeMap<String, RoomHandle>,
    player_room: BTreeMap<String, String>,
    /// This node's rooms opened for arriving players, with the moment
    /// since which no player has sat in them (`None` while one does, or
    /// before the first look).
    for_arrivals: BTreeMap<String, Option<Instant>>,
    /// The rooms each player opened with [`Rooms::move_player`] that are
    /// still open: while one has nobody else in it, asking for a new room
    /// gives that one again, so that nobody fills the server with empty
    /// rooms.
    opened_by: BTreeMap<String, BTreeSet<String>>,
    /// How many times each player moved: an attach that a move overtook
    /// (it chose the old room before the move) is undone.
    moves: BTreeMap<String, u64>,
    /// Players the organiser removed while this node ran: a connection or
    /// program that passed its check of the store just before is refused
    /// when it asks for a seat, or taken out once seated.
    removed: BTreeSet<String>,
    /// Seats the organiser gave players who have not sat down yet: player,
    /// room, and until when the seat waits for them
    /// (`limits.reservation_wait_ms`). Also in the store, so that they
    /// outlast a restart.
    reserved: BTreeMap<String, (String, Instant)>,
}

impl Inner {
    /// Seats of `room` that wait for players other than `player`.
    fn reserved_for_others(&self, room: &str, player: &str) -> usize {
        let now = Instant::now();
        self.reserved.iter().filter(|(p, (r, until))| r == room && p.as_str() != player && *until > now).count()
    }

    /// Whether `player` may take a seat of `h`: a free seat that no
    /// organiser's reservation of another player holds, or one they hold
    /// already.
    fn has_seat_for(&self, h: &RoomHandle, player: &PlayerRef) -> bool {
        let summary = h.summary.borrow();
        summary.free_seats > self.reserved_for_others(&h.name, &player.id)
            || summary.seats.iter().any(|s| !s.bot && s.name == player.name)
    }
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
    /// Builds the registry and saves the configuration's rooms in the store.
    /// On a single node (no `cluster`) it starts every stored room; in a
    /// cluster, rooms start when this node takes their lease. `cfg` has
    /// passed [`Config::check`] (its `fill_bots` are built-in bots).
    pub async fn start(cfg: &Config, store: Store, cluster: Option<Cluster>) -> anyhow::Result<Rooms> {
        let sb = &cfg.snakebattle;
        let mut pairs: Vec<(&str, &str)> = vec![("profile", sb.profile.as_str())];
        pairs.extend(sb.settings.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        let settings = Settings::from_pairs(pairs).context("snakebattle settings")?;
        let map = read_map(sb.map.as_deref(), Map::parse, Map::default_map)?;
        let mut games = BTreeMap::new();
        games.insert(
            "snakebattle",
            GameSetup {
                setup: Setup::SnakeBattle { settings, map },
                fill_bots: sb.fill_bots.clone(),
                tick_ms: sb.tick_ms,
                programs: cfg.program_settings("snakebattle"),
            },
        );
        let hx = &cfg.hex;
        let mut pairs: Vec<(&str, &str)> = vec![("profile", hx.profile.as_str())];
        pairs.extend(hx.settings.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        let hex_settings = hex::Settings::from_pairs(pairs).context("hex settings")?;
        let hex_map = read_map(hx.map.as_deref(), hex::Map::parse, hex::Map::default_map)?;
        games.insert(
            "hex",
            GameSetup {
                setup: Setup::Hex { settings: hex_settings, map: hex_map },
                fill_bots: hx.fill_bots.clone(),
                tick_ms: hx.tick_ms,
                programs: cfg.program_settings("hex"),
            },
        );
        for game in ["carrots", "duel", "multisnake"] {
            let a = cfg.arena(game);
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
            games.insert(game, GameSetup { setup, fill_bots: a.fill_bots.clone(), tick_ms: a.tick_ms, programs: cfg.program_settings(game) });
        }
        let in_cluster = cluster.is_some();
        let rooms = Rooms {
            inner: Mutex::new(Inner { rooms: BTreeMap::new(), player_room: BTreeMap::new(), for_arrivals: BTreeMap::new(), opened_by: BTreeMap::new(), moves: BTreeMap::new(), removed: BTreeSet::new(), reserved: BTreeMap::new() }),
            creating: tokio::sync::Mutex::new(()),
            moving: tokio::sync::Mutex::new(()),
            store: store.clone(),
            cluster,
            games,
            seat_release_ms: cfg.limits.seat_release_ms,
            bot_games_kept_per_room: cfg.limits.bot_games_kept_per_room,
            games_kept_per_player: cfg.limits.games_kept_per_player,
            rooms_per_game_max: cfg.limits.rooms_per_game_max,
            // In a cluster a room opened for one arrival may be taken by
            // another node at its next step, which would close the
            // newcomer's connection moments after it sat down: there,
            // newcomers wait for the next round of an existing room.
            arrival_wait_ms: if in_cluster { 0 } else { cfg.limits.arrival_wait_ms },
            idle_room_close_ms: cfg.limits.idle_room_close_ms,
            reservation_wait_ms: cfg.limits.reservation_wait_ms,
            pages_per_player: cfg.limits.pages_per_player,
            configured: cfg.rooms_at_start().into_iter().map(|spec| spec.name).collect(),
            latency: Arc::new(Histogram::default()),
        };
        let stored = store.rooms().await?;
        for row in stored.iter().filter(|r| !cfg.offers(&r.game)) {
            tracing::warn!(
                room = %row.name,
                "this {} room, kept from an earlier run, plays on though `games` does not offer {}; nobody can sign up for it",
                row.game,
                row.game
            );
        }
        for spec in &cfg.rooms_at_start() {
            match stored.iter().find(|r| r.name == spec.name) {
                None => {
                    let row = rooms.new_row(&spec.name, &spec.game, spec.tick_ms, false)?;
                    store.save_room(&row).await?;
                }
                // The stored room goes on as it was (its game and seats, and
                // a tick the admin may have set since); the organiser who
                // edited the file is told so.
                Some(row) if row.game != spec.game => tracing::warn!(
                    room = %spec.name,
                    "the configuration makes this room a {} room, but it is stored as a {} room and stays one; give the new room another name",
                    spec.game,
                    row.game
                ),
                Some(row) if spec.tick_ms.is_some_and(|ms| ms != row.tick_ms) => tracing::warn!(
                    room = %spec.name,
                    "the room keeps its stored tick of {} ms, not the configuration's {} ms; change it on the admin page or with the admin API",
                    row.tick_ms,
                    spec.tick_ms.unwrap_or_default()
                ),
                Some(_) => {}
            }
        }
        // Seats the organiser kept before a restart go on waiting: nobody
        // sits anywhere yet, so the player finds theirs when they come back.
        let now_ms = unix_ms_now();
        let kept = store.seat_reservations(now_ms).await?;
        {
            let mut inner = rooms.lock();
            let now = Instant::now();
            for r in kept {
                let left = Duration::from_millis(u64::try_from(r.until_unix_ms - now_ms).unwrap_or(0));
                inner.reserved.insert(r.player_id, (r.room, now + left));
            }
        }
        if rooms.cluster.is_none() {
            for row in store.rooms().await? {
                rooms.launch(row)?;
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
            bot_games_kept: self.bot_games_kept_per_room,
            games_kept_per_player: self.games_kept_per_player,
            latency: self.latency.clone(),
            pages_per_player: self.pages_per_player,
            flush_every_tick: self.cluster.is_some(),
            program_wait_max: g.programs.first_move_deadline + PROGRAM_ANSWER_SLACK,
        };
        let handle = match &g.setup {
            Setup::SnakeBattle { settings, map } => {
                let seats = settings.players_per_field as usize;
                let game = SnakeBattle::new(settings.clone(), map.clone(), seats, row.seed)?;
                room::spawn(SnakeBattleRoom::new(game, row.seed), cfg, self.store.clone())
            }
            Setup::Hex { settings, map } => {
                room::spawn(HexRoom::new(settings.clone(), map.clone(), row.seed)?, cfg, self.store.clone())
            }
            Setup::Carrots { settings, seats } => {
                let game = snakepit_engine::carrots::Carrots::new(settings.clone(), *seats, row.seed)?;
                room::spawn(CarrotsRoom::new(game, row.seed), cfg, self.store.clone())
            }
            Setup::Duel { settings, pause_ticks } => {
                room::spawn(DuelRoom::new(settings.clone(), row.seed, *pause_ticks), cfg, self.store.clone())
            }
            Setup::Multisnake { settings, maps, pause_ticks } => {
                let game = MultisnakeRoom::new(settings.clone(), maps.clone(), row.seed, *pause_ticks)?;
                room::spawn(game, cfg, self.store.clone())
            }
        };
        let mut inner = self.lock();
        if row.for_arrivals {
            inner.for_arrivals.insert(row.name.clone(), None);
        }
        inner.rooms.insert(row.name, handle.clone());
        Ok(handle)
    }

    /// Creates, persists and starts a room of a game (in a cluster, on this
    /// node, which takes its lease).
    pub async fn create(&self, name: &str, game: &str, tick_ms: Option<u64>) -> anyhow::Result<RoomHandle> {
        let _creating = self.creating.lock().await;
        self.create_locked(name, game, tick_ms, false).await
    }

    /// A new room's row, with a fresh seed.
    fn new_row(&self, name: &str, game: &str, tick_ms: Option<u64>, for_arrivals: bool) -> anyhow::Result<RoomRow> {
        anyhow::ensure!(valid_room_name(name), "room names are 1 to {ROOM_NAME_MAX_CHARS} of a-z, 0-9, - and _");
        let (game, setup) = self.games.get_key_value(game).with_context(|| format!("unknown game {game:?}"))?;
        let mut seed = [0u8; 8];
        getrandom::fill(&mut seed).context("random seed")?;
        Ok(RoomRow {
            name: name.to_string(),
            game: game.to_string(),
            tick_ms: tick_ms.unwrap_or(setup.tick_ms).clamp(room::MIN_TICK_MS, room::MAX_TICK_MS),
            paused: false,
            seed: u64::from_le_bytes(seed) >> 1,
            for_arrivals,
        })
    }

    async fn create_locked(&self, name: &str, game: &str, tick_ms: Option<u64>, for_arrivals: bool) -> anyhow::Result<RoomHandle> {
        let row = self.new_row(name, game, tick_ms, for_arrivals)?;
        // Every node's rooms are in the store, so this also sees the rooms
        // that run elsewhere.
        anyhow::ensure!(!self.store.rooms().await?.iter().any(|r| r.name == name), "room {name:?} exists");
        self.store.save_room(&row).await?;
        if let Some(cluster) = &self.cluster {
            anyhow::ensure!(cluster.take(name).await?, "room {name:?} is run by another node");
        }
        self.launch(row)
    }

    /// Whether rooms are shared with other nodes.
    pub fn cluster(&self) -> Option<&Cluster> {
        self.cluster.as_ref()
    }

    /// Where a player's connections go: the node that runs the room they
    /// sit in; for a player in no room yet, here when a room of this node
    /// has a seat for them, else the node that runs the first room of their
    /// game (it seats them, or opens a room), else here.
    pub async fn route_player(&self, player_id: &str) -> Result<Route, StoreError> {
        let Some(cluster) = &self.cluster else { return Ok(Route::Local) };
        if self.room_of(player_id).is_some() {
            return Ok(Route::Local);
        }
        if let Some(room) = self.store.seat(player_id).await? {
            return self.route_room(&room).await;
        }
        let Some(player) = self.store.player(player_id).await? else { return Ok(Route::Local) };
        let has_seat = self.lock().rooms.values().any(|h| h.game == player.game && h.summary.borrow().free_seats > 0);
        if has_seat {
            return Ok(Route::Local);
        }
        for row in self.store.rooms().await?.into_iter().filter(|r| r.game == player.game) {
            if let Some(url) = cluster.owner_url(&row.name).await?
                && url != cluster.url()
            {
                return Ok(Route::Remote(url));
            }
        }
        Ok(Route::Local)
    }

    /// Where a room runs: here, on another node (its URL), or nowhere yet.
    /// A room that does not exist is "here" (the caller says so).
    pub async fn route_room(&self, room: &str) -> Result<Route, StoreError> {
        let Some(cluster) = &self.cluster else { return Ok(Route::Local) };
        if self.get(room).is_some() {
            return Ok(Route::Local);
        }
        match cluster.owner_url(room).await? {
            Some(url) if url != cluster.url() => Ok(Route::Remote(url)),
            Some(_) => Ok(Route::Unavailable(format!("room {room:?} is starting; try again in a moment"))),
            None if self.store.rooms().await?.iter().any(|r| r.name == room) => Ok(Route::Unavailable(format!(
                "no node runs room {room:?} now (its node stopped); another takes it within {} ms",
                cluster.lease_ms() + cluster.period_ms()
            ))),
            None => Ok(Route::Local),
        }
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
    pub async fn persist(&self, handle: &RoomHandle, paused: bool, tick_ms: u64) -> anyhow::Result<()> {
        let mut rows = self.store.rooms().await?;
        if let Some(row) = rows.iter_mut().find(|r| r.name == handle.name) {
            row.paused = paused;
            row.tick_ms = tick_ms;
            self.store.save_room(row).await?;
        }
        Ok(())
    }

    /// Forgets where a player sits (after a kick).
    pub fn forget(&self, player_id: &str) {
        self.lock().player_room.remove(player_id);
    }

    /// Marks the player as removed (see `Inner::removed`) and gives the
    /// room they sit in, if any, for the caller to take them out of.
    pub fn remove_player(&self, player_id: &str) -> Option<RoomHandle> {
        let mut inner = self.lock();
        inner.removed.insert(player_id.to_string());
        inner.reserved.remove(player_id);
        let room = inner.player_room.remove(player_id)?;
        inner.rooms.get(&room).cloned()
    }

    /// Seats the player (if needed) and attaches a connection.
    pub async fn attach(
        &self,
        player: PlayerRef,
        kind: ConnKind,
        conn_id: u64,
        tx: mpsc::Sender<Outgoing>,
    ) -> Result<(RoomHandle, usize), String> {
        // The player goes back to the room the store says they sat in,
        // if this node runs it: after a restart, where the organiser seated
        // them or they moved; in a cluster, also after their room changed
        // node.
        let mut stored = self.store.seat(&player.id).await.map_err(|e| hidden("reading the player's room", e))?;
        // Several connections may race for the last seat of a room; the losers
        // try again, and a new room is opened when none has a seat.
        for _ in 0..32 {
            if self.lock().removed.contains(&player.id) {
                return Err(REMOVED_REASON.to_string());
            }
            let moves_before = self.lock().moves.get(&player.id).copied();
            let find = |stored: &Option<String>| {
                let inner = self.lock();
                let current = inner.player_room.get(&player.id).and_then(|r| inner.rooms.get(r)).cloned();
                // A seat the organiser gave another player waits for them.
                let open = |h: &&RoomHandle| h.game == player.game && inner.has_seat_for(h, &player);
                let public = |h: &&RoomHandle| {
                    self.configured.contains(&h.name)
                        || (inner.for_arrivals.contains_key(&h.name) && !inner.opened_by.values().any(|o| o.contains(&h.name)))
                };
                // A newcomer sits where they play soonest: the room whose
                // next round (or game) starts first.
                let soonest = |rooms: Vec<&RoomHandle>| rooms.into_iter().min_by_key(|h| h.summary.borrow().starts_in_ms).cloned();
                let seated = current
                    .or_else(|| stored.as_ref().and_then(|r| inner.rooms.get(r)).cloned())
                    .filter(|h| inner.has_seat_for(h, &player));
                let arriving = seated.is_none();
                let room = seated
                    .or_else(|| soonest(inner.rooms.values().filter(open).filter(public).collect()))
                    .or_else(|| soonest(inner.rooms.values().filter(open).collect()));
                (room, arriving)
            };
            // A SnakeBattle newcomer whom every room would keep asleep for
            // longer than `arrival_wait_ms` gets a new room (within
            // `rooms_per_game_max`), whose first round starts after its
            // countdown.
            let late = |h: &RoomHandle| {
                self.arrival_wait_ms > 0 && h.game == "snakebattle" && h.summary.borrow().starts_in_ms > self.arrival_wait_ms
            };
            let handle = match find(&stored) {
                (Some(h), arriving) if !(arriving && late(&h)) => h,
                _ => {
                    let _creating = self.creating.lock().await;
                    match find(&stored) {
                        (Some(h), arriving) if !(arriving && late(&h)) => h,
                        // At the limit of rooms, the soonest round it is.
                        (Some(h), _) => self.open_room_locked(&player.game).await.unwrap_or(h),
                        (None, _) => self.open_room_locked(&player.game).await?,
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
                    let moved_to = {
                        let mut inner = self.lock();
                        let moved = inner.moves.get(&player.id).copied() != moves_before;
                        match inner.player_room.get(&player.id) {
                            // Removed while this connection was seated.
                            _ if inner.removed.contains(&player.id) => Some(REMOVED_REASON.to_string()),
                            // A move overtook this attach, which chose the
                            // room the player left.
                            Some(now) if moved && *now != handle.name => Some(now.clone()),
                            None if moved => Some(String::new()),
                            _ => {
                                inner.player_room.insert(player.id.clone(), handle.name.clone());
                                // The seat that waited for them is theirs.
                                if inner.reserved.get(&player.id).is_some_and(|(r, _)| *r == handle.name) {
                                    inner.reserved.remove(&player.id);
                                }
                                None
                            }
                        }
                    };
                    if let Some(target) = moved_to {
                        // The player moved while this connection was being
                        // seated in the room they left: it leaves too, and
                        // reconnects to where they went. A removed player
                        // leaves for good.
                        let close = if target == REMOVED_REASON {
                            (REMOVED_CLOSE_CODE, target)
                        } else {
                            (MOVED_CLOSE_CODE, format!("{PLAYER_MOVED_REASON} {target}; reconnect"))
                        };
                        let reason = close.1.clone();
                        handle.kick(&player.id, close).await;
                        return Err(reason);
                    }
                    if stored.as_deref() != Some(handle.name.as_str())
                        && let Err(e) = self.store.set_seat(&player.id, &handle.name).await
                    {
                        // The player plays on; only a restart, or a later
                        // move to another node, would not find this room.
                        tracing::warn!(player = %player.id, "recording the player's room: {e}");
                    }
                    return Ok((handle, seat));
                }
                Ok(Err(AttachError::Full)) => {
                    self.lock().player_room.remove(&player.id);
                    if stored.as_deref() == Some(handle.name.as_str()) {
                        stored = None;
                    }
                }
                Ok(Err(AttachError::Refused(why))) => return Err(why),
                Err(_) => return Err("the room has stopped".to_string()),
            }
        }
        Err("no room could take the player".to_string())
    }
}

impl Rooms {
    /// Opens a room of the game for arriving players, named after the game
    /// (`duel-3`); the caller holds `creating`. Refused once the game has
    /// `limits.rooms_per_game_max` rooms: each room plays on with built-in
    /// bots until it has been idle for long, so sign-ups alone must not
    /// make rooms without end.
    async fn open_room_locked(&self, game: &str) -> Result<RoomHandle, String> {
        let rows = self.store.rooms().await.map_err(|e| hidden("opening a room", e))?;
        let of_game = rows.iter().filter(|r| r.game == game).count();
        if of_game >= self.rooms_per_game_max {
            return Err(format!("every {game} room is full ({of_game} rooms, the most this server opens); try again later"));
        }
        let taken: BTreeSet<String> = rows.into_iter().map(|r| r.name).collect();
        let n = self.lock().rooms.len() + 1;
        let name = (n..).map(|i| format!("{game}-{i}")).find(|c| !taken.contains(c)).expect("some name is free");
        self.create_locked(&name, game, None, true).await.map_err(|e| hidden("opening a room", e))
    }

    /// Moves a player to another room of their game, or to a new one
    /// (`to` is `None`), as two people who want to play each other do:
    /// one opens a room, the other follows them there. The player leaves
    /// their room at once (its connections are closed with
    /// [`MOVED_CLOSE_CODE`] and [`PLAYER_MOVED_REASON`], so that clients
    /// reconnect) and takes a seat in the new one when they reconnect.
    /// Call it on the node that runs the player's room
    /// ([`route_player`](Self::route_player)); in a cluster the target may
    /// run on another node, whose seats are then not checked here (a full
    /// room sends the player to another one at reconnection).
    ///
    /// A new room is a room the player opened before and nobody else sits
    /// in, when there is one; and no new room is opened while
    /// [`EMPTY_OPENED_ROOMS_MAX`] rooms players opened stand empty. A
    /// CodeCarrots board is for everyone: no new one is opened for a player.
    pub async fn move_player(&self, player: &PlayerRef, to: Option<&str>) -> Result<Moved, MoveError> {
        let _moving = self.moving.lock().await;
        let current = self.room_of(&player.id);
        let stay = |room: &str| Ok(Moved { room: room.to_string(), changed: false });
        let target = match to {
            Some(name) => {
                if current.as_ref().is_some_and(|h| h.name == name) {
                    return stay(name);
                }
                match self.get(name) {
                    Some(h) if h.game != player.game => return Err(MoveError::OtherGame(name.to_string(), h.game.clone())),
                    Some(h) if !self.lock().has_seat_for(&h, player) => return Err(MoveError::Full(name.to_string())),
                    Some(h) => h.name.clone(),
                    None => {
                        let rows = self.store.rooms().await.map_err(|e| MoveError::Other(hidden("moving the player", e)))?;
                        match rows.into_iter().find(|r| r.name == name) {
                            Some(r) if self.cluster.is_none() => return Err(MoveError::Other(format!("room {:?} is not running", r.name))),
                            Some(r) if r.game != player.game => return Err(MoveError::OtherGame(r.name, r.game)),
                            Some(r) => r.name,
                            None => return Err(MoveError::NoRoom(name.to_string())),
                        }
                    }
                }
            }
            None if player.game == "carrots" => return Err(MoveError::Refused(CARROTS_ONE_BOARD.to_string())),
            None => {
                let _creating = self.creating.lock().await;
                let (unused, empty_opened) = {
                    let inner = self.lock();
                    let nobody_else = |h: &RoomHandle| {
                        h.summary.borrow().seats.iter().all(|s| s.bot || s.name.is_empty() || s.name == player.name)
                    };
                    let unused = inner
                        .opened_by
                        .get(&player.id)
                        .into_iter()
                        .flatten()
                        .filter_map(|r| inner.rooms.get(r))
                        .find(|h| nobody_else(h))
                        .map(|h| h.name.clone());
                    let opened: BTreeSet<&String> = inner.opened_by.values().flatten().collect();
                    let empty_opened = opened
                        .into_iter()
                        .filter_map(|r| inner.rooms.get(r))
                        .filter(|h| h.game == player.game && h.summary.borrow().seats.iter().all(|s| s.bot || s.name.is_empty()))
                        .count();
                    (unused, empty_opened)
                };
                match unused {
                    Some(name) => name,
                    None if empty_opened >= EMPTY_OPENED_ROOMS_MAX => {
                        return Err(MoveError::Refused(format!(
                            "{empty_opened} rooms opened by players stand empty: move to one of them"
                        )));
                    }
                    None => {
                        let name = self.open_room_locked(&player.game).await.map_err(MoveError::Other)?.name.clone();
                        self.lock().opened_by.entry(player.id.clone()).or_default().insert(name.clone());
                        name
                    }
                }
            }
        };
        if current.as_ref().is_some_and(|h| h.name == target) {
            return stay(&target);
        }
        // The new room is recorded before the old one closes the player's
        // connections, so that they reconnect to it.
        self.store.set_seat(&player.id, &target).await.map_err(|e| MoveError::Other(hidden("moving the player", e)))?;
        {
            let mut inner = self.lock();
            // A seat the organiser kept for them elsewhere is given up.
            inner.reserved.remove(&player.id);
            *inner.moves.entry(player.id.clone()).or_default() += 1;
            if let Some(since) = inner.for_arrivals.get_mut(&target) {
                *since = None;
            }
            if inner.rooms.contains_key(&target) {
                inner.player_room.insert(player.id.clone(), target.clone());
            } else {
                inner.player_room.remove(&player.id);
            }
        }
        if let Some(room) = current {
            room.kick(&player.id, (MOVED_CLOSE_CODE, format!("{PLAYER_MOVED_REASON} {target}; reconnect"))).await;
        }
        Ok(Moved { room: target, changed: true })
    }

    /// Keeps the player's seat in `room`, where the organiser seated them,
    /// for `limits.reservation_wait_ms` or until they sit down: others who
    /// arrive meanwhile sit elsewhere, and nobody else moves into that
    /// seat, also over a restart. Returns until when, in milliseconds from
    /// now (0: nothing kept, as the setting is 0 or the room does not run
    /// on this node).
    pub async fn reserve(&self, player: &PlayerRef, room: &str) -> Result<u64, StoreError> {
        {
            let mut inner = self.lock();
            let now = Instant::now();
            inner.reserved.retain(|_, (_, until)| *until > now);
            let Some(h) = inner.rooms.get(room) else { return Ok(0) };
            // Already sitting there: nothing to keep.
            let sits = h.summary.borrow().seats.iter().any(|s| !s.bot && s.name == player.name);
            if self.reservation_wait_ms == 0 || sits {
                return Ok(0);
            }
            inner.reserved.insert(player.id.clone(), (room.to_string(), now + Duration::from_millis(self.reservation_wait_ms)));
        }
        let until_ms = unix_ms_now().saturating_add(i64::try_from(self.reservation_wait_ms).unwrap_or(i64::MAX));
        self.store.reserve_seat(&player.id, room, until_ms).await?;
        Ok(self.reservation_wait_ms)
    }
}

/// The wall clock in Unix milliseconds, for what the store keeps over a
/// restart (an `Instant` means nothing to the next process).
fn unix_ms_now() -> i64 {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
}

/// Rooms opened by players' moves that may stand empty at once, per game:
/// beyond it, a player who asks for a new room is sent to one of them.
pub const EMPTY_OPENED_ROOMS_MAX: usize = 8;

/// Why a player of CodeCarrots gets no room of their own.
const CARROTS_ONE_BOARD: &str = "CodeCarrots plays on one board for everyone: pick one of its rooms";

/// Where a move put a player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    /// The room's name.
    pub room: String,
    /// False when the player was there already.
    pub changed: bool,
}

/// The start of the close reason a player's connections get when they move
/// to another room; the room's name follows.
pub const PLAYER_MOVED_REASON: &str = "you moved to room";

/// The close reason of a removed player's connections.
pub const REMOVED_REASON: &str = "removed by the organiser";

/// Their close code, as a kick's: a page does not reconnect after it.
pub const REMOVED_CLOSE_CODE: u16 = 4003;

/// Why a player could not move to a room.
#[derive(Debug, thiserror::Error)]
pub enum MoveError {
    /// No room has that name.
    #[error("there is no room {0:?}")]
    NoRoom(String),
    /// The room plays another game than the player's.
    #[error("room {0:?} plays {1}")]
    OtherGame(String, String),
    /// Every seat of the room is held by a player.
    #[error("room {0:?} has no free seat")]
    Full(String),
    /// No new room for this player now (why).
    #[error("{0}")]
    Refused(String),
    /// The store failed, or no room could be opened.
    #[error("{0}")]
    Other(String),
}

impl Rooms {
    /// How often [`close_idle_rooms`](Self::close_idle_rooms) should run:
    /// a quarter of the idle time, at most a minute; `None` when rooms are
    /// never closed.
    pub fn idle_check_period(&self) -> Option<Duration> {
        (self.idle_room_close_ms > 0)
            .then(|| Duration::from_millis(self.idle_room_close_ms / 4).clamp(Duration::from_millis(10), Duration::from_secs(60)))
    }

    /// Closes and deletes this node's rooms opened for arriving players in
    /// which no player has sat for `limits.idle_room_close_ms` (as seen by
    /// the calls so far: the first look at a room starts its count).
    /// Their scores and kept games stay. Returns the rooms closed.
    pub async fn close_idle_rooms(&self, now: Instant) -> Vec<String> {
        if self.idle_room_close_ms == 0 {
            return Vec::new();
        }
        let idle_max = Duration::from_millis(self.idle_room_close_ms);
        let due: Vec<String> = {
            let mut inner = self.lock();
            let Inner { rooms, for_arrivals, .. } = &mut *inner;
            for_arrivals.retain(|name, _| rooms.contains_key(name));
            let mut due = Vec::new();
            for (name, since) in for_arrivals.iter_mut() {
                let seated = rooms[name].summary.borrow().seats.iter().any(|s| !s.bot && !s.name.is_empty());
                match since {
                    _ if seated => *since = None,
                    None => *since = Some(now),
                    Some(t) if now.duration_since(*t) >= idle_max => due.push(name.clone()),
                    Some(_) => {}
                }
            }
            due
        };
        let mut closed = Vec::new();
        for name in due {
            // A player who arrives meanwhile finds another room (or a new one),
            // and one who moved here meanwhile keeps it.
            let _moving = self.moving.lock().await;
            let _creating = self.creating.lock().await;
            // A move into the room starts its idle time afresh.
            let still_due = self.lock().for_arrivals.get(&name).is_some_and(|since| since.is_some_and(|t| now.duration_since(t) >= idle_max));
            if !still_due {
                continue;
            }
            // If the store cannot be written, the room plays on and the
            // next look tries again.
            let minutes = self.idle_room_close_ms.div_ceil(60_000);
            let reason = format!("the room closed: no player sat in it for {minutes} min");
            if let Err(e) = self.close_locked(&name, reason).await {
                tracing::warn!(room = %name, "closing an idle room: {e}");
                continue;
            }
            tracing::info!(room = %name, "closed an idle room");
            closed.push(name);
        }
        closed
    }

    /// Closes and deletes this node's room `name` for the organiser: its
    /// players' connections close with a reason that says to reconnect, and
    /// they are seated again in another room of their game (a new one if
    /// none has a seat). Scores and kept games stay. Returns the ids of the
    /// players who sat in it (whose saved programs the caller starts
    /// again elsewhere), or `None` when this node runs no such room.
    pub async fn delete(&self, name: &str) -> Result<Option<Vec<String>>, StoreError> {
        let _moving = self.moving.lock().await;
        let _creating = self.creating.lock().await;
        if self.get(name).is_none() {
            return Ok(None);
        }
        let players: Vec<String> = self.lock().player_room.iter().filter(|(_, r)| *r == name).map(|(id, _)| id.clone()).collect();
        self.close_locked(name, "the organiser closed this room: reconnect to be seated in another".to_string()).await?;
        tracing::info!(room = %name, players = players.len(), "the organiser closed the room");
        Ok(Some(players))
    }

    /// Deletes room `name` from the store, then forgets it here, releases
    /// its lease and tells its task to close every connection with
    /// `reason`. Called with `moving` and `creating` held, so that no move
    /// or arrival picks the room meanwhile. The store goes first: no node
    /// may start the room again; if that fails, nothing changed.
    async fn close_locked(&self, name: &str, reason: String) -> Result<(), StoreError> {
        self.store.remove_room(name).await?;
        let handle = {
            let mut inner = self.lock();
            inner.for_arrivals.remove(name);
            inner.player_room.retain(|_, r| r != name);
            // Its name may be used again, for someone else's room.
            inner.opened_by.values_mut().for_each(|rooms| {
                rooms.remove(name);
            });
            inner.opened_by.retain(|_, rooms| !rooms.is_empty());
            inner.rooms.remove(name)
        };
        if let Some(cluster) = &self.cluster
            && let Err(e) = self.store.release_lease(&format!("room:{name}"), cluster.node()).await
        {
            tracing::warn!(room = %name, "releasing a closed room's lease: {e}");
        }
        if let Some(h) = handle {
            let _ = h.tx.send(RoomInput::Close(reason)).await;
        }
        Ok(())
    }
}

/// Where a player's or a room's connections go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// This node serves them.
    Local,
    /// The node at this URL (`http://host:port`) runs the room.
    Remote(String),
    /// No node runs the room at the moment; the reason says why.
    Unavailable(String),
}

impl RoomHost for Rooms {
    fn running(&self) -> BTreeSet<String> {
        self.lock().rooms.keys().cloned().collect()
    }

    fn start(&self, row: &RoomRow) {
        if self.get(&row.name).is_some() {
            return;
        }
        if let Err(e) = self.launch(row.clone()) {
            tracing::error!(room = %row.name, "cannot start the room: {e:#}");
        }
    }

    fn stop(&self, room: &str) {
        let handle = {
            let mut inner = self.lock();
            inner.player_room.retain(|_, r| r != room);
            inner.rooms.remove(room)
        };
        if let Some(h) = handle {
            tracing::info!(room, "the room moves to another node");
            // The room writes its scores and closes its sockets on its own
            // task; the step does not wait for it.
            tokio::spawn(async move {
                let _ = h.tx.send(RoomInput::Moved).await;
            });
        }
    }
}

/// Room names appear in URLs.
pub fn valid_room_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= ROOM_NAME_MAX_CHARS
        && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

/// What a client is told of a failure on our side (the store, say): what
/// failed, not how; the details go to the log.
fn hidden(what: &str, e: impl std::fmt::Display) -> String {
    tracing::error!("{what}: {e:#}");
    format!("{what} failed on the server; try again")
}
