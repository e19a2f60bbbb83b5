//! WebSocket sessions: bots, player pages and spectators.
//!
//! A session task owns its socket and nothing else. It forwards what the
//! client says to the room as [`RoomInput`]s and writes what the room hands
//! it. Every session is bounded: message size, messages per second (every
//! frame counts: text, binary, ping and pong), idle time, and time to take a
//! message; and one address holds at most `limits.sockets_per_ip` sockets of
//! any kind ([`SocketsPerIp`]). A client that breaks a limit gets a close
//! frame that says which, and only its own session ends. Below the
//! sockets, every TCP connection is held by [`Lingering`]: at most
//! `limits.connections_per_ip` per address and `limits.connections_max` in
//! all, and `limits.http_idle_ms` without a byte before it is a WebSocket.
//!
//! Spectators only receive: they are sent a frame when the room publishes a
//! new one, never in reply to anything, and one that sends a message is
//! closed with [`SPECTATOR_SENT_REASON`] (pings and pongs are let through,
//! within the same per-second limit as everyone's).
//!
//! In a cluster, a socket whose room runs on another node is proxied there
//! ([`proxy`]): this node connects to the owner first (so that a refusal,
//! such as a wrong code, reaches the client as it is), then copies frames
//! both ways with the same size limit; closing either side closes the other.
//! Forwarded requests carry [`FORWARDED_HEADER`] and are never forwarded
//! again.

use crate::app::{AppError, AppState};
use crate::room::{ConnKind, Outgoing, PlayerRef, RoomInput};
use crate::rooms::Route;
use futures_util::{SinkExt, StreamExt};
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Extension, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use snakepit_protocol::spectator::{ErrorMsg, envelope};
use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, mpsc};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite;

/// Marks a socket one node forwards to another (its value is the sending
/// node's name).
pub const FORWARDED_HEADER: &str = "x-snakepit-forwarded";
/// How long a node waits for the owner of a room to accept a forwarded
/// socket.
const PROXY_CONNECT_TIMEOUT_MS: u64 = 5000;

/// Codenjoy's reply to a bad id or code, word for word.
pub const UNAUTHORIZED_BODY: &str = "Unauthorized access. Please register user and/or write valid EMAIL/CODE in the client.";

type Q = Query<BTreeMap<String, String>>;

/// Bytes each socket reserves for reading. Clients send short commands, and
/// the library's default (128 KiB) would cost a gigabyte per 8,000 bots.
const READ_BUFFER_BYTES: usize = 4096;

/// Applies our limits and buffer sizes to an upgrade.
fn configure(ws: WebSocketUpgrade, max_message_bytes: usize) -> WebSocketUpgrade {
    // A zero write buffer sends each message at once; every board is one
    // message, so there is nothing to gain by batching.
    ws.max_message_size(max_message_bytes)
        .max_frame_size(max_message_bytes)
        .read_buffer_size(READ_BUFFER_BYTES)
        .write_buffer_size(0)
}

/// Checks `user` and `code`; extra query parameters are ignored, as
/// CodeBattle URLs carry `&gameName=snakebattle`.
async fn authenticate(st: &Arc<AppState>, q: &BTreeMap<String, String>) -> Result<PlayerRef, Response> {
    let unauthorized = || (StatusCode::UNAUTHORIZED, UNAUTHORIZED_BODY).into_response();
    let (Some(user), Some(code)) = (q.get("user").cloned(), q.get("code").cloned()) else {
        return Err(unauthorized());
    };
    if user.len() > 64 || code.len() > 64 {
        return Err(unauthorized());
    }
    match st.store.authenticate(&user, &code).await {
        Ok(Some(p)) => Ok(PlayerRef::from(p)),
        Ok(None) => Err(unauthorized()),
        Err(e) => Err(AppError::from(e).into_response()),
    }
}

/// Counts the open sockets of each peer address, to hold each to
/// `limits.sockets_per_ip`. Cloning shares the count.
#[derive(Clone, Debug)]
pub struct SocketsPerIp {
    max: usize,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl SocketsPerIp {
    /// A count allowing `max` sockets per address (at least one).
    pub fn new(max: usize) -> SocketsPerIp {
        SocketsPerIp { max: max.max(1), open: Default::default() }
    }

    /// Sockets open from `ip` now.
    pub fn open(&self, ip: IpAddr) -> usize {
        self.open.lock().map_or(0, |m| m.get(&ip).copied().unwrap_or(0))
    }

    /// A place for one more socket from `peer`, or a 429 that says why.
    fn take(&self, peer: &PeerAddr) -> Result<IpPermit, Box<Response>> {
        let ip = peer.limit_key();
        let refused = || {
            let why = format!("too many connections from your address (at most {})", self.max);
            Box::new((StatusCode::TOO_MANY_REQUESTS, why).into_response())
        };
        // A poisoned lock only means a panic elsewhere while counting;
        // the counts themselves are still whole numbers.
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(ip).or_insert(0);
        if *n >= self.max {
            return Err(refused());
        }
        *n += 1;
        Ok(IpPermit { ip, open: self.open.clone(), upgraded: peer.1.clone() })
    }
}

/// One socket's place in [`SocketsPerIp`]; dropping it frees the place.
#[derive(Debug)]
struct IpPermit {
    ip: IpAddr,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
    /// The connection's mark, set once it is a WebSocket.
    upgraded: Upgraded,
}

impl Drop for IpPermit {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// What an open socket holds: its place among all sockets and among its
/// address's.
struct Permit {
    _all: OwnedSemaphorePermit,
    ip: IpPermit,
}

impl Permit {
    /// Marks the connection a WebSocket: from now on it may be silent (a
    /// spectator only listens); its session's own limits hold instead.
    fn upgraded(&self) {
        self.ip.upgraded.mark();
    }
}

fn permit(st: &Arc<AppState>, ip: IpPermit) -> Result<Permit, Box<Response>> {
    let all = st
        .sockets
        .clone()
        .try_acquire_owned()
        .map_err(|_| Box::new((StatusCode::SERVICE_UNAVAILABLE, "too many connections").into_response()))?;
    Ok(Permit { _all: all, ip })
}

/// What a socket is for: a player's seat (a bot or a page) or a room (a
/// spectator).
#[derive(Clone, Copy)]
enum Target<'a> {
    Player(&'a str),
    Room(&'a str),
}

/// Where a socket goes: `None` to serve it here, or the response (a proxy
/// to the node that runs its room, or why it cannot be served).
async fn elsewhere(
    st: &Arc<AppState>,
    headers: &HeaderMap,
    uri: &Uri,
    target: Target<'_>,
    ws: WebSocketUpgrade,
    max_message_bytes: usize,
    ip: IpPermit,
) -> Result<(WebSocketUpgrade, IpPermit), Response> {
    if st.rooms.cluster().is_none() {
        return Ok((ws, ip));
    }
    let route = match target {
        Target::Player(id) => st.rooms.route_player(id).await,
        Target::Room(name) => st.rooms.route_room(name).await,
    };
    match route {
        Ok(Route::Local) => Ok((ws, ip)),
        // Forwarded here, but the room is elsewhere: a node whose view was
        // older (the room moved since), or a client that only says so.
        // Forwarding it again could loop. A player in no room yet was sent
        // here to be seated (the other node had no seat either): this node
        // seats them or opens a room. One who sits in a room elsewhere is
        // refused, or they would sit in two.
        Ok(Route::Remote(_)) if headers.contains_key(FORWARDED_HEADER) => match target {
            Target::Player(id) if matches!(st.store.seat(id).await, Ok(None)) => Ok((ws, ip)),
            _ => Err((StatusCode::SERVICE_UNAVAILABLE, "this room runs on another node now: reconnect").into_response()),
        },
        Ok(Route::Remote(base)) => Err(proxy(st, ws, &base, uri, max_message_bytes, ip).await),
        Ok(Route::Unavailable(why)) => Err((StatusCode::SERVICE_UNAVAILABLE, why).into_response()),
        Err(e) => Err(AppError::from(e).into_response()),
    }
}

/// Where a socket comes from: the peer of its TCP connection (behind a
/// reverse proxy, the proxy), and the count it is held to.
type Peer = (ConnectInfo<PeerAddr>, Extension<SocketsPerIp>);

/// The address of the other end of a connection, as [`Lingering`] accepted
/// it, and the connection's mark for becoming a WebSocket.
#[derive(Clone, Debug)]
pub struct PeerAddr(pub SocketAddr, pub Upgraded);

impl axum::extract::connect_info::Connected<axum::serve::IncomingStream<'_, Lingering>> for PeerAddr {
    fn connect_info(stream: axum::serve::IncomingStream<'_, Lingering>) -> PeerAddr {
        PeerAddr(*stream.remote_addr(), stream.io().upgraded.clone())
    }
}

impl PeerAddr {
    /// The address that per-address limits count this peer under; see
    /// [`limit_key`].
    pub fn limit_key(&self) -> IpAddr {
        limit_key(self.0.ip())
    }
}

/// The address per-address limits count `ip` under: an IPv4 address as it
/// is (also when it comes as an IPv4-mapped IPv6 address), an IPv6 address
/// by its /64 network, which one subscriber usually holds whole; counting
/// each of its addresses apart would give one client endless places.
pub fn limit_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(std::net::Ipv6Addr::from(u128::from(v6) & !((1u128 << 64) - 1))),
        },
    }
}

/// Whether a connection has become a WebSocket (shared by the connection
/// and its handlers). Plain HTTP connections are dropped after
/// `limits.http_idle_ms` without a byte from the client; WebSockets are
/// not, since a spectator never speaks.
#[derive(Clone, Debug, Default)]
pub struct Upgraded(Arc<std::sync::atomic::AtomicBool>);

impl Upgraded {
    fn mark(&self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    fn is_set(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// How long a closed connection is still read (and what arrives
/// discarded) after this side has finished writing.
const LINGER_MS: u64 = 1000;

/// The server's listener: TCP connections that close gracefully, held to
/// a number per address, and dropped when idle before they become
/// WebSockets.
///
/// Closing a socket that still has unread data makes the kernel reset the
/// connection, and a client still writing (a message over the size limit,
/// a flood) then gets "connection reset" instead of the close frame that
/// says why. So a dropped connection first finishes writing, then is read
/// and discarded until the client closes its side, for at most
/// [`LINGER_MS`]. This is done here because a WebSocket session cannot read
/// its socket any more once the library has refused a message.
///
/// The HTTP library has no timer here, so nothing else ends a connection
/// that never finishes its request or idles between requests: one address
/// could hold connections until the process runs out of descriptors and
/// nobody else gets in. So one address holds at most
/// `limits.connections_per_ip` connections (more are closed at once, with a
/// 429 written if the socket takes it), all addresses together at most
/// `limits.connections_max` (503), which keeps descriptors for the
/// database and the bots' pipes, and a connection that is not a WebSocket
/// is ended after `limits.http_idle_ms` without a byte from its client.
pub struct Lingering {
    listener: tokio::net::TcpListener,
    open: Arc<Mutex<OpenConnections>>,
    per_ip_max: usize,
    total_max: usize,
    idle: Duration,
    ws_bytes_per_sec: f64,
    send_timeout: Duration,
}

/// The connections open now, per address and in all.
#[derive(Default)]
struct OpenConnections {
    by_ip: BTreeMap<IpAddr, usize>,
    total: usize,
}

impl Lingering {
    /// Wraps `listener`: at most `per_ip_max` connections per address and
    /// `total_max` in all (each at least one), plain HTTP connections idle
    /// for at most `idle_ms`, and a WebSocket's client sending at most
    /// `ws_bytes_per_sec` bytes a second, and a write waiting at most
    /// `send_timeout_ms` for the client to take bytes (see
    /// [`LingeringStream`]).
    pub fn new(
        listener: tokio::net::TcpListener,
        per_ip_max: usize,
        total_max: usize,
        idle_ms: u64,
        ws_bytes_per_sec: u64,
        send_timeout_ms: u64,
    ) -> Lingering {
        Lingering {
            listener,
            open: Default::default(),
            per_ip_max: per_ip_max.max(1),
            total_max: total_max.max(1),
            idle: Duration::from_millis(idle_ms.max(1)),
            ws_bytes_per_sec: ws_bytes_per_sec.max(1) as f64,
            send_timeout: Duration::from_millis(send_timeout_ms.max(1)),
        }
    }

    /// A place for one more connection from `ip`, or what to tell it.
    fn take(&self, ip: IpAddr) -> Result<ConnSlot, &'static [u8]> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if open.total >= self.total_max {
            return Err(SERVER_FULL);
        }
        let n = open.by_ip.entry(ip).or_insert(0);
        if *n >= self.per_ip_max {
            return Err(TOO_MANY_CONNECTIONS);
        }
        *n += 1;
        open.total += 1;
        Ok(ConnSlot { ip, open: self.open.clone() })
    }
}

/// What a connection refused for its address's count is told, if its
/// socket takes it at once.
const TOO_MANY_CONNECTIONS: &[u8] =
    b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain\r\ncontent-length: 40\r\nconnection: close\r\n\r\ntoo many connections from your address\r\n";
/// What a connection refused for the count of all is told.
const SERVER_FULL: &[u8] =
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\ncontent-length: 45\r\nconnection: close\r\n\r\nthe server has all the connections it takes\r\n";

impl axum::serve::Listener for Lingering {
    type Io = LingeringStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (LingeringStream, SocketAddr) {
        loop {
            // The plain listener's accept retries and logs accept errors.
            let (stream, addr) = axum::serve::Listener::accept(&mut self.listener).await;
            let slot = match self.take(limit_key(addr.ip())) {
                Ok(slot) => slot,
                Err(answer) => {
                    // Never waited for: the accept loop serves everyone.
                    let _ = stream.try_write(answer);
                    tracing::debug!(%addr, "connection refused: {}", String::from_utf8_lossy(answer).lines().last().unwrap_or(""));
                    continue;
                }
            };
            let idle = Box::pin(tokio::time::sleep(self.idle));
            let stream = LingeringStream {
                stream: Some(stream),
                upgraded: Upgraded::default(),
                idle_for: self.idle,
                idle,
                budget: Bucket::new(self.ws_bytes_per_sec, WS_BURST_SECONDS),
                send_timeout: self.send_timeout,
                write_stall: None,
                _slot: slot,
            };
            return (stream, addr);
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }
}

/// One connection's place in its address's count; dropping it frees it.
struct ConnSlot {
    ip: IpAddr,
    open: Arc<Mutex<OpenConnections>>,
}

impl Drop for ConnSlot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.total = open.total.saturating_sub(1);
        if let Some(n) = open.by_ip.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.by_ip.remove(&self.ip);
            }
        }
    }
}

/// A connection accepted by [`Lingering`]; see there.
///
/// Once it is a WebSocket, what its client sends is also held to a rate in
/// bytes. The messages-per-second limit counts whole messages, and the
/// library reads a message's frames before it yields anything: a client
/// that opens a message and sends empty continuation frames for ever would
/// cost a core without ever being counted. Its read fails with a "flood"
/// error instead, which the session turns into a close with the reason.
pub struct LingeringStream {
    stream: Option<tokio::net::TcpStream>,
    /// Set once the connection is a WebSocket.
    upgraded: Upgraded,
    /// How long a plain HTTP connection may go without a byte read.
    idle_for: Duration,
    /// Fires `idle_for` after the last byte read.
    idle: std::pin::Pin<Box<tokio::time::Sleep>>,
    /// The bytes a WebSocket's client may still send (a burst of
    /// [`WS_BURST_SECONDS`]).
    budget: Bucket,
    /// How long a write may wait for the client to take bytes.
    send_timeout: Duration,
    /// Fires `send_timeout` after a write first had to wait.
    write_stall: Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
    _slot: ConnSlot,
}

/// The burst of bytes a WebSocket's client may send, in seconds of its
/// rate.
const WS_BURST_SECONDS: f64 = 4.0;

/// The text of a [`LingeringStream`]'s read that failed for a flood; the
/// session recognises it (see [`read_error`]).
const BYTE_FLOOD: &str = "flood: more bytes than the message limits allow";

impl LingeringStream {
    fn stream(&mut self) -> std::io::Result<&mut tokio::net::TcpStream> {
        self.stream.as_mut().ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotConnected))
    }

    /// A write that the client has not let through for `send_timeout` (it
    /// reads nothing: a page of megabytes it never takes) fails, so that
    /// the connection, and what its answer holds, goes. The timer runs from
    /// the first write that had to wait, and any progress stops it.
    fn stalled(&mut self, cx: &mut std::task::Context<'_>, written: std::task::Poll<std::io::Result<usize>>) -> std::task::Poll<std::io::Result<usize>> {
        use std::future::Future;
        use std::task::Poll;
        match written {
            Poll::Pending => {
                let limit = self.send_timeout;
                let stall = self.write_stall.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
                if stall.as_mut().poll(cx).is_ready() {
                    let why = format!("the client took nothing for {} ms", limit.as_millis());
                    return Poll::Ready(Err(std::io::Error::new(std::io::ErrorKind::TimedOut, why)));
                }
                Poll::Pending
            }
            other => {
                self.write_stall = None;
                other
            }
        }
    }
}

impl tokio::io::AsyncRead for LingeringStream {
    fn poll_read(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>, buf: &mut tokio::io::ReadBuf<'_>) -> std::task::Poll<std::io::Result<()>> {
        use std::future::Future;
        use std::task::Poll;
        let before = buf.filled().len();
        let read = match self.stream() {
            Ok(s) => std::pin::Pin::new(s).poll_read(cx, buf),
            Err(e) => return Poll::Ready(Err(e)),
        };
        match read {
            Poll::Ready(Ok(())) if self.upgraded.is_set() => {
                let n = buf.filled().len() - before;
                if self.budget.take(n as f64) {
                    Poll::Ready(Ok(()))
                } else {
                    Poll::Ready(Err(std::io::Error::other(BYTE_FLOOD)))
                }
            }
            // A WebSocket's reads (every bot's answer) need no timer.
            Poll::Ready(Ok(())) if buf.filled().len() > before && !self.upgraded.is_set() => {
                let next = tokio::time::Instant::now() + self.idle_for;
                self.idle.as_mut().reset(next);
                Poll::Ready(Ok(()))
            }
            Poll::Pending if !self.upgraded.is_set() && self.idle.as_mut().poll(cx).is_ready() => {
                let why = format!("no request within {} ms", self.idle_for.as_millis());
                Poll::Ready(Err(std::io::Error::new(std::io::ErrorKind::TimedOut, why)))
            }
            other => other,
        }
    }
}

impl tokio::io::AsyncWrite for LingeringStream {
    fn poll_write(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>, buf: &[u8]) -> std::task::Poll<std::io::Result<usize>> {
        let written = match self.stream() {
            Ok(s) => std::pin::Pin::new(s).poll_write(cx, buf),
            Err(e) => return std::task::Poll::Ready(Err(e)),
        };
        self.stalled(cx, written)
    }

    fn poll_flush(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<std::io::Result<()>> {
        match self.stream() {
            Ok(s) => std::pin::Pin::new(s).poll_flush(cx),
            Err(e) => std::task::Poll::Ready(Err(e)),
        }
    }

    fn poll_shutdown(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<std::io::Result<()>> {
        match self.stream() {
            Ok(s) => std::pin::Pin::new(s).poll_shutdown(cx),
            Err(e) => std::task::Poll::Ready(Err(e)),
        }
    }

    fn poll_write_vectored(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>, bufs: &[std::io::IoSlice<'_>]) -> std::task::Poll<std::io::Result<usize>> {
        let written = match self.stream() {
            Ok(s) => std::pin::Pin::new(s).poll_write_vectored(cx, bufs),
            Err(e) => return std::task::Poll::Ready(Err(e)),
        };
        self.stalled(cx, written)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.as_ref().is_some_and(|s| s.is_write_vectored())
    }
}

impl Drop for LingeringStream {
    fn drop(&mut self) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let Some(mut stream) = self.stream.take() else { return };
        // Outside a runtime (never the case while serving) the socket just
        // closes.
        let Ok(rt) = tokio::runtime::Handle::try_current() else { return };
        rt.spawn(async move {
            let linger = async {
                // Our side is done: the client sees the end of the stream
                // after everything we wrote, then closes its own side.
                let _ = stream.shutdown().await;
                let mut sink = [0u8; 4096];
                while matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {}
            };
            let _ = tokio::time::timeout(Duration::from_millis(LINGER_MS), linger).await;
        });
    }
}

/// `GET /codenjoy-contest/ws?user=ID&code=CODE`: a bot.
pub async fn bot_socket(
    State(st): State<Arc<AppState>>,
    (ConnectInfo(peer), Extension(per_ip)): Peer,
    Query(q): Q,
    headers: HeaderMap,
    uri: Uri,
    ws: WebSocketUpgrade,
) -> Response {
    match per_ip.take(&peer) {
        Ok(ip) => player_socket(st, ip, q, headers, uri, ws, ConnKind::Bot).await,
        Err(r) => *r,
    }
}

/// `GET /ws/player?user=ID&code=CODE`: a player's own page.
pub async fn page_socket(
    State(st): State<Arc<AppState>>,
    (ConnectInfo(peer), Extension(per_ip)): Peer,
    Query(q): Q,
    headers: HeaderMap,
    uri: Uri,
    ws: WebSocketUpgrade,
) -> Response {
    match per_ip.take(&peer) {
        Ok(ip) => player_socket(st, ip, q, headers, uri, ws, ConnKind::Page).await,
        Err(r) => *r,
    }
}

/// Authenticates a player's socket, takes a connection permit and starts
/// its session (or proxies it to the node that runs the player's room);
/// bots and pages differ only in what the session does.
async fn player_socket(
    st: Arc<AppState>,
    ip: IpPermit,
    q: BTreeMap<String, String>,
    headers: HeaderMap,
    uri: Uri,
    ws: WebSocketUpgrade,
    kind: ConnKind,
) -> Response {
    let player = match authenticate(&st, &q).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    let max = st.cfg.limits.max_message_bytes;
    let (ws, ip) = match elsewhere(&st, &headers, &uri, Target::Player(&player.id), ws, max, ip).await {
        Ok(ok) => ok,
        Err(r) => return r,
    };
    let permit = match permit(&st, ip) {
        Ok(p) => p,
        Err(r) => return *r,
    };
    configure(ws, max).on_upgrade(move |socket| {
        permit.upgraded();
        session(socket, st, player, kind, permit)
    })
}

/// `GET /ws/room/NAME`: a spectator. Receives frames, sends nothing.
pub async fn spectator_socket(
    State(st): State<Arc<AppState>>,
    (ConnectInfo(peer), Extension(per_ip)): Peer,
    Path(name): Path<String>,
    headers: HeaderMap,
    uri: Uri,
    ws: WebSocketUpgrade,
) -> Response {
    let ip = match per_ip.take(&peer) {
        Ok(ip) => ip,
        Err(r) => return *r,
    };
    let (ws, ip) = match elsewhere(&st, &headers, &uri, Target::Room(&name), ws, SPECTATOR_MESSAGE_BYTES, ip).await {
        Ok(ok) => ok,
        Err(r) => return r,
    };
    let Some(room) = st.rooms.get(&name) else {
        return (StatusCode::NOT_FOUND, "no such room").into_response();
    };
    let permit = match permit(&st, ip) {
        Ok(p) => p,
        Err(r) => return *r,
    };
    let send_timeout = Duration::from_millis(st.cfg.limits.send_timeout_ms);
    let messages_per_sec = st.cfg.limits.messages_per_sec;
    configure(ws, SPECTATOR_MESSAGE_BYTES).on_upgrade(move |socket| {
        permit.upgraded();
        spectate(socket, room.frames.clone(), messages_per_sec, send_timeout, permit)
    })
}

/// Largest message a spectator may send (they send nothing of use).
const SPECTATOR_MESSAGE_BYTES: usize = 1024;
/// Why a spectator that sent a message is closed (code 1008).
pub const SPECTATOR_SENT_REASON: &str = "spectators send nothing: this socket only receives the room's frames";

/// A spectator's session: the current frame, then each new one as the room
/// publishes it. What the client sends never causes a frame.
async fn spectate(mut socket: WebSocket, mut frames: tokio::sync::watch::Receiver<Arc<str>>, messages_per_sec: u32, send_timeout: Duration, _permit: Permit) {
    let mut bucket = Bucket::messages(messages_per_sec);
    let frame = frames.borrow_and_update().clone();
    if !send(&mut socket, Message::Text(Utf8Bytes::from(&*frame)), send_timeout).await {
        return;
    }
    let (code, why) = loop {
        tokio::select! {
            changed = frames.changed() => {
                if changed.is_err() {
                    break (1001, "the room has closed or moved to another node".to_string());
                }
                let frame = frames.borrow_and_update().clone();
                if !send(&mut socket, Message::Text(Utf8Bytes::from(&*frame)), send_timeout).await {
                    return;
                }
            }
            msg = socket.recv() => match msg {
                Some(Ok(Message::Close(_))) | None => return,
                Some(Err(e)) => break (1009, format!("bad message (spectators send nothing): {e}")),
                Some(Ok(Message::Text(_) | Message::Binary(_))) => break (1008, SPECTATOR_SENT_REASON.to_string()),
                // Keep-alive pings are answered by the library; they count
                // against the same limit as everyone's messages.
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {
                    if !bucket.take(1.0) {
                        break (1008, format!("flood: more than {messages_per_sec} messages per second"));
                    }
                }
            },
        }
    };
    close(&mut socket, code, &why, send_timeout).await;
}

/// Connects to the node at `base` with the same path and query, then
/// upgrades the client's socket and copies frames between the two. A node
/// that cannot be reached is a 503; a refusal by the owner (401, 503)
/// is passed on.
async fn proxy(st: &Arc<AppState>, ws: WebSocketUpgrade, base: &str, uri: &Uri, max_message_bytes: usize, ip: IpPermit) -> Response {
    use tungstenite::client::IntoClientRequest;
    let permit = match permit(st, ip) {
        Ok(p) => p,
        Err(r) => return *r,
    };
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    let url = match base.strip_prefix("https://") {
        Some(rest) => format!("wss://{}{path}", rest.trim_end_matches('/')),
        None => format!("ws://{}{path}", base.trim_start_matches("http://").trim_end_matches('/')),
    };
    let unreachable = |why: String| {
        // The query holds a bot's secret code: it stays out of the log.
        let node = url.split('?').next().unwrap_or_default();
        tracing::warn!(url = %node, "proxy: {why}");
        (StatusCode::SERVICE_UNAVAILABLE, format!("the node that runs this room does not answer ({why}); try again in a moment"))
            .into_response()
    };
    let mut request = match url.as_str().into_client_request() {
        Ok(r) => r,
        Err(e) => return unreachable(e.to_string()),
    };
    let node = st.rooms.cluster().map_or("", |c| c.node());
    if let Ok(v) = node.parse() {
        request.headers_mut().insert(FORWARDED_HEADER, v);
    }
    // The client's messages are held to the limit as it sends them (by the
    // upgrade below); what the owner sends (boards, frames) is as large as
    // it is without a proxy, so the library's defaults apply to that side.
    let config = tungstenite::protocol::WebSocketConfig::default().read_buffer_size(READ_BUFFER_BYTES).write_buffer_size(0);
    let connect = tokio_tungstenite::connect_async_with_config(request, Some(config), true);
    let upstream = match tokio::time::timeout(Duration::from_millis(PROXY_CONNECT_TIMEOUT_MS), connect).await {
        Ok(Ok((upstream, _))) => upstream,
        Ok(Err(tungstenite::Error::Http(resp))) => {
            let status = StatusCode::from_u16(resp.status().as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
            let body = resp.into_body().map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
            return (status, body).into_response();
        }
        Ok(Err(e)) => return unreachable(e.to_string()),
        Err(_) => return unreachable(format!("no answer within {PROXY_CONNECT_TIMEOUT_MS} ms")),
    };
    let send_timeout = Duration::from_millis(st.cfg.limits.send_timeout_ms);
    configure(ws, max_message_bytes).on_upgrade(move |socket| {
        permit.upgraded();
        pipe(socket, upstream, send_timeout, permit)
    })
}

/// Copies frames between a client and the owner node until either closes.
async fn pipe(
    mut client: WebSocket,
    mut upstream: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    send_timeout: Duration,
    _permit: Permit,
) {
    use tungstenite::Message as Up;
    loop {
        tokio::select! {
            msg = client.recv() => {
                let out = match msg {
                    Some(Ok(Message::Text(t))) => Up::Text(t.as_str().into()),
                    Some(Ok(Message::Binary(b))) => Up::Binary(b),
                    Some(Ok(Message::Close(f))) => {
                        let frame = f.map(|f| tungstenite::protocol::CloseFrame { code: f.code.into(), reason: f.reason.as_str().into() });
                        let _ = tokio::time::timeout(send_timeout, upstream.close(frame)).await;
                        return;
                    }
                    // Each side answers its own pings.
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Err(e)) => {
                        let why = format!("bad message: {e}");
                        let frame = tungstenite::protocol::CloseFrame { code: 1009.into(), reason: close_reason(&why).into() };
                        let _ = tokio::time::timeout(send_timeout, upstream.close(Some(frame))).await;
                        close(&mut client, 1009, &why, send_timeout).await;
                        return;
                    }
                    None => {
                        let _ = tokio::time::timeout(send_timeout, upstream.close(None)).await;
                        return;
                    }
                };
                if !matches!(tokio::time::timeout(send_timeout, upstream.send(out)).await, Ok(Ok(()))) {
                    close(&mut client, 1011, "the node that runs this room went away", send_timeout).await;
                    return;
                }
            }
            msg = upstream.next() => {
                let out = match msg {
                    Some(Ok(Up::Text(t))) => Message::Text(Utf8Bytes::from(t.as_str())),
                    Some(Ok(Up::Binary(b))) => Message::Binary(b),
                    Some(Ok(Up::Close(f))) => {
                        let (code, reason) = f.map_or((1000, String::new()), |f| (u16::from(f.code), f.reason.to_string()));
                        close(&mut client, code, &reason, send_timeout).await;
                        return;
                    }
                    Some(Ok(_)) => continue,
                    Some(Err(_)) | None => {
                        close(&mut client, 1012, "the node that runs this room went away: reconnect", send_timeout).await;
                        return;
                    }
                };
                if !send(&mut client, out, send_timeout).await {
                    let _ = tokio::time::timeout(send_timeout, upstream.close(None)).await;
                    return;
                }
            }
        }
    }
}

async fn send(socket: &mut WebSocket, msg: Message, timeout: Duration) -> bool {
    matches!(tokio::time::timeout(timeout, socket.send(msg)).await, Ok(Ok(())))
}

/// How long a socket that was sent a close frame is read (and what it
/// sends discarded) while waiting for the client's close or end of stream.
const CLOSE_WAIT_MS: u64 = 1000;

/// The longest close reason, in bytes: a close frame's payload is at most
/// 125 bytes, two of which are the code.
const CLOSE_REASON_BYTES_MAX: usize = 123;

/// `reason` cut to [`CLOSE_REASON_BYTES_MAX`] bytes on a character
/// boundary: the library sends a longer one as it is, which the client
/// then refuses as a broken frame instead of reading the reason.
fn close_reason(reason: &str) -> &str {
    let mut end = reason.len().min(CLOSE_REASON_BYTES_MAX);
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    &reason[..end]
}

/// Sends a close frame, then reads until the client closes too (at most
/// [`CLOSE_WAIT_MS`]), so that the client gets the reason; see [`Lingering`]
/// for why unread data matters (a socket whose last message was refused
/// cannot be read here, and lingers there instead).
async fn close(socket: &mut WebSocket, code: u16, reason: &str, timeout: Duration) {
    let frame = CloseFrame { code, reason: Utf8Bytes::from(close_reason(reason)) };
    if !matches!(tokio::time::timeout(timeout, socket.send(Message::Close(Some(frame)))).await, Ok(Ok(()))) {
        return;
    }
    let drain = async {
        while let Some(Ok(msg)) = socket.recv().await {
            if matches!(msg, Message::Close(_)) {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_millis(CLOSE_WAIT_MS), drain).await;
}

/// A token bucket: tokens refill at `rate` per second up to
/// `burst_secs` seconds' worth, which it starts with. Messages and bytes
/// of a WebSocket's client are both held to one.
struct Bucket {
    rate: f64,
    cap: f64,
    tokens: f64,
    at: Instant,
}

/// The burst of messages a client may send, in seconds of
/// `limits.messages_per_sec`.
const MESSAGE_BURST_SECONDS: f64 = 2.0;

impl Bucket {
    fn new(rate: f64, burst_secs: f64) -> Bucket {
        let cap = rate * burst_secs;
        Bucket { rate, cap, tokens: cap, at: Instant::now() }
    }

    /// A bucket of `messages_per_sec` messages (at least one).
    fn messages(messages_per_sec: u32) -> Bucket {
        Bucket::new(f64::from(messages_per_sec.max(1)), MESSAGE_BURST_SECONDS)
    }

    /// Takes `n` tokens if there are that many; false (and nothing taken)
    /// when there are not.
    fn take(&mut self, n: f64) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.cap);
        self.at = now;
        if self.tokens >= n {
            self.tokens -= n;
            true
        } else {
            false
        }
    }
}

async fn session(mut socket: WebSocket, st: Arc<AppState>, player: PlayerRef, kind: ConnKind, _permit: Permit) {
    let limits = st.cfg.limits.clone();
    let send_timeout = Duration::from_millis(limits.send_timeout_ms);
    let idle = Duration::from_millis(limits.idle_timeout_ms);
    let (tx, mut rx) = mpsc::channel(crate::room::CONN_QUEUE_LEN);
    let conn_id = st.conn_id();
    let (room, _seat) = match st.rooms.attach(player.clone(), kind, conn_id, tx).await {
        Ok(r) => r,
        Err(e) => {
            if kind == ConnKind::Page {
                let _ = send(&mut socket, Message::Text(envelope("error", &ErrorMsg { message: e.clone() }).into()), send_timeout).await;
            }
            close(&mut socket, 1013, &e, send_timeout).await;
            return;
        }
    };
    let mut frames = room.frames.clone();
    if kind == ConnKind::Page {
        let frame = frames.borrow_and_update().clone();
        let _ = send(&mut socket, Message::Text(Utf8Bytes::from(&*frame)), send_timeout).await;
    }
    let mut bucket = Bucket::messages(limits.messages_per_sec);
    // Binary messages are ignored; the player is told once per connection,
    // so that they cannot fill the room's queue with notes.
    let mut binary_noted = false;
    // A bot is idle when it has said nothing for `idle` since a board it
    // was sent: the clock runs from the first board after its last
    // message, so a bot that is asked nothing (a paused room, a dead snake
    // waiting for the next game) is never idle.
    let deadline = tokio::time::sleep(idle);
    tokio::pin!(deadline);
    let mut awaiting = false;
    let note = |note: String| RoomInput::Note { player_id: player.id.clone(), note };
    let reason: Option<(u16, String)> = loop {
        tokio::select! {
            out = rx.recv() => match out {
                Some(Outgoing::Text(t)) => {
                    if !send(&mut socket, Message::Text(Utf8Bytes::from(&*t)), send_timeout).await {
                        let _ = room.tx.try_send(note("disconnected: the client did not take a message in time".into()));
                        break None;
                    }
                }
                Some(Outgoing::Board(t, probe)) => {
                    if !send(&mut socket, Message::Text(Utf8Bytes::from(&*t)), send_timeout).await {
                        let _ = room.tx.try_send(note("disconnected: the client did not take a message in time".into()));
                        break None;
                    }
                    probe.sent();
                    if !std::mem::replace(&mut awaiting, true) {
                        deadline.as_mut().reset(Instant::now() + idle);
                    }
                }
                Some(Outgoing::Close(code, why)) => break Some((code, why)),
                // Only the runners of uploaded programs are sent these.
                Some(Outgoing::Ask(_) | Outgoing::Idle) => {}
                None => break Some((1001, "the room has closed".into())),
            },
            changed = frames.changed(), if kind == ConnKind::Page => {
                if changed.is_err() {
                    break Some((1001, "the room has closed".into()));
                }
                let frame = frames.borrow_and_update().clone();
                if !send(&mut socket, Message::Text(Utf8Bytes::from(&*frame)), send_timeout).await {
                    break None;
                }
            },
            msg = socket.recv() => match msg {
                None => break None,
                Some(Err(e)) => {
                    let (close, why) = read_error(&e.to_string(), limits.max_message_bytes);
                    // A page closed without a goodbye (a tab shut) is no
                    // news in its player's log of answers; its bot's is.
                    if kind != ConnKind::Page || close.is_some() {
                        let _ = room.tx.try_send(note(format!("disconnected: {why}")));
                    }
                    break close.map(|code| (code, why));
                }
                Some(Ok(Message::Close(_))) => break None,
                Some(Ok(msg)) => {
                    // Every frame counts against the limit, whatever its
                    // kind: each costs the server a read, and some a note.
                    awaiting = false;
                    if !bucket.take(1.0) {
                        let why = format!("flood: more than {} messages per second", limits.messages_per_sec);
                        let _ = room.tx.try_send(note(format!("disconnected: {why}")));
                        break Some((1008, why));
                    }
                    let text = match msg {
                        Message::Text(text) => text,
                        Message::Binary(_) => {
                            if !std::mem::replace(&mut binary_noted, true) {
                                let _ = room.tx.try_send(note("binary message ignored: send commands as text".into()));
                            }
                            continue;
                        }
                        Message::Ping(_) | Message::Pong(_) | Message::Close(_) => continue,
                    };
                    let text = text.as_str().to_string();
                    let input = match kind {
                        ConnKind::Bot | ConnKind::Code => RoomInput::Answer { player_id: player.id.clone(), conn_id, text },
                        ConnKind::Page => RoomInput::Key { player_id: player.id.clone(), text },
                    };
                    // A full room queue means the room is far behind; the
                    // answer is dropped rather than blocking the socket.
                    let _ = room.tx.try_send(input);
                }
            },
            _ = &mut deadline, if kind == ConnKind::Bot && awaiting => {
                let why = format!("idle: silent for {} s after a board", idle.as_secs());
                let _ = room.tx.try_send(note(format!("disconnected: {why}")));
                break Some((4008, why));
            }
        }
    };
    if let Some((code, why)) = reason {
        // What a client did wrong is the organiser's business too: a flood,
        // a message too large or broken, a bot gone silent.
        if matches!(code, 1002 | 1007 | 1008 | 1009 | 4008) {
            tracing::info!(player = %player.id, kind = ?kind, code, reason = %why, "closed a socket");
        }
        if kind == ConnKind::Page {
            let _ = send(&mut socket, Message::Text(envelope("error", &ErrorMsg { message: why.clone() }).into()), send_timeout).await;
        }
        close(&mut socket, code, &why, send_timeout).await;
    }
    let _ = tokio::time::timeout(Duration::from_secs(5), room.tx.send(RoomInput::Detach { player_id: player.id, conn_id })).await;
}

/// What to tell a client, and the room, about a socket that failed to
/// read: the close code (none when the connection is gone) and the reason.
/// The WebSocket library's errors arrive as text only (axum wraps them).
fn read_error(error: &str, max_message_bytes: usize) -> (Option<u16>, String) {
    if error.contains(BYTE_FLOOD) {
        (Some(1008), format!("flood: more than {max_message_bytes} bytes a message, or messages too many, for seconds on end"))
    } else if error.contains("Space limit exceeded") || error.contains("too long") {
        (Some(1009), format!("message too large: at most {max_message_bytes} bytes of UTF-8 text ({error})"))
    } else if error.contains("UTF-8") {
        (Some(1007), format!("a text message that is not UTF-8 ({error})"))
    } else if error.contains("without closing handshake") || error.contains("IO error") {
        (None, format!("connection lost ({error})"))
    } else {
        (Some(1002), format!("WebSocket protocol error ({error})"))
    }
}

#[cfg(test)]
mod tests {
    use super::{CLOSE_REASON_BYTES_MAX, close_reason, limit_key, read_error};

    #[test]
    fn ipv6_peers_are_counted_by_their_network() {
        let key = |s: &str| limit_key(s.parse().unwrap()).to_string();
        assert_eq!(key("203.0.113.7"), "203.0.113.7");
        assert_eq!(key("::ffff:203.0.113.7"), "203.0.113.7");
        assert_eq!(key("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::");
        assert_eq!(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff::9"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("::1"), "::");
    }

    #[test]
    fn close_reasons_fit_a_close_frame() {
        assert_eq!(close_reason("kicked by the organiser"), "kicked by the organiser");
        let long = "é".repeat(100);
        let cut = close_reason(&long);
        assert!(cut.len() <= CLOSE_REASON_BYTES_MAX && long.starts_with(cut), "{}", cut.len());
        assert_eq!(cut.len(), 122, "whole characters only");
        let ascii = "x".repeat(300);
        assert_eq!(close_reason(&ascii).len(), CLOSE_REASON_BYTES_MAX);
    }

    /// The WebSocket library's texts for each kind of failed read.
    #[test]
    fn read_errors_get_their_own_close_codes() {
        let check = |error: &str, code: Option<u16>, says: &str| {
            let (got, why) = read_error(error, 4096);
            assert_eq!(got, code, "{error}");
            assert!(why.contains(says), "{error}: {why}");
        };
        check("Space limit exceeded: Message too long: 16777216 > 4096", Some(1009), "at most 4096 bytes");
        check("UTF-8 encoding error", Some(1007), "not UTF-8");
        check("WebSocket protocol error: Connection reset without closing handshake", None, "connection lost");
        check("IO error: Connection reset by peer (os error 104)", None, "connection lost");
        check("WebSocket protocol error: Reserved bits are non-zero", Some(1002), "protocol error");
    }
}
