use super::*;

fn parse(src: &str) -> Result<Level, ParseError> {
    Level::parse(src.as_bytes(), "t.txt")
}

fn error(src: &str) -> String {
    parse(src).expect_err("should fail").to_string()
}

#[test]
fn parses_headers_comments_ragged_rows_and_creatures() {
    let l =
        parse("; a comment\ntitle:  Two rooms \n\n#####\n#@.g#\n; inside\n#.\n\n #b\n\n").unwrap();
    assert_eq!(l.title.as_deref(), Some("Two rooms"));
    assert_eq!((l.grid.width(), l.grid.height()), (5, 5));
    assert_eq!(l.player, Some(Pos::new(1, 1)));
    assert_eq!(
        l.monsters,
        vec![
            Spawn {
                pos: Pos::new(3, 1),
                kind: 'g'
            },
            Spawn {
                pos: Pos::new(2, 4),
                kind: 'b'
            }
        ]
    );
    assert_eq!(l.grid.get(Pos::new(3, 1)), Tile::Floor);
    assert_eq!(l.grid.get(Pos::new(4, 2)), Tile::Void);
    assert_eq!(l.grid.get(Pos::new(0, 3)), Tile::Void);
    assert_eq!(l.grid.get(Pos::new(0, 4)), Tile::Void);
    assert_eq!(l.grid.get(Pos::new(1, 4)), Tile::Wall);
}

#[test]
fn stairs_and_potions_are_features_on_floor() {
    let l = parse("#######\n#@!.>!#\n#######\n").unwrap();
    assert_eq!(
        l.features,
        [
            Feature {
                pos: Pos::new(2, 1),
                kind: FeatureKind::Potion
            },
            Feature {
                pos: Pos::new(4, 1),
                kind: FeatureKind::Stairs
            },
            Feature {
                pos: Pos::new(5, 1),
                kind: FeatureKind::Potion
            },
        ]
    );
    assert!(l.monsters.is_empty());
    for x in 2..=5 {
        assert_eq!(l.grid.get(Pos::new(x, 1)), Tile::Floor);
    }
    assert_eq!(l.glyph_at(Pos::new(4, 1)), '>');
    assert_eq!(l.feature_at(Pos::new(3, 1)), None);
    assert_eq!(l.to_text(), "size: 7x3\nmap:\n#######\n#@!.>!#\n#######\n");
    assert_eq!(parse(&l.to_text()).unwrap(), l);
}

#[test]
fn crlf_and_size_header_keep_trailing_void() {
    let l = parse("size: 4x3\r\n#@\r\n").unwrap();
    assert_eq!((l.grid.width(), l.grid.height()), (4, 3));
    assert_eq!(parse(&l.to_text()).unwrap(), l);
}

#[test]
fn unknown_glyph_points_at_its_column() {
    assert_eq!(
        error("####\n#@X#\n"),
        "t.txt:2:3: unknown glyph 'X': use '#' wall, '.' floor, '~' water, '\"' brush, '+' closed door, \"'\" open door, '=' jammed door, '@' player, 'a'-'z' monster, '>' stairs, '!' potion, '&' lure, ',' brush seeds, ')' spike, space void\n  |\n2 | #@X#\n  |   ^"
    );
}

#[test]
fn columns_count_characters_not_bytes() {
    let e = parse("#@é#").unwrap_err();
    assert_eq!((e.line, e.col), (1, 3));
}

#[test]
fn player_count_errors() {
    assert_eq!(
        error("title: x\n####\n#..#\n"),
        "t.txt:2:1: no player: the map needs exactly one '@'\n  |\n2 | ####\n  | ^"
    );
    assert_eq!(
        error("#@.\n.@#\n"),
        "t.txt:2:2: a second player '@' (the first is at 1:2)\n  |\n2 | .@#\n  |  ^"
    );
}

#[test]
fn no_map_at_all() {
    assert_eq!(
        error(""),
        "t.txt:1:1: no map: expected rows of '#', '.', '@' and monster letters\n  |\n1 | \n  | ^"
    );
    let e = parse("; only\n; comments\n\n").unwrap_err();
    assert_eq!((e.line, e.col), (3, 1));
    // The excerpt is the line the error names, whatever it holds.
    assert_eq!(
        error("title: Empty\nsize: 3x3\n"),
        "t.txt:2:1: no map: expected rows of '#', '.', '@' and monster letters\n  |\n2 | size: 3x3\n  | ^"
    );
    let e = parse("map:\n; just a comment").unwrap_err();
    assert_eq!((e.line, e.text.as_str()), (2, "; just a comment"));
}

#[test]
fn invalid_utf8_names_line_and_column() {
    let e = Level::parse(b"#@#\n#.\xff.#\n", "bad.txt").unwrap_err();
    assert_eq!(e.headline(), "bad.txt:2:3: invalid UTF-8");
}

#[test]
fn limits_are_enforced_with_positions() {
    let long = format!("@{}", ".".repeat(MAX_LEVEL_SIDE + 5));
    let e = parse(&long).unwrap_err();
    assert_eq!((e.line, e.col), (1, MAX_LEVEL_SIDE + 1));
    assert!(e.to_string().contains('…'), "long lines are cut: {e}");
    let e = parse("size: 9000x10\n@").unwrap_err();
    assert_eq!(
        e.headline(),
        "t.txt:1:7: map size 9000x10 exceeds the limit of 8192 cells a side"
    );
    let e = parse("size: 5000x5000\n@").unwrap_err();
    assert!(
        e.headline()
            .starts_with("t.txt:1:7: map size 5000x5000 has 25000000 cells")
    );
    // Without `size`: the first row past the side limit, or past the cell limit.
    let tall = format!("@\n{}", ".\n".repeat(MAX_LEVEL_SIDE));
    let e = parse(&tall).unwrap_err();
    assert_eq!(
        e.headline(),
        "t.txt:8193:1: map size 1x8193 exceeds the limit of 8192 cells a side"
    );
    let wide = format!(
        "@{}\n{}",
        ".".repeat(MAX_LEVEL_SIDE - 1),
        "#\n".repeat(2048)
    );
    let e = parse(&wide).unwrap_err();
    assert_eq!((e.line, e.col, e.text.as_str()), (2049, 1, "#"));
    assert!(e.message.contains("more than the limit"), "{e}");
    let e = parse("size: 3x1\n@...\n").unwrap_err();
    assert_eq!(
        e.headline(),
        "t.txt:2:4: row is wider than the size header says (3, line 1)"
    );
    let e = parse("size: 2x1\n@.\n..\n").unwrap_err();
    assert_eq!((e.line, e.col), (3, 1));
    let e = parse("size: big\n@").unwrap_err();
    assert_eq!(
        e.headline(),
        "t.txt:1:7: bad size \"big\": expected WIDTHxHEIGHT, e.g. 40x20"
    );
}

#[test]
fn size_errors_point_at_the_value() {
    // Whatever the spacing, the caret sits on the value's first character.
    assert_eq!(
        error("size:\t 9000x1\n@"),
        "t.txt:1:8: map size 9000x1 exceeds the limit of 8192 cells a side\n  |\n1 | size:  9000x1\n  |        ^"
    );
    assert_eq!(parse("size:0x3\n@").unwrap_err().col, 6);
    // Columns count characters: a non-ASCII space before the value is one column.
    assert_eq!(parse("size:\u{3000}nope\n@").unwrap_err().col, 7);
    // No value at all: just past the end of the line.
    assert_eq!(parse("size:  \n@").unwrap_err().col, 8);
}

#[test]
fn headers_must_come_first_and_be_known() {
    assert_eq!(
        parse("@.\ntitle: late\n").unwrap_err().headline(),
        "t.txt:2:1: header after the map has started"
    );
    assert_eq!(
        parse("colour: red\n@").unwrap_err().headline(),
        "t.txt:1:1: unknown header \"colour\" (known: title, size, map, message, next, cost, kind)"
    );
}

#[test]
fn terrain_glyphs_and_cost_headers_set_the_weights() {
    let l = parse("cost: ~ 5\ncost:\" 1\n#####\n#@~\"#\n#####\n").unwrap();
    assert_eq!(l.grid.get(Pos::new(2, 1)), Tile::Water);
    assert_eq!(l.grid.get(Pos::new(3, 1)), Tile::Brush);
    assert_eq!(l.grid.weight(Pos::new(2, 1)), 5);
    assert_eq!(l.grid.weight(Pos::new(3, 1)), 1);
    assert_eq!(l.grid.weight(Pos::new(1, 1)), 1);
    assert!(l.grid.is_weighted());
    assert_eq!(
        l.to_text(),
        "cost: ~ 5\ncost: \" 1\nsize: 5x3\nmap:\n#####\n#@~\"#\n#####\n"
    );
    assert_eq!(parse(&l.to_text()).unwrap(), l);
    // The defaults: floor 1, water 3, brush 2, and no header written for them.
    let plain = parse("#####\n#@~\"#\n#####\n").unwrap();
    assert_eq!(plain.grid.weight(Pos::new(2, 1)), 3);
    assert_eq!(plain.grid.weight(Pos::new(3, 1)), 2);
    assert!(!plain.to_text().contains("cost"));
    // Floor may weigh more too.
    let heavy = parse("cost: . 2\n@.\n").unwrap();
    assert_eq!(heavy.grid.weight(Pos::new(1, 0)), 2);
}

#[test]
fn bad_cost_headers_point_at_what_is_wrong() {
    for (src, want) in [
        (
            "cost: # 2\n@",
            "t.txt:1:7: '#' has no cost: only '.' floor, '~' water and '\"' brush have one",
        ),
        (
            "cost: ~ 10\n@",
            "t.txt:1:9: bad cost \"10\" for '~': a whole number from 1 to 9",
        ),
        (
            "cost:  ~   0\n@",
            "t.txt:1:12: bad cost \"0\" for '~': a whole number from 1 to 9",
        ),
        (
            "cost: \" x\n@",
            "t.txt:1:9: bad cost \"x\" for '\"': a whole number from 1 to 9",
        ),
        (
            "cost: ~\n@",
            "t.txt:1:8: expected `cost: GLYPH N`, e.g. `cost: ~ 4`, with GLYPH one of . ~ \" and N from 1 to 9",
        ),
        (
            "cost: ~3\n@",
            "t.txt:1:8: expected `cost: GLYPH N`, e.g. `cost: ~ 4`, with GLYPH one of . ~ \" and N from 1 to 9",
        ),
        (
            "cost:\n@",
            "t.txt:1:6: expected `cost: GLYPH N`, e.g. `cost: ~ 4`, with GLYPH one of . ~ \" and N from 1 to 9",
        ),
        (
            "cost: ~ 2\n; again\ncost: ~ 4\n@",
            "t.txt:3:1: a second cost for '~' (the first is on line 1)",
        ),
    ] {
        assert_eq!(parse(src).unwrap_err().headline(), want, "{src:?}");
    }
}

#[test]
fn a_header_given_twice_or_without_its_colon_is_an_error_where_it_is() {
    for (src, want) in [
        (
            "title: A\n; renamed\ntitle: B\n#@#\n",
            "t.txt:3:1: a second title: header (the first is on line 1)",
        ),
        (
            "size: 3x1\nsize: 4x1\n#@#\n",
            "t.txt:2:1: a second size: header (the first is on line 1)",
        ),
        (
            "title The Crypt\n#@#\n",
            "t.txt:1:6: \"title\" with no colon: a header is written `title: ...` (to mean a map \
             row of monsters, put `map:` above it)",
        ),
        (
            "\nmessage at 1,1 hi\n#@#\n",
            "t.txt:2:8: \"message\" with no colon: a header is written `message: TEXT` or \
             `message at X,Y: TEXT` (to mean a map row of monsters, put `map:` above it)",
        ),
    ] {
        assert_eq!(parse(src).unwrap_err().headline(), want, "{src:?}");
    }
    // Letters that only begin like a header, or come after `map:`, are monsters.
    for src in [
        "titles\n@\n",
        "sizes a\n@\n",
        "map:\ntitle b\n@\n",
        "#@#\ntitle b\n",
    ] {
        assert!(parse(src).is_ok(), "{src:?}");
    }
}

#[test]
fn messages_show_at_the_start_or_on_a_cell_and_stay_out_of_the_map() {
    let src = "title: M\nmessage: Welcome:  read on. \nmessage at 3,1: A goblin!\n\
               message  at  1,1 :first cell\n#####\n#@.g#\n#####\n";
    let l = parse(src).unwrap();
    let notes: Vec<(Option<Pos>, &str)> = l.notes.iter().map(|n| (n.at, n.text.as_str())).collect();
    assert_eq!(
        notes,
        [
            (None, "Welcome:  read on."),
            (Some(Pos::new(3, 1)), "A goblin!"),
            (Some(Pos::new(1, 1)), "first cell"),
        ]
    );
    assert_eq!((l.grid.width(), l.grid.height()), (5, 3));
    assert_eq!(
        l.to_text(),
        "title: M\nmessage: Welcome:  read on.\nmessage at 3,1: A goblin!\n\
         message at 1,1: first cell\nsize: 5x3\nmap:\n#####\n#@.g#\n#####\n"
    );
    assert_eq!(parse(&l.to_text()).unwrap(), l);
    // A note may sit on a wall (an edit can put one there); `check` warns about it.
    assert!(parse("message at 0,0: on the wall\n###\n#@#\n").is_ok());
}

#[test]
fn malformed_messages_are_positioned_errors() {
    for (src, want) in [
        (
            "message at 7,1: far\n###\n#@#\n",
            "t.txt:1:12: message cell 7,1 is outside the 3x2 map",
        ),
        (
            "message at 1,-1: up\n#@#\n",
            "t.txt:1:12: message cell 1,-1 is outside the map",
        ),
        (
            "message at x,1: what\n#@#\n",
            "t.txt:1:12: bad cell \"x,1\": expected X,Y, e.g. 12,3",
        ),
        (
            "message 2,1: where\n#@#\n",
            "t.txt:1:9: expected `message: TEXT` or `message at X,Y: TEXT`",
        ),
        (
            "message:   \n#@#\n",
            "t.txt:1:9: empty message: write its text after the colon",
        ),
        (
            "#@#\nmessage: late\n",
            "t.txt:2:1: header after the map has started",
        ),
    ] {
        assert_eq!(parse(src).unwrap_err().headline(), want, "{src:?}");
    }
}

#[test]
fn writes_and_reads_back() {
    let src = "title: Round trip\n#####\n#@.a#\n#..##\n  #\n";
    let l = parse(src).unwrap();
    assert_eq!(
        l.to_text(),
        "title: Round trip\nsize: 5x4\nmap:\n#####\n#@.a#\n#..##\n  #\n"
    );
    assert_eq!(parse(&l.to_text()).unwrap(), l);
}

#[test]
fn moving_ai_maps_load_as_levels() {
    let src = "type octile\nheight 2\nwidth 3\nmap\n.@T\nGS.\n";
    let l = Level::parse_movingai(src.as_bytes(), "m.map").unwrap();
    assert_eq!(l.player, None);
    assert_eq!(l.grid.get(Pos::new(1, 0)), Tile::Void);
    assert_eq!(l.grid.get(Pos::new(2, 0)), Tile::Wall);
    assert_eq!(l.grid.get(Pos::new(1, 1)), Tile::Floor);
    let (_, f) = Level::parse_any(src.as_bytes(), "m.map").unwrap();
    assert_eq!(f, Format::MovingAi);
    let e = Level::parse_movingai(b"type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n", "m.map")
        .unwrap_err();
    assert_eq!(e.headline(), "m.map:6:2: unknown Moving AI glyph 'x'");
    let e =
        Level::parse_movingai(b"type octile\nheight 2\nwidth 3\nmap\n...\n", "m.map").unwrap_err();
    assert_eq!(e.headline(), "m.map:6:1: file ends before all the map rows");
    let e =
        Level::parse_movingai(b"type octile\nheight 1\nwidth 3\nmap\n..\n", "m.map").unwrap_err();
    assert_eq!(
        e.headline(),
        "m.map:5:3: row has 2 cells, the header's width is 3"
    );
}

#[test]
fn shipped_movingai_maps_parse() {
    // The sample that ships with the repository (tests/data/movingai), not the full set CI
    // keeps beside the clone: the tests pass in any clone.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/movingai");
    for (name, size) in [("arena.map", (49, 49)), ("den312d.map", (65, 81))] {
        let (l, format) = Level::load(&dir.join(name)).expect("the shipped sample");
        assert_eq!(format, Format::MovingAi);
        assert_eq!((l.grid.width(), l.grid.height()), size, "{name}");
    }
}

#[test]
fn a_map_marker_keeps_leading_void_rows() {
    let l = parse("size: 3x3\nmap:\n\n\n@.#\n").unwrap();
    assert_eq!(l.player, Some(Pos::new(0, 2)));
    assert_eq!(parse(&l.to_text()).unwrap(), l);
    assert_eq!(
        parse("map:\n@\ntitle: x\n").unwrap_err().headline(),
        "t.txt:3:1: header after the map has started"
    );
}

fn movingai_error(src: &str) -> String {
    Level::parse_movingai(src.as_bytes(), "m.map")
        .unwrap_err()
        .to_string()
}

#[test]
fn moving_ai_size_errors_point_at_the_bad_value() {
    assert_eq!(
        movingai_error("type octile\nheight 9000\nwidth 3\nmap\n"),
        "m.map:2:8: map size 3x9000 exceeds the limit of 8192 cells a side\n  |\n2 | height 9000\n  |        ^"
    );
    // A far larger value says the same thing, not that the number is bad.
    assert_eq!(
        Level::parse_movingai(b"type octile\nheight  20000\nwidth 3\nmap\n", "m.map")
            .unwrap_err()
            .headline(),
        "m.map:2:9: map size 3x20000 exceeds the limit of 8192 cells a side"
    );
    assert_eq!(
        movingai_error("type octile\nheight 3\nwidth 9000\nmap\n"),
        "m.map:3:7: map size 9000x3 exceeds the limit of 8192 cells a side\n  |\n3 | width 9000\n  |       ^"
    );
    let e = Level::parse_movingai(b"type octile\nheight 0\nwidth 3\n", "m.map").unwrap_err();
    assert_eq!((e.line, e.col, e.text.as_str()), (2, 8, "height 0"));
    let e = Level::parse_movingai(b"type octile\nheight 9000\nwidth 0\n", "m.map").unwrap_err();
    assert_eq!((e.line, e.col, e.text.as_str()), (3, 7, "width 0"));
    let e = Level::parse_movingai(b"type octile\nheight 5000\nwidth 5000\n", "m.map").unwrap_err();
    assert_eq!((e.line, e.col), (3, 7));
    assert!(e.message.contains("more than the limit"), "{e}");
    // Not a number at all (or too big for one): a bad value, still at its column.
    let e =
        Level::parse_movingai(b"type octile\nheight 99999999999999999999\n", "m.map").unwrap_err();
    assert_eq!(
        e.headline(),
        "m.map:2:8: bad height \"99999999999999999999\""
    );
}
