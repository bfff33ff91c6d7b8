//! The whole `umpire turn` and `umpire undo` on a generated campaign of 10,000
//! regions and 2,000 marching forces (`generated::generate_campaign`): open the
//! save, load the campaign and the orders, resolve the game move and commit it;
//! and undo it. Before measuring, it prints the save's size when created and
//! its growth per game move over ten game moves.
//!
//! Goals (issue 13, fault 9): the whole turn under 100 ms and the save growing
//! under 200 KB a game move. Set `UMPIRE_BENCH_SAVE_DIR` to keep the new save
//! there (`generated-10000.umpire`), to time the real binary on it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};
use umpire::store::{Overwrite, Store};
use umpire::strategy::resolve;

mod generated;
use generated::generate_campaign;

const REGIONS: usize = 10_000;

/// What `umpire turn SAVE` does, without the printing.
fn turn(save: &Path) {
    let (mut store, campaign, at) = Store::open_and_load_at(save).unwrap();
    let orders = store.pending_orders().unwrap();
    let outcome = resolve(&campaign, &orders);
    store.commit_turn(at, &campaign, &outcome).unwrap();
}

/// What `umpire undo SAVE` does, without the printing.
fn undo(save: &Path) {
    let mut store = Store::open(save).unwrap();
    let at = store.revision().unwrap();
    store.undo(at).unwrap();
}

/// The save's size on disk, its write-ahead log folded in.
fn size(save: &Path) -> u64 {
    // Opening and closing folds the log into the file.
    drop(Store::open(save).unwrap());
    std::fs::metadata(save).unwrap().len()
}

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join(format!("generated-{REGIONS}.umpire"));
    let campaign = generate_campaign(REGIONS);
    Store::create(&save, &campaign, Overwrite::Replace).unwrap();
    if let Some(keep) = std::env::var_os("UMPIRE_BENCH_SAVE_DIR") {
        std::fs::copy(&save, Path::new(&keep).join(save.file_name().unwrap())).unwrap();
    }
    let created = size(&save);
    let moves = 10;
    let mut sizes = vec![created];
    for _ in 0..moves {
        turn(&save);
        sizes.push(size(&save));
    }
    let growth: Vec<String> = sizes
        .windows(2)
        .map(|w| format!("{}", (w[1] as i64 - w[0] as i64) / 1024))
        .collect();
    eprintln!(
        "{REGIONS} regions, {} forces: the save is {} KB created, {} KB after {moves} game moves, \
         {} KB a game move on average (KB per move: {})",
        campaign.forces.len(),
        created / 1024,
        sizes[moves] / 1024,
        (sizes[moves] - created) / 1024 / moves as u64,
        growth.join(", ")
    );
    for _ in 0..moves - 1 {
        undo(&save);
    }

    let mut group = c.benchmark_group(format!("the whole command on {REGIONS} regions"));
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10));
    // Each turn is undone (not timed) so every sample resolves the same game move.
    group.bench_function("turn (open, load, resolve, commit)", |b| {
        b.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            for _ in 0..iters {
                let start = Instant::now();
                turn(black_box(&save));
                spent += start.elapsed();
                undo(&save);
            }
            spent
        })
    });
    group.bench_function("undo (open, rebuild, write back)", |b| {
        b.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            for _ in 0..iters {
                turn(&save);
                let start = Instant::now();
                undo(black_box(&save));
                spent += start.elapsed();
            }
            spent
        })
    });
    group.finish();
}

criterion_group!(save, benches);
criterion_main!(save);
