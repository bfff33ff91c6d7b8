//! What can go wrong with a save file, in words that say what to do.

use std::path::Path;

/// A problem opening, reading or writing a campaign save.
///
/// Every variant names the file; none leaves a half-written save behind.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: no such save file; create one with `umpire new CAMPAIGN.toml {path}`")]
    NotFound { path: String },

    #[error("{path}: a file already exists there; pass --force to replace it, or choose another name")]
    AlreadyExists { path: String },

    #[error("{path}: not an umpire campaign save ({reason}); the file was left untouched")]
    NotACampaign { path: String, reason: String },

    #[error(
        "{path}: this save was written by a newer umpire (save schema {found}; this umpire reads up to {known}); \
         upgrade umpire to open it. The file was left untouched"
    )]
    NewerSchema { path: String, found: i64, known: i64 },

    #[error(
        "{path}: the save is damaged ({detail}); the file was left untouched: restore it from a backup or an earlier copy"
    )]
    Corrupt { path: String, detail: String },

    #[error(
        "{path}: table `{table}`, row `{key}`: {detail}; the save was written by something other than umpire or has been edited by hand"
    )]
    BadRow {
        path: String,
        table: &'static str,
        key: String,
        detail: String,
    },

    #[error("{path}: nothing to undo: {why}")]
    NothingToUndo { path: String, why: String },

    #[error("{path}: the passphrase was not set: {why}")]
    Passphrase { path: String, why: String },

    #[error("{path}: the campaign has no side `{side}`: `umpire status` lists the sides")]
    NoSuchSide { path: String, side: String },

    #[error("{path}: battle {battle} {why}")]
    BattleNotPending { path: String, battle: u32, why: String },

    #[error(
        "{path}: the save moved on while this was being worked out ({changes}); nothing was written: \
         run the command again on the save as it is now"
    )]
    Moved { path: String, changes: String },

    #[error("{path}: cannot {action}: {source}")]
    Io {
        path: String,
        action: &'static str,
        #[source]
        source: std::io::Error,
    },

    #[error(
        "{path}: the save says it is at schema {version}, but its tables do not match that schema ({detail}): \
         its version was changed by hand, or it was written by something other than umpire. The file was left \
         untouched: restore it from a backup"
    )]
    SchemaMismatch {
        path: String,
        version: i64,
        detail: String,
    },

    #[error(
        "{path}: cannot write to the save: it or its folder {folder} is read-only, and {why}; make both writable \
         (e.g. `chmod u+w`), or copy the save to a folder of your own"
    )]
    ReadOnly {
        path: String,
        folder: String,
        why: &'static str,
    },

    #[error("{path}: database error while {action}: {source}")]
    Sqlite {
        path: String,
        action: &'static str,
        #[source]
        source: rusqlite::Error,
    },
}

pub(crate) fn path_text(path: &Path) -> String {
    path.display().to_string()
}

/// Maps a SQLite failure while doing `action` on the save at `path`; a
/// write refused because the save is read-only says so, naming its folder.
pub(crate) fn sqlite(path: &str, action: &'static str) -> impl FnOnce(rusqlite::Error) -> StoreError + use<> {
    let path = path.to_owned();
    move |source| match source.sqlite_error_code() {
        Some(rusqlite::ErrorCode::ReadOnly) => StoreError::ReadOnly {
            folder: match Path::new(&path).parent() {
                Some(folder) if !folder.as_os_str().is_empty() => path_text(folder),
                _ => ".".to_owned(),
            },
            path,
            why: "changing the campaign writes to both",
        },
        _ => StoreError::Sqlite { path, action, source },
    }
}
