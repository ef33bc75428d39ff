//! The builder of [`super::NoHmm`]'s double-array trie: dense character codes, then every
//! node placed, the node with the most children first (first fit over a bitmap of used
//! slots), straight into the packed [`super::Node`]s the cutter reads.
//!
//! ```ignore
//! let code = char_codes(&entries);
//! let mut b = Builder::new(&flat, &ends, &score_of);
//! b.build();
//! ```

use super::Node;

/// Dense codes, 1-based, the character most used in the words first.
pub(super) fn char_codes(entries: &[(&str, usize)]) -> Box<[u16]> {
    let mut count: Vec<u32> = Vec::new();
    for c in entries.iter().flat_map(|e| e.0.chars()) {
        let c = c as usize;
        if c >= count.len() {
            count.resize(c + 1, 0);
        }
        count[c] += 1;
    }
    let mut used: Vec<usize> = (0..count.len()).filter(|&c| count[c] > 0).collect();
    used.sort_by_key(|&c| (std::cmp::Reverse(count[c]), c));
    let mut code = vec![0u16; count.len()].into_boxed_slice();
    for (k, &c) in used.iter().enumerate() {
        // 65,535 distinct characters at most; jieba's dictionary has 12,045.
        code[c] = u16::try_from(k + 1).unwrap_or(0);
    }
    code
}

/// Fan-out buckets of the builder's queue; the last holds every node with more children.
const BUCKETS: usize = 64;

/// A node whose slot is known and whose children wait for a base: its slot, its words
/// `lo..hi` (sharing their first `depth` codes) and its depth.
type Pending = (usize, usize, usize, usize);

/// Builds the double array. A node's children are placed once the node has its slot, the
/// node with the most children first (first fit over a bitmap of used slots, 64 candidate
/// bases a pass): big
/// fan-outs go in while the array is empty, the many single children fill the holes.
pub(super) struct Builder<'b> {
    /// Every word's codes, back to back, sorted by word.
    flat: &'b [u16],
    /// End of each word in `flat` (its start is the previous word's end).
    ends: &'b [usize],
    /// Each word's index into the table of distinct scores (never 0).
    score_of: &'b [u16],
    pub(super) slots: Vec<Node>,
    /// The largest base given to a node (checked against what a [`Node`] holds).
    pub(super) max_base: usize,
    /// Bit `i % 64` of word `i / 64`: slot `i` is in use; two words of padding.
    used: Vec<u64>,
    /// No free slot below this.
    first_free: usize,
    /// Nodes waiting for their children's base, by fan-out.
    queue: Vec<Vec<Pending>>,
    /// Where a search for several children starts (the last place one succeeded): the holes
    /// below it are left to single children, which come last. Searching them again and again
    /// made the build several times slower.
    cursor: usize,
    pub(super) words: usize,
}

impl<'b> Builder<'b> {
    pub(super) fn new(flat: &'b [u16], ends: &'b [usize], score_of: &'b [u16]) -> Self {
        let len = 1 << 16;
        Builder {
            flat,
            ends,
            score_of,
            slots: vec![Node::EMPTY; len],
            max_base: 0,
            used: vec![0; len / 64 + 2],
            first_free: 1,
            queue: vec![Vec::new(); BUCKETS],
            cursor: 1,
            words: 0,
        }
    }

    fn word(&self, k: usize) -> &[u16] {
        &self.flat[if k == 0 { 0 } else { self.ends[k - 1] }..self.ends[k]]
    }

    /// Place every node, the root's children at their own codes.
    pub(super) fn build(&mut self) {
        self.slots[0].set_check(Node::FREE - 1);
        self.used[0] = 1;
        self.enter(0, 0, self.ends.len(), 0);
        let (mut kids, mut top) = (Vec::new(), BUCKETS - 1);
        loop {
            while top > 0 && self.queue[top].is_empty() {
                top -= 1;
            }
            let Some((s, lo, hi, depth)) = self.queue[top].pop() else {
                break;
            };
            self.kids(lo, hi, depth, &mut kids);
            let base = if s == 0 { 0 } else { self.find_base(&kids) };
            self.max_base = self.max_base.max(base);
            self.slots[s].set_base(base);
            for &(c, _, _) in &kids {
                let t = base + usize::from(c);
                // Truncated past 24 bits; `NoHmm::from_dict` refuses such a trie.
                self.slots[t].set_check(s as u32);
                self.used[t / 64] |= 1 << (t % 64);
            }
            self.first_free = self.next_free(self.first_free);
            for &(c, a, b) in &kids {
                let bucket = self.enter(base + usize::from(c), a, b, depth + 1);
                top = top.max(bucket);
            }
        }
        self.slots[0].set_check(Node::FREE);
    }

    /// The node at slot `s` with words `lo..hi`: its own word, if any, and into the queue if
    /// it has children. Returns its bucket (0: none).
    fn enter(&mut self, s: usize, mut lo: usize, hi: usize, depth: usize) -> usize {
        while lo < hi && self.word(lo).len() == depth {
            if depth > 0 {
                self.words += usize::from(self.slots[s].lp_index() == 0);
                self.slots[s].set_lp_index(self.score_of[lo]);
            }
            lo += 1;
        }
        let mut fan_out = 0;
        let mut k = lo;
        while k < hi {
            let c = self.word(k)[depth];
            fan_out += 1;
            k += 1;
            while k < hi && self.word(k)[depth] == c {
                k += 1;
            }
        }
        let bucket = fan_out.min(BUCKETS - 1);
        if bucket > 0 {
            self.queue[bucket].push((s, lo, hi, depth));
        }
        bucket
    }

    /// The children of words `lo..hi` at `depth`: (code, first word, past last word).
    fn kids(&self, lo: usize, hi: usize, depth: usize, out: &mut Vec<(u16, usize, usize)>) {
        out.clear();
        let mut k = lo;
        while k < hi {
            if self.word(k).len() == depth {
                k += 1;
                continue;
            }
            let c = self.word(k)[depth];
            let mut j = k + 1;
            while j < hi && self.word(j)[depth] == c {
                j += 1;
            }
            out.push((c, k, j));
            k = j;
        }
    }

    /// The lowest free slot ≥ `i`.
    fn next_free(&mut self, i: usize) -> usize {
        self.reserve(i);
        let mut w = i / 64;
        let mut bits = self.used[w] | ((1u64 << (i % 64)) - 1);
        while bits == u64::MAX {
            w += 1;
            self.reserve(w * 64);
            bits = self.used[w];
        }
        w * 64 + bits.trailing_ones() as usize
    }

    /// Which of the 64 slots from `i` are free (bit `k`: slot `i + k`).
    #[inline(always)]
    fn free_run(&self, i: usize) -> u64 {
        let (w, s) = (i / 64, i % 64);
        let high = if s == 0 {
            0
        } else {
            self.used[w + 1] << (64 - s)
        };
        !(self.used[w] >> s | high)
    }

    /// Room for slot `i` and the 64 after it.
    fn reserve(&mut self, i: usize) {
        if i + 64 >= self.slots.len() {
            let len = (self.slots.len() * 2).max(i + 65).next_multiple_of(64);
            self.slots.resize(len, Node::EMPTY);
            self.used.resize(len / 64 + 2, 0);
        }
    }

    /// The lowest base ≥ 1 at which every child finds a free slot: for a single child the
    /// lowest free slot, for several the lowest from where the last several went.
    fn find_base(&mut self, kids: &[(u16, usize, usize)]) -> usize {
        let lowest = kids.iter().map(|k| usize::from(k.0)).min().unwrap_or(1);
        let highest = kids.iter().map(|k| usize::from(k.0)).max().unwrap_or(1);
        if kids.len() == 1 {
            let p = self.next_free(self.first_free.max(lowest + 1));
            self.reserve(p);
            return p - lowest;
        }
        let mut base = self.cursor.max(lowest + 1) - lowest;
        loop {
            self.reserve(base + highest);
            let mut fit = u64::MAX;
            for k in kids {
                fit &= self.free_run(base + usize::from(k.0));
                if fit == 0 {
                    break;
                }
            }
            if fit != 0 {
                let base = base + fit.trailing_zeros() as usize;
                self.cursor = base + lowest;
                return base;
            }
            base += 64;
        }
    }
}
