//! Fuzz targets of the index's own files: the lexicon, posting blocks in every codec, the
//! document table and meta, and every file of a real index mutated then opened, searched and
//! browsed. A mutation either keeps the file's footer (the checksum must refuse it) or is
//! resealed with a fresh footer, so the parsers behind the checksum meet the damage too.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use tianwang::engine::index::build::{IndexConfig, build};
use tianwang::engine::index::codec::Codec;
use tianwang::engine::index::disk::{self, DocInfo, Meta};
use tianwang::engine::index::reader::Index;
use tianwang::engine::index::score::{Model, RankConfig};
use tianwang::engine::index::search::{SearchOptions, Searcher};
use tianwang::engine::index::source::Source;
use tianwang::engine::index::{browse, disk::read_sealed};

use super::{fuzz, scratch, seed};

const TSV: &str = "北京大学图书馆开放时间\t1\n清华大学图书馆\t1\n北京的天气很好\t2\n\
搜索引擎原理与技术\t3\n北京大学 搜索引擎 天网\t3\n北京 北京 北京 大学\t1\n天网 搜索 北京大学\t2\n";

/// Every file of a generation (links.bin is absent from a TSV build).
const FILES: [&str; 5] = [
    "meta.json",
    "docs.json",
    "lexicon.bin",
    "postings.bin",
    "text.bin",
];

/// A real index built once per process (golomb: a bit codec), and its generation.
fn built() -> &'static (PathBuf, PathBuf) {
    static B: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    B.get_or_init(|| {
        let d = scratch("index_built");
        let tsv = d.join("t.tsv");
        std::fs::write(&tsv, TSV).expect("tsv");
        let ix = d.join("ix");
        let cfg = IndexConfig {
            codec: Codec::Golomb,
            ..IndexConfig::default()
        };
        build(&Source::Tsv { path: tsv }, None, &ix, &cfg, &()).expect("build");
        let g = disk::current_generation(&ix)
            .expect("current")
            .expect("a generation");
        (ix, g)
    })
}

/// A copy of the built index of its own, for the target that mutates files in place: the other
/// targets read the built index while the tests run in parallel.
fn mutable_copy() -> &'static (PathBuf, PathBuf) {
    static C: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    C.get_or_init(|| {
        fn copy_dir(from: &Path, to: &Path) {
            std::fs::create_dir_all(to).expect("copy folder");
            for e in std::fs::read_dir(from)
                .expect("read index folder")
                .flatten()
            {
                let (src, dst) = (e.path(), to.join(e.file_name()));
                if src.is_dir() {
                    copy_dir(&src, &dst);
                } else {
                    std::fs::copy(&src, &dst).expect("copy index file");
                }
            }
        }
        let (ix, g) = built();
        let copy = scratch("index_mutated").join("ix");
        copy_dir(ix, &copy);
        let gen_name = g.file_name().expect("generation folder name");
        (copy.clone(), copy.join(gen_name))
    })
}

/// The bytes of `file` of the built generation (footer included).
fn original(file: &str) -> Vec<u8> {
    std::fs::read(built().1.join(file)).expect("read")
}

#[test]
fn fuzz_index_lexicon() {
    let body = read_sealed(&built().1.join("lexicon.bin")).expect("lexicon");
    fuzz("index_lexicon", vec![body, original("lexicon.bin")], |b| {
        let p = Path::new("lexicon.bin");
        if let Ok(terms) = disk::parse_lexicon(p, b) {
            assert!(terms.windows(2).all(|w| w[0].term < w[1].term));
        }
        if let Ok(body) = disk::unseal(p, b) {
            let _ = disk::parse_lexicon(p, body);
        }
    });
}

#[test]
fn fuzz_index_posting_blocks_in_every_codec() {
    // Seeds: real blocks of the built index, under each codec's selector.
    let lex = disk::read_lexicon(&built().1.join("lexicon.bin")).expect("lexicon");
    let post = read_sealed(&built().1.join("postings.bin")).expect("postings");
    let golomb = Codec::ALL
        .iter()
        .position(|&c| c == Codec::Golomb)
        .unwrap_or(0) as u8;
    let mut seeds: Vec<Vec<u8>> = lex
        .iter()
        .take(16)
        .map(|t| {
            seed(
                golomb,
                &post[t.off as usize..(t.off + u64::from(t.len)) as usize],
            )
        })
        .collect();
    for (i, c) in Codec::ALL.iter().enumerate() {
        let (block, _) = disk::encode_block(
            *c,
            &[0, 3, 4, 90],
            &[1, 2, 1, 3],
            &[1.0, 2.0, 41.0, 3.0],
            &[vec![5], vec![0, 9], vec![2], vec![1, 2, 300]],
        )
        .expect("block");
        seeds.push(seed(i as u8, &block));
    }
    fuzz("index_postings", seeds, |b| {
        let Some((&sel, rest)) = b.split_first() else {
            return;
        };
        let codec = Codec::ALL[usize::from(sel) % Codec::ALL.len()];
        if let Ok(p) = disk::decode_block(codec, rest) {
            assert_eq!(p.docs.len(), p.tfs.len());
            assert_eq!(p.docs.len(), p.wbt.len());
            if let Ok(pos) = p.positions() {
                assert_eq!(pos.len(), p.docs.len());
            }
        }
        let _ = disk::doc_part_len(rest);
    });
}

#[test]
fn fuzz_index_document_table_and_meta() {
    let docs = read_sealed(&built().1.join("docs.json")).expect("docs");
    let meta = read_sealed(&built().1.join("meta.json")).expect("meta");
    fuzz("index_docs", vec![seed(0, &docs), seed(1, &meta)], |b| {
        let Some((&sel, rest)) = b.split_first() else {
            return;
        };
        if sel & 1 == 0 {
            let _ = serde_json::from_slice::<Vec<DocInfo>>(rest);
        } else {
            let _ = serde_json::from_slice::<Meta>(rest);
        }
    });
}

/// Open the index at `ix` and use it as the CLI and the panel do.
fn use_index(ix: &Path) {
    let Ok(index) = Index::open(ix) else {
        return;
    };
    let n = index.len() as u32;
    let terms: Vec<String> = index
        .lexicon()
        .iter()
        .take(8)
        .map(|t| t.term.clone())
        .collect();
    for t in &terms {
        let _ = browse::term_view(&index, t);
    }
    for d in 0..n.min(4) {
        let _ = browse::doc_terms(&index, d);
        let _ = index.text(d);
    }
    let s = Searcher::new(index);
    let opt = SearchOptions {
        top: 5,
        ..SearchOptions::default()
    };
    for (q, model) in [
        ("北京 大学", Model::Bm25),
        ("\"北京 大学\"", Model::Tfidf),
        ("天网 OR 搜索", Model::Tianwang),
    ] {
        let cfg = RankConfig {
            model,
            ..RankConfig::default()
        };
        let _ = s.search(q, &cfg, &opt);
    }
}

#[test]
fn fuzz_index_files_of_a_real_index_mutated() {
    // Selector: the file (low bits) and whether to reseal (0x80). Seeds: each file's body to
    // be resealed, and each file whole.
    let mut seeds = Vec::new();
    for (i, f) in FILES.iter().enumerate() {
        let whole = original(f);
        let body = disk::unseal(Path::new(f), &whole).expect("sealed").to_vec();
        seeds.push(seed(0x80 | i as u8, &body));
        seeds.push(seed(i as u8, &whole));
    }
    fuzz("index_mutated", seeds, |b| {
        let Some((&sel, rest)) = b.split_first() else {
            return;
        };
        let (ix, g) = mutable_copy();
        let file = FILES[usize::from(sel & 0x7F) % FILES.len()];
        let path = g.join(file);
        let keep = original(file);
        if sel & 0x80 != 0 {
            disk::write_sealed(&path, rest).expect("write");
        } else {
            std::fs::write(&path, rest).expect("write");
        }
        use_index(ix);
        std::fs::write(&path, keep).expect("restore");
    });
}
