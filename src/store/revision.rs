//! Which state of the save a change was worked out from.
//!
//! Every change to a save (orders, a game move, a result, an undo, an edit)
//! appends to the event log, which is never changed or deleted from; so the
//! log's last row number is the save's revision. A change is computed from
//! the state read at one revision and written only if the save is still at
//! that revision when the write transaction has taken the save's write lock:
//! a window, a command or a player that changed the save in between makes it
//! refused, with what changed, rather than silently undone.

use super::error::{path_text, sqlite};
use super::{Store, StoreError};
use rusqlite::{Connection, params};

/// The revision of a save: the row number of the last entry in its event log.
/// Later revisions are greater.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Revision(i64);

impl Revision {
    /// The revision numbered `number`, as a client of the server sends it back.
    pub fn from_number(number: i64) -> Revision {
        Revision(number)
    }

    /// Its number, as the server's answers give it.
    pub fn number(self) -> i64 {
        self.0
    }
}

impl std::fmt::Display for Revision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl Store {
    /// The save's revision now.
    pub fn revision(&self) -> Result<Revision, StoreError> {
        read_revision(&self.conn).map_err(|source| self.sqlite_error("reading the save's revision", source))
    }

    /// Runs `read` on this save as one read transaction and returns what it
    /// read with the revision it read it at, so nothing another program
    /// commits meanwhile can mix into it.
    pub fn read_at<T>(
        &self,
        read: impl FnOnce(&Store) -> Result<T, StoreError>,
    ) -> Result<(T, Revision), StoreError> {
        let tx = self
            .conn
            .unchecked_transaction()
            .map_err(|source| self.sqlite_error("starting to read the save", source))?;
        let value = read(self)?;
        let revision = self.revision()?;
        tx.finish()
            .map_err(|source| self.sqlite_error("reading the save", source))?;
        Ok((value, revision))
    }

    /// What was changed in the save after revision `at`, in words ("British
    /// Field Force gave orders (british_move1.toml); game move 1 was resolved").
    pub fn changes_since(&self, at: Revision) -> Result<String, StoreError> {
        changes_since(&self.conn, at).map_err(|source| self.sqlite_error("reading what changed", source))
    }

    /// A number that changes whenever another connection (another window,
    /// command or program) commits a change to the save; not for this
    /// store's own changes. Cheap enough to ask every frame.
    pub fn outside_changes(&self) -> Result<i64, StoreError> {
        data_version(&self.conn)
            .map_err(|source| self.sqlite_error("asking whether the save changed", source))
    }
}

pub(super) fn read_revision(conn: &Connection) -> rusqlite::Result<Revision> {
    conn.query_row("SELECT COALESCE(MAX(rowid), 0) FROM events", [], |r| r.get(0))
        .map(Revision)
}

/// Inside a write transaction: refuses the change unless the save is still
/// at revision `at`, saying what changed since.
pub(super) fn expect_at(tx: &Connection, path: &std::path::Path, at: Revision) -> Result<(), StoreError> {
    let name = path_text(path);
    let now = read_revision(tx).map_err(sqlite(&name, "reading the save's revision"))?;
    if now == at {
        return Ok(());
    }
    let changes = changes_since(tx, at).map_err(sqlite(&name, "reading what changed"))?;
    Err(StoreError::Moved { path: name, changes })
}

/// The changes committed after revision `at`, in words: "British Field Force
/// gave orders (british_move1.toml); game move 1 was resolved".
fn changes_since(tx: &Connection, at: Revision) -> rusqlite::Result<String> {
    let mut names = tx.prepare("SELECT id, name FROM sides")?;
    let sides: Vec<(String, String)> = names
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let side_name = |id: &str| {
        sides
            .iter()
            .find(|(i, _)| i == id)
            .map_or_else(|| id.to_owned(), |(_, name)| name.clone())
    };
    let mut rows =
        tx.prepare("SELECT turn, kind, payload, sentence FROM events WHERE rowid > ?1 ORDER BY rowid")?;
    let found = rows.query_map(params![at.0], |r| {
        Ok((
            r.get::<_, u32>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
        ))
    })?;
    let mut said: Vec<String> = Vec::new();
    for row in found {
        let (turn, kind, payload, sentence) = row?;
        let payload: serde_json::Value = serde_json::from_str(&payload).unwrap_or_default();
        let text = |key: &str| {
            payload
                .get(key)
                .and_then(serde_json::Value::as_str)
                .unwrap_or("?")
        };
        let number = |key: &str| payload.get(key).and_then(serde_json::Value::as_u64);
        let line = match kind.as_str() {
            "orders_given" => format!("{} gave orders ({})", side_name(text("side")), text("source")),
            "orders_withdrawn" => format!(
                "{} withdrew its orders ({})",
                side_name(text("side")),
                text("source")
            ),
            "checkpoint" => match number("battle") {
                Some(battle) => format!("battle {battle}'s result was applied"),
                None => format!("game move {turn} was resolved"),
            },
            "turn_undone" => format!(
                "game move {} was undone",
                number("turn").unwrap_or(u64::from(turn))
            ),
            "result_undone" => format!(
                "the result of battle {} was taken back",
                number("battle").unwrap_or_default()
            ),
            _ => sentence.trim_end_matches('.').to_owned(),
        };
        if said.last() != Some(&line) {
            said.push(line);
        }
    }
    if said.is_empty() {
        said.push("it was changed by another program".to_owned());
    }
    Ok(said.join("; "))
}

/// Watches a save, from a connection of its own, for changes committed by
/// any connection: another program's, or a window's own store.
#[derive(Debug)]
pub struct Watch {
    conn: Connection,
    last: i64,
}

impl Watch {
    /// Starts watching the save at `path`; it only reads.
    pub fn open(path: &std::path::Path) -> Result<Watch, StoreError> {
        let conn = Connection::open_with_flags(
            path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | super::ONE_THREAD,
        )
        .map_err(sqlite(&path_text(path), "opening the save to watch it"))?;
        let last = data_version(&conn).map_err(sqlite(&path_text(path), "watching the save"))?;
        Ok(Watch { conn, last })
    }

    /// Whether a change was committed since the last time this was asked.
    /// A save that can no longer be read counts as unchanged.
    pub fn changed(&mut self) -> bool {
        match data_version(&self.conn) {
            Ok(now) if now != self.last => {
                self.last = now;
                true
            }
            _ => false,
        }
    }
}

fn data_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.pragma_query_value(None, "data_version", |r| r.get(0))
}
