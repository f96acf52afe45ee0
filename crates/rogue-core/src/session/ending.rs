//! A run's end taken from the session: its figures, its last messages and the map around
//! the player. Apart from `morgue`, which writes what this takes, so that the morgue file's
//! code does not import the session that imports it.

use super::Session;
use super::files::SourceKind;
use super::morgue::{LAST_MESSAGES, Left, MAP_WINDOW, Outcome, RunEnd};
use crate::content::level::tile_glyph;
use crate::engine::grid::Pos;

impl RunEnd {
    /// The run of `session` as it ended, `outcome` being how.
    pub fn of(session: &Session, outcome: Outcome) -> RunEnd {
        let w = session.world();
        let first = session.first_floor();
        let level_path = match first.source.kind {
            SourceKind::Text | SourceKind::MovingAi => first.source.path.as_ref().map(|p| {
                std::path::absolute(p)
                    .ok()
                    .and_then(|a| a.canonicalize().ok())
                    .unwrap_or_else(|| p.clone())
            }),
            SourceKind::Generated => None,
        };
        let floor = session
            .design()
            .level()
            .title
            .clone()
            .unwrap_or_else(|| session.source().name());
        let log = w.log();
        let messages = log[log.len().saturating_sub(LAST_MESSAGES)..]
            .iter()
            .map(|m| (m.turn, m.to_string()))
            .collect();
        let grid = w.grid();
        let (gw, gh) = (grid.width() as i32, grid.height() as i32);
        let (ww, wh) = (MAP_WINDOW.0.min(gw), MAP_WINDOW.1.min(gh));
        let p = w.player().pos;
        let x0 = (p.x - ww / 2).clamp(0, gw - ww);
        let y0 = (p.y - wh / 2).clamp(0, gh - wh);
        let map = (y0..y0 + wh)
            .map(|y| {
                let row: String = (x0..x0 + ww)
                    .map(|x| {
                        let c = Pos::new(x, y);
                        if c == p {
                            '@'
                        } else if let Some(m) = w.monster_at(c) {
                            m.kind
                        } else if let Some(f) = w.feature_at(c) {
                            f.glyph()
                        } else {
                            tile_glyph(grid.get(c))
                        }
                    })
                    .collect();
                row.trim_end().to_string()
            })
            .collect();
        RunEnd {
            outcome,
            killer: w.run().killer,
            seed: w.seed(),
            turn: w.turn(),
            final_depth: w.final_depth(),
            stats: *w.run(),
            player: *w.player(),
            level: first.source.name(),
            level_path,
            floor: crate::text::escape_controls(&floor).into_owned(),
            messages,
            map,
            map_origin: Pos::new(x0, y0),
            monsters: w
                .monsters()
                .iter()
                .map(|m| Left {
                    kind: m.kind,
                    id: m.id,
                    pos: m.pos,
                    hp: m.hp,
                    max: w.kind(m.kind).hp,
                })
                .collect(),
            kinds: grid
                .kinds()
                .own()
                .iter()
                .map(|k| (k.glyph, k.name.to_string()))
                .collect(),
        }
    }
}
