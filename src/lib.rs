//! Arbiter: moderation and report handling for online four-player chess.

pub mod moderation;
pub mod rules;
