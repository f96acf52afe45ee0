//! How much of its map a generated level must fill, which the generators that smooth or
//! place rooms keep to as they go and `generate` checks of every attempt.

/// The least share of a map's width and of its height, in percent, that the floor's
/// bounding box covers (or the whole interior, on maps too small for that).
pub const MIN_SPAN_PERCENT: usize = 80;

/// An attempt of a kind with a density is rejected when its share of floor in the interior
/// is under this many thousandths of `1 - density` (small automaton caves now and then
/// collapse into one corner; large maps never come near).
pub(super) const MIN_FLOOR_PERMILLE: usize = 700;

/// How many of a side's cells the floor must span: [`MIN_SPAN_PERCENT`] of it, or the whole
/// interior when the side is too short for that.
pub(super) fn required_span(side: usize) -> usize {
    (side * MIN_SPAN_PERCENT).div_ceil(100).min(side - 2)
}

/// The fewest floor cells an attempt of a kind with a density may have:
/// [`MIN_FLOOR_PERMILLE`] of the interior's `1 - density`. Smoothing passes that would go
/// under it are not taken.
pub(super) fn least_floor(width: usize, height: usize, density: f64) -> usize {
    let promised = (1.0 - density) * ((width - 2) * (height - 2)) as f64;
    (promised * MIN_FLOOR_PERMILLE as f64 / 1000.0).ceil() as usize
}
