-- The SQLite contention scenario's slow writer (runnel scenario sqlite-contention): a table of its
-- own in the scenario's throwaway database, one row per slow transaction.

-- name: SlowTable
CREATE TABLE IF NOT EXISTS runnel_scenario_slow (id INTEGER PRIMARY KEY, began_at INTEGER NOT NULL)

-- name: SlowWrite
-- Inside BEGIN IMMEDIATE, held for the slow transaction's length before COMMIT.
INSERT INTO runnel_scenario_slow (began_at) VALUES (:began_at)

-- name: NoBusyTimeout
-- The slow writer retries BEGIN IMMEDIATE itself, every millisecond, as the fast writers' fair wait does.
PRAGMA busy_timeout = 0
