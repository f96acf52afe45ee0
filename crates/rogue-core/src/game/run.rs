//! The run: floors one below the other down to [`FINAL_DEPTH`], what the player did on the
//! way, and the floors that descent generates.
//!
//! A floor with stairs (`>`) opens them once its last monster is killed; taking them generates
//! the next floor from the run's seed and the new depth, so the same seed gives the same run.
//! Killing the last monster of a floor without stairs wins the run: a hand-written level
//! without stairs is a run of one floor, and the generated floor at the final depth has none.
//! A campaign's designed floors (levels chained by `next:` headers) come first: the session
//! reads them and puts them in play with [`World::go_down`](super::World::go_down), and
//! tells the world how deep they go
//! ([`World::set_designed_final`](super::World::set_designed_final)); generated floors
//! follow a chain whose last floor has stairs.
//! Generation itself is the generator's; this module only asks it for a map and furnishes it:
//! stairs, potions, and harder monsters the deeper the floor.
//!
//! The world's methods for the run are in `world.rs`, a file that `game.rs` does not name,
//! so that `game.rs`, which holds [`RunStats`], and this file do not import each other.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use crate::content::generate::{GenError, GenKind, GenParams, generate};
use crate::content::kinds::KINDS;
use crate::content::level::{Feature, FeatureKind, Level};
use crate::engine::grid::{DIRECTIONS, Pos};

mod world;

/// Steps between the player's arrival and the nearest monster on a generated floor, at least:
/// a new floor starts with a moment to look around.
pub const ARRIVAL_ROOM: u32 = 8;

/// The deepest floor of a run: clearing it wins.
pub const FINAL_DEPTH: u32 = 3;
/// The player gets one hit point back every this many turns.
pub const REGEN_TURNS: u32 = 8;
/// Hit points a healing potion restores (never past the start's).
pub const POTION_HEAL: i32 = 20;

/// What the run has done so far: the figures of the end screen and of `--state`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RunStats {
    /// The floor the player is on, from 1.
    pub depth: u32,
    /// Monsters the player killed.
    pub kills: u32,
    /// Hit points the player took from monsters (overkill not counted).
    pub damage_dealt: u32,
    /// Hit points monsters took from the player (past zero not counted).
    pub damage_taken: u32,
    /// Hit points given back by regeneration, potions and [`super::World::heal`].
    pub healed: u32,
    /// Potions drunk.
    pub potions_drunk: u32,
    /// Nodes the monsters' searches expanded, over every turn of the run.
    pub astar_expanded: u64,
    /// Searches the monsters ran, over every turn of the run.
    pub searches: u64,
    /// The kind letter of the monster that killed the player, once one has.
    pub killer: Option<char>,
}

impl Default for RunStats {
    fn default() -> Self {
        Self {
            depth: 1,
            kills: 0,
            damage_dealt: 0,
            damage_taken: 0,
            healed: 0,
            potions_drunk: 0,
            astar_expanded: 0,
            searches: 0,
            killer: None,
        }
    }
}

/// How a generated floor is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FloorPlan {
    kind: GenKind,
    width: usize,
    height: usize,
    monsters: usize,
    potions: usize,
    /// Tools lying on the floor: lures, seeds and spikes.
    tools: usize,
    /// Chance in percent that a monster is promoted to the next kind of the table.
    promote: u32,
}

/// The plan of generated floor `depth` (2 and deeper): more monsters, more often promoted.
fn plan(depth: u32) -> FloorPlan {
    let d = depth.saturating_sub(2) as usize;
    FloorPlan {
        kind: if d.is_multiple_of(2) {
            GenKind::Rooms
        } else {
            GenKind::Caves
        },
        width: 48 + 4 * d,
        height: 20 + 2 * d,
        monsters: 8 + d,
        potions: 2 + d,
        tools: 2 + d,
        promote: (25 + 20 * d as u32).min(90),
    }
}

/// The seed of floor `depth` of the run started from `seed` (SplitMix64 of the pair), so
/// floors of one run differ and runs of nearby seeds do not share floors.
pub fn floor_seed(seed: u64, depth: u32) -> u64 {
    let mut z = seed ^ u64::from(depth).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of the run that follows the run of `seed` when a player asks for a new one
/// (SplitMix64 of it, kept below a billion so that it reads and types easily): fresh for
/// each run, yet a recording of several runs replays them all from its first seed.
pub fn next_run_seed(seed: u64) -> u64 {
    floor_seed(seed ^ 0x6e65_775f_7275_6e00, 0) % 1_000_000_000
}

/// How a generated floor's title begins: `Depth 2 of 3: ` then the generator's title.
const DEPTH_HEADING: &str = "Depth ";

/// A generated floor's title without its `Depth N of M: ` heading (which the panel shows
/// too): the generator's words, kind, size and seed, for a frame too narrow for both.
pub fn floor_title_detail(title: &str) -> Option<&str> {
    let rest = title.strip_prefix(DEPTH_HEADING)?;
    let (depths, detail) = rest.split_once(": ")?;
    let (depth, of) = depths.split_once(" of ")?;
    let number = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    (number(depth) && number(of)).then_some(detail)
}

/// The generator and seed behind floor `depth` of the run from `seed`.
pub fn floor_origin(seed: u64, depth: u32) -> (GenKind, u64) {
    (plan(depth).kind, floor_seed(seed, depth))
}

/// Floor `depth` (2 and deeper) of the run started from `seed`: a generated map with stairs
/// (unless it is the final floor), potions, and its monsters promoted by depth.
pub fn floor(seed: u64, depth: u32) -> Result<Level, GenError> {
    let p = plan(depth);
    let fseed = floor_seed(seed, depth);
    let params = GenParams::new(p.kind, p.width, p.height, fseed)
        .with_monsters(p.monsters)
        .with_depth(depth);
    let mut level = generate(&params)?;
    // The generator's title names kind, size and seed: enough to make the floor again.
    level.title = Some(format!(
        "{DEPTH_HEADING}{depth} of {}: {}",
        FINAL_DEPTH.max(depth),
        params.title()
    ));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(fseed ^ 0xf00d);
    furnish(
        &mut level,
        depth < FINAL_DEPTH,
        (p.potions, p.tools),
        p.promote,
        &mut rng,
    );
    Ok(level)
}

/// Moves monsters nearer than [`ARRIVAL_ROOM`] steps to the player's start farther away,
/// puts stairs (when `stairs`) on the free cell farthest from the start, `potions` potions
/// and `tools` tools (lures, seeds, spikes, drawn at random) on random free cells of the
/// player's region away from the start, and promotes each monster to the next kind with
/// `promote` percent chance.
fn furnish(
    level: &mut Level,
    stairs: bool,
    (potions, tools): (usize, usize),
    promote: u32,
    rng: &mut Xoshiro256PlusPlus,
) {
    let Some(start) = level.player else { return };
    let grid = &level.grid;
    // Water and brush are no place for a monster to start or a feature to lie: the file
    // writes their glyph in place of floor.
    let taken = |p: Pos, l: &Level| {
        l.grid.get(p) != crate::content::map::Tile::Floor
            || l.player == Some(p)
            || l.monsters.iter().any(|m| m.pos == p)
            || l.features.iter().any(|f| f.pos == p)
    };
    // Breadth-first by king moves without cutting corners: the cells the player can walk to,
    // nearest first.
    let mut order = vec![start];
    let mut dist = vec![u32::MAX; grid.len()];
    if let Some(c) = grid.index(start) {
        dist[c] = 0;
    }
    let mut i = 0;
    while i < order.len() {
        let p = order[i];
        i += 1;
        let d = grid.index(p).map_or(0, |c| dist[c]);
        for (dx, dy) in DIRECTIONS {
            let n = p.offset(dx, dy);
            if let Some(c) = grid.index(n)
                && dist[c] == u32::MAX
                && grid.can_step(p, dx, dy, crate::engine::grid::Neighbourhood::Eight)
            {
                dist[c] = d + 1;
                order.push(n);
            }
        }
    }
    let steps = |p: Pos| grid.index(p).map_or(u32::MAX, |c| dist[c]);
    for i in 0..level.monsters.len() {
        if steps(level.monsters[i].pos) >= ARRIVAL_ROOM {
            continue;
        }
        let away: Vec<Pos> = order
            .iter()
            .copied()
            .filter(|&p| steps(p) >= ARRIVAL_ROOM && !taken(p, level))
            .collect();
        if !away.is_empty() {
            level.monsters[i].pos = away[rng.random_range(0..away.len())];
        }
    }
    level.monsters.sort_by_key(|m| (m.pos.y, m.pos.x));
    if stairs && let Some(&p) = order.iter().rev().find(|&&p| !taken(p, level)) {
        level.features.push(Feature {
            pos: p,
            kind: FeatureKind::Stairs,
        });
    }
    // Potions and tools lie at least a few steps from the start, so that finding them is
    // part of play.
    let far: Vec<Pos> = order.iter().copied().filter(|&p| steps(p) >= 4).collect();
    let items = (0..potions).map(|_| None).chain((0..tools).map(Some));
    for tool in items {
        let free: Vec<Pos> = far.iter().copied().filter(|&p| !taken(p, level)).collect();
        if free.is_empty() {
            break;
        }
        let p = free[rng.random_range(0..free.len())];
        let kind = match tool {
            None => FeatureKind::Potion,
            Some(_) => crate::game::tools::TOOLS[rng.random_range(0..3)],
        };
        level.features.push(Feature { pos: p, kind });
    }
    level.features.sort_by_key(|f| (f.pos.y, f.pos.x));
    for m in &mut level.monsters {
        let at = KINDS.iter().position(|k| k.glyph == m.kind);
        if let Some(i) = at
            && i + 1 < KINDS.len()
            && rng.random_range(0..100) < promote
        {
            m.kind = KINDS[i + 1].glyph;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::kinds::builtin as kind;

    #[test]
    fn each_new_run_gets_another_short_seed() {
        let mut seen = std::collections::HashSet::new();
        let mut seed = 1;
        for _ in 0..1000 {
            seed = next_run_seed(seed);
            assert!(seed < 1_000_000_000);
            assert!(seen.insert(seed), "seed {seed} came twice");
        }
        // Pinned: recorded `runs: kept` scripts replay with the seeds it gives.
        assert_eq!(next_run_seed(7), 213_358_238);
    }

    #[test]
    fn floors_come_from_the_seed_and_depth_alone() {
        let a = floor(5, 2).unwrap();
        assert_eq!(a, floor(5, 2).unwrap());
        assert_ne!(a.grid, floor(6, 2).unwrap().grid);
        assert_ne!(a.grid, floor(5, 3).unwrap().grid);
    }

    #[test]
    fn each_floor_has_stairs_but_the_last_and_potions_on_free_floor() {
        for seed in 0..8 {
            for depth in 2..=FINAL_DEPTH {
                let l = floor(seed, depth).unwrap();
                let stairs = l
                    .features
                    .iter()
                    .filter(|f| f.kind == FeatureKind::Stairs)
                    .count();
                assert_eq!(stairs, usize::from(depth < FINAL_DEPTH), "{seed} {depth}");
                let potions = l
                    .features
                    .iter()
                    .filter(|f| f.kind == FeatureKind::Potion)
                    .count();
                assert_eq!(potions, plan(depth).potions);
                for f in &l.features {
                    assert!(l.grid.is_passable(f.pos));
                    assert_ne!(l.player, Some(f.pos));
                    assert!(l.monsters.iter().all(|m| m.pos != f.pos));
                }
                // The text format holds them: the floor saves and reads back.
                assert_eq!(Level::parse(l.to_text().as_bytes(), "t").unwrap(), l);
            }
        }
    }

    #[test]
    fn deeper_floors_hold_more_and_harder_monsters() {
        let strength = |depth: u32| -> (usize, i32) {
            (0..10)
                .map(|seed| floor(seed, depth).unwrap())
                .fold((0, 0), |(n, hp), l| {
                    let sum: i32 = l.monsters.iter().map(|m| kind(m.kind).hp).sum();
                    (n + l.monsters.len(), hp + sum)
                })
        };
        let (n2, hp2) = strength(2);
        let (n3, hp3) = strength(3);
        assert!(n3 > n2, "{n3} monsters at depth 3, {n2} at depth 2");
        assert!(
            hp3 * n2 as i32 > hp2 * n3 as i32,
            "mean HP {hp3}/{n3} at depth 3, {hp2}/{n2} at depth 2"
        );
    }

    #[test]
    fn the_stairs_are_as_far_from_the_start_as_any_cell() {
        use crate::engine::grid::Neighbourhood;
        for seed in 0..4 {
            let l = floor(seed, 2).unwrap();
            let stairs = l
                .features
                .iter()
                .find(|f| f.kind == FeatureKind::Stairs)
                .unwrap();
            // Walking distances from the start, by king moves that cut no corner.
            let g = &l.grid;
            let mut dist = vec![u32::MAX; g.len()];
            let start = l.player.unwrap();
            dist[g.index(start).unwrap()] = 0;
            let mut queue = std::collections::VecDeque::from([start]);
            while let Some(p) = queue.pop_front() {
                for (dx, dy) in DIRECTIONS {
                    let n = p.offset(dx, dy);
                    if g.can_step(p, dx, dy, Neighbourhood::Eight)
                        && dist[g.index(n).unwrap()] == u32::MAX
                    {
                        dist[g.index(n).unwrap()] = dist[g.index(p).unwrap()] + 1;
                        queue.push_back(n);
                    }
                }
            }
            let to_stairs = dist[g.index(stairs.pos).unwrap()];
            // Every cell farther away holds a monster.
            for (c, &d) in dist.iter().enumerate() {
                if d != u32::MAX && d > to_stairs {
                    let p = g.pos(c);
                    assert!(l.monsters.iter().any(|m| m.pos == p), "{seed}: {p} is free");
                }
            }
            assert!(
                to_stairs >= 10,
                "{seed}: the stairs are {to_stairs} steps away"
            );
        }
    }
}
