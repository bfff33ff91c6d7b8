//! The window in egui_kittest's harness, for the UI tests.

use egui_kittest::Harness;
use umpire::ui::{Launch, UmpireApp};

/// The window, `size` points, launched as `launch` says; not yet run.
///
/// The window watches its save from a thread and asks for a frame when the
/// save changes. The thread has a connection of its own, so the window's own
/// writes wake it too, and a wake-up may land inside a `Harness::run`: a run
/// is allowed 16 frames to settle, not the harness's default 4.
pub fn window(size: [f32; 2], launch: Launch) -> Harness<'static, UmpireApp> {
    Harness::builder()
        .with_max_steps(16)
        .with_size(size)
        .build_eframe(move |cc| UmpireApp::new(cc, launch))
}
