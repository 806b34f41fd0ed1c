-- An admin may open a case about what they saw themselves: their entry is a report with the
-- source 'admin' and the admin's player id, never a player reporter (no accuracy, no timeout).
-- The table is rebuilt (see metadata.toml) with the new source and column.
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE reports_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source TEXT NOT NULL CHECK (source IN ('player', 'chat_analysis', 'conduct_signal', 'admin')),
    reporter_id BIGINT REFERENCES players (id),
    automatic_report_id BIGINT UNIQUE REFERENCES automatic_reports (id) ON DELETE SET NULL,
    reason TEXT NOT NULL CHECK (reason IN ('offensive_chat', 'rule_violating_chat', 'abandoning',
        'self_partnering', 'prearranged_teaming', 'other')),
    message TEXT,
    game_id BIGINT REFERENCES games (id),
    score DOUBLE PRECISION CHECK (score IS NULL OR (score >= 0 AND score <= 1)),
    filed_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    outcome TEXT CHECK (outcome IS NULL OR outcome IN ('upheld', 'dismissed_unjustified',
        'dismissed_not_actionable')),
    decided_at TIMESTAMP,
    filed_by_admin BIGINT REFERENCES players (id),
    CHECK ((source = 'player') = (reporter_id IS NOT NULL)),
    CHECK ((source = 'admin') = (filed_by_admin IS NOT NULL))
);
INSERT INTO reports_new (id, source, reporter_id, automatic_report_id, reason, message, game_id, score, filed_at, updated_at, outcome, decided_at) SELECT id, source, reporter_id, automatic_report_id, reason, message, game_id, score, filed_at, updated_at, outcome, decided_at FROM reports;
DROP TABLE reports;
ALTER TABLE reports_new RENAME TO reports;
CREATE INDEX reports_reporter ON reports (reporter_id, filed_at);
CREATE INDEX reports_reporter_decided ON reports (reporter_id, decided_at);
COMMIT;
PRAGMA foreign_keys = ON;
