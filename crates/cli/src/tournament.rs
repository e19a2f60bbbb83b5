//! `snakepit tournament`: many games between named bots, in parallel, with
//! standings, ratings and a report.
//!
//! The schedule, standings and report are the `snakepit-tournament`
//! library's; this module plays the games. Each game goes through
//! [`play::play_game`], the same call as `play`, on one of `--jobs` worker
//! threads, each with its own single-threaded runtime (a thread owns the bot
//! processes it starts). The main thread collects results (a worker sends
//! quick games in groups), appends them to `results.jsonl` in writes
//! gathered four times a second (see `Ledger`), redraws the progress
//! line, and stops
//! everything on Ctrl-C or SIGTERM: running games are dropped (which kills
//! their bots) and are not counted, so `--resume` plays them again. A game
//! in which a bot could not start because another worker was copying its
//! program at that moment is played again from the start.
//!
//! **Faults.** One entrant's failure is its own games' business, never the
//! tournament's: a process bot that cannot run or crashes forfeits by its
//! game's rules, and an HTTP snake that cannot join a game (its server
//! down, or answering an error or garbage) gives no move in that game, so
//! its snake moves on by the rules until it is out; the other seats play
//! as usual. Each seat's first fault of a game goes into its result line
//! with the reason, and into the standings and the report. What can be
//! known before any game (a program that is not there, an HTTP snake
//! outside battlesnake) refuses the tournament before it starts, as `play`
//! refuses its game.
//!
//! **Invariant:** the files depend on the seed and the bots only, never on
//! `--jobs` or on timing: game `i`'s seed is `game_seed(seed, i)` and its
//! seating comes from the schedule; at the end `results.jsonl` is rewritten
//! in game order and the ratings are computed in game order. (A bot that
//! plays differently from run to run, or misses deadlines under load, of
//! course still changes results.)
//!
//! Files in `--out`: `tournament.json` (the settings, checked by
//! `--resume`), `results.jsonl` (one [`GameResult`] per line),
//! `games/NNNNNN.jsonl` (every replay, labelled with the bots' specs so that
//! `replay --from-tick` can fork it) and `games/NNNNNN.jsonl.stderr.jsonl`
//! where process bots wrote on stderr or failed, `report.html`, and
//! `games/NNNNNN.html`, the offline replay pages of the games the report
//! links to (a bounded number: see `report::linked_games`).

use crate::batch;
use crate::bot_spec::BotSpec;
use crate::exit::BadInput;
use crate::play::{self, GameFlags, GameKind, ReplayOut, RunOptions};
use anyhow::Context;
use snakepit_tournament::report::{self, About};
use snakepit_tournament::sprt::{Sprt, SprtRun, Verdict};
use snakepit_tournament::schedule::Tally;
use snakepit_tournament::{Fixture, Format, GameResult, Schedule, SeatFault, Standings, game_seed};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, IsTerminal, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Flags of `snakepit tournament`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game and its rules.
    #[command(flatten)]
    pub game: GameFlags,
    /// A contestant, NAME=SPEC (at least two): SPEC is anything `play
    /// --bot` takes (builtin:NAME, a command line, a URL)
    #[arg(long = "bot", value_name = "NAME=SPEC", required = true, value_parser = parse_entrant)]
    pub bots: Vec<Entrant>,
    /// Games to play in all (round-robin, swiss), or per match (knockout)
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Games played at once [default: the number of cores]
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// How bots are paired: round-robin, swiss or knockout
    #[arg(long, default_value = "round-robin")]
    pub format: Format,
    /// Seats per game [default: 2 for duel, 5 for snakebattle, the bots'
    /// count (at most 8) for the others, rounded up to 2, 4 or 8 for
    /// multisnake]
    #[arg(long, value_name = "N")]
    pub seats: Option<usize>,
    /// Seed of the tournament; every game's seed derives from it and the
    /// game's index
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Folder for the results, replays and report
    #[arg(long, value_name = "DIR", default_value = "tournament")]
    pub out: PathBuf,
    /// Carry on with the games --out does not have yet (same settings)
    #[arg(long)]
    pub resume: bool,
    /// Test whether the first bot is better than the second: H0 "ELO0
    /// better", H1 "ELO1 better" (logistic Elo); pairs of games on one
    /// seed with seats swapped until a verdict or --games
    #[arg(long, value_name = "ELO0,ELO1", value_parser = parse_sprt)]
    pub sprt: Option<(f64, f64)>,
    /// The SPRT's chance of accepting H1 when H0 holds
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// The SPRT's chance of accepting H0 when H1 holds
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// The bot in an SPRT's seats besides the two compared (games of
    /// more than 2 seats), e.g. builtin:greedy
    #[arg(long, value_name = "SPEC")]
    pub fill: Option<BotSpec>,
}

fn parse_sprt(s: &str) -> Result<(f64, f64), String> {
    let bad = || format!("{s:?} is not ELO0,ELO1 (two numbers, e.g. 0,10)");
    let (a, b) = s.split_once(',').ok_or_else(bad)?;
    let (a, b): (f64, f64) = (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?);
    if !a.is_finite() || !b.is_finite() {
        return Err(bad());
    }
    Ok((a, b))
}

/// A named contestant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// Its name in tables.
    pub name: String,
    /// Who plays.
    pub spec: BotSpec,
}

fn parse_entrant(s: &str) -> Result<Entrant, String> {
    let (name, spec) = s.split_once('=').ok_or_else(|| format!("{s:?} is not NAME=SPEC"))?;
    let ok = |c: char| c.is_ascii_alphanumeric() || "_.-+".contains(c);
    if name.is_empty() || name.len() > 40 || !name.chars().all(ok) {
        return Err(format!("{name:?} is not a bot name (1 to 40 letters, digits, _ . - +)"));
    }
    Ok(Entrant { name: name.to_string(), spec: spec.parse()? })
}

/// Seats per game when `--seats` is not given.
fn default_seats(kind: GameKind, bots: usize) -> usize {
    match kind {
        GameKind::Duel => 2,
        GameKind::Snakebattle => 5,
        GameKind::Multisnake => [2, 4, 8].into_iter().find(|&n| n >= bots).unwrap_or(8),
        GameKind::Battlesnake | GameKind::Carrots | GameKind::Hex => bots.clamp(2, 8),
    }
}

/// What every worker needs to play a game.
struct Shared {
    flags: GameFlags,
    specs: Vec<BotSpec>,
    seed: u64,
    schedule: Schedule,
}

/// What a worker reports.
enum Message {
    /// Results with their games' files, in the order the worker played
    /// them.
    Done(Vec<(GameResult, Files)>),
    Failed(u64, anyhow::Error),
}

/// A game's replay and stderr log, packed for its batch (`batch::Packer`)
/// by the worker that played it or, while the main thread keeps up, by the
/// main thread: with one worker the main thread has a core of its own and
/// little else to do, and compressing is a sixth of a game of built-in
/// snakes. The workers compress themselves whenever `RAW_MAX` games wait
/// for the main thread, so any number of them shares the work out.
enum Files {
    Packed(Vec<u8>),
    Raw { replay: ReplayOut, log: String },
}

/// Games sent unpacked to the main thread and not packed yet, at most.
const RAW_MAX: usize = 256;

/// Quick games (under `QUICK_GAME`, built-in snakes' games) a worker keeps
/// before sending them, at most, and for at most `SEND_AFTER`: every
/// message wakes the main thread, which costs about as much as such a
/// game. A longer game is sent at once with the games kept before it, so
/// a kept game waits for at most one more game.
const SEND_GAMES_MAX: usize = 64;
const SEND_AFTER: Duration = Duration::from_millis(50);
const QUICK_GAME: Duration = Duration::from_millis(2);

/// Runs the tournament and prints the standings.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mut entrants = args.bots.clone();
    let format = if args.sprt.is_some() { Format::Sprt } else { args.format };
    if args.sprt.is_some() && entrants.len() != 2 {
        return Err(BadInput(format!("--sprt compares two bots (--bot NEW=SPEC --bot OLD=SPEC), not {}", entrants.len())).into());
    }
    if args.fill.is_some() && args.sprt.is_none() {
        return Err(BadInput("--fill goes with --sprt".to_string()).into());
    }
    let seats = args.seats.unwrap_or_else(|| default_seats(args.game.game, entrants.len()));
    let test = match args.sprt {
        Some((elo0, elo1)) => Some(Sprt::new(elo0, elo1, args.alpha, args.beta).map_err(|e| BadInput(e.to_string()))?),
        None => None,
    };
    if test.is_some() {
        match (&args.fill, seats) {
            (Some(spec), 3..) => entrants.push(Entrant { name: FILL_NAME.to_string(), spec: spec.clone() }),
            (None, 3..) => {
                return Err(BadInput(format!("games of {seats} seats: --fill SPEC names the bot in the seats besides the two compared")).into());
            }
            (Some(_), _) => return Err(BadInput("--fill fills seats besides the two compared; these games have 2".to_string()).into()),
            (None, _) => {}
        }
    }
    let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            return Err(BadInput(format!("two bots are named {n:?}")).into());
        }
    }
    let schedule = Schedule::new(format, names.len(), seats, args.games).map_err(|e| BadInput(e.to_string()))?;
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    check_entrants(&args.game, &entrants, seats)?;

    let games_dir = args.out.join("games");
    std::fs::create_dir_all(&games_dir).map_err(|e| BadInput(format!("{}: cannot create: {e}", games_dir.display())))?;
    // A bot run from the folder that holds --out must not get the results.
    play::register_run_output(&args.out);
    let settings_path = args.out.join("tournament.json");
    let results_path = args.out.join("results.jsonl");
    let settings = settings_json(&args, seats);
    if args.resume {
        let before = std::fs::read_to_string(&settings_path)
            .map_err(|e| BadInput(format!("{}: cannot resume: {e}", settings_path.display())))?;
        if serde_json::from_str::<serde_json::Value>(&before).ok().as_ref() != Some(&settings) {
            return Err(BadInput(format!("{}: --resume needs the same game, bots, games, format, seats and seed", settings_path.display())).into());
        }
    } else if std::fs::metadata(&results_path).is_ok_and(|m| m.len() > 0) {
        return Err(BadInput(format!("{} exists: add --resume to carry on, or choose another --out", results_path.display())).into());
    }
    let mut ledger = Ledger::open(&args.out, &schedule, &names, test, games_dir.clone())?;
    std::fs::write(&settings_path, format!("{settings:#}\n")).map_err(|e| BadInput(format!("{}: {e}", settings_path.display())))?;
    if entrants.iter().any(|b| matches!(b.spec, BotSpec::Process { .. })) {
        eprint!("{}", snakepit_bots::process::SandboxReport::cached());
    }

    let context = Arc::new(Shared {
        flags: args.game.clone(),
        specs: entrants.iter().map(|e| e.spec.clone()).collect(),
        seed: args.seed,
        schedule: schedule.clone(),
    });
    let mut progress = Progress::new(schedule.total_games(), ledger.done());

    no_fast_bins();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let mut stop = Stop::default();
    let outcome = runtime.block_on(async {
        let mut signals = Signals::new()?;
        // The first game of the round last made: a round made twice
        // without a game played would be made forever.
        let mut last_round = None;
        loop {
            if ledger.decided() {
                break;
            }
            let todo: Box<dyn Iterator<Item = Fixture> + Send> = if schedule.is_one_round() {
                // Fixtures made as workers take them: a million-game
                // tournament holds no list of its games.
                let (from, played) = (ledger.next, ledger.buffered());
                let sched = schedule.clone();
                Box::new((from..schedule.total_games()).filter(move |g| !played.contains(g)).map(move |g| sched.fixture(g)))
            } else {
                let Some(tally) = ledger.tally.as_ref() else { break };
                let Some(round) = schedule.next_round_of(tally) else { break };
                if last_round.replace(tally.settled()) == Some(tally.settled()) {
                    anyhow::bail!("round from game {} was played and is not over", tally.settled());
                }
                for f in &round {
                    if let Some(r) = ledger.find(f.game)
                        && r.seats != f.seats
                    {
                        return Err(BadInput(format!(
                            "{}: game {} was played by other seats than the schedule gives",
                            results_path.display(),
                            f.game
                        ))
                        .into());
                    }
                }
                let todo: Vec<Fixture> = round.into_iter().filter(|f| ledger.find(f.game).is_none()).collect();
                if todo.is_empty() {
                    continue;
                }
                Box::new(todo.into_iter())
            };
            play_round(todo, &context, jobs, &mut signals, &mut stop, &mut progress, &mut ledger).await?;
            if stop.interrupted || stop.failed.is_some() || ledger.decided() || schedule.is_one_round() {
                break;
            }
        }
        anyhow::Ok(())
    });
    progress.finish(&ledger);
    outcome?;
    let played = ledger.next;
    let complete = ledger.decided() || (played == schedule.total_games() && !stop.interrupted && stop.failed.is_none());
    if played == 0
        && ledger.buffered().is_empty()
        && let Some((_, err)) = stop.failed
    {
        // Nothing was played: a bot that cannot play this game, say.
        return Err(err);
    }
    if complete {
        ledger.close()?;
    }

    let standings = &ledger.standings;
    let about = About {
        title: format!("{} {} tournament", args.game.game.name(), format),
        facts: [
            format!("seed {}, {} seats per game", args.seed, seats),
            format!("{} of {} games played", played, schedule.total_games()),
            "ratings: Weng-Lin, updated in game order; the interval is rating ± 2σ".to_string(),
        ]
        .into_iter()
        .chain((seats > 2).then(|| "a game counts as every pair of seats taken by different bots: the better place wins the pair".to_string()))
        .chain(ledger.sprt.as_ref().map(|run| sprt_summary(run, &names).join("; ")))
        .collect(),
        specs: entrants.iter().map(|e| e.spec.to_string()).collect(),
    };
    let report_path = args.out.join("report.html");
    std::fs::write(&report_path, report::html(standings, &about))
        .map_err(|e| BadInput(format!("{}: cannot write the report: {e}", report_path.display())))?;
    // The replay pages the report links to, a bounded number whatever the
    // games; a replay that cannot become a page leaves its link dead, not
    // the tournament failed.
    let linked = report::linked_games(standings);
    let found = batch::read_games(&games_dir, &linked).unwrap_or_else(|e| {
        eprintln!("no replay pages: {e}");
        Vec::new()
    });
    for (game, text, log) in found {
        let replay = games_dir.join(batch::replay_name(game));
        let page = args.out.join(report::game_page(game));
        if let Err(e) = crate::replay_html::write_text(&replay, &text, log.as_deref(), &page) {
            eprintln!("{}: no replay page: {e:#}", replay.display());
        }
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}: {} of {} games, seed {}", about.title, played, schedule.total_games(), args.seed)?;
    write!(out, "{}", report::text(standings))?;
    if let Some(run) = &ledger.sprt {
        for line in sprt_summary(run, &names) {
            writeln!(out, "{line}")?;
        }
    }
    writeln!(out, "results: {}\nreport: {}", results_path.display(), report_path.display())?;
    drop(out);
    if let Some((game, err)) = stop.failed {
        return Err(err.context(format!("game {game} failed; the tournament stopped")));
    }
    if stop.interrupted {
        anyhow::bail!(
            "interrupted after {} of {} games; `--resume` with the same flags carries on",
            ledger.done(),
            schedule.total_games()
        );
    }
    Ok(())
}

/// The name of the baseline that fills an SPRT's other seats.
const FILL_NAME: &str = "fill";

/// What an SPRT found, in lines for the terminal.
fn sprt_summary(run: &SprtRun, names: &[String]) -> Vec<String> {
    let t = &run.test;
    let (low, high) = t.bounds();
    let (new, old) = (&names[0], &names[1]);
    let head = format!("SPRT: {new} against {old}, H0: {:+} Elo, H1: {:+} Elo, alpha {}, beta {}", t.elo0, t.elo1, t.alpha, t.beta);
    let verdict = match run.verdict {
        Some((Verdict::H1, games)) => format!("H1 accepted after {games} games: {new} is at least {:+} Elo better than {old}", t.elo1),
        Some((Verdict::H0, games)) => format!("H0 accepted after {games} games: {new} is not {:+} Elo better than {old}", t.elo1),
        None => format!("no verdict after {} games (the limit, --games, or an interruption)", run.games()),
    };
    let p = &run.pairs;
    let [w, d, l] = p.games;
    vec![
        head,
        verdict,
        format!("LLR {:.2} (bounds {low:.2}, {high:.2})", run.llr),
        format!("Elo {}", p.elo().map_or("-".to_string(), |e| e.to_string())),
        format!("games {w} won, {d} drawn, {l} lost by {new}; pairs scoring 0, 1/4, 1/2, 3/4, 1: {:?}", p.counts),
    ]
}

/// Refuses, before any game, an entrant that no game of this tournament
/// could seat: otherwise the tournament would stop at the first game it is
/// in, after playing the games before it.
fn check_entrants(flags: &GameFlags, entrants: &[Entrant], seats: usize) -> anyhow::Result<()> {
    // Every entrant is known before any game, so that no game copies a
    // folder that holds another entrant's program.
    let all: Vec<_> = entrants.iter().map(|e| e.spec.clone()).collect();
    play::register_run_bots(&all);
    for entrant in entrants {
        // The entrant in every seat, so that a refusal is its own; the
        // seat count is the game's to judge too.
        let bots = vec![entrant.spec.clone(); seats];
        play::check_bots(flags, &bots).with_context(|| format!("bot {}", entrant.name))?;
    }
    Ok(())
}

/// The settings `--resume` must find unchanged.
fn settings_json(args: &Args, seats: usize) -> serde_json::Value {
    let f = &args.game;
    let mut settings = serde_json::json!({
        "game": f.game.name(),
        "ticks": f.ticks,
        "map": f.map.as_ref().map(|p| p.display().to_string()),
        "profile": f.profile,
        "ruleset": f.ruleset,
        "width": f.width,
        "height": f.height,
        "timeout_ms": f.timeout_ms,
        "set": f.set.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>(),
        "bots": args.bots.iter().map(|e| serde_json::json!({"name": e.name, "spec": e.spec.to_string()})).collect::<Vec<_>>(),
        "games": args.games,
        "format": args.format.name(),
        "seats": seats,
        "seed": args.seed,
    });
    // Only an SPRT has these, so that other tournaments resume as before.
    if let Some((elo0, elo1)) = args.sprt {
        settings["sprt"] = serde_json::json!({"elo0": elo0, "elo1": elo1, "alpha": args.alpha, "beta": args.beta});
        settings["fill"] = serde_json::json!(args.fill.as_ref().map(|f| f.to_string()));
    }
    settings
}

/// Where results go, in game order, with memory that does not grow with
/// the number of games.
///
/// `results.jsonl` holds the games from 0 on without a gap, each written
/// once the games before it are in, after its replay went into its batch
/// (`batch`); standings and the SPRT are fed in the same order. A game
/// that finishes before an earlier one waits in memory and, once it has
/// waited `PENDING_AFTER` (a game of bots that think holding up the games
/// after it), in `results.pending.jsonl` and `games/pending.jsonl.gz`
/// (both emptied whenever the waiting games are all written).
/// `--resume` reads them all and trims the batches to the games written; a
/// results file of an older snakepit, in finishing order, is put in order
/// the same way.
///
/// Writes are gathered and made by [`Ledger::flush`]: a write per game
/// cost more than a game of built-in snakes. The progress line's ticker
/// flushes four times a second, and so does a full buffer, so a crash
/// loses the games of the last quarter second at most, which `--resume`
/// plays again; the batches are always flushed before the results that
/// name their games.
struct Ledger {
    /// The next game `results.jsonl` takes.
    next: u64,
    /// Games finished after a gap, by index, with their packed replays,
    /// since when they wait, and whether the pending files have them.
    waiting: BTreeMap<u64, Waiting>,
    file: File,
    /// Result lines not written yet.
    lines: Vec<u8>,
    pending: File,
    /// Whether the pending files hold anything.
    pending_written: bool,
    pending_path: PathBuf,
    pending_replays: File,
    pending_replays_path: PathBuf,
    batches: batch::Writer,
    standings: Standings,
    sprt: Option<SprtRun>,
    /// Swiss and knockout: what the next round's pairing needs of the
    /// results (a sum of the rounds over, and the games of the round
    /// under way); `None` for the others.
    tally: Option<Tally>,
    schedule: Schedule,
    total: u64,
    bots: usize,
}

impl Ledger {
    /// Opens `out`'s results, reading what an earlier run left.
    fn open(out: &Path, schedule: &Schedule, names: &[String], test: Option<Sprt>, games_dir: PathBuf) -> anyhow::Result<Ledger> {
        let path = out.join("results.jsonl");
        let pending_path = out.join("results.pending.jsonl");
        let pending_replays_path = games_dir.join("pending.jsonl.gz");
        let tmp = out.join("results.jsonl.tmp");
        let cannot = |p: &Path, e: std::io::Error| BadInput(format!("{}: cannot write: {e}", p.display()));
        // The waiting games' replays of an earlier run, by game.
        let mut earlier: BTreeMap<u64, Vec<u8>> = BTreeMap::new();
        if let Ok(bytes) = std::fs::read(&pending_replays_path) {
            batch::each_member(&bytes, |m| {
                if let Some(game) = batch::game_of(&m.name) {
                    earlier.entry(game).or_default().extend(&bytes[m.raw]);
                }
                true
            });
        }
        let file = File::create(&tmp).map_err(|e| cannot(&tmp, e))?;
        let pending = File::create(out.join("results.pending.jsonl.tmp")).map_err(|e| cannot(&pending_path, e))?;
        let replays_tmp = games_dir.join("pending.jsonl.gz.tmp");
        let pending_replays = File::create(&replays_tmp).map_err(|e| cannot(&replays_tmp, e))?;
        let mut ledger = Ledger {
            next: 0,
            waiting: BTreeMap::new(),
            file,
            lines: Vec::new(),
            pending,
            pending_written: false,
            pending_path: pending_path.clone(),
            pending_replays,
            pending_replays_path: pending_replays_path.clone(),
            batches: batch::Writer::new(&games_dir),
            standings: Standings::new(names),
            sprt: test.map(SprtRun::new),
            tally: (!schedule.is_one_round()).then(|| schedule.tally()),
            schedule: schedule.clone(),
            total: schedule.total_games(),
            bots: names.len(),
        };
        // The earlier results go through `add` into fresh files, then
        // replace the old ones: a crash meanwhile leaves the old ones.
        // Written results have their replays in the batches already; a
        // waiting one without its replay is played again.
        for (from, written) in [(&path, true), (&pending_path, false)] {
            read_results(from, |r| {
                if r.game >= ledger.total || r.seats.iter().any(|&b| b >= ledger.bots) {
                    return Err(BadInput(format!("{}: game {} is not a game of this tournament", from.display(), r.game)).into());
                }
                if schedule.is_one_round() && r.seats != schedule.fixture(r.game).seats {
                    return Err(BadInput(format!(
                        "{}: game {} was played by other seats than the schedule gives",
                        from.display(),
                        r.game
                    ))
                    .into());
                }
                if written {
                    return ledger.add(r, None);
                }
                match earlier.remove(&r.game) {
                    Some(packed) => ledger.add(r, Some(packed)),
                    None => Ok(()),
                }
            })?;
        }
        // The waiting games go into the new pending files at once: the
        // old ones are about to be replaced.
        ledger.flush(true)?;
        batch::trim(&games_dir, ledger.next)?;
        std::fs::rename(&tmp, &path).map_err(|e| cannot(&path, e))?;
        std::fs::rename(out.join("results.pending.jsonl.tmp"), &pending_path).map_err(|e| cannot(&pending_path, e))?;
        std::fs::rename(&replays_tmp, &pending_replays_path).map_err(|e| cannot(&pending_replays_path, e))?;
        Ok(ledger)
    }

    /// Takes a finished game (in any order; a game already in is ignored),
    /// with its packed replay (`None`: already in its batch).
    fn add(&mut self, r: GameResult, packed: Option<Vec<u8>>) -> anyhow::Result<()> {
        if r.game < self.next || self.waiting.contains_key(&r.game) {
            return Ok(());
        }
        if self.decided() {
            // Played while the verdict's pair was finishing: not part of
            // the test.
            return Ok(());
        }
        if r.game != self.next {
            let packed = packed.unwrap_or_default();
            self.waiting.insert(r.game, Waiting { result: r, packed, since: Instant::now(), kept: false });
            return Ok(());
        }
        self.write(r, packed)?;
        while !self.decided()
            && let Some(w) = self.waiting.remove(&self.next)
        {
            self.write(w.result, Some(w.packed))?;
        }
        if self.decided() {
            self.waiting.clear();
        }
        if self.batches.buffered() >= FLUSH_BYTES || self.lines.len() >= FLUSH_BYTES {
            self.flush(false)?;
        }
        Ok(())
    }

    /// Writes the next game's replay into its batch, then its result, and
    /// feeds it to the standings.
    fn write(&mut self, r: GameResult, packed: Option<Vec<u8>>) -> anyhow::Result<()> {
        if let Some(packed) = packed {
            self.batches.append(r.game, &packed).context("cannot append to a batch of replays in games/")?;
        }
        serde_json::to_writer(&mut self.lines, &r).context("a result always serializes")?;
        self.lines.push(b'\n');
        self.next += 1;
        self.standings.add(&r);
        if let Some(run) = &mut self.sprt {
            run.add(&r);
        }
        if let Some(tally) = &mut self.tally {
            self.schedule.add(tally, r);
        }
        Ok(())
    }

    /// Writes what was gathered: the replays into their batches, then the
    /// results (each line in one piece, so that a crash leaves whole lines
    /// and at most one without its newline, which the reader drops); then
    /// the games waiting since `PENDING_AFTER` (all of them with `all`)
    /// into the pending files, or, when none waits, empties those.
    fn flush(&mut self, all: bool) -> anyhow::Result<()> {
        self.batches.flush().context("cannot append to a batch of replays in games/")?;
        if !self.lines.is_empty() {
            self.file.write_all(&self.lines).context("cannot append to results.jsonl")?;
            self.lines.clear();
        }
        if self.waiting.is_empty() {
            if self.pending_written {
                // Back to the start too: the next line would follow a hole.
                for (file, what) in [(&mut self.pending, "results.pending.jsonl"), (&mut self.pending_replays, "games/pending.jsonl.gz")] {
                    file.set_len(0).and_then(|()| file.seek(std::io::SeekFrom::Start(0))).with_context(|| format!("cannot empty {what}"))?;
                }
                self.pending_written = false;
            }
            return Ok(());
        }
        let (mut replays, mut lines) = (Vec::new(), Vec::new());
        for w in self.waiting.values_mut().filter(|w| !w.kept && (all || w.since.elapsed() >= PENDING_AFTER)) {
            replays.extend_from_slice(&w.packed);
            serde_json::to_writer(&mut lines, &w.result).context("a result always serializes")?;
            lines.push(b'\n');
            w.kept = true;
        }
        if !lines.is_empty() {
            self.pending_replays.write_all(&replays).context("cannot append to games/pending.jsonl.gz")?;
            self.pending.write_all(&lines).context("cannot append to results.pending.jsonl")?;
            self.pending_written = true;
        }
        Ok(())
    }

    /// Whether an SPRT reached its verdict.
    fn decided(&self) -> bool {
        self.sprt.as_ref().is_some_and(|run| run.verdict.is_some())
    }

    /// Games finished, written or waiting.
    fn done(&self) -> u64 {
        self.next + self.waiting.len() as u64
    }

    /// The indices of the games waiting.
    fn buffered(&self) -> std::collections::BTreeSet<u64> {
        self.waiting.keys().copied().collect()
    }

    /// Swiss and knockout: a result of the round under way, written or
    /// waiting.
    fn find(&self, game: u64) -> Option<&GameResult> {
        self.waiting.get(&game).map(|w| &w.result).or_else(|| self.tally.as_ref()?.in_round(game))
    }

    /// The tournament is over: the pending files go. (After an SPRT's
    /// verdict the batches hold the games up to it only: games after it
    /// are never written.)
    fn close(&mut self) -> anyhow::Result<()> {
        self.flush(false)?;
        let _ = std::fs::remove_file(&self.pending_path);
        let _ = std::fs::remove_file(&self.pending_replays_path);
        Ok(())
    }
}

impl Drop for Ledger {
    /// What was gathered is written even when the run stops on an error.
    fn drop(&mut self) {
        let _ = self.flush(false);
    }
}

/// A game finished before an earlier one, waiting for it.
struct Waiting {
    result: GameResult,
    /// Its packed replay.
    packed: Vec<u8>,
    since: Instant,
    /// In the pending files.
    kept: bool,
}

/// How long a game waits for the games before it in memory only.
const PENDING_AFTER: Duration = Duration::from_secs(1);

/// Bytes of replays, or of result lines, the ledger gathers before writing.
const FLUSH_BYTES: usize = 1 << 20;

/// Reads the results of an earlier run line by line into `take`. A last
/// line without its newline was cut by a crash and is dropped; any other
/// defect is an error.
fn read_results(path: &Path, mut take: impl FnMut(GameResult) -> anyhow::Result<()>) -> anyhow::Result<()> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(BadInput(format!("{}: {e}", path.display())).into()),
    };
    let mut reader = BufReader::new(file);
    let mut line = String::new();
    for n in 1.. {
        line.clear();
        if reader.read_line(&mut line).map_err(|e| BadInput(format!("{}: {e}", path.display())))? == 0 || !line.ends_with('\n') {
            return Ok(());
        }
        if line.trim().is_empty() {
            continue;
        }
        let r: GameResult = serde_json::from_str(&line).map_err(|e| BadInput(format!("{}: line {n}: {e}", path.display())))?;
        take(r)?;
    }
    Ok(())
}

/// Why the tournament stopped early.
#[derive(Default)]
struct Stop {
    interrupted: bool,
    failed: Option<(u64, anyhow::Error)>,
}

/// Ctrl-C (SIGINT) and SIGTERM, caught from the start of the run: a
/// signal that arrives between two polls is kept for the next one.
struct Signals {
    interrupt: tokio::signal::unix::Signal,
    term: tokio::signal::unix::Signal,
}

impl Signals {
    fn new() -> anyhow::Result<Signals> {
        use tokio::signal::unix::{SignalKind, signal};
        let interrupt = signal(SignalKind::interrupt()).context("cannot catch SIGINT")?;
        let term = signal(SignalKind::terminate()).context("cannot catch SIGTERM")?;
        Ok(Signals { interrupt, term })
    }

    async fn next(&mut self) {
        tokio::select! {
            _ = self.interrupt.recv() => {}
            _ = self.term.recv() => {}
        }
    }
}

/// Plays `todo` on `jobs` worker threads until done, stopped or failed.
#[allow(clippy::too_many_arguments, reason = "the run's state, passed down once")]
async fn play_round(
    todo: Box<dyn Iterator<Item = Fixture> + Send>,
    context: &Arc<Shared>,
    jobs: usize,
    signals: &mut Signals,
    stop: &mut Stop,
    progress: &mut Progress,
    ledger: &mut Ledger,
) -> anyhow::Result<()> {
    let (_, most) = todo.size_hint();
    let workers = most.map_or(jobs, |n| jobs.min(n));
    let queue = Arc::new(Mutex::new(todo));
    let (cancel, cancelled) = tokio::sync::watch::channel(false);
    // Set with `cancel`: running games end after their tick in flight
    // (their bots' answers block the worker's runtime, so a dropped game
    // would only end with its last tick).
    let halt = Arc::new(AtomicBool::new(false));
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let mut packer = batch::Packer::default();
    // A replay's text, made here from its log (see `ReplayOut`).
    let mut text = Vec::new();
    let raw = Arc::new(AtomicUsize::new(0));
    let mut threads = Vec::with_capacity(workers);
    for n in 0..workers {
        let (queue, context, tx, cancelled) = (Arc::clone(&queue), Arc::clone(context), tx.clone(), cancelled.clone());
        let (halt, raw) = (Arc::clone(&halt), Arc::clone(&raw));
        let thread = std::thread::Builder::new()
            .name(format!("game-{n}"))
            .spawn(move || worker(&queue, &context, &tx, cancelled, &halt, &raw))
            .context("cannot start a worker thread")?;
        threads.push(thread);
    }
    drop(tx);
    // Started after the workers, which would inherit it.
    let _batch = BatchPolicy::enter();
    let mut ticker = tokio::time::interval(Duration::from_millis(250));
    loop {
        tokio::select! {
            message = rx.recv() => match message {
                None => break,
                Some(Message::Done(games)) => {
                    let decided = ledger.decided();
                    for (r, files) in games {
                        let packed = match files {
                            Files::Packed(packed) => packed,
                            Files::Raw { replay, log } => {
                                text.clear();
                                replay.write_to(&mut text);
                                let packed = packer.pack(r.game, &text, &log);
                                raw.fetch_sub(1, Ordering::Relaxed);
                                packed
                            }
                        };
                        ledger.add(r, Some(packed))?;
                    }
                    progress.done = ledger.done();
                    if ledger.decided() && !decided {
                        // The verdict: games under way are not needed.
                        halt.store(true, Ordering::Relaxed);
                        let _ = cancel.send(true);
                    }
                }
                Some(Message::Failed(game, err)) => {
                    if stop.failed.is_none() {
                        stop.failed = Some((game, err));
                    }
                    halt.store(true, Ordering::Relaxed);
                    let _ = cancel.send(true);
                }
            },
            () = signals.next(), if !stop.interrupted => {
                stop.interrupted = true;
                halt.store(true, Ordering::Relaxed);
                let _ = cancel.send(true);
            }
            _ = ticker.tick() => {
                ledger.flush(false)?;
                progress.draw(ledger, false);
            }
        }
    }
    for thread in threads {
        let _ = thread.join();
    }
    ledger.flush(false)?;
    Ok(())
}

/// Turns off glibc's fast bins, which its per-thread cache has made a
/// second cache of small freed blocks: while any is in them, every
/// request of a kilobyte or more first merges them all, and a game asks
/// for a few such blocks (its snakes' rings, its replay's log) after
/// freeing dozens of small ones, so a worker of built-in snakes spent
/// about a tenth of a game merging.
#[allow(unsafe_code)]
fn no_fast_bins() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt takes two integers, and M_MXFAST 0 is one of the
    // settings glibc documents.
    unsafe {
        libc::mallopt(libc::M_MXFAST, 0);
    }
}

/// The `SCHED_BATCH` policy for this thread while it lives, then the
/// normal one again. The main thread wakes for every group of games a
/// worker sends and packs them, about half a game's time a game; woken
/// on the CPU a worker runs on (when the other is busy), a normal thread
/// takes the CPU from the worker at once, a batch one waits for its turn
/// or for another CPU, and the worker plays on. Without it, a worker of
/// built-in snakes lost a sixth of its time waiting for the main thread
/// to leave its CPU.
struct BatchPolicy;

impl BatchPolicy {
    fn enter() -> BatchPolicy {
        set_policy(libc::SCHED_BATCH);
        BatchPolicy
    }
}

impl Drop for BatchPolicy {
    fn drop(&mut self) {
        // The next round's workers are started from this thread.
        set_policy(libc::SCHED_OTHER);
    }
}

/// Sets this thread's scheduling policy (of the normal ones, priority 0);
/// a refusal leaves it as it was, which only costs speed.
#[allow(unsafe_code)]
fn set_policy(policy: libc::c_int) {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: sched_setscheduler reads a live local; pid 0 is the calling
    // thread.
    unsafe { libc::sched_setscheduler(0, policy, &param) };
}

/// One worker thread: takes fixtures from the queue until it is empty or
/// the run is cancelled.
fn worker(
    queue: &Mutex<Box<dyn Iterator<Item = Fixture> + Send>>,
    context: &Shared,
    tx: &tokio::sync::mpsc::UnboundedSender<Message>,
    cancelled: tokio::sync::watch::Receiver<bool>,
    halt: &Arc<AtomicBool>,
    raw: &AtomicUsize,
) {
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            let _ = tx.send(Message::Failed(0, anyhow::Error::new(e).context("cannot start the async runtime")));
            return;
        }
    };
    let mut packer = batch::Packer::default();
    let mut text = Vec::new();
    // Games finished and not sent yet, and when the first of them was.
    let mut done: Vec<(GameResult, Files)> = Vec::new();
    let mut since = Instant::now();
    let send = |done: &mut Vec<(GameResult, Files)>| done.is_empty() || tx.send(Message::Done(std::mem::take(done))).is_ok();
    runtime.block_on(async {
        loop {
            if *cancelled.borrow() {
                break;
            }
            let next = queue.lock().map(|mut q| q.next()).unwrap_or(None);
            let Some(fixture) = next else { break };
            let mut watch = cancelled.clone();
            let cancel = async move {
                // A closed channel means the run is over; only `true` stops.
                if watch.wait_for(|&c| c).await.is_err() {
                    std::future::pending::<()>().await;
                }
            };
            let game = fixture.game;
            let started = Instant::now();
            let played = tokio::select! {
                r = play_one(&fixture, context, halt) => r,
                () = cancel => break,
            };
            // A game cut short by the halt is not a result.
            if *cancelled.borrow() {
                break;
            }
            match played {
                Ok((r, replay, log)) => {
                    if done.is_empty() {
                        since = Instant::now();
                    }
                    let files = if raw.fetch_add(1, Ordering::Relaxed) < RAW_MAX {
                        Files::Raw { replay, log }
                    } else {
                        raw.fetch_sub(1, Ordering::Relaxed);
                        text.clear();
                        replay.write_to(&mut text);
                        Files::Packed(packer.pack(r.game, &text, &log))
                    };
                    done.push((r, files));
                    let due = started.elapsed() >= QUICK_GAME || done.len() >= SEND_GAMES_MAX || since.elapsed() >= SEND_AFTER;
                    if due && !send(&mut done) {
                        return;
                    }
                }
                Err(e) => {
                    // The games finished before it are results all the same.
                    if send(&mut done) {
                        let _ = tx.send(Message::Failed(game, e));
                    }
                    return;
                }
            }
        }
        send(&mut done);
    });
}

/// Attempts at one game, at most, while a bot's program is busy when it
/// starts (see `GameOutcome::busy_start`): that happens to about one game
/// in fifty with two workers, so a tenth attempt is not needed in practice.
const BUSY_START_ATTEMPTS: u32 = 10;

/// Plays one game; returns its result line, its replay and its stderr log.
async fn play_one(fixture: &Fixture, context: &Shared, halt: &Arc<AtomicBool>) -> anyhow::Result<(GameResult, ReplayOut, String)> {
    let seed = game_seed(context.seed, context.schedule.seed_index(fixture.game));
    let bots: Vec<BotSpec> = fixture.seats.iter().map(|&b| context.specs[b].clone()).collect();
    let options = RunOptions { stop: Some(Arc::clone(halt)), forfeit_unjoined: true, no_summary: true, ..RunOptions::default() };
    let mut outcome = play::play_game(&context.flags, &bots, seed, &options).await?;
    for _ in 1..BUSY_START_ATTEMPTS {
        if !outcome.busy_start {
            break;
        }
        outcome = play::play_game(&context.flags, &bots, seed, &options).await?;
    }
    let result = GameResult {
        game: fixture.game,
        seed,
        seats: fixture.seats.clone(),
        places: outcome.places,
        scores: outcome.scores,
        ticks: outcome.ticks,
        forfeits: outcome.forfeits,
        faults: first_faults(&outcome.stderr_log),
    };
    Ok((result, outcome.replay, outcome.stderr_log))
}

/// Longest fault reason a result line keeps, in characters: a fault quotes
/// what the bot answered, and the game's stderr log has all of it.
const REASON_CHARS_MAX: usize = 300;

/// A fault's reason without the times measured ("exited with code 3
/// after 14 ms" becomes "exited with code 3"), so that a bot failing the
/// same way gives the same results file whatever the machine's load and
/// `--jobs`; the game's stderr log keeps them.
fn without_elapsed(reason: &str) -> String {
    let mut out = String::with_capacity(reason.len());
    let mut rest = reason;
    while let Some(at) = rest.find("after ") {
        let (before, tail) = (&rest[..at], &rest[at + "after ".len()..]);
        let digits = tail.bytes().take_while(u8::is_ascii_digit).count();
        let word = before.is_empty() || before.ends_with([' ', '(']);
        if !word || digits == 0 || !tail[digits..].starts_with(" ms") {
            out.push_str(&rest[..at + "after ".len()]);
            rest = tail;
            continue;
        }
        let after = &tail[digits + " ms".len()..];
        // "bad move (after 5 ms)": the brackets go with the time.
        if let (Some(b), Some(a)) = (before.strip_suffix(" ("), after.strip_prefix(')')) {
            out.push_str(b);
            rest = a;
        } else {
            out.push_str(before.strip_suffix(' ').unwrap_or(before));
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// The first fault of each seat in a game's stderr log (see
/// `play/process.rs`: one JSON line per seat and tick, in tick order), by
/// seat.
fn first_faults(log: &str) -> Vec<SeatFault> {
    let mut faults: Vec<SeatFault> = Vec::new();
    for line in log.lines() {
        let Ok(entry) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        let (Some(seat), Some(tick), Some(full)) = (entry["seat"].as_u64(), entry["t"].as_u64(), entry["fault"].as_str()) else {
            continue;
        };
        let seat = seat as usize;
        if faults.iter().any(|f| f.seat == seat) {
            continue;
        }
        let full = without_elapsed(full);
        let mut reason: String = full.chars().take(REASON_CHARS_MAX).collect();
        if reason.len() < full.len() {
            reason.push('…');
        }
        faults.push(SeatFault { seat, tick, reason });
    }
    faults.sort_by_key(|f| f.seat);
    faults
}

/// The live line on stderr: a terminal gets it redrawn in place four times
/// a second; anything else a plain line every ten seconds.
struct Progress {
    total: u64,
    /// Games finished.
    done: u64,
    /// Games finished before this run (`--resume`).
    before: u64,
    started: Instant,
    last_plain: Instant,
    terminal: bool,
    drawn: bool,
}

impl Progress {
    fn new(total: u64, before: u64) -> Progress {
        let now = Instant::now();
        Progress { total, done: before, before, started: now, last_plain: now, terminal: std::io::stderr().is_terminal(), drawn: false }
    }

    /// The counts, the standings of the games written so far, and an
    /// SPRT's LLR with its bounds.
    fn line(&self, ledger: &Ledger) -> String {
        let elapsed = self.started.elapsed().as_secs_f64().max(1e-3);
        let rate = (self.done - self.before) as f64 / elapsed;
        let eta = if rate > 0.0 { format!("{:.0}s", (self.total.saturating_sub(self.done)) as f64 / rate) } else { "?".to_string() };
        let mut line = format!("[{}/{}] {rate:.1} games/s, ETA {eta} |", self.done, self.total);
        let live = &ledger.standings;
        if let Some(run) = &ledger.sprt {
            let (low, high) = run.test.bounds();
            let elo = run.pairs.elo().map_or("-".to_string(), |e| format!("{:+.1}", e.elo));
            let [w, d, l] = run.pairs.games;
            line.push_str(&format!(" LLR {:.2} ({low:.2}, {high:.2}) Elo {elo} W{w} D{d} L{l}", run.llr));
            if let Some((verdict, _)) = run.verdict {
                line.push_str(&format!(" {verdict} accepted"));
            }
            return line;
        }
        for &b in live.ranking().iter().take(4) {
            let st = &live.bots()[b];
            let rate = st.record.win_rate().map_or("-".to_string(), |r| format!("{:.0}%", 100.0 * r));
            line.push_str(&format!(" {} {rate} ({:.1})", live.names()[b], st.rating.rating));
        }
        line
    }

    fn draw(&mut self, ledger: &Ledger, force: bool) {
        let mut err = std::io::stderr().lock();
        if self.terminal {
            let _ = write!(err, "\r\x1b[K{}", self.line(ledger));
            let _ = err.flush();
            self.drawn = true;
        } else if force || self.last_plain.elapsed() >= Duration::from_secs(10) {
            let _ = writeln!(err, "{}", self.line(ledger));
            self.last_plain = Instant::now();
        }
    }

    fn finish(&mut self, ledger: &Ledger) {
        let prefix = if self.terminal && self.drawn { "\r\x1b[K" } else { "" };
        let _ = writeln!(std::io::stderr().lock(), "{prefix}{}", self.line(ledger));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entrants_are_name_and_spec() {
        let e = parse_entrant("v2=python3 bot.py --x=1").unwrap();
        assert_eq!(e.name, "v2");
        assert_eq!(e.spec, BotSpec::Process { line: "python3 bot.py --x=1".into(), json: false });
        assert!(parse_entrant("builtin:random").is_err());
        assert!(parse_entrant("a b=builtin:random").unwrap_err().contains("not a bot name"));
        assert!(parse_entrant("x=builtin:nope").is_err());
    }

    #[test]
    fn default_seats_fit_the_game() {
        assert_eq!(default_seats(GameKind::Duel, 5), 2);
        assert_eq!(default_seats(GameKind::Multisnake, 3), 4);
        assert_eq!(default_seats(GameKind::Multisnake, 12), 8);
        assert_eq!(default_seats(GameKind::Battlesnake, 2), 2);
        assert_eq!(default_seats(GameKind::Snakebattle, 2), 5);
    }

    #[test]
    fn first_faults_come_from_the_stderr_log() {
        let long = "x".repeat(REASON_CHARS_MAX + 5);
        let log = [
            r#"{"dropped":0,"fault":null,"seat":0,"stderr":["hello"],"t":1}"#.to_string(),
            r#"{"dropped":0,"fault":"could not join: HTTP status 500; it gives no move in this game","seat":2,"stderr":[],"t":1}"#.to_string(),
            format!(r#"{{"dropped":0,"fault":"{long}","seat":0,"stderr":[],"t":4}}"#),
            r#"{"dropped":0,"fault":"timeout","seat":0,"stderr":[],"t":5}"#.to_string(),
        ]
        .join("\n");
        let faults = first_faults(&log);
        assert_eq!(faults.len(), 2, "{faults:?}");
        assert_eq!((faults[0].seat, faults[0].tick), (0, 4));
        assert_eq!(faults[0].reason.chars().count(), REASON_CHARS_MAX + 1);
        assert!(faults[0].reason.ends_with('…'));
        assert_eq!((faults[1].seat, faults[1].tick), (2, 1));
        assert!(faults[1].reason.starts_with("could not join: HTTP status 500"));
        assert!(first_faults("").is_empty());
    }

    #[test]
    fn measured_times_leave_the_reason() {
        for (given, kept) in [
            (r#"output ended; exited with code 3 after 14 ms; received 0 bytes: """#, r#"output ended; exited with code 3; received 0 bytes: """#),
            ("\"X\" is not a move (after 5 ms)", "\"X\" is not a move"),
            ("timed out after 500 ms; the rules repeat its last move", "timed out; the rules repeat its last move"),
            ("no answer within 1000 ms", "no answer within 1000 ms"),
            ("after the end, after 3 sips", "after the end, after 3 sips"),
            ("could not join: HTTP status 500", "could not join: HTTP status 500"),
        ] {
            assert_eq!(without_elapsed(given), kept);
        }
    }
}
