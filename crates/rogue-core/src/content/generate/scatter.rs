//! Scattered obstacles: the classic A* demonstration map, an open rectangle with single
//! blocked cells dropped at random.

use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;

use crate::content::map::Tile;

/// Row-major tiles of an open rectangle inside a wall border, each interior cell an
/// obstacle with odds `wall_share`. Floor may be in several pieces (cells boxed in by
/// obstacles), more of them the nearer the odds come to 0.41, where square-grid sites stop
/// joining up across the map.
pub(super) fn carve(
    width: usize,
    height: usize,
    wall_share: f64,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Tile> {
    let mut tiles = vec![Tile::Wall; width * height];
    for y in 1..height - 1 {
        for x in 1..width - 1 {
            if !rng.random_bool(wall_share) {
                tiles[y * width + x] = Tile::Floor;
            }
        }
    }
    tiles
}
