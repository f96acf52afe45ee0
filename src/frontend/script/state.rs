//! The JSON state line that `--state` prints after every turn.

use serde::Serialize;

use crate::app::App;

/// The game state that `--state` prints, taken from the app: numbers only, so that taking
/// it is cheap; [`StateLine::line`] writes it as its JSON line, when one is wanted.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StateLine {
    turn: u32,
    state: &'static str,
    depth: u32,
    player: PlayerState,
    monsters: Vec<MonsterState>,
    selected: Option<SelectedState>,
    run: RunState,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct PlayerState {
    x: i32,
    y: i32,
    hp: i32,
    potions: u32,
}

/// The run's figures, as the end screen shows them.
#[derive(Debug, Clone, PartialEq, Serialize)]
struct RunState {
    kills: u32,
    dealt: u32,
    taken: u32,
    drunk: u32,
    expanded: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct MonsterState {
    id: u32,
    /// Written as a string of one character, as JSON has no characters.
    kind: char,
    x: i32,
    y: i32,
    hp: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct SelectedState {
    id: u32,
    cost: Option<u32>,
    expanded: u32,
}

/// The game state as one JSON line.
pub fn state_line(app: &App) -> String {
    StateLine::of(app).line()
}

impl StateLine {
    /// The state of `app`'s game now.
    pub fn of(app: &App) -> StateLine {
        let w = &app.world();
        let run = w.run();
        StateLine {
            turn: w.turn(),
            state: w.state().name(),
            depth: run.depth,
            player: PlayerState {
                x: w.player().pos.x,
                y: w.player().pos.y,
                hp: w.player().hp,
                potions: w.player().potions,
            },
            monsters: w
                .monsters()
                .iter()
                .map(|m| MonsterState {
                    id: m.id,
                    kind: m.kind,
                    x: m.pos.x,
                    y: m.pos.y,
                    hp: m.hp,
                })
                .collect(),
            selected: app
                .ui()
                .selected()
                .and_then(|id| w.monster(id))
                .map(|m| SelectedState {
                    id: m.id,
                    cost: m.plan.cost,
                    expanded: m.plan.expanded,
                }),
            run: RunState {
                kills: run.kills,
                dealt: run.damage_dealt,
                taken: run.damage_taken,
                drunk: run.potions_drunk,
                expanded: run.astar_expanded,
            },
        }
    }

    /// Its JSON line.
    pub fn line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}
