DROP INDEX runnel_job_limited;
ALTER TABLE runnel_job DROP COLUMN limit_key;
ALTER TABLE runnel_queue DROP COLUMN global_limit;
