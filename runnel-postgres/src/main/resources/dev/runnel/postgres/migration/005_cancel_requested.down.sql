ALTER TABLE {schema}.runnel_job DROP COLUMN IF EXISTS cancel_requested_at;
