//! Text from outside, fuzzed: replay files as a visitor may upload them,
//! and everything a replay header reaches (each game's settings, its map
//! parser and its action text). On any input of a few KB each parser
//! returns a value or an error without panicking, and what it accepts is
//! sane: it writes back out to text that reads as the same value, and an
//! accepted replay re-simulates without panicking.
//!
//! Replays are fuzzed two ways: arbitrary text, and a valid replay of each
//! game (recorded here with random moves) with bytes flipped, inserted or
//! deleted, numbers replaced by extreme ones, and lines cut, dropped or
//! repeated.

use proptest::prelude::*;
use snakepit_engine::{Game, Rng, battlesnake, carrots, duel, hex, multisnake, snakebattle};
use snakepit_protocol::replay::{Header, Replay, ReplayGame, ReplayWriter, tick_line};
use std::sync::OnceLock;

/// Ticks recorded in each valid replay: enough for every kind of line, few
/// enough that a case stays fast.
const TICKS: u64 = 12;

/// Numbers that break careless arithmetic, as a mutation writes them.
const EXTREME_NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "8",
    "150",
    "201",
    "4294967295",
    "4294967296",
    "-2147483648",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
    "1e3",
    "-0",
    "007",
    "+5",
];

/// Action texts of each game, valid and not, that the recorder draws from.
fn action_pool(game: &str) -> &'static [&'static str] {
    match game {
        "snakebattle" => &["-", "U", "R", "D", "L", "A", "AU", "LA", "X", "AR", "DA"],
        "hex" => &["-", "C1,1R", "C1,1D", "J1,1R", "C13,13L", "J13,13U", "C2,2R", "J2,1D"],
        "battlesnake" => &["-", "U", "R", "D", "L"],
        _ => &["-", "U", "R", "D", "L", "F"],
    }
}

/// A replay of `game` played with moves drawn from the game's pool.
fn record<G: ReplayGame>(mut game: G, seed: u64) -> String {
    let players: Vec<String> = (0..game.seats()).map(|i| format!("p{i}")).collect();
    let mut writer = ReplayWriter::new(Vec::new(), &game, seed, &players).unwrap();
    let pool = action_pool(G::NAME);
    let mut rng = Rng::new(seed);
    for _ in 0..TICKS {
        let actions: Vec<G::Action> =
            (0..game.seats()).map(|_| G::action_from_text(pool[rng.index(pool.len())]).unwrap()).collect();
        let before = game.tick();
        game.step(&actions);
        // A finished game counts no more ticks, and records none.
        if game.tick() == before {
            break;
        }
        writer.record(&game, &actions).unwrap();
    }
    String::from_utf8(writer.finish().unwrap()).unwrap()
}

/// One valid replay per game, recorded once.
fn valid_replays() -> &'static [(&'static str, String)] {
    static REPLAYS: OnceLock<Vec<(&'static str, String)>> = OnceLock::new();
    REPLAYS.get_or_init(|| {
        let carrots_settings = carrots::Settings::from_pairs([("width", "12"), ("height", "9"), ("apples_max", "5")]).unwrap();
        let duel_settings = duel::Settings::from_pairs([("rows", "6"), ("cols", "7"), ("inner_walls", "4")]).unwrap();
        let spec = multisnake::MapSpec::from_pairs([("width", "9"), ("height", "9"), ("players", "2")]).unwrap();
        let multisnake_map = multisnake::generate(&spec, 3).unwrap();
        vec![
            (
                "snakebattle",
                record(snakebattle::SnakeBattle::new(Default::default(), snakebattle::Map::default_map(), 2, 5).unwrap(), 5),
            ),
            ("hex", record(hex::Hex::new(Default::default(), hex::Map::default_map(), 2, 6).unwrap(), 6)),
            ("battlesnake", record(battlesnake::Battlesnake::new(Default::default(), 2, 7).unwrap(), 7)),
            ("carrots", record(carrots::Carrots::new(carrots_settings, 2, 8).unwrap(), 8)),
            ("duel", record(duel::Duel::new(duel_settings, 9), 9)),
            ("multisnake", record(multisnake::Multisnake::new(Default::default(), multisnake_map, 10), 10)),
        ]
    })
}

/// Reads `text` as a replay of `G`; if it is one, checks that it writes
/// back to text that reads as the same replay, and re-simulates it.
fn check_replay<G: ReplayGame>(text: &str) {
    let Ok(replay) = Replay::<G>::parse(text) else { return };
    let header = &replay.header;
    assert_eq!(Header::parse(&header.to_line()).as_ref(), Ok(header), "the header reads back");
    let mut again = header.to_line();
    again.push('\n');
    for (i, t) in replay.ticks.iter().enumerate() {
        assert_eq!(t.tick, i as u64 + 1);
        assert_eq!(t.moves.len(), header.seats);
        again.push_str(&tick_line::<G>(t.tick, header.seats, &t.moves, t.checksum));
        again.push('\n');
    }
    let reread = Replay::<G>::parse(&again).expect("a replay written back reads again");
    assert_eq!(reread.ticks, replay.ticks);
    assert_eq!(reread.header, replay.header);
    // What an uploaded replay leads to: its game played move by move.
    let _ = replay.resimulate(|_, _, _| {});
}

/// [`check_replay`] for the game called `name`.
fn check_replay_of(name: &str, text: &str) {
    match name {
        "snakebattle" => check_replay::<snakebattle::SnakeBattle>(text),
        "hex" => check_replay::<hex::Hex>(text),
        "battlesnake" => check_replay::<battlesnake::Battlesnake>(text),
        "carrots" => check_replay::<carrots::Carrots>(text),
        "duel" => check_replay::<duel::Duel>(text),
        _ => check_replay::<multisnake::Multisnake>(text),
    }
}

/// Every game's reading of `text`, as `/replays/open` would try it.
fn check_replay_any_game(text: &str) {
    if let Err(e) = Header::parse(text) {
        assert!(e.line == 1, "{e}");
    }
    check_replay::<snakebattle::SnakeBattle>(text);
    check_replay::<hex::Hex>(text);
    check_replay::<battlesnake::Battlesnake>(text);
    check_replay::<carrots::Carrots>(text);
    check_replay::<duel::Duel>(text);
    check_replay::<multisnake::Multisnake>(text);
}

/// A change to a replay's text.
#[derive(Clone, Debug)]
enum Mutation {
    /// XOR one byte.
    Flip(usize, u8),
    /// Insert one byte, often one of JSON's or the map's.
    Insert(usize, u8),
    /// Delete one byte.
    Delete(usize),
    /// Replace the run of digits at or after a position with a number.
    Number(usize, &'static str),
    /// Cut a line at a position, dropping the rest of that line.
    CutLine(usize, usize),
    /// Drop a whole line.
    DropLine(usize),
    /// Write a line twice.
    RepeatLine(usize),
    /// End the file at a position.
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let byte = prop_oneof![any::<u8>(), prop::sample::select(b"\n\r\",:{}[]-0123456789#.ABUX\\ ".to_vec())];
    // Numbers most: they reach the settings and the games' arithmetic.
    prop_oneof![
        1 => (any::<usize>(), 1u8..=255).prop_map(|(i, b)| Mutation::Flip(i, b)),
        1 => (any::<usize>(), byte).prop_map(|(i, b)| Mutation::Insert(i, b)),
        1 => any::<usize>().prop_map(Mutation::Delete),
        3 => (any::<usize>(), prop::sample::select(EXTREME_NUMBERS)).prop_map(|(i, n)| Mutation::Number(i, n)),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(l, c)| Mutation::CutLine(l, c)),
        1 => any::<usize>().prop_map(Mutation::DropLine),
        1 => any::<usize>().prop_map(Mutation::RepeatLine),
        1 => any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for m in mutations {
        let len = bytes.len();
        let lines = |b: &[u8]| -> Vec<Vec<u8>> { b.split(|&c| c == b'\n').map(<[u8]>::to_vec).collect() };
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
            Mutation::CutLine(l, c) => {
                let mut ls = lines(&bytes);
                let k = l % ls.len();
                let keep = c % (ls[k].len() + 1);
                ls[k].truncate(keep);
                bytes = ls.join(&b'\n');
            }
            Mutation::DropLine(l) => {
                let mut ls = lines(&bytes);
                ls.remove(l % ls.len());
                bytes = ls.join(&b'\n');
            }
            Mutation::RepeatLine(l) => {
                let mut ls = lines(&bytes);
                let k = l % ls.len();
                let line = ls[k].clone();
                ls.insert(k, line);
                bytes = ls.join(&b'\n');
            }
            Mutation::Truncate(i) => bytes.truncate(i % (len + 1)),
            _ => {}
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A SnakeBattle map drawn back in its glyphs, as a replay header holds it.
fn snakebattle_map_text(map: &snakebattle::Map) -> String {
    use snakebattle::{Item, Terrain};
    let mut s = String::new();
    for (i, (t, item)) in map.terrain.iter().zip(&map.items).enumerate() {
        if map.percent_cells.contains(&map.pos(i)) {
            s.push('%');
        } else {
            s.push(match (t, item) {
            (Terrain::Wall, _) => '☼',
            (Terrain::StartFloor, _) => '#',
            (Terrain::Empty, None) => ' ',
            (Terrain::Empty, Some(Item::Apple)) => '○',
            (Terrain::Empty, Some(Item::Stone)) => '●',
            (Terrain::Empty, Some(Item::Gold)) => '$',
            (Terrain::Empty, Some(Item::FuryPill)) => '®',
            (Terrain::Empty, Some(Item::FlyingPill)) => '©',
            });
        }
        if (i + 1) % map.size == 0 {
            s.push('\n');
        }
    }
    s
}

/// A grid of `side` rows (each `side + skew` glyphs long) drawn from
/// `glyphs`, joined with `\n` or `\r\n`; mostly the right shape, so that
/// parsers get past their size checks.
fn grid(glyphs: &'static [char], sides: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = String> {
    (sides, prop::sample::select(vec![0i8, 0, 0, 0, -1, 1]), any::<bool>(), any::<u64>()).prop_map(
        move |(side, skew, crlf, seed)| {
            let mut rng = Rng::new(seed);
            let width = (side as i64 + i64::from(skew)).max(0) as usize;
            let rows: Vec<String> = (0..side).map(|_| (0..width).map(|_| glyphs[rng.index(glyphs.len())]).collect()).collect();
            rows.join(if crlf { "\r\n" } else { "\n" })
        },
    )
}

/// Settings pairs: mostly the game's own keys, with values from the
/// extremes, flags, words and junk.
fn pairs(keys: &'static [&'static str]) -> impl Strategy<Value = Vec<(String, String)>> {
    let key = prop_oneof![9 => prop::sample::select(keys).prop_map(str::to_string), 1 => "[a-z_]{0,12}"];
    let value = prop_oneof![
        prop::sample::select(EXTREME_NUMBERS).prop_map(str::to_string),
        (0u64..400).prop_map(|n| n.to_string()),
        prop::sample::select(vec![
            "true", "false", "on", "off", "seed", "last_wins", "codebattle", "codenjoy", "standard", "royale", "", " 1",
        ])
        .prop_map(str::to_string),
        ".{0,12}",
    ];
    prop::collection::vec((key, value), 0..8)
}

const SNAKEBATTLE_KEYS: &[&str] = &[
    "profile", "fury_ticks", "flying_ticks", "flying_pills", "stone_shrink", "commands", "points_apple", "points_gold",
    "points_stone", "points_eat_per_cell", "points_win_per_length", "points_win_per_tick", "points_win_flat",
    "points_die_penalty", "rounds", "countdown_ticks", "round_ticks", "round_end_length", "min_ticks_for_win",
    "players_per_field",
];
const HEX_KEYS: &[&str] = &["profile", "points_win", "points_lose", "restart_clears_walls", "players_per_field"];
const MULTISNAKE_KEYS: &[&str] = &["grow_every", "turns_max"];
const CARROTS_KEYS: &[&str] = &["width", "height", "apples_max", "respawn_ticks", "bodies_stay"];
const DUEL_KEYS: &[&str] =
    &["rows", "cols", "inner_walls", "grow_steps", "grow_every", "rounds_max", "points_win", "points_loss", "points_draw"];

/// The smallest i64, whose absolute value does not fit an i64.
const I64_MIN: &str = "-9223372036854775808";

fn borrowed(p: &[(String, String)]) -> impl Iterator<Item = (&str, &str)> {
    p.iter().map(|(k, v)| (k.as_str(), v.as_str()))
}

/// Plays `ticks` ticks of random moves drawn from the game's pool: an
/// accepted setup must make a game that plays.
fn play<G: ReplayGame>(mut game: G, seed: u64, ticks: u64) {
    let pool = action_pool(G::NAME);
    let mut rng = Rng::new(seed);
    for _ in 0..ticks {
        let actions: Vec<G::Action> =
            (0..game.seats()).map(|_| G::action_from_text(pool[rng.index(pool.len())]).unwrap()).collect();
        game.step(&actions);
    }
    let _ = (game.checksum(), game.scores());
}

/// An action text the game accepts is its one spelling of that action.
fn check_action<G: Game>(text: &str) {
    if let Ok(a) = G::action_from_text(text) {
        assert_eq!(G::action_to_text(&a), text);
    }
}

/// Texts close to every game's action syntax.
fn action_text() -> impl Strategy<Value = String> {
    prop_oneof![
        ".{0,8}",
        "[-XAFCJURDL]{0,3}",
        "[CJ]-?[0-9]{1,11},-?[0-9]{1,11}[URDLX]",
        "[CJ][+0-9, -]{0,8}[URDL]",
        prop::sample::select(vec!["", "-", "U", "AU", "UA", "X", "F", "C2,3L", "J-1,14R", "C02,3L", "C+2,3L", "C-0,3L"])
            .prop_map(str::to_string),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Arbitrary text is not a replay of any game, or is a sane one.
    #[test]
    fn any_text_as_a_replay(text in ".{0,2000}") {
        check_replay_any_game(&text);
    }

    /// Text shaped like a replay's lines, with its keys and values mixed up.
    #[test]
    fn replay_like_text(
        lines in prop::collection::vec(
            prop::collection::vec(
                prop_oneof![
                    prop::sample::select(vec![
                        "{", "}", "[", "]", ",", ":", "\"snakepit_replay\":1", "\"game\":\"duel\"", "\"game\":\"multisnake\"",
                        "\"engine\":\"1\"", "\"seed\":", "\"seats\":2", "\"players\":[\"a\",\"b\"]", "\"settings\":{}",
                        "\"map\":[]", "\"t\":1", "\"m\":[\"U\",\"-\"]", "\"c\":\"0000000000000000\"", "null", "\"x\"",
                    ]).prop_map(str::to_string),
                    prop::sample::select(EXTREME_NUMBERS).prop_map(str::to_string),
                ],
                0..16,
            ).prop_map(|v| v.concat()),
            0..6,
        ),
    ) {
        check_replay_any_game(&lines.join("\n"));
    }

    /// A valid replay of each game, changed here and there.
    #[test]
    fn mutated_replays(game in 0usize..6, mutations in prop::collection::vec(mutation(), 1..6)) {
        let (name, text) = &valid_replays()[game];
        let text = mutate(text, &mutations);
        check_replay_of(name, &text);
        if let Ok(h) = Header::parse(&text) {
            prop_assert_eq!(h.players.len(), h.seats);
        }
    }

    /// A valid replay whose header alone is changed: its ticks stay
    /// readable, so more of these are accepted and re-simulated.
    #[test]
    fn mutated_headers(game in 0usize..6, mutations in prop::collection::vec(mutation(), 1..4)) {
        let (name, text) = &valid_replays()[game];
        let (header, ticks) = text.split_once('\n').unwrap();
        // The header's own line breaks stay in it: cut back to one line.
        let header = mutate(header, &mutations).replace(['\n', '\r'], "");
        let text = format!("{header}\n{ticks}");
        check_replay_of(name, &text);
    }

    /// Every game's action text: a value or an error, and a value has
    /// exactly the spelling it was read from.
    #[test]
    fn action_texts(text in action_text()) {
        check_action::<snakebattle::SnakeBattle>(&text);
        check_action::<hex::Hex>(&text);
        check_action::<carrots::Carrots>(&text);
        check_action::<duel::Duel>(&text);
        check_action::<multisnake::Multisnake>(&text);
        check_action::<battlesnake::Battlesnake>(&text);
    }

    /// SnakeBattle maps: an accepted map is square, has a start floor, and
    /// drawn back reads as itself.
    #[test]
    fn snakebattle_maps(text in prop_oneof![
        grid(&['☼', '#', ' ', '○', '●', '$', '®', '©', '%', '@', 'x'], 4..=12),
        grid(&[' ', '#'], 5..=8),
        ".{0,300}",
    ]) {
        if let Ok(map) = snakebattle::Map::parse(&text) {
            prop_assert!((5..=200).contains(&map.size));
            prop_assert_eq!(map.terrain.len(), map.size * map.size);
            prop_assert_eq!(map.items.len(), map.size * map.size);
            prop_assert!(!map.start_floors().is_empty());
            prop_assert_eq!(snakebattle::Map::parse(&snakebattle_map_text(&map)), Ok(map));
        }
    }

    /// Hex maps: an accepted map has a free cell and reads back as itself.
    #[test]
    fn hex_maps(text in prop_oneof![grid(&['☼', ' ', 'x'], 2..=10), grid(&['☼', ' '], 3..=10), ".{0,300}"]) {
        if let Ok(map) = hex::Map::parse(&text) {
            prop_assert_eq!(map.walls.len(), map.size * map.size);
            prop_assert!(map.walls.contains(&false));
            prop_assert_eq!(hex::Map::parse(&map.to_text()), Ok(map));
        }
    }

    /// Multisnake maps: an accepted map has 2, 4 or 8 snakes on distinct
    /// tiles, reads back as itself, and starts a game that plays.
    #[test]
    fn multisnake_maps(
        text in prop_oneof![
            grid(&['.', '#', '+', '-', 'A', 'B', '^', '>', 'v', '<'], 4..=8),
            grid(&['.', '.', '.', '.', '.', '#', 'A', 'B', 'C', 'D', '^', '>', 'v', '<', '@', 'I'], 5..=7),
            ".{0,300}",
        ],
        seed in any::<u64>(),
    ) {
        if let Ok(map) = multisnake::Map::parse(&text) {
            prop_assert!([2, 4, 8].contains(&map.players()));
            let mut cells: Vec<_> = map.snakes.iter().flatten().copied().collect();
            let all = cells.len();
            cells.sort_by_key(|p| (p.y, p.x));
            cells.dedup();
            prop_assert_eq!(cells.len(), all, "a tile in two snakes");
            prop_assert_eq!(multisnake::Map::parse(&map.to_rows().join("\n")), Ok(map.clone()));
            play(multisnake::Multisnake::new(Default::default(), map, seed), seed, 20);
        }
    }

    /// Duel maps: an accepted map has both starts, reads back as itself,
    /// and starts a game that plays.
    #[test]
    fn duel_maps(
        text in prop_oneof![
            grid(&['#', '.', 'A', 'B', 'x'], 3..=8),
            grid(&['#', '.', '.', '.', 'A', 'B'], 4..=7),
            ".{0,300}",
        ],
        seed in any::<u64>(),
    ) {
        if let Ok(map) = duel::DuelMap::parse(&text) {
            let [a, b] = map.starts();
            prop_assert!(a != b && !map.is_wall(a) && !map.is_wall(b));
            prop_assert_eq!(duel::DuelMap::parse(&map.to_rows().join("\n")), Ok(map.clone()));
            play(duel::Duel::with_map(Default::default(), map, seed), seed, 20);
        }
    }

    /// Settings of every game: an accepted set writes back to pairs that
    /// read as the same settings.
    #[test]
    fn settings_read_back(
        sb in pairs(SNAKEBATTLE_KEYS),
        hx in pairs(HEX_KEYS),
        ms in pairs(MULTISNAKE_KEYS),
        cr in pairs(CARROTS_KEYS),
        du in pairs(DUEL_KEYS),
    ) {
        // Each game's settings: what is accepted writes back to pairs
        // that read as the same settings.
        macro_rules! reads_back {
            ($game:ident, $pairs:expr) => {
                if let Ok(s) = $game::Settings::from_pairs(borrowed(&$pairs)) {
                    let back: Vec<(String, String)> = s.to_pairs().into_iter().map(|(k, v)| (k.to_string(), v)).collect();
                    prop_assert_eq!($game::Settings::from_pairs(borrowed(&back)), Ok(s));
                }
            };
        }
        reads_back!(snakebattle, sb);
        reads_back!(hex, hx);
        reads_back!(multisnake, ms);
        reads_back!(carrots, cr);
        reads_back!(duel, du);
    }

    /// Accepted settings start games that play: a replay header may carry
    /// any values the settings accept.
    #[test]
    fn accepted_settings_play(
        sb in pairs(SNAKEBATTLE_KEYS),
        hx in pairs(HEX_KEYS),
        ms in pairs(MULTISNAKE_KEYS),
        seed in any::<u64>(),
    ) {
        if let Ok(s) = snakebattle::Settings::from_pairs(borrowed(&sb))
            && let Ok(game) = snakebattle::SnakeBattle::new(s, snakebattle::Map::default_map(), 4, seed)
        {
            play(game, seed, 40);
        }
        if let Ok(s) = hex::Settings::from_pairs(borrowed(&hx))
            && let Ok(game) = hex::Hex::new(s, hex::Map::default_map(), 2, seed)
        {
            play(game, seed, 40);
        }
        if let Ok(s) = multisnake::Settings::from_pairs(borrowed(&ms)) {
            let spec = multisnake::MapSpec::from_pairs([("width", "9"), ("height", "9"), ("players", "2")]).unwrap();
            play(multisnake::Multisnake::new(s, multisnake::generate(&spec, 3).unwrap(), seed), seed, 40);
        }
    }
}

/// A replay header's Hex settings with a points value of the smallest i64
/// must be refused like any value out of range, not overflow in
/// `hex::Settings::from_pairs` (crates/engine/src/hex/settings.rs:115:
/// `v.abs()`).
#[test]
fn hex_points_of_i64_min_are_refused() {
    for key in ["points_win", "points_lose"] {
        assert!(hex::Settings::from_pairs([(key, I64_MIN)]).is_err(), "{key}");
    }
    let (_, text) = &valid_replays()[1];
    let text = text.replacen("\"points_win\":\"30\"", &format!("\"points_win\":\"{I64_MIN}\""), 1);
    assert!(text.contains(I64_MIN));
    assert!(Replay::<hex::Hex>::parse(&text).is_err());
}

/// SnakeBattle points from a replay header are bounded, so that the
/// scoring's sums and products of them cannot overflow: values at the ends
/// of the i64 range are refused, in the settings and in a replay.
#[test]
fn snakebattle_extreme_points_are_refused() {
    for key in ["points_die_penalty", "points_apple", "points_eat_per_cell", "points_win_flat", "points_win_per_tick"] {
        for value in [I64_MIN, "9223372036854775807", "1000001", "-1000001"] {
            assert!(snakebattle::Settings::from_pairs([(key, value)]).is_err(), "{key}={value}");
        }
        assert!(snakebattle::Settings::from_pairs([(key, "-1000000")]).is_ok(), "{key}");
    }
    // The least penalty allowed, paid every tick, stays within bounds.
    let settings = snakebattle::Settings::from_pairs([("points_die_penalty", "-1000000")]).unwrap();
    let mut game = snakebattle::SnakeBattle::new(settings, snakebattle::Map::default_map(), 2, 1).unwrap();
    // `X` is ACT(0): the snake dies at once and pays the penalty.
    let die = <snakebattle::SnakeBattle as Game>::action_from_text("X").unwrap();
    for _ in 0..10 {
        game.step(&[die, die]);
    }
    assert!(game.scores().iter().all(|&s| s.abs() <= 100_000_000));
}
