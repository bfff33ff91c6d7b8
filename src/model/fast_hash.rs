//! A fast hash for lookups of ids and names (the files' check, the store):
//! the multiply-and-rotate hash rustc uses for its own tables (FxHash), with
//! the final rotation of `rustc-hash` 2 so the table's top bits vary. It does
//! not resist keys chosen to collide, which a person's own files are not; and
//! nothing may depend on the order of a table hashed with it.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// The hash's state.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct FxHasher {
    hash: u64,
}

const K: u64 = 0xf135_7aea_2e62_a9c5;

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.hash = self.hash.wrapping_add(word).wrapping_mul(K);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            for (w, r) in word.iter_mut().zip(rest) {
                *w = *r;
            }
            // The length keeps "a" and "a\0" apart.
            self.add(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.hash.rotate_left(26)
    }
}

/// A `HashMap` with the fast hash.
pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;
/// A `HashSet` with the fast hash.
pub(crate) type FastSet<K> = HashSet<K, BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash<T: Hash>(value: T) -> u64 {
        BuildHasherDefault::<FxHasher>::default().hash_one(value)
    }

    #[test]
    fn different_keys_hash_apart() {
        let keys = [
            "",
            "a",
            "a\0",
            "r1",
            "r10",
            "r100",
            "region-12345678",
            "region-12345679",
        ];
        let hashes: std::collections::BTreeSet<u64> = keys.iter().map(hash).collect();
        assert_eq!(hashes.len(), keys.len());
        let mut map: FastMap<String, usize> = FastMap::default();
        for i in 0..10_000 {
            map.insert(format!("r{i}"), i);
        }
        assert!((0..10_000).all(|i| map.get(&format!("r{i}")) == Some(&i)));
    }
}
