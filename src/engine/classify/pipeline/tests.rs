use super::*;
use crate::engine::classify::nb::NbKind;
use crate::engine::classify::select::{Combine, Keep, Method};

fn toks(s: &str) -> Vec<String> {
    s.split(' ').map(String::from).collect()
}

fn tiny() -> (Vec<Vec<String>>, Vec<usize>, Vec<String>) {
    let docs = [
        ("股票 基金 上涨", 0),
        ("股票 大盘 下跌", 0),
        ("基金 大盘 股票", 0),
        ("足球 比赛 进球", 1),
        ("篮球 比赛 球员", 1),
        ("足球 球员 转会", 1),
    ];
    (
        docs.iter().map(|d| toks(d.0)).collect(),
        docs.iter().map(|d| d.1).collect(),
        vec!["stocks".into(), "sports".into()],
    )
}

#[test]
fn every_model_learns_the_tiny_corpus_and_explains() {
    let (x, y, labels) = tiny();
    let models = [
        ModelConfig::Knn(KnnConfig {
            k: 3,
            ..KnnConfig::default()
        }),
        ModelConfig::Nb(NbConfig {
            kind: NbKind::Multinomial,
            alpha: Some(1.0),
        }),
        ModelConfig::Nb(NbConfig {
            kind: NbKind::Bernoulli,
            alpha: Some(1.0),
        }),
        ModelConfig::Rocchio(RocchioConfig::default()),
        ModelConfig::Tree(TreeConfig::default()),
        ModelConfig::Svm(LinearConfig::default()),
    ];
    for mc in models {
        let cfg = PipelineConfig::for_model(mc.clone());
        let m = Model::train(&x, &y, labels.clone(), &[], &cfg, &()).unwrap();
        assert_eq!(m.predict(&toks("股票 大盘")).0, vec![0], "{mc:?}");
        assert_eq!(m.predict(&toks("足球 比赛")).0, vec![1], "{mc:?}");
        let e = m.explain(&toks("足球 比赛"), 5);
        assert_eq!(e.predicted, vec!["sports"]);
        assert_eq!(e.class_scores[0].label, "sports");
        match mc {
            ModelConfig::Knn(_) => assert_eq!(e.neighbours.len(), 3),
            ModelConfig::Tree(_) => assert!(!e.path.is_empty()),
            _ => assert!(!e.top_features.is_empty(), "{mc:?}"),
        }
    }
}

#[test]
fn nb_explanation_names_the_deciding_words() {
    let (x, y, labels) = tiny();
    let cfg = PipelineConfig::for_model(ModelConfig::Nb(NbConfig {
        kind: NbKind::Multinomial,
        alpha: Some(1.0),
    }));
    let m = Model::train(&x, &y, labels, &[], &cfg, &()).unwrap();
    let e = m.explain(&toks("股票 未知词"), 5);
    assert_eq!(e.top_features[0].term, "股票");
    assert!(e.top_features[0].weight > 0.0);
}

#[test]
fn selection_keeps_n_features() {
    let (x, y, labels) = tiny();
    let mut cfg = PipelineConfig::for_model(ModelConfig::Knn(KnnConfig::default()));
    cfg.selection = Some(SelectionConfig {
        method: Method::Chi,
        combine: Combine::Max,
        keep: Keep::Top(4),
    });
    let m = Model::train(&x, &y, labels, &[], &cfg, &()).unwrap();
    assert_eq!(m.vocab.len(), 4);
    assert_eq!(m.features_total, 11);
}

#[test]
fn seeded_runs_are_deterministic() {
    let (x, y, labels) = tiny();
    let mut cfg = PipelineConfig::for_model(ModelConfig::Svm(LinearConfig::default()));
    cfg.seed = 42;
    cfg.threshold = Threshold::SCut { validation: 0.34 };
    let a = Model::train(&x, &y, labels.clone(), &[], &cfg, &()).unwrap();
    let b = Model::train(&x, &y, labels, &[], &cfg, &()).unwrap();
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
    assert_eq!(a.thresholds.len(), 2);
    let (s1, s2) = (
        stratified_split(&y, 2, 0.34, 1),
        stratified_split(&y, 2, 0.34, 1),
    );
    assert_eq!(s1, s2);
    assert_eq!(s1.1.len(), 2);
}

struct CancelNow;
impl Tick for CancelNow {
    fn tick(&self, _f: f32, _m: &str) -> Result<()> {
        Err(EngineError::Cancelled)
    }
}

#[test]
fn a_failing_tick_cancels_training() {
    let (x, y, labels) = tiny();
    let cfg = PipelineConfig::for_model(ModelConfig::Knn(KnnConfig::default()));
    let e = Model::train(&x, &y, labels, &[], &cfg, &CancelNow).unwrap_err();
    assert!(matches!(e, EngineError::Cancelled));
}
