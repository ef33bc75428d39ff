//! The `tianwang classify` CLI contract, bad input, persistence and the real THUCNews titles.
mod common;

use std::path::{Path, PathBuf};

use common::{bin, ok_json, scratch, shared_data};

const TRAIN: &str = "股票 大盘 上涨\t0\n基金 股票 收益\t0\n大盘 下跌 股票\t0\n足球 比赛 进球\t1\n篮球 比赛 球员\t1\n足球 球员 转会\t1\n";
const TEST: &str = "股票 上涨\t0\n足球 比赛\t1\n基金 大盘\t0\n球员 进球\t1\n";

fn tiny(dir: &Path) -> (PathBuf, PathBuf) {
    std::fs::write(dir.join("class.txt"), "stocks\nsports\n").unwrap();
    std::fs::write(dir.join("train.txt"), TRAIN).unwrap();
    std::fs::write(dir.join("test.txt"), TEST).unwrap();
    (dir.join("train.txt"), dir.join("test.txt"))
}

#[test]
fn contract_fields_for_every_model() {
    let d = scratch("contract");
    let (tr, te) = tiny(&d);
    for model in ["knn", "nb", "nb-bernoulli", "rocchio", "tree", "svm"] {
        let out = bin()
            .args(["classify", "--train"])
            .arg(&tr)
            .arg("--test")
            .arg(&te)
            .args(["--model", model, "--k", "3", "--seed", "1", "--json"])
            .output()
            .unwrap();
        let v = ok_json(&out);
        for key in [
            "model",
            "params",
            "train_docs",
            "test_docs",
            "features_kept",
            "accuracy",
            "micro_f1",
            "macro_f1",
            "per_class",
            "confusion",
            "labels",
            "train_s",
            "test_s",
        ] {
            assert!(v.get(key).is_some(), "{model}: missing {key}");
        }
        assert_eq!(v["model"], model);
        assert_eq!(v["train_docs"], 6);
        assert_eq!(v["test_docs"], 4);
        assert_eq!(v["labels"], serde_json::json!(["stocks", "sports"]));
        // every model separates the tiny corpus, except that the tree (one split on a single
        // word) may miss a test document that shares no word with its path
        let acc = v["accuracy"].as_f64().unwrap();
        assert!(
            acc == 1.0 || (model == "tree" && acc >= 0.5),
            "{model}: {v}"
        );
        let pc = &v["per_class"][0];
        for key in ["label", "p", "r", "f1", "support"] {
            assert!(pc.get(key).is_some());
        }
        let total: u64 = v["confusion"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r.as_array().unwrap())
            .map(|x| x.as_u64().unwrap())
            .sum();
        assert_eq!(total, 4);
        if model != "tree" {
            assert_eq!(v["confusion"], serde_json::json!([[2, 0], [0, 2]]));
        }
    }
}

#[test]
fn selection_thresholds_and_sweep() {
    let d = scratch("sweep");
    let (tr, te) = tiny(&d);
    let out = bin()
        .args(["classify", "--train"])
        .arg(&tr)
        .arg("--test")
        .arg(&te)
        .args([
            "--features",
            "chi",
            "--keep",
            "4",
            "--threshold",
            "rcut",
            "--rank",
            "2",
            "--json",
        ])
        .output()
        .unwrap();
    let v = ok_json(&out);
    assert_eq!(v["features_kept"], 4);
    assert_eq!(
        v["accuracy"], 0.0,
        "two classes per doc never match exactly"
    );
    assert_eq!(v["per_class"][0]["r"], 1.0);
    let out = bin()
        .args(["classify", "sweep", "--train"])
        .arg(&tr)
        .arg("--test")
        .arg(&te)
        .args(["--vary", "k=1..3", "--json"])
        .output()
        .unwrap();
    let v = ok_json(&out);
    let res = v["results"].as_array().unwrap();
    assert_eq!(res.len(), 3);
    assert_eq!(res[2]["value"], "3");
    assert_eq!(res[2]["result"]["params"]["model"]["k"], 3);
    let out = bin()
        .args(["classify", "sweep", "--train"])
        .arg(&tr)
        .arg("--test")
        .arg(&te)
        .args(["--model", "nb", "--vary", "keep=2,50%,all", "--json"])
        .output()
        .unwrap();
    let v = ok_json(&out);
    let kept: Vec<_> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["result"]["features_kept"].clone())
        .collect();
    assert_eq!(
        kept,
        vec![
            serde_json::json!(2),
            serde_json::json!(6),
            serde_json::json!(12)
        ]
    );
}

#[test]
fn save_then_predict_by_id() {
    let d = scratch("persist");
    let (tr, te) = tiny(&d);
    let ws = d.join("ws.tianwang");
    let v = ok_json(
        &bin()
            .arg("--workspace")
            .arg(&ws)
            .args(["classify", "--train"])
            .arg(&tr)
            .arg("--test")
            .arg(&te)
            .args(["--model", "nb", "--save", "tiny-nb", "--json"])
            .output()
            .unwrap(),
    );
    let id = v["model_id"].as_i64().unwrap();
    let doc = d.join("doc.txt");
    std::fs::write(&doc, "足球 比赛 进球").unwrap();
    let v = ok_json(
        &bin()
            .arg("--workspace")
            .arg(&ws)
            .args([
                "classify",
                "predict",
                "--model-id",
                &id.to_string(),
                "--json",
            ])
            .arg(&doc)
            .output()
            .unwrap(),
    );
    let p = &v["predictions"][0];
    assert_eq!(p["predicted"], serde_json::json!(["sports"]));
    assert!(
        p["explanation"]["class_scores"][0]["score"]
            .as_f64()
            .unwrap()
            .is_finite()
    );
    assert!(
        !p["explanation"]["top_features"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    let out = bin()
        .arg("--workspace")
        .arg(&ws)
        .args(["classify", "predict", "--model-id", "999"])
        .arg(&doc)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(common::result_fields_are_named(&ws) >= 1);
}

#[test]
fn bad_input_exits_2_and_bad_lines_are_counted() {
    let d = scratch("bad");
    let (tr, te) = tiny(&d);
    let broken = d.join("broken.txt");
    std::fs::write(&broken, format!("{TRAIN}no tab here\n文本\t7\n")).unwrap();
    let v = ok_json(
        &bin()
            .args(["classify", "--train"])
            .arg(&broken)
            .arg("--test")
            .arg(&te)
            .arg("--json")
            .output()
            .unwrap(),
    );
    assert_eq!(v["skipped_train"], 2);
    assert_eq!(v["train_docs"], 6);
    let loc = v["skipped"][0]["location"].as_str().unwrap();
    assert!(loc.ends_with("broken.txt:7"), "{loc}");
    let out = bin()
        .args(["classify", "--strict", "--train"])
        .arg(&broken)
        .arg("--test")
        .arg(&te)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("broken.txt:7"));
    let cases: Vec<Vec<String>> = vec![
        vec!["--test".into(), te.display().to_string()],
        vec![
            "--train".into(),
            d.join("missing.txt").display().to_string(),
            "--test".into(),
            te.display().to_string(),
        ],
        vec![
            "--train".into(),
            tr.display().to_string(),
            "--test".into(),
            te.display().to_string(),
            "--k".into(),
            "0".into(),
        ],
        vec![
            "--train".into(),
            tr.display().to_string(),
            "--test".into(),
            te.display().to_string(),
            "--keep".into(),
            "-3".into(),
        ],
        vec![
            "--train".into(),
            tr.display().to_string(),
            "--test".into(),
            te.display().to_string(),
            "--alpha".into(),
            "x".into(),
        ],
        vec![
            "--train".into(),
            tr.display().to_string(),
            "--test".into(),
            te.display().to_string(),
            "--threshold".into(),
            "foo".into(),
        ],
        vec![
            "--train".into(),
            tr.display().to_string(),
            "--test".into(),
            te.display().to_string(),
            "--model".into(),
            "bogus".into(),
        ],
    ];
    for args in cases {
        let out = bin().arg("classify").args(&args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = bin()
        .args(["classify", "sweep", "--train"])
        .arg(&tr)
        .arg("--test")
        .arg(&te)
        .args(["--vary", "nope=1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn seeded_scut_runs_repeat_exactly() {
    let d = scratch("seed");
    let (tr, te) = tiny(&d);
    let run = || {
        let v = ok_json(
            &bin()
                .args(["classify", "--train"])
                .arg(&tr)
                .arg("--test")
                .arg(&te)
                .args([
                    "--model",
                    "svm",
                    "--threshold",
                    "scut",
                    "--validation",
                    "0.34",
                    "--seed",
                    "9",
                    "--json",
                ])
                .output()
                .unwrap(),
        );
        (v["thresholds"].clone(), v["per_class"].clone())
    };
    assert_eq!(run(), run());
}

#[test]
fn thucnews_titles_nb_accuracy() {
    let Some(dir) = shared_data("classification/thucnews_titles/dev.txt")
        .and_then(|dev| dev.parent().map(Path::to_path_buf))
    else {
        return;
    };
    let v = ok_json(
        &bin()
            .args(["classify", "--train"])
            .arg(dir.join("dev.txt"))
            .arg("--test")
            .arg(dir.join("test.txt"))
            .args(["--model", "nb", "--json"])
            .output()
            .unwrap(),
    );
    assert_eq!(v["train_docs"], 10_000);
    assert_eq!(v["test_docs"], 10_000);
    assert_eq!(v["skipped_train"], 0);
    let acc = v["accuracy"].as_f64().unwrap();
    assert!(
        acc >= 0.80,
        "NB accuracy {acc} below 0.80 (scikit-learn reference 0.820)"
    );
}

#[test]
fn folder_per_class_corpus() {
    let d = scratch("folder");
    for (split, docs) in [
        (
            "train",
            vec![
                ("stocks", "股票 大盘 上涨"),
                ("stocks", "基金 股票"),
                ("sports", "足球 比赛"),
                ("sports", "篮球 球员"),
            ],
        ),
        (
            "test",
            vec![("stocks", "股票 基金"), ("sports", "足球 球员")],
        ),
    ] {
        for (i, (label, text)) in docs.iter().enumerate() {
            let dir = d.join(split).join(label);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(format!("{i}.txt")), text).unwrap();
        }
    }
    // a GB18030 file is decoded too; an .html file without an extractor is skipped and counted
    let gb = [0xD7u8, 0xE3, 0xC7, 0xF2, 0x20, 0xB1, 0xC8, 0xC8, 0xFC]; // 足球 比赛
    std::fs::write(d.join("train/sports/gb.txt"), gb).unwrap();
    std::fs::write(d.join("train/sports/page.html"), "<p>足球</p>").unwrap();
    let v = ok_json(
        &bin()
            .args(["classify", "--model", "nb", "--train"])
            .arg(d.join("train"))
            .arg("--test")
            .arg(d.join("test"))
            .arg("--json")
            .output()
            .unwrap(),
    );
    assert_eq!(v["train_docs"], 5);
    assert_eq!(v["skipped_train"], 1);
    assert_eq!(v["labels"], serde_json::json!(["sports", "stocks"]));
    assert_eq!(v["accuracy"], 1.0);
}

#[test]
fn hierarchical_knn_reports_pruned_parents() {
    let d = scratch("hier");
    let (tr, te) = tiny(&d);
    let v = ok_json(
        &bin()
            .args(["classify", "--train"])
            .arg(&tr)
            .arg("--test")
            .arg(&te)
            .args([
                "--model",
                "knn",
                "--k",
                "3",
                "--hierarchy",
                "money=stocks",
                "--prune",
                "0.2",
                "--json",
            ])
            .output()
            .unwrap(),
    );
    assert_eq!(v["model"], "knn-hier");
    assert_eq!(v["accuracy"], 1.0);
    let out = bin()
        .args(["classify", "--train"])
        .arg(&tr)
        .arg("--test")
        .arg(&te)
        .args(["--model", "knn", "--hierarchy", "money=nosuchclass"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// The sample web's categories as a corpus; the trained model classifies stored pages by URL
/// (their DocView title and body), as the page inspector does.
#[test]
fn sample_web_categories_and_stored_pages() {
    let d = scratch("sampleweb");
    let ws = d.join("w.tianwang");
    let ws_s = ws.display().to_string();
    let out = bin()
        .args(["classify", "--sample-web", "--model", "nb", "--seed", "3"])
        .args(["--save", "channels", "--workspace", &ws_s, "--json"])
        .output()
        .unwrap();
    let v = ok_json(&out);
    let labels: Vec<&str> = v["labels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    // Eight channels; the Big5 site's 旅遊 is folded into 旅游.
    assert_eq!(labels.len(), 8, "{labels:?}");
    assert!(labels.contains(&"旅游") && !labels.contains(&"旅遊"));
    assert!(v["accuracy"].as_f64().unwrap() > 0.8, "{}", v["accuracy"]);
    let out = bin()
        .args(["sample", "load", "--workspace", &ws_s, "--json"])
        .output()
        .unwrap();
    ok_json(&out);
    let urls = [
        (
            "http://www.huaxia.localhost/culture/2025-09/28/content_10017.html",
            "文化",
        ),
        ("http://tech.xinzhi.localhost/archives/10067.html", "科技"),
    ];
    let mut args = vec![
        "classify",
        "predict",
        "--model-id",
        "1",
        "--workspace",
        &ws_s,
        "--json",
    ];
    for (u, _) in &urls {
        args.push("--url");
        args.push(u);
    }
    let v = ok_json(&bin().args(&args).output().unwrap());
    let pages = v["pages"].as_array().unwrap();
    assert_eq!(pages.len(), 2);
    for (p, (u, label)) in pages.iter().zip(urls) {
        assert_eq!(p["url"], u);
        assert_eq!(p["explanation"]["predicted"][0], label, "{p}");
        assert!(
            !p["explanation"]["top_features"]
                .as_array()
                .unwrap()
                .is_empty()
        );
        assert!(!p["title"].as_str().unwrap().is_empty());
    }
    // A page the workspace does not hold: exit 2 naming it.
    let out = bin()
        .args([
            "classify",
            "predict",
            "--model-id",
            "1",
            "--workspace",
            &ws_s,
        ])
        .args(["--url", "http://nowhere.localhost/x.html"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nowhere.localhost"));
}
