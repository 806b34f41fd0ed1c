DROP TABLE conduct_records;
DROP TABLE conduct_outcomes;
