//! Long play: 10,000 turns on a generated cave full of monsters, restarting after each game.
//! No panic, the same output on a second run, and memory that stays flat. For the first
//! 2,000 turns of each game the player is healed and never attacks, so every monster keeps
//! chasing it and the log fills before the monsters win.

use astar_rogue::app::{App, Source, keymap::Action};
use astar_rogue::content::generate::{GenKind, GenParams, generate};
use astar_rogue::content::level::design::Design;
use astar_rogue::engine::grid::DIRECTIONS;
use astar_rogue::frontend::script::state_line;
use astar_rogue::game::{GameState, LOG_LIMIT};

const TURNS: u64 = 10_000;

/// Turns of each game in which the player is healed.
const HEALED_TURNS: u32 = 2_000;

/// Resident memory in KiB, from /proc (Linux, where CI runs).
fn rss_kib() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm (Linux)");
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .expect("resident pages in statm");
    pages * 4
}

/// What one long play did.
struct Played {
    digest: u64,
    last: String,
    memory: Vec<u64>,
    restarts: u32,
    longest_game: u32,
    longest_log: usize,
}

/// Plays until `TURNS` turns have passed over all games; digests every state line.
fn play() -> Played {
    let level = generate(&GenParams {
        kind: GenKind::Caves,
        width: 64,
        height: 32,
        seed: 11,
        monsters: 24,
        density: None,
        terrain: None,
        depth: astar_rogue::content::generate::DEEPEST,
    })
    .unwrap();
    let mut app = App::new(
        Design::new(level),
        Source::generated("long.txt".into()),
        11,
        (100, 30),
    );
    app.apply(Action::ToggleOverlay);
    let mut turns = 0u64;
    let mut digest = 0xcbf2_9ce4_8422_2325u64;
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut memory = Vec::new();
    let mut last = app.world().turn();
    let (mut restarts, mut longest_game, mut longest_log) = (0, 0, 0);
    while turns < TURNS {
        // A game ends in death, or in victory should the wandering kill every monster.
        if app.world().state() != GameState::Playing {
            restarts += u32::from(app.world().state() == GameState::Dead);
            app.apply(Action::Restart);
            last = 0;
            continue;
        }
        if app.world().turn() < HEALED_TURNS {
            let hp = app.world().player().hp;
            app.session_mut().world_mut().heal(20 - hp);
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let (dx, dy) = DIRECTIONS[(rng % 8) as usize];
        // While healed the player never attacks, so the monsters stay to chase it.
        let target = app.world().player().pos.offset(dx, dy);
        let spares = app.world().turn() < HEALED_TURNS && app.world().monster_at(target).is_some();
        if rng.is_multiple_of(5) || spares {
            app.apply(Action::Wait);
        } else {
            app.apply(Action::Move(dx, dy));
        }
        if app.world().turn() != last {
            turns += u64::from(app.world().turn() - last);
            last = app.world().turn();
            for b in state_line(&app).bytes() {
                digest = (digest ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
            }
            if turns.is_multiple_of(1000) {
                memory.push(rss_kib());
            }
        }
        assert!(app.world().log().len() <= LOG_LIMIT, "the log is bounded");
        longest_game = longest_game.max(app.world().turn());
        longest_log = longest_log.max(app.world().log().len());
    }
    Played {
        digest,
        last: state_line(&app),
        memory,
        restarts,
        longest_game,
        longest_log,
    }
}

#[test]
fn ten_thousand_turns_are_deterministic_with_flat_memory() {
    let a = play();
    let b = play();
    assert_eq!(a.digest, b.digest, "same seed, same game");
    assert_eq!(a.last, b.last);
    // Long games, a full log and restarts all happened.
    assert!(
        a.longest_game >= HEALED_TURNS,
        "longest game {} turns",
        a.longest_game
    );
    assert_eq!(a.longest_log, LOG_LIMIT, "the log reached its limit");
    assert!(a.restarts >= 1, "no game was lost");
    let memory = a.memory;
    // After warm-up, resident memory may wobble but not grow with the turn count.
    let (first, end) = (memory[1], *memory.last().unwrap());
    assert!(
        end <= first + 4096,
        "memory grew from {first} KiB to {end} KiB over the run: {memory:?}"
    );
}
