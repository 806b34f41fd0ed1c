-- Opaque API tokens for the `server` and `admin` roles; only the SHA-256 hash is kept.
-- Timestamps are TIMESTAMP (without time zone) holding UTC, as on SQLite.
CREATE TABLE api_tokens (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('server', 'admin')),
    token_hash TEXT NOT NULL UNIQUE,
    created_at TIMESTAMP NOT NULL,
    last_used_at TIMESTAMP,
    revoked_at TIMESTAMP
);
