#!lua name=runnel
-- Runnel's Redis Function library: every operation of the Redis driver is one function here, run
-- atomically on the server. RedisFunctions loads it at start (FUNCTION LOAD REPLACE) when the
-- server has no library or an older one, and again when a call finds it gone (a restarted server
-- without persistence of its functions, a failover to a replica that never had it).
--
-- Every function gets one key, KEYS[1]: the namespace's prefix "{NAME}:" itself. Every key the
-- function touches starts with it, so that all of them share the hash tag {NAME} and so one slot:
-- a namespace works unchanged on Redis Cluster. No function scans the keyspace; each reads the
-- sets named below.
--
-- Keys of a namespace P (see RedisKeys for the same list on the Java side):
--   P..'id'              counter: job ids, from INCRBY, so ids ascend with insertion
--   P..'job:'..id        hash: one job (fields below)
--   P..'s:'..state       zset: the jobs in a state, score = member = id: listings in id order, one
--                        state's from its set, several states' or all from the union of theirs
--   P..'avail:'..queue   zset: a queue's available jobs, all at score 0, ordered by member, which is
--                        priority (1 char) .. sortable scheduled_at (16 hex) .. id (16 hex): see below
--   P..'due'             zset: scheduled and retryable jobs, score = scheduled_at in microseconds
--   P..'running'         zset: running jobs, score = attempted_at in microseconds
--   P..'run:'..client    set: the running jobs of one client (the rescuer reads it)
--   P..'f:'..state       zset: final jobs of a state, score = finalized_at (the cleaner reads it)
--   P..'counts'          hash: state..':'..queue -> number of jobs (exact counts without a scan)
--   P..'unique'          hash: unique key (hex) -> id of the job holding it
--   P..'q:'..queue       hash: a queue's settings (created_at, updated_at, paused_at, metadata)
--   P..'queues'          zset: every queue name at score 0 (by name)
--   P..'client:'..id     hash: a client (started_at, heartbeat_at, expires_at, stopped_at, rescued_at, metadata)
--   P..'clients'         zset: client ids, score = expires_at
--   P..'leader'          hash: the leader's lease (leader_id, elected_at, expires_at)
--   P..'migrations'      hash: version -> name..' '..applied_at
--   P..'audit'           zset: audit entry ids, score = member = id; P..'audit_id' their counter
--   P..'audit:'..id      hash: one audit entry (at, actor, action, target, count)
--   P..'broken'          set: ids of job hashes found without their fields, taken out of the claim
--   P..'lk:'..queue      zset: the keys of a queue's per-key limit that have available jobs, at score 0
--   P..'lka:'..n..':'..queue..':'..key  zset: the available jobs of one key, members as in avail: (n is
--                        the queue name's length, so that no queue and key name another pair's set)
--   P..'lkr:'..queue     hash: key -> how many of the queue's jobs with that key are running
--   P..'lrate:'..queue   zset: the start times a queue's rate limit keeps, score = time, member = a
--                        sequence number from the queue's field rate_seq
--   P..'lkrate:'..n..':'..queue..':'..key  zset: the start times kept for one key's rate, the same way
--   P..'periodic:'..name hash: a periodic job's definition and progress (fields at periodic_upsert)
--   P..'periodics'       zset: every periodic job's name at score 0 (by name), removed ones too
--   P..'keys'            set: every key above named by a queue, a client, a key or a periodic job,
--                        so that the namespace can be dropped without a scan
-- and one shard channel, not a key (nothing is stored): P..'wake', on which the functions SPUBLISH
-- the name of a queue whose jobs became available (inserted, due, retried, resumed), \1cancel
-- when a cancel was requested of a running job, and \3limits changed when a queue's limits did
-- (RedisListener says why pub/sub).
--
-- The available zset's order is exactly the claim's: priority, then scheduled_at, then id. A double
-- score cannot hold that (microsecond times alone need 51 bits today and 58 for the year 9999), so
-- every member has score 0 and Redis orders them by their bytes: the priority digit, then the
-- scheduled time in microseconds XOR 2^63 as 16 hex digits (so that times before 1970 sort first),
-- then the id as 16 hex digits. Java computes the time part (RedisEncoding.sortable), which Lua's
-- doubles could not do exactly; it is stored in the job's field 'sk'. A claim reads each priority's
-- members below priority..sortable(now + 1us) with ZRANGEBYLEX: exactly the due ones, in order.
--
-- Times are microseconds since the epoch as decimal strings, from the client's clock, stored as
-- given. Where Lua compares two of them (leases, expiries) it does so as doubles, exact up to the
-- year 2255. Scores of the time-ordered sets are doubles too: past 2255 their order is within 32us.
--
-- Job hash fields: kind args state queue priority attempt max_attempts attempted_at attempted_by
-- holder (the client of the current attempt) created_at scheduled_at sk finalized_at errors (a JSON
-- array) metadata tags (a JSON array) unique_key unique_states cancel_requested_at rescues
-- output (the completed attempt's output, merged into the metadata by the driver) snoozes
-- limit_key (the job's key under its queue's per-key limit, set while the queue has one).
-- attempted_by, errors, metadata and tags are absent while empty (see write_new); every reader
-- takes an absent one for [] or {}.
--
-- Queue hash fields besides those above: global_limit, rate_limit and rate_period_us (in
-- microseconds), key_source ('args' or 'metadata'), key_field, key_limit, key_weights (a JSON
-- object), key_rate_limit, key_rate_period_us, key_set_at, and key_cursor while the available
-- jobs waiting when the per-key limit was set are still being given their keys.

-- One more on every change to this file: a server with an older library gets this one at start.
local VERSION = 18

-- The fields of a whole row, in the order RedisRows.decode reads them after the id.
local ROW = {'kind', 'args', 'state', 'queue', 'priority', 'attempt', 'max_attempts', 'attempted_at',
             'attempted_by', 'created_at', 'scheduled_at', 'finalized_at', 'errors', 'metadata', 'tags',
             'output', 'snoozes'}

-- The bit of each state in a unique job's mask (UniqueStates).
local UNIQUE_BIT = {scheduled = 64, available = 32, running = 16, retryable = 8, completed = 4,
                    cancelled = 2, discarded = 1}

local FINAL = {completed = true, cancelled = true, discarded = true}

-- Every state, each with its set s:STATE: together they hold every job once.
local STATES = {'pending', 'available', 'scheduled', 'running', 'retryable', 'completed', 'cancelled', 'discarded'}

-- Tells every client listening on the namespace's channel that queue has jobs available now, or,
-- with a message starting with a control character (no queue name holds one), of a control event.
-- A pcall: a user whose ACL does not grant the channel still writes (its clients poll instead).
local function wake(p, message)
    redis.pcall('SPUBLISH', p .. 'wake', message)
end

-- Job id (a Lua number) as the decimal text that keys and set members hold. Lua's numbers are
-- doubles: joining one into a string formats it with %.14g, and Redis formats each number passed
-- to redis.call with %.17g, a floating-point conversion that took 7% of the server's time over an
-- insert and a burndown, more than any command but the hash reads. The hot paths turn each id
-- into text once, with integer formatting, and pass text.
local function dec(id)
    return string.format('%d', id)
end

local function member(priority, sk, id)
    return priority .. sk .. string.format('%016x', id)
end

local function row(p, id)
    local values = redis.call('HMGET', p .. 'job:' .. id, unpack(ROW))
    table.insert(values, 1, id)
    return values
end

local function count(p, state, queue, by)
    redis.call('HINCRBY', p .. 'counts', state .. ':' .. queue, by)
end

local function lease_held(p, leader_id, now)
    local l = redis.call('HMGET', p .. 'leader', 'leader_id', 'expires_at')
    return l[1] == leader_id and tonumber(l[2]) > tonumber(now)
end

-- Whether job id holds unique key uk now: the key names it and its state is one the mask covers.
local function holds(p, id, uk)
    local j = redis.call('HMGET', p .. 'job:' .. id, 'state', 'unique_key', 'unique_states')
    return j[1] and j[2] == uk and bit.band(tonumber(j[3]) or 0, UNIQUE_BIT[j[1]] or 0) ~= 0
end

-- The holder of uk other than id, if any.
local function unique_holder(p, uk, id)
    local holder = redis.call('HGET', p .. 'unique', uk)
    if holder and tonumber(holder) ~= id and holds(p, tonumber(holder), uk) then
        return tonumber(holder)
    end
    return nil
end

-- Releases job id's unique key if it moves to a state its mask does not cover.
local function unique_after(p, id, uk, mask, state)
    if uk and uk ~= '' and bit.band(tonumber(mask) or 0, UNIQUE_BIT[state]) == 0 then
        if redis.call('HGET', p .. 'unique', uk) == tostring(id) then
            redis.call('HDEL', p .. 'unique', uk)
        end
    end
end

-- ---- queue limits: the keys of a per-key limit ----

-- The set of one key's available jobs.
local function key_avail(p, queue, key)
    return p .. 'lka:' .. #queue .. ':' .. queue .. ':' .. key
end

-- The start times kept for one key's rate.
local function key_rate_starts(p, queue, key)
    return p .. 'lkrate:' .. #queue .. ':' .. queue .. ':' .. key
end

-- A time computed in Lua as the decimal text Redis reads exactly (tostring would write 1.9e+15).
local function micros_text(t)
    return string.format('%.0f', t)
end

-- The key of a job under a per-key limit on source ('args' or 'metadata') field `field`: the
-- field's value as text, '' when the job has no such field (or it is null). Numbers as integers
-- where they are whole, true and false as 1 and 0, objects and arrays as their JSON.
local function limit_key_of(source, field, args, metadata)
    local ok, doc = pcall(cjson.decode, (source == 'args' and args or metadata) or '')
    if not ok or type(doc) ~= 'table' then
        return ''
    end
    local v = doc[field]
    local t = type(v)
    if v == nil or v == cjson.null then
        return ''
    elseif t == 'string' then
        return v
    elseif t == 'boolean' then
        return v and '1' or '0'
    elseif t == 'number' then
        if v == math.floor(v) and math.abs(v) < 2 ^ 53 then
            return micros_text(v)
        end
        return tostring(v)
    end
    return cjson.encode(v)
end

-- Job id (key m in its queue's available set) became available with key `key`.
local function key_available(p, queue, key, m)
    local ka = key_avail(p, queue, key)
    redis.call('ZADD', ka, 0, m)
    redis.call('ZADD', p .. 'lk:' .. queue, 0, key)
    redis.call('SADD', p .. 'keys', ka)
end

-- Job (member m) with key `key` is no longer available.
local function key_unavailable(p, queue, key, m)
    local ka = key_avail(p, queue, key)
    redis.call('ZREM', ka, m)
    if redis.call('EXISTS', ka) == 0 then
        redis.call('ZREM', p .. 'lk:' .. queue, key)
        redis.call('SREM', p .. 'keys', ka)
    end
end

-- One of the queue's running jobs with key `key` stopped running.
local function key_stopped(p, queue, key)
    local running = p .. 'lkr:' .. queue
    if redis.call('HINCRBY', running, key, -1) <= 0 then
        redis.call('HDEL', running, key)
    end
end

-- The key job id gets as it becomes available in queue `queue`, if the queue has a per-key limit
-- (stored with the job); nil otherwise. A job keeps its key once it has one, as on SQL.
local function key_now(p, id, queue)
    local q = redis.call('HMGET', p .. 'q:' .. queue, 'key_source', 'key_field')
    if not q[1] then
        return nil
    end
    local jk = p .. 'job:' .. id
    local v = redis.call('HMGET', jk, 'args', 'metadata')
    local key = limit_key_of(q[1], q[2], v[1], v[2])
    redis.call('HSET', jk, 'limit_key', key)
    return key
end

-- Takes job id out of the sets of its state (j: state, queue, priority, sk, holder, limit_key).
local function leave(p, id, j)
    local state, queue = j.state, j.queue
    redis.call('ZREM', p .. 's:' .. state, id)
    count(p, state, queue, -1)
    if state == 'available' then
        local m = member(j.priority, j.sk, id)
        redis.call('ZREM', p .. 'avail:' .. queue, m)
        if j.limit_key then
            key_unavailable(p, queue, j.limit_key, m)
        end
    elseif state == 'scheduled' or state == 'retryable' then
        redis.call('ZREM', p .. 'due', id)
    elseif state == 'running' then
        redis.call('ZREM', p .. 'running', id)
        if j.holder then
            redis.call('SREM', p .. 'run:' .. j.holder, id)
        end
        if j.limit_key then
            key_stopped(p, queue, j.limit_key)
        end
    else
        redis.call('ZREM', p .. 'f:' .. state, id)
    end
end

-- Puts job id into the sets of state (j: queue, priority, sk, scheduled_at, finalized_at, limit_key).
local function enter(p, id, state, j)
    redis.call('ZADD', p .. 's:' .. state, id, id)
    count(p, state, j.queue, 1)
    if state == 'available' then
        local avail = p .. 'avail:' .. j.queue
        local m = member(j.priority, j.sk, id)
        redis.call('ZADD', avail, 0, m)
        redis.call('SADD', p .. 'keys', avail)
        local key = j.limit_key or key_now(p, id, j.queue)
        if key then
            j.limit_key = key
            key_available(p, j.queue, key, m)
        end
    elseif state == 'scheduled' or state == 'retryable' then
        redis.call('ZADD', p .. 'due', j.scheduled_at, id)
    elseif FINAL[state] then
        redis.call('ZADD', p .. 'f:' .. state, j.finalized_at, id)
    end
end

local PLACE = {'state', 'queue', 'priority', 'sk', 'holder', 'scheduled_at', 'finalized_at', 'unique_key',
               'unique_states', 'attempt', 'max_attempts', 'cancel_requested_at', 'rescues', 'attempted_at',
               'limit_key'}

-- The fields of job id that say where it is, as a table; nil when the job does not exist.
local function place(p, id)
    local v = redis.call('HMGET', p .. 'job:' .. id, unpack(PLACE))
    if not v[1] then
        return nil
    end
    local j = {}
    for i, name in ipairs(PLACE) do
        j[name] = v[i] or nil
    end
    return j
end

-- Runs `command key` over items (for ZADD, score-member pairs; without a key, as for DEL, the items
-- are the keys), in calls of at most BULK arguments:
-- one call writes a whole batch's entries into a set, where one call per job paid the script's
-- per-call cost (converting arguments and reply, looking up the command) again for each job,
-- which was more than half of the server's time per job. BULK is even, so that pairs stay whole,
-- and well under the number of values Lua's unpack can return.
local BULK = 4000
local function bulk(command, key, items)
    local n = #items
    for s = 1, n, BULK do
        if key then
            redis.call(command, key, unpack(items, s, math.min(s + BULK - 1, n)))
        else
            redis.call(command, unpack(items, s, math.min(s + BULK - 1, n)))
        end
    end
end

-- Adds the entry score, m to the list of sorted set key in sets (sets[key] = items), for bulk_flush.
local function bulk_add(sets, key, score, m)
    local items = sets[key]
    if not items then
        items = {}
        sets[key] = items
    end
    items[#items + 1] = score
    items[#items + 1] = m
end

local function bulk_flush(command, sets)
    for key, items in pairs(sets) do
        bulk(command, key, items)
    end
end

local function append_json(array, value)
    if not array or array == '' or array == '[]' then
        return '[' .. value .. ']'
    end
    return string.sub(array, 1, -2) .. ',' .. value .. ']'
end

local function delete_job(p, id, j)
    leave(p, id, j)
    if j.unique_key and j.unique_key ~= '' and redis.call('HGET', p .. 'unique', j.unique_key) == tostring(id) then
        redis.call('HDEL', p .. 'unique', j.unique_key)
    end
    redis.call('DEL', p .. 'job:' .. id)
end

-- ---- the library's version ----

local function version()
    return VERSION
end

-- ---- inserts ----

-- Writes the hash jk of a new job. The fields a claim reads go first: Redis keeps a small hash as
-- one list of fields that HMGET searches from its start for each field asked, so their place and
-- the list's length are what a claim's reads cost. attempted_by and errors are left out while
-- empty, as are tags and metadata (a field that is absent reads as its empty value).
local function write_new(jk, kind, args, priority, max_attempts, created_at, scheduled_at, state, queue, sk,
                         tags, metadata)
    redis.call('HSET', jk, 'kind', kind, 'args', args, 'priority', priority, 'attempt', '0',
        'max_attempts', max_attempts, 'created_at', created_at, 'scheduled_at', scheduled_at, 'state', state,
        'queue', queue, 'sk', sk)
    if tags ~= '[]' or metadata ~= '{}' then
        redis.call('HSET', jk, 'tags', tags, 'metadata', metadata)
    end
end

-- ARGV: n, then per job: kind args queue priority state created_at scheduled_at sk max_attempts tags
-- metadata unique_key unique_states. Returns id, duplicate (0/1) per job. Ids come from one
-- INCRBY for the batch, so they ascend in the batch's order.
local INSERT_WIDTH = 13
local function insert_many(keys, args)
    local p = keys[1]
    local n = tonumber(args[1])
    local last = redis.call('INCRBY', p .. 'id', n)
    local out = {}
    local avail_seen = {}
    -- Per queue of the batch: its per-key limit's source and field, or false (one read per queue).
    local keyed = {}
    -- The sets' new entries and the counts' changes, written after the loop (bulk).
    local adds, counts = {}, {}
    for i = 0, n - 1 do
        local b = 1 + i * INSERT_WIDTH
        local id = last - n + 1 + i
        local uk = args[b + 12]
        local holder = nil
        if uk ~= '' then
            holder = unique_holder(p, uk, id)
        end
        if holder then
            out[#out + 1] = holder
            out[#out + 1] = 1
        else
            local queue, state, priority, sk = args[b + 3], args[b + 5], args[b + 4], args[b + 8]
            local sid = dec(id)
            local jk = p .. 'job:' .. sid
            write_new(jk, args[b + 1], args[b + 2], priority, args[b + 9], args[b + 6], args[b + 7], state, queue, sk,
                args[b + 10], args[b + 11])
            if uk ~= '' then
                redis.call('HSET', jk, 'unique_key', uk, 'unique_states', args[b + 13])
                redis.call('HSET', p .. 'unique', uk, sid)
            end
            local kq = keyed[queue]
            if kq == nil then
                local q = redis.call('HMGET', p .. 'q:' .. queue, 'key_source', 'key_field')
                kq = q[1] and q or false
                keyed[queue] = kq
            end
            local key = nil
            if kq then
                key = limit_key_of(kq[1], kq[2], args[b + 2], args[b + 11])
                redis.call('HSET', jk, 'limit_key', key)
            end
            bulk_add(adds, p .. 's:' .. state, sid, sid)
            local ck = state .. ':' .. queue
            counts[ck] = (counts[ck] or 0) + 1
            if state == 'available' then
                local avail = p .. 'avail:' .. queue
                local m = member(priority, sk, id)
                bulk_add(adds, avail, 0, m)
                if key then
                    key_available(p, queue, key, m)
                end
                if not avail_seen[avail] then
                    avail_seen[avail] = true
                    redis.call('SADD', p .. 'keys', avail)
                    wake(p, queue)
                end
            elseif state ~= 'pending' then -- a pending job waits for others, not for its time
                bulk_add(adds, p .. 'due', args[b + 7], sid)
            end
            out[#out + 1] = id
            out[#out + 1] = 0
        end
    end
    bulk_flush('ZADD', adds)
    for ck, k in pairs(counts) do
        redis.call('HINCRBY', p .. 'counts', ck, k)
    end
    return out
end

-- ---- the claim ----

-- The fields a claim reads of each job: the first 13 of them, in the order RedisRows.decodeClaimed
-- reads them, go back in the reply after the job's id (RedisRows.CLAIMED_ROW values a job); the rest
-- only serve the claim itself. Each field costs the server a search of the job's hash, so none is
-- read that the claim does not use.
local CLAIMED = {'kind', 'args', 'priority', 'attempt', 'max_attempts', 'attempted_by', 'created_at',
                 'scheduled_at', 'errors', 'metadata', 'tags', 'output', 'snoozes', 'unique_key', 'limit_key',
                 'attempted_by_n'}
-- The fields a claim reads of a job as inserted (below), which its row in the claim's list of new
-- jobs holds after its id, the attempt the new one (RedisRows.NEW_ROW values a job).
local CLAIMED_NEW = {'kind', 'args', 'priority', 'attempt', 'max_attempts', 'created_at', 'scheduled_at'}

-- How many fields write_new writes of a job without tags or metadata. A hash of that many holds
-- none of CLAIMED's fields that write_new leaves out or later writes add (a job as inserted, the
-- common case), so a claim reads only CLAIMED_NEW of it: each field asked of a small hash costs
-- the server a search of it, and each absent one a search of all of it.
local NEW_FIELDS = 10

-- How many fields the hash of a job of NEW_FIELDS has after its first claim (claim_member adds
-- attempted_at, attempted_by, attempted_by_n and holder; nothing deletes them): such a job holds
-- no unique key and no key of a per-key limit, which a completion then does not look for.
local CLAIMED_ONCE_FIELDS = NEW_FIELDS + 4

-- A claim's writes to sets, made once for the whole batch by claim_flush (bulk): the members taken
-- from the queue's available set and their ids; at most once, the job hashes deleted; at least
-- once, the ids entering the running sets and s:running's and running's entries.
local function claim_batch()
    return {taken = {}, ids = {}, deleted = {}, started = {}, running = {}, by_time = {}}
end

-- The rows of a claim: n jobs claimed, the rows of those that were as inserted in new (id and
-- CLAIMED_NEW's fields), of the others in full (id and CLAIMED's first 13), each list flat: each table in a
-- reply costs the server several lookups besides its values.
local function claim_rows()
    return {n = 0, new = {}, full = {}}
end

-- Writes the claim of job sid (hash jk, unique key uk, key of a per-key limit key) at attempt
-- `attempt`: at most once, its removal; at least once, its running state, with `by` (n clients)
-- its new list of clients.
local function claim_write(p, queue, sid, jk, attempt, by, n, uk, key, now, c, batch)
    if c.at_most_once then
        if uk and redis.call('HGET', p .. 'unique', uk) == sid then
            redis.call('HDEL', p .. 'unique', uk)
        end
        batch.deleted[#batch.deleted + 1] = jk
        return
    end
    redis.call('HSET', jk, 'state', 'running', 'attempt', dec(attempt), 'attempted_at', now,
        'attempted_by', by, 'attempted_by_n', dec(n), 'holder', c.id)
    batch.started[#batch.started + 1] = sid
    local r = batch.running
    r[#r + 1] = sid
    r[#r + 1] = sid
    local t = batch.by_time
    t[#t + 1] = now
    t[#t + 1] = sid
    if key then
        redis.call('HINCRBY', p .. 'lkr:' .. queue, key, 1)
    end
end

-- Claims the job of member m of queue's available set at now for client c (c.id, c.json), at most
-- once when c.at_most_once: appends its row to rows (claim_rows), or its id to broken. The job's
-- hash is written here; the sets it leaves and enters are written by claim_flush from batch.
local function claim_member(p, queue, m, now, c, rows, broken, batch)
    local id = tonumber(string.sub(m, 18), 16)
    local sid = dec(id)
    local jk = p .. 'job:' .. sid
    batch.taken[#batch.taken + 1] = m
    batch.ids[#batch.ids + 1] = sid
    if redis.call('HLEN', jk) == NEW_FIELDS then
        local f = redis.call('HMGET', jk, unpack(CLAIMED_NEW))
        if f[1] and f[2] and f[3] and f[4] and f[5] and f[6] and f[7] then
            local attempt = tonumber(f[4]) + 1
            claim_write(p, queue, sid, jk, attempt, '[' .. c.json .. ']', 1, nil, nil, now, c, batch)
            rows.n = rows.n + 1
            local new, k = rows.new, #rows.new
            new[k + 1], new[k + 2], new[k + 3], new[k + 4], new[k + 5], new[k + 6], new[k + 7], new[k + 8] =
                id, f[1], f[2], f[3], attempt, f[5], f[6], f[7]
            return
        end
    end
    local v = redis.call('HMGET', jk, unpack(CLAIMED))
    local key = v[15]
    if key then
        key_unavailable(p, queue, key, m)
    end
    if not (v[1] and v[2] and v[3] and v[4] and v[5] and v[7] and v[8]) then
        -- A hash written by hand or half gone: out of the claim, reported by id.
        redis.call('SADD', p .. 'broken', sid)
        broken[#broken + 1] = id
        return
    end
    local attempt = tonumber(v[4]) + 1
    v[4] = attempt
    if not c.at_most_once then
        local by, n = v[6], tonumber(v[16] or '0')
        if n >= 100 then
            -- Keep the last 100 clients (JobClaimParams.MAX_ATTEMPTED_BY).
            local list = cjson.decode(by)
            table.remove(list, 1)
            table.insert(list, c.id)
            by = cjson.encode(list)
        else
            by = append_json(by, c.json)
            n = n + 1
        end
        v[6] = by
        claim_write(p, queue, sid, jk, attempt, by, n, v[14], key, now, c, batch)
    else
        claim_write(p, queue, sid, jk, attempt, nil, nil, v[14], key, now, c, batch)
    end
    -- Lists and metadata still at their empty values go back as nil, which RedisRows reads as
    -- empty: a nil costs both sides less than a string. Short Lua strings are interned, so each
    -- test compares two pointers.
    if v[6] == '[]' then v[6] = false end
    if v[9] == '[]' then v[9] = false end
    if v[10] == '{}' then v[10] = false end
    if v[11] == '[]' then v[11] = false end
    rows.n = rows.n + 1
    local full, k = rows.full, #rows.full
    full[k + 1], full[k + 2], full[k + 3], full[k + 4], full[k + 5], full[k + 6], full[k + 7] =
        id, v[1], v[2], v[3], v[4], v[5], v[6]
    full[k + 8], full[k + 9], full[k + 10], full[k + 11], full[k + 12], full[k + 13], full[k + 14] =
        v[7], v[8], v[9], v[10], v[11], v[12], v[13]
end

-- Writes the sets a claim of queue by client c changed (batch), and the counts: rows were taken,
-- broken found.
local function claim_flush(p, queue, c, rows, broken, batch)
    bulk('ZREM', p .. 'avail:' .. queue, batch.taken)
    bulk('ZREM', p .. 's:available', batch.ids)
    bulk('DEL', nil, batch.deleted)
    bulk('ZADD', p .. 's:running', batch.running)
    bulk('ZADD', p .. 'running', batch.by_time)
    bulk('SADD', p .. 'run:' .. c.id, batch.started)
    local taken = rows.n + #broken
    if taken > 0 then
        count(p, 'available', queue, -taken)
        if not c.at_most_once and rows.n > 0 then
            count(p, 'running', queue, rows.n)
            redis.call('SADD', p .. 'keys', p .. 'run:' .. c.id)
        end
    end
end

-- ARGV: queue max now sortable(now + 1us) client client_json at_most_once(0/1).
-- Returns {new rows, full rows, broken ids} (claim_rows): the rows of the jobs claimed as inserted
-- (id, then CLAIMED_NEW's fields) and of the others (id, then CLAIMED's first 13), one job after
-- another; the attempt in each is already the new one.
local function claim(keys, args)
    local p = keys[1]
    local queue, max, now, bound = args[1], tonumber(args[2]), args[3], args[4]
    local c = {id = args[5], json = args[6], at_most_once = args[7] == '1'}
    local q = redis.call('HMGET', p .. 'q:' .. queue, 'paused_at', 'global_limit', 'rate_limit', 'key_limit')
    if q[1] or q[2] or q[3] or q[4] then
        return {{}, {}, {}}
    end
    local avail = p .. 'avail:' .. queue
    local rows, broken, batch = claim_rows(), {}, claim_batch()
    for priority = 1, 4 do
        local need = max - rows.n
        if need <= 0 then
            break
        end
        local members = redis.call('ZRANGEBYLEX', avail, '[' .. priority, '(' .. priority .. bound, 'LIMIT', 0, need)
        for _, m in ipairs(members) do
            claim_member(p, queue, m, now, c, rows, broken, batch)
        end
    end
    claim_flush(p, queue, c, rows, broken, batch)
    return {rows.new, rows.full, broken}
end

-- ARGV: queue now client. The jobs of an earlier claim of this client at this time, still running.
local function claim_recover(keys, args)
    local p = keys[1]
    local queue, now, client = args[1], args[2], args[3]
    local out = {}
    for _, id in ipairs(redis.call('ZRANGEBYSCORE', p .. 'running', now, now)) do
        local j = redis.call('HMGET', p .. 'job:' .. id, 'queue', 'attempted_at', 'holder', 'state')
        if j[1] == queue and j[2] == now and j[3] == client and j[4] == 'running' then
            out[#out + 1] = row(p, tonumber(id))
        end
    end
    return out
end

-- ---- outcomes ----

-- Whether job j (from place) is running in the attempt named: its number, start and client.
local function fenced(j, attempt, attempted_at, client)
    return j and j.state == 'running' and (attempt == '' or j.attempt == attempt) and j.attempted_at == attempted_at
        and j.holder == client
end

-- ARGV: client n, then per job: id finalized_at attempt attempted_at. Returns the ids written.
-- With delete (runnel_complete_delete_many: a client that keeps no completed jobs), each job is
-- deleted instead of recorded completed, and its unique key freed.
local function complete(keys, args, delete)
    local p = keys[1]
    local client, n = args[1], tonumber(args[2])
    local out = {}
    local by_queue = {}
    -- The sets' changes, written once after the loop (bulk): gone holds the ids that leave the
    -- running sets, as text (see dec), by_id and by_time the entries of the completed ones; out
    -- the same ids as numbers, for the reply.
    local by_id, by_time, gone = {}, {}, {}
    for i = 0, n - 1 do
        local b = 3 + i * 4
        local sid = args[b]
        local id = tonumber(sid)
        local jk = p .. 'job:' .. sid
        local v
        if redis.call('HLEN', jk) == CLAIMED_ONCE_FIELDS then
            v = redis.call('HMGET', jk, 'state', 'attempt', 'attempted_at', 'holder', 'queue')
        else
            v = redis.call('HMGET', jk, 'state', 'attempt', 'attempted_at', 'holder', 'queue', 'unique_key',
                'unique_states', 'limit_key')
        end
        if v[1] == 'running' and v[2] == args[b + 2] and v[3] == args[b + 3] and v[4] == client then
            if delete then
                redis.call('DEL', jk)
                if v[6] and v[6] ~= '' and redis.call('HGET', p .. 'unique', v[6]) == sid then
                    redis.call('HDEL', p .. 'unique', v[6])
                end
            else
                local finalized = args[b + 1]
                redis.call('HSET', jk, 'state', 'completed', 'finalized_at', finalized)
                by_id[#by_id + 1] = sid
                by_id[#by_id + 1] = sid
                by_time[#by_time + 1] = finalized
                by_time[#by_time + 1] = sid
                unique_after(p, id, v[6], v[7], 'completed')
            end
            by_queue[v[5]] = (by_queue[v[5]] or 0) + 1
            if v[8] then
                key_stopped(p, v[5], v[8])
            end
            out[#out + 1] = id
            gone[#gone + 1] = sid
        end
    end
    if #out > 0 then
        bulk('ZREM', p .. 's:running', gone)
        bulk('ZREM', p .. 'running', gone)
        bulk('SREM', p .. 'run:' .. client, gone)
        if not delete then
            bulk('ZADD', p .. 's:completed', by_id)
            bulk('ZADD', p .. 'f:completed', by_time)
        end
    end
    for queue, k in pairs(by_queue) do
        count(p, 'running', queue, -k)
        if not delete then
            count(p, 'completed', queue, k)
        end
    end
    return out
end

local function complete_many(keys, args)
    return complete(keys, args, false)
end

local function complete_delete_many(keys, args)
    return complete(keys, args, true)
end

-- ARGV: n, then per job: id attempt attempted_at client state scheduled_at sk finalized_at error
-- attempt_delta output ('' for an absent value). Returns the ids written. Each queue in which a job
-- became available (a snooze of no time, a job claimed ahead given back) is woken once, as for an
-- insert: a client that hears wake-ups polls only as a safety net.
local SET_WIDTH = 11
local function set_state_many(keys, args)
    local p = keys[1]
    local n = tonumber(args[1])
    local out = {}
    local woken = {}
    for i = 0, n - 1 do
        local b = 2 + i * SET_WIDTH
        local id = tonumber(args[b])
        local j = place(p, id)
        if fenced(j, args[b + 1], args[b + 2], args[b + 3]) then
            local jk = p .. 'job:' .. id
            j.queue = redis.call('HGET', jk, 'queue')
            local state, scheduled_at, sk, finalized_at = args[b + 4], args[b + 5], args[b + 6], args[b + 7]
            local err, delta, output = args[b + 8], tonumber(args[b + 9]), args[b + 10]
            if j.cancel_requested_at and (state == 'available' or state == 'scheduled' or state == 'retryable') then
                state = 'cancelled'
                finalized_at = j.cancel_requested_at
            end
            leave(p, id, j)
            if scheduled_at ~= '' then
                j.scheduled_at, j.sk = scheduled_at, sk
                redis.call('HSET', jk, 'scheduled_at', scheduled_at, 'sk', sk)
            end
            j.finalized_at = finalized_at
            redis.call('HSET', jk, 'state', state, 'attempt', tonumber(j.attempt) + delta)
            if finalized_at ~= '' then
                redis.call('HSET', jk, 'finalized_at', finalized_at)
            else
                redis.call('HDEL', jk, 'finalized_at')
            end
            if err ~= '' then
                redis.call('HSET', jk, 'errors', append_json(redis.call('HGET', jk, 'errors'), err))
            end
            if output ~= '' then
                redis.call('HSET', jk, 'output', output)
            elseif delta < 0 and (state == 'available' or state == 'scheduled') then
                redis.call('HINCRBY', jk, 'snoozes', 1)
            end
            enter(p, id, state, j)
            unique_after(p, id, j.unique_key, j.unique_states, state)
            if state == 'available' then
                woken[j.queue] = true
            end
            out[#out + 1] = id
        end
    end
    for queue in pairs(woken) do
        wake(p, queue)
    end
    return out
end

-- ARGV: n, then per job: id kind args state queue priority attempt max_attempts attempted_at
-- attempted_by created_at scheduled_at sk finalized_at errors metadata tags. A job an at-most-once
-- claim removed, written back final; left alone when its id exists.
local REINSERT_WIDTH = 17
local function reinsert_many(keys, args)
    local p = keys[1]
    local n = tonumber(args[1])
    for i = 0, n - 1 do
        local b = 2 + i * REINSERT_WIDTH
        local id = tonumber(args[b])
        local jk = p .. 'job:' .. id
        if redis.call('EXISTS', jk) == 0 then
            local state, queue = args[b + 3], args[b + 4]
            redis.call('HSET', jk, 'kind', args[b + 1], 'args', args[b + 2], 'state', state, 'queue', queue,
                'priority', args[b + 5], 'attempt', args[b + 6], 'max_attempts', args[b + 7],
                'attempted_at', args[b + 8], 'attempted_by', args[b + 9], 'created_at', args[b + 10],
                'scheduled_at', args[b + 11], 'sk', args[b + 12], 'finalized_at', args[b + 13],
                'errors', args[b + 14], 'metadata', args[b + 15], 'tags', args[b + 16])
            enter(p, id, state, {queue = queue, finalized_at = args[b + 13]})
        end
    end
    return n
end

-- ---- maintenance ----

-- ARGV: now limit. Due scheduled and retryable jobs become available, earliest first. Returns
-- {how many, the queues they are in}.
local function schedule_due(keys, args)
    local p = keys[1]
    local ids = redis.call('ZRANGEBYSCORE', p .. 'due', '-inf', args[1], 'LIMIT', 0, tonumber(args[2]))
    local queues, names = {}, {}
    for _, sid in ipairs(ids) do
        local id = tonumber(sid)
        local j = place(p, id)
        if j and (j.state == 'scheduled' or j.state == 'retryable') then
            j.queue = redis.call('HGET', p .. 'job:' .. id, 'queue')
            leave(p, id, j)
            redis.call('HSET', p .. 'job:' .. id, 'state', 'available')
            enter(p, id, 'available', j)
            if not queues[j.queue] then
                queues[j.queue] = true
                names[#names + 1] = j.queue
            end
        else
            redis.call('ZREM', p .. 'due', sid)
        end
    end
    for _, queue in ipairs(names) do
        wake(p, queue)
    end
    return {#ids, names}
end

-- ARGV: leader now now_text now_sk stale_before threshold_text max_rescues limit, then dead clients.
-- Returns id, state, client per job rescued.
local function rescue_many(keys, args)
    local p = keys[1]
    local leader, now, now_text, now_sk, stale_before, threshold = args[1], args[2], args[3], args[4], args[5], args[6]
    local max_rescues, limit = tonumber(args[7]), tonumber(args[8])
    if not lease_held(p, leader, now) then
        return {}
    end
    local ids = {}
    for i = 9, #args do
        local c = redis.call('HGET', p .. 'client:' .. args[i], 'expires_at')
        if c and tonumber(c) <= tonumber(now) then
            for _, id in ipairs(redis.call('SMEMBERS', p .. 'run:' .. args[i])) do
                ids[#ids + 1] = tonumber(id)
            end
        end
    end
    for _, id in ipairs(redis.call('ZRANGEBYSCORE', p .. 'running', '-inf', '(' .. stale_before)) do
        local holder = redis.call('HGET', p .. 'job:' .. id, 'holder')
        if not holder or redis.call('EXISTS', p .. 'client:' .. holder) == 0 then
            ids[#ids + 1] = tonumber(id)
        end
    end
    table.sort(ids)
    local out, seen = {}, {}
    for _, id in ipairs(ids) do
        if #out >= limit * 3 then
            break
        end
        local j = place(p, id)
        if j and j.state == 'running' and not seen[id] then
            seen[id] = true
            local jk = p .. 'job:' .. id
            j.queue = redis.call('HGET', jk, 'queue')
            local rescues = tonumber(j.rescues or '0') + 1
            local attempt, max_attempts = tonumber(j.attempt), tonumber(j.max_attempts)
            local discard = rescues >= max_rescues or attempt >= max_attempts
            local state = discard and 'discarded' or 'retryable'
            local client = j.holder or '(none)'
            local message
            if j.holder and redis.call('EXISTS', p .. 'client:' .. j.holder) == 1 then
                message = 'rescued: client ' .. client .. ' stopped heartbeating while running this attempt'
            else
                message = 'rescued: this attempt ran longer than ' .. threshold .. ' on client ' .. client
                    .. ', which is not registered'
            end
            if rescues >= max_rescues then
                message = message .. '; discarded: rescued ' .. rescues
                    .. ' times, so it most likely kills the process that runs it (out of memory, a native crash)'
            elseif attempt >= max_attempts then
                message = message .. '; discarded: out of attempts'
            end
            local err = cjson.encode({attempt = attempt, at = now_text, error = message, trace = ''})
            leave(p, id, j)
            redis.call('HSET', jk, 'state', state, 'rescues', rescues, 'scheduled_at', now, 'sk', now_sk,
                'errors', append_json(redis.call('HGET', jk, 'errors'), err))
            j.scheduled_at, j.sk = now, now_sk
            if discard then
                redis.call('HSET', jk, 'finalized_at', now)
                j.finalized_at = now
            end
            enter(p, id, state, j)
            unique_after(p, id, j.unique_key, j.unique_states, state)
            out[#out + 1] = id
            out[#out + 1] = state
            out[#out + 1] = j.holder or ''
        end
    end
    return out
end

-- ARGV: leader now state before limit. Deletes final jobs finalized before `before`, oldest first.
local function delete_finalized(keys, args)
    local p = keys[1]
    if not lease_held(p, args[1], args[2]) then
        return 0
    end
    -- The set of every id that versions before 11 of this library kept, in a namespace they wrote:
    -- nothing reads or writes it now (UNLINK frees it off the server's main thread).
    redis.call('UNLINK', p .. 'all')
    local ids = redis.call('ZRANGEBYSCORE', p .. 'f:' .. args[3], '-inf', '(' .. args[4], 'LIMIT', 0, tonumber(args[5]))
    local n = 0
    for _, sid in ipairs(ids) do
        local id = tonumber(sid)
        local j = place(p, id)
        if j then
            j.queue = redis.call('HGET', p .. 'job:' .. id, 'queue')
            delete_job(p, id, j)
            n = n + 1
        else
            redis.call('ZREM', p .. 'f:' .. args[3], sid)
        end
    end
    return n
end

-- ---- administration ----

-- ARGV: now now_text reason, then ids. Returns the ids changed.
local function cancel_many(keys, args)
    local p = keys[1]
    local now, now_text, reason = args[1], args[2], args[3]
    local out, running = {}, false
    for i = 4, #args do
        local id = tonumber(args[i])
        local j = place(p, id)
        if j and not FINAL[j.state] then
            local jk = p .. 'job:' .. id
            if j.state == 'running' then
                if not j.cancel_requested_at then
                    redis.call('HSET', jk, 'cancel_requested_at', now)
                end
                running = true
            else
                j.queue = redis.call('HGET', jk, 'queue')
                leave(p, id, j)
                local err = cjson.encode({attempt = tonumber(j.attempt), at = now_text, error = reason, trace = ''})
                redis.call('HSET', jk, 'state', 'cancelled', 'finalized_at', now,
                    'errors', append_json(redis.call('HGET', jk, 'errors'), err))
                j.finalized_at = now
                enter(p, id, 'cancelled', j)
                unique_after(p, id, j.unique_key, j.unique_states, 'cancelled')
            end
            out[#out + 1] = id
        end
    end
    if running then
        wake(p, '\1cancel')
    end
    return out
end

-- ARGV: ids. Of the running ones, those whose cancel was requested.
local function cancel_requested(keys, args)
    local p = keys[1]
    local out = {}
    for _, sid in ipairs(args) do
        local v = redis.call('HMGET', p .. 'job:' .. sid, 'state', 'cancel_requested_at')
        if v[1] == 'running' and v[2] then
            out[#out + 1] = tonumber(sid)
        end
    end
    return out
end

-- ARGV: now now_sk, then ids. Jobs not running become available at now. Returns {ids, queues}.
local function retry_many(keys, args)
    local p = keys[1]
    local now, now_sk = args[1], args[2]
    local out, queues, names = {}, {}, {}
    for i = 3, #args do
        local id = tonumber(args[i])
        local j = place(p, id)
        if j and j.state ~= 'running' then
            local uk = j.unique_key
            if not (uk and uk ~= '' and unique_holder(p, uk, id)) then
                local jk = p .. 'job:' .. id
                j.queue = redis.call('HGET', jk, 'queue')
                leave(p, id, j)
                local attempt, max_attempts = tonumber(j.attempt), tonumber(j.max_attempts)
                redis.call('HSET', jk, 'state', 'available', 'scheduled_at', now, 'sk', now_sk,
                    'max_attempts', math.max(max_attempts, attempt + 1))
                redis.call('HDEL', jk, 'finalized_at', 'cancel_requested_at')
                j.sk = now_sk
                enter(p, id, 'available', j)
                if uk and uk ~= '' then
                    redis.call('HSET', p .. 'unique', uk, id)
                end
                out[#out + 1] = id
                if not queues[j.queue] then
                    queues[j.queue] = true
                    names[#names + 1] = j.queue
                end
            end
        end
    end
    for _, queue in ipairs(names) do
        wake(p, queue)
    end
    return {out, names}
end

-- ARGV: id. The job other than id that holds id's unique key: {holder} or {}.
local function unique_holder_of(keys, args)
    local p = keys[1]
    local id = tonumber(args[1])
    local uk = redis.call('HGET', p .. 'job:' .. id, 'unique_key')
    if not uk or uk == '' then
        return {}
    end
    local holder = unique_holder(p, uk, id)
    return holder and {holder} or {}
end

-- ARGV: ids. Deletes those not running; returns the ids deleted.
local function delete_many(keys, args)
    local p = keys[1]
    local out = {}
    for _, sid in ipairs(args) do
        local id = tonumber(sid)
        local j = place(p, id)
        if j and j.state ~= 'running' then
            j.queue = redis.call('HGET', p .. 'job:' .. id, 'queue')
            delete_job(p, id, j)
            out[#out + 1] = id
        end
    end
    return out
end

-- ---- reading ----

-- ARGV: ids. Whole rows of those that exist.
local function get_many(keys, args)
    local p = keys[1]
    local out = {}
    for _, sid in ipairs(args) do
        local r = row(p, tonumber(sid))
        if r[2] or r[4] then
            out[#out + 1] = r
        end
    end
    return out
end

local function json_set(json)
    local set = {}
    if json and json ~= '' then
        for _, v in ipairs(cjson.decode(json)) do
            set[v] = true
        end
    end
    return set
end

local function args_match(job_args, want)
    local ok, decoded = pcall(cjson.decode, job_args)
    if not ok or type(decoded) ~= 'table' then
        return false
    end
    for k, v in pairs(want) do
        local have = decoded[k]
        if have == nil then
            return false
        end
        if type(v) == 'number' then
            if type(have) ~= 'number' or have ~= v then
                return false
            end
        elseif have ~= v then
            return false
        end
    end
    return true
end

-- Up to n ids (as text) of the jobs in `states` (a list of state names) from id `from` to id `to`,
-- in id order (descending when asked): one state's read from its set, several states' merged
-- from theirs, each set read no further than n. Every job is in one state's set, so none comes
-- twice.
local function ids_between(p, states, from, to, descending, n)
    local lists, heads, at = {}, {}, {}
    for _, state in ipairs(states) do
        local ids
        if descending then
            ids = redis.call('ZREVRANGEBYSCORE', p .. 's:' .. state, to, from, 'LIMIT', 0, n)
        else
            ids = redis.call('ZRANGEBYSCORE', p .. 's:' .. state, from, to, 'LIMIT', 0, n)
        end
        if #states == 1 then
            return ids
        end
        if #ids > 0 then
            lists[#lists + 1] = ids
            heads[#lists] = tonumber(ids[1])
            at[#lists] = 1
        end
    end
    -- A merge of the sorted lists: each step takes the first (or last) of their heads.
    local out = {}
    while #out < n do
        local best = nil
        for k = 1, #lists do
            local h = heads[k]
            if h and (not best or (descending and h > heads[best]) or (not descending and h < heads[best])) then
                best = k
            end
        end
        if not best then
            break
        end
        local i = at[best]
        out[#out + 1] = lists[best][i]
        at[best] = i + 1
        local next_id = lists[best][i + 1]
        heads[best] = next_id and tonumber(next_id)
    end
    return out
end

-- ARGV: from to descending(0/1) limit scan states queues kinds tags args created_from created_before
-- (sets as JSON arrays of strings, args a JSON object or '', times '' for none). Reads at most
-- `scan` ids of the states asked (all when none is) between from and to, in the scan's direction
-- (ids_between), and returns {rows matching (at most limit), the last id read, 1 when the range is
-- read to its end}.
local function list(keys, args)
    local p = keys[1]
    local from, to, descending = args[1], args[2], args[3] == '1'
    local limit, scan = tonumber(args[4]), tonumber(args[5])
    local states, queues, kinds, tags = json_set(args[6]), json_set(args[7]), json_set(args[8]), cjson.decode(args[9])
    local want_args = args[10] ~= '' and cjson.decode(args[10]) or nil
    local created_from, created_before = tonumber(args[11]), tonumber(args[12])
    local n_states, named = 0, {}
    for _, s in ipairs(STATES) do
        if states[s] then
            n_states = n_states + 1
            named[n_states] = s
        end
    end
    local ids = ids_between(p, n_states == 0 and STATES or named, from, to, descending, scan)
    local rows = {}
    local last = nil
    for _, sid in ipairs(ids) do
        last = sid
        local r = row(p, tonumber(sid))
        local state, queue, kind = r[4], r[5], r[2]
        local ok = (n_states == 0 or states[state]) and (next(queues) == nil or queues[queue])
            and (next(kinds) == nil or kinds[kind])
        if ok and (created_from or created_before) then
            local c = tonumber(r[11])
            ok = c ~= nil and (not created_from or c >= created_from) and (not created_before or c < created_before)
        end
        if ok and #tags > 0 then
            local have = json_set(r[16])
            for _, t in ipairs(tags) do
                if not have[t] then
                    ok = false
                    break
                end
            end
        end
        if ok and want_args then
            ok = r[3] and args_match(r[3], want_args)
        end
        if ok then
            rows[#rows + 1] = r
            if #rows >= limit then
                break
            end
        end
    end
    local done = (#ids < scan) and (#rows < limit or last == ids[#ids])
    return {rows, last or '', done and 1 or 0}
end

-- Every count: state:queue, n pairs.
local function counts(keys, args)
    return redis.call('HGETALL', keys[1] .. 'counts')
end

-- ---- clients and the leader ----

-- ARGV: id now expires_at metadata.
local function client_heartbeat(keys, args)
    local p = keys[1]
    local ck = p .. 'client:' .. args[1]
    redis.call('HSETNX', ck, 'started_at', args[2])
    redis.call('HSET', ck, 'heartbeat_at', args[2], 'expires_at', args[3], 'metadata', args[4])
    redis.call('HDEL', ck, 'stopped_at')
    redis.call('ZADD', p .. 'clients', args[3], args[1])
    redis.call('SADD', p .. 'keys', ck)
    return 1
end

-- ARGV: id now.
local function client_stop(keys, args)
    local p = keys[1]
    local ck = p .. 'client:' .. args[1]
    if redis.call('EXISTS', ck) == 1 then
        redis.call('HSET', ck, 'stopped_at', args[2], 'expires_at', args[2])
        redis.call('ZADD', p .. 'clients', args[2], args[1])
    end
    return 1
end

local CLIENT = {'started_at', 'heartbeat_at', 'expires_at', 'stopped_at', 'metadata'}

-- Every client: id followed by CLIENT's fields.
local function client_list(keys, args)
    local p = keys[1]
    local out = {}
    for _, id in ipairs(redis.call('ZRANGE', p .. 'clients', 0, -1)) do
        local v = redis.call('HMGET', p .. 'client:' .. id, unpack(CLIENT))
        table.insert(v, 1, id)
        out[#out + 1] = v
    end
    return out
end

-- ARGV: now. Expired clients not rescued since they expired, oldest expiry first, at most 1000.
local function client_list_dead(keys, args)
    local p = keys[1]
    local out = {}
    for _, id in ipairs(redis.call('ZRANGEBYSCORE', p .. 'clients', '-inf', args[1])) do
        local v = redis.call('HMGET', p .. 'client:' .. id, 'expires_at', 'rescued_at')
        if v[1] and (not v[2] or tonumber(v[2]) < tonumber(v[1])) then
            out[#out + 1] = id
            if #out >= 1000 then
                break
            end
        end
    end
    return out
end

-- ARGV: leader now, then client ids. Marks rescued those still expired with no running job left.
local function client_mark_rescued(keys, args)
    local p = keys[1]
    local now = args[2]
    if not lease_held(p, args[1], now) then
        return 0
    end
    for i = 3, #args do
        local ck = p .. 'client:' .. args[i]
        local expires = redis.call('HGET', ck, 'expires_at')
        if expires and tonumber(expires) <= tonumber(now) and redis.call('SCARD', p .. 'run:' .. args[i]) == 0 then
            redis.call('HSET', ck, 'rescued_at', now)
        end
    end
    return 1
end

-- ARGV: leader now expired_before. Deletes clients expired before it whose jobs were rescued since.
local function client_delete_expired(keys, args)
    local p = keys[1]
    if not lease_held(p, args[1], args[2]) then
        return 0
    end
    local n = 0
    for _, id in ipairs(redis.call('ZRANGEBYSCORE', p .. 'clients', '-inf', '(' .. args[3])) do
        local ck = p .. 'client:' .. id
        local v = redis.call('HMGET', ck, 'expires_at', 'rescued_at')
        if v[2] and tonumber(v[2]) >= tonumber(v[1]) then
            redis.call('DEL', ck)
            redis.call('ZREM', p .. 'clients', id)
            redis.call('SREM', p .. 'keys', ck)
            n = n + 1
        end
    end
    return n
end

-- ARGV: leader now expires_at. Takes the lease when free or ended, or renews it; 1 when held.
local function leader_elect(keys, args)
    local p = keys[1]
    local lk = p .. 'leader'
    local l = redis.call('HMGET', lk, 'leader_id', 'elected_at', 'expires_at')
    if l[1] == args[1] then
        redis.call('HSET', lk, 'expires_at', args[3])
        return 1
    end
    if not l[1] or tonumber(l[3]) <= tonumber(args[2]) then
        redis.call('HSET', lk, 'leader_id', args[1], 'elected_at', args[2], 'expires_at', args[3])
        return 1
    end
    return 0
end

-- ARGV: leader.
local function leader_resign(keys, args)
    local p = keys[1]
    if redis.call('HGET', p .. 'leader', 'leader_id') == args[1] then
        redis.call('DEL', p .. 'leader')
    end
    return 1
end

local function leader_get(keys, args)
    return redis.call('HMGET', keys[1] .. 'leader', 'leader_id', 'elected_at', 'expires_at')
end

-- ---- queues ----

-- ARGV: now, then names.
local function queue_register(keys, args)
    local p = keys[1]
    for i = 2, #args do
        local qk = p .. 'q:' .. args[i]
        if redis.call('HSETNX', qk, 'created_at', args[1]) == 1 then
            redis.call('HSET', qk, 'metadata', '{}')
            redis.call('ZADD', p .. 'queues', 0, args[i])
            redis.call('SADD', p .. 'keys', qk)
        end
        redis.call('HSET', qk, 'updated_at', args[1])
    end
    return 1
end

local QUEUE = {'created_at', 'updated_at', 'paused_at', 'metadata', 'global_limit', 'rate_limit', 'rate_period_us',
               'key_source', 'key_field', 'key_limit', 'key_weights', 'key_rate_limit', 'key_rate_period_us'}

-- Every queue by name: name followed by QUEUE's fields.
local function queue_list(keys, args)
    local p = keys[1]
    local out = {}
    for _, name in ipairs(redis.call('ZRANGE', p .. 'queues', 0, -1)) do
        local v = redis.call('HMGET', p .. 'q:' .. name, unpack(QUEUE))
        table.insert(v, 1, name)
        out[#out + 1] = v
    end
    return out
end

-- ARGV: pause(1)/resume(0) now queue ('' for all). Returns the names matched.
local function queue_set_paused(keys, args)
    local p = keys[1]
    local pause, now, queue = args[1] == '1', args[2], args[3]
    local names
    if queue == '' then
        names = redis.call('ZRANGE', p .. 'queues', 0, -1)
    elseif redis.call('EXISTS', p .. 'q:' .. queue) == 1 then
        names = {queue}
    else
        names = {}
    end
    for _, name in ipairs(names) do
        local qk = p .. 'q:' .. name
        if pause then
            redis.call('HSETNX', qk, 'paused_at', now)
        elseif redis.call('HDEL', qk, 'paused_at') == 1 then
            wake(p, name)
        end
        redis.call('HSET', qk, 'updated_at', now)
    end
    return names
end

-- ---- queue limits ----
-- The limited claim keeps to a queue's limits as the SQL drivers' limited claim does
-- (LimitedClaim, JobClaimLimited, JobClaimKeyed): the rate limit's room from the start times kept,
-- then the global limit's (the queue's running jobs, counted exactly in P..'counts'), then either
-- the plain claim or, under a per-key limit, each key's first jobs in turn.

-- Tells the listening clients that a queue's limits changed (Driver.LIMITS_CHANGED): a queue
-- given a limit is claimed only by the limited claim, which a client takes up once it has read the
-- limit again, and a listening client does not poll for it.
local function limits_changed(p)
    wake(p, '\3limits changed')
end

-- ARGV: queue now limit ('' for none). 1 when the queue exists.
local function queue_set_global_limit(keys, args)
    local p = keys[1]
    local qk = p .. 'q:' .. args[1]
    if redis.call('EXISTS', qk) == 0 then
        return 0
    end
    if args[3] == '' then
        redis.call('HDEL', qk, 'global_limit')
    else
        redis.call('HSET', qk, 'global_limit', args[3])
    end
    redis.call('HSET', qk, 'updated_at', args[2])
    limits_changed(p)
    return 1
end

-- ARGV: queue now jobs period_us ('' for none). 1 when the queue exists. The start times kept
-- stay, as on SQL: a rate set again counts the starts before it.
local function queue_set_rate_limit(keys, args)
    local p = keys[1]
    local queue = args[1]
    local qk = p .. 'q:' .. queue
    if redis.call('EXISTS', qk) == 0 then
        return 0
    end
    if args[3] == '' then
        redis.call('HDEL', qk, 'rate_limit', 'rate_period_us')
    else
        redis.call('HSET', qk, 'rate_limit', args[3], 'rate_period_us', args[4])
        redis.call('SADD', p .. 'keys', p .. 'lrate:' .. queue)
    end
    redis.call('HSET', qk, 'updated_at', args[2])
    limits_changed(p)
    return 1
end

-- ARGV: queue now source field limit weights rate_jobs rate_period_us (source '' for none, rate
-- '' for none). 1 when the queue exists. The available jobs without a key get theirs next, in
-- batches (queue_key_waiting, from key_cursor); jobs waiting for their time get theirs as they
-- become available, and every job inserted from now on at insert.
local function queue_set_key_limit(keys, args)
    local p = keys[1]
    local queue, now = args[1], args[2]
    local qk = p .. 'q:' .. queue
    if redis.call('EXISTS', qk) == 0 then
        return 0
    end
    redis.call('HDEL', qk, 'key_source', 'key_field', 'key_limit', 'key_weights', 'key_rate_limit',
        'key_rate_period_us', 'key_cursor')
    if args[3] ~= '' then
        redis.call('HSET', qk, 'key_source', args[3], 'key_field', args[4], 'key_limit', args[5], 'key_weights',
            args[6], 'key_cursor', '')
        if args[7] ~= '' then
            redis.call('HSET', qk, 'key_rate_limit', args[7], 'key_rate_period_us', args[8])
        end
        redis.call('SADD', p .. 'keys', p .. 'lk:' .. queue, p .. 'lkr:' .. queue)
    end
    redis.call('HSET', qk, 'key_set_at', now, 'updated_at', now)
    limits_changed(p)
    return 1
end

-- Gives up to batch of queue's available jobs without a key theirs, from the queue's key_cursor
-- on. Returns {how many got one, 1 when the queue has none left to give}.
local function key_waiting(p, queue, batch)
    local qk = p .. 'q:' .. queue
    local q = redis.call('HMGET', qk, 'key_source', 'key_field', 'key_cursor')
    if not q[1] or not q[3] then
        return {0, 1}
    end
    local avail = p .. 'avail:' .. queue
    local from = q[3] == '' and '-' or ('(' .. q[3])
    local members = redis.call('ZRANGEBYLEX', avail, from, '+', 'LIMIT', 0, batch)
    local n = 0
    for _, m in ipairs(members) do
        local jk = p .. 'job:' .. tonumber(string.sub(m, 18), 16)
        local v = redis.call('HMGET', jk, 'limit_key', 'args', 'metadata')
        if not v[1] and v[2] then
            local key = limit_key_of(q[1], q[2], v[2], v[3])
            redis.call('HSET', jk, 'limit_key', key)
            key_available(p, queue, key, m)
            n = n + 1
        end
    end
    if #members < batch then
        redis.call('HDEL', qk, 'key_cursor')
        return {n, 1}
    end
    redis.call('HSET', qk, 'key_cursor', members[#members])
    return {n, 0}
end

-- ARGV: queue batch. See key_waiting.
local function queue_key_waiting(keys, args)
    return key_waiting(keys[1], args[1], tonumber(args[2]))
end

-- ARGV: since batch. key_waiting for the queues whose per-key limit was set after since and whose
-- waiting jobs have not all got their keys (the client that set it stopped half-way), up to batch
-- jobs in all. Returns {how many got one, 1 when no such queue is left}.
local function queue_key_stragglers(keys, args)
    local p = keys[1]
    local since, batch = tonumber(args[1]), tonumber(args[2])
    local n, done = 0, 1
    for _, queue in ipairs(redis.call('ZRANGE', p .. 'queues', 0, -1)) do
        local q = redis.call('HMGET', p .. 'q:' .. queue, 'key_set_at', 'key_cursor')
        if q[2] and tonumber(q[1]) > since then
            if n >= batch then
                return {n, 0}
            end
            local r = key_waiting(p, queue, batch - n)
            n = n + r[1]
            if r[2] == 0 then
                done = 0
            end
        end
    end
    return {n, done}
end

-- The first `need` due members of zset z in the claim's order: priority, time, id (z holds
-- members as the available sets do; bound is sortable(now + 1us)).
local function due_members(z, need, bound)
    local first = redis.call('ZRANGEBYLEX', z, '-', '+', 'LIMIT', 0, need)
    local all_due = true
    for _, m in ipairs(first) do
        if m >= string.sub(m, 1, 1) .. bound then
            all_due = false
            break
        end
    end
    if all_due then
        return first
    end
    local out = {}
    for priority = 1, 4 do
        if #out >= need then
            break
        end
        for _, m in ipairs(redis.call('ZRANGEBYLEX', z, '[' .. priority, '(' .. priority .. bound, 'LIMIT', 0,
                need - #out)) do
            out[#out + 1] = m
        end
    end
    return out
end

-- ARGV: sortable(now + 1us), then queue names. Of those queues, the ones with a job available and
-- due, each found as a limited claim finds its jobs (due_members; a queue without available jobs
-- has no set, and one read of nothing tells). The safety poll of a listening client asks this once
-- an interval for all its queues, instead of claiming each.
local function queues_due(keys, args)
    local p, bound = keys[1], args[1]
    local due = {}
    for i = 2, #args do
        if #due_members(p .. 'avail:' .. args[i], 1, bound) > 0 then
            due[#due + 1] = args[i]
        end
    end
    return due
end

-- Keeps `n` more start times at now in the zset `starts`, the last `jobs` of them.
local function rate_started(p, qk, starts, now, n, jobs)
    local last = redis.call('HINCRBY', qk, 'rate_seq', n)
    local add = {}
    for i = last - n + 1, last do
        add[#add + 1] = now
        add[#add + 1] = i
    end
    redis.call('ZADD', starts, unpack(add))
    redis.call('ZREMRANGEBYRANK', starts, 0, -(jobs + 1))
end

-- How many of the start times in `starts` are after now - period (the window's start times).
local function rate_recent(starts, now, period)
    return redis.call('ZCOUNT', starts, '(' .. micros_text(tonumber(now) - period), '+inf')
end

-- ARGV: queue max now sortable(now + 1us) client client_json. An at-least-once claim under the
-- queue's limits; nothing from a queue that does not exist or is paused. Returns as claim does.
local function claim_limited(keys, args)
    local p = keys[1]
    local queue, max, now, bound = args[1], tonumber(args[2]), args[3], args[4]
    local c = {id = args[5], json = args[6], at_most_once = false}
    local qk = p .. 'q:' .. queue
    local q = redis.call('HMGET', qk, 'created_at', 'paused_at', 'global_limit', 'rate_limit', 'rate_period_us',
        'key_limit', 'key_rate_limit', 'key_rate_period_us', 'key_weights')
    if not q[1] or q[2] then
        return {{}, {}, {}}
    end
    local room = max
    local rate_jobs = tonumber(q[4])
    local rate = p .. 'lrate:' .. queue
    if rate_jobs then
        room = math.min(room, math.max(0, rate_jobs - rate_recent(rate, now, tonumber(q[5]))))
    end
    if q[3] then
        local running = tonumber(redis.call('HGET', p .. 'counts', 'running:' .. queue) or '0')
        room = math.min(room, math.max(0, tonumber(q[3]) - running))
    end
    local rows, broken, batch = claim_rows(), {}, claim_batch()
    if room <= 0 then
        return {rows.new, rows.full, broken}
    end
    local avail = p .. 'avail:' .. queue
    if q[6] then
        -- Each key offers its first due jobs, up to its limit less its running jobs (and its rate
        -- less its recent starts); the keys take turns, a key of weight w taking w jobs a turn,
        -- each turn by priority, time and id, a key's running jobs counting as turns it has had.
        local key_limit, key_rate_jobs, key_rate_period = tonumber(q[6]), tonumber(q[7]), tonumber(q[8])
        local weights = cjson.decode(q[9] or '{}')
        local running = {}
        local r = redis.call('HGETALL', p .. 'lkr:' .. queue)
        for i = 1, #r, 2 do
            running[r[i]] = tonumber(r[i + 1])
        end
        local offered = {}
        for _, key in ipairs(redis.call('ZRANGE', p .. 'lk:' .. queue, 0, -1)) do
            local need = math.min(room, key_limit - (running[key] or 0))
            if key_rate_jobs and need > 0 then
                need = math.min(need, key_rate_jobs - rate_recent(key_rate_starts(p, queue, key), now, key_rate_period))
            end
            if need > 0 then
                local w = weights[key]
                w = (type(w) == 'number' and w >= 1) and math.floor(w) or 1
                for turn, m in ipairs(due_members(key_avail(p, queue, key), need, bound)) do
                    offered[#offered + 1] = {math.floor(((running[key] or 0) + turn + w - 1) / w), m, key}
                end
            end
        end
        table.sort(offered, function(a, b)
            if a[1] ~= b[1] then
                return a[1] < b[1]
            end
            return a[2] < b[2]
        end)
        local started = {}
        for i = 1, math.min(room, #offered) do
            local before = rows.n
            claim_member(p, queue, offered[i][2], now, c, rows, broken, batch)
            if rows.n > before then
                local key = offered[i][3]
                started[key] = (started[key] or 0) + 1
            end
        end
        if key_rate_jobs then
            for key, n in pairs(started) do
                local starts = key_rate_starts(p, queue, key)
                rate_started(p, qk, starts, now, n, key_rate_jobs)
                redis.call('SADD', p .. 'keys', starts)
            end
        end
    else
        for priority = 1, 4 do
            local need = room - rows.n
            if need <= 0 then
                break
            end
            local members = redis.call('ZRANGEBYLEX', avail, '[' .. priority, '(' .. priority .. bound, 'LIMIT', 0,
                need)
            for _, m in ipairs(members) do
                claim_member(p, queue, m, now, c, rows, broken, batch)
            end
        end
    end
    if rate_jobs and rows.n > 0 then
        rate_started(p, qk, rate, now, rows.n, rate_jobs)
    end
    claim_flush(p, queue, c, rows, broken, batch)
    return {rows.new, rows.full, broken}
end

-- ---- periodic jobs ----
-- A periodic job is a hash (P..'periodic:'..name) with the fields of PERIODIC below and
-- declared_hash, removed_at; its tick's job is inserted in the same call that moves it on, so a
-- tick is enqueued once however many clients try it.

local PERIODIC = {'kind', 'args', 'queue', 'priority', 'max_attempts', 'tags', 'metadata', 'schedule', 'zone',
                  'catch_up', 'run_on_start', 'hash', 'declared_hash', 'paused_at', 'last_tick', 'fired_through',
                  'created_at', 'updated_at', 'removed_at'}

-- The metadata of periodic job `name`'s run: its own metadata with "periodic": name and key: value
-- (name_json and value_json are JSON strings) set.
local function periodic_metadata(metadata, name_json, key, value_json)
    local doc = cjson.decode(metadata)
    if doc.periodic ~= nil or doc[key] ~= nil then
        doc.periodic = cjson.decode(name_json)
        doc[key] = cjson.decode(value_json)
        return cjson.encode(doc)
    end
    local body = '"periodic":' .. name_json .. ',' .. cjson.encode(key) .. ':' .. value_json
    if next(doc) == nil then
        return '{' .. body .. '}'
    end
    local close = string.find(metadata, '}%s*$')
    return string.sub(metadata, 1, close - 1) .. ',' .. body .. '}'
end

-- Inserts the job of periodic job pk, available at now, with `metadata`. Returns its id.
local function periodic_insert(p, pk, now, now_sk, metadata)
    local d = redis.call('HMGET', pk, 'kind', 'args', 'queue', 'priority', 'max_attempts', 'tags')
    local id = redis.call('INCR', p .. 'id')
    write_new(p .. 'job:' .. id, d[1], d[2], d[4], d[5], now, now, 'available', d[3], now_sk, d[6], metadata)
    enter(p, id, 'available', {queue = d[3], priority = d[4], sk = now_sk})
    wake(p, d[3])
    return id
end

-- The later of two stored times.
local function later(a, b)
    return tonumber(a) >= tonumber(b) and a or b
end

-- ARGV: name kind args queue priority max_attempts tags metadata schedule zone catch_up
-- run_on_start(0/1) hash declared_hash ('' when not declared) now now_sk name_json now_json.
-- Stores the definition unless it is stored already (see PeriodicUpsertParams: declared, stored
-- when code's definition changed since code last declared it; else when new, removed or
-- changed), and then enqueues its run on start unless it is paused. 1 when stored.
local function periodic_upsert(keys, args)
    local p = keys[1]
    local name, hash, declared, now = args[1], args[13], args[14], args[15]
    local pk = p .. 'periodic:' .. name
    local e = redis.call('HMGET', pk, 'hash', 'declared_hash', 'removed_at', 'schedule', 'zone', 'fired_through',
        'paused_at')
    local paused = false
    if e[1] then
        local store
        if declared ~= '' then
            store = e[2] ~= declared
        else
            store = e[1] ~= hash or e[3] ~= false
        end
        if not store then
            return 0
        end
        local fired = e[6]
        if e[3] or e[4] ~= args[9] or e[5] ~= args[10] then
            fired = later(e[6], now)
        end
        redis.call('HDEL', pk, 'removed_at')
        redis.call('HSET', pk, 'fired_through', fired)
        paused = e[7]
    else
        redis.call('HSET', pk, 'fired_through', now, 'created_at', now)
        redis.call('ZADD', p .. 'periodics', 0, name)
        redis.call('SADD', p .. 'keys', pk, p .. 'periodics')
    end
    redis.call('HSET', pk, 'kind', args[2], 'args', args[3], 'queue', args[4], 'priority', args[5], 'max_attempts',
        args[6], 'tags', args[7], 'metadata', args[8], 'schedule', args[9], 'zone', args[10], 'catch_up', args[11],
        'run_on_start', args[12], 'hash', hash, 'updated_at', now)
    if declared ~= '' then
        redis.call('HSET', pk, 'declared_hash', declared)
    end
    if args[12] == '1' and not paused then
        periodic_insert(p, pk, now, args[16], periodic_metadata(args[8], args[17], 'start', args[18]))
    end
    return 1
end

-- Every periodic job not removed, by name: name followed by PERIODIC's fields.
local function periodic_list(keys, args)
    local p = keys[1]
    local out = {}
    for _, name in ipairs(redis.call('ZRANGE', p .. 'periodics', 0, -1)) do
        local v = redis.call('HMGET', p .. 'periodic:' .. name, unpack(PERIODIC))
        if v[1] and not v[19] then
            table.insert(v, 1, name)
            out[#out + 1] = v
        end
    end
    return out
end

-- ARGV: name pause(1)/resume(0) now. A resume drops the ticks due while paused. 1 when the job exists.
local function periodic_set_paused(keys, args)
    local p = keys[1]
    local pk = p .. 'periodic:' .. args[1]
    local now = args[3]
    local e = redis.call('HMGET', pk, 'hash', 'removed_at', 'paused_at', 'fired_through')
    if not e[1] or e[2] then
        return 0
    end
    if args[2] == '1' then
        redis.call('HSETNX', pk, 'paused_at', now)
    elseif e[3] then
        redis.call('HSET', pk, 'fired_through', later(e[4], now))
        redis.call('HDEL', pk, 'paused_at')
    end
    redis.call('HSET', pk, 'updated_at', now)
    return 1
end

-- ARGV: name now. Marks the job removed (its hash stays for periodic_upsert). 1 when it existed.
local function periodic_remove(keys, args)
    local p = keys[1]
    local pk = p .. 'periodic:' .. args[1]
    local e = redis.call('HMGET', pk, 'hash', 'removed_at')
    if not e[1] or e[2] then
        return 0
    end
    redis.call('HDEL', pk, 'paused_at')
    redis.call('HSET', pk, 'removed_at', args[2], 'updated_at', args[2])
    return 1
end

-- ARGV: leader now now_sk name hash fired_through tick enqueue(0/1) name_json tick_json. Moves the
-- job on from fired_through to tick and, when enqueue, inserts the tick's job, only while the job
-- is as read (hash, fired_through), active, and the lease held. 1 when it moved on.
local function periodic_enqueue(keys, args)
    local p = keys[1]
    local now = args[2]
    if not lease_held(p, args[1], now) then
        return 0
    end
    local pk = p .. 'periodic:' .. args[4]
    local e = redis.call('HMGET', pk, 'hash', 'fired_through', 'paused_at', 'removed_at', 'metadata')
    if e[1] ~= args[5] or e[2] ~= args[6] or e[3] or e[4] then
        return 0
    end
    redis.call('HSET', pk, 'fired_through', args[7])
    if args[8] == '1' then
        redis.call('HSET', pk, 'last_tick', args[7])
        periodic_insert(p, pk, now, args[3], periodic_metadata(e[5], args[9], 'tick', args[10]))
    end
    return 1
end

-- ---- the audit log ----

-- ARGV: at actor action target count. Returns the entry's id.
local function audit_insert(keys, args)
    local p = keys[1]
    local id = redis.call('INCR', p .. 'audit_id')
    redis.call('HSET', p .. 'audit:' .. id, 'at', args[1], 'actor', args[2], 'action', args[3], 'target', args[4],
        'count', args[5])
    redis.call('ZADD', p .. 'audit', id, id)
    return id
end

local AUDIT = {'at', 'actor', 'action', 'target', 'count'}

-- ARGV: before_id (0: from the newest) limit. Entries newest first: id followed by AUDIT's fields.
local function audit_list(keys, args)
    local p = keys[1]
    local before = args[1] == '0' and '+inf' or ('(' .. args[1])
    local out = {}
    for _, id in ipairs(redis.call('ZREVRANGEBYSCORE', p .. 'audit', before, '-inf', 'LIMIT', 0, tonumber(args[2]))) do
        local v = redis.call('HMGET', p .. 'audit:' .. id, unpack(AUDIT))
        table.insert(v, 1, tonumber(id))
        out[#out + 1] = v
    end
    return out
end

-- ---- migrations and the namespace ----

local function migration_list(keys, args)
    return redis.call('HGETALL', keys[1] .. 'migrations')
end

-- ARGV: version record. 1 when recorded now, 0 when it was already.
local function migration_up(keys, args)
    return redis.call('HSETNX', keys[1] .. 'migrations', args[1], args[2])
end

-- The keys of a namespace not named by a queue, client, key or periodic job; 'all' is the set of
-- every id that versions before 11 of this library kept.
local FIXED = {'id', 'all', 'due', 'running', 'f:completed', 'f:cancelled', 'f:discarded',
               'counts', 'unique', 'queues', 'clients', 'leader', 'broken', 'audit', 'audit_id', 'migrations'}

-- ARGV: batch. Deletes up to batch jobs of the namespace, and once none is left every other key,
-- the migration record and the key registry last. Returns how many jobs are left (0: all gone).
local function namespace_drop(keys, args)
    local p = keys[1]
    local batch = tonumber(args[1])
    local left = 0
    for _, state in ipairs(STATES) do
        local set = p .. 's:' .. state
        if batch > 0 then
            local ids = redis.call('ZRANGE', set, 0, batch - 1)
            for _, id in ipairs(ids) do
                redis.call('DEL', p .. 'job:' .. id)
            end
            if #ids > 0 then
                redis.call('ZREM', set, unpack(ids))
            end
            batch = batch - #ids
        end
        left = left + redis.call('ZCARD', set)
    end
    if left == 0 then
        for _, id in ipairs(redis.call('SMEMBERS', p .. 'broken')) do
            redis.call('DEL', p .. 'job:' .. id)
        end
        for _, id in ipairs(redis.call('ZRANGE', p .. 'audit', 0, -1)) do
            redis.call('DEL', p .. 'audit:' .. id)
        end
        for _, k in ipairs(redis.call('SMEMBERS', p .. 'keys')) do
            redis.call('DEL', k)
        end
        for _, k in ipairs(FIXED) do
            redis.call('DEL', p .. k)
        end
        for _, state in ipairs(STATES) do
            redis.call('DEL', p .. 's:' .. state)
        end
        redis.call('DEL', p .. 'keys')
    end
    return left
end

redis.register_function{function_name = 'runnel_version', callback = version, flags = {'no-writes'}}
redis.register_function('runnel_insert_many', insert_many)
redis.register_function('runnel_claim', claim)
redis.register_function{function_name = 'runnel_queues_due', callback = queues_due, flags = {'no-writes'}}
redis.register_function{function_name = 'runnel_claim_recover', callback = claim_recover, flags = {'no-writes'}}
redis.register_function('runnel_complete_many', complete_many)
redis.register_function('runnel_complete_delete_many', complete_delete_many)
redis.register_function('runnel_set_state_many', set_state_many)
redis.register_function('runnel_reinsert_many', reinsert_many)
redis.register_function('runnel_schedule_due', schedule_due)
redis.register_function('runnel_rescue_many', rescue_many)
redis.register_function('runnel_delete_finalized', delete_finalized)
redis.register_function('runnel_cancel_many', cancel_many)
redis.register_function{function_name = 'runnel_cancel_requested', callback = cancel_requested, flags = {'no-writes'}}
redis.register_function('runnel_retry_many', retry_many)
redis.register_function{function_name = 'runnel_unique_holder', callback = unique_holder_of, flags = {'no-writes'}}
redis.register_function('runnel_delete_many', delete_many)
redis.register_function{function_name = 'runnel_get_many', callback = get_many, flags = {'no-writes'}}
redis.register_function{function_name = 'runnel_list', callback = list, flags = {'no-writes'}}
redis.register_function{function_name = 'runnel_counts', callback = counts, flags = {'no-writes'}}
redis.register_function('runnel_client_heartbeat', client_heartbeat)
redis.register_function('runnel_client_stop', client_stop)
redis.register_function{function_name = 'runnel_client_list', callback = client_list, flags = {'no-writes'}}
redis.register_function{function_name = 'runnel_client_list_dead', callback = client_list_dead, flags = {'no-writes'}}
redis.register_function('runnel_client_mark_rescued', client_mark_rescued)
redis.register_function('runnel_client_delete_expired', client_delete_expired)
redis.register_function('runnel_leader_elect', leader_elect)
redis.register_function('runnel_leader_resign', leader_resign)
redis.register_function{function_name = 'runnel_leader_get', callback = leader_get, flags = {'no-writes'}}
redis.register_function('runnel_queue_register', queue_register)
redis.register_function{function_name = 'runnel_queue_list', callback = queue_list, flags = {'no-writes'}}
redis.register_function('runnel_queue_set_paused', queue_set_paused)
redis.register_function('runnel_queue_set_global_limit', queue_set_global_limit)
redis.register_function('runnel_queue_set_rate_limit', queue_set_rate_limit)
redis.register_function('runnel_queue_set_key_limit', queue_set_key_limit)
redis.register_function('runnel_queue_key_waiting', queue_key_waiting)
redis.register_function('runnel_queue_key_stragglers', queue_key_stragglers)
redis.register_function('runnel_claim_limited', claim_limited)
redis.register_function('runnel_periodic_upsert', periodic_upsert)
redis.register_function{function_name = 'runnel_periodic_list', callback = periodic_list, flags = {'no-writes'}}
redis.register_function('runnel_periodic_set_paused', periodic_set_paused)
redis.register_function('runnel_periodic_remove', periodic_remove)
redis.register_function('runnel_periodic_enqueue', periodic_enqueue)
redis.register_function('runnel_audit_insert', audit_insert)
redis.register_function{function_name = 'runnel_audit_list', callback = audit_list, flags = {'no-writes'}}
redis.register_function{function_name = 'runnel_migration_list', callback = migration_list, flags = {'no-writes'}}
redis.register_function('runnel_migration_up', migration_up)
redis.register_function('runnel_namespace_drop', namespace_drop)
