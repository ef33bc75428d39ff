//! Chinese text on any machine. The bundled font (Noto Sans CJK SC cut to GB2312 plus Big5
//! level 1 — simplified and common traditional characters; SIL OFL 1.1, `assets/fonts/`) is
//! always installed, so the UI never shows boxes even with no CJK font on the system. When the
//! system has a full CJK font, it goes first so that rarer characters share one design; any
//! character neither has is looked up among the system fonts on demand (with the zh-CN locale,
//! so Han characters get Chinese rather than Japanese glyph shapes).

use std::path::PathBuf;
use std::sync::Arc;

use egui::{FontData, FontDefinitions, FontFamily};

/// The bundled subset font.
pub const BUNDLED_CJK: &[u8] = crate::engine::export::BUNDLED_CJK;
const BUNDLED_NAME: &str = "tianwang-cjk-bundled";
const SYSTEM_NAME: &str = "tianwang-cjk-system";

/// A full CJK font found on this machine.
#[derive(Clone)]
pub struct SystemCjkFont {
    pub path: PathBuf,
    pub index: u32,
    pub bytes: Arc<Vec<u8>>,
}

impl std::fmt::Debug for SystemCjkFont {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}#{}", self.path.display(), self.index)
    }
}

/// Font definitions: egui's Latin fonts, then the system CJK font (if any), then the bundled one.
pub fn definitions(system: Option<&SystemCjkFont>) -> FontDefinitions {
    let mut fd = FontDefinitions::default();
    let mut names = Vec::new();
    if let Some(sys) = system {
        let mut data = FontData::from_owned(sys.bytes.as_ref().clone());
        data.index = sys.index;
        fd.font_data.insert(SYSTEM_NAME.into(), Arc::new(data));
        names.push(SYSTEM_NAME);
    }
    fd.font_data.insert(
        BUNDLED_NAME.into(),
        Arc::new(FontData::from_static(BUNDLED_CJK)),
    );
    names.push(BUNDLED_NAME);
    for family in [FontFamily::Proportional, FontFamily::Monospace] {
        let list = fd.families.entry(family).or_default();
        for n in &names {
            list.push((*n).to_string());
        }
    }
    fd
}

/// Install the bundled font only (deterministic: used by tests and at start-up).
pub fn install_bundled(ctx: &egui::Context) {
    ctx.set_fonts(definitions(None));
}

/// Install with a system CJK font first, and the on-demand system lookup for the rest.
pub fn install_with_system(ctx: &egui::Context, system: Option<&SystemCjkFont>) {
    ctx.set_fonts(definitions(system));
    ctx.set_font_providers(vec![Arc::new(
        egui_system_font_provider::SystemFontProvider::new().with_locale(Some("zh-CN")),
    )]);
}

/// Look for a full Simplified-Chinese font: fontconfig first, then well-known files.
/// Does file I/O: call it off the UI thread.
pub fn find_system_cjk() -> Option<SystemCjkFont> {
    if std::env::var_os("TIANWANG_NO_SYSTEM_FONTS").is_some() {
        return None;
    }
    let mut candidates: Vec<(PathBuf, u32)> = Vec::new();
    if let Ok(out) = std::process::Command::new("fc-match")
        .args(["-f", "%{file}\n%{index}\n%{lang}", "sans-serif:lang=zh-cn"])
        .output()
        && out.status.success()
    {
        let text = String::from_utf8_lossy(&out.stdout);
        let mut lines = text.lines();
        if let (Some(file), Some(index), Some(lang)) = (lines.next(), lines.next(), lines.next())
            && lang.split('|').any(|l| l == "zh-cn")
            && let Ok(index) = index.trim().parse()
        {
            candidates.push((PathBuf::from(file), index));
        }
    }
    for (path, index) in [
        ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2),
        ("/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc", 2),
        (
            "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
            2,
        ),
        (
            "/usr/share/fonts/opentype/noto/NotoSansCJKsc-Regular.otf",
            0,
        ),
        (
            "/usr/share/fonts/adobe-source-han-sans/SourceHanSansSC-Regular.otf",
            0,
        ),
        ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
        ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
        (
            "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
            0,
        ),
        ("C:\\Windows\\Fonts\\msyh.ttc", 0),
        ("C:\\Windows\\Fonts\\simsun.ttc", 0),
        ("/System/Library/Fonts/PingFang.ttc", 0),
        ("/System/Library/Fonts/Hiragino Sans GB.ttc", 0),
    ] {
        candidates.push((PathBuf::from(path), index));
    }
    candidates.into_iter().find_map(|(path, index)| {
        let bytes = std::fs::read(&path).ok()?;
        Some(SystemCjkFont {
            path,
            index,
            bytes: Arc::new(bytes),
        })
    })
}
