//! Drawing one full 200x60 frame with the search overlay and the inspector on, on a 256x256
//! cave level: the budget is a small fraction of a 60 fps frame (16.7 ms). Measured plain,
//! with the overlay as most frames draw it (its replay cached), and as the first frame after
//! a turn draws it (the search replayed).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use astar_rogue::app::{App, Source, keymap::Action};
use astar_rogue::content::level::design::Design;

mod common;

fn bench(c: &mut Criterion) {
    let level = common::cave_256();
    let size = (200, 60);
    let mut app = App::new(
        Design::new(level),
        Source::generated("bench.txt".into()),
        7,
        size,
    );
    let mut plain = Terminal::new(TestBackend::new(size.0, size.1)).expect("test terminal");
    let mut g = c.benchmark_group("frame_200x60");
    g.bench_function("plain", |b| {
        b.iter(|| {
            plain
                .draw(|f| f.render_widget(black_box(&app), f.area()))
                .map(|_| ())
        })
    });
    app.apply(Action::ToggleOverlay);
    let expanded = app.world().trace().map_or(0, |t| t.expansions());
    println!("frame: overlay shows a search of {expanded} expansions");
    let mut overlay = Terminal::new(TestBackend::new(size.0, size.1)).expect("test terminal");
    // The replayed search is cached between frames until it or the step changes, so this
    // is any frame but the first after a turn.
    g.bench_function("overlay_and_inspector", |b| {
        b.iter(|| {
            overlay
                .draw(|f| f.render_widget(black_box(&app), f.area()))
                .map(|_| ())
        })
    });
    // The first frame after a turn (or a step of the overlay) replays the search anew.
    g.bench_function("overlay_and_inspector_first_frame_after_a_turn", |b| {
        b.iter(|| {
            app.ui().forget_snapshot();
            overlay
                .draw(|f| f.render_widget(black_box(&app), f.area()))
                .map(|_| ())
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
