DROP TABLE runnel_sequence;
DROP TABLE runnel_link_dep;
DROP TABLE runnel_link;
DROP TABLE runnel_batch;
DROP TABLE runnel_workflow;
