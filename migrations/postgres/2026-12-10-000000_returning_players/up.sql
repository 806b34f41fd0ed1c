-- A banned player back on a new account is noticed (issue #43, item 4; docs/moderation.md,
-- "Returning players"). Partial indexes find the seats that carried a fingerprint;
-- `fingerprint_notices` keeps which account was noticed for which ban. Automatic reports and
-- queue entries take the new source 'fingerprint_match'.
CREATE INDEX game_seats_device_fp ON game_seats (device_fp, game_id) WHERE device_fp IS NOT NULL;
CREATE INDEX game_seats_network_fp ON game_seats (network_fp, game_id) WHERE network_fp IS NOT NULL;
ALTER TABLE automatic_reports DROP CONSTRAINT automatic_reports_source_check;
ALTER TABLE automatic_reports ADD CONSTRAINT automatic_reports_source_check
    CHECK (source IN ('chat_analysis', 'conduct_signal', 'collusion_analysis', 'fingerprint_match'));
ALTER TABLE reports DROP CONSTRAINT reports_source_check;
ALTER TABLE reports ADD CONSTRAINT reports_source_check
    CHECK (source IN ('player', 'chat_analysis', 'conduct_signal', 'collusion_analysis',
        'fingerprint_match', 'admin'));
CREATE TABLE fingerprint_notices (
    account_id BIGINT NOT NULL REFERENCES players (id),
    sanction_id BIGINT NOT NULL REFERENCES sanctions (id),
    automatic_report_id BIGINT NOT NULL REFERENCES automatic_reports (id) ON DELETE CASCADE,
    noticed_at TIMESTAMP NOT NULL,
    PRIMARY KEY (account_id, sanction_id)
);
