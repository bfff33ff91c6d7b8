//! Properties of the checked reading of files: no input makes it panic, and
//! strengths are accepted exactly when the rules allow them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;
use common::{CAMPAIGN, MAP};
use proptest::prelude::*;
use umpire::model::check::{Source, check_map, read_campaign};

fn check_campaign_text(campaign: &str, map: &str) -> (bool, usize) {
    let map = check_map(Source {
        name: "map.toml",
        text: map,
    });
    match read_campaign(Source {
        name: "campaign.toml",
        text: campaign,
    }) {
        Ok(draft) => {
            let checked = draft.check(map.value.ok_or_else(|| "the map has errors".to_owned()));
            (checked.value.is_some(), checked.diagnostics.len())
        }
        Err(diagnostics) => (false, diagnostics.len()),
    }
}

/// Applies a list of edits (delete a run of bytes, or insert a piece of
/// TOML-ish text) to `text` at char boundaries.
fn mutate(text: &str, edits: &[(usize, usize, String)]) -> String {
    let mut out = text.to_owned();
    for (at, delete, insert) in edits {
        let mut at = at % (out.len() + 1);
        while !out.is_char_boundary(at) {
            at -= 1;
        }
        let mut end = (at + delete).min(out.len());
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.replace_range(at..end, insert);
    }
    out
}

fn toml_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("\n[[regions]]\n".to_owned()),
        Just("\n[[forces.stands]]\nid = 1\n".to_owned()),
        Just(" = ".to_owned()),
        Just("\"".to_owned()),
        Just("-99999999999999999999".to_owned()),
        Just("9223372036854775807".to_owned()),
        Just("1e400".to_owned()),
        Just("nan".to_owned()),
        Just("[".to_owned()),
        Just("é€😀".to_owned()),
        "[a-z_=\\[\\]\"#\n .0-9-]{0,12}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn any_text_is_checked_without_panicking(text in "\\PC{0,400}") {
        let _ = check_map(Source { name: "x.toml", text: &text });
        let _ = check_campaign_text(&text, MAP);
    }

    #[test]
    fn mangled_real_files_are_checked_without_panicking(
        edits in prop::collection::vec((any::<usize>(), 0usize..40, toml_piece()), 1..6),
        on_map in any::<bool>(),
    ) {
        let (campaign, map) = if on_map {
            (CAMPAIGN.to_owned(), mutate(MAP, &edits))
        } else {
            (mutate(CAMPAIGN, &edits), MAP.to_owned())
        };
        let (usable, diagnostics) = check_campaign_text(&campaign, &map);
        // A campaign that cannot be used always says why.
        prop_assert!(usable || diagnostics > 0);
    }

    #[test]
    fn a_strength_is_accepted_exactly_when_between_zero_and_full(
        strength in -1000i64..1000, full in -10i64..1000,
    ) {
        let campaign = CAMPAIGN.replacen("strength = 60", &format!("strength = {strength}\n  full = {full}"), 1);
        let (usable, _) = check_campaign_text(&campaign, MAP);
        prop_assert_eq!(usable, full >= 1 && (0..=full).contains(&strength));
    }
}
