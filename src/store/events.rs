//! How the log's events are kept: a change's events together, deflated.
//!
//! A game move or a battle's result tells its events and ends with a
//! `checkpoint` event. Since schema 8 the events before the checkpoint are one
//! row of `change_events`, keyed by the checkpoint event: deflated JSON,
//! `{"kinds": [{"kind": ..., "payload": ...}, ...], "sentences": [...]}`,
//! numbered on from the checkpoint's `first_seq`. The checkpoint, and every event of the log's
//! bookkeeping (the campaign's start, orders given and withdrawn, undos), stay
//! one row each in `events`, where the undo stack is read from. Read back, the
//! log is as it was when every event had its row: a change's events, then its
//! checkpoint, in the order they were told, with the same kinds and payloads.

use super::StoreError;
use super::error::sqlite;
use super::pack;
use crate::model::{Event, EventKind};
use flate2::Compression;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use rusqlite::{Connection, params};
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};

/// `events`, the events of one change, as kept: their JSON deflated; `None`
/// for no events. Touches no database, so it may run beside the writing.
pub(super) fn encode(events: &[Event]) -> Result<Option<Vec<u8>>, String> {
    if events.is_empty() {
        return Ok(None);
    }
    let kept = Kept {
        kinds: events.iter().map(|e| &e.kind).collect(),
        sentences: events.iter().map(|e| e.sentence.as_str()).collect(),
    };
    // Serialized whole, its lists packed by columns, then deflated in one go.
    let value = serde_json::to_value(&kept).map_err(|e| e.to_string())?;
    let json = serde_json::to_vec(&pack::pack(value)).map_err(|e| e.to_string())?;
    let mut encoder = DeflateEncoder::new(Vec::with_capacity(json.len() / 4), Compression::default());
    encoder.write_all(&json).map_err(|e| e.to_string())?;
    encoder.finish().map(Some).map_err(|e| e.to_string())
}

/// Keeps the `count` events `encode`d of the change the checkpoint event `at`
/// (already written) closes; they are numbered `seq - count` on.
pub(super) fn insert(
    tx: &Connection,
    path: &str,
    at: (u32, u32),
    count: u32,
    encoded: Result<Option<Vec<u8>>, String>,
) -> Result<(), StoreError> {
    let Some(deflated) = encoded.map_err(|detail| bad(path, at, detail))? else {
        return Ok(());
    };
    tx.prepare_cached("INSERT INTO change_events (turn, seq, count, events) VALUES (?1, ?2, ?3, ?4)")
        .and_then(|mut insert| insert.execute(params![at.0, at.1, count, deflated]))
        .map_err(sqlite(path, "writing the events"))?;
    Ok(())
}

/// The events kept for the change closed by the checkpoint event `(turn, seq)`
/// from the row's `count` and `events`, numbered up to just below `seq`.
pub(super) fn read(
    path: &str,
    (turn, seq): (u32, u32),
    count: usize,
    deflated: &[u8],
) -> Result<Vec<Event>, StoreError> {
    let mut json = Vec::new();
    DeflateDecoder::new(deflated)
        .read_to_end(&mut json)
        .map_err(|e| bad(path, (turn, seq), format!("cannot inflate: {e}")))?;
    let kept: Kept<EventKind, String> = serde_json::from_slice(&json)
        .map_err(|e| e.to_string())
        .and_then(pack::unpack)
        .and_then(|v| serde_json::from_value(v).map_err(|e| e.to_string()))
        .map_err(|detail| bad(path, (turn, seq), detail))?;
    if kept.kinds.len() != count || kept.sentences.len() != count {
        return Err(bad(
            path,
            (turn, seq),
            format!(
                "{} events and {} sentences kept where {count} were written",
                kept.kinds.len(),
                kept.sentences.len()
            ),
        ));
    }
    let first = u32::try_from(count)
        .ok()
        .and_then(|n| seq.checked_sub(n))
        .ok_or_else(|| bad(path, (turn, seq), format!("{count} events before seq {seq}")))?;
    Ok(kept
        .kinds
        .into_iter()
        .zip(kept.sentences)
        .zip(first..)
        .map(|((kind, sentence), seq)| Event {
            turn,
            seq,
            kind,
            sentence,
        })
        .collect())
}

/// A change's events as kept: their kinds with their payloads, and their
/// sentences apart (like text beside like text deflates smaller).
#[derive(Serialize, Deserialize)]
struct Kept<K, S> {
    kinds: Vec<K>,
    sentences: Vec<S>,
}

fn bad(path: &str, (turn, seq): (u32, u32), detail: String) -> StoreError {
    StoreError::BadRow {
        path: path.to_owned(),
        table: "change_events",
        key: format!("{turn}/{seq}"),
        detail,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::model::event::{ForceDestroyed, TurnEnded};
    use crate::model::{EventLog, ForceId};

    #[test]
    fn a_change_s_events_read_back_as_written() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE change_events (turn INTEGER, seq INTEGER, count INTEGER, events BLOB)",
        )
        .unwrap();
        let mut log = EventLog::new(4);
        log.tell(
            EventKind::ForceDestroyed(ForceDestroyed {
                force: ForceId::new("a"),
            }),
            "A is no more.".to_owned(),
        );
        log.tell(
            EventKind::TurnEnded(TurnEnded {
                turn: 4,
                battles_pending: 0,
            }),
            "Game move 4 ends.".to_owned(),
        );
        let mut events = log.into_events();
        for e in &mut events {
            e.seq += 7;
        }
        insert(&conn, "s", (4, 9), 2, encode(&events)).unwrap();
        let (count, blob): (u32, Vec<u8>) = conn
            .query_row("SELECT count, events FROM change_events", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!(read("s", (4, 9), count as usize, &blob).unwrap(), events);
        assert!(read("s", (4, 9), 3, &blob).is_err());
        assert!(read("s", (4, 9), 2, b"not deflated").is_err());
    }
}
