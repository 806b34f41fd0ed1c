//! The word-list reloader: every `[chat] word_list_check_secs`, or at once after a change made
//! on this instance, it reads the admins' word list's version and, when it moved, rebuilds the
//! analyser from the built-in lexicons and the list (`chat::Analyzer::with_word_list`) off the
//! async workers, then serves it. Every instance sharing the database does the same, so a
//! change applies everywhere within the interval and one rebuild, without a restart.

use std::sync::Arc;
use std::time::Duration;

use actix_web::web;

use super::job::{AfterPass, Job};
use crate::api::error::ApiError;
use crate::api::state::AppState;
use crate::chat::Analyzer;
use crate::store::word_list;

pub struct WordListReloader {
    interval: Duration,
    wake: Arc<tokio::sync::Notify>,
}

impl Job for WordListReloader {
    const NAME: &'static str = "word list";

    fn for_instance(state: &AppState) -> Option<Self> {
        Some(WordListReloader {
            interval: Duration::from_secs(state.settings.chat.word_list_check_secs),
            wake: state.chat.wake.clone(),
        })
    }

    fn pause(&self) -> Duration {
        self.interval
    }

    fn wake(&self) -> Option<Arc<tokio::sync::Notify>> {
        Some(self.wake.clone())
    }

    async fn pass(&mut self, state: &AppState) -> Result<AfterPass, ApiError> {
        reload_word_list(state).await?;
        Ok(AfterPass::Pause)
    }
}

/// Serves the analyser of the word list in force when its version moved since the last look;
/// returns whether it did. `arbiter serve` calls it once before it listens, and a change made
/// here calls it before answering, so the admin who made it sees it applied.
pub async fn reload_word_list(state: &AppState) -> Result<bool, ApiError> {
    let _one_at_a_time = state.chat.rebuilding.lock().await;
    let seen = state.chat.version();
    let changed = state
        .read(move |conn| {
            if Some(word_list::version(conn)?) == seen {
                return Ok::<_, ApiError>(None);
            }
            Ok(Some(word_list::in_force(conn)?))
        })
        .await?;
    let Some((version, list)) = changed else {
        return Ok(false);
    };
    let (terms, allowed) = (list.terms.len(), list.allowed.len());
    let served = state.chat.list();
    let built = if list.is_empty() {
        Analyzer::shared()
    } else if list.terms == served.terms && list.allowed == served.allowed {
        // Only strictness moved: the lexicon stays as it is.
        Ok(Arc::new(
            state
                .chat
                .current()
                .with_strictness(list.strictness.clone()),
        ))
    } else {
        let words = list.clone();
        web::block(move || Analyzer::with_word_list(&words).map(Arc::new))
            .await
            .map_err(|e| ApiError::internal(format!("rebuilding the chat analyser: {e}")))?
    };
    let analyzer =
        built.map_err(|e| ApiError::internal(format!("rebuilding the chat analyser: {e}")))?;
    state.chat.replace(version, list, analyzer);
    tracing::info!(version, terms, allowed, "chat word list in force");
    Ok(true)
}
