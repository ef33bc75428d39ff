//! A damaged index (issue 23): each file of a built generation cut short or overwritten makes
//! `tianwang search` and `tianwang index term|doc` exit 2 with a message naming that file and
//! saying to rebuild, never a panic (101) or an internal error (1); `tianwang index build`
//! over it then works again. A job's failure reaches the CLI with its own message and exit code.
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
