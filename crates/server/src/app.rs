//! The HTTP application: routes, shared state, and errors as responses.
//!
//! In a cluster, a request about a room another node runs (its page, a
//! player's API call) is answered with a redirect to that node, same path
//! and query ([`AppError::Elsewhere`]). An organiser's action about such a
//! room is forwarded there instead ([`forward_admin`]): the admin page's
//! `fetch` would follow the redirect without the token.

use crate::config::Config;
use crate::room::{RoomInput, RoomSummary};
use crate::rooms::{Route, Rooms};
use snakepit_store::{Store, StoreError};
use crate::{web, ws};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::sync::Semaphore;

/// Longest accepted player name, in characters.
pub const NAME_MAX_CHARS: usize = 40;
/// Largest accepted HTTP request body.
pub const BODY_MAX_BYTES: usize = 16 * 1024;

/// Requests of one kind (sign-ups, forks) allowed per address: a bucket of
/// `per_hour` that refills evenly over an hour. Addresses whose bucket is
/// full again are forgotten, and past [`RATE_ADDRESSES_MAX`] addresses the
/// longest quiet ones too, so the map holds only recent requests and never
/// grows past that bound (an attacker with many addresses only makes the
/// quietest ones start afresh).
pub(crate) struct PerAddressRate {
    per_hour: f64,
    buckets: std::sync::Mutex<BTreeMap<std::net::IpAddr, (f64, std::time::Instant)>>,
}

impl PerAddressRate {
    fn new(per_hour: u32) -> PerAddressRate {
        PerAddressRate { per_hour: f64::from(per_hour), buckets: Default::default() }
    }

    /// Takes one request from `ip`'s bucket at `now`; false when empty.
    pub(crate) fn take(&self, ip: std::net::IpAddr, now: std::time::Instant) -> bool {
        let per_hour = self.per_hour;
        let refilled = |(left, at): (f64, std::time::Instant)| {
            (left + now.saturating_duration_since(at).as_secs_f64() * per_hour / 3600.0).min(per_hour)
        };
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let left = buckets.get(&ip).map_or(per_hour, |b| refilled(*b));
        if buckets.len() >= RATE_ADDRESSES_MAX {
            buckets.retain(|_, b| refilled(*b) < per_hour);
        }
        while buckets.len() >= RATE_ADDRESSES_MAX && !buckets.contains_key(&ip) {
            let Some(quietest) = buckets.iter().min_by_key(|(_, (_, at))| *at).map(|(k, _)| *k) else { break };
            buckets.remove(&quietest);
        }
        if left < 1.0 {
            buckets.insert(ip, (left, now));
            return false;
        }
        buckets.insert(ip, (left - 1.0, now));
        true
    }
}

/// Keys that hold one place each at a time (a player's build, an address's
/// upload): a second [`take`](Self::take) of a key fails while the first
/// place is held, and the place is given up when its [`Held`] drops, on
/// every path out of a handler.
pub(crate) struct OneEach<K: Ord> {
    held: std::sync::Mutex<std::collections::BTreeSet<K>>,
}

impl<K: Ord + Clone> OneEach<K> {
    pub(crate) const fn new() -> OneEach<K> {
        OneEach { held: std::sync::Mutex::new(std::collections::BTreeSet::new()) }
    }

    /// Gives up a place that [`Held::keep`] kept.
    pub(crate) fn release(&self, key: &K) {
        self.held.lock().unwrap_or_else(|e| e.into_inner()).remove(key);
    }

    /// The key's place, unless it is held.
    pub(crate) fn take(&self, key: K) -> Option<Held<'_, K>> {
        // A panic while the lock was held leaves a set that is still whole.
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        // `then`, not `then_some`: a place made and dropped here would give
        // up the holder's key (and lock the set twice).
        held.insert(key.clone()).then(|| Held { of: self, key })
    }
}

impl<K: Ord + Clone> Default for OneEach<K> {
    fn default() -> Self {
        OneEach::new()
    }
}

/// A place taken in a [`OneEach`].
pub(crate) struct Held<'a, K: Ord> {
    of: &'a OneEach<K>,
    key: K,
}

impl<K: Ord + Copy> Held<'_, K> {
    /// Keeps the place past this guard: the caller gives it up later with
    /// [`OneEach::release`], from a guard of its own that need not borrow
    /// the set (an answer's body, sent after the handler returned). Keys
    /// that are `Copy` own nothing, so forgetting the guard leaks nothing.
    pub(crate) fn keep(self) -> K {
        let key = self.key;
        std::mem::forget(self);
        key
    }
}

impl<K: Ord> Drop for Held<'_, K> {
    fn drop(&mut self) {
        self.of.held.lock().unwrap_or_else(|e| e.into_inner()).remove(&self.key);
    }
}

/// Addresses a [`PerAddressRate`] remembers at most.
const RATE_ADDRESSES_MAX: usize = 10_000;

/// State shared by every handler.
pub struct AppState {
    /// The database.
    pub store: Store,
    /// The rooms.
    pub rooms: Rooms,
    /// The configuration.
    pub cfg: Config,
    /// The admin token in force.
    pub admin_token: String,
    /// Bounds the number of open WebSockets.
    pub sockets: Arc<Semaphore>,
    /// Pages of kept games, made once.
    pub pages: crate::replays::PageCache,
    /// Sign-ups left to each address.
    sign_ups: PerAddressRate,
    /// Forks of kept games per address (`limits.forks_per_ip_per_hour`).
    pub(crate) forks: PerAddressRate,
    /// Turns at the compilers for saved programs.
    pub(crate) builds: Arc<crate::build_queue::BuildQueue>,
    next_conn: AtomicU64,
}

impl AppState {
    /// Builds the state.
    pub fn new(cfg: Config, store: Store, rooms: Rooms, admin_token: String) -> AppState {
        AppState {
            store,
            rooms,
            sockets: Arc::new(Semaphore::new(cfg.limits.max_connections)),
            pages: Default::default(),
            sign_ups: PerAddressRate::new(cfg.limits.registrations_per_ip_per_hour),
            forks: PerAddressRate::new(cfg.limits.forks_per_ip_per_hour),
            builds: crate::build_queue::BuildQueue::new(cfg.code.builds_at_once, cfg.code.checks_at_once, cfg.code.builds_waiting_max),
            cfg,
            admin_token,
            next_conn: AtomicU64::new(1),
        }
    }

    /// A fresh connection id.
    pub fn conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }
}

/// An error as the client sees it. Client faults carry their message and
/// are not logged; server faults are logged and the client only learns that
/// something failed.
#[derive(Debug)]
pub enum AppError {
    /// The request is wrong; the message says how.
    Client(StatusCode, String),
    /// Something failed on our side.
    Server(anyhow::Error),
    /// Another node serves this: a temporary redirect to this URL.
    Elsewhere(String),
    /// The request is refused for now (429, 503): the message says why and
    /// `Retry-After` when to ask again, in seconds.
    Retry(StatusCode, String, u64),
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        match self {
            AppError::Client(code, msg) => (code, Json(serde_json::json!({ "error": msg }))).into_response(),
            AppError::Server(e) => {
                tracing::error!("request failed: {e:#}");
                (StatusCode::INTERNAL_SERVER_ERROR, Json(serde_json::json!({ "error": "internal error" }))).into_response()
            }
            AppError::Elsewhere(url) => axum::response::Redirect::temporary(&url).into_response(),
            AppError::Retry(code, msg, after_s) => {
                (code, [(axum::http::header::RETRY_AFTER, after_s.to_string())], Json(serde_json::json!({ "error": msg }))).into_response()
            }
        }
    }
}

/// A JSON request body, as [`Json`] reads it, whose rejection (no JSON
/// content type, bad JSON, a missing field) is answered like every other
/// client error of the API: `{"error": ...}` with the reason, not plain
/// text.
pub struct JsonBody<T>(pub T);

impl<S, T> axum::extract::FromRequest<S> for JsonBody<T>
where
    Json<T>: axum::extract::FromRequest<S, Rejection = axum::extract::rejection::JsonRejection>,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(JsonBody(v)),
            Err(rejection) => Err(AppError::Client(rejection.status(), rejection.body_text())),
        }
    }
}

/// The organiser, checked from the request's head before its body is read:
/// an admin handler takes it ahead of its body, so that a request without
/// the token is told so (401), not that its body is wrong.
pub struct Admin;

impl axum::extract::FromRequestParts<Arc<AppState>> for Admin {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, st: &Arc<AppState>) -> Result<Self, Self::Rejection> {
        require_admin(st, &parts.headers).map(|()| Admin)
    }
}

/// The words of an error answer of this server (`{"error": ...}`), or its
/// first 200 characters when it is something else.
pub fn answer_error(body: &str) -> String {
    match serde_json::from_str::<serde_json::Value>(body) {
        Ok(v) if v["error"].is_string() => v["error"].as_str().unwrap_or_default().to_string(),
        _ => body.trim().chars().take(200).collect(),
    }
}

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NameTaken(n) => AppError::Client(StatusCode::CONFLICT, format!("the name {n:?} is taken")),
            StoreError::NoPlayer(id) => AppError::Client(StatusCode::NOT_FOUND, format!("no player {id:?}")),
            e => AppError::Server(e.into()),
        }
    }
}

impl From<anyhow::Error> for AppError {
    fn from(e: anyhow::Error) -> Self {
        AppError::Server(e)
    }
}

type Shared = State<Arc<AppState>>;

/// What a request about a room that runs elsewhere gets: a redirect to the
/// same path and query on the node that runs it, or 503 when no node does.
/// `Ok` when this node serves it.
pub fn follow(route: Route, uri: &axum::http::Uri) -> Result<(), AppError> {
    match route {
        Route::Local => Ok(()),
        Route::Remote(base) => {
            let path = uri.path_and_query().map_or("/", |p| p.as_str());
            Err(AppError::Elsewhere(format!("{}{path}", base.trim_end_matches('/'))))
        }
        Route::Unavailable(why) => Err(AppError::Client(StatusCode::SERVICE_UNAVAILABLE, why)),
    }
}

/// Every route.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(web::lobby))
        .route("/room/{name}", get(web::room_page))
        .route("/leaderboard", get(web::leaderboard_page))
        .route("/admin", get(web::admin_page))
        .route("/codenjoy-contest/board/player/{id}", get(web::player_page))
        .route("/static/{file}", get(web::asset))
        .route("/favicon.ico", get(web::favicon))
        .route("/codenjoy-contest/ws", get(ws::bot_socket))
        .route("/ws/room/{name}", get(ws::spectator_socket))
        .route("/ws/player", get(ws::page_socket))
        .route("/api/rooms", get(api_rooms))
        .route("/api/leaderboard", get(api_leaderboard))
        .route("/api/ratings", get(api_ratings))
        .route("/replays", get(web::replays_page))
        .route(
            "/replays/open",
            post(crate::replays::open).layer(axum::extract::DefaultBodyLimit::max(crate::replays::OPEN_BYTES_MAX)),
        )
        .route("/replays/{id}", get(crate::replays::replay_page))
        .route("/api/replays", get(crate::replays::list))
        .route("/api/replays/{id}/file", get(crate::replays::file))
        .route("/api/replays/{id}/fork", post(crate::replays::fork))
        .route("/api/matches/{id}", get(crate::replays::match_status))
        .route("/api/register", post(api_register))
        .route("/api/templates/{lang}", get(crate::templates::download))
        // Programs are larger than any other body: up to `code.source_bytes_max`
        // bytes of text, which JSON escaping may make six times longer.
        .route(
            "/api/code",
            get(crate::code::get_code)
                .post(crate::code::post_code)
                .layer(axum::extract::DefaultBodyLimit::max(state.cfg.code.source_bytes_max.saturating_mul(6) + BODY_MAX_BYTES)),
        )
        .route("/api/code/start", post(crate::code::post_start))
        .route("/api/player/room", post(api_player_room))
        .route("/api/metrics", get(api_metrics))
        .route("/api/server", get(api_server))
        .route("/api/admin/metrics/reset", post(admin_metrics_reset))
        .route("/api/admin/players", get(admin_players).post(admin_add_player))
        .route("/api/admin/players/{id}/kick", post(admin_kick))
        .route("/api/admin/players/{id}/room", post(admin_seat_player))
        .route("/api/admin/players/{id}", axum::routing::delete(admin_remove_player))
        .route("/api/admin/rooms", post(admin_create_room))
        .route("/api/admin/rooms/{name}", axum::routing::delete(admin_delete_room))
        .route("/api/admin/rooms/{name}/pause", post(admin_pause))
        .route("/api/admin/rooms/{name}/resume", post(admin_resume))
        .route("/api/admin/rooms/{name}/tick", post(admin_tick))
        .route("/api/admin/reset-scores", post(admin_reset_scores))
        .fallback(web::not_found)
        .layer(axum::extract::DefaultBodyLimit::max(BODY_MAX_BYTES))
        .layer(axum::middleware::from_fn(api_errors_as_json))
        .layer(axum::middleware::from_fn(web::errors_as_pages))
        .with_state(state)
}

/// The most of a plain-text error that [`api_errors_as_json`] rewrites.
const PLAIN_ERROR_BYTES_MAX: usize = 16 * 1024;

/// The errors the framework answers on its own in plain text, or with no
/// body (a path or query that does not parse, an unknown address under
/// `/api/`, a method not allowed), become `{"error": ...}` under `/api/`,
/// like every other error of the API, so that a client reads one shape.
async fn api_errors_as_json(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let api = req.uri().path().starts_with("/api/");
    let answer = next.run(req).await;
    let status = answer.status();
    let content = answer.headers().get(axum::http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    if !api || !status.is_client_error() || !(content.is_empty() || content.starts_with("text/plain")) {
        return answer;
    }
    let (mut parts, body) = answer.into_parts();
    let text = axum::body::to_bytes(body, PLAIN_ERROR_BYTES_MAX).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text).trim().to_string();
    let text = match (text.is_empty(), status) {
        (false, _) => text,
        (true, StatusCode::NOT_FOUND) => "no such address in the API".to_string(),
        (true, StatusCode::METHOD_NOT_ALLOWED) => "this address does not take that method".to_string(),
        (true, s) => s.canonical_reason().unwrap_or("refused").to_string(),
    };
    // Its other headers stay (a 405's `Allow`).
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    parts.headers.insert(axum::http::header::CONTENT_TYPE, axum::http::HeaderValue::from_static("application/json"));
    Response::from_parts(parts, axum::body::Body::from(serde_json::json!({ "error": text }).to_string()))
}

/// `/api/rooms`: every room's lobby summary. In a cluster each also names
/// its node (`node`), and the rooms other nodes run come from the views
/// they write at every step (at most a step old).
async fn api_rooms(State(st): Shared) -> Result<Json<Vec<serde_json::Value>>, AppError> {
    let local: Vec<RoomSummary> = st.rooms.list().iter().map(|h| h.summary.borrow().clone()).collect();
    let mut out: Vec<serde_json::Value> =
        local.iter().map(|s| serde_json::to_value(s).expect("a summary serialises")).collect();
    if let Some(cluster) = st.rooms.cluster() {
        for v in &mut out {
            v["node"] = cluster.node().into();
        }
        for view in st.store.room_views().await? {
            if local.iter().any(|s| s.name == view.name) {
                continue;
            }
            if let Ok(mut v) = serde_json::from_str::<serde_json::Value>(&view.summary) {
                v["node"] = view.node.into();
                out.push(v);
            }
        }
        out.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    }
    Ok(Json(out))
}

#[derive(Deserialize)]
struct GameQuery {
    game: Option<String>,
}

async fn api_leaderboard(State(st): Shared, Query(q): Query<GameQuery>) -> Result<impl IntoResponse, AppError> {
    let game = q.game.unwrap_or_else(|| "snakebattle".to_string());
    known_game(&game)?;
    Ok(Json(st.store.leaderboard(&game).await?))
}

/// A game named in a request must be one of the server's, so that a typo
/// is answered as one rather than with an empty list.
fn known_game(game: &str) -> Result<(), AppError> {
    if crate::rooms::GAMES.contains(&game) {
        return Ok(());
    }
    let known = crate::rooms::GAMES.join(", ");
    Err(AppError::Client(StatusCode::BAD_REQUEST, format!("unknown game {game:?} (the games are {known})")))
}

/// How many recent games of each rated player `/api/ratings` lists.
const RECENT_GAMES: u32 = 5;

/// One rated player of a ladder, with their latest games.
#[derive(serde::Serialize)]
struct RatingView {
    player_id: String,
    name: String,
    rating: f64,
    uncertainty: f64,
    games: i64,
    /// Latest games first: replay id, the player's seat and place, and
    /// the places of every seat (from the game's result).
    recent: Vec<serde_json::Value>,
}

/// `/api/ratings?game=G`: the ladder's ratings, best first, each with the
/// player's latest games (links to `/replays/ID`).
async fn api_ratings(State(st): Shared, Query(q): Query<GameQuery>) -> Result<impl IntoResponse, AppError> {
    let game = q.game.unwrap_or_else(|| "duel".to_string());
    known_game(&game)?;
    let players = st.store.players().await?;
    let mut out = Vec::new();
    for r in st.store.ratings(&game).await? {
        let name = players.iter().find(|p| p.id == r.player_id).map_or_else(String::new, |p| p.name.clone());
        let mut recent = Vec::new();
        for g in st.store.replays_of(&r.player_id, Some("ladder"), RECENT_GAMES).await? {
            let result: serde_json::Value = serde_json::from_str(&g.result).unwrap_or(serde_json::Value::Null);
            let seat = g.players.iter().position(|p| *p == r.player_id);
            let place = seat.and_then(|s| result["places"].get(s)).cloned().unwrap_or(serde_json::Value::Null);
            recent.push(serde_json::json!({
                "replay": g.id, "origin": g.origin, "seat": seat, "place": place, "places": result["places"],
            }));
        }
        out.push(RatingView { player_id: r.player_id, name, rating: r.rating, uncertainty: r.uncertainty, games: r.games, recent });
    }
    Ok(Json(out))
}

#[derive(Deserialize)]
struct Register {
    name: String,
    /// The game to play; the contest's first game (SnakeBattle by default)
    /// when absent. Read in any case: `Hex` as the lobby writes it is hex.
    #[serde(default, deserialize_with = "game_name")]
    game: Option<String>,
}

/// A game's name as sent, trimmed and lowercase, as games are named.
fn game_name<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(Option::<String>::deserialize(d)?.map(|g| g.trim().to_ascii_lowercase()))
}

/// Checks a display name: trimmed, 1 to 40 characters, no control
/// characters. Anything else is allowed; pages escape it.
pub fn check_name(name: &str) -> Result<String, AppError> {
    let name = name.trim();
    let n = name.chars().count();
    if n == 0 {
        return Err(AppError::Client(StatusCode::BAD_REQUEST, "a name cannot be empty or only spaces".into()));
    }
    if n > NAME_MAX_CHARS || name.chars().any(char::is_control) {
        return Err(AppError::Client(
            StatusCode::BAD_REQUEST,
            format!("a name has 1 to {NAME_MAX_CHARS} characters and no control characters"),
        ));
    }
    // Characters that show as nothing, or turn the text around, would let
    // "champion" and "champ\u{ad}ion" both sit on the leaderboard.
    if let Some(c) = name.chars().find(|&c| invisible(c)) {
        return Err(AppError::Client(
            StatusCode::BAD_REQUEST,
            format!("a name has no invisible or text-direction characters (U+{:04X})", u32::from(c)),
        ));
    }
    let mut marks = 0;
    for c in name.chars() {
        marks = if combining(c) { marks + 1 } else { 0 };
        if marks > COMBINING_MARKS_MAX {
            return Err(AppError::Client(
                StatusCode::BAD_REQUEST,
                format!("a name has at most {COMBINING_MARKS_MAX} accents on one letter"),
            ));
        }
    }
    Ok(name.to_string())
}

/// Accents a name's letter may carry (Vietnamese needs two).
const COMBINING_MARKS_MAX: usize = 2;

/// Format characters that draw nothing, or reorder text: soft hyphen,
/// zero-width space, direction marks and overrides, word joiner and
/// invisible operators, the byte-order mark and tag characters. The
/// zero-width joiner and non-joiner and the variation selectors stay:
/// Persian and Indic names and emoji (👩‍💻, ❤️) need them.
fn invisible(c: char) -> bool {
    matches!(u32::from(c),
        0x00AD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180E
        | 0x200B | 0x200E | 0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164
        | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFFB | 0x1D173..=0x1D17A | 0xE0000..=0xE0FFF)
}

/// Combining marks, which stack on the letter before them.
fn combining(c: char) -> bool {
    matches!(u32::from(c), 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

/// The page a player copies into their client. Behind a TLS-terminating
/// proxy that sets `X-Forwarded-Proto: https` the URL is `https`, so that
/// clients derive `wss` from it.
pub fn player_url(headers: &HeaderMap, id: &str, code: &str) -> String {
    let host = headers.get("host").and_then(|h| h.to_str().ok()).unwrap_or("127.0.0.1:8080");
    let scheme = match headers.get("x-forwarded-proto").and_then(|h| h.to_str().ok()) {
        Some("https") => "https",
        _ => "http",
    };
    format!("{scheme}://{host}/codenjoy-contest/board/player/{id}?code={code}")
}

async fn api_register(
    State(st): Shared,
    axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<crate::ws::PeerAddr>,
    headers: HeaderMap,
    JsonBody(r): JsonBody<Register>,
) -> Result<impl IntoResponse, AppError> {
    if !st.cfg.registration_open() {
        let why = "registration is closed: the organiser adds the players".to_string();
        return Err(AppError::Client(StatusCode::FORBIDDEN, why));
    }
    // Without a game, the contest's first.
    let mut r = r;
    let game = r.game.get_or_insert_with(|| st.cfg.games.first().cloned().unwrap_or_default());
    if st.rooms.hosts(game) && !st.cfg.offers(game) {
        let why = format!("this contest does not offer {game}; it offers {}", st.cfg.games.join(", "));
        return Err(AppError::Client(StatusCode::BAD_REQUEST, why));
    }
    if !st.sign_ups.take(peer.limit_key(), std::time::Instant::now()) {
        let why = format!(
            "too many sign-ups from your address (at most {} an hour); try again later",
            st.cfg.limits.registrations_per_ip_per_hour
        );
        return Err(AppError::Client(StatusCode::TOO_MANY_REQUESTS, why));
    }
    register(&st, &headers, r).await
}

/// Adds a player (from the sign-up form or the admin) and answers with
/// their secret URL.
async fn register(st: &AppState, headers: &HeaderMap, r: Register) -> Result<impl IntoResponse + use<>, AppError> {
    let name = check_name(&r.name)?;
    let game = r.game.unwrap_or_else(|| st.cfg.games.first().cloned().unwrap_or_else(|| "snakebattle".to_string()));
    if !st.rooms.hosts(&game) {
        let why = format!("no game {game:?} here: this server hosts {}", st.cfg.games.join(", "));
        return Err(AppError::Client(StatusCode::BAD_REQUEST, why));
    }
    let p = st.store.add_player(&name, &game).await?;
    let url = player_url(headers, &p.id, &p.code);
    Ok((StatusCode::CREATED, Json(serde_json::json!({ "id": p.id, "name": p.name, "game": p.game, "code": p.code, "url": url }))))
}

/// The check behind [`Admin`]: the `Authorization: Bearer` token, compared
/// in constant time.
fn require_admin(st: &AppState, headers: &HeaderMap) -> Result<(), AppError> {
    // The scheme's name is case-insensitive (RFC 9110).
    let given = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map_or("", |(_, token)| token.trim());
    let want = st.admin_token.as_bytes();
    let ok = given.len() == want.len() && given.bytes().zip(want).fold(0u8, |a, (x, y)| a | (x ^ y)) == 0;
    match (ok, given.is_empty()) {
        (true, _) => Ok(()),
        (false, true) => Err(AppError::Client(StatusCode::UNAUTHORIZED, "admin token required".to_string())),
        (false, false) => Err(AppError::Client(StatusCode::UNAUTHORIZED, "wrong admin token".to_string())),
    }
}

async fn admin_players(State(st): Shared, _: Admin, headers: HeaderMap) -> Result<impl IntoResponse, AppError> {
    let players = st.store.players().await?;
    let rows: Vec<_> = players
        .iter()
        .map(|p| {
            let room = st.rooms.room_of(&p.id).map(|h| h.name);
            serde_json::json!({ "id": p.id, "name": p.name, "game": p.game, "url": player_url(&headers, &p.id, &p.code), "room": room })
        })
        .collect();
    Ok(Json(rows))
}

async fn admin_add_player(State(st): Shared, _: Admin, headers: HeaderMap, JsonBody(r): JsonBody<Register>) -> Result<impl IntoResponse, AppError> {
    register(&st, &headers, r).await
}

/// Where an organiser's action is carried out: on this node (`Ok(None)`),
/// or on the node that runs the room in question, to which the request is
/// forwarded with the same method, path, token and `body`, its answer
/// coming back as it is (`Ok(Some)`). A request that was forwarded once is
/// not forwarded again: the room moved meanwhile, and the organiser is
/// asked to try again.
async fn forward_admin(
    route: Route,
    headers: &HeaderMap,
    method: &str,
    uri: &axum::http::Uri,
    body: &str,
) -> Result<Option<Response>, AppError> {
    match route {
        Route::Local => Ok(None),
        Route::Unavailable(why) => Err(AppError::Client(StatusCode::SERVICE_UNAVAILABLE, why)),
        Route::Remote(_) if headers.contains_key(crate::ws::FORWARDED_HEADER) => Err(AppError::Client(
            StatusCode::SERVICE_UNAVAILABLE,
            "the room is moving to another node: try again".to_string(),
        )),
        Route::Remote(base) => {
            let path = uri.path_and_query().map_or("/", |p| p.as_str());
            let token = headers.get("authorization").and_then(|v| v.to_str().ok());
            let answer = crate::peer::send(&base, method, path, token, body).await.map_err(|why| {
                AppError::Client(StatusCode::BAD_GATEWAY, format!("the node that runs the room did not answer: {why}"))
            })?;
            // This node took the token: a refusal there means the nodes
            // were given different tokens, which the organiser must hear
            // as such, not as "sign in again".
            if answer.status == 401 {
                return Err(AppError::Client(
                    StatusCode::BAD_GATEWAY,
                    "the node that runs the room refused this node's admin token: give every node the same admin_token".to_string(),
                ));
            }
            let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::BAD_GATEWAY);
            Ok(Some((status, [(axum::http::header::CONTENT_TYPE, "application/json")], answer.body).into_response()))
        }
    }
}

/// [`forward_admin`] for an action about a player: forwarded when their
/// room runs on another node.
async fn forward_for_player(
    st: &AppState,
    id: &str,
    headers: &HeaderMap,
    method: &str,
    uri: &axum::http::Uri,
) -> Result<Option<Response>, AppError> {
    forward_admin(seated_route(st, id).await?, headers, method, uri, "").await
}

/// Where an organiser's action about a player is carried out: on the node
/// that runs the room they sit in, and here when they sit nowhere (unlike
/// [`Rooms::route_player`](crate::rooms::Rooms::route_player), which for
/// such a player names the node where a seat is free for them to take:
/// with every room full there, two nodes could send the action to each
/// other).
async fn seated_route(st: &AppState, id: &str) -> Result<Route, AppError> {
    if st.rooms.room_of(id).is_some() {
        return Ok(Route::Local);
    }
    match st.store.seat(id).await? {
        Some(room) => Ok(st.rooms.route_room(&room).await?),
        None => Ok(Route::Local),
    }
}

async fn admin_kick(
    State(st): Shared,
    _: Admin,
    headers: HeaderMap,
    uri: axum::http::Uri,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    if let Some(answer) = forward_for_player(&st, &id, &headers, "POST", &uri).await? {
        return Ok(answer);
    }
    let Some(room) = st.rooms.room_of(&id) else {
        return Err(AppError::Client(StatusCode::NOT_FOUND, format!("player {id:?} is not in a room")));
    };
    let kicked = room.kick(&id, (4003, "kicked by the organiser".into())).await;
    st.rooms.forget(&id);
    Ok(Json(serde_json::json!({ "kicked": kicked, "room": room.name })).into_response())
}

/// `DELETE /api/admin/players/{id}`: the player is gone for good, unlike
/// after a kick. Their secret URL stops working (a bot that reconnects is
/// refused), their seat goes back to a built-in bot, their program stops
/// (a start of it still building never takes a seat; a save waiting for a
/// compiler is refused, and one being built is not saved), and their points,
/// rating and saved program go with them. The games they played stay.
async fn admin_remove_player(
    State(st): Shared,
    _: Admin,
    headers: HeaderMap,
    uri: axum::http::Uri,
    Path(id): Path<String>,
) -> Result<Response, AppError> {
    if let Some(answer) = forward_for_player(&st, &id, &headers, "DELETE", &uri).await? {
        return Ok(answer);
    }
    // Out of the store first, so that a bot reconnecting after the kick
    // below is refused rather than seated again.
    st.store.remove_player(&id).await?;
    crate::code::forget_starts(&id);
    st.builds.forget(&id);
    // Marked before the room is looked up: a connection being seated now
    // either shows up here or finds the mark (see `Rooms::attach`).
    let room = st.rooms.remove_player(&id);
    if let Some(room) = &room {
        room.kick(&id, (crate::rooms::REMOVED_CLOSE_CODE, crate::rooms::REMOVED_REASON.to_string())).await;
    }
    Ok(Json(serde_json::json!({ "removed": id, "room": room.map(|r| r.name.clone()) })).into_response())
}

/// The body of `POST /api/player/room`.
#[derive(Deserialize)]
struct MoveTo {
    /// Player id.
    user: String,
    /// Secret code.
    code: String,
    /// The room to play in; none opens a new room for the player.
    room: Option<String>,
}

/// `POST /api/player/room`: the player leaves their room for another room
/// of their game, or for a new one, so that two people (or two
/// contestants' bots) can meet in one room: one moves to a new room, the
/// other follows by its name. Their connections are closed with a reason
/// that says to reconnect, and take the new seat when they do; a saved
/// program is started again there. In a cluster the request is redirected
/// to the node that runs the player's room (307 keeps the method and body).
async fn api_player_room(State(st): Shared, uri: axum::http::Uri, JsonBody(m): JsonBody<MoveTo>) -> Result<impl IntoResponse, AppError> {
    let p = crate::code::player(&st, &m.user, &m.code).await?;
    follow(st.rooms.route_player(&p.id).await?, &uri)?;
    Ok(Json(move_player(&st, p, m.room.as_deref()).await?))
}

/// Moves player `p` to room `wanted` of their game (a new room when
/// `None`), starting their saved program there; answers
/// `{"room", "program"}`. Called on the node that runs their room.
async fn move_player(st: &Arc<AppState>, p: snakepit_store::Player, wanted: Option<&str>) -> Result<serde_json::Value, AppError> {
    let wanted = wanted.map(str::trim).filter(|r| !r.is_empty());
    if wanted.is_some_and(|r| r.chars().count() > crate::rooms::ROOM_NAME_MAX_CHARS) {
        return Err(AppError::Client(StatusCode::NOT_FOUND, "there is no room with so long a name".into()));
    }
    let player = crate::room::PlayerRef::of(&p);
    let moved = st.rooms.move_player(&player, wanted).await.map_err(|e| {
        let status = match e {
            crate::rooms::MoveError::NoRoom(_) => StatusCode::NOT_FOUND,
            crate::rooms::MoveError::OtherGame(..) => StatusCode::BAD_REQUEST,
            crate::rooms::MoveError::Full(_) | crate::rooms::MoveError::Refused(_) => StatusCode::CONFLICT,
            crate::rooms::MoveError::Other(_) => StatusCode::SERVICE_UNAVAILABLE,
        };
        AppError::Client(status, e.to_string())
    })?;
    let room = moved.room;
    let program = match st.store.code(&p.id).await? {
        Some(_) if !moved.changed => serde_json::Value::Null,
        Some(row) if crate::arenas::text_parser(&player.game).is_some() => serde_json::json!(start_program(st, &p, &row).await),
        _ => serde_json::Value::Null,
    };
    Ok(serde_json::json!({ "room": room, "program": program }))
}

/// Starts player `p`'s saved program in their room, on whichever node runs
/// it (that node is asked), and says how it went: `started`, `started once
/// built` (a C or Java build first), or why not.
async fn start_program(st: &Arc<AppState>, p: &snakepit_store::Player, row: &snakepit_store::CodeRow) -> String {
    use crate::code::StartError;
    match crate::code::start(st, crate::room::PlayerRef::of(p), row).await {
        Ok(Some(_)) => "started".to_string(),
        Ok(None) => "started once built".to_string(),
        Err(StartError::Elsewhere(node)) => {
            let credentials = serde_json::json!({ "user": p.id, "code": p.code }).to_string();
            let retry = "save it again to start it there";
            match crate::peer::post_json(&node, "/api/code/start", &credentials).await {
                Ok(a) if a.status == 200 => "started".to_string(),
                Ok(a) if a.status == 202 => "started once built".to_string(),
                Ok(a) => {
                    let why = crate::app::answer_error(&a.body);
                    format!("not started: the room's node ({node}) answered {}: {why}; {retry}", a.status)
                }
                Err(e) => format!("not started: the room runs on {node}, which was not reached ({e}); {retry}"),
            }
        }
        Err(why) => format!("not started: {why}"),
    }
}

/// The body of `POST /api/admin/players/{id}/room`.
#[derive(Deserialize)]
struct SeatIn {
    /// The room; none opens a new room for the player.
    room: Option<String>,
}

/// `POST /api/admin/players/{id}/room`: the organiser moves a player to a
/// room of their game (a final between two contestants, say), as the
/// player could from their page: their connections close with a reason
/// that says to reconnect, they take the new seat when they do, and a
/// saved program starts there. Answers `{"room", "program"}`.
async fn admin_seat_player(
    State(st): Shared,
    _: Admin,
    headers: HeaderMap,
    uri: axum::http::Uri,
    Path(id): Path<String>,
    JsonBody(r): JsonBody<SeatIn>,
) -> Result<Response, AppError> {
    let body = serde_json::json!({ "room": r.room }).to_string();
    if let Some(answer) = forward_admin(seated_route(&st, &id).await?, &headers, "POST", &uri, &body).await? {
        return Ok(answer);
    }
    let Some(p) = st.store.player(&id).await? else {
        return Err(AppError::Client(StatusCode::NOT_FOUND, format!("no player {id:?}")));
    };
    let player = crate::room::PlayerRef::of(&p);
    let mut answer = move_player(&st, p, r.room.as_deref()).await?;
    // The seat waits for them (`limits.reservation_wait_ms`).
    if let Some(room) = answer["room"].as_str().map(str::to_string) {
        answer["reserved_ms"] = st.rooms.reserve(&player, &room).await?.into();
    }
    Ok(Json(answer).into_response())
}

#[derive(Deserialize)]
struct NewRoom {
    name: String,
    game: Option<String>,
    tick_ms: Option<u64>,
}

async fn admin_create_room(State(st): Shared, _: Admin, JsonBody(r): JsonBody<NewRoom>) -> Result<impl IntoResponse, AppError> {
    if st.store.rooms().await?.iter().any(|row| row.name == r.name) {
        return Err(AppError::Client(StatusCode::CONFLICT, format!("room {:?} exists", r.name)));
    }
    if !crate::rooms::valid_room_name(&r.name) {
        return Err(AppError::Client(StatusCode::BAD_REQUEST, "room names are a-z, 0-9, - and _".to_string()));
    }
    let game = r.game.unwrap_or_else(|| "snakebattle".to_string());
    if !st.rooms.hosts(&game) {
        return Err(AppError::Client(StatusCode::BAD_REQUEST, format!("unknown game {game:?}")));
    }
    if let Some(ms) = r.tick_ms {
        crate::config::check_tick_ms(ms).map_err(|e| AppError::Client(StatusCode::BAD_REQUEST, e.to_string()))?;
    }
    let h = st.rooms.create(&r.name, &game, r.tick_ms).await?;
    Ok((StatusCode::CREATED, Json(serde_json::json!({ "room": h.name }))))
}

/// A room this node runs (`Ok(Ok)`); in a cluster, the answer of the node
/// that runs it, to which the organiser's request went ([`forward_admin`]).
async fn admin_room(
    st: &AppState,
    name: &str,
    headers: &HeaderMap,
    (method, uri): (&str, &axum::http::Uri),
    body: &str,
) -> Result<Result<crate::room::RoomHandle, Response>, AppError> {
    if let Some(h) = st.rooms.get(name) {
        return Ok(Ok(h));
    }
    if let Some(answer) = forward_admin(st.rooms.route_room(name).await?, headers, method, uri, body).await? {
        return Ok(Err(answer));
    }
    Err(AppError::Client(StatusCode::NOT_FOUND, format!("no room {name:?}")))
}

/// `DELETE /api/admin/rooms/{name}`: the room closes and is deleted; its
/// players' connections close with a reason that says to reconnect, and
/// they are seated again in another room of their game; their saved
/// programs start there (`programs`, by player name). Scores and kept
/// games stay. A room of the configuration's `[[rooms]]` is made again at
/// the next start, which the answer says (`returns_at_restart`).
async fn admin_delete_room(
    State(st): Shared,
    _: Admin,
    headers: HeaderMap,
    uri: axum::http::Uri,
    Path(name): Path<String>,
) -> Result<Response, AppError> {
    if let Err(answer) = admin_room(&st, &name, &headers, ("DELETE", &uri), "").await? {
        return Ok(answer);
    }
    let Some(players) = st.rooms.delete(&name).await? else {
        return Err(AppError::Client(StatusCode::NOT_FOUND, format!("no room {name:?}")));
    };
    // Saved programs stopped with the room: each starts again in another
    // room of its game, as after a move.
    // The room is gone already: a store error for one player is said for
    // that player, and the others' programs still start.
    let mut programs = serde_json::Map::new();
    for id in players {
        let (p, row) = match (st.store.player(&id).await, st.store.code(&id).await) {
            (Ok(Some(p)), Ok(Some(row))) => (p, row),
            (Ok(_), Ok(_)) => continue,
            (Err(e), _) | (_, Err(e)) => {
                programs.insert(id, serde_json::json!(format!("not started: {e}")));
                continue;
            }
        };
        if crate::arenas::text_parser(&p.game).is_none() {
            continue;
        }
        let said = start_program(&st, &p, &row).await;
        programs.insert(p.name, serde_json::Value::String(said));
    }
    let returns = st.cfg.rooms_at_start().iter().any(|r| r.name == name);
    Ok(Json(serde_json::json!({ "deleted": name, "returns_at_restart": returns, "programs": programs })).into_response())
}

/// Pauses or resumes a room, here or on its node; the handlers that call
/// it took [`Admin`].
async fn set_paused(
    st: Arc<AppState>,
    headers: HeaderMap,
    uri: axum::http::Uri,
    name: String,
    paused: bool,
) -> Result<Response, AppError> {
    let h = match admin_room(&st, &name, &headers, ("POST", &uri), "").await? {
        Ok(h) => h,
        Err(answer) => return Ok(answer),
    };
    let _ = h.tx.send(RoomInput::Pause(paused)).await;
    let tick_ms = h.summary.borrow().tick_ms;
    st.rooms.persist(&h, paused, tick_ms).await?;
    Ok(Json(serde_json::json!({ "room": name, "paused": paused })).into_response())
}

async fn admin_pause(
    State(st): Shared,
    _: Admin,
    headers: HeaderMap,
    uri: axum::http::Uri,
    Path(name): Path<String>,
) -> Result<impl IntoResponse, AppError> {
    set_paused(st, headers, uri, name, true).await
}

async fn admin_resume(
    State(st): Shared,
    _: Admin,
    headers: HeaderMap,
    uri: axum::http::Uri,
    Path(name): Path<String>,
) -> Result<impl IntoResponse, AppError> {
    set_paused(st, headers, uri, name, false).await
}

#[derive(Deserialize)]
struct Tick {
    tick_ms: u64,
}

async fn admin_tick(
    State(st): Shared,
    _: Admin,
    headers: HeaderMap,
    uri: axum::http::Uri,
    Path(name): Path<String>,
    JsonBody(t): JsonBody<Tick>,
) -> Result<impl IntoResponse, AppError> {
    let ms = t.tick_ms;
    crate::config::check_tick_ms(ms).map_err(|e| AppError::Client(StatusCode::BAD_REQUEST, e.to_string()))?;
    let h = match admin_room(&st, &name, &headers, ("POST", &uri), &serde_json::json!({ "tick_ms": ms }).to_string()).await? {
        Ok(h) => h,
        Err(answer) => return Ok(answer),
    };
    let _ = h.tx.send(RoomInput::SetTick(ms)).await;
    let paused = h.summary.borrow().paused;
    st.rooms.persist(&h, paused, ms).await?;
    Ok(Json(serde_json::json!({ "room": name, "tick_ms": ms })).into_response())
}

async fn admin_reset_scores(
    State(st): Shared,
    _: Admin,
    Query(q): Query<BTreeMap<String, String>>,
) -> Result<impl IntoResponse, AppError> {
    let game = q.get("game").map(String::as_str);
    if let Some(g) = game {
        known_game(g)?;
    }
    let n = st.store.reset_scores(game).await?;
    // The rooms of every node learn it when their next points are refused;
    // those here at once. Only the rooms whose scores went: the others'
    // pending points stay.
    for h in st.rooms.list().into_iter().filter(|h| game.is_none_or(|g| g == h.game)) {
        let _ = h.tx.send(RoomInput::ResetScores).await;
    }
    Ok(Json(serde_json::json!({ "rows_cleared": n })))
}

/// `/api/server`: what the lobby offers: the games players may sign up
/// for, and whether they may sign up themselves.
async fn api_server(State(st): Shared) -> Json<serde_json::Value> {
    Json(serde_json::json!({ "games": st.cfg.games, "registration": st.cfg.registration }))
}

async fn api_metrics(State(st): Shared) -> Json<serde_json::Value> {
    let h = &st.rooms.latency;
    let in_use = st.cfg.limits.max_connections - st.sockets.available_permits();
    Json(serde_json::json!({
        "ticks": h.count(),
        "tick_to_last_board_p50_ms": h.quantile_ms(0.5),
        "tick_to_last_board_p99_ms": h.quantile_ms(0.99),
        "tick_to_last_board_max_ms": h.max_ms(),
        "rooms": st.rooms.list().len(),
        "sockets": in_use,
        "rss_bytes": crate::metrics::rss_bytes(),
    }))
}

async fn admin_metrics_reset(State(st): Shared, _: Admin) -> Result<impl IntoResponse, AppError> {
    st.rooms.latency.reset();
    Ok(Json(serde_json::json!({ "reset": true })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn sign_ups_refill_over_the_hour_per_address() {
        let s = PerAddressRate::new(3);
        let (a, b): (std::net::IpAddr, std::net::IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let t0 = Instant::now();
        assert_eq!((0..4).map(|_| s.take(a, t0)).collect::<Vec<_>>(), [true, true, true, false]);
        assert!(s.take(b, t0), "another address has its own bucket");
        // Three an hour: one more after twenty minutes, not before.
        assert!(!s.take(a, t0 + Duration::from_secs(19 * 60)));
        assert!(s.take(a, t0 + Duration::from_secs(21 * 60)));
        assert!(!s.take(a, t0 + Duration::from_secs(21 * 60)));
        // A bucket never holds more than an hour's worth.
        let later = t0 + Duration::from_secs(10 * 3600);
        assert_eq!((0..4).map(|_| s.take(a, later)).collect::<Vec<_>>(), [true, true, true, false]);
    }

    #[test]
    fn names_are_checked_with_a_reason() {
        let why = |name: &str| match check_name(name) {
            Ok(n) => format!("ok {n}"),
            Err(AppError::Client(status, why)) => format!("{} {why}", status.as_u16()),
            Err(e) => format!("{e:?}"),
        };
        assert_eq!(why("  ann  "), "ok ann");
        assert_eq!(why("   "), "400 a name cannot be empty or only spaces");
        assert_eq!(why(""), "400 a name cannot be empty or only spaces");
        assert_eq!(why("a\u{7}b"), "400 a name has 1 to 40 characters and no control characters");
        assert_eq!(why(&"x".repeat(41)), "400 a name has 1 to 40 characters and no control characters");
        // Look-alikes of another name are refused, with the character.
        for (name, code) in [
            ("champ\u{ad}ion", "00AD"),
            ("\u{200b}champion", "200B"),
            ("champion\u{2060}", "2060"),
            ("\u{202e}noipmahc", "202E"),
            ("\u{feff}champion", "FEFF"),
            ("champion\u{e0041}", "E0041"),
        ] {
            assert_eq!(why(name), format!("400 a name has no invisible or text-direction characters (U+{code})"), "{name:?}");
        }
        assert_eq!(why("Z\u{301}\u{302}\u{303}algo"), "400 a name has at most 2 accents on one letter");
        // Real names in other scripts pass: accents, Vietnamese, Hangul, Arabic.
        for name in ["Zoë", "Nguyê\u{302}\u{303}n", "김민준", "مريم", "Łukasz-42", "می\u{200c}خواهم", "👩\u{200d}💻 dev", "I \u{2764}\u{fe0f} snakes"] {
            assert_eq!(why(name), format!("ok {name}"));
        }
    }

    #[test]
    fn one_place_per_key_until_it_is_dropped() {
        let places: OneEach<&str> = OneEach::new();
        let ann = places.take("ann").expect("a free place");
        assert!(places.take("ann").is_none(), "held");
        let bob = places.take("bob").expect("another key");
        drop(ann);
        assert!(places.take("ann").is_some(), "given up on drop");
        drop(bob);
    }

    #[test]
    fn the_addresses_remembered_are_bounded() {
        let s = PerAddressRate::new(1);
        let t0 = Instant::now();
        let addr = |i: u32| std::net::IpAddr::from(std::net::Ipv4Addr::from(0x0a00_0000 + i));
        // Every address spends its one request within the same second.
        for i in 0..RATE_ADDRESSES_MAX as u32 + 50 {
            assert!(s.take(addr(i), t0 + Duration::from_micros(u64::from(i))));
        }
        let remembered = s.buckets.lock().unwrap().len();
        assert!(remembered <= RATE_ADDRESSES_MAX, "{remembered}");
        // The latest are still held to their rate; the quietest were
        // forgotten first.
        let last = addr(RATE_ADDRESSES_MAX as u32 + 49);
        assert!(!s.take(last, t0 + Duration::from_secs(1)));
        assert!(!s.buckets.lock().unwrap().contains_key(&addr(0)));
    }
}
