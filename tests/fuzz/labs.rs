//! Fuzz targets of the labs' own inputs: graph files (through PageRank and HITS), classifier
//! corpora (TSV with and without `class.txt`, a folder per class, SogouCS XML), rank runs,
//! qrels and queries (through the evaluation and the comparison), and dedup truth files.

use std::path::Path;

use tianwang::engine::classify::corpus::{self, Corpus};
use tianwang::engine::classify::experiment::label_list;
use tianwang::engine::rank::eval::{self, EvalConfig, Gain, Metric};
use tianwang::engine::rank::graph::parse_graph;
use tianwang::engine::rank::hits::{self, HitsConfig, HitsNorm};
use tianwang::engine::rank::pagerank::{PageRankConfig, pagerank};

use super::{fuzz, scratch, seed};

#[test]
fn fuzz_graph_files_through_pagerank_and_hits() {
    let seeds = vec![
        b"3 3\n1 http://a/\n2 http://b/\n3 http://c/\n1 2\n2 3\n3 1\n".to_vec(),
        b"a b\nb c\nc a\nc c\n# comment\nd a\n".to_vec(),
        b"2 1 1\n1 http://a/\n2 http://b/\n1 2\n".to_vec(),
    ];
    fuzz("graph", seeds, |b| {
        let text = String::from_utf8_lossy(b);
        let Ok(g) = parse_graph(&text, "fuzz.graph") else {
            return;
        };
        let cfg = PageRankConfig {
            max_iter: 50,
            ..PageRankConfig::default()
        };
        if let Ok(r) = pagerank(&g, &cfg, &(), &mut ()) {
            let _ = r.ranking(Some(5));
            if g.node_count() > 0 {
                let _ = r.explain(&g, 0, 3);
            }
        }
        if let Ok(h) = HitsConfig::new(1e-6, 50, HitsNorm::L2) {
            let _ = hits::hits(&g, &h, &(), &mut ());
        }
    });
}

/// The corpus read, and what a run makes of its labels.
fn use_corpus(c: &Corpus) {
    let labels = label_list(c, c);
    assert!(c.docs.iter().all(|d| labels.contains(&d.label)));
}

#[test]
fn fuzz_classifier_tsv_corpora() {
    let seeds = vec![
        seed(
            0,
            "北京 天气 很好\tA\n上海 天气\tB\n\tC\nno tab\n".as_bytes(),
        ),
        seed(1, "体育 新闻 比赛\t0\n财经 股票\t1\n娱乐\t7\n".as_bytes()),
        seed(2, &encoding_rs::GB18030.encode("北京\tA\n").0),
    ];
    fuzz("classify_tsv", seeds, |b| {
        let Some((&sel, rest)) = b.split_first() else {
            return;
        };
        let classes = (sel & 1 == 1).then(|| vec!["体育".into(), "财经".into(), "娱乐".into()]);
        if let Ok(c) = corpus::parse_tsv(Path::new("fuzz.txt"), rest, classes, sel & 2 == 2) {
            use_corpus(&c);
        }
    });
}

#[test]
fn fuzz_classifier_sogoucs_xml() {
    let doc = "<doc>\n<url>http://sports.sohu.com/2012/x.shtml</url>\n<docno>1</docno>\n\
               <contenttitle>比赛</contenttitle>\n<content>今天的比赛很精彩</content>\n</doc>\n\
               <doc>\n<url>http://try.women.sohu.com/a</url>\n<contenttitle>时尚</contenttitle>\n\
               <content></content>\n</doc>\n<doc><url>nonsense</url></doc>\n";
    let seeds = vec![
        seed(0, doc.as_bytes()),
        seed(1, &encoding_rs::GB18030.encode(doc).0),
    ];
    fuzz("classify_sogou", seeds, |b| {
        let Some((&sel, rest)) = b.split_first() else {
            return;
        };
        if let Ok(c) = corpus::parse_sogou(Path::new("fuzz.dat"), rest, sel & 1 == 1) {
            use_corpus(&c);
        }
    });
}

#[test]
fn fuzz_classifier_folder_corpora() {
    // Files separated by NUL: each file's first byte picks its class folder and extension.
    let seeds = vec![seed(
        0,
        "a北京 天气\0b上海 天气\0c<html><body>新闻</body></html>\0a\u{feff}体育".as_bytes(),
    )];
    fuzz("classify_folder", seeds, |b| {
        let Some((&sel, rest)) = b.split_first() else {
            return;
        };
        let dir = scratch("classify_folder").join("c");
        let _ = std::fs::remove_dir_all(&dir);
        for (i, file) in rest.split(|&x| x == 0).take(16).enumerate() {
            let Some((&pick, body)) = file.split_first() else {
                continue;
            };
            let class = dir.join(["体育", "财经", "b", "x y"][usize::from(pick) % 4]);
            std::fs::create_dir_all(&class).expect("class folder");
            let ext = ["txt", "TXT", "html", "md"][usize::from(pick >> 2) % 4];
            std::fs::write(class.join(format!("{i}.{ext}")), body).expect("write");
        }
        std::fs::create_dir_all(&dir).expect("folder");
        let hook = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        let other: Option<corpus::TextHook<'_>> = (sel & 1 == 1).then_some(&hook as _);
        if let Ok(c) = corpus::read_folder(&dir, other, sel & 2 == 2) {
            use_corpus(&c);
        }
    });
}

#[test]
fn fuzz_rank_runs_qrels_and_queries() {
    // run NUL qrels NUL queries
    let seeds = vec![
        b"1 Q0 a 1 2.5 x\n1 Q0 b 2 1.0 x\n2 Q0 c 1 0.5 x\n\x001 0 a 1\n1 0 c 2\n2 0 c 0\n\x001\tq one\n2\tq two\n".to_vec(),
        b"1\ta\t0.9\n1\tb\n\x001\ta\t1\n\x00".to_vec(),
    ];
    fuzz("rank_eval", seeds, |b| {
        let mut parts = b.split(|&x| x == 0);
        let run = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
        let qrels = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
        let queries = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
        let _ = eval::parse_queries(&queries, "fuzz.queries");
        let (Ok(run), Ok(qrels)) = (
            eval::parse_run(&run, "fuzz.run"),
            eval::parse_qrels(&qrels, "fuzz.qrels"),
        ) else {
            return;
        };
        for (at, gain, metric) in [
            (1, Gain::Exponential, Metric::P),
            (10, Gain::Linear, Metric::Ndcg),
            (3, Gain::Exponential, Metric::Ap),
        ] {
            let cfg = EvalConfig::new(at, gain, metric).expect("config");
            if let Ok(e) = eval::evaluate(&run, &qrels, &cfg) {
                let _ = eval::compare(&e, &e, metric);
            }
        }
    });
}

#[test]
fn fuzz_dedup_truth_files() {
    let seeds = vec![
        br#"{"near": [["a", "b"], ["b", "c"]], "contains": [["d", "a"]]}"#.to_vec(),
        br#"{"near": [], "contains": [["x"]]}"#.to_vec(),
    ];
    fuzz("dedup_truth", seeds, |b| {
        let dir = scratch("dedup_truth");
        std::fs::write(dir.join("truth.json"), b).expect("write");
        let _ = tianwang::engine::dedup::corpus::read_truth(&dir);
    });
}

/// Lesson files (`workbench::lessons`): anything a teacher's editor may save parses or is
/// refused naming `file:line`, never a panic; a lesson that reads has its steps on its lines.
#[test]
fn fuzz_lesson_files() {
    let seeds = tianwang::workbench::lessons::BUNDLED
        .iter()
        .map(|(_, text)| text.as_bytes().to_vec())
        .collect();
    fuzz("lessons", seeds, |b| {
        let text = String::from_utf8_lossy(b);
        match tianwang::workbench::lessons::parse("fuzz.md", &text) {
            Ok(l) => {
                let lines = text.lines().count();
                assert!(!l.steps.is_empty());
                for s in &l.steps {
                    assert!(s.line >= 1 && s.line <= lines, "step on line {}", s.line);
                    if let Some(c) = &s.check {
                        assert!(c.line() > s.line && c.line() <= lines);
                    }
                }
            }
            Err(e) => {
                let m = e.to_string();
                assert!(m.starts_with("fuzz.md:"), "{m}");
                assert!(e.is_user_error(), "{m}");
            }
        }
    });
}
