//! The window: menu bar, the forces tree on the left, the map in the centre,
//! the inspector on the right and the turn log at the bottom.

use super::history::Timeline;
use super::map_view::{Camera, MapInput, MapView, Overlays, miles};
use super::session::{self, Applied, Refusal, Session};
use super::{Command, Selection, panels, plots, start};
use crate::model::{Campaign, Event, StandId};
use crate::strategy::TurnOutcome;
use egui::{Key, KeyboardShortcut, Modifiers};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
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
}

/// Recent saves kept in the File menu.
const RECENT: usize = 8;

/// Maps with more regions and forces than this resolve a game move on another thread.
const THREADED_TURN: usize = 20_000;

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

/// A message at the top of the window.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    pub text: String,
    pub error: bool,
}

/// The forms of the File menu: a path typed in a small window.
#[derive(Debug, Clone, Default)]
pub struct FileForms {
    pub new_campaign: Option<(String, String)>,
    pub open: Option<String>,
    pub save_as: Option<String>,
}

/// Splitting a force: the stands ticked and the new force's id and name.
#[derive(Debug, Clone, Default)]
pub struct SplitForm {
    pub stands: BTreeSet<StandId>,
    pub id: String,
    pub name: String,
}

/// Where the screenshot's outcome is left for `ui::run`.
pub(super) type ShotReport = Arc<Mutex<Option<Result<(), String>>>>;

/// What is open in the forces tree, and its lines as last built.
#[derive(Debug, Default)]
pub struct TreeState {
    pub open_forces: std::collections::HashSet<crate::model::ForceId>,
    pub closed_sides: std::collections::HashSet<crate::model::SideId>,
    /// Counts changes of what is open.
    pub version: u64,
    pub rows: Option<((u64, u64), Vec<super::panels::TreeRow>)>,
}

/// A game move resolving on another thread.
#[derive(Debug)]
struct TurnJob {
    before: Campaign,
    result: mpsc::Receiver<TurnOutcome>,
}

/// The app.
pub struct UmpireApp {
    pub(super) session: Option<Session>,
    pub(super) view: ViewState,
    pub(super) map: MapView,
    pub(super) selection: Selection,
    /// Orders given on the map are forced marches.
    pub(super) forced: bool,
    pub(super) notes: Vec<Note>,
    /// The last game move resolved, for the summary window.
    pub(super) summary: Option<(u32, Vec<Event>)>,
    pub(super) forms: FileForms,
    pub(super) split: SplitForm,
    /// Region id typed or chosen in the inspector's "March to".
    pub(super) march_to: String,
    pub(super) merge_into: String,
    pub(super) show_rules: bool,
    pub(super) show_keys: bool,
    pub(super) timeline: Option<(u64, Timeline)>,
    /// The log rows shown: (revision, filter) and the event indexes.
    pub(super) log_rows: Option<((u64, u64), Vec<usize>)>,
    pub(super) commands: Vec<Command>,
    pub(super) tree: TreeState,
    job: Option<TurnJob>,
    /// Regions and forces above which a game move resolves on another thread.
    threaded_turn: usize,
    /// The save whose background picture the map has (or has tried to load).
    background_for: Option<PathBuf>,
    launch: Launch,
    frames: u64,
    shot: Option<mpsc::Receiver<Arc<egui::ColorImage>>>,
    shot_report: Option<ShotReport>,
    /// The battles window: odds, packs, results.
    pub(super) battles: super::battles::BattleDesk,
    /// Whose view the window shows (the umpire's or a side's), and reports.
    pub(super) seat: super::seat::Seat,
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
            map: MapView::default(),
            selection: Selection::None,
            forced: false,
            notes: Vec::new(),
            summary: None,
            forms: FileForms::default(),
            split: SplitForm::default(),
            march_to: String::new(),
            merge_into: String::new(),
            show_rules: false,
            show_keys: false,
            timeline: None,
            log_rows: None,
            commands: Vec::new(),
            tree: TreeState::default(),
            job: None,
            threaded_turn: THREADED_TURN,
            background_for: None,
            battles: super::battles::BattleDesk::default(),
            launch,
            frames: 0,
            shot: None,
            shot_report: None,
            seat: super::seat::Seat::default(),
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
            Err(refusal) => app.note_error(format!("The campaign could not be opened: {refusal}")),
        }
        let (view, report) = (app.launch.view.clone(), app.launch.report.clone());
        super::seat::launch(&mut app, view.as_deref(), report.as_deref());
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

    /// The messages shown at the top of the window.
    pub fn notes(&self) -> &[Note] {
        &self.notes
    }

    pub fn overlays_mut(&mut self) -> &mut Overlays {
        &mut self.view.overlays
    }

    /// Where a region is on the map on screen, once the map has been drawn.
    pub fn region_on_screen(&self, region: &str) -> Option<egui::Pos2> {
        self.map.screen_pos(&crate::model::RegionId::new(region))
    }

    /// Where a force's counter is on screen, once the map has been drawn.
    pub fn counter_on_screen(&self, force: &str) -> Option<egui::Pos2> {
        let campaign = self.seat.scene(self.session.as_ref())?.campaign;
        self.map.counter_pos(&crate::model::ForceId::new(force), campaign)
    }

    /// Whether the map has a background picture to draw.
    pub fn has_background(&self) -> bool {
        self.map.has_background()
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

    fn adopt(&mut self, session: Session) {
        let path = session.path().to_owned();
        self.view.recent.retain(|p| p != &path);
        self.view.recent.insert(0, path.clone());
        self.view.recent.truncate(RECENT);
        self.view.last_save = Some(path.clone());
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
        self.timeline = None;
        self.log_rows = None;
        self.tree = TreeState::default();
        self.summary = None;
        self.session = Some(session);
        // A save opens in the umpire's view.
        self.seat = super::seat::Seat::default();
    }

    pub(super) fn note(&mut self, text: impl Into<String>) {
        self.notes.retain(|n| n.error);
        self.notes.push(Note {
            text: text.into(),
            error: false,
        });
    }

    pub(super) fn note_error(&mut self, text: impl Into<String>) {
        self.notes.push(Note {
            text: text.into(),
            error: true,
        });
        if self.notes.len() > 4 {
            self.notes.remove(0);
        }
    }

    /// The history, computed once per change of the log.
    pub(super) fn timeline(&mut self) -> Option<&Timeline> {
        let session = self.session.as_ref()?;
        let revision = session.revision();
        if self.timeline.as_ref().is_none_or(|(r, _)| *r != revision) {
            self.timeline = Some((revision, Timeline::of(session.campaign(), session.events())));
        }
        self.timeline.as_ref().map(|(_, t)| t)
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
        // A side's view screens what goes to the save; a report takes its own orders.
        let command = match command {
            Command::Session(c) => match super::seat::screen(self, c) {
                Some(c) => Command::Session(c),
                None => return,
            },
            other => other,
        };
        match command {
            Command::Session(session::Command::EndTurn) if self.job.is_some() => {
                self.note_error("A game move is being resolved already; wait for it.");
            }
            Command::Session(session::Command::EndTurn)
                if self.session.as_ref().is_some_and(|s| {
                    let c = s.campaign();
                    c.map.regions.len() + c.forces.len() > self.threaded_turn
                }) =>
            {
                if let Some(session) = &self.session {
                    let (before, orders) = session.turn_work();
                    let (tx, rx) = mpsc::channel();
                    let work = before.clone();
                    let ctx = ctx.clone();
                    std::thread::spawn(move || {
                        let outcome = crate::strategy::resolve(&work, &orders);
                        // The window may have closed meanwhile; nothing to do then.
                        let _ = tx.send(outcome);
                        ctx.request_repaint();
                    });
                    self.job = Some(TurnJob { before, result: rx });
                    self.note(format!("Resolving game move {}…", session.campaign().turn));
                }
            }
            Command::Session(command) => {
                let Some(session) = self.session.as_mut() else {
                    self.note_error("No campaign is open: open a save or start a new campaign (File menu).");
                    return;
                };
                let result = session.apply(&command);
                self.after(result);
            }
            Command::NewCampaign { campaign, save } => match Session::create_from_file(&campaign, &save) {
                Ok(session) => {
                    self.forms.new_campaign = None;
                    self.note(format!("Created {} from {}.", save.display(), campaign.display()));
                    self.adopt(session);
                }
                Err(refusal) => self.note_error(refusal.to_string()),
            },
            Command::Open(path) => match Session::open(&path) {
                Ok(session) => {
                    self.forms.open = None;
                    self.note(format!("Opened {}.", path.display()));
                    self.adopt(session);
                }
                Err(refusal) => self.note_error(refusal.to_string()),
            },
            Command::SaveAs(path) => {
                let Some(session) = self.session.as_mut() else {
                    self.note_error("No campaign is open to save.");
                    return;
                };
                match session.save_as(&path) {
                    Ok(()) => {
                        self.forms.save_as = None;
                        self.note(format!("Saved a copy as {}; going on in it.", path.display()));
                        let path = path.clone();
                        self.view.recent.retain(|p| p != &path);
                        self.view.recent.insert(0, path.clone());
                        self.view.last_save = Some(path);
                    }
                    Err(refusal) => self.note_error(refusal.to_string()),
                }
            }
            Command::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            Command::View(command) => super::seat::apply(self, command),
        }
    }

    fn after(&mut self, result: Result<Applied, Refusal>) {
        match result {
            Ok(Applied::Ordered(text)) | Ok(Applied::Undone(text)) | Ok(Applied::Redone(text)) => {
                self.notes.retain(|n| !n.error);
                self.note(text);
            }
            Ok(Applied::TurnResolved { turn, events }) => {
                let events = super::seat::heard_summary(self, events);
                self.notes.retain(|n| !n.error);
                self.note(format!("Game move {turn} resolved: {} events.", events.len()));
                self.summary = Some((turn, events));
                self.split = SplitForm::default();
                if let Selection::Force(id) = &self.selection
                    && self
                        .session
                        .as_ref()
                        .is_some_and(|s| s.campaign().force(id).is_none())
                {
                    self.selection = Selection::None;
                }
            }
            Ok(Applied::PackWritten { battle, files }) => {
                self.notes.retain(|n| !n.error);
                let folder = files
                    .first()
                    .and_then(|f| f.parent())
                    .map_or_else(String::new, |d| d.display().to_string());
                let names: Vec<String> = files
                    .iter()
                    .filter_map(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
                    .collect();
                self.note(format!(
                    "Battle pack for battle {battle} written to {folder}: {}.",
                    names.join(", ")
                ));
            }
            Ok(Applied::BattleFought { battle, events }) => {
                self.notes.retain(|n| !n.error);
                let said = events
                    .iter()
                    .find(|e| matches!(e.kind, crate::model::EventKind::BattleFought(_)))
                    .map_or_else(|| format!("Battle {battle} decided."), |e| e.sentence.clone());
                self.note(said);
                if self.battles.form.as_ref().is_some_and(|f| f.battle == battle) {
                    self.battles.form = None;
                }
                self.battles.fought = Some((battle, events));
                if self.selection == Selection::Battle(battle) {
                    self.selection = Selection::None;
                }
                if let Selection::Force(id) = &self.selection
                    && self
                        .session
                        .as_ref()
                        .is_some_and(|s| s.campaign().force(id).is_none())
                {
                    self.selection = Selection::None;
                }
            }
            Err(refusal) => self.note_error(refusal.to_string()),
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
            Err(e) => self.note_error(format!(
                "The map's background picture {} cannot be read ({e}); the map is drawn without it.",
                background.file
            )),
        }
    }

    fn poll_job(&mut self) {
        let Some(job) = &self.job else { return };
        match job.result.try_recv() {
            Ok(outcome) => {
                let before = job.before.clone();
                self.job = None;
                if let Some(session) = self.session.as_mut() {
                    let result = session.commit_turn(&before, &outcome);
                    self.after(result);
                }
            }
            Err(mpsc::TryRecvError::Empty) => {}
            Err(mpsc::TryRecvError::Disconnected) => {
                self.job = None;
                self.note_error("Resolving the game move failed; the campaign is as it was.");
            }
        }
    }

    pub(super) fn busy(&self) -> bool {
        self.job.is_some()
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        let command = |key| KeyboardShortcut::new(Modifiers::COMMAND, key);
        let shift = |key| KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, key);
        let pressed = |s: KeyboardShortcut| ctx.input_mut(|i| i.consume_shortcut(&s));
        if pressed(shift(Key::Z)) || pressed(command(Key::Y)) {
            self.commands.push(Command::Session(session::Command::Redo));
        }
        if pressed(command(Key::Z)) {
            self.commands.push(Command::Session(session::Command::Undo));
        }
        if pressed(command(Key::E)) {
            self.commands.push(Command::Session(session::Command::EndTurn));
        }
        if pressed(command(Key::O)) {
            self.forms.open.get_or_insert_with(String::new);
        }
        if pressed(command(Key::N)) {
            self.open_new_campaign_form();
        }
        if pressed(shift(Key::S)) {
            self.forms.save_as.get_or_insert_with(String::new);
        }
        if pressed(command(Key::Q)) {
            self.commands.push(Command::Quit);
        }
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let key = |k| ctx.input_mut(|i| i.consume_key(Modifiers::NONE, k));
        if key(Key::Home) {
            self.map.zoom_to_fit();
        }
        if key(Key::F) {
            self.forced = !self.forced;
        }
        if key(Key::Escape) {
            self.selection = Selection::None;
        }
        if key(Key::F1) {
            self.show_keys = !self.show_keys;
        }
    }

    pub(super) fn open_new_campaign_form(&mut self) {
        let folder = self.launch.data_folder.clone().or_else(session::data_folder);
        let save = folder.map_or_else(
            || "campaign.umpire".to_owned(),
            |f| f.join("campaign.umpire").display().to_string(),
        );
        self.forms
            .new_campaign
            .get_or_insert_with(|| ("campaigns/egyptian_rebellion_1895.toml".to_owned(), save));
    }

    /// After a few frames, asks for a picture of the window; saves it when it
    /// comes and closes the window.
    fn screenshot(&mut self, ctx: &egui::Context) {
        let Some(path) = self.launch.screenshot.clone() else {
            return;
        };
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
    let file = std::fs::File::create(path).map_err(|e| e.to_string())?;
    PngEncoder::new_with_quality(
        std::io::BufWriter::new(file),
        CompressionType::Best,
        FilterType::Adaptive,
    )
    .write_image(
        rgb.as_raw(),
        rgb.width(),
        rgb.height(),
        image::ExtendedColorType::Rgb8,
    )
    .map_err(|e| e.to_string())
}

impl eframe::App for UmpireApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.poll_job();
        if super::seat::pass_ui(self, ui) {
            self.apply_commands(&ctx);
            self.screenshot(&ctx);
            return;
        }
        super::seat::refresh(self);
        self.load_background(&ctx);
        self.shortcuts(&ctx);
        panels::menu_bar_ui(self, ui);
        panels::notes_ui(self, ui);
        egui::Panel::bottom("turn_log")
            .resizable(true)
            .default_size(130.0)
            .min_size(60.0)
            .show(ui, |ui| {
                if self.seat.viewing.is_umpire() {
                    panels::log_ui(self, ui);
                } else {
                    super::seat::log_ui(self, ui);
                }
            });
        egui::Panel::left("forces")
            .resizable(true)
            .default_size(260.0)
            .min_size(160.0)
            .max_size(420.0)
            .show(ui, |ui| panels::tree_ui(self, ui));
        egui::Panel::right("inspector")
            .resizable(true)
            .default_size(280.0)
            .min_size(180.0)
            .max_size(480.0)
            .show(ui, |ui| panels::inspector_ui(self, ui));
        egui::CentralPanel::no_frame().show(ui, |ui| match self.seat.scene(self.session.as_ref()) {
            Some(scene) => {
                let input = MapInput {
                    scene,
                    selection: &mut self.selection,
                    overlays: self.view.overlays,
                    forced: self.forced,
                    commands: &mut self.commands,
                };
                self.map.map_ui(ui, input);
                if let Some(camera) = self.map.camera {
                    self.view.camera = Some((scene.source.to_owned(), camera));
                }
            }
            None => panels::welcome_ui(self, ui),
        });
        panels::windows_ui(self, &ctx);
        super::seat::windows_ui(self, &ctx);
        // The plots read the whole log: the umpire's.
        if self.view.show_plots && self.seat.viewing.is_umpire() {
            let mut open = true;
            egui::Window::new("Plots")
                .open(&mut open)
                .default_size([560.0, 520.0])
                .show(&ctx, |ui| plots::plots_ui(self, ui));
            self.view.show_plots = open;
        }
        self.apply_commands(&ctx);
        if self.job.is_some() {
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
