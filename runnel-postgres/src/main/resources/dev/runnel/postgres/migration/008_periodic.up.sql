-- Periodic jobs: each one's definition (the job each tick enqueues, and its schedule) and its
-- progress. The progress is stored here, not derived from job rows (the cleaner deletes those) nor
-- kept in the leader's memory (a new leader would start over): fired_through is the tick up to
-- which every tick has been dealt with, and the leader moves it on from the value it read to the
-- next tick in the same statement that inserts that tick's job, so a tick is enqueued once however
-- many clients believe they lead.
CREATE TABLE {schema}.runnel_periodic (
    name          text        PRIMARY KEY,
    kind          text        NOT NULL,
    args          jsonb       NOT NULL DEFAULT '{}',
    queue         text        NOT NULL DEFAULT 'default',
    priority      smallint    NOT NULL DEFAULT 1,
    max_attempts  integer     NOT NULL DEFAULT 25,
    tags          text[]      NOT NULL DEFAULT '{}',
    metadata      jsonb       NOT NULL DEFAULT '{}',
    -- A cron expression, or '@every ' and an ISO-8601 duration; cron fields are read in zone.
    schedule      text        NOT NULL,
    zone          text        NOT NULL DEFAULT 'UTC',
    catch_up      text        NOT NULL DEFAULT 'skip',
    run_on_start  boolean     NOT NULL DEFAULT false,
    -- A digest of the whole definition, and of the definition code last declared under this name
    -- (null if code never did): code stores its definition only when that changes, so that an
    -- operator's edit or removal stands across restarts.
    hash          text        NOT NULL,
    declared_hash text,
    fired_through timestamptz NOT NULL,
    last_tick     timestamptz,
    paused_at     timestamptz,
    -- Removed jobs stay as a mark, so that code declaring them unchanged does not bring them back.
    removed_at    timestamptz,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL,
    CONSTRAINT runnel_periodic_name_length CHECK (char_length(name) BETWEEN 1 AND 128),
    CONSTRAINT runnel_periodic_kind_length CHECK (char_length(kind) BETWEEN 1 AND 128),
    CONSTRAINT runnel_periodic_queue_length CHECK (char_length(queue) BETWEEN 1 AND 128),
    CONSTRAINT runnel_periodic_priority_range CHECK (priority BETWEEN 1 AND 4),
    CONSTRAINT runnel_periodic_max_attempts_positive CHECK (max_attempts >= 1),
    CONSTRAINT runnel_periodic_catch_up CHECK (catch_up IN ('skip', 'latest'))
);
