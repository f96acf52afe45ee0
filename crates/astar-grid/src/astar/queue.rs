//! Bucket queues keyed by F, for the small integer keys of grid A*.

#[cfg(target_arch = "x86_64")]
mod wide;

/// The open list as the search loop sees it: entries `(f, key)` pop by `f`, then by `key`.
pub(crate) trait OpenList: Default {
    /// Empties the list and queues the first entry.
    fn start(&mut self, f: u32, key: u64);
    /// Queues an entry.
    fn push(&mut self, f: u32, key: u64);
    /// Removes an entry with the smallest `f`: among those the smallest key, except in
    /// [`LifoRing`] and `BucketQueue<true>`, which hand out the last one queued, and
    /// [`FifoQueue`], which hands out the first. The key
    /// handed out holds at least the cell, in its low 32 bits (a ring of `u32` keys and
    /// [`LifoRing`] drop H, which the search does not read back).
    ///
    /// `live(f, key)` tells whether an entry still matters; entries that are not may be
    /// dropped unseen (they are when a bucket of at least [`FILTER_MIN`] is sorted, so that
    /// dead entries cost no sorting and their cells are looked up together rather than one
    /// per pop). An entry once dead must stay dead.
    fn pop(&mut self, live: impl Fn(u32, u64) -> bool) -> Option<(u32, u64)>;
}

/// A bucket's key as it is stored and sorted: the search's `h << 32 | cell` as a [`u64`], or
/// packed into a [`u32`] as `h << shift | cell` where the map's cells fit in `shift` bits and
/// its largest H in the rest ([`narrow_shift`]), half the memory and twice the keys a
/// register sorts. Both compare as the search's key does.
pub(crate) trait Key: Copy + Ord + Default + std::fmt::Debug {
    /// The stored form of the search's key `h << 32 | cell`.
    fn pack(key: u64, shift: u32) -> Self;
    /// The search's key as a pop hands it out: the cell in the low 32 bits (the narrow key
    /// drops H, which the search does not read back).
    fn unpack(self, shift: u32) -> u64;
    /// The key's H.
    fn h(self, shift: u32) -> u32;
    /// Sorts `keys` descending in vector registers and returns true, if the processor has
    /// them and `keys` are neither too few nor too many for them; otherwise returns false.
    #[cfg(target_arch = "x86_64")]
    fn sort_wide(keys: &mut [Self]) -> bool;
}

impl Key for u64 {
    #[inline(always)]
    fn pack(key: u64, _: u32) -> Self {
        key
    }

    #[inline(always)]
    fn unpack(self, _: u32) -> u64 {
        self
    }

    #[inline(always)]
    fn h(self, _: u32) -> u32 {
        (self >> 32) as u32
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn sort_wide(keys: &mut [Self]) -> bool {
        (WIDE_MIN..=wide::w64::WIDE_MAX).contains(&keys.len()) && wide::w64::sort(keys)
    }
}

impl Key for u32 {
    #[inline(always)]
    fn pack(key: u64, shift: u32) -> Self {
        debug_assert!(
            key >> 32 >> (32 - shift) == 0 && (key as u32) >> shift == 0,
            "H or the cell overflows its bits"
        );
        ((key >> 32) as u32) << shift | key as u32
    }

    #[inline(always)]
    fn unpack(self, shift: u32) -> u64 {
        u64::from(self & ((1 << shift) - 1))
    }

    #[inline(always)]
    fn h(self, shift: u32) -> u32 {
        self >> shift
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn sort_wide(keys: &mut [Self]) -> bool {
        (WIDE_MIN_32..=wide::w32::WIDE_MAX).contains(&keys.len()) && wide::w32::sort(keys)
    }
}

/// The `shift` of [`u32`] keys for a board of `cells` cells whose estimates stay at most
/// `max_h`, if both fit in 32 bits.
pub(crate) fn narrow_shift(cells: usize, max_h: u32) -> Option<u32> {
    let shift = usize::BITS - cells.saturating_sub(1).leading_zeros();
    let h_bits = u32::BITS - max_h.leading_zeros();
    (shift + h_bits <= 32 && shift < 32).then_some(shift)
}

/// A min-priority queue of `(f, key)` pairs: buckets by `f` in a growable ring, each bucket a
/// plain `Vec` of keys, so that ties on `f` pop in `key` order (or, with `LIFO`, last in,
/// first out, and with `FIFO` first in, first out; neither ever sorts a bucket).
///
/// Only the bucket being popped is kept sorted (descending, minimum last): a bucket is sorted
/// once when it becomes the minimum, and keys pushed into it afterwards are almost always
/// smaller than all it holds (a child with the same F has a larger G, so a smaller H), so
/// they go on the end. That replaces a heap's log-time sift on every push and pop. How a
/// bucket is sorted (vector registers for most, scalar sorts for the rest) is
/// [`Sorter::sort`]'s.
///
/// Octile, Chebyshev or zero at weight exactly 1 use the leaner [`RingQueue`] (or, under
/// `Ties::Lifo`, [`LifoRing`]); everything
/// else this queue: Manhattan and Euclidean (not consistent on 8-way grids) and any other
/// weight, whose F can spread far and, above weight 1 or with those heuristics, even fall
/// below the minimum, so the ring grows to fit (and keeps its capacity for later searches).
#[derive(Debug, Clone)]
pub(crate) struct BucketQueue<const LIFO: bool, const FIFO: bool = false> {
    buckets: Vec<Vec<u64>>,
    lo: u32,
    hi: u32,
    len: usize,
    /// The `f` whose bucket is sorted descending, or [`NONE`].
    sorted: u32,
    /// Sorts the buckets.
    sorter: Sorter<u64>,
    /// Under `FIFO`, the keys of the bucket of `lo` already handed out: popping from the
    /// front of a `Vec` would shift the rest, so the bucket is cleared once it is used up.
    head: usize,
}

/// The bucket queue whose ties on `f` pop first in, first out (`Ties::Fifo`): the entry of
/// equal F queued first goes first.
pub(crate) type FifoQueue = BucketQueue<false, true>;

/// No bucket is sorted: larger than any `f` pushed (G and weighted H both stay below `2^31`).
const NONE: u32 = u32::MAX;

impl<const LIFO: bool, const FIFO: bool> Default for BucketQueue<LIFO, FIFO> {
    fn default() -> Self {
        Self {
            buckets: Vec::new(),
            lo: 0,
            hi: 0,
            len: 0,
            sorted: NONE,
            sorter: Sorter::default(),
            head: 0,
        }
    }
}

impl<const LIFO: bool, const FIFO: bool> OpenList for BucketQueue<LIFO, FIFO> {
    fn start(&mut self, f: u32, key: u64) {
        self.clear();
        self.push(f, key);
    }

    #[inline(always)]
    fn push(&mut self, f: u32, key: u64) {
        if self.len == 0 {
            if self.buckets.is_empty() {
                self.grow(64);
            }
            self.lo = f;
            self.hi = f;
        } else if f < self.lo {
            if FIFO && self.head > 0 {
                // The bucket of `lo` stops being the one popped: its used keys go now.
                let mask = self.buckets.len() - 1;
                self.buckets[self.lo as usize & mask].drain(..self.head);
                self.head = 0;
            }
            self.ensure_span(self.hi - f);
            self.lo = f;
        } else if f > self.hi {
            self.ensure_span(f - self.lo);
            self.hi = f;
        }
        let mask = self.buckets.len() - 1;
        let bucket = &mut self.buckets[f as usize & mask];
        if !LIFO && !FIFO && self.sorted == f {
            let mut i = bucket.len();
            while i > 0 && bucket[i - 1] < key {
                i -= 1;
            }
            bucket.insert(i, key);
        } else {
            bucket.push(key);
        }
        self.len += 1;
    }

    /// Each bucket drops its dead entries as it is sorted, on becoming the minimum; under
    /// `LIFO` and `FIFO` dead entries are popped like live ones, for the search loop to skip.
    #[inline(always)]
    fn pop(&mut self, live: impl Fn(u32, u64) -> bool) -> Option<(u32, u64)> {
        if self.len == 0 {
            return None;
        }
        let mask = self.buckets.len() - 1;
        if FIFO {
            loop {
                let bucket = &mut self.buckets[self.lo as usize & mask];
                if let Some(&key) = bucket.get(self.head) {
                    self.head += 1;
                    self.len -= 1;
                    if self.head == bucket.len() {
                        bucket.clear();
                        self.head = 0;
                    }
                    return Some((self.lo, key));
                }
                self.lo += 1;
            }
        }
        if LIFO {
            loop {
                if let Some(key) = self.buckets[self.lo as usize & mask].pop() {
                    self.len -= 1;
                    return Some((self.lo, key));
                }
                self.lo += 1;
            }
        }
        loop {
            let bucket = &mut self.buckets[self.lo as usize & mask];
            if self.sorted == self.lo {
                if let Some(key) = bucket.pop() {
                    self.len -= 1;
                    return Some((self.lo, key));
                }
            } else if !bucket.is_empty() {
                let before = bucket.len();
                let kept = filter_and_sort(bucket, 32, self.lo, &live, &mut self.sorter);
                bucket.truncate(kept);
                self.len -= before - kept;
                self.sorted = self.lo;
                if self.len == 0 {
                    return None;
                }
                continue;
            }
            self.lo += 1;
        }
    }
}

impl<const LIFO: bool, const FIFO: bool> BucketQueue<LIFO, FIFO> {
    /// Removes every entry, keeping the allocations.
    pub(crate) fn clear(&mut self) {
        if self.len > 0 {
            let mask = self.buckets.len() - 1;
            for f in self.lo..=self.hi {
                self.buckets[f as usize & mask].clear();
            }
        }
        self.len = 0;
        self.head = 0;
        self.sorted = NONE;
        self.sorter.keys = 0;
    }

    /// Number of queued entries (stale ones included).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    fn ensure_span(&mut self, span: u32) {
        if span as usize >= self.buckets.len() {
            self.grow(span as usize + 1);
        }
    }

    fn grow(&mut self, need: usize) {
        let cap = need.next_power_of_two().max(self.buckets.len() * 2).max(64);
        let mut buckets: Vec<Vec<u64>> = std::iter::repeat_with(Vec::new).take(cap).collect();
        if self.len > 0 {
            let old_mask = self.buckets.len() - 1;
            for f in self.lo..=self.hi {
                buckets[f as usize & (cap - 1)] =
                    std::mem::take(&mut self.buckets[f as usize & old_mask]);
            }
        }
        self.buckets = buckets;
    }
}

/// Buckets in a [`RingQueue`]: one per even F, more than the widest span of F a consistent
/// search queues.
const RING: usize = 16;

/// Octile, Chebyshev or zero at weight exactly 1 use the ring; everything else the
/// [`BucketQueue`]. Those heuristics are consistent and even (as are the step costs), so
/// every F pushed is even and lies within 28 of the F being expanded (a step costs at most 14
/// and changes H by at most as much): a fixed ring of 16 buckets, one per even F, holds them
/// all.
///
/// A bucket is sorted descending (minimum last) when it becomes the minimum, and popped from
/// its end. Keys pushed into it afterwards are children of the node just popped with its F,
/// so a larger G and a smaller H than anything left in the bucket: they go on the end in
/// order, and pushes never search. With these heuristics a node has at most two such
/// children, a straight step and then a diagonal one whose H is 4 lower, so even they arrive
/// in order.
///
/// Keys are [`Key`]s: `u64`, or `u32` where [`narrow_shift`] finds them room (every map up to
/// 512x512, so every Moving AI map here), which halves the memory a bucket takes and doubles
/// the keys a vector register sorts.
#[derive(Debug, Clone, Default)]
pub(crate) struct RingQueue<K> {
    buckets: [Bucket<K>; RING],
    /// The smallest F that may still be queued; its bucket is sorted.
    lo: u32,
    /// Where H begins in a `u32` key (see [`Key`]); unused for `u64`.
    shift: u32,
    /// Sorts the buckets.
    sorter: Sorter<K>,
}

impl RingQueue<u32> {
    /// Packs keys for a board whose cells fit in `shift` bits (see [`narrow_shift`]).
    pub(crate) fn set_shift(&mut self, shift: u32) {
        self.shift = shift;
    }
}

/// The keys of one F: `slots[..len]`. Every slot is initialized, so that the bounds check of
/// a push is also its test for room.
#[derive(Debug, Clone, Default)]
struct Bucket<K> {
    slots: Box<[K]>,
    len: usize,
}

impl<K: Key> OpenList for RingQueue<K> {
    fn start(&mut self, f: u32, key: u64) {
        self.lo = restart(&mut self.buckets, f);
        self.sorter.keys = 0;
        self.push(f, key);
    }

    #[inline(always)]
    fn push(&mut self, f: u32, key: u64) {
        let key = K::pack(key, self.shift);
        let bucket = &mut self.buckets[ring_slot(self.lo, f)];
        debug_assert!(
            f != self.lo || bucket.len == 0 || bucket.slots[bucket.len - 1] > key,
            "a child keeping its parent's F is pushed in order"
        );
        bucket.push(key);
    }

    #[inline(always)]
    fn pop(&mut self, live: impl Fn(u32, u64) -> bool) -> Option<(u32, u64)> {
        let shift = self.shift;
        let bucket = &mut self.buckets[(self.lo as usize >> 1) % RING];
        if bucket.len > 0 {
            bucket.len -= 1;
            return Some((self.lo, bucket.slots[bucket.len].unpack(shift)));
        }
        // Every queued F lies below `lo + 2 * RING`: a whole ring of empty buckets means no more.
        for _ in 1..RING {
            self.lo += 2;
            let bucket = &mut self.buckets[(self.lo as usize >> 1) % RING];
            if bucket.len > 0 {
                let keys = &mut bucket.slots[..bucket.len];
                bucket.len = filter_and_sort(keys, shift, self.lo, &live, &mut self.sorter);
                if bucket.len > 0 {
                    bucket.len -= 1;
                    return Some((self.lo, bucket.slots[bucket.len].unpack(shift)));
                }
            }
        }
        None
    }
}

/// [`RingQueue`]'s ring for `Ties::Lifo`: keys of equal F pop last in, first out and are
/// never sorted, so a bucket holds only the cell (the low half of a key), half the memory
/// traffic of a full key.
#[derive(Debug, Clone, Default)]
pub(crate) struct LifoRing {
    buckets: [Bucket<u32>; RING],
    /// The smallest F that may still be queued.
    lo: u32,
}

impl OpenList for LifoRing {
    fn start(&mut self, f: u32, key: u64) {
        self.lo = restart(&mut self.buckets, f);
        self.push(f, key);
    }

    #[inline(always)]
    fn push(&mut self, f: u32, key: u64) {
        self.buckets[ring_slot(self.lo, f)].push(key as u32);
    }

    /// Dead entries are popped like live ones, for the search loop to skip.
    #[inline(always)]
    fn pop(&mut self, _live: impl Fn(u32, u64) -> bool) -> Option<(u32, u64)> {
        for _ in 0..RING {
            let bucket = &mut self.buckets[(self.lo as usize >> 1) % RING];
            if bucket.len > 0 {
                bucket.len -= 1;
                return Some((self.lo, u64::from(bucket.slots[bucket.len])));
            }
            self.lo += 2;
        }
        None
    }
}

/// Empties a ring's buckets for a search starting at F `f`; returns `f`, the new minimum.
fn restart<K>(buckets: &mut [Bucket<K>; RING], f: u32) -> u32 {
    for bucket in buckets {
        bucket.len = 0;
    }
    f
}

/// The bucket of F `f` in a ring whose minimum is `lo`.
#[inline(always)]
fn ring_slot(lo: u32, f: u32) -> usize {
    debug_assert!(
        f.is_multiple_of(2) && f >= lo && f - lo < 2 * RING as u32,
        "F outside the ring"
    );
    (f as usize >> 1) % RING
}

impl<K: Copy + Default> Bucket<K> {
    /// Adds `key`.
    #[inline(always)]
    fn push(&mut self, key: K) {
        let n = self.len;
        match self.slots.get_mut(n) {
            Some(slot) => *slot = key,
            None => self.grow(key),
        }
        self.len = n + 1;
    }

    /// Doubles the room, then adds `key`.
    #[cold]
    fn grow(&mut self, key: K) {
        let mut slots = vec![K::default(); (2 * self.slots.len()).max(64)];
        slots[..self.len].copy_from_slice(&self.slots[..self.len]);
        slots[self.len] = key;
        self.slots = slots.into_boxed_slice();
    }
}

/// Buckets shorter than this are sorted with their dead entries, which the pops then skip.
/// Longer ones are filtered: a dead entry popped costs a mispredicted skip in the search loop,
/// more than the filter's branchless copy (filtering from 2 keys rather than from 16 made lower
/// H 2 to 3% faster on arena2, lak303d and brc202d, with either sort, but 4% slower on the
/// one-to-three-key buckets of maze512-1-0; from 8, the game maps keep the gain and the maze
/// loses nothing).
const FILTER_MIN: usize = 8;

/// Readies the keys of the bucket of `f` for popping, when it becomes the minimum: drops
/// those `live` rejects, if there are at least [`FILTER_MIN`], then sorts the rest descending
/// (see [`Sorter::sort`]). Returns how many keys are left, at the front of `keys`.
#[inline(always)]
fn filter_and_sort<K: Key>(
    keys: &mut [K],
    shift: u32,
    f: u32,
    live: impl Fn(u32, u64) -> bool,
    sorter: &mut Sorter<K>,
) -> usize {
    let mut n = keys.len();
    if n >= FILTER_MIN {
        // Without a branch: every key is copied down, and kept by advancing past it.
        let mut kept = 0;
        for i in 0..n {
            let key = keys[i];
            keys[kept] = key;
            kept += usize::from(live(f, key.unpack(shift)));
        }
        n = kept;
    }
    sorter.sort(&mut keys[..n], shift);
    n
}

/// Buckets of at most this many keys are sorted by a sorting network.
const NETWORK_MAX: usize = 16;

/// The comparators of Batcher's odd-even merge sort on 16 lanes that touch only the first
/// `n`: each `(a, b)`, `a < b`, puts the larger key in lane `a`. The others are left out, which
/// is sound because on 16 lanes whose last `16 - n` held keys no larger than any other, each
/// of those comparators would leave its lanes as they are: the network sorts `n` lanes alone.
const fn batcher(n: usize) -> ([(u8, u8); 64], usize) {
    let mut pairs = [(0u8, 0u8); 64];
    let mut count = 0;
    let lanes = 16;
    let mut p = 1;
    while p < lanes {
        let mut k = p;
        while k >= 1 {
            let mut j = k % p;
            while j + k < lanes {
                let mut i = 0;
                while i < k && i + j + k < lanes {
                    let (a, b) = (i + j, i + j + k);
                    if a / (2 * p) == b / (2 * p) && b < n {
                        pairs[count] = (a as u8, b as u8);
                        count += 1;
                    }
                    i += 1;
                }
                j += 2 * k;
            }
            k /= 2;
        }
        p *= 2;
    }
    (pairs, count)
}

/// A sorting network for exactly `N` keys.
struct Network<const N: usize>;

impl<const N: usize> Network<N> {
    const PAIRS: ([(u8, u8); 64], usize) = batcher(N);

    /// Sorts `keys[..N]` descending. Without a branch on the keys: the insertion sort's exit
    /// from its inner loop, which depends on every key, was most of the lower-H rule's
    /// mispredicted branches.
    #[inline(always)]
    fn sort<K: Key>(keys: &mut [K]) {
        let mut lanes = [K::default(); N];
        lanes.copy_from_slice(&keys[..N]);
        let (pairs, count) = Self::PAIRS;
        let mut i = 0;
        while i < count {
            let (a, b) = (usize::from(pairs[i].0), usize::from(pairs[i].1));
            let (x, y) = (lanes[a], lanes[b]);
            lanes[a] = x.max(y);
            lanes[b] = x.min(y);
            i += 1;
        }
        keys[..N].copy_from_slice(&lanes);
    }
}

/// Sorts at most [`NETWORK_MAX`] keys descending, by the network for their number.
fn sort_small<K: Key>(keys: &mut [K]) {
    debug_assert!(keys.len() <= NETWORK_MAX, "too many keys for a network");
    match keys.len() {
        2 => Network::<2>::sort(keys),
        3 => Network::<3>::sort(keys),
        4 => Network::<4>::sort(keys),
        5 => Network::<5>::sort(keys),
        6 => Network::<6>::sort(keys),
        7 => Network::<7>::sort(keys),
        8 => Network::<8>::sort(keys),
        9 => Network::<9>::sort(keys),
        10 => Network::<10>::sort(keys),
        11 => Network::<11>::sort(keys),
        12 => Network::<12>::sort(keys),
        13 => Network::<13>::sort(keys),
        14 => Network::<14>::sort(keys),
        15 => Network::<15>::sort(keys),
        16 => Network::<16>::sort(keys),
        _ => {}
    }
}

/// Buckets shorter than this are sorted by comparisons alone.
const SPREAD_MIN: usize = 64;

/// The sorts of one queue: the scalar sorts' scratch space, kept between sorts, and how many
/// keys the current search has sorted.
#[derive(Debug, Clone, Default)]
struct Sorter<K> {
    /// Scratch space of [`sort_scalar`]'s bucket sort.
    scratch: Vec<K>,
    /// The slot counts of [`sort_scalar`]'s bucket sort.
    counts: Vec<u32>,
    /// Keys sorted since the search began.
    keys: usize,
}

/// Keys a search sorts (the bucket at hand included) before it turns to the vector
/// registers. A search's first use of them
/// costs it about a microsecond, whatever it sorts (arena, whose searches take one: 1.05 µs a
/// query with the scalar sorts, 1.43 with the registers from the first key, 1.42 with them for
/// buckets over 16 keys only, 0.96 from the 512th key on), which a search that sorts fewer
/// keys does not earn back; on the large maps waiting for 512 keys is no slower (0.98 of using
/// them from the first key; 2,048 keys: 1.00).
#[cfg(target_arch = "x86_64")]
const WIDE_AFTER: usize = 512;

/// Buckets of fewer `u64` keys than this are left to the scalar network, whose one to nineteen
/// compare-exchanges cost less than a round trip through the registers: on maze512-1-0, which
/// sorts tens of millions of buckets of two to fifteen keys, the registers for every size made
/// lower H 4% slower.
#[cfg(target_arch = "x86_64")]
const WIDE_MIN: usize = 9;

/// [`WIDE_MIN`] for `u32` keys, sixteen to a register: on the large maps, one register for
/// five to eight keys as well was 2 to 3% faster, and the maze lost nothing (from three keys
/// it lost 6%).
#[cfg(target_arch = "x86_64")]
const WIDE_MIN_32: usize = 5;

impl<K: Key> Sorter<K> {
    /// Sorts `keys` (see [`Key`]) descending: where the processor has AVX-512, once the
    /// search has sorted `WIDE_AFTER` keys, buckets from `WIDE_MIN` (9) `u64` or
    /// `WIDE_MIN_32` (5) `u32` keys to sixteen registers' keys (128 `u64`, 256 `u32`) in its
    /// registers (see `wide`); up to four keys by a network here, and the other buckets, and
    /// every bucket elsewhere, by [`sort_scalar`].
    #[inline(always)]
    fn sort(&mut self, keys: &mut [K], shift: u32) {
        self.keys += keys.len();
        // The smallest buckets here, in the search loop: a call to the scalar sorts for one
        // to four keys cost lak303d, arena2 and brc202d about 1.5% (brc202d sorts 145,000
        // buckets of one key, 440,000 of two or three), the maze 2% more for four keys.
        match keys.len() {
            0 | 1 => return,
            2 => return Network::<2>::sort(keys),
            3 => return Network::<3>::sort(keys),
            4 => return Network::<4>::sort(keys),
            _ => {}
        }
        #[cfg(target_arch = "x86_64")]
        if self.keys > WIDE_AFTER && K::sort_wide(keys) {
            return;
        }
        sort_scalar(keys, shift, &mut self.scratch, &mut self.counts);
    }
}

/// Sorts `keys` (see [`Key`]; H from bit `shift`) descending, without vector registers.
///
/// Buckets of at most [`NETWORK_MAX`] keys (three in four on the Moving AI maps, 40% of the
/// keys) go through a sorting network. Longer ones: a bucket sort on H: the keys are spread by
/// the high bits of `hi - h` over about as many slots as there are keys (walked last-first, so
/// that keys of one slot, which mostly arrive ascending, land nearly descending), and an
/// insertion sort then orders each slot's few keys. Short buckets, and spreads that leave too
/// much shifting, go through `sort_unstable`.
fn sort_scalar<K: Key>(keys: &mut [K], shift: u32, scratch: &mut Vec<K>, counts: &mut Vec<u32>) {
    let n = keys.len();
    if n <= NETWORK_MAX {
        sort_small(keys);
        return;
    }
    if n < SPREAD_MIN {
        // A bucket fills in a few ascending runs (its keys come from nodes expanded in order of
        // H), so reversed it is nearly sorted, and an insertion sort moves little.
        keys.reverse();
        for i in 1..n {
            let k = keys[i];
            let mut j = i;
            while j > 0 && keys[j - 1] < k {
                keys[j] = keys[j - 1];
                j -= 1;
            }
            keys[j] = k;
        }
        return;
    }
    let (lo, hi) = keys.iter().fold((u32::MAX, 0), |(lo, hi), &k| {
        let h = k.h(shift);
        (lo.min(h), hi.max(h))
    });
    let slots = n.next_power_of_two();
    let span = (hi - lo) as usize;
    let spread = (usize::BITS - span.leading_zeros()).saturating_sub(slots.trailing_zeros());
    let slot_of = |k: K| ((hi - k.h(shift)) >> spread) as usize;
    counts.clear();
    counts.resize((span >> spread) + 1, 0);
    for &k in keys.iter() {
        counts[slot_of(k)] += 1;
    }
    let mut sum = 0;
    for count in counts.iter_mut() {
        let c = *count;
        *count = sum;
        sum += c;
    }
    scratch.clear();
    scratch.extend_from_slice(keys);
    for &k in scratch.iter().rev() {
        let slot = &mut counts[slot_of(k)];
        keys[*slot as usize] = k;
        *slot += 1;
    }
    // Keys of different slots are in order; order each slot's, giving up if that is costly.
    let mut budget = 8 * n;
    for i in 1..n {
        let k = keys[i];
        let mut j = i;
        while j > 0 && keys[j - 1] < k {
            keys[j] = keys[j - 1];
            j -= 1;
        }
        keys[j] = k;
        budget = budget.saturating_sub(i - j);
        if budget == 0 {
            keys.sort_unstable_by(|a, b| b.cmp(a));
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `live` that keeps every entry.
    fn all(_: u32, _: u64) -> bool {
        true
    }

    /// A small deterministic generator for the randomized tests.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    #[test]
    fn pops_in_f_then_key_order_across_growth_and_reuse() {
        let mut q = BucketQueue::<false>::default();
        let items = [(500u32, 3u64), (20, 9), (20, 1), (7000, 0), (3, 5), (20, 4)];
        for (f, k) in items {
            q.push(f, k);
        }
        let mut out = Vec::new();
        while let Some(x) = q.pop(all) {
            out.push(x);
        }
        assert_eq!(
            out,
            vec![(3, 5), (20, 1), (20, 4), (20, 9), (500, 3), (7000, 0)]
        );
        q.push(10, 1);
        q.push(2, 2);
        q.clear();
        assert_eq!(q.pop(all), None);
        q.push(40, 7);
        assert_eq!(q.len(), 1);
        assert_eq!(q.pop(all), Some((40, 7)));
    }

    #[test]
    fn lifo_ring_pops_by_f_then_last_in_first_out() {
        use std::collections::BTreeMap;
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut q = LifoRing::default();
        for round in 0..3 {
            // Per F, the keys in push order: the reference pops the smallest F's last key.
            let mut reference: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
            let base = 100 + 50 * round;
            q.start(base, 1);
            reference.entry(base).or_default().push(1);
            let mut popped = 0;
            while let Some((f, key)) = q.pop(all) {
                let mut first = reference
                    .first_entry()
                    .expect("the reference holds entries");
                let want_f = *first.key();
                let want = first.get_mut().pop().expect("no empty F is kept");
                if first.get().is_empty() {
                    first.remove();
                }
                assert_eq!((f, key), (want_f, want));
                popped += 1;
                // Enough children to outgrow a bucket's first 64 slots, F within the ring.
                if popped < 3000 {
                    for _ in 0..1 + next() % 3 {
                        let child_f = f + 2 * (next() % 15) as u32;
                        let child = next() % (1 << 32);
                        q.push(child_f, child);
                        reference.entry(child_f).or_default().push(child);
                    }
                }
            }
            assert!(reference.is_empty(), "round {round}: the ring lost entries");
            assert!(popped > 1000, "round {round}: only {popped} pops");
        }
    }

    /// Pops `q` against a reference that hands out each F's keys last in, first out (`fifo`
    /// false) or first in, first out, under weighted A*'s pushes (mostly just above the
    /// minimum, some far above or below it), over three rounds of the same queue emptied
    /// and used again (its half-used bucket left behind).
    fn pops_like_a_reference_under_weighted_pushes<Q: OpenList>(q: &mut Q, fifo: bool) {
        use std::collections::{BTreeMap, VecDeque};
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        for round in 0..3 {
            let mut reference: BTreeMap<u32, VecDeque<u64>> = BTreeMap::new();
            let base = 1000 + 500 * round;
            q.start(base, 1);
            reference.entry(base).or_default().push_back(1);
            let mut popped = 0;
            while let Some((f, key)) = q.pop(all) {
                let mut first = reference
                    .first_entry()
                    .expect("the reference holds entries");
                let want_f = *first.key();
                let keys = first.get_mut();
                let want = if fifo {
                    keys.pop_front()
                } else {
                    keys.pop_back()
                };
                let want = want.expect("no empty F is kept");
                if first.get().is_empty() {
                    first.remove();
                }
                assert_eq!((f, key), (want_f, want), "round {round}, pop {popped}");
                popped += 1;
                if popped < 3000 {
                    for _ in 0..1 + next() % 3 {
                        let r = next();
                        let child_f = match r % 13 {
                            0 => f.saturating_sub((r >> 8) as u32 % 40),
                            1 => f + (r >> 8) as u32 % 3000,
                            _ => f + (r >> 8) as u32 % 29,
                        };
                        let child = next() % 64;
                        q.push(child_f, child);
                        reference.entry(child_f).or_default().push_back(child);
                    }
                }
            }
            assert!(
                reference.is_empty(),
                "round {round}: the queue lost entries"
            );
            assert!(popped > 1000, "round {round}: only {popped} pops");
        }
    }

    #[test]
    fn lifo_bucket_queue_pops_by_f_then_last_in_first_out_anywhere() {
        pops_like_a_reference_under_weighted_pushes(&mut BucketQueue::<true>::default(), false);
    }

    #[test]
    fn fifo_bucket_queue_pops_by_f_then_first_in_first_out_anywhere() {
        let mut q = FifoQueue::default();
        pops_like_a_reference_under_weighted_pushes(&mut q, true);
        q.push(7, 3);
        q.push(7, 1);
        assert_eq!(q.pop(all), Some((7, 3)));
        q.push(7, 2);
        q.push(5, 9);
        assert_eq!(
            std::iter::from_fn(|| q.pop(all)).collect::<Vec<_>>(),
            vec![(5, 9), (7, 1), (7, 2)]
        );
    }

    /// Pops `q` and `reference` past their dead entries, which `q` may drop unseen or hand out
    /// for the caller to skip, to the next live one; both must agree on it (on its F and
    /// cell: a narrow ring hands out no H). Returns the reference's entry.
    fn next_live<Q: OpenList>(
        q: &mut Q,
        reference: &mut std::collections::BinaryHeap<std::cmp::Reverse<(u32, u64)>>,
        live: impl Fn(u32, u64) -> bool + Copy,
    ) -> Option<(u32, u64)> {
        let got = std::iter::from_fn(|| q.pop(live)).find(|&(f, k)| live(f, k));
        let want = std::iter::from_fn(|| reference.pop().map(|x| x.0)).find(|&(f, k)| live(f, k));
        let cell = |entry: Option<(u32, u64)>| entry.map(|(f, k)| (f, k as u32));
        assert_eq!(cell(got), cell(want));
        want
    }

    /// A narrow ring for keys of up to 16 bits of cell.
    fn narrow() -> RingQueue<u32> {
        let mut q = RingQueue::<u32>::default();
        q.set_shift(16);
        q
    }

    /// Checks `Q` against a reference heap under pushes as a consistent search makes them,
    /// which both queues accept. With `siblings_in_order`, the children keeping their
    /// parent's F come in descending order, as the ring's heuristics make them (a straight
    /// step, then a diagonal one whose H is lower); without, in any order.
    fn pops_like_a_reference_heap_under_a_consistent_searchs_pushes<Q: OpenList>(
        new: impl Fn() -> Q,
        siblings_in_order: bool,
    ) {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let mut next = xorshift(0x2545_F491_4F6C_DD1Du64);
        let live = |_: u32, key: u64| !(key as u32).is_multiple_of(7);
        let mut siblings = Vec::new();
        for _ in 0..20 {
            // Keys `h << 32 | cell` with a serial number for the cell, below 2^16 so that a
            // narrow ring takes them: keys of a search are distinct.
            let mut serial = 1u64;
            let mut q = new();
            let mut reference = BinaryHeap::new();
            q.start(1000, 1 << 47);
            reference.push(Reverse((1000u32, 1u64 << 47)));
            for _ in 0..5000 {
                let Some((f, key)) = next_live(&mut q, &mut reference, live) else {
                    break;
                };
                // Children as a consistent search makes them: F from f to f + 28, and those
                // keeping f below the popped key (a larger G, so a smaller H).
                siblings.clear();
                for _ in 0..next() % 5 {
                    let r = next();
                    let df = [0, 0, 0, 4, 8, 14, 20, 28][(r % 8) as usize];
                    let h = if df == 0 {
                        (key >> 32) - 1 - (r >> 8) % 8
                    } else {
                        (1 << 15) - (r >> 8) % 5000
                    };
                    serial += 1;
                    assert!(serial < 1 << 16);
                    let child = h << 32 | serial;
                    if df == 0 && siblings_in_order {
                        siblings.push(child);
                        continue;
                    }
                    q.push(f + df, child);
                    reference.push(Reverse((f + df, child)));
                }
                siblings.sort_unstable_by(|a, b| b.cmp(a));
                for &child in &siblings {
                    q.push(f, child);
                    reference.push(Reverse((f, child)));
                }
            }
        }
    }

    #[test]
    fn ring_pops_like_a_reference_heap_under_a_consistent_searchs_pushes() {
        pops_like_a_reference_heap_under_a_consistent_searchs_pushes(
            RingQueue::<u64>::default,
            true,
        );
        pops_like_a_reference_heap_under_a_consistent_searchs_pushes(narrow, true);
    }

    #[test]
    fn bucket_queue_pops_like_a_reference_heap_under_a_consistent_searchs_pushes() {
        pops_like_a_reference_heap_under_a_consistent_searchs_pushes(
            BucketQueue::<false>::default,
            false,
        );
    }

    /// Checks that a bucket of at least [`FILTER_MIN`] entries, filled before it becomes the
    /// minimum, hands out none of its dead ones, and that a shorter one hands out its live
    /// ones in order.
    fn long_buckets_hand_out_no_dead_entries<Q: OpenList>(mut q: Q) {
        let live = |_: u32, key: u64| !key.is_multiple_of(3);
        q.start(100, 998);
        assert_eq!(q.pop(live), Some((100, 998)));
        let (long, short) = (3 * FILTER_MIN as u64, FILTER_MIN as u64 - 1);
        // Keys in a scrambled order (a stride prime to both lengths), a third of them dead.
        let coprime = |mut a: u64, mut b: u64| {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a == 1
        };
        let stride = (5..)
            .find(|&s| coprime(s, long) && coprime(s, short))
            .unwrap();
        for i in 0..long {
            q.push(110, 1000 + i * stride % long);
        }
        for i in 0..short {
            q.push(120, 1000 + i * stride % short);
        }
        let mut popped = Vec::new();
        while let Some(entry) = q.pop(live) {
            popped.push(entry);
        }
        let from_long: Vec<u64> = popped.iter().filter(|e| e.0 == 110).map(|e| e.1).collect();
        let want: Vec<u64> = (1000..1000 + long).filter(|&k| live(110, k)).collect();
        assert_eq!(
            from_long, want,
            "the long bucket hands out exactly its live keys"
        );
        let from_short: Vec<u64> = popped
            .iter()
            .filter(|e| e.0 == 120 && live(e.0, e.1))
            .map(|e| e.1)
            .collect();
        let want: Vec<u64> = (1000..1000 + short).filter(|&k| live(120, k)).collect();
        assert_eq!(from_short, want);
        assert!(popped.iter().all(|e| e.0 == 110 || e.0 == 120));
    }

    #[test]
    fn ring_long_buckets_hand_out_no_dead_entries() {
        long_buckets_hand_out_no_dead_entries(RingQueue::<u64>::default());
        long_buckets_hand_out_no_dead_entries(narrow());
    }

    #[test]
    fn bucket_queue_long_buckets_hand_out_no_dead_entries() {
        long_buckets_hand_out_no_dead_entries(BucketQueue::<false>::default());
    }

    /// By the 0-1 principle a comparator network sorts every input if it sorts every input of
    /// zeros and ones: this checks all of them, for every bucket size the networks take.
    #[test]
    fn the_small_sorting_networks_sort_every_input() {
        for n in 0..=NETWORK_MAX {
            for bits in 0u32..1 << n {
                let mut keys: Vec<u64> = (0..n).map(|i| u64::from((bits >> i) & 1)).collect();
                let mut want = keys.clone();
                want.sort_unstable_by(|a, b| b.cmp(a));
                sort_small(&mut keys);
                assert_eq!(keys, want, "n {n}, bits {bits:b}");
            }
        }
        let mut next = xorshift(0x1234_5678_9ABC_DEF1);
        for n in 0..=NETWORK_MAX {
            for _ in 0..200 {
                let mut keys: Vec<u64> = (0..n)
                    .map(|_| ((next() % 40) << 32) | (next() % 9))
                    .collect();
                let mut want = keys.clone();
                want.sort_unstable_by(|a, b| b.cmp(a));
                sort_small(&mut keys);
                assert_eq!(keys, want, "n {n}");
            }
        }
    }

    /// The registers' networks against a comparison sort: every input of zeros and ones up
    /// to 16 keys (the 0-1 principle), then random keys of every size they take, many equal
    /// in H. `$key` keys whose cell has `$cell_bits` bits.
    #[cfg(target_arch = "x86_64")]
    macro_rules! check_wide {
        ($module:ident, $key:ty, $cell_bits:literal) => {{
            use wide::$module;
            if !wide::available() {
                // Then nothing sorts in the registers either: the scalar sorts' tests cover it.
                let mut keys: Vec<$key> = vec![2, 1, 3];
                assert!(!$module::sort(&mut keys), "no AVX-512F, no sort");
                assert_eq!(keys, [2, 1, 3]);
                eprintln!("no AVX-512F here: the wide sort is not used, nor tested");
                return;
            }
            let check = |mut keys: Vec<$key>| {
                let mut want = keys.clone();
                want.sort_unstable_by(|a, b| b.cmp(a));
                assert!($module::sort(&mut keys));
                assert_eq!(keys, want);
            };
            for n in 0..=16 {
                for bits in 0u32..1 << n {
                    check((0..n).map(|i| <$key>::from((bits >> i) & 1)).collect());
                }
            }
            let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
            let key = |h: u64, cell: u64| (h << $cell_bits | cell) as $key;
            for n in 0..=$module::WIDE_MAX {
                for _ in 0..300 {
                    check((0..n).map(|_| key(next() % 2, next() % 2 << 8)).collect());
                    check((0..n).map(|_| key(next() % 40, next() % 9)).collect());
                    check((0..n).map(|_| (next() >> 1) as $key).collect());
                }
            }
            // Keys only in the lanes of the slice are read and written: a sort of the front of
            // a longer run leaves the rest as it was.
            let mut keys: Vec<$key> = (0..300).collect();
            assert!($module::sort(&mut keys[..37]));
            assert!(keys[..37].iter().rev().copied().eq(0..37));
            assert!(keys[37..].iter().copied().eq(37..300));
        }};
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_wide_sort_sorts_every_input() {
        check_wide!(w64, u64, 32);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_narrow_wide_sort_sorts_every_input() {
        check_wide!(w32, u32, 16);
    }

    /// Checks that [`sort_scalar`] and `sorter` (past its registers' warm-up) both sort
    /// `keys`, whose H begins at bit `shift`, as a comparison sort does.
    fn sorts_like_a_comparison_sort<K: Key>(keys: &[K], shift: u32, sorter: &mut Sorter<K>) {
        let mut want = keys.to_vec();
        want.sort_unstable_by(|a, b| b.cmp(a));
        let mut scalar = keys.to_vec();
        sort_scalar(&mut scalar, shift, &mut sorter.scratch, &mut sorter.counts);
        assert_eq!(scalar, want, "{} keys, scalar", keys.len());
        let mut sorted = keys.to_vec();
        sorter.keys = usize::MAX / 2;
        sorter.sort(&mut sorted, shift);
        assert_eq!(sorted, want, "{} keys", keys.len());
    }

    #[test]
    fn bucket_sort_matches_a_comparison_sort() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1Du64);
        let (mut sorter, mut sorter32) = (Sorter::default(), Sorter::default());
        for (n, h_range, cell_range) in [
            (300, 1u64, 1u64),
            (40, 30, 100),
            (20, 10, 30),
            (100, 200, 50),
            (500, 1000, 3),
            (500, 50, 10_000),
            (300, 1, 1 << 18),
            (1000, 4000, 70_000),
            (5000, 1 << 31, 1 << 32),
            (257, 3, 5),
            (4096, 1 << 20, 1 << 12),
        ] {
            let keys: Vec<u64> = (0..n)
                .map(|_| {
                    let r = next();
                    (((r >> 32) % h_range + 7) << 32) | ((r & 0xFFFF_FFFF) % cell_range)
                })
                .collect();
            sorts_like_a_comparison_sort(&keys, 32, &mut sorter);
            // The same keys packed into 32 bits, H from bit 14, where they fit.
            if keys
                .iter()
                .all(|&k| k >> 32 < 1 << 18 && (k as u32) < 1 << 14)
            {
                let keys32: Vec<u32> = keys.iter().map(|&k| u32::pack(k, 14)).collect();
                sorts_like_a_comparison_sort(&keys32, 14, &mut sorter32);
            }
        }
    }

    #[test]
    fn narrow_keys_are_used_where_cells_and_estimates_fit_in_32_bits() {
        // A 512x512 map: 514x514 padded cells (19 bits), estimates up to 14 * 511 (13 bits).
        assert_eq!(narrow_shift(514 * 514, 14 * 511), Some(19));
        assert_eq!(narrow_shift(1 << 19, 1 << 13), None);
        assert_eq!(narrow_shift(1 << 19, (1 << 13) - 1), Some(19));
        assert_eq!(narrow_shift((1 << 19) + 1, 1), Some(20));
        assert_eq!(narrow_shift(1026 * 1026, 14 * 1023), None);
        let key = 7154u64 << 32 | (514 * 514 - 1);
        let packed = u32::pack(key, 19);
        assert_eq!(packed.h(19), 7154);
        assert_eq!(packed.unpack(19), 514 * 514 - 1);
    }

    #[test]
    fn accepts_keys_below_the_current_minimum() {
        let mut q = BucketQueue::<false>::default();
        q.push(100, 0);
        q.push(130, 0);
        assert_eq!(q.pop(all), Some((100, 0)));
        q.push(90, 1);
        assert_eq!(q.pop(all), Some((90, 1)));
        assert_eq!(q.pop(all), Some((130, 0)));
    }

    #[test]
    fn matches_a_reference_heap_under_interleaved_pushes_and_pops() {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        fn some_dead(_: u32, key: u64) -> bool {
            !key.is_multiple_of(5)
        }
        for live in [all as fn(u32, u64) -> bool, some_dead] {
            let mut q = BucketQueue::<false>::default();
            let mut reference = BinaryHeap::new();
            let mut next = xorshift(0x9E37_79B9_7F4A_7C15u64);
            let mut floor = 1000u32;
            for _ in 0..20_000 {
                let r = next();
                if !r.is_multiple_of(3) || reference.is_empty() {
                    // Mostly near the minimum, sometimes below it or far above, like weighted A*.
                    let f = match r % 17 {
                        0 => floor.saturating_sub((r >> 8) as u32 % 50),
                        1 => floor + (r >> 8) as u32 % 5000,
                        _ => floor + (r >> 8) as u32 % 29,
                    };
                    let key = (r >> 20) % 64;
                    q.push(f, key);
                    reference.push(Reverse((f, key)));
                } else if let Some((f, _)) = next_live(&mut q, &mut reference, live) {
                    floor = f;
                }
            }
            while next_live(&mut q, &mut reference, live).is_some() {}
            assert_eq!(q.pop(all), None);
        }
    }
}
