-- Periodic jobs: each one's definition and its progress (fired_through: every tick up to it has
-- been dealt with), moved on in the transaction that inserts each tick's job. See the Postgres
-- migration.
CREATE TABLE runnel_periodic (
    name          TEXT    PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 128),
    kind          TEXT    NOT NULL CHECK (length(kind) BETWEEN 1 AND 128),
    args          TEXT    NOT NULL DEFAULT '{}',
    queue         TEXT    NOT NULL DEFAULT 'default' CHECK (length(queue) BETWEEN 1 AND 128),
    priority      INTEGER NOT NULL DEFAULT 1 CHECK (priority BETWEEN 1 AND 4),
    max_attempts  INTEGER NOT NULL DEFAULT 25 CHECK (max_attempts >= 1),
    tags          TEXT    NOT NULL DEFAULT '[]',
    metadata      TEXT    NOT NULL DEFAULT '{}',
    schedule      TEXT    NOT NULL,
    zone          TEXT    NOT NULL DEFAULT 'UTC',
    catch_up      TEXT    NOT NULL DEFAULT 'skip' CHECK (catch_up IN ('skip', 'latest')),
    run_on_start  INTEGER NOT NULL DEFAULT 0,
    hash          TEXT    NOT NULL,
    declared_hash TEXT,
    fired_through INTEGER NOT NULL,
    last_tick     INTEGER,
    paused_at     INTEGER,
    removed_at    INTEGER,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
);
