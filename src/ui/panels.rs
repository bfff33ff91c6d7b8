//! The panels and windows around the map: menu bar, messages, forces tree,
//! inspector, turn log, the File forms, the game move summary and help.
//!
//! Each panel takes the state it draws (its own, defined here, and read-only
//! data such as the [`Scene`]) and pushes [`Command`]s, applied after the
//! frame; none knows the app.

use super::battles::battle_ui;
use super::command::{Command, Selection};
use super::keys;
use super::map_view::{MapView, Overlays};
use super::seat::{self, SeatForms, Viewing};
use super::session::{self, Command as Do, Session};
use super::state::{Notes, Timelines, ViewState};
use super::text::{forecast_text, march_words, side_colour as colour_of, stand_line, supply_text, where_is};
use super::theme;
use super::view::Scene;
use crate::model::house_rules::Difference;
use crate::model::{Campaign, Conveyance, Event, Force, ForceId, RegionId, StandId, StandingOrder};
use crate::strategy::{Action, OrderRequest};
use egui::{Color32, RichText, ScrollArea, Ui};
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

/// The forms of the File menu: a path typed in a small window.
#[derive(Debug, Clone, Default)]
pub struct FileForms {
    pub new_campaign: Option<(String, String)>,
    pub open: Option<String>,
    pub save_as: Option<String>,
    pub export_report: Option<ExportForm>,
    pub export_chronicle: Option<ChronicleForm>,
}

/// File > Export chronicle: whose chronicle (the umpire's, or what one side
/// knew) and the file.
#[derive(Debug, Clone, Default)]
pub struct ChronicleForm {
    pub sides: Vec<(crate::model::SideId, String)>,
    /// `None`: the umpire's, everything; else an index into `sides`.
    pub side: Option<usize>,
    pub path: String,
    /// Whether the umpire's chronicle may be chosen: not in a side's view.
    pub umpire: bool,
}

impl ChronicleForm {
    /// The form for `session`'s campaign: the umpire's chronicle, beside the
    /// save; in a side's view (`viewer`), that side's only.
    fn of(session: &Session, viewer: Option<&crate::model::SideId>) -> ChronicleForm {
        let sides: Vec<_> = session
            .campaign()
            .sides
            .iter()
            .filter(|s| viewer.is_none_or(|v| &s.id == v))
            .map(|s| (s.id.clone(), s.name.clone()))
            .collect();
        let path = session.path().parent().map_or_else(
            || "chronicle.html".to_owned(),
            |dir| dir.join("chronicle.html").display().to_string(),
        );
        ChronicleForm {
            sides,
            side: viewer.map(|_| 0),
            path,
            umpire: viewer.is_none(),
        }
    }
}

/// File > Export a side's report: the campaign's sides, the one chosen, and the file.
#[derive(Debug, Clone, Default)]
pub struct ExportForm {
    pub sides: Vec<(crate::model::SideId, String)>,
    pub side: usize,
    pub path: String,
}

impl ExportForm {
    /// The form for `session`'s campaign: the first side, its page beside the save
    /// ("british_move3.html"); in a side's view (`viewer`), that side's only.
    fn of(session: &Session, viewer: Option<&crate::model::SideId>) -> ExportForm {
        let campaign = session.campaign();
        let sides: Vec<_> = campaign
            .sides
            .iter()
            .filter(|s| viewer.is_none_or(|v| &s.id == v))
            .map(|s| (s.id.clone(), s.name.clone()))
            .collect();
        let mut form = ExportForm {
            sides,
            side: 0,
            path: String::new(),
        };
        form.path = form.default_path(session);
        form
    }

    fn default_path(&self, session: &Session) -> String {
        let side = self.sides.get(self.side).map_or("side", |(id, _)| id.as_str());
        let name = format!("{side}_move{}.html", session.campaign().turn);
        session
            .path()
            .parent()
            .map_or_else(|| name.clone(), |dir| dir.join(&name).display().to_string())
    }
}

impl FileForms {
    /// Opens the New campaign form on the bundled campaign and a save in
    /// `data_folder` (else the platform's data folder).
    pub fn open_new_campaign(&mut self, data_folder: Option<&Path>) {
        let folder = data_folder.map(Path::to_path_buf).or_else(session::data_folder);
        let save = folder.map_or_else(
            || "campaign.umpire".to_owned(),
            |f| f.join("campaign.umpire").display().to_string(),
        );
        self.new_campaign
            .get_or_insert_with(|| ("campaigns/egyptian_rebellion_1895.toml".to_owned(), save));
    }
}

/// The Help menu's windows, open or not.
#[derive(Debug, Clone, Copy, Default)]
pub struct HelpWindows {
    pub rules: bool,
    pub keys: bool,
}

/// Splitting a force: the stands ticked and the new force's id and name.
#[derive(Debug, Clone, Default)]
pub struct SplitForm {
    pub stands: BTreeSet<StandId>,
    pub id: String,
    pub name: String,
}

/// The inspector's order fields.
#[derive(Debug, Clone, Default)]
pub struct OrderForm {
    pub split: SplitForm,
    /// Region id typed or chosen in "March to".
    pub march_to: String,
    pub merge_into: String,
}

/// What is open in the forces tree, and its lines as last built.
#[derive(Debug, Default)]
pub struct TreeState {
    pub open_forces: HashSet<ForceId>,
    pub closed_sides: HashSet<crate::model::SideId>,
    /// Counts changes of what is open.
    pub version: u64,
    pub rows: Option<((u64, u64), Vec<TreeRow>)>,
}

/// The log rows shown: (revision, filter) and the event indexes.
#[derive(Debug, Default)]
pub struct LogRows(Option<((u64, u64), Vec<usize>)>);

/// What the menu bar draws and changes.
#[derive(Debug)]
pub struct MenuBar<'a> {
    pub session: Option<&'a Session>,
    pub viewing: &'a Viewing,
    pub seat_forms: &'a mut SeatForms,
    pub view: &'a mut ViewState,
    pub forms: &'a mut FileForms,
    pub help: &'a mut HelpWindows,
    /// Orders given on the map are forced marches.
    pub forced: &'a mut bool,
    /// A game move is being resolved.
    pub busy: bool,
    /// Where a new campaign's save goes unless told otherwise.
    pub data_folder: Option<&'a Path>,
    /// The umpire's pencil window is open.
    pub pencil: &'a mut bool,
    pub commands: &'a mut Vec<Command>,
}

/// The menu bar and the top line. True when "Zoom to fit" was asked for.
pub fn menu_bar_ui(ui: &mut Ui, bar: MenuBar<'_>) -> bool {
    let MenuBar {
        session,
        viewing,
        seat_forms,
        view,
        forms,
        help,
        forced,
        busy,
        data_folder,
        pencil,
        commands,
    } = bar;
    let mut zoom_to_fit = false;
    // After the campaign's end, End turn is disabled with the reason.
    let over = viewing
        .scene(session)
        .and_then(|scene| super::ending::end_turn_refusal(scene.campaign));
    egui::Panel::top("menu_bar").show(ui, |ui| {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                let ctx = ui.ctx().clone();
                let short = |k: &egui::KeyboardShortcut| keys::text(&ctx, k);
                if ui
                    .add(egui::Button::new("New campaign from a campaign file…").shortcut_text(short(&keys::NEW)))
                    .clicked()
                {
                    forms.open_new_campaign(data_folder);
                }
                if ui
                    .add(egui::Button::new("Open…").shortcut_text(short(&keys::OPEN)))
                    .clicked()
                {
                    forms.open.get_or_insert_with(String::new);
                }
                if ui
                    .add_enabled(
                        session.is_some(),
                        egui::Button::new("Save as…").shortcut_text(short(&keys::SAVE_AS)),
                    )
                    .clicked()
                {
                    forms.save_as.get_or_insert_with(String::new);
                }
                if ui
                    .add_enabled(session.is_some(), egui::Button::new("Export a side's report…"))
                    .on_hover_text("The page (.html) a side reads, or the JSON (.json) its window opens, as `umpire report` writes them")
                    .clicked()
                    && let Some(session) = session
                {
                    forms.export_report = Some(ExportForm::of(session, viewing.viewer()));
                }
                if ui
                    .add_enabled(session.is_some(), egui::Button::new("Export chronicle…"))
                    .on_hover_text("The campaign's after-action report as a page, as `umpire chronicle` writes it: the umpire's, or what one side knew")
                    .clicked()
                    && let Some(session) = session
                {
                    forms.export_chronicle = Some(ChronicleForm::of(session, viewing.viewer()));
                }
                ui.separator();
                if ui
                    .button("New map (map maker)…")
                    .on_hover_text("Draw a map file in the window: regions, roads, rivers; the campaign in play is not touched")
                    .clicked()
                {
                    commands.push(Command::MapMaker(super::map_maker::Start::New));
                }
                if ui.button("Edit a map file…").clicked() {
                    commands.push(Command::MapMaker(super::map_maker::Start::AskForFile));
                }
                seat::file_menu_ui(ui, viewing, seat_forms, commands);
                ui.menu_button("Recent files", |ui| {
                    if view.recent.is_empty() {
                        ui.weak("none yet");
                    }
                    for path in &view.recent {
                        if ui.button(path.display().to_string()).clicked() {
                            commands.push(Command::Open(path.clone()));
                        }
                    }
                });
                ui.separator();
                if ui
                    .add(egui::Button::new("Quit").shortcut_text(short(&keys::QUIT)))
                    .clicked()
                {
                    commands.push(Command::Quit);
                }
            });
            ui.menu_button("Turn", |ui| {
                let ctx = ui.ctx().clone();
                let short = |k: &egui::KeyboardShortcut| keys::text(&ctx, k);
                let open = (session.is_some() || viewing.served_umpire().is_some()) && !busy;
                if ui
                    .add_enabled(
                        open && over.is_none(),
                        egui::Button::new("End turn (resolve the game move)")
                            .shortcut_text(short(&keys::END_TURN)),
                    )
                    .on_disabled_hover_text(over.clone().unwrap_or_default())
                    .clicked()
                {
                    commands.push(Command::Session(Do::EndTurn));
                }
                if ui
                    .add_enabled(open, egui::Button::new("Undo").shortcut_text(short(&keys::UNDO)))
                    .clicked()
                {
                    commands.push(Command::Session(Do::Undo));
                }
                let redo = session.is_some_and(|s| s.can_redo());
                if ui
                    .add_enabled(
                        redo && open,
                        egui::Button::new("Redo orders").shortcut_text(short(&keys::REDO)),
                    )
                    .clicked()
                {
                    commands.push(Command::Session(Do::Redo));
                }
                ui.separator();
                ui.checkbox(
                    forced,
                    format!("Forced march for new orders ({})", keys::key_text(keys::FORCED_MARCH)),
                );
                if viewing.is_umpire() {
                    ui.separator();
                    ui.checkbox(pencil, "Umpire's pencil (edits, rulings)");
                }
            });
            ui.menu_button("View", |ui| {
                seat::view_menu_ui(ui, viewing, session, commands);
                let o = &mut view.overlays;
                ui.checkbox(&mut o.supply, "Supply lines");
                ui.checkbox(&mut o.forecast, "Forced-march forecast");
                ui.checkbox(&mut o.battles, "Pending battles");
                ui.checkbox(&mut o.names, "Region names");
                ui.checkbox(&mut o.background, "Background picture");
                ui.separator();
                if ui
                    .add(egui::Button::new("Zoom to fit").shortcut_text(keys::key_text(keys::ZOOM_TO_FIT)))
                    .clicked()
                {
                    zoom_to_fit = true;
                }
                ui.checkbox(&mut view.show_plots, "Plots");
                ui.checkbox(&mut view.show_battles, "Battles");
            });
            ui.menu_button("Help", |ui| {
                if ui.button("Rule sources").clicked() {
                    help.rules = true;
                }
                if ui
                    .add(egui::Button::new("Keyboard shortcuts").shortcut_text(keys::key_text(keys::HELP)))
                    .clicked()
                {
                    help.keys = true;
                }
            });
            ui.separator();
            if let Some(scene) = viewing.scene(session) {
                let c = scene.campaign;
                let date = scene.date.map_or_else(String::new, |d| format!(", {d}"));
                ui.label(RichText::new(format!("{}: game move {}{date}", c.title, c.turn)).strong());
                let orders = scene.orders_given();
                ui.weak(format!(
                    "{orders} order{} given",
                    if orders == 1 { "" } else { "s" }
                ));
            }
            ui.separator();
            seat::view_as_ui(ui, viewing, session, commands);
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let enabled = (session.is_some() || viewing.served_umpire().is_some()) && !busy && over.is_none();
                if ui
                    .add_enabled(enabled, egui::Button::new(RichText::new("End turn").strong()))
                    .on_hover_text(format!(
                        "Resolve the game move for every side ({})",
                        keys::text(ui.ctx(), &keys::END_TURN)
                    ))
                    .on_disabled_hover_text(over.clone().unwrap_or_default())
                    .clicked()
                {
                    commands.push(Command::Session(Do::EndTurn));
                }
                if busy {
                    ui.spinner();
                }
                ui.toggle_value(forced, "Forced march")
                    .on_hover_text("Orders given on the map are forced marches (F)");
            });
        });
    });
    zoom_to_fit
}

pub fn notes_ui(ui: &mut Ui, notes: &mut Notes) {
    if notes.all().is_empty() {
        return;
    }
    egui::Panel::top("notes").show(ui, |ui| {
        let mut dismiss = None;
        for (i, note) in notes.all().iter().enumerate() {
            ui.horizontal(|ui| {
                if ui.small_button("×").on_hover_text("Dismiss").clicked() {
                    dismiss = Some(i);
                }
                let text = RichText::new(&note.text);
                if note.error {
                    ui.colored_label(theme::ERROR, text);
                } else {
                    ui.label(text);
                }
            });
        }
        if let Some(i) = dismiss {
            notes.dismiss(i);
        }
    });
}

pub fn welcome_ui(ui: &mut Ui, forms: &mut FileForms, data_folder: Option<&Path>) {
    ui.vertical_centered(|ui| {
        ui.add_space(80.0);
        ui.heading("No campaign is open");
        ui.label("Start a new campaign from a campaign file, or open a save.");
        if ui.button("New campaign…").clicked() {
            forms.open_new_campaign(data_folder);
        }
        if ui.button("Open a save…").clicked() {
            forms.open.get_or_insert_with(String::new);
        }
    });
}

/// One line of the forces tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreeRow {
    Side(usize),
    Force(usize),
    Stand(usize, usize),
    Battles,
    Battle(usize),
}

/// The lines of the forces tree as they stand open: built when the campaign
/// or what is open changes, so a frame draws only the lines in view.
fn tree_rows(tree: &TreeState, campaign: &Campaign) -> Vec<TreeRow> {
    let mut rows = Vec::new();
    for (s, side) in campaign.sides.iter().enumerate() {
        rows.push(TreeRow::Side(s));
        if tree.closed_sides.contains(&side.id) {
            continue;
        }
        for (f, force) in campaign
            .forces
            .iter()
            .enumerate()
            .filter(|(_, f)| f.side == side.id)
        {
            rows.push(TreeRow::Force(f));
            if tree.open_forces.contains(&force.id) {
                rows.extend((0..force.stands.len()).map(|k| TreeRow::Stand(f, k)));
            }
        }
    }
    let pending = |b: &&crate::model::Battle| b.status == crate::model::BattleStatus::Pending;
    if campaign.battles.iter().any(|b| pending(&b)) {
        rows.push(TreeRow::Battles);
        rows.extend(
            (0..campaign.battles.len())
                .filter(|&b| campaign.battles.get(b).is_some_and(|x| pending(&x)))
                .map(TreeRow::Battle),
        );
    }
    rows
}

/// The forces tree: sides, their forces and stands, and pending battles.
/// `show_battles`: the battles window opens when a battle is chosen.
pub fn tree_ui(
    ui: &mut Ui,
    scene: Option<Scene<'_>>,
    tree: &mut TreeState,
    selection: &mut Selection,
    show_battles: &mut bool,
) {
    let Some(scene) = scene else {
        ui.weak("No campaign open.");
        return;
    };
    ui.heading("Sides and forces");
    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
    let key = (scene.revision, tree.version);
    if tree.rows.as_ref().is_none_or(|(k, _)| *k != key) {
        let rows = tree_rows(tree, scene.campaign);
        tree.rows = Some((key, rows));
    }
    let Some((_, rows)) = &tree.rows else {
        return;
    };
    let campaign = scene.campaign;
    let mut toggle_side = None;
    let mut toggle_force = None;
    let mut select = None;
    let row_height = ui.spacing().interact_size.y;
    ScrollArea::vertical()
        .auto_shrink(false)
        .show_rows(ui, row_height, rows.len(), |ui, range| {
            for row in rows.get(range).into_iter().flatten() {
                ui.horizontal(|ui| match *row {
                    TreeRow::Side(s) => {
                        let Some(side) = campaign.sides.get(s) else { return };
                        let open = !tree.closed_sides.contains(&side.id);
                        if ui.small_button(if open { "-" } else { "+" }).clicked() {
                            toggle_side = Some(side.id.clone());
                        }
                        let (points, full) = campaign
                            .forces_of(&side.id)
                            .fold((0, 0), |(p, f), x| (p + x.points(), f + x.full_points()));
                        let hqs = campaign.hqs_held_by(&side.id).count();
                        let text = if scene.may_order(&side.id) {
                            format!("{}: {points}/{full} pts, {hqs} HQs", side.name)
                        } else {
                            seat::known_side_row(&scene, &side.id, &side.name)
                        };
                        ui.label(RichText::new(&text).color(colour_of(campaign, &side.id)).strong())
                            .on_hover_text(text);
                    }
                    TreeRow::Force(f) => {
                        let Some(force) = campaign.forces.get(f) else {
                            return;
                        };
                        ui.add_space(14.0);
                        if let Some(mark) = scene.mark(&force.id).filter(|m| !m.in_battle) {
                            ui.add_space(ui.spacing().interact_size.y.min(18.0));
                            let selected = matches!(&*selection, Selection::Force(id) if id == &force.id);
                            let text = seat::known_row(&scene, force, mark);
                            if ui.selectable_label(selected, text).clicked() {
                                select = Some(Selection::Force(force.id.clone()));
                            }
                            return;
                        }
                        let open = tree.open_forces.contains(&force.id);
                        if ui.small_button(if open { "-" } else { "+" }).clicked() {
                            toggle_force = Some(force.id.clone());
                        }
                        // The name, cut short if the panel is narrow, and the
                        // points at the right edge; the whole line on hover.
                        let cut_off = force.supply.cut_moves > 0;
                        let whole = format!(
                            "{}: {}/{} pts at {}{}",
                            force.name,
                            force.points(),
                            force.full_points(),
                            campaign.map.region_name(&force.region),
                            if cut_off { ", cut off from supply" } else { "" }
                        );
                        let (name, points) = (
                            RichText::new(force.name.as_str()),
                            RichText::new(format!("{}/{}", force.points(), force.full_points())),
                        );
                        let (name, points) = if cut_off {
                            (name.color(theme::CUT_OFF), points.color(theme::CUT_OFF))
                        } else {
                            (name, points)
                        };
                        let selected = matches!(&*selection, Selection::Force(id) if id == &force.id);
                        let row = egui::Button::selectable(selected, name)
                            .right_text(points)
                            .min_size(egui::vec2(ui.available_width(), 0.0));
                        if ui.add(row).on_hover_text(whole).clicked() {
                            select = Some(Selection::Force(force.id.clone()));
                        }
                    }
                    TreeRow::Stand(f, k) => {
                        let Some(stand) = campaign.forces.get(f).and_then(|f| f.stands.get(k)) else {
                            return;
                        };
                        ui.add_space(44.0);
                        let text = stand_line(stand);
                        if ui
                            .selectable_label(*selection == Selection::Stand(stand.id), text)
                            .clicked()
                        {
                            select = Some(Selection::Stand(stand.id));
                        }
                    }
                    TreeRow::Battles => {
                        ui.label(RichText::new("Battles pending").strong());
                    }
                    TreeRow::Battle(b) => {
                        let Some(battle) = campaign.battles.get(b) else {
                            return;
                        };
                        ui.add_space(14.0);
                        let text = format!(
                            "Battle {} at {}",
                            battle.id,
                            campaign.map.region_name(&battle.region)
                        );
                        if ui
                            .selectable_label(*selection == Selection::Battle(battle.id), text)
                            .clicked()
                        {
                            select = Some(Selection::Battle(battle.id));
                        }
                    }
                });
            }
        });
    if let Some(side) = toggle_side {
        if !tree.closed_sides.remove(&side) {
            tree.closed_sides.insert(side);
        }
        tree.version += 1;
    }
    if let Some(force) = toggle_force {
        if !tree.open_forces.remove(&force) {
            tree.open_forces.insert(force);
        }
        tree.version += 1;
    }
    if let Some(chosen) = select {
        if matches!(chosen, Selection::Battle(_)) {
            *show_battles = true;
        }
        *selection = chosen;
    }
}

/// What the inspector draws and changes.
#[derive(Debug)]
pub struct Inspector<'a> {
    pub scene: Option<Scene<'a>>,
    pub selection: &'a mut Selection,
    pub form: &'a mut OrderForm,
    /// Orders given are forced marches.
    pub forced: &'a mut bool,
    /// Orders given go on foot, by train or by steamer.
    pub by: &'a mut Conveyance,
    pub overlays: Overlays,
    /// The map, for the forecast and supply line it keeps.
    pub map: &'a mut MapView,
    /// The umpire's pencil window is open.
    pub pencil: &'a mut bool,
    pub commands: &'a mut Vec<Command>,
}

pub fn inspector_ui(ui: &mut Ui, mut input: Inspector<'_>) {
    ui.heading("Inspector");
    let Some(scene) = input.scene else {
        return;
    };
    let selection = input.selection.clone();
    ScrollArea::vertical().auto_shrink(false).show(ui, |ui| {
        let campaign = scene.campaign;
        match selection {
            Selection::None if scene.read_only => {
                ui.label("Select a force in the list or on the map to see it. The sides give their own orders, from their links; the bar above resolves the game move.");
                ui.add_space(6.0);
                ui.label(RichText::new(&campaign.title).strong());
            }
            Selection::None => {
                ui.label("Select a force in the list or on the map; then click a region on the map to order a march there, or drag the counter to it.");
                ui.add_space(6.0);
                ui.label(RichText::new(&campaign.title).strong());
                if let Some(d) = &campaign.description {
                    ui.label(d.trim());
                }
            }
            Selection::Force(id) => match campaign.force(&id).cloned() {
                Some(force) if scene.is_stand_in(&force.id) => {
                    if let Some(mark) = scene.mark(&force.id) {
                        seat::known_ui(ui, &scene, &force, mark);
                    }
                }
                Some(force) => force_ui(ui, &scene, &mut input, force),
                None => {
                    ui.label(format!("Force {id} is no longer on the roll."));
                }
            },
            Selection::Stand(stand) => match campaign.stand(stand) {
                Some((force, s)) => {
                    ui.label(RichText::new(&s.name).strong());
                    ui.label(format!("{} ({}), stand {}", s.kind.label(), s.quality, s.id));
                    ui.label(format!("Strength {} of {} roster points", s.strength, s.full));
                    if ui.link(format!("In {}", force.name)).clicked() {
                        *input.selection = Selection::Force(force.id.clone());
                    }
                }
                None => {
                    ui.label(format!("Stand {stand} is no longer on the roll."));
                }
            },
            Selection::Region(id) => region_ui(ui, &scene, input.selection, &id),
            Selection::Side(id) => {
                if let Some(side) = campaign.side(&id) {
                    ui.label(RichText::new(&side.name).strong().color(colour_of(campaign, &id)));
                    ui.label(format!("{} army", side.army));
                }
            }
            Selection::Battle(id) => {
                if let Some(battle) = campaign.battles.iter().find(|b| b.id == id) {
                    battle_ui(ui, campaign, battle);
                }
            }
        }
    });
}

fn force_ui(ui: &mut Ui, scene: &Scene<'_>, input: &mut Inspector<'_>, force: Force) {
    let campaign = scene.campaign;
    let colour = colour_of(campaign, &force.side);
    let side_name = campaign
        .side(&force.side)
        .map_or(force.side.as_str(), |s| s.name.as_str());
    ui.horizontal(|ui| {
        ui.label(RichText::new(&force.name).strong().size(16.0).color(colour));
        if scene.viewer.is_none()
            && ui
                .small_button("Pencil…")
                .on_hover_text("The umpire's pencil: move this force, rest it, change its stands")
                .clicked()
        {
            *input.pencil = true;
        }
    });
    ui.label(format!(
        "{side_name}; {}, {} of {} points",
        crate::model::text::count(force.stands.len() as u64, "stand", "stands"),
        force.points(),
        force.full_points()
    ));
    ui.label(format!("At {}", where_is(campaign, &force)));
    match scene.ordered_march(&force.id) {
        Some((path, forced, by)) => {
            let text = format!(
                "Ordered this move: {} to {}",
                march_words(forced, by, false),
                path.last().map_or("?", |r| campaign.map.region_name(r))
            );
            ui.label(RichText::new(text).color(theme::route(forced, by)));
            if input.overlays.forecast
                && let Some(f) = input.map.route_forecast(scene, &force.id)
            {
                ui.label(forecast_text(&f, forced));
            }
        }
        None => match &force.order {
            StandingOrder::March { path, forced, by } => {
                ui.label(format!(
                    "Standing order: {} to {}",
                    march_words(*forced, *by, false),
                    path.last().map_or("?", |r| campaign.map.region_name(r))
                ));
            }
            StandingOrder::Hold => {
                ui.label("Standing order: hold");
            }
        },
    }
    if force.fatigue.must_rest {
        ui.colored_label(
            theme::FORCED,
            match campaign.house_rules.forced_marches_before_rest {
                1 => "Must rest this game move (a forced march).".to_owned(),
                3 => "Must rest this game move (three forced marches in a row).".to_owned(),
                n => format!("Must rest this game move ({n} forced marches in a row)."),
            },
        );
    } else if force.fatigue.forced_in_row > 0 {
        ui.label(format!(
            "Forced marches in a row: {}",
            force.fatigue.forced_in_row
        ));
    }
    // The house rule `rejoin_after_moves`: stands fallen out that may come back.
    if let Some(after) = campaign.house_rules.rejoin_after_moves {
        for fallen in &force.fallen_out {
            ui.weak(format!(
                "Fallen out: {}, may rejoin at the end of game move {} if in supply",
                fallen.stand.name,
                fallen.turn.saturating_add(after)
            ));
        }
    }
    if input.overlays.supply
        && let Some(line) = input.map.supply_line(&force.id)
    {
        let text = supply_text(campaign, line);
        if line.supplied {
            ui.colored_label(theme::GOOD, text);
        } else {
            ui.colored_label(theme::CUT_OFF, text);
        }
    } else if force.supply.cut_moves > 0 {
        ui.colored_label(
            theme::CUT_OFF,
            format!(
                "Cut off for {}",
                crate::model::text::count(u64::from(force.supply.cut_moves), "game move", "game moves")
            ),
        );
    }

    if !scene.may_give(&force.side) {
        seat::enemy_stands_ui(ui, scene, &force);
        return;
    }
    ui.separator();
    ui.label(RichText::new("Orders").strong());
    let mut commands = Vec::new();
    ui.horizontal(|ui| {
        ui.checkbox(&mut *input.forced, "Forced march (three moves in one)");
        if ui.button("Hold").clicked() {
            commands.push(order(&force, Action::Hold, false, Conveyance::Foot));
        }
    });
    travel_ui(ui, campaign, &force, input.by);
    ui.horizontal(|ui| {
        let label = ui.label("March to");
        let current = campaign
            .map
            .region(&RegionId::new(&input.form.march_to))
            .map_or("choose a region", |r| r.name.as_str())
            .to_owned();
        egui::ComboBox::from_id_salt("march_to")
            .selected_text(current)
            .height(300.0)
            .show_ui(ui, |ui| {
                for region in &campaign.map.regions {
                    ui.selectable_value(&mut input.form.march_to, region.id.to_string(), &region.name);
                }
            })
            .response
            .labelled_by(label.id);
        if ui
            .add_enabled(!input.form.march_to.is_empty(), egui::Button::new("Order march"))
            .clicked()
        {
            commands.push(order(
                &force,
                Action::To(RegionId::new(&input.form.march_to)),
                *input.forced,
                *input.by,
            ));
        }
    });

    // Split: tick stands, name the new force.
    ui.separator();
    ui.label(RichText::new("Stands").strong());
    if input
        .form
        .split
        .stands
        .iter()
        .any(|s| !force.stands.iter().any(|x| x.id == *s))
    {
        input.form.split = SplitForm::default();
    }
    for stand in &force.stands {
        let mut ticked = input.form.split.stands.contains(&stand.id);
        let text = stand_line(stand);
        if ui.checkbox(&mut ticked, text).changed() {
            if ticked {
                input.form.split.stands.insert(stand.id);
            } else {
                input.form.split.stands.remove(&stand.id);
            }
        }
    }
    if !input.form.split.stands.is_empty() {
        ui.horizontal(|ui| {
            let label = ui.label("New force id");
            ui.text_edit_singleline(&mut input.form.split.id)
                .labelled_by(label.id);
        });
        ui.horizontal(|ui| {
            let label = ui.label("New force name");
            ui.text_edit_singleline(&mut input.form.split.name)
                .labelled_by(label.id);
        });
        if ui
            .button(format!(
                "Split off {}",
                crate::model::text::count(input.form.split.stands.len() as u64, "stand", "stands")
            ))
            .clicked()
        {
            commands.push(order(
                &force,
                Action::Split {
                    stands: input.form.split.stands.iter().copied().collect(),
                    new_force: ForceId::new(input.form.split.id.trim()),
                    name: input.form.split.name.trim().to_owned(),
                },
                false,
                Conveyance::Foot,
            ));
        }
    }

    // Merge with another force of the side in the same region.
    let partners: Vec<&Force> = campaign
        .forces_of(&force.side)
        .filter(|f| f.id != force.id && f.region == force.region && f.en_route.is_none())
        .collect();
    if !partners.is_empty() && force.en_route.is_none() {
        ui.separator();
        ui.horizontal(|ui| {
            let label = ui.label("Merge into");
            let current = partners
                .iter()
                .find(|f| f.id.as_str() == input.form.merge_into)
                .map_or("choose a force", |f| f.name.as_str())
                .to_owned();
            egui::ComboBox::from_id_salt("merge_into")
                .selected_text(current)
                .show_ui(ui, |ui| {
                    for f in &partners {
                        ui.selectable_value(&mut input.form.merge_into, f.id.to_string(), &f.name);
                    }
                })
                .response
                .labelled_by(label.id);
            if ui
                .add_enabled(!input.form.merge_into.is_empty(), egui::Button::new("Merge"))
                .clicked()
            {
                commands.push(order(
                    &force,
                    Action::MergeInto(ForceId::new(&input.form.merge_into)),
                    false,
                    Conveyance::Foot,
                ));
            }
        });
    }
    input.commands.extend(commands);
}

fn order(force: &Force, action: Action, forced: bool, by: Conveyance) -> Command {
    Command::Session(Do::Order {
        side: force.side.clone(),
        request: OrderRequest {
            force: force.id.clone(),
            action,
            forced,
            by,
        },
    })
}

/// "Go: on foot | by train | by steamer": how the force's next march goes,
/// offering trains at a station and steamers at a landing place.
fn travel_ui(ui: &mut Ui, campaign: &Campaign, force: &Force, by: &mut Conveyance) {
    // A stop as `strategy::orders::is_stop` has it, read off the map without
    // indexing it: this runs every frame a force is selected.
    let map = &campaign.map;
    let here = map.region(&force.region).filter(|_| force.en_route.is_none());
    let can = |way: Conveyance| {
        here.is_some_and(|r| {
            way.stop_feature().is_some_and(|f| r.has(f))
                && map
                    .roads
                    .iter()
                    .any(|road| (road.from == r.id || road.to == r.id) && road.carries(way))
        })
    };
    if !by.is_foot() && !can(*by) {
        *by = Conveyance::Foot;
    }
    if !can(Conveyance::Rail) && !can(Conveyance::River) {
        return;
    }
    ui.horizontal(|ui| {
        let label = ui.label("Go");
        ui.selectable_value(by, Conveyance::Foot, "on foot")
            .labelled_by(label.id);
        if can(Conveyance::Rail) {
            ui.selectable_value(by, Conveyance::Rail, "by train");
        }
        if can(Conveyance::River) {
            ui.selectable_value(by, Conveyance::River, "by steamer");
        }
    });
}

fn region_ui(ui: &mut Ui, scene: &Scene<'_>, selection: &mut Selection, id: &RegionId) {
    let campaign = scene.campaign;
    let Some(region) = campaign.map.region(id) else {
        return;
    };
    ui.label(RichText::new(&region.name).strong().size(16.0));
    ui.label(format!("Terrain: {}", region.terrain));
    if !region.features.is_empty() {
        let features: Vec<&str> = region.features.iter().map(|f| f.as_str()).collect();
        ui.label(format!("Features: {}", features.join(", ")));
    }
    for hq in campaign.hqs.iter().filter(|h| &h.region == id) {
        let owner = campaign
            .side(&hq.side)
            .map_or(hq.side.as_str(), |s| s.name.as_str());
        let holder = campaign
            .side(&hq.held_by)
            .map_or(hq.held_by.as_str(), |s| s.name.as_str());
        ui.label(format!("HQ: {}, held by {holder}", hq.label(owner)));
    }
    ui.separator();
    ui.label(RichText::new("Roads").strong());
    for road in campaign.map.roads_from(id) {
        let Some(other) = road.other_end(id) else { continue };
        let crossing = match road.river {
            Some(c) => format!(", river crossing: {c}"),
            None => String::new(),
        };
        ui.label(format!(
            "{} to {}, {}{crossing}",
            road.kind,
            campaign.map.region_name(other),
            crate::model::text::quantity(road.miles, 0, "mile", "miles")
        ));
    }
    let here: Vec<&Force> = campaign.forces.iter().filter(|f| &f.region == id).collect();
    if !here.is_empty() {
        ui.separator();
        ui.label(RichText::new("Forces").strong());
        for force in here {
            let text = match scene.mark(&force.id).filter(|m| !m.in_battle) {
                Some(mark) => seat::known_row(scene, force, mark),
                None => RichText::new(format!("{}: {} pts", force.name, force.points())),
            }
            .color(colour_of(campaign, &force.side));
            if ui.link(text).clicked() {
                *selection = Selection::Force(force.id.clone());
            }
        }
    }
}

/// What the umpire's turn log draws and changes.
#[derive(Debug)]
pub struct Log<'a> {
    pub session: Option<&'a Session>,
    /// The sides and kinds of event hidden.
    pub view: &'a mut ViewState,
    pub rows: &'a mut LogRows,
    pub timelines: &'a mut Timelines,
}

/// The umpire's turn log: every event, filtered by side and kind, undone ones struck through.
pub fn log_ui(ui: &mut Ui, input: Log<'_>) {
    let Log {
        session,
        view,
        rows: log_rows,
        timelines,
    } = input;
    let Some(session) = session else {
        ui.weak("The turn log shows here.");
        return;
    };
    // Only the sides: the campaign itself is not copied each frame.
    let sides: Vec<(crate::model::SideId, String, Color32)> = session
        .campaign()
        .sides
        .iter()
        .map(|s| (s.id.clone(), s.name.clone(), colour_of(session.campaign(), &s.id)))
        .collect();
    let revision = session.revision();
    let timeline = timelines.of(session);
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("Turn log").strong());
        ui.separator();
        for (id, name, colour) in &sides {
            let mut shown = !view.log_hidden_sides.contains(id.as_str());
            let text = RichText::new(name).color(*colour);
            if ui.checkbox(&mut shown, text).changed() {
                if shown {
                    view.log_hidden_sides.remove(id.as_str());
                } else {
                    view.log_hidden_sides.insert(id.to_string());
                }
            }
        }
        ui.separator();
        let kinds = &timeline.kinds;
        let hidden = view.log_hidden_kinds.len();
        ui.menu_button(
            format!(
                "Kinds ({} of {} shown)",
                kinds.len().saturating_sub(hidden),
                kinds.len()
            ),
            |ui| {
                ui.horizontal(|ui| {
                    if ui.button("All").clicked() {
                        view.log_hidden_kinds.clear();
                    }
                    if ui.button("None").clicked() {
                        view.log_hidden_kinds = kinds.iter().cloned().collect();
                    }
                });
                for kind in kinds {
                    let mut shown = !view.log_hidden_kinds.contains(kind);
                    if ui.checkbox(&mut shown, kind.replace('_', " ")).changed() {
                        if shown {
                            view.log_hidden_kinds.remove(kind);
                        } else {
                            view.log_hidden_kinds.insert(kind.clone());
                        }
                    }
                }
            },
        );
    });
    ui.separator();
    let filter = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        view.log_hidden_sides.hash(&mut h);
        view.log_hidden_kinds.hash(&mut h);
        h.finish()
    };
    if log_rows
        .0
        .as_ref()
        .is_none_or(|(key, _)| *key != (revision, filter))
    {
        let hidden_bits: u64 = sides
            .iter()
            .enumerate()
            .filter(|(_, (id, _, _))| view.log_hidden_sides.contains(id.as_str()))
            .fold(0, |bits, (i, _)| {
                bits | u32::try_from(i)
                    .ok()
                    .and_then(|i| 1u64.checked_shl(i))
                    .unwrap_or(0)
            });
        let hidden_kinds = &view.log_hidden_kinds;
        let rows = session
            .events()
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                !matches!(e.kind, crate::model::EventKind::Checkpoint(_))
                    && !hidden_kinds.contains(e.kind.name())
            })
            .filter(|(i, _)| {
                let sides = timeline.event_sides.get(*i).copied().unwrap_or(0);
                sides == 0 || sides & !hidden_bits != 0
            })
            .map(|(i, _)| i)
            .collect();
        log_rows.0 = Some(((revision, filter), rows));
    }
    let Some((_, rows)) = &log_rows.0 else {
        return;
    };
    let undone = &timeline.undone;
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 2.0;
    ScrollArea::vertical()
        .auto_shrink(false)
        .stick_to_bottom(true)
        .show_rows(ui, row_height, rows.len(), |ui, range| {
            for &i in rows.get(range).into_iter().flatten() {
                let Some(event) = session.events().get(i) else {
                    continue;
                };
                let text = format!("Move {}: {}", event.turn, event.sentence);
                // The programmed commander's reasons, on hover (the umpire's log only).
                let reasons = match &event.kind {
                    crate::model::EventKind::OrdersGiven(given) => given.commander_log().join("\n"),
                    _ => String::new(),
                };
                let label = if undone.contains(&i) {
                    ui.label(RichText::new(format!("(undone) {text}")).weak().strikethrough())
                } else if reasons.is_empty() {
                    ui.label(text)
                } else {
                    ui.label(format!("{text} (its reasons: hover)"))
                };
                if !reasons.is_empty() {
                    label.on_hover_text(reasons);
                }
            }
        });
}

/// The last game move's summary, while it is kept.
pub fn summary_window(ctx: &egui::Context, summary: &mut Option<(u32, Vec<Event>)>) {
    let Some((turn, events)) = &summary else {
        return;
    };
    let mut open = true;
    let mut close = false;
    egui::Window::new(format!("Game move {turn}: what happened"))
        .id(egui::Id::unique("turn_summary"))
        .pivot(egui::Align2::CENTER_CENTER)
        .default_pos(ctx.content_rect().center())
        .open(&mut open)
        .default_size([520.0, 360.0])
        .show(ctx, |ui| {
            ScrollArea::vertical().max_height(300.0).show(ui, |ui| {
                for event in events {
                    ui.label(&event.sentence);
                }
            });
            if ui.button("Close").clicked() {
                close = true;
            }
        });
    if !open || close {
        *summary = None;
    }
}

/// The File menu's forms; `recent`: the recent saves offered.
pub fn file_windows(
    ctx: &egui::Context,
    forms: &mut FileForms,
    recent: &[PathBuf],
    commands: &mut Vec<Command>,
) {
    if let Some((campaign, save)) = forms.new_campaign.as_mut() {
        let mut open = true;
        let mut go = false;
        egui::Window::new("New campaign").open(&mut open).show(ctx, |ui| {
            ui.label(
                "Creates a save from a campaign file (campaigns/*.toml) and its map, as `umpire new` does.",
            );
            seat::path_field_ui(ui, "Campaign file", campaign);
            seat::path_field_ui(ui, "New save", save);
            go = ui.button("Create").clicked();
        });
        if go {
            let command = Command::NewCampaign {
                campaign: PathBuf::from(campaign.trim()),
                save: PathBuf::from(save.trim()),
            };
            commands.push(command);
        }
        if !open {
            forms.new_campaign = None;
        }
    }
    if let Some(path) = forms.open.as_mut() {
        let mut open = true;
        let mut go = false;
        egui::Window::new("Open a save").open(&mut open).show(ctx, |ui| {
            seat::path_field_ui(ui, "Save file", path);
            go = ui.button("Open").clicked();
            if !recent.is_empty() {
                ui.separator();
                ui.label("Recent:");
                for r in recent {
                    if ui.link(r.display().to_string()).clicked() {
                        *path = r.display().to_string();
                    }
                }
            }
        });
        if go {
            commands.push(Command::Open(PathBuf::from(path.trim())));
        }
        if !open {
            forms.open = None;
        }
    }
    if let Some(form) = forms.export_report.as_mut() {
        let mut open = true;
        let mut go = false;
        egui::Window::new("Export a side's report").open(&mut open).show(ctx, |ui| {
            ui.label(
                "What the side knows, for play by email: a page to read in any browser (.html), or the report its window opens (.json).",
            );
            ui.horizontal(|ui| {
                let label = ui.label("Side");
                let chosen = form.sides.get(form.side).map_or("", |(_, name)| name.as_str()).to_owned();
                egui::ComboBox::from_id_salt("export_side")
                    .selected_text(chosen)
                    .show_ui(ui, |ui| {
                        for (i, (id, name)) in form.sides.iter().enumerate() {
                            if ui.selectable_label(form.side == i, name).clicked() && form.side != i {
                                // Follow the side in the file's name when it is the default one.
                                let old = form.sides.get(form.side).map(|(o, _)| o.to_string());
                                if let Some(old) = old {
                                    form.path = form.path.replace(&format!("{old}_move"), &format!("{id}_move"));
                                }
                                form.side = i;
                            }
                        }
                    })
                    .response
                    .labelled_by(label.id);
            });
            seat::path_field_ui(ui, "File", &mut form.path);
            go = ui.button("Export").clicked();
        });
        if go && let Some((side, _)) = form.sides.get(form.side) {
            commands.push(Command::ExportReport {
                side: side.clone(),
                path: PathBuf::from(form.path.trim()),
            });
        }
        if !open {
            forms.export_report = None;
        }
    }
    if let Some(form) = forms.export_chronicle.as_mut() {
        let mut open = true;
        let mut go = false;
        egui::Window::new("Export chronicle").open(&mut open).show(ctx, |ui| {
            ui.label(
                "The campaign move by move as one page: maps with the marches and battles, losses, HQs, rulings, charts and each force's service record.",
            );
            ui.horizontal(|ui| {
                let label = ui.label("Whose");
                let chosen = form
                    .side
                    .and_then(|i| form.sides.get(i))
                    .map_or("The umpire's: everything", |(_, name)| name.as_str())
                    .to_owned();
                egui::ComboBox::from_id_salt("chronicle_side")
                    .selected_text(chosen)
                    .show_ui(ui, |ui| {
                        if form.umpire
                            && ui.selectable_label(form.side.is_none(), "The umpire's: everything").clicked()
                        {
                            form.side = None;
                        }
                        for (i, (_, name)) in form.sides.iter().enumerate() {
                            if ui.selectable_label(form.side == Some(i), name).clicked() {
                                form.side = Some(i);
                            }
                        }
                    })
                    .response
                    .labelled_by(label.id);
            });
            seat::path_field_ui(ui, "File", &mut form.path);
            go = ui.button("Export").clicked();
        });
        if go {
            commands.push(Command::ExportChronicle {
                side: form
                    .side
                    .and_then(|i| form.sides.get(i))
                    .map(|(id, _)| id.clone()),
                path: PathBuf::from(form.path.trim()),
            });
        }
        if !open {
            forms.export_chronicle = None;
        }
    }
    if let Some(path) = forms.save_as.as_mut() {
        let mut open = true;
        let mut go = false;
        egui::Window::new("Save as").open(&mut open).show(ctx, |ui| {
            ui.label("Copies the save with its whole history; the window goes on in the copy.");
            seat::path_field_ui(ui, "New save", path);
            go = ui.button("Save").clicked();
        });
        if go {
            commands.push(Command::SaveAs(PathBuf::from(path.trim())));
        }
        if !open {
            forms.save_as = None;
        }
    }
}

/// End turn pressed with battles pending: the warning shown, and whether the
/// next End turn goes ahead anyway.
#[derive(Debug, Default)]
pub struct EndTurnCheck {
    /// The pending battles warned of, one sentence each; `None`: no warning up.
    pub warning: Option<Vec<String>>,
    /// "End turn anyway" was pressed: the next End turn is not stopped.
    pub anyway: bool,
}

/// The warning that battles are pending, over the window until the umpire
/// ends the turn anyway or goes back to fight them.
pub fn end_turn_warning(ctx: &egui::Context, check: &mut EndTurnCheck, commands: &mut Vec<Command>) {
    let Some(pending) = &check.warning else {
        return;
    };
    let mut close = false;
    let modal = egui::Modal::new(egui::Id::unique("end_turn_pending_battles")).show(ctx, |ui| {
        ui.set_max_width(460.0);
        ui.heading("End turn with battles pending?");
        ui.label(match pending.len() {
            1 => "1 battle is still pending:".to_owned(),
            n => format!("{n} battles are still pending:"),
        });
        for line in pending {
            ui.label(format!("\u{2022} {line}"));
        }
        ui.label("Fight them first (View > Battles), or end the turn anyway: they stay pending, to be fought later.");
        ui.horizontal(|ui| {
            if ui.button("End turn anyway").clicked() {
                check.anyway = true;
                commands.push(Command::Session(Do::EndTurn));
                close = true;
            }
            if ui.button("Cancel").clicked() {
                close = true;
            }
        });
    });
    if close || modal.should_close() {
        check.warning = None;
    }
}

/// The Help menu's windows. `house_rules`: the campaign's settings that
/// differ from the seeds (`model::house_rules::differences`), shown under the sources.
pub fn help_windows(ctx: &egui::Context, help: &mut HelpWindows, house_rules: &[Difference]) {
    egui::Window::new("Rule sources")
        .open(&mut help.rules)
        .default_size([520.0, 380.0])
        .show(ctx, |ui| {
            ScrollArea::vertical().show(ui, |ui| {
                ui.label(RichText::new("The campaign: Jack Scruby's Strategic Rules").strong());
                ui.label(format!(
                    "{}: Strategic Rules 1 (three HQs a side), 2 (supply: HQ lost, roads cut, 4 moves' grace), 3 (forced marches: three moves in one, a stand per ten marching, rest after three, never into an attack), and the Movement chart (march rates by arm, road, column and open order).",
                    crate::rules::SCRUBY_BASIC
                ));
                ui.label(format!(
                    "{}: the Basic Conception, HQs and Concealed Forces.",
                    crate::rules::SCRUBY_1961
                ));
                if !house_rules.is_empty() {
                    ui.add_space(6.0);
                    ui.label(RichText::new("This campaign's house rules").strong());
                    for rule in house_rules {
                        ui.label(format!("House rule: {}.", rule.sentence()));
                    }
                }
                ui.add_space(6.0);
                ui.label(RichText::new("The battles: five rule sets").strong());
                for rules in crate::rules::rule_sets() {
                    ui.label(format!("{}: {}", rules.id(), rules.publication()));
                }
                ui.add_space(6.0);
                ui.weak("Every rule the program follows names the section it comes from.");
            });
        });
    egui::Window::new("Keyboard shortcuts")
        .open(&mut help.keys)
        .show(ctx, |ui| {
            let short = |k: &egui::KeyboardShortcut| keys::text(ctx, k);
            let key = |k: egui::Key| keys::key_text(k).to_owned();
            egui::Grid::new("keys").striped(true).show(ui, |ui| {
                for (combo, what) in [
                    (short(&keys::END_TURN), "End turn: resolve the game move"),
                    (
                        short(&keys::UNDO),
                        "Undo the last orders, or else the last game move",
                    ),
                    (
                        format!("{}, {}", short(&keys::REDO), short(&keys::REDO_TOO)),
                        "Redo orders",
                    ),
                    (
                        format!("{} / {}", short(&keys::NEW), short(&keys::OPEN)),
                        "New campaign / open a save",
                    ),
                    (short(&keys::SAVE_AS), "Save as"),
                    (short(&keys::QUIT), "Quit"),
                    (key(keys::FORCED_MARCH), "Forced march on or off for new orders"),
                    (key(keys::DESELECT), "Clear the selection"),
                    (key(keys::ZOOM_TO_FIT), "Zoom to fit"),
                    ("Arrows, WASD, drag".to_owned(), "Pan the map"),
                    ("Wheel, + and -".to_owned(), "Zoom"),
                    ("Click a counter".to_owned(), "Select the force"),
                    (
                        "Click or drag to a region".to_owned(),
                        "Order the selected force to march there",
                    ),
                    ("Right-click a region".to_owned(), "Inspect the region"),
                    (
                        "Alt-drag a counter".to_owned(),
                        "The umpire's pencil: put the force there, outside the rules",
                    ),
                    (key(keys::HELP), "This list"),
                ] {
                    ui.label(RichText::new(combo).strong());
                    ui.label(what);
                    ui.end_row();
                }
            });
        });
}
