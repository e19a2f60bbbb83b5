//! Bots as sandboxed child processes.
