-- A case's priority from running tallies (issue #41): a new entry updates these instead of
-- re-reading every earlier entry of its case. `reporter_accuracy_sum` stays NULL until the
-- store first counts it (the share depends on the policy file, which SQL cannot read).
ALTER TABLE cases ADD COLUMN automatic_best DOUBLE NOT NULL DEFAULT 0;
ALTER TABLE cases ADD COLUMN reporter_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE cases ADD COLUMN reporter_accuracy_sum DOUBLE;

-- The distinct player reporters of each case: whether a filer is new to it is one lookup.
CREATE TABLE case_reporters (
    case_id BIGINT NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
    reporter_id BIGINT NOT NULL REFERENCES players (id),
    PRIMARY KEY (case_id, reporter_id)
);
CREATE INDEX case_reporters_reporter ON case_reporters (reporter_id);

INSERT INTO case_reporters (case_id, reporter_id)
SELECT DISTINCT cr.case_id, r.reporter_id
FROM case_reports cr JOIN reports r ON r.id = cr.report_id
WHERE r.reporter_id IS NOT NULL;

UPDATE cases SET
    reporter_count = (SELECT COUNT(*) FROM case_reporters m WHERE m.case_id = cases.id),
    automatic_best = COALESCE((
        SELECT MAX(CASE WHEN r.filed_by_admin IS NOT NULL THEN 1.0
                        ELSE MIN(MAX(COALESCE(r.score, 0.0), 0.0), 1.0) END)
        FROM case_reports cr JOIN reports r ON r.id = cr.report_id
        WHERE cr.case_id = cases.id AND r.reporter_id IS NULL
    ), 0.0);
