ALTER TABLE {schema}.runnel_job SET (autovacuum_vacuum_cost_delay = 1);
