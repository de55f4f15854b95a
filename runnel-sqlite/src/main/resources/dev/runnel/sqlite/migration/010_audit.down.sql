DROP TABLE IF EXISTS runnel_audit;
