//! What the encoding decision saw, as notes: each a key with arguments, so a view can say it
//! in its own language (the GUI's string tables carry the keys as `enc.KEY`), and its English
//! for the command line and JSON ([`english`], the notes joined by "; ").
//!
//! ```ignore
//! let n = Note::of("header_says", ["utf-8"]);
//! assert_eq!(n.english(), "the HTTP header says \"utf-8\"");
//! ```

use serde::{Serialize, Serializer};

/// One thing the decision saw or did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub key: &'static str,
    pub args: Vec<String>,
}

impl Note {
    pub(crate) fn new(key: &'static str) -> Self {
        Note {
            key,
            args: Vec::new(),
        }
    }

    pub(crate) fn of<const N: usize>(key: &'static str, args: [impl ToString; N]) -> Self {
        Note {
            key,
            args: args.iter().map(ToString::to_string).collect(),
        }
    }

    /// The note in English: its template with `{0}`, `{1}` … filled in.
    pub fn english(&self) -> String {
        crate::engine::error::fill(Self::template(self.key), &self.args, 0)
    }
}

/// The notes in English, joined by "; ".
pub fn english(notes: &[Note]) -> String {
    let parts: Vec<String> = notes.iter().map(Note::english).collect();
    parts.join("; ")
}

/// Serialises notes as one English string: the `note` of the JSON the command line prints.
pub(crate) fn serialize_english<S: Serializer>(notes: &[Note], s: S) -> Result<S::Ok, S::Error> {
    english(notes).serialize(s)
}

/// One table makes both the template lookup and, for the tests, the list of keys.
macro_rules! notes {
    ($($key:literal => $english:literal,)+) => {
        impl Note {
            /// Every key a note can have.
            pub const KEYS: &'static [&'static str] = &[$($key),+];

            /// The English template of a key; `{0}`, `{1}` … stand for the arguments.
            pub fn template(key: &str) -> &'static str {
                match key {
                    $($key => $english,)+
                    _ => "",
                }
            }
        }
    };
}

notes! {
    "override" => "override: the user chose \"{0}\"",
    "bom" => "a {0} byte-order mark ({1} bytes) outranks any declaration",
    "header_unknown" => "the header's charset \"{0}\" is unknown and was ignored",
    "server_default" => "the header's \"{0}\" (a server default) yields",
    "meta_overruled" => "the <meta> says \"{0}\"; the header wins",
    "utf16_as_utf8" => "\"{0}\" read as UTF-8: these bytes cannot be UTF-16 markup",
    "user_defined" => "x-user-defined is read as windows-1252 (WHATWG)",
    "header_says" => "the HTTP header says \"{0}\"",
    "meta_says" => "the <meta> says \"{0}\"",
    "valid_utf8" => "but the bytes are valid UTF-8 with non-ASCII text; decoded as UTF-8",
    "errors_as" => "but as {0} it gives {1} replacement characters ({2}% of non-ASCII)",
    "any_byte" => "a label under which any byte decodes",
    "alt_header" => "the HTTP header says \"{0}\", which gives {1} replacement characters; decoded as it",
    "alt_meta" => "the <meta> says \"{0}\", which gives {1} replacement characters; decoded as it",
    "alt_guess" => "chardetng guesses {0}, which gives {1} replacement characters; decoded as it",
    "stands" => "nothing decodes better, so the declaration stands",
    "superset" => "read with the gb18030 decoder, a superset of GBK and GB2312",
    "late_meta" => "the <meta> stands at byte {0}, past the {1} bytes the prescan reads; a browser's parser meets it and follows it",
    "undeclared_utf8" => "no BOM, header charset or <meta> in the first {0} bytes; the bytes are valid UTF-8 with non-ASCII text",
    "guessed" => "no BOM, header charset or <meta> in the first {0} bytes; chardetng guessed {1} from {2} bytes of non-ASCII text and its neighbours",
    "guessed_tld" => "no BOM, header charset or <meta> in the first {0} bytes; chardetng guessed {1} from {2} bytes of non-ASCII text and its neighbours (TLD .{3})",
    "pure_ascii" => "the bytes are pure ASCII, read alike by every ASCII-based encoding",
    "malformed_retry" => "chardetng first said {0}, but only because of {1} malformed {2} sequences; without them it finds {2}",
    "replacements" => "{0} replacement characters",
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_has_a_template_and_notes_join_in_english() {
        for key in Note::KEYS {
            assert!(!Note::template(key).is_empty(), "{key}");
        }
        let notes = [Note::of("header_says", ["utf-8"]), Note::new("superset")];
        assert_eq!(
            english(&notes),
            "the HTTP header says \"utf-8\"; read with the gb18030 decoder, a superset of GBK and GB2312"
        );
    }
}
