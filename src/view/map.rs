//! The map view: tiles, the search overlay and its layers, the planned path, creatures and
//! the cursor. The tile and search drawing is shared with the lab.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};

use super::words::kind_color;
use crate::app::config::Theme;
use crate::app::keymap::{Action, Context};
use crate::app::screen::Layout;
use crate::app::{App, Layer, Mode};
use crate::content::level::FeatureKind;
use crate::content::map::{Tile, TileMap};
use crate::engine::astar::{NodeInfo, NodeState, Snapshot};
use crate::engine::grid::Pos;

/// Overlay glyphs, readable without colour: open `+`, closed `:`, path `*`, current `%`.
const OPEN: char = '+';
const CLOSED: char = ':';
const PATH: char = '*';
const CURRENT: char = '%';

/// The colours of the G, H and F layers, low to high (256-colour palette: dark blue through
/// cyan and green to yellow), one per digit the cells show.
pub(super) const RAMP: [u8; 10] = [17, 19, 25, 31, 37, 43, 77, 113, 184, 220];

/// The level's title, or the file's name without one, for a map's border, marked while the
/// design has edits its file does not, in at most `room` characters: words that do not fit
/// give way to `…` before the mark does (see [`crate::text::fit_title`]). The title is the
/// file's text: escaped, it can never drive the terminal.
pub(super) fn level_title(app: &App, room: usize) -> String {
    const UNSAVED: &str = " [unsaved]";
    let title = app.session().design().level().title.as_deref();
    let title = title.map_or_else(|| app.session().source().name(), str::to_owned);
    let title = crate::text::escape_controls(&title).into_owned();
    // A generated floor too wide for its frame gives up its depth (the panel shows it)
    // before the seed that makes it again.
    let fit = |room: usize| match crate::game::run::floor_title_detail(&title) {
        Some(detail) if title.chars().count() > room => crate::text::fit_title(detail, room),
        _ => crate::text::fit_title(&title, room),
    };
    if !app.session().unsaved() {
        return fit(room);
    }
    let keep = room.saturating_sub(UNSAVED.len());
    if keep > 0 {
        format!("{}{UNSAVED}", fit(keep))
    } else {
        crate::text::fit_title(&format!("{title}{UNSAVED}"), room)
    }
}

pub(super) fn render(app: &App, snapshot: Option<&Snapshot>, l: &Layout, buf: &mut Buffer) {
    frame(app, snapshot, l).render(l.map_block, buf);
    let view = l.map;
    let cam = app.ui().camera();
    let theme = &app.ui().settings().theme;
    let fog = Fog::of(app);
    draw_tiles(app.world().grid(), theme, view, cam, buf, |p| fog.seen(p));
    let mut put = |p: Pos, ch: Option<char>, style: Style| put_cell(buf, view, cam, p, ch, style);
    draw_features(app, &fog, &mut put);
    draw_search_or_path(app, snapshot, &fog, view, &mut put);
    if app.screen().mode() == Mode::Edit {
        draw_moved_starts(app, &mut put);
    }
    for m in app.world().monsters().iter().filter(|m| fog.shown(m.pos)) {
        let mut style = Style::new()
            .fg(kind_color(app.world().grid(), m.kind))
            .add_modifier(Modifier::BOLD);
        if Some(m.id) == app.ui().selected() {
            style = style.add_modifier(Modifier::UNDERLINED | Modifier::REVERSED);
        }
        put(m.pos, Some(m.kind), style);
    }
    put(
        app.world().player().pos,
        Some('@'),
        Style::new().fg(theme.player).add_modifier(Modifier::BOLD),
    );
    if let Some((tool, anchor)) = app.screen().tools().and_then(|t| t.pending) {
        draw_pending(tool, anchor, app.cursor(), &mut put);
    }
    if matches!(app.screen().mode(), Mode::Look | Mode::Edit) {
        put(
            app.cursor(),
            None,
            Style::new().fg(Color::Black).bg(Color::White),
        );
    }
}

/// The map's frame: the level's title, why the search starts where it does, the overlay's
/// legend and the custom options, yellow while editing.
fn frame<'a>(app: &App, snapshot: Option<&Snapshot>, l: &Layout) -> Block<'a> {
    // The frame's corners, and a space before the title (the one after may go).
    let room = usize::from(l.map_block.width).saturating_sub(2);
    let title = level_title(app, room.saturating_sub(1));
    let mut block = Block::bordered().title(format!(" {title} "));
    if let Some(why) = search_origin(app, room.saturating_sub(title.chars().count() + 3)) {
        block = block.title(Line::from(why).right_aligned());
    }
    let legend = fitted_legend(app, snapshot, l.map, room);
    let legend_w: usize = legend.iter().map(|s| s.content.chars().count()).sum();
    if !legend.is_empty() {
        // The overlay's legend sits on the map's frame, where it costs no row of the panel.
        block = block.title_bottom(Line::from(legend));
    }
    let o = app.world().options();
    if !o.is_default() {
        // The custom options in full where they fit beside the legend, else one word: the
        // two never overlap.
        let full = format!(" custom search: {} ", super::describe::options(&o));
        let text = [full, " CUSTOM ".to_string()]
            .into_iter()
            .find(|t| legend_w + t.chars().count() < room);
        if let Some(text) = text {
            block = block.title_bottom(
                Line::from(Span::styled(
                    text,
                    Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
                ))
                .right_aligned(),
            );
        }
    }
    if app.screen().mode() == Mode::Edit {
        block = block.border_style(Style::new().fg(Color::Yellow));
    }
    block
}

/// The overlay's legend cut to `room`, or none when even the shortest does not fit.
fn fitted_legend(
    app: &App,
    snapshot: Option<&Snapshot>,
    view: Rect,
    room: usize,
) -> Vec<Span<'static>> {
    let mut legend = if app.ui().overlay().on {
        legend(app, snapshot, view)
    } else {
        Vec::new()
    };
    let mut legend_w: usize = legend.iter().map(|s| s.content.chars().count()).sum();
    if legend_w > room {
        // The states' glyphs go a pair (glyph, word) at a time from the end; a ramp cut
        // would show a wrong figure at its end, so a frame too narrow for it shows none.
        let states = app.world().planner().distance_map().is_none()
            && app.ui().overlay().layer == Layer::States;
        while states && legend.len() > 3 && legend_w > room {
            legend.truncate(legend.len() - 2);
            legend_w = legend.iter().map(|s| s.content.chars().count()).sum();
        }
        if legend_w > room {
            legend.clear();
        }
    }
    legend
}

/// What the map shows of each cell. While playing with sight on, the map shows what the
/// player sees, the rest of what they have seen dimmed, and nothing else; every other view
/// shows the whole map.
struct Fog<'a> {
    app: &'a App,
    on: bool,
}

impl<'a> Fog<'a> {
    fn of(app: &'a App) -> Fog<'a> {
        let on = app.ui().sight() && app.screen().mode() == Mode::Play && !app.ui().overlay().on;
        Fog { app, on }
    }

    fn shown(&self, p: Pos) -> bool {
        !self.on || self.app.world().is_visible(p)
    }

    fn remembered(&self, p: Pos) -> bool {
        self.on && !self.app.world().is_visible(p) && self.app.world().is_seen(p)
    }

    fn seen(&self, p: Pos) -> Seen {
        // Asked of every cell on every frame: one look at the sight each.
        let world = self.app.world();
        if !self.on || world.is_visible(p) {
            Seen::Shown
        } else if world.is_seen(p) {
            Seen::Remembered
        } else {
            Seen::Hidden
        }
    }
}

/// The level's features (stairs, potions, lures, seeds, spikes) the player sees or
/// remembers.
fn draw_features(app: &App, fog: &Fog, put: &mut impl FnMut(Pos, Option<char>, Style)) {
    let dimmed = Style::new().fg(Color::DarkGray).add_modifier(Modifier::DIM);
    for f in app.world().features() {
        let style = match f.kind {
            _ if fog.remembered(f.pos) => dimmed,
            _ if !fog.shown(f.pos) => continue,
            FeatureKind::Stairs => Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
            FeatureKind::Potion => Style::new()
                .fg(Color::LightMagenta)
                .add_modifier(Modifier::BOLD),
            FeatureKind::Lure | FeatureKind::Seeds | FeatureKind::Spike => Style::new()
                .fg(Color::LightYellow)
                .add_modifier(Modifier::BOLD),
        };
        put(f.pos, Some(f.kind.glyph()), style);
    }
}

/// The overlay's Dijkstra map or search, or else the selected monster's path when shown.
fn draw_search_or_path(
    app: &App,
    snapshot: Option<&Snapshot>,
    fog: &Fog,
    view: Rect,
    put: &mut impl FnMut(Pos, Option<char>, Style),
) {
    let theme = &app.ui().settings().theme;
    let cam = app.ui().camera();
    let selected = app.ui().selected().and_then(|id| app.world().monster(id));
    if let Some(map) = app
        .world()
        .planner()
        .distance_map()
        .filter(|_| app.ui().overlay().on)
    {
        // Planning by one Dijkstra map: the overlay shows the map itself, every cell shaded
        // by its cost to the player.
        draw_distance_map(map, view, cam, put);
    } else if let Some(snap) = snapshot {
        if app.ui().overlay().layer == Layer::Cost {
            draw_costs(app.world().grid(), view, cam, put);
        }
        draw_search(
            snap,
            app.world().grid(),
            app.ui().overlay().layer,
            app.ui().overlay().step.is_some(),
            &snap.path,
            theme,
            put,
        );
    } else if app.ui().show_path()
        && let Some(m) = selected
    {
        // A potion or the stairs on the way keeps its glyph, on the path's colour: the path
        // is the monster's, the item is what the player is looking for.
        let item =
            |p: Pos| app.world().feature_at(p).is_some() && (fog.shown(p) || fog.remembered(p));
        for &p in m.plan.path.iter().skip(1) {
            if item(p) {
                // Underlined: on the path without colour too.
                put(
                    p,
                    None,
                    Style::new()
                        .fg(Color::Black)
                        .bg(theme.path)
                        .add_modifier(Modifier::UNDERLINED),
                );
            } else {
                put(p, Some(PATH), Style::new().fg(theme.path));
            }
        }
    }
}

/// The design's starts whose creature has moved away, dimmed: what a save writes.
fn draw_moved_starts(app: &App, put: &mut impl FnMut(Pos, Option<char>, Style)) {
    let design = app.session().design().level();
    let dim = Style::new()
        .fg(Color::DarkGray)
        .add_modifier(Modifier::ITALIC);
    for s in &design.monsters {
        if app.world().monster_from(s.pos).map(|m| m.pos) != Some(s.pos) {
            put(s.pos, Some(s.kind), dim);
        }
    }
    if let Some(p) = design.player.filter(|&p| p != app.world().player().pos) {
        put(p, Some('@'), dim);
    }
}

/// The shape an editor tool has under way, from its anchor to the cursor, as it would be
/// drawn.
fn draw_pending(
    tool: crate::app::Tool,
    anchor: Pos,
    cursor: Pos,
    put: &mut impl FnMut(Pos, Option<char>, Style),
) {
    use crate::app::Tool;
    use crate::content::level::tools;
    let cells = match tool {
        Tool::Rect | Tool::Copy => tools::rect(anchor, cursor, false).unwrap_or_default(),
        Tool::Box => tools::rect(anchor, cursor, true).unwrap_or_default(),
        Tool::Line => tools::line(anchor, cursor),
        Tool::Fill => Vec::new(),
    };
    let shape = Style::new()
        .bg(Color::DarkGray)
        .add_modifier(Modifier::UNDERLINED);
    for p in cells {
        put(p, None, shape);
    }
    put(
        anchor,
        None,
        Style::new()
            .fg(Color::Black)
            .bg(Color::Yellow)
            .add_modifier(Modifier::UNDERLINED),
    );
}

/// Why the overlay's search starts where it does, in the widest form that fits `room`:
/// the selected monster planned from a cell it has since left (a fast one moved again).
fn search_origin(app: &App, room: usize) -> Option<String> {
    if !app.ui().overlay().on || app.world().trace().is_none() {
        return None;
    }
    let m = app.ui().selected().and_then(|id| app.world().monster(id))?;
    let (from, _) = m.planned;
    if from == m.pos {
        return None;
    }
    let name = app.world().kind(m.kind).name;
    [
        format!(" search from {from}: where the {name} planned, before it moved "),
        format!(" search from {from}, where the {} planned ", m.kind),
        format!(" planned from {from} "),
        format!(" from {from} "),
    ]
    .into_iter()
    .find(|t| t.chars().count() <= room)
}

/// The overlay's legend for the map's frame: the states' glyphs, or the ramp of the G, H
/// or F layer (or of the Dijkstra map) with the values its ends stand for.
fn legend(app: &App, snapshot: Option<&Snapshot>, view: Rect) -> Vec<Span<'static>> {
    if let Some(map) = app.world().planner().distance_map() {
        let (lo, hi) = distance_range(map, view, app.ui().camera());
        let mut spans = ramp_legend(" cost to you", lo, hi);
        spans.push(Span::raw(" "));
        return spans;
    }
    let Some(snap) = snapshot else {
        return Vec::new();
    };
    let layer = app.ui().overlay().layer;
    let v = app.ui().key(Context::Overlay, Action::CycleLayer);
    match (layer, layer_range(snap, layer)) {
        (Layer::States, _) => states_legend(&app.ui().settings().theme),
        (Layer::Parents, _) => vec![Span::raw(format!(" parents: arrows to each ({v}) "))],
        (_, Some((lo, hi))) => {
            let mut spans = ramp_legend(&format!(" {}", layer.name()), lo, hi);
            spans.push(Span::raw(format!(" ({v}) ")));
            spans
        }
        (_, None) => vec![Span::raw(format!(" layer {} ({v}) ", layer.name()))],
    }
}

/// `label lo 0123456789 hi`, each digit on its colour of the ramp.
pub(super) fn ramp_legend(label: &str, lo: u32, hi: u32) -> Vec<Span<'static>> {
    let mut spans = vec![Span::raw(format!("{label} {lo} "))];
    for (d, &c) in RAMP.iter().enumerate() {
        let fg = if d >= 7 { Color::Black } else { Color::White };
        spans.push(Span::styled(
            d.to_string(),
            Style::new().fg(fg).bg(Color::Indexed(c)),
        ));
    }
    spans.push(Span::raw(format!(" {hi}")));
    spans
}

/// The lowest and highest cost of a Dijkstra map over the cells of `view`.
fn distance_range(map: &crate::engine::dijkstra::DistanceMap, view: Rect, cam: Pos) -> (u32, u32) {
    let costs = (0..view.height)
        .flat_map(|r| (0..view.width).map(move |c| (c, r)))
        .filter_map(|(c, r)| map.get(Pos::new(cam.x + i32::from(c), cam.y + i32::from(r))));
    costs.fold((u32::MAX, 0), |(lo, hi), v| (lo.min(v), hi.max(v)))
}

/// The glyphs of the states layer, as spans for a frame's title (other layers name
/// themselves; their ramp's legend is in the lab's panel).
pub(super) fn states_legend(theme: &Theme) -> Vec<Span<'static>> {
    vec![
        Span::raw(" "),
        Span::styled("+", Style::new().bg(theme.open).fg(Color::White)),
        Span::raw("open "),
        Span::styled(":", Style::new().bg(theme.closed).fg(Color::White)),
        Span::raw("closed "),
        Span::styled("*", Style::new().bg(theme.path).fg(Color::Black)),
        Span::raw("path "),
        Span::styled("%", Style::new().bg(theme.now).fg(Color::White)),
        Span::raw("now "),
    ]
}

/// Draws a Dijkstra map over the cells of `view`: a digit and a colour for each reachable
/// cell's tenth of the range of costs on screen.
fn draw_distance_map(
    map: &crate::engine::dijkstra::DistanceMap,
    view: Rect,
    cam: Pos,
    put: &mut impl FnMut(Pos, Option<char>, Style),
) {
    let cells = (0..view.height).flat_map(|r| (0..view.width).map(move |c| (c, r)));
    let on_screen = |(c, r): (u16, u16)| Pos::new(cam.x + i32::from(c), cam.y + i32::from(r));
    let costs: Vec<(Pos, u32)> = cells
        .map(on_screen)
        .filter_map(|p| Some((p, map.get(p)?)))
        .collect();
    let (lo, hi) = distance_range(map, view, cam);
    for (p, cost) in costs {
        let d = decile(cost, (lo, hi));
        let fg = if d >= 7 { Color::Black } else { Color::White };
        let digit = char::from_digit(d as u32, 10).unwrap_or('?');
        put(
            p,
            Some(digit),
            Style::new().fg(fg).bg(Color::Indexed(RAMP[d])),
        );
    }
}

/// How much of a cell the player knows, for drawing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Seen {
    /// In sight (or sight is off): drawn as it is.
    Shown,
    /// Seen before: drawn dimmed.
    Remembered,
    /// Never seen: drawn blank.
    Hidden,
}

/// Draws `grid`'s tiles in `view`, the cell `cam` at its top-left, as `seen` says.
pub(super) fn draw_tiles(
    grid: &TileMap,
    theme: &Theme,
    view: Rect,
    cam: Pos,
    buf: &mut Buffer,
    seen: impl Fn(Pos) -> Seen,
) {
    let dimmed = Style::new().fg(Color::DarkGray).add_modifier(Modifier::DIM);
    for row in 0..view.height {
        for col in 0..view.width {
            let p = Pos::new(cam.x + i32::from(col), cam.y + i32::from(row));
            let tile = grid.get(p);
            let (ch, style) = match (seen(p), tile) {
                (Seen::Hidden, _) => (' ', Style::new()),
                (Seen::Remembered, t) => (crate::content::level::tile_glyph(t), dimmed),
                (Seen::Shown, Tile::Wall) => ('#', Style::new().fg(theme.wall)),
                (Seen::Shown, Tile::Floor) => ('.', Style::new().fg(theme.floor)),
                (Seen::Shown, Tile::Void) => (' ', Style::new()),
                (Seen::Shown, Tile::Water) => ('~', Style::new().fg(Color::Blue)),
                (Seen::Shown, Tile::Brush) => ('"', Style::new().fg(Color::Green)),
                (Seen::Shown, t @ (Tile::DoorClosed | Tile::DoorOpen | Tile::DoorJammed)) => (
                    crate::content::level::tile_glyph(t),
                    Style::new().fg(Color::Yellow),
                ),
            };
            buf[(view.x + col, view.y + row)]
                .set_char(ch)
                .set_style(style);
        }
    }
}

/// Sets a map cell's glyph (unless `None`) and style, if the cell is in `view`.
pub(super) fn put_cell(
    buf: &mut Buffer,
    view: Rect,
    cam: Pos,
    p: Pos,
    ch: Option<char>,
    style: Style,
) {
    let (dx, dy) = (p.x - cam.x, p.y - cam.y);
    if dx >= 0 && dy >= 0 && dx < i32::from(view.width) && dy < i32::from(view.height) {
        let cell = &mut buf[(view.x + dx as u16, view.y + dy as u16)];
        if let Some(c) = ch {
            cell.set_char(c);
        }
        cell.set_style(style);
    }
}

/// The lowest and highest of a layer's value over the touched nodes, for its ramp.
pub(super) fn layer_range(snap: &Snapshot, layer: Layer) -> Option<(u32, u32)> {
    let values = snap.nodes.iter().filter_map(|n| layer_value(n, layer));
    let (lo, hi) = values.fold((u32::MAX, 0), |(lo, hi), v| (lo.min(v), hi.max(v)));
    (lo <= hi).then_some((lo, hi))
}

fn layer_value(n: &NodeInfo, layer: Layer) -> Option<u32> {
    match layer {
        Layer::G => Some(n.g),
        Layer::H => Some(n.h),
        Layer::F => Some(n.f),
        Layer::States | Layer::Parents | Layer::Cost => None,
    }
}

/// The arrow from a cell toward another (its parent).
pub(super) fn arrow(from: Pos, to: Pos) -> char {
    match ((to.x - from.x).signum(), (to.y - from.y).signum()) {
        (-1, 0) => '←',
        (1, 0) => '→',
        (0, -1) => '↑',
        (0, 1) => '↓',
        (-1, -1) => '↖',
        (1, -1) => '↗',
        (-1, 1) => '↙',
        (1, 1) => '↘',
        _ => '•',
    }
}

/// The glyph a terrain keeps under the search's states, so that a pond stays in sight
/// while the search floods round it: water and brush, and any terrain whose weight is not
/// one. `None` for plain floor, walls and void.
pub(super) fn terrain_glyph(grid: &TileMap, p: Pos) -> Option<char> {
    let t = grid.get(p);
    let heavy = t.is_passable() && grid.weight(p) != 1;
    (matches!(t, Tile::Water | Tile::Brush) || heavy).then(|| crate::content::level::tile_glyph(t))
}

/// The cost layer: every passable cell of `view` shows its weight (1 to 9), shaded from
/// light (1) to dark (9) on the ramp of the other layers.
pub(super) fn draw_costs(
    grid: &TileMap,
    view: Rect,
    cam: Pos,
    put: &mut impl FnMut(Pos, Option<char>, Style),
) {
    for row in 0..view.height {
        for col in 0..view.width {
            let p = Pos::new(cam.x + i32::from(col), cam.y + i32::from(row));
            let k = grid.weight(p);
            if k == 0 {
                continue;
            }
            let d = decile(k, (1, 9));
            let fg = if d >= 7 { Color::Black } else { Color::White };
            put(
                p,
                char::from_digit(k, 10),
                Style::new().fg(fg).bg(Color::Indexed(RAMP[d])),
            );
        }
    }
}

/// Which tenth of `lo..=hi` a value falls in: 0 to 9.
pub(super) fn decile(v: u32, (lo, hi): (u32, u32)) -> usize {
    if hi == lo {
        return 0;
    }
    ((u64::from(v - lo) * 10 / (u64::from(hi - lo) + 1)) as usize).min(9)
}

/// The mark of an open node whose glyph is not the state's own (a terrain's, a parent's
/// arrow): underlined, so that open and closed differ without colour.
fn open_mark(state: NodeState) -> Modifier {
    match state {
        NodeState::Open => Modifier::UNDERLINED,
        NodeState::Closed => Modifier::empty(),
    }
}

/// Draws a search as `layer` shows it: states (open `+`, closed `:`, `path` as `*`, the node
/// being expanded `%` when `stepping`), G, H or F as a digit and a colour for their tenth of
/// the range, or an arrow toward each node's parent. The path is drawn over every layer. On
/// the states layer open and closed water and brush keep their glyph (`~`, `"`) under the
/// state's colour.
/// The cost layer (drawn beforehand by [`draw_costs`]) only gets the path and the node
/// being expanded.
pub(super) fn draw_search(
    snap: &Snapshot,
    grid: &TileMap,
    layer: Layer,
    stepping: bool,
    path: &[Pos],
    theme: &Theme,
    put: &mut impl FnMut(Pos, Option<char>, Style),
) {
    let range = layer_range(snap, layer);
    for n in &snap.nodes {
        let state_bg = match n.state {
            NodeState::Open => theme.open,
            NodeState::Closed => theme.closed,
        };
        match (layer, layer_value(n, layer), range) {
            (_, Some(v), Some(range)) => {
                let d = decile(v, range);
                let fg = if d >= 7 { Color::Black } else { Color::White };
                let digit = char::from_digit(d as u32, 10).unwrap_or('?');
                put(
                    n.pos,
                    Some(digit),
                    Style::new().fg(fg).bg(Color::Indexed(RAMP[d])),
                );
            }
            (Layer::Parents, _, _) => {
                let arrow = n.parent.map_or('•', |q| arrow(n.pos, q));
                put(
                    n.pos,
                    Some(arrow),
                    Style::new()
                        .fg(Color::White)
                        .bg(state_bg)
                        .add_modifier(open_mark(n.state)),
                );
            }
            (Layer::Cost, _, _) => {}
            _ => {
                // A terrain keeps its glyph: the open ones are underlined, so that the
                // frontier reads without colour as `+` does on floor.
                let (ch, mark) = match terrain_glyph(grid, n.pos) {
                    Some(t) => (t, open_mark(n.state)),
                    None => match n.state {
                        NodeState::Open => (OPEN, Modifier::empty()),
                        NodeState::Closed => (CLOSED, Modifier::empty()),
                    },
                };
                put(
                    n.pos,
                    Some(ch),
                    Style::new()
                        .fg(Color::White)
                        .bg(state_bg)
                        .add_modifier(mark),
                );
            }
        }
    }
    // The other layers keep their digit or arrow on the path, which shows by its colour
    // and, without colours, in bold. The path keeps its `*` on any terrain: it is what the
    // search found, and must read without colours too.
    let (path_glyph, path_mark) = if layer == Layer::States {
        (Some(PATH), Modifier::empty())
    } else {
        (None, Modifier::BOLD)
    };
    for &p in path {
        put(
            p,
            path_glyph,
            Style::new()
                .fg(Color::Black)
                .bg(theme.path)
                .add_modifier(path_mark),
        );
    }
    if let Some(c) = snap.current.filter(|_| stepping) {
        put(
            c,
            Some(CURRENT),
            Style::new().fg(Color::White).bg(theme.now),
        );
    }
}
