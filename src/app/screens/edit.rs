//! The editor: the level's design painted, shaped, copied and resized under a cursor. Its
//! commands are carried out here by an [`Editor`] on the session; the screen's state is
//! its cursor, its mouse stroke and its tools (`app::tools`). Leaving it, changing floors
//! and starting a blank level change the screen or the run, so the app does those.

use crate::app::bindings::{Bindings, together};
use crate::app::command::{Action, Context, Context as C};
use crossterm::event::MouseButton;

use crate::app::tools::{Prefix, Stroke, Tool, Tools, tile_name};
use crate::content::kinds::own::Kinds;
use crate::content::level::FeatureKind;
use crate::content::level::design::{EditOp, Needs, Refusal, ResizeRefusal, Side, Sides};
use crate::content::level::tools::{self, Clip, TooBig};
use crate::content::map::Tile;
use crate::engine::grid::Pos;
use crate::session::{NoNewFloor, Session};

/// The editor.
pub const CONTEXTS: &[C] = &[C::Edit, C::Global, C::Always];
/// The editor after `m`, waiting for a monster's letter.
pub const MONSTER: &[C] = &[C::Monster, C::Always];
/// The editor after `Z`, resizing the map.
pub const RESIZE: &[C] = &[C::Resize, C::Always];

/// The contexts of the editor with a key waiting for the next (`prefix`) or none.
pub fn contexts(prefix: Option<Prefix>) -> &'static [C] {
    match prefix {
        Some(Prefix::Monster) => MONSTER,
        Some(Prefix::Resize) => RESIZE,
        None => CONTEXTS,
    }
}

/// The editor at work on one command: the screen's cursor and tools, the session whose
/// design it edits, the clipboard kept across floors and the player's keys to word it.
pub struct Editor<'a> {
    /// The run whose design is edited (and whose log the editor speaks in).
    pub session: &'a mut Session,
    /// The cell edited.
    pub cursor: &'a mut Pos,
    /// The shape under way, the glyph, a key waiting for the next.
    pub tools: &'a mut Tools,
    /// The mouse stroke under way.
    pub stroke: &'a mut Option<Stroke>,
    /// The region copied last.
    pub clipboard: &'a mut Option<Clip>,
    /// The player's keys, for the editor's words.
    pub bindings: &'a Bindings,
    /// Whether the design changed: the app replans the monsters once for it.
    pub edited: bool,
}

impl Editor<'_> {
    /// Carries out a command of the editor's: `None` once it is carried out, else the
    /// action, for the app.
    pub fn handle(&mut self, action: Action) -> Option<Action> {
        match action {
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
            Action::Delete => self.delete_here(),
            Action::PlaceFeature(kind) => self.edit(EditOp::PlaceFeature(self.cursor(), kind)),
            Action::MovePlayer => self.edit(EditOp::MovePlayer(self.cursor())),
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            other => return Some(other),
        }
        None
    }

    /// The mouse in edit mode: the left button paints walls, the right one floor; with a
    /// shape under way a click only moves the cursor, to its other end.
    pub fn mouse(&mut self, cell: Pos, button: MouseButton, drag: bool) {
        *self.cursor = cell;
        if self.tools.pending.is_some() {
            return;
        }
        let stroke = match *self.stroke {
            Some(s) if drag => s,
            _ => {
                self.session.begin_stroke();
                let tile = if button == MouseButton::Left {
                    Tile::Wall
                } else {
                    Tile::Floor
                };
                Stroke {
                    last: cell,
                    tile,
                    replan: false,
                }
            }
        };
        *self.stroke = Some(stroke);
        // A fast drag skips cells between two reports: paint the line between them.
        let mut from = Some(stroke.last).filter(|_| drag);
        for p in tools::line(stroke.last, cell) {
            if from.take() == Some(p) {
                continue;
            }
            self.apply_edit(EditOp::SetTile(p, stroke.tile), true);
        }
        if let Some(s) = self.stroke {
            s.last = cell;
        }
    }

    /// The cell edited.
    fn cursor(&self) -> Pos {
        *self.cursor
    }

    /// The player's first key for `action` in `context`, for the editor's words.
    fn key(&self, context: Context, action: Action) -> String {
        self.bindings.key_of(context, action)
    }

    /// Puts a tile at the cursor on the design (`None`: swaps wall and floor); the lab
    /// puts its own (`screens::lab`).
    fn put_tile(&mut self, tile: Option<Tile>) {
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

    /// Puts a tile under the cursor as a single undoable edit, or, with a shape under
    /// way, ends it with that tile; either way the tile becomes the glyph.
    fn edit_tile(&mut self, tile: Tile) {
        let pending = self.tools.pending;
        self.tools.glyph = tile;
        match pending {
            Some((Tool::Copy, _)) => {
                let text = format!(
                    "Copying: {} or {} copies the region, {} forgets it.",
                    self.key(Context::Edit, Action::Tool(Tool::Copy)),
                    self.key(Context::Edit, Action::Finish),
                    self.key(Context::Global, Action::Back)
                );
                self.session.say(text);
            }
            Some(_) => self.finish_shape(),
            None => self.apply_edit(EditOp::SetTile(self.cursor(), tile), false),
        }
    }

    /// A tool's key: starts its shape at the cursor, or ends the shape when it is under
    /// way already.
    fn use_tool(&mut self, tool: Tool) {
        let cursor = self.cursor();
        match self.tools.pending {
            Some((now, _)) if now == tool => self.finish_shape(),
            _ => self.tools.pending = Some((tool, cursor)),
        }
    }

    /// Ends the shape under way with the glyph (`Enter`); without one, puts the glyph
    /// under the cursor.
    fn finish(&mut self) {
        if self.tools.pending.is_some() {
            self.finish_shape();
        } else {
            let glyph = self.tools.glyph;
            self.apply_edit(EditOp::SetTile(self.cursor(), glyph), false);
        }
    }

    /// Draws (or copies) the shape under way, from its anchor to the cursor.
    fn finish_shape(&mut self) {
        let Some((tool, anchor)) = self.tools.pending.take() else {
            return;
        };
        let glyph = self.tools.glyph;
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
                        let paste = self.key(Context::Edit, Action::Paste);
                        self.session.say(format!(
                            "Copied {size} from {lo}; {paste} pastes it here or on another floor."
                        ));
                        *self.clipboard = Some(clip);
                    }
                    None => self.session.say("That region is too large to copy."),
                }
                return;
            }
        };
        let cells = match cells {
            Ok(cells) => cells,
            Err(TooBig(n)) => {
                self.session.say(format!(
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
    fn paste(&mut self) {
        let Some(clip) = self.clipboard.clone() else {
            self.session
                .say("Nothing copied yet: c at one corner, c at the other copies a region.");
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
            self.edited = true;
        }
        let undo = self.key(Context::Edit, Action::Undo);
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
                refusal(why, self.bindings, self.session.world().grid().kinds())
            ));
        }
        self.session.say(text);
    }

    /// Sets the key waiting for another (or none).
    fn set_prefix(&mut self, prefix: Option<Prefix>) {
        self.tools.prefix = prefix;
    }

    /// Places a monster of a kind under the cursor: the letter after `m`.
    fn place_kind(&mut self, kind: char) {
        self.set_prefix(None);
        self.edit(EditOp::AddMonster(self.cursor(), kind));
    }

    /// `Z`: starts resizing, or ends it.
    fn toggle_resize(&mut self) {
        let now = self.tools.prefix;
        if now == Some(Prefix::Resize) {
            self.set_prefix(None);
        } else {
            self.set_prefix(Some(Prefix::Resize));
            let grid = &self.session.design().level().grid;
            let (w, h) = (grid.width(), grid.height());
            // Each side's letter where it has one (the table's are hjkl, then the arrows),
            // written together as the hint bar writes them, and "or arrows" when every side
            // has its arrow too.
            let bindings = self.bindings;
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
            let began = self.key(Context::Edit, Action::ResizePrefix);
            let ends = if done.contains(&began) {
                began
            } else {
                self.key(Context::Resize, Action::ResizePrefix)
            };
            let text = format!(
                "Resizing the {w}x{h} map: {} grow a side, {} crop it; {ends} ends.",
                ways(1),
                ways(-1),
            );
            self.session.say(text);
        }
    }

    /// Grows (`by` > 0) or crops the map at one side; the cursor stays on its cell.
    fn resize(&mut self, side: Side, by: i8) {
        let sides = Sides::one(side, i32::from(by));
        match self.session.resize(sides) {
            Ok(r) => {
                let c = self.cursor();
                let c = Pos::new(
                    (c.x + sides.left).clamp(0, r.width as i32 - 1),
                    (c.y + sides.top).clamp(0, r.height as i32 - 1),
                );
                *self.cursor = c;
                self.edited = true;
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
                self.session.say(text);
            }
            Err(why) => self.session.say(match why {
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
    fn add_floor_below(&mut self) {
        match self.session.add_floor_below() {
            Ok(f) => {
                let (w, h) = f.size;
                let (save, down) = (
                    self.key(Context::Edit, Action::Save),
                    self.key(Context::Edit, Action::FloorDown),
                );
                self.session.say(format!(
                    "Made {} ({w}x{h}, blank) as the floor below: {save} saves the next: header, {down} goes down to edit it. Stairs (>) lead there.",
                    f.name
                ));
            }
            Err(NoNewFloor::NoFile) => self.session.say(format!(
                "Save this floor first ({}): the floor below goes beside its file.",
                self.key(Context::Edit, Action::Save)
            )),
            Err(NoNewFloor::HasNext(name)) => {
                let down = self.key(Context::Edit, Action::FloorDown);
                self.session.say(format!(
                    "This floor leads to {name} already: {down} goes down to it."
                ))
            }
            Err(NoNewFloor::Failed { name, error }) => {
                self.session.say(format!("Could not make {name}: {error}."))
            }
        }
    }

    /// Deletes what is under the cursor: the monster that starts or stands there, else the
    /// stairs or potion lying there.
    fn delete_here(&mut self) {
        let at = self.cursor();
        let design = self.session.design();
        let monster = design.creature_at(at).is_some_and(|c| c != '@')
            || self.session.world().monster_at(at).is_some();
        if monster {
            self.edit(EditOp::RemoveMonster(at));
        } else if design.feature_at(at).is_some() {
            self.edit(EditOp::RemoveFeature(at));
        } else {
            self.session.say("Nothing here to delete.");
        }
    }

    /// Carries out an edit as a single undoable step.
    pub fn edit(&mut self, op: EditOp) {
        self.apply_edit(op, false);
    }

    /// Carries out an edit; `stroke` joins it to the mouse stroke under way.
    pub fn apply_edit(&mut self, op: EditOp, stroke: bool) {
        match self.session.edit(op, stroke) {
            Ok(true) => self.edited = true,
            Ok(false) => {}
            Err(why) => self.session.say(refusal(
                why,
                self.bindings,
                self.session.world().grid().kinds(),
            )),
        }
    }

    /// Undoes the last edit (a whole mouse stroke, shape or resize at once).
    fn undo(&mut self) {
        if self.session.undo() {
            self.edited = true;
        } else {
            self.session.say("Nothing to undo.");
        }
    }

    /// Redoes the last undone edit.
    fn redo(&mut self) {
        if self.session.redo() {
            self.edited = true;
        } else {
            self.session.say("Nothing to redo.");
        }
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
