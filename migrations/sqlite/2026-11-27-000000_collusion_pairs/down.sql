DROP INDEX collusion_reported_high;
DROP TABLE collusion_pairs;
