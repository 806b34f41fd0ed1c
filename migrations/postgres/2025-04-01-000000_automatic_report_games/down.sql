DROP TABLE automatic_report_games;
DELETE FROM automatic_reports
    WHERE source <> 'chat_analysis' OR reason NOT IN ('offensive_chat', 'rule_violating_chat');
ALTER TABLE automatic_reports DROP COLUMN rule;
ALTER TABLE automatic_reports DROP CONSTRAINT automatic_reports_source_check;
ALTER TABLE automatic_reports DROP CONSTRAINT automatic_reports_reason_check;
UPDATE automatic_reports SET reason = 'ffa_chat' WHERE reason = 'rule_violating_chat';
ALTER TABLE automatic_reports ADD CONSTRAINT automatic_reports_source_check
    CHECK (source IN ('chat_analysis'));
ALTER TABLE automatic_reports ADD CONSTRAINT automatic_reports_reason_check
    CHECK (reason IN ('offensive_chat', 'ffa_chat'));
