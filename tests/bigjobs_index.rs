#![cfg(feature = "bigjobs")]
//! Issue 14, the index build on DataFusion and Spark: the generation an engine build writes is
//! the native build's — postings.bin, lexicon.bin, text.bin, links.bin and docs.json the same
//! bytes, the meta equal but for timings and the engine's own fields — on the sample web in a
//! workspace, on THUCNews titles and on a generated corpus; a DataFusion pool far smaller than
//! the postings spills and changes nothing; `postings-input` round-trips; a file of another
//! schema is exit 2 naming it; the logged job runs with `--engine datafusion`; WARC files reach
//! the index on DataFusion through `export-parquet --warc --what postings-input`.
//!
//! Run with `cargo test --features bigjobs --test bigjobs_index`. Spark cases skip (saying so)
//! without the venv of `scale/setup.sh`, unless `TIANWANG_REQUIRE_SPARK=1`.
mod bigjobs_common;

use bigjobs_common::{
    exits_2_naming, ok_json, path_str, run, sample_warc, sample_workspace, scratch, spark_config,
    spark_ready,
};
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::Value;
use tianwang::engine::exec::{Engine, EngineConfig};
use tianwang::engine::index::build::IndexConfig;
use tianwang::engine::index::build_on;
use tianwang::engine::index::disk::{self, Meta};
use tianwang::engine::index::on_engine::{self, read};
use tianwang::engine::index::reader::Index;
use tianwang::engine::index::source::Source;

fn engine(e: Engine, pool_mb: usize) -> EngineConfig {
    EngineConfig {
        memory_mb: pool_mb,
        ..EngineConfig::new(e)
    }
}

fn current(dir: &Path) -> PathBuf {
    let name = std::fs::read_to_string(dir.join("CURRENT")).unwrap();
    dir.join(name.trim())
}

/// The two indexes are the same: every data file byte for byte, the meta but for the fields
/// that describe the process (when, how long, where, runs/buffer of the sort).
fn assert_same_index(native: &Path, other: &Path, what: &str) {
    let (a, b) = (current(native), current(other));
    for f in [
        "postings.bin",
        "lexicon.bin",
        "text.bin",
        "docs.json",
        "links.bin",
    ] {
        let (x, y) = (std::fs::read(a.join(f)).ok(), std::fs::read(b.join(f)).ok());
        assert_eq!(x.is_some(), y.is_some(), "{what}: {f} present in one only");
        assert!(x == y, "{what}: {f} differs");
    }
    let meta = |g: &Path| -> Value {
        // meta.json ends in its checksum footer (format 2): read it verified, without it.
        let mut v: Value =
            serde_json::from_slice(&disk::read_sealed(&g.join("meta.json")).unwrap()).unwrap();
        for k in ["built_at", "timings", "engine", "runs", "peak_buffer_bytes"] {
            v.as_object_mut().unwrap().remove(k);
        }
        v
    };
    assert_eq!(meta(&a), meta(&b), "{what}: meta differs");
}

fn native(src: &Source, out: &Path, cfg: &IndexConfig) -> Meta {
    build_on(src, None, out, cfg, &EngineConfig::default(), &()).unwrap()
}

/// THUCNews titles (real text), `n` lines.
fn thucnews(dir: &Path, n: usize) -> PathBuf {
    let data = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/classification/thucnews_titles/dev.txt");
    let text = std::fs::read_to_string(&data).unwrap();
    let p = dir.join("thucnews.tsv");
    let lines: Vec<&str> = text.lines().take(n).collect();
    assert_eq!(lines.len(), n);
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p
}

/// A generated corpus: `docs` lines of `words` Latin tokens from a skewed vocabulary.
fn generated(dir: &Path, docs: usize, words: usize) -> PathBuf {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut out = String::new();
    for _ in 0..docs {
        let line: Vec<String> = (0..words)
            .map(|_| {
                // Skewed: small ids far more often (a product of two uniforms).
                let a = next() % 3000;
                let b = next() % 3000;
                format!("w{}", a * b / 3000)
            })
            .collect();
        out.push_str(&line.join(" "));
        out.push_str("\t0\n");
    }
    let p = dir.join("generated.tsv");
    std::fs::write(&p, out).unwrap();
    p
}

#[test]
fn datafusion_and_spark_equal_native_on_thucnews_titles() {
    let d = scratch("thuc");
    let tsv = thucnews(&d, 3000);
    let src = Source::Tsv { path: tsv };
    let cfg = IndexConfig::default();
    let t = Instant::now();
    let m0 = native(&src, &d.join("native"), &cfg);
    eprintln!("native: {:.1} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let m1 = build_on(
        &src,
        None,
        &d.join("df"),
        &cfg,
        &engine(Engine::DataFusion, 256),
        &(),
    )
    .unwrap();
    eprintln!("datafusion: {:.1} s", t.elapsed().as_secs_f64());
    assert_eq!(m1.engine.engine, Engine::DataFusion);
    assert_eq!(m1.engine.tuples, m0.postings);
    assert!(m0.postings > 10_000, "{}", m0.postings);
    assert_same_index(&d.join("native"), &d.join("df"), "thucnews datafusion");
    // Another codec: the d-gaps are encoded by the same merge.
    let golomb = IndexConfig {
        codec: tianwang::engine::index::codec::Codec::Golomb,
        ..IndexConfig::default()
    };
    native(&src, &d.join("native-golomb"), &golomb);
    build_on(
        &src,
        None,
        &d.join("df-golomb"),
        &golomb,
        &engine(Engine::DataFusion, 256),
        &(),
    )
    .unwrap();
    assert_same_index(&d.join("native-golomb"), &d.join("df-golomb"), "golomb");
    if spark_ready() {
        let t = Instant::now();
        let m2 = build_on(&src, None, &d.join("spark"), &cfg, &spark_config(), &()).unwrap();
        eprintln!("spark: {:.1} s", t.elapsed().as_secs_f64());
        assert_eq!(m2.engine.engine, Engine::Spark);
        assert_same_index(&d.join("native"), &d.join("spark"), "thucnews spark");
    }
}

#[test]
fn datafusion_and_spark_equal_native_on_the_sample_web() {
    let d = scratch("web");
    let ws = sample_workspace(&d);
    let src = Source::Workspace {
        path: Some(ws.clone()),
    };
    let cfg = IndexConfig::default();
    let m0 = native(&src, &d.join("native"), &cfg);
    assert!(m0.docs > 100, "{}", m0.docs);
    assert!(current(&d.join("native")).join("links.bin").exists());
    let m1 = build_on(
        &src,
        None,
        &d.join("df"),
        &cfg,
        &engine(Engine::DataFusion, 64),
        &(),
    )
    .unwrap();
    assert_eq!(m1.workspace_snapshot, m0.workspace_snapshot);
    assert_same_index(&d.join("native"), &d.join("df"), "sample web datafusion");
    // The same answers through the query service.
    let (a, b) = (
        Index::open(&d.join("native")).unwrap(),
        Index::open(&d.join("df")).unwrap(),
    );
    for q in ["北京", "大学", "搜索"] {
        let (ta, tb) = (a.term(q), b.term(q));
        assert_eq!(ta.is_some(), tb.is_some());
        if let (Some(ta), Some(tb)) = (ta, tb) {
            assert_eq!(a.postings(ta).unwrap(), b.postings(tb).unwrap(), "{q}");
        }
    }
    if spark_ready() {
        let t = Instant::now();
        build_on(&src, None, &d.join("spark"), &cfg, &spark_config(), &()).unwrap();
        eprintln!(
            "spark on the sample web: {:.1} s",
            t.elapsed().as_secs_f64()
        );
        assert_same_index(&d.join("native"), &d.join("spark"), "sample web spark");
    }
}

#[test]
fn a_pool_smaller_than_the_postings_spills_and_the_index_is_identical() {
    let d = scratch("spill");
    let tsv = generated(&d, 20_000, 100);
    let src = Source::Tsv { path: tsv };
    // A native build with a small postings buffer: several runs merged.
    let cfg = IndexConfig {
        memory_mb: 8,
        ..IndexConfig::default()
    };
    let t = Instant::now();
    let m0 = native(&src, &d.join("native"), &cfg);
    eprintln!(
        "native: {:.1} s, {} postings, {} runs",
        t.elapsed().as_secs_f64(),
        m0.postings,
        m0.runs
    );
    assert!(m0.runs > 1, "{} runs", m0.runs);
    assert!(m0.postings > 800_000, "{}", m0.postings);
    let t = Instant::now();
    let m1 = build_on(
        &src,
        None,
        &d.join("df"),
        &cfg,
        &engine(Engine::DataFusion, 32),
        &(),
    )
    .unwrap();
    eprintln!(
        "datafusion, 32 MB pool: {:.1} s, {} bytes spilled, {} tuples sorted",
        t.elapsed().as_secs_f64(),
        m1.engine.spilled_bytes,
        m1.engine.tuples
    );
    assert_eq!(m1.engine.pool_mb, 32);
    assert!(m1.engine.spilled_bytes > 0, "{:?}", m1.engine);
    assert_same_index(&d.join("native"), &d.join("df"), "generated, spilled");
    // The smallest pool (16 MB) on one partition: more spilled, still the same bytes.
    let t = Instant::now();
    let one = EngineConfig {
        partitions: 1,
        ..engine(Engine::DataFusion, 16)
    };
    let m2 = build_on(&src, None, &d.join("df16"), &cfg, &one, &()).unwrap();
    eprintln!(
        "datafusion, 16 MB pool, 1 partition: {:.1} s, {} bytes spilled",
        t.elapsed().as_secs_f64(),
        m2.engine.spilled_bytes
    );
    assert!(m2.engine.spilled_bytes > m1.engine.spilled_bytes);
    assert_same_index(&d.join("native"), &d.join("df16"), "generated, 16 MB");
}

#[test]
fn postings_input_round_trips_and_matches_the_native_postings() {
    let d = scratch("roundtrip");
    let tsv = thucnews(&d, 800);
    let src = Source::Tsv { path: tsv.clone() };
    let cfg = IndexConfig::default();
    let m = native(&src, &d.join("native"), &cfg);
    let ex = on_engine::export(&src, None, &cfg, &d.join("pq"), &()).unwrap();
    assert_eq!(ex.tuples, m.postings);
    assert_eq!(ex.n_docs as u64, m.docs);
    let rows = read::read_postings_input(&ex.postings).unwrap();
    assert_eq!(rows.len() as u64, m.postings);
    // Term ids by first appearance: each new id is the next number.
    let mut next = 0u32;
    for r in &rows {
        assert!(
            r.posting.term <= next,
            "term id {} before {next}",
            r.posting.term
        );
        if r.posting.term == next {
            next += 1;
        }
    }
    assert_eq!(next as u64, m.terms);
    // Every tuple is a posting of the native index, with its tf, WBT and positions.
    let ix = Index::open(&d.join("native")).unwrap();
    let mut lists = std::collections::HashMap::new();
    for r in &rows {
        let p = lists.entry(r.term.clone()).or_insert_with(|| {
            let t = ix
                .term(&r.term)
                .unwrap_or_else(|| panic!("{} not indexed", r.term));
            let p = ix.postings(t).unwrap();
            let pos = p.positions().unwrap();
            (p, pos)
        });
        let k = p.0.docs.iter().position(|&x| x == r.posting.doc).unwrap();
        assert_eq!(p.0.tfs[k], r.posting.tf);
        assert_eq!(p.0.wbt[k].to_bits(), r.posting.wbt.to_bits());
        assert_eq!(p.1[k], r.posting.positions);
    }
    // The documents' file: the native entries and stored text.
    let docs: Vec<Value> = serde_json::from_slice(
        &disk::read_sealed(&current(&d.join("native")).join("docs.json")).unwrap(),
    )
    .unwrap();
    let text = std::fs::read(current(&d.join("native")).join("text.bin")).unwrap();
    let mut n = 0;
    read::for_each_doc(&ex.docs, |row| {
        let nd = &docs[row.doc as usize];
        assert_eq!(nd["key"], row.info.key.as_str());
        assert_eq!(nd["title"], row.info.title.as_str());
        assert_eq!(nd["len"], row.info.len);
        assert_eq!(nd["chars"], row.info.chars);
        let (off, len) = (
            nd["text_off"].as_u64().unwrap() as usize,
            nd["text_len"].as_u64().unwrap() as usize,
        );
        assert_eq!(&text[off..off + len], row.text.as_bytes());
        n += 1;
        Ok(())
    })
    .unwrap();
    assert_eq!(n, m.docs);
    // The CLI writes the same rows.
    let v = ok_json(&run(&[
        "export-parquet",
        "--what",
        "postings-input",
        "--tsv",
        path_str(&tsv),
        "--out",
        path_str(&d.join("cli")),
        "--json",
    ]));
    assert_eq!(v["rows"], m.postings);
    let cli_rows = read::read_postings_input(&d.join("cli/postings-input.parquet")).unwrap();
    assert!(cli_rows == rows, "the CLI's export differs");
    // …and `index build --postings-input` reads it back into the native index.
    let v = ok_json(&run(&[
        "index",
        "build",
        "--postings-input",
        path_str(&d.join("cli")),
        "--engine",
        "datafusion",
        "--out",
        path_str(&d.join("from-parquet")),
        "--json",
    ]));
    assert_eq!(v["engine"]["engine"], "datafusion", "{v}");
    assert_same_index(
        &d.join("native"),
        &d.join("from-parquet"),
        "from postings-input",
    );
    // The native engine does not sort a postings-input folder.
    let o = run(&[
        "index",
        "build",
        "--postings-input",
        path_str(&d.join("cli")),
        "--out",
        path_str(&d.join("x")),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--engine"));
}

#[test]
fn a_file_of_another_schema_is_bad_input_naming_it() {
    let d = scratch("wrong");
    let tsv = thucnews(&d, 50);
    let ex = on_engine::export(
        &Source::Tsv { path: tsv },
        None,
        &IndexConfig::default(),
        &d.join("pq"),
        &(),
    )
    .unwrap();
    // A postings-docs file where postings-input is expected, and the other way round.
    let e = read::read_postings_input(&ex.docs).unwrap_err();
    assert_eq!(tianwang::cli::exit_code(&e.into()), 2);
    let e = read::read_postings_input(&ex.docs).unwrap_err().to_string();
    assert!(e.contains("postings-docs.parquet"), "{e}");
    let e = read::for_each_doc(&ex.postings, |_| Ok(())).unwrap_err();
    assert!(e.to_string().contains("postings-input.parquet"), "{e}");
    // Through the CLI: a folder whose postings-input is a postings-docs file, refused before
    // any engine work, exit 2 naming the file.
    let wrong = d.join("wrong");
    std::fs::create_dir_all(&wrong).unwrap();
    std::fs::copy(&ex.docs, wrong.join("postings-input.parquet")).unwrap();
    std::fs::copy(&ex.docs, wrong.join("postings-docs.parquet")).unwrap();
    let o = run(&[
        "index",
        "build",
        "--postings-input",
        path_str(&wrong),
        "--engine",
        "datafusion",
        "--out",
        path_str(&d.join("out")),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("wrong/postings-input.parquet"), "{err}");
    assert!(!d.join("out").join("CURRENT").exists());
    // Not Parquet at all.
    std::fs::write(wrong.join("postings-input.parquet"), "term\tdoc\n").unwrap();
    let o = run(&[
        "index",
        "build",
        "--postings-input",
        path_str(&wrong),
        "--engine",
        "datafusion",
        "--out",
        path_str(&d.join("out")),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("postings-input.parquet"), "{err}");
}

#[test]
fn the_logged_job_builds_on_datafusion_in_a_workspace() {
    let d = scratch("job");
    let ws = sample_workspace(&d);
    let v = ok_json(&run(&[
        "--workspace",
        path_str(&ws),
        "index",
        "build",
        "--engine",
        "datafusion",
        "--pool-mb",
        "32",
        "--json",
    ]));
    assert_eq!(v["engine"]["engine"], "datafusion", "{v}");
    assert_eq!(v["engine"]["pool_mb"], 32);
    assert!(v["docs"].as_u64().unwrap() > 100);
    let jobs = ok_json(&run(&["--workspace", path_str(&ws), "jobs", "--json"]));
    let j = jobs.to_string();
    assert!(
        j.contains("index-build") && j.contains("datafusion"),
        "{jobs}"
    );
    // The index serves searches, and equals a native build of the same workspace.
    let r = ok_json(&run(&[
        "--workspace",
        path_str(&ws),
        "search",
        "北京",
        "--json",
    ]));
    assert!(r["total_hits"].as_u64().unwrap() > 0, "{r}");
    let out = d.join("native.index");
    ok_json(&run(&[
        "--workspace",
        path_str(&ws),
        "index",
        "build",
        "--out",
        path_str(&out),
        "--json",
    ]));
    assert_same_index(
        &out,
        &tianwang::engine::index::reader::sidecar(&ws),
        "the job",
    );
    // Bad flags exit 2 naming them.
    let o = run(&[
        "--workspace",
        path_str(&ws),
        "index",
        "build",
        "--engine",
        "hadoop",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--engine"));
    let o = run(&[
        "--workspace",
        path_str(&ws),
        "index",
        "build",
        "--engine",
        "datafusion",
        "--cluster",
        "spark://h:7077",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--cluster"));
}

/// WARC files to the index on an engine: `export-parquet --warc FILE --what postings-input`
/// writes the analysis of every HTML response, `index build --postings-input DIR --engine
/// datafusion` sorts it into the index `index build --warc FILE` builds natively (the same
/// bytes and meta); a missing file exits 2 naming it and writes nothing; `--warc` writes
/// pages or postings-input only.
#[test]
fn warc_files_reach_the_index_through_postings_input_on_datafusion() {
    let d = scratch("warc");
    let (_, warc) = sample_warc(&d);
    let n = ok_json(&run(&[
        "index",
        "build",
        "--warc",
        path_str(&warc),
        "--out",
        path_str(&d.join("native")),
        "--json",
    ]));
    assert!(n["docs"].as_u64().unwrap() > 20, "{n}");
    let pq = d.join("pq");
    let e = ok_json(&run(&[
        "export-parquet",
        "--warc",
        path_str(&warc),
        "--what",
        "postings-input",
        "--out",
        path_str(&pq),
        "--json",
    ]));
    assert_eq!(e["docs"], n["docs"], "{e}");
    assert_eq!(e["rows"], n["postings"], "{e}");
    let v = ok_json(&run(&[
        "index",
        "build",
        "--postings-input",
        path_str(&pq),
        "--engine",
        "datafusion",
        "--pool-mb",
        "64",
        "--out",
        path_str(&d.join("df")),
        "--json",
    ]));
    assert_eq!(v["engine"]["engine"], "datafusion", "{v}");
    assert_eq!(v["source"], "warc 1 files", "{v}");
    assert_same_index(&d.join("native"), &d.join("df"), "warc on datafusion");
    let none = d.join("none");
    exits_2_naming(
        &[
            "export-parquet",
            "--warc",
            path_str(&d.join("nope.warc")),
            "--what",
            "postings-input",
            "--out",
            path_str(&none),
        ],
        "nope.warc",
    );
    assert!(!none.join("postings-input.parquet").exists());
    exits_2_naming(
        &[
            "export-parquet",
            "--warc",
            path_str(&warc),
            "--what",
            "links",
            "--out",
            path_str(&none),
        ],
        "--what",
    );
}
