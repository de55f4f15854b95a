-- The jobs table's Postgres rows: each job holds a pooled connection for a 100 ms server-side sleep,
-- as the reference run's jobs did.

-- name: PgSleep
SELECT pg_sleep(0.1);

-- name: PgWarm
-- Run once on each pooled connection before the timed run: a new server process's first statement
-- reads the catalog (about a millisecond of its CPU), which a pool in use has long done.
SELECT pg_sleep(0);
