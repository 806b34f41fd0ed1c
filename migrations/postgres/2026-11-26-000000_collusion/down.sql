DROP TABLE collusion_reported;
DROP TABLE collusion_population;
DROP TABLE collusion_baselines;
DROP TABLE game_pair_play;
DELETE FROM case_reports WHERE report_id IN (SELECT id FROM reports WHERE source = 'collusion_analysis');
DELETE FROM report_accused WHERE report_id IN (SELECT id FROM reports WHERE source = 'collusion_analysis');
DELETE FROM report_games WHERE report_id IN (SELECT id FROM reports WHERE source = 'collusion_analysis');
DELETE FROM reports WHERE source = 'collusion_analysis';
DELETE FROM automatic_reports WHERE source = 'collusion_analysis';
ALTER TABLE automatic_reports DROP CONSTRAINT automatic_reports_source_check;
ALTER TABLE automatic_reports ADD CONSTRAINT automatic_reports_source_check
    CHECK (source IN ('chat_analysis', 'conduct_signal'));
ALTER TABLE reports DROP CONSTRAINT reports_source_check;
ALTER TABLE reports ADD CONSTRAINT reports_source_check
    CHECK (source IN ('player', 'chat_analysis', 'conduct_signal', 'admin'));
