DROP INDEX {schema}.runnel_job_limited;
ALTER TABLE {schema}.runnel_job DROP COLUMN limit_key;
ALTER TABLE {schema}.runnel_queue DROP COLUMN global_limit;
