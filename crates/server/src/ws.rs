//! WebSocket sessions: bots, player pages and spectators.
//!
//! A session task owns its socket and nothing else. It forwards what the
//! client says to the room as [`RoomInput`]s and writes what the room hands
//! it. Every session is bounded: message size, messages per second, idle
//! time, and time to take a message. A client that breaks a limit gets a
//! close frame that says which, and only its own session ends.

use crate::app::{AppState, blocking};
use crate::room::{ConnKind, Outgoing, PlayerRef, RoomInput};
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use snakepit_protocol::spectator::{ErrorMsg, envelope};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, mpsc};
use tokio::time::Instant;

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
    let store = st.store.clone();
    match blocking(move || store.authenticate(&user, &code)).await {
        Ok(Some(p)) => Ok(PlayerRef { id: p.id, name: p.name, game: p.game }),
        Ok(None) => Err(unauthorized()),
        Err(e) => Err(e.into_response()),
    }
}

fn permit(st: &Arc<AppState>) -> Result<OwnedSemaphorePermit, Box<Response>> {
    st.sockets
        .clone()
        .try_acquire_owned()
        .map_err(|_| Box::new((StatusCode::SERVICE_UNAVAILABLE, "too many connections").into_response()))
}

/// `GET /codenjoy-contest/ws?user=ID&code=CODE`: a bot.
pub async fn bot_socket(State(st): State<Arc<AppState>>, Query(q): Q, ws: WebSocketUpgrade) -> Response {
    player_socket(st, q, ws, ConnKind::Bot).await
}

/// `GET /ws/player?user=ID&code=CODE`: a player's own page.
pub async fn page_socket(State(st): State<Arc<AppState>>, Query(q): Q, ws: WebSocketUpgrade) -> Response {
    player_socket(st, q, ws, ConnKind::Page).await
}

/// Authenticates a player's socket, takes a connection permit and starts
/// its session; bots and pages differ only in what the session does.
async fn player_socket(st: Arc<AppState>, q: BTreeMap<String, String>, ws: WebSocketUpgrade, kind: ConnKind) -> Response {
    let player = match authenticate(&st, &q).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    let permit = match permit(&st) {
        Ok(p) => p,
        Err(r) => return *r,
    };
    let max = st.cfg.limits.max_message_bytes;
    configure(ws, max).on_upgrade(move |socket| session(socket, st, player, kind, permit))
}

/// `GET /ws/room/NAME`: a spectator. Receives frames, sends nothing.
pub async fn spectator_socket(State(st): State<Arc<AppState>>, Path(name): Path<String>, ws: WebSocketUpgrade) -> Response {
    let Some(room) = st.rooms.get(&name) else {
        return (StatusCode::NOT_FOUND, "no such room").into_response();
    };
    let permit = match permit(&st) {
        Ok(p) => p,
        Err(r) => return *r,
    };
    let send_timeout = Duration::from_millis(st.cfg.limits.send_timeout_ms);
    configure(ws, 1024).on_upgrade(move |mut socket| async move {
        let _permit = permit;
        let mut frames = room.frames.clone();
        loop {
            let frame = frames.borrow_and_update().clone();
            if !send(&mut socket, Message::Text(Utf8Bytes::from(&*frame)), send_timeout).await {
                return;
            }
            tokio::select! {
                changed = frames.changed() => if changed.is_err() { break },
                msg = socket.recv() => match msg {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    Some(Ok(_)) => {}
                },
            }
        }
        close(&mut socket, 1001, "the room has closed", send_timeout).await;
    })
}

async fn send(socket: &mut WebSocket, msg: Message, timeout: Duration) -> bool {
    matches!(tokio::time::timeout(timeout, socket.send(msg)).await, Ok(Ok(())))
}

async fn close(socket: &mut WebSocket, code: u16, reason: &str, timeout: Duration) {
    let frame = CloseFrame { code, reason: Utf8Bytes::from(reason) };
    let _ = tokio::time::timeout(timeout, socket.send(Message::Close(Some(frame)))).await;
}

/// Tokens refill at `rate` per second up to a burst of `2 * rate`.
struct Bucket {
    rate: f64,
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn new(rate: u32) -> Bucket {
        let rate = f64::from(rate.max(1));
        Bucket { rate, tokens: rate * 2.0, at: Instant::now() }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.rate * 2.0);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

async fn session(mut socket: WebSocket, st: Arc<AppState>, player: PlayerRef, kind: ConnKind, _permit: OwnedSemaphorePermit) {
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
    let mut bucket = Bucket::new(limits.messages_per_sec);
    let deadline = tokio::time::sleep(idle);
    tokio::pin!(deadline);
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
                None | Some(Ok(Message::Close(_))) => break None,
                Some(Err(e)) => {
                    let why = format!("bad message (at most {} bytes of UTF-8 text): {e}", limits.max_message_bytes);
                    let _ = room.tx.try_send(note(format!("disconnected: {why}")));
                    break Some((1009, why));
                }
                Some(Ok(Message::Text(text))) => {
                    deadline.as_mut().reset(Instant::now() + idle);
                    if !bucket.take() {
                        let why = format!("flood: more than {} messages per second", limits.messages_per_sec);
                        let _ = room.tx.try_send(note(format!("disconnected: {why}")));
                        break Some((1008, why));
                    }
                    let text = text.as_str().to_string();
                    let input = match kind {
                        ConnKind::Bot | ConnKind::Code => RoomInput::Answer { player_id: player.id.clone(), conn_id, text },
                        ConnKind::Page => RoomInput::Key { player_id: player.id.clone(), text },
                    };
                    // A full room queue means the room is far behind; the
                    // answer is dropped rather than blocking the socket.
                    let _ = room.tx.try_send(input);
                }
                Some(Ok(Message::Binary(_))) => {
                    deadline.as_mut().reset(Instant::now() + idle);
                    let _ = room.tx.try_send(note("binary message ignored: send commands as text".into()));
                }
                Some(Ok(_)) => deadline.as_mut().reset(Instant::now() + idle),
            },
            _ = &mut deadline, if kind == ConnKind::Bot => {
                let why = format!("idle for {} s", idle.as_secs());
                let _ = room.tx.try_send(note(format!("disconnected: {why}")));
                break Some((4008, why));
            }
        }
    };
    if let Some((code, why)) = reason {
        if kind == ConnKind::Page {
            let _ = send(&mut socket, Message::Text(envelope("error", &ErrorMsg { message: why.clone() }).into()), send_timeout).await;
        }
        close(&mut socket, code, &why, send_timeout).await;
    }
    let _ = tokio::time::timeout(Duration::from_secs(5), room.tx.send(RoomInput::Detach { player_id: player.id, conn_id })).await;
}
