DROP INDEX IF EXISTS {schema}.runnel_job_tags;
DROP INDEX IF EXISTS {schema}.runnel_job_state;
DROP INDEX IF EXISTS {schema}.runnel_job_running;
