//! Process bots in SnakeBattle, Battlesnake and Hex through the built
//! binary: small Python bots written here play whole short games next to
//! the built-in bots, in the JSON-lines protocol and in each arena's own
//! message and command; the replays verify; a bot that answers garbage is
//! reported with its bytes and the game goes on.

mod common;

use common::{TempDir, play_and_verify, snakepit, stderr, stdout};
use std::path::PathBuf;

/// Writes a Python bot into `dir` and returns its command line (with the
/// script's absolute path, so that the sandbox copies it in).
fn python_bot(dir: &TempDir, name: &str, source: &str) -> String {
    let path: PathBuf = dir.write(name, source);
    format!("python3 {}", path.display())
}


/// The recorded moves of `seat`, tick by tick.
fn moves_of(replay: &str, seat: usize) -> Vec<String> {
    replay
        .lines()
        .skip(1)
        .map(|l| {
            let tick: serde_json::Value = serde_json::from_str(l).unwrap();
            tick["m"][seat].as_str().unwrap().to_string()
        })
        .collect()
}

/// The result table's row of `seat`, split in columns.
fn row(out: &str, seat: usize) -> Vec<String> {
    let prefix = format!("{seat:>4}  ");
    let line = out.lines().find(|l| l.starts_with(&prefix)).unwrap_or_else(|| panic!("no row {seat}: {out}"));
    line.split_whitespace().map(str::to_string).collect()
}

/// A bot that answers every line with `nope`, without the cost of a
/// Python start-up at every restart.
const GARBAGE: &str = "sh -c 'while read l; do echo nope; done'";

/// SnakeBattle JSON: the snake avoids every cell that kills (walls, start
/// floors, bodies) when it can, and says on stderr what it saw once.
const SNAKEBATTLE_JSON: &str = r##"
import json, sys
DIRS = {"up": (0, -1), "right": (1, 0), "down": (0, 1), "left": (-1, 0)}
for line in sys.stdin:
    s = json.loads(line)
    assert s["game"] == "snakebattle" and len(s["cells"]) == s["height"] == s["width"]
    me = next(x for x in s["snakes"] if x["seat"] == s["you"])
    if s["tick"] == 0:
        print("seen", s["width"], "fury" in me, file=sys.stderr, flush=True)
    taken = {tuple(c) for x in s["snakes"] for c in x["body"]}
    answer = {"move": "right"}
    if me["body"]:
        hx, hy = me["body"][0]
        for word, (dx, dy) in DIRS.items():
            x, y = hx + dx, hy + dy
            if 0 <= y < s["height"] and 0 <= x < s["width"] and s["cells"][y][x] not in "#_" and (x, y) not in taken:
                answer = {"move": word, "act": me["stones"] > 0}
                break
    print(json.dumps(answer), flush=True)
"##;

/// SnakeBattle text: reads the `board=` frame, finds its own head by the
/// "my" glyphs, and answers a Codenjoy command towards a free cell.
const SNAKEBATTLE_TEXT: &str = r##"
import sys
HEADS = "▼◄►▲♥♠"
for line in sys.stdin:
    assert line.startswith("board=") and line.endswith("\n")
    board = line[len("board="):-1]
    n = int(len(board) ** 0.5)
    assert n * n == len(board)
    answer = "RIGHT"
    heads = [i for i, c in enumerate(board) if c in HEADS]
    if heads:
        x, y = heads[0] % n, heads[0] // n
        for word, dx, dy in (("UP", 0, -1), ("RIGHT", 1, 0), ("DOWN", 0, 1), ("LEFT", -1, 0)):
            if board[(y + dy) * n + x + dx] in " ○$®©":
                answer = word
                break
    print(answer, flush=True)
"##;

#[test]
fn snakebattle_json_and_text_bots_play_with_builtins() {
    let dir = TempDir::new("snakebattle_process_bots");
    let json_bot = format!("json:{}", python_bot(&dir, "sb_json.py", SNAKEBATTLE_JSON));
    let text_bot = python_bot(&dir, "sb_text.py", SNAKEBATTLE_TEXT);
    let (out, err, replay) = play_and_verify(
        &dir,
        &["--game", "snakebattle", "--seed", "4", "--ticks", "60", "--bot", &json_bot, "--bot", &text_bot, "--bot", "builtin:greedy"],
    );
    assert!(out.starts_with("snakebattle: 60 ticks, seed 4\n"), "{out}");
    assert!(!err.contains("forfeits"), "{err}");
    assert_eq!(row(&out, 0).last().map(String::as_str), Some("0"), "no forfeits: {out}");
    // The countdown over, both process snakes steer: not every move is
    // "keep going".
    for seat in [0, 1] {
        assert!(moves_of(&replay, seat).iter().any(|m| m != "-"), "seat {seat} never moved: {replay}");
    }
    let log = std::fs::read_to_string(dir.join("r.jsonl.stderr.jsonl")).unwrap();
    assert!(log.contains("\"stderr\":[\"seen 30 True\"]") && log.contains("\"seat\":0"), "{log}");
}

#[test]
fn snakebattle_garbage_is_reported_and_the_game_goes_on() {
    let dir = TempDir::new("snakebattle_garbage");
    let (out, err, _) =
        play_and_verify(&dir, &["--game", "snakebattle", "--seed", "2", "--ticks", "12", "--bot", GARBAGE, "--bot", "builtin:random"]);
    assert!(out.starts_with("snakebattle: 12 ticks"), "{out}");
    let expected = format!("tick 1: seat 0 ({GARBAGE}) forfeits: answer \"nope\": not a move; expected a Codenjoy command");
    assert!(err.contains(&expected), "{err}");
    // Every tick asks the seat again, with a fresh process.
    assert_eq!(row(&out, 0).last().map(String::as_str), Some("12"), "{out}");
    let log = std::fs::read_to_string(dir.join("r.jsonl.stderr.jsonl")).unwrap();
    assert_eq!(log.lines().count(), 12, "{log}");
    assert!(log.lines().next().unwrap().contains("answer \\\"nope\\\": not a move"), "{log}");
}

/// Battlesnake JSON: a safe move in the protocol's coordinates (`y` from
/// the top), shouting nothing.
const BATTLESNAKE_JSON: &str = r##"
import json, sys
DIRS = {"up": (0, -1), "right": (1, 0), "down": (0, 1), "left": (-1, 0)}
for line in sys.stdin:
    s = json.loads(line)
    assert s["game"] == "battlesnake"
    me = next(x for x in s["snakes"] if x["seat"] == s["you"])
    assert 0 < me["health"] <= 100
    taken = {tuple(c) for x in s["snakes"] for c in x["body"][:-1]}
    hx, hy = me["body"][0]
    answer = "up"
    for word, (dx, dy) in DIRS.items():
        x, y = hx + dx, hy + dy
        if 0 <= x < s["width"] and 0 <= y < s["height"] and (x, y) not in taken:
            answer = word
            break
    print(json.dumps({"move": answer}), flush=True)
"##;

/// Battlesnake text: the official `/move` body, in the API's coordinates
/// (`y` up), answered as an HTTP snake would, with a shout that the next
/// request must carry back.
const BATTLESNAKE_TEXT: &str = r##"
import json, sys
DIRS = {"up": (0, 1), "right": (1, 0), "down": (0, -1), "left": (-1, 0)}
last = ""
for line in sys.stdin:
    r = json.loads(line)
    you = r["you"]
    if r["turn"] > 0 and you["shout"] == last:
        print("shout back", last, file=sys.stderr, flush=True)
    board = r["board"]
    taken = {(c["x"], c["y"]) for s in board["snakes"] for c in s["body"][:-1]}
    head = you["head"]
    answer = "up"
    for word, (dx, dy) in DIRS.items():
        x, y = head["x"] + dx, head["y"] + dy
        if 0 <= x < board["width"] and 0 <= y < board["height"] and (x, y) not in taken:
            answer = word
            break
    last = "turn %d" % r["turn"]
    print(json.dumps({"move": answer, "shout": last}), flush=True)
"##;

#[test]
fn battlesnake_json_and_text_bots_play_with_builtins() {
    let dir = TempDir::new("battlesnake_process_bots");
    let json_bot = format!("json:{}", python_bot(&dir, "bs_json.py", BATTLESNAKE_JSON));
    let text_bot = python_bot(&dir, "bs_text.py", BATTLESNAKE_TEXT);
    let (out, err, replay) = play_and_verify(
        &dir,
        &["--game", "battlesnake", "--seed", "7", "--ticks", "300", "--bot", &json_bot, "--bot", &text_bot, "--bot", "builtin:random"],
    );
    assert!(out.starts_with("battlesnake: "), "{out}");
    assert!(!err.contains("forfeits"), "{err}");
    for seat in [0, 1] {
        assert_eq!(row(&out, seat).last().map(String::as_str), Some("forfeits"), "{out}");
        assert_eq!(row(&out, seat)[row(&out, seat).len() - 2], "0", "{out}");
        let moves = moves_of(&replay, seat);
        // A snake that answered every turn has no "-" before it was out.
        let played = moves.iter().take_while(|m| m.as_str() != "-").count();
        assert!(played >= 2, "seat {seat}: {moves:?}");
    }
    let log = std::fs::read_to_string(dir.join("r.jsonl.stderr.jsonl")).unwrap();
    assert!(log.contains("shout back turn 0"), "the shout comes back in the next request: {log}");
}

#[test]
fn battlesnake_garbage_is_reported_and_the_snake_keeps_going() {
    let dir = TempDir::new("battlesnake_garbage");
    let (out, err, replay) = play_and_verify(
        &dir,
        &["--game", "battlesnake", "--ruleset", "solo", "--seed", "3", "--bot", GARBAGE],
    );
    // Up, then up again into the wall: the solo game ends by its rules.
    assert!(out.starts_with("battlesnake: 2 ticks") && out.contains("solo: survived 1 turns"), "{out}");
    assert!(err.contains(&format!("tick 1: seat 0 ({GARBAGE}) forfeits: answer \"nope\": not a JSON object")), "{err}");
    // No move: the rules repeat the last one, and the replay says so.
    assert_eq!(moves_of(&replay, 0), ["-", "-"]);
}

/// Hex JSON: clones its first piece onto a free neighbour, or jumps.
const HEX_JSON: &str = r##"
import json, sys
DIRS = (("up", 0, -1), ("right", 1, 0), ("down", 0, 1), ("left", -1, 0))
for line in sys.stdin:
    s = json.loads(line)
    assert s["game"] == "hex" and s["snakes"] == []
    me = s["players"][s["you"]]
    mine = str(s["you"])
    answer = {"from": [0, 0], "move": "up"}
    for x, y in me["pieces"]:
        assert s["cells"][y][x] == mine
        free = [(w, dx, dy) for w, dx, dy in DIRS if s["cells"][y + dy][x + dx] == "."]
        if free:
            answer = {"from": [x, y], "move": free[0][0]}
            break
        answer = {"from": [x, y], "move": "up", "jump": True}
    print(json.dumps(answer), flush=True)
"##;

/// Hex text: the `board=` frame, its own pieces `☺`, answered with
/// `ACT(x,y),DIR` (`y` from the top).
const HEX_TEXT: &str = r##"
import sys
for line in sys.stdin:
    assert line.startswith("board=")
    board = line[len("board="):-1]
    n = int(len(board) ** 0.5)
    answer = ""
    for i, c in enumerate(board):
        if c != "☺":
            continue
        x, y = i % n, i // n
        for word, dx, dy in (("LEFT", -1, 0), ("DOWN", 0, 1), ("RIGHT", 1, 0), ("UP", 0, -1)):
            if board[(y + dy) * n + x + dx] == " ":
                answer = "ACT(%d,%d),%s" % (x, y, word)
                break
        if answer:
            break
    print(answer, flush=True)
"##;

#[test]
fn hex_json_and_text_bots_play_with_builtins() {
    let dir = TempDir::new("hex_process_bots");
    let json_bot = format!("json:{}", python_bot(&dir, "hex_json.py", HEX_JSON));
    let text_bot = python_bot(&dir, "hex_text.py", HEX_TEXT);
    let (out, err, replay) = play_and_verify(
        &dir,
        &["--game", "hex", "--seed", "5", "--ticks", "40", "--bot", &json_bot, "--bot", &text_bot, "--bot", "builtin:greedy"],
    );
    assert!(out.starts_with("hex: 40 ticks, seed 5\n"), "{out}");
    assert!(!err.contains("forfeits"), "{err}");
    for seat in [0, 1] {
        assert_eq!(row(&out, seat).last().map(String::as_str), Some("0"), "{out}");
        let clones = moves_of(&replay, seat).iter().filter(|m| m.starts_with('C')).count();
        assert!(clones >= 5, "seat {seat} cloned {clones} times: {replay}");
    }
    // `replay` prints the Hex game it verifies.
    let printed = snakepit(["replay".as_ref(), dir.join("r.jsonl").as_os_str()]);
    assert!(printed.status.success(), "{}", stderr(&printed));
    assert!(stdout(&printed).contains("== tick 40: moves "), "{}", stdout(&printed));
}

#[test]
fn hex_garbage_is_reported_and_forks_replay_the_game() {
    let dir = TempDir::new("hex_garbage");
    let (out, err, replay) =
        play_and_verify(&dir, &["--game", "hex", "--seed", "1", "--ticks", "10", "--bot", GARBAGE, "--bot", "builtin:random"]);
    assert!(out.starts_with("hex: 10 ticks"), "{out}");
    assert!(err.contains(&format!("tick 1: seat 0 ({GARBAGE}) forfeits: answer \"nope\": not a move; expected a Hex command")), "{err}");
    assert_eq!(moves_of(&replay, 0), vec!["-"; 10]);
    // A fork from tick 4 with the same players plays the same game.
    let fork = dir.join("fork.jsonl");
    let out = snakepit([
        "replay".as_ref(),
        dir.join("r.jsonl").as_os_str(),
        "--from-tick".as_ref(),
        "4".as_ref(),
        "--replay".as_ref(),
        fork.as_os_str(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&fork).unwrap(), replay);
}

#[test]
fn a_program_that_is_not_there_is_refused_before_the_game() {
    for game in ["snakebattle", "hex", "battlesnake", "duel"] {
        let out = snakepit(["play", "--game", game, "--bot", "./no/such/bot.py", "--bot", "builtin:random"]);
        assert_eq!(out.status.code(), Some(2), "{game}: {}", stderr(&out));
        assert!(stderr(&out).contains("./no/such/bot.py does not exist"), "{}", stderr(&out));
    }
    // A script that is not there, a program no PATH has, and a built-in
    // named as a program (after `json:`) are refused the same way.
    for (bot, says) in [
        ("python3 ./nope.py", "./nope.py does not exist"),
        ("python3 nope.py", "nope.py does not exist"),
        ("nope-cmd-xyz", "no program nope-cmd-xyz in /usr/local/bin:/usr/bin:/bin"),
        ("json:builtin:random", "no program builtin:random in"),
    ] {
        let out = snakepit(["play", "--game", "duel", "--bot", bot, "--bot", "builtin:random"]);
        assert_eq!(out.status.code(), Some(2), "{bot}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{bot}: {}", stderr(&out));
    }
}

/// `python3 bot.py`, with the script in the folder snakepit runs in (as
/// the README writes it), plays: the script is copied into the bot's
/// folder under its own name.
#[test]
fn a_script_named_without_a_path_is_found_in_the_working_folder() {
    let dir = TempDir::new("bare_script");
    dir.write("bot.py", "import sys\nfor line in sys.stdin:\n    print('0', flush=True)\n");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_snakepit"))
        .current_dir(dir.join(""))
        .args(["play", "--game", "duel", "--seed", "3", "--bot", "python3 bot.py", "--bot", "builtin:random", "--bot-stderr"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("can't open file"), "{}", stderr(&out));
    // seat, "python3 bot.py", score, forfeits, state.
    assert_eq!(row(&stdout(&out), 0).get(4).map(String::as_str), Some("0"), "no forfeits: {}", stdout(&out));
}

#[test]
fn hex_plays_on_a_drawn_map() {
    let dir = TempDir::new("hex_drawn_map");
    let map = dir.write("small.txt", "☼☼☼☼☼☼☼\n☼     ☼\n☼  ☼  ☼\n☼     ☼\n☼  ☼  ☼\n☼     ☼\n☼☼☼☼☼☼☼\n");
    let (out, _, replay) = play_and_verify(
        &dir,
        &["--game", "hex", "--seed", "2", "--ticks", "15", "--map", map.to_str().unwrap(), "--bot", "builtin:greedy", "--bot", "builtin:random"],
    );
    assert!(out.starts_with("hex: 15 ticks"), "{out}");
    let header: serde_json::Value = serde_json::from_str(replay.lines().next().unwrap()).unwrap();
    assert_eq!(header["game"], "hex");
    assert_eq!(header["map"][2], "☼  ☼  ☼", "{header}");
    let bad = dir.write("bad.txt", "☼☼☼\n☼x☼\n☼☼☼\n");
    let out = snakepit(["play", "--game", "hex", "--map", bad.to_str().unwrap(), "--bot", "builtin:random"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("bad.txt"), "{}", stderr(&out));
}

/// The Python snake server of the bots crate's tests, killed when dropped.
struct HttpSnakes(std::process::Child, u16);

impl HttpSnakes {
    fn start(log: &std::path::Path) -> HttpSnakes {
        use std::io::BufRead;
        let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/../bots/tests/fixtures/battlesnake_http.py");
        let mut child = std::process::Command::new("python3")
            .arg(fixture)
            .arg("--log")
            .arg(log)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("python3 runs");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let port = line.trim().strip_prefix("PORT ").and_then(|p| p.parse().ok()).unwrap_or_else(|| panic!("{line:?}"));
        HttpSnakes(child, port)
    }
}

impl Drop for HttpSnakes {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn battlesnake_process_http_and_builtin_snakes_share_a_game() {
    let dir = TempDir::new("battlesnake_mixed");
    let http = HttpSnakes::start(&dir.join("requests.jsonl"));
    let url = format!("http://127.0.0.1:{}/safe", http.1);
    let json_bot = format!("json:{}", python_bot(&dir, "bs_json.py", BATTLESNAKE_JSON));
    let (out, err, replay) = play_and_verify(
        &dir,
        &["--game", "battlesnake", "--seed", "9", "--ticks", "40", "--bot", &json_bot, "--bot", &url, "--bot", "builtin:greedy"],
    );
    assert!(out.starts_with("battlesnake: "), "{out}");
    assert!(!err.contains("forfeits"), "{err}");
    assert!(moves_of(&replay, 0).first().is_some_and(|m| m != "-"), "{replay}");
    let requests = std::fs::read_to_string(dir.join("requests.jsonl")).unwrap();
    assert!(requests.contains("/safe/move"), "the HTTP snake was asked too: {requests}");
}

/// A Battlesnake process bot is held to the `game.timeout` its requests
/// state (`--timeout-ms`), not to the other arenas' second; its first move
/// keeps the start-up allowance.
#[test]
fn battlesnake_process_bots_get_the_timeout_their_requests_state() {
    let dir = TempDir::new("battlesnake_timeout");
    let slow = python_bot(
        &dir,
        "bs_slow.py",
        r##"
import json, sys, time
first = True
for line in sys.stdin:
    r = json.loads(line)
    sys.stderr.write("told %d\n" % r["game"]["timeout"])
    if not first:
        time.sleep(1.2)
    first = False
    print(json.dumps({"move": "up"}), flush=True)
"##,
    );
    let run = |timeout: &str| {
        let args = ["play", "--game", "battlesnake", "--ruleset", "solo", "--seed", "3", "--timeout-ms", timeout, "--bot", &slow, "--bot-stderr"];
        let out = snakepit(args);
        (stdout(&out), stderr(&out))
    };
    let (out, err) = run("2500");
    assert!(out.starts_with("battlesnake: "), "{out}");
    assert!(err.contains("told 2500"), "{err}");
    assert!(!err.contains("forfeits"), "1.2 s is within 2500 ms: {err}");
    let (_, err) = run("400");
    assert!(err.contains("told 400"), "{err}");
    assert!(err.contains("forfeits: no answer within 400 ms"), "{err}");
}
