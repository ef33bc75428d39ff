//! The workspace: where does everything live? One SQLite file holds a whole lab — sites, pages,
//! snapshots and the experiment log of every job — so a class or a study can be handed on as one
//! file.
//!
//! The file is opened defensively. Before SQLite ever touches it, its 100-byte header is read:
//! a file that is not SQLite, an empty file, or another application's SQLite database is refused
//! with [`EngineError::NotAWorkspace`] and left byte-for-byte as it was. Our own files carry the
//! application id `TWKB` in the header; their schema is brought up to date by migrations, so a
//! workspace made by an older build opens in a newer one, while a newer one is refused
//! ([`EngineError::TooNew`]). Journal mode is WAL and foreign keys are on.
//!
//! The page store follows the book's split between a crawl's raw pages and their index
//! (ch. 3 §3.6 and ch. 4 §4.2, [L1042–1126], [L1397–1476]); later modules add their tables by
//! appending migrations to [`MIGRATIONS`], never by editing one that has shipped.
//!
//! ```no_run
//! use tianwang::engine::store::Workspace;
//! let ws = Workspace::open_or_create("lab.tianwang".as_ref())?;
//! let s = ws.summary()?;
//! println!("{} pages, {} jobs", s.pages, s.jobs);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::io::Read;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags, OptionalExtension};
use rusqlite_migration::{M, Migrations};
use serde::Serialize;

use crate::engine::error::{EngineError, Flaw, Result};

/// `PRAGMA application_id` of a Tianwang workspace: the bytes "TWKB".
pub(crate) const APPLICATION_ID: i32 = 0x5457_4B42;

/// The schema, one migration per step. Append only: a shipped migration is never edited.
pub(crate) const MIGRATIONS_SLICE: &[M<'static>] = &[
    // v1: workspace metadata and the experiment log (every job run).
    M::up(
        "CREATE TABLE meta (
             key   TEXT PRIMARY KEY,
             value TEXT NOT NULL
         ) STRICT;
         CREATE TABLE jobs (
             id           INTEGER PRIMARY KEY,
             kind         TEXT NOT NULL,
             params       TEXT NOT NULL,
             status       TEXT NOT NULL
                          CHECK (status IN ('running','done','failed','cancelled','interrupted')),
             started_at   TEXT NOT NULL,
             ended_at     TEXT,
             heartbeat_at TEXT,
             pid          INTEGER,
             result       TEXT,
             error        TEXT
         ) STRICT;
         CREATE INDEX jobs_kind ON jobs(kind);
         CREATE INDEX jobs_status ON jobs(status);",
    ),
    // v2: the page store — hosts, URLs, and byte-exact snapshots of each fetch.
    M::up(
        "CREATE TABLE sites (
             id         INTEGER PRIMARY KEY,
             host       TEXT NOT NULL UNIQUE,
             first_seen TEXT NOT NULL
         ) STRICT;
         CREATE TABLE pages (
             id         INTEGER PRIMARY KEY,
             url        TEXT NOT NULL UNIQUE,
             site_id    INTEGER NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
             first_seen TEXT NOT NULL
         ) STRICT;
         CREATE INDEX pages_site ON pages(site_id);
         CREATE TABLE snapshots (
             id         INTEGER PRIMARY KEY,
             page_id    INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
             fetched_at TEXT NOT NULL,
             status     INTEGER,
             md5        TEXT,
             raw        BLOB
         ) STRICT;
         CREATE INDEX snapshots_page ON snapshots(page_id);",
    ),
    // v3: the crawler — page status and replicas, snapshot origin and conditional-GET
    // validators, the persistent frontier, and the log of every fetch attempt.
    M::up(
        "ALTER TABLE pages ADD COLUMN status INTEGER;
         ALTER TABLE pages ADD COLUMN replica_of INTEGER REFERENCES pages(id);
         ALTER TABLE pages ADD COLUMN depth INTEGER;
         ALTER TABLE snapshots ADD COLUMN origin TEXT;
         ALTER TABLE snapshots ADD COLUMN content_type TEXT;
         ALTER TABLE snapshots ADD COLUMN etag TEXT;
         ALTER TABLE snapshots ADD COLUMN last_modified TEXT;
         ALTER TABLE snapshots ADD COLUMN ip TEXT;
         CREATE INDEX snapshots_md5 ON snapshots(md5);
         CREATE TABLE frontier (
             id            INTEGER PRIMARY KEY,
             url           TEXT NOT NULL UNIQUE,
             host          TEXT NOT NULL,
             depth         INTEGER NOT NULL,
             priority      REAL NOT NULL,
             why           TEXT NOT NULL,
             backlinks     INTEGER NOT NULL DEFAULT 0,
             state         TEXT NOT NULL
                           CHECK (state IN ('queued','done','failed','robots','filtered')),
             discovered_at TEXT NOT NULL,
             job_id        INTEGER
         ) STRICT;
         CREATE INDEX frontier_queued ON frontier(state, priority DESC);
         CREATE TABLE fetches (
             id           INTEGER PRIMARY KEY,
             job_id       INTEGER,
             url          TEXT NOT NULL,
             final_url    TEXT,
             status       INTEGER,
             error_kind   TEXT,
             error        TEXT,
             bytes        INTEGER,
             elapsed_ms   INTEGER,
             fetched_at   TEXT NOT NULL,
             content_type TEXT,
             page_id      INTEGER,
             replica_of   INTEGER
         ) STRICT;
         CREATE INDEX fetches_job ON fetches(job_id);",
    ),
    // v4: the link graph as crawled (out-links of each page, for in-links and the inspector),
    // and which IP answered for which host (the book's domain/IP alias classes [L1204–1267]).
    M::up(
        "CREATE TABLE links (
             from_page INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
             to_url    TEXT NOT NULL,
             PRIMARY KEY (from_page, to_url)
         ) STRICT, WITHOUT ROWID;
         CREATE INDEX links_to ON links(to_url);
         CREATE TABLE host_ips (
             host       TEXT NOT NULL,
             ip         TEXT NOT NULL,
             first_seen TEXT NOT NULL,
             PRIMARY KEY (host, ip)
         ) STRICT, WITHOUT ROWID;",
    ),
    // v5: the request each snapshot answered (method, path, headers sent).
    M::up("ALTER TABLE snapshots ADD COLUMN request TEXT;"),
    // v6: when the process running a job started (Linux: /proc/PID/stat field 22, clock ticks
    // since boot), so liveness is judged by pid + start time rather than by a heartbeat that a
    // job's own long write transaction can hold up.
    M::up("ALTER TABLE jobs ADD COLUMN proc_start TEXT;"),
    // v7: large parts of a job's result (per-page tables), kept beside its log row so the
    // experiment log stays small to read; `name` says which part.
    M::up(
        "CREATE TABLE job_details (
             job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
             name   TEXT NOT NULL,
             data   TEXT NOT NULL,
             PRIMARY KEY (job_id, name)
         ) STRICT, WITHOUT ROWID;",
    ),
    // v8: trained classifiers (engine::classify::persist), each with its full configuration.
    M::up(
        "CREATE TABLE classify_models (
             id         INTEGER PRIMARY KEY,
             name       TEXT NOT NULL,
             kind       TEXT NOT NULL,
             created    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
             train_docs INTEGER NOT NULL,
             features   INTEGER NOT NULL,
             labels     TEXT NOT NULL,   -- JSON array of class names
             config     TEXT NOT NULL,   -- JSON PipelineConfig
             metrics    TEXT,            -- JSON Metrics of the test run, when known
             model      TEXT NOT NULL    -- JSON Model (configuration included)
         );
         CREATE INDEX classify_models_name ON classify_models(name);",
    ),
    // v9: imported query and click logs (engine::querylog::persist): one row per log, its
    // distinct normalised queries, and one row per record (raw query kept when it differs).
    M::up(
        "CREATE TABLE querylogs (
             id         INTEGER PRIMARY KEY,
             name       TEXT NOT NULL,
             source     TEXT NOT NULL,   -- the file imported
             format     TEXT NOT NULL,   -- sogouq | tianwang-query | tianwang-click | tsv
             encoding   TEXT NOT NULL,
             normalise  TEXT NOT NULL,   -- JSON Normalise
             created    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
             lines      INTEGER NOT NULL,
             records    INTEGER NOT NULL,
             bad_lines  INTEGER NOT NULL,
             bad_first  TEXT NOT NULL,   -- JSON [{line, reason}]
             synthetic  INTEGER NOT NULL DEFAULT 0,
             job_id     INTEGER REFERENCES jobs(id) ON DELETE SET NULL
         ) STRICT;
         CREATE TABLE querylog_queries (
             log_id INTEGER NOT NULL REFERENCES querylogs(id) ON DELETE CASCADE,
             id     INTEGER NOT NULL,
             query  TEXT NOT NULL,        -- normalised
             PRIMARY KEY (log_id, id)
         ) STRICT, WITHOUT ROWID;
         CREATE TABLE querylog_records (
             log_id    INTEGER NOT NULL REFERENCES querylogs(id) ON DELETE CASCADE,
             seq       INTEGER NOT NULL,  -- 0-based record number
             line      INTEGER NOT NULL,  -- line in the source file
             time      INTEGER,           -- seconds (of the day, or since 1970 when dated)
             dated     INTEGER NOT NULL,
             user      TEXT NOT NULL,
             query_id  INTEGER NOT NULL,
             raw_query TEXT,              -- NULL when equal to the normalised query
             page      INTEGER,
             rank      INTEGER,
             click_order INTEGER,
             url       TEXT,
             cache     TEXT,
             PRIMARY KEY (log_id, seq)
         ) STRICT, WITHOUT ROWID;",
    ),
    // v10: a failed job's error as a code for the UI's string tables (JSON `{key, args}`,
    // engine::error::ErrorCode) beside its English message, so the UI says it in zh.
    M::up("ALTER TABLE jobs ADD COLUMN error_code TEXT;"),
    // v11: what the engine's stages keep (issue 25), each table owned by its lab: the DocView
    // cleaning of every stored page's latest snapshot (engine::docview::stored), the
    // near-duplicate groups search folds (engine::dedup::stored), PageRank over the crawl graph
    // (engine::rank::stored), each page's category by a stored model (engine::classify::stored),
    // and what each stage of the pipeline last read and made (workbench::pipeline).
    M::up(
        "CREATE TABLE clean_pages (
             snapshot_id INTEGER PRIMARY KEY REFERENCES snapshots(id) ON DELETE CASCADE,
             page_id     INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
             ok          INTEGER NOT NULL,            -- 0: not HTML, or DocView refused it
             page_type   TEXT,                         -- topic | hub | picture
             title       TEXT NOT NULL DEFAULT '',
             body        TEXT NOT NULL DEFAULT '',
             keywords    TEXT NOT NULL DEFAULT '[]',   -- JSON [[word, weight]]
             encoding    TEXT,
             error       TEXT,
             job_id      INTEGER REFERENCES jobs(id) ON DELETE SET NULL,
             cleaned_at  TEXT NOT NULL
         ) STRICT;
         CREATE INDEX clean_pages_page ON clean_pages(page_id);
         CREATE TABLE page_groups (
             page_id  INTEGER PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
             grp      INTEGER NOT NULL,   -- the group's smallest page id
             joined   TEXT NOT NULL,      -- near | contained | replica: how the page joined
             job_id   INTEGER REFERENCES jobs(id) ON DELETE SET NULL
         ) STRICT;
         CREATE INDEX page_groups_grp ON page_groups(grp);
         CREATE TABLE page_ranks (
             page_id INTEGER PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
             score   REAL NOT NULL,
             job_id  INTEGER REFERENCES jobs(id) ON DELETE SET NULL
         ) STRICT;
         CREATE TABLE page_categories (
             page_id     INTEGER PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
             snapshot_id INTEGER NOT NULL,
             model_id    INTEGER NOT NULL REFERENCES classify_models(id) ON DELETE CASCADE,
             category    TEXT NOT NULL,
             score       REAL NOT NULL,
             job_id      INTEGER REFERENCES jobs(id) ON DELETE SET NULL
         ) STRICT;
         CREATE TABLE pipeline_stages (
             stage       TEXT PRIMARY KEY,
             job_id      INTEGER REFERENCES jobs(id) ON DELETE SET NULL,
             input       TEXT NOT NULL,   -- JSON: what the stage read (its up-to-date mark)
             output      TEXT NOT NULL,   -- JSON: what it made
             seconds     REAL NOT NULL,
             finished_at TEXT NOT NULL
         ) STRICT;",
    ),
    // v12: students' answers to the question steps of lessons (workbench::lessons::answers),
    // kept so a teacher can export them as CSV.
    M::up(
        "CREATE TABLE lesson_answers (
             id          INTEGER PRIMARY KEY,
             lesson      TEXT NOT NULL,
             step        INTEGER NOT NULL,    -- 1-based
             student     TEXT NOT NULL DEFAULT '',
             answer      TEXT NOT NULL,
             accepted    INTEGER NOT NULL,    -- 1: within the step's accepted range
             answered_at TEXT NOT NULL
         ) STRICT;
         CREATE INDEX lesson_answers_lesson ON lesson_answers(lesson, step);",
    ),
];

/// The migrations as a runnable set.
pub(crate) fn migrations() -> Migrations<'static> {
    Migrations::from_slice(MIGRATIONS_SLICE)
}

/// The schema version this build writes.
pub(crate) fn latest_schema_version() -> i64 {
    MIGRATIONS_SLICE.len() as i64
}

/// File name of the workspace opened when none is given.
pub(crate) const DEFAULT_WORKSPACE_FILE: &str = "workspace.tianwang";

/// The folder for the user's workbench data: `$TIANWANG_DATA_DIR` when set, else the platform's
/// data directory (e.g. `~/.local/share/tianwang-workbench` on Linux).
pub fn data_dir() -> Result<PathBuf> {
    if let Some(dir) = std::env::var_os("TIANWANG_DATA_DIR") {
        return Ok(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "tianwang-workbench")
        .map(|d| d.data_dir().to_path_buf())
        .ok_or_else(|| EngineError::path_flaw("$HOME", Flaw::new("flaw.path_no_home", &[])))
}

/// The folder beside a workspace for the files the app writes for its runs (a generated
/// query log, a request stream for the cache lab): `<workspace>.files/`, next to the index's
/// `<workspace>.index/`, so nothing a run needs is left in the temp folder.
pub(crate) fn files_dir(workspace: &Path) -> PathBuf {
    let mut s = workspace.as_os_str().to_os_string();
    s.push(".files");
    PathBuf::from(s)
}

/// A short stable name for what a generated file was made from (FNV-1a of `what`), so the
/// same inputs write the same file instead of a new one each time.
pub(crate) fn key_of(what: &str) -> String {
    let h = what.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    format!("{h:016x}")
}

/// The workspace opened when none is given (created on first start).
pub(crate) fn default_workspace_path() -> Result<PathBuf> {
    Ok(data_dir()?.join(DEFAULT_WORKSPACE_FILE))
}

/// What a file on disk is, judged from its header alone (nothing is written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FileKind {
    Missing,
    Empty,
    NotSqlite,
    /// An SQLite database; `application_id` as stored in its header.
    Sqlite {
        application_id: i32,
    },
    /// An SQLite database shorter than its header says.
    Truncated {
        expected: u64,
        found: u64,
    },
}

pub(crate) fn inspect(path: &Path) -> Result<FileKind> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(FileKind::Missing),
        Err(e) => {
            return Err(EngineError::path_os(path, e));
        }
    };
    if meta.is_dir() {
        return Err(EngineError::path_flaw(
            path,
            Flaw::new("flaw.path_is_dir_not_workspace", &[]),
        ));
    }
    if meta.len() == 0 {
        return Ok(FileKind::Empty);
    }
    let mut header = Vec::with_capacity(100);
    std::fs::File::open(path)
        .and_then(|f| f.take(100).read_to_end(&mut header))
        .map_err(|e| EngineError::path_os(path, e))?;
    if header.len() < 100 || &header[..16] != b"SQLite format 3\0" {
        return Ok(FileKind::NotSqlite);
    }
    // A file shorter than the size its header states was cut off (a copy that did not
    // finish, a full disk during a copy): opening it would fail later, page by page. The
    // stated size counts only when the header says it is current (offsets 24 and 92 agree).
    let be32 = |at: usize| {
        u32::from_be_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
    };
    let page_size = match u16::from_be_bytes([header[16], header[17]]) {
        1 => 65_536u64,
        n => u64::from(n),
    };
    let pages = u64::from(be32(28));
    // With a write-ahead log beside it the log may still hold the rest (a checkpoint cut
    // short): SQLite recovers that, so only a file without one is judged.
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    let wal_holds_pages = std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0);
    if be32(24) == be32(92) && pages > 0 && meta.len() < pages * page_size && !wal_holds_pages {
        return Ok(FileKind::Truncated {
            expected: pages * page_size,
            found: meta.len(),
        });
    }
    let application_id = i32::from_be_bytes([header[68], header[69], header[70], header[71]]);
    Ok(FileKind::Sqlite { application_id })
}

/// Counts of what a workspace holds (the Overview panel's cards).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct WorkspaceSummary {
    pub path: PathBuf,
    pub schema_version: i64,
    pub file_bytes: u64,
    pub sites: i64,
    pub pages: i64,
    pub snapshots: i64,
    pub jobs: i64,
    pub jobs_running: i64,
    pub created_at: Option<String>,
    /// Opened read-only (the file or its folder is not writable).
    pub read_only: bool,
}

/// An open workspace: one connection to one SQLite file.
pub struct Workspace {
    conn: Connection,
    path: PathBuf,
    /// Opened read-only (the file is not writable): everything reads, every write fails
    /// with a message that says so, and the file is never changed.
    read_only: bool,
}

/// The file (or, for the write-ahead log, its folder) cannot be written by us.
fn read_only_file(path: &Path) -> bool {
    let file_ro = std::fs::metadata(path).is_ok_and(|m| m.permissions().readonly());
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let dir_ro = std::fs::metadata(dir).is_ok_and(|m| m.permissions().readonly());
    file_ro || dir_ro
}

impl std::fmt::Debug for Workspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workspace")
            .field("path", &self.path)
            .finish()
    }
}

fn not_a_workspace(path: &Path, reason: &str) -> EngineError {
    EngineError::NotAWorkspace {
        path: path.into(),
        reason: reason.into(),
    }
}

/// Map SQLite's "this is not a database / it is corrupt" to the user-facing error.
fn classify_sql(path: &Path, e: rusqlite::Error) -> EngineError {
    if let rusqlite::Error::SqliteFailure(err, _) = &e
        && matches!(
            err.code,
            rusqlite::ErrorCode::NotADatabase | rusqlite::ErrorCode::DatabaseCorrupt
        )
    {
        return not_a_workspace(path, "the SQLite file is damaged");
    }
    EngineError::Sql(e)
}

impl Workspace {
    /// Open the workspace at `path`, creating it when the file does not exist.
    pub fn open_or_create(path: &Path) -> Result<Self> {
        match inspect(path)? {
            FileKind::Missing => Self::create(path),
            _ => Self::open_existing(path),
        }
    }

    /// Create a new, empty workspace; fails if the file exists.
    pub fn create(path: &Path) -> Result<Self> {
        if inspect(path)? != FileKind::Missing {
            return Err(EngineError::path_flaw(
                path,
                Flaw::new("flaw.path_exists", &[]),
            ));
        }
        match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() && !dir.is_dir() => {
                return Err(EngineError::path_flaw(
                    path,
                    Flaw::new("flaw.path_no_parent_folder", &[&dir.display()]),
                ));
            }
            _ => {}
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| {
            EngineError::path_flaw(path, Flaw::with_detail("flaw.path_sqlite_open", &[], e))
        })?;
        // The application id goes into the header before anything else, in rollback-journal
        // mode, so even a crash right after creation leaves a file we recognise.
        conn.pragma_update(None, "application_id", APPLICATION_ID)?;
        conn.execute_batch(
            "BEGIN; CREATE TABLE IF NOT EXISTS _init(x); DROP TABLE _init; COMMIT;",
        )?;
        let mut ws = Workspace {
            conn,
            path: path.into(),
            read_only: false,
        };
        ws.configure()?;
        ws.migrate()?;
        ws.conn.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES ('created_at', ?1), ('created_by', ?2)",
            (
                now_rfc3339(),
                concat!("tianwang ", env!("CARGO_PKG_VERSION")),
            ),
        )?;
        Ok(ws)
    }

    /// Open an existing workspace, migrating an older schema. Anything that is not a workspace
    /// is refused before SQLite opens it for writing.
    pub fn open_existing(path: &Path) -> Result<Self> {
        match inspect(path)? {
            FileKind::Missing => {
                return Err(EngineError::path_flaw(
                    path,
                    Flaw::new("flaw.path_no_file", &[]),
                ));
            }
            FileKind::Empty => return Err(not_a_workspace(path, "the file is empty")),
            FileKind::NotSqlite => return Err(not_a_workspace(path, "not an SQLite database")),
            FileKind::Truncated { expected, found } => {
                return Err(not_a_workspace(
                    path,
                    &format!(
                        "the file is cut short: {found} of the {expected} bytes its header states (an unfinished copy?); restore it from the original or a backup"
                    ),
                ));
            }
            FileKind::Sqlite { application_id } if application_id != APPLICATION_ID => {
                return Err(not_a_workspace(
                    path,
                    "an SQLite database of another application",
                ));
            }
            FileKind::Sqlite { .. } => {}
        }
        // Check the schema version read-only first: a newer workspace must not be touched.
        {
            let ro = Connection::open_with_flags(
                path,
                OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )
            .map_err(|e| classify_sql(path, e))?;
            let version: i64 = ro
                .pragma_query_value(None, "user_version", |r| r.get(0))
                .map_err(|e| classify_sql(path, e))?;
            if version > latest_schema_version() {
                return Err(EngineError::TooNew {
                    path: path.into(),
                    found: version,
                    known: latest_schema_version(),
                });
            }
        }
        if read_only_file(path) {
            return Self::open_read_only(path);
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| {
            EngineError::path_flaw(path, Flaw::with_detail("flaw.path_sqlite_open", &[], e))
        })?;
        let mut ws = Workspace {
            conn,
            path: path.into(),
            read_only: false,
        };
        ws.configure().map_err(|e| match e {
            EngineError::Sql(s) => classify_sql(path, s),
            other => other,
        })?;
        ws.migrate()?;
        Ok(ws)
    }

    /// Open a workspace whose file is not writable: reads work, writes fail with "read-only".
    /// A workspace that would need a migration cannot be opened this way (upgrading writes).
    fn open_read_only(path: &Path) -> Result<Self> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| classify_sql(path, e))?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        let version: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(|e| classify_sql(path, e))?;
        if version < latest_schema_version() {
            return Err(EngineError::path_flaw(
                path,
                Flaw::new(
                    "flaw.path_read_only_old",
                    &[&version, &latest_schema_version()],
                ),
            ));
        }
        Ok(Workspace {
            conn,
            path: path.into(),
            read_only: true,
        })
    }

    fn configure(&mut self) -> Result<()> {
        self.conn.busy_timeout(std::time::Duration::from_secs(10))?;
        let mode: String = self
            .conn
            .pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            // Some file systems (network shares, some FUSE mounts) cannot hold WAL's shared
            // memory: the user's to fix by keeping the workspace elsewhere.
            return Err(EngineError::path_flaw(
                self.path.clone(),
                Flaw::new("flaw.path_no_wal", &[&mode]),
            ));
        }
        self.conn.pragma_update(None, "foreign_keys", true)?;
        self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        Ok(())
    }

    fn migrate(&mut self) -> Result<()> {
        migrations().to_latest(&mut self.conn)?;
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }

    pub(crate) fn conn_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }

    pub(crate) fn schema_version(&self) -> Result<i64> {
        Ok(self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// What the workspace holds. A pure read: `jobs_running` counts rows still marked running,
    /// so callers that show it reap the runs of dead processes first
    /// (`engine::jobs::reap_interrupted`).
    pub fn summary(&self) -> Result<WorkspaceSummary> {
        let count = |sql: &str| -> Result<i64> { Ok(self.conn.query_row(sql, [], |r| r.get(0))?) };
        Ok(WorkspaceSummary {
            path: self.path.clone(),
            schema_version: self.schema_version()?,
            file_bytes: std::fs::metadata(&self.path).map(|m| m.len()).unwrap_or(0)
                + std::fs::metadata(wal_path(&self.path))
                    .map(|m| m.len())
                    .unwrap_or(0),
            sites: count("SELECT count(*) FROM sites")?,
            pages: count("SELECT count(*) FROM pages")?,
            snapshots: count("SELECT count(*) FROM snapshots")?,
            jobs: count("SELECT count(*) FROM jobs")?,
            jobs_running: count("SELECT count(*) FROM jobs WHERE status = 'running'")?,
            created_at: self
                .conn
                .query_row("SELECT value FROM meta WHERE key = 'created_at'", [], |r| {
                    r.get(0)
                })
                .optional()?,
            read_only: self.read_only,
        })
    }

    /// Copy this workspace to `dest` (Save As…) with SQLite's online backup, page by page.
    /// `progress(done_pages, total_pages)` returns `false` to cancel; a cancelled or failed copy
    /// leaves no file behind.
    pub fn save_as(&self, dest: &Path, mut progress: impl FnMut(i64, i64) -> bool) -> Result<()> {
        if dest == self.path {
            return Err(EngineError::path_flaw(
                dest,
                Flaw::new("flaw.path_is_workspace", &[]),
            ));
        }
        if inspect(dest)? != FileKind::Missing {
            return Err(EngineError::path_flaw(
                dest,
                Flaw::new("flaw.path_exists", &[]),
            ));
        }
        let tmp = unique_temporary(dest);
        let result = (|| -> Result<()> {
            let mut out = Connection::open(&tmp).map_err(|e| {
                EngineError::path_flaw(dest, Flaw::with_detail("flaw.path_sqlite_open", &[], e))
            })?;
            {
                let backup = rusqlite::backup::Backup::new(&self.conn, &mut out)?;
                loop {
                    let step = backup.step(64)?;
                    let p = backup.progress();
                    let total = i64::from(p.pagecount);
                    if !progress(total - i64::from(p.remaining), total) {
                        return Err(EngineError::Cancelled);
                    }
                    match step {
                        rusqlite::backup::StepResult::Done => break,
                        rusqlite::backup::StepResult::More => {}
                        _ => std::thread::sleep(std::time::Duration::from_millis(20)),
                    }
                }
            }
            let mode: String =
                out.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))?;
            debug_assert_eq!(mode.to_ascii_lowercase(), "wal");
            drop(out);
            std::fs::rename(&tmp, dest).map_err(|e| EngineError::Io {
                path: dest.into(),
                source: e,
            })?;
            Ok(())
        })();
        if result.is_err() {
            remove_database_files(&tmp);
        }
        result
    }
}

/// A name beside `dest` that no file has: `.NAME.PID.NANOS.part` (a file the user happens to
/// have called `NAME.part` is never touched).
fn unique_temporary(dest: &Path) -> PathBuf {
    let dir = dest.parent().unwrap_or(Path::new("."));
    let name = dest
        .file_name()
        .map_or_else(|| "workspace".into(), |n| n.to_string_lossy().into_owned());
    let mut n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    loop {
        let p = dir.join(format!(".{name}.{}.{n}.part", std::process::id()));
        if !p.exists() {
            return p;
        }
        n += 1;
    }
}

/// `p` with SQLite's suffix for a side file (`-wal`, `-shm`).
fn side_file(p: &Path, suffix: &str) -> PathBuf {
    let mut s = p.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

fn wal_path(p: &Path) -> PathBuf {
    side_file(p, "-wal")
}

/// Delete an SQLite database file and its WAL and shared-memory files, if present.
pub(crate) fn remove_database_files(p: &Path) {
    for f in [p.to_path_buf(), wal_path(p), side_file(p, "-shm")] {
        let _ = std::fs::remove_file(f);
    }
}

/// Now, as RFC 3339 UTC with milliseconds (how every timestamp is stored).
pub(crate) fn now_rfc3339() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

#[cfg(test)]
mod tests;
