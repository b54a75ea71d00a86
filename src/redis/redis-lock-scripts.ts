/**
 * The Lua scripts of the keyed `RedisMutationLock`, each run atomically by Redis.
 *
 * The lock is made of lines: the app line (readers-writer: keyed mutations hold it shared,
 * app-wide ones exclusive) and one line per key (exclusive). A line `B` (the prefix for the app
 * line, `<prefix>:k:<key>` for a key) is five keys, all gone when nobody holds or waits:
 *
 * - `B:queue`   the waiters, in arrival order: `<mode><last>:<id>` (mode S or X; last 1 when the
 *               line is the waiter's last, so the grant that hands it over ends its wait);
 * - `B:holders` a sorted set, holder id → the end of its lease (ms, Redis clock);
 * - `B:holder`  the exclusive holder's id (with the lease as its expiry);
 * - `B:tokens`  a hash, holder id → its fencing token;
 * - `B:next`    a hash, waiter id → the token it will be granted with, drawn as it joins the queue
 *               (the queue is served in order, so the tokens of a line still grow; see `nexttoken`).
 *
 * Besides: `<prefix>:fence`, one counter for every grant (the only key that stays; started from the
 * clock in µs when it is missing, so tokens grow across a Redis restart too), and
 * `<prefix>:w:<id>`, a waiter's place (its instance id, with the lease as expiry, renewed while it
 * waits; a waiter whose place expired is skipped). A release hands the line to the head of its
 * queue and PUBLISHes the grant on the head's instance channel (`<prefix>:i:<instance>`) only:
 * one message, one woken waiter, no retries. A waiter that joins a queue learns who it follows (the
 * entry before it, or the exclusive holder) and its token; an exclusive grant's message names the
 * next head and its token too. When the one followed is of the same instance, the instance hands
 * the line on as that one releases it (no round trip on the way), and the release's own hand-off in
 * Redis then grants that same waiter with that same token.
 *
 * KEYS[1] is the prefix (a hash tag: every key of the lock is in one slot); ARGV[1] the lease (ms).
 */
const COMMON = `
local P = KEYS[1]
local lease = tonumber(ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

local function base(line)
  if line == '' then return P end
  return P .. ':k:' .. line
end

-- Drops holders whose lease ran out (a holder that died).
local function purge(b)
  local dead = redis.call('ZRANGEBYSCORE', b .. ':holders', '-inf', now)
  for _, id in ipairs(dead) do
    redis.call('ZREM', b .. ':holders', id)
    redis.call('HDEL', b .. ':tokens', id)
    if redis.call('GET', b .. ':holder') == id then redis.call('DEL', b .. ':holder') end
  end
end

local function free(b, mode)
  if redis.call('EXISTS', b .. ':holder') == 1 then return false end
  return mode == 'S' or redis.call('ZCARD', b .. ':holders') == 0
end

-- A new fencing token. A counter that is gone (a Redis restarted without persistence) starts again
-- from the clock, in µs: later tokens stay larger than any handed out before. (Strings, not Lua
-- numbers: Lua prints a number with 14 digits, and a token has 16.)
local function newtoken()
  if redis.call('EXISTS', P .. ':fence') == 0 then redis.call('SET', P .. ':fence', t[1] .. string.format('%06d', tonumber(t[2]))) end
  return string.format('%d', redis.call('INCR', P .. ':fence'))
end

-- The token a waiter of a line will be granted with, drawn once, as it joins the queue: its instance
-- may give it the line the moment the one it follows releases, before the release reaches Redis
-- (the client's hand-on). The queue is served in order and every waiter draws as it joins, so the
-- grants before it have smaller tokens and the ones after it larger.
local function nexttoken(b, id)
  local token = redis.call('HGET', b .. ':next', id)
  if not token then
    token = newtoken()
    redis.call('HSET', b .. ':next', id, token)
  end
  redis.call('PEXPIRE', b .. ':next', lease)
  return token
end

local function take(b, mode, id)
  local token = redis.call('HGET', b .. ':next', id)
  if token then redis.call('HDEL', b .. ':next', id) else token = newtoken() end
  redis.call('ZADD', b .. ':holders', now + lease, id)
  redis.call('PEXPIRE', b .. ':holders', lease)
  redis.call('HSET', b .. ':tokens', id, token)
  redis.call('PEXPIRE', b .. ':tokens', lease)
  if mode == 'X' then redis.call('SET', b .. ':holder', id, 'PX', lease) end
  return token
end

-- The head of a line, when it waits for it exclusively as its last line (a grant would end its wait)
-- and its place is alive: '|<id>|<token ahead>', else '||0'.
local function nexthead(b)
  local head = redis.call('LINDEX', b .. ':queue', 0)
  if head and string.sub(head, 1, 2) == 'X1' and redis.call('EXISTS', P .. ':w:' .. string.sub(head, 4)) == 1 then
    return '|' .. string.sub(head, 4) .. '|' .. nexttoken(b, string.sub(head, 4))
  end
  return '||0'
end

-- Who a waiter joining line b's queue now will follow, when that one holds or waits exclusively (its
-- release then hands the line straight to the joiner): the queue's last entry, or with nobody in the
-- queue the exclusive holder; '' otherwise (a shared entry or holders: others may still hold).
local function predecessor(b)
  local tail = redis.call('LINDEX', b .. ':queue', -1)
  if tail then
    if string.sub(tail, 1, 1) == 'X' then return string.sub(tail, 4) end
    return ''
  end
  return redis.call('GET', b .. ':holder') or ''
end

-- Serves the head of the line while it can be served (one exclusive waiter, or the run of shared
-- ones), each told on its own instance's channel; waiters whose place expired are dropped.
local function handoff(line)
  local b = base(line)
  purge(b)
  local q = b .. ':queue'
  while true do
    local head = redis.call('LINDEX', q, 0)
    if not head then return end
    local mode = string.sub(head, 1, 1)
    local id = string.sub(head, 4)
    local instance = redis.call('GET', P .. ':w:' .. id)
    if not instance then
      redis.call('LPOP', q)
      redis.call('HDEL', b .. ':next', id)
    else
      if not free(b, mode) then return end
      redis.call('LPOP', q)
      local token = take(b, mode, id)
      if string.sub(head, 2, 2) == '1' then redis.call('DEL', P .. ':w:' .. id) end
      -- An exclusive grant names the next head too: if that one is of the same instance, the
      -- instance hands it the line on release without waiting for Redis (nexttoken).
      local after = '||0'
      if mode == 'X' then after = nexthead(b) end
      redis.call('PUBLISH', P .. ':i:' .. instance, line .. '|' .. id .. '|' .. token .. after)
      if mode == 'X' then return end
    end
  end
end

-- Extends id's lease of a line; false if it does not hold it (any more).
local function renew(b, id)
  if not redis.call('ZSCORE', b .. ':holders', id) then return false end
  redis.call('ZADD', b .. ':holders', 'XX', now + lease, id)
  redis.call('PEXPIRE', b .. ':holders', lease)
  redis.call('PEXPIRE', b .. ':tokens', lease)
  if redis.call('GET', b .. ':holder') == id then redis.call('PEXPIRE', b .. ':holder', lease) end
  return true
end

-- Gives back id's hold of a line (if it has one), and hands the line on.
local function release(line, id)
  local b = base(line)
  if redis.call('ZREM', b .. ':holders', id) == 1 then
    redis.call('HDEL', b .. ':tokens', id)
    if redis.call('GET', b .. ':holder') == id then redis.call('DEL', b .. ':holder') end
  end
  handoff(line)
end
`;

/**
 * Takes lines ARGV[5..] (pairs: mode, line) from the ARGV[4]-th pair on, for waiter ARGV[2] of
 * instance ARGV[3]: each free line with nobody in its queue is taken; at the first that is not,
 * the waiter joins its queue. Returns { waiting-at (0: all taken), its token ahead in that line
 * (else 0), the id it follows there when that one holds or waits exclusively (else ''), tokens of
 * the lines taken }.
 */
export const ACQUIRE = `${COMMON}
local id = ARGV[2]
local from = tonumber(ARGV[4])
local n = (#ARGV - 4) / 2
local result = { 0, 0, '' }
for i = from, n do
  local mode = ARGV[3 + 2 * i]
  local line = ARGV[4 + 2 * i]
  local b = base(line)
  handoff(line)
  if redis.call('LLEN', b .. ':queue') == 0 and free(b, mode) then
    result[#result + 1] = tonumber(take(b, mode, id))
  else
    local last = '0'
    if i == n then last = '1' end
    redis.call('SET', P .. ':w:' .. id, ARGV[3], 'PX', lease)
    result[3] = predecessor(b)
    redis.call('RPUSH', b .. ':queue', mode .. last .. ':' .. id)
    -- Drawn as it joins, like every waiter: the queue is served in order, so its tokens grow.
    result[2] = tonumber(nexttoken(b, id))
    redis.call('PEXPIRE', b .. ':queue', lease)
    result[1] = i
    return result
  end
end
redis.call('DEL', P .. ':w:' .. id)
return result`;

/**
 * A waiting waiter's check (every poll): keeps its place alive and the leases of the lines it
 * already holds (ARGV[5..]: a multi-key waiter holds the app and its first keys while it waits for
 * the next), serves the line if its holder died, and returns its token if it holds the line now (a
 * grant whose message was missed), else 0. ARGV: lease, id, instance, line, held lines...
 */
export const CHECK = `${COMMON}
local id = ARGV[2]
local b = base(ARGV[4])
for i = 5, #ARGV do renew(base(ARGV[i]), id) end
redis.call('PEXPIRE', P .. ':w:' .. id, lease)
redis.call('PEXPIRE', b .. ':queue', lease)
redis.call('PEXPIRE', b .. ':next', lease)
handoff(ARGV[4])
local token = redis.call('HGET', b .. ':tokens', id)
if token then return tonumber(token) end
return 0`;

/**
 * Gives back waiter ARGV[2]'s holds of lines ARGV[4..]; with ARGV[3] = '1' it also leaves their
 * queues (an aborted waiter). Each line is handed on. ARGV: lease, id, leaving, lines...
 */
export const RELEASE = `${COMMON}
local id = ARGV[2]
for i = #ARGV, 4, -1 do
  local line = ARGV[i]
  if ARGV[3] == '1' then
    local q = base(line) .. ':queue'
    for _, entry in ipairs({ 'S0:', 'S1:', 'X0:', 'X1:' }) do redis.call('LREM', q, 0, entry .. id) end
    redis.call('HDEL', base(line) .. ':next', id)
  end
  release(line, id)
end
redis.call('DEL', P .. ':w:' .. id)
return 1`;

/** Renews holder ARGV[2]'s leases of lines ARGV[3..]; returns how many of them it no longer holds. */
export const RENEW = `${COMMON}
local id = ARGV[2]
local lost = 0
for i = 3, #ARGV do
  if not renew(base(ARGV[i]), id) then lost = lost + 1 end
end
return lost`;
