//! Gives the memory freed at start-up back to the system.
//!
//! Building the chat analyser (the lexicon's automaton, the admins' word list over it) makes
//! tens of megabytes of short-lived allocations. glibc's allocator keeps freed memory for
//! reuse, so without a trim an idle service holds it for good: `arbiter serve` on SQLite
//! measured 46 MB resident idle before, and the `idle_memory` bench prints it now.
//! `malloc_trim(0)` returns every free page of every arena (glibc `malloc_trim(3)`).

/// Returns the allocator's free pages to the system (glibc only; elsewhere nothing to do).
#[allow(unsafe_code)]
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only walks the allocator's own free lists under its locks; it
    // takes no pointers from us.
    unsafe {
        libc::malloc_trim(0);
    }
}
