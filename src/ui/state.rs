//! The window's state that several panels share: the view state kept
//! between runs, the messages at the top, and the history computed once per
//! change of the log. Each panel's own state lives with the panel.

use super::history::Timeline;
use super::map_view::{Camera, Overlays};
use super::session::Session;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// Recent saves kept in the File menu.
const RECENT: usize = 8;

/// Messages kept at the top of the window, errors included.
const NOTES: usize = 4;

/// What persists between runs through eframe's storage: never campaign data.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewState {
    pub last_save: Option<PathBuf>,
    pub recent: Vec<PathBuf>,
    pub overlays: Overlays,
    /// The camera, for the save it was on.
    pub camera: Option<(PathBuf, Camera)>,
    pub log_hidden_sides: BTreeSet<String>,
    pub log_hidden_kinds: BTreeSet<String>,
    pub show_plots: bool,
    pub show_battles: bool,
}

impl ViewState {
    /// Puts a save first in the recent files and remembers it as the last one.
    pub fn opened(&mut self, path: &std::path::Path) {
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_owned());
        self.recent.truncate(RECENT);
        self.last_save = Some(path.to_owned());
    }
}

/// A message at the top of the window.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    pub text: String,
    pub error: bool,
}

/// The messages at the top of the window.
#[derive(Debug, Clone, Default)]
pub struct Notes(Vec<Note>);

impl Notes {
    pub fn all(&self) -> &[Note] {
        &self.0
    }

    /// Says what happened: replaces the messages that were not errors.
    pub fn note(&mut self, text: impl Into<String>) {
        self.0.retain(|n| n.error);
        self.0.push(Note {
            text: text.into(),
            error: false,
        });
    }

    /// Says what went wrong, keeping the last few.
    pub fn error(&mut self, text: impl Into<String>) {
        self.0.push(Note {
            text: text.into(),
            error: true,
        });
        if self.0.len() > NOTES {
            self.0.remove(0);
        }
    }

    /// Says what happened, clearing every message before (errors too).
    pub fn done(&mut self, text: impl Into<String>) {
        self.0.retain(|n| !n.error);
        self.note(text);
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Dismisses the `i`th message.
    pub fn dismiss(&mut self, i: usize) {
        if i < self.0.len() {
            self.0.remove(i);
        }
    }

    /// The errors' texts.
    pub fn errors(&self) -> impl Iterator<Item = &str> {
        self.0.iter().filter(|n| n.error).map(|n| n.text.as_str())
    }
}

/// The history of the open save, computed once per change of its log.
#[derive(Debug, Default)]
pub struct Timelines(Option<(u64, Timeline)>);

impl Timelines {
    /// The history of `session` as it stands.
    pub fn of(&mut self, session: &Session) -> &Timeline {
        let revision = session.revision();
        let (_, timeline) = match self.0.take() {
            Some((r, t)) if r == revision => self.0.insert((r, t)),
            _ => self
                .0
                .insert((revision, Timeline::of(session.campaign(), session.events()))),
        };
        timeline
    }

    /// Forgets the history (another save opened).
    pub fn clear(&mut self) {
        self.0 = None;
    }
}
