//! Conduct: outcomes and qualifiers on real positions, per-player records, habit signals.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod outcomes;
mod record;
mod signals;
mod support;
