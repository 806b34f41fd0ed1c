//! The one place that starts an instance's background jobs.

use actix_web::web;

use super::alerter::Alerter;
use super::checkpointer::Checkpointer;
use super::conduct_applier::ConductApplier;
use super::job::start;
use super::retention::RetentionJob;
use super::stats_roller::StatsRoller;
use super::webhook_deliverer::WebhookDeliverer;
use super::word_list_reloader::WordListReloader;
use crate::api::state::AppState;

/// Starts the background jobs every `arbiter serve` instance runs on the current actix
/// runtime: the conduct applier; the retention job and the webhook deliverer when their
/// settings switch them on; the alert job when rules exist; the stats roller; the word-list
/// reloader; on SQLite, the checkpointer.
pub fn start_all(state: &web::Data<AppState>) {
    start::<ConductApplier>(state);
    if state.settings.retention.enabled {
        start::<RetentionJob>(state);
    }
    if state.settings.webhooks.enabled {
        start::<WebhookDeliverer>(state);
    }
    start::<Alerter>(state);
    start::<StatsRoller>(state);
    start::<WordListReloader>(state);
    start::<Checkpointer>(state);
}
