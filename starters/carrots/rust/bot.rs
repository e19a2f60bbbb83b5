//! CodeCarrots snakes starter bot: a random safe mover (one file, `rustc -O
//! bot.rs`, no crates). Each tick reads the board, exactly HEIGHT lines of
//! WIDTH characters (`.` empty, `o` apple, `#` any snake, `H` our head), and
//! answers `left`, `right`, `up` or `down`. The size comes from the command
//! line (default 120 80), since the board has no header. See ../README.md.
use std::io::{BufRead, Write};

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let (w, h) = if args.len() >= 2 { (args[0] as i64, args[1]) } else { (120, 80) };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines().map_while(Result::ok);
    // A tiny xorshift, seeded from the clock: no crates needed.
    let mut seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64) | 1;
    let mut out = std::io::stdout();
    loop {
        let rows: Vec<Vec<u8>> = lines.by_ref().take(h).map(String::into_bytes).collect();
        if rows.len() < h {
            return; // no more boards
        }
        let Some((y, x)) = rows.iter().enumerate().find_map(|(y, r)| r.iter().position(|&c| c == b'H').map(|x| (y as i64, x as i64))) else { return };
        // Leaving the board kills, and so does any snake cell.
        let safe: Vec<&str> = [("up", 0, -1), ("right", 1, 0), ("down", 0, 1), ("left", -1, 0)]
            .iter()
            .copied()
            .filter(|&(_, dx, dy)| {
                let (nx, ny) = (x + dx, y + dy);
                nx >= 0 && nx < w && ny >= 0 && (ny as usize) < h && b".o".contains(&rows[ny as usize][nx as usize])
            })
            .map(|(m, _, _)| m)
            .collect();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let pick = if safe.is_empty() { "up" } else { safe[(seed % safe.len() as u64) as usize] };
        if writeln!(out, "{pick}").and_then(|()| out.flush()).is_err() {
            return;
        }
    }
}
