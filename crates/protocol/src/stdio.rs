//! The stdin/stdout wire formats of the process arenas.
