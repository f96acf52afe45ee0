//! What a cell is made of ([`Tile`]) and what entering each terrain weighs
//! ([`TerrainWeights`]): the words the map, the kinds' costs and the level files share,
//! below all three.

/// What a cell is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Tile {
    /// Walkable ground.
    #[default]
    Floor,
    /// A wall: blocks movement and is drawn.
    Wall,
    /// Nothing at all: blocks movement and is drawn blank.
    Void,
    /// Shallow water: passable, and by default three times as dear to enter as floor.
    Water,
    /// Brush: passable, and by default twice as dear to enter as floor.
    Brush,
    /// A closed door: it blocks sight; whoever can open doors steps in and opens it (two
    /// turns for the player and most monsters), the door-shy cannot.
    DoorClosed,
    /// An open door: floor that a door can close over again.
    DoorOpen,
    /// A closed door jammed shut with a spike: a wall to everyone (a tunneller digs through
    /// it as through a wall).
    DoorJammed,
}

impl Tile {
    /// Every tile, in the order of their discriminants (a [`CostTable`](crate::content::kinds::CostTable)'s).
    pub const ALL: [Tile; 8] = [
        Tile::Floor,
        Tile::Wall,
        Tile::Void,
        Tile::Water,
        Tile::Brush,
        Tile::DoorClosed,
        Tile::DoorOpen,
        Tile::DoorJammed,
    ];

    /// How many tiles there are.
    pub const COUNT: usize = Tile::ALL.len();

    /// Whether the player may step onto this tile by walking (a closed door opens first).
    pub const fn is_passable(self) -> bool {
        matches!(
            self,
            Tile::Floor | Tile::Water | Tile::Brush | Tile::DoorOpen
        )
    }

    /// Whether it is a door, open, closed or jammed.
    pub const fn is_door(self) -> bool {
        matches!(self, Tile::DoorClosed | Tile::DoorOpen | Tile::DoorJammed)
    }

    /// Whether it stops the eye: walls, void and shut doors.
    pub const fn blocks_sight(self) -> bool {
        matches!(
            self,
            Tile::Wall | Tile::Void | Tile::DoorClosed | Tile::DoorJammed
        )
    }

    /// The passable tiles, each with a weight in [`TerrainWeights`], in its order.
    pub const TERRAIN: [Tile; 3] = [Tile::Floor, Tile::Water, Tile::Brush];

    /// Its name in messages (`floor`, `wall`, `void`, `water`, `brush`).
    pub const fn name(self) -> &'static str {
        match self {
            Tile::Floor => "floor",
            Tile::Wall => "wall",
            Tile::Void => "void",
            Tile::Water => "water",
            Tile::Brush => "brush",
            Tile::DoorClosed => "closed door",
            Tile::DoorOpen => "open door",
            Tile::DoorJammed => "jammed door",
        }
    }

    /// Its place in [`Tile::TERRAIN`], for the tiles with a weight of their own.
    const fn terrain_index(self) -> Option<usize> {
        match self {
            Tile::Floor => Some(0),
            Tile::Water => Some(1),
            Tile::Brush => Some(2),
            Tile::Wall | Tile::Void | Tile::DoorClosed | Tile::DoorOpen | Tile::DoorJammed => None,
        }
    }
}

/// How many times a step's base cost (10 straight, 14 diagonal) entering each passable tile
/// costs: floor 1, water 3 and brush 2 unless a level says otherwise, each from 1 to
/// [`TerrainWeights::MAX`]. Walls and void have no weight: nobody enters them.
///
/// ```
/// use astar_rogue_core::content::map::{TerrainWeights, Tile};
///
/// let w = TerrainWeights::DEFAULT;
/// assert_eq!((w.get(Tile::Floor), w.get(Tile::Water), w.get(Tile::Brush)), (1, 3, 2));
/// assert_eq!(w.get(Tile::Wall), 0);
/// let slow = w.with(Tile::Water, 9).unwrap();
/// assert_eq!(slow.get(Tile::Water), 9);
/// assert!(w.with(Tile::Water, 10).is_none() && w.with(Tile::Wall, 2).is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TerrainWeights([u8; 3]);

impl TerrainWeights {
    /// Floor 1, water 3, brush 2.
    pub const DEFAULT: TerrainWeights = TerrainWeights([1, 3, 2]);
    /// Every terrain 1: the cost counts steps alone ("fewest steps").
    pub const ONES: TerrainWeights = TerrainWeights([1, 1, 1]);
    /// The largest weight a terrain may have.
    pub const MAX: u32 = 9;

    /// The weight of a tile: its entry for passable tiles, 0 for walls and void.
    #[inline]
    pub const fn get(self, tile: Tile) -> u32 {
        match tile.terrain_index() {
            Some(i) => self.0[i] as u32,
            None => 0,
        }
    }

    /// These weights with `tile`'s set to `weight`; `None` for a tile that cannot be entered
    /// or a weight outside `1..=MAX`.
    pub const fn with(self, tile: Tile, weight: u32) -> Option<Self> {
        match tile.terrain_index() {
            Some(i) if weight >= 1 && weight <= Self::MAX => {
                let mut w = self.0;
                w[i] = weight as u8;
                Some(TerrainWeights(w))
            }
            _ => None,
        }
    }

    /// What entering a tile costs the engine: its weight, 0 where nobody may go.
    #[inline]
    pub const fn cost(self, tile: Tile) -> u8 {
        self.get(tile) as u8
    }
}

impl Default for TerrainWeights {
    fn default() -> Self {
        Self::DEFAULT
    }
}
