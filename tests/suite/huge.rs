//! A 4096x4096 level (the largest accepted) loads, plays, saves and reloads; A* across it
//! with a cap answers at once.

use std::time::Instant;

use astar_rogue::app::{App, Source, keymap::Action};
use astar_rogue::content::level::design::Design;
use astar_rogue::content::level::{Format, Level, Spawn};
use astar_rogue::content::map::{Tile, TileMap};
use astar_rogue::engine::astar::{Pathfinder, Query, SearchOptions, Status};
use astar_rogue::engine::grid::Pos;

fn huge() -> Level {
    let n = 4096;
    let mut grid = TileMap::new(n, n, Tile::Floor);
    for i in 0..n as i32 {
        for p in [
            Pos::new(i, 0),
            Pos::new(i, n as i32 - 1),
            Pos::new(0, i),
            Pos::new(n as i32 - 1, i),
        ] {
            grid.set(p, Tile::Wall);
        }
        // Long walls with gaps make the far searches work for their answer.
        if i % 512 == 256 {
            for y in 1..n as i32 - 8 {
                grid.set(Pos::new(i, y), Tile::Wall);
            }
        }
    }
    Level {
        title: Some("huge".into()),
        grid,
        player: Some(Pos::new(10, 10)),
        monsters: vec![
            Spawn {
                pos: Pos::new(14, 12),
                kind: 'g',
            },
            Spawn {
                pos: Pos::new(300, 40),
                kind: 'o',
            },
        ],
        features: Vec::new(),
        notes: Vec::new(),
    }
}

#[test]
fn the_largest_level_loads_plays_and_saves() {
    let dir = std::env::temp_dir().join(format!("astar-rogue-huge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("huge.txt");
    let level = huge();
    let text = level.to_text();
    std::fs::write(&path, &text).unwrap();
    let (loaded, format) = Level::load(&path).expect("a 4096x4096 level loads");
    assert_eq!(format, Format::Text);
    assert_eq!(loaded, level);

    let mut app = App::new(
        Design::parse(text.as_bytes(), "huge.txt").expect("parses"),
        Source::file(path.clone(), Format::Text, text.into_bytes()),
        1,
        (120, 40),
    );
    for _ in 0..5 {
        app.apply(Action::Wait);
    }
    assert_eq!(app.world().turn(), 5);
    assert!(
        app.world()
            .monsters()
            .iter()
            .any(|m| m.pos.chebyshev(Pos::new(10, 10)) <= 1)
    );
    app.apply(Action::Save);
    assert_eq!(app.world().log().last().unwrap().text, "Saved huge.txt.");
    let (saved, _) = Level::load(&path).unwrap();
    assert_eq!(saved.grid, level.grid);
    let _ = std::fs::remove_dir_all(&dir);

    // Corner to corner with a cap: a prompt answer instead of a search of 16 M cells.
    let mut pf = Pathfinder::new();
    let capped = SearchOptions::default().with_cap(Some(50_000));
    pf.find(
        level.grid.cost_grid(),
        Query::new(Pos::new(1, 1), Pos::new(2, 2)).options(capped),
    );
    let t = Instant::now();
    let r = pf.find(
        level.grid.cost_grid(),
        Query::new(Pos::new(1, 1), Pos::new(4094, 4094)).options(capped),
    );
    assert_eq!((r.status, r.expanded), (Status::CapReached, 50_000));
    assert!(
        t.elapsed().as_secs_f64() < 1.0,
        "capped search took {:?}",
        t.elapsed()
    );
}
