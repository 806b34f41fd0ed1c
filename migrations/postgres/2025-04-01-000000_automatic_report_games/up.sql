-- Automatic reports from every source (chat analysis, conduct signals) use the review
-- queue's reason codes, name the rule that raised them, and list every supporting game.
ALTER TABLE automatic_reports DROP CONSTRAINT automatic_reports_source_check;
ALTER TABLE automatic_reports DROP CONSTRAINT automatic_reports_reason_check;
UPDATE automatic_reports SET reason = 'rule_violating_chat' WHERE reason = 'ffa_chat';
ALTER TABLE automatic_reports ADD CONSTRAINT automatic_reports_source_check
    CHECK (source IN ('chat_analysis', 'conduct_signal'));
ALTER TABLE automatic_reports ADD CONSTRAINT automatic_reports_reason_check
    CHECK (reason IN ('offensive_chat', 'rule_violating_chat', 'abandoning',
        'self_partnering', 'prearranged_teaming', 'other'));
ALTER TABLE automatic_reports ADD COLUMN rule TEXT NOT NULL DEFAULT 'chat_in_game';
ALTER TABLE automatic_reports ALTER COLUMN rule DROP DEFAULT;

-- Every game that supports an automatic report (the raising game included).
CREATE TABLE automatic_report_games (
    report_id BIGINT NOT NULL REFERENCES automatic_reports (id) ON DELETE CASCADE,
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    PRIMARY KEY (report_id, game_id)
);
CREATE INDEX automatic_report_games_game ON automatic_report_games (game_id);
INSERT INTO automatic_report_games (report_id, game_id) SELECT id, game_id FROM automatic_reports;
