//! The dedup lab's grouping on DataFusion or Spark, with the native answer. The per-document
//! stage stays in Rust (normalised text → MD5; weighted features → SimHash; shingles → MinHash
//! → LSH band keys: the same functions `engine::dedup` runs) and reaches the engine as a
//! `signatures` Parquet file ([`SIGNATURES`]); the engine does what grows with
//! the corpus — grouping, bucketing, candidate pairs — and the verdicts go through the same
//! [`crate::engine::dedup::outcome_of`] as the native run, so equal findings are equal outcomes.
//!
//! | method | plan (SQL, the same text on both engines) | verification |
//! |---|---|---|
//! | `md5` | `GROUP BY md5_hi, md5_lo HAVING COUNT(*) > 1`, joined back to the documents | none (exact) |
//! | `simhash` | k+1 block keys (`simhash & mask`) → self-join on equal blocks → `bit_count(a ^ b) <= k` | in the plan (popcount UDF) |
//! | `minhash` | the long `minhash-bands` file → `GROUP BY band, bkey HAVING COUNT(*) > 1`, joined back | exact Jaccard in Rust (seed 001) |
//!
//! Other methods run natively only; asking for them on an engine is the user's bad input.
//!
//! Feature `bigjobs`; the always-built dispatch is [`super::run_on`].

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, Float64Builder, Int32Array, Int64Array, Int64Builder, ListBuilder,
    RecordBatch, StringArray, StringBuilder,
};
use datafusion::arrow::datatypes::{Int32Type, Int64Type};

use crate::engine::dedup::{
    Config, Doc, Found, Method, Outcome, Pair, Prepared, Relation, minhash, simhash,
};
use crate::engine::error::{EngineError, Result};
use crate::engine::exec::plan::Plan;
use crate::engine::exec::schema::{Col, SchemaDef, c};
use crate::engine::exec::{EngineConfig, parquet_io};
use crate::engine::jobs::Tick;

/// One document's signatures (unsigned, as the native code computes them).
#[derive(Debug, Clone, PartialEq)]
pub struct SigRow {
    pub doc: i64,
    pub name: String,
    pub md5: Option<[u8; 16]>,
    pub simhash: Option<u64>,
    pub bands: Vec<u64>,
    pub shingles: usize,
    pub ccdet: Vec<u64>,
}

/// Every document's signatures under the prepared configuration.
pub fn signatures(prep: &Prepared) -> Vec<SigRow> {
    let cfg = prep.config();
    let (norm, _) = prep.norm();
    let (fps, _, _) = simhash::fingerprints(prep);
    let (sets, _) = minhash::shingle_sets(prep);
    let bands = minhash::band_keys(&sets, cfg);
    let cc = crate::engine::dedup::ccdet::feature_sets(prep);
    prep.docs()
        .iter()
        .enumerate()
        .map(|(i, d)| SigRow {
            doc: i as i64,
            name: d.name.clone(),
            md5: (!norm[i].is_empty()).then(|| md5_of(&norm[i].iter().collect::<String>())),
            simhash: fps[i],
            bands: bands[i].clone(),
            shingles: sets[i].len(),
            ccdet: cc[i].clone(),
        })
        .collect()
}

fn md5_of(s: &str) -> [u8; 16] {
    crate::engine::dedup::tianwang::md5(s.as_bytes())
}

fn list_i64(rows: impl Iterator<Item = Vec<i64>>) -> ArrayRef {
    let mut b = ListBuilder::new(Int64Builder::new());
    for r in rows {
        b.values().append_slice(&r);
        b.append(true);
    }
    Arc::new(b.finish())
}

/// The signatures as one batch of the `signatures` schema (hashes' bits as `i64`).
pub(crate) fn signatures_batch(rows: &[SigRow]) -> Result<RecordBatch> {
    let half = |m: &Option<[u8; 16]>, hi: bool| {
        m.map(|m| {
            let b: [u8; 8] = if hi {
                m[..8].try_into()
            } else {
                m[8..].try_into()
            }
            .unwrap_or([0; 8]);
            i64::from_be_bytes(b)
        })
    };
    let cols: Vec<ArrayRef> = vec![
        Arc::new(Int64Array::from_iter_values(rows.iter().map(|r| r.doc))),
        Arc::new(StringArray::from_iter_values(rows.iter().map(|r| &r.name))),
        Arc::new(Int64Array::from_iter(
            rows.iter().map(|r| half(&r.md5, true)),
        )),
        Arc::new(Int64Array::from_iter(
            rows.iter().map(|r| half(&r.md5, false)),
        )),
        Arc::new(Int64Array::from_iter(
            rows.iter().map(|r| r.simhash.map(|h| h as i64)),
        )),
        list_i64(
            rows.iter()
                .map(|r| r.bands.iter().map(|&k| k as i64).collect()),
        ),
        Arc::new(Int32Array::from_iter_values(
            rows.iter()
                .map(|r| r.shingles.min(i32::MAX as usize) as i32),
        )),
        list_i64(
            rows.iter()
                .map(|r| r.ccdet.iter().map(|&k| k as i64).collect()),
        ),
    ];
    RecordBatch::try_new(SIGNATURES.arrow(), cols)
        .map_err(|e| EngineError::Internal(format!("signatures batch: {e}")))
}

/// The file metadata that says how the signatures were made.
pub(crate) fn signatures_meta(cfg: &Config) -> Vec<(String, String)> {
    let (b, r) = minhash::bands_rows(cfg);
    vec![
        ("tianwang.dedup_config".into(), cfg.to_json().to_string()),
        ("tianwang.minhash_bands".into(), b.to_string()),
        ("tianwang.minhash_rows".into(), r.to_string()),
    ]
}

/// The band keys of `rows` in long form (the `minhash-bands` schema).
pub(crate) fn bands_batch(rows: &[SigRow]) -> Result<RecordBatch> {
    let (mut d, mut b, mut k) = (Vec::new(), Vec::new(), Vec::new());
    for r in rows.iter().filter(|r| r.shingles > 0) {
        for (i, &key) in r.bands.iter().enumerate() {
            d.push(r.doc);
            b.push(i as i32);
            k.push(key as i64);
        }
    }
    let cols: Vec<ArrayRef> = vec![
        Arc::new(Int64Array::from(d)),
        Arc::new(Int32Array::from(b)),
        Arc::new(Int64Array::from(k)),
    ];
    RecordBatch::try_new(MINHASH_BANDS.arrow(), cols)
        .map_err(|e| EngineError::Internal(format!("bands batch: {e}")))
}

/// The signature files of a directory: `signatures.parquet` and `minhash_bands.parquet`.
pub fn sig_files(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    (
        dir.join("signatures.parquet"),
        dir.join("minhash_bands.parquet"),
    )
}

/// Writers of both signature files, for a corpus written in chunks.
pub(crate) struct SigWriter {
    sig: parquet_io::AtomicWriter,
    bands: parquet_io::AtomicWriter,
    pub rows: usize,
}

impl SigWriter {
    pub fn create(dir: &Path, cfg: &Config) -> Result<SigWriter> {
        let (s, b) = sig_files(dir);
        let meta = signatures_meta(cfg);
        Ok(SigWriter {
            sig: parquet_io::AtomicWriter::create(&s, SIGNATURES.arrow(), &meta)?,
            bands: parquet_io::AtomicWriter::create(&b, MINHASH_BANDS.arrow(), &meta)?,
            rows: 0,
        })
    }

    pub fn write(&mut self, rows: &[SigRow]) -> Result<()> {
        self.sig.write(&signatures_batch(rows)?)?;
        self.bands.write(&bands_batch(rows)?)?;
        self.rows += rows.len();
        Ok(())
    }

    pub fn finish(self) -> Result<usize> {
        self.sig.finish()?;
        self.bands.finish()?;
        Ok(self.rows)
    }
}

/// Write `prep`'s signatures into `dir` (both files).
pub fn write_signatures(prep: &Prepared, dir: &Path) -> Result<usize> {
    let rows = signatures(prep);
    let mut w = SigWriter::create(dir, prep.config())?;
    w.write(&rows)?;
    w.finish()
}

/// Column `name`: a user's file was schema-checked when opened and a plan's output is ours, so
/// a missing column (or a cast that fails) is our fault.
fn col<'a>(b: &'a RecordBatch, name: &str) -> Result<&'a ArrayRef> {
    b.column_by_name(name)
        .ok_or_else(|| EngineError::Internal(format!("no column {name}")))
}

fn list_values(a: &ArrayRef, i: usize) -> Vec<i64> {
    let l = match a.data_type() {
        datafusion::arrow::datatypes::DataType::LargeList(_) => {
            let l = a.as_list::<i64>();
            return l.value(i).as_primitive::<Int64Type>().values().to_vec();
        }
        _ => a.as_list::<i32>(),
    };
    if l.is_null(i) {
        return Vec::new();
    }
    l.value(i).as_primitive::<Int64Type>().values().to_vec()
}

/// Signatures read back (the round trip of [`write_signatures`]) with their metadata.
pub fn read_signatures(path: &Path) -> Result<(Vec<SigRow>, parquet_io::Meta)> {
    let (batches, meta) = parquet_io::read(path, &SIGNATURES)?;
    let mut rows = Vec::new();
    for b in &batches {
        let doc = col(b, "doc")?.as_primitive::<Int64Type>();
        let name = col(b, "name")?.as_string::<i32>();
        let hi = col(b, "md5_hi")?.as_primitive::<Int64Type>();
        let lo = col(b, "md5_lo")?.as_primitive::<Int64Type>();
        let sh = col(b, "simhash")?.as_primitive::<Int64Type>();
        let bands = col(b, "minhash_bands")?;
        let n = col(b, "shingles")?.as_primitive::<Int32Type>();
        let cc = col(b, "ccdet")?;
        for i in 0..b.num_rows() {
            let md5 = (!hi.is_null(i) && !lo.is_null(i)).then(|| {
                let mut m = [0u8; 16];
                m[..8].copy_from_slice(&hi.value(i).to_be_bytes());
                m[8..].copy_from_slice(&lo.value(i).to_be_bytes());
                m
            });
            rows.push(SigRow {
                doc: doc.value(i),
                name: name.value(i).to_string(),
                md5,
                simhash: (!sh.is_null(i)).then(|| sh.value(i) as u64),
                bands: list_values(bands, i)
                    .into_iter()
                    .map(|k| k as u64)
                    .collect(),
                shingles: n.value(i).max(0) as usize,
                ccdet: list_values(cc, i).into_iter().map(|k| k as u64).collect(),
            });
        }
    }
    rows.sort_by_key(|r| r.doc);
    Ok((rows, meta))
}

/// Documents as one batch of the `pages` schema.
pub(crate) fn pages_batch(docs: &[Doc]) -> Result<RecordBatch> {
    pages_batch_at(docs, 0)
}

/// Documents as one batch of the `pages` schema, the first numbered `first` (a batch of a
/// corpus written in parts).
pub(crate) fn pages_batch_at(docs: &[Doc], first: i64) -> Result<RecordBatch> {
    let mut terms = ListBuilder::new(StringBuilder::new());
    let mut weights = ListBuilder::new(Float64Builder::new());
    for d in docs {
        for (t, w) in &d.keywords {
            terms.values().append_value(t);
            weights.values().append_value(*w);
        }
        terms.append(true);
        weights.append(true);
    }
    let cols: Vec<ArrayRef> = vec![
        Arc::new(Int64Array::from_iter_values(
            first..first + docs.len() as i64,
        )),
        Arc::new(StringArray::from_iter_values(docs.iter().map(|d| &d.name))),
        Arc::new(StringArray::from_iter_values(docs.iter().map(|d| &d.site))),
        Arc::new(StringArray::from_iter_values(
            docs.iter().map(|d| &d.headline),
        )),
        Arc::new(StringArray::from_iter_values(docs.iter().map(|d| &d.body))),
        Arc::new(terms.finish()),
        Arc::new(weights.finish()),
    ];
    RecordBatch::try_new(PAGES.arrow(), cols)
        .map_err(|e| EngineError::Internal(format!("pages batch: {e}")))
}

/// Documents read back from a `pages` file, in `doc` order.
pub fn read_pages(path: &Path) -> Result<Vec<Doc>> {
    let (batches, _) = parquet_io::read(path, &PAGES)?;
    let mut out: Vec<(i64, Doc)> = Vec::new();
    for b in &batches {
        let doc = col(b, "doc")?.as_primitive::<Int64Type>();
        let s = |n: &str| -> Result<Vec<String>> {
            let a = col(b, n)?;
            let cast =
                datafusion::arrow::compute::cast(a, &datafusion::arrow::datatypes::DataType::Utf8)
                    .map_err(|e| EngineError::Internal(e.to_string()))?;
            Ok(cast
                .as_string::<i32>()
                .iter()
                .map(|v| v.unwrap_or("").to_string())
                .collect())
        };
        let (names, sites, heads, bodies) = (s("name")?, s("site")?, s("headline")?, s("body")?);
        let terms = col(b, "keyword_terms")?.as_list::<i32>();
        let weights = col(b, "keyword_weights")?.as_list::<i32>();
        for i in 0..b.num_rows() {
            let t = terms.value(i);
            let t = t.as_string::<i32>();
            let w = weights.value(i);
            let w = w.as_primitive::<datafusion::arrow::datatypes::Float64Type>();
            out.push((
                doc.value(i),
                Doc {
                    name: names[i].clone(),
                    headline: heads[i].clone(),
                    body: bodies[i].clone(),
                    site: sites[i].clone(),
                    keywords: (0..t.len())
                        .map(|k| (t.value(k).to_string(), w.value(k)))
                        .collect(),
                },
            ));
        }
    }
    out.sort_by_key(|(d, _)| *d);
    Ok(out.into_iter().map(|(_, d)| d).collect())
}

/// `md5`: documents of equal digests (`dir` as [`write_signatures`] wrote it). Two phases, the same on every engine: the digests
/// held by two or more documents (a counting aggregate, which spills), then those
/// documents (a join against that small table); no per-group lists are built.
pub(crate) fn plan_md5(dir: &Path) -> Plan {
    Plan::new("dedup-md5")
        .input("sig", sig_files(dir).0)
        .view(
            "hot",
            "SELECT md5_hi, md5_lo FROM sig WHERE md5_hi IS NOT NULL \
             GROUP BY md5_hi, md5_lo HAVING COUNT(*) > 1",
        )
        .output(
            "members",
            "SELECT s.md5_hi AS k1, s.md5_lo AS k2, s.doc FROM sig s \
             JOIN hot h ON s.md5_hi = h.md5_hi AND s.md5_lo = h.md5_lo",
        )
}

/// `simhash`: the k+1 pigeonhole blocks as masked keys; pairs equal on a block and within
/// k bits. Only buckets with two or more documents reach the join.
pub(crate) fn plan_simhash(dir: &Path, k: u32) -> Plan {
    let blocks: Vec<String> = simhash::blocks(k)
        .iter()
        .enumerate()
        .map(|(i, &(lo, hi))| {
            let width = hi - lo;
            let mask = if width >= 64 { u64::MAX } else { ((1u64 << width) - 1) << lo };
            format!(
                "SELECT doc, simhash, {i} AS blk, simhash & {} AS bkey FROM sig WHERE simhash IS NOT NULL",
                mask as i64
            )
        })
        .collect();
    Plan::new("dedup-simhash")
        .input("sig", sig_files(dir).0)
        .view("blocks", blocks.join(" UNION ALL "))
        .view(
            "hot",
            "SELECT blk, bkey FROM blocks GROUP BY blk, bkey HAVING COUNT(*) > 1",
        )
        .view(
            "cand",
            "SELECT b.doc, b.simhash, b.blk, b.bkey FROM blocks b \
             JOIN hot h ON b.blk = h.blk AND b.bkey = h.bkey",
        )
        .view(
            "joined",
            "SELECT x.doc AS a, y.doc AS b, bit_count(x.simhash ^ y.simhash) AS h \
             FROM cand x JOIN cand y ON x.blk = y.blk AND x.bkey = y.bkey AND x.doc < y.doc",
        )
        .output(
            "pairs",
            format!("SELECT a, b, MIN(h) AS h FROM joined WHERE h <= {k} GROUP BY a, b"),
        )
        .output("stats", "SELECT COUNT(*) AS candidates FROM joined")
}

/// `minhash`: buckets of equal band keys (the long `minhash-bands` file), in the same two
/// phases as [`plan_md5`] (the keys two or more documents share, then their documents).
pub(crate) fn plan_minhash(dir: &Path) -> Plan {
    Plan::new("dedup-minhash")
        .input("bands", sig_files(dir).1)
        .view(
            "hot",
            "SELECT band, bkey FROM bands GROUP BY band, bkey HAVING COUNT(*) > 1",
        )
        .output(
            "members",
            "SELECT k.band AS k1, k.bkey AS k2, k.doc FROM bands k \
             JOIN hot h ON k.band = h.band AND k.bkey = h.bkey",
        )
}

/// Groups of documents from `members` rows (k1, k2, doc): each group sorted, groups sorted.
pub(crate) fn member_groups(batches: &[RecordBatch]) -> Result<Vec<Vec<usize>>> {
    let mut by: std::collections::HashMap<(i64, i64), Vec<usize>> = Default::default();
    for b in batches {
        let (k1, k2, d) = (i64_col(b, "k1")?, i64_col(b, "k2")?, i64_col(b, "doc")?);
        for i in 0..d.len() {
            by.entry((k1[i], k2[i])).or_default().push(d[i] as usize);
        }
    }
    let mut groups: Vec<Vec<usize>> = by
        .into_values()
        .map(|mut g| {
            g.sort_unstable();
            g.dedup();
            g
        })
        .filter(|g| g.len() > 1)
        .collect();
    groups.sort_unstable();
    Ok(groups)
}

fn i64_col(b: &RecordBatch, name: &str) -> Result<Vec<i64>> {
    let a = datafusion::arrow::compute::cast(
        col(b, name)?,
        &datafusion::arrow::datatypes::DataType::Int64,
    )
    .map_err(|e| EngineError::Internal(e.to_string()))?;
    Ok(a.as_primitive::<Int64Type>().values().to_vec())
}

/// Run `method` on an engine: signatures in Rust, grouping in the plan, verdicts as native.
pub fn run(
    prep: &Prepared,
    method: Method,
    engine: &EngineConfig,
    work: &Path,
    tick: &dyn Tick,
) -> Result<Outcome> {
    let cfg = prep.config();
    tick.tick(0.05, "signatures")?;
    // Charge the features as the native run does (they are cached in `prep`).
    let features_s = match method {
        Method::Md5 => prep.norm().1,
        Method::SimHash => simhash::features(prep).1,
        _ => minhash::shingle_sets(prep).1,
    };
    let t = Instant::now();
    let sig = work.join("signatures");
    write_signatures(prep, &sig)?;
    let signatures_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let out = work.join("out");
    let plan = match method {
        Method::Md5 => plan_md5(&sig),
        Method::SimHash => plan_simhash(&sig, cfg.simhash_k),
        _ => plan_minhash(&sig),
    };
    let report = crate::engine::exec::run_plan(&plan, &out, engine, tick)?;
    let mut found = Found {
        signatures_s,
        ..Found::default()
    };
    match method {
        Method::Md5 => {
            found.groups = member_groups(&parquet_io::read_output(&out.join("members"))?)?;
        }
        Method::SimHash => {
            let mut pairs = Vec::new();
            for b in parquet_io::read_output(&out.join("pairs"))? {
                let (a, bb, h) = (i64_col(&b, "a")?, i64_col(&b, "b")?, i64_col(&b, "h")?);
                for i in 0..a.len() {
                    pairs.push(Pair {
                        a: a[i] as usize,
                        b: bb[i] as usize,
                        relation: Relation::Near,
                        score: 1.0 - h[i] as f64 / 64.0,
                    });
                }
            }
            pairs.sort_by_key(|p| (p.a, p.b));
            found.pairs = pairs;
            let mut cands = 0i64;
            for b in parquet_io::read_output(&out.join("stats"))? {
                cands += i64_col(&b, "candidates")?.iter().sum::<i64>();
            }
            found.stats = vec![("candidates".into(), cands as f64)];
        }
        _ => {
            let buckets = member_groups(&parquet_io::read_output(&out.join("members"))?)?;
            let mut cand: BTreeSet<(usize, usize)> = BTreeSet::new();
            for docs in &buckets {
                for (i, &x) in docs.iter().enumerate() {
                    for &y in &docs[i + 1..] {
                        cand.insert((x, y));
                    }
                }
            }
            let (sets, _) = minhash::shingle_sets(prep);
            let (b, r) = minhash::bands_rows(cfg);
            found.pairs = cand
                .iter()
                .filter_map(|&(x, y)| {
                    let j = minhash::jaccard(&sets[x], &sets[y]);
                    (j >= cfg.threshold).then_some(Pair {
                        a: x,
                        b: y,
                        relation: Relation::Near,
                        score: j,
                    })
                })
                .collect();
            found.stats = vec![
                ("bands".into(), b as f64),
                ("rows".into(), r as f64),
                ("candidates".into(), cand.len() as f64),
            ];
        }
    }
    found.match_s = t.elapsed().as_secs_f64();
    let mut o = crate::engine::dedup::outcome_of(prep, method, found, features_s);
    o.stats.push(("engine_s".into(), report.total_s));
    o.stats
        .push(("spilled_bytes".into(), report.spilled_bytes as f64));
    Ok(o)
}

/// Documents as the dedup lab reads them.
pub const PAGES: SchemaDef = SchemaDef {
    name: "pages",
    version: 1,
    doc: "One row per document, in corpus order: what `engine::dedup::Doc` holds.",
    columns: &[
        c("doc", Col::I64, false, "0-based position in the corpus"),
        c("name", Col::Str, false, "file stem or page URL"),
        c(
            "site",
            Col::Str,
            false,
            "host the page came from; empty when unknown",
        ),
        c(
            "headline",
            Col::Str,
            false,
            "first paragraph of a text file, or the page title",
        ),
        c(
            "body",
            Col::Str,
            false,
            "the rest of the text (DocView's cleaned body for pages)",
        ),
        c(
            "keyword_terms",
            Col::ListStr,
            false,
            "DocView keywords (formula 7-1), heaviest first",
        ),
        c(
            "keyword_weights",
            Col::ListF64,
            false,
            "their weights, same order",
        ),
    ],
};

/// Per-document fingerprints: the dedup lab's signature stage, ready for grouping.
pub(crate) const SIGNATURES: SchemaDef = SchemaDef {
    name: "signatures",
    version: 1,
    doc: "One row per document. Hashes are the unsigned values' bits stored as signed i64. \
          The dedup configuration that made them is in the file metadata `tianwang.dedup_config`.",
    columns: &[
        c("doc", Col::I64, false, "0-based position in the corpus"),
        c("name", Col::Str, false, "file stem or page URL"),
        c(
            "md5_hi",
            Col::I64,
            true,
            "MD5 of the normalised text, bytes 0–7 (big-endian); null for an empty text",
        ),
        c("md5_lo", Col::I64, true, "MD5 bytes 8–15"),
        c(
            "simhash",
            Col::I64,
            true,
            "64-bit weighted SimHash (seed 004); null without features",
        ),
        c(
            "minhash_bands",
            Col::ListI64,
            false,
            "LSH band keys: band b's rows of the MinHash signature mixed into one key; empty for an empty text",
        ),
        c(
            "shingles",
            Col::I32,
            false,
            "size of the document's shingle set",
        ),
        c(
            "ccdet",
            Col::ListI64,
            false,
            "CCDet full-stop sentence signatures (seed 001)",
        ),
    ],
};

/// The MinHash band keys in long form, one row per (document, band): what the engines group.
/// The same values as `signatures.minhash_bands`, laid out so a plan reads each key once.
pub(crate) const MINHASH_BANDS: SchemaDef = SchemaDef {
    name: "minhash-bands",
    version: 1,
    doc: "One row per (document, band) for documents with a non-empty shingle set; \
          `bkey` is `signatures.minhash_bands[band]`.",
    columns: &[
        c("doc", Col::I64, false, "0-based position in the corpus"),
        c("band", Col::I32, false, "0-based band number"),
        c(
            "bkey",
            Col::I64,
            false,
            "the band's LSH key (u64 bits as i64)",
        ),
    ],
};
