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
--   P..'all'             zset: every job id, score = member = id (listings in id order)
--   P..'s:'..state       zset: the jobs in a state, score = member = id (listings, counts' check)
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
--   P..'keys'            set: every key above named by a queue or a client, so that the namespace
--                        can be dropped without a scan
-- and one shard channel, not a key (nothing is stored): P..'wake', on which the functions SPUBLISH
-- the name of a queue whose jobs became available (inserted, due, retried, resumed), and \1cancel
-- when a cancel was requested of a running job (RedisListener says why pub/sub).
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
-- output (the completed attempt's output, merged into the metadata by the driver) snoozes.

-- One more on every change to this file: a server with an older library gets this one at start.
local VERSION = 3

-- The fields of a whole row, in the order RedisRows.decode reads them after the id.
local ROW = {'kind', 'args', 'state', 'queue', 'priority', 'attempt', 'max_attempts', 'attempted_at',
             'attempted_by', 'created_at', 'scheduled_at', 'finalized_at', 'errors', 'metadata', 'tags',
             'output', 'snoozes'}

-- The bit of each state in a unique job's mask (UniqueStates).
local UNIQUE_BIT = {scheduled = 64, available = 32, running = 16, retryable = 8, completed = 4,
                    cancelled = 2, discarded = 1}

local FINAL = {completed = true, cancelled = true, discarded = true}

-- Tells every client listening on the namespace's channel that queue has jobs available now, or,
-- with a message starting with a control character (no queue name holds one), of a control event.
-- A pcall: a user whose ACL does not grant the channel still writes (its clients poll instead).
local function wake(p, message)
    redis.pcall('SPUBLISH', p .. 'wake', message)
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

-- Takes job id out of the sets of its state (j: state, queue, priority, sk, holder).
local function leave(p, id, j)
    local state, queue = j.state, j.queue
    redis.call('ZREM', p .. 's:' .. state, id)
    count(p, state, queue, -1)
    if state == 'available' then
        redis.call('ZREM', p .. 'avail:' .. queue, member(j.priority, j.sk, id))
    elseif state == 'scheduled' or state == 'retryable' then
        redis.call('ZREM', p .. 'due', id)
    elseif state == 'running' then
        redis.call('ZREM', p .. 'running', id)
        if j.holder then
            redis.call('SREM', p .. 'run:' .. j.holder, id)
        end
    else
        redis.call('ZREM', p .. 'f:' .. state, id)
    end
end

-- Puts job id into the sets of state (j: queue, priority, sk, scheduled_at, finalized_at).
local function enter(p, id, state, j)
    redis.call('ZADD', p .. 's:' .. state, id, id)
    count(p, state, j.queue, 1)
    if state == 'available' then
        local avail = p .. 'avail:' .. j.queue
        redis.call('ZADD', avail, 0, member(j.priority, j.sk, id))
        redis.call('SADD', p .. 'keys', avail)
    elseif state == 'scheduled' or state == 'retryable' then
        redis.call('ZADD', p .. 'due', j.scheduled_at, id)
    elseif FINAL[state] then
        redis.call('ZADD', p .. 'f:' .. state, j.finalized_at, id)
    end
end

local PLACE = {'state', 'queue', 'priority', 'sk', 'holder', 'scheduled_at', 'finalized_at', 'unique_key',
               'unique_states', 'attempt', 'max_attempts', 'cancel_requested_at', 'rescues', 'attempted_at'}

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

local function append_json(array, value)
    if not array or array == '' or array == '[]' then
        return '[' .. value .. ']'
    end
    return string.sub(array, 1, -2) .. ',' .. value .. ']'
end

local function delete_job(p, id, j)
    leave(p, id, j)
    redis.call('ZREM', p .. 'all', id)
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
            local jk = p .. 'job:' .. id
            redis.call('HSET', jk, 'kind', args[b + 1], 'args', args[b + 2], 'queue', queue, 'priority', priority,
                'state', state, 'attempt', 0, 'max_attempts', args[b + 9], 'created_at', args[b + 6],
                'scheduled_at', args[b + 7], 'sk', sk, 'tags', args[b + 10], 'metadata', args[b + 11],
                'errors', '[]', 'attempted_by', '[]')
            if uk ~= '' then
                redis.call('HSET', jk, 'unique_key', uk, 'unique_states', args[b + 13])
                redis.call('HSET', p .. 'unique', uk, id)
            end
            redis.call('ZADD', p .. 'all', id, id)
            redis.call('ZADD', p .. 's:' .. state, id, id)
            count(p, state, queue, 1)
            if state == 'available' then
                local avail = p .. 'avail:' .. queue
                redis.call('ZADD', avail, 0, member(priority, sk, id))
                if not avail_seen[avail] then
                    avail_seen[avail] = true
                    redis.call('SADD', p .. 'keys', avail)
                    wake(p, queue)
                end
            else
                redis.call('ZADD', p .. 'due', args[b + 7], id)
            end
            out[#out + 1] = id
            out[#out + 1] = 0
        end
    end
    return out
end

-- ---- the claim ----

-- The fields a claim reads of each job, in the order RedisRows.decodeClaimed reads them.
local CLAIMED = {'kind', 'args', 'priority', 'attempt', 'max_attempts', 'attempted_by', 'created_at',
                 'scheduled_at', 'errors', 'metadata', 'tags', 'output', 'snoozes', 'unique_key', 'unique_states',
                 'queue', 'sk'}

-- ARGV: queue max now sortable(now + 1us) client client_json at_most_once(0/1).
-- Returns {rows, broken ids}: each row id followed by CLAIMED's fields (attempt already the new one).
local function claim(keys, args)
    local p = keys[1]
    local queue, max, now, bound, client, client_json = args[1], tonumber(args[2]), args[3], args[4], args[5], args[6]
    local at_most_once = args[7] == '1'
    local q = redis.call('HMGET', p .. 'q:' .. queue, 'paused_at', 'global_limit', 'rate_limit', 'key_limit')
    if q[1] or q[2] or q[3] or q[4] then
        return {{}, {}}
    end
    local avail = p .. 'avail:' .. queue
    local rows, broken = {}, {}
    for priority = 1, 4 do
        local need = max - #rows
        if need <= 0 then
            break
        end
        local members = redis.call('ZRANGEBYLEX', avail, '[' .. priority, '(' .. priority .. bound, 'LIMIT', 0, need)
        for _, m in ipairs(members) do
            redis.call('ZREM', avail, m)
            local id = tonumber(string.sub(m, 18), 16)
            local jk = p .. 'job:' .. id
            local v = redis.call('HMGET', jk, unpack(CLAIMED))
            redis.call('ZREM', p .. 's:available', id)
            if not (v[1] and v[2] and v[3] and v[4] and v[5] and v[7] and v[8]) then
                -- A hash written by hand or half gone: out of the claim, reported by id.
                redis.call('SADD', p .. 'broken', id)
                broken[#broken + 1] = id
            else
                local attempt = tonumber(v[4]) + 1
                v[4] = attempt
                local by = v[6]
                if at_most_once then
                    redis.call('ZREM', p .. 'all', id)
                    if v[14] and redis.call('HGET', p .. 'unique', v[14]) == tostring(id) then
                        redis.call('HDEL', p .. 'unique', v[14])
                    end
                    redis.call('DEL', jk)
                else
                    local n = tonumber(redis.call('HGET', jk, 'attempted_by_n') or '0')
                    if n >= 100 then
                        -- Keep the last 100 clients (JobClaimParams.MAX_ATTEMPTED_BY).
                        local list = cjson.decode(by)
                        table.remove(list, 1)
                        table.insert(list, client)
                        by = cjson.encode(list)
                    else
                        by = append_json(by, client_json)
                        n = n + 1
                    end
                    v[6] = by
                    redis.call('HSET', jk, 'state', 'running', 'attempt', attempt, 'attempted_at', now,
                        'attempted_by', by, 'attempted_by_n', n, 'holder', client)
                    redis.call('ZADD', p .. 's:running', id, id)
                    redis.call('ZADD', p .. 'running', now, id)
                    redis.call('SADD', p .. 'run:' .. client, id)
                end
                table.insert(v, 1, id)
                rows[#rows + 1] = v
            end
        end
    end
    local taken = #rows + #broken
    if taken > 0 then
        count(p, 'available', queue, -taken)
        if not at_most_once and #rows > 0 then
            count(p, 'running', queue, #rows)
            redis.call('SADD', p .. 'keys', p .. 'run:' .. client)
        end
    end
    return {rows, broken}
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
local function complete_many(keys, args)
    local p = keys[1]
    local client, n = args[1], tonumber(args[2])
    local out = {}
    local by_queue = {}
    for i = 0, n - 1 do
        local b = 3 + i * 4
        local id = tonumber(args[b])
        local jk = p .. 'job:' .. id
        local v = redis.call('HMGET', jk, 'state', 'attempt', 'attempted_at', 'holder', 'queue', 'unique_key',
            'unique_states')
        if v[1] == 'running' and v[2] == args[b + 2] and v[3] == args[b + 3] and v[4] == client then
            local finalized = args[b + 1]
            redis.call('HSET', jk, 'state', 'completed', 'finalized_at', finalized)
            redis.call('ZREM', p .. 's:running', id)
            redis.call('ZREM', p .. 'running', id)
            redis.call('SREM', p .. 'run:' .. client, id)
            redis.call('ZADD', p .. 's:completed', id, id)
            redis.call('ZADD', p .. 'f:completed', finalized, id)
            by_queue[v[5]] = (by_queue[v[5]] or 0) + 1
            unique_after(p, id, v[6], v[7], 'completed')
            out[#out + 1] = id
        end
    end
    for queue, k in pairs(by_queue) do
        count(p, 'running', queue, -k)
        count(p, 'completed', queue, k)
    end
    return out
end

-- ARGV: n, then per job: id attempt attempted_at client state scheduled_at sk finalized_at error
-- attempt_delta output ('' for an absent value). Returns the ids written.
local SET_WIDTH = 11
local function set_state_many(keys, args)
    local p = keys[1]
    local n = tonumber(args[1])
    local out = {}
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
            out[#out + 1] = id
        end
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
            redis.call('ZADD', p .. 'all', id, id)
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

-- ARGV: from to descending(0/1) limit scan states queues kinds tags args created_from created_before
-- (sets as JSON arrays of strings, args a JSON object or '', times '' for none). Reads at most
-- `scan` ids of the narrowest set (one state's, else every job's) between from and to, in the
-- scan's direction, and returns {rows matching (at most limit), the last id read, 1 when the range
-- is read to its end}.
local function list(keys, args)
    local p = keys[1]
    local from, to, descending = args[1], args[2], args[3] == '1'
    local limit, scan = tonumber(args[4]), tonumber(args[5])
    local states, queues, kinds, tags = json_set(args[6]), json_set(args[7]), json_set(args[8]), cjson.decode(args[9])
    local want_args = args[10] ~= '' and cjson.decode(args[10]) or nil
    local created_from, created_before = tonumber(args[11]), tonumber(args[12])
    local n_states, only = 0, nil
    for s in pairs(states) do
        n_states = n_states + 1
        only = s
    end
    local source = n_states == 1 and (p .. 's:' .. only) or (p .. 'all')
    local ids
    if descending then
        ids = redis.call('ZREVRANGEBYSCORE', source, to, from, 'LIMIT', 0, scan)
    else
        ids = redis.call('ZRANGEBYSCORE', source, from, to, 'LIMIT', 0, scan)
    end
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

local QUEUE = {'created_at', 'updated_at', 'paused_at', 'metadata'}

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

local FIXED = {'id', 'all', 's:available', 's:scheduled', 's:running', 's:retryable', 's:completed',
               's:cancelled', 's:discarded', 'due', 'running', 'f:completed', 'f:cancelled', 'f:discarded',
               'counts', 'unique', 'queues', 'clients', 'leader', 'broken', 'audit', 'audit_id', 'migrations'}

-- ARGV: batch. Deletes up to batch jobs of the namespace, and once none is left every other key,
-- the migration record and the key registry last. Returns how many jobs are left (0: all gone).
local function namespace_drop(keys, args)
    local p = keys[1]
    local batch = tonumber(args[1])
    local ids = redis.call('ZRANGE', p .. 'all', 0, batch - 1)
    for _, id in ipairs(ids) do
        redis.call('DEL', p .. 'job:' .. id)
    end
    if #ids > 0 then
        redis.call('ZREM', p .. 'all', unpack(ids))
    end
    local left = redis.call('ZCARD', p .. 'all')
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
        redis.call('DEL', p .. 'keys')
    end
    return left
end

redis.register_function{function_name = 'runnel_version', callback = version, flags = {'no-writes'}}
redis.register_function('runnel_insert_many', insert_many)
redis.register_function('runnel_claim', claim)
redis.register_function{function_name = 'runnel_claim_recover', callback = claim_recover, flags = {'no-writes'}}
redis.register_function('runnel_complete_many', complete_many)
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
redis.register_function('runnel_audit_insert', audit_insert)
redis.register_function{function_name = 'runnel_audit_list', callback = audit_list, flags = {'no-writes'}}
redis.register_function{function_name = 'runnel_migration_list', callback = migration_list, flags = {'no-writes'}}
redis.register_function('runnel_migration_up', migration_up)
redis.register_function('runnel_namespace_drop', namespace_drop)
