//! The one shape of background work: a pass, then a pause (cut short by a wake-up signal when
//! the job has one), for as long as the runtime runs.

use std::sync::Arc;
use std::time::Duration;

use actix_web::rt::task::JoinHandle;
use actix_web::web;
use tokio::sync::Notify;

use crate::api::error::ApiError;
use crate::api::state::AppState;

/// What a job does after a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterPass {
    /// Wait for the pause (or the wake-up) before the next pass.
    Pause,
    /// More is due now: pass again at once.
    Again,
    /// Nothing will ever be due in this instance: stop.
    Stop,
}

/// One kind of background work.
// Jobs run on actix's single-threaded runtimes (`actix_web::rt::spawn`), so their futures
// need not be `Send`, which is what the lint guards against.
#[allow(async_fn_in_trait)]
pub trait Job: Sized + 'static {
    /// The job's name in logs.
    const NAME: &'static str;

    /// The job as this instance would run it, or `None` when its store cannot (a SQLite-only
    /// job on PostgreSQL, or one switched off by its interval).
    fn for_instance(state: &AppState) -> Option<Self>;

    /// The wait between passes.
    fn pause(&self) -> Duration;

    /// A signal that ends the pause early, for jobs that others can hand work to.
    fn wake(&self) -> Option<Arc<Notify>> {
        None
    }

    /// One pass. A failed pass loses nothing: every job's work is durable or idempotent, so
    /// what failed is due again on the next pass.
    async fn pass(&mut self, state: &AppState) -> Result<AfterPass, ApiError>;
}

/// Starts `J` on the current actix runtime when this instance can run it; it runs until the
/// runtime stops (or the returned handle is aborted).
pub fn start<J: Job>(state: &web::Data<AppState>) -> Option<JoinHandle<()>> {
    let job = J::for_instance(state)?;
    Some(actix_web::rt::spawn(run(job, state.clone())))
}

async fn run<J: Job>(mut job: J, state: web::Data<AppState>) {
    loop {
        let after = match job.pass(&state).await {
            Ok(after) => after,
            Err(e) => {
                tracing::error!(job = J::NAME, error = %e, "background pass failed; due again");
                AfterPass::Pause
            }
        };
        match after {
            AfterPass::Again => {}
            AfterPass::Stop => return,
            AfterPass::Pause => pause(&job).await,
        }
    }
}

async fn pause<J: Job>(job: &J) {
    match job.wake() {
        Some(wake) => {
            let _ = actix_web::rt::time::timeout(job.pause(), wake.notified()).await;
        }
        None => actix_web::rt::time::sleep(job.pause()).await,
    }
}
