//! Long actions: resting until healed, exploring, and travel to the stairs. Each takes one
//! step a tick (so the frame shows every step), and each stops at any key, at anything new
//! the game reports ([`crate::game::Alarm`]) and when its work is done. The rules of what is
//! new and where exploring goes are the game's ([`crate::game::explore`]); this is the app's
//! bookkeeping.

use super::App;
use super::errand::Errand;
use super::keymap::{Action, Context};
use crate::game::run::REGEN_TURNS;
use crate::game::{Act, ActResult, Explore, GameState, PLAYER_HP};

/// The most turns `Z` waits for monsters in view that never come (one boxed in, or going
/// round a long way): a stop the player sees rather than a game that seems to hang.
const WAIT_TURNS: u32 = 100;

impl App {
    /// Stops travel, resting and exploring; whether any was under way.
    pub(super) fn stop_errands(&mut self) -> bool {
        let busy = self.ui.travel.take().is_some() | self.ui.errand.take().is_some();
        self.ui.watch = None;
        busy
    }

    /// Why a long action cannot start now: a monster in view (which would interrupt it at
    /// once), or the run is over.
    fn refuse_long_action(&mut self, what: &str) -> bool {
        if self.world().state() != GameState::Playing {
            return true;
        }
        if let Some(m) = self.world().nearest_in_view() {
            let name = self.world().kind(m.kind).name;
            self.say(format!("You cannot {what} with the {name} in view."));
            return true;
        }
        false
    }

    /// `Z`: rest until healed; with monsters in view, wait for them to come; unhurt with
    /// nothing in view, wait for something to happen (a monster heard of but not in view
    /// walks into sight of a player who holds their ground).
    pub(super) fn start_rest(&mut self) {
        if self.world().state() != GameState::Playing {
            return;
        }
        if let Some(m) = self.world().nearest_in_view() {
            let name = self.world().kind(m.kind).name;
            if m.pos.chebyshev(self.world().player().pos) <= 1 {
                self.say(format!("The {name} is next to you: no time to wait."));
            } else {
                self.say(format!("You wait for the {name} to come to you."));
                self.ui.errand = Some(super::Errand::Wait(0));
                self.ui.watch = Some(self.world().watch());
            }
            return;
        }
        if self.world().player().hp >= PLAYER_HP && !self.world().anyone_coming() {
            self.say("You are unhurt and no monster is on its way to you: nothing to wait for.");
            return;
        }
        if self.world().player().hp >= PLAYER_HP {
            self.say(format!(
                "You are unhurt: you wait up to {WAIT_TURNS} turns for something to happen."
            ));
            self.ui.errand = Some(super::Errand::Idle(0));
            self.ui.watch = Some(self.world().watch());
            return;
        }
        self.ui.errand = Some(super::Errand::Rest);
        self.ui.watch = Some(self.world().watch());
    }

    /// `X`: explore the floor.
    pub(super) fn start_explore(&mut self) {
        if self.refuse_long_action("explore") {
            return;
        }
        if self.world().explore() == Explore::Done {
            self.explored();
            return;
        }
        self.ui.errand = Some(super::Errand::Explore);
        self.ui.watch = Some(self.world().watch());
    }

    /// `>` away from the stairs: travel to the stairs seen, if any.
    pub(super) fn travel_to_stairs(&mut self) {
        if self.world().state() != GameState::Playing {
            return;
        }
        match self.world().seen_stairs() {
            Some(p) => {
                self.say("You head for the stairs >.");
                self.start_travel(p);
            }
            None if !self.world().has_stairs() => {
                self.say("This floor has no stairs: clearing it wins the run.")
            }
            None => self.say(format!(
                "You have not found the stairs yet: {} explores.",
                self.ui.key(Context::Play, Action::Explore)
            )),
        }
    }

    /// Everything in reach is seen.
    fn explored(&mut self) {
        let next = match (
            self.world().seen_stairs(),
            self.world().monsters().is_empty(),
        ) {
            (Some(_), true) => format!(
                " {} goes to the stairs.",
                self.ui.key(Context::Play, Action::Descend)
            ),
            _ => String::new(),
        };
        self.say(format!("Explored: nothing more to see from here.{next}"));
    }

    /// Whether something new came up since the long action began; says what it was.
    pub(super) fn alarmed(&mut self) -> bool {
        let Some(watch) = &self.ui.watch else {
            return false;
        };
        let Some(alarm) = self.world().alarm(watch) else {
            return false;
        };
        if let Some(text) = alarm.message() {
            self.say(text);
        }
        self.ui.watch = None;
        true
    }

    /// One tick of resting (turns until a hit point comes back) or exploring (one step).
    pub(super) fn errand_step(&mut self) {
        let Some(errand) = self.ui.errand else { return };
        if self.world().state() != GameState::Playing {
            self.stop_errands();
            return;
        }
        match errand {
            Errand::Rest => {
                let hp = self.world().player().hp;
                // Regeneration gives a point every few turns: one tick per point keeps the
                // rest short to watch yet drawn as it goes.
                for _ in 0..REGEN_TURNS {
                    self.act(Act::Wait);
                    if self.alarmed() || self.world().state() != GameState::Playing {
                        self.stop_errands();
                        return;
                    }
                    if self.world().player().hp >= PLAYER_HP {
                        self.stop_errands();
                        self.say(format!("You are rested: HP {PLAYER_HP}/{PLAYER_HP}."));
                        return;
                    }
                    if self.world().player().hp > hp {
                        break;
                    }
                }
            }
            Errand::Wait(turns) => {
                self.act(Act::Wait);
                if self.alarmed() || self.world().state() != GameState::Playing {
                    self.stop_errands();
                    return;
                }
                let me = self.world().player().pos;
                let nearest = self.world().nearest_in_view();
                let near = nearest.filter(|m| m.pos.chebyshev(me) <= 1);
                let stop = match (near, nearest.is_none()) {
                    (Some(m), _) => Some(format!(
                        "The {} is next to you.",
                        self.world().kind(m.kind).name
                    )),
                    (None, true) => Some("Nothing is in view any more.".to_string()),
                    (None, false) if turns + 1 >= WAIT_TURNS => {
                        Some(format!("You have waited {WAIT_TURNS} turns; nothing came."))
                    }
                    (None, false) => None,
                };
                match stop {
                    Some(text) => {
                        self.stop_errands();
                        self.say(text);
                    }
                    None => self.ui.errand = Some(super::Errand::Wait(turns + 1)),
                }
            }
            Errand::Idle(turns) => {
                self.act(Act::Wait);
                if self.alarmed() || self.world().state() != GameState::Playing {
                    self.stop_errands();
                } else if turns + 1 >= WAIT_TURNS {
                    self.stop_errands();
                    self.say(format!(
                        "You have waited {WAIT_TURNS} turns; nothing happened."
                    ));
                } else {
                    self.ui.errand = Some(super::Errand::Idle(turns + 1));
                }
            }
            Errand::Explore => match self.world().explore() {
                Explore::Done => {
                    self.stop_errands();
                    self.explored();
                }
                Explore::Step(dx, dy) => {
                    if self.session.world_mut().player_act(Act::Move(dx, dy)) == ActResult::Acted {
                        self.after_turn();
                    } else {
                        self.stop_errands();
                        return;
                    }
                    if self.alarmed() {
                        self.stop_errands();
                    }
                }
            },
        }
    }
}
