-- Statements of the SQLite migration table. It is created by the driver, not by a migration, so
-- that it can record the first one, and dropped by the driver once the last one is reverted, so
-- that a full down leaves nothing of Runnel behind.

-- name: MigrationTableCreate
CREATE TABLE IF NOT EXISTS runnel_migration (
    version    INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    applied_at INTEGER NOT NULL
);

-- name: MigrationTableExists
SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'runnel_migration';

-- name: MigrationList
SELECT version, name, applied_at FROM runnel_migration ORDER BY version;

-- name: MigrationGet
SELECT count(*) FROM runnel_migration WHERE version = :version;

-- name: MigrationInsert
INSERT INTO runnel_migration (version, name, applied_at) VALUES (:version, :name, :applied_at);

-- name: MigrationDelete
DELETE FROM runnel_migration WHERE version = :version;

-- name: MigrationAnyApplied
SELECT EXISTS (SELECT 1 FROM runnel_migration);

-- name: MigrationTableDrop
DROP TABLE runnel_migration;
