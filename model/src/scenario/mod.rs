//! Scenarios as users meet them: named presets built from the seed articles' situations, and
//! edits by dotted path (`platforms.0.spot_interruptions_per_node_hour=0.02`) shared by the CLI
//! and, later, the link codec. Pure: no web crate.

pub mod compare;
pub mod edit;
pub mod history;
pub mod link;
pub mod presets;
pub mod report;

/// At most `max` characters of `text`, with an ellipsis when cut: user-provided text (link
/// parts, CSV cells, values) quoted in a message cannot flood it.
pub fn shorten(max: usize, text: &str) -> String {
    let mut out: String = text.chars().take(max).collect();
    if text.chars().count() > max {
        out.push('…');
    }
    out
}
