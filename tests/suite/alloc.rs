//! Memory the game's own code promises to bound. (The engine's allocation tests are the
//! engine crate's own: crates/astar-grid/tests/engine/alloc.rs.)

/// A level whose one line is 60 MB: reporting its error keeps a window of the line, not the
/// line, so the parse and the printed report together stay far below the file's size.
#[test]
fn a_sixty_megabyte_line_is_reported_in_bounded_memory() {
    let mut bytes = b"title: long\n".to_vec();
    bytes.resize(bytes.len() + 60_000_000, b'.');
    bytes.extend_from_slice(b"X\n");
    let mut shown = String::new();
    let info = allocation_counter::measure(|| {
        let e = astar_rogue::content::level::Level::parse(&bytes, "long.txt")
            .expect_err("the line is far too long");
        shown = e.to_string();
    });
    assert!(shown.starts_with("long.txt:2:"), "{shown}");
    assert!(
        shown.lines().nth(2).is_some_and(|l| l.ends_with('…')),
        "{shown}"
    );
    assert!(
        info.bytes_max < 1_000_000,
        "reporting took {} bytes at its peak",
        info.bytes_max
    );
}
