//! Requests from one node of a cluster to another.
//!
//! Nodes talk to each other through the store, except where a request
//! must act on the node that runs a room and the client who asked cannot
//! be sent there: a player who moves to a room of another node has their
//! saved program started there (`POST /api/code/start`) by the node that
//! handled the move, and an organiser's action on such a room (a kick, a
//! pause) is forwarded there with the organiser's token, since the admin
//! page's `fetch` drops the token when it follows a redirect to another
//! origin. The client is a deliberately small HTTP/1.1 over a tokio
//! `TcpStream`: one request with a JSON body, `Connection: close`, the
//! answer read to its end. Advertised node URLs are plain `http://`.
//!
//! **Limits:** the whole exchange has one deadline ([`PEER_DEADLINE_MS`]),
//! and an answer longer than [`PEER_ANSWER_BYTES_MAX`] is cut there (only
//! its status and its first words are used).

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::ws::FORWARDED_HEADER;

/// The deadline of one request to another node, connecting included.
pub const PEER_DEADLINE_MS: u64 = 10_000;
/// The most of an answer that is read.
pub const PEER_ANSWER_BYTES_MAX: usize = 64 * 1024;


/// An answer of another node: its status and its body (as text, cut at
/// [`PEER_ANSWER_BYTES_MAX`]).
#[derive(Debug, PartialEq, Eq)]
pub struct PeerAnswer {
    /// The HTTP status.
    pub status: u16,
    /// The body, decoded from chunks where it came in chunks.
    pub body: String,
}

/// `POST`s `body` (JSON) to `path` on the node at `base` (`http://HOST:PORT`,
/// as nodes advertise themselves) and returns its answer, whatever the
/// status. Errors say in words why no answer came.
pub async fn post_json(base: &str, path: &str, body: &str) -> Result<PeerAnswer, String> {
    send(base, "POST", path, None, body).await
}

/// Sends `method` `path` (with its query) to the node at `base`, with
/// `authorization` (the header's value) when given and `body` as JSON, and
/// returns its answer as [`post_json`] does. The request is marked as
/// forwarded, so the other node never forwards it again.
pub async fn send(base: &str, method: &str, path: &str, authorization: Option<&str>, body: &str) -> Result<PeerAnswer, String> {
    // The parts go into the request's head as they are: none may end it.
    let unsafe_text = |t: &str| t.contains(['\r', '\n']);
    if unsafe_text(method) || unsafe_text(path) || authorization.is_some_and(unsafe_text) {
        return Err("a line break in a forwarded request's head".to_string());
    }
    let authority = base
        .strip_prefix("http://")
        .ok_or_else(|| format!("{base:?} is not an http:// URL"))?
        .trim_end_matches('/');
    if authority.is_empty() || authority.contains(['/', '?', '#', ' ']) {
        return Err(format!("{base:?} is not the URL of a node"));
    }
    let exchange = async {
        let mut conn = TcpStream::connect(authority).await.map_err(|e| format!("connecting to {authority}: {e}"))?;
        let auth = authorization.map(|a| format!("Authorization: {a}\r\n")).unwrap_or_default();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n{auth}{FORWARDED_HEADER}: 1\r\n\r\n{body}",
            body.len()
        );
        conn.write_all(request.as_bytes()).await.map_err(|e| format!("writing to {authority}: {e}"))?;
        let mut answer = Vec::new();
        let mut chunk = [0u8; 8192];
        while answer.len() < PEER_ANSWER_BYTES_MAX {
            match conn.read(&mut chunk).await {
                Ok(0) => break,
                Ok(n) => answer.extend_from_slice(&chunk[..n.min(PEER_ANSWER_BYTES_MAX - answer.len())]),
                Err(e) => return Err(format!("reading from {authority}: {e}")),
            }
        }
        parse_answer(&answer).ok_or_else(|| format!("{authority} answered something other than HTTP"))
    };
    tokio::time::timeout(Duration::from_millis(PEER_DEADLINE_MS), exchange)
        .await
        .unwrap_or_else(|_| Err(format!("{authority} did not answer within {PEER_DEADLINE_MS} ms")))
}

/// The status and body of an HTTP/1.1 answer read to its end. A chunked
/// body is decoded as far as it is complete.
fn parse_answer(raw: &[u8]) -> Option<PeerAnswer> {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text.split_once("\r\n\r\n")?;
    let mut lines = head.split("\r\n");
    let status: u16 = lines.next()?.strip_prefix("HTTP/1.")?.split(' ').nth(1)?.parse().ok()?;
    let chunked = lines.any(|l| {
        l.split_once(':').is_some_and(|(name, value)| {
            name.trim().eq_ignore_ascii_case("transfer-encoding") && value.trim().eq_ignore_ascii_case("chunked")
        })
    });
    let body = if chunked { dechunk(body) } else { body.to_string() };
    Some(PeerAnswer { status, body })
}

/// The data of a chunked body, up to its end or to the first chunk that is
/// cut short or malformed.
fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16) else { break };
        if size == 0 || after.len() < size || !after.is_char_boundary(size) {
            break;
        }
        out.push_str(&after[..size]);
        rest = after[size..].strip_prefix("\r\n").unwrap_or("");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(raw: &str, expect: Option<(u16, &str)>) {
        let got = parse_answer(raw.as_bytes());
        assert_eq!(got, expect.map(|(status, body)| PeerAnswer { status, body: body.to_string() }), "{raw:?}");
    }

    #[test]
    fn answers_are_read_with_and_without_chunks() {
        check("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}", Some((200, "{}")));
        check("HTTP/1.1 409 Conflict\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n", Some((409, "abcde")));
        // Cut short: what is complete.
        check("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\nff\r\nxy", Some((200, "abc")));
        check("HTTP/1.0 503 Busy\r\n\r\n", Some((503, "")));
        check("SSH-2.0-OpenSSH\r\n\r\n", None);
        check("HTTP/1.1 abc\r\n\r\n", None);
        check("HTTP/1.1 200 OK\r\n", None);
        check("", None);
    }

    #[test]
    fn only_plain_node_urls_are_asked() {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        for base in ["https://a:1", "ftp://x", "http://", "http://a:1/x?y", "a:1"] {
            let got = rt.block_on(post_json(base, "/", "{}"));
            assert!(got.as_ref().is_err_and(|e| e.contains("URL")), "{base}: {got:?}");
        }
    }

    #[test]
    fn a_node_that_is_gone_is_an_error_not_a_wait() {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        // The listener is closed again: nobody listens on that port.
        let got = rt.block_on(post_json(&format!("http://127.0.0.1:{port}"), "/api/code/start", "{}"));
        assert!(got.as_ref().is_err_and(|e| e.contains("connecting")), "{got:?}");
    }

    #[test]
    fn a_real_exchange_with_a_listener() {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let base = format!("http://{}", listener.local_addr().unwrap());
            let server = tokio::spawn(async move {
                let (mut s, _) = listener.accept().await.unwrap();
                let mut got = Vec::new();
                let mut buf = [0u8; 1024];
                while !String::from_utf8_lossy(&got).ends_with("{\"a\":1}") {
                    let n = s.read(&mut buf).await.unwrap();
                    assert!(n > 0);
                    got.extend_from_slice(&buf[..n]);
                }
                s.write_all(b"HTTP/1.1 202 Accepted\r\ncontent-length: 4\r\n\r\nok!\n").await.unwrap();
                String::from_utf8(got).unwrap()
            });
            let answer = post_json(&base, "/api/x", "{\"a\":1}").await.unwrap();
            assert_eq!(answer, PeerAnswer { status: 202, body: "ok!\n".into() });
            let request = server.await.unwrap();
            assert!(request.starts_with("POST /api/x HTTP/1.1\r\n"), "{request}");
            assert!(request.contains("\r\nx-snakepit-forwarded: 1\r\n"), "{request}");
            assert!(request.contains("\r\nContent-Length: 7\r\n"), "{request}");
        });
    }
}
