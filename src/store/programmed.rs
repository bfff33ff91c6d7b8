//! The sides the program plays (`programmed_sides`, schema 16): their orders
//! are given by the programmed commander when the game move is resolved.
//! Like the hot seat's passphrases, not part of the campaign's state: undo
//! leaves the list alone; a change is written only at the revision read.

use super::error::{path_text, sqlite};
use super::revision::{Revision, expect_at};
use super::{Store, StoreError, begin};
use crate::model::SideId;
use rusqlite::params;

impl Store {
    /// The sides the program plays, in the campaign's side order.
    pub fn programmed_sides(&self) -> Result<Vec<SideId>, StoreError> {
        let mut statement = self
            .conn
            .prepare("SELECT p.side FROM programmed_sides p JOIN sides s ON s.id = p.side ORDER BY s.ord")
            .map_err(|source| self.sqlite_error("reading the sides the program plays", source))?;
        let rows = statement
            .query_map([], |r| r.get::<_, String>(0))
            .map_err(|source| self.sqlite_error("reading the sides the program plays", source))?;
        rows.map(|r| r.map(SideId::new))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|source| self.sqlite_error("reading the sides the program plays", source))
    }

    /// Marks `side` as played by the program (`on`) or by a person, if the
    /// save is still at revision `at`.
    pub fn set_programmed(&mut self, at: Revision, side: &SideId, on: bool) -> Result<(), StoreError> {
        let path = path_text(&self.path);
        let tx = begin(&mut self.conn, &path, "starting to mark the side")?;
        expect_at(&tx, &self.path, at)?;
        if !side_exists(&tx, &path, side)? {
            return Err(StoreError::NoSuchSide {
                path,
                side: side.as_str().to_owned(),
            });
        }
        if on {
            tx.execute(
                "INSERT INTO programmed_sides (side) VALUES (?1) ON CONFLICT (side) DO NOTHING",
                params![side.as_str()],
            )
        } else {
            tx.execute(
                "DELETE FROM programmed_sides WHERE side = ?1",
                params![side.as_str()],
            )
        }
        .map_err(sqlite(&path, "marking the side"))?;
        tx.commit().map_err(sqlite(&path, "saving the side's mark"))
    }
}

/// Whether the campaign has the side `side`.
pub(super) fn side_exists(
    tx: &rusqlite::Transaction<'_>,
    path: &str,
    side: &SideId,
) -> Result<bool, StoreError> {
    tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM sides WHERE id = ?1)",
        [side.as_str()],
        |r| r.get(0),
    )
    .map_err(sqlite(path, "reading the sides"))
}
