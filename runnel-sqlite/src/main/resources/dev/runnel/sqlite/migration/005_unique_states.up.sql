-- Unique jobs: a key is held only while its job is in one of the states its unique_states mask
-- names (UniqueStates: one bit per state, scheduled 64, available 32, running 16, retryable 8,
-- completed 4, cancelled 2, discarded 1), so the unique index covers just those rows. Statements
-- that name this index (the insert's ON CONFLICT, the retry's check) repeat the predicate word
-- for word: SQLite matches a partial index by its expression.
DROP INDEX runnel_job_unique;

CREATE UNIQUE INDEX runnel_job_unique ON runnel_job (unique_key)
    WHERE unique_key IS NOT NULL AND unique_states IS NOT NULL
      AND (unique_states >> CASE state WHEN 'scheduled' THEN 6 WHEN 'available' THEN 5 WHEN 'running' THEN 4
           WHEN 'retryable' THEN 3 WHEN 'completed' THEN 2 WHEN 'cancelled' THEN 1 ELSE 0 END) & 1 = 1;
