//! The hot seat and play by email in the window: "View as" the umpire or one
//! side, the page that passes the screen between them, and a side's report
//! opened from a file (read-only), with the orders given on it written to an
//! orders file for `umpire orders`.
//!
//! A side's view shows only what [`SideView`] holds. Orders go only to the
//! viewing side's own forces; undo and redo only take back its own orders;
//! the umpire's tools (plots, battle hand-off) stay in the umpire's view.

use super::app::UmpireApp;
use super::session::{self, Refusal, Session};
use super::view::{Mark, Scene, SideView};
use super::{Command as WindowCommand, Selection, theme};
use crate::model::report;
use crate::model::{Event, Force, SideId};
use crate::strategy::{self, Action, OrderRequest};
use egui::{Color32, RichText, ScrollArea, Ui};
use std::path::{Path, PathBuf};

/// What the window asks of the views; applied after the frame, as every command.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Hand the screen to a side (`Some`) or to the umpire (`None`): puts up
    /// the pass-the-screen page.
    ViewAs(Option<SideId>),
    /// The pass-the-screen page's Continue: shows the view it was passed to.
    Continue,
    /// Opens a side's report file, read-only.
    OpenReport(PathBuf),
    /// Writes the orders given on the open report to an orders file.
    WriteOrders(PathBuf),
    /// Leaves the report, passing the screen back to the umpire's view.
    CloseReport,
}

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
}

impl Viewing {
    pub fn is_umpire(&self) -> bool {
        matches!(self, Viewing::Umpire)
    }

    /// The side whose view it is; `None`: the umpire's.
    pub fn viewer(&self) -> Option<&SideId> {
        match self {
            Viewing::Umpire => None,
            Viewing::Side { view, .. } => Some(&view.side),
            Viewing::Report(report) => Some(&report.view.side),
        }
    }
}

/// The views' part of the window's state.
#[derive(Debug, Default)]
pub struct Seat {
    pub viewing: Viewing,
    /// The pass-the-screen page is up, handing the screen to a side (`Some`)
    /// or to the umpire (`None`).
    pub passing: Option<Option<SideId>>,
    /// File > Open report…: the path typed.
    pub report_form: Option<String>,
    /// File > Write orders…: the path typed.
    pub orders_form: Option<String>,
}

impl Seat {
    /// What the frame draws: the open save as the viewer knows it, or the open report.
    pub fn scene<'a>(&'a self, session: Option<&'a Session>) -> Option<Scene<'a>> {
        match &self.viewing {
            Viewing::Umpire => session.map(Scene::umpire),
            Viewing::Side { view, .. } => session.map(|s| Scene::side(view, s.revision(), s.path())),
            Viewing::Report(report) => Some(Scene::side(&report.view, report.revision, &report.path)),
        }
    }
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

fn side_name(app: &UmpireApp, side: &SideId) -> String {
    app.session
        .as_ref()
        .and_then(|s| s.campaign().side(side))
        .map_or_else(|| side.to_string(), |s| s.name.clone())
}

/// Who the screen goes to, in words: "British Field Force" or "the umpire".
fn whom(app: &UmpireApp, to: Option<&SideId>) -> String {
    to.map_or_else(|| "the umpire".to_owned(), |side| side_name(app, side))
}

impl UmpireApp {
    /// The side whose view the window shows; `None`: the umpire's.
    pub fn viewer(&self) -> Option<&SideId> {
        self.seat.viewing.viewer()
    }

    /// The side's view the window shows, of the save or of a report.
    pub fn side_view(&self) -> Option<&SideView> {
        match &self.seat.viewing {
            Viewing::Umpire => None,
            Viewing::Side { view, .. } => Some(view),
            Viewing::Report(report) => Some(&report.view),
        }
    }

    /// The report file open, if the window shows one.
    pub fn report_path(&self) -> Option<&Path> {
        match &self.seat.viewing {
            Viewing::Report(report) => Some(&report.path),
            _ => None,
        }
    }

    /// Whether the pass-the-screen page covers the window.
    pub fn passing_the_screen(&self) -> bool {
        self.seat.passing.is_some()
    }

    /// Forgets what was drawn for the last view: selection, messages, forms, caches.
    fn forget_view(&mut self) {
        self.selection = Selection::None;
        self.notes.clear();
        self.summary = None;
        self.split = Default::default();
        self.march_to.clear();
        self.merge_into.clear();
        self.tree = Default::default();
        self.log_rows = None;
        self.map.redraw();
    }
}

/// Starts in the view `Launch` asks for: a report, or a side's view (with
/// no pass-the-screen page: whoever started it is at the screen).
pub fn launch(app: &mut UmpireApp, view: Option<&str>, report: Option<&Path>) {
    if let Some(path) = report {
        open_report(app, path);
    } else if let Some(side) = view {
        show(app, Some(SideId::new(side)));
    }
}

/// Keeps a side's view of the save up to date with it.
pub fn refresh(app: &mut UmpireApp) {
    let Viewing::Side { view, revision } = &app.seat.viewing else {
        return;
    };
    let Some(session) = &app.session else {
        app.seat.viewing = Viewing::Umpire;
        return;
    };
    if *revision == session.revision() {
        return;
    }
    let side = view.side.clone();
    match side_view_of(session, &side) {
        Some(view) => {
            app.seat.viewing = Viewing::Side {
                view: Box::new(view),
                revision: session.revision(),
            }
        }
        None => {
            app.seat.viewing = Viewing::Umpire;
            app.forget_view();
        }
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

/// Shows a view at once, without passing the screen.
fn show(app: &mut UmpireApp, to: Option<SideId>) {
    app.seat.passing = None;
    let viewing = match (&to, &app.session) {
        (None, _) => Viewing::Umpire,
        (Some(side), Some(session)) => match side_view_of(session, side) {
            Some(view) => Viewing::Side {
                view: Box::new(view),
                revision: session.revision(),
            },
            None => {
                app.note_error(format!(
                    "This campaign has no side `{side}`; the window shows the umpire's view."
                ));
                return;
            }
        },
        (Some(_), None) => {
            app.note_error("No campaign is open: open a save first, or open a side's report (File menu).");
            return;
        }
    };
    let was_report = matches!(app.seat.viewing, Viewing::Report(_));
    app.seat.viewing = viewing;
    app.forget_view();
    if was_report {
        // The save's map again, with its picture.
        app.map.hide_background(false);
        app.map.zoom_to_fit();
    }
}

fn open_report(app: &mut UmpireApp, path: &Path) {
    let report = match crate::files::load_report(path) {
        Ok(report) => report,
        Err(e) => {
            app.note_error(format!("The report could not be opened: {e}"));
            return;
        }
    };
    let Some(view) = SideView::from_report(&report) else {
        app.note_error(format!(
            "The report {} has no date the calendar can show; write it again with `umpire report`.",
            path.display()
        ));
        return;
    };
    app.seat.passing = None;
    app.seat.report_form = None;
    app.seat.viewing = Viewing::Report(Box::new(ReportView::new(path.to_owned(), view)));
    app.forget_view();
    // The report's map is drawn without the save's picture: the report holds none.
    app.map.hide_background(true);
    app.map.zoom_to_fit();
    app.note(format!(
        "Opened {}'s report for game move {} ({}): give orders on the map or in the inspector, and write them with Write orders… in the File menu.",
        report.side_name,
        report.turn,
        path.display()
    ));
}

/// Carries out a view command.
pub fn apply(app: &mut UmpireApp, command: Command) {
    match command {
        Command::ViewAs(to) => {
            let same = match &app.seat.viewing {
                Viewing::Report(_) => false,
                viewing => viewing.viewer() == to.as_ref(),
            };
            if same {
                app.seat.passing = None;
            } else if to.is_some() && app.session.is_none() {
                app.note_error(
                    "No campaign is open: open a save first, or open a side's report (File menu).",
                );
            } else {
                app.seat.passing = Some(to);
            }
        }
        Command::Continue => {
            if let Some(to) = app.seat.passing.take() {
                show(app, to);
            }
        }
        Command::OpenReport(path) => open_report(app, &path),
        Command::CloseReport => {
            if matches!(app.seat.viewing, Viewing::Report(_)) {
                app.seat.passing = Some(None);
            }
        }
        Command::WriteOrders(path) => {
            let Viewing::Report(report) = &app.seat.viewing else {
                app.note_error(
                    "Open a side's report first (File > Open report…): orders are written from it.",
                );
                return;
            };
            let text = report.orders_file();
            let count = report.orders_given();
            let side = report.view.side.clone();
            let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
                app.note_error(format!(
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
                    app.seat.orders_form = None;
                    app.note(format!(
                        "Wrote {count} order{} to {}: send it to the umpire, who gives it with `umpire orders SAVE {side} {name}`.",
                        if count == 1 { "" } else { "s" },
                        path.display()
                    ));
                }
                Err(e) => app.note_error(format!("The orders were not written: {e}")),
            }
        }
    }
}

/// Screens a session command in a side's view: orders only to the side's own
/// forces, undo and redo only of its own orders, the umpire's tools refused;
/// on a report, orders, undo and redo work on the report's orders. `Some`:
/// the command goes on to the save.
pub fn screen(app: &mut UmpireApp, command: session::Command) -> Option<session::Command> {
    let refuse = |app: &mut UmpireApp, text: String| {
        app.note_error(text);
        None
    };
    match &mut app.seat.viewing {
        Viewing::Umpire => Some(command),
        Viewing::Side { view, .. } => {
            let side = view.side.clone();
            let name = view.side_name.clone();
            let last = app
                .session
                .as_ref()
                .and_then(|s| s.pending().last())
                .map(|s| &s.side);
            let redo = app.session.as_ref().and_then(Session::redo_side);
            match command {
                session::Command::Order { side: whose, .. } if whose != side => refuse(
                    app,
                    format!("In {name}'s view orders go only to {name}'s own forces."),
                ),
                session::Command::Undo if last != Some(&side) => refuse(
                    app,
                    format!(
                        "Undo would take back what {name} did not do (another side's orders, or the game move): switch to the umpire's view to undo it."
                    ),
                ),
                session::Command::Redo if redo.is_some_and(|s| s != &side) => refuse(
                    app,
                    "The orders to give again are another side's: switch to its view or the umpire's."
                        .to_owned(),
                ),
                command @ (session::Command::Order { .. }
                | session::Command::Undo
                | session::Command::Redo
                | session::Command::EndTurn) => Some(command),
                _ => refuse(
                    app,
                    "That is the umpire's work: switch to the umpire's view (View > As the umpire (everything))."
                        .to_owned(),
                ),
            }
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
                Ok(text) => {
                    app.notes.retain(|n| !n.error);
                    app.note(text);
                }
                Err(refusal) => app.note_error(refusal.to_string()),
            }
            None
        }
    }
}

/// A game move's events as the viewing side heard of them (all of them in the umpire's view).
pub fn heard_summary(app: &UmpireApp, events: Vec<Event>) -> Vec<Event> {
    let (Some(side), Some(session)) = (app.seat.viewing.viewer(), &app.session) else {
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

// ---------------------------------------------------------------------------
// Drawing

/// The pass-the-screen page over the whole window, when it is up: nothing of
/// the campaign is drawn under it. True when it was drawn.
pub fn pass_ui(app: &mut UmpireApp, ui: &mut Ui) -> bool {
    let Some(to) = app.seat.passing.clone() else {
        return false;
    };
    let name = whom(app, to.as_ref());
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
            if ui
                .add(
                    egui::Button::new(RichText::new("Continue").size(18.0)).min_size(egui::vec2(140.0, 36.0)),
                )
                .clicked()
            {
                app.commands.push(WindowCommand::View(Command::Continue));
            }
        });
    });
    true
}

/// The view choices: the umpire and each side of the open save.
fn choices(app: &UmpireApp) -> Vec<(Option<SideId>, String)> {
    let mut list = vec![(None, "the umpire (everything)".to_owned())];
    if let Some(session) = &app.session {
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
pub fn view_menu_ui(app: &mut UmpireApp, ui: &mut Ui) {
    ui.label(RichText::new("View as").strong());
    let report = matches!(app.seat.viewing, Viewing::Report(_));
    let current = app.seat.viewing.viewer().cloned();
    for (to, name) in choices(app) {
        let on = !report && current == to;
        if ui.radio(on, format!("As {name}")).clicked() && !on {
            app.commands.push(WindowCommand::View(Command::ViewAs(to)));
            ui.close();
        }
    }
    ui.separator();
}

/// The top bar's "View as" box; on a report, which report.
pub fn view_as_ui(app: &mut UmpireApp, ui: &mut Ui) {
    if let Viewing::Report(report) = &app.seat.viewing {
        ui.label(
            RichText::new(format!("{}'s report", report.view.side_name))
                .strong()
                .color(theme::ROUTE),
        )
        .on_hover_text(report.path.display().to_string());
        return;
    }
    let current = app.seat.viewing.viewer().cloned();
    let choices = choices(app);
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
        app.commands.push(WindowCommand::View(Command::ViewAs(to)));
    }
}

/// The File menu's report items.
pub fn file_menu_ui(app: &mut UmpireApp, ui: &mut Ui) {
    ui.separator();
    if ui.button("Open report…").clicked() {
        app.seat.report_form.get_or_insert_with(String::new);
        ui.close();
    }
    let report = match &app.seat.viewing {
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
        app.seat.orders_form.get_or_insert(path);
        ui.close();
    }
    if report.is_some() && ui.button("Close report").clicked() {
        app.commands.push(WindowCommand::View(Command::CloseReport));
        ui.close();
    }
}

/// The forms of the File menu's report items, and the battles window of a side's view.
pub fn windows_ui(app: &mut UmpireApp, ctx: &egui::Context) {
    if let Some(path) = app.seat.report_form.as_mut() {
        let mut open = true;
        let mut go = false;
        egui::Window::new("Open a report").open(&mut open).show(ctx, |ui| {
            ui.label("A side's report, written by `umpire report SAVE SIDE FILE`: opened read-only, to give that side's orders on it.");
            path_field_ui(ui, "Report file", path);
            go = ui.button("Open").clicked();
        });
        if go {
            app.commands
                .push(WindowCommand::View(Command::OpenReport(PathBuf::from(
                    path.trim(),
                ))));
        }
        if !open {
            app.seat.report_form = None;
        }
    }
    if let Some(path) = app.seat.orders_form.as_mut() {
        let mut open = true;
        let mut go = false;
        egui::Window::new("Write orders").open(&mut open).show(ctx, |ui| {
            ui.label("The orders given on this report, as an orders file for `umpire orders`: it names the report's campaign, side and game move, and is refused for any other.");
            path_field_ui(ui, "Orders file", path);
            go = ui.button("Write").clicked();
        });
        if go {
            app.commands
                .push(WindowCommand::View(Command::WriteOrders(PathBuf::from(
                    path.trim(),
                ))));
        }
        if !open {
            app.seat.orders_form = None;
        }
    }
    if !app.seat.viewing.is_umpire() {
        battles_window(app, ctx);
    }
}

fn path_field_ui(ui: &mut Ui, label: &str, value: &mut String) {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.add(egui::TextEdit::singleline(value).desired_width(380.0))
            .labelled_by(l.id);
    });
}

/// The battles a side is in, both sides in full; read-only (the hand-off is the umpire's).
fn battles_window(app: &mut UmpireApp, ctx: &egui::Context) {
    if !app.view.show_battles {
        return;
    }
    let Some(scene) = app.seat.scene(app.session.as_ref()) else {
        return;
    };
    let campaign = scene.campaign;
    let mut open = true;
    let mut select = None;
    egui::Window::new("Battles")
        .open(&mut open)
        .default_size([420.0, 300.0])
        .show(ctx, |ui| {
            if campaign.battles.is_empty() {
                ui.label("No battles of this side are pending.");
            }
            for battle in &campaign.battles {
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
                                "{} ({}): {} stands, {} points{reserve}",
                                f.name,
                                side(&f.side),
                                f.stands.len(),
                                f.points()
                            ));
                        }
                    }
                    if ui.button("Show on map").clicked() {
                        select = Some(battle.region.clone());
                    }
                });
            }
            ui.weak("The umpire fights the battle or hands it to the table.");
        });
    if let Some(region) = select {
        app.selection = Selection::Region(region);
    }
    app.view.show_battles = open;
}

/// The turn log as the viewing side heard of it.
pub fn log_ui(app: &mut UmpireApp, ui: &mut Ui) {
    let Some(view) = app.side_view() else {
        return;
    };
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

/// The colour an enemy force is drawn in: its side's, paler when only remembered.
pub fn mark_colour(colour: Color32, mark: &Mark) -> Color32 {
    if mark.in_sight { colour } else { remembered(colour) }
}

/// A colour washed out towards grey: a force remembered, not seen now.
pub fn remembered(colour: Color32) -> Color32 {
    let grey = |c: u8| ((u16::from(c) + 2 * 150) / 3).min(255);
    Color32::from_rgb(
        u8::try_from(grey(colour.r())).unwrap_or(150),
        u8::try_from(grey(colour.g())).unwrap_or(150),
        u8::try_from(grey(colour.b())).unwrap_or(150),
    )
}

/// A line of the forces tree for an enemy force a side knows from a distance.
pub fn known_row(scene: &Scene<'_>, force: &Force, mark: &Mark) -> RichText {
    let campaign = scene.campaign;
    let place = super::map_view::where_is(campaign, force);
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
    let colour = campaign.side(&force.side).map_or(Color32::GRAY, |s| {
        let [r, g, b] = s.colour.0;
        Color32::from_rgb(r, g, b)
    });
    let side = campaign
        .side(&force.side)
        .map_or(force.side.as_str(), |s| s.name.as_str());
    ui.label(
        RichText::new(&force.name)
            .strong()
            .size(16.0)
            .color(mark_colour(colour, mark)),
    );
    ui.label(format!("{side}; {}", mark.strength(force)));
    let place = super::map_view::where_is(campaign, force);
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
        ui.label(format!(
            "{} ({}) {}/{}",
            stand.name,
            stand.kind.label(),
            stand.strength,
            stand.full
        ));
    }
    if let Some(viewer) = scene.viewer.and_then(|v| scene.campaign.side(v)) {
        ui.weak(format!(
            "Seen in full in battle. Orders go only to {}'s own forces.",
            viewer.name
        ));
    }
}
