//! Scenarios as users meet them: named presets built from the seed articles' situations, and
//! edits by dotted path (`platforms.0.spot_interruptions_per_node_hour=0.02`) shared by the CLI
//! and, later, the link codec. Pure: no web crate.

pub mod edit;
pub mod history;
pub mod link;
pub mod presets;
