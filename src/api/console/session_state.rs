//! Whether a stored console session still lets its holder in, and what the sign-in page tells
//! the holder when it does not.

/// Why a stored session no longer lets its holder in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionState {
    Live,
    SignedOut,
    Expired,
    TokenRevoked,
}

impl SessionState {
    /// Shown on the sign-in page the holder is sent to.
    pub fn sentence(self) -> Option<&'static str> {
        match self {
            SessionState::Live => None,
            SessionState::SignedOut => Some("That session was ended. Sign in again."),
            SessionState::Expired => Some("Your session expired. Sign in again."),
            SessionState::TokenRevoked => {
                Some("The API token of that session was revoked. Sign in with a valid one.")
            }
        }
    }
}
