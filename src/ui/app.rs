//! The window: menu bar, the forces tree on the left, the map in the centre,
//! the inspector on the right and the turn log at the bottom.

use super::battles::{BattleDesk, BattlesInput};
use super::command::{Command, Selection};
use super::keys;
use super::map_maker::{self, MapMaker};
use super::map_view::{MapInput, MapView, Overlays, miles};
use super::panels::{self, FileForms, HelpWindows, LogRows, OrderForm, TreeState};
use super::seat::{self, Seat, Shift};
use super::session::{self, Applied, Refusal, Session};
use super::state::{Note, Notes, Timelines, ViewState};
use super::view::SideView;
use super::{plots, start};
use crate::model::{Event, SideId};
use crate::strategy::TurnOutcome;
use egui::{KeyboardShortcut, Modifiers};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// How the window starts.
#[derive(Debug, Clone, Default)]
pub struct Launch {
    /// Where the first start puts its save; `None`: the platform's data folder.
    pub data_folder: Option<PathBuf>,
    /// A save to open instead of the one used last.
    pub open: Option<PathBuf>,
    /// Render the window once, save it here as a PNG and close.
    pub screenshot: Option<PathBuf>,
    /// Read and keep the view state (panels, overlays, camera, recent files)
    /// through eframe; with a screenshot it is read but not written.
    pub remember: bool,
    /// Start in this side's view (its id), with no pass-the-screen page.
    pub view: Option<String>,
    /// Start on this side's report file (written by `umpire report`).
    pub report: Option<PathBuf>,
    /// Start in the map maker on this map file.
    pub edit_map: Option<PathBuf>,
    /// Open this served campaign's link (a side's or the umpire's) at the start.
    pub served: Option<String>,
}

/// Maps with more regions and forces than this resolve a game move on another thread.
const THREADED_TURN: usize = 20_000;

/// Where the screenshot's outcome is left for `ui::run`.
pub(super) type ShotReport = Arc<Mutex<Option<Result<(), String>>>>;

/// A game move resolving on another thread.
#[derive(Debug)]
struct TurnJob {
    work: session::TurnWork,
    result: mpsc::Receiver<TurnOutcome>,
}

/// The windows' own state: each panel's, kept here and lent to it.
#[derive(Debug, Default)]
pub(super) struct Windows {
    pub forms: FileForms,
    pub help: HelpWindows,
    /// The inspector's order fields.
    pub order: OrderForm,
    /// The last game move resolved, for the summary window.
    pub summary: Option<(u32, Vec<Event>)>,
    pub tree: TreeState,
    pub log_rows: LogRows,
    pub timelines: Timelines,
    /// The battles window: odds, packs, results.
    pub battles: BattleDesk,
    /// Whose view the window shows (the umpire's or a side's), and reports.
    pub seat: Seat,
    /// End turn asked while battles are pending: the warning up, or its
    /// "End turn anyway".
    pub end_turn: panels::EndTurnCheck,
    /// The umpire's pencil window.
    pub pencil: super::pencil::Pencil,
    /// The map maker, when it is open over the window.
    pub maker: Option<super::map_maker::MapMaker>,
}

impl Windows {
    /// Forgets what was drawn for the last view: forms, summary and caches.
    fn forget_view(&mut self) {
        self.summary = None;
        self.order = OrderForm::default();
        self.tree = TreeState::default();
        self.log_rows = LogRows::default();
    }
}

/// The app: the open save, the view state kept between runs, the windows'
/// state and the messages; the only code that knows all of them.
pub struct UmpireApp {
    session: Option<Session>,
    view: ViewState,
    windows: Windows,
    notes: Notes,
    map: MapView,
    selection: Selection,
    /// Orders given on the map are forced marches.
    forced: bool,
    /// Orders given go on foot, by train or by steamer.
    by: crate::model::Conveyance,
    commands: Vec<Command>,
    job: Option<TurnJob>,
    /// A side's report page being written on another thread, because its
    /// battles' odds must be fought first (the house rule `odds_in_reports`):
    /// what it says when done.
    export: Option<mpsc::Receiver<Result<String, String>>>,
    /// Regions and forces above which a game move resolves on another thread.
    threaded_turn: usize,
    /// The save whose background picture the map has (or has tried to load).
    background_for: Option<PathBuf>,
    launch: Launch,
    frames: u64,
    shot: Option<mpsc::Receiver<Arc<egui::ColorImage>>>,
    shot_report: Option<ShotReport>,
    /// Wakes the window when another program changes the open save; the
    /// watching thread stops when this is dropped.
    watch: Option<mpsc::Sender<()>>,
    ctx: egui::Context,
}

impl std::fmt::Debug for UmpireApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UmpireApp")
            .field("save", &self.session.as_ref().map(Session::path))
            .field("selection", &self.selection)
            .finish_non_exhaustive()
    }
}

impl UmpireApp {
    /// Starts on the save asked for, else the one used last, else the bundled
    /// campaign in the data folder (created the first time).
    pub fn new(cc: &eframe::CreationContext<'_>, launch: Launch) -> UmpireApp {
        cc.egui_ctx.set_theme(egui::ThemePreference::Light);
        let view: ViewState = if launch.remember {
            cc.storage
                .and_then(|s| eframe::get_value(s, eframe::APP_KEY))
                .unwrap_or_default()
        } else {
            ViewState::default()
        };
        let mut app = UmpireApp {
            session: None,
            view,
            windows: Windows::default(),
            notes: Notes::default(),
            map: MapView::default(),
            selection: Selection::None,
            forced: false,
            by: crate::model::Conveyance::Foot,
            commands: Vec::new(),
            job: None,
            export: None,
            threaded_turn: THREADED_TURN,
            background_for: None,
            launch,
            frames: 0,
            shot: None,
            shot_report: None,
            watch: None,
            ctx: cc.egui_ctx.clone(),
        };
        let opened = match (&app.launch.open, &app.view.last_save) {
            (Some(path), _) => Session::open(path),
            (None, Some(last)) if last.exists() => Session::open(last),
            _ => match app.launch.data_folder.clone().or_else(session::data_folder) {
                Some(folder) => start::open_or_create_default(&folder),
                None => Err(Refusal::Store(
                    "this system names no data folder for umpire: create a save with File > New campaign"
                        .to_owned(),
                )),
            },
        };
        match opened {
            Ok(session) => app.adopt(session),
            Err(refusal) => app
                .notes
                .error(format!("The campaign could not be opened: {refusal}")),
        }
        let (view, report) = (app.launch.view.clone(), app.launch.report.clone());
        let shift = app.windows.seat.launch(
            app.session.as_ref(),
            &mut app.notes,
            view.as_deref(),
            report.as_deref(),
        );
        app.shift(shift);
        if let Some(link) = app.launch.served.clone() {
            app.commands.push(Command::View(seat::Command::OpenServed(link)));
        }
        if let Some(path) = app.launch.edit_map.clone() {
            app.windows.maker = Some(MapMaker::start(map_maker::Start::File(path)));
        }
        app
    }

    /// Where `run` learns how the screenshot went.
    pub(super) fn with_screenshot_report(mut self, report: ShotReport) -> Self {
        self.shot_report = Some(report);
        self
    }

    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    /// Resolves game moves on another thread when the map has more regions
    /// and forces than `size` (20,000 unless set).
    pub fn resolve_on_a_thread_above(&mut self, size: usize) {
        self.threaded_turn = size;
    }

    /// Whether a game move is being resolved on another thread.
    pub fn resolving(&self) -> bool {
        self.job.is_some()
    }

    /// Whether orders given on the map are forced marches.
    pub fn forced(&self) -> bool {
        self.forced
    }

    pub fn selection(&self) -> &Selection {
        &self.selection
    }

    /// The map maker, when it is open.
    pub fn map_maker(&self) -> Option<&MapMaker> {
        self.windows.maker.as_ref()
    }

    /// The map maker, when it is open, to send it commands (for tests).
    pub fn map_maker_mut(&mut self) -> Option<&mut MapMaker> {
        self.windows.maker.as_mut()
    }

    /// The umpire's pencil window: open or not, and its fields.
    pub fn pencil_mut(&mut self) -> &mut super::pencil::Pencil {
        &mut self.windows.pencil
    }

    /// The messages shown at the top of the window.
    pub fn notes(&self) -> &[Note] {
        self.notes.all()
    }

    pub fn overlays_mut(&mut self) -> &mut Overlays {
        &mut self.view.overlays
    }

    /// Where a region is on the map on screen, once the map has been drawn.
    pub fn region_on_screen(&self, region: &str) -> Option<egui::Pos2> {
        self.map.screen_pos(&crate::model::RegionId::new(region))
    }

    /// Where a region's name is drawn on the map; `None`: hidden (or not drawn yet).
    pub fn label_on_screen(&self, region: &str) -> Option<egui::Rect> {
        self.map.label_rect(&crate::model::RegionId::new(region))
    }

    /// Where a force's counter is on screen, once the map has been drawn.
    pub fn counter_on_screen(&self, force: &str) -> Option<egui::Pos2> {
        let campaign = self.windows.seat.viewing.scene(self.session.as_ref())?.campaign;
        self.map.counter_pos(&crate::model::ForceId::new(force), campaign)
    }

    /// Whether a force's own counter is drawn now: alone in its region, or in
    /// a stack spread out, or the counter its stack shows.
    pub fn counter_shown(&self, force: &str) -> Option<bool> {
        let campaign = self.windows.seat.viewing.scene(self.session.as_ref())?.campaign;
        self.map
            .counter_shown(&crate::model::ForceId::new(force), campaign)
    }

    /// Whether the map has a background picture to draw.
    pub fn has_background(&self) -> bool {
        self.map.has_background()
    }

    /// How many region territories the map draws (one per region, after the first frame).
    pub fn territories(&self) -> usize {
        self.map.territories()
    }

    /// Centres the map on a region at `zoom` pixels per mile (after the first frame).
    pub fn look_at(&mut self, region: &str, zoom: f32) -> bool {
        self.map.look_at(&crate::model::RegionId::new(region), zoom)
    }

    /// Forces the supply overlay marks as cut off (drawn red), once drawn with it on.
    pub fn marked_cut_off(&self) -> Vec<String> {
        self.map.cut_off_forces()
    }

    /// Queues a command, as the window's widgets do.
    pub fn send(&mut self, command: Command) {
        self.commands.push(command);
    }

    /// The side whose view the window shows; `None`: the umpire's.
    pub fn viewer(&self) -> Option<&SideId> {
        self.windows.seat.viewing.viewer()
    }

    /// The side's view the window shows, of the save or of a report.
    pub fn side_view(&self) -> Option<&SideView> {
        self.windows.seat.viewing.side_view()
    }

    /// The report file open, if the window shows one.
    pub fn report_path(&self) -> Option<&Path> {
        self.windows.seat.viewing.report_path()
    }

    /// Whether the pass-the-screen page covers the window.
    pub fn passing_the_screen(&self) -> bool {
        self.windows.seat.passing.is_some()
    }

    /// The battles window's state (for tests and tools).
    pub fn battle_desk(&self) -> &BattleDesk {
        &self.windows.battles
    }

    /// The battles window's state, to change (for tests).
    pub fn battle_desk_mut(&mut self) -> &mut BattleDesk {
        &mut self.windows.battles
    }

    /// Does what a change of view asks of the rest of the window.
    fn shift(&mut self, shift: Shift) {
        if shift.forget {
            self.selection = Selection::None;
            self.windows.forget_view();
            self.map.redraw();
        }
        if let Some(hide) = shift.hide_background {
            self.map.hide_background(hide);
            self.map.zoom_to_fit();
        }
    }

    fn adopt(&mut self, session: Session) {
        let path = session.path().to_owned();
        self.view.opened(&path);
        self.map.reset();
        self.background_for = None;
        self.map.camera = match &self.view.camera {
            Some((p, camera)) if p == &path => Some(*camera),
            _ => None,
        };
        if self.map.camera.is_none() {
            self.map.zoom_to_fit();
        }
        self.selection = Selection::None;
        self.windows.timelines.clear();
        self.windows.log_rows = LogRows::default();
        self.windows.tree = TreeState::default();
        self.windows.summary = None;
        self.watch = watch(&path, &self.ctx);
        self.session = Some(session);
        // A save opens in the umpire's view.
        self.windows.seat = Seat::default();
    }

    /// Carries out the commands the frame asked for, in order.
    fn apply_commands(&mut self, ctx: &egui::Context) {
        let commands = std::mem::take(&mut self.commands);
        if !commands.is_empty() {
            // The next frame shows what they did.
            ctx.request_repaint();
        }
        for command in commands {
            self.apply(command, ctx);
        }
    }

    fn apply(&mut self, command: Command, ctx: &egui::Context) {
        // "End turn anyway" from the pending battles' warning, once.
        let anyway = matches!(command, Command::Session(session::Command::EndTurn))
            && std::mem::take(&mut self.windows.end_turn.anyway);
        // A side's view screens what goes to the save; a report takes its own orders.
        let command = match command {
            Command::Session(c) => match self.windows.seat.route(self.session.as_ref(), &mut self.notes, c) {
                Some(c) => Command::Session(c),
                None => return,
            },
            other => other,
        };
        // Battles still pending: warn before the game move leaves them behind
        // (as `umpire turn` refuses without --with-pending).
        if matches!(command, Command::Session(session::Command::EndTurn))
            && !anyway
            && self.job.is_none()
            && let Some(session) = &self.session
            && session.campaign().end.ended.is_none()
        {
            let viewer = self.windows.seat.viewing.viewer();
            let pending = crate::strategy::pending_battles_text(session.campaign(), viewer);
            if !pending.is_empty() {
                self.windows.end_turn.warning = Some(pending);
                return;
            }
        }
        match command {
            Command::Session(session::Command::EndTurn) if self.job.is_some() => {
                self.notes
                    .error("A game move is being resolved already; wait for it.");
            }
            Command::Session(session::Command::EndTurn)
                if self.session.as_ref().is_some_and(|s| {
                    let c = s.campaign();
                    // After the end the session refuses at once, with the reason.
                    c.end.ended.is_none() && c.map.regions.len() + c.forces.len() > self.threaded_turn
                }) =>
            {
                // The sides the program plays give their orders first.
                if let Some(session) = self.session.as_mut()
                    && let Err(refusal) = session.give_programmed()
                {
                    self.notes.error(refusal.to_string());
                    return;
                }
                if let Some(session) = &self.session {
                    let work = session.turn_work();
                    let (tx, rx) = mpsc::channel();
                    let (before, orders) = (work.before.clone(), work.orders.clone());
                    let ctx = ctx.clone();
                    std::thread::spawn(move || {
                        let outcome = crate::strategy::resolve(&before, &orders);
                        // The window may have closed meanwhile; nothing to do then.
                        let _ = tx.send(outcome);
                        ctx.request_repaint();
                    });
                    self.job = Some(TurnJob { work, result: rx });
                    self.notes
                        .note(format!("Resolving game move {}…", session.campaign().turn));
                }
            }
            Command::Session(command) => {
                let Some(session) = self.session.as_mut() else {
                    self.notes
                        .error("No campaign is open: open a save or start a new campaign (File menu).");
                    return;
                };
                let result = session.apply(&command);
                self.after(result);
            }
            Command::NewCampaign { campaign, save } => match Session::create_from_file(&campaign, &save) {
                Ok(session) => {
                    self.windows.forms.new_campaign = None;
                    self.notes
                        .note(format!("Created {} from {}.", save.display(), campaign.display()));
                    self.adopt(session);
                }
                Err(refusal) => self.notes.error(refusal.to_string()),
            },
            Command::Open(path) => match Session::open(&path) {
                Ok(session) => {
                    self.windows.forms.open = None;
                    self.notes.note(format!("Opened {}.", path.display()));
                    self.adopt(session);
                }
                Err(refusal) => self.notes.error(refusal.to_string()),
            },
            Command::SaveAs(path) => {
                let Some(session) = self.session.as_mut() else {
                    self.notes
                        .error("No campaign is open to save: open one first (File > Open).");
                    return;
                };
                match session.save_as(&path) {
                    Ok(()) => {
                        self.windows.forms.save_as = None;
                        self.notes
                            .note(format!("Saved a copy as {}; going on in it.", path.display()));
                        let path = path.clone();
                        self.view.recent.retain(|p| p != &path);
                        self.view.recent.insert(0, path.clone());
                        self.view.last_save = Some(path);
                    }
                    Err(refusal) => self.notes.error(refusal.to_string()),
                }
            }
            Command::ExportChronicle { side, path } => {
                if let Some(why) = export_refusal(self.session.as_ref(), &path, "chronicle") {
                    self.notes.error(why);
                    return;
                }
                let Some(session) = self.session.as_ref() else {
                    return;
                };
                let written =
                    crate::desk::chronicle_text(session.campaign(), session.events(), side.as_ref())
                        .map_err(|e| e.to_string())
                        .and_then(|text| {
                            crate::files::write_file(&path, text.as_bytes())
                                .map(|_| text.len())
                                .map_err(|e| e.to_string())
                        });
                match written {
                    Ok(bytes) => {
                        self.windows.forms.export_chronicle = None;
                        let whose = side
                            .as_ref()
                            .and_then(|s| session.campaign().side(s))
                            .map_or_else(|| "the umpire's".to_owned(), |s| format!("{}'s", s.name));
                        self.notes.note(format!(
                            "Wrote {whose} chronicle to {} ({} KB): a page to read in any browser.",
                            path.display(),
                            bytes.div_ceil(1024)
                        ));
                    }
                    Err(why) => self.notes.error(format!("The chronicle was not written: {why}")),
                }
            }
            Command::ExportReport { side, path } => {
                if let Some(why) = export_refusal(self.session.as_ref(), &path, "report") {
                    self.notes.error(why);
                    return;
                }
                let Some(session) = self.session.as_ref() else {
                    return;
                };
                // Odds to fight first (1,000 battles each): on another thread,
                // so the window does not wait for them.
                if crate::desk::report_needs_odds(session.campaign(), &side, &path) {
                    if self.export.is_some() {
                        self.notes
                            .error("A report is still being written: wait for it, then export again.");
                        return;
                    }
                    let (campaign, log) = (session.campaign().clone(), session.events().to_vec());
                    let (tx, rx) = mpsc::channel();
                    let repaint = self.ctx.clone();
                    std::thread::spawn(move || {
                        let done = match crate::desk::report_text(&campaign, &log, &side, &path) {
                            None => Err(format!("The campaign has no side `{side}` to report on.")),
                            Some((report, text)) => match crate::files::write_file(&path, text.as_bytes()) {
                                Ok(_) => Ok(written_report(&report, &path)),
                                Err(why) => Err(format!("The report was not written: {why}")),
                            },
                        };
                        let _ = tx.send(done);
                        repaint.request_repaint();
                    });
                    self.export = Some(rx);
                    self.windows.forms.export_report = None;
                    self.notes
                        .note("Working out the battles' odds for the report page…");
                    return;
                }
                let Some((report, text)) =
                    crate::desk::report_text(session.campaign(), session.events(), &side, &path)
                else {
                    self.notes
                        .error(format!("The campaign has no side `{side}` to report on."));
                    return;
                };
                match crate::files::write_file(&path, text.as_bytes()) {
                    Ok(_) => {
                        self.windows.forms.export_report = None;
                        self.notes.note(written_report(&report, &path));
                    }
                    Err(why) => self.notes.error(format!("The report was not written: {why}")),
                }
            }
            Command::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            Command::MapMaker(start) => self.windows.maker = Some(MapMaker::start(start)),
            Command::View(command) => {
                let shift = self
                    .windows
                    .seat
                    .apply(self.session.as_mut(), &mut self.notes, command);
                self.shift(shift);
            }
        }
    }

    fn after(&mut self, result: Result<Applied, Refusal>) {
        match result {
            Ok(Applied::Ordered(text)) | Ok(Applied::Undone(text)) | Ok(Applied::Redone(text)) => {
                self.notes.done(text);
            }
            Ok(Applied::Edited(text)) => {
                self.notes.done(text);
                self.forget_vanished_selection();
            }
            Ok(Applied::TurnResolved { turn, events }) => {
                let events = self.windows.seat.heard_summary(self.session.as_ref(), events);
                self.notes
                    .done(format!("Game move {turn} resolved: {} events.", events.len()));
                self.windows.summary = Some((turn, events));
                self.windows.order.split = Default::default();
                self.forget_vanished_selection();
            }
            Ok(Applied::PackWritten { battle, files }) => {
                let folder = files
                    .first()
                    .and_then(|f| f.parent())
                    .map_or_else(String::new, |d| d.display().to_string());
                let names: Vec<String> = files
                    .iter()
                    .filter_map(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
                    .collect();
                self.notes.done(format!(
                    "Battle pack for battle {battle} written to {folder}: {}.",
                    names.join(", ")
                ));
            }
            Ok(Applied::BattleFought { battle, events }) => {
                let said = events
                    .iter()
                    .find(|e| matches!(e.kind, crate::model::EventKind::BattleFought(_)))
                    .map_or_else(|| format!("Battle {battle} decided."), |e| e.sentence.clone());
                self.notes.done(said);
                let desk = &mut self.windows.battles;
                if desk.form.as_ref().is_some_and(|f| f.battle == battle) {
                    desk.form = None;
                }
                desk.fought = Some((battle, events));
                if self.selection == Selection::Battle(battle) {
                    self.selection = Selection::None;
                }
                self.forget_vanished_selection();
            }
            Err(refusal) => self.notes.error(refusal.to_string()),
        }
    }

    /// Loads the open save's background picture into a texture, once per save.
    fn load_background(&mut self, ctx: &egui::Context) {
        let Some(session) = &self.session else { return };
        if self.background_for.as_deref() == Some(session.path()) {
            return;
        }
        self.background_for = Some(session.path().to_owned());
        let Some((background, png)) = session.picture() else {
            return;
        };
        match image::load_from_memory_with_format(&png, image::ImageFormat::Png) {
            Ok(picture) => {
                let rgba = picture.to_rgba8();
                let size = [rgba.width() as usize, rgba.height() as usize];
                let image = egui::ColorImage::from_rgba_unmultiplied(size, rgba.as_raw());
                let texture = ctx.load_texture("map_background", image, egui::TextureOptions::LINEAR);
                let world = egui::Rect::from_min_max(
                    egui::pos2(miles(background.left), miles(background.top)),
                    egui::pos2(miles(background.right), miles(background.bottom)),
                );
                self.map.set_background(texture, world);
            }
            Err(e) => self.notes.error(format!(
                "The map's background picture {} cannot be read ({e}); the map is drawn without it.",
                background.file
            )),
        }
    }

    /// Reloads the save if another program changed it, keeping the view.
    fn catch_up(&mut self) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        match session.catch_up() {
            Ok(None) => {}
            Ok(Some(said)) => {
                self.notes.note(said);
                self.forget_vanished_selection();
            }
            Err(refusal) => self
                .notes
                .error(format!("The save could not be read again: {refusal}")),
        }
    }

    /// Drops the selection of a force or battle the campaign no longer has.
    fn forget_vanished_selection(&mut self) {
        let Some(campaign) = self.session.as_ref().map(Session::campaign) else {
            return;
        };
        let gone = match &self.selection {
            Selection::Force(id) => campaign.force(id).is_none(),
            Selection::Battle(id) => !campaign.battles.iter().any(|b| b.id == *id),
            _ => false,
        };
        if gone {
            self.selection = Selection::None;
        }
    }

    /// Takes in a report page written on another thread, once done.
    fn poll_export(&mut self) {
        let Some(rx) = &self.export else { return };
        match rx.try_recv() {
            Ok(Ok(said)) => {
                self.export = None;
                self.notes.note(said);
            }
            Ok(Err(why)) => {
                self.export = None;
                self.notes.error(why);
            }
            Err(mpsc::TryRecvError::Empty) => {}
            Err(mpsc::TryRecvError::Disconnected) => {
                self.export = None;
                self.notes
                    .error("Writing the report failed; nothing was written.");
            }
        }
    }

    /// Whether a report page is being written on another thread.
    pub fn exporting(&self) -> bool {
        self.export.is_some()
    }

    fn poll_job(&mut self) {
        let Some(job) = &self.job else { return };
        match job.result.try_recv() {
            Ok(outcome) => {
                let work = job.work.clone();
                self.job = None;
                if let Some(session) = self.session.as_mut() {
                    let result = session.commit_turn(&work, &outcome);
                    self.after(result);
                }
            }
            Err(mpsc::TryRecvError::Empty) => {}
            Err(mpsc::TryRecvError::Disconnected) => {
                self.job = None;
                self.notes
                    .error("Resolving the game move failed; the campaign is as it was.");
            }
        }
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        let pressed = |s: KeyboardShortcut| ctx.input_mut(|i| i.consume_shortcut(&s));
        // Ctrl+Shift+Z before Ctrl+Z, which it holds.
        if pressed(keys::REDO_TOO) || pressed(keys::REDO) {
            self.commands.push(Command::Session(session::Command::Redo));
        }
        if pressed(keys::UNDO) {
            self.commands.push(Command::Session(session::Command::Undo));
        }
        if pressed(keys::END_TURN) {
            self.commands.push(Command::Session(session::Command::EndTurn));
        }
        if pressed(keys::OPEN) {
            self.windows.forms.open.get_or_insert_with(String::new);
        }
        if pressed(keys::NEW) {
            self.windows
                .forms
                .open_new_campaign(self.launch.data_folder.as_deref());
        }
        if pressed(keys::SAVE_AS) {
            self.windows.forms.save_as.get_or_insert_with(String::new);
        }
        if pressed(keys::QUIT) {
            self.commands.push(Command::Quit);
        }
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let key = |k| ctx.input_mut(|i| i.consume_key(Modifiers::NONE, k));
        if key(keys::ZOOM_TO_FIT) {
            self.map.zoom_to_fit();
        }
        if key(keys::FORCED_MARCH) {
            self.forced = !self.forced;
        }
        if key(keys::DESELECT) {
            self.selection = Selection::None;
        }
        if key(keys::HELP) {
            self.windows.help.keys = !self.windows.help.keys;
        }
    }

    /// After a few frames, asks for a picture of the window; saves it when it
    /// comes and closes the window.
    fn screenshot(&mut self, ctx: &egui::Context) {
        let Some(path) = self.launch.screenshot.clone() else {
            return;
        };
        // A served campaign is pictured once the server has answered.
        if self.windows.seat.calling() {
            ctx.request_repaint();
            return;
        }
        self.frames += 1;
        ctx.request_repaint();
        if self.frames == 5 {
            let (tx, rx) = mpsc::channel();
            let repaint = ctx.clone();
            ctx.request_screenshot(move |image| {
                let _ = tx.send(image);
                repaint.request_repaint();
            });
            self.shot = Some(rx);
        }
        let Some(image) = self.shot.as_ref().and_then(|rx| rx.try_recv().ok()) else {
            return;
        };
        let result = save_png(&image, &path);
        if let Some(report) = &self.shot_report
            && let Ok(mut slot) = report.lock()
        {
            *slot = Some(result);
        }
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }
}

impl UmpireApp {
    /// Draws the panels and windows, each lent the state it draws.
    fn panels_ui(&mut self, ui: &mut egui::Ui, ctx: &egui::Context) {
        let session = self.session.as_ref();
        let w = &mut self.windows;
        let viewing = &w.seat.viewing;
        let zoom_to_fit = panels::menu_bar_ui(
            ui,
            panels::MenuBar {
                session,
                viewing,
                seat_forms: &mut w.seat.forms,
                view: &mut self.view,
                forms: &mut w.forms,
                help: &mut w.help,
                forced: &mut self.forced,
                busy: self.job.is_some(),
                data_folder: self.launch.data_folder.as_deref(),
                pencil: &mut w.pencil.open,
                commands: &mut self.commands,
            },
        );
        if zoom_to_fit {
            self.map.zoom_to_fit();
        }
        if let Some(served) = viewing.served_umpire() {
            egui::Panel::top("served_umpire").show(ui, |ui| {
                ui.horizontal_wrapped(|ui| super::served::bar_ui(ui, served, &mut self.commands));
            });
        }
        panels::notes_ui(ui, &mut self.notes);
        super::ending::banner_ui(ui, viewing.scene(session).map(|scene| scene.campaign));
        egui::Panel::bottom("turn_log")
            .resizable(true)
            .default_size(130.0)
            .min_size(60.0)
            .show(ui, |ui| match (viewing.side_view(), viewing.served_umpire()) {
                (None, Some(served)) => super::served::log_ui(ui, served),
                (None, None) => panels::log_ui(
                    ui,
                    panels::Log {
                        session,
                        view: &mut self.view,
                        rows: &mut w.log_rows,
                        timelines: &mut w.timelines,
                    },
                ),
                (Some(view), _) => seat::log_ui(ui, view),
            });
        egui::Panel::left("forces")
            .resizable(true)
            .default_size(260.0)
            .min_size(160.0)
            .max_size(420.0)
            .show(ui, |ui| {
                panels::tree_ui(
                    ui,
                    viewing.scene(session),
                    &mut w.tree,
                    &mut self.selection,
                    &mut self.view.show_battles,
                );
            });
        egui::Panel::right("inspector")
            .resizable(true)
            .default_size(280.0)
            .min_size(180.0)
            .max_size(480.0)
            .show(ui, |ui| {
                panels::inspector_ui(
                    ui,
                    panels::Inspector {
                        scene: viewing.scene(session),
                        selection: &mut self.selection,
                        form: &mut w.order,
                        forced: &mut self.forced,
                        by: &mut self.by,
                        overlays: self.view.overlays,
                        map: &mut self.map,
                        pencil: &mut w.pencil.open,
                        commands: &mut self.commands,
                    },
                );
            });
        egui::CentralPanel::no_frame().show(ui, |ui| match viewing.scene(session) {
            Some(scene) => {
                let input = MapInput {
                    scene,
                    selection: &mut self.selection,
                    overlays: self.view.overlays,
                    forced: self.forced,
                    by: self.by,
                    pencil_reason: &w.pencil.reason,
                    commands: &mut self.commands,
                };
                self.map.map_ui(ui, input);
                if let Some(camera) = self.map.camera {
                    self.view.camera = Some((scene.source.to_owned(), camera));
                }
            }
            None => panels::welcome_ui(ui, &mut w.forms, self.launch.data_folder.as_deref()),
        });
        panels::summary_window(ctx, &mut w.summary);
        panels::file_windows(ctx, &mut w.forms, &self.view.recent, &mut self.commands);
        if viewing.is_umpire()
            && let Some(session) = session
            && w.pencil.open
        {
            super::pencil::pencil_window(
                ctx,
                session.campaign(),
                &mut w.pencil,
                &self.selection,
                &mut self.commands,
            );
        }
        if viewing.is_umpire() {
            w.battles.window(
                ctx,
                BattlesInput {
                    session,
                    show: &mut self.view.show_battles,
                    selection: &mut self.selection,
                    notes: &self.notes,
                    commands: &mut self.commands,
                },
            );
        }
        // Worked out only while the window that shows them is open.
        let house_rules = viewing
            .scene(session)
            .filter(|_| w.help.rules)
            .map(|s| crate::model::house_rules::differences(s.campaign))
            .unwrap_or_default();
        panels::help_windows(ctx, &mut w.help, &house_rules);
        panels::end_turn_warning(ctx, &mut w.end_turn, &mut self.commands);
        seat::forms_ui(ctx, &mut w.seat.forms, &mut self.commands);
        super::passphrase::passphrases_ui(
            ctx,
            &mut w.seat.forms.passphrases,
            viewing.is_umpire(),
            session,
            &mut self.commands,
        );
        if let Some(scene) = viewing.scene(session).filter(|_| !viewing.is_umpire()) {
            seat::battles_window(ctx, &scene, &mut self.view.show_battles, &mut self.selection);
        }
        // The plots read the whole log: the umpire's.
        if self.view.show_plots && viewing.is_umpire() {
            let mut open = true;
            egui::Window::new("Plots")
                .open(&mut open)
                .default_size([560.0, 520.0])
                .show(ctx, |ui| plots::plots_ui(ui, session, &mut w.timelines));
            self.view.show_plots = open;
        }
    }
}

fn save_png(image: &egui::ColorImage, path: &Path) -> Result<(), String> {
    let [w, h] = image.size;
    let bytes: Vec<u8> = image
        .pixels
        .iter()
        .flat_map(|p| p.to_srgba_unmultiplied())
        .collect();
    let buffer = image::RgbaImage::from_raw(
        u32::try_from(w).map_err(|e| e.to_string())?,
        u32::try_from(h).map_err(|e| e.to_string())?,
        bytes,
    )
    .ok_or_else(|| "the picture's size does not match its pixels".to_owned())?;
    use image::ImageEncoder;
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    let rgb = image::DynamicImage::ImageRgba8(buffer).to_rgb8();
    let mut png = Vec::new();
    PngEncoder::new_with_quality(&mut png, CompressionType::Best, FilterType::Adaptive)
        .write_image(
            rgb.as_raw(),
            rgb.width(),
            rgb.height(),
            image::ExtendedColorType::Rgb8,
        )
        .map_err(|e| e.to_string())?;
    crate::files::write_file(path, &png)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Watches the save at `path` on a thread of its own, twice a second, and
/// asks for a frame when another program has changed it, so an idle window
/// catches up within a second. The thread ends when the sender is dropped.
fn watch(path: &std::path::Path, ctx: &egui::Context) -> Option<mpsc::Sender<()>> {
    let mut watch = crate::store::Watch::open(path).ok()?;
    let (stop, stopped) = mpsc::channel::<()>();
    let ctx = ctx.clone();
    std::thread::Builder::new()
        .name("umpire-watch".to_owned())
        .spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) =
                stopped.recv_timeout(std::time::Duration::from_millis(500))
            {
                if watch.changed() {
                    ctx.request_repaint();
                }
            }
        })
        .ok()?;
    Some(stop)
}

impl eframe::App for UmpireApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.catch_up();
        self.poll_job();
        self.poll_export();
        // The map maker covers the window until closed; the campaign waits.
        if let Some(maker) = self.windows.maker.as_mut() {
            maker.frame_ui(ui);
            if maker.closed() {
                self.windows.maker = None;
                ctx.request_repaint();
            }
            self.screenshot(&ctx);
            return;
        }
        let seat = &mut self.windows.seat;
        if seat::pass_ui(
            ui,
            seat.passing.as_ref(),
            &mut seat.gate,
            self.session.as_ref(),
            &mut self.commands,
        ) {
            self.apply_commands(&ctx);
            self.screenshot(&ctx);
            return;
        }
        let shift = self.windows.seat.refresh(self.session.as_ref(), &mut self.notes);
        self.shift(shift);
        let shift = self.windows.seat.poll_served(&mut self.notes);
        self.shift(shift);
        self.load_background(&ctx);
        self.shortcuts(&ctx);
        self.panels_ui(ui, &ctx);
        self.apply_commands(&ctx);
        if self.job.is_some() || self.export.is_some() || self.windows.seat.calling() {
            ctx.request_repaint_after(std::time::Duration::from_millis(50));
        }
        self.screenshot(&ctx);
    }

    fn persist_egui_memory(&self) -> bool {
        self.launch.remember && self.launch.screenshot.is_none()
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.launch.remember && self.launch.screenshot.is_none() {
            eframe::set_value(storage, eframe::APP_KEY, &self.view);
        }
    }
}

/// Why a page (`what`: "report", "chronicle") cannot be written to `path`:
/// no campaign is open, or `path` is its save.
/// What the window says once a side's report is written to `path`.
fn written_report(report: &crate::model::report::Report, path: &std::path::Path) -> String {
    format!(
        "Wrote {}'s report for game move {} to {}{}.",
        report.side_name,
        report.turn,
        path.display(),
        if crate::desk::is_page(path) {
            ": a page to read in any browser"
        } else {
            ""
        }
    )
}

fn export_refusal(session: Option<&Session>, path: &std::path::Path, what: &str) -> Option<String> {
    match session {
        None => Some(format!(
            "No campaign is open to write a {what} of: open its save first (File > Open)."
        )),
        Some(s) if crate::files::same_file(path, s.path()) => Some(format!(
            "{} is the save itself: give the {what} another file name",
            path.display()
        )),
        Some(_) => None,
    }
}
