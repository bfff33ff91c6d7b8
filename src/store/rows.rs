//! Mapping between the model and the save's tables.

use super::StoreError;
use super::error::path_text;
use crate::model::{
    Arm, ArmyKind, Battle, Campaign, Colour, Date, EnRoute, Event, EventKind, Fatigue, Feature, Force,
    ForceId, How, Hq, Knowledge, Map, MarkerCount, Quality, Region, RegionId, Reinforcement, Replacements,
    RiverCrossing, RngState, Road, RoadKind, RuleSetId, Seen, Side, SideId, Sighting, Stand, StandId,
    StandKind, Supply, Terrain, Wing,
};
use rusqlite::{Connection, Row, Transaction, params};
use std::path::Path;

/// Writes a whole campaign into a new save's empty tables. Call inside a transaction.
pub(super) fn write_campaign(tx: &Transaction<'_>, campaign: &Campaign) -> rusqlite::Result<()> {
    let map = &campaign.map;
    tx.execute(
        "INSERT INTO campaign (id, title, description, turn, start_turn, start_date, days_per_turn, rules,
                               rng_seed, rng_word_pos, map_name, map_description, miles_per_inch, map_background,
                               transport, arrivals, house_rules, campaign_end, map_waters)
         VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
        params![
            campaign.title,
            campaign.description,
            campaign.turn,
            campaign.start_turn,
            campaign.start_date.to_string(),
            campaign.days_per_turn,
            campaign.rules.as_str(),
            campaign.rng.seed.to_string(),
            campaign.rng.word_pos.to_string(),
            map.name,
            map.description,
            campaign.miles_per_inch,
            map.background.as_ref().and_then(|b| serde_json::to_string(b).ok()),
            (!campaign.transport.is_default()).then(|| json(&campaign.transport)),
            arrivals_json(campaign),
            (!campaign.house_rules.is_seed()).then(|| json(&campaign.house_rules)),
            end_json(&campaign.end),
            (!map.waters.is_empty()).then(|| json(&map.waters)),
        ],
    )?;
    let mut insert = tx.prepare(
        "INSERT INTO regions (id, ord, name, terrain, x, y, features, shape) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    for (ord, r) in map.regions.iter().enumerate() {
        let features: Vec<&str> = r.features.iter().map(|f| f.as_str()).collect();
        insert.execute(params![
            r.id.as_str(),
            ord_sql(ord),
            r.name,
            r.terrain.as_str(),
            r.x,
            r.y,
            features.join(" "),
            (!r.shape.is_empty()).then(|| json(&r.shape)),
        ])?;
    }
    let mut insert = tx.prepare(
        "INSERT INTO roads (ord, from_region, to_region, kind, miles, river, name) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for (ord, r) in map.roads.iter().enumerate() {
        insert.execute(params![
            ord_sql(ord),
            r.from.as_str(),
            r.to.as_str(),
            r.kind.as_str(),
            r.miles,
            r.river.map(|c| c.as_str()),
            r.name
        ])?;
    }
    let mut insert =
        tx.prepare("INSERT INTO sides (id, ord, name, colour, army) VALUES (?1, ?2, ?3, ?4, ?5)")?;
    for (ord, s) in campaign.sides.iter().enumerate() {
        insert.execute(params![
            s.id.as_str(),
            ord_sql(ord),
            s.name,
            s.colour.to_string(),
            s.army.as_str()
        ])?;
    }
    write_state(tx, campaign)
}

/// Replaces what game moves change (the game move, the random stream's
/// place, HQs, forces, stands and battles) with `campaign`'s; the map and the
/// sides stay. Call inside a transaction.
pub(super) fn write_state(tx: &Transaction<'_>, campaign: &Campaign) -> rusqlite::Result<()> {
    for table in [
        "knowledge_markers",
        "knowledge",
        "battles",
        "stands",
        "forces",
        "hqs",
    ] {
        tx.execute(&format!("DELETE FROM {table}"), [])?;
    }
    tx.execute(
        "UPDATE campaign SET turn = ?1, rng_word_pos = ?2, arrivals = ?3, campaign_end = ?4 WHERE id = 1",
        params![
            campaign.turn,
            campaign.rng.word_pos.to_string(),
            arrivals_json(campaign),
            end_json(&campaign.end)
        ],
    )?;
    write_hqs(tx, &campaign.hqs)?;
    write_forces(tx, &campaign.forces, 0)?;
    write_battles(tx, &campaign.battles)?;
    write_knowledge(tx, &campaign.knowledge)
}

/// Writes what changed from `before` (the state the tables hold) to `after`:
/// only the rows that differ, or a whole table when its rows changed order.
/// Call inside a transaction.
pub(super) fn write_changes(
    tx: &Transaction<'_>,
    before: &Campaign,
    after: &Campaign,
) -> rusqlite::Result<()> {
    tx.prepare_cached("UPDATE campaign SET turn = ?1, rng_word_pos = ?2 WHERE id = 1")?
        .execute(params![after.turn, after.rng.word_pos.to_string()])?;
    if before.reinforcements != after.reinforcements || before.replacements != after.replacements {
        tx.prepare_cached("UPDATE campaign SET arrivals = ?1 WHERE id = 1")?
            .execute(params![arrivals_json(after)])?;
    }
    if before.end != after.end {
        tx.prepare_cached("UPDATE campaign SET campaign_end = ?1 WHERE id = 1")?
            .execute(params![end_json(&after.end)])?;
    }
    let hq_key = |h: &Hq| (h.side.clone(), h.wing);
    if before.hqs.iter().map(hq_key).eq(after.hqs.iter().map(hq_key)) {
        let mut update = tx.prepare_cached(
            "UPDATE hqs SET region = ?3, name = ?4, held_by = ?5, captured_turn = ?6 WHERE side = ?1 AND wing = ?2",
        )?;
        for (old, h) in before.hqs.iter().zip(&after.hqs) {
            if old != h {
                update.execute(params![
                    h.side.as_str(),
                    h.wing.as_str(),
                    h.region.as_str(),
                    h.name,
                    h.held_by.as_str(),
                    h.captured_turn
                ])?;
            }
        }
    } else {
        tx.execute("DELETE FROM hqs", [])?;
        write_hqs(tx, &after.hqs)?;
    }
    write_force_changes(tx, &before.forces, &after.forces)?;
    write_battle_changes(tx, &before.battles, &after.battles)?;
    write_knowledge_changes(tx, &before.knowledge, &after.knowledge)
}

/// Whether `after` is `before` with some elements gone and new ones last,
/// so rows kept in place and new rows appended keep the list's order.
fn kept_in_order<K: Eq + std::hash::Hash>(before: &[K], after: &[K]) -> bool {
    let old: std::collections::HashSet<&K> = before.iter().collect();
    let new: std::collections::HashSet<&K> = after.iter().collect();
    let kept = before.iter().filter(|k| new.contains(k));
    let survivors = after.iter().take_while(|k| old.contains(k));
    let count = survivors.clone().count();
    kept.eq(survivors) && after.iter().skip(count).all(|k| !old.contains(k))
}

fn write_force_changes(tx: &Transaction<'_>, before: &[Force], after: &[Force]) -> rusqlite::Result<()> {
    let old_ids: Vec<&ForceId> = before.iter().map(|f| &f.id).collect();
    let new_ids: Vec<&ForceId> = after.iter().map(|f| &f.id).collect();
    if !kept_in_order(&old_ids, &new_ids) {
        tx.execute("DELETE FROM stands", [])?;
        tx.execute("DELETE FROM forces", [])?;
        return write_forces(tx, after, 0);
    }
    let old: std::collections::HashMap<&ForceId, &Force> = before.iter().map(|f| (&f.id, f)).collect();
    let new: std::collections::HashSet<&ForceId> = new_ids.iter().copied().collect();
    let mut delete_force = tx.prepare_cached("DELETE FROM forces WHERE id = ?1")?;
    let mut delete_stands = tx.prepare_cached("DELETE FROM stands WHERE force = ?1")?;
    for f in before.iter().filter(|f| !new.contains(&f.id)) {
        delete_stands.execute(params![f.id.as_str()])?;
        delete_force.execute(params![f.id.as_str()])?;
    }
    // Stands that changed force or place are written again, after every
    // force whose stands moved has lost its old rows.
    let stand_ids = |f: &Force| f.stands.iter().map(|s| s.id).collect::<Vec<_>>();
    let restand: Vec<&Force> = after
        .iter()
        .filter(|f| old.get(&f.id).is_some_and(|o| stand_ids(o) != stand_ids(f)))
        .collect();
    for f in &restand {
        delete_stands.execute(params![f.id.as_str()])?;
    }
    let mut update_force = tx.prepare_cached(
        "UPDATE forces SET region = ?2, en_route_to = ?3, en_route_miles = ?4, standing_order = ?5,
                           forced_in_row = ?6, must_rest = ?7, supply_cut_moves = ?8, supply_next_loss = ?9,
                           fallen_out = ?10
         WHERE id = ?1",
    )?;
    let mut update_stand = tx.prepare_cached(
        "UPDATE stands SET name = ?2, kind = ?3, quality = ?4, strength = ?5, full = ?6 WHERE id = ?1",
    )?;
    let mut added = Vec::new();
    for f in after {
        let Some(o) = old.get(&f.id) else {
            added.push(f.clone());
            continue;
        };
        if o == &f {
            continue;
        }
        if o.name != f.name || o.side != f.side {
            // Never done by a game move; written whole to keep every column true.
            delete_stands.execute(params![f.id.as_str()])?;
            tx.execute(
                "UPDATE forces SET name = ?2, side = ?3 WHERE id = ?1",
                params![f.id.as_str(), f.name, f.side.as_str()],
            )?;
            write_stands(tx, f)?;
        } else if restand.iter().any(|r| r.id == f.id) {
            write_stands(tx, f)?;
        } else {
            for (s, was) in f.stands.iter().zip(&o.stands) {
                if s != was {
                    update_stand.execute(params![
                        s.id.0,
                        s.name,
                        s.kind.as_str(),
                        s.quality.as_str(),
                        s.strength,
                        s.full
                    ])?;
                }
            }
        }
        if (
            &o.region,
            &o.en_route,
            &o.order,
            &o.fatigue,
            &o.supply,
            &o.fallen_out,
        ) != (
            &f.region,
            &f.en_route,
            &f.order,
            &f.fatigue,
            &f.supply,
            &f.fallen_out,
        ) {
            update_force.execute(params![
                f.id.as_str(),
                f.region.as_str(),
                f.en_route.as_ref().map(|e| e.toward.as_str()),
                f.en_route.as_ref().map_or(0.0, |e| e.miles),
                json(&f.order),
                f.fatigue.forced_in_row,
                f.fatigue.must_rest,
                f.supply.cut_moves,
                f.supply.next_loss.map(|a| a.as_str()),
                fallen_out_json(f),
            ])?;
        }
    }
    if !added.is_empty() {
        let next: i64 = tx.query_row("SELECT COALESCE(MAX(ord), -1) + 1 FROM forces", [], |r| r.get(0))?;
        write_forces(tx, &added, next)?;
    }
    Ok(())
}

fn write_battle_changes(tx: &Transaction<'_>, before: &[Battle], after: &[Battle]) -> rusqlite::Result<()> {
    let old: std::collections::HashMap<u32, &Battle> = before.iter().map(|b| (b.id, b)).collect();
    let new: std::collections::HashSet<u32> = after.iter().map(|b| b.id).collect();
    for b in before.iter().filter(|b| !new.contains(&b.id)) {
        tx.prepare_cached("DELETE FROM battles WHERE id = ?1")?
            .execute(params![b.id])?;
    }
    let changed: Vec<Battle> = after
        .iter()
        .filter(|b| old.get(&b.id) != Some(b))
        .cloned()
        .collect();
    for b in &changed {
        tx.prepare_cached("DELETE FROM battles WHERE id = ?1")?
            .execute(params![b.id])?;
    }
    write_battles(tx, &changed)
}

fn write_knowledge_changes(
    tx: &Transaction<'_>,
    before: &Knowledge,
    after: &Knowledge,
) -> rusqlite::Result<()> {
    let key = |s: &Sighting| (s.by.clone(), s.marker);
    let old_keys: Vec<_> = before.sightings.iter().map(key).collect();
    let new_keys: Vec<_> = after.sightings.iter().map(key).collect();
    if !kept_in_order(&old_keys, &new_keys) {
        tx.execute("DELETE FROM knowledge_markers", [])?;
        tx.execute("DELETE FROM knowledge", [])?;
        return write_knowledge(tx, after);
    }
    let old: std::collections::HashMap<_, &Sighting> = before.sightings.iter().map(|s| (key(s), s)).collect();
    let new: std::collections::HashSet<_> = new_keys.iter().collect();
    let mut delete = tx.prepare_cached("DELETE FROM knowledge WHERE by_side = ?1 AND marker = ?2")?;
    for s in before.sightings.iter().filter(|s| !new.contains(&key(s))) {
        delete.execute(params![s.by.as_str(), s.marker])?;
    }
    let mut update = tx.prepare_cached(
        "UPDATE knowledge SET force = ?3, side = ?4, turn = ?5, region = ?6, en_route_to = ?7, en_route_miles = ?8,
                              in_sight = ?9, seen_name = ?10, seen_points = ?11, seen_stands = ?12, how = ?13
         WHERE by_side = ?1 AND marker = ?2",
    )?;
    let mut insert = tx.prepare_cached(INSERT_SIGHTING)?;
    for s in &after.sightings {
        match old.get(&key(s)) {
            Some(was) if *was == s => {}
            Some(_) => {
                put_sighting(&mut update, s)?;
            }
            None => {
                put_sighting(&mut insert, s)?;
            }
        }
    }
    if before.markers != after.markers {
        tx.execute("DELETE FROM knowledge_markers", [])?;
        write_markers(tx, &after.markers)?;
    }
    Ok(())
}

const INSERT_SIGHTING: &str =
    "INSERT INTO knowledge (by_side, marker, force, side, turn, region, en_route_to, en_route_miles,
                                in_sight, seen_name, seen_points, seen_stands, how)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)";

fn write_hqs(tx: &Transaction<'_>, hqs: &[Hq]) -> rusqlite::Result<()> {
    let mut insert = tx.prepare_cached(
        "INSERT INTO hqs (ord, side, wing, region, name, held_by, captured_turn) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for (ord, h) in hqs.iter().enumerate() {
        insert.execute(params![
            ord_sql(ord),
            h.side.as_str(),
            h.wing.as_str(),
            h.region.as_str(),
            h.name,
            h.held_by.as_str(),
            h.captured_turn,
        ])?;
    }
    Ok(())
}

/// Inserts `forces` and their stands, numbering their order from `first_ord`.
fn write_forces(tx: &Transaction<'_>, forces: &[Force], first_ord: i64) -> rusqlite::Result<()> {
    let mut insert_force = tx.prepare_cached(
        "INSERT INTO forces (id, ord, name, side, region, en_route_to, en_route_miles, standing_order,
                             forced_in_row, must_rest, supply_cut_moves, supply_next_loss, fallen_out)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    )?;
    for (ord, f) in forces.iter().enumerate() {
        insert_force.execute(params![
            f.id.as_str(),
            first_ord.saturating_add(ord_sql(ord)),
            f.name,
            f.side.as_str(),
            f.region.as_str(),
            f.en_route.as_ref().map(|e| e.toward.as_str()),
            f.en_route.as_ref().map_or(0.0, |e| e.miles),
            json(&f.order),
            f.fatigue.forced_in_row,
            f.fatigue.must_rest,
            f.supply.cut_moves,
            f.supply.next_loss.map(|a| a.as_str()),
            fallen_out_json(f),
        ])?;
        write_stands(tx, f)?;
    }
    Ok(())
}

/// A force's stands fallen out, as its `fallen_out` column keeps them: NULL when none.
fn fallen_out_json(f: &Force) -> Option<String> {
    (!f.fallen_out.is_empty()).then(|| json(&f.fallen_out))
}

fn write_stands(tx: &Transaction<'_>, f: &Force) -> rusqlite::Result<()> {
    let mut insert_stand = tx.prepare_cached(
        "INSERT INTO stands (id, force, ord, name, kind, quality, strength, full) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    for (ord, s) in f.stands.iter().enumerate() {
        insert_stand.execute(params![
            s.id.0,
            f.id.as_str(),
            ord_sql(ord),
            s.name,
            s.kind.as_str(),
            s.quality.as_str(),
            s.strength,
            s.full
        ])?;
    }
    Ok(())
}

fn write_battles(tx: &Transaction<'_>, battles: &[Battle]) -> rusqlite::Result<()> {
    let mut insert = tx.prepare_cached(
        "INSERT INTO battles (id, turn, region, attacker, defender, forces, reserves, status, came_from, record)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?;
    for b in battles {
        insert.execute(params![
            b.id,
            b.turn,
            b.region.as_str(),
            b.attacker.as_str(),
            b.defender.as_str(),
            json(&b.forces),
            json(&b.reserves),
            json(&b.status).trim_matches('"'),
            json(&b.came_from),
            json(&b.record),
        ])?;
    }
    Ok(())
}

/// What each side knows, in the order it is kept.
fn write_knowledge(tx: &Transaction<'_>, knowledge: &Knowledge) -> rusqlite::Result<()> {
    let mut insert = tx.prepare_cached(INSERT_SIGHTING)?;
    for k in &knowledge.sightings {
        put_sighting(&mut insert, k)?;
    }
    write_markers(tx, &knowledge.markers)
}

/// Runs `statement` (`INSERT_SIGHTING`, or the update of a changed sighting,
/// which numbers its parameters the same way) for one sighting.
fn put_sighting(statement: &mut rusqlite::CachedStatement<'_>, s: &Sighting) -> rusqlite::Result<usize> {
    statement.execute(params![
        s.by.as_str(),
        s.marker,
        s.force.as_str(),
        s.side.as_str(),
        s.turn,
        s.region.as_str(),
        s.en_route.as_ref().map(|e| e.toward.as_str()),
        s.en_route.as_ref().map_or(0.0, |e| e.miles),
        s.in_sight,
        s.seen.name(),
        seen_number(&s.seen, |points, _| points),
        seen_number(&s.seen, |_, stands| stands),
        s.how.as_str(),
    ])
}

/// A number of what was seen in full (`pick` of its points and stands), as
/// kept: `None` for a blind.
fn seen_number(seen: &Seen, pick: impl Fn(u64, u64) -> u64) -> Option<i64> {
    match seen {
        Seen::Blind => None,
        Seen::Full { points, stands, .. } => {
            Some(i64::try_from(pick(*points, u64::try_from(*stands).unwrap_or(u64::MAX))).unwrap_or(i64::MAX))
        }
    }
}

fn write_markers(tx: &Transaction<'_>, markers: &[MarkerCount]) -> rusqlite::Result<()> {
    let mut insert = tx.prepare_cached("INSERT INTO knowledge_markers (side, last) VALUES (?1, ?2)")?;
    for m in markers {
        insert.execute(params![m.side.as_str(), m.last])?;
    }
    Ok(())
}

/// The troops still to come, as the `arrivals` column keeps them (schema 11).
#[derive(serde::Serialize, serde::Deserialize)]
struct Arrivals {
    #[serde(default)]
    reinforcements: Vec<Reinforcement>,
    #[serde(default)]
    replacements: Vec<Replacements>,
}

/// The `arrivals` column of `campaign`: NULL when nothing is to come.
fn arrivals_json(campaign: &Campaign) -> Option<String> {
    if campaign.reinforcements.is_empty() && campaign.replacements.is_empty() {
        return None;
    }
    serde_json::to_string(&Arrivals {
        reinforcements: campaign.reinforcements.clone(),
        replacements: campaign.replacements.clone(),
    })
    .ok()
}

/// A value as JSON text; the model's types always serialize.
/// The campaign's end as the `campaign_end` column keeps it: NULL when unset.
fn end_json(end: &crate::model::end::End) -> Option<String> {
    (!end.is_unset()).then(|| json(end))
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned())
}

fn from_json<T: serde::de::DeserializeOwned>(row: &Row<'_>, i: usize, what: &str) -> Result<T, String> {
    serde_json::from_str(&text(row, i)?).map_err(|e| format!("{what}: {e}"))
}

/// A position in a list, as SQLite stores it.
fn ord_sql(ord: usize) -> i64 {
    i64::try_from(ord).unwrap_or(i64::MAX)
}

/// The starting state as the `campaign_created` event keeps it: the whole
/// campaign but its map's regions and roads, which never change and are kept
/// once, in their tables; reading the log puts them back (`read_events_from`).
pub(super) fn created_state(campaign: &Campaign) -> serde_json::Value {
    // Every field named, so that one added to `Campaign` or `Map` is not forgotten here.
    let Campaign {
        title,
        description,
        map,
        turn,
        start_turn,
        start_date,
        days_per_turn,
        rules,
        rng,
        miles_per_inch,
        transport,
        sides,
        hqs,
        forces,
        battles,
        knowledge,
        reinforcements,
        replacements,
        house_rules,
        end,
    } = campaign;
    let Map {
        name,
        description: map_description,
        regions: _,
        roads: _,
        background,
        waters,
    } = map;
    let start = Campaign {
        title: title.clone(),
        description: description.clone(),
        map: Map {
            name: name.clone(),
            description: map_description.clone(),
            regions: Vec::new(),
            roads: Vec::new(),
            background: background.clone(),
            waters: waters.clone(),
        },
        turn: *turn,
        start_turn: *start_turn,
        start_date: *start_date,
        days_per_turn: *days_per_turn,
        rules: *rules,
        rng: *rng,
        miles_per_inch: *miles_per_inch,
        transport: transport.clone(),
        sides: sides.clone(),
        hqs: hqs.clone(),
        forces: forces.clone(),
        battles: battles.clone(),
        knowledge: knowledge.clone(),
        reinforcements: reinforcements.clone(),
        replacements: replacements.clone(),
        house_rules: house_rules.clone(),
        end: end.clone(),
    };
    serde_json::to_value(start).unwrap_or(serde_json::Value::Null)
}

/// Appends one event to the log. Call inside a transaction.
pub(super) fn append_event(tx: &Transaction<'_>, event: &Event) -> rusqlite::Result<()> {
    tx.prepare_cached("INSERT INTO events (turn, seq, kind, payload, sentence) VALUES (?1, ?2, ?3, ?4, ?5)")?
        .execute(params![
            event.turn,
            event.seq,
            event.kind.name(),
            match &event.kind {
                // The same text as `payload()`'s, without copying the whole state first.
                EventKind::CampaignCreated(state) => state.to_string(),
                kind => kind.payload().to_string(),
            },
            event.sentence
        ])?;
    Ok(())
}

/// Reads rows of one table, turning each into a value or a precise error.
struct Reader<'a> {
    conn: &'a Connection,
    path: &'a Path,
}

impl Reader<'_> {
    fn rows<T>(
        &self,
        table: &'static str,
        sql: &str,
        key_of: impl Fn(&Row<'_>) -> String,
        mut read: impl FnMut(&Row<'_>) -> Result<T, String>,
    ) -> Result<Vec<T>, StoreError> {
        let sqlite = |source| StoreError::Sqlite {
            path: path_text(self.path),
            action: "reading the save",
            source,
        };
        let mut statement = self.conn.prepare(sql).map_err(sqlite)?;
        let mut rows = statement.query([]).map_err(sqlite)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().map_err(sqlite)? {
            let value = read(row).map_err(|detail| StoreError::BadRow {
                path: path_text(self.path),
                table,
                key: key_of(row),
                detail,
            })?;
            out.push(value);
        }
        Ok(out)
    }
}

fn text(row: &Row<'_>, i: usize) -> Result<String, String> {
    row.get::<_, String>(i).map_err(|e| format!("column {i}: {e}"))
}

fn opt_text(row: &Row<'_>, i: usize) -> Result<Option<String>, String> {
    row.get::<_, Option<String>>(i)
        .map_err(|e| format!("column {i}: {e}"))
}

fn number<T: rusqlite::types::FromSql>(row: &Row<'_>, i: usize) -> Result<T, String> {
    row.get::<_, T>(i).map_err(|e| format!("column {i}: {e}"))
}

/// A count kept as a non-negative integer.
fn count<T: TryFrom<i64>>(row: &Row<'_>, i: usize) -> Result<T, String> {
    let value: i64 = number(row, i)?;
    T::try_from(value).map_err(|_| format!("column {i}: {value} is not a count"))
}

fn word<T>(row: &Row<'_>, i: usize, what: &str, parse: fn(&str) -> Option<T>) -> Result<T, String> {
    let value = text(row, i)?;
    parse(&value).ok_or_else(|| format!("unknown {what} `{value}`"))
}

fn first_text(row: &Row<'_>) -> String {
    row.get::<_, String>(0).unwrap_or_else(|_| "?".to_owned())
}

/// The map's regions and roads, in the map file's order.
fn read_map(reader: &Reader<'_>) -> Result<(Vec<Region>, Vec<Road>), StoreError> {
    let regions = reader.rows(
        "regions",
        "SELECT id, name, terrain, x, y, features, shape FROM regions ORDER BY ord",
        first_text,
        |row| {
            let features = text(row, 5)?
                .split_whitespace()
                .map(|f| Feature::parse(f).ok_or_else(|| format!("unknown feature `{f}`")))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Region {
                id: RegionId::new(text(row, 0)?),
                name: text(row, 1)?,
                terrain: word(row, 2, "terrain", Terrain::parse)?,
                x: number(row, 3)?,
                y: number(row, 4)?,
                features,
                shape: opt_text(row, 6)?
                    .map(|json| serde_json::from_str(&json).map_err(|e| format!("shape: {e}")))
                    .transpose()?
                    .unwrap_or_default(),
            })
        },
    )?;
    let roads = reader.rows(
        "roads",
        "SELECT from_region, to_region, kind, miles, river, name, ord FROM roads ORDER BY ord",
        |row| {
            row.get::<_, i64>(6)
                .map_or_else(|_| "?".to_owned(), |o| o.to_string())
        },
        |row| {
            Ok(Road {
                from: RegionId::new(text(row, 0)?),
                to: RegionId::new(text(row, 1)?),
                kind: word(row, 2, "road kind", RoadKind::parse)?,
                miles: number(row, 3)?,
                river: match opt_text(row, 4)? {
                    None => None,
                    Some(r) => Some(
                        RiverCrossing::parse(&r).ok_or_else(|| format!("unknown river crossing `{r}`"))?,
                    ),
                },
                name: opt_text(row, 5)?,
            })
        },
    )?;
    Ok((regions, roads))
}

/// The map's regions and roads, as kept.
pub(super) type MapRows = (Vec<Region>, Vec<Road>);

/// The map's regions and roads alone. They are written once, when the save
/// is made, so any connection reads the same map.
pub(super) fn read_map_rows(conn: &Connection, path: &Path) -> Result<MapRows, StoreError> {
    read_map(&Reader { conn, path })
}

pub(super) fn read_campaign(conn: &Connection, path: &Path) -> Result<Campaign, StoreError> {
    read_campaign_with(conn, path, || read_map_rows(conn, path))
}

/// The campaign, its map's regions and roads from `map` (called once,
/// after everything else is read: it may be waiting on another thread).
pub(super) fn read_campaign_with(
    conn: &Connection,
    path: &Path,
    map: impl FnOnce() -> Result<MapRows, StoreError>,
) -> Result<Campaign, StoreError> {
    let reader = Reader { conn, path };
    let sides = reader.rows(
        "sides",
        "SELECT id, name, colour, army FROM sides ORDER BY ord",
        first_text,
        |row| {
            Ok(Side {
                id: SideId::new(text(row, 0)?),
                name: text(row, 1)?,
                colour: word(row, 2, "colour", Colour::parse)?,
                army: word(row, 3, "army kind", ArmyKind::parse)?,
            })
        },
    )?;
    let hqs = reader.rows(
        "hqs",
        "SELECT side, wing, region, name, held_by, captured_turn FROM hqs ORDER BY ord",
        |row| {
            format!(
                "{} {}",
                first_text(row),
                row.get::<_, String>(1).unwrap_or_default()
            )
        },
        |row| {
            Ok(Hq {
                side: SideId::new(text(row, 0)?),
                wing: word(row, 1, "wing", Wing::parse)?,
                region: RegionId::new(text(row, 2)?),
                name: opt_text(row, 3)?,
                held_by: SideId::new(text(row, 4)?),
                captured_turn: number(row, 5)?,
            })
        },
    )?;
    let mut forces = reader.rows(
        "forces",
        "SELECT id, name, side, region, en_route_to, en_route_miles, standing_order, forced_in_row, must_rest,
                supply_cut_moves, supply_next_loss, fallen_out FROM forces ORDER BY ord",
        first_text,
        |row| {
            Ok(Force {
                id: ForceId::new(text(row, 0)?),
                name: text(row, 1)?,
                side: SideId::new(text(row, 2)?),
                region: RegionId::new(text(row, 3)?),
                stands: Vec::new(),
                en_route: opt_text(row, 4)?
                    .map(|toward| Ok::<_, String>(EnRoute { toward: RegionId::new(toward), miles: number(row, 5)? }))
                    .transpose()?,
                order: from_json(row, 6, "standing_order")?,
                fatigue: Fatigue { forced_in_row: number(row, 7)?, must_rest: number(row, 8)? },
                supply: Supply {
                    cut_moves: number(row, 9)?,
                    next_loss: opt_text(row, 10)?
                        .map(|a| Arm::parse(&a).ok_or_else(|| format!("unknown arm `{a}`")))
                        .transpose()?,
                },
                fallen_out: opt_text(row, 11)?
                    .map(|json| serde_json::from_str(&json).map_err(|e| format!("fallen_out: {e}")))
                    .transpose()?
                    .unwrap_or_default(),
            })
        },
    )?;
    let stands = reader.rows(
        "stands",
        "SELECT force, id, name, kind, quality, strength, full FROM stands ORDER BY force, ord",
        |row| {
            row.get::<_, i64>(1)
                .map_or_else(|_| "?".to_owned(), |id| id.to_string())
        },
        |row| {
            let stand = Stand {
                id: StandId(number(row, 1)?),
                name: text(row, 2)?,
                kind: word(row, 3, "stand kind", StandKind::parse)?,
                quality: word(row, 4, "quality", Quality::parse)?,
                strength: number(row, 5)?,
                full: number(row, 6)?,
            };
            Ok((ForceId::new(text(row, 0)?), stand))
        },
    )?;
    let force_at: std::collections::HashMap<ForceId, usize> = forces
        .iter()
        .enumerate()
        .map(|(i, f)| (f.id.clone(), i))
        .collect();
    for (force, stand) in stands {
        if let Some(f) = force_at.get(&force).and_then(|&i| forces.get_mut(i)) {
            f.stands.push(stand);
        }
    }
    let battles = reader.rows(
        "battles",
        "SELECT id, turn, region, attacker, defender, forces, reserves, status, came_from, record
         FROM battles ORDER BY id",
        |row| {
            row.get::<_, i64>(0)
                .map_or_else(|_| "?".to_owned(), |id| id.to_string())
        },
        |row| {
            Ok(Battle {
                id: number(row, 0)?,
                turn: number(row, 1)?,
                region: RegionId::new(text(row, 2)?),
                attacker: SideId::new(text(row, 3)?),
                defender: SideId::new(text(row, 4)?),
                forces: from_json(row, 5, "forces")?,
                reserves: from_json(row, 6, "reserves")?,
                status: serde_json::from_value(serde_json::Value::String(text(row, 7)?))
                    .map_err(|e| format!("status: {e}"))?,
                came_from: from_json(row, 8, "came_from")?,
                record: from_json(row, 9, "record")?,
            })
        },
    )?;
    let sightings = reader.rows(
        "knowledge",
        "SELECT by_side, marker, force, side, turn, region, en_route_to, en_route_miles, in_sight,
                seen_name, seen_points, seen_stands, how
         FROM knowledge ORDER BY rowid",
        |row| {
            format!(
                "{} {}",
                first_text(row),
                row.get::<_, i64>(1)
                    .map_or_else(|_| "?".to_owned(), |m| m.to_string())
            )
        },
        |row| {
            Ok(Sighting {
                by: SideId::new(text(row, 0)?),
                marker: number(row, 1)?,
                force: ForceId::new(text(row, 2)?),
                side: SideId::new(text(row, 3)?),
                turn: number(row, 4)?,
                region: RegionId::new(text(row, 5)?),
                en_route: opt_text(row, 6)?
                    .map(|toward| {
                        Ok::<_, String>(EnRoute {
                            toward: RegionId::new(toward),
                            miles: number(row, 7)?,
                        })
                    })
                    .transpose()?,
                in_sight: number(row, 8)?,
                seen: match opt_text(row, 9)? {
                    None => Seen::Blind,
                    Some(name) => Seen::Full {
                        name,
                        points: count(row, 10)?,
                        stands: count(row, 11)?,
                    },
                },
                how: word(row, 12, "way of seeing", How::parse)?,
            })
        },
    )?;
    let markers = reader.rows(
        "knowledge_markers",
        "SELECT side, last FROM knowledge_markers ORDER BY rowid",
        first_text,
        |row| {
            Ok(MarkerCount {
                side: SideId::new(text(row, 0)?),
                last: number(row, 1)?,
            })
        },
    )?;
    let mut campaign = reader.rows(
        "campaign",
        "SELECT title, description, turn, start_turn, start_date, days_per_turn, rules, rng_seed, rng_word_pos,
                map_name, map_description, miles_per_inch, map_background, transport, arrivals, house_rules, campaign_end, map_waters FROM campaign WHERE id = 1",
        |_| "1".to_owned(),
        |row| {
            Ok(Campaign {
                title: text(row, 0)?,
                description: opt_text(row, 1)?,
                turn: number(row, 2)?,
                start_turn: number(row, 3)?,
                start_date: word(row, 4, "date", Date::parse)?,
                days_per_turn: number(row, 5)?,
                rules: word(row, 6, "rule set", RuleSetId::parse)?,
                rng: RngState {
                    seed: text(row, 7)?.parse().map_err(|e| format!("rng_seed: {e}"))?,
                    word_pos: text(row, 8)?.parse().map_err(|e| format!("rng_word_pos: {e}"))?,
                },
                map: Map {
                    name: text(row, 9)?,
                    description: opt_text(row, 10)?,
                    regions: Vec::new(),
                    roads: Vec::new(),
                    background: opt_text(row, 12)?
                        .map(|json| serde_json::from_str(&json).map_err(|e| format!("map_background: {e}")))
                        .transpose()?,
                    waters: opt_text(row, 17)?
                        .map(|json| serde_json::from_str(&json).map_err(|e| format!("map_waters: {e}")))
                        .transpose()?
                        .unwrap_or_default(),
                },
                miles_per_inch: number(row, 11)?,
                transport: opt_text(row, 13)?
                    .map(|json| serde_json::from_str(&json).map_err(|e| format!("transport: {e}")))
                    .transpose()?
                    .unwrap_or_default(),
                sides: Vec::new(),
                hqs: Vec::new(),
                forces: Vec::new(),
                battles: Vec::new(),
                knowledge: Default::default(),
                reinforcements: Vec::new(),
                replacements: Vec::new(),
                house_rules: opt_text(row, 15)?
                    .map(|json| serde_json::from_str(&json).map_err(|e| format!("house_rules: {e}")))
                    .transpose()?
                    .unwrap_or_default(),
                end: opt_text(row, 16)?
                    .map(|json| serde_json::from_str(&json).map_err(|e| format!("campaign_end: {e}")))
                    .transpose()?
                    .unwrap_or_default(),
            })
            .and_then(|mut campaign| {
                if let Some(json) = opt_text(row, 14)? {
                    let arrivals: Arrivals =
                        serde_json::from_str(&json).map_err(|e| format!("arrivals: {e}"))?;
                    campaign.reinforcements = arrivals.reinforcements;
                    campaign.replacements = arrivals.replacements;
                }
                Ok(campaign)
            })
        },
    )?;
    let Some(mut campaign) = campaign.pop() else {
        return Err(StoreError::NotACampaign {
            path: path_text(path),
            reason: "it holds no campaign".to_owned(),
        });
    };
    let (regions, roads) = map()?;
    campaign.map.regions = regions;
    campaign.map.roads = roads;
    campaign.sides = sides;
    campaign.hqs = hqs;
    campaign.forces = forces;
    campaign.battles = battles;
    campaign.knowledge = Knowledge { sightings, markers };
    Ok(campaign)
}

pub(super) fn read_events(conn: &Connection, path: &Path) -> Result<Vec<Event>, StoreError> {
    read_events_from(conn, path, 0)
}

/// The events after the first `skip`, oldest first. The log is append-only,
/// so the first `skip` are the ones a reader already has. The starting state
/// in `campaign_created` is given back whole, its map's regions and roads read
/// from their tables (`created_state`).
pub(super) fn read_events_from(
    conn: &Connection,
    path: &Path,
    skip: usize,
) -> Result<Vec<Event>, StoreError> {
    let mut events = read_rows_of_events(conn, path, skip)?;
    for event in &mut events {
        let EventKind::CampaignCreated(start) = &mut event.kind else {
            continue;
        };
        let Some(map) = start.get_mut("map").and_then(serde_json::Value::as_object_mut) else {
            continue;
        };
        let kept = |key: &str| {
            map.get(key)
                .and_then(serde_json::Value::as_array)
                .is_some_and(|a| !a.is_empty())
        };
        if kept("regions") || kept("roads") {
            continue;
        }
        let (regions, roads) = read_map(&Reader { conn, path })?;
        let json = |value: serde_json::Result<serde_json::Value>| value.unwrap_or(serde_json::Value::Null);
        map.insert("regions".to_owned(), json(serde_json::to_value(regions)));
        map.insert("roads".to_owned(), json(serde_json::to_value(roads)));
    }
    Ok(events)
}

/// The events after the first `skip`, as the log tells them: the events a
/// change keeps together (`change_events`, schema 8) each in its place,
/// before the checkpoint that closes the change.
fn read_rows_of_events(conn: &Connection, path: &Path, skip: usize) -> Result<Vec<Event>, StoreError> {
    let name = path_text(path);
    let sqlite = |source| StoreError::Sqlite {
        path: name.clone(),
        action: "reading the save",
        source,
    };
    // The first row holding an event after `skip`, and how many of its events come before it.
    let (from_rowid, mut drop) = if skip == 0 {
        (i64::MIN, 0)
    } else {
        let mut statement = conn
            .prepare(
                "SELECT e.rowid, COALESCE(c.count, 0) FROM events AS e
                 LEFT JOIN change_events AS c ON c.turn = e.turn AND c.seq = e.seq ORDER BY e.rowid",
            )
            .map_err(sqlite)?;
        let mut rows = statement.query([]).map_err(sqlite)?;
        let mut before = 0usize;
        let mut found = None;
        while let Some(row) = rows.next().map_err(sqlite)? {
            let (rowid, kept): (i64, u32) = (row.get(0).map_err(sqlite)?, row.get(1).map_err(sqlite)?);
            let kept = usize::try_from(kept).unwrap_or(usize::MAX);
            let here = kept.saturating_add(1);
            if before.saturating_add(here) > skip {
                found = Some((rowid, skip - before));
                break;
            }
            before = before.saturating_add(here);
        }
        match found {
            Some(found) => found,
            None => return Ok(Vec::new()),
        }
    };
    let rows = Reader { conn, path }.rows(
        "events",
        &format!(
            "SELECT e.turn, e.seq, e.kind, e.payload, e.sentence, c.count, c.events FROM events AS e
             LEFT JOIN change_events AS c ON c.turn = e.turn AND c.seq = e.seq
             WHERE e.rowid >= {from_rowid} ORDER BY e.rowid"
        ),
        |row| {
            format!(
                "{}/{}",
                row.get::<_, i64>(0).unwrap_or(-1),
                row.get::<_, i64>(1).unwrap_or(-1)
            )
        },
        |row| {
            let event = Event {
                turn: number(row, 0)?,
                seq: number(row, 1)?,
                kind: EventKind::read_text(&text(row, 2)?, &text(row, 3)?)
                    .map_err(|e| format!("kind and payload: {e}"))?,
                sentence: text(row, 4)?,
            };
            let kept = match number::<Option<u32>>(row, 5)? {
                Some(count) => Some((
                    usize::try_from(count).map_err(|e| format!("count: {e}"))?,
                    number::<Vec<u8>>(row, 6)?,
                )),
                None => None,
            };
            Ok((kept, event))
        },
    )?;
    let mut events = Vec::with_capacity(rows.len());
    for (kept, event) in rows {
        if let Some((count, deflated)) = kept {
            let mut change = super::events::read(&name, (event.turn, event.seq), count, &deflated)?;
            let skipped = drop.min(change.len());
            drop -= skipped;
            events.extend(change.drain(skipped..));
        }
        if drop > 0 {
            drop -= 1;
        } else {
            events.push(event);
        }
    }
    Ok(events)
}
