-- Rate limits: at most rate_limit jobs of a queue started in any rate_period_us (microseconds)
-- across all clients, enforced in the limited claim, which holds the queue's row locked. The
-- row keeps the start times of the queue's last rate_limit jobs (rate_starts): a claim may start
-- as many as there are starts older than the period, so the limit holds over every window of
-- that length, not only over windows aligned to the clock (which let twice as many through
-- around a boundary).
ALTER TABLE {schema}.runnel_queue
    ADD COLUMN rate_limit integer CONSTRAINT runnel_queue_rate_limit_range CHECK (rate_limit BETWEEN 1 AND 100000),
    ADD COLUMN rate_period_us bigint CONSTRAINT runnel_queue_rate_period_positive CHECK (rate_period_us >= 1000),
    ADD COLUMN rate_starts bigint[] NOT NULL DEFAULT '{}',
    ADD CONSTRAINT runnel_queue_rate_whole CHECK ((rate_limit IS NULL) = (rate_period_us IS NULL));
