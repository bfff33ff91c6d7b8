//! `umpire map generate` and `umpire map import`: map files made, checked as
//! `umpire check` checks them, and written only when they pass.

use super::{count, plural, print_diagnostics};
use anyhow::{Context, Result, bail};
use clap::{Subcommand, ValueEnum};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use umpire::files;
use umpire::map_tools::generate::{GenerateOptions, Layout, generate_map};
use umpire::map_tools::import::{ImportOptions, Units, import_geojson};
use umpire::model::check::{Source, check_map};
use umpire::model::map_file::map_file_text;
use umpire::model::text::printable;
use umpire::model::{Map, Severity};

#[derive(Debug, Subcommand)]
pub(crate) enum MapTool {
    /// Make a random map file: regions over a landmass with a sea to the north,
    /// roads and tracks between neighbours, rivers with their bridges and fords,
    /// a railway. The same --regions and --seed give the same file.
    Generate {
        /// How many regions.
        #[arg(long, default_value_t = 40)]
        regions: usize,
        /// The seed of the random stream.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Regions as the cells of scattered points, or as hexagons.
        #[arg(long, value_enum, default_value_t = LayoutArg::Voronoi)]
        layout: LayoutArg,
        /// Replace OUT if it already exists.
        #[arg(long)]
        force: bool,
        /// The map file to write, e.g. maps/island.toml.
        out: PathBuf,
    },
    /// Make a map file from GeoJSON: Points and Polygons become regions (their
    /// `name`), LineStrings roads between the regions they pass (or rivers and
    /// canals with `kind`), water polygons lakes and sea. What is left out is said.
    Import {
        /// The GeoJSON file.
        file: PathBuf,
        /// The map file to write, e.g. maps/our_county.toml.
        out: PathBuf,
        /// The map's name (by default the GeoJSON file's name).
        #[arg(long)]
        name: Option<String>,
        /// The property holding each region's name.
        #[arg(long, default_value = "name")]
        name_property: String,
        /// The coordinates' units: longitude and latitude (GeoJSON's own), or a
        /// projected grid in miles or kilometres.
        #[arg(long, value_enum, default_value_t = UnitsArg::Degrees)]
        units: UnitsArg,
        /// Replace OUT if it already exists.
        #[arg(long)]
        force: bool,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum LayoutArg {
    Voronoi,
    Hex,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum UnitsArg {
    Degrees,
    Miles,
    Km,
}

pub(crate) fn run(tool: MapTool) -> Result<ExitCode> {
    match tool {
        MapTool::Generate {
            regions,
            seed,
            layout,
            force,
            out,
        } => {
            refuse_overwrite(&out, force)?;
            let layout = match layout {
                LayoutArg::Voronoi => Layout::Voronoi,
                LayoutArg::Hex => Layout::Hex,
            };
            let map = generate_map(&GenerateOptions {
                regions,
                seed,
                layout,
            })?;
            let how = format!(
                "Written by `umpire map generate --regions {regions} --seed {seed}{}`.",
                if layout == Layout::Hex {
                    " --layout hex"
                } else {
                    ""
                }
            );
            write_checked(&map, &how, &out)
        }
        MapTool::Import {
            file,
            out,
            name,
            name_property,
            units,
            force,
        } => {
            refuse_overwrite(&out, force)?;
            let text =
                std::fs::read_to_string(&file).with_context(|| format!("cannot read {}", file.display()))?;
            let name = name.unwrap_or_else(|| {
                let stem = file.file_stem().map_or_else(
                    || "imported map".to_owned(),
                    |s| s.to_string_lossy().replace('_', " "),
                );
                let mut chars = stem.chars();
                chars
                    .next()
                    .map(|first| first.to_uppercase().chain(chars).collect())
                    .unwrap_or(stem)
            });
            let units = match units {
                UnitsArg::Degrees => Units::Degrees,
                UnitsArg::Miles => Units::Miles,
                UnitsArg::Km => Units::Kilometres,
            };
            let imported = import_geojson(
                &text,
                &ImportOptions {
                    name,
                    name_property,
                    units,
                },
            )
            .with_context(|| format!("{}: nothing imported", file.display()))?;
            let mut stdout = std::io::stdout().lock();
            for note in &imported.notes {
                writeln!(stdout, "{}: {note}", file.display())?;
            }
            drop(stdout);
            let how = format!("Written by `umpire map import {}`.", file.display());
            write_checked(&imported.map, &how, &out)
        }
    }
}

fn refuse_overwrite(out: &Path, force: bool) -> Result<()> {
    if out.exists() && !force {
        bail!(
            "{} already exists: give --force to replace it, or another name",
            out.display()
        );
    }
    Ok(())
}

/// Writes `map` to `out` when its text passes the map check; else says every
/// problem at its line of the text that would have been written, and writes nothing.
fn write_checked(map: &Map, how: &str, out: &Path) -> Result<ExitCode> {
    let text = map_file_text(map, how)?;
    let name = out.display().to_string();
    let checked = check_map(Source {
        name: &name,
        text: &text,
    });
    let mut stdout = std::io::stdout().lock();
    print_diagnostics(&mut stdout, &checked.diagnostics)?;
    let errors = count(&checked.diagnostics, Severity::Error);
    if errors > 0 || checked.value.is_none() {
        writeln!(
            stdout,
            "{name}: not written: the map would have {} (fix the input and run again)",
            plural(errors, "error")
        )?;
        return Ok(ExitCode::FAILURE);
    }
    files::write_file(out, text.as_bytes())?;
    let rivers = map.waters.iter().filter(|w| !w.kind.is_area()).count();
    writeln!(
        stdout,
        "wrote {name}: map \"{}\": {}, {}, {}, {} KB",
        printable(&map.name),
        plural(map.regions.len(), "region"),
        plural(map.roads.len(), "road"),
        plural(rivers, "river or canal"),
        text.len().div_ceil(1024)
    )?;
    Ok(ExitCode::SUCCESS)
}
