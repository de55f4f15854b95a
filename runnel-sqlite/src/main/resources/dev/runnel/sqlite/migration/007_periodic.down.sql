DROP TABLE IF EXISTS runnel_periodic;
