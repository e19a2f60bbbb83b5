//! The `snakepit` command: serve an arena, play games between bots, check
//! their replays, and administer a contest.
//!
//! `main` stays thin: it parses the command line, sets up logging and hands
//! over to the subcommand's module. Each subcommand is one module with an
//! `Args` struct (its flags, whose doc comments are the help text) and a
//! `run(Args) -> anyhow::Result<()>`; adding one is a variant of [`Command`]
//! plus its module. Failures come back as `anyhow::Error` and become one line
//! on stderr and an exit code chosen in [`exit`].

mod admin;
mod batch;
mod bot_spec;
mod builds;
mod exit;
mod input;
mod ladder;
mod play;
mod replay;
mod replay_html;
mod serve;
mod tournament;
mod worker;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// An arena where bots play snake games.
#[derive(Debug, Parser)]
#[command(name = "snakepit", version)]
struct Cli {
    /// What to do.
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Run the arena server (web UI, WebSocket bots, rooms) until Ctrl-C
    Serve(serve::ServeArgs),
    /// Play one game between bots (built-in, HTTP snakes, sandboxed
    /// programs on stdin/stdout), as fast as they answer, and print the
    /// scores
    Play(play::Args),
    /// Many games between named bots in parallel: standings, win matrix,
    /// ratings, every replay and an HTML report
    Tournament(tournament::Args),
    /// Print a replay file tick by tick, verify it with --verify, write it
    /// as a web page with --html, or fork it with --from-tick
    Replay(replay::Args),
    /// Manage players, rooms and scores
    Admin(admin::AdminArgs),
    /// Play queued games from a shared store (PostgreSQL or SQLite) until
    /// stopped, writing back results and replays
    Worker(worker::WorkerArgs),
    /// Queue games for workers, or show the queue
    Queue(worker::QueueArgs),
}

impl Command {
    fn run(self) -> anyhow::Result<()> {
        match self {
            Command::Serve(args) => serve::run(args),
            Command::Admin(args) => admin::run(args),
            Command::Worker(args) => worker::run_worker(args),
            Command::Queue(args) => worker::run_queue(args),
            Command::Play(args) => play::run(args),
            Command::Tournament(args) => tournament::run(args),
            Command::Replay(args) => replay::run(args),
        }
    }
}

fn main() -> ExitCode {
    // Clap exits by itself on usage errors, with code 2.
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::builder()
                .with_default_directive(tracing::level_filters::LevelFilter::WARN.into())
                .from_env_lossy(),
        )
        .with_writer(std::io::stderr)
        // Colours only for a person at a terminal, not in a log file.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let ran = cli.command.run();
    // Statics are not dropped at exit: the programs built for source-file
    // bots go here (a killed process leaves them to the next one's sweep).
    builds::forget_shared();
    match ran {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if exit::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // `{:#}` joins the context chain with ": " on one line.
            eprintln!("error: {err:#}");
            ExitCode::from(exit::code(&err))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot_spec::BotSpec;

    #[test]
    fn play_flags() {
        let cli = Cli::parse_from([
            "snakepit", "play", "--bot", "builtin:greedy", "--bot", "builtin:random", "--seed", "7", "--ticks", "20",
            "--set", "fury_ticks=3", "--set", "rounds=false", "--profile", "codenjoy", "--watch", "--watch-ms", "5",
        ]);
        let Command::Play(args) = cli.command else { panic!("not play: {cli:?}") };
        assert_eq!(args.bots, vec![BotSpec::Builtin("greedy".into()), BotSpec::Builtin("random".into())]);
        assert_eq!(args.seed, Some(7));
        assert_eq!(args.game.ticks, Some(20));
        assert_eq!(args.game.set, vec![("fury_ticks".to_string(), "3".to_string()), ("rounds".into(), "false".into())]);
        assert_eq!(args.game.profile.as_deref(), Some("codenjoy"));
        assert!(args.watch);
        assert_eq!(args.watch_ms, 5);
    }

    #[test]
    fn play_needs_a_bot() {
        let err = Cli::try_parse_from(["snakepit", "play"]).unwrap_err();
        assert_eq!(err.exit_code(), 2);
    }

    #[test]
    fn bad_bot_spec_is_a_usage_error() {
        let err = Cli::try_parse_from(["snakepit", "play", "--bot", "ws://localhost/bot"]).unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert!(err.to_string().contains("arrive with"), "{err}");
    }

    #[test]
    fn set_needs_an_equals_sign() {
        let err = Cli::try_parse_from(["snakepit", "play", "--bot", "builtin:random", "--set", "fury"]).unwrap_err();
        assert!(err.to_string().contains("KEY=VALUE"), "{err}");
    }

    #[test]
    fn replay_flags() {
        let cli = Cli::parse_from(["snakepit", "replay", "game.jsonl", "--verify"]);
        let Command::Replay(args) = cli.command else { panic!("not replay: {cli:?}") };
        assert_eq!(args.file, std::path::PathBuf::from("game.jsonl"));
        assert!(args.verify);
    }

    #[test]
    fn fork_flags() {
        let cli = Cli::parse_from(["snakepit", "replay", "g.jsonl", "--from-tick", "30", "--bot", "1=builtin:greedy", "--replay", "f.jsonl"]);
        let Command::Replay(args) = cli.command else { panic!("not replay: {cli:?}") };
        assert_eq!(args.from_tick, Some(30));
        assert_eq!(args.bots, vec![(1, BotSpec::Builtin("greedy".into()))]);
        assert!(Cli::try_parse_from(["snakepit", "replay", "g.jsonl", "--bot", "1=builtin:greedy"]).is_err(), "--bot needs --from-tick");
        assert!(Cli::try_parse_from(["snakepit", "replay", "g.jsonl", "--from-tick", "3", "--bot", "x=builtin:greedy"]).is_err());
        assert!(Cli::try_parse_from(["snakepit", "replay", "g.jsonl", "--from-tick", "3", "--verify"]).is_err());
    }

    #[test]
    fn tournament_flags() {
        let cli = Cli::parse_from([
            "snakepit", "tournament", "--game", "duel", "--bot", "a=builtin:greedy", "--bot", "b=builtin:random", "--games", "50",
            "--jobs", "3", "--format", "swiss", "--seed", "9", "--out", "t", "--resume",
        ]);
        let Command::Tournament(args) = cli.command else { panic!("not tournament: {cli:?}") };
        assert_eq!(args.game.game, play::GameKind::Duel);
        assert_eq!(args.bots.len(), 2);
        assert_eq!(args.bots[1].name, "b");
        assert_eq!((args.games, args.jobs, args.seed), (50, Some(3), 9));
        assert_eq!(args.format, snakepit_tournament::Format::Swiss);
        assert!(args.resume);
        assert!(Cli::try_parse_from(["snakepit", "tournament", "--bot", "a=builtin:x", "--bot", "b=builtin:random"]).is_err());
        assert!(Cli::try_parse_from(["snakepit", "tournament", "--bot", "a=builtin:random", "--format", "league"]).is_err());
    }

    #[test]
    fn serve_flags() {
        let cli = Cli::parse_from(["snakepit", "serve", "--port", "0", "--db", "x.sqlite", "--tick-ms", "50", "--bind", "127.0.0.1"]);
        let Command::Serve(args) = cli.command else { panic!("not serve: {cli:?}") };
        let cfg = serve::config(&args).unwrap();
        assert_eq!(cfg.port, 0);
        assert_eq!(cfg.snakebattle.tick_ms, 50);
        assert_eq!(cfg.db, std::path::PathBuf::from("x.sqlite"));
    }

    #[test]
    fn admin_flags() {
        let cli = Cli::parse_from(["snakepit", "admin", "add-player", "ann", "--db", "x.sqlite"]);
        let Command::Admin(args) = cli.command else { panic!("not admin: {cli:?}") };
        assert!(matches!(args.command, admin::AdminCommand::AddPlayer { ref name, ref game } if name == "ann" && game.is_none()));
        assert!(Cli::try_parse_from(["snakepit", "admin", "fly"]).is_err());
    }

    #[test]
    fn worker_and_queue_flags() {
        let cli = Cli::parse_from(["snakepit", "worker", "--db", "postgres://u@h/db", "--jobs", "3", "--until-empty"]);
        let Command::Worker(args) = cli.command else { panic!("not worker: {cli:?}") };
        assert_eq!((args.db.as_str(), args.jobs, args.until_empty), ("postgres://u@h/db", Some(3), true));
        let cli = Cli::parse_from([
            "snakepit", "queue", "--db", "q.sqlite", "add", "--game", "duel", "--bot", "builtin:greedy", "--bot", "builtin:random",
            "--games", "5",
        ]);
        let Command::Queue(args) = cli.command else { panic!("not queue: {cli:?}") };
        assert!(matches!(args.command, worker::QueueCommand::Add { games: 5, ref bots, .. } if bots.len() == 2));
    }

    #[test]
    fn help_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
