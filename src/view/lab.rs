//! The lab's screen: the map (or two, side by side) with the search drawn in the chosen
//! layer, and a panel with the query, its numbers, the open list in pop order and what the
//! last expansion did.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use super::map;
use super::words::{dim, format_count, head, pack};
use crate::app::config::Theme;
use crate::app::keymap::{Action, Context};
use crate::app::lab::{Lab, LabSearch};
use crate::app::screen::{Layout, map_views};
use crate::app::{App, Layer};
use crate::content::map::Tile;
use crate::engine::astar::{Algorithm, Fate, SearchResult, Snapshot, Ties, walk_runs};
use crate::engine::grid::Pos;

/// The summary `path` prints for a search: `found from 2,3 to 6,3: cost 68, expanded 14,
/// path 7 cells`, so the lab's numbers read exactly as the command line's.
pub fn summary(result: &SearchResult, from: Pos, to: Pos) -> String {
    let cost = result.cost.map_or("-".to_string(), |c| c.to_string());
    format!(
        "{} from {from} to {to}: cost {cost}, expanded {}, path {} cells",
        crate::content::searches::status_name(result.status),
        result.expanded,
        result.path.len()
    )
}

pub(super) fn render(app: &App, l: &Layout, buf: &mut Buffer) {
    let Some(lab) = app.screen().lab() else {
        return;
    };
    render_frame(app, lab, l, buf);
    let views = map_views(app, l);
    let comparing = views.len() > 1;
    let snaps: Vec<_> = (0..lab.searches.len())
        .map(|i| app.screen().lab_snapshot(i, app.ui().overlay()))
        .collect();
    for (i, &view) in views.iter().enumerate() {
        let Some(snap) = snaps.get(i).and_then(|s| s.as_deref()) else {
            continue;
        };
        if comparing && view.y > 0 {
            caption(lab, i, view, buf);
        }
        render_search(app, lab, i, snap, view, buf);
    }
    render_panel(app, &snaps, l.side, buf);
}

/// The map's frame: the level's name above, what the mouse does below.
fn render_frame(app: &App, lab: &Lab, l: &Layout, buf: &mut Buffer) {
    // The frame's corners and " Lab: " before the title (the space after it may go).
    let room = usize::from(l.map_block.width).saturating_sub(2);
    let title = super::map::level_title(app, room.saturating_sub(6));
    let pen = match lab.pen {
        Tile::Wall => "walls".to_string(),
        t => t.name().to_string(),
    };
    let e = app.ui().key(Context::Lab, Action::TogglePaint);
    let mode = if lab.paint {
        format!(" mouse paints {pen} ({e}) ")
    } else {
        [
            format!(" left sets start, right goal ({e} paints) "),
            " left start, right goal ".to_string(),
        ]
        .into_iter()
        .find(|t| t.chars().count() <= room)
        .unwrap_or_default()
    };
    let mode = crate::text::fit_title(&mode, room);
    Block::bordered()
        .title(format!(" Lab: {title} "))
        .title_bottom(mode)
        .border_style(Style::new().fg(Color::Cyan))
        .render(l.map_block, buf);
}

/// A caption that names search `i`, on the row above its map.
fn caption(lab: &Lab, i: usize, view: Rect, buf: &mut Buffer) {
    let search = &lab.searches[i];
    let mut what = super::describe::options(&search.options);
    if let Some(k) = search.kind {
        what = format!("{} {what}", lab.grid.kind(k).name);
    }
    let caption = if search.fewest_steps {
        format!(" {what} fewest steps ")
    } else {
        format!(" {what} ")
    };
    let style = Style::new().add_modifier(Modifier::REVERSED);
    buf.set_stringn(view.x, view.y - 1, &caption, view.width as usize, style);
}

/// Search `i` drawn on its map: the tiles, the layer, the path, the marks and the cursor.
fn render_search(app: &App, lab: &Lab, i: usize, snap: &Snapshot, view: Rect, buf: &mut Buffer) {
    let cam = app.ui().camera();
    let theme = &app.ui().settings().theme;
    map::draw_tiles(&lab.grid, theme, view, cam, buf, |_| map::Seen::Shown);
    let mut put =
        |p: Pos, ch: Option<char>, style: Style| map::put_cell(buf, view, cam, p, ch, style);
    if jumps(&lab.searches[i]) {
        draw_runs(snap, &mut put);
    }
    if app.ui().overlay().layer == Layer::Cost {
        map::draw_costs(lab.search_grid(i), view, cam, &mut put);
    }
    // `*` is the path found: mid-search the chain to the node being expanded is not
    // drawn with it (JPS's runs and the closed cells show the way there).
    let found = snap.current == Some(lab.goal);
    map::draw_search(
        snap,
        &lab.grid,
        app.ui().overlay().layer,
        app.ui().overlay().step.is_some(),
        if found { &snap.path } else { &[] },
        theme,
        &mut put,
    );
    if let Some(at) = lab.searches[i]
        .optimal
        .and_then(|o| o.leaves)
        .filter(|_| found)
    {
        let style = Style::new()
            .fg(Color::White)
            .bg(Color::Red)
            .add_modifier(Modifier::BOLD);
        put(at, Some(LEAVES), style);
    }
    let mark = Style::new()
        .fg(Color::Black)
        .bg(Color::White)
        .add_modifier(Modifier::BOLD);
    put(lab.start, Some('S'), mark);
    put(lab.goal, Some('G'), mark);
    put(
        app.cursor(),
        None,
        Style::new().add_modifier(Modifier::REVERSED),
    );
}

fn render_panel(
    app: &App,
    snaps: &[Option<std::sync::Arc<Snapshot>>],
    area: Rect,
    buf: &mut Buffer,
) {
    let Some(lab) = app.screen().lab() else {
        return;
    };
    let block = Block::bordered().title(" lab ");
    let inner = block.inner(area);
    block.render(area, buf);
    let width = usize::from(inner.width).max(1);
    let mut lines: Vec<Line> = Vec::new();
    for (i, search) in lab.searches.iter().enumerate() {
        search_lines(lab, i, search, width, &mut lines);
        if let Some(Some(snap)) = snaps.get(i) {
            let (open, closed) = snap.counts();
            let mut units = vec![
                format!("open {}", format_count(open as u64)),
                format!("closed {}", format_count(closed as u64)),
            ];
            if snap.step == search.trace.expansions() && lab.searches.len() > 1 {
                units.push("(done)".into());
            }
            for part in pack(&units, "  ", width) {
                lines.push(Line::from(part));
            }
        }
    }
    let total = app.screen().shown_expansions(app.world());
    let step = app.ui().overlay().current(total);
    let mut play = vec![format!("step {step}/{total}")];
    if app.ui().overlay().autoplay {
        play.push(format!("▶ {}/s", app.ui().overlay().speed()));
    } else {
        play.push(format!("a plays at {}/s", app.ui().overlay().speed()));
    }
    if let Some(c) = lab.compare {
        play.push(c.name(lab.grid.kinds()).into_owned());
    }
    for part in pack(&play, "  ", width) {
        lines.push(Line::styled(part, dim()));
    }
    if let Some(Some(snap)) = snaps.first() {
        layer_legend(
            app.ui().overlay().layer,
            &app.ui().settings().theme,
            snap,
            width,
            &mut lines,
        );
        if let Some(quiz) = &lab.quiz {
            quiz_lines(app, quiz, snap.step, width, &mut lines);
        }
        step_lines(app, lab, snap, usize::from(inner.height), width, &mut lines);
    }
    Paragraph::new(lines).render(inner, buf);
}

/// Search `i`'s lines: its options and costs, its summary, and its notes (where its path
/// leaves an optimal one, what an edit changed, how JPS reads).
fn search_lines(
    lab: &Lab,
    i: usize,
    search: &LabSearch,
    width: usize,
    lines: &mut Vec<Line<'static>>,
) {
    let o = &search.options;
    let label = if i == 0 { "search" } else { "beside" };
    let mut units = vec![
        format!("{label} {}", super::describe::options(o)),
        super::describe::formula(o),
    ];
    if let Some(k) = search.kind.map(|k| lab.grid.kind(k)) {
        // As a monster of that kind searches: its name, and its costs where they differ
        // (its moves, weight and cap are in the options above).
        units.insert(1, format!("as the {}", k.name));
        units.extend(super::describe::kind_costs(&k, &lab.grid));
    }
    for (j, part) in pack(&units, "  ", width).into_iter().enumerate() {
        lines.push(match part.strip_prefix(label) {
            Some(rest) if j == 0 => Line::from(vec![
                Span::styled(label, head()),
                Span::raw(rest.to_string()),
            ]),
            _ => Line::from(part),
        });
    }
    summary_lines(lab, search, width, lines);
    if let Some(at) = search.optimal.and_then(|o| o.leaves) {
        let note = format!("{LEAVES} {}", leaves_note(at));
        lines.extend(
            crate::text::wrap(&note, width)
                .into_iter()
                .map(|l| Line::styled(l, Style::new().fg(Color::Red))),
        );
    }
    if let Some(edited) = lab.edited.as_ref().filter(|_| i == 0)
        && let Some(before) = edited.before.first()
    {
        for part in pack(&changes(&edited.what, before, search), " ", width) {
            lines.push(Line::styled(part, Style::new().fg(Color::Yellow)));
        }
    }
    if o.algorithm == Algorithm::Jps {
        let note = match search.result.fallback {
            Some(why) => super::describe::fallback(why),
            None => "nodes are jump points; runs - | / \\ join them".to_string(),
        };
        lines.extend(
            crate::text::wrap(&note, width)
                .into_iter()
                .map(|l| Line::styled(l, dim())),
        );
    }
}

/// A search's summary as `path` prints it, each figure kept with its word.
fn summary_lines(lab: &Lab, search: &LabSearch, width: usize, lines: &mut Vec<Line<'static>>) {
    let mut sum = summary(&search.result, lab.start, lab.goal);
    if let Some(here) = search.cost_here.filter(|&c| Some(c) != search.result.cost) {
        // The fewest steps, priced on the weighted map.
        sum.push_str(&format!(", {here} with terrain"));
    }
    if let Some(o) = search.optimal {
        sum.push_str(&format!(", optimal {}", o.cost));
    }
    let marked = sum.replace(": ", ":\n").replace(", ", ",\n");
    let units: Vec<&str> = marked.lines().collect();
    for part in pack(&units, " ", width) {
        lines.push(Line::from(part));
    }
}

/// The first search at its step: the open list in pop order (by place in a quiz), then what
/// the last expansion did, in the `height` rows of the panel.
fn step_lines(
    app: &App,
    lab: &Lab,
    snap: &Snapshot,
    height: usize,
    width: usize,
    lines: &mut Vec<Line<'static>>,
) {
    let quizzing = lab.quiz.is_some();
    lines.push(Line::styled(
        if quizzing {
            "open list, by place:"
        } else {
            "open list, next first:"
        },
        head(),
    ));
    // What the last expansion did goes below the open list; built first, so that the
    // open list gets exactly the rows it leaves (its lines wrap on narrow panels).
    let below = expansion_lines(app, lab, snap, width);
    // One row for "… N more"; on a short panel the open list keeps three rows and what
    // is below is cut instead. In a quiz the open list is what the answer is found in:
    // it takes every row left, and the last expansion is cut below it.
    let below_rows = if quizzing { 0 } else { below.len() };
    let room = height.saturating_sub(lines.len() + below_rows + 1).max(3);
    open_lines(lab, snap, room, width, lines);
    lines.extend(below);
}

/// The open list in the order the search pops it, by its tie rule (in a quiz, by place, so
/// that the answer is the learner's to find), in at most `room` rows and one for the rest.
fn open_lines(
    lab: &Lab,
    snap: &Snapshot,
    room: usize,
    width: usize,
    lines: &mut Vec<Line<'static>>,
) {
    let search = &lab.searches[0];
    let mut open = lab.open_order(0, snap.step);
    if lab.quiz.is_some() {
        open.sort_by_key(|n| (n.pos.y, n.pos.x));
    }
    let queued = (search.options.ties != Ties::LowerH).then(|| lab.queued(0, snap.step));
    // An entry too wide for the panel (a huge map's cells and figures) wraps between its
    // figures and counts as the lines it takes.
    let (mut used, mut shown) = (0, 0);
    for n in &open {
        let mut units = vec![
            format!("{:<7}", n.pos.to_string()),
            format!("F{}", n.f),
            format!("G{}", n.g),
            format!("H{}", n.h),
        ];
        // Under LIFO and FIFO the order nodes were queued in breaks the ties.
        if let Some(q) = queued.as_ref().and_then(|q| q.get(&n.pos)) {
            units.push(format!("q{}", q.serial));
        }
        let rows = pack(&units, " ", width.saturating_sub(1));
        if used + rows.len() > room {
            break;
        }
        used += rows.len();
        shown += 1;
        lines.extend(rows.into_iter().map(|row| Line::from(format!(" {row}"))));
    }
    if open.len() > shown {
        lines.push(Line::styled(
            format!(" … {} more", open.len() - shown),
            dim(),
        ));
    }
    if open.is_empty() {
        lines.push(Line::styled(" (empty)", dim()));
    }
}

/// What the first search's last expansion did: the node it took and each neighbour's fate.
fn expansion_lines(app: &App, lab: &Lab, snap: &Snapshot, width: usize) -> Vec<Line<'static>> {
    let mut below: Vec<Line> = Vec::new();
    let Some(e) = lab.searches[0].trace.expansion(snap.step, lab.cost_grid(0)) else {
        below.push(Line::styled(
            format!(
                "no expansion yet: {} steps",
                app.ui().key(Context::Overlay, Action::StepForward)
            ),
            dim(),
        ));
        return below;
    };
    let units = [
        format!("expansion #{}", e.step),
        format!("took {}:", e.node),
    ];
    for part in pack(&units, " ", width) {
        below.push(Line::styled(part, head()));
    }
    if e.goal {
        // It stops on taking the goal: no neighbour is looked at.
        let units = ["the goal:", "the search", "ends here"];
        for part in pack(&units, " ", width.saturating_sub(1)) {
            below.push(Line::styled(format!(" {part}"), dim()));
        }
    }
    for (p, fate) in e.neighbours {
        let style = match fate {
            Fate::New { .. } => Style::new().fg(Color::Green),
            Fate::Improved { .. } => Style::new().fg(Color::Yellow),
            _ => dim(),
        };
        let arrow = map::arrow(e.node, p);
        let units = [
            format!("{arrow} {:<7}", p.to_string()),
            super::describe::fate(fate),
        ];
        for part in pack(&units, " ", width.saturating_sub(1)) {
            below.push(Line::styled(format!(" {part}"), style));
        }
    }
    below
}

/// The glyph that marks where a path leaves every optimal one.
const LEAVES: char = '!';

/// The note on where a found path leaves every optimal one.
fn leaves_note(at: Pos) -> String {
    format!("{at}: its path leaves an optimal one here")
}

/// What an edit of the map changed in a search: `after wall at 4,1:`, then its expansions,
/// cost and path against the search before, each with its word.
fn changes(what: &str, before: &crate::app::lab::Outcome, now: &LabSearch) -> Vec<String> {
    let r = &now.result;
    let cost = |c: Option<u32>| c.map_or("-".to_string(), |c| c.to_string());
    let mut units = vec![format!("after {what}:")];
    units.push(if before.expanded == r.expanded {
        format!("expanded {} (same),", r.expanded)
    } else {
        format!("expanded {} -> {},", before.expanded, r.expanded)
    });
    units.push(if before.cost == r.cost {
        format!("cost {} (same),", cost(r.cost))
    } else {
        format!("cost {} -> {},", cost(before.cost), cost(r.cost))
    });
    if before.path == r.path {
        units.push("the same path".into());
    } else {
        let new = r.path.iter().filter(|p| !before.path.contains(p)).count();
        units.push(format!(
            "path {} -> {} cells, {new} new",
            before.path.len(),
            r.path.len()
        ));
    }
    units
}

/// The quiz's lines: the score, then what the last answer was told (or how to answer).
fn quiz_lines(
    app: &App,
    quiz: &crate::app::lab::Quiz,
    step: u32,
    width: usize,
    lines: &mut Vec<Line<'static>>,
) {
    let key = |a| app.ui().key(Context::Lab, a);
    let done = step >= app.screen().shown_expansions(app.world());
    let score = if done {
        format!("quiz done: {} of {} right", quiz.right, quiz.asked)
    } else {
        format!("quiz: {} of {} right", quiz.right, quiz.asked)
    };
    lines.push(Line::styled(
        score,
        Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED),
    ));
    let (text, style) = match &quiz.verdict {
        Some(v) => (
            v.text.clone(),
            Style::new().fg(if v.right { Color::Green } else { Color::Red }),
        ),
        None => (
            format!(
                "which node is expanded next? The cursor on it, then {}",
                key(Action::Answer)
            ),
            Style::new().fg(Color::DarkGray),
        ),
    };
    lines.extend(
        crate::text::wrap(&text, width)
            .into_iter()
            .map(|l| Line::styled(l, style)),
    );
}

/// The legend of the layer shown: the states' glyphs, or the ramp with its range.
fn layer_legend(
    layer: Layer,
    theme: &Theme,
    snap: &Snapshot,
    width: usize,
    lines: &mut Vec<Line<'static>>,
) {
    match (layer, map::layer_range(snap, layer)) {
        (Layer::States, _) => {
            let glyphs = map::states_legend(theme);
            let name = "layer states";
            let wide: usize = glyphs.iter().map(|s| s.content.chars().count()).sum();
            // The glyphs say which layer this is: on a narrow panel they go without its
            // name rather than be cut.
            let mut spans = Vec::new();
            if name.len() + wide.saturating_sub(1) <= width {
                spans.push(Span::raw(name));
            }
            spans.extend(glyphs);
            lines.push(Line::from(spans));
        }
        (Layer::Parents, _) => lines.push(Line::from("layer parents: arrows to each parent")),
        (Layer::Cost, _) => lines.push(Line::from("layer cost: the weight of each cell")),
        (layer, Some((lo, hi))) => lines.push(Line::from(map::ramp_legend(
            &format!("layer {}", layer.name()),
            lo,
            hi,
        ))),
        (layer, None) => lines.push(Line::from(format!("layer {}", layer.name()))),
    }
}

/// Whether a lab search ran Jump Point Search (asked for, and not fallen back to A*).
fn jumps(search: &LabSearch) -> bool {
    search.options.algorithm == Algorithm::Jps && search.result.fallback.is_none()
}

/// Draws the runs of a Jump Point Search between each jump point and the one it was reached
/// from (diagonal first, then straight), a line glyph per cell between them: the cells the
/// search scanned rather than searched. Drawn first, so that the jump points and the path
/// go over them.
fn draw_runs(snap: &Snapshot, put: &mut impl FnMut(Pos, Option<char>, Style)) {
    let style = Style::new().fg(Color::Cyan);
    for n in &snap.nodes {
        let Some(from) = n.parent else { continue };
        let cells = walk_runs([from, n.pos]);
        for w in cells.windows(2).skip(1) {
            let glyph = match (w[1].x - w[0].x, w[1].y - w[0].y) {
                (_, 0) => '-',
                (0, _) => '|',
                (dx, dy) if dx == dy => '\\',
                _ => '/',
            };
            put(w[0], Some(glyph), style);
        }
    }
}
