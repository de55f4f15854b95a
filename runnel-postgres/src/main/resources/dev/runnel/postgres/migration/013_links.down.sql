DROP TABLE IF EXISTS {schema}.runnel_sequence;
DROP TABLE IF EXISTS {schema}.runnel_link_dep;
DROP TABLE IF EXISTS {schema}.runnel_link;
DROP TABLE IF EXISTS {schema}.runnel_batch;
DROP TABLE IF EXISTS {schema}.runnel_workflow;
