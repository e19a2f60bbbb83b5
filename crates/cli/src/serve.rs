//! `snakepit serve`: run the arena server until Ctrl-C or SIGTERM.
//!
//! With `--db postgres://...` the node joins a cluster: every node pointed
//! at the same database shares players, scores and rooms, each room runs
//! on one node at a time, and players reach it from any node.

use anyhow::Context;
use snakepit_server::config::Config;
use std::path::PathBuf;

/// Options of `snakepit serve`; they override the config file and the
/// `SNAKEPIT_*` environment.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// TOML configuration file.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Address to listen on.
    #[arg(long)]
    pub bind: Option<String>,
    /// Port (0 picks a free one).
    #[arg(long)]
    pub port: Option<u16>,
    /// The store: a SQLite file, or a postgres:// URL shared by several
    /// nodes (cluster mode).
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Cluster mode: this node's unique name (default HOST-PID).
    #[arg(long)]
    pub node: Option<String>,
    /// Cluster mode: where the other nodes reach this one (default
    /// http://BIND:PORT).
    #[arg(long)]
    pub advertise_url: Option<String>,
    /// Cluster mode: how long a room's lease lasts without renewal, in
    /// milliseconds; a dead node's rooms move after at most this long.
    #[arg(long)]
    pub lease_ms: Option<u64>,
    /// Tick period of rooms created from now on, in milliseconds (10 to
    /// 60000); a room already in the database keeps its own (`snakepit
    /// admin tick ROOM MS` changes it).
    #[arg(long, value_name = "MS")]
    pub tick_ms: Option<u64>,
    /// SnakeBattle rule profile: codebattle or codenjoy.
    #[arg(long)]
    pub profile: Option<String>,
    /// Run the ladder of this game in the server (repeatable): programs
    /// saved on players' pages play each other continuously, paired by
    /// rating; ratings and replays on the leaderboard page. Only carrots,
    /// duel and multisnake have saved programs to pair
    #[arg(long = "ladder", value_name = "GAME", value_enum)]
    pub ladders: Vec<crate::play::GameKind>,
    /// Queued games (ladder games, forks asked for on replay pages) this
    /// server plays at once; more can come from `snakepit worker`
    /// processes on the same store. 0 leaves them to workers (a ladder
    /// run here still plays one at a time)
    #[arg(long, alias = "ladder-jobs", value_name = "N", default_value_t = 1)]
    pub queue_jobs: usize,
}

/// Builds the configuration from the file, the environment and the flags.
pub fn config(args: &ServeArgs) -> anyhow::Result<Config> {
    let mut cfg = Config::load(args.config.as_deref())?;
    if let Some(b) = &args.bind {
        cfg.bind = b.clone();
    }
    if let Some(p) = args.port {
        cfg.port = p;
    }
    if let Some(d) = &args.db {
        cfg.db = d.clone();
    }
    if let Some(t) = args.tick_ms {
        cfg.snakebattle.tick_ms = t;
        cfg.hex.tick_ms = t;
        for arena in [&mut cfg.carrots, &mut cfg.duel, &mut cfg.multisnake] {
            arena.tick_ms = Some(t);
        }
    }
    if let Some(p) = &args.profile {
        cfg.snakebattle.profile = p.clone();
    }
    if let Some(n) = &args.node {
        cfg.cluster.node = n.clone();
    }
    if let Some(u) = &args.advertise_url {
        cfg.cluster.advertise_url = u.clone();
    }
    if let Some(l) = args.lease_ms {
        cfg.cluster.lease_ms = l;
    }
    Ok(cfg)
}

/// Runs the server.
pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    let cfg = config(&args)?;
    // Every bot is a socket; the usual soft limit of 1024 descriptors would
    // cap a contest at about a thousand bots.
    match snakepit_server::os_limits::raise_open_files_limit() {
        Ok(open_files) if (open_files as usize) < cfg.limits.connections_max => tracing::warn!(
            "the open-files limit is {open_files}, under [limits] connections_max = {}: connections past it will fail",
            cfg.limits.connections_max
        ),
        Ok(_) => {}
        Err(e) => tracing::warn!("cannot read the open-files limit: {e}"),
    }
    let rt = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    // Uploaded programs run in the sandbox: say which layers hold here.
    // Probing takes a moment, so it comes before the server listens (and
    // before the signal handlers, which are set once it does).
    eprint!("{}", snakepit_bots::process::SandboxReport::cached());
    let (mut ladders, queue_jobs) = (args.ladders.clone(), args.queue_jobs);
    // With public sign-up and a sandbox layer missing, saved programs run
    // nowhere on this node: not in rooms (the server refuses them), not in
    // queued games, and no ladder pairs them.
    let programs_refused: Option<&'static str> =
        snakepit_server::sandbox_policy::check(&cfg).err().map(|why| &*Box::leak(why.into_boxed_str()));
    if programs_refused.is_some() && !ladders.is_empty() {
        tracing::error!("no ladder runs here: its games are between uploaded programs, which do not run on this server");
        ladders.clear();
    }
    let db = cfg.db.to_string_lossy().into_owned();
    let games_kept_per_player = cfg.limits.games_kept_per_player;
    let token_given = !cfg.admin_token.is_empty();
    let ladder_node = match cfg.cluster.node.as_str() {
        "" => format!("serve-{}-ladder", std::process::id()),
        node => format!("{node}-ladder"),
    };
    rt.block_on(async move {
        let signal = ShutdownSignal::listen()?;
        let server = snakepit_server::Server::start(cfg).await?;
        println!("snakepit listening on http://{}", server.addr);
        if server.addr.ip().is_unspecified() {
            // 0.0.0.0 is where the server listens, not an address a browser
            // can open.
            println!("open http://localhost:{}/ to watch", server.addr.port());
        }
        if let Some((node, url)) = server.cluster_node() {
            println!("cluster node {node}, reached by the other nodes at {url}");
        }
        if token_given {
            // A token the organiser chose stays out of the output, which
            // often ends in a log file others can read.
            println!("admin token: the one set in SNAKEPIT_ADMIN_TOKEN or the config file's admin_token");
        } else {
            println!("admin token (made for this run; set SNAKEPIT_ADMIN_TOKEN to choose one): {}", server.admin_token);
        }
        // Queued games (the ladders' and forks') and the ladders'
        // scheduler run next to the rooms, on the same store, exactly as a
        // `snakepit worker --ladder` would.
        let ladder = if ladders.is_empty() && queue_jobs == 0 {
            None
        } else {
            let store = snakepit_store::Store::open(&db).await.context("opening the store for the queue")?;
            let games: Vec<&'static str> = ladders.iter().map(|g| g.name()).collect();
            if !games.is_empty() {
                println!("ladder: {}", games.join(", "));
            }
            let options = crate::worker::WorkOptions {
                jobs: queue_jobs,
                lease_ms: 30_000,
                until_empty: false,
                max_games: None,
                games_kept_per_player,
                unowned_forks_kept: crate::worker::UNOWNED_FORKS_KEPT_DEFAULT,
                programs_refused,
            };
            let played = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
            Some(tokio::spawn(async move {
                if let Err(e) = crate::worker::work_queue(store, &ladder_node, &games, options, played).await {
                    tracing::error!("the queue's games stopped: {e:#}");
                }
            }))
        };
        signal.recv().await;
        if let Some(l) = ladder {
            l.abort();
        }
        eprintln!("shutting down: finishing the tick and writing scores");
        server.shutdown().await;
        anyhow::Ok(())
    })
}

/// Ctrl-C and SIGTERM, listened for from the moment this is made: it is
/// made before the server says where it listens, so that a signal sent
/// right after that line is never met by the default action (which would
/// end the process without closing the sockets).
struct ShutdownSignal {
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
}

impl ShutdownSignal {
    fn listen() -> anyhow::Result<ShutdownSignal> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(ShutdownSignal {
                int: signal(SignalKind::interrupt()).context("listening for Ctrl-C")?,
                term: signal(SignalKind::terminate()).context("listening for SIGTERM")?,
            })
        }
        #[cfg(not(unix))]
        Ok(ShutdownSignal {})
    }

    async fn recv(mut self) {
        #[cfg(unix)]
        tokio::select! {
            _ = self.int.recv() => {},
            _ = self.term.recv() => {},
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
    }
}
