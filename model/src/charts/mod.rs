//! Pure chart geometry: scales, axis ticks and bar layout (numbers are formatted by
//! [`crate::format`]).
//!
//! Nothing here imports a web crate; the SVG components in `ui` call these functions inside
//! memos and only draw what they return. Every function is total: empty or non-finite input
//! gives an empty or zero-sized layout, never a panic.

pub mod dag;
pub mod histogram;
pub mod payback;
pub mod scale;
pub mod service_day;
pub mod stacked;
pub mod timeline;
pub mod tornado;
