//! The questions' boxes and the end of a run: their titles, lines and answers.

use super::words::plural;
use crate::app::keymap::{Action, Context};
use crate::app::{App, Confirm};
use crate::game::GameState;
use crate::text::wrap;

/// The end screen of a run: how it ended and what it took, the figures of `--state`, the
/// seed that plays it again, and the front end's note (its place in the scores).
pub(crate) fn end_text(app: &App) -> (&'static str, Vec<String>) {
    let w = &app.world();
    let run = w.run();
    let (title, how) = match w.state() {
        GameState::Won => (" You won ", "The last floor is clear.".to_string()),
        GameState::Abandoned => (
            " Run abandoned ",
            format!("Given up at depth {}.", run.depth),
        ),
        _ => {
            let by = run.killer.map_or("Slain".to_string(), |k| {
                format!(
                    "Slain by {}",
                    crate::content::kinds::a_name(&w.kind(k).name)
                )
            });
            (" You died ", format!("{by} at depth {}.", run.depth))
        }
    };
    let mut lines = vec![
        how,
        format!(
            "turns {}  depth {}/{}  seed {}",
            w.turn(),
            run.depth,
            w.final_depth(),
            w.seed()
        ),
        format!("kills {}", run.kills),
        format!(
            "potions drunk {}, carried {}",
            run.potions_drunk,
            w.player().potions
        ),
        format!(
            "damage dealt {} taken {}",
            run.damage_dealt, run.damage_taken
        ),
        format!(
            "monsters' A* {}",
            plural(run.astar_expanded, "node", "nodes")
        ),
    ];
    if let Some(note) = app.front().end_note() {
        for part in note.lines() {
            lines.extend(wrap(part, 44));
        }
    }
    lines.push(String::new());
    let key = |a| app.ui().key(Context::Play, a);
    lines.push(format!(
        "{}  new run    {}  quit",
        key(Action::Restart),
        key(Action::Quit)
    ));
    (title, lines)
}

/// A question's answer line, `template`'s `{}` each replaced by the player's key for the
/// matching action of the question's context.
fn answers(app: &App, template: &str, actions: &[Action]) -> String {
    let mut out = String::new();
    let mut rest = template;
    for &a in actions {
        let Some((head, tail)) = rest.split_once("{}") else {
            break;
        };
        out.push_str(head);
        out.push_str(&app.ui().key(Context::Confirm, a));
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// The answer lines of `question`'s box, in one line for the hint bar.
pub(crate) fn question_answers(app: &App, question: &Confirm) -> String {
    let (_, lines, answers) = question_text(app, question);
    lines[lines.len() - answers..]
        .iter()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("  ")
}

/// The title and lines of the popup that asks `question`, and how many of its last lines
/// are the answers (the keys to press).
pub(crate) fn question_text(app: &App, question: &Confirm) -> (&'static str, Vec<String>, usize) {
    let file = app.session().source().name();
    match question {
        Confirm::Quit => quit_text(app, &file),
        Confirm::Overwrite => (
            " Overwrite? ",
            vec![
                format!("{file} changed on disk."),
                answers(
                    app,
                    "{}  overwrite    {}  keep it",
                    &[Action::Yes, Action::No],
                ),
            ],
            1,
        ),
        Confirm::Restart => restart_text(app),
        Confirm::Abandon => abandon_text(app),
        Confirm::NewLevel | Confirm::BlankLevel => level_text(app, question, &file),
        Confirm::Reload(_) => (
            " Changed on disk ",
            vec![
                format!("{file} changed on disk, and the game"),
                "has unsaved edits. Which to keep?".into(),
                answers(
                    app,
                    "{}  the file's (drop the game's edits)",
                    &[Action::TakeFile],
                ),
                answers(
                    app,
                    "{}  the game's (saving asks first)",
                    &[Action::KeepMine],
                ),
            ],
            2,
        ),
    }
}

/// The quit question: with unsaved edits, whether to save them first; in a kept game,
/// that the run is kept.
fn quit_text(app: &App, file: &str) -> (&'static str, Vec<String>, usize) {
    let kept = app.front().keeping();
    if app.session().unsaved() {
        let mut lines = if kept {
            vec![
                format!("{file} has unsaved edits"),
                "to its design (the level file).".into(),
            ]
        } else {
            vec![format!("{file} has unsaved edits.")]
        };
        if kept && app.session().in_progress() {
            lines.push("Your run is kept either way.".into());
        }
        let without = if kept {
            "{}  quit without saving the level"
        } else {
            "{}  quit without saving"
        };
        let save = if kept {
            "{}  save the level, then quit"
        } else {
            "{}  save and quit"
        };
        lines.push(answers(app, save, &[Action::SaveAndQuit]));
        lines.push(answers(app, without, &[Action::Yes]));
        lines.push(answers(app, "{}  keep playing", &[Action::No]));
        return (" Quit? ", lines, 3);
    }
    let lines = if kept {
        vec![
            "Your run is kept: play again to go on.".into(),
            format!(
                "({} gives it up instead.)",
                app.ui().key(Context::Play, Action::Abandon)
            ),
        ]
    } else {
        vec!["The game is in progress.".into()]
    };
    let template = "{}  quit    {}  keep playing";
    (" Quit? ", with_yes_no(app, lines, template), 1)
}

/// `lines`, then the answer line `template` with the player's keys for yes and no.
fn with_yes_no(app: &App, mut lines: Vec<String>, template: &str) -> Vec<String> {
    lines.push(answers(app, template, &[Action::Yes, Action::No]));
    lines
}

/// The restart question: in a kept game, that the run goes into the scores.
fn restart_text(app: &App) -> (&'static str, Vec<String>, usize) {
    if app.front().keeping() {
        let lines = vec![
            "The run in progress ends, abandoned,".into(),
            "and goes into the scores.".into(),
        ];
        let template = "{}  new run    {}  keep playing";
        (" New run? ", with_yes_no(app, lines, template), 1)
    } else {
        let lines = vec!["The game is in progress.".into()];
        let template = "{}  restart    {}  keep playing";
        (" Restart? ", with_yes_no(app, lines, template), 1)
    }
}

/// The abandon question: in a kept game, what becomes of the run.
fn abandon_text(app: &App) -> (&'static str, Vec<String>, usize) {
    let mut lines = vec!["The run ends here, as a loss.".to_string()];
    if app.front().keeping() {
        lines.push("It goes into the scores and the".into());
        lines.push("morgue, and its save is deleted.".into());
    }
    let template = "{}  abandon    {}  keep playing";
    (" Abandon the run? ", with_yes_no(app, lines, template), 1)
}

/// The question before a new or a blank level replaces this one: what it drops.
fn level_text(app: &App, question: &Confirm, file: &str) -> (&'static str, Vec<String>, usize) {
    let unsaved = format!("{file} has unsaved edits.");
    let (title, line, template) = if matches!(question, Confirm::BlankLevel) {
        let line = if app.session().unsaved() {
            format!("{unsaved} A blank level drops them.")
        } else {
            "The game in progress ends.".into()
        };
        (
            " Blank level? ",
            line,
            "{}  start blank    {}  keep this level",
        )
    } else {
        let line = if app.session().unsaved() {
            format!("{unsaved} A new level drops them.")
        } else if app.front().keeping() {
            "The run in progress ends, abandoned.".into()
        } else {
            "The game in progress ends.".into()
        };
        (" New level? ", line, "{}  generate    {}  keep this level")
    };
    (title, with_yes_no(app, vec![line], template), 1)
}
