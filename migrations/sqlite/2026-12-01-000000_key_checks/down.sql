DROP TABLE key_checks;
