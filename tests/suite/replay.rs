//! The replay viewer steps a recording on the same app as `astar-rogue script`: after
//! each input its frame (with the styles) is the one `script --frames all` prints for that
//! input, whether the recording ticks by hand or not; looking into it while paused (the
//! overlay, look mode, the selection) changes nothing of what comes after, and a jump to a
//! turn, forward or back, lands on the frame `script` prints when the game reaches it.

use std::path::Path;

use astar_rogue::frontend::replay::Replay;
use astar_rogue::frontend::script::{self, Frames, Output, RunOptions, buffer_text, styles_text};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

use crate::common::{Scratch, repo};

/// The frames `script --frames all --styles` prints, each with its styles block.
fn script_frames(path: &Path) -> Vec<String> {
    script_frames_at_turns(path)
        .into_iter()
        .map(|(_, f)| f)
        .collect()
}

/// The frames `script --frames all --styles --state` prints, each with its styles block,
/// and the game's turn when it was drawn (from the state lines `--state` prints as the
/// turn moves).
fn script_frames_at_turns(path: &Path) -> Vec<(u32, String)> {
    let options = RunOptions {
        output: Output {
            frames: Frames::All,
            state: true,
        },
        styles: true,
        ..RunOptions::default()
    };
    let mut out = Vec::new();
    script::run_file(path, &options, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let mut frames: Vec<(u32, String)> = Vec::new();
    let mut turn = 0;
    for line in text.split_inclusive('\n') {
        if let Some(state) = line.strip_prefix("{\"turn\":") {
            let digits: String = state.chars().take_while(char::is_ascii_digit).collect();
            turn = digits.parse().expect("a state line starts with the turn");
        } else if line.starts_with("--- frame ") {
            frames.push((turn, String::new()));
        } else if !line.starts_with("--- styles ") {
            frames
                .last_mut()
                .expect("a frame header first")
                .1
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
    assert_eq!(r.app().screen().mode(), astar_rogue::app::Mode::Look);
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
fn a_jump_to_a_turn_shows_the_frame_script_prints_at_that_turn() {
    let path = repo("tests/scripts/chase_bracket.keys");
    let want = script_frames_at_turns(&path);
    let mut r = Replay::open(&path, &RunOptions::default()).unwrap();
    // Forward, forward again, back (from the start), and forward to the last turn.
    for turn in [5, 12, 3, 16] {
        let i = want
            .iter()
            .position(|(t, _)| *t == turn)
            .unwrap_or_else(|| panic!("the recording reaches turn {turn}"));
        assert!(r.seek_turn(turn).unwrap(), "turn {turn}");
        assert_eq!(r.replayed().world().turn(), turn);
        // Landed on the input that first reached the turn, showing script's frame for it.
        assert_eq!(r.at(), i + 1, "turn {turn}");
        assert_eq!(shown(&r), want[i].1, "turn {turn}");
    }
    assert!(!r.seek_turn(100_000).unwrap(), "past the end");
    assert!(r.done());
}
