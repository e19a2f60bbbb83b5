//! A replay as one self-contained web page that plays, pauses and scrubs
//! the game tick by tick, offline.
//!
//! The replay is re-simulated first, so the page shows the game its
//! checksums verify. The page carries everything: the viewer's CSS and
//! JavaScript inline (from `assets/replay/`) and the game as one JSON
//! document ([`doc::document`]), with each seat's stderr and faults when a
//! stderr log ([`stderr_log`]) comes with the replay. Data reaches the page
//! as text only.
//!
//! A page may offer to fork the game at the tick it shows ([`ForkOffer`]):
//! the offline page shows the `snakepit replay FILE --from-tick N --bot
//! SEAT=SPEC` command to copy, and its Content-Security-Policy forbids
//! every network request; the server's page asks the server to play the
//! fork, and its policy allows requests to its own origin and nowhere else.

pub mod doc;
pub mod page;
pub mod stderr_log;

pub use doc::HtmlView;
pub use stderr_log::{LogError, StderrLog};

use snakepit_engine::battlesnake::Battlesnake;
use snakepit_engine::carrots::Carrots;
use snakepit_engine::duel::Duel;
use snakepit_engine::hex::Hex;
use snakepit_engine::multisnake::Multisnake;
use snakepit_engine::snakebattle::SnakeBattle;
use snakepit_protocol::replay::{Divergence, Header, Replay, ReplayError, ReplayGame, ReplayProblem};
use std::path::Path;

/// Why a page cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// The replay is defective (or of a game this viewer does not know).
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// Re-simulating the replay gives another game than it recorded.
    #[error(transparent)]
    Diverged(#[from] Divergence),
    /// The stderr log is defective.
    #[error(transparent)]
    Log(#[from] LogError),
    /// Re-simulating the replay would cost more than the [`Budget`] allows.
    #[error("{what} is more than this page re-simulates ({allowed}); open the file with `snakepit replay FILE --html PAGE` instead")]
    OverBudget {
        /// What the replay asks for, in words.
        what: String,
        /// The budget's limit, in words.
        allowed: String,
    },
}

/// The most re-simulating one replay may cost, for a server that makes
/// pages of files strangers send: the engines' work grows with the seats
/// (a tick of thousands of snakes takes minutes) and with the board's cells
/// times the ticks. Both are known from the header and the start, before
/// any tick is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Most seats.
    pub seats_max: usize,
    /// Most board cells times ticks (the start included).
    pub cell_ticks_max: u64,
}

/// How the page offers to continue the game from the shown tick with
/// another bot in one seat.
///
/// The page shows the state after tick `t` (0 being the start); the fork
/// plays the recorded ticks `1..=t` again exactly and lets the chosen bot
/// play the chosen seat from tick `t + 1` on, so it asks for
/// `--from-tick t+1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForkOffer<'a> {
    /// The offline page: shows the command line
    /// `snakepit replay FILE --from-tick N --bot SEAT=SPEC` to copy, FILE
    /// being `file`.
    Command {
        /// The replay's path as the user named it.
        file: &'a str,
    },
    /// The server's page: a form that asks the server to play the fork.
    ///
    /// It posts `{"from_tick": N, "seat": S, "bot": B}` as JSON to
    /// `endpoint`, which answers `{"match": M, "status": URL}` (or an error
    /// status with `{"error": TEXT}`), then polls `URL` every 500 ms (for
    /// at most 5 minutes) for `{"state": "queued"|"running"|"done"|"failed",
    /// "replay": ID|null, "error": TEXT|null}` and opens `/replays/ID` when
    /// the fork is done.
    Server {
        /// Where to post the fork, a path on the page's own origin.
        endpoint: &'a str,
        /// The bots to choose from, as the server names them
        /// (`builtin:greedy`, `code:PLAYERID`...).
        bots: &'a [String],
    },
}

/// The viewer's document for a replay's text, with the text of its stderr
/// log if there is one (and the log's path, which names it in errors), and
/// the fork the page offers, if any.
pub fn document_for(
    text: &str,
    log: Option<(&str, &Path)>,
    fork: Option<ForkOffer<'_>>,
) -> Result<serde_json::Value, PageError> {
    document_within(text, log, fork, None)
}

fn document_within(
    text: &str,
    log: Option<(&str, &Path)>,
    fork: Option<ForkOffer<'_>>,
    budget: Option<&Budget>,
) -> Result<serde_json::Value, PageError> {
    let header = Header::parse(text)?;
    if let Some(b) = budget
        && header.seats > b.seats_max
    {
        return Err(PageError::OverBudget {
            what: format!("a game of {} seats", header.seats),
            allowed: format!("at most {}", b.seats_max),
        });
    }
    let fork = fork.as_ref();
    match header.game.as_str() {
        SnakeBattle::NAME => document::<SnakeBattle>(text, log, fork, budget),
        Battlesnake::NAME => document::<Battlesnake>(text, log, fork, budget),
        Carrots::NAME => document::<Carrots>(text, log, fork, budget),
        Duel::NAME => document::<Duel>(text, log, fork, budget),
        Multisnake::NAME => document::<Multisnake>(text, log, fork, budget),
        Hex::NAME => document::<Hex>(text, log, fork, budget),
        other => Err(ReplayError { line: 1, problem: ReplayProblem::UnknownGame(other.to_string()) }.into()),
    }
}

/// The whole page for a replay's text (see [`document_for`]). A
/// [`ForkOffer::Server`] page may send requests to its own origin; every
/// other page makes none.
pub fn page_for(text: &str, log: Option<(&str, &Path)>, fork: Option<ForkOffer<'_>>) -> Result<String, PageError> {
    page_inner(text, log, fork, None)
}

/// [`page_for`] for a replay from anyone: refused with
/// [`PageError::OverBudget`] before any tick is played when it would cost
/// more than `budget`.
pub fn page_within(
    text: &str,
    log: Option<(&str, &Path)>,
    fork: Option<ForkOffer<'_>>,
    budget: &Budget,
) -> Result<String, PageError> {
    page_inner(text, log, fork, Some(budget))
}

fn page_inner(
    text: &str,
    log: Option<(&str, &Path)>,
    fork: Option<ForkOffer<'_>>,
    budget: Option<&Budget>,
) -> Result<String, PageError> {
    let requests = match fork {
        Some(ForkOffer::Server { .. }) => page::Requests::SameOrigin,
        Some(ForkOffer::Command { .. }) | None => page::Requests::None,
    };
    Ok(page::page(&document_within(text, log, fork, budget)?, requests))
}

fn document<G: HtmlView>(
    text: &str,
    log: Option<(&str, &Path)>,
    fork: Option<&ForkOffer<'_>>,
    budget: Option<&Budget>,
) -> Result<serde_json::Value, PageError> {
    let replay = Replay::<G>::parse(text)?;
    if let Some(b) = budget {
        let rows = replay.start.board_rows();
        let cells = rows.len() as u64 * rows.iter().map(|r| r.chars().count()).max().unwrap_or(0) as u64;
        let work = cells.saturating_mul(replay.ticks.len() as u64 + 1);
        if work > b.cell_ticks_max {
            return Err(PageError::OverBudget {
                what: format!("{} ticks on a board of {cells} cells", replay.ticks.len()),
                allowed: format!("at most {} cells times ticks", b.cell_ticks_max),
            });
        }
    }
    let log = log.map(|(log_text, path)| StderrLog::parse(log_text, replay.header.seats, path)).transpose()?;
    Ok(doc::document(&replay, log.as_ref(), fork)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;
    use snakepit_engine::hex::{Action, Cell, Map, Settings};
    use snakepit_engine::{Dir, Game, Pos};
    use snakepit_protocol::hex::Element;
    use snakepit_protocol::replay::ReplayWriter;

    /// The move seat `seat` makes in the test game: its first piece, in
    /// board order, clones (or on every third tick jumps) to the first
    /// free cell in the order the tick turns to; a skip when none is free.
    fn fixed_move(game: &Hex, seat: usize) -> Action {
        let Some(&from) = game.pieces_of(seat).first() else { return Action::Skip };
        let jump = game.tick() % 3 == 2;
        let turn = (game.tick() as usize + seat) % 4;
        (0..4)
            .map(|k| Dir::ALL[(turn + k) % 4])
            .map(|dir| if jump { Action::jump_to(from, dir) } else { Action::clone_to(from, dir) })
            .find(|a| a.target().is_some_and(|to| game.cell(to) == Cell::Empty))
            .unwrap_or(Action::Skip)
    }

    /// A short three-seat Hex game, as its replay text and every state
    /// from the start on.
    fn hex_game(ticks: usize) -> (String, Vec<Hex>) {
        hex_game_of_seed(ticks, 7)
    }

    fn hex_game_of_seed(ticks: usize, seed: u64) -> (String, Vec<Hex>) {
        let mut game = Hex::new(Settings::default(), Map::default_map(), 3, seed).unwrap();
        let players: Vec<String> = ["builtin:greedy", "alice", "bob"].map(String::from).to_vec();
        let mut writer = ReplayWriter::new(Vec::new(), &game, seed, &players).unwrap();
        let mut states = vec![game.clone()];
        for _ in 0..ticks {
            let actions: Vec<Action> = (0..3).map(|seat| fixed_move(&game, seat)).collect();
            game.step(&actions);
            writer.record(&game, &actions).unwrap();
            states.push(game.clone());
        }
        (String::from_utf8(writer.finish().unwrap()).unwrap(), states)
    }

    /// Each state's board and seat marks from the document, by applying
    /// the changes in order, as the viewer does.
    fn frames(doc: &Value) -> Vec<(Vec<char>, Vec<char>)> {
        let apply = |cells: &mut Vec<char>, diff: &Value| {
            for pair in diff.as_array().unwrap().chunks(2) {
                let at = pair[0].as_u64().unwrap() as usize;
                for (k, c) in pair[1].as_str().unwrap().chars().enumerate() {
                    cells[at + k] = c;
                }
            }
        };
        let mut board: Vec<char> = doc["start"]["b"].as_str().unwrap().chars().collect();
        let mut owners: Vec<char> = doc["start"]["o"].as_str().unwrap().chars().collect();
        let mut out = vec![(board.clone(), owners.clone())];
        for tick in doc["ticks"].as_array().unwrap() {
            apply(&mut board, &tick["b"]);
            apply(&mut owners, &tick["o"]);
            out.push((board.clone(), owners.clone()));
        }
        out
    }

    #[test]
    fn a_hex_document_shows_the_pieces_where_the_engine_has_them() {
        let (text, states) = hex_game(24);
        let doc = document_for(&text, None, None).unwrap();
        assert_eq!(doc["header"]["game"], "hex");
        let size = states[0].size();
        assert_eq!((doc["width"].as_u64(), doc["height"].as_u64()), (Some(size as u64), Some(size as u64)));
        let frames = frames(&doc);
        assert_eq!(frames.len(), states.len());
        let mut most_pieces = 0;
        for (t, ((board, owners), game)) in frames.iter().zip(&states).enumerate() {
            for (i, cell) in game.cells().iter().enumerate() {
                let at = Pos::new((i % size) as i32, (i / size) as i32);
                let (glyph, owner) = match *cell {
                    Cell::Empty => (' ', '.'),
                    Cell::Wall => ('☼', '.'),
                    Cell::Piece(seat) => (Element::of_seat(seat).glyph(), char::from(b'A' + seat as u8)),
                };
                assert_eq!((board[i], owners[i]), (glyph, owner), "tick {t} cell {at}");
            }
            most_pieces = most_pieces.max(game.players().iter().map(|p| p.pieces).max().unwrap());
        }
        assert!(most_pieces >= 4, "the game got going: at most {most_pieces} pieces per seat");

        // The status line, the scores and who plays, after a tick in the
        // middle of the game.
        let t = 12;
        let game = &states[t];
        let mut status: Vec<String> = doc["start"]["s"].as_str().unwrap().split(" | ").map(String::from).collect();
        let (mut scores, mut alive) = (doc["start"]["sc"].clone(), doc["start"]["al"].clone());
        for tick in &doc["ticks"].as_array().unwrap()[..t] {
            match &tick["s"] {
                Value::String(line) => status = line.split(" | ").map(String::from).collect(),
                changes => {
                    for pair in changes.as_array().unwrap().chunks(2) {
                        status[pair[0].as_u64().unwrap() as usize] = pair[1].as_str().unwrap().to_string();
                    }
                }
            }
            scores = tick.get("sc").cloned().unwrap_or(scores);
            alive = tick.get("al").cloned().unwrap_or(alive);
        }
        assert_eq!(status[0], format!("tick {t}"));
        for (seat, p) in game.players().iter().enumerate() {
            assert!(status[seat + 1].ends_with(&format!(" pieces {} score {}", p.pieces, p.score)), "{status:?}");
        }
        assert_eq!(scores, serde_json::json!(game.scores()));
        assert_eq!(alive, serde_json::json!([true, true, true]));
        assert!(game.scores().iter().any(|&s| s > 0), "someone scored by tick {t}");
    }

    /// The frames the shared board renderer draws: each tick's background
    /// is the engine's board without pieces and the pieces are where the
    /// engine has them, seat by seat.
    #[test]
    fn a_hex_document_carries_the_live_pages_background_and_pieces() {
        let (text, states) = hex_game(24);
        let doc = document_for(&text, None, None).unwrap();
        let mut cells: Vec<char> = doc["start"]["c"].as_str().unwrap().chars().collect();
        let mut snakes = doc["start"]["sn"].clone();
        let ticks = doc["ticks"].as_array().unwrap();
        for (t, game) in states.iter().enumerate() {
            if t > 0 {
                let tick = &ticks[t - 1];
                if let Some(d) = tick.get("c") {
                    for pair in d.as_array().unwrap().chunks(2) {
                        let at = pair[0].as_u64().unwrap() as usize;
                        for (k, c) in pair[1].as_str().unwrap().chars().enumerate() {
                            cells[at + k] = c;
                        }
                    }
                }
                if let Some(sn) = tick.get("sn") {
                    snakes = sn.clone();
                }
            }
            assert_eq!(cells.iter().collect::<String>(), game.live_cells(), "tick {t}");
            assert!(cells.iter().all(|&c| c == ' ' || c == '☼'), "no pieces in the background at tick {t}");
            for seat in 0..3 {
                let entry = snakes.as_array().unwrap().iter().find(|s| s["s"] == seat).expect("every seat listed");
                let want: Vec<i64> = game.pieces_of(seat).iter().flat_map(|p| [p.x as i64, p.y as i64]).collect();
                let got: Vec<i64> = entry["b"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
                assert_eq!(got, want, "seat {seat} at tick {t}");
            }
        }
    }

    /// Seeds take 63 bits, more than a JavaScript number holds exactly.
    #[test]
    fn the_seed_reaches_the_page_exactly() {
        let seed = 5_612_933_475_224_472_503;
        let (text, _) = hex_game_of_seed(2, seed);
        let doc = document_for(&text, None, None).unwrap();
        assert_eq!(doc["header"]["seed"], "5612933475224472503");
    }

    #[test]
    fn a_budget_refuses_before_playing_and_allows_what_fits() {
        let (text, _) = hex_game(9);
        let cells = {
            let rows = crate::text::TerminalView::board_rows(&Hex::new(Settings::default(), Map::default_map(), 3, 7).unwrap());
            (rows.len() * rows[0].chars().count()) as u64
        };
        let fits = Budget { seats_max: 3, cell_ticks_max: cells * 10 };
        assert_eq!(page_within(&text, None, None, &fits).unwrap(), page_for(&text, None, None).unwrap());
        let few_seats = Budget { seats_max: 2, ..fits };
        let err = page_within(&text, None, None, &few_seats).unwrap_err().to_string();
        assert!(err.contains("a game of 3 seats is more than this page re-simulates (at most 2)"), "{err}");
        let short = Budget { cell_ticks_max: cells * 10 - 1, ..fits };
        let err = page_within(&text, None, None, &short).unwrap_err().to_string();
        assert!(err.contains(&format!("9 ticks on a board of {cells} cells")), "{err}");
    }

    #[test]
    fn the_fork_offer_is_in_the_document_and_sets_the_policy() {
        let (text, _) = hex_game(3);
        assert!(document_for(&text, None, None).unwrap().get("fork").is_none());

        let file = "my games/it's.jsonl";
        let doc = document_for(&text, None, Some(ForkOffer::Command { file })).unwrap();
        assert_eq!(doc["fork"], serde_json::json!({"mode": "command", "file": file}));
        let bots = vec!["builtin:greedy".to_string(), "code:17".to_string()];
        let offer = ForkOffer::Server { endpoint: "/api/replays/9/fork", bots: &bots };
        let doc = document_for(&text, None, Some(offer)).unwrap();
        assert_eq!(
            doc["fork"],
            serde_json::json!({"mode": "server", "endpoint": "/api/replays/9/fork", "bots": ["builtin:greedy", "code:17"]})
        );

        let policy = |csp: &str| format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">");
        for offer in [None, Some(ForkOffer::Command { file })] {
            let html = page_for(&text, None, offer).unwrap();
            assert!(html.contains(&policy(page::OFFLINE_CSP)), "{offer:?}");
            assert!(!html.contains("connect-src"), "{offer:?}");
        }
        let html = page_for(&text, None, Some(offer)).unwrap();
        assert!(html.contains(&policy(page::SERVER_CSP)));
        assert!(page::SERVER_CSP.ends_with("; connect-src 'self'"));
    }
}
