//! What the window asks for: a [`Command`], pushed by the panels while they
//! draw and applied by the app after the frame, and what is selected.

use super::session;
use crate::model::{ForceId, RegionId, SideId, StandId};
use std::path::PathBuf;

/// What is selected in the window.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Selection {
    #[default]
    None,
    Side(SideId),
    Force(ForceId),
    Stand(StandId),
    Region(RegionId),
    Battle(u32),
}

/// A change the window asks for; applied after the frame, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Work on the open campaign (orders, undo, end turn).
    Session(session::Command),
    /// Create a save from a campaign file and open it.
    NewCampaign {
        campaign: PathBuf,
        save: PathBuf,
    },
    /// Open a save.
    Open(PathBuf),
    /// Copy the open save, history and all, and go on in the copy.
    SaveAs(PathBuf),
    /// Write a side's report: the page (`.html`) or the JSON, as `umpire report` does.
    ExportReport {
        side: crate::model::SideId,
        path: PathBuf,
    },
    /// Write the campaign's chronicle, the umpire's (`None`) or what a side
    /// knew, as `umpire chronicle` does.
    ExportChronicle {
        side: Option<crate::model::SideId>,
        path: PathBuf,
    },
    Quit,
    /// Opens the map maker over the window (a new map, or a map file).
    MapMaker(super::map_maker::Start),
    /// Whose view the window shows, and reports (the hot seat, play by email).
    View(ViewCommand),
}

/// What the window asks of the views (`ui::seat`).
#[derive(Debug, Clone, PartialEq)]
pub enum ViewCommand {
    /// Hand the screen to a side (`Some`) or to the umpire (`None`): puts up
    /// the pass-the-screen page.
    ViewAs(Option<SideId>),
    /// The pass-the-screen page's Continue: shows the view it was passed to.
    Continue,
    /// Opens a side's report file, read-only.
    OpenReport(PathBuf),
    /// Writes the orders given on the open report to an orders file.
    WriteOrders(PathBuf),
    /// Opens a side's view of a campaign on a server (`umpire serve`), from
    /// the link `umpire serve token` printed.
    OpenServed(String),
    /// Gives the orders given on a served report to the server.
    GiveServedOrders,
    /// The umpire's view of a served campaign: resolve, undo or read again.
    Served(super::served::Action),
    /// Leaves the report, passing the screen back to the umpire's view.
    CloseReport,
    /// The pass-the-screen page's Back: the screen stays with the view shown
    /// before (asking its passphrase, if it has one).
    Back,
    /// Opens the umpire's hot-seat passphrase dialog (the umpire's view only).
    Passphrases,
    /// Sets (`Some`) or clears (`None`) the passphrase of a side's view or of
    /// the umpire's (`seat` `None`); the umpire's view only.
    SetPassphrase {
        seat: Option<SideId>,
        passphrase: Option<String>,
    },
}
