//! The window's keyboard shortcuts, in one place: the menus show them beside
//! their items (`egui::Button::shortcut_text`), the Help window lists them and
//! the app reads them (`UmpireApp::shortcuts`), all from these constants.

use egui::{Key, KeyboardShortcut, Modifiers};

const fn command(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(Modifiers::COMMAND, key)
}

const fn command_shift(key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(
        Modifiers {
            alt: false,
            ctrl: false,
            shift: true,
            mac_cmd: false,
            command: true,
        },
        key,
    )
}

pub const END_TURN: KeyboardShortcut = command(Key::E);
pub const UNDO: KeyboardShortcut = command(Key::Z);
pub const REDO: KeyboardShortcut = command(Key::Y);
/// Redo's other key, as most programs have it.
pub const REDO_TOO: KeyboardShortcut = command_shift(Key::Z);
pub const NEW: KeyboardShortcut = command(Key::N);
pub const OPEN: KeyboardShortcut = command(Key::O);
/// The map maker's Save map.
pub const SAVE: KeyboardShortcut = command(Key::S);
pub const SAVE_AS: KeyboardShortcut = command_shift(Key::S);
pub const QUIT: KeyboardShortcut = command(Key::Q);
/// Keys without a modifier, read only while no text field has the keyboard.
pub const ZOOM_TO_FIT: Key = Key::Home;
pub const FORCED_MARCH: Key = Key::F;
pub const DESELECT: Key = Key::Escape;
pub const HELP: Key = Key::F1;
/// The map maker's tools: regions (add, move, select) and roads (click one region, then another).
pub const MAKER_REGIONS: Key = Key::Num1;
pub const MAKER_ROADS: Key = Key::Num2;
/// The map maker's Campaign tool: sides, HQs and forces for a new campaign on the map.
pub const MAKER_CAMPAIGN: Key = Key::Num3;

/// `shortcut` as this platform writes it ("Ctrl+Z", "⌘Z").
pub fn text(ctx: &egui::Context, shortcut: &KeyboardShortcut) -> String {
    ctx.format_shortcut(shortcut)
}

/// A key without modifiers as the Help window and the menus write it.
pub fn key_text(key: Key) -> &'static str {
    key.name()
}
