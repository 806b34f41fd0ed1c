//! Whether this instance's writes are failing on a database fault. A write that fails on a
//! fault marks the instance not ready (`/readyz` answers 503 naming the fault); a write that
//! succeeds, the probe `/readyz` then makes included, marks it ready again. Reads alone cannot
//! tell: a full disk or a read-only database still answers `SELECT 1`.

use std::sync::Mutex;

use super::error::ApiError;
use crate::store::DbFault;

#[derive(Debug, Default)]
pub struct WriteHealth {
    failing: Mutex<Option<DbFault>>,
}

impl WriteHealth {
    /// Takes note of a write's outcome.
    pub fn observe<T>(&self, outcome: &Result<T, ApiError>) {
        match outcome {
            Ok(_) => self.set(None),
            Err(ApiError::Unavailable { fault }) => self.set(Some(*fault)),
            // Refused for what was asked (or the writer's queue is long): says nothing of
            // whether the database takes writes.
            Err(_) => {}
        }
    }

    /// The fault the last write failed on, while no write has succeeded since.
    pub fn failing(&self) -> Option<DbFault> {
        *self
            .failing
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn set(&self, fault: Option<DbFault>) {
        *self
            .failing
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = fault;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fault_marks_failing_until_a_write_succeeds() {
        let health = WriteHealth::default();
        assert_eq!(health.failing(), None);
        health.observe::<()>(&Err(ApiError::Unavailable {
            fault: DbFault::Full,
        }));
        assert_eq!(health.failing(), Some(DbFault::Full));
        health.observe::<()>(&Err(ApiError::bad_request("invalid_json", "bad")));
        assert_eq!(health.failing(), Some(DbFault::Full), "a 400 says nothing");
        health.observe(&Ok(()));
        assert_eq!(health.failing(), None);
    }
}
