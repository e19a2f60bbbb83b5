//! The page: the viewer's HTML, CSS and JavaScript (`assets/replay/`,
//! compiled in) and the board renderer the live pages use too
//! (`assets/board.js`, which the server serves as `/static/board.js`), with
//! the game's document embedded as JSON.
//!
//! The document sits in a `<script type="application/json">` element, which
//! the browser never runs; the viewer reads it with `JSON.parse`. Bot names
//! and stderr lines are anybody's text, so every `<`, `>` and `&` in the
//! JSON is written as a `\u` escape: no `</script>` or `<!--` can end or
//! change the element, and the parsed strings are unchanged. The viewer
//! only ever puts them into the page as text.
//!
//! The Content-Security-Policy sits in the page itself (a `<meta>`
//! element), so that a saved page keeps it: [`OFFLINE_CSP`] forbids every
//! request; [`SERVER_CSP`], for the server's pages that offer a fork, allows
//! requests to the page's own origin only.

use serde_json::Value;

/// The page's skeleton; holds the three markers below, once each.
const TEMPLATE: &str = include_str!("../../assets/replay/viewer.html");
/// The viewer's style sheet.
pub const VIEWER_CSS: &str = include_str!("../../assets/replay/viewer.css");
/// The rules of the bar at the top of every page: in the viewer's page
/// after [`VIEWER_CSS`], and in the server's style sheet, so that a replay
/// page's bar is the site's.
pub const TOPBAR_CSS: &str = include_str!("../../assets/topbar.css");
/// The board renderer of every page that shows a board: the live room,
/// the player's page, the replay page and the offline replay file.
pub const BOARD_JS: &str = include_str!("../../assets/board.js");
/// The replay player: reads the document from `#replay-data`, builds the
/// live pages' frames from it and draws them with [`BOARD_JS`].
pub const REPLAY_JS: &str = include_str!("../../assets/replay/replay.js");

/// The policy of a page that makes no request at all: inline script and
/// style only, no form submission, no `<base>`.
pub const OFFLINE_CSP: &str =
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";
/// The policy of a server's page that asks its server to play a fork:
/// [`OFFLINE_CSP`] plus `fetch` to the page's own origin.
pub const SERVER_CSP: &str = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; connect-src 'self'";

/// Which requests a page may make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Requests {
    /// None: the offline page ([`OFFLINE_CSP`]).
    None,
    /// To the page's own origin, for a server's page ([`SERVER_CSP`]).
    SameOrigin,
}

impl Requests {
    /// The page's Content-Security-Policy.
    pub fn csp(self) -> &'static str {
        match self {
            Requests::None => OFFLINE_CSP,
            Requests::SameOrigin => SERVER_CSP,
        }
    }
}

const CSP_MARKER: &str = "/*@csp@*/";
const CSS_MARKER: &str = "/*@viewer.css@*/";
const BOARD_MARKER: &str = "/*@board.js@*/";
const JS_MARKER: &str = "/*@replay.js@*/";
const DATA_MARKER: &str = "/*@replay-data@*/";
/// Around the page's own top bar, which a site replaces with its own.
const BAR_START: &str = "<!--@bar-->";
const BAR_END: &str = "<!--@/bar-->";

/// `page` (made by [`page`]) with the site's top bar `bar` (HTML, with
/// the `topbar` class that [`TOPBAR_CSS`] styles) in place of the page's
/// own, which names no site: what a server's replay page shows, so that it
/// links to the rest of the site like any of its pages.
///
/// The page's own bar is the first text between the bar's markers: the
/// assets hold no `<!--` and the document's JSON no `<` before it.
pub fn in_site(page: &str, bar: &str) -> String {
    let (top, rest) = page.split_once(BAR_START).expect("a page holds the bar's start");
    let (_, tail) = rest.split_once(BAR_END).expect("a page holds the bar's end");
    let mut out = String::with_capacity(page.len() + bar.len());
    for piece in [top, bar, tail] {
        out.push_str(piece);
    }
    out
}

/// The JSON text of `doc`, safe inside a `<script>` element.
pub fn script_json(doc: &Value) -> String {
    let json = serde_json::to_string(doc).expect("a JSON value always serializes");
    // These characters can only occur inside JSON strings, where a `\u`
    // escape means the same character.
    let mut out = String::with_capacity(json.len() + json.len() / 16);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// The whole page for a viewer document, allowed to make `requests`.
pub fn page(doc: &Value, requests: Requests) -> String {
    let data = script_json(doc);
    // Split once at each marker, in order, so that nothing inserted is ever
    // searched for markers again.
    let (top, rest) = TEMPLATE.split_once(CSP_MARKER).expect("the template has the policy marker");
    let (head, rest) = rest.split_once(CSS_MARKER).expect("the template has the CSS marker");
    let (middle, rest) = rest.split_once(DATA_MARKER).expect("the template has the data marker");
    let (before_board, rest) = rest.split_once(BOARD_MARKER).expect("the template has the renderer marker");
    let (before_js, tail) = rest.split_once(JS_MARKER).expect("the template has the script marker");
    let csp = requests.csp();
    let size = TEMPLATE.len() + csp.len() + VIEWER_CSS.len() + TOPBAR_CSS.len() + BOARD_JS.len() + REPLAY_JS.len() + data.len();
    let mut out = String::with_capacity(size);
    for piece in [top, csp, head, VIEWER_CSS, TOPBAR_CSS, middle, &data, before_board, BOARD_JS, before_js, REPLAY_JS, tail] {
        out.push_str(piece);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn script_json_hides_markup_and_parses_back() {
        let evil = "</script><img src=x onerror=alert(1)><!-- & \u{2028}";
        let doc = json!({"players": [evil], "ticks": [{"log": [{"stderr": [evil]}]}]});
        let text = script_json(&doc);
        for bad in ['<', '>', '&', '\u{2028}'] {
            assert!(!text.contains(bad), "{bad:?} in {text}");
        }
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, doc);
    }

    #[test]
    fn assets_cannot_end_their_own_elements() {
        for (name, asset) in [("viewer.css", VIEWER_CSS), ("topbar.css", TOPBAR_CSS), ("board.js", BOARD_JS), ("replay.js", REPLAY_JS)] {
            let lower = asset.to_ascii_lowercase();
            assert!(!lower.contains("</script") && !lower.contains("</style") && !lower.contains("<!--"), "{name}");
        }
        for marker in [CSP_MARKER, CSS_MARKER, BOARD_MARKER, JS_MARKER, DATA_MARKER, BAR_START, BAR_END] {
            assert_eq!(TEMPLATE.matches(marker).count(), 1, "{marker}");
        }
    }

    #[test]
    fn the_page_holds_the_document_once() {
        let doc = json!({"viewer": 1, "note": "/*@replay.js@*/ stays text"});
        let html = page(&doc, Requests::None);
        assert!(html.starts_with("<!doctype html>"), "{}", &html[..40]);
        assert_eq!(html.matches(&script_json(&doc)).count(), 1);
        assert_eq!(html.matches(BOARD_JS).count(), 1);
        assert_eq!(html.matches(REPLAY_JS).count(), 1);
        // The renderer comes first: the player uses it.
        assert!(html.find(BOARD_JS) < html.find(REPLAY_JS));
        assert_eq!(html.matches(VIEWER_CSS).count(), 1);
    }

    #[test]
    fn a_site_puts_its_bar_in_place_of_the_page_s_own() {
        // A name that looks like the markers stays text in the document.
        let doc = json!({"players": ["<!--@bar--> <!--@/bar-->"]});
        let own = page(&doc, Requests::SameOrigin);
        assert_eq!(own.matches("<header class=\"topbar\">").count(), 1);
        assert!(own.contains("<span class=\"brand-sub\">replay</span>"), "the page's own bar names no site");
        let bar = "<header class=\"topbar\"><nav><a href=\"/replays\">Replays</a></nav></header>";
        let served = in_site(&own, bar);
        assert_eq!(served.matches(bar).count(), 1);
        assert_eq!(served.matches("<header").count(), 1, "the page's own bar is gone");
        assert!(!served.contains("<span class=\"brand-sub\">"));
        assert!(served.find(bar) < served.find("<main"));
        assert_eq!(served.matches(&script_json(&doc)).count(), 1, "the document is untouched");
        assert_eq!(served.len(), own.len() - (own.find(BAR_END).unwrap() + BAR_END.len() - own.find(BAR_START).unwrap()) + bar.len());
    }

    /// The `content` of the page's policy element.
    fn csp_of(html: &str) -> &str {
        let open = "<meta http-equiv=\"Content-Security-Policy\" content=\"";
        let start = html.find(open).expect("the page has a policy") + open.len();
        let len = html[start..].find('"').expect("the attribute ends");
        &html[start..start + len]
    }

    #[test]
    fn only_a_server_page_may_reach_its_own_origin() {
        let doc = json!({"viewer": 1});
        let offline = page(&doc, Requests::None);
        let server = page(&doc, Requests::SameOrigin);
        assert_eq!(offline.matches("Content-Security-Policy").count(), 1);
        assert_eq!(server.matches("Content-Security-Policy").count(), 1);
        let (offline, server) = (csp_of(&offline), csp_of(&server));
        let directives = |csp: &str| csp.split(';').map(|d| d.trim().to_string()).collect::<Vec<_>>();
        // The offline page forbids every request: no source list but
        // `default-src 'none'` covers fetches, images, frames, fonts...
        assert_eq!(directives(offline)[0], "default-src 'none'");
        assert!(!offline.contains("connect-src") && !offline.contains("'self'") && !offline.contains("http"), "{offline}");
        // The server's page adds exactly `connect-src 'self'`.
        let mut extra = directives(server);
        extra.retain(|d| !directives(offline).contains(d));
        assert_eq!(extra, ["connect-src 'self'"], "{server}");
        assert_eq!(directives(server).len(), directives(offline).len() + 1);
    }
}
