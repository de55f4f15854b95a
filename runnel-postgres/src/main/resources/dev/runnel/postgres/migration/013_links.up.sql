-- Workflows, batches and sequences. A plain job has no row here and its claim and completion
-- never read these tables; a linked job has one row in runnel_link and one edge in
-- runnel_link_dep per job it runs after. No foreign keys: the cleaner deletes final jobs on its
-- own schedule, and a dependency deleted by hand must still settle what waits for it.
CREATE TABLE {schema}.runnel_workflow (
    id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       text        NOT NULL,
    created_at timestamptz NOT NULL
);

-- A batch's counts are kept by every outcome of its jobs, under this row's lock, so reading its
-- progress is one row. A callback column is NULL until its condition first held, then the
-- callback job's id (0 when the batch has no such callback).
CREATE TABLE {schema}.runnel_batch (
    id              bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name            text,
    created_at      timestamptz NOT NULL,
    callbacks       jsonb       NOT NULL DEFAULT '{}',
    total           bigint      NOT NULL DEFAULT 0,
    completed       bigint      NOT NULL DEFAULT 0,
    cancelled       bigint      NOT NULL DEFAULT 0,
    discarded       bigint      NOT NULL DEFAULT 0,
    deleted         bigint      NOT NULL DEFAULT 0,
    success_job_id  bigint,
    complete_job_id bigint,
    discard_job_id  bigint
);

-- waiting: how many of the job's edges are open; it is pending while that is above 0.
CREATE TABLE {schema}.runnel_link (
    job_id       bigint  PRIMARY KEY,
    workflow_id  bigint,
    task         text,
    batch_id     bigint,
    sequence_key text,
    policy       text    NOT NULL DEFAULT 'cancel' CHECK (policy IN ('cancel', 'run')),
    waiting      integer NOT NULL DEFAULT 0
);
-- A workflow's tasks by name, one of each name (two inserts adding the same name at once: the
-- second fails here).
CREATE UNIQUE INDEX runnel_link_task ON {schema}.runnel_link (workflow_id, task) WHERE workflow_id IS NOT NULL;
CREATE INDEX runnel_link_batch ON {schema}.runnel_link (batch_id) WHERE batch_id IS NOT NULL;

-- job_id runs after dep_id. An edge is open until dep_id's outcome settles it. The primary key
-- serves a job's edges (a retry reopening them), the second index the edges from a dependency
-- (its outcome settling them).
CREATE TABLE {schema}.runnel_link_dep (
    job_id bigint  NOT NULL,
    dep_id bigint  NOT NULL,
    policy text    NOT NULL CHECK (policy IN ('cancel', 'run', 'hold')),
    open   boolean NOT NULL DEFAULT true,
    PRIMARY KEY (job_id, dep_id)
);
CREATE INDEX runnel_link_dep_dep ON {schema}.runnel_link_dep (dep_id, job_id);

-- Each sequence's last job (0: none yet): the next one inserted runs after it. Inserts into one
-- sequence take turns on its row.
CREATE TABLE {schema}.runnel_sequence (
    key         text   PRIMARY KEY,
    last_job_id bigint NOT NULL
);
