DROP TABLE {schema}.runnel_key_rate;
DROP INDEX {schema}.runnel_job_fetch_keyed;
DROP TRIGGER runnel_job_key_inserted ON {schema}.runnel_job;
DROP FUNCTION {schema}.runnel_job_key_inserted();
ALTER TABLE {schema}.runnel_queue DROP CONSTRAINT runnel_queue_key_whole, DROP COLUMN key_rate_period_us, DROP COLUMN key_rate_limit, DROP COLUMN key_weights, DROP COLUMN key_set_at,
    DROP COLUMN key_limit, DROP COLUMN key_field, DROP COLUMN key_source;
