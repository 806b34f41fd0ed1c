DROP TABLE case_reporters;
ALTER TABLE cases DROP COLUMN reporter_accuracy_sum;
ALTER TABLE cases DROP COLUMN reporter_count;
ALTER TABLE cases DROP COLUMN automatic_best;
