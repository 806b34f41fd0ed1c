//! Arbiter: moderation and report handling for online four-player chess.

pub mod api;
pub mod archive;
pub mod chat;
pub mod cli;
pub mod collusion;
pub mod conduct;
pub mod config;
pub mod moderation;
pub mod rules;
pub mod simulation;
pub mod store;
pub mod usecases;
