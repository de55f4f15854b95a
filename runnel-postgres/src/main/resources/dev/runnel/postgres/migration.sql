-- Statements of the Postgres migration table. It is created by the driver, not by a migration, so
-- that it can record the first one, and dropped by the driver once the last one is reverted, so
-- that a full down leaves nothing of Runnel behind (the schema stays: it may hold the
-- application's own tables). {schema} is the driver's validated, quoted schema.

-- name: MigrationLock
-- Serialises migrators of this schema across processes until the transaction ends; :key is a key
-- derived from the schema name.
SELECT pg_advisory_xact_lock(:key);

-- name: SchemaExists
SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = :schema);

-- name: SchemaCreate
-- Only run when the schema is missing: CREATE SCHEMA checks the CREATE privilege on the database
-- before IF NOT EXISTS, which would fail a least-privileged user on an existing schema.
CREATE SCHEMA IF NOT EXISTS {schema};

-- name: MigrationTableCreate
CREATE TABLE IF NOT EXISTS {schema}.runnel_migration (
    version    integer     PRIMARY KEY,
    name       text        NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
);

-- name: MigrationTableExists
SELECT to_regclass('{schema}.runnel_migration') IS NOT NULL;

-- name: MigrationList
SELECT version, name, applied_at FROM {schema}.runnel_migration ORDER BY version;

-- name: MigrationGet
SELECT EXISTS (SELECT 1 FROM {schema}.runnel_migration WHERE version = :version);

-- name: MigrationInsert
-- The one time taken from the database's clock: when the schema changed, not a job's time.
INSERT INTO {schema}.runnel_migration (version, name, applied_at) VALUES (:version, :name, now());

-- name: MigrationDelete
DELETE FROM {schema}.runnel_migration WHERE version = :version;

-- name: MigrationAnyApplied
SELECT EXISTS (SELECT 1 FROM {schema}.runnel_migration);

-- name: MigrationTableDrop
DROP TABLE {schema}.runnel_migration;
