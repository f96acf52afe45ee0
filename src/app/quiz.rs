//! The lab's quiz: the learner puts the cursor on the node they think the search expands
//! next and answers; the lab says right or wrong and why (the F that decides, then the tie
//! rule, with the numbers), steps the search on to show it, and keeps the score. Started on
//! a finished search it starts from the first expansion, so a whole search can be played as
//! a quiz.

use std::collections::HashMap;

use super::lab::{Lab, Queued, Quiz, Verdict};
use super::overlay::Overlay;
use crate::engine::astar::{NodeInfo, NodeState, SearchOptions, Snapshot, Ties, Weight};
use crate::engine::grid::{Grid, Pos};

/// Starts the quiz (from the first expansion when the search is shown finished) or stops
/// it; the words for the log, which name `answer`, the key that answers.
pub(super) fn toggle(lab: &mut Lab, overlay: &mut Overlay, answer: &str) -> String {
    if let Some(quiz) = lab.quiz.take() {
        return format!("Quiz over: {} of {} right.", quiz.right, quiz.asked);
    }
    lab.quiz = Some(Quiz::default());
    overlay.autoplay = false;
    if overlay.step.is_none() {
        overlay.step = Some(0);
    }
    format!("Quiz: put the cursor on the node the search expands next and press {answer}.")
}

/// Takes the cursor's cell as the answer: judges it, steps the search on by the expansion
/// asked about, and counts it; words for the log when there is no question to answer
/// (`quiz_key` starts and ends the quiz).
pub(super) fn answer(
    lab: &mut Lab,
    overlay: &mut Overlay,
    cursor: Pos,
    quiz_key: &str,
) -> Option<String> {
    if lab.quiz.is_none() {
        return Some(format!("{quiz_key} starts the quiz."));
    }
    let total = lab.expansions();
    let step = overlay.current(total);
    let search = &lab.searches[0];
    if step >= search.trace.expansions() {
        let q = lab.quiz.clone().unwrap_or_default();
        return Some(format!(
            "The search is over: {} of {} right. {quiz_key} ends the quiz.",
            q.right, q.asked
        ));
    }
    let snap = lab.snapshot(0, step)?;
    let queued = lab.queued(0, snap.step);
    let order = lab.open_order(0, snap.step);
    let verdict = judge(
        &snap,
        &order,
        &queued,
        &search.options,
        lab.cost_grid(0),
        cursor,
    );
    if let Some(quiz) = lab.quiz.as_mut() {
        quiz.asked += 1;
        quiz.right += u32::from(verdict.right);
        quiz.verdict = Some(verdict);
    }
    // On to the expansion asked about: the map shows it taken (`%`), and the panel what it
    // did.
    overlay.step_to(step + 1, total);
    None
}

/// Why `a` is popped before `b`, both open: the rule that tells them apart, in words with
/// their numbers, as a clause (`its F 54 is lower than 60`).
fn reason(a: &NodeInfo, b: &NodeInfo, o: &SearchOptions, queued: &HashMap<Pos, Queued>) -> String {
    if a.f != b.f {
        return format!("F {} is lower than {}'s {}", a.f, b.pos, b.f);
    }
    let by = |n: &NodeInfo| queued.get(&n.pos).copied();
    match o.ties {
        Ties::Lifo | Ties::Fifo => {
            let (qa, qb) = (by(a), by(b));
            let (which, name) = if o.ties == Ties::Lifo {
                ("last", "LIFO")
            } else {
                ("first", "FIFO")
            };
            let when = match (qa, qb) {
                (Some(qa), Some(qb)) if qa.by == qb.by => {
                    let order = if qa.serial > qb.serial {
                        "after"
                    } else {
                        "before"
                    };
                    format!(
                        "both were queued by {}, {} {order} {}",
                        expansion(qa.by),
                        a.pos,
                        b.pos
                    )
                }
                (Some(qa), Some(qb)) => format!(
                    "{} was queued by {}, {} by {}",
                    a.pos,
                    expansion(qa.by),
                    b.pos,
                    expansion(qb.by)
                ),
                _ => String::new(),
            };
            format!(
                "F ties at {} with {}; under {name} the node queued {which} goes first: {when}",
                a.f, b.pos
            )
        }
        Ties::LowerH if o.greedy => {
            if a.g != b.g {
                format!(
                    "F = H ties at {} with {}; greedy search breaks the tie by the lower G: {} against {}",
                    a.f, b.pos, a.g, b.g
                )
            } else {
                format!(
                    "F = H and G tie with {} ({} and {}); then the cell first in reading order goes first: {}",
                    b.pos,
                    a.f,
                    a.g,
                    reading(a.pos, b.pos)
                )
            }
        }
        _ => {
            let (ha, hb) = (a.f - a.g, b.f - b.g);
            let h = if o.weight == Weight::ONE {
                "H".to_string()
            } else {
                format!("{}·H", o.weight)
            };
            if ha != hb {
                format!(
                    "F ties at {} with {}; the tie goes to the lower {h}: {ha} against {hb}",
                    a.f, b.pos
                )
            } else {
                format!(
                    "F ties at {} and {h} at {ha} with {}; then the cell first in reading order goes first: {}",
                    a.f,
                    b.pos,
                    reading(a.pos, b.pos)
                )
            }
        }
    }
}

/// `row 2 before row 4` or `column 1 before column 3` (`a` comes first).
fn reading(a: Pos, b: Pos) -> String {
    if a.y != b.y {
        format!("row {} before row {}", a.y, b.y)
    } else {
        format!("column {} before column {}", a.x, b.x)
    }
}

/// `expansion #3`, or `the start` for the queueing before any expansion.
fn expansion(by: u32) -> String {
    if by == 0 {
        "the start".into()
    } else {
        format!("expansion #{by}")
    }
}

/// A node's F with what it is made of: `F 54 = G 10 + H 44`, `F 76 = G 10 + 1.5·H 44`, or
/// greedy's `F = H 44`.
fn figures(n: &NodeInfo, o: &SearchOptions) -> String {
    if o.greedy {
        format!("F = H {} (G {})", n.h, n.g)
    } else if o.weight == Weight::ONE {
        format!("F {} = G {} + H {}", n.f, n.g, n.h)
    } else {
        format!("F {} = G {} + {}·H {}", n.f, n.g, o.weight, n.h)
    }
}

/// The verdict on `guess` as the node the search pops next, from the open list in pop
/// order (`order`, its first the answer) after `snap.step` expansions.
pub fn judge(
    snap: &Snapshot,
    order: &[NodeInfo],
    queued: &HashMap<Pos, Queued>,
    o: &SearchOptions,
    grid: &Grid,
    guess: Pos,
) -> Verdict {
    let Some(next) = order.first() else {
        return Verdict {
            right: false,
            text: "The open list is empty: the search expands nothing more.".into(),
        };
    };
    let tied: Vec<&NodeInfo> = order[1..].iter().filter(|n| n.f == next.f).collect();
    // Why the answer beats the rest: the lowest F alone, or the tie rule against the
    // runner-up of equal F.
    let why_next = match tied.first() {
        None => {
            let after = order
                .get(1)
                .map(|b| format!(" (then {} with F {})", b.pos, b.f))
                .unwrap_or_default();
            format!(
                "{} has the lowest F on the open list, {}{after}",
                next.pos,
                figures(next, o)
            )
        }
        Some(b) => {
            let others = if tied.len() > 1 {
                format!(" ({} nodes share that F)", tied.len() + 1)
            } else {
                String::new()
            };
            format!("{}'s {}{others}", next.pos, reason(next, b, o, queued))
        }
    };
    if guess == next.pos {
        return Verdict {
            right: true,
            text: format!("Right: {why_next}."),
        };
    }
    let text = match snap.get(guess) {
        Some(n) if n.state == NodeState::Open => format!(
            "Wrong: {} has {}, but {} goes first: its {}.",
            guess,
            figures(n, o),
            next.pos,
            reason(next, n, o, queued)
        ),
        Some(n) => format!(
            "Wrong: {guess} is closed (expanded #{}), and a closed node is never expanded again. Next: {why_next}.",
            n.order.unwrap_or(0)
        ),
        None if !grid.is_passable(guess) => {
            format!("Wrong: {guess} is a wall; only open nodes are expanded. Next: {why_next}.")
        }
        None => format!(
            "Wrong: {guess} is not on the open list: no expansion has reached it yet. Next: {why_next}."
        ),
    };
    Verdict { right: false, text }
}
