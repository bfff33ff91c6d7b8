//! Speed of one game move (`umpire::strategy::resolve`) on generated maps of
//! 1,000, 10,000 and 100,000 regions: about three roads per region and two
//! forces for every ten regions, every force marching on a standing order
//! (one in four of those at a station or landing by train or steamer).
//!
//! The goal: 10,000 regions in under 50 ms, and a cost that grows no faster
//! than linearly in regions + forces (compare the time per region that
//! criterion reports as throughput).
//!
//! The campaign is `generated::generate_campaign`. One move from this start
//! cuts no force off from its HQs: supply is traced for every force, but the
//! cut-off branch (`supply::cuts`, stand losses) is not measured here.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use umpire::model::Campaign;
use umpire::strategy::resolve;

mod generated;
use generated::generate_campaign;

/// Prints what one game move on `campaign` does, so the work measured is known.
fn describe(campaign: &Campaign) {
    let outcome = resolve(campaign, &[]);
    let count = |kind: &str| outcome.events.iter().filter(|e| e.kind.name() == kind).count();
    eprintln!(
        "{} regions, {} roads, {} forces: {} moved ({} by train or steamer), {} battles, {} cut off, {} events",
        campaign.map.regions.len(),
        campaign.map.roads.len(),
        campaign.forces.len(),
        count("moved"),
        outcome
            .events
            .iter()
            .filter(|e| e.kind.name() == "moved" && e.kind.payload().get("by").is_some())
            .count(),
        count("battle_created"),
        count("supply_cut"),
        outcome.events.len(),
    );
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("resolve a game move, all forces marching");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for regions in [1_000_usize, 10_000, 100_000] {
        let campaign = generate_campaign(regions);
        describe(&campaign);
        group.throughput(Throughput::Elements(regions as u64));
        group.bench_with_input(BenchmarkId::from_parameter(regions), &campaign, |b, campaign| {
            b.iter(|| black_box(resolve(black_box(campaign), &[])))
        });
    }
    group.finish();
}

criterion_group!(turn, benches);
criterion_main!(turn);
