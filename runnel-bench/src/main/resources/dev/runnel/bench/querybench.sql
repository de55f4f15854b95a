-- The query harness's data (runnel query-bench): a busy day's jobs, written straight into the job
-- table of the harness's own schema. {schema} is that schema, validated.

-- name: Load
-- Jobs :from_id to :to_id (ids), of :total in all, created one after another from
-- :first_created_at, :step_us microseconds apart. Of every 1,000
-- jobs: 5 waiting (available) across the day, as in a paused queue, 5 scheduled for tomorrow, 4
-- retryable, 2 cancelled, 5 discarded, the rest completed two seconds after they were created;
-- besides, the newest 1% are a backlog, half of it available, and 100 of the 200 jobs just older
-- than the backlog are running: claims take the oldest waiting jobs first.
-- Twenty kinds and a rare one (1 in 10,000); five queues and a rare one (1 in 1,000); one job
-- in 7 tagged batch and nightly, 1 in 2,000 vip; args with a customer (1 in 100,000 each), an
-- order, a region (eu or us) and a note.
INSERT INTO {schema}.runnel_job (id, kind, args, state, queue, priority, attempt, max_attempts, attempted_at,
                                 attempted_by, created_at, scheduled_at, finalized_at, metadata, tags)
SELECT g,
       CASE WHEN g % 10000 = 7 THEN 'rare_kind' ELSE 'kind_' || (g * 7919 % 20) END,
       jsonb_build_object('customer_id', g * 104729 % 100000, 'order_id', g,
                          'region', CASE WHEN g % 2 = 0 THEN 'eu' ELSE 'us' END, 'note', 'order ' || g),
       s.state::{schema}.runnel_job_state,
       CASE WHEN g % 1000 = 3 THEN 'rare_queue'
            ELSE (ARRAY['default', 'default', 'default', 'default', 'default', 'mailers', 'mailers', 'reports',
                        'webhooks', 'imports'])[1 + g * 31 % 10] END,
       1 + (g % 4 = 0)::int,
       CASE WHEN s.state IN ('available', 'scheduled') THEN 0 ELSE 1 END,
       25,
       CASE WHEN s.state IN ('available', 'scheduled') THEN NULL ELSE t.created + interval '1 second' END,
       CASE WHEN s.state IN ('available', 'scheduled') THEN '{}'::text[] ELSE ARRAY['client-' || g % 8] END,
       t.created,
       CASE WHEN s.state = 'scheduled' THEN t.created + interval '2 days' ELSE t.created END,
       CASE WHEN s.state IN ('completed', 'cancelled', 'discarded') THEN t.created + interval '2 seconds' END,
       '{}'::jsonb,
       CASE WHEN g % 2000 = 11 THEN ARRAY['vip'] WHEN g % 7 = 0 THEN ARRAY['batch', 'nightly'] ELSE '{}'::text[] END
FROM generate_series(:from_id::bigint, :to_id::bigint) AS g
CROSS JOIN LATERAL (SELECT :total::bigint AS n) AS total
CROSS JOIN LATERAL (SELECT :first_created_at::timestamptz + g * :step_us::bigint * interval '1 microsecond' AS created) AS t
CROSS JOIN LATERAL (SELECT CASE
        WHEN g > total.n - total.n / 100 AND g % 2 = 0 THEN 'available'
        WHEN g > total.n - total.n / 100 - 200 AND g <= total.n - total.n / 100 AND g % 2 = 1 THEN 'running'
        WHEN g % 200 = 17 THEN 'available'
        WHEN g % 200 = 29 THEN 'scheduled'
        WHEN g % 250 = 41 THEN 'retryable'
        WHEN g % 500 = 53 THEN 'cancelled'
        WHEN g % 200 = 67 THEN 'discarded'
        ELSE 'completed' END AS state) AS s;

-- name: SetSequence
SELECT setval('{schema}.runnel_job_id_seq', :last_id);

-- name: Loaded
-- How many jobs a kept schema holds, to reuse it; the table's and its indexes' sizes.
SELECT count(*), max(id), pg_relation_size('{schema}.runnel_job'), pg_indexes_size('{schema}.runnel_job')
FROM {schema}.runnel_job;

-- name: CountsExact
-- The true counts by queue and state, to compare the fast counts' estimates with.
SELECT queue, state::text, count(*) FROM {schema}.runnel_job GROUP BY queue, state;
