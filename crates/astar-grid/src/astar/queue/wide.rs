//! Sorting a bucket of at most [`WIDE_MAX`] keys in AVX-512 registers, where the processor
//! has them.
//!
//! The scalar sorts pay for every key in compares and moves that depend on the keys (an
//! insertion sort's exits mispredict, a network's compare-exchanges run one pair at a time);
//! here eight keys are compared and exchanged at once by a bitonic network, without a branch
//! on the keys, in one to sixteen registers. The keys are the queue's `h << 32 | cell`, so the
//! order is exactly the scalar sorts' (unsigned 64-bit compares).

// The one place in the crate with `unsafe`: calling the AVX-512 function once `sort` has found
// that the processor has AVX-512F, and its masked loads and stores, which touch only lanes
// inside `keys`.
#![allow(unsafe_code)]

use std::arch::x86_64::{
    __m512i, __mmask8, _mm512_mask_blend_epi64, _mm512_mask_storeu_epi64, _mm512_maskz_loadu_epi64,
    _mm512_max_epu64, _mm512_min_epu64, _mm512_permutexvar_epi64, _mm512_set_epi64,
};

/// The most keys [`sort`] takes: sixteen registers of eight.
pub(super) const WIDE_MAX: usize = 128;

/// Whether the processor has AVX-512F, so that [`sort`] sorts (the answer is cached by the
/// standard library after the first call).
#[inline(always)]
pub(super) fn available() -> bool {
    std::is_x86_feature_detected!("avx512f")
}

/// Sorts `keys` descending and returns true, where the processor has AVX-512F; elsewhere
/// leaves them as they are and returns false, for the caller to sort them otherwise.
///
/// # Panics
/// If `keys` holds more than [`WIDE_MAX`] keys.
#[inline(always)]
pub(super) fn sort(keys: &mut [u64]) -> bool {
    assert!(keys.len() <= WIDE_MAX, "too many keys for the registers");
    if !available() {
        return false;
    }
    // SAFETY: `available()` has just said that the processor runs AVX-512F code.
    unsafe { sort_avx512(keys) };
    true
}

#[target_feature(enable = "avx512f")]
fn sort_avx512(keys: &mut [u64]) {
    match keys.len() {
        0 | 1 => {}
        2..=8 => sort_in::<1>(keys),
        9..=16 => sort_in::<2>(keys),
        17..=32 => sort_in::<4>(keys),
        33..=64 => sort_in::<8>(keys),
        _ => sort_in::<16>(keys),
    }
}

/// The lanes of register `r` that hold keys of a slice of `n`.
#[inline(always)]
fn lanes(n: usize, r: usize) -> __mmask8 {
    let held = n.saturating_sub(8 * r).min(8);
    ((1u32 << held) - 1) as __mmask8
}

/// Lane `i` takes lane `i ^ x`.
#[target_feature(enable = "avx512f")]
#[inline]
fn xor_index(x: i64) -> __m512i {
    _mm512_set_epi64(7 ^ x, 6 ^ x, 5 ^ x, 4 ^ x, 3 ^ x, 2 ^ x, 1 ^ x, x)
}

/// One compare-exchange layer inside a register: lane `i` and lane `i ^ x` meet, and the
/// lanes of `high` keep the larger key.
#[target_feature(enable = "avx512f")]
#[inline]
fn layer(v: __m512i, x: i64, high: __mmask8) -> __m512i {
    let t = _mm512_permutexvar_epi64(xor_index(x), v);
    _mm512_mask_blend_epi64(high, _mm512_min_epu64(v, t), _mm512_max_epu64(v, t))
}

/// The lanes `i` with `i & bit == 0`: the lower of each pair a layer forms.
const fn low_lanes(bit: usize) -> __mmask8 {
    let mut mask = 0u8;
    let mut i = 0;
    while i < 8 {
        if i & bit == 0 {
            mask |= 1 << i;
        }
        i += 1;
    }
    mask
}

/// The lanes `i ^ 7`: a register's keys in reverse.
#[target_feature(enable = "avx512f")]
#[inline]
fn reverse(v: __m512i) -> __m512i {
    _mm512_permutexvar_epi64(xor_index(7), v)
}

/// Sorts one register descending: the bitonic network on 8 lanes, in the form without reversed
/// directions (lane `i` first meets its mirror `i ^ (k - 1)` in its block of `k`, then
/// `i ^ j` for `j = k / 4, .., 1`; the lower lane keeps the larger key).
#[target_feature(enable = "avx512f")]
#[inline]
fn sort8(v: __m512i) -> __m512i {
    let v = layer(v, 1, low_lanes(1));
    let v = layer(v, 3, low_lanes(2));
    let v = layer(v, 1, low_lanes(1));
    let v = layer(v, 7, low_lanes(4));
    let v = layer(v, 2, low_lanes(2));
    layer(v, 1, low_lanes(1))
}

/// The last layers of every merge, inside each register: partners 4, 2 and 1 lanes apart.
#[target_feature(enable = "avx512f")]
#[inline]
fn finish(v: __m512i) -> __m512i {
    let v = layer(v, 4, low_lanes(4));
    let v = layer(v, 2, low_lanes(2));
    layer(v, 1, low_lanes(1))
}

/// The mirror layer between two registers of a merge: lane `i` of `a` meets lane `7 - i` of
/// `b`; `a` keeps the larger keys.
#[target_feature(enable = "avx512f")]
#[inline]
fn mirror(a: &mut __m512i, b: &mut __m512i) {
    let t = reverse(*b);
    *b = reverse(_mm512_min_epu64(*a, t));
    *a = _mm512_max_epu64(*a, t);
}

/// A layer between two registers, lane to lane; `a` keeps the larger keys.
#[target_feature(enable = "avx512f")]
#[inline]
fn across(a: &mut __m512i, b: &mut __m512i) {
    let t = _mm512_min_epu64(*a, *b);
    *a = _mm512_max_epu64(*a, *b);
    *b = t;
}

/// Sorts 16 keys in two registers.
#[target_feature(enable = "avx512f")]
#[inline]
fn sort16(v: &mut [__m512i]) {
    let [a, b] = v else { unreachable!() };
    *a = sort8(*a);
    *b = sort8(*b);
    mirror(a, b);
    *a = finish(*a);
    *b = finish(*b);
}

/// Sorts 32 keys in four registers.
#[target_feature(enable = "avx512f")]
#[inline]
fn sort32(v: &mut [__m512i]) {
    sort16(&mut v[..2]);
    sort16(&mut v[2..]);
    let [a, b, c, d] = v else { unreachable!() };
    mirror(a, d);
    mirror(b, c);
    across(a, b);
    across(c, d);
    for reg in v.iter_mut() {
        *reg = finish(*reg);
    }
}

/// Sorts 64 keys in eight registers.
#[target_feature(enable = "avx512f")]
#[inline]
fn sort64(v: &mut [__m512i]) {
    sort32(&mut v[..4]);
    sort32(&mut v[4..]);
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

/// Sorts 128 keys in sixteen registers.
#[target_feature(enable = "avx512f")]
#[inline]
fn sort128(v: &mut [__m512i]) {
    sort64(&mut v[..8]);
    sort64(&mut v[8..]);
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

/// Sorts up to `8 * R` keys descending in `R` registers, the lanes past the keys holding 0
/// (which sorts last and is never stored back).
#[target_feature(enable = "avx512f")]
#[inline]
fn sort_in<const R: usize>(keys: &mut [u64]) {
    let n = keys.len();
    let base = keys.as_mut_ptr();
    let mut v = [xor_index(0); R];
    for (r, reg) in v.iter_mut().enumerate() {
        // SAFETY: the mask selects only lanes `8r + l < n`, inside `keys`; masked-off lanes
        // are not read (and the pointer is formed with `wrapping_add`, never dereferenced past
        // the slice).
        *reg = unsafe { _mm512_maskz_loadu_epi64(lanes(n, r), base.wrapping_add(8 * r).cast()) };
    }
    match R {
        1 => v[0] = sort8(v[0]),
        2 => sort16(&mut v),
        4 => sort32(&mut v),
        8 => sort64(&mut v),
        _ => sort128(&mut v),
    }
    for (r, reg) in v.iter().enumerate() {
        // SAFETY: as for the loads: only lanes inside `keys` are written.
        unsafe { _mm512_mask_storeu_epi64(base.wrapping_add(8 * r).cast(), lanes(n, r), *reg) };
    }
}
