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

/// The games whose replays a worker (and `replay --from-tick`) can
/// continue: every game of `snakepit play`.
const FORKABLE_GAMES: &[&str] = &["snakebattle", "battlesnake", "carrots", "duel", "multisnake", "hex"];

/// The built-in bots `snakepit play` (and so a worker) has for a game: a
/// greedy and a random mover everywhere, and in the three stdin/stdout
/// arenas the rooms' `safe` too.
fn fork_builtins(game: &str) -> &'static [&'static str] {
    match game {
        "carrots" | "duel" | "multisnake" => &["builtin:greedy", "builtin:safe", "builtin:random"],
        _ => &["builtin:greedy", "builtin:random"],
    }
}

/// Who continues a seat the fork does not change, by the seat's label in
/// the kept game: a built-in bot under its own name (a room names its bots
/// `NAME-SEAT`, as `safe-2`), else (a player whose program a worker cannot
/// run, a bot of a kind the worker lacks) the game's greedy bot.
fn stand_in_bot(game: &str, label: &str) -> String {
    let offered = fork_builtins(game);
    let name = label.strip_prefix("builtin:").unwrap_or(label);
    let base = name.rsplit_once('-').filter(|(_, seat)| seat.parse::<usize>().is_ok()).map_or(name, |(base, _)| base);
    for candidate in [name, base] {
        let spec = format!("builtin:{candidate}");
        if offered.contains(&spec.as_str()) {
            return spec;
        }
    }
    offered[0].to_string()
}

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

/// Percent-encodes everything but unreserved characters, so that a value
/// stays one path segment or query value (`snakepit admin` builds its
/// requests with it too).
pub fn url_part(s: &str) -> String {
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
async fn fork_bots(st: &AppState, game: &str, owner: Option<&str>) -> Result<Vec<String>, AppError> {
    let mut bots: Vec<String> = fork_builtins(game).iter().map(|b| b.to_string()).collect();
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
pub async fn replay_page(State(st): Shared, Path(id): Path<String>, Query(who): Query<Owner>) -> Result<Response, AppError> {
    // Any other address under `/replays/` is a game that does not exist.
    let Ok(id) = id.parse::<i64>() else {
        return Err(AppError::Client(StatusCode::NOT_FOUND, format!("no game {id:?}: games are numbered")));
    };
    let owner = who.check(&st).await?;
    // The cached page itself goes out, not a copy per visitor.
    let html = |page: Arc<str>| {
        let body = axum::body::Bytes::from_owner(SharedPage(page));
        ([(axum::http::header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
    };
    // The public page of a kept game never changes: made once, it is
    // served from memory to every spectator while the game is kept.
    if owner.is_none()
        && let Some(page) = st.pages.get(id)
        && st.store.has_replay(id).await?
    {
        return Ok(html(page));
    }
    let Ok(_permit) = tokio::time::timeout(RENDER_WAIT, st.pages.rendering.acquire()).await else {
        return Err(AppError::Client(StatusCode::SERVICE_UNAVAILABLE, "the server is busy showing other games; try again".into()));
    };
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
    let bots = fork_bots(&st, &info.game, owner.as_deref()).await?;
    let forkable = FORKABLE_GAMES.contains(&info.game.as_str());
    // Re-simulating a long game takes a while: off the async workers.
    let page = tokio::task::spawn_blocking(move || {
        let fork = forkable.then_some(snakepit_viewer::html::ForkOffer::Server { endpoint: &endpoint, bots: &bots });
        let log_name = std::path::Path::new("stderr log");
        snakepit_viewer::html::page_for(&body, log.as_deref().map(|l| (l, log_name)), fork).map(|p| crate::web::replay_in_site(&p))
    })
    .await
    .map_err(|e| AppError::Server(anyhow::anyhow!("the viewer of kept game {id} failed: {e}")))?
    .map_err(|e| AppError::Server(anyhow::anyhow!("kept game {id} does not replay: {e}")))?;
    let page: Arc<str> = page.into();
    if owner.is_none() {
        st.pages.put(id, page.clone());
    }
    Ok(html(page))
}

/// How long a page of a kept game waits for its turn to be made.
const RENDER_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Kept games' pages re-simulated at once (the rest wait their turn).
const RENDERING_AT_ONCE_MAX: usize = 2;

/// A cached page as a response body's bytes.
struct SharedPage(Arc<str>);

impl AsRef<[u8]> for SharedPage {
    fn as_ref(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

/// Public pages of kept games kept in memory, at most, in bytes.
const PAGE_CACHE_BYTES_MAX: usize = 32 << 20;

/// The public pages of kept games, made once and served from memory, and
/// the permits to make new ones.
pub struct PageCache {
    /// Permits to re-simulate a kept game for its page.
    rendering: tokio::sync::Semaphore,
    /// Permits to re-simulate a file for `/replays/open`.
    opening: tokio::sync::Semaphore,
    /// Permits to receive a file for `/replays/open` and send its page.
    uploads: Arc<tokio::sync::Semaphore>,
    /// The addresses sending a file for `/replays/open` now: one each.
    uploading: crate::app::OneEach<std::net::IpAddr>,
    pages: std::sync::Mutex<Pages>,
}

/// The cached pages.
#[derive(Default)]
struct Pages {
    by_id: std::collections::BTreeMap<i64, Arc<str>>,
    /// Ids in the order their pages came in: the oldest goes first when
    /// the cache is full.
    order: std::collections::VecDeque<i64>,
    bytes: usize,
}

impl Default for PageCache {
    fn default() -> Self {
        PageCache {
            rendering: tokio::sync::Semaphore::new(RENDERING_AT_ONCE_MAX),
            opening: tokio::sync::Semaphore::new(OPEN_AT_ONCE_MAX),
            uploads: Arc::new(tokio::sync::Semaphore::new(OPEN_UPLOADS_MAX)),
            uploading: Default::default(),
            pages: Default::default(),
        }
    }
}

impl PageCache {
    fn get(&self, id: i64) -> Option<Arc<str>> {
        self.pages.lock().unwrap_or_else(|e| e.into_inner()).by_id.get(&id).cloned()
    }

    fn put(&self, id: i64, page: Arc<str>) {
        if page.len() > PAGE_CACHE_BYTES_MAX / 4 {
            return;
        }
        let mut p = self.pages.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = p.by_id.insert(id, page.clone()) {
            p.bytes -= old.len();
        } else {
            p.order.push_back(id);
        }
        p.bytes += page.len();
        while p.bytes > PAGE_CACHE_BYTES_MAX {
            let Some(oldest) = p.order.pop_front() else { break };
            if let Some(gone) = p.by_id.remove(&oldest) {
                p.bytes -= gone.len();
            }
        }
    }
}

/// Most games `/api/replays` lists at once.
const LIST_MAX: u32 = 50;

/// Which kept games to list.
#[derive(Deserialize)]
pub struct ListQuery {
    player: Option<String>,
    origin: Option<String>,
    limit: Option<u32>,
    before: Option<i64>,
}

/// `/api/replays`, `?player=ID`, `?origin=ROOM` (`ladder`, `fork`, a room's
/// name) or both, with `limit` (default 10, at most 50) and `before` (the
/// last id of the page before, for the next): the latest kept games,
/// newest first, as `[{"id", "game", "origin", "players", "result",
/// "created_ms"}]`. Kept games are public; only their stderr is not.
pub async fn list(State(st): Shared, Query(q): Query<ListQuery>) -> Result<Response, AppError> {
    let page = snakepit_store::Page { limit: q.limit.unwrap_or(10).clamp(1, LIST_MAX), before: q.before };
    let rows = match (&q.player, &q.origin) {
        (Some(p), o) => st.store.replays_of_page(p, o.as_deref(), page).await?,
        (None, Some(o)) => st.store.replays_from_page(o, page).await?,
        (None, None) => st.store.recent_replays_page(page).await?,
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

/// The longest a visitor may take to send a replay file.
const OPEN_UPLOAD_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// Files received, waiting to be re-simulated or having their pages sent
/// for `/replays/open` at once (each at most [`OPEN_BYTES_MAX`], its page
/// about as large, so this bounds their memory), one per address, so that
/// a few slow uploads or unread answers from one place keep nobody else
/// out.
const OPEN_UPLOADS_MAX: usize = 4;

/// A page of `/replays/open` is sent in pieces of this many bytes, so that
/// the connection holds a few of them, not a copy of the page.
const OPEN_PAGE_CHUNK_BYTES: usize = 64 * 1024;

/// The places one `/replays/open` request holds, its address's and one of
/// the [`OPEN_UPLOADS_MAX`], until its answer has been sent or its
/// connection dropped: an answer nobody reads (a page of tens of MB) keeps
/// them, so that unread answers cannot pile up in memory.
struct OpenPlaces {
    st: Arc<AppState>,
    ip: std::net::IpAddr,
    _upload: tokio::sync::OwnedSemaphorePermit,
}

impl Drop for OpenPlaces {
    fn drop(&mut self) {
        self.st.pages.uploading.release(&self.ip);
    }
}

/// How long a received file waits for a place to be re-simulated before
/// the visitor is asked to try again.
const OPEN_SIMULATION_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

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
/// more than [`OPEN_BUDGET`] with what it asks for. Each address sends one
/// file at a time (429 for a second), at most `OPEN_UPLOADS_MAX` files are
/// held at once, being received or re-simulated (503 before the file is
/// read when they are all taken), each received within `OPEN_UPLOAD_WAIT`;
/// at most `OPEN_AT_ONCE_MAX` are re-simulated at once, a file waiting up
/// to `OPEN_SIMULATION_WAIT` for its turn.
pub async fn open(
    State(st): Shared,
    axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<crate::ws::PeerAddr>,
    request: axum::extract::Request,
) -> Response {
    let text_response = |status: StatusCode, text: String| {
        (status, [(axum::http::header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response()
    };
    let refuse = |why: String| text_response(StatusCode::BAD_REQUEST, format!("This replay cannot be shown: {why}\n"));
    let busy = || {
        let why = "Other replays are being opened right now; try again in a moment.\n";
        text_response(StatusCode::SERVICE_UNAVAILABLE, why.to_string())
    };
    let ip = peer.limit_key();
    let Some(uploading) = st.pages.uploading.take(ip) else {
        let why = "Your previous replay file is still being received, or its page sent; open one file at a time.\n";
        return text_response(StatusCode::TOO_MANY_REQUESTS, why.to_string());
    };
    let Ok(upload) = st.pages.uploads.clone().try_acquire_owned() else {
        return busy();
    };
    let places = OpenPlaces { st: st.clone(), ip: uploading.keep(), _upload: upload };
    let body = match tokio::time::timeout(OPEN_UPLOAD_WAIT, axum::body::to_bytes(request.into_body(), OPEN_BYTES_MAX)).await {
        Ok(Ok(body)) => body,
        Ok(Err(e)) => return text_response(StatusCode::PAYLOAD_TOO_LARGE, format!("The file could not be read (at most {OPEN_BYTES_MAX} bytes): {e}\n")),
        Err(_) => return text_response(StatusCode::REQUEST_TIMEOUT, "The file took too long to arrive.\n".to_string()),
    };
    let Ok(Ok(_permit)) = tokio::time::timeout(OPEN_SIMULATION_WAIT, st.pages.opening.acquire()).await else {
        return busy();
    };
    // Decoding and re-simulating a large file takes a while: off the async
    // workers.
    let page = tokio::task::spawn_blocking(move || {
        let page = open_page(&body);
        drop(body);
        give_back_memory();
        page
    })
    .await;
    match page {
        Ok(Ok(page)) => {
            // The places go when the body does: once it is sent, or when
            // the connection closes.
            let page = axum::body::Bytes::from(page);
            let pieces = (0..page.len()).step_by(OPEN_PAGE_CHUNK_BYTES).map(move |at| {
                let _held = &places;
                Ok::<_, std::convert::Infallible>(page.slice(at..(at + OPEN_PAGE_CHUNK_BYTES).min(page.len())))
            });
            let body = axum::body::Body::from_stream(futures_util::stream::iter(pieces));
            ([(axum::http::header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
        }
        Ok(Err(why)) => refuse(why),
        Err(e) => refuse(format!("the viewer failed: {e}")),
    }
}

/// The page of one file sent to `/replays/open` (the form's bytes), or why
/// there is none.
fn open_page(body: &[u8]) -> Result<String, String> {
    let form: OpenForm = serde_urlencoded::from_bytes(body).map_err(|e| format!("not the replays page's form: {e}"))?;
    let header = Header::parse(&form.replay).map_err(|e| e.to_string())?;
    let name: String = form.name.chars().filter(|c| !c.is_control()).take(FILE_NAME_MAX_CHARS).collect();
    let name = if name.is_empty() { "game.jsonl".to_string() } else { name };
    // The fork command is offered for the games `replay --from-tick` plays.
    let fork = FORKABLE_GAMES
        .contains(&header.game.as_str())
        .then_some(snakepit_viewer::html::ForkOffer::Command { file: &name });
    let log_name = std::path::PathBuf::from(format!("{name}.stderr.jsonl"));
    let log = (!form.log.trim().is_empty()).then_some((form.log.as_str(), log_name.as_path()));
    snakepit_viewer::html::page_within(&form.replay, log, fork, &OPEN_BUDGET)
        .map(|p| crate::web::replay_in_site(&p))
        .map_err(|e| e.to_string())
}

/// Gives the memory freed after a large page back to the system. glibc
/// keeps what a blocking thread freed in that thread's arena, so without
/// this a few opened files of tens of MB leave the server hundreds of MB
/// larger for good.
#[allow(unsafe_code)]
fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns the allocator's free memory to the
    // system; it touches no memory in use.
    unsafe {
        libc::malloc_trim(0);
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
    axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<crate::ws::PeerAddr>,
    Path(id): Path<i64>,
    Query(who): Query<Owner>,
    crate::app::JsonBody(req): crate::app::JsonBody<ForkRequest>,
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
    let offered = fork_bots(&st, &info.game, owner.as_deref()).await?;
    if !offered.contains(&req.bot) {
        return Err(bad(format!("{:?} is not offered; choose one of {}", req.bot, offered.join(", "))));
    }
    if st.store.queue_counts().await?.queued >= QUEUED_MAX {
        return Err(AppError::Client(StatusCode::SERVICE_UNAVAILABLE, "too many games are waiting; try again later".into()));
    }
    // Each fork is a game a worker plays and a game kept: bounded per
    // address, as sign-ups are (a refused request costs nothing).
    if !st.forks.take(peer.limit_key(), std::time::Instant::now()) {
        let per_hour = st.cfg.limits.forks_per_ip_per_hour;
        return Err(AppError::Client(StatusCode::TOO_MANY_REQUESTS, format!("at most {per_hour} forks an hour from one address; try again later")));
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
        bots.push(if runs { format!("{CODE_PREFIX}{player}") } else { stand_in_bot(&info.game, label) });
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
    #[test]
    fn a_fork_keeps_each_untouched_seat_s_kind_of_bot() {
        use super::stand_in_bot;
        assert_eq!(stand_in_bot("duel", "safe-2"), "builtin:safe", "a room's bot, by its name");
        assert_eq!(stand_in_bot("duel", "greedy-1"), "builtin:greedy");
        assert_eq!(stand_in_bot("multisnake", "builtin:safe"), "builtin:safe", "a worker's label");
        assert_eq!(stand_in_bot("snakebattle", "random-4"), "builtin:random");
        assert_eq!(stand_in_bot("hex", "safe-2"), "builtin:greedy", "hex has no safe bot");
        assert_eq!(stand_in_bot("duel", "alice"), "builtin:greedy", "a player whose program cannot run");
        assert_eq!(stand_in_bot("duel", "my-bot-7"), "builtin:greedy");
    }

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

    #[test]
    fn the_page_cache_drops_its_oldest_pages_beyond_its_size() {
        let cache = PageCache::default();
        let page = |c: char| -> Arc<str> { c.to_string().repeat(PAGE_CACHE_BYTES_MAX / 5).into() };
        for id in 0..5 {
            cache.put(id, page('a'));
        }
        assert!((0..5).all(|id| cache.get(id).is_some()), "five fifths fit");
        cache.put(5, page('b'));
        assert!(cache.get(0).is_none(), "the oldest went");
        assert!((1..6).all(|id| cache.get(id).is_some()));
        cache.put(3, page('c'));
        assert_eq!(cache.get(3).as_deref().map(|p| p.starts_with('c')), Some(true), "a page is replaced in place");
        assert!(cache.get(1).is_some(), "replacing frees the old page's bytes");
        cache.put(9, "x".repeat(PAGE_CACHE_BYTES_MAX / 2).into());
        assert!(cache.get(9).is_none(), "a page of over a quarter of the cache is not kept");
    }
}
