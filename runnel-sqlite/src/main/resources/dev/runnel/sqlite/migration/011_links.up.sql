-- Workflows, batches and sequences. A plain job has no row here and its claim and completion
-- never read these tables; a linked job has one row in runnel_link and one edge in
-- runnel_link_dep per job it runs after. No foreign keys: the cleaner deletes final jobs on its
-- own schedule, and a dependency deleted by hand must still settle what waits for it.
CREATE TABLE runnel_workflow (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);

-- A batch's counts are kept by every outcome of its jobs, so reading its progress is one row.
-- A callback column is NULL until its condition first held, then the callback job's id (0 when
-- the batch has no such callback).
CREATE TABLE runnel_batch (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    name            TEXT,
    created_at      INTEGER NOT NULL,
    callbacks       TEXT    NOT NULL DEFAULT '{}',
    total           INTEGER NOT NULL DEFAULT 0,
    completed       INTEGER NOT NULL DEFAULT 0,
    cancelled       INTEGER NOT NULL DEFAULT 0,
    discarded       INTEGER NOT NULL DEFAULT 0,
    deleted         INTEGER NOT NULL DEFAULT 0,
    success_job_id  INTEGER,
    complete_job_id INTEGER,
    discard_job_id  INTEGER
);

-- waiting: how many of the job's edges are open; it is pending while that is above 0.
CREATE TABLE runnel_link (
    job_id       INTEGER PRIMARY KEY,
    workflow_id  INTEGER,
    task         TEXT,
    batch_id     INTEGER,
    sequence_key TEXT,
    policy       TEXT    NOT NULL DEFAULT 'cancel' CHECK (policy IN ('cancel', 'run')),
    waiting      INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX runnel_link_task ON runnel_link (workflow_id, task) WHERE workflow_id IS NOT NULL;
CREATE INDEX runnel_link_batch ON runnel_link (batch_id) WHERE batch_id IS NOT NULL;

-- job_id runs after dep_id. An edge is open (1) until dep_id's outcome settles it.
CREATE TABLE runnel_link_dep (
    job_id INTEGER NOT NULL,
    dep_id INTEGER NOT NULL,
    policy TEXT    NOT NULL CHECK (policy IN ('cancel', 'run', 'hold')),
    open   INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (job_id, dep_id)
) WITHOUT ROWID;
CREATE INDEX runnel_link_dep_dep ON runnel_link_dep (dep_id, job_id);

-- Each sequence's last job: the next one inserted runs after it.
CREATE TABLE runnel_sequence (
    key         TEXT    PRIMARY KEY,
    last_job_id INTEGER NOT NULL
) WITHOUT ROWID;
