//! `umpire serve` on a loopback port: every endpoint refused without a
//! token, with another side's, with a revoked one, with a bad or too large
//! body and with a stale revision; a side never shown the enemy's hidden
//! forces; an upload retried applied once; two uploads on one revision, one
//! taken; and the binary killed with SIGKILL while it resolves game moves and
//! takes orders, every save whole after each restart.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;
#[path = "common/load.rs"]
mod load;

use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Barrier};
use umpire::model::SideId;
use umpire::serve::token::new_token;
use umpire::store::{Seat, Store};

const FIXTURE: &str = "tests/fixtures/egypt_1895_move9.umpire";

struct Tokens {
    british: String,
    rebels: String,
    umpire: String,
    revoked: String,
}

/// A folder with the fixture as `egypt.umpire`, and tokens for it.
fn folder(names: &[&str]) -> (tempfile::TempDir, Tokens) {
    let dir = tempfile::tempdir().unwrap();
    let mut tokens = None;
    for name in names {
        let save = dir.path().join(format!("{name}.umpire"));
        std::fs::copy(FIXTURE, &save).unwrap();
        tokens = Some(give_tokens(&save));
    }
    (dir, tokens.unwrap())
}

fn give_tokens(save: &Path) -> Tokens {
    let mut store = Store::open(save).unwrap();
    let mut give = |seat: Seat| {
        let (token, hash) = new_token().unwrap();
        store.add_token(&seat, hash).unwrap();
        token
    };
    let british = give(Seat::Side(SideId::new("british")));
    let rebels = give(Seat::Side(SideId::new("rebels")));
    let umpire = give(Seat::Umpire);
    let revoked = give(Seat::Side(SideId::new("british")));
    // Revoke: take every british token back, then give british a new one.
    store.revoke_tokens(&Seat::Side(SideId::new("british"))).unwrap();
    let british_now = {
        let (token, hash) = new_token().unwrap();
        store
            .add_token(&Seat::Side(SideId::new("british")), hash)
            .unwrap();
        token
    };
    assert_ne!(british, british_now);
    Tokens {
        british: british_now,
        rebels,
        umpire,
        revoked,
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(std::time::Duration::from_secs(30)))
        .build()
        .into()
}

/// PUT a side's orders (`body`: the JSON) with its token and idempotency key.
fn put_orders(
    agent: &ureq::Agent,
    base: &str,
    side: &str,
    token: &str,
    key: Option<&str>,
    body: &str,
) -> (u16, String) {
    call(
        agent,
        "PUT",
        &format!("{base}/sides/{side}/orders"),
        Some(token),
        key,
        Some(body),
    )
}

/// One request: status and body.
fn call(
    agent: &ureq::Agent,
    method: &str,
    url: &str,
    token: Option<&str>,
    key: Option<&str>,
    body: Option<&str>,
) -> (u16, String) {
    let auth = token.map(|t| format!("Bearer {t}"));
    let mut response = match (method, body) {
        ("GET", _) => {
            let mut r = agent.get(url);
            if let Some(a) = &auth {
                r = r.header("Authorization", a);
            }
            r.call()
        }
        (m, body) => {
            let mut r = match m {
                "PUT" => agent.put(url),
                _ => agent.post(url),
            };
            if let Some(a) = &auth {
                r = r.header("Authorization", a);
            }
            if let Some(k) = key {
                r = r.header("Idempotency-Key", k);
            }
            r.header("Content-Type", "application/json")
                .send(body.unwrap_or(""))
        }
    }
    .unwrap_or_else(|e| panic!("{method} {url}: {e}"));
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap_or_default();
    (status, text)
}

fn json_of(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// An orders file for `side` holding `force`, at game move `turn`.
fn hold_orders(side: &str, force: &str, turn: u64) -> String {
    format!(
        "campaign = \"The Egyptian Rebellion of 1895\"\nside = \"{side}\"\nturn = {turn}\n\n[[orders]]\nforce = \"{force}\"\nhold = true\n"
    )
}

fn revision(agent: &ureq::Agent, base: &str, side: &str, token: &str) -> (i64, u64) {
    let (status, text) = call(
        agent,
        "GET",
        &format!("{base}/sides/{side}/orders"),
        Some(token),
        None,
        None,
    );
    assert_eq!(status, 200, "{text}");
    let v = json_of(&text);
    (v["revision"].as_i64().unwrap(), v["turn"].as_u64().unwrap())
}

/// Who may call an endpoint.
#[derive(Clone, Copy, Debug)]
enum Who {
    British,
    Umpire,
}

/// An endpoint: method, URL, who may call it, a good body, a stale body.
type Endpoint = (&'static str, String, Who, Option<String>, Option<String>);

#[test]
fn every_endpoint_refuses_what_it_must() {
    let (dir, tokens) = folder(&["egypt"]);
    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let base = format!("http://{}/api/campaigns/egypt", server.addr);
    let agent = agent();
    let (rev, turn) = revision(&agent, &base, "british", &tokens.british);
    let good_orders =
        json!({ "revision": rev, "orders": hold_orders("british", "highland-brigade", turn) }).to_string();
    let stale_orders =
        json!({ "revision": rev - 1, "orders": hold_orders("british", "highland-brigade", turn) })
            .to_string();
    let pending = Store::open(&dir.path().join("egypt.umpire"))
        .unwrap()
        .load()
        .unwrap()
        .battles
        .iter()
        .find(|b| b.status == umpire::model::BattleStatus::Pending)
        .unwrap()
        .id;
    // Each endpoint: method, path, who may call it, a good body, a stale body.
    let table: Vec<Endpoint> = vec![
        ("GET", base.clone(), Who::Umpire, None, None),
        (
            "GET",
            format!("{base}/sides/british/report"),
            Who::British,
            None,
            None,
        ),
        (
            "GET",
            format!("{base}/sides/british/orders"),
            Who::British,
            None,
            None,
        ),
        (
            "GET",
            format!("http://{}/campaigns/egypt/sides/british", server.addr),
            Who::British,
            None,
            None,
        ),
        ("GET", format!("{base}/battles"), Who::Umpire, None, None),
        ("GET", format!("{base}/settings"), Who::Umpire, None, None),
        (
            "PUT",
            format!("{base}/sides/british/orders"),
            Who::British,
            Some(good_orders.clone()),
            Some(stale_orders),
        ),
        (
            "PUT",
            format!("{base}/settings"),
            Who::Umpire,
            Some(json!({ "revision": rev, "auto_resolve": false, "deadline": null }).to_string()),
            Some(json!({ "revision": rev - 1, "auto_resolve": false, "deadline": null }).to_string()),
        ),
        (
            "POST",
            format!("{base}/undo"),
            Who::Umpire,
            None,
            Some(json!({ "revision": rev - 1 }).to_string()),
        ),
        (
            "POST",
            format!("{base}/resolve"),
            Who::Umpire,
            None,
            Some(json!({ "revision": rev - 1, "with_pending": true }).to_string()),
        ),
        (
            "GET",
            format!("http://{}/campaigns/egypt/sides/british/orders", server.addr),
            Who::British,
            None,
            None,
        ),
        ("GET", format!("{base}/reminders"), Who::Umpire, None, None),
        ("GET", format!("{base}/log"), Who::Umpire, None, None),
        ("GET", format!("{base}/state"), Who::Umpire, None, None),
        (
            "PUT",
            format!("{base}/reminders"),
            Who::Umpire,
            None,
            Some(json!({ "revision": rev - 1, "webhook": null }).to_string()),
        ),
        (
            "GET",
            format!("{base}/battles/{pending}/pack/result.toml"),
            Who::Umpire,
            None,
            None,
        ),
        (
            "POST",
            format!("{base}/battles/{pending}/result"),
            Who::Umpire,
            None,
            Some(json!({ "revision": rev - 1, "engine": true }).to_string()),
        ),
        (
            "POST",
            format!("{base}/edit"),
            Who::Umpire,
            None,
            Some(
                json!({ "revision": rev - 1, "edit": { "edit": "ruling" }, "reason": "a ruling" })
                    .to_string(),
            ),
        ),
    ];
    let oversized = format!(
        "{{\"revision\": {rev}, \"orders\": \"{}\"}}",
        "#".repeat(300 * 1024)
    );
    for (method, url, who, good, stale) in &table {
        let what = format!("{method} {url}");
        let body = good.as_deref().or(stale.as_deref());
        let key = Some("k-refusals");
        let wrong = match who {
            Who::British => &tokens.rebels,
            Who::Umpire => &tokens.british,
        };
        for (token, expected, why) in [
            (None, 401, "no token"),
            (Some("0123"), 401, "an unknown token"),
            (Some(tokens.revoked.as_str()), 401, "a revoked token"),
            (Some(wrong.as_str()), 403, "another side's token"),
        ] {
            let (status, text) = call(&agent, method, url, token, key, body);
            assert_eq!(status, expected, "{what} with {why}: {text}");
            assert!(
                json_of(&text)["error"].as_str().is_some_and(|e| e.len() > 20),
                "{what}: {text}"
            );
        }
        let right = match who {
            Who::British => &tokens.british,
            Who::Umpire => &tokens.umpire,
        };
        if *method == "GET" {
            let (status, text) = call(&agent, method, url, Some(right), None, None);
            assert_eq!(status, 200, "{what}: {text}");
            continue;
        }
        for (body, expected, why) in [
            ("{\"revision\": ", 400, "a malformed body"),
            ("[1, 2]", 400, "a body of the wrong shape"),
            (oversized.as_str(), 413, "an oversized body"),
        ] {
            let (status, text) = call(&agent, method, url, Some(right), key, Some(body));
            assert_eq!(status, expected, "{what} with {why}: {text}");
            assert!(json_of(&text)["error"].is_string(), "{what}: {text}");
        }
        if let Some(stale) = stale {
            let (status, text) = call(&agent, method, url, Some(right), Some("k-stale"), Some(stale));
            assert_eq!(status, 409, "{what} with a stale revision: {text}");
            assert_eq!(json_of(&text)["revision"].as_i64(), Some(rev), "{what}: {text}");
        }
    }
    // Nothing above was written.
    assert_eq!(revision(&agent, &base, "british", &tokens.british).0, rev);
    // An unknown campaign, a path outside the folder, an unknown side.
    for (url, token) in [
        (
            format!("http://{}/api/campaigns/nowhere", server.addr),
            &tokens.umpire,
        ),
        (
            format!("http://{}/api/campaigns/..%2Fegypt", server.addr),
            &tokens.umpire,
        ),
        (
            format!("http://{}/api/campaigns/egypt.umpire", server.addr),
            &tokens.umpire,
        ),
        (format!("{base}/sides/french/report"), &tokens.umpire),
    ] {
        let (status, text) = call(&agent, "GET", &url, Some(token), None, None);
        assert_eq!(status, 404, "{url}: {text}");
    }
}

#[test]
fn a_bad_orders_file_is_refused_with_each_problem_at_its_field() {
    let (dir, tokens) = folder(&["egypt"]);
    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let base = format!("http://{}/api/campaigns/egypt", server.addr);
    let agent = agent();
    let (rev, turn) = revision(&agent, &base, "british", &tokens.british);
    let text = format!(
        "campaign = \"The Egyptian Rebellion of 1895\"\nside = \"british\"\nturn = {turn}\n\n[[orders]]\nforce = \"highland-brigade\"\nhold = true\n\n[[orders]]\nforce = \"cavalry-brigade\"\nto = \"nowhere-at-all\"\n"
    );
    let body = json!({ "revision": rev, "orders": text }).to_string();
    let (status, answer) = put_orders(&agent, &base, "british", &tokens.british, Some("bad-1"), &body);
    assert_eq!(status, 400, "{answer}");
    let v = json_of(&answer);
    let problems = v["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{answer}");
    assert_eq!(problems[0]["line"], 11, "{answer}");
    assert_eq!(problems[0]["order"], 1, "{answer}");
    assert_eq!(problems[0]["field"], "to", "{answer}");
    assert!(
        problems[0]["message"]
            .as_str()
            .unwrap()
            .contains("nowhere-at-all"),
        "{answer}"
    );
    assert_eq!(revision(&agent, &base, "british", &tokens.british).0, rev);
}

#[test]
fn a_side_never_sees_the_enemys_hidden_forces() {
    let (dir, tokens) = folder(&["egypt"]);
    let save = dir.path().join("egypt.umpire");
    let (_, campaign) = Store::open_and_load(&save).unwrap();
    let log = Store::open(&save).unwrap().events().unwrap();
    let british = SideId::new("british");
    let report = umpire::model::report::Report::of(&campaign, &british, &log).unwrap();
    let shown = serde_json::to_string(&report).unwrap();
    let hidden: Vec<&str> = campaign
        .forces
        .iter()
        .filter(|f| f.side.as_str() == "rebels")
        .map(|f| f.id.as_str())
        .filter(|id| !shown.contains(&format!("\"{id}\"")))
        .collect();
    assert!(
        hidden.len() >= 3,
        "the fixture hides rebel forces from the British: {hidden:?}"
    );
    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let base = format!("http://{}/api/campaigns/egypt", server.addr);
    let agent = agent();
    // The rebels give orders naming a hidden force.
    let (rev, turn) = revision(&agent, &base, "rebels", &tokens.rebels);
    let body = json!({ "revision": rev, "orders": hold_orders("rebels", hidden[0], turn) }).to_string();
    let (status, text) = put_orders(&agent, &base, "rebels", &tokens.rebels, Some("r1"), &body);
    assert_eq!(status, 200, "{text}");
    let (status, text) = call(
        &agent,
        "GET",
        &format!("{base}/sides/rebels/orders"),
        Some(&tokens.rebels),
        None,
        None,
    );
    assert!(
        status == 200 && text.contains(hidden[0]),
        "the rebels see their own orders: {text}"
    );
    for url in [
        format!("{base}/sides/british/report"),
        format!("{base}/sides/british/orders"),
        format!("http://{}/campaigns/egypt/sides/british", server.addr),
    ] {
        let (status, text) = call(&agent, "GET", &url, Some(&tokens.british), None, None);
        assert_eq!(status, 200, "{url}: {text}");
        for id in &hidden {
            assert!(!text.contains(id), "{url} shows the hidden rebel force {id}");
        }
    }
    // The page also opens from its link, with the token in the query.
    let (status, text) = call(
        &agent,
        "GET",
        &format!(
            "http://{}/campaigns/egypt/sides/british?token={}",
            server.addr, tokens.british
        ),
        None,
        None,
        None,
    );
    assert!(
        status == 200 && text.contains("<svg"),
        "{status}: {}",
        &text[..text.len().min(300)]
    );
    // A British upload from before the game move is stale, and told so
    // without the umpire's log of what happened (the rebels' marches).
    let (brev, bturn) = revision(&agent, &base, "british", &tokens.british);
    let (_, text) = call(&agent, "GET", &base, Some(&tokens.umpire), None, None);
    let rev = json_of(&text)["revision"].clone();
    let (status, text) = call(
        &agent,
        "POST",
        &format!("{base}/resolve"),
        Some(&tokens.umpire),
        None,
        Some(&json!({ "revision": rev, "with_pending": true }).to_string()),
    );
    assert_eq!(status, 200, "{text}");
    let late = json!({ "revision": brev, "orders": hold_orders("british", "guards-brigade", bturn + 1) })
        .to_string();
    let (status, text) = put_orders(&agent, &base, "british", &tokens.british, Some("late"), &late);
    assert_eq!(status, 409, "{text}");
    assert!(text.contains("read the report and orders again"), "{text}");
    for id in &hidden {
        assert!(
            !text.contains(id),
            "the stale answer names the hidden rebel force {id}: {text}"
        );
    }
    assert!(
        !text.contains("marched"),
        "the stale answer tells of marches: {text}"
    );
}

#[test]
fn a_retried_upload_is_applied_once_and_gets_the_same_answer() {
    let (dir, tokens) = folder(&["egypt"]);
    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let base = format!("http://{}/api/campaigns/egypt", server.addr);
    let agent = agent();
    let url = format!("{base}/sides/british/orders");
    let (rev, turn) = revision(&agent, &base, "british", &tokens.british);
    let body =
        json!({ "revision": rev, "orders": hold_orders("british", "highland-brigade", turn) }).to_string();
    let first = call(
        &agent,
        "PUT",
        &url,
        Some(&tokens.british),
        Some("once"),
        Some(&body),
    );
    assert_eq!(first.0, 200, "{}", first.1);
    let after = revision(&agent, &base, "british", &tokens.british).0;
    assert_eq!(json_of(&first.1)["revision"].as_i64(), Some(after));
    let again = call(
        &agent,
        "PUT",
        &url,
        Some(&tokens.british),
        Some("once"),
        Some(&body),
    );
    assert_eq!(again, first, "a retry gets the same answer");
    assert_eq!(
        revision(&agent, &base, "british", &tokens.british).0,
        after,
        "and changes nothing"
    );
    let given = Store::open(&dir.path().join("egypt.umpire"))
        .unwrap()
        .pending_orders()
        .unwrap();
    assert_eq!(given.iter().filter(|o| o.side.as_str() == "british").count(), 1);
    // The same key with other orders is refused.
    let other =
        json!({ "revision": after, "orders": hold_orders("british", "cavalry-brigade", turn) }).to_string();
    let (status, text) = call(
        &agent,
        "PUT",
        &url,
        Some(&tokens.british),
        Some("once"),
        Some(&other),
    );
    assert_eq!(status, 422, "{text}");
    // Orders may be changed until the game move is resolved: a new key, a new revision.
    let (status, text) = call(
        &agent,
        "PUT",
        &url,
        Some(&tokens.british),
        Some("twice"),
        Some(&other),
    );
    assert_eq!(status, 200, "{text}");
    let (_, text) = call(&agent, "GET", &url, Some(&tokens.british), None, None);
    let v = json_of(&text);
    assert_eq!(v["given"], true);
    assert!(
        v["orders_file"].as_str().unwrap().contains("cavalry-brigade"),
        "{text}"
    );
    // Another side's orders since do not make the British revision stale.
    let (rrev, _) = revision(&agent, &base, "rebels", &tokens.rebels);
    let rebels =
        json!({ "revision": rrev, "orders": hold_orders("rebels", "army-of-asyut", turn) }).to_string();
    let (status, text) = put_orders(&agent, &base, "rebels", &tokens.rebels, Some("r"), &rebels);
    assert_eq!(status, 200, "{text}");
    let brev = json_of(&text)["revision"].as_i64().unwrap() - 1;
    let third =
        json!({ "revision": brev, "orders": hold_orders("british", "guards-brigade", turn) }).to_string();
    let (status, text) = call(
        &agent,
        "PUT",
        &url,
        Some(&tokens.british),
        Some("thrice"),
        Some(&third),
    );
    assert_eq!(status, 200, "{text}");
    // The last upload is the side's orders: the earlier ones are withdrawn,
    // so the cavalry brigade's hold left out of it no longer stands.
    let given = Store::open(&dir.path().join("egypt.umpire"))
        .unwrap()
        .pending_orders()
        .unwrap();
    let british: Vec<_> = given.iter().filter(|o| o.side.as_str() == "british").collect();
    assert_eq!(british.len(), 1, "{given:?}");
    assert_eq!(
        serde_json::to_value(&british[0].orders).unwrap(),
        json!([{"force": "guards-brigade", "order": "hold"}])
    );
    // The umpire sees who has given orders, resolves the game move, and undoes it.
    let (_, text) = call(&agent, "GET", &base, Some(&tokens.umpire), None, None);
    let v = json_of(&text);
    assert!(
        v["sides"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["orders_given"] == true),
        "{text}"
    );
    let rev = v["revision"].as_i64().unwrap();
    let (status, text) = call(
        &agent,
        "POST",
        &format!("{base}/resolve"),
        Some(&tokens.umpire),
        None,
        Some(&json!({ "revision": rev }).to_string()),
    );
    assert_eq!(status, 409, "a pending battle stops the game move: {text}");
    let (status, text) = call(
        &agent,
        "POST",
        &format!("{base}/resolve"),
        Some(&tokens.umpire),
        None,
        Some(&json!({ "revision": rev, "with_pending": true }).to_string()),
    );
    assert_eq!(status, 200, "{text}");
    let v = json_of(&text);
    assert_eq!(v["next_turn"].as_u64(), Some(turn + 1), "{text}");
    let (_, next) = revision(&agent, &base, "british", &tokens.british);
    assert_eq!(next, turn + 1);
    // The game move's keys are forgotten with it: the table does not grow.
    let kept: i64 = rusqlite::Connection::open(dir.path().join("egypt.umpire"))
        .unwrap()
        .query_row("SELECT COUNT(*) FROM serve_requests", [], |r| r.get(0))
        .unwrap();
    assert_eq!(kept, 0);
    let (status, text) = call(
        &agent,
        "PUT",
        &url,
        Some(&tokens.british),
        Some("late"),
        Some(&third),
    );
    assert_eq!(status, 409, "orders for a resolved game move: {text}");
    let (status, text) = call(
        &agent,
        "POST",
        &format!("{base}/undo"),
        Some(&tokens.umpire),
        None,
        Some(&json!({ "revision": v["revision"] }).to_string()),
    );
    assert_eq!(status, 200, "{text}");
    assert_eq!(json_of(&text)["undone"], "game_move", "{text}");
    assert_eq!(revision(&agent, &base, "british", &tokens.british).1, turn);
}

#[test]
fn two_uploads_on_one_revision_one_is_taken_one_is_stale() {
    let (dir, tokens) = folder(&["egypt"]);
    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let base = format!("http://{}/api/campaigns/egypt", server.addr);
    let url = format!("{base}/sides/british/orders");
    let (rev, turn) = revision(&agent(), &base, "british", &tokens.british);
    let barrier = Arc::new(Barrier::new(2));
    let answers: Vec<(u16, String)> = std::thread::scope(|s| {
        let handles: Vec<_> = ["highland-brigade", "cavalry-brigade"]
            .into_iter()
            .enumerate()
            .map(|(i, force)| {
                let barrier = Arc::clone(&barrier);
                let (url, token) = (&url, &tokens.british);
                s.spawn(move || {
                    let agent = agent();
                    let body =
                        json!({ "revision": rev, "orders": hold_orders("british", force, turn) }).to_string();
                    barrier.wait();
                    call(
                        &agent,
                        "PUT",
                        url,
                        Some(token),
                        Some(&format!("k{i}")),
                        Some(&body),
                    )
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut statuses: Vec<u16> = answers.iter().map(|a| a.0).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, vec![200, 409], "{answers:?}");
}

#[test]
fn auto_resolve_when_every_side_has_given_orders() {
    let (dir, tokens) = folder(&["egypt"]);
    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let base = format!("http://{}/api/campaigns/egypt", server.addr);
    let agent = agent();
    // The pending battle first: the umpire fights it, so nothing stops the game move.
    let save = dir.path().join("egypt.umpire");
    {
        let (mut store, campaign, at) = Store::open_and_load_at(&save).unwrap();
        umpire::desk::resolve(&mut store, (&campaign, at), 2, None, Some(1)).unwrap();
    }
    let (rev, turn) = revision(&agent, &base, "british", &tokens.british);
    let (status, text) = call(
        &agent,
        "PUT",
        &format!("{base}/settings"),
        Some(&tokens.umpire),
        None,
        Some(&json!({ "revision": rev, "auto_resolve": true, "deadline": null }).to_string()),
    );
    assert_eq!(status, 200, "{text}");
    for (side, force, token) in [
        ("british", "guards-brigade", &tokens.british),
        ("rebels", "army-of-asyut", &tokens.rebels),
    ] {
        assert_eq!(revision(&agent, &base, side, token).1, turn, "not yet resolved");
        let (rev, _) = revision(&agent, &base, side, token);
        let body = json!({ "revision": rev, "orders": hold_orders(side, force, turn) }).to_string();
        let (status, text) = put_orders(&agent, &base, side, token, Some("a"), &body);
        assert_eq!(status, 200, "{text}");
    }
    assert_eq!(
        revision(&agent, &base, "british", &tokens.british).1,
        turn + 1,
        "resolved when all were in"
    );
}

#[test]
fn two_umpires_changing_settings_at_once_one_is_told() {
    let (dir, tokens) = folder(&["egypt"]);
    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let base = format!("http://{}/api/campaigns/egypt", server.addr);
    let agent = agent();
    let (_, text) = call(&agent, "GET", &base, Some(&tokens.umpire), None, None);
    let rev = json_of(&text)["revision"].as_i64().unwrap();
    let tomorrow = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        + 86_400;
    let put = |what: &str, body: Value| {
        call(
            &agent,
            "PUT",
            &format!("{base}/{what}"),
            Some(&tokens.umpire),
            None,
            Some(&body.to_string()),
        )
    };
    // The first umpire sets a deadline: the revision moves.
    let (status, text) = put(
        "settings",
        json!({ "revision": rev, "auto_resolve": false, "deadline": tomorrow }),
    );
    assert_eq!(status, 200, "{text}");
    let after = json_of(&text)["revision"].as_i64().unwrap();
    assert!(after > rev, "{text}");
    // The second, from the same revision, is told rather than overwriting it.
    for (what, body) in [
        (
            "settings",
            json!({ "revision": rev, "auto_resolve": true, "deadline": null }),
        ),
        (
            "reminders",
            json!({ "revision": rev, "webhook": "http://127.0.0.1:9/hook", "remind_minutes": 30 }),
        ),
    ] {
        let (status, text) = put(what, body);
        assert_eq!(status, 409, "{what}: {text}");
        assert_eq!(json_of(&text)["revision"].as_i64(), Some(after), "{text}");
        assert!(text.contains("The umpire set the server's settings"), "{text}");
    }
    let (_, text) = call(
        &agent,
        "GET",
        &format!("{base}/settings"),
        Some(&tokens.umpire),
        None,
        None,
    );
    assert_eq!(json_of(&text)["deadline"].as_u64(), Some(tomorrow), "{text}");
    // A side's view is not stale for a setting: its upload from before goes in.
    let (_, turn) = revision(&agent, &base, "british", &tokens.british);
    let body = json!({ "revision": rev, "orders": hold_orders("british", "guards-brigade", turn) });
    let (status, text) = put_orders(
        &agent,
        &base,
        "british",
        &tokens.british,
        Some("k-settings"),
        &body.to_string(),
    );
    assert_eq!(status, 200, "{text}");
    // From the revision now, the reminders are set; the log says both, without the address.
    let now = json_of(&text)["revision"].clone();
    let (status, text) = put(
        "reminders",
        json!({ "revision": now, "webhook": "http://127.0.0.1:9/hook", "remind_minutes": 30 }),
    );
    assert_eq!(status, 200, "{text}");
    let (_, text) = call(
        &agent,
        "GET",
        &format!("{base}/log"),
        Some(&tokens.umpire),
        None,
        None,
    );
    let settings: Vec<&str> = json_of(&text)["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "server_settings")
        .map(|e| e["sentence"].as_str().unwrap())
        .map(|s| {
            if s.contains("reminders") {
                "reminders"
            } else {
                "settings"
            }
        })
        .collect();
    assert_eq!(settings, ["settings", "reminders"], "{text}");
    assert!(!text.contains("127.0.0.1:9"), "{text}");
    // A side's report does not hear of them.
    let (_, text) = call(
        &agent,
        "GET",
        &format!("{base}/sides/british/report"),
        Some(&tokens.british),
        None,
        None,
    );
    assert!(!text.contains("The umpire set"), "{text}");
}

/// A webhook receiver on a loopback port: each JSON body POSTed to it, as
/// it came; it answers 200 and stops with the test.
fn receiver() -> (String, std::sync::mpsc::Receiver<Value>) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let (tell, heard) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 {
                    break;
                }
                let lower = line.to_ascii_lowercase();
                if let Some(n) = lower.strip_prefix("content-length:") {
                    length = n.trim().parse().unwrap();
                }
                if line == "\r\n" {
                    break;
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
            if tell.send(serde_json::from_slice(&body).unwrap()).is_err() {
                return;
            }
        }
    });
    (url, heard)
}

#[test]
fn reminders_go_to_the_webhook_once_each() {
    let (dir, tokens) = folder(&["egypt"]);
    let (hook, heard) = receiver();
    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let base = format!("http://{}/api/campaigns/egypt", server.addr);
    let agent = agent();
    let (rev, turn) = revision(&agent, &base, "british", &tokens.british);
    // Only the umpire sets it, and only to a web address.
    let set = |token: &str, webhook: Value, rev: i64| {
        call(
            &agent,
            "PUT",
            &format!("{base}/reminders"),
            Some(token),
            None,
            Some(&json!({ "revision": rev, "webhook": webhook, "remind_minutes": 60 }).to_string()),
        )
    };
    assert_eq!(set(&tokens.british, json!(hook), rev).0, 403);
    let (status, text) = set(&tokens.umpire, json!("file:///etc/passwd"), rev);
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("not an http:// or https:// address"), "{text}");
    let (status, text) = set(&tokens.umpire, json!(hook), rev);
    assert_eq!(status, 200, "{text}");
    // The British give orders; a deadline half an hour off: the reminder
    // names the rebels, who have not.
    let body =
        json!({ "revision": rev, "orders": hold_orders("british", "guards-brigade", turn) }).to_string();
    let (status, text) = put_orders(&agent, &base, "british", &tokens.british, Some("k"), &body);
    assert_eq!(status, 200, "{text}");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let (status, text) = call(
        &agent,
        "PUT",
        &format!("{base}/settings"),
        Some(&tokens.umpire),
        None,
        Some(
            &json!({ "revision": json_of(&text)["revision"], "auto_resolve": false, "deadline": now + 1800 })
                .to_string(),
        ),
    );
    assert_eq!(status, 200, "{text}");
    let wait = std::time::Duration::from_secs(15);
    let due = heard.recv_timeout(wait).expect("no deadline reminder");
    assert_eq!(due["event"], "deadline_near", "{due}");
    assert_eq!(due["turn"], turn);
    assert_eq!(due["sides"], json!(["Army of the Rebellion"]), "{due}");
    assert!(
        due["text"]
            .as_str()
            .unwrap()
            .contains("still to give them: Army of the Rebellion"),
        "{due}"
    );
    // The umpire resolves: the game move is announced.
    let (_, text) = call(&agent, "GET", &base, Some(&tokens.umpire), None, None);
    let rev = json_of(&text)["revision"].clone();
    let (status, text) = call(
        &agent,
        "POST",
        &format!("{base}/resolve"),
        Some(&tokens.umpire),
        None,
        Some(&json!({ "revision": rev, "with_pending": true }).to_string()),
    );
    assert_eq!(status, 200, "{text}");
    let resolved = heard.recv_timeout(wait).expect("no announcement");
    assert_eq!(resolved["event"], "resolved", "{resolved}");
    assert_eq!(resolved["turn"], turn);
    assert!(
        resolved["text"].as_str().unwrap().contains(&format!(
            "game move {turn} is resolved; orders for game move {} are open",
            turn + 1
        )),
        "{resolved}"
    );
    // The deadline was its game move's, spent with it: no reminder for the
    // next one, and each reminder once: nothing more in the next ticks.
    assert!(heard.recv_timeout(std::time::Duration::from_secs(5)).is_err());
    let (_, text) = call(
        &agent,
        "GET",
        &format!("{base}/settings"),
        Some(&tokens.umpire),
        None,
        None,
    );
    assert_eq!(json_of(&text)["deadline"], Value::Null, "{text}");
}

/// GET with a token, as bytes.
fn bytes(agent: &ureq::Agent, url: &str, token: &str) -> (u16, Vec<u8>) {
    let mut answer = agent
        .get(url)
        .header("Authorization", &format!("Bearer {token}"))
        .call()
        .unwrap();
    let status = answer.status().as_u16();
    (status, answer.body_mut().read_to_vec().unwrap())
}

#[test]
fn the_umpire_downloads_a_pack_enters_a_result_and_rules_with_the_pencil() {
    let (dir, tokens) = folder(&["egypt"]);
    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let base = format!("http://{}/api/campaigns/egypt", server.addr);
    let agent = agent();
    let (_, text) = call(
        &agent,
        "GET",
        &format!("{base}/battles"),
        Some(&tokens.umpire),
        None,
        None,
    );
    let battles = json_of(&text);
    let pending = battles["battles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["status"] == "pending")
        .unwrap_or_else(|| panic!("no pending battle: {text}"))["id"]
        .as_u64()
        .unwrap();
    let pack =
        |file: &str, token: &str| bytes(&agent, &format!("{base}/battles/{pending}/pack/{file}"), token);
    let (status, pdf) = pack("pack.pdf", &tokens.umpire);
    assert_eq!(status, 200);
    assert!(pdf.starts_with(b"%PDF-"), "a PDF");
    let (status, png) = pack("table.png", &tokens.umpire);
    assert_eq!(status, 200);
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    let (status, sheet) = pack("result.toml", &tokens.umpire);
    assert_eq!(status, 200);
    assert!(
        String::from_utf8(sheet)
            .unwrap()
            .contains(&format!("battle = {pending}"))
    );
    assert_eq!(pack("../egypt.umpire", &tokens.umpire).0, 404);
    assert_eq!(pack("secrets.txt", &tokens.umpire).0, 404);
    assert_eq!(pack("pack.pdf", &tokens.british).0, 403, "the umpire's only");
    assert_eq!(
        bytes(
            &agent,
            &format!("{base}/battles/99/pack/pack.pdf"),
            &tokens.umpire
        )
        .0,
        404
    );

    // A result: a bad sheet refused with its problems; the engine fights it.
    let (_, text) = call(&agent, "GET", &base, Some(&tokens.umpire), None, None);
    let rev = json_of(&text)["revision"].as_i64().unwrap();
    let result = format!("{base}/battles/{pending}/result");
    let (status, text) = call(
        &agent,
        "POST",
        &result,
        Some(&tokens.umpire),
        None,
        Some(&json!({ "revision": rev, "sheet": "battle = 1\nwinner = \"nobody\"\n" }).to_string()),
    );
    assert_eq!(status, 400, "{text}");
    assert!(
        json_of(&text)["problems"].as_str().is_some_and(|p| !p.is_empty()),
        "{text}"
    );
    let (status, text) = call(
        &agent,
        "POST",
        &result,
        Some(&tokens.british),
        None,
        Some(&json!({ "revision": rev, "engine": true }).to_string()),
    );
    assert_eq!(status, 403, "{text}");
    let (status, text) = call(
        &agent,
        "POST",
        &result,
        Some(&tokens.umpire),
        None,
        Some(&json!({ "revision": rev, "engine": true, "seed": 3 }).to_string()),
    );
    assert_eq!(status, 200, "{text}");
    let v = json_of(&text);
    assert!(
        v["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e.as_str().unwrap().contains(&format!("Battle {pending}"))),
        "{text}"
    );
    let rev = v["revision"].as_i64().unwrap();
    let (status, text) = call(
        &agent,
        "POST",
        &result,
        Some(&tokens.umpire),
        None,
        Some(&json!({ "revision": rev, "engine": true }).to_string()),
    );
    assert_eq!(status, 409, "fought already: {text}");
    assert!(text.contains("already fought"), "{text}");

    // The pencil: a ruling with its reason; none without one; stale refused.
    let edit = |rev: i64, reason: &str| {
        call(
            &agent,
            "POST",
            &format!("{base}/edit"),
            Some(&tokens.umpire),
            None,
            Some(&json!({ "revision": rev, "edit": { "edit": "ruling" }, "reason": reason }).to_string()),
        )
    };
    assert_eq!(edit(rev, " ").0, 400);
    let (status, text) = edit(rev, "The Nile is in flood: no fords this game move.");
    assert_eq!(status, 200, "{text}");
    assert!(text.contains("The Nile is in flood"), "{text}");
    assert_eq!(edit(rev, "again, on an old view").0, 409);
}

#[test]
fn the_server_resolves_with_the_programmed_side_and_the_umpire_reads_its_reasons() {
    let (dir, tokens) = folder(&["egypt"]);
    let save = dir.path().join("egypt.umpire");
    {
        let mut store = Store::open(&save).unwrap();
        let at = store.revision().unwrap();
        store.set_programmed(at, &SideId::new("rebels"), true).unwrap();
    }
    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let base = format!("http://{}/api/campaigns/egypt", server.addr);
    let agent = agent();
    let (_, turn) = revision(&agent, &base, "british", &tokens.british);
    let (_, text) = call(&agent, "GET", &base, Some(&tokens.umpire), None, None);
    let rev = json_of(&text)["revision"].clone();
    let (status, text) = call(
        &agent,
        "POST",
        &format!("{base}/resolve"),
        Some(&tokens.umpire),
        None,
        Some(&json!({ "revision": rev, "with_pending": true }).to_string()),
    );
    assert_eq!(status, 200, "{text}");
    let (status, text) = call(
        &agent,
        "GET",
        &format!("{base}/log?turn={turn}"),
        Some(&tokens.umpire),
        None,
        None,
    );
    assert_eq!(status, 200, "{text}");
    let log = json_of(&text);
    let events = log["events"].as_array().unwrap();
    assert!(events.iter().all(|e| e["turn"] == turn), "{text}");
    let given = events
        .iter()
        .find(|e| e["kind"] == "orders_given" && e["sentence"].as_str().unwrap().contains("Rebellion"))
        .unwrap_or_else(|| panic!("no programmed orders: {text}"));
    let reasons = given["reasons"].as_array().unwrap();
    assert!(
        reasons.iter().any(|r| r.as_str().unwrap().starts_with("Plan:")),
        "{given}"
    );
    // The reasons are the umpire's: a side's token does not open the log.
    let (status, _) = call(
        &agent,
        "GET",
        &format!("{base}/log"),
        Some(&tokens.rebels),
        None,
        None,
    );
    assert_eq!(status, 403);
    let (status, _) = call(
        &agent,
        "GET",
        &format!("{base}/log?turn=x"),
        Some(&tokens.umpire),
        None,
        None,
    );
    assert_eq!(status, 400);
}

/// An orders file for `side` holding every force in `forces`.
fn hold_all(side: &str, forces: &[String], turn: u64) -> String {
    let mut text =
        format!("campaign = \"The Egyptian Rebellion of 1895\"\nside = \"{side}\"\nturn = {turn}\n");
    for force in forces {
        text.push_str(&format!("\n[[orders]]\nforce = \"{force}\"\nhold = true\n"));
    }
    text
}

#[test]
fn campaigns_played_at_once_lose_and_double_nothing() {
    // Bounded: 6 campaigns, 4 game moves each, both sides uploading at once,
    // each upload retried with its key and then changed, and the umpire's
    // resolve sent twice on one revision.
    const CAMPAIGNS: usize = 6;
    const MOVES: u64 = 4;
    let names: Vec<String> = (0..CAMPAIGNS).map(|i| format!("c{i}")).collect();
    let dir = tempfile::tempdir().unwrap();
    let mut all_tokens = Vec::new();
    let mut forces = std::collections::HashMap::new();
    for name in &names {
        let save = dir.path().join(format!("{name}.umpire"));
        std::fs::copy(FIXTURE, &save).unwrap();
        all_tokens.push(give_tokens(&save));
        let (mut store, campaign, at) = Store::open_and_load_at(&save).unwrap();
        for side in ["british", "rebels"] {
            let ids: Vec<String> = campaign
                .forces
                .iter()
                .filter(|f| f.side.as_str() == side)
                .map(|f| f.id.to_string())
                .collect();
            forces.insert(side, ids);
        }
        // The pending battle fought first, so the game moves can go on.
        umpire::desk::resolve(&mut store, (&campaign, at), 2, None, Some(1)).unwrap();
    }
    let forces = Arc::new(forces);
    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = server.addr;
    let mut campaigns = Vec::new();
    for (name, tokens) in names.iter().cloned().zip(all_tokens) {
        let forces = Arc::clone(&forces);
        campaigns.push(std::thread::spawn(move || {
            let base = format!("http://{addr}/api/campaigns/{name}");
            let tokens = Arc::new(tokens);
            for _ in 0..MOVES {
                let barrier = Arc::new(Barrier::new(2));
                let sides: Vec<_> = ["british", "rebels"]
                    .into_iter()
                    .map(|side| {
                        let (base, tokens, forces, barrier) = (
                            base.clone(),
                            Arc::clone(&tokens),
                            Arc::clone(&forces),
                            Arc::clone(&barrier),
                        );
                        std::thread::spawn(move || {
                            let agent = agent();
                            let token = if side == "british" {
                                &tokens.british
                            } else {
                                &tokens.rebels
                            };
                            let url = format!("{base}/sides/{side}/orders");
                            let ids = &forces[side];
                            barrier.wait();
                            // The first orders, sent twice with one key (a lost answer).
                            let (rev, turn) = revision(&agent, &base, side, token);
                            let first = json!({ "revision": rev, "orders": hold_all(side, &ids[..1], turn) })
                                .to_string();
                            let key = format!("{side}-{turn}-first");
                            let a = call(&agent, "PUT", &url, Some(token), Some(&key), Some(&first));
                            let b = call(&agent, "PUT", &url, Some(token), Some(&key), Some(&first));
                            assert_eq!(a.0, 200, "{}", a.1);
                            assert_eq!(a, b, "a retry is answered the same");
                            // Changed: every force holds.
                            let rev = json_of(&a.1)["revision"].as_i64().unwrap();
                            let all =
                                json!({ "revision": rev, "orders": hold_all(side, ids, turn) }).to_string();
                            let c = call(
                                &agent,
                                "PUT",
                                &url,
                                Some(token),
                                Some(&format!("{side}-{turn}-all")),
                                Some(&all),
                            );
                            assert_eq!(c.0, 200, "{}", c.1);
                        })
                    })
                    .collect();
                for side in sides {
                    side.join().unwrap();
                }
                // The umpire resolves; the same request again is stale.
                let agent = agent();
                let (_, text) = call(&agent, "GET", &base, Some(&tokens.umpire), None, None);
                let body =
                    json!({ "revision": json_of(&text)["revision"], "with_pending": true }).to_string();
                let first = call(
                    &agent,
                    "POST",
                    &format!("{base}/resolve"),
                    Some(&tokens.umpire),
                    None,
                    Some(&body),
                );
                assert_eq!(first.0, 200, "{}", first.1);
                let again = call(
                    &agent,
                    "POST",
                    &format!("{base}/resolve"),
                    Some(&tokens.umpire),
                    None,
                    Some(&body),
                );
                assert_eq!(again.0, 409, "{}", again.1);
            }
        }));
    }
    for c in campaigns {
        c.join().unwrap();
    }
    drop(server);
    for name in &names {
        let store = Store::open(&dir.path().join(format!("{name}.umpire"))).unwrap();
        let campaign = store.load().unwrap();
        let events = store.events().unwrap();
        let ended: Vec<u32> = events
            .iter()
            .filter(|e| e.kind.name() == "turn_ended")
            .map(|e| e.turn)
            .filter(|t| *t >= 9)
            .collect();
        let start = campaign.turn - u32::try_from(MOVES).unwrap();
        assert_eq!(
            ended,
            (start..campaign.turn).collect::<Vec<_>>(),
            "{name}: each game move resolved once"
        );
        for turn in start..campaign.turn {
            for side in ["british", "rebels"] {
                let of = |kind: &str| {
                    events
                        .iter()
                        .filter(|e| {
                            e.turn == turn && e.kind.name() == kind && e.kind.payload()["side"] == side
                        })
                        .count()
                };
                assert_eq!(
                    of("orders_given"),
                    2,
                    "{name} {side} game move {turn}: the first and the change"
                );
                assert_eq!(
                    of("orders_withdrawn"),
                    1,
                    "{name} {side} game move {turn}: the first replaced"
                );
            }
        }
        // Every force held: the last orders given were the ones used.
        assert!(
            campaign
                .forces
                .iter()
                .all(|f| f.order == umpire::model::StandingOrder::Hold),
            "{name}"
        );
    }
}

#[test]
fn six_sided_campaigns_played_at_once_lose_and_double_nothing() {
    // The issue's load test in small (benches/serve.rs plays it at 50
    // campaigns x 20 game moves): every side of each campaign at once gives
    // orders, retries, changes them and retries again; the umpire resolves
    // twice on one revision. `play` checks every save afterwards.
    let dir = tempfile::tempdir().unwrap();
    let scale = load::Scale {
        campaigns: 3,
        moves: 3,
        pause_ms: (0, 20),
    };
    let played = load::play(dir.path(), scale);
    assert_eq!(played.latencies.len(), 3 * 6 * 3 * 4);
    assert_eq!(played.refused_resolves, 9);
}

#[test]
fn undoing_a_changed_upload_brings_back_the_orders_it_replaced() {
    let (dir, tokens) = folder(&["egypt"]);
    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let base = format!("http://{}/api/campaigns/egypt", server.addr);
    let agent = agent();
    let url = format!("{base}/sides/british/orders");
    let pending = || -> Vec<Value> {
        Store::open(&dir.path().join("egypt.umpire"))
            .unwrap()
            .pending_orders()
            .unwrap()
            .iter()
            .map(|o| serde_json::to_value(&o.orders).unwrap())
            .collect()
    };
    for (key, force) in [("a", "guards-brigade"), ("b", "cavalry-brigade")] {
        let (rev, turn) = revision(&agent, &base, "british", &tokens.british);
        let body = json!({ "revision": rev, "orders": hold_orders("british", force, turn) }).to_string();
        let (status, text) = call(&agent, "PUT", &url, Some(&tokens.british), Some(key), Some(&body));
        assert_eq!(status, 200, "{text}");
    }
    assert_eq!(
        pending(),
        [json!([{"force": "cavalry-brigade", "order": "hold"}])]
    );
    let (_, text) = call(&agent, "GET", &base, Some(&tokens.umpire), None, None);
    let rev = json_of(&text)["revision"].clone();
    let (status, text) = call(
        &agent,
        "POST",
        &format!("{base}/undo"),
        Some(&tokens.umpire),
        None,
        Some(&json!({ "revision": rev }).to_string()),
    );
    assert_eq!(status, 200, "{text}");
    assert_eq!(json_of(&text)["undone"], "orders", "{text}");
    assert_eq!(
        pending(),
        [json!([{"force": "guards-brigade", "order": "hold"}])],
        "nothing lost"
    );
    let log = Store::open(&dir.path().join("egypt.umpire"))
        .unwrap()
        .events()
        .unwrap();
    assert!(
        log.last()
            .unwrap()
            .sentence
            .ends_with("; the orders they replaced stand again."),
        "{}",
        log.last().unwrap().sentence
    );
}

#[test]
fn the_umpires_state_is_the_whole_campaign_as_the_save_holds_it() {
    let (dir, tokens) = folder(&["egypt"]);
    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let base = format!("http://{}/api/campaigns/egypt", server.addr);
    let agent = agent();
    let (rev, turn) = revision(&agent, &base, "british", &tokens.british);
    let body = json!({ "revision": rev, "orders": hold_orders("british", "highland-brigade", turn) });
    let (status, text) = put_orders(
        &agent,
        &base,
        "british",
        &tokens.british,
        Some("k-state"),
        &body.to_string(),
    );
    assert_eq!(status, 200, "{text}");
    let (status, text) = call(
        &agent,
        "GET",
        &format!("{base}/state"),
        Some(&tokens.umpire),
        None,
        None,
    );
    assert_eq!(status, 200, "{text}");
    let v = json_of(&text);
    let store = Store::open(&dir.path().join("egypt.umpire")).unwrap();
    assert_eq!(
        v["revision"].as_u64(),
        u64::try_from(store.revision().unwrap().number()).ok()
    );
    // Everything: every side's forces, hidden or not, every event, the orders waiting.
    let campaign: umpire::model::Campaign = serde_json::from_value(v["campaign"].clone()).unwrap();
    assert_eq!(campaign, store.load().unwrap());
    let events: Vec<umpire::model::Event> = serde_json::from_value(v["events"].clone()).unwrap();
    assert_eq!(events, store.events().unwrap());
    let orders: Vec<umpire::strategy::OrderSet> = serde_json::from_value(v["orders"].clone()).unwrap();
    assert_eq!(orders, store.pending_orders().unwrap());
    let given: Vec<(&str, bool)> = v["sides"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["id"].as_str().unwrap(), s["orders_given"].as_bool().unwrap()))
        .collect();
    assert_eq!(given, [("british", true), ("rebels", false)]);
    assert_eq!(v["pending_battles"].as_array().map(Vec::len), Some(1), "{v}");
    // The window's client reads the same.
    let link = umpire::serve::umpire_client::UmpireLink::parse(&format!(
        "http://{}/campaigns/egypt?token={}",
        server.addr, tokens.umpire
    ))
    .unwrap();
    let served = umpire::serve::umpire_client::fetch(&link).unwrap();
    assert_eq!(served.campaign, campaign);
    assert_eq!(served.orders, orders);
    assert_eq!(served.events.len(), events.len());
}

#[test]
fn the_token_command_prints_a_token_and_link_and_revokes() {
    let (dir, _) = folder(&["egypt"]);
    let out = common::umpire(dir.path(), &["serve", "token", "egypt.umpire", "british"]);
    let text = common::stdout(&out);
    assert!(out.status.success(), "{text}");
    let token = text.lines().nth(1).unwrap().trim().to_owned();
    assert_eq!(token.len(), 64, "{text}");
    assert!(
        text.contains(&format!("/campaigns/egypt/sides/british?token={token}")),
        "{text}"
    );
    let store = Store::open(&dir.path().join("egypt.umpire")).unwrap();
    let hash = umpire::serve::token::hash_token(&token);
    assert_eq!(
        store.token_seat(&hash).unwrap(),
        Some(Seat::Side(SideId::new("british")))
    );
    drop(store);
    let bytes = std::fs::read(dir.path().join("egypt.umpire")).unwrap();
    assert!(
        !bytes.windows(64).any(|w| w == token.as_bytes()),
        "the save keeps only the hash"
    );
    let out = common::umpire(
        dir.path(),
        &["serve", "token", "egypt.umpire", "british", "--revoke"],
    );
    assert!(
        common::stdout(&out).contains("Revoked 2 tokens"),
        "{}",
        common::stdout(&out)
    );
    let store = Store::open(&dir.path().join("egypt.umpire")).unwrap();
    assert_eq!(store.token_seat(&hash).unwrap(), None);
    drop(store);
    // The umpire's: the API's address and the window's link, which the window reads as the umpire's.
    let out = common::umpire(
        dir.path(),
        &[
            "serve",
            "token",
            "egypt.umpire",
            "umpire",
            "--url",
            "http://club.example:7878",
        ],
    );
    let text = common::stdout(&out);
    let token = text.lines().nth(1).unwrap().trim().to_owned();
    let link = text
        .lines()
        .find_map(|l| l.strip_prefix("Link for the window (File > Open served campaign…): "))
        .unwrap_or_else(|| panic!("no window link: {text}"));
    assert_eq!(
        link,
        format!("http://club.example:7878/campaigns/egypt?token={token}")
    );
    assert!(matches!(
        umpire::serve::umpire_client::parse_link(link),
        Ok(umpire::serve::umpire_client::AnyLink::Umpire(_))
    ));
}

/// The binary serving `dir`, and its address.
fn spawn_binary(dir: &Path) -> (Child, String) {
    let mut child = Command::new(common::umpire_bin())
        .args(["serve", dir.to_str().unwrap(), "--bind", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_owned();
    (child, addr)
}

/// The save opens, passes SQLite's integrity check, and its state is at the
/// game move its log has reached: one more than the game moves standing.
fn whole(save: &PathBuf) -> u32 {
    let conn = rusqlite::Connection::open(save).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok", "{}", save.display());
    drop(conn);
    let (store, campaign) = Store::open_and_load(save).unwrap();
    let log = store.events().unwrap();
    let history = umpire::model::History::of(&log);
    let moves = history
        .standing
        .iter()
        .filter(|c| !c.start && c.battle.is_none() && !c.edit)
        .count();
    let expected = campaign.start_turn + u32::try_from(moves).unwrap();
    assert_eq!(
        campaign.turn,
        expected,
        "{} is between game moves",
        save.display()
    );
    campaign.turn
}

#[test]
fn killed_mid_game_move_every_save_is_whole_after_restart() {
    const KILLS: u64 = 20;
    let (dir, tokens) = folder(&["north"]);
    let north = dir.path().join("north.umpire");
    std::fs::copy(&north, dir.path().join("south.umpire")).unwrap();
    let saves = [north.clone(), dir.path().join("south.umpire")];
    let first: Vec<u32> = saves.iter().map(whole).collect();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let started = std::time::Instant::now();
    let mut cut = 0;
    for kill in 0..KILLS {
        let (mut child, addr) = spawn_binary(dir.path());
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let workers: Vec<_> = ["north", "south"]
            .into_iter()
            .map(|id| {
                let (addr, stop) = (addr.clone(), Arc::clone(&stop));
                let (british, rebels, umpire) = (tokens.british.clone(), tokens.rebels.clone(), tokens.umpire.clone());
                std::thread::spawn(move || {
                    let agent: ureq::Agent = ureq::Agent::config_builder()
                        .http_status_as_error(false)
                        .timeout_global(Some(std::time::Duration::from_secs(5)))
                        .build()
                        .into();
                    let base = format!("http://{addr}/api/campaigns/{id}");
                    let mut n = 0;
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        n += 1;
                        let ok = (|| -> Option<()> {
                            for (side, force, token) in
                                [("british", "guards-brigade", &british), ("rebels", "army-of-asyut", &rebels)]
                            {
                                let mut r = agent
                                    .get(format!("{base}/sides/{side}/orders"))
                                    .header("Authorization", format!("Bearer {token}"))
                                    .call()
                                    .ok()?;
                                let v: Value = serde_json::from_str(&r.body_mut().read_to_string().ok()?).ok()?;
                                let body = json!({ "revision": v["revision"], "orders": hold_orders(side, force, v["turn"].as_u64()?) });
                                agent
                                    .put(format!("{base}/sides/{side}/orders"))
                                    .header("Authorization", format!("Bearer {token}"))
                                    .header("Idempotency-Key", format!("{kill}-{n}-{side}"))
                                    .send(body.to_string())
                                    .ok()?;
                            }
                            let mut r = agent
                                .get(&base)
                                .header("Authorization", format!("Bearer {umpire}"))
                                .call()
                                .ok()?;
                            let v: Value = serde_json::from_str(&r.body_mut().read_to_string().ok()?).ok()?;
                            agent
                                .post(format!("{base}/resolve"))
                                .header("Authorization", format!("Bearer {umpire}"))
                                .send(json!({ "revision": v["revision"], "with_pending": true }).to_string())
                                .ok()?;
                            Some(())
                        })();
                        if ok.is_none() {
                            // The kill cut a request short.
                            return true;
                        }
                    }
                    false
                })
            })
            .collect();
        std::thread::sleep(std::time::Duration::from_millis(30 + next() % 270));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for worker in workers {
            cut += usize::from(worker.join().unwrap());
        }
        for save in &saves {
            whole(save);
        }
    }
    let last: Vec<u32> = saves.iter().map(whole).collect();
    assert!(
        last.iter().zip(&first).any(|(l, f)| l > f),
        "game moves were resolved between the kills: {first:?} -> {last:?}"
    );
    assert!(cut >= 20, "the kills cut {cut} of 40 request streams short");
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
}

#[test]
fn at_the_deadline_a_side_with_no_orders_holds_and_the_game_move_is_resolved() {
    let (dir, tokens) = folder(&["egypt"]);
    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let base = format!("http://{}/api/campaigns/egypt", server.addr);
    let agent = agent();
    let (rev, turn) = revision(&agent, &base, "rebels", &tokens.rebels);
    let body = json!({ "revision": rev, "orders": hold_orders("rebels", "army-of-asyut", turn) }).to_string();
    let (status, text) = put_orders(&agent, &base, "rebels", &tokens.rebels, Some("r"), &body);
    assert_eq!(status, 200, "{text}");
    let rev = json_of(&text)["revision"].as_i64().unwrap();
    // A few seconds off, so the side sees it before the server's 2-second
    // look resolves the game move (a deadline already past could be spent
    // before the side asks, on a loaded machine).
    let soon = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        + 5;
    let settings = json!({ "revision": rev, "auto_resolve": false, "deadline": soon }).to_string();
    let (status, text) = call(
        &agent,
        "PUT",
        &format!("{base}/settings"),
        Some(&tokens.umpire),
        None,
        Some(&settings),
    );
    assert_eq!(status, 200, "{text}");
    let (_, text) = call(
        &agent,
        "GET",
        &format!("{base}/sides/british/orders"),
        Some(&tokens.british),
        None,
        None,
    );
    assert_eq!(
        json_of(&text)["deadline"].as_u64(),
        Some(soon),
        "the side sees the deadline: {text}"
    );
    let waited = std::time::Instant::now();
    while revision(&agent, &base, "british", &tokens.british).1 == turn {
        assert!(
            waited.elapsed() < std::time::Duration::from_secs(25),
            "the deadline passed unresolved"
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    let log = Store::open(&dir.path().join("egypt.umpire"))
        .unwrap()
        .events()
        .unwrap();
    let held = log
        .iter()
        .find(|e| e.sentence.contains("the deadline: no orders, holds"))
        .expect("the British were given hold orders at the deadline");
    assert!(
        held.sentence.starts_with("British Field Force"),
        "{}",
        held.sentence
    );
    let (_, text) = call(
        &agent,
        "GET",
        &format!("{base}/settings"),
        Some(&tokens.umpire),
        None,
        None,
    );
    assert_eq!(
        json_of(&text)["deadline"],
        Value::Null,
        "the deadline is cleared: {text}"
    );
}

#[test]
fn a_game_move_made_on_the_save_by_the_command_line_is_served_at_once() {
    let (dir, tokens) = folder(&["egypt"]);
    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let base = format!("http://{}/api/campaigns/egypt", server.addr);
    let agent = agent();
    let (rev, turn) = revision(&agent, &base, "british", &tokens.british);
    let out = common::umpire(dir.path(), &["turn", "egypt.umpire", "--with-pending"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let (now, next) = revision(&agent, &base, "british", &tokens.british);
    assert_eq!(next, turn + 1, "the server reads the new game move");
    assert!(now > rev);
    let (_, text) = call(
        &agent,
        "GET",
        &format!("{base}/sides/british/report"),
        Some(&tokens.british),
        None,
        None,
    );
    assert_eq!(
        json_of(&text)["report"]["turn"].as_u64(),
        Some(turn + 1),
        "{}",
        &text[..200]
    );
    // Orders from the view before it are stale.
    let body =
        json!({ "revision": rev, "orders": hold_orders("british", "guards-brigade", next) }).to_string();
    let (status, text) = put_orders(&agent, &base, "british", &tokens.british, Some("o"), &body);
    assert_eq!(status, 409, "{text}");
}

#[test]
fn with_auto_resolve_orders_given_by_the_command_line_are_resolved_too() {
    let (dir, tokens) = folder(&["egypt"]);
    let save = dir.path().join("egypt.umpire");
    {
        let (mut store, campaign, at) = Store::open_and_load_at(&save).unwrap();
        umpire::desk::resolve(&mut store, (&campaign, at), 2, None, Some(1)).unwrap();
    }
    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let base = format!("http://{}/api/campaigns/egypt", server.addr);
    let agent = agent();
    let (rev, turn) = revision(&agent, &base, "british", &tokens.british);
    let settings = json!({ "revision": rev, "auto_resolve": true, "deadline": null }).to_string();
    let (status, text) = call(
        &agent,
        "PUT",
        &format!("{base}/settings"),
        Some(&tokens.umpire),
        None,
        Some(&settings),
    );
    assert_eq!(status, 200, "{text}");
    for (side, force) in [("british", "guards-brigade"), ("rebels", "army-of-asyut")] {
        let file = dir.path().join(format!("{side}.toml"));
        std::fs::write(&file, hold_orders(side, force, turn)).unwrap();
        let out = common::umpire(
            dir.path(),
            &["orders", "egypt.umpire", side, file.to_str().unwrap()],
        );
        assert!(out.status.success(), "{}", common::stderr(&out));
    }
    let waited = std::time::Instant::now();
    while revision(&agent, &base, "british", &tokens.british).1 == turn {
        assert!(
            waited.elapsed() < std::time::Duration::from_secs(15),
            "all orders in, never resolved"
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}
