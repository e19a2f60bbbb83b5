//! The web UI, compiled into the binary.
//!
//! Pages are static files from `crates/server/web/`; they fetch JSON from
//! `/api/...` and open WebSockets for live data, so the server never builds
//! HTML around user-supplied text (names are inserted by the pages as text
//! nodes, never as markup).
//!
//! In a cluster, a room's page and a player's page are served by the node
//! that runs the room: another node redirects there (307, same path and
//! query), or answers 503 with the reason while no node runs it. A room
//! that neither runs here nor is known to the store gets a 404 page.

use crate::app::{AppError, AppState, follow};
use axum::extract::{Path, State};
use axum::http::{StatusCode, Uri, header};
use std::sync::Arc;
use axum::response::{IntoResponse, Response};

const LOBBY: &str = include_str!("../web/index.html");
const ROOM: &str = include_str!("../web/room.html");
const PLAYER: &str = include_str!("../web/player.html");
const LEADERBOARD: &str = include_str!("../web/leaderboard.html");
const ADMIN: &str = include_str!("../web/admin.html");
const REPLAYS: &str = include_str!("../web/replays.html");
const NO_ROOM: &str = include_str!("../web/no-room.html");
const NOT_FOUND: &str = include_str!("../web/not-found.html");

/// Static assets by file name: (content type, bytes).
const ASSETS: &[(&str, &str, &str)] = &[
    ("app.js", "text/javascript; charset=utf-8", include_str!("../web/app.js")),
    ("board.js", "text/javascript; charset=utf-8", include_str!("../web/board.js")),
    ("lobby.js", "text/javascript; charset=utf-8", include_str!("../web/lobby.js")),
    ("room.js", "text/javascript; charset=utf-8", include_str!("../web/room.js")),
    ("player.js", "text/javascript; charset=utf-8", include_str!("../web/player.js")),
    ("leaderboard.js", "text/javascript; charset=utf-8", include_str!("../web/leaderboard.js")),
    ("admin.js", "text/javascript; charset=utf-8", include_str!("../web/admin.js")),
    ("replays.js", "text/javascript; charset=utf-8", include_str!("../web/replays.js")),
    ("style.css", "text/css; charset=utf-8", include_str!("../web/style.css")),
];

fn html(body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_SECURITY_POLICY, "default-src 'self'; img-src 'self' data:; style-src 'self'; connect-src 'self' ws: wss:"),
        ],
        body,
    )
        .into_response()
}

/// Any address the server has nothing at: a page that says so, with the
/// way back (under `/api/`, the API's JSON error).
pub async fn not_found(uri: Uri) -> Response {
    if uri.path().starts_with("/api/") {
        return AppError::Client(StatusCode::NOT_FOUND, "no such address in the API".into()).into_response();
    }
    let mut page = html(NOT_FOUND);
    *page.status_mut() = StatusCode::NOT_FOUND;
    page
}

/// `/`
pub async fn lobby() -> Response {
    html(LOBBY)
}

/// `/room/NAME`
pub async fn room_page(State(st): State<Arc<AppState>>, Path(name): Path<String>, uri: Uri) -> Result<Response, AppError> {
    follow(st.rooms.route_room(&name).await?, &uri)?;
    // A room of the store that no node runs yet is about to start: its
    // page waits for it rather than sending the visitor away.
    if st.rooms.get(&name).is_none() && !st.store.rooms().await?.iter().any(|r| r.name == name) {
        let mut page = html(NO_ROOM);
        *page.status_mut() = StatusCode::NOT_FOUND;
        return Ok(page);
    }
    Ok(html(ROOM))
}

/// `/codenjoy-contest/board/player/ID?code=CODE`
pub async fn player_page(State(st): State<Arc<AppState>>, Path(id): Path<String>, uri: Uri) -> Result<Response, AppError> {
    follow(st.rooms.route_player(&id).await?, &uri)?;
    Ok(html(PLAYER))
}

/// `/leaderboard`
pub async fn leaderboard_page() -> Response {
    html(LEADERBOARD)
}

/// `/admin`
pub async fn admin_page() -> Response {
    html(ADMIN)
}

/// `/replays`
pub async fn replays_page() -> Response {
    html(REPLAYS)
}

/// The site's icon, also drawn inline in every page's head.
const ICON_SVG: &str = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><rect width='16' height='16' rx='4' fill='#121925'/><path d='M3.5 12h5V4.5h4' stroke='#4ade80' stroke-width='2.6' fill='none' stroke-linecap='round' stroke-linejoin='round'/></svg>";

/// `/favicon.ico`: what browsers ask for on pages without an icon of
/// their own (a plain-text answer, a downloaded file).
pub async fn favicon() -> Response {
    ([(header::CONTENT_TYPE, "image/svg+xml"), (header::CACHE_CONTROL, "max-age=86400")], ICON_SVG).into_response()
}

/// `/static/FILE`
pub async fn asset(Path(file): Path<String>) -> Response {
    match ASSETS.iter().find(|(name, _, _)| *name == file) {
        Some((_, ctype, body)) => ([(header::CONTENT_TYPE, *ctype), (header::CACHE_CONTROL, "no-cache")], *body).into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}
