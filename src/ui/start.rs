//! The first start: the bundled Egyptian Rebellion, saved in the user's data folder.

use super::session::{Refusal, Session};
use crate::model::Campaign;
use crate::model::check::{self, Source};
use crate::store::Overwrite;
use std::path::{Path, PathBuf};

/// The bundled campaign and its map, built into the program so the window
/// opens on it wherever it is run from.
const CAMPAIGN_FILE: &str = "campaigns/egyptian_rebellion_1895.toml";
const CAMPAIGN_TEXT: &str = include_str!("../../campaigns/egyptian_rebellion_1895.toml");
const MAP_FILE: &str = "maps/egypt_1895.toml";
const MAP_TEXT: &str = include_str!("../../maps/egypt_1895.toml");
const MAP_PICTURE: &[u8] = include_bytes!("../../maps/egypt_1895.png");

/// The save the first start creates in the data folder.
pub const BUNDLED_SAVE_NAME: &str = "egyptian_rebellion_1895.umpire";

/// The bundled Egyptian Rebellion of 1895, checked as `umpire new` checks it.
pub fn bundled_campaign() -> Result<Campaign, Refusal> {
    let problems = |diagnostics: &[crate::model::Diagnostic]| {
        Refusal::Nothing(format!(
            "the bundled campaign has errors (a build problem): {}",
            diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        ))
    };
    let map = check::check_map(Source {
        name: MAP_FILE,
        text: MAP_TEXT,
    });
    let Some(map) = map.value else {
        return Err(problems(&map.diagnostics));
    };
    let draft = check::read_campaign(Source {
        name: CAMPAIGN_FILE,
        text: CAMPAIGN_TEXT,
    })
    .map_err(|d| problems(&d))?;
    let checked = draft.check(Ok(map));
    checked.value.ok_or_else(|| problems(&checked.diagnostics))
}

/// Opens the bundled campaign's save in `folder`, creating the folder and a
/// new save of the bundled campaign the first time.
pub fn open_or_create_default(folder: &Path) -> Result<Session, Refusal> {
    let save: PathBuf = folder.join(BUNDLED_SAVE_NAME);
    if save.exists() {
        return Session::open(&save);
    }
    std::fs::create_dir_all(folder).map_err(|e| {
        Refusal::Store(format!(
            "cannot create the data folder {}: {e}; open or create a save elsewhere (File menu)",
            folder.display()
        ))
    })?;
    let mut session = Session::create(&save, &bundled_campaign()?, Overwrite::Refuse)?;
    session.set_picture(MAP_PICTURE)?;
    Ok(session)
}
