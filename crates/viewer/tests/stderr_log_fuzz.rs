//! A stderr log as a visitor may upload it with a replay, fuzzed: reading
//! any text never panics, an accepted log holds only seats of the replay,
//! by tick and in seat order, and a log written from entries reads back as
//! those entries. The whole upload path (replay and log to a page, within a
//! budget) is fuzzed too: any change to a valid pair gives a page or an
//! error, and text from the file never ends the page's script.

use proptest::prelude::*;
use serde_json::json;
use snakepit_engine::{Rng, duel, multisnake, snakebattle};
use snakepit_protocol::replay::{ReplayGame, ReplayWriter};
use snakepit_viewer::html::stderr_log::LogEntry;
use snakepit_viewer::html::{Budget, ForkOffer, StderrLog, page_within};
use std::path::Path;
use std::sync::OnceLock;

/// Markup a seat's stderr or a player's label may carry.
const EVIL: &str = "</script><img src=x onerror=alert(1)><!-- & \u{2028}";

/// A budget like a server's for uploaded files, small enough for tests.
const BUDGET: Budget = Budget { seats_max: 64, cell_ticks_max: 2_000_000 };

fn path() -> &'static Path {
    Path::new("game.jsonl.stderr.jsonl")
}

/// Checks what an accepted log holds against the replay's seat count.
fn check_log(log: &StderrLog, seats: usize, ticks: impl IntoIterator<Item = u64>) {
    for t in ticks {
        let at = log.at(t);
        assert!(at.iter().all(|e| e.seat < seats), "{at:?}");
        assert!(at.windows(2).all(|w| w[0].seat <= w[1].seat), "{at:?}");
    }
}

/// The ticks a log's text might name, so that the checks look at them.
fn named_ticks(text: &str) -> Vec<u64> {
    let mut ticks: Vec<u64> = (0..4).collect();
    for line in text.lines() {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(line)
            && let Some(t) = v.get("t").and_then(serde_json::Value::as_u64)
        {
            ticks.push(t);
        }
    }
    ticks
}

/// One log entry as `play` writes it: tick, seat, stderr lines, dropped
/// lines and fault.
type Written = (u64, usize, Vec<String>, u64, Option<String>);

fn entry(seats: usize) -> impl Strategy<Value = Written> {
    (
        0u64..6,
        0..seats,
        prop::collection::vec(prop_oneof![".{0,30}", Just(EVIL.to_string())], 0..4),
        prop_oneof![Just(0u64), any::<u64>()],
        proptest::option::of(prop_oneof![".{0,30}", Just(EVIL.to_string())]),
    )
}

fn log_line((t, seat, stderr, dropped, fault): &Written, extra_key: bool) -> String {
    let mut v = json!({"t": t, "seat": seat, "stderr": stderr, "dropped": dropped, "fault": fault});
    if extra_key {
        // Unknown keys are allowed, so that the log can grow.
        v["later"] = json!({"x": [1, 2]});
    }
    v.to_string()
}

/// A change to a log's or a replay's text.
#[derive(Clone, Debug)]
enum Mutation {
    Flip(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    Number(usize, &'static str),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let byte = prop_oneof![any::<u8>(), prop::sample::select(b"\n\r\",:{}[]-0123456789<>/ ".to_vec())];
    let number = prop::sample::select(vec!["0", "1", "7", "64", "65", "4294967296", "18446744073709551615", "99999999999999999999", "-1", "1e3"]);
    prop_oneof![
        (any::<usize>(), 1u8..=255).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<usize>(), byte).prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<usize>().prop_map(Mutation::Delete),
        (any::<usize>(), number).prop_map(|(i, n)| Mutation::Number(i, n)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for m in mutations {
        let len = bytes.len();
        match *m {
            Mutation::Flip(i, b) if len > 0 => bytes[i % len] ^= b,
            Mutation::Insert(i, b) => bytes.insert(i % (len + 1), b),
            Mutation::Delete(i) if len > 0 => {
                bytes.remove(i % len);
            }
            Mutation::Number(i, n) if len > 0 => {
                let from = i % len;
                if let Some(start) = bytes[from..].iter().position(u8::is_ascii_digit).map(|p| from + p) {
                    let end = bytes[start..].iter().position(|b| !b.is_ascii_digit()).map_or(len, |p| start + p);
                    bytes.splice(start..end, n.bytes());
                }
            }
            Mutation::Truncate(i) => bytes.truncate(i % (len + 1)),
            _ => {}
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A replay of `game` with random moves, its players labelled with markup,
/// and a stderr log of every seat and tick with markup in it too.
fn record<G: ReplayGame>(mut game: G, seed: u64, pool: &[&str]) -> (String, String) {
    let players: Vec<String> = (0..game.seats()).map(|i| format!("p{i} {EVIL}")).collect();
    let mut writer = ReplayWriter::new(Vec::new(), &game, seed, &players).unwrap();
    let mut rng = Rng::new(seed);
    let mut log = String::new();
    for _ in 0..10 {
        let actions: Vec<G::Action> =
            (0..game.seats()).map(|_| G::action_from_text(pool[rng.index(pool.len())]).unwrap()).collect();
        let before = game.tick();
        game.step(&actions);
        if game.tick() == before {
            break;
        }
        writer.record(&game, &actions).unwrap();
        for seat in 0..game.seats() {
            let fault = (seat == 0).then(|| format!("answer {EVIL:?}"));
            log.push_str(&log_line(&(game.tick(), seat, vec![format!("tick {}", game.tick()), EVIL.to_string()], 0, fault), false));
            log.push('\n');
        }
    }
    (String::from_utf8(writer.finish().unwrap()).unwrap(), log)
}

/// A valid replay and log of three games, recorded once.
fn valid_pairs() -> &'static [(String, String)] {
    static PAIRS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    PAIRS.get_or_init(|| {
        let moves = ["-", "U", "R", "D", "L", "F"];
        let duel_settings = duel::Settings::from_pairs([("rows", "6"), ("cols", "7"), ("inner_walls", "4")]).unwrap();
        let spec = multisnake::MapSpec::from_pairs([("width", "9"), ("height", "9"), ("players", "2")]).unwrap();
        let map = multisnake::generate(&spec, 3).unwrap();
        vec![
            record(
                snakebattle::SnakeBattle::new(Default::default(), snakebattle::Map::default_map(), 2, 4).unwrap(),
                4,
                &["-", "U", "R", "D", "L", "AU", "LA"],
            ),
            record(duel::Duel::new(duel_settings, 5), 5, &moves),
            record(multisnake::Multisnake::new(Default::default(), map, 6), 6, &moves),
        ]
    })
}

/// How often a page's text can end its script or open a comment.
fn markup_breaks(page: &str) -> (usize, usize) {
    let lower = page.to_ascii_lowercase();
    (lower.matches("</script").count(), lower.matches("<!--").count())
}

fn page_of(replay: &str, log: &str) -> Result<String, String> {
    let log = (!log.trim().is_empty()).then_some((log, path()));
    page_within(replay, log, Some(ForkOffer::Command { file: "game.jsonl" }), &BUDGET).map_err(|e| e.to_string())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any text, for any seat count: a log or an error, never a panic.
    #[test]
    fn any_text_reads_as_a_log_or_an_error(text in ".{0,3000}", seats in 0usize..10) {
        if let Ok(log) = StderrLog::parse(&text, seats, path()) {
            check_log(&log, seats, named_ticks(&text));
        }
    }

    /// Lines shaped like log lines, with their keys holding values of
    /// every type.
    #[test]
    fn log_like_lines_read_as_a_log_or_an_error(
        lines in prop::collection::vec(
            prop::collection::vec(
                (
                    prop::sample::select(vec!["t", "seat", "stderr", "dropped", "fault", "x"]),
                    prop::sample::select(vec![
                        "null", "0", "1", "-1", "1.5", "18446744073709551615", "18446744073709551616", "\"1\"", "[]",
                        "[\"a\"]", "[1]", "{}", "true", "\"</script>\"",
                    ]),
                ),
                0..6,
            ),
            0..6,
        ),
        seats in 0usize..4,
    ) {
        let text: Vec<String> = lines
            .iter()
            .map(|kv| format!("{{{}}}", kv.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect::<Vec<_>>().join(",")))
            .collect();
        let text = text.join("\n");
        if let Ok(log) = StderrLog::parse(&text, seats, path()) {
            check_log(&log, seats, named_ticks(&text));
        }
    }

    /// A log written from entries reads back as those entries: by tick,
    /// in seat order (entries of one seat in the order written), whatever
    /// blank lines, CRLFs and unknown keys are around them.
    #[test]
    fn written_logs_read_back(
        seats in 1usize..5,
        entries in (1usize..5).prop_flat_map(|s| prop::collection::vec(entry(s), 0..12)),
        blanks in prop::collection::vec(any::<bool>(), 12),
        crlf in any::<bool>(),
        extra in any::<bool>(),
    ) {
        // Entries were drawn for up to 4 seats; fold them into `seats`.
        let entries: Vec<Written> = entries.into_iter().map(|(t, s, e, d, f)| (t, s % seats, e, d, f)).collect();
        let mut text = String::new();
        for (i, e) in entries.iter().enumerate() {
            if blanks[i] {
                text.push_str("  \n");
            }
            text.push_str(&log_line(e, extra));
            text.push_str(if crlf { "\r\n" } else { "\n" });
        }
        let log = StderrLog::parse(&text, seats, path()).unwrap();
        for t in 0..6 {
            let mut expected: Vec<LogEntry> = entries
                .iter()
                .filter(|e| e.0 == t)
                .map(|(_, seat, stderr, dropped, fault)| LogEntry { seat: *seat, stderr: stderr.clone(), dropped: *dropped, fault: fault.clone() })
                .collect();
            expected.sort_by_key(|e| e.seat);
            prop_assert_eq!(log.at(t), expected.as_slice());
        }
    }

    /// A valid log changed here and there: a log or an error.
    #[test]
    fn mutated_logs_read_as_a_log_or_an_error(pair in 0usize..3, mutations in prop::collection::vec(mutation(), 1..6)) {
        let text = mutate(&valid_pairs()[pair].1, &mutations);
        if let Ok(log) = StderrLog::parse(&text, 2, path()) {
            check_log(&log, 2, named_ticks(&text));
        }
    }
}

proptest! {
    // Each case re-simulates a game and writes a page: fewer cases.
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The upload path: a valid replay and log, either changed here and
    /// there, make a page or an error; and no page lets the file's text
    /// end its script or open a comment.
    #[test]
    fn mutated_uploads_make_a_page_or_an_error(
        pair in 0usize..3,
        replay_mutations in prop::collection::vec(mutation(), 0..4),
        log_mutations in prop::collection::vec(mutation(), 0..4),
    ) {
        let (replay, log) = &valid_pairs()[pair];
        let clean = page_of(replay, "").unwrap();
        let page = page_of(replay, log).unwrap();
        prop_assert_eq!(markup_breaks(&page), markup_breaks(&clean));
        if let Ok(page) = page_of(&mutate(replay, &replay_mutations), &mutate(log, &log_mutations)) {
            prop_assert_eq!(markup_breaks(&page), markup_breaks(&clean));
        }
    }
}
