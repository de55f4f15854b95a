-- The Postgres driver's statements about the dashboard's audit log. {schema} is the driver's
-- validated, quoted schema.

-- name: AuditInsert
-- ?1 at, ?2 actor, ?3 action, ?4 target, ?5 count.
INSERT INTO {schema}.runnel_audit (at, actor, action, target, count) VALUES (?, ?, ?, ?, ?) RETURNING id;

-- name: AuditList
-- Newest first, before ?1 (an id; the largest bigint from the newest), ?2 at most.
SELECT id, at, actor, action, target, count FROM {schema}.runnel_audit WHERE id < ? ORDER BY id DESC LIMIT ?;
