//! Server configuration: a TOML file, then environment overrides.
//!
//! Every field has a default, so `snakepit serve` with no file starts a
//! working SnakeBattle server. Environment variables `SNAKEPIT_BIND`,
//! `SNAKEPIT_PORT`, `SNAKEPIT_DB`, `SNAKEPIT_TICK_MS`, `SNAKEPIT_PROFILE` and
//! `SNAKEPIT_ADMIN_TOKEN` override the file; command-line flags override
//! both.

use anyhow::Context;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use snakepit_bots::process::{Layer, LayerSet};
use snakepit_bots::stdio_match::MatchSettings;
use std::time::Duration;

/// The whole configuration.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Address to listen on.
    pub bind: String,
    /// Port (0 picks a free one).
    pub port: u16,
    /// The store: a SQLite file, or a `postgres://` URL shared by several
    /// nodes (cluster mode).
    pub db: PathBuf,
    /// Token for the admin page and API; generated at start when empty.
    pub admin_token: String,
    /// The games players may sign up for (all five by default); the lobby
    /// offers only these, and the default rooms are theirs.
    pub games: Vec<String>,
    /// `open`: anyone signs up on the lobby page; `closed`: only the
    /// organiser adds players (admin page, API or `snakepit admin`).
    pub registration: String,
    /// SnakeBattle settings shared by its rooms.
    pub snakebattle: SnakeBattleConfig,
    /// Hex settings shared by its rooms.
    pub hex: HexConfig,
    /// CodeCarrots snakes (stdin/stdout arena, one endless board).
    pub carrots: ArenaConfig,
    /// KingOfBots Snake duels (stdin/stdout arena, two seats).
    pub duel: ArenaConfig,
    /// SOI Multisnake (stdin/stdout arena, 2, 4 or 8 seats).
    pub multisnake: ArenaConfig,
    /// Programs uploaded in the browser.
    pub code: CodeConfig,
    /// The sandbox those programs run in.
    pub sandbox: SandboxConfig,
    /// Rooms created at start (in addition to those in the database). Given
    /// in the file, they replace the default, one room per game offered.
    pub rooms: Vec<RoomSpec>,
    /// Connection limits.
    pub limits: Limits,
    /// Several nodes on one PostgreSQL store.
    pub cluster: ClusterConfig,
}

/// How this node takes part in a cluster; used only when the store is
/// PostgreSQL.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct ClusterConfig {
    /// This node's name, unique in the cluster; `HOST-PID` when empty.
    pub node: String,
    /// Where the other nodes reach this one (they send players here);
    /// `http://BIND:PORT` when empty, which is wrong when binding 0.0.0.0.
    pub advertise_url: String,
    /// How long a node holds a room without renewing its lease; a dead
    /// node's rooms move after at most this long.
    pub lease_ms: u64,
}

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig { node: String::new(), advertise_url: String::new(), lease_ms: 5000 }
    }
}

/// SnakeBattle room defaults.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SnakeBattleConfig {
    /// `codebattle` (the CodeBattle description) or `codenjoy`.
    pub profile: String,
    /// Extra settings, `key = "value"` as `snakepit play --set` takes them.
    pub settings: std::collections::BTreeMap<String, String>,
    /// Tick period of new rooms.
    pub tick_ms: u64,
    /// Map file; the default 30x30 map when absent.
    pub map: Option<PathBuf>,
    /// Built-in bots that hold the seats players do not.
    pub fill_bots: Vec<String>,
}

/// Hex room defaults.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HexConfig {
    /// `seed` (the Hex description's scoring) or `codenjoy`.
    pub profile: String,
    /// Extra settings, `key = "value"`.
    pub settings: std::collections::BTreeMap<String, String>,
    /// Tick period of new rooms.
    pub tick_ms: u64,
    /// Map file; the default 15x15 map when absent.
    pub map: Option<PathBuf>,
    /// Built-in bots that hold the first seats (the others wait for players).
    pub fill_bots: Vec<String>,
}

impl Default for HexConfig {
    fn default() -> Self {
        HexConfig {
            profile: "seed".to_string(),
            settings: Default::default(),
            tick_ms: 1000,
            map: None,
            fill_bots: vec!["greedy".into(), "random".into()],
        }
    }
}

/// Rooms of a stdin/stdout arena, as the file gives them: every key is
/// optional, and [`Config::arena`] fills in the game's defaults.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct ArenaConfig {
    /// Rule settings, `key = "value"` as `snakepit play --set` takes them.
    pub settings: Option<std::collections::BTreeMap<String, String>>,
    /// Tick period of new rooms.
    pub tick_ms: Option<u64>,
    /// Seats of a CodeCarrots room (the map decides for Multisnake, and a
    /// duel has two).
    pub seats: Option<usize>,
    /// Multisnake: a map file, or the name of a built-in map
    /// (`duo-40x20`, `quad-32x32`, `octo-48x48`); when absent every game
    /// gets a new symmetric map made from `map_spec`.
    pub map: Option<String>,
    /// Multisnake: how generated maps are made (`width`, `height`,
    /// `players`, `walls_percent`, `plus`, `minus`, `snake_len`).
    pub map_spec: Option<std::collections::BTreeMap<String, String>>,
    /// Ticks a finished duel or Multisnake game stays on screen before the
    /// next one starts.
    pub pause_ticks: Option<u32>,
    /// Built-in bots (`greedy`, `safe`) that hold the seats players do not.
    pub fill_bots: Option<Vec<String>>,
    /// Time an uploaded program has for each move, 1 to 60000 ms (5000 in
    /// CodeCarrots, 1000 in the others); its first move gets 10 s more to
    /// start.
    pub move_timeout_ms: Option<u64>,
}

/// The longest time per move an organiser may give uploaded programs: a
/// room waits that long for a slow program before its tick.
pub const MOVE_TIMEOUT_MS_MAX: u64 = 60_000;

/// An arena's room settings with the game's defaults filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arena {
    /// See [`ArenaConfig::settings`].
    pub settings: std::collections::BTreeMap<String, String>,
    /// See [`ArenaConfig::tick_ms`].
    pub tick_ms: u64,
    /// See [`ArenaConfig::seats`].
    pub seats: usize,
    /// See [`ArenaConfig::map`].
    pub map: Option<String>,
    /// See [`ArenaConfig::map_spec`].
    pub map_spec: std::collections::BTreeMap<String, String>,
    /// See [`ArenaConfig::pause_ticks`].
    pub pause_ticks: u32,
    /// See [`ArenaConfig::fill_bots`].
    pub fill_bots: Vec<String>,
    /// See [`ArenaConfig::move_timeout_ms`].
    pub move_timeout_ms: u64,
}

impl Arena {
    /// The defaults of `game` (`carrots`, `duel` or `multisnake`): ticks of
    /// 1 s for CodeCarrots (its server's pace), 300 ms for the duel (which
    /// people play by hand) and 200 ms for Multisnake, eight CodeCarrots
    /// seats, four Multisnake seats on generated 32x32 maps, built-in bots
    /// in the first seats, ten ticks between games.
    pub fn defaults(game: &str) -> Arena {
        let strings = |v: &[&str]| v.iter().map(|b| b.to_string()).collect::<Vec<_>>();
        let (tick_ms, seats, bots, spec): (u64, usize, &[&str], &[(&str, &str)]) = match game {
            "duel" => (300, 2, &["greedy", "safe"], &[]),
            "multisnake" => (200, 4, &["greedy", "safe", "greedy", "safe"], &[("players", "4"), ("width", "32"), ("height", "32")]),
            _ => (1000, 8, &["greedy", "safe", "greedy", "safe"], &[]),
        };
        Arena {
            settings: Default::default(),
            tick_ms,
            seats,
            map: None,
            map_spec: spec.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            pause_ticks: 10,
            fill_bots: strings(bots),
            move_timeout_ms: MatchSettings::for_game(game).move_deadline.as_millis() as u64,
        }
    }
}

/// Programs uploaded in the browser and run in the sandbox.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CodeConfig {
    /// Largest accepted program.
    pub source_bytes_max: usize,
    /// Where programs are written before they are copied into each bot's
    /// own folder; the system's temporary folder when empty.
    pub work_dir: Option<PathBuf>,
    /// C and Java programs compiled at once; players take turns
    /// (`docs/organisers.md`, "Compiling saved programs").
    pub builds_at_once: usize,
    /// Python and JavaScript programs checked at once, in a lane of their
    /// own.
    pub checks_at_once: usize,
    /// Saves that may wait for their turn, all players together (each
    /// player has at most one waiting); a save past this is refused with
    /// 503 and `Retry-After`.
    pub builds_waiting_max: usize,
    /// Wall-clock seconds one build or check may take.
    pub build_seconds_max: u64,
    /// CPU seconds one build or check may use (`RLIMIT_CPU`).
    pub build_cpu_seconds_max: u64,
    /// Memory one build or check may map, in MiB (`RLIMIT_AS`).
    pub build_memory_mib_max: u64,
}

impl Default for CodeConfig {
    fn default() -> Self {
        CodeConfig {
            source_bytes_max: 64 * 1024,
            work_dir: None,
            builds_at_once: 2,
            checks_at_once: 2,
            builds_waiting_max: 32,
            build_seconds_max: 60,
            build_cpu_seconds_max: 60,
            build_memory_mib_max: 2048,
        }
    }
}

/// The sandbox of uploaded programs (see [`crate::sandbox_policy`]).
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct SandboxConfig {
    /// With `registration = "open"`, strangers' programs run only when
    /// every sandbox layer holds on this machine; `true` runs them with
    /// the layers there are. With closed registration they always run
    /// with the layers there are.
    pub allow_missing_layers: bool,
    /// Layers not to use, by the names the start report gives
    /// (`"ipc namespace"`, `"minimal root"`, ...): for a runtime that
    /// cannot live with one. A layer switched off counts as missing.
    pub layers_off: Vec<String>,
}

impl SandboxConfig {
    /// The layers of `layers_off`; an error names an unknown one.
    pub fn layers_off(&self) -> anyhow::Result<LayerSet> {
        let mut off = LayerSet::NONE;
        for name in &self.layers_off {
            let layer = Layer::ALL.into_iter().find(|l| l.name() == name.trim()).with_context(|| {
                let names: Vec<&str> = Layer::ALL.iter().map(|l| l.name()).collect();
                format!("[sandbox] layers_off: no layer {name:?} (the layers are {})", names.join(", "))
            })?;
            off = off.with(layer);
        }
        Ok(off)
    }
}

/// One room per game, named after it.
fn default_rooms<'a>(games: impl Iterator<Item = &'a str>) -> Vec<RoomSpec> {
    games.map(|g| RoomSpec { name: g.to_string(), game: g.to_string(), tick_ms: None }).collect()
}

/// A room to create at start.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct RoomSpec {
    /// Unique name (letters, digits, `-`, `_`).
    pub name: String,
    /// Game: `snakebattle`, `hex`, `carrots`, `duel` or `multisnake`.
    #[serde(default = "default_game")]
    pub game: String,
    /// Tick period; the game's default when absent.
    pub tick_ms: Option<u64>,
}

fn default_game() -> String {
    "snakebattle".to_string()
}

/// Limits on what one connection may do.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Largest WebSocket message accepted from a client.
    pub max_message_bytes: usize,
    /// Messages per second a client may send before it is disconnected.
    pub messages_per_sec: u32,
    /// A bot silent for this long after a board it was sent is
    /// disconnected; one that is asked nothing (a paused room, a dead snake
    /// waiting for the next game) is not. Pages only watch, so they are
    /// exempt; a dead page fails the send timeout instead.
    pub idle_timeout_ms: u64,
    /// A client that does not take a message within this time is disconnected.
    pub send_timeout_ms: u64,
    /// Browser pages one player may have open.
    pub pages_per_player: usize,
    /// Simultaneous WebSocket connections in all.
    pub max_connections: usize,
    /// Simultaneous WebSocket connections from one address (bots, pages,
    /// spectators and forwarded sockets alike), so that one client cannot
    /// take all of `max_connections`. The address is the peer of the TCP
    /// connection: behind a reverse proxy every client shares the proxy's,
    /// and in a cluster a node's forwarded sockets share that node's, so
    /// raise it there.
    pub sockets_per_ip: usize,
    /// Simultaneous TCP connections from one address, of every kind (plain
    /// HTTP and WebSockets); more are closed at once. As for
    /// `sockets_per_ip`, behind a reverse proxy or a shared address raise it.
    pub connections_per_ip: usize,
    /// Simultaneous TCP connections in all; more are closed at once, so
    /// that the process keeps descriptors for its database and its bots'
    /// pipes. Keep it well under the open-files limit.
    pub connections_max: usize,
    /// A connection that is not a WebSocket is closed after this long
    /// without a byte from its client (an unfinished request, an idle
    /// keep-alive); longer than the slowest request (a program's build at
    /// save takes up to a minute).
    pub http_idle_ms: u64,
    /// A seat whose player has had no connection this long goes to a bot
    /// (between two duel or Multisnake games already after
    /// `room::ABSENT_BETWEEN_GAMES_RELEASE_MS`, if that is shorter).
    pub seat_release_ms: u64,
    /// Finished games of built-in bots only that a room keeps (its latest).
    pub bot_games_kept_per_room: u32,
    /// Finished games each registered player keeps (their latest): a game
    /// goes once every player in it has this many newer games. 0 keeps
    /// every game with a player.
    pub games_kept_per_player: u32,
    /// Rooms of one game the server holds at most: rooms are opened as
    /// players arrive, and each plays on with built-in bots until it is
    /// closed (`idle_room_close_ms`).
    pub rooms_per_game_max: usize,
    /// A SnakeBattle newcomer whose snake would sleep longer than this
    /// before a round starts in every room with a free seat gets a room of
    /// their own (within `rooms_per_game_max`), whose first round starts
    /// after its countdown; 0 never opens one for that. Single node only:
    /// in a cluster newcomers wait for the next round of an existing room.
    pub arrival_wait_ms: u64,
    /// A seat the organiser gives a player (`POST
    /// /api/admin/players/ID/room`) waits this long for them to sit down:
    /// meanwhile others who arrive sit in other rooms of the game, and
    /// nobody else moves into it. 0 keeps no seat.
    pub reservation_wait_ms: u64,
    /// A room the server opened for arriving players is closed, and
    /// deleted, once no player has sat in it for this long (every seat
    /// empty or a built-in bot's); 0 keeps such rooms for ever. Rooms of
    /// the configuration and rooms an admin made are never closed.
    pub idle_room_close_ms: u64,
    /// Sign-ups from one address per hour (a bucket of this many that
    /// refills over the hour); behind a reverse proxy every client has
    /// the proxy's address, so raise it there.
    pub registrations_per_ip_per_hour: u32,
    /// Forks of kept games asked from one address per hour (each is a game
    /// a worker plays), counted like sign-ups.
    pub forks_per_ip_per_hour: u32,
}

impl Limits {
    /// The limits a zero would turn into a refusal of everyone, or a
    /// disconnection at once: each must be at least 1.
    fn check(&self) -> anyhow::Result<()> {
        let at_least_one: [(&str, u64); 11] = [
            ("max_message_bytes", self.max_message_bytes as u64),
            ("messages_per_sec", u64::from(self.messages_per_sec)),
            ("idle_timeout_ms", self.idle_timeout_ms),
            ("send_timeout_ms", self.send_timeout_ms),
            ("pages_per_player", self.pages_per_player as u64),
            ("max_connections", self.max_connections as u64),
            ("sockets_per_ip", self.sockets_per_ip as u64),
            ("connections_per_ip", self.connections_per_ip as u64),
            ("connections_max", self.connections_max as u64),
            ("http_idle_ms", self.http_idle_ms),
            ("registrations_per_ip_per_hour", u64::from(self.registrations_per_ip_per_hour)),
        ];
        for (key, value) in at_least_one {
            anyhow::ensure!(
                value >= 1,
                "[limits] {key} = 0: it must be at least 1 (0 would refuse or cut off every client{})",
                if key == "registrations_per_ip_per_hour" { "; registration = \"closed\" stops sign-ups" } else { "" }
            );
        }
        Ok(())
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bind: "0.0.0.0".to_string(),
            port: 8080,
            db: PathBuf::from("snakepit.sqlite"),
            admin_token: String::new(),
            games: crate::rooms::GAMES.iter().map(|g| g.to_string()).collect(),
            registration: "open".to_string(),
            snakebattle: SnakeBattleConfig::default(),
            hex: HexConfig::default(),
            carrots: ArenaConfig::default(),
            duel: ArenaConfig::default(),
            multisnake: ArenaConfig::default(),
            code: CodeConfig::default(),
            sandbox: SandboxConfig::default(),
            rooms: default_rooms(crate::rooms::GAMES.iter().copied()),
            limits: Limits::default(),
            cluster: ClusterConfig::default(),
        }
    }
}

impl Default for SnakeBattleConfig {
    fn default() -> Self {
        SnakeBattleConfig {
            profile: "codebattle".to_string(),
            settings: Default::default(),
            tick_ms: 1000,
            map: None,
            fill_bots: vec!["greedy".into(), "random".into(), "greedy".into(), "random".into(), "greedy".into()],
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_message_bytes: 4096,
            messages_per_sec: 50,
            idle_timeout_ms: 600_000,
            send_timeout_ms: 10_000,
            pages_per_player: 4,
            max_connections: 20_000,
            sockets_per_ip: 64,
            connections_per_ip: 512,
            connections_max: 16_000,
            http_idle_ms: 300_000,
            seat_release_ms: 600_000,
            bot_games_kept_per_room: 200,
            games_kept_per_player: snakepit_store::GAMES_KEPT_PER_PLAYER_DEFAULT,
            rooms_per_game_max: 200,
            arrival_wait_ms: 10_000,
            reservation_wait_ms: 600_000,
            idle_room_close_ms: 1_800_000,
            registrations_per_ip_per_hour: 120,
            forks_per_ip_per_hour: 120,
        }
    }
}

impl Config {
    /// Reads the file (if any), then applies environment overrides.
    pub fn load(path: Option<&Path>) -> anyhow::Result<Config> {
        let mut cfg = match path {
            Some(p) => {
                let text = std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
                let mut cfg: Config = toml::from_str(&text).with_context(|| format!("{}", p.display()))?;
                cfg.resolve_maps(p.parent().unwrap_or(Path::new("")));
                if !cfg.admin_token.is_empty() {
                    warn_if_others_read(p);
                }
                cfg
            }
            None => Config::default(),
        };
        cfg.apply_env(|k| std::env::var(k).ok())?;
        Ok(cfg)
    }

    /// Map files named by a relative path are looked for beside the
    /// configuration file (in `dir`) first, as one who writes
    /// `map = "maps/final.txt"` next to `snakepit.toml` means; a path found
    /// only from the working folder, or a built-in map's name, stays as
    /// given.
    fn resolve_maps(&mut self, dir: &Path) {
        let beside = |given: &Path| -> Option<PathBuf> {
            let candidate = dir.join(given);
            (given.is_relative() && !dir.as_os_str().is_empty() && candidate.is_file()).then_some(candidate)
        };
        for map in [&mut self.snakebattle.map, &mut self.hex.map].into_iter().flatten() {
            if let Some(found) = beside(map) {
                *map = found;
            }
        }
        for map in [&mut self.carrots.map, &mut self.duel.map, &mut self.multisnake.map].into_iter().flatten() {
            if let Some(found) = beside(Path::new(map.as_str())) {
                *map = found.to_string_lossy().into_owned();
            }
        }
    }

    /// An arena's room settings: the file's, then the game's defaults.
    pub fn arena(&self, game: &str) -> Arena {
        let file = match game {
            "duel" => &self.duel,
            "multisnake" => &self.multisnake,
            _ => &self.carrots,
        };
        let d = Arena::defaults(game);
        Arena {
            settings: file.settings.clone().unwrap_or(d.settings),
            tick_ms: file.tick_ms.unwrap_or(d.tick_ms),
            seats: file.seats.unwrap_or(d.seats),
            map: file.map.clone().or(d.map),
            map_spec: file.map_spec.clone().unwrap_or(d.map_spec),
            pause_ticks: file.pause_ticks.unwrap_or(d.pause_ticks),
            fill_bots: file.fill_bots.clone().unwrap_or(d.fill_bots),
            move_timeout_ms: file.move_timeout_ms.unwrap_or(d.move_timeout_ms),
        }
    }

    /// Deadlines and sandbox of the programs players upload for `game`:
    /// the arena's own, with its `move_timeout_ms` in the three
    /// stdin/stdout arenas, and the layers of [`crate::sandbox_policy`].
    pub fn program_settings(&self, game: &str) -> MatchSettings {
        let mut own = MatchSettings::for_game(game);
        crate::sandbox_policy::Policy::of(self).apply(&mut own.limits);
        match game {
            "carrots" | "duel" | "multisnake" => own.with_move_deadline(Duration::from_millis(self.arena(game).move_timeout_ms)),
            _ => own,
        }
    }

    /// Checks what the types do not: every tick period within
    /// [`MIN_TICK_MS`](crate::room::MIN_TICK_MS) to
    /// [`MAX_TICK_MS`](crate::room::MAX_TICK_MS), and no two `[[rooms]]`
    /// of one name. A value out of range is an error, never quietly moved
    /// into range: a typed `0` would otherwise tick a hundred times a
    /// second.
    pub fn check(&self) -> anyhow::Result<()> {
        let mut ticks = vec![("[snakebattle] tick_ms".to_string(), self.snakebattle.tick_ms), ("[hex] tick_ms".to_string(), self.hex.tick_ms)];
        for (game, a) in [("carrots", &self.carrots), ("duel", &self.duel), ("multisnake", &self.multisnake)] {
            ticks.extend(a.tick_ms.map(|ms| (format!("[{game}] tick_ms"), ms)));
        }
        for r in &self.rooms {
            ticks.extend(r.tick_ms.map(|ms| (format!("[[rooms]] {:?} tick_ms", r.name), ms)));
        }
        for (key, ms) in ticks {
            check_tick_ms(ms).with_context(|| key)?;
        }
        for (game, a) in [("carrots", &self.carrots), ("duel", &self.duel), ("multisnake", &self.multisnake)] {
            if let Some(ms) = a.move_timeout_ms {
                anyhow::ensure!(
                    (1..=MOVE_TIMEOUT_MS_MAX).contains(&ms),
                    "[{game}] move_timeout_ms = {ms}: a program's time per move is 1 to {MOVE_TIMEOUT_MS_MAX} ms"
                );
            }
        }
        let mut names = std::collections::BTreeSet::new();
        for r in &self.rooms {
            anyhow::ensure!(names.insert(r.name.as_str()), "two [[rooms]] are named {:?}", r.name);
        }
        let all = crate::rooms::GAMES.join(", ");
        anyhow::ensure!(!self.games.is_empty(), "games: offer at least one of {all}");
        let mut offered = std::collections::BTreeSet::new();
        for g in &self.games {
            anyhow::ensure!(crate::rooms::GAMES.contains(&g.as_str()), "games: unknown game {g:?} (the games are {all})");
            anyhow::ensure!(offered.insert(g.as_str()), "games: {g:?} is listed twice");
        }
        anyhow::ensure!(
            ["open", "closed"].contains(&self.registration.as_str()),
            "registration = {:?}: \"open\" or \"closed\"",
            self.registration
        );
        self.check_fill_bots()?;
        self.sandbox.layers_off()?;
        let c = &self.code;
        // A zero here would refuse every save; `builds_waiting_max = 0`
        // only queues none.
        for (key, value) in [
            ("builds_at_once", c.builds_at_once as u64),
            ("checks_at_once", c.checks_at_once as u64),
            ("build_seconds_max", c.build_seconds_max),
            ("build_cpu_seconds_max", c.build_cpu_seconds_max),
            ("build_memory_mib_max", c.build_memory_mib_max),
        ] {
            anyhow::ensure!(value >= 1, "[code] {key} = 0: it must be at least 1 (0 would refuse every saved program)");
        }
        self.limits.check()
    }

    /// Every `fill_bots` name is a built-in bot of its game: an unknown one
    /// would leave its seat empty without a word.
    fn check_fill_bots(&self) -> anyhow::Result<()> {
        let arenas = |a: &ArenaConfig| a.fill_bots.clone().unwrap_or_default();
        let lists: [(&str, Vec<String>, &[&str]); 5] = [
            ("snakebattle", self.snakebattle.fill_bots.clone(), snakepit_bots::builtin::NAMES),
            ("hex", self.hex.fill_bots.clone(), snakepit_bots::hexbots::NAMES),
            ("carrots", arenas(&self.carrots), crate::arenas::NAMES),
            ("duel", arenas(&self.duel), crate::arenas::NAMES),
            ("multisnake", arenas(&self.multisnake), crate::arenas::NAMES),
        ];
        for (game, bots, names) in lists {
            for bot in bots {
                anyhow::ensure!(
                    names.contains(&bot.as_str()),
                    "[{game}] fill_bots: no built-in bot {bot:?} (the {game} bots are {})",
                    names.join(", ")
                );
            }
        }
        Ok(())
    }

    /// Whether players may sign up themselves.
    pub fn registration_open(&self) -> bool {
        self.registration == "open"
    }

    /// Whether players may sign up for `game`.
    pub fn offers(&self, game: &str) -> bool {
        self.games.iter().any(|g| g == game)
    }

    /// The rooms to make at start: the `[[rooms]]` given, or one room per
    /// game offered when none are.
    pub fn rooms_at_start(&self) -> Vec<RoomSpec> {
        if self.rooms == Config::default().rooms {
            default_rooms(self.games.iter().map(String::as_str))
        } else {
            self.rooms.clone()
        }
    }

    /// Applies `SNAKEPIT_*` overrides read through `get`.
    pub fn apply_env(&mut self, get: impl Fn(&str) -> Option<String>) -> anyhow::Result<()> {
        if let Some(v) = get("SNAKEPIT_BIND") {
            self.bind = v;
        }
        if let Some(v) = get("SNAKEPIT_PORT") {
            self.port = v.parse().context("SNAKEPIT_PORT")?;
        }
        if let Some(v) = get("SNAKEPIT_DB") {
            self.db = v.into();
        }
        if let Some(v) = get("SNAKEPIT_TICK_MS") {
            self.snakebattle.tick_ms = v.parse().context("SNAKEPIT_TICK_MS")?;
            self.hex.tick_ms = self.snakebattle.tick_ms;
            for a in [&mut self.carrots, &mut self.duel, &mut self.multisnake] {
                a.tick_ms = Some(self.snakebattle.tick_ms);
            }
        }
        if let Some(v) = get("SNAKEPIT_PROFILE") {
            self.snakebattle.profile = v;
        }
        if let Some(v) = get("SNAKEPIT_ADMIN_TOKEN") {
            self.admin_token = v;
        }
        Ok(())
    }
}

/// Logs a warning when the configuration file at `path`, which holds the
/// admin token, may be read by users other than its owner. The file is
/// the organiser's: it is left as it is.
fn warn_if_others_read(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    if let Ok(meta) = std::fs::metadata(path) {
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            tracing::warn!(
                "{} holds the admin token and is mode {mode:03o}, readable by other users: make it 0600 (chmod 600), or give the token in SNAKEPIT_ADMIN_TOKEN",
                path.display()
            );
        }
    }
}

/// A tick period from a configuration or a request: an error names the
/// range when it is out of it.
pub fn check_tick_ms(ms: u64) -> anyhow::Result<()> {
    use crate::room::{MAX_TICK_MS, MIN_TICK_MS};
    anyhow::ensure!((MIN_TICK_MS..=MAX_TICK_MS).contains(&ms), "a tick of {ms} ms: ticks are {MIN_TICK_MS} to {MAX_TICK_MS} ms");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_offered_and_registration() {
        let cfg: Config = toml::from_str("games = [\"duel\", \"hex\"]\nregistration = \"closed\"\n").unwrap();
        cfg.check().unwrap();
        assert!(!cfg.registration_open() && cfg.offers("duel") && !cfg.offers("snakebattle"));
        let rooms: Vec<_> = cfg.rooms_at_start().into_iter().map(|r| r.name).collect();
        assert_eq!(rooms, ["duel", "hex"], "the default rooms are the offered games'");
        let cfg: Config = toml::from_str("games = [\"duel\"]\n[[rooms]]\nname = \"final\"\ngame = \"duel\"\n").unwrap();
        assert_eq!(cfg.rooms_at_start().into_iter().map(|r| r.name).collect::<Vec<_>>(), ["final"]);
        for (text, words) in [
            ("games = []\n", "games: offer at least one"),
            ("games = [\"chess\"]\n", "games: unknown game \"chess\""),
            ("games = [\"duel\", \"duel\"]\n", "games: \"duel\" is listed twice"),
            ("registration = \"invite\"\n", "registration = \"invite\""),
        ] {
            let err = toml::from_str::<Config>(text).unwrap().check().unwrap_err().to_string();
            assert!(err.starts_with(words), "{text}: {err}");
        }
    }

    #[test]
    fn values_out_of_range_twin_rooms_and_unknown_bots_are_refused() {
        let check = |text: &str| toml::from_str::<Config>(text).unwrap().check().map_err(|e| format!("{e:#}"));
        assert_eq!(check("[duel]\ntick_ms = 10\n[[rooms]]\nname = \"a\"\ntick_ms = 60000\n"), Ok(()));
        assert_eq!(check(""), Ok(()), "the defaults pass");
        assert_eq!(check("[limits]\nforks_per_ip_per_hour = 0\nidle_room_close_ms = 0\n[multisnake]\nfill_bots = []\n"), Ok(()), "zeros that switch a thing off");
        for (text, words) in [
            ("[snakebattle]\ntick_ms = 1\n", "[snakebattle] tick_ms: a tick of 1 ms: ticks are 10 to 60000 ms"),
            ("[hex]\ntick_ms = 0\n", "[hex] tick_ms: a tick of 0 ms"),
            ("[carrots]\ntick_ms = 60001\n", "[carrots] tick_ms: a tick of 60001 ms"),
            ("[[rooms]]\nname = \"f\"\ntick_ms = 5\n", "[[rooms]] \"f\" tick_ms: a tick of 5 ms"),
            ("[[rooms]]\nname = \"a\"\n[[rooms]]\nname = \"a\"\ngame = \"hex\"\n", "two [[rooms]] are named \"a\""),
            ("[limits]\nsockets_per_ip = 0\n", "[limits] sockets_per_ip = 0: it must be at least 1"),
            ("[limits]\nmessages_per_sec = 0\n", "[limits] messages_per_sec = 0"),
            ("[limits]\nregistrations_per_ip_per_hour = 0\n", "[limits] registrations_per_ip_per_hour = 0: it must be at least 1 (0 would refuse or cut off every client; registration = \"closed\""),
            ("[duel]\nfill_bots = [\"greedy\", \"smart\"]\n", "[duel] fill_bots: no built-in bot \"smart\" (the duel bots are greedy, safe)"),
            ("[hex]\nfill_bots = [\"safe\"]\n", "[hex] fill_bots: no built-in bot \"safe\""),
            ("[duel]\nmove_timeout_ms = 0\n", "[duel] move_timeout_ms = 0: a program's time per move is 1 to 60000 ms"),
            ("[carrots]\nmove_timeout_ms = 60001\n", "[carrots] move_timeout_ms = 60001"),
            ("[sandbox]\nlayers_off = [\"seccomp\", \"jail\"]\n", "[sandbox] layers_off: no layer \"jail\" (the layers are cgroup, rlimits, "),
        ] {
            let got = check(text).unwrap_err();
            assert!(got.starts_with(words), "{text}: {got}");
        }
    }

    #[test]
    fn relative_map_paths_are_read_beside_the_file_first() {
        let dir = std::env::temp_dir().join(format!("snakepit-config-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("maps")).unwrap();
        std::fs::write(dir.join("maps/final.txt"), "x").unwrap();
        let file = dir.join("snakepit.toml");
        std::fs::write(
            &file,
            "[snakebattle]\nmap = \"maps/final.txt\"\n[hex]\nmap = \"elsewhere.txt\"\n\
             [duel]\nmap = \"maps/final.txt\"\n[multisnake]\nmap = \"quad-32x32\"\n",
        )
        .unwrap();
        let cfg = Config::load(Some(&file));
        let _ = std::fs::remove_dir_all(&dir);
        let cfg = cfg.unwrap();
        assert_eq!(cfg.snakebattle.map, Some(dir.join("maps/final.txt")), "found beside the file");
        assert_eq!(cfg.duel.map, Some(dir.join("maps/final.txt").to_string_lossy().into_owned()));
        assert_eq!(cfg.hex.map, Some(PathBuf::from("elsewhere.txt")), "not beside it: as given");
        assert_eq!(cfg.multisnake.map.as_deref(), Some("quad-32x32"), "a built-in map's name");
    }

    #[test]
    fn file_then_env() {
        let mut cfg: Config = toml::from_str(
            "port = 9000\n[snakebattle]\nprofile = \"codenjoy\"\ntick_ms = 200\n[[rooms]]\nname = \"a\"\n",
        )
        .unwrap();
        assert_eq!(cfg.port, 9000);
        assert_eq!(cfg.rooms[0].game, "snakebattle");
        cfg.apply_env(|k| (k == "SNAKEPIT_PORT").then(|| "9100".to_string())).unwrap();
        assert_eq!(cfg.port, 9100);
        assert_eq!(cfg.snakebattle.tick_ms, 200);
        assert!(toml::from_str::<Config>("nonsense = 1").is_err());
        let cfg: Config = toml::from_str("[duel]\ntick_ms = 500\n").unwrap();
        assert_eq!(cfg.arena("duel").tick_ms, 500);
        assert_eq!(cfg.arena("duel").fill_bots, Arena::defaults("duel").fill_bots, "other keys keep the game's defaults");
    }

    #[test]
    fn the_example_file_is_the_defaults() {
        let cfg: Config = toml::from_str(include_str!("../../../snakepit.example.toml")).unwrap();
        cfg.check().unwrap();
        let d = Config::default();
        assert_eq!((&cfg.bind, cfg.port, &cfg.db, &cfg.admin_token), (&d.bind, d.port, &d.db, &d.admin_token));
        assert_eq!((&cfg.games, &cfg.registration), (&d.games, &d.registration));
        assert_eq!(cfg.snakebattle.fill_bots, d.snakebattle.fill_bots);
        assert_eq!(cfg.limits.max_message_bytes, d.limits.max_message_bytes);
        assert_eq!(cfg.limits.seat_release_ms, d.limits.seat_release_ms);
        assert_eq!(
            (cfg.limits.messages_per_sec, cfg.limits.max_connections, cfg.limits.sockets_per_ip),
            (d.limits.messages_per_sec, d.limits.max_connections, d.limits.sockets_per_ip)
        );
        assert_eq!(cfg.limits.bot_games_kept_per_room, d.limits.bot_games_kept_per_room);
        assert_eq!(cfg.limits.games_kept_per_player, d.limits.games_kept_per_player);
        assert_eq!(cfg.limits.rooms_per_game_max, d.limits.rooms_per_game_max);
        assert_eq!(cfg.limits.idle_room_close_ms, d.limits.idle_room_close_ms);
        assert_eq!(cfg.limits.registrations_per_ip_per_hour, d.limits.registrations_per_ip_per_hour);
        let rooms = |c: &Config| c.rooms.iter().map(|r| (r.name.clone(), r.game.clone())).collect::<Vec<_>>();
        assert_eq!(rooms(&cfg), rooms(&d));
        for game in ["carrots", "duel", "multisnake"] {
            assert_eq!(cfg.arena(game), d.arena(game), "{game}");
        }
        assert_eq!(cfg.code.source_bytes_max, d.code.source_bytes_max);
        assert_eq!(cfg.cluster, d.cluster);
        assert_eq!(cfg.sandbox, d.sandbox);
    }
}
