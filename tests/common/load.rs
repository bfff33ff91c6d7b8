//! The server's load test at the shape, shared by tests/serve.rs
//! (bounded and small) and benches/serve.rs (the scale: 50
//! campaigns, 6 sides each, 20 game moves): copies of the six-sided
//! campaign (tests/fixtures/six_sides) served on loopback; in each game move
//! every side at once gives orders (a march), retries them with the same
//! `Idempotency-Key`, then changes them (every force holds) and retries that
//! too; then the umpire resolves, sending the resolve twice on one revision.
//! Afterwards every save is checked: each game move resolved once, each
//! upload applied once (two orders given and one withdrawn per side and game
//! move), the last orders used (no force ever left its region). Included
//! with `#[path]`, so it is built only where it is used.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};
use umpire::model::{Campaign, RegionId, SideId};
use umpire::serve::token::new_token;
use umpire::store::{Overwrite, Seat, Store};

/// The six-sided campaign file, from the crate's root.
pub const SIX_SIDES: &str = "tests/fixtures/six_sides/campaign.toml";

/// How big a run is.
#[derive(Debug, Clone, Copy)]
pub struct Scale {
    pub campaigns: usize,
    pub moves: u32,
    /// A side's pause before its first orders and before its change, in
    /// milliseconds, drawn between these two (players are not machines);
    /// `(0, 0)`: none, every upload at once (saturated).
    pub pause_ms: (u64, u64),
}

/// What a run measured.
#[derive(Debug, Default)]
pub struct Played {
    /// Each order upload's latency, retries included, in no order.
    pub latencies: Vec<Duration>,
    /// Uploads applied (first orders and changes) and their retries.
    pub uploads: usize,
    pub retries: usize,
    /// Game moves resolved, and second resolves refused as stale.
    pub resolves: usize,
    pub refused_resolves: usize,
    pub wall: Duration,
}

impl Played {
    /// p50, p99 and the worst latency, in milliseconds.
    pub fn percentiles(&self) -> (f64, f64, f64) {
        let mut all = self.latencies.clone();
        all.sort_unstable();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let at = |q: f64| {
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                clippy::cast_precision_loss
            )]
            let i = ((all.len().saturating_sub(1)) as f64 * q).round() as usize;
            all.get(i).copied().unwrap_or_default()
        };
        (
            ms(at(0.5)),
            ms(at(0.99)),
            ms(all.last().copied().unwrap_or_default()),
        )
    }

    fn paused(&self, scale: Scale) -> bool {
        scale.pause_ms.1 > 0
    }

    /// The figures in one line.
    pub fn summary(&self, scale: Scale) -> String {
        let (p50, p99, worst) = self.percentiles();
        let pace = if self.paused(scale) {
            format!(
                "each side pausing {}-{} ms before its orders and before its change",
                scale.pause_ms.0, scale.pause_ms.1
            )
        } else {
            "every upload at once".to_owned()
        };
        format!(
            "{} campaigns x 6 sides x {} game moves, {pace}: {} uploads applied + {} retries ({} requests) in {:.1} s, {} game moves resolved (each second resolve refused: {}); order upload latency p50 {p50:.1} ms, p99 {p99:.1} ms, worst {worst:.1} ms",
            scale.campaigns,
            scale.moves,
            self.uploads,
            self.retries,
            self.latencies.len(),
            self.wall.as_secs_f64(),
            self.resolves,
            self.refused_resolves,
        )
    }
}

/// One side of one campaign: its token, its forces, and where its first
/// orders march one of them.
#[derive(Debug, Clone)]
struct SideSeat {
    side: SideId,
    token: String,
    forces: Vec<String>,
    march: (String, RegionId),
}

#[derive(Debug, Clone)]
struct Served {
    name: String,
    umpire: String,
    sides: Vec<SideSeat>,
}

/// The save of the six-sided campaign as `umpire new` makes it, checked by the
/// same checker.
pub fn new_six_sided(save: &Path) -> Campaign {
    let checked = umpire::files::load_campaign(Path::new(SIX_SIDES));
    let campaign = checked
        .value
        .unwrap_or_else(|| panic!("{SIX_SIDES}: {:?}", checked.diagnostics));
    let campaign = umpire::strategy::fog::begin(&campaign);
    Store::create(save, &campaign, Overwrite::Refuse).unwrap();
    campaign
}

/// `campaigns` copies of the six-sided campaign in `dir`, with tokens.
fn saves(dir: &Path, campaigns: usize) -> (Vec<Served>, Campaign) {
    let first = dir.join("six0.umpire");
    let campaign = new_six_sided(&first);
    let mut served = Vec::new();
    for k in 0..campaigns {
        let name = format!("six{k}");
        let save: PathBuf = dir.join(format!("{name}.umpire"));
        if k > 0 {
            std::fs::copy(&first, &save).unwrap();
        }
        let mut store = Store::open(&save).unwrap();
        let mut token = |seat: &Seat| {
            let (token, hash) = new_token().unwrap();
            store.add_token(seat, hash).unwrap();
            token
        };
        let umpire = token(&Seat::Umpire);
        let sides = campaign
            .sides
            .iter()
            .map(|s| {
                let forces: Vec<String> = campaign.forces_of(&s.id).map(|f| f.id.to_string()).collect();
                let marching = campaign.forces_of(&s.id).next().unwrap();
                let to = campaign
                    .map
                    .roads
                    .iter()
                    .find_map(|r| {
                        if r.from == marching.region {
                            Some(r.to.clone())
                        } else if r.to == marching.region {
                            Some(r.from.clone())
                        } else {
                            None
                        }
                    })
                    .unwrap();
                SideSeat {
                    side: s.id.clone(),
                    token: token(&Seat::Side(s.id.clone())),
                    forces,
                    march: (marching.id.to_string(), to),
                }
            })
            .collect();
        served.push(Served { name, umpire, sides });
    }
    (served, campaign)
}

/// A seed for a side's pauses (FNV-1a of `text`), never 0.
fn seed_of(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    }) | 1
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

fn get(agent: &ureq::Agent, url: &str, token: &str) -> Value {
    let mut answer = agent
        .get(url)
        .header("Authorization", &format!("Bearer {token}"))
        .call()
        .unwrap();
    let text = answer.body_mut().read_to_string().unwrap();
    assert_eq!(answer.status().as_u16(), 200, "{url}: {text}");
    serde_json::from_str(&text).unwrap()
}

/// A PUT or POST: status, body and how long it took.
fn send(
    agent: &ureq::Agent,
    put: bool,
    url: &str,
    token: &str,
    key: Option<&str>,
    body: &str,
) -> (u16, String, Duration) {
    let started = Instant::now();
    let mut request = if put { agent.put(url) } else { agent.post(url) }
        .header("Authorization", &format!("Bearer {token}"))
        .header("Content-Type", "application/json");
    if let Some(key) = key {
        request = request.header("Idempotency-Key", key);
    }
    let mut answer = request.send(body.as_bytes()).unwrap();
    let text = answer.body_mut().read_to_string().unwrap();
    (answer.status().as_u16(), text, started.elapsed())
}

fn orders_file(
    title: &str,
    side: &SideId,
    turn: u64,
    march: Option<&(String, RegionId)>,
    hold: &[String],
) -> String {
    let mut text = format!("campaign = \"{title}\"\nside = \"{side}\"\nturn = {turn}\n");
    if let Some((force, to)) = march {
        text.push_str(&format!("\n[[orders]]\nforce = \"{force}\"\nto = \"{to}\"\n"));
    }
    for force in hold {
        text.push_str(&format!("\n[[orders]]\nforce = \"{force}\"\nhold = true\n"));
    }
    text
}

/// One side's game move: its first orders and their retry, then the change
/// and its retry. Latencies into `took`.
fn side_move(
    agent: &ureq::Agent,
    base: &str,
    title: &str,
    seat: &SideSeat,
    mut pause: impl FnMut(),
    took: &mut Vec<Duration>,
) {
    pause();
    let url = format!("{base}/sides/{}/orders", seat.side);
    let view = get(agent, &url, &seat.token);
    let (revision, turn) = (view["revision"].as_i64().unwrap(), view["turn"].as_u64().unwrap());
    let others: Vec<String> = seat
        .forces
        .iter()
        .filter(|f| **f != seat.march.0)
        .cloned()
        .collect();
    let first = json!({ "revision": revision, "orders": orders_file(title, &seat.side, turn, Some(&seat.march), &others) })
        .to_string();
    let key = format!("{}-{turn}-first", seat.side);
    let (status, a, t) = send(agent, true, &url, &seat.token, Some(&key), &first);
    assert_eq!(status, 200, "{url}: {a}");
    took.push(t);
    let (_, b, t) = send(agent, true, &url, &seat.token, Some(&key), &first);
    took.push(t);
    assert_eq!(a, b, "{url}: a retry is answered the same");
    let revision: Value = serde_json::from_str(&a).unwrap();
    let changed = json!({
        "revision": revision["revision"],
        "orders": orders_file(title, &seat.side, turn, None, &seat.forces),
    })
    .to_string();
    pause();
    let key = format!("{}-{turn}-changed", seat.side);
    let (status, c, t) = send(agent, true, &url, &seat.token, Some(&key), &changed);
    assert_eq!(status, 200, "{url}: {c}");
    took.push(t);
    let (_, d, t) = send(agent, true, &url, &seat.token, Some(&key), &changed);
    took.push(t);
    assert_eq!(c, d, "{url}: a retry is answered the same");
}

/// Plays `scale` on a server of its own in `dir`, then checks every save.
pub fn play(dir: &Path, scale: Scale) -> Played {
    let (served, campaign) = saves(dir, scale.campaigns);
    let start_turn = campaign.turn;
    let title = Arc::new(campaign.title.clone());
    let server = umpire::serve::start(dir, "127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = server.addr;
    let latencies = Arc::new(Mutex::new(Vec::new()));
    let refused = Arc::new(Mutex::new(0usize));
    let started = Instant::now();
    std::thread::scope(|s| {
        for one in &served {
            let (latencies, refused, title) =
                (Arc::clone(&latencies), Arc::clone(&refused), Arc::clone(&title));
            s.spawn(move || {
                let base = format!("http://{addr}/api/campaigns/{}", one.name);
                for n in 0..scale.moves {
                    let barrier = Arc::new(Barrier::new(one.sides.len()));
                    std::thread::scope(|s| {
                        for seat in &one.sides {
                            let (base, title, barrier, latencies) =
                                (&base, &title, Arc::clone(&barrier), Arc::clone(&latencies));
                            s.spawn(move || {
                                let agent = agent();
                                let mut took = Vec::new();
                                let mut seed = seed_of(&format!("{base} {} {n}", seat.side));
                                let (low, high) = scale.pause_ms;
                                let pause = move || {
                                    if high == 0 {
                                        return;
                                    }
                                    seed ^= seed << 13;
                                    seed ^= seed >> 7;
                                    seed ^= seed << 17;
                                    let ms = low + seed % (high - low).max(1);
                                    std::thread::sleep(Duration::from_millis(ms));
                                };
                                barrier.wait();
                                side_move(&agent, base, title, seat, pause, &mut took);
                                latencies.lock().unwrap().extend(took);
                            });
                        }
                    });
                    // The umpire resolves; the same request again is stale.
                    let agent = agent();
                    let summary = get(&agent, &base, &one.umpire);
                    let body = json!({ "revision": summary["revision"], "with_pending": true }).to_string();
                    let url = format!("{base}/resolve");
                    let (status, text, _) = send(&agent, false, &url, &one.umpire, None, &body);
                    assert_eq!(status, 200, "{url}: {text}");
                    let (status, text, _) = send(&agent, false, &url, &one.umpire, None, &body);
                    assert_eq!(status, 409, "{url}: {text}");
                    *refused.lock().unwrap() += 1;
                }
            });
        }
    });
    let wall = started.elapsed();
    drop(server);
    check(dir, &served, &campaign, start_turn, scale.moves);
    let latencies = std::mem::take(&mut *latencies.lock().unwrap());
    let sides = served.first().map_or(0, |s| s.sides.len());
    let per_side = scale.campaigns * sides * scale.moves as usize;
    let refused_resolves = *refused.lock().unwrap();
    Played {
        latencies,
        uploads: per_side * 2,
        retries: per_side * 2,
        resolves: scale.campaigns * scale.moves as usize,
        refused_resolves,
        wall,
    }
}

/// Every save: each game move resolved once; per side and game move two
/// orders given (the first and the change, never a retry) and one
/// withdrawn; the last orders used (every force where it began, holding).
fn check(dir: &Path, served: &[Served], begun: &Campaign, start: u32, moves: u32) {
    let began: HashMap<String, RegionId> = begun
        .forces
        .iter()
        .map(|f| (f.id.to_string(), f.region.clone()))
        .collect();
    for one in served {
        let store = Store::open(&dir.join(format!("{}.umpire", one.name))).unwrap();
        let campaign = store.load().unwrap();
        let events = store.events().unwrap();
        let name = &one.name;
        assert_eq!(campaign.turn, start + moves, "{name}");
        let ended: Vec<u32> = events
            .iter()
            .filter(|e| e.kind.name() == "turn_ended")
            .map(|e| e.turn)
            .collect();
        assert_eq!(
            ended,
            (start..start + moves).collect::<Vec<_>>(),
            "{name}: each game move resolved once"
        );
        for turn in start..start + moves {
            for seat in &one.sides {
                let of = |kind: &str| {
                    events
                        .iter()
                        .filter(|e| {
                            e.turn == turn
                                && e.kind.name() == kind
                                && e.kind.payload()["side"] == seat.side.as_str()
                        })
                        .count()
                };
                assert_eq!(
                    of("orders_given"),
                    2,
                    "{name} {} game move {turn}: the first and the change, each once",
                    seat.side
                );
                assert_eq!(
                    of("orders_withdrawn"),
                    1,
                    "{name} {} game move {turn}: the first replaced",
                    seat.side
                );
            }
        }
        for force in &campaign.forces {
            assert_eq!(
                Some(&force.region),
                began.get(force.id.as_str()),
                "{name} {}: the march was withdrawn, the hold used",
                force.id
            );
            assert_eq!(
                force.order,
                umpire::model::StandingOrder::Hold,
                "{name} {}",
                force.id
            );
        }
    }
}
