//! Why DocView decided what it did: a reason as a key with arguments, so a view can say it in
//! its own language (the GUI's string tables carry the keys as `why.KEY`), and its English for
//! the command line and JSON.
//!
//! ```ignore
//! let w = Why::of("link_text", [30, 40]);
//! assert_eq!(w.english(), "30 of 40 characters are link text");
//! ```

use serde::Serialize;

/// A reason as a key with arguments, so a view can say it in its own language; [`Why::english`]
/// renders it for the command line and JSON.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Why {
    pub key: &'static str,
    pub args: Vec<String>,
}

impl Why {
    pub(crate) fn new(key: &'static str) -> Self {
        Why {
            key,
            args: Vec::new(),
        }
    }

    pub(crate) fn of<const N: usize>(key: &'static str, args: [impl ToString; N]) -> Self {
        Why {
            key,
            args: args.iter().map(ToString::to_string).collect(),
        }
    }

    /// The template with `{0}`, `{1}` … replaced by the arguments one after another (an
    /// argument's own braces could form a later placeholder, so those take the slow road).
    pub fn english(&self) -> String {
        let template = Self::template(self.key);
        if self.args.len() > 10 || self.args.iter().any(|a| a.contains(['{', '}'])) {
            return crate::engine::error::fill(template, &self.args, 0);
        }
        // One pass: no argument holds a brace and no template holds `{{`, so no replacement
        // can make a placeholder that the step-by-step replacement would then fill.
        let extra: usize = self.args.iter().map(String::len).sum();
        let mut s = String::with_capacity(template.len() + extra);
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            s.push_str(&rest[..open]);
            let after = &rest.as_bytes()[open..];
            let arg = match after {
                [b'{', d @ b'0'..=b'9', b'}', ..] => self.args.get(usize::from(d - b'0')),
                _ => None,
            };
            match arg {
                Some(a) => {
                    s.push_str(a);
                    rest = &rest[open + 3..];
                }
                None => {
                    s.push('{');
                    rest = &rest[open + 1..];
                }
            }
        }
        s.push_str(rest);
        s
    }
}

/// One table makes both the template lookup and, for the tests, the list of keys.
macro_rules! reasons {
    ($($key:literal => $english:literal,)+) => {
        impl Why {
            #[cfg(test)]
            /// Every key a reason can have.
            pub(crate) const KEYS: &'static [&'static str] = &[$($key),+];

            /// The English template of a key; `{0}`, `{1}` … stand for the arguments. The
            /// GUI's string tables carry the same keys as `why.KEY`.
            pub fn template(key: &str) -> &'static str {
                match key {
                    $($key => $english,)+
                    _ => "",
                }
            }
        }
    };
}

reasons! {
    "tag" => "<{0}> element",
    "hint" => "class/id \"{0}\" says {1}",
    "title" => "repeats the <title>",
    "byline" => "by-line: date with source/author/editor",
    "ad_label" => "an advertisement by its own label",
    "boilerplate" => "boilerplate phrase",
    "credit" => "a picture's caption or credit line",
    "credit_line" => "credit line: editor, proof-reader, source or original title",
    "promo" => "promotion: a QR code, an account to follow, an app to download [L2146]",
    "disclaimer" => "the publisher's disclaimer or reprint notice",
    "widget" => "an interaction widget: font size, print, share [L2146]",
    "headlines" => "one of {0} short headlines with a link or a date: a teaser list [L2146]",
    "teaser" => "after the heading \"{0}\": a list of teasers, not the article [L2146]",
    "teaser_item" => "a teaser: a headline over a summary cut off (…) [L2146]",
    "edge_widget" => "a widget's label or a like counter at the edge of the body (图集, +1, 纠错) [L2146]",
    "lead_repeat" => "a summary that repeats the article's first paragraph",
    "column_label" => "a column's label in brackets above the article (【新春走基层】)",
    "nav_tail" => "a navigation link at the end of the paragraph, cut off: \"{0}\" [L2146]",
    "promo_card" => "an account's name or slogan between two promotions [L2146]",
    "headline" => "the headline: the line right above the by-line",
    "counter" => "a counter beside the by-line (views, likes, comments)",
    "tags" => "the article's tags or keywords",
    "repeat" => "repeats an earlier body line (a page that holds its text twice)",
    "fallback" => "fallback: every topic block is body [L2306]",
    "images" => "{0} image(s), no text",
    "container_score" => "container, content score {0}",
    "container" => "container without text of its own",
    "outside_links" => "link text outside the main region",
    "outside" => "outside the main region",
    "hub_page" => "hub page: its links are the body [L2404]",
    "link_text" => "{0} of {1} characters are link text",
    "hub_block" => "inside a hub block <{0}> [L2234]",
    "no_text" => "no letters or digits",
    "topic" => "topic text in the main region [L2306]",
    "type_pic" => "{0} images, {1} characters of text per image < {2}",
    "type_listing" => "a listing: {0} of its {1} items begin with a link",
    "type_hub" => "main region has {0} text characters per anchor character < {1}",
    "type_no_text" => "no running text; the page is mostly links",
    "type_topic" => "{0} text characters per anchor character ≥ {1}",
    "type_topic_nolinks" => "running text without links",
}

#[cfg(test)]
mod tests {
    use super::Why;

    /// The step-by-step replacement `Why::english` must equal.
    fn replaced(w: &Why) -> String {
        let mut s = Why::template(w.key).to_string();
        for (i, a) in w.args.iter().enumerate() {
            s = s.replace(&format!("{{{i}}}"), a);
        }
        s
    }

    #[test]
    fn english_fills_placeholders_as_replacing_them_one_by_one_would() {
        let sets: [&[&str]; 6] = [
            &[],
            &["nav"],
            &["#x.y", "ad", "3"],
            &["{1}", "b"],
            &["a}", "{", "{0}"],
            &["天网", "", "0.5", "extra"],
        ];
        for key in Why::KEYS {
            assert!(!Why::template(key).contains("{{"), "{key}");
            for args in sets {
                let w = Why {
                    key,
                    args: args.iter().map(|a| a.to_string()).collect(),
                };
                assert_eq!(w.english(), replaced(&w), "{key} {args:?}");
            }
        }
    }
}
