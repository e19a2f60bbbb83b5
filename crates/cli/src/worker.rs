//! `snakepit worker` and `snakepit queue`: games played from a shared queue.
//!
//! The queue lives in the store (`snakepit_store`): PostgreSQL when
//! several machines share the work, a SQLite file on one machine. `queue
//! add` puts games in it; any number of `worker` processes, on any
//! machines, claim them one at a time, play them exactly as `play` does,
//! and write back the result and the replay. A claim is a lease that the
//! worker renews while the game runs; a worker that dies loses it, and
//! the game goes to another worker once the lease lapses. The store
//! accepts a result only from the worker that still holds the game, so
//! every game counts once.
//!
//! A queued game is a JSON object ([`MatchSpec`]): the game, one bot spec
//! per seat as `play --bot` takes them, and optional settings. One more
//! spec exists only here: `code:PLAYER_ID`, the program that player saved
//! on their page (Python, JavaScript or C), read from the store when the
//! game starts and run in the sandbox like any command line.

use crate::bot_spec::BotSpec;
use crate::play::{self, GameFlags, GameKind, GameOutcome, RunOptions};
use anyhow::Context;
use snakepit_store::spec::{CODE_PREFIX, MatchResult, MatchSpec};
use snakepit_store::{ClaimedMatch, NewMatch, NewReplay, Store};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How long a worker waits before asking an empty queue again.
const IDLE_POLL_MS: u64 = 500;

/// Flags of `snakepit worker`.
#[derive(Debug, clap::Args)]
pub struct WorkerArgs {
    /// The store holding the queue: postgres://USER@HOST:PORT/DB, or a
    /// SQLite file for one machine
    #[arg(long, env = "SNAKEPIT_DB", value_name = "ADDRESS")]
    pub db: String,
    /// Games played at once [default: the number of cores]
    #[arg(long)]
    pub jobs: Option<usize>,
    /// This worker's name in the queue [default: worker-PID-TIME]
    #[arg(long)]
    pub name: Option<String>,
    /// How long a claim lasts without renewal, in milliseconds; a game
    /// whose worker died goes to another worker after this long
    #[arg(long, value_name = "MS", default_value_t = 30_000)]
    pub lease_ms: u64,
    /// Exit once the queue is empty instead of waiting for more games
    #[arg(long)]
    pub until_empty: bool,
    /// Finished games each registered player keeps (their latest): a game
    /// goes once every player in it has this many newer games; 0 keeps all
    #[arg(long, value_name = "N", default_value_t = snakepit_store::GAMES_KEPT_PER_PLAYER_DEFAULT)]
    pub games_kept_per_player: u32,
    /// Forks without a registered player kept (the latest): anyone may ask
    /// for one, so they are bounded; 0 keeps all
    #[arg(long, value_name = "N", default_value_t = UNOWNED_FORKS_KEPT_DEFAULT)]
    pub unowned_forks_kept: u32,
    /// Stop after this many games
    #[arg(long)]
    pub max_games: Option<u64>,
    /// Also schedule the ladder of this game (repeatable): saved programs
    /// paired by rating, games queued, results rated; one scheduler per
    /// game runs at a time, whichever worker holds its lease. Only
    /// carrots, duel and multisnake have saved programs to pair
    #[arg(long = "ladder", value_name = "GAME", value_enum)]
    pub ladders: Vec<GameKind>,
    /// Run players' saved programs (`code:` seats) even where a sandbox
    /// layer is missing; without it such games fail with the reason, as a
    /// server with public sign-up refuses them
    #[arg(long)]
    pub allow_missing_layers: bool,
}

/// Why a worker without `--allow-missing-layers` runs no saved program on
/// this machine: the sandbox layers it lacks, or `None` when all hold.
fn programs_refused_here(allow_missing_layers: bool) -> Option<&'static str> {
    let why = programs_refusal(snakepit_bots::process::SandboxReport::cached(), allow_missing_layers)?;
    // Made once per worker process.
    Some(Box::leak(why.into_boxed_str()))
}

/// Why saved programs do not run where the sandbox detection found
/// `report`, unless `allow_missing_layers`.
fn programs_refusal(report: &snakepit_bots::process::SandboxReport, allow_missing_layers: bool) -> Option<String> {
    let missing: Vec<String> = snakepit_server::sandbox_policy::missing(report, snakepit_bots::process::LayerSet::NONE)
        .into_iter()
        .map(|(layer, why)| format!("{layer}: {why}"))
        .collect();
    if allow_missing_layers || missing.is_empty() {
        return None;
    }
    Some(format!(
        "this worker's sandbox lacks {}; run it where every layer holds (as root), or with --allow-missing-layers",
        missing.join("; ")
    ))
}

/// Flags of `snakepit queue`.
#[derive(Debug, clap::Args)]
pub struct QueueArgs {
    /// The store holding the queue (as for `worker`)
    #[arg(long, env = "SNAKEPIT_DB", value_name = "ADDRESS")]
    pub db: String,
    /// What to do.
    #[command(subcommand)]
    pub command: QueueCommand,
}

/// Subcommands of `snakepit queue`.
#[derive(Debug, clap::Subcommand)]
pub enum QueueCommand {
    /// Queue games between the same bots, with seeds SEED, SEED+1, ...
    Add {
        /// The game
        #[arg(long, value_enum)]
        game: GameKind,
        /// A player, once per seat, as `play --bot` takes them
        #[arg(long = "bot", value_name = "SPEC", required = true)]
        bots: Vec<BotSpec>,
        /// How many games
        #[arg(long, default_value_t = 1)]
        games: u64,
        /// Seed of the first game
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Ticks to play at most per game
        #[arg(long)]
        ticks: Option<u64>,
        /// Override one setting (repeatable)
        #[arg(long = "set", value_name = "KEY=VALUE", value_parser = play::parse_key_value)]
        set: Vec<(String, String)>,
    },
    /// Print how many games are queued, running and done, as JSON
    Status,
}

/// Runs `snakepit queue`.
pub fn run_queue(args: QueueArgs) -> anyhow::Result<()> {
    play::block_on(async move {
        let store = Store::open(&args.db)
            .await
            .with_context(|| format!("cannot open the store {}", args.db))?;
        match args.command {
            QueueCommand::Add {
                game,
                bots,
                games,
                seed,
                ticks,
                set,
            } => {
                let spec = MatchSpec {
                    game: game.name().to_string(),
                    bots: bots.iter().map(ToString::to_string).collect(),
                    set: set.clone(),
                    ticks,
                    players: Vec::new(),
                    origin: Some("queue".into()),
                    labels: None,
                    fork: None,
                };
                let spec = serde_json::to_string(&spec).expect("a spec serialises");
                // Batches keep one transaction from growing without bound.
                let mut added = 0;
                for chunk_start in (0..games).step_by(500) {
                    let chunk: Vec<NewMatch> = (chunk_start..games.min(chunk_start + 500))
                        .map(|i| NewMatch {
                            game: game.name().to_string(),
                            spec: spec.clone(),
                            seed: seed.wrapping_add(i),
                        })
                        .collect();
                    added += store.enqueue_matches(&chunk).await?.len();
                }
                println!("queued {added} games");
            }
            QueueCommand::Status => {
                let c = store.queue_counts().await?;
                println!(
                    "{}",
                    serde_json::json!({"queued": c.queued, "running": c.running, "done": c.done})
                );
            }
        }
        Ok(())
    })
}

/// Runs `snakepit worker` until the queue is empty (with `--until-empty`),
/// `--max-games` games are played, or Ctrl-C.
pub fn run_worker(args: WorkerArgs) -> anyhow::Result<()> {
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1);
    let name = args.name.clone().unwrap_or_else(default_name);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let store = Store::open(&args.db).await.with_context(|| format!("cannot open the store {}", args.db))?;
        let started = Instant::now();
        let played = Arc::new(AtomicU64::new(0));
        let games: Vec<&'static str> = args.ladders.iter().map(|g| g.name()).collect();
        let work = WorkOptions {
            jobs,
            lease_ms: args.lease_ms,
            until_empty: args.until_empty,
            max_games: args.max_games,
            games_kept_per_player: args.games_kept_per_player,
            unowned_forks_kept: args.unowned_forks_kept,
            programs_refused: programs_refused_here(args.allow_missing_layers),
        };
        if let Some(why) = work.programs_refused {
            eprintln!("worker {name}: saved programs will not run: {why}");
        }
        tokio::select! {
            r = work_queue(store, &name, &games, work, played.clone()) => r?,
            _ = tokio::signal::ctrl_c() => {
                eprintln!("worker {name}: stopping; games in play go back to the queue when their claims lapse");
            }
        }
        let n = played.load(Ordering::Relaxed);
        let secs = started.elapsed().as_secs_f64();
        println!("worker {name}: {n} games in {secs:.1} s ({:.0} games/min)", n as f64 * 60.0 / secs.max(1e-9));
        Ok(())
    })
}

/// How a node works the queue.
#[derive(Clone, Copy, Debug)]
pub struct WorkOptions {
    /// Games played at once.
    pub jobs: usize,
    /// Claim lease, in milliseconds.
    pub lease_ms: u64,
    /// Return once the queue is empty and nothing runs.
    pub until_empty: bool,
    /// Return after this many games.
    pub max_games: Option<u64>,
    /// Finished games each registered player keeps (0: all).
    pub games_kept_per_player: u32,
    /// Forks without a registered player kept, the latest (0: all).
    pub unowned_forks_kept: u32,
    /// Why saved programs may not run on this node (a server with public
    /// sign-up whose sandbox lacks a layer): a game with one fails with
    /// this reason, before anything is compiled.
    pub programs_refused: Option<&'static str>,
}

/// Forks without a registered player a worker keeps by default.
pub const UNOWNED_FORKS_KEPT_DEFAULT: u32 = 1000;

/// Plays queued games with `options.jobs` concurrent loops, scheduling the
/// ladders of `ladders` too, until the options say to stop (or forever);
/// `played` counts the games. `serve` runs this next to its rooms so that
/// one machine is a whole contest.
pub async fn work_queue(
    store: Store,
    name: &str,
    ladders: &[&str],
    options: WorkOptions,
    played: Arc<AtomicU64>,
) -> anyhow::Result<()> {
    let budget = Arc::new(Budget {
        left: AtomicU64::new(options.max_games.unwrap_or(u64::MAX)),
    });
    // Aborted when this future ends or is dropped.
    let ladders: Vec<_> = ladders
        .iter()
        .map(|g| {
            AbortOnDrop(tokio::spawn(
                crate::ladder::Ladder::new(store.clone(), g, name).run(),
            ))
        })
        .collect();
    let mut tasks = Vec::with_capacity(options.jobs);
    for job in 0..options.jobs.max(1) {
        let worker = Job {
            store: store.clone(),
            name: format!("{name}/{job}"),
            lease_ms: options.lease_ms,
            until_empty: options.until_empty,
            games_kept_per_player: options.games_kept_per_player,
            unowned_forks_kept: options.unowned_forks_kept,
            programs_refused: options.programs_refused,
            budget: budget.clone(),
            played: played.clone(),
        };
        tasks.push(AbortOnDrop(tokio::spawn(worker.run())));
    }
    for task in &mut tasks {
        (&mut task.0).await.context("a worker job panicked")??;
    }
    drop(ladders);
    Ok(())
}

/// A task that is aborted when its handle goes away.
struct AbortOnDrop<T>(tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

fn default_name() -> String {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    format!("worker-{}-{t}", std::process::id())
}

/// Games left to claim under `--max-games`.
struct Budget {
    left: AtomicU64,
}

impl Budget {
    /// Takes one game from the budget; false when it is spent.
    fn take(&self) -> bool {
        self.left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            .is_ok()
    }
}

/// One of the worker's concurrent loops.
struct Job {
    store: Store,
    name: String,
    lease_ms: u64,
    until_empty: bool,
    games_kept_per_player: u32,
    unowned_forks_kept: u32,
    programs_refused: Option<&'static str>,
    budget: Arc<Budget>,
    played: Arc<AtomicU64>,
}

impl Job {
    async fn run(self) -> anyhow::Result<()> {
        while self.budget.take() {
            let Some(claimed) = self.store.claim_match(&self.name, self.lease_ms).await? else {
                if self.until_empty && self.store.queue_counts().await?.running == 0 {
                    return Ok(());
                }
                // Running games may come back (a dead worker's), so an
                // empty queue is only final once nothing runs.
                tokio::time::sleep(Duration::from_millis(IDLE_POLL_MS)).await;
                self.budget.left.fetch_add(1, Ordering::Relaxed);
                continue;
            };
            self.play(claimed).await?;
            self.played.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Plays a claimed game, renewing the claim meanwhile, and writes the
    /// result back.
    async fn play(&self, claimed: ClaimedMatch) -> anyhow::Result<()> {
        let spec: Result<MatchSpec, _> = serde_json::from_str(&claimed.spec);
        let outcome = match spec {
            Err(e) => Err(format!("unreadable game spec: {e}")),
            Ok(spec) => {
                // The claim is renewed from here on: building the programs
                // may take longer than a lease.
                let renew = self.renew_while_playing(claimed.id);
                tokio::pin!(renew);
                let seed = claimed.seed;
                // Contestants' sources and builds, in folders only this
                // user reads, held until the game ends (see `builds`).
                let resolved = tokio::select! {
                    r = self.resolve_code(&spec) => r,
                    () = &mut renew => Err("the claim was lost while the programs were built".to_string()),
                };
                let (spec2, programs) = match resolved {
                    Ok(s) => s,
                    Err(e) => return self.write_back(&claimed, Err(e)).await,
                };
                let recorded = match &spec.fork {
                    None => None,
                    Some(f) => match self.store.replay(f.replay_id).await {
                        Ok(Some((_, body))) => Some(body),
                        Ok(None) => {
                            return self
                                .write_back(
                                    &claimed,
                                    Err(format!("no kept replay {}", f.replay_id)),
                                )
                                .await;
                        }
                        Err(e) => return Err(e.into()),
                    },
                };
                // The seats' names (players' names for their programs),
                // which the kept result lists.
                let labels = spec2.labels.clone();
                // `play_game` runs its own single-threaded runtime on a
                // blocking thread: bots and their processes stay on it.
                let game = tokio::task::spawn_blocking(move || {
                    play_blocking(&spec2, seed, recorded.as_deref())
                });
                let result = tokio::select! {
                    r = game => r.map_err(|e| format!("the game panicked: {e}")).and_then(|r| r.map_err(|e| format!("{e:#}"))),
                    () = &mut renew => Err("the claim was lost while playing".to_string()),
                };
                drop(programs);
                result.map(|outcome| (MatchSpec { labels, ..spec }, outcome))
            }
        };
        self.write_back(&claimed, outcome).await
    }

    /// Stores the replay of a played game and the result of the claim.
    async fn write_back(
        &self,
        claimed: &ClaimedMatch,
        outcome: Result<(MatchSpec, GameOutcome), String>,
    ) -> anyhow::Result<()> {
        let (result, replay_id) = match outcome {
            Ok((spec, outcome)) => {
                let replay = NewReplay {
                    game: spec.game.clone(),
                    origin: spec.origin.clone().unwrap_or_else(|| {
                        if spec.fork.is_some() { "fork" } else { "queue" }.into()
                    }),
                    players: spec.players.clone(),
                    result: result_json(&MatchResult {
                        scores: outcome.scores.clone(),
                        places: outcome.places.clone(),
                        ticks: outcome.ticks,
                        error: None,
                        labels: spec.labels.clone().unwrap_or_else(|| spec.bots.clone()),
                    }),
                    body: outcome.replay.text(),
                    stderr_log: outcome.stderr_log.clone(),
                };
                let id = self.store.save_replay(&replay).await?;
                // A failure here leaves old games for the next game to
                // prune; it does not undo this one.
                if let Err(e) = self.store.prune_players_replays(&replay.players, self.games_kept_per_player).await {
                    eprintln!("worker {}: pruning players' old games: {e}", self.name);
                }
                // Anyone may ask for a fork: those nobody owns are bounded.
                if replay.origin == "fork"
                    && replay.is_unowned()
                    && self.unowned_forks_kept > 0
                    && let Err(e) = self.store.prune_unowned_replays("fork", self.unowned_forks_kept).await
                {
                    eprintln!("worker {}: pruning old forks: {e}", self.name);
                }
                (replay.result, Some(id))
            }
            Err(error) => {
                eprintln!("worker {}: game {}: {error}", self.name, claimed.id);
                let r = MatchResult {
                    scores: Vec::new(),
                    places: Vec::new(),
                    ticks: 0,
                    error: Some(error),
                    labels: Vec::new(),
                };
                (result_json(&r), None)
            }
        };
        if !self
            .store
            .finish_match(claimed.id, &self.name, &result, replay_id)
            .await?
        {
            eprintln!(
                "worker {}: game {} was handed to another worker; this result is dropped",
                self.name, claimed.id
            );
        }
        Ok(())
    }

    /// The spec with every `code:PLAYER_ID` seat replaced by the command
    /// line of that player's saved program, written under `folder`.
    async fn resolve_code(
        &self,
        spec: &MatchSpec,
    ) -> Result<(MatchSpec, Vec<Arc<crate::builds::ProgramFolder>>), String> {
        let mut out = spec.clone();
        let mut labels = spec.bots.clone();
        let mut folders = Vec::new();
        for (seat, bot) in out.bots.iter_mut().enumerate() {
            let Some(player) = bot.strip_prefix(CODE_PREFIX) else {
                continue;
            };
            if let Some(why) = self.programs_refused {
                return Err(format!("the saved program of {player} does not run: {why}"));
            }
            if let Ok(Some(p)) = self.store.player(player).await {
                labels[seat] = p.name;
            }
            let code = self
                .store
                .code(player)
                .await
                .map_err(|e| format!("cannot read the program of {player}: {e}"))?
                .ok_or_else(|| format!("player {player:?} has no saved program"))?;
            // Written as the server's rooms write it, and run the same
            // way: compiled languages are compiled in the sandbox, once
            // per worker.
            let program = snakepit_bots::source::SourceProgram::new(&spec.game, &code.lang, &code.source)
                .map_err(|e| format!("the program of {player}: {e}"))?;
            let who = format!("the saved program of {player}");
            let folder = crate::builds::Builds::folder(&crate::builds::SHARED, &spec.game, &code.lang, &code.source, &who)
                .await
                .map_err(|e| format!("the program of {player}: {e}"))?;
            // It still plays (each start fails, with the compiler's words in
            // the game's stderr log); the worker's own log says why too.
            if let Some(why) = folder.compile_error() {
                tracing::warn!("{why}; each start of it tries again");
            }
            // The folder is one quoted word of the command line (which is
            // not a shell): its files are copied into the bot's folder.
            let dir = folder.path().display().to_string();
            if dir.contains(['\'', '"']) {
                return Err(format!("the folder {dir:?} cannot be quoted on a command line"));
            }
            *bot = format!("/bin/sh -c '{}' '{dir}'", program.shell_line);
            folders.push(folder);
        }
        if labels != spec.bots {
            out.labels = Some(labels);
        }
        Ok((out, folders))
    }

    /// Renews the claim every third of its lease; returns only when a
    /// renewal is refused (the game went to another worker).
    async fn renew_while_playing(&self, id: i64) {
        let period = Duration::from_millis((self.lease_ms / 3).max(1));
        loop {
            tokio::time::sleep(period).await;
            match self.store.renew_match(id, &self.name, self.lease_ms).await {
                Ok(true) => {}
                Ok(false) => return,
                // A store that cannot be reached now may answer at the next
                // renewal; the lease covers the gap.
                Err(e) => eprintln!("worker {}: cannot renew game {id}: {e}", self.name),
            }
        }
    }
}

fn result_json(r: &MatchResult) -> String {
    serde_json::to_string(r).expect("a result serialises")
}

/// Plays one queued game to the end on the calling thread; a fork
/// continues `recorded`, the kept replay's text.
fn play_blocking(
    spec: &MatchSpec,
    seed: u64,
    recorded: Option<&str>,
) -> anyhow::Result<GameOutcome> {
    let kind =
        GameKind::from_name(&spec.game).with_context(|| format!("unknown game {:?}", spec.game))?;
    let bots = spec
        .bots
        .iter()
        .map(|b| {
            b.parse::<BotSpec>()
                .map_err(|e| anyhow::anyhow!("bot {b:?}: {e}"))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut flags = GameFlags::of(kind);
    flags.set = spec.set.clone();
    flags.ticks = spec.ticks;
    // Seats that play a saved program are named after its player (the
    // command line is a temporary path nobody needs to see).
    // As in a tournament, an HTTP snake that cannot join sits the game out
    // instead of failing it for the other seats.
    let options = RunOptions { labels: spec.labels.clone(), forfeit_unjoined: true, ..RunOptions::default() };
    match (&spec.fork, recorded) {
        (Some(f), Some(text)) => {
            let fork = play::Fork {
                text,
                from_tick: f.from_tick,
                bots: &bots,
                ticks: spec.ticks,
                flags: &flags,
            };
            play::block_on(play::fork_game(kind, &fork, &options))
        }
        _ => play::block_on(play::play_game(&flags, &bots, seed, &options)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_with_defaults() {
        let s: MatchSpec =
            serde_json::from_str(r#"{"game":"duel","bots":["builtin:greedy","builtin:random"]}"#)
                .unwrap();
        assert_eq!(s.bots.len(), 2);
        assert!(
            s.set.is_empty() && s.players.is_empty() && s.ticks.is_none() && s.origin.is_none()
        );
    }

    #[test]
    fn a_budget_runs_out() {
        let b = Budget {
            left: AtomicU64::new(2),
        };
        assert!(b.take() && b.take());
        assert!(!b.take());
    }
}

#[cfg(test)]
mod refusal_tests {
    use super::programs_refusal;
    use snakepit_bots::process::{Layer, LayerStatus, SandboxReport};

    fn report(off: Option<Layer>) -> SandboxReport {
        SandboxReport {
            layers: Layer::ALL
                .into_iter()
                .map(|l| {
                    let status = if Some(l) == off {
                        LayerStatus::Unavailable("not here".into())
                    } else {
                        LayerStatus::Active(String::new())
                    };
                    (l, status)
                })
                .collect(),
        }
    }

    #[test]
    fn saved_programs_run_only_in_the_whole_sandbox_unless_allowed() {
        assert_eq!(programs_refusal(&report(None), false), None);
        let why = programs_refusal(&report(Some(Layer::Cgroup)), false).expect("refused");
        assert!(why.contains("cgroup: not here") && why.contains("--allow-missing-layers"), "{why}");
        assert_eq!(programs_refusal(&report(Some(Layer::Cgroup)), true), None);
    }
}
