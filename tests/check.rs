//! `umpire check`: every bad input reported with its file, line and column.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;
use common::*;

#[test]
fn the_fixtures_are_clean() {
    let dir = campaign_dir(MAP, CAMPAIGN);
    let out = umpire(dir.path(), &["check", "campaign.toml", "map.toml"]);
    assert!(out.status.success(), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "campaign.toml: 0 errors, 0 warnings; campaign \"Test campaign\": 2 sides, 2 forces, 4 stands"
        ),
        "{text}"
    );
    assert!(
        text.contains("map.toml: 0 errors, 0 warnings; map \"Test valley\": 4 regions, 3 roads"),
        "{text}"
    );
}

/// Which file a case breaks.
#[derive(Clone, Copy, Debug)]
enum In {
    Map,
    Campaign,
}

/// One bad-input case: replace `find` with `replace` in one fixture file; the
/// check must report `message` at the line (and column) where `at` then
/// stands in that file.
struct Case {
    name: &'static str,
    file: In,
    find: &'static str,
    replace: &'static str,
    at: &'static str,
    severity: &'static str,
    message: &'static str,
}

const CASES: &[Case] = &[
    Case {
        name: "road to an unknown region",
        file: In::Map,
        find: "to = \"south\"",
        replace: "to = \"souht\"",
        at: "\"souht\"",
        severity: "error",
        message: "unknown region `souht`: no region has that id on this map (did you mean `south`, South Hills?)",
    },
    Case {
        name: "duplicate region id",
        file: In::Map,
        find: "id = \"east\"",
        replace: "id = \"south\"",
        at: "\"south\"\nname = \"East Farm\"",
        severity: "error",
        message: "duplicate region id `south`: it is already used at line 20",
    },
    Case {
        name: "duplicate region name",
        file: In::Map,
        find: "name = \"East Farm\"",
        replace: "name = \"North Town\"",
        at: "\"North Town\"\nterrain = \"cultivated\"",
        severity: "error",
        message: "duplicate region name `North Town`: it is already used at line 5",
    },
    Case {
        name: "road from a region to itself",
        file: In::Map,
        find: "from = \"ford\"\nto = \"south\"",
        replace: "from = \"ford\"\nto = \"ford\"",
        at: "\"ford\"\nkind = \"track\"",
        severity: "error",
        message: "road from `ford` to itself: a road joins two different regions",
    },
    Case {
        name: "unknown terrain",
        file: In::Map,
        find: "terrain = \"hills\"",
        replace: "terrain = \"hilly\"",
        at: "\"hilly\"",
        severity: "error",
        message: "unknown terrain `hilly`: use one of open | desert | cultivated | hills | mountains | forest | marsh | urban",
    },
    Case {
        name: "bridge crossing without a bridge",
        file: In::Map,
        find: "features = [\"town\", \"bridge\"]",
        replace: "features = [\"town\"]",
        at: "\"bridge\"\n",
        severity: "error",
        message: "the road crosses by bridge but neither `north` nor `ford` has the `bridge` feature",
    },
    Case {
        name: "road of no length",
        file: In::Map,
        find: "miles = 7.5",
        replace: "miles = 0.0",
        at: "0.0\n\n[[roads]]\nfrom = \"south\"",
        severity: "error",
        message: "road length 0 must be more than 0 miles",
    },
    Case {
        name: "map not connected",
        file: In::Map,
        find: "from = \"south\"\nto = \"east\"",
        replace: "from = \"south\"\nto = \"ford\"",
        at: "\"east\"\nname",
        severity: "warning",
        message: "the map is not connected: `east` cannot be reached by road from the other 3 regions",
    },
    Case {
        name: "HQ in an unknown region",
        file: In::Campaign,
        find: "region = \"ford\"",
        replace: "region = \"atlantis\"",
        at: "\"atlantis\"",
        severity: "error",
        message: "unknown region `atlantis`: the map has no region with that id",
    },
    Case {
        name: "force in an unknown region",
        file: In::Campaign,
        find: "side = \"blue\"\nregion = \"south\"",
        replace: "side = \"blue\"\nregion = \"sooth\"",
        at: "\"sooth\"",
        severity: "error",
        message: "unknown region `sooth`: the map has no region with that id (did you mean `south`, South Hills?)",
    },
    Case {
        name: "side without a right HQ",
        file: In::Campaign,
        find: "side = \"red\"\nwing = \"right\"",
        replace: "side = \"red\"\nwing = \"left\"",
        at: "\"red\"\nname = \"Red Army\"",
        severity: "error",
        message: "side `red` has no right HQ: add [[hqs]] with side = \"red\", wing = \"right\" and its region",
    },
    Case {
        name: "side with two left HQs",
        file: In::Campaign,
        find: "side = \"red\"\nwing = \"right\"",
        replace: "side = \"red\"\nwing = \"left\"",
        at: "\"left\"\nregion = \"ford\"",
        severity: "error",
        message: "side `red` has a second left HQ: the first is at line 21",
    },
    Case {
        name: "unknown wing",
        file: In::Campaign,
        find: "wing = \"centre\"\nregion = \"east\"",
        replace: "wing = \"middle\"\nregion = \"east\"",
        at: "\"middle\"",
        severity: "error",
        message: "unknown wing `middle`: use one of left | centre | right",
    },
    Case {
        name: "unknown side",
        file: In::Campaign,
        find: "side = \"blue\"\nregion = \"south\"",
        replace: "side = \"green\"\nregion = \"south\"",
        at: "\"green\"",
        severity: "error",
        message: "unknown side `green`",
    },
    Case {
        name: "duplicate side id",
        file: In::Campaign,
        find: "id = \"blue\"",
        replace: "id = \"red\"",
        at: "\"red\"\nname = \"Blue Army\"",
        severity: "error",
        message: "duplicate side id `red`: it is already used at line 8",
    },
    Case {
        name: "duplicate force name",
        file: In::Campaign,
        find: "name = \"Blue Host\"",
        replace: "name = \"Red Column\"",
        at: "\"Red Column\"\nside = \"blue\"",
        severity: "error",
        message: "duplicate force name `Red Column`: it is already used at line 51",
    },
    Case {
        name: "duplicate stand id",
        file: In::Campaign,
        find: "id = 11",
        replace: "id = 2",
        at: "2\n  name = \"Riflemen",
        severity: "error",
        message: "duplicate stand id `2`: it is already used at line 62",
    },
    Case {
        name: "duplicate stand name",
        file: In::Campaign,
        find: "name = \"Riflemen of the Hills\"",
        replace: "name = \"1st Company\"",
        at: "\"1st Company\"\n  kind = \"native_riflemen\"",
        severity: "error",
        message: "duplicate stand name `1st Company`: it is already used at line 57",
    },
    Case {
        name: "unknown stand kind",
        file: In::Campaign,
        find: "kind = \"native_riflemen\"",
        replace: "kind = \"hussars\"",
        at: "\"hussars\"",
        severity: "error",
        message: "unknown stand kind `hussars`: use one of line_infantry | light_infantry",
    },
    Case {
        name: "strength above full",
        file: In::Campaign,
        find: "strength = 60",
        replace: "strength = 160",
        at: "160",
        severity: "error",
        message: "strength 160 is above full strength 100",
    },
    Case {
        name: "strength below zero",
        file: In::Campaign,
        find: "strength = 60",
        replace: "strength = -5",
        at: "-5",
        severity: "error",
        message: "strength -5 is below zero",
    },
    Case {
        name: "unknown quality",
        file: In::Campaign,
        find: "quality = \"raw\"",
        replace: "quality = \"green\"",
        at: "\"green\"",
        severity: "error",
        message: "unknown quality `green`: use one of elite | trained | raw",
    },
    Case {
        name: "unknown rule set",
        file: In::Campaign,
        find: "rules = \"scruby-1965\"",
        replace: "rules = \"kriegsspiel\"",
        at: "\"kriegsspiel\"",
        severity: "error",
        message: "unknown rule set `kriegsspiel`: use one of scruby-1961 | scruby-basic | harman-2021 | scruby-1965 | cordery-2009",
    },
    Case {
        name: "bad colour",
        file: In::Campaign,
        find: "colour = \"#cc0000\"",
        replace: "colour = \"red\"",
        at: "\"red\"\narmy",
        severity: "error",
        message: "colour `red` must be written #rrggbb",
    },
    Case {
        name: "misspelt key",
        file: In::Campaign,
        find: "strength = 60",
        replace: "stregnth = 60",
        at: "stregnth",
        severity: "error",
        message: "unknown field `stregnth`",
    },
    Case {
        name: "TOML syntax error",
        file: In::Campaign,
        find: "seed = 7",
        replace: "seed = = 7",
        at: "= 7",
        severity: "error",
        message: "extra `=`, expected nothing (the file could not be read past this point)",
    },
    Case {
        name: "enemies starting in one region",
        file: In::Campaign,
        find: "side = \"blue\"\nregion = \"south\"",
        replace: "side = \"blue\"\nregion = \"north\"",
        at: "\"north\"\n\n  [[forces.stands]]\n  id = 10",
        severity: "warning",
        message: "force `blue-host` starts in `north` with enemy force `red-column`: they will fight in the first game move",
    },
    Case {
        name: "house rule: forced-march loss rate below 1",
        file: In::Campaign,
        find: "rules = \"scruby-1965\"\n",
        replace: "rules = \"scruby-1965\"\n\n[house_rules]\nforced_march_loss_per = 0\n",
        at: "0\n\n[[sides]]",
        severity: "error",
        message: "house rule forced_march_loss_per = 0 is out of range: it must be between 1 and 100 (the seed's is 10, scruby-basic Strategic Rules 3.1; leave it out to play the seed's)",
    },
    Case {
        name: "house rule: too many forced marches before rest",
        file: In::Campaign,
        find: "rules = \"scruby-1965\"\n",
        replace: "rules = \"scruby-1965\"\n\n[house_rules]\nforced_marches_before_rest = 21\n",
        at: "21\n\n[[sides]]",
        severity: "error",
        message: "house rule forced_marches_before_rest = 21 is out of range: it must be between 1 and 20 (the seed's is 3, scruby-basic Strategic Rules 3.2; leave it out to play the seed's)",
    },
    Case {
        name: "house rule: negative supply grace",
        file: In::Campaign,
        find: "rules = \"scruby-1965\"\n",
        replace: "rules = \"scruby-1965\"\n\n[house_rules]\nsupply_grace_moves = -1\n",
        at: "-1\n\n[[sides]]",
        severity: "error",
        message: "house rule supply_grace_moves = -1 is out of range: it must be between 0 and 50 (the seed's is 4, scruby-basic Strategic Rules 2.2; leave it out to play the seed's)",
    },
    Case {
        name: "house rule: unknown way of counting the grace",
        file: In::Campaign,
        find: "rules = \"scruby-1965\"\n",
        replace: "rules = \"scruby-1965\"\n\n[house_rules]\nsupply_grace_counts = \"later\"\n",
        at: "\"later\"\n\n[[sides]]",
        severity: "error",
        message: "unknown supply_grace_counts `later`: use one of from_the_cut | after_the_cut",
    },
    Case {
        name: "house rule: HQ-loss delay too long",
        file: In::Campaign,
        find: "rules = \"scruby-1965\"\n",
        replace: "rules = \"scruby-1965\"\n\n[house_rules]\nhq_loss_delay_moves = 51\n",
        at: "51\n\n[[sides]]",
        severity: "error",
        message: "house rule hq_loss_delay_moves = 51 is out of range: it must be between 0 and 50 (the seed's is 2, scruby-basic Strategic Rules 2.1; leave it out to play the seed's)",
    },
    Case {
        name: "house rule: sight range under an inch",
        file: In::Campaign,
        find: "rules = \"scruby-1965\"\n",
        replace: "rules = \"scruby-1965\"\n\n[house_rules]\nsight_inches = 0.5\n",
        at: "0.5\n\n[[sides]]",
        severity: "error",
        message: "house rule sight_inches = 0.5 is out of range: it must be between 1 and 200 inches (the seed's is 18, scruby-basic Strategic Rules 4.2; leave it out to play the seed's)",
    },
    Case {
        name: "house rule: scouting range too far",
        file: In::Campaign,
        find: "rules = \"scruby-1965\"\n",
        replace: "rules = \"scruby-1965\"\n\n[house_rules]\nscouting_inches = 250\n",
        at: "250\n\n[[sides]]",
        severity: "error",
        message: "house rule scouting_inches = 250 is out of range: it must be between 1 and 200 inches (the seed's is 9, scruby-1961 rule 17A; leave it out to play the seed's)",
    },
    Case {
        name: "house rule: march rate too slow",
        file: In::Campaign,
        find: "rules = \"scruby-1965\"\n",
        replace: "rules = \"scruby-1965\"\n\n[house_rules]\n[house_rules.march_percent]\ninfantry = 5\n",
        at: "5\n\n[[sides]]",
        severity: "error",
        message: "house rule march_percent.infantry = 5 is out of range: it must be between 10 and 1000 (the seed's is 100, the movement chart, scruby-basic Movement; leave it out to play the seed's)",
    },
    Case {
        name: "house rule: rejoin after no game moves",
        file: In::Campaign,
        find: "rules = \"scruby-1965\"\n",
        replace: "rules = \"scruby-1965\"\n\n[house_rules]\nrejoin_after_moves = 0\n",
        at: "0\n\n[[sides]]",
        severity: "error",
        message: "house rule rejoin_after_moves = 0 is out of range: it must be between 1 and 50 game moves (leave it out to play the seed's rule, scruby-basic Strategic Rules 3.1: stands fallen out on a forced march are removed)",
    },
    Case {
        name: "house rule: miles per inch out of range",
        file: In::Campaign,
        find: "rules = \"scruby-1965\"\n",
        replace: "rules = \"scruby-1965\"\n\n[house_rules]\nmiles_per_inch = 0.0\n",
        at: "0.0\n\n[[sides]]",
        severity: "error",
        message: "miles_per_inch 0 must be more than 0 and at most 1000",
    },
    Case {
        name: "house rule: unknown setting",
        file: In::Campaign,
        find: "rules = \"scruby-1965\"\n",
        replace: "rules = \"scruby-1965\"\n\n[house_rules]\nforced_march_loss = 5\n",
        at: "forced_march_loss = 5\n\n[[sides]]",
        severity: "error",
        message: "unknown field `forced_march_loss`",
    },
    Case {
        name: "house rule: unknown arm of the march rates",
        file: In::Campaign,
        find: "rules = \"scruby-1965\"\n",
        replace: "rules = \"scruby-1965\"\n\n[house_rules]\n[house_rules.march_percent]\ncamels = 50\n",
        at: "camels = 50\n\n[[sides]]",
        severity: "error",
        message: "unknown field `camels`",
    },
    Case {
        name: "unknown key in [end]",
        file: In::Campaign,
        find: "rules = \"scruby-1965\"\n",
        replace: "rules = \"scruby-1965\"\n\n[end]\nlast_mov = 10\n",
        at: "last_mov ",
        severity: "error",
        message: "unknown field `last_mov`, expected one of `last_move`, `last_date`, `all_hqs`, `below_share`",
    },
    Case {
        name: "last_move before the first game move",
        file: In::Campaign,
        find: "rules = \"scruby-1965\"\n",
        replace: "rules = \"scruby-1965\"\n\n[end]\nlast_move = -3\n",
        at: "-3",
        severity: "error",
        message: "last_move -3 must be a game move of the campaign: 1 (its start_turn) or later",
    },
    Case {
        name: "last_date before the start",
        file: In::Campaign,
        find: "rules = \"scruby-1965\"\n",
        replace: "rules = \"scruby-1965\"\n\n[end]\nlast_date = 1895-02-01\n",
        at: "1895-02-01",
        severity: "error",
        message: "last_date 1895-02-01 is before the campaign's start_date 1895-03-01: give a later date",
    },
    Case {
        name: "unknown all_hqs",
        file: In::Campaign,
        find: "rules = \"scruby-1965\"\n",
        replace: "rules = \"scruby-1965\"\n\n[end]\nall_hqs = \"six\"\n",
        at: "\"six\"",
        severity: "error",
        message: "unknown all_hqs `six`: use one of every | enemy",
    },
    Case {
        name: "below_share out of range",
        file: In::Campaign,
        find: "rules = \"scruby-1965\"\n",
        replace: "rules = \"scruby-1965\"\n\n[end]\nbelow_share = 1.5\n",
        at: "1.5",
        severity: "error",
        message: "below_share 1.5 must be more than 0 and less than 1",
    },
    Case {
        name: "an [end] with no condition",
        file: In::Campaign,
        find: "rules = \"scruby-1965\"\n",
        replace: "rules = \"scruby-1965\"\n\n[end]\n",
        at: "[end]",
        severity: "warning",
        message: "the [end] table names no condition (last_move, last_date, all_hqs, below_share): only the umpire's pencil ends this campaign",
    },
];

/// 1-based line and column of the first `needle` in `text`.
fn line_col(text: &str, needle: &str) -> (usize, usize) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` is in the broken file"));
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, column)
}

#[test]
fn every_bad_input_is_named_at_its_line_and_column() {
    for case in CASES {
        let (mut map, mut campaign) = (MAP.to_owned(), CAMPAIGN.to_owned());
        let (text, file) = match case.file {
            In::Map => (&mut map, "map.toml"),
            In::Campaign => (&mut campaign, "campaign.toml"),
        };
        assert!(
            text.contains(case.find),
            "case `{}`: fixture holds `{}`",
            case.name,
            case.find
        );
        *text = text.replacen(case.find, case.replace, 1);
        let (line, column) = line_col(text, case.at);
        let dir = campaign_dir(&map, &campaign);
        let out = umpire(dir.path(), &["check", "campaign.toml"]);
        let report = stdout(&out);
        let expected = format!("{file}:{line}:{column}: {}: {}", case.severity, case.message);
        assert!(
            report.lines().any(|l| l.starts_with(&expected)),
            "case `{}`: expected a line starting\n  {expected}\ngot:\n{report}",
            case.name
        );
        assert_eq!(
            out.status.success(),
            case.severity == "warning",
            "case `{}`: exit status {:?}\n{report}",
            case.name,
            out.status
        );
    }
}

#[test]
fn all_problems_are_reported_not_just_the_first() {
    let campaign = CAMPAIGN
        .replacen("kind = \"native_riflemen\"", "kind = \"hussars\"", 1)
        .replacen("strength = 60", "strength = 160", 1)
        .replacen("region = \"ford\"", "region = \"atlantis\"", 1);
    let dir = campaign_dir(MAP, &campaign);
    let out = umpire(dir.path(), &["check", "campaign.toml"]);
    let report = stdout(&out);
    assert_eq!(report.matches(": error: ").count(), 3, "{report}");
    assert!(
        report.contains("campaign.toml: 3 errors, 0 warnings; not usable until the errors are fixed"),
        "{report}"
    );
    // Reported in file order.
    let lines: Vec<usize> = report
        .lines()
        .filter(|l| l.contains(": error: "))
        .map(|l| l.split(':').nth(1).unwrap().parse().unwrap())
        .collect();
    assert!(lines.windows(2).all(|w| w[0] <= w[1]), "{report}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_broken_map_is_reported_under_its_own_name_when_checking_the_campaign() {
    let map = MAP.replacen("to = \"south\"", "to = \"souht\"", 1);
    let dir = campaign_dir(&map, CAMPAIGN);
    let out = umpire(dir.path(), &["check", "campaign.toml"]);
    let report = stdout(&out);
    assert!(
        report.contains("map.toml:43:6: error: unknown region `souht`"),
        "{report}"
    );
    assert!(
        report.contains("campaign.toml:2:7: error: the map `map.toml` has errors"),
        "{report}"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_missing_map_file_is_named_at_the_map_line() {
    let campaign = CAMPAIGN.replacen("map = \"map.toml\"", "map = \"nowhere.toml\"", 1);
    let dir = campaign_dir(MAP, &campaign);
    let out = umpire(dir.path(), &["check", "campaign.toml"]);
    let report = stdout(&out);
    assert!(
        report.contains("campaign.toml:2:7: error: map file `nowhere.toml` not found"),
        "{report}"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn files_that_cannot_be_read_are_errors_not_crashes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("binary.toml"), [0xff, 0xfe, 0x00, 0x41]).unwrap();
    let out = umpire(dir.path(), &["check", "binary.toml", "absent.toml"]);
    let report = stdout(&out);
    assert!(
        report.contains("binary.toml:1:1: error: the file is not UTF-8 text"),
        "{report}"
    );
    assert!(
        report.contains("absent.toml:1:1: error: cannot read the file"),
        "{report}"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn new_refuses_a_campaign_with_errors_and_creates_nothing() {
    let campaign = CAMPAIGN.replacen("strength = 60", "strength = -5", 1);
    let dir = campaign_dir(MAP, &campaign);
    let out = umpire(dir.path(), &["new", "campaign.toml", "test.umpire"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("campaign.toml:65:14: error: strength -5 is below zero"),
        "{err}"
    );
    assert!(err.contains("nothing was created"), "{err}");
    assert!(!dir.path().join("test.umpire").exists());
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        leftovers.len(),
        2,
        "only the two input files remain: {leftovers:?}"
    );
}

#[test]
fn miles_per_inch_given_twice_is_named_at_the_second() {
    // The old top-level key still works; given in [house_rules] too, it is refused there.
    let campaign = CAMPAIGN
        .replacen("seed = 7\n", "seed = 7\nmiles_per_inch = 2.5\n", 1)
        .replacen(
            "rules = \"scruby-1965\"\n",
            "rules = \"scruby-1965\"\n\n[house_rules]\nmiles_per_inch = 3.0\n",
            1,
        );
    let (line, column) = line_col(&campaign, "3.0\n");
    let dir = campaign_dir(MAP, &campaign);
    let out = umpire(dir.path(), &["check", "campaign.toml"]);
    let report = stdout(&out);
    assert!(
        report.contains(&format!(
            "campaign.toml:{line}:{column}: error: miles_per_inch is given twice: at line 5 and here in [house_rules]; keep one"
        )),
        "{report}"
    );
    assert_eq!(out.status.code(), Some(1));
}
