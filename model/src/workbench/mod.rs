//! The workbench: what the page and the CLI do with a scenario, as users meet it. Pure: no web
//! crate. (The scenario document itself is [`crate::model::scenario`].)
//!
//! - [`presets`]: named scenarios built from the seed articles' situations.
//! - [`edit`]: edits by dotted path (`platforms.0.spot_interruptions_per_node_hour=0.02`, the
//!   CLI's `--set`), and the page's edits of platforms and job classes.
//! - [`link`]: the versioned link codec (a scenario as its preset plus the changed leaves).
//! - [`report`]: the `eval` report as JSON and CSV; [`compare`]: two scenarios side by side.
//! - [`embed_table`]: the compact results table of the embed view and the loading shell.
//! - [`verdict`]: the sentence that says which platform costs least, how much less and how often;
//!   [`verdict_basis`]: what it judges by (the metric for the work, the SLO allowance);
//!   [`verdict_flips`]: the input values that would change its winner.
//! - [`tune`]: each platform's own settings searched before the platforms are compared.

pub mod cases;
pub mod compare;
pub mod decision_map;
pub mod edit;
pub mod embed_table;
pub mod link;
pub mod presets;
pub mod report;
pub mod tune;
pub mod verdict;
pub mod verdict_basis;
pub mod verdict_flips;

/// At most `max` characters of `text`, with an ellipsis when cut: user-provided text (link
/// parts, CSV cells, values) quoted in a message cannot flood it.
pub fn shorten(max: usize, text: &str) -> String {
    let mut out: String = text.chars().take(max).collect();
    if text.chars().count() > max {
        out.push('…');
    }
    out
}
