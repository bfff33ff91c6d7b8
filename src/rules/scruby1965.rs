//! `scruby-1965`: Jack Scruby's "Unbalanced Equality" rules, the rules of the
//! Egyptian Rebellion of 1895 (`scruby-1965-unbalanced-equality.txt`).

use super::RuleSet;

/// Not built yet: `None` keeps it out of the registry until it is complete.
pub const RULE_SET: Option<&dyn RuleSet> = None;
