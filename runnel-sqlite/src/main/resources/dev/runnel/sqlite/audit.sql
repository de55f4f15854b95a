-- The SQLite driver's statements about the dashboard's audit log. Times are microseconds since the epoch.

-- name: AuditInsert
-- ?1 at, ?2 actor, ?3 action, ?4 target, ?5 count.
INSERT INTO runnel_audit (at, actor, action, target, count) VALUES (?, ?, ?, ?, ?) RETURNING id;

-- name: AuditList
-- Newest first, before ?1 (an id; the largest integer from the newest), ?2 at most.
SELECT id, at, actor, action, target, count FROM runnel_audit WHERE id < ? ORDER BY id DESC LIMIT ?;
