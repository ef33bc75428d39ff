//! `tianwang clean` and `tianwang segment`, driven as a user would: plain HTML files in any
//! encoding, a scored folder in the ccwe layout, the JSON shapes the issue names, and bad input
//! answered with exit code 2.

mod common;

use common::{ok_json, run_in};

const PAGE: &str = "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=gb2312\">\
<title>网络与分布式系统实验室简介_北大新闻</title></head><body>\
<div class=nav><a href=\"/\">首页</a> <a href=\"/news/\">新闻</a> <a href=\"/lab/\">实验室</a></div>\
<div class=content><h1>网络与分布式系统实验室简介</h1>\
<p>网络与分布式系统实验室研究搜索引擎、网络存储和分布式计算。实验室开发的天网搜索引擎曾经是国内最早的中文搜索引擎之一。</p>\
<p>实验室还维护着中国网页的历史存档，保存了数十亿张网页，供研究人员检索和分析。</p>\
<ul class=related><li><a href=\"/r/1.html\">天网搜索引擎的历史</a></li><li><a href=\"/r/2.html\">体育新闻</a></li></ul></div>\
<div class=footer>版权所有 北京大学</div></body></html>";

#[test]
fn clean_a_gbk_file_prints_the_documented_json() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("lab.html");
    std::fs::write(&f, encoding_rs::GBK.encode(PAGE).0).unwrap();
    let v = ok_json(&run_in(
        d.path(),
        &[
            "clean",
            f.to_str().unwrap(),
            "--url",
            "http://net.pku.edu.cn/lab/intro.html",
            "--json",
        ],
    ));
    assert_eq!(v["encoding"]["name"], "gb18030");
    assert_eq!(v["encoding"]["decided_by"], "meta");
    assert_eq!(v["page_type"], "topic");
    assert_eq!(v["title"], "网络与分布式系统实验室简介");
    let body = v["body"].as_str().unwrap();
    assert!(
        body.starts_with("网络与分布式系统实验室研究搜索引擎"),
        "{body}"
    );
    assert!(
        !body.contains("首页") && !body.contains("版权所有"),
        "{body}"
    );
    assert!(!v["abstract"].as_str().unwrap().is_empty());
    let kw = v["keywords"].as_array().unwrap();
    assert!(!kw.is_empty());
    assert!(kw[0]["word"].is_string() && kw[0]["weight"].is_number());
    let links = v["links"].as_array().unwrap();
    let first = links
        .iter()
        .find(|l| l["anchor"] == "天网搜索引擎的历史")
        .unwrap();
    assert_eq!(first["url"], "http://net.pku.edu.cn/r/1.html");
    assert_eq!(first["related"], true);
    let home = links.iter().find(|l| l["anchor"] == "首页").unwrap();
    assert_eq!(home["related"], false);
    let blocks = v["blocks"].as_array().unwrap();
    assert!(blocks.iter().any(|b| b["role"] == "navigation"));
    assert!(blocks.iter().any(|b| b["role"] == "footer"));
    assert!(
        blocks
            .iter()
            .all(|b| b["reason"].is_string() && b["weight"].is_number())
    );

    // --charset overrides the page's own declaration.
    let v = ok_json(&run_in(
        d.path(),
        &[
            "clean",
            f.to_str().unwrap(),
            "--charset",
            "windows-1252",
            "--json",
        ],
    ));
    assert_eq!(v["encoding"]["decided_by"], "override");
    assert_eq!(v["encoding"]["name"], "windows-1252");

    // Human output names the decision and the body.
    let out = run_in(d.path(), &["clean", f.to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("gb18030") && text.contains("天网搜索引擎曾经是"),
        "{text}"
    );
}

#[test]
fn clean_scores_a_folder_against_truth() {
    let d = tempfile::tempdir().unwrap();
    let (html, truth) = (d.path().join("original"), d.path().join("cleaned"));
    std::fs::create_dir_all(&html).unwrap();
    std::fs::create_dir_all(&truth).unwrap();
    std::fs::write(html.join("a.html"), PAGE.replace("gb2312", "utf-8")).unwrap();
    std::fs::write(
        truth.join("a.txt"),
        "网络与分布式系统实验室研究搜索引擎、网络存储和分布式计算。实验室开发的天网搜索引擎曾经是国内最早的中文搜索引擎之一。\n\
         实验室还维护着中国网页的历史存档，保存了数十亿张网页，供研究人员检索和分析。\n",
    )
    .unwrap();
    // A page without truth is skipped; a wrong page scores low.
    std::fs::write(html.join("no-truth.html"), PAGE).unwrap();
    std::fs::write(
        html.join("b.html"),
        "<html><body><p>完全不同的一段文字，与答案没有任何关系。</p></body></html>",
    )
    .unwrap();
    std::fs::write(truth.join("b.txt"), "网络与分布式系统实验室").unwrap();
    let ws = d.path().join("w.tianwang");
    let v = ok_json(&run_in(
        d.path(),
        &[
            "clean",
            "--dir",
            html.to_str().unwrap(),
            "--truth",
            truth.to_str().unwrap(),
            "--workspace",
            ws.to_str().unwrap(),
            "--json",
        ],
    ));
    let pages = v["pages"].as_array().unwrap();
    assert_eq!(pages.len(), 2);
    let f1 = |name: &str| {
        pages.iter().find(|p| p["name"] == name).unwrap()["f1"]
            .as_f64()
            .unwrap()
    };
    assert!(f1("a.html") > 0.95, "{}", f1("a.html"));
    assert!(f1("b.html") < 0.2);
    assert_eq!(v["body_pages"], 2);
    // The run is in the experiment log, with its parameters.
    let log = ok_json(&run_in(
        d.path(),
        &[
            "jobs",
            "--kind",
            "clean-eval",
            "--workspace",
            ws.to_str().unwrap(),
            "--json",
        ],
    ));
    assert_eq!(log["jobs"].as_array().unwrap().len(), 1);
    // An empty folder is bad input.
    let empty = d.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = run_in(
        d.path(),
        &[
            "clean",
            "--dir",
            empty.to_str().unwrap(),
            "--truth",
            truth.to_str().unwrap(),
            "--workspace",
            ws.to_str().unwrap(),
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("p.html");
    std::fs::write(&f, PAGE).unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["clean", "/no/such/file.html"],
        vec!["clean", f.to_str().unwrap(), "--charset", "klingon-8"],
        vec!["clean", f.to_str().unwrap(), "--lambda", "0"],
        vec!["clean", f.to_str().unwrap(), "--propagation", "sideways"],
        vec!["clean", f.to_str().unwrap(), "--sample"],
        vec!["segment", "--method", "xyz", "学历史知识"],
        vec!["segment", "--max-len", "0", "学历史知识"],
    ];
    for args in cases {
        let out = run_in(d.path(), &args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn segment_with_the_books_methods() {
    let d = tempfile::tempdir().unwrap();
    let words = |method: &str, text: &str| -> Vec<String> {
        let v = ok_json(&run_in(
            d.path(),
            &["segment", "--method", method, "--json", text],
        ));
        v["results"][0]["words"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(words("fmm", "学历史知识"), ["学历", "史", "知识"]);
    assert_eq!(words("rmm", "学历史知识"), ["学", "历史", "知识"]);
    assert_eq!(words("fmm-bt", "学历史知识"), ["学", "历史", "知识"]);
    assert_eq!(words("fmm", "我的笔记本"), ["我", "的", "笔记本"]);
    assert_eq!(words("jieba", "我的笔记本"), ["我", "的", "笔记本"]);
    assert_eq!(
        words("fmm", "网络与分布式系统实验室"),
        ["网络", "与", "分布式", "系统", "实验室"]
    );
    // Every method at once, and the FMM trace.
    let v = ok_json(&run_in(
        d.path(),
        &["segment", "--all", "--trace", "--json", "学历史知识"],
    ));
    assert_eq!(v["results"].as_array().unwrap().len(), 6);
    let trace = v["trace"].as_array().unwrap();
    assert_eq!(trace[0]["candidate"], "学历史知");
    assert_eq!(trace[0]["in_dict"], false);
    // Human output: words joined by "/ ".
    let out = run_in(d.path(), &["segment", "--method", "fmm", "学历史知识"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "学历/ 史/ 知识"
    );
}

/// `bench segment --json`: a row per segmenter on the same text and each one's speed against
/// raw jieba-rs; jieba without HMM, ours and raw, cut the text into the same number of tokens.
#[test]
fn bench_segment_prints_rows_and_ratios() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("txt");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(
        dir.join("a.txt"),
        "我们学习历史知识。\n搜索引擎的原理、技术与系统。\n",
    )
    .unwrap();
    let o = run_in(
        d.path(),
        &[
            "bench",
            "segment",
            "--dir",
            dir.to_str().unwrap(),
            "--repeat",
            "1",
            "--json",
        ],
    );
    let v = ok_json(&o);
    let rows = v["rows"].as_array().unwrap();
    assert!(rows.len() >= 3, "{v}");
    assert_eq!(v["ratio"].as_array().unwrap().len(), rows.len() - 1, "{v}");
    assert_eq!(rows[0]["tool"], "raw jieba-rs cut(hmm=false)", "{v}");
    assert_eq!(rows[1]["tokens"], rows[0]["tokens"], "{v}");
    for r in rows {
        assert!(r["mb_per_s"].as_f64().unwrap() > 0.0, "{r}");
        assert_eq!(r["corpus"], dir.to_str().unwrap(), "{r}");
    }
}
