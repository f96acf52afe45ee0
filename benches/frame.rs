//! Drawing one full 200x60 frame with the search overlay and the inspector on, on a 256x256
//! cave level: the budget is a small fraction of a 60 fps frame (16.7 ms).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use astar_rogue::app::{App, Source, keymap::Command};
use astar_rogue::generate::{GenKind, GenParams, generate};

fn bench(c: &mut Criterion) {
    let level = generate(&GenParams {
        kind: GenKind::Caves,
        width: 256,
        height: 256,
        seed: 7,
        monsters: 100,
    })
    .expect("the cave generates");
    let size = (200, 60);
    let mut app = App::new(level, Source::generated("bench.txt".into()), 7, size);
    let mut plain = Terminal::new(TestBackend::new(size.0, size.1)).expect("test terminal");
    let mut g = c.benchmark_group("frame_200x60");
    g.bench_function("plain", |b| {
        b.iter(|| {
            plain
                .draw(|f| f.render_widget(black_box(&app), f.area()))
                .map(|_| ())
        })
    });
    app.run(Command::ToggleOverlay);
    let expanded = app.world.trace.as_ref().map_or(0, |t| t.expansions());
    println!("frame: overlay shows a search of {expanded} expansions");
    let mut overlay = Terminal::new(TestBackend::new(size.0, size.1)).expect("test terminal");
    g.bench_function("overlay_and_inspector", |b| {
        b.iter(|| {
            overlay
                .draw(|f| f.render_widget(black_box(&app), f.area()))
                .map(|_| ())
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
