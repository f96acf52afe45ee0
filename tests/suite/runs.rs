//! Kept runs: a run played, left, saved and resumed goes on exactly as the same inputs
//! without the break (frames with their styles, the game's whole state), whatever the
//! level, the seed and the break point (mid-travel, on a later floor, after a level save
//! and a reload of outside edits, through the quit question); a save that cannot be used
//! is refused with a reason and left in place; two runs ending at once are both scored.
//!
//! The game here is driven as the terminal loop drives it: every input goes to the
//! recorder, the app handles it, the recorder commits it and the keeper notes it; the save
//! is what the keeper writes when the game ends, and the resumed game is what `play`
//! rebuilds from it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use astar_rogue::app::{App, DiskPoll};
use astar_rogue::frontend::keep::{self, Keeper, Start};
use astar_rogue::frontend::record::Recorder;
use astar_rogue::frontend::script::{self, Action, state_line};
use astar_rogue::game::Planning;
use astar_rogue::session::data;
use astar_rogue::session::save::{Kept, RunSave, SaveError, Slot};
use crossterm::event::Event;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

use crate::common::{Scratch, fresh, repo};

/// A game as the terminal plays it, with its recorder and keeper.
struct Live {
    app: App,
    recorder: Arc<Mutex<Recorder>>,
    keeper: Keeper,
    slot: Slot,
}

fn start_of(level: &Path, seed: u64) -> Start {
    Start {
        level: Some(level.to_path_buf()),
        bytes: std::fs::read(level).unwrap(),
        seed,
        planning: Planning::AStar,
        settings: None,
        settings_file: None,
        recovered: None,
    }
}

impl Live {
    /// A new kept game on `level` (absolute) with `seed`, its data folder `data`.
    fn new(data: &Path, level: &Path, seed: u64, size: (u16, u16)) -> Live {
        Self::new_saving_every(data, level, seed, size, None)
    }

    /// [`Live::new`] whose keeper saves the run after every input (an autosave each time).
    fn forcing_saves(data: &Path, level: &Path, seed: u64, size: (u16, u16)) -> Live {
        Self::new_saving_every(data, level, seed, size, Some(std::time::Duration::ZERO))
    }

    fn new_saving_every(
        data: &Path,
        level: &Path,
        seed: u64,
        size: (u16, u16),
        autosave: Option<std::time::Duration>,
    ) -> Live {
        let start = start_of(level, seed);
        let (design, source) =
            astar_rogue::session::open_level_bytes(Some(level), &start.bytes, seed).unwrap();
        let mut app = App::new(design, source, seed, size);
        app.front_mut().set_keeping(true);
        app.session_mut().keep_io();
        let mut recorder = Recorder::new(Some(level), seed, None, false).unwrap();
        for (k, v) in keep::extra_headers(start.planning, None) {
            recorder = recorder.with_header(k, v);
        }
        recorder = recorder.with_copies(Some(&start.bytes), None);
        recorder.start(size);
        Self::keep(data, level, app, recorder, start, None, autosave)
    }

    fn keep(
        data: &Path,
        level: &Path,
        mut app: App,
        recorder: Recorder,
        start: Start,
        resumed: Option<(
            Option<astar_rogue::session::save::TapeMark>,
            Vec<astar_rogue::session::save::Unscored>,
        )>,
        autosave: Option<std::time::Duration>,
    ) -> Live {
        let slot = Slot::of(data, Some(&level.canonicalize().unwrap()));
        std::fs::create_dir_all(slot.save.parent().unwrap()).unwrap();
        // A process that other tests spawn holds a copy of the lock's descriptor from its
        // fork to its exec: a moment's wait.
        let lock = data::lock(&slot.lock, Some(std::time::Duration::from_secs(2)))
            .unwrap()
            .expect("the slot is free");
        let recorder = Arc::new(Mutex::new(recorder));
        let mut keeper = Keeper::new(
            data.to_path_buf(),
            slot.clone(),
            lock,
            start,
            Arc::clone(&recorder),
            &app,
            resumed,
        );
        if let Some(every) = autosave {
            keeper = keeper.with_autosave(every);
        }
        keeper.handled_and_settled(&mut app);
        Live {
            app,
            recorder,
            keeper,
            slot,
        }
    }

    /// Resumes the run saved in `data` for `level` at terminal size `size`, as `play`
    /// does.
    fn resume(data: &Path, level: &Path, size: (u16, u16)) -> Live {
        let slot = Slot::of(data, Some(&level.canonicalize().unwrap()));
        let Kept::Run(save) = RunSave::read(&slot.save).expect("a save") else {
            panic!("a save of this format")
        };
        let mut app = keep::resume(&save, save.size, Arc::default())
            .unwrap_or_else(|e| panic!("resume: {e}"));
        app.front_mut().set_notice(Some(keep::resumed_notice(
            &save.name,
            save.turn,
            save.depth,
            save.run_seed,
        )));
        let start = Start {
            seed: save.run_seed,
            ..start_of(level, save.run_seed)
        };
        let mut recorder = Recorder::new(Some(level), save.run_seed, None, false).unwrap();
        for (k, v) in keep::extra_headers(start.planning, None) {
            recorder = recorder.with_header(k, v);
        }
        recorder.start(size);
        if app.ui().size() != size {
            let ev = Event::Resize(size.0, size.1);
            // As the terminal does: the resize is an input of the run, on its tape.
            recorder.event(&ev);
            app.handle_event(&ev);
            recorder.commit();
        }
        let resumed = Some((save.tape.clone(), save.ended.clone()));
        Self::keep(data, level, app, recorder, start, resumed, None)
    }

    /// Plays script tokens as the terminal would.
    fn play(&mut self, tokens: &str) {
        for word in tokens.split_whitespace() {
            let (n, body) = match word.split_once('*') {
                Some((n, b)) if n.bytes().all(|c| c.is_ascii_digit()) => (n.parse().unwrap(), b),
                _ => (1, word),
            };
            for _ in 0..n {
                self.input(body);
            }
        }
    }

    fn input(&mut self, token: &str) {
        let rec = |f: &mut dyn FnMut(&mut Recorder)| f(&mut self.recorder.lock().unwrap());
        match script::parse_token(token).unwrap() {
            Action::Event(ev) => {
                rec(&mut |r| r.event(&ev));
                self.app.handle_event(&ev);
                let running = self.app.front().is_running();
                rec(&mut |r| {
                    if running {
                        r.commit()
                    } else {
                        r.commit_as_quit()
                    }
                });
            }
            Action::Resize(w, h) => {
                let ev = Event::Resize(w, h);
                rec(&mut |r| r.event(&ev));
                self.app.handle_event(&ev);
                rec(&mut |r| r.commit());
            }
            Action::Tick => {
                // The terminal ticks only while the app is busy.
                if self.app.is_busy() {
                    rec(&mut |r| r.tick());
                    self.app.tick();
                }
            }
            Action::Reload => {
                // As the terminal loop records a poll of the disk in a kept game.
                if self.app.poll_disk() != DiskPoll::Quiet {
                    rec(&mut |r| r.reload());
                }
            }
            Action::Snap(_) => return,
        }
        // As the terminal loop does: the recording carries the disk's answers, then the
        // keeper notes the input, and the game settles (nothing else is waiting).
        let answers = self.app.session_mut().take_io();
        rec(&mut |r| r.io(answers.clone()));
        self.keeper.handled_and_settled(&mut self.app);
    }

    /// Leaves the game: the keeper saves the run (and the test fails if it cannot).
    fn leave(self) -> String {
        self.keeper.finish().unwrap_or_else(|why| panic!("{why}"))
    }
}

/// The frame the app shows, with its styles.
fn frame(app: &App) -> Buffer {
    let (w, h) = app.ui().size();
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| f.render_widget(app, f.area())).unwrap();
    t.backend().buffer().clone()
}

/// Everything of the game that the player could ever see again, and more: the frame and
/// its styles, the state line, the whole session as a save keeps it (the game with its
/// rolls to come, sight, log, the designs and their files as the game saw them, the undo
/// history), what loading makes again (every monster's plan, the traced search, the
/// turn's figures), the screen, the selection and travel. The level file's folder and
/// the times it was last seen changed are left out: two games played side by side on two
/// copies differ only in those.
fn everything(app: &App) -> String {
    let mut text = everything_raw(app);
    if let Some(dir) = app
        .session()
        .source()
        .path
        .as_deref()
        .and_then(Path::parent)
    {
        text = text.replace(&dir.display().to_string(), "<dir>");
    }
    without_clock(&text)
}

/// `text` with each `YYYYMMDD-HHMMSS` (a morgue file's name says when the run ended) read
/// as `<when>`: two plays of one run may end on either side of a second.
fn without_clock(text: &str) -> String {
    let stamp = |b: &[u8]| {
        b.len() >= 15
            && b[..8].iter().all(u8::is_ascii_digit)
            && b[8] == b'-'
            && b[9..15].iter().all(u8::is_ascii_digit)
    };
    let (bytes, mut out, mut i) = (text.as_bytes(), Vec::new(), 0);
    while i < bytes.len() {
        if stamp(&bytes[i..]) {
            out.extend_from_slice(b"<when>");
            i += 15;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII digits were replaced")
}

#[test]
fn the_clock_in_a_morgue_name_is_not_part_of_a_run() {
    assert_eq!(
        without_clock("morgue-pit-19700101-000140.txt and 20261205-063129 é"),
        "morgue-pit-<when>.txt and <when> é"
    );
}

/// `value` without its `stamp` fields (a file's length and time when last looked at).
fn without_stamps(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            map.remove("stamp");
            map.values_mut().for_each(without_stamps);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(without_stamps),
        _ => {}
    }
}

/// Asserts two `everything` texts are equal, showing where they first part.
#[track_caller]
fn same(a: &str, b: &str, what: &str) {
    if a == b {
        return;
    }
    let at = a
        .char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i);
    let window = |t: &str| {
        let mut from = at.saturating_sub(300).min(t.len());
        while !t.is_char_boundary(from) {
            from -= 1;
        }
        let mut to = (at + 300).min(t.len());
        while !t.is_char_boundary(to) {
            to += 1;
        }
        t[from..to].to_string()
    };
    panic!(
        "{what}: they part at byte {at}:\n--- resumed or broken\n{}\n--- without the break\n{}",
        window(a),
        window(b)
    );
}

fn everything_raw(app: &App) -> String {
    let mut session = serde_json::to_value(app.session()).unwrap();
    without_stamps(&mut session);
    let w = app.world();
    let plans: Vec<_> = w
        .monsters()
        .iter()
        .map(|m| (m.id, m.plan.clone(), m.planned, m.boxed))
        .collect();
    format!(
        "{}\n{}\n{}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?} {:?} {:?} {:?} {} {} {}",
        script::buffer_text(&frame(app)) + &script::styles_text(&frame(app)),
        state_line(app),
        session,
        plans,
        w.trace().map(|t| format!("{t:?}")),
        w.stats(),
        w.planner().distance_map().map(|m| format!("{m:?}")),
        app.screen(),
        app.ui().selected(),
        app.ui().travel(),
        app.ui().overlay(),
        app.ui().camera(),
        app.ui().sight(),
        app.ui().show_path(),
        app.session().unsaved(),
    )
}

/// Plays `before`, leaves (saving), resumes and plays `after`; the same inputs in one go
/// must give the very same game after every input of `after`.
fn break_and_resume(level: &str, seed: u64, before: &str, after: &str) -> (String, String) {
    let scratch = Scratch::new();
    let level = scratch.copy(level);
    break_and_resume_at(&scratch, &level, seed, before, after, &|| {})
}

/// [`break_and_resume`] on a level already in `scratch`.
fn break_and_resume_at(
    scratch: &Scratch,
    level: &Path,
    seed: u64,
    before: &str,
    after: &str,
    between: &dyn Fn(),
) -> (String, String) {
    let level = level.to_path_buf();
    let data = scratch.path().join("data");
    let size = (80, 24);
    let mut once = Live::new(&scratch.path().join("other"), &level, seed, size);
    once.play(before);
    let mut broken = Live::new(&data, &level, seed, size);
    broken.play(before);
    same(&everything(&broken.app), &everything(&once.app), before);
    let said = broken.leave();
    assert!(said.contains("is kept"), "{said}");
    between();
    let mut resumed = Live::resume(&data, &level, size);
    // The first frame says the run was resumed; from the first input on, nothing differs.
    assert!(
        resumed
            .app
            .front()
            .notice()
            .unwrap()
            .starts_with("Resumed your run")
    );
    resumed.app.front_mut().set_notice(None);
    same(
        &everything(&resumed.app),
        &everything(&once.app),
        "right after resuming",
    );
    for word in after.split_whitespace() {
        once.play(word);
        resumed.play(word);
        same(
            &everything(&resumed.app),
            &everything(&once.app),
            &format!("after {before} | ... {word}"),
        );
    }
    (state_line(&once.app), said)
}

#[test]
fn a_resumed_run_goes_on_as_if_never_left() {
    // Several levels and seeds, each broken at a few points.
    for (level, seed, inputs) in [
        ("levels/default.txt", 1, "l l k k . . h j 3*. l"),
        ("levels/default.txt", 77, "l Tab o ] ] x l Esc 4*. h"),
        ("levels/pillar.txt", 5, "h h h . . . h h"),
        ("levels/bracket.txt", 123_456, "h k 2*. o Tab j j"),
        ("tests/levels/troll.txt", 3, "l l 6*. 5*."),
    ] {
        let words: Vec<&str> = inputs.split_whitespace().collect();
        for cut in [1, words.len() / 2, words.len() - 1] {
            let (before, after) = words.split_at(cut);
            break_and_resume(level, seed, &before.join(" "), &after.join(" "));
        }
    }
}

#[test]
fn a_run_left_mid_travel_travels_on() {
    // The rat killed, `>` starts travel to the stairs at the far end of the hall; the
    // terminal runs its steps as ticks; the break falls after three of them, and the
    // resumed game takes the rest from where it stopped, then descends.
    let (level, before) = ("tests/levels/far_stairs.txt", "F l F l F l > 3*tick");
    // The break does fall mid-travel: the same inputs, played as the terminal plays them
    // (ticks one by one), leave travel under way.
    let scratch = Scratch::new();
    let mut probe = Live::new(
        &scratch.path().join("data"),
        &scratch.copy(level),
        4,
        (80, 24),
    );
    probe.play(before);
    assert!(
        probe.app.ui().travel().is_some(),
        "travel ended before the break"
    );
    let (state, _) = break_and_resume(level, 4, before, "20*tick >");
    assert!(state.contains("\"depth\":2"), "{state}");
}

#[test]
fn a_run_left_on_a_later_floor_resumes_there() {
    let (state, _) = break_and_resume("tests/levels/stairs.txt", 3, "l > . . l l > h", "j j k 4*.");
    assert!(state.contains("\"depth\":2"), "{state}");
}

#[test]
fn a_run_left_on_a_designed_floor_below_resumes_there() {
    // A campaign: the stairs of one.txt lead to two.txt (its next: header). The resumed
    // run is on two.txt at depth 2 of 3, though two.txt changed on disk meanwhile: the
    // floor below is the one the game read, from the save's answers.
    let scratch = Scratch::new();
    for f in ["one", "two", "three"] {
        scratch.copy(&format!("tests/levels/campaign/{f}.txt"));
    }
    let level = scratch.path().join("one.txt");
    let two = scratch.path().join("two.txt");
    let (state, _) =
        break_and_resume_at(&scratch, &level, 3, "l . . l l > l", ". l l > . .", &|| {});
    assert!(state.contains("\"depth\":3"), "{state}");
    // Changed while the run was away: the run goes on on the floor its game read.
    let original = std::fs::read(&two).unwrap();
    let (state, _) = break_and_resume_at(&scratch, &level, 3, "l . . l l >", "l . l l", &|| {
        let text = String::from_utf8(original.clone()).unwrap();
        std::fs::write(&two, text.replacen("stairs again", "changed", 1)).unwrap();
    });
    assert!(state.contains("\"depth\":2"), "{state}");
}

#[test]
fn a_run_left_while_a_program_writes_its_level_says_so_again() {
    // The poll finds the level file changed and held open for writing (by this very
    // process): the game says so, and the resumed run says it again at the same point.
    let (_scratch, level, data) = fresh("levels/pillar.txt");
    let mut live = Live::new(&data, &level, 5, (80, 24));
    live.play("h");
    let writer = std::fs::File::options().append(true).open(&level).unwrap();
    writer
        .set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(5))
        .unwrap();
    live.play("reload .");
    let said = |app: &App| {
        app.world()
            .log()
            .iter()
            .filter(|m| m.text.contains("is being written by another program"))
            .count()
    };
    assert_eq!(said(&live.app), 1);
    let check = |app: &App| (state_line(app), app.world().log().to_vec());
    let before = check(&live.app);
    live.leave();
    drop(writer);
    let mut resumed = Live::resume(&data, &level, (80, 24));
    resumed.app.front_mut().set_notice(None);
    assert_eq!(said(&resumed.app), 1);
    assert_eq!(check(&resumed.app), before);
}

#[test]
fn a_run_left_after_saving_its_level_and_taking_outside_edits_resumes_without_the_disk() {
    // Edits saved to the level file mid-run, then an outside edit reloaded: the resumed
    // run replays both from the save's answers, writes nothing and reads nothing.
    // Two copies of the level in two folders: each game saves into its own.
    let scratch = Scratch::new();
    let copy = |dir: &str| {
        let d = scratch.path().join(dir);
        std::fs::create_dir(&d).unwrap();
        let to = d.join("pillar.txt");
        std::fs::copy(repo("levels/pillar.txt"), &to).unwrap();
        to
    };
    let (level_once, level) = (copy("a"), copy("b"));
    let data = scratch.path().join("data");
    let size = (80, 24);
    let mut once = Live::new(&scratch.path().join("other"), &level_once, 5, size);
    let mut broken = Live::new(&data, &level, 5, size);
    for live in [&mut once, &mut broken] {
        live.play("h . e k w e s h");
    }
    same(&everything(&broken.app), &everything(&once.app), "");
    let text = std::fs::read_to_string(&level).unwrap();
    assert_ne!(
        text,
        std::fs::read_to_string(repo("levels/pillar.txt")).unwrap()
    );
    // An outside edit, which both games take (the file is the truth).
    let text = text.replacen("........\n", "...#....\n", 1);
    for (live, file) in [(&mut once, &level_once), (&mut broken, &level)] {
        std::fs::write(file, &text).unwrap();
        // The stamp check needs the time or the length to move; the length does not. A
        // time in the past is also settled at once (untouched for longer than it takes).
        let f = std::fs::File::options().append(true).open(file).unwrap();
        f.set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(5))
            .unwrap();
        // Closed: a file held open for writing is not read (see the test below).
        drop(f);
        live.play("reload l .");
    }
    assert!(once.app.world().turn() > 0);
    same(&everything(&broken.app), &everything(&once.app), "");
    broken.leave();
    let before = std::fs::metadata(&level).unwrap().modified().unwrap();
    let mut resumed = Live::resume(&data, &level, size);
    resumed.app.front_mut().set_notice(None);
    same(&everything(&resumed.app), &everything(&once.app), "");
    assert_eq!(
        std::fs::read_to_string(&level).unwrap(),
        text,
        "nothing was written"
    );
    assert_eq!(
        std::fs::metadata(&level).unwrap().modified().unwrap(),
        before
    );
    for word in ["h", "j", "s", "."] {
        once.play(word);
        resumed.play(word);
        same(&everything(&resumed.app), &everything(&once.app), word);
    }
}

/// `astar-rogue play LEVEL` without a terminal, keeping runs in `data`: its standard
/// error once it has looked at the kept run (it vets the save before it needs a terminal).
fn vetted(level: &Path, data: &Path) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_astar-rogue"))
        .arg("play")
        .arg(level)
        .env(data::DATA_ENV, data)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Finding 2: a game killed right after the player saved the design (`s`) still resumes:
/// the last autosave held the level file's hash from before the save, so the next start
/// said the level had changed. And killed between the level's write and the save's, the
/// file then holding the run's own design, it resumes too.
#[test]
fn a_kill_right_after_a_design_save_still_resumes() {
    let second = std::time::Duration::from_secs(1);
    let (_scratch, level, data) = fresh("levels/pillar.txt");
    let mut live = Live::new_saving_every(&data, &level, 5, (80, 24), Some(second));
    std::thread::sleep(second + std::time::Duration::from_millis(100));
    // Autosaved at this input...
    live.play("h");
    assert!(live.slot.save.exists());
    // ...and the design saved into the level within the second; then the kill.
    live.play(". e k w s");
    assert!(!live.app.session().unsaved(), "saved");
    drop(live);
    let err = vetted(&level, &data);
    assert!(!err.contains("changed since the run was saved"), "{err}");
    assert!(err.contains("the game needs a terminal"), "{err}");
    // Unsaved edits autosaved; the file then written with them (as `s` writes it) and
    // the game killed before its save caught up.
    let (_scratch, level, data) = fresh("levels/pillar.txt");
    let mut live = Live::forcing_saves(&data, &level, 5, (80, 24));
    live.play("h . e k w");
    assert!(live.app.session().unsaved());
    let text = live.app.session().design().to_text();
    drop(live);
    std::fs::write(&level, text).unwrap();
    let err = vetted(&level, &data);
    assert!(!err.contains("changed since the run was saved"), "{err}");
    assert!(err.contains("the game needs a terminal"), "{err}");
}

/// Finding 8: a run that ends while its record cannot be written (here its morgue folder
/// cannot be made) is not deleted: the end screen says how it will be scored, the save
/// keeps it, no morgue file is left half made, and the next start scores it.
#[test]
fn a_run_that_ends_unrecorded_is_kept_and_scored_on_the_next_start() {
    let (_scratch, level, data) = fresh("tests/levels/troll.txt");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("morgue"), "in the way\n").unwrap();
    let mut live = Live::new(&data, &level, 3, (60, 16));
    live.play("l l 20*.");
    assert_eq!(live.app.world().state().name(), "dead");
    let note = live.app.front().end_note().unwrap_or_default().to_string();
    assert!(note.contains("no morgue file"), "{note}");
    assert!(note.contains("scores it"), "{note}");
    let slot = live.slot.clone();
    assert!(slot.save.exists(), "the save went with the run unscored");
    let said = live.leave();
    assert!(said.contains("kept until it is scored"), "{said}");
    assert!(slot.save.exists());
    assert!(
        !data
            .join(astar_rogue::session::scores::SCORES_FILE)
            .exists()
    );
    // The way cleared, the next start scores it, then plays a new run.
    std::fs::remove_file(data.join("morgue")).unwrap();
    let mut g = crate::pty::Pty::spawn(
        &["play".as_ref(), level.as_os_str()],
        &[("ASTAR_ROGUE_DATA", data.as_os_str())],
    );
    g.wait_screen("Turn 0 ", std::time::Duration::from_secs(10));
    g.send(b"q");
    g.wait_exit(std::time::Duration::from_secs(10));
    g.drain(std::time::Duration::from_secs(10));
    assert!(
        g.text()
            .contains("A run that ended unscored is scored now: Killed by a troll"),
        "{}",
        g.text()
    );
    let table = astar_rogue::session::scores::load(&data).unwrap();
    assert_eq!(table.scores.len(), 1);
    let morgue = table.scores[0].morgue.clone().expect("a morgue file");
    assert!(
        std::fs::read_to_string(&morgue)
            .unwrap()
            .contains("Killed by a troll")
    );
    assert!(
        !std::fs::read(morgue.with_extension("keys"))
            .unwrap()
            .is_empty()
    );
    assert!(!slot.save.exists(), "scored, the save goes");
}

#[test]
fn leaving_through_the_quit_question_resumes_without_it() {
    let (scratch, level, data) = fresh("levels/default.txt");
    let size = (80, 24);
    let mut reference = Live::new(&scratch.path().join("other"), &level, 9, size);
    reference.play("l l .");
    let mut live = Live::new(&data, &level, 9, size);
    live.play("l l . q y");
    assert!(!live.app.front().is_running());
    live.leave();
    let mut resumed = Live::resume(&data, &level, size);
    resumed.app.front_mut().set_notice(None);
    assert_eq!(resumed.app.screen().question(), None);
    same(&everything(&resumed.app), &everything(&reference.app), "");
    // And in a terminal of another size: the resize is an input like any other.
    drop(resumed);
    let mut wide = Live::resume(&data, &level, (100, 30));
    reference.play("resize:100x30");
    wide.app.front_mut().set_notice(None);
    same(&everything(&wide.app), &everything(&reference.app), "");
}

#[test]
fn a_run_that_ends_is_scored_with_a_morgue_and_its_save_is_gone() {
    let (_scratch, level, data) = fresh("tests/levels/troll.txt");
    let mut live = Live::new(&data, &level, 3, (60, 16));
    live.play("l l 3*.");
    // An autosave would be here now; a save left by a quit, to see death remove it.
    let save = live.keeper.finish().unwrap();
    assert!(save.contains("is kept"), "{save}");
    assert!(live.slot.save.exists());
    drop(live);
    let mut live = Live::resume(&data, &level, (60, 16));
    live.play("20*.");
    assert_eq!(live.app.world().state().name(), "dead");
    assert!(!live.slot.save.exists(), "death removes the save");
    let note = live
        .app
        .front()
        .end_note()
        .expect("the end screen's note")
        .to_string();
    assert!(note.starts_with("1st of 1 in the scores"), "{note}");
    assert!(script::buffer_text(&frame(&live.app)).contains("1st of 1 in the scores"));
    let table = astar_rogue::session::scores::load(&data).unwrap();
    assert_eq!(table.scores.len(), 1);
    let s = &table.scores[0];
    assert_eq!(
        (s.outcome.as_str(), s.killer.as_deref(), s.seed),
        ("dead", Some("troll"), 3)
    );
    let morgue = s.morgue.clone().expect("a morgue file");
    let text = std::fs::read_to_string(&morgue).unwrap();
    assert!(text.contains("Killed by a troll on depth 1 of 1"), "{text}");
    assert!(text.contains("Seed:    3"), "{text}");
    let keys = morgue.with_extension("keys");
    // The tape beside it replays the whole run, across the break, to the frame the
    // terminal showed at the death but for the note that only the terminal knows.
    let mut out = Vec::new();
    script::run_file(&keys, &script::RunOptions::default(), &mut out).unwrap();
    let replayed = String::from_utf8(out).unwrap();
    let mut shown = live.app.clone();
    shown.front_mut().set_end_note(None);
    let shown = script::buffer_text(&frame(&shown));
    assert_eq!(replayed.split_once('\n').unwrap().1, shown);
    // Leaving now keeps nothing: the run is over.
    let save = live.slot.save.clone();
    assert_eq!(live.leave(), "");
    assert!(!save.exists());
}

/// Writes `text` into the level file as another program would, with a time in the past so
/// that the game's next poll takes it at once (it has settled).
fn edit_outside(level: &Path, text: &str) {
    std::fs::write(level, text).unwrap();
    let f = std::fs::File::options().append(true).open(level).unwrap();
    f.set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(5))
        .unwrap();
}

#[test]
fn a_run_restarted_by_an_outside_edit_ends_as_abandoned_and_is_scored_once() {
    let (_scratch, level, data) = fresh("levels/pillar.txt");
    let outcomes = || -> Vec<(String, u32)> {
        let table = astar_rogue::session::scores::load(&data).unwrap();
        table
            .scores
            .iter()
            .map(|s| (s.outcome.clone(), s.turns))
            .collect()
    };
    let original = std::fs::read_to_string(&level).unwrap();
    let mut live = Live::new(&data, &level, 5, (80, 24));
    live.play("h h .");
    let turn = live.app.world().turn();
    assert!(turn > 0);
    // The file is the truth: the game restarts from it, and the run it replaces ends.
    let edited = original.replacen("........\n", "...#....\n", 1);
    assert_ne!(edited, original);
    edit_outside(&level, &edited);
    live.play("reload");
    assert_eq!(live.app.world().turn(), 0, "restarted from the file");
    assert_eq!(outcomes(), [("abandoned".to_string(), turn)]);
    let table = astar_rogue::session::scores::load(&data).unwrap();
    let morgue = table.scores[0].morgue.clone().expect("a morgue file");
    let text = std::fs::read_to_string(&morgue).unwrap();
    assert!(
        text.contains(&format!("Abandoned on depth 1 of 1, turn {turn}.")),
        "{text}"
    );
    // The new run is played and left: its save's tape holds the reload and the run before.
    live.play("l .");
    assert!(live.leave().contains("is kept"));
    // Resumed, the replay of that tape restarts from the file again, and scores nothing.
    let mut resumed = Live::resume(&data, &level, (80, 24));
    resumed.app.front_mut().set_notice(None);
    assert_eq!(resumed.app.world().turn(), 2);
    resumed.play("h");
    assert_eq!(outcomes().len(), 1, "scored once");
    // An outside edit of the resumed run ends it too, once more.
    let second = resumed.app.world().turn();
    assert!(second > 0);
    edit_outside(&level, &original);
    resumed.play("reload");
    assert_eq!(resumed.app.world().turn(), 0);
    let mut all = outcomes();
    all.sort();
    let mut want = [
        ("abandoned".to_string(), turn),
        ("abandoned".to_string(), second),
    ];
    want.sort();
    assert_eq!(all, want);
    // With unsaved edits in the game, the player is asked; taking the file's level ends
    // the run too.
    resumed.play("h . e k w e");
    assert!(resumed.app.session().unsaved() && resumed.app.world().turn() > 0);
    edit_outside(&level, &edited);
    resumed.play("reload");
    assert!(resumed.app.screen().question().is_some(), "f or k");
    assert_eq!(outcomes().len(), 2, "not before the player chose");
    resumed.play("f");
    assert_eq!(resumed.app.world().turn(), 0);
    assert_eq!(outcomes().len(), 3);
    assert_eq!(resumed.leave(), "", "nothing left to keep");
}

#[test]
fn abandoning_ends_the_run_as_a_loss() {
    let (_scratch, level, data) = fresh("levels/default.txt");
    let mut live = Live::new(&data, &level, 2, (80, 24));
    live.play("l . Q");
    assert!(
        script::buffer_text(&frame(&live.app)).contains("Abandon the run?"),
        "Q asks"
    );
    live.play("y");
    assert_eq!(live.app.world().state().name(), "abandoned");
    // r after that is a new run with the next seed, in progress once it has a turn.
    live.play("r l");
    assert_eq!(
        live.app.world().seed(),
        astar_rogue::game::run::next_run_seed(2)
    );
    // r in the middle of it abandons it too, and so do a generated level (G) and a blank
    // one (C-n) in the middle of a run: each run they replace is in the table, once.
    // The turns of the runs in the table, each an abandoned one, fewest first.
    let abandoned = || {
        let table = astar_rogue::session::scores::load(&data).unwrap();
        assert!(table.scores.iter().all(|s| s.outcome == "abandoned"));
        let mut turns: Vec<u32> = table.scores.iter().map(|s| s.turns).collect();
        turns.sort_unstable();
        turns
    };
    live.play("r y");
    assert_eq!(abandoned(), [1, 2]);
    live.play("l l");
    assert_eq!(live.app.world().turn(), 2);
    live.play("G y");
    assert_eq!(live.app.world().turn(), 0, "a new level: a new run");
    assert_eq!(abandoned(), [1, 2, 2], "G abandons the run it replaces");
    // On the generated level, the first floor the run has.
    live.play("5*.");
    assert_eq!(live.app.world().turn(), 5);
    live.play("C-n y");
    assert_eq!(live.app.world().turn(), 0, "a blank level: a new run");
    assert_eq!(
        abandoned(),
        [1, 2, 2, 5],
        "C-n abandons the run it replaces"
    );
    // Nothing under way: a new level at once, and nothing more to score.
    let blank = live.app.world().grid().tiles().to_vec();
    live.play("G");
    assert_ne!(live.app.world().grid().tiles(), blank, "G made a level");
    assert_eq!(abandoned(), [1, 2, 2, 5]);
}

#[test]
fn a_game_left_with_no_run_kept_leaves_no_lock_behind() {
    let (_scratch, level, data) = fresh("levels/pillar.txt");
    // Left at turn 0: no save, and no lock file (the folder is as empty as before).
    let live = Live::new(&data, &level, 5, (80, 24));
    let slot = live.slot.clone();
    assert!(slot.lock.exists(), "held while the game runs");
    assert_eq!(live.leave(), "");
    assert!(!slot.save.exists());
    assert!(!slot.lock.exists(), "the lock of a game that kept nothing");
    // Left in progress: the save is kept, and the lock file with it (the next game of
    // the level takes it).
    let mut live = Live::new(&data, &level, 5, (80, 24));
    live.play("h");
    assert!(live.leave().contains("is kept"));
    assert!(slot.save.exists() && slot.lock.exists());
    // Resumed and played to its end: the save goes, and the lock too.
    let mut live = Live::resume(&data, &level, (80, 24));
    live.play("Q y");
    assert_eq!(live.app.world().state().name(), "abandoned");
    assert_eq!(live.leave(), "");
    assert!(!slot.save.exists());
    assert!(!slot.lock.exists());
}

#[test]
fn a_run_that_cannot_be_kept_says_why_and_leaves_the_old_save_as_it_was() {
    let (_scratch, level, data, slot) = saved_run();
    let before = std::fs::read(&slot.save).unwrap();
    let mut live = Live::resume(&data, &level, (80, 24));
    live.play("l l");
    // Read-only: the save is the player's file, and the game never forces a write.
    let mut perms = std::fs::metadata(&slot.save).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&slot.save, perms).unwrap();
    let why = live
        .keeper
        .finish()
        .expect_err("a read-only save is not written");
    assert_eq!(why.save, slot.save);
    assert_eq!(
        why.to_string(),
        format!(
            "Could not keep your run: {}: the file is read-only. A save written before, if \
             any, is unchanged.",
            slot.save.display()
        )
    );
    assert_eq!(std::fs::read(&slot.save).unwrap(), before);
    // Asked again (the signal watcher and the loop may both ask), it says the same: the
    // same failure, not a second write.
    let again = live.keeper.finish().expect_err("still not kept");
    assert!(std::sync::Arc::ptr_eq(&again.source, &why.source));
    assert_eq!(again.to_string(), why.to_string());
}

#[test]
fn a_save_written_when_the_game_ends_is_the_autosave_of_its_last_input() {
    // The check line is made only when a save is written: on leaving, it is made from what
    // the keeper took at the last input, and must be the line an autosave made from the
    // game itself at that input, byte for byte (the save's time aside). The lazy game
    // leaves after more inputs, which are not the run's: through the quit question, or at
    // once with C-c (mid-travel).
    for (level, seed, inputs, leave) in [
        ("levels/default.txt", 1, "l l k . o ] x l Esc . Tab", "q y"),
        (
            "tests/levels/far_stairs.txt",
            4,
            "F l F l F l > 3*tick",
            "C-c",
        ),
        ("levels/pillar.txt", 5, "h . e k w e h", "q y"),
    ] {
        let scratch = Scratch::new();
        let level = scratch.copy(level);
        let size = (80, 24);
        let mut forced = Live::forcing_saves(&scratch.path().join("forced"), &level, seed, size);
        let mut lazy = Live::new(&scratch.path().join("lazy"), &level, seed, size);
        forced.play(inputs);
        lazy.play(inputs);
        let read = |path: &Path| match RunSave::read(path).expect("a save") {
            Kept::Run(save) => *save,
            Kept::Legacy(_) => panic!("an old format"),
        };
        let want = read(&forced.slot.save);
        lazy.play(leave);
        assert!(!lazy.app.front().is_running(), "{inputs}: left");
        let save = lazy.slot.save.clone();
        assert!(lazy.leave().contains("is kept"), "{inputs}");
        let mut got = read(&save);
        got.saved = want.saved;
        assert_eq!(
            got.encode().unwrap().replace("forced", "lazy"),
            want.encode().unwrap().replace("forced", "lazy"),
            "{inputs}"
        );
    }
}

/// A save on disk for the refusal tests: a real one, of a run on the pillar; with
/// [`fresh`]'s scratch folder, level and data folder.
fn saved_run() -> (Scratch, PathBuf, PathBuf, Slot) {
    let (scratch, level, data) = fresh("levels/pillar.txt");
    let mut live = Live::new(&data, &level, 5, (80, 24));
    live.play("h h .");
    let slot = live.slot.clone();
    live.leave();
    (scratch, level, data, slot)
}

/// `astar-rogue play LEVEL ARGS...` keeping runs in `data`, which must be refused before
/// the terminal is touched: exit code 2 and nothing on standard output. Its standard
/// error.
fn play_refused(level: &Path, args: &[&str], data: &Path) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_astar-rogue"))
        .arg("play")
        .arg(level)
        .args(args)
        .env(data::DATA_ENV, data)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        out.stdout.is_empty(),
        "the terminal was not touched: {:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    err
}

#[test]
fn a_damaged_cut_or_foreign_save_is_refused_and_kept() {
    let (_scratch, level, data, slot) = saved_run();
    let good = std::fs::read(&slot.save).unwrap();
    let text = String::from_utf8(good.clone()).unwrap();
    let cases: [(&str, Vec<u8>, &str); 4] = [
        (
            "damaged",
            text.replacen("\"seed\":5", "\"seed\":6", 1).into_bytes(),
            "it is damaged or cut short (its checksum does not match its content)",
        ),
        (
            "cut short",
            good[..good.len() / 2].to_vec(),
            "it is damaged or cut short",
        ),
        (
            "an older format",
            text.replacen("format 2", "format 0", 1).into_bytes(),
            "it is in save format 0, and this game reads formats 1 and 2",
        ),
        (
            "not a save",
            b"hello\n".to_vec(),
            "it is not an astar-rogue run save",
        ),
    ];
    for (what, bytes, message) in cases {
        std::fs::write(&slot.save, &bytes).unwrap();
        let err = play_refused(&level, &[], &data);
        assert!(
            err.starts_with(&format!(
                "{}: the run saved here cannot be resumed: {message}",
                slot.save.display()
            )),
            "{what}: {err}"
        );
        assert!(err.contains("The save is kept"), "{what}: {err}");
        assert_eq!(
            std::fs::read(&slot.save).unwrap(),
            bytes,
            "{what}: left in place"
        );
    }
    // In the library, the same reasons.
    std::fs::write(&slot.save, b"astar-rogue run save, format 9\n").unwrap();
    assert!(matches!(
        RunSave::read(&slot.save),
        Err(SaveError::Format { found }) if found == "9"
    ));
}

/// Rewrites a save's JSON with `edit` and writes it back with its checksum made again, as
/// a hand edit that knows the format would.
fn edit_save(path: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.splitn(3, '\n');
    let (first, _, json) = (lines.next().unwrap(), lines.next(), lines.next().unwrap());
    let mut value: serde_json::Value = serde_json::from_str(json.trim_end()).unwrap();
    edit(&mut value);
    let json = value.to_string();
    std::fs::write(
        path,
        format!(
            "{first}\nchecksum fnv1a64 {:016x}\n{json}\n",
            data::fnv64(json.as_bytes())
        ),
    )
    .unwrap();
}

/// A save whose copy of a floor or of the settings does not read blames that copy, not
/// the files it was made from (they may read well, and the player would look in vain).
#[test]
fn a_save_whose_copies_do_not_read_names_the_copies() {
    let (_scratch, level, data, slot) = saved_run();
    let good = std::fs::read(&slot.save).unwrap();
    edit_save(&slot.save, |v| {
        v["session"]["floor"]["design"]["text"]["text"] = "X\n".into();
    });
    let err = play_refused(&level, &[], &data);
    assert!(
        err.contains("its content does not read: a floor kept in the save:1:1: unknown glyph 'X'"),
        "{err}"
    );
    std::fs::write(&slot.save, &good).unwrap();
    let settings = level.with_file_name("config.toml");
    edit_save(&slot.save, |v| {
        v["settings"] = "[keys\n".into();
        v["settings_file"] = settings.display().to_string().into();
    });
    let Kept::Run(save) = RunSave::read(&slot.save).unwrap() else {
        panic!("format 2")
    };
    let Err(e) = keep::resume(&save, (80, 24), Arc::default()) else {
        panic!("settings that do not read")
    };
    let said = e.to_string();
    let want = format!(
        "its settings do not read: the run's copy of {}:1:",
        settings.display()
    );
    assert!(said.starts_with(&want), "{said}");
}

#[test]
fn a_save_whose_level_changed_is_refused_and_kept() {
    let (_scratch, level, data, slot) = saved_run();
    let saved = std::fs::read(&slot.save).unwrap();
    std::fs::write(&level, "title: Other\n@..\n.g.\n").unwrap();
    let err = play_refused(&level, &[], &data);
    let turn = RunSave::decode(&saved).unwrap().turn();
    assert!(turn > 0);
    assert!(
        err.starts_with(&format!(
            "{}: the level file changed since the run was saved (turn {turn})",
            level.display()
        )),
        "{err}"
    );
    assert!(err.contains("The save is kept"), "{err}");
    assert_eq!(std::fs::read(&slot.save).unwrap(), saved);
    // Asking for another seed while a run is kept is refused too, saying how to go on.
    std::fs::copy(repo("levels/pillar.txt"), &level).unwrap();
    let err = play_refused(&level, &["--seed", "6"], &data);
    assert!(
        err.starts_with(&format!(
            "pillar.txt has a run in progress (seed 5, turn {turn})"
        )),
        "{err}"
    );
}

#[test]
fn a_run_being_played_cannot_be_played_twice() {
    let (_scratch, level, data) = fresh("levels/pillar.txt");
    let live = Live::new(&data, &level, 5, (80, 24));
    let err = play_refused(&level, &[], &data);
    assert!(err.contains("being played in another terminal"), "{err}");
    drop(live);
}

#[test]
fn two_runs_ending_at_once_are_both_scored() {
    use astar_rogue::session::scores::{self, Score};
    let scratch = Scratch::new();
    let dir = scratch.path().to_path_buf();
    let threads: Vec<_> = (0..8u64)
        .map(|t| {
            let dir = dir.clone();
            std::thread::spawn(move || {
                for i in 0..10u64 {
                    let s = Score {
                        outcome: "dead".into(),
                        killer: None,
                        depth: 1,
                        final_depth: 3,
                        turns: (t * 100 + i) as u32,
                        kills: 0,
                        dealt: 0,
                        taken: 0,
                        drunk: 0,
                        seed: t * 100 + i,
                        level: "x.txt".into(),
                        level_path: None,
                        date: 1,
                        morgue: None,
                    };
                    scores::add(&dir, &s).unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let table = scores::load(&dir).unwrap();
    let mut seeds: Vec<u64> = table.scores.iter().map(|s| s.seed).collect();
    seeds.sort_unstable();
    let want: Vec<u64> = (0..8u64)
        .flat_map(|t| (0..10).map(move |i| t * 100 + i))
        .collect();
    assert_eq!(seeds, want, "every run is in the table once");
    assert!(table.unreadable.is_empty());
    // And `astar-rogue scores` prints them all, best first.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_astar-rogue"))
        .args(["scores", "--limit", "0"])
        .env(data::DATA_ENV, &dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 81, "{text}");
    assert!(
        lines[0].starts_with(" #  outcome  depth  turns  kills  seed  level"),
        "{text}"
    );
    // The most turns first among equal deaths.
    assert_eq!(
        lines[1], " 1  died     1/3      709      0   709  x.txt  1970-01-01 00:00",
        "{text}"
    );
}

#[test]
fn the_score_table_reads_best_first_with_the_seed_and_the_level() {
    use astar_rogue::session::scores;
    let scratch = Scratch::new();
    let dir = scratch.path();
    let level = scratch.copy("tests/levels/troll.txt");
    let mut live = Live::new(dir, &level, 3, (60, 16));
    live.play("l l 20*.");
    std::fs::write(
        dir.join(scores::SCORES_FILE),
        std::fs::read_to_string(dir.join(scores::SCORES_FILE)).unwrap()
            + "{\"outcome\":\"won\",\"depth\":3,\"final_depth\":3,\"turns\":99,\"kills\":9,\"dealt\":1,\"taken\":1,\"drunk\":0,\"seed\":42,\"level\":\"default.txt\",\"date\":86400}\nnot a run\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_astar-rogue"))
        .arg("scores")
        .env(data::DATA_ENV, dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(
        lines[..2],
        [
            "#  outcome            depth  turns  kills  seed  level        ended (UTC)",
            "1  won                3/3       99      9    42  default.txt  1970-01-02 00:00",
        ],
        "{text}"
    );
    assert!(
        lines[2].starts_with("2  killed by a troll  1/1       14      0     3  troll.txt    2"),
        "{text}"
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.ends_with(
            "scores.jsonl:3: warning: this line does not read as a run; it is kept as it is\n"
        ),
        "{err}"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_astar-rogue"))
        .args(["scores", "--level", "nothing.txt"])
        .env(data::DATA_ENV, dir)
        .output()
        .unwrap();
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("No runs have ended yet on nothing.txt")
    );
}
