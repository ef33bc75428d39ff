//! Embeds the sample corpus (sample_corpora/articles*/<category>/<nn>.txt) into the binary, so
//! the app works out of the box wherever it is installed.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let root = Path::new(&root);
    let mut out = String::from("/// (id, text) of every sample article, sorted by id.\n");
    out.push_str("pub(crate) const ARTICLE_SOURCES: &[(&str, &str)] = &[\n");
    for set in ["articles", "articles_hant"] {
        let dir = root.join("sample_corpora").join(set);
        println!("cargo:rerun-if-changed={}", dir.display());
        let Ok(cats) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut cats: Vec<_> = cats
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        cats.sort();
        for cat in cats {
            let mut files: Vec<_> = std::fs::read_dir(&cat)
                .expect("read category")
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "txt"))
                .collect();
            files.sort();
            for f in files {
                let id = format!(
                    "{set}/{}/{}",
                    cat.file_name().expect("name").to_string_lossy(),
                    f.file_stem().expect("stem").to_string_lossy()
                );
                writeln!(
                    out,
                    "    ({id:?}, include_str!({:?})),",
                    f.display().to_string()
                )
                .expect("write");
            }
        }
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("sample_articles.rs");
    std::fs::write(dest, out).expect("write sample_articles.rs");
}
