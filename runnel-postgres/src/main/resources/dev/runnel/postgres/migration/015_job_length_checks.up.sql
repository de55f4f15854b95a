-- The job table's checks of its kind's and queue's length, made cheap for the names they nearly
-- always see. Postgres checks every CHECK constraint of a row each time it writes the row, a
-- claim's and a completion's update too, and char_length counts a text's characters one by one.
-- A name of 1 to 128 bytes has 1 to 128 characters, so the byte count, which Postgres has at hand,
-- settles it first; only a longer name (more than 128 bytes, of up to 128 characters beyond
-- ASCII) has its characters counted. The constraints accept exactly the rows they accepted
-- before, under the same names; NOT VALID spares the table a scan, as every row there met the
-- same rule: Postgres checks them on every row written from now on. In a table of 500,000 rows,
-- updates that wrote each row twice took 0.93 of the time they took with the old checks
-- (docs/benchmarks.md).
ALTER TABLE {schema}.runnel_job
    DROP CONSTRAINT runnel_job_kind_length,
    DROP CONSTRAINT runnel_job_queue_length,
    ADD CONSTRAINT runnel_job_kind_length
        CHECK (octet_length(kind) BETWEEN 1 AND 128 OR char_length(kind) BETWEEN 1 AND 128) NOT VALID,
    ADD CONSTRAINT runnel_job_queue_length
        CHECK (octet_length(queue) BETWEEN 1 AND 128 OR char_length(queue) BETWEEN 1 AND 128) NOT VALID;
