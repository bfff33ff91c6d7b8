//! `harman-2021`: the 2021 toy soldier battle rules (`harman-2021-toy-soldier-battles.txt`).

use super::RuleSet;

/// Not built yet: `None` keeps it out of the registry until it is complete.
pub const RULE_SET: Option<&dyn RuleSet> = None;
