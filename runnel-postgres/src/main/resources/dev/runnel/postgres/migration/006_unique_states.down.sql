DROP INDEX {schema}.runnel_job_unique;
CREATE UNIQUE INDEX runnel_job_unique ON {schema}.runnel_job (unique_key) WHERE unique_key IS NOT NULL;
DROP FUNCTION {schema}.runnel_job_state_in_bitmask(bit(8), {schema}.runnel_job_state);
