//! The map file writer: every bundled map written and read back is the same map.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use common::repo;
use umpire::model::check::{Source, check_map};
use umpire::model::map_file::map_file_text;

fn read(name: &str, text: &str) -> umpire::model::Map {
    let checked = check_map(Source { name, text });
    let errors: Vec<String> = checked.diagnostics.iter().map(|d| d.to_string()).collect();
    checked
        .value
        .unwrap_or_else(|| panic!("{name} does not check: {errors:?}"))
}

#[test]
fn bundled_maps_read_back_identical() {
    for file in ["maps/egypt_1895.toml", "maps/scruby_jumbo.toml"] {
        let text = std::fs::read_to_string(repo().join(file)).unwrap();
        let map = read(file, &text);
        let written = map_file_text(&map, "written by the test").unwrap();
        assert!(written.starts_with("# written by the test\n"), "{written:.200}");
        let again = read("written.toml", &written);
        assert_eq!(again, map, "{file}");
        // And written again, the same text.
        assert_eq!(map_file_text(&again, "written by the test").unwrap(), written);
    }
}

#[test]
fn waters_and_shapes_read_back_identical() {
    let text = r#"
name = "Two fields"

[[regions]]
id = "a"
name = "A"
terrain = "open"
x = 1.0
y = 1.0
features = ["bridge"]
shape = [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]

[[regions]]
id = "b"
name = "B"
terrain = "hills"
x = 5.0
y = 1.0

[[roads]]
from = "a"
to = "b"
kind = "road"
miles = 4.5
river = "bridge"

[[waters]]
kind = "river"
name = "The Brook"
points = [[3.0, -1.0], [3.5, 1.0], [3.0, 3.0]]

[[waters]]
kind = "sea"
points = [[0.0, 4.0], [6.0, 4.0], [6.0, 6.0]]
"#;
    let map = read("two.toml", text);
    assert_eq!(map.waters.len(), 2);
    assert_eq!(map.regions[0].shape.len(), 4);
    let written = map_file_text(&map, "test").unwrap();
    assert_eq!(read("written.toml", &written), map, "{written}");
}

#[test]
fn wrong_points_are_named_at_their_line() {
    let cases = [
        ("shape = [[0.0, 0.0], [2.0, 0.0]]", "needs at least 3", 9),
        (
            "shape = [[0.0, 0.0], [2.0], [1.0, 1.0]]",
            "point 2 must be two numbers",
            9,
        ),
        (
            "shape = [[5.0, 5.0], [6.0, 5.0], [6.0, 6.0]]",
            "does not hold its point (1, 1)",
            9,
        ),
    ];
    for (line, message, at) in cases {
        let text = format!(
            "name = \"M\"\n\n[[regions]]\nid = \"a\"\nname = \"A\"\nterrain = \"open\"\nx = 1.0\ny = 1.0\n{line}\n"
        );
        let checked = check_map(Source {
            name: "m.toml",
            text: &text,
        });
        let d = checked.diagnostics.iter().find(|d| d.message.contains(message));
        let d = d.unwrap_or_else(|| panic!("{line}: {:?}", checked.diagnostics));
        assert_eq!(d.location.line, at, "{line}");
    }
    let text = "name = \"M\"\n\n[[regions]]\nid = \"a\"\nname = \"A\"\nterrain = \"open\"\nx = 1.0\ny = 1.0\n\n[[waters]]\nkind = \"pond\"\npoints = [[0.0, 0.0], [1.0, 1.0]]\n";
    let checked = check_map(Source { name: "m.toml", text });
    let d = checked
        .diagnostics
        .iter()
        .find(|d| d.message.contains("pond"))
        .unwrap();
    assert_eq!(d.location.line, 11);
    assert!(d.message.contains("river"), "{}", d.message);
}
