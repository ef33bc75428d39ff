use super::*;
use crate::engine::classify::ModelConfig;
use crate::engine::classify::select::Keep;

/// A small, clearly separable corpus: sports vs finance titles.
fn corpus_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tw-classify-job-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sport = [
        "球队 比赛 进球",
        "篮球 比赛 冠军",
        "足球 球队 联赛",
        "冠军 联赛 进球",
        "篮球 球员 比赛",
    ];
    let money = [
        "股票 市场 上涨",
        "银行 利率 市场",
        "基金 股票 收益",
        "利率 银行 贷款",
        "市场 基金 下跌",
    ];
    let mut all = String::new();
    for i in 0..4 {
        for s in sport {
            all.push_str(&format!("{s} {i}\tsport\n"));
        }
        for m in money {
            all.push_str(&format!("{m} {i}\tfinance\n"));
        }
    }
    std::fs::write(dir.join("all.txt"), &all).unwrap();
    dir
}

fn nb() -> PipelineConfig {
    PipelineConfig::for_model(ModelConfig::Nb(
        crate::engine::classify::nb::NbConfig::new(
            crate::engine::classify::nb::NbKind::Multinomial,
            "1",
        )
        .unwrap(),
    ))
}

#[test]
fn split_train_explains_every_test_document() {
    let dir = corpus_dir("split");
    let job = TrainJob::from_params(TrainParams {
        corpus: CorpusChoice::Split {
            file: dir.join("all.txt"),
            test_share: 0.25,
            seed: 7,
        },
        strict: false,
        config: nb(),
        save_as: None,
        explain_top: 5,
    })
    .unwrap();
    let (out, preds, model) = job.execute(&()).unwrap();
    assert_eq!(out.result.test_docs, 10);
    assert_eq!(out.result.train_docs, 30);
    assert_eq!(preds.len(), 10);
    assert!(model.is_some());
    assert!(out.result.accuracy > 0.9, "{}", out.result.accuracy);
    let total: u64 = out.result.confusion.iter().flatten().sum();
    assert_eq!(total, 10);
    assert!(preds.iter().all(|p| !p.explanation.top_features.is_empty()));
}

#[test]
fn kfold_pools_every_document_once() {
    let dir = corpus_dir("kfold");
    let job = TrainJob::from_params(TrainParams {
        corpus: CorpusChoice::KFold {
            file: dir.join("all.txt"),
            folds: 4,
            seed: 1,
        },
        strict: false,
        config: nb(),
        save_as: None,
        explain_top: 3,
    })
    .unwrap();
    let (out, preds, _) = job.execute(&()).unwrap();
    assert_eq!(out.folds.len(), 4);
    assert_eq!(preds.len(), 40);
    let total: u64 = out.result.confusion.iter().flatten().sum();
    assert_eq!(total, 40);
    let mut idx: Vec<usize> = preds.iter().map(|p| p.index).collect();
    idx.sort_unstable();
    idx.dedup();
    assert_eq!(idx.len(), 40);
}

#[test]
fn sweep_job_gives_one_result_per_value_and_cancels() {
    let dir = corpus_dir("sweep");
    let p = SweepParams {
        corpus: CorpusChoice::Split {
            file: dir.join("all.txt"),
            test_share: 0.25,
            seed: 3,
        },
        strict: false,
        config: nb(),
        vary: Vary::Keep(vec![Keep::Top(2), Keep::Top(6), Keep::All]),
    };
    let job = SweepJob::from_params(p.clone()).unwrap();
    let out = job.execute(&()).unwrap();
    assert_eq!(out.points.len(), 3);
    let kept: Vec<usize> = out.points.iter().map(|p| p.result.features_kept).collect();
    assert_eq!(kept[0], 2);
    assert_eq!(kept[1], 6);
    assert!(kept[2] > 6);

    struct Cancel;
    impl Tick for Cancel {
        fn tick(&self, _f: f32, _m: &str) -> Result<()> {
            Err(EngineError::Cancelled)
        }
    }
    assert!(matches!(job.execute(&Cancel), Err(EngineError::Cancelled)));
}

#[test]
fn bad_parameters_are_refused() {
    let bad = CorpusChoice::Split {
        file: "x".into(),
        test_share: 1.5,
        seed: 0,
    };
    assert!(
        TrainJob::from_params(TrainParams {
            corpus: bad,
            strict: false,
            config: nb(),
            save_as: None,
            explain_top: 5,
        })
        .is_err()
    );
    assert!(
        SweepJob::from_params(SweepParams {
            corpus: CorpusChoice::KFold {
                file: "x".into(),
                folds: 3,
                seed: 0
            },
            strict: false,
            config: nb(),
            vary: Vary::K(vec![1]),
        })
        .is_err()
    );
}
