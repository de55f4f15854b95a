-- The SQLite driver's statements about the dashboard's audit log. Times are microseconds since the epoch.

-- name: AuditInsert
INSERT INTO runnel_audit (at, actor, action, target, count)
VALUES (:at, :actor, :action, :target, :count) RETURNING id;

-- name: AuditList
-- Newest first, before :before_id (an id; the largest integer from the newest), :limit at most.
SELECT id, at, actor, action, target, count FROM runnel_audit WHERE id < :before_id ORDER BY id DESC LIMIT :limit;
