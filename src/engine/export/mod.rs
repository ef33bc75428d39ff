//! Export: how does a table or a plot leave the app, for a slide, a report or a spreadsheet?
//!
//! One module every lab calls. A panel turns what it shows into plain data — a [`Table`]
//! (headers and rows of text) or a [`Plot`] (series of points, axis titles with units, the
//! book's reference marks) — and this module writes it:
//!
//! * tables as CSV, UTF-8 with a byte-order mark so spreadsheet programs open Chinese
//!   correctly, fields quoted as RFC 4180 says ([`table`]);
//! * plots as PNG at any size and scale, rendered off-screen with the bundled CJK font, or as
//!   SVG ([`plot`]), with the same colours as on screen and the reference marks drawn.
//!
//! Files are written whole or not at all (a temporary file renamed into place).
//!
//! ```
//! use tianwang::engine::export::{Plot, Series, Table};
//! let t = Table::new("runs", ["id", "F1"]).with_rows([["1", "0.967"], ["2", "0.970"]]);
//! assert!(t.to_csv().starts_with('\u{feff}'));
//! let p = Plot::new("F1 per run", "run", "F1").series(Series::line("F1", [[1.0, 0.967], [2.0, 0.970]]));
//! let png = tianwang::engine::export::plot::render_png(&p, 640, 400, 1.0)?;
//! assert_eq!(&png[1..4], b"PNG");
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

pub mod plot;
pub mod table;

use std::path::Path;

pub use plot::{Mark, Plot, Series, SeriesKind};
pub use table::Table;

use crate::engine::error::{EngineError, Flaw, Result};

/// The bundled CJK font (Noto Sans CJK SC subset, SIL OFL 1.1): the GUI draws with it and
/// exported plots are rendered with it, so Chinese labels look the same in both.
pub(crate) const BUNDLED_CJK: &[u8] =
    include_bytes!("../../../assets/fonts/NotoSansCJKsc-subset.otf");

/// Write `bytes` to `path` whole or not at all: a unique temporary file beside it, then a
/// rename. A failure leaves no partial file (and an existing file at `path` untouched).
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return Err(EngineError::path_flaw(
            dir.to_path_buf(),
            Flaw::new("flaw.path_no_folder", &[]),
        ));
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| {
            EngineError::path_flaw(
                path.to_path_buf(),
                Flaw::new("flaw.path_not_file_name", &[]),
            )
        })?;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let tmp = dir.join(format!(".{name}.{}.{nanos}.tmp", std::process::id()));
    let io = |e: std::io::Error| EngineError::path_os(path.to_path_buf(), e);
    let write = || -> std::io::Result<()> {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io(e)
    })
}

/// What to write a plot as, from the file name's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ImageFormat {
    Png,
    Svg,
}

impl ImageFormat {
    /// `.png` or `.svg` (any case); anything else is the user's mistake.
    pub(crate) fn from_path(path: &Path) -> Result<ImageFormat> {
        match path
            .extension()
            .map(|e| e.to_string_lossy().to_lowercase())
            .as_deref()
        {
            Some("png") => Ok(ImageFormat::Png),
            Some("svg") => Ok(ImageFormat::Svg),
            _ => Err(EngineError::path_flaw(
                path.to_path_buf(),
                Flaw::new("flaw.path_plot_ext", &[]),
            )),
        }
    }
}

/// Save a plot to `path` (PNG or SVG by extension). `scale` multiplies the pixel size of a PNG
/// (2.0 for a projector or a printed page); text and lines grow with it.
pub(crate) fn save_plot(p: &Plot, path: &Path, width: u32, height: u32, scale: f32) -> Result<()> {
    let bytes = match ImageFormat::from_path(path)? {
        ImageFormat::Png => plot::render_png(p, width, height, scale)?,
        ImageFormat::Svg => plot::render_svg(p, width, height)?.into_bytes(),
    };
    write_atomic(path, &bytes)
}

/// Save a table to `path` as CSV (UTF-8 with BOM).
pub(crate) fn save_table(t: &Table, path: &Path) -> Result<()> {
    write_atomic(path, t.to_csv().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_whole_and_leaves_no_temporary() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("out.csv");
        std::fs::write(&p, "old").unwrap();
        write_atomic(&p, b"new contents").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new contents");
        let names: Vec<_> = std::fs::read_dir(d.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary left behind");
        let e = write_atomic(&d.path().join("missing/x.csv"), b"x").unwrap_err();
        assert!(e.is_user_error(), "{e}");
    }

    #[test]
    fn plot_format_comes_from_the_extension() {
        assert_eq!(
            ImageFormat::from_path(Path::new("a.PNG")).unwrap(),
            ImageFormat::Png
        );
        assert_eq!(
            ImageFormat::from_path(Path::new("a.svg")).unwrap(),
            ImageFormat::Svg
        );
        assert!(ImageFormat::from_path(Path::new("a.jpg")).is_err());
    }
}
