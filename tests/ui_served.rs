//! The window as a client of `umpire serve` (File > Open served campaign…):
//! a side's link opens its view from a real server on a loopback port, an
//! order given on it goes to the server (File > Give orders to the server),
//! a bad link and a stale view are refused with their reasons.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::path::Path;
use std::time::{Duration, Instant};
use umpire::model::{ForceId, SideId};
use umpire::serve::token::new_token;
use umpire::store::{Seat, Store};
use umpire::strategy::{Action, OrderRequest};
use umpire::ui::seat::Command as ViewCommand;
use umpire::ui::session::Command as SessionCommand;
use umpire::ui::{Command, Launch, UmpireApp};

const FIXTURE: &str = "tests/fixtures/egypt_1895_move9.umpire";

fn token_for(save: &Path, seat: Seat) -> String {
    let mut store = Store::open(save).unwrap();
    let (token, hash) = new_token().unwrap();
    store.add_token(&seat, hash).unwrap();
    token
}

fn notes(h: &Harness<'_, UmpireApp>) -> String {
    h.state()
        .notes()
        .iter()
        .map(|n| n.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs frames until the window's messages hold `text` (the server answers
/// on a thread of its own), at most 20 seconds. One frame at a time: while
/// a call is under way the window asks for frames to see its answer, so
/// `run` (which waits for the window to settle) would not return.
fn until_said(h: &mut Harness<'_, UmpireApp>, text: &str) {
    let start = Instant::now();
    while !notes(h).contains(text) {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no `{text}` in:\n{}",
            notes(h)
        );
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
}

fn british() -> SideId {
    SideId::new("british")
}

fn hold(force: &str) -> Command {
    Command::Session(SessionCommand::Order {
        side: british(),
        request: OrderRequest {
            force: ForceId::new(force),
            action: Action::Hold,
            forced: false,
            by: Default::default(),
        },
    })
}

#[test]
fn a_side_plays_from_the_window_through_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("egypt.umpire");
    std::fs::copy(FIXTURE, &save).unwrap();
    let token = token_for(&save, Seat::Side(british()));
    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let link = format!(
        "http://{}/campaigns/egypt/sides/british?token={token}",
        server.addr
    );

    let data = tempfile::tempdir().unwrap();
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .build_eframe(move |cc| {
            UmpireApp::new(
                cc,
                Launch {
                    data_folder: Some(data.path().to_owned()),
                    ..Launch::default()
                },
            )
        });
    h.run();

    // A link that is not one is refused with what a link looks like.
    h.state_mut()
        .send(Command::View(ViewCommand::OpenServed("egypt british".into())));
    h.run();
    assert!(
        notes(&h).contains("is not a side's link: it should read like http://HOST:PORT/campaigns/CAMPAIGN/sides/SIDE?token=TOKEN"),
        "{}",
        notes(&h)
    );
    // A wrong token: the server's own reason.
    let wrong = link.replace(&token, "0123");
    h.state_mut().send(Command::View(ViewCommand::OpenServed(wrong)));
    h.step();
    until_said(
        &mut h,
        "The served campaign was not opened: the server refused (401)",
    );

    // The link, typed into File > Open served campaign….
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Open served campaign…").click();
    h.run();
    h.get_by_label("Link").focus();
    h.run();
    h.get_by_label("Link").type_text(&link);
    h.run();
    h.get_by_label("Open").click();
    h.step();
    until_said(
        &mut h,
        "Opened British Field Force's view of `egypt` for game move 9",
    );
    assert_eq!(h.state().viewer(), Some(&british()));
    h.get_by_label_contains("British Field Force's view, served: no orders given yet; no deadline");

    // An order on the view, given to the server.
    h.state_mut().send(hold("cavalry-brigade"));
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Give orders to the server").click();
    h.step();
    until_said(&mut h, "Gave 1 order to the server");
    h.get_by_label_contains("British Field Force's view, served: orders given");
    let given = Store::open(&save).unwrap().pending_orders().unwrap();
    let british_orders: Vec<_> = given.iter().filter(|o| o.side == british()).collect();
    assert_eq!(british_orders.len(), 1, "{given:?}");
    assert_eq!(
        serde_json::to_value(&british_orders[0].orders).unwrap(),
        serde_json::json!([{"force": "cavalry-brigade", "order": "hold"}])
    );

    // Changed: a second order, given again, replaces the first upload whole.
    h.state_mut().send(hold("guards-brigade"));
    h.run();
    h.state_mut().send(Command::View(ViewCommand::GiveServedOrders));
    h.step();
    until_said(&mut h, "Gave 2 orders to the server");
    let given = Store::open(&save).unwrap().pending_orders().unwrap();
    let british_orders: Vec<_> = given.iter().filter(|o| o.side == british()).collect();
    assert_eq!(british_orders.len(), 1, "{given:?}");
    assert_eq!(british_orders[0].orders.len(), 2);

    // The umpire moves the campaign on (an undo of those orders, at the
    // save): the window's view is stale, and giving again is refused.
    let mut store = Store::open(&save).unwrap();
    let at = store.revision().unwrap();
    store.undo(at).unwrap();
    drop(store);
    h.state_mut().send(Command::View(ViewCommand::GiveServedOrders));
    h.step();
    until_said(
        &mut h,
        "The campaign changed on the server since this view was read",
    );
    drop(server);
}
