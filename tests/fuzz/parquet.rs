//! Fuzz target of Parquet read back (feature `bigjobs`): a pages file of the big jobs'
//! contract and an index build's documents file, mutated, read as the dedup and index labs
//! read them. A damaged file must be an error naming it, never a panic.

use tianwang::engine::dedup::on_engine::read_pages;
use tianwang::engine::index::on_engine::read::for_each_doc;

use super::{fuzz, scratch};

#[test]
fn fuzz_parquet_read_back() {
    // Seeds: the `fuzz/corpus/parquet/` files (written by an export) and these magic-only
    // shells.
    let seeds = vec![b"PAR1\0\0\0\0PAR1".to_vec()];
    fuzz("parquet", seeds, |b| {
        let Some((&sel, rest)) = b.split_first() else {
            return;
        };
        let path = scratch("parquet").join("f.parquet");
        std::fs::write(&path, rest).expect("write");
        if sel & 1 == 0 {
            let _ = read_pages(&path);
        } else {
            let _ = for_each_doc(&path, |_| Ok(()));
        }
    });
}
