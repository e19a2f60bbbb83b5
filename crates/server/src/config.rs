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

/// The whole configuration.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Address to listen on.
    pub bind: String,
    /// Port (0 picks a free one).
    pub port: u16,
    /// SQLite database file.
    pub db: PathBuf,
    /// Token for the admin page and API; generated at start when empty.
    pub admin_token: String,
    /// SnakeBattle settings shared by its rooms.
    pub snakebattle: SnakeBattleConfig,
    /// Hex settings shared by its rooms.
    pub hex: HexConfig,
    /// Rooms created at start (in addition to those in the database).
    pub rooms: Vec<RoomSpec>,
    /// Connection limits.
    pub limits: Limits,
}

/// SnakeBattle room defaults.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SnakeBattleConfig {
    /// `codebattle` (the seed) or `codenjoy`.
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
    /// `seed` (seed 001 scoring) or `codenjoy`.
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

/// A room to create at start.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomSpec {
    /// Unique name (letters, digits, `-`, `_`).
    pub name: String,
    /// Game: `snakebattle` or `hex`.
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
    /// A bot silent for this long is disconnected (pages only watch, so
    /// they are exempt; a dead page fails the send timeout instead).
    pub idle_timeout_ms: u64,
    /// A client that does not take a message within this time is disconnected.
    pub send_timeout_ms: u64,
    /// Browser pages one player may have open.
    pub pages_per_player: usize,
    /// Simultaneous WebSocket connections in all.
    pub max_connections: usize,
    /// A seat whose player has had no connection this long goes to a bot.
    pub seat_release_ms: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bind: "0.0.0.0".to_string(),
            port: 8080,
            db: PathBuf::from("snakepit.sqlite"),
            admin_token: String::new(),
            snakebattle: SnakeBattleConfig::default(),
            hex: HexConfig::default(),
            rooms: vec![
                RoomSpec { name: "snakebattle".to_string(), game: default_game(), tick_ms: None },
                RoomSpec { name: "hex".to_string(), game: "hex".to_string(), tick_ms: None },
            ],
            limits: Limits::default(),
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
            seat_release_ms: 600_000,
        }
    }
}

impl Config {
    /// Reads the file (if any), then applies environment overrides.
    pub fn load(path: Option<&Path>) -> anyhow::Result<Config> {
        let mut cfg = match path {
            Some(p) => {
                let text = std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
                toml::from_str(&text).with_context(|| format!("{}", p.display()))?
            }
            None => Config::default(),
        };
        cfg.apply_env(|k| std::env::var(k).ok())?;
        Ok(cfg)
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

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn the_example_file_is_the_defaults() {
        let cfg: Config = toml::from_str(include_str!("../../../snakepit.example.toml")).unwrap();
        let d = Config::default();
        assert_eq!((cfg.bind, cfg.port, cfg.db, cfg.admin_token), (d.bind, d.port, d.db, d.admin_token));
        assert_eq!(cfg.snakebattle.fill_bots, d.snakebattle.fill_bots);
        assert_eq!(cfg.limits.max_message_bytes, d.limits.max_message_bytes);
        assert_eq!(cfg.limits.seat_release_ms, d.limits.seat_release_ms);
    }
}
