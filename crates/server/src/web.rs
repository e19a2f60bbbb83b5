//! The web UI, compiled into the binary.
//!
//! Pages are static files from `crates/server/web/`, which share one top
//! bar (`topbar.html`, put in at first use); they fetch JSON from
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

/// The bar at the top of every page (`web/topbar.html`), which each page
/// names with a `<!-- topbar -->` line.
const TOPBAR: &str = include_str!("../web/topbar.html");

/// A page as served: its `<!-- topbar -->` line replaced by [`TOPBAR`],
/// with the link to `current` (the page's own address, if the bar has it)
/// marked as the page shown. Built once, on first use.
fn with_topbar(page: &str, current: Option<&str>) -> String {
    let bar = match current {
        Some(href) => TOPBAR.replacen(&format!("<a href=\"{href}\">"), &format!("<a href=\"{href}\" aria-current=\"page\">"), 1),
        None => TOPBAR.to_string(),
    };
    page.replacen("<!-- topbar -->\n", &bar, 1)
}

macro_rules! page {
    ($name:ident, $file:literal, $current:expr) => {
        static $name: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| with_topbar(include_str!($file), $current));
    };
}

page!(LOBBY, "../web/index.html", Some("/"));
page!(ROOM, "../web/room.html", None);
page!(PLAYER, "../web/player.html", None);
page!(LEADERBOARD, "../web/leaderboard.html", Some("/leaderboard"));
page!(ADMIN, "../web/admin.html", Some("/admin"));
page!(REPLAYS, "../web/replays.html", Some("/replays"));
page!(NO_ROOM, "../web/no-room.html", None);
page!(NOT_FOUND, "../web/not-found.html", None);

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
    let mut page = html(&NOT_FOUND);
    *page.status_mut() = StatusCode::NOT_FOUND;
    page
}

/// `/`
pub async fn lobby() -> Response {
    html(&LOBBY)
}

/// `/room/NAME`
pub async fn room_page(State(st): State<Arc<AppState>>, Path(name): Path<String>, uri: Uri) -> Result<Response, AppError> {
    follow(st.rooms.route_room(&name).await?, &uri)?;
    // A room of the store that no node runs yet is about to start: its
    // page waits for it rather than sending the visitor away.
    if st.rooms.get(&name).is_none() && !st.store.rooms().await?.iter().any(|r| r.name == name) {
        let mut page = html(&NO_ROOM);
        *page.status_mut() = StatusCode::NOT_FOUND;
        return Ok(page);
    }
    Ok(html(&ROOM))
}

/// `/codenjoy-contest/board/player/ID?code=CODE`
pub async fn player_page(State(st): State<Arc<AppState>>, Path(id): Path<String>, uri: Uri) -> Result<Response, AppError> {
    follow(st.rooms.route_player(&id).await?, &uri)?;
    Ok(html(&PLAYER))
}

/// `/leaderboard`
pub async fn leaderboard_page() -> Response {
    html(&LEADERBOARD)
}

/// `/admin`
pub async fn admin_page() -> Response {
    html(&ADMIN)
}

/// `/replays`
pub async fn replays_page() -> Response {
    html(&REPLAYS)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every page gets the one bar, and a page the bar links to is marked
    /// as the one shown (and no other).
    #[test]
    fn every_page_has_the_topbar_with_its_own_link_marked() {
        let pages: [(&str, &str, Option<&str>); 8] = [
            ("lobby", &LOBBY, Some("/")),
            ("room", &ROOM, None),
            ("player", &PLAYER, None),
            ("leaderboard", &LEADERBOARD, Some("/leaderboard")),
            ("admin", &ADMIN, Some("/admin")),
            ("replays", &REPLAYS, Some("/replays")),
            ("no room", &NO_ROOM, None),
            ("not found", &NOT_FOUND, None),
        ];
        for (name, page, current) in pages {
            assert!(!page.contains("<!-- topbar -->"), "{name}: the marker is left");
            assert_eq!(page.matches("<header class=\"topbar\">").count(), 1, "{name}");
            let marked: Vec<&str> = page.match_indices(" aria-current=\"page\"").map(|(i, _)| &page[..i]).collect();
            match current {
                Some(href) => {
                    assert_eq!(marked.len(), 1, "{name}");
                    assert!(marked[0].ends_with(&format!("<a href=\"{href}\"")), "{name}");
                }
                None => assert!(marked.is_empty(), "{name}"),
            }
        }
    }
}
