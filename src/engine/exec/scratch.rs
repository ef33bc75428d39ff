//! Scratch folders for the big jobs: a fresh folder under the system's temporary folder for a
//! run's Parquet files and spills, removed when the run is over (dropped), whatever the outcome.
//!
//! ```
//! use tianwang::engine::exec::scratch::ScratchDir;
//! let p = {
//!     let d = ScratchDir::new("doc-example")?;
//!     assert!(d.path().is_dir());
//!     d.path().to_path_buf()
//! };
//! assert!(!p.exists());
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::engine::error::{EngineError, Result};

/// A scratch folder removed when dropped.
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    /// A fresh folder `tianwang-WHAT-PID-N` under the system's temporary folder.
    pub fn new(what: &str) -> Result<ScratchDir> {
        static N: AtomicU64 = AtomicU64::new(0);
        let p = std::env::temp_dir().join(format!(
            "tianwang-{what}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).map_err(|e| EngineError::Io {
            path: p.clone(),
            source: e,
        })?;
        Ok(ScratchDir(p))
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
