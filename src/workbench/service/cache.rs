//! A result cache in front of the query service (book §8.6 [L3055–L3148], §9.10 [L3395–L3444]):
//! any of the cache lab's online policies ([`crate::engine::cache::policy`]) holding whole result
//! pages, keyed as the cache lab keys a query stream — the normalised query, with its result page
//! when it is not the first — so a stream replayed here hits exactly where the lab's simulation
//! of the same stream hits.

use std::collections::HashMap;

use crate::engine::cache::policy::{Policy, PolicyKind, PolicyParams, build};
use crate::engine::error::{EngineError, Result};
use crate::engine::index::search::SearchResult;
use crate::engine::querylog::Normalise;

/// A policy and its size, as `POLICY:SIZE` (`lru:100`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheSpec {
    pub policy: PolicyKind,
    /// Result pages held.
    pub size: u64,
}

impl CacheSpec {
    /// Parse `POLICY:SIZE`; the user's bad input names `--cache`.
    pub fn parse(s: &str) -> Result<CacheSpec> {
        let bad = |why: String| EngineError::invalid("--cache", format!("`{s}`: {why}"));
        let (p, n) = s
            .split_once(':')
            .ok_or_else(|| bad("use POLICY:SIZE, e.g. lru:100".into()))?;
        let policy = PolicyKind::parse(p).ok_or_else(|| {
            bad(format!(
                "unknown policy (known: {})",
                PolicyKind::ALL.map(|k| k.name()).join(", ")
            ))
        })?;
        let size: u64 = n
            .trim()
            .parse()
            .map_err(|_| bad("the size is a whole number of result pages".into()))?;
        CacheSpec::new(policy, size).map_err(|e| bad(e.to_string()))
    }

    pub fn new(policy: PolicyKind, size: u64) -> Result<CacheSpec> {
        if size == 0 {
            return Err(EngineError::invalid("--cache", "the size is at least 1"));
        }
        if policy.is_offline() {
            return Err(EngineError::invalid(
                "--cache",
                format!(
                    "{} needs every future request; a cache in front of a live service cannot",
                    policy.name()
                ),
            ));
        }
        Ok(CacheSpec { policy, size })
    }

    pub fn label(&self) -> String {
        format!("{}:{}", self.policy.name(), self.size)
    }
}

/// The cache: the policy decides hit or miss; the pages it holds are kept beside it.
pub struct ResultCache {
    pub spec: CacheSpec,
    policy: Box<dyn Policy>,
    ids: HashMap<String, u32>,
    /// Pages held (those the policy evicted are dropped now and then).
    pages: HashMap<u32, Option<SearchResult>>,
    pub requests: u64,
    pub hits: u64,
}

impl std::fmt::Debug for ResultCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResultCache")
            .field("spec", &self.spec)
            .field("requests", &self.requests)
            .field("hits", &self.hits)
            .finish()
    }
}

impl ResultCache {
    pub fn new(spec: CacheSpec) -> ResultCache {
        ResultCache {
            spec,
            policy: build(spec.policy, spec.size, &PolicyParams::default()),
            ids: HashMap::new(),
            pages: HashMap::new(),
            requests: 0,
            hits: 0,
        }
    }

    /// The key of `query` on result page `page` (0-based) under `setting` (the ranking and
    /// what the page shows: a change must not be answered from the cache).
    pub fn key(query: &str, page: usize, setting: &str) -> String {
        let q = Normalise::default().apply(query).into_owned();
        let q = if page == 0 {
            q
        } else {
            crate::engine::cache::trace::page_key(&q, page as u32 + 1)
        };
        format!("{q}\u{1e}{setting}")
    }

    /// Hits over requests so far.
    pub fn hit_ratio(&self) -> f64 {
        if self.requests == 0 {
            0.0
        } else {
            self.hits as f64 / self.requests as f64
        }
    }

    /// The page under `key`: from the cache on a hit, else computed by `compute` and admitted.
    /// Returns it and whether it was a hit.
    pub fn get_or(
        &mut self,
        key: &str,
        compute: impl FnOnce() -> Result<SearchResult>,
    ) -> Result<(SearchResult, bool)> {
        let n = self.ids.len() as u32;
        let id = *self.ids.entry(key.to_string()).or_insert(n);
        let hit = self.policy.access(id, 1, u64::MAX);
        self.requests += 1;
        if hit {
            self.hits += 1;
            if let Some(Some(r)) = self.pages.get(&id) {
                return Ok((r.clone(), true));
            }
        }
        // A miss, or a hit on a page that failed before: the engine answers.
        let r = compute();
        self.pages.insert(id, r.as_ref().ok().cloned());
        self.trim();
        r.map(|r| (r, hit))
    }

    /// Drop the pages the policy no longer holds, when they are twice its size.
    fn trim(&mut self) {
        if (self.pages.len() as u64) <= 2 * self.spec.size.max(16) {
            return;
        }
        let resident: std::collections::HashSet<u32> = self
            .policy
            .resident()
            .into_iter()
            .flat_map(|(_, ids)| ids)
            .collect();
        self.pages.retain(|id, _| resident.contains(id));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(q: &str) -> SearchResult {
        SearchResult {
            query: q.into(),
            terms: Vec::new(),
            op: crate::engine::index::query::Op::And,
            phrases: Vec::new(),
            total_hits: 0,
            matched: 0,
            folded: 0,
            hits: Vec::new(),
            model: String::new(),
            retrieval: Default::default(),
            elapsed_ms: 0.0,
        }
    }

    #[test]
    fn the_policy_decides_and_held_pages_come_back() {
        let spec = CacheSpec::parse("lru:2").unwrap();
        let mut c = ResultCache::new(spec);
        let mut computed = 0;
        let mut ask = |c: &mut ResultCache, q: &str| {
            c.get_or(&ResultCache::key(q, 0, "bm25"), || {
                computed += 1;
                Ok(page(q))
            })
            .unwrap()
            .1
        };
        let hits: Vec<bool> = ["a", "B", "a", "c", "b", "a"]
            .iter()
            .map(|q| ask(&mut c, q))
            .collect();
        // "B" and "b" are one query once normalised; LRU at 2: a B a(hit) c b(miss: evicted) a(miss)
        assert_eq!(hits, vec![false, false, true, false, false, false]);
        assert_eq!((c.requests, c.hits), (6, 1));
        assert_eq!(computed, 5);
        assert_ne!(
            ResultCache::key("a", 1, "bm25"),
            ResultCache::key("a", 0, "bm25")
        );
        assert!(CacheSpec::parse("opt:10").is_err());
        assert!(CacheSpec::parse("lru:0").is_err());
        assert!(
            CacheSpec::parse("lru")
                .unwrap_err()
                .to_string()
                .contains("--cache")
        );
        assert!(CacheSpec::parse("nonsense:3").is_err());
    }
}
