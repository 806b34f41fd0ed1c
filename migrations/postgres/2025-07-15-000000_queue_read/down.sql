DROP INDEX modlog_case_id;
DROP INDEX cases_queue_reason_age;
DROP INDEX cases_queue_age;
