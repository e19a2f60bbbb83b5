//! A fixed-size set of board cells, one bit per cell.
//!
//! Food, hazards and occupied cells are sets the rules test at one cell
//! (is there food under this head?) and combine over the whole board (where
//! may new food go?). A bit per cell makes both cheap: an 11x11 board is two
//! words, so picking a free cell is a handful of word operations instead of a
//! scan with a list, and nothing is allocated after the game is created.

/// A set of cell indices below the size it was created with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Bits {
    words: Vec<u64>,
}

impl Bits {
    /// An empty set for `cells` cells.
    pub(super) fn new(cells: usize) -> Bits {
        Bits { words: vec![0; cells.div_ceil(64)] }
    }

    #[inline]
    pub(super) fn contains(&self, i: usize) -> bool {
        self.words[i >> 6] >> (i & 63) & 1 != 0
    }

    #[inline]
    pub(super) fn insert(&mut self, i: usize) {
        self.words[i >> 6] |= 1 << (i & 63);
    }

    #[inline]
    pub(super) fn remove(&mut self, i: usize) {
        self.words[i >> 6] &= !(1 << (i & 63));
    }

    pub(super) fn clear(&mut self) {
        self.words.fill(0);
    }

    pub(super) fn len(&self) -> u32 {
        self.words.iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    pub(super) fn words(&self) -> &[u64] {
        &self.words
    }

    pub(super) fn words_mut(&mut self) -> &mut [u64] {
        &mut self.words
    }

    /// The members in increasing order.
    pub(super) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(k, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let bit = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(k * 64 + bit)
            })
        })
    }

    /// The `n`-th member in increasing order, if there are more than `n`.
    pub(super) fn nth(&self, mut n: u32) -> Option<usize> {
        for (k, &w) in self.words.iter().enumerate() {
            let ones = w.count_ones();
            if n < ones {
                let mut w = w;
                for _ in 0..n {
                    w &= w - 1;
                }
                return Some(k * 64 + w.trailing_zeros() as usize);
            }
            n -= ones;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut b = Bits::new(130);
        for i in [0, 5, 63, 64, 129] {
            b.insert(i);
        }
        assert!(b.contains(63) && b.contains(64) && !b.contains(65));
        assert_eq!(b.len(), 5);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![0, 5, 63, 64, 129]);
        assert_eq!((0..6).map(|n| b.nth(n)).collect::<Vec<_>>(), vec![Some(0), Some(5), Some(63), Some(64), Some(129), None]);
        b.remove(64);
        assert_eq!(b.nth(3), Some(129));
        b.clear();
        assert_eq!(b.len(), 0);
    }
}
