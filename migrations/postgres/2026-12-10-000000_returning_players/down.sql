DROP TABLE fingerprint_notices;
DROP INDEX game_seats_device_fp;
DROP INDEX game_seats_network_fp;
DELETE FROM case_reports WHERE report_id IN (SELECT id FROM reports WHERE source = 'fingerprint_match');
DELETE FROM report_accused WHERE report_id IN (SELECT id FROM reports WHERE source = 'fingerprint_match');
DELETE FROM report_games WHERE report_id IN (SELECT id FROM reports WHERE source = 'fingerprint_match');
DELETE FROM reports WHERE source = 'fingerprint_match';
DELETE FROM automatic_report_games WHERE report_id IN (SELECT id FROM automatic_reports WHERE source = 'fingerprint_match');
DELETE FROM automatic_reports WHERE source = 'fingerprint_match';
ALTER TABLE automatic_reports DROP CONSTRAINT automatic_reports_source_check;
ALTER TABLE automatic_reports ADD CONSTRAINT automatic_reports_source_check
    CHECK (source IN ('chat_analysis', 'conduct_signal', 'collusion_analysis'));
ALTER TABLE reports DROP CONSTRAINT reports_source_check;
ALTER TABLE reports ADD CONSTRAINT reports_source_check
    CHECK (source IN ('player', 'chat_analysis', 'conduct_signal', 'collusion_analysis', 'admin'));
