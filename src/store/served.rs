//! What `umpire serve` keeps in a save beside the campaign (schema 17): the
//! access tokens of its links (`serve_tokens`, only their SHA-256 hashes),
//! each order upload's idempotency key with its answer (`serve_requests`),
//! and the campaign's server settings (`serve_settings`: resolve when every
//! side has given orders; the deadline). Like the hot seat's passphrases,
//! none of it is the campaign's state: undo and the checkpoints leave it
//! alone. The umpire's changes of the settings and the reminders are logged
//! (`server_settings` events, which change neither the state nor what a
//! side sees) so that the revision moves and another umpire's client acting
//! on the old one is told; the server's own clearing of a spent deadline is not.

use super::error::{path_text, sqlite};
use super::revision::{Revision, expect_at, read_revision};
use super::{Store, StoreError, begin};
use crate::model::event as ev;
use crate::model::{Event, EventKind, SideId};
use crate::strategy::OrderSet;
use rusqlite::{OptionalExtension, params};
use subtle::ConstantTimeEq;

/// Whose link a token opens: one side's view, or the umpire's (everything).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seat {
    Side(SideId),
    Umpire,
}

impl Seat {
    /// The key it is kept under: the side's id, or '' for the umpire.
    fn key(&self) -> &str {
        match self {
            Seat::Side(side) => side.as_str(),
            Seat::Umpire => "",
        }
    }

    fn from_key(key: String) -> Seat {
        if key.is_empty() {
            Seat::Umpire
        } else {
            Seat::Side(SideId::new(key))
        }
    }
}

/// An order upload's idempotency key: the seat that sent it, the key, and the
/// SHA-256 hash of the request's body.
#[derive(Debug, Clone)]
pub struct Keyed<'k> {
    pub seat: &'k Seat,
    pub key: &'k str,
    pub body_hash: [u8; 32],
}

/// The campaign's server settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct ServeSettings {
    /// Resolve the game move as soon as every side has given orders.
    pub auto_resolve: bool,
    /// Unix seconds: at this time the game move is resolved, a side with no
    /// orders holding. `None`: no deadline.
    pub deadline: Option<i64>,
}

impl Store {
    /// Keeps the SHA-256 `hash` of a new token for `seat`. Not campaign state:
    /// nothing is logged; the side must exist.
    pub fn add_token(&mut self, seat: &Seat, hash: [u8; 32]) -> Result<(), StoreError> {
        let path = path_text(&self.path);
        let tx = begin(&mut self.conn, &path, "starting to keep the token")?;
        if let Seat::Side(side) = seat
            && !super::programmed::side_exists(&tx, &path, side)?
        {
            return Err(StoreError::NoSuchSide {
                path,
                side: side.as_str().to_owned(),
            });
        }
        tx.execute(
            "INSERT INTO serve_tokens (hash, seat) VALUES (?1, ?2)",
            params![hash.as_slice(), seat.key()],
        )
        .map_err(sqlite(&path, "keeping the token"))?;
        tx.commit().map_err(sqlite(&path, "saving the token"))
    }

    /// Revokes every token of `seat`; returns how many there were.
    pub fn revoke_tokens(&mut self, seat: &Seat) -> Result<usize, StoreError> {
        let path = path_text(&self.path);
        let tx = begin(&mut self.conn, &path, "starting to revoke the tokens")?;
        let gone = tx
            .execute("DELETE FROM serve_tokens WHERE seat = ?1", [seat.key()])
            .map_err(sqlite(&path, "revoking the tokens"))?;
        tx.commit().map_err(sqlite(&path, "saving the revocation"))?;
        Ok(gone)
    }

    /// The seat whose token hashes to `hash`, if any: every token kept is
    /// compared in constant time, and all of them, found or not.
    pub fn token_seat(&self, hash: &[u8; 32]) -> Result<Option<Seat>, StoreError> {
        let read = |source| self.sqlite_error("reading the tokens", source);
        let mut statement = self
            .conn
            .prepare_cached("SELECT hash, seat FROM serve_tokens")
            .map_err(read)?;
        let rows = statement
            .query_map([], |r| Ok((r.get::<_, Vec<u8>>(0)?, r.get::<_, String>(1)?)))
            .map_err(read)?;
        let mut found = None;
        for row in rows {
            let (kept, seat) = row.map_err(read)?;
            if bool::from(kept.as_slice().ct_eq(hash.as_slice())) {
                found = Some(Seat::from_key(seat));
            }
        }
        Ok(found)
    }

    /// The answer kept for an upload with this idempotency key, if one was
    /// applied: `Ok(Some((body_hash, answer)))`.
    pub fn keyed_answer(&self, seat: &Seat, key: &str) -> Result<Option<([u8; 32], String)>, StoreError> {
        self.conn
            .query_row(
                "SELECT body_hash, answer FROM serve_requests WHERE seat = ?1 AND key = ?2",
                params![seat.key(), key],
                |r| Ok((r.get::<_, Vec<u8>>(0)?, r.get::<_, String>(1)?)),
            )
            .optional()
            .map_err(|source| self.sqlite_error("reading the idempotency keys", source))
            .map(|found| {
                found.map(|(hash, answer)| {
                    let mut fixed = [0u8; 32];
                    for (to, from) in fixed.iter_mut().zip(hash) {
                        *to = from;
                    }
                    (fixed, answer)
                })
            })
    }

    /// Records a side's checked `orders` as [`Store::submit_orders`] does, if
    /// the save is still at `at`, and in the same transaction keeps `keyed`
    /// with the answer `answer` makes from the new revision. An upload
    /// replaces the orders the side gave before for this game move (each
    /// withdrawn, with its event): the last one given is the side's orders,
    /// so an order left out of a changed upload no longer stands.
    pub fn submit_orders_keyed(
        &mut self,
        at: Revision,
        orders: &OrderSet,
        source: &str,
        keyed: Option<&Keyed<'_>>,
        answer: impl FnOnce(Revision) -> String,
    ) -> Result<(Revision, String), StoreError> {
        let path = path_text(&self.path);
        let tx = begin(&mut self.conn, &path, "starting to record the orders")?;
        expect_at(&tx, &self.path, at)?;
        // The seq the new orders get (an INTEGER PRIMARY KEY: one past the
        // largest), which the orders they replace are marked with.
        let next: i64 = tx
            .query_row("SELECT COALESCE(MAX(seq), 0) + 1 FROM orders", [], |r| r.get(0))
            .map_err(sqlite(&path, "reading the orders"))?;
        super::moves::withdraw_side_orders(&tx, &path, &orders.side, orders.turn, source, next)?;
        let now = super::moves::record_orders(&tx, &path, orders, source, None)?;
        let written: i64 = tx
            .query_row("SELECT MAX(seq) FROM orders", [], |r| r.get(0))
            .map_err(sqlite(&path, "reading the orders"))?;
        if written != next {
            tx.execute(
                "UPDATE orders SET replaced_by = ?1 WHERE replaced_by = ?2",
                params![written, next],
            )
            .map_err(sqlite(&path, "marking the replaced orders"))?;
        }
        let answer = answer(now);
        if let Some(keyed) = keyed {
            tx.execute(
                "INSERT INTO serve_requests (seat, key, body_hash, answer) VALUES (?1, ?2, ?3, ?4)",
                params![keyed.seat.key(), keyed.key, keyed.body_hash.as_slice(), answer],
            )
            .map_err(sqlite(&path, "keeping the idempotency key"))?;
        }
        tx.commit().map_err(sqlite(&path, "saving the orders"))?;
        Ok((now, answer))
    }

    /// Whether anything `side` would see changed after revision `at`: any
    /// change but another side's orders. `false` when the save is at `at`.
    pub fn changed_for_side(&self, at: Revision, side: &SideId) -> Result<bool, StoreError> {
        self.conn
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM events WHERE rowid > ?1 AND kind != 'server_settings' AND NOT (
                     kind IN ('orders_given', 'orders_withdrawn')
                     AND json_extract(payload, '$.side') IS NOT ?2))",
                params![at.number(), side.as_str()],
                |r| r.get(0),
            )
            .map_err(|source| self.sqlite_error("reading what changed", source))
    }

    /// Whether the campaign's state may have changed after revision `at`:
    /// any change but orders given or withdrawn, which leave it as it was.
    pub fn state_changed_since(&self, at: Revision) -> Result<bool, StoreError> {
        self.conn
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM events WHERE rowid > ?1
                     AND kind NOT IN ('orders_given', 'orders_withdrawn', 'server_settings'))",
                params![at.number()],
                |r| r.get(0),
            )
            .map_err(|source| self.sqlite_error("reading what changed", source))
    }

    /// The save's revision, read with the rest of a read transaction.
    pub fn revision_now(&self) -> Result<Revision, StoreError> {
        read_revision(&self.conn).map_err(|source| self.sqlite_error("reading the save's revision", source))
    }

    /// The campaign's server settings (all off when never set).
    pub fn serve_settings(&self) -> Result<ServeSettings, StoreError> {
        self.conn
            .query_row(
                "SELECT auto_resolve, deadline FROM serve_settings WHERE id = 1",
                [],
                |r| {
                    Ok(ServeSettings {
                        auto_resolve: r.get(0)?,
                        deadline: r.get(1)?,
                    })
                },
            )
            .optional()
            .map(Option::unwrap_or_default)
            .map_err(|source| self.sqlite_error("reading the server settings", source))
    }

    /// The umpire sets the campaign's server settings, if the save is still
    /// at `at`, with a `server_settings` event saying so in `sentence` (so
    /// another umpire's client reading at `at` is told, as of any change).
    /// The revision after it.
    pub fn change_serve_settings(
        &mut self,
        at: Revision,
        settings: ServeSettings,
        sentence: &str,
    ) -> Result<Revision, StoreError> {
        let path = path_text(&self.path);
        let tx = begin(&mut self.conn, &path, "starting to set the server settings")?;
        expect_at(&tx, &self.path, at)?;
        upsert_settings(&tx, settings).map_err(sqlite(&path, "storing the server settings"))?;
        let logged = ev::ServerSettings {
            setting: "settings".to_owned(),
            auto_resolve: Some(settings.auto_resolve),
            deadline: settings.deadline,
            remind_minutes: None,
        };
        log_setting(&tx, logged, sentence).map_err(sqlite(&path, "logging the server settings"))?;
        let now = read_revision(&tx).map_err(sqlite(&path, "reading the save's revision"))?;
        tx.commit().map_err(sqlite(&path, "saving the server settings"))?;
        Ok(now)
    }

    /// Sets the campaign's server settings, if the save is still at `at`,
    /// with no event: the server's own clearing of a deadline it spends (the
    /// game move that follows is the change logged).
    pub fn set_serve_settings(&mut self, at: Revision, settings: ServeSettings) -> Result<(), StoreError> {
        let path = path_text(&self.path);
        let tx = begin(&mut self.conn, &path, "starting to set the server settings")?;
        expect_at(&tx, &self.path, at)?;
        upsert_settings(&tx, settings).map_err(sqlite(&path, "storing the server settings"))?;
        tx.commit().map_err(sqlite(&path, "saving the server settings"))
    }

    /// The campaign's reminders, if set (`umpire serve remind`).
    pub fn reminders(&self) -> Result<Option<Reminders>, StoreError> {
        self.conn
            .query_row(
                "SELECT webhook, remind_minutes, announced_turn, reminded_turn FROM serve_reminders WHERE id = 1",
                [],
                |r| {
                    Ok(Reminders {
                        webhook: r.get(0)?,
                        remind_minutes: r.get(1)?,
                        announced_turn: r.get(2)?,
                        reminded_turn: r.get(3)?,
                    })
                },
            )
            .optional()
            .map_err(|source| self.sqlite_error("reading the reminders", source))
    }

    /// Sets the campaign's webhook (`None`: no reminders), if the save is
    /// still at `at`; orders are announced open from game move `turn` on. A
    /// `server_settings` event says so in `sentence` (without the address).
    /// The revision after it.
    pub fn set_reminders(
        &mut self,
        at: Revision,
        webhook: Option<(&str, u32)>,
        turn: u32,
        sentence: &str,
    ) -> Result<Revision, StoreError> {
        let path = path_text(&self.path);
        let tx = begin(&mut self.conn, &path, "starting to set the reminders")?;
        expect_at(&tx, &self.path, at)?;
        match webhook {
            None => tx.execute("DELETE FROM serve_reminders", []),
            Some((url, minutes)) => tx.execute(
                "INSERT INTO serve_reminders (id, webhook, remind_minutes, announced_turn) VALUES (1, ?1, ?2, ?3)
                 ON CONFLICT (id) DO UPDATE SET webhook = excluded.webhook, remind_minutes = excluded.remind_minutes,
                     announced_turn = excluded.announced_turn, reminded_turn = NULL",
                params![url, minutes, turn],
            ),
        }
        .map_err(sqlite(&path, "storing the reminders"))?;
        let logged = ev::ServerSettings {
            setting: "reminders".to_owned(),
            auto_resolve: None,
            deadline: None,
            remind_minutes: webhook.map(|(_, minutes)| minutes),
        };
        log_setting(&tx, logged, sentence).map_err(sqlite(&path, "logging the reminders"))?;
        let now = read_revision(&tx).map_err(sqlite(&path, "reading the save's revision"))?;
        tx.commit().map_err(sqlite(&path, "saving the reminders"))?;
        Ok(now)
    }

    /// Notes a reminder as sent: orders announced open for game move
    /// `announced`, the deadline reminder of game move `reminded`; if the
    /// save is still at `at`.
    pub fn mark_reminded(
        &mut self,
        at: Revision,
        announced: u32,
        reminded: Option<u32>,
    ) -> Result<(), StoreError> {
        let path = path_text(&self.path);
        let tx = begin(&mut self.conn, &path, "starting to note the reminders sent")?;
        expect_at(&tx, &self.path, at)?;
        tx.execute(
            "UPDATE serve_reminders SET announced_turn = ?1, reminded_turn = ?2 WHERE id = 1",
            params![announced, reminded],
        )
        .map_err(sqlite(&path, "noting the reminders sent"))?;
        tx.commit().map_err(sqlite(&path, "saving the reminders sent"))
    }
}

fn upsert_settings(tx: &rusqlite::Transaction<'_>, settings: ServeSettings) -> rusqlite::Result<usize> {
    tx.execute(
        "INSERT INTO serve_settings (id, auto_resolve, deadline) VALUES (1, ?1, ?2)
         ON CONFLICT (id) DO UPDATE SET auto_resolve = excluded.auto_resolve, deadline = excluded.deadline",
        params![settings.auto_resolve, settings.deadline],
    )
}

/// Appends the `server_settings` event of a setting changed, in the current game move.
fn log_setting(
    tx: &rusqlite::Transaction<'_>,
    logged: ev::ServerSettings,
    sentence: &str,
) -> rusqlite::Result<()> {
    let turn: u32 = tx.query_row("SELECT turn FROM campaign WHERE id = 1", [], |r| r.get(0))?;
    let event = Event {
        turn,
        seq: super::moves::next_seq(tx, turn)?,
        kind: EventKind::ServerSettings(logged),
        sentence: sentence.to_owned(),
    };
    super::rows::append_event(tx, &event)
}

/// A campaign's reminders: where, how long before the deadline, what was sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reminders {
    pub webhook: String,
    pub remind_minutes: u32,
    /// The game move whose orders were last announced open.
    pub announced_turn: u32,
    /// The game move whose deadline reminder was sent.
    pub reminded_turn: Option<u32>,
}
