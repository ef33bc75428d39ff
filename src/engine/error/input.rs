//! Why the user's input cannot be read, said in the UI's language: [`Reason`] — a key of the
//! string tables with its arguments and the English the CLI prints — and the table of the
//! file formats' own mistakes (a qrels line with three fields, a graph header that promises
//! more lines than the file holds, a trace's size column that is not a number …), so a bad
//! line of a user's file reads in Chinese in the zh UI instead of carrying an English reason.
//!
//! Each entry of [`INPUT`] is a key and its English template, whose `{1}`, `{2}` … are the
//! arguments (`{0}` is the location, `file:line`, said before it: `{0}: template`). The string
//! tables hold the same key with the same arguments (a test checks both tables and that the
//! English one says exactly what the CLI says).
//!
//! ```ignore
//! return Err(EngineError::bad_line(name, ln, "error.rank_not_integer", &[&rank]));
//! // CLI: "run.txt:3: rank `x` is not an integer"; zh UI: "输入有误，run.txt:3：名次 `x` 不是整数"
//! ```

use super::{EngineError, ErrorCode};

/// Why the user's input cannot be read: a key of the UI's string tables (one of
/// [`ErrorCode::KEYS`], whose `{0}` is the location) with its arguments `{1}` …, and the
/// English the CLI prints. Built by the constructors below, one per kind of mistake.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason {
    pub key: &'static str,
    pub args: Vec<String>,
    pub english: String,
}

impl Reason {
    pub(super) fn new(key: &'static str, args: Vec<String>, english: String) -> Reason {
        Reason { key, args, english }
    }

    /// A file with no document (or record) in it at all.
    pub(crate) fn no_document(unit: &str) -> Reason {
        Reason::new("error.no_document", vec![], format!("no {unit} in it"))
    }

    /// A file whose every record is bad: how many were skipped, where the first is, and (in
    /// English only) the first few with why.
    pub(crate) fn no_readable_document(
        unit: &str,
        skipped: usize,
        first_location: &str,
        first_few: &str,
    ) -> Reason {
        Reason::new(
            "error.no_readable_document",
            vec![skipped.to_string(), first_location.to_string()],
            format!(
                "no readable document: every {unit} is bad ({skipped} skipped; first: {first_few})"
            ),
        )
    }

    /// A log file with no line.
    pub(crate) fn empty_log() -> Reason {
        Reason::new(
            "error.empty_log",
            vec![],
            "empty file: no log records".into(),
        )
    }

    /// A log file with lines but not one valid record of `format`.
    pub(crate) fn no_valid_record(format: &str, lines: u64, bad: u64, first: &str) -> Reason {
        Reason::new(
            "error.no_valid_record",
            vec![format.to_string(), lines.to_string(), bad.to_string()],
            format!("no valid {format} record in {lines} lines ({bad} bad; first: {first})"),
        )
    }

    /// A line longer than `max` bytes: not a file of kind `what` (`trace`, `access log`).
    pub(crate) fn line_too_long(max: usize, what: &str) -> Reason {
        Reason::new(
            "error.line_too_long",
            vec![max.to_string()],
            format!("a line longer than {max} bytes: not {what}"),
        )
    }

    /// A file that cannot be opened (missing, no permission …): the system's `detail`.
    pub(crate) fn cannot_open(detail: impl std::fmt::Display) -> Reason {
        let detail = detail.to_string();
        Reason::new(
            "error.cannot_open",
            vec![detail.clone()],
            format!("cannot be opened ({detail})"),
        )
    }

    /// A folder given where a file of kind `kind` (`WARC`) is wanted.
    pub(crate) fn folder_not_file(kind: &str) -> Reason {
        Reason::new(
            "error.folder_not_file",
            vec![kind.to_string()],
            format!("a folder, not a {kind} file"),
        )
    }

    /// This reason at `location` (`file:line`, `line 3`) as an error code: how the UI says a
    /// listed bad line in its language.
    pub fn at(&self, location: impl std::fmt::Display) -> ErrorCode {
        let mut args = vec![location.to_string()];
        args.extend(self.args.iter().cloned());
        ErrorCode::new(self.key, args)
    }

    /// A folder given where a log file is wanted.
    pub(crate) fn folder_not_log() -> Reason {
        Reason::new(
            "error.folder_not_log",
            vec![],
            "a folder, not a log file".into(),
        )
    }

    /// A line that cannot be read from the disk (an I/O error, not UTF-8 …).
    pub(crate) fn unreadable_line(detail: impl std::fmt::Display) -> Reason {
        Reason::new(
            "error.unreadable_line",
            vec![],
            format!("cannot be read: {detail}"),
        )
    }
}

/// The file formats' mistakes: key and English template (`{1}` … are the arguments).
pub(crate) const INPUT: &[(&str, &str)] = &[
    (
        "error.qrels_fields",
        "expected `qid 0 doc rel` (TREC) or `qid<TAB>doc<TAB>rel`, found {1} fields",
    ),
    (
        "error.relevance_not_integer",
        "relevance `{1}` is not an integer",
    ),
    ("error.empty_query_or_doc", "empty query or document id"),
    ("error.no_judgements", "no judgements in the qrels file"),
    ("error.rank_not_integer", "rank `{1}` is not an integer"),
    (
        "error.run_fields",
        "expected `qid Q0 doc rank score tag` (TREC) or `qid<TAB>doc[<TAB>score]`, found {1} fields",
    ),
    ("error.score_not_number", "score `{1}` is not a number"),
    ("error.score_not_finite", "score is not finite"),
    ("error.no_results", "no results in the run file"),
    ("error.queries_fields", "expected `qid<TAB>query`"),
    ("error.empty_query", "empty query id or query"),
    ("error.query_repeated", "query id `{1}` repeated"),
    ("error.no_queries", "no queries"),
    ("error.empty_graph", "empty graph file"),
    (
        "error.node_count_not_count",
        "header node count `{1}` is not a count",
    ),
    (
        "error.edge_count_not_count",
        "header edge count `{1}` is not a count",
    ),
    ("error.too_many_nodes", "more nodes than u32 ids"),
    (
        "error.header_too_big",
        "header promises {1} nodes and {2} edges, more lines than the file's {3} bytes hold",
    ),
    (
        "error.node_id_not_integer",
        "node id `{1}` is not an integer",
    ),
    (
        "error.node_id_range",
        "node id {1} out of range 1..={2} (ids are 1-based)",
    ),
    (
        "error.too_few_url_lines",
        "header promises {1} `id url` lines, found {2}",
    ),
    ("error.no_url", "expected `id url`, found no URL"),
    (
        "error.url_extra_fields",
        "expected `id url`, found more fields",
    ),
    ("error.node_listed_twice", "node id {1} listed twice"),
    ("error.edge_fields", "expected `src dst` (two ids)"),
    (
        "error.edge_count_mismatch",
        "header promises {1} edges, found {2} `src dst` lines",
    ),
    (
        "error.edge_list_fields",
        "expected `src dst` (two fields), found `{1}`",
    ),
    ("error.no_edges", "no edges in the edge list"),
    (
        "error.parquet_node_ids",
        "node ids must be 0..N; row {1} has {2}",
    ),
    (
        "error.parquet_edge_range",
        "edge {1} -> {2} names a node outside 0..{3}",
    ),
    (
        "error.too_many_requests",
        "more than {1} requests: too many to hold",
    ),
    (
        "error.too_many_accesses",
        "more than {1} accesses: too many to hold",
    ),
    (
        "error.no_key_column",
        "no column {1} (key); the line has {2}",
    ),
    (
        "error.no_size_column",
        "no column {1} (size); the line has {2}",
    ),
    (
        "error.size_too_large",
        "size {1} is larger than an object can be (4 GB)",
    ),
    (
        "error.size_not_number",
        "size column {1} is `{2}`, not a whole number",
    ),
    ("error.not_utf8_byte", "not UTF-8 text (byte {1})"),
    (
        "error.field_not_number",
        "field {1} is `{2}`, not a whole number below 2⁶⁴",
    ),
    (
        "error.access_fields",
        "expected `term access_type offset length` (four whole numbers)",
    ),
    (
        "error.access_type_too_large",
        "access type {1} is larger than 2³²",
    ),
    (
        "error.length_too_large",
        "length {1} is larger than one read can be (4 GB)",
    ),
    (
        "error.offset_overflow",
        "offset {1} + length {2} lies past 2⁶⁴ bytes",
    ),
    ("error.not_utf8", "not UTF-8 text"),
    ("error.binary_file", "a binary file, not text"),
    (
        "error.not_utf8_at",
        "not valid UTF-8 at byte {1} of the line (save the file as UTF-8)",
    ),
    ("error.no_class_names", "class.txt has no class names"),
    ("error.no_doc_records", "no <doc> records"),
    (
        "error.truth_pair",
        "`{1}` holds a pair that is not two names",
    ),
    ("error.bad_json", "{1}"),
    // A lesson file's format (`workbench::lessons::format`), for the teachers who write them.
    (
        "error.lesson_no_step",
        "a lesson needs at least one step (`## ` heading)",
    ),
    (
        "error.lesson_no_front",
        "a lesson starts with a `---` front matter line",
    ),
    (
        "error.lesson_front_line",
        "front matter lines are `key: value`",
    ),
    (
        "error.lesson_id",
        "`id` is lower-case letters, digits and `-`",
    ),
    (
        "error.lesson_chapter",
        "`chapter` is the book's chapter, 1–13",
    ),
    (
        "error.lesson_front_key",
        "unknown front matter key `{1}` (id, chapter, title, title.zh, title.en, book)",
    ),
    (
        "error.lesson_front_open",
        "the front matter has no closing `---` line",
    ),
    ("error.lesson_no_id", "the front matter names no `id`"),
    (
        "error.lesson_no_chapter",
        "the front matter names no `chapter`",
    ),
    ("error.lesson_no_title", "the front matter names no `title`"),
    ("error.lesson_block_none", "`:::` closes no block"),
    (
        "error.lesson_block_open_at",
        "a `:::` block opened on line {1} is not closed",
    ),
    ("error.lesson_language", "unknown language `{1}` (zh, en)"),
    ("error.lesson_block_open", "this `:::` block is not closed"),
    (
        "error.lesson_directive",
        "unknown directive `{1}` (open, reopen, params, experiment, run, focus, check, question)",
    ),
    ("error.lesson_twice", "`{1}` is given twice in this step"),
    (
        "error.lesson_check_and_question",
        "a step has a `check` or a `question`, not both",
    ),
    ("error.lesson_focus", "`focus` names a widget or tab"),
    (
        "error.lesson_one_action",
        "`{1}`: a step has one action (open, experiment or run)",
    ),
    ("error.lesson_needs_params", "`{1}` needs `params: {…}`"),
    (
        "error.lesson_params_alone",
        "`params` belongs to `reopen` or `run`",
    ),
    (
        "error.lesson_reopen_experiment",
        "`reopen` goes with `open`, not `experiment`",
    ),
    (
        "error.lesson_experiment_list",
        "unknown experiment `{1}` (`tianwang experiment list` names them)",
    ),
    (
        "error.lesson_reopen_run",
        "`reopen` goes with `open`, not `run`",
    ),
    ("error.lesson_job_kind", "unknown job kind `{1}`"),
    ("error.lesson_panel", "unknown panel `{1}` (panels: {2})"),
    (
        "error.lesson_panel_kind",
        "panel `{1}` does not start `{2}` jobs",
    ),
    ("error.lesson_no_reopen", "no panel re-opens `{1}` jobs"),
    ("error.lesson_params_json", "`params` is not JSON: {1}"),
    (
        "error.lesson_params_object",
        "`params` is a JSON object `{…}`",
    ),
    ("error.lesson_refuses", "`{1}` refuses these params: {2}"),
    ("error.lesson_no_param", "`{1}` has no parameter `{2}`"),
    (
        "error.lesson_question_missing",
        "`question: MIN..MAX` gives the accepted answers",
    ),
    (
        "error.lesson_check_missing",
        "`check: ROW` names a row of the experiment's result",
    ),
    ("error.lesson_not_number", "`{1}` is a number, not `{2}`"),
    ("error.lesson_tolerance", "`tolerance` is ≥ 0"),
    ("error.lesson_experiment", "unknown experiment `{1}`"),
    (
        "error.lesson_question_part",
        "unknown `{1}` in a question (use unit, row, experiment)",
    ),
    (
        "error.lesson_check_part",
        "unknown `{1}` in a check (use book, tolerance, experiment)",
    ),
    (
        "error.lesson_range",
        "`{1}` is not a range `MIN..MAX` with MIN ≤ MAX",
    ),
    (
        "error.lesson_row_needs_experiment",
        "`row` needs an experiment (this step runs none: add `| experiment ID`)",
    ),
    (
        "error.lesson_check_needs_experiment",
        "a check reads an experiment's row (this step runs none: add `| experiment ID`)",
    ),
    ("error.lesson_job_failed", "`{1}` failed: {2}"),
    ("error.lesson_experiment_failed", "{1} could not run: {2}"),
    ("error.lesson_no_row", "{1} has no row `{2}` (rows: {3})"),
];

impl Reason {
    /// The mistake `key` of [`INPUT`] with its arguments. A key not in the table (a bug) still
    /// says its arguments, under the generic `error.bad_input`.
    pub(crate) fn input(key: &'static str, args: &[&dyn std::fmt::Display]) -> Reason {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let Some((key, template)) = INPUT.iter().find(|(k, _)| *k == key) else {
            let english = format!("{key} {}", args.join(" "));
            return Reason::new("error.bad_input", vec![english.clone()], english);
        };
        let english = super::fill(template, &args, 1);
        Reason::new(key, args, english)
    }

    /// The number of arguments of an [`INPUT`] key, the location included.
    pub(crate) fn input_arity(key: &str) -> Option<usize> {
        let (_, t) = INPUT.iter().find(|(k, _)| *k == key)?;
        Some(1 + (1..10).filter(|i| t.contains(&format!("{{{i}}}"))).count())
    }
}

impl EngineError {
    /// A bad line of the user's input at `file:line`, for the reason `key` of [`INPUT`].
    pub(crate) fn bad_line(
        file: impl std::fmt::Display,
        line: impl std::fmt::Display,
        key: &'static str,
        args: &[&dyn std::fmt::Display],
    ) -> Self {
        EngineError::unreadable(format!("{file}:{line}"), Reason::input(key, args))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_input_reason_says_its_template_with_the_arguments() {
        let r = Reason::input("error.rank_not_integer", &[&"x"]);
        assert_eq!(r.english, "rank `x` is not an integer");
        assert_eq!(r.args, ["x"]);
        let e = EngineError::bad_line("run.txt", 3, "error.header_too_big", &[&1, &2, &3]);
        assert_eq!(
            e.to_string(),
            "run.txt:3: header promises 1 nodes and 2 edges, more lines than the file's 3 bytes hold"
        );
        assert_eq!(e.code().args, ["run.txt:3", "1", "2", "3"]);
        assert_eq!(Reason::input_arity("error.header_too_big"), Some(4));
        assert_eq!(Reason::input_arity("error.no_queries"), Some(1));
    }

    #[test]
    fn every_input_key_is_unique_and_numbers_its_arguments_from_one() {
        for (i, (k, t)) in INPUT.iter().enumerate() {
            assert!(INPUT[..i].iter().all(|(o, _)| o != k), "{k} twice");
            assert!(!t.contains("{0}"), "{k}: {{0}} is the location");
            let n = Reason::input_arity(k).unwrap() - 1;
            for j in 1..=n {
                assert!(t.contains(&format!("{{{j}}}")), "{k}: gap at {{{j}}}");
            }
        }
    }
}
