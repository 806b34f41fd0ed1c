//! Collusion: PURE statistics of how pairs of players treat each other in FFA and Solo games
//! (no I/O). Filled in by issue #25.
