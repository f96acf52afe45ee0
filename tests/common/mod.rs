//! What the property tests share.

use proptest::prelude::ProptestConfig;

/// A proptest configuration running `PROPTEST_CASES` cases when set, else `default`, and
/// keeping no failure files (CI runs on clean clones; a failure prints its seed).
pub fn config(default: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}
