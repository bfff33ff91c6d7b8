//! The hot seat's passphrases in the window: the field on the pass-the-screen
//! page that asks for the passphrase of the view the screen goes to (when it
//! has one), and the umpire's dialog that sets and clears them. The save
//! keeps them hashed (`store::Store::set_passphrase`); the checks are in
//! [`super::seat::Seat::apply`].

use super::command::{Command as WindowCommand, ViewCommand};
use super::session::Session;
use crate::model::SideId;
use egui::{RichText, Ui};

/// The pass-the-screen page's lock: whether the view it goes to has a
/// passphrase, what has been typed, and why the last try was refused.
#[derive(Debug, Default)]
pub struct Gate {
    pub locked: bool,
    pub typed: String,
    pub refused: Option<String>,
    /// The field has had the keyboard since the page came up or last refused.
    pub focused: bool,
}

/// The umpire's passphrase dialog: whose view, and the new passphrase typed.
#[derive(Debug, Default)]
pub struct PassphraseForm {
    pub seat: Option<SideId>,
    pub new: String,
}

/// The passphrase field and the refusal, on the pass-the-screen page; true
/// when Enter was pressed in the field.
pub fn gate_ui(ui: &mut Ui, gate: &mut Gate, name: &str) -> bool {
    if !gate.locked {
        return false;
    }
    ui.label(format!(
        "{name}'s view has a passphrase: type it, then press Continue."
    ));
    ui.add_space(6.0);
    let label = ui.label("Passphrase");
    let field = ui.add(
        egui::TextEdit::singleline(&mut gate.typed)
            .password(true)
            .desired_width(240.0),
    );
    let field = field.labelled_by(label.id);
    if !gate.focused {
        field.request_focus();
        gate.focused = true;
    }
    if let Some(why) = &gate.refused {
        ui.add_space(6.0);
        ui.colored_label(super::theme::BATTLE, why);
    }
    ui.add_space(6.0);
    field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter))
}

/// The umpire's dialog: which views have a passphrase, and a form to set or
/// clear one. Shown only in the umpire's view (closed in any other).
pub fn passphrases_ui(
    ctx: &egui::Context,
    form: &mut Option<PassphraseForm>,
    umpire_view: bool,
    session: Option<&Session>,
    commands: &mut Vec<WindowCommand>,
) {
    let (Some(f), Some(session), true) = (form.as_mut(), session, umpire_view) else {
        *form = None;
        return;
    };
    let seats: Vec<(Option<SideId>, String)> = std::iter::once((None, "The umpire's view".to_owned()))
        .chain(
            session
                .campaign()
                .sides
                .iter()
                .map(|s| (Some(s.id.clone()), format!("{}'s view", s.name))),
        )
        .collect();
    let mut open = true;
    egui::Window::new("Hot seat passphrases")
        .open(&mut open)
        .show(ctx, |ui| {
            ui.label(
                "Before the window shows a view with a passphrase, the pass-the-screen page asks for it. \
             The save keeps only a salted hash of each.",
            );
            ui.add_space(6.0);
            egui::Grid::new("passphrases").num_columns(2).show(ui, |ui| {
                for (seat, name) in &seats {
                    ui.radio_value(&mut f.seat, seat.clone(), name.as_str());
                    let set = session.has_passphrase(seat.as_ref());
                    ui.label(if set {
                        RichText::new("has a passphrase").strong()
                    } else {
                        RichText::new("no passphrase").weak()
                    });
                    ui.end_row();
                }
            });
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                let label = ui.label("New passphrase");
                ui.add(
                    egui::TextEdit::singleline(&mut f.new)
                        .password(true)
                        .desired_width(200.0),
                )
                .labelled_by(label.id);
            });
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(!f.new.is_empty(), egui::Button::new("Set passphrase"))
                    .clicked()
                {
                    commands.push(WindowCommand::View(ViewCommand::SetPassphrase {
                        seat: f.seat.clone(),
                        passphrase: Some(std::mem::take(&mut f.new)),
                    }));
                }
                if ui.button("Clear passphrase").clicked() {
                    commands.push(WindowCommand::View(ViewCommand::SetPassphrase {
                        seat: f.seat.clone(),
                        passphrase: None,
                    }));
                }
            });
        });
    if !open {
        *form = None;
    }
}
