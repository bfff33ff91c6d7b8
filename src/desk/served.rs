//! The desk's operations for `umpire serve`: each a change or a view the
//! server's API gives, on the same core calls as the CLI (`umpire submit`'s
//! orders-file check, `umpire turn`'s programmed orders and game move, undo).
//! The server only wires requests to these.

use super::{DeskError, game_move, give_programmed_orders, still_open};
use crate::model::Diagnostic;
use crate::model::check::Checked;
use crate::model::report::Report;
use crate::model::{BattleStatus, Campaign, Event, SideId};
use crate::store::{Keyed, Revision, Store, StoreError, Undone};
use crate::strategy::{self, Action, OrderRequest, OrderSet, TurnOutcome};
use std::path::Path;

/// Why an order upload or a game move was not taken. Nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum ServedError {
    #[error(transparent)]
    Desk(#[from] DeskError),
    /// The orders file has errors: each with its line and column.
    #[error("the orders have {} problem(s): no orders were taken", .0.len())]
    Problems(Vec<Diagnostic>),
    /// The side's view changed after the revision the orders were given from.
    #[error("{0}")]
    Stale(String),
    /// Battles are pending: the game move would leave them unfought.
    #[error("{0}")]
    PendingBattles(String),
}

impl From<StoreError> for ServedError {
    fn from(e: StoreError) -> ServedError {
        ServedError::Desk(DeskError::Store(e))
    }
}

/// A side's report and its page, from the campaign and its log. `None` when
/// the campaign has no such side.
pub fn side_report(campaign: &Campaign, log: &[Event], side: &SideId) -> Option<Report> {
    Report::of(campaign, side, log)
}

/// A side's report page (`export::report_page`, as `umpire report SAVE SIDE
/// OUT.html` writes it).
pub fn side_report_page(campaign: &Campaign, log: &[Event], side: &SideId) -> Option<String> {
    super::report_text(campaign, log, side, Path::new("report.html")).map(|(_, page)| page)
}

/// A side's orders page (`export::orders_page`): its report's map and forces
/// with a form for each, prefilled with the orders it gave for this game
/// move; `urls` are the page's own addresses on the server, `token` the
/// side's (the page sends it back with the orders). `None` when the campaign
/// has no such side.
pub fn side_orders_page(
    store: &Store,
    (campaign, log, at): (&Campaign, &[Event], Revision),
    side: &SideId,
    (orders_url, report_url): (&str, &str),
    token: &str,
    deadline: Option<i64>,
) -> Result<Option<String>, StoreError> {
    let Some(report) = Report::of(campaign, side, log) else {
        return Ok(None);
    };
    let given = side_orders(store, side)?;
    let deadline = deadline.map(deadline_text);
    let form = crate::export::OrdersForm {
        orders_url,
        report_url,
        token,
        revision: at.number(),
        given: given.as_ref().map(|set| set.orders.as_slice()),
        deadline: deadline.as_deref(),
    };
    Ok(Some(crate::export::orders_page(&report, &form)))
}

/// A deadline kept as Unix seconds, for a person: "2026-12-01 20:00 UTC".
pub fn deadline_text(unix: i64) -> String {
    match time::OffsetDateTime::from_unix_timestamp(unix) {
        Ok(t) => format!(
            "{:04}-{:02}-{:02} {:02}:{:02} UTC",
            t.year(),
            u8::from(t.month()),
            t.day(),
            t.hour(),
            t.minute()
        ),
        Err(_) => format!("{unix} seconds after 1970 (UTC)"),
    }
}

/// The side's report page as the server sends it: with a link to its orders
/// page at the top.
pub fn served_report_page(
    campaign: &Campaign,
    log: &[Event],
    side: &SideId,
    orders_link: &str,
) -> Option<String> {
    let page = side_report_page(campaign, log, side)?;
    let link = format!(
        "<p><a href=\"{}\"><b>Give our orders in the browser</b></a></p>\n</header>",
        crate::export::escape(orders_link)
    );
    Some(page.replacen("</header>", &link, 1))
}

/// The umpire's log as `umpire log` prints it, as data: every event but the
/// checkpoints (of game move `only`, if given) with its sentence, whether it
/// was taken back, and the programmed commander's reasons with its orders.
pub fn umpire_log(log: &[Event], only: Option<u32>) -> Vec<serde_json::Value> {
    let history = crate::model::History::of(log);
    log.iter()
        .enumerate()
        .filter(|(_, e)| !matches!(e.kind, crate::model::EventKind::Checkpoint(_)))
        .filter(|(_, e)| only.is_none_or(|t| t == e.turn))
        .map(|(i, e)| {
            let reasons: Vec<&str> = match &e.kind {
                crate::model::EventKind::OrdersGiven(given) => given.commander_log(),
                _ => Vec::new(),
            };
            serde_json::json!({
                "turn": e.turn,
                "kind": e.kind.name(),
                "sentence": e.sentence,
                "undone": history.is_undone(i),
                "reasons": reasons,
            })
        })
        .collect()
}

/// The orders `side` has given for the current game move and not yet
/// resolved: the last it gave.
pub fn side_orders(store: &Store, side: &SideId) -> Result<Option<OrderSet>, StoreError> {
    Ok(store
        .pending_orders()?
        .into_iter()
        .rev()
        .find(|o| &o.side == side))
}

/// The sides that have given orders for the current game move.
pub fn sides_with_orders(store: &Store) -> Result<Vec<SideId>, StoreError> {
    let mut sides: Vec<SideId> = Vec::new();
    for set in store.pending_orders()? {
        if !sides.contains(&set.side) {
            sides.push(set.side);
        }
    }
    Ok(sides)
}

/// Whether `side` can act on its view read at revision `given`, the save
/// being at `now` (`campaign` read there): refused as stale when anything it
/// sees changed after `given` (its own orders, a game move, a result, an
/// edit, an undo); other sides' orders do not count.
pub fn check_side_revision(
    store: &Store,
    given: Revision,
    now: Revision,
    side: &SideId,
) -> Result<(), ServedError> {
    if given > now {
        return Err(ServedError::Stale(format!(
            "revision {given} is not one this save has been at (it is at revision {now}); read the orders again and give them from revision {now}"
        )));
    }
    // What changed is not said: the umpire's log would tell a side of
    // enemy moves it never saw; its report says what it may know.
    if given < now && store.changed_for_side(given, side)? {
        return Err(ServedError::Stale(format!(
            "the campaign moved on after revision {given}; it is at revision {now}: read the report and orders again and give them from revision {now}"
        )));
    }
    Ok(())
}

/// An order upload: a side's orders file `text` (what `umpire submit` takes),
/// checked by the same code, and written at `now` (the revision `campaign`
/// was read at) with its idempotency key, the answer made by `answer` from
/// the new revision and the orders. The caller has checked the revision the
/// client gave ([`check_side_revision`]).
pub fn submit_orders_text(
    store: &mut Store,
    (campaign, now): (&Campaign, Revision),
    side: &SideId,
    text: &str,
    source: &str,
    keyed: Option<&Keyed<'_>>,
    answer: impl FnOnce(Revision, &OrderSet) -> String,
) -> Result<(OrderSet, Revision, String), ServedError> {
    still_open(campaign)?;
    let checked: Checked<OrderSet> =
        strategy::read_orders_file(campaign, side, crate::model::check::Source { name: source, text });
    let Some(set) = checked.value else {
        return Err(ServedError::Problems(
            checked
                .diagnostics
                .into_iter()
                .filter(Diagnostic::is_error)
                .collect(),
        ));
    };
    let (revision, answer) = store.submit_orders_keyed(now, &set, source, keyed, |r| answer(r, &set))?;
    Ok((set, revision, answer))
}

/// The pending battles that stop a game move, in words; empty when none.
pub fn pending_battles(campaign: &Campaign) -> Vec<String> {
    strategy::pending_battles_text(campaign, None)
}

/// `umpire turn` for the server: refused while battles are pending unless
/// `with_pending`; the sides the program plays give their orders first; the
/// game move is resolved with the orders waiting. `campaign` is the save's
/// state at `at`.
pub fn resolve_game_move(
    store: &mut Store,
    (campaign, at): (&Campaign, Revision),
    with_pending: bool,
) -> Result<TurnOutcome, ServedError> {
    still_open(campaign)?;
    let pending = pending_battles(campaign);
    if !pending.is_empty() && !with_pending {
        return Err(ServedError::PendingBattles(format!(
            "game move {} was not resolved: {} still pending ({}); fight them first, or resolve with \"with_pending\": true",
            campaign.turn,
            if pending.len() == 1 {
                "1 battle is".to_owned()
            } else {
                format!("{} battles are", pending.len())
            },
            pending.join("; ")
        )));
    }
    let (at, _) = give_programmed_orders(store, (campaign, at))?;
    Ok(game_move(store, (campaign, at))?)
}

/// At the deadline: every side the program does not play that has given no
/// orders holds (a hold order for each of its forces, given as orders from
/// "the deadline"), then the game move is resolved as [`resolve_game_move`]
/// does (pending battles are left pending). `campaign` is the save's state at `at`.
pub fn resolve_at_deadline(
    store: &mut Store,
    (campaign, at): (&Campaign, Revision),
) -> Result<TurnOutcome, ServedError> {
    still_open(campaign)?;
    let given = sides_with_orders(store)?;
    let programmed = store.programmed_sides()?;
    let mut at = at;
    for side in &campaign.sides {
        if given.contains(&side.id) || programmed.contains(&side.id) {
            continue;
        }
        let requests: Vec<OrderRequest> = campaign
            .forces
            .iter()
            .filter(|f| f.side == side.id)
            .map(|f| OrderRequest {
                force: f.id.clone(),
                action: Action::Hold,
                forced: false,
                by: crate::model::Conveyance::Foot,
            })
            .collect();
        let (set, _) = strategy::check_leaving_out(campaign, &side.id, requests);
        at = store.submit_orders_noted(at, &set, "the deadline: no orders, holds", None)?;
    }
    resolve_game_move(store, (campaign, at), true)
}

/// Whether every side the program does not play has given orders (and at
/// least one side is a person's).
pub fn all_orders_given(store: &Store, campaign: &Campaign) -> Result<bool, StoreError> {
    let given = sides_with_orders(store)?;
    let programmed = store.programmed_sides()?;
    let people: Vec<&SideId> = campaign
        .sides
        .iter()
        .map(|s| &s.id)
        .filter(|id| !programmed.contains(id))
        .collect();
    Ok(!people.is_empty() && people.iter().all(|id| given.contains(id)))
}

/// Undoes the last change (orders, a battle's result, a game move, an
/// edit) if the save is still at `at`.
pub fn undo(store: &mut Store, at: Revision) -> Result<Undone, DeskError> {
    Ok(store.undo(at)?)
}

/// Whether `campaign` has a pending battle.
pub fn has_pending_battles(campaign: &Campaign) -> bool {
    campaign.battles.iter().any(|b| b.status == BattleStatus::Pending)
}

/// The campaign as the umpire sees it, for a client of the server: its
/// state, every event, the orders waiting for the game move, the sides the
/// program plays and the server's settings, all read in one transaction.
#[derive(Debug, Clone, PartialEq)]
pub struct UmpireState {
    pub campaign: Campaign,
    pub events: Vec<Event>,
    pub orders: Vec<OrderSet>,
    pub programmed: Vec<SideId>,
    pub settings: crate::store::ServeSettings,
}

/// Reads the [`UmpireState`] and the revision it was read at.
pub fn umpire_state(store: &Store) -> Result<(UmpireState, Revision), StoreError> {
    store.read_at(|s| {
        Ok(UmpireState {
            campaign: s.load()?,
            events: s.events()?,
            orders: s.pending_orders()?,
            programmed: s.programmed_sides()?,
            settings: s.serve_settings()?,
        })
    })
}

/// The umpire sets the server's settings (`PUT .../settings`) if the save is
/// still at `at`, logged with a sentence so another umpire's client is told
/// (its revision moves). The revision after it.
pub fn set_settings(
    store: &mut Store,
    at: Revision,
    settings: crate::store::ServeSettings,
) -> Result<Revision, StoreError> {
    let how = if settings.auto_resolve {
        "the game move is resolved as soon as every side's orders are in"
    } else {
        "the umpire resolves the game move"
    };
    let deadline = settings.deadline.map_or_else(
        || "no deadline".to_owned(),
        |d| format!("deadline {}", deadline_text(d)),
    );
    let sentence = format!("The umpire set the server's settings: {how}; {deadline}.");
    store.change_serve_settings(at, settings, &sentence)
}

/// The umpire sets the campaign's webhook reminders (`None`: off) if the
/// save is still at `at`, as [`Store::set_reminders`]; logged without the
/// webhook's address. The revision after it.
pub fn set_reminders(
    store: &mut Store,
    at: Revision,
    webhook: Option<(&str, u32)>,
    turn: u32,
) -> Result<Revision, StoreError> {
    let sentence = match webhook {
        Some((_, minutes)) => format!(
            "The umpire set the reminders: the club's webhook is called when a game move is resolved and {minutes} minutes before a deadline."
        ),
        None => "The umpire turned the reminders off.".to_owned(),
    };
    store.set_reminders(at, webhook, turn, &sentence)
}
