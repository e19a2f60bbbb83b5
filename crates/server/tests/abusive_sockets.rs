//! Clients that try to wear the server down over real sockets: frames of
//! every kind against the rate limit, a flood that would starve a room's
//! clock, spectators that talk, one address that opens socket after socket
//! or holds unfinished requests, connections that idle before they become
//! WebSockets, and a message too large to read. Each is held to its limit
//! with a close reason or a refusal, and the room keeps its clock
//! meanwhile. Timings are compared with the configured tick with wide
//! margins, as the machine may be busy.

mod common;

use common::*;
use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::{self, Message};

async fn register_for(addr: SocketAddr, name: &str, game: &str) -> (String, String) {
    let body = serde_json::json!({ "name": name, "game": game }).to_string();
    let (status, body) = http(addr, "POST", "/api/register", Some(&body), None).await;
    assert_eq!(status, 201, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    (v["id"].as_str().unwrap().into(), v["code"].as_str().unwrap().into())
}

async fn spectator(addr: SocketAddr, room: &str) -> Result<Ws, tungstenite::Error> {
    tokio_tungstenite::connect_async(format!("ws://{addr}/ws/room/{room}")).await.map(|(ws, _)| ws)
}

/// The tick of a spectator frame (`{"type":"frame","data":{"tick":N,..}}`).
fn tick_of(msg: &str) -> Option<u64> {
    let v: serde_json::Value = serde_json::from_str(msg).ok()?;
    v["data"]["tick"].as_u64()
}

/// Makes one frame of a flood.
type MakeFrame = fn() -> Message;

/// Sends `n` frames made by `make` as fast as the socket takes them, then
/// returns the close reason the server sent (if any, within 5 s).
async fn flood_then_close_reason(ws: &mut Ws, n: usize, make: impl Fn() -> Message) -> Option<String> {
    for _ in 0..n {
        if ws.send(make()).await.is_err() {
            break;
        }
    }
    close_reason(ws, FRAME_WAIT).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_kind_of_frame_counts_against_the_rate_limit() {
    let mut cfg = config(temp_db("frames"), 50);
    cfg.limits.messages_per_sec = 50;
    let server = start(cfg).await;
    let addr = server.addr;
    // The bucket holds two seconds' worth (100); 1000 frames break it
    // whatever their kind.
    let makers: [(&str, MakeFrame); 4] = [
        ("binary", || Message::Binary(Vec::new().into())),
        ("ping", || Message::Ping(Vec::new().into())),
        ("pong", || Message::Pong(Vec::new().into())),
        ("text", || Message::Text("UP".into())),
    ];
    for (kind, make) in makers {
        let (id, code) = register_for(addr, &format!("flood-{kind}"), "snakebattle").await;
        let mut ws = connect_bot(addr, &id, &code).await;
        let why = flood_then_close_reason(&mut ws, 1000, make).await;
        assert!(why.as_deref().is_some_and(|w| w.contains("flood")), "{kind} frames: {why:?}");
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn binary_frames_are_noted_once_per_connection() {
    let server = start(config(temp_db("binnote"), 50)).await;
    let addr = server.addr;
    let (id, code) = register_for(addr, "binary", "snakebattle").await;
    let mut bot = connect_bot(addr, &id, &code).await;
    let mut page = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/player?user={id}&code={code}")).await.unwrap().0;
    // Well within the rate limit, so the socket stays open.
    for _ in 0..15 {
        bot.send(Message::Binary(vec![1, 2, 3].into())).await.unwrap();
    }
    send(&mut bot, "UP").await;
    // The page is sent the seat's log (the last 20 entries) as it changes;
    // wait until the log shows the text answer, which came after the
    // binary frames.
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut notes = None;
    while Instant::now() < deadline {
        let Some(msg) = next_text(&mut page, Duration::from_secs(2)).await else { continue };
        let v: serde_json::Value = serde_json::from_str(&msg).unwrap();
        if v["type"] != "player" {
            continue;
        }
        let log = v["data"]["log"].as_array().cloned().unwrap_or_default();
        if log.iter().any(|e| e["text"] == "UP") {
            notes = Some(log.iter().filter(|e| e["note"].as_str().unwrap_or("").contains("binary message ignored")).count());
            break;
        }
    }
    assert_eq!(notes, Some(1), "15 binary frames, one note");
    assert!(next_text(&mut bot, FRAME_WAIT).await.is_some(), "the bot is still playing");
    server.shutdown().await;
}

/// A player's page closed without a goodbye (a tab shut) is no news in
/// the player's log of answers; their bot's connection lost is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_page_is_not_noted_but_a_lost_bot_is() {
    let server = start(config(temp_db("lostpage"), 50)).await;
    let addr = server.addr;
    let (id, code) = register_for(addr, "dropper", "snakebattle").await;
    let page_url = format!("ws://{addr}/ws/player?user={id}&code={code}");
    let mut bot = connect_bot(addr, &id, &code).await;
    assert!(next_text(&mut bot, FRAME_WAIT).await.is_some(), "the bot is seated");
    let first_page = tokio_tungstenite::connect_async(&page_url).await.unwrap().0;
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Both go without a close frame: the TCP connection just ends.
    drop(first_page);
    tokio::time::sleep(Duration::from_millis(200)).await;
    drop(bot);
    let mut page = tokio_tungstenite::connect_async(&page_url).await.unwrap().0;
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut lost = None;
    while Instant::now() < deadline && lost.is_none() {
        let Some(msg) = next_text(&mut page, Duration::from_secs(2)).await else { continue };
        let v: serde_json::Value = serde_json::from_str(&msg).unwrap();
        let log = v["data"]["log"].as_array().cloned().unwrap_or_default();
        let notes: Vec<String> = log.iter().filter_map(|e| e["note"].as_str()).filter(|n| n.contains("connection lost")).map(String::from).collect();
        if !notes.is_empty() {
            lost = Some(notes);
        }
    }
    assert_eq!(lost.map(|n| n.len()), Some(1), "the bot's loss only");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_inputs_does_not_stop_the_room_clock() {
    const TICK_MS: u64 = 50;
    let mut cfg = config(temp_db("roomflood"), TICK_MS);
    // No per-socket limit here: what is under test is the room's own
    // bound, which must hold even when many sockets share the flood.
    cfg.limits.messages_per_sec = 1_000_000;
    let server = start(cfg).await;
    let addr = server.addr;
    let mut flooders = Vec::new();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sent = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    for i in 0..3 {
        let (id, code) = register_for(addr, &format!("hexflood{i}"), "hex").await;
        let url = format!("ws://{addr}/codenjoy-contest/ws?user={id}&code={code}");
        let mut ws = tokio_tungstenite::connect_async(url).await.unwrap().0;
        let (stop, sent) = (stop.clone(), sent.clone());
        flooders.push(tokio::spawn(async move {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                // Batches of frames written at once: the room gets them
                // faster than one by one.
                for _ in 0..64 {
                    if ws.feed(Message::Text("ACT(1,1),UP".into())).await.is_err() {
                        return;
                    }
                }
                if ws.flush().await.is_err() {
                    return;
                }
                sent.fetch_add(64, std::sync::atomic::Ordering::Relaxed);
            }
        }));
    }
    let mut watcher = spectator(addr, "hex").await.unwrap();
    // Let the flood fill the room's queue before measuring.
    tokio::time::sleep(Duration::from_millis(500)).await;
    // The room ticks on under the flood: a starved room never gets 5 ticks
    // further, however long one waits. How many it makes a second depends
    // on the machine (the flood runs on the same two threads as the server)
    // and is only reported.
    let start = Instant::now();
    let (mut first, mut last) = (None, None);
    while last.unwrap_or(0) < first.unwrap_or(u64::MAX).saturating_add(5) {
        assert!(start.elapsed() < Duration::from_secs(60), "the room ticked from {first:?} to {last:?} in 60 s under the flood");
        let Some(msg) = next_text(&mut watcher, FRAME_WAIT).await else { break };
        if let Some(t) = tick_of(&msg) {
            first.get_or_insert(t);
            last = Some(t);
        }
    }
    let took = start.elapsed();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let sent = sent.load(std::sync::atomic::Ordering::Relaxed);
    println!("the room ticked from {first:?} to {last:?} in {took:?} under a flood of {sent} messages");
    assert!(last >= first.map(|f| f + 5), "the room stopped ticking under the flood: {first:?} to {last:?}");
    for f in flooders {
        let _ = tokio::time::timeout(Duration::from_secs(5), f).await;
    }
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_are_sent_frames_only_when_the_room_publishes() {
    const TICK_MS: u64 = 500;
    let mut cfg = config(temp_db("spectalk"), TICK_MS);
    cfg.limits.messages_per_sec = 50;
    let server = start(cfg).await;
    let addr = server.addr;
    let mut ws = spectator(addr, "hex").await.unwrap();
    assert!(next_text(&mut ws, FRAME_WAIT).await.is_some(), "the current frame at once");
    // Pings are allowed (at 20 a second, under the limit) and answered by
    // pongs, never by frames.
    let span = Duration::from_secs(2);
    let start = Instant::now();
    let mut frames = 0;
    let mut pings = 0;
    while start.elapsed() < span {
        ws.send(Message::Ping(b"keepalive".to_vec().into())).await.unwrap();
        pings += 1;
        let until = Instant::now() + Duration::from_millis(50);
        while let Ok(Some(msg)) = tokio::time::timeout_at(until, ws.next()).await {
            match msg {
                Ok(Message::Text(_)) => frames += 1,
                Ok(Message::Close(f)) => panic!("a spectator that pings is closed: {f:?}"),
                Ok(_) => {}
                Err(e) => panic!("{e}"),
            }
        }
    }
    // One frame per 500 ms tick is 4 in 2 s; a frame per ping would be 40.
    let most = span.as_millis() as u64 / TICK_MS + 3;
    println!("spectator frames for {pings} pings in {span:?}: {frames}");
    assert!(frames <= most, "{frames} frames for {pings} pings in {span:?} (at most {most} ticks' worth)");
    assert!(frames >= 1, "frames still come with the ticks");
    // A spectator that sends a message is told it sends nothing.
    send(&mut ws, "").await;
    let why = close_reason(&mut ws, FRAME_WAIT).await;
    assert_eq!(why.as_deref(), Some(snakepit_server::ws::SPECTATOR_SENT_REASON));
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_at_most_sockets_per_ip() {
    const CAP: usize = 4;
    let mut cfg = config(temp_db("perip"), 200);
    cfg.limits.sockets_per_ip = CAP;
    let server = start(cfg).await;
    let addr = server.addr;
    let (id, code) = register_for(addr, "capped", "snakebattle").await;
    let mut open = Vec::new();
    for _ in 0..CAP {
        open.push(spectator(addr, "hex").await.expect("sockets under the cap connect"));
    }
    let refused = |r: Result<Ws, tungstenite::Error>| match r {
        Err(tungstenite::Error::Http(resp)) => {
            let body = String::from_utf8_lossy(resp.body().as_deref().unwrap_or_default()).to_string();
            (resp.status().as_u16(), body)
        }
        Err(e) => panic!("expected a refusal, got {e}"),
        Ok(_) => (101, String::new()),
    };
    let (status, body) = refused(spectator(addr, "hex").await);
    assert_eq!(status, 429, "a spectator over the cap: {body}");
    assert!(body.contains(&format!("at most {CAP}")), "{body}");
    // Every kind of socket counts.
    let bot_url = format!("ws://{addr}/codenjoy-contest/ws?user={id}&code={code}");
    let (status, _) = refused(tokio_tungstenite::connect_async(bot_url.as_str()).await.map(|(ws, _)| ws));
    assert_eq!(status, 429, "a bot over the cap");
    // A closed socket frees its place.
    let mut one = open.pop().unwrap();
    one.close(None).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut bot = loop {
        match tokio_tungstenite::connect_async(bot_url.as_str()).await {
            Ok((ws, _)) => break ws,
            Err(_) if Instant::now() < deadline => tokio::time::sleep(Duration::from_millis(50)).await,
            Err(e) => panic!("the bot never got the freed place: {e}"),
        }
    };
    assert!(next_text(&mut bot, FRAME_WAIT).await.is_some(), "the bot plays");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_too_large_message_gets_its_close_reason() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = start(config(temp_db("toolarge"), 100)).await;
    let addr = server.addr;
    let (id, code) = register_for(addr, "huge", "snakebattle").await;
    // A plain TCP client that writes the whole message before it reads, as
    // simple clients do: a server that closes with the rest unread resets
    // the connection, and the close frame is lost with it.
    let mut s = raw_bot_socket(addr, &id, &code).await;
    // One masked text frame of 16 MiB (the limit is 4096 bytes), far more
    // than the kernel's buffers hold.
    let len: u64 = 16 << 20;
    let mut frame = vec![0x81u8, 0x80 | 127];
    frame.extend_from_slice(&len.to_be_bytes());
    frame.extend_from_slice(&[0, 0, 0, 0]);
    s.write_all(&frame).await.unwrap();
    let chunk = vec![b'A'; 64 * 1024];
    for _ in 0..len / chunk.len() as u64 {
        let written = tokio::time::timeout(Duration::from_secs(10), s.write_all(&chunk)).await.expect("the server reads on");
        written.expect("the server drains the refused message instead of resetting the connection");
    }
    let mut got = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut got)).await.expect("the server closes");
    read.expect("a clean end of stream, not a reset");
    // The close frame: 0x88, a length, the code (1009) and the reason.
    assert!(got.len() > 4 && got[0] == 0x88, "{got:?}");
    assert_eq!(u16::from_be_bytes([got[2], got[3]]), 1009);
    let reason = String::from_utf8_lossy(&got[4..]);
    assert!(reason.contains("at most 4096 bytes"), "{reason}");
    server.shutdown().await;
}

/// Sends `request` from a socket bound to `from` and reads the answer to
/// its end (or until 10 s pass).
async fn ask_from(from: &str, addr: SocketAddr, request: &str) -> String {
    use tokio::io::AsyncReadExt;
    let mut s = send_from(from, addr, request).await;
    let mut got = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut got)).await;
    String::from_utf8_lossy(&got).into_owned()
}

/// A connection from a socket bound to `from` (any 127.0.0.0/8 address is
/// this machine's) that has sent `request`.
async fn send_from(from: &str, addr: SocketAddr, request: &str) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(from.parse().unwrap()).unwrap();
    let mut s = socket.connect(addr).await.unwrap();
    s.write_all(request.as_bytes()).await.unwrap();
    s
}

/// A request whose head never ends.
const UNFINISHED_REQUEST: &str = "GET /api/rooms HTTP/1.1\r\nHost: x\r\n";

const ROOMS_REQUEST: &str = "GET /api/rooms HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

/// Asks for the rooms from `from` until the answer is 200, for at most 5 s
/// (a freed place is taken again once the server has seen the close).
async fn served_within_5_s(from: &str, addr: SocketAddr) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let again = ask_from(from, addr, ROOMS_REQUEST).await;
        if again.starts_with("HTTP/1.1 200") {
            return;
        }
        assert!(Instant::now() < deadline, "a freed place is taken again: {again:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holding_unfinished_requests_shuts_out_only_itself() {
    use tokio::io::AsyncReadExt;
    let mut cfg = config(temp_db("connsip"), 50);
    cfg.limits.connections_per_ip = 8;
    let server = start(cfg).await;
    let addr = server.addr;
    // Eight requests from 127.0.0.1 that never finish hold its places.
    let mut held = Vec::new();
    for _ in 0..8 {
        held.push(send_from("127.0.0.1:0", addr, UNFINISHED_REQUEST).await);
    }
    // The ninth is told why and closed.
    let refused = ask_from("127.0.0.1:0", addr, ROOMS_REQUEST).await;
    assert!(refused.starts_with("HTTP/1.1 429"), "{refused:?}");
    assert!(refused.ends_with("too many connections from your address\r\n"), "{refused:?}");
    // Another address is served meanwhile.
    let other = ask_from("127.0.0.2:0", addr, ROOMS_REQUEST).await;
    assert!(other.starts_with("HTTP/1.1 200"), "{other:?}");
    // One place freed, 127.0.0.1 gets in again.
    drop(held.pop());
    served_within_5_s("127.0.0.1:0", addr).await;
    // The held ones were never answered, and are still open.
    let mut s = held.pop().unwrap();
    let mut buf = [0u8; 16];
    let read = tokio::time::timeout(Duration::from_millis(300), s.read(&mut buf)).await;
    assert!(read.is_err(), "an unfinished request waits: {read:?}");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_takes_at_most_connections_max_in_all() {
    let mut cfg = config(temp_db("connsall"), 50);
    cfg.limits.connections_max = 3;
    let server = start(cfg).await;
    let addr = server.addr;
    // Three unfinished requests from three addresses take every place.
    let mut held = Vec::new();
    for from in ["127.0.0.3:0", "127.0.0.4:0", "127.0.0.5:0"] {
        held.push(send_from(from, addr, UNFINISHED_REQUEST).await);
    }
    let full = ask_from("127.0.0.6:0", addr, ROOMS_REQUEST).await;
    assert!(full.starts_with("HTTP/1.1 503"), "{full:?}");
    assert!(full.ends_with("the server has all the connections it takes\r\n"), "{full:?}");
    drop(held.pop());
    served_within_5_s("127.0.0.6:0", addr).await;
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_close_unless_they_are_websockets() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut cfg = config(temp_db("connidle"), 50);
    cfg.limits.http_idle_ms = 500;
    let server = start(cfg).await;
    let addr = server.addr;
    let mut watcher = spectator(addr, "hex").await.unwrap();
    // Half a request, then nothing: closed after the idle time.
    let mut half = send_from("127.0.0.1:0", addr, UNFINISHED_REQUEST).await;
    let sent = Instant::now();
    let mut buf = [0u8; 64];
    let read = tokio::time::timeout(FRAME_WAIT, half.read(&mut buf)).await;
    assert!(matches!(read, Ok(Ok(0)) | Ok(Err(_))), "closed: {read:?}");
    assert!(sent.elapsed() >= Duration::from_millis(400), "not before the idle time: {:?}", sent.elapsed());
    // A kept-alive connection that idles after its answer closes too.
    let mut kept = tokio::net::TcpStream::connect(addr).await.unwrap();
    kept.write_all(b"GET /api/rooms HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    let mut got = Vec::new();
    let read = tokio::time::timeout(FRAME_WAIT, kept.read_to_end(&mut got)).await;
    assert!(read.is_ok(), "the connection closes after its idle time");
    assert!(String::from_utf8_lossy(&got).starts_with("HTTP/1.1 200"), "the request was answered first");
    // The spectator has said nothing all along and still gets frames.
    let frame = |m: Option<String>| m.as_deref().and_then(tick_of).expect("a frame with its tick");
    let before = frame(next_text(&mut watcher, FRAME_WAIT).await);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut after = before;
    while after <= before + 10 {
        after = frame(next_text(&mut watcher, FRAME_WAIT).await);
    }
    server.shutdown().await;
}

/// A message that never ends (a text frame without FIN, then empty
/// continuation frames for ever) is counted by its bytes: the client is
/// closed as a flood within moments, not left to cost a core.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_that_never_ends_is_a_flood() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = start(config(temp_db("endless"), 100)).await;
    let addr = server.addr;
    let (id, code) = register_for(addr, "endless", "snakebattle").await;
    let (mut rd, mut wr) = raw_bot_socket(addr, &id, &code).await.into_split();
    let writer = tokio::spawn(async move {
        // A masked text frame without FIN holding "U" (mask 0: the byte
        // as it is), then masked empty continuation frames, 6 bytes each.
        let _ = wr.write_all(&[0x01, 0x81, 0, 0, 0, 0, b'U']).await;
        let chunk: Vec<u8> = [0x00u8, 0x80, 0, 0, 0, 0].repeat(10_000);
        let end = tokio::time::Instant::now() + Duration::from_secs(15);
        while tokio::time::Instant::now() < end {
            if wr.write_all(&chunk).await.is_err() {
                return true;
            }
        }
        false
    });
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let read = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match rd.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    assert!(read.is_ok(), "the server closed the connection");
    // Boards may come first; the close frame (0x88) ends what was sent.
    let at = got.iter().rposition(|&b| b == 0x88).expect("a close frame");
    assert_eq!(u16::from_be_bytes([got[at + 2], got[at + 3]]), 1008, "{:?}", &got[at..]);
    let reason = String::from_utf8_lossy(&got[at + 4..]);
    assert!(reason.contains("flood"), "{reason}");
    assert!(writer.await.unwrap(), "the server stopped taking frames");
    server.shutdown().await;
}

/// A bot's WebSocket opened by hand over plain TCP, its upgrade answer
/// read: the test writes frames as it likes.
async fn raw_bot_socket(addr: SocketAddr, id: &str, code: &str) -> tokio::net::TcpStream {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "GET /codenjoy-contest/ws?user={id}&code={code} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8; 1];
        assert_eq!(s.read(&mut byte).await.unwrap(), 1, "the upgrade answer");
        head.push(byte[0]);
    }
    assert!(head.starts_with(b"HTTP/1.1 101"), "{}", String::from_utf8_lossy(&head));
    s
}
