//! The native build's sink: each document's text appended to `text.bin` as it passes, its
//! postings and positions in a buffer that grows to the `--memory-mb` budget, and a sorted run
//! written to disk before a document would overflow it — the book's batch inversion with
//! external runs [L2714–L2722]. A corpus that fits the buffer is one run, merged from memory
//! ([`super::merge::MemRun`]).
//!
//! ```text
//! RunSink::new(generation, cfg, total) → doc(…) per document → runs + entries → merge
//! ```

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::build::{DocSink, DocTerms, IndexConfig};
use super::disk::{DocInfo, io_err};
use super::merge::{Entry, write_run};
use crate::engine::error::{EngineError, Result};

/// The native sink: text.bin written as documents pass, entries and positions in a buffer
/// sized to the budget, a sorted run written before a document would overflow it.
pub(super) struct RunSink {
    pub(super) runs_dir: PathBuf,
    pub(super) text_path: PathBuf,
    pub(super) text_out: BufWriter<File>,
    pub(super) text_off: u64,
    pub(super) docs: Vec<DocInfo>,
    pub(super) cap_entries: usize,
    pub(super) cap_positions: usize,
    pub(super) entries: Vec<Entry>,
    pub(super) positions: Vec<u32>,
    pub(super) runs: Vec<PathBuf>,
    pub(super) peak: u64,
    pub(super) occurrences: u64,
    pub(super) links: Vec<u8>,
}

impl RunSink {
    pub(super) fn new(generation: &Path, cfg: &IndexConfig, total: usize) -> Result<RunSink> {
        let runs_dir = generation.join("runs");
        std::fs::create_dir_all(&runs_dir).map_err(|e| io_err(&runs_dir, e))?;
        let text_path = generation.join("text.bin");
        let text_out = BufWriter::new(File::create(&text_path).map_err(|e| io_err(&text_path, e))?);
        let budget = cfg.memory_mb.saturating_mul(1 << 20);
        // The book pre-allocates the batch's inversion memory [L2718–L2720]; here the buffer
        // grows to the budget as it fills (a budget larger than the machine then fails only
        // if the data needs it, with exit 2, instead of aborting at the start), and a run is
        // written before a document would overflow it, so it never grows past the budget.
        let cap_entries = (budget / 5 * 3 / std::mem::size_of::<Entry>()).max(1);
        let cap_positions = (budget / 5 * 2 / 4).clamp(1, (u32::MAX / 2) as usize);
        Ok(RunSink {
            runs_dir,
            text_path,
            text_out,
            text_off: 0,
            docs: Vec::with_capacity(total.min(1 << 20)),
            cap_entries,
            cap_positions,
            entries: Vec::new(),
            positions: Vec::new(),
            runs: Vec::new(),
            peak: 0,
            occurrences: 0,
            links: Vec::new(),
        })
    }

    pub(super) fn write_run(&mut self) -> Result<()> {
        let n = self.runs.len();
        self.runs.push(write_run(
            &self.runs_dir,
            n,
            &mut self.entries,
            &mut self.positions,
        )?);
        Ok(())
    }
}

impl DocSink for RunSink {
    fn doc(&mut self, d: DocTerms<'_>) -> Result<()> {
        let mut info = d.info;
        info.text_off = self.text_off;
        info.text_len = d.text.len() as u32;
        self.text_out
            .write_all(d.text.as_bytes())
            .map_err(|e| io_err(&self.text_path, e))?;
        self.text_off += d.text.len() as u64;
        self.occurrences += u64::from(info.len);
        for &to in d.out_docs {
            self.links.extend_from_slice(&d.doc.to_le_bytes());
            self.links.extend_from_slice(&to.to_le_bytes());
        }
        self.docs.push(info);
        let need_pos: usize = d.terms.iter().map(|t| t.1.len()).sum();
        if !self.entries.is_empty()
            && (self.entries.len() + d.terms.len() > self.cap_entries
                || self.positions.len() + need_pos > self.cap_positions)
        {
            self.write_run()?;
            self.entries.clear();
            self.positions.clear();
        }
        grow(&mut self.entries, d.terms.len(), self.cap_entries)?;
        grow(&mut self.positions, need_pos, self.cap_positions)?;
        for (id, r, w) in d.terms {
            self.entries.push(Entry {
                term: *id,
                doc: d.doc,
                tf: r.len() as u32,
                wbt: *w,
                pos: self.positions.len() as u32,
            });
            self.positions.extend_from_slice(&d.positions[r.clone()]);
        }
        // What the buffer holds (its pages are touched only as they fill).
        let used =
            (self.entries.len() * std::mem::size_of::<Entry>() + self.positions.len() * 4) as u64;
        self.peak = self.peak.max(used);
        Ok(())
    }

    fn state(&self) -> String {
        format!("{} runs", self.runs.len())
    }
}

/// Room for `more` items in `v`, doubling up to `cap` (more only for one document larger
/// than the budget); an allocation the machine refuses is the user's `--memory-mb`.
fn grow<T>(v: &mut Vec<T>, more: usize, cap: usize) -> Result<()> {
    let need = v.len().saturating_add(more);
    if need <= v.capacity() {
        return Ok(());
    }
    let want = v.capacity().saturating_mul(2).max(4096).min(cap).max(need);
    v.try_reserve_exact(want - v.len()).map_err(|_| {
        EngineError::invalid(
            "--memory-mb",
            format!(
                "the machine has no memory for a postings buffer of {} MB; give a smaller budget",
                (want * std::mem::size_of::<T>()) >> 20
            ),
        )
    })
}
