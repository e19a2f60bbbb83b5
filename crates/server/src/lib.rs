//! The snakepit server: rooms, WebSocket bots, the web UI, persistence.
//!
//! [`Server::start`] opens the store, starts the rooms, binds the listener
//! and serves; [`Server::shutdown`] stops accepting, lets every room finish
//! its tick and write its scores, and closes sockets with a reason.
//!
//! The store ([`snakepit_store`]) is a SQLite file, and this node runs
//! every room; or a PostgreSQL database that several nodes share (cluster
//! mode). In cluster mode a task runs [`Cluster::step`] every
//! [`Cluster::period_ms`]: it announces the node with its advertised URL,
//! renews the leases of the rooms this node runs and takes free or lapsed
//! ones up to a fair share; [`rooms::Rooms`] starts and stops rooms as the
//! step decides. Rooms then write scores every tick, so a node killed
//! outright loses at most the tick in flight, and its rooms move to other
//! nodes once their leases lapse. A player or spectator who reaches a node
//! that does not run their room is redirected (pages) or proxied
//! (WebSockets) to the node that does. Module map:
//!
//! - [`config`]: the TOML file and environment overrides.
//! - [`games`]: the games a room can host, behind one trait.
//! - [`arenas`]: the stdin/stdout arenas (CodeCarrots, KingOfBots duel,
//!   Multisnake) as room games, with their built-in bots.
//! - [`code`]: programs uploaded in the browser, run in the sandbox as a
//!   seat's bot.
//! - [`sandbox_policy`]: whether uploaded programs run, given public
//!   sign-up and the sandbox layers this machine has.
//! - [`room`]: one task per room, owning its game.
//! - [`rooms`]: the registry of this node's rooms, player seating, and
//!   where a player's or a room's connections go in a cluster.
//! - [`app`]: HTTP routes, JSON API, admin API, errors as responses.
//! - [`ws`]: WebSocket sessions (bots, player pages, spectators) and the
//!   proxy to another node.
//! - [`peer`]: the one request a node makes of another (start a moved
//!   player's program on the node that runs their new room).
//! - [`web`]: the embedded web UI.
//! - [`metrics`]: latency histogram and RSS for load tests.
//! - [`os_limits`]: the open-files limit raised at start.

pub mod app;
pub mod arenas;
pub mod build_queue;
pub mod code;
pub mod config;
pub mod games;
pub mod metrics;
pub mod os_limits;
pub mod peer;
pub mod record;
pub mod replays;
pub mod room;
pub mod rooms;
pub mod sandbox_policy;
pub mod templates;
pub mod web;
pub mod ws;

use anyhow::Context;
use app::AppState;
use snakepit_store::cluster::Cluster;
use snakepit_store::{Dialect, Store};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Notify, oneshot};

/// How long a stopping server waits for its sockets to send their close
/// frames (each socket task sends its own, after its room has closed it).
/// A client that does not read is cut off by then.
const SOCKETS_CLOSE_WAIT_MS: u64 = 3000;

/// A running server.
pub struct Server {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The admin token in force.
    pub admin_token: String,
    state: Arc<AppState>,
    stop: Arc<Notify>,
    task: tokio::task::JoinHandle<()>,
    /// The cluster's step loop, in cluster mode.
    steps: Option<tokio::task::JoinHandle<()>>,
    /// The loop that closes idle rooms, unless they are kept.
    sweeper: Option<tokio::task::JoinHandle<()>>,
}

impl Server {
    /// Opens the store, starts the rooms and begins serving. With a
    /// PostgreSQL store the node joins the cluster: it takes its share of
    /// the rooms before it returns.
    pub async fn start(cfg: config::Config) -> anyhow::Result<Server> {
        cfg.check()?;
        sandbox_policy::Policy::of(&cfg).log_at_start();
        let address = cfg.db.to_str().with_context(|| format!("the database address {} is not UTF-8", cfg.db.display()))?;
        let store = Store::open(address).await.with_context(|| format!("opening the database {}", redacted(address)))?;
        let listener = tokio::net::TcpListener::bind((cfg.bind.as_str(), cfg.port))
            .await
            .with_context(|| format!("listening on {}:{}", cfg.bind, cfg.port))?;
        let addr = listener.local_addr()?;
        let cluster = match store.dialect() {
            Dialect::Sqlite => None,
            Dialect::Postgres => {
                let c = &cfg.cluster;
                anyhow::ensure!(c.lease_ms >= 100, "cluster.lease_ms must be at least 100");
                let node = if c.node.is_empty() { default_node_name() } else { c.node.clone() };
                let url = if c.advertise_url.is_empty() { format!("http://{addr}") } else { c.advertise_url.clone() };
                Some(Cluster::new(store.clone(), node, url, c.lease_ms))
            }
        };
        let rooms = rooms::Rooms::start(&cfg, store.clone(), cluster.clone()).await?;
        let admin_token = if cfg.admin_token.is_empty() { snakepit_store::random_id() } else { cfg.admin_token.clone() };
        let state = Arc::new(AppState::new(cfg, store, rooms, admin_token.clone()));
        let steps = match cluster {
            Some(cluster) => {
                let report = cluster.step(&state.rooms).await.context("joining the cluster")?;
                tracing::info!(node = cluster.node(), url = cluster.url(), rooms = report.held, "joined the cluster");
                Some(tokio::spawn(step_loop(cluster, state.clone())))
            }
            None => None,
        };
        code::start_saved(&state).await;
        let sweeper = state.rooms.idle_check_period().map(|every| tokio::spawn(idle_room_loop(state.clone(), every)));
        let stop = Arc::new(Notify::new());
        let app = app::router(state.clone());
        let per_ip = state.cfg.limits.sockets_per_ip;
        let limits = &state.cfg.limits;
        let (connections_per_ip, connections_max, http_idle_ms) = (limits.connections_per_ip, limits.connections_max, limits.http_idle_ms);
        // Twice what the message limits allow (the largest message, with
        // its frame's head, as often as allowed): a client within them never
        // comes near it.
        let ws_bytes_per_sec = 2 * (limits.max_message_bytes as u64 + 14) * u64::from(limits.messages_per_sec);
        let send_timeout_ms = limits.send_timeout_ms;
        let stopped = stop.clone();
        let task = tokio::spawn(async move {
            // Each socket knows its peer's address (ConnectInfo) and the
            // per-address count it is held to (limits.sockets_per_ip);
            // connections are held to limits.connections_per_ip and
            // limits.http_idle_ms, and close gracefully (ws::Lingering).
            let app = app.layer(axum::Extension(ws::SocketsPerIp::new(per_ip))).into_make_service_with_connect_info::<ws::PeerAddr>();
            let listener = ws::Lingering::new(listener, connections_per_ip, connections_max, http_idle_ms, ws_bytes_per_sec, send_timeout_ms);
            let serve = axum::serve(listener, app).with_graceful_shutdown(async move { stopped.notified().await });
            if let Err(e) = serve.await {
                tracing::error!("server stopped: {e}");
            }
        });
        Ok(Server { addr, admin_token, state, stop, task, steps, sweeper })
    }

    /// In cluster mode, this node's name and the URL it advertises.
    pub fn cluster_node(&self) -> Option<(String, String)> {
        self.state.rooms.cluster().map(|c| (c.node().to_string(), c.url().to_string()))
    }

    /// Stops gracefully: rooms finish their tick, write their scores and
    /// close their sockets with a reason; then the listener stops.
    pub async fn shutdown(self) {
        if let Some(steps) = &self.steps {
            steps.abort();
        }
        if let Some(sweeper) = &self.sweeper {
            sweeper.abort();
        }
        for room in self.state.rooms.list() {
            let (tx, rx) = oneshot::channel();
            if room.tx.send(room::RoomInput::Shutdown(tx)).await.is_ok() {
                let _ = tokio::time::timeout(Duration::from_secs(5), rx).await;
            }
        }
        // The rooms have written their scores: hand them to the other
        // nodes at once rather than after the lease.
        if let Some(cluster) = self.state.rooms.cluster()
            && let Err(e) = cluster.leave(&self.state.rooms).await
        {
            tracing::warn!("releasing the rooms' leases: {e}");
        }
        self.stop.notify_one();
        let _ = tokio::time::timeout(Duration::from_secs(10), self.task).await;
        // Upgraded sockets outlive the listener: wait until every socket
        // task has ended (each holds a permit until then), so that the
        // process does not exit before the close frames are out.
        let all = u32::try_from(self.state.cfg.limits.max_connections).unwrap_or(u32::MAX);
        let wait = Duration::from_millis(SOCKETS_CLOSE_WAIT_MS);
        let _ = tokio::time::timeout(wait, self.state.sockets.acquire_many(all)).await;
    }
}

/// Closes idle rooms opened for arriving players, looking every `every`,
/// until the server stops.
async fn idle_room_loop(state: Arc<AppState>, every: Duration) {
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        state.rooms.close_idle_rooms(std::time::Instant::now()).await;
    }
}

/// Runs the cluster's step every period until the server stops. A failed
/// step (the database unreachable) is logged and retried; leases that lapse
/// meanwhile stop their rooms at the next step that succeeds.
async fn step_loop(cluster: Cluster, state: Arc<AppState>) {
    let mut every = tokio::time::interval(Duration::from_millis(cluster.period_ms()));
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    every.tick().await;
    loop {
        every.tick().await;
        match cluster.step(&state.rooms).await {
            Ok(r) if !r.started.is_empty() || !r.stopped.is_empty() => {
                tracing::info!(started = ?r.started, stopped = ?r.stopped, held = r.held, "cluster step");
                if !r.started.is_empty() {
                    code::start_saved_in(&state, &r.started).await;
                }
            }
            Ok(_) => {}
            Err(e) => tracing::error!("cluster step failed: {e}"),
        }
        // Every node's lobby lists every room: this node describes its own.
        let views: Vec<(String, String)> = state
            .rooms
            .list()
            .iter()
            .map(|h| {
                let summary = h.summary.borrow().clone();
                (summary.name.clone(), serde_json::to_string(&summary).expect("a summary serialises"))
            })
            .collect();
        if let Err(e) = state.store.set_room_views(cluster.node(), &views, cluster.lease_ms()).await {
            tracing::error!("describing this node's rooms failed: {e}");
        }
    }
}

/// `HOST-PID`: unique per process on a machine, readable in logs.
fn default_node_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").map(|h| h.trim().to_string()).unwrap_or_default();
    let host = if host.is_empty() { "node".to_string() } else { host };
    format!("{host}-{}", std::process::id())
}

/// A database address for messages: a URL's password is left out.
fn redacted(address: &str) -> String {
    if !snakepit_store::is_postgres_url(address) {
        return address.to_string();
    }
    match (address.find("://"), address.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &address[scheme + 3..at];
            let user = userinfo.split(':').next().unwrap_or("");
            format!("{}{user}@{}", &address[..scheme + 3], &address[at + 1..])
        }
        _ => address.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn passwords_stay_out_of_messages() {
        assert_eq!(super::redacted("postgres://ann:secret@db:5432/x"), "postgres://ann@db:5432/x");
        assert_eq!(super::redacted("postgres://ann@db/x"), "postgres://ann@db/x");
        assert_eq!(super::redacted("data/snakepit.sqlite"), "data/snakepit.sqlite");
    }
}
