-- wrk script of bench/lib/wrk-load.mjs: `wrk ... -s rotate.lua <url> -- <requests file> <amount> <expect>`.
-- The file holds raw HTTP requests separated by NUL bytes, the last one the filler. The thread sends the
-- others in turn, `amount` of them, then only the filler (a request that changes nothing), and stops once
-- `amount` responses with status `expect` have arrived: so, like a fixed-amount autocannon round, every
-- counted request sent is also answered and seen, and no click is left in flight when the round ends.
local ffi = require("ffi")
ffi.cdef([[
  typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
  int clock_gettime(int clock, bench_timespec *ts);
  int getpid(void);
  int kill(int pid, int sig);
]])
local CLOCK_MONOTONIC, SIGINT = 1, 2
local ts = ffi.new("bench_timespec")
local function now_us()
  ffi.C.clock_gettime(CLOCK_MONOTONIC, ts)
  return tonumber(ts.tv_sec) * 1e6 + tonumber(ts.tv_nsec) / 1e3
end

local requests = {}
local filler = nil
local amount = 0
local expect = 0
local next_index = 0
local verified = false
sent = 0
found = 0
started_us = 0
elapsed_us = 0
statuses = {}

function init(args)
  local file = assert(io.open(args[1], "rb"))
  local text = file:read("*a")
  file:close()
  for raw in string.gmatch(text, "([^%z]+)") do
    requests[#requests + 1] = raw
  end
  filler = table.remove(requests)
  amount = tonumber(args[2])
  expect = tonumber(args[3])
end

function request()
  -- wrk calls request() once before the run to check what it returns: that one is never sent
  if not verified then
    verified = true
    return requests[1]
  end
  if sent >= amount then
    return filler
  end
  if sent == 0 then
    started_us = now_us()
  end
  sent = sent + 1
  next_index = next_index % #requests + 1
  return requests[next_index]
end

function response(status)
  statuses[status] = (statuses[status] or 0) + 1
  if status == expect then
    found = found + 1
    if found == amount then
      elapsed_us = now_us() - started_us
      wrk.thread:stop()
      -- wrk's main thread sleeps for the whole -d: SIGINT (its own handler) wakes it to report now
      ffi.C.kill(ffi.C.getpid(), SIGINT)
    end
  end
end

local threads = {}

function setup(thread)
  threads[#threads + 1] = thread
end

-- One JSON line for the benchmark: counts, exact percentiles (microseconds), and the CPU seconds wrk used.
function done(summary, latency)
  local t = threads[1]
  local parts = {}
  for status, count in pairs(t:get("statuses")) do
    parts[#parts + 1] = string.format('"%d":%d', status, count)
  end
  local errors = summary.errors
  local elapsed = t:get("elapsed_us")
  if elapsed == 0 then
    elapsed = summary.duration
  end
  io.write(string.format(
    '{"found":%d,"sent":%d,"completed":%d,"elapsedUs":%.0f,"p50Us":%.0f,"p99Us":%.0f,"cpuSeconds":%.3f,' ..
      '"errors":%d,"timeouts":%d,"statuses":{%s}}\n',
    t:get("found"), t:get("sent"), summary.requests, elapsed, latency:percentile(50),
    latency:percentile(99), os.clock(), errors.connect + errors.read + errors.write, errors.timeout,
    table.concat(parts, ",")))
end
