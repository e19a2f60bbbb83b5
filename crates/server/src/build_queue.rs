//! Fair turns at the compilers: saved programs are compiled (C, Java) or
//! checked (Python, JavaScript) one at a time per player, and the players
//! waiting take turns round-robin.
//!
//! An open server has few compilers and strangers saving slow programs: a
//! plain semaphore lets two of them hold every place while everyone else's
//! save fails. Here each player has at most one build running and at most
//! one waiting; a newer save replaces the waiting one (the older request is
//! told so), and the next turn goes to the waiting player whose last turn
//! is the oldest (a player never served first), so a player who saves
//! often waits behind everyone who saved since. Compiling and checking are
//! two lanes with places of their own, as a check takes a moment where a
//! compiler may take a minute; a player still has one of either at a time.
//!
//! **Invariant:** a waiting save is either given a [`Turn`] or told why not
//! ([`Refusal`]); a [`Turn`] gives its place back when it drops, on every
//! path, and the next waiting player gets it at once.
//!
//! **Invariant:** a removed player gets no turn, and a turn they hold is
//! told ([`Turn::removed`]), so that the build it runs is stopped at once
//! rather than at its bounds.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::{oneshot, watch};

/// The two lanes of a [`BuildQueue`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// Compiling a C or Java program.
    Build,
    /// Checking that a Python or JavaScript program parses.
    Check,
}

impl Lane {
    fn index(self) -> usize {
        match self {
            Lane::Build => 0,
            Lane::Check => 1,
        }
    }

    /// What the lane does, for messages.
    pub fn doing(self) -> &'static str {
        match self {
            Lane::Build => "compile",
            Lane::Check => "be checked",
        }
    }
}

/// Why a save got no turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The queue holds as many saves as it may.
    Full {
        /// Saves waiting.
        waiting: usize,
        /// When a place is likely free, from recent builds.
        retry_after_s: u64,
    },
    /// The same player saved again while this save waited: the newer one
    /// took its place.
    Replaced,
    /// The organiser removed the player while the save waited.
    Removed,
    /// The player's program is being built already (a start that finds a
    /// build under way does not queue another).
    Busy {
        /// When that build is likely done.
        retry_after_s: u64,
    },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Full { waiting, retry_after_s } => write!(
                f,
                "{waiting} programs are waiting for their turn, as many as this server queues; save again in about {retry_after_s} s"
            ),
            Refusal::Replaced => f.write_str("you saved a newer program while this one waited for its turn; the newer one took its place"),
            Refusal::Removed => f.write_str("the organiser removed you while it waited for its turn or was built"),
            Refusal::Busy { retry_after_s } => {
                write!(f, "your previous program is still being compiled or waits for its turn; try again when it is done (in about {retry_after_s} s)")
            }
        }
    }
}

/// Where a player's save stands, for their page.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Standing {
    /// `"running"` or `"waiting"`.
    pub state: &'static str,
    /// `"compile"` or `"be checked"`.
    pub lane: &'static str,
    /// Among the saves waiting in its lane, its place in the order they
    /// will run (1 is next); 0 while it runs.
    pub position: usize,
    /// Saves waiting in its lane.
    pub waiting: usize,
    /// Seconds until it is likely done waiting, from recent builds; 0
    /// while it runs.
    pub expected_s: u64,
}

/// Builds timed per lane for the estimates, the latest ones.
const TIMES_KEPT: usize = 16;
/// Players whose last turn is remembered; older ones count as never served,
/// which only puts them first.
const LAST_TURNS_KEPT: u64 = 4096;
/// What a build is assumed to take before any was timed.
const ASSUMED_MS: [u64; 2] = [10_000, 1_000];

/// The queue; one per server.
pub struct BuildQueue {
    inner: Mutex<Inner>,
    /// Places per lane.
    places: [usize; 2],
    /// Saves that may wait, both lanes together.
    waiting_max: usize,
}

#[derive(Default)]
struct Inner {
    /// Players with a turn.
    running: BTreeMap<String, Running>,
    /// At most one waiting save per player.
    waiting: BTreeMap<String, Waiter>,
    /// Each player's last turn, as a count of turns given.
    last_turn: BTreeMap<String, u64>,
    turns: u64,
    arrivals: u64,
    /// Recent build times per lane, in milliseconds.
    took_ms: [VecDeque<u64>; 2],
}

/// A turn being taken.
struct Running {
    lane: Lane,
    /// Tells the turn that its player was removed ([`Turn::removed`]).
    removal: watch::Sender<bool>,
}

/// What joined the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    /// A save, which a newer save replaces and the bound counts.
    Save,
    /// A start of a saved program.
    Start,
}

struct Waiter {
    entry: Entry,
    lane: Lane,
    /// Order of arrival; a replacing save keeps the replaced one's.
    arrival: u64,
    /// Tells this waiter from a later one of the same player.
    ticket: u64,
    tx: oneshot::Sender<Result<Turn, Refusal>>,
}

impl Inner {
    fn in_lane(&self, lane: Lane) -> usize {
        self.running.values().filter(|r| r.lane == lane).count()
    }

    /// The waiting saves of `lane` in the order they get turns: oldest last
    /// turn first, then arrival. A player whose build runs is passed over
    /// until it ends.
    fn order(&self, lane: Lane) -> Vec<&str> {
        let mut order: Vec<(u64, u64, &str)> = self
            .waiting
            .iter()
            .filter(|(_, w)| w.lane == lane)
            .map(|(p, w)| (self.last_turn.get(p).copied().unwrap_or(0), w.arrival, p.as_str()))
            .collect();
        order.sort_unstable();
        order.into_iter().map(|(_, _, p)| p).collect()
    }

    fn mean_ms(&self, lane: Lane) -> u64 {
        let took = &self.took_ms[lane.index()];
        if took.is_empty() {
            return ASSUMED_MS[lane.index()];
        }
        took.iter().sum::<u64>() / took.len() as u64
    }
}

impl BuildQueue {
    /// A queue with `builds` places to compile, `checks` to check, and room
    /// for `waiting_max` waiting saves.
    pub fn new(builds: usize, checks: usize, waiting_max: usize) -> Arc<BuildQueue> {
        Arc::new(BuildQueue { inner: Mutex::default(), places: [builds.max(1), checks.max(1)], waiting_max })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for the player's turn in `lane`. A save of the same player
    /// that was waiting is refused ([`Refusal::Replaced`]) and this one
    /// takes its place in the order. Dropping the future leaves the queue.
    pub async fn turn(self: &Arc<Self>, player: &str, lane: Lane) -> Result<Turn, Refusal> {
        self.enter(player, lane, Entry::Save)?.turn().await
    }

    /// Joins the queue at once for a start of a saved program, which then
    /// waits for its turn with [`Waiting::turn`]. Refused
    /// ([`Refusal::Busy`]) when the player has a build running or waiting:
    /// a start never replaces a save. Starts are not counted against the
    /// queue's bound (a server starting every saved program queues them
    /// all); there is at most one per player.
    pub fn enter_start(self: &Arc<Self>, player: &str, lane: Lane) -> Result<Waiting, Refusal> {
        self.enter(player, lane, Entry::Start)
    }

    fn enter(self: &Arc<Self>, player: &str, lane: Lane, entry: Entry) -> Result<Waiting, Refusal> {
        let mut inner = self.lock();
        if entry == Entry::Start && (inner.running.contains_key(player) || inner.waiting.contains_key(player)) {
            let lane = inner.running.get(player).map_or(lane, |r| r.lane);
            return Err(Refusal::Busy { retry_after_s: inner.mean_ms(lane).div_ceil(1000).max(1) });
        }
        let replaced = inner.waiting.remove(player);
        inner.arrivals += 1;
        let ticket = inner.arrivals;
        let arrival = replaced.as_ref().map_or(ticket, |w| w.arrival);
        if let Some(old) = replaced {
            let _ = old.tx.send(Err(Refusal::Replaced));
        }
        let (tx, rx) = oneshot::channel();
        inner.waiting.insert(player.to_string(), Waiter { lane, arrival, ticket, tx, entry });
        self.dispatch(&mut inner);
        // Refused only when it must wait and the queue is over its
        // bound: a save that finds a free place never is.
        let saves_waiting = inner.waiting.values().filter(|w| w.entry == Entry::Save).count();
        if entry == Entry::Save && inner.waiting.contains_key(player) && saves_waiting > self.waiting_max {
            inner.waiting.remove(player);
            drop(inner);
            return Err(Refusal::Full { waiting: saves_waiting - 1, retry_after_s: self.retry_after_s(lane) });
        }
        Ok(Waiting { queue: self.clone(), player: player.to_string(), ticket, rx })
    }

    /// Gives free places to the waiting saves, in turn order.
    fn dispatch(self: &Arc<Self>, inner: &mut Inner) {
        for lane in [Lane::Build, Lane::Check] {
            while inner.in_lane(lane) < self.places[lane.index()] {
                let next = inner.order(lane).into_iter().find(|p| !inner.running.contains_key(*p)).map(str::to_string);
                let Some(player) = next else { break };
                let Some(waiter) = inner.waiting.remove(&player) else { break };
                inner.turns += 1;
                let turns = inner.turns;
                inner.last_turn.insert(player.clone(), turns);
                if inner.last_turn.len() as u64 > 2 * LAST_TURNS_KEPT {
                    inner.last_turn.retain(|_, t| *t + LAST_TURNS_KEPT > turns);
                }
                let (removal, removed) = watch::channel(false);
                inner.running.insert(player.clone(), Running { lane, removal });
                let turn = Turn { queue: Some(self.clone()), player: player.clone(), lane, started: Instant::now(), removed };
                if let Err(Ok(mut turn)) = waiter.tx.send(Ok(turn)) {
                    // The request went meanwhile: the place is given
                    // again, here, under the lock the turn's drop would take.
                    turn.queue = None;
                    inner.running.remove(&player);
                }
            }
        }
    }

    /// Refuses the player's waiting save or start ([`Refusal::Removed`]):
    /// a removed player's program never gets a compiler. A turn the
    /// player holds is told ([`Turn::removed`]): its build is stopped, and
    /// nothing of it is saved.
    pub fn forget(self: &Arc<Self>, player: &str) {
        let mut inner = self.lock();
        if let Some(w) = inner.waiting.remove(player) {
            let _ = w.tx.send(Err(Refusal::Removed));
        }
        if let Some(running) = inner.running.get(player) {
            running.removal.send_replace(true);
        }
        inner.last_turn.remove(player);
        self.dispatch(&mut inner);
    }

    /// Where the player's save stands, if it runs or waits: a save that
    /// waits (behind the player's own running build, maybe) is the one
    /// the player asks about.
    pub fn standing(&self, player: &str) -> Option<Standing> {
        let inner = self.lock();
        let Some(lane) = inner.waiting.get(player).map(|w| w.lane) else {
            let lane = inner.running.get(player)?.lane;
            let waiting = inner.order(lane).len();
            return Some(Standing { state: "running", lane: lane.doing(), position: 0, waiting, expected_s: 0 });
        };
        let order = inner.order(lane);
        let position = order.iter().position(|p| *p == player).map_or(order.len(), |k| k + 1);
        Some(Standing {
            state: "waiting",
            lane: lane.doing(),
            position,
            waiting: order.len(),
            expected_s: self.expected_ms(&inner, lane, position).div_ceil(1000),
        })
    }

    /// When a place of `lane` is likely free, in seconds, from recent
    /// builds: a retry's `Retry-After`.
    pub fn retry_after_s(&self, lane: Lane) -> u64 {
        let inner = self.lock();
        (inner.mean_ms(lane) / self.places[lane.index()] as u64).div_ceil(1000).max(1)
    }

    /// How long the save at `position` of `lane` likely waits: a round of
    /// the lane's places per build ahead of it and its own.
    fn expected_ms(&self, inner: &Inner, lane: Lane, position: usize) -> u64 {
        let rounds = position.div_ceil(self.places[lane.index()]) as u64;
        rounds * inner.mean_ms(lane)
    }

    fn done(&self, player: &str, lane: Lane, took: Duration) {
        let mut inner = self.lock();
        inner.running.remove(player);
        let took_ms = &mut inner.took_ms[lane.index()];
        took_ms.push_back(took.as_millis() as u64);
        if took_ms.len() > TIMES_KEPT {
            took_ms.pop_front();
        }
        drop(inner);
    }
}

/// A player's turn at a compiler or checker; the place is given back when
/// it drops.
pub struct Turn {
    /// `None` once given back.
    queue: Option<Arc<BuildQueue>>,
    player: String,
    lane: Lane,
    started: Instant,
    /// Becomes true when the player is removed.
    removed: watch::Receiver<bool>,
}

impl Turn {
    /// Resolves when the organiser removes the player while this turn
    /// runs (never, otherwise): what runs in it is then dropped, which
    /// kills a build at once instead of at its bounds.
    pub fn removed(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let mut removed = self.removed.clone();
        async move {
            // An error: the turn ended, and with it any chance of removal.
            if removed.wait_for(|r| *r).await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        if let Some(queue) = self.queue.take() {
            queue.done(&self.player, self.lane, self.started.elapsed());
            queue.dispatch(&mut queue.lock());
        }
    }
}

/// A place in the queue; dropped before its turn, it leaves the queue
/// (the request that waited went).
pub struct Waiting {
    queue: Arc<BuildQueue>,
    player: String,
    ticket: u64,
    rx: oneshot::Receiver<Result<Turn, Refusal>>,
}

impl Waiting {
    /// Waits for the turn, or the reason there is none.
    pub async fn turn(mut self) -> Result<Turn, Refusal> {
        (&mut self.rx).await.unwrap_or(Err(Refusal::Replaced))
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        let mut inner = self.queue.lock();
        if inner.waiting.get(&self.player).is_some_and(|w| w.ticket == self.ticket) {
            inner.waiting.remove(&self.player);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the task is done already (a turn given, a removal told).
    fn now<T>(rx: &mut tokio::task::JoinHandle<T>) -> bool {
        rx.is_finished()
    }

    async fn settle() {
        for _ in 0..20 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn players_take_turns_and_a_newer_save_replaces_the_waiting_one() {
        let q = BuildQueue::new(1, 1, 8);
        let a1 = q.turn("a", Lane::Build).await.unwrap();
        let spawn = |p: &'static str| {
            let q = q.clone();
            tokio::spawn(async move { q.turn(p, Lane::Build).await })
        };
        let mut a2 = spawn("a");
        settle().await;
        let mut a3 = spawn("a");
        settle().await;
        assert!(now(&mut a2));
        assert_eq!(a2.await.unwrap().err(), Some(Refusal::Replaced));
        let mut b1 = spawn("b");
        settle().await;
        // `a` had the last turn: `b` goes first although `a3` came earlier.
        assert_eq!(q.standing("b").unwrap().position, 1);
        assert_eq!(q.standing("a").unwrap().position, 2);
        drop(a1);
        settle().await;
        assert!(now(&mut b1) && !now(&mut a3));
        let b1 = b1.await.unwrap().unwrap();
        assert_eq!((q.standing("a").unwrap().state, q.standing("a").unwrap().position), ("waiting", 1));
        drop(b1);
        settle().await;
        assert!(now(&mut a3));
        let a3 = a3.await.unwrap().unwrap();
        // A start finds the build under way and does not queue.
        assert!(matches!(q.enter_start("a", Lane::Build), Err(Refusal::Busy { .. })));
        drop(a3);
        assert!(q.standing("a").is_none());
    }

    #[tokio::test]
    async fn a_running_turn_is_told_when_its_player_is_removed() {
        let q = BuildQueue::new(1, 1, 8);
        let a = q.turn("a", Lane::Build).await.unwrap();
        let b = q.turn("b", Lane::Check).await.unwrap();
        let (mut a_removed, mut b_removed) = (tokio::spawn(a.removed()), tokio::spawn(b.removed()));
        settle().await;
        assert!(!now(&mut a_removed) && !now(&mut b_removed));
        q.forget("a");
        a_removed.await.unwrap();
        // Only the removed player's turn is told; a turn that ends is
        // never told, even if its player is removed afterwards.
        drop(b);
        q.forget("b");
        settle().await;
        assert!(!now(&mut b_removed));
        drop(a);
        assert!(q.standing("a").is_none());
    }

    #[tokio::test]
    async fn starts_of_saved_programs_all_wait_and_a_save_replaces_a_start() {
        // Saves are bounded (none may wait here), starts are not.
        let q0 = BuildQueue::new(1, 1, 0);
        let _x = q0.turn("x", Lane::Build).await.unwrap();
        let _starts: Vec<Waiting> = ["a", "b", "c"].iter().map(|p| q0.enter_start(p, Lane::Build).unwrap()).collect();
        assert_eq!(q0.standing("c").unwrap().waiting, 3);
        assert!(matches!(q0.turn("d", Lane::Build).await, Err(Refusal::Full { waiting: 0, .. })));

        let q = BuildQueue::new(1, 1, 8);
        let x = q.turn("x", Lane::Build).await.unwrap();
        let starts: Vec<Waiting> = ["a", "b"].iter().map(|p| q.enter_start(p, Lane::Build).unwrap()).collect();
        let mut starts = starts.into_iter();
        let a = starts.next().unwrap();
        let q2 = q.clone();
        let save = tokio::spawn(async move { q2.turn("a", Lane::Build).await });
        assert_eq!(a.turn().await.err(), Some(Refusal::Replaced));
        drop(x);
        // `a`'s save kept the start's place in the order.
        let a_save = save.await.unwrap().unwrap();
        drop(a_save);
        let b = starts.next().unwrap().turn().await.unwrap();
        drop(b);
    }

    #[tokio::test]
    async fn with_no_room_to_wait_a_free_place_is_still_given() {
        let q = BuildQueue::new(1, 1, 0);
        let a = q.turn("a", Lane::Build).await.unwrap();
        assert!(matches!(q.turn("b", Lane::Build).await, Err(Refusal::Full { waiting: 0, .. })));
        drop(a);
        assert!(q.turn("b", Lane::Build).await.is_ok());
    }

    #[tokio::test]
    async fn one_turn_at_a_time_per_player_across_lanes_and_a_full_queue_says_when_to_retry() {
        let q = BuildQueue::new(2, 2, 1);
        let a = q.turn("a", Lane::Build).await.unwrap();
        let q2 = q.clone();
        let mut check = tokio::spawn(async move { q2.turn("a", Lane::Check).await });
        settle().await;
        assert!(!now(&mut check), "a's check waits for a's build although a check place is free");
        let _b = q.turn("b", Lane::Build).await.unwrap();
        match q.turn("c", Lane::Build).await {
            Err(Refusal::Full { waiting: 1, retry_after_s }) => assert!(retry_after_s >= 1),
            other => panic!("{:?}", other.map(|_| ())),
        }
        drop(a);
        let _check = check.await.unwrap().unwrap();
        // A request that went leaves no waiter behind.
        let q3 = q.clone();
        let gone = tokio::spawn(async move { q3.turn("a", Lane::Check).await });
        settle().await;
        gone.abort();
        let _ = gone.await;
        assert!(q.turn("c", Lane::Build).await.is_ok());
    }
}
