ALTER TABLE {schema}.runnel_job SET (fillfactor = 90);
