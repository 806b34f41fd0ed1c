//! A worker thread running jobs at a lower CPU priority than request handling: the conduct
//! applier's reading and applying, which can wait, while ingest cannot. On SQLite every ingest
//! waits for the one writer; when the applier's computing took time slices on the same cores,
//! that writer ran slower and every ingest behind it waited longer. At a lower priority the
//! applier gets the cores' idle moments first (the writes themselves still run at normal
//! priority, in the writer turn: a low-priority thread holding the turn would stall ingest).

use std::panic::AssertUnwindSafe;
use std::sync::mpsc;

type Job = Box<dyn FnOnce() + Send>;

/// The worker: jobs run one at a time, in order, on its thread.
pub struct LowPriorityWorker {
    jobs: mpsc::Sender<Job>,
}

/// The worker's thread is gone, or the job panicked.
#[derive(Debug, thiserror::Error)]
#[error("the low-priority worker did not finish the job")]
pub struct WorkerGone;

impl LowPriorityWorker {
    /// Starts the thread at `niceness` (0-19, Linux; 0 or another system: normal priority).
    /// The thread ends when the worker is dropped.
    pub fn start(niceness: i32) -> std::io::Result<LowPriorityWorker> {
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("arbiter-low-priority".to_string())
            .spawn(move || {
                lower_own_priority(niceness);
                for job in queue {
                    // A panicking job drops its reply, which its caller sees as an error;
                    // the thread goes on with the next job.
                    let _ = std::panic::catch_unwind(AssertUnwindSafe(job));
                }
            })?;
        Ok(LowPriorityWorker { jobs })
    }

    /// Runs `job` on the worker's thread and waits for it without blocking the caller's.
    pub async fn run<T, F>(&self, job: F) -> Result<T, WorkerGone>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.jobs
            .send(Box::new(move || {
                let _ = reply.send(job());
            }))
            .map_err(|_| WorkerGone)?;
        answer.await.map_err(|_| WorkerGone)
    }
}

/// Raises the calling thread's nice value (Linux threads have their own); unprivileged
/// processes may always do that, never undo it.
fn lower_own_priority(niceness: i32) {
    if niceness == 0 {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        // SAFETY: plain system calls on this thread's own id; no memory is shared.
        let failed = unsafe {
            let thread = libc::gettid();
            libc::setpriority(libc::PRIO_PROCESS, thread as libc::id_t, niceness) != 0
        };
        if failed {
            tracing::warn!(
                niceness,
                error = %std::io::Error::last_os_error(),
                "could not lower the conduct applier's priority; it runs at normal priority"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[actix_web::test]
    async fn jobs_run_in_order_and_a_panic_is_an_error_not_the_end() {
        let worker = LowPriorityWorker::start(10).expect("thread");
        assert_eq!(worker.run(|| 1 + 1).await.expect("ran"), 2);
        let failed = worker.run(|| -> u8 { panic!("job failed") }).await;
        assert!(failed.is_err());
        assert_eq!(worker.run(|| "after").await.expect("ran"), "after");
    }

    #[cfg(target_os = "linux")]
    #[actix_web::test]
    async fn the_worker_thread_runs_at_the_niceness_asked() {
        let worker = LowPriorityWorker::start(7).expect("thread");
        let nice = worker
            .run(|| {
                // SAFETY: reads this thread's own priority.
                unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) }
            })
            .await
            .expect("ran");
        // Already at 7 or more if the whole process runs niced.
        assert!(nice >= 7, "{nice}");
    }
}
