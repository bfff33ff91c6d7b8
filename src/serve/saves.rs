//! The saves a server holds: every `*.umpire` file directly in its folder,
//! named in URLs by the file's stem. A request's name is only ever compared
//! with the names of the files found there: no path from a request reaches
//! the file system.

use crate::model::{Campaign, Event};
use crate::store::{Revision, Store, StoreError};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The extension of a save.
pub const SAVE_EXTENSION: &str = "umpire";

/// A campaign's save, opened on first use and kept open: one connection,
/// used by one request at a time, with the campaign and its log as last read.
#[derive(Debug)]
pub struct Slot {
    pub path: PathBuf,
    pub open: Mutex<Option<Open>>,
}

/// The campaign and its log as read at a revision.
pub type Current = (Arc<Campaign>, Arc<Vec<Event>>, Revision);

/// An open save and what was last read from it.
#[derive(Debug)]
pub struct Open {
    pub store: Store,
    /// The campaign's state, read at this revision (orders given since leave it as it is).
    state: Option<(Revision, Arc<Campaign>)>,
    /// The event log, read at this revision.
    log: Option<(Revision, Arc<Vec<Event>>)>,
}

impl Open {
    pub fn new(store: Store) -> Open {
        Open {
            store,
            state: None,
            log: None,
        }
    }

    /// The campaign now and the save's revision, in one read transaction;
    /// the state is read again only when something but orders changed.
    pub fn campaign(&mut self) -> Result<(Arc<Campaign>, Revision), StoreError> {
        let kept = self.state.as_ref().map(|(r, _)| *r);
        let (loaded, at) = self.store.read_at(|s| match kept {
            Some(kept) if !s.state_changed_since(kept)? => Ok(None),
            _ => Ok(Some(s.load()?)),
        })?;
        if let Some(campaign) = loaded {
            self.state = Some((at, Arc::new(campaign)));
        }
        match &self.state {
            Some((_, campaign)) => Ok((Arc::clone(campaign), at)),
            None => Err(StoreError::Corrupt {
                path: self.store.path().display().to_string(),
                detail: "the campaign could not be read".to_owned(),
            }),
        }
    }

    /// The campaign, its event log and the revision, in one read transaction.
    pub fn current(&mut self) -> Result<Current, StoreError> {
        let kept_state = self.state.as_ref().map(|(r, _)| *r);
        let kept_log = self.log.as_ref().map(|(r, _)| *r);
        let ((state, log), at) = self.store.read_at(|s| {
            let now = s.revision_now()?;
            let state = match kept_state {
                Some(kept) if !s.state_changed_since(kept)? => None,
                _ => Some(s.load()?),
            };
            let log = if kept_log == Some(now) {
                None
            } else {
                Some(s.events()?)
            };
            Ok((state, log))
        })?;
        if let Some(campaign) = state {
            self.state = Some((at, Arc::new(campaign)));
        }
        if let Some(log) = log {
            self.log = Some((at, Arc::new(log)));
        }
        match (&self.state, &self.log) {
            (Some((_, campaign)), Some((_, log))) => Ok((Arc::clone(campaign), Arc::clone(log), at)),
            _ => Err(StoreError::Corrupt {
                path: self.store.path().display().to_string(),
                detail: "the campaign could not be read".to_owned(),
            }),
        }
    }
}

/// The saves of one folder.
#[derive(Debug)]
pub struct Saves {
    dir: PathBuf,
    slots: Mutex<HashMap<String, Arc<Slot>>>,
}

impl Saves {
    pub fn new(dir: &Path) -> Saves {
        Saves {
            dir: dir.to_owned(),
            slots: Mutex::new(HashMap::new()),
        }
    }

    /// The save named `id`, if a file `id.umpire` is in the folder now.
    pub fn slot(&self, id: &str) -> Option<Arc<Slot>> {
        if !plausible_id(id) {
            return None;
        }
        if let Ok(slots) = self.slots.lock()
            && let Some(slot) = slots.get(id)
        {
            return Some(Arc::clone(slot));
        }
        let path = self.list().into_iter().find(|(stem, _)| stem == id)?.1;
        let mut slots = self.slots.lock().ok()?;
        let slot = slots.entry(id.to_owned()).or_insert_with(|| {
            Arc::new(Slot {
                path,
                open: Mutex::new(None),
            })
        });
        Some(Arc::clone(slot))
    }

    /// The names (file stems) and paths of the saves in the folder now.
    pub fn list(&self) -> Vec<(String, PathBuf)> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut found: Vec<(String, PathBuf)> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| {
                let path = e.path();
                if path.extension().and_then(|x| x.to_str()) != Some(SAVE_EXTENSION) {
                    return None;
                }
                let stem = path.file_stem()?.to_str()?.to_owned();
                plausible_id(&stem).then_some((stem, path))
            })
            .collect();
        found.sort();
        found
    }
}

/// Whether `id` could name a save: letters, digits, `-`, `_` and `.`, not
/// starting with a dot, at most 200 characters. Only such names are ever
/// compared with the folder's files.
pub fn plausible_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 200
        && !id.starts_with('.')
        && !id.contains("..")
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}
