//! Ranking models, each score a sum of named parts so the panel can say why a page is where
//! it is (book ch. 10 [L3536–L3922]):
//!
//! - **BM25** (k1, b; idf = ln(1 + (N − df + 0.5)/(df + 0.5)), Lucene's and tantivy's form) — not
//!   in the book, labelled so; the workbench's default because it is what students meet next.
//! - **TF-IDF / VSM** [L3556–L3575]: normalised tf, binary, or tf·idf (tf/Σtf × ln(M/k)), as a
//!   cosine (the book) or a plain dot product; the query vector weighed the same way.
//! - **Tianwang** [L3743–L3918]: W = kB·WB + kL·WL + kU·WU (or the product, method 1).
//!   WB(t,p) = WBT × DS(p) × IDF(t) / WB_max with WBT the tag-weighted occurrences (Table
//!   10-2), DS = ln(S_max/S(p)) (the book; the longest page weighs 0) or ln(1 + S_max/S(p));
//!   the query's WB combines its terms' by AND = mean (as printed) or min, OR = max.
//!   WL(p) = (ln(LHN + 1) + WLT) / WL_max from the external in-degree [L3795–L3819], or
//!   PageRank over the crawl's links; WU(q,p) from clicks with the position factors of Table
//!   10-3 [L3825–L3884] (0 when no click log is loaded).
//!
//! ```
//! use tianwang::engine::index::score::bm25_term;
//! // idf of a term in 1 of 10 docs, tf 2, a document of average length, k1 1.2, b 0.75:
//! let s = bm25_term(10.0, 1.0, 2.0, 5.0, 5.0, 1.2, 0.75);
//! assert!((s - (1.0f64 + 9.5 / 1.5).ln() * 2.0 * 2.2 / (2.0 + 1.2)).abs() < 1e-12);
//! ```

use serde::{Deserialize, Serialize};

use crate::engine::error::{EngineError, Result};

/// The ranking model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Model {
    #[default]
    Bm25,
    Tfidf,
    Tianwang,
}

impl Model {
    pub const ALL: [Model; 3] = [Model::Bm25, Model::Tfidf, Model::Tianwang];

    pub fn name(self) -> &'static str {
        match self {
            Model::Bm25 => "bm25",
            Model::Tfidf => "tfidf",
            Model::Tianwang => "tianwang",
        }
    }

    pub fn parse(s: &str) -> Result<Model> {
        Model::ALL
            .into_iter()
            .find(|m| m.name() == s.trim().to_ascii_lowercase())
            .ok_or_else(|| {
                EngineError::invalid("--model", format!("`{s}`: one of bm25, tfidf, tianwang"))
            })
    }
}

/// The VSM weighting [L3556–L3571].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Vsm {
    /// wᵢ = mᵢ / Σ mⱼ.
    NormTf,
    /// wᵢ ∈ {0, 1}.
    Binary,
    /// wᵢ = mᵢ / Σ mⱼ × ln(M / kᵢ).
    #[default]
    TfIdf,
}

/// How the query's terms' WB combine under AND (the book prints the mean [L3892]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum AndOp {
    #[default]
    Mean,
    Min,
}

/// DS(p), the page-size factor of WB [L3774–L3778].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum DsMode {
    /// ln(S_max / S(p)): the longest page gets 0 (the book's quirk, kept to be seen).
    #[default]
    Book,
    /// ln(1 + S_max / S(p)).
    Smooth,
}

/// Where WL comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum WlSource {
    /// ln(LHN + 1), LHN = in-links from other hosts (the book).
    #[default]
    Lhn,
    /// PageRank over the crawl's links (normalised form, dangling spread uniformly).
    Pagerank,
}

/// Linear (Tianwang's choice [L3914]) or product combination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Combine {
    #[default]
    Linear,
    Product,
}

/// Every ranking parameter; raw values → [`RankConfig::validate`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RankConfig {
    pub model: Model,
    pub k1: f64,
    pub b: f64,
    pub vsm: Vsm,
    pub cosine: bool,
    /// kB, kL, kU (the book gives none; 0.6 / 0.2 / 0.2 as the digest suggests). They are
    /// used as given; the book's kB + kL + kU = 1 is shown, not forced.
    pub kb: f64,
    pub kl: f64,
    pub ku: f64,
    pub and_op: AndOp,
    pub ds: DsMode,
    pub wl: WlSource,
    pub combine: Combine,
    /// PageRank's damping d when WL = PageRank.
    pub damping: f64,
    /// WLT's new-page window in days (0 = off, the default: crawl time is not publication
    /// time) [L3807–L3811].
    pub new_page_days: f64,
    /// How a query's words combine when it says nothing (`OR` in the query always wins):
    /// AND as TSE [L792], or OR — what rank_bm25 and long queries (a whole title) need.
    pub op: super::query::Op,
}

impl Default for RankConfig {
    fn default() -> Self {
        RankConfig {
            model: Model::Bm25,
            k1: 1.2,
            b: 0.75,
            vsm: Vsm::TfIdf,
            cosine: true,
            kb: 0.6,
            kl: 0.2,
            ku: 0.2,
            and_op: AndOp::Mean,
            ds: DsMode::Book,
            wl: WlSource::Lhn,
            combine: Combine::Linear,
            damping: 0.85,
            new_page_days: 0.0,
            op: super::query::Op::And,
        }
    }
}

impl RankConfig {
    pub(crate) fn validate(&self) -> Result<()> {
        if !(self.k1.is_finite() && self.k1 >= 0.0) {
            return Err(EngineError::invalid("--k1", "must be a number ≥ 0"));
        }
        if !(0.0..=1.0).contains(&self.b) {
            return Err(EngineError::invalid("--b", "must be between 0 and 1"));
        }
        for (n, v) in [("kB", self.kb), ("kL", self.kl), ("kU", self.ku)] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(EngineError::invalid(
                    "--weights",
                    format!("{n} must be ≥ 0"),
                ));
            }
        }
        if self.kb + self.kl + self.ku <= 0.0 {
            return Err(EngineError::invalid(
                "--weights",
                "kB + kL + kU must be > 0",
            ));
        }
        if !(self.damping > 0.0 && self.damping < 1.0) {
            return Err(EngineError::invalid("--damping", "must be between 0 and 1"));
        }
        if !(self.new_page_days.is_finite() && self.new_page_days >= 0.0) {
            return Err(EngineError::invalid("--new-page-days", "must be ≥ 0"));
        }
        Ok(())
    }

    /// `kB,kL,kU` from the CLI.
    pub(crate) fn set_weights(&mut self, s: &str) -> Result<()> {
        let v: Vec<f64> = s
            .split(',')
            .map(|x| x.trim().parse::<f64>())
            .collect::<std::result::Result<_, _>>()
            .map_err(|_| {
                EngineError::invalid("--weights", format!("`{s}`: three numbers kB,kL,kU"))
            })?;
        let [kb, kl, ku] = v[..] else {
            return Err(EngineError::invalid(
                "--weights",
                format!("`{s}`: three numbers kB,kL,kU"),
            ));
        };
        (self.kb, self.kl, self.ku) = (kb, kl, ku);
        Ok(())
    }

    /// One line naming the model and its parameters (run tags, legends).
    pub fn label(&self) -> String {
        let op = if self.op == super::query::Op::Or {
            " or"
        } else {
            ""
        };
        let l = match self.model {
            Model::Bm25 => format!("bm25 k1={} b={}", self.k1, self.b),
            Model::Tfidf => format!(
                "tfidf {:?}{}",
                self.vsm,
                if self.cosine { " cos" } else { " dot" }
            )
            .to_lowercase(),
            Model::Tianwang => format!(
                "tianwang kB={} kL={} kU={} wl={:?}",
                self.kb, self.kl, self.ku, self.wl
            )
            .to_lowercase(),
        };
        format!("{l}{op}")
    }

    /// Parse `key=value` pairs (`model=bm25,k1=1.5,b=0.7`), for evaluation configurations.
    pub(crate) fn parse_spec(spec: &str) -> Result<RankConfig> {
        let mut c = RankConfig::default();
        for item in spec.split([',', ' ']).filter(|s| !s.is_empty()) {
            let (k, v) = item.split_once('=').unwrap_or(("model", item));
            let num = || {
                v.parse::<f64>().map_err(|_| {
                    EngineError::invalid("--config", format!("`{item}`: {k} takes a number"))
                })
            };
            match k {
                "model" => c.model = Model::parse(v)?,
                "k1" => c.k1 = num()?,
                "b" => c.b = num()?,
                "kb" | "kB" => c.kb = num()?,
                "kl" | "kL" => c.kl = num()?,
                "ku" | "kU" => c.ku = num()?,
                "damping" => c.damping = num()?,
                "op" => {
                    c.op = match v {
                        "and" => super::query::Op::And,
                        "or" => super::query::Op::Or,
                        _ => {
                            return Err(EngineError::invalid(
                                "--config",
                                format!("`{item}`: op is and or or"),
                            ));
                        }
                    }
                }
                "cosine" => c.cosine = v != "false" && v != "0",
                "vsm" => {
                    c.vsm = match v {
                        "normtf" => Vsm::NormTf,
                        "binary" => Vsm::Binary,
                        "tfidf" => Vsm::TfIdf,
                        _ => {
                            return Err(EngineError::invalid(
                                "--config",
                                format!("`{item}`: vsm is normtf, binary or tfidf"),
                            ));
                        }
                    }
                }
                "and" => c.and_op = if v == "min" { AndOp::Min } else { AndOp::Mean },
                "ds" => {
                    c.ds = if v == "smooth" {
                        DsMode::Smooth
                    } else {
                        DsMode::Book
                    }
                }
                "wl" => {
                    c.wl = if v == "pagerank" {
                        WlSource::Pagerank
                    } else {
                        WlSource::Lhn
                    }
                }
                "combine" => {
                    c.combine = if v == "product" {
                        Combine::Product
                    } else {
                        Combine::Linear
                    }
                }
                _ => {
                    return Err(EngineError::invalid(
                        "--config",
                        format!("`{item}`: unknown key {k}"),
                    ));
                }
            }
        }
        c.validate()?;
        Ok(c)
    }
}

/// One term's BM25 part: idf × tf(k1 + 1) / (tf + k1(1 − b + b·dl/avgdl)).
pub fn bm25_term(n: f64, df: f64, tf: f64, dl: f64, avgdl: f64, k1: f64, b: f64) -> f64 {
    let idf = bm25_idf(n, df);
    idf * tf * (k1 + 1.0) / (tf + k1 * (1.0 - b + b * dl / avgdl.max(f64::MIN_POSITIVE)))
}

/// BM25's idf, ln(1 + (N − df + 0.5)/(df + 0.5)): never negative.
pub(crate) fn bm25_idf(n: f64, df: f64) -> f64 {
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

/// A named part of a score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Part {
    /// `bm25`, `vsm`, `WB`, `WL`, `WU`, …
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub term: Option<String>,
    pub value: f64,
    /// How the value was made, in numbers.
    pub detail: String,
}

/// A score and the parts it is the sum (or, for the product form, the product) of.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Explain {
    pub model: String,
    pub total: f64,
    pub parts: Vec<Part>,
}

/// The position factor c(pos) of Table 10-3 [L3841–L3854] for a 1-based result position.
pub(crate) fn position_factor(pos: usize) -> f64 {
    const C: [f64; 10] = [
        1.00, 3.88, 6.39, 9.46, 12.78, 16.31, 19.71, 23.65, 27.82, 40.00,
    ];
    C[((pos.max(1) - 1) / 10).min(9)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bm25_by_hand() {
        // N = 4, df = 2, tf = 3, dl = 10, avgdl = 8, k1 = 1.2, b = 0.75.
        let idf = (1.0f64 + 2.5 / 2.5).ln();
        let want = idf * 3.0 * 2.2 / (3.0 + 1.2 * (0.25 + 0.75 * 10.0 / 8.0));
        assert!((bm25_term(4.0, 2.0, 3.0, 10.0, 8.0, 1.2, 0.75) - want).abs() < 1e-12);
        assert!(bm25_idf(10.0, 10.0) > 0.0);
    }

    #[test]
    fn table_10_3_factors() {
        assert_eq!(position_factor(1), 1.0);
        assert_eq!(position_factor(10), 1.0);
        assert_eq!(position_factor(11), 3.88);
        assert_eq!(position_factor(95), 40.0);
        assert_eq!(position_factor(1000), 40.0);
    }

    #[test]
    fn specs_parse_and_refuse() {
        let c = RankConfig::parse_spec("model=bm25,k1=1.5,b=0.7").unwrap();
        assert_eq!((c.k1, c.b), (1.5, 0.7));
        assert_eq!(
            RankConfig::parse_spec("tianwang").unwrap().model,
            Model::Tianwang
        );
        assert!(RankConfig::parse_spec("b=2").is_err());
        assert!(RankConfig::parse_spec("zz=1").is_err());
        let mut c = RankConfig::default();
        assert!(c.set_weights("1,2").is_err());
        c.set_weights("0.5,0.3,0.2").unwrap();
        assert_eq!(c.kl, 0.3);
    }
}
