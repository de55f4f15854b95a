-- Global limits: at most global_limit jobs of a queue running across all clients together,
-- enforced in the claim. A claim under a limit marks the jobs it takes (limit_key, '' for the
-- queue as a whole), and the limited claim counts the queue's marked running jobs through a
-- partial index that holds nothing else: jobs of queues without a limit never enter it, so their
-- claims and completions pay nothing for it. A slot is free again as soon as its job leaves
-- running, by its outcome or by the rescuer: the count is of the jobs themselves, not a counter
-- that a lost write could leave wrong.
ALTER TABLE {schema}.runnel_queue ADD COLUMN global_limit integer
    CONSTRAINT runnel_queue_global_limit_positive CHECK (global_limit >= 1);
ALTER TABLE {schema}.runnel_job ADD COLUMN limit_key text;
CREATE INDEX runnel_job_limited ON {schema}.runnel_job (queue, limit_key)
    WHERE state = 'running' AND limit_key IS NOT NULL;
