-- Autovacuum of the job table unthrottled, as a manual VACUUM runs. Every job leaves three dead
-- row versions (inserted, claimed, completed; then the cleaner deletes it), about 650 MB of heap
-- per million jobs. Throttled at 001's 1 ms per cost round, autovacuum fell hopelessly behind a
-- churn of 60,000 jobs/s on 2 vCPUs: in two runs of 10 million jobs it never finished a pass (it
-- was at most a third of the way through when the runs ended), and the heap grew to 6.5 GB with
-- nothing reused. Unthrottled, vacuums of the 1.8 to 3.2 GB table took 34 to 43 s, after which
-- freed space was reused and the heap stopped growing at 3.7 to 3.8 GB (runnel churn, in
-- docs/benchmarks.md). The table's live rows are few, so a vacuum that runs often is short; one
-- that lags only has more to do.
ALTER TABLE {schema}.runnel_job SET (autovacuum_vacuum_cost_delay = 0);
