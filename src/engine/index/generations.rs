//! The generations of an index folder and who may touch them: `CURRENT` names the one being
//! read; one build at a time holds the folder's `LOCK` (a second is refused, naming it);
//! every reader holds its generation's `LOCK` shared, and a build names its new generation
//! current and then removes only the generations no reader holds (issue 29: two builds at
//! once left `CURRENT` naming a generation that was gone, and a search racing a rebuild lost
//! its generation under it).
//!
//! ```
//! use tianwang::engine::index::generations::{BuildLock, commit_generation, hold_current, new_generation};
//! let d = tempfile::tempdir().unwrap();
//! let _build = BuildLock::acquire(d.path()).unwrap();
//! assert!(BuildLock::acquire(d.path()).is_err());
//! let g = new_generation(d.path()).unwrap();
//! std::fs::write(g.join("meta.json"), "{}").unwrap();
//! commit_generation(d.path(), &g).unwrap();
//! assert_eq!(hold_current(d.path()).unwrap().unwrap().0, g);
//! ```

use std::path::{Path, PathBuf};

use super::disk::io_err;
use crate::engine::error::{EngineError, Flaw, Result};

/// The generation `CURRENT` names in `dir`, if any.
pub fn current_generation(dir: &Path) -> Result<Option<PathBuf>> {
    use std::io::Read;
    let cur = dir.join("CURRENT");
    // A generation's name is short: read no more than a page of whatever is there.
    let mut head = Vec::new();
    let got = std::fs::File::open(&cur).and_then(|f| f.take(4096).read_to_end(&mut head));
    match got {
        Ok(_) => {
            let s = String::from_utf8_lossy(&head);
            let name = s.trim();
            if name.is_empty() || name.contains('/') || name.contains('\\') || name.contains("..") {
                return Err(EngineError::corrupt(
                    cur,
                    Flaw::new("flaw.current_none", &[]),
                ));
            }
            Ok(Some(dir.join(name)))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_err(&cur, e)),
    }
}

/// The lock file of an index folder that a build holds while it runs.
pub const BUILD_LOCK: &str = "LOCK";
/// The lock file of a generation that its readers hold shared.
const READ_LOCK: &str = "LOCK";

/// A build's hold on an index folder: one build at a time writes into it. Released on drop
/// (and by the system when the process dies, so a killed build never leaves it locked).
#[derive(Debug)]
pub struct BuildLock {
    _file: std::fs::File,
}

impl BuildLock {
    /// Take the folder's build lock, creating the folder; another build holding it is the
    /// user's error naming the lock file (exit 2).
    pub fn acquire(dir: &Path) -> Result<BuildLock> {
        std::fs::create_dir_all(dir).map_err(|e| io_err(dir, e))?;
        let path = dir.join(BUILD_LOCK);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| io_err(&path, e))?;
        match file.try_lock() {
            Ok(()) => Ok(BuildLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(EngineError::path_flaw(
                path,
                Flaw::new("flaw.path_index_locked", &[]),
            )),
            // A file system without locks (some network mounts): build unguarded, as before.
            Err(std::fs::TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => {
                Ok(BuildLock { _file: file })
            }
            Err(std::fs::TryLockError::Error(e)) => Err(io_err(&path, e)),
        }
    }
}

/// A reader's shared hold on a generation: it is not removed while held.
#[derive(Debug)]
pub struct ReadLock {
    _file: Option<std::fs::File>,
}

/// The generation `CURRENT` names, held for reading: a build that names another generation
/// current meanwhile leaves this one in place until the hold is dropped. `None`: no index.
pub fn hold_current(dir: &Path) -> Result<Option<(PathBuf, ReadLock)>> {
    // A build may switch CURRENT and remove the old generation between our reading CURRENT
    // and locking it; then the generation is gone and CURRENT names a newer one: try again.
    for _ in 0..16 {
        let Some(generation) = current_generation(dir)? else {
            return Ok(None);
        };
        let lock_path = generation.join(READ_LOCK);
        let file = match std::fs::File::open(&lock_path) {
            Ok(f) => match f.lock_shared() {
                Ok(()) => Some(f),
                // No locks on this file system: read unguarded, as before.
                Err(e) if e.kind() == std::io::ErrorKind::Unsupported => None,
                Err(e) => return Err(io_err(&lock_path, e)),
            },
            // A generation of format 1 has no lock file; a removed one has no meta either.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(io_err(&lock_path, e)),
        };
        if generation.join("meta.json").exists() {
            return Ok(Some((generation, ReadLock { _file: file })));
        }
        if current_generation(dir)?.as_deref() == Some(generation.as_path()) {
            return Err(EngineError::corrupt(
                dir.join("CURRENT"),
                Flaw::new(
                    "flaw.current_missing",
                    &[&generation
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default()],
                ),
            ));
        }
    }
    Err(EngineError::path_flaw(
        dir.to_path_buf(),
        Flaw::new("flaw.path_index_churn", &[]),
    ))
}

/// A fresh generation directory in `dir` (numbered after every existing one), with its read
/// lock file. The caller holds the folder's [`BuildLock`].
pub fn new_generation(dir: &Path) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).map_err(|e| io_err(dir, e))?;
    let mut next = 1u64;
    for e in std::fs::read_dir(dir)
        .map_err(|e| io_err(dir, e))?
        .flatten()
    {
        if let Some(n) = e
            .file_name()
            .to_str()
            .and_then(|s| s.strip_prefix("gen-"))
            .and_then(|s| s.parse::<u64>().ok())
        {
            next = next.max(n.saturating_add(1));
        }
    }
    let g = dir.join(format!("gen-{next}"));
    std::fs::create_dir(&g).map_err(|e| io_err(&g, e))?;
    let lock = g.join(READ_LOCK);
    std::fs::File::create(&lock).map_err(|e| io_err(&lock, e))?;
    Ok(g)
}

/// Name `generation` current (atomically), then remove every other generation, finished or
/// left over from a killed build — but not one a reader holds ([`hold_current`]): that one
/// goes with a later build.
pub fn commit_generation(dir: &Path, generation: &Path) -> Result<()> {
    commit_generation_syncing(dir, generation, Vec::new())
}

/// [`commit_generation`] that first flushes `files` (the generation's, written unsynced) to
/// disk together with `CURRENT.tmp` — one batch of concurrent `fsync`s
/// ([`super::seal::sync_files`]) — so every one of them is on disk before `CURRENT` names
/// the generation.
pub(crate) fn commit_generation_syncing(
    dir: &Path,
    generation: &Path,
    mut files: Vec<PathBuf>,
) -> Result<()> {
    let name = generation
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| EngineError::Internal("a generation without a name".into()))?;
    let tmp = dir.join("CURRENT.tmp");
    std::fs::write(&tmp, name.as_bytes()).map_err(|e| io_err(&tmp, e))?;
    files.push(tmp.clone());
    super::seal::sync_files(&files)?;
    let cur = dir.join("CURRENT");
    std::fs::rename(&tmp, &cur).map_err(|e| io_err(&cur, e))?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    for e in std::fs::read_dir(dir)
        .map_err(|e| io_err(dir, e))?
        .flatten()
    {
        let n = e.file_name();
        let n = n.to_string_lossy();
        if n.starts_with("gen-") && n != name {
            // Held exclusively while it is removed, so a reader locking it meanwhile finds
            // it gone and reads CURRENT again.
            match std::fs::File::open(e.path().join(READ_LOCK)) {
                Ok(f) => {
                    if f.try_lock().is_ok() {
                        let _ = std::fs::remove_dir_all(e.path());
                    }
                }
                Err(_) => {
                    let _ = std::fs::remove_dir_all(e.path());
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_build_of_one_folder_is_refused_naming_the_lock() {
        let d = tempfile::tempdir().unwrap();
        let first = BuildLock::acquire(d.path()).unwrap();
        let e = BuildLock::acquire(d.path()).unwrap_err();
        assert!(e.is_user_error());
        assert!(e.to_string().contains("another build"), "{e}");
        assert!(e.to_string().contains(BUILD_LOCK), "{e}");
        drop(first);
        BuildLock::acquire(d.path()).unwrap();
    }

    #[test]
    fn a_held_generation_survives_a_newer_commit() {
        let d = tempfile::tempdir().unwrap();
        let g1 = new_generation(d.path()).unwrap();
        std::fs::write(g1.join("meta.json"), "{}").unwrap();
        commit_generation(d.path(), &g1).unwrap();
        let (held, hold) = hold_current(d.path()).unwrap().unwrap();
        assert_eq!(held, g1);
        let g2 = new_generation(d.path()).unwrap();
        std::fs::write(g2.join("meta.json"), "{}").unwrap();
        commit_generation(d.path(), &g2).unwrap();
        assert!(g1.exists(), "removed under its reader");
        drop(hold);
        let g3 = new_generation(d.path()).unwrap();
        std::fs::write(g3.join("meta.json"), "{}").unwrap();
        commit_generation(d.path(), &g3).unwrap();
        assert!(!g1.exists() && !g2.exists());
        assert_eq!(hold_current(d.path()).unwrap().unwrap().0, g3);
    }

    #[test]
    fn current_naming_a_missing_generation_is_damage_naming_current() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("CURRENT"), "gen-9").unwrap();
        let e = hold_current(d.path()).unwrap_err();
        assert!(e.to_string().contains("CURRENT"), "{e}");
        assert!(e.is_user_error());
    }

    #[test]
    fn generations_commit_atomically() {
        let d = tempfile::tempdir().unwrap();
        assert!(current_generation(d.path()).unwrap().is_none());
        let g1 = new_generation(d.path()).unwrap();
        commit_generation(d.path(), &g1).unwrap();
        let g2 = new_generation(d.path()).unwrap();
        assert_ne!(g1, g2);
        // A build that never committed leaves g1 current.
        assert_eq!(current_generation(d.path()).unwrap().unwrap(), g1);
        commit_generation(d.path(), &g2).unwrap();
        assert_eq!(current_generation(d.path()).unwrap().unwrap(), g2);
        assert!(!g1.exists());
    }
}
