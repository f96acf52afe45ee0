//! Game rules: the player, the monsters, combat and the turn order. No terminal code here.
//!
//! A turn: the player acts (a refused move costs nothing); then every living monster, in id
//! order, replans a full A* path to the player and takes one step along it. A monster that can
//! reach the player in one legal move attacks instead. When the first step of its plan is taken
//! by another monster it replans once with the other monsters as obstacles and takes that
//! route's first step if there is one; otherwise it waits. That detour search may expand at
//! most [`DETOUR_FACTOR`] times the nodes of the first search (plus [`DETOUR_SLACK`]): a
//! monster stuck in a crowd would otherwise flood its whole region every turn looking for a
//! way that the crowd blocks. (Under Jump Point Search planning, whose nodes are jump points
//! and whose detours are A*, the cells of the first path stand for its nodes.) A monster
//! with no path waits.
//!
//! Kinds differ in speed: a slow monster acts on even turns only; a fast one, once every
//! monster has acted, plans afresh from where it now stands and acts a second time.
//!
//! Terrain slows everyone alike: entering a cell of weight k (water 3, brush 2 unless the
//! level says otherwise) takes k turns. The player's step is one turn, then k − 1 more pass
//! in which the monsters act; a monster that steps into such a cell lets its next k − 1
//! turns go by. A plan's cost is its time: the cheapest path is the quickest.
//!
//! The run (descent, potions, regeneration, winning) is in [`run`]; what the player sees is
//! in [`sight`].

use std::sync::Arc;

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};

mod creature;
mod edit;
pub mod explore;
pub mod kept;
mod plan;
pub mod run;
pub mod sight;
pub mod tools;
pub mod words;

pub use creature::{Act, ActResult, GameState, Monster, PLAYER_HP, Player};
pub use explore::{Alarm, Explore, Watch};
use plan::maps::cores;
pub use plan::{Planner, Planning, Progress, Spread, TurnStats, boxed_in};
pub use run::RunStats;
pub use sight::Sight;
pub use tools::{Lure, Tools};
pub use words::{Advice, Command, KeyNames, Message, TableKeys, name_keys};

use crate::content::kinds::{self, CostTable, Speed};
use crate::content::level::{Feature, FeatureKind, Level, Note};
use crate::content::map::{Tile, TileMap};
use crate::engine::astar::{SearchOptions, SearchResult, Trace};
use crate::engine::grid::{DIRECTIONS, Grid, Neighbourhood, Pos, Regions};

/// A detour search may expand this many times the nodes of the monster's first search...
pub const DETOUR_FACTOR: u32 = 4;
/// ...plus this many.
pub const DETOUR_SLACK: u32 = 64;

/// The stamp of a message said during an act until the act ends (see [`World::end_act`]):
/// no turn reaches it.
const PENDING: u32 = u32::MAX;

/// The fewest cells of a map on which the kinds' grids are made beside the planner's count
/// of its regions, on two threads: below, a thread costs more than it saves.
const SPLIT_CELLS: usize = 1 << 16;

/// The turns a monster may be out of view and come back without the log announcing it
/// again.
pub const SIGHTING_MEMORY: u32 = 5;

/// Messages kept in the log: a whole run's, for the message history.
pub const LOG_LIMIT: usize = 2000;

/// The whole game state. Its fields are its own: creatures are added, removed and moved
/// through its methods, which keep the occupancy by cell and the id order true.
///
/// A kept run's save is this value as serde writes it: what the game is, field by field,
/// with what is made again from it left out (the occupancy, the monsters' plans and the
/// planner's engines and caches, what the player sees at this moment), which
/// [`World::restore`] makes again on loading.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct World {
    #[serde(with = "crate::content::serial::grid")]
    grid: TileMap,
    player: Player,
    /// Living monsters, in id order.
    monsters: Vec<Monster>,
    /// Per cell, the id of the monster standing there, or 0.
    #[serde(skip)]
    occupant: Vec<u32>,
    turn: u32,
    state: GameState,
    log: Vec<Message>,
    #[serde(with = "crate::content::serial::options")]
    options: SearchOptions,
    seed: u64,
    next_id: u32,
    rng: Xoshiro256PlusPlus,
    #[serde(with = "kept::planner")]
    planner: Planner,
    /// Stairs and the potions still lying on this floor.
    features: Vec<Feature>,
    /// The run so far.
    run: RunStats,
    /// What the player sees and has seen on this floor.
    sight: Sight,
    /// The floor's messages not shown yet: the start's until [`World::say_intro`], a cell's
    /// until the player first stands on it.
    notes: Vec<Note>,
    /// The floor's message said last: a lesson the view keeps on screen until the next.
    lesson: Option<String>,
    /// The depth whose clearing wins, as the designed floors of a campaign say (see
    /// [`World::set_designed_final`]).
    designed_final: Option<u32>,
    /// The terrains (in [`Tile::TERRAIN`] order) the log has told the player about wading
    /// through: it says so once a game.
    told_wading: [bool; 3],
    /// The lures sounding on this floor.
    lures: Vec<Lure>,
    /// Whether the player is acting: the act's messages (the player's deed and the
    /// monsters' answers, wading turns included) are stamped [`PENDING`] until it ends, and
    /// then with the turn it ended on, the figure the panel shows after it and the one
    /// "You die on turn N" names.
    acting: bool,
    /// The turn the latest act ended on (see [`World::acted_turn`]).
    acted: u32,
    /// The player fell below a third of their hit points during this act: the warning is
    /// said at its end, with the figure the panel then shows.
    hurt: bool,
    /// The goal as it stood before the edits under way (see [`World::edits_done`]).
    #[serde(skip)]
    goal_before: Option<String>,
    /// An edit was made since the last message: the next one does not fold into it.
    #[serde(default)]
    fold_broken: bool,
    /// The monsters the player has seen, by id, with the last turn each was in view at the
    /// end of an act: one that comes back into view soon after is not announced again.
    #[serde(default)]
    sighted: Vec<(u32, u32)>,
}

impl World {
    /// A new game on a level that has a player start.
    pub fn new(level: &Level, seed: u64) -> Self {
        Self::with_options(level, seed, SearchOptions::default())
    }

    /// A new game whose monsters search with `options`. Creatures that the level puts on
    /// a cell nobody can stand on, or on a taken cell, are left out.
    pub fn with_options(level: &Level, seed: u64, options: SearchOptions) -> Self {
        Self::with_progress(level, seed, options, Arc::default())
    }

    /// A new game as [`World::with_options`], whose planning reports how far it is to
    /// `progress` (a front end shows it while a long turn works on another thread).
    pub fn with_progress(
        level: &Level,
        seed: u64,
        options: SearchOptions,
        progress: Arc<Progress>,
    ) -> Self {
        let player = level.player.unwrap_or_default();
        let mut world = Self {
            grid: level.grid.clone(),
            player: Player {
                pos: player,
                hp: PLAYER_HP,
                potions: 0,
                tools: Tools::default(),
            },
            monsters: Vec::with_capacity(level.monsters.len()),
            occupant: vec![0; level.grid.len()],
            turn: 0,
            state: GameState::Playing,
            log: Vec::new(),
            options,
            seed,
            next_id: 1,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            planner: Planner::with_progress(progress),
            features: level.features.clone(),
            run: RunStats::default(),
            sight: Sight::new(&level.grid),
            notes: level.notes.clone(),
            lesson: None,
            designed_final: None,
            told_wading: [false; 3],
            lures: Vec::new(),
            acting: false,
            acted: 0,
            hurt: false,
            goal_before: None,
            fold_broken: false,
            sighted: Vec::new(),
        };
        for s in &level.monsters {
            world.add_monster(s.pos, s.kind, Some(s.pos));
        }
        world.replan();
        world.look();
        world
    }

    /// The tiles now.
    pub fn grid(&self) -> &TileMap {
        &self.grid
    }

    /// The kind a monster letter stands for on this floor.
    pub fn kind(&self, glyph: char) -> crate::content::kinds::Kind {
        self.grid.kind(glyph)
    }

    /// The player.
    pub fn player(&self) -> &Player {
        &self.player
    }

    /// Living monsters, in id order.
    pub fn monsters(&self) -> &[Monster] {
        &self.monsters
    }

    /// Turns played.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Alive or dead.
    pub fn state(&self) -> GameState {
        self.state
    }

    /// The log, oldest first.
    pub fn log(&self) -> &[Message] {
        &self.log
    }

    /// The options every monster's search uses.
    pub fn options(&self) -> SearchOptions {
        self.options
    }

    /// Sets the options every monster's search uses, and replans.
    pub fn set_options(&mut self, options: SearchOptions) {
        self.options = options;
        self.replan();
    }

    /// The seed the game started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The run so far: depth, kills, damage, the monsters' search work.
    pub fn run(&self) -> &RunStats {
        &self.run
    }

    /// The stairs and the potions still lying on this floor.
    pub fn features(&self) -> &[Feature] {
        &self.features
    }

    /// The feature lying on a cell.
    pub fn feature_at(&self, p: Pos) -> Option<FeatureKind> {
        self.features.iter().find(|f| f.pos == p).map(|f| f.kind)
    }

    /// Lays a feature on a cell in place of whatever lay there, or (`None`) clears it: the
    /// editor's changes to the design, followed in play.
    pub fn set_feature(&mut self, p: Pos, kind: Option<FeatureKind>) {
        self.features.retain(|f| f.pos != p);
        if let Some(kind) = kind {
            self.features.push(Feature { pos: p, kind });
        }
    }

    /// Whether the player sees a cell now.
    pub fn is_visible(&self, p: Pos) -> bool {
        self.sight.is_visible(&self.grid, p)
    }

    /// Whether the player has seen a cell on this floor.
    pub fn is_seen(&self, p: Pos) -> bool {
        self.sight.is_seen(&self.grid, p)
    }

    /// Looks around from where the player stands.
    fn look(&mut self) {
        self.sight.update(&self.grid, self.player.pos);
    }

    /// Whether a cell is free for a creature to step on: floor, nobody there.
    pub fn is_free(&self, p: Pos) -> bool {
        self.grid.is_passable(p) && p != self.player.pos && self.monster_at(p).is_none()
    }

    /// Adds a monster of a kind on a free cell; returns its id, or `None` when the cell is
    /// not free. `origin` is the design's start cell it stands for, if any.
    pub fn add_monster(&mut self, pos: Pos, kind: char, origin: Option<Pos>) -> Option<u32> {
        if !self.is_free(pos) {
            return None;
        }
        let id = self.next_id;
        self.insert_monster(Monster {
            id,
            kind,
            pos,
            hp: self.grid.kind(kind).hp,
            origin,
            plan: SearchResult::default(),
            planned: (pos, pos),
            boxed: false,
            wading: 0,
        });
        Some(id)
    }

    /// Puts a monster back as it was (undo keeps ids); refused when its cell is not free,
    /// its id is 0 (the mark of an empty cell) or its id is already in play.
    pub fn insert_monster(&mut self, m: Monster) -> bool {
        if m.id == 0 || self.position(m.id).is_some() {
            return false;
        }
        let Some(cell) = self.grid.index(m.pos).filter(|_| self.is_free(m.pos)) else {
            return false;
        };
        self.occupant[cell] = m.id;
        self.next_id = self.next_id.max(m.id + 1);
        let at = self.monsters.partition_point(|x| x.id < m.id);
        self.monsters.insert(at, m);
        true
    }

    /// Removes a monster from play; returns it.
    pub fn remove_monster(&mut self, id: u32) -> Option<Monster> {
        let i = self.position(id)?;
        let m = self.monsters.remove(i);
        if let Some(cell) = self.grid.index(m.pos) {
            self.occupant[cell] = 0;
        }
        Some(m)
    }

    /// Adds a monster on `pos`, or on the free cell nearest to it (of the player's region)
    /// when someone stands there; returns its id, or `None` when there is no room at all.
    pub fn place_monster_near(&mut self, pos: Pos, kind: char, origin: Option<Pos>) -> Option<u32> {
        let at = self.free_cell_near(pos)?;
        self.add_monster(at, kind, origin)
    }

    /// Puts a monster back as it was, on its cell or the nearest free one.
    pub fn insert_monster_near(&mut self, mut m: Monster) {
        if let Some(at) = self.free_cell_near(m.pos) {
            m.pos = at;
            self.insert_monster(m);
        }
    }

    /// Moves the player to `to`; a monster standing there moves to the free cell nearest
    /// to it. Refused (false) when `to` is not floor.
    pub fn place_player_near(&mut self, to: Pos) -> bool {
        if !self.grid.is_passable(to) {
            return false;
        }
        if let Some(m) = self.monster_at(to).cloned() {
            self.remove_monster(m.id);
            self.player.pos = to;
            self.insert_monster_near(m);
        }
        self.player.pos = to;
        self.look();
        true
    }

    /// The monster in play that the design's start cell `origin` stands for.
    pub fn monster_from(&self, origin: Pos) -> Option<&Monster> {
        self.monsters.iter().find(|m| m.origin == Some(origin))
    }

    /// `p` when it is free, else the nearest free cell of the player's region.
    fn free_cell_near(&self, p: Pos) -> Option<Pos> {
        if self.is_free(p) {
            return Some(p);
        }
        let regions = Regions::compute(self.grid.cost_grid(), Neighbourhood::Eight);
        let player = self.grid.index(self.player.pos);
        let home = player.map(|c| regions.label(c));
        nearest_free_cells(&self.grid, &[p], |c| {
            Some(regions.label(c)) == home && Some(c) != player && self.occupant[c] == 0
        })[0]
    }

    /// Sets a tile; returns whether anything changed. Creatures left standing on a wall
    /// stay there until [`World::relocate_stranded`] moves them.
    pub fn set_tile(&mut self, p: Pos, tile: Tile) -> bool {
        let changed = self.grid.set(p, tile);
        if changed {
            self.look();
        }
        changed
    }

    /// Moves the player, then every monster, standing where nobody can (a wall was put
    /// under them) to the nearest free floor cell (for monsters: of the player's region), all of them in one breadth-first
    /// pass over the map; a monster with no such cell left is removed. Returns what moved:
    /// `(id, from, to)`, with `to` `None` for the removed.
    pub fn relocate_stranded(&mut self) -> Vec<(u32, Pos, Option<Pos>)> {
        if !self.grid.is_passable(self.player.pos) {
            // The player first: the monsters' refuge is the player's region.
            let all_floor = |c: usize| self.grid.tiles()[c].is_passable() && self.occupant[c] == 0;
            if let Some(p) = nearest_free_cells(&self.grid, &[self.player.pos], all_floor)[0] {
                self.player.pos = p;
                self.look();
            }
        }
        let stranded: Vec<usize> = (0..self.monsters.len())
            .filter(|&i| !self.grid.is_passable(self.monsters[i].pos))
            .collect();
        if stranded.is_empty() {
            return Vec::new();
        }
        for &i in &stranded {
            if let Some(cell) = self.grid.index(self.monsters[i].pos) {
                self.occupant[cell] = 0;
            }
        }
        let starts: Vec<Pos> = stranded.iter().map(|&i| self.monsters[i].pos).collect();
        let regions = Regions::compute(self.grid.cost_grid(), Neighbourhood::Eight);
        let home = self.grid.index(self.player.pos).map(|c| regions.label(c));
        let found = nearest_free_cells(&self.grid, &starts, |c| {
            Some(regions.label(c)) == home
                && c != self.grid.index(self.player.pos).unwrap_or(usize::MAX)
                && self.occupant[c] == 0
        });
        let mut moved = Vec::with_capacity(stranded.len());
        let mut gone = Vec::new();
        for (&i, to) in stranded.iter().zip(found) {
            let m = &mut self.monsters[i];
            moved.push((m.id, m.pos, to));
            match to {
                Some(p) => {
                    m.pos = p;
                    if let Some(cell) = self.grid.index(p) {
                        self.occupant[cell] = m.id;
                    }
                }
                None => gone.push(m.id),
            }
        }
        self.monsters.retain(|m| !gone.contains(&m.id));
        moved
    }

    /// The monster standing on a cell.
    pub fn monster_at(&self, p: Pos) -> Option<&Monster> {
        let id = *self.occupant.get(self.grid.index(p)?)?;
        (id != 0).then(|| self.monster(id)).flatten()
    }

    /// A monster by id.
    pub fn monster(&self, id: u32) -> Option<&Monster> {
        self.position(id).map(|i| &self.monsters[i])
    }

    /// Where a monster is in the id-ordered list.
    fn position(&self, id: u32) -> Option<usize> {
        self.monsters.binary_search_by_key(&id, |m| m.id).ok()
    }

    /// Moves monster `i` to a free cell, keeping the occupancy true. Entering a cell its kind
    /// pays k for holds it there for k − 1 of its turns; a closed door it enters opens, a
    /// wall it tunnels into becomes floor (the map changes, and every search with it).
    fn step_monster(&mut self, i: usize, to: Pos) {
        let tile = self.grid.get(to);
        let kind = self.grid.kind(self.monsters[i].kind);
        let cost = kind
            .search
            .costs
            .of(tile, self.grid.weights(), self.grid.is_edge(to));
        let seen = self.is_visible(to);
        match tile {
            Tile::DoorClosed => {
                self.grid.set(to, Tile::DoorOpen);
                if seen {
                    self.say(format!("The {} opens the door.", kind.name));
                }
            }
            Tile::Wall => {
                self.grid.set(to, Tile::Floor);
                self.say(if seen {
                    format!("The {} tunnels into the wall.", kind.name)
                } else {
                    "You hear digging.".to_string()
                });
            }
            _ => {}
        }
        let m = &mut self.monsters[i];
        m.wading = u32::from(cost).saturating_sub(1);
        if let Some(cell) = self.grid.index(m.pos) {
            self.occupant[cell] = 0;
        }
        m.pos = to;
        if let Some(cell) = self.grid.index(to) {
            self.occupant[cell] = m.id;
        }
        if matches!(tile, Tile::DoorClosed | Tile::Wall) {
            // The doorway or the tunnel opens the view.
            self.look();
            // The first open door, or the last closed one gone, changes the tiles every
            // kind's table is made effective on: without a grid for its new table, a kind
            // planning again this phase (a fast one's second move, a boxed one, a detour)
            // would search the player's costs.
            self.keep_views();
        }
    }

    /// Keeps a grid of costs on the map for every kind in play that does not search the
    /// player's, so that each searches its own.
    fn keep_views(&mut self) {
        for table in self.views_missing() {
            self.grid.add_view(table);
        }
    }

    /// The tables of costs of the kinds in play that search other costs than the player's
    /// and have no grid on the map yet.
    fn views_missing(&self) -> Vec<CostTable> {
        let weights = self.grid.weights();
        let plain = self.grid.effective(kinds::Costs::PLAIN.table(weights));
        let mut missing: Vec<CostTable> = Vec::new();
        let mut seen: Vec<char> = Vec::new();
        for m in &self.monsters {
            if seen.contains(&m.kind) {
                continue;
            }
            seen.push(m.kind);
            let table = self
                .grid
                .effective(self.grid.kind(m.kind).search.costs.table(weights));
            if table != plain && self.grid.view(&table).is_none() && !missing.contains(&table) {
                missing.push(table);
            }
        }
        missing
    }

    /// [`World::keep_views`], on a big map beside the planner's count of its regions (the
    /// turn's figures) on another thread when `threads` allow: each reads the whole map,
    /// milliseconds on a 1024x1024 cave, and a level's first plans wait for both.
    fn keep_views_counting_regions(&mut self, threads: usize) {
        let missing = self.views_missing();
        if missing.is_empty() || threads < 2 || self.grid.len() < SPLIT_CELLS {
            return self.keep_views();
        }
        let (grid, planner, rule) = (&self.grid, &mut self.planner, self.options.neighbourhood);
        let made: Vec<Grid> = std::thread::scope(|scope| {
            scope.spawn(|| planner.count_regions(grid, rule));
            missing.iter().map(|t| grid.view_of(t)).collect()
        });
        for (table, view) in missing.into_iter().zip(made) {
            self.grid.keep_view(table, view);
        }
    }

    /// Adds a line to the log, its control characters escaped (text from files can never
    /// drive a terminal it is shown on); a message said again right after itself folds into it.
    pub fn say(&mut self, text: impl Into<String>) {
        self.log_line(text.into(), false, None);
    }

    /// Adds a warning to the log: a message the log shows in bold.
    pub fn warn(&mut self, text: impl Into<String>) {
        self.log_line(text.into(), true, None);
    }

    /// Adds advice to the log, after `head` (which may be empty): its text names the key
    /// table's keys, and a view words it again with the player's ([`Message::worded`]).
    pub fn advise(&mut self, head: &str, advice: Advice) {
        self.log_advice(head, advice, false);
    }

    /// [`World::advise`], in bold when `urgent`.
    fn log_advice(&mut self, head: &str, advice: Advice, urgent: bool) {
        // Escaped here, so that the advice begins where the log's text says (the advice's
        // words have nothing to escape).
        let head = crate::text::escape_controls(head);
        self.log_line(
            format!("{head}{}", advice.table_words()),
            urgent,
            Some((advice, head.len())),
        );
    }

    /// Says a level's message, which becomes the lesson kept on screen: its keys marked
    /// between backticks show as written without them, and a view names the player's.
    fn say_note(&mut self, text: &str) {
        let marked = crate::text::escape_controls(text).into_owned();
        let plain = name_keys(&marked, &TableKeys).into_owned();
        let has_marks = plain != marked;
        self.log_line(plain, false, None);
        if has_marks && let Some(last) = self.log.last_mut() {
            last.marked = Some(marked.clone());
        }
        self.lesson = Some(marked);
    }

    fn log_line(&mut self, text: String, urgent: bool, advice: Option<(Advice, usize)>) {
        self.log_line_from(None, text, urgent, advice);
    }

    /// [`World::log_line`] telling monster `who`'s deed. A message folds into the one
    /// before it (`x2`) only when it is the same, from the same one, in the same turn: a
    /// hit of the turn before is its own line, and so is another orc's hit.
    fn log_line_from(
        &mut self,
        who: Option<u32>,
        text: String,
        urgent: bool,
        advice: Option<(Advice, usize)>,
    ) {
        let text = match crate::text::escape_controls(&text) {
            std::borrow::Cow::Borrowed(_) => text,
            escaped => escaped.into_owned(),
        };
        let stamp = self.stamp();
        let fold = !std::mem::take(&mut self.fold_broken);
        let now = self.in_effect(stamp);
        let last_now = self.log.last().map(|l| self.in_effect(l.turn));
        if let Some(last) = self.log.last_mut()
            && fold
            && last.text == text
            && last.urgent == urgent
            && last.advice == advice
            && last.who == who
            && last_now == Some(now)
        {
            last.count += 1;
            last.turn = stamp;
            last.act = self.acting;
            return;
        }
        self.log.push(Message {
            turn: stamp,
            text,
            count: 1,
            urgent,
            act: self.acting,
            advice,
            marked: None,
            who,
            sighting: false,
        });
        if self.log.len() > LOG_LIMIT {
            self.log.drain(..self.log.len() - LOG_LIMIT);
        }
    }

    /// Whether the player may step by `(dx, dy)` from where they stand (walls only).
    pub fn player_can_step(&self, dx: i32, dy: i32) -> bool {
        self.grid
            .can_step(self.player.pos, dx, dy, Neighbourhood::Eight)
    }

    /// The first step of the player's A* path to `target` around the monsters, if any.
    pub fn player_step_toward(&mut self, target: Pos) -> Option<(i32, i32)> {
        let from = self.player.pos;
        let next = self
            .planner
            .first_step(&self.grid, from, target, &self.occupant)?;
        Some((next.x - from.x, next.y - from.y))
    }

    /// The planner: the overlay's trace and the latest turn's search work.
    pub fn planner(&self) -> &Planner {
        &self.planner
    }

    /// How far the latest plan of everyone is, shared so that another thread can show it
    /// while this one works.
    pub fn progress(&self) -> Arc<Progress> {
        self.planner.progress()
    }

    /// The traced monster's latest search.
    pub fn trace(&self) -> Option<&Trace> {
        self.planner.trace()
    }

    /// Search work of the latest turn.
    pub fn stats(&self) -> TurnStats {
        self.planner.stats()
    }

    /// Restores up to `amount` hit points, never past the start's; returns how many.
    pub fn heal(&mut self, amount: i32) -> i32 {
        let before = self.player.hp;
        self.player.hp = (self.player.hp + amount.max(0)).min(PLAYER_HP);
        let healed = self.player.hp - before;
        self.run.healed += healed as u32;
        healed
    }

    /// The turn a message said now is stamped with: while the player acts, [`PENDING`]
    /// (see [`World::end_act`]), else the current one.
    fn stamp(&self) -> u32 {
        if self.acting { PENDING } else { self.turn }
    }

    /// The turn a stamp stands for now: its own, or for a message of the act under way
    /// ([`PENDING`]), the turn the game is on.
    fn in_effect(&self, stamp: u32) -> u32 {
        if stamp == PENDING { self.turn } else { stamp }
    }

    /// Begins an act: its messages wait for the turn it ends on (see [`World::end_act`]).
    fn begin_act(&mut self) {
        // An act that never ended would leave its messages stamped PENDING.
        debug_assert!(!self.acting, "an act began before the last one ended");
        self.acting = true;
    }

    /// Ends an act: its messages, the newest in the log, get the turn it ended on; if it
    /// took a turn, it becomes the latest act (see [`World::acted_turn`]).
    fn end_act(&mut self, acted: bool) {
        self.acting = false;
        for m in self.log.iter_mut().rev() {
            if m.turn != PENDING {
                break;
            }
            m.turn = self.turn;
        }
        if acted {
            self.acted = self.turn;
        }
    }

    /// The turn the player's latest act ended on (0 before any): the stamp of the
    /// messages it caused, which the log shows as the newest turn's.
    pub fn acted_turn(&self) -> u32 {
        self.acted
    }

    /// The player acts; on success the monsters take their turn. The act's messages all
    /// carry the turn it ended on (the turn a refusal leaves as it was).
    pub fn player_act(&mut self, act: Act) -> ActResult {
        self.begin_act();
        self.hurt = false;
        let said = (self.log.len(), self.log.last().map(|m| m.count));
        let (was_in_view, began) = (self.in_view_ids(), self.turn);
        let result = self.act(act);
        if result == ActResult::Acted {
            self.announce_sightings(&was_in_view, began);
        }
        // A refusal (one message, no turn) answers a key, not a turn: it stands on its own.
        if result == ActResult::Refused
            && said != (self.log.len(), self.log.last().map(|m| m.count))
            && let Some(last) = self.log.last_mut()
        {
            last.act = false;
        }
        if self.hurt && self.state == GameState::Playing && low_hp(self.player.hp) {
            self.warn_hurt();
        }
        self.end_act(result == ActResult::Acted);
        result
    }

    /// The ids of the monsters in view.
    fn in_view_ids(&self) -> Vec<u32> {
        self.monsters
            .iter()
            .filter(|m| self.is_visible(m.pos))
            .map(|m| m.id)
            .collect()
    }

    /// Says which monsters came into view during an act that began on turn `began`, in
    /// one line, nearest kind first: not those in view when it began, nor one seen less
    /// than [`SIGHTING_MEMORY`] turns before it (a monster stepping in and out at the edge
    /// of sight is announced once). Travel, resting and exploring stop on the same news.
    fn announce_sightings(&mut self, was_in_view: &[u32], began: u32) {
        let mut kinds_seen: Vec<(char, usize)> = Vec::new();
        for m in self.monsters_in_view() {
            let remembered = self
                .sighted
                .iter()
                .any(|&(id, last)| id == m.id && last.saturating_add(SIGHTING_MEMORY) >= began);
            if was_in_view.contains(&m.id) || remembered {
                continue;
            }
            match kinds_seen.iter_mut().find(|(k, _)| *k == m.kind) {
                Some((_, n)) => *n += 1,
                None => kinds_seen.push((m.kind, 1)),
            }
        }
        if !kinds_seen.is_empty() {
            let names: Vec<String> = kinds_seen
                .iter()
                .map(|&(k, n)| kinds::some_of(&self.grid.kind(k).name, n))
                .collect();
            let verb = if kinds_seen == [(kinds_seen[0].0, 1)] {
                "comes"
            } else {
                "come"
            };
            let mut text = format!("{} {verb} into view.", crate::text::and_list(&names));
            text[..1].make_ascii_uppercase();
            self.log_line(text, false, None);
            if let Some(last) = self.log.last_mut() {
                last.sighting = true;
            }
        }
        let now = self.in_view_ids();
        let turn = self.turn;
        let alive: Vec<u32> = self.monsters.iter().map(|m| m.id).collect();
        self.sighted
            .retain(|(id, _)| !now.contains(id) && alive.binary_search(id).is_ok());
        self.sighted.extend(now.into_iter().map(|id| (id, turn)));
    }

    /// The warning of low hit points, with the figure the panel shows now.
    fn warn_hurt(&mut self) {
        let advice = if self.player.potions > 0 {
            Advice::DrinkOrRest
        } else {
            Advice::Rest
        };
        let head = format!("You are badly hurt: HP {}/{PLAYER_HP}; ", self.player.hp);
        self.log_advice(&head, advice, true);
    }

    fn act(&mut self, act: Act) -> ActResult {
        if self.state != GameState::Playing {
            return ActResult::Refused;
        }
        let mut wade = 0;
        match act {
            Act::Wait => {}
            Act::Drink => {
                if !self.drink() {
                    return ActResult::Refused;
                }
            }
            Act::CloseDoors => {
                if self.close_doors() == ActResult::Refused {
                    return ActResult::Refused;
                }
            }
            Act::Use(kind) => {
                if self.use_tool(kind) == ActResult::Refused {
                    return ActResult::Refused;
                }
            }
            Act::Attack(dx, dy) => {
                let to = self.player.pos.offset(dx, dy);
                let Some(i) = self.monster_at(to).and_then(|m| self.position(m.id)) else {
                    self.say("There is nothing there to attack.");
                    return ActResult::Refused;
                };
                // The monsters' own rule: no blow round a wall's corner.
                if !self.player_can_step(dx, dy) {
                    self.say("You cannot reach round the corner.");
                    return ActResult::Refused;
                }
                self.player_attacks(i);
            }
            Act::Move(dx, dy) => {
                let to = self.player.pos.offset(dx, dy);
                if !self.player_can_step(dx, dy) {
                    self.say(match self.grid.get(to) {
                        Tile::Floor
                        | Tile::Water
                        | Tile::Brush
                        | Tile::DoorClosed
                        | Tile::DoorOpen => "You cannot squeeze past the corner diagonally.",
                        Tile::Wall => "A wall blocks your way.",
                        Tile::DoorJammed => "The door is jammed shut.",
                        Tile::Void => "There is nothing that way.",
                    });
                    return ActResult::Refused;
                }
                if let Some(i) = self.monster_at(to).and_then(|m| self.position(m.id)) {
                    self.player_attacks(i);
                } else if self.grid.get(to) == Tile::DoorClosed {
                    // Opening takes the turn; the step in is the next one (the two turns a
                    // closed door costs in every plan through it).
                    self.grid.set(to, Tile::DoorOpen);
                    self.say("You open the door.");
                    self.look();
                } else {
                    self.player.pos = to;
                    self.look();
                    self.tell_wading();
                    self.pick_up();
                    self.pick_up_tool();
                    self.read_notes();
                    wade = self.grid.weight(to).saturating_sub(1);
                }
            }
        }
        self.turn += 1;
        self.monsters_act();
        self.regenerate();
        self.lures_run_down();
        // The rest of a step into heavy terrain: turns in which only the monsters act.
        for _ in 0..wade {
            if self.state != GameState::Playing {
                break;
            }
            self.turn += 1;
            self.monsters_act();
            self.regenerate();
            self.lures_run_down();
        }
        ActResult::Acted
    }

    /// The first time the player steps into water or brush (or any terrain heavier than
    /// one), the log says what it costs.
    fn tell_wading(&mut self) {
        let tile = self.grid.get(self.player.pos);
        let k = self.grid.weight(self.player.pos);
        let Some(slot) = Tile::TERRAIN.iter().position(|&t| t == tile) else {
            return;
        };
        if k <= 1 || self.told_wading[slot] {
            return;
        }
        self.told_wading[slot] = true;
        self.say(match tile {
            Tile::Water => format!(
                "You wade into the water: each step into it takes {k} turns, for monsters too."
            ),
            Tile::Brush => format!(
                "You push into the brush: each step into it takes {k} turns, for monsters too."
            ),
            _ => format!("The ground is heavy here: each step onto it takes {k} turns."),
        });
    }

    fn player_attacks(&mut self, i: usize) {
        let damage = self.rng.random_range(2..=5);
        let m = &mut self.monsters[i];
        self.run.damage_dealt += damage.min(m.hp) as u32;
        m.hp -= damage;
        let name = self.grid.kind(m.kind).name;
        if m.hp <= 0 {
            let id = m.id;
            self.remove_monster(id);
            self.run.kills += 1;
            self.say(format!("You kill the {name}."));
            if self.monsters.is_empty() {
                self.floor_cleared();
            }
        } else {
            self.say(format!("You hit the {name} for {damage}."));
        }
    }

    /// Every monster plans and acts once (slow ones on even turns only), then every fast
    /// one plans again from where it stands and acts a second time.
    fn monsters_act(&mut self) {
        // A monster's first search ignores the other monsters and the player stands still
        // during this phase, so every plan can be made up front (in parallel) with exactly
        // the result it would have had just before that monster's move; so can a fast one's
        // second, from the cell its first plan steps to.
        self.plan_everyone(Spread {
            threads: cores(),
            ahead: true,
        });
        let resting = self.turn % 2 == 1;
        for i in 0..self.monsters.len() {
            if self.state != GameState::Playing {
                break;
            }
            if resting && self.grid.kind(self.monsters[i].kind).speed == Speed::Slow {
                continue;
            }
            self.monster_acts(i);
        }
        // Nobody dies during the monsters' phase, so the indices still hold. The first moves
        // changed the map of who stands where, so a fast monster's old plan may be stale.
        for i in 0..self.monsters.len() {
            if self.state != GameState::Playing {
                break;
            }
            if self.grid.kind(self.monsters[i].kind).speed == Speed::Fast {
                let goal = self.player.pos;
                self.planner
                    .plan_second(&self.grid, goal, self.options, i, &mut self.monsters[i]);
                #[cfg(test)]
                self.audit(i..i + 1);
                self.monster_acts(i);
            }
        }
        let work = self.planner.stats();
        self.run.astar_expanded += work.astar_expanded;
        self.run.searches += u64::from(work.searches);
    }

    /// Monster `i` follows its plan: attacks the player next to it, steps, or goes round;
    /// or, still wading into the cell it entered, lets its turn go by.
    fn monster_acts(&mut self, i: usize) {
        if self.monsters[i].wading > 0 {
            self.monsters[i].wading -= 1;
            return;
        }
        if self.monsters[i].boxed {
            let (at, goal, kind) = (self.monsters[i].pos, self.player.pos, self.monsters[i].kind);
            let search = self.grid.kind(kind).search;
            let table = self.grid.effective(search.costs.table(self.grid.weights()));
            let grid = self.grid.grid_for(&table).unwrap_or(self.grid.cost_grid());
            let rule = search.options(self.options).neighbourhood;
            if boxed_in(grid, &self.occupant, goal, at, rule) {
                return;
            }
            // A neighbour moved off: the plan it would have made up front, made now.
            self.planner
                .plan_one(&self.grid, goal, self.options, &mut self.monsters[i]);
            #[cfg(test)]
            self.audit(i..i + 1);
        }
        let Some(&next) = self.monsters[i].plan.path.get(1) else {
            return;
        };
        if next == self.player.pos {
            self.monster_attacks(i);
        } else if self.monster_at(next).is_none() {
            self.step_monster(i, next);
        } else if let Some(step) = self.detour(i) {
            self.step_monster(i, step);
        }
    }

    /// Plans every monster's path without moving anyone (also after edits or option changes).
    /// Many monsters are planned on all cores; the results do not depend on how many.
    pub fn replan(&mut self) {
        self.plan_everyone(Spread {
            threads: cores(),
            ahead: false,
        });
    }

    /// [`World::replan`] on at most `threads` threads (benchmarks compare 1 with all).
    pub fn replan_on(&mut self, threads: usize) {
        self.plan_everyone(Spread {
            threads,
            ahead: false,
        });
    }

    fn plan_everyone(&mut self, spread: Spread) {
        self.keep_views_counting_regions(spread.threads);
        self.planner.set_lures(self.lure_cells());
        let goal = self.player.pos;
        self.planner.plan_all(
            &self.grid,
            goal,
            self.options,
            &mut self.monsters,
            &self.occupant,
            spread,
        );
        #[cfg(test)]
        self.audit(0..self.monsters.len());
    }

    /// Records the searches of monster `id` from now on (or of nobody), and records its
    /// search at once without replanning the others or touching the turn's figures.
    pub fn set_traced(&mut self, id: Option<u32>) {
        self.keep_views();
        self.planner
            .set_traced(id, &self.grid, self.options, &mut self.monsters);
    }

    /// Replans everyone, recording the searches of monster `id` (or of nobody) from now on.
    pub fn replan_tracing(&mut self, id: Option<u32>) {
        self.planner.trace_next(id);
        self.replan();
    }

    /// How the monsters plan.
    pub fn planning(&self) -> Planning {
        self.planner.planning()
    }

    /// Changes how the monsters plan, and replans.
    pub fn set_planning(&mut self, planning: Planning) {
        self.planner.set_planning(planning);
        self.replan();
    }

    /// The first step of a route around the other monsters, if one exists and is free.
    fn detour(&mut self, i: usize) -> Option<Pos> {
        if self.planner.distance_map().is_some() {
            let (at, kind) = (self.monsters[i].pos, self.monsters[i].kind);
            let player = self.player.pos;
            let free = |p: Pos| p != player && self.monster_at(p).is_none();
            return self
                .planner
                .map_detour(&self.grid, kind, self.options, at, free);
        }
        let plan = &self.monsters[i].plan;
        let first = match self.planner.planning() {
            // Its nodes are jump points; the detour, around occupants, is A*.
            Planning::Jps => plan.path.len() as u32,
            _ => plan.expanded,
        };
        let budget = first.saturating_mul(DETOUR_FACTOR) + DETOUR_SLACK;
        let from = self.monsters[i].pos;
        let goal = self.planner.goal_for(from, self.player.pos);
        let kind = self.monsters[i].kind;
        let next = self.planner.detour(
            &self.grid,
            kind,
            goal,
            self.options,
            &self.occupant,
            from,
            budget,
        )?;
        (next != self.player.pos && self.monster_at(next).is_none()).then_some(next)
    }

    fn monster_attacks(&mut self, i: usize) {
        let info = self.grid.kind(self.monsters[i].kind);
        let damage = self.rng.random_range(info.min_damage..=info.max_damage);
        self.run.damage_taken += damage.min(self.player.hp) as u32;
        let before = self.player.hp;
        self.player.hp -= damage;
        if self.player.hp <= 0 {
            self.player.hp = 0;
            self.state = GameState::Dead;
            self.run.killer = Some(info.glyph);
            self.say(format!(
                "The {} hits you for {damage}. You die on turn {}.",
                info.name, self.turn
            ));
        } else {
            let who = self.monsters[i].id;
            let text = format!("The {} hits you for {damage}.", info.name);
            self.log_line_from(Some(who), text, false, None);
            // Once on the way down past a third, so the warning is not lost among the hits;
            // said when the turn is over, after any regeneration.
            if low_hp(self.player.hp) && !low_hp(before) {
                self.hurt = true;
            }
        }
    }
}

/// Whether hit points are below a third of the start's: the danger the view colours red
/// and the log warns of once.
pub fn low_hp(hp: i32) -> bool {
    hp * 3 < PLAYER_HP
}

/// For each start cell, a nearest cell (by king moves) for which `free(cell)` holds, each
/// cell given to one start at most: one breadth-first pass from all starts at once, in
/// order, through any cells, each cell visited once, a start's wave stopping once it has
/// its cell. Waves do not cross, so where two compete for the same few cells the later may
/// land a step or two further than it could have; the cost stays linear in the map. A wave
/// hemmed in by the others' gets another pass (rare: it takes a crowd inside a thick wall);
/// a start with nothing left to find gets `None`.
pub(crate) fn nearest_free_cells(
    grid: &TileMap,
    starts: &[Pos],
    free: impl Fn(usize) -> bool,
) -> Vec<Option<Pos>> {
    const PASSES: usize = 8;
    let mut found: Vec<Option<Pos>> = vec![None; starts.len()];
    let mut claimed = vec![false; grid.len()];
    let mut owner = vec![u32::MAX; grid.len()];
    let mut queue = std::collections::VecDeque::new();
    for _ in 0..PASSES {
        let pending: Vec<usize> = (0..starts.len()).filter(|&s| found[s].is_none()).collect();
        if pending.is_empty() {
            break;
        }
        owner.fill(u32::MAX);
        queue.clear();
        for &s in &pending {
            if let Some(c) = grid.index(starts[s])
                && owner[c] == u32::MAX
            {
                owner[c] = s as u32;
                queue.push_back(c);
            }
        }
        let mut progress = false;
        while let Some(c) = queue.pop_front() {
            let s = owner[c] as usize;
            if found[s].is_some() {
                continue;
            }
            if free(c) && !claimed[c] {
                claimed[c] = true;
                found[s] = Some(grid.pos(c));
                progress = true;
                continue;
            }
            let p = grid.pos(c);
            for (dx, dy) in DIRECTIONS {
                if let Some(n) = grid.index(p.offset(dx, dy))
                    && owner[n] == u32::MAX
                {
                    owner[n] = s as u32;
                    queue.push_back(n);
                }
            }
        }
        if !progress {
            break;
        }
    }
    found
}

#[cfg(test)]
mod tests;

/// A check of one plan just made, on the map it was made on, under the planning mode.
#[cfg(test)]
type PlanCheck = fn(&TileMap, &Monster, Planning);

#[cfg(test)]
thread_local! {
    /// The planning tests' check of every plan as it is made, with the map it was made on
    /// (the map changes during the monsters' phase: doors open, walls are dug).
    static PLAN_AUDIT: std::cell::Cell<Option<PlanCheck>> = const { std::cell::Cell::new(None) };
}

#[cfg(test)]
impl World {
    /// Hands the plans of the monsters at `which`, just made, to the test's check.
    fn audit(&self, which: std::ops::Range<usize>) {
        if let Some(check) = PLAN_AUDIT.get() {
            for m in &self.monsters[which] {
                check(&self.grid, m, self.planning());
            }
        }
    }
}
