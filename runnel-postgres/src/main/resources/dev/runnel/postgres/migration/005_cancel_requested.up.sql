-- When someone asked to cancel a job that was running: its client, told by notification or at its
-- next poll, interrupts the attempt, and whatever the worker then does short of completing, the
-- job ends cancelled (the outcome statements read this column).
ALTER TABLE {schema}.runnel_job ADD COLUMN cancel_requested_at timestamptz;
