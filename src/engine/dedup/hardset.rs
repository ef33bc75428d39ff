//! The harder development set: real articles as portals publish them, with their boilerplate.
//! Built the way the held-out set the lab is scored on was built:
//!
//! - **Sites** are the real sites of the ccwe pages (`extraction/ccwe/original`): each keeps
//!   the disclaimer and by-line lines its page carries (版权/转载/免责/声明/责任编辑/来源 …,
//!   outside the hand-cleaned text); pages with the same lines are one portal.
//! - **Reference texts** are real articles (ccwe cleaned texts, SogouCS news) with their
//!   site's lines appended the way portals do (source line first, disclaimer last), so every
//!   article of one site shares them: **hard negatives**. Short SogouCS items (60–200
//!   characters, under many a disclaimer's length) are among them.
//! - **Reprints**: exact copies, edited reprints (the edits of [`super::devset`]) that keep the
//!   source's lines, carry the reprinting site's lines instead or none; **partial reprints**
//!   (the first part cut mid-text, the first paragraphs, an abstract — under 45 % of the
//!   article), plain or under the reprinting site's lines.
//! - For HTML ([`super::templates`]) every document is wrapped in *another* site's real page.
//!
//! The set comes in two halves with different articles, sites, page templates and seeds: tune
//! on [`Part::Tune`], check on [`Part::Check`]. Names start with `t` or `c`.
//!
//! ```no_run
//! use tianwang::engine::dedup::hardset::{build, Part};
//! let data = tianwang::engine::data::DataDir::resolve(None)?;
//! let set = build(data.root(), Part::Check)?;
//! println!("{} documents, {} near pairs", set.docs.len(), set.truth.near.len());
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::Doc;
use super::devset::{DevSet, articles, body_of, edit, partial};
use super::features::{mix64, normalise};
use crate::engine::error::{EngineError, Flaw, Result};
use crate::engine::rng::Rng;

/// Which half of the harder set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Part {
    /// The half parameters were tuned on (seed 7).
    Tune,
    /// The other half: other articles, sites, templates, seed 11.
    #[default]
    Check,
    /// Both.
    All,
}

impl Part {
    pub fn parse(s: &str) -> Result<Part> {
        match s {
            "tune" => Ok(Part::Tune),
            "check" => Ok(Part::Check),
            "all" => Ok(Part::All),
            _ => Err(EngineError::invalid(
                "part",
                format!("`{s}`: tune, check or all"),
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Part::Tune => "tune",
            Part::Check => "check",
            Part::All => "all",
        }
    }

    fn seed(self) -> u64 {
        if self == Part::Tune { 7 } else { 11 }
    }

    fn index(self) -> u64 {
        u64::from(self == Part::Check)
    }

    fn prefix(self) -> char {
        if self == Part::Tune { 't' } else { 'c' }
    }

    /// Whether item `k` of a list belongs to this half.
    pub(crate) fn holds(self, k: usize, salt: u64) -> bool {
        self == Part::All || mix64(k as u64 ^ salt) & 1 == self.index()
    }
}

/// A site: its name and the lines it appends to every article.
#[derive(Debug, Clone, PartialEq)]
pub struct Site {
    pub name: String,
    /// Source, author and by-lines: put before the article.
    pub top: Vec<String>,
    /// Disclaimers and copyright lines: put after it.
    pub bottom: Vec<String>,
}

const MARKERS: [&str; 10] = [
    "版权",
    "转载",
    "免责",
    "声明",
    "责任编辑",
    "来源",
    "编辑：",
    "Copyright",
    "©",
    "授权",
];

/// The sites of the ccwe pages: the boilerplate lines each page carries outside its cleaned
/// text. Pages with the same lines are one site; pages without such lines are none.
pub fn sites(data: &Path) -> Result<Vec<Site>> {
    let mut out: Vec<Site> = Vec::new();
    for (stem, page, cleaned) in super::templates::ccwe_pages(data)? {
        let view = crate::engine::docview::extract(
            &page,
            None,
            None,
            None,
            &crate::engine::docview::Params::default(),
        )?;
        let clean_norm: String = normalise(&cleaned).into_iter().collect();
        let mut top = Vec::new();
        let mut bottom = Vec::new();
        for line in view.blocks.iter().flat_map(|b| b.text.lines()) {
            let line = line.trim();
            let n = line.chars().count();
            if !(6..=300).contains(&n) || !MARKERS.iter().any(|m| line.contains(m)) {
                continue;
            }
            let norm: String = normalise(line).into_iter().collect();
            if norm.chars().count() < 4 || clean_norm.contains(&norm) {
                continue;
            }
            let to = if line.starts_with("来源") || line.contains("编辑") || n < 24 {
                &mut top
            } else {
                &mut bottom
            };
            if !to.iter().any(|l: &String| l == line) && to.len() < 3 {
                to.push(line.to_string());
            }
        }
        if top.is_empty() && bottom.is_empty() {
            continue;
        }
        match out
            .iter_mut()
            .find(|s| s.bottom == bottom && !bottom.is_empty())
        {
            Some(s) => {
                for l in top {
                    if !s.top.contains(&l) && s.top.len() < 3 {
                        s.top.push(l);
                    }
                }
            }
            None => out.push(Site {
                name: stem,
                top,
                bottom,
            }),
        }
    }
    Ok(out)
}

/// A reference text: the site's top lines, the article, its bottom lines.
fn with_lines(paras: &[String], site: Option<&Site>) -> Vec<String> {
    let Some(s) = site else {
        return paras.to_vec();
    };
    let mut v = s.top.clone();
    v.extend_from_slice(paras);
    v.extend(s.bottom.iter().cloned());
    v
}

fn chars(paras: &[String]) -> usize {
    normalise(&paras.join("")).len()
}

/// A partial reprint of `paras`: the first part cut mid-text, the first paragraphs, or an
/// abstract; `None` when the article is too short for one under 45 % of it.
fn partial_of(rng: &mut Rng, paras: &[String]) -> Option<(Vec<String>, &'static str)> {
    let full = chars(paras);
    if full < 240 {
        return None;
    }
    let share = 0.15 + 0.28 * (rng.below(100) as f64 / 100.0);
    let (mut p, kind) = match rng.below(3) {
        0 => {
            // The first part, cut where the share runs out (mid-sentence), "……" or nothing.
            let text = paras.join("\n\n");
            let want = (share * text.chars().count() as f64) as usize;
            let mut cut: String = text.chars().take(want.max(40)).collect();
            if rng.below(2) == 0 {
                cut.push_str("……");
            }
            (cut.split("\n\n").map(String::from).collect(), "first-part")
        }
        1 => (partial(paras, share), "first-paragraphs"),
        _ => {
            // An abstract: the opening sentences, 60–150 characters, as a portal's digest.
            let text = paras.join("");
            let limit = 60 + rng.below(90);
            let mut s = String::new();
            for c in text.chars() {
                s.push(c);
                if matches!(c, '。' | '！' | '？') && s.chars().count() >= limit {
                    break;
                }
            }
            let lead = ["【摘要】", "导读：", ""][rng.below(3)];
            (vec![format!("{lead}{s}")], "abstract")
        }
    };
    while p.len() > 1 && chars(&p) * 100 >= full * 45 {
        p.pop();
    }
    (chars(&p) * 100 < full * 45 && chars(&p) >= 30).then_some((std::mem::take(&mut p), kind))
}

/// The harder set's half `part` (both halves for [`Part::All`]).
pub fn build(data: &Path, part: Part) -> Result<DevSet> {
    if part == Part::All {
        let mut a = build(data, Part::Tune)?;
        let b = build(data, Part::Check)?;
        a.docs.extend(b.docs);
        a.truth.near.extend(b.truth.near);
        a.truth.contains.extend(b.truth.contains);
        for (k, v) in b.truth.kinds {
            *a.truth.kinds.entry(k).or_default() += v;
        }
        return Ok(a);
    }
    let all = articles(data, 60)?;
    let all_sites = sites(data)?;
    let sites: Vec<&Site> = all_sites
        .iter()
        .enumerate()
        .filter(|(k, _)| part.holds(*k, 0x517e))
        .map(|(_, s)| s)
        .collect();
    if sites.len() < 2 {
        return Err(EngineError::path_flaw(
            data.join("extraction/ccwe/original"),
            Flaw::new("flaw.path_few_sites", &[]),
        ));
    }
    let mut rng = Rng::new(part.seed());
    let mut set = DevSet::default();
    let pre = part.prefix();
    let mut shorts = 0usize;
    for (k, (head, paras)) in all.iter().enumerate() {
        if !part.holds(k, 0xa271) {
            continue;
        }
        let short = chars(paras) < 200;
        if short {
            if shorts >= 40 {
                continue;
            }
            shorts += 1;
        }
        let site = sites[rng.below(sites.len())];
        let base = format!("{pre}{k:03}");
        let reference = with_lines(paras, Some(site));
        set.docs.push(Doc::new(&base, head, &body_of(&reference)));
        // Two articles in three are reprinted (short items one in three), one to four times.
        let reprinted = if short {
            rng.below(3) == 0
        } else {
            rng.below(3) != 0
        };
        if !reprinted {
            continue;
        }
        let mut fulls = vec![base.clone()];
        let mut parts: Vec<(String, usize)> = Vec::new();
        let copies = if short { 1 } else { 1 + rng.below(4) };
        for v in 0..copies {
            let name = format!("{base}-r{v}");
            let theirs = sites[rng.below(sites.len())];
            if !short
                && rng.below(4) == 0
                && let Some((p, _kind)) = partial_of(&mut rng, paras)
            {
                let len = chars(&p);
                let p = match rng.below(3) {
                    0 => p,
                    _ => with_lines(&p, Some(theirs)),
                };
                let mut h = head.clone();
                if rng.below(2) == 0 {
                    edit(&mut rng, &mut h, &mut Vec::new(), 0);
                }
                set.docs.push(Doc::new(&name, &h, &body_of(&p)));
                parts.push((name, len));
                continue;
            }
            let (mut h, mut p) = (head.clone(), paras.clone());
            let mut kinds = Vec::new();
            if rng.below(5) != 0 {
                for _ in 0..1 + rng.below(3) {
                    let op = rng.below(6);
                    kinds.push(edit(&mut rng, &mut h, &mut p, op));
                }
            }
            kinds.retain(|k| *k != "none");
            let body = match rng.below(5) {
                0 | 1 => with_lines(&p, Some(site)),
                2 | 3 => with_lines(&p, Some(theirs)),
                _ => p,
            };
            let kind = if kinds.is_empty() {
                "exact".to_string()
            } else {
                kinds.join("+")
            };
            set.docs.push(Doc::new(&name, &h, &body_of(&body)));
            set.truth.add(&base, &name, &kind);
            fulls.push(name);
        }
        for (i, (p, plen)) in parts.iter().enumerate() {
            for f in &fulls {
                set.truth.add(f, p, "contains");
            }
            for (q, qlen) in &parts[..i] {
                let (long, shorter, ll, sl) = if plen >= qlen {
                    (p, q, plen, qlen)
                } else {
                    (q, p, qlen, plen)
                };
                let kind = if sl * 2 < *ll {
                    "contains"
                } else {
                    "near-partial"
                };
                set.truth.add(long, shorter, kind);
            }
        }
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_split_items_apart() {
        let tune: Vec<usize> = (0..200).filter(|&k| Part::Tune.holds(k, 1)).collect();
        let check: Vec<usize> = (0..200).filter(|&k| Part::Check.holds(k, 1)).collect();
        assert_eq!(tune.len() + check.len(), 200);
        assert!(tune.iter().all(|k| !check.contains(k)));
        assert!(tune.len() > 70 && check.len() > 70);
        assert!((0..200).all(|k| Part::All.holds(k, 1)));
    }

    #[test]
    fn a_partial_is_under_45_percent() {
        let paras: Vec<String> = (0..8)
            .map(|i| format!("第{i}段，北京大学网络实验室今天发布了天网搜索引擎的新版本。每天抓取上千万个网页。"))
            .collect();
        let mut rng = Rng::new(3);
        let mut seen = 0;
        for _ in 0..40 {
            if let Some((p, _)) = partial_of(&mut rng, &paras) {
                assert!(chars(&p) * 100 < chars(&paras) * 45);
                assert!(chars(&p) >= 30);
                seen += 1;
            }
        }
        assert!(seen > 30);
    }
}
