//! The search lab: its own copy of the map, searched from any start to any goal and stepped
//! through with the overlay. The lab's own commands (its start and goal, comparisons, the
//! pen, the quiz) are carried out here on its searches; its searches are `app::lab`'s, the
//! quiz's judging `app::quiz`'s.

use crate::app::bindings::Bindings;
use crate::app::command::{Action, Context as C};
use crossterm::event::MouseButton;

use crate::app::lab::{Edited, Lab};
use crate::app::options;
use crate::app::overlay::Overlay;
use crate::app::quiz;
use crate::app::tools::{Stroke, tile_name};
use crate::content::level::tools::line;
use crate::content::map::Tile;
use crate::engine::grid::Pos;

/// The search lab (its search is always shown, so the overlay's keys apply).
pub const CONTEXTS: &[C] = &[C::Lab, C::Overlay, C::Global, C::Always];

/// What the lab made of a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Carried out.
    Done,
    /// Carried out, with words for the log.
    Say(String),
    /// Not the lab's: the app carries it out.
    Not(Action),
}

/// Carries out one of the lab's commands on `lab`, with its cursor at `cursor` and the
/// `overlay` that shows its searches; `bindings` word the keys it names.
pub fn handle(
    lab: &mut Lab,
    cursor: Pos,
    overlay: &mut Overlay,
    bindings: &Bindings,
    action: Action,
) -> Outcome {
    let rerun: fn(&mut Lab) = match action {
        Action::SetStart | Action::SetGoal => {
            let done = if action == Action::SetStart {
                lab.set_start(cursor)
            } else {
                lab.set_goal(cursor)
            };
            if !done {
                return Outcome::Say("The start and the goal stand on floor.".into());
            }
            |_| {}
        }
        Action::CycleCompare => Lab::cycle_compare,
        Action::CompareTies => Lab::cycle_ties,
        Action::LabKind => Lab::cycle_kind,
        Action::CompareKind => Lab::cycle_compare_kind,
        Action::TogglePaint => {
            lab.paint = !lab.paint;
            return Outcome::Done;
        }
        Action::Quiz => {
            let answer = bindings.key_of(C::Lab, Action::Answer);
            return Outcome::Say(quiz::toggle(lab, overlay, &answer));
        }
        Action::Answer => {
            let quiz_key = bindings.key_of(C::Lab, Action::Quiz);
            return quiz::answer(lab, overlay, cursor, &quiz_key)
                .map_or(Outcome::Done, Outcome::Say);
        }
        Action::PutTile(tile) => return put_tile(lab, cursor, overlay, Some(tile)),
        Action::ToggleTile => return put_tile(lab, cursor, overlay, None),
        _ => match options::change(action) {
            Some(change) => {
                let mut o = lab.options;
                change(&mut o);
                lab.set_options(o);
                |_| {}
            }
            None => return Outcome::Not(action),
        },
    };
    rerun(lab);
    reran(lab, overlay);
    Outcome::Done
}

/// Shows the lab's searches after they ran on a new query, options or comparison:
/// finished, or during a quiz from the first expansion, so that the quiz goes on over the
/// new search.
fn reran(lab: &Lab, overlay: &mut Overlay) {
    overlay.step = lab.quiz.is_some().then_some(0);
}

/// Puts a tile (`None`: swaps wall and floor) at the cursor on the lab's own map; the
/// step shown stays where it was.
fn put_tile(lab: &mut Lab, cursor: Pos, overlay: &mut Overlay, tile: Option<Tile>) -> Outcome {
    if let Some(t) = tile {
        lab.pen = t;
    }
    let t = tile.unwrap_or(if lab.grid.get(cursor) == Tile::Wall {
        Tile::Floor
    } else {
        Tile::Wall
    });
    let refused = !lab.edit_tile(cursor, t) && !t.is_passable();
    overlay.keep_step(lab.expansions());
    if refused {
        Outcome::Say("The start and the goal stay on floor.".into())
    } else {
        Outcome::Done
    }
}

/// The mouse in the lab: the left button sets or drags the start, the right one the
/// goal; in paint mode (`e`) the left one paints the lab's pen (walls, or what a key put
/// last: water, brush or floor) and the right one floor.
pub fn mouse(
    lab: &mut Lab,
    stroke: &mut Option<Stroke>,
    overlay: &mut Overlay,
    cell: Pos,
    button: MouseButton,
    drag: bool,
) {
    if lab.paint {
        let tile = if button == MouseButton::Left {
            lab.pen
        } else {
            Tile::Floor
        };
        let (from, painted) = match *stroke {
            Some(s) if drag => (s.last, s.replan),
            _ => (cell, false),
        };
        // The searches before the stroke are what its edit is set against.
        let before = match &lab.edited {
            Some(e) if painted => e.before.clone(),
            _ => lab.outcomes(),
        };
        let mut changed = false;
        for p in line(from, cell) {
            changed |= lab.set_tile(p, tile);
        }
        if changed {
            lab.edited = Some(Edited {
                what: format!("{} painted to {cell}", tile_name(tile)),
                before,
            });
        }
        // A lab stroke never replans the game: `replan` says it changed the lab's map.
        *stroke = Some(Stroke {
            last: cell,
            tile,
            replan: painted || changed,
        });
        overlay.keep_step(lab.expansions());
        return;
    } else if lab.quiz.is_some() {
        // The answer is where the cursor is: a click moves it, not the start.
    } else if button == MouseButton::Left {
        lab.set_start(cell);
    } else {
        lab.set_goal(cell);
    }
    overlay.step = None;
}
