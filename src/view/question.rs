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
    let key = |a| app.ui().settings().bindings.key_of(Context::Play, a);
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
        out.push_str(&app.ui().settings().bindings.key_of(Context::Confirm, a));
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
    let unsaved = format!("{file} has unsaved edits.");
    let kept = app.front().keeping();
    match question {
        Confirm::Quit if app.session().unsaved() => {
            let mut lines = if kept {
                vec![
                    format!("{file} has unsaved edits"),
                    "to its design (the level file).".into(),
                ]
            } else {
                vec![unsaved]
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
            (" Quit? ", lines, 3)
        }
        Confirm::Quit if kept => (
            " Quit? ",
            vec![
                "Your run is kept: play again to go on.".into(),
                format!(
                    "({} gives it up instead.)",
                    app.ui()
                        .settings()
                        .bindings
                        .key_of(Context::Play, Action::Abandon)
                ),
                answers(
                    app,
                    "{}  quit    {}  keep playing",
                    &[Action::Yes, Action::No],
                ),
            ],
            1,
        ),
        Confirm::Quit => (
            " Quit? ",
            vec![
                "The game is in progress.".into(),
                answers(
                    app,
                    "{}  quit    {}  keep playing",
                    &[Action::Yes, Action::No],
                ),
            ],
            1,
        ),
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
        Confirm::Restart if kept => (
            " New run? ",
            vec![
                "The run in progress ends, abandoned,".into(),
                "and goes into the scores.".into(),
                answers(
                    app,
                    "{}  new run    {}  keep playing",
                    &[Action::Yes, Action::No],
                ),
            ],
            1,
        ),
        Confirm::Restart => (
            " Restart? ",
            vec![
                "The game is in progress.".into(),
                answers(
                    app,
                    "{}  restart    {}  keep playing",
                    &[Action::Yes, Action::No],
                ),
            ],
            1,
        ),
        Confirm::Abandon => {
            let mut lines = vec!["The run ends here, as a loss.".to_string()];
            if kept {
                lines.push("It goes into the scores and the".into());
                lines.push("morgue, and its save is deleted.".into());
            }
            lines.push(answers(
                app,
                "{}  abandon    {}  keep playing",
                &[Action::Yes, Action::No],
            ));
            (" Abandon the run? ", lines, 1)
        }
        Confirm::NewLevel => (
            " New level? ",
            vec![
                if app.session().unsaved() {
                    format!("{unsaved} A new level drops them.")
                } else if kept {
                    "The run in progress ends, abandoned.".into()
                } else {
                    "The game in progress ends.".into()
                },
                answers(
                    app,
                    "{}  generate    {}  keep this level",
                    &[Action::Yes, Action::No],
                ),
            ],
            1,
        ),
        Confirm::BlankLevel => (
            " Blank level? ",
            vec![
                if app.session().unsaved() {
                    format!("{unsaved} A blank level drops them.")
                } else {
                    "The game in progress ends.".into()
                },
                answers(
                    app,
                    "{}  start blank    {}  keep this level",
                    &[Action::Yes, Action::No],
                ),
            ],
            1,
        ),
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
