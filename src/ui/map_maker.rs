//! The map maker: a mode of the window that draws a map file (File > New map,
//! File > Edit a map file…, or `umpire --edit-map FILE`). Regions are added by
//! clicking the empty map, moved by dragging, edited in the side panel; roads
//! are drawn by clicking one region then another. Every change is one undo
//! step (`model::map_edit::MapEdits`), and after each the map is written as a
//! map file and checked as `umpire check` checks it, the problems listed and
//! ringed in red on the map. It never touches a campaign in play (the pencil
//! does that).
//!
//! Like the rest of the window it draws from state and asks for changes with
//! a [`MakerCommand`], applied after the frame.

use super::campaign_sketch::{Palette, SketchCommand, Sketching};
use super::keys;
use super::map_view::{Camera, fit, miles, paint_scale_bar, pan_and_zoom};
use super::state::Notes;
use super::theme;
use crate::model::map_edit::{self, MapEdits, Problem, ProblemAt};
use crate::model::{Background, Feature, Map, MapPoint, Region, RiverCrossing, Road, RoadKind, Terrain};
use egui::{Align2, Color32, FontId, Key, Pos2, Rect, Sense, Shape, Stroke, Ui, pos2, vec2};
use std::path::{Path, PathBuf};

/// How the map maker starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// On a new, empty map.
    New,
    /// On a new map, with the form to open a map file up.
    AskForFile,
    /// On a map file.
    File(PathBuf),
}

/// What is selected on the map being drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Picked {
    /// Nothing: the side panel shows the map's own fields.
    #[default]
    None,
    Region(usize),
    Road(usize),
}

/// What a click on the map does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tool {
    /// Click the empty map to add a region; click a region to select it, drag to move it.
    #[default]
    Regions,
    /// Click one region, then another, to join them by a road of the chosen kind.
    Roads,
    /// Set out a new campaign on the map: sides, HQs and forces dragged from a palette.
    Campaign,
}

/// A change to the map being drawn.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    AddRegion(MapPoint),
    MoveRegion(usize, MapPoint),
    RenameRegion(usize, String),
    SetRegionId(usize, String),
    /// The region's other fields (terrain, features, position).
    SetRegion(usize, Region),
    DeleteRegion(usize),
    AddRoad(usize, usize, RoadKind),
    SetRoad(usize, Road),
    DeleteRoad(usize),
    SetName(String),
    SetDescription(Option<String>),
    SetBackground(Option<Background>),
}

/// What the map maker asks for; applied after the frame, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum MakerCommand {
    /// A change to the map; `merge`: changes with the same key in a row are
    /// one undo step (typing a name, dragging a region).
    Edit {
        edit: Edit,
        merge: Option<String>,
    },
    /// Ends the undo step a drag or typing is in.
    EndStep,
    Undo,
    Redo,
    Select(Picked),
    Tool(Tool),
    RoadKind(RoadKind),
    /// Starts (or ends) a road at a region.
    RoadEnd(usize),
    CancelRoad,
    New,
    Open(PathBuf),
    Save,
    SaveAs(PathBuf),
    Close,
    ZoomToFit,
    /// Centres the map on a region or road.
    Show(Picked),
    /// A change to the campaign being set out (the Campaign tool).
    Sketch(SketchCommand),
}

impl MakerCommand {
    fn edit(edit: Edit) -> MakerCommand {
        MakerCommand::Edit { edit, merge: None }
    }

    fn merged(edit: Edit, merge: String) -> MakerCommand {
        MakerCommand::Edit {
            edit,
            merge: Some(merge),
        }
    }
}

/// The background picture loaded for the map, by the file it came from.
struct Picture {
    from: Option<PathBuf>,
    texture: Option<egui::TextureHandle>,
    problem: Option<String>,
}

impl std::fmt::Debug for Picture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Picture")
            .field("from", &self.from)
            .field("loaded", &self.texture.is_some())
            .field("problem", &self.problem)
            .finish()
    }
}

/// Region discs' radius on screen, in points.
const REGION_RADIUS: f32 = 7.0;
/// How near a click must be to a road's line to pick it, in points.
const ROAD_PICK: f32 = 6.0;
/// Above this many regions in view the map is drawn as dots and lines, without names.
const DENSE: usize = 1500;
/// A check slower than this waits for the edits to pause for `CHECK_PAUSE`.
const SLOW_CHECK: std::time::Duration = std::time::Duration::from_millis(150);
const CHECK_PAUSE: std::time::Duration = std::time::Duration::from_millis(400);
/// The part of the map a new, empty map shows, in miles.
const EMPTY_MAP_MILES: f32 = 100.0;

/// The map maker's state: the map with its undo stack, the file, what is
/// selected, the tool, the last check's problems and the forms.
#[derive(Debug)]
pub struct MapMaker {
    edits: MapEdits,
    path: Option<PathBuf>,
    /// The revision last saved or opened; unsaved changes when it differs.
    saved: Option<u64>,
    picked: Picked,
    tool: Tool,
    road_kind: RoadKind,
    /// The region a road being drawn starts at.
    road_from: Option<usize>,
    camera: Option<Camera>,
    rect: Rect,
    problems: Vec<Problem>,
    checked: Option<u64>,
    picture: Picture,
    show_names: bool,
    show_picture: bool,
    /// The region being dragged.
    dragging: Option<usize>,
    /// A region was just added: its name field takes the keyboard, the name
    /// selected, so typing names it.
    focus_name: bool,
    /// The File menu's forms: the path typed.
    open_form: Option<String>,
    save_form: Option<String>,
    /// A form was just opened: its field takes the keyboard.
    form_fresh: bool,
    /// A discard of unsaved changes was warned of: the next one goes ahead.
    discard_warned: bool,
    notes: Notes,
    commands: Vec<MakerCommand>,
    closed: bool,
    /// A new campaign being set out on the map (the Campaign tool), once begun.
    sketching: Option<Sketching>,
    /// The keyboard shortcuts window is open.
    show_keys: bool,
    /// How long the last check took, and when the map last changed (the
    /// revision then): a slow check waits for the edits to pause.
    check_cost: std::time::Duration,
    changed_at: std::time::Instant,
    seen_revision: u64,
    /// Each region's place in map miles, by id, for the revision it was made
    /// for: roads find their ends without searching the regions.
    places: std::collections::HashMap<crate::model::RegionId, Pos2>,
    places_for: Option<u64>,
}

impl MapMaker {
    /// The map maker on a new map, or on a map file (or with the form to pick one).
    pub fn start(start: Start) -> MapMaker {
        let mut maker = MapMaker {
            edits: MapEdits::new(blank_map()),
            path: None,
            saved: None,
            picked: Picked::None,
            tool: Tool::Regions,
            road_kind: RoadKind::Road,
            road_from: None,
            camera: None,
            rect: Rect::NOTHING,
            problems: Vec::new(),
            checked: None,
            picture: Picture {
                from: None,
                texture: None,
                problem: None,
            },
            show_names: true,
            show_picture: true,
            dragging: None,
            focus_name: false,
            open_form: None,
            save_form: None,
            form_fresh: false,
            discard_warned: false,
            notes: Notes::default(),
            commands: Vec::new(),
            closed: false,
            sketching: None,
            show_keys: false,
            check_cost: std::time::Duration::ZERO,
            changed_at: std::time::Instant::now(),
            seen_revision: 0,
            places: std::collections::HashMap::new(),
            places_for: None,
        };
        match start {
            Start::New => maker.notes.note(
                "A new map: click the empty map to add a region. Nothing is written until you save (Ctrl+S).",
            ),
            Start::AskForFile => maker.ask_open(),
            Start::File(path) => maker.open(&path),
        }
        maker
    }

    pub fn map(&self) -> &Map {
        self.edits.map()
    }

    /// The map file being edited, once opened or saved.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The problems `umpire check` finds on the map as it stands, as of the last frame.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    pub fn picked(&self) -> Picked {
        self.picked
    }

    pub fn tool(&self) -> Tool {
        self.tool
    }

    pub fn can_undo(&self) -> bool {
        self.edits.can_undo()
    }

    pub fn can_redo(&self) -> bool {
        self.edits.can_redo()
    }

    /// Whether the map has changes not saved.
    pub fn unsaved(&self) -> bool {
        self.saved != Some(self.edits.revision())
    }

    /// The campaign being set out with the Campaign tool, once begun.
    pub fn sketching(&self) -> Option<&Sketching> {
        self.sketching.as_ref()
    }

    /// Whether the map maker was closed: the window goes back to the campaign.
    pub fn closed(&self) -> bool {
        self.closed
    }

    /// The messages at the top of the map maker.
    pub fn notes(&self) -> &[super::state::Note] {
        self.notes.all()
    }

    /// Queues a command, as the map maker's widgets do.
    pub fn send(&mut self, command: MakerCommand) {
        self.commands.push(command);
    }

    /// Where the map was drawn on screen last frame.
    pub fn map_rect(&self) -> Rect {
        self.rect
    }

    /// Where a region (by id) is on screen, once the map has been drawn.
    pub fn region_on_screen(&self, id: &str) -> Option<Pos2> {
        let camera = self.camera?;
        let region = self.map().regions.iter().find(|r| r.id.as_str() == id)?;
        Some(to_screen(camera, self.rect, world(region)))
    }

    /// Where a map point (miles) is on screen, once the map has been drawn.
    pub fn point_on_screen(&self, at: MapPoint) -> Option<Pos2> {
        let camera = self.camera?;
        Some(to_screen(camera, self.rect, pos2(miles(at[0]), miles(at[1]))))
    }

    /// Reads a map file to edit; a file that does not pass the check is not
    /// taken, and its problems are said.
    fn open(&mut self, path: &Path) {
        let checked = crate::files::load_map(path);
        match checked.value {
            Some(map) => {
                self.edits = MapEdits::new(map);
                self.path = Some(path.to_owned());
                self.saved = Some(self.edits.revision());
                self.picked = Picked::None;
                self.road_from = None;
                self.camera = None;
                self.checked = None;
                self.open_form = None;
                self.notes.done(format!(
                    "Opened {}: {} regions, {} roads.",
                    path.display(),
                    self.map().regions.len(),
                    self.map().roads.len()
                ));
            }
            None => {
                let errors: Vec<String> = checked
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .take(3)
                    .map(ToString::to_string)
                    .collect();
                self.notes.error(format!(
                    "{} cannot be edited until `umpire check` passes it: {}",
                    path.display(),
                    errors.join("; ")
                ));
            }
        }
    }

    /// Writes the map to `path` and reads it back to be sure it is the same map.
    fn save(&mut self, path: &Path) {
        let text = match crate::model::map_file::map_file_text(self.map(), map_edit::WRITTEN_BY) {
            Ok(text) => text,
            Err(e) => {
                self.notes.error(format!("The map was not saved: {e}"));
                return;
            }
        };
        if let Err(e) = crate::files::write_file(path, text.as_bytes()) {
            self.notes.error(format!("The map was not saved: {e}"));
            return;
        }
        self.path = Some(path.to_owned());
        self.saved = Some(self.edits.revision());
        self.save_form = None;
        self.picture.from = None;
        let errors = self.problems.iter().filter(|p| p.error).count();
        let back = crate::files::load_map(path).value;
        if errors > 0 {
            self.notes.error(format!(
                "Saved {}, with {errors} problem{} that `umpire check` refuses: mend {} (listed at the right) before a campaign can use the map.",
                path.display(),
                if errors == 1 { "" } else { "s" },
                if errors == 1 { "it" } else { "them" }
            ));
        } else if back.as_ref() != Some(self.map()) {
            self.notes.error(format!(
                "Saved {}, but it does not read back as the same map: please report this.",
                path.display()
            ));
        } else {
            self.notes.done(format!(
                "Saved {} ({} regions, {} roads); `umpire check` passes it.",
                path.display(),
                self.map().regions.len(),
                self.map().roads.len()
            ));
        }
    }

    /// Whether unsaved changes may be dropped now: warns once first.
    fn may_discard(&mut self) -> bool {
        if !self.unsaved() || self.edits.revision() == 0 && self.path.is_none() || self.discard_warned {
            self.discard_warned = false;
            return true;
        }
        self.discard_warned = true;
        self.notes
            .error("The map has unsaved changes: save it (File > Save map), or ask again to drop them.");
        false
    }

    /// Draws the map maker over the whole window and carries out what it asked.
    pub fn frame_ui(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        if self.places_for != Some(self.edits.revision()) {
            self.places_for = Some(self.edits.revision());
            self.places = self
                .map()
                .regions
                .iter()
                .map(|r| (r.id.clone(), world(r)))
                .collect();
        }
        // The window closed with the map unsaved: warned once, as Close is.
        if ctx.input(|i| i.viewport().close_requested()) && !self.may_discard() {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
        }
        self.shortcuts(&ctx);
        self.check(&ctx);
        self.load_picture(&ctx);
        self.menu_bar_ui(ui);
        super::panels::notes_ui(ui, &mut self.notes);
        self.status_ui(ui);
        egui::Panel::right("map_maker_fields")
            .resizable(true)
            .default_size(300.0)
            .min_size(220.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.fields_ui(ui));
            });
        egui::CentralPanel::no_frame().show(ui, |ui| self.map_ui(ui));
        self.forms(&ctx);
        let commands = std::mem::take(&mut self.commands);
        if !commands.is_empty() {
            ctx.request_repaint();
        }
        for command in commands {
            self.apply(command);
        }
    }

    /// Checks the map again when it changed (not while a region is dragged).
    fn check(&mut self, ctx: &egui::Context) {
        // A map whose check is slow (thousands of regions) is checked once
        // the edits pause, not after every one.
        let now = std::time::Instant::now();
        if self.seen_revision != self.edits.revision() {
            self.seen_revision = self.edits.revision();
            self.changed_at = now;
        }
        let pause = now.saturating_duration_since(self.changed_at);
        if self.check_cost > SLOW_CHECK && pause < CHECK_PAUSE && self.checked.is_some() {
            ctx.request_repaint_after(CHECK_PAUSE - pause);
            return;
        }
        let started = std::time::Instant::now();
        if let Some(sketching) = self.sketching.as_mut() {
            sketching.check(self.edits.map(), self.edits.revision());
        }
        if self.checked == Some(self.edits.revision()) || self.dragging.is_some() {
            return;
        }
        self.checked = Some(self.edits.revision());
        self.problems = map_edit::problems(self.map());
        self.check_cost = started.elapsed();
        if let Some(why) = &self.picture.problem
            && self.map().background.is_some()
        {
            self.problems.push(Problem {
                at: ProblemAt::Background,
                error: false,
                message: why.clone(),
            });
        }
    }

    /// Loads the background picture beside the map file when its file changed.
    fn load_picture(&mut self, ctx: &egui::Context) {
        let want = self
            .map()
            .background
            .as_ref()
            .map(|b| (self.path.clone(), b.file.clone()));
        let from = want
            .as_ref()
            .map(|(dir, file)| picture_path(dir.as_deref(), file));
        if from == self.picture.from && (from.is_some() || self.picture.texture.is_none()) {
            return;
        }
        self.picture = Picture {
            from: from.clone(),
            texture: None,
            problem: None,
        };
        self.checked = None;
        let Some(from) = from else { return };
        let loaded = crate::files::read_picture(&from)
            .map_err(|d| d.message)
            .and_then(|png| {
                image::load_from_memory_with_format(&png, image::ImageFormat::Png).map_err(|e| e.to_string())
            });
        match loaded {
            Ok(picture) => {
                let rgba = picture.to_rgba8();
                let size = [rgba.width() as usize, rgba.height() as usize];
                let image = egui::ColorImage::from_rgba_unmultiplied(size, rgba.as_raw());
                self.picture.texture =
                    Some(ctx.load_texture("map_maker_background", image, egui::TextureOptions::LINEAR));
            }
            Err(why) => {
                let beside = if self.path.is_none() {
                    " (save the map first: the picture goes in the map file's folder)"
                } else {
                    ""
                };
                self.picture.problem = Some(format!(
                    "[background] picture {} not loaded: {why}{beside}; the map is drawn without it",
                    from.display()
                ));
            }
        }
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        let pressed = |s: egui::KeyboardShortcut| ctx.input_mut(|i| i.consume_shortcut(&s));
        if pressed(keys::REDO_TOO) || pressed(keys::REDO) {
            self.commands.push(MakerCommand::Redo);
        }
        if pressed(keys::UNDO) {
            self.commands.push(MakerCommand::Undo);
        }
        if pressed(keys::SAVE_AS) {
            self.ask_save_as();
        }
        if pressed(keys::SAVE) {
            self.commands.push(MakerCommand::Save);
        }
        if pressed(keys::OPEN) {
            self.ask_open();
        }
        if pressed(keys::NEW) {
            self.commands.push(MakerCommand::New);
        }
        if pressed(keys::QUIT) {
            // Closing asks about unsaved changes first (`frame_ui`).
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let key = |k| ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, k));
        if key(keys::DESELECT) {
            self.commands.push(if self.road_from.is_some() {
                MakerCommand::CancelRoad
            } else {
                MakerCommand::Select(Picked::None)
            });
        }
        if key(Key::Delete) || key(Key::Backspace) {
            self.delete_picked();
        }
        if key(keys::ZOOM_TO_FIT) {
            self.commands.push(MakerCommand::ZoomToFit);
        }
        if key(keys::MAKER_REGIONS) {
            self.commands.push(MakerCommand::Tool(Tool::Regions));
        }
        if key(keys::MAKER_ROADS) {
            self.commands.push(MakerCommand::Tool(Tool::Roads));
        }
        if key(keys::MAKER_CAMPAIGN) {
            self.commands.push(MakerCommand::Tool(Tool::Campaign));
        }
        if key(keys::HELP) {
            self.show_keys = !self.show_keys;
        }
    }

    fn delete_picked(&mut self) {
        match self.picked {
            Picked::Region(i) => self.commands.push(MakerCommand::edit(Edit::DeleteRegion(i))),
            Picked::Road(i) => self.commands.push(MakerCommand::edit(Edit::DeleteRoad(i))),
            Picked::None => {}
        }
    }

    fn ask_save_as(&mut self) {
        let suggested = self.path.as_ref().map_or_else(
            || {
                let name = map_edit::id_from_name(&self.map().name).unwrap_or_else(|| "my_map".to_owned());
                format!("maps/{name}.toml")
            },
            |p| p.display().to_string(),
        );
        self.save_form.get_or_insert(suggested);
        self.form_fresh = true;
    }

    fn ask_open(&mut self) {
        self.open_form.get_or_insert_with(|| "maps/".to_owned());
        self.form_fresh = true;
    }

    fn apply(&mut self, command: MakerCommand) {
        match command {
            MakerCommand::Edit { edit, merge } => self.apply_edit(edit, merge.as_deref()),
            MakerCommand::EndStep => self.edits.end_step(),
            MakerCommand::Undo => {
                if self.edits.undo() {
                    self.notes.note("Undone.");
                } else {
                    self.notes.note("Nothing to undo.");
                }
                self.after_undo();
            }
            MakerCommand::Redo => {
                if self.edits.redo() {
                    self.notes.note("Redone.");
                } else {
                    self.notes.note("Nothing to redo.");
                }
                self.after_undo();
            }
            MakerCommand::Select(picked) => {
                self.picked = picked;
                self.road_from = None;
                self.focus_name = false;
            }
            MakerCommand::Tool(tool) => {
                self.tool = tool;
                self.road_from = None;
                if tool == Tool::Campaign && self.sketching.is_none() {
                    self.sketching = Some(Sketching::new(self.edits.map()));
                }
            }
            MakerCommand::Sketch(command) => {
                let map_path = match (&self.path, self.unsaved()) {
                    (Some(path), false) => Ok(path.as_path()),
                    _ => Err(
                        "Save the map first (File > Save map): the campaign file names the map file, as saved.",
                    ),
                };
                if let Some(sketching) = self.sketching.as_mut() {
                    sketching.apply(command, self.edits.map(), map_path, &mut self.notes);
                }
            }
            MakerCommand::RoadKind(kind) => {
                self.road_kind = kind;
                self.tool = Tool::Roads;
            }
            MakerCommand::RoadEnd(region) => match self.road_from {
                Some(from) if from != region => {
                    self.apply_edit(Edit::AddRoad(from, region, self.road_kind), None);
                    // Goes on from the region reached: a network is drawn click by click.
                    self.road_from = Some(region);
                }
                _ => {
                    self.road_from = Some(region);
                    self.picked = Picked::Region(region);
                }
            },
            MakerCommand::CancelRoad => self.road_from = None,
            MakerCommand::New => {
                if self.may_discard() {
                    *self = MapMaker::start(Start::New);
                }
            }
            MakerCommand::Open(path) => {
                if self.may_discard() {
                    self.open(&path);
                }
            }
            MakerCommand::Save => match self.path.clone() {
                Some(path) => self.save(&path),
                None => self.ask_save_as(),
            },
            MakerCommand::SaveAs(path) => self.save(&path),
            MakerCommand::Close => {
                if self.may_discard() {
                    self.closed = true;
                }
            }
            MakerCommand::ZoomToFit => self.camera = None,
            MakerCommand::Show(picked) => {
                self.picked = picked;
                let at = match picked {
                    Picked::Region(i) => self.map().regions.get(i).map(world),
                    Picked::Road(i) => self.road_ends(i).map(|(a, b)| a.lerp(b, 0.5)),
                    Picked::None => None,
                };
                if let (Some(at), Some(camera)) = (at, self.camera.as_mut()) {
                    camera.center = [at.x, at.y];
                }
            }
        }
    }

    /// After undo or redo: a selection the map no longer has is dropped.
    fn after_undo(&mut self) {
        let map = self.edits.map();
        let gone = match self.picked {
            Picked::Region(i) => i >= map.regions.len(),
            Picked::Road(i) => i >= map.roads.len(),
            Picked::None => false,
        };
        if gone {
            self.picked = Picked::None;
        }
        if self.road_from.is_some_and(|i| i >= map.regions.len()) {
            self.road_from = None;
        }
    }

    fn apply_edit(&mut self, edit: Edit, merge: Option<&str>) {
        self.discard_warned = false;
        match edit {
            Edit::AddRegion(at) => {
                let region = map_edit::new_region(self.map(), at);
                let said = format!(
                    "Added {} (open ground): type its name now (Enter), set its ground at the right; click the map again for the next region.",
                    region.name
                );
                self.edits.change(merge, |map| map.regions.push(region));
                self.picked = Picked::Region(self.map().regions.len() - 1);
                self.focus_name = true;
                self.notes.note(said);
            }
            Edit::MoveRegion(i, to) => self.edits.change(merge, |map| map_edit::move_region(map, i, to)),
            Edit::RenameRegion(i, name) => self
                .edits
                .change(merge, |map| map_edit::rename_region(map, i, &name)),
            Edit::SetRegionId(i, id) => self
                .edits
                .change(merge, |map| map_edit::set_region_id(map, i, &id)),
            Edit::SetRegion(i, region) => self.edits.change(merge, |map| {
                if let Some(slot) = map.regions.get_mut(i) {
                    *slot = region;
                }
            }),
            Edit::DeleteRegion(i) => {
                let Some(name) = self.map().regions.get(i).map(|r| r.name.clone()) else {
                    return;
                };
                let roads = self.edits.change(merge, |map| map_edit::remove_region(map, i));
                self.picked = Picked::None;
                self.road_from = None;
                self.notes.note(format!(
                    "Deleted {name} and its {roads} road{} (Ctrl+Z brings them back).",
                    if roads == 1 { "" } else { "s" }
                ));
            }
            Edit::AddRoad(a, b, kind) => {
                let mut probe = self.map().clone();
                match map_edit::add_road(&mut probe, a, b, kind) {
                    Ok(_) => {
                        let added = self
                            .edits
                            .change(merge, |map| map_edit::add_road(map, a, b, kind));
                        if let Ok(i) = added {
                            self.picked = Picked::Road(i);
                            if let Some(road) = self.map().roads.get(i) {
                                self.notes.note(format!(
                                    "Joined {} and {} by a {kind} of {} miles, the straight line between them: set the real length at the right.",
                                    self.map().region_name(&road.from),
                                    self.map().region_name(&road.to),
                                    road.miles
                                ));
                            }
                        }
                    }
                    Err(Some(existing)) => {
                        self.picked = Picked::Road(existing);
                        self.notes.note(format!(
                            "Those two regions are joined by a {kind} already: it is selected."
                        ));
                    }
                    Err(None) => {}
                }
            }
            Edit::SetRoad(i, road) => self.edits.change(merge, |map| {
                if let Some(slot) = map.roads.get_mut(i) {
                    *slot = road;
                }
            }),
            Edit::DeleteRoad(i) => {
                if i < self.map().roads.len() {
                    self.edits.change(merge, |map| map.roads.remove(i));
                    self.picked = Picked::None;
                    self.notes.note("Deleted the road (Ctrl+Z brings it back).");
                }
            }
            Edit::SetName(name) => self.edits.change(merge, |map| map.name = name),
            Edit::SetDescription(description) => {
                self.edits.change(merge, |map| map.description = description)
            }
            Edit::SetBackground(background) => self.edits.change(merge, |map| map.background = background),
        }
    }

    // -- Drawing -------------------------------------------------------------

    fn menu_bar_ui(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        let short = |k: &egui::KeyboardShortcut| keys::text(&ctx, k);
        let mut save_as = false;
        egui::Panel::top("map_maker_menu").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                ui.menu_button("File", |ui| {
                    if ui
                        .add(egui::Button::new("New map").shortcut_text(short(&keys::NEW)))
                        .clicked()
                    {
                        self.commands.push(MakerCommand::New);
                    }
                    if ui
                        .add(egui::Button::new("Open a map file…").shortcut_text(short(&keys::OPEN)))
                        .clicked()
                    {
                        self.ask_open();
                    }
                    if ui
                        .add(egui::Button::new("Save map").shortcut_text(short(&keys::SAVE)))
                        .clicked()
                    {
                        self.commands.push(MakerCommand::Save);
                    }
                    if ui
                        .add(egui::Button::new("Save map as…").shortcut_text(short(&keys::SAVE_AS)))
                        .clicked()
                    {
                        save_as = true;
                    }
                    ui.separator();
                    if ui.button("Close the map maker").clicked() {
                        self.commands.push(MakerCommand::Close);
                    }
                    if ui
                        .add(egui::Button::new("Quit").shortcut_text(short(&keys::QUIT)))
                        .clicked()
                    {
                        ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
                    }
                });
                ui.menu_button("Edit", |ui| {
                    if ui
                        .add_enabled(
                            self.can_undo(),
                            egui::Button::new("Undo").shortcut_text(short(&keys::UNDO)),
                        )
                        .clicked()
                    {
                        self.commands.push(MakerCommand::Undo);
                    }
                    if ui
                        .add_enabled(
                            self.can_redo(),
                            egui::Button::new("Redo").shortcut_text(short(&keys::REDO)),
                        )
                        .clicked()
                    {
                        self.commands.push(MakerCommand::Redo);
                    }
                    if ui
                        .add_enabled(
                            self.picked != Picked::None,
                            egui::Button::new("Delete the selection").shortcut_text("Delete"),
                        )
                        .clicked()
                    {
                        self.delete_picked();
                    }
                });
                ui.menu_button("View", |ui| {
                    if ui
                        .add(
                            egui::Button::new("Zoom to fit").shortcut_text(keys::key_text(keys::ZOOM_TO_FIT)),
                        )
                        .clicked()
                    {
                        self.commands.push(MakerCommand::ZoomToFit);
                    }
                    ui.checkbox(&mut self.show_names, "Region names");
                    ui.checkbox(&mut self.show_picture, "Background picture");
                });
                ui.menu_button("Help", |ui| {
                    if ui
                        .add(
                            egui::Button::new("Keyboard shortcuts").shortcut_text(keys::key_text(keys::HELP)),
                        )
                        .clicked()
                    {
                        self.show_keys = true;
                    }
                });
                ui.separator();
                let file = self
                    .path
                    .as_ref()
                    .map_or_else(|| "not saved yet".to_owned(), |p| p.display().to_string());
                let star = if self.unsaved() { " (unsaved changes)" } else { "" };
                ui.strong(format!("Map maker: {}", self.map().name));
                ui.weak(format!("{file}{star}"));
            });
        });
        if save_as {
            self.ask_save_as();
        }
    }

    fn status_ui(&mut self, ui: &mut Ui) {
        let hint = match (self.tool, self.road_from) {
            (Tool::Roads, Some(from)) => format!(
                "Drawing a {}: click the region to join to {}; Esc stops.",
                self.road_kind,
                self.map().regions.get(from).map_or("", |r| r.name.as_str())
            ),
            (Tool::Roads, None) => format!(
                "Roads ({}): click a region, then the next; click a road to select it. Regions tool: {}.",
                self.road_kind,
                keys::key_text(keys::MAKER_REGIONS)
            ),
            (Tool::Campaign, _) => "Campaign: drag an HQ or a force from the palette at the right onto a region, for the side ticked; save the map, then the campaign.".to_owned(),
            (Tool::Regions, _) => format!(
                "Regions: click the empty map to add one, drag one to move it, Delete deletes the selection. Roads tool: {}. Drag the empty map to pan, wheel to zoom.",
                keys::key_text(keys::MAKER_ROADS)
            ),
        };
        let errors = self.problems.iter().filter(|p| p.error).count();
        let warnings = self.problems.len() - errors;
        egui::Panel::bottom("map_maker_status").show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label(hint);
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    let counts = format!(
                        "{} regions, {} roads",
                        self.map().regions.len(),
                        self.map().roads.len()
                    );
                    if errors > 0 {
                        ui.colored_label(theme::ERROR, format!("{} · {counts}", plural(errors, "problem")));
                    } else if warnings > 0 {
                        ui.label(format!("checks, {} · {counts}", plural(warnings, "warning")));
                    } else {
                        ui.colored_label(theme::GOOD, format!("umpire check passes · {counts}"));
                    }
                });
            });
        });
    }

    /// The side panel: tools, the selection's fields (or the map's), problems.
    fn fields_ui(&mut self, ui: &mut Ui) {
        ui.heading("Map maker");
        ui.horizontal(|ui| {
            for (tool, label, key) in [
                (Tool::Regions, "Regions", keys::MAKER_REGIONS),
                (Tool::Roads, "Roads", keys::MAKER_ROADS),
                (Tool::Campaign, "Campaign", keys::MAKER_CAMPAIGN),
            ] {
                if ui
                    .selectable_label(self.tool == tool, label)
                    .on_hover_text(format!("Key {}", keys::key_text(key)))
                    .clicked()
                {
                    self.commands.push(MakerCommand::Tool(tool));
                }
            }
            if self.tool != Tool::Campaign {
                let label = ui.label("kind");
                egui::ComboBox::from_id_salt("maker_road_kind")
                    .selected_text(self.road_kind.to_string())
                    .show_ui(ui, |ui| {
                        for kind in RoadKind::ALL {
                            if ui
                                .selectable_label(self.road_kind == *kind, kind.to_string())
                                .clicked()
                            {
                                self.commands.push(MakerCommand::RoadKind(*kind));
                            }
                        }
                    })
                    .response
                    .labelled_by(label.id);
            }
        });
        ui.separator();
        if self.tool == Tool::Campaign
            && let Some(sketching) = &self.sketching
        {
            let mut asked = Vec::new();
            sketching.panel_ui(ui, self.edits.map(), &mut asked);
            self.commands.extend(asked.into_iter().map(MakerCommand::Sketch));
            ui.separator();
            self.problems_ui(ui);
            return;
        }
        match self.picked {
            Picked::Region(i) => self.region_ui(ui, i),
            Picked::Road(i) => self.road_ui(ui, i),
            Picked::None => self.map_fields_ui(ui),
        }
        ui.separator();
        self.problems_ui(ui);
    }

    fn region_ui(&mut self, ui: &mut Ui, i: usize) {
        let Some(region) = self.map().regions.get(i).cloned() else {
            return;
        };
        ui.strong(format!("Region: {}", region.name));
        egui::Grid::new("maker_region").num_columns(2).show(ui, |ui| {
            let label = ui.label("Name");
            let mut name = region.name.clone();
            let field = egui::TextEdit::singleline(&mut name).show(ui);
            let response = field.response.response.clone().labelled_by(label.id);
            if std::mem::take(&mut self.focus_name) {
                // Typing names the new region: its name is selected, to be typed over.
                response.request_focus();
                let mut state = field.state.clone();
                state
                    .cursor
                    .set_char_range(Some(egui::text::CCursorRange::select_all_str(&name)));
                state.store(ui.ctx(), response.id);
            }
            if response.changed() {
                self.commands.push(MakerCommand::merged(
                    Edit::RenameRegion(i, name),
                    format!("name {i}"),
                ));
            }
            ui.end_row();
            let label = ui.label("Id");
            let mut id = region.id.to_string();
            if ui
                .text_edit_singleline(&mut id)
                .labelled_by(label.id)
                .on_hover_text("What campaign files call the region; follows the name until set by hand")
                .changed()
            {
                self.commands
                    .push(MakerCommand::merged(Edit::SetRegionId(i, id), format!("id {i}")));
            }
            ui.end_row();
            let label = ui.label("Ground");
            let mut terrain = region.terrain;
            egui::ComboBox::from_id_salt("maker_terrain")
                .selected_text(terrain.to_string())
                .show_ui(ui, |ui| {
                    for t in Terrain::ALL {
                        ui.selectable_value(&mut terrain, *t, t.to_string());
                    }
                })
                .response
                .labelled_by(label.id);
            if terrain != region.terrain {
                let mut changed = region.clone();
                changed.terrain = terrain;
                self.commands
                    .push(MakerCommand::edit(Edit::SetRegion(i, changed)));
            }
            ui.end_row();
            ui.label("Position (miles)");
            let (mut x, mut y) = (region.x, region.y);
            ui.horizontal(|ui| {
                ui.add(egui::DragValue::new(&mut x).speed(0.1).prefix("east "));
                ui.add(egui::DragValue::new(&mut y).speed(0.1).prefix("south "));
            });
            if (x, y) != (region.x, region.y) {
                self.commands.push(MakerCommand::merged(
                    Edit::MoveRegion(i, [x, y]),
                    format!("move {i}"),
                ));
            }
            ui.end_row();
        });
        ui.label("Features");
        let mut features = region.features.clone();
        ui.horizontal_wrapped(|ui| {
            for f in Feature::ALL {
                let mut on = features.contains(f);
                if ui.checkbox(&mut on, f.to_string()).changed() {
                    if on {
                        features.push(*f);
                    } else {
                        features.retain(|x| x != f);
                    }
                }
            }
        });
        if features != region.features {
            let mut changed = region.clone();
            changed.features = features;
            self.commands
                .push(MakerCommand::edit(Edit::SetRegion(i, changed)));
        }
        ui.add_space(4.0);
        let roads: Vec<(usize, String)> = self
            .map()
            .roads
            .iter()
            .enumerate()
            .filter_map(|(n, r)| {
                let other = r.other_end(&region.id)?;
                Some((
                    n,
                    format!("{} to {}, {} mi", r.kind, self.map().region_name(other), r.miles),
                ))
            })
            .collect();
        ui.label(format!("Roads ({})", roads.len()));
        for (n, text) in roads {
            if ui.link(text).clicked() {
                self.commands.push(MakerCommand::Select(Picked::Road(n)));
            }
        }
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            if ui.button("Start a road here").clicked() {
                self.commands.push(MakerCommand::Tool(Tool::Roads));
                self.commands.push(MakerCommand::RoadEnd(i));
            }
            if ui
                .button("Delete region")
                .on_hover_text("With its roads (Delete)")
                .clicked()
            {
                self.commands.push(MakerCommand::edit(Edit::DeleteRegion(i)));
            }
        });
    }

    fn road_ui(&mut self, ui: &mut Ui, i: usize) {
        let map = self.map();
        let Some(road) = map.roads.get(i).cloned() else {
            return;
        };
        let straight = match (map.region(&road.from), map.region(&road.to)) {
            (Some(a), Some(b)) => Some(map_edit::straight_miles(a, b)),
            _ => None,
        };
        ui.strong(format!(
            "{} from {} to {}",
            capitalised(&road.kind.to_string()),
            map.region_name(&road.from),
            map.region_name(&road.to)
        ));
        let mut changed = road.clone();
        egui::Grid::new("maker_road").num_columns(2).show(ui, |ui| {
            let label = ui.label("Kind");
            egui::ComboBox::from_id_salt("maker_this_road_kind")
                .selected_text(changed.kind.to_string())
                .show_ui(ui, |ui| {
                    for kind in RoadKind::ALL {
                        ui.selectable_value(&mut changed.kind, *kind, kind.to_string());
                    }
                })
                .response
                .labelled_by(label.id);
            ui.end_row();
            let label = ui.label("Miles");
            ui.add(
                egui::DragValue::new(&mut changed.miles)
                    .speed(0.1)
                    .range(0.0..=10_000.0),
            )
            .labelled_by(label.id);
            ui.end_row();
            let label = ui.label("Crossing");
            let word = |c: Option<RiverCrossing>| match c {
                None => "no river".to_owned(),
                Some(RiverCrossing::None) => "river, no way over".to_owned(),
                Some(c) => format!("river, by {c}"),
            };
            egui::ComboBox::from_id_salt("maker_crossing")
                .selected_text(word(changed.river))
                .show_ui(ui, |ui| {
                    for c in [
                        None,
                        Some(RiverCrossing::Bridge),
                        Some(RiverCrossing::Ford),
                        Some(RiverCrossing::None),
                    ] {
                        ui.selectable_value(&mut changed.river, c, word(c));
                    }
                })
                .response
                .labelled_by(label.id);
            ui.end_row();
            let label = ui.label("Name");
            let mut name = changed.name.clone().unwrap_or_default();
            if ui.text_edit_singleline(&mut name).labelled_by(label.id).changed() {
                changed.name = (!name.trim().is_empty()).then_some(name);
            }
            ui.end_row();
        });
        if let Some(straight) = straight {
            ui.horizontal_wrapped(|ui| {
                ui.weak(format!(
                    "The straight line between the regions is {straight} miles (their positions are in miles); a road winds, so set its real length."
                ));
                if (changed.miles - straight).abs() > 0.05 && ui.small_button("Use the straight line").clicked() {
                    changed.miles = straight;
                }
            });
        }
        if changed.kind == RoadKind::River {
            ui.weak("A river road carries steamers only, from its first region (upstream) to its second.");
        }
        let needs = match changed.river {
            Some(RiverCrossing::Bridge) => Some(Feature::Bridge),
            Some(RiverCrossing::Ford) => Some(Feature::Ford),
            _ => None,
        };
        let ends: Vec<(usize, Region)> = [&road.from, &road.to]
            .into_iter()
            .filter_map(|id| {
                let i = map_edit::region_index(self.map(), id)?;
                Some((i, self.map().regions.get(i)?.clone()))
            })
            .collect();
        if let Some(feature) = needs
            && !ends.iter().any(|(_, r)| r.has(feature))
        {
            ui.label(format!(
                "A {feature} needs the `{feature}` feature in one of the two regions:"
            ));
            ui.horizontal(|ui| {
                for (n, region) in &ends {
                    if ui
                        .button(format!("{} at {}", capitalised(feature.as_str()), region.name))
                        .clicked()
                    {
                        let mut with = region.clone();
                        with.features.push(feature);
                        self.commands.push(MakerCommand::edit(Edit::SetRegion(*n, with)));
                    }
                }
            });
        }
        if changed != road {
            let merge = if changed.name != road.name {
                format!("road name {i}")
            } else if changed.miles != road.miles {
                format!("road miles {i}")
            } else {
                format!("road {i}")
            };
            self.commands
                .push(MakerCommand::merged(Edit::SetRoad(i, changed), merge));
        }
        ui.horizontal(|ui| {
            if ui
                .button("Turn round")
                .on_hover_text("Swap its two ends (the upstream end of a river)")
                .clicked()
            {
                let mut turned = road.clone();
                std::mem::swap(&mut turned.from, &mut turned.to);
                self.commands.push(MakerCommand::edit(Edit::SetRoad(i, turned)));
            }
            if ui.button("Delete road").on_hover_text("Delete").clicked() {
                self.commands.push(MakerCommand::edit(Edit::DeleteRoad(i)));
            }
        });
    }

    fn map_fields_ui(&mut self, ui: &mut Ui) {
        let map = self.map().clone();
        ui.strong("The map");
        ui.weak("Select a region or road on the map to edit it.");
        egui::Grid::new("maker_map").num_columns(2).show(ui, |ui| {
            let label = ui.label("Name");
            let mut name = map.name.clone();
            if ui.text_edit_singleline(&mut name).labelled_by(label.id).changed() {
                self.commands
                    .push(MakerCommand::merged(Edit::SetName(name), "map name".to_owned()));
            }
            ui.end_row();
            let label = ui.label("Description");
            let mut description = map.description.clone().unwrap_or_default();
            let changed = egui::ScrollArea::vertical()
                .id_salt("maker_description")
                .max_height(110.0)
                .show(ui, |ui| {
                    ui.add(egui::TextEdit::multiline(&mut description).desired_rows(3))
                        .labelled_by(label.id)
                        .changed()
                })
                .inner;
            if changed {
                let description = (!description.trim().is_empty()).then_some(description);
                self.commands.push(MakerCommand::merged(
                    Edit::SetDescription(description),
                    "map description".to_owned(),
                ));
            }
            ui.end_row();
        });
        ui.add_space(6.0);
        ui.strong("Background picture");
        let mut on = map.background.is_some();
        if ui
            .checkbox(
                &mut on,
                "A picture under the map (a PNG in the map file's folder)",
            )
            .changed()
        {
            let background = on.then(|| self.default_background());
            self.commands
                .push(MakerCommand::edit(Edit::SetBackground(background)));
        }
        if let Some(background) = &map.background {
            let mut b = background.clone();
            egui::Grid::new("maker_background").num_columns(2).show(ui, |ui| {
                let label = ui.label("File");
                ui.text_edit_singleline(&mut b.file).labelled_by(label.id);
                ui.end_row();
                for (edge, value) in [
                    ("Left edge (miles)", &mut b.left),
                    ("Top edge", &mut b.top),
                    ("Right edge", &mut b.right),
                    ("Bottom edge", &mut b.bottom),
                ] {
                    let label = ui.label(edge);
                    ui.add(egui::DragValue::new(value).speed(0.5))
                        .labelled_by(label.id);
                    ui.end_row();
                }
            });
            if let Some(texture) = &self.picture.texture {
                let [w, h] = texture.size();
                ui.weak(format!("{w} × {h} pixels, loaded."));
            }
            if &b != background {
                let merge = if b.file != background.file {
                    "background file"
                } else {
                    "background edges"
                };
                self.commands.push(MakerCommand::merged(
                    Edit::SetBackground(Some(b)),
                    merge.to_owned(),
                ));
            }
        }
    }

    /// A background over the regions' extent, named after the map file.
    fn default_background(&self) -> Background {
        let bounds = self.bounds();
        let file = self.path.as_ref().and_then(|p| p.file_stem()).map_or_else(
            || "map.png".to_owned(),
            |s| format!("{}.png", s.to_string_lossy()),
        );
        Background {
            file,
            left: f64::from(bounds.left().floor()),
            top: f64::from(bounds.top().floor()),
            right: f64::from(bounds.right().ceil()),
            bottom: f64::from(bounds.bottom().ceil()),
        }
    }

    fn problems_ui(&mut self, ui: &mut Ui) {
        if self.problems.is_empty() {
            ui.colored_label(theme::GOOD, "No problems: `umpire check` passes this map.");
            return;
        }
        ui.strong(format!("Problems ({})", self.problems.len()));
        // While a map is being drawn most regions are not joined up yet: one line for them all.
        let apart = |p: &&Problem| !p.error && p.message.starts_with("the map is not connected");
        let cut_off = self.problems.iter().filter(apart).count();
        if cut_off > 2 {
            ui.label(format!(
                "warning: the map is not connected: {cut_off} regions or groups cannot be reached by road from the rest (thin rings on the map)"
            ));
        }
        for problem in self.problems.iter().filter(|p| cut_off <= 2 || !apart(p)) {
            let colour = if problem.error { theme::ERROR } else { theme::LABEL };
            let word = if problem.error { "error" } else { "warning" };
            let place = match problem.at {
                ProblemAt::Region(i) => Picked::Region(i),
                ProblemAt::Road(i) => Picked::Road(i),
                _ => Picked::None,
            };
            let text = egui::RichText::new(format!("{word}: {}", problem.message)).color(colour);
            if place == Picked::None {
                ui.label(text);
            } else if ui.link(text).on_hover_text("Show it on the map").clicked() {
                self.commands.push(MakerCommand::Show(place));
            }
        }
    }

    /// Whether so many regions are in view that they are drawn as dots.
    fn dense(&self, camera: Camera, rect: Rect) -> bool {
        let view = Rect::from_min_max(to_world(camera, rect, rect.min), to_world(camera, rect, rect.max));
        self.places
            .values()
            .filter(|p| view.contains(**p))
            .take(DENSE + 1)
            .count()
            > DENSE
    }

    /// A road's two ends in map miles.
    fn road_ends(&self, i: usize) -> Option<(Pos2, Pos2)> {
        let road = self.map().roads.get(i)?;
        Some((*self.places.get(&road.from)?, *self.places.get(&road.to)?))
    }

    /// The map's extent in miles: its regions, or a square round the one or none.
    fn bounds(&self) -> Rect {
        let map = self.map();
        let mut bounds = Rect::NOTHING;
        for r in &map.regions {
            bounds.extend_with(world(r));
        }
        if map.regions.len() < 2 {
            let c = if map.regions.is_empty() {
                pos2(EMPTY_MAP_MILES / 2.0, EMPTY_MAP_MILES / 2.0)
            } else {
                bounds.center()
            };
            return Rect::from_center_size(c, vec2(EMPTY_MAP_MILES, EMPTY_MAP_MILES));
        }
        bounds.expand(bounds.size().max_elem() * 0.06)
    }

    fn map_ui(&mut self, ui: &mut Ui) {
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        let rect = response.rect;
        self.rect = rect;
        painter.rect_filled(rect, 0.0, theme::MAP_GROUND);
        let mut camera = match self.camera {
            Some(c) => c,
            None => fit(self.bounds(), rect),
        };
        // What the button went down on, before the camera moves: a drag
        // starts once the pointer has gone a few points from there.
        let pressed = ui.input(|i| i.pointer.press_origin());
        let hit = pressed.and_then(|p| self.hit(camera, rect, p));
        if response.drag_started_by(egui::PointerButton::Primary)
            && self.tool == Tool::Regions
            && let Some(Picked::Region(i)) = hit
        {
            self.dragging = Some(i);
            self.commands.push(MakerCommand::Select(Picked::Region(i)));
        }
        if let Some(i) = self.dragging {
            if response.dragged()
                && response.drag_delta() != egui::Vec2::ZERO
                && let Some(p) = response.interact_pointer_pos()
            {
                let w = to_world(camera, rect, p);
                self.commands.push(MakerCommand::merged(
                    Edit::MoveRegion(i, [f64::from(w.x), f64::from(w.y)]),
                    format!("drag {i}"),
                ));
            }
            if response.drag_stopped() || !response.dragged() {
                self.dragging = None;
                self.commands.push(MakerCommand::EndStep);
            }
        }
        if let Some(item) = response.dnd_release_payload::<Palette>()
            && let Some(p) = ui.input(|i| i.pointer.interact_pos())
            && let Some(Picked::Region(i)) = self.hit(camera, rect, p)
            && let Some(region) = self.map().regions.get(i)
        {
            self.commands.push(MakerCommand::Sketch(SketchCommand::Place(
                *item,
                region.id.clone(),
            )));
        }
        pan_and_zoom(ui, &response, rect, &mut camera, self.dragging.is_some());
        self.camera = Some(camera);
        if response.clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            self.click(camera, rect, p);
        }
        self.paint(&painter, camera, rect, response.hover_pos());
    }

    fn click(&mut self, camera: Camera, rect: Rect, at: Pos2) {
        let hit = self.hit(camera, rect, at);
        match (self.tool, hit) {
            (Tool::Regions, Some(picked)) => self.commands.push(MakerCommand::Select(picked)),
            (Tool::Regions, None) => {
                let w = to_world(camera, rect, at);
                self.commands.push(MakerCommand::edit(Edit::AddRegion([
                    f64::from(w.x),
                    f64::from(w.y),
                ])));
            }
            (Tool::Roads, Some(Picked::Region(i))) => self.commands.push(MakerCommand::RoadEnd(i)),
            (Tool::Roads, Some(picked)) => self.commands.push(MakerCommand::Select(picked)),
            (Tool::Campaign, Some(picked)) => self.commands.push(MakerCommand::Select(picked)),
            (Tool::Campaign, None) => self.commands.push(MakerCommand::Select(Picked::None)),
            (Tool::Roads, None) => self.commands.push(if self.road_from.is_some() {
                MakerCommand::CancelRoad
            } else {
                MakerCommand::Select(Picked::None)
            }),
        }
    }

    /// The region (first) or road under a point of the screen.
    fn hit(&self, camera: Camera, rect: Rect, at: Pos2) -> Option<Picked> {
        let map = self.map();
        let reach = REGION_RADIUS + 4.0;
        let region = map
            .regions
            .iter()
            .enumerate()
            .map(|(i, r)| (i, to_screen(camera, rect, world(r)).distance(at)))
            .filter(|(_, d)| *d <= reach)
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((i, _)) = region {
            return Some(Picked::Region(i));
        }
        (0..map.roads.len())
            .filter_map(|i| {
                let (a, b) = self.road_ends(i)?;
                let d = distance_to_segment(at, to_screen(camera, rect, a), to_screen(camera, rect, b));
                (d <= ROAD_PICK).then_some((i, d))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| Picked::Road(i))
    }

    fn paint(&self, painter: &egui::Painter, camera: Camera, rect: Rect, hover: Option<Pos2>) {
        let map = self.map();
        let screen = |p: Pos2| to_screen(camera, rect, p);
        if self.show_picture
            && let (Some(texture), Some(b)) = (&self.picture.texture, &map.background)
        {
            let world_rect = Rect::from_min_max(
                pos2(miles(b.left), miles(b.top)),
                pos2(miles(b.right), miles(b.bottom)),
            );
            let on_screen = Rect::from_min_max(screen(world_rect.min), screen(world_rect.max));
            painter.image(
                texture.id(),
                on_screen,
                Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0)),
                Color32::WHITE,
            );
        } else if let Some(b) = &map.background {
            // Where the picture goes, when it is not there or not shown.
            let on_screen = Rect::from_min_max(
                screen(pos2(miles(b.left), miles(b.top))),
                screen(pos2(miles(b.right), miles(b.bottom))),
            );
            painter.rect_stroke(
                on_screen,
                0.0,
                Stroke::new(1.0, theme::LABEL),
                egui::StrokeKind::Inside,
            );
        }
        for water in &map.waters {
            let points: Vec<Pos2> = water
                .points
                .iter()
                .map(|p| screen(pos2(miles(p[0]), miles(p[1]))))
                .collect();
            if water.kind.is_area() {
                painter.add(Shape::closed_line(points, Stroke::new(1.5, theme::RIVER)));
            } else {
                painter.add(Shape::line(points, Stroke::new(2.5, theme::RIVER)));
            }
        }
        for region in &map.regions {
            if region.shape.len() >= 3 {
                let points: Vec<Pos2> = region
                    .shape
                    .iter()
                    .map(|p| screen(pos2(miles(p[0]), miles(p[1]))))
                    .collect();
                painter.add(Shape::closed_line(points, Stroke::new(1.0, theme::LABEL)));
            }
        }
        let wrong_road = |i: usize| {
            self.problems
                .iter()
                .any(|p| p.error && p.at == ProblemAt::Road(i))
        };
        // Thousands of regions in view: plain dots and lines in one mesh, no names.
        let dense = self.dense(camera, rect);
        let mut mesh = egui::epaint::Mesh::default();
        for i in 0..map.roads.len() {
            let (Some((a, b)), Some(road)) = (self.road_ends(i), map.roads.get(i)) else {
                continue;
            };
            let (a, b) = (screen(a), screen(b));
            if !Rect::from_two_pos(a, b).intersects(rect) {
                continue;
            }
            if dense && self.picked != Picked::Road(i) && !wrong_road(i) {
                quad(&mut mesh, a, b, 1.0, road_colour(road.kind));
                continue;
            }
            if self.picked == Picked::Road(i) {
                painter.line_segment([a, b], Stroke::new(9.0, theme::SELECTED));
            }
            paint_road(painter, a, b, road.kind);
            let mid = a.lerp(b, 0.5);
            match road.river {
                Some(RiverCrossing::Bridge) => {
                    painter.rect_filled(Rect::from_center_size(mid, vec2(8.0, 8.0)), 1.0, theme::BRIDGE);
                }
                Some(RiverCrossing::Ford) => {
                    painter.circle(mid, 4.0, theme::FORD, Stroke::new(1.0, theme::BRIDGE));
                }
                Some(RiverCrossing::None) => {
                    painter.line_segment(
                        [mid - vec2(5.0, 5.0), mid + vec2(5.0, 5.0)],
                        Stroke::new(2.0, theme::ERROR),
                    );
                }
                None => {}
            }
            if wrong_road(i) {
                painter.circle_stroke(mid, 9.0, Stroke::new(2.5, theme::ERROR));
            }
        }
        if let (Some(from), Some(pointer)) = (self.road_from.and_then(|i| map.regions.get(i)), hover) {
            painter.add(Shape::dashed_line(
                &[screen(world(from)), pointer],
                Stroke::new(2.0, road_colour(self.road_kind)),
                6.0,
                4.0,
            ));
        }
        for (i, region) in map.regions.iter().enumerate() {
            let at = screen(world(region));
            if !rect.expand(60.0).contains(at) {
                continue;
            }
            if dense && self.picked != Picked::Region(i) && self.road_from != Some(i) {
                mesh.add_colored_rect(Rect::from_center_size(at, vec2(3.0, 3.0)), theme::REGION_DOT);
                if self
                    .problems
                    .iter()
                    .any(|p| p.error && p.at == ProblemAt::Region(i))
                {
                    painter.circle_stroke(at, REGION_RADIUS, Stroke::new(2.0, theme::ERROR));
                }
                continue;
            }
            if self.picked == Picked::Region(i) || self.road_from == Some(i) {
                painter.circle_filled(at, REGION_RADIUS + 4.0, theme::SELECTED);
            }
            painter.circle(
                at,
                REGION_RADIUS,
                theme::terrain(region.terrain),
                Stroke::new(1.5, theme::REGION_DOT),
            );
            let problem = self
                .problems
                .iter()
                .filter(|p| p.at == ProblemAt::Region(i))
                .map(|p| p.error)
                .max();
            match problem {
                Some(true) => {
                    painter.circle_stroke(at, REGION_RADIUS + 6.0, Stroke::new(2.5, theme::ERROR));
                }
                // A warning (a region not joined up yet, while drawing): a thin ring.
                Some(false) => {
                    painter.circle_stroke(
                        at,
                        REGION_RADIUS + 5.0,
                        Stroke::new(1.0, theme::FORCED.gamma_multiply(0.7)),
                    );
                }
                None => {}
            }
        }
        painter.add(Shape::mesh(mesh));
        self.paint_names(painter, camera, rect, hover, dense);
        if let Some(sketching) = &self.sketching {
            sketching.paint(painter, |id| {
                self.places.get(id).map(|p| to_screen(camera, rect, *p))
            });
        }
        if map.regions.is_empty() {
            painter.text(
                rect.center(),
                Align2::CENTER_CENTER,
                "Click anywhere to add the first region",
                FontId::proportional(18.0),
                theme::LABEL,
            );
        }
        paint_scale_bar(painter, rect, camera.zoom);
    }

    /// The regions' names under them, on a pale ground so roads passing under
    /// a name leave it readable. Where names would overlap, the selected
    /// region's, the hovered one's and those with problems come first and the
    /// others give way (zoom in to see them).
    fn paint_names(
        &self,
        painter: &egui::Painter,
        camera: Camera,
        rect: Rect,
        hover: Option<Pos2>,
        dense: bool,
    ) {
        if !self.show_names {
            return;
        }
        let map = self.map();
        let font = FontId::proportional(12.0);
        let hovered = hover.and_then(|p| self.hit(camera, rect, p));
        let rank = |i: usize| {
            if self.picked == Picked::Region(i) || hovered == Some(Picked::Region(i)) {
                0
            } else if self.problems.iter().any(|p| p.at == ProblemAt::Region(i)) {
                1
            } else {
                2
            }
        };
        let mut order: Vec<(usize, Pos2)> = map
            .regions
            .iter()
            .enumerate()
            .map(|(i, r)| (i, to_screen(camera, rect, world(r))))
            .filter(|(_, at)| rect.expand(60.0).contains(*at))
            .collect();
        if dense {
            // Only the selected and hovered regions' names.
            order.retain(|(i, _)| rank(*i) == 0);
        }
        order.sort_by_key(|(i, _)| rank(*i));
        let mut placed: Vec<Rect> = Vec::new();
        for (i, at) in order {
            let Some(region) = map.regions.get(i) else {
                continue;
            };
            let galley = painter.layout_no_wrap(region.name.clone(), font.clone(), theme::LABEL_STRONG);
            let place = Align2::CENTER_TOP.anchor_size(at + vec2(0.0, REGION_RADIUS + 3.0), galley.size());
            // Names beyond a few hundred on screen are not worth the frame.
            if placed.len() > 400 || placed.iter().any(|p| p.intersects(place)) {
                continue;
            }
            placed.push(place);
            painter.rect_filled(place.expand(1.0), 2.0, theme::NOTE_FILL.gamma_multiply(0.75));
            painter.galley(place.min, galley, theme::LABEL_STRONG);
        }
    }

    fn keys_window(&mut self, ctx: &egui::Context) {
        let short = |k: &egui::KeyboardShortcut| keys::text(ctx, k);
        let key = |k: Key| keys::key_text(k).to_owned();
        egui::Window::new("Map maker: keyboard shortcuts")
            .open(&mut self.show_keys)
            .show(ctx, |ui| {
                egui::Grid::new("maker_keys").striped(true).show(ui, |ui| {
                    for (combo, what) in [
                        (
                            key(keys::MAKER_REGIONS),
                            "Regions tool: click the empty map to add one, drag one to move it",
                        ),
                        (
                            key(keys::MAKER_ROADS),
                            "Roads tool: click a region, then the next",
                        ),
                        (
                            key(keys::MAKER_CAMPAIGN),
                            "Campaign tool: sides, HQs and forces for a new campaign",
                        ),
                        ("Enter".to_owned(), "Done typing a new region's name"),
                        (
                            key(keys::DESELECT),
                            "Stop the road being drawn, or select nothing",
                        ),
                        (
                            "Delete".to_owned(),
                            "Delete the selected region (with its roads) or road",
                        ),
                        (short(&keys::UNDO), "Undo"),
                        (
                            format!("{}, {}", short(&keys::REDO), short(&keys::REDO_TOO)),
                            "Redo",
                        ),
                        (short(&keys::SAVE), "Save map"),
                        (short(&keys::SAVE_AS), "Save map as"),
                        (
                            format!("{} / {}", short(&keys::NEW), short(&keys::OPEN)),
                            "New map / open a map file",
                        ),
                        (short(&keys::QUIT), "Quit (asks first about unsaved changes)"),
                        (key(keys::ZOOM_TO_FIT), "Zoom to fit"),
                        ("Arrows, WASD, drag".to_owned(), "Pan the map"),
                        ("Wheel, + and -".to_owned(), "Zoom"),
                        (key(keys::HELP), "This list"),
                    ] {
                        ui.label(egui::RichText::new(combo).strong());
                        ui.label(what);
                        ui.end_row();
                    }
                });
            });
    }

    fn forms(&mut self, ctx: &egui::Context) {
        self.keys_window(ctx);
        if let Some(sketching) = self.sketching.as_mut() {
            let mut asked = Vec::new();
            sketching.form_ui(ctx, &mut asked);
            self.commands.extend(asked.into_iter().map(MakerCommand::Sketch));
        }
        let fresh = std::mem::take(&mut self.form_fresh);
        if let Some(path) = self.open_form.as_mut() {
            let (mut open, mut go) = (true, false);
            egui::Window::new("Open a map file")
                .open(&mut open)
                .show(ctx, |ui| {
                    ui.label("A map file (maps/*.toml) to edit; it must pass `umpire check`.");
                    let entered = file_field_ui(ui, path, fresh);
                    go = ui.button("Open").clicked() || entered;
                });
            if go {
                self.commands.push(MakerCommand::Open(PathBuf::from(path.trim())));
            }
            if !open {
                self.open_form = None;
            }
        }
        if let Some(path) = self.save_form.as_mut() {
            let (mut open, mut go) = (true, false);
            egui::Window::new("Save map as").open(&mut open).show(ctx, |ui| {
                ui.label(
                    "Writes the map as a map file (TOML) that `umpire check` reads and campaign files name.",
                );
                let entered = file_field_ui(ui, path, fresh);
                go = ui.button("Save").clicked() || entered;
            });
            if go {
                self.commands
                    .push(MakerCommand::SaveAs(PathBuf::from(path.trim())));
            }
            if !open {
                self.save_form = None;
            }
        }
    }
}

/// The file field of the map maker's forms; `focus`: it takes the keyboard
/// (the form was just opened). True when Enter was pressed in it.
fn file_field_ui(ui: &mut Ui, path: &mut String, focus: bool) -> bool {
    ui.horizontal(|ui| {
        let label = ui.label("Map file");
        let field = ui
            .add(egui::TextEdit::singleline(path).desired_width(380.0))
            .labelled_by(label.id);
        if focus {
            field.request_focus();
        }
        field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter))
    })
    .inner
}

/// A map with no regions yet.
fn blank_map() -> Map {
    Map {
        name: "New map".to_owned(),
        description: None,
        regions: Vec::new(),
        roads: Vec::new(),
        background: None,
        waters: Vec::new(),
    }
}

fn picture_path(map_path: Option<&Path>, file: &str) -> PathBuf {
    map_path
        .and_then(Path::parent)
        .unwrap_or(Path::new(""))
        .join(file)
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn world(region: &Region) -> Pos2 {
    pos2(miles(region.x), miles(region.y))
}

fn to_screen(camera: Camera, rect: Rect, at: Pos2) -> Pos2 {
    let [cx, cy] = camera.center;
    rect.center() + (at - pos2(cx, cy)) * camera.zoom
}

fn to_world(camera: Camera, rect: Rect, at: Pos2) -> Pos2 {
    let [cx, cy] = camera.center;
    pos2(cx, cy) + (at - rect.center()) / camera.zoom
}

fn distance_to_segment(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let t = if ab.length_sq() > 0.0 {
        ((p - a).dot(ab) / ab.length_sq()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + ab * t)
}

/// A straight band from `a` to `b`, `width` points wide, into `mesh`.
fn quad(mesh: &mut egui::epaint::Mesh, a: Pos2, b: Pos2, width: f32, colour: Color32) {
    let along = b - a;
    let length = along.length();
    if length < 0.01 {
        return;
    }
    let across = vec2(-along.y, along.x) / length * (width / 2.0);
    let first = u32::try_from(mesh.vertices.len()).unwrap_or(u32::MAX);
    for p in [a + across, a - across, b - across, b + across] {
        mesh.colored_vertex(p, colour);
    }
    let [second, third, fourth] = [1, 2, 3].map(|k| first.saturating_add(k));
    mesh.add_triangle(first, second, third);
    mesh.add_triangle(first, third, fourth);
}

fn road_colour(kind: RoadKind) -> Color32 {
    match kind {
        RoadKind::Road => theme::ROAD,
        RoadKind::Track => theme::TRACK,
        RoadKind::Railway => theme::RAILWAY,
        RoadKind::River => theme::RIVER,
    }
}

/// A road by its kind: a road solid, a track dashed, a railway with
/// sleepers, a river (steamers) wide and blue.
fn paint_road(painter: &egui::Painter, a: Pos2, b: Pos2, kind: RoadKind) {
    let colour = road_colour(kind);
    match kind {
        RoadKind::Road => {
            painter.line_segment([a, b], Stroke::new(3.0, colour));
        }
        RoadKind::Track => {
            painter.add(Shape::dashed_line(&[a, b], Stroke::new(2.0, colour), 7.0, 4.0));
        }
        RoadKind::Railway => {
            painter.line_segment([a, b], Stroke::new(2.0, colour));
            let along = b - a;
            let length = along.length();
            if length > 1.0 {
                let across = vec2(-along.y, along.x) / length * 4.0;
                let steps = (length / 10.0).floor().min(500.0);
                let mut k = 1.0;
                while k < steps {
                    let at = a + along * (k / steps);
                    painter.line_segment([at - across, at + across], Stroke::new(1.5, colour));
                    k += 1.0;
                }
            }
        }
        RoadKind::River => {
            painter.line_segment([a, b], Stroke::new(5.0, colour.gamma_multiply(0.8)));
        }
    }
}
