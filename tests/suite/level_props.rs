//! Property tests of the level formats: text round trips, and no input (random bytes,
//! map-like noise, mutated valid files) makes a parser panic or give an unpositioned error.
//!
//! Case counts default to 1000 per property (seconds in debug); set `PROPTEST_CASES` for more.

use astar_rogue::content::level::{Feature, FeatureKind, Level, Note, ParseError, Spawn};
use astar_rogue::content::map::{TerrainWeights, Tile, TileMap};
use astar_rogue::engine::grid::Pos;
use proptest::prelude::*;
use proptest::sample::Index;

use crate::common;
use common::config;

const FILE: &str = "maps/some level.txt";

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

/// A level as `to_text` can describe it: any tiles, one player and some monsters, stairs and
/// potions on floor cells of their own (each in reading order, as the parser lists them),
/// a one-line title, and messages (at the start or at any cell of the map, in any order).
fn level_strategy(max_w: usize, max_h: usize) -> impl Strategy<Value = Level> {
    (1..=max_w, 1..=max_h)
        .prop_flat_map(|(w, h)| {
            (
                Just((w, h)),
                prop::collection::vec(prop_oneof![6 => Just(Tile::Floor), 3 => Just(Tile::Wall), 2 => Just(Tile::Void), 1 => Just(Tile::Water), 1 => Just(Tile::Brush)], w * h),
                any::<Index>(),
                prop::collection::vec((any::<Index>(), prop_oneof![8 => prop::char::range('a', 'z'), 1 => Just('>'), 1 => Just('!')]), 0..12),
                prop::option::of(prop_oneof![
                    "[ -~]{0,40}",
                    "\\PC{0,20}",
                    any::<String>(),
                    " *title: [a-z:]{0,5}\r?\n? ",
                ]),
                prop::collection::vec((prop::option::of(any::<Index>()), prop_oneof!["[ -~]{0,30}", "\\PC{0,10}", " *message at 1,2: [a-z:]{0,5}\r?\n? "]), 0..4),
                prop::collection::vec((0usize..3, 1u32..=9), 0..3),
            )
        })
        .prop_map(|((w, h), mut tiles, player, spawns, title, notes, costs)| {
            let p = player.index(w * h);
            tiles[p] = Tile::Floor;
            let mut weights = TerrainWeights::DEFAULT;
            for (t, k) in costs {
                weights = weights.with(Tile::TERRAIN[t], k).expect("1..=9");
            }
            let grid = TileMap::from_tiles(w, h, tiles).with_weights(weights);
            let player = grid.pos(p);
            let mut monsters: Vec<Spawn> = Vec::new();
            let mut features: Vec<Feature> = Vec::new();
            for (i, glyph) in spawns {
                let pos = grid.pos(i.index(w * h));
                let free = monsters.iter().all(|m| m.pos != pos) && features.iter().all(|f| f.pos != pos);
                // The file writes them in place of floor: never in water or brush.
                if grid.get(pos) == Tile::Floor && pos != player && free {
                    match FeatureKind::from_glyph(glyph) {
                        Some(kind) => features.push(Feature { pos, kind }),
                        None => monsters.push(Spawn { pos, kind: glyph }),
                    }
                }
            }
            monsters.sort_by_key(|m| (m.pos.y, m.pos.x));
            features.sort_by_key(|f| (f.pos.y, f.pos.x));
            let notes = notes
                .into_iter()
                .filter_map(|(at, text)| Note::new(at.map(|i| grid.pos(i.index(w * h))), &text))
                .collect();
            let mut level = Level {
                title: None,
                grid,
                player: Some(player),
                monsters,
                features,
                notes,
            };
            if let Some(t) = title {
                level.set_title(&t);
            }
            level
        })
}

/// A valid Moving AI file.
fn movingai_strategy() -> impl Strategy<Value = Vec<u8>> {
    (1usize..=16, 1usize..=12)
        .prop_flat_map(|(w, h)| {
            (
                Just((w, h)),
                prop::collection::vec(prop::sample::select(b".GSTW@O".to_vec()), w * h),
                any::<bool>(),
            )
        })
        .prop_map(|((w, h), cells, crlf)| {
            let nl: &[u8] = if crlf { b"\r\n" } else { b"\n" };
            let mut out = Vec::new();
            for line in [
                "type octile".to_string(),
                format!("height {h}"),
                format!("width {w}"),
                "map".to_string(),
            ] {
                out.extend_from_slice(line.as_bytes());
                out.extend_from_slice(nl);
            }
            for row in cells.chunks(w) {
                out.extend_from_slice(row);
                out.extend_from_slice(nl);
            }
            out
        })
}

/// Bytes that look like level files: map glyphs, header fragments, digits, line ends, tabs,
/// control bytes and broken UTF-8.
fn maplike_bytes() -> impl Strategy<Value = Vec<u8>> {
    let token = prop_oneof![
        8 => prop::sample::select(b"#.@ abz\n".to_vec()).prop_map(|b| vec![b]),
        2 => prop::sample::select(
            b"\r\t;:xX0123456789TWOGSAZ{~\"\x00\x7f".to_vec()
        ).prop_map(|b| vec![b]),
        1 => prop::sample::select(vec![
            &b"title: "[..], b"size: ", b"size: 4x3\n", b"size: 0x9\n", b"size: 9999x9999\n",
            b"size:\n", b"SIZE: 1x1\n", b"type octile\n", b"height 3\n", b"width 4\n",
            b"map\n", b"height 99999999999999999999\n", b"\xff", b"\xc3", b"\xe2\x82",
            b"\xf0\x9f\x98\x80", b"\xc3\xa9", b"\r\n", b"; comment\n",
            b"message: hi\n", b"message:\n", b"message at 1,1: x\n", b"message at ",
            b"message at 99,0: far\n", b"message at -1,2: a\n", b"message 1,1: y\n",
            b"cost: ~ 4\n", b"cost: \" 9\n", b"cost: . 2\n", b"cost: ~ 0\n", b"cost: # 3\n", b"cost: ",
        ]).prop_map(|s| s.to_vec()),
    ];
    prop::collection::vec(token, 0..400).prop_map(|ts| ts.concat())
}

#[derive(Debug, Clone)]
enum Edit {
    Insert(Index, Vec<u8>),
    Delete(Index, usize),
    Replace(Index, u8),
    Run(Index, u8, usize),
    Truncate(Index),
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    let special = prop::sample::select(vec![
        &b"\r"[..],
        b"\t",
        b"\n",
        b"\r\n",
        b"\xff",
        b"\xc3",
        b"\xe2\x82\xac",
        b"\xed\xa0\x80",
        b"@",
        b":",
        b";",
        b"size: 3x3\n",
        b"title: x\n",
        b"message at 0,0: m\n",
        b"\n\n\n",
        b"\0",
    ])
    .prop_map(|s| s.to_vec());
    prop_oneof![
        3 => (any::<Index>(), prop_oneof![special, prop::collection::vec(any::<u8>(), 1..8)])
            .prop_map(|(i, b)| Edit::Insert(i, b)),
        2 => (any::<Index>(), 1usize..20).prop_map(|(i, n)| Edit::Delete(i, n)),
        3 => (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Edit::Replace(i, b)),
        1 => (
            any::<Index>(),
            prop::sample::select(b"#. @a\n\r\t\xff".to_vec()),
            prop_oneof![1usize..100, 8000usize..8400],
        )
            .prop_map(|(i, b, n)| Edit::Run(i, b, n)),
        1 => any::<Index>().prop_map(Edit::Truncate),
    ]
}

fn apply(bytes: &mut Vec<u8>, edit: &Edit) {
    let at = |i: &Index, len: usize| i.index(len + 1);
    match edit {
        Edit::Insert(i, b) => {
            let p = at(i, bytes.len());
            bytes.splice(p..p, b.iter().copied());
        }
        Edit::Delete(i, n) => {
            let p = at(i, bytes.len());
            let end = (p + n).min(bytes.len());
            bytes.drain(p..end);
        }
        Edit::Replace(i, b) => {
            if !bytes.is_empty() {
                let p = i.index(bytes.len());
                bytes[p] = *b;
            }
        }
        Edit::Run(i, b, n) => {
            let p = at(i, bytes.len());
            bytes.splice(p..p, std::iter::repeat_n(*b, *n));
        }
        Edit::Truncate(i) => {
            let p = at(i, bytes.len());
            bytes.truncate(p);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

fn check_error(bytes: &[u8], e: &ParseError) -> Result<(), TestCaseError> {
    let lines = common::source_lines(bytes);
    prop_assert_eq!(&e.file, FILE);
    prop_assert!(e.line >= 1, "line 0: {:?}", e);
    prop_assert!(e.col >= 1, "col 0: {:?}", e);
    prop_assert!(
        e.line <= lines.len() + 1,
        "line {} past the end ({} lines): {:?}",
        e.line,
        lines.len(),
        e
    );
    let line = lines.get(e.line - 1).map(String::as_str);
    prop_assert!(
        common::check_excerpt(e, line).is_ok(),
        "{}",
        common::check_excerpt(e, line).unwrap_err()
    );
    let shown = e.to_string();
    let head = format!("{}:{}:{}: ", e.file, e.line, e.col);
    prop_assert!(
        shown.starts_with(&head),
        "{:?} does not start with {:?}",
        shown,
        head
    );
    prop_assert!(e.headline().starts_with(&head));
    // The excerpt shows the line number and a caret.
    prop_assert!(
        shown.lines().count() == 4 && shown.ends_with('^'),
        "{}",
        shown
    );
    Ok(())
}

/// Every parser on the same bytes: no panic, and errors are positioned.
fn parse_all(bytes: &[u8]) -> Result<(), TestCaseError> {
    match Level::parse(bytes, FILE) {
        Ok(l) => {
            prop_assert!(l.player.is_some());
            prop_assert!(l.grid.width() >= 1 && l.grid.height() >= 1);
            prop_assert!(l.player.is_some_and(|p| l.grid.is_passable(p)));
            for m in &l.monsters {
                prop_assert!(l.grid.is_passable(m.pos) && m.kind.is_ascii_lowercase());
            }
            // Whatever parsed, prints and parses back the same.
            let again = Level::parse(l.to_text().as_bytes(), FILE);
            prop_assert_eq!(again.as_ref(), Ok(&l), "reparse of\n{}", l.to_text());
        }
        Err(e) => check_error(bytes, &e)?,
    }
    match Level::parse_movingai(bytes, FILE) {
        Ok(l) => {
            prop_assert_eq!(l.player, None);
            prop_assert!(l.monsters.is_empty() && l.title.is_none());
        }
        Err(e) => check_error(bytes, &e)?,
    }
    match Level::parse_any(bytes, FILE) {
        Ok(_) => {}
        Err(e) => check_error(bytes, &e)?,
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn text_round_trips(level in level_strategy(30, 20)) {
        let text = level.to_text();
        let back = Level::parse(text.as_bytes(), FILE);
        prop_assert_eq!(back.as_ref(), Ok(&level), "text:\n{}", text);
        let any = Level::parse_any(text.as_bytes(), FILE).map(|(l, _)| l);
        prop_assert_eq!(any.as_ref(), Ok(&level));
        // CRLF line ends read the same.
        let crlf = text.replace('\n', "\r\n");
        let crlf_back = Level::parse(crlf.as_bytes(), FILE);
        prop_assert_eq!(crlf_back.as_ref(), Ok(&level));
    }

    #[test]
    fn to_text_prints_what_glyph_at_shows(
        level in level_strategy(30, 20),
        extra in prop::collection::vec((-2i32..33, -2i32..23, prop::char::range('a', 'z')), 0..12),
        extra_features in prop::collection::vec((-2i32..33, -2i32..23, prop::sample::select(FeatureKind::ALL.to_vec())), 0..6),
        player in prop::option::of((-2i32..33, -2i32..23)),
    ) {
        // Creatures and features anywhere, even stacked on each other or outside the grid:
        // each cell prints as `glyph_at` shows it, rows trimmed of trailing void.
        let mut level = level;
        level.monsters.extend(extra.into_iter().map(|(x, y, kind)| Spawn { pos: Pos::new(x, y), kind }));
        level.features.extend(extra_features.into_iter().map(|(x, y, kind)| Feature { pos: Pos::new(x, y), kind }));
        if let Some((x, y)) = player {
            level.player = Some(Pos::new(x, y));
        }
        let (w, h) = (level.grid.width(), level.grid.height());
        let mut want = String::new();
        if let Some(t) = &level.title {
            want.push_str(&format!("title: {t}\n"));
        }
        for n in &level.notes {
            match n.at {
                Some(p) => want.push_str(&format!("message at {p}: {}\n", n.text)),
                None => want.push_str(&format!("message: {}\n", n.text)),
            }
        }
        // Weights other than the defaults (floor 1, water 3, brush 2), in that order.
        for (t, glyph, default) in [(Tile::Floor, '.', 1), (Tile::Water, '~', 3), (Tile::Brush, '"', 2)] {
            let k = level.grid.weights().get(t);
            if k != default {
                want.push_str(&format!("cost: {glyph} {k}\n"));
            }
        }
        want.push_str(&format!("size: {w}x{h}\nmap:\n"));
        for y in 0..h {
            let row: String = (0..w).map(|x| level.glyph_at(Pos::new(x as i32, y as i32))).collect();
            want.push_str(row.trim_end_matches(' '));
            want.push('\n');
        }
        prop_assert_eq!(level.to_text(), want);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
        parse_all(&bytes)?;
    }

    #[test]
    fn maplike_bytes_never_panic(bytes in maplike_bytes()) {
        parse_all(&bytes)?;
        let mut typed = b"type octile\n".to_vec();
        typed.extend_from_slice(&bytes);
        parse_all(&typed)?;
    }

    #[test]
    fn mutated_levels_never_panic(
        level in level_strategy(24, 16),
        edits in prop::collection::vec(edit_strategy(), 1..6),
    ) {
        let mut bytes = level.to_text().into_bytes();
        for e in &edits {
            apply(&mut bytes, e);
        }
        parse_all(&bytes)?;
    }

    #[test]
    fn movingai_files_parse_and_survive_mutation(
        file in movingai_strategy(),
        edits in prop::collection::vec(edit_strategy(), 0..6),
    ) {
        let l = Level::parse_movingai(&file, FILE);
        prop_assert!(l.is_ok(), "{:?}", l);
        let (any, _) = Level::parse_any(&file, FILE).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(Ok(any), l);
        let mut bytes = file;
        for e in &edits {
            apply(&mut bytes, e);
        }
        parse_all(&bytes)?;
    }
}

// ---------------------------------------------------------------------------------------------
// Exact regression cases
// ---------------------------------------------------------------------------------------------

fn level(rows: &[&str]) -> Level {
    let text: String = rows.iter().map(|r| format!("{r}\n")).collect();
    Level::parse(text.as_bytes(), FILE).expect("valid")
}

#[test]
fn round_trip_keeps_trailing_void_rows_and_columns() {
    let l = level(&["size: 5x4", "#@.", "", " a"]);
    assert_eq!((l.grid.width(), l.grid.height()), (5, 4));
    assert_eq!(Level::parse(l.to_text().as_bytes(), FILE), Ok(l));
}

#[test]
fn round_trip_keeps_leading_void_rows() {
    // The first row is all void: `to_text` prints it as an empty line after `map:`.
    let mut tiles = vec![Tile::Void; 3];
    tiles.extend([Tile::Floor, Tile::Floor, Tile::Wall]);
    let l = Level {
        title: None,
        grid: TileMap::from_tiles(3, 2, tiles),
        player: Some(Pos::new(0, 1)),
        monsters: vec![],
        features: vec![],
        notes: vec![],
    };
    let text = l.to_text();
    assert_eq!(text, "size: 3x2\nmap:\n\n@.#\n");
    assert_eq!(Level::parse(text.as_bytes(), FILE), Ok(l));
}

#[test]
fn errors_point_at_the_offending_character() {
    let e = Level::parse(b"#@#\n#.\xff#\n", FILE).unwrap_err();
    assert_eq!((e.line, e.col), (2, 3));
    assert!(e.to_string().starts_with("maps/some level.txt:2:3: "));
    let e = Level::parse(b"size: 2x1\n.@.\n", FILE).unwrap_err();
    assert_eq!((e.line, e.col), (2, 3));
    let e = Level::parse(b"\xe2\x82\xac\xe2\x82\xac!\n", FILE).unwrap_err();
    assert_eq!((e.line, e.col), (1, 1));
    let e = Level::parse(b"", FILE).unwrap_err();
    assert_eq!((e.line, e.col), (1, 1));
    let e = Level::parse_movingai(b"type octile\nheight 1\n", FILE).unwrap_err();
    assert_eq!((e.line, e.col), (3, 1));
    let e =
        Level::parse_movingai(b"type octile\nheight 1\nwidth 3\nmap\n..T.\n", FILE).unwrap_err();
    assert_eq!((e.line, e.col), (5, 4));
}

#[test]
fn very_long_lines_are_refused_with_a_position() {
    let mut bytes = b"@".to_vec();
    bytes.extend(std::iter::repeat_n(b'.', 9000));
    let e = Level::parse(&bytes, FILE).unwrap_err();
    assert_eq!((e.line, e.col), (1, 8193));
    assert!(e.to_string().lines().count() == 4);
}

#[test]
fn movingai_bare_dimension_key_points_past_the_line() {
    // `height` with no value: the column should point at most just past the line's end
    // (col 7), not at col 8.
    let e = Level::parse_movingai(b"type octile\nheight\nwidth 3\nmap\n...\n", FILE).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(
        e.col <= "height".len() + 1,
        "col {} on a 6-character line",
        e.col
    );
}

// ---------------------------------------------------------------------------------------------
// Designs edited, resized and linked read back as they are
// ---------------------------------------------------------------------------------------------

/// What the editor may do to a design.
#[derive(Debug, Clone)]
enum DesignOp {
    Tile(Index, Tile),
    Monster(Index, char),
    Resize(i32, i32, i32, i32),
    Next,
}

fn design_op() -> impl Strategy<Value = DesignOp> {
    let tile = prop_oneof![Just(Tile::Floor), Just(Tile::Wall), Just(Tile::Void)];
    prop_oneof![
        6 => (any::<Index>(), tile).prop_map(|(i, t)| DesignOp::Tile(i, t)),
        1 => (any::<Index>(), prop::char::range('a', 'z')).prop_map(|(i, c)| DesignOp::Monster(i, c)),
        2 => (-2i32..=2, -2i32..=2, -2i32..=2, -2i32..=2)
            .prop_map(|(l, t, r, b)| DesignOp::Resize(l, t, r, b)),
        1 => Just(DesignOp::Next),
    ]
}

/// A game with nobody in it: only the design's own rules apply.
struct Nobody;

impl astar_rogue::content::level::design::Occupants for Nobody {
    fn player(&self) -> Pos {
        Pos::new(-1, -1)
    }
    fn monster_origin(&self, _: Pos) -> Option<Option<Pos>> {
        None
    }
}

proptest! {
    #![proptest_config(config(500))]

    /// Whatever the editor does to a file (its size header and `map:` marker perhaps taken
    /// away, comments among its rows), the design writes a text that reads back as the
    /// design: tiles, creatures, messages and the `next:` header.
    #[test]
    fn edited_resized_and_linked_designs_read_back(
        level in level_strategy(6, 5),
        bare in any::<bool>(),
        comments in prop::collection::vec(any::<Index>(), 0..3),
        ops in prop::collection::vec(design_op(), 1..24),
    ) {
        use astar_rogue::content::level::design::{Design, EditOp, Sides};
        let mut lines: Vec<String> = level.to_text().lines().map(str::to_string).collect();
        if bare {
            lines.retain(|l| !l.starts_with("size: ") && l != "map:");
        }
        for i in comments {
            let at = i.index(lines.len() + 1);
            lines.insert(at, "; a comment".into());
        }
        let text = lines.join("\n") + "\n";
        let Ok(mut d) = Design::parse(text.as_bytes(), FILE) else {
            return Ok(());
        };
        prop_assert_eq!(d.to_text(), text.clone(), "unedited, byte for byte");
        for op in ops {
            let cells = d.level().grid.len();
            match op {
                DesignOp::Tile(i, t) => {
                    let p = d.level().grid.pos(i.index(cells));
                    if let Ok(Some(c)) = d.check(EditOp::SetTile(p, t), &Nobody) {
                        d.apply(&c, true);
                    }
                }
                DesignOp::Monster(i, k) => {
                    let p = d.level().grid.pos(i.index(cells));
                    if let Ok(Some(c)) = d.check(EditOp::AddMonster(p, k), &Nobody) {
                        d.apply(&c, true);
                    }
                }
                DesignOp::Resize(left, top, right, bottom) => {
                    let sides = Sides { left, top, right, bottom };
                    if let Ok((resized, _)) = d.resized(sides) {
                        d = resized;
                    }
                }
                DesignOp::Next => d.set_next("below.txt"),
            }
            let out = d.to_text();
            let back = Design::parse(out.as_bytes(), FILE);
            prop_assert!(back.is_ok(), "{:?} after {:?}:\n{}", back.err(), op, out);
            // The file lists creatures in reading order, the design in the order they came.
            let sorted = |l: &Level| {
                let mut l = l.clone();
                l.monsters.sort_by_key(|m| (m.pos.y, m.pos.x));
                l.features.sort_by_key(|f| (f.pos.y, f.pos.x));
                l
            };
            let back = back.unwrap();
            prop_assert_eq!(sorted(back.level()), sorted(d.level()), "after {:?}:\n{}", op, out);
            prop_assert_eq!(back.next(), d.next());
        }
    }
}
