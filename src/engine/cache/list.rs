//! Doubly linked queues threaded through arrays indexed by object id: the FIFO, LRU, CLOCK,
//! SIEVE, SLRU, 2Q, ARC and S3-FIFO queues without a pointer or a hash lookup per request.
//!
//! Object ids are dense (`0..distinct`, see [`super::trace`]), so each policy keeps one
//! [`Links`] (a `prev`/`next` pair per id) and any number of [`Queue`]s (head, tail, length,
//! units): an object is in at most one queue of a policy at a time. "Head" is the newest end
//! (libCacheSim's `q_head`), "tail" the oldest end, where eviction looks first.
//!
//! ```
//! use tianwang::engine::cache::list::{Links, Queue};
//! let (mut l, mut q) = (Links::default(), Queue::default());
//! for id in [3, 1, 2] { l.push_head(&mut q, id, 1); }
//! assert_eq!(q.tail, 3);
//! l.move_to_head(&mut q, 3);
//! assert_eq!(l.iter_from_tail(&q).collect::<Vec<_>>(), vec![1, 2, 3]);
//! ```

/// "No object": the end of a queue.
pub(crate) const NIL: u32 = u32::MAX;

/// One queue: its ends, its length and the units (1 per object, or bytes) it holds.
#[derive(Debug, Clone, Copy)]
pub struct Queue {
    pub head: u32,
    pub tail: u32,
    pub len: usize,
    pub units: u64,
}

impl Default for Queue {
    fn default() -> Self {
        Queue {
            head: NIL,
            tail: NIL,
            len: 0,
            units: 0,
        }
    }
}

impl Queue {
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The `prev`/`next` links of every object id, grown on demand.
#[derive(Debug, Clone, Default)]
pub struct Links {
    prev: Vec<u32>,
    next: Vec<u32>,
}

impl Links {
    #[inline]
    fn ensure(&mut self, id: u32) {
        let need = id as usize + 1;
        if self.prev.len() < need {
            let n = need.max(self.prev.len() * 2).max(64);
            self.prev.resize(n, NIL);
            self.next.resize(n, NIL);
        }
    }

    /// The object after `id` towards the head (newer), or [`NIL`].
    #[inline]
    pub(crate) fn newer(&self, id: u32) -> u32 {
        self.prev[id as usize]
    }

    /// Insert `id` (not in any queue) at the head of `q`, holding `units`.
    #[inline]
    pub fn push_head(&mut self, q: &mut Queue, id: u32, units: u64) {
        self.ensure(id);
        let i = id as usize;
        self.prev[i] = NIL;
        self.next[i] = q.head;
        if q.head != NIL {
            self.prev[q.head as usize] = id;
        } else {
            q.tail = id;
        }
        q.head = id;
        q.len += 1;
        q.units += units;
    }

    /// Unlink `id` from `q` (it must be in it), releasing `units`.
    #[inline]
    pub fn remove(&mut self, q: &mut Queue, id: u32, units: u64) {
        let i = id as usize;
        let (p, n) = (self.prev[i], self.next[i]);
        if p != NIL {
            self.next[p as usize] = n;
        } else {
            q.head = n;
        }
        if n != NIL {
            self.prev[n as usize] = p;
        } else {
            q.tail = p;
        }
        self.prev[i] = NIL;
        self.next[i] = NIL;
        q.len -= 1;
        q.units -= units;
    }

    /// Remove and return the tail of `q` (its oldest object), or `None` when empty.
    #[inline]
    pub(crate) fn pop_tail(&mut self, q: &mut Queue, units_of: impl Fn(u32) -> u64) -> Option<u32> {
        let t = q.tail;
        if t == NIL {
            return None;
        }
        self.remove(q, t, units_of(t));
        Some(t)
    }

    /// Move `id` (in `q`) to the head of `q`.
    #[inline]
    pub fn move_to_head(&mut self, q: &mut Queue, id: u32) {
        if q.head == id {
            return;
        }
        let units = q.units;
        self.remove(q, id, 0);
        self.push_head(q, id, 0);
        q.units = units;
    }

    /// The objects of `q` from the tail (oldest) to the head.
    pub fn iter_from_tail<'a>(&'a self, q: &Queue) -> impl Iterator<Item = u32> + 'a {
        let mut cur = q.tail;
        std::iter::from_fn(move || {
            if cur == NIL {
                return None;
            }
            let id = cur;
            cur = self.prev[id as usize];
            Some(id)
        })
    }

    #[cfg(test)]
    /// The objects of `q` from the head (newest) to the tail.
    pub(crate) fn iter_from_head<'a>(&'a self, q: &Queue) -> impl Iterator<Item = u32> + 'a {
        let mut cur = q.head;
        std::iter::from_fn(move || {
            if cur == NIL {
                return None;
            }
            let id = cur;
            cur = self.next[id as usize];
            Some(id)
        })
    }
}

/// Per-object small state (a tag, a counter, a stored size) in a vector grown on demand.
#[derive(Debug, Clone)]
pub(crate) struct Slots<T: Copy> {
    v: Vec<T>,
    fill: T,
}

impl<T: Copy> Slots<T> {
    pub fn new(fill: T) -> Self {
        Slots {
            v: Vec::new(),
            fill,
        }
    }

    #[inline]
    pub fn get(&self, id: u32) -> T {
        self.v.get(id as usize).copied().unwrap_or(self.fill)
    }

    #[inline]
    pub fn set(&mut self, id: u32, value: T) {
        let i = id as usize;
        if i >= self.v.len() {
            let n = (i + 1).max(self.v.len() * 2).max(64);
            self.v.resize(n, self.fill);
        }
        self.v[i] = value;
    }

    #[inline]
    pub(crate) fn get_mut(&mut self, id: u32) -> &mut T {
        let i = id as usize;
        if i >= self.v.len() {
            let n = (i + 1).max(self.v.len() * 2).max(64);
            self.v.resize(n, self.fill);
        }
        &mut self.v[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_remove_move_keep_ends_and_units() {
        let (mut l, mut q) = (Links::default(), Queue::default());
        for id in 0..5 {
            l.push_head(&mut q, id, 2);
        }
        assert_eq!((q.head, q.tail, q.len, q.units), (4, 0, 5, 10));
        l.remove(&mut q, 2, 2);
        l.move_to_head(&mut q, 0);
        assert_eq!(l.iter_from_head(&q).collect::<Vec<_>>(), vec![0, 4, 3, 1]);
        assert_eq!(l.pop_tail(&mut q, |_| 2), Some(1));
        assert_eq!((q.len, q.units), (3, 6));
        while l.pop_tail(&mut q, |_| 2).is_some() {}
        assert!(q.is_empty() && q.head == NIL && q.tail == NIL && q.units == 0);
    }
}
