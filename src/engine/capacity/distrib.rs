//! The distributed-crawl simulator's parts (ch. 6 Part A, [L1975–2126]): hosts hashed to
//! nodes, load per node over time, and hosts moved when a node joins (plain rehash vs the
//! book's two-level mapping). See the module doc of `engine::capacity`.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

/// The node counts of the book's load-balance and scalability experiments [L2051].
pub(crate) const BOOK_NODE_COUNTS: [usize; 4] = [2, 4, 8, 16];
/// The book's example number of logical nodes (virtual buckets) in the two-level mapping [L2120].
pub(crate) const DEFAULT_LOGICAL_BUCKETS: usize = 50_000;
/// Normalised variance of the book's 2:3 reference run (Table 6-3, [L2057–2070]). The book does
/// not give its formula (digest ambiguity A-9). With s_i = c_i / mean = (0.8, 1.2), it is
/// (1/n)·Σ(s_i − 1)² = 0.04, the same for every hour. Compare with
/// [`LoadReport::normalized_variance`].
pub(crate) const BOOK_REFERENCE_VARIANCE: f64 = 0.04;

/// Upper bound on time buckets in a [`LoadReport`], so a tiny `bucket_s` cannot exhaust memory.
pub(crate) const MAX_TIME_BUCKETS: usize = 1_000_000;

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The form in which a host is hashed and used as a key: surrounding whitespace removed, ASCII
/// lower-cased. The caller decides whether a port is part of the host. The book maps
/// `HOST(link)` [L2003] and says nothing more.
pub(crate) fn normalize_host(host: &str) -> String {
    host.trim().to_ascii_lowercase()
}

/// FNV-1a 64 over the bytes of [`normalize_host`].
pub(crate) fn fnv1a64(host: &str) -> u64 {
    host.trim().bytes().fold(FNV_OFFSET, |h, b| {
        (h ^ u64::from(b.to_ascii_lowercase())).wrapping_mul(FNV_PRIME)
    })
}

/// The host hash used for every mapping: [`fnv1a64`], then the MurmurHash3 64-bit finaliser.
/// The book gives only "hash mod n" of the host string [L2003], so this module picks one that is
/// stable on every run and platform. The finaliser matters because FNV-1a's value mod 2^k
/// depends only on the low k bits of each byte ("a.cn" and "q.cn" always share a node for
/// n = 16). The book's n = 2, 4, 8, 16 are all powers of two.
pub(crate) fn host_hash(host: &str) -> u64 {
    let mut h = fnv1a64(host);
    h = (h ^ (h >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    h = (h ^ (h >> 33)).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

fn check_nodes(n: usize) -> Result<(), String> {
    if n == 0 {
        return Err("the number of nodes must be at least 1".to_string());
    }
    Ok(())
}

/// Scheme 1: node = `host_hash(host) mod n` [L1991], [L2003]. Keys are normalised hosts
/// ([`normalize_host`]).
pub fn assign_mod<S: AsRef<str>>(hosts: &[S], n: usize) -> Result<HashMap<String, usize>, String> {
    check_nodes(n)?;
    Ok(hosts
        .iter()
        .map(|h| {
            (
                normalize_host(h.as_ref()),
                (host_hash(h.as_ref()) % n as u64) as usize,
            )
        })
        .collect())
}

/// Fetches per node over time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoadReport {
    pub nodes: usize,
    pub bucket_s: f64,
    /// `buckets[t][i]` = fetches by node i in [t·bucket_s, (t+1)·bucket_s).
    pub buckets: Vec<Vec<u64>>,
    /// Fetches per node over the whole log.
    pub totals: Vec<u64>,
    /// Mean, population variance and standard deviation of `totals`.
    pub mean: f64,
    pub variance: f64,
    pub std_dev: f64,
    /// max(totals) / mean: 1 = perfect balance. It is 1 when the log is empty.
    pub max_over_mean: f64,
    /// For each bucket t, the book's cumulative view (Table 6-3 counts pages obtained *in t
    /// hours* [L2057]) normalised by the mean: (1/n)·Σ_i (c_{i,t}/mean_t − 1)². This
    /// reconstructs the curves of Fig 6-5 [L2063] (ambiguity A-9); compare with
    /// [`BOOK_REFERENCE_VARIANCE`].
    pub normalized_variance: Vec<f64>,
}

/// Mean, population variance and max/mean of counts (0, 0, 1 when there is nothing).
fn stats(counts: &[u64]) -> (f64, f64, f64) {
    if counts.is_empty() {
        return (0.0, 0.0, 1.0);
    }
    let n = counts.len() as f64;
    let mean = counts.iter().sum::<u64>() as f64 / n;
    let var = counts
        .iter()
        .map(|&c| (c as f64 - mean).powi(2))
        .sum::<f64>()
        / n;
    let max = counts.iter().copied().max().unwrap_or(0) as f64;
    let mom = if mean > 0.0 { max / mean } else { 1.0 };
    (mean, var, mom)
}

/// Counts every fetch of `log` for the node its host is assigned to, in time buckets of
/// `bucket_s` seconds (the book uses hours over the first 10 hours [L2055]). Every host of the
/// log must be in `assignment`, and every node must be below `n`.
pub fn load_over_time(
    log: &[(f64, String)],
    assignment: &HashMap<String, usize>,
    n: usize,
    bucket_s: f64,
) -> Result<LoadReport, String> {
    check_nodes(n)?;
    if !bucket_s.is_finite() || bucket_s <= 0.0 {
        return Err(format!(
            "bucket_s must be a positive number (got {bucket_s})"
        ));
    }
    let mut buckets: Vec<Vec<u64>> = Vec::new();
    let mut totals = vec![0u64; n];
    for (t, host) in log {
        if !t.is_finite() || *t < 0.0 {
            return Err(format!("fetch time {t} of {host} must be ≥ 0 seconds"));
        }
        let key = normalize_host(host);
        let node = *assignment
            .get(&key)
            .ok_or_else(|| format!("host {key} has no node in the assignment"))?;
        if node >= n {
            return Err(format!("host {key} is on node {node}, but n = {n}"));
        }
        let b = (t / bucket_s).floor() as usize;
        if b >= MAX_TIME_BUCKETS {
            return Err(format!(
                "fetch time {t} needs over {MAX_TIME_BUCKETS} buckets of {bucket_s} s"
            ));
        }
        if b >= buckets.len() {
            buckets.resize(b + 1, vec![0; n]);
        }
        buckets[b][node] += 1;
        totals[node] += 1;
    }
    let mut cumulative = vec![0u64; n];
    let normalized_variance = buckets
        .iter()
        .map(|row| {
            cumulative.iter_mut().zip(row).for_each(|(c, r)| *c += r);
            let (mean, var, _) = stats(&cumulative);
            if mean > 0.0 { var / (mean * mean) } else { 0.0 }
        })
        .collect();
    let (mean, variance, max_over_mean) = stats(&totals);
    Ok(LoadReport {
        nodes: n,
        bucket_s,
        buckets,
        totals,
        mean,
        variance,
        std_dev: variance.sqrt(),
        max_over_mean,
        normalized_variance,
    })
}

/// Distinct normalised hosts of a log with their fetch counts, in a stable order.
pub(crate) fn host_fetches(log: &[(f64, String)]) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for (_, h) in log {
        *m.entry(normalize_host(h)).or_insert(0) += 1;
    }
    m
}

/// The book's experiment [L2051–2073]: [`assign_mod`] and [`load_over_time`] for each of
/// [`BOOK_NODE_COUNTS`].
pub(crate) fn load_study(log: &[(f64, String)], bucket_s: f64) -> Result<Vec<LoadReport>, String> {
    let hosts: Vec<String> = host_fetches(log).into_keys().collect();
    BOOK_NODE_COUNTS
        .iter()
        .map(|&n| load_over_time(log, &assign_mod(&hosts, n)?, n, bucket_s))
        .collect()
}

/// How hosts are mapped to nodes when the membership changes [L2101–2103].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mapping {
    /// Scheme 1: `hash mod n` becomes `hash mod (n+1)` [L2107–2111].
    Rehash,
    /// Scheme 3 (Fig 6-8): hosts map to `buckets` logical nodes by hash, and logical nodes map to
    /// physical nodes through the table A ([`PartitionTable`]) [L2120–2124].
    TwoLevel { buckets: usize },
}

impl Mapping {
    /// The two-level mapping with the book's 50,000 logical nodes [L2120].
    pub const fn two_level() -> Self {
        Mapping::TwoLevel {
            buckets: DEFAULT_LOGICAL_BUCKETS,
        }
    }
}

/// The book's array A (Fig 6-8, [L2120–2124]): index = logical node (virtual bucket), value =
/// physical node. Hosts are hashed to a bucket with [`host_hash`] mod `buckets`. The book's
/// [L2103] says "URL", but the design needs host locality, so this hashes the host (digest A-11).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct PartitionTable {
    owners: Vec<usize>,
    nodes: usize,
}

impl PartitionTable {
    /// Contiguous equal ranges, as in the book's example (logical 1–5,000 → node 1, …, [L2120]).
    /// Bucket k goes to node ⌊k·n / buckets⌋.
    pub fn new(buckets: usize, nodes: usize) -> Result<Self, String> {
        check_nodes(nodes)?;
        if buckets < nodes {
            return Err(format!("{buckets} buckets cannot cover {nodes} nodes"));
        }
        let owners = (0..buckets).map(|k| k * nodes / buckets).collect();
        Ok(PartitionTable { owners, nodes })
    }

    #[cfg(test)]
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    #[cfg(test)]
    /// The table A itself: `owners()[bucket]` = node.
    pub(crate) fn owners(&self) -> &[usize] {
        &self.owners
    }

    pub(crate) fn bucket_of(&self, host: &str) -> usize {
        (host_hash(host) % self.owners.len() as u64) as usize
    }

    pub(crate) fn owner(&self, host: &str) -> usize {
        self.owners[self.bucket_of(host)]
    }

    /// Buckets per node.
    pub fn counts(&self) -> Vec<usize> {
        let mut c = vec![0; self.nodes];
        self.owners.iter().for_each(|&o| c[o] += 1);
        c
    }

    /// n → n+1 (Fig 6-8 b, [L2122]). Each existing node gives up part of its buckets, and the
    /// new node (id n) takes ⌊buckets/(n+1)⌋ of them. That is the fewest moves that keep every
    /// node within one bucket of the others. One bucket at a time is taken from the node that
    /// currently has the most (ties: lowest id). A donor gives its highest-numbered buckets; the
    /// book does not say which ones. Returns the buckets that moved, in ascending order.
    pub(crate) fn add_node(&mut self) -> Result<Vec<usize>, String> {
        let n = self.nodes;
        if n + 1 > self.owners.len() {
            let b = self.owners.len();
            return Err(format!("{b} buckets cannot cover {} nodes", n + 1));
        }
        let mut counts = self.counts();
        let mut give = vec![0usize; n];
        for _ in 0..self.owners.len() / (n + 1) {
            let donor = (0..n).fold(0, |best, j| if counts[j] > counts[best] { j } else { best });
            counts[donor] -= 1;
            give[donor] += 1;
        }
        let mut moved = Vec::new();
        for k in (0..self.owners.len()).rev() {
            let o = self.owners[k];
            if give[o] > 0 {
                give[o] -= 1;
                self.owners[k] = n;
                moved.push(k);
            }
        }
        self.nodes = n + 1;
        moved.reverse();
        Ok(moved)
    }
}

/// What moves when a node joins.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveReport {
    pub scheme: Mapping,
    pub from_nodes: usize,
    pub to_nodes: usize,
    pub moved_hosts: usize,
    pub total_hosts: usize,
    /// moved_hosts / total_hosts (0 for an empty log).
    pub fraction: f64,
    pub moved_fetches: u64,
    pub total_fetches: u64,
    /// Share of the log's fetches whose host moved (0 for an empty log).
    pub moved_load: f64,
    /// What theory predicts for many hosts: n/(n+1) for rehash [L2107–2111], and moved
    /// buckets / buckets ≈ 1/(n+1) for the two-level mapping.
    pub expected_fraction: f64,
    /// Logical buckets reassigned (two-level only).
    pub moved_buckets: Option<usize>,
}

/// Hosts (from the log's fetches) that change node when going from `n` to `n+1` nodes under
/// `scheme`. The two-level table starts from [`PartitionTable::new`] with `n` nodes.
pub fn moved_on_add(
    log: &[(f64, String)],
    n: usize,
    scheme: Mapping,
) -> Result<MoveReport, String> {
    check_nodes(n)?;
    let hosts = host_fetches(log);
    type Moves = Box<dyn Fn(&str) -> bool>;
    let (moves, expected, moved_buckets): (Moves, f64, Option<usize>) = match scheme {
        Mapping::Rehash => {
            let (a, b) = (n as u64, n as u64 + 1);
            let f = move |h: &str| host_hash(h) % a != host_hash(h) % b;
            (Box::new(f), n as f64 / (n as f64 + 1.0), None)
        }
        Mapping::TwoLevel { buckets } => {
            let mut table = PartitionTable::new(buckets, n)?;
            let before = table.clone();
            let moved = table.add_node()?.len();
            let f = move |h: &str| before.owner(h) != table.owner(h);
            (Box::new(f), moved as f64 / buckets as f64, Some(moved))
        }
    };
    let (mut moved_hosts, mut moved_fetches) = (0, 0);
    for (h, &c) in &hosts {
        if moves(h) {
            moved_hosts += 1;
            moved_fetches += c;
        }
    }
    let total_fetches = log.len() as u64;
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    Ok(MoveReport {
        scheme,
        from_nodes: n,
        to_nodes: n + 1,
        moved_hosts,
        total_hosts: hosts.len(),
        fraction: ratio(moved_hosts as f64, hosts.len() as f64),
        moved_fetches,
        total_fetches,
        moved_load: ratio(moved_fetches as f64, total_fetches as f64),
        expected_fraction: expected,
        moved_buckets,
    })
}
