//! The HTTP transport against scripted servers on real sockets (port 0):
//! request shape, keep-alive, every way of framing an answer, and every
//! kind of failure, each classified and none of them fatal.

use snakepit_bots::http::{FaultKind, HttpError, HttpSnake};
use snakepit_engine::Dir;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The deadline of requests that must succeed: far longer than a loopback
/// answer takes on any machine, however loaded.
const TIMEOUT: Duration = Duration::from_secs(30);

/// The deadline of a request that must time out (its server never answers
/// in time).
const SHORT: Duration = Duration::from_millis(300);

/// A request as the server saw it.
#[derive(Clone, Debug)]
struct Seen {
    head: String,
    body: String,
    /// 0-based index of the connection it came on.
    conn: usize,
}

/// What the server does with one request.
struct Reply {
    bytes: Vec<u8>,
    delay: Duration,
    /// Close the connection after answering.
    close: bool,
    /// Answer only once this many requests (all sharing the barrier) have
    /// arrived: requests that are not in flight together never pass it.
    together: Option<Arc<tokio::sync::Barrier>>,
}

fn reply(bytes: impl Into<Vec<u8>>) -> Reply {
    Reply { bytes: bytes.into(), delay: Duration::ZERO, close: false, together: None }
}

fn ok_json(json: &str) -> Reply {
    reply(format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{json}", json.len()))
}

/// Serves requests with `script(request_index, &seen)`; returns the URL
/// and the log of requests.
async fn serve(script: impl Fn(usize, &Seen) -> Reply + Send + Sync + 'static) -> (String, Arc<Mutex<Vec<Seen>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/snake", listener.local_addr().unwrap());
    let log = Arc::new(Mutex::new(Vec::new()));
    let (script, log2) = (Arc::new(script), log.clone());
    tokio::spawn(async move {
        let mut conn_index = 0;
        loop {
            let Ok((stream, _)) = listener.accept().await else { return };
            let (script, log) = (script.clone(), log2.clone());
            let conn = conn_index;
            conn_index += 1;
            tokio::spawn(async move { handle(stream, conn, &*script, &log).await });
        }
    });
    (url, log)
}

async fn handle(mut stream: TcpStream, conn: usize, script: &(dyn Fn(usize, &Seen) -> Reply + Send + Sync), log: &Mutex<Vec<Seen>>) {
    let mut buf = Vec::new();
    loop {
        let head_end = loop {
            if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            let mut chunk = [0u8; 1024];
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        };
        let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
        let len: usize = head
            .lines()
            .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse().unwrap()))
            .unwrap_or(0);
        while buf.len() < head_end + len {
            let mut chunk = [0u8; 1024];
            let n = stream.read(&mut chunk).await.unwrap();
            buf.extend_from_slice(&chunk[..n]);
        }
        let body = String::from_utf8_lossy(&buf[head_end..head_end + len]).to_string();
        buf.drain(..head_end + len);
        let seen = Seen { head, body, conn };
        let index = {
            let mut log = log.lock().unwrap();
            log.push(seen.clone());
            log.len() - 1
        };
        let r = script(index, &seen);
        if let Some(barrier) = &r.together {
            barrier.wait().await;
        }
        tokio::time::sleep(r.delay).await;
        if stream.write_all(&r.bytes).await.is_err() || r.close {
            return;
        }
    }
}

#[tokio::test]
async fn requests_have_the_api_shape_and_reuse_one_connection() {
    let (url, log) = serve(|_, _| ok_json(r#"{"move":"left","shout":"hi"}"#)).await;
    let mut snake = HttpSnake::new(&url).unwrap();
    for turn in 0..5 {
        let body = format!(r#"{{"turn":{turn}}}"#);
        let out = snake.request_move(&body, TIMEOUT).await;
        let answer = out.result.unwrap();
        assert_eq!((answer.dir, answer.shout.as_deref()), (Dir::Left, Some("hi")));
    }
    snake.end("{}", TIMEOUT).await.unwrap();
    let log = log.lock().unwrap();
    assert_eq!(log.len(), 6);
    assert!(log[0].head.starts_with("POST /snake/move HTTP/1.1\r\n"), "{}", log[0].head);
    assert!(log[0].head.contains("\r\nContent-Type: application/json\r\n"));
    assert!(log[0].head.contains(&format!("\r\nHost: {}\r\n", url.trim_start_matches("http://").trim_end_matches("/snake"))));
    assert_eq!(log[3].body, r#"{"turn":3}"#);
    assert!(log[5].head.starts_with("POST /snake/end "));
    assert!(log.iter().all(|s| s.conn == 0), "keep-alive: every request on the first connection");
    let stats = snake.stats();
    assert_eq!((stats.connections, stats.moves, stats.faults_total()), (1, 5, 0));
}

#[tokio::test]
async fn info_is_a_get_of_the_root() {
    let (url, log) = serve(|_, _| ok_json(r##"{"apiversion":"1","author":"py","color":"#00ff00"}"##)).await;
    let mut snake = HttpSnake::new(&url).unwrap();
    let info = snake.info(TIMEOUT).await.unwrap();
    assert_eq!(info.author.as_deref(), Some("py"));
    assert!(log.lock().unwrap()[0].head.starts_with("GET /snake HTTP/1.1\r\n"));
}

/// A snake whose server redirects `/move` to `/move/` (a web framework's
/// trailing-slash rule) still plays: a 307 or 308 to the same server is
/// followed with the method and body, a 301 to another server is not.
#[tokio::test]
async fn redirects_to_the_same_server_are_followed() {
    let moved = |status: &str, to: &str| reply(format!("HTTP/1.1 {status} Moved\r\nLocation: {to}\r\nContent-Length: 0\r\n\r\n"));
    let (url, log) = serve(move |_, seen| {
        if seen.head.starts_with("POST /snake/move/ ") {
            ok_json(r#"{"move":"down"}"#)
        } else if seen.head.starts_with("POST /snake/move ") {
            moved("307 Temporary Redirect", "/snake/move/")
        } else if seen.head.starts_with("POST /snake/end ") {
            moved("308 Permanent Redirect", "http://elsewhere.example/end")
        } else {
            reply("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
        }
    })
    .await;
    let mut snake = HttpSnake::new(&url).unwrap();
    let out = snake.request_move(r#"{"turn":0}"#, TIMEOUT).await;
    assert_eq!(out.result.unwrap().dir, Dir::Down);
    {
        let log = log.lock().unwrap();
        assert_eq!(log.len(), 2);
        assert!(log[1].head.starts_with("POST /snake/move/ HTTP/1.1\r\n"), "{}", log[1].head);
        assert_eq!(log[1].body, r#"{"turn":0}"#, "a 307 keeps the body");
    }
    let end = snake.end("{}", TIMEOUT).await;
    assert!(matches!(end, Err(HttpError::Status { code: 308, .. })), "another server is not followed: {end:?}");
    assert_eq!(log.lock().unwrap().len(), 3);
}

/// A redirect that never ends stops after `REDIRECTS_MAX`.
#[tokio::test]
async fn a_redirect_loop_is_a_bad_answer() {
    let (url, log) = serve(|_, _| reply("HTTP/1.1 308 Loop\r\nLocation: /snake/move\r\nContent-Length: 0\r\n\r\n")).await;
    let mut snake = HttpSnake::new(&url).unwrap();
    let out = snake.request_move("{}", TIMEOUT).await;
    assert!(matches!(&out.result, Err(HttpError::BadResponse(m)) if m.contains("redirects")), "{:?}", out.result);
    assert_eq!(log.lock().unwrap().len(), snakepit_bots::http::REDIRECTS_MAX + 1);
}

#[tokio::test]
async fn chunked_answers_are_read() {
    let (url, _) = serve(|_, _| {
        reply("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"mov\r\n9;ext=1\r\ne\":\"down\"\r\n1\r\n}\r\n0\r\nX-Trailer: y\r\n\r\n")
    })
    .await;
    let mut snake = HttpSnake::new(&url).unwrap();
    for _ in 0..3 {
        assert_eq!(snake.request_move("{}", TIMEOUT).await.result.unwrap().dir, Dir::Down);
    }
    assert_eq!(snake.stats().connections, 1);
}

#[tokio::test]
async fn answers_framed_by_closing_are_read() {
    // HTTP/1.0 without a length, as Python's http.server sends by default.
    let (url, log) = serve(|_, _| Reply { close: true, ..reply("HTTP/1.0 200 OK\r\nServer: x\r\n\r\n{\"move\":\"right\"}") }).await;
    let mut snake = HttpSnake::new(&url).unwrap();
    for _ in 0..3 {
        assert_eq!(snake.request_move("{}", TIMEOUT).await.result.unwrap().dir, Dir::Right);
    }
    assert_eq!(snake.stats().connections, 3, "no reuse after a close-delimited answer");
    assert_eq!(log.lock().unwrap().len(), 3);
}

#[tokio::test]
async fn a_connection_closed_while_idle_is_replaced() {
    // The server promises keep-alive but closes after each answer: the next
    // request fails on the stale connection and is retried on a new one.
    let (url, _) = serve(|_, _| Reply { close: true, ..ok_json(r#"{"move":"up"}"#) }).await;
    let mut snake = HttpSnake::new(&url).unwrap();
    for _ in 0..4 {
        tokio::time::sleep(Duration::from_millis(5)).await;
        let out = snake.request_move("{}", TIMEOUT).await;
        assert_eq!(out.result.unwrap().dir, Dir::Up);
    }
    assert_eq!((snake.stats().connections, snake.stats().faults_total()), (4, 0));
}

#[tokio::test]
async fn a_slow_snake_times_out_and_the_next_request_works() {
    let (url, _) = serve(|i, _| {
        let mut r = ok_json(r#"{"move":"up"}"#);
        if i == 1 {
            // Never in time: the test is over long before.
            r.delay = Duration::from_secs(600);
        }
        r
    })
    .await;
    let mut snake = HttpSnake::new(&url).unwrap();
    assert!(snake.request_move("{}", TIMEOUT).await.result.is_ok());
    let slow = snake.request_move("{}", SHORT).await;
    assert_eq!(slow.result, Err(HttpError::Timeout(300)));
    assert_eq!(slow.latency, SHORT);
    // The late answer must not be read as this one's: a new connection.
    let next = snake.request_move("{}", TIMEOUT).await;
    assert_eq!(next.result.unwrap().dir, Dir::Up);
    let s = snake.stats();
    assert_eq!((s.faults_of(FaultKind::Timeout), s.connections), (1, 2));
    // The timed-out request counts as its deadline; the others took what
    // the machine gave them.
    assert!(s.latency_ms_max >= 300, "{}", s.latency_ms_max);
    assert_eq!(s.latency_ms_last, next.latency.as_millis() as u64);
}

#[tokio::test]
async fn failures_are_classified() {
    let (url, _) = serve(|i, _| match i {
        0 => reply("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\n\r\noops"),
        1 => ok_json(r#"{"move":"sideways"}"#),
        2 => ok_json("I am not JSON"),
        3 => ok_json(r#"{"shout":"no move"}"#),
        4 => Reply { close: true, ..reply("garbage\r\n\r\n") },
        _ => ok_json(r#"{"move":"up"}"#),
    })
    .await;
    let mut snake = HttpSnake::new(&url).unwrap();
    let mut kinds = Vec::new();
    let mut messages = Vec::new();
    for _ in 0..6 {
        let result = snake.request_move("{}", TIMEOUT).await.result;
        messages.push(result.as_ref().err().map(ToString::to_string).unwrap_or_default());
        kinds.push(result.map_err(|e| e.kind()).map(|a| a.dir));
    }
    // Each fault tells the snake's author what came back, bytes included.
    assert_eq!(messages[0], r#"HTTP status 500, body "oops""#);
    assert_eq!(messages[1], r#"bad move: "sideways""#);
    assert!(messages[2].starts_with("bad JSON: ") && messages[2].ends_with(r#"; the body: "I am not JSON""#), "{}", messages[2]);
    assert!(messages[3].ends_with(r#"; the body: "{\"shout\":\"no move\"}""#), "{}", messages[3]);
    assert!(messages[4].contains("garbage"), "{}", messages[4]);
    assert_eq!(
        kinds,
        vec![
            Err(FaultKind::Status),
            Err(FaultKind::BadMove),
            Err(FaultKind::BadJson),
            Err(FaultKind::BadJson),
            Err(FaultKind::Io),
            Ok(Dir::Up)
        ]
    );
    assert_eq!(snake.stats().faults_total(), 5);
}

#[tokio::test]
async fn a_long_or_binary_body_is_quoted_short_in_the_fault() {
    let body: Vec<u8> = [&[0xff, 0xfe, b'\n'][..], &[b'x'; 5000][..]].concat();
    let mut answer = format!("HTTP/1.1 502 Bad Gateway\r\nContent-Length: {}\r\n\r\n", body.len()).into_bytes();
    answer.extend_from_slice(&body);
    let (url, _) = serve(move |_, _| reply(answer.clone())).await;
    let mut snake = HttpSnake::new(&url).unwrap();
    let message = snake.request_move("{}", TIMEOUT).await.result.unwrap_err().to_string();
    assert!(message.starts_with(r#"HTTP status 502, body "\xff\xfe\nxxx"#), "{message}");
    assert!(message.ends_with("xx\"... (5003 bytes)"), "{message}");
    assert!(message.len() < 300, "{message}");
}

#[tokio::test]
async fn an_absent_snake_is_a_connect_error() {
    // Bind and drop, so that the port is very likely closed.
    let port = TcpListener::bind("127.0.0.1:0").await.unwrap().local_addr().unwrap().port();
    let mut snake = HttpSnake::new(&format!("http://127.0.0.1:{port}")).unwrap();
    let out = snake.request_move("{}", TIMEOUT).await;
    assert!(matches!(out.result, Err(HttpError::Connect(_))), "{:?}", out.result);
    assert!(matches!(snake.info(TIMEOUT).await, Err(HttpError::Connect(_))));
    assert_eq!(snake.stats().faults_of(FaultKind::Connect), 2);
}

#[tokio::test]
async fn oversized_answers_are_refused() {
    let (url, _) = serve(|_, _| reply("HTTP/1.1 200 OK\r\nContent-Length: 10000000\r\n\r\n{")).await;
    let mut snake = HttpSnake::new(&url).unwrap();
    let out = snake.request_move("{}", TIMEOUT).await;
    assert!(matches!(out.result, Err(HttpError::BadResponse(ref m)) if m.contains("limit")), "{:?}", out.result);
}

#[tokio::test]
async fn snakes_are_asked_concurrently_within_one_deadline() {
    // Four snakes that each answer only once all four have been asked:
    // asked one after the other, the first would never answer.
    let together = Arc::new(tokio::sync::Barrier::new(4));
    let mut snakes = Vec::new();
    for _ in 0..4 {
        let together = together.clone();
        let (url, _) = serve(move |_, _| Reply { together: Some(together.clone()), ..ok_json(r#"{"move":"up"}"#) }).await;
        snakes.push(HttpSnake::new(&url).unwrap());
    }
    let mut handles = Vec::new();
    for mut s in snakes {
        handles.push(tokio::spawn(async move { s.request_move("{}", TIMEOUT).await }));
    }
    for h in handles {
        let out = h.await.unwrap();
        assert!(out.result.is_ok(), "{:?}", out.result);
    }
}
