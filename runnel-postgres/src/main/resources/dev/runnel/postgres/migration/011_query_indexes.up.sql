-- What listings and counts for people (the CLI, a dashboard) need on a table of millions of jobs,
-- mostly completed, at the least cost to the claim and the completion: every index here gets an
-- entry for each new row version that matches its predicate, and no update of a job is HOT (its
-- state is in the fetch index's predicate), so a full index would cost every job three entries
-- (inserted, claimed, completed). Measured in docs/benchmarks.md ("What options cost").

-- Running jobs, by id: the one entry here that the happy path writes, at the claim. Its key is
-- the id alone, and claims take jobs in about id order, so each entry goes to the index's last
-- page. It answers a listing and the count of running jobs (otherwise a walk of the whole table
-- whenever fewer than a page of them run), and lets the rescuer and the recovery of a lost claim
-- read the running jobs instead of the table.
CREATE INDEX runnel_job_running ON {schema}.runnel_job (id) WHERE state = 'running';

-- The other states a job reaches only off the happy path (waiting for its time or a retry, cancelled,
-- discarded), by state and id, with the queue for counting them from the index alone. Completed
-- jobs (most of the table) are listed by walking the primary key, whose first page of them is at
-- hand, and available ones through the primary key or the fetch index.
CREATE INDEX runnel_job_state ON {schema}.runnel_job (state, id) INCLUDE (queue)
    WHERE state IN ('pending', 'scheduled', 'retryable', 'cancelled', 'discarded');

-- Tagged jobs by tag, for a listing by a rare tag. Untagged jobs are left out, so a job without
-- tags never writes an entry here.
CREATE INDEX runnel_job_tags ON {schema}.runnel_job USING gin (tags) WHERE tags <> '{}';
