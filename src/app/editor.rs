//! The in-game level editor: its tools (brush, rectangles, lines, flood fill, copy and
//! paste, resizing), going between the floors of a campaign, and turning the session's
//! edits and refusals into what the player sees. The session checks each edit against the
//! design (the one validator) and applies the one change to the design and the game in
//! play alike; a shape is a group of such edits that undoes in one step.
//!
//! Shapes take two keys: the tool's key where the shape starts, then, once the cursor is
//! at its other end, the tile to draw it with (`w`, `.`, `v`, any tile key) or `Enter` for
//! the glyph last used. Tiles are taken as they come, so new terrain needs only its key.

use super::tools::{Prefix, Tool, Tools, tile_name};

use super::bindings::{Bindings, together};
use super::keymap::{Action, Context};
use super::{App, Confirm, Mode, Screen};
use crate::content::kinds::own::Kinds;
use crate::content::level::tools::{self, TooBig};
use crate::content::level::{EditOp, FeatureKind, Needs, Refusal, ResizeRefusal, Side, Sides};
use crate::content::map::Tile;
use crate::engine::grid::Pos;
use crate::session::{NoFloor, NoNewFloor};

impl App {
    /// Carries out a command of the editor: `None` once it is
    /// carried out, else the action, for another part of the app.
    pub(super) fn edit_action(&mut self, action: Action) -> Option<Action> {
        match action {
            Action::Edit => {
                self.screen = if self.mode() == Mode::Edit {
                    Screen::Play
                } else {
                    // On the player: the editor's work starts where they stand.
                    Screen::Edit {
                        cursor: self.world().player().pos,
                        stroke: None,
                        tools: Tools::default(),
                    }
                };
            }
            Action::PutTile(tile) => self.put_tile(Some(tile)),
            Action::ToggleTile => self.put_tile(None),
            Action::Tool(tool) => self.use_tool(tool),
            Action::Finish => self.finish(),
            Action::Paste => self.paste(),
            Action::MonsterPrefix => self.set_prefix(Some(Prefix::Monster)),
            Action::PlaceKind(kind) => self.place_kind(kind),
            Action::ResizePrefix => self.toggle_resize(),
            Action::Resize(side, by) => self.resize(side, by),
            Action::FloorBelow => self.add_floor_below(),
            Action::FloorDown => self.change_floor(true),
            Action::FloorUp => self.change_floor(false),
            Action::BlankLevel => self.blank_level(false),
            Action::Delete => self.delete_here(),
            Action::PlaceFeature(kind) => self.edit(EditOp::PlaceFeature(self.cursor(), kind)),
            Action::MovePlayer => self.edit(EditOp::MovePlayer(self.cursor())),
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            other => return Some(other),
        }
        None
    }

    /// Puts a tile at the cursor on the design (`None`: swaps wall and floor); the lab
    /// puts its own (`screens::lab`).
    pub(super) fn put_tile(&mut self, tile: Option<Tile>) {
        let cursor = self.cursor();
        let t = tile.unwrap_or(
            if self.session.design().level().grid.get(cursor) == Tile::Wall {
                Tile::Floor
            } else {
                Tile::Wall
            },
        );
        self.edit_tile(t);
    }

    /// The editor's state, while edit mode is up.
    pub fn tools(&self) -> Option<&Tools> {
        match self.screen.base() {
            Screen::Edit { tools, .. } => Some(tools),
            _ => None,
        }
    }

    fn tools_mut(&mut self) -> Option<&mut Tools> {
        match self.screen.base_mut() {
            Screen::Edit { tools, .. } => Some(tools),
            _ => None,
        }
    }

    /// Puts a tile under the cursor as a single undoable edit, or, with a shape under
    /// way, ends it with that tile; either way the tile becomes the glyph.
    pub(super) fn edit_tile(&mut self, tile: Tile) {
        let pending = self.tools().and_then(|t| t.pending);
        if let Some(t) = self.tools_mut() {
            t.glyph = tile;
        }
        match pending {
            Some((Tool::Copy, _)) => {
                let text = format!(
                    "Copying: {} or {} copies the region, {} forgets it.",
                    self.ui.key(Context::Edit, Action::Tool(Tool::Copy)),
                    self.ui.key(Context::Edit, Action::Finish),
                    self.ui.key(Context::Global, Action::Back)
                );
                self.say(text);
            }
            Some(_) => self.finish_shape(),
            None => self.apply_edit(EditOp::SetTile(self.cursor(), tile), false),
        }
    }

    /// A tool's key: starts its shape at the cursor, or ends the shape when it is under
    /// way already.
    pub(super) fn use_tool(&mut self, tool: Tool) {
        let cursor = self.cursor();
        let Some(t) = self.tools_mut() else { return };
        match t.pending {
            Some((now, _)) if now == tool => self.finish_shape(),
            _ => t.pending = Some((tool, cursor)),
        }
    }

    /// Ends the shape under way with the glyph (`Enter`); without one, puts the glyph
    /// under the cursor.
    pub(super) fn finish(&mut self) {
        match self.tools() {
            Some(t) if t.pending.is_some() => self.finish_shape(),
            Some(t) => {
                let glyph = t.glyph;
                self.apply_edit(EditOp::SetTile(self.cursor(), glyph), false);
            }
            None => {}
        }
    }

    /// Draws (or copies) the shape under way, from its anchor to the cursor.
    fn finish_shape(&mut self) {
        let Some(t) = self.tools_mut() else { return };
        let Some((tool, anchor)) = t.pending.take() else {
            return;
        };
        let glyph = t.glyph;
        let cursor = self.cursor();
        let (lo, hi) = tools::span(anchor, cursor);
        let size = format!("{}x{}", hi.x - lo.x + 1, hi.y - lo.y + 1);
        let name = tile_name(glyph);
        let cells = match tool {
            Tool::Rect | Tool::Box => tools::rect(anchor, cursor, tool == Tool::Box),
            Tool::Line => Ok(tools::line(anchor, cursor)),
            Tool::Fill => tools::flood(&self.session.design().level().grid, cursor),
            Tool::Copy => {
                match self.session.design().copy(anchor, cursor) {
                    Some(clip) => {
                        let paste = self.ui.key(Context::Edit, Action::Paste);
                        self.say(format!(
                            "Copied {size} from {lo}; {paste} pastes it here or on another floor."
                        ));
                        self.ui.clipboard = Some(clip);
                    }
                    None => self.say("That region is too large to copy."),
                }
                return;
            }
        };
        let cells = match cells {
            Ok(cells) => cells,
            Err(TooBig(n)) => {
                self.say(format!(
                    "That {} has {n} cells or more, past the {} the editor changes at once.",
                    tool.name(),
                    tools::MAX_SHAPE_CELLS
                ));
                return;
            }
        };
        let what = match tool {
            Tool::Line => format!("Line of {name}, {} cells long", cells.len()),
            Tool::Fill => format!("Fill with {name}"),
            _ => format!("{} {size} of {name}", capitalise(tool.name())),
        };
        self.group(tools::paint(&cells, glyph), &what);
    }

    /// Lays the clipboard with its top-left corner at the cursor.
    pub(super) fn paste(&mut self) {
        let Some(clip) = self.ui.clipboard.clone() else {
            self.say("Nothing copied yet: c at one corner, c at the other copies a region.");
            return;
        };
        let at = self.cursor();
        let ops = self.session.design().paste(&clip, at);
        let what = format!("Pasted {}x{} at {at}", clip.width(), clip.height());
        self.group(ops, &what);
    }

    /// Carries out a group of edits as one undoable step and says what it did.
    fn group(&mut self, ops: Vec<EditOp>, what: &str) {
        let done = self.session.edit_group(ops);
        if done.changed > 0 {
            self.after_edit();
        }
        let undo = self.ui.key(Context::Edit, Action::Undo);
        let mut text = match done.changed {
            0 => format!("{what}: nothing changed."),
            1 => format!("{what}: 1 change ({undo} undoes it)."),
            n => format!("{what}: {n} changes ({undo} undoes them at once)."),
        };
        if let Some(why) = done.first_refusal {
            let kept = match done.refused {
                1 => "1 cell kept".to_string(),
                n => format!("{n} cells kept"),
            };
            text.push_str(&format!(
                " {kept}: {}",
                refusal(why, &self.ui.settings.bindings, self.world().grid().kinds())
            ));
        }
        self.say(text);
    }

    /// Sets the key waiting for another (or none).
    pub(super) fn set_prefix(&mut self, prefix: Option<Prefix>) {
        if let Some(t) = self.tools_mut() {
            t.prefix = prefix;
        }
    }

    /// Places a monster of a kind under the cursor: the letter after `m`.
    pub(super) fn place_kind(&mut self, kind: char) {
        self.set_prefix(None);
        self.edit(EditOp::AddMonster(self.cursor(), kind));
    }

    /// `Z`: starts resizing, or ends it.
    pub(super) fn toggle_resize(&mut self) {
        let now = self.tools().and_then(|t| t.prefix);
        if now == Some(Prefix::Resize) {
            self.set_prefix(None);
        } else {
            self.set_prefix(Some(Prefix::Resize));
            let grid = &self.session.design().level().grid;
            let (w, h) = (grid.width(), grid.height());
            // Each side's letter where it has one (the table's are hjkl, then the arrows),
            // written together as the hint bar writes them, and "or arrows" when every side
            // has its arrow too.
            let bindings = &self.ui.settings.bindings;
            let ways = |n: i8| -> String {
                let sides = [Side::Left, Side::Bottom, Side::Top, Side::Right];
                let keys =
                    sides.map(|side| bindings.keys_of(Context::Resize, Action::Resize(side, n)));
                let letters = keys.clone().map(|keys| {
                    // One byte: a letter or sign, not an arrow (`↓` is one character).
                    let letter = keys.iter().find(|k| k.len() == 1);
                    letter
                        .or(keys.first())
                        .cloned()
                        .unwrap_or_else(|| "-".into())
                });
                let arrows = ["←", "↓", "↑", "→"];
                let all_arrows = keys
                    .iter()
                    .zip(arrows)
                    .all(|(k, a)| k.iter().any(|k| k == a))
                    && letters.iter().zip(arrows).all(|(l, a)| l != a);
                let or = if all_arrows { " or arrows" } else { "" };
                format!("{}{or}", together(&letters))
            };
            // The key that began resizing ends it, if it does; else the first that does.
            let done = bindings.keys_of(Context::Resize, Action::ResizePrefix);
            let began = self.ui.key(Context::Edit, Action::ResizePrefix);
            let ends = if done.contains(&began) {
                began
            } else {
                self.ui.key(Context::Resize, Action::ResizePrefix)
            };
            let text = format!(
                "Resizing the {w}x{h} map: {} grow a side, {} crop it; {ends} ends.",
                ways(1),
                ways(-1),
            );
            self.say(text);
        }
    }

    /// Esc in the editor: forgets the key waiting or the shape under way; false when there
    /// was neither (so Esc leaves edit mode).
    pub(super) fn cancel_tool(&mut self) -> bool {
        let Some(t) = self.tools_mut() else {
            return false;
        };
        if t.prefix.take().is_some() || t.pending.take().is_some() {
            return true;
        }
        false
    }

    /// Grows (`by` > 0) or crops the map at one side; the cursor stays on its cell.
    pub(super) fn resize(&mut self, side: Side, by: i8) {
        let sides = Sides::one(side, i32::from(by));
        match self.session.resize(sides) {
            Ok(r) => {
                let c = self.cursor();
                let c = Pos::new(
                    (c.x + sides.left).clamp(0, r.width as i32 - 1),
                    (c.y + sides.top).clamp(0, r.height as i32 - 1),
                );
                self.set_cursor(c);
                self.after_edit();
                let verb = if by > 0 { "Grew" } else { "Cropped" };
                let mut text = format!(
                    "{verb} the {} side: the map is {}x{}",
                    side.name(),
                    r.width,
                    r.height
                );
                let cut = r.dropped_monsters + r.dropped_features;
                if cut > 0 {
                    text.push_str(&format!(
                        " ({} monster start{} and {} item{} cut away)",
                        r.dropped_monsters,
                        if r.dropped_monsters == 1 { "" } else { "s" },
                        r.dropped_features,
                        if r.dropped_features == 1 { "" } else { "s" },
                    ));
                }
                text.push_str("; the floor's play starts over.");
                self.say(text);
            }
            Err(why) => self.say(match why {
                ResizeRefusal::Empty => "Nothing would be left of the map.".to_string(),
                ResizeRefusal::Limit(m) => format!("Cannot: {m}."),
                ResizeRefusal::PlayerOutside(p) => {
                    format!("The player's start at {p} would be cut away: move it (@) first.")
                }
                ResizeRefusal::NoteOutside { at, line } => format!(
                    "The message at {at}{} would be cut away: move its cell in the file first.",
                    line.map_or_else(String::new, |l| format!(" (line {l})"))
                ),
            }),
        }
    }

    /// `N`: a blank floor below this one, named by this floor's `next:` header.
    pub(super) fn add_floor_below(&mut self) {
        match self.session.add_floor_below() {
            Ok(f) => {
                let (w, h) = f.size;
                let (save, down) = (
                    self.ui.key(Context::Edit, Action::Save),
                    self.ui.key(Context::Edit, Action::FloorDown),
                );
                self.say(format!(
                    "Made {} ({w}x{h}, blank) as the floor below: {save} saves the next: header, {down} goes down to edit it. Stairs (>) lead there.",
                    f.name
                ));
            }
            Err(NoNewFloor::NoFile) => self.say(format!(
                "Save this floor first ({}): the floor below goes beside its file.",
                self.ui.key(Context::Edit, Action::Save)
            )),
            Err(NoNewFloor::HasNext(name)) => {
                let down = self.ui.key(Context::Edit, Action::FloorDown);
                self.say(format!(
                    "This floor leads to {name} already: {down} goes down to it."
                ))
            }
            Err(NoNewFloor::Failed { name, error }) => {
                self.say(format!("Could not make {name}: {error}."))
            }
        }
    }

    /// `]` and `[`: edits the designed floor below or above.
    pub(super) fn change_floor(&mut self, down: bool) {
        let moved = if down {
            self.session.floor_down()
        } else {
            self.session.floor_up()
        };
        match moved {
            Ok(depth) => {
                self.ui
                    .selection
                    .pick_default(self.session.world(), self.ui.sight);
                // Any long action belonged to the game left behind.
                self.stop_errands();
                self.set_cursor(self.world().player().pos);
                self.after_turn();
                let name = self.session.source().name();
                let last = self.world().final_depth();
                self.say(format!(
                    "Editing floor {depth} of {last}, {name}; the run goes on from here."
                ));
            }
            Err(why) => self.say(match why {
                NoFloor::Unsaved => format!(
                    "Save ({}) or undo your edits first: the other floor replaces this design.",
                    self.ui.key(Context::Edit, Action::Save)
                ),
                NoFloor::NoNext => format!(
                    "This floor names no floor below: {} makes one (a next: header).",
                    self.ui.key(Context::Edit, Action::FloorBelow)
                ),
                NoFloor::Top => "This is the first floor.".to_string(),
                NoFloor::Generated => {
                    "This floor was generated: only designed floors are gone to.".to_string()
                }
                NoFloor::Broken(why) => format!("Cannot go there: {why}"),
            }),
        }
    }

    /// `C-n`: a new run on a blank level (asks first when that would drop edits or a
    /// game under way).
    pub(super) fn blank_level(&mut self, asked: bool) {
        if !asked && (self.session.unsaved() || self.session.in_progress()) {
            self.ask(Confirm::BlankLevel);
            return;
        }
        let editing = self.mode() == Mode::Edit;
        let area = ratatui::layout::Rect::new(0, 0, self.ui.size.0, self.ui.size.1);
        let (w, h) = super::screen::layout(self, area).map_or((40, 14), |l| {
            (usize::from(l.map.width), usize::from(l.map.height))
        });
        match self.session.new_blank((w.max(3), h.max(3))) {
            Ok(crate::session::NewBlank { name, replaced }) => {
                self.replaced(replaced);
                self.began();
                if editing {
                    self.screen = Screen::Edit {
                        cursor: self.world().player().pos,
                        stroke: None,
                        tools: Tools::default(),
                    };
                }
                let (edit, save) = (
                    self.ui.key(Context::Play, Action::Edit),
                    self.ui.key(Context::Edit, Action::Save),
                );
                self.say(format!(
                    "A blank {}x{} level: {edit} edits it, {save} saves it as {name}.",
                    w.max(3),
                    h.max(3)
                ));
            }
            Err(e) => self.say(format!("Cannot make a blank level: {e}")),
        }
    }

    /// Deletes what is under the cursor: the monster that starts or stands there, else the
    /// stairs or potion lying there.
    pub(super) fn delete_here(&mut self) {
        let at = self.cursor();
        let design = self.session.design();
        let monster = design.creature_at(at).is_some_and(|c| c != '@')
            || self.world().monster_at(at).is_some();
        if monster {
            self.edit(EditOp::RemoveMonster(at));
        } else if design.feature_at(at).is_some() {
            self.edit(EditOp::RemoveFeature(at));
        } else {
            self.say("Nothing here to delete.");
        }
    }

    /// Carries out an edit as a single undoable step.
    pub fn edit(&mut self, op: EditOp) {
        self.apply_edit(op, false);
    }

    /// Carries out an edit; `stroke` joins it to the mouse stroke under way.
    pub(super) fn apply_edit(&mut self, op: EditOp, stroke: bool) {
        match self.session.edit(op, stroke) {
            Ok(true) => self.after_edit(),
            Ok(false) => {}
            Err(why) => self.say(refusal(
                why,
                &self.ui.settings.bindings,
                self.world().grid().kinds(),
            )),
        }
    }

    /// Undoes the last edit (a whole mouse stroke, shape or resize at once).
    pub fn undo(&mut self) {
        if self.session.undo() {
            self.after_edit();
        } else {
            self.say("Nothing to undo.");
        }
    }

    /// Redoes the last undone edit.
    pub fn redo(&mut self) {
        if self.session.redo() {
            self.after_edit();
        } else {
            self.say("Nothing to redo.");
        }
    }

    /// Monsters replan at once so the overlay shows the new search; during a mouse stroke
    /// they replan once, when it ends. The cursor stays on the map (an undone resize may
    /// have made it smaller).
    pub(super) fn after_edit(&mut self) {
        self.ui.selection.keep(self.session.world(), self.ui.sight);
        self.ui.overlay.step = None;
        let grid = self.world().grid();
        let (w, h) = (grid.width() as i32, grid.height() as i32);
        if let Some(c) = self.screen.cursor_mut() {
            *c = Pos::new(c.x.clamp(0, w - 1), c.y.clamp(0, h - 1));
        }
        if let Some(Some(stroke)) = self.screen.stroke_mut() {
            stroke.replan = true;
            return;
        }
        // One replan for everyone, the traced monster included.
        let traced = self.wanted_trace();
        self.session.world_mut().replan_tracing(traced);
    }
}

/// Why an edit was refused, for the player, naming the player's keys and the level's kinds.
fn refusal(why: Refusal, bindings: &Bindings, kinds: &Kinds) -> String {
    let d = bindings.key_of(Context::Edit, Action::Delete);
    let who = |c: char| match c {
        '@' => "the player".to_string(),
        c => format!("a {}", kinds.get(c).name),
    };
    match why {
        Refusal::StartsHere(c) => {
            let fix = if c == '@' {
                format!(
                    "move the start ({})",
                    bindings.key_of(Context::Edit, Action::MovePlayer)
                )
            } else {
                format!("delete it ({d})")
            };
            format!("{} starts here; {fix} first.", capitalise(&who(c)))
        }
        Refusal::PlayerStandsThere => "You stand there; step aside first.".into(),
        Refusal::DoorOnEdge => {
            "A door stands in a wall between two cells: not on the map's edge.".into()
        }
        Refusal::LiesHere(FeatureKind::Stairs) => {
            format!("The stairs down lie here; delete them ({d}) first.")
        }
        Refusal::LiesHere(FeatureKind::Potion) => {
            format!("A healing potion lies here; delete it ({d}) first.")
        }
        Refusal::LiesHere(k) => format!("A {} lies here; delete it ({d}) first.", k.name()),
        Refusal::NeedsFloor(Needs::Monster) => "Monsters stand on floor: put floor first.".into(),
        Refusal::NeedsFloor(Needs::Player) => "The player needs a floor cell.".into(),
        Refusal::NeedsFloor(Needs::Feature) => {
            "Stairs and potions lie on floor: put floor first.".into()
        }
        Refusal::Taken(c) => format!("That cell is taken: {} starts there.", who(c)),
        Refusal::NoMonster => "No monster here.".into(),
        Refusal::MonsterStartsThere => "A monster starts there.".into(),
        Refusal::NothingLies => "Nothing lies here.".into(),
    }
}

/// The text with its first letter in upper case.
fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
