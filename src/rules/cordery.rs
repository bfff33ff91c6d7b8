//! `cordery-2009`: Bob Cordery's grid rules for the late 19th and early 20th
//! centuries (`cordery-2009-late-19th-century-rules.txt`).

use super::RuleSet;

/// Not built yet: `None` keeps it out of the registry until it is complete.
pub const RULE_SET: Option<&dyn RuleSet> = None;
