-- The job table. Times are INTEGER microseconds since the epoch (compact, and compared as
-- integers); JSON columns are TEXT.
CREATE TABLE runnel_job (
    id            INTEGER PRIMARY KEY AUTOINCREMENT, -- AUTOINCREMENT: an id is never reused, even after cleanup
    kind          TEXT    NOT NULL,
    args          TEXT    NOT NULL DEFAULT '{}',
    state         TEXT    NOT NULL DEFAULT 'available'
                  CHECK (state IN ('available', 'scheduled', 'running', 'retryable',
                                   'completed', 'cancelled', 'discarded', 'pending')),
    queue         TEXT    NOT NULL DEFAULT 'default',
    priority      INTEGER NOT NULL DEFAULT 1 CHECK (priority BETWEEN 1 AND 4),
    attempt       INTEGER NOT NULL DEFAULT 0,
    max_attempts  INTEGER NOT NULL DEFAULT 25 CHECK (max_attempts >= 1),
    attempted_at  INTEGER,
    attempted_by  TEXT,
    created_at    INTEGER NOT NULL,
    scheduled_at  INTEGER NOT NULL,
    finalized_at  INTEGER,
    errors        TEXT,
    metadata      TEXT    NOT NULL DEFAULT '{}',
    tags          TEXT    NOT NULL DEFAULT '[]',
    unique_key    BLOB,
    unique_states INTEGER,
    CHECK (length(kind) BETWEEN 1 AND 128),
    CHECK (length(queue) BETWEEN 1 AND 128),
    CHECK ((finalized_at IS NOT NULL) = (state IN ('completed', 'cancelled', 'discarded')))
);

-- Serves the claim: only available jobs are in it, in the order they are worked.
CREATE INDEX runnel_job_fetch ON runnel_job (queue, priority, scheduled_at, id) WHERE state = 'available';

-- Serves the scheduler: scheduled and retryable jobs by due time.
CREATE INDEX runnel_job_due ON runnel_job (scheduled_at, id) WHERE state IN ('scheduled', 'retryable');

-- No (state, queue, id) index for listing: it is rewritten on every claim and completion, and
-- dropping it took the 1M-job burndown from about 82k to 99k jobs/s. Listing and counting by
-- state scan by rowid instead; the dashboard will revisit this with its own measurements.

-- Unique jobs: the database, not a read-then-write, refuses a duplicate.
CREATE UNIQUE INDEX runnel_job_unique ON runnel_job (unique_key) WHERE unique_key IS NOT NULL;
