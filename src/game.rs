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

mod plan;

pub use plan::{Planner, TurnStats};

use crate::content::level::{Level, Spawn};
use crate::engine::astar::{SearchOptions, SearchResult, Trace};
use crate::engine::grid::{Grid, Neighbourhood, Pos};

/// A detour search may expand this many times the nodes of the monster's first search...
pub const DETOUR_FACTOR: u32 = 4;
/// ...plus this many.
pub const DETOUR_SLACK: u32 = 64;

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
    /// Its latest plan: the search toward the player, and this turn's detour work added
    /// to its `expanded`.
    pub plan: SearchResult,
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
    /// The seed the game started from.
    pub seed: u64,
    next_id: u32,
    rng: Xoshiro256PlusPlus,
    planner: Planner,
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
            seed,
            next_id: 1,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            planner: Planner::default(),
        };
        for s in &level.monsters {
            world.add_monster(s.pos, s.kind);
        }
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
            plan: SearchResult::default(),
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
        let from = self.player.pos;
        let next = self.planner.first_step(
            &self.grid,
            from,
            target,
            self.monsters.iter().map(|m| m.pos),
        )?;
        Some((next.x - from.x, next.y - from.y))
    }

    /// The planner: the overlay's trace and the latest turn's search work.
    pub fn planner(&self) -> &Planner {
        &self.planner
    }

    /// The traced monster's latest search.
    pub fn trace(&self) -> Option<&Trace> {
        self.planner.trace()
    }

    /// Search work of the latest turn.
    pub fn stats(&self) -> TurnStats {
        self.planner.stats()
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

    /// [`World::replan`] on at most `threads` threads (benchmarks compare 1 with all).
    pub fn replan_on(&mut self, threads: usize) {
        let goal = self.player.pos;
        self.planner
            .plan_all(&self.grid, goal, self.options, &mut self.monsters, threads);
    }

    /// Records the searches of monster `id` from now on (or of nobody), and records its
    /// search at once without replanning the others or touching the turn's figures.
    pub fn set_traced(&mut self, id: Option<u32>) {
        let goal = self.player.pos;
        self.planner
            .set_traced(id, &self.grid, goal, self.options, &mut self.monsters);
    }

    /// Replans everyone, recording the searches of monster `id` (or of nobody) from now on.
    pub fn replan_tracing(&mut self, id: Option<u32>) {
        self.planner.trace_next(id);
        self.replan();
    }

    /// The first step of a route around the other monsters, if one exists and is free.
    fn detour(&mut self, i: usize) -> Option<Pos> {
        let budget = self.monsters[i].plan.expanded.saturating_mul(DETOUR_FACTOR) + DETOUR_SLACK;
        let goal = self.player.pos;
        let next = self.planner.detour(
            &self.grid,
            goal,
            self.options,
            &mut self.monsters,
            i,
            budget,
        )?;
        (next != self.player.pos && self.monster_at(next).is_none()).then_some(next)
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
