//! Page furniture written in Latin script: by-lines, date lines, picture credits and short
//! boilerplate lines of English-language article pages, the counterparts of the Chinese rules
//! in [`super`] (`is_byline`, `is_boilerplate`).
//!
//! The book drops a page's by-line, copyright and navigation text from the body [L2294–L2310];
//! its examples are Chinese. English news pages carry the same furniture in other words: "By
//! Phil Helsel", "Updated 1:39 am EST, Wednesday, November 20, 2019", "(AP Photo/Alan Diaz)",
//! "Advertisement". Each rule looks at one line and is narrow on purpose: a line of running text
//! (a sentence with lower-case words of its own) never matches.
//!
//! ```text
//! is_byline("By Phil Helsel")                                   → true
//! is_byline("Published 11:11 PM EST Nov 19, 2019")              → true
//! is_byline("By Tuesday, the company had lost half its value.") → false
//! is_credit("Natalie Naccache | Bloomberg | Getty Images")      → true
//! is_boilerplate("Continue Reading Below")                      → true
//! ```

/// Month and weekday names, whole or cut short (compared ignoring ASCII case, a final `.` off).
const CALENDAR: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "mon",
    "tue",
    "tues",
    "wed",
    "thu",
    "thur",
    "thurs",
    "fri",
    "sat",
    "sun",
];

/// Words a date line carries besides the date itself.
const DATE_WORDS: &[&str] = &[
    "am",
    "pm",
    "a.m",
    "p.m",
    "utc",
    "gmt",
    "est",
    "edt",
    "cst",
    "cdt",
    "mst",
    "mdt",
    "pst",
    "pdt",
    "et",
    "pt",
    "ct",
    "bst",
    "cet",
    "cest",
    "ist",
    "updated",
    "published",
    "posted",
    "modified",
    "last",
    "first",
    "at",
    "on",
    "date",
    "time",
    "|",
    "-",
    "–",
    "—",
    "•",
    "·",
    "/",
];

/// Marks of a picture's credit or caption that nothing else says.
const CREDITS: &[&str] = &[
    "AP Photo",
    "REUTERS/",
    "Reuters/",
    "(Image: ",
    "Image credit",
    "Image Credit",
    "Image caption",
    "Photo credit",
    "Photo Credit",
];

/// Marks of a credit that a sentence may also hold ("Getty Images said on Monday …"): a credit
/// only on a short line or at the end of one.
const CREDITS_AT_END: &[&str] = &[
    "Getty Images",
    "Shutterstock",
    "Photo: ",
    "Photo by ",
    "Photograph: ",
    "Photographer: ",
    "Image: ",
    "Picture: ",
    "Credit: ",
];

/// Whole lines (ignoring ASCII case and final punctuation) that are page furniture.
const FURNITURE: &[&str] = &[
    "advert",
    "advertisement",
    "advertising",
    "sponsored",
    "sponsored content",
    "caption",
    "close",
    "hide caption",
    "toggle caption",
    "enlarge this image",
    "expand",
    "comments",
    "view comments",
    "show comments",
    "leave a comment",
    "share",
    "share this",
    "share this article",
    "share this story",
    "sharing is caring",
    "print",
    "email",
    "read more",
    "read next",
    "more",
    "related",
    "related articles",
    "related stories",
    "recommended",
    "you may also like",
    "back to gallery",
    "continue reading",
    "continue reading below",
    "continue reading the main story",
    "story continues below",
    "story continues below advertisement",
    "article continues below",
    "skip advertisement",
    "this slideshow requires javascript",
    "tell us what you think",
    "breaking news emails",
    "sign up",
    "subscribe",
    "subscribe now",
    "follow us",
    "loading",
    "loading…",
    "next",
    "previous",
    "image",
    "photo",
];

/// The words of a line, split at spaces (commas kept on their words).
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split_whitespace()
}

/// `w` without the punctuation around it (`"Nov.,"` → `Nov`).
fn bare(w: &str) -> &str {
    w.trim_matches([',', '.', ';', ':', '(', ')', '"', '\''])
}

/// Is `w` one of `list` (lower case), ignoring ASCII case?
fn one_of(w: &str, list: &[&str]) -> bool {
    list.iter().any(|l| w.eq_ignore_ascii_case(l))
}

/// A number (a day, a year, a time `8:41`, `3rd`) or a calendar word.
fn is_date_token(w: &str) -> bool {
    let b = bare(w);
    if b.is_empty() {
        return true;
    }
    if b.bytes().any(|c| c.is_ascii_digit()) {
        let rest = b.trim_start_matches(|c: char| c.is_ascii_digit() || c == ':');
        return one_of(
            rest,
            &["", "st", "nd", "rd", "th", "am", "pm", "a.m", "p.m"],
        );
    }
    one_of(b, CALENDAR) || one_of(b, DATE_WORDS)
}

/// A line saying who wrote the article or when: "By Phil Helsel", "By Lisa Kaczke and Trevor
/// J. Mitchell", "Nov. 19, 2019, 8:41 AM UTC", "LinkNaija August 08, 2018".
pub(super) fn is_byline(text: &str) -> bool {
    let t = text.trim();
    if t.len() > 300 || !t.is_ascii() {
        return false;
    }
    let n = words(t).count();
    // A wire story's credits: "(Reporting by …; Editing by …)".
    let credits = t.trim_start_matches('(');
    if [
        "Reporting by ",
        "Additional reporting by ",
        "Writing by ",
        "Editing by ",
    ]
    .iter()
    .any(|p| {
        credits
            .strip_prefix(p)
            .is_some_and(|name| name.starts_with(|c: char| c.is_ascii_uppercase()))
    }) {
        return true;
    }
    if t.len() > 120 {
        return false;
    }
    if let Some(rest) = t.strip_prefix("By ").or_else(|| t.strip_prefix("by ")) {
        // Names: capitalised words (and "and", "of", "the"), no sentence after them.
        let sentence = t.ends_with(['.', '!', '?']) && n > 5;
        let names = words(rest).all(|w| {
            w.starts_with(|c: char| c.is_ascii_uppercase())
                || matches!(w, "and" | "of" | "the" | "&" | "|" | "-" | "in" | "for")
                || is_date_token(w)
        });
        return !sentence && n <= 12 && names;
    }
    // A date line: a month name or a time, a digit, and at most two other words, capitalised
    // (a source's name).
    let calendar = || {
        words(t).any(|w| {
            let b = bare(w);
            one_of(b, CALENDAR) || (b.contains(':') && b.bytes().any(|c| c.is_ascii_digit()))
        })
    };
    if n > 14 || !t.bytes().any(|b| b.is_ascii_digit()) || !calendar() {
        return false;
    }
    let others: Vec<&str> = words(t).filter(|w| !is_date_token(w)).collect();
    others.len() <= 2
        && others
            .iter()
            .all(|w| w.starts_with(|c: char| c.is_ascii_uppercase()))
}

/// A picture's credit or caption line: "(AP Photo/Alan Diaz, File)", "Image caption …",
/// "Natalie Naccache | Bloomberg | Getty Images", "(Reed Saxon / Associated Press)".
pub(super) fn is_credit(text: &str) -> bool {
    let t = text.trim();
    // Every mark holds a capital letter, and most lines of a Chinese page have none: one cheap
    // pass instead of eighteen searches on every body line.
    if t.len() > 600 || !t.bytes().any(|b| b.is_ascii_uppercase()) {
        return false;
    }
    // The marks in one pass over the line (a search per mark before).
    static MARKS: std::sync::OnceLock<super::PhraseSet> = std::sync::OnceLock::new();
    if MARKS
        .get_or_init(|| super::PhraseSet::new(CREDITS))
        .found_in(t)
    {
        return true;
    }
    let at_end = |c: &str| {
        t.find(c)
            .is_some_and(|i| i + c.len() + 60 >= t.len() || words(t).count() <= 15)
    };
    if CREDITS_AT_END.iter().any(|c| at_end(c)) {
        return true;
    }
    // A short line in parentheses naming a photographer and an agency.
    t.starts_with('(') && t.ends_with(')') && t.contains('/') && words(t).count() <= 10
}

/// A whole line of page furniture: "Advertisement", "Continue Reading Below", "Caption".
pub(super) fn is_boilerplate(text: &str) -> bool {
    let t = text
        .trim()
        .trim_end_matches(['.', '!', ':', '…', '»', '›', '>'])
        .trim();
    t.len() <= 40 && t.is_ascii() && FURNITURE.iter().any(|f| t.eq_ignore_ascii_case(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bylines_and_date_lines() {
        for yes in [
            "By Phil Helsel",
            "By Reuters",
            "By Lisa Kaczke and Trevor J. Mitchell",
            "Nov. 19, 2019, 8:41 AM UTC",
            "Updated  1:39 am EST, Wednesday, November 20, 2019",
            "Published 11:11 PM EST Nov 19, 2019",
            "LinkNaija August 08, 2018",
            "Updated at 1:23 p.m.",
            "(Reporting by Greg Roumeliotis; Editing by Martin Howell)",
            "Reporting by Rodrigo Campos; additional reporting by Stephanie Kelly; Editing by Nick Zieminski",
        ] {
            assert!(is_byline(yes), "{yes}");
        }
        for no in [
            "By Tuesday, the company had lost half its value.",
            "By the end of the year the plant will close.",
            "On November 20, he resigned.",
            "The vote is on Nov. 5.",
            "Tom Krisher",
            "2019 was a good year for the company, analysts said on Tuesday.",
            "2005-06-14 03:25:55 来源：新华社",
            "Reporting by the newspaper showed that the mayor had lied about the contracts for years.",
        ] {
            assert!(!is_byline(no), "{no}");
        }
    }

    #[test]
    fn credits_and_furniture() {
        assert!(is_credit(
            "Vicente Aguiar loads garage door trims into his pickup truck outside a Home Depot in Hialeah, Fla. (AP Photo/Alan Diaz, File)"
        ));
        assert!(is_credit("Natalie Naccache | Bloomberg | Getty Images"));
        assert!(is_credit("(Reed Saxon / Associated Press)"));
        assert!(is_credit("Image Credit: WeWork"));
        assert!(!is_credit(
            "The photographer said the image was taken at dawn (local time) near the border."
        ));
        assert!(!is_credit("(see the table above)"));
        assert!(!is_credit(
            "Getty Images, the photo agency, said on Monday that its revenue had grown by a fifth \
             last year, helped by demand from news sites and advertisers around the world."
        ));
        assert!(is_credit(
            "Kristi Noem, governor of South Dakota, pictured at the White House. Photo: Alex Wong"
        ));
        for yes in [
            "Advertisement",
            "Continue Reading Below",
            "Caption",
            "comments",
            "Sharing is caring!",
        ] {
            assert!(is_boilerplate(yes), "{yes}");
        }
        for no in [
            "Advertisement spending rose by a third last year.",
            "Close to 300 people attended.",
            "相关新闻",
        ] {
            assert!(!is_boilerplate(no), "{no}");
        }
    }
}
