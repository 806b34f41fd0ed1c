//! Conduct: outcomes and qualifiers on real positions, per-player records, habit signals, and
//! the collusion statistics of pairs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod collusion;
mod outcomes;
mod record;
mod signals;
mod support;
