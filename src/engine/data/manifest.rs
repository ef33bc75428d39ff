//! The data sets' manifest, compiled into the binary: every set a lab or a book experiment
//! reads, what it is for, its licence and terms, its upstream repository and commit, and the
//! size, SHA-256 and upstream address of every file (`assets/data/manifest.json`, written by
//! `assets/data/make_manifest.py` from a copy laid out as the project's shared data folder).
//!
//! ```
//! use tianwang::engine::data::manifest;
//! let m = manifest::get();
//! let thuc = m.set("thucnews_titles").expect("in the manifest");
//! assert!(thuc.files.iter().any(|f| f.path == "dev.txt"));
//! assert!(m.set("nonsense").is_none());
//! ```

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::engine::error::{EngineError, Result};

/// The manifest as shipped.
const MANIFEST: &str = include_str!("../../../assets/data/manifest.json");

/// Every set.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    pub version: u32,
    pub sets: Vec<DataSet>,
}

/// One data set.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DataSet {
    /// Stable name (`tianwang data fetch NAME`).
    pub name: String,
    /// Its folder under the data folder (`""`: the files name their own folders).
    pub dir: String,
    pub title: String,
    /// What the labs use it for.
    pub purpose: String,
    /// Its licence, short.
    pub licence: String,
    /// Its terms of use, shown before a download.
    pub terms: String,
    /// The repositories and commits its files come from.
    pub upstream: Vec<Upstream>,
    /// Why it can only be imported from a copy (no upstream holds it), if so.
    pub import_only: Option<String>,
    pub files: Vec<DataFile>,
}

/// A repository at a pinned commit.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Upstream {
    pub repo: String,
    pub commit: String,
}

/// One file of a set.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DataFile {
    /// Path under the set's folder, `/`-separated.
    pub path: String,
    pub bytes: u64,
    /// Lower-case hex.
    pub sha256: String,
    /// Where it is downloaded from (at the pinned commit, byte for byte); none for a file that
    /// only comes with an import.
    pub url: Option<String>,
}

impl Manifest {
    /// The set called `name`.
    pub fn set(&self, name: &str) -> Option<&DataSet> {
        self.sets.iter().find(|s| s.name == name)
    }

    /// The sets called `names`, or `InvalidParam` naming the first unknown one with the known
    /// names.
    pub fn sets_named(&self, names: &[String]) -> Result<Vec<&DataSet>> {
        names
            .iter()
            .map(|n| {
                self.set(n).ok_or_else(|| {
                    EngineError::invalid(
                        "set",
                        format!(
                            "no data set `{n}`; the sets are {}",
                            self.names().join(", ")
                        ),
                    )
                })
            })
            .collect()
    }

    /// Every set's name.
    pub fn names(&self) -> Vec<&str> {
        self.sets.iter().map(|s| s.name.as_str()).collect()
    }
}

impl DataSet {
    /// Total bytes of its files.
    pub fn bytes(&self) -> u64 {
        self.files.iter().map(|f| f.bytes).sum()
    }

    /// Where its folder is under the data folder `root`.
    pub(crate) fn dir_in(&self, root: &Path) -> PathBuf {
        if self.dir.is_empty() {
            root.to_path_buf()
        } else {
            root.join(&self.dir)
        }
    }

    /// Where file `f` lives under the data folder `root`.
    pub fn file_in(&self, root: &Path, f: &DataFile) -> PathBuf {
        f.path
            .split('/')
            .fold(self.dir_in(root), |p, part| p.join(part))
    }

    /// Can it be downloaded (every file has an upstream address)?
    pub(crate) fn fetchable(&self) -> bool {
        self.import_only.is_none() && self.files.iter().all(|f| f.url.is_some())
    }
}

/// The manifest compiled into this build.
pub fn get() -> &'static Manifest {
    static M: OnceLock<Manifest> = OnceLock::new();
    M.get_or_init(|| {
        // The file is part of the source tree and checked by a unit test: a parse failure is a
        // build that must not ship, and the test below fails first.
        serde_json::from_str(MANIFEST).unwrap_or(Manifest {
            version: 0,
            sets: Vec::new(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_manifest_reads_and_is_complete() {
        let m: Manifest = serde_json::from_str(MANIFEST).expect("assets/data/manifest.json");
        assert_eq!(m.version, 1);
        for want in [
            "thucnews_titles",
            "ccwe",
            "readability_zh",
            "sogoucs_smarty",
            "hollins",
            "cloudphysics",
            "aeb",
            "references",
        ] {
            assert!(m.set(want).is_some(), "{want} missing");
        }
        for s in &m.sets {
            assert!(!s.files.is_empty(), "{}", s.name);
            assert!(!s.licence.is_empty() && !s.terms.is_empty(), "{}", s.name);
            for f in &s.files {
                assert_eq!(f.sha256.len(), 64, "{}/{}", s.name, f.path);
                assert!(f.sha256.chars().all(|c| c.is_ascii_hexdigit()));
                assert!(!f.path.starts_with('/') && !f.path.contains(".."));
                if s.import_only.is_none() {
                    let url = f.url.as_deref().unwrap_or_default();
                    assert!(url.starts_with("https://"), "{}/{}", s.name, f.path);
                    // Pinned to a commit named in the set's upstream.
                    assert!(s.upstream.iter().any(|u| url.contains(&u.commit)), "{url}");
                }
            }
        }
        assert!(get().set("ccwe").is_some_and(DataSet::fetchable));
        assert!(!get().set("references").is_some_and(DataSet::fetchable));
        assert!(get().sets_named(&["nope".into()]).is_err());
    }

    #[test]
    fn aeb_is_the_upstream_tree_at_its_pinned_commit() {
        let s = get().set("aeb").expect("aeb in the manifest");
        assert_eq!(s.dir, "extraction/aeb");
        assert!(s.fetchable());
        assert_eq!(s.upstream.len(), 1);
        assert_eq!(
            s.upstream[0].repo,
            "scrapinghub/article-extraction-benchmark"
        );
        assert_eq!(
            s.upstream[0].commit,
            "4a3bc979f76c0df73cb95fe272e2fc1b96f9f010"
        );
        let pages = s
            .files
            .iter()
            .filter(|f| f.path.starts_with("html/"))
            .count();
        assert_eq!(pages, 181);
        assert!(s.files.iter().all(|f| f.path.starts_with("html/")
            && f.path.ends_with(".html.gz")
            || f.path == "ground-truth.json"
            || f.path == "LICENSE"));
        assert_eq!(s.files.len(), 183);
    }

    #[test]
    fn files_are_placed_under_the_set_folder() {
        let m = get();
        let s = m.set("ccwe").unwrap();
        let f = s
            .files
            .iter()
            .find(|f| f.path.starts_with("original/"))
            .unwrap();
        let p = s.file_in(Path::new("/d"), f);
        assert!(
            p.starts_with("/d/extraction/ccwe/original"),
            "{}",
            p.display()
        );
        let r = m.set("references").unwrap();
        assert_eq!(r.dir_in(Path::new("/d")), Path::new("/d"));
    }
}
