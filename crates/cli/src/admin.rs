//! `snakepit admin`: manage players, rooms and scores, either directly in
//! the database or through a running server's admin API.
//!
//! Players, the room list and scores live in the store (a SQLite file or a
//! PostgreSQL URL), so those commands work with the server stopped. Pausing, resuming and kicking act
//! on live rooms and need `--server` (and the admin token).
//!
//! The admin token comes from `SNAKEPIT_ADMIN_TOKEN` or a file
//! (`--token-file`), never from an argument: every user of the machine,
//! and every bot that sees the host's processes, can read command lines in
//! `/proc`.

use anyhow::{Context, bail};
use snakepit_server::replays::url_part;
use snakepit_store::Store;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::time::Duration;

/// Where `admin` acts.
#[derive(clap::Args, Debug)]
pub struct AdminArgs {
    /// The store, a SQLite file or a postgres:// URL (used when no
    /// --server is given).
    #[arg(long, default_value = "snakepit.sqlite", global = true)]
    pub db: PathBuf,
    /// A running server, e.g. http://127.0.0.1:8080.
    #[arg(long, global = true)]
    pub server: Option<String>,
    /// A file holding the admin token (used with --server; keep it mode
    /// 0600). Without it the token comes from SNAKEPIT_ADMIN_TOKEN. There
    /// is no option to give the token itself: command lines are visible
    /// to every user of the machine.
    #[arg(long, global = true, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// What to do.
    #[command(subcommand)]
    pub command: AdminCommand,
}

/// Admin commands.
#[derive(clap::Subcommand, Debug)]
pub enum AdminCommand {
    /// Registers a player and prints their secret URL.
    AddPlayer {
        /// Display name.
        name: String,
        /// The game the player registers for [default: the server's first
        /// game with --server, snakebattle with --db]
        #[arg(long)]
        game: Option<String>,
    },
    /// Lists players.
    Players,
    /// Lists rooms.
    Rooms,
    /// Pauses a room (needs --server).
    Pause {
        /// Room name.
        room: String,
    },
    /// Resumes a room (needs --server).
    Resume {
        /// Room name.
        room: String,
    },
    /// Creates a room (needs --server).
    CreateRoom {
        /// Room name: a-z, 0-9, - and _.
        name: String,
        /// Its game.
        #[arg(long, default_value = "snakebattle")]
        game: String,
        /// Its tick period (10 to 60000); the game's default when absent.
        #[arg(long, value_name = "MS")]
        tick_ms: Option<u64>,
    },
    /// Closes and deletes a room; its players are seated in other rooms of
    /// its game when they reconnect, and their scores stay (needs
    /// --server). A room of the configuration's [[rooms]] opens again at
    /// the next start.
    CloseRoom {
        /// Room name.
        room: String,
    },
    /// Sets a room's tick period, 10 to 60000 ms (needs --server).
    Tick {
        /// Room name.
        room: String,
        /// Milliseconds.
        ms: u64,
    },
    /// Removes a player from their room; they may come back (needs
    /// --server).
    Kick {
        /// Player id.
        player: String,
    },
    /// Moves a player to a room of their game, where they sit when their
    /// bot or page reconnects; their saved program starts there (needs
    /// --server).
    Seat {
        /// Player id.
        player: String,
        /// The room [default: a new room for the player].
        room: Option<String>,
    },
    /// Removes a player for good: their secret URL stops working and their
    /// points, rating and saved program go. With --server their bot is
    /// closed at once; with --db only, a running server notices when the
    /// bot next connects.
    Remove {
        /// Player id.
        player: String,
    },
    /// Sets scores to zero.
    ResetScores {
        /// Only this game's.
        #[arg(long)]
        game: Option<String>,
    },
}

/// Runs an admin command.
pub fn run(args: AdminArgs) -> anyhow::Result<()> {
    match &args.server {
        Some(url) => remote(&args, url),
        None => local(&args),
    }
}

/// Why pause, resume, kick, create-room, close-room, seat and tick need a server.
const LIVE_ONLY: &str =
    "this command acts on a running server: give --server http://HOST:PORT, and the admin token in SNAKEPIT_ADMIN_TOKEN or --token-file FILE";

/// The admin token for `--server`: the first line of `--token-file`, or
/// `SNAKEPIT_ADMIN_TOKEN`.
fn admin_token(args: &AdminArgs) -> anyhow::Result<String> {
    let token = match &args.token_file {
        Some(file) => {
            let text = std::fs::read_to_string(file)
                .map_err(|e| crate::exit::BadInput(format!("--token-file {}: {e}", file.display())))?;
            text.lines().next().unwrap_or("").trim().to_string()
        }
        None => std::env::var("SNAKEPIT_ADMIN_TOKEN").unwrap_or_default().trim().to_string(),
    };
    if token.is_empty() {
        let from = match &args.token_file {
            Some(file) => format!("--token-file {} holds no token", file.display()),
            None => "SNAKEPIT_ADMIN_TOKEN is not set".to_string(),
        };
        return Err(crate::exit::BadInput(format!(
            "--server needs the admin token: {from} (put it in SNAKEPIT_ADMIN_TOKEN, or in a file only you can read, given as --token-file FILE)"
        ))
        .into());
    }
    Ok(token)
}

/// Whether the command acts on live rooms only.
fn live_only(command: &AdminCommand) -> bool {
    matches!(
        command,
        AdminCommand::Pause { .. }
            | AdminCommand::Resume { .. }
            | AdminCommand::Kick { .. }
            | AdminCommand::CreateRoom { .. }
            | AdminCommand::CloseRoom { .. }
            | AdminCommand::Seat { .. }
            | AdminCommand::Tick { .. }
    )
}

fn local(args: &AdminArgs) -> anyhow::Result<()> {
    if live_only(&args.command) {
        bail!(LIVE_ONLY)
    }
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().context("starting the async runtime")?;
    rt.block_on(local_store(args))
}

async fn local_store(args: &AdminArgs) -> anyhow::Result<()> {
    let address = args.db.to_str().with_context(|| format!("the database address {} is not UTF-8", args.db.display()))?;
    // Only a new player may start a new database: reading one that is not
    // there would make an empty one and list nothing.
    let is_file = !address.starts_with("postgres://") && !address.starts_with("postgresql://");
    if is_file && !args.db.exists() && !matches!(args.command, AdminCommand::AddPlayer { .. }) {
        return Err(crate::exit::BadInput(format!(
            "no database at {} (give --db FILE, or --server http://HOST:PORT for a running server)",
            args.db.display()
        ))
        .into());
    }
    let store = Store::open(address).await.with_context(|| format!("opening {}", args.db.display()))?;
    match &args.command {
        AdminCommand::AddPlayer { name, game } => {
            let game = game.as_deref().unwrap_or("snakebattle");
            if !snakepit_server::rooms::GAMES.contains(&game) {
                let games = snakepit_server::rooms::GAMES.join(", ");
                return Err(crate::exit::BadInput(format!("unknown game {game:?} (games: {games})")).into());
            }
            let p = store.add_player(name.trim(), game).await?;
            println!("id: {}\ncode: {}\nurl: http://HOST:PORT/codenjoy-contest/board/player/{}?code={}", p.id, p.code, p.id, p.code);
        }
        AdminCommand::Players => {
            for p in store.players().await? {
                println!("{}\t{}\t{}\t/codenjoy-contest/board/player/{}?code={}", p.id, p.name, p.game, p.id, p.code);
            }
        }
        AdminCommand::Rooms => {
            for r in store.rooms().await? {
                println!("{}\t{}\ttick {} ms\t{}", r.name, r.game, r.tick_ms, if r.paused { "paused" } else { "running" });
            }
        }
        AdminCommand::Remove { player } => {
            store.remove_player(player).await.map_err(|e| match e {
                snakepit_store::StoreError::NoPlayer(id) => crate::exit::BadInput(format!("no player {id:?}")).into(),
                e => anyhow::Error::from(e),
            })?;
            println!("removed {player}");
        }
        AdminCommand::ResetScores { game } => {
            if let Some(g) = game
                && !snakepit_server::rooms::GAMES.contains(&g.as_str())
            {
                let games = snakepit_server::rooms::GAMES.join(", ");
                return Err(crate::exit::BadInput(format!("unknown game {g:?} (games: {games})")).into());
            }
            let n = store.reset_scores(game.as_deref()).await?;
            println!("cleared {n} score rows");
        }
        // Refused before the store is opened (see `live_only`).
        _ => bail!(LIVE_ONLY),
    }
    Ok(())
}

fn remote(args: &AdminArgs, url: &str) -> anyhow::Result<()> {
    let token = admin_token(args)?;
    let token = token.as_str();
    let (method, path, body) = match &args.command {
        AdminCommand::AddPlayer { name, game } => {
            ("POST", "/api/admin/players".to_string(), serde_json::json!({ "name": name, "game": game }).to_string())
        }
        AdminCommand::Players => ("GET", "/api/admin/players".to_string(), String::new()),
        AdminCommand::Rooms => ("GET", "/api/rooms".to_string(), String::new()),
        AdminCommand::Pause { room } => ("POST", format!("/api/admin/rooms/{}/pause", url_part(room)), String::new()),
        AdminCommand::Resume { room } => ("POST", format!("/api/admin/rooms/{}/resume", url_part(room)), String::new()),
        AdminCommand::Kick { player } => ("POST", format!("/api/admin/players/{}/kick", url_part(player)), String::new()),
        AdminCommand::CreateRoom { name, game, tick_ms } => (
            "POST",
            "/api/admin/rooms".to_string(),
            serde_json::json!({ "name": name, "game": game, "tick_ms": tick_ms }).to_string(),
        ),
        AdminCommand::CloseRoom { room } => ("DELETE", format!("/api/admin/rooms/{}", url_part(room)), String::new()),
        AdminCommand::Seat { player, room } => {
            ("POST", format!("/api/admin/players/{}/room", url_part(player)), serde_json::json!({ "room": room }).to_string())
        }
        AdminCommand::Tick { room, ms } => {
            ("POST", format!("/api/admin/rooms/{}/tick", url_part(room)), serde_json::json!({ "tick_ms": ms }).to_string())
        }
        AdminCommand::Remove { player } => ("DELETE", format!("/api/admin/players/{}", url_part(player)), String::new()),
        AdminCommand::ResetScores { game } => (
            "POST",
            match game {
                Some(g) => format!("/api/admin/reset-scores?game={}", url_part(g)),
                None => "/api/admin/reset-scores".to_string(),
            },
            String::new(),
        ),
    };
    let (mut status, head, mut reply) = http(url, method, &path, &body, token)?;
    // In a cluster, an action on a room another node runs is redirected to
    // that node (same path); follow it once.
    if status == 307
        && let Some(location) = header(&head, "location")
        && let Some(rest) = location.strip_prefix("http://")
    {
        let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let path = if path.is_empty() { "/" } else { path };
        (status, _, reply) = http(&format!("http://{host}"), method, path, &body, token)?;
    }
    if !(200..300).contains(&status) {
        bail!("the server answered {status}: {}", reply.trim());
    }
    println!("{}", reply.trim());
    Ok(())
}

/// The value of a response header, by name (any case).
fn header(head: &str, name: &str) -> Option<String> {
    head.lines().skip(1).find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim().to_string())
    })
}

/// A single HTTP/1.1 request over plain TCP (the admin API is small and
/// local, so a client library would be all weight); returns the status,
/// the head and the body.
fn http(base: &str, method: &str, path: &str, body: &str, token: &str) -> anyhow::Result<(u16, String, String)> {
    let host = base.strip_prefix("http://").context("--server must start with http://")?.trim_end_matches('/');
    let mut s = TcpStream::connect(host).with_context(|| format!("connecting to {host}"))?;
    s.set_read_timeout(Some(Duration::from_secs(30)))?;
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    let mut buf = Vec::new();
    s.read_to_end(&mut buf)?;
    let text = String::from_utf8_lossy(&buf);
    let (head, rest) = text.split_once("\r\n\r\n").context("malformed response")?;
    let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).context("malformed status line")?;
    let body = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") { dechunk(rest) } else { rest.to_string() };
    Ok((status, head.to_string(), body))
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((len, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(len.trim(), 16).unwrap_or(0);
        // A size that cuts a character (the body was decoded lossily) ends
        // the body there rather than panicking on the slice.
        if n == 0 || rest.len() < n || !rest.is_char_boundary(n) {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].strip_prefix("\r\n").unwrap_or(&rest[n..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_stay_one_path_segment() {
        assert_eq!(url_part("final-1_x.y~"), "final-1_x.y~");
        assert_eq!(url_part("a b/c?d#é"), "a%20b%2Fc%3Fd%23%C3%A9");
    }

    #[test]
    fn chunked_bodies_are_joined_and_a_size_inside_a_character_ends_them() {
        assert_eq!(dechunk("3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"), "abcde");
        // "é" is two bytes: a size of 2 over "aé" would cut it.
        assert_eq!(dechunk("1\r\na\r\n2\r\naé\r\n0\r\n\r\n"), "a");
        assert_eq!(dechunk("ff\r\nshort"), "");
    }
}
