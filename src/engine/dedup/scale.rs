//! The scale experiment (issue 14's figures): a generated corpus of N pages with planted
//! near-duplicates ([`Synthetic`]) is fingerprinted in streamed chunks (the dedup lab's own
//! MD5 and MinHash code; memory bounded by the chunk), written as one `signatures` file, and
//! grouped by exact digest and by LSH band on an engine — DataFusion in-process with a bounded
//! pool, Spark, or the native one-process grouping over the same file. Candidates are verified
//! by exact Jaccard on regenerated pages (every page is a function of its index), and the
//! planted pairs are checked off. Per-stage seconds feed the crossover model.
//!
//! The CCDet paper saw Hadoop beat one machine past ~300 k pages (seed 001); on one 2-core
//! machine a "cluster" is Spark `local[2]`, so the crossover is measured where it shows and
//! otherwise modelled from the measured per-stage costs ([`crossover`]).

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::on_engine;
use crate::engine::dedup::config::SimFeatures;
use crate::engine::dedup::devset::Synthetic;
use crate::engine::dedup::{Config, Prepared, minhash};
use crate::engine::error::{EngineError, Result};
use crate::engine::exec::{Engine, EngineConfig, parquet_io};
use crate::engine::jobs::Tick;

/// The dedup configuration of the scale run: the defaults (128 permutations, Jaccard ≥ 0.8
/// verified exactly), with two changes. SimHash reads character shingles (corpus-independent,
/// so chunks fingerprint alone; the default term weights need the whole corpus's document
/// frequencies). The LSH split is 32 bands × 4 rows instead of the split that balances false
/// positives and negatives around 0.8 (9 × 13): a planted copy (three characters replaced in
/// 150–250) has J ≈ 0.8–0.9, where 9 × 13 finds only 1 − (1 − 0.86¹³)⁹ ≈ 75 % of pairs, and
/// 32 × 4 finds 1 − (1 − 0.8⁴)³² ≈ 1 − 5·10⁻⁸ of pairs at J = 0.8.
pub(crate) fn scale_config() -> Config {
    Config {
        simhash_features: SimFeatures::Shingles,
        bands: 32,
        rows: 4,
        ..Config::default()
    }
}

/// What the signature stage did.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SigStage {
    pub pages: usize,
    /// Planted copies and the generator's seed: the corpus the signatures are of.
    #[serde(default)]
    pub planted: usize,
    #[serde(default)]
    pub seed: u64,
    pub seconds: f64,
    pub bytes: u64,
}

/// Fingerprint `spec`'s pages in chunks of `chunk` into the signature files of `dir`.
pub fn write_signatures(
    spec: &Synthetic,
    cfg: &Config,
    chunk: usize,
    dir: &Path,
    tick: &dyn Tick,
) -> Result<SigStage> {
    let t = Instant::now();
    let mut w = on_engine::SigWriter::create(dir, cfg)?;
    let chunk = chunk.max(1);
    let mut start = 0;
    while start < spec.n {
        let end = (start + chunk).min(spec.n);
        tick.tick(
            0.5 * start as f32 / spec.n as f32,
            &format!("signatures: {start} of {} pages", spec.n),
        )?;
        let docs: Vec<_> = (start..end).into_par_iter().map(|i| spec.doc(i)).collect();
        let prep = Prepared::new(&docs, cfg);
        let mut rows = on_engine::signatures(&prep);
        for r in &mut rows {
            r.doc += start as i64;
        }
        w.write(&rows)?;
        start = end;
    }
    w.finish()?;
    let (a, b) = on_engine::sig_files(dir);
    let bytes = [a, b]
        .iter()
        .map(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
        .sum();
    Ok(SigStage {
        pages: spec.n,
        planted: spec.planted,
        seed: spec.seed,
        seconds: t.elapsed().as_secs_f64(),
        bytes,
    })
}

/// What the grouping stage found.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Grouped {
    pub engine: String,
    /// Groups of equal MD5.
    pub exact_groups: usize,
    /// Distinct candidate pairs from the LSH bands.
    pub candidates: usize,
    pub seconds: f64,
    pub spilled_bytes: u64,
    /// Peak memory of an engine outside this process (Spark's JVM), MB.
    pub engine_peak_rss_mb: f64,
    #[serde(skip)]
    pub exact: Vec<Vec<usize>>,
    #[serde(skip)]
    pub pairs: Vec<(usize, usize)>,
}

fn pairs_of(groups: &[Vec<usize>]) -> Vec<(usize, usize)> {
    let mut set: HashSet<(usize, usize)> = HashSet::new();
    for g in groups {
        for (i, &x) in g.iter().enumerate() {
            for &y in &g[i + 1..] {
                set.insert((x, y));
            }
        }
    }
    let mut v: Vec<_> = set.into_iter().collect();
    v.sort_unstable();
    v
}

/// Group the signatures at `sig` on `engine` (`work` holds the engine's output).
pub fn group(sig: &Path, engine: &EngineConfig, work: &Path, tick: &dyn Tick) -> Result<Grouped> {
    let t = Instant::now();
    let (exact, buckets, spilled, engine_rss) = if engine.engine == Engine::Native {
        let (exact, buckets) = group_native(sig)?;
        (exact, buckets, 0, 0.0)
    } else {
        let out_md5 = work.join("md5");
        let r1 = crate::engine::exec::run_plan(&on_engine::plan_md5(sig), &out_md5, engine, tick)?;
        let exact = on_engine::member_groups(&parquet_io::read_output(&out_md5.join("members"))?)?;
        let out_mh = work.join("minhash");
        let r2 =
            crate::engine::exec::run_plan(&on_engine::plan_minhash(sig), &out_mh, engine, tick)?;
        let buckets = on_engine::member_groups(&parquet_io::read_output(&out_mh.join("members"))?)?;
        (
            exact,
            buckets,
            r1.spilled_bytes + r2.spilled_bytes,
            r1.engine_peak_rss_mb.max(r2.engine_peak_rss_mb),
        )
    };
    let pairs = pairs_of(&buckets);
    Ok(Grouped {
        engine: engine.engine.name().into(),
        exact_groups: exact.len(),
        candidates: pairs.len(),
        seconds: t.elapsed().as_secs_f64(),
        spilled_bytes: spilled,
        engine_peak_rss_mb: engine_rss,
        exact,
        pairs,
    })
}

/// The one-process grouping over the same files, by sorting: (digest, doc) and
/// (band, key, doc) records sorted, runs of equal keys are the groups.
type Groups = Vec<Vec<usize>>;

fn group_native(dir: &Path) -> Result<(Groups, Groups)> {
    let (rows, _) = on_engine::read_signatures(dir.join("signatures.parquet").as_path())?;
    let mut md5: Vec<([u8; 16], u32)> = rows
        .iter()
        .filter_map(|r| r.md5.map(|m| (m, r.doc as u32)))
        .collect();
    drop(rows);
    md5.sort_unstable();
    let exact = runs(&md5, |x| x.0, |x| x.1);
    drop(md5);
    let (batches, _) = parquet_io::read(&on_engine::sig_files(dir).1, &on_engine::MINHASH_BANDS)?;
    let mut keys: Vec<(u32, u64, u32)> = Vec::new();
    for b in &batches {
        use datafusion::arrow::array::AsArray;
        use datafusion::arrow::datatypes::{Int32Type, Int64Type};
        let (d, bd, k) = (b.column(0), b.column(1), b.column(2));
        let (d, bd, k) = (
            d.as_primitive::<Int64Type>(),
            bd.as_primitive::<Int32Type>(),
            k.as_primitive::<Int64Type>(),
        );
        for i in 0..b.num_rows() {
            keys.push((bd.value(i) as u32, k.value(i) as u64, d.value(i) as u32));
        }
    }
    drop(batches);
    keys.par_sort_unstable();
    let buckets = runs(&keys, |x| (x.0, x.1), |x| x.2);
    Ok((exact, buckets))
}

/// Groups (size ≥ 2) of the sorted `v`'s runs of equal `key`, as sorted document lists.
fn runs<T, K: PartialEq>(
    v: &[T],
    key: impl Fn(&T) -> K,
    doc: impl Fn(&T) -> u32,
) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i + 1;
        while j < v.len() && key(&v[j]) == key(&v[i]) {
            j += 1;
        }
        if j - i > 1 {
            let mut g: Vec<usize> = v[i..j].iter().map(|x| doc(x) as usize).collect();
            g.sort_unstable();
            g.dedup();
            if g.len() > 1 {
                out.push(g);
            }
        }
        i = j;
    }
    out.sort_unstable();
    out
}

/// Candidates re-checked by exact Jaccard over regenerated pages: the verified pairs.
pub fn verify(
    spec: &Synthetic,
    cfg: &Config,
    pairs: &[(usize, usize)],
) -> Vec<(usize, usize, f64)> {
    let cfg = Arc::new(cfg.clone());
    pairs
        .par_iter()
        .filter_map(|&(a, b)| {
            let docs = [spec.doc(a), spec.doc(b)];
            let prep = Prepared::new(&docs, &cfg);
            let (sets, _) = minhash::shingle_sets(&prep);
            let j = minhash::jaccard(&sets[0], &sets[1]);
            (j >= cfg.threshold).then_some((a, b, j))
        })
        .collect()
}

/// One engine's run over one corpus size.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ScaleRow {
    pub tool: String,
    pub corpus: String,
    pub pages: usize,
    pub signatures_s: f64,
    pub group_s: f64,
    pub verify_s: f64,
    pub total_s: f64,
    pub pages_per_s: f64,
    pub exact_groups: usize,
    pub candidates: usize,
    pub verified: usize,
    pub planted: usize,
    pub planted_found: usize,
    pub spilled_bytes: u64,
    /// This process's peak resident memory, MB (the CLI fills it in).
    pub peak_rss_mb: f64,
    /// An engine outside this process (Spark's JVM): its peak resident memory, MB.
    #[serde(default)]
    pub engine_peak_rss_mb: f64,
}

/// Run the whole experiment for `spec` on `engine`, reusing `sig` when it is already written
/// for this corpus (the signature stage is the same for every engine).
pub fn run(
    spec: &Synthetic,
    engine: &EngineConfig,
    sig_stage: &SigStage,
    sig: &Path,
    work: &Path,
    tick: &dyn Tick,
) -> Result<ScaleRow> {
    let cfg = scale_config();
    let g = group(sig, engine, work, tick)?;
    let t = Instant::now();
    let verified = verify(spec, &cfg, &g.pairs);
    let verify_s = t.elapsed().as_secs_f64();
    let found: HashSet<(usize, usize)> = verified.iter().map(|&(a, b, _)| (a, b)).collect();
    let exact: HashSet<(usize, usize)> = pairs_of(&g.exact).into_iter().collect();
    let planted = spec.pairs();
    let hit = planted
        .iter()
        .filter(|&&(a, b)| {
            let k = (a.min(b), a.max(b));
            found.contains(&k) || exact.contains(&k)
        })
        .count();
    let total = sig_stage.seconds + g.seconds + verify_s;
    if spec.n == 0 {
        return Err(EngineError::invalid("--pages", "at least one page"));
    }
    Ok(ScaleRow {
        tool: format!("tianwang-{}", g.engine),
        corpus: format!("synthetic-{}", spec.n),
        pages: spec.n,
        signatures_s: sig_stage.seconds,
        group_s: g.seconds,
        verify_s,
        total_s: total,
        pages_per_s: spec.n as f64 / total.max(1e-9),
        exact_groups: g.exact_groups,
        candidates: g.candidates,
        verified: verified.len(),
        planted: planted.len(),
        planted_found: hit,
        spilled_bytes: g.spilled_bytes,
        peak_rss_mb: 0.0,
        engine_peak_rss_mb: g.engine_peak_rss_mb,
    })
}

/// The crossover model: from measured per-page costs, the corpus size past which `machines`
/// machines running the distributed engine beat one process.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Crossover {
    /// Seconds per page of the signature stage on one machine (both sides).
    pub sig_s_per_page: f64,
    /// Seconds per page of the one-process grouping.
    pub native_group_s_per_page: f64,
    /// Fixed seconds of a distributed job (start, scheduling), from the smallest run.
    pub dist_fixed_s: f64,
    /// Seconds per page of the distributed grouping on this machine's cores.
    pub dist_group_s_per_page: f64,
    pub machines: usize,
    /// Pages past which the distributed run wins (`None`: never, under these costs).
    pub pages: Option<f64>,
    pub note: String,
}

/// T_one(N) = (s + g₁)·N;  T_m(N) = F + (s + g_d)·N / m  ⇒  N* = F / (s + g₁ − (s + g_d)/m).
pub fn crossover(sig: f64, native: f64, fixed: f64, dist: f64, machines: usize) -> Crossover {
    let m = machines.max(1) as f64;
    let gain = sig + native - (sig + dist) / m;
    Crossover {
        sig_s_per_page: sig,
        native_group_s_per_page: native,
        dist_fixed_s: fixed,
        dist_group_s_per_page: dist,
        machines,
        pages: (gain > 0.0).then(|| fixed / gain),
        note: "modelled from measured per-stage costs: signatures and grouping split evenly \
               over the machines, the distributed job's fixed cost paid once, network shuffle \
               not charged beyond what local mode measured"
            .into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossover_solves_the_model() {
        let c = crossover(1e-5, 1e-6, 20.0, 4e-6, 12);
        let n = c.pages.unwrap();
        let one = (1e-5 + 1e-6) * n;
        let many = 20.0 + (1e-5 + 4e-6) * n / 12.0;
        assert!((one - many).abs() < 1e-6 * one, "{one} vs {many}");
        assert!(crossover(1e-5, 0.0, 20.0, 1e-3, 2).pages.is_none());
    }
}
