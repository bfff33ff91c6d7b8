//! A side plays in a real browser: Debian's headless Chromium, driven by
//! ChromeDriver (`chromium-driver`; `.ci/run` installs both), opens the
//! side's link to `umpire serve` on a loopback port, follows its report page
//! to the orders page, gives orders there by clicking (a hold chosen from a
//! list, a march by a click on the map, a bad split refused and shown under
//! its force), and sees its report move on once the umpire resolves the game
//! move.
//!
//! The driver is ChromeDriver's W3C WebDriver protocol: a handful of JSON
//! calls over HTTP, made here with the ureq the tests already use, rather
//! than an async WebDriver crate and its runtime for six endpoints.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use umpire::model::SideId;
use umpire::serve::token::new_token;
use umpire::store::{Seat, Store};

const FIXTURE: &str = "tests/fixtures/egypt_1895_move9.umpire";
/// W3C WebDriver's name for an element's id in its answers.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// ChromeDriver on a loopback port, stopped when dropped.
struct Driver {
    child: Child,
    base: String,
    agent: ureq::Agent,
}

impl Driver {
    fn start() -> Driver {
        let child = Command::new("chromedriver")
            .args(["--port=0", "--allowed-ips=127.0.0.1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        let mut child = child.unwrap_or_else(|e| {
            panic!("chromedriver could not start ({e}): install Debian's chromium and chromium-driver (`.ci/run` does)")
        });
        // "ChromeDriver was started successfully on port 41234."
        let out = child.stdout.take().unwrap();
        let mut lines = BufReader::new(out).lines();
        let port = loop {
            let line = lines.next().expect("chromedriver said nothing").unwrap();
            if let Some(rest) = line.split("started successfully on port ").nth(1) {
                break rest.trim_end_matches('.').trim().to_owned();
            }
        };
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        Driver {
            child,
            base: format!("http://127.0.0.1:{port}"),
            agent,
        }
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.base);
        let answer = match method {
            "GET" => self.agent.get(&url).call(),
            "DELETE" => self.agent.delete(&url).call(),
            _ => self
                .agent
                .post(&url)
                .header("Content-Type", "application/json")
                .send(body.unwrap_or_else(|| json!({})).to_string().as_bytes()),
        };
        let mut answer = answer.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = answer.status().as_u16();
        let text = answer.body_mut().read_to_string().unwrap();
        let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        assert!(status < 300, "{method} {path}: {status} {text}");
        value["value"].clone()
    }

    fn session(&self) -> Session<'_> {
        let profile = tempfile::tempdir().unwrap();
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": "/usr/bin/chromium",
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1400,1000", "--no-first-run", "--disable-background-networking",
                         format!("--user-data-dir={}", profile.path().display())]
            }
        }}});
        let value = self.call("POST", "/session", Some(caps));
        Session {
            driver: self,
            id: value["sessionId"].as_str().unwrap().to_owned(),
            _profile: profile,
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Session<'a> {
    driver: &'a Driver,
    id: String,
    _profile: tempfile::TempDir,
}

impl Session<'_> {
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.driver
            .call(method, &format!("/session/{}{path}", self.id), body)
    }

    fn go(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    fn find(&self, css: &str) -> String {
        let found = self.call(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        );
        found[ELEMENT].as_str().unwrap().to_owned()
    }

    fn click(&self, css: &str) {
        let element = self.find(css);
        self.call("POST", &format!("/element/{element}/click"), None);
    }

    /// A click at the middle of `css` as a person's would land: on whatever
    /// is drawn on top there (a label over a region's point), not refused.
    fn click_at(&self, css: &str) {
        let element = self.find(css);
        let origin = json!({ ELEMENT: element });
        self.call(
            "POST",
            "/actions",
            Some(json!({ "actions": [{
                "type": "pointer", "id": "mouse", "parameters": { "pointerType": "mouse" },
                "actions": [
                    { "type": "pointerMove", "origin": origin, "x": 0, "y": 0 },
                    { "type": "pointerDown", "button": 0 },
                    { "type": "pointerUp", "button": 0 }
                ]
            }]})),
        );
    }

    fn text(&self, css: &str) -> String {
        let element = self.find(css);
        self.call("GET", &format!("/element/{element}/text"), None)
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// Waits until the text of `css` holds `want`, at most 20 seconds.
    fn until_text(&self, css: &str, want: &str) -> String {
        let start = Instant::now();
        loop {
            let text = self.text(css);
            if text.contains(want) {
                return text;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "`{css}` never said `{want}`: {text}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn title(&self) -> String {
        self.call("GET", "/title", None).as_str().unwrap().to_owned()
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        let _ = self
            .driver
            .agent
            .delete(format!("{}/session/{}", self.driver.base, self.id))
            .call();
    }
}

fn british() -> SideId {
    SideId::new("british")
}

#[test]
fn a_side_gives_its_orders_in_the_browser_and_sees_its_report_move_on() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("egypt.umpire");
    std::fs::copy(FIXTURE, &save).unwrap();
    let (token, umpire_token) = {
        let mut store = Store::open(&save).unwrap();
        let mut give = |seat| {
            let (token, hash) = new_token().unwrap();
            store.add_token(&seat, hash).unwrap();
            token
        };
        (give(Seat::Side(british())), give(Seat::Umpire))
    };
    let campaign = Store::open(&save).unwrap().load().unwrap();
    let turn = campaign.turn;
    // A force free to march, and a region on a road from it.
    let pending: Vec<_> = campaign
        .battles
        .iter()
        .filter(|b| b.status == umpire::model::BattleStatus::Pending)
        .flat_map(|b| b.forces.iter().chain(&b.reserves))
        .collect();
    let marcher = campaign
        .forces
        .iter()
        .find(|f| {
            f.side == british() && f.en_route.is_none() && !pending.contains(&&f.id) && !f.fatigue.must_rest
        })
        .unwrap();
    let to = campaign
        .map
        .roads
        .iter()
        .find_map(|r| r.other_end(&marcher.region))
        .unwrap()
        .clone();
    let holder = campaign
        .forces
        .iter()
        .find(|f| f.side == british() && f.id != marcher.id)
        .unwrap();

    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let base = format!("http://{}", server.addr);
    let driver = Driver::start();
    let browser = driver.session();

    // The link the umpire sent: the side's report page, live.
    browser.go(&format!("{base}/campaigns/egypt/sides/british?token={token}"));
    assert!(
        browser.title().contains(&format!("game move {turn}")),
        "{}",
        browser.title()
    );
    browser.click("header a");
    assert!(
        browser.title().contains("orders of British Field Force"),
        "{}",
        browser.title()
    );

    // A split with no stands ticked: refused, and said under its force.
    let row = |id: &str| format!("tr[data-force=\"{id}\"]");
    browser.click(&format!(
        "{} select[name=action] option[value=split]",
        row(holder.id.as_str())
    ));
    browser.click("#give");
    let said = browser.until_text("#status", "no orders were taken");
    assert!(said.contains("the orders have 1 problem"), "{said}");
    let problem = browser.text(&format!("{} .problem", row(holder.id.as_str())));
    assert!(
        problem.contains("stand"),
        "the split's problem under its force: {problem}"
    );
    assert!(Store::open(&save).unwrap().pending_orders().unwrap().is_empty());

    // A hold chosen from the list, and a march by a click on the map.
    browser.click(&format!(
        "{} select[name=action] option[value=hold]",
        row(holder.id.as_str())
    ));
    browser.click(&format!("{} td", row(marcher.id.as_str())));
    browser.click_at(&format!("#mapbox circle[data-region=\"{to}\"]"));
    browser.click("#give");
    let said = browser.until_text("#status", "Orders taken");
    assert!(said.contains("Orders taken: 1 march, 1 hold."), "{said}");
    let given = Store::open(&save).unwrap().pending_orders().unwrap();
    assert_eq!(given.len(), 1, "{given:?}");
    let orders = serde_json::to_value(&given[0].orders).unwrap();
    let of = |force: &str| {
        orders
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["force"] == force)
            .unwrap_or_else(|| panic!("no order for {force}: {orders}"))
            .clone()
    };
    assert_eq!(of(holder.id.as_str())["order"], "hold", "{orders}");
    let march = of(marcher.id.as_str());
    assert_eq!(march["order"], "march", "{orders}");
    assert_eq!(
        march["path"].as_array().unwrap().last().unwrap(),
        to.as_str(),
        "{march}"
    );
    assert_eq!(orders.as_array().unwrap().len(), 2, "{orders}");

    // The umpire resolves the game move; the side's report moves on.
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut answer = agent
        .get(format!("{base}/api/campaigns/egypt"))
        .header("Authorization", &format!("Bearer {umpire_token}"))
        .call()
        .unwrap();
    let summary: Value = serde_json::from_str(&answer.body_mut().read_to_string().unwrap()).unwrap();
    let mut answer = agent
        .post(format!("{base}/api/campaigns/egypt/resolve"))
        .header("Authorization", &format!("Bearer {umpire_token}"))
        .header("Content-Type", "application/json")
        .send(
            json!({ "revision": summary["revision"], "with_pending": true })
                .to_string()
                .as_bytes(),
        )
        .unwrap();
    assert_eq!(
        answer.status().as_u16(),
        200,
        "{}",
        answer.body_mut().read_to_string().unwrap()
    );
    browser.go(&format!("{base}/campaigns/egypt/sides/british?token={token}"));
    assert!(
        browser.title().contains(&format!("game move {}", turn + 1)),
        "{}",
        browser.title()
    );
    drop(browser);
    drop(driver);
    drop(server);
}
