//! Which allocator serves a request? Small blocks come from mimalloc, large ones from the
//! system's malloc.
//!
//! Cleaning a page (chapter 7's DocView [L2298]) or recording a crawled URL (chapter 3)
//! allocates thousands of short-lived strings and vectors; glibc's malloc spent about 12 % of a
//! DocView run in its own bookkeeping (`_int_malloc`, `_int_free`, `malloc_consolidate`).
//! With mimalloc's thread-local free lists a release build cleans ccwe pages 4–8 % faster (the
//! body alone 12–17 %, the sample web about 20 %) and crawls about 9 % faster.
//! Large blocks are another matter: the query-log statistics grow columns of hundreds of
//! megabytes, and glibc grows a mapped block in place (`mremap`) where mimalloc copies it into a
//! new one, holding both for a moment — 4.2 GB instead of 3.6 GB at 100 M lines, over issue 30's
//! 4 GB. So a block of [`LARGE`] bytes or more goes to the system allocator, which maps it on its
//! own, and everything smaller to mimalloc.
//!
//! The route is decided by the size alone, and `GlobalAlloc` hands `dealloc` and `realloc` the
//! layout the block was allocated with, so a block is always freed by the allocator that made
//! it; a `realloc` across the line allocates in the other one, copies and frees.
//!
//! ```
//! use std::alloc::{GlobalAlloc, Layout};
//! use tianwang::engine::alloc::Split;
//! let layout = Layout::from_size_align(100, 8).unwrap();
//! unsafe {
//!     let p = Split.alloc(layout);
//!     assert!(!p.is_null());
//!     Split.dealloc(p, layout);
//! }
//! ```

use std::alloc::{GlobalAlloc, Layout, System};

use mimalloc::MiMalloc;

/// Blocks of this many bytes or more come from the system allocator (glibc maps blocks from
/// 128 KiB on by default, and grows them with `mremap`).
pub const LARGE: usize = 128 * 1024;

/// The process allocator of the `tianwang` binary (see the module doc).
pub struct Split;

#[inline(always)]
fn large(size: usize) -> bool {
    size >= LARGE
}

// SAFETY: every method forwards to the allocator chosen by the block's size, which is the same
// for the allocation and its release (GlobalAlloc passes the allocation's layout to both), and
// a move across the line copies the smaller of the two sizes before freeing the old block.
unsafe impl GlobalAlloc for Split {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout contract is passed on unchanged.
        unsafe {
            if large(layout.size()) {
                System.alloc(layout)
            } else {
                MiMalloc.alloc(layout)
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        unsafe {
            if large(layout.size()) {
                System.alloc_zeroed(layout)
            } else {
                MiMalloc.alloc_zeroed(layout)
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `layout` is the one `ptr` was allocated with, so its size picks the same
        // allocator `alloc` picked.
        unsafe {
            if large(layout.size()) {
                System.dealloc(ptr, layout)
            } else {
                MiMalloc.dealloc(ptr, layout)
            }
        }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the same allocator on both sides keeps its own realloc; across the line the
        // new block is a fresh allocation of the new layout (size non-zero and not overflowing
        // when rounded, as the caller guarantees), the copy stays inside both blocks, and the
        // old block is freed with its own layout.
        unsafe {
            match (large(layout.size()), large(new_size)) {
                (false, false) => MiMalloc.realloc(ptr, layout, new_size),
                (true, true) => System.realloc(ptr, layout, new_size),
                _ => {
                    let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
                    let moved = self.alloc(new_layout);
                    if !moved.is_null() {
                        std::ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size));
                        self.dealloc(ptr, layout);
                    }
                    moved
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fills `n` bytes at `p` with a pattern that depends on the offset.
    unsafe fn fill(p: *mut u8, n: usize) {
        for i in 0..n {
            unsafe { *p.add(i) = (i % 251) as u8 };
        }
    }

    unsafe fn holds_pattern(p: *const u8, n: usize) -> bool {
        (0..n).all(|i| unsafe { *p.add(i) } == (i % 251) as u8)
    }

    #[test]
    fn blocks_keep_their_bytes_across_every_route() {
        // Small → small, small → large, large → large, large → small, at two alignments.
        let sizes = [24, 4_000, LARGE - 1, LARGE, 3 * LARGE, 1_000, 40];
        for align in [8, 64] {
            unsafe {
                let mut layout = Layout::from_size_align(sizes[0], align).unwrap();
                let mut p = Split.alloc(layout);
                assert!(!p.is_null());
                fill(p, layout.size());
                for &next in &sizes[1..] {
                    let kept = layout.size().min(next);
                    p = Split.realloc(p, layout, next);
                    assert!(!p.is_null());
                    assert_eq!(
                        p as usize % align,
                        0,
                        "alignment {align} kept at {next} bytes"
                    );
                    assert!(holds_pattern(p, kept), "{} → {next} bytes", layout.size());
                    layout = Layout::from_size_align(next, align).unwrap();
                    fill(p, next);
                }
                Split.dealloc(p, layout);
            }
        }
    }

    #[test]
    fn zeroed_blocks_are_zero_on_both_sides_of_the_line() {
        for size in [64, LARGE + 8] {
            let layout = Layout::from_size_align(size, 16).unwrap();
            unsafe {
                let p = Split.alloc_zeroed(layout);
                assert!(!p.is_null());
                assert!((0..size).all(|i| *p.add(i) == 0), "{size} bytes");
                Split.dealloc(p, layout);
            }
        }
    }

    #[test]
    fn the_route_is_the_size() {
        assert!(!large(LARGE - 1));
        assert!(large(LARGE));
    }
}
