//! The command-line interface (native only). Placeholder main until the CLI lands below.
fn main() {}
