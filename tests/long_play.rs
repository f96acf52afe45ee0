//! Long play: 10,000 turns on a generated cave full of monsters, restarting after each death.
//! No panic, the same output on a second run, and memory that stays flat.

use astar_rogue::app::{App, Source, keymap::Command};
use astar_rogue::game::GameState;
use astar_rogue::generate::{GenKind, GenParams, generate};
use astar_rogue::grid::DIRECTIONS;
use astar_rogue::script::state_line;

const TURNS: u64 = 10_000;

/// Resident memory in KiB, from /proc (Linux, where CI runs).
fn rss_kib() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    pages * 4
}

/// Plays until `TURNS` turns have passed over all games; returns a digest of every state line.
fn play() -> (u64, String, Vec<u64>) {
    let level = generate(&GenParams {
        kind: GenKind::Caves,
        width: 64,
        height: 32,
        seed: 11,
        monsters: 24,
    })
    .unwrap();
    let mut app = App::new(level, Source::generated("long.txt".into()), 11, (100, 30));
    app.run(Command::ToggleOverlay);
    let mut turns = 0u64;
    let mut digest = 0xcbf2_9ce4_8422_2325u64;
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut memory = Vec::new();
    let mut last = app.world.turn;
    while turns < TURNS {
        if app.world.state == GameState::Dead {
            app.run(Command::Restart);
            last = 0;
            continue;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let (dx, dy) = DIRECTIONS[(rng % 8) as usize];
        if rng.is_multiple_of(5) {
            app.run(Command::Wait);
        } else {
            app.run(Command::Move(dx, dy));
        }
        if app.world.turn != last {
            turns += u64::from(app.world.turn - last);
            last = app.world.turn;
            for b in state_line(&app).bytes() {
                digest = (digest ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
            }
            if turns.is_multiple_of(1000) {
                memory.push(rss_kib());
            }
        }
        assert!(app.world.log.len() <= 200, "the log is bounded");
    }
    (digest, state_line(&app), memory)
}

#[test]
fn ten_thousand_turns_are_deterministic_with_flat_memory() {
    let (a, last_a, memory) = play();
    let (b, last_b, _) = play();
    assert_eq!(a, b, "same seed, same game");
    assert_eq!(last_a, last_b);
    // After warm-up, resident memory may wobble but not grow with the turn count.
    let (first, end) = (memory[1], *memory.last().unwrap());
    assert!(
        end <= first + 4096,
        "memory grew from {first} KiB to {end} KiB over the run: {memory:?}"
    );
}
