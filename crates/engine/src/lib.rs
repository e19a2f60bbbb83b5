//! The pure, deterministic rules of every snakepit game.
//!
//! A game is fully defined by `(game, settings, map, seed, moves)`: given the
//! same inputs, [`Game::step`] produces the same states, events and checksums
//! on every machine. To keep that true this crate has no I/O, no clock, no
//! global random number generator, no threads and no hash-map iteration; its
//! `clippy.toml` bans the types and functions that would break it.
//!
//! Bot misbehaviour never surfaces as an error here: a missing or nonsensical
//! command is a legal input (it means "keep going"), and every consequence of
//! a move is reported as an event.
//!
//! What `clippy.toml` bans, in the crate's code, tests and benchmarks alike
//! (clippy runs with `-D warnings` in the test command): the types `HashMap`,
//! `HashSet`, `Instant` and `SystemTime`; the clock and threads
//! (`Instant::now`, `SystemTime::now`, `thread::sleep`, `thread::spawn`);
//! seeding from the operating system (`SeedableRng::from_os_rng`); the
//! environment and command line (`env::var`, `var_os`, `vars`, `vars_os`,
//! `args`, `args_os`, `current_dir`, `set_current_dir`, `temp_dir`); files
//! (the `std::fs` functions, opening a `File` or `OpenOptions`,
//! `DirBuilder::create`, and `Path`'s queries of the disk); `io::stdin`,
//! `stdout` and `stderr`; `process::Command::new` and `process::exit`; sockets
//! (`TcpStream::connect`, `TcpListener::bind`, `UdpSocket::bind`); and the
//! macros `print!`, `println!`, `eprint!`, `eprintln!` and `dbg!`. The few
//! tests and benchmarks that read `SIM_SEED` or print a summary allow the
//! lint on that one function and say why.
//!
//! Within a tick every loop over snakes runs in seat order, so a tick is
//! computed the same way every time; yet no outcome depends on that order:
//! relabelling the seats relabels the outcome ([`Game::relabel_seats`]).
//! Random cells drawn for several seats in one tick are drawn in order of
//! their scores. Engine types are not `Serialize`:
//! the text forms that replays need (`Action::to_text`, `Settings::to_pairs`)
//! are plain strings, and every wire format lives in `snakepit_protocol`.

pub mod battlesnake;
pub mod carrots;
pub mod checksum;
pub mod duel;
pub mod game;
pub mod geom;
pub mod hex;
pub mod move_action;
pub mod multisnake;
pub mod rng;
pub mod settings;
pub mod snakebattle;

pub use game::{Game, ParseActionError};
pub use geom::{Dir, Pos};
pub use rng::Rng;

/// Version of the rules. Replays record it; a replay made by another version
/// may not re-simulate identically, so verification names the mismatch.
/// Version 5 changed only Battlesnake's checksum ([`Game::checksum_as_of`]
/// still gives the old one), so replays of version 4 verify as they did.
pub const ENGINE_VERSION: &str = "5";
