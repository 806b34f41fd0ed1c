DROP TABLE automatic_report_games;
CREATE TABLE automatic_reports_old (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source TEXT NOT NULL CHECK (source IN ('chat_analysis')),
    player TEXT NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    reason TEXT NOT NULL CHECK (reason IN ('offensive_chat', 'ffa_chat')),
    score DOUBLE PRECISION NOT NULL CHECK (score >= 0 AND score <= 1),
    summary TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
INSERT INTO automatic_reports_old (id, source, player, game_id, reason, score, summary, created_at)
    SELECT id, source, player, game_id,
           CASE reason WHEN 'rule_violating_chat' THEN 'ffa_chat' ELSE reason END,
           score, summary, created_at
    FROM automatic_reports
    WHERE source = 'chat_analysis' AND reason IN ('offensive_chat', 'rule_violating_chat');
DROP TABLE automatic_reports;
ALTER TABLE automatic_reports_old RENAME TO automatic_reports;
CREATE INDEX automatic_reports_player ON automatic_reports (player, id);
CREATE INDEX automatic_reports_game ON automatic_reports (game_id);
