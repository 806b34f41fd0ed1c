DROP TABLE write_probes;
