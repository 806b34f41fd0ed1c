PRAGMA foreign_keys = OFF;
BEGIN;
DELETE FROM case_reports WHERE report_id IN (SELECT id FROM reports WHERE source = 'admin');
DELETE FROM report_accused WHERE report_id IN (SELECT id FROM reports WHERE source = 'admin');
DELETE FROM report_games WHERE report_id IN (SELECT id FROM reports WHERE source = 'admin');
CREATE TABLE reports_old (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source TEXT NOT NULL CHECK (source IN ('player', 'chat_analysis', 'conduct_signal')),
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
    CHECK ((source = 'player') = (reporter_id IS NOT NULL))
);
INSERT INTO reports_old (id, source, reporter_id, automatic_report_id, reason, message, game_id, score, filed_at, updated_at, outcome, decided_at) SELECT id, source, reporter_id, automatic_report_id, reason, message, game_id, score, filed_at, updated_at, outcome, decided_at FROM reports WHERE source <> 'admin';
DROP TABLE reports;
ALTER TABLE reports_old RENAME TO reports;
CREATE INDEX reports_reporter ON reports (reporter_id, filed_at);
CREATE INDEX reports_reporter_decided ON reports (reporter_id, decided_at);
COMMIT;
PRAGMA foreign_keys = ON;
