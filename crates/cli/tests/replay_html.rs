//! `replay FILE --html OUT` through the built binary: the page embeds the
//! re-simulated game (boards that match `replay`'s text, moves, stderr and
//! faults from the log next to the replay, the fork command with the
//! replay's path), rejects a bad replay exactly as `replay` does, and keeps
//! bot names and stderr as inert text.

mod common;

use common::{TempDir, snakepit, stderr, stdout};
use serde_json::Value;
use std::path::Path;

const EVIL_NAME: &str = "<img src=x onerror=alert(1)>";
const EVIL_LINE: &str = "</script><script>alert(1)</script><!-- & \u{2028}";

/// A multisnake bot in Python: a safe mover that says on stderr which turn
/// it is in, and writes markup on stderr in its third turn.
const STDERR_BOT: &str = r#"
import sys
MOVES = [("^", 0, -1), (">", 1, 0), ("v", 0, 1), ("<", -1, 0)]
w, h, _n, m, _t = map(int, sys.stdin.readline().split())
me = chr(64 + m)
turn = 0
while True:
    rows = [sys.stdin.readline().rstrip("\n") for _ in range(h)]
    if not rows[-1]:
        break
    turn += 1
    y = next(i for i, r in enumerate(rows) if me in r)
    x = rows[y].index(me)
    safe = [a for a, dx, dy in MOVES if rows[(y + dy) % h][(x + dx) % w] in ".+-"]
    print("tick %d" % turn, file=sys.stderr, flush=True)
    if turn == 3:
        print("</script><img src=x onerror=alert(1)>", file=sys.stderr, flush=True)
    print(safe[turn % len(safe)] if safe else "^", flush=True)
"#;

/// Runs `snakepit` with `args`, asserting success.
fn ok(args: &[&std::ffi::OsStr]) -> String {
    let out = snakepit(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// Plays a game with a replay at `replay`.
fn play(replay: &Path, args: &[&str]) {
    let mut all: Vec<&std::ffi::OsStr> = vec!["play".as_ref()];
    all.extend(args.iter().map(std::ffi::OsStr::new));
    all.extend(["--replay".as_ref(), replay.as_os_str()]);
    ok(&all);
}

/// Writes the page and returns it with the document it embeds.
fn html(replay: &Path, out: &Path) -> (String, Value) {
    ok(&["replay".as_ref(), replay.as_os_str(), "--html".as_ref(), out.as_os_str()]);
    let page = std::fs::read_to_string(out).unwrap();
    let doc = embedded(&page);
    (page, doc)
}

/// The JSON document inside the page's data element.
fn embedded(page: &str) -> Value {
    let open = "<script type=\"application/json\" id=\"replay-data\">";
    let start = page.find(open).expect("the page has the data element") + open.len();
    let len = page[start..].find("</script>").expect("the data element ends");
    serde_json::from_str(&page[start..start + len]).expect("the data is JSON")
}

/// Each tick's board from `replay FILE`'s text: index 0 is the start.
fn text_boards(text: &str, height: usize) -> Vec<Vec<String>> {
    let lines: Vec<&str> = text.lines().collect();
    let mut boards = vec![lines[1..=height].iter().map(|s| s.to_string()).collect()];
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("== tick ") {
            boards.push(lines[i + 1..=i + height].iter().map(|s| s.to_string()).collect());
        }
    }
    boards
}

/// Each tick's board from the document, by applying the changes in order.
fn doc_boards(doc: &Value) -> Vec<Vec<String>> {
    let width = doc["width"].as_u64().unwrap() as usize;
    let mut cells: Vec<char> = doc["start"]["b"].as_str().unwrap().chars().collect();
    let rows = |cells: &[char]| cells.chunks(width).map(|r| r.iter().collect()).collect::<Vec<String>>();
    let mut boards = vec![rows(&cells)];
    for tick in doc["ticks"].as_array().unwrap() {
        for pair in tick["b"].as_array().unwrap().chunks(2) {
            let at = pair[0].as_u64().unwrap() as usize;
            for (k, c) in pair[1].as_str().unwrap().chars().enumerate() {
                cells[at + k] = c;
            }
        }
        boards.push(rows(&cells));
    }
    boards
}

/// Each tick's status line from the document, index 0 the start.
fn doc_statuses(doc: &Value) -> Vec<String> {
    let mut parts: Vec<String> = doc["start"]["s"].as_str().unwrap().split(" | ").map(str::to_string).collect();
    let mut lines = vec![parts.join(" | ")];
    for tick in doc["ticks"].as_array().unwrap() {
        match &tick["s"] {
            Value::String(whole) => parts = whole.split(" | ").map(str::to_string).collect(),
            Value::Array(changes) => {
                for pair in changes.chunks(2) {
                    parts[pair[0].as_u64().unwrap() as usize] = pair[1].as_str().unwrap().to_string();
                }
            }
            other => panic!("\"s\" is {other}"),
        }
        lines.push(parts.join(" | "));
    }
    lines
}

#[test]
fn the_page_holds_every_tick_of_the_verified_game() {
    let dir = TempDir::new("html_every_tick");
    let replay = dir.join("sb.jsonl");
    play(
        &replay,
        &[
            "--seed",
            "2",
            "--ticks",
            "120",
            "--bot",
            "builtin:greedy",
            "--bot",
            "builtin:random",
            "--bot",
            "builtin:random",
        ],
    );
    let (page, doc) = html(&replay, &dir.join("sb.html"));

    assert!(page.starts_with("<!doctype html>"));
    assert!(
        page.contains("Content-Security-Policy\" content=\"default-src 'none'"),
        "the page may not reach the network"
    );
    assert!(!page.contains("src=\"http") && !page.contains("href=\"http"), "no outside resources");
    assert!(!page.contains("connect-src"), "the offline page may not fetch anything");

    let recorded: Vec<Value> =
        std::fs::read_to_string(&replay).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let header = &doc["header"];
    assert_eq!(doc["viewer"], 2);
    assert_eq!(header["game"], "snakebattle");
    // A string: seeds take 63 bits, more than a JavaScript number holds.
    assert_eq!(header["seed"], "2");
    assert_eq!(header["players"], recorded[0]["players"]);
    assert_eq!(doc["stderr_log"], false);
    // The page offers the fork command with the replay's path as given.
    assert_eq!(doc["fork"], serde_json::json!({"mode": "command", "file": replay.display().to_string()}));
    let ticks = doc["ticks"].as_array().unwrap();
    assert_eq!(ticks.len(), 120);
    for (tick, line) in ticks.iter().zip(&recorded[1..]) {
        assert_eq!(tick["t"], line["t"]);
        assert_eq!(tick["m"], line["m"], "tick {}", line["t"]);
        assert!(tick.get("log").is_none());
    }

    // The boards are exactly the ones `replay` prints, tick by tick.
    let text = ok(&["replay".as_ref(), replay.as_os_str()]);
    let height = doc["height"].as_u64().unwrap() as usize;
    let expected = text_boards(&text, height);
    assert_eq!(expected.len(), 121);
    assert_eq!(doc_boards(&doc), expected);
    // So are the status lines.
    let statuses: Vec<&str> = text.lines().filter(|l| l.starts_with("tick ")).collect();
    assert_eq!(doc_statuses(&doc), statuses);
}

#[test]
fn stderr_and_faults_come_from_the_log_next_to_the_replay() {
    let dir = TempDir::new("html_stderr");
    let bot = dir.write("bot.py", STDERR_BOT);
    let line = format!("python3 {}", bot.display());
    let replay = dir.join("ms.jsonl");
    let faulty = "sh -c 'read h; echo nope; sleep 5'";
    let bots = ["--bot", &line, "--bot", faulty, "--bot", &line, "--bot", "builtin:random"];
    let mut args = vec!["--game", "multisnake", "--seed", "4", "--ticks", "30"];
    args.extend(bots);
    play(&replay, &args);
    let log_text = std::fs::read_to_string(dir.join("ms.jsonl.stderr.jsonl")).unwrap();
    let (_, doc) = html(&replay, &dir.join("ms.html"));
    assert_eq!(doc["stderr_log"], true);

    let ticks = doc["ticks"].as_array().unwrap();
    let mut seen = 0;
    for entry in log_text.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()) {
        let t = entry["t"].as_u64().unwrap() as usize;
        let Some(tick) = ticks.get(t - 1) else { continue };
        let shown = tick["log"].as_array().unwrap().iter().find(|e| e["seat"] == entry["seat"]).unwrap();
        assert_eq!(shown["stderr"], entry["stderr"], "tick {t}");
        assert_eq!(shown["fault"], entry["fault"], "tick {t}");
        assert_eq!(shown["dropped"], entry["dropped"], "tick {t}");
        seen += 1;
    }
    assert!(seen >= 3, "{log_text}");
    // The Python bot's own words, and the other seat's fault with its bytes.
    assert_eq!(ticks[0]["log"][0]["stderr"][0], "tick 1");
    assert_eq!(ticks[0]["log"][1]["seat"], 1);
    assert!(ticks[0]["log"][1]["fault"].as_str().unwrap().contains("answer \"nope\""), "{}", ticks[0]["log"]);
    assert_eq!(ticks[2]["log"][0]["stderr"][1], "</script><img src=x onerror=alert(1)>");

    // Without the log the page says nothing was recorded.
    std::fs::remove_file(dir.join("ms.jsonl.stderr.jsonl")).unwrap();
    let (_, doc) = html(&replay, &dir.join("ms2.html"));
    assert_eq!(doc["stderr_log"], false);
    assert!(doc["ticks"].as_array().unwrap().iter().all(|t| t.get("log").is_none()));
}

#[test]
fn names_and_stderr_stay_text() {
    let dir = TempDir::new("html_escaping");
    let replay = dir.join("r.jsonl");
    play(
        &replay,
        &["--game", "multisnake", "--seed", "1", "--ticks", "10", "--bot", "builtin:random", "--bot", "builtin:random"],
    );
    // Player labels are not part of the game, so a header with other
    // labels still verifies.
    let text = std::fs::read_to_string(&replay).unwrap();
    let (first, rest) = text.split_once('\n').unwrap();
    let mut header: Value = serde_json::from_str(first).unwrap();
    header["players"] = serde_json::json!([EVIL_NAME, "b"]);
    std::fs::write(&replay, format!("{header}\n{rest}")).unwrap();
    let log = serde_json::json!({"t": 1, "seat": 0, "stderr": [EVIL_LINE], "dropped": 0, "fault": EVIL_NAME});
    dir.write("r.jsonl.stderr.jsonl", format!("{log}\n"));

    let (page, doc) = html(&replay, &dir.join("r.html"));
    assert_eq!(page.matches("</script>").count(), 3, "only the page's own three scripts end (the data, the board renderer, the player)");
    assert!(!page.contains("<img"), "no markup from the data");
    assert!(!page.contains("alert(1)</script>"));
    assert!(!page.contains('\u{2028}'));
    assert_eq!(doc["header"]["players"][0], EVIL_NAME);
    assert_eq!(doc["ticks"][0]["log"][0]["stderr"][0], EVIL_LINE);
    assert_eq!(doc["ticks"][0]["log"][0]["fault"], EVIL_NAME);
}

#[test]
fn a_bad_replay_fails_as_replay_does() {
    let dir = TempDir::new("html_bad_replay");
    let replay = dir.join("r.jsonl");
    play(&replay, &["--game", "duel", "--seed", "3", "--bot", "builtin:random", "--bot", "builtin:random"]);
    let good = std::fs::read_to_string(&replay).unwrap();
    let out = dir.join("r.html");

    // A move changed at tick 3 no longer matches the checksums: exit 1.
    let mut lines: Vec<String> = good.lines().map(str::to_string).collect();
    let mut tick: Value = serde_json::from_str(&lines[3]).unwrap();
    let m = tick["m"][0].as_str().unwrap().to_string();
    tick["m"][0] = Value::String(["U", "R", "D", "L"].into_iter().find(|d| *d != m).unwrap().to_string());
    lines[3] = tick.to_string();
    let diverged = lines.join("\n") + "\n";
    // A cut line is a defect of the file: exit 2.
    let cut = &good[..good.len() - 10];
    for (text, code) in [(diverged.as_str(), 1), (cut, 2), ("", 2), ("{\"snakepit_replay\":1,\"game\":\"chess\"}\n", 2)]
    {
        std::fs::write(&replay, text).unwrap();
        let printed = snakepit(["replay".as_ref(), replay.as_os_str()]);
        let paged = snakepit(["replay".as_ref(), replay.as_os_str(), "--html".as_ref(), out.as_os_str()]);
        assert_eq!(paged.status.code(), Some(code), "{}", stderr(&paged));
        assert_eq!(printed.status.code(), Some(code), "{}", stderr(&printed));
        assert_eq!(stderr(&paged), stderr(&printed));
        assert_eq!(stderr(&paged).lines().count(), 1, "{}", stderr(&paged));
        assert!(stderr(&paged).starts_with("error: "), "{}", stderr(&paged));
        assert!(!out.exists(), "no page for a bad replay");
    }
}

#[test]
fn a_bad_stderr_log_names_its_line() {
    let dir = TempDir::new("html_bad_log");
    let replay = dir.join("r.jsonl");
    play(&replay, &["--game", "duel", "--seed", "3", "--bot", "builtin:random", "--bot", "builtin:random"]);
    let log = dir.write("r.jsonl.stderr.jsonl", "{\"t\":1,\"seat\":0,\"stderr\":[]}\n{\"t\":2,\"seat\":7}\n");
    let out = snakepit(["replay".as_ref(), replay.as_os_str(), "--html".as_ref(), dir.join("r.html").as_os_str()]);
    common::assert_bad_input(&out, &log, "line 2: \"seat\" must be below 2");
}
