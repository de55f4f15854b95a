-- Queues as the cluster knows them: registered by every client that works one, and paused or
-- resumed from anywhere. A pause is stored here, so it survives restarts, and the claim reads it
-- (one primary-key lookup per claim, not per job), so a paused queue fetches nothing from the next
-- claim on, whichever client claims.
CREATE TABLE {schema}.runnel_queue (
    name       text        PRIMARY KEY,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    paused_at  timestamptz,
    metadata   jsonb       NOT NULL DEFAULT '{}',
    CONSTRAINT runnel_queue_name_length CHECK (char_length(name) BETWEEN 1 AND 128)
);
