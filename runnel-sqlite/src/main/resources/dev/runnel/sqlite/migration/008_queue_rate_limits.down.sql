ALTER TABLE runnel_queue DROP COLUMN rate_starts;
ALTER TABLE runnel_queue DROP COLUMN rate_period_us;
ALTER TABLE runnel_queue DROP COLUMN rate_limit;
