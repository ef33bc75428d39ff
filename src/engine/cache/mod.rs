//! Cache-policy simulation: the result cache of ch. 9.9–9.10 [L3395–L3444] and the
//! inverted-file cache of ch. 8.6 [L3055–L3148], every classic and modern policy, hit-ratio
//! curves.
//!
//! - [`policy`]: the [`policy::Policy`] trait, the policy names, [`policy::build`];
//! - [`basic`]: FIFO, LRU (book §9.10), CLOCK, SIEVE, random, the infinite cache;
//! - [`lfu`]: LFU (in-cache and perfect) and the book's LFU with decay, naive and O(1);
//! - [`segmented`]: SLRU, 2Q, S3-FIFO; [`arc`]: ARC; [`lirs`]: LIRS;
//! - [`sized`]: GD-SIZE1 (book §8.6.5), GDSF and Belady's OPT;
//! - [`stack`]: LRU at every size in one pass (Mattson stack distances);
//! - [`trace`]: trace files (lines, CSV, SogouQ), generated streams;
//! - [`access`]: the §8.6.3 inverted-file access log and its I/O and PAGE views;
//! - [`replay`]: that access log made by replaying queries through a real index's query path;
//! - [`sim`]: many policies × many sizes in parallel, warm-up, the Table 9-2 data;
//! - [`job`]: the `cache-sim` job (logged, cancellable) the CLI and the panel run.
//!
//! Policies the book does not simulate carry no `book` reference and are labelled "not in
//! book" wherever they are shown. Where libCacheSim implements a policy (1a1a11a/libCacheSim
//! aa0fc40, the version its Python package 0.3.5 wraps), ours follows its code branch for
//! branch, and `tests/cache.rs` checks the miss ratios against its reference to 4 decimals.
//!
//! ```
//! use tianwang::engine::cache::policy::{build, PolicyKind, PolicyParams};
//! let trace = [1u32, 2, 3, 1, 2, 4, 1, 2, 5];
//! let mut lru = build(PolicyKind::Lru, 3, &PolicyParams::default());
//! let hits = trace.iter().filter(|&&id| lru.access(id, 1, u64::MAX)).count();
//! assert_eq!(hits, 4);
//! ```

pub mod access;
pub mod arc;
pub mod basic;
pub mod job;
pub mod lfu;
pub mod lirs;
pub mod list;
pub mod policy;
pub mod replay;
pub mod segmented;
pub mod sim;
pub mod sized;
pub mod stack;
pub mod trace;
