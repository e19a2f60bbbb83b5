//! A Battlesnake whose chunked answer announces a chunk of 2^64 - 1 bytes,
//! over a real TCP connection: the move is a bad answer, never a panic.

use std::time::Duration;

use snakepit_bots::http::{FaultKind, HttpError, HttpSnake};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// Answers the first request on the listener with `answer`, then holds the
/// connection open (so the client cannot take its end for the body's).
async fn answer_once(answer: &'static [u8]) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        let (mut conn, _) = listener.accept().await.unwrap();
        let mut request = [0u8; 4096];
        let _ = conn.read(&mut request).await;
        conn.write_all(answer).await.unwrap();
        tokio::time::sleep(Duration::from_secs(30)).await;
    });
    port
}

#[tokio::test]
async fn a_chunk_size_of_two_to_the_64_is_a_bad_answer() {
    let port = answer_once(
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\nffffffffffffffff\r\nabcd\r\n",
    )
    .await;
    let mut snake = HttpSnake::new(&format!("http://127.0.0.1:{port}")).unwrap();
    let outcome = snake.request_move("{}", Duration::from_secs(10)).await;
    match outcome.result {
        Err(HttpError::BadResponse(message)) => {
            assert!(message.contains("body limit"), "{message}");
        }
        other => panic!("expected a bad answer, got {other:?}"),
    }
    assert_eq!(snake.stats().faults_of(FaultKind::Io), 1);

    // The same snake, at a new address that answers well, still plays.
    let port = answer_once(
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n{\"move\": \"left\"}\r\n0\r\n\r\n",
    )
    .await;
    let mut snake = HttpSnake::new(&format!("http://127.0.0.1:{port}")).unwrap();
    let outcome = snake.request_move("{}", Duration::from_secs(10)).await;
    assert!(outcome.result.is_ok(), "{:?}", outcome.result);
}
