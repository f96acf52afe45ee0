//! Game rules: the player, the monsters, combat and the turn order. No terminal code here.
//!
//! A turn: the player acts (a refused move costs nothing); then every living monster, in id
//! order, replans a full A* path to the player and takes one step along it. A monster that can
//! reach the player in one legal move attacks instead. When the first step of its plan is taken
//! by another monster it replans once with the other monsters as obstacles and takes that
//! route's first step if there is one; otherwise it waits. That detour search may expand at
//! most [`DETOUR_FACTOR`] times the nodes of the first search (plus [`DETOUR_SLACK`]): a
//! monster stuck in a crowd would otherwise flood its whole region every turn looking for a
//! way that the crowd blocks. A monster with no path waits.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use crate::content::level::{Level, Spawn};
use crate::engine::astar::{Pathfinder, SearchOptions, Status, Trace};
use crate::engine::grid::{Grid, Neighbourhood, Pos};

/// Set by [`inject_turn_panic`]: the next monster turn panics (the terminal-restore tests use it).
static PANIC_IN_TURN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes the next monster turn panic, to test that a crash mid-turn restores the terminal.
pub fn inject_turn_panic() {
    PANIC_IN_TURN.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// A detour search may expand this many times the nodes of the monster's first search...
pub const DETOUR_FACTOR: u32 = 4;
/// ...plus this many.
pub const DETOUR_SLACK: u32 = 64;

/// Serials of recorded traces, from one counter for all worlds.
static NEXT_TRACE_SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Monsters per planning thread below which spawning threads costs more than it saves.
const PARALLEL_MIN_MONSTERS: usize = 16;

/// The player's hit points at the start.
pub const PLAYER_HP: i32 = 30;
/// Messages kept in the log.
const LOG_LIMIT: usize = 200;

/// The fixed traits of a monster kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindInfo {
    /// The letter that stands for it in level files.
    pub glyph: char,
    /// Its name in messages.
    pub name: &'static str,
    /// Hit points at spawn.
    pub hp: i32,
    /// Smallest damage of one attack.
    pub min_damage: i32,
    /// Largest damage of one attack.
    pub max_damage: i32,
}

/// The monster kinds with their own stats; any other letter is a generic creature.
pub const KINDS: [KindInfo; 4] = [
    KindInfo {
        glyph: 'r',
        name: "rat",
        hp: 3,
        min_damage: 1,
        max_damage: 2,
    },
    KindInfo {
        glyph: 'g',
        name: "goblin",
        hp: 6,
        min_damage: 1,
        max_damage: 3,
    },
    KindInfo {
        glyph: 'o',
        name: "orc",
        hp: 10,
        min_damage: 2,
        max_damage: 4,
    },
    KindInfo {
        glyph: 't',
        name: "troll",
        hp: 16,
        min_damage: 3,
        max_damage: 6,
    },
];

/// The stats of a monster letter.
pub fn kind_info(glyph: char) -> KindInfo {
    KINDS
        .iter()
        .copied()
        .find(|k| k.glyph == glyph)
        .unwrap_or(KindInfo {
            glyph,
            name: "creature",
            hp: 5,
            min_damage: 1,
            max_damage: 3,
        })
}

/// What a monster's latest plan found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// How the search ended (`None` before the first plan).
    pub status: Option<Status>,
    /// Cost of the path, when found.
    pub cost: Option<u32>,
    /// Nodes expanded by this monster this turn (all its searches).
    pub expanded: u32,
    /// The planned path from where the monster stood.
    pub path: Vec<Pos>,
}

impl Plan {
    fn from_search(out: crate::engine::astar::Outcome, path: Vec<Pos>) -> Self {
        Self {
            status: Some(out.status),
            cost: out.cost,
            expanded: out.expanded,
            path,
        }
    }
}

/// Plans each monster of `chunk` but the traced one with `pf`; returns (expanded, searches).
fn plan_chunk(
    pf: &mut Pathfinder,
    grid: &Grid,
    goal: Pos,
    options: &SearchOptions,
    chunk: &mut [Monster],
    traced: Option<u32>,
) -> (u64, u32) {
    let mut total = (0u64, 0u32);
    for m in chunk.iter_mut().filter(|m| Some(m.id) != traced) {
        let mut path = std::mem::take(&mut m.plan.path);
        let out = pf.search(grid, m.pos, goal, options, &[], &mut path, &mut ());
        total = (total.0 + u64::from(out.expanded), total.1 + 1);
        m.plan = Plan::from_search(out, path);
    }
    total
}

/// A monster in play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Monster {
    /// Stable id, unique in a game.
    pub id: u32,
    /// Its kind letter.
    pub kind: char,
    /// Where it is.
    pub pos: Pos,
    /// Hit points left.
    pub hp: i32,
    /// Its latest plan.
    pub plan: Plan,
}

/// The player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Player {
    /// Where the player is.
    pub pos: Pos,
    /// Hit points left.
    pub hp: i32,
}

/// Whether the game goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameState {
    /// The player is alive.
    Playing,
    /// The player died.
    Dead,
}

/// What the player wants to do this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    /// Step (or attack) by one king move.
    Move(i32, i32),
    /// Let a turn pass.
    Wait,
}

/// What came of a player's act.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActResult {
    /// A turn passed.
    Acted,
    /// Nothing happened; no turn passed.
    Refused,
}

/// Search work of the latest turn, for the side panel.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TurnStats {
    /// Nodes expanded by every monster's searches together.
    pub astar_expanded: u64,
    /// Searches run.
    pub searches: u32,
    /// Nodes one reverse Dijkstra map from the player would expand (its reachable region).
    pub dijkstra_expanded: u64,
}

/// One line of the message log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// The turn it happened on.
    pub turn: u32,
    /// The text.
    pub text: String,
}

/// The whole game state.
#[derive(Debug, Clone)]
pub struct World {
    /// The tiles now (the editor may change them).
    pub grid: Grid,
    /// The player.
    pub player: Player,
    /// Living monsters, in id order.
    pub monsters: Vec<Monster>,
    /// Turns played.
    pub turn: u32,
    /// Alive or dead.
    pub state: GameState,
    /// The log, oldest first.
    pub log: Vec<Message>,
    /// The options every monster's search uses.
    pub options: SearchOptions,
    /// The monster whose searches are recorded, if any.
    pub traced: Option<u32>,
    /// The traced monster's latest search.
    pub trace: Option<Trace>,
    /// Changes whenever `trace` is recorded anew, so views can cache what they derive from it.
    pub trace_serial: u64,
    /// Search work of the latest turn.
    pub stats: TurnStats,
    /// The seed the game started from.
    pub seed: u64,
    next_id: u32,
    rng: Xoshiro256PlusPlus,
    pathfinder: Pathfinder,
    /// Extra engines for planning on more cores, one per extra thread.
    workers: Vec<Pathfinder>,
    blockers: Vec<Pos>,
    scratch: Vec<Pos>,
}

impl World {
    /// A new game on a level that has a player start.
    pub fn new(level: &Level, seed: u64) -> Self {
        Self::with_options(level, seed, SearchOptions::default())
    }

    /// A new game whose monsters search with `options`.
    pub fn with_options(level: &Level, seed: u64, options: SearchOptions) -> Self {
        let player = level.player.unwrap_or_default();
        let mut world = Self {
            grid: level.grid.clone(),
            player: Player {
                pos: player,
                hp: PLAYER_HP,
            },
            monsters: Vec::new(),
            turn: 0,
            state: GameState::Playing,
            log: Vec::new(),
            options,
            traced: None,
            trace: None,
            trace_serial: 0,
            stats: TurnStats::default(),
            seed,
            next_id: 1,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            pathfinder: Pathfinder::new(),
            workers: Vec::new(),
            blockers: Vec::new(),
            scratch: Vec::new(),
        };
        for s in &level.monsters {
            world.add_monster(s.pos, s.kind);
        }
        let n = world.monsters.len();
        world.say(match n {
            0 => "No monsters here. Arrows or hjklyubn move; ? for help.".to_string(),
            1 => "A monster hunts you. Arrows or hjklyubn move; ? for help.".to_string(),
            _ => format!("{n} monsters hunt you. Arrows or hjklyubn move; ? for help."),
        });
        world.replan();
        world
    }

    /// The current state as a level (for saving).
    pub fn to_level(&self, title: Option<String>) -> Level {
        Level {
            title,
            grid: self.grid.clone(),
            player: Some(self.player.pos),
            monsters: self
                .monsters
                .iter()
                .map(|m| Spawn {
                    pos: m.pos,
                    kind: m.kind,
                })
                .collect(),
        }
    }

    /// Adds a monster of a kind; returns its id.
    pub fn add_monster(&mut self, pos: Pos, kind: char) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        self.monsters.push(Monster {
            id,
            kind,
            pos,
            hp: kind_info(kind).hp,
            plan: Plan::default(),
        });
        id
    }

    /// The id the next new monster will get.
    pub fn peek_next_id(&self) -> u32 {
        self.next_id
    }

    /// Makes sure ids handed out later stay above `id` (monsters restored by undo keep theirs).
    pub fn reserve_id(&mut self, id: u32) {
        self.next_id = self.next_id.max(id + 1);
    }

    /// The monster standing on a cell.
    pub fn monster_at(&self, p: Pos) -> Option<&Monster> {
        self.monsters.iter().find(|m| m.pos == p)
    }

    /// A monster by id.
    pub fn monster(&self, id: u32) -> Option<&Monster> {
        self.monsters.iter().find(|m| m.id == id)
    }

    /// Adds a line to the log.
    pub fn say(&mut self, text: impl Into<String>) {
        self.log.push(Message {
            turn: self.turn,
            text: text.into(),
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
        self.blockers.clear();
        self.blockers.extend(self.monsters.iter().map(|m| m.pos));
        let from = self.player.pos;
        let out = self.pathfinder.search(
            &self.grid,
            from,
            target,
            &SearchOptions::default(),
            &self.blockers,
            &mut self.scratch,
            &mut (),
        );
        let next = self
            .scratch
            .get(1)
            .filter(|_| out.status == Status::Found)?;
        Some((next.x - from.x, next.y - from.y))
    }

    /// The player acts; on success the monsters take their turn.
    pub fn player_act(&mut self, act: Act) -> ActResult {
        if self.state != GameState::Playing {
            return ActResult::Refused;
        }
        match act {
            Act::Wait => {}
            Act::Move(dx, dy) => {
                let to = self.player.pos.offset(dx, dy);
                if !self.player_can_step(dx, dy) {
                    if self.grid.is_passable(to) {
                        self.say("You cannot squeeze past the corner diagonally.");
                    }
                    return ActResult::Refused;
                }
                if let Some(i) = self.monsters.iter().position(|m| m.pos == to) {
                    self.player_attacks(i);
                } else {
                    self.player.pos = to;
                }
            }
        }
        self.turn += 1;
        self.monsters_act();
        ActResult::Acted
    }

    fn player_attacks(&mut self, i: usize) {
        let damage = self.rng.random_range(2..=5);
        let m = &mut self.monsters[i];
        m.hp -= damage;
        let name = kind_info(m.kind).name;
        if m.hp <= 0 {
            self.monsters.remove(i);
            self.say(format!("You kill the {name}."));
        } else {
            self.say(format!("You hit the {name} for {damage}."));
        }
    }

    /// Every monster plans and acts once.
    fn monsters_act(&mut self) {
        if PANIC_IN_TURN.load(std::sync::atomic::Ordering::Relaxed) {
            panic!("injected panic in a monster's turn (ASTAR_ROGUE_PANIC=turn)");
        }
        // A monster's first search ignores the other monsters and the player stands still
        // during this phase, so every plan can be made up front (in parallel) with exactly
        // the result it would have had just before that monster's move.
        self.replan();
        for i in 0..self.monsters.len() {
            if self.state != GameState::Playing {
                break;
            }
            let m = &self.monsters[i];
            let Some(&next) = m.plan.path.get(1) else {
                continue;
            };
            if next == self.player.pos {
                self.monster_attacks(i);
            } else if self.monster_at(next).is_none() {
                self.monsters[i].pos = next;
            } else if let Some(step) = self.detour(i) {
                self.monsters[i].pos = step;
            }
        }
    }

    /// Plans every monster's path without moving anyone (also after edits or option changes).
    /// Many monsters are planned on all cores; the results do not depend on how many.
    pub fn replan(&mut self) {
        // The core count is read once: the standard library reads cgroup files every time.
        static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        let cores =
            *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from));
        self.replan_on(cores);
    }

    /// Records the searches of monster `id` from now on (or of nobody), and records its
    /// search at once without replanning the others or touching the turn's figures.
    pub fn set_traced(&mut self, id: Option<u32>) {
        self.traced = id;
        match id.and_then(|id| self.monsters.iter().position(|m| m.id == id)) {
            Some(i) => {
                self.plan_traced(i);
            }
            None => self.trace = None,
        }
    }

    /// [`World::replan`] on at most `threads` threads (benchmarks compare 1 with all).
    pub fn replan_on(&mut self, threads: usize) {
        self.stats = TurnStats {
            dijkstra_expanded: self.dijkstra_equivalent(),
            ..TurnStats::default()
        };
        let threads = threads
            .min(self.monsters.len() / PARALLEL_MIN_MONSTERS)
            .max(1);
        if threads > 1 {
            self.workers.resize_with(threads - 1, Pathfinder::new);
        }
        let goal = self.player.pos;
        let (grid, options, traced) = (&self.grid, self.options, self.traced);
        let per_thread = self.monsters.len().div_ceil(threads);
        let mut chunks = self.monsters.chunks_mut(per_thread.max(1));
        let mine = chunks.next().unwrap_or_default();
        let (expanded, searches) = std::thread::scope(|scope| {
            let handles: Vec<_> = chunks
                .zip(self.workers.iter_mut())
                .map(|(chunk, pf)| {
                    scope.spawn(move || plan_chunk(pf, grid, goal, &options, chunk, traced))
                })
                .collect();
            let mut total = plan_chunk(&mut self.pathfinder, grid, goal, &options, mine, traced);
            for h in handles {
                // A planning thread only panics on a bug; pass it on rather than hide it.
                let (e, n) = h.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
                total = (total.0 + e, total.1 + n);
            }
            total
        });
        self.stats.astar_expanded += expanded;
        self.stats.searches += searches;
        match self
            .traced
            .and_then(|id| self.monsters.iter().position(|m| m.id == id))
        {
            Some(i) => {
                let expanded = self.plan_traced(i);
                self.stats.astar_expanded += expanded;
                self.stats.searches += 1;
            }
            // The traced monster is gone (killed, deleted): its old search no longer applies.
            None => self.trace = None,
        }
    }

    /// Nodes a full reverse Dijkstra map from the player would expand: its whole region.
    fn dijkstra_equivalent(&mut self) -> u64 {
        let rule = self.options.neighbourhood;
        let Some(cell) = self.grid.index(self.player.pos) else {
            return 0;
        };
        let regions = self.pathfinder.regions(&self.grid, rule);
        u64::from(regions.size(regions.label(cell)))
    }

    /// Runs the traced monster's full A* to the player, recording the search; returns the
    /// nodes it expanded.
    fn plan_traced(&mut self, i: usize) -> u64 {
        let (start, goal) = (self.monsters[i].pos, self.player.pos);
        let mut path = std::mem::take(&mut self.monsters[i].plan.path);
        let mut trace = self.trace.take().unwrap_or_default();
        trace.restart(start, goal, self.options);
        let out = self.pathfinder.search(
            &self.grid,
            start,
            goal,
            &self.options,
            &[],
            &mut path,
            &mut trace,
        );
        self.trace = Some(trace);
        // Unique across worlds too: a restarted game must not match a cached older trace.
        self.trace_serial = NEXT_TRACE_SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.monsters[i].plan = Plan::from_search(out, path);
        u64::from(out.expanded)
    }

    /// The first step of a route around the other monsters, if one exists and is free.
    fn detour(&mut self, i: usize) -> Option<Pos> {
        let me = self.monsters[i].id;
        self.blockers.clear();
        self.blockers
            .extend(self.monsters.iter().filter(|m| m.id != me).map(|m| m.pos));
        let start = self.monsters[i].pos;
        let budget = self.monsters[i].plan.expanded.saturating_mul(DETOUR_FACTOR) + DETOUR_SLACK;
        let options = SearchOptions {
            cap: Some(self.options.cap.map_or(budget, |c| c.min(budget))),
            ..self.options
        };
        let out = self.pathfinder.search(
            &self.grid,
            start,
            self.player.pos,
            &options,
            &self.blockers,
            &mut self.scratch,
            &mut (),
        );
        self.stats.astar_expanded += u64::from(out.expanded);
        self.stats.searches += 1;
        self.monsters[i].plan.expanded += out.expanded;
        let next = *self.scratch.get(1)?;
        (out.status == Status::Found && next != self.player.pos && self.monster_at(next).is_none())
            .then_some(next)
    }

    fn monster_attacks(&mut self, i: usize) {
        let info = kind_info(self.monsters[i].kind);
        let damage = self.rng.random_range(info.min_damage..=info.max_damage);
        self.player.hp -= damage;
        if self.player.hp <= 0 {
            self.player.hp = 0;
            self.state = GameState::Dead;
            self.say(format!(
                "The {} hits you for {damage}. You die on turn {}.",
                info.name, self.turn
            ));
        } else {
            self.say(format!("The {} hits you for {damage}.", info.name));
        }
    }
}

#[cfg(test)]
mod tests;
