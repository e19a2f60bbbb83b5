//! The standings as people read them: a text table for the terminal and a
//! self-contained HTML page (inline CSS and SVG, no script, nothing
//! fetched) in the style of the server's pages (their stylesheet,
//! `crates/server/web/style.css`, is embedded whole, so the two never
//! drift apart) with the standings, the win matrix as a heat map, the rating
//! of every bot after each game, and the bots' faults when there were any
//! (which bot failed in how many games and why, so that an organiser sees
//! an entrant that could not play without reading every game's log).
//!
//! The page links games to their replay pages, `games/NNNNNN.html` next
//! to it (see [`game_page`]; the CLI makes the pages of every game in
//! [`linked_games`]): each win-matrix cell to the games of its pair, each
//! fault to its game at its tick, and a list of the first games.

use crate::standings::{CELL_GAMES_KEPT, FaultNote, GAMES_KEPT, Rating, Standings};
use std::collections::BTreeSet;
use std::fmt::Write;

/// The replay page of game `game`, relative to the report.
pub fn game_page(game: u64) -> String {
    format!("games/{game:06}.html")
}

/// Every game the page links to: those of the win-matrix cells, the
/// faults and the list of games (bounded whatever the number of games).
pub fn linked_games(s: &Standings) -> BTreeSet<u64> {
    let n = s.names().len();
    let mut games: BTreeSet<u64> = s.first_games().iter().map(|g| g.game).collect();
    for a in 0..n {
        for b in 0..n {
            games.extend(s.cell_games(a, b));
        }
    }
    games.extend(s.faults().iter().map(|f| f.game));
    games
}

/// A link to a game's replay page, at a tick if given.
fn game_link(game: u64, tick: Option<u64>) -> String {
    let at = tick.map(|t| format!("#t={t}")).unwrap_or_default();
    let label = tick.map(|t| format!("game {game}, tick {t}")).unwrap_or_else(|| format!("game {game}"));
    format!("<a href=\"{}{at}\">{label}</a>", game_page(game))
}

/// What the report says about the tournament besides its standings.
#[derive(Clone, Debug, Default)]
pub struct About {
    /// A title: the game and format.
    pub title: String,
    /// Lines of facts (seed, games played, settings).
    pub facts: Vec<String>,
    /// Each bot's spec, by bot index.
    pub specs: Vec<String>,
}

/// The standings and the win-rate matrix as text.
pub fn text(s: &Standings) -> String {
    let names = s.names();
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0).max(3);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>4}  {:<width$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>6}  {:>19}  {:>10}",
        "rank", "bot", "games", "wins", "draws", "losses", "win%", "rating (±2σ)", "mean score"
    );
    for (rank, &b) in s.ranking().iter().enumerate() {
        let st = &s.bots()[b];
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>6}  {:>19}  {:>10.2}",
            rank + 1,
            names[b],
            st.games,
            st.record.wins,
            st.record.draws,
            st.record.losses,
            percent(st.record.win_rate()),
            format!("{:.2} ± {:.2}", st.rating.rating, 2.0 * st.rating.uncertainty),
            st.mean_score()
        );
    }
    let _ = writeln!(out, "\nwin rate, row against column (a draw counts half):");
    let col = names.iter().map(|n| n.chars().count()).max().unwrap_or(0).max(6);
    let _ = write!(out, "{:<width$}", "");
    for n in names {
        let _ = write!(out, "  {n:>col$}");
    }
    out.push('\n');
    for (a, n) in names.iter().enumerate() {
        let _ = write!(out, "{n:<width$}");
        for b in 0..names.len() {
            let cell = if a == b { "-".to_string() } else { percent(s.against(a, b).win_rate()) };
            let _ = write!(out, "  {cell:>col$}");
        }
        out.push('\n');
    }
    if s.faults_total() > 0 {
        let _ = writeln!(out, "\nfaults (games in which a bot gave no usable move or could not join, and its first fault):");
        for (b, n) in names.iter().enumerate() {
            let st = &s.bots()[b];
            if let Some(first) = &st.first_fault {
                let _ = writeln!(out, "{n:<width$}  in {} of {} games; first: {}", st.fault_games, st.games, fault_line(first));
            }
        }
    }
    out
}

/// Where and what a fault was, on one line.
fn fault_line(f: &FaultNote) -> String {
    format!("game {}, seat {}, tick {}: {}", f.game, f.fault.seat, f.fault.tick, one_line(&f.fault.reason))
}

/// A bot's text on one line, so that it cannot break the table's layout.
fn one_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

fn percent(rate: Option<f64>) -> String {
    rate.map_or_else(|| "-".to_string(), |r| format!("{:.1}%", 100.0 * r))
}

/// Escapes text for HTML element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Line colours of the rating chart, by bot index (repeating).
const COLOURS: [&str; 8] = ["#38bdf8", "#f87171", "#4ade80", "#fbbf24", "#c4b5fd", "#fb923c", "#f472b6", "#2dd4bf"];

/// The server's stylesheet, which the report embeds (see the module docs).
const SERVER_STYLE: &str = include_str!("../../server/web/style.css");

/// What the report adds to the server's stylesheet.
const REPORT_STYLE: &str = "\
table.matrix td, table.matrix th { text-align: center; min-width: 4.5em; }
table.matrix td a { color: var(--text); display: block; }
.spec { font-family: var(--mono); color: var(--faint); font-size: .85em; margin-left: .4em; }
ul.facts { margin: 0 0 .8em; padding-left: 1.2em; }
details summary { cursor: pointer; color: var(--muted); }
p.pair { overflow-wrap: anywhere; }
svg#ratings { max-width: 100%; height: auto; }
th .sym { text-transform: none; }
";

/// The whole HTML page.
pub fn html(s: &Standings, about: &About) -> String {
    let names = s.names();
    let mut out = String::new();
    let title = escape(&about.title);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{title}</title>\n<style>\n{SERVER_STYLE}\n/* The report's own */\n{REPORT_STYLE}</style>\n</head>\n<body data-page=\"report\">\n<main class=\"wrap\">\n<section class=\"panel\" id=\"about\">\n<div class=\"row head\"><h1>{title}</h1></div>\n<ul class=\"facts small muted\">\n"
    );
    for fact in &about.facts {
        let _ = writeln!(out, "<li>{}</li>", escape(fact));
    }
    out.push_str("</ul>\n");
    out.push_str(EXPLANATION);
    out.push_str("</section>\n<section class=\"panel\">\n<h2>Standings</h2>\n<div class=\"table-wrap\">\n<table id=\"standings\">\n<tr><th class=\"num\">rank</th><th>bot</th><th class=\"num\">games</th><th class=\"num\">wins</th><th class=\"num\">draws</th><th class=\"num\">losses</th><th class=\"num\">win rate</th><th class=\"num\">rating ± 2<span class=\"sym\">σ</span></th><th class=\"num\">mean score</th></tr>\n");
    for (rank, &b) in s.ranking().iter().enumerate() {
        let st = &s.bots()[b];
        let spec = about.specs.get(b).map(|x| format!(" <span class=\"spec\">{}</span>", escape(x))).unwrap_or_default();
        let _ = writeln!(
            out,
            "<tr class=\"rank-{}\"><td class=\"num rank\">{}</td><td class=\"name-cell\">{}{spec}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:.2} ± {:.2}</td><td class=\"num\">{:.2}</td></tr>",
            rank + 1,
            rank + 1,
            escape(&names[b]),
            st.games,
            st.record.wins,
            st.record.draws,
            st.record.losses,
            percent(st.record.win_rate()),
            st.rating.rating,
            2.0 * st.rating.uncertainty,
            st.mean_score()
        );
    }
    out.push_str("</table>\n</div>\n</section>\n<section class=\"panel\">\n<h2>Win rate, row against column</h2>\n<p class=\"small muted\">A draw counts half; the cell's colour goes from red (0%) to green (100%). Click a cell for its games.</p>\n<div class=\"table-wrap\">\n<table class=\"matrix\" id=\"matrix\">\n<tr><th></th>");
    for n in names {
        let _ = write!(out, "<th>{}</th>", escape(n));
    }
    out.push_str("</tr>\n");
    for (a, n) in names.iter().enumerate() {
        let _ = write!(out, "<tr><th>{}</th>", escape(n));
        for b in 0..names.len() {
            let rec = s.against(a, b);
            match rec.win_rate().filter(|_| a != b) {
                Some(r) => {
                    let _ = write!(
                        out,
                        "<td style=\"background:{}\" title=\"{} wins, {} draws, {} losses\"><a href=\"#games-{a}-{b}\">{:.1}%</a></td>",
                        heat(r),
                        rec.wins,
                        rec.draws,
                        rec.losses,
                        100.0 * r
                    );
                }
                None => out.push_str("<td>-</td>"),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n</div>\n</section>\n<section class=\"panel\">\n");
    out.push_str(&pair_games(s));
    out.push_str("</section>\n<section class=\"panel\">\n<h2>Rating after each game</h2>\n");
    out.push_str(&chart(s));
    out.push_str("</section>\n");
    let faults = faults(s);
    if !faults.is_empty() {
        let _ = write!(out, "<section class=\"panel\">\n{faults}</section>\n");
    }
    let _ = write!(out, "<section class=\"panel\">\n{}</section>\n", games_list(s));
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// How to read the standings, above them.
const EXPLANATION: &str = "<details open>\n<summary>How to read this</summary>\n<ul>\n\
<li><b>wins, draws, losses</b> count pairs of seats, not games: in a game of more than two seats every pair of seats held by different bots is a duel of its own, won by the better place (a five-snake game's winner wins four). So a bot with 12 games may well have 31 wins, 6 draws and 11 losses; in two-seat games pairs and games are the same.</li>\n\
<li><b>win rate</b>: points per pair, a draw counting half. A cell of the win matrix is its row's bot against its column's; click it for their games.</li>\n\
<li><b>rating</b>: Weng-Lin (Bayesian, like TrueSkill), from 25 ± 8.3, updated after every game in game order by each bot's place; ± is two standard deviations.</li>\n\
<li><b>rank</b> is by rating, then win rate. A bot can rank above one with a higher win rate: the rating weighs whom the games were won against, the win rate does not.</li>\n\
</ul>\n</details>\n";

/// The games behind each win-matrix cell, each linked to its replay.
fn pair_games(s: &Standings) -> String {
    let names = s.names();
    let mut out = String::from("<h2>Games by pair</h2>\n");
    let _ = writeln!(out, "<p class=\"small muted\">The first {CELL_GAMES_KEPT} games of each pair of bots; <code>results.jsonl</code> has every game.</p>");
    for a in 0..names.len() {
        for b in 0..names.len() {
            let games = s.cell_games(a, b);
            if a == b || games.is_empty() {
                continue;
            }
            let links: Vec<String> = games.iter().map(|&g| game_link(g, None)).collect();
            let _ = writeln!(
                out,
                "<p class=\"pair\" id=\"games-{a}-{b}\"><b>{}</b> against <b>{}</b>: {}</p>",
                escape(&names[a]),
                escape(&names[b]),
                links.join(", ")
            );
        }
    }
    out
}

/// The first games, each with its seats, places and length.
fn games_list(s: &Standings) -> String {
    let names = s.names();
    let mut out = String::from("<h2>Games</h2>\n");
    let more = s.games().saturating_sub(s.first_games().len() as u64);
    if more > 0 {
        let _ = writeln!(
            out,
            "<p>The first {GAMES_KEPT} games; the {more} others are in <code>results.jsonl</code> and their replays in the batches of <code>games/</code> (<code>snakepit replay games/NNNNNN.jsonl --html page.html</code> makes a page of any).</p>"
        );
    }
    out.push_str("<table id=\"games\">\n<tr><th>game</th><th>bots by seat (place)</th><th>ticks</th></tr>\n");
    for g in s.first_games() {
        let seats: Vec<String> = g
            .seats
            .iter()
            .zip(&g.places)
            .map(|(&b, p)| format!("{} ({p})", escape(names.get(b).map_or("?", String::as_str))))
            .collect();
        let _ = writeln!(out, "<tr><td>{}</td><td>{}</td><td>{}</td></tr>", game_link(g.game, None), seats.join(", "), g.ticks);
    }
    out.push_str("</table>\n");
    out
}

/// The faults section: nothing when no bot had a fault.
fn faults(s: &Standings) -> String {
    let mut out = String::new();
    if s.faults_total() == 0 {
        return out;
    }
    out.push_str("<h2>Faults</h2>\n<p>Games in which a bot gave no usable move or could not join; the game went on by its rules. Each game's first fault per seat is in <code>results.jsonl</code>, every fault in the game's <code>.stderr.jsonl</code>.</p>\n");
    out.push_str("<table id=\"faults\">\n<tr><th>bot</th><th>games with a fault</th><th>first fault</th></tr>\n");
    for (b, name) in s.names().iter().enumerate() {
        let st = &s.bots()[b];
        if let Some(first) = &st.first_fault {
            let _ = writeln!(out, "<tr><td>{}</td><td>{} of {}</td><td>{}</td></tr>", escape(name), st.fault_games, st.games, escape(&fault_line(first)));
        }
    }
    out.push_str("</table>\n<table id=\"fault-list\">\n<tr><th>game</th><th>bot</th><th>seat</th><th>tick</th><th>reason</th></tr>\n");
    for f in s.faults() {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            game_link(f.game, None),
            escape(&s.names()[f.bot]),
            f.fault.seat,
            game_link(f.game, Some(f.fault.tick)),
            escape(&f.fault.reason)
        );
    }
    out.push_str("</table>\n");
    let more = s.faults_total() - s.faults().len() as u64;
    if more > 0 {
        let _ = writeln!(out, "<p>{more} more in <code>results.jsonl</code>.</p>");
    }
    out
}

/// A colour from red (0) through yellow to green (1).
fn heat(rate: f64) -> String {
    let r = rate.clamp(0.0, 1.0);
    let hue = 120.0 * r;
    // Dark enough for the stylesheet's light text.
    format!("hsl({hue:.0}, 55%, 26%)")
}

/// The rating chart: one line per bot, with its ±2σ band.
fn chart(s: &Standings) -> String {
    let (w, h, pad) = (800.0, 360.0, 40.0);
    let mut history: Vec<(u64, Vec<Rating>)> = s.history().to_vec();
    if history.last().is_some_and(|(g, _)| *g != s.games()) {
        history.push((s.games(), s.bots().iter().map(|b| b.rating).collect()));
    }
    let mut out = String::new();
    if history.is_empty() {
        out.push_str("<p>No games yet.</p>\n");
        return out;
    }
    let (mut lo, mut hi) = (f64::MAX, f64::MIN);
    for r in history.iter().flat_map(|(_, r)| r) {
        lo = lo.min(r.low());
        hi = hi.max(r.high());
    }
    if hi - lo < 1e-9 {
        hi = lo + 1.0;
    }
    let n = history.len();
    let games = s.games();
    let x = |i: usize| pad + (w - 2.0 * pad) * history[i].0 as f64 / games as f64;
    let y = |v: f64| h - pad - (h - 2.0 * pad) * (v - lo) / (hi - lo);
    // At most about 400 points per line keep the page small.
    let step = n.div_ceil(400).max(1);
    let idx: Vec<usize> = (0..n).step_by(step).chain(std::iter::once(n - 1)).collect();
    let _ = writeln!(
        out,
        "<svg id=\"ratings\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\">"
    );
    // The stylesheet's panel, border and muted text colours.
    let _ = writeln!(out, "<rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"#0e131c\"/>");
    let _ = writeln!(out, "<line x1=\"{pad}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#2e3b54\"/>", h - pad, w - pad, h - pad);
    let _ = writeln!(out, "<line x1=\"{pad}\" y1=\"{pad}\" x2=\"{pad}\" y2=\"{}\" stroke=\"#2e3b54\"/>", h - pad);
    let _ = writeln!(out, "<text x=\"{pad}\" y=\"{}\" font-size=\"12\" fill=\"#8b99ae\">game 1</text>", h - pad + 16.0);
    let _ = writeln!(out, "<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#8b99ae\" text-anchor=\"end\">game {games}</text>", w - pad, h - pad + 16.0);
    let _ = writeln!(out, "<text x=\"4\" y=\"{}\" font-size=\"12\" fill=\"#8b99ae\">{hi:.1}</text>", pad);
    let _ = writeln!(out, "<text x=\"4\" y=\"{}\" font-size=\"12\" fill=\"#8b99ae\">{lo:.1}</text>", h - pad);
    for (b, name) in s.names().iter().enumerate() {
        let colour = COLOURS[b % COLOURS.len()];
        let upper: Vec<String> = idx.iter().map(|&i| format!("{:.1},{:.1}", x(i), y(history[i].1[b].high()))).collect();
        let lower: Vec<String> = idx.iter().rev().map(|&i| format!("{:.1},{:.1}", x(i), y(history[i].1[b].low()))).collect();
        let _ = writeln!(out, "<polygon points=\"{} {}\" fill=\"{colour}\" fill-opacity=\"0.12\" stroke=\"none\"/>", upper.join(" "), lower.join(" "));
        let line: Vec<String> = idx.iter().map(|&i| format!("{:.1},{:.1}", x(i), y(history[i].1[b].rating))).collect();
        let _ = writeln!(
            out,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"><title>{}</title></polyline>",
            line.join(" "),
            escape(name)
        );
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"13\" fill=\"{colour}\">{}</text>",
            pad + 10.0,
            pad + 16.0 * (b as f64 + 1.0),
            escape(name)
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::GameResult;

    fn standings() -> Standings {
        let mut s = Standings::new(&["<b>bold</b>".into(), "plain".into()]);
        for g in 0..10 {
            let places = if g % 3 == 0 { vec![2, 1] } else { vec![1, 2] };
            s.add(&GameResult { game: g, seed: g, seats: vec![0, 1], places, scores: vec![1, 0], ticks: 3, forfeits: Vec::new(), faults: Vec::new() });
        }
        s
    }

    #[test]
    fn text_table_has_every_bot_and_the_matrix() {
        let t = text(&standings());
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[0].contains("rating (±2σ)"), "{t}");
        assert!(lines[1].contains("<b>bold</b>") && lines[1].contains("    10       6       0       4"), "{t}");
        assert!(t.contains("60.0%") && t.contains("40.0%"), "{t}");
    }

    #[test]
    fn html_is_escaped_and_self_contained() {
        let about = About { title: "duel <round-robin>".into(), facts: vec!["seed 1".into()], specs: vec!["a & b".into(), "c".into()] };
        let page = html(&standings(), &about);
        assert!(!page.contains("<b>bold"), "names are escaped");
        assert!(page.contains("&lt;b&gt;bold&lt;/b&gt;"));
        assert!(page.contains("a &amp; b"));
        assert!(page.contains("<svg id=\"ratings\""));
        assert!(page.contains("<table class=\"matrix\""));
        // Nothing is fetched: the only URL is the SVG namespace.
        assert_eq!(page.matches("http").count(), 1, "{page}");
        assert!(!page.contains("<script"));
        // The server's stylesheet, whole, and the report's page layout.
        assert!(page.contains(SERVER_STYLE) && page.contains("<main class=\"wrap\">"));
        assert!(page.contains("<section class=\"panel\">\n<h2>Standings</h2>"));
        assert!(!page.contains("Faults") && !text(&standings()).contains("faults"), "no faults, no section");
    }

    #[test]
    fn faults_name_the_bot_the_game_and_the_reason() {
        use crate::standings::SeatFault;
        let mut s = standings();
        let reason = "could not join: HTTP status 500 <oops>\nsecond line";
        s.add(&GameResult {
            game: 10,
            seed: 10,
            seats: vec![1, 0],
            places: vec![2, 1],
            scores: vec![0, 1],
            ticks: 3,
            forfeits: vec![3, 0],
            faults: vec![SeatFault { seat: 0, tick: 1, reason: reason.into() }],
        });
        let t = text(&s);
        let line = t.lines().find(|l| l.starts_with("plain") && l.contains("games")).unwrap_or_else(|| panic!("{t}"));
        assert!(line.contains("in 1 of 11 games; first: game 10, seat 0, tick 1: could not join: HTTP status 500 <oops> second line"), "{t}");
        let page = html(&s, &About::default());
        assert!(page.contains("<table id=\"faults\">") && page.contains("<table id=\"fault-list\">"), "{page}");
        assert!(
            page.contains("<td><a href=\"games/000010.html\">game 10</a></td><td>plain</td><td>0</td><td><a href=\"games/000010.html#t=1\">game 10, tick 1</a></td><td>could not join: HTTP status 500 &lt;oops&gt;"),
            "{page}"
        );
        assert!(linked_games(&s).contains(&10));
    }

    #[test]
    fn matrix_cells_and_the_game_list_link_to_replay_pages() {
        let mut s = Standings::new(&["a".into(), "b".into(), "c".into()]);
        for g in 0..150u64 {
            let seats = if g.is_multiple_of(2) { vec![0, 1] } else { vec![2, 0] };
            s.add(&GameResult { game: g, seed: g, seats, places: vec![1, 2], scores: vec![1, 0], ticks: 3, forfeits: Vec::new(), faults: Vec::new() });
        }
        let page = html(&s, &About::default());
        // a against b: the cell, and the games it names.
        assert!(page.contains("<a href=\"#games-0-1\">100.0%</a>"), "{page}");
        let cell = page.split("<p class=\"pair\" id=\"games-0-1\">").nth(1).and_then(|t| t.split("</p>").next()).unwrap_or_else(|| panic!("{page}"));
        assert!(cell.starts_with("<b>a</b> against <b>b</b>: <a href=\"games/000000.html\">game 0</a>, <a href=\"games/000002.html\">"), "{cell}");
        assert_eq!(cell.matches("<a ").count(), CELL_GAMES_KEPT);
        assert!(!page.contains("games-1-2"), "b and c never met");
        // The list: the first games, and where the others are.
        assert!(page.contains("<td><a href=\"games/000001.html\">game 1</a></td><td>c (1), a (2)</td><td>3</td>"), "{page}");
        assert!(!page.contains("games/000120.html") && page.contains("the 100 others are in"), "{page}");
        let linked = linked_games(&s);
        assert_eq!(linked.len(), GAMES_KEPT, "the cells' games are among the first");
        for g in &linked {
            assert!(page.contains(&format!("href=\"{}\"", game_page(*g))), "game {g} is linked");
        }
    }
}
