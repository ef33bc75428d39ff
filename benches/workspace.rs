//! What the UI's background tasks pay to refresh the Overview and the Jobs panel: the workspace
//! summary and the experiment log, on a workspace with 10,000 logged runs.

use criterion::{Criterion, criterion_group, criterion_main};
use tianwang::engine::jobs::{JobFilter, list_jobs};
use tianwang::engine::store::Workspace;

fn populated() -> (tempfile::TempDir, std::path::PathBuf) {
    let d = tempfile::tempdir().expect("tempdir");
    let p = d.path().join("bench.tianwang");
    drop(Workspace::open_or_create(&p).expect("create"));
    let mut c = rusqlite::Connection::open(&p).expect("open");
    let tx = c.transaction().expect("tx");
    for i in 0..10_000 {
        tx.execute(
            "INSERT INTO jobs(kind, params, status, started_at, ended_at, result)
             VALUES ('calibrate', ?1, 'done', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:04.000Z', ?2)",
            (
                format!("{{\"seconds\":{}}}", 1 + i % 9),
                format!("{{\"md5_pages_per_s\":{i},\"sqlite_pages_per_s\":{}}}", i / 2),
            ),
        )
        .expect("insert");
    }
    tx.commit().expect("commit");
    (d, p)
}

fn bench(c: &mut Criterion) {
    let (_d, p) = populated();
    c.bench_function("open + summary (10k runs)", |b| {
        b.iter(|| {
            Workspace::open_existing(&p)
                .and_then(|w| w.summary())
                .expect("summary")
        })
    });
    let ws = Workspace::open_existing(&p).expect("open");
    c.bench_function("list_jobs 2,000 newest of 10k", |b| {
        b.iter(|| {
            list_jobs(
                &ws,
                &JobFilter {
                    limit: Some(2000),
                    ..Default::default()
                },
            )
            .expect("list")
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
