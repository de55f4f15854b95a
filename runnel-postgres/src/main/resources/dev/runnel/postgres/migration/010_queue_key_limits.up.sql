-- Per-key limits: at most key_limit jobs of a queue running at once per key, the key being one
-- field of the job's args or metadata (key_source, key_field), with any number of keys; the
-- limited claim takes jobs from the keys in turn, so that one key's backlog does not hold up the
-- others.
ALTER TABLE {schema}.runnel_queue
    ADD COLUMN key_source text CONSTRAINT runnel_queue_key_source CHECK (key_source IN ('args', 'metadata')),
    ADD COLUMN key_field text,
    ADD COLUMN key_limit integer CONSTRAINT runnel_queue_key_limit_positive CHECK (key_limit >= 1),
    ADD COLUMN key_set_at timestamptz,
    -- Keys' weights in the turns ({"acme": 3}: three jobs a turn); a key not named weighs 1.
    ADD COLUMN key_weights jsonb NOT NULL DEFAULT '{}',
    -- A rate per key: at most key_rate_limit of a key's jobs started in any key_rate_period_us.
    ADD COLUMN key_rate_limit integer CONSTRAINT runnel_queue_key_rate_range CHECK (key_rate_limit BETWEEN 1 AND 100000),
    ADD COLUMN key_rate_period_us bigint CONSTRAINT runnel_queue_key_rate_period CHECK (key_rate_period_us >= 1000),
    ADD CONSTRAINT runnel_queue_key_whole
        CHECK ((key_limit IS NULL) = (key_field IS NULL) AND (key_field IS NULL) = (key_source IS NULL));

-- A job's key is stored in limit_key when it is inserted into a queue with a per-key limit, by
-- this trigger: once per insert statement, whatever the statement (a batch, a caller's
-- transaction, a periodic job), and writing nothing for queues without one. A missing field is
-- the key ''.
CREATE FUNCTION {schema}.runnel_job_key_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE {schema}.runnel_job j
    SET limit_key = coalesce(CASE q.key_source WHEN 'args' THEN j.args ->> q.key_field
                                               ELSE j.metadata ->> q.key_field END, '')
    FROM inserted i JOIN {schema}.runnel_queue q ON q.name = i.queue AND q.key_limit IS NOT NULL
    WHERE j.id = i.id;
    RETURN NULL;
END
$$;

CREATE TRIGGER runnel_job_key_inserted AFTER INSERT ON {schema}.runnel_job
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION {schema}.runnel_job_key_inserted();

-- The keyed claim: the keys with waiting jobs, one index probe each, and each key's jobs in order.
CREATE INDEX runnel_job_fetch_keyed ON {schema}.runnel_job (queue, limit_key, priority, scheduled_at, id)
    WHERE state = 'available' AND limit_key IS NOT NULL;

-- The start times of each key's last key_rate_limit jobs, as runnel_queue.rate_starts keeps them
-- for the queue; written by the keyed claim, under the queue's lock.
CREATE TABLE {schema}.runnel_key_rate (
    queue  text     NOT NULL,
    key    text     NOT NULL,
    starts bigint[] NOT NULL,
    PRIMARY KEY (queue, key)
);
