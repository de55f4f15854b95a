DROP TABLE IF EXISTS {schema}.runnel_audit;
