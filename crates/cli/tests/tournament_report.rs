//! The report of `snakepit tournament` read offline from its folder: every
//! link to a game opens a replay page that is there, every win-matrix cell
//! leads to its pair's games, and a fault's link opens its game at its tick.

mod common;

use common::{TempDir, snakepit, stderr};

/// Every `href="..."` of a page.
fn links(page: &str) -> Vec<String> {
    page.split("href=\"").skip(1).filter_map(|t| t.split('"').next()).map(str::to_string).collect()
}

#[test]
fn every_game_link_opens_a_replay_page_in_the_folder() {
    let dir = TempDir::new("tournament_report");
    let t = dir.join("t");
    let args = ["tournament", "--game", "duel", "--bot", "g=builtin:greedy", "--bot", "r=builtin:random", "--bot", "s=builtin:greedy"];
    let mut all: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    all.extend(["--games".as_ref(), "90".as_ref(), "--out".as_ref(), t.as_os_str()]);
    let out = snakepit(&all);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = std::fs::read_to_string(t.join("report.html")).unwrap();
    let hrefs = links(&report);
    let games: Vec<&String> = hrefs.iter().filter(|h| h.starts_with("games/")).collect();
    assert!(games.len() >= 50, "the first games at least: {}", games.len());
    for h in &games {
        let file = h.split('#').next().unwrap();
        let page = std::fs::read_to_string(t.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(page.starts_with("<!doctype html>") && page.contains("<title>snakepit replay") && page.contains("\"game\":\"duel\""), "{file} is a replay page");
    }
    // Each cell of the matrix leads to a list of its pair's games.
    let cells: Vec<&String> = hrefs.iter().filter(|h| h.starts_with("#games-")).collect();
    assert_eq!(cells.len(), 6, "three bots, six cells: {cells:?}");
    for c in cells {
        let id = format!("id=\"{}\"", &c[1..]);
        let list = report.split(&id).nth(1).and_then(|t| t.split("</p>").next()).unwrap_or_else(|| panic!("no {id}"));
        assert!(list.contains("href=\"games/"), "{id}: {list}");
    }
    assert!(report.contains("How to read this") && report.contains("count pairs of seats"), "the explanation");
    // Only linked games have a page: the folder stays small.
    let pages = std::fs::read_dir(t.join("games")).unwrap().filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "html")).count();
    let linked: std::collections::BTreeSet<&str> = games.iter().map(|h| h.split('#').next().unwrap()).collect();
    assert_eq!(pages, linked.len());
}
