//! Small, stable checksums of game states.
//!
//! Replays store the checksum of the state after every tick so that a
//! re-simulation can name the first tick that differs. Both functions here
//! are fixed by their definitions (`std`'s default hasher makes no such
//! promise across Rust versions):
//!
//! - [`Checksum`], FNV-1a over bytes, the checksum of every game up to
//!   rules version 4 and of every game but Battlesnake since;
//! - [`WordSum`], over 64-bit words, Battlesnake's from rules version 5 on.
//!   FNV-1a takes a multiplication per byte, one after the other; a
//!   Battlesnake state is a few hundred bytes and a tournament checksums it
//!   after every turn of every game, so packing it into a few dozen words
//!   made the checksum a tenth of its cost.

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

/// A checksum of 64-bit words in two lanes taken in turn: each word is
/// xored into a lane, which is then multiplied by an odd constant and has
/// its high half folded into its low half; [`WordSum::finish`] joins the
/// lanes and ends with MurmurHash3's 64-bit finalizer, so every bit of
/// every word reaches every bit of the result. Two lanes let a processor
/// mix a word while the previous one is still being mixed.
///
/// Each step is a bijection of its lane for a given word and leaves the
/// other lane as it is, so two inputs of the same length that differ in
/// exactly one word never give the same value.
#[derive(Clone, Debug)]
pub struct WordSum {
    /// The lane the next word goes into, and the other one.
    next: u64,
    other: u64,
}

impl Default for WordSum {
    fn default() -> Self {
        WordSum { next: 0x736e_616b_6570_6974, other: 0x6368_6563_6b73_756d }
    }
}

impl WordSum {
    /// Mixes in one word.
    #[inline]
    pub fn word(&mut self, w: u64) {
        let h = (self.next ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.next = self.other;
        self.other = h ^ (h >> 32);
    }

    /// The value so far.
    pub fn finish(&self) -> u64 {
        let mut h = self.next ^ self.other.rotate_left(32);
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_1a_is_the_published_function() {
        // FNV-1a 64 of "a" and "foobar", from the function's published
        // test vectors.
        let of = |s: &str| {
            let mut h = Checksum::default();
            h.bytes(s.as_bytes());
            h.finish()
        };
        assert_eq!(of(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(of("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(of("foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn word_sums_are_pinned_and_tell_single_words_apart() {
        // A change of the function would silently make every replay of the
        // games using it fail to verify; this pins it.
        let of = |words: &[u64]| {
            let mut h = WordSum::default();
            for &w in words {
                h.word(w);
            }
            h.finish()
        };
        assert_eq!(of(&[]), 0xfe8e_2925_d16c_b6fe, "{:#x}", of(&[]));
        assert_eq!(of(&[1, 2, 3]), 0x3e5e_06d7_ccfc_758e, "{:#x}", of(&[1, 2, 3]));
        let base = [7u64, 0, u64::MAX, 1 << 63, 42];
        let sum = of(&base);
        for k in 0..base.len() {
            for bit in [0, 1, 31, 32, 62, 63] {
                let mut other = base;
                other[k] ^= 1 << bit;
                assert_ne!(of(&other), sum, "word {k} bit {bit}");
            }
        }
        // The same top bit changed in two words of a lane: a plain
        // multiply-and-xor would carry the first change up and out and
        // cancel it with the second; the fold keeps it.
        for gap in [1, 2] {
            let mut other = base;
            other[0] ^= 1 << 63;
            other[gap] ^= 1 << 63;
            assert_ne!(of(&other), sum, "words 0 and {gap}");
        }
        assert_ne!(of(&[0]), of(&[0, 0]), "the number of words counts");
    }
}
