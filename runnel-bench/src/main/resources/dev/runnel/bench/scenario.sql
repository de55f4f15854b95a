-- The jobs table's Postgres rows: each job holds a pooled connection for a 100 ms server-side sleep,
-- as the reference run's jobs did.

-- name: PgSleep
SELECT pg_sleep(0.1);
