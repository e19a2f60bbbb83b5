//! Load generator for `snakepit serve`.
//!
//! Starts the server binary as a child process on a loopback port with a
//! fresh database, registers N players through the admin API, connects N
//! WebSocket bots that answer every board, waits for a warm-up, resets the
//! server's latency histogram, measures for a fixed time, and prints the
//! server's own figures: p50 and p99 of the time from a room's tick to the
//! last board of that tick written to its socket, and the server's RSS.
//! Everything is bounded: the bot count, the run time, and the child server,
//! which is killed at the end whatever happens.
//!
//! `cargo run --release -p snakepit-load -- --server target/release/snakepit --bots 1000 --seconds 30`

use anyhow::{Context, bail};
use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
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

/// Ten thousand sockets need more descriptors than the usual soft limit;
/// raise it to the hard limit.
fn raise_nofile() {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(n) => eprintln!("open files limit: {n}"),
        Err(e) => eprintln!("cannot raise the open files limit: {e}"),
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    if args.bots == 0 || args.bots > MAX_BOTS || args.seconds > MAX_SECONDS || args.warmup_seconds > MAX_SECONDS {
        bail!("at most {MAX_BOTS} bots and {MAX_SECONDS} s");
    }
    raise_nofile();
    let dir = std::env::temp_dir().join(format!("snakepit-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    // Every bot comes from 127.0.0.1: the per-address limits are raised to
    // hold them all.
    let config = dir.join("load.toml");
    let per_ip = args.bots + 64;
    std::fs::write(
        &config,
        format!(
            "[limits]\nsockets_per_ip = {per_ip}\nconnections_per_ip = {per_ip}\nmax_connections = {all}\nconnections_max = {all}\n",
            all = per_ip.max(20_000)
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
    let boards = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(tokio::sync::Notify::new());
    let mut tasks = Vec::new();
    for (id, code) in players {
        let url = format!("ws://{addr}/codenjoy-contest/ws?user={id}&code={code}");
        // Small buffers: the generator holds every socket in one process.
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default().read_buffer_size(8192).write_buffer_size(0);
        let (mut ws, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), false).await.context("websocket")?;
        let boards = boards.clone();
        let stop = stop.clone();
        tasks.push(tokio::spawn(async move {
            let mut turn = 0u32;
            loop {
                tokio::select! {
                    msg = ws.next() => match msg {
                        Some(Ok(Message::Text(_))) => {
                            boards.fetch_add(1, Ordering::Relaxed);
                            turn += 1;
                            let cmd = ["UP", "RIGHT", "DOWN", "LEFT"][(turn / 3 % 4) as usize];
                            if ws.send(Message::Text(cmd.into())).await.is_err() { break; }
                        }
                        Some(Ok(_)) => {}
                        _ => break,
                    },
                    _ = stop.notified() => break,
                }
            }
        }));
    }
    eprintln!("warming up {} s", args.warmup_seconds);
    tokio::time::sleep(Duration::from_secs(args.warmup_seconds)).await;
    http(addr, "POST", "/api/admin/metrics/reset", "").await?;
    let before = boards.load(Ordering::Relaxed);
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    let received = boards.load(Ordering::Relaxed) - before;
    let (_, metrics) = http(addr, "GET", "/api/metrics", "").await?;
    let m: serde_json::Value = serde_json::from_str(&metrics)?;
    stop.notify_waiters();
    drop(child);
    let rss_mb = m["rss_bytes"].as_u64().unwrap_or(0) as f64 / 1e6;
    println!(
        "bots={} rooms={} tick_ms={} seconds={} boards_received={} ({:.0}/s) ticks_measured={} p50_ms={} p99_ms={} max_ms={} server_rss_mb={rss_mb:.0}",
        args.bots,
        m["rooms"],
        args.tick_ms,
        args.seconds,
        received,
        received as f64 / args.seconds as f64,
        m["ticks"],
        m["tick_to_last_board_p50_ms"],
        m["tick_to_last_board_p99_ms"],
        m["tick_to_last_board_max_ms"],
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
