use super::*;

fn params(kind: GenKind, width: usize, height: usize, seed: u64, monsters: usize) -> GenParams {
    GenParams::new(kind, width, height, seed).with_monsters(monsters)
}

#[test]
fn kind_names_round_trip() {
    for kind in GenKind::ALL {
        assert_eq!(GenKind::from_name(kind.name()), Some(kind));
        assert_eq!(kind.to_string().parse::<GenKind>(), Ok(kind));
    }
    assert_eq!(GenKind::from_name("mazes"), None);
    assert_eq!(GenKind::Rooms.to_string(), "rooms");
    assert_eq!(
        "cave".parse::<GenKind>(),
        Err(UnknownGenKind("cave".to_string()))
    );
    assert_eq!(
        UnknownGenKind("cave".to_string()).to_string(),
        "unknown kind \"cave\": use caves, cells, rooms, maze, scatter or arena"
    );
}

#[test]
fn next_cycles_through_every_kind() {
    let mut kind = GenKind::Caves;
    let mut seen = Vec::new();
    for _ in 0..GenKind::ALL.len() {
        seen.push(kind);
        kind = kind.next();
    }
    assert_eq!(seen, GenKind::ALL);
    assert_eq!(kind, GenKind::Caves);
}

#[test]
fn densities_parse_as_fractions_or_percentages() {
    for (text, permille) in [
        ("0.3", 300),
        (".3", 300),
        ("30%", 300),
        (" 30 % ", 300),
        ("32.5%", 325),
        ("0.3334", 333),
        ("0", 0),
        ("1", 1000),
        ("100%", 1000),
        ("0%", 0),
    ] {
        let d: Density = text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(d.permille(), permille, "{text:?}");
    }
    for text in [
        "", "%", ".", "x", "-0.1", "0.3.1", "1e-1", "nan", "inf", "0,3", "1.5",
    ] {
        let e = text.parse::<Density>().unwrap_err();
        let want = match text {
            "1.5" => BadShare::Fraction(text.to_string()),
            _ => BadShare::Form(text.to_string()),
        };
        assert_eq!(e, want);
        let e = e.to_string();
        assert!(
            e.starts_with(&format!("bad share {text:?}: ")),
            "{text:?}: {e}"
        );
    }
    let e = "30".parse::<Density>().unwrap_err();
    assert_eq!(e, BadShare::Fraction("30".into()));
    assert!(e.to_string().contains("at most 1"));
    let e = "101%".parse::<Density>().unwrap_err();
    assert_eq!(e, BadShare::Percentage("101%".into()));
    assert!(e.to_string().contains("at most 100%"));
    assert_eq!(
        "9999999999999%".parse::<Density>(),
        Err(BadShare::Form("9999999999999%".into()))
    );
}

#[test]
fn densities_print_as_short_fractions() {
    for (permille, text) in [
        (300, "0.3"),
        (325, "0.325"),
        (5, "0.005"),
        (0, "0"),
        (1000, "1"),
    ] {
        assert_eq!(Density::from_permille(permille).to_string(), text);
        assert_eq!(text.parse::<Density>().unwrap().permille(), permille);
    }
    assert_eq!(Density::from_permille(5000).permille(), 1000);
}

#[test]
fn densities_outside_a_kinds_range_or_for_kinds_without_one_are_refused() {
    let with = |kind, d: &str| {
        let mut p = params(kind, 40, 20, 1, 2);
        p.density = Some(d.parse().unwrap());
        generate(&p)
    };
    let e = with(GenKind::Scatter, "0.6").unwrap_err();
    assert_eq!(
        e.to_string(),
        "scatter takes a density from 0 to 0.5, not 0.6"
    );
    assert!(matches!(
        with(GenKind::Cells, "0.2"),
        Err(GenError::Density { .. })
    ));
    assert!(matches!(
        with(GenKind::Arena, "31%"),
        Err(GenError::Density { .. })
    ));
    for kind in [GenKind::Rooms, GenKind::Maze] {
        let e = with(kind, "0.3").unwrap_err();
        assert_eq!(e, GenError::NoDensity(kind));
        assert!(
            e.to_string()
                .starts_with(&format!("{kind} takes no density"))
        );
    }
    // Both ends of every range generate.
    for kind in GenKind::ALL {
        if let Some(r) = kind.density_range() {
            assert!(r.min <= r.default && r.default <= r.max, "{kind}");
            for d in [r.min, r.max] {
                assert!(with(kind, &d.to_string()).is_ok(), "{kind} at {d}");
            }
        }
    }
}

#[test]
fn titles_name_what_differs_from_the_defaults() {
    let mut p = GenParams::new(GenKind::Scatter, 80, 40, 7);
    assert_eq!(p.title(), "scatter 80x40 seed 7");
    p.density = Some(Density::from_permille(300));
    assert_eq!(
        p.title(),
        "scatter 80x40 seed 7",
        "the default density is not named"
    );
    p.density = Some(Density::from_permille(350));
    p.monsters = 3;
    assert_eq!(p.title(), "scatter 80x40 seed 7 density 0.35 monsters 3");
    assert_eq!(generate(&p).unwrap().title.as_deref(), Some(&*p.title()));
}

#[test]
fn the_span_a_map_needs_is_most_of_it_or_its_interior() {
    assert_eq!(required_span(30), 24);
    assert_eq!(required_span(15), 12);
    assert_eq!(required_span(100), 80);
    // 80% of 10 is all 8 interior cells; of 5, more than the 3 there are.
    assert_eq!(required_span(10), 8);
    assert_eq!(required_span(5), 3);
}

#[test]
fn attempts_that_leave_the_map_empty_or_thin_are_rejected() {
    let blob = TileMap::from_rows(&[
        "##########",
        "#...######",
        "#...######",
        "#...######",
        "##########",
    ]);
    assert!(!fills_map(&blob, GenKind::Rooms, 0.0), "3 of 10 columns");
    let band = TileMap::from_rows(&[
        "##########",
        "#........#",
        "##########",
        "##########",
        "#........#",
        "##########",
    ]);
    // Spans both ways; 16 of 32 interior cells is enough for a 0.3 scatter (70% of its
    // promised 22.4) but not for an empty one (70% of 32).
    assert!(fills_map(&band, GenKind::Rooms, 0.0));
    assert!(fills_map(&band, GenKind::Scatter, 0.3));
    assert!(!fills_map(&band, GenKind::Scatter, 0.0));
}

#[test]
fn sizes_just_outside_the_range_are_refused() {
    for (w, h) in [(9, 5), (10, 4), (1025, 40), (40, 1025), (0, 0)] {
        for kind in GenKind::ALL {
            assert_eq!(
                generate(&params(kind, w, h, 1, 1)),
                Err(GenError::Size {
                    width: w,
                    height: h
                })
            );
        }
    }
}

#[test]
fn hopeless_monster_counts_fail_at_once() {
    // 8x3 interior = 24 cells; a corner player still rules out 4.
    let e = generate(&params(GenKind::Caves, 10, 5, 1, 21)).unwrap_err();
    assert_eq!(
        e,
        GenError::TooManyMonsters {
            requested: 21,
            available: 20
        }
    );
    // Only the early-out reports the best case itself (1022x1022 interior less 4); a map
    // actually carved never leaves its whole interior as one floor region.
    let huge = generate(&params(GenKind::Rooms, 1024, 1024, 1, usize::MAX)).unwrap_err();
    assert_eq!(
        huge,
        GenError::TooManyMonsters {
            requested: usize::MAX,
            available: 1022 * 1022 - 4
        }
    );
}

#[test]
fn error_messages_say_what_to_do() {
    let e = GenError::Size {
        width: 3,
        height: 2,
    };
    assert_eq!(
        e.to_string(),
        "cannot generate a 3x2 map: width must be 10 to 1024 and height 5 to 1024"
    );
    let e = GenError::TooManyMonsters {
        requested: 9,
        available: 4,
    };
    assert!(e.to_string().contains("cannot place 9 monsters: only 4"));
}

#[test]
fn zero_monsters_is_fine() {
    let l = generate(&params(GenKind::Rooms, 10, 5, 3, 0)).unwrap();
    assert!(l.monsters.is_empty());
    assert!(l.player.is_some());
}

#[test]
fn monsters_keep_away_from_the_player_and_each_other() {
    for seed in 0..30 {
        for kind in GenKind::ALL {
            let l = generate(&params(kind, 30, 12, seed, 12)).unwrap();
            let p = l.player.unwrap();
            let mut cells: Vec<Pos> = l.monsters.iter().map(|m| m.pos).collect();
            assert!(cells.iter().all(|&m| m.chebyshev(p) > 1), "{seed} {kind}");
            assert!(cells.iter().all(|&m| l.grid.is_passable(m)));
            let n = cells.len();
            cells.dedup();
            assert_eq!(cells.len(), n, "monsters share a cell");
        }
    }
}

#[test]
fn kinds_favour_the_weak_and_the_deep_ones_wait_for_their_depth() {
    let draw = |depth: u32| {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut counts = [0usize; KINDS.len()];
        for _ in 0..10_000 {
            let k = pick_kind(&mut rng, depth);
            counts[KINDS.iter().position(|m| m.glyph == k).unwrap()] += 1;
        }
        counts
    };
    let at = |c: char| KINDS.iter().position(|k| k.glyph == c).unwrap();
    let first = draw(1);
    // Rats, kobolds, goblins in falling numbers; nothing that lives deeper.
    assert!(
        first[at('r')] > first[at('k')] && first[at('k')] > first[at('g')] && first[at('g')] > 0,
        "{first:?}"
    );
    for (i, k) in KINDS.iter().enumerate() {
        assert_eq!(first[i] > 0, k.depth == 1, "{} at depth 1", k.name);
    }
    let deep = draw(DEEPEST);
    assert!(
        deep.iter().all(|&n| n > 0),
        "every kind at the deepest: {deep:?}"
    );
    assert!(deep[at('r')] > deep[at('t')], "{deep:?}");
}

#[test]
fn every_kind_joins_all_its_floor_at_the_smallest_size() {
    for kind in GenKind::ALL {
        for seed in 0..50 {
            let l = generate(&params(kind, 10, 5, seed, 1))
                .unwrap_or_else(|e| panic!("{kind} seed {seed}: {e}"));
            let regions = Regions::compute(l.grid.cost_grid(), Neighbourhood::Eight);
            assert_eq!(regions.count(), 1, "{kind} seed {seed}");
        }
    }
}

#[test]
fn only_the_largest_region_keeps_its_floor() {
    let g = TileMap::from_rows(&["#####", "#..##", "####.", "#.#..", "#####"]);
    let (g, regions, label) = keep_largest_region(5, 5, g.tiles().to_vec());
    assert_eq!(regions.size(label.unwrap()), 3);
    assert_eq!(
        Regions::compute(g.cost_grid(), Neighbourhood::Eight).count(),
        1
    );
    assert_eq!(g.get(Pos::new(1, 1)), Tile::Wall);
    assert_eq!(g.get(Pos::new(1, 3)), Tile::Wall);
    assert_eq!(g.get(Pos::new(4, 3)), Tile::Floor);
    let (_, _, none) = keep_largest_region(2, 1, vec![Tile::Wall; 2]);
    assert_eq!(none, None);
}

#[test]
fn ranks_pick_cells_in_order_skipping() {
    let labels = [0, 1, 0, 0, Regions::NONE, 0, 0];
    assert_eq!(
        cells_at_ranks(&labels, 0, |i| i == 3, &[0, 2, 3]),
        vec![0, 5, 6]
    );
    assert_eq!(cells_at_ranks(&labels, 1, |_| false, &[0]), vec![1]);
}

fn bare(rows: &[&str]) -> Level {
    Level {
        title: None,
        grid: TileMap::from_rows(rows),
        player: None,
        monsters: Vec::new(),
        features: Vec::new(),
        notes: Vec::new(),
    }
}

#[test]
fn populate_puts_the_player_on_the_largest_region() {
    for seed in 0..20 {
        let mut l = bare(&["..#....", "..#....", "###....", ".##...."]);
        populate(&mut l, seed, 3).unwrap();
        let p = l.player.unwrap();
        assert!(p.x >= 3, "player at {p} is not in the big room");
        assert_eq!(l.monsters.len(), 3);
        assert!(l.monsters.iter().all(|m| m.pos.x >= 3 && m.pos != p));
    }
}

#[test]
fn populate_falls_back_to_adjacent_cells_when_cramped() {
    // A 3-cell corridor: the two monsters must stand next to the player or on far cells.
    let mut l = bare(&["#####", "#...#", "#####"]);
    populate(&mut l, 1, 2).unwrap();
    let p = l.player.unwrap();
    let mut cells: Vec<Pos> = l.monsters.iter().map(|m| m.pos).collect();
    cells.push(p);
    cells.sort();
    assert_eq!(cells, vec![Pos::new(1, 1), Pos::new(2, 1), Pos::new(3, 1)]);
    let mut l = bare(&["#####", "#...#", "#####"]);
    assert_eq!(
        populate(&mut l, 1, 3),
        Err(GenError::TooManyMonsters {
            requested: 3,
            available: 2
        })
    );
}

#[test]
fn populate_keeps_what_the_level_has() {
    let mut l = bare(&[".....", "....."]);
    l.player = Some(Pos::new(0, 0));
    l.monsters.push(Spawn {
        pos: Pos::new(4, 1),
        kind: 'z',
    });
    let before = l.clone();
    populate(&mut l, 9, 5).unwrap();
    assert_eq!(l, before);
}

#[test]
fn populate_never_starts_the_player_on_a_monster() {
    for seed in 0..20 {
        let mut l = bare(&["..", "#."]);
        l.monsters = vec![
            Spawn {
                pos: Pos::new(0, 0),
                kind: 'r',
            },
            Spawn {
                pos: Pos::new(1, 1),
                kind: 'r',
            },
        ];
        populate(&mut l, seed, 4).unwrap();
        assert_eq!(l.player, Some(Pos::new(1, 0)));
    }
    let mut full = bare(&[".#"]);
    full.monsters.push(Spawn {
        pos: Pos::new(0, 0),
        kind: 'o',
    });
    assert_eq!(populate(&mut full, 0, 1), Err(GenError::NoFloor));
}

#[test]
fn populate_reports_missing_floor_and_a_walled_in_player() {
    let mut walls = Level {
        grid: TileMap::new(4, 4, Tile::Wall),
        ..bare(&["."])
    };
    assert_eq!(populate(&mut walls, 0, 1), Err(GenError::NoFloor));
    let mut l = bare(&["#.."]);
    l.player = Some(Pos::new(0, 0));
    assert_eq!(
        populate(&mut l, 0, 1),
        Err(GenError::PlayerOffFloor(Pos::new(0, 0)))
    );
}
