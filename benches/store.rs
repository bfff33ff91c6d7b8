//! Speed of the foundation's everyday work on the bundled Egyptian Rebellion:
//! reading and checking the campaign files, creating a save, and opening a
//! save to read its state and status.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;
use umpire::files;
use umpire::model::status::Status;
use umpire::store::{Overwrite, Store};

fn campaign_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("campaigns/egyptian_rebellion_1895.toml")
}

fn benches(c: &mut Criterion) {
    let path = campaign_path();
    c.bench_function("check egyptian_rebellion_1895.toml and its map", |b| {
        b.iter(|| black_box(files::load_campaign(black_box(&path))))
    });

    let Some(campaign) = files::load_campaign(&path).value else {
        eprintln!("the bundled campaign does not check; run `umpire check` on it");
        return;
    };
    let dir = std::env::temp_dir().join(format!("umpire-bench-{}", std::process::id()));
    if std::fs::create_dir_all(&dir).is_err() {
        eprintln!("cannot create {}", dir.display());
        return;
    }
    let save = dir.join("rebellion.umpire");
    c.bench_function("create a save of the Egyptian Rebellion", |b| {
        b.iter(|| black_box(Store::create(&save, &campaign, Overwrite::Replace).is_ok()))
    });
    c.bench_function("open the save, load the campaign and build its status", |b| {
        b.iter(|| {
            let store = Store::open(&save).ok();
            black_box(store.and_then(|s| s.load().ok()).map(|c| Status::of(&c)))
        })
    });
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(name = store; config = Criterion::default().sample_size(30); targets = benches);
criterion_main!(store);
