DELETE FROM reports WHERE source = 'admin';
ALTER TABLE reports DROP CONSTRAINT reports_admin_check;
ALTER TABLE reports DROP COLUMN filed_by_admin;
ALTER TABLE reports DROP CONSTRAINT reports_source_check;
ALTER TABLE reports ADD CONSTRAINT reports_source_check
    CHECK (source IN ('player', 'chat_analysis', 'conduct_signal'));
