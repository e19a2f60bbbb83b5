//! Kept games on the web: their list (`/api/replays`), their files
//! (`/api/replays/ID/file`), the viewer's page for a kept game
//! (`/replays/ID`) or for a file from the visitor's disk (`POST
//! /replays/open`), its
//! "fork from this tick" button (`POST /api/replays/ID/fork`), and the
//! state of a queued game (`/api/matches/ID`).
//!
//! A kept game's stderr log belongs to the players whose programs wrote it:
//! the page shows a seat's lines only when the URL carries that seat's
//! player id and secret code (`?player=ID&code=CODE`, as the player's own
//! page does); everyone else sees the game without them.
//!
//! A fork is a queued game (`snakepit_store::spec::MatchSpec` with `fork`):
//! whichever worker claims it (the server's own, or a `snakepit worker` on
//! the same store) re-simulates the kept game up to the chosen tick and
//! lets the bots play on from there. The bot for the chosen seat is one of
//! a short list the page offers: the built-in bots, and the asking
//! player's own saved program. The other seats keep their players' saved
//! programs where they have one; seats that a built-in bot, a WebSocket
//! bot or a person played are taken over by the built-in greedy bot (none
//! of those can be called back).

use crate::app::{AppError, AppState};
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use snakepit_protocol::replay::Header;
use snakepit_store::NewMatch;
use snakepit_store::spec::{CODE_PREFIX, ForkOf, MatchSpec, QUEUED_LANGS};
use std::sync::Arc;

type Shared = State<Arc<AppState>>;

/// The games whose kept replays a worker can continue (every game of
/// `snakepit play`; Hex rooms' games are kept and shown, not forked).
const FORKABLE_GAMES: &[&str] = &["snakebattle", "battlesnake", "carrots", "duel", "multisnake"];

/// Built-in bots that every forkable game has.
const FORK_BUILTINS: &[&str] = &["builtin:greedy", "builtin:random"];

/// Who takes over a seat whose player cannot be called back.
const STAND_IN_BOT: &str = "builtin:greedy";

/// At most this many queued games wait before a fork is refused, so that
/// a page cannot bury the ladder under forks.
const QUEUED_MAX: i64 = 200;

/// A player's id and code from the query string.
#[derive(Deserialize, Default)]
pub struct Owner {
    player: Option<String>,
    code: Option<String>,
}

impl Owner {
    /// The player's id when the code is theirs.
    async fn check(&self, st: &AppState) -> Result<Option<String>, AppError> {
        let (Some(id), Some(code)) = (&self.player, &self.code) else {
            return Ok(None);
        };
        match st.store.authenticate(id, code).await? {
            Some(p) => Ok(Some(p.id)),
            None => Err(AppError::Client(StatusCode::FORBIDDEN, "wrong player id or code".into())),
        }
    }

    fn query(&self) -> String {
        match (&self.player, &self.code) {
            (Some(p), Some(c)) => format!("?player={}&code={}", url_part(p), url_part(c)),
            _ => String::new(),
        }
    }
}

/// Percent-encodes everything but unreserved characters.
fn url_part(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => char::from(b).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The lines of a stderr log that belong to `seats`.
fn log_of_seats(log: &str, seats: &[usize]) -> String {
    log.lines()
        .filter(|line| {
            serde_json::from_str::<serde_json::Value>(line)
                .ok()
                .and_then(|v| v["seat"].as_u64())
                .is_some_and(|s| seats.contains(&(s as usize)))
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The bots offered for a fork's seat: the built-ins, then the asking
/// player's saved program when a worker can run it.
async fn fork_bots(st: &AppState, owner: Option<&str>) -> Result<Vec<String>, AppError> {
    let mut bots: Vec<String> = FORK_BUILTINS.iter().map(|b| b.to_string()).collect();
    if let Some(id) = owner
        && let Some(code) = st.store.code(id).await?
        && QUEUED_LANGS.contains(&code.lang.as_str())
    {
        bots.push(format!("{CODE_PREFIX}{id}"));
    }
    Ok(bots)
}

/// `/replays/ID`: a kept game as the replay viewer's page (the same page
/// `snakepit replay --html` writes), with the asking player's stderr and a
/// fork button.
pub async fn replay_page(State(st): Shared, Path(id): Path<i64>, Query(who): Query<Owner>) -> Result<Response, AppError> {
    let owner = who.check(&st).await?;
    let Some((info, body)) = st.store.replay(id).await? else {
        return Err(AppError::Client(StatusCode::NOT_FOUND, format!("no game {id}")));
    };
    let log = match &owner {
        None => None,
        Some(me) => {
            let seats: Vec<usize> = (0..info.players.len()).filter(|&s| info.players[s] == *me).collect();
            let log = st.store.replay_stderr_log(id).await?.unwrap_or_default();
            Some(log_of_seats(&log, &seats))
        }
    };
    let endpoint = format!("/api/replays/{id}/fork{}", who.query());
    let bots = fork_bots(&st, owner.as_deref()).await?;
    let forkable = FORKABLE_GAMES.contains(&info.game.as_str());
    // Re-simulating a long game takes a while: off the async workers.
    let page = tokio::task::spawn_blocking(move || {
        let fork = forkable.then_some(snakepit_viewer::html::ForkOffer::Server { endpoint: &endpoint, bots: &bots });
        let log_name = std::path::Path::new("stderr log");
        snakepit_viewer::html::page_for(&body, log.as_deref().map(|l| (l, log_name)), fork)
    })
    .await
    .map_err(|e| AppError::Server(anyhow::anyhow!("the viewer of kept game {id} failed: {e}")))?
    .map_err(|e| AppError::Server(anyhow::anyhow!("kept game {id} does not replay: {e}")))?;
    Ok(([(axum::http::header::CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response())
}

/// Most games `/api/replays` lists at once.
const LIST_MAX: u32 = 50;

/// Which kept games to list.
#[derive(Deserialize)]
pub struct ListQuery {
    player: Option<String>,
    origin: Option<String>,
    limit: Option<u32>,
}

/// `/api/replays`, `?player=ID`, `?origin=ROOM` (`ladder`, `fork`, a room's
/// name) or both, with `limit` (default 10, at most 50): the latest kept games,
/// newest first, as `[{"id", "game", "origin", "players", "result",
/// "created_ms"}]`. Kept games are public; only their stderr is not.
pub async fn list(State(st): Shared, Query(q): Query<ListQuery>) -> Result<Response, AppError> {
    let limit = q.limit.unwrap_or(10).clamp(1, LIST_MAX);
    let rows = match (&q.player, &q.origin) {
        (Some(p), o) => st.store.replays_of(p, o.as_deref(), limit).await?,
        (None, Some(o)) => st.store.replays_from(o, limit).await?,
        (None, None) => st.store.recent_replays(limit).await?,
    };
    let out: Vec<serde_json::Value> = rows
        .into_iter()
        .map(|r| {
            let result: serde_json::Value = serde_json::from_str(&r.result).unwrap_or(serde_json::Value::Null);
            serde_json::json!({
                "id": r.id, "game": r.game, "origin": r.origin, "players": r.players,
                "result": result, "created_ms": r.created_ms,
            })
        })
        .collect();
    Ok(Json(out).into_response())
}

/// `/api/replays/ID/file`: the replay file itself, for `snakepit replay`
/// and `snakepit replay --from-tick` on the contestant's machine.
pub async fn file(State(st): Shared, Path(id): Path<i64>) -> Result<Response, AppError> {
    let Some((info, body)) = st.store.replay(id).await? else {
        return Err(AppError::Client(StatusCode::NOT_FOUND, format!("no game {id}")));
    };
    let disposition = format!("inline; filename=\"{}-{id}.replay\"", info.game);
    Ok((
        [
            (axum::http::header::CONTENT_TYPE, "text/plain; charset=utf-8".to_string()),
            (axum::http::header::CONTENT_DISPOSITION, disposition),
        ],
        body,
    )
        .into_response())
}

/// Largest replay (with its stderr log) `/replays/open` takes, in bytes of
/// form body.
pub const OPEN_BYTES_MAX: usize = 32 << 20;

/// Longest file name shown in the page's fork command, in characters.
const FILE_NAME_MAX_CHARS: usize = 200;

/// What re-simulating one file sent to `/replays/open` may cost: replays of
/// the server's own rooms fit with room to spare (a 150x150 Multisnake map
/// for 2,000 turns is 45 million cell-ticks, under a second), while a file
/// made to keep the server busy for minutes is refused before its first
/// tick.
pub const OPEN_BUDGET: snakepit_viewer::html::Budget =
    snakepit_viewer::html::Budget { seats_max: 64, cell_ticks_max: 200_000_000 };

/// Files re-simulated for `/replays/open` at once; a visitor who finds them
/// all busy is asked to try again (503) rather than queued, so that such
/// pages never take every blocking thread or core.
const OPEN_AT_ONCE_MAX: usize = 2;

static OPENING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(OPEN_AT_ONCE_MAX);

/// A replay file from the visitor's disk, as the replays page posts it.
#[derive(Deserialize)]
pub struct OpenForm {
    /// The file's name, for the fork command the page offers.
    #[serde(default)]
    name: String,
    /// The replay's text.
    replay: String,
    /// Its stderr log's text (`FILE.stderr.jsonl`), empty when none.
    #[serde(default)]
    log: String,
}

/// `POST /replays/open`: a replay file's page in the viewer, re-simulated
/// here and kept nowhere. A file that does not replay is answered 400 with
/// the reason (the line and what is wrong with it), and one that would cost
/// more than [`OPEN_BUDGET`] with what it asks for.
pub async fn open(axum::Form(form): axum::Form<OpenForm>) -> Response {
    let refuse = |why: String| {
        let text = format!("This replay cannot be shown: {why}\n");
        (StatusCode::BAD_REQUEST, [(axum::http::header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response()
    };
    let header = match Header::parse(&form.replay) {
        Ok(h) => h,
        Err(e) => return refuse(e.to_string()),
    };
    let name: String = form.name.chars().filter(|c| !c.is_control()).take(FILE_NAME_MAX_CHARS).collect();
    let name = if name.is_empty() { "game.jsonl".to_string() } else { name };
    // The fork command is offered for the games `replay --from-tick` plays.
    let fork_file = FORKABLE_GAMES.contains(&header.game.as_str()).then(|| name.clone());
    let log = (!form.log.trim().is_empty()).then(|| (form.log, std::path::PathBuf::from(format!("{name}.stderr.jsonl"))));
    let text = form.replay;
    let Ok(_permit) = OPENING.try_acquire() else {
        let text = "Other replays are being opened right now; try again in a moment.\n";
        return (StatusCode::SERVICE_UNAVAILABLE, [(axum::http::header::CONTENT_TYPE, "text/plain; charset=utf-8")], text)
            .into_response();
    };
    // Re-simulating a long game takes a while: off the async workers.
    let page = tokio::task::spawn_blocking(move || {
        let fork = fork_file.as_deref().map(|file| snakepit_viewer::html::ForkOffer::Command { file });
        let log = log.as_ref().map(|(t, p)| (t.as_str(), p.as_path()));
        snakepit_viewer::html::page_within(&text, log, fork, &OPEN_BUDGET).map_err(|e| e.to_string())
    })
    .await;
    match page {
        Ok(Ok(page)) => ([(axum::http::header::CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response(),
        Ok(Err(why)) => refuse(why),
        Err(e) => refuse(format!("the viewer failed: {e}")),
    }
}

/// What the page posts to fork a kept game.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForkRequest {
    /// The first tick the new bot plays.
    from_tick: u64,
    /// The seat it plays.
    seat: usize,
    /// One of the offered bots.
    bot: String,
}

/// `POST /api/replays/ID/fork`: queues a game that continues kept game ID
/// from `from_tick` with `bot` in `seat`; answers `{"match": M, "status":
/// "/api/matches/M"}`.
pub async fn fork(
    State(st): Shared,
    Path(id): Path<i64>,
    Query(who): Query<Owner>,
    Json(req): Json<ForkRequest>,
) -> Result<Response, AppError> {
    let bad = |m: String| AppError::Client(StatusCode::BAD_REQUEST, m);
    let owner = who.check(&st).await?;
    let Some((info, body)) = st.store.replay(id).await? else {
        return Err(AppError::Client(StatusCode::NOT_FOUND, format!("no game {id}")));
    };
    if !FORKABLE_GAMES.contains(&info.game.as_str()) {
        return Err(bad(format!("games of {} cannot be forked yet", info.game)));
    }
    let header = Header::parse(&body).map_err(|e| AppError::Server(anyhow::anyhow!("kept game {id}: {e}")))?;
    // Every line after the header is one tick.
    let ticks = body.lines().count().saturating_sub(1) as u64;
    if req.seat >= header.seats {
        return Err(bad(format!("seat {} does not exist: the game has seats 0 to {}", req.seat, header.seats - 1)));
    }
    if req.from_tick == 0 || req.from_tick > ticks + 1 {
        return Err(bad(format!("from_tick must be between 1 and {} (the game has {ticks} ticks)", ticks + 1)));
    }
    let offered = fork_bots(&st, owner.as_deref()).await?;
    if !offered.contains(&req.bot) {
        return Err(bad(format!("{:?} is not offered; choose one of {}", req.bot, offered.join(", "))));
    }
    if st.store.queue_counts().await?.queued >= QUEUED_MAX {
        return Err(AppError::Client(StatusCode::SERVICE_UNAVAILABLE, "too many games are waiting; try again later".into()));
    }
    let mut bots = Vec::with_capacity(header.seats);
    let mut players = Vec::with_capacity(header.seats);
    for seat in 0..header.seats {
        if seat == req.seat {
            let me = req.bot.strip_prefix(CODE_PREFIX).map_or_else(String::new, str::to_string);
            bots.push(req.bot.clone());
            players.push(me);
            continue;
        }
        let player = info.players.get(seat).cloned().unwrap_or_default();
        let runs = match player.as_str() {
            "" => false,
            p => st.store.code(p).await?.is_some_and(|c| QUEUED_LANGS.contains(&c.lang.as_str())),
        };
        let label = header.players.get(seat).map_or("", String::as_str);
        bots.push(if runs {
            format!("{CODE_PREFIX}{player}")
        } else if FORK_BUILTINS.contains(&label) {
            label.to_string()
        } else {
            STAND_IN_BOT.to_string()
        });
        players.push(if runs { player } else { String::new() });
    }
    let spec = MatchSpec {
        game: info.game.clone(),
        bots,
        set: Vec::new(),
        ticks: None,
        players,
        origin: Some("fork".into()),
        labels: None,
        fork: Some(ForkOf { replay_id: id, from_tick: req.from_tick }),
    };
    let spec = serde_json::to_string(&spec).map_err(|e| AppError::Server(e.into()))?;
    let ids = st.store.enqueue_matches(&[NewMatch { game: info.game, spec, seed: header.seed }]).await?;
    let m = ids[0];
    Ok(Json(serde_json::json!({ "match": m, "status": format!("/api/matches/{m}") })).into_response())
}

/// `/api/matches/ID`: `{"state": "queued"|"running"|"done"|"failed",
/// "replay": ID|null, "error": TEXT|null}`.
pub async fn match_status(State(st): Shared, Path(id): Path<i64>) -> Result<Response, AppError> {
    let Some(m) = st.store.match_status(id).await? else {
        return Err(AppError::Client(StatusCode::NOT_FOUND, format!("no queued game {id}")));
    };
    let error = m
        .result
        .as_deref()
        .and_then(|r| serde_json::from_str::<serde_json::Value>(r).ok())
        .and_then(|r| r["error"].as_str().map(str::to_string));
    let state = match (m.state.as_str(), &error) {
        ("done", Some(_)) => "failed",
        (s, _) => s,
    };
    Ok(Json(serde_json::json!({ "state": state, "replay": m.replay_id, "error": error })).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_keeps_only_the_asked_seats() {
        let log = "{\"seat\":0,\"t\":1}\n{\"seat\":1,\"t\":1}\nnot json\n{\"seat\":1,\"t\":2}\n";
        assert_eq!(log_of_seats(log, &[1]), "{\"seat\":1,\"t\":1}\n{\"seat\":1,\"t\":2}\n");
        assert_eq!(log_of_seats(log, &[]), "");
    }

    #[test]
    fn query_parts_are_escaped() {
        assert_eq!(url_part("a b&c=d/é"), "a%20b%26c%3Dd%2F%C3%A9");
        assert_eq!(url_part("Az09-_.~"), "Az09-_.~");
    }
}
