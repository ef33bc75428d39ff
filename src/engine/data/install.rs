//! Installing a set whose files are staged and verified: the files move into place one rename
//! each, between a marker written first and removed last, so a set whose install was cut short
//! (power cut, kill) is never taken for an installed one; the next fetch or import installs
//! it again. Renames stay inside the data folder (staging is `.tianwang/staging/SET/`), so no
//! file is ever half-written in its final place.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{DataDir, DataSet, write_error};
use crate::engine::error::{EngineError, Result};

/// The marker of an install of `set` in progress.
pub(crate) fn marker(dir: &DataDir, set: &str) -> PathBuf {
    dir.state_dir().join(format!("{set}.installing"))
}

/// Where `set`'s files are staged.
pub(crate) fn staging(dir: &DataDir, set: &str) -> PathBuf {
    dir.state_dir().join("staging").join(set)
}

/// Where one file of `set` is staged (`.part` while it is being written).
pub(crate) fn staged(dir: &DataDir, set: &DataSet, path: &str) -> PathBuf {
    path.split('/')
        .fold(staging(dir, &set.name), |p, part| p.join(part))
}

/// Where a set's files came from, kept beside the marker (`SET.json`).
#[derive(Debug, Serialize)]
struct Provenance<'a> {
    set: &'a str,
    from: &'a str,
    installed_at: String,
    files: usize,
    bytes: u64,
}

/// Create `dir` and its parents, said as a user's problem when the folder cannot be written.
pub(crate) fn make_dir(set: &str, dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| write_error(set, "", dir, e))
}

/// Move every staged file of `set` into place and record where it came from.
pub(crate) fn install(dir: &DataDir, set: &DataSet, from: &str) -> Result<()> {
    make_dir(&set.name, &dir.state_dir())?;
    let mark = marker(dir, &set.name);
    std::fs::write(&mark, from).map_err(|e| write_error(&set.name, "", &mark, e))?;
    for f in &set.files {
        let src = staged(dir, set, &f.path);
        let dst = set.file_in(dir.root(), f);
        if let Some(parent) = dst.parent() {
            make_dir(&set.name, parent)?;
        }
        std::fs::rename(&src, &dst).map_err(|e| write_error(&set.name, &f.path, &dst, e))?;
    }
    let record = Provenance {
        set: &set.name,
        from,
        installed_at: crate::engine::store::now_rfc3339(),
        files: set.files.len(),
        bytes: set.bytes(),
    };
    let json = serde_json::to_string_pretty(&record)
        .map_err(|e| EngineError::Internal(format!("provenance: {e}")))?;
    let prov = dir.state_dir().join(format!("{}.json", set.name));
    std::fs::write(&prov, json).map_err(|e| write_error(&set.name, "", &prov, e))?;
    std::fs::remove_file(&mark).map_err(|e| write_error(&set.name, "", &mark, e))?;
    // What is left of the staging folder is empty folders.
    let _ = std::fs::remove_dir_all(staging(dir, &set.name));
    Ok(())
}
