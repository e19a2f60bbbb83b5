//! One test per rule sentence of Codenjoy's Hex description (Hex) and of `codenjoy.md` §3,
//! plus the decisions taken where both are silent.
//!
//! The test names are the ones in the table of `src/hex/mod.rs`. Every case
//! goes through [`check`]: a drawn position in, the events and the position
//! out, as an `expect![[...]]`. The expectations were checked by hand
//! against Codenjoy's Hex description: when `UPDATE_EXPECT=1` changes one,
//! read the new text against the rule before keeping it.
//!
//! # Notation
//!
//! ```text
//! game: seed=3 profile=codenjoy
//! ☼☼☼☼☼
//! ☼A.B☼
//! ☼.#.☼
//! ☼☼☼☼☼
//! A: score=40
//! C: waiting
//! > A=C1,1R B=[ACT(3,1),LEFT]
//! show
//! > x2
//! ```
//!
//! * `game:` (optional, first) holds `seed=N` (default 1) and settings as
//!   `key=value`, read by `Settings::from_pairs`.
//! * The board is square: `☼` a wall of the map, `#` a wall formed during
//!   the game, `.` or space empty, `A`..`O` a piece of seat 0..14.
//! * `X: ...` lines set a seat's `score=N` and state: `absent` (no player),
//!   `waiting` (present, gets its first piece at the end of the next tick).
//!   A seat drawn on the board, or listed without a state, is on the field
//!   (with no pieces if none are drawn). Seats below the highest one used
//!   that appear nowhere are absent.
//! * `>` runs a tick. `A=...` gives seat A the engine's compact action text
//!   (`C2,3L` clone, `J1,1U` jump, `-` nothing; the default), or in brackets
//!   the answer a bot sends, read by `snakepit_protocol::hex::read_command`
//!   against the position before the tick. `xN` runs the tick N times.
//! * `show` prints the position at that point; it is also printed at the
//!   end.
//!
//! # Output
//!
//! Each tick prints `tick N: <moves>` (a bracketed answer with `→` and the
//! action it was read as), then one line per event, indented. A position is
//! the board in the input notation and one line per seat:
//! `A: [absent|waiting] pieces=N score=N`.

mod notation;

use expect_test::{Expect, expect};
use snakepit_engine::hex::{Action, Cell, Event, Hex, Ignored, Map, Player, Restart, ScoreReason, Settings};
use snakepit_engine::Game;
use std::fmt::Write;

use notation::{dedent, letter_of};

/// Seats the notation's letters name: `A` to `O`.
const SEATS: usize = 15;

fn seat_of(letter: char) -> Option<usize> {
    notation::seat_of(letter, SEATS)
}

fn is_seat_line(line: &str) -> bool {
    notation::is_seat_line(line, SEATS)
}

/// The table of rule sentences in `src/hex/mod.rs` and the tests of this
/// file name each other exactly.
#[test]
fn rule_table_matches_tests() {
    let table = notation::table_tests(include_str!("../src/hex/mod.rs"));
    let tests = notation::test_fns(include_str!("hex_rules.rs"));
    notation::assert_table_matches("src/hex/mod.rs", &table, &tests, 31);
}

// ---------------------------------------------------------------------------
// The check helper

/// Runs a case written in the notation above and compares its report.
fn check(input: &str, expect: Expect) {
    expect.assert_eq(&run(input));
}





/// A seat's line: its state and score.
#[derive(Default)]
struct SeatLine {
    absent: bool,
    waiting: bool,
    score: i64,
}

enum Step {
    Tick { moves: Vec<(usize, String)>, times: u32 },
    Show,
}

fn run(input: &str) -> String {
    let mut lines = dedent(input).into_iter().peekable();
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut seed = 1;
    if let Some(game) = lines.peek().and_then(|l| l.strip_prefix("game:")) {
        for word in game.split_whitespace() {
            match word.split_once('=') {
                Some(("seed", v)) => seed = v.parse().expect("game: seed=N"),
                Some((k, v)) => pairs.push((k.to_string(), v.to_string())),
                None => panic!("game: unknown word {word:?}"),
            }
        }
        lines.next();
    }
    let settings =
        Settings::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str()))).unwrap_or_else(|e| panic!("{e}"));

    let mut rows: Vec<Vec<char>> = Vec::new();
    while let Some(line) = lines.peek() {
        if line.trim().is_empty() || line.starts_with('>') || *line == "show" || is_seat_line(line) {
            break;
        }
        rows.push(line.chars().collect());
        lines.next();
    }
    let size = rows.len();
    for (y, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), size, "board row {y} is {} wide; the board must be square", row.len());
    }

    let mut seat_lines: Vec<Option<SeatLine>> = Vec::new();
    let mut script = Vec::new();
    let mut highest = None;
    for line in lines {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line == "show" {
            script.push(Step::Show);
        } else if let Some(moves) = line.strip_prefix('>') {
            let mut m = Vec::new();
            let mut times = 1;
            for word in moves.split_whitespace() {
                if word == "-" {
                    continue;
                }
                if let Some(n) = word.strip_prefix('x') {
                    times = n.parse().unwrap_or_else(|_| panic!("bad repeat {word:?}"));
                    continue;
                }
                let (who, what) = word.split_once('=').unwrap_or_else(|| panic!("bad move {word:?}"));
                let seat = seat_of(who.chars().next().unwrap_or('?')).unwrap_or_else(|| panic!("bad seat in {word:?}"));
                highest = highest.max(Some(seat));
                m.push((seat, what.to_string()));
            }
            script.push(Step::Tick { moves: m, times });
        } else if is_seat_line(line) {
            let seat = seat_of(line.chars().next().unwrap_or('?')).unwrap_or_default();
            highest = highest.max(Some(seat));
            let mut s = SeatLine::default();
            for word in line[2..].split_whitespace() {
                match word.split_once('=') {
                    Some(("score", v)) => s.score = v.parse().expect("score=N"),
                    None if word == "absent" => s.absent = true,
                    None if word == "waiting" => s.waiting = true,
                    _ => panic!("unknown seat attribute {word:?}"),
                }
            }
            if seat_lines.len() <= seat {
                seat_lines.resize_with(seat + 1, || None);
            }
            seat_lines[seat] = Some(s);
        } else {
            panic!("cannot read line {line:?}");
        }
    }

    // The map: drawn walls of the map; everything else is empty.
    let mut map_text = String::new();
    for row in &rows {
        map_text.extend(row.iter().map(|&c| if c == '☼' { '☼' } else { ' ' }));
        map_text.push('\n');
    }
    let map = Map::parse(&map_text).unwrap_or_else(|e| panic!("the board is not a map: {e}"));
    let mut cells = Vec::with_capacity(size * size);
    for row in &rows {
        for &c in row {
            cells.push(match c {
                '☼' | '#' => Cell::Wall,
                '.' | ' ' => Cell::Empty,
                c => {
                    let seat = seat_of(c).unwrap_or_else(|| panic!("unknown board glyph {c:?}"));
                    highest = highest.max(Some(seat));
                    Cell::Piece(seat)
                }
            });
        }
    }
    let seats = highest.map_or(0, |h| h + 1);
    let drawn = |seat| cells.contains(&Cell::Piece(seat));
    let players: Vec<Player> = (0..seats)
        .map(|seat| {
            let line = seat_lines.get(seat).and_then(Option::as_ref);
            let present = line.map_or(drawn(seat), |l| !l.absent);
            Player {
                present,
                placed: present && !line.is_some_and(|l| l.waiting),
                pieces: 0,
                score: line.map_or(0, |l| l.score),
            }
        })
        .collect();
    let mut game = Hex::new(settings, map, 0, seed).expect("an empty game");
    game.set_position(cells, players);

    let mut out = String::new();
    for step in &script {
        match step {
            Step::Show => {
                out.push_str(&position(&game));
                out.push('\n');
            }
            Step::Tick { moves, times } => {
                for _ in 0..*times {
                    let mut actions = vec![Action::Skip; game.seats()];
                    let mut shown = Vec::new();
                    for (seat, text) in moves {
                        let (action, read_as) = match text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
                            Some(answer) => {
                                let a = snakepit_protocol::hex::read_command(&game, *seat, answer).action;
                                (a, format!("→{}", a.to_text()))
                            }
                            None => (Action::from_text(text).unwrap_or_else(|e| panic!("{e}")), String::new()),
                        };
                        *actions.get_mut(*seat).expect("a move for a seat the case does not have") = action;
                        shown.push(format!("{}={text}{read_as}", letter_of(*seat)));
                    }
                    let shown = if shown.is_empty() { "-".to_string() } else { shown.join(" ") };
                    let events = game.step(&actions);
                    writeln!(out, "tick {}: {shown}", game.tick()).ok();
                    for e in &events {
                        writeln!(out, "  {}", event_text(e)).ok();
                    }
                    if let Err(e) = game.check_invariants() {
                        panic!("invariant broken: {e}\n{out}");
                    }
                }
            }
        }
    }
    out.push_str(&position(&game));
    out
}

fn position(game: &Hex) -> String {
    let n = game.size();
    let mut out = String::new();
    for (i, c) in game.cells().iter().enumerate() {
        out.push(match *c {
            Cell::Empty => '.',
            Cell::Wall if game.map().walls[i] => '☼',
            Cell::Wall => '#',
            Cell::Piece(s) => letter_of(s),
        });
        if i % n == n - 1 {
            out.push('\n');
        }
    }
    for (seat, p) in game.players().iter().enumerate() {
        let state = if !p.present {
            " absent"
        } else if !p.placed {
            " waiting"
        } else {
            ""
        };
        writeln!(out, "{}:{state} pieces={} score={}", letter_of(seat), p.pieces, p.score).ok();
    }
    out
}

/// The stable one-line form of an event, with seats as letters.
fn event_text(e: &Event) -> String {
    let l = letter_of;
    match e {
        Event::Left { seat, pieces } => format!("{} left, {pieces} pieces removed", l(*seat)),
        Event::Restarted { reason } => match reason {
            Restart::NoPieces(seats) => {
                let who: String = seats.iter().map(|&s| l(s)).collect();
                format!("restart: {who} {} no pieces", if seats.len() == 1 { "has" } else { "have" })
            }
            Restart::BoardFull => "restart: the board is full".to_string(),
            Restart::Still => "restart: nothing moved".to_string(),
        },
        Event::Ignored { seat, action, why } => {
            let why = match why {
                Ignored::NotYourPiece => "not its piece",
                Ignored::OffBoard => "target off the board",
                Ignored::Wall => "target is a wall",
                Ignored::Occupied => "target is occupied",
                Ignored::Restart => "dropped by the restart",
            };
            format!("{} {} ignored: {why}", l(*seat), action.to_text())
        }
        Event::Cloned { seat, from, to } => format!("{} cloned {from} to {to}", l(*seat)),
        Event::Jumped { seat, from, to } => format!("{} jumped {from} to {to}", l(*seat)),
        Event::WallFormed { at, seats } => {
            let who: String = seats.iter().map(|&s| l(s)).collect();
            format!("wall formed at {at} by {who}")
        }
        Event::JumpLost { seat, from, at } => format!("{} lost the piece it jumped from {from} into the wall at {at}", l(*seat)),
        Event::Neutralised { seat, at } => format!("{} at {at} is next to another new piece: no capture", l(*seat)),
        Event::Captured { seat, victim, at } => format!("{} captured {at} from {}", l(*seat), l(*victim)),
        Event::Scored { seat, reason, pieces, points } => {
            let why = match reason {
                ScoreReason::Gained => "gained",
                ScoreReason::Lost => "lost",
            };
            format!("{} {points:+} ({pieces} {why})", l(*seat))
        }
        Event::Placed { seat, at } => format!("{} placed at {at}", l(*seat)),
        Event::NoRoom { seat } => format!("{} has no room", l(*seat)),
    }
}

// ---------------------------------------------------------------------------
// Moves

#[test]
fn any_own_piece_may_move() {
    // A has three pieces; each tick it moves a different one.
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼A....☼
        ☼.....☼
        ☼..A..☼
        ☼.....☼
        ☼....A☼
        ☼☼☼☼☼☼☼
        > A=C1,1R
        > A=C3,3D
        > A=J5,5U
        "#,
        expect![[r#"
            tick 1: A=C1,1R
              A cloned [1,1] to [2,1]
              A +30 (1 gained)
            tick 2: A=C3,3D
              A cloned [3,3] to [3,4]
              A +30 (1 gained)
            tick 3: A=J5,5U
              A jumped [5,5] to [5,3]
            ☼☼☼☼☼☼☼
            ☼AA...☼
            ☼.....☼
            ☼..A.A☼
            ☼..A..☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: pieces=5 score=60
        "#]],
    );
}

#[test]
fn one_cell_clones() {
    check(
        r#"
        ☼☼☼☼☼
        ☼...☼
        ☼.A.☼
        ☼...☼
        ☼☼☼☼☼
        > A=C2,2L
        "#,
        expect![[r#"
            tick 1: A=C2,2L
              A cloned [2,2] to [1,2]
              A +30 (1 gained)
            ☼☼☼☼☼
            ☼...☼
            ☼AA.☼
            ☼...☼
            ☼☼☼☼☼
            A: pieces=2 score=30
        "#]],
    );
}

#[test]
fn two_cells_jumps() {
    check(
        r#"
        ☼☼☼☼☼☼
        ☼A...☼
        ☼....☼
        ☼....☼
        ☼....☼
        ☼☼☼☼☼☼
        > A=J1,1R
        > A=J3,1D
        "#,
        expect![[r#"
            tick 1: A=J1,1R
              A jumped [1,1] to [3,1]
            tick 2: A=J3,1D
              A jumped [3,1] to [3,3]
            ☼☼☼☼☼☼
            ☼....☼
            ☼....☼
            ☼..A.☼
            ☼....☼
            ☼☼☼☼☼☼
            A: pieces=1 score=0
        "#]],
    );
}

#[test]
fn four_directions() {
    // Four seats clone in the four directions and jump in the four
    // directions; nothing moves diagonally. Seats are far apart so that
    // nothing is captured.
    check(
        r#"
        ☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼...........☼
        ☼.A.......B.☼
        ☼...........☼
        ☼...........☼
        ☼...........☼
        ☼...........☼
        ☼...........☼
        ☼...........☼
        ☼...........☼
        ☼.C.......D.☼
        ☼...........☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼
        > A=C2,2U B=C10,2R C=C2,10L D=C10,10D
        > A=J2,2D B=J10,2L C=J2,10R D=J10,10U
        "#,
        expect![[r#"
            tick 1: A=C2,2U B=C10,2R C=C2,10L D=C10,10D
              A cloned [2,2] to [2,1]
              B cloned [10,2] to [11,2]
              C cloned [2,10] to [1,10]
              D cloned [10,10] to [10,11]
              A +30 (1 gained)
              B +30 (1 gained)
              C +30 (1 gained)
              D +30 (1 gained)
            tick 2: A=J2,2D B=J10,2L C=J2,10R D=J10,10U
              A jumped [2,2] to [2,4]
              B jumped [10,2] to [8,2]
              C jumped [2,10] to [4,10]
              D jumped [10,10] to [10,8]
            ☼☼☼☼☼☼☼☼☼☼☼☼☼
            ☼.A.........☼
            ☼.......B..B☼
            ☼...........☼
            ☼.A.........☼
            ☼...........☼
            ☼...........☼
            ☼...........☼
            ☼.........D.☼
            ☼...........☼
            ☼C..C.......☼
            ☼.........D.☼
            ☼☼☼☼☼☼☼☼☼☼☼☼☼
            A: pieces=2 score=30
            B: pieces=2 score=30
            C: pieces=2 score=30
            D: pieces=2 score=30
        "#]],
    );
}

#[test]
fn seed_example_clone_left() {
    // `ACT(2,3),LEFT`: the piece at x=2, y=3 counted from the top-left
    // corner clones to the left.
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼.....☼
        ☼.....☼
        ☼.A...☼
        ☼.....☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        > A=[ACT(2,3),LEFT]
        "#,
        expect![[r#"
            tick 1: A=[ACT(2,3),LEFT]→C2,3L
              A cloned [2,3] to [1,3]
              A +30 (1 gained)
            ☼☼☼☼☼☼☼
            ☼.....☼
            ☼.....☼
            ☼AA...☼
            ☼.....☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: pieces=2 score=30
        "#]],
    );
}

#[test]
fn seed_example_jump_up() {
    // `ACT(1,1,1),UP` jumps the piece at [1,1] two cells up. With y from
    // the top, [1,1] is the top-left cell inside the border and two cells up
    // is off the board, so the move is ignored; the piece at [1,4] shows the
    // same command making a jump.
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼A....☼
        ☼.....☼
        ☼.....☼
        ☼A....☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        > A=[ACT(1,1,1),UP]
        > A=[ACT(1,4,1),UP]
        "#,
        expect![[r#"
            tick 1: A=[ACT(1,1,1),UP]→J1,1U
              A J1,1U ignored: target off the board
            tick 2: A=[ACT(1,4,1),UP]→J1,4U
              A jumped [1,4] to [1,2]
            ☼☼☼☼☼☼☼
            ☼A....☼
            ☼A....☼
            ☼.....☼
            ☼.....☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: pieces=2 score=0
        "#]],
    );
}

#[test]
fn no_move_skips() {
    check(
        r#"
        ☼☼☼☼☼
        ☼A..☼
        ☼...☼
        ☼..B☼
        ☼☼☼☼☼
        > A=- x3
        "#,
        expect![[r#"
            tick 1: A=-
            tick 2: A=-
            tick 3: A=-
            ☼☼☼☼☼
            ☼A..☼
            ☼...☼
            ☼..B☼
            ☼☼☼☼☼
            A: pieces=1 score=0
            B: pieces=1 score=0
        "#]],
    );
}

#[test]
fn one_move_per_tick() {
    // An answer with two selections and directions moves one piece: the
    // last selection with its direction.
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼A....☼
        ☼.....☼
        ☼.....☼
        ☼.....☼
        ☼....A☼
        ☼☼☼☼☼☼☼
        > A=[ACT(1,1),RIGHT,ACT(5,5),UP]
        "#,
        expect![[r#"
            tick 1: A=[ACT(1,1),RIGHT,ACT(5,5),UP]→C5,5U
              A cloned [5,5] to [5,4]
              A +30 (1 gained)
            ☼☼☼☼☼☼☼
            ☼A....☼
            ☼.....☼
            ☼.....☼
            ☼....A☼
            ☼....A☼
            ☼☼☼☼☼☼☼
            A: pieces=3 score=30
        "#]],
    );
}

#[test]
fn jump_passes_over_walls_and_pieces() {
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼A#...☼
        ☼.....☼
        ☼B....☼
        ☼.....☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        > A=J1,1R B=J1,3U
        "#,
        expect![[r#"
            tick 1: A=J1,1R B=J1,3U
              B J1,3U ignored: target is occupied
              A jumped [1,1] to [3,1]
            ☼☼☼☼☼☼☼
            ☼.#A..☼
            ☼.....☼
            ☼B....☼
            ☼.....☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: pieces=1 score=0
            B: pieces=1 score=0
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Invalid moves

#[test]
fn moving_a_piece_not_yours_is_ignored() {
    // A names B's piece, and an empty cell: both are no move.
    check(
        r#"
        ☼☼☼☼☼☼
        ☼A...☼
        ☼....☼
        ☼...B☼
        ☼....☼
        ☼☼☼☼☼☼
        > A=C4,3L
        > A=C2,2L
        > A=[ACT(4,3),LEFT]
        "#,
        expect![[r#"
            tick 1: A=C4,3L
              A C4,3L ignored: not its piece
            tick 2: A=C2,2L
              A C2,2L ignored: not its piece
            tick 3: A=[ACT(4,3),LEFT]→-
            ☼☼☼☼☼☼
            ☼A...☼
            ☼....☼
            ☼...B☼
            ☼....☼
            ☼☼☼☼☼☼
            A: pieces=1 score=0
            B: pieces=1 score=0
        "#]],
    );
}

#[test]
fn target_off_board_is_ignored() {
    // A board without a border: the edge is the end of the board.
    check(
        r#"
        A..
        ...
        ..B
        > A=C0,0U B=J2,2R
        "#,
        expect![[r#"
            tick 1: A=C0,0U B=J2,2R
              A C0,0U ignored: target off the board
              B J2,2R ignored: target off the board
            A..
            ...
            ..B
            A: pieces=1 score=0
            B: pieces=1 score=0
        "#]],
    );
}

#[test]
fn target_wall_is_ignored() {
    // A wall of the map and a wall formed in the game.
    check(
        r#"
        ☼☼☼☼☼☼
        ☼A#..☼
        ☼....☼
        ☼....☼
        ☼....☼
        ☼☼☼☼☼☼
        > A=C1,1U
        > A=C1,1R
        "#,
        expect![[r#"
            tick 1: A=C1,1U
              A C1,1U ignored: target is a wall
            tick 2: A=C1,1R
              A C1,1R ignored: target is a wall
            ☼☼☼☼☼☼
            ☼A#..☼
            ☼....☼
            ☼....☼
            ☼....☼
            ☼☼☼☼☼☼
            A: pieces=1 score=0
        "#]],
    );
}

#[test]
fn target_occupied_is_ignored() {
    // Occupied by its own piece or by an enemy's.
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼AA...☼
        ☼.....☼
        ☼B....☼
        ☼.....☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        > A=C1,1R
        > A=J1,1D
        "#,
        expect![[r#"
            tick 1: A=C1,1R
              A C1,1R ignored: target is occupied
            tick 2: A=J1,1D
              A J1,1D ignored: target is occupied
            ☼☼☼☼☼☼☼
            ☼AA...☼
            ☼.....☼
            ☼B....☼
            ☼.....☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: pieces=2 score=0
            B: pieces=1 score=0
        "#]],
    );
}

#[test]
fn moves_are_simultaneous() {
    // B jumps away from [3,1] while A clones into it: the cell was taken
    // when the tick began, so A's move is ignored. C clones next to D's
    // piece while D jumps it away: captures look at where the pieces are
    // after the moves, so C finds nothing to take.
    check(
        r#"
        ☼☼☼☼☼☼☼☼☼
        ☼.AB....☼
        ☼.......☼
        ☼.......☼
        ☼.......☼
        ☼.C.D...☼
        ☼.......☼
        ☼.......☼
        ☼☼☼☼☼☼☼☼☼
        > A=C2,1R B=J3,1R C=C2,5R D=J4,5R
        "#,
        expect![[r#"
            tick 1: A=C2,1R B=J3,1R C=C2,5R D=J4,5R
              A C2,1R ignored: target is occupied
              B jumped [3,1] to [5,1]
              C cloned [2,5] to [3,5]
              D jumped [4,5] to [6,5]
              C +30 (1 gained)
            ☼☼☼☼☼☼☼☼☼
            ☼.A..B..☼
            ☼.......☼
            ☼.......☼
            ☼.......☼
            ☼.CC..D.☼
            ☼.......☼
            ☼.......☼
            ☼☼☼☼☼☼☼☼☼
            A: pieces=1 score=0
            B: pieces=1 score=0
            C: pieces=2 score=30
            D: pieces=1 score=0
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Captures

#[test]
fn new_piece_captures_neighbours() {
    check(
        r#"
        ☼☼☼☼☼☼
        ☼A.B.☼
        ☼....☼
        ☼....☼
        ☼....☼
        ☼☼☼☼☼☼
        > A=C1,1R
        "#,
        expect![[r#"
            tick 1: A=C1,1R
              A cloned [1,1] to [2,1]
              A captured [3,1] from B
              A +60 (2 gained)
              B -10 (1 lost)
            ☼☼☼☼☼☼
            ☼AAA.☼
            ☼....☼
            ☼....☼
            ☼....☼
            ☼☼☼☼☼☼
            A: pieces=3 score=60
            B: pieces=0 score=0
        "#]],
    );
}

#[test]
fn capture_includes_diagonals() {
    check(
        r#"
        ☼☼☼☼☼☼
        ☼..B.☼
        ☼A...☼
        ☼..C.☼
        ☼....☼
        ☼☼☼☼☼☼
        > A=C1,2R
        "#,
        expect![[r#"
            tick 1: A=C1,2R
              A cloned [1,2] to [2,2]
              A captured [3,1] from B
              A captured [3,3] from C
              A +90 (3 gained)
              B -10 (1 lost)
              C -10 (1 lost)
            ☼☼☼☼☼☼
            ☼..A.☼
            ☼AA..☼
            ☼..A.☼
            ☼....☼
            ☼☼☼☼☼☼
            A: pieces=4 score=90
            B: pieces=0 score=0
            C: pieces=0 score=0
        "#]],
    );
}

#[test]
fn capture_converts_the_whole_neighbourhood() {
    // A jumps into the middle of B's and C's pieces: every enemy piece
    // among the eight neighbours changes sides, whoever owned it (seven
    // here); A's own piece at [3,3] stays as it is.
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼BBB..☼
        ☼B.C..☼
        ☼CCA..☼
        ☼.A...☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        B: score=100
        > A=J2,4U
        "#,
        expect![[r#"
            tick 1: A=J2,4U
              A jumped [2,4] to [2,2]
              A captured [1,1] from B
              A captured [2,1] from B
              A captured [3,1] from B
              A captured [1,2] from B
              A captured [3,2] from C
              A captured [1,3] from C
              A captured [2,3] from C
              A +210 (7 gained)
              B -40 (4 lost)
              C -30 (3 lost)
            ☼☼☼☼☼☼☼
            ☼AAA..☼
            ☼AAA..☼
            ☼AAA..☼
            ☼.....☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: pieces=9 score=210
            B: pieces=0 score=60
            C: pieces=0 score=0
        "#]],
    );
}

#[test]
fn new_piece_placed_this_tick_is_not_captured() {
    // Hex description: enemy pieces next to a new piece become its player's,
    // except a piece the opponent moved (placed) in the same tick. A's and B's
    // new pieces land diagonally next to each other and keep each other; A's
    // takes B's old piece at [3,1], B's takes A's old piece at [2,3].
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼A.B..☼
        ☼...B.☼
        ☼.A...☼
        ☼.....☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        > A=C1,1R B=C4,2L
        "#,
        expect![[r#"
            tick 1: A=C1,1R B=C4,2L
              A cloned [1,1] to [2,1]
              B cloned [4,2] to [3,2]
              A captured [3,1] from B
              B captured [2,3] from A
              A -10 (1 lost)
              A +60 (2 gained)
              B -10 (1 lost)
              B +60 (2 gained)
            ☼☼☼☼☼☼☼
            ☼AAA..☼
            ☼..BB.☼
            ☼.B...☼
            ☼.....☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: pieces=3 score=60
            B: pieces=3 score=60
        "#]],
    );
}

#[test]
fn codenjoy_adjacent_new_pieces_capture_nothing() {
    // Upstream's annihilation: A's and B's new pieces land diagonally next
    // to each other, so neither captures, though A's is next to B's old
    // piece at [3,1] and B's is next to A's old piece at [2,3]. The same
    // moves under the Hex description's rule:
    // `new_piece_placed_this_tick_is_not_captured`.
    check(
        r#"
        game: profile=codenjoy
        ☼☼☼☼☼☼☼
        ☼A.B..☼
        ☼...B.☼
        ☼.A...☼
        ☼.....☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        > A=C1,1R B=C4,2L
        "#,
        expect![[r#"
            tick 1: A=C1,1R B=C4,2L
              A cloned [1,1] to [2,1]
              B cloned [4,2] to [3,2]
              A at [2,1] is next to another new piece: no capture
              B at [3,2] is next to another new piece: no capture
              A +30 (1 gained)
              B +30 (1 gained)
            ☼☼☼☼☼☼☼
            ☼AAB..☼
            ☼..BB.☼
            ☼.A...☼
            ☼.....☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: pieces=3 score=30
            B: pieces=3 score=30
        "#]],
    );
}

#[test]
fn clone_source_can_be_captured() {
    // B clones away from [3,1]; the piece that stays there is not new, so
    // A's new piece next to it captures it. B's new piece at [4,1] is two
    // cells from A's, so neither is neutralised.
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼A.B..☼
        ☼.....☼
        ☼.....☼
        ☼.....☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        > A=C1,1R B=C3,1R
        "#,
        expect![[r#"
            tick 1: A=C1,1R B=C3,1R
              A cloned [1,1] to [2,1]
              B cloned [3,1] to [4,1]
              A captured [3,1] from B
              A +60 (2 gained)
              B -10 (1 lost)
              B +30 (1 gained)
            ☼☼☼☼☼☼☼
            ☼AAAB.☼
            ☼.....☼
            ☼.....☼
            ☼.....☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: pieces=3 score=60
            B: pieces=1 score=30
        "#]],
    );
}

#[test]
fn contested_piece_stays_with_its_owner() {
    // C's piece at [3,2] is next to A's and B's new pieces, which are two
    // cells apart: both reach it in the same tick, so neither takes it (and
    // the outcome does not depend on which of them holds the lower seat:
    // `contested_piece_stays_whatever_the_seats` swaps them).
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼.....☼
        ☼A.C.B☼
        ☼.....☼
        ☼.....☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        > A=C1,2R B=C5,2L
        "#,
        expect![[r#"
            tick 1: A=C1,2R B=C5,2L
              A cloned [1,2] to [2,2]
              B cloned [5,2] to [4,2]
              A +30 (1 gained)
              B +30 (1 gained)
            ☼☼☼☼☼☼☼
            ☼.....☼
            ☼AACBB☼
            ☼.....☼
            ☼.....☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: pieces=2 score=30
            B: pieces=2 score=30
            C: pieces=1 score=0
        "#]],
    );
}

#[test]
fn contested_piece_stays_whatever_the_seats() {
    // `contested_piece_stays_with_its_owner` with A and B swapped: the
    // same position and the same moves give the same board, relabelled.
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼.....☼
        ☼B.C.A☼
        ☼.....☼
        ☼.....☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        > B=C1,2R A=C5,2L
        "#,
        expect![[r#"
            tick 1: B=C1,2R A=C5,2L
              A cloned [5,2] to [4,2]
              B cloned [1,2] to [2,2]
              A +30 (1 gained)
              B +30 (1 gained)
            ☼☼☼☼☼☼☼
            ☼.....☼
            ☼BBCAA☼
            ☼.....☼
            ☼.....☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: pieces=2 score=30
            B: pieces=2 score=30
            C: pieces=1 score=0
        "#]],
    );
}

#[test]
fn captured_pieces_capture_nothing() {
    // B's piece at [3,1] becomes A's; C's piece next to it stays C's.
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼A.BC.☼
        ☼.....☼
        ☼.....☼
        ☼.....☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        > A=C1,1R
        "#,
        expect![[r#"
            tick 1: A=C1,1R
              A cloned [1,1] to [2,1]
              A captured [3,1] from B
              A +60 (2 gained)
              B -10 (1 lost)
            ☼☼☼☼☼☼☼
            ☼AAAC.☼
            ☼.....☼
            ☼.....☼
            ☼.....☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: pieces=3 score=60
            B: pieces=0 score=0
            C: pieces=1 score=0
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Walls

#[test]
fn same_target_forms_a_wall() {
    // A and B clone into [3,1]: a wall, neither gains a piece. Their new
    // pieces are gone, so nobody captures either.
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼.A.B.☼
        ☼.....☼
        ☼.....☼
        ☼.....☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        > A=C2,1R B=C4,1L
        "#,
        expect![[r#"
            tick 1: A=C2,1R B=C4,1L
              wall formed at [3,1] by AB
            ☼☼☼☼☼☼☼
            ☼.A#B.☼
            ☼.....☼
            ☼.....☼
            ☼.....☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: pieces=1 score=0
            B: pieces=1 score=0
        "#]],
    );
}

#[test]
fn cell_taken_this_tick_counts_as_free() {
    // B jumps into the cell A clones into: for each of them the cell is
    // free when the tick begins, so both moves are made, and they meet.
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼.A...☼
        ☼...B.☼
        ☼.....☼
        ☼.....☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        B: score=50
        > A=C2,1D B=J4,2L
        "#,
        expect![[r#"
            tick 1: A=C2,1D B=J4,2L
              wall formed at [2,2] by AB
              B lost the piece it jumped from [4,2] into the wall at [2,2]
              B -10 (1 lost)
            ☼☼☼☼☼☼☼
            ☼.A...☼
            ☼.#...☼
            ☼.....☼
            ☼.....☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: pieces=1 score=0
            B: pieces=0 score=40
        "#]],
    );
}

#[test]
fn jumped_piece_in_a_wall_is_lost() {
    // Both jump into [3,2]: both lose their piece (-10 each) and, with no
    // pieces left, everyone restarts at the next tick.
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼.....☼
        ☼A...B☼
        ☼.....☼
        ☼.....☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        A: score=25
        B: score=5
        > A=J1,2R B=J5,2L
        show
        >
        "#,
        expect![[r#"
            tick 1: A=J1,2R B=J5,2L
              wall formed at [3,2] by AB
              A lost the piece it jumped from [1,2] into the wall at [3,2]
              B lost the piece it jumped from [5,2] into the wall at [3,2]
              A -10 (1 lost)
              B -10 (1 lost)
            ☼☼☼☼☼☼☼
            ☼.....☼
            ☼..#..☼
            ☼.....☼
            ☼.....☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: pieces=0 score=15
            B: pieces=0 score=0

            tick 2: -
              restart: AB have no pieces
              B placed at [5,2]
              A placed at [1,4]
            ☼☼☼☼☼☼☼
            ☼.....☼
            ☼....B☼
            ☼.....☼
            ☼A....☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: pieces=1 score=15
            B: pieces=1 score=0
        "#]],
    );
}

#[test]
fn three_pieces_on_one_cell() {
    check(
        r#"
        ☼☼☼☼☼☼☼
        ☼..A..☼
        ☼.....☼
        ☼B..C.☼
        ☼.....☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        > A=J3,1D B=J1,3R C=C4,3L
        "#,
        expect![[r#"
            tick 1: A=J3,1D B=J1,3R C=C4,3L
              wall formed at [3,3] by ABC
              A lost the piece it jumped from [3,1] into the wall at [3,3]
              B lost the piece it jumped from [1,3] into the wall at [3,3]
              A -10 (1 lost)
              B -10 (1 lost)
            ☼☼☼☼☼☼☼
            ☼.....☼
            ☼.....☼
            ☼..#C.☼
            ☼.....☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: pieces=0 score=0
            B: pieces=0 score=0
            C: pieces=1 score=0
        "#]],
    );
}

#[test]
fn codenjoy_wall_pieces_still_neutralise_neighbours() {
    // Upstream's annihilation: A and B meet at [3,1]; C's new piece at
    // [4,2] is next to that cell, so it captures nothing, though B's piece
    // at [4,1] and A's at [5,3] are next to it.
    check(
        r#"
        game: annihilation=true
        ☼☼☼☼☼☼☼
        ☼.A.B.☼
        ☼.....☼
        ☼...CA☼
        ☼.....☼
        ☼.....☼
        ☼☼☼☼☼☼☼
        > A=C2,1R B=C4,1L C=C4,3U
        "#,
        expect![[r#"
            tick 1: A=C2,1R B=C4,1L C=C4,3U
              wall formed at [3,1] by AB
              C cloned [4,3] to [4,2]
              C at [4,2] is next to another new piece: no capture
              C +30 (1 gained)
            ☼☼☼☼☼☼☼
            ☼.A#B.☼
            ☼...C.☼
            ☼...CA☼
            ☼.....☼
            ☼.....☼
            ☼☼☼☼☼☼☼
            A: pieces=2 score=0
            B: pieces=1 score=0
            C: pieces=2 score=30
        "#]],
    );
}

// ---------------------------------------------------------------------------
// Scores

#[test]
fn capture_scores_30_loss_costs_10() {
    check(
        r#"
        ☼☼☼☼☼☼
        ☼A.BB☼
        ☼...B☼
        ☼....☼
        ☼....☼
        ☼☼☼☼☼☼
        B: score=100
        > A=C1,1R
        "#,
        expect![[r#"
            tick 1: A=C1,1R
              A cloned [1,1] to [2,1]
              A captured [3,1] from B
              A +60 (2 gained)
              B -10 (1 lost)
            ☼☼☼☼☼☼
            ☼AAAB☼
            ☼...B☼
            ☼....☼
            ☼....☼
            ☼☼☼☼☼☼
            A: pieces=3 score=60
            B: pieces=2 score=90
        "#]],
    );
}

#[test]
fn clone_scores_30() {
    check(
        r#"
        ☼☼☼☼☼
        ☼A..☼
        ☼...☼
        ☼...☼
        ☼☼☼☼☼
        A: score=7
        > A=C1,1R
        "#,
        expect![[r#"
            tick 1: A=C1,1R
              A cloned [1,1] to [2,1]
              A +30 (1 gained)
            ☼☼☼☼☼
            ☼AA.☼
            ☼...☼
            ☼...☼
            ☼☼☼☼☼
            A: pieces=2 score=37
        "#]],
    );
}

#[test]
fn jump_scores_nothing() {
    check(
        r#"
        ☼☼☼☼☼
        ☼A..☼
        ☼...☼
        ☼...☼
        ☼☼☼☼☼
        A: score=7
        > A=J1,1R
        "#,
        expect![[r#"
            tick 1: A=J1,1R
              A jumped [1,1] to [3,1]
            ☼☼☼☼☼
            ☼..A☼
            ☼...☼
            ☼...☼
            ☼☼☼☼☼
            A: pieces=1 score=7
        "#]],
    );
}

#[test]
fn codenjoy_profile_loses_100() {
    check(
        r#"
        game: profile=codenjoy
        ☼☼☼☼☼☼
        ☼A.BB☼
        ☼...B☼
        ☼....☼
        ☼....☼
        ☼☼☼☼☼☼
        B: score=150
        > A=C1,1R
        "#,
        expect![[r#"
            tick 1: A=C1,1R
              A cloned [1,1] to [2,1]
              A captured [3,1] from B
              A +60 (2 gained)
              B -100 (1 lost)
            ☼☼☼☼☼☼
            ☼AAAB☼
            ☼...B☼
            ☼....☼
            ☼....☼
            ☼☼☼☼☼☼
            A: pieces=3 score=60
            B: pieces=2 score=50
        "#]],
    );
}

#[test]
fn score_floor_is_zero() {
    check(
        r#"
        ☼☼☼☼☼☼
        ☼A.BB☼
        ☼..BB☼
        ☼....☼
        ☼....☼
        ☼☼☼☼☼☼
        B: score=15
        > A=C1,1R
        "#,
        expect![[r#"
            tick 1: A=C1,1R
              A cloned [1,1] to [2,1]
              A captured [3,1] from B
              A captured [3,2] from B
              A +90 (3 gained)
              B -20 (2 lost)
            ☼☼☼☼☼☼
            ☼AAAB☼
            ☼..AB☼
            ☼....☼
            ☼....☼
            ☼☼☼☼☼☼
            A: pieces=4 score=90
            B: pieces=2 score=0
        "#]],
    );
}

#[test]
fn losses_are_floored_before_gains() {
    // B, at 0, loses a piece to A and captures one of C's in the same tick:
    // -10 is floored to 0 first, then +30+30 (the clone and the capture).
    check(
        r#"
        ☼☼☼☼☼☼☼☼
        ☼A.B...☼
        ☼......☼
        ☼......☼
        ☼...B.C☼
        ☼......☼
        ☼......☼
        ☼☼☼☼☼☼☼☼
        > A=C1,1R B=C4,4R
        "#,
        expect![[r#"
            tick 1: A=C1,1R B=C4,4R
              A cloned [1,1] to [2,1]
              B cloned [4,4] to [5,4]
              A captured [3,1] from B
              B captured [6,4] from C
              A +60 (2 gained)
              B -10 (1 lost)
              B +60 (2 gained)
              C -10 (1 lost)
            ☼☼☼☼☼☼☼☼
            ☼AAA...☼
            ☼......☼
            ☼......☼
            ☼...BBB☼
            ☼......☼
            ☼......☼
            ☼☼☼☼☼☼☼☼
            A: pieces=3 score=60
            B: pieces=3 score=60
            C: pieces=0 score=0
        "#]],
    );
}

// ---------------------------------------------------------------------------
// The field, joining, leaving, restarts

#[test]
fn default_map_is_15_with_a_border() {
    let game = Hex::new(Settings::default(), Map::default_map(), 0, 1).unwrap();
    expect![[r#"
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼.............☼
        ☼.............☼
        ☼.............☼
        ☼.............☼
        ☼.............☼
        ☼.............☼
        ☼.............☼
        ☼.............☼
        ☼.............☼
        ☼.............☼
        ☼.............☼
        ☼.............☼
        ☼.............☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
    "#]]
    .assert_eq(&position(&game));
}

#[test]
fn everyone_on_one_field() {
    // Eleven players on the default map, one piece each on a random free
    // cell, all on the same field; the game goes on without rounds.
    let mut game = Hex::new(Settings::default(), Map::default_map(), 11, 3).unwrap();
    let events = game.step(&[]);
    assert!(events.is_empty(), "{events:?}");
    expect![[r#"
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        ☼..B..........☼
        ☼.............☼
        ☼...E......G..☼
        ☼...F.......C.☼
        ☼.............☼
        ☼...J.........☼
        ☼.............☼
        ☼.............☼
        ☼....A........☼
        ☼.............☼
        ☼K............☼
        ☼HD...........☼
        ☼............I☼
        ☼☼☼☼☼☼☼☼☼☼☼☼☼☼☼
        A: pieces=1 score=0
        B: pieces=1 score=0
        C: pieces=1 score=0
        D: pieces=1 score=0
        E: pieces=1 score=0
        F: pieces=1 score=0
        G: pieces=1 score=0
        H: pieces=1 score=0
        I: pieces=1 score=0
        J: pieces=1 score=0
        K: pieces=1 score=0
    "#]]
    .assert_eq(&position(&game));
}

#[test]
fn join_places_one_piece() {
    // C joins: it appears on a free cell at the end of the tick, so no
    // move of this tick could have counted on it.
    check(
        r#"
        ☼☼☼☼☼
        ☼A..☼
        ☼...☼
        ☼..B☼
        ☼☼☼☼☼
        C: waiting
        > A=C1,1R
        "#,
        expect![[r#"
            tick 1: A=C1,1R
              A cloned [1,1] to [2,1]
              A +30 (1 gained)
              C placed at [2,3]
            ☼☼☼☼☼
            ☼AA.☼
            ☼...☼
            ☼.CB☼
            ☼☼☼☼☼
            A: pieces=2 score=30
            B: pieces=1 score=0
            C: pieces=1 score=0
        "#]],
    );
}

#[test]
fn leaving_removes_pieces() {
    // Drawn on the field but absent: B has just left. Its pieces go at the
    // start of the tick, before A's move is checked.
    check(
        r#"
        ☼☼☼☼☼
        ☼AB.☼
        ☼.B.☼
        ☼...☼
        ☼☼☼☼☼
        B: absent score=40
        > A=C1,1R
        "#,
        expect![[r#"
            tick 1: A=C1,1R
              B left, 2 pieces removed
              A cloned [1,1] to [2,1]
              A +30 (1 gained)
            ☼☼☼☼☼
            ☼AA.☼
            ☼...☼
            ☼...☼
            ☼☼☼☼☼
            A: pieces=2 score=30
            B: absent pieces=0 score=40
        "#]],
    );
}

#[test]
fn player_without_pieces_restarts_everyone() {
    // A captures B's only piece; B is shown without pieces for one board,
    // then everyone restarts with one piece and keeps their score. The
    // move A sent for the old position is dropped.
    check(
        r#"
        ☼☼☼☼☼☼
        ☼A.B.☼
        ☼A...☼
        ☼....☼
        ☼....☼
        ☼☼☼☼☼☼
        > A=C1,1R
        show
        > A=C2,1D
        "#,
        expect![[r#"
            tick 1: A=C1,1R
              A cloned [1,1] to [2,1]
              A captured [3,1] from B
              A +60 (2 gained)
              B -10 (1 lost)
            ☼☼☼☼☼☼
            ☼AAA.☼
            ☼A...☼
            ☼....☼
            ☼....☼
            ☼☼☼☼☼☼
            A: pieces=4 score=60
            B: pieces=0 score=0

            tick 2: A=C2,1D
              restart: B has no pieces
              A C2,1D ignored: dropped by the restart
              B placed at [2,2]
              A placed at [3,3]
            ☼☼☼☼☼☼
            ☼....☼
            ☼.B..☼
            ☼..A.☼
            ☼....☼
            ☼☼☼☼☼☼
            A: pieces=1 score=60
            B: pieces=1 score=0
        "#]],
    );
}

#[test]
fn full_board_restarts_everyone() {
    // A fills the last free cell; at the next tick everyone restarts.
    check(
        r#"
        ☼☼☼☼☼
        ☼AAA☼
        ☼AA.☼
        ☼BBB☼
        ☼☼☼☼☼
        A: score=70
        B: score=20
        > A=C2,2R
        > -
        "#,
        expect![[r#"
            tick 1: A=C2,2R
              A cloned [2,2] to [3,2]
              A captured [2,3] from B
              A captured [3,3] from B
              A +90 (3 gained)
              B -20 (2 lost)
            tick 2: -
              restart: the board is full
              B placed at [2,1]
              A placed at [2,3]
            ☼☼☼☼☼
            ☼.B.☼
            ☼...☼
            ☼.A.☼
            ☼☼☼☼☼
            A: pieces=1 score=160
            B: pieces=1 score=0
        "#]],
    );
}

#[test]
fn restart_places_by_score_whatever_the_seats() {
    // `full_board_restarts_everyone` with A and B swapped: the new pieces
    // are drawn in order of score, lowest first, so the same player (the
    // one left with 0, now A) gets the same cell as there.
    check(
        r#"
        ☼☼☼☼☼
        ☼BBB☼
        ☼BB.☼
        ☼AAA☼
        ☼☼☼☼☼
        A: score=20
        B: score=70
        > B=C2,2R
        > -
        "#,
        expect![[r#"
            tick 1: B=C2,2R
              B cloned [2,2] to [3,2]
              B captured [2,3] from A
              B captured [3,3] from A
              A -20 (2 lost)
              B +90 (3 gained)
            tick 2: -
              restart: the board is full
              A placed at [2,1]
              B placed at [2,3]
            ☼☼☼☼☼
            ☼.A.☼
            ☼...☼
            ☼.B.☼
            ☼☼☼☼☼
            A: pieces=1 score=0
            B: pieces=1 score=160
        "#]],
    );
}

#[test]
fn restart_clears_formed_walls() {
    // B is on the field with no pieces: everyone restarts, and the walls
    // formed during the game (`#`) go with the pieces.
    check(
        r#"
        ☼☼☼☼☼☼
        ☼A#..☼
        ☼.#..☼
        ☼....☼
        ☼....☼
        ☼☼☼☼☼☼
        B: score=10
        > -
        "#,
        expect![[r#"
            tick 1: -
              restart: B has no pieces
              A placed at [2,2]
              B placed at [3,3]
            ☼☼☼☼☼☼
            ☼....☼
            ☼.A..☼
            ☼..B.☼
            ☼....☼
            ☼☼☼☼☼☼
            A: pieces=1 score=0
            B: pieces=1 score=10
        "#]],
    );
}

#[test]
fn codenjoy_restart_keeps_walls() {
    // Upstream never clears the walls formed during a game.
    check(
        r#"
        game: profile=codenjoy
        ☼☼☼☼☼☼
        ☼A#..☼
        ☼.#..☼
        ☼....☼
        ☼....☼
        ☼☼☼☼☼☼
        B: score=10
        > -
        "#,
        expect![[r#"
            tick 1: -
              restart: B has no pieces
              A placed at [3,3]
              B placed at [1,1]
            ☼☼☼☼☼☼
            ☼B#..☼
            ☼.#..☼
            ☼..A.☼
            ☼....☼
            ☼☼☼☼☼☼
            A: pieces=1 score=0
            B: pieces=1 score=10
        "#]],
    );
}

#[test]
fn still_field_restarts_everyone() {
    // Only A can move (a jump into the corner), and A does not: a field
    // that stays still for `still_restart_ticks` restarts at the next tick,
    // scores kept. A move in between starts the count again.
    check(
        r#"
        game: still_restart_ticks=3
        ☼☼☼☼☼
        ☼.#A☼
        ☼#AA☼
        ☼#BB☼
        ☼☼☼☼☼
        A: score=40
        B: score=20
        > x2
        > A=J3,1L
        > x4
        "#,
        expect![[r#"
            tick 1: -
            tick 2: -
            tick 3: A=J3,1L
              A jumped [3,1] to [1,1]
            tick 4: -
            tick 5: -
            tick 6: -
            tick 7: -
              restart: nothing moved
              B placed at [2,1]
              A placed at [2,3]
            ☼☼☼☼☼
            ☼.B.☼
            ☼...☼
            ☼.A.☼
            ☼☼☼☼☼
            A: pieces=1 score=40
            B: pieces=1 score=20
        "#]],
    );
}

#[test]
fn still_count_waits_for_a_player() {
    // Nobody sits at a field for longer than the count: the first player to
    // join gets their piece and is not restarted at once; the field restarts
    // only once it has stood still with them on it.
    let settings = Settings::from_pairs([("still_restart_ticks", "3")]).unwrap();
    let mut game = Hex::new_room(settings, Map::default_map(), 7);
    let restarts = |events: &[Event]| events.iter().filter(|e| matches!(e, Event::Restarted { .. })).count();
    for _ in 0..10 {
        assert_eq!(restarts(&game.step(&vec![Action::Skip; game.seats()])), 0);
    }
    assert_eq!(game.still_ticks(), 0, "an empty field does not count");
    game.join().expect("a free seat");
    let ticks: Vec<usize> = (0..5).map(|_| restarts(&game.step(&vec![Action::Skip; game.seats()]))).collect();
    // Placed at the first tick, then still for 3: the restart is the fifth.
    assert_eq!(ticks, [0, 0, 0, 0, 1]);
}

#[test]
fn codenjoy_still_field_stays() {
    // Upstream has no such rule: the same field stays as it is.
    check(
        r#"
        game: profile=codenjoy
        ☼☼☼☼☼
        ☼.#A☼
        ☼#AA☼
        ☼#BB☼
        ☼☼☼☼☼
        > x40
        "#,
        expect![[r#"
            tick 1: -
            tick 2: -
            tick 3: -
            tick 4: -
            tick 5: -
            tick 6: -
            tick 7: -
            tick 8: -
            tick 9: -
            tick 10: -
            tick 11: -
            tick 12: -
            tick 13: -
            tick 14: -
            tick 15: -
            tick 16: -
            tick 17: -
            tick 18: -
            tick 19: -
            tick 20: -
            tick 21: -
            tick 22: -
            tick 23: -
            tick 24: -
            tick 25: -
            tick 26: -
            tick 27: -
            tick 28: -
            tick 29: -
            tick 30: -
            tick 31: -
            tick 32: -
            tick 33: -
            tick 34: -
            tick 35: -
            tick 36: -
            tick 37: -
            tick 38: -
            tick 39: -
            tick 40: -
            ☼☼☼☼☼
            ☼.#A☼
            ☼#AA☼
            ☼#BB☼
            ☼☼☼☼☼
            A: pieces=3 score=0
            B: pieces=2 score=0
        "#]],
    );
}

#[test]
fn no_room_waits_for_the_restart() {
    // C and D join a board with one free cell: C takes it at the end of
    // tick 1 and D finds no room, so it waits; the full board restarts
    // everyone at tick 2, and D gets its piece then.
    check(
        r#"
        ☼☼☼☼
        ☼AB☼
        ☼B.☼
        ☼☼☼☼
        C: waiting
        D: waiting
        > -
        > -
        "#,
        expect![[r#"
            tick 1: -
              C placed at [2,2]
              D has no room
            tick 2: -
              restart: the board is full
              A placed at [1,1]
              B placed at [1,2]
              C placed at [2,1]
              D placed at [2,2]
            ☼☼☼☼
            ☼AC☼
            ☼BD☼
            ☼☼☼☼
            A: pieces=1 score=0
            B: pieces=1 score=0
            C: pieces=1 score=0
            D: pieces=1 score=0
        "#]],
    );
}
