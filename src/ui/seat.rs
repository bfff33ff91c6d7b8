//! The hot seat and play by email in the window: "View as" the umpire or one
//! side, the page that passes the screen between them, and a side's report
//! opened from a file (read-only), with the orders given on it written to an
//! orders file for `umpire orders`.
//!
//! A side's view shows only what [`SideView`] holds. Orders go only to the
//! viewing side's own forces; undo and redo only take back its own orders
//! ([`screen`], a pure function); the umpire's tools (plots, battle hand-off)
//! stay in the umpire's view. The functions here take the views' state
//! ([`Seat`]) and what they read; what the rest of the window must do after a
//! change of view they return as a [`Shift`].

pub use super::command::ViewCommand as Command;
use super::command::{Command as WindowCommand, Selection};
use super::passphrase::{Gate, PassphraseForm};
use super::served::{self, ServedUmpire};
use super::session::{self, Refusal, Session};
use super::state::Notes;
use super::text::{mark_colour, side_colour, side_name, stand_line, where_is};
use super::theme;
use super::view::{Mark, Scene, SideView};
use crate::model::report;
use crate::model::{BattleStatus, Event, Force, SideId};
use crate::serve::client::{self, ClientError, Given, Link, Served};
use crate::serve::umpire_client::{AnyLink, UmpireLink, parse_link};
use crate::strategy::{self, Action, OrderRequest};
use egui::{RichText, ScrollArea, Ui};
use std::path::{Path, PathBuf};
use std::sync::mpsc;

/// Whose view the window shows.
#[derive(Debug, Default)]
pub enum Viewing {
    /// Everything, every side's orders.
    #[default]
    Umpire,
    /// A side's view of the open save, rebuilt when the save changes.
    Side {
        view: Box<SideView>,
        /// The session's revision it was built at.
        revision: u64,
    },
    /// A side's report opened from a file.
    Report(Box<ReportView>),
    /// The umpire's view of a campaign on a server, read from it.
    Served(Box<ServedUmpire>),
}

impl Viewing {
    pub fn is_umpire(&self) -> bool {
        matches!(self, Viewing::Umpire)
    }

    /// The side whose view it is; `None`: the umpire's.
    pub fn viewer(&self) -> Option<&SideId> {
        match self {
            Viewing::Umpire | Viewing::Served(_) => None,
            Viewing::Side { view, .. } => Some(&view.side),
            Viewing::Report(report) => Some(&report.view.side),
        }
    }

    /// The side's view shown, of the save or of a report.
    pub fn side_view(&self) -> Option<&SideView> {
        match self {
            Viewing::Umpire | Viewing::Served(_) => None,
            Viewing::Side { view, .. } => Some(view),
            Viewing::Report(report) => Some(&report.view),
        }
    }

    /// The umpire's view of a served campaign, if it is shown.
    pub fn served_umpire(&self) -> Option<&ServedUmpire> {
        match self {
            Viewing::Served(served) => Some(served),
            _ => None,
        }
    }

    /// The report file open, if one is shown.
    pub fn report_path(&self) -> Option<&Path> {
        match self {
            Viewing::Report(report) => Some(&report.path),
            _ => None,
        }
    }

    /// What the frame draws: the open save as the viewer knows it, or the open report.
    pub fn scene<'a>(&'a self, session: Option<&'a Session>) -> Option<Scene<'a>> {
        match self {
            Viewing::Umpire => session.map(Scene::umpire),
            Viewing::Side { view, .. } => session.map(|s| Scene::side(view, s.revision(), s.path())),
            Viewing::Report(report) => Some(Scene::side(&report.view, report.revision, &report.path)),
            Viewing::Served(served) => Some(served.scene()),
        }
    }
}

/// The File menu's report forms: the paths typed.
#[derive(Debug, Default)]
pub struct SeatForms {
    /// File > Open report…
    pub report: Option<String>,
    /// File > Write orders…
    pub orders: Option<String>,
    /// File > Open served campaign…: the side's link.
    pub served: Option<String>,
    /// View > Hot seat passphrases… (the umpire's view only).
    pub passphrases: Option<PassphraseForm>,
}

/// The views' part of the window's state.
#[derive(Debug, Default)]
pub struct Seat {
    pub viewing: Viewing,
    /// The pass-the-screen page is up, handing the screen to a side (`Some`)
    /// or to the umpire (`None`).
    pub passing: Option<Option<SideId>>,
    /// The page's passphrase field, when the view it goes to has one.
    pub gate: Gate,
    pub forms: SeatForms,
    /// A call to a server under way (File > Open served campaign…).
    call: Option<Call>,
}

/// What a change of view asks of the rest of the window.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[must_use]
pub struct Shift {
    /// Forget what was drawn for the last view: selection, forms, caches
    /// (the messages are cleared here already).
    pub forget: bool,
    /// The map's background picture: `Some(true)` hidden (a report holds
    /// none), `Some(false)` shown again; either way the map zooms to fit.
    pub hide_background: Option<bool>,
}

impl Shift {
    const NONE: Shift = Shift {
        forget: false,
        hide_background: None,
    };
    const FORGET: Shift = Shift {
        forget: true,
        hide_background: None,
    };
}

/// A side's report opened from a file, and the orders given on it.
#[derive(Debug)]
pub struct ReportView {
    pub path: PathBuf,
    pub view: SideView,
    /// The orders given, in order: checked whole against the report each time one is added.
    requests: Vec<OrderRequest>,
    undo: Vec<Vec<OrderRequest>>,
    redo: Vec<Vec<OrderRequest>>,
    revision: u64,
    /// Where the report came from when a server gave it.
    pub served: Option<ServedFrom>,
}

/// A report a server gave (File > Open served campaign…): its link, and the
/// save's revision the report was computed from.
#[derive(Debug, Clone)]
pub struct ServedFrom {
    pub link: Link,
    pub revision: u64,
    pub given: bool,
    pub deadline: Option<String>,
}

/// A call to the server under way, on a thread of its own.
#[derive(Debug)]
enum Call {
    Open(Link, mpsc::Receiver<Result<Served, ClientError>>),
    Give {
        count: usize,
        answer: mpsc::Receiver<Result<Given, ClientError>>,
    },
    /// The umpire's view of a served campaign: opened (`opening`), or an
    /// action and the campaign read again after it.
    Umpire {
        link: UmpireLink,
        opening: bool,
        answer: mpsc::Receiver<served::Answer>,
    },
}

impl ReportView {
    pub fn new(path: PathBuf, view: SideView) -> ReportView {
        ReportView {
            path,
            view,
            requests: Vec::new(),
            undo: Vec::new(),
            redo: Vec::new(),
            revision: 0,
            served: None,
        }
    }

    /// Gives one order to one of the side's forces, checked with the orders
    /// given before against the report alone. A later march or hold for a
    /// force replaces its earlier one, as `umpire orders` does.
    pub fn give(&mut self, side: &SideId, request: &OrderRequest) -> Result<String, Refusal> {
        if side != &self.view.side {
            return Err(Refusal::Order(vec![format!(
                "this is {}'s report: orders go only to its own forces",
                self.view.side_name
            )]));
        }
        let moves = |r: &OrderRequest| matches!(r.action, Action::March(_) | Action::To(_) | Action::Hold);
        let mut requests = self.requests.clone();
        let earlier = requests
            .iter()
            .position(|r| moves(request) && moves(r) && r.force == request.force);
        let at = match earlier {
            Some(i) => {
                if let Some(slot) = requests.get_mut(i) {
                    *slot = request.clone();
                }
                i
            }
            None => {
                requests.push(request.clone());
                requests.len().saturating_sub(1)
            }
        };
        let set = self.checked(&requests)?;
        let said = set
            .orders
            .get(at)
            .map(|order| {
                let one = strategy::OrderSet {
                    side: set.side.clone(),
                    turn: set.turn,
                    orders: vec![order.clone()],
                };
                session::describe(&self.view.campaign, &one)
            })
            .unwrap_or_default();
        let force = self
            .view
            .campaign
            .force(&request.force)
            .map_or(request.force.as_str(), |f| f.name.as_str())
            .to_owned();
        self.undo.push(std::mem::replace(&mut self.requests, requests));
        self.redo.clear();
        self.take(set);
        Ok(format!("{force}: {said}"))
    }

    fn checked(&self, requests: &[OrderRequest]) -> Result<strategy::OrderSet, Refusal> {
        strategy::check_requests(&self.view.campaign, &self.view.side, requests)
            .map_err(|problems| Refusal::Order(problems.into_iter().map(|p| p.message).collect()))
    }

    fn take(&mut self, set: strategy::OrderSet) {
        self.view.orders = if set.orders.is_empty() {
            Vec::new()
        } else {
            vec![set]
        };
        self.revision += 1;
    }

    /// Takes back the last order given.
    pub fn undo(&mut self) -> Result<String, Refusal> {
        let Some(before) = self.undo.pop() else {
            return Err(Refusal::Nothing(
                "no orders given on this report to take back".to_owned(),
            ));
        };
        let set = self.checked(&before)?;
        self.redo.push(std::mem::replace(&mut self.requests, before));
        self.take(set);
        Ok("Took back the last order.".to_owned())
    }

    /// Gives again the order the last undo took back.
    pub fn redo(&mut self) -> Result<String, Refusal> {
        let Some(after) = self.redo.pop() else {
            return Err(Refusal::Nothing(
                "nothing to redo: no orders were taken back".to_owned(),
            ));
        };
        let set = self.checked(&after)?;
        self.undo.push(std::mem::replace(&mut self.requests, after));
        self.take(set);
        Ok("Gave the order again.".to_owned())
    }

    /// The orders given, counted.
    pub fn orders_given(&self) -> usize {
        self.view.orders.iter().map(|s| s.orders.len()).sum()
    }

    /// The orders file for the orders given: for this report's campaign, side and game move.
    pub fn orders_file(&self) -> String {
        let orders = self.view.orders.first().cloned().unwrap_or(strategy::OrderSet {
            side: self.view.side.clone(),
            turn: self.view.campaign.turn,
            orders: Vec::new(),
        });
        strategy::write_orders_file(&self.view.campaign.title, &orders)
    }

    /// Where the orders file goes unless the player says otherwise: beside
    /// the report, `<report>_orders.toml`.
    pub fn default_orders_path(&self) -> PathBuf {
        let stem = self
            .path
            .file_stem()
            .map_or_else(|| "report".to_owned(), |s| s.to_string_lossy().into_owned());
        self.path.with_file_name(format!("{stem}_orders.toml"))
    }
}

/// Who the screen goes to, in words: "British Field Force" or "the umpire".
fn whom(session: Option<&Session>, to: Option<&SideId>) -> String {
    to.map_or_else(
        || "the umpire".to_owned(),
        |side| {
            session
                .and_then(|s| s.campaign().side(side))
                .map_or_else(|| side.to_string(), |s| s.name.clone())
        },
    )
}

impl Seat {
    /// Starts in the view `Launch` asks for: a report, or a side's view (with
    /// no pass-the-screen page: whoever started it is at the screen).
    pub fn launch(
        &mut self,
        session: Option<&Session>,
        notes: &mut Notes,
        view: Option<&str>,
        report: Option<&Path>,
    ) -> Shift {
        if let Some(path) = report {
            self.open_report(notes, path)
        } else if let Some(side) = view {
            self.show(session, notes, Some(SideId::new(side)))
        } else {
            Shift::NONE
        }
    }

    /// Keeps a side's view of the save up to date with it.
    pub fn refresh(&mut self, session: Option<&Session>, notes: &mut Notes) -> Shift {
        let Viewing::Side { view, revision } = &self.viewing else {
            return Shift::NONE;
        };
        let Some(session) = session else {
            self.viewing = Viewing::Umpire;
            return Shift::NONE;
        };
        if *revision == session.revision() {
            return Shift::NONE;
        }
        let side = view.side.clone();
        match side_view_of(session, &side) {
            Some(view) => {
                self.viewing = Viewing::Side {
                    view: Box::new(view),
                    revision: session.revision(),
                };
                Shift::NONE
            }
            None => {
                self.viewing = Viewing::Umpire;
                notes.clear();
                Shift::FORGET
            }
        }
    }

    /// A served campaign still being opened is not shown once another view
    /// is chosen: its late answer would put aside what the player is on.
    fn forget_opening(&mut self) {
        if matches!(
            self.call,
            Some(Call::Open(..) | Call::Umpire { opening: true, .. })
        ) {
            self.call = None;
        }
    }

    /// Shows a view at once, without passing the screen.
    fn show(&mut self, session: Option<&Session>, notes: &mut Notes, to: Option<SideId>) -> Shift {
        self.forget_opening();
        self.passing = None;
        let viewing = match (&to, session) {
            (None, _) => Viewing::Umpire,
            (Some(side), Some(session)) => match side_view_of(session, side) {
                Some(view) => Viewing::Side {
                    view: Box::new(view),
                    revision: session.revision(),
                },
                None => {
                    notes.error(format!(
                        "This campaign has no side `{side}`; the window shows the umpire's view."
                    ));
                    return Shift::NONE;
                }
            },
            (Some(_), None) => {
                notes.error("No campaign is open: open a save first, or open a side's report (File menu).");
                return Shift::NONE;
            }
        };
        let was_report = matches!(self.viewing, Viewing::Report(_));
        self.viewing = viewing;
        notes.clear();
        Shift {
            forget: true,
            // The save's map again, with its picture.
            hide_background: was_report.then_some(false),
        }
    }

    fn open_report(&mut self, notes: &mut Notes, path: &Path) -> Shift {
        self.forget_opening();
        let report = match crate::files::load_report(path) {
            Ok(report) => report,
            Err(e) => {
                notes.error(format!("The report could not be opened: {e}"));
                return Shift::NONE;
            }
        };
        let Some(view) = SideView::from_report(&report) else {
            notes.error(format!(
                "The report {} has no date the calendar can show; write it again with `umpire report`.",
                path.display()
            ));
            return Shift::NONE;
        };
        self.passing = None;
        self.forms.report = None;
        self.viewing = Viewing::Report(Box::new(ReportView::new(path.to_owned(), view)));
        notes.clear();
        notes.note(format!(
            "Opened {}'s report for game move {} ({}): give orders on the map or in the inspector, and write them with Write orders… in the File menu.",
            report.side_name,
            report.turn,
            path.display()
        ));
        // The report's map is drawn without the save's picture: the report holds none.
        Shift {
            forget: true,
            hide_background: Some(true),
        }
    }

    /// Carries out a view command.
    pub fn apply(&mut self, mut session: Option<&mut Session>, notes: &mut Notes, command: Command) -> Shift {
        if let Command::SetPassphrase { seat, passphrase } = &command {
            self.set_passphrase(
                session.as_deref_mut(),
                notes,
                seat.as_ref(),
                passphrase.as_deref(),
            );
            return Shift::NONE;
        }
        let session = session.as_deref();
        match command {
            Command::ViewAs(to) => {
                let same = match &self.viewing {
                    Viewing::Report(_) | Viewing::Served(_) => false,
                    viewing => viewing.viewer() == to.as_ref(),
                };
                if same {
                    self.passing = None;
                } else if to.is_some() && session.is_none() {
                    notes.error(
                        "No campaign is open: open a save first, or open a side's report (File menu).",
                    );
                } else {
                    self.pass_to(session, to);
                }
                Shift::NONE
            }
            Command::Continue => self.unlock(session, notes),
            Command::Back => {
                match &self.viewing {
                    Viewing::Report(_) | Viewing::Served(_) => self.passing = None,
                    viewing => {
                        let current = viewing.viewer().cloned();
                        if session.is_some_and(|s| s.has_passphrase(current.as_ref())) {
                            self.pass_to(session, current);
                        } else {
                            self.passing = None;
                        }
                    }
                }
                Shift::NONE
            }
            Command::Passphrases => {
                if self.viewing.is_umpire() && session.is_some() {
                    self.forms.passphrases = Some(PassphraseForm::default());
                } else {
                    notes.error("Passphrases are set in the umpire's view, with a campaign open.");
                }
                Shift::NONE
            }
            // Carried out in `apply`, which holds the session to write to.
            Command::SetPassphrase { .. } => Shift::NONE,
            Command::OpenReport(path) => self.open_report(notes, &path),
            Command::CloseReport => {
                if matches!(self.viewing, Viewing::Report(_) | Viewing::Served(_)) {
                    self.pass_to(session, None);
                }
                Shift::NONE
            }
            Command::WriteOrders(path) => {
                self.write_orders(notes, &path);
                Shift::NONE
            }
            Command::OpenServed(text) => {
                self.open_served(notes, &text);
                Shift::NONE
            }
            Command::GiveServedOrders => {
                self.give_served(notes);
                Shift::NONE
            }
            Command::Served(action) => {
                self.umpire_action(notes, action);
                Shift::NONE
            }
        }
    }

    /// Puts up the pass-the-screen page for `to`, with a passphrase field
    /// when its view has a passphrase.
    fn pass_to(&mut self, session: Option<&Session>, to: Option<SideId>) {
        self.gate = Gate {
            locked: session.is_some_and(|s| s.has_passphrase(to.as_ref())),
            ..Gate::default()
        };
        self.passing = Some(to);
    }

    /// The page's Continue: shows the view passed to, if it has no
    /// passphrase or the one typed is right; else the page stays up, saying why.
    fn unlock(&mut self, session: Option<&Session>, notes: &mut Notes) -> Shift {
        let Some(to) = self.passing.clone() else {
            return Shift::NONE;
        };
        if let Some(session) = session
            && session.has_passphrase(to.as_ref())
        {
            let typed = std::mem::take(&mut self.gate.typed);
            let name = whom(Some(session), to.as_ref());
            self.gate.locked = true;
            let refused = match session.check_passphrase(to.as_ref(), &typed) {
                Ok(true) => None,
                Ok(false) if typed.is_empty() => Some(format!(
                    "{name}'s view has a passphrase: type it in the field, then press Continue."
                )),
                Ok(false) => Some(format!(
                    "That is not {name}'s passphrase: the view was not changed. Try again, or press Back."
                )),
                Err(e) => Some(format!("The passphrase could not be checked: {e}")),
            };
            if refused.is_some() {
                self.gate.refused = refused;
                self.gate.focused = false;
                return Shift::NONE;
            }
        }
        self.gate = Gate::default();
        self.passing = None;
        self.show(session, notes, to)
    }

    /// Sets or clears a view's passphrase, in the umpire's view only.
    fn set_passphrase(
        &mut self,
        session: Option<&mut Session>,
        notes: &mut Notes,
        seat: Option<&SideId>,
        passphrase: Option<&str>,
    ) {
        let Some(session) = session.filter(|_| self.viewing.is_umpire()) else {
            notes.error(
                "Passphrases are set in the umpire's view, with a campaign open: nothing was changed.",
            );
            return;
        };
        let name = whom(Some(session), seat);
        match session.set_passphrase(seat, passphrase) {
            Ok(()) if passphrase.is_some() => notes.done(format!(
                "Set the passphrase of {name}'s view: the window asks for it before it shows that view."
            )),
            Ok(()) => notes.done(format!(
                "Cleared the passphrase of {name}'s view: it opens without one."
            )),
            Err(e) => notes.error(format!("The passphrase of {name}'s view was not changed: {e}")),
        }
    }

    /// Whether a call to a server is under way (the window keeps drawing frames to see its answer).
    pub fn calling(&self) -> bool {
        self.call.is_some()
    }

    /// Asks the server in `text` (a side's link) for the side's view.
    fn open_served(&mut self, notes: &mut Notes, text: &str) {
        let link = match parse_link(text) {
            Ok(AnyLink::Side(link)) => link,
            Ok(AnyLink::Umpire(link)) => {
                self.open_served_umpire(notes, link);
                return;
            }
            Err(e) => {
                notes.error(format!("The served campaign was not opened: {e}."));
                return;
            }
        };
        if self.call.is_some() {
            notes.error("The window is still waiting for the server's last answer: try again when it comes.");
            return;
        }
        let (tell, answer) = mpsc::channel();
        let asked = link.clone();
        std::thread::spawn(move || {
            // The window may be gone by the answer: nothing to tell then.
            let _ = tell.send(client::fetch(&asked));
        });
        notes.note(format!(
            "Asking {} for {}'s view of `{}`…",
            link.base, link.side, link.campaign
        ));
        self.forms.served = None;
        self.call = Some(Call::Open(link, answer));
    }

    /// Asks the server for the umpire's view of the campaign in `link`.
    fn open_served_umpire(&mut self, notes: &mut Notes, link: UmpireLink) {
        if self.call.is_some() {
            notes.error("The window is still waiting for the server's last answer: try again when it comes.");
            return;
        }
        notes.note(format!(
            "Asking {} for the umpire's view of `{}`…",
            link.base, link.campaign
        ));
        self.forms.served = None;
        let answer = served::ask(link.clone(), None, 0);
        self.call = Some(Call::Umpire {
            link,
            opening: true,
            answer,
        });
    }

    /// Sends the umpire's `action` to the server the served view came from,
    /// with the revision the view was read at; the view is read again after it.
    fn umpire_action(&mut self, notes: &mut Notes, action: served::Action) {
        let Viewing::Served(view) = &mut self.viewing else {
            notes
                .error("Open a served campaign with the umpire's link first (File > Open served campaign…).");
            return;
        };
        match action {
            served::Action::AskUndo => {
                view.asking_undo = true;
                notes.note(
                    "Take back the last change on the server? It cannot be redone: Take it back, or Keep it.",
                );
                return;
            }
            served::Action::KeepUndo => {
                view.asking_undo = false;
                notes.clear();
                return;
            }
            _ => view.asking_undo = false,
        }
        if self.call.is_some() {
            notes.error("The window is still waiting for the server's last answer: try again when it comes.");
            return;
        }
        let link = view.link.clone();
        view.waiting = true;
        notes.note(match action {
            served::Action::Refresh => format!("Reading `{}` from {} again…", link.campaign, link.base),
            served::Action::Resolve { .. } => format!(
                "Asking {} to resolve game move {}…",
                link.base, view.state.campaign.turn
            ),
            served::Action::Undo => format!("Asking {} to take back the last change…", link.base),
            served::Action::AskUndo | served::Action::KeepUndo => String::new(),
        });
        let answer = served::ask(link.clone(), Some(action), view.state.revision);
        self.call = Some(Call::Umpire {
            link,
            opening: false,
            answer,
        });
    }

    /// Takes the server's answer to the umpire's call.
    fn umpire_answered(
        &mut self,
        notes: &mut Notes,
        link: UmpireLink,
        opening: bool,
        answer: Option<served::Answer>,
    ) -> Shift {
        if let Viewing::Served(view) = &mut self.viewing {
            view.waiting = false;
        }
        match answer {
            None => {
                notes.error("The call to the server ended without an answer: try again.");
                Shift::NONE
            }
            Some(Err(served::Failed {
                done: Some(done),
                error,
            })) => {
                notes.error(format!(
                    "{done} Reading the campaign again after it failed: {error}. Refresh (View > Refresh from the server)."
                ));
                Shift::NONE
            }
            Some(Err(served::Failed { error: e, .. })) if opening => {
                notes.error(format!("The served campaign was not opened: {e}."));
                Shift::NONE
            }
            Some(Err(served::Failed { error: e, .. })) if e.moved_on() => {
                notes.error(format!(
                    "Nothing was done: {e}. Refresh (View > Refresh from the server) and decide again."
                ));
                Shift::NONE
            }
            Some(Err(served::Failed { error: e, .. })) => {
                notes.error(format!("Nothing was done: {e}."));
                Shift::NONE
            }
            // Another view was chosen meanwhile: it stays; what was done is said.
            Some(Ok((said, _))) if !opening && !matches!(self.viewing, Viewing::Served(_)) => {
                if let Some(said) = said {
                    notes.note(said);
                }
                Shift::NONE
            }
            Some(Ok((said, state))) => {
                let turn = state.campaign.turn;
                let title = state.campaign.title.clone();
                let view = ServedUmpire::new(link, state);
                let status = view.status();
                notes.clear();
                let read = format!(
                    "{} `{}` ({title}) at game move {turn} from {}: {status}.",
                    if opening {
                        "Opened the umpire's view of"
                    } else {
                        "Read"
                    },
                    view.link.campaign,
                    view.link.base
                );
                notes.note(match said {
                    Some(said) => format!("{said} {read}"),
                    None => read,
                });
                if opening {
                    self.passing = None;
                    self.forms.report = None;
                }
                self.viewing = Viewing::Served(Box::new(view));
                if opening {
                    Shift {
                        forget: true,
                        hide_background: Some(true),
                    }
                } else {
                    Shift::NONE
                }
            }
        }
    }

    /// Gives the orders on the served report to its server, with one
    /// idempotency key for the call and its retries.
    fn give_served(&mut self, notes: &mut Notes) {
        let Viewing::Report(report) = &self.viewing else {
            notes.error("Open a served campaign first (File > Open served campaign…).");
            return;
        };
        let Some(served) = &report.served else {
            notes.error("This report was opened from a file: write its orders to a file (File > Write orders…) for the umpire.");
            return;
        };
        if self.call.is_some() {
            notes.error("The window is still waiting for the server's last answer: try again when it comes.");
            return;
        }
        let text = report.orders_file();
        let count = report.orders_given();
        let replacing = served.given;
        let link = served.link.clone();
        let revision = served.revision;
        let key = idempotency_key();
        let (tell, answer) = mpsc::channel();
        std::thread::spawn(move || {
            // A lost answer is asked again with the same key: the server
            // applies the orders once.
            let mut result = client::give_orders(&link, revision, &text, &key);
            for _ in 0..2 {
                if !matches!(result, Err(ClientError::Unreachable { .. })) {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(500));
                result = client::give_orders(&link, revision, &text, &key);
            }
            let _ = tell.send(result);
        });
        notes.note(format!(
            "Giving {count} order{} to the server{}…",
            if count == 1 { "" } else { "s" },
            if replacing {
                " (they replace the orders this side gave before for this game move, here or on its orders page)"
            } else {
                ""
            }
        ));
        self.call = Some(Call::Give { count, answer });
    }

    /// Takes the server's answer when it has come.
    pub fn poll_served(&mut self, notes: &mut Notes) -> Shift {
        if let Some(Call::Umpire {
            link,
            opening,
            answer,
        }) = &self.call
        {
            let answer = match answer.try_recv() {
                Err(mpsc::TryRecvError::Empty) => return Shift::NONE,
                Err(mpsc::TryRecvError::Disconnected) => None,
                Ok(answer) => Some(answer),
            };
            let (link, opening) = (link.clone(), *opening);
            self.call = None;
            return self.umpire_answered(notes, link, opening, answer);
        }
        let answer = match &self.call {
            None | Some(Call::Umpire { .. }) => return Shift::NONE,
            Some(Call::Open(link, answer)) => match answer.try_recv() {
                Err(mpsc::TryRecvError::Empty) => return Shift::NONE,
                Err(mpsc::TryRecvError::Disconnected) => Err(None),
                Ok(Err(e)) => Err(Some(format!("The served campaign was not opened: {e}."))),
                Ok(Ok(served)) => Ok((link.clone(), served)),
            },
            Some(Call::Give { count, answer }) => {
                let count = *count;
                let result = match answer.try_recv() {
                    Err(mpsc::TryRecvError::Empty) => return Shift::NONE,
                    Err(mpsc::TryRecvError::Disconnected) => Err(()),
                    Ok(result) => Ok(result),
                };
                self.call = None;
                match result {
                    Err(()) => notes.error("The call to the server ended without an answer: give the orders again."),
                    Ok(Ok(given)) => self.gave(notes, count, &given),
                    Ok(Err(e)) if e.is_stale() => notes.error(format!(
                        "The orders were not given: {e}. The campaign changed on the server since this view was read; open it again (File > Open served campaign…) and give the orders on the new view."
                    )),
                    Ok(Err(e)) => notes.error(format!("The orders were not given: {e}.")),
                }
                return Shift::NONE;
            }
        };
        self.call = None;
        match answer {
            Err(None) => {
                notes.error("The call to the server ended without an answer: open the campaign again.");
                Shift::NONE
            }
            Err(Some(e)) => {
                notes.error(e);
                Shift::NONE
            }
            Ok((link, served)) => self.show_served(notes, link, served),
        }
    }

    fn gave(&mut self, notes: &mut Notes, count: usize, given: &Given) {
        if let Viewing::Report(report) = &mut self.viewing
            && let Some(served) = &mut report.served
        {
            served.revision = given.revision;
            served.given = true;
        }
        notes.note(format!(
            "Gave {count} order{} to the server: {} You may change them until the game move is resolved.",
            if count == 1 { "" } else { "s" },
            given.message
        ));
    }

    fn show_served(&mut self, notes: &mut Notes, link: Link, served: Served) -> Shift {
        let Some(view) = SideView::from_report(&served.report) else {
            notes.error("The server's report has no date the calendar can show: ask the umpire.");
            return Shift::NONE;
        };
        let shown = PathBuf::from(format!(
            "{}/campaigns/{}/sides/{}",
            link.base, link.campaign, link.side
        ));
        let mut report = ReportView::new(shown, view);
        // The orders already given (on its page, or from a window) to start from.
        let mut given = if served.given {
            "its orders for this game move are given (give them again to change them)".to_owned()
        } else {
            "it has given no orders yet for this game move".to_owned()
        };
        if let Some(set) = served.orders.as_ref().filter(|s| !s.orders.is_empty()) {
            let requests: Vec<OrderRequest> = set.orders.iter().map(session::request_of).collect();
            match report.checked(&requests) {
                Ok(checked) => {
                    report.requests = requests;
                    report.take(checked);
                    given = format!(
                        "the {} order{} it gave for this game move are on the map, to change and give again",
                        set.orders.len(),
                        if set.orders.len() == 1 { "" } else { "s" }
                    );
                }
                Err(why) => {
                    given = format!(
                        "its orders for this game move are given, but could not be put on the map ({why}): give them again to change them"
                    );
                }
            }
        }
        let deadline = served
            .deadline
            .as_deref()
            .map_or_else(String::new, |d| format!(" Deadline: {d}."));
        notes.clear();
        notes.note(format!(
            "Opened {}'s view of `{}` for game move {} from {}: {given}. Give orders on the map or in the inspector, then File > Give orders to the server.{deadline}",
            served.report.side_name, link.campaign, served.report.turn, link.base
        ));
        report.served = Some(ServedFrom {
            link,
            revision: served.revision,
            given: served.given,
            deadline: served.deadline,
        });
        self.passing = None;
        self.forms.report = None;
        self.viewing = Viewing::Report(Box::new(report));
        Shift {
            forget: true,
            hide_background: Some(true),
        }
    }

    fn write_orders(&mut self, notes: &mut Notes, path: &Path) {
        let Viewing::Report(report) = &self.viewing else {
            notes.error("Open a side's report first (File > Open report…): orders are written from it.");
            return;
        };
        let text = report.orders_file();
        let count = report.orders_given();
        let side = report.view.side.clone();
        let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
            notes.error(format!(
                "{} is not a file name: name the orders file to write.",
                path.display()
            ));
            return;
        };
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        let name = name.to_string_lossy().into_owned();
        match crate::files::write_files(dir, &[(name.as_str(), text.as_bytes())]) {
            Ok(_) => {
                self.forms.orders = None;
                notes.note(format!(
                    "Wrote {count} order{} to {}: send it to the umpire, who gives it with `umpire orders SAVE {side} {name}`.",
                    if count == 1 { "" } else { "s" },
                    path.display()
                ));
            }
            Err(e) => notes.error(format!("The orders were not written: {e}")),
        }
    }

    /// Routes a session command through the view: in the umpire's view it
    /// goes on; in a side's view [`screen`] says whether it may; on a report,
    /// orders, undo and redo work on the report's orders. `Some`: the command
    /// goes on to the save.
    pub fn route(
        &mut self,
        session: Option<&Session>,
        notes: &mut Notes,
        command: session::Command,
    ) -> Option<session::Command> {
        match &mut self.viewing {
            Viewing::Umpire => Some(command),
            Viewing::Side { view, .. } => {
                let last = session.and_then(|s| s.pending().last()).map(|s| &s.side);
                let redo = session.and_then(Session::redo_side);
                let side = Viewer {
                    side: &view.side,
                    name: &view.side_name,
                };
                match screen(side, last, redo, command) {
                    Ok(command) => Some(command),
                    Err(refusal) => {
                        notes.error(refusal);
                        None
                    }
                }
            }
            Viewing::Served(_) => {
                match command {
                    session::Command::EndTurn => self.umpire_action(
                        notes,
                        served::Action::Resolve {
                            with_pending: false,
                        },
                    ),
                    session::Command::Undo => self.umpire_action(notes, served::Action::AskUndo),
                    session::Command::Order { .. } => notes.error(
                        "On a served campaign each side gives its own orders, from its link (its orders page or its window): the umpire's view resolves, undoes and reads.",
                    ),
                    _ => notes.error(
                        "That is done on the server's save: through the server's API (docs/api.md) or with the commands on the save; this view resolves the game move, undoes and reads.",
                    ),
                }
                None
            }
            Viewing::Report(report) => {
                let done = match &command {
                    session::Command::Order { side, request } => report.give(side, request),
                    session::Command::Undo => report.undo(),
                    session::Command::Redo => report.redo(),
                    _ => Err(Refusal::Nothing(
                        "A report is read-only: give your orders on it, write them (File > Write orders…) and send them to the umpire, who resolves the game move.".to_owned(),
                    )),
                };
                match done {
                    Ok(text) => notes.done(text),
                    Err(refusal) => notes.error(refusal.to_string()),
                }
                None
            }
        }
    }

    /// A game move's events as the viewing side heard of them (all of them in the umpire's view).
    pub fn heard_summary(&self, session: Option<&Session>, events: Vec<Event>) -> Vec<Event> {
        let (Some(side), Some(session)) = (self.viewing.viewer(), session) else {
            return events;
        };
        let all: Vec<&Event> = events.iter().collect();
        let heard = report::heard_by(session.campaign(), side, session.events(), &all);
        events
            .iter()
            .filter_map(|e| {
                let h = heard.iter().find(|h| h.turn == e.turn && h.seq == e.seq)?;
                Some(Event {
                    sentence: h.sentence.clone(),
                    ..e.clone()
                })
            })
            .collect()
    }
}

fn side_view_of(session: &Session, side: &SideId) -> Option<SideView> {
    let mut view = SideView::of(session.campaign(), side, session.events())?;
    view.orders = session
        .pending()
        .iter()
        .filter(|set| &set.side == side)
        .cloned()
        .collect();
    Some(view)
}

/// The side whose view the window shows: its id and name.
#[derive(Debug, Clone, Copy)]
pub struct Viewer<'a> {
    pub side: &'a SideId,
    pub name: &'a str,
}

/// Which session commands a side's view may send: orders only to its own
/// forces, undo only of its own orders (the last orders given are its own),
/// redo only of its own orders, and ending the turn; the umpire's tools are
/// refused. `last`: the side whose orders were given last; `redo`: the side
/// whose orders a redo would give again. `Err`: why it is refused.
pub fn screen(
    viewer: Viewer<'_>,
    last: Option<&SideId>,
    redo: Option<&SideId>,
    command: session::Command,
) -> Result<session::Command, String> {
    let Viewer { side, name } = viewer;
    match command {
        session::Command::Order { side: whose, .. } if &whose != side => {
            Err(format!("In {name}'s view orders go only to {name}'s own forces."))
        }
        session::Command::Undo if last != Some(side) => Err(format!(
            "Undo would take back what {name} did not do (another side's orders, or the game move): switch to the umpire's view to undo it."
        )),
        session::Command::Redo if redo.is_some_and(|s| s != side) => {
            Err("The orders to give again are another side's: switch to its view or the umpire's.".to_owned())
        }
        command @ (session::Command::Order { .. }
        | session::Command::Undo
        | session::Command::Redo
        | session::Command::EndTurn) => Ok(command),
        _ => Err(
            "That is the umpire's work: switch to the umpire's view (View > As the umpire (everything))."
                .to_owned(),
        ),
    }
}

// ---------------------------------------------------------------------------
// Drawing

/// The pass-the-screen page over the whole window, when it is up: nothing of
/// the campaign is drawn under it. True when it was drawn.
pub fn pass_ui(
    ui: &mut Ui,
    passing: Option<&Option<SideId>>,
    gate: &mut Gate,
    session: Option<&Session>,
    commands: &mut Vec<WindowCommand>,
) -> bool {
    let Some(to) = passing else {
        return false;
    };
    let name = whom(session, to.as_ref());
    let players = match to {
        Some(_) => format!("only {name}'s players"),
        None => "only the umpire".to_owned(),
    };
    egui::CentralPanel::default().show(ui, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space((ui.available_height() / 3.0).max(20.0));
            ui.heading(RichText::new(format!("Hand the screen to {name}.")).size(28.0));
            ui.add_space(12.0);
            ui.label(format!("Press Continue when {players} can see it."));
            ui.add_space(18.0);
            let entered = super::passphrase::gate_ui(ui, gate, &name);
            if ui
                .add(
                    egui::Button::new(RichText::new("Continue").size(18.0)).min_size(egui::vec2(140.0, 36.0)),
                )
                .clicked()
                || entered
            {
                commands.push(WindowCommand::View(Command::Continue));
            }
            if gate.locked {
                ui.add_space(6.0);
                if ui.button("Back").clicked() {
                    commands.push(WindowCommand::View(Command::Back));
                }
            }
        });
    });
    true
}

/// The view choices: the umpire and each side of the open save.
fn choices(session: Option<&Session>) -> Vec<(Option<SideId>, String)> {
    let mut list = vec![(None, "the umpire (everything)".to_owned())];
    if let Some(session) = session {
        list.extend(
            session
                .campaign()
                .sides
                .iter()
                .map(|s| (Some(s.id.clone()), s.name.clone())),
        );
    }
    list
}

/// The View menu's "View as" choices.
pub fn view_menu_ui(
    ui: &mut Ui,
    viewing: &Viewing,
    session: Option<&Session>,
    commands: &mut Vec<WindowCommand>,
) {
    if let Viewing::Served(served) = viewing
        && ui
            .add_enabled(!served.waiting, egui::Button::new("Refresh from the server"))
            .clicked()
    {
        commands.push(WindowCommand::View(Command::Served(served::Action::Refresh)));
        ui.close();
    }
    ui.label(RichText::new("View as").strong());
    let report = matches!(viewing, Viewing::Report(_) | Viewing::Served(_));
    let current = viewing.viewer().cloned();
    for (to, name) in choices(session) {
        let on = !report && current == to;
        if ui.radio(on, format!("As {name}")).clicked() && !on {
            commands.push(WindowCommand::View(Command::ViewAs(to)));
            ui.close();
        }
    }
    if viewing.is_umpire() && session.is_some() && ui.button("Hot seat passphrases…").clicked() {
        commands.push(WindowCommand::View(Command::Passphrases));
        ui.close();
    }
    if viewing.is_umpire()
        && let Some(session) = session
    {
        ui.separator();
        ui.label(RichText::new("Played by the program").strong())
            .on_hover_text("Its orders are given at End turn by the programmed commander, from that side's report alone; its reasons are in the log (`umpire log`).");
        let programmed = session.programmed_sides();
        for side in &session.campaign().sides {
            let mut on = programmed.contains(&side.id);
            if ui.checkbox(&mut on, side.name.as_str()).changed() {
                commands.push(WindowCommand::Session(session::Command::SetProgrammed {
                    side: side.id.clone(),
                    on,
                }));
            }
        }
    }
    ui.separator();
}

/// The top bar's "View as" box; on a report, which report.
pub fn view_as_ui(
    ui: &mut Ui,
    viewing: &Viewing,
    session: Option<&Session>,
    commands: &mut Vec<WindowCommand>,
) {
    if let Viewing::Served(served) = viewing {
        ui.label(
            RichText::new(format!(
                "The umpire's view of `{}`, from {}",
                served.link.campaign, served.link.base
            ))
            .strong()
            .color(theme::ROUTE),
        )
        .on_hover_text("Read from the server: File > Close served campaign leaves it");
        return;
    }
    if let Viewing::Report(report) = viewing {
        if let Some(served) = &report.served {
            let given = if served.given {
                "orders given"
            } else {
                "no orders given yet"
            };
            let deadline = served
                .deadline
                .as_deref()
                .map_or_else(|| "no deadline".to_owned(), |d| format!("deadline {d}"));
            ui.label(
                RichText::new(format!(
                    "{}'s view, served: {given}; {deadline}",
                    report.view.side_name
                ))
                .strong()
                .color(theme::ROUTE),
            )
            .on_hover_text(report.path.display().to_string());
            return;
        }
        ui.label(
            RichText::new(format!("{}'s report", report.view.side_name))
                .strong()
                .color(theme::ROUTE),
        )
        .on_hover_text(report.path.display().to_string());
        return;
    }
    let current = viewing.viewer().cloned();
    let choices = choices(session);
    let shown = choices
        .iter()
        .find(|(to, _)| *to == current)
        .map_or_else(String::new, |(_, name)| name.clone());
    let mut chosen = None;
    let label = ui.label("View as");
    egui::ComboBox::from_id_salt("view_as")
        .selected_text(shown)
        .show_ui(ui, |ui| {
            for (to, name) in &choices {
                if ui.selectable_label(*to == current, name).clicked() && *to != current {
                    chosen = Some(to.clone());
                }
            }
        })
        .response
        .labelled_by(label.id)
        .on_hover_text("Whose view the window shows; another side's first passes the screen");
    if let Some(to) = chosen {
        commands.push(WindowCommand::View(Command::ViewAs(to)));
    }
}

/// The File menu's report items.
pub fn file_menu_ui(
    ui: &mut Ui,
    viewing: &Viewing,
    forms: &mut SeatForms,
    commands: &mut Vec<WindowCommand>,
) {
    ui.separator();
    if ui.button("Open report…").clicked() {
        forms.report.get_or_insert_with(String::new);
        ui.close();
    }
    let report = match viewing {
        Viewing::Report(report) => Some(report.default_orders_path()),
        _ => None,
    };
    if ui
        .add_enabled(report.is_some(), egui::Button::new("Write orders…"))
        .on_disabled_hover_text("Open a side's report first: orders are written from it")
        .clicked()
    {
        let path = report
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        forms.orders.get_or_insert(path);
        ui.close();
    }
    if ui
        .button("Open served campaign…")
        .on_hover_text("A side's view of a campaign on the umpire's server (`umpire serve`), from the link the umpire sent; or, with the umpire's link, the whole campaign to resolve")
        .clicked()
    {
        forms.served.get_or_insert_with(String::new);
        ui.close();
    }
    let served = matches!(viewing, Viewing::Report(r) if r.served.is_some());
    if served && ui.button("Give orders to the server").clicked() {
        commands.push(WindowCommand::View(Command::GiveServedOrders));
        ui.close();
    }
    if report.is_some() && ui.button("Close report").clicked() {
        commands.push(WindowCommand::View(Command::CloseReport));
        ui.close();
    }
    if matches!(viewing, Viewing::Served(_)) && ui.button("Close served campaign").clicked() {
        commands.push(WindowCommand::View(Command::CloseReport));
        ui.close();
    }
}

/// The forms of the File menu's report items.
pub fn forms_ui(ctx: &egui::Context, forms: &mut SeatForms, commands: &mut Vec<WindowCommand>) {
    if let Some(path) = forms.report.as_mut() {
        let mut open = true;
        let mut go = false;
        egui::Window::new("Open a report").open(&mut open).show(ctx, |ui| {
            ui.label("A side's report, written by `umpire report SAVE SIDE FILE`: opened read-only, to give that side's orders on it.");
            path_field_ui(ui, "Report file", path);
            go = ui.button("Open").clicked();
        });
        if go {
            commands.push(WindowCommand::View(Command::OpenReport(PathBuf::from(
                path.trim(),
            ))));
        }
        if !open {
            forms.report = None;
        }
    }
    if let Some(link) = forms.served.as_mut() {
        let mut open = true;
        let mut go = false;
        egui::Window::new("Open a served campaign").open(&mut open).show(ctx, |ui| {
            ui.label("The link the umpire sent you, as `umpire serve token SAVE SIDE` prints it: the window shows your side's view from the server and gives your orders to it. The umpire's own link (`umpire serve token SAVE umpire`) shows the whole campaign, to resolve the game move.");
            path_field_ui(ui, "Link", link);
            go = ui.button("Open").clicked();
        });
        if go {
            commands.push(WindowCommand::View(Command::OpenServed(link.trim().to_owned())));
        }
        if !open {
            forms.served = None;
        }
    }
    if let Some(path) = forms.orders.as_mut() {
        let mut open = true;
        let mut go = false;
        egui::Window::new("Write orders").open(&mut open).show(ctx, |ui| {
            ui.label("The orders given on this report, as an orders file for `umpire orders`: it names the report's campaign, side and game move, and is refused for any other.");
            path_field_ui(ui, "Orders file", path);
            go = ui.button("Write").clicked();
        });
        if go {
            commands.push(WindowCommand::View(Command::WriteOrders(PathBuf::from(
                path.trim(),
            ))));
        }
        if !open {
            forms.orders = None;
        }
    }
}

/// A key for one giving of orders: new each time, the same on its retries.
fn idempotency_key() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!(
        "window-{}-{nanos}-{}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    )
}

/// A labelled one-line field for a path.
pub fn path_field_ui(ui: &mut Ui, label: &str, value: &mut String) {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.add(egui::TextEdit::singleline(value).desired_width(380.0))
            .labelled_by(l.id);
    });
}

/// The battles a side is in, both sides in full; read-only (the hand-off is
/// the umpire's). `show`: whether the window is open.
pub fn battles_window(ctx: &egui::Context, scene: &Scene<'_>, show: &mut bool, selection: &mut Selection) {
    if !*show {
        return;
    }
    let campaign = scene.campaign;
    let mut open = true;
    let mut select = None;
    egui::Window::new("Battles")
        .open(&mut open)
        .default_size([420.0, 300.0])
        .show(ctx, |ui| {
            // A side's view holds only its pending battles; the served
            // umpire's holds every battle the campaign ever had.
            let pending = || {
                campaign
                    .battles
                    .iter()
                    .filter(|b| b.status == BattleStatus::Pending)
            };
            if pending().next().is_none() {
                ui.label(if scene.viewer.is_some() {
                    "No battles of this side are pending."
                } else {
                    "No battles are pending."
                });
            }
            for battle in pending() {
                ui.group(|ui| {
                    let side = |s: &SideId| campaign.side(s).map_or(s.to_string(), |x| x.name.clone());
                    ui.label(
                        RichText::new(format!(
                            "Battle {} at {}",
                            battle.id,
                            campaign.map.region_name(&battle.region)
                        ))
                        .strong()
                        .color(theme::BATTLE),
                    );
                    ui.label(format!(
                        "{} attacking {}, since game move {}",
                        side(&battle.attacker),
                        side(&battle.defender),
                        battle.turn
                    ));
                    for id in battle.forces.iter().chain(&battle.reserves) {
                        if let Some(f) = campaign.force(id) {
                            let reserve = if battle.reserves.contains(id) {
                                ", in reserve"
                            } else {
                                ""
                            };
                            ui.label(format!(
                                "{} ({}): {}, {} points{reserve}",
                                f.name,
                                side(&f.side),
                                crate::model::text::count(f.stands.len() as u64, "stand", "stands"),
                                f.points()
                            ));
                        }
                    }
                    if ui.button("Show on map").clicked() {
                        select = Some(battle.region.clone());
                    }
                });
            }
            if scene.viewer.is_some() {
                ui.weak("The umpire fights the battle or hands it to the table.");
            } else {
                ui.weak(served::BATTLES_ON_THE_SERVER);
            }
        });
    if let Some(region) = select {
        *selection = Selection::Region(region);
    }
    *show = open;
}

/// The turn log as the viewing side heard of it.
pub fn log_ui(ui: &mut Ui, view: &SideView) {
    ui.horizontal(|ui| {
        ui.label(RichText::new("Turn log").strong());
        ui.separator();
        ui.weak(format!("as {}'s commanders heard it", view.side_name));
    });
    ui.separator();
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 2.0;
    ScrollArea::vertical()
        .auto_shrink(false)
        .stick_to_bottom(true)
        .show_rows(ui, row_height, view.log.len(), |ui, range| {
            for event in view.log.get(range).into_iter().flatten() {
                ui.label(format!("Move {}: {}", event.turn, event.sentence));
            }
        });
}

/// A line of the forces tree for an enemy force a side knows from a distance.
pub fn known_row(scene: &Scene<'_>, force: &Force, mark: &Mark) -> RichText {
    let campaign = scene.campaign;
    let place = where_is(campaign, force);
    let strength = if mark.blind {
        String::new()
    } else {
        mark.points.map_or_else(String::new, |p| format!(" {p} pts,"))
    };
    let text = RichText::new(format!("{}:{strength} {place}, {}", force.name, mark.when()));
    if mark.in_sight { text } else { text.weak() }
}

/// The forces tree's line for another side in a side's view: what it knows of it.
pub fn known_side_row(scene: &Scene<'_>, side: &SideId, name: &str) -> String {
    let campaign = scene.campaign;
    let known = campaign.forces_of(side).count();
    let hqs = campaign.hqs_held_by(side).count();
    format!(
        "{name}: {known} force{} known, {hqs} HQs",
        if known == 1 { "" } else { "s" }
    )
}

/// The inspector for an enemy force the side knows from a distance.
pub fn known_ui(ui: &mut Ui, scene: &Scene<'_>, force: &Force, mark: &Mark) {
    let campaign = scene.campaign;
    let colour = side_colour(campaign, &force.side);
    let side = side_name(campaign, &force.side);
    ui.label(
        RichText::new(&force.name)
            .strong()
            .size(16.0)
            .color(mark_colour(colour, mark.in_sight)),
    );
    ui.label(format!("{side}; {}", mark.strength(force)));
    let place = where_is(campaign, force);
    if mark.in_sight {
        ui.label(format!("At {place}, in sight ({})", mark.how_text()));
    } else {
        ui.label(format!(
            "Last seen at {place} in game move {} ({}); where it is now is not known",
            mark.seen_turn,
            mark.how_text()
        ));
    }
    if mark.blind {
        ui.weak(format!(
            "Blind {}: a force seen but not made out, screened or hidden in a town, village or forest. Light cavalry scouts may find what it is.",
            mark.marker
        ));
    }
    let viewer = scene
        .viewer
        .and_then(|v| campaign.side(v))
        .map_or("this side", |s| s.name.as_str());
    ui.weak(format!("Orders go only to {viewer}'s own forces."));
}

/// The stands of another side's force in a battle, seen in full; no orders.
pub fn enemy_stands_ui(ui: &mut Ui, scene: &Scene<'_>, force: &Force) {
    ui.separator();
    ui.label(RichText::new("Stands").strong());
    for stand in &force.stands {
        ui.label(stand_line(stand));
    }
    if let Some(viewer) = scene.viewer.and_then(|v| scene.campaign.side(v)) {
        ui.weak(format!(
            "Seen in full in battle. Orders go only to {}'s own forces.",
            viewer.name
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::{Viewer, screen};
    use crate::model::{ForceId, SideId};
    use crate::strategy::{Action, OrderRequest};
    use crate::ui::session::Command;
    use std::path::PathBuf;

    fn order(side: &str) -> Command {
        Command::Order {
            side: SideId::new(side),
            request: OrderRequest {
                force: ForceId::new("f"),
                action: Action::Hold,
                forced: false,
                by: Default::default(),
            },
        }
    }

    #[test]
    fn a_sides_view_sends_only_its_own_work() {
        let pack = Command::WritePack {
            battle: 1,
            rules: None,
            dir: PathBuf::from("pack"),
            paper: crate::handoff::tiles::Paper::A4,
        };
        let resolve = Command::Resolve {
            battle: 1,
            rules: None,
            seed: None,
        };
        // (command, side whose orders were given last, side a redo gives again, sent?, refusal says)
        type Case = (
            Command,
            Option<&'static str>,
            Option<&'static str>,
            bool,
            &'static str,
        );
        let cases: Vec<Case> = vec![
            (order("british"), None, None, true, ""),
            (order("rebels"), None, None, false, "orders go only to British"),
            (Command::Undo, Some("british"), None, true, ""),
            (Command::Undo, Some("rebels"), None, false, "Undo would take back"),
            (Command::Undo, None, None, false, "Undo would take back"),
            (Command::Redo, None, None, true, ""),
            (Command::Redo, None, Some("british"), true, ""),
            (Command::Redo, None, Some("rebels"), false, "another side's"),
            (Command::EndTurn, None, None, true, ""),
            (pack, None, None, false, "the umpire's work"),
            (resolve, None, None, false, "the umpire's work"),
        ];
        let british = SideId::new("british");
        let viewer = Viewer {
            side: &british,
            name: "British",
        };
        for (command, last, redo, sent, says) in cases {
            let (last, redo) = (last.map(SideId::new), redo.map(SideId::new));
            let result = screen(viewer, last.as_ref(), redo.as_ref(), command.clone());
            match result {
                Ok(c) => {
                    assert!(sent, "{command:?} (last {last:?}, redo {redo:?}) was sent");
                    assert_eq!(c, command);
                }
                Err(why) => {
                    assert!(
                        !sent,
                        "{command:?} (last {last:?}, redo {redo:?}) was refused: {why}"
                    );
                    assert!(why.contains(says), "{command:?}: {why}");
                }
            }
        }
    }
}
