//! Defective inputs through the built binary: every one is a single line on
//! stderr naming the file and the line, and exit code 2, never a panic.

mod common;

use common::{TempDir, assert_bad_input, record, snakepit, stderr};
use std::path::Path;

fn verify(path: &Path) -> std::process::Output {
    snakepit(["replay".as_ref(), path.as_os_str(), "--verify".as_ref()])
}

/// A valid replay's lines, to break one at a time.
fn good_lines(dir: &TempDir) -> Vec<String> {
    let path = dir.join("good.jsonl");
    record(&path);
    std::fs::read_to_string(path).unwrap().lines().map(String::from).collect()
}

/// Writes `lines` with line `n` (1-based) replaced.
fn with_line(dir: &TempDir, name: &str, lines: &[String], n: usize, new: &str) -> std::path::PathBuf {
    let mut lines = lines.to_vec();
    lines[n - 1] = new.to_string();
    dir.write(name, lines.join("\n") + "\n")
}

#[test]
fn defective_replays() {
    let dir = TempDir::new("defective_replays");
    let lines = good_lines(&dir);
    let text = lines.join("\n") + "\n";

    let cut = text.find(&lines[49]).unwrap() + lines[49].len() / 2;
    let truncated = dir.write("truncated.jsonl", &text[..cut]);
    assert_bad_input(&verify(&truncated), &truncated, "line 50: not valid JSON");

    let garbled = with_line(&dir, "garbled.jsonl", &lines, 10, "{\"t\":9,\"m\":[\"R\",,\"L\"]}");
    assert_bad_input(&verify(&garbled), &garbled, "line 10: not valid JSON");

    let mut moves: serde_json::Value = serde_json::from_str(&lines[2]).unwrap();
    moves["m"].as_array_mut().unwrap().pop();
    let seats = with_line(&dir, "seats.jsonl", &lines, 3, &moves.to_string());
    assert_bad_input(&verify(&seats), &seats, "line 3: \"m\" has 4 moves but the game has 5 seats");

    let game = with_line(&dir, "game.jsonl", &lines, 1, &lines[0].replace("\"snakebattle\"", "\"chess\""));
    assert_bad_input(&verify(&game), &game, "line 1: unknown game \"chess\"");

    let mut tick: serde_json::Value = serde_json::from_str(&lines[4]).unwrap();
    tick["c"] = "00000000000000zz".into();
    let hex = with_line(&dir, "hex.jsonl", &lines, 5, &tick.to_string());
    assert_bad_input(&verify(&hex), &hex, "line 5: \"c\" must be 16 lower-case hex digits, not \"00000000000000zz\"");

    let json = with_line(&dir, "json.jsonl", &lines, 1, "{\"snakepit_replay\":1,\"game\":");
    assert_bad_input(&verify(&json), &json, "line 1: not valid JSON: EOF while parsing");

    let empty = dir.write("empty.jsonl", "");
    assert_bad_input(&verify(&empty), &empty, "line 1: the file is empty");

    let order = with_line(&dir, "order.jsonl", &lines, 7, &lines[7]);
    assert_bad_input(&verify(&order), &order, "line 7: \"t\" is 7, expected 6");

    let mut bad_move: serde_json::Value = serde_json::from_str(&lines[8]).unwrap();
    bad_move["m"][2] = "Q".into();
    let action = with_line(&dir, "action.jsonl", &lines, 9, &bad_move.to_string());
    assert_bad_input(&verify(&action), &action, "line 9: \"m\"[2]: bad action \"Q\"");

    let mut extra: serde_json::Value = serde_json::from_str(&lines[3]).unwrap();
    extra["boards"] = serde_json::json!([]);
    let unknown = with_line(&dir, "unknown.jsonl", &lines, 4, &extra.to_string());
    assert_bad_input(&verify(&unknown), &unknown, "line 4: unknown field `boards`");

    let blank = with_line(&dir, "blank.jsonl", &lines, 6, "");
    assert_bad_input(&verify(&blank), &blank, "line 6: empty line");

    let mut header: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    header["settings"]["fury_ticks"] = "many".into();
    let settings = with_line(&dir, "settings.jsonl", &lines, 1, &header.to_string());
    assert_bad_input(&verify(&settings), &settings, "line 1: \"settings\": setting fury_ticks=\"many\"");

    let mut header: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    header["map"][3] = "☼☼".into();
    let map = with_line(&dir, "map.jsonl", &lines, 1, &header.to_string());
    assert_bad_input(&verify(&map), &map, "line 1: \"map\" row 4: 2 characters");

    let version = with_line(&dir, "version.jsonl", &lines, 1, &lines[0].replace("\"snakepit_replay\":1", "\"snakepit_replay\":2"));
    assert_bad_input(&verify(&version), &version, "line 1: replay format version 2 is not supported");

    // Printing reads the file the same way as verifying.
    let out = snakepit(["replay".as_ref(), seats.as_os_str()]);
    assert_bad_input(&out, &seats, "line 3: \"m\" has 4 moves");
}

#[test]
fn unreadable_replay_files() {
    let dir = TempDir::new("unreadable_replay_files");
    let missing = dir.join("missing.jsonl");
    assert_bad_input(&verify(&missing), &missing, "No such file");
    let binary = dir.write("binary.jsonl", b"{\"snakepit_replay\":1}\n\xff\xfe\n");
    assert_bad_input(&verify(&binary), &binary, "line 2: not UTF-8 text");
}

fn play_with_map(map: &Path) -> std::process::Output {
    snakepit([
        "play".as_ref(),
        "--ticks".as_ref(),
        "5".as_ref(),
        "--bot".as_ref(),
        "builtin:random".as_ref(),
        "--map".as_ref(),
        map.as_os_str(),
    ])
}

#[test]
fn defective_maps() {
    let dir = TempDir::new("defective_maps");
    let good = "☼☼☼☼☼\n☼#  ☼\n☼   ☼\n☼ ○ ☼\n☼☼☼☼☼\n";
    let ok = dir.write("ok.txt", good);
    assert!(play_with_map(&ok).status.success(), "{}", stderr(&play_with_map(&ok)));

    let not_square = dir.write("not_square.txt", good.replace("☼   ☼", "☼    ☼"));
    assert_bad_input(&play_with_map(&not_square), &not_square, "line 3: 6 characters, but the map has 5 lines");

    let glyph = dir.write("glyph.txt", good.replace("☼ ○ ☼", "☼ x ☼"));
    assert_bad_input(&play_with_map(&glyph), &glyph, "line 4: column 3: 'x' is not a map glyph");

    let stone = dir.write("stone.txt", good.replace("☼#  ☼", "☼#● ☼"));
    assert_bad_input(&play_with_map(&stone), &stone, "line 2: column 3: a stone '●' right of a start floor '#' would hit the snake");

    let no_floor = dir.write("no_floor.txt", good.replace('#', " "));
    assert_bad_input(&play_with_map(&no_floor), &no_floor, "line 1: the map has no start floor");

    let empty = dir.write("empty.txt", "");
    assert_bad_input(&play_with_map(&empty), &empty, "line 1: the map is empty");

    let missing = dir.join("missing.txt");
    assert_bad_input(&play_with_map(&missing), &missing, "No such file");

    // The maps of the other games' files are input too: exit 2, one line
    // naming the file.
    for game in ["duel", "multisnake", "hex"] {
        let bad = dir.write(&format!("{game}.txt"), "#\n");
        let out = snakepit([
            "play".as_ref(),
            "--game".as_ref(),
            game.as_ref(),
            "--bot".as_ref(),
            "builtin:random".as_ref(),
            "--bot".as_ref(),
            "builtin:random".as_ref(),
            "--map".as_ref(),
            bad.as_os_str(),
        ]);
        assert_bad_input(&out, &bad, "");
    }
}

#[test]
fn bad_settings_and_seats_exit_2() {
    let settings = snakepit(["play", "--bot", "builtin:random", "--set", "fury_tiks=3"]);
    assert_eq!(settings.status.code(), Some(2));
    let err = stderr(&settings);
    assert!(err.starts_with("error: invalid settings: unknown setting \"fury_tiks\" (settings: profile, fury_ticks, "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    let value = snakepit(["play", "--bot", "builtin:random", "--set", "rounds=maybe"]);
    assert_eq!(value.status.code(), Some(2));
    assert!(stderr(&value).starts_with("error: invalid settings: setting rounds="), "{}", stderr(&value));

    for zero in ["round_ticks=0", "players_per_field=0"] {
        let out = snakepit(["play", "--bot", "builtin:random", "--set", zero]);
        assert_eq!(out.status.code(), Some(2), "{zero}");
        assert!(stderr(&out).contains("at least 1"), "{zero}: {}", stderr(&out));
    }

    // A snake's address without its scheme is no program either.
    let address = snakepit(["play", "--game", "battlesnake", "--bot", "127.0.0.1:9", "--bot", "builtin:random"]);
    assert_eq!(address.status.code(), Some(2), "{}", stderr(&address));
    assert!(stderr(&address).contains("a Battlesnake's address is an URL: --bot http://127.0.0.1:9"), "{}", stderr(&address));

    let profile = snakepit(["play", "--bot", "builtin:random", "--profile", "chess"]);
    assert_eq!(profile.status.code(), Some(2), "{}", stderr(&profile));

    let dir = TempDir::new("bad_settings_and_seats_exit_2");
    let one_floor = dir.write("one_floor.txt", "☼☼☼☼☼\n☼#  ☼\n☼   ☼\n☼   ☼\n☼☼☼☼☼\n");
    let seats = snakepit([
        "play".as_ref(),
        "--bot".as_ref(),
        "builtin:random".as_ref(),
        "--bot".as_ref(),
        "builtin:random".as_ref(),
        "--map".as_ref(),
        one_floor.as_os_str(),
    ]);
    assert_eq!(seats.status.code(), Some(2));
    assert_eq!(stderr(&seats), "error: cannot start the game: 2 players, but the map has 1 start floors\n");

    // A field holds players_per_field snakes, five unless set.
    let six = snakepit(["play", "--ticks", "3"].into_iter().chain(["--bot", "builtin:random"].repeat(6)));
    assert_eq!(six.status.code(), Some(2));
    assert!(stderr(&six).contains("6 bots, but a snakebattle field holds 5"), "{}", stderr(&six));
    let two = snakepit(["play", "--ticks", "3", "--set", "players_per_field=2"].into_iter().chain(["--bot", "builtin:random"].repeat(3)));
    assert_eq!(two.status.code(), Some(2), "{}", stderr(&two));
    let six_allowed = snakepit(["play", "--ticks", "3", "--set", "players_per_field=6"].into_iter().chain(["--bot", "builtin:random"].repeat(6)));
    assert!(six_allowed.status.success(), "{}", stderr(&six_allowed));
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["play"][..],
        &["play", "--bot", "./mybot.py"],
        &["play", "--bot", "builtin:nobody"],
        &["play", "--bot", "builtin:random", "--ticks", "-1"],
        &["play", "--bot", "builtin:random", "--game", "chess"],
        &["replay"],
        &["frobnicate"],
    ] {
        let out = snakepit(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
    let out = snakepit(["play", "--bot", "tcp://localhost:9"]);
    assert!(stderr(&out).contains("arrive with a later version"), "{}", stderr(&out));
}
