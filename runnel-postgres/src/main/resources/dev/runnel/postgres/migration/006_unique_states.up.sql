-- Unique jobs: a key is held only while its job is in one of the states its unique_states mask
-- names (UniqueStates: one bit per state in this enum's order, the first the highest), so the
-- unique index covers just those rows. A completed job whose states leave out completed frees its
-- key without any write of its own: its next row version simply falls outside the index.

-- Immutable (it reads nothing but its arguments), as an index predicate must be.
CREATE FUNCTION {schema}.runnel_job_state_in_bitmask(bitmask bit(8), state {schema}.runnel_job_state)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT get_bit(bitmask, CASE state
        WHEN 'pending' THEN 0 WHEN 'scheduled' THEN 1 WHEN 'available' THEN 2 WHEN 'running' THEN 3
        WHEN 'retryable' THEN 4 WHEN 'completed' THEN 5 WHEN 'cancelled' THEN 6 ELSE 7 END) = 1
$$;

DROP INDEX {schema}.runnel_job_unique;

-- Every statement that names this index (the insert's ON CONFLICT, the retry's check) repeats the
-- predicate word for word, so that the planner can prove it implied.
CREATE UNIQUE INDEX runnel_job_unique ON {schema}.runnel_job (unique_key)
    WHERE unique_key IS NOT NULL AND unique_states IS NOT NULL
      AND {schema}.runnel_job_state_in_bitmask(unique_states, state);
