DROP TABLE IF EXISTS {schema}.runnel_job;
DROP TYPE IF EXISTS {schema}.runnel_job_state;
