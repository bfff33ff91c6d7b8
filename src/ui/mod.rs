//! The desktop app: the only code that touches egui.
//!
//! The window draws from state and asks for changes with a [`Command`],
//! applied after the frame (as egui's demo app and rerun do) to the same
//! core API the CLI uses, through [`session::Session`]. Functions that take
//! `&mut egui::Ui` end in `_ui`. Window and view state (panels, overlays, the
//! camera, recent files) persist through eframe; campaign data lives only in
//! the SQLite save.

mod app;
pub mod battles;
pub mod campaign_sketch;
mod command;
mod ending;
pub use crate::model::timeline as history;
mod keys;
mod labels;
pub mod map_maker;
mod map_shapes;
mod map_view;
mod panels;
mod passphrase;
pub mod pencil;
mod plots;
pub mod seat;
pub mod served;
pub mod session;
mod start;
mod state;
mod text;
mod theme;
pub mod view;

pub use app::{Launch, UmpireApp};
pub use command::{Command, Selection};
pub use map_view::{Camera, Overlays};
pub use session::{Applied, Refusal, Session};
pub use start::{BUNDLED_SAVE_NAME, bundled_campaign, open_or_create_default};
pub use state::{Note, ViewState};
pub use text::forecast_text;

/// Why the window could not run.
#[derive(Debug, thiserror::Error)]
pub enum UiError {
    #[error(
        "cannot open the window: {0}. The desktop app needs a display (X11 or Wayland); over SSH or in a terminal without one, use the commands (`umpire --help`), or run it under a virtual display such as Xvfb"
    )]
    Window(String),
    #[error("the screenshot could not be saved to {path}: {reason}")]
    Screenshot { path: String, reason: String },
}

/// Opens the window and runs until it is closed.
pub fn run(launch: Launch) -> Result<(), UiError> {
    let outcome = std::sync::Arc::new(std::sync::Mutex::new(None::<Result<(), String>>));
    let screenshot = launch.screenshot.clone();
    let size = if screenshot.is_some() {
        [1280.0, 800.0]
    } else {
        [1400.0, 900.0]
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("umpire")
            .with_inner_size(size)
            .with_min_inner_size([800.0, 500.0]),
        persist_window: screenshot.is_none(),
        ..Default::default()
    };
    let reported = outcome.clone();
    eframe::run_native(
        "umpire",
        options,
        Box::new(move |cc| {
            Ok(Box::new(
                UmpireApp::new(cc, launch).with_screenshot_report(reported),
            ))
        }),
    )
    .map_err(|e| UiError::Window(e.to_string().trim_end_matches('.').to_owned()))?;
    let result = outcome.lock().map(|mut o| o.take()).unwrap_or(None);
    match (screenshot, result) {
        (Some(path), Some(Err(reason))) => Err(UiError::Screenshot {
            path: path.display().to_string(),
            reason,
        }),
        (Some(path), None) => Err(UiError::Screenshot {
            path: path.display().to_string(),
            reason: "the window closed before a frame was captured".to_owned(),
        }),
        _ => Ok(()),
    }
}
