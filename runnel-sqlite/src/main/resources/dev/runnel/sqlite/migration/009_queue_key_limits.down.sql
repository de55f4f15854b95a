DROP INDEX runnel_job_fetch_keyed;
DROP TRIGGER runnel_job_key_inserted;
ALTER TABLE runnel_queue DROP COLUMN key_weights;
ALTER TABLE runnel_queue DROP COLUMN key_set_at;
ALTER TABLE runnel_queue DROP COLUMN key_limit;
ALTER TABLE runnel_queue DROP COLUMN key_field;
ALTER TABLE runnel_queue DROP COLUMN key_source;
