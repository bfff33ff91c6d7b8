//! The window as a client of `umpire serve` (File > Open served campaign…):
//! a side's link opens its view from a real server on a loopback port, an
//! order given on it goes to the server (File > Give orders to the server),
//! a bad link and a stale view are refused with their reasons. The
//! umpire's link opens the whole campaign from the server, resolves the game
//! move and undoes through it, refused when stale and read again on demand.
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

/// Types `link` into File > Open served campaign… and presses Open, as a
/// user does; one frame after, the call is under way.
fn type_served_link(h: &mut Harness<'_, UmpireApp>, link: &str) {
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Open served campaign…").click();
    h.run();
    h.get_by_label("Link").focus();
    h.run();
    h.get_by_label("Link").type_text(link);
    h.run();
    h.get_by_label("Open").click();
    h.step();
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
    let mut h = common::window::window(
        [1280.0, 800.0],
        Launch {
            data_folder: Some(data.path().to_owned()),
            ..Launch::default()
        },
    );
    h.run();

    // A link that is not one is refused with what a link looks like.
    h.state_mut()
        .send(Command::View(ViewCommand::OpenServed("egypt british".into())));
    h.run();
    assert!(
        notes(&h).contains("is not a served campaign's link: a side's should read like http://HOST:PORT/campaigns/CAMPAIGN/sides/SIDE?token=TOKEN, the umpire's like http://HOST:PORT/campaigns/CAMPAIGN?token=TOKEN"),
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
    type_served_link(&mut h, &link);
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

    // Opened again, the window starts from the orders given.
    h.state_mut()
        .send(Command::View(ViewCommand::OpenServed(link.clone())));
    h.step();
    until_said(
        &mut h,
        "the 2 orders it gave for this game move are on the map, to change and give again",
    );
    let shown: usize = h
        .state()
        .side_view()
        .unwrap()
        .orders
        .iter()
        .map(|s| s.orders.len())
        .sum();
    assert_eq!(shown, 2);

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

fn window(data: &Path) -> Harness<'static, UmpireApp> {
    let data = data.to_owned();
    let mut h = common::window::window(
        [1280.0, 800.0],
        Launch {
            data_folder: Some(data.clone()),
            ..Launch::default()
        },
    );
    h.run();
    h
}

fn turn_of(save: &Path) -> u32 {
    Store::open(save).unwrap().load().unwrap().turn
}

#[test]
fn the_umpire_plays_from_the_window_through_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("egypt.umpire");
    std::fs::copy(FIXTURE, &save).unwrap();
    let token = token_for(&save, Seat::Umpire);
    let side_token = token_for(&save, Seat::Side(british()));
    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let link = format!("http://{}/campaigns/egypt?token={token}", server.addr);
    let data = tempfile::tempdir().unwrap();
    let mut h = window(data.path());

    // A side's token on the umpire's link: the server's refusal.
    let wrong = link.replace(&token, &side_token);
    h.state_mut().send(Command::View(ViewCommand::OpenServed(wrong)));
    h.step();
    until_said(
        &mut h,
        "The served campaign was not opened: the server refused (403)",
    );

    // The umpire's link, typed into File > Open served campaign….
    type_served_link(&mut h, &link);
    until_said(&mut h, "Opened the umpire's view of `egypt`");
    h.run();
    assert_eq!(h.state().viewer(), None);
    h.get_by_label_contains(
        "Umpire's view, served: still to give: British Field Force, Army of the Rebellion; no deadline",
    );
    h.get_by_label_contains("The Egyptian Rebellion of 1895: game move 9");
    // Every side's forces, the rebels' hidden ones too, and the umpire's log.
    for force in ["Highland Brigade", "The Host of Qena", "Beja Hillmen of Sinkat"] {
        assert!(
            h.query_all_by_label_contains(force).next().is_some(),
            "{force} is not shown"
        );
    }
    h.get_by_label_contains("the umpire's, from http://");
    // Read-only: a force selected shows its stands, with no orders form.
    h.get_by_label_contains("The sides give their own orders, from their links");
    h.get_by_label("The Host of Qena 710/710").click();
    h.run();
    h.get_by_label_contains("Stands");
    assert!(h.query_by_label("Hold").is_none(), "no orders form");

    // A side gives orders on its page: Refresh shows them given.
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let orders = "campaign = \"The Egyptian Rebellion of 1895\"\nside = \"british\"\nturn = 9\n\n[[orders]]\nforce = \"cavalry-brigade\"\nhold = true\n";
    let revision = Store::open(&save).unwrap().revision().unwrap().number();
    let answer = agent
        .put(&format!(
            "http://{}/api/campaigns/egypt/sides/british/orders",
            server.addr
        ))
        .header("Authorization", &format!("Bearer {side_token}"))
        .header("Idempotency-Key", "k-window-umpire")
        .header("Content-Type", "application/json")
        .send(
            serde_json::json!({ "revision": revision, "orders": orders })
                .to_string()
                .as_bytes(),
        )
        .unwrap();
    assert_eq!(answer.status().as_u16(), 200);
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Refresh from the server").click();
    h.step();
    until_said(&mut h, "Read `egypt`");
    h.run();
    h.get_by_label_contains(
        "Umpire's view, served: orders given: British Field Force; still to give: Army of the Rebellion",
    );

    // Orders are the sides' own here.
    h.state_mut().send(hold("guards-brigade"));
    h.run();
    assert!(
        notes(&h).contains("each side gives its own orders"),
        "{}",
        notes(&h)
    );

    // Resolve: refused while the battle is pending, then resolved leaving it pending.
    h.get_by_label("Resolve game move").click();
    h.step();
    until_said(&mut h, "Nothing was done: the server refused (409)");
    assert!(notes(&h).contains("still pending"), "{}", notes(&h));
    assert_eq!(turn_of(&save), 9);
    h.run();
    h.get_by_label("Resolve, battles left pending").click();
    h.step();
    until_said(&mut h, "Game move 9 resolved on the server");
    h.run();
    assert_eq!(turn_of(&save), 10);
    h.get_by_label_contains("The Egyptian Rebellion of 1895: game move 10");
    h.get_by_label_contains(
        "Umpire's view, served: still to give: British Field Force, Army of the Rebellion",
    );

    // Someone else changes the save: the window's undo is refused as stale
    // and nothing is undone; after a refresh it takes the game move back.
    let mut store = Store::open(&save).unwrap();
    let at = store.revision().unwrap();
    let undone = store.undo(at).unwrap();
    drop(store);
    assert_eq!(turn_of(&save), 9, "{undone:?}");
    let mut store = Store::open(&save).unwrap();
    let campaign = store.load().unwrap();
    let at = store.revision().unwrap();
    umpire::desk::game_move(&mut store, (&campaign, at)).unwrap();
    drop(store);
    assert_eq!(turn_of(&save), 10);
    // Undo on the server asks first (there is no redo there): kept, nothing sent.
    h.get_by_label("Undo").click();
    h.run();
    h.get_by_label("Keep it").click();
    h.run();
    assert_eq!(turn_of(&save), 10);
    assert!(h.query_by_label("Take it back").is_none(), "the question went");
    h.get_by_label("Undo").click();
    h.run();
    h.get_by_label("Take it back").click();
    h.step();
    until_said(
        &mut h,
        "Refresh (View > Refresh from the server) and decide again",
    );
    assert_eq!(turn_of(&save), 10);
    h.run();
    h.get_by_label("Refresh").click();
    h.step();
    until_said(&mut h, "Read `egypt`");
    h.run();
    h.get_by_label("Undo").click();
    h.run();
    h.get_by_label("Take it back").click();
    h.step();
    until_said(&mut h, "Took back game move 9 on the server");
    h.run();
    assert_eq!(turn_of(&save), 9);
    h.get_by_label_contains("The Egyptian Rebellion of 1895: game move 9");
    drop(server);
}
