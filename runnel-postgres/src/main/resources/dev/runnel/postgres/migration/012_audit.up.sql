-- The dashboard's audit log: who changed what, when, and how many rows the change touched. Rows are
-- only added, and read newest first by id.
CREATE TABLE {schema}.runnel_audit (
    id      bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at      timestamptz NOT NULL,
    actor   text        NOT NULL,
    action  text        NOT NULL,
    target  text        NOT NULL,
    count   bigint      NOT NULL
);
