//! Importing sets from a local copy laid out as the shared data folder (a teacher's USB stick,
//! a school's share, CI's copy of the project's shared data folder): every file is copied into staging
//! while it is hashed, compared with the manifest, and the set is installed only when all of
//! its files are right.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::install::{install, make_dir, staged};
use super::{DataDir, DataSet, write_error};
use crate::engine::error::{DataProblem, EngineError, Flaw, Result};
use crate::engine::jobs::Tick;

/// What an import did.
#[derive(Debug, Clone, Serialize, Default, serde::Deserialize)]
pub struct ImportReport {
    pub from: PathBuf,
    /// Sets installed (every checksum verified).
    pub installed: Vec<String>,
    /// Sets the copy does not hold at all (asked for by `--all`, so skipped).
    pub not_in_copy: Vec<String>,
    pub files: usize,
    pub bytes: u64,
}

/// Install `sets` from the copy at `from`. A set the copy lacks entirely is skipped when
/// `skip_absent` (importing everything a copy has), else it is an error naming its first file;
/// a set the copy holds in part, or with a file that is not the published one, is an error
/// naming the set and the file, and nothing of that set is installed.
pub fn import(
    dir: &DataDir,
    from: &Path,
    sets: &[&DataSet],
    skip_absent: bool,
    tick: &dyn Tick,
) -> Result<ImportReport> {
    if !from.is_dir() {
        return Err(EngineError::path_flaw(
            from.to_path_buf(),
            Flaw::new("flaw.path_not_data_copy", &[]),
        ));
    }
    if same_folder(from, dir.root()) {
        return Err(EngineError::path_flaw(
            from.to_path_buf(),
            Flaw::new("flaw.path_is_data_folder", &[]),
        ));
    }
    let mut r = ImportReport {
        from: from.to_path_buf(),
        ..Default::default()
    };
    let present = |s: &DataSet| {
        s.files
            .iter()
            .filter(|f| s.file_in(from, f).is_file())
            .count()
    };
    let todo: Vec<&DataSet> = sets
        .iter()
        .copied()
        .filter(|s| {
            let absent = present(s) == 0;
            if absent && skip_absent {
                r.not_in_copy.push(s.name.clone());
            }
            !(absent && skip_absent)
        })
        .collect();
    let total = todo.iter().map(|s| s.bytes()).sum::<u64>().max(1);
    let mut done = 0u64;
    for s in todo {
        for f in &s.files {
            tick.tick(
                done as f32 / total as f32,
                &format!("{}/{}", s.name, f.path),
            )?;
            let src = s.file_in(from, f);
            if !src.is_file() {
                return Err(EngineError::DataFile {
                    set: s.name.clone(),
                    file: f.path.clone(),
                    problem: DataProblem::Missing { path: src },
                });
            }
            let dst = staged(dir, s, &f.path);
            let found = copy_hashed(s, &f.path, &src, &dst)?;
            if found != f.sha256 {
                let _ = std::fs::remove_file(&dst);
                return Err(EngineError::DataFile {
                    set: s.name.clone(),
                    file: f.path.clone(),
                    problem: DataProblem::Checksum {
                        expected: f.sha256.clone(),
                        found,
                    },
                });
            }
            done += f.bytes;
            r.files += 1;
            r.bytes += f.bytes;
        }
        install(dir, s, &format!("import {}", from.display()))?;
        r.installed.push(s.name.clone());
    }
    tick.tick(1.0, "imported")?;
    Ok(r)
}

/// Copy `src` to `dst` (parents created), returning the SHA-256 of what was written.
fn copy_hashed(set: &DataSet, file: &str, src: &Path, dst: &Path) -> Result<String> {
    if let Some(parent) = dst.parent() {
        make_dir(&set.name, parent)?;
    }
    let mut input =
        std::fs::File::open(src).map_err(|e| EngineError::path_os(src.to_path_buf(), e))?;
    let mut out = std::fs::File::create(dst).map_err(|e| write_error(&set.name, file, dst, e))?;
    let mut ctx = ring::digest::Context::new(&ring::digest::SHA256);
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = input
            .read(&mut buf)
            .map_err(|e| EngineError::path_os(src.to_path_buf(), e))?;
        if n == 0 {
            break;
        }
        ctx.update(&buf[..n]);
        out.write_all(&buf[..n])
            .map_err(|e| write_error(&set.name, file, dst, e))?;
    }
    out.sync_all()
        .map_err(|e| write_error(&set.name, file, dst, e))?;
    Ok(super::hex(ctx.finish().as_ref()))
}

fn same_folder(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
