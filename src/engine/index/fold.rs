//! Folding near-duplicates in a result list, as Tianwang and every web engine do: one result
//! per group of near-duplicate pages — the best-ranked member — with "N similar pages" that
//! expands to the others (book §7.2 [L2496–L2500]: reprints shown once; ch. 5's result page).
//!
//! The groups come from outside the index (the dedup lab keeps them in the workspace; the
//! composition root hands them over as `(url, group)` pairs), so an index of files folds
//! nothing and an index of the workspace folds what dedup found. Pages of a group that are not
//! in the index (the crawl's replicas: byte-identical copies under another URL, stored once) are
//! listed among the similar pages of the member that is.
//!
//! ```
//! use tianwang::engine::index::fold::Folding;
//! let urls = ["http://a/1", "http://b/1", "http://c/2"];
//! let f = Folding::new(urls.iter().copied(), &[("http://a/1".into(), 7), ("http://b/1".into(), 7),
//!                                              ("http://mirror/1".into(), 7)]);
//! let folded = f.fold(&[(1, 3.0), (2, 2.0), (0, 1.0)]);
//! assert_eq!(folded.len(), 2); // doc 1 with doc 0 under it, and doc 2
//! assert_eq!(folded[0].0, 1);
//! assert_eq!(folded[0].2, vec![0]);
//! assert_eq!(f.outside(1), ["http://mirror/1".to_string()]);
//! ```

use std::collections::HashMap;

/// Which documents of an index are in which group.
#[derive(Debug, Clone, Default)]
pub struct Folding {
    /// Group of each document (by docID), if any.
    group: Vec<Option<u32>>,
    /// Members of each group that are not in the index.
    outside: HashMap<u32, Vec<String>>,
    /// Documents in a group.
    pub grouped: usize,
}

impl Folding {
    /// The groups of `members` (`(url, group)`) over the documents whose URLs are `doc_urls`
    /// (in docID order).
    pub fn new<'a>(doc_urls: impl Iterator<Item = &'a str>, members: &[(String, i64)]) -> Folding {
        let mut ids: HashMap<i64, u32> = HashMap::new();
        let mut by_url: HashMap<&str, u32> = HashMap::with_capacity(members.len());
        for (url, g) in members {
            let n = ids.len() as u32;
            let id = *ids.entry(*g).or_insert(n);
            by_url.insert(url.as_str(), id);
        }
        let mut seen = std::collections::HashSet::new();
        let group: Vec<Option<u32>> = doc_urls
            .map(|u| {
                let g = by_url.get(u).copied();
                if g.is_some() {
                    seen.insert(u.to_string());
                }
                g
            })
            .collect();
        let mut outside: HashMap<u32, Vec<String>> = HashMap::new();
        for (url, g) in members {
            if !seen.contains(url) {
                outside.entry(ids[g]).or_default().push(url.clone());
            }
        }
        Folding {
            grouped: group.iter().filter(|g| g.is_some()).count(),
            group,
            outside,
        }
    }

    /// The group of document `doc`.
    pub(crate) fn group_of(&self, doc: u32) -> Option<u32> {
        self.group.get(doc as usize).copied().flatten()
    }

    /// The members of `doc`'s group that are not in the index.
    pub fn outside(&self, doc: u32) -> &[String] {
        self.group_of(doc)
            .and_then(|g| self.outside.get(&g))
            .map_or(&[], Vec::as_slice)
    }

    /// Fold a ranking (best first): each group's best-ranked document with the other matching
    /// members under it (in rank order), documents in no group as they are.
    pub fn fold(&self, ranked: &[(u32, f64)]) -> Vec<(u32, f64, Vec<u32>)> {
        let mut out: Vec<(u32, f64, Vec<u32>)> = Vec::with_capacity(ranked.len());
        let mut slot: HashMap<u32, usize> = HashMap::new();
        for &(doc, score) in ranked {
            match self.group_of(doc) {
                None => out.push((doc, score, Vec::new())),
                Some(g) => match slot.get(&g) {
                    Some(&i) => out[i].2.push(doc),
                    None => {
                        slot.insert(g, out.len());
                        out.push((doc, score, Vec::new()));
                    }
                },
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_result_per_group_best_first_and_the_rest_under_it() {
        let urls = ["u0", "u1", "u2", "u3", "u4"];
        let members = vec![
            ("u0".to_string(), 1),
            ("u2".to_string(), 1),
            ("u3".to_string(), 2),
            ("u4".to_string(), 2),
            ("replica-of-u3".to_string(), 2),
        ];
        let f = Folding::new(urls.iter().copied(), &members);
        assert_eq!(f.grouped, 4);
        let ranked = [(2, 9.0), (1, 8.0), (4, 7.0), (0, 6.0), (3, 5.0)];
        let folded = f.fold(&ranked);
        let view: Vec<(u32, Vec<u32>)> = folded.iter().map(|(d, _, s)| (*d, s.clone())).collect();
        assert_eq!(view, vec![(2, vec![0]), (1, vec![]), (4, vec![3])]);
        assert_eq!(f.outside(4), ["replica-of-u3".to_string()]);
        assert!(f.outside(1).is_empty());
        // No groups: nothing folds.
        let none = Folding::new(urls.iter().copied(), &[]);
        assert_eq!(none.fold(&ranked).len(), 5);
    }
}
