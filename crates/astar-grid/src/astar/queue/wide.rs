//! Sorting a bucket in AVX-512 registers, where the processor has them: [`u64`] keys eight to
//! a register ([`w64`]), [`u32`] keys sixteen to a register ([`w32`]), up to sixteen
//! registers.
//!
//! The scalar sorts pay for every key in compares and moves that depend on the keys (an
//! insertion sort's exits mispredict, a network's compare-exchanges run one pair at a time);
//! here a register's keys are compared and exchanged at once by a bitonic network, without a
//! branch on the keys. The keys are the queue's (`h << 32 | cell`, or packed into 32 bits as
//! `h << shift | cell` where the map allows), so the order is exactly the scalar sorts'
//! (unsigned compares of the whole key).

// The one place in the crate with `unsafe`: calling the AVX-512 functions once `sort` has
// found that the processor has AVX-512F, and their masked loads and stores, which touch only
// lanes inside `keys`.
#![allow(unsafe_code)]

/// Whether the processor has AVX-512F, so that the sorts sort (the answer is cached by the
/// standard library after the first call).
#[inline(always)]
pub(super) fn available() -> bool {
    std::is_x86_feature_detected!("avx512f")
}

/// One module of the network for keys of one width: the same bitonic network on `LANES`
/// lanes a register, written once for both widths. `$int` is the lane as the intrinsics'
/// pointers see it.
macro_rules! network {
    (
        $(#[$doc:meta])*
        $module:ident, $key:ty, $int:ty, $mask:ty, $lanes:literal,
        iota: $iota:expr,
        set1: $set1:ident, loadu: $loadu:ident, storeu: $storeu:ident, blend: $blend:ident,
        max: $max:ident, min: $min:ident, permute: $permute:ident,
        sort_half: [$(($hx:literal, $hbit:literal)),*],
        sort_one: [$(($x:literal, $bit:literal)),*], finish: [$($j:literal),*] $(,)?
    ) => {
        $(#[$doc])*
        pub(in crate::astar::queue) mod $module {
            use std::arch::x86_64::{
                __m512i, _mm512_xor_si512, $blend, $loadu, $mask, $max, $min, $permute, $set1,
                $storeu,
            };

            /// Keys a register holds.
            const LANES: usize = $lanes;

            /// The most keys [`sort`] takes: sixteen registers.
            pub(in crate::astar::queue) const WIDE_MAX: usize = 16 * LANES;

            /// Sorts `keys` descending and returns true, where the processor has AVX-512F;
            /// elsewhere leaves them as they are and returns false, for the caller to sort them
            /// otherwise.
            ///
            /// # Panics
            /// If `keys` holds more than [`WIDE_MAX`] keys.
            #[inline(always)]
            pub(in crate::astar::queue) fn sort(keys: &mut [$key]) -> bool {
                assert!(keys.len() <= WIDE_MAX, "too many keys for the registers");
                if !super::available() {
                    return false;
                }
                // SAFETY: `available()` has just said that the processor runs AVX-512F code.
                unsafe { sort_avx512(keys) };
                true
            }

            #[target_feature(enable = "avx512f")]
            fn sort_avx512(keys: &mut [$key]) {
                match keys.len() {
                    0 | 1 => {}
                    n if n <= LANES / 2 => sort_in_half(keys),
                    n if n <= LANES => sort_in::<1>(keys),
                    n if n <= 2 * LANES => sort_in::<2>(keys),
                    n if n <= 4 * LANES => sort_in::<4>(keys),
                    n if n <= 8 * LANES => sort_in::<8>(keys),
                    _ => sort_in::<16>(keys),
                }
            }

            /// The lanes of register `r` that hold keys of a slice of `n`.
            #[inline(always)]
            fn lanes(n: usize, r: usize) -> $mask {
                let held = n.saturating_sub(LANES * r).min(LANES);
                ((1u32 << held) - 1) as $mask
            }

            /// Lane `i` takes lane `i ^ x`.
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn xor_index(x: usize) -> __m512i {
                _mm512_xor_si512($iota, $set1(x as _))
            }

            /// One compare-exchange layer inside a register: lane `i` and lane `i ^ x` meet,
            /// and the lanes of `high` keep the larger key.
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn layer(v: __m512i, x: usize, high: $mask) -> __m512i {
                let t = $permute(xor_index(x), v);
                $blend(high, $min(v, t), $max(v, t))
            }

            /// The lanes `i` with `i & bit == 0`: the lower of each pair a layer forms.
            const fn low_lanes(bit: usize) -> $mask {
                let mut mask = 0;
                let mut i = 0;
                while i < LANES {
                    if i & bit == 0 {
                        mask |= 1 << i;
                    }
                    i += 1;
                }
                mask
            }

            /// The lanes `i ^ (LANES - 1)`: a register's keys in reverse.
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn reverse(v: __m512i) -> __m512i {
                $permute(xor_index(LANES - 1), v)
            }

            /// Sorts one register descending: the bitonic network in the form without
            /// reversed directions (for each block size `k`, lane `i` first meets its mirror
            /// `i ^ (k - 1)`, then `i ^ j` for `j = k / 4, .., 1`; the lower lane keeps the
            /// larger key), the layers `(x, bit)` written out by the caller of the macro (as
            /// loops they were not unrolled, and the masks were worked out at run time): those
            /// of [`sort_half`], then those of the last block size, the whole register.
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn sort_one(v: __m512i) -> __m512i {
                let v = sort_half(v);
                $(let v = layer(v, $x, const { low_lanes($bit) });)*
                v
            }

            /// Sorts each half of a register descending: the layers of [`sort_one`] up to
            /// blocks of `LANES / 2` lanes. Keys in the lower half only, zeros above, are then
            /// sorted in fewer layers than the whole register takes.
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn sort_half(v: __m512i) -> __m512i {
                $(let v = layer(v, $hx, const { low_lanes($hbit) });)*
                v
            }

            /// Sorts up to `LANES / 2` keys descending in one register. (For `u64` keys, up
            /// to four: only the tests send so few here, the queue sorts them itself.)
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn sort_in_half(keys: &mut [$key]) {
                let n = keys.len();
                let [v] = load::<1>(keys);
                store(keys, &[sort_half(v)], n);
            }

            /// The last layers of every merge, inside each register: partners `LANES / 2`,
            /// .., 2 and 1 lanes apart.
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn finish(v: __m512i) -> __m512i {
                $(let v = layer(v, $j, const { low_lanes($j) });)*
                v
            }

            /// The mirror layer between two registers of a merge: lane `i` of `a` meets lane
            /// `LANES - 1 - i` of `b`; `a` keeps the larger keys.
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn mirror(a: &mut __m512i, b: &mut __m512i) {
                let t = reverse(*b);
                *b = reverse($min(*a, t));
                *a = $max(*a, t);
            }

            /// A layer between two registers, lane to lane; `a` keeps the larger keys.
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn across(a: &mut __m512i, b: &mut __m512i) {
                let t = $min(*a, *b);
                *a = $max(*a, *b);
                *b = t;
            }

            /// Sorts two registers.
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn sort_two(v: &mut [__m512i]) {
                let [a, b] = v else { unreachable!() };
                *a = sort_one(*a);
                *b = sort_one(*b);
                mirror(a, b);
                *a = finish(*a);
                *b = finish(*b);
            }

            /// Sorts four registers.
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn sort_four(v: &mut [__m512i]) {
                sort_two(&mut v[..2]);
                sort_two(&mut v[2..]);
                let [a, b, c, d] = v else { unreachable!() };
                mirror(a, d);
                mirror(b, c);
                across(a, b);
                across(c, d);
                for reg in v.iter_mut() {
                    *reg = finish(*reg);
                }
            }

            /// Sorts eight registers. (The same merge as sixteen's, written out: as a loop
            /// over the array its registers were kept on the stack.)
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn sort_eight(v: &mut [__m512i]) {
                sort_four(&mut v[..4]);
                sort_four(&mut v[4..]);
                let [a, b, c, d, e, f, g, h] = v else {
                    unreachable!()
                };
                mirror(a, h);
                mirror(b, g);
                mirror(c, f);
                mirror(d, e);
                across(a, c);
                across(b, d);
                across(e, g);
                across(f, h);
                across(a, b);
                across(c, d);
                across(e, f);
                across(g, h);
                for reg in v.iter_mut() {
                    *reg = finish(*reg);
                }
            }

            /// Sorts sixteen registers.
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn sort_sixteen(v: &mut [__m512i]) {
                sort_eight(&mut v[..8]);
                sort_eight(&mut v[8..]);
                let (lo, hi) = v.split_at_mut(8);
                for (a, b) in lo.iter_mut().zip(hi.iter_mut().rev()) {
                    mirror(a, b);
                }
                for half in [4, 2, 1] {
                    for r in 0..16 {
                        if r & half == 0 {
                            let (x, y) = v.split_at_mut(r + half);
                            across(&mut x[r], &mut y[0]);
                        }
                    }
                }
                for reg in v.iter_mut() {
                    *reg = finish(*reg);
                }
            }

            /// Sorts up to `LANES * R` keys descending in `R` registers, the lanes past the
            /// keys holding 0 (which sorts last and is never stored back).
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn sort_in<const R: usize>(keys: &mut [$key]) {
                let n = keys.len();
                let mut v = load::<R>(keys);
                sort_registers(&mut v);
                store(keys, &v, n);
            }

            /// The keys of `keys` in `R` registers, the lanes past them holding 0.
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn load<const R: usize>(keys: &[$key]) -> [__m512i; R] {
                let n = keys.len();
                let base = keys.as_ptr();
                let mut v = [$set1(0); R];
                for (r, reg) in v.iter_mut().enumerate() {
                    // SAFETY: the mask selects only lanes `LANES * r + l < n`, inside `keys`;
                    // masked-off lanes are not read (and the pointer is formed with
                    // `wrapping_add`, never dereferenced past the slice).
                    *reg = unsafe {
                        $loadu(lanes(n, r), base.wrapping_add(LANES * r).cast::<$int>())
                    };
                }
                v
            }

            /// Sorts the keys of `R` registers descending.
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn sort_registers<const R: usize>(v: &mut [__m512i; R]) {
                match R {
                    1 => v[0] = sort_one(v[0]),
                    2 => sort_two(v),
                    4 => sort_four(v),
                    8 => sort_eight(v),
                    _ => sort_sixteen(v),
                }
            }

            /// Stores the first `n` keys of the registers at the front of `keys`.
            ///
            /// # Panics
            /// If `keys` is shorter than `n`.
            #[target_feature(enable = "avx512f")]
            #[inline]
            fn store<const R: usize>(keys: &mut [$key], v: &[__m512i; R], n: usize) {
                assert!(n <= keys.len());
                let base = keys.as_mut_ptr();
                for (r, reg) in v.iter().enumerate() {
                    // SAFETY: as for the loads: only lanes below `n`, inside `keys`, are
                    // written.
                    unsafe {
                        $storeu(base.wrapping_add(LANES * r).cast::<$int>(), lanes(n, r), *reg)
                    };
                }
            }
        }
    };
}

network!(
    /// Sixty-four-bit keys, eight to a register: up to 128 keys.
    w64, u64, i64, __mmask8, 8,
    iota: std::arch::x86_64::_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0),
    set1: _mm512_set1_epi64, loadu: _mm512_maskz_loadu_epi64,
    storeu: _mm512_mask_storeu_epi64, blend: _mm512_mask_blend_epi64,
    max: _mm512_max_epu64, min: _mm512_min_epu64, permute: _mm512_permutexvar_epi64,
    sort_half: [(1, 1), (3, 2), (1, 1)],
    sort_one: [(7, 4), (2, 2), (1, 1)],
    finish: [4, 2, 1],
);

network!(
    /// Thirty-two-bit keys, sixteen to a register: up to 256 keys, each register half the
    /// work of two of [`w64`]'s for the same keys.
    w32, u32, i32, __mmask16, 16,
    iota: std::arch::x86_64::_mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
    set1: _mm512_set1_epi32, loadu: _mm512_maskz_loadu_epi32,
    storeu: _mm512_mask_storeu_epi32, blend: _mm512_mask_blend_epi32,
    max: _mm512_max_epu32, min: _mm512_min_epu32, permute: _mm512_permutexvar_epi32,
    sort_half: [(1, 1), (3, 2), (1, 1), (7, 4), (2, 2), (1, 1)],
    sort_one: [(15, 8), (4, 4), (2, 2), (1, 1)],
    finish: [8, 4, 2, 1],
);
