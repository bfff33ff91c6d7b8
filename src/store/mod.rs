//! The campaign save: one SQLite file per campaign. **The only code that
//! touches SQLite.**
//!
//! A save holds the current state (tables `campaign`, `regions`, `roads`,
//! `sides`, `hqs`, `forces`, `stands`) and the append-only `events` log that
//! produced it. Schema changes are the numbered files in `migrations/`,
//! applied in order inside one transaction; the file's `user_version` is the
//! number of migrations applied, and its `application_id` marks it as ours.
//! Every change is one transaction, so a crash leaves the last change whole
//! or not there at all.

mod battles;
mod checkpoints;
mod error;
mod events;
mod moves;
mod pack;
mod programmed;
mod revision;
mod rows;
mod seat;
mod served;

pub use error::StoreError;
pub use moves::Undone;
pub use revision::{Revision, Watch};
pub use served::{Keyed, Reminders, Seat, ServeSettings};

/// `campaign` (its map, sides and title, which never change) as it stood at
/// a state the log keeps: `state` is a `campaign_created` or checkpoint
/// event's [`EventKind::kept_state`], as [`Store::events_with_states`] gives
/// them. For the chronicle, which tells the campaign move by move. Err: what
/// in the state could not be read.
pub fn campaign_at(campaign: &Campaign, state: &serde_json::Value) -> Result<Campaign, String> {
    checkpoints::with_state(campaign.clone(), state.clone())
}

use crate::model::{Campaign, Event, EventKind};
use error::{path_text, sqlite};
use rusqlite::{Connection, OpenFlags, TransactionBehavior};
use std::path::{Path, PathBuf};

/// The schema migrations, in order: migration `i` takes a save from schema
/// `i` to schema `i + 1`.
const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/0001_campaign_state.sql"),
    include_str!("../../migrations/0002_event_log.sql"),
    include_str!("../../migrations/0003_game_moves.sql"),
    include_str!("../../migrations/0004_battle_records.sql"),
    include_str!("../../migrations/0005_knowledge.sql"),
    include_str!("../../migrations/0006_map_background.sql"),
    include_str!("../../migrations/0007_checkpoints.sql"),
    include_str!("../../migrations/0008_change_events.sql"),
    include_str!("../../migrations/0009_compact_history.sql"),
    include_str!("../../migrations/0010_transport.sql"),
    include_str!("../../migrations/0011_arrivals.sql"),
    include_str!("../../migrations/0012_house_rules.sql"),
    include_str!("../../migrations/0013_campaign_end.sql"),
    include_str!("../../migrations/0014_map_shapes.sql"),
    include_str!("../../migrations/0015_seat_passphrases.sql"),
    include_str!("../../migrations/0016_programmed_sides.sql"),
    include_str!("../../migrations/0017_serve.sql"),
    include_str!("../../migrations/0018_server_settings_events.sql"),
];

/// The schema this build writes: the number of migrations.
/// Every connection is used by one thread at a time (rusqlite's `Connection`
/// is not `Sync`), so SQLite need not lock each one on every call: with the
/// save read on three threads at once, those locks were a tenth of the work.
const ONE_THREAD: OpenFlags = OpenFlags::SQLITE_OPEN_NO_MUTEX;

pub const SCHEMA_VERSION: i64 = 18;

/// SQLite `application_id` of an umpire save: "UMPR".
pub const APPLICATION_ID: i32 = 0x554D_5052;

/// The first 16 bytes of every SQLite database file.
const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// Whether creating a save may replace a file already at its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overwrite {
    Refuse,
    Replace,
}

/// An open campaign save.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Creates a save at `path` holding `campaign` at its start, with the
    /// `campaign_created` event. The save is built beside `path` and moved
    /// into place only when whole, so a failure leaves nothing (or the old
    /// file, with `Overwrite::Replace`) behind.
    pub fn create(path: &Path, campaign: &Campaign, overwrite: Overwrite) -> Result<Store, StoreError> {
        let name = path_text(path);
        if overwrite == Overwrite::Refuse && path.exists() {
            return Err(StoreError::AlreadyExists { path: name });
        }
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let temp = path.with_file_name(format!(".{file_name}.{}.creating", std::process::id()));
        let built = build_new_save(&temp, campaign);
        if let Err(error) = built {
            remove_with_sidecars(&temp);
            return Err(relabel(error, &name));
        }
        // A stale write-ahead log of the file being replaced must not be
        // replayed into the new save.
        if overwrite == Overwrite::Replace {
            for sidecar in sidecars(path) {
                if let Err(source) = remove_if_present(&sidecar) {
                    remove_with_sidecars(&temp);
                    return Err(StoreError::Io {
                        path: path_text(&sidecar),
                        action: "remove the old save's log",
                        source,
                    });
                }
            }
        }
        if let Err(source) = std::fs::rename(&temp, path) {
            remove_with_sidecars(&temp);
            return Err(StoreError::Io {
                path: name,
                action: "move the new save into place",
                source,
            });
        }
        // Just built and synced whole: opened without checking it again.
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE | ONE_THREAD)
            .and_then(|conn| configure(&conn).map(|()| conn))
            .map_err(|source| classify(name, "opening the new save", source))?;
        Ok(Store {
            conn,
            path: path.to_owned(),
        })
    }

    /// Opens an existing save, migrating an older schema. A file that is not
    /// an umpire save, is damaged, or comes from a newer umpire is refused
    /// before anything is written to it.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        // Not deferred, the checks have run by the time it returns.
        Store::open_with(path, false).map(|(store, _)| store)
    }

    /// [`Store::open`] and [`Store::load`] at once: the campaign is read while
    /// the file's checks (SQLite's `quick_check` and the schema's columns, both
    /// only reading) run beside it on a connection of their own, and its map on
    /// a third, when the save is of this schema and already in write-ahead log
    /// mode, so that opening it writes nothing. Nothing is returned before both are done, and a
    /// damaged file is refused as by `open`.
    pub fn open_and_load(path: &Path) -> Result<(Store, Campaign), StoreError> {
        Store::open_and_load_at(path).map(|(store, campaign, _)| (store, campaign))
    }

    /// [`Store::open_and_load`], with the revision the campaign was read at,
    /// for a command that will change the save.
    pub fn open_and_load_at(path: &Path) -> Result<(Store, Campaign, Revision), StoreError> {
        let (store, checks) = Store::open_with(path, true)?;
        let Some(checks) = checks else {
            let (campaign, at) = store.read_at(Store::load)?;
            return Ok((store, campaign, at));
        };
        let (checked, loaded) = std::thread::scope(|scope| {
            let checking = scope.spawn(|| checks.run_apart(path));
            // The map (written once, when the save was made) on a third
            // connection, while this one reads the state.
            let mapping = scope.spawn(|| {
                let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | ONE_THREAD)
                    .map_err(|source| {
                    classify(path_text(path), "opening the save to read its map", source)
                })?;
                rows::read_map_rows(&conn, path)
            });
            let loaded = store.read_at(|store| {
                rows::read_campaign_with(&store.conn, &store.path, || {
                    mapping
                        .join()
                        .unwrap_or_else(|_| Err(checks.stopped("reading the map")))
                })
            });
            let checked = checking
                .join()
                .unwrap_or_else(|_| Err(checks.stopped("the check")));
            (checked, loaded)
        });
        // The check's verdict first: a damaged file may fail to load too.
        checked?;
        let (campaign, at) = loaded?;
        Ok((store, campaign, at))
    }

    /// Opens the save; the checks that only read are run here, or given back
    /// to run beside the loading when `defer` and the save needs no write to
    /// open (of this schema, in write-ahead log mode, writable).
    fn open_with(path: &Path, defer: bool) -> Result<(Store, Option<Checks>), StoreError> {
        let name = path_text(path);
        let header = read_header(path)?;
        if header.application_id != APPLICATION_ID {
            return Err(StoreError::NotACampaign {
                path: name,
                reason: "a SQLite database of another program".to_owned(),
            });
        }
        let sqlite = |action: &'static str| {
            let name = name.clone();
            move |source: rusqlite::Error| classify(name, action, source)
        };
        let read_only = marked_read_only(path);
        let mut conn = if read_only {
            open_read_only(path).map_err(sqlite("opening the save to read it"))?
        } else {
            Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE | ONE_THREAD)
                .map_err(sqlite("opening the save"))?
        };
        let application_id: i32 = conn
            .pragma_query_value(None, "application_id", |r| r.get(0))
            .map_err(sqlite("reading the save's header"))?;
        let version: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(sqlite("reading the save's header"))?;
        if application_id != APPLICATION_ID {
            return Err(StoreError::NotACampaign {
                path: name,
                reason: "a SQLite database of another program".to_owned(),
            });
        }
        if version > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema {
                path: name,
                found: version,
                known: SCHEMA_VERSION,
            });
        }
        if version < 1 {
            return Err(StoreError::NotACampaign {
                path: name,
                reason: "it holds no campaign".to_owned(),
            });
        }
        let checks = Checks {
            name: name.clone(),
            version,
        };
        if defer && !read_only && header.wal && version == SCHEMA_VERSION {
            // Nothing below writes: the mode is already the log's.
            configure(&conn).map_err(sqlite("setting up the save"))?;
            let store = Store {
                conn,
                path: path.to_owned(),
            };
            return Ok((store, Some(checks)));
        }
        // Checks that only read, before anything may write.
        checks.run_on(&conn)?;
        if read_only {
            if version < SCHEMA_VERSION {
                return Err(StoreError::ReadOnly {
                    folder: folder_text(path),
                    path: name,
                    why: "it was written by an older umpire and must be upgraded (written) before it can be read",
                });
            }
            let store = Store {
                conn,
                path: path.to_owned(),
            };
            return Ok((store, None));
        }
        // The first writes: the schema upgrade, then the write-ahead log.
        migrate(&mut conn).map_err(sqlite("upgrading the save to the current schema"))?;
        configure(&conn).map_err(sqlite("setting up the save"))?;
        let store = Store {
            conn,
            path: path.to_owned(),
        };
        Ok((store, None))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Copies the whole save, history included, to `path` (built beside it and
    /// moved into place when whole, like [`Store::create`]) and opens the copy.
    /// This save is left as it was.
    pub fn save_as(&self, path: &Path, overwrite: Overwrite) -> Result<Store, StoreError> {
        let name = path_text(path);
        if overwrite == Overwrite::Refuse && path.exists() {
            return Err(StoreError::AlreadyExists { path: name });
        }
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let temp = path.with_file_name(format!(".{file_name}.{}.creating", std::process::id()));
        remove_with_sidecars(&temp);
        let copied = self
            .conn
            .execute("VACUUM INTO ?1", [path_text(&temp)])
            .map_err(|source| self.sqlite_error("copying the save", source));
        if let Err(error) = copied {
            remove_with_sidecars(&temp);
            return Err(relabel(error, &name));
        }
        if overwrite == Overwrite::Replace {
            for sidecar in sidecars(path) {
                if let Err(source) = remove_if_present(&sidecar) {
                    remove_with_sidecars(&temp);
                    return Err(StoreError::Io {
                        path: path_text(&sidecar),
                        action: "remove the old save's log",
                        source,
                    });
                }
            }
        }
        if let Err(source) = std::fs::rename(&temp, path) {
            remove_with_sidecars(&temp);
            return Err(StoreError::Io {
                path: name,
                action: "move the copy into place",
                source,
            });
        }
        Store::open(path)
    }

    /// The schema version of the open save (always current once opened).
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        self.conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(|source| self.sqlite_error("reading the schema version", source))
    }

    /// The campaign's current state.
    pub fn load(&self) -> Result<Campaign, StoreError> {
        rows::read_campaign(&self.conn, &self.path)
    }

    /// Keeps a picture (the map's background) in the save under `name`,
    /// replacing one of that name, in one transaction.
    pub fn set_picture(&mut self, name: &str, png: &[u8]) -> Result<(), StoreError> {
        let path = path_text(&self.path);
        let tx = begin(&mut self.conn, &path, "starting to store the picture")?;
        tx.execute(
            "INSERT INTO pictures (name, png) VALUES (?1, ?2)
             ON CONFLICT (name) DO UPDATE SET png = excluded.png",
            rusqlite::params![name, png],
        )
        .map_err(sqlite(&path, "storing the picture"))?;
        tx.commit().map_err(sqlite(&path, "saving the picture"))
    }

    /// The picture kept under `name`, if any.
    pub fn picture(&self, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        use rusqlite::OptionalExtension;
        self.conn
            .query_row("SELECT png FROM pictures WHERE name = ?1", [name], |r| r.get(0))
            .optional()
            .map_err(|source| self.sqlite_error("reading the picture", source))
    }

    /// The whole event log, oldest first.
    pub fn events(&self) -> Result<Vec<Event>, StoreError> {
        rows::read_events(&self.conn, &self.path)
    }

    /// The events after the first `skip`, oldest first: what was appended
    /// since a reader last read `skip` events (the log is append-only).
    pub fn events_from(&self, skip: usize) -> Result<Vec<Event>, StoreError> {
        rows::read_events_from(&self.conn, &self.path, skip)
    }

    /// The whole event log, oldest first, each checkpoint with its whole
    /// state in its payload (`"state"`: the game move, the random stream,
    /// HQs, forces, battles, knowledge), rebuilt from where it is kept.
    pub fn events_with_states(&self) -> Result<Vec<Event>, StoreError> {
        self.events_with_states_from(0)
    }

    /// The events after the first `skip`, as [`Store::events_with_states`].
    pub fn events_with_states_from(&self, skip: usize) -> Result<Vec<Event>, StoreError> {
        let mut events = rows::read_events_from(&self.conn, &self.path, skip)?;
        checkpoints::with_states(&self.conn, &path_text(&self.path), &mut events)?;
        Ok(events)
    }

    fn sqlite_error(&self, action: &'static str, source: rusqlite::Error) -> StoreError {
        classify(path_text(&self.path), action, source)
    }
}

/// Writes a whole new save at `temp`: schema, state and first event, in one
/// transaction. The file is scratch until it is moved into place, so it is
/// written with no journal and no syncing (a failure throws it all away), then
/// switched to the write-ahead log and synced to disk once, whole.
fn build_new_save(temp: &Path, campaign: &Campaign) -> Result<(), StoreError> {
    let name = path_text(temp);
    let sqlite = |action: &'static str| sqlite(&name, action);
    remove_with_sidecars(temp);
    let mut conn = Connection::open_with_flags(
        temp,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | ONE_THREAD,
    )
    .map_err(sqlite("creating the save"))?;
    conn.pragma_update(None, "foreign_keys", true)
        .and_then(|()| conn.query_row("PRAGMA journal_mode = OFF", [], |r| r.get::<_, String>(0)))
        .and_then(|_| conn.pragma_update(None, "synchronous", "OFF"))
        // 64 MiB of pages in memory: the indexes of a big map are written in no order.
        .and_then(|()| conn.pragma_update(None, "cache_size", -65_536))
        .map_err(sqlite("setting up the save"))?;
    conn.pragma_update(None, "application_id", APPLICATION_ID)
        .map_err(sqlite("marking the file as an umpire save"))?;
    migrate(&mut conn).map_err(sqlite("creating the tables"))?;
    let tx = conn.transaction().map_err(sqlite("starting to write"))?;
    rows::write_campaign(&tx, campaign).map_err(sqlite("writing the campaign"))?;
    let event = Event {
        turn: campaign.turn,
        seq: 0,
        kind: EventKind::CampaignCreated(rows::created_state(campaign)),
        sentence: created_sentence(campaign),
    };
    rows::append_event(&tx, &event).map_err(sqlite("writing the first event"))?;
    tx.commit().map_err(sqlite("saving"))?;
    conn.pragma_update(None, "synchronous", "FULL")
        .and_then(|()| configure(&conn))
        .map_err(sqlite("finishing the save"))?;
    conn.close().map_err(|(_, source)| StoreError::Sqlite {
        path: name.clone(),
        action: "closing the save",
        source,
    })?;
    std::fs::File::open(temp)
        .and_then(|file| file.sync_all())
        .map_err(|source| StoreError::Io {
            path: name.clone(),
            action: "write the new save to disk",
            source,
        })
}

fn created_sentence(campaign: &Campaign) -> String {
    let stands: usize = campaign.forces.iter().map(|f| f.stands.len()).sum();
    format!(
        "{} begins on {} (game move {}): {} sides, {} forces, {} stands on {}.",
        campaign.title,
        campaign.start_date,
        campaign.turn,
        campaign.sides.len(),
        campaign.forces.len(),
        stands,
        campaign.map.name
    )
}

fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.pragma_update(None, "foreign_keys", true)?;
    let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        // Some file systems cannot hold a write-ahead log; the rollback
        // journal is as safe, only slower.
        conn.query_row("PRAGMA journal_mode = DELETE", [], |r| r.get::<_, String>(0))?;
    }
    Ok(())
}

/// Applies the migrations the save lacks, in order, in one transaction.
fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let version: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
    let applied = usize::try_from(version).unwrap_or(0);
    if applied < MIGRATIONS.len() {
        for sql in MIGRATIONS.iter().skip(applied) {
            tx.execute_batch(sql)?;
        }
        tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    }
    tx.commit()
}

struct Header {
    application_id: i32,
    /// The file's read and write versions (bytes 18 and 19) say write-ahead
    /// log: switching to it again writes nothing.
    wal: bool,
}

/// Reads the SQLite header without opening the file as a database, so that
/// a file that is not ours is never touched by SQLite. Anything but a regular
/// file (a folder, a named pipe, a device) is refused before it is opened,
/// and so is a file shorter than its header says (cut short while copied).
fn read_header(path: &Path) -> Result<Header, StoreError> {
    use std::io::Read;
    let name = path_text(path);
    let length = match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => meta.len(),
        Ok(meta) => {
            let what = if meta.is_dir() {
                "a folder"
            } else if is_fifo(&meta) {
                "a named pipe"
            } else {
                "a device or socket"
            };
            return Err(StoreError::NotACampaign {
                path: name,
                reason: format!("{what}, not a file"),
            });
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(StoreError::NotFound { path: name });
        }
        Err(source) => {
            return Err(StoreError::Io {
                path: name,
                action: "look at the save",
                source,
            });
        }
    };
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(StoreError::NotFound { path: name });
        }
        Err(source) => {
            return Err(StoreError::Io {
                path: name,
                action: "open the save",
                source,
            });
        }
    };
    let mut header = [0u8; 100];
    let mut filled = 0;
    while filled < header.len() {
        let rest = header.get_mut(filled..).unwrap_or_default();
        match file.read(rest) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(source) => {
                return Err(StoreError::Io {
                    path: name,
                    action: "read the save",
                    source,
                });
            }
        }
    }
    if filled == 0 {
        return Err(StoreError::NotACampaign {
            path: name,
            reason: "the file is empty".to_owned(),
        });
    }
    if filled < header.len() || header.get(..16) != Some(SQLITE_MAGIC.as_slice()) {
        return Err(StoreError::NotACampaign {
            path: name,
            reason: "not a SQLite database".to_owned(),
        });
    }
    let word = |at: usize| -> [u8; 4] {
        let mut bytes = [0u8; 4];
        if let Some(src) = header.get(at..at + 4) {
            bytes.copy_from_slice(src);
        }
        bytes
    };
    // SQLite file format, "The Database Header": the page size at offset 16
    // (1 meaning 65,536), the file change counter at 24, the database size in
    // pages at 28 (valid when the "version-valid-for" number at 92 equals the
    // change counter), the application id at 68. The size counts the main
    // file only (a write-ahead log grows beside it), so it is what the file
    // must hold.
    let byte = |at: usize| header.get(at).copied().unwrap_or(0);
    let page_size = match u16::from_be_bytes([byte(16), byte(17)]) {
        1 => 65_536,
        n => u64::from(n),
    };
    let pages = u64::from(u32::from_be_bytes(word(28)));
    if pages > 0 && word(24) == word(92) && length < pages.saturating_mul(page_size) {
        return Err(StoreError::Corrupt {
            path: name,
            detail: format!(
                "the file is {length} bytes long but its header says it holds {pages} pages of {page_size} bytes: it was cut short, as by a copy that did not finish"
            ),
        });
    }
    Ok(Header {
        application_id: i32::from_be_bytes(word(68)),
        wal: byte(18) == 2 && byte(19) == 2,
    })
}

#[cfg(unix)]
fn is_fifo(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    meta.file_type().is_fifo()
}

#[cfg(not(unix))]
fn is_fifo(_meta: &std::fs::Metadata) -> bool {
    false
}

/// The folder a save is in, as the person named it ("." for a bare file name).
fn folder_text(path: &Path) -> String {
    match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => path_text(folder),
        _ => ".".to_owned(),
    }
}

/// Whether the save or its folder is marked read-only (no write permission
/// at all): then the save is only read, and nothing is written beside it.
fn marked_read_only(path: &Path) -> bool {
    let read_only = |p: &Path| std::fs::metadata(p).is_ok_and(|m| m.permissions().readonly());
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    read_only(path) || read_only(folder)
}

/// Opens a save only to read it. With no write-ahead log beside it, it is
/// opened as immutable, so SQLite writes no `-wal` or `-shm` file (a
/// read-only folder could not take one, and a read-only file would leave them
/// behind); with a log, that log is read too.
fn open_read_only(path: &Path) -> rusqlite::Result<Connection> {
    let [wal, _, _] = sidecars(path);
    let has_log = std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0);
    let absolute = std::path::absolute(path).ok();
    match absolute.as_deref().and_then(Path::to_str) {
        Some(text) if !has_log => {
            // A URI names the file: every byte but the plain ones is escaped.
            let mut uri = String::from("file:");
            for byte in text.bytes() {
                if byte.is_ascii_alphanumeric() || b"/-_.~".contains(&byte) {
                    uri.push(char::from(byte));
                } else {
                    uri.push_str(&format!("%{byte:02X}"));
                }
            }
            uri.push_str("?mode=ro&immutable=1");
            Connection::open_with_flags(
                uri,
                OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI | ONE_THREAD,
            )
        }
        _ => Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | ONE_THREAD),
    }
}

/// The checks a save passes before it is used, all by reading only: SQLite's
/// `quick_check` of every page and index, and the schema's columns.
struct Checks {
    name: String,
    version: i64,
}

impl Checks {
    fn run_on(&self, conn: &Connection) -> Result<(), StoreError> {
        let verdict: String = conn
            .query_row("PRAGMA quick_check", [], |r| r.get(0))
            .map_err(|source| classify(self.name.clone(), "checking the save", source))?;
        if verdict != "ok" {
            return Err(StoreError::Corrupt {
                path: self.name.clone(),
                detail: verdict,
            });
        }
        verify_schema(conn, &self.name, self.version)
    }

    /// The checks on a connection of their own, which only reads.
    fn run_apart(&self, path: &Path) -> Result<(), StoreError> {
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | ONE_THREAD)
            .map_err(|source| classify(self.name.clone(), "opening the save to check it", source))?;
        self.run_on(&conn)
    }

    /// What is said when a thread opening the save (`what`: the check, or
    /// reading the map) stopped half way.
    fn stopped(&self, what: &str) -> StoreError {
        StoreError::Corrupt {
            path: self.name.clone(),
            detail: format!("{what} stopped before it ended"),
        }
    }
}

/// Checks, by reading only, that the save's tables and columns are those of
/// schema `version`: built by the migrations up to it in memory and compared.
/// A file missing some is not a save; one holding what a later migration adds
/// had its version changed by hand, and migrating it would fail half way.
fn verify_schema(conn: &Connection, name: &str, version: i64) -> Result<(), StoreError> {
    use std::collections::BTreeSet;
    const COLUMNS: &str = "SELECT m.name, p.name FROM sqlite_master AS m, pragma_table_info(m.name) AS p
                           WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'";
    let columns = |conn: &Connection| -> rusqlite::Result<BTreeSet<(String, String)>> {
        let mut statement = conn.prepare(COLUMNS)?;
        let rows = statement.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect()
    };
    let schema = |applied: usize| -> rusqlite::Result<BTreeSet<(String, String)>> {
        let memory = Connection::open_in_memory()?;
        for sql in MIGRATIONS.iter().take(applied) {
            memory.execute_batch(sql)?;
        }
        columns(&memory)
    };
    let internal = |source| StoreError::Sqlite {
        path: name.to_owned(),
        action: "reading the save's tables",
        source,
    };
    let applied = usize::try_from(version).unwrap_or(0);
    let expected = schema(applied).map_err(internal)?;
    let found =
        columns(conn).map_err(|source| classify(name.to_owned(), "reading the save's tables", source))?;
    if found.is_empty() {
        return Err(StoreError::NotACampaign {
            path: name.to_owned(),
            reason: format!("it is marked as an umpire save of schema {version} but holds no tables"),
        });
    }
    let said = |(table, column): &(String, String)| format!("`{table}.{column}`");
    if let Some(missing) = expected.difference(&found).next() {
        return Err(StoreError::SchemaMismatch {
            path: name.to_owned(),
            version,
            detail: format!("the column {} is missing", said(missing)),
        });
    }
    // What a later migration adds: built only for a save with columns not expected.
    let extra: Vec<&(String, String)> = found.difference(&expected).collect();
    let later = if extra.is_empty() || applied >= MIGRATIONS.len() {
        BTreeSet::new()
    } else {
        schema(MIGRATIONS.len()).map_err(internal)?
    };
    if let Some(ahead) = extra.into_iter().find(|c| later.contains(*c)) {
        return Err(StoreError::SchemaMismatch {
            path: name.to_owned(),
            version,
            detail: format!("it already has {}, which a later schema adds", said(ahead)),
        });
    }
    Ok(())
}

/// Sorts SQLite's complaints about a file into "damaged" and everything else.
fn classify(path: String, action: &'static str, source: rusqlite::Error) -> StoreError {
    use rusqlite::ErrorCode::{DatabaseCorrupt, NotADatabase};
    match source.sqlite_error_code() {
        Some(DatabaseCorrupt | NotADatabase) => StoreError::Corrupt {
            path,
            detail: source.to_string(),
        },
        _ => error::sqlite(&path, action)(source),
    }
}

fn relabel(error: StoreError, path: &str) -> StoreError {
    match error {
        StoreError::Sqlite { action, source, .. } => StoreError::Sqlite {
            path: path.to_owned(),
            action,
            source,
        },
        StoreError::Io { action, source, .. } => StoreError::Io {
            path: path.to_owned(),
            action,
            source,
        },
        other => other,
    }
}

fn sidecars(path: &Path) -> [PathBuf; 3] {
    let with = |suffix: &str| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    };
    [with("-wal"), with("-shm"), with("-journal")]
}

fn remove_if_present(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Best-effort clean-up of a half-built save; the real error is reported by the caller.
fn remove_with_sidecars(path: &Path) {
    let _ = remove_if_present(path);
    for sidecar in sidecars(path) {
        let _ = remove_if_present(&sidecar);
    }
}

/// Starts a write transaction on the save at `path`, taking its write lock at once.
fn begin<'c>(
    conn: &'c mut Connection,
    path: &str,
    action: &'static str,
) -> Result<rusqlite::Transaction<'c>, StoreError> {
    conn.transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(sqlite(path, action))
}
