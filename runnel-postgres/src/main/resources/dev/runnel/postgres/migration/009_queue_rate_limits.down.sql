ALTER TABLE {schema}.runnel_queue DROP CONSTRAINT runnel_queue_rate_whole, DROP COLUMN rate_starts,
    DROP COLUMN rate_period_us, DROP COLUMN rate_limit;
