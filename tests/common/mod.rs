//! Shared fixtures for the integration tests: a small valid map and campaign,
//! and a way to run the real `umpire` binary.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

pub mod armies;
pub mod fog_ground;
pub mod table;
pub mod window;
pub mod world;

use std::path::{Path, PathBuf};
use std::process::Output;

/// A small valid map: four regions in a chain, a bridge over a river.
pub const MAP: &str = r##"name = "Test valley"

[[regions]]
id = "north"
name = "North Town"
terrain = "urban"
x = 0.0
y = 0.0
features = ["town", "bridge"]

[[regions]]
id = "ford"
name = "The Ford"
terrain = "open"
x = 5.0
y = 5.0
features = ["ford"]

[[regions]]
id = "south"
name = "South Hills"
terrain = "hills"
x = 10.0
y = 10.0

[[regions]]
id = "east"
name = "East Farm"
terrain = "cultivated"
x = 15.0
y = 5.0
features = ["farm"]

[[roads]]
from = "north"
to = "ford"
kind = "road"
miles = 8.0
river = "bridge"

[[roads]]
from = "ford"
to = "south"
kind = "track"
miles = 7.5

[[roads]]
from = "south"
to = "east"
kind = "railway"
miles = 7.1
"##;

/// A small valid campaign on [`MAP`] (saved as `map.toml` beside it).
pub const CAMPAIGN: &str = r##"title = "Test campaign"
map = "map.toml"
start_date = 1895-03-01
seed = 7
rules = "scruby-1965"

[[sides]]
id = "red"
name = "Red Army"
colour = "#cc0000"
army = "regular"

[[sides]]
id = "blue"
name = "Blue Army"
colour = "#0000cc"
army = "native"

[[hqs]]
side = "red"
wing = "left"
region = "north"

[[hqs]]
side = "red"
wing = "centre"
region = "north"

[[hqs]]
side = "red"
wing = "right"
region = "ford"

[[hqs]]
side = "blue"
wing = "left"
region = "south"

[[hqs]]
side = "blue"
wing = "centre"
region = "east"

[[hqs]]
side = "blue"
wing = "right"
region = "east"

[[forces]]
id = "red-column"
name = "Red Column"
side = "red"
region = "north"

  [[forces.stands]]
  id = 1
  name = "1st Company"
  kind = "line_infantry"
  quality = "elite"

  [[forces.stands]]
  id = 2
  name = "2nd Company"
  kind = "line_infantry"
  strength = 60

[[forces]]
id = "blue-host"
name = "Blue Host"
side = "blue"
region = "south"

  [[forces.stands]]
  id = 10
  name = "Spearmen of the Hills"
  kind = "native_spearmen"
  quality = "raw"

  [[forces.stands]]
  id = 11
  name = "Riflemen of the Hills"
  kind = "native_riflemen"
"##;

/// The `umpire` binary built for these tests.
pub fn umpire_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_umpire"))
}

/// Runs `umpire` with `args` in `dir`.
pub fn umpire(dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new(umpire_bin())
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the umpire binary runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A temporary folder holding `map.toml` and `campaign.toml`.
pub fn campaign_dir(map: &str, campaign: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(dir.path().join("map.toml"), map).unwrap();
    std::fs::write(dir.path().join("campaign.toml"), campaign).unwrap();
    dir
}

/// The repository's root, where `campaigns/` and `maps/` are.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `umpire status` text as it printed before issue 15 added what players
/// need to write orders: the force and stand ids (a column before each force's
/// name and a line for each stand) and a march's arrival. For the tests
/// that check a save still prints what an older release printed.
pub fn status_text_before_ids(text: &str) -> String {
    let mut out = String::new();
    let mut in_forces = false;
    for line in text.lines() {
        if line.is_empty() || !line.starts_with("  ") {
            in_forces = !line.is_empty() && line.contains(" army)");
        }
        let force_line = in_forces && line.starts_with("  ") && !line.starts_with("  HQ ");
        if force_line && line.starts_with("      stand ") {
            continue;
        }
        let line = if force_line {
            // Past the indent, the id (none for a blind) and the spaces after it.
            let rest = &line[2..];
            let after_id = rest.trim_start_matches(|c: char| c != ' ');
            let name_column = line.len() - after_id.trim_start().len();
            format!("  {}", &line[name_column..])
        } else {
            line.to_owned()
        };
        out.push_str(&remove_arrival(&line));
        out.push('\n');
    }
    out
}

/// The line without ", arrives game move N".
fn remove_arrival(line: &str) -> String {
    match line.find(", arrives game move ") {
        Some(at) => {
            let rest = &line[at + ", arrives game move ".len()..];
            let digits = rest.chars().take_while(char::is_ascii_digit).count();
            format!("{}{}", &line[..at], &rest[digits..])
        }
        None => line.to_owned(),
    }
}

/// `umpire status --json` without the fields added since an older release
/// (issue 15: `arrives_turn`), to compare with what that release wrote.
pub fn status_json_before_arrivals(json: &str) -> serde_json::Value {
    fn strip(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Object(map) => {
                map.remove("arrives_turn");
                map.values_mut().for_each(strip);
            }
            serde_json::Value::Array(list) => list.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut value: serde_json::Value = serde_json::from_str(json).expect("status JSON");
    strip(&mut value);
    value
}
