-- Clients, the leader's lease, and what the rescuer and the cleaner need.

-- Every started client, by its id, heartbeating: a client whose expires_at has passed is dead, and
-- the leader rescues the jobs it was running. Times are the clients' own clocks, so clients' clocks
-- must agree to within a fraction of the heartbeat timeout (NTP does).
CREATE TABLE {schema}.runnel_client (
    id           text        PRIMARY KEY,
    started_at   timestamptz NOT NULL,
    heartbeat_at timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    -- Set by a clean stop, which also makes expires_at now.
    stopped_at   timestamptz,
    -- When the rescuer last took this client's jobs; a client that heartbeats again later counts
    -- as alive (its expires_at moves past it) and is rescued again if it dies again.
    rescued_at   timestamptz,
    metadata     jsonb       NOT NULL DEFAULT '{}',
    CONSTRAINT runnel_client_id_length CHECK (char_length(id) BETWEEN 1 AND 255)
);

-- The leader's lease: one row at most. A client becomes leader by inserting it, or by taking it
-- over once expires_at has passed; the leader renews it and deletes it at a clean stop.
CREATE TABLE {schema}.runnel_leader (
    name       text        PRIMARY KEY DEFAULT 'default' CHECK (name = 'default'),
    leader_id  text        NOT NULL,
    elected_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);

-- How often the rescuer took this job from a client that died running it: at the third it is
-- discarded, since it most likely kills whatever process runs it (memory, a native crash).
-- A constant default: adding it rewrites nothing (Postgres 11 and later).
ALTER TABLE {schema}.runnel_job ADD COLUMN rescues integer NOT NULL DEFAULT 0;

-- Serves the cleaner: final jobs by state and age, so that deleting those past their retention
-- reads only them. One more index entry per finished job (completions write it, claims do not);
-- measured in docs/benchmarks.md against the table that grows forever without it.
CREATE INDEX runnel_job_finalized ON {schema}.runnel_job (state, finalized_at) WHERE finalized_at IS NOT NULL;
