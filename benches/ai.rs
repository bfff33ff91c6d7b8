//! Speed of the programmed commander (`umpire::ai::decide`): the orders for
//! one side of the generated campaign (`generated::generate_campaign`) from
//! that side's report, on maps of 1,000 and 10,000 regions (100 and 1,000
//! forces a side).
//!
//! The goal (issue 20): a side of 1,000 forces on a 10,000-region map in under 1 s.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use criterion::{BenchmarkId, Criterion, SamplingMode, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use umpire::ai::{Memory, Opponent, decide};
use umpire::model::SideId;
use umpire::model::report::Report;

mod generated;
use generated::generate_campaign;

fn commander(c: &mut Criterion) {
    let mut group = c.benchmark_group("commander_orders");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    for regions in [1_000, 10_000] {
        let campaign = generate_campaign(regions);
        let red = SideId::new("red");
        let report = Report::of(&campaign, &red, &[]).unwrap();
        let forces = report.forces.len();
        let decision = decide(Opponent::Commander, &report, &Memory::default(), 1);
        eprintln!(
            "{regions} regions, {forces} red forces: {} orders, {} log lines",
            decision.requests.len(),
            decision.log.len()
        );
        group.bench_with_input(BenchmarkId::from_parameter(regions), &report, |b, report| {
            b.iter(|| decide(Opponent::Commander, black_box(report), &Memory::default(), 1));
        });
    }
    group.finish();
}

criterion_group!(benches, commander);
criterion_main!(benches);
