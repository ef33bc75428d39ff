//! What a replacement policy is ([`Policy`]), the names the CLI and the panel know
//! ([`PolicyKind`]) and how one is built for a capacity ([`build`]).
//!
//! Every policy serves one request at a time: `access(id, size, next)` returns true on a
//! hit; on a miss the object is admitted (evicting first) when it fits. Capacity is in
//! *units*: 1 per object for a count-based cache (the book's "cache size in queries"
//! [L3423–L3425]), bytes for a byte-based one (§8.6's inverted-file cache [L3146–L3148]).
//! `next` is the index of the object's next request (`u64::MAX`: never), used only by
//! Belady's OPT; online policies ignore it.
//!
//! ```
//! use tianwang::engine::cache::policy::{build, PolicyKind, PolicyParams};
//! let mut lru = build(PolicyKind::Lru, 2, &PolicyParams::default());
//! let hits: Vec<bool> = [1, 2, 1, 3, 2].iter().map(|&id| lru.access(id, 1, u64::MAX)).collect();
//! assert_eq!(hits, vec![false, false, true, false, false]);
//! ```

use serde::{Deserialize, Serialize};

use crate::engine::error::{EngineError, Result};

/// A replacement policy simulated over a stream of requests.
pub trait Policy: Send {
    /// Serve a request for `id` of `size` units whose next request is at index `next`
    /// (`u64::MAX` when never). True on a hit.
    fn access(&mut self, id: u32, size: u64, next: u64) -> bool;
    /// Units held now.
    fn used(&self) -> u64;
    /// Objects held now.
    fn len(&self) -> usize;
    /// Objects evicted so far (hits may evict too: libCacheSim's SLRU cools on a hit).
    fn evictions(&self) -> u64;
    /// The resident objects, grouped by the policy's own queues (name, ids from the
    /// eviction end): what the teaching stepper draws. O(size): for small caches.
    fn resident(&self) -> Vec<(&'static str, Vec<u32>)>;
    /// True when the cache holds nothing.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Every policy the lab simulates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PolicyKind {
    Fifo,
    Lru,
    Clock,
    Lfu,
    LfuPerfect,
    LfuDecay,
    Slru,
    #[serde(rename = "2q")]
    TwoQ,
    Arc,
    Lirs,
    S3fifo,
    Sieve,
    Gdsf,
    GdSize,
    Opt,
    Random,
    Infinite,
}

impl PolicyKind {
    pub const ALL: [PolicyKind; 17] = [
        PolicyKind::Fifo,
        PolicyKind::Lru,
        PolicyKind::Clock,
        PolicyKind::Lfu,
        PolicyKind::LfuPerfect,
        PolicyKind::LfuDecay,
        PolicyKind::Slru,
        PolicyKind::TwoQ,
        PolicyKind::Arc,
        PolicyKind::Lirs,
        PolicyKind::S3fifo,
        PolicyKind::Sieve,
        PolicyKind::Gdsf,
        PolicyKind::GdSize,
        PolicyKind::Opt,
        PolicyKind::Random,
        PolicyKind::Infinite,
    ];

    /// The CLI name (`--policy lru,fifo,…`).
    pub fn name(self) -> &'static str {
        match self {
            PolicyKind::Fifo => "fifo",
            PolicyKind::Lru => "lru",
            PolicyKind::Clock => "clock",
            PolicyKind::Lfu => "lfu",
            PolicyKind::LfuPerfect => "lfu-perfect",
            PolicyKind::LfuDecay => "lfu-decay",
            PolicyKind::Slru => "slru",
            PolicyKind::TwoQ => "2q",
            PolicyKind::Arc => "arc",
            PolicyKind::Lirs => "lirs",
            PolicyKind::S3fifo => "s3fifo",
            PolicyKind::Sieve => "sieve",
            PolicyKind::Gdsf => "gdsf",
            PolicyKind::GdSize => "gd-size",
            PolicyKind::Opt => "opt",
            PolicyKind::Random => "random",
            PolicyKind::Infinite => "infinite",
        }
    }

    /// Parse one CLI name (a few spellings accepted: `two-q`, `s3-fifo`, `belady`, …).
    pub fn parse(s: &str) -> Option<PolicyKind> {
        let s = s.trim().to_ascii_lowercase();
        let k = match s.as_str() {
            "two-q" | "twoq" => PolicyKind::TwoQ,
            "s3-fifo" => PolicyKind::S3fifo,
            "belady" | "min" => PolicyKind::Opt,
            "gdsize" | "gd-size1" | "gdsize1" => PolicyKind::GdSize,
            "lfudecay" | "lfu-d" => PolicyKind::LfuDecay,
            "inf" => PolicyKind::Infinite,
            other => return PolicyKind::ALL.into_iter().find(|k| k.name() == other),
        };
        Some(k)
    }

    /// Parse a comma-separated list, naming the flag on error.
    pub(crate) fn parse_list(s: &str, flag: &str) -> Result<Vec<PolicyKind>> {
        let mut out = Vec::new();
        for part in s.split(',').filter(|p| !p.trim().is_empty()) {
            let k = PolicyKind::parse(part).ok_or_else(|| {
                EngineError::invalid(
                    flag,
                    format!(
                        "unknown policy `{}` (known: {})",
                        part.trim(),
                        PolicyKind::ALL.map(|k| k.name()).join(", ")
                    ),
                )
            })?;
            if !out.contains(&k) {
                out.push(k);
            }
        }
        if out.is_empty() {
            return Err(EngineError::invalid(flag, "no policy given"));
        }
        Ok(out)
    }

    /// Where the book defines or uses it; `None` for policies the book does not simulate
    /// (labelled "not in book" everywhere they appear).
    pub fn book_ref(self) -> Option<&'static str> {
        match self {
            PolicyKind::Fifo | PolicyKind::Lru => Some("§9.10 [L3423]"),
            PolicyKind::LfuDecay => Some("§9.10 [L3423–L3425], Table 9-2 [L3433–L3438]"),
            PolicyKind::GdSize => Some("§8.6.5 GD-SIZE1 [L3148]"),
            PolicyKind::Infinite => Some("§9.10 ceiling 1−m/n [L3247]"),
            _ => None,
        }
    }

    /// Needs the whole trace in advance (the next use of every request).
    pub(crate) fn is_offline(self) -> bool {
        self == PolicyKind::Opt
    }
}

/// Parameters some policies take; the defaults are the published ones.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PolicyParams {
    /// LFU-decay: counts are multiplied by δ at every replacement (book default 0.998 [L3440]).
    pub decay: f64,
    /// LFU-decay: decay every count in a loop (the book's O(size) form) instead of the O(1)
    /// increment inflation; both give the same hits.
    pub decay_naive: bool,
    /// Random: the seed.
    pub seed: u64,
}

impl Default for PolicyParams {
    fn default() -> Self {
        PolicyParams {
            decay: 0.998,
            decay_naive: false,
            seed: 42,
        }
    }
}

impl PolicyParams {
    pub(crate) fn validate(&self) -> Result<()> {
        if !(self.decay > 0.0 && self.decay <= 1.0) {
            return Err(EngineError::invalid("decay", "δ must be in (0, 1]"));
        }
        Ok(())
    }
}

/// A policy of `kind` with `capacity` units.
pub fn build(kind: PolicyKind, capacity: u64, p: &PolicyParams) -> Box<dyn Policy> {
    use super::{arc, basic, lfu, lirs, segmented, sized};
    match kind {
        PolicyKind::Fifo => Box::new(basic::Fifo::new(capacity)),
        PolicyKind::Lru => Box::new(basic::Lru::new(capacity)),
        PolicyKind::Clock => Box::new(basic::Clock::new(capacity, 1)),
        PolicyKind::Sieve => Box::new(basic::Sieve::new(capacity)),
        PolicyKind::Random => Box::new(basic::Random::new(capacity, p.seed)),
        PolicyKind::Infinite => Box::new(basic::Infinite::default()),
        PolicyKind::Lfu => Box::new(lfu::Lfu::new(capacity, false)),
        PolicyKind::LfuPerfect => Box::new(lfu::Lfu::new(capacity, true)),
        PolicyKind::LfuDecay if p.decay_naive => {
            Box::new(lfu::LfuDecayNaive::new(capacity, p.decay))
        }
        PolicyKind::LfuDecay => Box::new(lfu::LfuDecay::new(capacity, p.decay)),
        PolicyKind::Slru => Box::new(segmented::Slru::new(capacity, 4)),
        PolicyKind::TwoQ => Box::new(segmented::TwoQ::new(capacity)),
        PolicyKind::S3fifo => Box::new(segmented::S3Fifo::new(capacity)),
        PolicyKind::Arc => Box::new(arc::Arc::new(capacity)),
        PolicyKind::Lirs => Box::new(lirs::Lirs::new(capacity)),
        PolicyKind::Gdsf => Box::new(sized::GreedyDual::new(capacity, true)),
        PolicyKind::GdSize => Box::new(sized::GreedyDual::new(capacity, false)),
        PolicyKind::Opt => Box::new(sized::Belady::new(capacity)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_the_flag() {
        for k in PolicyKind::ALL {
            assert_eq!(PolicyKind::parse(k.name()), Some(k));
            let json = serde_json::to_string(&k).unwrap();
            assert_eq!(json, format!("\"{}\"", k.name()));
        }
        let e = PolicyKind::parse_list("lru,bogus", "--policy").unwrap_err();
        assert!(e.to_string().contains("--policy") && e.to_string().contains("bogus"));
        assert_eq!(
            PolicyKind::parse_list("lru, fifo,lru", "--policy").unwrap(),
            vec![PolicyKind::Lru, PolicyKind::Fifo]
        );
    }
}
