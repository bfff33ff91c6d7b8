//! The map written back as a map file: what the map maker saves and the
//! imports and generators write, read back by `check_map` as the same map.

use super::map::Map;

/// Why a map could not be written as TOML.
#[derive(Debug, thiserror::Error)]
#[error("cannot write the map `{name}` as a map file: {source}")]
pub struct MapWriteError {
    name: String,
    #[source]
    source: toml::ser::Error,
}

/// `map` as the text of a map file (`[[regions]]`, `[[roads]]`, `[[waters]]`,
/// `[background]`), with a first comment line saying what wrote it. Reading
/// the text back with [`check_map`](super::check::check_map) gives `map` again,
/// field for field, when `map` passes the check.
pub fn map_file_text(map: &Map, written_by: &str) -> Result<String, MapWriteError> {
    let body = toml::to_string(map).map_err(|source| MapWriteError {
        name: map.name.clone(),
        source,
    })?;
    Ok(with_header(written_by, &body))
}

/// `body` after a comment saying what wrote it (each line of `written_by`
/// behind `# `) and a blank line: the head of every file the program writes
/// for people to read and `umpire check`.
pub(crate) fn with_header(written_by: &str, body: &str) -> String {
    let mut text = String::with_capacity(body.len() + written_by.len() + 8);
    for line in written_by.lines() {
        text.push_str("# ");
        text.push_str(line);
        text.push('\n');
    }
    text.push('\n');
    text.push_str(body);
    text
}
