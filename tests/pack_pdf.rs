//! The battle pack's `pack.pdf` through the CLI, on the Egyptian Rebellion's
//! battle at Beni Suef: the sheets of table printed at 100% measure the
//! table's inches (pages and offsets from the table's size and the paper,
//! and the table's edges where the offsets put them on the rendered sheets),
//! and the results sheet in the PDF carries what `result.toml` carries.
//!
//! Reads the PDF with Debian's poppler-utils (`pdfinfo`, `pdftotext`,
//! `pdftoppm`), which `.ci/run` installs when missing.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use umpire::handoff::pack_pdf::table_inches;
use umpire::handoff::tiles::{MARGIN, OVERLAP, Paper, TileLayout, tile_layout};
use umpire::scenario::Scenario;

fn ok(dir: &Path, args: &[&str]) -> String {
    let out = umpire(dir, args);
    assert!(
        out.status.success(),
        "umpire {args:?} failed:\n{}{}",
        stdout(&out),
        stderr(&out)
    );
    stdout(&out)
}

/// A poppler tool's output; fails plainly when the tool is missing.
fn poppler(tool: &str, args: &[&str]) -> Vec<u8> {
    let out = Command::new(tool).args(args).output().unwrap_or_else(|e| {
        panic!("{tool} did not run ({e}): install Debian's poppler-utils (.ci/run does)")
    });
    assert!(
        out.status.success(),
        "{tool} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// A save of the Egyptian Rebellion with battle 1 pending at Beni Suef.
fn beni_suef(dir: &Path) -> PathBuf {
    let repo = repo();
    let campaign = repo.join("campaigns/egyptian_rebellion_1895.toml");
    ok(dir, &["new", campaign.to_str().unwrap(), "war.umpire"]);
    for (side, file) in [("british", "british_move1.toml"), ("rebels", "rebels_move1.toml")] {
        let orders = repo.join("campaigns/orders").join(file);
        ok(dir, &["orders", "war.umpire", side, orders.to_str().unwrap()]);
    }
    for _ in 0..4 {
        ok(dir, &["turn", "war.umpire"]);
    }
    dir.join("war.umpire")
}

/// The PDF's pages as text, in order.
fn pages_text(pdf: &Path) -> Vec<String> {
    let text = poppler("pdftotext", &["-layout", pdf.to_str().unwrap(), "-"]);
    let text = String::from_utf8(text).unwrap();
    let mut pages: Vec<String> = text.split('\u{c}').map(str::to_owned).collect();
    if pages.last().is_some_and(|p| p.trim().is_empty()) {
        pages.pop();
    }
    pages
}

/// Page `page`'s size in points, as pdfinfo reads it.
fn page_size(pdf: &Path, page: usize) -> (f64, f64) {
    let p = page.to_string();
    let info = poppler("pdfinfo", &["-f", &p, "-l", &p, pdf.to_str().unwrap()]);
    let info = String::from_utf8(info).unwrap();
    let line = info
        .lines()
        .find(|l| l.starts_with("Page") && l.contains("size:"))
        .unwrap_or_else(|| panic!("no page size in {info}"));
    let numbers: Vec<f64> = line
        .split_once("size:")
        .unwrap()
        .1
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    (numbers[0], numbers[1])
}

/// Page `page` rendered at 72 dpi, a pixel to the point.
fn render(pdf: &Path, page: usize, dir: &Path) -> image::RgbImage {
    let p = page.to_string();
    let stem = dir.join(format!("page{page}"));
    poppler(
        "pdftoppm",
        &[
            "-png",
            "-r",
            "72",
            "-singlefile",
            "-f",
            &p,
            "-l",
            &p,
            pdf.to_str().unwrap(),
            stem.to_str().unwrap(),
        ],
    );
    image::open(stem.with_extension("png")).unwrap().to_rgb8()
}

fn dark(p: image::Rgb<u8>) -> bool {
    p.0.iter().all(|c| *c < 90)
}

fn white(p: image::Rgb<u8>) -> bool {
    p.0.iter().all(|c| *c > 245)
}

/// The tile pages: their page numbers (from 1) and the tile each names.
fn tile_pages(pages: &[String], layout: &TileLayout) -> Vec<(usize, u64, u64)> {
    let mut out = Vec::new();
    for (i, text) in pages.iter().enumerate() {
        let Some(at) = text.find("column ") else { continue };
        let words: Vec<&str> = text[at..].split_whitespace().take(8).collect();
        // "column C of N, row R of M"
        if words.len() < 8 || words[2] != "of" || words[4] != "row" {
            continue;
        }
        let c: u64 = words[1].parse().unwrap();
        let columns: u64 = words[3].trim_end_matches(',').parse().unwrap();
        let r: u64 = words[5].parse().unwrap();
        let rows: u64 = words[7].parse().unwrap();
        assert_eq!((columns, rows), (layout.columns, layout.rows), "page {}", i + 1);
        out.push((i + 1, c - 1, r - 1));
    }
    out
}

#[test]
fn the_sheets_at_100_percent_measure_the_table_on_a4_and_letter() {
    let dir = tempfile::tempdir().unwrap();
    let save = beni_suef(dir.path());
    let save = save.to_str().unwrap();
    for (paper, word, sheets) in [(Paper::A4, "a4", 98), (Paper::Letter, "letter", 100)] {
        let out = format!("pack-{word}");
        ok(
            dir.path(),
            &["scenario", save, "1", "--out", &out, "--paper", word],
        );
        let pack = dir.path().join(&out);
        let pdf = pack.join("pack.pdf");
        let scenario: Scenario =
            serde_json::from_str(&std::fs::read_to_string(pack.join("scenario.json")).unwrap()).unwrap();
        let (w, d) = table_inches(&scenario.table);
        assert_eq!((w, d), (96.0, 72.0), "Beni Suef is an 8 x 6 ft table");
        let layout = tile_layout(w, d, paper, MARGIN, OVERLAP);
        assert_eq!(layout.count(), sheets, "{word}");

        // One page per tile, row by row, each of the paper's size.
        let pages = pages_text(&pdf);
        let tiles = tile_pages(&pages, &layout);
        assert_eq!(tiles.len() as u64, layout.count(), "{word}: a page per sheet");
        let expected: Vec<(u64, u64)> = layout.tiles().map(|t| (t.column, t.row)).collect();
        let found: Vec<(u64, u64)> = tiles.iter().map(|t| (t.1, t.2)).collect();
        assert_eq!(found, expected, "{word}: the sheets in order");
        let first = tiles[0].0;
        assert_eq!(tiles.last().unwrap().0, pages.len(), "the sheets come last");
        let (pw, ph) = page_size(&pdf, first);
        assert!(
            (pw - layout.page_w * 72.0).abs() < 0.05 && (ph - layout.page_h * 72.0).abs() < 0.05,
            "{word}: a sheet is {pw} x {ph} pt"
        );
        // Each sheet says which part of the table it shows: the offsets.
        for &(page, c, r) in &tiles {
            let t = layout.tile(c, r);
            let words = format!("table {:.1}-{:.1} in across", t.x, t.x + t.w);
            assert!(pages[page - 1].contains(&words), "page {page}: {words}");
        }
        // The page map names the pages.
        let last = first + tiles.len() - 1;
        assert!(
            pages
                .iter()
                .any(|p| p.contains(&format!("pages {first} to {last}"))),
            "{word}: the page map names pages {first} to {last}"
        );

        // On the rendered sheets the table's edges are where the offsets
        // put them at 72 points to the inch: the left and top on A1, the
        // right on the last column, the bottom on the last row.
        let m = layout.margin * 72.0;
        let page_of = |c: u64, r: u64| tiles.iter().find(|t| (t.1, t.2) == (c, r)).unwrap().0;
        let a1 = render(&pdf, page_of(0, 0), dir.path());
        let right_tile = layout.tile(layout.columns - 1, 0);
        let right = render(&pdf, page_of(layout.columns - 1, 0), dir.path());
        let bottom_tile = layout.tile(0, layout.rows - 1);
        let bottom = render(&pdf, page_of(0, layout.rows - 1), dir.path());
        let across = |edge: f64| (m + edge * 72.0).round() as u32;
        let samples = |len: f64| (1..=5).map(move |i| (m + len * 72.0 * f64::from(i) / 6.0) as u32);
        for y in samples(layout.window_h) {
            let x = across(0.0);
            assert!(
                (x - 1..=x + 1).any(|x| dark(*a1.get_pixel(x, y))),
                "{word}: A1's left edge at {x}, {y}"
            );
            let x = across(w - right_tile.x);
            assert!(
                (x - 1..=x + 1).any(|x| dark(*right.get_pixel(x, y))),
                "{word}: the right edge at {x}, {y} on the last column"
            );
            assert!(
                white(*right.get_pixel(x + 6, y)),
                "{word}: off the table right of {x}, {y}"
            );
            assert!(
                !white(*right.get_pixel(x - 6, y)),
                "{word}: table left of {x}, {y}"
            );
        }
        for x in samples(layout.window_w) {
            let y = across(0.0);
            assert!(
                (y - 1..=y + 1).any(|y| dark(*a1.get_pixel(x, y))),
                "{word}: A1's top edge at {x}, {y}"
            );
            let y = across(d - bottom_tile.y);
            assert!(
                (y - 1..=y + 1).any(|y| dark(*bottom.get_pixel(x, y))),
                "{word}: the near edge at {x}, {y} on the last row"
            );
            assert!(
                white(*bottom.get_pixel(x, y + 6)),
                "{word}: off the table below {x}, {y}"
            );
        }
    }
}

#[test]
fn the_results_sheet_in_the_pdf_carries_what_result_toml_does() {
    let dir = tempfile::tempdir().unwrap();
    let save = beni_suef(dir.path());
    ok(
        dir.path(),
        &["scenario", save.to_str().unwrap(), "1", "--out", "pack"],
    );
    let pack = dir.path().join("pack");
    let pdf = pack.join("pack.pdf");
    let sheet: toml::Table = std::fs::read_to_string(pack.join("result.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let pages = pages_text(&pdf);
    let page = pages
        .iter()
        .find(|p| p.contains("Results sheet: battle 1"))
        .expect("a results sheet with the battle's id");
    let lines: Vec<Vec<&str>> = page.lines().map(|l| l.split_whitespace().collect()).collect();
    let line_of = |words: &[String]| {
        lines
            .iter()
            .filter(|l| {
                let joined = l.join(" ");
                l.first().copied() == words.first().map(String::as_str)
                    && words.iter().all(|w| joined.contains(w.as_str()))
            })
            .count()
    };
    for key in ["campaign", "battle", "turn", "region", "rules"] {
        let value = match &sheet[key] {
            toml::Value::String(s) => s.clone(),
            v => v.to_string(),
        };
        assert_eq!(line_of(&[key.to_owned(), value.clone()]), 1, "{key} = {value}");
    }
    assert!(page.contains("winner") && page.contains("notes"));
    let stands = sheet["stands"].as_array().unwrap();
    assert_eq!(stands.len(), 22, "every stand of the battle");
    for s in stands {
        let s = s.as_table().unwrap();
        let words: Vec<String> = ["id", "name", "side", "kind", "before"]
            .iter()
            .map(|k| match &s[*k] {
                toml::Value::String(v) => v.clone(),
                v => v.to_string(),
            })
            .collect();
        assert_eq!(line_of(&words), 1, "the stand {words:?} on its own line");
    }
    // Stand lines are all the sheet's lines that start with an id.
    let ids = lines
        .iter()
        .filter(|l| l.len() > 4 && l[0].parse::<u32>().is_ok())
        .count();
    assert_eq!(ids, stands.len(), "no stand the sheet does not have");
    // Each side's roster lists every stand of the side, with what its loss
    // boxes count (under 1965, a tenth of its points each).
    for (side, name) in [
        ("british", "British Field Force (defender)"),
        ("rebels", "Army of the Rebellion (attacker)"),
    ] {
        let roster: String = pages
            .iter()
            .filter(|p| p.contains(&format!("Roster: {name}")))
            .cloned()
            .collect();
        assert!(!roster.is_empty(), "a roster for {name}");
        for s in stands.iter().filter(|s| s["side"].as_str() == Some(side)) {
            let stand_name = s["name"].as_str().unwrap();
            let first_word = stand_name.split_whitespace().next().unwrap();
            assert!(roster.contains(first_word), "{stand_name} on {name}'s roster");
            // Every stand comes at full strength here: a box is a tenth of it.
            let tenth = s["before"].as_integer().unwrap() / 10;
            assert!(
                roster.contains(&format!("{tenth} points")),
                "{stand_name}: {roster}"
            );
        }
    }
    // The font is in the file.
    let fonts = String::from_utf8(poppler("pdffonts", &[pdf.to_str().unwrap()])).unwrap();
    let row = fonts.lines().find(|l| l.contains("Ubuntu-Light")).unwrap();
    assert_eq!(row.split_whitespace().nth(4), Some("yes"), "embedded: {fonts}");
}

#[test]
fn an_unknown_paper_is_refused_with_the_choices() {
    let dir = tempfile::tempdir().unwrap();
    let save = beni_suef(dir.path());
    let out = umpire(
        dir.path(),
        &[
            "scenario",
            save.to_str().unwrap(),
            "1",
            "--out",
            "pack",
            "--paper",
            "legal",
        ],
    );
    assert!(!out.status.success());
    let text = stderr(&out);
    assert!(text.contains("legal") && text.contains("a4, letter"), "{text}");
    assert!(!dir.path().join("pack").exists(), "nothing written");
}

/// The roster's tick boxes count what the order of battle's muster names:
/// figures (1961), models (Basic), Combat Value (Harman), else tenths of the
/// stand's points, at full strength and after losses.
#[test]
fn the_rosters_boxes_are_the_losses_the_rule_set_counts() {
    use umpire::model::{ArmyKind, Quality, RuleSetId, StandId, StandKind};
    use umpire::rules::{Losses, rule_set};
    use umpire::scenario::TableStand;
    let stand = |kind: StandKind, strength: u32, full: u32| TableStand {
        id: StandId(1),
        name: "A".into(),
        kind,
        quality: Quality::Trained,
        strength,
        full,
        at: None,
        weapon: None,
    };
    let kinds = [
        StandKind::LineInfantry,
        StandKind::LightCavalry,
        StandKind::FootArtillery,
    ];
    for id in [
        RuleSetId::Scruby1961,
        RuleSetId::ScrubyBasic,
        RuleSetId::Harman2021,
        RuleSetId::Scruby1965,
        RuleSetId::Cordery2009,
    ] {
        let rules = rule_set(id).unwrap();
        for kind in kinds {
            for (strength, full) in [(100, 100), (55, 100), (30, 30), (1, 60), (0, 100)] {
                let s = stand(kind, strength, full);
                let losses = rules.losses(&s, ArmyKind::Regular);
                let muster = rules.muster(&s, ArmyKind::Regular);
                let said = match (id, losses.each.as_str()) {
                    (RuleSetId::Scruby1961, "figure") => format!("{} of ", losses.boxes),
                    (RuleSetId::Scruby1961, "cannon") => {
                        assert_eq!(losses.boxes, u32::from(strength > 0), "{id} {kind:?}");
                        continue;
                    }
                    (RuleSetId::ScrubyBasic, "model") => format!("{} of ", losses.boxes),
                    (RuleSetId::Harman2021, "Combat Value") => format!("Combat Value {},", losses.boxes),
                    (RuleSetId::Scruby1965 | RuleSetId::Cordery2009, _) => {
                        assert_eq!(losses, Losses::in_points(&s));
                        assert_eq!(
                            losses.boxes,
                            strength.div_ceil(full / 10),
                            "{id} {strength}/{full}"
                        );
                        continue;
                    }
                    (_, each) => panic!("{id}: a box is {each}?"),
                };
                assert!(
                    muster.contains(&said),
                    "{id} {kind:?} {strength}/{full}: {said:?} in {muster:?}"
                );
            }
        }
    }
}
