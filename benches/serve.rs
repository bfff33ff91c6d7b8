//! The server's load goal: many campaigns, every side uploading orders at
//! once on loopback, p99 latency of an order upload under 50 ms.
//!
//! Criterion times the uploads saturated: 100 clients (50 campaigns x 2
//! sides) uploading back to back, wall time per upload (the server's
//! throughput). Then a paced run, the goal's: 300 clients (150 campaigns x 2
//! sides) each uploading 10 times about once a second (0.5 to 1.5 s apart),
//! every fifth upload retried with the same key (the answer must be the
//! same); each upload's latency is kept and p50, p99 and the worst printed.
//! Bounded: a fixed number of uploads, a local server on port 0.
//!
//! First, the issue's load test at its scale (`tests/common/load.rs`): 50
//! copies of the six-sided campaign, every side giving orders, retrying,
//! changing them and retrying at once, for 20 game moves each resolved by
//! the umpire (12,000 uploads, as many retries, 1,000 game moves), every
//! save checked afterwards (nothing lost or doubled, each game move resolved
//! once, the last orders used), with p50, p99 and the worst latency of an
//! upload printed; once saturated (every upload at once), once paced (each
//! side pausing 0.5 to 1.5 s before its orders and before its change).
//! `SERVE_BENCH_SCALE_ONLY=1` runs only that.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

use criterion::{Criterion, criterion_group};
use serde_json::{Value, json};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use umpire::model::SideId;
use umpire::serve::token::new_token;
use umpire::store::{Seat, Store};

#[path = "../tests/common/load.rs"]
mod load;

const FIXTURE: &str = "tests/fixtures/egypt_1895_move9.umpire";
const CAMPAIGNS: usize = 50;
const SIDES: [(&str, &str); 2] = [("british", "highland-brigade"), ("rebels", "army-of-asyut")];

static LATENCIES: Mutex<Vec<Duration>> = Mutex::new(Vec::new());

struct Client {
    base: String,
    side: &'static str,
    force: &'static str,
    token: String,
    revision: i64,
    turn: u64,
    sent: u64,
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into()
}

impl Client {
    /// One upload: its latency; the revision for the next from its answer.
    fn upload(&mut self, agent: &ureq::Agent) -> Duration {
        self.upload_retried(agent, false)
    }

    /// One upload, sent twice with the same key when `retry`: the second
    /// answer must be the first's.
    fn upload_retried(&mut self, agent: &ureq::Agent, retry: bool) -> Duration {
        self.sent += 1;
        let orders = format!(
            "campaign = \"The Egyptian Rebellion of 1895\"\nside = \"{}\"\nturn = {}\n\n[[orders]]\nforce = \"{}\"\nhold = true\n",
            self.side, self.turn, self.force
        );
        let body = json!({ "revision": self.revision, "orders": orders }).to_string();
        let body_again = body.clone();
        let started = Instant::now();
        let mut answer = agent
            .put(format!("{}/sides/{}/orders", self.base, self.side))
            .header("Authorization", format!("Bearer {}", self.token))
            .header("Idempotency-Key", format!("bench-{}", self.sent))
            .send(body)
            .unwrap();
        let text = answer.body_mut().read_to_string().unwrap();
        let took = started.elapsed();
        assert_eq!(answer.status().as_u16(), 200, "{text}");
        if retry {
            let again = agent
                .put(format!("{}/sides/{}/orders", self.base, self.side))
                .header("Authorization", format!("Bearer {}", self.token))
                .header("Idempotency-Key", format!("bench-{}", self.sent))
                .send(body_again)
                .unwrap()
                .body_mut()
                .read_to_string()
                .unwrap();
            assert_eq!(again, text, "a retry gets the same answer");
        }
        let v: Value = serde_json::from_str(&text).unwrap();
        self.revision = v["revision"].as_i64().unwrap();
        took
    }
}

/// `campaigns` copies of the fixture served on loopback, and a client for each side.
fn setup(campaigns: usize) -> (tempfile::TempDir, umpire::serve::Running, Vec<Client>) {
    let dir = tempfile::tempdir().unwrap();
    let mut tokens = Vec::new();
    for k in 0..campaigns {
        let save = dir.path().join(format!("c{k}.umpire"));
        std::fs::copy(FIXTURE, &save).unwrap();
        let mut store = Store::open(&save).unwrap();
        for (side, _) in SIDES {
            let (token, hash) = new_token().unwrap();
            store.add_token(&Seat::Side(SideId::new(side)), hash).unwrap();
            tokens.push((k, side, token));
        }
    }
    let server = umpire::serve::start(dir.path(), "127.0.0.1:0".parse().unwrap()).unwrap();
    let agent0 = agent();
    let clients: Vec<Client> = tokens
        .into_iter()
        .map(|(k, side, token)| {
            let base = format!("http://{}/api/campaigns/c{k}", server.addr);
            let mut r = agent0
                .get(format!("{base}/sides/{side}/orders"))
                .header("Authorization", format!("Bearer {token}"))
                .call()
                .unwrap();
            let v: Value = serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap();
            let force = SIDES.iter().find(|(s, _)| *s == side).unwrap().1;
            Client {
                base,
                side,
                force,
                token,
                revision: v["revision"].as_i64().unwrap(),
                turn: v["turn"].as_u64().unwrap(),
                sent: 0,
            }
        })
        .collect();
    (dir, server, clients)
}

fn uploads(c: &mut Criterion) {
    let (_dir, server, mut clients) = setup(CAMPAIGNS);
    let mut group = c.benchmark_group("serve");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("order upload, 50 campaigns x 2 sides at once", |b| {
        b.iter_custom(|iters| {
            let per_client = iters.div_ceil(clients.len() as u64).max(1);
            let started = Instant::now();
            std::thread::scope(|s| {
                for client in clients.iter_mut() {
                    s.spawn(move || {
                        let agent = agent();
                        for _ in 0..per_client {
                            client.upload(&agent);
                        }
                    });
                }
            });
            // Wall time per upload, scaled to the iterations asked.
            started
                .elapsed()
                .mul_f64(iters as f64 / (per_client * clients.len() as u64) as f64)
        });
    });
    group.finish();
    drop(server);
}

/// The goal's run: 300 clients, each uploading `UPLOADS` times about once a second.
fn paced() {
    const PACED_CAMPAIGNS: usize = 150;
    const UPLOADS: u64 = 10;
    let (_dir, server, mut clients) = setup(PACED_CAMPAIGNS);
    std::thread::scope(|s| {
        for (i, client) in clients.iter_mut().enumerate() {
            s.spawn(move || {
                let agent = agent();
                let mut seed = (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                let mut took = Vec::new();
                for n in 0..UPLOADS {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    std::thread::sleep(Duration::from_millis(500 + seed % 1000));
                    took.push(client.upload_retried(&agent, n % 5 == 4));
                }
                LATENCIES.lock().unwrap().extend(took);
            });
        }
    });
    if std::env::var_os("SERVE_BENCH_DETAIL").is_some() {
        let all = LATENCIES.lock().unwrap().clone();
        for n in 0..UPLOADS as usize {
            let mut these: Vec<Duration> = all.iter().skip(n).step_by(UPLOADS as usize).copied().collect();
            these.sort_unstable();
            println!(
                "upload {n}: p50 {:?} p99 {:?}",
                these[these.len() / 2],
                these[these.len() * 99 / 100]
            );
        }
    }
    drop(server);
    latency_summary(PACED_CAMPAIGNS);
}

fn latency_summary(campaigns: usize) {
    let mut all = LATENCIES.lock().unwrap().clone();
    all.sort_unstable();
    if all.is_empty() {
        return;
    }
    let at = |q: f64| all[((all.len() - 1) as f64 * q).round() as usize];
    println!(
        "order upload latency over {} uploads, {campaigns} campaigns x {} sides each uploading about once a second: p50 {:.1} ms, p99 {:.1} ms, worst {:.1} ms",
        all.len(),
        SIDES.len(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        all[all.len() - 1].as_secs_f64() * 1e3
    );
}

criterion_group!(benches, uploads);

/// The issue's load test at its scale: saturated (every upload at once),
/// then paced (each side pausing half a second to a second and a half
/// before its orders and before its change).
fn issue_scale() {
    for pause_ms in [(0, 0), (500, 1500)] {
        let dir = tempfile::tempdir().unwrap();
        let scale = load::Scale {
            campaigns: 50,
            moves: 20,
            pause_ms,
        };
        let played = load::play(dir.path(), scale);
        println!("the issue's load test: {}", played.summary(scale));
    }
}

fn main() {
    issue_scale();
    if std::env::var_os("SERVE_BENCH_SCALE_ONLY").is_some() {
        return;
    }
    benches();
    paced();
    Criterion::default().configure_from_args().final_summary();
}
