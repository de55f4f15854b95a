ALTER TABLE runnel_job DROP COLUMN cancel_requested_at;
