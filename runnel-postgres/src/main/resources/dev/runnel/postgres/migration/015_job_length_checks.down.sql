ALTER TABLE {schema}.runnel_job
    DROP CONSTRAINT runnel_job_kind_length,
    DROP CONSTRAINT runnel_job_queue_length,
    ADD CONSTRAINT runnel_job_kind_length CHECK (char_length(kind) BETWEEN 1 AND 128) NOT VALID,
    ADD CONSTRAINT runnel_job_queue_length CHECK (char_length(queue) BETWEEN 1 AND 128) NOT VALID;
