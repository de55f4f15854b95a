-- Queues as the cluster knows them: registered by every client that works one, and paused or
-- resumed from anywhere; the claim reads the pause. See the Postgres migration.
CREATE TABLE runnel_queue (
    name       TEXT    PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 128),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    paused_at  INTEGER,
    metadata   TEXT    NOT NULL DEFAULT '{}'
);
