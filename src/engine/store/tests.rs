use super::*;

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("tempdir")
}

#[test]
fn migrations_are_valid() {
    migrations().validate().expect("valid migrations");
}

#[test]
fn create_then_reopen() {
    let d = tmp();
    let p = d.path().join("w.tianwang");
    let ws = Workspace::open_or_create(&p).unwrap();
    assert_eq!(ws.schema_version().unwrap(), latest_schema_version());
    let s = ws.summary().unwrap();
    assert_eq!((s.sites, s.pages, s.snapshots, s.jobs), (0, 0, 0, 0));
    assert!(s.created_at.is_some());
    drop(ws);
    assert_eq!(
        inspect(&p).unwrap(),
        FileKind::Sqlite {
            application_id: APPLICATION_ID
        }
    );
    let ws = Workspace::open_existing(&p).unwrap();
    let mode: String = ws
        .conn()
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let fk: i64 = ws
        .conn()
        .pragma_query_value(None, "foreign_keys", |r| r.get(0))
        .unwrap();
    assert_eq!(fk, 1);
}

/// A workspace written by every older build (each schema version) opens and is migrated.
#[test]
fn older_schemas_open_in_this_build() {
    for v in 1..latest_schema_version() as usize {
        let d = tmp();
        let p = d.path().join("old.tianwang");
        {
            let mut c = Connection::open(&p).unwrap();
            c.pragma_update(None, "application_id", APPLICATION_ID)
                .unwrap();
            migrations().to_version(&mut c, v).unwrap();
            c.execute(
                "INSERT INTO jobs(kind, params, status, started_at) VALUES ('calibrate','{}','done','2025-01-01T00:00:00.000Z')",
                [],
            )
            .unwrap();
        }
        let ws = Workspace::open_existing(&p).unwrap();
        assert_eq!(ws.schema_version().unwrap(), latest_schema_version());
        assert_eq!(ws.summary().unwrap().jobs, 1, "data kept across migration");
    }
}

fn assert_refused_unchanged(p: &Path, want: &str) {
    let before = std::fs::read(p).unwrap();
    let err = Workspace::open_or_create(p).unwrap_err();
    assert!(err.is_user_error(), "{err}");
    assert!(err.to_string().contains(want), "{err}");
    assert_eq!(std::fs::read(p).unwrap(), before, "file modified");
    assert!(!wal_path(p).exists());
}

#[test]
fn foreign_files_are_refused_and_left_alone() {
    let d = tmp();
    let text = d.path().join("notes.txt");
    std::fs::write(&text, "不是工作区 — just some text\n".repeat(20)).unwrap();
    assert_refused_unchanged(&text, "not an SQLite database");

    let empty = d.path().join("empty.tianwang");
    std::fs::write(&empty, b"").unwrap();
    assert_refused_unchanged(&empty, "empty");

    let other = d.path().join("other.sqlite");
    {
        let c = Connection::open(&other).unwrap();
        c.execute_batch("CREATE TABLE t(x); INSERT INTO t VALUES (1);")
            .unwrap();
    }
    assert_refused_unchanged(&other, "another application");

    let mut damaged = b"SQLite format 3\0".to_vec();
    damaged.extend(std::iter::repeat_n(0xABu8, 4096));
    damaged[68..72].copy_from_slice(&APPLICATION_ID.to_be_bytes());
    let bad = d.path().join("bad.tianwang");
    std::fs::write(&bad, &damaged).unwrap();
    assert_refused_unchanged(&bad, "not a Tianwang workspace");
}

#[test]
fn newer_schema_is_refused_untouched() {
    let d = tmp();
    let p = d.path().join("new.tianwang");
    drop(Workspace::open_or_create(&p).unwrap());
    {
        let c = Connection::open(&p).unwrap();
        c.pragma_update(None, "user_version", latest_schema_version() + 5)
            .unwrap();
        c.pragma_update(None, "journal_mode", "DELETE").unwrap();
    }
    let before = std::fs::read(&p).unwrap();
    let err = Workspace::open_existing(&p).unwrap_err();
    assert!(matches!(err, EngineError::TooNew { .. }), "{err}");
    assert_eq!(std::fs::read(&p).unwrap(), before);
}

#[test]
fn bad_paths_are_user_errors() {
    let d = tmp();
    let err = Workspace::open_or_create(&d.path().join("no/such/dir/w.tianwang")).unwrap_err();
    assert!(
        err.is_user_error() && err.to_string().contains("does not exist"),
        "{err}"
    );
    let err = Workspace::open_or_create(d.path()).unwrap_err();
    assert!(
        err.is_user_error() && err.to_string().contains("directory"),
        "{err}"
    );
}

#[test]
fn save_as_copies_everything_and_cancel_leaves_nothing() {
    let d = tmp();
    let p = d.path().join("a.tianwang");
    let ws = Workspace::open_or_create(&p).unwrap();
    ws.conn()
        .execute(
            "INSERT INTO jobs(kind, params, status, started_at) VALUES ('x','{}','done',?1)",
            [now_rfc3339()],
        )
        .unwrap();
    let dest = d.path().join("b.tianwang");
    let mut calls = 0;
    ws.save_as(&dest, |_, _| {
        calls += 1;
        true
    })
    .unwrap();
    assert!(calls >= 1);
    let copy = Workspace::open_existing(&dest).unwrap();
    assert_eq!(copy.summary().unwrap().jobs, 1);

    let dest2 = d.path().join("c.tianwang");
    // A file of the user's that happens to be called like the old temporary is left alone.
    std::fs::write(dest2.with_extension("part"), "mine").unwrap();
    let before: Vec<_> = std::fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    let err = ws.save_as(&dest2, |_, _| false).unwrap_err();
    assert!(matches!(err, EngineError::Cancelled));
    assert!(!dest2.exists());
    assert_eq!(
        std::fs::read_to_string(dest2.with_extension("part")).unwrap(),
        "mine"
    );
    let after: Vec<_> = std::fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        before.len(),
        after.len(),
        "no temporary left behind: {after:?}"
    );
    // Refuses to overwrite.
    assert!(ws.save_as(&dest, |_, _| true).unwrap_err().is_user_error());
}
