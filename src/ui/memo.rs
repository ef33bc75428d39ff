//! A view computed from its inputs once and kept until they change: the UI thread does no
//! per-frame work that grows with the data. A panel keys a [`Memo`] by everything the view is
//! computed from (a result's sequence number, a chosen method, the wrap width, the theme …);
//! each frame asks for the view with the current key, and only a new key rebuilds it.
//!
//! ```ignore
//! let view = self.clusters.get((self.compared_seq, method), |_| ClusterView::of(mp));
//! ```

/// The last value built and the key it was built for.
pub(crate) struct Memo<K, V> {
    built: Option<(K, V)>,
    builds: u64,
}

impl<K, V> Default for Memo<K, V> {
    fn default() -> Self {
        Memo {
            built: None,
            builds: 0,
        }
    }
}

impl<K: PartialEq, V> Memo<K, V> {
    /// The value for `key`: the kept one when the key is the same as last time, else `build`'s.
    pub fn get(&mut self, key: K, build: impl FnOnce(&K) -> V) -> &V {
        let kept = match self.built.take() {
            Some((k, v)) if k == key => (k, v),
            _ => {
                self.builds += 1;
                let v = build(&key);
                (key, v)
            }
        };
        &self.built.insert(kept).1
    }

    /// How many times a value was built (a view rebuilt once per input change, not per frame).
    #[cfg(test)]
    pub fn builds(&self) -> u64 {
        self.builds
    }

    /// The value built last, if any.
    #[cfg(test)]
    pub fn last(&self) -> Option<&V> {
        self.built.as_ref().map(|(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_built_once_per_key() {
        let mut m: Memo<(u32, bool), String> = Memo::default();
        for _ in 0..5 {
            assert_eq!(m.get((1, true), |k| format!("{k:?}")), "(1, true)");
        }
        assert_eq!(m.builds(), 1);
        assert_eq!(m.get((2, true), |k| format!("{k:?}")), "(2, true)");
        assert_eq!(m.get((2, true), |_| unreachable!("kept")), "(2, true)");
        assert_eq!(m.builds(), 2);
        // Back to an older key: built again (only the last is kept).
        m.get((1, true), |k| format!("{k:?}"));
        assert_eq!(m.builds(), 3);
    }
}
