//! The snakepit server: rooms, WebSocket bots, the web UI, persistence.
//!
//! [`Server::start`] opens the database, starts every room task, binds the
//! listener and serves; [`Server::shutdown`] stops accepting, lets every
//! room finish its tick and write its scores, and closes sockets with a
//! reason. Module map:
//!
//! - [`config`]: the TOML file and environment overrides.
//! - [`store`]: SQLite; the only module that knows SQL.
//! - [`games`]: the games a room can host, behind one trait.
//! - [`arenas`]: the stdin/stdout arenas (CodeCarrots, KingOfBots duel,
//!   Multisnake) as room games, with their built-in bots.
//! - [`code`]: programs uploaded in the browser, run in the sandbox as a
//!   seat's bot.
//! - [`room`]: one task per room, owning its game.
//! - [`rooms`]: the registry of rooms and player seating.
//! - [`app`]: HTTP routes, JSON API, admin API, errors as responses.
//! - [`ws`]: WebSocket sessions (bots, player pages, spectators).
//! - [`web`]: the embedded web UI.
//! - [`metrics`]: latency histogram and RSS for load tests.

pub mod app;
pub mod arenas;
pub mod code;
pub mod config;
pub mod games;
pub mod metrics;
pub mod room;
pub mod rooms;
pub mod store;
pub mod templates;
pub mod web;
pub mod ws;

use anyhow::Context;
use app::AppState;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Notify, oneshot};

/// A running server.
pub struct Server {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The admin token in force.
    pub admin_token: String,
    state: Arc<AppState>,
    stop: Arc<Notify>,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    /// Opens the database, starts the rooms and begins serving.
    pub async fn start(cfg: config::Config) -> anyhow::Result<Server> {
        let db = cfg.db.clone();
        let store = tokio::task::spawn_blocking(move || store::Store::open(&db))
            .await?
            .with_context(|| format!("opening the database {}", cfg.db.display()))?;
        let rooms = rooms::Rooms::start(&cfg, store.clone())?;
        let admin_token = if cfg.admin_token.is_empty() { store::random_id() } else { cfg.admin_token.clone() };
        let listener = tokio::net::TcpListener::bind((cfg.bind.as_str(), cfg.port))
            .await
            .with_context(|| format!("listening on {}:{}", cfg.bind, cfg.port))?;
        let addr = listener.local_addr()?;
        let state = Arc::new(AppState::new(cfg, store, rooms, admin_token.clone()));
        code::start_saved(&state).await;
        let stop = Arc::new(Notify::new());
        let app = app::router(state.clone());
        let stopped = stop.clone();
        let task = tokio::spawn(async move {
            let serve = axum::serve(listener, app).with_graceful_shutdown(async move { stopped.notified().await });
            if let Err(e) = serve.await {
                tracing::error!("server stopped: {e}");
            }
        });
        Ok(Server { addr, admin_token, state, stop, task })
    }

    /// Stops gracefully: rooms finish their tick, write their scores and
    /// close their sockets with a reason; then the listener stops.
    pub async fn shutdown(self) {
        for room in self.state.rooms.list() {
            let (tx, rx) = oneshot::channel();
            if room.tx.send(room::RoomInput::Shutdown(tx)).await.is_ok() {
                let _ = tokio::time::timeout(Duration::from_secs(5), rx).await;
            }
        }
        self.stop.notify_one();
        let _ = tokio::time::timeout(Duration::from_secs(10), self.task).await;
    }
}
