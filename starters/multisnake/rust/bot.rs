//! SOI Multisnake starter bot: a random safe mover (one file, `rustc -O
//! bot.rs`, no crates). Reads the header `W H N M T` once, then H lines of
//! W characters each turn, and answers one of `^ > v <`. The map wraps.
//! See ../README.md.
use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines().map_while(Result::ok);
    let header: Vec<usize> = lines.next().unwrap_or_default().split_whitespace().filter_map(|s| s.parse().ok()).collect();
    let (w, h, me) = (header[0], header[1], (64 + header[3] as u8) as char);
    // A tiny xorshift, seeded from the clock: no crates needed.
    let mut seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64) | 1;
    let mut out = std::io::stdout();
    loop {
        let rows: Vec<Vec<u8>> = lines.by_ref().take(h).map(String::into_bytes).collect();
        if rows.len() < h {
            return; // no more maps: the game is over for us
        }
        let Some((y, x)) = rows.iter().enumerate().find_map(|(y, r)| r.iter().position(|&c| c as char == me).map(|x| (y, x))) else { return };
        // Free tiles and signs are safe; everything else blocks.
        let safe: Vec<char> = [('^', 0, h - 1), ('>', 1, 0), ('v', 0, 1), ('<', w - 1, 0)]
            .iter()
            .copied()
            .filter(|&(_, dx, dy)| b".+-".contains(&rows[(y + dy) % h][(x + dx) % w]))
            .map(|(a, _, _)| a)
            .collect();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let pick = if safe.is_empty() { '^' } else { safe[(seed % safe.len() as u64) as usize] };
        if writeln!(out, "{pick}").and_then(|()| out.flush()).is_err() {
            return;
        }
    }
}
