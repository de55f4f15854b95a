-- The dashboard's audit log, as Postgres's 012: only added to, read newest first by id.
CREATE TABLE runnel_audit (
    id      INTEGER PRIMARY KEY,
    at      INTEGER NOT NULL,
    actor   TEXT    NOT NULL,
    action  TEXT    NOT NULL,
    target  TEXT    NOT NULL,
    count   INTEGER NOT NULL
);
