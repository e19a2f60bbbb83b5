//! A small, stable checksum of game states.
//!
//! Replays store the checksum of the state after every tick so that a
//! re-simulation can name the first tick that differs. FNV-1a is used because
//! its output is fixed by its definition; `std`'s default hasher makes no such
//! promise across Rust versions.

/// A 64-bit FNV-1a accumulator.
#[derive(Clone, Debug)]
pub struct Checksum(u64);

impl Default for Checksum {
    fn default() -> Self {
        Checksum(0xcbf2_9ce4_8422_2325)
    }
}

impl Checksum {
    /// Mixes in raw bytes.
    pub fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// Mixes in an integer, little-endian.
    pub fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }

    /// Mixes in a signed integer.
    pub fn i64(&mut self, v: i64) {
        self.bytes(&v.to_le_bytes());
    }

    /// The value so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}
