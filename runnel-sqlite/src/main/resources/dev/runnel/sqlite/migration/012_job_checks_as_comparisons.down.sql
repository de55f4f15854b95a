-- The job table's state constraints as IN lists again, edited in place as the up migration does,
-- and followed the same way.
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
SET sql = replace(replace(replace(sql,
        'CHECK ((finalized_at IS NOT NULL) = (state = ''completed'' OR state = ''cancelled'' OR state = ''discarded''))',
        'CHECK ((finalized_at IS NOT NULL) = (state IN (''completed'', ''cancelled'', ''discarded'')))'),
    'CHECK (state = ''available'' OR state = ''scheduled'' OR state = ''running'' OR state = ''retryable''',
    'CHECK (state IN (''available'', ''scheduled'', ''running'', ''retryable'','),
    'OR state = ''completed'' OR state = ''cancelled'' OR state = ''discarded'' OR state = ''pending''),',
    '''completed'', ''cancelled'', ''discarded'', ''pending'')),')
WHERE type = 'table' AND name = 'runnel_job';
PRAGMA writable_schema = OFF;
