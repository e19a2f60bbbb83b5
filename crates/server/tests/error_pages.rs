//! A browser that asks for a page and meets an error gets a page in the
//! site's style with the reason and a way back, over a real socket; the API
//! and clients that ask for JSON keep `{"error": ...}`.

mod common;

use common::*;
use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// One request with an `Accept` header and an optional form body; returns
/// (status, content type, body).
async fn ask(addr: SocketAddr, method: &str, path: &str, accept: &str, form: Option<&str>) -> (u16, String, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = form.unwrap_or("");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAccept: {accept}\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8_lossy(&out).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let content = head
        .lines()
        .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-type:").map(|v| v.trim().to_string()))
        .unwrap_or_default();
    (status, content, rest.to_string())
}

const BROWSER: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/// An error page: HTML, the site's bar and stylesheet, no JSON or
/// framework words, a link back.
fn assert_page(what: &str, (status, content, body): &(u16, String, String), code: u16, says: &str, back: &str) {
    assert_eq!(*status, code, "{what}: {body}");
    assert!(content.starts_with("text/html"), "{what}: {content}");
    assert!(body.contains("<header class=\"topbar\">") && body.contains("/static/style.css"), "{what}: {body}");
    assert!(body.contains(says), "{what} should say {says:?}: {body}");
    assert!(body.contains(&format!("href=\"{back}\"")), "{what}: no way back to {back}");
    for raw in ["{\"error\"", "Invalid URL", "Cannot parse"] {
        assert!(!body.contains(raw), "{what} shows {raw:?}: {body}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_that_fail_are_pages_and_the_api_stays_json() {
    let mut cfg = config(temp_db("errpages"), 1000);
    cfg.rooms.clear();
    let server = start(cfg).await;
    let addr = server.addr;

    let missing = ask(addr, "GET", "/replays/99999", BROWSER, None).await;
    assert_page("a game that is not kept", &missing, 404, "no game 99999", "/replays");
    let word = ask(addr, "GET", "/replays/abc", BROWSER, None).await;
    assert_page("a game's address that is not a number", &word, 404, "no game &quot;abc&quot;", "/replays");
    let upload = ask(addr, "POST", "/replays/open", BROWSER, Some("replay=not+a+replay")).await;
    assert_page("a file that is not a replay", &upload, 400, "line 1", "/replays");
    let nowhere = ask(addr, "GET", "/no/such/page", BROWSER, None).await;
    assert_page("an unknown address", &nowhere, 404, "Nothing here", "/");
    let method = ask(addr, "DELETE", "/replays", BROWSER, None).await;
    assert_eq!(method.0, 405);
    assert!(method.1.starts_with("text/html"), "{method:?}");
    // Whatever a visitor puts in the address stays text on the page.
    let script = ask(addr, "GET", "/replays/%3Cscript%3Ealert(1)%3C%2Fscript%3E", BROWSER, None).await;
    assert_page("markup in the address", &script, 404, "&lt;script&gt;", "/replays");
    assert!(!script.2.contains("<script>alert"), "{}", script.2);

    // The API keeps JSON, from a browser too.
    for path in ["/api/replays/99999/file", "/api/nowhere", "/api/replays/abc/file"] {
        let (status, content, body) = ask(addr, "GET", path, BROWSER, None).await;
        assert!(status == 404 || status == 400, "{path}: {status}");
        assert!(content.starts_with("application/json"), "{path}: {content}");
        assert!(body.contains("\"error\""), "{path}: {body}");
    }
    // A client that asks for JSON only gets JSON on a page's address.
    let (status, content, body) = ask(addr, "GET", "/replays/99999", "application/json", None).await;
    assert_eq!((status, content.starts_with("application/json")), (404, true), "{body}");
    server.shutdown().await;
}
