//! The bot's brain: one command per board. Start modifying here.
//!
//! The strategy is deliberately simple: among the moves that do not hit a
//! barrier (and, if possible, do not eat a stone), take the one that brings
//! the head closest to the nearest apple or gold. The snake never turns back
//! on itself: the server would ignore a 180-degree turn anyway.

use crate::board::{Board, Element, Point};

/// The four moves, as the server spells them, with their (dx, dy).
const MOVES: [(&str, i32, i32); 4] = [
    ("UP", 0, -1),
    ("DOWN", 0, 1),
    ("LEFT", -1, 0),
    ("RIGHT", 1, 0),
];

/// Which way a head glyph says the snake is going, as (dx, dy).
fn facing(head: Element) -> Option<(i32, i32)> {
    match head {
        Element::HeadUp => Some((0, -1)),
        Element::HeadDown => Some((0, 1)),
        Element::HeadLeft => Some((-1, 0)),
        Element::HeadRight => Some((1, 0)),
        _ => None,
    }
}

fn distance(a: Point, b: Point) -> i32 {
    (a.0 - b.0).abs() + (a.1 - b.1).abs()
}

/// The command to send for this board.
pub fn choose(board: &Board) -> String {
    let Some(head) = board.my_head() else {
        // Dead and not shown, or not seated yet: the answer does not matter,
        // but the server waits for one before it sends the next board.
        return "RIGHT".to_string();
    };
    let facing = facing(board.get_at(head));
    let mut targets = board.apples();
    targets.extend(board.gold());

    let mut safe = Vec::new();
    let mut risky = Vec::new();
    for (name, dx, dy) in MOVES {
        let next = (head.0 + dx, head.1 + dy);
        if facing == Some((-dx, -dy)) || board.is_barrier(next) {
            continue;
        }
        if board.get_at(next) == Element::Stone {
            &mut risky
        } else {
            &mut safe
        }
        .push((name, next));
    }

    let options = if safe.is_empty() { risky } else { safe };
    if options.is_empty() {
        // Every way is blocked: keep going and hope.
        let (fx, fy) = facing.unwrap_or((1, 0));
        let name = MOVES
            .iter()
            .find(|(_, dx, dy)| (*dx, *dy) == (fx, fy))
            .map_or("RIGHT", |m| m.0);
        return name.to_string();
    }
    let score = |p: Point| targets.iter().map(|&t| distance(p, t)).min().unwrap_or(0);
    // min_by_key keeps the last of equals; folding keeps the first, like the
    // other templates do.
    let best = options.iter().fold(options[0], |best, &o| {
        if score(o.1) < score(best.1) {
            o
        } else {
            best
        }
    });
    best.0.to_string()
}
