//! The main region: the best-scoring candidate block, its qualifying siblings and, when its
//! signature repeats, the thread's first post or every stretch of a split article
//! [L2298–L2306]; in a table layout, the other rows of the best one's table that hold text
//! scoring as a sibling must (an article or an interview laid out one entry per `<tr>`); and
//! the block around a small region that holds 2.5 times its text with next to no links (an
//! article in pieces, each in a small table of one content cell).
//!
//! The book finds the body in the page's middle region by layout [L2298]; without a renderer the
//! region is found by content (see [`super`]). Two layouts repeat the best block's tag and
//! classes: a thread (forum posts, blog entries under one another, comments), whose first post
//! is the topic, and an article cut into columns (`<div class=story-part>` per stretch of
//! paragraphs, advertisements between), all of whose stretches are the article. Posts carry a
//! by-line, a date or a time between them; stretches do not.
//!
//! ```text
//! <div class=part><p>…</p><p>…</p></div> <div class=ad>…</div> <div class=part><p>…</p></div>
//!   → region: both parts (a split article)
//! <td class=post>topic…</td> <td>2024-05-03 10:20 回复</td> <td class=post>reply…</td>
//!   → region: the first post (a thread)
//! ```

use super::{has_date, has_time, is_byline, link_density, own_score};
use crate::engine::docview::tree::{PageTree, TreeBlock};
use crate::engine::docview::{Role, Why};

/// The main region's roots and the best candidate (`None`: no block scored) from the scores.
///
/// The best candidate's signature (tag and classes) may repeat: a thread (forum posts, blog
/// entries, comments) repeats one block for every post, and its first post is the topic; an
/// article split into columns (one `div` per stretch of paragraphs, advertisements between)
/// repeats one block for every stretch, and all of them are the article. The two are told
/// apart by what lies between the repeats: posts carry their own by-line, date or time.
pub(super) fn main_region(
    tree: &PageTree,
    scores: &[f64],
    hints: &[Option<(Role, Why)>],
) -> (Vec<usize>, Option<usize>) {
    let n = tree.blocks.len();
    let body_block = tree.body();
    let Some(best) = (0..n)
        .filter(|&i| scores[i] > 0.0)
        .max_by(|&a, &b| scores[a].total_cmp(&scores[b]))
    else {
        return (vec![body_block], None);
    };
    let top_score = scores[best];
    let want = signature(&tree.blocks[best]);
    // Every block with the best one's signature and real text, in document order.
    let repeats: Vec<usize> = match want {
        Some(want) => (0..n)
            .filter(|&i| {
                i == best
                    || (scores[i].max(own_score(&tree.blocks[i])) >= (top_score * 0.05).max(10.0)
                        && signature(&tree.blocks[i]).is_some_and(|s| alike(s, want)))
            })
            .collect(),
        None => vec![best],
    };
    let threshold = (top_score * 0.2).max(3.0);
    let (starts, thread) = if repeats.len() < 2 {
        (vec![best], None)
    } else if is_thread(tree, &repeats) {
        (vec![repeats[0]], want)
    } else {
        // Stretches of one article: those scoring as a sibling must to join the region (a
        // template's class on every cell of a page, a quote box, carry less).
        let parts = repeats
            .iter()
            .copied()
            .filter(|&r| r == best || (scores[r] >= threshold && hints[r].is_none()))
            .collect();
        (parts, None)
    };
    // In a thread, siblings holding other posts do not join the region.
    let holds_post = |s: usize| {
        thread.is_some_and(|want| {
            (s..tree.blocks[s].sub_end)
                .any(|i| signature(&tree.blocks[i]).is_some_and(|s| alike(s, want)))
        })
    };
    let mut region = Vec::new();
    for &start in &starts {
        // Climb while the block is its parent's only child and the parent has no text of its
        // own: a <td> alone in its <tr> in its <table> stands for the table, whose siblings
        // may continue the article. A cell is alone in its row when the row's other cells
        // hold no text (spacers, an ad slot): the article's next rows may continue it.
        let mut t = start;
        while let Some(par) = tree.blocks[t].parent {
            let pb = &tree.blocks[par];
            let only_text_cell = pb.tag == "tr" && pb.sub_chars == tree.blocks[t].sub_chars;
            if pb.tag == "body"
                || pb.depth < 2
                || (pb.child_count != 1 && !only_text_cell)
                || pb.chars > 0
            {
                break;
            }
            t = par;
        }
        let Some(par) = tree.blocks[t].parent else {
            region.push(t);
            continue;
        };
        for s in tree.children(par) {
            let sb = &tree.blocks[s];
            let text = sb.sub_chars.saturating_sub(sb.sub_anchor);
            let keep = s == t
                || (hints[s].is_none()
                    && !holds_post(s)
                    && (scores[s] >= threshold
                        || (text >= 50 && link_density(sb) < 0.25)
                        || (text >= 15 && sb.sub_anchor == 0 && sb.sub_punct > 0)));
            if keep {
                region.push(s);
            }
        }
        // An article laid out in the rows of a table (an entry per <tr>, no class to repeat):
        // the other rows whose best candidate scores as a sibling must join the region.
        if let Some(row) =
            row_of(tree, start).filter(|&r| !(t..tree.blocks[t].sub_end).contains(&r))
        {
            let table = tree.blocks[row].parent.unwrap_or(row);
            for s in tree.children(table).filter(|&s| s != row) {
                let sb = &tree.blocks[s];
                let best_inside = (s..sb.sub_end).map(|i| scores[i]).fold(0.0, f64::max);
                if hints[s].is_none()
                    && !holds_post(s)
                    && link_density(sb) < 0.25
                    && best_inside >= threshold
                {
                    region.push(s);
                }
            }
        }
    }
    // Stretches may share a parent, or one may hold another: keep the outermost, in order.
    region.sort_unstable();
    region.dedup();
    let mut roots: Vec<usize> = Vec::with_capacity(region.len());
    for r in region {
        if roots.last().is_none_or(|&l| r >= tree.blocks[l].sub_end) {
            roots.push(r);
        }
    }
    if thread.is_none()
        && let Some(whole) = enclosing_text(tree, &roots, hints)
    {
        roots = vec![whole];
    }
    (roots, Some(starts[0]))
}

/// The block that holds the region's text and much more text besides with next to no links,
/// when there is one: an article whose pieces sit in nested tables of one content cell scores
/// piece by piece (scores fade within three levels), while the cell holding them all reads as
/// one stretch of text (`td` with 3,989 characters and 26 of link text).
fn enclosing_text(
    tree: &PageTree,
    roots: &[usize],
    hints: &[Option<(Role, Why)>],
) -> Option<usize> {
    let text = |b: &TreeBlock| b.sub_chars.saturating_sub(b.sub_anchor);
    let inside: usize = roots.iter().map(|&r| text(&tree.blocks[r])).sum();
    let first = *roots.first()?;
    let last = *roots.last()?;
    let mut up = tree.blocks[first].parent?;
    // The nearest block holding every root.
    while tree.blocks[up].sub_end < tree.blocks[last].sub_end {
        up = tree.blocks[up].parent?;
    }
    let mut best = None;
    let mut at = Some(up);
    while let Some(b) = at {
        let bb = &tree.blocks[b];
        if bb.tag == "body"
            || bb.depth < 2
            || hints[b].is_some()
            || bb.sub_anchor * 50 > bb.sub_chars
        {
            break;
        }
        if text(bb) * 2 >= inside * 5 {
            best = Some(b);
        }
        at = bb.parent;
    }
    best
}

/// The table row holding `b` (itself or one of its three nearest ancestors), if any.
fn row_of(tree: &PageTree, b: usize) -> Option<usize> {
    let mut cur = Some(b);
    for _ in 0..4 {
        let at = cur?;
        if tree.blocks[at].tag == "tr" {
            return Some(at);
        }
        cur = tree.blocks[at].parent;
    }
    None
}

/// A block's tag and classes (`None`: no class), what every post of a thread shares.
fn signature(b: &TreeBlock) -> Option<(&'static str, &str)> {
    // The hint is `#id.class.class`: the classes start at the first dot after the id.
    let classes = match b.hint.strip_prefix('#') {
        Some(rest) => rest.find('.').map_or("", |at| &rest[at..]),
        None => b.hint.as_str(),
    };
    (!classes.is_empty()).then_some((b.tag, classes))
}

/// Two signatures of one kind of block: the same tag, and one's classes all among the other's
/// (`div.content` and `div.content.lead`, the first stretch of an article marked apart).
fn alike(a: (&str, &str), b: (&str, &str)) -> bool {
    fn classes(s: &str) -> impl Iterator<Item = &str> + Clone {
        s.split('.').filter(|c| !c.is_empty())
    }
    let (small, large) = if classes(a.1).count() <= classes(b.1).count() {
        (classes(a.1), classes(b.1))
    } else {
        (classes(b.1), classes(a.1))
    };
    a.0 == b.0
        && small.clone().next().is_some()
        && small.into_iter().all(|c| large.clone().any(|l| l == c))
}

/// Do the repeated blocks (in document order) read as posts? Most gaps between them hold
/// a by-line, a date or a time of their own (the next post's header, the last one's footer).
fn is_thread(tree: &PageTree, repeats: &[usize]) -> bool {
    if repeats.len() < 2 {
        return false;
    }
    let gaps_with_meta = repeats
        .windows(2)
        .filter(|w| {
            // A subtree's lines are contiguous, so the gap's lines are one run.
            let (from, to) = (tree.blocks[w[0]].line_end, tree.blocks[w[1]].line_start);
            tree.lines
                .get(from..to)
                .unwrap_or_default()
                .iter()
                .any(|l| is_byline(&l.text) || has_date(&l.text) || has_time(&l.text))
        })
        .count();
    gaps_with_meta * 2 >= repeats.len() - 1
}
