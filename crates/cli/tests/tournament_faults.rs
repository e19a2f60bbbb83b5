//! `snakepit tournament` with entrants that fail, through the built binary:
//! an HTTP snake whose server answers 500, one on a port nobody listens on,
//! a program that exits at once and one that cannot be run. Their games are
//! played by the rules without them, every other game is played as usual,
//! and each fault is in the results, the printed standings and the report
//! with its reason. A program that is not there at all refuses the
//! tournament before its first game.
//!
//! Before, the first snake that could not join stopped the whole
//! tournament, and a missing program stopped it after the games played
//! before its first one.

mod common;

use common::{TempDir, batched_files, snakepit, stderr, stdout};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;

/// A Battlesnake server that answers every request with a 500, on a port
/// of its own; it serves until the test binary ends.
fn failing_snake_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("address"));
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || answer_500(stream));
        }
    });
    url
}

/// Reads one request (headers and body) and answers it with a 500.
fn answer_500(stream: TcpStream) {
    let mut reader = BufReader::new(stream);
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
        if line == "\r\n" {
            break;
        }
    }
    let mut body = vec![0; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let mut stream = reader.into_inner();
    let _ = stream.write_all(b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\nConnection: close\r\n\r\noops");
}

/// A URL where nothing listens: a port taken from the system, then let go.
fn dead_snake_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("address"));
    drop(listener);
    url
}

/// One line of `results.jsonl`, read as JSON rather than as the library's
/// type, so that this test also runs (and fails) on a binary from before
/// faults were in the results.
#[derive(Debug)]
struct Played {
    game: u64,
    seats: Vec<usize>,
    places: Vec<u64>,
    ticks: u64,
    forfeits: Vec<u64>,
    /// `(seat, tick, reason)` of each seat's first fault.
    faults: Vec<(usize, u64, String)>,
}

fn results(dir: &Path) -> Vec<Played> {
    let text = std::fs::read_to_string(dir.join("results.jsonl")).unwrap_or_default();
    let numbers = |v: &Value| -> Vec<u64> { v.as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect() };
    text.lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let faults = v["faults"].as_array().map_or(Vec::new(), |fs| {
                fs.iter()
                    .map(|f| (f["seat"].as_u64().unwrap() as usize, f["tick"].as_u64().unwrap(), f["reason"].as_str().unwrap().to_string()))
                    .collect()
            });
            Played {
                game: v["game"].as_u64().unwrap(),
                seats: numbers(&v["seats"]).into_iter().map(|b| b as usize).collect(),
                places: numbers(&v["places"]),
                ticks: v["ticks"].as_u64().unwrap(),
                forfeits: numbers(&v["forfeits"]),
                faults,
            }
        })
        .collect()
}

fn tournament(args: &[String], out: &Path) -> std::process::Output {
    let mut all: Vec<&std::ffi::OsStr> = vec!["tournament".as_ref()];
    all.extend(args.iter().map(std::ffi::OsStr::new));
    all.extend(["--out".as_ref(), out.as_os_str()]);
    snakepit(&all)
}

#[test]
fn entrants_that_fail_lose_their_own_games_and_the_faults_are_reported() {
    let dir = TempDir::new("entrants_that_fail");
    let no_exec = dir.write("no-exec-bot", "#!/bin/sh\necho up\n");
    let entrants = [
        "g=builtin:greedy".to_string(),
        "r=builtin:random".to_string(),
        format!("err={}", failing_snake_server()),
        format!("down={}", dead_snake_url()),
        "crash=sh -c 'exit 3'".to_string(),
        format!("noexec={}", no_exec.display()),
    ];
    // Two seats a game: every pair of the six meets twice, once each side.
    let args = |jobs: &str| -> Vec<String> {
        let mut a: Vec<String> = ["--game", "battlesnake", "--seats", "2", "--games", "30", "--seed", "5", "--jobs", jobs]
            .iter()
            .map(ToString::to_string)
            .collect();
        for e in &entrants {
            a.extend(["--bot".to_string(), e.clone()]);
        }
        a
    };
    let out = tournament(&args("2"), &dir.join("t"));
    let (text, err) = (stdout(&out), stderr(&out));
    assert!(out.status.success(), "{err}");
    assert!(text.contains("30 of 30 games"), "{text}");

    // Why each failing entrant fails, as its seat's first fault says.
    let reasons: [(usize, &[&str]); 4] = [
        (2, &["could not join: HTTP status 500", "no move in this game"]),
        (3, &["could not join: cannot connect"]),
        (4, &["output ended", "exited with code 3"]),
        (5, &["could not start", "Permission denied"]),
    ];
    let failing = |bot: usize| reasons.iter().any(|&(b, _)| b == bot);
    let results = results(&dir.join("t"));
    assert_eq!(results.iter().map(|r| r.game).collect::<Vec<_>>(), (0..30).collect::<Vec<_>>());
    let files = batched_files(&dir.join("t/games"));
    for r in &results {
        assert!(files.contains_key(&format!("{:06}.jsonl", r.game)), "game {} has no replay", r.game);
        assert!(r.ticks > 0, "{r:?}");
        for (seat, &bot) in r.seats.iter().enumerate() {
            let fault = r.faults.iter().find(|f| f.0 == seat);
            if !failing(bot) {
                // The healthy entrants play as usual, and win against the
                // failing ones (this seed's games).
                assert_eq!((r.forfeits[seat], fault), (0, None), "{r:?}");
                if r.seats.iter().any(|&b| failing(b)) {
                    assert_eq!(r.places[seat], 1, "{r:?}");
                }
                continue;
            }
            let (_, tick, reason) = fault.unwrap_or_else(|| panic!("seat {seat} has no fault: {r:?}"));
            assert_eq!(*tick, 1, "{r:?}");
            for needle in reasons.iter().find(|&&(b, _)| b == bot).unwrap().1 {
                assert!(reason.contains(needle), "{needle:?} not in {r:?}");
            }
            // Times measured would make the file depend on the machine.
            assert!(!reason.contains(" ms"), "{r:?}");
            assert!(r.forfeits[seat] > 0, "{r:?}");
            let log = &files[&format!("{:06}.jsonl.stderr.jsonl", r.game)];
            assert!(log.contains(&format!("\"seat\":{seat}")), "game {}: {log}", r.game);
        }
    }
    // Greedy and random still meet twice, without a fault (seen above).
    let healthy: Vec<&Played> = results.iter().filter(|r| r.seats.iter().all(|&b| !failing(b))).collect();
    assert_eq!(healthy.len(), 2);

    // The standings say it, and so does the report.
    for (name, needle) in [("err", "HTTP status 500"), ("down", "cannot connect"), ("crash", "exited with code 3"), ("noexec", "could not start")] {
        let line = text
            .lines()
            .skip_while(|l| !l.starts_with("faults"))
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no fault line for {name}: {text}"));
        assert!(line.contains("in 10 of 10 games") && line.contains(needle), "{line}");
    }
    assert!(!text.lines().skip_while(|l| !l.starts_with("faults")).any(|l| l.starts_with("g ") || l.starts_with("r ")), "{text}");
    let report = std::fs::read_to_string(dir.join("t/report.html")).unwrap();
    assert!(report.contains("<table id=\"faults\">"), "{report}");
    assert!(report.contains("could not join: HTTP status 500"), "{report}");
    assert!(report.contains("exited with code 3"), "{report}");
    // A fault links to its game's replay page at its tick, and the page is there.
    let at = report.split("<table id=\"fault-list\">").nth(1).and_then(|t| t.split("#t=").next()).unwrap_or_else(|| panic!("{report}"));
    let page = at.rsplit("href=\"").next().unwrap();
    assert!(page.starts_with("games/") && page.ends_with(".html"), "{page}");
    assert!(dir.join("t").join(page).exists(), "{page} is in the folder");

    // Failing entrants do not make the files depend on --jobs.
    let again = tournament(&args("1"), &dir.join("one"));
    assert!(again.status.success(), "{}", stderr(&again));
    let file = |d: &str, f: &str| std::fs::read(dir.join(d).join(f)).unwrap();
    assert!(file("t", "results.jsonl") == file("one", "results.jsonl"), "results differ with --jobs");
    assert!(file("t", "report.html") == file("one", "report.html"), "reports differ with --jobs");
}

#[test]
fn a_program_that_is_not_there_refuses_the_tournament_before_any_game() {
    let dir = TempDir::new("a_program_that_is_not_there");
    let missing = dir.join("no-such-bot");
    let args: Vec<String> = ["--game", "duel", "--games", "6", "--jobs", "1", "--bot", "g=builtin:greedy", "--bot", "r=builtin:random"]
        .iter()
        .map(ToString::to_string)
        .chain(["--bot".to_string(), format!("miss={}", missing.display())])
        .collect();
    let out = tournament(&args, &dir.join("t"));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("bot miss") && err.contains("does not exist"), "{err}");
    assert!(results(&dir.join("t")).is_empty(), "games were played before the refusal");
}
