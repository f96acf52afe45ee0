use std::sync::{Arc, Mutex};

use super::*;
use crate::frontend::script;

/// A room: the player at 6,2 by the east wall's gap, a goblin at 2,2 in view.
const ROOM: &str = "title: Room\n\
#########\n\
#.......#\n\
#.g...@..\n\
#.......#\n\
#########\n";

/// What the hooks saw: the state line after each input handled.
#[derive(Default)]
struct Watch(Mutex<Vec<String>>);

impl Hooks for Watch {
    fn handled(&self, app: &mut App) {
        self.0.lock().unwrap().push(script::state_line(app));
    }

    fn ending(&self) -> bool {
        true
    }
}

/// Plays `input` on [`ROOM`] with seed 3: what was written, the recording's lines, and the
/// state lines the hooks saw.
fn play(input: &str) -> (String, Vec<String>, Vec<String>) {
    let recorder = Mutex::new(Recorder::new(None, 3, None, false).unwrap());
    let watch = Watch::default();
    let make = |size, progress| {
        let (design, source) = crate::session::open_level_bytes(None, ROOM.as_bytes(), 3).unwrap();
        App::with_progress(design, source, 3, size, progress)
    };
    let mut out = Vec::new();
    let ending = run(
        make,
        &recorder,
        Some(&watch),
        SIZE,
        &mut input.as_bytes(),
        &mut out,
        &Arc::default(),
    )
    .unwrap();
    assert_eq!(ending, Ending::Quit);
    let lines = recorder.lock().unwrap().tape().0.to_vec();
    let states = watch.0.into_inner().unwrap();
    (String::from_utf8(out).unwrap(), lines, states)
}

#[test]
fn keys_are_recorded_and_told_to_the_hooks_as_the_terminal_does() {
    let (out, tape, states) = play("l\nF h\n2*.\n");
    assert_eq!(tape, ["l", "F", "h", ".", "."], "{out}");
    assert_eq!(states.len(), 5, "{out}");
    // The recording replays to the very game the lines played.
    let text = format!("#! ticks: manual\n{}\n", tape.join("\n"));
    let keys = script::parse(text.as_bytes(), "t.keys").unwrap();
    let (design, source) = crate::session::open_level_bytes(None, ROOM.as_bytes(), 3).unwrap();
    let mut app = App::new(design, source, 3, SIZE);
    let output = script::Output::default();
    script::play(&keys, &mut app, SIZE, output, &mut std::io::sink()).unwrap();
    assert_eq!(states.last(), Some(&script::state_line(&app)));
}

#[test]
fn words_and_bad_lines_leave_the_game_alone() {
    let (out, tape, states) = play("look\nmap\nsearch\nhelp\nhelp all\n\n# a note\njump\n");
    assert!(tape.is_empty() && states.is_empty(), "{tape:?} {out}");
    assert!(out.contains("\"jump\" is neither a command nor a key: help lists them.\n"));
    assert!(out.lines().all(|l| l.chars().count() <= WIDTH), "{out}");
}

#[test]
fn a_command_s_name_plays_the_player_s_key_for_it() {
    let (out, tape, _) = play("wait\nClose doors\nmove-w\nset_start\n");
    assert_eq!(tape, [".", "C", "h"], "{out}");
    // The lab's command, with no lab open, is no command here.
    assert!(
        out.contains("\"set_start\" is neither a command nor a key"),
        "{out}"
    );
}

#[test]
fn quit_leaves_at_once_and_the_end_of_input_too() {
    let (_, tape, _) = play("quit\nl\n");
    assert!(tape.is_empty());
    let (_, tape, _) = play("l");
    assert_eq!(tape, ["l"]);
}

#[test]
fn the_log_news_are_said_once_and_a_repeat_with_its_count() {
    // East of the gap is off the map: the same refusal twice folds into one log line.
    let (out, _, _) = play("l\nl\nl\nl\n");
    let said: Vec<&str> = out.lines().collect();
    let refusals: Vec<&&str> = said
        .iter()
        .filter(|l| l.starts_with("There is nothing that way."))
        .collect();
    assert_eq!(
        refusals,
        [
            &"There is nothing that way.",
            &"There is nothing that way. x2"
        ],
        "{out}"
    );
}

#[test]
fn a_monster_coming_into_view_is_said_with_where_it_is() {
    let (out, _, _) = play("");
    assert!(out.contains("A goblin is in view, 4 west.\n"), "{out}");
    assert!(out.contains("Floor 1 of 1: Room.\nHP 30 of 30.\n"), "{out}");
}
