//! The replay viewer steps a recording on the same app as `astar-rogue script`: after
//! each input its frame (with the styles) is the one `script --frames all` prints for that
//! input, whether the recording ticks by hand or not; looking into it while paused (the
//! overlay, look mode, the selection) changes nothing of what comes after, and a jump to a
//! turn, forward or back, lands on the frame the replay shows there anyway.

use std::path::Path;

use astar_rogue::frontend::replay::Replay;
use astar_rogue::frontend::script::{self, Frames, Output, RunOptions, buffer_text, styles_text};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

use crate::common::{Scratch, repo};

/// The frames `script --frames all --styles` prints, each with its styles block.
fn script_frames(path: &Path) -> Vec<String> {
    let options = RunOptions {
        output: Output {
            frames: Frames::All,
            state: false,
        },
        styles: true,
        ..RunOptions::default()
    };
    let mut out = Vec::new();
    script::run_file(path, &options, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let mut frames: Vec<String> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("--- frame ") {
            frames.push(String::new());
        } else if !line.starts_with("--- styles ") {
            frames
                .last_mut()
                .expect("a frame header first")
                .push_str(line);
        }
    }
    // A snap prints a frame of its own (the one before it again): the replay has no input
    // there, so those are left out.
    let steps = script::load(path).unwrap().steps;
    let mut kept = Vec::new();
    let mut at = frames.into_iter();
    for step in &steps {
        if matches!(step.action, script::Action::Snap(_)) {
            at.next();
            continue;
        }
        kept.extend(at.by_ref().take(step.repeat as usize));
    }
    assert!(at.next().is_none(), "{}: frames left over", path.display());
    kept
}

fn shown(r: &Replay) -> String {
    let f = r.frame();
    buffer_text(&f) + &styles_text(&f)
}

fn key(c: char) -> Event {
    Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

/// A recording as `play --record` writes one: ticks by hand, a travel cut short, the
/// overlay stepped, a resize.
const RECORDED: &str = "#! level: bracket.txt\n#! size: 80x24\n#! seed: 1\n#! ticks: manual\n#! runs: kept\nh\nk\nclick:7,19\nrelease:7,19\ntick\ntick\ntick\nj\no\n]\n]\nresize:100x30\n. .\n";

#[test]
fn each_frame_of_a_replay_is_the_one_script_prints() {
    let scratch = Scratch::new();
    scratch.copy("levels/bracket.txt");
    let recorded = scratch.write("game.keys", RECORDED);
    // Edits in play (not saved: a replay writes what the recording wrote).
    scratch.copy("levels/pillar.txt");
    let edited = scratch.write(
        "edit.keys",
        "#! level: pillar.txt\n#! seed: 4\ne k w w m e h . U\n",
    );
    for path in [
        recorded,
        repo("tests/scripts/travel.keys"),
        repo("tests/scripts/descent.keys"),
        repo("tests/scripts/overlay.keys"),
        edited,
    ] {
        let want = script_frames(&path);
        let mut r = Replay::open(&path, &RunOptions::default()).unwrap();
        assert_eq!(r.len(), want.len(), "{}", path.display());
        for (i, frame) in want.iter().enumerate() {
            assert!(r.step());
            assert_eq!(&shown(&r), frame, "{} input {}", path.display(), i + 1);
        }
        assert!(r.done() && !r.step());
    }
}

#[test]
fn looking_into_a_paused_replay_changes_nothing_after() {
    let path = repo("tests/scripts/chase_bracket.keys");
    let want = script_frames(&path);
    let mut r = Replay::open(&path, &RunOptions::default()).unwrap();
    for _ in 0..3 {
        r.step();
    }
    // The overlay, look mode and a cursor move: taken, and shown.
    let before = shown(&r);
    assert!(r.look(&key('o')));
    assert!(r.look(&key('x')));
    assert!(r.look(&key('l')));
    assert_ne!(shown(&r), before);
    assert_eq!(r.app().mode(), astar_rogue::app::Mode::Look);
    // Keys that would play are not taken: the game stays where it was.
    assert!(r.look(&Event::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE))));
    let turn = r.app().world().turn();
    assert!(!r.look(&key('.')), "waiting a turn is not looking");
    assert!(!r.look(&key('e')), "editing is not looking");
    assert_eq!(r.app().world().turn(), turn);
    // Going on drops the look: the frames are the recording's again.
    for frame in &want[3..] {
        r.step();
        assert_eq!(&shown(&r), frame);
    }
}

#[test]
fn a_jump_to_a_turn_lands_where_playing_gets() {
    let path = repo("tests/scripts/chase_bracket.keys");
    let mut r = Replay::open(&path, &RunOptions::default()).unwrap();
    assert!(r.seek_turn(5).unwrap());
    assert_eq!(r.replayed().world().turn(), 5);
    let at_five = shown(&r);
    let inputs = r.at();
    assert!(r.seek_turn(8).unwrap());
    assert!(r.seek_turn(5).unwrap(), "back again, from the start");
    assert_eq!((shown(&r), r.at()), (at_five, inputs));
    assert!(!r.seek_turn(100_000).unwrap(), "past the end");
    assert!(r.done());
}
