//! The umpire's view of a campaign on a server (File > Open served campaign…
//! with the umpire's link): the whole campaign as the server's save holds it,
//! drawn by the same map, forces tree and inspector as an open save (through
//! a [`Scene`] with no viewer), with which sides have given orders, the
//! deadline, and the umpire's writes (resolve the game move, undo) sent to
//! the server, revision-checked, then read again. Calls run on a thread of
//! their own ([`ask`]); the window takes the answer after a frame.

use super::command::Command as WindowCommand;
use super::seat::Command as ViewCommand;
use super::theme;
use super::view::Scene;
use crate::model::{EventKind, History};
use crate::serve::client::ClientError;
use crate::serve::umpire_client::{self, UmpireLink, UmpireServed};
use egui::{RichText, ScrollArea, Ui};
use std::path::PathBuf;
use std::sync::mpsc;

/// What the umpire asks of the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Read the campaign again (View > Refresh from the server).
    Refresh,
    /// Resolve the game move; `with_pending`: even with battles pending.
    Resolve { with_pending: bool },
    /// Take back the last change.
    Undo,
    /// Ask before taking back the last change (there is no redo on the
    /// server): the bar shows the question.
    AskUndo,
    /// Keep the last change: the question goes.
    KeepUndo,
}

/// What a call brings back: what the action did (none for a refresh or
/// when opening), and the campaign read after it.
pub type Answer = Result<(Option<String>, UmpireServed), Failed>;

/// A call that failed: at the action, or (`done` saying what the action
/// did) at reading the campaign again after it.
#[derive(Debug)]
pub struct Failed {
    pub done: Option<String>,
    pub error: ClientError,
}

/// Runs `action` (if any) on the server, then reads the campaign again, on a
/// thread of its own; the answer comes on the receiver. `revision`: the one
/// the view was read at, sent with a write.
pub fn ask(link: UmpireLink, action: Option<Action>, revision: u64) -> mpsc::Receiver<Answer> {
    let (tell, answer) = mpsc::channel();
    std::thread::spawn(move || {
        let done = match action {
            None | Some(Action::Refresh) => Ok(None),
            Some(Action::Resolve { with_pending }) => {
                umpire_client::resolve(&link, revision, with_pending).map(Some)
            }
            Some(Action::Undo) => umpire_client::undo(&link, revision).map(Some),
            // Answered in the window, never sent.
            Some(Action::AskUndo | Action::KeepUndo) => Ok(None),
        };
        let result = done
            .map_err(|error| Failed { done: None, error })
            .and_then(|said| {
                umpire_client::fetch(&link)
                    .map(|state| (said.clone(), state))
                    .map_err(|error| Failed { done: said, error })
            });
        // The window may be gone by the answer: nothing to tell then.
        let _ = tell.send(result);
    });
    answer
}

/// The umpire's view of a served campaign.
#[derive(Debug)]
pub struct ServedUmpire {
    pub link: UmpireLink,
    pub state: UmpireServed,
    /// What the map is drawn for: the campaign's address on the server.
    pub source: PathBuf,
    /// A call for it is under way: its buttons wait.
    pub waiting: bool,
    /// The umpire asked to take back the last change: the bar asks first.
    pub asking_undo: bool,
    /// The log's rows: each event but the checkpoints, by its place in the
    /// log, and whether it was taken back.
    rows: Vec<(usize, bool)>,
}

impl ServedUmpire {
    pub fn new(link: UmpireLink, state: UmpireServed) -> ServedUmpire {
        let source = PathBuf::from(format!("{}/campaigns/{}", link.base, link.campaign));
        let history = History::of(&state.events);
        let rows = state
            .events
            .iter()
            .enumerate()
            .filter(|(_, e)| !matches!(e.kind, EventKind::Checkpoint(_)))
            .map(|(i, _)| (i, history.is_undone(i)))
            .collect();
        ServedUmpire {
            link,
            state,
            source,
            waiting: false,
            asking_undo: false,
            rows,
        }
    }

    /// What the frame draws: everything, as the umpire sees it.
    pub fn scene(&self) -> Scene<'_> {
        let campaign = &self.state.campaign;
        Scene {
            campaign,
            viewer: None,
            view: None,
            orders: &self.state.orders,
            revision: self.state.revision,
            source: &self.source,
            date: campaign.date(),
            read_only: true,
        }
    }

    /// "orders given: British Field Force; still to give: Army of the
    /// Rebellion; deadline 2026-12-01 20:00 UTC".
    pub fn status(&self) -> String {
        let names = |given: bool| {
            self.state
                .sides
                .iter()
                .filter(|s| s.orders_given == given)
                .map(|s| {
                    if s.programmed {
                        format!("{} (the program)", s.name)
                    } else {
                        s.name.clone()
                    }
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut parts = Vec::new();
        let given = names(true);
        let missing = names(false);
        if !given.is_empty() {
            parts.push(format!("orders given: {given}"));
        }
        if !missing.is_empty() {
            parts.push(format!("still to give: {missing}"));
        }
        parts.push(
            self.state
                .deadline()
                .map_or_else(|| "no deadline".to_owned(), |d| format!("deadline {d}")),
        );
        if self.state.settings.auto_resolve {
            parts.push("resolved when all are in".to_owned());
        }
        parts.join("; ")
    }
}

/// The top bar's part for the served umpire's view: what it is, which sides
/// have given orders, the deadline, and the umpire's buttons.
pub fn bar_ui(ui: &mut Ui, served: &ServedUmpire, commands: &mut Vec<WindowCommand>) {
    let calling = served.waiting;
    ui.label(
        RichText::new(format!("Umpire's view, served: {}", served.status()))
            .strong()
            .color(theme::ROUTE),
    )
    .on_hover_text(served.source.display().to_string());
    let mut act = |ui: &mut Ui, label: &str, hover: &str, action: Action| {
        if ui
            .add_enabled(!calling, egui::Button::new(label))
            .on_hover_text(hover)
            .on_disabled_hover_text("Waiting for the server's answer")
            .clicked()
        {
            commands.push(WindowCommand::View(ViewCommand::Served(action)));
        }
    };
    act(
        ui,
        "Resolve game move",
        "Resolve the game move on the server (the sides the program plays give theirs first); refused while battles are pending",
        Action::Resolve { with_pending: false },
    );
    if !served.state.pending_battles.is_empty() {
        act(
            ui,
            "Resolve, battles left pending",
            "Resolve the game move on the server; the pending battles stay pending, to be fought later",
            Action::Resolve { with_pending: true },
        );
    }
    if served.asking_undo {
        ui.label(
            RichText::new("Take back the last change on the server? It cannot be redone.")
                .color(theme::ROUTE),
        );
        act(
            ui,
            "Take it back",
            "Take back the last change on the server: orders, a battle's result, an edit, or the last game move",
            Action::Undo,
        );
        act(ui, "Keep it", "Leave the campaign as it is", Action::KeepUndo);
    } else {
        act(
            ui,
            "Undo",
            "Take back the last change on the server (asks first: there is no redo there)",
            Action::AskUndo,
        );
    }
    act(
        ui,
        "Refresh",
        "Read the campaign from the server again",
        Action::Refresh,
    );
    if calling {
        ui.spinner();
    }
}

/// The turn log as the server keeps it: every event, those taken back marked.
pub fn log_ui(ui: &mut Ui, served: &ServedUmpire) {
    ui.horizontal(|ui| {
        ui.label(RichText::new("Turn log").strong());
        ui.separator();
        ui.weak(format!(
            "the umpire's, from {} (revision {})",
            served.link.base, served.state.revision
        ));
    });
    ui.separator();
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 2.0;
    ScrollArea::vertical()
        .auto_shrink(false)
        .stick_to_bottom(true)
        .show_rows(ui, row_height, served.rows.len(), |ui, range| {
            for (i, undone) in served.rows.get(range).into_iter().flatten() {
                let Some(event) = served.state.events.get(*i) else {
                    continue;
                };
                let text = format!("Move {}: {}", event.turn, event.sentence);
                if *undone {
                    ui.weak(format!("{text} (undone)"));
                } else {
                    ui.label(text);
                }
            }
        });
}

/// The battles window's last line in the served umpire's view.
pub const BATTLES_ON_THE_SERVER: &str = "Fight a battle from its pack: the pack's files (pack.pdf, table.png, briefing.md, scenario.json, result.toml) and its result go through the server's API (docs/api.md: …/battles/N/pack/FILE, …/battles/N/result), or `umpire scenario` and `umpire result` on the save.";
