//! Every file of an index generation (format 2) ends in an 8-byte footer — `TWCK` and the
//! CRC-32 of the bytes before it, as Lucene's and tantivy's file footers do — verified when
//! the index is opened, so a flipped, zeroed or cut byte anywhere is refused naming the file
//! instead of being searched (issue 29).
//!
//! ```
//! use tianwang::engine::index::seal::{read_sealed, write_sealed};
//! let d = tempfile::tempdir().unwrap();
//! let p = d.path().join("docs.json");
//! write_sealed(&p, b"[]").unwrap();
//! assert_eq!(read_sealed(&p).unwrap(), b"[]");
//! let mut bytes = std::fs::read(&p).unwrap();
//! bytes[0] ^= 1;
//! std::fs::write(&p, &bytes).unwrap();
//! assert!(read_sealed(&p).is_err());
//! ```

use std::io::Write;
use std::path::Path;

use super::disk::{io_err, read};
use crate::engine::error::{EngineError, Flaw, Result};

/// Bytes of the footer that ends every file of a version-2 generation: `TWCK`, CRC-32 (LE).
pub const FOOTER_LEN: usize = 8;
const FOOTER_MAGIC: &[u8; 4] = b"TWCK";

fn footer(crc: u32) -> [u8; FOOTER_LEN] {
    let mut f = [0u8; FOOTER_LEN];
    f[..4].copy_from_slice(FOOTER_MAGIC);
    f[4..].copy_from_slice(&crc.to_le_bytes());
    f
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut c = flate2::Crc::new();
    c.update(bytes);
    c.sum()
}

/// Whether `bytes` end in a footer (not whether it matches).
pub fn has_footer(bytes: &[u8]) -> bool {
    bytes.len() >= FOOTER_LEN && &bytes[bytes.len() - FOOTER_LEN..][..4] == FOOTER_MAGIC
}

/// The body of a sealed file's bytes, its checksum verified; `path` names it in the error.
pub fn unseal<'a>(path: &Path, bytes: &'a [u8]) -> Result<&'a [u8]> {
    if !has_footer(bytes) {
        return Err(EngineError::corrupt(path, Flaw::new("flaw.no_footer", &[])));
    }
    let (body, foot) = bytes.split_at(bytes.len() - FOOTER_LEN);
    let stored = u32::from_le_bytes([foot[4], foot[5], foot[6], foot[7]]);
    if crc32(body) != stored {
        return Err(EngineError::corrupt(path, Flaw::new("flaw.checksum", &[])));
    }
    Ok(body)
}

/// A sealed file read whole, its checksum verified, without its footer.
pub fn read_sealed(path: &Path) -> Result<Vec<u8>> {
    let mut b = read(path)?;
    let n = unseal(path, &b)?.len();
    b.truncate(n);
    Ok(b)
}

/// Verify a sealed file without holding it (read 1 MB at a time); returns its body's length.
pub fn verify_sealed(path: &Path) -> Result<u64> {
    use std::io::Read;
    let mut f = std::fs::File::open(path).map_err(|e| io_err(path, e))?;
    let len = f.metadata().map_err(|e| io_err(path, e))?.len();
    let body = len
        .checked_sub(FOOTER_LEN as u64)
        .ok_or_else(|| EngineError::corrupt(path, Flaw::new("flaw.no_footer", &[])))?;
    let mut c = flate2::Crc::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut left = body;
    while left > 0 {
        let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        f.read_exact(&mut buf[..want])
            .map_err(|e| io_err(path, e))?;
        c.update(&buf[..want]);
        left -= want as u64;
    }
    let mut foot = [0u8; FOOTER_LEN];
    f.read_exact(&mut foot).map_err(|e| io_err(path, e))?;
    if !has_footer(&foot) {
        return Err(EngineError::corrupt(path, Flaw::new("flaw.no_footer", &[])));
    }
    if u32::from_le_bytes([foot[4], foot[5], foot[6], foot[7]]) != c.sum() {
        return Err(EngineError::corrupt(path, Flaw::new("flaw.checksum", &[])));
    }
    Ok(body)
}

/// Append the footer to a file written unsealed (streamed: the file is not held in memory),
/// and flush it to disk.
pub fn seal(path: &Path) -> Result<()> {
    seal_unsynced(path)?.sync_all().map_err(|e| io_err(path, e))
}

/// [`seal`] without the flush to disk: the caller syncs the file (with the rest of its
/// generation, [`sync_files`]) before anything names it. Returns the open file.
pub(crate) fn seal_unsynced(path: &Path) -> Result<std::fs::File> {
    use std::io::Read;
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .open(path)
        .map_err(|e| io_err(path, e))?;
    let mut c = flate2::Crc::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf).map_err(|e| io_err(path, e))?;
        if n == 0 {
            break;
        }
        c.update(&buf[..n]);
    }
    f.write_all(&footer(c.sum())).map_err(|e| io_err(path, e))?;
    Ok(f)
}

/// Write a whole file sealed with its footer, and flush it to disk.
pub fn write_sealed(path: &Path, bytes: &[u8]) -> Result<()> {
    write_sealed_unsynced(path, bytes)?
        .sync_all()
        .map_err(|e| io_err(path, e))
}

/// [`write_sealed`] without the flush to disk (the caller syncs it, [`sync_files`]).
pub(crate) fn write_sealed_unsynced(path: &Path, bytes: &[u8]) -> Result<std::fs::File> {
    let mut f = std::fs::File::create(path).map_err(|e| io_err(path, e))?;
    f.write_all(bytes).map_err(|e| io_err(path, e))?;
    f.write_all(&footer(crc32(bytes)))
        .map_err(|e| io_err(path, e))?;
    Ok(f)
}

/// Flush every file of `paths` to disk (`fsync`), all at once: one thread each, so the
/// file system commits them together (ext4 joins concurrent `fsync`s into one journal
/// commit) instead of one commit after another. The first failure is returned.
pub(crate) fn sync_files(paths: &[std::path::PathBuf]) -> Result<()> {
    let sync = |p: &std::path::PathBuf| -> Result<()> {
        std::fs::File::open(p)
            .and_then(|f| f.sync_all())
            .map_err(|e| io_err(p, e))
    };
    let Some((first, rest)) = paths.split_first() else {
        return Ok(());
    };
    std::thread::scope(|s| {
        let others: Vec<_> = rest.iter().map(|p| s.spawn(move || sync(p))).collect();
        let mut r = sync(first);
        for h in others {
            let got = h
                .join()
                .unwrap_or_else(|_| Err(EngineError::Internal("an fsync thread panicked".into())));
            r = r.and(got);
        }
        r
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_file_refuses_any_flipped_or_cut_byte() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("f.bin");
        let body = b"posting blocks and more".to_vec();
        write_sealed(&p, &body).unwrap();
        assert_eq!(read_sealed(&p).unwrap(), body);
        assert_eq!(verify_sealed(&p).unwrap(), body.len() as u64);
        let good = std::fs::read(&p).unwrap();
        for i in 0..good.len() {
            let mut b = good.clone();
            b[i] ^= 0x10;
            std::fs::write(&p, &b).unwrap();
            assert!(read_sealed(&p).is_err(), "flip at {i}");
            assert!(verify_sealed(&p).is_err(), "flip at {i}");
            std::fs::write(&p, &good[..i]).unwrap();
            let e = read_sealed(&p).unwrap_err();
            assert!(e.to_string().contains("f.bin"), "{e}");
            assert!(verify_sealed(&p).is_err(), "cut at {i}");
        }
        // A file written unsealed and sealed afterwards reads the same.
        std::fs::write(&p, &body).unwrap();
        seal(&p).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), good);
        // The unsynced writers make the same bytes.
        write_sealed_unsynced(&p, &body).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), good);
        std::fs::write(&p, &body).unwrap();
        seal_unsynced(&p).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), good);
    }

    #[test]
    fn sync_files_flushes_every_file_and_names_one_it_cannot() {
        let d = tempfile::tempdir().unwrap();
        let files: Vec<_> = (0..5).map(|i| d.path().join(format!("f{i}"))).collect();
        for f in &files {
            write_sealed_unsynced(f, b"x").unwrap();
        }
        let mut all = files.clone();
        all.push(d.path().to_path_buf());
        sync_files(&all).unwrap();
        sync_files(&[]).unwrap();
        all.insert(2, d.path().join("gone.bin"));
        let e = sync_files(&all).unwrap_err();
        assert!(e.to_string().contains("gone.bin"), "{e}");
    }
}
