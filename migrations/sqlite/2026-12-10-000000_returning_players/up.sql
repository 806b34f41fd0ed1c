-- A banned player back on a new account is noticed (issue #43, item 4; docs/moderation.md,
-- "Returning players"). Partial indexes find the seats that carried a fingerprint;
-- `fingerprint_notices` keeps which account was noticed for which ban, so its later games do
-- not raise it again. Automatic reports and queue entries take the new source
-- 'fingerprint_match'; SQLite cannot change a CHECK constraint in place, so both tables are
-- rebuilt (as the collusion migration did).
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE INDEX game_seats_device_fp ON game_seats (device_fp, game_id) WHERE device_fp IS NOT NULL;
CREATE INDEX game_seats_network_fp ON game_seats (network_fp, game_id) WHERE network_fp IS NOT NULL;

CREATE TABLE automatic_reports_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source TEXT NOT NULL CHECK (source IN ('chat_analysis', 'conduct_signal', 'collusion_analysis',
        'fingerprint_match')),
    player TEXT NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    reason TEXT NOT NULL CHECK (reason IN ('offensive_chat', 'rule_violating_chat', 'abandoning',
        'self_partnering', 'prearranged_teaming', 'other')),
    rule TEXT NOT NULL,
    score DOUBLE PRECISION NOT NULL CHECK (score >= 0 AND score <= 1),
    summary TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
INSERT INTO automatic_reports_new (id, source, player, game_id, reason, rule, score, summary, created_at)
    SELECT id, source, player, game_id, reason, rule, score, summary, created_at FROM automatic_reports;
DROP TABLE automatic_reports;
ALTER TABLE automatic_reports_new RENAME TO automatic_reports;
CREATE INDEX automatic_reports_player ON automatic_reports (player, id);
CREATE INDEX automatic_reports_game ON automatic_reports (game_id);

CREATE TABLE reports_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source TEXT NOT NULL CHECK (source IN ('player', 'chat_analysis', 'conduct_signal',
        'collusion_analysis', 'fingerprint_match', 'admin')),
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
    decision_id BIGINT REFERENCES decisions (id),
    reporter_note TEXT,
    CHECK ((source = 'player') = (reporter_id IS NOT NULL)),
    CHECK ((source = 'admin') = (filed_by_admin IS NOT NULL))
);
INSERT INTO reports_new (id, source, reporter_id, automatic_report_id, reason, message, game_id,
        score, filed_at, updated_at, outcome, decided_at, filed_by_admin, decision_id,
        reporter_note)
    SELECT id, source, reporter_id, automatic_report_id, reason, message, game_id, score,
        filed_at, updated_at, outcome, decided_at, filed_by_admin, decision_id, reporter_note
    FROM reports;
DROP TABLE reports;
ALTER TABLE reports_new RENAME TO reports;
CREATE INDEX reports_reporter ON reports (reporter_id, filed_at);
CREATE INDEX reports_reporter_decided ON reports (reporter_id, decided_at);

CREATE TABLE fingerprint_notices (
    account_id BIGINT NOT NULL REFERENCES players (id),
    sanction_id BIGINT NOT NULL REFERENCES sanctions (id),
    automatic_report_id BIGINT NOT NULL REFERENCES automatic_reports (id) ON DELETE CASCADE,
    noticed_at TIMESTAMP NOT NULL,
    PRIMARY KEY (account_id, sanction_id)
);
COMMIT;
PRAGMA foreign_keys = ON;
