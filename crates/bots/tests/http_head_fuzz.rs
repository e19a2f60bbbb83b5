//! What a remote snake sends back, fuzzed: the HTTP response head (status
//! line, headers, `Content-Length`, interim 1xx answers) and the `GET /`
//! body. Reading any bytes never panics; a well-formed head reads as the
//! values it was written from; over a real socket, a snake that sends
//! interim answers before its move gets that move (up to the bound) and a
//! snake that sends garbage gets a classified fault before the deadline.

use proptest::prelude::*;
use snakepit_bots::http::{HttpError, HttpSnake, INTERIM_RESPONSES_MAX, ResponseHead, parse_response_head};
use snakepit_engine::Dir;
use snakepit_protocol::battlesnake::{InfoResponse, SHOUT_CHARS_MAX, parse_info};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// The deadline of requests over sockets: far above a loopback round trip,
/// so that a timeout means the client waited for bytes that never came, and
/// far longer than a loopback answer takes on any machine, however loaded.
const TIMEOUT: Duration = Duration::from_secs(30);

/// A head as a snake might write it, and the values it stands for.
#[derive(Clone, Debug)]
struct HeadModel {
    minor: u8,
    status: u16,
    reason: String,
    length: Option<(usize, bool)>,
    chunked: bool,
    connection: Option<&'static str>,
    /// Other headers, which change nothing.
    extra: Vec<(String, String)>,
    /// Upper case for the names of the headers that matter.
    shout_names: bool,
}

impl HeadModel {
    fn text(&self) -> String {
        let name = |n: &str| if self.shout_names { n.to_ascii_uppercase() } else { n.to_string() };
        let mut s = format!("HTTP/1.{} {} {}\r\n", self.minor, self.status, self.reason);
        for (k, v) in &self.extra {
            s.push_str(&format!("{k}:{v}\r\n"));
        }
        if let Some((n, twice)) = self.length {
            s.push_str(&format!("{}: {n}\r\n", name("Content-Length")));
            if twice {
                // The same value again is allowed; only different ones
                // make the body's end unknown.
                s.push_str(&format!("content-length:{n} \r\n"));
            }
        }
        if self.chunked {
            s.push_str(&format!("{}: gzip, chunked\r\n", name("Transfer-Encoding")));
        }
        if let Some(c) = self.connection {
            s.push_str(&format!("{}:  {c}\r\n", name("Connection")));
        }
        s.push_str("\r\n");
        s
    }

    fn expected(&self) -> ResponseHead {
        let mut keep_alive = match self.connection {
            Some(c) => !c.eq_ignore_ascii_case("close"),
            None => self.minor == 1,
        };
        if self.chunked && self.length.is_some() {
            keep_alive = false;
        }
        ResponseHead { status: self.status, content_length: self.length.map(|(n, _)| n), chunked: self.chunked, keep_alive, location: None }
    }
}

fn head_model() -> impl Strategy<Value = HeadModel> {
    (
        0u8..2,
        100u16..1000,
        "[ -~]{0,20}",
        proptest::option::of((0usize..100_000, any::<bool>())),
        any::<bool>(),
        proptest::option::of(prop::sample::select(vec!["close", "keep-alive", "Keep-Alive", "CLOSE"])),
        // Names that are none of the three that matter.
        prop::collection::vec(("X-[A-Za-z-]{1,10}", "[ -~]{0,30}"), 0..4),
        any::<bool>(),
    )
        .prop_map(|(minor, status, reason, length, chunked, connection, extra, shout_names)| HeadModel {
            minor,
            status,
            reason,
            length,
            chunked,
            connection,
            extra,
            shout_names,
        })
}

/// A change to bytes, as a faulty server or network might make.
#[derive(Clone, Debug)]
enum Mutation {
    Flip(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<usize>(), prop::sample::select(b"\r\n :0123456789-+ \xff".to_vec())).prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<usize>().prop_map(Mutation::Delete),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(bytes: &mut Vec<u8>, mutations: &[Mutation]) {
    for m in mutations {
        let len = bytes.len();
        match *m {
            Mutation::Flip(i, b) if len > 0 => bytes[i % len] ^= b,
            Mutation::Insert(i, b) => bytes.insert(i % (len + 1), b),
            Mutation::Delete(i) if len > 0 => {
                bytes.remove(i % len);
            }
            Mutation::Truncate(i) => bytes.truncate(i % (len + 1)),
            _ => {}
        }
    }
}

/// Whatever a head reader accepted is a head the client can act on.
fn check_accepted(head: &ResponseHead) {
    assert!((100..1000).contains(&head.status), "{head:?}");
    assert!(!(head.chunked && head.content_length.is_some() && head.keep_alive), "{head:?}");
}

/// A move's answer with a Content-Length body.
fn move_answer(dir: &str) -> Vec<u8> {
    let body = format!("{{\"move\":\"{dir}\"}}");
    format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// Runs one `/move` against a server on 127.0.0.1 that reads the request,
/// writes `parts` one by one (pausing a little between them so that they
/// tend to arrive in separate reads) and then closes the connection.
fn move_against(parts: Vec<Vec<u8>>) -> Result<Dir, HttpError> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async move {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let server = tokio::spawn(async move {
            let (mut conn, _) = listener.accept().await.unwrap();
            // The whole request, body included: closing a socket with
            // unread bytes resets it, which could drop the answer.
            let mut request = Vec::new();
            loop {
                if let Some(i) = request.windows(4).position(|w| w == b"\r\n\r\n") {
                    let head = String::from_utf8_lossy(&request[..i]).to_ascii_lowercase();
                    let len: usize =
                        head.lines().find_map(|l| l.strip_prefix("content-length:")).map_or(0, |v| v.trim().parse().unwrap());
                    if request.len() >= i + 4 + len {
                        break;
                    }
                }
                let mut chunk = [0u8; 1024];
                match conn.read(&mut chunk).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => request.extend_from_slice(&chunk[..n]),
                }
            }
            for (k, part) in parts.into_iter().enumerate() {
                if k > 0 {
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
                if conn.write_all(&part).await.is_err() {
                    return;
                }
            }
        });
        let mut snake = HttpSnake::new(&url).unwrap();
        let out = snake.request_move("{}", TIMEOUT).await;
        server.abort();
        out.result.map(|a| a.dir)
    })
}

/// Interim heads a snake may send before its answer.
fn interim_head() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::sample::select(vec![100u16, 102, 103, 150, 199]),
        prop::collection::vec(("[A-Za-z-]{1,10}", "[ -~]{0,30}"), 0..3),
    )
        .prop_map(|(status, headers)| {
            let mut s = format!("HTTP/1.1 {status} Interim\r\n");
            for (k, v) in headers {
                s.push_str(&format!("{k}: {v}\r\n"));
            }
            s.push_str("\r\n");
            s.into_bytes()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any bytes, up to a few KB: a head or an error, never a panic.
    #[test]
    fn any_bytes_read_as_a_head_or_an_error(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
        if let Ok(head) = parse_response_head(&bytes) {
            check_accepted(&head);
        }
    }

    /// Text shaped like a head, with arbitrary printable pieces in it.
    #[test]
    fn head_like_text_reads_as_a_head_or_an_error(
        version in prop::sample::select(vec!["HTTP/1.1", "HTTP/1.0", "HTTP/1.", "HTTP/2", "http/1.1", ""]),
        status in "[0-9+ -]{0,5}",
        lines in prop::collection::vec("[ -~]{0,40}", 0..8),
    ) {
        let text = format!("{version} {status} OK\r\n{}\r\n\r\n", lines.join("\r\n"));
        if let Ok(head) = parse_response_head(text.as_bytes()) {
            check_accepted(&head);
        }
    }

    /// A well-formed head reads as the values it was written from, with or
    /// without its final empty line.
    #[test]
    fn well_formed_heads_read_as_written(model in head_model(), trim in any::<bool>()) {
        let text = model.text();
        let text = if trim { text.trim_end_matches("\r\n").to_string() } else { text };
        prop_assert_eq!(parse_response_head(text.as_bytes()), Ok(model.expected()));
    }

    /// A well-formed head changed here and there: still never a panic.
    #[test]
    fn mutated_heads_read_as_a_head_or_an_error(model in head_model(), mutations in prop::collection::vec(mutation(), 1..6)) {
        let mut bytes = model.text().into_bytes();
        mutate(&mut bytes, &mutations);
        if let Ok(head) = parse_response_head(&bytes) {
            check_accepted(&head);
        }
    }

    /// Any `GET /` body: who the snake is, or an error; never a panic, and
    /// never a field longer than the cut.
    #[test]
    fn any_info_body_reads_or_fails(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        if let Ok(info) = parse_info(&bytes) {
            for field in [&info.apiversion, &info.author, &info.color, &info.head, &info.tail, &info.version].into_iter().flatten() {
                prop_assert!(field.chars().count() <= SHOUT_CHARS_MAX);
            }
        }
    }

    /// JSON-like bodies with the info keys holding values of every type.
    #[test]
    fn info_json_of_any_shape_reads_or_fails(
        entries in prop::collection::vec(
            (
                prop::sample::select(vec!["apiversion", "author", "color", "head", "tail", "version", "other", ""]),
                prop_oneof![
                    Just("null".to_string()),
                    Just("[]".to_string()),
                    Just("{}".to_string()),
                    any::<i64>().prop_map(|n| n.to_string()),
                    any::<bool>().prop_map(|b| b.to_string()),
                    ".{0,300}".prop_map(|s| serde_json::to_string(&s).unwrap()),
                    "[ -~]{0,12}",
                ],
            ),
            0..8,
        ),
        mutations in prop::collection::vec(mutation(), 0..3),
    ) {
        let body: Vec<String> = entries.iter().map(|(k, v)| format!("{k:?}:{v}")).collect();
        let mut bytes = format!("{{{}}}", body.join(",")).into_bytes();
        mutate(&mut bytes, &mutations);
        if let Ok(info) = parse_info(&bytes) {
            for field in [&info.apiversion, &info.author, &info.color, &info.head, &info.tail, &info.version].into_iter().flatten() {
                prop_assert!(field.chars().count() <= SHOUT_CHARS_MAX);
            }
        }
    }

    /// An info answer written by a snake (fields within the cut) reads back
    /// as itself.
    #[test]
    fn info_reads_back_as_written(
        fields in prop::collection::vec(proptest::option::of(".{0,40}"), 6),
    ) {
        let f = |i: usize| fields[i].clone();
        let info = InfoResponse { apiversion: f(0), author: f(1), color: f(2), head: f(3), tail: f(4), version: f(5) };
        prop_assert_eq!(parse_info(&serde_json::to_vec(&info).unwrap()), Ok(info));
    }
}

proptest! {
    // Each case opens a socket and a runtime: fewer cases keep the file fast.
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Interim answers before the move, in one write or several: the move
    /// of the same request up to the bound, a fault past it.
    #[test]
    fn interim_answers_then_the_move(
        interim in prop::collection::vec(interim_head(), 0..INTERIM_RESPONSES_MAX + 3),
        dir in prop::sample::select(vec![("up", Dir::Up), ("down", Dir::Down), ("left", Dir::Left), ("right", Dir::Right)]),
        apart in any::<bool>(),
    ) {
        let count = interim.len();
        let mut parts = interim;
        parts.push(move_answer(dir.0));
        let parts = if apart { parts } else { vec![parts.concat()] };
        match move_against(parts) {
            Ok(got) => prop_assert!(count <= INTERIM_RESPONSES_MAX && got == dir.1, "{count} interim, got {got:?}"),
            Err(HttpError::BadResponse(m)) => prop_assert!(count > INTERIM_RESPONSES_MAX && m.contains("interim"), "{count} interim: {m}"),
            Err(e) => prop_assert!(false, "{count} interim: {e:?}"),
        }
    }

    /// A well-formed answer changed here and there, sent by a snake that
    /// then closes the connection: a move or a classified fault, never a
    /// panic and never a wait for the deadline.
    #[test]
    fn mutated_answers_fail_cleanly(
        interim in prop::collection::vec(interim_head(), 0..3),
        mutations in prop::collection::vec(mutation(), 1..6),
        pieces in prop::collection::vec(any::<usize>(), 0..4),
    ) {
        let mut bytes = interim.concat();
        bytes.extend_from_slice(&move_answer("up"));
        mutate(&mut bytes, &mutations);
        let mut cuts: Vec<usize> = pieces.iter().map(|p| p % (bytes.len() + 1)).collect();
        cuts.push(0);
        cuts.push(bytes.len());
        cuts.sort_unstable();
        let parts: Vec<Vec<u8>> = cuts.windows(2).map(|w| bytes[w[0]..w[1]].to_vec()).collect();
        let result = move_against(parts);
        prop_assert!(!matches!(result, Err(HttpError::Timeout(_))), "{:?}: {result:?}", String::from_utf8_lossy(&bytes));
    }
}
