-- Admins tune the chat analysis without a release (issue #43, item 3; docs/chat-analysis.md,
-- "Admins' word list"). `word_list_entries`: the terms they added and the words they allowed,
-- each with who and why; a removed entry keeps its row, with who removed it and why, and at
-- most one entry of a kind and spelling is in force (the partial unique index).
-- `chat_strictness`: a category's strictness when it is not medium. `word_list_version`: one
-- row, raised by every change, which each instance polls to rebuild its analyser.
CREATE TABLE word_list_entries (
    id BIGSERIAL PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('term', 'allowed')),
    term TEXT NOT NULL,
    category TEXT,
    severity TEXT,
    mode TEXT,
    added_by BIGINT NOT NULL REFERENCES players (id),
    added_reason TEXT NOT NULL,
    added_at TIMESTAMP NOT NULL,
    removed_by BIGINT REFERENCES players (id),
    removed_reason TEXT,
    removed_at TIMESTAMP,
    CHECK ((kind = 'term') = (category IS NOT NULL AND severity IS NOT NULL AND mode IS NOT NULL))
);
CREATE UNIQUE INDEX word_list_entries_in_force ON word_list_entries (kind, term)
    WHERE removed_at IS NULL;
CREATE TABLE chat_strictness (
    category TEXT PRIMARY KEY,
    strictness TEXT NOT NULL CHECK (strictness IN ('off', 'low', 'medium', 'high')),
    set_by BIGINT NOT NULL REFERENCES players (id),
    reason TEXT NOT NULL,
    set_at TIMESTAMP NOT NULL
);
CREATE TABLE word_list_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version BIGINT NOT NULL
);
INSERT INTO word_list_version (id, version) VALUES (1, 0);
