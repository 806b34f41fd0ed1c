-- An admin may open a case about what they saw themselves: their entry is a report with the
-- source 'admin' and the admin's player id, never a player reporter (no accuracy, no timeout).
ALTER TABLE reports DROP CONSTRAINT reports_source_check;
ALTER TABLE reports ADD CONSTRAINT reports_source_check
    CHECK (source IN ('player', 'chat_analysis', 'conduct_signal', 'admin'));
ALTER TABLE reports ADD COLUMN filed_by_admin BIGINT REFERENCES players (id);
ALTER TABLE reports ADD CONSTRAINT reports_admin_check
    CHECK ((source = 'admin') = (filed_by_admin IS NOT NULL));
