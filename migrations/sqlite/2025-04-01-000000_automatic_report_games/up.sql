-- Automatic reports from every source (chat analysis, conduct signals) use the review
-- queue's reason codes, name the rule that raised them, and list every supporting game.
-- SQLite cannot change a CHECK constraint in place, so the table is rebuilt.
CREATE TABLE automatic_reports_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source TEXT NOT NULL CHECK (source IN ('chat_analysis', 'conduct_signal')),
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
    SELECT id, source, player, game_id,
           CASE reason WHEN 'ffa_chat' THEN 'rule_violating_chat' ELSE reason END,
           'chat_in_game', score, summary, created_at
    FROM automatic_reports;
DROP TABLE automatic_reports;
ALTER TABLE automatic_reports_new RENAME TO automatic_reports;
CREATE INDEX automatic_reports_player ON automatic_reports (player, id);
CREATE INDEX automatic_reports_game ON automatic_reports (game_id);

-- Every game that supports an automatic report (the raising game included).
CREATE TABLE automatic_report_games (
    report_id BIGINT NOT NULL REFERENCES automatic_reports (id) ON DELETE CASCADE,
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    PRIMARY KEY (report_id, game_id)
);
CREATE INDEX automatic_report_games_game ON automatic_report_games (game_id);
INSERT INTO automatic_report_games (report_id, game_id) SELECT id, game_id FROM automatic_reports;
