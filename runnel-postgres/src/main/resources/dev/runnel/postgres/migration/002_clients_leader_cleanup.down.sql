DROP INDEX IF EXISTS {schema}.runnel_job_finalized;
ALTER TABLE {schema}.runnel_job DROP COLUMN IF EXISTS rescues;
DROP TABLE IF EXISTS {schema}.runnel_leader;
DROP TABLE IF EXISTS {schema}.runnel_client;
