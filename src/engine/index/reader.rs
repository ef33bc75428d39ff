//! An index opened for reading: the lexicon and the document table in memory (book §6.1
//! [L1664]: the dictionary resides in memory), the posting file read whole ("if memory
//! allows, all posting lists also reside in memory"), the stored text read per document.
//!
//! ```no_run
//! use tianwang::engine::index::reader::Index;
//! let ix = Index::open("titles.index".as_ref()).unwrap();
//! if let Some(t) = ix.term("北京") {
//!     let p = ix.postings(t).unwrap();
//!     println!("{} docs", p.docs.len());
//! }
//! ```

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::disk::{self, DocInfo, Meta, Postings, Term};
use crate::engine::error::{EngineError, Flaw, Result};

/// An open index.
pub struct Index {
    pub dir: PathBuf,
    pub generation: PathBuf,
    pub meta: Meta,
    pub docs: Vec<DocInfo>,
    lexicon: Vec<Term>,
    postings: Vec<u8>,
    text: Mutex<std::fs::File>,
    /// Document-to-document links (workspace builds), for WL and PageRank.
    pub links: Vec<(u32, u32)>,
    /// The generation held against removal while this index is open.
    _hold: disk::ReadLock,
}

impl std::fmt::Debug for Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Index")
            .field("dir", &self.dir)
            .field("docs", &self.docs.len())
            .field("terms", &self.lexicon.len())
            .finish()
    }
}

/// The index a workspace file keeps beside itself: `<workspace>.index/`.
pub fn sidecar(workspace: &Path) -> PathBuf {
    let mut s = workspace.as_os_str().to_os_string();
    s.push(".index");
    PathBuf::from(s)
}

impl Index {
    /// Open the current generation of `dir`. No index there is the user's error (exit 2).
    /// Every file's footer is verified and every count and offset checked against the bytes
    /// that hold it (a damaged file is `EngineError::Corrupt` naming it, exit 2); the
    /// generation is held ([`disk::hold_current`]) so a build finishing meanwhile does not
    /// remove it under this reader.
    pub fn open(dir: &Path) -> Result<Index> {
        let (generation, hold) = disk::hold_current(dir)?.ok_or_else(|| EngineError::NoIndex {
            dir: dir.to_path_buf(),
        })?;
        let meta_path = generation.join("meta.json");
        let meta_bytes = disk::read(&meta_path)?;
        let sealed = disk::has_footer(&meta_bytes);
        let meta_body = if sealed {
            disk::unseal(&meta_path, &meta_bytes)?
        } else {
            &meta_bytes[..]
        };
        let meta: Meta = serde_json::from_slice(meta_body).map_err(|e| {
            EngineError::corrupt(&meta_path, Flaw::with_detail("flaw.not_meta", &[], e))
        })?;
        if meta.version > disk::FORMAT_VERSION {
            return Err(EngineError::path_flaw(
                dir.to_path_buf(),
                Flaw::new(
                    "flaw.path_index_newer",
                    &[&meta.version, &disk::FORMAT_VERSION],
                ),
            ));
        }
        if meta.version >= 2 && !sealed {
            return Err(EngineError::corrupt(
                &meta_path,
                Flaw::new("flaw.no_footer", &[]),
            ));
        }
        // Format 1 wrote no footers: its files are read as they are.
        let read = |p: &Path| {
            if sealed {
                disk::read_sealed(p)
            } else {
                disk::read(p)
            }
        };
        let docs_path = generation.join("docs.json");
        let docs: Vec<DocInfo> = serde_json::from_slice(&read(&docs_path)?).map_err(|e| {
            EngineError::corrupt(&docs_path, Flaw::with_detail("flaw.not_doc_table", &[], e))
        })?;
        if docs.len() as u64 != meta.docs {
            return Err(EngineError::corrupt(
                &docs_path,
                Flaw::new("flaw.doc_count", &[&docs.len(), &meta.docs]),
            ));
        }
        let lex_path = generation.join("lexicon.bin");
        let lexicon = disk::parse_lexicon(&lex_path, &read(&lex_path)?)?;
        let post_path = generation.join(disk::POSTINGS_FILE);
        let postings = read(&post_path)?;
        if let Some(t) = lexicon.iter().find(|t| {
            t.df == 0 || t.off.checked_add(u64::from(t.len)) > Some(postings.len() as u64)
        }) {
            return Err(EngineError::corrupt(
                &post_path,
                Flaw::new(
                    "flaw.block_outside_sized",
                    &[&format!("{:?}", t.term), &postings.len()],
                ),
            ));
        }
        let text_path = generation.join("text.bin");
        let text_len = if sealed {
            disk::verify_sealed(&text_path)?
        } else {
            std::fs::metadata(&text_path)
                .map_err(|e| disk::io_err(&text_path, e))?
                .len()
        };
        if let Some((i, _)) = docs
            .iter()
            .enumerate()
            .find(|(_, d)| d.text_off.checked_add(u64::from(d.text_len)) > Some(text_len))
        {
            return Err(EngineError::corrupt(
                &docs_path,
                Flaw::new("flaw.text_outside", &[&i, &text_len]),
            ));
        }
        let text =
            std::fs::File::open(&text_path).map_err(|e| EngineError::path_os(text_path, e))?;
        let links_path = generation.join("links.bin");
        let links = match links_path.exists() {
            true => read(&links_path)?
                .chunks_exact(8)
                .map(|c| {
                    (
                        u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
                        u32::from_le_bytes([c[4], c[5], c[6], c[7]]),
                    )
                })
                .filter(|&(a, b)| (a as usize) < docs.len() && (b as usize) < docs.len())
                .collect(),
            false => Vec::new(),
        };
        Ok(Index {
            dir: dir.to_path_buf(),
            generation,
            meta,
            docs,
            lexicon,
            postings,
            text: Mutex::new(text),
            links,
            _hold: hold,
        })
    }

    /// Documents.
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// The lexicon, in byte order of the terms.
    pub fn lexicon(&self) -> &[Term] {
        &self.lexicon
    }

    /// A term's entry.
    pub fn term(&self, t: &str) -> Option<&Term> {
        self.lexicon
            .binary_search_by(|e| e.term.as_str().cmp(t))
            .ok()
            .map(|i| &self.lexicon[i])
    }

    /// Terms starting with `prefix`, in order, at most `limit`.
    pub(crate) fn terms_with_prefix(&self, prefix: &str, limit: usize) -> &[Term] {
        let from = self.lexicon.partition_point(|e| e.term.as_str() < prefix);
        let mut to = from;
        while to < self.lexicon.len()
            && to - from < limit
            && self.lexicon[to].term.starts_with(prefix)
        {
            to += 1;
        }
        &self.lexicon[from..to]
    }

    /// A term's posting block, as stored.
    pub fn block(&self, t: &Term) -> Result<&[u8]> {
        let a = usize::try_from(t.off).unwrap_or(usize::MAX);
        a.checked_add(t.len as usize)
            .and_then(|b| self.postings.get(a..b))
            .ok_or_else(|| {
                EngineError::corrupt(
                    self.generation.join(disk::POSTINGS_FILE),
                    Flaw::new("flaw.block_outside", &[&format!("{:?}", t.term)]),
                )
            })
    }

    /// A term's postings, decoded. (Their positions, when decoded, may still find the block
    /// damaged: that error names `postings.bin` relative to [`Index::generation`].)
    pub fn postings(&self, t: &Term) -> Result<Postings> {
        let p = disk::decode_block(self.meta.config.codec, self.block(t)?)
            .map_err(|e| e.within(&self.generation))?;
        self.check(t, p)
    }

    /// A term's documents, tf and WBT without its positions (cheaper; enough unless a phrase
    /// needs checking).
    pub(crate) fn postings_without_positions(&self, t: &Term) -> Result<Postings> {
        let p = disk::decode_block_with(self.meta.config.codec, self.block(t)?, false)
            .map_err(|e| e.within(&self.generation))?;
        self.check(t, p)
    }

    /// A decoded list agrees with its lexicon entry and the documents: df postings, document
    /// ids strictly increasing and below N (so `docs[id]` never fails downstream).
    fn check(&self, t: &Term, p: Postings) -> Result<Postings> {
        let term = format!("{:?}", t.term);
        let bad = |key: &'static str, more: &[&dyn std::fmt::Display]| {
            let mut args: Vec<&dyn std::fmt::Display> = vec![&term];
            args.extend_from_slice(more);
            Err(EngineError::corrupt(
                self.generation.join(disk::POSTINGS_FILE),
                Flaw::new(key, &args),
            ))
        };
        if p.docs.len() != t.df as usize {
            return bad("flaw.list_df", &[&p.docs.len(), &t.df]);
        }
        if p.docs.windows(2).any(|w| w[0] >= w[1]) {
            return bad("flaw.list_order", &[]);
        }
        if let Some(&d) = p.docs.last().filter(|&&d| d as usize >= self.docs.len()) {
            return bad("flaw.list_doc_range", &[&d, &self.docs.len()]);
        }
        Ok(p)
    }

    /// A document by its key (TSV line, file stem, URL).
    pub(crate) fn find_doc(&self, key: &str) -> Option<u32> {
        self.docs
            .iter()
            .position(|d| d.key == key)
            .map(|i| i as u32)
    }

    /// A document's stored title + "\n" + body.
    pub fn text(&self, doc: u32) -> Result<String> {
        let d = self.docs.get(doc as usize).ok_or_else(|| {
            EngineError::invalid_flaw("--doc", Flaw::new("flaw.param_no_document", &[&doc]))
        })?;
        let mut buf = vec![0u8; d.text_len as usize];
        {
            let mut f = self
                .text
                .lock()
                .map_err(|_| EngineError::Internal("the text file lock is poisoned".into()))?;
            f.seek(SeekFrom::Start(d.text_off))
                .and_then(|_| f.read_exact(&mut buf))
                .map_err(|e| {
                    EngineError::corrupt(
                        self.generation.join("text.bin"),
                        Flaw::with_detail("flaw.text_unreadable", &[&doc], e),
                    )
                })?;
        }
        String::from_utf8(buf).map_err(|_| {
            EngineError::corrupt(
                self.generation.join("text.bin"),
                Flaw::new("flaw.text_not_utf8", &[&doc]),
            )
        })
    }

    /// For a workspace index: whether the workspace has newer snapshots than the index.
    pub(crate) fn is_stale(&self, ws: &crate::engine::store::Workspace) -> Result<bool> {
        let Some(built) = self.meta.workspace_snapshot else {
            return Ok(false);
        };
        let now: Option<i64> = ws
            .conn()
            .query_row("SELECT MAX(id) FROM snapshots", [], |r| r.get(0))?;
        Ok(now.unwrap_or(0) > built)
    }
}
