//! The process limits a busy server needs raised: every bot, player page
//! and spectator is a socket, so the open-files limit caps how many can
//! connect. Servers raise it at start (nginx's `worker_rlimit_nofile`,
//! systemd's `LimitNOFILE`); so does `snakepit serve`, and the load
//! generator, which holds as many sockets as the server.

use rlimit::Resource;

/// The most descriptors asked for even where the kernel allows more: a
/// million sockets is far past what one node serves.
const OPEN_FILES_WANTED: u64 = 1 << 20;

/// Raises the open-files limit as far as this process may: both limits to
/// the kernel's ceiling (`fs.nr_open`, at most [`OPEN_FILES_WANTED`]) with
/// the privilege to raise the hard limit (root), else the soft limit to the
/// hard one. Gives the soft limit in force afterwards.
///
/// # Errors
/// Only when the limit cannot even be read; a limit that cannot be raised
/// is left as it was.
pub fn raise_open_files_limit() -> std::io::Result<u64> {
    let ceiling = std::fs::read_to_string("/proc/sys/fs/nr_open")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or(OPEN_FILES_WANTED)
        .min(OPEN_FILES_WANTED);
    let (soft, hard) = Resource::NOFILE.get()?;
    if hard < ceiling && Resource::NOFILE.set(ceiling, ceiling).is_ok() {
        return Ok(ceiling);
    }
    if soft < hard {
        // Without the privilege, the hard limit is as far as it goes.
        let _ = Resource::NOFILE.set(hard, hard);
    }
    Ok(Resource::NOFILE.get()?.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_soft_limit_ends_at_least_where_it_was_and_at_the_hard_one() {
        let (soft_before, hard_before) = Resource::NOFILE.get().unwrap();
        let now = raise_open_files_limit().unwrap();
        let (soft, hard) = Resource::NOFILE.get().unwrap();
        assert_eq!(now, soft);
        assert!(soft >= soft_before && hard >= hard_before);
        assert_eq!(soft, hard, "the soft limit is raised to the hard one");
    }
}
