//! The scripted opponents the tournament plays the commander against. Like
//! the commander they read only the side's report.

use super::Decision;
use super::commander::Memory;
use super::view::{Known, OwnForce};
use crate::model::Conveyance;
use crate::strategy::{Action, OrderRequest};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// An order to march `force` to `region` by the quickest way on foot.
pub(super) fn march_to(known: &Known, force: &OwnForce, region: usize, forced: bool) -> Option<OrderRequest> {
    Some(OrderRequest {
        force: force.id.clone(),
        action: Action::To(known.region_id(region)?.clone()),
        forced,
        by: Conveyance::Foot,
    })
}

pub(super) fn hold(force: &OwnForce) -> OrderRequest {
    OrderRequest {
        force: force.id.clone(),
        action: Action::Hold,
        forced: false,
        by: Conveyance::Foot,
    }
}

/// Each force's order toward the nearest of `targets`, or hold where it is
/// there already or none can be reached.
fn toward(known: &Known, targets: &[usize]) -> Vec<OrderRequest> {
    let miles = known.miles_from(targets);
    let fields: Vec<(usize, Vec<f64>)> = targets.iter().map(|&t| (t, known.miles_from(&[t]))).collect();
    let mut requests = Vec::new();
    for force in &known.forces {
        if force.must_rest {
            requests.push(hold(force));
            continue;
        }
        let here = miles.get(force.region).copied().unwrap_or(f64::INFINITY);
        if here == 0.0 || !here.is_finite() {
            if !force.en_route {
                requests.push(hold(force));
            }
            continue;
        }
        // The target nearest this force.
        let reach = |field: &Vec<f64>| field.get(force.region).copied().unwrap_or(f64::INFINITY);
        let nearest = fields
            .iter()
            .min_by(|a, b| reach(&a.1).total_cmp(&reach(&b.1)))
            .map(|(t, _)| *t);
        if let Some(request) = nearest.and_then(|t| march_to(known, force, t, false)) {
            requests.push(request);
        }
    }
    requests
}

/// Rush: every force marches on the nearest HQ its side does not hold.
pub(super) fn rush(known: &Known) -> Decision {
    let targets: Vec<usize> = known.other_hqs().map(|h| h.region).collect();
    Decision {
        requests: toward(known, &targets),
        memory: Memory::default(),
        log: vec!["Rush: every force marches on the nearest HQ not held.".to_owned()],
    }
}

/// Turtle: every force goes to the nearest HQ its side holds and stays there.
pub(super) fn turtle(known: &Known) -> Decision {
    let targets: Vec<usize> = known.own_hqs().map(|h| h.region).collect();
    Decision {
        requests: toward(known, &targets),
        memory: Memory::default(),
        log: vec!["Turtle: every force holds at the nearest HQ it holds.".to_owned()],
    }
}

/// Random: every force marches to a random neighbouring region, or holds
/// (one time in three).
pub(super) fn random(known: &Known, rng: &mut ChaCha8Rng) -> Decision {
    let mut requests = Vec::new();
    for force in &known.forces {
        if force.en_route {
            continue;
        }
        let roads = known.neighbours.get(force.region).map_or(&[][..], Vec::as_slice);
        if force.must_rest || roads.is_empty() || rng.random_range(0..3) == 0 {
            requests.push(hold(force));
            continue;
        }
        let pick = rng.random_range(0..roads.len());
        if let Some(request) = roads
            .get(pick)
            .and_then(|&(to, _)| march_to(known, force, to, false))
        {
            requests.push(request);
        }
    }
    Decision {
        requests,
        memory: Memory::default(),
        log: vec!["Random: each force to a random neighbour, or holds.".to_owned()],
    }
}
