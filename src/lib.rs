//! Arbiter: moderation and report handling for online four-player chess.

pub mod chat;
pub mod rules;
