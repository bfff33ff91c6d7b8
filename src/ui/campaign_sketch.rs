//! The map maker's Campaign tool: a new campaign set out on the map being
//! drawn (its sides, each side's three HQs and its forces, dragged from a
//! palette onto regions), checked as `umpire check` checks a campaign file
//! and saved as one. The sketch itself is `model::campaign_file`.

use super::state::Notes;
use super::theme;
use crate::model::campaign_file::{self, CampaignSketch, SketchSide, TEMPLATES};
use crate::model::{Map, RegionId, RuleSetId, Wing};
use egui::{Align2, Color32, FontId, Pos2, Rect, Stroke, Ui, vec2};
use std::path::{Path, PathBuf};

/// What the palette holds: dragged onto a region, it is placed there for the
/// side chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Palette {
    Hq(Wing),
    /// A force of `campaign_file::TEMPLATES[i]`.
    Force(usize),
}

/// A change to the campaign being set out.
#[derive(Debug, Clone, PartialEq)]
pub enum SketchCommand {
    Title(String),
    StartDate(String),
    Rules(RuleSetId),
    Seed(u32),
    Side(usize, SketchSide),
    AddSide,
    RemoveSide(usize),
    /// The side the palette places for.
    Choose(usize),
    Place(Palette, RegionId),
    RemoveForce(usize),
    /// Opens the form to save the campaign file.
    AskSave,
    Save(PathBuf),
}

/// The Campaign tool's state.
#[derive(Debug)]
pub struct Sketching {
    pub sketch: CampaignSketch,
    /// The side the palette places for.
    pub side: usize,
    problems: Vec<(bool, String)>,
    /// The map revision and sketch changes the problems were found for.
    checked: Option<(u64, u64)>,
    changes: u64,
    save_form: Option<String>,
    form_fresh: bool,
    /// The campaign file last saved.
    pub saved: Option<PathBuf>,
}

impl Sketching {
    pub fn new(map: &Map) -> Sketching {
        Sketching {
            sketch: CampaignSketch::new(&map.name, "map.toml"),
            side: 0,
            problems: Vec::new(),
            checked: None,
            changes: 0,
            save_form: None,
            form_fresh: false,
            saved: None,
        }
    }

    /// What `umpire check` finds in the campaign as it stands on `map`.
    pub fn problems(&self) -> &[(bool, String)] {
        &self.problems
    }

    /// Checks the campaign again when it or the map changed.
    pub fn check(&mut self, map: &Map, revision: u64) {
        if self.checked == Some((revision, self.changes)) {
            return;
        }
        self.checked = Some((revision, self.changes));
        self.sketch.follow_map(map);
        self.problems = campaign_file::sketch_problems(&self.sketch, map);
    }

    /// Carries out a change; `map_path`: the map file (saved, unchanged) a
    /// campaign file can name, or why there is none.
    pub fn apply(
        &mut self,
        command: SketchCommand,
        map: &Map,
        map_path: Result<&Path, &str>,
        notes: &mut Notes,
    ) {
        self.changes += 1;
        let s = &mut self.sketch;
        match command {
            SketchCommand::Title(t) => s.title = t,
            SketchCommand::StartDate(d) => s.start_date = d,
            SketchCommand::Rules(r) => s.rules = r,
            SketchCommand::Seed(n) => s.seed = n,
            SketchCommand::Side(i, side) => {
                if let Some(slot) = s.sides.get_mut(i) {
                    let old = std::mem::replace(slot, side);
                    let new = slot.id.clone();
                    for hq in s.hqs.iter_mut().filter(|h| h.side == old.id) {
                        hq.side.clone_from(&new);
                    }
                    for force in s.forces.iter_mut().filter(|f| f.side == old.id) {
                        force.side.clone_from(&new);
                    }
                }
            }
            SketchCommand::AddSide => {
                s.add_side();
                self.side = s.sides.len() - 1;
            }
            SketchCommand::RemoveSide(i) => {
                s.remove_side(i);
                self.side = self.side.min(s.sides.len().saturating_sub(1));
            }
            SketchCommand::Choose(i) => self.side = i,
            SketchCommand::Place(item, region) => {
                let name = map.region_name(&region).to_owned();
                match item {
                    Palette::Hq(wing) => {
                        s.place_hq(self.side, wing, region, &name);
                        notes.note(format!("Placed the {wing} HQ at {name}."));
                    }
                    Palette::Force(t) => {
                        if let Some(template) = TEMPLATES.get(t) {
                            s.place_force(self.side, template, region);
                            if let Some(force) = s.forces.last() {
                                notes.note(format!("Placed {} at {name}.", force.name));
                            }
                        }
                    }
                }
            }
            SketchCommand::RemoveForce(i) => {
                if i < s.forces.len() {
                    s.forces.remove(i);
                }
            }
            SketchCommand::AskSave => match map_path {
                Ok(map_path) => {
                    let folder = map_path.parent().and_then(Path::parent).unwrap_or(Path::new("."));
                    let name = crate::model::map_edit::id_from_name(&s.title)
                        .unwrap_or_else(|| "campaign".to_owned());
                    let suggested = self
                        .saved
                        .clone()
                        .unwrap_or_else(|| folder.join("campaigns").join(format!("{name}.toml")));
                    self.save_form = Some(suggested.display().to_string());
                    self.form_fresh = true;
                }
                Err(why) => notes.error(why.to_owned()),
            },
            SketchCommand::Save(path) => self.save(&path, map_path, notes),
        }
    }

    fn save(&mut self, path: &Path, map_path: Result<&Path, &str>, notes: &mut Notes) {
        let map_path = match map_path {
            Ok(p) => p,
            Err(why) => {
                notes.error(why.to_owned());
                return;
            }
        };
        let mut sketch = self.sketch.clone();
        sketch.map = crate::files::relative_path(path, map_path);
        let text = match campaign_file::campaign_file_text(&sketch, crate::model::map_edit::WRITTEN_BY) {
            Ok(text) => text,
            Err(e) => {
                notes.error(format!("The campaign was not saved: {e}"));
                return;
            }
        };
        if let Err(e) = crate::files::write_file(path, text.as_bytes()) {
            notes.error(format!("The campaign was not saved: {e}"));
            return;
        }
        self.sketch.map = sketch.map;
        self.saved = Some(path.to_owned());
        self.save_form = None;
        let checked = crate::files::load_campaign(path);
        match checked.value {
            Some(c) => notes.done(format!(
                "Saved the campaign {} ({} sides, {} forces, {} stands); `umpire check` passes it. Start it with File > New campaign, or `umpire new {} SAVE`.",
                path.display(),
                c.sides.len(),
                c.forces.len(),
                c.forces.iter().map(|f| f.stands.len()).sum::<usize>(),
                path.display()
            )),
            None => notes.error(format!(
                "Saved {}, with problems that `umpire check` refuses (listed at the right): {}",
                path.display(),
                checked
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .take(2)
                    .map(|d| d.message.clone())
                    .collect::<Vec<_>>()
                    .join("; ")
            )),
        }
    }

    /// The side panel of the Campaign tool.
    pub fn panel_ui(&self, ui: &mut Ui, map: &Map, commands: &mut Vec<SketchCommand>) {
        let s = &self.sketch;
        ui.strong("A new campaign on this map");
        ui.weak("Drag an HQ or a force from the palette onto a region, for the side chosen.");
        egui::Grid::new("sketch_fields").num_columns(2).show(ui, |ui| {
            let label = ui.label("Title");
            let mut title = s.title.clone();
            if ui
                .text_edit_singleline(&mut title)
                .labelled_by(label.id)
                .changed()
            {
                commands.push(SketchCommand::Title(title));
            }
            ui.end_row();
            let label = ui.label("Start date");
            let mut date = s.start_date.clone();
            if ui.text_edit_singleline(&mut date).labelled_by(label.id).changed() {
                commands.push(SketchCommand::StartDate(date));
            }
            ui.end_row();
            let label = ui.label("Rules");
            let mut rules = s.rules;
            egui::ComboBox::from_id_salt("sketch_rules")
                .selected_text(rules.to_string())
                .show_ui(ui, |ui| {
                    for r in RuleSetId::ALL {
                        ui.selectable_value(&mut rules, *r, r.to_string());
                    }
                })
                .response
                .labelled_by(label.id);
            if rules != s.rules {
                commands.push(SketchCommand::Rules(rules));
            }
            ui.end_row();
            let label = ui.label("Seed");
            let mut seed = s.seed;
            if ui
                .add(egui::DragValue::new(&mut seed))
                .labelled_by(label.id)
                .changed()
            {
                commands.push(SketchCommand::Seed(seed));
            }
            ui.end_row();
        });
        ui.add_space(4.0);
        ui.label("Sides (the palette places for the one ticked)");
        for (i, side) in s.sides.iter().enumerate() {
            ui.horizontal(|ui| {
                let chosen = ui
                    .radio(self.side == i, format!("Side {}", i + 1))
                    .on_hover_text("The palette places for this side");
                if chosen.clicked() {
                    commands.push(SketchCommand::Choose(i));
                }
                let mut colour = colour_of(&side.colour);
                if egui::color_picker::color_edit_button_srgba(
                    ui,
                    &mut colour,
                    egui::color_picker::Alpha::Opaque,
                )
                .changed()
                {
                    let mut changed = side.clone();
                    changed.colour = format!("#{:02x}{:02x}{:02x}", colour.r(), colour.g(), colour.b());
                    commands.push(SketchCommand::Side(i, changed));
                }
                let mut name = side.name.clone();
                if ui
                    .add(egui::TextEdit::singleline(&mut name).desired_width(110.0))
                    .labelled_by(chosen.id)
                    .changed()
                {
                    let mut changed = side.clone();
                    if let Some(id) = crate::model::map_edit::id_from_name(&name)
                        && !s.sides.iter().any(|o| o.id == id)
                    {
                        changed.id = id;
                    }
                    changed.name = name;
                    commands.push(SketchCommand::Side(i, changed));
                }
                let hqs = s.hqs.iter().filter(|h| h.side == side.id).count();
                let forces = s.forces.iter().filter(|f| f.side == side.id).count();
                ui.weak(format!("{hqs}/3 HQs, {forces} forces"));
                if s.sides.len() > 2 && ui.small_button("×").on_hover_text("Remove the side").clicked() {
                    commands.push(SketchCommand::RemoveSide(i));
                }
            });
        }
        if ui.button("Add a side").clicked() {
            commands.push(SketchCommand::AddSide);
        }
        ui.add_space(4.0);
        let colour = s
            .sides
            .get(self.side)
            .map_or(theme::LABEL, |side| colour_of(&side.colour));
        ui.label("Palette (drag onto a region)");
        ui.horizontal_wrapped(|ui| {
            for wing in Wing::ALL {
                let id = egui::Id::unique(("palette_hq", wing.as_str()));
                ui.dnd_drag_source(id, Palette::Hq(*wing), |ui| {
                    chip_ui(ui, &format!("{} HQ", capitalised(wing.as_str())), colour);
                });
            }
        });
        // Two to a row, so the panel keeps its width.
        for (row, pair) in TEMPLATES.chunks(2).enumerate() {
            ui.horizontal(|ui| {
                for (k, template) in pair.iter().enumerate() {
                    let t = row * 2 + k;
                    let id = egui::Id::unique(("palette_force", t));
                    ui.dnd_drag_source(id, Palette::Force(t), |ui| {
                        chip_ui(
                            ui,
                            &format!("{} ({})", template.name, template.stands.len()),
                            colour,
                        );
                    });
                }
            });
        }
        ui.add_space(4.0);
        ui.label(format!("Forces ({})", s.forces.len()));
        for (i, force) in s.forces.iter().enumerate() {
            ui.horizontal(|ui| {
                if ui.small_button("×").on_hover_text("Remove the force").clicked() {
                    commands.push(SketchCommand::RemoveForce(i));
                }
                ui.label(format!(
                    "{} at {}, {} stands",
                    force.name,
                    map.region_name(&force.region),
                    force.stands.len()
                ));
            });
        }
        ui.add_space(4.0);
        if ui.button("Save campaign as…").clicked() {
            commands.push(SketchCommand::AskSave);
        }
        ui.separator();
        let errors: Vec<&(bool, String)> = self.problems.iter().filter(|(e, _)| *e).collect();
        if errors.is_empty() {
            ui.colored_label(theme::GOOD, "`umpire check` passes this campaign.");
        } else {
            ui.strong(format!("Campaign problems ({})", errors.len()));
            for (_, message) in errors {
                ui.colored_label(theme::ERROR, format!("error: {message}"));
            }
        }
    }

    /// The form to save the campaign file.
    pub fn form_ui(&mut self, ctx: &egui::Context, commands: &mut Vec<SketchCommand>) {
        let Some(path) = self.save_form.as_mut() else {
            return;
        };
        let fresh = std::mem::take(&mut self.form_fresh);
        let (mut open, mut go) = (true, false);
        egui::Window::new("Save campaign as").open(&mut open).show(ctx, |ui| {
            ui.label("Writes the campaign as a campaign file (TOML) naming this map file; `umpire new` starts it.");
            ui.horizontal(|ui| {
                let label = ui.label("Campaign file");
                let field = ui
                    .add(egui::TextEdit::singleline(path).desired_width(380.0))
                    .labelled_by(label.id);
                if fresh {
                    field.request_focus();
                }
                go = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            });
            go |= ui.button("Save").clicked();
        });
        if go {
            commands.push(SketchCommand::Save(PathBuf::from(path.trim())));
        }
        if !open {
            self.save_form = None;
        }
    }

    /// HQ flags and force counters on the map, in their sides' colours.
    pub fn paint(&self, painter: &egui::Painter, screen: impl Fn(&RegionId) -> Option<Pos2>) {
        let colour = |side: &str| {
            self.sketch
                .sides
                .iter()
                .find(|s| s.id == side)
                .map_or(theme::LABEL, |s| colour_of(&s.colour))
        };
        for hq in &self.sketch.hqs {
            let Some(at) = screen(&hq.region) else { continue };
            let pole = at + vec2(-9.0, -4.0);
            painter.line_segment([pole, pole - vec2(0.0, 18.0)], Stroke::new(1.5, theme::FLAGPOLE));
            let top = pole - vec2(0.0, 18.0);
            painter.add(egui::Shape::convex_polygon(
                vec![top, top + vec2(-12.0, 4.0), top + vec2(0.0, 8.0)],
                colour(&hq.side),
                Stroke::new(1.0, theme::FLAGPOLE),
            ));
        }
        let mut stacked: std::collections::HashMap<&RegionId, f32> = std::collections::HashMap::new();
        for force in &self.sketch.forces {
            let Some(at) = screen(&force.region) else { continue };
            let k = stacked.entry(&force.region).or_insert(0.0);
            let rect = Rect::from_min_size(at + vec2(6.0 + *k * 4.0, -22.0 - *k * 6.0), vec2(26.0, 16.0));
            *k += 1.0;
            painter.rect(
                rect,
                2.0,
                colour(&force.side),
                Stroke::new(1.0, theme::COUNTER_EDGE),
                egui::StrokeKind::Inside,
            );
            painter.text(
                rect.center(),
                Align2::CENTER_CENTER,
                force.stands.len().to_string(),
                FontId::proportional(11.0),
                Color32::WHITE,
            );
        }
    }
}

fn chip_ui(ui: &mut Ui, text: &str, colour: Color32) {
    egui::Frame::new()
        .fill(colour.gamma_multiply(0.25))
        .stroke(Stroke::new(1.0, colour))
        .corner_radius(3.0)
        .inner_margin(egui::Margin::symmetric(6, 2))
        .show(ui, |ui| {
            ui.add(
                egui::Label::new(text)
                    .selectable(false)
                    .wrap_mode(egui::TextWrapMode::Extend),
            );
        });
}

fn colour_of(hex: &str) -> Color32 {
    let byte = |i: usize| {
        hex.get(i..i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .unwrap_or(80)
    };
    Color32::from_rgb(byte(1), byte(3), byte(5))
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
