//! Turns per second of a whole Multisnake game through the stdio match
//! runner: four C starter bots (`starters/multisnake/c/bot.c`) in the full
//! sandbox, without SIGSTOP between moves (Multisnake's setting), on the
//! 32x32 tournament map. A turn is everything the runner does: render the
//! map once for the live seats, ask all bots at once, read and parse the
//! answers, step the engine. The goal is at most 35 µs per 4-bot
//! turn.
//!
//! Games are played one after another until enough turns are measured;
//! the first turn of each game (which starts the processes) is left out and
//! reported apart, and turns are split by how many bots were asked. Before
//! each game, the floor under a turn is measured as well: the pipe round
//! trips alone, to four more bots of the same program in the same sandbox,
//! asked the same map each time. The 4-bot turn's median minus the floor's
//! is the runner's own cost, both taken in the same minutes (the machine's
//! speed drifts by up to a factor of two between runs). After each game,
//! its turns are played again without any process (render, parse, step):
//! the runner's own CPU work per turn, the rest being the kernel's.
//!
//! Turns in which a process is killed (a snake died in the turn before)
//! are reported apart: they cost the kill of the bot, not a round trip.
//!
//! Run: `cargo bench -p snakepit-bots --bench stdio_match` (needs `cc`).
//! Set `STDIO_BENCH_TURNS` to change the number of measured turns, and
//! `STDIO_BENCH_SPIN_US` to a comma-separated list of
//! `answer_spin_max_us` values to compare (`0,50`): the games alternate
//! between them, so that all are measured in the same minutes. Set
//! `STDIO_BENCH_WITHOUT` to a comma-separated list of sandbox layers
//! (`seccomp,landlock`, or `all`) to measure the bots without them, which
//! shows what those layers cost a turn.

use std::path::Path;
use std::time::{Duration, Instant};

use snakepit_bots::process::{Ask, BotCommand, Layer, ProcessBot, SandboxReport};
use snakepit_bots::stdio_match::{MatchSettings, Seat, SeatOutcome, StdioMatch};
use snakepit_engine::multisnake::{self, Multisnake};
use snakepit_protocol::stdio::Wire;

fn main() {
    print!("{}", SandboxReport::cached());
    let turns_wanted: usize = std::env::var("STDIO_BENCH_TURNS").ok().and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let bin = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-multisnake-c-bot");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../starters/multisnake/c/bot.c");
    let ok = std::process::Command::new("cc").args(["-O2", "-o"]).arg(&bin).arg(src).status();
    assert!(ok.expect("cc must be installed").success());
    let driver = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-pipe-floor");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/pipe_floor.c");
    let ok = std::process::Command::new("cc").args(["-O2", "-o"]).arg(&driver).arg(src).status();
    assert!(ok.expect("cc must be installed").success());

    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let mut base = MatchSettings::for_game("multisnake");
    if let Ok(list) = std::env::var("STDIO_BENCH_WITHOUT") {
        let without: Vec<Layer> = if list.trim() == "all" {
            Layer::ALL.to_vec()
        } else {
            list.split(',')
                .filter(|name| !name.trim().is_empty())
                .map(|name| {
                    let name = name.trim();
                    Layer::ALL.into_iter().find(|l| l.name() == name).unwrap_or_else(|| {
                        panic!("STDIO_BENCH_WITHOUT: no layer {name:?}; the layers are {:?}", Layer::ALL.map(Layer::name))
                    })
                })
                .collect()
        };
        for layer in without {
            base.limits.layers = base.limits.layers.without(layer);
            base.limits.layers_required = base.limits.layers_required.without(layer);
        }
    }
    println!("layers asked for: {}", base.limits.layers.union(base.limits.layers_required));
    assert!(!base.limits.stop_between_moves);
    let map = multisnake::builtin_map("quad-32x32").unwrap();
    // The spin times compared, games alternating between them.
    let spins: Vec<u64> = match std::env::var("STDIO_BENCH_SPIN_US") {
        Ok(list) => {
            list.split(',').map(|s| s.trim().parse().expect("STDIO_BENCH_SPIN_US: µs, comma-separated")).collect()
        }
        Err(_) => vec![base.limits.answer_spin_max_us],
    };
    let mut variants: Vec<Variant> = spins
        .iter()
        .map(|&spin| {
            let mut settings = base.clone();
            settings.limits.answer_spin_max_us = spin;
            let floor = Floor::start(&rt, &bin, &driver, &settings, &map);
            Variant {
                settings,
                floor,
                by_asked: vec![Vec::new(); 5],
                deaths: Vec::new(),
                first_turns: Vec::new(),
                cpu: Vec::new(),
                measured: 0,
            }
        })
        .collect();

    let mut games = 0u64;
    let wall = Instant::now();
    while variants.iter().map(|v| v.measured).min().unwrap_or(0) * variants.len() < turns_wanted {
        let v = &mut variants[games as usize % spins.len()];
        v.floor.measure(FLOOR_ROUNDS_PER_GAME);
        games += 1;
        let game = Multisnake::new(multisnake::Settings::default(), map.clone(), games.div_ceil(spins.len() as u64));
        let seats = (0..4).map(|i| Seat::text(format!("c{i}"), BotCommand::executable(&bin))).collect();
        let mut m = StdioMatch::new(game.clone(), seats, v.settings.clone());
        let mut played: Vec<Vec<multisnake::Action>> = Vec::new();
        let mut first = true;
        while !m.is_finished() {
            let started = Instant::now();
            let report = rt.block_on(m.tick());
            let took = started.elapsed();
            played.push(report.actions.clone());
            if let Some((seat, f)) = report.faults().next() {
                panic!("game {games} turn {} seat {seat}: {f}", report.tick);
            }
            if first {
                v.first_turns.push(took);
                first = false;
                continue;
            }
            if report.seats.iter().any(|s| s.killed) && !m.is_finished() {
                v.deaths.push(took);
                continue;
            }
            let asked = report.seats.iter().filter(|s| matches!(s.outcome, SeatOutcome::Answered { .. })).count();
            v.by_asked[asked].push(took);
            v.measured += 1;
        }
        v.cpu.push(resimulate(game, &played));
    }
    let wall = wall.elapsed();

    println!(
        "multisnake quad-32x32, 4 C starter bots, no SIGSTOP, {games} games (alternating between spin times), wall {:.2} s",
        wall.as_secs_f64()
    );
    for v in &mut variants {
        v.report();
    }
    println!(
        "of which rendering the map for the 4 seats and parsing 4 answers: {:.1} µs per turn",
        micros(render_and_parse(&map))
    );
}

/// The games and floor of one spin time.
struct Variant {
    settings: MatchSettings,
    floor: Floor,
    /// Turn times by number of bots asked (index 0 unused), without the
    /// turns below.
    by_asked: Vec<Vec<Duration>>,
    /// Turns in which a process was killed (a snake died the turn before),
    /// except the last turn of a game.
    deaths: Vec<Duration>,
    /// First turns (four spawns).
    first_turns: Vec<Duration>,
    /// Per game, the runner's work per turn without any process (see
    /// [`resimulate`]).
    cpu: Vec<Duration>,
    measured: usize,
}

impl Variant {
    fn report(&mut self) {
        println!("answer_spin_max_us = {}: {} turns measured", self.settings.limits.answer_spin_max_us, self.measured);
        for (asked, times) in self.by_asked.iter_mut().enumerate().skip(1) {
            if times.is_empty() {
                continue;
            }
            times.sort();
            let mean = times.iter().sum::<Duration>() / times.len() as u32;
            println!(
                "  {asked} bots asked: {:>6} turns, mean {:>6.1} µs, median {:>6.1} µs, p99 {:>7.1} µs, {:>7.0} turns/s",
                times.len(),
                micros(mean),
                micros(percentile(times, 50)),
                micros(percentile(times, 99)),
                1e6 / micros(mean)
            );
        }
        self.deaths.sort();
        if !self.deaths.is_empty() {
            println!(
                "  turns killing a process: {} turns, median {:.1} µs, p99 {:.1} µs",
                self.deaths.len(),
                micros(percentile(&self.deaths, 50)),
                micros(percentile(&self.deaths, 99))
            );
        }
        let all: Duration = self.by_asked.iter().flatten().chain(&self.deaths).sum();
        let turns = self.measured + self.deaths.len();
        println!(
            "  all turns: mean {:.1} µs ({:.0} turns/s); first turns (4 spawns): mean {:.1} ms",
            micros(all / turns as u32),
            turns as f64 / all.as_secs_f64(),
            self.first_turns.iter().sum::<Duration>().as_secs_f64() * 1e3 / self.first_turns.len() as f64,
        );
        self.cpu.sort();
        println!(
            "  the same games again without processes (render every map, parse, step): median {:.1} µs per turn",
            micros(percentile(&self.cpu, 50))
        );
        self.floor.times.sort();
        println!(
            "  transport alone, between the games (4 more bots, same sandbox, asked the starting map with \
             ProcessBot::ask_all, no game): median {:.1} µs over {} rounds",
            micros(percentile(&self.floor.times, 50)),
            self.floor.times.len()
        );
        self.floor.c_times.sort();
        println!(
            "  the machine's floor, between the games (benches/pipe_floor.c: 4 bots of the same program, no sandbox, \
             a driver in C): median {:.1} µs over {} rounds",
            micros(percentile(&self.floor.c_times, 50)),
            self.floor.c_times.len()
        );
    }
}

/// The `p`th percentile of sorted `times`.
fn percentile(times: &[Duration], p: usize) -> Duration {
    times[(times.len() * p / 100).min(times.len() - 1)]
}

/// Rounds of the transport floor measured before each game, about as many
/// as a game has turns, so that both figures come from the same minutes
/// (the machine's speed drifts).
const FLOOR_ROUNDS_PER_GAME: usize = 100;

/// The floor under a turn: four more bots of the same program in the same
/// sandbox, asked the starting map over and over through
/// [`ProcessBot::ask_all`] (as the runner asks them), without rendering,
/// parsing or stepping anything, one round right after the other.
///
/// Under that, the machine's own floor: `benches/pipe_floor.c`, a driver
/// in C that asks four bots of the same program the same map, with no
/// sandbox and no checks, run for as many rounds before each game.
struct Floor {
    bots: Vec<ProcessBot>,
    input: String,
    deadline: Duration,
    times: Vec<Duration>,
    /// The C driver and the file it sends (header line, then the map).
    driver: (std::path::PathBuf, std::path::PathBuf, std::path::PathBuf),
    c_times: Vec<Duration>,
}

impl Floor {
    /// Starts the bots and sends each its header with the first map.
    fn start(
        rt: &tokio::runtime::Runtime,
        bin: &Path,
        driver: &Path,
        settings: &MatchSettings,
        map: &multisnake::Map,
    ) -> Floor {
        let game = Multisnake::new(multisnake::Settings::default(), map.clone(), 1);
        let input = Wire::Text.input(&game, 0).unwrap();
        let _entered = rt.enter();
        let mut bots: Vec<ProcessBot> =
            (0..4).map(|_| ProcessBot::spawn(&BotCommand::executable(bin), &settings.limits).unwrap()).collect();
        let firsts: Vec<String> = (0..4).map(|seat| Wire::Text.preamble(&game, seat).unwrap() + &input).collect();
        let mut asks: Vec<Ask<'_>> = bots
            .iter_mut()
            .zip(&firsts)
            .map(|(bot, request)| Ask { bot, request, deadline: settings.first_move_deadline })
            .collect();
        for answer in ProcessBot::ask_all(&mut asks) {
            answer.expect("a starter answers its first map");
        }
        drop(asks);
        let map_file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-pipe-floor-map.txt");
        std::fs::write(&map_file, &firsts[0]).unwrap();
        Floor {
            bots,
            input,
            deadline: settings.move_deadline,
            times: Vec::new(),
            driver: (driver.to_path_buf(), bin.to_path_buf(), map_file),
            c_times: Vec::new(),
        }
    }

    /// Measures `rounds` more rounds.
    fn measure(&mut self, rounds: usize) {
        for _ in 0..rounds {
            let mut asks: Vec<Ask<'_>> =
                self.bots.iter_mut().map(|bot| Ask { bot, request: &self.input, deadline: self.deadline }).collect();
            let started = Instant::now();
            for answer in ProcessBot::ask_all(&mut asks) {
                answer.expect("a starter answers every map");
            }
            self.times.push(started.elapsed());
        }
        let (driver, bot, map_file) = &self.driver;
        let out = std::process::Command::new(driver)
            .arg(bot)
            .arg(rounds.to_string())
            .arg(map_file)
            .output()
            .unwrap();
        assert!(out.status.success(), "pipe_floor failed: {}", out.status);
        let text = String::from_utf8(out.stdout).unwrap();
        self.c_times.extend(text.lines().map(|ns| Duration::from_nanos(ns.parse().unwrap())));
    }
}

/// The runner's own share of a turn, without any process: rendering the
/// four seats' maps (as the runner does: once, shared by the seats) and
/// parsing four answers.
fn render_and_parse(map: &multisnake::Map) -> Duration {
    let game = Multisnake::new(multisnake::Settings::default(), map.clone(), 1);
    let rounds = 10_000u32;
    let started = Instant::now();
    for _ in 0..rounds {
        std::hint::black_box(Wire::Text.inputs(&game));
        for _ in 0..4 {
            std::hint::black_box(Wire::Text.parse_answer::<Multisnake>(b"^").ok());
        }
    }
    started.elapsed() / rounds
}

/// The runner's own work per turn in a game already played: the game
/// replayed from `game` with the `played` actions, rendering every turn's
/// maps and parsing an answer per live seat as the runner does, without
/// asking anyone. Mean per turn.
fn resimulate(mut game: Multisnake, played: &[Vec<multisnake::Action>]) -> Duration {
    use snakepit_engine::Game;
    let started = Instant::now();
    for actions in played {
        let inputs = std::hint::black_box(Wire::Text.inputs(&game));
        for _ in inputs.iter().flatten() {
            std::hint::black_box(Wire::Text.parse_answer::<Multisnake>(b"^").ok());
        }
        std::hint::black_box(game.step(actions));
    }
    started.elapsed() / played.len().max(1) as u32
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
