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
page!(ERROR, "../web/error.html", None);

/// Static assets by file name: (content type, bytes).
const ASSETS: &[(&str, &str, &str)] = &[
    ("app.js", "text/javascript; charset=utf-8", include_str!("../web/app.js")),
    ("board.js", "text/javascript; charset=utf-8", snakepit_viewer::html::page::BOARD_JS),
    ("lobby.js", "text/javascript; charset=utf-8", include_str!("../web/lobby.js")),
    ("room.js", "text/javascript; charset=utf-8", include_str!("../web/room.js")),
    ("player.js", "text/javascript; charset=utf-8", include_str!("../web/player.js")),
    ("leaderboard.js", "text/javascript; charset=utf-8", include_str!("../web/leaderboard.js")),
    ("admin.js", "text/javascript; charset=utf-8", include_str!("../web/admin.js")),
    ("replays.js", "text/javascript; charset=utf-8", include_str!("../web/replays.js")),
];

/// `/static/style.css`: the site's style sheet, then the top bar's rules,
/// which the replay viewer's pages carry too (so that the bar of a replay
/// page is the site's).
static STYLE_CSS: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| [include_str!("../web/style.css"), snakepit_viewer::html::page::TOPBAR_CSS].concat());

/// A replay viewer's page (`snakepit_viewer::html`) as the server shows
/// it: with the site's top bar, its Replays link marked, in place of the
/// page's own.
pub fn replay_in_site(page: &str) -> String {
    static BAR: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| with_topbar("<!-- topbar -->\n", Some("/replays")));
    snakepit_viewer::html::page::in_site(page, &BAR)
}

fn html_headers() -> [(header::HeaderName, &'static str); 2] {
    [
        (header::CONTENT_TYPE, "text/html; charset=utf-8"),
        (header::CONTENT_SECURITY_POLICY, "default-src 'self'; img-src 'self' data:; style-src 'self'; connect-src 'self' ws: wss:"),
    ]
}

fn html(body: &'static str) -> Response {
    (html_headers(), body).into_response()
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

/// The most of an error's text that [`errors_as_pages`] reads and shows.
const ERROR_TEXT_BYTES_MAX: usize = 4 * 1024;

/// Whether a request is a browser's for a page, whose failures are
/// answered with a page: not the API, the WebSockets or the assets, and
/// not a client that asked for JSON only.
fn wants_page(req: &axum::extract::Request) -> bool {
    let path = req.uri().path();
    let machine = ["/api/", "/ws/", "/static/", "/codenjoy-contest/ws"].iter().any(|p| path.starts_with(p));
    let accept = req.headers().get(header::ACCEPT).and_then(|v| v.to_str().ok()).unwrap_or("");
    let json_only = accept.contains("application/json") && !accept.contains("text/html");
    !machine && path != "/favicon.ico" && !json_only
}

/// HTML special characters as entities, so that an error's text (which
/// may quote what the visitor sent) stays text.
fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The error page for `status` at `path`, saying `why`.
pub fn error_page(status: StatusCode, path: &str, why: &str) -> String {
    let (title, hint) = match status.as_u16() {
        404 => ("Nothing here", "The address may be mistyped, or what it showed is gone."),
        403 => ("Not yours to see", "The link's player id or code is wrong; open it from your player's page."),
        429 => ("One at a time", "Wait for the previous request to finish, then try again."),
        503 => ("Busy right now", "The server is busy with other requests; try again in a moment."),
        s if s >= 500 => ("Something failed here", "The server could not answer; the organiser can read why in its log."),
        _ => ("This cannot be shown", "What was sent could not be used; the reason is above."),
    };
    let (back, back_text) = if path.starts_with("/replays") {
        ("/replays", "Back to the replays")
    } else {
        ("/", "Back to the lobby")
    };
    ERROR
        .replace("{{title}}", title)
        .replace("{{hint}}", hint)
        .replace("{{back}}", back)
        .replace("{{back_text}}", back_text)
        // Last: the only part that comes from the request.
        .replace("{{why}}", &escape_html(why))
}

/// A browser that asked for a page and got an error in JSON or plain text
/// (a handler's `{"error": ...}`, the framework's words on an address that
/// does not parse) gets the error page instead, with the same status, the
/// error's words and a way back. The API keeps its JSON.
pub async fn errors_as_pages(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let page = wants_page(&req);
    let path = req.uri().path().to_string();
    let answer = next.run(req).await;
    let status = answer.status();
    let content = answer.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let plain = content.is_empty() || content.starts_with("text/plain") || content.starts_with("application/json");
    if !page || !(status.is_client_error() || status.is_server_error()) || !plain {
        return answer;
    }
    let (parts, body) = answer.into_parts();
    let text = axum::body::to_bytes(body, ERROR_TEXT_BYTES_MAX).await.unwrap_or_default();
    let text = crate::app::answer_error(&String::from_utf8_lossy(&text));
    let why = match text.trim() {
        "" => status.canonical_reason().unwrap_or("refused").to_string(),
        t => t.to_string(),
    };
    let mut out = html_owned(error_page(status, &path, &why));
    *out.status_mut() = status;
    // A 405's `Allow` and a 429's `Retry-After` stay.
    for (name, value) in parts.headers.iter() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            out.headers_mut().entry(name.clone()).or_insert(value.clone());
        }
    }
    out
}

fn html_owned(body: String) -> Response {
    let mut r = html_headers().into_response();
    *r.body_mut() = axum::body::Body::from(body);
    r
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
    if file == "style.css" {
        let css: &'static str = STYLE_CSS.as_str();
        return ([(header::CONTENT_TYPE, "text/css; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], css).into_response();
    }
    match ASSETS.iter().find(|(name, _, _)| *name == file) {
        Some((_, ctype, body)) => ([(header::CONTENT_TYPE, *ctype), (header::CACHE_CONTROL, "no-cache")], *body).into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the visitor sent, quoted in an error, stays text.
    #[test]
    fn an_error_page_escapes_its_words_and_fills_every_blank() {
        let page = error_page(StatusCode::BAD_REQUEST, "/replays/open", "no game \"<script>alert(1)</script>\" & more");
        assert!(page.contains("no game &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot; &amp; more"), "{page}");
        assert!(!page.contains("<script>alert"));
        assert!(!page.contains("{{"), "a blank is left: {page}");
        assert!(page.contains("href=\"/replays\""), "the way back from a replay is the replays");
    }

    /// A replay page's bar is every page's, with the replays marked; the
    /// site's style sheet styles it as the page's own sheet does.
    #[test]
    fn a_replay_page_has_the_site_s_bar() {
        let own = snakepit_viewer::html::page::page(&serde_json::json!({"viewer": 1}), snakepit_viewer::html::page::Requests::SameOrigin);
        let page = replay_in_site(&own);
        assert_eq!(page.matches("<header class=\"topbar\">").count(), 1);
        for href in ["/", "/leaderboard", "/replays", "/admin"] {
            assert!(page.contains(&format!("<a href=\"{href}\"")), "{href}");
        }
        assert!(page.contains("<a href=\"/replays\" aria-current=\"page\">"));
        assert!(page.contains(TOPBAR.lines().next().unwrap()));
        assert!(STYLE_CSS.ends_with(snakepit_viewer::html::page::TOPBAR_CSS));
        assert!(STYLE_CSS.contains(".topbar nav a {") && !include_str!("../web/style.css").contains(".topbar {"), "the bar's rules are in one place");
    }

    /// Every page gets the one bar, and a page the bar links to is marked
    /// as the one shown (and no other).
    #[test]
    fn every_page_has_the_topbar_with_its_own_link_marked() {
        let pages: [(&str, &str, Option<&str>); 9] = [
            ("lobby", &LOBBY, Some("/")),
            ("room", &ROOM, None),
            ("player", &PLAYER, None),
            ("leaderboard", &LEADERBOARD, Some("/leaderboard")),
            ("admin", &ADMIN, Some("/admin")),
            ("replays", &REPLAYS, Some("/replays")),
            ("no room", &NO_ROOM, None),
            ("not found", &NOT_FOUND, None),
            ("error", &ERROR, None),
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
