//! The one writer of a SQLite database: every write of `arbiter serve` runs on one
//! connection, one at a time.
//!
//! Why: SQLite lets one transaction write at a time. Writers on several pooled connections
//! would meet the lock and sleep in SQLite's busy handler (1, 2, 5, 10 ... ms between tries),
//! waking in no particular order; a writer that had read first could not upgrade at all and
//! failed with "database is locked". Here a writer waits for its turn in a queue instead, and
//! the next starts as soon as the previous one commits. A write still waiting after
//! `[database] write_deadline_ms` answers 503 with `Retry-After`. Readers keep the pool: in
//! WAL mode they never wait for the writer.
//!
//! Two lines, each first come, first served, which take turns while both have writers
//! waiting: people's actions (reports, decisions, claims, appeals, tokens) and the machines'
//! bulk (game ingest, the conduct applier, checkpoints, token bookkeeping). A busy site's
//! ingest can keep the writer busy; a moderator's click then waits for the people ahead of
//! it and as many bulk writes, not for every game queued before it, and a flood of reports
//! cannot starve ingest either.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use actix_web::web;
use tokio::sync::oneshot;

use super::error::ApiError;
use crate::store::{self, DatabaseSettings, DbConnection, DbPool, PoolSetupError};

/// Seconds a caller refused for a busy writer is asked to wait before trying again.
const RETRY_AFTER_SECS: u64 = 1;

/// Which line a write waits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteLine {
    /// A person's action: served first.
    People,
    /// Game ingest and background work: served when no person waits.
    Bulk,
}

pub struct SqliteWriter {
    turns: Arc<Turns>,
    /// A pool of one connection, used only by the holder of the turn.
    connection: DbPool,
    deadline: Duration,
}

impl SqliteWriter {
    /// The writer of the database `settings` name (its connection opens on first use).
    pub fn new(settings: &DatabaseSettings) -> Result<SqliteWriter, PoolSetupError> {
        let mut one = settings.clone();
        one.pool_size = 1;
        Ok(SqliteWriter {
            turns: Arc::new(Turns::default()),
            connection: store::connect_lazy(&one)?,
            deadline: Duration::from_millis(settings.write_deadline_ms),
        })
    }

    /// Runs `work` on the writer connection at this write's turn, off the async workers.
    pub async fn run<T, E, F>(&self, line: WriteLine, work: F) -> Result<T, ApiError>
    where
        F: FnOnce(&mut DbConnection) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: Into<ApiError> + Send + 'static,
    {
        let waiting = self.turns.clone().take(line);
        let Ok(turn) = actix_web::rt::time::timeout(self.deadline, waiting).await else {
            return Err(ApiError::WriterBusy {
                retry_after_secs: RETRY_AFTER_SECS,
            });
        };
        let connection = self.connection.clone();
        web::block(move || {
            let _turn = turn;
            let mut conn = connection.get()?;
            work(&mut conn).map_err(Into::into)
        })
        .await?
    }
}

/// Whose turn it is: at most one holder, and the two lines of waiters.
#[derive(Default)]
struct Turns {
    state: Mutex<TurnState>,
}

#[derive(Default)]
struct TurnState {
    held: bool,
    /// Whether the last turn given went to the bulk line: the other line goes next.
    bulk_served_last: bool,
    people: VecDeque<oneshot::Sender<Turn>>,
    bulk: VecDeque<oneshot::Sender<Turn>>,
}

/// The turn: the writer connection is this holder's until it drops.
pub struct Turn {
    /// `None` for a turn that was never taken (its waiter had given up).
    turns: Option<Arc<Turns>>,
}

impl Turns {
    /// Waits for the turn in `line`. A waiter that gives up (its future dropped at the
    /// deadline) is skipped when its turn comes.
    async fn take(self: Arc<Self>, line: WriteLine) -> Turn {
        let waiting = {
            let mut state = self.lock();
            if !state.held {
                state.held = true;
                state.bulk_served_last = line == WriteLine::Bulk;
                return Turn {
                    turns: Some(self.clone()),
                };
            }
            let (tx, rx) = oneshot::channel();
            match line {
                WriteLine::People => state.people.push_back(tx),
                WriteLine::Bulk => state.bulk.push_back(tx),
            }
            rx
        };
        match waiting.await {
            Ok(turn) => turn,
            // The sender is only dropped after sending, or with the whole writer.
            Err(_) => std::future::pending().await,
        }
    }

    /// Hands the turn to the next waiter still waiting, people first, or frees it.
    fn pass_on(self: &Arc<Self>) {
        let mut state = self.lock();
        loop {
            let bulk_first =
                state.people.is_empty() || (!state.bulk.is_empty() && !state.bulk_served_last);
            state.bulk_served_last = bulk_first;
            let next = if bulk_first {
                state.bulk.pop_front()
            } else {
                state.people.pop_front()
            };
            let Some(next) = next else {
                state.held = false;
                return;
            };
            let turn = Turn {
                turns: Some(self.clone()),
            };
            match next.send(turn) {
                Ok(()) => return,
                // That waiter gave up: its turn must not pass on again from inside this loop.
                Err(mut unused) => unused.turns = None,
            }
        }
    }

    /// A poisoned lock only means a thread panicked while passing the turn on; the state is
    /// still whole (every change is one assignment or one queue operation).
    fn lock(&self) -> std::sync::MutexGuard<'_, TurnState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        if let Some(turns) = self.turns.take() {
            turns.pass_on();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use super::{Turns, WriteLine};

    /// Queues `line` for the turn and records `name` when it gets it, holding it briefly.
    fn waiter(
        turns: &Arc<Turns>,
        order: &Arc<Mutex<Vec<&'static str>>>,
        line: WriteLine,
        name: &'static str,
    ) -> actix_web::rt::task::JoinHandle<()> {
        let (turns, order) = (turns.clone(), order.clone());
        actix_web::rt::spawn(async move {
            let _turn = turns.take(line).await;
            order.lock().unwrap().push(name);
            actix_web::rt::time::sleep(Duration::from_millis(5)).await;
        })
    }

    #[actix_web::test]
    async fn the_lines_take_turns_and_each_keeps_its_order() {
        let turns = Arc::new(Turns::default());
        let order = Arc::new(Mutex::new(Vec::new()));
        let held = turns.clone().take(WriteLine::Bulk).await;
        let mut waiting = Vec::new();
        for (line, name) in [
            (WriteLine::Bulk, "game 1"),
            (WriteLine::Bulk, "game 2"),
            (WriteLine::Bulk, "game 3"),
            (WriteLine::People, "report"),
            (WriteLine::People, "decision"),
        ] {
            waiting.push(waiter(&turns, &order, line, name));
            actix_web::rt::time::sleep(Duration::from_millis(5)).await;
        }
        drop(held);
        for task in waiting {
            task.await.unwrap();
        }
        assert_eq!(
            *order.lock().unwrap(),
            vec!["report", "game 1", "decision", "game 2", "game 3"]
        );
    }

    #[actix_web::test]
    async fn a_waiter_that_gave_up_is_passed_over() {
        let turns = Arc::new(Turns::default());
        let held = turns.clone().take(WriteLine::Bulk).await;
        let gave_up = actix_web::rt::time::timeout(
            Duration::from_millis(10),
            turns.clone().take(WriteLine::People),
        )
        .await;
        assert!(gave_up.is_err());
        let order = Arc::new(Mutex::new(Vec::new()));
        let next = waiter(&turns, &order, WriteLine::Bulk, "next");
        actix_web::rt::time::sleep(Duration::from_millis(5)).await;
        drop(held);
        next.await.unwrap();
        assert_eq!(*order.lock().unwrap(), vec!["next"]);
        // And the turn is free again afterwards.
        let again = actix_web::rt::time::timeout(
            Duration::from_millis(100),
            turns.clone().take(WriteLine::People),
        )
        .await;
        assert!(again.is_ok());
    }
}
