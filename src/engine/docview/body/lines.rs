//! The body rule line by line [L2294–L2310]: a topic line of the main region is body unless it
//! repeats the title, is a by-line, a label, a credit, a promotion, a disclaimer, a widget's
//! label, the article's tags, a counter beside the by-line, boilerplate or a repeat.
//!
//! ```text
//! 2019年中国人文地理学术年会成功举行！     → title: the headline right above its by-line
//! 发布时间：2019-05-18 来源：中国地理学会   → meta: the by-line
//! 3573                                     → meta: a counter beside the by-line
//! 关键词 >> 新冠病毒,味觉                  → other: the article's tags
//! ```

use super::{furniture, is_ad_line, is_boilerplate, is_byline, latin};
use crate::engine::docview::tree::{Line, PageTree, norm_title};
use crate::engine::docview::{PageType, Role, Why};
use crate::engine::text::fxhash::FxMap;

/// What the pass remembers from the lines before.
pub(super) struct LinePass<'a> {
    title_norm: String,
    page_type: PageType,
    /// A line of 20 characters or more has been body: the article has begun.
    seen_prose: bool,
    /// Each body line's text with the container of its first occurrence: a page holding its
    /// text twice holds it in two containers; a line repeated among its own siblings (a
    /// recipe's "Eat every 2–3 hours", a table's "Yes") is the text's own structure.
    seen_lines: FxMap<&'a str, Option<usize>>,
    /// The last line with text was a by-line or a counter.
    after_meta: bool,
    /// The body lines so far: how many, and the first.
    body_lines: usize,
    first_body: Option<usize>,
    /// The last line with text.
    last_text: Option<usize>,
}

impl<'a> LinePass<'a> {
    pub(super) fn new(tree: &PageTree, page_type: PageType) -> Self {
        LinePass {
            title_norm: norm_title(&tree.title),
            page_type,
            seen_prose: false,
            seen_lines: FxMap::default(),
            after_meta: false,
            body_lines: 0,
            first_body: None,
            last_text: None,
        }
    }

    /// The role of line `i` (whose place in the tree gave `role`); may turn the one body line
    /// before it into the title.
    pub(super) fn classify(
        &mut self,
        tree: &PageTree,
        i: usize,
        l: &'a Line,
        (role, why): (Role, Why),
        line_roles: &mut [Role],
        line_reasons: &mut [Option<Why>],
    ) -> (Role, Why) {
        let (role, why) = match role {
            Role::Body => self
                .body_role(tree, i, l, line_roles, line_reasons)
                .unwrap_or((role, why)),
            _ => (role, why),
        };
        if l.chars > 0 {
            self.after_meta = role == Role::Meta && matches!(why.key, "byline" | "counter");
            self.last_text = Some(i);
            if role == Role::Body {
                self.body_lines += 1;
                self.first_body.get_or_insert(i);
            }
        }
        (role, why)
    }

    fn body_role(
        &mut self,
        tree: &PageTree,
        i: usize,
        l: &'a Line,
        line_roles: &mut [Role],
        line_reasons: &mut [Option<Why>],
    ) -> Option<(Role, Why)> {
        let text = l.text.as_str();
        let not_hub = self.page_type != PageType::Hub;
        let topic = self.page_type == PageType::Topic;
        if !self.seen_prose
            && l.chars < 80
            && !self.title_norm.is_empty()
            && ({
                let ln = norm_title(text);
                ln.chars().count() >= 4 && self.title_norm.contains(&ln)
            })
        {
            Some((Role::Title, Why::new("title")))
        } else if self.signs_off(tree, l, line_roles) {
            // The date under the issuer's name that closes a notice (落款) is the document's.
            None
        } else if is_byline(text) || latin::is_byline(text) {
            if not_hub {
                self.headline_above(tree, i, line_roles, line_reasons);
            }
            Some((Role::Meta, Why::new("byline")))
        } else if is_ad_line(text) {
            Some((Role::Ad, Why::new("ad_label")))
        } else if furniture::is_credit(text) {
            // On a hub page too: a credit under a one-paragraph article is no headline.
            Some((Role::Meta, Why::new("credit_line")))
        } else if not_hub && !self.seen_prose && self.after_meta && furniture::is_counter(text) {
            Some((Role::Meta, Why::new("counter")))
        } else if not_hub && furniture::is_promo(text) {
            Some((Role::Ad, Why::new("promo")))
        } else if not_hub && furniture::is_disclaimer(text) {
            Some((Role::Footer, Why::new("disclaimer")))
        } else if not_hub && furniture::is_player_label(text) {
            Some((Role::Other, Why::new("widget")))
        } else if not_hub && furniture::is_tag_line(text) {
            Some((Role::Other, Why::new("tags")))
        } else if topic && (is_boilerplate(text) || latin::is_boilerplate(text)) {
            Some((Role::Other, Why::new("boilerplate")))
        } else if topic && latin::is_credit(text) {
            Some((Role::Picture, Why::new("credit")))
        } else if l.chars >= 10
            && *self
                .seen_lines
                .entry(text)
                .or_insert(tree.blocks[l.block].parent)
                != tree.blocks[l.block].parent
        {
            Some((Role::Other, Why::new("repeat")))
        } else {
            if l.chars >= 20 {
                self.seen_prose = true;
            }
            None
        }
    }

    /// Whether `l` is the date of a notice's sign-off (落款): a line that is only a date
    /// (`2022年1月27日`), right after the article began, under a body line that is a short
    /// name and no sentence (`吉林省人民政府`).
    fn signs_off(&self, tree: &PageTree, l: &Line, line_roles: &[Role]) -> bool {
        if !self.seen_prose || l.chars > 12 || !is_date_only(&l.text) {
            return false;
        }
        let Some(prev) = self.last_text.filter(|&p| line_roles[p] == Role::Body) else {
            return false;
        };
        let name = tree.lines[prev].text.trim();
        (2..=30).contains(&tree.lines[prev].chars)
            && !name.contains(['。', '，', '！', '？', '；', '：', ',', '.', ':'])
            && !is_byline(name)
    }

    /// A by-line before the article: the one body line right above it, a heading element
    /// (`<h1>`…`<h6>`), short and no sentence, is the headline (a page whose `<title>` names
    /// only the site or the column). A writer's line above the date (`<p>记者 张三</p>`) stays.
    fn headline_above(
        &mut self,
        tree: &PageTree,
        i: usize,
        line_roles: &mut [Role],
        line_reasons: &mut [Option<Why>],
    ) {
        let Some(h) = self.first_body else {
            return;
        };
        let head = &tree.lines[h];
        // The headline itself may have begun the prose: it is the only body line so far.
        if self.body_lines != 1
            || self.last_text != Some(h)
            || h >= i
            || !(4..80).contains(&head.chars)
            || !matches!(
                tree.blocks[head.block].tag,
                "h1" | "h2" | "h3" | "h4" | "h5" | "h6"
            )
            || head.text.contains(['。', '，'])
        {
            return;
        }
        line_roles[h] = Role::Title;
        line_reasons[h] = Some(Why::new("headline"));
        self.seen_prose = false;
        self.body_lines = 0;
    }
}

/// Whether `text` is a date and nothing else: `2022年1月27日`, `2022-01-27`, `2022.1.27`
/// (white space around it allowed): a year of four digits, a month and a day of one or two.
pub(super) fn is_date_only(text: &str) -> bool {
    let t = text.trim_matches(|c: char| c.is_whitespace() || c == '\u{3000}');
    let chinese = t.ends_with('日');
    let t = t.strip_suffix('日').unwrap_or(t);
    let groups: Vec<&str> = t.split(['年', '月', '-', '/', '.']).collect();
    let seps_agree = if chinese {
        t.contains('年') && t.contains('月')
    } else {
        !t.contains(['年', '月'])
    };
    groups.len() == 3
        && seps_agree
        && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_digit()))
        && groups[0].len() == 4
        && (1..=2).contains(&groups[1].len())
        && (1..=2).contains(&groups[2].len())
}
