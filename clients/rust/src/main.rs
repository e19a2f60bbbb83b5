//! A SnakeBattle bot: connects to the server, answers every board with one
//! command, and reconnects when the connection drops.
//!
//! ```text
//! cargo run --release -- [PLAYER_PAGE_URL] [--ticks N]
//! ```
//!
//! Without a URL argument it uses [`URL`]. `--ticks N` (or the environment
//! variable `SNAKEPIT_TICKS`) stops after N boards.

mod board;
mod solver;

use board::Board;
use futures_util::{SinkExt, StreamExt};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// The address of your player page, copied from the browser as it is.
const URL: &str = "SNAKEPIT_PLAYER_URL";

const RECONNECT_DELAY: Duration = Duration::from_secs(2);

/// The bot socket's address, derived from the player page's address:
/// `http://HOST/codenjoy-contest/board/player/ID?code=CODE` becomes
/// `ws://HOST/codenjoy-contest/ws?user=ID&code=CODE`.
fn ws_url(page_url: &str) -> String {
    let url = page_url.trim();
    let url = match url.strip_prefix("http") {
        Some(rest) => format!("ws{rest}"),
        None => url.to_string(),
    };
    url.replacen("board/player/", "ws?user=", 1)
        .replacen("?code=", "&code=", 1)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut url = URL.to_string();
    let mut ticks = std::env::var("SNAKEPIT_TICKS").ok();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--ticks" {
            ticks = args.next();
        } else if let Some(n) = arg.strip_prefix("--ticks=") {
            ticks = Some(n.to_string());
        } else {
            url = arg;
        }
    }
    if !url.starts_with("http") {
        eprintln!(
            "Pass your player page URL (http://.../board/player/ID?code=CODE) \
             as the first argument, or paste it into URL in src/main.rs."
        );
        std::process::exit(2);
    }
    let ticks = match ticks.filter(|t| !t.is_empty()).map(|t| t.parse::<u64>()) {
        None => None,
        Some(Ok(n)) => Some(n),
        Some(Err(e)) => {
            eprintln!("--ticks: {e}");
            std::process::exit(2);
        }
    };
    play(&ws_url(&url), ticks).await;
}

/// Plays until `ticks` boards are answered (forever with `None`).
async fn play(url: &str, ticks: Option<u64>) {
    let mut answered = 0;
    let done = |answered: u64| ticks.is_some_and(|t| answered >= t);
    while !done(answered) {
        println!("connecting to {url}");
        match session(url, &mut answered, &done).await {
            Ok(()) if done(answered) => break,
            Ok(()) => println!("disconnected"),
            Err(e) => println!("disconnected: {e}"),
        }
        println!("retrying in {} s", RECONNECT_DELAY.as_secs());
        tokio::time::sleep(RECONNECT_DELAY).await;
    }
    println!("done: answered {answered} boards");
}

/// One connection, until the server closes it or the tick limit is reached.
async fn session(
    url: &str,
    answered: &mut u64,
    done: &impl Fn(u64) -> bool,
) -> Result<(), tokio_tungstenite::tungstenite::Error> {
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await?;
    println!("connected");
    while let Some(msg) = ws.next().await {
        let Message::Text(text) = msg? else { continue };
        if !text.starts_with("board=") {
            continue;
        }
        let board = match Board::parse(text.as_str()) {
            Ok(b) => b,
            Err(e) => {
                println!("skipping a board: {e}");
                continue;
            }
        };
        let command = solver::choose(&board);
        ws.send(Message::text(command.clone())).await?;
        *answered += 1;
        match board.my_head() {
            Some((x, y)) => println!("board {answered}: head ({x}, {y}) -> {command}"),
            None => println!("board {answered}: head none -> {command}"),
        }
        if done(*answered) {
            let _ = tokio::time::timeout(Duration::from_secs(1), ws.close(None)).await;
            return Ok(());
        }
    }
    Ok(())
}
