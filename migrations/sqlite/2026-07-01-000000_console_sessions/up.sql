-- Admin console sessions. Only the SHA-256 of the session cookie is kept; a session belongs to
-- the admin token it was opened with, so revoking the token ends it.
CREATE TABLE console_sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_hash TEXT NOT NULL UNIQUE,
    token_id INTEGER NOT NULL REFERENCES api_tokens (id),
    admin_name TEXT NOT NULL,
    user_agent TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    last_seen_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    ended_at TIMESTAMP,
    -- The confirmation or refusal the next page shows once.
    flash TEXT
);
CREATE INDEX console_sessions_admin ON console_sessions (admin_name, created_at);
