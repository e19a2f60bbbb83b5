//! Load generator for `snakepit serve`.
//!
//! Starts the server binary as a child process on a loopback port with a
//! fresh database and every limit raised for the bots it will hold (rooms
//! per game, connections per address, open files), registers N players
//! through the admin API, connects N WebSocket bots that answer every
//! board, waits for a warm-up, resets the server's latency histogram and
//! measures for a fixed time. It prints:
//!
//! - what the clients saw: boards per second against bots per tick, and per
//!   bot the gap between consecutive boards minus the tick period (p50, p99,
//!   max over every gap of every bot);
//! - the server's own figures: p50 and p99 of the time from a room's tick to
//!   the last board of that tick written to its socket, and its RSS.
//!
//! It exits non-zero, after printing, when it did not measure what it
//! claims: a bot that got no board while measuring, or far fewer boards
//! than one per bot per tick. Everything is bounded: the bot count, the run
//! time, and the child server, which is killed at the end whatever happens.
//!
//! `cargo run --release -p snakepit-load -- --server target/release/snakepit --bots 10000 --seconds 30`

use anyhow::{Context, bail};
use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

const TOKEN: &str = "load-test-token";
/// Hard caps so a typo cannot turn this into something else.
const MAX_BOTS: usize = 20_000;
const MAX_SECONDS: u64 = 600;

/// Many WebSocket bots against one server.
#[derive(Parser)]
struct Args {
    /// The snakepit binary to start.
    #[arg(long, default_value = "target/release/snakepit")]
    server: String,
    /// Number of bots (5 per room).
    #[arg(long, default_value_t = 1000)]
    bots: usize,
    /// Tick period of the rooms.
    #[arg(long, default_value_t = 1000)]
    tick_ms: u64,
    /// Warm-up before measuring.
    #[arg(long, default_value_t = 10)]
    warmup_seconds: u64,
    /// Measuring time.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
}

/// Kills the child server on every exit path.
struct Child(tokio::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.start_kill();
    }
}

async fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> anyhow::Result<(u16, String)> {
    let mut s = TcpStream::connect(addr).await?;
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nAuthorization: Bearer {TOKEN}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await?;
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await?;
    let text = String::from_utf8_lossy(&buf).to_string();
    let status = text.split(' ').nth(1).context("no status")?.parse()?;
    let body = text.split_once("\r\n\r\n").map(|x| x.1.to_string()).unwrap_or_default();
    Ok((status, body))
}

/// Boards per bot per tick, at least, for a run to count: every bot
/// answers at once, so it is offered a board every tick; a round's start
/// and a bot's death cost a few.
const BOARDS_PER_BOT_TICK_MIN: f64 = 0.9;

/// What one bot saw while measuring.
#[derive(Default)]
struct BotSeen {
    boards: u64,
    /// Gaps between consecutive boards minus the tick period, in µs
    /// (negative when a board came early, after a late one).
    lateness_us: Vec<i64>,
}

/// The `q` quantile of sorted values.
fn quantile(sorted: &[i64], q: f64) -> i64 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    if args.bots == 0 || args.bots > MAX_BOTS || args.seconds > MAX_SECONDS || args.warmup_seconds > MAX_SECONDS {
        bail!("at most {MAX_BOTS} bots and {MAX_SECONDS} s");
    }
    // Ten thousand sockets need more descriptors than the usual soft limit.
    let open_files = snakepit_server::os_limits::raise_open_files_limit()?;
    anyhow::ensure!(
        open_files as usize > args.bots + 256,
        "the open-files limit is {open_files}: too low for {} sockets (run as root, or raise the hard limit)",
        args.bots
    );
    eprintln!("open files limit: {open_files}");
    let dir = std::env::temp_dir().join(format!("snakepit-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    // Every bot comes from 127.0.0.1: the per-address limits are raised to
    // hold them all.
    let config = dir.join("load.toml");
    let per_ip = args.bots + 64;
    std::fs::write(
        &config,
        format!(
            "[limits]\nsockets_per_ip = {per_ip}\nconnections_per_ip = {per_ip}\nmax_connections = {all}\nconnections_max = {all}\nrooms_per_game_max = {rooms}\n",
            all = per_ip.max(20_000),
            // Five snakes a room, and a few rooms to spare.
            rooms = args.bots / 5 + 16
        ),
    )?;
    let mut child = tokio::process::Command::new(&args.server)
        .args(["serve", "--bind", "127.0.0.1", "--port", "0", "--config"])
        .arg(&config)
        .arg("--db")
        .arg(dir.join("load.sqlite"))
        .args(["--tick-ms", &args.tick_ms.to_string()])
        .env("SNAKEPIT_ADMIN_TOKEN", TOKEN)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .with_context(|| format!("starting {}", args.server))?;
    let stdout = child.stdout.take().context("server stdout")?;
    let child = Child(child);
    let mut lines = BufReader::new(stdout).lines();
    let addr: SocketAddr = loop {
        let line = tokio::time::timeout(Duration::from_secs(30), lines.next_line()).await??.context("server exited")?;
        if let Some(rest) = line.strip_prefix("snakepit listening on http://") {
            break rest.trim().parse()?;
        }
    };
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    eprintln!("server at {addr}; registering {} players", args.bots);
    let mut players = Vec::with_capacity(args.bots);
    for i in 0..args.bots {
        let (status, body) = http(addr, "POST", "/api/admin/players", &format!("{{\"name\":\"load{i}\"}}")).await?;
        anyhow::ensure!(status == 201, "register: {status} {body}");
        let v: serde_json::Value = serde_json::from_str(&body)?;
        players.push((v["id"].as_str().unwrap_or_default().to_string(), v["code"].as_str().unwrap_or_default().to_string()));
    }
    eprintln!("connecting {} bots", args.bots);
    let tick = Duration::from_millis(args.tick_ms);
    let measuring = Arc::new(AtomicBool::new(false));
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let mut tasks = Vec::new();
    for (id, code) in players {
        let url = format!("ws://{addr}/codenjoy-contest/ws?user={id}&code={code}");
        // Small buffers: the generator holds every socket in one process.
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default().read_buffer_size(8192).write_buffer_size(0);
        let (mut ws, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), false).await.context("websocket")?;
        let measuring = measuring.clone();
        let mut stop = stop_rx.clone();
        tasks.push(tokio::spawn(async move {
            let mut seen = BotSeen::default();
            let mut turn = 0u32;
            let mut last: Option<Instant> = None;
            loop {
                tokio::select! {
                    msg = ws.next() => match msg {
                        Some(Ok(Message::Text(_))) => {
                            let now = Instant::now();
                            if measuring.load(Ordering::Relaxed) {
                                seen.boards += 1;
                                if let Some(last) = last {
                                    let gap = now - last;
                                    seen.lateness_us.push(gap.as_micros() as i64 - tick.as_micros() as i64);
                                }
                            }
                            last = Some(now);
                            turn += 1;
                            let cmd = ["UP", "RIGHT", "DOWN", "LEFT"][(turn / 3 % 4) as usize];
                            if ws.send(Message::Text(cmd.into())).await.is_err() { break; }
                        }
                        Some(Ok(_)) => {}
                        _ => break,
                    },
                    _ = stop.changed() => break,
                }
            }
            seen
        }));
    }
    eprintln!("warming up {} s", args.warmup_seconds);
    tokio::time::sleep(Duration::from_secs(args.warmup_seconds)).await;
    http(addr, "POST", "/api/admin/metrics/reset", "").await?;
    measuring.store(true, Ordering::Relaxed);
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    measuring.store(false, Ordering::Relaxed);
    let (_, metrics) = http(addr, "GET", "/api/metrics", "").await?;
    let m: serde_json::Value = serde_json::from_str(&metrics)?;
    let _ = stop_tx.send(true);
    let mut received = 0;
    let mut unserved = 0;
    let mut lateness = Vec::new();
    for task in tasks {
        let seen = task.await?;
        received += seen.boards;
        unserved += usize::from(seen.boards == 0);
        lateness.extend(seen.lateness_us);
    }
    drop(child);
    lateness.sort_unstable();
    let ms = |us: i64| us as f64 / 1000.0;
    let rss_mb = m["rss_bytes"].as_u64().unwrap_or(0) as f64 / 1e6;
    let ticks = args.seconds as f64 * 1000.0 / args.tick_ms as f64;
    let per_bot_tick = received as f64 / (args.bots as f64 * ticks);
    println!(
        "bots={} rooms={} tick_ms={} seconds={} boards_received={} ({:.0}/s, {per_bot_tick:.3} per bot per tick) bots_without_boards={unserved} \
client_lateness_ms p50={:.1} p99={:.1} max={:.1} \
server_tick_to_last_board_ms p50={} p99={} max={} ticks_measured={} server_rss_mb={rss_mb:.0}",
        args.bots,
        m["rooms"],
        args.tick_ms,
        args.seconds,
        received,
        received as f64 / args.seconds as f64,
        ms(quantile(&lateness, 0.5)),
        ms(quantile(&lateness, 0.99)),
        ms(lateness.last().copied().unwrap_or(0)),
        m["tick_to_last_board_p50_ms"],
        m["tick_to_last_board_p99_ms"],
        m["tick_to_last_board_max_ms"],
        m["ticks"],
    );
    let _ = std::fs::remove_dir_all(&dir);
    // The figures mean nothing unless every bot played all along.
    if unserved > 0 {
        bail!("{unserved} of {} bots got no board while measuring: the server did not serve them all", args.bots);
    }
    if per_bot_tick < BOARDS_PER_BOT_TICK_MIN {
        bail!("{per_bot_tick:.3} boards per bot per tick, under {BOARDS_PER_BOT_TICK_MIN}: bots waited without boards");
    }
    Ok(())
}
