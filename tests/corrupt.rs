//! A damaged index (issues 23 and 29): each file of a built generation cut short, zeroed,
//! overwritten or with one byte flipped makes `tianwang search` and `tianwang index term|doc`
//! exit 2 with a message naming that file and saying to rebuild — never a panic (101), an
//! abort (134), an internal error (1) or an answer from damaged data (exit 0); `tianwang index
//! build` over it then works again. Two builds of one index at once leave it searchable, and a
//! search racing a rebuild never finds its generation gone. A job's failure reaches the CLI
//! with its own message and exit code.
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut c = Command::new(env!("CARGO_BIN_EXE_tianwang"));
    c.env(
        "TIANWANG_DATA_DIR",
        std::env::temp_dir().join(format!("tianwang-corrupt-data-{}-{n}", std::process::id())),
    );
    c
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Eight short documents; 北京 and 大学 occur in several, so their blocks hold positions.
const TSV: &str = "北京大学图书馆开放时间\t1\n清华大学图书馆\t1\n北京的天气很好\t2\n搜索引擎原理与技术\t3\n北京大学 搜索引擎 天网\t3\n北京 北京 北京 大学\t1\n天网 搜索 北京大学\t2\n图书馆 北京\t2\n";

/// A fresh index of [`TSV`] in a temp dir; returns (the temp dir, the index dir).
fn built(name: &str) -> (tempfile::TempDir, PathBuf) {
    let d = tempfile::Builder::new()
        .prefix(&format!("tianwang-corrupt-{name}-"))
        .tempdir()
        .unwrap();
    let tsv = d.path().join("t.tsv");
    std::fs::write(&tsv, TSV).unwrap();
    let ix = d.path().join("ix");
    let o = run(&["index", "build", "--tsv", s(&tsv), "--out", s(&ix)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    (d, ix)
}

fn generation(ix: &Path) -> PathBuf {
    let name = std::fs::read_to_string(ix.join("CURRENT")).unwrap();
    ix.join(name.trim())
}

/// Every command that reads the index, on `ix`.
fn readers(ix: &Path) -> Vec<Vec<String>> {
    let ix = s(ix).to_string();
    [
        vec!["search", "北京", "--index", &ix],
        vec!["search", "\"北京 大学\"", "--index", &ix, "--explain"],
        vec!["index", "term", "北京", "--index", &ix],
        vec!["index", "doc", "1", "--index", &ix],
    ]
    .into_iter()
    .map(|v| v.into_iter().map(str::to_string).collect())
    .collect()
}

/// `args` exits 2 naming `file` (its full path) and the remedy; no panic, no internal error.
fn refused(args: &[String], file: &Path, damage: &str) {
    let o = bin().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    let what = format!("{damage}: `tianwang {}`", args.join(" "));
    assert_eq!(
        o.status.code(),
        Some(2),
        "{what}: exit {:?}\n{err}",
        o.status
    );
    assert!(!err.contains("panicked"), "{what}: {err}");
    assert!(!err.contains("internal error"), "{what}: {err}");
    assert!(
        err.contains(s(file)),
        "{what}: does not name {file:?}\n{err}"
    );
    assert!(
        err.contains("rebuild the index"),
        "{what}: no remedy\n{err}"
    );
}

/// (file, how it is damaged, what to write over it given its bytes)
type Damage = (&'static str, &'static str, fn(&[u8]) -> Vec<u8>);

const DAMAGES: &[Damage] = &[
    ("lexicon.bin", "cut in half", |b| b[..b.len() / 2].to_vec()),
    ("lexicon.bin", "cut after the header", |b| b[..14].to_vec()),
    ("lexicon.bin", "not a lexicon", |b| vec![b'x'; b.len()]),
    ("postings.bin", "emptied", |_| Vec::new()),
    ("postings.bin", "cut to three bytes", |b| b[..3].to_vec()),
    ("postings.bin", "all 0xFF", |b| vec![0xFF; b.len()]),
    ("postings.bin", "all zero", |b| vec![0; b.len()]),
    ("postings.bin", "noise", |b| noise(b.len())),
    ("docs.json", "cut in half", |b| b[..b.len() / 2].to_vec()),
    ("docs.json", "not JSON", |b| vec![b'{'; b.len()]),
    ("meta.json", "cut in half", |b| b[..b.len() / 2].to_vec()),
];

/// Every file of a generation.
const FILES: [&str; 5] = [
    "meta.json",
    "docs.json",
    "lexicon.bin",
    "postings.bin",
    "text.bin",
];

/// A named way to damage a file's bytes.
type Subtle = (&'static str, fn(&[u8]) -> Vec<u8>);

/// Damage that keeps a file's size or shape: what a checksum must find.
const SUBTLE: &[Subtle] = &[
    ("one byte flipped in the middle", |b| {
        let mut v = b.to_vec();
        let i = v.len() / 2;
        v[i] ^= 0x01;
        v
    }),
    ("one byte flipped near the start", |b| {
        let mut v = b.to_vec();
        let i = 12.min(v.len() - 1);
        v[i] ^= 0x40;
        v
    }),
    ("the last byte flipped", |b| {
        let mut v = b.to_vec();
        let i = v.len() - 1;
        v[i] ^= 0x80;
        v
    }),
    ("zeroed", |b| vec![0; b.len()]),
    ("one byte cut off the end", |b| b[..b.len() - 1].to_vec()),
    ("emptied", |_| Vec::new()),
];

/// Deterministic bytes that look random (an LCG's high bytes).
fn noise(n: usize) -> Vec<u8> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (x >> 56) as u8
        })
        .collect()
}

#[test]
fn a_damaged_index_file_exits_2_naming_it() {
    for (i, (file, how, damage)) in DAMAGES.iter().enumerate() {
        let (_d, ix) = built(&format!("d{i}"));
        let path = generation(&ix).join(file);
        let good = std::fs::read(&path).unwrap();
        std::fs::write(&path, damage(&good)).unwrap();
        let mut refusals = 0;
        for args in readers(&ix) {
            // `index doc` reads no posting block; every other reader of a damaged file must
            // refuse.
            let spared = *file == "postings.bin" && args[1] == "doc";
            let o = bin().args(&args).output().unwrap();
            if spared && o.status.success() {
                continue;
            }
            refused(&args, &path, &format!("{file} {how}"));
            refusals += 1;
        }
        assert!(refusals > 0, "{file} {how}: nothing noticed");
    }
}

#[test]
fn a_flipped_zeroed_or_cut_byte_in_any_index_file_exits_2_naming_it() {
    // Before the footers, a flipped or zeroed postings.bin or text.bin was searched with
    // exit 0 and wrong answers.
    for file in FILES {
        for (j, (how, damage)) in SUBTLE.iter().enumerate() {
            let (_d, ix) = built(&format!("s-{file}-{j}"));
            let path = generation(&ix).join(file);
            let good = std::fs::read(&path).unwrap();
            std::fs::write(&path, damage(&good)).unwrap();
            for args in readers(&ix) {
                refused(&args, &path, &format!("{file} {how}"));
            }
        }
    }
}

#[test]
fn a_resealed_table_that_disagrees_with_the_rest_is_refused() {
    use tianwang::engine::index::disk;
    // A docs.json cut short but still valid JSON, with a footer of its own: the meta says
    // eight documents.
    let (_d, ix) = built("fewer-docs");
    let path = generation(&ix).join("docs.json");
    let docs: Vec<serde_json::Value> =
        serde_json::from_slice(&disk::read_sealed(&path).unwrap()).unwrap();
    disk::write_sealed(&path, &serde_json::to_vec(&docs[..3]).unwrap()).unwrap();
    for args in readers(&ix) {
        refused(&args, &path, "docs.json with 3 of 8 documents");
    }
    // A posting list naming a document beyond the table, with a lexicon and footers that
    // agree: refused when the list is decoded, never `docs[id]` out of bounds.
    let (_d, ix) = built("doc-beyond");
    let g = generation(&ix);
    let lex = disk::read_lexicon(&g.join("lexicon.bin")).unwrap();
    let mut post = Vec::new();
    let mut terms = Vec::new();
    for t in &lex {
        let docs: Vec<u32> = (0..t.df).map(|k| 1000 + k).collect();
        let (block, _) = disk::encode_block(
            tianwang::engine::index::codec::Codec::VByte,
            &docs,
            &vec![1; docs.len()],
            &vec![1.0; docs.len()],
            &vec![vec![0]; docs.len()],
        )
        .unwrap();
        terms.push(disk::Term {
            off: post.len() as u64,
            len: block.len() as u32,
            ..t.clone()
        });
        post.extend_from_slice(&block);
    }
    disk::write_sealed(&g.join("postings.bin"), &post).unwrap();
    disk::write_lexicon(&g.join("lexicon.bin"), &terms).unwrap();
    let path = g.join("postings.bin");
    for args in readers(&ix).iter().filter(|a| a[1] != "doc") {
        refused(args, &path, "postings naming document 1000+");
    }
}

/// A TSV of `n` lines large enough that two builds of it overlap.
fn big_tsv(dir: &Path, n: usize) -> PathBuf {
    let words = [
        "北京",
        "大学",
        "图书馆",
        "搜索",
        "引擎",
        "天网",
        "清华",
        "天气",
    ];
    let mut s = String::new();
    for i in 0..n {
        for k in 0..12 {
            s.push_str(words[(i * 7 + k * 3) % words.len()]);
            s.push(' ');
        }
        s.push_str(&format!("文档{i}\t{}\n", i % 5));
    }
    let p = dir.join("big.tsv");
    std::fs::write(&p, s).unwrap();
    p
}

#[test]
fn two_builds_of_one_index_at_once_leave_it_searchable() {
    let d = tempfile::tempdir().unwrap();
    let tsv = big_tsv(d.path(), 4000);
    for trial in 0..10 {
        let ix = d.path().join(format!("ix{trial}"));
        let start = || {
            bin()
                .args(["index", "build", "--tsv", s(&tsv), "--out", s(&ix)])
                .stderr(std::process::Stdio::piped())
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        };
        let (a, b) = (start(), start());
        let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
        let mut built = 0;
        for o in [&a, &b] {
            let err = String::from_utf8_lossy(&o.stderr);
            match o.status.code() {
                Some(0) => built += 1,
                // The loser is told, naming the lock, with the user's exit code.
                Some(2) => assert!(
                    err.contains("another build of this index is running")
                        && err.contains(s(&ix.join("LOCK"))),
                    "trial {trial}: {err}"
                ),
                c => panic!("trial {trial}: exit {c:?}\n{err}"),
            }
        }
        assert!(built >= 1, "trial {trial}: neither build finished");
        let o = run(&["search", "北京", "--index", s(&ix), "--json"]);
        assert!(
            o.status.success(),
            "trial {trial}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let gens = std::fs::read_dir(&ix)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("gen-"))
            .count();
        assert_eq!(gens, 1, "trial {trial}: old generations left");
    }
}

#[test]
fn a_search_racing_rebuilds_never_finds_its_generation_gone() {
    let d = tempfile::tempdir().unwrap();
    let tsv = big_tsv(d.path(), 1500);
    let ix = d.path().join("ix");
    let o = run(&["index", "build", "--tsv", s(&tsv), "--out", s(&ix)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let builder = {
        let (tsv, ix, done) = (tsv.clone(), ix.clone(), done.clone());
        std::thread::spawn(move || {
            for _ in 0..6 {
                let o = run(&["index", "build", "--tsv", s(&tsv), "--out", s(&ix)]);
                assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            }
            done.store(true, std::sync::atomic::Ordering::Relaxed);
        })
    };
    let mut searches = 0;
    while !done.load(std::sync::atomic::Ordering::Relaxed) {
        let o = run(&["search", "北京 大学", "--index", s(&ix), "--json"]);
        assert!(
            o.status.success(),
            "search {searches}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        searches += 1;
    }
    builder.join().unwrap();
    assert!(searches > 0);
}

#[test]
fn search_on_damaged_postings_refuses_every_query_it_cannot_decode() {
    // The query path decodes 北京's block: with postings.bin overwritten it must refuse.
    let (_d, ix) = built("postings");
    let path = generation(&ix).join("postings.bin");
    let len = std::fs::metadata(&path).unwrap().len() as usize;
    std::fs::write(&path, vec![0xFF; len]).unwrap();
    for args in readers(&ix).iter().filter(|a| a[1] != "doc") {
        refused(args, &path, "postings.bin all 0xFF");
    }
}

#[test]
fn a_current_naming_no_generation_exits_2() {
    let (_d, ix) = built("current");
    let cur = ix.join("CURRENT");
    std::fs::write(&cur, "../elsewhere").unwrap();
    for args in readers(&ix) {
        refused(&args, &cur, "CURRENT ../elsewhere");
    }
}

#[test]
fn rebuilding_over_a_damaged_index_repairs_it() {
    let (d, ix) = built("rebuild");
    let path = generation(&ix).join("lexicon.bin");
    std::fs::write(&path, b"TWLX").unwrap();
    refused(&readers(&ix)[0], &path, "lexicon.bin cut");
    let tsv = d.path().join("t.tsv");
    let o = run(&["index", "build", "--tsv", s(&tsv), "--out", s(&ix)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(&["search", "北京", "--index", s(&ix), "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn no_index_is_exit_2_not_damage() {
    let d = tempfile::tempdir().unwrap();
    let o = run(&["search", "北京", "--index", s(d.path())]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no index here") && err.contains("tianwang index build"),
        "{err}"
    );
}

#[test]
fn a_failed_job_keeps_its_message_and_exit_code_in_the_cli() {
    // `index build --workspace` runs the index-build job; an empty workspace makes it fail with
    // the user's error, which the CLI prints as the job said it (no `job` wrapper) with exit 2.
    let d = tempfile::tempdir().unwrap();
    let ws = d.path().join("empty.tianwang");
    let o = run(&["--workspace", s(&ws), "index", "build"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: invalid parameter `--workspace`:"),
        "{err}"
    );
    assert!(!err.contains("`job`"), "{err}");
}
