DROP TABLE IF EXISTS runnel_queue;
