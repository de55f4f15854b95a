ALTER TABLE runnel_job DROP COLUMN rescues;
DROP TABLE IF EXISTS runnel_leader;
DROP TABLE IF EXISTS runnel_client;
