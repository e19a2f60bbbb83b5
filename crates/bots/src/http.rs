//! HTTP bots: Battlesnakes reached over the Battlesnake API.
//!
//! [`HttpSnake`] is one snake's client. It speaks a deliberately small
//! HTTP/1.1 over a tokio `TcpStream`, which is all the API needs: `GET` and
//! `POST` with a JSON body, answers framed by `Content-Length`, by chunked
//! transfer encoding or by the server closing the connection. It keeps the
//! connection open between requests (keep-alive), because opening one per
//! turn costs a round trip that counts against the snake's time.
//!
//! **Deadline:** every request has one deadline covering everything,
//! connecting included, as the official engine's timeout does: a snake is
//! told `game.timeout` milliseconds and gets exactly that, round trip
//! included. A request that misses it is cancelled and its connection
//! dropped, so that a late answer can never be read as the next turn's.
//! For the same reason an interim answer (`100 Continue`, `103 Early
//! Hints`) is skipped and the final answer of the same request read after
//! it, at most [`INTERIM_RESPONSES_MAX`] of them, within the same deadline.
//!
//! **Errors** are classified ([`HttpError`]) and counted per snake
//! ([`SnakeStats`]), with the latency of every `/move`; none of them stops
//! a game: the arena gives the snake no move for that turn and the rules
//! repeat its last one.
//!
//! **Limits:** an answer's head may be at most [`HEAD_BYTES_MAX`] and its
//! body at most [`BODY_BYTES_MAX`]; only `http://` URLs are accepted (a
//! snake behind TLS needs a proxy).

use snakepit_protocol::battlesnake::{InfoResponse, MoveAnswer, MoveError, parse_info, parse_move};
use std::fmt;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The largest response head (status line and headers) accepted.
pub const HEAD_BYTES_MAX: usize = 16 * 1024;
/// The largest response body accepted; a move is a few dozen bytes.
pub const BODY_BYTES_MAX: usize = 64 * 1024;
/// The official default for `game.timeout`.
pub const MOVE_TIMEOUT_MS_DEFAULT: u64 = 500;
/// Redirects followed for one request (Go's client, the official engine's,
/// stops after 10; a snake needs one).
pub const REDIRECTS_MAX: usize = 5;
/// The longest `Location` header read; a longer one is not followed.
pub const LOCATION_BYTES_MAX: usize = 2048;

/// Why a request to a snake produced no usable answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HttpError {
    /// No complete answer before the deadline.
    #[error("timed out after {0} ms")]
    Timeout(u64),
    /// The connection could not be opened.
    #[error("cannot connect: {0}")]
    Connect(String),
    /// The connection failed while sending or receiving.
    #[error("connection failed: {0}")]
    Io(String),
    /// An answer that is not HTTP, or breaks a limit.
    #[error("bad HTTP answer: {0}")]
    BadResponse(String),
    /// A status other than 200, with the start of its body (see
    /// [`body_excerpt`]).
    #[error("HTTP status {code}, body {body}")]
    Status {
        /// The status code.
        code: u16,
        /// The start of the body, quoted.
        body: String,
    },
    /// A 200 whose body is not the JSON the API wants: why, and the start
    /// of the body.
    #[error("bad JSON: {0}")]
    BadJson(String),
    /// A 200 with JSON whose `move` is not a move.
    #[error("bad move: {0}")]
    BadMove(String),
}

impl HttpError {
    /// The kind, for counting.
    pub fn kind(&self) -> FaultKind {
        match self {
            HttpError::Timeout(_) => FaultKind::Timeout,
            HttpError::Connect(_) => FaultKind::Connect,
            HttpError::Io(_) | HttpError::BadResponse(_) => FaultKind::Io,
            HttpError::Status { .. } => FaultKind::Status,
            HttpError::BadJson(_) => FaultKind::BadJson,
            HttpError::BadMove(_) => FaultKind::BadMove,
        }
    }
}

impl From<MoveError> for HttpError {
    fn from(e: MoveError) -> HttpError {
        match e {
            MoveError::BadMove(m) => HttpError::BadMove(format!("{m:?}")),
            other => HttpError::BadJson(other.to_string()),
        }
    }
}

/// Bytes of a body quoted in a fault at most.
pub const BODY_EXCERPT_BYTES_MAX: usize = 200;

/// The start of an answer's body for a fault message: at most
/// [`BODY_EXCERPT_BYTES_MAX`] bytes, quoted, every byte outside printable
/// ASCII escaped (`\n`, `\xff`), and the whole length when it is cut.
pub fn body_excerpt(body: &[u8]) -> String {
    let cut = body.len().min(BODY_EXCERPT_BYTES_MAX);
    let text = format!("\"{}\"", body[..cut].escape_ascii());
    if cut < body.len() { format!("{text}... ({} bytes)", body.len()) } else { text }
}

/// The kinds of [`HttpError`], as counted in [`SnakeStats`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FaultKind {
    /// [`HttpError::Timeout`].
    Timeout,
    /// [`HttpError::Connect`].
    Connect,
    /// [`HttpError::Io`] and [`HttpError::BadResponse`].
    Io,
    /// [`HttpError::Status`].
    Status,
    /// [`HttpError::BadJson`].
    BadJson,
    /// [`HttpError::BadMove`].
    BadMove,
}

impl FaultKind {
    /// Every kind, in a fixed order.
    pub const ALL: [FaultKind; 6] =
        [FaultKind::Timeout, FaultKind::Connect, FaultKind::Io, FaultKind::Status, FaultKind::BadJson, FaultKind::BadMove];

    /// A short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Timeout => "timeout",
            FaultKind::Connect => "connect",
            FaultKind::Io => "io",
            FaultKind::Status => "status",
            FaultKind::BadJson => "json",
            FaultKind::BadMove => "move",
        }
    }
}

/// A URL that is not an `http://host[:port][/path]` URL.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{url:?} is not a snake URL: {reason}")]
pub struct UrlError {
    /// The URL given.
    pub url: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

/// Where a snake lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnakeUrl {
    host: String,
    port: u16,
    /// The path without a trailing `/` (empty for the root).
    base: String,
    /// The path as given (`/` for none): `GET /` asks exactly the URL the
    /// snake was given, as the official engine does, so a server that
    /// routes `/snake/` but not `/snake` answers.
    given: String,
    original: String,
}

impl SnakeUrl {
    /// Parses `http://host[:port][/path]`; the host may be `[v6]`.
    pub fn parse(url: &str) -> Result<SnakeUrl, UrlError> {
        let err = |reason| UrlError { url: url.to_string(), reason };
        let rest = url.strip_prefix("http://").ok_or_else(|| {
            err(if url.starts_with("https://") { "https is not supported; put a plain HTTP proxy in front" } else { "it must start with http://" })
        })?;
        if rest.contains(['?', '#', '@']) || rest.chars().any(char::is_whitespace) {
            return Err(err("queries, fragments, user names and spaces are not supported"));
        }
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
            let (host, after) = v6.split_once(']').ok_or_else(|| err("unclosed [ in the host"))?;
            (host, after.strip_prefix(':'))
        } else {
            match authority.rsplit_once(':') {
                Some((h, p)) => (h, Some(p)),
                None => (authority, None),
            }
        };
        if host.is_empty() {
            return Err(err("no host"));
        }
        let port = match port {
            Some(p) => p.parse().map_err(|_| err("the port is not a number from 0 to 65535"))?,
            None => 80,
        };
        Ok(SnakeUrl {
            host: host.to_string(),
            port,
            base: path.trim_end_matches('/').to_string(),
            given: if path.is_empty() { "/".to_string() } else { path.to_string() },
            original: url.to_string(),
        })
    }

    /// The path of an endpoint (`""` for `GET /`, `"move"`...).
    fn path(&self, endpoint: &str) -> String {
        if endpoint.is_empty() { self.given.clone() } else { format!("{}/{endpoint}", self.base) }
    }

    /// The path a `Location` leads to when it is on this same server: an
    /// absolute path, or an `http://` URL of the same host and port. `None`
    /// for anything else (another server, a relative path, a query).
    fn same_server_path(&self, location: &str) -> Option<String> {
        let location = location.split('#').next().unwrap_or("");
        if location.starts_with('/') && !location.starts_with("//") {
            return (!location.chars().any(|c| c.is_whitespace() || c.is_control())).then(|| location.to_string());
        }
        let there = SnakeUrl::parse(location).ok()?;
        (there.host.eq_ignore_ascii_case(&self.host) && there.port == self.port).then_some(there.given)
    }

    fn host_header(&self) -> String {
        let host = if self.host.contains(':') { format!("[{}]", self.host) } else { self.host.clone() };
        if self.port == 80 { host } else { format!("{host}:{}", self.port) }
    }
}

impl fmt::Display for SnakeUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.original)
    }
}

/// Per-snake counts: answers, their latency, faults by kind, connections.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SnakeStats {
    /// `/move` requests sent.
    pub moves: u64,
    /// Sum of `/move` round trips, in milliseconds (timeouts count as the
    /// timeout).
    pub latency_ms_total: u64,
    /// The longest `/move` round trip, in milliseconds.
    pub latency_ms_max: u64,
    /// The last `/move` round trip, in milliseconds; the API's `latency`.
    pub latency_ms_last: u64,
    /// Faults of every request, by [`FaultKind::ALL`] index.
    pub faults: [u64; 6],
    /// TCP connections opened; far below the number of requests when
    /// keep-alive works.
    pub connections: u64,
}

impl SnakeStats {
    /// Faults of one kind.
    pub fn faults_of(&self, kind: FaultKind) -> u64 {
        self.faults[FaultKind::ALL.iter().position(|&k| k == kind).unwrap_or(0)]
    }

    /// All faults.
    pub fn faults_total(&self) -> u64 {
        self.faults.iter().sum()
    }

    /// The mean `/move` round trip, in milliseconds.
    pub fn latency_ms_mean(&self) -> f64 {
        if self.moves == 0 { 0.0 } else { self.latency_ms_total as f64 / self.moves as f64 }
    }

    fn count(&mut self, e: &HttpError) {
        let i = FaultKind::ALL.iter().position(|&k| k == e.kind()).unwrap_or(0);
        self.faults[i] += 1;
    }
}

/// What one `/move` gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveOutcome {
    /// The move, or why there is none.
    pub result: Result<MoveAnswer, HttpError>,
    /// The round trip (the timeout if the snake missed it).
    pub latency: Duration,
}

/// One Battlesnake's HTTP client.
#[derive(Debug)]
pub struct HttpSnake {
    url: SnakeUrl,
    /// The kept-alive connection, if the last answer allowed reuse.
    conn: Option<TcpStream>,
    stats: SnakeStats,
}

/// A response as read off the wire.
struct Response {
    status: u16,
    body: Vec<u8>,
    keep_alive: bool,
    location: Option<String>,
}

/// A failure on a reused connection before any byte of the answer arrived:
/// the server had closed the idle connection, so the request is retried on
/// a fresh one.
struct Stale;

impl HttpSnake {
    /// A client for the snake at `url`; nothing is sent yet.
    pub fn new(url: &str) -> Result<HttpSnake, UrlError> {
        Ok(HttpSnake { url: SnakeUrl::parse(url)?, conn: None, stats: SnakeStats::default() })
    }

    /// The snake's URL.
    pub fn url(&self) -> &SnakeUrl {
        &self.url
    }

    /// The counts so far.
    pub fn stats(&self) -> &SnakeStats {
        &self.stats
    }

    /// `GET /`: who the snake is.
    pub async fn info(&mut self, timeout: Duration) -> Result<InfoResponse, HttpError> {
        let resp = self.call("GET", "", None, timeout).await?;
        parse_info(&resp).map_err(HttpError::from).inspect_err(|e| self.stats.count(e))
    }

    /// `POST /start`; the answer's body is ignored.
    pub async fn start(&mut self, body: &str, timeout: Duration) -> Result<(), HttpError> {
        self.call("POST", "start", Some(body), timeout).await.map(drop)
    }

    /// `POST /end`; the answer's body is ignored.
    pub async fn end(&mut self, body: &str, timeout: Duration) -> Result<(), HttpError> {
        self.call("POST", "end", Some(body), timeout).await.map(drop)
    }

    /// `POST /move`: the snake's move, with its latency recorded.
    pub async fn request_move(&mut self, body: &str, timeout: Duration) -> MoveOutcome {
        let started = Instant::now();
        let answer = self.call("POST", "move", Some(body), timeout).await;
        let latency = started.elapsed().min(timeout);
        // A body that is not a move is reported with its bytes, as a
        // process bot's bad answer is.
        let result = answer.and_then(|b| {
            parse_move(&b).map_err(|e| match HttpError::from(e) {
                HttpError::BadJson(why) => HttpError::BadJson(format!("{why}; the body: {}", body_excerpt(&b))),
                other => other,
            })
        });
        if let Err(e @ (HttpError::BadJson(_) | HttpError::BadMove(_))) = &result {
            self.stats.count(e);
        }
        let ms = latency.as_millis() as u64;
        let s = &mut self.stats;
        s.moves += 1;
        s.latency_ms_total += ms;
        s.latency_ms_max = s.latency_ms_max.max(ms);
        s.latency_ms_last = ms;
        MoveOutcome { result, latency }
    }

    /// One request with a deadline; the body of a 200 answer, or the
    /// classified failure (counted).
    async fn call(&mut self, method: &str, endpoint: &str, body: Option<&str>, timeout: Duration) -> Result<Vec<u8>, HttpError> {
        let path = self.url.path(endpoint);
        let result = match tokio::time::timeout(timeout, self.follow(method, path, body)).await {
            Ok(r) => r,
            Err(_) => {
                // The half-read answer must not be taken for the next one.
                self.conn = None;
                Err(HttpError::Timeout(timeout.as_millis() as u64))
            }
        };
        let result = result.and_then(|r| {
            if r.status == 200 { Ok(r.body) } else { Err(HttpError::Status { code: r.status, body: body_excerpt(&r.body) }) }
        });
        if let Err(e) = &result {
            self.stats.count(e);
            tracing::debug!(url = %self.url, endpoint, error = %e, "snake request failed");
        }
        result
    }

    /// Sends a request and follows the redirects of the snake's server to
    /// itself, as the official engine's Go client does: 307 and 308 repeat
    /// the request at the new path, 301, 302 and 303 turn it into a `GET`
    /// without body. All of it within the caller's deadline; a redirect
    /// elsewhere (another host, another scheme) is not followed and
    /// fails as its status.
    async fn follow(&mut self, method: &str, mut path: String, body: Option<&str>) -> Result<Response, HttpError> {
        let (mut method, mut body) = (method, body);
        for _ in 0..=REDIRECTS_MAX {
            let request = self.request_bytes(method, &path, body);
            let response = self.exchange(&request).await?;
            if !matches!(response.status, 301 | 302 | 303 | 307 | 308) {
                return Ok(response);
            }
            let Some(next) = response.location.as_deref().and_then(|l| self.url.same_server_path(l)) else {
                return Ok(response);
            };
            if !matches!(response.status, 307 | 308) {
                (method, body) = ("GET", None);
            }
            path = next;
        }
        Err(HttpError::BadResponse(format!("more than {REDIRECTS_MAX} redirects")))
    }

    fn request_bytes(&self, method: &str, path: &str, body: Option<&str>) -> Vec<u8> {
        let mut head = format!(
            "{method} {} HTTP/1.1\r\nHost: {}\r\nUser-Agent: snakepit/{}\r\nAccept: application/json\r\nConnection: keep-alive\r\n",
            path,
            self.url.host_header(),
            env!("CARGO_PKG_VERSION"),
        );
        if let Some(b) = body {
            head.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n", b.len()));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        if let Some(b) = body {
            bytes.extend_from_slice(b.as_bytes());
        }
        bytes
    }

    /// Sends the request on the kept connection, or on a new one when
    /// there is none or it turns out to be stale.
    async fn exchange(&mut self, request: &[u8]) -> Result<Response, HttpError> {
        if let Some(mut conn) = self.conn.take() {
            match round_trip(&mut conn, request).await {
                Ok(resp) => return Ok(self.keep(conn, resp)),
                Err(Ok(Stale)) => {}
                Err(Err(e)) => return Err(e),
            }
        }
        let mut conn = TcpStream::connect((self.url.host.as_str(), self.url.port))
            .await
            .map_err(|e| HttpError::Connect(e.to_string()))?;
        self.stats.connections += 1;
        // Requests are single small writes; Nagle would only delay them.
        let _ = conn.set_nodelay(true);
        match round_trip(&mut conn, request).await {
            Ok(resp) => Ok(self.keep(conn, resp)),
            Err(Ok(Stale)) => Err(HttpError::Io("the connection closed before an answer".to_string())),
            Err(Err(e)) => Err(e),
        }
    }

    fn keep(&mut self, conn: TcpStream, resp: Response) -> Response {
        if resp.keep_alive {
            self.conn = Some(conn);
        }
        resp
    }
}

/// Interim (1xx) responses skipped before one request's final response at
/// most; a server that sends more is broken or stalling, and the request
/// fails rather than reading on until the deadline.
pub const INTERIM_RESPONSES_MAX: usize = 8;

/// What a response head says about the response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResponseHead {
    /// The status code: three digits, so from 100 to 999.
    pub status: u16,
    /// `Content-Length`, if present.
    pub content_length: Option<usize>,
    /// The body is chunked (`Transfer-Encoding: chunked`), which overrides
    /// any `Content-Length`.
    pub chunked: bool,
    /// Whether the connection may carry the next request: HTTP/1.1 unless
    /// `Connection: close`, HTTP/1.0 only with `Connection: keep-alive`,
    /// never when a chunked body also has a `Content-Length` (such an answer
    /// is framed ambiguously, so the connection is dropped after it).
    pub keep_alive: bool,
    /// `Location`, when present and at most [`LOCATION_BYTES_MAX`] long.
    pub location: Option<String>,
}

impl ResponseHead {
    /// An informational response (100 to 199): the final response of the
    /// same request follows it on the connection.
    pub fn is_interim(&self) -> bool {
        (100..200).contains(&self.status)
    }
}

/// Reads a response head: the status line and header lines, each ending in
/// CRLF, then the empty line (its final `\r\n\r\n` included or not). The
/// caller bounds its length ([`HEAD_BYTES_MAX`]).
pub fn parse_response_head(head: &[u8]) -> Result<ResponseHead, HttpError> {
    let bad = |m: String| HttpError::BadResponse(m);
    let cut = |s: &str| s.chars().take(60).collect::<String>();
    let head = std::str::from_utf8(head).map_err(|_| bad("the head is not text".into()))?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or("");
    let mut parts = status_line.splitn(3, ' ');
    let version = parts.next().unwrap_or("");
    // Exactly three digits: `u16::from_str` alone would take "+200" and
    // "0200" too.
    let status: u16 = parts
        .next()
        .filter(|s| s.len() == 3 && s.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|s| s.parse().ok())
        .filter(|&status: &u16| status >= 100)
        .filter(|_| version.starts_with("HTTP/1."))
        .ok_or_else(|| bad(format!("not an HTTP/1 status line: {:?}", cut(status_line))))?;
    let (mut length, mut chunked, mut keep_alive) = (None, false, version == "HTTP/1.1");
    let mut location = None;
    for line in lines.filter(|l| !l.is_empty()) {
        let Some((name, value)) = line.split_once(':') else {
            return Err(bad(format!("bad header line {:?}", cut(line))));
        };
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => {
                // Digits only (`usize::from_str` takes a "+"), and one value:
                // two different lengths leave the end of the body unknown.
                let n: usize = Some(value)
                    .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| bad(format!("Content-Length {:?}", cut(value))))?;
                if length.is_some_and(|m| m != n) {
                    return Err(bad("two different Content-Length values".into()));
                }
                length = Some(n);
            }
            "transfer-encoding" => chunked = value.to_ascii_lowercase().contains("chunked"),
            "location" if value.len() <= LOCATION_BYTES_MAX => location = Some(value.to_string()),
            "connection" => {
                let v = value.to_ascii_lowercase();
                if v.contains("close") {
                    keep_alive = false;
                } else if v.contains("keep-alive") {
                    keep_alive = true;
                }
            }
            _ => {}
        }
    }
    if chunked && length.is_some() {
        keep_alive = false;
    }
    Ok(ResponseHead { status, content_length: length, chunked, keep_alive, location })
}

/// Writes a request and reads its final response, skipping interim (1xx)
/// ones. `Err(Ok(Stale))` means the connection failed before any byte of
/// the answer arrived.
async fn round_trip(conn: &mut TcpStream, request: &[u8]) -> Result<Response, Result<Stale, HttpError>> {
    let io = |e: std::io::Error| Err(HttpError::Io(e.to_string()));
    if conn.write_all(request).await.is_err() {
        return Err(Ok(Stale));
    }
    let mut buf = Vec::with_capacity(1024);
    // Where the head being read starts: past the interim responses.
    let mut head_start = 0;
    let mut interim = 0;
    let (head, head_end) = loop {
        let head_end = loop {
            if let Some(i) = find(&buf[head_start..], b"\r\n\r\n") {
                break head_start + i + 4;
            }
            // Interim heads count against the limit too, so that the
            // bytes read before the final head stay bounded.
            if buf.len() > HEAD_BYTES_MAX {
                return Err(Err(HttpError::BadResponse(format!("the head is longer than {HEAD_BYTES_MAX} bytes"))));
            }
            let mut chunk = [0u8; 4096];
            let n = match conn.read(&mut chunk).await {
                Ok(n) => n,
                Err(_) if buf.is_empty() => return Err(Ok(Stale)),
                Err(e) => return Err(io(e)),
            };
            if n == 0 {
                return Err(if buf.is_empty() { Ok(Stale) } else { Err(HttpError::BadResponse("the answer ends inside its head".into())) });
            }
            buf.extend_from_slice(&chunk[..n]);
        };
        let head = parse_response_head(&buf[head_start..head_end]).map_err(Err)?;
        if head.status == 101 {
            return Err(Err(HttpError::BadResponse("101 Switching Protocols, but no upgrade was asked for".into())));
        }
        if !head.is_interim() {
            break (head, head_end);
        }
        // An interim response has no body; the final response of this
        // same request follows it. Taking the interim one as the answer
        // would leave the final one to be read as the next request's.
        interim += 1;
        if interim > INTERIM_RESPONSES_MAX {
            return Err(Err(HttpError::BadResponse(format!("more than {INTERIM_RESPONSES_MAX} interim (1xx) responses"))));
        }
        head_start = head_end;
    };
    let ResponseHead { status, content_length, chunked, mut keep_alive, location } = head;
    let mut rest = buf.split_off(head_end);
    let body = if chunked {
        read_chunked(conn, rest).await.map_err(Err)?
    } else if let Some(n) = content_length {
        if n > BODY_BYTES_MAX {
            return Err(Err(HttpError::BadResponse(format!("a body of {n} bytes is over the {BODY_BYTES_MAX}-byte limit"))));
        }
        while rest.len() < n {
            let got = read_more(conn, &mut rest).await.map_err(Err)?;
            if got == 0 {
                return Err(Err(HttpError::BadResponse("the answer ends inside its body".into())));
            }
        }
        // Bytes past the body would be a pipelined answer we never asked
        // for; such a connection is not reused.
        if rest.len() > n {
            keep_alive = false;
            rest.truncate(n);
        }
        rest
    } else if status == 204 || status == 304 {
        Vec::new()
    } else {
        // No length: the body runs to the end of the connection.
        keep_alive = false;
        while read_more(conn, &mut rest).await.map_err(Err)? > 0 {}
        rest
    };
    Ok(Response { status, body, keep_alive, location })
}

/// Reads once more into `buf`, within the body limit; 0 at the end.
async fn read_more(conn: &mut TcpStream, buf: &mut Vec<u8>) -> Result<usize, HttpError> {
    let mut chunk = [0u8; 4096];
    let n = conn.read(&mut chunk).await.map_err(|e| HttpError::Io(e.to_string()))?;
    if buf.len() + n > BODY_BYTES_MAX + 2 * 1024 {
        return Err(HttpError::BadResponse(format!("the body is over the {BODY_BYTES_MAX}-byte limit")));
    }
    buf.extend_from_slice(&chunk[..n]);
    Ok(n)
}

/// Decodes a chunked body whose first bytes are in `buf`.
async fn read_chunked(conn: &mut TcpStream, mut buf: Vec<u8>) -> Result<Vec<u8>, HttpError> {
    let mut decoder = Chunked::default();
    loop {
        if decoder.advance(&buf)? {
            return Ok(decoder.body);
        }
        if read_more(conn, &mut buf).await? == 0 {
            return decoder.at_end();
        }
    }
}

/// A chunked body decoded as its bytes arrive; never trusts a size before
/// checking it against [`BODY_BYTES_MAX`].
#[derive(Debug, Default)]
struct Chunked {
    body: Vec<u8>,
    /// Where the next size line (or trailer line) starts.
    at: usize,
    /// The last chunk was seen: only trailers are left.
    trailers: bool,
    /// A size line was read and its chunk is not all there yet.
    inside_chunk: bool,
}

impl Chunked {
    /// Decodes what `buf` (every byte of the body received so far) holds
    /// past the last call; `true` once the body is complete.
    fn advance(&mut self, buf: &[u8]) -> Result<bool, HttpError> {
        let bad = |m: &str| HttpError::BadResponse(format!("chunked body: {m}"));
        loop {
            let Some(line_len) = buf.get(self.at..).and_then(|rest| find(rest, b"\r\n")) else {
                return Ok(false);
            };
            let line_end = self.at + line_len;
            if self.trailers {
                // Trailers, if any, end with an empty line.
                if line_len == 0 {
                    return Ok(true);
                }
                self.at = line_end + 2;
                continue;
            }
            let line = std::str::from_utf8(&buf[self.at..line_end]).map_err(|_| bad("a size line is not text"))?;
            let size_text = line.split(';').next().unwrap_or("").trim();
            if size_text.is_empty() || !size_text.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(bad("a size is not hex"));
            }
            // Leading zeros aside, a size of more hex digits than that
            // cannot fit any body.
            let size = usize::from_str_radix(size_text, 16).map_err(|_| bad("a chunk is over the body limit"))?;
            if size == 0 {
                self.trailers = true;
                self.at = line_end + 2;
                continue;
            }
            // Checked before any arithmetic on the size, which the peer
            // chose freely.
            if size > BODY_BYTES_MAX - self.body.len() {
                return Err(bad(&format!("a chunk of {size} bytes is over the {BODY_BYTES_MAX}-byte body limit")));
            }
            let data = line_end + 2;
            let Some(chunk) = buf.get(data..data + size + 2) else {
                self.inside_chunk = true;
                return Ok(false);
            };
            self.inside_chunk = false;
            if &chunk[size..] != b"\r\n" {
                return Err(bad("a chunk does not end with CRLF"));
            }
            self.body.extend_from_slice(&chunk[..size]);
            self.at = data + size + 2;
        }
    }

    /// The body when the stream ends before it is complete: whole once
    /// the last chunk was seen (trailers may be cut), an error otherwise.
    fn at_end(self) -> Result<Vec<u8>, HttpError> {
        let bad = |m: &str| Err(HttpError::BadResponse(format!("chunked body: {m}")));
        match (self.trailers, self.inside_chunk) {
            (true, _) => Ok(self.body),
            (false, true) => bad("ends inside a chunk"),
            (false, false) => bad("ends inside a size line"),
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        let u = SnakeUrl::parse("http://127.0.0.1:8000").unwrap();
        assert_eq!((u.host.as_str(), u.port, u.path(""), u.path("move")), ("127.0.0.1", 8000, "/".into(), "/move".into()));
        let u = SnakeUrl::parse("http://example.com/snakes/one/").unwrap();
        assert_eq!((u.port, u.path(""), u.path("end"), u.host_header()), (80, "/snakes/one/".into(), "/snakes/one/end".into(), "example.com".into()));
        let u = SnakeUrl::parse("http://Example.com/snakes/two").unwrap();
        let follows = ["/snakes/two/move/", "http://example.com/a/", "http://EXAMPLE.COM:80/b#x", "/c#frag"].map(|l| u.same_server_path(l));
        assert_eq!(follows, [Some("/snakes/two/move/".into()), Some("/a/".into()), Some("/b".into()), Some("/c".into())]);
        for elsewhere in ["http://example.com:81/", "https://example.com/", "//other/x", "move/", "/a b", "http://example.com/?q=1"] {
            assert_eq!(u.same_server_path(elsewhere), None, "{elsewhere}");
        }
        assert_eq!((u.path(""), u.path("move")), ("/snakes/two".into(), "/snakes/two/move".into()));
        let u = SnakeUrl::parse("http://[::1]:9/x").unwrap();
        assert_eq!((u.host.as_str(), u.port, u.host_header()), ("::1", 9, "[::1]:9".into()));
        for bad in ["https://a", "ftp://a", "http://", "http://a:99999", "http://a/?q=1", "http://u@a", "127.0.0.1:8000"] {
            assert!(SnakeUrl::parse(bad).is_err(), "{bad}");
        }
    }

    /// Feeds `wire` to a decoder in pieces ending at `cuts`, as reads
    /// would deliver it, then ends the stream.
    fn decode_in_pieces(wire: &[u8], cuts: &[usize]) -> Result<Vec<u8>, HttpError> {
        let mut ends: Vec<usize> = cuts.iter().map(|&c| c.min(wire.len())).collect();
        ends.push(wire.len());
        ends.sort_unstable();
        let mut decoder = Chunked::default();
        for end in ends {
            if decoder.advance(&wire[..end])? {
                return Ok(decoder.body);
            }
        }
        decoder.at_end()
    }

    #[test]
    fn a_huge_chunk_size_is_refused() {
        for size in ["ffffffffffffffff", "fffffffffffffffff", "10001", "FFFFFFFFFFFFFFFE"] {
            let wire = format!("1\r\nx\r\n{size}\r\nabcd\r\n0\r\n\r\n");
            let e = decode_in_pieces(wire.as_bytes(), &[]).unwrap_err();
            assert!(matches!(&e, HttpError::BadResponse(m) if m.contains("body limit")), "{size}: {e:?}");
        }
        // Up to the limit exactly is fine.
        let wire = format!("1\r\nx\r\n{:x}\r\n{}\r\n0\r\n\r\n", BODY_BYTES_MAX - 1, "y".repeat(BODY_BYTES_MAX - 1));
        assert_eq!(decode_in_pieces(wire.as_bytes(), &[]).unwrap().len(), BODY_BYTES_MAX);
        for sign in ["+5", "-5", "", " ", "0x5"] {
            let wire = format!("{sign}\r\nhello\r\n0\r\n\r\n");
            assert!(decode_in_pieces(wire.as_bytes(), &[]).is_err(), "{sign:?}");
        }
    }

    use proptest::strategy::Strategy as _;

    proptest::proptest! {
        /// Any body, cut into any chunks (with leading zeros, upper-case
        /// digits and extensions), read in any pieces, decodes to itself.
        #[test]
        fn chunked_bodies_decode_whole(
            body in proptest::collection::vec(proptest::num::u8::ANY, 0..300),
            splits in proptest::collection::vec(0usize..300, 0..8),
            upper in proptest::bool::ANY,
            zeros in 0usize..3,
            extension in proptest::bool::ANY,
            cuts in proptest::collection::vec(0usize..600, 0..8),
        ) {
            let mut bounds: Vec<usize> = splits.into_iter().map(|c| c.min(body.len())).collect();
            bounds.push(0);
            bounds.push(body.len());
            bounds.sort_unstable();
            bounds.dedup();
            let mut wire = Vec::new();
            for w in bounds.windows(2) {
                let size = if upper { format!("{:X}", w[1] - w[0]) } else { format!("{:x}", w[1] - w[0]) };
                wire.extend_from_slice(format!("{}{size}{}\r\n", "0".repeat(zeros), if extension { ";a=b" } else { "" }).as_bytes());
                wire.extend_from_slice(&body[w[0]..w[1]]);
                wire.extend_from_slice(b"\r\n");
            }
            wire.extend_from_slice(b"0\r\nX-Trailer: 1\r\n\r\n");
            proptest::prop_assert_eq!(decode_in_pieces(&wire, &cuts).unwrap(), body);
        }

        /// Whatever the size lines and bytes, decoding ends in a body or an
        /// error, never a panic, and never a body over the limit.
        #[test]
        fn chunked_decoding_never_panics(
            parts in proptest::collection::vec(
                (
                    proptest::prop_oneof![
                        "[0-9a-fA-F]{0,20}",
                        proptest::num::u64::ANY.prop_map(|n| format!("{n:x}")),
                        proptest::num::u128::ANY.prop_map(|n| format!("{n:X}")),
                        "[ -~]{0,12}",
                    ],
                    proptest::collection::vec(proptest::num::u8::ANY, 0..40),
                    proptest::bool::ANY,
                ),
                0..6,
            ),
            cuts in proptest::collection::vec(0usize..400, 0..6),
        ) {
            let mut wire = Vec::new();
            for (size, bytes, crlf) in parts {
                wire.extend_from_slice(size.as_bytes());
                wire.extend_from_slice(b"\r\n");
                wire.extend_from_slice(&bytes);
                if crlf {
                    wire.extend_from_slice(b"\r\n");
                }
            }
            if let Ok(body) = decode_in_pieces(&wire, &cuts) {
                proptest::prop_assert!(body.len() <= BODY_BYTES_MAX);
            }
        }
    }

    /// A snake server on 127.0.0.1 that answers every request on its
    /// connections with `answer(index)`, the parts of which are written
    /// one by one with a pause between them, so that the client reads
    /// each on its own. Returns the snake's URL.
    async fn scripted_snake(answer: impl Fn(usize) -> Vec<Vec<u8>> + Send + Sync + 'static) -> String {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicUsize, Ordering};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let (answer, count) = (Arc::new(answer), Arc::new(AtomicUsize::new(0)));
        tokio::spawn(async move {
            while let Ok((mut conn, _)) = listener.accept().await {
                let (answer, count) = (answer.clone(), count.clone());
                tokio::spawn(async move {
                    let mut buf = Vec::new();
                    loop {
                        // One request: its head, then its Content-Length body.
                        let end = loop {
                            if let Some(i) = find(&buf, b"\r\n\r\n") {
                                let head = String::from_utf8_lossy(&buf[..i]).to_ascii_lowercase();
                                let len = head
                                    .lines()
                                    .find_map(|l| l.strip_prefix("content-length:").map(|v| v.trim().parse::<usize>().unwrap()))
                                    .unwrap_or(0);
                                if buf.len() >= i + 4 + len {
                                    break i + 4 + len;
                                }
                            }
                            let mut chunk = [0u8; 1024];
                            match conn.read(&mut chunk).await {
                                Ok(0) | Err(_) => return,
                                Ok(n) => buf.extend_from_slice(&chunk[..n]),
                            }
                        };
                        buf.drain(..end);
                        for (k, part) in answer(count.fetch_add(1, Ordering::SeqCst)).into_iter().enumerate() {
                            if k > 0 {
                                tokio::time::sleep(Duration::from_millis(20)).await;
                            }
                            if conn.write_all(&part).await.is_err() {
                                return;
                            }
                        }
                    }
                });
            }
        });
        url
    }

    fn move_answer(dir: &str) -> Vec<u8> {
        let body = format!("{{\"move\":\"{dir}\"}}");
        format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    const EARLY_HINTS: &[u8] = b"HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n";
    use snakepit_engine::Dir;
    const DIRS: [(&str, Dir); 4] = [("up", Dir::Up), ("right", Dir::Right), ("down", Dir::Down), ("left", Dir::Left)];

    #[tokio::test]
    async fn early_hints_are_skipped_and_each_turn_gets_its_own_move() {
        // Even turns: the 103 and the 200 come apart; odd turns: in one
        // write, so the 200 may arrive in the read that holds the 103.
        let url = scripted_snake(|i| {
            let answer = move_answer(DIRS[i % 4].0);
            if i % 2 == 0 { vec![EARLY_HINTS.to_vec(), answer] } else { vec![[EARLY_HINTS, &answer].concat()] }
        })
        .await;
        let mut snake = HttpSnake::new(&url).unwrap();
        for turn in 0..8 {
            let out = snake.request_move("{}", Duration::from_secs(5)).await;
            let dir = out.result.unwrap_or_else(|e| panic!("turn {turn}: {e}")).dir;
            assert_eq!(dir, DIRS[turn % 4].1, "turn {turn}");
        }
        let stats = snake.stats();
        assert_eq!((stats.connections, stats.faults_total()), (1, 0), "{stats:?}");
    }

    #[tokio::test]
    async fn interim_answers_are_bounded_and_101_is_refused() {
        // Up to the bound, with headers an interim answer may carry.
        let url = scripted_snake(|_| {
            let mut parts = vec![b"HTTP/1.1 100 Continue\r\nContent-Length: 5\r\n\r\n".to_vec(); INTERIM_RESPONSES_MAX - 1];
            parts.push(EARLY_HINTS.to_vec());
            parts.push(move_answer("left"));
            vec![parts.concat()]
        })
        .await;
        let mut snake = HttpSnake::new(&url).unwrap();
        assert_eq!(snake.request_move("{}", Duration::from_secs(5)).await.result.unwrap().dir, Dir::Left);

        let url = scripted_snake(|_| {
            let mut parts = vec![EARLY_HINTS.to_vec(); INTERIM_RESPONSES_MAX + 1];
            parts.push(move_answer("left"));
            vec![parts.concat()]
        })
        .await;
        let mut snake = HttpSnake::new(&url).unwrap();
        let e = snake.request_move("{}", Duration::from_secs(5)).await.result.unwrap_err();
        assert!(matches!(&e, HttpError::BadResponse(m) if m.contains("interim")), "{e:?}");

        let url = scripted_snake(|_| vec![b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n".to_vec(), move_answer("up")]).await;
        let mut snake = HttpSnake::new(&url).unwrap();
        let e = snake.request_move("{}", Duration::from_secs(5)).await.result.unwrap_err();
        assert!(matches!(&e, HttpError::BadResponse(m) if m.contains("101")), "{e:?}");
        // The connection of the refused answer is not reused: the next
        // request opens a new one and is not answered by the old 200.
        assert!(snake.request_move("{}", Duration::from_secs(5)).await.result.is_err());
        assert_eq!(snake.stats().connections, 2);
    }

    #[test]
    fn response_heads() {
        let head = |s: &str| parse_response_head(s.as_bytes());
        let h = head("HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n").unwrap();
        assert_eq!(h, ResponseHead { status: 200, content_length: Some(12), chunked: false, keep_alive: true, location: None });
        let h = head("HTTP/1.0 204 No Content\r\nConnection: keep-alive\r\n\r\n").unwrap();
        assert_eq!((h.status, h.keep_alive), (204, true));
        let h = head("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n").unwrap();
        assert_eq!((h.chunked, h.keep_alive), (true, false));
        assert!(head("HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n").unwrap().is_interim());
        assert_eq!(head("HTTP/1.1 200 OK\r\nContent-Length: 4\r\ncontent-length: 4\r\n\r\n").unwrap().content_length, Some(4));
        for bad in [
            "HTTP/1.1 +200 OK\r\n\r\n",
            "HTTP/1.1 0200 OK\r\n\r\n",
            "HTTP/1.1 20 OK\r\n\r\n",
            "HTTP/1.1 099 Low\r\n\r\n",
            "HTTP/2 200 OK\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n",
            "HTTP/1.1 200 OK\r\nno colon\r\n\r\n",
        ] {
            assert!(head(bad).is_err(), "{bad:?}");
        }
        assert!(parse_response_head(b"HTTP/1.1 200 \xff\r\n\r\n").is_err());
    }

    #[test]
    fn faults_are_classified() {
        assert_eq!(HttpError::from(MoveError::BadMove("sideways".into())).kind(), FaultKind::BadMove);
        assert_eq!(HttpError::from(MoveError::NoMove).kind(), FaultKind::BadJson);
        assert_eq!(HttpError::Status { code: 500, body: body_excerpt(b"oops") }.kind(), FaultKind::Status);
        let mut s = SnakeStats::default();
        s.count(&HttpError::Timeout(500));
        s.count(&HttpError::Timeout(500));
        assert_eq!((s.faults_of(FaultKind::Timeout), s.faults_total()), (2, 2));
    }
}
