//! KingOfBots Snake starter bot: a random safe mover (one file, `rustc -O
//! bot.rs`, no crates). Each round reads one line,
//! `<map>#<row>#<col>#(<steps>)#<row>#<col>#(<steps>)` (own snake first; the
//! map is 13 rows of `0` grass and `1` wall), rebuilds both snakes by
//! replaying their steps, and answers 0 (up), 1 (right), 2 (down) or
//! 3 (left). See ../README.md.
use std::collections::VecDeque;
use std::io::{BufRead, Write};

const ROWS: i64 = 13;
const DR: [i64; 4] = [-1, 0, 1, 0];
const DC: [i64; 4] = [0, 1, 0, -1];

/// The snake's cells, tail first: it grows on steps 1-10, then every 3rd.
fn body(r: &str, c: &str, steps: &str) -> VecDeque<(i64, i64)> {
    let (mut r, mut c) = (r.parse().unwrap_or(0), c.parse().unwrap_or(0));
    let mut cells = VecDeque::from([(r, c)]);
    for (i, d) in steps.trim_matches(|ch| ch == '(' || ch == ')').bytes().enumerate() {
        let d = usize::from(d - b'0') % 4;
        (r, c) = (r + DR[d], c + DC[d]);
        cells.push_back((r, c));
        let n = i + 1;
        if !(n <= 10 || n % 3 == 1) {
            cells.pop_front();
        }
    }
    cells
}

fn main() {
    // A tiny xorshift, seeded from the clock: no crates needed.
    let mut seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64) | 1;
    let mut out = std::io::stdout();
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let p: Vec<&str> = line.trim().split('#').collect();
        if p.len() < 7 {
            return;
        }
        let cols = p[0].len() as i64 / ROWS;
        let me = body(p[1], p[2], p[3]);
        let you = body(p[4], p[5], p[6]);
        let &(r, c) = me.back().expect("a snake has a head");
        let safe: Vec<usize> = (0..4)
            .filter(|&d| {
                let (nr, nc) = (r + DR[d], c + DC[d]);
                (0..ROWS).contains(&nr)
                    && (0..cols).contains(&nc)
                    && p[0].as_bytes()[(nr * cols + nc) as usize] == b'0'
                    && !me.contains(&(nr, nc))
                    && !you.contains(&(nr, nc))
            })
            .collect();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let pick = if safe.is_empty() { 0 } else { safe[(seed % safe.len() as u64) as usize] };
        if writeln!(out, "{pick}").and_then(|()| out.flush()).is_err() {
            return;
        }
    }
}
