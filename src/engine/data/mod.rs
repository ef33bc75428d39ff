//! Data sets: where the real data the labs and the book experiments read lives on this
//! machine, which sets are installed, and how they get there — downloaded from their upstream
//! repositories at a pinned commit ([`fetch`]), imported from a copy such as a teacher's USB
//! stick ([`import`]), and checked again at any time ([`DataDir::verify`]). Like
//! scikit-learn's `fetch_20newsgroups` or `nltk.download`, every file is named in a manifest
//! compiled into the binary ([`manifest`]) with its size and SHA-256, so what the experiments
//! read is byte for byte what was published.
//!
//! The data folder is resolved one way ([`resolve`]): `--data DIR`, else `$TIANWANG_DATA`, else
//! `datasets` in the user's data folder (the `directories` crate, beside the default workspace).
//! It is laid out as the project's shared data folder (`classification/thucnews_titles/dev.txt`
//! …), so a copy of that folder is also a data folder. The manager's own state lives in the
//! folder's hidden `.tianwang/`: downloads in progress (`staging/`, resumable), the set being
//! installed (`SET.installing`, so an install cut short is never taken for a whole one) and
//! where each set came from (`SET.json`).
//!
//! ```
//! use tianwang::engine::data::{DataDir, manifest};
//! let dir = DataDir::new(std::env::temp_dir().join("tianwang-doc-empty-data"));
//! let hollins = manifest::get().set("hollins").unwrap();
//! assert!(!dir.status(hollins).installed);
//! let e = dir.require("hollins").unwrap_err();
//! assert!(e.to_string().contains("tianwang data fetch hollins"));
//! ```

pub mod fetch;
mod import;
mod install;
pub mod job;
pub mod manifest;

use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::engine::error::{DataProblem, EngineError, Flaw, Result};
use crate::engine::jobs::Tick;
pub use import::{ImportReport, import};
pub use manifest::{DataFile, DataSet};

/// The environment variable naming the data folder when `--data` is not given.
pub(crate) const DATA_ENV: &str = "TIANWANG_DATA";

/// The data folder: `flag` (the `--data` option), else `$TIANWANG_DATA`, else `datasets` in
/// the user's data folder.
pub fn resolve(flag: Option<&Path>) -> Result<PathBuf> {
    if let Some(p) = flag {
        return Ok(p.to_path_buf());
    }
    if let Some(p) = std::env::var_os(DATA_ENV).filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    Ok(crate::engine::store::data_dir()?.join("datasets"))
}

/// A data folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataDir {
    root: PathBuf,
}

/// Whether a set is installed, and how much of it is there.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct SetStatus {
    /// Every file present with its size, and no install of it cut short.
    pub installed: bool,
    /// Files present with the right size.
    pub present: usize,
    pub files: usize,
    /// An install was cut short (the next fetch or import finishes it again).
    pub interrupted: bool,
}

/// A file whose bytes are not the manifest's.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Changed {
    pub set: String,
    pub file: String,
    /// `None`: the file is missing.
    pub found: Option<String>,
    pub expected: String,
}

/// What [`DataDir::verify`] found.
#[derive(Debug, Clone, Serialize, Default)]
pub struct VerifyReport {
    /// Installed sets checked.
    pub checked: Vec<String>,
    pub files: usize,
    pub bytes: u64,
    /// Sets not installed (not checked).
    pub not_installed: Vec<String>,
    pub changed: Vec<Changed>,
}

impl VerifyReport {
    /// The first changed file as an error (exit 2), if any.
    pub(crate) fn first_error(&self) -> Option<EngineError> {
        self.changed.first().map(|c| EngineError::DataFile {
            set: c.set.clone(),
            file: c.file.clone(),
            problem: match &c.found {
                Some(found) => DataProblem::Checksum {
                    expected: c.expected.clone(),
                    found: found.clone(),
                },
                None => DataProblem::Missing {
                    path: PathBuf::from(&c.file),
                },
            },
        })
    }
}

/// One set as `tianwang data list --json` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct Listed {
    pub name: String,
    pub title: String,
    pub purpose: String,
    pub licence: String,
    pub terms: String,
    pub upstream: Vec<manifest::Upstream>,
    pub import_only: Option<String>,
    pub dir: String,
    pub bytes: u64,
    pub installed: bool,
    pub present: usize,
    pub files: Vec<ListedFile>,
}

/// One file as listed.
#[derive(Debug, Clone, Serialize)]
pub struct ListedFile {
    pub path: String,
    pub sha256: String,
    pub bytes: u64,
    pub url: Option<String>,
}

/// Every set and its state.
#[derive(Debug, Clone, Serialize)]
pub struct Listing {
    pub sets: Vec<Listed>,
    pub data_dir: PathBuf,
}

impl DataDir {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        DataDir { root: root.into() }
    }

    /// The folder [`resolve`] names.
    pub fn resolve(flag: Option<&Path>) -> Result<Self> {
        resolve(flag).map(DataDir::new)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The manager's own folder (`.tianwang`).
    pub(crate) fn state_dir(&self) -> PathBuf {
        self.root.join(".tianwang")
    }

    /// Is `set` installed? Cheap: one `stat` per file, no hashing.
    pub fn status(&self, set: &DataSet) -> SetStatus {
        let present = set
            .files
            .iter()
            .filter(|f| {
                std::fs::metadata(set.file_in(&self.root, f))
                    .is_ok_and(|m| m.is_file() && m.len() == f.bytes)
            })
            .count();
        let interrupted = install::marker(self, &set.name).exists();
        SetStatus {
            installed: present == set.files.len() && !interrupted,
            present,
            files: set.files.len(),
            interrupted,
        }
    }

    /// Where set `name`'s folder is (installed or not; no I/O), `None` for a name not in the
    /// manifest.
    pub(crate) fn set_dir(&self, name: &str) -> Option<PathBuf> {
        manifest::get().set(name).map(|s| s.dir_in(&self.root))
    }

    /// The folder of set `name` when it is installed, else [`EngineError::MissingData`].
    pub fn require(&self, name: &str) -> Result<PathBuf> {
        let set = manifest::get().set(name).ok_or_else(|| {
            EngineError::Internal(format!("no data set `{name}` in the manifest"))
        })?;
        if self.status(set).installed {
            Ok(set.dir_in(&self.root))
        } else {
            Err(EngineError::MissingData { set: name.into() })
        }
    }

    /// Every set of the manifest with its state.
    pub fn list(&self) -> Listing {
        let sets = manifest::get()
            .sets
            .iter()
            .map(|s| {
                let st = self.status(s);
                Listed {
                    name: s.name.clone(),
                    title: s.title.clone(),
                    purpose: s.purpose.clone(),
                    licence: s.licence.clone(),
                    terms: s.terms.clone(),
                    upstream: s.upstream.clone(),
                    import_only: s.import_only.clone(),
                    dir: s.dir.clone(),
                    bytes: s.bytes(),
                    installed: st.installed,
                    present: st.present,
                    files: s
                        .files
                        .iter()
                        .map(|f| ListedFile {
                            path: f.path.clone(),
                            sha256: f.sha256.clone(),
                            bytes: f.bytes,
                            url: f.url.clone(),
                        })
                        .collect(),
                }
            })
            .collect();
        Listing {
            sets,
            data_dir: self.root.clone(),
        }
    }

    /// Hash every file of the installed sets among `sets` again and name any that changed.
    pub fn verify(&self, sets: &[&DataSet], tick: &dyn Tick) -> Result<VerifyReport> {
        let mut r = VerifyReport::default();
        let installed: Vec<&DataSet> = sets
            .iter()
            .copied()
            .filter(|s| {
                let ok = self.status(s).installed;
                if !ok {
                    r.not_installed.push(s.name.clone());
                }
                ok
            })
            .collect();
        let total: u64 = installed.iter().map(|s| s.bytes()).sum::<u64>().max(1);
        let mut done = 0u64;
        for s in installed {
            r.checked.push(s.name.clone());
            for f in &s.files {
                tick.tick(
                    done as f32 / total as f32,
                    &format!("{}/{}", s.name, f.path),
                )?;
                let p = s.file_in(&self.root, f);
                let found = sha256_file(&p).ok();
                if found.as_deref() != Some(f.sha256.as_str()) {
                    r.changed.push(Changed {
                        set: s.name.clone(),
                        file: f.path.clone(),
                        found,
                        expected: f.sha256.clone(),
                    });
                }
                done += f.bytes;
                r.files += 1;
                r.bytes += f.bytes;
            }
        }
        tick.tick(1.0, "verified")?;
        Ok(r)
    }
}

#[cfg(test)]
/// Lower-case hex SHA-256 of some bytes.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    hex(ring::digest::digest(&ring::digest::SHA256, bytes).as_ref())
}

/// Lower-case hex SHA-256 of a file, read in blocks.
pub(crate) fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut f = std::fs::File::open(path)?;
    let mut ctx = ring::digest::Context::new(&ring::digest::SHA256);
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        ctx.update(&buf[..n]);
    }
    Ok(hex(ctx.finish().as_ref()))
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// An I/O error on `path` while installing a set's file: a full disk said as such (exit 2).
pub(crate) fn write_error(set: &str, file: &str, path: &Path, e: std::io::Error) -> EngineError {
    if e.kind() == std::io::ErrorKind::StorageFull {
        EngineError::DataFile {
            set: set.into(),
            file: file.into(),
            problem: DataProblem::DiskFull {
                path: path.to_path_buf(),
            },
        }
    } else if matches!(
        e.kind(),
        std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem
    ) {
        EngineError::path_flaw(
            path,
            Flaw::with_detail("flaw.data_dir_unwritable", &[&DATA_ENV], e),
        )
    } else {
        EngineError::Io {
            path: path.to_path_buf(),
            source: e,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
