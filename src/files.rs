//! The only code that reads and writes a person's files: maps, campaigns,
//! orders, scenarios, results sheets and reports read; battle packs, reports,
//! orders files and screenshots written.
//!
//! The I/O edge for `model::check`: this module reads bytes, the model checks
//! them. Unreadable files become diagnostics like any other problem, so a
//! caller reports everything in one place. Every file is written beside its
//! place under a temporary name and renamed over it, so a reader never sees
//! half a file.

use crate::model::check::{self, Checked, FileKind, Source};
use crate::model::{Campaign, Diagnostic, Location, Map, Severity};
use std::path::Path;

/// A file `umpire check` understood.
#[derive(Debug, Clone)]
pub enum Checkable {
    Map(Map),
    Campaign(Box<Campaign>),
}

/// How a path is named in messages.
fn display_name(path: &Path) -> String {
    path.display().to_string()
}

fn read_text(path: &Path) -> Result<String, Diagnostic> {
    let problem = |message: String| Diagnostic {
        file: display_name(path),
        location: Location { line: 1, column: 1 },
        severity: Severity::Error,
        message,
    };
    let bytes = std::fs::read(path).map_err(|e| problem(format!("cannot read the file: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        problem(format!(
            "the file is not UTF-8 text (bad byte at offset {}): save it as UTF-8",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Reads and checks a map file. A background picture it names that is not
/// there is a warning: the map works without it.
pub fn load_map(path: &Path) -> Checked<Map> {
    let mut checked = match read_text(path) {
        Ok(text) => check::check_map(Source {
            name: &display_name(path),
            text: &text,
        }),
        Err(problem) => Checked::failed(problem),
    };
    if let Some(warning) = checked.value.as_ref().and_then(|m| missing_picture(path, m)) {
        checked.diagnostics.push(warning);
    }
    checked
}

/// A warning when the map names a background picture that is not beside it.
fn missing_picture(path: &Path, map: &Map) -> Option<Diagnostic> {
    let background = map.background.as_ref()?;
    let picture = picture_path(path, &background.file);
    (!picture.is_file()).then(|| Diagnostic {
        file: display_name(path),
        location: Location { line: 1, column: 1 },
        severity: Severity::Warning,
        message: format!(
            "[background] file `{}` not found (looked for {}): the map is drawn without it",
            background.file,
            picture.display()
        ),
    })
}

fn picture_path(map_path: &Path, file: &str) -> std::path::PathBuf {
    map_path.parent().unwrap_or(Path::new("")).join(file)
}

/// The bytes of a PNG picture (a map's background, for the map maker).
pub fn read_picture(path: &Path) -> Result<Vec<u8>, Diagnostic> {
    let problem = |message: String| Diagnostic {
        file: display_name(path),
        location: Location { line: 1, column: 1 },
        severity: Severity::Error,
        message,
    };
    let bytes = std::fs::read(path).map_err(|e| problem(format!("cannot read the picture: {e}")))?;
    if !bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Err(problem("the picture is not a PNG file".to_owned()));
    }
    Ok(bytes)
}

/// The bytes of the background picture the campaign's map names, read from
/// beside the map file; `None` when the map names none.
pub fn load_map_picture(campaign_path: &Path, campaign: &Campaign) -> Result<Option<Vec<u8>>, Diagnostic> {
    let Some(background) = &campaign.map.background else {
        return Ok(None);
    };
    let text = read_text(campaign_path)?;
    let name = display_name(campaign_path);
    let map_path = match check::read_campaign(Source {
        name: &name,
        text: &text,
    }) {
        Ok(draft) => campaign_path
            .parent()
            .unwrap_or(Path::new(""))
            .join(draft.map_path()),
        Err(mut diagnostics) => {
            return Err(diagnostics.pop().unwrap_or_else(|| Diagnostic {
                file: name.clone(),
                location: Location { line: 1, column: 1 },
                severity: Severity::Error,
                message: "the campaign file cannot be read".to_owned(),
            }));
        }
    };
    let picture = picture_path(&map_path, &background.file);
    let problem = |message: String| Diagnostic {
        file: picture.display().to_string(),
        location: Location { line: 1, column: 1 },
        severity: Severity::Error,
        message,
    };
    let bytes = std::fs::read(&picture)
        .map_err(|e| problem(format!("cannot read the map's background picture: {e}")))?;
    if !bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Err(problem(
            "the map's background picture is not a PNG file".to_owned(),
        ));
    }
    Ok(Some(bytes))
}

/// Reads and checks a campaign file and the map it names (relative to the
/// campaign file's folder). Diagnostics of both files come back together.
pub fn load_campaign(path: &Path) -> Checked<Campaign> {
    let text = match read_text(path) {
        Ok(text) => text,
        Err(problem) => return Checked::failed(problem),
    };
    campaign_from_text(path, &text)
}

fn campaign_from_text(path: &Path, text: &str) -> Checked<Campaign> {
    let name = display_name(path);
    let draft = match check::read_campaign(Source { name: &name, text }) {
        Ok(draft) => draft,
        Err(diagnostics) => {
            return Checked {
                value: None,
                diagnostics,
            };
        }
    };
    let map_path = path.parent().unwrap_or(Path::new("")).join(draft.map_path());
    let mut diagnostics = Vec::new();
    let map = if draft.map_path().trim().is_empty() {
        Err(r#"map path is empty: name the map file, e.g. "../maps/egypt_1895.toml""#.to_owned())
    } else if !map_path.is_file() {
        Err(format!(
            "map file `{}` not found (looked for {}): the path is relative to this campaign file",
            draft.map_path(),
            map_path.display()
        ))
    } else {
        let loaded = load_map(&map_path);
        diagnostics.extend(loaded.diagnostics);
        loaded.value.ok_or_else(|| {
            format!(
                "the map `{}` has errors (listed above under its own file name); fix them first",
                draft.map_path()
            )
        })
    };
    let mut checked = draft.check(map);
    diagnostics.append(&mut checked.diagnostics);
    if diagnostics.iter().any(Diagnostic::is_error) {
        checked.value = None;
    }
    Checked {
        value: checked.value,
        diagnostics,
    }
}

/// Checks a map or campaign file, telling which by its contents.
pub fn check_file(path: &Path) -> Checked<Checkable> {
    let text = match read_text(path) {
        Ok(text) => text,
        Err(problem) => return Checked::failed(problem),
    };
    match check::file_kind(&text) {
        Some(FileKind::Map) => {
            let mut checked = check::check_map(Source {
                name: &display_name(path),
                text: &text,
            });
            if let Some(warning) = checked.value.as_ref().and_then(|m| missing_picture(path, m)) {
                checked.diagnostics.push(warning);
            }
            Checked {
                value: checked.value.map(Checkable::Map),
                diagnostics: checked.diagnostics,
            }
        }
        // A campaign, or neither kind, or not TOML: read it as a campaign so
        // the reader reports the syntax error or the missing keys in its own words.
        Some(FileKind::Campaign) | None => {
            let checked = campaign_from_text(path, &text);
            Checked {
                value: checked.value.map(|c| Checkable::Campaign(Box::new(c))),
                diagnostics: checked.diagnostics,
            }
        }
    }
}

/// A file of a battle pack could not be written.
#[derive(Debug, thiserror::Error)]
#[error("{path}: cannot {action}: {source}; check the folder exists and can be written to")]
pub struct WriteError {
    pub path: String,
    pub action: &'static str,
    #[source]
    pub source: std::io::Error,
}

/// Writes `files` (name and bytes) into folder `dir`, creating it. Each file
/// is written beside its place and renamed over it, so a reader never sees
/// half a file. Returns the paths written.
pub fn write_files(dir: &Path, files: &[(&str, &[u8])]) -> Result<Vec<std::path::PathBuf>, WriteError> {
    fn fail(path: &Path, action: &'static str) -> impl FnOnce(std::io::Error) -> WriteError {
        let path = display_name(path);
        move |source| WriteError { path, action, source }
    }
    std::fs::create_dir_all(dir).map_err(fail(dir, "create the folder"))?;
    let mut written = Vec::new();
    for (name, bytes) in files {
        let path = dir.join(name);
        let temp = dir.join(format!(".{name}.part"));
        std::fs::write(&temp, bytes).map_err(fail(&temp, "write"))?;
        std::fs::rename(&temp, &path).map_err(fail(&path, "put in place"))?;
        written.push(path);
    }
    Ok(written)
}

/// Writes one file, by temporary name and rename as [`write_files`] does;
/// its folder is created if missing. Returns the path written.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<std::path::PathBuf, WriteError> {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return Err(WriteError {
            path: display_name(path),
            action: "write",
            source: std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file name"),
        });
    };
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let written = write_files(dir, &[(name.as_str(), bytes)])?;
    Ok(written.into_iter().next().unwrap_or_else(|| path.to_owned()))
}

/// How a campaign file at `campaign` names the map file at `map`: relative
/// to the campaign file's folder when they share a root ("../maps/x.toml"),
/// else the map's whole path.
pub fn relative_path(campaign: &Path, map: &Path) -> String {
    // A folder not made yet is placed by the nearest one above it that is.
    fn absolute(dir: &Path) -> Option<std::path::PathBuf> {
        match std::fs::canonicalize(dir) {
            Ok(found) => Some(found),
            Err(_) => Some(absolute(dir.parent()?)?.join(dir.file_name()?)),
        }
    }
    let folder = |p: &Path| {
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => std::path::PathBuf::from("."),
        };
        absolute(&dir)
    };
    let (Some(from), Some(to), Some(name)) = (folder(campaign), folder(map), map.file_name()) else {
        return map.display().to_string();
    };
    let common = from
        .components()
        .zip(to.components())
        .take_while(|(a, b)| a == b)
        .count();
    if common == 0 {
        return to.join(name).display().to_string();
    }
    let mut parts: Vec<String> = from.components().skip(common).map(|_| "..".to_owned()).collect();
    parts.extend(
        to.components()
            .skip(common)
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.push(name.to_string_lossy().into_owned());
    parts.join("/")
}

/// Whether two paths name the same file on disk (both must exist).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Reads a text file a person filled in (a results sheet), as UTF-8.
pub fn read_sheet_text(path: &Path) -> Result<String, Diagnostic> {
    read_text(path)
}

/// Reads an orders file (for `umpire orders`), as UTF-8.
pub fn read_orders_text(path: &Path) -> Result<String, Diagnostic> {
    read_text(path)
}

/// Reads a scenario file (for `umpire battle` and `umpire odds`), as UTF-8.
pub fn read_scenario_text(path: &Path) -> Result<String, Diagnostic> {
    read_text(path)
}

/// A side's report file could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum ReportFileError {
    #[error("{0}")]
    Unreadable(Diagnostic),
    #[error("{path}{source}")]
    Bad {
        path: String,
        #[source]
        source: crate::model::report::ReportError,
    },
}

/// Reads a side's report (written by `umpire report`) for the app to open.
pub fn load_report(path: &Path) -> Result<crate::model::report::Report, ReportFileError> {
    let text = read_text(path).map_err(ReportFileError::Unreadable)?;
    crate::model::report::read_report(&text).map_err(|source| {
        let path = display_name(path);
        // A place in the file reads `path:line:column: ...`; anything else `path: ...`.
        let path = match source {
            crate::model::report::ReportError::Json { .. } => format!("{path}:"),
            _ => format!("{path}: "),
        };
        ReportFileError::Bad { path, source }
    })
}

/// What the proving ground reads: each campaign file's name with the campaign
/// checked, and each orders file's name with its text.
pub type ProvingInputs = (Vec<(String, Checked<Campaign>)>, Vec<(String, String)>);

/// The bundled campaigns in `dir` (its `*.toml`) and the orders files in
/// `dir/orders`, for the proving ground: each campaign checked with its map,
/// each orders file as text. Files are taken in name order; a campaign
/// with errors comes back as its diagnostics.
pub fn load_proving_inputs(dir: &Path) -> Result<ProvingInputs, Diagnostic> {
    let problem = |path: &Path, message: String| Diagnostic {
        file: display_name(path),
        location: Location { line: 1, column: 1 },
        severity: Severity::Error,
        message,
    };
    let tomls = |dir: &Path| -> Result<Vec<std::path::PathBuf>, Diagnostic> {
        let entries =
            std::fs::read_dir(dir).map_err(|e| problem(dir, format!("cannot list the folder: {e}")))?;
        let mut paths: Vec<std::path::PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "toml"))
            .collect();
        paths.sort();
        Ok(paths)
    };
    let campaigns = tomls(dir)?
        .into_iter()
        .map(|p| {
            let name = p
                .file_name()
                .map_or_else(|| display_name(&p), |n| n.to_string_lossy().into_owned());
            (name, load_campaign(&p))
        })
        .collect();
    let orders_dir = dir.join("orders");
    let mut orders = Vec::new();
    if orders_dir.is_dir() {
        for p in tomls(&orders_dir)? {
            orders.push((display_name(&p), read_text(&p)?));
        }
    }
    Ok((campaigns, orders))
}
