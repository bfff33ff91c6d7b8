//! The hot seat's passphrases: one per side's view and one for the umpire's,
//! set by the umpire, kept in the save only as Argon2id PHC strings (a random
//! salt each), and checked before the window changes to a view that has one.
//!
//! They are not part of the campaign's state: undo and the checkpoints leave
//! them alone, and setting one adds nothing to the event log. A change is
//! still written only if the save is at the revision the window read, like
//! every other change.

use super::error::{path_text, sqlite};
use super::revision::{Revision, expect_at};
use super::{Store, StoreError, begin};
use crate::model::SideId;
use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use rusqlite::{OptionalExtension, params};

/// The key a seat is kept under: the side's id, or '' for the umpire.
fn key(seat: Option<&SideId>) -> &str {
    seat.map_or("", SideId::as_str)
}

impl Store {
    /// Sets (`Some`) or clears (`None`) the passphrase of a side's view, or of
    /// the umpire's (`seat` `None`), if the save is still at revision `at`.
    /// An empty passphrase is refused: clear it instead.
    pub fn set_passphrase(
        &mut self,
        at: Revision,
        seat: Option<&SideId>,
        passphrase: Option<&str>,
    ) -> Result<(), StoreError> {
        let path = path_text(&self.path);
        let phc = match passphrase {
            Some("") => {
                return Err(StoreError::Passphrase {
                    path,
                    why: "an empty passphrase would open the view to anyone; clear it instead".to_owned(),
                });
            }
            Some(plain) => Some(
                Argon2::default()
                    .hash_password(plain.as_bytes())
                    .map_err(|e| StoreError::Passphrase {
                        path: path.clone(),
                        why: format!("it could not be hashed ({e})"),
                    })?
                    .to_string(),
            ),
            None => None,
        };
        let tx = begin(&mut self.conn, &path, "starting to set the passphrase")?;
        expect_at(&tx, &self.path, at)?;
        if let Some(side) = seat
            && !super::programmed::side_exists(&tx, &path, side)?
        {
            return Err(StoreError::Passphrase {
                path,
                why: format!("the campaign has no side `{side}` (see `umpire status` for the sides)"),
            });
        }
        match &phc {
            Some(phc) => tx.execute(
                "INSERT INTO seat_passphrases (seat, phc) VALUES (?1, ?2)
                 ON CONFLICT (seat) DO UPDATE SET phc = excluded.phc",
                params![key(seat), phc],
            ),
            None => tx.execute("DELETE FROM seat_passphrases WHERE seat = ?1", [key(seat)]),
        }
        .map_err(sqlite(&path, "storing the passphrase"))?;
        tx.commit().map_err(sqlite(&path, "saving the passphrase"))
    }

    /// Whether a side's view (or the umpire's, `None`) has a passphrase.
    pub fn has_passphrase(&self, seat: Option<&SideId>) -> Result<bool, StoreError> {
        Ok(self.passphrase_hash(seat)?.is_some())
    }

    /// Whether `given` opens the view of `seat`: true where it has no
    /// passphrase. The hash is compared in constant time (by argon2).
    pub fn check_passphrase(&self, seat: Option<&SideId>, given: &str) -> Result<bool, StoreError> {
        let Some(phc) = self.passphrase_hash(seat)? else {
            return Ok(true);
        };
        Ok(Argon2::default()
            .verify_password(given.as_bytes(), phc.as_str())
            .is_ok())
    }

    fn passphrase_hash(&self, seat: Option<&SideId>) -> Result<Option<String>, StoreError> {
        self.conn
            .query_row(
                "SELECT phc FROM seat_passphrases WHERE seat = ?1",
                [key(seat)],
                |r| r.get(0),
            )
            .optional()
            .map_err(|source| self.sqlite_error("reading the passphrases", source))
    }
}
