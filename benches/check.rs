//! Speed of reading a person's files and starting a campaign from them, on
//! generated maps of 1,000, 10,000 and 100,000 regions: `umpire check` (the
//! campaign file and its map, every diagnostic position found) plus
//! `umpire new` (fog of war at the start and the save written).
//!
//! The goal: 100,000 regions in under 2 s, and a cost that grows linearly in
//! regions (compare the time per region that criterion reports as throughput).
//!
//! The files are made by `tests/generate` (a grid map, about two roads and a
//! tenth of a force per region).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;
use umpire::files;
use umpire::store::{Overwrite, Store};

#[path = "../tests/generate/mod.rs"]
mod generate;
use generate::generate;

/// Checks the campaign file in `dir` and its map, and creates a save from it.
fn check_and_new(dir: &Path) -> bool {
    let checked = files::load_campaign(&dir.join("campaign.toml"));
    let Some(campaign) = checked.value else {
        return false;
    };
    let campaign = umpire::strategy::fog::begin(&campaign);
    Store::create(&dir.join("save.umpire"), &campaign, Overwrite::Replace).is_ok()
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("check and new");
    group.sampling_mode(SamplingMode::Flat);
    group.warm_up_time(Duration::from_millis(500));
    for n in [1_000, 10_000, 100_000] {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let (map, campaign) = generate(n);
        std::fs::write(dir.path().join("map.toml"), map).unwrap();
        std::fs::write(dir.path().join("campaign.toml"), campaign).unwrap();
        assert!(
            check_and_new(dir.path()),
            "the generated campaign of {n} regions checks"
        );
        group.sample_size(if n >= 100_000 { 10 } else { 20 });
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| black_box(check_and_new(black_box(dir.path()))))
        });
    }
    group.finish();
}

criterion_group!(check, benches);
criterion_main!(check);
