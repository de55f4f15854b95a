-- The Postgres driver's statements about the dashboard's audit log. {schema} is the driver's
-- validated, quoted schema.

-- name: AuditInsert
INSERT INTO {schema}.runnel_audit (at, actor, action, target, count)
VALUES (:at, :actor, :action, :target, :count) RETURNING id;

-- name: AuditList
-- Newest first, before :before_id (an id; the largest bigint from the newest), :limit at most.
SELECT id, at, actor, action, target, count FROM {schema}.runnel_audit
WHERE id < :before_id ORDER BY id DESC LIMIT :limit;
