-- Collusion statistics kept current at ingest. One row per FFA or Solo game, player and
-- opponent: what the player did to the opponent (chances to capture or check and how many were
-- taken, pieces left hanging to them, points taken) and the surprising moments as
-- `ply:kind:piece` items. Per player, the running sums of those rows (what they did, and what
-- was done to them), the same sums over everybody (one row), and per pair the shared-game
-- count at its last automatic report.
-- Automatic reports and queue entries take the new source 'collusion_analysis'; SQLite cannot
-- change a CHECK constraint in place, so both tables are rebuilt (see metadata.toml).
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE automatic_reports_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source TEXT NOT NULL CHECK (source IN ('chat_analysis', 'conduct_signal', 'collusion_analysis')),
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
    source TEXT NOT NULL CHECK (source IN ('player', 'chat_analysis', 'conduct_signal', 'collusion_analysis', 'admin')),
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
INSERT INTO reports_new (id, source, reporter_id, automatic_report_id, reason, message, game_id, score, filed_at, updated_at, outcome, decided_at, filed_by_admin)
    SELECT id, source, reporter_id, automatic_report_id, reason, message, game_id, score, filed_at, updated_at, outcome, decided_at, filed_by_admin FROM reports;
DROP TABLE reports;
ALTER TABLE reports_new RENAME TO reports;
CREATE INDEX reports_reporter ON reports (reporter_id, filed_at);
CREATE INDEX reports_reporter_decided ON reports (reporter_id, decided_at);

CREATE TABLE game_pair_play (
    player TEXT NOT NULL,
    opponent TEXT NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games (id),
    -- Seats from the player to the opponent in turn order: 1 next, 2 opposite, 3 previous.
    seat_offset SMALLINT NOT NULL CHECK (seat_offset BETWEEN 1 AND 3),
    turns INTEGER NOT NULL,
    capture_chances INTEGER NOT NULL,
    captures INTEGER NOT NULL,
    check_chances INTEGER NOT NULL,
    checks INTEGER NOT NULL,
    gifts INTEGER NOT NULL,
    points_taken INTEGER NOT NULL,
    moments TEXT NOT NULL,
    PRIMARY KEY (player, opponent, game_id),
    CHECK (player <> opponent)
) WITHOUT ROWID;

CREATE INDEX game_pair_play_game ON game_pair_play (game_id);

CREATE TABLE collusion_baselines (
    player TEXT NOT NULL PRIMARY KEY,
    tally TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL
) WITHOUT ROWID;

CREATE TABLE collusion_population (
    id INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    tally TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE collusion_reported (
    player_low TEXT NOT NULL,
    player_high TEXT NOT NULL,
    games BIGINT NOT NULL,
    automatic_report_id BIGINT NOT NULL REFERENCES automatic_reports (id),
    reported_at TIMESTAMP NOT NULL,
    PRIMARY KEY (player_low, player_high),
    CHECK (player_low < player_high)
) WITHOUT ROWID;
COMMIT;
PRAGMA foreign_keys = ON;
