//! Generated map and campaign files of any size, for the hardening tests
//! (`tests/hardening.rs`) and the check benchmark (`benches/check.rs`).
//!
//! The map is a grid, 10 miles between neighbours, each region joined to its
//! east and south neighbours by road (about two roads per region); the
//! campaign has two sides, red in the west and blue in the east, with one
//! force of three stands for every ten regions.
#![allow(dead_code, clippy::unwrap_used)]

use std::fmt::Write;

/// The text of a generated map of `n` regions and of its campaign.
pub fn generate(n: usize) -> (String, String) {
    let cols = n.isqrt().max(2);
    let terrains = ["open", "cultivated", "hills", "desert"];
    let mut map = format!("name = \"Generated map of {n} regions\"\n");
    for i in 0..n {
        let (x, y) = ((i % cols) * 10, (i / cols) * 10);
        let terrain = terrains.get(i % terrains.len()).copied().unwrap_or("open");
        write!(
            map,
            "\n[[regions]]\nid = \"r{i}\"\nname = \"Region {i}\"\nterrain = \"{terrain}\"\nx = {x}.0\ny = {y}.0\n"
        )
        .unwrap();
    }
    for i in 0..n {
        let mut road = |j: usize| {
            write!(
                map,
                "\n[[roads]]\nfrom = \"r{i}\"\nto = \"r{j}\"\nkind = \"road\"\nmiles = 10.0\n"
            )
            .unwrap();
        };
        if i % cols + 1 < cols && i + 1 < n {
            road(i + 1);
        }
        if i + cols < n {
            road(i + cols);
        }
    }
    let west = |row: usize| (row * cols).min(n - 1);
    let east = |row: usize| (row * cols + cols - 1).min(n - 1);
    let mut campaign = String::from(
        "title = \"Generated campaign\"\nmap = \"map.toml\"\nstart_date = 1895-03-01\nseed = 7\nrules = \"scruby-1965\"\n\n\
         [[sides]]\nid = \"red\"\nname = \"Red\"\ncolour = \"#cc0000\"\narmy = \"regular\"\n\n\
         [[sides]]\nid = \"blue\"\nname = \"Blue\"\ncolour = \"#0000cc\"\narmy = \"regular\"\n",
    );
    for (side, place) in [("red", west(0)), ("blue", east(0))] {
        for wing in ["left", "centre", "right"] {
            write!(
                campaign,
                "\n[[hqs]]\nside = \"{side}\"\nwing = \"{wing}\"\nregion = \"r{place}\"\n"
            )
            .unwrap();
        }
    }
    let rows = n.div_ceil(cols);
    let mut stand = 0;
    for f in 0..n / 10 {
        let (side, region) = if f % 2 == 0 {
            ("red", west((f / 2) % rows))
        } else {
            ("blue", east((f / 2) % rows))
        };
        write!(
            campaign,
            "\n[[forces]]\nid = \"f{f}\"\nname = \"Force {f}\"\nside = \"{side}\"\nregion = \"r{region}\"\n"
        )
        .unwrap();
        for kind in ["line_infantry", "light_cavalry", "foot_artillery"] {
            stand += 1;
            write!(
                campaign,
                "\n  [[forces.stands]]\n  id = {stand}\n  name = \"Stand {stand}\"\n  kind = \"{kind}\"\n"
            )
            .unwrap();
        }
    }
    (map, campaign)
}
