//! The game played turn by turn, and its long actions: resting until healed, exploring,
//! and travel to a cell or the stairs ([`Play`]). Each long action takes one step a tick
//! (so the frame shows every step), and each stops at any key, at anything new the game
//! reports ([`crate::game::Alarm`]) and when its work is done. The rules of what is new and
//! where exploring goes are the game's ([`crate::game::explore`]); this is the app's
//! bookkeeping, on the session and the shared UI state. The game's commands, which may
//! also switch to aiming and back, are in `play.rs`.

use super::command::{Action, Context};
use super::errand::Errand;
use super::options;
use super::ui::Ui;
use crate::engine::astar::SearchOptions;
use crate::engine::grid::Pos;
use crate::game::run::REGEN_TURNS;
use crate::game::{Act, ActResult, Explore, GameState, PLAYER_HP, Planning};
use crate::session::{Descended, Session};

/// The most turns `Z` waits for monsters in view that never come (one boxed in, or going
/// round a long way): a stop the player sees rather than a game that seems to hang.
const WAIT_TURNS: u32 = 100;

/// The game played on one command or tick: the session and the UI state its turns move
/// (the selection, the trace, travel and errands), lent by the app.
pub struct Play<'a> {
    /// The run played.
    pub session: &'a mut Session,
    /// The UI state the screens share.
    pub ui: &'a mut Ui,
}

impl<'a> Play<'a> {
    /// The game of `session` played, with the shared `ui` its turns move.
    pub fn new(session: &'a mut Session, ui: &'a mut Ui) -> Self {
        Self { session, ui }
    }

    /// The player acts; a turn that passed moves the selection and the trace on.
    pub fn act(&mut self, act: Act) {
        if self.session.world_mut().player_act(act) == ActResult::Acted {
            self.ui.after_turn(self.session.world_mut());
        }
    }

    /// The first log lines of a run: where the keys are explained and how to see a search,
    /// then its goal, then the level's own words.
    pub fn welcome(&mut self) {
        let goal = self.session.world().goal();
        // Two lines, so that neither is cut in an 80-column log, the goal last so that a
        // one-line log (a short terminal) shows it.
        // Said before the settings are read (`App::new`), it names the player's keys only
        // as the view words it (`Message::worded`).
        let searches = !self.session.world().monsters().is_empty();
        self.session
            .world_mut()
            .advise("", crate::game::Advice::Welcome { searches });
        self.session.say(goal);
        self.session.world_mut().say_intro();
    }

    /// Switches how the monsters plan to the next way, and says which.
    pub(super) fn cycle_planning(&mut self) {
        let next = self.session.world().planning().next();
        self.session.world_mut().set_planning(next);
        self.session.say(match next {
            Planning::AStar => "Monsters plan: each its own A*, every turn.".to_string(),
            Planning::Capped(n) => format!(
                "Monsters plan: A* capped at {n} expansions; a capped one heads for the nearest node it reached."
            ),
            Planning::Map => "Monsters plan: one Dijkstra map from you, for all of them.".to_string(),
            Planning::Jps => {
                "Monsters plan: each its own Jump Point Search, every turn.".to_string()
            }
        });
        self.ui.overlay.step = None;
        self.ui.sync_trace(self.session.world_mut());
    }

    /// Changes the monsters' search options, as an option key asks outside the lab.
    pub fn change_options(&mut self, change: fn(&mut SearchOptions)) {
        let mut o = self.session.world().options();
        change(&mut o);
        self.session
            .say(format!("Search: {}.", options::describe_for_log(&o)));
        self.ui.overlay.step = None;
        self.session.world_mut().set_options(o);
    }

    /// Takes the stairs: the session puts the floor below in play; whether it did.
    pub fn descend(&mut self) -> bool {
        match self.session.descend() {
            Descended::Unsaved => {
                let save = self.ui.key(Context::Play, Action::Save);
                self.session.say(format!(
                    "Save ({save}) or undo your edits first: the floor below replaces this design."
                ));
                false
            }
            Descended::Refused => false,
            Descended::Down => {
                // The UI starts over on the new floor (its long actions belonged to the one left).
                self.ui.reset_for(self.session.world_mut());
                true
            }
        }
    }

    /// Why a long action cannot start now: a monster in view (which would interrupt it at
    /// once), or the run is over.
    fn refuse_long_action(&mut self, what: &str) -> bool {
        if self.session.world().state() != GameState::Playing {
            return true;
        }
        if let Some(m) = self.session.world().nearest_in_view() {
            let name = self.session.world().kind(m.kind).name;
            self.session
                .say(format!("You cannot {what} with the {name} in view."));
            return true;
        }
        false
    }

    /// `Z`: rest until healed; with monsters in view, wait for them to come; unhurt with
    /// nothing in view, wait for something to happen (a monster heard of but not in view
    /// walks into sight of a player who holds their ground).
    pub fn start_rest(&mut self) {
        if self.session.world().state() != GameState::Playing {
            return;
        }
        if let Some(m) = self.session.world().nearest_in_view() {
            let name = self.session.world().kind(m.kind).name;
            if m.pos.chebyshev(self.session.world().player().pos) <= 1 {
                self.session
                    .say(format!("The {name} is next to you: no time to wait."));
            } else {
                self.session
                    .say(format!("You wait for the {name} to come to you."));
                self.ui.errand = Some(Errand::Wait(0));
                self.ui.watch = Some(self.session.world().watch());
            }
            return;
        }
        if self.session.world().player().hp >= PLAYER_HP && !self.session.world().anyone_coming() {
            self.session
                .say("You are unhurt and no monster is on its way to you: nothing to wait for.");
            return;
        }
        if self.session.world().player().hp >= PLAYER_HP {
            self.session.say(format!(
                "You are unhurt: you wait up to {WAIT_TURNS} turns for something to happen."
            ));
            self.ui.errand = Some(Errand::Idle(0));
            self.ui.watch = Some(self.session.world().watch());
            return;
        }
        self.ui.errand = Some(Errand::Rest);
        self.ui.watch = Some(self.session.world().watch());
    }

    /// `X`: explore the floor.
    pub fn start_explore(&mut self) {
        if self.refuse_long_action("explore") {
            return;
        }
        if self.session.world().explore() == Explore::Done {
            self.explored();
            return;
        }
        self.ui.errand = Some(Errand::Explore);
        self.ui.watch = Some(self.session.world().watch());
    }

    /// `>` away from the stairs: travel to the stairs seen, if any.
    pub fn travel_to_stairs(&mut self) {
        if self.session.world().state() != GameState::Playing {
            return;
        }
        match self.session.world().seen_stairs() {
            Some(p) => {
                self.session.say("You head for the stairs >.");
                self.start_travel(p);
            }
            None if !self.session.world().has_stairs() => self
                .session
                .say("This floor has no stairs: clearing it wins the run."),
            None => self.session.say(format!(
                "You have not found the stairs yet: {} explores.",
                self.ui.key(Context::Play, Action::Explore)
            )),
        }
    }

    /// Everything in reach is seen.
    fn explored(&mut self) {
        let next = match (
            self.session.world().seen_stairs(),
            self.session.world().monsters().is_empty(),
        ) {
            (Some(_), true) => format!(
                " {} goes to the stairs.",
                self.ui.key(Context::Play, Action::Descend)
            ),
            _ => String::new(),
        };
        self.session
            .say(format!("Explored: nothing more to see from here.{next}"));
    }

    /// Whether something new came up since the long action began; says what it was.
    fn alarmed(&mut self) -> bool {
        let Some(watch) = &self.ui.watch else {
            return false;
        };
        let Some(alarm) = self.session.world().alarm(watch) else {
            return false;
        };
        if let Some(text) = alarm.message() {
            self.session.say(text);
        }
        self.ui.watch = None;
        true
    }

    /// One tick of resting (turns until a hit point comes back) or exploring (one step).
    pub fn errand_step(&mut self) {
        let Some(errand) = self.ui.errand else { return };
        if self.session.world().state() != GameState::Playing {
            self.ui.stop_errands();
            return;
        }
        match errand {
            Errand::Rest => {
                let hp = self.session.world().player().hp;
                // Regeneration gives a point every few turns: one tick per point keeps the
                // rest short to watch yet drawn as it goes.
                for _ in 0..REGEN_TURNS {
                    self.act(Act::Wait);
                    if self.alarmed() || self.session.world().state() != GameState::Playing {
                        self.ui.stop_errands();
                        return;
                    }
                    if self.session.world().player().hp >= PLAYER_HP {
                        self.ui.stop_errands();
                        self.session
                            .say(format!("You are rested: HP {PLAYER_HP}/{PLAYER_HP}."));
                        return;
                    }
                    if self.session.world().player().hp > hp {
                        break;
                    }
                }
            }
            Errand::Wait(turns) => {
                self.act(Act::Wait);
                if self.alarmed() || self.session.world().state() != GameState::Playing {
                    self.ui.stop_errands();
                    return;
                }
                let me = self.session.world().player().pos;
                let nearest = self.session.world().nearest_in_view();
                let near = nearest.filter(|m| m.pos.chebyshev(me) <= 1);
                let stop = match (near, nearest.is_none()) {
                    (Some(m), _) => Some(format!(
                        "The {} is next to you.",
                        self.session.world().kind(m.kind).name
                    )),
                    (None, true) => Some("Nothing is in view any more.".to_string()),
                    (None, false) if turns + 1 >= WAIT_TURNS => {
                        Some(format!("You have waited {WAIT_TURNS} turns; nothing came."))
                    }
                    (None, false) => None,
                };
                match stop {
                    Some(text) => {
                        self.ui.stop_errands();
                        self.session.say(text);
                    }
                    None => self.ui.errand = Some(Errand::Wait(turns + 1)),
                }
            }
            Errand::Idle(turns) => {
                self.act(Act::Wait);
                if self.alarmed() || self.session.world().state() != GameState::Playing {
                    self.ui.stop_errands();
                } else if turns + 1 >= WAIT_TURNS {
                    self.ui.stop_errands();
                    self.session.say(format!(
                        "You have waited {WAIT_TURNS} turns; nothing happened."
                    ));
                } else {
                    self.ui.errand = Some(Errand::Idle(turns + 1));
                }
            }
            Errand::Explore => match self.session.world().explore() {
                Explore::Done => {
                    self.ui.stop_errands();
                    self.explored();
                }
                Explore::Step(dx, dy) => {
                    if self.session.world_mut().player_act(Act::Move(dx, dy)) == ActResult::Acted {
                        self.ui.after_turn(self.session.world_mut());
                    } else {
                        self.ui.stop_errands();
                        return;
                    }
                    if self.alarmed() {
                        self.ui.stop_errands();
                    }
                }
            },
        }
    }

    /// Starts travel toward a cell, one step per tick.
    pub fn start_travel(&mut self, to: Pos) {
        if to == self.session.world().player().pos || !self.session.world().grid().is_passable(to) {
            return;
        }
        self.ui.travel = Some(to);
        self.ui.watch = Some(self.session.world().watch());
    }

    /// One step of travel toward its cell.
    pub fn travel_step(&mut self) {
        let Some(target) = self.ui.travel else { return };
        if self.session.world().state() != GameState::Playing {
            self.ui.travel = None;
            return;
        }
        let player = self.session.world().player().pos;
        if self
            .session
            .world()
            .monsters()
            .iter()
            .any(|m| m.pos.chebyshev(player) <= 1)
        {
            self.ui.travel = None;
            self.session.say("A monster is next to you; you stop.");
            return;
        }
        match self.session.world_mut().player_step_toward(target) {
            Some((dx, dy)) => {
                let notes = self.session.world().notes_left();
                self.act(Act::Move(dx, dy));
                // A level's message on the way stops travel, so that it is read; so does
                // anything new in view.
                let arrived = self.session.world().player().pos == target
                    || self.session.world().notes_left() < notes;
                if arrived || self.alarmed() {
                    self.ui.travel = None;
                }
                let on_stairs = self.session.world().feature_at(target)
                    == Some(crate::content::level::FeatureKind::Stairs);
                if self.session.world().player().pos == target && on_stairs {
                    // The @ hides the > it stands on.
                    let key = self.ui.key(Context::Play, Action::Descend);
                    self.session
                        .say(format!("You stand on the stairs: {key} takes them."));
                }
            }
            None => {
                self.ui.travel = None;
                self.session.say("There is no way there.");
            }
        }
    }
}
