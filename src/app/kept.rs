//! What a kept run's save holds of the app beside its session: the screen up and what it
//! shows. Plain data: the app makes it and takes it back (`App::kept_view`, `App::resumed`).

use super::errand::Errand;
use super::overlay::Overlay;
use super::screens::history::History;
use super::screens::{Screen, help::Help};
use super::tools::Tools;
use super::ui::Ui;
use super::{config::Settings, selection::Selection};
use crate::content::level::tools::Clip;
use crate::engine::grid::Pos;
use crate::game::Watch;

/// What a kept run's save holds of the app beside its session: the screen up and what it
/// shows, so that a resumed run looks as it was left. A question is never kept (the run is
/// kept as it stood before it), nor the lab (its screen is left for the one under it).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct KeptView {
    pub(super) screen: KeptScreen,
    pub(super) selected: Option<u32>,
    pub(super) chosen: bool,
    pub(super) show_path: bool,
    pub(super) overlay: Overlay,
    pub(super) clipboard: Option<Clip>,
    #[serde(with = "crate::content::serial::opt_pos")]
    pub(super) travel: Option<Pos>,
    pub(super) errand: Option<Errand>,
    pub(super) watch: Option<Watch>,
    #[serde(with = "crate::content::serial::pos")]
    pub(super) camera: Pos,
    pub(super) sight: bool,
}

impl KeptView {
    /// What a kept run's save holds of an app's `screen` and `ui`
    /// (`KeptView::of(app.screen(), app.ui())`).
    pub fn of(screen: &Screen, ui: &Ui) -> KeptView {
        KeptView {
            screen: KeptScreen::of(screen),
            selected: ui.selection.id,
            chosen: ui.selection.chosen,
            show_path: ui.show_path,
            overlay: ui.overlay.clone(),
            clipboard: ui.clipboard.clone(),
            travel: ui.travel,
            errand: ui.errand,
            watch: ui.watch.clone(),
            camera: ui.camera,
            sight: ui.sight,
        }
    }

    /// The screen and the UI state kept, in a terminal of `size` with `settings`.
    pub(super) fn restore(self, size: (u16, u16), settings: Settings) -> (Screen, Ui) {
        let mut ui = Ui::new(size);
        ui.selection = Selection {
            id: self.selected,
            chosen: self.chosen,
        };
        ui.show_path = self.show_path;
        ui.overlay = self.overlay;
        ui.clipboard = self.clipboard;
        ui.travel = self.travel;
        ui.errand = self.errand;
        ui.watch = self.watch;
        ui.camera = self.camera;
        ui.sight = self.sight;
        ui.settings = settings;
        (self.screen.screen(), ui)
    }
}

/// A screen as a kept run's save holds it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum KeptScreen {
    Play,
    Aim,
    Look {
        #[serde(with = "crate::content::serial::pos")]
        cursor: Pos,
    },
    Edit {
        #[serde(with = "crate::content::serial::pos")]
        cursor: Pos,
        tools: Tools,
    },
    Help {
        page: usize,
        back: Box<KeptScreen>,
    },
    History {
        scroll: usize,
        back: Box<KeptScreen>,
    },
}

impl KeptScreen {
    pub(super) fn of(screen: &Screen) -> KeptScreen {
        match screen {
            Screen::Play => KeptScreen::Play,
            Screen::Aim => KeptScreen::Aim,
            Screen::Look { cursor } => KeptScreen::Look { cursor: *cursor },
            // A stroke under way ends with the game.
            Screen::Edit { cursor, tools, .. } => KeptScreen::Edit {
                cursor: *cursor,
                tools: *tools,
            },
            Screen::Lab { back, .. } | Screen::Confirm { back, .. } => KeptScreen::of(back),
            Screen::Help { help, back } => KeptScreen::Help {
                page: help.page,
                back: Box::new(KeptScreen::of(back)),
            },
            Screen::History { history, back } => KeptScreen::History {
                scroll: history.scroll,
                back: Box::new(KeptScreen::of(back)),
            },
        }
    }

    pub(super) fn screen(self) -> Screen {
        match self {
            KeptScreen::Play => Screen::Play,
            KeptScreen::Aim => Screen::Aim,
            KeptScreen::Look { cursor } => Screen::Look { cursor },
            KeptScreen::Edit { cursor, tools } => Screen::Edit {
                cursor,
                stroke: None,
                tools,
            },
            KeptScreen::Help { page, back } => Screen::Help {
                help: Help { page },
                back: Box::new(back.screen()),
            },
            KeptScreen::History { scroll, back } => Screen::History {
                history: History { scroll },
                back: Box::new(back.screen()),
            },
        }
    }
}
