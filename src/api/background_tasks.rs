//! The background tasks of a server instance.

use actix_web::web;

use super::state::AppState;
use super::{checkpointer, conduct_applier, retention_job, webhook_deliverer};

/// Starts the background tasks every `arbiter serve` instance runs on the current actix
/// runtime: the conduct applier, the retention job, the webhook deliverer and, on SQLite, the
/// checkpointer.
pub fn spawn_background_tasks(state: web::Data<AppState>) {
    conduct_applier::spawn(state.clone());
    if state.settings.retention.enabled {
        retention_job::spawn(state.clone());
    }
    if state.settings.webhooks.enabled {
        webhook_deliverer::spawn(state.clone());
    }
    checkpointer::spawn(state);
}
