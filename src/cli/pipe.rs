//! Output into a closed pipe (`arbiter replay dir | head -1`).
//!
//! Rust programs start with SIGPIPE ignored, so a write to a pipe whose reader has gone fails
//! with EPIPE and `println!` panics on it. The one-shot commands instead take the signal's
//! default action, as Unix filters do: the process ends at once and quietly, and a shell
//! reports status 141 (128 + SIGPIPE). `serve` keeps ignoring it: a vanished log reader or
//! peer must not stop the service.

/// Restores the default action of SIGPIPE for this process.
#[allow(unsafe_code)]
pub fn end_quietly_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: `signal` with SIG_DFL installs no handler code; nothing else in the process
    // sets SIGPIPE's disposition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
