-- The job table's two CHECK constraints on its state, written as comparisons instead of IN lists.
-- SQLite checks a row's constraints each time it writes the row, and it builds an IN list of
-- three values or more into a temporary b-tree for each check of each row: over a 1,000,000-job
-- burndown those two lists took about a quarter of the time claims and completions held the
-- writer. The constraints accept exactly the rows they accepted before.
-- SQLite cannot change a constraint with ALTER TABLE; its documentation gives this way for
-- removing CHECK constraints, and the new ones accept every row the old ones did, so the same
-- way serves: the table's definition is edited in sqlite_schema, and no row is touched. The runner then moves the schema version on, so that every connection reads
-- the new definition (SqliteMigrations). Run by a tool of your own, follow it in the same
-- transaction with PRAGMA schema_version = (the version it reads plus one), then PRAGMA
-- writable_schema = RESET; or reopen every connection. Each piece replaced is one line of
-- 001_create_jobs as stored, its indentation left as it is.
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
SET sql = replace(replace(replace(sql,
        'CHECK ((finalized_at IS NOT NULL) = (state IN (''completed'', ''cancelled'', ''discarded'')))',
        'CHECK ((finalized_at IS NOT NULL) = (state = ''completed'' OR state = ''cancelled'' OR state = ''discarded''))'),
    'CHECK (state IN (''available'', ''scheduled'', ''running'', ''retryable'',',
    'CHECK (state = ''available'' OR state = ''scheduled'' OR state = ''running'' OR state = ''retryable'''),
    '''completed'', ''cancelled'', ''discarded'', ''pending'')),',
    'OR state = ''completed'' OR state = ''cancelled'' OR state = ''discarded'' OR state = ''pending''),')
WHERE type = 'table' AND name = 'runnel_job';
PRAGMA writable_schema = OFF;
