//! How a run ended, and its morgue file: a plain-text account in the data folder's
//! `morgue/`, as DCSS writes one, with the run's key tape beside it so that anyone can
//! watch the run again.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::data;
use super::scores::{Score, with_article};
use crate::content::kinds;
use crate::engine::grid::Pos;
use crate::game::{GameState, Player, RunStats};

/// The most map a morgue file shows: a window this size around the player.
pub(super) const MAP_WINDOW: (i32, i32) = (78, 30);
/// Messages a morgue file quotes, the last ones.
pub(super) const LAST_MESSAGES: usize = 16;

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The last floor was cleared.
    Won,
    /// The player died.
    Dead,
    /// The player gave the run up.
    Abandoned,
}

impl Outcome {
    /// Its name in the score table: `won`, `dead`, `abandoned`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Won => "won",
            Outcome::Dead => "dead",
            Outcome::Abandoned => "abandoned",
        }
    }

    /// The outcome of a game in this state, if it is over.
    pub fn of(state: GameState) -> Option<Outcome> {
        match state {
            GameState::Playing => None,
            GameState::Won => Some(Outcome::Won),
            GameState::Dead => Some(Outcome::Dead),
            GameState::Abandoned => Some(Outcome::Abandoned),
        }
    }
}

/// A monster left on the floor when a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Left {
    /// Its kind letter.
    pub kind: char,
    /// Its id.
    pub id: u32,
    /// Where it stood.
    #[serde(with = "crate::content::serial::pos")]
    pub pos: Pos,
    /// Its hit points.
    pub hp: i32,
    /// Its kind's hit points.
    pub max: i32,
}

/// Everything the score table and the morgue file say of an ended run, taken when it ended
/// (kept in the run's save until both are written).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunEnd {
    /// How it ended.
    pub outcome: Outcome,
    /// The kind that killed the player.
    pub killer: Option<char>,
    /// The run's seed.
    pub seed: u64,
    /// The turn it ended on.
    pub turn: u32,
    /// The run's deepest floor.
    pub final_depth: u32,
    /// The run's figures (its depth among them).
    pub stats: RunStats,
    /// The player at the end.
    pub player: Player,
    /// The file name of the level the run began on.
    pub level: String,
    /// That file, when it is one (not a generated or built-in level).
    pub level_path: Option<PathBuf>,
    /// The title of the floor it ended on.
    pub floor: String,
    /// The last messages, oldest first, each with its turn.
    pub messages: Vec<(u32, String)>,
    /// The map it ended on (a window around the player), with the creatures and features.
    pub map: Vec<String>,
    /// The map's top-left cell.
    #[serde(with = "crate::content::serial::pos")]
    pub map_origin: Pos,
    /// The monsters left.
    pub monsters: Vec<Left>,
    /// The names of the floor's own kinds, by letter (none in a save from before levels
    /// had kinds of their own): what the killer and the monsters left are called.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<(char, String)>,
}

impl RunEnd {
    /// The name of the kind a monster letter stood for on the floor the run ended on.
    pub fn name_of(&self, glyph: char) -> String {
        self.kinds.iter().find(|(g, _)| *g == glyph).map_or_else(
            || kinds::builtin(glyph).name.to_string(),
            |(_, n)| n.clone(),
        )
    }

    /// How it ended, in a sentence: `Killed by a goblin on depth 2 of 3, turn 245.`
    pub fn sentence(&self) -> String {
        let at = format!(
            "on depth {} of {}, turn {}",
            self.stats.depth, self.final_depth, self.turn
        );
        match self.outcome {
            Outcome::Won => format!("Won the run: the last floor cleared on turn {}.", self.turn),
            Outcome::Dead => match self.killer {
                Some(k) => format!("Killed by {} {at}.", with_article(&self.name_of(k))),
                None => format!("Died {at}."),
            },
            Outcome::Abandoned => format!("Abandoned {at}."),
        }
    }

    /// Its line in the score table, ended at `date`, with its morgue file.
    pub fn score(&self, date: u64, morgue: Option<PathBuf>) -> Score {
        Score {
            outcome: self.outcome.name().into(),
            killer: self.killer.map(|k| self.name_of(k)),
            depth: self.stats.depth,
            final_depth: self.final_depth,
            turns: self.turn,
            kills: self.stats.kills,
            dealt: self.stats.damage_dealt,
            taken: self.stats.damage_taken,
            drunk: self.stats.potions_drunk,
            seed: self.seed,
            level: self.level.clone(),
            level_path: self.level_path.clone(),
            date,
            morgue,
        }
    }

    /// The morgue file's text; `replay` is the command that replays the run.
    pub fn morgue_text(&self, date: u64, replay: &str) -> String {
        let mut out = String::new();
        let mut line = |s: String| {
            out.push_str(&s);
            out.push('\n');
        };
        line(format!("{} morgue file", super::data::GAME));
        line(String::new());
        line(self.sentence());
        line(String::new());
        let path = self
            .level_path
            .as_ref()
            .map_or(String::new(), |p| format!(" ({})", p.display()));
        line(format!(
            "Level:   {}{}",
            self.level,
            crate::text::escape_controls(&path)
        ));
        line(format!("Floor:   {}", self.floor));
        line(format!("Seed:    {}", self.seed));
        line(format!("Ended:   {} UTC", data::date(date)));
        line(String::new());
        let s = &self.stats;
        line(format!(
            "Turns {}   Depth {} of {}   Kills {}   HP {}/{}   Potions carried {}",
            self.turn,
            s.depth,
            self.final_depth,
            s.kills,
            self.player.hp,
            crate::game::PLAYER_HP,
            self.player.potions
        ));
        line(format!(
            "Damage dealt {}, taken {}   Potions drunk {}   Healed {}",
            s.damage_dealt, s.damage_taken, s.potions_drunk, s.healed
        ));
        line(format!(
            "The monsters' A*: {} searches, {} nodes expanded",
            s.searches, s.astar_expanded
        ));
        line(String::new());
        line("Last messages:".into());
        for (turn, text) in &self.messages {
            line(format!(
                "  {turn:>5}  {}",
                crate::text::escape_controls(text)
            ));
        }
        line(String::new());
        line(format!(
            "The map at the end (from {}; @ you, letters the monsters):",
            self.map_origin
        ));
        for row in &self.map {
            line(format!("  {row}"));
        }
        line(String::new());
        if self.monsters.is_empty() {
            line("No monsters were left on the floor.".into());
        } else {
            line("Monsters left on the floor:".into());
            for m in &self.monsters {
                line(format!(
                    "  {} {} #{} at {}, HP {}/{}",
                    m.kind,
                    self.name_of(m.kind),
                    m.id,
                    m.pos,
                    m.hp,
                    m.max
                ));
            }
        }
        line(String::new());
        line(format!("Watch the run again: {replay}"));
        out
    }
}

/// Writes the morgue file of `end` and its key tape (`tape` is the whole recording, made
/// for a file in `dir`) into `dir` under a fresh name: `morgue-LEVEL-YYYYMMDD-HHMMSS.txt`
/// and `.keys` beside it. Each name is taken exclusively before it is written, so two games
/// ending in the same second do not share a file. Returns both paths.
pub fn write(
    dir: &Path,
    end: &RunEnd,
    date: u64,
    tape: impl FnOnce(&Path) -> String,
) -> std::io::Result<(PathBuf, PathBuf)> {
    data::ensure(dir)?;
    let stem = data::file_stem(Path::new(&end.level), "run");
    let base = format!("morgue-{stem}-{}", data::stamp(date));
    for i in 0..1000 {
        let name = if i == 0 {
            base.clone()
        } else {
            format!("{base}-{i}")
        };
        let text = dir.join(format!("{name}.txt"));
        let keys = dir.join(format!("{name}.keys"));
        // Reserve both names; a name another game took is passed over.
        match std::fs::File::create_new(&text) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
        if let Err(e) = std::fs::File::create_new(&keys) {
            let _ = std::fs::remove_file(&text);
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                continue;
            }
            return Err(e);
        }
        let replay = format!("astar-rogue replay {}", keys.display());
        let written = super::create::write_atomic(&keys, tape(&keys).as_bytes()).and_then(|()| {
            super::create::write_atomic(&text, end.morgue_text(date, &replay).as_bytes())
        });
        if let Err(e) = written {
            // Both names are ours (made empty above, or written by us): nothing half-made
            // is left for the player to wonder at.
            let _ = std::fs::remove_file(&text);
            let _ = std::fs::remove_file(&keys);
            return Err(e);
        }
        return Ok((text, keys));
    }
    Err(std::io::Error::other("too many morgue files of that name"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::level::design::Design;
    use crate::game::Act;
    use crate::session::Session;

    fn ended() -> RunEnd {
        let design = Design::parse(b"title: Pit\n#####\n#@t.#\n#####\n", "pit.txt").unwrap();
        let source = super::super::Source::generated("pit.txt".into());
        let mut s = Session::new(design, source, 2);
        while s.world().state() == GameState::Playing {
            s.world_mut().player_act(Act::Wait);
        }
        RunEnd::of(&s, Outcome::of(s.world().state()).unwrap())
    }

    #[test]
    fn a_morgue_says_who_killed_and_shows_the_floor() {
        let end = ended();
        assert_eq!(end.outcome, Outcome::Dead);
        assert_eq!(end.killer, Some('t'));
        assert!(
            end.sentence()
                .starts_with("Killed by a troll on depth 1 of 1, turn ")
        );
        assert_eq!(end.map, ["#####", "#@t.#", "#####"]);
        let text = end.morgue_text(0, "astar-rogue replay x.keys");
        for want in [
            "Killed by a troll",
            "Seed:    2",
            "Floor:   Pit",
            "  #@t.#",
            "  t troll #1 at 2,1, HP 16/16",
            "Watch the run again: astar-rogue replay x.keys",
            "You die on turn",
        ] {
            assert!(text.contains(want), "{want:?} missing from\n{text}");
        }
        let score = end.score(7, None);
        assert_eq!(
            (score.outcome.as_str(), score.how()),
            ("dead", "killed by a troll".into())
        );
    }

    #[test]
    fn two_runs_ending_in_one_second_get_two_files() {
        let dir = tempfile::tempdir().unwrap();
        let end = ended();
        let (a, ak) = write(dir.path(), &end, 100, |_| "tape a\n".into()).unwrap();
        let (b, bk) = write(dir.path(), &end, 100, |_| "tape b\n".into()).unwrap();
        assert_ne!(a, b);
        assert!(a.ends_with("morgue-pit-19700101-000140.txt"), "{a:?}");
        assert_eq!(std::fs::read_to_string(&ak).unwrap(), "tape a\n");
        assert_eq!(std::fs::read_to_string(&bk).unwrap(), "tape b\n");
        assert!(
            std::fs::read_to_string(&b)
                .unwrap()
                .contains(&bk.display().to_string())
        );
    }

    #[test]
    fn a_morgue_file_is_named_after_its_level_as_its_save_is() {
        let dir = tempfile::tempdir().unwrap();
        let mut end = ended();
        end.level = "old-crypt v2\u{1b}.txt".into();
        let (text, _) = write(dir.path(), &end, 100, |_| String::new()).unwrap();
        let save = super::super::save::Slot::of(dir.path(), Some(Path::new(&end.level)));
        let save_stem = save
            .save
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(save_stem.starts_with("old-crypt_v2_-"), "{save_stem}");
        assert!(
            text.ends_with("morgue-old-crypt_v2_-19700101-000140.txt"),
            "{text:?}"
        );
    }
}
