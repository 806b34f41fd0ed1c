-- Check values of the operator's keys (issue #40): an HMAC-SHA256 under the key of a fixed
-- label, in hex, recorded when data is first written under the key and compared at start-up,
-- so a changed or emptied key stops `arbiter serve` instead of silently failing to recognise
-- what was written under the old one. The value says nothing about the key. One row per key,
-- named by its setting (`privacy.erasure_key`).
CREATE TABLE key_checks (
    setting TEXT PRIMARY KEY,
    key_check TEXT NOT NULL,
    recorded_at TIMESTAMP NOT NULL
);
