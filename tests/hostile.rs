//! Issue 29, "nothing a stranger writes can crash it", through the real binary: each finding
//! of the hostile-user pass re-tried. No command hangs (30 s), panics (101), aborts (134) or
//! crashes (139); a flag out of range or a bad line exits 2 naming the flag or `file:line`;
//! a log mixing encodings keeps every line; file names keep their identity.
//!
//! (The index's own files are `tests/corrupt.rs`; the parsers' fuzz targets `tests/fuzz.rs`.)

mod common;

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{bin, ok_json, path_str, scratch, shared_data, write};

/// Runs `args`, killing it after `secs`: a hang fails the test instead of stalling it.
fn run_within(args: &[&str], secs: u64) -> Output {
    run_cmd_within(bin().args(args), args, secs)
}

fn run_cmd_within(cmd: &mut Command, what: &[&str], secs: u64) -> Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tianwang");
    let t0 = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if t0.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what:?} still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `args` exits 2 (within 30 s) with every one of `names` in its message, and no trace of
/// a panic or of the `invalid parameter `job`` wrapping.
fn refused(args: &[&str], names: &[&str]) -> String {
    let o = run_within(args, 30);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    for n in names {
        assert!(err.contains(n), "{args:?}: `{n}` not in {err}");
    }
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(!err.contains("`job`"), "{args:?}: {err}");
    err
}

// ---- cache ----

#[test]
fn lirs_with_byte_sizes_terminates_on_the_seven_line_csv() {
    let d = scratch("lirs");
    let t = write(
        &d,
        "t.csv",
        "k5,4096\nk9,512\nk16,1024\nk16,4096\nk1,1024\nk14,4096\nk1,512\n",
    );
    let args = [
        "cache",
        "sim",
        "--trace",
        &t,
        "--format",
        "csv",
        "--size-column",
        "2",
        "--bytes",
        "--policy",
        "lirs",
        "--size",
        "4k",
        "--json",
    ];
    let v = ok_json(&run_within(&args, 30));
    assert_eq!(v["requests"], 7);
}

#[test]
fn lirs_with_byte_sizes_terminates_on_cloudphysics() {
    let Some(csv) = shared_data("cache/cloudphysics/cloudPhysicsIO.csv") else {
        return;
    };
    let args = [
        "cache",
        "sim",
        "--trace",
        path_str(&csv),
        "--format",
        "csv",
        "--key-column",
        "5",
        "--size-column",
        "4",
        "--bytes",
        "--policy",
        "lirs",
        "--size",
        "2k,64k,1m",
        "--json",
    ];
    let v = ok_json(&run_within(&args, 60));
    assert_eq!(v["results"].as_array().unwrap().len(), 3);
}

#[test]
fn generated_streams_refuse_counts_out_of_range_before_allocating() {
    for spec in [
        "zipf:alpha=1,objects=100,requests=1000000000000",
        "zipf:alpha=1,objects=100000000000",
        "zipf:alpha=1,objects=99999999999999999999999",
        "zipf:objects=-5",
        "zipf:objects=1.5",
        "zipf:alpha=nan",
    ] {
        refused(
            &["cache", "sim", "--generate", spec, "--json"],
            &["--generate"],
        );
    }
    for scale in ["-1", "0", "nan", "1e12", "inf"] {
        let spec = format!("ch9:scale={scale}");
        refused(
            &["cache", "sim", "--generate", &spec, "--json"],
            &["--generate", "scale"],
        );
    }
    let err = refused(
        &[
            "cache",
            "sim",
            "--generate",
            "zipf:alpha=1,alpha=2",
            "--json",
        ],
        &["--generate", "alpha", "twice"],
    );
    // One flag named once: no "invalid parameter" inside "invalid parameter".
    assert_eq!(err.matches("invalid parameter").count(), 1, "{err}");
}

#[test]
fn sweep_points_and_range_are_bounded() {
    let gen_ = "zipf:alpha=1,objects=1000,requests=10000";
    refused(
        &[
            "cache",
            "sweep",
            "--generate",
            gen_,
            "--points",
            "100000",
            "--json",
        ],
        &["--points"],
    );
    refused(
        &[
            "cache",
            "sweep",
            "--generate",
            gen_,
            "--min",
            "100",
            "--max",
            "10",
            "--json",
        ],
        &["--max", "--min"],
    );
}

#[test]
fn an_access_log_read_past_2_64_names_its_line() {
    let d = scratch("access");
    let log = write(&d, "a.log", "1 0 0 100\n1 0 18446744073709551615 100\n");
    refused(
        &["cache", "sim", "--access-log", &log, "--json"],
        &[&format!("{log}:2")],
    );
    let log = write(&d, "b.log", "1 4294967296 0 100\n");
    refused(
        &["cache", "sim", "--access-log", &log, "--json"],
        &[&format!("{log}:1")],
    );
}

#[test]
fn a_page_view_of_a_terabyte_read_in_one_byte_pages_is_refused() {
    let d = scratch("pages");
    // A read longer than 4 GB is no read: the line is named.
    let log = write(&d, "huge.log", "1 0 0 1000000000000\n");
    refused(
        &["cache", "sim", "--access-log", &log, "--json"],
        &[&format!("{log}:1")],
    );
    let log = write(&d, "a.log", "1 0 0 4000000000\n");
    let out = d.join("t.csv");
    refused(
        &[
            "cache",
            "sim",
            "--access-log",
            &log,
            "--view",
            "page",
            "--page-size",
            "1",
            "--json",
        ],
        &["--page-size"],
    );
    refused(
        &[
            "cache",
            "trace",
            "--access-log",
            &log,
            "--view",
            "page",
            "--page-size",
            "1",
            "--out",
            path_str(&out),
        ],
        &["--page-size"],
    );
}

#[test]
fn a_folder_given_as_a_trace_or_log_says_so() {
    let d = scratch("folder");
    let p = path_str(&d);
    for flag in ["--trace", "--access-log"] {
        refused(&["cache", "sim", flag, p, "--json"], &["a folder", flag]);
    }
}

#[test]
fn a_folder_given_as_a_query_log_says_so() {
    let d = scratch("qfolder");
    refused(
        &["querylog", "stats", path_str(&d), "--json"],
        &["a folder", path_str(&d)],
    );
}

#[test]
fn a_trace_mixing_gb18030_and_utf8_lines_keeps_every_key() {
    let d = scratch("mixed");
    let mut bytes = encoding_rs::GB18030.encode("天网\n北大\n天网\n").0.to_vec();
    bytes.extend_from_slice("天网\n北大\n".as_bytes());
    let t = write(&d, "t.txt", &bytes);
    let v = ok_json(&run_within(
        &["cache", "sim", "--trace", &t, "--size", "1", "--json"],
        30,
    ));
    assert_eq!(v["requests"], 5);
    // Per-line decoding: the UTF-8 天网 is the GB18030 天网, not 澶╃綉.
    assert_eq!(v["distinct"], 2, "{v}");
}

#[test]
fn replay_queries_that_are_not_utf8_name_the_line() {
    let d = scratch("replay");
    let tsv = write(&d, "t.tsv", "北京大学\t1\n清华大学\t2\n");
    let ix = d.join("ix");
    let o = run_within(
        &["index", "build", "--tsv", &tsv, "--out", path_str(&ix)],
        60,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let q = write(&d, "q.txt", b"\xe5\x8c\x97\xe4\xba\xac\n\xb1\xb1\xbe\xa9\n");
    let out = d.join("t.csv");
    refused(
        &[
            "cache",
            "trace",
            "--index",
            path_str(&ix),
            "--queries",
            &q,
            "--out",
            path_str(&out),
        ],
        &[&format!("{q}:2"), "UTF-8"],
    );
}

// ---- index ----

#[test]
fn search_with_a_huge_top_and_page_does_not_panic() {
    let d = scratch("top");
    let tsv = write(&d, "t.tsv", "北京大学\t1\n清华大学\t2\n北京\t1\n");
    let ix = d.join("ix");
    let o = run_within(
        &["index", "build", "--tsv", &tsv, "--out", path_str(&ix)],
        60,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = ok_json(&run_within(
        &[
            "search",
            "北京",
            "--index",
            path_str(&ix),
            "--top",
            "18446744073709551615",
            "--page",
            "2",
            "--json",
        ],
        30,
    ));
    assert_eq!(v["hits"].as_array().unwrap().len(), 0);
}

#[test]
fn index_memory_beyond_the_machine_is_refused_before_allocating() {
    let d = scratch("memory");
    let tsv = write(&d, "t.tsv", "北京大学\t1\n");
    let ix = d.join("ix");
    for mb in ["99999999999", "0"] {
        refused(
            &[
                "index",
                "build",
                "--tsv",
                &tsv,
                "--out",
                path_str(&ix),
                "--memory-mb",
                mb,
            ],
            &["--memory-mb"],
        );
    }
}

#[test]
fn a_word_longer_than_an_index_term_is_left_out_and_said() {
    let d = scratch("longword");
    let mut text = "北京大学 ".to_string();
    text.push_str(&"a".repeat(70_000));
    text.push_str("\t1\n清华大学\t2\n");
    let tsv = write(&d, "t.tsv", text);
    let ix = d.join("ix");
    let v = ok_json(&run_within(
        &[
            "index",
            "build",
            "--tsv",
            &tsv,
            "--out",
            path_str(&ix),
            "--json",
        ],
        60,
    ));
    let skipped = v["skipped"].to_string();
    assert!(skipped.contains("left out"), "{v}");
    let s = ok_json(&run_within(
        &["search", "北京", "--index", path_str(&ix), "--json"],
        30,
    ));
    assert_eq!(s["total_hits"], 1);
}

// ---- classify ----

#[test]
fn a_training_file_without_one_valid_line_names_the_file_and_its_first_bad_lines() {
    let d = scratch("train");
    let train = write(&d, "train.txt", "hello world\nno tab here\n\tA\n");
    let test = write(&d, "test.txt", "北京 天气\tA\n");
    let err = refused(
        &["classify", "--train", &train, "--test", &test],
        &[
            &train,
            &format!("{train}:1: no tab"),
            &format!("{train}:2"),
            &format!("{train}:3"),
        ],
    );
    assert_eq!(err.matches("invalid parameter").count(), 0, "{err}");
    let empty = write(&d, "empty.txt", "\n\n");
    refused(&["classify", "--train", &empty, "--test", &test], &[&empty]);
}

#[test]
fn scut_with_a_class_the_training_set_lacks_reads_back_and_stores() {
    let d = scratch("scut");
    let train = write(
        &d,
        "train.txt",
        "北京 天气\tA\n上海 天气\tA\n广州 天气\tA\n",
    );
    let test = write(&d, "test.txt", "北京 天气\tA\n上海 天气\tB\n");
    let doc = write(&d, "doc.txt", "北京\n");
    let ws = d.join("w.tianwang");
    for (i, model) in ["knn", "nb", "nb-bernoulli", "rocchio", "tree", "svm"]
        .iter()
        .enumerate()
    {
        let args = [
            "classify",
            "--train",
            &train,
            "--test",
            &test,
            "--threshold",
            "scut",
            "--model",
            model,
            "--json",
        ];
        ok_json(&run_within(&args, 60));
        let mut logged = vec!["--workspace", path_str(&ws)];
        logged.extend_from_slice(&args);
        logged.extend_from_slice(&["--save", model]);
        ok_json(&run_within(&logged, 60));
        // The stored model decodes (an NB log prior of −∞ was stored as null).
        let id = (i + 1).to_string();
        ok_json(&run_within(
            &[
                "--workspace",
                path_str(&ws),
                "classify",
                "predict",
                "--model-id",
                &id,
                &doc,
                "--json",
            ],
            60,
        ));
    }
}

// ---- file names ----

#[cfg(unix)]
#[test]
fn file_names_that_are_not_utf8_keep_their_identity_and_are_said() {
    use std::os::unix::ffi::OsStrExt;
    let d = scratch("names");
    let dir = d.join("docs");
    std::fs::create_dir_all(&dir).unwrap();
    let text_a = "北京大学图书馆今天开放，欢迎读者前来借阅图书和期刊。";
    let text_b = "清华大学举办运动会，学生们积极参加各项比赛活动。";
    for (name, text) in [(&b"n\xff.txt"[..], text_a), (&b"n\xfe.txt"[..], text_b)] {
        std::fs::write(dir.join(std::ffi::OsStr::from_bytes(name)), text).unwrap();
    }
    // dedup: two documents, not one `''`, and a warning for each name.
    let o = run_within(&["dedup", "--dir", path_str(&dir), "--json"], 60);
    let err = String::from_utf8_lossy(&o.stderr);
    let v = ok_json(&o);
    assert_eq!(v["docs"], 2, "{v}");
    assert_eq!(err.matches("not UTF-8").count(), 2, "{err}");
    // index build --dir: two keys, said in `skipped`.
    let ix = d.join("ix");
    let v = ok_json(&run_within(
        &[
            "index",
            "build",
            "--dir",
            path_str(&dir),
            "--out",
            path_str(&ix),
            "--json",
        ],
        60,
    ));
    assert_eq!(v["docs"], 2, "{v}");
    assert_eq!(
        v["skipped"].to_string().matches("not UTF-8").count(),
        2,
        "{v}"
    );
}

#[test]
fn a_binary_file_in_a_text_folder_is_said_to_be_binary() {
    let d = scratch("binary");
    let dir = d.join("docs");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("a.txt"),
        "北京大学图书馆今天开放，欢迎读者前来借阅。",
    )
    .unwrap();
    let mut blob = vec![0u8; 50_000];
    blob[..4].copy_from_slice(b"\x7fELF");
    std::fs::write(dir.join("b.txt"), &blob).unwrap();
    let ix = d.join("ix");
    let v = ok_json(&run_within(
        &[
            "index",
            "build",
            "--dir",
            path_str(&dir),
            "--out",
            path_str(&ix),
            "--json",
        ],
        60,
    ));
    assert_eq!(v["docs"], 1, "{v}");
    let skipped = v["skipped"].to_string();
    assert!(
        skipped.contains("b.txt") && skipped.contains("binary file"),
        "{v}"
    );
}

#[cfg(unix)]
#[test]
fn a_broken_link_in_a_dedup_folder_is_said() {
    let d = scratch("link");
    let dir = d.join("docs");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.txt"), "北京大学图书馆今天开放。").unwrap();
    std::fs::write(dir.join("b.txt"), "清华大学举办运动会。").unwrap();
    std::os::unix::fs::symlink(d.join("gone.txt"), dir.join("c.txt")).unwrap();
    let o = run_within(&["dedup", "--dir", path_str(&dir), "--json"], 60);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("c.txt") && err.contains("broken link"),
        "{err}"
    );
}

// ---- rank ----

#[test]
fn rank_eval_depth_0_and_non_utf8_inputs_name_the_flag_or_line() {
    let d = scratch("rank");
    let qrels = write(&d, "q.txt", "1 0 a 1\n");
    let run = write(&d, "r.txt", "1 Q0 a 1 1.0 x\n");
    let tsv = write(&d, "t.tsv", "北京大学\t1\n");
    let ix = d.join("ix");
    let o = run_within(
        &["index", "build", "--tsv", &tsv, "--out", path_str(&ix)],
        60,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let queries = write(&d, "queries.txt", "1\t北京\n");
    refused(
        &[
            "rank",
            "eval",
            "--index",
            path_str(&ix),
            "--queries",
            &queries,
            "--qrels",
            &qrels,
            "--depth",
            "0",
        ],
        &["--depth"],
    );
    let bad = write(&d, "bad.txt", b"1 0 a 1\n1 0 \xff 1\n");
    refused(
        &["rank", "eval", "--run", &run, "--qrels", &bad],
        &[&format!("{bad}:2"), "UTF-8"],
    );
    let graph = write(&d, "g.txt", b"0 1\n1 \xfe\n");
    refused(
        &["rank", "pagerank", "--graph", &graph],
        &[&format!("{graph}:2"), "UTF-8"],
    );
}
