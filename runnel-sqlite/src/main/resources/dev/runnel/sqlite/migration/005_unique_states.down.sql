DROP INDEX runnel_job_unique;
CREATE UNIQUE INDEX runnel_job_unique ON runnel_job (unique_key) WHERE unique_key IS NOT NULL;
