//! Which node runs which room, when several nodes share one store.
//!
//! Every node runs [`Cluster::step`] a few times per lease period. A step
//! announces the node (so that others can send players to it), renews the
//! leases of the rooms it runs, and takes free or lapsed rooms while it
//! holds fewer than its fair share (the rooms divided by the live nodes,
//! rounded up), so that rooms spread over the nodes instead of all going to
//! the first one up; a node above its share (a new node came up) hands one
//! room over per step. A room whose lease a node fails to renew is stopped on
//! that node at once; a node that dies stops renewing, and its rooms move
//! to the others once their leases lapse. The node that runs a room is
//! told by [`Cluster::owner_url`].
//!
//! A node that creates a room takes its lease at once ([`Cluster::take`])
//! and starts it without waiting for a step.
//!
//! The rooms themselves are the caller's: [`RoomHost`] starts and stops
//! them. On one node with SQLite every room is simply this node's.

use crate::{RoomRow, Store, StoreError};
use std::collections::BTreeSet;

/// What the cluster needs from the server that hosts rooms.
pub trait RoomHost {
    /// The rooms running on this node now.
    fn running(&self) -> BTreeSet<String>;
    /// Starts a room this node now holds, from its stored row.
    fn start(&self, room: &RoomRow);
    /// Stops a room this node no longer holds.
    fn stop(&self, room: &str);
}

/// One node's view of the cluster.
#[derive(Clone)]
pub struct Cluster {
    store: Store,
    node: String,
    url: String,
    lease_ms: u64,
}

/// What one step changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepReport {
    /// Rooms this node started.
    pub started: Vec<String>,
    /// Rooms this node stopped (lease lost).
    pub stopped: Vec<String>,
    /// Rooms this node holds after the step.
    pub held: usize,
}

/// The lease name of a room.
fn resource(room: &str) -> String {
    format!("room:{room}")
}

impl Cluster {
    /// A node named `node`, reachable by the others at `url`, holding
    /// rooms for `lease_ms` milliseconds per renewal.
    pub fn new(store: Store, node: impl Into<String>, url: impl Into<String>, lease_ms: u64) -> Cluster {
        Cluster { store, node: node.into(), url: url.into(), lease_ms }
    }

    /// This node's name.
    pub fn node(&self) -> &str {
        &self.node
    }

    /// Where the other nodes reach this one.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The lease period, in milliseconds.
    pub fn lease_ms(&self) -> u64 {
        self.lease_ms
    }

    /// Takes the lease of a room this node has just created, so that it
    /// can start it at once instead of at its next step. False when another
    /// node holds it.
    pub async fn take(&self, room: &str) -> Result<bool, StoreError> {
        self.store.acquire_lease(&resource(room), &self.node, self.lease_ms).await
    }

    /// How often [`step`](Self::step) should run: three times per lease,
    /// so that one late step never loses a room.
    pub fn period_ms(&self) -> u64 {
        (self.lease_ms / 3).max(1)
    }

    /// Announces the node, renews and takes leases, and starts and stops
    /// rooms on `host` to match.
    pub async fn step(&self, host: &impl RoomHost) -> Result<StepReport, StoreError> {
        self.store.announce_node(&self.node, &self.url, self.lease_ms).await?;
        let rows = self.store.rooms().await?;
        let rooms: Vec<String> = rows.iter().map(|r| r.name.clone()).collect();
        let nodes = self.store.live_nodes().await?.len().max(1);
        let share = rooms.len().div_ceil(nodes);
        let running = host.running();
        let mut report = StepReport::default();

        // Renew first: holding on to one's own rooms never waits on the
        // fair share.
        let mut held = BTreeSet::new();
        for room in running.iter().filter(|r| rooms.contains(r)) {
            if self.store.acquire_lease(&resource(room), &self.node, self.lease_ms).await? {
                held.insert(room.clone());
            } else {
                host.stop(room);
                report.stopped.push(room.clone());
            }
        }
        for room in running.iter().filter(|r| !rooms.contains(r)) {
            // Deleted from the store meanwhile.
            self.store.release_lease(&resource(room), &self.node).await?;
            host.stop(room);
            report.stopped.push(room.clone());
        }
        // Above the fair share (another node came up), hand one room over
        // per step: the room stops here and the newcomer starts it.
        if held.len() > share
            && let Some(room) = held.iter().next_back().cloned()
        {
            held.remove(&room);
            host.stop(&room);
            self.store.release_lease(&resource(&room), &self.node).await?;
            report.stopped.push(room);
        }
        for row in &rows {
            if held.len() >= share {
                break;
            }
            if held.contains(&row.name) {
                continue;
            }
            if self.store.acquire_lease(&resource(&row.name), &self.node, self.lease_ms).await? {
                host.start(row);
                held.insert(row.name.clone());
                report.started.push(row.name.clone());
            }
        }
        report.held = held.len();
        Ok(report)
    }

    /// Gives up every room (a clean shutdown: the others take them at once
    /// instead of after the lease).
    pub async fn leave(&self, host: &impl RoomHost) -> Result<(), StoreError> {
        for room in host.running() {
            host.stop(&room);
            self.store.release_lease(&resource(&room), &self.node).await?;
        }
        Ok(())
    }

    /// The address of the node running `room` now, if any node does.
    pub async fn owner_url(&self, room: &str) -> Result<Option<String>, StoreError> {
        let Some(owner) = self.store.lease_holder(&resource(room)).await? else { return Ok(None) };
        Ok(self.store.live_nodes().await?.into_iter().find(|n| n.id == owner).map(|n| n.url))
    }
}
