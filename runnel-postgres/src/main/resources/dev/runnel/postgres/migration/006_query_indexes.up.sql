CREATE INDEX runnel_job_state ON {schema}.runnel_job (state, id) INCLUDE (queue)
    WHERE state IN ('pending', 'scheduled', 'running', 'retryable', 'cancelled', 'discarded');
CREATE INDEX runnel_job_tags ON {schema}.runnel_job USING gin (tags) WHERE tags <> '{}';
