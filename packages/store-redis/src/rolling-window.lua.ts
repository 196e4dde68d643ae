/**
 * The rolling-window limiter as one Lua script, so a hit is atomic however many nodes hit one key.
 * The same rules as the memory limiter of store-memory: a hit counts in a window while
 * `now - at < windowMs`; a hit that does not fit every window is refused whole and recorded nowhere;
 * the tightest window is reported. Hits of one millisecond share one entry.
 *
 * KEYS[1]: a sorted set of hit times (member and score: the time in ms).
 * KEYS[2]: a hash of the summed cost per hit time, and `span`, the longest window the key was checked
 * against (older hits are dropped).
 * ARGV: now, cost, then windowMs and limit of each window.
 * Returns { allowed (1|0), limit, remaining, resetMs, retryAfterMs } of the tightest window.
 */
export const ROLLING_WINDOW_SCRIPT = `
local times, costs = KEYS[1], KEYS[2]
local now, cost = tonumber(ARGV[1]), tonumber(ARGV[2])
local windows = {}
local span = tonumber(redis.call('HGET', costs, 'span') or '0')
for i = 3, #ARGV, 2 do
  local w = { ms = tonumber(ARGV[i]), limit = tonumber(ARGV[i + 1]) }
  windows[#windows + 1] = w
  if w.ms > span then span = w.ms end
end

local expired = redis.call('ZRANGEBYSCORE', times, '-inf', now - span)
for i = 1, #expired, 1000 do
  local chunk = { unpack(expired, i, math.min(i + 999, #expired)) }
  redis.call('ZREM', times, unpack(chunk))
  redis.call('HDEL', costs, unpack(chunk))
end

-- the hits of each window, oldest first, with their running total of costs
local allowed = true
for _, w in ipairs(windows) do
  w.at = redis.call('ZRANGEBYSCORE', times, '(' .. (now - w.ms), '+inf')
  w.total = {}
  local sum = 0
  if #w.at > 0 then
    local each = redis.call('HMGET', costs, unpack(w.at))
    for i = 1, #w.at do
      sum = sum + tonumber(each[i] or '0')
      w.total[i] = sum
    end
  end
  w.used = sum
  if sum + cost > w.limit then allowed = false end
end

-- milliseconds until units of the window's hits have left it (the window's length when they cannot)
local function freed(w, units)
  if units <= 0 then return 0 end
  for i = 1, #w.at do
    if w.total[i] >= units then return tonumber(w.at[i]) + w.ms - now end
  end
  return w.ms
end

local best
for _, w in ipairs(windows) do
  local d
  if allowed then
    local reset = 0
    if w.used > 0 or cost > 0 then reset = freed(w, 1) end
    d = { limit = w.limit, remaining = w.limit - w.used - cost, reset = reset, retry = 0 }
    if best == nil or d.remaining < best.remaining or (d.remaining == best.remaining and d.reset > best.reset) then
      best = d
    end
  else
    d = { limit = w.limit, remaining = 0, reset = freed(w, 1), retry = freed(w, w.used + cost - w.limit) }
    if best == nil or d.retry > best.retry then best = d end
  end
end

local held = redis.call('ZCARD', times) > 0
if allowed and cost > 0 then
  redis.call('ZADD', times, now, ARGV[1])
  redis.call('HINCRBY', costs, ARGV[1], cost)
  held = true
end
if held then
  redis.call('HSET', costs, 'span', span)
  redis.call('PEXPIRE', times, span)
  redis.call('PEXPIRE', costs, span)
end
return { allowed and 1 or 0, best.limit, best.remaining, best.reset, best.retry }
`;

/**
 * Gives back up to `cost` units of the hit at time `at` (a right guess, decisions §14), atomically.
 * KEYS as above; ARGV: at, cost. A hit left with no cost leaves both keys.
 */
export const REFUND_SCRIPT = `
local times, costs = KEYS[1], KEYS[2]
local at, cost = ARGV[1], tonumber(ARGV[2])
local held = tonumber(redis.call('HGET', costs, at) or '0')
if held <= 0 or cost <= 0 then return 0 end
local back = math.min(cost, held)
if held - back <= 0 then
  redis.call('ZREM', times, at)
  redis.call('HDEL', costs, at)
else
  redis.call('HINCRBY', costs, at, -back)
end
return back
`;
