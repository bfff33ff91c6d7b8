//! The umpire's pencil in the window: a window of edits outside the rules
//! (the selected force moved, rested, its stands' strengths set, stands added
//! or removed; a reinforcement landed; an HQ handed over; a ruling written;
//! the campaign declared ended),
//! each sent as a [`session::Command::Edit`] with the umpire's reason and
//! checked by the same core as `umpire edit`. Alt-dragging a counter on the
//! map moves the force with the pencil (`map_view`).

use super::command::{Command, Selection};
use super::session;
use crate::model::event::{Edit, ForceState};
use crate::model::{Campaign, ForceId, Quality, RegionId, SideId, StandId, StandKind};
use crate::strategy::edit::new_stands;
use egui::{ComboBox, DragValue, RichText, TextEdit, Ui};
use std::collections::BTreeMap;

/// What the map's Alt-drag gives as the reason when the pencil has none.
pub const DRAGGED: &str = "moved on the map by the umpire";

/// The pencil window's fields, kept between frames.
#[derive(Debug, Clone)]
pub struct Pencil {
    pub open: bool,
    /// Why: kept in the log with every edit.
    pub reason: String,
    pub ruling: String,
    move_to: Option<RegionId>,
    /// Stand strengths being set, by stand.
    strengths: BTreeMap<StandId, u32>,
    kind: StandKind,
    quality: Quality,
    count: u32,
    new_id: String,
    new_name: String,
    new_side: Option<SideId>,
    new_region: Option<RegionId>,
}

impl Default for Pencil {
    fn default() -> Pencil {
        Pencil {
            open: false,
            reason: String::new(),
            ruling: String::new(),
            move_to: None,
            strengths: BTreeMap::new(),
            kind: StandKind::LineInfantry,
            quality: Quality::Trained,
            count: 1,
            new_id: String::new(),
            new_name: String::new(),
            new_side: None,
            new_region: None,
        }
    }
}

impl Pencil {
    /// The reason to give an edit, or what the map's drag says.
    pub fn reason_or(&self, default: &str) -> String {
        if self.reason.trim().is_empty() {
            default.to_owned()
        } else {
            self.reason.trim().to_owned()
        }
    }
}

/// The pencil window, in the umpire's view.
pub fn pencil_window(
    ctx: &egui::Context,
    campaign: &Campaign,
    pencil: &mut Pencil,
    selection: &Selection,
    commands: &mut Vec<Command>,
) {
    let mut open = pencil.open;
    egui::Window::new("Umpire's pencil")
        .id(egui::Id::unique("umpire_pencil"))
        .open(&mut open)
        .default_size([360.0, 480.0])
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                pencil_ui(ui, campaign, pencil, selection, commands);
            });
        });
    pencil.open = open;
}

fn pencil_ui(
    ui: &mut Ui,
    campaign: &Campaign,
    pencil: &mut Pencil,
    selection: &Selection,
    commands: &mut Vec<Command>,
) {
    ui.label("Changes outside the rules, each kept in the log with its reason; Undo takes back the last.");
    ui.horizontal(|ui| {
        let label = ui.label("Reason:");
        ui.add(TextEdit::singleline(&mut pencil.reason).hint_text("why the umpire makes the change"))
            .labelled_by(label.id);
    });
    let mut send = |edit: Edit, reason: String| {
        commands.push(Command::Session(session::Command::Edit { edit, reason }));
    };
    let reason = pencil.reason.trim().to_owned();
    let has_reason = !reason.is_empty();
    ui.separator();
    match selection {
        Selection::Force(id) => match campaign.force(id) {
            Some(force) => {
                ui.label(RichText::new(&force.name).strong());
                ui.horizontal(|ui| {
                    region_choice_ui(ui, "Move to:", campaign, &mut pencil.move_to);
                    if let Some(to) = pencil.move_to.clone()
                        && ui
                            .add_enabled(has_reason, egui::Button::new("Move there"))
                            .clicked()
                    {
                        send(
                            Edit::MoveForce {
                                force: id.clone(),
                                to,
                            },
                            reason.clone(),
                        );
                    }
                });
                ui.horizontal(|ui| {
                    for (label, state) in [
                        ("Hold", ForceState::Hold),
                        ("Must rest", ForceState::Rest),
                        ("Fresh", ForceState::Fresh),
                    ] {
                        if ui.add_enabled(has_reason, egui::Button::new(label)).clicked() {
                            send(
                                Edit::SetState {
                                    force: id.clone(),
                                    state,
                                },
                                reason.clone(),
                            );
                        }
                    }
                });
                ui.label("Stands (roster points):");
                for stand in &force.stands {
                    ui.horizontal(|ui| {
                        let value = pencil.strengths.entry(stand.id).or_insert(stand.strength);
                        let name = ui.label(format!("{} {}", stand.id, stand.name));
                        ui.add(DragValue::new(value).range(0..=stand.full))
                            .labelled_by(name.id);
                        ui.label(format!("of {}", stand.full));
                        if *value != stand.strength
                            && ui.add_enabled(has_reason, egui::Button::new("Set")).clicked()
                        {
                            send(
                                Edit::SetStrength {
                                    force: id.clone(),
                                    stand: stand.id,
                                    strength: *value,
                                },
                                reason.clone(),
                            );
                        }
                        if ui.add_enabled(has_reason, egui::Button::new("Remove")).clicked() {
                            send(
                                Edit::RemoveStand {
                                    force: id.clone(),
                                    stand: stand.id,
                                },
                                reason.clone(),
                            );
                        }
                    });
                }
                ui.horizontal(|ui| {
                    stands_choice_ui(ui, "Add:", pencil);
                    if ui
                        .add_enabled(has_reason, egui::Button::new("Add stands"))
                        .clicked()
                    {
                        let stands = new_stands(campaign, pencil.kind, pencil.quality, pencil.count, None);
                        send(
                            Edit::AddStands {
                                force: id.clone(),
                                stands,
                            },
                            reason.clone(),
                        );
                    }
                });
            }
            None => {
                ui.label("The force selected is no longer on the roll.");
            }
        },
        _ => {
            ui.weak("Select a force to move it, rest it, or change its stands.");
        }
    }
    if !has_reason {
        ui.weak("Give a reason to make an edit.");
    }
    ui.separator();
    ui.collapsing("Land a reinforcement", |ui| {
        ui.horizontal(|ui| {
            let label = ui.label("Id:");
            ui.add(TextEdit::singleline(&mut pencil.new_id).desired_width(90.0))
                .labelled_by(label.id);
            let label = ui.label("Name:");
            ui.add(TextEdit::singleline(&mut pencil.new_name).desired_width(140.0))
                .labelled_by(label.id);
        });
        ui.horizontal(|ui| {
            let label = ui.label("Side:");
            ComboBox::from_id_salt("pencil_new_side")
                .selected_text(
                    pencil
                        .new_side
                        .as_ref()
                        .and_then(|s| campaign.side(s))
                        .map_or("side…", |s| s.name.as_str()),
                )
                .show_ui(ui, |ui| {
                    for side in &campaign.sides {
                        ui.selectable_value(&mut pencil.new_side, Some(side.id.clone()), &side.name);
                    }
                })
                .response
                .labelled_by(label.id);
            region_choice_ui(ui, "Arrives at:", campaign, &mut pencil.new_region);
        });
        ui.horizontal(|ui| {
            stands_choice_ui(ui, "Stands:", pencil);
        });
        let ready = has_reason && pencil.new_side.is_some() && pencil.new_region.is_some();
        if ui.add_enabled(ready, egui::Button::new("Land it")).clicked()
            && let (Some(side), Some(region)) = (pencil.new_side.clone(), pencil.new_region.clone())
        {
            let stands = new_stands(campaign, pencil.kind, pencil.quality, pencil.count, None);
            send(
                Edit::AddForce {
                    force: ForceId::new(pencil.new_id.trim()),
                    name: pencil.new_name.trim().to_owned(),
                    side,
                    region,
                    stands,
                },
                reason.clone(),
            );
        }
    });
    ui.collapsing("Hand an HQ over", |ui| {
        for hq in &campaign.hqs {
            ui.horizontal(|ui| {
                let holder = campaign
                    .side(&hq.held_by)
                    .map_or(hq.held_by.as_str(), |s| s.name.as_str());
                ui.label(format!(
                    "{} ({} {}), held by {holder}",
                    hq.name.as_deref().unwrap_or("HQ"),
                    hq.side,
                    hq.wing.as_str()
                ));
                for side in campaign.sides.iter().filter(|s| s.id != hq.held_by) {
                    if ui
                        .add_enabled(has_reason, egui::Button::new(format!("to {}", side.name)))
                        .clicked()
                    {
                        send(
                            Edit::HandOverHq {
                                side: hq.side.clone(),
                                wing: hq.wing,
                                to: side.id.clone(),
                            },
                            reason.clone(),
                        );
                    }
                }
            });
        }
    });
    ui.separator();
    let label = ui.label("A ruling, for every side to read in the log:");
    ui.add(TextEdit::multiline(&mut pencil.ruling).desired_rows(2))
        .labelled_by(label.id);
    if ui
        .add_enabled(
            !pencil.ruling.trim().is_empty(),
            egui::Button::new("Write the ruling"),
        )
        .clicked()
    {
        send(Edit::Ruling, pencil.ruling.trim().to_owned());
        pencil.ruling.clear();
    }
    ui.separator();
    // The umpire's end of the campaign, for the reason above; undo takes it back.
    let ended = campaign.end.ended.is_some();
    let end = ui
        .add_enabled(
            has_reason && !ended,
            egui::Button::new("End the campaign (for the reason above)"),
        )
        .on_hover_text("Declares the campaign ended: the final standing by HQs held, then points; no orders or game moves after it. Undo takes it back.")
        .on_disabled_hover_text(if ended {
            "The campaign has ended already; Undo takes the end back."
        } else {
            "Give the reason first."
        });
    if end.clicked() {
        send(Edit::EndCampaign, reason);
    }
}

/// A region chosen from the map's, named `label`.
fn region_choice_ui(ui: &mut Ui, label: &str, campaign: &Campaign, chosen: &mut Option<RegionId>) {
    let label = ui.label(label);
    let text = chosen.as_ref().map_or("region…", |r| campaign.map.region_name(r));
    ComboBox::from_id_salt(("pencil_region", label.id))
        .selected_text(text)
        .show_ui(ui, |ui| {
            let mut regions: Vec<_> = campaign.map.regions.iter().collect();
            regions.sort_by(|a, b| a.name.cmp(&b.name));
            for region in regions {
                ui.selectable_value(chosen, Some(region.id.clone()), &region.name);
            }
        })
        .response
        .labelled_by(label.id);
}

/// How many stands, of what kind and quality, named `label`.
fn stands_choice_ui(ui: &mut Ui, label: &str, pencil: &mut Pencil) {
    let label = ui.label(label);
    ui.add(DragValue::new(&mut pencil.count).range(1..=50))
        .labelled_by(label.id);
    ComboBox::from_id_salt(("pencil_kind", label.id))
        .selected_text(pencil.kind.label())
        .show_ui(ui, |ui| {
            for kind in StandKind::ALL {
                ui.selectable_value(&mut pencil.kind, *kind, kind.label());
            }
        })
        .response
        .labelled_by(label.id);
    ComboBox::from_id_salt(("pencil_quality", label.id))
        .selected_text(pencil.quality.as_str())
        .show_ui(ui, |ui| {
            for quality in Quality::ALL {
                ui.selectable_value(&mut pencil.quality, *quality, quality.as_str());
            }
        })
        .response
        .labelled_by(label.id);
}
