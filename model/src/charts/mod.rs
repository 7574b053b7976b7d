//! Pure chart geometry: scales, axis ticks, bar layout and number formatting.
//!
//! Nothing here imports a web crate; the SVG components in `ui` call these functions inside
//! memos and only draw what they return. Every function is total: empty or non-finite input
//! gives an empty or zero-sized layout, never a panic.

pub mod format;
pub mod histogram;
pub mod scale;
pub mod stacked;
pub mod timeline;
pub mod tornado;
