//! The store's behaviour, once per backend: every check below runs against
//! an in-memory SQLite database and against a fresh database on the
//! PostgreSQL server named by `SNAKEPIT_TEST_PG` (an admin URL such as
//! `postgres://postgres@127.0.0.1:54329/postgres`; `scripts/test.sh`
//! starts one). Without that variable the PostgreSQL half is skipped with
//! a message, unless `SNAKEPIT_REQUIRE_PG=1` makes that a failure.

use snakepit_store::{CodeRow, NewMatch, NewReplay, Page, RatingRow, RoomRow, ScoreDelta, ScoresWritten, Store, StoreError};
use std::collections::BTreeSet;

/// Generates one test per check and backend.
macro_rules! suite {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(Store::memory().await.unwrap()).await;
                }
            )*
            use snakepit_store::Store;
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let Some(db) = super::pg::TestDb::create().await else { return };
                    super::$name(db.open().await).await;
                    db.drop().await;
                }
            )*
        }
    };
}

suite!(
    players_scores_rooms,
    scores_of_removed_players_are_dropped,
    migrations_run_once,
    seats,
    seat_reservations,
    removed_rooms_take_their_seats_and_views,
    uploaded_code,
    replays,
    unowned_replays_are_pruned_per_origin,
    a_players_games_are_pruned_to_their_latest_unless_another_player_keeps_them,
    points_earned_before_a_reset_are_not_written_after_it,
    ratings,
    queue_hands_each_game_to_one_worker,
    lapsed_claims_move_and_late_results_are_refused,
    leases,
    nodes,
    room_views_lapse_with_their_node,
    cluster_spreads_rooms_and_moves_them_off_a_dead_node,
);

async fn players_scores_rooms(s: Store) {
    let a = s.add_player("ann", "snakebattle").await.unwrap();
    assert_eq!(a.id.len(), 20);
    assert!(a.code.bytes().all(|b| b.is_ascii_digit()));
    assert!(matches!(s.add_player("ann", "hex").await, Err(StoreError::NameTaken(_))));
    assert!(matches!(s.add_player("Ann", "duel").await, Err(StoreError::NameTaken(_))), "letter case does not make a name");
    assert_eq!(s.player(&a.id).await.unwrap(), Some(a.clone()));
    assert_eq!(s.authenticate(&a.id, &a.code).await.unwrap(), Some(a.clone()));
    assert_eq!(s.authenticate(&a.id, "1").await.unwrap(), None);
    let b = s.add_player("bob", "duel").await.unwrap();
    assert_eq!(s.players().await.unwrap(), vec![a.clone(), b.clone()]);

    let d = |score| ScoreDelta { player_id: a.id.clone(), score, deaths: 1, floored: true, ..ScoreDelta::default() };
    s.add_scores("snakebattle", &[d(10), d(-3)]).await.unwrap();
    assert_eq!(s.leaderboard("snakebattle").await.unwrap()[0].score, 7);
    s.add_scores("snakebattle", &[d(-100)]).await.unwrap();
    let row = &s.leaderboard("snakebattle").await.unwrap()[0];
    assert_eq!((row.score, row.deaths, row.name.as_str()), (0, 3, "ann"));
    // Without the floor the total is the plain sum, below zero too.
    let plain = |score| ScoreDelta { player_id: a.id.clone(), score, ..ScoreDelta::default() };
    s.add_scores("duel", &[plain(1), plain(-3)]).await.unwrap();
    s.add_scores("duel", &[plain(5)]).await.unwrap();
    assert_eq!(s.leaderboard("duel").await.unwrap()[0].score, 3);
    s.add_scores("duel", &[plain(-4)]).await.unwrap();
    assert_eq!(s.leaderboard("duel").await.unwrap()[0].score, -1);
    let w = ScoreDelta { player_id: b.id.clone(), score: 5, wins: 1, ..ScoreDelta::default() };
    s.add_scores("snakebattle", &[w]).await.unwrap();
    let names: Vec<_> = s.leaderboard("snakebattle").await.unwrap().into_iter().map(|r| r.name).collect();
    assert_eq!(names, ["bob", "ann"]);
    assert!(s.leaderboard("hex").await.unwrap().is_empty());
    // A record game keeps the best record, whatever comes after it.
    let r = |record, deaths| ScoreDelta { player_id: a.id.clone(), record, deaths, ..ScoreDelta::default() };
    for (delta, total) in [(r(14, 0), 14), (r(2, 1), 14), (r(0, 1), 14), (r(20, 0), 20)] {
        s.add_scores("carrots", &[delta]).await.unwrap();
        assert_eq!(s.leaderboard("carrots").await.unwrap()[0].score, total);
    }

    let room = RoomRow { name: "r1".into(), game: "snakebattle".into(), tick_ms: 100, paused: true, seed: u64::MAX, for_arrivals: false };
    s.save_room(&room).await.unwrap();
    let moved = RoomRow { paused: false, tick_ms: 250, ..room.clone() };
    s.save_room(&moved).await.unwrap();
    assert_eq!(s.rooms().await.unwrap(), vec![moved]);
    assert_eq!(s.reset_scores(Some("hex")).await.unwrap(), 0);
    assert_eq!(s.reset_scores(None).await.unwrap(), 4);
    assert!(s.leaderboard("snakebattle").await.unwrap().is_empty());
}

async fn points_earned_before_a_reset_are_not_written_after_it(s: Store) {
    let a = s.add_player("ann", "hex").await.unwrap();
    let d = |score| ScoreDelta { player_id: a.id.clone(), score, ..ScoreDelta::default() };
    let score = |game: &'static str| {
        let s = s.clone();
        async move { s.leaderboard(game).await.unwrap().first().map_or(0, |r| r.score) }
    };
    // A room on one node reads the epoch; an admin resets the game.
    let hex = s.score_epoch("hex").await.unwrap();
    let duel = s.score_epoch("duel").await.unwrap();
    assert_eq!(s.add_scores_at("hex", &[d(5)], hex).await.unwrap(), ScoresWritten::Applied);
    assert_eq!(score("hex").await, 5);
    s.reset_scores(Some("hex")).await.unwrap();
    // The room's pending points are refused, and it learns the new epoch.
    let now = match s.add_scores_at("hex", &[d(7)], hex).await.unwrap() {
        ScoresWritten::Reset { epoch } => epoch,
        other => panic!("{other:?}"),
    };
    assert_eq!(now, s.score_epoch("hex").await.unwrap());
    assert_ne!(now, hex);
    assert_eq!(score("hex").await, 0);
    assert_eq!(s.add_scores_at("hex", &[d(2)], now).await.unwrap(), ScoresWritten::Applied);
    assert_eq!(score("hex").await, 2);
    // Another game's reset leaves it alone; a reset of every game does not.
    assert_eq!(s.score_epoch("duel").await.unwrap(), duel);
    s.reset_scores(None).await.unwrap();
    assert!(matches!(s.add_scores_at("hex", &[d(1)], now).await.unwrap(), ScoresWritten::Reset { .. }));
    assert!(matches!(s.add_scores_at("duel", &[d(1)], duel).await.unwrap(), ScoresWritten::Reset { .. }));
    assert_eq!(score("hex").await, 0);
}

async fn scores_of_removed_players_are_dropped(s: Store) {
    let a = s.add_player("ann", "hex").await.unwrap();
    let b = s.add_player("bob", "hex").await.unwrap();
    s.remove_player(&b.id).await.unwrap();
    assert!(matches!(s.remove_player(&b.id).await, Err(StoreError::NoPlayer(_))));
    let deltas = [
        ScoreDelta { player_id: b.id.clone(), score: 9, ..ScoreDelta::default() },
        ScoreDelta { player_id: a.id.clone(), score: 4, ..ScoreDelta::default() },
    ];
    s.add_scores("hex", &deltas).await.unwrap();
    let board = s.leaderboard("hex").await.unwrap();
    assert_eq!(board.len(), 1);
    assert_eq!((board[0].player_id.as_str(), board[0].score), (a.id.as_str(), 4));
}

async fn migrations_run_once(s: Store) {
    let v = s.schema_version().await.unwrap();
    assert!(v >= 3, "version {v}");
    // Everything still works after the schema is in place: nothing ran twice.
    s.add_player("ann", "hex").await.unwrap();
    assert_eq!(s.schema_version().await.unwrap(), v);
}

async fn seats(s: Store) {
    let a = s.add_player("ann", "snakebattle").await.unwrap();
    assert_eq!(s.seat(&a.id).await.unwrap(), None);
    s.set_seat(&a.id, "r1").await.unwrap();
    s.set_seat(&a.id, "r2").await.unwrap();
    assert_eq!(s.seat(&a.id).await.unwrap().as_deref(), Some("r2"), "the latest room wins");
    assert!(matches!(s.set_seat("nobody", "r1").await, Err(StoreError::NoPlayer(_))));
    s.remove_player(&a.id).await.unwrap();
    assert_eq!(s.seat(&a.id).await.unwrap(), None, "a removed player's seat goes too");
}

async fn seat_reservations(s: Store) {
    let a = s.add_player("ann", "duel").await.unwrap();
    let b = s.add_player("bob", "duel").await.unwrap();
    let c = s.add_player("cyd", "duel").await.unwrap();
    for p in [&a, &b, &c] {
        s.set_seat(&p.id, "final").await.unwrap();
    }
    assert!(!s.reserve_seat(&a.id, "elsewhere", 2_000).await.unwrap(), "only the recorded room is kept");
    assert!(s.reserve_seat(&a.id, "final", 2_000).await.unwrap());
    assert!(s.reserve_seat(&b.id, "final", 1_000).await.unwrap());
    assert!(s.reserve_seat(&c.id, "final", 3_000).await.unwrap());
    let kept = |now| {
        let s = s.clone();
        async move { s.seat_reservations(now).await.unwrap().into_iter().map(|r| (r.player_id, r.room, r.until_unix_ms)).collect::<Vec<_>>() }
    };
    let mut want = vec![(a.id.clone(), "final".to_string(), 2_000), (c.id.clone(), "final".to_string(), 3_000)];
    want.sort();
    assert_eq!(kept(1_000).await, want, "lapsed ones are not listed");
    // A move ends the reservation; a removal takes it with the seat.
    s.set_seat(&a.id, "other").await.unwrap();
    s.remove_player(&c.id).await.unwrap();
    assert_eq!(kept(0).await, vec![(b.id.clone(), "final".to_string(), 1_000)]);
}

async fn removed_rooms_take_their_seats_and_views(s: Store) {
    let room = |name: &str, for_arrivals| RoomRow {
        name: name.into(),
        game: "duel".into(),
        tick_ms: 200,
        paused: false,
        seed: 5,
        for_arrivals,
    };
    s.save_room(&room("duel", false)).await.unwrap();
    s.save_room(&room("duel-2", true)).await.unwrap();
    assert_eq!(s.rooms().await.unwrap(), vec![room("duel", false), room("duel-2", true)]);
    let a = s.add_player("ann", "duel").await.unwrap();
    let b = s.add_player("bob", "duel").await.unwrap();
    s.set_seat(&a.id, "duel-2").await.unwrap();
    s.set_seat(&b.id, "duel").await.unwrap();
    s.set_room_views("n1", &[("duel-2".into(), "{}".into()), ("duel".into(), "{}".into())], 60_000).await.unwrap();
    let d = ScoreDelta { player_id: a.id.clone(), score: 3, ..ScoreDelta::default() };
    s.add_scores("duel", &[d]).await.unwrap();

    assert!(s.remove_room("duel-2").await.unwrap());
    assert!(!s.remove_room("duel-2").await.unwrap(), "a second removal finds nothing");
    assert_eq!(s.rooms().await.unwrap(), vec![room("duel", false)]);
    assert_eq!(s.seat(&a.id).await.unwrap(), None);
    assert_eq!(s.seat(&b.id).await.unwrap().as_deref(), Some("duel"), "other rooms' seats stay");
    let views: Vec<_> = s.room_views().await.unwrap().into_iter().map(|v| v.name).collect();
    assert_eq!(views, ["duel"]);
    assert_eq!(s.leaderboard("duel").await.unwrap()[0].score, 3, "scores stay");
}

async fn uploaded_code(s: Store) {
    let a = s.add_player("ann", "carrots").await.unwrap();
    let b = s.add_player("bob", "carrots").await.unwrap();
    let code = CodeRow { player_id: a.id.clone(), lang: "python".into(), name: "v1".into(), source: "print('up')".into() };
    s.save_code(&code).await.unwrap();
    s.save_code(&CodeRow { name: "v2".into(), ..code.clone() }).await.unwrap();
    assert_eq!(s.code(&a.id).await.unwrap().unwrap().name, "v2");
    assert_eq!(s.code(&b.id).await.unwrap(), None);
    let ghost = CodeRow { player_id: "nobody".into(), ..code.clone() };
    assert!(matches!(s.save_code(&ghost).await, Err(StoreError::NoPlayer(_))));
    s.save_code(&CodeRow { player_id: b.id.clone(), ..code.clone() }).await.unwrap();
    assert_eq!(s.all_code().await.unwrap().len(), 2);
    s.remove_player(&a.id).await.unwrap();
    let left: Vec<_> = s.all_code().await.unwrap().into_iter().map(|c| c.player_id).collect();
    assert_eq!(left, vec![b.id], "a removed player's code goes too");
}

async fn replays(s: Store) {
    let a = s.add_player("ann", "duel").await.unwrap();
    let b = s.add_player("bob", "duel").await.unwrap();
    let mut ids = Vec::new();
    for i in 0..5 {
        let players = if i % 2 == 0 { vec![a.id.clone(), b.id.clone()] } else { vec![a.id.clone(), String::new()] };
        let r = NewReplay {
            game: "duel".into(),
            origin: "ladder".into(),
            players,
            result: format!("{{\"game\":{i}}}"),
            body: format!("header {i}\ntick 1\n"),
            stderr_log: if i == 2 { "{\"seat\":0,\"t\":1}\n".into() } else { String::new() },
        };
        ids.push(s.save_replay(&r).await.unwrap());
    }
    let (info, body) = s.replay(ids[2]).await.unwrap().unwrap();
    assert_eq!(body, "header 2\ntick 1\n");
    assert_eq!(info.players, vec![a.id.clone(), b.id.clone()]);
    assert_eq!((info.game.as_str(), info.origin.as_str(), info.result.as_str()), ("duel", "ladder", "{\"game\":2}"));
    assert!(info.created_ms > 1_600_000_000_000, "{}", info.created_ms);
    assert_eq!(s.replay(ids[4] + 100).await.unwrap(), None);
    assert_eq!(s.replay_stderr_log(ids[2]).await.unwrap().as_deref(), Some("{\"seat\":0,\"t\":1}\n"));
    assert_eq!(s.replay_stderr_log(ids[1]).await.unwrap().as_deref(), Some(""));
    assert_eq!(s.replay_stderr_log(ids[4] + 100).await.unwrap(), None);
    let of_a: Vec<_> = s.replays_of(&a.id, None, 3).await.unwrap().into_iter().map(|r| r.id).collect();
    assert_eq!(of_a, vec![ids[4], ids[3], ids[2]]);
    let of_b: Vec<_> = s.replays_of(&b.id, None, 10).await.unwrap().into_iter().map(|r| r.id).collect();
    assert_eq!(of_b, vec![ids[4], ids[2], ids[0]]);
    let r = NewReplay { origin: "fork".into(), players: vec![b.id.clone()], ..NewReplay::default() };
    let forked = s.save_replay(&r).await.unwrap();
    let of_b = |o| {
        let (s, b) = (s.clone(), b.id.clone());
        async move { s.replays_of(&b, o, 10).await.unwrap().into_iter().map(|r| r.id).collect::<Vec<_>>() }
    };
    assert_eq!(of_b(Some("ladder")).await, vec![ids[4], ids[2], ids[0]]);
    assert_eq!(of_b(Some("fork")).await, vec![forked]);
    assert_eq!(of_b(None).await, vec![forked, ids[4], ids[2], ids[0]]);
    let r = NewReplay {
        game: "duel".into(),
        origin: "duel-room".into(),
        players: vec![String::new(), String::new()],
        result: "{}".into(),
        body: "h\n".into(),
        stderr_log: String::new(),
    };
    let room = s.save_replay(&r).await.unwrap();
    let from = |o: &'static str, n| {
        let s = s.clone();
        async move { s.replays_from(o, n).await.unwrap().into_iter().map(|r| r.id).collect::<Vec<_>>() }
    };
    assert_eq!(from("duel-room", 10).await, vec![room]);
    assert_eq!(from("ladder", 2).await, vec![ids[4], ids[3]]);
    assert!(from("nowhere", 10).await.is_empty());
    let recent: Vec<_> = s.recent_replays(2).await.unwrap().into_iter().map(|r| r.id).collect();
    assert_eq!(recent, vec![room, room - 1]);
    // The next page starts below the last id of the one before.
    let ids_of = |rows: Vec<snakepit_store::ReplayInfo>| rows.into_iter().map(|r| r.id).collect::<Vec<_>>();
    let next = ids_of(s.recent_replays_page(Page { limit: 2, before: Some(room - 1) }).await.unwrap());
    assert_eq!(next, vec![room - 2, room - 3]);
    let next = ids_of(s.replays_of_page(&b.id, None, Page { limit: 2, before: Some(ids[4]) }).await.unwrap());
    assert_eq!(next, vec![ids[2], ids[0]]);
    let next = ids_of(s.replays_from_page("ladder", Page { limit: 10, before: Some(ids[1]) }).await.unwrap());
    assert_eq!(next, vec![ids[0]]);
}

async fn unowned_replays_are_pruned_per_origin(s: Store) {
    let a = s.add_player("ann", "duel").await.unwrap();
    let save = |origin: &'static str, players: Vec<String>| {
        let s = s.clone();
        async move {
            let r = NewReplay { game: "duel".into(), origin: origin.into(), players, ..NewReplay::default() };
            s.save_replay(&r).await.unwrap()
        }
    };
    let bots = || vec![String::new(), String::new()];
    let mut room = Vec::new();
    for i in 0..6 {
        let players = if i % 3 == 1 { vec![a.id.clone(), String::new()] } else { bots() };
        room.push(save("duel-room", players).await);
    }
    let other = save("other-room", bots()).await;
    // Unowned in duel-room: 0, 2, 3, 5; the newest two stay.
    assert_eq!(s.prune_unowned_replays("duel-room", 2).await.unwrap(), 2);
    let left: Vec<_> = s.replays_from("duel-room", 10).await.unwrap().into_iter().map(|r| r.id).collect();
    assert_eq!(left, vec![room[5], room[4], room[3], room[1]], "a player's games are never pruned");
    assert_eq!(s.replay(room[0]).await.unwrap(), None);
    assert!(!s.has_replay(room[0]).await.unwrap() && s.has_replay(room[1]).await.unwrap());
    assert_eq!(s.replays_from("other-room", 10).await.unwrap().len(), 1, "other origins are left alone");
    assert_eq!(s.prune_unowned_replays("duel-room", 2).await.unwrap(), 0);
    assert_eq!(s.prune_unowned_replays("other-room", 0).await.unwrap(), 1);
    assert_eq!(s.replay(other).await.unwrap(), None);
    let of_a: Vec<_> = s.replays_of(&a.id, None, 10).await.unwrap().into_iter().map(|r| r.id).collect();
    assert_eq!(of_a, vec![room[4], room[1]]);
}

async fn a_players_games_are_pruned_to_their_latest_unless_another_player_keeps_them(s: Store) {
    let a = s.add_player("ann", "duel").await.unwrap();
    let b = s.add_player("bob", "duel").await.unwrap();
    let save = |players: Vec<String>| {
        let s = s.clone();
        async move {
            let r = NewReplay { game: "duel".into(), origin: "duel-room".into(), players, ..NewReplay::default() };
            s.save_replay(&r).await.unwrap()
        }
    };
    // Bob plays game 1 with Ann, then Ann plays games 2 to 5 against bots.
    let with_bob = save(vec![a.id.clone(), b.id.clone()]).await;
    let mut alone = Vec::new();
    for _ in 0..4 {
        alone.push(save(vec![a.id.clone(), String::new()]).await);
    }
    let bots = save(vec![String::new(), String::new()]).await;
    let of = |p: String| {
        let s = s.clone();
        async move { s.replays_of(&p, None, 100).await.unwrap().into_iter().map(|r| r.id).collect::<Vec<_>>() }
    };
    // Ann keeps her latest two; the game with Bob is Bob's latest, so it
    // stays too.
    assert_eq!(s.prune_player_replays(&a.id, 2).await.unwrap(), 2);
    assert_eq!(of(a.id.clone()).await, vec![alone[3], alone[2], with_bob]);
    assert_eq!(of(b.id.clone()).await, vec![with_bob]);
    assert!(s.has_replay(bots).await.unwrap(), "games without players are another limit's");
    // Once Bob has two newer games, the old one goes for both.
    for _ in 0..2 {
        save(vec![String::new(), b.id.clone()]).await;
    }
    assert_eq!(s.prune_player_replays(&b.id, 2).await.unwrap(), 1);
    assert!(!s.has_replay(with_bob).await.unwrap());
    assert_eq!(s.prune_player_replays(&b.id, 2).await.unwrap(), 0);
    assert_eq!(of(a.id.clone()).await, vec![alone[3], alone[2]]);
    assert_eq!(s.prune_player_replays(&a.id, 2).await.unwrap(), 0);
}

async fn ratings(s: Store) {
    let a = s.add_player("ann", "duel").await.unwrap();
    let b = s.add_player("bob", "duel").await.unwrap();
    let row = |p: &str, rating, games| RatingRow { player_id: p.to_string(), rating, uncertainty: 2.5, games };
    s.set_ratings("duel", &[row(&a.id, 25.0, 1), row(&b.id, 27.5, 1), row("gone", 40.0, 3)]).await.unwrap();
    assert_eq!(s.ratings("duel").await.unwrap(), vec![row(&b.id, 27.5, 1), row(&a.id, 25.0, 1)]);
    s.set_ratings("duel", &[row(&a.id, 30.0, 2)]).await.unwrap();
    assert_eq!(s.ratings("duel").await.unwrap()[0], row(&a.id, 30.0, 2));
    assert!(s.ratings("hex").await.unwrap().is_empty());
    s.remove_player(&a.id).await.unwrap();
    assert_eq!(s.ratings("duel").await.unwrap(), vec![row(&b.id, 27.5, 1)]);
}

/// Four workers drain 200 games concurrently: each game is claimed once,
/// finished once, and the counts add up.
async fn queue_hands_each_game_to_one_worker(s: Store) {
    let games: Vec<_> =
        (0..200u64).map(|i| NewMatch { game: "duel".into(), spec: format!("{{\"n\":{i}}}"), seed: i * 7 }).collect();
    let ids = s.enqueue_matches(&games).await.unwrap();
    assert_eq!(ids.len(), 200);
    assert_eq!(s.queue_counts().await.unwrap().queued, 200);
    let mut workers = Vec::new();
    for w in 0..4 {
        let s = s.clone();
        workers.push(tokio::spawn(async move {
            let name = format!("worker-{w}");
            let mut mine = Vec::new();
            while let Some(m) = s.claim_match(&name, 60_000).await.unwrap() {
                assert_eq!(m.attempts, 1);
                assert_eq!(m.spec, format!("{{\"n\":{}}}", m.seed / 7));
                assert!(s.finish_match(m.id, &name, &format!("\"done by {name}\""), None).await.unwrap());
                mine.push(m.id);
            }
            mine
        }));
    }
    let mut seen = BTreeSet::new();
    for w in workers {
        for id in w.await.unwrap() {
            assert!(seen.insert(id), "game {id} played twice");
        }
    }
    assert_eq!(seen, ids.iter().copied().collect());
    let counts = s.queue_counts().await.unwrap();
    assert_eq!((counts.queued, counts.running, counts.done), (0, 0, 200));
    assert!(s.match_result(ids[0]).await.unwrap().unwrap().starts_with("\"done by worker-"));
}

async fn lapsed_claims_move_and_late_results_are_refused(s: Store) {
    let id = s.enqueue_matches(&[NewMatch { game: "duel".into(), spec: "{}".into(), seed: 1 }]).await.unwrap()[0];
    let first = s.claim_match("w1", 0).await.unwrap().unwrap();
    assert_eq!(first.id, id);
    // A lease of 0 ms lapses as soon as the database clock moves on.
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    assert!(!s.renew_match(id, "w1", 60_000).await.unwrap());
    let second = s.claim_match("w2", 60_000).await.unwrap().unwrap();
    assert_eq!((second.id, second.attempts), (id, 2));
    assert_eq!(s.claim_match("w3", 60_000).await.unwrap(), None);
    assert!(!s.finish_match(id, "w1", "\"late\"", None).await.unwrap());
    assert!(s.renew_match(id, "w2", 60_000).await.unwrap());
    assert!(s.finish_match(id, "w2", "\"on time\"", Some(5)).await.unwrap());
    assert!(!s.finish_match(id, "w2", "\"twice\"", None).await.unwrap());
    assert_eq!(s.match_result(id).await.unwrap().as_deref(), Some("\"on time\""));
    let done = s.match_status(id).await.unwrap().unwrap();
    assert_eq!((done.state.as_str(), done.result.as_deref(), done.replay_id), ("done", Some("\"on time\""), Some(5)));
    let other = s.enqueue_matches(&[NewMatch { game: "duel".into(), spec: "{}".into(), seed: 2 }]).await.unwrap()[0];
    let queued = s.match_status(other).await.unwrap().unwrap();
    assert_eq!((queued.state.as_str(), queued.result, queued.replay_id), ("queued", None, None));
    s.claim_match("w4", 60_000).await.unwrap().unwrap();
    assert_eq!(s.match_status(other).await.unwrap().unwrap().state, "running");
    assert_eq!(s.match_status(other + 100).await.unwrap(), None);
}

async fn room_views_lapse_with_their_node(s: Store) {
    let view = |n: &str, j: &str| (n.to_string(), j.to_string());
    s.set_room_views("node1", &[view("a", "{\"tick\":1}"), view("b", "{}")], 60_000).await.unwrap();
    s.set_room_views("node2", &[view("c", "{}")], 0).await.unwrap();
    s.set_room_views("node1", &[view("a", "{\"tick\":2}")], 60_000).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let views = s.room_views().await.unwrap();
    let seen: Vec<_> = views.iter().map(|v| (v.name.as_str(), v.node.as_str(), v.summary.as_str())).collect();
    assert_eq!(seen, vec![("a", "node1", "{\"tick\":2}"), ("b", "node1", "{}")], "the lapsed view is gone, the newer one kept");
    // A room that moves is described by its new node.
    s.set_room_views("node2", &[view("b", "{\"moved\":true}")], 60_000).await.unwrap();
    assert_eq!(s.room_views().await.unwrap()[1].node, "node2");
}

async fn leases(s: Store) {
    assert!(s.acquire_lease("room:a", "node1", 60_000).await.unwrap());
    assert!(!s.acquire_lease("room:a", "node2", 60_000).await.unwrap());
    assert!(s.acquire_lease("room:a", "node1", 60_000).await.unwrap(), "the holder renews");
    assert_eq!(s.lease_holder("room:a").await.unwrap().as_deref(), Some("node1"));
    assert!(s.acquire_lease("room:b", "node2", 0).await.unwrap());
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    assert_eq!(s.lease_holder("room:b").await.unwrap(), None, "a lapsed lease has no holder");
    assert!(s.acquire_lease("room:b", "node1", 60_000).await.unwrap(), "a lapsed lease is taken over");
    s.release_lease("room:a", "node2").await.unwrap();
    assert_eq!(s.lease_holder("room:a").await.unwrap().as_deref(), Some("node1"), "only the holder releases");
    s.release_lease("room:a", "node1").await.unwrap();
    assert!(s.acquire_lease("room:a", "node2", 60_000).await.unwrap());
}

async fn nodes(s: Store) {
    s.announce_node("n1", "http://10.0.0.1:8080", 60_000).await.unwrap();
    s.announce_node("n2", "http://10.0.0.2:8080", 0).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let live: Vec<_> = s.live_nodes().await.unwrap().into_iter().map(|n| (n.id, n.url)).collect();
    assert_eq!(live, vec![("n1".to_string(), "http://10.0.0.1:8080".to_string())], "n2's announcement lapsed");
    s.announce_node("n2", "http://10.0.0.2:9090", 60_000).await.unwrap();
    let urls: Vec<_> = s.live_nodes().await.unwrap().into_iter().map(|n| n.url).collect();
    assert_eq!(urls, ["http://10.0.0.1:8080", "http://10.0.0.2:9090"]);
}

/// Rooms as a server would run them, for the cluster's steps.
#[derive(Default)]
struct Host {
    running: std::sync::Mutex<BTreeSet<String>>,
}

impl snakepit_store::cluster::RoomHost for Host {
    fn running(&self) -> BTreeSet<String> {
        self.running.lock().unwrap().clone()
    }
    fn start(&self, room: &RoomRow) {
        assert!(self.running.lock().unwrap().insert(room.name.clone()), "{} started twice", room.name);
    }
    fn stop(&self, room: &str) {
        assert!(self.running.lock().unwrap().remove(room), "{room} stopped but not running");
    }
}

impl Host {
    fn count(&self) -> usize {
        self.running.lock().unwrap().len()
    }
}

async fn cluster_spreads_rooms_and_moves_them_off_a_dead_node(s: Store) {
    use snakepit_store::cluster::{Cluster, RoomHost};
    for i in 0..6 {
        let room = RoomRow { name: format!("r{i}"), game: "hex".into(), tick_ms: 100, paused: false, seed: i, for_arrivals: false };
        s.save_room(&room).await.unwrap();
    }
    // Leases far longer than any step takes on a loaded machine: none lapses
    // until the test lets one.
    let lease_ms = 600_000;
    let (c1, c2) = (Cluster::new(s.clone(), "n1", "http://n1", lease_ms), Cluster::new(s.clone(), "n2", "http://n2", lease_ms));
    let (h1, h2) = (Host::default(), Host::default());
    // Alone, the first node takes every room.
    let r = c1.step(&h1).await.unwrap();
    assert_eq!((r.started.len(), r.held), (6, 6));
    assert_eq!(c1.owner_url("r0").await.unwrap().as_deref(), Some("http://n1"));
    // A second node comes up: rooms move over one per step until both
    // hold their share; no room ever runs on both.
    for _ in 0..6 {
        c2.step(&h2).await.unwrap();
        c1.step(&h1).await.unwrap();
        let (a, b) = (h1.running(), h2.running());
        assert!(a.is_disjoint(&b), "{a:?} and {b:?} overlap");
    }
    c2.step(&h2).await.unwrap();
    assert_eq!((h1.count(), h2.count()), (3, 3));
    let moved = h2.running().into_iter().next().unwrap();
    assert_eq!(c1.owner_url(&moved).await.unwrap().as_deref(), Some("http://n2"));
    // The first node dies (stops stepping): once its leases lapse, the
    // second takes its rooms. Its last step renews them for 1 ms only, so
    // that they lapse at once instead of in ten minutes.
    let dying = Cluster::new(s.clone(), "n1", "http://n1", 1);
    let r = dying.step(&h1).await.unwrap();
    assert_eq!((r.started.len(), r.stopped.len(), r.held), (0, 0, 3), "{r:?}");
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let r = c2.step(&h2).await.unwrap();
    assert_eq!((r.started.len(), r.held), (3, 6), "{r:?}");
    // The first node comes back to find its rooms gone: it stops them.
    let r = c1.step(&h1).await.unwrap();
    assert_eq!(r.stopped.len(), 3);
    assert!(h1.count() <= 3);
    assert!(h1.running().is_disjoint(&h2.running()));
    // A clean leave hands rooms over at once.
    c2.leave(&h2).await.unwrap();
    let r = c1.step(&h1).await.unwrap();
    assert_eq!(r.held, h1.count());
    assert!(r.held >= 3);
    // A node that creates a room takes it at once; the others cannot.
    let fresh = RoomRow { name: "fresh".into(), game: "hex".into(), tick_ms: 100, paused: false, seed: 9, for_arrivals: true };
    s.save_room(&fresh).await.unwrap();
    assert!(c2.take("fresh").await.unwrap());
    assert!(!c1.take("fresh").await.unwrap());
    assert_eq!(s.lease_holder("room:fresh").await.unwrap().as_deref(), Some("n2"));
}

/// Nodes that start at the same moment on an empty PostgreSQL database:
/// one migrates, the others wait for it and find the schema in place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_nodes_migrate_together() {
    let Some(db) = pg::TestDb::create().await else { return };
    let (a, b, c) = tokio::join!(db.open(), db.open(), db.open());
    let v = a.schema_version().await.unwrap();
    assert_eq!(b.schema_version().await.unwrap(), v);
    assert_eq!(c.schema_version().await.unwrap(), v);
    let p = a.add_player("ann", "hex").await.unwrap();
    assert_eq!(c.player(&p.id).await.unwrap(), Some(p), "the nodes share one database");
    db.drop().await;
}

/// A SQLite file keeps its content across a reopen, and its migrations are
/// not applied twice.
#[tokio::test]
async fn sqlite_file_survives_reopen() {
    let dir = std::env::temp_dir().join(format!("snakepit-store-{}", snakepit_store::random_id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("db.sqlite");
    let path = path.to_str().unwrap();
    let p = {
        let s = Store::open(path).await.unwrap();
        s.add_player("ann", "hex").await.unwrap()
    };
    let s = Store::open(path).await.unwrap();
    assert_eq!(s.player(&p.id).await.unwrap(), Some(p));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A database file as the server wrote it before this crate existed: its
/// three migrations applied one by one, each followed by `PRAGMA
/// user_version`, with a player, a score, a room and a program in it. The
/// store opens it unchanged and adds only its own later migrations.
#[tokio::test]
async fn a_database_of_the_earlier_server_opens_unchanged() {
    const EARLIER: [&str; 3] = [
        "CREATE TABLE players (id TEXT PRIMARY KEY, name TEXT NOT NULL, code TEXT NOT NULL, created_at INTEGER NOT NULL);
         CREATE UNIQUE INDEX players_name ON players(name);
         CREATE TABLE scores (player_id TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE, game TEXT NOT NULL,
             score INTEGER NOT NULL DEFAULT 0, deaths INTEGER NOT NULL DEFAULT 0, kills INTEGER NOT NULL DEFAULT 0,
             wins INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (player_id, game));
         CREATE TABLE rooms (name TEXT PRIMARY KEY, game TEXT NOT NULL, tick_ms INTEGER NOT NULL,
             paused INTEGER NOT NULL DEFAULT 0, seed INTEGER NOT NULL);",
        "ALTER TABLE players ADD COLUMN game TEXT NOT NULL DEFAULT 'snakebattle';",
        "CREATE TABLE code (player_id TEXT PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE, lang TEXT NOT NULL,
             name TEXT NOT NULL, source TEXT NOT NULL, updated_at INTEGER NOT NULL);",
    ];
    let dir = std::env::temp_dir().join(format!("snakepit-store-{}", snakepit_store::random_id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("old.sqlite");
    {
        let c = rusqlite::Connection::open(&path).unwrap();
        c.pragma_update(None, "journal_mode", "WAL").unwrap();
        for (i, sql) in EARLIER.iter().enumerate() {
            c.execute_batch(sql).unwrap();
            c.pragma_update(None, "user_version", i + 1).unwrap();
        }
        c.execute_batch(
            "INSERT INTO players (id, name, code, created_at) VALUES ('aaaaaaaaaaaaaaaaaaaa', 'ann', '123456789012345678', 1);
             INSERT INTO players (id, name, code, created_at, game) VALUES ('bbbbbbbbbbbbbbbbbbbb', 'bob', '223456789012345678', 2, 'hex');
             INSERT INTO scores (player_id, game, score, deaths, kills, wins) VALUES ('aaaaaaaaaaaaaaaaaaaa', 'snakebattle', 42, 3, 2, 1);
             INSERT INTO rooms (name, game, tick_ms, paused, seed) VALUES ('snakebattle', 'snakebattle', 1000, 1, 77);
             INSERT INTO code (player_id, lang, name, source, updated_at) VALUES ('bbbbbbbbbbbbbbbbbbbb', 'c', 'v1', 'int main(){}', 3);",
        )
        .unwrap();
    }
    let s = Store::open(path.to_str().unwrap()).await.unwrap();
    assert!(s.schema_version().await.unwrap() > 3);
    let ann = s.authenticate("aaaaaaaaaaaaaaaaaaaa", "123456789012345678").await.unwrap().expect("the old code still works");
    assert_eq!((ann.name.as_str(), ann.game.as_str()), ("ann", "snakebattle"));
    let row = &s.leaderboard("snakebattle").await.unwrap()[0];
    assert_eq!((row.name.as_str(), row.score, row.deaths, row.kills, row.wins), ("ann", 42, 3, 2, 1));
    let room = RoomRow { name: "snakebattle".into(), game: "snakebattle".into(), tick_ms: 1000, paused: true, seed: 77, for_arrivals: false };
    assert_eq!(s.rooms().await.unwrap(), vec![room]);
    assert_eq!(s.code("bbbbbbbbbbbbbbbbbbbb").await.unwrap().map(|c| c.source).as_deref(), Some("int main(){}"));
    s.set_seat(&ann.id, "snakebattle").await.unwrap();
    drop(s);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A database with kept games from before games were flagged as unowned:
/// the migration flags those without a registered player, so that pruning
/// reaches them too.
#[tokio::test]
async fn games_kept_before_the_unowned_flag_are_flagged() {
    const BEFORE: [&str; 7] = [
        include_str!("../migrations/sqlite/001_init.sql"),
        include_str!("../migrations/sqlite/002_player_game.sql"),
        include_str!("../migrations/sqlite/003_code.sql"),
        include_str!("../migrations/sqlite/004_coordination.sql"),
        include_str!("../migrations/sqlite/005_seats.sql"),
        include_str!("../migrations/sqlite/006_replay_stderr.sql"),
        include_str!("../migrations/sqlite/007_room_views.sql"),
    ];
    let dir = std::env::temp_dir().join(format!("snakepit-store-{}", snakepit_store::random_id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("v7.sqlite");
    {
        let c = rusqlite::Connection::open(&path).unwrap();
        for (i, sql) in BEFORE.iter().enumerate() {
            c.execute_batch(sql).unwrap();
            c.pragma_update(None, "user_version", i + 1).unwrap();
        }
        c.execute_batch(
            "INSERT INTO replays (id, game, origin, players, result, body, created_ms) VALUES
                 (1, 'duel', 'duel', '[\"\",\"\"]', '{}', 'a', 1),
                 (2, 'duel', 'duel', '[\"p1\",\"\"]', '{}', 'b', 2),
                 (3, 'duel', 'duel', '[\"\",\"\"]', '{}', 'c', 3);
             INSERT INTO replay_players (replay_id, player_id) VALUES (2, 'p1');",
        )
        .unwrap();
    }
    let s = Store::open(path.to_str().unwrap()).await.unwrap();
    assert_eq!(s.prune_unowned_replays("duel", 1).await.unwrap(), 1);
    let left: Vec<_> = s.replays_from("duel", 10).await.unwrap().into_iter().map(|r| r.id).collect();
    assert_eq!(left, vec![3, 2]);
    drop(s);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Throwaway PostgreSQL databases on the server of `SNAKEPIT_TEST_PG`.
mod pg {
    use snakepit_store::Store;
    use tokio_postgres::NoTls;

    pub struct TestDb {
        admin_url: String,
        name: String,
        url: String,
    }

    impl TestDb {
        /// A new empty database, or `None` (with a message) when no server
        /// is configured and none is required.
        pub async fn create() -> Option<TestDb> {
            let Ok(admin_url) = std::env::var("SNAKEPIT_TEST_PG") else {
                assert!(
                    std::env::var("SNAKEPIT_REQUIRE_PG").as_deref() != Ok("1"),
                    "SNAKEPIT_REQUIRE_PG=1 but SNAKEPIT_TEST_PG is not set"
                );
                eprintln!("SNAKEPIT_TEST_PG is not set: PostgreSQL half skipped (scripts/test.sh runs it)");
                return None;
            };
            let name = format!("snakepit_test_{}", snakepit_store::random_id());
            let (base, _) = admin_url.rsplit_once('/').expect("SNAKEPIT_TEST_PG is a URL with a database name");
            let url = format!("{base}/{name}");
            admin(&admin_url, &format!("CREATE DATABASE {name}")).await;
            Some(TestDb { admin_url, name, url })
        }

        pub async fn open(&self) -> Store {
            Store::open(&self.url).await.unwrap()
        }

        pub async fn drop(self) {
            admin(&self.admin_url, &format!("DROP DATABASE {} WITH (FORCE)", self.name)).await;
        }
    }

    async fn admin(url: &str, sql: &str) {
        let (client, conn) = tokio_postgres::connect(url, NoTls).await.expect("the test PostgreSQL server answers");
        let task = tokio::spawn(conn);
        client.batch_execute(sql).await.unwrap();
        drop(client);
        let _ = task.await;
    }
}
