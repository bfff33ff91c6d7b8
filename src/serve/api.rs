//! The JSON API (docs/api.md): routes, the token check, and each endpoint as
//! a thin shell over a `desk` operation, run on the blocking pool with the
//! save's one connection. Errors answer `{"error": "..."}` with their status.

use super::BODY_LIMIT;
use super::saves::{Open, Saves, Slot};
use super::token::{hash_body, hash_token};
use crate::desk::DeskError;
use crate::desk::served::{self as desk, ServedError};
use crate::model::{Diagnostic, SideId};
use crate::store::{Keyed, Revision, Seat, ServeSettings, Store, StoreError, Undone};
use axum::body::Body;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;

/// An answer that is not a success: its status and sentence, and more fields.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
    more: Option<Value>,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            more: None,
        }
    }

    fn with(mut self, more: Value) -> ApiError {
        self.more = Some(more);
        self
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "error": self.message });
        if let (Some(Value::Object(more)), Value::Object(map)) = (self.more, &mut body) {
            map.extend(more);
        }
        (self.status, Json(body)).into_response()
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        let status = match &e {
            StoreError::Moved { .. }
            | StoreError::NothingToUndo { .. }
            | StoreError::BattleNotPending { .. } => StatusCode::CONFLICT,
            StoreError::NoSuchSide { .. } => StatusCode::NOT_FOUND,
            StoreError::ReadOnly { .. } => StatusCode::FORBIDDEN,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError::new(status, e.to_string())
    }
}

impl From<DeskError> for ApiError {
    fn from(e: DeskError) -> ApiError {
        match e {
            DeskError::Store(e) => e.into(),
            DeskError::Over(e) => ApiError::new(StatusCode::CONFLICT, e.to_string()),
            other => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, other.to_string()),
        }
    }
}

impl From<ServedError> for ApiError {
    fn from(e: ServedError) -> ApiError {
        match e {
            ServedError::Desk(e) => e.into(),
            ServedError::Stale(why) | ServedError::PendingBattles(why) => {
                ApiError::new(StatusCode::CONFLICT, why)
            }
            ServedError::Problems(problems) => ApiError::new(
                StatusCode::BAD_REQUEST,
                format!(
                    "the orders have {}: no orders were taken; fix them and give the orders again",
                    if problems.len() == 1 {
                        "1 problem".to_owned()
                    } else {
                        format!("{} problems", problems.len())
                    }
                ),
            ),
        }
    }
}

type Answer = Result<Response, ApiError>;

pub fn router(saves: Arc<Saves>) -> Router {
    Router::new()
        .route("/api/campaigns/{id}", get(campaign))
        .route("/api/campaigns/{id}/sides/{side}/report", get(report))
        .route(
            "/api/campaigns/{id}/sides/{side}/orders",
            get(orders).put(put_orders),
        )
        .route("/api/campaigns/{id}/resolve", post(resolve))
        .route("/api/campaigns/{id}/undo", post(undo))
        .route("/api/campaigns/{id}/battles", get(battles))
        .route("/api/campaigns/{id}/settings", get(settings).put(put_settings))
        .route("/api/campaigns/{id}/reminders", get(reminders).put(put_reminders))
        .route("/api/campaigns/{id}/battles/{battle}/pack/{file}", get(pack_file))
        .route("/api/campaigns/{id}/battles/{battle}/result", post(post_result))
        .route("/api/campaigns/{id}/edit", post(post_edit))
        .route("/api/campaigns/{id}/log", get(umpire_log))
        .route("/api/campaigns/{id}/state", get(umpire_state))
        .route("/campaigns/{id}/sides/{side}", get(page))
        .route("/campaigns/{id}/sides/{side}/orders", get(orders_page))
        .fallback(not_found)
        .with_state(saves)
}

async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such page: the API is under /api/campaigns/{id}/ (see docs/api.md)",
    )
}

/// What a request may see: one side's view, or everything.
enum Need<'a> {
    Side(&'a SideId),
    Umpire,
}

/// The token of a request: `Authorization: Bearer TOKEN`, or, for the page a
/// browser opens from its link, `?token=TOKEN`.
fn token_of(headers: &HeaderMap, query: Option<&str>) -> Option<String> {
    if let Some(value) = headers.get(header::AUTHORIZATION) {
        let text = value.to_str().ok()?;
        return text.strip_prefix("Bearer ").map(|t| t.trim().to_owned());
    }
    query?
        .split('&')
        .find_map(|pair| pair.strip_prefix("token="))
        .map(str::to_owned)
}

/// Checks the token against the save's kept hashes and what the request needs.
fn admit(store: &Store, token: Option<&str>, need: &Need<'_>) -> Result<Seat, ApiError> {
    let Some(token) = token else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "no token: send `Authorization: Bearer TOKEN` with the token the umpire gave (`umpire serve token`)",
        ));
    };
    let unknown = || {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "the token is not one this campaign knows (mistyped, revoked, or for another campaign): ask the umpire for a new link",
        )
    };
    if token.len() > 128 {
        return Err(unknown());
    }
    let seat = store.token_seat(&hash_token(token))?.ok_or_else(unknown)?;
    match (need, &seat) {
        (_, Seat::Umpire) => Ok(seat),
        (Need::Side(wanted), Seat::Side(own)) if *wanted == own => Ok(seat),
        (Need::Side(_), Seat::Side(_)) => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "this token is for another side: each side's link shows only its own view",
        )),
        (Need::Umpire, Seat::Side(_)) => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "this is the umpire's: a side's token cannot use it",
        )),
    }
}

/// Runs `work` with the save `id` open, on the blocking pool, one request at
/// a time per save.
async fn with_save<T: Send + 'static>(
    saves: &Saves,
    id: &str,
    work: impl FnOnce(&mut Open) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let slot: Arc<Slot> = saves.slot(id).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no campaign of that name on this server: the link's campaign is the save's name without `.umpire`",
        )
    })?;
    tokio::task::spawn_blocking(move || {
        let mut guard = slot.open.lock().map_err(|_| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the save's lock was poisoned by an earlier failure; restart the server",
            )
        })?;
        if guard.is_none() {
            *guard = Some(Open::new(Store::open(&slot.path)?));
        }
        match guard.as_mut() {
            Some(open) => work(open),
            None => Err(ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the save could not be opened",
            )),
        }
    })
    .await
    .map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the request failed: {e}"),
        )
    })?
}

/// Reads the body, at most [`BODY_LIMIT`] bytes, and parses it as JSON.
async fn json_body<T: serde::de::DeserializeOwned>(
    body: Body,
    shape: &str,
) -> Result<(T, Vec<u8>), ApiError> {
    let bytes = axum::body::to_bytes(body, BODY_LIMIT).await.map_err(|_| {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request body is larger than {} KB, the most this server takes",
                BODY_LIMIT / 1024
            ),
        )
    })?;
    let value = serde_json::from_slice(&bytes).map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("the body is not the JSON this takes ({e}); send {shape}"),
        )
    })?;
    Ok((value, bytes.to_vec()))
}

fn side_exists(campaign: &crate::model::Campaign, side: &SideId) -> Result<(), ApiError> {
    if campaign.side(side).is_some() {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("this campaign has no side `{side}`"),
        ))
    }
}

fn json_answer(value: Value) -> Answer {
    Ok(Json(value).into_response())
}

/// Each side of the umpire's summary and state: its id and name, whether it
/// has given orders for this game move and whether the program plays it.
fn side_rows(
    sides: &[crate::model::Side],
    given: impl Fn(&crate::model::SideId) -> bool,
    programmed: impl Fn(&crate::model::SideId) -> bool,
) -> Vec<Value> {
    sides
        .iter()
        .map(|s| json!({"id": s.id, "name": s.name, "orders_given": given(&s.id), "programmed": programmed(&s.id)}))
        .collect()
}

/// GET /api/campaigns/{id}: the umpire's summary.
async fn campaign(State(saves): State<Arc<Saves>>, Path(id): Path<String>, headers: HeaderMap) -> Answer {
    let token = token_of(&headers, None);
    let id2 = id.clone();
    with_save(&saves, &id, move |open| {
        admit(&open.store, token.as_deref(), &Need::Umpire)?;
        let (campaign, at) = open.campaign()?;
        let given = desk::sides_with_orders(&open.store)?;
        let programmed = open.store.programmed_sides()?;
        let settings = open.store.serve_settings()?;
        let sides = side_rows(&campaign.sides, |s| given.contains(s), |s| programmed.contains(s));
        json_answer(json!({
            "id": id2,
            "title": campaign.title,
            "revision": at.number(),
            "turn": campaign.turn,
            "ended": campaign.end.ended.is_some(),
            "sides": sides,
            "pending_battles": desk::pending_battles(&campaign),
            "settings": settings,
        }))
    })
    .await
}

/// GET /api/campaigns/{id}/state: the whole campaign as the umpire sees it
/// (the window's umpire's view from a server), read in one transaction.
async fn umpire_state(State(saves): State<Arc<Saves>>, Path(id): Path<String>, headers: HeaderMap) -> Answer {
    let token = token_of(&headers, None);
    let id2 = id.clone();
    with_save(&saves, &id, move |open| {
        admit(&open.store, token.as_deref(), &Need::Umpire)?;
        let (state, at) = desk::umpire_state(&open.store)?;
        let campaign = &state.campaign;
        let sides = side_rows(
            &campaign.sides,
            |s| state.orders.iter().any(|o| o.side == *s),
            |s| state.programmed.contains(s),
        );
        json_answer(json!({
            "id": id2,
            "revision": at.number(),
            "turn": campaign.turn,
            "ended": campaign.end.ended.is_some(),
            "sides": sides,
            "pending_battles": desk::pending_battles(campaign),
            "settings": state.settings,
            "orders": state.orders,
            "events": state.events,
            "campaign": campaign,
        }))
    })
    .await
}

/// GET .../sides/{side}/report: the side's report with the revision.
async fn report(
    State(saves): State<Arc<Saves>>,
    Path((id, side)): Path<(String, String)>,
    headers: HeaderMap,
) -> Answer {
    let token = token_of(&headers, None);
    with_save(&saves, &id, move |open| {
        let side = SideId::new(side);
        admit(&open.store, token.as_deref(), &Need::Side(&side))?;
        let (campaign, log, at) = open.current()?;
        side_exists(&campaign, &side)?;
        let report = desk::side_report(&campaign, &log, &side)
            .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("no report for side `{side}`")))?;
        json_answer(json!({ "revision": at.number(), "report": report }))
    })
    .await
}

/// GET /campaigns/{id}/sides/{side}: the side's report page, live.
async fn page(
    State(saves): State<Arc<Saves>>,
    Path((id, side)): Path<(String, String)>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Answer {
    let token = token_of(&headers, query.as_deref());
    let name = id.clone();
    with_save(&saves, &id, move |open| {
        let side = SideId::new(side);
        admit(&open.store, token.as_deref(), &Need::Side(&side))?;
        let (campaign, log, _) = open.current()?;
        side_exists(&campaign, &side)?;
        let orders = format!(
            "/campaigns/{name}/sides/{side}/orders?token={}",
            token.as_deref().unwrap_or_default()
        );
        let page = desk::served_report_page(&campaign, &log, &side, &orders)
            .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("no report for side `{side}`")))?;
        Ok(html_page(page))
    })
    .await
}

/// An HTML page whose link carries the token: no other site is told it.
fn html_page(page: String) -> Response {
    let mut response = ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response();
    response
        .headers_mut()
        .insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}

/// GET /campaigns/{id}/sides/{side}/orders: the side's orders page, to give
/// its orders in the browser through `PUT .../orders`.
async fn orders_page(
    State(saves): State<Arc<Saves>>,
    Path((id, side)): Path<(String, String)>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Answer {
    let token = token_of(&headers, query.as_deref());
    let name = id.clone();
    with_save(&saves, &id, move |open| {
        let side = SideId::new(side);
        admit(&open.store, token.as_deref(), &Need::Side(&side))?;
        let (campaign, log, at) = open.current()?;
        side_exists(&campaign, &side)?;
        let token = token.unwrap_or_default();
        let orders_url = format!("/api/campaigns/{name}/sides/{side}/orders");
        let report_url = format!("/campaigns/{name}/sides/{side}?token={token}");
        let deadline = open.store.serve_settings()?.deadline;
        let page = desk::side_orders_page(
            &open.store,
            (&campaign, &log, at),
            &side,
            (&orders_url, &report_url),
            &token,
            deadline,
        )?
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("no report for side `{side}`")))?;
        Ok(html_page(page))
    })
    .await
}

/// GET .../sides/{side}/orders: the side's orders for this game move, given or not, and the deadline.
async fn orders(
    State(saves): State<Arc<Saves>>,
    Path((id, side)): Path<(String, String)>,
    headers: HeaderMap,
) -> Answer {
    let token = token_of(&headers, None);
    with_save(&saves, &id, move |open| {
        let side = SideId::new(side);
        admit(&open.store, token.as_deref(), &Need::Side(&side))?;
        let (campaign, at) = open.campaign()?;
        side_exists(&campaign, &side)?;
        let given = desk::side_orders(&open.store, &side)?;
        let settings = open.store.serve_settings()?;
        let file = given
            .as_ref()
            .map(|set| crate::strategy::write_orders_file(&campaign.title, set));
        json_answer(json!({
            "revision": at.number(),
            "turn": campaign.turn,
            "given": given.is_some(),
            "orders": given,
            "orders_file": file,
            "deadline": settings.deadline,
            "auto_resolve": settings.auto_resolve,
        }))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OrdersBody {
    revision: i64,
    orders: String,
}

const ORDERS_SHAPE: &str = "{\"revision\": N, \"orders\": \"the orders file's text\"}";

/// Each problem of an orders file with its place: line, column, the order it
/// is in (from 0, by its `[[orders]]` table) and the field (the key on its line).
fn problems_at(text: &str, problems: &[Diagnostic]) -> Vec<Value> {
    let lines: Vec<&str> = text.lines().collect();
    problems
        .iter()
        .map(|p| {
            let line = p.location.line;
            let upto = lines.iter().take(line.max(1));
            let entry = upto.filter(|l| l.trim() == "[[orders]]").count().checked_sub(1);
            let field = lines
                .get(line.saturating_sub(1))
                .and_then(|l| l.split_once('='))
                .map(|(key, _)| key.trim().to_owned())
                .filter(|k| !k.is_empty() && !k.starts_with('#'));
            json!({
                "line": line,
                "column": p.location.column,
                "order": entry,
                "field": field,
                "message": p.message,
            })
        })
        .collect()
}

/// PUT .../sides/{side}/orders: the side's orders file, checked as `umpire submit` checks it.
async fn put_orders(
    State(saves): State<Arc<Saves>>,
    Path((id, side)): Path<(String, String)>,
    headers: HeaderMap,
    body: Body,
) -> Answer {
    let token = token_of(&headers, None);
    let key = headers
        .get("idempotency-key")
        .map(|v| v.to_str().map(str::to_owned));
    // The token first: a stranger learns nothing of the body's checks.
    let (body, bytes): (Option<OrdersBody>, Vec<u8>) = match json_body::<OrdersBody>(body, ORDERS_SHAPE).await
    {
        Ok((b, bytes)) => (Some(b), bytes),
        Err(e) if e.status == StatusCode::PAYLOAD_TOO_LARGE => return Err(e),
        Err(e) => {
            let token = token.clone();
            let id2 = id.clone();
            let side2 = side.clone();
            with_save(&saves, &id2, move |open| {
                admit(&open.store, token.as_deref(), &Need::Side(&SideId::new(side2)))?;
                Ok(())
            })
            .await?;
            return Err(e);
        }
    };
    let body_hash = hash_body(&bytes);
    let saves2 = Arc::clone(&saves);
    let answer = with_save(&saves, &id, move |open| {
        let side = SideId::new(side);
        let seat = admit(&open.store, token.as_deref(), &Need::Side(&side))?;
        let key = match key {
            Some(Ok(k)) if !k.is_empty() && k.len() <= 200 => k,
            _ => {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "no usable `Idempotency-Key` header: send one (up to 200 characters, new for each upload, the same on a retry)",
                ));
            }
        };
        let Some(body) = body else {
            return Err(ApiError::new(StatusCode::BAD_REQUEST, "no body"));
        };
        if let Some((hash, answer)) = open.store.keyed_answer(&seat, &key)? {
            if hash != body_hash {
                return Err(ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    format!("the Idempotency-Key `{key}` was used for other orders: send a new key with new orders"),
                ));
            }
            return Ok((answer, false));
        }
        let (campaign, now) = open.campaign()?;
        side_exists(&campaign, &side)?;
        let stale = |e: ServedError| ApiError::from(e).with(json!({ "revision": now.number() }));
        desk::check_side_revision(&open.store, Revision::from_number(body.revision), now, &side).map_err(stale)?;
        let keyed = Keyed {
            seat: &seat,
            key: &key,
            body_hash,
        };
        let turn = campaign.turn;
        let result = desk::submit_orders_text(
            &mut open.store,
            (&campaign, now),
            &side,
            &body.orders,
            "the server",
            Some(&keyed),
            |revision, set| {
                json!({
                    "revision": revision.number(),
                    "turn": turn,
                    "summary": set.summary(),
                    "orders": set,
                })
                .to_string()
            },
        );
        match result {
            Ok((_, _, answer)) => Ok((answer, true)),
            Err(ServedError::Problems(problems)) => {
                let at = problems_at(&body.orders, &problems);
                Err(ApiError::from(ServedError::Problems(problems)).with(json!({ "problems": at })))
            }
            // Written over by another hand in the meantime: said without
            // the umpire's list of changes, which is not the side's to read.
            Err(ServedError::Desk(DeskError::Store(StoreError::Moved { .. }))) => {
                let at = open.store.revision_now()?;
                Err(ApiError::new(
                    StatusCode::CONFLICT,
                    format!(
                        "the campaign moved on while the orders were written; it is at revision {at}: read the report and orders again and give them from revision {at}"
                    ),
                )
                .with(json!({ "revision": at.number() })))
            }
            Err(e) => Err(stale(e)),
        }
    })
    .await?;
    let (answer, applied) = answer;
    if applied {
        auto_resolve(&saves2, &id).await;
    }
    Ok(([(header::CONTENT_TYPE, "application/json")], answer).into_response())
}

/// Resolves the game move when the campaign's setting says so and every side
/// a person plays has given orders (and no battle is pending).
async fn auto_resolve(saves: &Saves, id: &str) {
    let outcome = with_save(saves, id, |open| {
        if !open.store.serve_settings()?.auto_resolve {
            return Ok(());
        }
        let (campaign, at) = open.campaign()?;
        if campaign.end.ended.is_some()
            || desk::has_pending_battles(&campaign)
            || !desk::all_orders_given(&open.store, &campaign)?
        {
            return Ok(());
        }
        desk::resolve_game_move(&mut open.store, (&campaign, at), false)?;
        Ok(())
    })
    .await;
    if let Err(e) = outcome {
        eprintln!(
            "{id}: the game move was not resolved when all orders were in: {}",
            e.message
        );
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResolveBody {
    revision: i64,
    #[serde(default)]
    with_pending: bool,
}

/// Checks the umpire's revision: the save must be exactly there.
fn exactly_at(store: &Store, given: i64, now: Revision) -> Result<Revision, ApiError> {
    let given = Revision::from_number(given);
    if given == now {
        return Ok(now);
    }
    let changes = if given < now {
        store.changes_since(given)?
    } else {
        "that revision is not one this save has been at".to_owned()
    };
    Err(ApiError::new(
        StatusCode::CONFLICT,
        format!("the campaign moved on after revision {given} ({changes}); it is at revision {now}: read it again and decide from there"),
    )
    .with(json!({ "revision": now.number() })))
}

/// A body of an umpire's write: it names the revision the umpire decided from.
trait Revised {
    fn revision(&self) -> i64;
}

macro_rules! revised {
    ($($body:ty),*) => {
        $(impl Revised for $body {
            fn revision(&self) -> i64 {
                self.revision
            }
        })*
    };
}

revised!(
    ResolveBody,
    RevisionBody,
    ResultBody,
    EditBody,
    SettingsBody,
    RemindersBody
);

/// An umpire's write to campaign `id`: reads the body (`shape` says what is
/// wanted when it is bad), admits only the umpire's token, and checks the
/// body's revision against the save's (409 else); `work` gets the save, the
/// body, the campaign and the revision, the only one it may write at.
async fn umpire_write<B: serde::de::DeserializeOwned + Revised + Send + 'static>(
    saves: &Saves,
    id: &str,
    headers: &HeaderMap,
    body: Body,
    shape: &str,
    work: impl FnOnce(&mut Open, B, Arc<crate::model::Campaign>, Revision) -> Answer + Send + 'static,
) -> Answer {
    let token = token_of(headers, None);
    let parsed = json_body::<B>(body, shape).await;
    with_save(saves, id, move |open| {
        admit(&open.store, token.as_deref(), &Need::Umpire)?;
        let (body, _) = parsed?;
        let (campaign, now) = open.campaign()?;
        let at = exactly_at(&open.store, body.revision(), now)?;
        work(open, body, campaign, at)
    })
    .await
}

/// POST /api/campaigns/{id}/resolve: the game move, as `umpire turn` resolves it.
async fn resolve(
    State(saves): State<Arc<Saves>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Answer {
    let shape = "{\"revision\": N, \"with_pending\": false}";
    umpire_write(
        &saves,
        &id,
        &headers,
        body,
        shape,
        |open, body: ResolveBody, campaign, at| {
            let outcome = desk::resolve_game_move(&mut open.store, (&campaign, at), body.with_pending)?;
            let revision = open.store.revision_now()?;
            json_answer(json!({
                "revision": revision.number(),
                "turn": campaign.turn,
                "next_turn": outcome.campaign.turn,
                "events": outcome.events,
            }))
        },
    )
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RevisionBody {
    revision: i64,
}

/// POST /api/campaigns/{id}/undo: takes back the last change.
async fn undo(
    State(saves): State<Arc<Saves>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Answer {
    umpire_write(
        &saves,
        &id,
        &headers,
        body,
        "{\"revision\": N}",
        |open, _: RevisionBody, _, at| {
            let undone = desk::undo(&mut open.store, at)?;
            let what = match undone {
                Undone::Orders { side, turn, source } => {
                    json!({ "undone": "orders", "side": side, "turn": turn, "source": source })
                }
                Undone::Turn { turn } => json!({ "undone": "game_move", "turn": turn }),
                Undone::Battle { battle, turn } => {
                    json!({ "undone": "battle_result", "battle": battle, "turn": turn })
                }
                Undone::Edit { turn } => json!({ "undone": "edit", "turn": turn }),
            };
            let revision = open.store.revision_now()?;
            let mut answer = what;
            if let Value::Object(map) = &mut answer {
                map.insert("revision".to_owned(), json!(revision.number()));
            }
            json_answer(answer)
        },
    )
    .await
}

/// GET /api/campaigns/{id}/battles: every battle with its status.
async fn battles(State(saves): State<Arc<Saves>>, Path(id): Path<String>, headers: HeaderMap) -> Answer {
    let token = token_of(&headers, None);
    with_save(&saves, &id, move |open| {
        admit(&open.store, token.as_deref(), &Need::Umpire)?;
        let (campaign, at) = open.campaign()?;
        let list: Vec<Value> = campaign
            .battles
            .iter()
            .map(|b| {
                json!({
                    "id": b.id,
                    "turn": b.turn,
                    "region": b.region,
                    "region_name": campaign.map.region_name(&b.region),
                    "attacker": b.attacker,
                    "defender": b.defender,
                    "forces": b.forces,
                    "reserves": b.reserves,
                    "status": b.status,
                    "pack_written": b.record.pack.is_some(),
                    "odds": b.record.prediction,
                })
            })
            .collect();
        json_answer(json!({ "revision": at.number(), "battles": list }))
    })
    .await
}

/// GET /api/campaigns/{id}/battles/{battle}/pack/{file}: one file of the
/// battle's pack (`desk::PACK_FILES`, as `umpire scenario` writes them),
/// made now from the campaign as it stands; `?paper=letter` for US Letter.
async fn pack_file(
    State(saves): State<Arc<Saves>>,
    Path((id, battle, file)): Path<(String, u32, String)>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Answer {
    let token = token_of(&headers, None);
    let letter = query
        .as_deref()
        .is_some_and(|q| q.split('&').any(|p| p == "paper=letter"));
    with_save(&saves, &id, move |open| {
        admit(&open.store, token.as_deref(), &Need::Umpire)?;
        let Some(name) = crate::desk::PACK_FILES.iter().find(|n| **n == file) else {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                format!(
                    "a battle pack has no file `{file}`: ask for one of {}",
                    crate::desk::PACK_FILES.join(", ")
                ),
            ));
        };
        let (campaign, _, _) = open.current()?;
        let paper = if letter {
            crate::handoff::tiles::Paper::Letter
        } else {
            crate::handoff::tiles::Paper::A4
        };
        let (_, files) = crate::desk::pack_files(&campaign, battle, None, paper).map_err(battle_error)?;
        let bytes = files
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, bytes)| bytes)
            .unwrap_or_default();
        let kind = match *name {
            "scenario.json" => "application/json",
            "table.png" => "image/png",
            "pack.pdf" => "application/pdf",
            _ => "text/plain; charset=utf-8",
        };
        let disposition = format!("attachment; filename=\"battle{battle}-{name}\"");
        let mut response = ([(header::CONTENT_TYPE, kind)], bytes).into_response();
        if let Ok(value) = HeaderValue::from_str(&disposition) {
            response.headers_mut().insert(header::CONTENT_DISPOSITION, value);
        }
        Ok(response)
    })
    .await
}

/// A desk error about a battle: one not pending (fought, called off or
/// unknown) is the client's, 409 or 404; the rest as any desk error.
fn battle_error(e: DeskError) -> ApiError {
    match e {
        DeskError::Handoff(h) => {
            let status = match h {
                crate::handoff::HandoffError::NoSuchBattle { .. } => StatusCode::NOT_FOUND,
                _ => StatusCode::CONFLICT,
            };
            ApiError::new(status, h.to_string())
        }
        DeskError::Sheet(problems) => ApiError::new(
            StatusCode::BAD_REQUEST,
            "the results sheet has problems: no result was taken; fix them and send it again",
        )
        .with(json!({ "problems": problems.to_string() })),
        other => other.into(),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultBody {
    revision: i64,
    /// The filled results sheet (result.toml) of a battle fought on the table.
    #[serde(default)]
    sheet: Option<String>,
    /// Or: the engine fights it, with this seed (the scenario's own if none).
    #[serde(default)]
    engine: bool,
    #[serde(default)]
    seed: Option<u64>,
}

/// POST /api/campaigns/{id}/battles/{battle}/result: a battle's result,
/// from its filled results sheet or fought by the engine, applied to the
/// campaign (revision-checked; `undo` takes it back).
async fn post_result(
    State(saves): State<Arc<Saves>>,
    Path((id, battle)): Path<(String, u32)>,
    headers: HeaderMap,
    body: Body,
) -> Answer {
    let shape =
        "{\"revision\": N, \"sheet\": \"the filled result.toml\"} or {\"revision\": N, \"engine\": true}";
    umpire_write(
        &saves,
        &id,
        &headers,
        body,
        shape,
        move |open, body: ResultBody, campaign, at| {
            let applied = match (&body.sheet, body.engine) {
                (Some(sheet), false) => crate::desk::enter_result_text(
                    &mut open.store,
                    (&campaign, at),
                    battle,
                    sheet,
                    "result.toml",
                ),
                (None, true) => {
                    crate::desk::resolve(&mut open.store, (&campaign, at), battle, None, body.seed)
                }
                _ => {
                    return Err(ApiError::new(
                        StatusCode::BAD_REQUEST,
                        "give either `sheet` (the filled result.toml) or `\"engine\": true`, not both",
                    ));
                }
            }
            .map_err(battle_error)?;
            let revision = open.store.revision_now()?;
            json_answer(json!({
                "revision": revision.number(),
                "battle": applied.battle,
                "verdict": applied.verdict.verdict,
                "events": applied.events.iter().map(|e| e.sentence.clone()).collect::<Vec<_>>(),
            }))
        },
    )
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EditBody {
    revision: i64,
    edit: crate::model::event::Edit,
    reason: String,
}

/// POST /api/campaigns/{id}/edit: the umpire's pencil (`umpire edit`), one
/// change outside the rules with its reason, checked whole; `undo` takes it back.
async fn post_edit(
    State(saves): State<Arc<Saves>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Answer {
    let shape = "{\"revision\": N, \"edit\": {\"edit\": \"ruling\"}, \"reason\": \"why\"}";
    umpire_write(
        &saves,
        &id,
        &headers,
        body,
        shape,
        |open, body: EditBody, campaign, at| {
            if body.reason.trim().is_empty() {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "reason: say why, for the log (the pencil always gives its reason)",
                ));
            }
            let made = crate::desk::edit(&mut open.store, (&campaign, at), &body.edit, body.reason.trim())
                .map_err(|e| match e {
                    DeskError::Edit(e) => ApiError::new(StatusCode::BAD_REQUEST, e.to_string()),
                    other => other.into(),
                })?;
            let revision = open.store.revision_now()?;
            json_answer(json!({
                "revision": revision.number(),
                "events": made.events.iter().map(|e| e.sentence.clone()).collect::<Vec<_>>(),
            }))
        },
    )
    .await
}

/// GET /api/campaigns/{id}/log[?turn=N]: the umpire's log (`umpire log`),
/// with the programmed commander's reasons.
async fn umpire_log(
    State(saves): State<Arc<Saves>>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Answer {
    let token = token_of(&headers, None);
    let only = query
        .as_deref()
        .and_then(|q| q.split('&').find_map(|p| p.strip_prefix("turn=")))
        .map(|t| {
            t.parse::<u32>().map_err(|_| {
                ApiError::new(
                    StatusCode::BAD_REQUEST,
                    format!("turn={t}: not a game move's number"),
                )
            })
        })
        .transpose();
    with_save(&saves, &id, move |open| {
        admit(&open.store, token.as_deref(), &Need::Umpire)?;
        let only = only?;
        let (_, log, at) = open.current()?;
        json_answer(json!({ "revision": at.number(), "events": desk::umpire_log(&log, only) }))
    })
    .await
}

/// GET /api/campaigns/{id}/settings.
async fn settings(State(saves): State<Arc<Saves>>, Path(id): Path<String>, headers: HeaderMap) -> Answer {
    let token = token_of(&headers, None);
    with_save(&saves, &id, move |open| {
        admit(&open.store, token.as_deref(), &Need::Umpire)?;
        let (_, at) = open.campaign()?;
        let settings = open.store.serve_settings()?;
        json_answer(json!({ "revision": at.number(), "auto_resolve": settings.auto_resolve, "deadline": settings.deadline }))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SettingsBody {
    revision: i64,
    auto_resolve: bool,
    deadline: Option<i64>,
}

/// PUT /api/campaigns/{id}/settings.
async fn put_settings(
    State(saves): State<Arc<Saves>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Answer {
    let shape = "{\"revision\": N, \"auto_resolve\": true, \"deadline\": UNIX_SECONDS or null}";
    umpire_write(&saves, &id, &headers, body, shape, |open, body: SettingsBody, _, at| {
        let settings = ServeSettings {
            auto_resolve: body.auto_resolve,
            deadline: body.deadline,
        };
        let now = desk::set_settings(&mut open.store, at, settings)?;
        json_answer(json!({ "revision": now.number(), "auto_resolve": settings.auto_resolve, "deadline": settings.deadline }))
    })
    .await
}

/// The reminders due for the campaign `id` (`remind::due`), each sent to
/// the webhook from a blocking task of its own: a slow or broken webhook
/// holds up no request and no game move; a failure is said in the log.
async fn remind(saves: &Saves, id: &str, now: i64) {
    let name = id.to_owned();
    let due = with_save(saves, id, move |open| {
        let deadline = open.store.serve_settings()?.deadline;
        let (campaign, _, at) = open.current()?;
        Ok(super::remind::due(
            &mut open.store,
            (&campaign, at),
            &name,
            deadline,
            now,
        )?)
    })
    .await;
    match due {
        Ok(Some((url, occasions))) if !occasions.is_empty() => {
            // In order: the game move announced before its deadline's reminder.
            let id = id.to_owned();
            tokio::task::spawn_blocking(move || {
                for occasion in &occasions {
                    if let Err(e) = super::remind::send(&url, occasion) {
                        eprintln!("{id}: a reminder was not sent: {e}");
                    }
                }
            });
        }
        Ok(_) => {}
        Err(e) => eprintln!("{id}: the reminders could not be read: {}", e.message),
    }
}

/// GET /api/campaigns/{id}/reminders: the campaign's webhook, or `null`.
async fn reminders(State(saves): State<Arc<Saves>>, Path(id): Path<String>, headers: HeaderMap) -> Answer {
    let token = token_of(&headers, None);
    with_save(&saves, &id, move |open| {
        admit(&open.store, token.as_deref(), &Need::Umpire)?;
        let (_, _, at) = open.current()?;
        let reminders = open.store.reminders()?;
        json_answer(json!({
            "revision": at.number(),
            "webhook": reminders.as_ref().map(|r| r.webhook.clone()),
            "remind_minutes": reminders.as_ref().map(|r| r.remind_minutes),
        }))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RemindersBody {
    revision: i64,
    webhook: Option<String>,
    #[serde(default = "an_hour")]
    remind_minutes: u32,
}

/// The deadline reminder's default: an hour before.
fn an_hour() -> u32 {
    60
}

/// PUT /api/campaigns/{id}/reminders: sets (or, with `"webhook": null`, clears) the webhook.
async fn put_reminders(
    State(saves): State<Arc<Saves>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Answer {
    let shape = "{\"revision\": N, \"webhook\": \"https://...\" or null, \"remind_minutes\": 60}";
    umpire_write(
        &saves,
        &id,
        &headers,
        body,
        shape,
        |open, body: RemindersBody, campaign, at| {
            if let Some(url) = &body.webhook {
                super::remind::check_webhook(url)
                    .map_err(|why| ApiError::new(StatusCode::BAD_REQUEST, format!("webhook: {why}")))?;
            }
            let webhook = body
                .webhook
                .as_deref()
                .map(|url| (url.trim(), body.remind_minutes));
            let now = desk::set_reminders(&mut open.store, at, webhook, campaign.turn)?;
            json_answer(json!({
                "revision": now.number(),
                "webhook": body.webhook,
                "remind_minutes": body.remind_minutes,
            }))
        },
    )
    .await
}

/// Every few seconds: each save whose deadline has passed has its game move
/// resolved, a side with no orders holding (the deadline cleared first); and
/// each save set to resolve when all orders are in, and with all in, is resolved.
pub async fn deadlines(saves: Arc<Saves>) {
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(2));
    loop {
        tick.tick().await;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        for (id, _) in saves.list() {
            let outcome = with_save(&saves, &id, move |open| {
                let settings = open.store.serve_settings()?;
                if settings.deadline.is_none_or(|d| d > now) {
                    return Ok(false);
                }
                // The deadline is cleared first, in its own transaction: a server
                // killed before the game move is written restarts with the game
                // move unresolved (the umpire resolves it), never resolving the
                // next one at a deadline already spent.
                let (campaign, at) = open.campaign()?;
                let cleared = ServeSettings {
                    deadline: None,
                    ..settings
                };
                open.store.set_serve_settings(at, cleared)?;
                if campaign.end.ended.is_none() {
                    let at = open.store.revision_now()?;
                    if let Err(e) = desk::resolve_at_deadline(&mut open.store, (&campaign, at)) {
                        // Not resolved: the deadline stands, to be tried again.
                        let at = open.store.revision_now()?;
                        open.store.set_serve_settings(at, settings)?;
                        return Err(e.into());
                    }
                }
                Ok(true)
            })
            .await;
            if let Err(e) = outcome {
                eprintln!(
                    "{id}: the deadline passed but the game move was not resolved: {}",
                    e.message
                );
            }
            // Orders given outside an upload (`umpire orders`), or a server
            // stopped between the last upload and its game move: resolved here.
            auto_resolve(&saves, &id).await;
            remind(&saves, &id, now).await;
        }
    }
}
