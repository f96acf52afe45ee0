//! What happened with a command, in short lines: the log's new words, monsters coming into
//! view (and going out of it) with where they are, the hit points and the floor when they
//! change, the screen the game went to, a question asked, the end of the run. Taken from
//! the game's log and state before and after the command, never from drawn frames.

use crate::app::{App, Confirm, Mode, Screen};
use crate::content::kinds::a_name;
use crate::game::{GameState, Message, PLAYER_HP};

use super::words::{capital, compass};

/// What the player was told of the game: the state the next command is compared with.
#[derive(Debug, Clone)]
pub struct Seen {
    /// The log's length, and its last message (a repeat folds into it, counted).
    log: usize,
    last: Option<Message>,
    /// The monsters in view, by id.
    in_view: Vec<u32>,
    hp: i32,
    /// The depth and the floor's name.
    floor: (u32, String),
    state: GameState,
    mode: Mode,
    aiming: bool,
    overlay: bool,
    path: bool,
    selected: Option<u32>,
    question: Option<Confirm>,
    /// The cursor of look, edit and the lab (the player's cell elsewhere).
    cursor: crate::engine::grid::Pos,
    turn: u32,
}

impl Seen {
    /// The game as it stands now.
    pub fn of(app: &App) -> Seen {
        let w = app.world();
        let log = w.log();
        Seen {
            log: log.len(),
            last: log.last().cloned(),
            in_view: w.monsters_in_view().iter().map(|m| m.id).collect(),
            hp: w.player().hp,
            floor: floor(app),
            state: w.state(),
            mode: app.screen().mode(),
            aiming: matches!(app.screen(), Screen::Aim),
            overlay: app.ui().overlay().on,
            path: app.ui().show_path(),
            selected: app.ui().selected(),
            question: app.screen().question().cloned(),
            cursor: app.cursor(),
            turn: w.turn(),
        }
    }
}

/// The depth and the name of the floor being played.
fn floor(app: &App) -> (u32, String) {
    let title = app.session().design().level().title.clone();
    (
        app.world().run().depth,
        title.unwrap_or_else(|| app.session().source().name()),
    )
}

/// The floor in words: `Floor 2 of 5: The Pillar.`
pub fn floor_line(app: &App) -> String {
    let (depth, name) = floor(app);
    format!("Floor {depth} of {}: {name}.", app.world().final_depth())
}

/// The messages of the log that `before` had not seen, in order (a message said again
/// folds into its line, with its count raised: it is news again).
fn new_messages<'a>(log: &'a [Message], before: &Seen) -> Vec<&'a Message> {
    let Some(last) = &before.last else {
        return log.iter().collect();
    };
    let is_last = |m: &Message| {
        m.text == last.text
            && (m.count > last.count || (m.count, m.turn) == (last.count, last.turn))
    };
    // Where it stood, unless the log dropped its oldest lines (it keeps a run's last ones).
    let at = match log.get(before.log.wrapping_sub(1)) {
        Some(m) if is_last(m) => Some(before.log - 1),
        _ => log.iter().rposition(is_last),
    };
    let Some(at) = at else {
        // A new game, with a log of its own: all news.
        return log.iter().collect();
    };
    let mut news: Vec<&Message> = Vec::new();
    if log[at].count > last.count {
        news.push(&log[at]);
    }
    news.extend(&log[at + 1..]);
    news
}

/// What changed since `before`, in lines.
pub fn lines(app: &App, before: &Seen) -> Vec<String> {
    let w = app.world();
    let now = Seen::of(app);
    let bindings = &app.ui().settings().bindings;
    let mut out: Vec<String> = new_messages(w.log(), before)
        .into_iter()
        // Said below with where the monster is.
        .filter(|m| !m.sighting)
        .map(|m| crate::view::message_text(bindings, m).into_owned())
        .collect();
    if let Some(notice) = app.front().notice() {
        out.push(notice.to_string());
    }
    out.extend(screen_lines(app, before, &now));
    let me = w.player().pos;
    for m in w.monsters_in_view() {
        if !before.in_view.contains(&m.id) {
            out.push(format!(
                "{} comes into view, {}.",
                capital(&a_name(&w.kind(m.kind).name)),
                compass(me, m.pos)
            ));
        }
    }
    for id in before.in_view.iter().filter(|id| !now.in_view.contains(id)) {
        // Alive and out of sight (the log tells of a death).
        if let Some(m) = w.monster(*id) {
            out.push(format!(
                "The {} #{} is out of view, {} when last seen.",
                w.kind(m.kind).name,
                m.id,
                compass(me, m.pos)
            ));
        }
    }
    if now.hp != before.hp {
        out.push(format!("HP {} of {PLAYER_HP}.", now.hp));
    }
    if now.floor != before.floor {
        out.push(floor_line(app));
    }
    if before.state == GameState::Playing && now.state != GameState::Playing {
        let (title, lines) = crate::view::end_text(app);
        out.push(format!("{}.", title.trim()));
        out.extend(lines.into_iter().filter(|l| !l.is_empty()));
    }
    if now.question.is_some() && now.question != before.question {
        out.extend(question(app));
    }
    out
}

/// The question the game asks now, in lines: its title, what it says, its answers.
pub fn question(app: &App) -> Vec<String> {
    let Some(q) = app.screen().question() else {
        return Vec::new();
    };
    let (title, lines, _) = crate::view::question_text(app, q);
    let mut out = vec![title.trim().to_string()];
    out.extend(
        lines
            .into_iter()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")),
    );
    out
}

/// The screen the game went to, the overlay, the path, sight, the selection, and the
/// cursor's cell in look mode, the editor and the lab.
fn screen_lines(app: &App, before: &Seen, now: &Seen) -> Vec<String> {
    let mut out = Vec::new();
    let key = |c, a| app.ui().key(c, a);
    use crate::app::keymap::{Action, Context};
    if now.mode != before.mode {
        out.push(match now.mode {
            Mode::Play => "Back to play.".to_string(),
            Mode::Look => format!(
                "Look mode: the moves move the cursor; {} leaves.",
                key(Context::Global, Action::Back)
            ),
            Mode::Edit => format!(
                "Edit mode: the moves move the cursor; {} leaves.",
                key(Context::Global, Action::Back)
            ),
            Mode::Lab => format!(
                "The search lab: the moves move the cursor; search sums its searches up; {} leaves.",
                key(Context::Lab, Action::Back)
            ),
            Mode::Help => format!(
                "The help screen is up ({} closes it); the help command lists the keys.",
                key(Context::Help, Action::Close)
            ),
            Mode::History => format!(
                "The message history is up ({} closes it).",
                key(Context::History, Action::Close)
            ),
        });
    }
    if now.aiming && !before.aiming {
        out.push("Attack in place: which way?".into());
    }
    if now.overlay != before.overlay {
        out.push(if now.overlay {
            "Search overlay on: search reads the selected monster's A*.".into()
        } else {
            "Search overlay off.".to_string()
        });
    }
    if now.path != before.path {
        out.push(if now.path {
            "The selected monster's path is drawn on the map.".into()
        } else {
            "The path is hidden.".to_string()
        });
    }
    if now.selected != before.selected
        && let Some(m) = now.selected.and_then(|id| app.world().monster(id))
    {
        out.push(format!(
            "Selected: the {} #{}, {}.",
            app.world().kind(m.kind).name,
            m.id,
            compass(app.world().player().pos, m.pos)
        ));
    }
    let cursor_moved = now.cursor != before.cursor || now.mode != before.mode;
    if cursor_moved && let Some(line) = crate::view::cursor_line(app) {
        out.push(line);
    }
    out
}

/// Whether anything at all changed in the turn count: a command that said nothing still
/// says the turn when one passed.
pub fn turn_passed(app: &App, before: &Seen) -> bool {
    app.world().turn() != before.turn
}
