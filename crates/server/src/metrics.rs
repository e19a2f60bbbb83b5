//! Server-side latency and resource figures for load tests.
//!
//! The figure that matters for a tick-based arena is how long after a tick
//! starts the last bot of the room has been handed its board. Each tick that
//! sends boards carries one [`TickProbe`]; every session that writes a board
//! notes the time, and when the last holder lets go of the probe, the
//! slowest time is recorded in a histogram. Nothing here is on the game's
//! critical path beyond an atomic add.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Histogram resolution.
const BUCKET_US: u64 = 100;
/// Buckets: 0.1 ms each, up to 2 s; slower ticks land in the last bucket.
const BUCKETS: usize = 20_000;

/// A fixed-bucket latency histogram, safe to update from any task.
pub struct Histogram {
    buckets: Box<[AtomicU64]>,
    count: AtomicU64,
    max_us: AtomicU64,
}

impl std::fmt::Debug for Histogram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Histogram({} samples)", self.count())
    }
}

impl std::fmt::Debug for TickProbe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TickProbe({:?})", self.start)
    }
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram { buckets: (0..BUCKETS).map(|_| AtomicU64::new(0)).collect(), count: AtomicU64::new(0), max_us: AtomicU64::new(0) }
    }
}

impl Histogram {
    /// Records one duration in microseconds.
    pub fn record_us(&self, us: u64) {
        let i = ((us / BUCKET_US) as usize).min(BUCKETS - 1);
        self.buckets[i].fetch_add(1, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Relaxed);
        self.max_us.fetch_max(us, Ordering::Relaxed);
    }

    /// Number of samples.
    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// The `q` quantile (0..=1) in milliseconds, to the bucket's upper edge.
    pub fn quantile_ms(&self, q: f64) -> f64 {
        let n = self.count();
        if n == 0 {
            return 0.0;
        }
        let rank = ((n as f64 * q).ceil() as u64).clamp(1, n);
        let mut seen = 0;
        for (i, b) in self.buckets.iter().enumerate() {
            seen += b.load(Ordering::Relaxed);
            if seen >= rank {
                return ((i as u64 + 1) * BUCKET_US) as f64 / 1000.0;
            }
        }
        self.max_ms()
    }

    /// The largest sample in milliseconds.
    pub fn max_ms(&self) -> f64 {
        self.max_us.load(Ordering::Relaxed) as f64 / 1000.0
    }

    /// Forgets every sample.
    pub fn reset(&self) {
        for b in self.buckets.iter() {
            b.store(0, Ordering::Relaxed);
        }
        self.count.store(0, Ordering::Relaxed);
        self.max_us.store(0, Ordering::Relaxed);
    }
}

/// Follows one room tick until its last board is written.
pub struct TickProbe {
    start: Instant,
    slowest_us: AtomicU64,
    hist: Arc<Histogram>,
}

impl TickProbe {
    /// Starts timing a tick.
    pub fn new(start: Instant, hist: Arc<Histogram>) -> Arc<TickProbe> {
        Arc::new(TickProbe { start, slowest_us: AtomicU64::new(0), hist })
    }

    /// A board of this tick has been written to its socket.
    pub fn sent(&self) {
        let us = self.start.elapsed().as_micros() as u64;
        self.slowest_us.fetch_max(us.max(1), Ordering::Relaxed);
    }
}

impl Drop for TickProbe {
    fn drop(&mut self) {
        let us = *self.slowest_us.get_mut();
        if us > 0 {
            self.hist.record_us(us);
        }
    }
}

/// Resident set size of this process, from `/proc/self/status`.
pub fn rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles() {
        let h = Histogram::default();
        for us in 1..=1000 {
            h.record_us(us * 10);
        }
        assert_eq!(h.count(), 1000);
        assert!((h.quantile_ms(0.5) - 5.0).abs() <= 0.1, "{}", h.quantile_ms(0.5));
        assert!((h.quantile_ms(0.99) - 9.9).abs() <= 0.1, "{}", h.quantile_ms(0.99));
        assert_eq!(h.max_ms(), 10.0);
    }

    #[test]
    fn probe_records_the_slowest_send_once() {
        let h = Arc::new(Histogram::default());
        let p = TickProbe::new(Instant::now(), h.clone());
        let q = p.clone();
        p.sent();
        drop(p);
        assert_eq!(h.count(), 0, "not recorded while a holder remains");
        q.sent();
        drop(q);
        assert_eq!(h.count(), 1);
    }
}
