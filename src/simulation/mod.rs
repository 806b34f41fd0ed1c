//! Simulated FFA play: PURE, seeded (no I/O). Filled in by issue #25.
