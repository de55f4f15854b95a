-- When someone asked to cancel a job that was running; see the Postgres migration.
ALTER TABLE runnel_job ADD COLUMN cancel_requested_at INTEGER;
