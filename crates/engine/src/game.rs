//! What every game offers to the code that drives it.
//!
//! The match runner, the replay verifier and the tournament runner are
//! generic over [`Game`], so a new game plugs into all of them at once.

use std::fmt;

/// A deterministic, turn-based game with one action per seat per tick.
pub trait Game: Clone {
    /// What one seat does in one tick. `Default` is "no command".
    type Action: Clone + Default + PartialEq + fmt::Debug;
    /// What happened during a tick, for logs, scoring and the UI.
    type Event: Clone + fmt::Debug;

    /// The game's name as it appears in replays and on the command line.
    fn name(&self) -> &'static str;
    /// Number of seats (players) the game was created with.
    fn seats(&self) -> usize;
    /// Advances the game by one tick. `actions` is indexed by seat; missing
    /// entries count as the default action.
    fn step(&mut self, actions: &[Self::Action]) -> Vec<Self::Event>;
    /// Ticks played so far.
    fn tick(&self) -> u64;
    /// A checksum of the whole state, including the random stream position.
    fn checksum(&self) -> u64;
    /// The checksum as the rules of version `engine` (a replay's
    /// [`crate::ENGINE_VERSION`]) computed it, for verifying replays of
    /// older versions whose checksum function was another; the state's
    /// meaning is the same, only its summary changed. Versions this build
    /// does not know get [`Game::checksum`].
    fn checksum_as_of(&self, engine: &str) -> u64 {
        let _ = engine;
        self.checksum()
    }
    /// The score of each seat, by seat index.
    fn scores(&self) -> Vec<i64>;

    /// The same game with its seats relabelled: seat `i` of the result is
    /// seat `from[i]` of this one, and every seat number inside the state
    /// (an owner, a killer, a winner) follows. Everything else, the random
    /// stream included, stays as it is. `from` must be a permutation of
    /// `0..seats`.
    ///
    /// **Invariant:** the rules treat every seat alike, so stepping the
    /// relabelled game with the relabelled actions gives the relabelled
    /// result of stepping this one (the `seat_order_does_not_matter`
    /// property of every game's `tests/*_sim.rs` checks it). Random cells
    /// drawn for seats (a respawn, a new piece) are drawn in an order given
    /// by the seats' scores, not their numbers; only seats alike in
    /// everything but their numbers and their drawn cells may get each
    /// other's cells when relabelled.
    fn relabel_seats(&self, from: &[usize]) -> Self;

    /// An event as the game relabelled by [`Game::relabel_seats`]`(from)`
    /// reports it: every seat number inside follows, and a list of seats
    /// that stands for a set (the winners, the seats whose pieces formed a
    /// wall) is in ascending order, which is how the rules write every
    /// such list.
    ///
    /// **Invariant:** the relabelled game's tick reports the relabelled
    /// events of the original's, as a multiset: the order of a tick's events
    /// follows its stages and, within a stage, may follow the seats, and
    /// carries no meaning.
    fn relabel_event(event: &Self::Event, from: &[usize]) -> Self::Event;

    /// The compact text form of an action, as replays store it.
    fn action_to_text(action: &Self::Action) -> String;
    /// [`Game::action_to_text`] appended to `out`, for writers of many
    /// actions that keep one buffer.
    fn push_action_text(action: &Self::Action, out: &mut String) {
        out.push_str(&Self::action_to_text(action));
    }
    /// Inverse of [`Game::action_to_text`].
    fn action_from_text(text: &str) -> Result<Self::Action, ParseActionError>;
}

/// The inverse of a relabelling for [`Game::relabel_seats`]: entry `j` is
/// the new seat of old seat `j`.
pub fn relabel_inverse(from: &[usize]) -> Vec<usize> {
    let mut to = vec![0; from.len()];
    for (i, &j) in from.iter().enumerate() {
        to[j] = i;
    }
    to
}

/// A replay action that does not follow the game's compact action syntax.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseActionError {
    /// The offending text.
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl fmt::Display for ParseActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad action {:?}: {}", self.text, self.reason)
    }
}

impl std::error::Error for ParseActionError {}

/// One named step of a game's tick. A game's rules are the ordered list of
/// its stages (`STAGES` in each game module), so a variant of a game swaps or
/// adds stages instead of forking the engine.
pub struct Stage<G, A, E> {
    /// Name, as listed in the rules' documentation.
    pub name: &'static str,
    /// The step.
    pub run: fn(&mut G, &[A], &mut Vec<E>),
}

/// A game that cannot be created as asked (too many players for the map,
/// say). Bot behaviour never produces one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGameError(pub String);

impl fmt::Display for NewGameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NewGameError {}
