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
    cached: Option<(Revision, Arc<Campaign>, Arc<Vec<Event>>)>,
}

impl Open {
    pub fn new(store: Store) -> Open {
        Open { store, cached: None }
    }

    /// The campaign and its log now, with the revision they were read at, in
    /// one read transaction; read again only when the save has changed.
    pub fn current(&mut self) -> Result<Current, StoreError> {
        let cached = self.cached.as_ref().map(|(r, _, _)| *r);
        let (loaded, at) = self.store.read_at(|s| {
            if Some(s.revision_now()?) == cached {
                Ok(None)
            } else {
                Ok(Some((s.load()?, s.events()?)))
            }
        })?;
        if let Some((campaign, log)) = loaded {
            self.cached = Some((at, Arc::new(campaign), Arc::new(log)));
        }
        match &self.cached {
            Some((r, c, l)) if *r == at => Ok((Arc::clone(c), Arc::clone(l), at)),
            // Read again below a cache that another program's undo made look current.
            _ => {
                let ((campaign, log), at) = self.store.read_at(|s| Ok((s.load()?, s.events()?)))?;
                let (c, l) = (Arc::new(campaign), Arc::new(log));
                self.cached = Some((at, Arc::clone(&c), Arc::clone(&l)));
                Ok((c, l, at))
            }
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
